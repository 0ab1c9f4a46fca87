#!/usr/bin/env bash
# Fits the Hopper sub-core's register operand path for mma.sync / mma.sp
# (tensor_core.register_operand_bytes_per_cycle) to the H100's mainloop anatomy
# (validation/measurements/nvidia_h100/ubench_20261126T223746Z.json, 2026-11-26): the four
# `mainloop_dense_*_mma_only` figures, the harness's dense kernel at its four tiles with
# no copies, barriers or fragment loads in the loop, so that its mma stream alone is timed
# (warp tiles 64x64, 64x64, 64x32, 32x32: 832 or 896 B of register operands an mma),
# through `stcsim ubench` on the h100 preset at the measured 1980 MHz.
# Not fitted, the out-of-sample checks: the anatomy's other 16 figures, the chains and
# warp-tile microbenchmarks, and every GEMM timing of the H100 and H200 campaigns
# (`stcsim validate`).
#   scripts/calibrate_h100_operand_path.sh [OUT]    (default /tmp/h100_operand_path_fit)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
stcsim="${STCSIM:-$here/build/bin/stcsim}"
out="${1:-/tmp/h100_operand_path_fit}"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
src="$here"/validation/measurements/nvidia_h100/ubench_20261126T223746Z.json
/usr/bin/python3 "$here/scripts/ubench_subset.py" "$src" "$data/mma_only.json" \
  'r["name"].startswith("mainloop_dense_") and r["name"].endswith("_mma_only")'
# One parameter, four figures, each evaluation 20 s of simulation (the anatomy runs as a
# group): no leave-one-out refits; the checks above are the out-of-sample error.
"$stcsim" calibrate --measurements "$data/mma_only.json" --arch h100 \
  --params tensor_core.register_operand_bytes_per_cycle=64:256 \
  -p gpu.measured_clock_mhz=1980 --max-evals 24 --no-loo --out "$out" -j 2
