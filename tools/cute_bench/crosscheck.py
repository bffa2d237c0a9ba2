#!/usr/bin/env python3
"""Checks that CuTe's print_svg figure and lanemap's JSON export of the same instruction agree cell by cell: for
every operand both give in registers, each cell's (thread, value index) (tools/cute_bench/README.md).
  crosscheck.py CUTE.svg LANEMAP.json      exit 1 when a cell differs
CuTe's figure: 20-unit cells; with the tile's K, A at x = (k+1)*20, y = (m+K+2)*20, B at x = (n+K+2)*20,
y = (k+1)*20, C at x = (n+K+2)*20, y = (m+K+2)*20; each rect followed by its labels T<thread> and V<value>.
CuTe gives an operand it reads through a shared-memory descriptor as one thread (all T0): not compared. A
tcgen05.mma's C is compared by CTA (CuTe's T of a 2-SM atom), lanemap's D being Tensor Memory, not registers."""
import json, re, sys
import xml.etree.ElementTree as ET


def cute_cells(path):
    text = open(path).read()
    k = int(re.search(r"Tile: \(_(\d+),_(\d+),_(\d+)\)", text).group(3))
    ns = "{http://www.w3.org/2000/svg}"
    kids = list(ET.fromstring(text))
    cells = {}
    for i, e in enumerate(kids):
        if e.tag != ns + "rect" or i + 2 >= len(kids) or not (kids[i + 1].text or "").startswith("T"):
            continue
        x, y = int(float(e.get("x"))) // 20, int(float(e.get("y"))) // 20
        value = (int(kids[i + 1].text[1:]), int(kids[i + 2].text[1:]))
        if x >= k + 2 and y >= k + 2:
            cells[("C", y - k - 2, x - k - 2)] = value
        elif y >= k + 2:
            cells[("A", y - k - 2, x - 1)] = value
        else:
            cells[("B", y - 1, x - k - 2)] = value  # (k, n)
    return cells


def lanemap_cells(path):
    doc = json.load(open(path))
    cells = {}
    if "element_fields" in doc:  # a tcgen05.mma: D[m][n] in Tensor Memory as (cta, lane, column, bit)
        cta = doc["element_fields"].index("cta")
        for m, row in enumerate(doc["elements"]):
            for n, at in enumerate(row):
                cells[("C", m, n)] = (at[cta], None)  # CuTe labels a 2-SM atom's C cells T<CTA>
        return cells
    for op in doc["operands"]:
        name = {"A": "A", "B": "B", "C": "C", "D": "C"}.get(op["name"])
        if not name or "elements" not in op:
            continue
        for e in op["elements"]:
            key = (name, e["row"], e["col"])
            # lanemap's B is K x N like CuTe's drawing of it; C and D share one grid.
            cells.setdefault(key, (e["thread"], e["index"]))
    return cells


def main():
    cute, lanemap = cute_cells(sys.argv[1]), lanemap_cells(sys.argv[2])
    bad = 0
    for op in "ABC":
        a = {k: v for k, v in cute.items() if k[0] == op}
        b = {k: v for k, v in lanemap.items() if k[0] == op}
        if a and all(v[0] == 0 for v in a.values()) and len(a) > 1:
            print(f"{op}: CuTe reads it from shared memory (every cell T0): not compared")
            continue
        if not a or not b:
            print(f"{op}: CuTe {len(a)} cells, lanemap {len(b)} cells: not compared")
            continue
        if any(v[1] is None for v in b.values()):  # CTA only: CuTe's V counts values, lanemap names columns
            a = {k: (v[0], None) for k, v in a.items()}
        same = sum(a[k] == b.get(k) for k in a)
        what = "CTA" if any(v[1] is None for v in b.values()) else "(thread, value)"
        print(f"{op}: {len(a)} cells, {same} with the same {what}" + ("" if same == len(a) == len(b) else "  DIFFERENT"))
        bad += same != len(a) or len(a) != len(b)
    sys.exit(1 if bad else 0)


main()
