#!/bin/sh
# GPU test (ctest label `gpu`): the harness on a tiny fp16 GEMM, every kernel, then
# `stcsim validate` on what it wrote. Exit 77 (ctest: skipped) without the CUDA build or
# without a GPU; 1 on any failure.
# usage: gpu_smoke.sh HARNESS_BINARY_OR_EMPTY STCSIM_BINARY
harness=$1 stcsim=$2
if [ -z "$harness" ] || [ ! -x "$harness" ]; then
  echo "skipped: no GPU harness (configure with -DSTCSIM_WITH_CUDA=ON)"
  exit 77
fi
"$harness" --check-gpu || exit $?  # prints "skipped: no GPU (...)" and exits 77 without one
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
"$harness" --gemm 256x256x256 --runs 3 --warmup 1 --samples 8 --out "$out/m.json" || exit 1
# The preset comes from the device name; STCSIM_VALIDATE_ARCH overrides it (other GPUs).
"$stcsim" validate --measurements "$out/m.json" --out "$out/validate" --jobs 1 \
  ${STCSIM_VALIDATE_ARCH:+--arch "$STCSIM_VALIDATE_ARCH"} || exit 1
grep -q '"passed": true' "$out/m.json" || exit 1
