#!/usr/bin/env bash
# The error of `stcsim run --mode analytic` against cycle mode on a standard set: the GPU
# campaign's transformer MLP shapes (M in 128, 512, 2048 x (N, K) in (3072, 768),
# (768, 3072), (11008, 4096)) and 4096^3, dense and 2:4 (each 2:4 run simulates its dense
# twin too), on each preset named. Prints one line per GEMM and the MAPE per preset and
# pattern; CPU time of both modes at the end.
#   bench/analytic_error.sh [PRESET ...]      (default: a100 h100)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
stcsim="${STCSIM:-$here/build/bin/stcsim}"
presets=("${@:-a100 h100}")
[ $# -eq 0 ] && presets=(a100 h100)
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
gemms=()
for m in 128 512 2048; do
  for nk in 3072x768 768x3072 11008x4096; do gemms+=(--gemm "${m}x${nk}"); done
done
gemms+=(--gemm 4096x4096x4096)
for p in "${presets[@]}"; do
  for mode in cycle analytic; do
    start=$(date +%s.%N)
    "$stcsim" run --arch "$p" --mode "$mode" --sparsity 2:4 "${gemms[@]}" -q --out "$out/$p.$mode"
    echo "$p $mode $(echo "$(date +%s.%N) - $start" | bc) s" >> "$out/times"
  done
done
/usr/bin/python3 - "$out" "${presets[@]}" <<'PY'
import json, sys
out, presets = sys.argv[1], sys.argv[2:]
for p in presets:
    cyc = json.load(open(f"{out}/{p}.cycle/stats.json"))["ops"]
    ana = json.load(open(f"{out}/{p}.analytic/stats.json"))["ops"]
    errs = {"dense": [], "2:4": []}
    for c, a in zip(cyc, ana):
        assert c["name"] == a["name"]
        # Each op is the 2:4 GEMM; its dense twin's cycles come with it (dense_cycles).
        for pattern, key in (("dense", "dense_cycles"), ("2:4", "cycles")):
            e = (a[key] - c[key]) / c[key]
            errs[pattern].append(abs(e))
            print(f"{p:5} {pattern:5} {c['name']:18} cycle {c[key]:>10.0f} "
                  f"analytic {a[key]:>10.0f} {100*e:+6.1f}%")
    for k, v in errs.items():
        print(f"{p} {k}: MAPE {100*sum(v)/len(v):.1f}% over {len(v)} GEMMs, worst {100*max(v):.1f}%")
PY
cat "$out/times"
