#!/usr/bin/env bash
# Runs on the lent GPU machine (see docs/gpu.md): GPU tests, benchmarks,
# compute-sanitizer and windowed runs with real interop and with the copy
# fallback, in named modes. Expects the binaries in .devrun/ (xz-compressed is
# fine: scripts/gpu_env.sh unpacks them) and the GL kit in .gl/ (it also
# provides libglfw). Logs and screenshots go to $OUT.
#   scripts/gpu_check.sh [MODE...]   (default: tests bench sanitize window faults)
#   tests     gpu_tests but the fault tests (FILTER: a gtest filter instead)
#   bench     each line of BENCH_FILE (default scripts/gpu_bench.txt) as `cudaviz bench <line>`
#   regress   the quick bench regression lines: fountain 16M, n-body 131072, count3
#   nbody     n-body: every variant at the three target sizes, the fast one on other blocks
#   compare   .devrun/cudaviz-before and cudaviz interleaved (before/after/before/after)
#   sanitize  compute-sanitizer's four tools over gpu_tests; bsan: the same over a bench of
#             every variant; soak: --soak 100000; sandiag: racecheck of the fountain 1x1 test
#             at the sanitizer size (and the old one with SANDIAG_OLD=1) — side by side
#   window    each line of scripts/gpu_windows.txt in a window (NVIDIA GLX), then Mesa's copy path
#   scenes    each scene on each interop path (SCENE_BINS: cudaviz, with cudaviz-before if there)
#   colour    colour by block/warp: the ids double-buffered, then a single buffer
#   pictures  1920x1080 screenshots: framing and colours of the scenes, the kernel tab
#   interop   windowed fountain runs on the external-memory, map and copy paths, Mesa
#   doctor    `cudaviz doctor`'s interop probe on NVIDIA GLX, forced paths and Mesa, PASS/FAIL
#   sass      instructions per interaction of the n-body fast builds (nvcc + cuobjdump there)
#   tiles     those builds benched against each other (CUDAVIZ_NBODY_TILE)
#   ncu       stall reasons and pipe use of the n-body fast builds (NCU_TILES)
#   nvtx      an nsys timeline of a scripted run, the NVTX ranges summed
#   usercode  scripts/gpu_usercode.sh (the student-kernel tests, bench lines, fault runs)
#   lessons   scripts/gpu_lessons.sh (every step of every lesson on CUDA)
#   faultgl   scripts/gpu_fault_gl.sh (does a CUDA fault in one process stop GL in others)
#   faults    LAST: the fault tests, then a trapping, a looping and an out-of-range student
#             kernel in the window (the watchdog ends the run, the kernel is saved), a plain run
#   extra     EXTRA: a shell command line
set -uo pipefail
source scripts/gpu_env.sh
what=" ${*:-tests bench sanitize window faults} "
has() { [[ $what == *" $1 "* ]]; }
log=$OUT/gpu_check.log
say() { echo "== $(date +%T) $*" | tee -a "$log"; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# Every test whose kernel faults the GPU on purpose (an unguarded one, or one
# the time limit ends): `tests` leaves them out, `faults` runs them last. A raw
# fault stops NVIDIA's GL on the machine (../shared/gpu/README.md), so one left
# in `tests` (GuardGpuUnguarded, before 2026-11-29) broke every later window.
FAULTS='UsercodeGpu.OutOfBoundsWriteEndsOnlyTheRunner:UsercodeGpu.TrapEndsOnlyTheRunner:UsercodeGpu.MisalignedAccessEndsOnlyTheRunner:UsercodeGpu.EndlessLoopIsStoppedAtTheTimeLimit:GuardGpuUnguarded.*'
# A student fountain kernel with BODY as its statement (for the fault runs).
fountain_kernel() {
  printf '%s\n' '// template: fountain_kernel' \
    'extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,' \
    '    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {' \
    '  const unsigned i = (blockIdx.y * blockDim.y + threadIdx.y) * g.width + blockIdx.x * blockDim.x + threadIdx.x;' \
    "  $1" '}'
}
# One windowed run: NAME, then cudaviz arguments; the summary's main fields and stderr's tail.
win() {
  local name=$1; shift
  timeout -k 5 150 "$B/cudaviz" "$@" > "$OUT/w_$name.json" 2> "$OUT/w_$name.err"
  echo "$name: exit $? $(tail -n 1 "$OUT/w_$name.json" | python3 -c '
import json, sys
try: j = json.loads(sys.stdin.read())
except Exception: print("no summary"); sys.exit()
keys = ("backend", "n", "transfer", "interop_ms", "map_step_unmap_ms", "kernel_ms", "draw_ms", "splat_ms",
        "gpu_frame_ms", "id_buffers", "sync_wait_ms", "frame_ms_max", "kernel_state", "kernel_fallback",
        "edit_to_run_ms", "user_kernel_ms", "error_line", "layout_problems")
print({k: j[k] for k in keys if k in j})')" | tee -a "$log"
}
bench_lines() {  # FILE, then lines of `cudaviz bench` arguments: JSON into FILE, one summary line each
  local file=$1 line; shift
  for line in "$@"; do
    # shellcheck disable=SC2086
    timeout -k 5 120 "$B/cudaviz" bench $line >> "$OUT/$file" 2>> "$OUT/bench.err"
    echo "bench $line: exit $?" | tee -a "$log"
  done
  python3 -c '
import json, sys
for l in open(sys.argv[1]):
    try: j = json.loads(l.split(" ", 1)[-1] if not l.startswith("{") else l)
    except ValueError: continue
    print(j["bench"], j["variant"], j["n"], round(j["ms_median"], 4),
          {k: j[k] for k in ("interactions_per_s", "particles_per_s", "gb_per_s", "correct") if k in j})' \
    "$OUT/$file" | tee -a "$log"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee -a "$log"

if has tests; then
  say "gpu_tests ${FILTER:--$FAULTS}"
  timeout -k 5 400 $B/gpu_tests --gtest_brief=1 --gtest_filter="${FILTER:--$FAULTS}" 2>&1 | tail -n 60 | tee -a "$log"
fi
if has bench; then
  say "bench (${BENCH_FILE:-scripts/gpu_bench.txt})"
  # 100,000 arbitrary int32 values for the O(n^2) sum3 (seeded, so runs compare).
  awk 'BEGIN { srand(7); for (i = 0; i < 100000; i++) printf "%d\n", int(rand() * 4294967296) - 2147483648 }' > /tmp/r100k.txt
  grep -v '^\s*#' "${BENCH_FILE:-scripts/gpu_bench.txt}" | grep -v '^\s*$' | while read -r args; do
    echo "\$ cudaviz bench $args" >> "$OUT/bench.jsonl"
    timeout 300 $B/cudaviz bench $args 2>&1 | tee -a "$OUT/bench.jsonl"
  done
fi
if has sass; then
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
if has tiles; then
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
if has ncu; then
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
if has interop; then
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
if has doctor; then
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
if has sanitize || has bsan || has soak || has sandiag; then
  say "side by side: $(for x in sanitize bsan soak sandiag; do has $x && echo -n "$x "; done)"
  has sandiag && sandiag &
  has sanitize && sanitize_tests &
  has bsan && sanitize_benches &
  has soak && soak &
  wait
  cat "$OUT"/*.summary 2>/dev/null | tee -a "$log"
  [[ -f $OUT/soak.err ]] && tail -n 3 "$OUT/soak.err" | tee -a "$log"
  [[ -f $OUT/soak.json ]] && tail -c 2000 "$OUT/soak.json" | tee -a "$log"
  rm -f "$OUT"/*.summary
fi
if has window; then
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
if has regress; then
  say "bench regression lines"
  bench_lines regress.jsonl "fountain --variant all --n 16777216" "nbody --variant all --n 131072" \
    "count3 --variant all"
fi
if has nbody; then
  say "n-body: every variant at the target sizes (block 256), the fast variant on other blocks"
  bench_lines nbody.jsonl "nbody --variant all --n 32768" "nbody --variant all --n 131072" \
    "nbody --variant all --n 1048576" "nbody --variant fast --n 32768 --block 128" \
    "nbody --variant fast --n 32768 --block 512" "nbody --variant fast --n 32768 --block 1024" \
    "nbody --variant fast --n 131072 --block 128" "nbody --variant fast --n 131072 --block 512" \
    "nbody --variant fast --n 1048576 --block 128"
fi
if has compare; then
  # Two builds on the same card, interleaved so clock drift hits both.
  say "compare: cudaviz-before vs cudaviz, interleaved"
  if [[ -x $B/cudaviz-before ]]; then
    for line in "fountain --variant all --n 65536 --block 16,16" "fountain --variant all --n 16777216 --block 16,16" \
                "swarm --variant all --n 4194304 --block 16,16" "nbody --variant all --n 131072 --block 256" \
                "nbody --variant all --n 1048576 --block 256"; do
      for bin in cudaviz-before cudaviz cudaviz-before cudaviz; do
        # shellcheck disable=SC2086
        timeout -k 5 120 "$B/$bin" bench $line 2> /dev/null | sed "s/^/$bin /" >> "$OUT/compare.jsonl"
      done
    done
    python3 -c '
import json, sys, collections
ms = collections.defaultdict(list)
for l in open(sys.argv[1]):
    b, _, rest = l.partition(" ")
    try: j = json.loads(rest)
    except ValueError: continue
    ms[(j["bench"], j["variant"], j["n"], b)].append(j["ms_median"])
for k in sorted(ms): print(*k, ["%.4f" % v for v in ms[k]])' "$OUT/compare.jsonl" | tee -a "$log"
  else
    echo "no $B/cudaviz-before: carry the previous build under that name" | tee -a "$log"
  fi
fi
if has scenes; then
  say "scenes on each interop path"
  bins=${SCENE_BINS:-$( [[ -x $B/cudaviz-before ]] && echo "cudaviz-before cudaviz" || echo cudaviz)}
  for bin in $bins; do
    for sc in "fountain" "swarm" "nbody" "fountain --colour-by block" "fountain --n 16777216"; do
      for i in external map copy external,single; do
        # shellcheck disable=SC2086
        j=$(CUDAVIZ_INTEROP=$i timeout -k 5 60 "$B/$bin" --backend cuda --scene $sc --frames 300 2> /dev/null | tail -n 1)
        echo "$bin | $sc | $i | $j" >> "$OUT/scenes.txt"
      done
    done
  done
  echo "scenes: $(grep -c frames "$OUT/scenes.txt") runs gave a summary" | tee -a "$log"
fi
if has colour; then
  say "colour by: ids double-buffered, then a single ids/vertex buffer"
  win cb_block --scene fountain --colour-by block --frames 300
  win cb_warp --scene fountain --colour-by warp --frames 300 --n 1048576
  CUDAVIZ_INTEROP=external,single win cb_block_single --scene fountain --colour-by block --frames 300
  win cb_off --scene fountain --frames 300
fi
if has pictures; then
  say "pictures at 1920x1080: framing and colours, the kernel tab"
  for p in "f64k --scene fountain --n 65536 --frames 600" \
           "f64k_occ --scene fountain --n 65536 --frames 600 --panel occupancy" \
           "f16m_splat --scene fountain --n 16777216 --frames 600" \
           "f16m_sprites --scene fountain --n 16777216 --frames 600 --renderer sprites" \
           "s16m --scene swarm --n 16777216 --frames 400" "nb64k --scene nbody --n 65536 --frames 200" \
           "k_error --kernel tests/window/kernel_error.cu --panel kernel --frames 30" \
           "k_block --kernel assets/kernels/fountain_kernel.cu --panel kernel --colour-by block --frames 200"; do
    # shellcheck disable=SC2086
    set -- $p
    win "$@" --size 1920x1080 --screenshot "$OUT/$1.png"
  done
  set --
fi
if has nvtx; then
  say "NVTX: nsys timeline of a scripted run"
  if command -v nsys > /dev/null; then
    timeout -k 5 120 nsys profile -t cuda,nvtx -o "$OUT/cv" -f true "$B/cudaviz" --frames 120 --n 1048576 \
      > "$OUT/nsys.log" 2>&1
    echo "nsys exit $?" | tee -a "$log"
    timeout -k 5 60 nsys stats -r nvtx_sum "$OUT/cv.nsys-rep" 2>&1 | head -40 | tee -a "$log"
    rm -f "$OUT"/cv.sqlite "$OUT"/cv.nsys-rep
  else
    echo "nsys not installed here" | tee -a "$log"
  fi
fi
for script in usercode lessons faultgl; do
  if has $script; then
    say "scripts/gpu_${script/faultgl/fault_gl}.sh"
    B=$B OUT=$OUT timeout -k 5 540 bash "scripts/gpu_${script/faultgl/fault_gl}.sh" > "$OUT/$script.out" 2>&1
    echo "exit $?" | tee -a "$log"
    tail -n 20 "$OUT/$script.out" | tee -a "$log"
  fi
done
if has faults; then
  # Last: a faulting kernel may leave this machine's GL unusable for a while.
  say "faults: the fault tests, then student kernels that trap, loop and write out of range"
  t0=$(date +%s%N)
  timeout -k 5 120 "$B/gpu_tests" --gtest_brief=1 --gtest_filter="$FAULTS" > "$OUT/gpu_tests_faults.log" 2>&1
  echo "gpu_tests (faults): exit $? in $(ms "$t0") ms" | tee -a "$log"
  grep -E "^\[  (PASSED|FAILED) |FAILED \]" "$OUT/gpu_tests_faults.log" | tee -a "$log"
  fountain_kernel 'while (clock64() >= 0) {}' > "$OUT/loop.cu"
  fountain_kernel 'if (i == 5) __trap();' > "$OUT/trap.cu"
  fountain_kernel 'if (i < g.count) out[i + (1u << 30)] = in[i];  // past the buffer: checked mode stops it' \
    > "$OUT/oob.cu"
  t0=$(date +%s%N)
  timeout -k 5 60 "$B/cudaviz" bench kernel --source "$OUT/loop.cu" --reps 3 > "$OUT/loop_bench.json" 2> "$OUT/loop_bench.err"
  echo "looping kernel, bench: exit $? (want 1) after $(ms "$t0") ms: $(head -c 400 "$OUT/loop_bench.json")" | tee -a "$log"
  win k_loop --kernel "$OUT/loop.cu" --panel kernel --frames 300 --screenshot "$OUT/k_loop.png"
  win k_oob --kernel "$OUT/oob.cu" --panel kernel --frames 200 --screenshot "$OUT/k_oob.png"
  cfg=$(mktemp -d); t0=$(date +%s%N)
  XDG_CONFIG_HOME=$cfg timeout -k 5 90 "$B/cudaviz" --kernel "$OUT/trap.cu" --frames 600 > "$OUT/trap.json" 2> "$OUT/trap.err"
  echo "trap in the window: exit $? in $(ms "$t0") ms; saved kernel identical:" \
    "$(cmp -s "$OUT/trap.cu" "$cfg/cudaviz/recovered-kernel.cu" && echo yes || echo no)" | tee -a "$log"
  grep "cudaviz:" "$OUT/trap.err" | head -n 6 | tee -a "$log"
  t0=$(date +%s%N)
  timeout -k 5 40 "$B/cudaviz" --frames 60 > /dev/null 2>&1
  echo "plain run after: exit $? in $(ms "$t0") ms" | tee -a "$log"
fi
if has extra; then
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
if compgen -G "$OUT/w_*" > /dev/null; then
  (cd "$OUT" && tar cf windows.tar w_* && rm -f w_*)
fi
say "done"
