#!/bin/sh
# Fills OUT (default build-validation/carry/include) with the header-only pieces the
# nvcc-only configuration needs, copied from this machine's Debian packages (nothing is
# vendored in git): nlohmann-json3-dev, libcli11-dev, and the Boost headers that
# models/numerics actually includes (found with the compiler's own -M, about 4 MB).
# usage: carry_headers.sh [OUT]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build-validation/carry/include}
mkdir -p "$out"
for d in nlohmann CLI; do
  [ -d "/usr/include/$d" ] || { echo "carry_headers: /usr/include/$d missing (Debian package?)" >&2; exit 1; }
  rm -rf "${out:?}/$d"
  cp -rp "/usr/include/$d" "$out/$d"  # -p: unchanged headers keep their times (no rebuild)
done
if [ -d /usr/include/boost/multiprecision ]; then
  cxx=${CXX:-g++}
  for f in "$root"/models/numerics/*.cpp "$root"/models/functional/*.cpp; do
    "$cxx" -std=c++17 -I"$root" -M "$f"
  done | tr ' \\' '\n\n' | grep '^/usr/include/boost/' | sort -u | while read -r h; do
    rel=${h#/usr/include/}
    mkdir -p "$out/$(dirname "$rel")"
    cp -p "$h" "$out/$rel"
  done
fi
du -sh "$out" | sed 's/^/carry_headers: /'
