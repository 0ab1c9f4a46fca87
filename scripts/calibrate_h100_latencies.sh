#!/usr/bin/env bash
# Fits the h100 preset's load latencies (L1 hit, L2 hit, DRAM) to the published H100 SXM5
# pointer-chase figures (validation/published/h100_ubench, REFERENCE's calibration set),
# through `stcsim calibrate` on the same programs run on the model (`stcsim ubench`), at
# the published 1980 MHz. Only the three latency figures are fitted: the bandwidth
# figures in the file do not depend on these parameters (they are checked by
# `stcsim validate` on the whole file). Writes OUT/calibrated.yaml and residuals with
# leave-one-out errors.
#   scripts/calibrate_h100_latencies.sh [OUT]    (default /tmp/h100_latency_fit)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
stcsim="${STCSIM:-$here/build/bin/stcsim}"
out="${1:-/tmp/h100_latency_fit}"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
/usr/bin/python3 - "$here/validation/published/h100_ubench/luo_h100_sxm5.json" \
  "$data/latencies.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["results"] = [r for r in doc["results"] if r["metric"] == "latency"]
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PY
"$stcsim" calibrate --measurements "$data/latencies.json" --arch h100 \
  --params l2.hit_latency_cycles=150:400,dram.latency_ns=50:400,sm.l1_hit_latency_cycles=20:60 \
  -p gpu.measured_clock_mhz=1980 --max-evals 200 --out "$out" -j 2
