#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (CTest).
# GPU tests report as skipped where there is no CUDA device.
# Builds the `ci` preset (CMakePresets.json): code for compute capability 7.5,
# the lowest CUDA 13 supports, so a kernel that breaks Turing fails here.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh --test
cmake --preset ci
cmake --build --preset ci -j "$(nproc)"
ctest --preset ci -j "$(nproc)"
