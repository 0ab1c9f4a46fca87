#!/bin/bash
# The GPU validation campaign in one call (issue 19; docs/validation.md, "Campaign").
#
#   validation/campaign.sh prepare                 # here: carry headers, nvcc-only build
#   validation/campaign.sh run OUTDIR [--budget S] # on the GPU machine, inside one 10-minute call
#   validation/campaign.sh run OUTDIR --dry-run    # CI: stub binaries, no GPU, every branch
#
# `run` uses the binaries carried in build-validation/bin when they start on this machine,
# else builds them with `cmake -S validation/standalone` (headers from the carried
# build-validation/carry/include). Then a smoke step (every kernel family at a tiny size;
# a family that faults or errs is dropped from the rest), then the suites in order of
# value, each under its own timeout inside the budget (default 540 s). Everything goes to
# OUTDIR in at most 8 files (the many small ones in campaign_files.tar.gz); a table of the
# steps is printed last.
#
# Environment: STCSIM_CAMPAIGN_BIN (a folder of binaries to use instead), CMAKE (the cmake
# to build with), STCSIM_CAMPAIGN_BUILD_DIR (where to build, default build-validation-device),
# PYTHON (python3), STCSIM_CAMPAIGN_STEPS (a comma list to run only those steps).
# --dry-run: STCSIM_CAMPAIGN_BIN defaults to tests/validation/campaign_stubs (stubs that
# write synthetic files; no GPU is touched).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
# Named on every configure: a build folder configured before a target existed keeps its cache.
targets="harness;ubench;bitcapture"
export root targets  # the steps that are shell functions run in their own bash

prepare() {
  "$root/validation/standalone/carry_headers.sh" "$root/build-validation/carry/include" || exit 1
  ${CMAKE:-cmake} -S "$root/validation/standalone" -B "$root/build-validation" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DSTCSIM_STANDALONE_TARGETS="$targets" || exit 1
  ${CMAKE:-cmake} --build "$root/build-validation" || exit 1
  du -sh "$root/build-validation/bin" "$root/build-validation/carry"
  echo "carry: build-validation/bin build-validation/carry (see docs/validation.md)"
}

usage() { sed -n '3,7p' "$0" | sed 's/^# //' >&2; exit 2; }

[ $# -ge 1 ] || usage
cmd=$1; shift
case $cmd in
  prepare) prepare; exit $? ;;
  run) ;;
  *) usage ;;
esac
[ $# -ge 1 ] || usage
out=$1; shift
budget=540 dry=0
while [ $# -gt 0 ]; do
  case $1 in
    --budget) budget=$2; shift 2 ;;
    --dry-run) dry=1; shift ;;
    *) usage ;;
  esac
done
if [ $dry -eq 1 ]; then  # CI: the stub binaries, unless the caller names others
  export STCSIM_CAMPAIGN_BIN=${STCSIM_CAMPAIGN_BIN:-$root/tests/validation/campaign_stubs}
  export STCSIM_STUB_GPU=${STCSIM_STUB_GPU:-1}
fi
mkdir -p "$out/work" || exit 1
out=$(cd "$out" && pwd)
work=$out/work
log=$work/campaign.log
export PYTHON=${PYTHON:-python3} CMAKE=${CMAKE:-cmake}
start_s=$(date +%s)
table=()

elapsed() { echo $(( $(date +%s) - start_s )); }
left() { echo $(( budget - $(elapsed) )); }
say() { echo "[campaign $(elapsed)s] $*" | tee -a "$log"; }

