#!/usr/bin/env bash
# Usage: run_window_test.sh CUDAVIZ PNG_CHECK OUT.png
# Runs `cudaviz --frames 30 --screenshot OUT.png` in a window (under xvfb-run
# when there is no display) and checks the picture for particles.
set -euo pipefail
app=$1 check=$2 out=$3
rm -f "$out"
run=("$app" --frames 30 --screenshot "$out" --size 1280x800)
if [ -z "${DISPLAY:-}" ]; then
  command -v xvfb-run >/dev/null || { echo "xvfb-run not installed (apt-get install xvfb xauth)"; exit 1; }
  xvfb-run -a -s "-screen 0 1280x800x24" "${run[@]}"
else
  "${run[@]}"
fi
"$check" "$out"
