#!/bin/sh
# Builds and runs dump_cutlass_layouts.cu against a CUTLASS checkout: ./build.sh CUTLASS_DIR [OUTPUT]
# (docs/layouts-in.md#cutlass). Needs nvcc (host code only; no GPU).
set -eu
cutlass=${1:?usage: build.sh CUTLASS_DIR [OUTPUT]}
out=${2:-cutlass-layouts.txt}
cuda=${CUDA_HOME:-/usr/local/cuda}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cuda/bin/nvcc" -std=c++17 -I"$cutlass/include" -I"$cuda/include" "$here/dump_cutlass_layouts.cu" -o "$tmp/dump"
"$tmp/dump" > "$out"
echo "wrote $out"
