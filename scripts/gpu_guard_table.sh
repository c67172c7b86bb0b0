#!/usr/bin/env bash
# Runs on the lent GPU machine (docs/guard.md "Overhead"): the guard's cost
# on every shipped kernel and every kernel of tests/corpus, and the fault
# kernels in a window. Expects the binaries in .devrun/ (cudaviz, the runner,
# gpu_tests, guard_dump; xz is fine) and the GL kit in .gl/ (scripts/gpu_env.sh).
#   scripts/gpu_guard_table.sh [MODE...]   (default: table sass faults)
#   table   `cudaviz bench kernel --source F` (guard on: it also times the
#           same kernel unguarded in the same runner: guard_ratio) for every
#           kernel; $OUT/guard/table.txt: kernel, guarded and unguarded ms,
#           ratio, correct, accesses checked / grouped / proven for a loop,
#           registers; its last lines: the largest ratio and its kernel, and
#           every kernel over 1.10 (or failed). REPS (default 100), KERNELS
#           (default: assets/kernels/*.cu tests/corpus/*/guard_*.cu),
#           KERNEL_LIMIT seconds a kernel (default 90), BUDGET seconds the
#           whole table (default 420; kernels past it count as failed).
#   sass    guard_dump's cubins (unguarded and guarded) through cuobjdump:
#           SASS instructions in all and in innermost loops (scripts/sass_loops.py)
#   faults  LAST (a window on NVIDIA GL): each tests/gpu/guard_cases kernel
#           guarded in the window, then a plain window that must draw all
#           its frames, then the GuardGpu tests (never GuardGpuUnguarded).
# Every step has its own time limit (timeout -k); a step that hangs is killed
# and logged in $OUT/guard/guard.log. Exit status: 0 when every kernel ran,
# was right and kept guard_ratio <= 1.10; 1 otherwise (the table says which).
set -uo pipefail
source scripts/gpu_env.sh
what=" ${*:-table sass faults} "
has() { [[ $what == *" $1 "* ]]; }
G=$OUT/guard; mkdir -p "$G"
log=$G/guard.log
say() { echo "== $(date +%T) $*" | tee -a "$log"; }
kernels=${KERNELS:-$(ls assets/kernels/*.cu tests/corpus/*/guard_*.cu 2>/dev/null)}
status=0

if has table; then
  say "table: $(echo "$kernels" | wc -w) kernels, reps ${REPS:-100}"
  : > "$G/table.jsonl"
  # The whole table within BUDGET seconds (default 420: a device call lasts at
  # most 10 minutes); a kernel past it is listed as skipped, which fails the table.
  deadline=$((SECONDS + ${BUDGET:-420}))
  for f in $kernels; do
    if [ $SECONDS -ge $deadline ]; then
      say "$f: skipped (the table's budget of ${BUDGET:-420} s is spent)"
      echo "{\"file\": \"$f\", \"rc\": -1, \"error\": \"skipped: budget spent\"}" >> "$G/table.jsonl"
      continue
    fi
    timeout -k 5 "${KERNEL_LIMIT:-90}" "$B/cudaviz" bench kernel --source "$f" --reps "${REPS:-100}" \
      > "$G/one.json" 2> "$G/one.err"
    rc=$?
    line=$(tail -n 1 "$G/one.json")
    [ -n "$line" ] || line='{}'
    python3 -c "import json,sys; j=json.loads(sys.argv[1]); j['file']=sys.argv[2]; j['rc']=int(sys.argv[3]); print(json.dumps(j))" \
      "$line" "$f" "$rc" >> "$G/table.jsonl" 2>> "$log" || echo "{\"file\": \"$f\", \"rc\": $rc}" >> "$G/table.jsonl"
    [ $rc -eq 0 ] || { say "$f: exit $rc"; tail -n 3 "$G/one.err" >> "$log"; }
  done
  python3 - "$G/table.jsonl" > "$G/table.txt" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(f"{'kernel':46} {'guarded ms':>11} {'raw ms':>10} {'ratio':>7} {'ok':>5} {'checked':>7} {'grouped':>7} {'loop':>5} {'regs':>5}")
