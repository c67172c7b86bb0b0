#!/usr/bin/env bash
# Runs on the lent GPU machine (see docs/gpu.md): GPU tests, benchmarks,
# compute-sanitizer and windowed runs with real interop and with the copy
# fallback, in one call. Expects the stripped binaries in .devrun/ and the GL
# kit in .gl/ (it also provides libglfw, so it is sourced first). Logs and
# screenshots go to $OUT.
#   scripts/gpu_check.sh [tests] [bench] [sanitize] [bsan] [soak] [window] [extra]
#                        [sass] [tiles] [interop] [sandiag] [ncu] [doctor]
#   (default: tests bench sanitize window). sanitize: compute-sanitizer's four tools
#   over gpu_tests; bsan: the same over a bench of every variant; soak: --soak 100000.
#   sass: instructions per interaction of the n-body fast builds (nvcc + cuobjdump
#   there); tiles: those builds benched against each other (CUDAVIZ_NBODY_TILE);
#   interop: windowed fountain frames on the external-memory path and the map path
#   (CUDAVIZ_INTEROP), single buffers, the copy path, Mesa's fallback, the buffer test;
#   sandiag: racecheck of the fountain 1x1 test at the sanitizer size, and at the old
#   one with SANDIAG_OLD=1 (the abnormal end of issue 14: racecheck's host memory,
#   OOM-killed); ncu: stall reasons and pipe use of the n-body fast builds (NCU_TILES);
#   doctor: `cudaviz doctor`'s interop probe on NVIDIA GLX (external memory), with
#   CUDAVIZ_INTEROP=map|copy|fast, and on Mesa's GLX (external -> map -> copy), PASS/FAIL.
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
if [[ $what == *sass* ]]; then
  say "SASS of the n-body fast builds (sm_90): instructions per interaction"
  : > /tmp/nbody90.sass
  for f in nbody_one_way nbody_pairs; do
    ${CUDA_HOME:-/usr/local/cuda}/bin/nvcc -cubin -arch=sm_90 -O3 --expt-relaxed-constexpr -std=c++17 \
      -Ikernels kernels/nbody/$f.cu -o /tmp/$f.cubin 2>&1 | tail -n 5 | tee -a "$log"
    ${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump -sass /tmp/$f.cubin >> /tmp/nbody90.sass
  done
  python3 scripts/sass_count.py /tmp/nbody90.sass --dump /tmp/sass | tee -a "$log"
  (cd /tmp && tar cf "$OUT/sass.tar" sass)
fi
if [[ $what == *tiles* ]]; then
  # Each fast tile build (TILES: build:block pairs) at the three sizes of the targets.
  say "n-body fast tile builds (CUDAVIZ_NBODY_TILE)"
  # SM clock and power while they run: the FP32 issue limit scales with the clock.
  nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv,noheader -lms 250 > "$OUT/tiles_clocks.csv" 2>&1 &
  local_smi=$!
  for n in ${TILE_SIZES:-32768 131072 1048576}; do
    for tb in ${TILES:-k8u4:256 k8u4:512 k4u4:256 k4u8:256 k6u4:256}; do
      CUDAVIZ_NBODY_TILE=${tb%%:*} timeout 120 $B/cudaviz bench nbody --variant fast --n "$n" \
        --block "${tb##*:}" >> "$OUT/tiles.jsonl" 2>&1
    done
  done
  kill "$local_smi" 2> /dev/null
  sort "$OUT/tiles_clocks.csv" | uniq -c | sort -rn | head -n 6 | tee -a "$log"
  python3 -c '
import json, sys
for line in open(sys.argv[1]):
    try: j = json.loads(line)
    except ValueError: print(line.rstrip()); continue
    print("%-6s block %-4d n %-8d %.4e interactions/s  slices %d  ms %.4f" % (j["tile"], j["block"][0],
          j["n"], j["interactions_per_s"], j["slices"], j["ms_median"]))' "$OUT/tiles.jsonl" | tee -a "$log"
fi
if [[ $what == *ncu* ]]; then
  # Why the n-body fast kernel runs at ~80% of its issue limit: warp stall
  # reasons, issue slot use and pipe utilisation of one launch per build.
  say "ncu: n-body fast builds at 131072 bodies (warp states, scheduler, pipes)"
  m="" r=""
  for r in math_pipe_throttle mio_throttle short_scoreboard long_scoreboard wait not_selected \
           selected dispatch_stall barrier no_instruction lg_throttle; do
    m+="smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio,"
  done
  m+="smsp__issue_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,"
  m+="sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active"
  for tb in ${NCU_TILES:-k8u4:256 k16u4:256}; do
    # Sections (always valid) with their details, then named metrics (one bad
    # name would fail that call alone).
    CUDAVIZ_NBODY_TILE=${tb%%:*} timeout 180 ncu --clock-control none -k regex:"forces_(fast|pairs)" -c 1 \
      --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
      --section Occupancy --print-details all \
      $B/cudaviz bench nbody --variant fast --n 131072 --block "${tb##*:}" --reps 1 \
      > "$OUT/ncu_${tb%%:*}.txt" 2>&1
    echo "-- $tb sections: exit $?" | tee -a "$log"
    CUDAVIZ_NBODY_TILE=${tb%%:*} timeout 180 ncu --clock-control none -k regex:"forces_(fast|pairs)" -c 1 \
      --metrics "$m" $B/cudaviz bench nbody --variant fast --n 131072 --block "${tb##*:}" --reps 1 \
      > "$OUT/ncu_${tb%%:*}_metrics.txt" 2>&1
    echo "-- $tb metrics: exit $?" | tee -a "$log"
    grep -E "stalled|issue_active|pipe_|warps_active|ERROR" "$OUT/ncu_${tb%%:*}_metrics.txt" | tee -a "$log"
    grep -iE "Stall|Issue Slot|Eligible|Active Warps|Issued Warp|Achieved Occupancy|Pipe" \
      "$OUT/ncu_${tb%%:*}.txt" | head -n 30 | tee -a "$log"
  done
fi
if [[ $what == *interop* ]]; then
  say "interop: external memory (no map) vs the registered map, then single buffers, copy, Mesa"
  irun() {  # irun NAME ENV... -- ARGS...: one windowed run, its stderr head and JSON line
    local name=$1; shift; local envs=(); while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
    echo "\$ ${envs[*]} cudaviz --frames 300 $*" | tee -a "$log"
    env "${envs[@]}" timeout 120 $B/cudaviz --frames 300 "$@" --screenshot "$OUT/interop_$name.png" \
      2>&1 | grep -E '^(backend:|cudaviz:|\{)' | tee -a "$log" "$OUT/interop.jsonl"
  }
  for n in 65536 16777216; do
    for mode in external map; do irun "${mode}_$n" CUDAVIZ_INTEROP=$mode -- --n $n; done
  done
  irun external_single_65536 CUDAVIZ_INTEROP=external,single -- --n 65536
  irun external_single_16777216 CUDAVIZ_INTEROP=external,single -- --n 16777216
  irun external_32x8_16777216 CUDAVIZ_INTEROP=external -- --n 16777216 --block 32,8
  irun copy_65536 CUDAVIZ_INTEROP=copy -- --n 65536
  # Mesa's GLX (another device than CUDA's): external must fall back, saying why.
  irun mesa_external_65536 -u __GLX_VENDOR_LIBRARY_NAME CUDAVIZ_INTEROP=external -- --n 65536
  # One line a run: the path, the interop cost beyond the kernel, the GPU frame.
  python3 -c '
import json, sys
for line in open(sys.argv[1]):
    if not line.startswith("{"): continue
    j = json.loads(line); g = lambda k: j.get(k, float("nan"))
    print("%-15s n %-8d bufs %s kernel %.3f interop %.3f map %.3f sync_wait %.3f splat_map %.3f gpu_frame %.3f | %s" % (
        j.get("transfer"), j["particles"], j.get("vertex_buffers"), g("kernel_ms"), g("interop_ms"),
        g("map_ms"), g("sync_wait_ms"), g("splat_map_ms"), g("gpu_frame_ms"), j.get("transfer_reason", "")))
' "$OUT/interop.jsonl" | tee -a "$log"
  CUDAVIZ_EXPECT_INTEROP=1 CUDAVIZ_EXPECT_EXTERNAL=1 $B/gpu_tests --gtest_filter='Interop*' 2>&1 \
    | tail -n 24 | tee -a "$log"
fi
if [[ $what == *doctor* ]]; then
  # `cudaviz doctor` walks the app's own chain (external memory -> map -> copy)
  # with a test buffer: each run's report must hold its lines in this order.
  say "doctor: the interop path it finds (NVIDIA GLX, CUDAVIZ_INTEROP starts, Mesa's GLX)"
  doctor_case() {  # doctor_case NAME EXIT ENV... -- PATTERN...: PASS when all match in order
    local name=$1 want=$2 envs=() rc at=0 n p ok=PASS; shift 2
    while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
    env "${envs[@]}" timeout 60 $B/cudaviz doctor > "$OUT/doctor_$name.txt" 2>&1
    rc=$?; [[ $rc == "$want" ]] || ok="FAIL (exit $rc, expected $want)"
    for p in "$@"; do
      n=$(grep -nE -- "$p" "$OUT/doctor_$name.txt" | head -n 1 | cut -d: -f1)
      if [[ -z $n || $n -le $at ]]; then ok="FAIL (missing or out of order: $p)"; break; fi
      at=$n
    done
    echo "$ok doctor $name (${envs[*]})" | tee -a "$log"
    grep -E '^\[[a-z ]+\] interop|^verdict' "$OUT/doctor_$name.txt" | tee -a "$log"
  }
  doctor_case nvidia 0 -- '^\[ok\] interop: the app uses external memory' \
    '^verdict: cudaviz runs here: CUDA with interop \(external memory'
  doctor_case nvidia_map 0 CUDAVIZ_INTEROP=map -- \
    '^\[note\] interop: CUDAVIZ_INTEROP=map: the chain starts at map' \
    '^\[ok\] interop: the app uses the map path' '^verdict: .*\(mapped VBO\)'
  doctor_case nvidia_copy 0 CUDAVIZ_INTEROP=copy -- \
    '^\[note\] interop: the app uses the copy path .*forced by CUDAVIZ_INTEROP=copy'
  doctor_case nvidia_bad 1 CUDAVIZ_INTEROP=fast -- "^\[cannot run\] interop: CUDAVIZ_INTEROP: 'fast'" \
    '^verdict: cudaviz cannot start here'
  doctor_case mesa 0 -u __GLX_VENDOR_LIBRARY_NAME -- \
    '^\[note\] interop: external memory failed: .*\(GL: llvmpipe' \
    '^\[note\] interop: map failed: cudaGraphicsGLRegisterBuffer: cudaErrorUnknown' \
    '^\[problem\] interop: the app uses the copy path' '^verdict: .*copy path'
  (cd "$OUT" && tar cf doctor.tar doctor_*.txt && rm -f doctor_*.txt)
fi
sandiag() {
  # The fountain 1x1 test under racecheck at the old size (CUDAVIZ_SANITIZER_RUN=0)
  # and the sanitizer size: exit status, wall time, peak memory, the log's end.
  local san start rc timev=""
  [[ -x /usr/bin/time ]] && timev="/usr/bin/time -v"
  # The old size takes the machine's memory (118 GiB, OOM-killed on the H100
  # run of 2026-11-23): only with SANDIAG_OLD=1, never beside other shards.
  for san in 1 ${SANDIAG_OLD:+0}; do
    start=$SECONDS
    CUDAVIZ_SANITIZER_RUN=$san $timev timeout "${SANDIAG_TIMEOUT:-420}" \
      compute-sanitizer --tool racecheck --error-exitcode 9 $B/gpu_tests \
      --gtest_filter='Shapes/FountainGpuVsCpu.MatchesCpuTwin/lean_1x1' > "/tmp/sandiag_$san.log" 2>&1
    rc=$?
    { echo "-- racecheck lean_1x1, CUDAVIZ_SANITIZER_RUN=$san: exit $rc after $((SECONDS - start)) s"
      grep -E "Maximum resident|Exit status|signal" "/tmp/sandiag_$san.log"
      grep -v -E "^\s+[A-Z].*:.*[0-9]$" "/tmp/sandiag_$san.log" | tail -n 12; } > "$OUT/sandiag_$san.summary"
  done
  dmesg 2> /dev/null | tail -n 5 > "$OUT/sandiag_dmesg.summary"
}
# sanitize, bsan and soak are independent: they run side by side (16 cores).
sanitize_tests() {
  # Each tool split into gtest shards; CUDAVIZ_SANITIZER_RUN=1 makes the few
  # large GPU tests use small sizes (every kernel still runs and is checked).
  local tools=${SAN_TOOLS:-memcheck racecheck initcheck synccheck} tool shards k timev=""
  [[ -x /usr/bin/time ]] && timev="/usr/bin/time -v"
  for tool in $tools; do
    case $tool in racecheck | synccheck) shards=${SAN_SHARDS:-6} ;; *) shards=3 ;; esac
    for ((k = 0; k < shards; ++k)); do
      # Wall time and peak host memory a shard: racecheck keeps host memory for
      # every block it ran, so a shard can also end by the OOM killer.
      ( start=$SECONDS
        CUDAVIZ_SANITIZER_RUN=1 CUDAVIZ_SANITIZER_TOOL=$tool GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$k \
          $timev timeout "${SAN_TIMEOUT:-480}" compute-sanitizer --tool $tool --error-exitcode 9 \
          $B/gpu_tests --gtest_filter="${SAN_FILTER:-*}" > "$OUT/san_${tool}_$k.part" 2>&1
        rc=$?
        rss=$(grep -oE "Maximum resident set size \(kbytes\): [0-9]+" "$OUT/san_${tool}_$k.part" | grep -oE "[0-9]+$")
        echo "exit: $rc (shard $k of $shards) after $((SECONDS - start)) s, peak ${rss:-?} kB" \
          >> "$OUT/san_${tool}_$k.part" ) &
    done
  done
  wait
  for tool in $tools; do
    cat "$OUT"/san_${tool}_*.part > "$OUT/san_$tool.log" && rm -f "$OUT"/san_${tool}_*.part
    { echo "-- compute-sanitizer $tool over gpu_tests ${SAN_FILTER:-*}"
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Hazard|  PASSED  |  FAILED  |  SKIPPED |^exit:|terminate" \
        "$OUT/san_$tool.log"
      echo "tests over 30 s:"; grep -E "\[ +(OK|FAILED) +\].*\(([0-9]{6,}|[3-9][0-9]{4}) ms\)" "$OUT/san_$tool.log"
    } > "$OUT/san_$tool.summary"
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
if [[ $what == *sanitize* || $what == *bsan* || $what == *soak* || $what == *sandiag* ]]; then
  say "side by side: $(for x in sanitize bsan soak sandiag; do [[ $what == *$x* ]] && echo -n "$x "; done)"
  [[ $what == *sandiag* ]] && sandiag &
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
