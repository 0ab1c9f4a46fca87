#!/usr/bin/env bash
# Fits gpu.kernel_launch_ns, the fixed cost of each kernel a GEMM launches (the front
# end's launch latency and the completion signal, which the harness's event timing of
# back-to-back graph launches includes), to the smallest GEMMs measured on the H200: the
# campaign's smoke step, every kernel family at 256x256x256 (2026-11-26,
# validation/measurements/nvidia_h200/smoke_*.json), where a GEMM's own work is about a
# microsecond and the rest is this overhead. The issue7 suite of the same campaign is not
# fitted: it is the out-of-sample check (`stcsim validate`). Writes OUT/calibrated.yaml
# and residuals with leave-one-out errors.
#   scripts/calibrate_h200_launch.sh [OUT]    (default /tmp/h200_launch_fit)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
stcsim="${STCSIM:-$here/build/bin/stcsim}"
out="${1:-/tmp/h200_launch_fit}"
smoke=$(ls "$here"/validation/measurements/nvidia_h200/smoke_*.json | head -1)
"$stcsim" calibrate --measurements "$smoke" --arch h200 \
  --params gpu.kernel_launch_ns=0:10000 --max-evals 40 --out "$out" -j 2
