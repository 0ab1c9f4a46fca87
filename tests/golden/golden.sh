#!/usr/bin/env bash
# The golden regression: exact stats of a fixed set of runs (cases.txt), every cycle
# count and counter pinned (host time left out).
#
#   bash tests/golden/golden.sh check NAME       run one case, compare with expected/NAME.txt
#   bash tests/golden/golden.sh update [NAME...] regenerate (all by default) and print what
#                                                changed; commit the result with the reason
#   bash tests/golden/golden.sh list             the case names
#
# STCSIM_BIN and GOLDEN_STATS_BIN name the binaries (default: build/bin/stcsim and
# build/tests/golden/golden_stats). A case whose `requires=` path is missing from the
# model cache (${STCSIM_CACHE:-~/.cache/stcsim}) exits 77, which ctest reports as skipped.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
stcsim="${STCSIM_BIN:-$root/build/bin/stcsim}"
tool="${GOLDEN_STATS_BIN:-$root/build/tests/golden/golden_stats}"
cache="${STCSIM_CACHE:-$HOME/.cache/stcsim}"
cases="$here/cases.txt"

# Print "requires|args" of case $1 (empty if none).
case_line() {
  awk -v n="$1" '$1 == n { req = ""; args = "";
      for (i = 2; i <= NF; ++i) { if ($i ~ /^requires=/) req = substr($i, 10); else args = args " " $i }
      print req "|" args; exit }' "$cases"
}
names() { awk '!/^#/ && NF { print $1 }' "$cases"; }

# Run case $1 and write its flattened stats to $2. Returns 77 when its model is missing.
run_case() {
  local line req args tmp
  line="$(case_line "$1")"
  [ -n "$line" ] || { echo "golden: no case '$1' in $cases" >&2; return 2; }
  req="${line%%|*}"; args="${line#*|}"
  if [ -n "$req" ] && [ ! -e "$cache/$req" ]; then
    echo "golden: $1 skipped: needs $cache/$req (bash scripts/fetch_models.sh)"
    return 77
  fi
  tmp="$(mktemp -d)"
  # shellcheck disable=SC2086  # args are words from cases.txt
  if ! (cd "$root" && "$stcsim" run $args -q --out "$tmp" >"$tmp/log" 2>&1); then
    echo "golden: $1: stcsim run$args failed:" >&2; cat "$tmp/log" >&2; rm -rf "$tmp"; return 1
  fi
  "$tool" flatten "$tmp/stats.json" >"$2" || { rm -rf "$tmp"; return 1; }
  rm -rf "$tmp"
}

cmd="${1:-}"; shift || true
case "$cmd" in
  list) names ;;
  check)
    [ $# -eq 1 ] || { echo "usage: golden.sh check NAME" >&2; exit 2; }
    expected="$here/expected/$1.txt"
    [ -f "$expected" ] || { echo "golden: $expected missing (golden.sh update $1)" >&2; exit 1; }
    actual="$(mktemp)"
    run_case "$1" "$actual"; rc=$?
    if [ $rc -ne 0 ]; then rm -f "$actual"; exit $rc; fi
    "$tool" diff "$expected" "$actual"; rc=$?
    rm -f "$actual"
    [ $rc -eq 0 ] && echo "golden: $1 identical ($(wc -l <"$expected") values)"
    exit $rc ;;
  update)
    [ $# -gt 0 ] || set -- $(names)
    mkdir -p "$here/expected"
    changed=0
    for n in "$@"; do
      out="$here/expected/$n.txt"
      new="$(mktemp)"
      run_case "$n" "$new"; rc=$?
      if [ $rc -eq 77 ]; then rm -f "$new"; continue; fi
      [ $rc -eq 0 ] || { rm -f "$new"; exit 1; }
      if [ -f "$out" ]; then
        if ! "$tool" diff "$out" "$new"; then changed=$((changed + 1)); fi
      else
        echo "golden: $n: new ($(wc -l <"$new") values)"; changed=$((changed + 1))
      fi
      mv "$new" "$out"
    done
    echo "golden: $changed of $# case(s) changed" ;;
  *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
