#!/usr/bin/env bash
# Runs on the lent GPU machine (see docs/gpu.md): GPU tests, benchmarks,
# compute-sanitizer and windowed runs with real interop and with the copy
# fallback, in one call. Expects the stripped binaries in .devrun/ and the GL
# kit in .gl/. Logs and screenshots go to $OUT.
#   scripts/gpu_check.sh [tests] [bench] [sanitize] [window]   (default: all)
set -uo pipefail
OUT=${OUT:-/tmp/cudaviz-out}; mkdir -p "$OUT"
B=.devrun
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
what=${*:-tests bench sanitize window}
log=$OUT/gpu_check.log
say() { echo "== $*" | tee -a "$log"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee -a "$log"

if [[ $what == *tests* ]]; then
  say "gpu_tests"
  $B/gpu_tests --gtest_brief=1 2>&1 | tail -n 60 | tee -a "$log"
fi
if [[ $what == *bench* ]]; then
  say "bench"
  for n in 65536 16777216; do
    for b in 16,16 32,8 256,1 1,256; do
      $B/cudaviz bench fountain --variant all --n $n --block $b 2>&1 | tee -a "$OUT/bench.jsonl"
    done
  done
  ${EXTRA_BENCH:-true}
fi
if [[ $what == *sanitize* ]]; then
  say "compute-sanitizer memcheck (bench fountain)"
  compute-sanitizer --tool memcheck --leak-check full $B/cudaviz bench fountain --variant all --n 100003 --block 7,13 --reps 3 2>&1 | tail -n 8 | tee -a "$log"
fi
if [[ $what == *window* ]]; then
  source .gl/gl-env.sh
  say "window: NVIDIA GLX (real interop)"
  for n in 65536 16777216; do
    timeout 120 $B/cudaviz --frames 600 --n $n --screenshot "$OUT/nvidia_$n.png" 2>&1 | tee -a "$log"
  done
  say "window: Mesa (copy fallback)"
  export __GLX_VENDOR_LIBRARY_NAME=mesa
  timeout 120 $B/cudaviz --frames 600 --screenshot "$OUT/mesa_65536.png" 2>&1 | tee -a "$log"
  say "interop vs copy buffer test (NVIDIA GLX)"
  export __GLX_VENDOR_LIBRARY_NAME=nvidia
  $B/gpu_tests --gtest_filter='Interop*' 2>&1 | tail -n 12 | tee -a "$log"
fi
say "done"
