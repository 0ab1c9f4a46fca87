#!/usr/bin/env bash
# Simulator speed of two stcsim binaries side by side (issue 18): each case runs on the
# old and the new binary alternately, REPS times, in one go, so both see the same machine
# load; prints the median wall time of the simulation (total.wall_seconds: elaboration and
# simulation, without process start), the slowdown against the simulated GPU (host
# seconds per simulated second) and the old/new ratio, and checks that both simulated the
# same cycles (an exact speed-up changes no result).
#   bench/speed_compare.sh OLD_STCSIM NEW_STCSIM [REPS]     (REPS default 3)
# STCSIM_BENCH_LARGE=1 adds dense 16384^3 (one run each: minutes).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OLD_STCSIM NEW_STCSIM [REPS]" >&2; exit 2; }
old="$1" new="$2" reps="${3:-3}"
for b in "$old" "$new"; do [ -x "$b" ] || { echo "$0: $b is not an executable" >&2; exit 2; }; done
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cases=(
  "dense 4096^3|--gemm 4096x4096x4096 --no-dense-baseline"
  "dense 8192^3|--gemm 8192x8192x8192 --no-dense-baseline"
  "2:4 4096^3 (no dense twin)|--gemm 4096x4096x4096 --sparsity 2:4 --no-dense-baseline"
  "CSR 90% 4096^3|--gemm 4096x4096x4096 --unstructured 0.9 --no-dense-baseline"
  "bert_base batch 8|--model bert_base --batch 8"
)
[ -z "${STCSIM_BENCH_LARGE:-}" ] || cases+=("dense 16384^3|--gemm 16384x16384x16384 --no-dense-baseline")
printf '%-28s %14s %10s %10s %10s %10s %7s  %s\n' case "sim cycles" "old s" "new s" \
  "old slow" "new slow" ratio cycles
for c in "${cases[@]}"; do
  name="${c%%|*}" args="${c#*|}"
  n=$reps
  case "$name" in *16384*) n=1 ;; esac
  : > "$out/rows"
  for ((i = 0; i < n; i++)); do
    for which in old new; do
      bin="$old"
      [ "$which" = new ] && bin="$new"
      # shellcheck disable=SC2086  # args are words by design
      "$bin" run -q --arch a100 --dtype fp16 $args --out "$out/$which" > /dev/null
      /usr/bin/python3 - "$out/$which/stats.json" "$which" >> "$out/rows" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["total"]
print(sys.argv[2], t["wall_seconds"], t["seconds"], t["cycles"])
PY
    done
  done
  /usr/bin/python3 - "$out/rows" "$name" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
med = {w: statistics.median(float(r[1]) for r in rows if r[0] == w) for w in ("old", "new")}
sim = {w: float(next(r[2] for r in rows if r[0] == w)) for w in ("old", "new")}
cyc = {w: {r[3] for r in rows if r[0] == w} for w in ("old", "new")}
same = "identical" if cyc["old"] == cyc["new"] and len(cyc["old"]) == 1 else "DIFFER"
print(f"{sys.argv[2]:28} {float(next(iter(cyc['new']))):14,.0f} {med['old']:10.2f} "
      f"{med['new']:10.2f} {med['old'] / sim['old']:9,.0f}x {med['new'] / sim['new']:9,.0f}x "
      f"{med['old'] / med['new']:6.2f}x  {same}")
PY
done
