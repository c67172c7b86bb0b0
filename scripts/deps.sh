#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages cudaviz builds with (the CUDA toolkit is
# expected at /usr/local/cuda). `--test` adds what the test suite needs;
# `--fuzz` adds clang++ with libFuzzer and the sanitizer runtimes
# (scripts/fuzz.sh): on Debian 12 `clang` is clang 14 and `libclang-rt-dev`
# pulls libclang-rt-14-dev (libclang_rt.fuzzer/asan/ubsan); on Ubuntu 24.04 the
# same two names give clang 18 and libclang-rt-18-dev. Flags combine.
set -euo pipefail
pkgs=(cmake ninja-build g++ pkg-config libglfw3-dev libglm-dev libimgui-dev libstb-dev nlohmann-json3-dev
      libmicrohttpd-dev libqrencode-dev   # the class server (docs/class_server.md)
      libjs-codemirror)                   # the challenge's code editor page, served from its files
optional=()
for flag in "$@"; do
  case "$flag" in
    --test) pkgs+=(libgtest-dev xvfb xauth strace ffmpeg python3-selenium)  # strace: the package test; ffmpeg: the clip tests (the app needs it only to record)
            optional+=(chromium chromium-driver) ;;  # the class page in a real browser (Debian; Ubuntu ships chromium as a snap: that test then skips)
    --fuzz) pkgs+=(clang libclang-rt-dev) ;;
    *) echo "deps.sh: unknown flag '$flag' (known: --test, --fuzz)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${pkgs[@]}" "${optional[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  # Optional packages only where the distribution has them as .debs.
  install=()
  for p in "${missing[@]}"; do
    if [[ " ${optional[*]} " == *" $p "* ]] && ! apt-cache show "$p" 2>/dev/null | grep -q '^Filename: '; then
      echo "deps.sh: $p is not available as a package here; the tests that need it will skip" >&2
      continue
    fi
    install+=("$p")
  done
  [ ${#install[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${install[@]}"
fi
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "deps.sh: the CUDA toolkit (nvcc) was not found; install it to /usr/local/cuda" >&2
  exit 1
fi
