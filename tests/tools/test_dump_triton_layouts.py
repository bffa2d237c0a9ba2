#!/usr/bin/env python3
"""Runs tools/triton_layouts/dump_triton_layouts.py offline, against a stand-in for Triton, and feeds what it
prints to `lanemap-cli conform`.

No Triton and no GPU here: the stand-in (written to a temporary folder, first on PYTHONPATH) has the Gluon
classes the dumper builds and a `to_linear_layout` that converts the shared encodings with a Python port of
Triton's nvmmaSharedToLinearLayout / swizzledSharedToLinearLayout (and refuses the register encodings, as a
release without them would, and stops its process on one, as Triton's fatal errors do). What it proves: the
dumper runs, survives a layout Triton refuses or a conversion that kills its process, and prints
lines `conform` reads (memdesc types, shared_linear bases, the encodings), whose verdicts are those lanemap's
descriptor layouts give: every swizzled width equal in both notations, and of the unswizzled ones only the
8-bit N-major B differing (wgmma reads MN-major B of 16-bit types only).
The run with Triton itself is the lead's (docs/layouts-in.md#triton).

usage: test_dump_triton_layouts.py LANEMAP_CLI DUMPER
"""
import os
import re
import subprocess
import sys
import tempfile

GLUON = r'''
from dataclasses import dataclass, field


@dataclass(frozen=True)
class _DType:
    primitive_bitwidth: int


float16 = _DType(16)
int8 = _DType(8)
float32 = _DType(32)


@dataclass(frozen=True)
class NVMMADistributedLayout:
    version: list
    warps_per_cta: list
    instr_shape: list

    def _to_ir(self, builder):
        return self


@dataclass(frozen=True)
class DotOperandLayout:
    operand_index: int
    parent: object
    k_width: int

    def _to_ir(self, builder):
        return self


@dataclass(frozen=True)
class NVMMASharedLayout:
    swizzle_byte_width: int
    element_bitwidth: int
    rank: int = 2
    transposed: bool = False
    fp4_padded: bool = False

    def _to_ir(self, builder):
        return self

    @staticmethod
    def get_default_for(block_shape, dtype, transposed=False, fp4_padded=False):
        shape = list(block_shape)
        if transposed:
            shape = shape[1:] + shape[:1]
        contig_bytes = shape[-1] * dtype.primitive_bitwidth // 8
        width = 0
        for w in (128, 64, 32):
            if contig_bytes >= w and contig_bytes % w == 0:
                width = w
                break
        return NVMMASharedLayout(width, dtype.primitive_bitwidth, len(shape), transposed, fp4_padded)


@dataclass(frozen=True)
class SwizzledSharedLayout:
    vec: int
    per_phase: int
    max_phase: int
    order: list
    cga_layout: list = field(default_factory=list)

    def _to_ir(self, builder):
        return self
'''

LIBTRITON = r'''
import os
from types import SimpleNamespace

import triton.experimental.gluon.language as gl


def _identity(bases, size, n, dim):
    k = 1
    while k < n:
        bases.append([size[0] * k, 0] if dim == 0 else [0, size[1] * k])
        k *= 2
    size[dim] *= max(n, 1)


def _nvmma(layout, shape):
    # A Python port of Triton's nvmmaSharedToLinearLayout (one CTA, rank 2).
    W, E, T, P = layout.swizzle_byte_width, layout.element_bitwidth, layout.transposed, layout.fp4_padded
    contig = 0 if T else 1
    block = list(shape)
    if P:
        block[contig] *= 2
    block = [min(b, 256) for b in block]
    if W:
        width = 8 * W // E
        if block[contig] < width:
            raise ValueError("Block shape is too small for the swizzle byte size in NVMMA Shared Layout.")
        block[contig] = width
    if P:
        block[contig] //= 2
    bases, size = [], [1, 1]
    if W == 0:
        _identity(bases, size, block[1], 1)
        _identity(bases, size, block[0], 0)
    else:
        collapsed = [block[1], block[0]] if T else [block[0], block[1]]
        vec, per_phase, max_phase = 128 // E, 128 // W, W // 16
        tile_cols = 8 * max(16, W) // E
        packed = (lambda c: c // 16 * 8 + c % 8) if P else (lambda c: c)
        col = 1
        while col < tile_cols:
            bases.append([0, packed(col)])
            col *= 2
        for row in (1, 2, 4):
            bases.append([row, packed(vec * ((row // per_phase) % max_phase))])
        size = [8, tile_cols // 2 if P else tile_cols]
        for d in (0, 1):
            if size[d] < collapsed[d]:
                _identity(bases, size, collapsed[d] // size[d], d)
        if T:
            bases = [[b[1], b[0]] for b in bases]
            size.reverse()
    for d in (0, 1):
        if size[d] < shape[d]:
            _identity(bases, size, shape[d] // size[d], d)
    return bases


def _swizzled(layout, shape):
    # A Python port of Triton's swizzledSharedToLinearLayout (one CTA, rank 2).
    col_dim, row_dim = layout.order
    cols, rows = shape[col_dim], shape[row_dim]

    def at(row, col):
        b = [0, 0]
        b[row_dim], b[col_dim] = row, col
        return b

    bases, col, row = [], 1, 1
    while col < cols:
        bases.append(at(0, col))
        col *= 2
    while row < rows:
        bases.append(at(row, (layout.vec * ((row // layout.per_phase) % layout.max_phase)) % cols))
        row *= 2
    return bases


class GluonOpBuilder:
    def __init__(self, context):
        pass

    def to_linear_layout(self, layout, shape):
        if isinstance(layout, gl.NVMMASharedLayout) and layout.element_bitwidth == 32 and \
                layout.swizzle_byte_width == 0 and shape[0] == 8:
            os._exit(134)  # as llvm::report_fatal_error stops Triton's process
        if isinstance(layout, gl.NVMMASharedLayout):
            return SimpleNamespace(offset_bases=_nvmma(layout, shape), block_bases=[], alignment=1024)
        if isinstance(layout, gl.SwizzledSharedLayout):
            return SimpleNamespace(offset_bases=_swizzled(layout, shape), block_bases=[], alignment=16)
        raise RuntimeError("the offline stand-in converts no register encoding")


gluon_ir = SimpleNamespace(GluonOpBuilder=GluonOpBuilder)
ir = SimpleNamespace(context=lambda: object(), load_dialects=lambda context: None)
'''


