#!/bin/sh
# failure_dump.sh TB OUTDIR: with one expected value corrupted the testbench must exit 1,
# write the failing vector to the fail file and the waveform of its re-run.
tb=$1 out=$2
rm -rf "$out" && mkdir -p "$out" || exit 1
"$tb" --vectors 200 --seed 3 --inject-fail --fail-file "$out/fail.txt" --fst "$out/fail.fst"
rc=$?
[ "$rc" = 1 ] || { echo "expected exit 1, got $rc"; exit 1; }
[ "$(wc -l < "$out/fail.txt")" = 1 ] || { echo "expected one failing vector"; exit 1; }
grep -q "expected=" "$out/fail.txt" || { echo "fail file lacks the vector"; exit 1; }
[ -s "$out/fail.fst" ] || { echo "no waveform written"; exit 1; }
echo "ok: $(cat "$out/fail.txt" | cut -c1-120)..."
