#!/usr/bin/env bash
# Issue 18's sweep targets: 1000 design points x PP-OCRv4 recognition (batch 8; dense,
# 2:4 and block-pruned variants: bench/sweeps/ppocrv4_1000.yaml) on this machine's cores,
#   screened: every point analytic, the best 20 (and the reference) in cycle mode
#             (target: under 5 minutes)
#   exact:    every point in cycle mode, memoized repeats on (target: under one hour)
# Prints the wall time of each and where the points' time went. Needs the model:
# scripts/fetch_models.sh ppocrv4_rec.
#   bench/sweep_target.sh [STCSIM] [JOBS] [screen|exact|both]   (defaults: build/bin/stcsim,
#   nproc, both)
set -euo pipefail
cd "$(dirname "$0")/.."
stcsim=${1:-build/bin/stcsim}
jobs=${2:-$(nproc)}
which=${3:-both}
spec=bench/sweeps/ppocrv4_1000.yaml
work=$(mktemp -d /tmp/stcsim_sweep_target.XXXXXX)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
summary() {  # folder, label, seconds, target seconds
  local n
  n=$( (find "$1/points" "$1/screen/points" -name 'p*.json' 2>/dev/null || true) | wc -l)
  awk -v label="$2" -v s="$3" -v target="$4" -v n="$n" -v j="$jobs" 'BEGIN {
    printf "%-9s %4d point files, %8.1f s wall with -j %d (target %d s): %s\n", label, n, s, j,
           target, (s <= target ? "met" : "NOT met") }'
}
if [ "$which" != exact ]; then
  t0=$(now)
  "$stcsim" sweep "$spec" --out "$work/screen" -j "$jobs" --screen 20 -q
  t1=$(now)
  summary "$work/screen" screened "$(echo "$t1 - $t0" | bc)" 300
fi
if [ "$which" != screen ]; then
  t0=$(now)
  "$stcsim" sweep "$spec" --out "$work/exact" -j "$jobs" -q
  t1=$(now)
  summary "$work/exact" exact "$(echo "$t1 - $t0" | bc)" 3600
fi
