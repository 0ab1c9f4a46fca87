#!/usr/bin/env bash
# Resume after a kill: SIGKILL a sweep half-way (no chance to clean up), check every
# point on disk is complete, rerun the same command, and compare the tables with an
# uninterrupted run's: they must be identical, byte for byte.
#   resume_after_kill.sh STCSIM DATA_DIR
set -euo pipefail
stcsim=$1
spec=$2/resume.yaml
work=$(mktemp -d /tmp/stcsim_resume.XXXXXX)
pid=
trap '[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

"$stcsim" sweep "$spec" --out "$work/whole" -j 2 -q

"$stcsim" sweep "$spec" --out "$work/killed" -j 2 -q &
pid=$!
# Wait until a few points are done, then kill without warning.
for _ in $(seq 600); do
  n=$(find "$work/killed/points" -name 'p*.json' 2>/dev/null | wc -l || true)
  [ "$n" -ge 6 ] && break
  sleep 0.02
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
before=$(find "$work/killed/points" -name 'p*.json' | wc -l)
echo "killed with $before of 32 points done"
[ "$before" -ge 6 ] && [ "$before" -lt 32 ] || { echo "FAIL: the kill did not land mid-way ($before points)"; exit 1; }
# The children died with the sweep (PR_SET_PDEATHSIG): none still writes there.
sleep 0.3
if ps -eo args | grep -F -- "$work/killed/.work" | grep -v grep; then
  echo "FAIL: simulations outlived the killed sweep"; exit 1
fi
# A point is complete or absent: every file present parses as a full point.
for f in "$work"/killed/points/p*.json; do
  grep -q '"status"' "$f" || { echo "FAIL: partial point file $f"; exit 1; }
done

log=$("$stcsim" sweep "$spec" --out "$work/killed" -j 2 -q 2>&1)
echo "$log"
echo "$log" | grep -q "($before from before, $((32 - before)) now, 0 failed)" || { echo "FAIL: the rerun did not skip the finished points"; exit 1; }
for f in results.csv results.json; do
  cmp "$work/whole/$f" "$work/killed/$f" || { echo "FAIL: $f differs from the uninterrupted run"; exit 1; }
done
[ ! -e "$work/killed/.work" ] || { echo "FAIL: scratch folder left behind"; exit 1; }
echo "PASS: resumed sweep equals the uninterrupted one"