# step NAME TIMEOUT COMMAND...: runs COMMAND under min(TIMEOUT, budget left), logs to
# work/NAME.log, records a row of the table. Returns the command's status (124: timeout,
# 200: skipped for lack of budget or because STCSIM_CAMPAIGN_STEPS leaves it out).
step() {
  local name=$1 limit=$2; shift 2
  if [ -n "${STCSIM_CAMPAIGN_STEPS:-}" ] && [[ ",$STCSIM_CAMPAIGN_STEPS," != *",$name,"* ]]; then
    table+=("$name|not selected|0|"); return 200
  fi
  local l; l=$(left)
  if [ "$l" -lt 10 ]; then
    say "$name: skipped, ${l}s of budget left"
    table+=("$name|skipped: no budget|0|"); return 200
  fi
  [ "$limit" -gt "$l" ] && limit=$l
  say "$name: start (timeout ${limit}s): $*"
  local t0 rc; t0=$(date +%s)
  if declare -F "$1" > /dev/null; then  # a shell function: give it its own bash
    timeout --kill-after=5 "$limit" bash -c "$(declare -f "$1"); $*" > "$work/$name.log" 2>&1
  else
    timeout --kill-after=5 "$limit" "$@" > "$work/$name.log" 2>&1
  fi
  rc=$?
  local dt=$(( $(date +%s) - t0 )) status
  case $rc in
    0) status=ok ;;
    124|137) status="timeout after ${limit}s" ;;
    77) status="skipped: no GPU" ;;
    *) status="exit $rc" ;;
  esac
  tail -n 3 "$work/$name.log" | sed "s/^/  $name: /" | tee -a "$log"
  table+=("$name|$status|$dt|${note:-}")
  note=
  return $rc
}

# ---- plan ----
plan="env 20 | binaries (use carried, else build) 240 | smoke 60 | bitcapture 45 | ubench 90 | suite_real 200 | suite_vendor 90 | suite_ours 130 | energy 150 | pytorch 90 | suite_bsr 130 | suite_csr 170 | ncu 30 | ncu_csr 40 | ncu_epilogue 30 | ncu_epilogue_torch 60 | ncu_anatomy_stalls 180 | ncu_cold_warm_all 30 | ncu_cold_warm_none 30 | vendor_kernels 90 | sass 30"
say "plan (seconds, each capped by the budget left): $plan"
say "budget ${budget}s; output $out (at most 8 files); dry run: $dry"

# ---- env: what the machine is, where the vendor libraries are ----
env_info() {
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,pci.bus_id,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
  command -v nvcc >/dev/null && nvcc --version | tail -2
  ${CMAKE:-cmake} --version | head -1
  "$PYTHON" - <<'PY' 2>&1
import glob, os, site, sys
dirs = [d for d in site.getsitepackages() + [site.getusersitepackages()] if os.path.isdir(d)]
print("site-packages:", ":".join(dirs))
for name in ("libcublas.so.13", "libcublasLt.so.13", "libcusparseLt.so.0"):
    hits = [h for d in dirs for h in glob.glob(d + "/nvidia/**/" + name, recursive=True)]
    print(name, hits[0] if hits else "not under site-packages")
try:
    import torch
    print("torch", torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available())
except Exception as e:
    print("torch: absent:", e)
PY
}
note="site-packages searched by the harness too"
step env 20 env_info
sites=$(sed -n 's/^site-packages: //p' "$work/env.log")
[ -n "$sites" ] && export STCSIM_PYTHON_SITE_PACKAGES=${STCSIM_PYTHON_SITE_PACKAGES:-$sites}
lt=$(sed -n 's/^libcusparseLt.so.0 \(\/.*\)/\1/p' "$work/env.log")
[ -n "$lt" ] && export STCSIM_CUSPARSELT_LIB=${STCSIM_CUSPARSELT_LIB:-$lt}

# ---- binaries ----
bin=${STCSIM_CAMPAIGN_BIN:-$root/build-validation/bin}
runs() {  # the harness starts here: exit 0 (GPU) or 77 (no GPU)
  [ -x "$1/stcsim_validate_gpu" ] || return 1
  "$1/stcsim_validate_gpu" --check-gpu > /dev/null 2>&1
  local rc=$?; [ $rc -eq 0 ] || [ $rc -eq 77 ]
}
build_dir=${STCSIM_CAMPAIGN_BUILD_DIR:-$root/build-validation-device}
build() {
  local b=$1
  ${CMAKE:-cmake} -S "$root/validation/standalone" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DSTCSIM_CARRY_INCLUDE="$root/build-validation/carry/include" -DSTCSIM_STANDALONE_TARGETS="$targets" &&
    ${CMAKE:-cmake} --build "$b" -j "$(nproc)"
}
if runs "$bin"; then
  table+=("binaries|carried, they run|0|$bin")
  say "binaries: using $bin"
