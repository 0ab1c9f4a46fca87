#!/usr/bin/env bash
# How long a 200-point sweep takes, and what the sweep machinery costs per point next
# to the simulation itself. Runs examples/sweeps/bench_200.yaml (200 design points x
# one BERT-base encoder layer, 4 GEMMs at 4096 tokens) with -j JOBS and reads the host
# times every point file keeps:
#   sim     time inside the simulation (stats.json wall_seconds: build the GPU, simulate)
#   child   fork to reap of each `stcsim run`: sim + process start, SystemC and preset
#           set-up, config resolve with the -p overrides, stats.json writing, exit
#   slot    per point, a job slot's time not spent in a child: reading stats.json,
#           writing the point file atomically, starting the next child
# Usage: bench/sweep_overhead.sh [STCSIM] [JOBS]      (defaults: build/bin/stcsim, 2)
set -euo pipefail
cd "$(dirname "$0")/.."
stcsim=${1:-build/bin/stcsim}
jobs=${2:-2}
spec=examples/sweeps/bench_200.yaml
work=$(mktemp -d /tmp/stcsim_sweep_bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }

t0=$(now)
"$stcsim" sweep "$spec" --out "$work/v" --dry-run >/dev/null 2>&1
t1=$(now)
"$stcsim" sweep "$spec" --out "$work/s" -j "$jobs" -q
t2=$(now)
"$stcsim" sweep "$spec" --out "$work/s" -j "$jobs" -q 2>/dev/null  # all done: a resume's cost
t3=$(now)

# The host times of every point file (json dumped one key per line).
read -r n child sim < <(awk -F': ' '
  /"proc_wall_seconds"/ { gsub(/[,}]/, "", $2); p += $2; n++ }
  /"sim_wall_seconds"/  { gsub(/[,}]/, "", $2); s += $2 }
  END { printf "%d %.6f %.6f\n", n, p, s }' "$work"/s/points/p*.json)

awk -v n="$n" -v child="$child" -v sim="$sim" -v j="$jobs" -v cpu="$(nproc)" \
    -v t0="$t0" -v t1="$t1" -v t2="$t2" -v t3="$t3" '
BEGIN {
  v = t1 - t0; w = t2 - t1; r = t3 - t2
  printf "stcsim sweep: %d points x 1 workload (BERT-base layer, 4 GEMMs), -j %d, %d CPUs\n", n, j, cpu
  printf "  wall time of the sweep           %8.1f s   (%.3f s per point per job slot)\n", w, w * j / n
  printf "  validate all points (--dry-run)  %8.3f s   (%.2f ms per point)\n", v, v * 1000 / n
  printf "  resume with every point done     %8.3f s\n", r
  printf "  per point: simulation            %8.1f ms\n", sim * 1000 / n
  printf "  per point: child overhead        %8.1f ms   (process start, config resolve, stats.json, exit)\n", (child - sim) * 1000 / n
  printf "  per point: sweep slot overhead   %8.1f ms   (read stats, write point file, spawn next)\n", (w * j - child) * 1000 / n
  printf "  machinery share of a slot        %8.1f %%\n", 100 * (w * j - sim) / (w * j)
}'
