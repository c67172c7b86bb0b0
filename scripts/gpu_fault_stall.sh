#!/usr/bin/env bash
# Where the window stalls after a student's kernel faults (docs/kernels.md, known
# problems): the app runs the out-of-bounds kernel in the window; 25 s later every
# thread's stack (gdb or cuda-gdb), wchan and state, and the runner processes.
set -uo pipefail
OUT=${OUT:-/tmp/cudaviz-out}; mkdir -p "$OUT"
B=$PWD/.devrun
[ -x "$B/cudaviz" ] || { for f in "$B"/*.xz; do unxz -f "$f"; done; chmod +x "$B"/*; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export CUDAVIZ_ASSETS=$PWD/assets CUDAVIZ_KERNEL_DIR=$PWD/assets/kernels
log=$OUT/stall.log
source .gl/gl-env.sh >> "$log" 2>&1
printf '%s\n' '// template: fountain_kernel' \
  'extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,' \
  '    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {' \
  '  const unsigned i = (blockIdx.y * blockDim.y + threadIdx.y) * g.width + blockIdx.x * blockDim.x + threadIdx.x;' \
  '  out.data[i + (1u << 30)] = make_float4(1, 2, 3, 4);' '}' > "$OUT/oob.cu"
for mode in external copy; do
  echo "=== mode $mode" >> "$log"
  CUDAVIZ_INTEROP=$mode timeout -k 5 60 "$B/cudaviz" --kernel "$OUT/oob.cu" --frames 120 > "$OUT/$mode.json" 2> "$OUT/$mode.err" &
  tpid=$!
  sleep 25
  app=$(pgrep -f "cudaviz --kernel" | grep -v "^$tpid$" | head -1)
  echo "app pid $app; still running: $(kill -0 $tpid 2>/dev/null && echo yes || echo no)" >> "$log"
  ps -eo pid,ppid,stat,wchan:32,etime,cmd | grep -E "cudaviz|runner" | grep -v grep >> "$log"
  if [ -n "$app" ]; then
    for t in /proc/$app/task/*; do echo "$(basename $t) $(cat $t/comm) $(awk '{print $3}' $t/stat) $(cat $t/wchan)"; done >> "$log" 2>&1
    dbg=$(command -v gdb || command -v cuda-gdb || echo /usr/local/cuda/bin/cuda-gdb)
    timeout -k 5 60 "$dbg" -p "$app" -batch -ex "thread apply all bt 12" >> "$OUT/bt_$mode.txt" 2>&1
    echo "debugger $dbg exit $?" >> "$log"
    grep -E "^#|^Thread" "$OUT/bt_$mode.txt" | grep -vE "clone|start_thread" | head -60 >> "$log"
  fi
  wait $tpid; echo "run exit $? summary: $(tail -c 400 "$OUT/$mode.json")" >> "$log"
  tail -n 5 "$OUT/$mode.err" >> "$log"
done
echo done >> "$log"
