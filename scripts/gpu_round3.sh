#!/usr/bin/env bash
# Round three (issues 19, 20, 21) on the lent GPU. Two parts, each one device call
# under 10 minutes; every step bounded by `timeout -k`, every log under $OUT.
#   a: Your kernel (scripts/gpu_usercode.sh), the whole gpu_tests, colour-by interop
#   b: 1920x1080 pictures (framing, colours at 64K/16M, kernel tab, lessons on the GPU),
#      the five lessons scripted on CUDA, bench regression lines, NVTX in nsys
# Build here: cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release \
#   -DCMAKE_CUDA_ARCHITECTURES=90 && ninja -C build-gpu cudaviz cudaviz-runner gpu_tests app_tests
#   mkdir -p .devrun && cp build-gpu/app/cudaviz build-gpu/app/cudaviz-runner \
#     build-gpu/tests/gpu_tests build-gpu/tests/app_tests .devrun/ && strip .devrun/* && xz -9 .devrun/*
# There (carry .devrun and .gl): bash scripts/gpu_round3.sh a|b
set -uo pipefail
part=${1:?a or b}
source scripts/gpu_env.sh
export CUDAVIZ_KERNEL_DIR=$PWD/assets/kernels
log=$OUT/round3_$part.log
say() { echo "== $(date +%T) $*" | tee -a "$log"; }
# One windowed run: NAME, then cudaviz arguments; JSON summary and stderr kept.
win() {
  local name=$1; shift
  timeout -k 5 150 "$B/cudaviz" --size 1920x1080 "$@" > "$OUT/w_$name.json" 2> "$OUT/w_$name.err"
  echo "$name: exit $? $(tail -n 1 "$OUT/w_$name.json" | python3 -c '
import json,sys
try: j=json.loads(sys.stdin.read())
except Exception as e: print("no summary"); sys.exit()
keys=("backend","n","transfer","interop_ms","map_step_unmap_ms","kernel_ms","draw_ms","splat_ms","gpu_frame_ms","id_buffers","sync_wait_ms","kernel_state","edit_to_run_ms","user_kernel_ms","error_line","layout_problems")
print({k:j[k] for k in keys if k in j})')" | tee -a "$log"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader 2>&1 | tee -a "$log"

if [ "$part" = a ]; then
  say "Your kernel: scripts/gpu_usercode.sh"
  B=$B timeout -k 5 330 bash scripts/gpu_usercode.sh > "$OUT/usercode_stdout.log" 2>&1
  echo "gpu_usercode.sh exit $?" | tee -a "$log"
  say "gpu_tests (all)"
  timeout -k 5 200 "$B/gpu_tests" > "$OUT/gpu_tests.log" 2>&1
  echo "gpu_tests exit $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/gpu_tests.log" | tr '\n' ' ')" | tee -a "$log"
  grep -E '^\[  FAILED  \]' "$OUT/gpu_tests.log" | head -20 | tee -a "$log"
  say "colour-by interop: ids double-buffered (issue 21), then a single ids/vertex buffer for comparison"
  win cb_block --scene fountain --colour-by block --frames 300
  win cb_warp --scene fountain --colour-by warp --frames 300 --n 1048576
  CUDAVIZ_INTEROP=external,single win cb_block_single --scene fountain --colour-by block --frames 300
  win cb_off --scene fountain --frames 300
fi

if [ "$part" = b ] && [ -z "${SKIP_RECHECK:-}" ]; then
  say "Your kernel re-checks: the GPU tests (square/ragged grids, the loop), a looping kernel in the CLI and the window"
  timeout -k 5 120 "$B/gpu_tests" --gtest_filter='UsercodeGpu.*' > "$OUT/gpu_tests_usercode_b.log" 2>&1
  echo "UsercodeGpu exit $?" | tee -a "$log"
  grep -E "Failure|Which is|block .* n |^\[  (FAILED|PASSED)|^\[       OK" "$OUT/gpu_tests_usercode_b.log" | head -40 | tee -a "$log"
  printf '%s\n' '// template: fountain_kernel' \
    'extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,' \
    '    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {' \
    '  while (clock64() >= 0) {}' '}' > "$OUT/loop.cu"
  t0=$(date +%s%N)
  timeout -k 5 60 "$B/cudaviz" bench kernel --source "$OUT/loop.cu" --reps 3 > "$OUT/loop_bench.json" 2> "$OUT/loop_bench.err"
  echo "loop bench: exit $? (want 1) after $(( ($(date +%s%N) - t0) / 1000000 )) ms: $(head -c 600 "$OUT/loop_bench.json")" | tee -a "$log"
  win k_loop --kernel "$OUT/loop.cu" --panel kernel --frames 300 --screenshot "$OUT/k_loop.png"
  grep -o '"frame_ms_max":[0-9.]*\|"kernel_fallback":"[^"]*"\|"kernel_state":"[^"]*"' "$OUT/w_k_loop.json" | tee -a "$log"
