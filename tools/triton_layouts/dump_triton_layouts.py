#!/usr/bin/env python3
"""Prints Triton's linear layouts of the NVIDIA MMA encodings as `lanemap-cli conform` lines.

docs/layouts-in.md#triton. Runs on the CPU (no kernel is launched) with Triton 3.x installed:
    python3 tools/triton_layouts/dump_triton_layouts.py OUT.txt     (or no argument: standard output)
    lanemap-cli conform OUT.txt
Each layout is Triton's own conversion of the attribute (`#ttg.nvidia_mma`, `#ttg.dot_op`) to a LinearLayout,
printed as the `#ttg.linear` attribute Triton would print for it; the line after it is the attribute itself as
Triton prints it (MLIR's own printer), over the same shape, so that lanemap's reading of the attribute is
checked against Triton's conversion (LayoutIn.TritonMmaEncodingsConvertAsTritonDid).

The shared-memory encodings Triton gives wgmma's operands follow (`#ttg.nvmma_shared` of each swizzle width,
transposed or not, 8-, 16- and 32-bit elements; one `#ttg.swizzled_shared`): each as Triton's linear layout of
it (`#ttg.shared_linear<{offset = [...]}>`, offset -> [dim0, dim1]) and then the encoding itself, both in the
memory descriptor type that carries the shape and element type (`!ttg.memdesc<64x64xf16, ..., #ttg.shared_memory>`),
so that `conform` compares both byte for byte with lanemap's wgmma operand, and lanemap's reading of the encoding
with Triton's conversion.
"""
import multiprocessing
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


# --- shared-memory encodings of wgmma's operands ------------------------------------------------------------

# Triton's element types by lanemap's spec type: (gluon dtype name, the memdesc's type name, bits).
ELEMENT = {"f16": ("float16", "f16", 16), "s8": ("int8", "i8", 8), "tf32": ("float32", "f32", 32)}


def bases_text(bases):
    return "[" + ", ".join("[" + ", ".join(str(int(x)) for x in b) + "]" for b in bases) + "]"


def memdesc(shape, type_name, encoding):
    """The memory descriptor type Triton prints for a shared tensor: shape, element type, encoding."""
    return f"!ttg.memdesc<{shape[0]}x{shape[1]}x{type_name}, {encoding}, #ttg.shared_memory>"


def nvmma_text(swizzle, transposed, bits):
    """#ttg.nvmma_shared as Triton's printer writes it (NVMMASharedEncodingAttr::print, one CTA, rank 2)."""
    return (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {swizzle}, transposed = {str(bool(transposed)).lower()}, "
            f"elementBitWidth = {bits}}}>")


def swizzled_text(vec, per_phase, max_phase, order):
    return (f"#ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, "
            f"order = [{order[0]}, {order[1]}]}}>")


def shared_linear_text(ll):
    """Triton's linear layout of a shared encoding (offset -> [dim0, dim1]) as #ttg.shared_linear."""
    offsets = getattr(ll, "offset_bases", None)
    if offsets is None:  # an older binding: a LinearEncoding-like object or only its text
        raise ValueError(f"to_linear_layout gave no offset_bases: {ll!r}")
    blocks = getattr(ll, "block_bases", []) or []
    alignment = getattr(ll, "alignment", None)
    text = f"#ttg.shared_linear<{{offset = {bases_text(offsets)}, block = {bases_text(blocks)}}}"
    return text + (f", alignment = {int(alignment)}>" if alignment is not None else ">")


def nvmma_layout(swizzle, bits, transposed):
    try:
        return gl.NVMMASharedLayout(swizzle_byte_width=swizzle, element_bitwidth=bits, rank=2, transposed=transposed)
    except TypeError:  # a release without `rank`
        return gl.NVMMASharedLayout(swizzle_byte_width=swizzle, element_bitwidth=bits, transposed=transposed)


def triton_default(shape, types, transposed):
    """The swizzle Triton chooses for a wgmma operand of this shape (NVMMASharedLayout.get_default_for)."""
    dtype = getattr(gl, ELEMENT[types][0])
    chosen = gl.NVMMASharedLayout.get_default_for(shape, dtype, transposed=transposed)
    return chosen.swizzle_byte_width


