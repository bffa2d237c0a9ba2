#!/usr/bin/env bash
# lanemap's SVG export against CuTe's print_svg, side by side in one run (tools/cute_bench/README.md):
#   tools/cute_bench/run.sh CUTLASS_DIR [OUT]     (OUT default build/cute_bench; the table is OUT/table.md)
# Needs a built lanemap (build/, `ninja -C build lanemap-cli lanemap_core`), g++, python3 and CUDA's headers
# (CUDA_HOME, default /usr/local/cuda: CuTe includes CCCL). Knobs: PAIRS (whole-process pairs, 30), TRIALS
# (in-process trials, 7), LANEMAP_BUILD (the build measured, default build/), PREBUILT=1 (use the two figure
# programs already in OUT/bin: measuring on a machine without the headers or zlib's development files).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cutlass=${1:?usage: run.sh CUTLASS_DIR [OUT]}
out=$(mkdir -p "${2:-$root/build/cute_bench}" && cd "${2:-$root/build/cute_bench}" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
pairs=${PAIRS:-30} trials=${TRIALS:-7}
here=$root/tools/cute_bench
build=${LANEMAP_BUILD:-$root/build}
cli=$build/app/lanemap-cli
[ -x "$cli" ] || { echo "no $cli: build lanemap first" >&2; exit 2; }

inc=(-I"$cutlass/include" -I"$cuda/include")
[ -d "$cuda/include/cccl" ] && inc+=(-I"$cuda/include/cccl")
mkdir -p "$out/bin" "$out/files" "$out/raw"
if [ "${PREBUILT:-0}" = 1 ]; then
    [ -x "$out/bin/cute-figure" ] && [ -x "$out/bin/lanemap-figure" ] || { echo "PREBUILT=1: no programs in $out/bin" >&2; exit 2; }
else
    [ -d "$cutlass/include/cute" ] || { echo "no CuTe headers in $cutlass/include" >&2; exit 2; }
    g++ -O2 -std=c++17 "${inc[@]}" "$here/cute_figure.cpp" -o "$out/bin/cute-figure"
    g++ -O2 -std=c++20 -I"$root/core/include" "$here/lanemap_figure.cpp" "$build/core/liblanemap_core.a" -lz \
        -o "$out/bin/lanemap-figure"
fi

# name | lanemap spec | in-process repetitions per trial
figures=(
  "m16n8k16|mma.m16n8k16.f16|400"
  "m64n8k16|wgmma.m64n8k16.f16|200"
  "m64n256k16|wgmma.m64n256k16.f16|10"
  "tcgen05-m256|tcgen05.mma.cta_group::2.kind::f16.m256|5"
)
{ date -u +%FT%TZ; uname -srm; echo "cores: $(nproc)"; grep -m1 'model name' /proc/cpuinfo || true; uptime
  g++ --version | head -1
  if [ -x /usr/bin/time ]; then
      /usr/bin/time -f 'lanemap start-up (--version): peak %M KiB, %R minor page faults' "$cli" --version 2>&1 >/dev/null
  fi
  git -C "$root" log -1 --format='lanemap %h %s' 2>/dev/null || echo "lanemap: $root is not a git checkout"; git -C "$cutlass" log -1 --format='cutlass %h %s' 2>/dev/null || true
} > "$out/raw/env.txt"

rm -f "$out/raw/inprocess.jsonl"
for f in "${figures[@]}"; do
  IFS='|' read -r name spec reps <<<"$f"
  echo "== $name: files, cross-check"
  "$cli" export "$spec" --format svg -o "$out/files/lanemap-$name.svg" >/dev/null
  "$cli" export "$spec" --format json -o "$out/files/lanemap-$name.json" >/dev/null
  "$out/bin/cute-figure" write "$name" "$out/files/cute-$name.svg"
  python3 "$here/crosscheck.py" "$out/files/cute-$name.svg" "$out/files/lanemap-$name.json" \
    > "$out/raw/crosscheck-$name.txt" || true
  cat "$out/raw/crosscheck-$name.txt"
  echo "== $name: whole process, $pairs pairs, to a file and to stdout"
  python3 "$here/paired.py" -n "$pairs" --sync --json "$out/raw/file-$name.json" \
    "$cli export $spec --format svg -o $out/files/run-lanemap-$name.svg" \
    "$out/bin/cute-figure write $name $out/files/run-cute-$name.svg"
  python3 "$here/paired.py" -n "$pairs" --json "$out/raw/stdout-$name.json" \
    "$cli export $spec --format svg -o -" "$out/bin/cute-figure write $name -"
  echo "== $name: in-process, $trials trials, alternating"
  for ((t = 0; t < trials; ++t)); do
    "$out/bin/lanemap-figure" "$spec" "$reps" 1 2>>"$out/raw/inprocess.jsonl"
    "$out/bin/cute-figure" time "$name" "$reps" 1 2>>"$out/raw/inprocess.jsonl"
  done
done
python3 - "$out" "${figures[@]}" > "$out/table.md" <<'PY'
import glob, gzip, json, os, statistics, sys
out, figures = sys.argv[1], [f.split("|") for f in sys.argv[2:]]
inproc = [json.loads(l) for l in open(f"{out}/raw/inprocess.jsonl")]
print("| figure | | CuTe | lanemap | lanemap / CuTe |\n| --- | --- | --- | --- | --- |")
for name, spec, _ in figures:
    def med(tool, fig): return statistics.median(x for r in inproc if r["tool"] == tool and r["figure"] == fig for x in r["ms"])
    c, l = med("cute", name), med("lanemap", spec)
    rows = [("in-process, ms (median)", c, l, l / c)]
    for where in ("file", "stdout"):
        m = json.load(open(f"{out}/raw/{where}-{name}.json"))["median"]
        rows.append((f"whole process to {where}, CPU ms", m["cpu_ms"]["b"], m["cpu_ms"]["a"], m["cpu_ms"]["a"] / m["cpu_ms"]["b"]))
        if where == "file":
            rows.append(("  peak memory, KiB", m["peak_kib"]["b"], m["peak_kib"]["a"], m["peak_kib"]["a"] / m["peak_kib"]["b"]))
            rows.append(("  minor page faults", m["faults"]["b"], m["faults"]["a"], m["faults"]["a"] / m["faults"]["b"]))
    sizes = [os.path.getsize(f"{out}/files/{t}-{name}.svg") for t in ("cute", "lanemap")]
    gz = [len(gzip.compress(open(f"{out}/files/{t}-{name}.svg", "rb").read(), 9)) for t in ("cute", "lanemap")]
    # The in-process loop must time the figure the CLI writes, not another view of the same spec.
    timed = {r["bytes"] for r in inproc if r["tool"] == "lanemap" and r["figure"] == spec}
    if timed != {sizes[1]}:
        sys.exit(f"{spec}: lanemap-figure wrote {sorted(timed)} bytes, lanemap-cli export {sizes[1]}")
    rows.append(("file, bytes", sizes[0], sizes[1], sizes[1] / sizes[0]))
    rows.append(("gzip -9, bytes", gz[0], gz[1], gz[1] / gz[0]))
    check = open(f"{out}/raw/crosscheck-{name}.txt").read().strip().replace("\n", "; ")
    for i, (what, a, b, r) in enumerate(rows):
        first = f"{name} (`{spec}`)" if i == 0 else ""
        fmt = (lambda v: f"{v:,.0f}") if isinstance(a, int) or a > 100 else (lambda v: f"{v:.3f}")
        print(f"| {first} | {what} | {fmt(a)} | {fmt(b)} | {r:.2f} |")
    print(f"| | cells checked | {check} | | |")
PY
cat "$out/table.md"
