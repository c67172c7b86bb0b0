#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (CTest).
# GPU tests report as skipped where there is no CUDA device.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh --test
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
