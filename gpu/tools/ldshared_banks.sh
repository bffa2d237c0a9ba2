#!/usr/bin/env bash
# Runs lanemap-ldshared-banks (docs/ldshared-banks.md) on this machine's GPU, plain and under Nsight Compute,
# and writes every output untouched into OUT_DIR, with a summary that puts the model next to the counters:
#
#   gpu/tools/ldshared_banks.sh OUT_DIR [ITERATIONS]
#
# BIN (default build/gpu/lanemap-ldshared-banks) and NCU (default: ncu on PATH, else
# /usr/local/cuda/bin/ncu) may be set. Each ncu run collects its own metrics, so a metric this Nsight
# Compute does not know fails only its own file (its .err says so). Exit 0 when every step ran, 1 otherwise.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: gpu/tools/ldshared_banks.sh OUT_DIR [ITERATIONS]" >&2
    exit 2
fi
out=$1
iterations=${2:-1000}
bin=${BIN:-build/gpu/lanemap-ldshared-banks}
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
mkdir -p "$out" || exit 2
if [ ! -x "$bin" ]; then
    echo "ldshared_banks.sh: $bin is not built (cmake -DLANEMAP_CUDA=ON, ninja lanemap-ldshared-banks)" >&2
    exit 2
fi
status=0
step() { # step NAME COMMAND...: stdout to NAME, stderr to NAME.err
    local name=$1
    shift
    echo "+ $*" >>"$out/commands.txt"
    if ! "$@" >"$out/$name" 2>"$out/$name.err"; then
        echo "ldshared_banks.sh: $name failed (see $out/$name.err)" >&2
        status=1
    fi
}
{
    date -u +%Y-%m-%dT%H:%MZ
    git rev-parse --short HEAD 2>/dev/null
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
    "$ncu" --version 2>&1 | tail -1
} >"$out/device.txt"
step model.tsv "$bin" --model --iterations "$iterations"
step plain.tsv "$bin" --iterations "$iterations"
step ncu-wavefronts.csv "$ncu" --metrics \
    l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
    --csv "$bin" --iterations "$iterations"
step ncu-instructions.csv "$ncu" --metrics smsp__inst_executed_op_shared_ld.sum --csv "$bin" \
    --iterations "$iterations"
step ncu-sass-instructions.csv "$ncu" --metrics sm__sass_inst_executed_op_shared_ld.sum --csv "$bin" \
    --iterations "$iterations"
# The summary: per case, the model's wavefronts (ideal) and what the counters say per executed load.
if command -v python3 >/dev/null; then
    python3 - "$out" >"$out/summary.tsv" 2>"$out/summary.err" <<'EOF' || status=1
import csv, sys
out = sys.argv[1]

def metrics(name):
    """{launch id: {metric: value}} from an ncu --csv file (one launch per case, in case order)."""
    rows = {}
    try:
        text = open(f"{out}/{name}").read()
    except OSError:
        return rows
    lines = [l for l in text.splitlines() if l.startswith('"')]
    for r in csv.DictReader(lines):
        try:
            rows.setdefault(int(r["ID"]), {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
        except (KeyError, ValueError):
            pass
    return rows

model = [l.split("\t") for l in open(f"{out}/model.tsv").read().splitlines()]
head, cases = model[0], [r for r in model[1:] if r and r[0].isdigit()]
w, i1, i2 = metrics("ncu-wavefronts.csv"), metrics("ncu-instructions.csv"), metrics("ncu-sass-instructions.csv")
print("case\tmove\toperand\tpermutation\tsmem\tmodel_wavefronts\tideal\twhole_warp_rule\tinstructions\tmeasured_wavefronts_per_load"
      "\tmeasured_excessive_per_load\tagrees")
for r in cases:
    c = int(r[0])
    f = dict(zip(head, r))
    n = i1.get(c, {}).get("smsp__inst_executed_op_shared_ld.sum") or \
        i2.get(c, {}).get("sm__sass_inst_executed_op_shared_ld.sum")
    wf = w.get(c, {}).get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
    bc = w.get(c, {}).get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
    per = lambda v: "-" if v is None or not n else f"{v / n:g}"
    agrees = "-" if wf is None or not n else ("yes" if abs(wf / n - int(f["model_wavefronts"])) < 1e-9 else "NO")
    print("\t".join([r[0], f["move"], f["operand"], f["permutation"], f["smem"], f["model_wavefronts"], f["ideal"], f["whole_warp_rule"],
                     "-" if n is None else f"{n:g}", per(wf), per(bc), agrees]))
EOF
fi
exit $status
