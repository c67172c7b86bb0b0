#!/usr/bin/env bash
# Usage: run_preset_test.sh CUDAVIZ PNG_CHECK OUT.png PRESET [CUDAVIZ ARGS...]
# Loads a shipped preset in a real window at UI scale 2 and checks the run:
# the summary says the preset loaded with nothing skipped at scale 2, and the
# picture shows the fountain between the (larger) panels. Then checks that a
# preset file that cannot be used ends a scripted run with exit 2 and a
# message naming the file.
set -euo pipefail
# One display for every run of this test (a server each cost about a second): the
# script re-runs itself in it; with DISPLAY set, with_xvfb.sh runs each app there.
[ -n "${DISPLAY:-}" ] || exec "$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x800x24" "$0" "$@"
app=$1 check=$2 out=$3 preset=$4
shift 4
rm -f "$out"
xvfb=("$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x800x24")  # a display of its own
summary=$("${xvfb[@]}" "$app" --preset "$preset" --ui-scale 2 --frames 30 --screenshot "$out" \
  --size 1280x800 "$@")
echo "$summary"
grep -q '"ui_scale":2' <<<"$summary" || { echo "the run was not at UI scale 2"; exit 1; }
grep -q '"preset_skipped":0' <<<"$summary" || { echo "the preset skipped values"; exit 1; }
"$check" "$out" fountain

# A file that is not JSON: exit 2, the message names the file.
bad=$(mktemp --suffix=.json)
trap 'rm -f "$bad"' EXIT
echo '{"version": 1,' >"$bad"
set +e
msg=$("${xvfb[@]}" "$app" --preset "$bad" --frames 3 2>&1 >/dev/null)
rc=$?
set -e
echo "$msg"
[ "$rc" -eq 2 ] || { echo "a broken preset exited $rc, not 2"; exit 1; }
grep -q "$bad" <<<"$msg" || { echo "the message does not name the file"; exit 1; }
