#!/usr/bin/env python3
"""Prints Triton's linear layouts of the NVIDIA MMA encodings as `lanemap-cli conform` lines.

docs/layouts-in.md#triton. Runs on the CPU (no kernel is launched) with Triton 3.x installed:
    python3 tools/triton_layouts/dump_triton_layouts.py > triton-layouts.txt
    lanemap-cli conform triton-layouts.txt
Each layout is Triton's own conversion of the attribute (`#ttg.nvidia_mma`, `#ttg.dot_op`) to a LinearLayout,
printed as the `#ttg.linear` attribute Triton would print for it.
"""
import sys

import triton
import triton.experimental.gluon.language as gl
from triton._C.libtriton import gluon_ir, ir


def to_linear_layout(layout, shape):
    context = ir.context()
    ir.load_dialects(context)
    builder = gluon_ir.GluonOpBuilder(context)
    return builder.to_linear_layout(layout._to_ir(builder), shape)


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
    print(f"# Triton {triton.__version__} linear layouts, printed by tools/triton_layouts/dump_triton_layouts.py")
    layouts = [*mma_v2(16, 2, "f16"), *mma_v2(8, 2, "f16"), *mma_v2(32, 4, "s8"), *mma_v2(16, 4, "s8"),
               *mma_v3(64, 16, 2, "f16"), *mma_v3(128, 16, 2, "f16"), *mma_v3(64, 32, 4, "s8")]
    for claim, layout, shape in layouts:
        try:
            print(f"{claim} {attribute(to_linear_layout(layout, shape))}")
        except Exception as error:  # one layout Triton refuses must not hide the others
            print(f"# {claim}: Triton refused {layout} over {shape}: {error}", file=sys.stderr)


if __name__ == "__main__":
    main()
