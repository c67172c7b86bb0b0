#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages cudaviz builds with (the CUDA toolkit is
# expected at /usr/local/cuda). `--test` adds what the test suite needs.
set -euo pipefail
pkgs=(cmake ninja-build g++ pkg-config libglfw3-dev libglm-dev libimgui-dev libstb-dev nlohmann-json3-dev)
if [ "${1:-}" = "--test" ]; then pkgs+=(libgtest-dev xvfb xauth); fi
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "deps.sh: the CUDA toolkit (nvcc) was not found; install it to /usr/local/cuda" >&2
  exit 1
fi
