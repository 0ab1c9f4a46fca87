#!/usr/bin/env bash
# Fits the h100 preset's memory-side figures and launch cost to the H100's own campaign
# (validation/measurements/nvidia_h100, 2026-11-26, night), the same fits the h200 preset
# got from its card (scripts/calibrate_hopper_ubench.sh, calibrate_h200_launch.sh),
# through `stcsim calibrate` on the same programs run on the model (`stcsim ubench`, and
# the smoke GEMMs through `stcsim run`), at the measured 1980 MHz:
#   sm.l1_hit_latency_cycles, l2.hit_latency_cycles, l2.far_extra_latency_cycles
#                               <- the L1 chase and the per-line L2 latencies from one SM,
#                                  near and far partition; the L2 chase over both is left
#                                  out, its out-of-sample check
#   (l2.slice_bytes_per_cycle: no longer fitted; the L2 read benchmark is checked, [7])
#   dram.latency_ns             <- the DRAM chase; the cp.async sweep from DRAM is its
#                                  out-of-sample check
#   gpu.kernel_launch_ns        <- the smoke step, every kernel family at 256^3 (last: it
#                                  rests on the latencies; run it on the preset carrying
#                                  the four fits above)
# The tensor-core figures are not refitted: the H200's (same GH100 die) are the base of
# both presets, and this card's mma/wgmma microbenchmarks check them out of sample.
# The GEMM timings of the campaign (issue7 suite, BSR, PyTorch, real layers) are not
# fitted: they are the out-of-sample check (`stcsim validate`).
#   scripts/calibrate_h100_campaign.sh [OUT]    (default /tmp/h100_campaign_fit)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
stcsim="${STCSIM:-$here/build/bin/stcsim}"
out="${1:-/tmp/h100_campaign_fit}"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
m="$here"/validation/measurements/nvidia_h100
src=$(ls "$m"/ubench_*.json | head -1)
smoke=$(ls "$m"/smoke_*.json | head -1)
sub() {  # NAME PREDICATE: DATA/NAME.json holds the figures of the ubench file the
         # Python predicate keeps
  /usr/bin/python3 "$here/scripts/ubench_subset.py" "$src" "$data/$1.json" "$2"
}
sub chases 'r["name"] in ("l1_latency", "l2_latency_near", "l2_latency_far")'
sub l2chase 'r["name"] == "l2_latency"'
sub l2read 'r["name"] == "l2_read" and r["metric"] == "throughput"'
sub dramchase 'r["name"] == "dram_latency"'
sub copies 'r["name"].startswith("cp_async_16B_") and "inflight" in r["name"]'
sub tensor 'r["name"].startswith(("mma_", "wgmma_"))'
clk=(-p gpu.measured_clock_mhz=1980)
"$stcsim" calibrate --measurements "$data/chases.json" --arch h100 \
  --params sm.l1_hit_latency_cycles=20:60,l2.hit_latency_cycles=150:400,l2.far_extra_latency_cycles=0:120 \
  "${clk[@]}" --max-evals 80 --no-loo --out "$out/latencies" -j 2
# The L2 read benchmark, checked, not fitted (h100.yaml [7]: it measures its requests in
# flight; the slices are the published 47 B/clk).
"$stcsim" validate --measurements "$data/l2read.json" --arch h100 "${clk[@]}" \
  --out "$out/l2_bandwidth_check"
"$stcsim" calibrate --measurements "$data/dramchase.json" --arch h100 \
  --params dram.latency_ns=60:400 "${clk[@]}" --max-evals 40 --no-loo \
  --out "$out/dram_latency" -j 2
"$stcsim" calibrate --measurements "$smoke" --arch h100 \
  --params gpu.kernel_launch_ns=0:10000 --max-evals 40 --out "$out/kernel_launch" -j 2
# Out of sample, under the preset as committed (which carries the fitted values): the L2
# chase over both partitions, the cp.async sweeps from L2 and DRAM, the tensor core.
for check in l2chase copies tensor; do
  "$stcsim" validate --measurements "$data/$check.json" --arch h100 "${clk[@]}" \
    --out "$out/${check}_check"
done
