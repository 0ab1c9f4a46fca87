#!/bin/sh
# area_table.sh [--compare REF_CSV] YOSYS GEN_DIR OUT_CSV SOURCES...: the Yosys cell
# counts the sweeps' area model is fitted on (sim/sweep/tensor_core_area.h, docs/rtl.md "Area model"): the dense
# dot unit over its block width, the 2:4 operand selection and metadata decode of one
# group, and an operand-path register stage over its width. Generic synthesis
# (`synth -flatten`, internal gate cells, no liberty): an area proxy, not a layout.
# Writes OUT_CSV (unit,parameters,cells); rtl/reports/area_cells.csv is its committed
# copy, which --compare checks OUT_CSV against (the ctest rtl_yosys_area_table).
ref=""
if [ "$1" = "--compare" ]; then
  ref=$2
  shift 2
fi
yosys=$1 gen=$2 out=$3
shift 3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# "unit parameters": parameters as NAME=VALUE separated by ';', '-' for none
points='dense_dot BLOCK=4;EXTRA=1
dense_dot BLOCK=8;EXTRA=1
dense_dot BLOCK=12;EXTRA=1
sp24_operand_select -
sp24_meta_decode -
stc_operand_stage BITS=128
stc_operand_stage BITS=512
stc_operand_stage BITS=1024'
synth() {  # unit parameters index
  set_params=""
  if [ "$2" != "-" ]; then
    for kv in $(echo "$2" | tr ';' ' '); do
      set_params="$set_params chparam -set ${kv%%=*} ${kv#*=} $1;"
    done
  fi
  "$yosys" -q -l "$tmp/$3.log" \
    -p "read_verilog -sv -I$gen $sources; $set_params synth -flatten -top $1; tee -o $tmp/$3.stat stat" \
    >/dev/null 2>&1
}
# the sources in one order whoever calls (ABC's gate mapping can follow the read order)
sources=$(printf '%s\n' "$@" | LC_ALL=C sort | tr '\n' ' ')
i=0
# two syntheses at a time (the widest dot unit takes about a minute on one core)
echo "$points" | {
  while read -r unit params; do
    i=$((i + 1))
    synth "$unit" "$params" "$i" &
    [ $((i % 2)) -eq 0 ] && wait
  done
  wait
}
{
  echo "# Yosys $("$yosys" -V | cut -d' ' -f2) synth -flatten (generic gates, no liberty); regenerate: ctest -R rtl_yosys_area_table"
  echo "unit,parameters,cells"
  i=0
  echo "$points" | while read -r unit params; do
    i=$((i + 1))
    n=$(awk '/Number of cells:/ {n=$4} END {print n}' "$tmp/$i.stat" 2>/dev/null)
    if [ -z "$n" ]; then
      echo "yosys failed on $unit $params:" >&2
      tail -20 "$tmp/$i.log" >&2
      exit 1
    fi
    echo "$unit,$params,$n"
  done
} > "$out.tmp" || exit 1
mv "$out.tmp" "$out"
cat "$out"
if [ -n "$ref" ]; then
  if ! diff "$ref" "$out"; then
    echo "$ref is stale: the RTL or Yosys changed; copy $out over it, commit it, and re-run the"
    echo "sweep tests (the area model embeds it)"
    exit 1
  fi
  echo "$ref is current"
fi
