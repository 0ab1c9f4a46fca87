#!/usr/bin/env bash
# Shards and merge: three shards of a sweep merged equal the unsharded run, byte for
# byte; a merge missing a shard says so (exit 1) and resuming the merged folder fills it.
#   shard_merge.sh STCSIM DATA_DIR
set -euo pipefail
stcsim=$1
spec=$2/small.yaml
work=$(mktemp -d /tmp/stcsim_merge.XXXXXX)
trap 'rm -rf "$work"' EXIT

"$stcsim" sweep "$spec" --out "$work/whole" -j 2 -q
for i in 0 1 2; do "$stcsim" sweep "$spec" --out "$work/shard_$i" --shard "$i/3" -j 2 -q; done
for i in 0 1 2; do
  n=$(ls "$work/shard_$i/points" | wc -l)
  [ "$n" -eq 4 ] || { echo "FAIL: shard $i has $n points, expected 4"; exit 1; }
done
"$stcsim" sweep-merge --out "$work/merged" "$work"/shard_*
for f in results.csv results.json sweep.json; do
  cmp "$work/whole/$f" "$work/merged/$f" || { echo "FAIL: merged $f differs from the unsharded run"; exit 1; }
done

# Two of three shards: 8 of 12 points, exit 1; then the same sweep resumes the folder.
if "$stcsim" sweep-merge --out "$work/partial" "$work/shard_0" "$work/shard_2" 2>"$work/err"; then
  echo "FAIL: a merge with missing points exited 0"; exit 1
fi
grep -q "8/12 points" "$work/err" || { cat "$work/err"; echo "FAIL: no count of missing points"; exit 1; }
"$stcsim" sweep "$spec" --out "$work/partial" -j 2 -q
cmp "$work/whole/results.csv" "$work/partial/results.csv" || { echo "FAIL: resumed partial merge differs"; exit 1; }

# Shards of another sweep are refused.
other=$work/other.yaml
sed 's/dram.bandwidth_gbps: \[800, 1555, 3000\]/dram.bandwidth_gbps: [800, 1555, 2000]/' "$spec" >"$other"
cp "$2/bert_tiny.trace" "$work/"
"$stcsim" sweep "$other" --out "$work/other" --shard 0/3 -q
if "$stcsim" sweep-merge --out "$work/bad" "$work/shard_0" "$work/other" 2>"$work/err"; then
  echo "FAIL: merged shards of different sweeps"; exit 1
fi
grep -q "different sweep" "$work/err" || { cat "$work/err"; exit 1; }
echo "PASS: shards merged equal the unsharded run"
