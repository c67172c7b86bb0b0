#!/usr/bin/env bash
# Usage: run_lab_kernel_test.sh CUDAVIZ PNG_CHECK SOURCE_DIR OUT.png
# The labs window with a count3 kernel in the kernel tab, on the CPU backend:
# "run your kernel" is refused with the sentence (a whole kernel needs a CUDA
# GPU), the lab's own run finishes, the picture shows the scene, nothing crashes.
# Then the same action asked for by a preset: the scripted run ends with exit 2
# and the sentence on stderr (a preset asking for what this machine cannot run).
set -euo pipefail
app=$1 check=$2 src=$3 out=$4
xvfb="$(dirname "$0")/with_xvfb.sh"
rm -f "$out"
summary=$("$xvfb" -s "-screen 0 1280x800x24" "$app" --backend cpu --scene pi --n 5000 \
  --kernel "$src/assets/kernels/count3.cu" --lab count3 --frames 30 --screenshot "$out" --size 1280x800)
echo "$summary"
grep -q '"lab_state":"done"' <<<"$summary" || { echo "the lab did not finish"; exit 1; }
grep -q '"lab_refused":{"run_your_kernel":"Your count3 kernel is a whole CUDA kernel: it needs a CUDA GPU to run' <<<"$summary" ||
  { echo "the refusal of run_your_kernel is not in the summary"; exit 1; }
"$check" "$out" pi
set +e
err=$("$xvfb" -s "-screen 0 1280x800x24" "$app" --backend cpu --scene pi --n 5000 \
  --kernel "$src/assets/kernels/count3.cu" --preset "$src/tests/window/lab_your_kernel_count3.json" \
  --frames 10 --size 1280x800 2>&1 >/dev/null)
rc=$?
set -e
echo "$err" | tail -5
[[ $rc == 2 ]] || { echo "expected exit 2 from the preset run, got $rc"; exit 1; }
grep -q "lab.run: Your count3 kernel is a whole CUDA kernel" <<<"$err" ||
  { echo "the preset run did not say why"; exit 1; }
echo "ok"
