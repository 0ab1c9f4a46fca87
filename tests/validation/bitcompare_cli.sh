#!/bin/sh
# CPU test (ctest label `validation`): stcsim_bitcompare end to end. A SYNTHETIC capture
# whose D come from the h100 preset passes --require h100 (exit 0, 100%), fails
# --require a100 (exit 1), and after one output bit is flipped in the file fails
# --require h100, naming the mismatch; a torn file exits 2. --search finds the model the
# capture was made with, alone at the top, among every model of its grid.
# usage: bitcompare_cli.sh STCSIM_BITCOMPARE
set -u
bc=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out" 2>/dev/null; exit 1; }
"$bc" --synthesize h100 --scale 0.02 --out "$tmp/c.bits" > "$tmp/out" 2>&1 || fail "synthesize"
"$bc" "$tmp/c.bits" --require h100 --json "$tmp/r.json" > "$tmp/out" 2>&1 || fail "own preset not 100%"
grep -q "preset h100: .*(100.00%)" "$tmp/out" || fail "no 100% line for h100"
grep -q "SYNTHETIC" "$tmp/out" || fail "synthetic capture not announced"
grep -q '"exact_records"' "$tmp/r.json" || fail "no JSON report"
"$bc" "$tmp/c.bits" --require a100 > "$tmp/out" 2>&1
[ $? -eq 1 ] || fail "another preset passed --require"
"$bc" "$tmp/c.bits" --search --only mma_sp_m16n8k32_f16 --per-category 4 --show 6 \
  --json "$tmp/s.json" > "$tmp/out" 2>&1 || fail "search"
sed -n 3p "$tmp/out" | grep -Eq "b16 x2 rz norm=0 c=first align=exp( ovf=inf)?: 12/12 records" || fail "search: h100 not first"
# Only h100's own model matches every record, up to what one mma.sp cannot tell apart: any
# block that holds all its 16 kept products (b16, b32, or 32 positions), and the overflow
# rule (the synthetic operands never overflow).
grep "12/12 records" "$tmp/out" |
  grep -Ev "b16 x2 rz norm=0 c=first align=exp( ovf=inf)?:|b32 x2 rz norm=0 c=first align=exp( ovf=inf)?( sp=positions)?:" |
  grep -q . && fail "search: a model of another family matches every record"
grep -q '"overall"' "$tmp/s.json" || fail "search: no JSON"
# The part worth committing: 2 records per operand category per group, and a 40 KiB cap that
# leaves the wgmma groups one record per category (an mma record is under 2.2 KB).
"$bc" "$tmp/c.bits" --keep 2 --keep-bytes 40960 --out "$tmp/sub.bits" > "$tmp/out" 2>&1 || fail "keep"
"$bc" "$tmp/sub.bits" --require h100 > "$tmp/out" 2>&1 || fail "the subset does not replay"
python3 - "$tmp/c.bits" "$tmp/sub.bits" <<'PY' || fail "subset header"
import json, sys
full = json.loads(open(sys.argv[1], "rb").readline())
sub = json.loads(open(sys.argv[2], "rb").readline())
kept = {g["name"]: g for g in sub["subset"]["groups"]}
assert sub["subset"]["records_per_category"] == 2, sub["subset"]
for g in sub["groups"]:
    whole = next(f for f in full["groups"] if f["name"] == g["name"])
    cap = max(1, min(2, 40960 // (g["record_words"] * 4 * 6)))
    # record i has category i % 6 (plan.h): what each category holds, then what is kept
    held = [len(range(c, whole["records"], 6)) for c in range(6)]
    want = sum(min(cap, h) for h in held)
    assert g["records"] == kept[g["name"]]["kept"] == want, (g["name"], g["records"], want)
    assert kept[g["name"]]["of"] == whole["records"]
assert any(g["records"] == 6 for g in sub["groups"]) and any(g["records"] == 12 for g in sub["groups"])
PY
"$bc" "$tmp/c.bits" --keep 0 --out "$tmp/bad.bits" > "$tmp/out" 2>&1
[ $? -eq 2 ] || fail "--keep 0 did not exit 2"
[ -e "$tmp/bad.bits" ] && fail "--keep 0 wrote a file"
# Flip bit 0 of the last word of the file (the last record's last D word).
python3 - "$tmp/c.bits" <<'PY' || fail "flip"
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[-4] ^= 1
open(p, "wb").write(b)
PY
"$bc" "$tmp/c.bits" --require h100 > "$tmp/out" 2>&1
[ $? -eq 1 ] || fail "a flipped bit passed"
grep -q "mismatch wgmma_sp_m64n64k32_bf16 record 5 .*1 elements differ" "$tmp/out" || fail "mismatch not named"
head -c 1000 "$tmp/c.bits" > "$tmp/torn.bits"
"$bc" "$tmp/torn.bits" > "$tmp/out" 2>&1
[ $? -eq 2 ] || fail "a torn file did not exit 2"
echo "bitcompare cli: passed"
