#!/bin/sh
# CPU test (ctest label `validation`): the nvcc-only configuration (validation/standalone)
# configures and builds with CMake, nvcc and the carried headers alone, and its binaries
# start (the harness answers --check-gpu: 0 with a GPU, 77 without). Also the fallback
# without Boost (harness host library without the functional model). Exit 77 (skipped)
# when nvcc is absent.
# usage: standalone_build.sh SOURCE_DIR WORK_DIR
set -u
src=$1 work=$2
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || { echo "skipped: no nvcc at $nvcc"; exit 77; }
gen=; command -v ninja > /dev/null && gen="-G Ninja"
carry=$work/carry/include
"$src/validation/standalone/carry_headers.sh" "$carry" || exit 1
cmake -S "$src/validation/standalone" -B "$work/full" $gen -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_COMPILER="$nvcc" -DSTCSIM_CARRY_INCLUDE="$carry" || exit 1
cmake --build "$work/full" || exit 1
for b in "$work"/full/bin/*; do
  "$b" --check-gpu > "$work/check.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || [ $rc -eq 77 ] || { echo "FAIL: $b --check-gpu exit $rc"; cat "$work/check.log"; exit 1; }
  echo "$(basename "$b"): starts (--check-gpu exit $rc)"
done
for b in stcsim_validate_gpu stcsim_ubench stcsim_bitcapture; do
  [ -x "$work/full/bin/$b" ] || { echo "FAIL: $b not built"; exit 1; }
done
# Without Boost: only nlohmann/ and CLI/ carried.
mkdir -p "$work/noboost/include"
rm -rf "$work/noboost/include/nlohmann" "$work/noboost/include/CLI"
cp -rp "$carry/nlohmann" "$carry/CLI" "$work/noboost/include/"
cmake -S "$src/validation/standalone" -B "$work/noboost/build" $gen -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_COMPILER="$nvcc" -DSTCSIM_CARRY_INCLUDE="$work/noboost/include" > "$work/noboost.log" 2>&1 \
  || { cat "$work/noboost.log"; exit 1; }
grep -q "functional model OFF" "$work/noboost.log" || { echo "FAIL: Boost fallback not taken"; exit 1; }
cmake --build "$work/noboost/build" --target stcsim_sa_host || exit 1
echo "standalone nvcc-only configuration: built"
