#!/usr/bin/env bash
# Installs what stcsim needs from Debian's packages, and nothing else. Idempotent:
# packages already present are left alone and apt is not touched when none is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libsystemc-dev      # SystemC 2.3.4 kernel (C++17 ABI)
  verilator           # RTL co-simulation
  libboost-dev        # Boost (multiprecision for exact numerics references)
  catch2              # unit tests (Catch2 v2)
  libbenchmark-dev    # Google Benchmark (bench/)
  libyaml-cpp-dev     # configs
  nlohmann-json3-dev  # stats.json
  libcli11-dev        # command line
  gnuplot-nox         # PNG plots (validate, sweep reports)
  slurm-wlm munge     # the single-node Slurm test of job-array sweeps
  yosys               # RTL area proxy (tests/rtl)
  clang libclang-rt-dev  # libFuzzer and sanitizer runtimes (tests/fuzz, scripts/asan.sh)
  clang-format        # the style check (scripts/format_check.sh, ctest format)
  python3-dev python3-pybind11 python3-pandas  # the Python module (sim/python), for /usr/bin/python3
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
