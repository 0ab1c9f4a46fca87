#!/usr/bin/env bash
# Does the project's C++ follow .clang-format? For CI and for a look before committing.
#
#   bash scripts/format_check.sh                 check every tracked C++/CUDA source
#   bash scripts/format_check.sh --changed [REV] only the files changed since REV (HEAD):
#                                                tracked ones modified, and new ones
#   bash scripts/format_check.sh FILE...         only these files
#   bash scripts/format_check.sh --fix [...]     rewrite the files in place instead
#
# Lists each file clang-format would change and exits 1 if there is one; exits 2 when
# clang-format is missing. Nothing is generated or third-party among the tracked sources
# (Verilator writes its C++ into the build folder), so every tracked source is checked.
# ctest runs the whole-tree check (test 'format', label unit).
set -euo pipefail
cd "$(dirname "$0")/.."

fix=0
if [ "${1:-}" = "--fix" ]; then fix=1; shift; fi
sources() { grep -E '\.(h|hpp|cpp|cc|cu|cuh)$' || true; }
if [ "${1:-}" = "--changed" ]; then
  rev="${2:-HEAD}"
  files=$({ git diff --name-only --diff-filter=AMR "$rev" --; git ls-files -o --exclude-standard; } | sort -u | sources)
elif [ $# -gt 0 ]; then
  files=$(printf '%s\n' "$@")
else
  files=$(git ls-files | sources)
fi

cf="${CLANG_FORMAT:-$(command -v clang-format || true)}"
[ -n "$cf" ] || { echo "format_check: clang-format not found (apt-get install clang-format, or set CLANG_FORMAT)" >&2; exit 2; }

bad=0
total=0
while read -r f; do
  [ -n "$f" ] && [ -f "$f" ] || continue
  total=$((total + 1))
  if [ $fix -eq 1 ]; then
    "$cf" -i --style=file "$f"
  elif ! "$cf" --dry-run --Werror --style=file "$f" >/dev/null 2>&1; then
    echo "format_check: $f is not formatted ($cf -i --style=file $f)"
    bad=$((bad + 1))
  fi
done <<<"$files"

if [ $fix -eq 1 ]; then echo "format_check: formatted $total file(s)"; exit 0; fi
if [ $bad -gt 0 ]; then echo "format_check: $bad of $total file(s) differ from .clang-format"; exit 1; fi
echo "format_check: $total file(s) follow .clang-format"