over = []
for j in rows:
    name = j['file'].replace('assets/kernels/', '').replace('tests/corpus/', 'corpus/')
    r = j.get('guard_ratio')
    if r is None:
        print(f"{name:46} error (exit {j.get('rc')}): {str(j.get('error', ''))[:60]}")
        over.append(name)
        continue
    if r > 1.10: over.append(f"{name} {r:.3f}")
    print(f"{name:46} {j.get('guarded_paired_ms', j.get('ms_median', 0)):11.4f} {j.get('unguarded_ms', j.get('unguarded_ms_median', 0)):10.4f} {r:7.3f} "
          f"{str(j.get('correct')):>5} {j.get('guarded_instructions', 0):7} {j.get('grouped_instructions', 0):7} "
          f"{j.get('loop_proven_instructions', 0):5} {j.get('registers') or 0:5}")
ratios = [(j['guard_ratio'], j['file']) for j in rows if j.get('guard_ratio') is not None]
top = max(ratios) if ratios else (float('nan'), 'none')
wrong = [j['file'] for j in rows if j.get('guard_ratio') is not None and j.get('correct') is False]
print(f"\n{len(rows)} kernels; max guard_ratio {top[0]:.3f} ({top[1]}); "
      f"{len(wrong)} wrong answers{': ' + ', '.join(wrong) if wrong else ''}")
print(f"{len(over)} over 1.10 or failed: {', '.join(over) if over else 'none'}")
sys.exit(1 if over else 0)
PY
  [ $? -eq 0 ] || status=1
  cat "$G/table.txt" | tee -a "$log" | tail -n 2
fi

if has sass; then
  say "sass: guard_dump, cuobjdump"
  if [ -x "$B/guard_dump" ] && command -v cuobjdump > /dev/null; then
    arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d '.')
    : > "$G/dump.txt"
    for f in $kernels; do  # one folder per lab: the corpus repeats file names
      timeout -k 5 60 "$B/guard_dump" --arch "sm_$arch" --out "$G/dump/$(basename "$(dirname "$f")")" "$f" \
        >> "$G/dump.txt" 2>&1 || say "guard_dump $f: exit $?"
    done
    for c in "$G"/dump/*/*.cubin; do
      timeout -k 5 30 cuobjdump -sass "$c" > "${c%.cubin}.sass" 2>/dev/null
    done
    python3 scripts/sass_loops.py "$G"/dump/*/*.sass > "$G/sass.txt" 2>> "$log"
    (cd "$G" && tar cf dump.tar dump && rm -rf dump)
  else
    say "sass: no guard_dump in .devrun or no cuobjdump: skipped"
  fi
fi

if has faults; then
  # The guarded fault kernels must never fault the GPU: NVIDIA GL stays alive,
  # so the plain window after them must draw every frame.
  for f in tests/gpu/guard_cases/*.cu; do
    n=$(basename "$f" .cu)
    timeout -k 5 60 "$B/cudaviz" --kernel "$f" --frames 300 --screenshot "$G/fault_$n.png" \
      > "$G/fault_$n.json" 2> "$G/fault_$n.err"
    say "window $n: exit $? $(tail -n 1 "$G/fault_$n.json" | python3 -c 'import json,sys
try:
  j=json.loads(sys.stdin.read()); print({k: j.get(k) for k in ("frames","kernel_state","error","error_line","kernel_fallback")})
except Exception as e: print("no summary", e)')"
  done
  timeout -k 5 60 "$B/cudaviz" --frames 120 --screenshot "$G/plain_after.png" > "$G/plain_after.json" 2> "$G/plain_after.err"
  say "plain window after the fault kernels: exit $? $(tail -n 1 "$G/plain_after.json" | head -c 300)"
  timeout -k 5 300 "$B/gpu_tests" --gtest_filter='GuardGpu.*' > "$G/guard_gpu_tests.log" 2>&1
  rc=$?
  say "gpu_tests GuardGpu.*: exit $rc"
  [ $rc -eq 0 ] || status=1
  grep -E "^\[  (FAILED|     OK|  PASSED) " "$G/guard_gpu_tests.log" | tee -a "$log" | tail -n 30
fi
say "done, exit $status"
exit $status
