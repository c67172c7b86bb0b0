#!/usr/bin/env bash
# Usage: run_window_test.sh CUDAVIZ PNG_CHECK OUT.png [SCENE [CUDAVIZ ARGS...]]
# Runs `cudaviz --scene SCENE --frames 30 --screenshot OUT.png ARGS` in a window
# (under with_xvfb.sh: its own Xvfb when there is no display) and checks the picture for the
# scene's content. SCENE defaults to fountain.
set -euo pipefail
app=$1 check=$2 out=$3
scene=${4:-fountain}
shift $(( $# < 4 ? $# : 4 ))
rm -f "$out"
run=("$app" --scene "$scene" --frames 30 --screenshot "$out" --size 1280x800 "$@")
# A display of its own (with_xvfb.sh; the current one when DISPLAY is set).
summary=$("$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x800x24" "${run[@]}")
echo "$summary"
# With --lab the summary says how the lab run ended: it must have finished with rows.
if [[ " $* " == *" --lab "* ]]; then
  grep -q '"lab_state":"done"' <<<"$summary" || { echo "the lab did not finish"; exit 1; }
  grep -q '"lab_rows":0,' <<<"$summary" && { echo "the lab reported no rows"; exit 1; }
fi
if [[ " $* " == *" --sweep "* ]]; then
  grep -q '"sweep_state":"done"' <<<"$summary" || { echo "the sweep did not finish"; exit 1; }
  grep -q '"sweep_rows":0,' <<<"$summary" && { echo "the sweep reported no rows"; exit 1; }
fi
"$check" "$out" "$scene"
