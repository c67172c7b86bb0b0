#!/usr/bin/env bash
# Runs on the lent GPU machine (see docs/gpu.md): GPU tests, benchmarks,
# compute-sanitizer and windowed runs with real interop and with the copy
# fallback, in one call. Expects the stripped binaries in .devrun/ and the GL
# kit in .gl/ (it also provides libglfw, so it is sourced first). Logs and
# screenshots go to $OUT.
#   scripts/gpu_check.sh [tests] [bench] [sanitize] [window] [extra]   (default: all but extra)
# BENCH_FILE (default scripts/gpu_bench.txt): one `cudaviz bench ...` argument
# list per line, '#' comments allowed. FILTER: a gtest filter for the tests.
set -uo pipefail
OUT=${OUT:-/tmp/cudaviz-out}; mkdir -p "$OUT"
B=.devrun
what=${*:-tests bench sanitize window}
log=$OUT/gpu_check.log
say() { echo "== $*" | tee -a "$log"; }
source .gl/gl-env.sh
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee -a "$log"

if [[ $what == *tests* ]]; then
  say "gpu_tests ${FILTER:-*}"
  $B/gpu_tests --gtest_brief=1 --gtest_filter="${FILTER:-*}" 2>&1 | tail -n 60 | tee -a "$log"
fi
if [[ $what == *bench* ]]; then
  say "bench (${BENCH_FILE:-scripts/gpu_bench.txt})"
  # 100,000 arbitrary int32 values for the O(n^2) sum3 (seeded, so runs compare).
  awk 'BEGIN { srand(7); for (i = 0; i < 100000; i++) printf "%d\n", int(rand() * 4294967296) - 2147483648 }' > /tmp/r100k.txt
  grep -v '^\s*#' "${BENCH_FILE:-scripts/gpu_bench.txt}" | grep -v '^\s*$' | while read -r args; do
    echo "\$ cudaviz bench $args" >> "$OUT/bench.jsonl"
    timeout 300 $B/cudaviz bench $args 2>&1 | tee -a "$OUT/bench.jsonl"
  done
fi
if [[ $what == *sanitize* ]]; then
  for tool in memcheck racecheck initcheck synccheck; do
    say "compute-sanitizer $tool (gpu_tests ${SAN_FILTER:-*})"
    timeout 400 compute-sanitizer --tool $tool --error-exitcode 9 $B/gpu_tests --gtest_brief=1 \
      --gtest_filter="${SAN_FILTER:-*}" 2>&1 | tail -n 6 | tee -a "$log"
    echo "exit: ${PIPESTATUS[0]}" | tee -a "$log"
  done
fi
if [[ $what == *window* ]]; then
  say "window: NVIDIA GLX (real interop)"
  while read -r name args; do
    [[ -z $name || $name == \#* ]] && continue
    frames="--frames 300"; [[ $args == *--frames* ]] && frames=""  # a line may set its own
    echo "\$ cudaviz $frames $args" | tee -a "$log"
    timeout 120 $B/cudaviz $frames $args --screenshot "$OUT/nvidia_$name.png" 2>&1 | tail -n 4 | tee -a "$log"
  done < "${WINDOW_FILE:-scripts/gpu_windows.txt}"
  say "window: Mesa (copy fallback)"
  unset __GLX_VENDOR_LIBRARY_NAME  # Xvfb's own GLX: Mesa llvmpipe
  timeout 120 $B/cudaviz --frames 200 --screenshot "$OUT/mesa_fountain.png" 2>&1 | tail -n 4 | tee -a "$log"
  export __GLX_VENDOR_LIBRARY_NAME=nvidia
  say "interop vs copy buffer test (NVIDIA GLX)"
  CUDAVIZ_EXPECT_INTEROP=1 $B/gpu_tests --gtest_filter='Interop*' 2>&1 | tail -n 12 | tee -a "$log"
fi
if [[ $what == *extra* ]]; then
  say "extra: ${EXTRA:-}"
  bash -c "${EXTRA:-true}" 2>&1 | tee -a "$log"
fi
# The device tool returns a handful of files: screenshots travel as one tar.
if compgen -G "$OUT/*.png" > /dev/null; then
  (cd "$OUT" && tar cf screenshots.tar ./*.png && rm -f ./*.png)
fi
say "done"
