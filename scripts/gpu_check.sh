#!/usr/bin/env bash
# Runs on the lent GPU machine (see docs/gpu.md): GPU tests, benchmarks,
# compute-sanitizer and windowed runs with real interop and with the copy
# fallback, in one call. Expects the stripped binaries in .devrun/ and the GL
# kit in .gl/ (it also provides libglfw, so it is sourced first). Logs and
# screenshots go to $OUT.
#   scripts/gpu_check.sh [tests] [bench] [sanitize] [bsan] [soak] [window] [extra]
#   (default: tests bench sanitize window). sanitize: compute-sanitizer's four tools
#   over gpu_tests; bsan: the same over a bench of every variant; soak: --soak 100000.
# BENCH_FILE (default scripts/gpu_bench.txt): one `cudaviz bench ...` argument
# list per line, '#' comments allowed. FILTER: a gtest filter for the tests.
set -uo pipefail
OUT=${OUT:-/tmp/cudaviz-out}; mkdir -p "$OUT"
B=.devrun
what=${*:-tests bench sanitize window}
log=$OUT/gpu_check.log
say() { echo "== $*" | tee -a "$log"; }
source .gl/gl-env.sh
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee -a "$log"

if [[ $what == *tests* ]]; then
  say "gpu_tests ${FILTER:-*}"
  $B/gpu_tests --gtest_brief=1 --gtest_filter="${FILTER:-*}" 2>&1 | tail -n 60 | tee -a "$log"
fi
if [[ $what == *bench* ]]; then
  say "bench (${BENCH_FILE:-scripts/gpu_bench.txt})"
  # 100,000 arbitrary int32 values for the O(n^2) sum3 (seeded, so runs compare).
  awk 'BEGIN { srand(7); for (i = 0; i < 100000; i++) printf "%d\n", int(rand() * 4294967296) - 2147483648 }' > /tmp/r100k.txt
  grep -v '^\s*#' "${BENCH_FILE:-scripts/gpu_bench.txt}" | grep -v '^\s*$' | while read -r args; do
    echo "\$ cudaviz bench $args" >> "$OUT/bench.jsonl"
    timeout 300 $B/cudaviz bench $args 2>&1 | tee -a "$OUT/bench.jsonl"
  done
