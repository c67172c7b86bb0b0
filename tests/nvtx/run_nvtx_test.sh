#!/usr/bin/env bash
# Usage: run_nvtx_test.sh CUDAVIZ RECORDER.so RECORD.txt
# Runs `cudaviz --backend cpu --frames 3` with the recording NVTX tool attached
# and checks what it recorded: every frame phase as a range of the "cudaviz"
# domain, balanced pushes and pops, and the scene's launch with its block shape;
# then a bench run: its range names the target, variant and block.
set -euo pipefail
app=$1 tool=$2 record=$3
xvfb="$(dirname "$0")/../window/with_xvfb.sh"
fail() { echo "FAIL: $*"; exit 1; }
rm -f "$record"
NVTX_INJECTION64_PATH=$tool CUDAVIZ_NVTX_RECORD=$record \
  "$xvfb" "$app" --backend cpu --frames 3 --size 640x400 --scene fountain --n 4096 --block 16x8 >/dev/null
[ -s "$record" ] || fail "the tool recorded nothing (not loaded?)"
echo "--- the first frame, as recorded (thread push|pop domain: name):"
sed -n '1,/^[0-9]* push cudaviz: account$/p' "$record" | head -40
echo "--- distinct range names:"
sed -n 's/^[0-9]* push cudaviz: //p' "$record" | sort | uniq -c
for phase in frame "poll events" requests input simulate "draw scene" ui present account; do
  n=$(grep -c " push cudaviz: $phase\$" "$record" || true)
  [ "$n" -ge 3 ] || fail "the phase '$phase' has $n ranges, expected one a frame (3)"
done
grep -qE ' push cudaviz: fountain lean block=16x8 n=4096 cpu$' "$record" ||
  fail "no launch range naming the scene, variant and block"
pushes=$(grep -c ' push cudaviz: ' "$record")
pops=$(grep -c ' pop cudaviz: ' "$record")
[ "$pushes" -eq "$pops" ] || fail "$pushes pushes but $pops pops"
grep -q ' push (default)' "$record" && fail "a range outside the cudaviz domain"

rm -f "$record"
NVTX_INJECTION64_PATH=$tool CUDAVIZ_NVTX_RECORD=$record \
  "$app" bench count3 --backend cpu --n 10000 --block 128 --reps 1 >/dev/null
grep -E ' push cudaviz: bench count3 variant=all block=128x1 n=10000 cpu$' "$record" ||
  fail "no bench range naming the target, variant and block"
echo PASS
