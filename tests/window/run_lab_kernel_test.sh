#!/usr/bin/env bash
# Usage: run_lab_kernel_test.sh CUDAVIZ PNG_CHECK SOURCE_DIR OUT.png
# The labs window with a count3 kernel in the kernel tab, on the CPU backend:
# "run your kernel" is offered (a whole kernel runs in the CPU emulator), the
# lab's own run finishes, the picture shows the scene, nothing crashes. Then
# the same action asked for by a preset: the scripted run ends with exit 0 and
# the summary's row "yours" is correct.
set -euo pipefail
# One display for every run of this test (a server each cost about a second): the
# script re-runs itself in it; with DISPLAY set, with_xvfb.sh runs each app there.
[ -n "${DISPLAY:-}" ] || exec "$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x800x24" "$0" "$@"
app=$1 check=$2 src=$3 out=$4
xvfb="$(dirname "$0")/with_xvfb.sh"
rm -f "$out"
summary=$("$xvfb" -s "-screen 0 1280x800x24" "$app" --backend cpu --scene pi --n 5000 \
  --kernel "$src/assets/kernels/count3.cu" --lab count3 --frames 30 --screenshot "$out" --size 1280x800)
echo "$summary"
grep -q '"lab_state":"done"' <<<"$summary" || { echo "the lab did not finish"; exit 1; }
if grep -q '"run_your_kernel":"Your count3 kernel' <<<"$summary"; then
  echo "run_your_kernel was refused on the CPU backend"; exit 1
fi
"$check" "$out" pi
summary=$("$xvfb" -s "-screen 0 1280x800x24" "$app" --backend cpu --scene pi --n 5000 \
  --kernel "$src/assets/kernels/count3.cu" --preset "$src/tests/window/lab_your_kernel_count3.json" \
  --frames 10 --size 1280x800)
echo "$summary" | tail -5
grep -q '"lab_other_rows"' <<<"$summary" || { echo "no row of yours in the summary"; exit 1; }
grep -q '"correct":true' <<<"$summary" || { echo "your count3 row is not correct"; exit 1; }
echo "ok"
