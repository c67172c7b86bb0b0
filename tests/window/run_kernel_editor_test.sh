#!/usr/bin/env bash
# Usage: run_kernel_editor_test.sh CUDAVIZ OUT.png SOURCE.cu LINE|ready|wrong [CUDAVIZ ARGS...]
# The kernel tab in a real window on the CPU backend: `--kernel SOURCE --panel
# kernel` opens the editor with a source holding a deliberate compile error,
# the scripted run waits for the compile, and the summary must report the
# error at LINE with a clean layout (the tab at this size and UI scale
# overlaps nothing). NVRTC needs no GPU or driver, so this runs anywhere.
# With `ready` instead of a line the kernel must compile and load, and the run
# must end (a scene that does not run it must not keep the last frame waiting).
# With `wrong` the kernel must run and its verdict (the template's test set,
# judged once it runs) be wrong, with the failing case in the summary and on
# the tab.
set -euo pipefail
app=$1 out=$2 src=$3 line=$4
shift 4
rm -f "$out"
run=("$app" --backend cpu --kernel "$src" --panel kernel --frames 12 --screenshot "$out"
     --n 4096 "$@")
# A display of its own (with_xvfb.sh; the current one when DISPLAY is set).
summary=$(timeout -k 5 90 "$(dirname "$0")/with_xvfb.sh" -s "-screen 0 3840x2160x24" "${run[@]}")
echo "$summary"
fail=0
if [[ $line == ready ]]; then
  grep -q '"kernel_state":"ready"' <<<"$summary" || { echo "FAIL: the kernel is not ready"; fail=1; }
elif [[ $line == wrong ]]; then
  grep -q '"kernel_state":"ready"' <<<"$summary" || { echo "FAIL: the kernel is not running"; fail=1; }
  grep -q '"correct":false' <<<"$summary" || { echo "FAIL: no wrong verdict in the summary"; fail=1; }
  grep -q '"failed_case":"' <<<"$summary" || { echo "FAIL: the summary names no failing case"; fail=1; }
else
  grep -q "\"error_line\":$line[,}]" <<<"$summary" || { echo "FAIL: the summary has no \"error_line\":$line"; fail=1; }
fi
grep -q '"layout_problems":\[\]' <<<"$summary" || { echo "FAIL: layout problems with the kernel tab open"; fail=1; }
[ -s "$out" ] || { echo "FAIL: no screenshot $out"; fail=1; }
exit $fail
