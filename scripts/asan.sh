#!/usr/bin/env bash
# ASan+UBSan build (issue 20) in build-asan/, Verilator on as in the main build, and the
# unit, component, cli and workloads labels run under it. The Python module is left out: a
# sanitized extension cannot load into an uninstrumented interpreter. Any sanitizer report
# fails the test that triggered it (halt_on_error, no recovery from UBSan).
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g1"
[ -f build-asan/build.ninja ] || cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSTCSIM_WITH_CUDA=OFF -DSTCSIM_BUILD_BENCH=OFF -DSTCSIM_WITH_PYTHON=OFF \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
start=$(date +%s)
cmake --build build-asan --parallel "$(nproc)"
built=$(date +%s)
# SystemC switches coroutine stacks, which ASan's stack-use-after-return check cannot follow;
# leaks are SystemC's static kernel objects, freed by process exit.
ASAN_OPTIONS=detect_stack_use_after_return=0:detect_leaks=0:halt_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan -L 'unit|component|cli|workloads' --output-on-failure -j "$(nproc)"
echo "asan: build $((built - start)) s, tests $(($(date +%s) - built)) s"
