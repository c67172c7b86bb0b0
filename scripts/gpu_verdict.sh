#!/usr/bin/env bash
# The verdict (docs/kernels.md, "The verdict") on the lent GPU, in one call:
# the corpus of student kernels judged on the device, every shipped kernel on
# its test set, the verdict's share of edit to running per template, and a
# windowed wrong kernel with its failing case on the kernel tab. Every step is
# bounded by `timeout -k 5 N`; logs go to $OUT (verdict.log: the summary;
# verdict_bench.jsonl; verdict_logs.tar; verdict_screens.tar).
#
# On the build machine (this branch, or main once it is merged):
#   cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 &&
#     ninja -C build cudaviz cudaviz-runner cudaviz-explain cudaviz-nvrtc gpu_tests
#   mkdir -p .devrun && cp build/app/cudaviz build/app/cudaviz-runner build/app/cudaviz-explain \
#     build/app/cudaviz-nvrtc build/tests/gpu_tests .devrun/ && strip .devrun/* && xz -9 .devrun/*
# On the GPU machine (carry .devrun and .gl; .gl from /work/shared/gpu/fetch-gl-kit.sh):
#   unxz .devrun/*.xz && chmod +x .devrun/* && bash scripts/gpu_verdict.sh
# The helpers must sit beside cudaviz and gpu_tests (found there); the corpus
# is read from this tree (CUDAVIZ_CORPUS_DIR, set below).
# Pass criteria (the summary prints PASS/FAIL for each):
#   1. Kernels/CorpusGpu.* and CorpusGpuFound.*: every test passes (right
#      kernels right, wrong ones wrong at one of the cases their header names;
#      the summary counts both kinds and prints PASS).
#   2. TemplatesGpu.*, SceneTemplatesGpu.*, GuardGpu.ShippedKernelsRunGuardedWithTheirAnswers,
#      UsercodeGpu.*, LabYourKernelGpu.*, NBodyUserKernelGpu.*: pass.
#   3. bench kernel, every template at its default size, 3 runs
#      (scripts/verdict_share.py): each template's median (edit_to_verdict_ms - edit_to_run_ms) /
#      edit_to_run_ms <= 0.20, median edit_to_run_ms <= 150, every run correct.
#   4. The window: "correct":false and a "failed_case" in the summary; look at
#      kernel_verdict_gpu.png (the tab's status names the case in red).
# STEPS picks steps (default all: "1 2 3 4"); a device call of at most 10
# minutes runs them in two: STEPS=1, then STEPS="2 3 4".
set -uo pipefail
STEPS=${STEPS:-1 2 3 4}
want() { [[ " $STEPS " == *" $1 "* ]]; }
OUT=${OUT:-/tmp/cudaviz-out}; mkdir -p "$OUT"
B=${B:-.devrun}
log=$OUT/verdict.log
say() { echo "== $*" | tee -a "$log"; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export CUDAVIZ_KERNEL_DIR=$PWD/assets/kernels
export CUDAVIZ_CORPUS_DIR=$PWD/tests/corpus  # gpu_tests' corpus: this copy of the tree
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | tee -a "$log"

if want 1; then
say "1. the corpus on the device"
timeout -k 5 420 $B/gpu_tests --gtest_filter='Kernels/CorpusGpu.*:CorpusGpuFound.*' > "$OUT/corpus_gpu.log" 2>&1
echo "gpu_tests exit $?" | tee -a "$log"
grep -E 'FAILED|Failure|Which is|Expected|judged' "$OUT/corpus_gpu.log" | head -n 60 | tee -a "$log"
# Counts from gtest's own lines, each kernel's header saying what it should be.
python3 - "$OUT/corpus_gpu.log" tests/corpus <<'PY' 2>&1 | tee -a "$log"
import pathlib, re, sys
log = open(sys.argv[1], errors='replace').read()
ok = set(re.findall(r'^\[       OK \] Kernels/CorpusGpu\.JudgedAsItsHeaderSays/(\w+)', log, re.M))
bad = set(re.findall(r'^\[  FAILED  \] Kernels/CorpusGpu\.JudgedAsItsHeaderSays/(\w+)', log, re.M))
skipped = set(re.findall(r'^\[  SKIPPED \] Kernels/CorpusGpu\.JudgedAsItsHeaderSays/(\w+)', log, re.M))
kinds = {}
for f in sorted(pathlib.Path(sys.argv[2]).glob('*/*.cu')):
    name = re.sub(r'\W', '_', f.parent.name + '_' + f.stem)
    kinds[name] = 'right' if 'expect: correct' in f.read_text().splitlines()[1] else 'wrong'
for kind in ('right', 'wrong'):
    names = [n for n, k in kinds.items() if k == kind]
    print(f"corpus {kind}: {sum(n in ok for n in names)} of {len(names)} judged as intended, "
          f"{sum(n in bad for n in names)} not, {sum(n in skipped for n in names)} skipped, "
          f"{sum(n not in ok | bad | skipped for n in names)} not run")
print('corpus failures:', ' '.join(sorted(bad)) or 'none')
print('PASS' if kinds and len(ok) == len(kinds) and re.search(r'^\[       OK \] CorpusGpuFound', log, re.M)
      else 'FAIL', '(every corpus kernel judged as its header says, on the GPU)')
PY

fi
if want 2; then
say "2. every shipped kernel judged on its test set, and the runner's GPU tests"
timeout -k 5 300 $B/gpu_tests \
  --gtest_filter='TemplatesGpu.*:SceneTemplatesGpu.*:GuardGpu.ShippedKernelsRunGuardedWithTheirAnswers:UsercodeGpu.*:LabYourKernelGpu.*:NBodyUserKernelGpu.*' \
  > "$OUT/templates_gpu.log" 2>&1
grep -E 'FAILED|Failure|Which is|^\[  PASSED' "$OUT/templates_gpu.log" | tail -n 40 | tee -a "$log"

fi
if want 3; then
say "3. the verdict's share of edit to running (bench kernel, default sizes, 3 runs each)"
for t in fountain_kernel fountain_particle swarm_kernel swarm_particle nbody_kernel count3 reduce pi reverse sum3 corelated; do
  for k in 1 2 3; do
    timeout -k 5 60 $B/cudaviz bench kernel --source assets/kernels/$t.cu --reps 30 2>>"$OUT/verdict_bench.err" \
      | tee -a "$OUT/verdict_bench.jsonl" > /dev/null
  done
done
python3 scripts/verdict_share.py "$OUT/verdict_bench.jsonl" --limit 0.20 --max-edit-ms 150 2>&1 | tee -a "$log"

fi
if want 4; then
say "4. the window: a wrong fountain kernel, its failing case on the kernel tab"
if [[ -f .gl/gl-env.sh ]]; then
  source .gl/gl-env.sh
  timeout -k 5 120 $B/cudaviz --backend cuda --kernel tests/corpus/fountain_kernel/bounce_after_move.cu \
    --panel kernel --frames 90 --size 1920x1080 --screenshot "$OUT/kernel_verdict_gpu.png" \
    > "$OUT/window_verdict.json" 2> "$OUT/window_verdict.err"
  echo "window: exit $?" | tee -a "$log"
  python3 - "$OUT/window_verdict.json" <<'PY' 2>&1 | tee -a "$log"
import json, sys
j = json.load(open(sys.argv[1]))
print({k: j.get(k) for k in ('kernel_state', 'edit_to_run_ms', 'correct', 'failed_case', 'verdict', 'seed')})
print('PASS' if j.get('correct') is False and j.get('failed_case') else 'FAIL',
      '(the wrong kernel judged wrong in the window, its failing case named)')
PY
else
  echo "no .gl kit: the window run is skipped" | tee -a "$log"
fi
fi
(cd "$OUT" && tar cf verdict_logs.tar $(ls *.log *.err window_*.json 2> /dev/null | grep -v '^verdict.log$') 2>/dev/null)
if compgen -G "$OUT/*.png" > /dev/null; then (cd "$OUT" && tar cf verdict_screens.tar ./*.png && rm -f ./*.png); fi
say "done"
