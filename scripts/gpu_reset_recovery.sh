#!/usr/bin/env bash
# A student's kernel that faults in the window (docs/kernels.md, "A fault and the
# window"): each kernel below runs in the fountain for --frames 200; the run must
# end by itself (no stall) and say what happened. A run still going after 60 s
# gets every thread's stack, then is killed. Usage (on the GPU machine, from the
# repository root, .devrun and .gl carried): bash scripts/gpu_reset_recovery.sh
set -uo pipefail
OUT=${OUT:-/tmp/cudaviz-out}; mkdir -p "$OUT/reset"
B=$PWD/.devrun
[ -x "$B/cudaviz" ] || { for f in "$B"/*.xz; do unxz -f "$f"; done; chmod +x "$B"/*; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export CUDAVIZ_ASSETS=$PWD/assets
log=$OUT/reset.log
source .gl/gl-env.sh >> "$log" 2>&1
head='// template: fountain_kernel
extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,
    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {
  const unsigned i = (blockIdx.y * blockDim.y + threadIdx.y) * g.width + blockIdx.x * blockDim.x + threadIdx.x;'
printf '%s\n%s\n}\n' "$head" '  out.data[i + (1u << 30)] = make_float4(1, 2, 3, 4);  // past the buffer, unchecked' > "$OUT/reset/oob_raw.cu"
printf '%s\n%s\n}\n' "$head" '  if (i == 5) __trap();' > "$OUT/reset/trap.cu"
printf '%s\n%s\n}\n' "$head" '  out[i + (1u << 30)] = make_float4(1, 2, 3, 4);  // past the buffer: checked mode stops it' > "$OUT/reset/oob_checked.cu"

run() {  # name interop kernel
  local name=$1 mode=$2 k=$3 t0 pid app s
  echo "=== $name (CUDAVIZ_INTEROP=$mode, $k)" >> "$log"
  t0=$(date +%s.%N)
  CUDAVIZ_INTEROP=$mode timeout -k 5 90 "$B/cudaviz" --kernel "$OUT/reset/$k" --frames 200 \
    --screenshot "$OUT/reset/$name.png" > "$OUT/reset/$name.json" 2> "$OUT/reset/$name.err" &
  pid=$!
  for s in $(seq 1 60); do kill -0 $pid 2>/dev/null || break; sleep 1; done
  if kill -0 $pid 2>/dev/null; then
    app=$(pgrep -P $pid | head -1)
    echo "STALL: still running after 60 s (app pid $app)" >> "$log"
    ps -eo pid,ppid,stat,wchan:32,etime,cmd | grep -E "cudaviz" | grep -v grep >> "$log"
    [ -n "$app" ] && timeout -k 5 40 "$(command -v gdb || echo /usr/local/cuda/bin/cuda-gdb)" -p "$app" \
      -batch -ex "thread apply all bt 10" > "$OUT/reset/$name.bt" 2>&1
    kill -9 $pid $app 2>/dev/null
  fi
  wait $pid; local rc=$?
  echo "exit $rc after $(echo "$(date +%s.%N) - $t0" | bc) s" >> "$log"
  grep -E "GL_RENDERER|reopen|lost|fault|error|kernel" "$OUT/reset/$name.err" | head -12 >> "$log"
  python3 - "$OUT/reset/$name.json" >> "$log" 2>&1 <<'EOF'
import json, sys
try:
    j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
    print("summary:", {k: j.get(k) for k in ("frames", "window_reopened", "kernel_state", "fault", "error", "user_kernel_ms", "transfer", "gl_errors")})
except Exception as e:
    print("no summary:", e)
EOF
}
run oob_raw_external external oob_raw.cu
run trap_external external trap.cu
run oob_raw_copy copy oob_raw.cu
run oob_checked_external external oob_checked.cu
echo "=== after: a plain run still works" >> "$log"
timeout -k 5 60 "$B/cudaviz" --frames 60 > "$OUT/reset/plain.json" 2>> "$log"; echo "plain exit $?" >> "$log"
echo done >> "$log"
