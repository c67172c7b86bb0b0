#!/usr/bin/env bash
# Usage: run_layout_test.sh CUDAVIZ
# The layout never overlaps or clips: at three window sizes and two UI scales
# (plus presentation mode and a tool tab open) the app renders a few frames and
# its --frames summary lists "layout_problems" (ui/layout.h: panels that overlap,
# reach past the display, or hold content wider than themselves): it must be empty.
set -euo pipefail
app=$1
xvfb="$(dirname "$0")/with_xvfb.sh"
# One display of its own for all the runs below (each run starting its own server
# cost about a second of the test's time): the script re-runs itself inside it, and
# with DISPLAY set with_xvfb.sh runs each command there directly. Each run is a
# separate app process, so one run's state cannot reach the next.
[ -n "${DISPLAY:-}" ] || exec "$xvfb" -s "-screen 0 3840x2160x24" "$0" "$@"
fail=0
check() {
  local summary
  summary=$("$xvfb" "$app" --backend cpu --frames 4 "$@")
  local problems
  problems=$(grep -o '"layout_problems":\[[^]]*\]' <<<"$summary" || true)
  if [[ $problems != '"layout_problems":[]' ]]; then
    echo "FAIL $*: ${problems:-no layout_problems in the summary}"
    fail=1
  else
    echo "ok   $*"
  fi
}
for size in 1280x720 1920x1080 3840x2160; do
  for scale in 1 3; do
    for scene in fountain nbody; do
      check --size "$size" --ui-scale "$scale" --scene "$scene" --n 4096
    done
  done
done
check --size 1920x1080 --present --scene swarm --n 4096                    # presentation mode
check --size 1920x1080 --ui-scale 2 --scene pi --n 4096 --lab count3      # the labs tab open
check --size 1280x800 --scene fountain --n 4096 --panel occupancy         # a tuning tab open
lessons=$(cd "$(dirname "$0")/../../assets/lessons" && pwd)
check --size 1280x720 --ui-scale 3 --lesson "$lessons/000-map-reduce-intro.md" --step 6  # the lesson tab
check --size 1920x1080 --present --lesson "$lessons/001-counting.md" --step 4
check --size 1280x720 --ui-scale 3 --scene fountain --n 4096 --panel kernel  # the kernel editor
check --size 3840x2160 --scene fountain --n 4096 --panel kernel
exit $fail
