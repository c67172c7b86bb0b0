#!/usr/bin/env bash
# CPU-side tests under AddressSanitizer + UndefinedBehaviorSanitizer.
# Usage: scripts/sanitize.sh [BUILD_DIR]   (default: build-asan)
# Builds cpu_tests and app_tests with -DCUDAVIZ_SANITIZE=ON (cmake/sanitize.cmake),
# then runs every test labelled `cpu` through CTest. Any ASan, LSan or UBSan
# report fails the run: the sanitizers end the process with an error exit code.
# The Xvfb window tests (label `window`) are left out: at exit LeakSanitizer
# reports allocations of the GL driver (llvmpipe) and the static CUDA runtime,
# not of cudaviz. (Debian's ImGui 1.86 gl3w loader, which wrote GL3WProcs.ptr[53]
# out of bounds, is no longer built: app/CMakeLists.txt uses GLAD for the
# backend; a window run under this build is UBSan-clean with detect_leaks=0.)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-asan}
jobs=${JOBS:-$(nproc)}

# One architecture only: device code is not instrumented and not run here, so
# building it for more targets would only cost time.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CUDA_ARCHITECTURES=90-real -DCUDAVIZ_SANITIZE=ON -DCUDAVIZ_BUILD_APP=ON \
  -DCUDAVIZ_BUILD_TESTS=ON
cmake --build "$build" -j "$jobs" --target cpu_tests app_tests

# protect_shadow_gap=0: with a CUDA driver present, libcuda reserves address
#   ranges inside ASan's protected shadow gap and cuInit fails with
#   CUDA_ERROR_OUT_OF_MEMORY; without a driver (CI) it is harmless.
# detect_leaks=1: LeakSanitizer stays on; cudart_static without a driver leaks
#   nothing it reports, so no suppressions are needed.
# halt_on_error=1: a report ends the process with a non-zero exit code.
export ASAN_OPTIONS=${ASAN_OPTIONS:-protect_shadow_gap=0:detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" -L cpu -LE window --output-on-failure -j "$jobs"
