#!/usr/bin/env bash
# `cudaviz doctor` on this machine: with a display (Xvfb + Mesa) it must find
# OpenGL and say the app runs (exit 0); with no display at all it must say the
# window cannot open, name the fix and exit 1, without crashing.
set -uo pipefail
bin="$1"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

runner=("$(dirname "$0")/with_xvfb.sh")  # a display of its own unless DISPLAY is set
"${runner[@]}" "$bin" doctor >"$out" 2>&1
rc=$?
cat "$out"
[ $rc -eq 0 ] || { echo "FAIL: doctor with a display exited $rc, expected 0"; exit 1; }
grep -q '^\[ok\] OpenGL: ' "$out" || { echo "FAIL: no OpenGL line"; exit 1; }
grep -q '^verdict: cudaviz runs here' "$out" || { echo "FAIL: no verdict"; exit 1; }

env -u DISPLAY -u WAYLAND_DISPLAY "$bin" doctor >"$out" 2>&1
rc=$?
cat "$out"
[ $rc -eq 1 ] || { echo "FAIL: doctor without a display exited $rc, expected 1"; exit 1; }
grep -q 'no display' "$out" || { echo "FAIL: no 'no display' finding"; exit 1; }
grep -q 'fix: .*xvfb-run' "$out" || { echo "FAIL: no fix for the missing display"; exit 1; }
echo "PASS"
