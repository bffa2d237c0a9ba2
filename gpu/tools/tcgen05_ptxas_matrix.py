#!/usr/bin/env python3
"""Which tcgen05 instruction strings does ptxas accept, per target? (docs/reference/tcgen05-descriptors.md)

Emits every tcgen05 form lanemap describes -- alloc / dealloc / relinquish_alloc_permit, tcgen05.mma per kind x
cta_group x dense/sparse x .ws x block-scale vector size, commit, and tcgen05.ld / tcgen05.st once per shape --
into one tiny PTX kernel each, assembles it with nvcc (-cubin) for every target, and prints one line per
(instruction, target): ACCEPTED, or REJECTED with ptxas's first error line. The output is committed untouched.

    gpu/tools/tcgen05_ptxas_matrix.py [--nvcc /usr/local/cuda/bin/nvcc] [--targets sm_100a,sm_103a,...]
"""
import argparse
import os
import subprocess
import sys
import tempfile

TARGETS = ["sm_100a", "sm_103a", "sm_110a", "sm_120a"]

# Registers every kernel declares: r0 the TMEM address of D, r1 the A TMEM address, r2 the idesc, r3 the sparse
# metadata, r4/r5 scale_A / scale_B, r8.. the ld/st data; rd0/rd1 the A/B shared-memory descriptors, rd2 an
# mbarrier address; p0 enable-input-d.
KERNEL = """.version {ptx}
.target {target}
.address_size 64
.visible .entry probe(.param .u64 out)
{{
    .reg .b32 r<40>;
    .reg .b64 rd<4>;
    .reg .pred p<2>;
    .shared .align 16 .b8 slot[16];
    mov.u32 r0, 0;
    mov.u32 r1, 0;
    mov.u32 r2, 0;
    mov.u32 r3, 0;
    mov.u32 r4, 0;
    mov.u32 r5, 0;
    mov.u64 rd0, 0;
    mov.u64 rd1, 0;
    mov.u64 rd2, 0;
    setp.eq.u32 p0, r0, 0;
    {instruction}
    ret;
}}
"""

KINDS = ["f16", "tf32", "f8f6f4", "i8"]
# Block-scaled kinds and the vector sizes the ISA lists for each (Table 57), plus the bare form of its example.
SCALED = {
    "mxf8f6f4": ["", ".block_scale", ".block_scale.scale_vec::1X", ".block_scale.block32"],
    "mxf4": [".block_scale", ".block_scale.scale_vec::2X", ".block_scale.block32"],
    "mxf4nvf4": [".block_scale.scale_vec::2X", ".block_scale.scale_vec::4X", ".block_scale.block16",
                 ".block_scale.block32"],
}
# Shapes of tcgen05.ld / st with .x1: registers per thread (Table 49).
SHAPES = {"32x32b": 1, "16x64b": 1, "16x128b": 2, "16x256b": 4, "16x32bx2": 1}


def regs(n):
    return "{" + ", ".join(f"r{8 + i}" for i in range(n)) + "}"


def instructions():
    out = []
    for cta in (1, 2):
        out.append(f"tcgen05.alloc.cta_group::{cta}.sync.aligned.shared::cta.b32 [slot], 32;")
        out.append(f"tcgen05.dealloc.cta_group::{cta}.sync.aligned.b32 r0, 32;")
        out.append(f"tcgen05.relinquish_alloc_permit.cta_group::{cta}.sync.aligned;")
        out.append(f"tcgen05.commit.cta_group::{cta}.mbarrier::arrive::one.shared::cluster.b64 [rd2];")
    for kind in KINDS:
        for cta in (1, 2):
            for sparse in (False, True):
                sp = ".sp" if sparse else ""
                meta = ", [r3]" if sparse else ""
                # A from shared memory (descriptor) and from Tensor Memory.
                out.append(f"tcgen05.mma{sp}.cta_group::{cta}.kind::{kind} [r0], rd0, rd1{meta}, r2, p0;")
                out.append(f"tcgen05.mma{sp}.cta_group::{cta}.kind::{kind} [r0], [r1], rd1{meta}, r2, p0;")
                # .ws (the ISA defines it for cta_group::1 only; cta_group::2 shows ptxas agrees).
                ws = ".ws.sp" if sparse else ".ws"
                out.append(f"tcgen05.mma{ws}.cta_group::{cta}.kind::{kind} [r0], rd0, rd1{meta}, r2, p0;")
    for kind, vectors in SCALED.items():
        for cta in (1, 2):
            for sparse in (False, True):
                sp = ".sp" if sparse else ""
                meta = ", [r3]" if sparse else ""
                for vec in vectors:
                    out.append(f"tcgen05.mma{sp}.cta_group::{cta}.kind::{kind}{vec} [r0], rd0, rd1{meta}, r2, "
                               f"[r4], [r5], p0;")
            # .ws does not exist for block scaling (Table 39): one line to show ptxas agrees.
            out.append(f"tcgen05.mma.ws.cta_group::1.kind::{kind}{vectors[-1]} [r0], rd0, rd1, r2, [r4], [r5], p0;")
    for shape, n in SHAPES.items():
        split = ", 16" if shape == "16x32bx2" else ""
        out.append(f"tcgen05.ld.sync.aligned.{shape}.x1.b32 {regs(n)}, [r0]{split};")
        out.append(f"tcgen05.st.sync.aligned.{shape}.x1.b32 [r0]{split}, {regs(n)};")
    out.append("tcgen05.wait::ld.sync.aligned;")
    out.append("tcgen05.wait::st.sync.aligned;")
    return out


def assemble(nvcc, target, instruction, folder):
    path = os.path.join(folder, "probe.ptx")
    with open(path, "w") as f:
        f.write(KERNEL.format(ptx="9.0", target=target, instruction=instruction))
    result = subprocess.run([nvcc, "-cubin", f"-arch={target}", "-o", os.path.join(folder, "probe.cubin"), path],
                            capture_output=True, text=True)
    if result.returncode == 0:
        return "ACCEPTED", ""
    lines = [l for l in (result.stderr + result.stdout).splitlines() if "error" in l.lower()]
    first = lines[0] if lines else (result.stderr.strip().splitlines() or ["(no message)"])[0]
    return "REJECTED", first.split("probe.ptx", 1)[-1].lstrip(", :")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    parser.add_argument("--targets", default=",".join(TARGETS))
    args = parser.parse_args()
    targets = args.targets.split(",")
    version = subprocess.run([args.nvcc, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    print(f"# tcgen05 ptxas acceptance matrix: {version[-1] if version else args.nvcc}")
    print(f"# targets: {' '.join(targets)}; PTX ISA 9.0; one kernel per instruction string")
    with tempfile.TemporaryDirectory() as folder:
        for instruction in instructions():
            for target in targets:
                verdict, why = assemble(args.nvcc, target, instruction, folder)
                print(f"{target}\t{verdict}\t{instruction}" + (f"\t{why}" if why else ""))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
