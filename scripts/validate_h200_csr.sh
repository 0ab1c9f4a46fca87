#!/usr/bin/env bash
# The H200 campaign's CSR SpMM entries (issue7_csr_*, issue7_csr98_*) against the model:
# writes validation/reports/nvidia_h200/validate_4_csr.txt and report_4_csr.json.
# The 8192^3 and llama7b m2048/m8192 entries (9 of 42) are left out by default: each is a
# long simulation on this kind of machine (minutes; 30 for the nine on 2 cores).
# STCSIM_CSR_LONG=1 runs only those nine instead, into validate_4_csr_long.txt and
# report_4_csr_long.json.
#   bash scripts/validate_h200_csr.sh [STCSIM]      (default build/bin/stcsim)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
stcsim="${1:-$root/build/bin/stcsim}"
[ -x "$stcsim" ] || { echo "$0: $stcsim is not an executable (build first)" >&2; exit 2; }
meas="$root/validation/measurements/nvidia_h200"
reports="$root/validation/reports/nvidia_h200"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
suffix=""
[ -n "${STCSIM_CSR_LONG:-}" ] && suffix="_long"
/usr/bin/python3 - "$meas" "$work/in" "$suffix" <<'PY'
import glob, json, os, sys
meas, out, only_long = sys.argv[1], sys.argv[2], bool(sys.argv[3])
long = {"square_8192", "llama7b_mlp_up.m2048", "llama7b_mlp_up.m8192"}
for path in sorted(glob.glob(os.path.join(meas, "issue7_csr*.json"))):
    d = json.load(open(path))
    d["gemms"] = [g for g in d["gemms"] if (g["name"] in long) == only_long]
    json.dump(d, open(os.path.join(out, os.path.basename(path)), "w"))
PY
"$stcsim" validate -q --measurements "$work/in" --out "$work/out" | grep -v "^Wrote " |
  tee "$reports/validate_4_csr$suffix.txt"
# The report names the measurement files it read: the originals, not the filtered copies.
sed "s#$work/in/#validation/measurements/nvidia_h200/#g" "$work/out/report.json" \
  > "$reports/report_4_csr$suffix.json"
