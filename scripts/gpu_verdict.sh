#!/usr/bin/env bash
# The verdict (docs/kernels.md, "The verdict") on the lent GPU, in one call:
# the corpus of student kernels judged on the device, every shipped kernel on
# its test set, the verdict's share of edit to running per template, and a
# windowed wrong kernel with its failing case on the kernel tab. Every step is
# bounded by `timeout -k 5 N`; logs go to $OUT (verdict.log: the summary;
# verdict_bench.jsonl; verdict_logs.tar; verdict_screens.tar).
#
# On the build machine (as scripts/gpu_usercode.sh): build Release for the
# device, copy cudaviz, cudaviz-runner, gpu_tests and app_tests to .devrun
# (strip, xz); on the GPU machine carry .devrun and .gl, then
#   unxz .devrun/*.xz && chmod +x .devrun/* && bash scripts/gpu_verdict.sh
# Pass criteria (the summary prints PASS/FAIL for each):
#   1. Kernels/CorpusGpu.*: every test passes (right kernels right, wrong ones
#      wrong at one of the cases their header names).
#   2. TemplatesGpu.*, SceneTemplatesGpu.*, GuardGpu.ShippedKernelsRunGuardedWithTheirAnswers,
#      UsercodeGpu.*, LabYourKernelGpu.*, NBodyUserKernelGpu.*: pass.
#   3. bench kernel, every template at its default size, 3 runs: each template's
#      median verdict_ms / edit_to_run_ms <= 0.20, every run correct.
#   4. The window: "correct":false and a "failed_case" in the summary; look at
#      kernel_verdict_gpu.png (the tab's status names the case in red).
set -uo pipefail
OUT=${OUT:-/tmp/cudaviz-out}; mkdir -p "$OUT"
B=${B:-.devrun}
log=$OUT/verdict.log
say() { echo "== $*" | tee -a "$log"; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export CUDAVIZ_KERNEL_DIR=$PWD/assets/kernels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | tee -a "$log"

say "1. the corpus on the device"
timeout -k 5 420 $B/gpu_tests --gtest_filter='Kernels/CorpusGpu.*' > "$OUT/corpus_gpu.log" 2>&1
grep -E '^corpus |FAILED|Failure|Which is' "$OUT/corpus_gpu.log" | tee -a "$log" | tail -n 100 > /dev/null
grep -E '^\[  (PASSED|FAILED) ' "$OUT/corpus_gpu.log" | tee -a "$log"

say "2. every shipped kernel judged on its test set, and the runner's GPU tests"
timeout -k 5 600 $B/gpu_tests \
  --gtest_filter='TemplatesGpu.*:SceneTemplatesGpu.*:GuardGpu.ShippedKernelsRunGuardedWithTheirAnswers:UsercodeGpu.*:LabYourKernelGpu.*:NBodyUserKernelGpu.*' \
  > "$OUT/templates_gpu.log" 2>&1
grep -E 'FAILED|Failure|Which is|^\[  PASSED' "$OUT/templates_gpu.log" | tail -n 40 | tee -a "$log"

say "3. the verdict's share of edit to running (bench kernel, default sizes, 3 runs each)"
for t in fountain_kernel fountain_particle swarm_kernel swarm_particle nbody_kernel count3 reduce pi reverse sum3 corelated; do
  for k in 1 2 3; do
    timeout -k 5 180 $B/cudaviz bench kernel --source assets/kernels/$t.cu --reps 30 2>>"$OUT/verdict_bench.err" \
      | tee -a "$OUT/verdict_bench.jsonl" > /dev/null
  done
done
python3 - "$OUT/verdict_bench.jsonl" <<'PY' 2>&1 | tee -a "$log"
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    if line.startswith('{'):
        j = json.loads(line)
        runs.setdefault(j.get('template'), []).append(j)
ok = True
for t, js in runs.items():
    share = statistics.median(j['verdict_ms'] / j['edit_to_run_ms'] for j in js if j.get('edit_to_run_ms'))
    e2r = statistics.median(j['edit_to_run_ms'] for j in js)
    v = statistics.median(j['verdict_ms'] for j in js)
    right = all(j.get('correct') is True for j in js)
    ok = ok and share <= 0.20 and right
    slow = [(c['case'], round(c['ms'], 2)) for c in sorted(js[0]['cases'], key=lambda c: -c['ms'])[:2]]
    print(f"{t:18s} n={js[0]['n']:<9} edit_to_run_ms={e2r:8.1f} verdict_ms={v:7.1f} share={share:.3f} "
          f"correct={right} slowest={slow}")
print('PASS' if ok else 'FAIL', '(each median share <= 0.20, every run correct)')
PY

say "4. the window: a wrong fountain kernel, its failing case on the kernel tab"
if [[ -f .gl/gl-env.sh ]]; then
  source .gl/gl-env.sh
  timeout -k 5 120 $B/cudaviz --backend cuda --kernel tests/corpus/fountain_kernel/bounce_after_move.cu \
    --panel kernel --frames 90 --size 1920x1080 --screenshot "$OUT/kernel_verdict_gpu.png" \
    > "$OUT/window_verdict.json" 2> "$OUT/window_verdict.err"
  echo "window: exit $? $(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print({k: j.get(k) for k in ('kernel_state','edit_to_run_ms','correct','failed_case','verdict','seed')})" "$OUT/window_verdict.json" 2>&1)" | tee -a "$log"
else
  echo "no .gl kit: the window run is skipped" | tee -a "$log"
fi
(cd "$OUT" && tar cf verdict_logs.tar $(ls *.log *.err window_*.json 2> /dev/null | grep -v '^verdict.log$') 2>/dev/null)
if compgen -G "$OUT/*.png" > /dev/null; then (cd "$OUT" && tar cf verdict_screens.tar ./*.png && rm -f ./*.png); fi
say "done"
