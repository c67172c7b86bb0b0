#!/usr/bin/env bash
# "Your kernel" (docs/kernels.md) on the lent GPU, in one call: the
# GPU tests of the runner and templates, the bench lines with the latency and
# overhead figures, the fault / time-out runs through the CLI, and windowed
# runs of a student's fountain kernel (normal, colour by block, out of bounds).
# Every step is bounded by `timeout -k 5 N`; all logs and screenshots go to $OUT
# (usercode.log: the summary; bench_kernel.jsonl; usercode_logs.tar; usercode_screens.tar).
#
# On the build machine:
#   cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 && ninja -C build
#   mkdir -p .devrun && cp build/app/cudaviz build/app/cudaviz-runner build/tests/gpu_tests \
#     build/tests/app_tests .devrun/ && strip .devrun/* && xz -9 .devrun/*
# On the GPU machine (carry .devrun and .gl; .gl from /work/shared/gpu/fetch-gl-kit.sh):
#   unxz .devrun/*.xz && chmod +x .devrun/* && bash scripts/gpu_usercode.sh
# The runner must sit beside cudaviz and gpu_tests (found there); NVRTC comes
# from the toolkit (/usr/local/cuda/lib64), the CPU path uses the host c++.
set -uo pipefail
OUT=${OUT:-/tmp/cudaviz-out}; mkdir -p "$OUT"
B=${B:-.devrun}
log=$OUT/usercode.log
say() { echo "== $*" | tee -a "$log"; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export CUDAVIZ_KERNEL_DIR=$PWD/assets/kernels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | tee -a "$log"

say "1. GPU tests: templates vs built-in, faults, checked mode, exported buffer"
timeout -k 5 300 $B/gpu_tests --gtest_filter='Usercode*' 2>&1 | tee "$OUT/gpu_tests_usercode.log" | tail -n 40 | tee -a "$log"
say "2. CPU-path tests (also here): compile, runner faults, bench exit codes"
timeout -k 5 300 $B/app_tests --gtest_filter='Usercode*' 2>&1 | tee "$OUT/app_tests_usercode.log" | tail -n 15 | tee -a "$log"

say "3. bench kernel: every shipped kernel (edit_to_run_ms, overhead_ms, vs)"
for f in fountain_kernel fountain_particle fountain_kernel_original count3 count3_atomic count3_shared count3_racy pi; do
  echo "\$ cudaviz bench kernel --source assets/kernels/$f.cu" >> "$OUT/bench_kernel.jsonl"
  timeout -k 5 120 $B/cudaviz bench kernel --source assets/kernels/$f.cu 2>>"$OUT/bench_kernel.err" \
    | tee -a "$OUT/bench_kernel.jsonl"
  echo "exit $? ($f)" | tee -a "$log"
done
# The targets: edit-to-running of the fountain template <= 150 ms median;
# overhead_ms (a scene frame with yours minus the built-in lean kernel) <= 0.1 ms;
# at the default size and at 1M particles.
for n in 65536 1048576; do
  timeout -k 5 120 $B/cudaviz bench kernel --source assets/kernels/fountain_kernel.cu --n $n \
    2>>"$OUT/bench_kernel.err" | tee -a "$OUT/bench_kernel.jsonl"
done
python3 - "$OUT/bench_kernel.jsonl" <<'PY' 2>&1 | tee -a "$log"
import json, sys
for line in open(sys.argv[1]):
    if not line.startswith('{'): continue
    j = json.loads(line)
    print(f"{j.get('template')}\t{j.get('source','').split('/')[-1]}\tn={j.get('n')}\tedit_to_run_ms={j.get('edit_to_run_ms')}"
          f"\tcompile_ms={j.get('compile_ms')}\tms={j.get('ms_median')}\toverhead_ms={j.get('overhead_ms')}"
          f"\tcorrect={j.get('correct')}\tvs={j.get('vs')}\terror={j.get('error')}")
PY

say "4. faults through the CLI: exit 1, the error named, time-out within the limit + 1 s"
mk() { printf '%s\n' '// template: fountain_kernel' \
  'extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,' \
  '    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {' \
  '  const unsigned i = (blockIdx.y * blockDim.y + threadIdx.y) * g.width + blockIdx.x * blockDim.x + threadIdx.x;' \
  "$1" '}' > "$OUT/$2.cu"; }
mk '  out.data[i + (1u << 30)] = make_float4(1, 2, 3, 4);' oob
mk '  if (i == 77) __trap();' trap
mk '  *reinterpret_cast<float4*>(reinterpret_cast<char*>(out.data) + 4) = make_float4(1, 2, 3, 4);' misaligned
mk '  while (clock64() >= 0) {}' loop  # a volatile local in a loop is optimised away
for k in oob trap misaligned loop; do
  start=$(date +%s.%N)
  timeout -k 5 60 $B/cudaviz bench kernel --source "$OUT/$k.cu" --reps 3 > "$OUT/fault_$k.json" 2> "$OUT/fault_$k.err"
  rc=$?; end=$(date +%s.%N)
  echo "$k: exit $rc (want 1) in $(echo "$end - $start" | bc) s: $(head -c 400 "$OUT/fault_$k.json")" | tee -a "$log"
done

say "5. the window: a student's fountain kernel, colour by block, and an out-of-bounds write"
if [[ -f .gl/gl-env.sh ]]; then
  source .gl/gl-env.sh
  for run in "ok:assets/kernels/fountain_kernel.cu:" "block:assets/kernels/fountain_kernel.cu:--colour-by block" \
             "oob:$OUT/oob.cu:" "loop:$OUT/loop.cu:"; do
    IFS=: read -r name src extra <<< "$run"
    timeout -k 5 120 $B/cudaviz --kernel "$src" --frames 120 \
      $extra --screenshot "$OUT/kernel_$name.png" > "$OUT/window_$name.json" 2> "$OUT/window_$name.err"
    echo "window $name: exit $? $(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print({k: j.get(k) for k in ('kernel_state','edit_to_run_ms','user_kernel_ms','kernel_ms','frame_ms','error','kernel_fallback','transfer')})" "$OUT/window_$name.json" 2>&1)" | tee -a "$log"
  done
else
  echo "no .gl kit: window runs skipped" | tee -a "$log"
fi
# The device tool returns at most 8 files: everything but the summary travels as tars.
(cd "$OUT" && tar cf usercode_logs.tar $(ls *.cu *.err fault_*.json window_*.json gpu_tests_usercode.log app_tests_usercode.log 2> /dev/null) \
  && rm -f ./*.cu ./*.err fault_*.json window_*.json gpu_tests_usercode.log app_tests_usercode.log)
if compgen -G "$OUT/*.png" > /dev/null; then (cd "$OUT" && tar cf usercode_screens.tar ./*.png && rm -f ./*.png); fi
say "done"