def wgmma_shared(types, k):
    """wgmma.m64n64kK's A ([64, K'], M x K) and B ([K', 64], K x N) in shared memory. Triton's A is K-major
    when not transposed (dim1 contiguous), M-major when transposed; its B K-major when transposed, N-major
    when not. Each swizzle Triton has, over the smallest K' whose row is that wide; the default Triton chooses
    for the whole 64 x 64 tile first."""
    name, type_name, bits = ELEMENT[types]
    spec = f"wgmma.m64n64k{k}.{types}"
    width = {128: 1024 // bits, 64: 512 // bits, 32: 256 // bits}  # elements in one swizzled row
    for swizzle in (128, 64, 32):
        kk = max(k, width[swizzle])
        yield f"{spec}:A", ("nvmma", swizzle, False, bits), [64, kk], type_name
        yield f"{spec}:B", ("nvmma", swizzle, True, bits), [kk, 64], type_name
    # No swizzle: Triton chooses it where the contiguous dim is 16 bytes or less (get_default_for), and lays
    # the tensor row-major whatever `transposed` says: A [64, 16 bytes] (K-major) and the B of N = 8 [K, 8]
    # (N-major; wgmma reads MN-major B of 16-bit types only).
    yield f"{spec}:A", ("nvmma", 0, False, bits), [64, 128 // bits], type_name
    yield f"wgmma.m64n8k{k}.{types}:B", ("nvmma", 0, False, bits), [k, 8], type_name
    # M-major A and N-major B (the transposes), 128B over 64 x 64.
    if bits == 16:
        yield f"{spec}:A", ("nvmma", 128, True, bits), [64, 64], type_name
        yield f"{spec}:B", ("nvmma", 128, False, bits), [64, 64], type_name
        # The generic swizzled encoding with 128B's phases.
        yield f"{spec}:A", ("swizzled", 8, 1, 8, [1, 0]), [64, 64], type_name


def to_gluon(kind):
    if kind[0] == "nvmma":
        return nvmma_layout(kind[1], kind[3], kind[2])
    return gl.SwizzledSharedLayout(kind[1], kind[2], kind[3], kind[4])


def to_text(kind, layout, shape):
    """The encoding as Triton prints it: MLIR's printer where the bindings have it, else the same fields."""
    try:
        context = ir.context()
        ir.load_dialects(context)
        builder = gluon_ir.GluonOpBuilder(context)
        text = str(layout._to_ir(builder))
        if text.startswith("#ttg."):
            return text
    except Exception:  # no printer in this release's bindings: the fields, as its printer writes them
        pass
    if kind[0] == "nvmma":
        return nvmma_text(kind[1], kind[2], kind[3])
    return swizzled_text(kind[1], kind[2], kind[3], kind[4])


def convert(kind, shape, pipe):
    """In a child process: Triton's linear layout of the encoding and its text, or the error. Triton stops the
    whole process on some layouts it refuses (llvm::report_fatal_error), which must not stop the dump."""
    try:
        layout = to_gluon(kind)
    except Exception as error:
        pipe.send(("refused", str(error)))
        return
    text = to_text(kind, layout, shape)
    try:
        pipe.send(("ok", shared_linear_text(to_linear_layout(layout, shape)), text))
    except Exception as error:
        pipe.send(("no linear", str(error), text))


def convert_from(cases, first, pipe):
    """In a child process: convert cases[first:], one answer each, in order."""
    for kind, shape in cases[first:]:
        convert(kind, shape, pipe)


def converted_all(cases):
    """Every case's answer. One child converts them in turn (a child per case, forked from a process that holds
    Triton's and CUDA's threads, could hang until its timeout; a fresh one per case re-imports Triton); when a
    conversion stops the child, that case is reported and a new child goes on from the next."""
    answers = []
    try:
        context = multiprocessing.get_context("spawn")
    except ValueError:  # no child processes: in this process
        parent, child = multiprocessing.Pipe()
        for kind, shape in cases:
            convert(kind, shape, child)
            answers.append(parent.recv())
        return answers
    while len(answers) < len(cases):
        parent, child = context.Pipe()
        process = context.Process(target=convert_from, args=(cases, len(answers), child))
        process.start()
        child.close()
        while len(answers) < len(cases):
            try:
                if not parent.poll(180):
                    raise EOFError
                answers.append(parent.recv())
            except EOFError:
                process.join(5)
                if process.is_alive():
                    process.kill()
                    process.join(5)
                answers.append(("died", f"the conversion stopped the process (exit code {process.exitcode})"))
                break
        process.join(30)
        if process.is_alive():
            process.kill()
    return answers


def shared_lines():
    lines, failed = [], 0
    cases = [*wgmma_shared("f16", 16), *wgmma_shared("s8", 32), *wgmma_shared("tf32", 8)]
    answers = converted_all([(kind, shape) for _, kind, shape, _ in cases])
    for (claim, kind, shape, type_name), answer in zip(cases, answers):
        if answer[0] in ("refused", "died"):  # one layout Triton refuses must not hide the others
            print(f"# {claim}: Triton refused {kind} over {shape}: {answer[1]}", file=sys.stderr)
            lines.append(f"# {claim}: Triton refused {kind} over {shape}: {answer[1][:200]}")
            failed += 1
            continue
        if answer[0] == "ok":
            lines.append(f"{claim} {memdesc(shape, type_name, answer[1])}")
        else:  # the encoding line still says how lanemap reads it against wgmma
            print(f"# {claim}: no linear layout of {kind} over {shape}: {answer[1]}", file=sys.stderr)
            lines.append(f"# {claim}: Triton gave no linear layout of it over {shape}: {answer[1][:200]}")
            failed += 1
        lines.append(f"{claim} {memdesc(shape, type_name, answer[2])}")
    # What Triton chooses by itself for the 64 x 64 tiles (get_default_for), as a comment: the lines above
    # cover every width it can choose.
    for types in ("f16", "s8", "tf32"):
        for transposed in (False, True):
            try:
                chosen = triton_default([64, 64], types, transposed)
                lines.append(f"# Triton's default for a 64x64 {types} tile, transposed={transposed}: "
                             f"swizzlingByteWidth = {chosen}")
            except Exception as error:
                print(f"# get_default_for({types}, transposed={transposed}) failed: {error}", file=sys.stderr)
    return lines, failed


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
    shared, shared_failed = shared_lines()
    lines.append(f"# Triton {triton.__version__} shared-memory encodings of wgmma operands (offset -> [dim0, dim1])")
    lines.extend(shared)
    failed += shared_failed
    emit(lines)
    return 1 if failed else 0


def emit(lines):
    """The lines into the file named on the command line, or to standard output. Written whole, then renamed:
    a failed run leaves the file that was there."""
    text = "\n".join(lines) + "\n"
    if len(sys.argv) == 2:
        out = sys.argv[1]
        with open(out + ".tmp", "w") as f:
            f.write(text)
        os.replace(out + ".tmp", out)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    sys.exit(main())
