#!/usr/bin/env bash
# The libFuzzer targets of tests/fuzz, for ctest and by hand.
#   fuzz.sh build DIR              configure DIR with clang (-DSTCSIM_FUZZ=ON, ASan+UBSan,
#                                  libFuzzer coverage) and build the targets
#   fuzz.sh run DIR TARGET SECONDS run one target on a copy of its seed corpus (fixed seed)
#   fuzz.sh long DIR TARGET RUNS   run until RUNS inputs (the recorded long runs)
# Without clang++ or libFuzzer (Debian: clang, libclang-rt-dev) it says SKIPPED and exits 0.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mode="$1"; dir="$2"

has_libfuzzer() {
  command -v clang++ >/dev/null || return 1
  echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
    clang++ -x c++ -fsanitize=fuzzer - -o /dev/null 2>/dev/null
}
if ! has_libfuzzer; then
  echo "SKIPPED: clang++ with libFuzzer not found (install clang and libclang-rt-dev)"
  exit 0
fi

case "$mode" in
  build)
    flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -g -O1"
    [ -f "$dir/build.ninja" ] || cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DSTCSIM_FUZZ=ON \
      -DSTCSIM_WITH_VERILATOR=OFF -DSTCSIM_WITH_CUDA=OFF -DSTCSIM_BUILD_BENCH=OFF -DSTCSIM_WITH_PYTHON=OFF \
      -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" >/dev/null
    cmake --build "$dir" --target fuzz_all --parallel "$(nproc)"
    ;;
  run|long)
    target="$3"; amount="$4"
    bin="$dir/bin/fuzz_$target"  # the project puts every executable in <build>/bin
    [ -x "$bin" ] || { echo "fuzz.sh: $bin is not built (run: fuzz.sh build $dir)" >&2; exit 1; }
    # A scratch corpus seeded from the checked-in one, so runs never write into the tree.
    corpus="$(mktemp -d)"
    trap 'rm -rf "$corpus"' EXIT
    cp "$here/corpus/$target/"* "$corpus/" 2>/dev/null || true
    # ctest's short runs use a fixed seed (STCSIM_FUZZ_SEED, default 1), so that CI gates
    # on the same inputs every time and a finding there reproduces here; the long runs
    # take a fresh seed each time, to explore.
    limit=(-max_total_time="$amount" -seed="${STCSIM_FUZZ_SEED:-1}")
    [ "$mode" = long ] && limit=(-runs="$amount")
    # -rss_limit_mb: an input that makes a parser allocate past 2 GB is a finding, and so
    # is one taking over 10 s (-timeout); either leaves an artifact and a non-zero status.
    log="$corpus.log"
    status=0
    ASAN_OPTIONS=detect_leaks=0 "$bin" "${limit[@]}" -rss_limit_mb=2048 -timeout=10 \
      -max_len=65536 -print_final_stats=1 -artifact_prefix="$dir/crash-$target-" "$corpus" \
      >"$log" 2>&1 || status=$?
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|ERROR|SUMMARY|artifact" "$log" || true
    if [ "$status" -ne 0 ]; then
      tail -40 "$log" >&2
      echo "fuzz_$target: libFuzzer exited $status (findings: $dir/crash-$target-*)" >&2
      rm -f "$log"
      exit 1
    fi
    rm -f "$log"
    ;;
  *) echo "usage: fuzz.sh build DIR | run DIR TARGET SECONDS | long DIR TARGET RUNS" >&2; exit 2 ;;
esac
