#!/usr/bin/env bash
# Round three, diagnostics after gpu_round3.sh b: where a lesson on CUDA spends its
# time, what the window does with a faulting or looping student kernel (stderr
# kept), the bench regression lines and the NVTX timeline. Logs under $OUT.
set -uo pipefail
source scripts/gpu_env.sh
export CUDAVIZ_KERNEL_DIR=$PWD/assets/kernels
log=$OUT/diag.log
say() { echo "== $(date +%T) $*" | tee -a "$log"; }
say "bench regression lines"
for line in "fountain --variant all --n 16777216" "nbody --variant all --n 131072" "count3 --variant all"; do
  timeout -k 5 90 "$B/cudaviz" bench $line >> "$OUT/bench.jsonl" 2>> "$OUT/bench.err"; echo "bench $line: exit $?" | tee -a "$log"
done
python3 -c '
import json,sys
for l in open(sys.argv[1]):
  j=json.loads(l); print(j["bench"],j["variant"],j["n"],round(j["ms_median"],4),{k:j[k] for k in ("interactions_per_s","particles_per_s","gb_per_s","correct") if k in j})' "$OUT/bench.jsonl" | tee -a "$log"
say "window: out-of-bounds and endless-loop student kernels (60 s each), stderr kept"
printf '%s\n' '// template: fountain_kernel' \
  'extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,' \
  '    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {' \
  '  const unsigned i = (blockIdx.y * blockDim.y + threadIdx.y) * g.width + blockIdx.x * blockDim.x + threadIdx.x;' \
  '  out.data[i + (1u << 30)] = make_float4(1, 2, 3, 4);' '}' > "$OUT/oob.cu"
for args in "oob120:--frames 120" "oob_panel:--panel kernel --frames 120" "oob_panel200:--panel kernel --frames 200 --size 1920x1080"; do
  IFS=: read -r name extra <<< "$args"
  timeout -k 5 60 "$B/cudaviz" --kernel "$OUT/oob.cu" $extra > "$OUT/$name.json" 2> "$OUT/$name.err"
  echo "$name: exit $? summary: $(tail -c 300 "$OUT/$name.json") | stderr tail: $(tail -n 5 "$OUT/$name.err" | tr '\n' '|')" | tee -a "$log"
done
say "a lesson on CUDA (280 s), stderr kept"
timeout -k 5 280 "$B/cudaviz" --backend cuda --lesson assets/lessons/001-counting.md --frames 3 --size 1280x720 > "$OUT/lesson001.json" 2> "$OUT/lesson001.err"
echo "lesson 001: exit $?: $(tail -c 600 "$OUT/lesson001.json") | stderr: $(tail -n 8 "$OUT/lesson001.err" | tr '\n' '|')" | tee -a "$log"
say "NVTX: nsys"
if command -v nsys > /dev/null; then
  timeout -k 5 90 nsys profile -t cuda,nvtx -o "$OUT/cv" -f true "$B/cudaviz" --frames 120 --n 1048576 > "$OUT/nsys.log" 2>&1
  echo "nsys exit $?" | tee -a "$log"
  timeout -k 5 60 nsys stats -r nvtx_sum "$OUT/cv.nsys-rep" 2>&1 | head -30 | tee -a "$log"
  rm -f "$OUT"/cv.sqlite "$OUT"/cv.nsys-rep
else
  echo "nsys not installed here" | tee -a "$log"
fi
(cd "$OUT" && tar cf diag_logs.tar ./*.json ./*.err ./*.jsonl ./*.log 2>/dev/null)
say done
