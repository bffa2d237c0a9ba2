#!/usr/bin/env bash
# Triton 3.6's own layouts of multi-warp MMA encodings (resources/conform/triton-3.6.0-tiles.txt, recorded on
# the GPU machine by tools/triton_layouts/dump_triton_tiles.py) checked against lanemap's tiles: every verdict
# must stay what was recorded beside them (triton-3.6.0-tiles-check.txt) — 13 equal, 6 differing only as
# docs/tiles.md#triton explains. A tile export that drifts from Triton's ownership changes a line here.
#   test_triton_tiles.sh LANEMAP_CLI SOURCE_DIR
set -uo pipefail
cli=${1:?usage: test_triton_tiles.sh LANEMAP_CLI SOURCE_DIR}
src=${2:?usage: test_triton_tiles.sh LANEMAP_CLI SOURCE_DIR}
recorded=$src/resources/conform/triton-3.6.0-tiles-check.txt
now=$(bash "$src/tools/triton_layouts/check_tiles.sh" "$cli" "$src/resources/conform/triton-3.6.0-tiles.txt") || {
    echo "check_tiles.sh could not check every line:"; echo "$now"; exit 1; }
if ! diff <(echo "$now") "$recorded"; then
    echo "FAIL: the verdicts above (<: now, >: recorded) differ from the record"
    exit 1
fi
claims=$(grep -c ': equal\|: differs' <<<"$now")
[ "$claims" -ge 19 ] || { echo "FAIL: only $claims claims checked"; exit 1; }
echo "OK: $claims claims, every verdict as recorded"