else
  say "binaries: $bin missing or does not start here: building"
  step build 240 build "$build_dir"
  bin=$build_dir/bin
fi
if ! runs "$bin"; then
  say "no usable harness: stopping"
  gpu=no
else
  "$bin/stcsim_validate_gpu" --check-gpu > "$work/check_gpu.log" 2>&1
  gpu_rc=$?
  gpu=yes; [ $gpu_rc -eq 77 ] && gpu=no
  say "GPU: $gpu ($(cat "$work/check_gpu.log"))"
fi

# ---- smoke: every kernel family, tiny; drop what faults ----
all_kernels=dense,sp24,bsr,cublas,cublaslt,cusparselt,csr
kernels=$all_kernels
if [ "$gpu" = yes ]; then
  step smoke 60 "$bin/stcsim_validate_gpu" --gemm 256x256x256 --kernels $all_kernels --runs 2 \
    --warmup 1 --energy-ms 0 --gemm-timeout 20 --label smoke --out "$work/smoke.json"
  if [ -f "$work/smoke.json" ]; then
    kernels=$("$PYTHON" - "$work/smoke.json" "$all_kernels" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
names = {"stcsim_dense": "dense", "stcsim_sp24": "sp24", "stcsim_bsr": "bsr", "stcsim_csr": "csr"}
bad = set()
for s in doc.get("skipped", []):
    if s.get("why", "").startswith(("fault:", "error:")):
        # Sparse families carry their sparsity (bsr75, csr98): drop the whole kernel.
        bad.add(names.get(s["kernel"], re.sub(r"[0-9.]+$", "", s["kernel"])))
for g in doc.get("gemms", []):
    if not g.get("check", {}).get("passed", True):
        bad.add(names.get(g["kernel"], g["kernel"]))
keep = [k for k in sys.argv[2].split(",") if k not in bad]
print(",".join(keep))
if bad:
    print("dropped: " + ",".join(sorted(bad)), file=sys.stderr)
PY
    )
    [ -n "$kernels" ] || kernels=none
    say "smoke: kernels kept: $kernels"
  else
    say "smoke: no result file: keeping every kernel"
  fi
fi

# ---- bit capture: raw bits of single mma/mma.sp/wgmma/wgmma.sp, compared offline ----
if [ "$gpu" = yes ] && [ -x "$bin/stcsim_bitcapture" ]; then
  note="stcsim_bitcompare bitcapture.bits, on the simulator's machine"
  # The subset (8 records per operand category of every group, wgmma included, under 1 MiB
  # a group) is what the repository keeps: the whole capture is about 15 MB of random bits.
  step bitcapture 45 "$bin/stcsim_bitcapture" --out "$work/bitcapture.bits" --timeout 30 \
    --subset "$work/bitcapture_subset.bits"
fi

