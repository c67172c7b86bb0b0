#!/usr/bin/env bash
# Challenge mode on a GPU machine (docs/class_server.md, "Challenge mode"), for
# the lead's device run. Every step is bounded (timeout -k) and logs under $OUT:
#   1. the device (nvidia-smi) and `cudaviz doctor`;
#   2. `bench kernel` of the right, wrong and racy count3 kernels the students
#      send (the judge's own path on this GPU): right says correct: true, wrong
#      correct: false;
#   3. 60 simulated students submit them at once to the real app (headless,
#      Xvfb) with --challenge count3 --backend cuda: every verdict right,
#      submit-to-verdict p99 at most 5 s, and the window's frame-time p99 at
#      most 1 ms above the same app without the load; the teacher's window with
#      the challenge tab (queue, leaderboard) in $OUT/teacher*.png (look at it).
# Pass: exit 0, and "ok" at the end of challenge_load.log.
# Usage (from the repository, after a build):
#   OUT=/path/to/out scripts/gpu_challenge.sh [BUILD_DIR] [STUDENTS]
#   BACKEND=cpu SECONDS_LOAD=120 ...: a dry run on a machine without a GPU (no targets).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
students=${2:-60}
backend=${BACKEND:-cuda}
load_s=${SECONDS_LOAD:-90}
out=${OUT:-$build/gpu_challenge}
mkdir -p "$out"
app=$build/app/cudaviz
[ -x "$app" ] || { echo "gpu_challenge.sh: no $app: build the cudaviz target first" >&2; exit 2; }
status=0
step() {  # step NAME SECONDS COMMAND...: bounded, its output in $out/NAME.log
  local name=$1 secs=$2
  shift 2
  echo "== $name (at most ${secs}s): $*"
  timeout -k 20 "$secs" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  echo "   exit $rc; log $out/$name.log"
  [ $rc -eq 0 ] || status=1
  return 0
}

if [ "$backend" = cuda ]; then
  step nvidia-smi 60 nvidia-smi
fi
step doctor 120 "$app" doctor
for k in count3 count3_racy; do
  step "bench_$k" 300 "$app" bench kernel --source "$root/assets/kernels/$k.cu" --backend "$backend" --reps 10
done
step bench_count3_wrong 300 "$app" bench kernel --source "$root/tests/window/class/count3_wrong.cu" \
  --backend "$backend" --reps 10
# bench kernel's verdicts: right is correct, wrong is not (the racy one may pass its
# check on one run: explain's race check is what fails it in a challenge).
grep -q '"correct":true' "$out/bench_count3.log" || { echo "   FAIL: count3.cu not correct"; status=1; }
grep -q '"correct":false' "$out/bench_count3_wrong.log" || { echo "   FAIL: count3_wrong.cu not wrong"; status=1; }

targets=()
[ "$backend" = cuda ] && targets=(--max-p99 5 --max-frame-p99-delta 1)
step challenge_load $((load_s * 8 + 300)) /usr/bin/python3 "$root/tests/window/class/challenge_load_test.py" \
  "$root/tests/window/with_xvfb.sh" "$app" "$root/assets/kernels" \
  --students "$students" --backend "$backend" --seconds "$load_s" --fps 30 \
  --screenshot "$out/teacher.png" "${targets[@]}"
tail -n 12 "$out/challenge_load.log"
echo "gpu_challenge.sh: logs and pictures in $out; exit $status"
exit $status
