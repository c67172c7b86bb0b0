#!/usr/bin/env bash
# Round three, second session, on the lent GPU. Phases (any order of words):
#   tests    gpu_tests, all but the four that make a real GPU fault (they stop GL
#            on this machine: docs/kernels.md "A fault and the window")
#   bench    cudaviz bench, the previous build (.devrun/cudaviz-before) and this one
#            interleaved, fountain / swarm / nbody at the target sizes
#   scenes   windowed runs of each scene on each interop path, before and after,
#            plus colour by block and the 16M fountain (splatter)
#   lessons  every shipped lesson scripted start to finish, with screenshots (JPEG)
#   extra    issue 18's own checks: the test-only dots scene and test lab on CUDA,
#            the n-body tile from CUDAVIZ_NBODY_TILE (and a bad one), the doctor
#   faults   LAST: the four fault tests, a __trap() kernel in the window (the
#            watchdog must end the run within ~20 s, saving the kernel), a plain run
# Logs under $OUT; timeouts on every step.
set -uo pipefail
source scripts/gpu_env.sh
FAULTS='UsercodeGpu.OutOfBoundsWriteEndsOnlyTheRunner:UsercodeGpu.TrapEndsOnlyTheRunner:UsercodeGpu.MisalignedAccessEndsOnlyTheRunner:UsercodeGpu.EndlessLoopIsStoppedAtTheTimeLimit'
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
for phase in "$@"; do case $phase in
tests)
  t0=$(date +%s%N)
  timeout -k 5 400 "$B/gpu_tests" --gtest_filter="-$FAULTS" > "$OUT/gpu_tests.log" 2>&1
  echo "gpu_tests (no faults): exit $? in $(ms $t0) ms" >> "$OUT/summary.txt"
  grep -E "^\[  (PASSED|FAILED) |tests ran|SKIPPED \]" "$OUT/gpu_tests.log" | head -20 >> "$OUT/summary.txt"
  ;;
bench)
  for line in "fountain --variant all --n 65536 --block 16,16" "fountain --variant all --n 16777216 --block 16,16" \
              "swarm --variant all --n 4194304 --block 16,16" "nbody --variant all --n 131072 --block 256" \
              "nbody --variant all --n 1048576 --block 256"; do
    for bin in cudaviz-before cudaviz cudaviz-before cudaviz; do
      # shellcheck disable=SC2086
      timeout -k 5 120 "$B/$bin" bench $line 2>/dev/null | sed "s/^/$bin /" >> "$OUT/bench.jsonl"
    done
  done
  echo "bench: $(wc -l < "$OUT/bench.jsonl") lines" >> "$OUT/summary.txt"
  ;;
scenes)
  for bin in ${SCENE_BINS:-cudaviz-before cudaviz}; do
    for s in "fountain" "swarm" "nbody" "fountain --colour-by block" "fountain --n 16777216"; do
      for i in external map copy external,single; do
        # shellcheck disable=SC2086
        j=$(CUDAVIZ_INTEROP=$i timeout -k 5 60 "$B/$bin" --backend cuda --scene $s --frames 300 2>/dev/null | tail -n 1)
        echo "$bin | $s | $i | $j" >> "$OUT/scenes.txt"
      done
    done
  done
  echo "scenes: $(grep -c frames "$OUT/scenes.txt") runs gave a summary" >> "$OUT/summary.txt"
  ;;
