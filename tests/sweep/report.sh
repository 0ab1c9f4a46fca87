#!/usr/bin/env bash
# `stcsim report`: from a two-parameter sweep (plus a zipped group) it writes one
# speedup/time PNG per varied parameter, the Pareto plot, the heatmap and summary.md
# naming the best point. Skipped (77) without gnuplot, which draws the PNGs.
#   report.sh STCSIM DATA_DIR
set -euo pipefail
stcsim=$1
if ! command -v gnuplot >/dev/null; then
  echo "skipped: gnuplot not found (Debian: apt-get install gnuplot-nox)"
  exit 77
fi
work=$(mktemp -d /tmp/stcsim_report.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$stcsim" sweep "$2/small.yaml" --out "$work/s" -j 2 -q
"$stcsim" report "$work/s"
r=$work/s/report
for png in speedup_tensor_core_fp16_ii_cycles speedup_dram_bandwidth_gbps speedup_sm_config pareto energy heatmap; do
  f=$r/$png.png
  [ -s "$f" ] || { echo "FAIL: $f missing"; exit 1; }
  # A PNG: the signature, and big enough to hold a drawn plot rather than an empty frame.
  [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = "211PNG" ] || { echo "FAIL: $f is not a PNG"; exit 1; }
  [ "$(stat -c %s "$f")" -gt 15000 ] || { echo "FAIL: $f looks empty"; exit 1; }
done
# Axes in words and units, the key in brackets (not a bare dotted key).
grep -q "^set xlabel '.* (cycles) \[tensor_core.fp16_ii_cycles\]'" "$r/speedup_tensor_core_fp16_ii_cycles.gp" ||
  { echo "FAIL: the fp16_ii_cycles plot's x axis is not labelled in words and units"; exit 1; }
grep -q "^set ylabel '.*\[" "$r/heatmap.gp" || { echo "FAIL: the heatmap's y axis has no words"; exit 1; }
grep -q "^## Best points" "$r/summary.md" || { echo "FAIL: summary.md names no best point"; exit 1; }
grep -q "| 1 | p" "$r/summary.md" || { echo "FAIL: summary.md ranks no point"; exit 1; }
grep -q "Pareto front" "$r/summary.md" || { echo "FAIL: summary.md has no Pareto front"; exit 1; }
grep -q "Pareto front (speed vs energy)" "$r/summary.md" || { echo "FAIL: summary.md has no energy front"; exit 1; }
# The Pareto front prices designs by the tensor cores' Yosys area (issue 17, item 5).
grep -q "^set xlabel 'tensor-core area: million Yosys generic cells" "$r/pareto.gp" ||
  { echo "FAIL: the Pareto plot's x axis is not the tensor-core area"; exit 1; }
grep -q "Pareto front (speed vs tensor-core area)" "$r/summary.md" ||
  { echo "FAIL: summary.md has no area front"; exit 1; }
grep -q ",tc_area_cells," "$work/s/results.csv" || { echo "FAIL: results.csv has no tc_area_cells"; exit 1; }
grep -q ",joules,watts,clock_mhz," "$work/s/results.csv" || { echo "FAIL: results.csv has no energy columns"; exit 1; }
# A one-point sweep still reports, saying why some plots are absent.
printf 'schema_version: 1\nbase: a100\nworkloads: [256x256x256]\n' >"$work/one.yaml"
"$stcsim" sweep "$work/one.yaml" --out "$work/one" -q
"$stcsim" report "$work/one"
grep -q "No heatmap" "$work/one/report/summary.md" || { echo "FAIL: no reason for the missing heatmap"; exit 1; }
echo "PASS: report plots and summary written"
