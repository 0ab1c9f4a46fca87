#!/usr/bin/env bash
# The source folders' layering (STYLE.md 15, issue 12): foundation below, application
# above. Checks, from the #include lines of every tracked or new source file:
#   1. no cycle between folders (sim/core, models/gpu, workloads/trace, ...);
#   2. sim/core, the foundation, includes nothing of the project above it, no YAML and
#      no SystemC;
#   3. models/, workloads/ and rtl/ take nothing from sim/ but sim/core.
# Prints each violation and exits 1; exits 0 when the layering holds.
set -euo pipefail
cd "$(dirname "$0")/.."

files() { git ls-files -co --exclude-standard -- sim models workloads rtl validation | grep -E '\.(h|hpp|cpp|cu|cuh)$'; }

# "folder folder" for every #include of a project header from another folder, where a
# path's folder is its first two components (the first alone when the second is a file).
edges="$(files | xargs grep -HE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(sim|models|workloads|rtl|validation)/' 2>/dev/null |
  awk -F: 'function folder(path,  p, n) { n = split(path, p, "/"); return n > 2 ? p[1] "/" p[2] : p[1] }
           { match($0, /"[^"]*"/); a = folder($1); b = folder(substr($0, RSTART + 1, RLENGTH - 2)); if (a != b) print a, b }' |
  sort -u)"
fail=0

# 1. tsort reports a loop on stderr (and exits 1) when the folder graph has a cycle.
if ! loop="$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null)"; then
  echo "layering: folders include each other in a circle:"
  echo "$loop" | sed 's/^/  /'
  fail=1
fi

# 2. The foundation knows nothing above it.
while read -r a b; do
  case "$a" in sim/core) echo "layering: sim/core includes $b (the foundation includes nothing above it)"; fail=1 ;; esac
done <<<"$edges"
if files | grep '^sim/core/' | xargs grep -lE '#[[:space:]]*include[[:space:]]*<(yaml-cpp/|systemc)' 2>/dev/null; then
  echo "layering: the files above include YAML or SystemC in sim/core"
  fail=1
fi

# 3. Models, workloads and RTL wrappers use only the foundation of sim/.
while read -r a b; do
  case "$a" in models*|workloads*|rtl*)
    case "$b" in sim/core) ;; sim*) echo "layering: $a includes $b (only sim/core is below it)"; fail=1 ;; esac ;;
  esac
done <<<"$edges"

[ $fail -eq 0 ] && echo "layering: $(printf '%s\n' "$edges" | wc -l) folder dependencies, no cycle, foundation apart"
exit $fail
