#!/bin/sh
# cosim_trace.sh STCSIM TB OUTDIR: writes the PP-OCRv4 recognizer pruned 2:4 as a trace
# and runs every group of its 2:4 layers through the RTL and the golden model.
# Exit 77 (skipped) when the real model is not in the cache.
stcsim=$1 tb=$2 out=$3
mkdir -p "$out" || exit 1
if ! "$stcsim" trace --model ppocrv4_rec --prune 2:4 --out "$out/ppocrv4_rec_24.trace" >"$out/trace.log" 2>&1; then
  if grep -q "not in the cache" "$out/trace.log"; then
    echo "SKIPPED: $(cat "$out/trace.log")"
    exit 77
  fi
  cat "$out/trace.log"
  exit 1
fi
exec "$tb" --vectors 0 --seed 2 --trace "$out/ppocrv4_rec_24.trace" \
  --fail-file "$out/rtl_failures_trace.txt" --fst "$out/rtl_first_failure_trace.fst"
