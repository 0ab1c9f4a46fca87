#!/bin/bash
# CPU test (ctest label `validation`): validation/campaign.sh end to end with STUB binaries
# (tests/validation/campaign_stubs: synthetic files, no GPU), through every branch:
#   A  carried binaries run; smoke drops the kernel family that faults; bit capture; suites; packing
#   B  carried binaries absent: the build branch (stub cmake); no GPU: suites not run
#   C  the suite hangs: its step times out, the parts are merged (--merge-only)
# usage: campaign_dry_run.sh SOURCE_DIR
set -u
src=$1
stubs=$src/tests/validation/campaign_stubs
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; [ -f "$cur/summary.txt" ] && cat "$cur/summary.txt"; exit 1; }
files_ok() { [ "$(find "$1" -maxdepth 1 -type f | wc -l)" -le 8 ] || fail "more than 8 files in $1"; }

# A
cur=$tmp/a
STCSIM_STUB_FAULT=bsr "$src/validation/campaign.sh" run "$cur" --dry-run --budget 120 > "$tmp/a.out" 2>&1 \
  || fail "A exit status"
tail -1 "$tmp/a.out" | grep -q . || fail "A prints nothing last"
grep -q "plan (seconds" "$tmp/a.out" || fail "A: no plan printed"
grep -q "budget 120s" "$tmp/a.out" || fail "A: budget not printed"
grep -q "kernels kept: dense,sp24,cublas,cublaslt,cusparselt,csr" "$tmp/a.out" || fail "A: bsr not dropped"
grep -q "^env  *ok" "$cur/summary.txt" || fail "A: env step"
grep -q "^smoke  *ok" "$cur/summary.txt" || fail "A: smoke step"
grep -q "^bitcapture  *ok" "$cur/summary.txt" || fail "A: bitcapture step"
[ -f "$cur/bitcapture.bits" ] || fail "A: bitcapture.bits missing"
head -1 "$cur/bitcapture.bits" | grep -q stcsim-bitcapture/1 || fail "A: bitcapture.bits schema"
# The plan (with its budget) lists the capture right after the smoke step.
grep -q "smoke 60 | bitcapture 45 |" "$tmp/a.out" || fail "A: bitcapture not planned after smoke"
grep -q "^energy  *ok .*kernels: dense,sp24,cublas,cusparselt$" "$cur/summary.txt" || fail "A: energy step"
tar -xzOf "$cur/campaign_files.tar.gz" work/campaign.log | grep -q "energy-ms 2000" || fail "A: energy step without 2 s stretches"
grep -q "^suite_real  *ok .*kernels: dense,sp24,cublas,cusparselt$" "$cur/summary.txt" || fail "A: real-layer step"
grep -q "^real_layers.json: 8 measured" "$cur/summary.txt" || fail "A: real layers not summarised"
tar -tzf "$cur/campaign_files.tar.gz" | grep -q "work/real_layers.json$" || fail "A: real layers not packed"
grep -q "real_models_b8.trace" "$cur/summary.txt" "$tmp/a.out" || fail "A: real layers not run over the trace"
grep -q "^suite_vendor  *ok .*kernels: cublas,cublaslt,cusparselt" "$cur/summary.txt" || fail "A: vendor suite step"
grep -q "^suite_ours  *ok .*kernels: dense,sp24$" "$cur/summary.txt" || fail "A: our suite step"
grep -q "^suite_bsr  *no kernels left" "$cur/summary.txt" || fail "A: the dropped bsr family ran"
grep -q "^suite_csr  *ok .*kernels: csr" "$cur/summary.txt" || fail "A: csr suite step"
# Every suite step adds its families to one file.
for k in cublas stcsim_dense stcsim_csr; do grep -q "\"$k\"" "$cur/measurements.json" || fail "A: $k not in measurements.json"; done
[ -f "$cur/measurements.json" ] && [ -f "$cur/ubench.json" ] && [ -f "$cur/campaign_files.tar.gz" ] \
  || fail "A: files missing"
grep -q stcsim_bsr "$cur/measurements.json" && fail "A: dropped kernel measured"
tar -tzf "$cur/campaign_files.tar.gz" | grep -q "work/suite_vendor.log" || fail "A: logs not packed"
files_ok "$cur"
# The table is the last thing printed.
tail -n 60 "$tmp/a.out" | grep -q "^step  *status" || fail "A: table not last"

# B
cur=$tmp/b
mkdir -p "$tmp/empty"
STCSIM_CAMPAIGN_BIN=$tmp/empty STCSIM_STUB_GPU=0 CMAKE=$stubs/cmake STCSIM_CAMPAIGN_BUILD_DIR=$tmp/bbuild \
  "$src/validation/campaign.sh" run "$cur" --dry-run --budget 60 > "$tmp/b.out" 2>&1 || fail "B exit status"
grep -q "^build  *ok" "$cur/summary.txt" || fail "B: build step"
grep -q "GPU: no" "$tmp/b.out" || fail "B: no-GPU branch"
grep -q "^suite" "$cur/summary.txt" && fail "B: suite ran without a GPU"
grep -q "^bitcapture" "$cur/summary.txt" && fail "B: bitcapture ran without a GPU"
files_ok "$cur"

# C
cur=$tmp/c
STCSIM_STUB_HANG=suite "$src/validation/campaign.sh" run "$cur" --dry-run --budget 25 > "$tmp/c.out" 2>&1 \
  || fail "C exit status"
grep -q "^suite_vendor  *timeout" "$cur/summary.txt" || fail "C: suite timeout not recorded"
[ -f "$cur/measurements.json" ] || fail "C: parts not merged after the timeout"
grep -q square_4096 "$cur/measurements.json" || fail "C: merged file lacks the finished part"
files_ok "$cur"
echo "campaign dry run: A, B, C passed"