fi
# sanitize, bsan and soak are independent: they run side by side (16 cores).
sanitize_tests() {
  # Each tool split into gtest shards; CUDAVIZ_SANITIZER_RUN=1 makes the few
  # large GPU tests use small sizes (every kernel still runs and is checked).
  local tools=${SAN_TOOLS:-memcheck racecheck initcheck synccheck} tool shards k
  for tool in $tools; do
    case $tool in racecheck | synccheck) shards=${SAN_SHARDS:-6} ;; *) shards=3 ;; esac
    for ((k = 0; k < shards; ++k)); do
      ( CUDAVIZ_SANITIZER_RUN=1 GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$k \
          timeout "${SAN_TIMEOUT:-480}" compute-sanitizer --tool $tool --error-exitcode 9 \
          $B/gpu_tests --gtest_filter="${SAN_FILTER:-*}" > "$OUT/san_${tool}_$k.part" 2>&1
        echo "exit: $? (shard $k of $shards)" >> "$OUT/san_${tool}_$k.part" ) &
    done
  done
  wait
  for tool in $tools; do
    cat "$OUT"/san_${tool}_*.part > "$OUT/san_$tool.log" && rm -f "$OUT"/san_${tool}_*.part
    { echo "-- compute-sanitizer $tool over gpu_tests ${SAN_FILTER:-*}"
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Hazard|  PASSED  |  FAILED  |  SKIPPED |^exit:" \
        "$OUT/san_$tool.log"; } > "$OUT/san_$tool.summary"
  done
}
sanitize_benches() {
  # Every variant of every bench target at small sizes, under each tool.
  local tool t
  for tool in ${SAN_TOOLS:-memcheck racecheck initcheck synccheck}; do
    ( for t in "fountain --n 65536" "swarm --n 65536" "nbody --n 4096" "pi --n 1048576" \
               "sum3 --n 600" "count3 --n 1048576" "reduce --n 1048576" "reverse --n 1048576" \
               "corelated --n 300" "splat --n 65536"; do
        echo "== $tool: cudaviz bench $t --variant all --reps 2 --backend cuda"
        timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 --log-file "/tmp/bsan_$tool.log" \
          $B/cudaviz bench $t --variant all --reps 2 --backend cuda > "/tmp/bsan_$tool.out" 2>&1
        echo "exit $? ($(grep -c '"bench"' "/tmp/bsan_$tool.out") JSON lines)"
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Hazard" "/tmp/bsan_$tool.log" | tail -n 3
      done > "$OUT/bsan_$tool.summary" 2>&1 ) &
  done
  wait
}
soak() {
  local start=$SECONDS
  timeout "${SOAK_TIMEOUT:-540}" $B/cudaviz --soak "${SOAK_FRAMES:-100000}" > "$OUT/soak.json" 2> "$OUT/soak.err"
  echo "soak exit $? after $((SECONDS - start)) s" >> "$OUT/soak.err"
}
if [[ $what == *sanitize* || $what == *bsan* || $what == *soak* ]]; then
  say "side by side: $(for x in sanitize bsan soak; do [[ $what == *$x* ]] && echo -n "$x "; done)"
  [[ $what == *sanitize* ]] && sanitize_tests &
  [[ $what == *bsan* ]] && sanitize_benches &
  [[ $what == *soak* ]] && soak &
  wait
  cat "$OUT"/*.summary 2>/dev/null | tee -a "$log"
  [[ -f $OUT/soak.err ]] && tail -n 3 "$OUT/soak.err" | tee -a "$log"
  [[ -f $OUT/soak.json ]] && tail -c 2000 "$OUT/soak.json" | tee -a "$log"
  rm -f "$OUT"/*.summary
fi
if [[ $what == *window* ]]; then
  say "window: NVIDIA GLX (real interop)"
  while read -r name args; do
    [[ -z $name || $name == \#* ]] && continue
    frames="--frames 300"; [[ $args == *--frames* ]] && frames=""  # a line may set its own
    echo "\$ cudaviz $frames $args" | tee -a "$log"
    timeout 120 $B/cudaviz $frames $args --screenshot "$OUT/nvidia_$name.png" 2>&1 | tail -n 4 | tee -a "$log"
  done < "${WINDOW_FILE:-scripts/gpu_windows.txt}"
  say "window: Mesa (copy fallback)"
  unset __GLX_VENDOR_LIBRARY_NAME  # Xvfb's own GLX: Mesa llvmpipe
  timeout 120 $B/cudaviz --frames 200 --screenshot "$OUT/mesa_fountain.png" 2>&1 | tail -n 4 | tee -a "$log"
  export __GLX_VENDOR_LIBRARY_NAME=nvidia
  say "interop vs copy buffer test (NVIDIA GLX)"
  CUDAVIZ_EXPECT_INTEROP=1 $B/gpu_tests --gtest_filter='Interop*' 2>&1 | tail -n 12 | tee -a "$log"
fi
if [[ $what == *extra* ]]; then
  say "extra: ${EXTRA:-}"
  bash -c "${EXTRA:-true}" 2>&1 | tee -a "$log"
fi
# The device tool returns a handful of files: screenshots and logs travel as tars.
if compgen -G "$OUT/*.png" > /dev/null; then
  (cd "$OUT" && tar cf screenshots.tar ./*.png && rm -f ./*.png)
fi
if compgen -G "$OUT/san_*.log" > /dev/null || [[ -f $OUT/soak.json ]]; then
  (cd "$OUT" && tar cf logs.tar $(ls san_*.log soak.* 2> /dev/null) && rm -f san_*.log soak.*)
fi
say "done"
