#!/bin/sh
# area.sh YOSYS GEN_DIR OUTDIR SOURCES...: generic Yosys synthesis (synth -flatten, no
# liberty: internal gate cells) of the dense and the 2:4 sparse dot-product units, each
# covering the preset's block of logical K per beat; writes OUTDIR/area.md with the cell
# counts. An area proxy for design-space exploration, not a post-layout area.
yosys=$1 gen=$2 out=$3
shift 3
mkdir -p "$out" || exit 1
# the two syntheses run side by side (about 35 s each on one core)
for top in dense_dot sp24_dot; do
  "$yosys" -q -l "$out/$top.log" -p "read_verilog -sv -I$gen $*; synth -flatten -top $top; tee -o $out/$top.stat stat" >/dev/null 2>&1 &
done
wait
for top in dense_dot sp24_dot; do
  grep -q "Number of cells" "$out/$top.stat" 2>/dev/null \
    || { echo "yosys failed on $top:"; tail -20 "$out/$top.log"; exit 1; }
done
cells() { awk '/Number of cells:/ {n=$4} END {print n}' "$1"; }
preset=$(sed -n 's/`define STC_PRESET "\(.*\)"/\1/p' "$gen/stc_params.svh")
block=$(sed -n 's/`define STC_BLOCK_SIZE //p' "$gen/stc_params.svh")
extra=$(sed -n 's/`define STC_EXTRA_BITS //p' "$gen/stc_params.svh")
d=$(cells "$out/dense_dot.stat") s=$(cells "$out/sp24_dot.stat")
[ -n "$d" ] && [ -n "$s" ] || { echo "no cell count in the yosys reports"; exit 1; }
{
  echo "# Area proxy: dense vs 2:4 sparse dot-product unit"
  echo
  echo "Yosys $("$yosys" -V | cut -d' ' -f2), \`synth -flatten\` (generic gates, no liberty), preset $preset:"
  echo "$block logical K per beat (fp16/bf16 with an fp32 accumulator, s8 with s32), $extra extra alignment bit(s), 2-stage pipeline."
  echo "Regenerate: \`ctest --test-dir build -R rtl_yosys_area\` writes build/tests/rtl/area/area.md."
  echo
  echo "| unit | multipliers | cells | ratio |"
  echo "|---|---|---|---|"
  echo "| dense_dot | $block | $d | 1.00 |"
  echo "| sp24_dot (2:4) | $((block / 2)) | $s | $(awk "BEGIN {printf \"%.2f\", $s / $d}") |"
  echo
  echo "Cell types (dense_dot, then sp24_dot):"
  echo
  echo '```'
  sed -n '/Number of cells/,/^$/p' "$out/dense_dot.stat"
  sed -n '/Number of cells/,/^$/p' "$out/sp24_dot.stat"
  echo '```'
} > "$out/area.md"
cat "$out/area.md"
# the sparse unit has half the multipliers: it must come out smaller than the dense one
[ "$s" -lt "$d" ] || { echo "2:4 unit ($s cells) not smaller than dense ($d)"; exit 1; }
