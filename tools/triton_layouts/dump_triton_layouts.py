#!/usr/bin/env python3
"""Prints Triton's linear layouts of the NVIDIA MMA encodings as `lanemap-cli conform` lines.

docs/layouts-in.md#triton. Runs on the CPU (no kernel is launched) with Triton 3.x installed:
    python3 tools/triton_layouts/dump_triton_layouts.py OUT.txt     (or no argument: standard output)
    lanemap-cli conform OUT.txt
Each layout is Triton's own conversion of the attribute (`#ttg.nvidia_mma`, `#ttg.dot_op`) to a LinearLayout,
printed as the `#ttg.linear` attribute Triton would print for it; the line after it is the attribute itself as
Triton prints it (MLIR's own printer), over the same shape, so that lanemap's reading of the attribute is
checked against Triton's conversion (LayoutIn.TritonMmaEncodingsConvertAsTritonDid).
"""
import os
import sys

import triton
import triton.experimental.gluon.language as gl
from triton._C.libtriton import gluon_ir, ir


def to_linear_layout(layout, shape):
    context = ir.context()
    ir.load_dialects(context)
    builder = gluon_ir.GluonOpBuilder(context)
    return builder.to_linear_layout(layout._to_ir(builder), shape)


def encoding_text(layout, shape):
    """The encoding attribute as Triton's MLIR printer writes it, e.g. #ttg.dot_op<{opIdx = 0, ...}>."""
    context = ir.context()
    ir.load_dialects(context)
    builder = gluon_ir.GluonOpBuilder(context)
    attr = layout._to_ir(builder)
    text = str(attr)
    if text.startswith("#"):
        return text
    # The attribute has no printer in the Python bindings: print a tensor type that carries it,
    # tensor<16x16xf16, #ttg.dot_op<{...}>>, and keep the encoding.
    text = str(builder.get_distributed_ty(builder.get_half_ty(), list(shape), attr))
    start = text.index("#")
    if not text.endswith(">"):
        raise ValueError(f"unexpected tensor type text: {text}")
    return text[start:-1]


def attribute(ll):
    def bases(list_):
        return "[" + ", ".join("[" + ", ".join(str(x) for x in b) + "]" for b in list_) + "]"

    return (f"#ttg.linear<{{register = {bases(ll.reg_bases)}, lane = {bases(ll.lane_bases)}, "
            f"warp = {bases(ll.warp_bases)}, block = {bases(ll.block_bases)}}}>")


def mma_v2(k, k_width, types):
    """mma.m16n8kK: the accumulator and both dot operands (Triton's A is [M, K], B [K, N])."""
    mma = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 1], instr_shape=[16, 8])
    spec = f"mma.m16n8k{k}.{types}"
    yield f"{spec}:C", mma, [16, 8]
    yield f"{spec}:A", gl.DotOperandLayout(operand_index=0, parent=mma, k_width=k_width), [16, k]
    yield f"{spec}:B", gl.DotOperandLayout(operand_index=1, parent=mma, k_width=k_width), [k, 8]


def mma_v3(n, k, k_width, types):
    """wgmma.m64nNkK: the accumulator of one warpgroup and A in registers."""
    mma = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, n, k])
    spec = f"wgmma.m64n{n}k{k}.{types}"
    yield f"{spec}:D", mma, [64, n]
    yield f"{spec}:A", gl.DotOperandLayout(operand_index=0, parent=mma, k_width=k_width), [64, k]


def main():
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help")):
        print(f"usage: {sys.argv[0]} [OUT.txt]   (without OUT: standard output)", file=sys.stderr)
        return 2
    lines = [f"# Triton {triton.__version__} linear layouts, printed by tools/triton_layouts/dump_triton_layouts.py"]
    layouts = [*mma_v2(16, 2, "f16"), *mma_v2(8, 2, "f16"), *mma_v2(32, 4, "s8"), *mma_v2(16, 4, "s8"),
               *mma_v3(64, 16, 2, "f16"), *mma_v3(128, 16, 2, "f16"), *mma_v3(64, 32, 4, "s8")]
    failed = 0
    for claim, layout, shape in layouts:
        try:
            lines.append(f"{claim} {attribute(to_linear_layout(layout, shape))}")
        except Exception as error:  # one layout Triton refuses must not hide the others
            print(f"# {claim}: Triton refused {layout} over {shape}: {error}", file=sys.stderr)
            failed += 1
            continue
        try:
            lines.append(f"{claim} {encoding_text(layout, shape)}")
        except Exception as error:
            print(f"# {claim}: cannot print the attribute of {layout}: {error}", file=sys.stderr)
            failed += 1
    text = "\n".join(lines) + "\n"
    if len(sys.argv) == 2:
        # Written whole, then renamed: a failed run leaves the file that was there.
        out = sys.argv[1]
        with open(out + ".tmp", "w") as f:
            f.write(text)
        os.replace(out + ".tmp", out)
    else:
        sys.stdout.write(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
