#!/usr/bin/env bash
# CPU-side tests under AddressSanitizer + UndefinedBehaviorSanitizer.
# Usage: scripts/sanitize.sh [BUILD_DIR]   (default: build-asan; MAIN_BUILD names the
#        main build whose CUDA objects it links, default build)
# Builds cpu_tests and app_tests with -DCUDAVIZ_SANITIZE=ON (cmake/sanitize.cmake),
# then runs every test labelled `cpu` through CTest. Any ASan, LSan or UBSan
# report fails the run: the sanitizers end the process with an error exit code.
# Each thing is built once: the kernels' .cu files are not compiled again but
# linked from the main build (its `kernels` target is built first if it is not
# current): their device code is not instrumented, and their host side runs only
# with a GPU, which CI does not have. So is the app's drawing code (windows,
# panels, renderers: cmake/main_objects.cmake). Without a main build both are
# compiled here.
# The Xvfb window tests (label `window`) are left out: at exit LeakSanitizer
# reports allocations of the GL driver (llvmpipe) and the static CUDA runtime,
# not of cudaviz. (Debian's ImGui 1.86 gl3w loader, which wrote GL3WProcs.ptr[53]
# out of bounds, is no longer built: app/CMakeLists.txt uses GLAD for the
# backend; a window run under this build is UBSan-clean with detect_leaks=0.)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-asan}
main_build=${MAIN_BUILD:-build}
jobs=${JOBS:-$(nproc)}

# The main build's CUDA objects, at its architectures, and its drawing code
# (cmake/main_objects.cmake: run only in windows, which this run leaves out),
# when it has them.
cuda=(-DCUDAVIZ_OBJECTS_FROM= -DCMAKE_CUDA_ARCHITECTURES=90-real)
if [ -f "$main_build/CMakeCache.txt" ] && cmake --build "$main_build" -j "$jobs" --target kernels cudaviz_core; then
  arch=$(sed -n 's/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p' "$main_build/CMakeCache.txt")
  cuda=(-DCUDAVIZ_OBJECTS_FROM="$(cd "$main_build" && pwd)" -DCMAKE_CUDA_ARCHITECTURES="${arch:-90-real}")
else
  echo "sanitize.sh: no main build in $main_build: the kernels' .cu files and the drawing code are compiled here (MAIN_BUILD names one)"
fi
# -O1 -g1: the optimisation ASan recommends, and line tables for the reports'
# stack traces; half the compile time of RelWithDebInfo's -O2 -g. NDEBUG as there.
# The app's own objects (cudaviz_core: windows, panels, scenes, the class
# server) compile at -O0 (cmake/sanitize.cmake): 40% less time, every check kept.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  "${cuda[@]}" -DCUDAVIZ_SANITIZE=ON -DCUDAVIZ_BUILD_APP=ON -DCUDAVIZ_BUILD_TESTS=ON
cmake --build "$build" -j "$jobs" --target cpu_tests app_tests

# protect_shadow_gap=0: with a CUDA driver present, libcuda reserves address
#   ranges inside ASan's protected shadow gap and cuInit fails with
#   CUDA_ERROR_OUT_OF_MEMORY; without a driver (CI) it is harmless.
# detect_leaks=1: LeakSanitizer stays on; cudart_static without a driver leaks
#   nothing it reports, so no suppressions are needed.
# halt_on_error=1: a report ends the process with a non-zero exit code.
export ASAN_OPTIONS=${ASAN_OPTIONS:-protect_shadow_gap=0:detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# deps.* and repo.* check the source tree with shell and Python: nothing of ours
# is instrumented in them, and the main test run has already run them. The
# three sweeps over every shipped kernel (bench, fast path against fibers,
# explain: 292 test-seconds of the 366 s the whole run took here at -j2) run
# the same runtime paths once per kernel; the main run has them, and the
# corpus and the other tests run those paths under the sanitizers here.
# The corpus of student kernels (tests/corpus, about a hundred, each judged on
# several inputs; the racy ones ten times) runs the same host paths for every
# kernel: here each template's first right and first wrong kernel and one racy one,
# the whole corpus in the main run (about 360 of the 420 test-seconds otherwise).
# A racy kernel's test judges it ten times (20-25 s each under the sanitizers)
# through the same race check whatever its template: one racy kernel in all.
sample=()
racy=0
for dir in tests/corpus/*/; do
  template=$(basename "$dir")
  for header in '^// expect: correct' '^// expect: wrong' '^// races:'; do
    if [ "$header" = '^// races:' ] && [ "$racy" = 1 ]; then continue; fi
    file=$(grep -l "$header" "$dir"*.cu 2>/dev/null | sort | head -n 1 || true)  # none: grep fails
    if [ -n "$file" ]; then
      sample+=("${template}_$(basename "$file" .cu)")
      if [ "$header" = '^// races:' ]; then racy=1; fi
    fi
  done
done
corpus="^Kernels/(CorpusCpu|RacyCpu)[.][A-Za-z]+/($(IFS='|'; echo "${sample[*]}"))\$"
# LeakSanitizer's own tracer crashes at exit, after every test in the process
# passed, on some machines (google/sanitizers#1353; CI met it at stop 40 on
# GuardKernels.UncheckableCodeIsRefusedAtItsLine, and at stop 41 on
# GuardLoops.AGridStrideLoopsOneTripThreadsLeaveBeforeTheDivision twice in a
# row, at the same pc and address: on that machine it repeats). Such tests, and
# only such, run once more; if the tracer crashes again they run a third time
# with only the leak check off (ASan and UBSan still on), and the log names them.
ctest_sanitized() {
  if ctest --test-dir "$build" --output-on-failure "$@"; then return 0; fi
  local again
  again=$(python3 scripts/lsan_tracer_crashes.py "$build") || return 1
  echo "sanitize.sh: LeakSanitizer's tracer crashed after these tests passed; once more: $again"
  if ctest --test-dir "$build" --output-on-failure -R "$again"; then return 0; fi
  again=$(python3 scripts/lsan_tracer_crashes.py "$build") || return 1
  echo "sanitize.sh: the tracer crashed again; these run without the leak check" \
       "(ASan and UBSan on): $again"
  ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" ctest --test-dir "$build" --output-on-failure -R "$again"
}
ctest_sanitized -L cpu -LE window -j "$jobs" \
  -E '^(deps|repo)[.]|^UsercodeBench[.]EveryShippedKernel|^EmuFastPath[.]EveryWholeKernel|^ExplainShipped[.]EveryShippedKernel|^Kernels/(CorpusCpu|RacyCpu)[.]'
ctest_sanitized -L cpu -j "$jobs" -R "$corpus"