# ---- the suites, in order of value ----
# Value as of the second H200 campaign (2026-11-26): PyTorch, BSR and CSR were measured in
# full by the first, so they come last and a 540 s budget leaves them little or nothing;
# the real layers and 2 s energy stretches had never been measured.
# One harness run per group of kernel families, all into one measurements.json: the
# harness skips the parts an earlier run wrote and re-assembles the file after every
# family. On the H200 (2026-11-26) one 180 s run of every family reached only our dense,
# 2:4 and half the BSR kernels, never the vendor libraries: so the vendor libraries first,
# then our dense and 2:4, PyTorch, BSR, CSR (the slowest, 42 entries, about 160 s).
# suite_step NAME TIMEOUT FAMILIES FILE WHAT...: the families of FAMILIES that the smoke
# step kept, over WHAT (--suite issue7, --trace FILE or --gemm ..., with a --label), into
# work/FILE; energy_ms (default 100) is the harness's --energy-ms.
suite_step() {
  local name=$1 limit=$2 fams="" f file=$work/$4
  for f in ${3//,/ }; do [[ ",$kernels," == *",$f,"* ]] && fams+=${fams:+,}$f; done
  shift 4
  if [ -z "$fams" ]; then table+=("$name|no kernels left|0|"); return; fi
  note="kernels: $fams"
  step "$name" "$limit" "$bin/stcsim_validate_gpu" "$@" --kernels "$fams" --runs 20 \
    --energy-ms "${energy_ms:-100}" --gemm-timeout 60 --out "$file"
  # A killed run keeps its parts: rebuild the file from them.
  [ -d "$file.parts" ] && "$bin/stcsim_validate_gpu" --merge-only --out "$file" >> "$log" 2>&1
}
issue7=(--suite issue7 --label issue7)
# The tensor-core layers of three real-weight models at batch 8 (make_trace.sh there); the
# file stays in campaign_files.tar.gz (OUTDIR holds 8 files already).
real_trace=$root/validation/real_layers/real_models_b8.trace
real=(--trace "$real_trace" --label real_layers)
if [ "$gpu" = yes ]; then
  [ -x "$bin/stcsim_ubench" ] && step ubench 90 "$bin/stcsim_ubench" --out "$work/ubench.json"
  if [ "$kernels" != none ]; then
    # The real layers first: the issue7 suite was measured whole on the H200 (2026-11-26),
    # these never were (one family a process: 44 GEMMs, about a second each).
    [ -f "$real_trace" ] &&
      suite_step suite_real 200 dense,sp24,cublas,cusparselt real_layers.json "${real[@]}"
    suite_step suite_vendor 90 cublas,cublaslt,cusparselt measurements.json "${issue7[@]}"
    suite_step suite_ours 130 dense,sp24 measurements.json "${issue7[@]}"
    # Energy over 2 s stretches (20 steps of NVML's counter; the suites' 100 ms is one),
    # with the clock sampled over each: the data a power model is fitted on.
    energy_ms=2000 suite_step energy 150 dense,sp24,cublas,cusparselt energy.json \
      --gemm 8192x8192x8192 --gemm 8192x11008x4096 --gemm 4096x4096x4096 --label energy
  fi
  if [ -f "$root/validation/pytorch/baselines.py" ]; then
    note="torch_linear, semi-structured (CUTLASS, cuSPARSELt), BSR 32x32"
    # Six GEMMs of the suite (two squares, a wide and three tall MLP layers): each family
    # is its own process that imports torch, so the whole suite would not fit.
    step pytorch 90 "$PYTHON" "$root/validation/pytorch/baselines.py" --out "$work/pytorch.json" \
      --only-gemms square_4096,square_8192,bert_mlp_up.m2048,llama7b_mlp_up.m128,llama7b_mlp_up.m2048,llama7b_mlp_up.m8192 \
      --runs 10 --warmup 2 --family-timeout 30
  fi
  if [ "$kernels" != none ]; then
    suite_step suite_bsr 130 bsr measurements.json "${issue7[@]}"
    suite_step suite_csr 170 csr measurements.json "${issue7[@]}"
  fi
  if command -v ncu > /dev/null; then
    note="gpu__time_duration of our kernels, to cross-check time_us"
    step ncu 30 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
      "$bin/stcsim_validate_gpu" --gemm 4096x4096x4096 --kernels dense,sp24 --runs 1 --warmup 0 \
      --max-launches 1 --energy-ms 0 --label ncu --out "$work/ncu_run.json"
    # Our CSR kernel's L1 and L2 behaviour (docs/notes.md, 2026-11-27: the model is 30-42%
    # fast on the 16-CTA-an-SM shapes at 90%, at a 74% L1 hit rate of its own): one launch
    # of a throughput-bound and of a latency-bound shape, hit rates and long-scoreboard
    # stalls, to set against the model's l1_hit_rate and l2_read_hit_rate.
    note="CSR 90%: L1/L2 hit rates, stalls: work/ncu_csr.log"
    step ncu_csr 40 ncu --clock-control none --csv --metrics \
      gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct \
      "$bin/stcsim_validate_gpu" --gemm 4096x4096x4096 --gemm 128x768x3072 --kernels csr \
      --csr-sparsity 0.9 --runs 1 --warmup 0 --max-launches 1 --energy-ms 0 --label ncu_csr \
      --out "$work/ncu_csr_run.json"
    # What an epilogue stages through shared memory (docs/notes.md, "CUTLASS's epilogue
    # stages fp32 accumulators", 2026-11-28): the model has CUTLASS's sm80 epilogue store the
    # fp32 accumulators (4 B an output element) and our kernels f16 (2 B, one scalar store
    # each). Shared-memory store bytes, instructions and wavefronts over one launch at
    # 4096^3: our dense kernel (the control: its only st.shared are the epilogue's; its
    # first launch writes an f32 D for the check, 4 B an element, the others f16) and
    # PyTorch's CUTLASS 2:4 GEMM (an sm80 SparseGemmWithEpilogueVisitor on this card too,
    # matched on its demangled name: its function name is `Kernel`). 4 B an element
    # bears the model's default out, 2 B refutes it.
    epi_metrics=gpu__time_duration.sum,l1tex__t_bytes_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_ldgsts.sum
    note="shared-memory store bytes a launch, our dense: work/ncu_epilogue.log"
    step ncu_epilogue 30 ncu --clock-control none --csv --kernel-name regex:dense_gemm \
      --launch-count 3 --metrics "$epi_metrics" "$bin/stcsim_validate_gpu" --gemm 4096x4096x4096 \
      --kernels dense --runs 1 --warmup 0 --max-launches 1 --energy-ms 0 --label ncu_epilogue \
      --out "$work/ncu_epilogue_run.json"
    if [ -f "$root/validation/pytorch/baselines.py" ]; then
      note="the same for PyTorch's CUTLASS 2:4 GEMM: work/ncu_epilogue_torch.log"
      step ncu_epilogue_torch 60 ncu --clock-control none --csv --target-processes all \
        --kernel-name-base demangled --kernel-name regex:SparseGemm --launch-count 1 \
        --metrics "$epi_metrics" \
        "$PYTHON" "$root/validation/pytorch/baselines.py" --out "$work/ncu_epilogue_torch.json" \
        --only-gemms square_4096 --kernels torch_24_cutlass --runs 1 --warmup 0 --family-timeout 50
    fi
    # Where our kernels' loops lose to their fragment loads (docs/notes.md, "The 2:4 kernel's
    # mainloop anatomy" and 2026-11-29): at 256x128 the GPU's no_copy_no_barrier runs 8%
    # (dense) and 18% (2:4) under mma_only, the model's 0-1%. The warps' stall reasons on
    # one timed launch (the 2nd invocation, after the warm-up) of each kernel's mma_only
    # (parts 8), no_copy_no_barrier (12) and full (15) at that tile, from the anatomy: an
    # MIO queue shows as mio_throttle, a fragment's latency as short_scoreboard.
    stall_metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum
    for r in mio_throttle short_scoreboard math_pipe_throttle long_scoreboard barrier wait \
      not_selected dispatch_stall no_instruction; do
      stall_metrics+=,smsp__warp_issue_stalled_${r}_per_warp_active.pct
    done
    stall_metrics+=,smsp__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
    stall_metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
    # Also 128x128, where the 2:4 kernel's two warps a sub-core come from two CTAs instead of
    # one: the GPU loses the same 22% to fragment loads at both tiles, the model 27% and 0%
    # (docs/notes.md, session 34): whether the stall mix is the same says which is right.
    note="stall reasons, anatomy 256x128 and 128x128 parts 8/12/15: work/ncu_anatomy_stalls.log"
    step ncu_anatomy_stalls 180 ncu --clock-control none --csv --kernel-name-base demangled \
      --kernel-id "::regex:(dense|sp24)_gemm<(256, 128, 64, 64, 64, 3|128, 128, 64, 64, 64, 4), [^0-9>]*(8|12|15)[^0-9>]*>:2" \
      --metrics "$stall_metrics" "$bin/stcsim_ubench" --only mainloop_anatomy \
      --out "$work/ncu_anatomy_run.json"
    # The cold-start cost a repeat does not pay (docs/notes.md, "A benchmark loop's L2": small
    # GEMMs 0.4-1.6 us faster back to back, which the L2's state does not explain): one
    # small GEMM's launches with every cache flushed before each (ncu's default) and with
    # none, cycles, instruction-fetch stalls and L2 misses side by side.
    cw_metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__warp_issue_stalled_no_instruction_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,lts__t_sectors_op_read_lookup_miss.sum,dram__bytes_read.sum
    for cc in all none; do
      note="128x3072x768 dense, --cache-control $cc: work/ncu_cold_warm_$cc.log"
      step "ncu_cold_warm_$cc" 30 ncu --clock-control none --cache-control "$cc" --csv \
        --kernel-name regex:dense_gemm --launch-count 3 --metrics "$cw_metrics" \
        "$bin/stcsim_validate_gpu" --gemm 128x3072x768 --kernels dense --runs 3 --warmup 0 \
        --max-launches 1 --energy-ms 0 --label ncu_cold_warm --out "$work/ncu_cold_warm_$cc.json"
    done
    # Which kernels the vendor libraries launch for each GEMM of the suite: cuBLAS's sm90
    # kernel names carry the tile, the cluster and split-K, so validate can simulate what
    # ran instead of the chooser's guess. One timed launch each; names only (one metric).
    vfams=""
    for f in cublas cublaslt cusparselt; do [[ ",$kernels," == *",$f,"* ]] && vfams+=${vfams:+,}$f; done
    if [ "$kernels" != none ] && [ -n "$vfams" ]; then
      note="kernel names per GEMM ($vfams): work/vendor_kernels.csv"
      step vendor_kernels 90 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
        --log-file "$work/vendor_kernels.csv" "$bin/stcsim_validate_gpu" "${issue7[@]}" \
        --kernels "$vfams" --runs 1 --warmup 0 --max-launches 1 --energy-ms 0 \
        --out "$work/vendor_kernels_run.json"
    fi
  fi
fi

# Our kernels' SASS as this machine's toolkit disassembles it: checks scripts/sass_schedule.py's
# reading of the same instructions (opcodes, stall counts, scoreboards) made without a
# disassembler, and pins the schedule the model's loop figures come from. No GPU needed.
dump_sass() {
  command -v cuobjdump > /dev/null || { echo "no cuobjdump on this machine"; return 77; }
  cuobjdump --dump-sass --gpu-architecture sm_90 "$1" | gzip -9 > "$2"
  echo "$(zcat "$2" | grep -c 'Function :') functions, $(stat -c %s "$2") bytes gzipped: $2"
}
if [ -x "$bin/stcsim_validate_gpu" ]; then
  note="SASS of our kernels (sm_90): work/sass_sm90.txt.gz"
  step sass 30 dump_sass "$bin/stcsim_validate_gpu" "$work/sass_sm90.txt.gz"
fi

# ---- pack: at most 8 files in OUTDIR ----
for f in measurements.json smoke.json ubench.json pytorch.json bitcapture.bits bitcapture_subset.bits; do
  [ -f "$work/$f" ] && cp "$work/$f" "$out/$f"
done
summary=$out/summary.txt
{
  echo "stcsim validation campaign, $(date -u +%Y-%m-%dT%H:%M:%SZ), budget ${budget}s, used $(elapsed)s, dry run $dry"
  printf '%-12s %-26s %6s  %s\n' step status seconds note
  for row in "${table[@]}"; do
    IFS='|' read -r a b c d <<< "$row"
    printf '%-12s %-26s %6s  %s\n' "$a" "$b" "$c" "$d"
  done
  for f in "$out/measurements.json" "$out/smoke.json" "$work/real_layers.json"; do
    [ -f "$f" ] && "$PYTHON" - "$f" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
g, s = doc.get("gemms", []), doc.get("skipped", [])
print(f"{sys.argv[1].split('/')[-1]}: {len(g)} measured, {len(s)} skipped, "
      f"{sum(not e.get('check', {}).get('passed', True) for e in g)} failed checks")
for e in g[:12]:
    print(f"  {e['name']:<24} {e['kernel']:<14} {e['time_us']['median']:10.2f} us")
PY
  done
} > "$summary"
# The captures are already in OUTDIR (random bits barely compress): not twice.
tar -czf "$out/campaign_files.tar.gz" --exclude=work/bitcapture.bits \
  --exclude=work/bitcapture_subset.bits -C "$out" work 2>/dev/null &&
  rm -rf "$work"
n=$(find "$out" -maxdepth 1 -type f | wc -l)
[ "$n" -le 8 ] || echo "warning: $n files in $out (more than 8)" >> "$summary"
cat "$summary"