fi
if [ "$part" = b ]; then
  say "pictures at 1920x1080 (issue 21): framing and colours"
  win f64k --scene fountain --n 65536 --frames 600 --screenshot "$OUT/f64k.png"
  win f64k_occ --scene fountain --n 65536 --frames 600 --panel occupancy --screenshot "$OUT/f64k_occ.png"
  win f16m_splat --scene fountain --n 16777216 --frames 600 --screenshot "$OUT/f16m_splat.png"
  win f16m_sprites --scene fountain --n 16777216 --frames 600 --renderer sprites --screenshot "$OUT/f16m_sprites.png"
  win s16m --scene swarm --n 16777216 --frames 400 --screenshot "$OUT/s16m.png"
  win nb64k --scene nbody --n 65536 --frames 200 --screenshot "$OUT/nb64k.png"
  say "kernel tab (issue 19): an error marked, a student's kernel running with colour by block, a fault"
  win k_error --kernel tests/window/kernel_error.cu --panel kernel --frames 30 --screenshot "$OUT/k_error.png"
  win k_block --kernel assets/kernels/fountain_kernel.cu --panel kernel --colour-by block --frames 200 --screenshot "$OUT/k_block.png"
  printf '%s\n' '// template: fountain_kernel' \
    'extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,' \
    '    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {' \
    '  const unsigned i = (blockIdx.y * blockDim.y + threadIdx.y) * g.width + blockIdx.x * blockDim.x + threadIdx.x;' \
    '  out.data[i + (1u << 30)] = make_float4(1, 2, 3, 4);' '}' > "$OUT/oob.cu"
  win k_oob --kernel "$OUT/oob.cu" --panel kernel --frames 200 --screenshot "$OUT/k_oob.png"
  say "lessons on CUDA (issue 20): each played start to finish, then step pictures"
  for f in assets/lessons/0*.md; do
    timeout -k 5 150 bash tests/window/run_lesson_test.sh "$B/cudaviz" "$f" --backend cuda > "$OUT/lesson_$(basename "$f" .md).log" 2>&1
    echo "lesson $f: exit $? $(grep -c '^step' "$OUT/lesson_$(basename "$f" .md).log") steps reported" | tee -a "$log"
  done
  CUDAVIZ_LESSON_PREDICT=0.5 win l001 --backend cuda --present --lesson assets/lessons/001-counting.md --step 3 --frames 3 --screenshot "$OUT/l001"
  CUDAVIZ_LESSON_PREDICT=2,5,3,12 win l004 --backend cuda --present --lesson assets/lessons/004-particles.md --step 2 --frames 3 --screenshot "$OUT/l004"
  say "bench regression lines (same numbers as round two within noise)"
  for line in "fountain --variant all --n 16777216" "nbody --variant all --n 131072" "count3 --variant all"; do
    timeout -k 5 120 "$B/cudaviz" bench $line >> "$OUT/bench.jsonl" 2>> "$OUT/bench.err"; echo "bench $line: exit $?" | tee -a "$log"
  done
  python3 -c '
import json,sys
for l in open(sys.argv[1]):
  j=json.loads(l); print(j["bench"],j["variant"],j["n"],j["ms_median"],{k:j[k] for k in ("interactions_per_s","particles_per_s","gb_per_s","correct") if k in j})' "$OUT/bench.jsonl" | tee -a "$log"
  say "NVTX (issue 21): nsys timeline of a scripted run"
  if command -v nsys > /dev/null; then
    timeout -k 5 120 nsys profile -t cuda,nvtx -o "$OUT/cv" -f true "$B/cudaviz" --frames 120 --n 1048576 > "$OUT/nsys.log" 2>&1
    echo "nsys exit $?" | tee -a "$log"
    timeout -k 5 60 nsys stats -r nvtx_sum "$OUT/cv.nsys-rep" 2>&1 | head -40 | tee -a "$log"
    rm -f "$OUT"/cv.sqlite
  else
    echo "nsys not installed here" | tee -a "$log"
  fi
fi
say "pack"
(cd "$OUT" && tar cf "logs_$part.tar" $(ls ./*.json ./*.err ./*.log ./*.jsonl 2>/dev/null | grep -v "round3_$part.log") 2>/dev/null)
if compgen -G "$OUT/*.png" > /dev/null; then (cd "$OUT" && tar cf "shots_$part.tar" ./*.png && rm -f ./*.png); fi
say "done"