def write(root, path, text):
    full = os.path.join(root, *path.split("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def main():
    cli, dumper = sys.argv[1], sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory() as root:
        write(root, "triton/__init__.py", "__version__ = 'offline-stand-in'\n")
        for package in ("triton/experimental", "triton/experimental/gluon", "triton/_C"):
            write(root, package + "/__init__.py", "")
        write(root, "triton/experimental/gluon/language/__init__.py", GLUON)
        write(root, "triton/_C/libtriton.py", LIBTRITON)
        out = os.path.join(root, "layouts.txt")
        env = dict(os.environ, PYTHONPATH=root)
        run = subprocess.run([sys.executable, dumper, out], env=env, capture_output=True, text=True)
        # The register encodings are refused by the stand-in: exit 1, every refusal said, the rest written.
        if run.returncode != 1 or "Triton refused" not in run.stderr:
            failures.append(f"dumper exit {run.returncode}, stderr: {run.stderr[-2000:]}")
        # A conversion that stops its process (the stand-in's tf32 B with no swizzle) is said; the rest go on.
        if "stopped the process" not in run.stderr:
            failures.append(f"a conversion that stops the process was not said: {run.stderr[-2000:]}")
        with open(out) as f:
            lines = f.read().splitlines()
        shared = [(n + 1, l) for n, l in enumerate(lines) if "!ttg.memdesc<" in l]
        linear = [l for _, l in shared if "#ttg.shared_linear<" in l]
        if len(shared) < 30 or len(linear) * 2 != len(shared):
            failures.append(f"{len(shared)} shared lines, {len(linear)} of them linear:\n" + "\n".join(lines))
        conform = subprocess.run([cli, "conform", out], capture_output=True, text=True)
        if conform.returncode != 1:  # the 8-bit N-major B differs
            failures.append(f"conform exit {conform.returncode}: {conform.stdout[-3000:]}{conform.stderr}")
        # Every line that is not equal is a swizzle-0 one (an encoding line or its linear twin just before it).
        text = dict(shared)
        for number in map(int, re.findall(r"^line (\d+), ", conform.stdout, re.M)):
            line = text.get(number, "")
            twin = text.get(number + 1, "")
            if "swizzlingByteWidth = 0" not in line and "swizzlingByteWidth = 0" not in twin:
                failures.append(f"line {number} is not equal: {line}")
        if "unknown" in conform.stdout.split("\n\n")[0]:
            failures.append("a claim is unknown:\n" + conform.stdout[:3000])
        total = re.search(r"(\d+) layouts: (\d+) equal, (\d+) differ", conform.stdout)
        if not total or int(total.group(2)) < 24:
            failures.append("too few equal lines:\n" + conform.stdout[:3000])
        print(conform.stdout[: conform.stdout.find("\n\n")])
    for f in failures:
        print("FAIL:", f)
    print(f"{0 if failures else 1} passed, {len(failures) and 1} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
