#!/usr/bin/env bash
# Does a CUDA fault in one process stop OpenGL in others on this GPU? In order:
# a plain windowed run (baseline), the usercode GPU tests (their faulting
# kernels run in runner processes that have no GL at all), a plain windowed run
# again, then in the window: an out-of-range index under checked mode (the
# default), a __trap(), and a plain run. Each windowed run has 45 s.
set -uo pipefail
source scripts/gpu_env.sh
mkdir -p "$OUT/faultgl"
log=$OUT/faultgl.log
head='// template: fountain_kernel
extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,
    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {
  const unsigned i = (blockIdx.y * blockDim.y + threadIdx.y) * g.width + blockIdx.x * blockDim.x + threadIdx.x;'
printf '%s\n%s\n}\n' "$head" '  if (i < g.count) out[i + (1u << 30)] = in[i];  // past the buffer: checked mode stops it' > "$OUT/faultgl/oob_checked.cu"
printf '%s\n%s\n}\n' "$head" '  if (i == 5) __trap();' > "$OUT/faultgl/trap.cu"
win() {  # name, then cudaviz arguments
  local name=$1; shift
  local t0=$(date +%s%N)
  timeout -k 5 45 "$B/cudaviz" "$@" --frames 120 --screenshot "$OUT/faultgl/$name.png" \
    > "$OUT/faultgl/$name.json" 2> "$OUT/faultgl/$name.err"
  local rc=$?
  echo "== $name: exit $rc after $(( ($(date +%s%N) - t0) / 1000000 )) ms" >> "$log"
  grep -E "GL_RENDERER|reopen|lost|cudaviz:" "$OUT/faultgl/$name.err" | head -6 >> "$log"
  python3 -c "
import json,sys
try:
  j=json.loads(open('$OUT/faultgl/$name.json').read().strip().splitlines()[-1])
  print('  ', {k:j.get(k) for k in ('frames','kernel_state','error','error_line','kernel_fallback','window_reopened','user_kernel_ms')})
except Exception as e: print('   no summary', e)" >> "$log"
}
win plain_before
t0=$(date +%s%N)
timeout -k 5 200 "$B/gpu_tests" --gtest_filter='UsercodeGpu.*' > "$OUT/usercode_tests.log" 2>&1
echo "== gpu_tests UsercodeGpu.*: exit $? after $(( ($(date +%s%N) - t0) / 1000000 )) ms" >> "$log"
grep -E "^\[  (FAILED|     OK|  PASSED) " "$OUT/usercode_tests.log" >> "$log"
win plain_after_cuda_faults
win oob_checked --kernel "$OUT/faultgl/oob_checked.cu"
win trap --kernel "$OUT/faultgl/trap.cu"
win plain_after_window_fault
(cd "$OUT" && tar cf faultgl.tar faultgl && rm -rf faultgl)
echo done >> "$log"