lessons)
  mkdir -p "$OUT/lessons"
  for f in assets/lessons/*.md; do
    b=$(basename "$f" .md)
    ( t0=$(date +%s%N)
      timeout -k 5 240 "$B/cudaviz" --lesson "$f" --frames 3 --backend cuda --size 1920x1080 \
        --screenshot "$OUT/lessons/$b.png" > "$OUT/lessons/$b.json" 2> "$OUT/lessons/$b.err"
      echo "lesson $b: exit $? in $(ms $t0) ms" >> "$OUT/summary.txt" ) &
  done
  wait
  python3 - "$OUT/lessons" <<'PY'
import glob, os, sys
from PIL import Image
for p in glob.glob(os.path.join(sys.argv[1], "*.png")):
    im = Image.open(p).convert("RGB")
    im.thumbnail((1280, 720))
    im.save(p[:-4] + ".jpg", quality=80)
    os.remove(p)
PY
  (cd "$OUT" && tar cf lessons.tar lessons && rm -rf lessons)
  ;;
extra)
  {
    if [ -x "$B/cudaviz_dots" ]; then
    echo "== dots scene on CUDA"
    timeout -k 5 60 "$B/cudaviz_dots" --scene dots --frames 30 --backend cuda --screenshot "$OUT/dots.png" 2>&1 | tail -n 2 | cut -c1-300
    timeout -k 5 30 "$B/png_check" "$OUT/dots.png" pi; echo "png_check exit $?"
    echo "== dots_scene_test (GL context)"; timeout -k 5 120 "$B/dots_scene_test" 2>&1 | tail -n 3
    echo "== testlab_tests"; timeout -k 5 200 "$B/testlab_tests" 2>&1 | grep -E "^\[  (PASSED|FAILED)|OK \] TestLab.TheShipped|FAILED \]"
    fi  # the three test binaries do not fit the 64 MiB carry beside the GL kit: optional
    echo "== CUDAVIZ_NBODY_TILE=pairs8"
    CUDAVIZ_NBODY_TILE=pairs8 timeout -k 5 60 "$B/cudaviz" bench nbody --variant fast --n 65536 2>&1 | tail -n 1 | cut -c1-400
    echo "== CUDAVIZ_NBODY_TILE=bogus"
    CUDAVIZ_NBODY_TILE=bogus timeout -k 5 60 "$B/cudaviz" bench nbody --variant fast --n 65536 2>&1 | tail -n 2; echo "exit ${PIPESTATUS[0]}"
    echo "== bench sum3 --n 2000 / pi"
    timeout -k 5 120 "$B/cudaviz" bench sum3 --n 2000 2>&1 | cut -c1-200
    timeout -k 5 120 "$B/cudaviz" bench pi 2>&1 | cut -c1-200
  } >> "$OUT/extra.txt" 2>&1
  B=$B OUT=$OUT timeout -k 5 200 bash scripts/gpu_check.sh doctor >> "$OUT/extra.txt" 2>&1
  echo "extra: done" >> "$OUT/summary.txt"
  ;;
faults)
  t0=$(date +%s%N)
  timeout -k 5 120 "$B/gpu_tests" --gtest_filter="$FAULTS" > "$OUT/gpu_tests_faults.log" 2>&1
  echo "gpu_tests (faults): exit $? in $(ms $t0) ms" >> "$OUT/summary.txt"
  printf '%s\n' '// template: fountain_kernel' \
    'extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,' \
    '    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {' \
    '  const unsigned i = (blockIdx.y * blockDim.y + threadIdx.y) * g.width + blockIdx.x * blockDim.x + threadIdx.x;' \
    '  if (i == 5) __trap();' '}' > "$OUT/trap.cu"
  cfg=$(mktemp -d); t0=$(date +%s%N)
  XDG_CONFIG_HOME=$cfg timeout -k 5 90 "$B/cudaviz" --kernel "$OUT/trap.cu" --frames 600 > "$OUT/trap.json" 2> "$OUT/trap.err"
  echo "trap in the window: exit $? in $(ms $t0) ms; saved kernel identical: $(cmp -s "$OUT/trap.cu" "$cfg/cudaviz/recovered-kernel.cu" && echo yes || echo no)" >> "$OUT/summary.txt"
  grep "cudaviz:" "$OUT/trap.err" | head -6 >> "$OUT/summary.txt"
  t0=$(date +%s%N)
  timeout -k 5 40 "$B/cudaviz" --frames 60 > /dev/null 2>&1
  echo "plain run after: exit $? in $(ms $t0) ms" >> "$OUT/summary.txt"
  ;;
esac; done
echo "done $*" >> "$OUT/summary.txt"
