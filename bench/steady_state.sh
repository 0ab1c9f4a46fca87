#!/usr/bin/env bash
# `stcsim run --mode steady` against cycle mode, side by side, one GEMM a process on one
# core: the error of the time, DRAM bytes and energy, and the wall-time speed-up, on a
# standard set of large GEMMs on the a100 (dense and 2:4; the 2:4 runs without its dense
# twin) and on the h100 (its wgmma kernel is persistent, one wave: it falls back).
#   bench/steady_state.sh [--quick]     (--quick: without 16384^3, which takes 30 s in cycle mode)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
stcsim="${STCSIM:-$here/build/bin/stcsim}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cases=("a100 --gemm 8192x8192x2048"
       "a100 --gemm 8192x8192x8192"
       "a100 --gemm 8192x16384x2048 --sparsity 2:4 --no-dense-baseline"
       "a100 --gemm 8192x8192x8192 --sparsity 2:4 --no-dense-baseline"
       "a100 --gemm 16384x16384x128"
       "h100 --gemm 8192x8192x8192")
[ "${1:-}" = --quick ] || cases+=("a100 --gemm 16384x16384x16384")
i=0
for c in "${cases[@]}"; do
  read -r arch rest <<< "$c"
  for mode in cycle steady; do
    s=$(date +%s.%N)
    # shellcheck disable=SC2086
    taskset -c 0 "$stcsim" run --arch "$arch" $rest --mode "$mode" -q --out "$out/$i.$mode"
    echo "$(echo "$(date +%s.%N) - $s" | bc)" > "$out/$i.$mode.wall"
  done
  echo "$c" > "$out/$i.case"
  i=$((i + 1))
done
/usr/bin/python3 - "$out" "$i" <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
print(f"{'case':62} {'time err':>9} {'DRAM err':>9} {'energy err':>10} {'wall cycle':>10} {'steady':>7} {'speed-up':>8}  steady state")
for i in range(n):
    c = json.load(open(f"{out}/{i}.cycle/stats.json"))["ops"][0]
    s = json.load(open(f"{out}/{i}.steady/stats.json"))["ops"][0]
    wc = float(open(f"{out}/{i}.cycle.wall").read()); ws = float(open(f"{out}/{i}.steady.wall").read())
    err = lambda a, b: 100 * (a / b - 1) if b else 0.0
    st = s["steady_state"]
    how = (f"period {st['period_waves']:.0f} wave(s), {st['periods_skipped']} skipped, "
           f"{st['ctas_simulated']} of {s['ctas']:.0f} CTAs" if st["extrapolated"] else
           "fell back: " + st["fallback"])
    print(f"{open(f'{out}/{i}.case').read().strip():62} {err(s['cycles'], c['cycles']):+8.3f}% "
          f"{err(s['dram_read_bytes'], c['dram_read_bytes']):+8.2f}% "
          f"{err(s['energy']['joules'], c['energy']['joules']):+9.2f}% {wc:9.2f}s {ws:6.2f}s "
          f"{wc / ws:7.1f}x  {how}")
PY
