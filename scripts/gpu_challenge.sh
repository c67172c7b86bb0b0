#!/usr/bin/env bash
# Challenge mode on a GPU machine (docs/class_server.md, "Challenge mode"):
# 60 simulated students submit right, wrong and racy count3 kernels at once
# to the real app (headless, Xvfb) with --challenge count3 --backend cuda;
# every verdict must be right, submit-to-verdict p99 at most 5 s, and the
# window's frame-time p99 at most 1 ms above the same run without the load.
# Prints both figures. Usage (from the repository, after a build):
#   scripts/gpu_challenge.sh [BUILD_DIR] [STUDENTS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
students=${2:-60}
exec /usr/bin/python3 "$root/tests/window/class/challenge_load_test.py" \
  "$root/tests/window/with_xvfb.sh" "$build/app/cudaviz" "$root/assets/kernels" \
  --students "$students" --backend cuda --seconds 60 --max-p99 5 --max-frame-p99-delta 1
