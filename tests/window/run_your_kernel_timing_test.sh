#!/usr/bin/env bash
# Usage: run_your_kernel_timing_test.sh CUDAVIZ OUT.png SOURCE.cu cpu|cuda [CUDAVIZ ARGS...]
# Truthful numbers while a student's kernel steps the scene: the window runs
# SOURCE on the backend (on cpu a per-particle template; cuda needs a device:
# exit 77, skipped, without one) and its summary
# must report the kernel time the runner measured, not the app's request ->
# reply. kernel_ms (what the timing plots and particles/s use) must equal the
# runner's own time (user_kernel_ms), the round trip must be reported apart
# and be at least that long, and particles/s (interactions/s) must follow from kernel_ms.
set -euo pipefail
app=$1 out=$2 src=$3 backend=$4
shift 4
rm -f "$out"
in_window() { timeout -k 5 120 "$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1920x1080x24" "$@"; }
if [[ $backend == cuda ]] &&
   in_window "$app" --backend auto --scene fountain --n 4096 --frames 1 | grep -q '"backend":"cpu"'; then
  echo "no CUDA device: skipped"
  exit 77
fi
run=("$app" --backend "$backend" --kernel "$src" --panel frames --frames 90 --screenshot "$out"
     --n 65536 "$@")
summary=$(in_window "${run[@]}")
echo "$summary"
[ -s "$out" ] || { echo "FAIL: no screenshot $out"; exit 1; }
python3 - "$summary" "$backend" <<'PY'
import json, sys
j = json.loads(sys.argv[1].strip().splitlines()[-1])
fail = []
def need(ok, why):
    if not ok: fail.append(why)
need(j.get("kernel_state") == "ready", "the kernel is not ready: %s" % j.get("kernel_state"))
need(j.get("kernel_source") == "yours", "kernel_source is %r, not 'yours'" % j.get("kernel_source"))
k, yours, trip = j.get("kernel_ms", 0), j.get("user_kernel_ms", 0), j.get("round_trip_ms", 0)
need(yours > 0, "no user_kernel_ms (the runner's time)")
need(abs(k - yours) <= 1e-3 * yours + 1e-6,
     "kernel_ms %.4f is not the runner's time %.4f (the plots would show the round trip)" % (k, yours))
need(trip >= yours, "round_trip_ms %.4f is shorter than the kernel %.4f" % (trip, yours))
# The scene's rate is from the latest step's time, kernel_ms the median of the
# same source (the runner's): they agree within 10x (one step on a loaded
# 2-core machine can take several times its median; the round trip on the
# CPU path is only about 2x the kernel, so the exact kernel_ms check above is
# what tells the two apart). particles/s, or n-body's interactions/s (n^2 a step).
rate, per_step = ("interactions_per_s", float(j["particles"]) ** 2) if "interactions_per_s" in j \
    else ("particles_per_s", float(j["particles"]))
r = j.get(rate, 0)
need(r > 0 and 0.1 <= r * k * 1e-3 / per_step <= 10,
     "%s %.3g does not follow from kernel_ms %.4f" % (rate, r, k))
# On CUDA the n-body runner reads the bodies and writes the accelerations in the
# scene's own device memory: no note that they came back through the reply.
if sys.argv[2] == "cuda" and rate == "interactions_per_s":
    need("user_note" not in j, "n-body's accelerations were not in place: %s" % j.get("user_note"))
for f in fail: print("FAIL:", f)
sys.exit(1 if fail else 0)
PY
