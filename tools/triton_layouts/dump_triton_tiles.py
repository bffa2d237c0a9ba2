#!/usr/bin/env python3
"""Prints Triton's own linear layouts of multi-warp MMA encodings, each with the CuTe tile lanemap claims it is.

docs/tiles.md#triton. Runs on the CPU (no kernel is launched) with Triton 3.x installed:
    python3 tools/triton_layouts/dump_triton_tiles.py OUT.txt      (or no argument: standard output)
    tools/triton_layouts/check_tiles.sh build/app/lanemap-cli OUT.txt
One line per claim, tab-separated: the operand (SPEC:OPERAND), the atom layout and the permutation in CuTe's
notation ('-': none), and Triton's LinearLayout of the encoding as the `#ttg.linear` attribute it prints.
`check_tiles.sh` runs `lanemap-cli check` on each line. A Triton layout is listed under more than one claim
where the notations could be read two ways (the order of the warps), so the record shows which one it is.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dump_triton_layouts import attribute, emit, gl, to_linear_layout, triton  # noqa: E402

# CuTe numbers the atoms of (2,2,1) M first (stride (1,2,0)); (2,2,1):(2,1,0) numbers them N first.
BOTH_ORDERS = ["(2,2,1)", "(2,2,1):(2,1,0)"]


def v2(warps, shape_c, k, claims, permutation="-"):
    """mma.m16n8k16.f16 over warps_per_cta = warps: C [M, N], A [M, K] and B [K, N] (kWidth 2)."""
    mma = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=warps, instr_shape=[16, 8])
    m, n = shape_c
    for atom in claims:
        yield "mma.m16n8k16.f16:C", atom, permutation, mma, [m, n]
        yield "mma.m16n8k16.f16:A", atom, permutation, gl.DotOperandLayout(operand_index=0, parent=mma, k_width=2), [m, k]
        yield "mma.m16n8k16.f16:B", atom, permutation, gl.DotOperandLayout(operand_index=1, parent=mma, k_width=2), [k, n]


def v3(warps, n, shape_d, k, claims, permutation="-"):
    """wgmma.m64nNk16.f16 over warps_per_cta = warps (4 a warpgroup): D [M, N'] and register A [M, K]."""
    mma = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=warps, instr_shape=[16, n, 16])
    m, nn = shape_d
    for atom in claims:
        yield f"wgmma.m64n{n}k16.f16:D", atom, permutation, mma, [m, nn]
        yield f"wgmma.m64n{n}k16.f16:A", atom, permutation, gl.DotOperandLayout(operand_index=0, parent=mma, k_width=2), [m, k]


def cases():
    # 2 x 2 warps, one atom each: which CuTe numbering of the warps is Triton's
    yield from v2([2, 2], [32, 16], 16, BOTH_ORDERS)
    # 4 warps along M, and along N: one numbering only
    yield from v2([4, 1], [64, 8], 16, ["(4,1,1)"])
    yield from v2([1, 4], [16, 32], 16, ["(1,4,1)"])
    # repeats: each warp holds 2 x 2 atoms of C, and A and B over K = 32 (two atoms along K)
    yield from v2([2, 2], [64, 32], 32, ["(2,2,1):(2,1,0)"], "_64,_32,_32")
    # wgmma: two warpgroups along M, one atom each, and with two atoms along N
    yield from v3([8, 1], 16, [128, 16], 16, ["(2,1,1)"])
    yield from v3([8, 1], 16, [128, 32], 16, ["(2,1,1)"], "_128,_32,_16")


def main():
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help")):
        print(f"usage: {sys.argv[0]} [OUT.txt]   (without OUT: standard output)", file=sys.stderr)
        return 2
    lines = [f"# Triton {triton.__version__} linear layouts of multi-warp MMA encodings, printed by "
             "tools/triton_layouts/dump_triton_tiles.py",
             "# operand\tatom layout\tpermutation\tTriton's layout (warps_per_cta and the shape in the comment above)"]
    failed = 0
    for claim, atom, permutation, layout, shape in cases():
        try:
            text = attribute(to_linear_layout(layout, shape))
        except Exception as error:  # one layout Triton refuses must not hide the others
            print(f"# {claim} {atom}: Triton refused {layout} over {shape}: {error}", file=sys.stderr)
            lines.append(f"# {claim} {atom}: Triton refused it over {shape}: {str(error)[:200]}")
            failed += 1
            continue
        warps = getattr(layout, "warps_per_cta", None) or getattr(getattr(layout, "parent", None), "warps_per_cta", "")
        lines.append(f"# warps_per_cta = {list(warps)}, shape = {shape}")
        lines.append(f"{claim}\t{atom}\t{permutation}\t{text}")
    emit(lines)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
