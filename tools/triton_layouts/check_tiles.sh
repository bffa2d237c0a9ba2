#!/usr/bin/env bash
# Checks every line of dump_triton_tiles.py's output with `lanemap-cli check` (docs/tiles.md#triton):
#   tools/triton_layouts/check_tiles.sh LANEMAP_CLI TILES.txt
# Prints one verdict per line, `OPERAND ATOM PERMUTATION: equal|differs (N of M cells)|error: ...`, then the
# totals. Exit 0 when every line was checked (equal or not), 2 when one could not be read.
set -uo pipefail
cli=${1:?usage: check_tiles.sh LANEMAP_CLI TILES.txt}
tiles=${2:?usage: check_tiles.sh LANEMAP_CLI TILES.txt}
[ -r "$tiles" ] || { echo "check_tiles.sh: cannot read $tiles" >&2; exit 2; }
equal=0 differs=0 errors=0
while IFS=$'\t' read -r operand atom permutation layout; do
    case "$operand" in '' | '#'*) continue ;; esac
    args=(check "$layout" --against "$operand" --atom-layout "$atom")
    [ "$permutation" != - ] && args+=(--permutation "$permutation")
    out=$("$cli" "${args[@]}" 2>&1)
    rc=$?
    verdict=$(printf '%s\n' "$out" | grep -m1 -oE 'equal: every one of the [0-9]+ cells|differs in [0-9]+ of [0-9]+ cells')
    case $rc in
    0) equal=$((equal + 1)); echo "$operand $atom $permutation: equal (${verdict#equal: })" ;;
    1) differs=$((differs + 1)); echo "$operand $atom $permutation: $verdict" ;;
    *) errors=$((errors + 1)); echo "$operand $atom $permutation: error: $(printf '%s' "$out" | head -1)" ;;
    esac
done <"$tiles"
echo "$((equal + differs + errors)) claims: $equal equal, $differs differ, $errors not checked"
[ "$errors" = 0 ] || exit 2
