#!/usr/bin/env bash
# Configure (once) and build into build/; the command line lands in build/bin/stcsim.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --parallel "$(nproc)"
