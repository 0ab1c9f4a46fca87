#!/usr/bin/env bash
# Configure (once) and build into build/; the command line lands in build/bin/stcsim.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
# STCSIM_WERROR=ON (CI) makes any warning in the project's code an error; set, it is
# applied to an existing build folder too.
[ -z "${STCSIM_WERROR:-}" ] || cmake -S . -B build -DSTCSIM_WERROR="$STCSIM_WERROR" >/dev/null
cmake --build build --parallel "$(nproc)"
