#!/usr/bin/env bash
# Installs what is missing, builds, and opens the cudaviz window (extra
# arguments go to cudaviz, e.g. --backend cpu).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)" --target cudaviz
exec ./build/app/cudaviz "$@"
