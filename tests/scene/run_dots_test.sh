#!/usr/bin/env bash
# Usage: run_dots_test.sh CUDAVIZ_DOTS PNG_CHECK OUT_DIR
# The app built with the test-only dots scene (tests/scene) runs it through the
# command line, a preset file and the soak, none of which were told about it.
set -euo pipefail
app=$1 check=$2 out=$3
xvfb="$(dirname "$0")/../window/with_xvfb.sh"
mkdir -p "$out"
fail() { echo "run_dots_test: $*" >&2; exit 1; }

# 1. --scene dots to a screenshot: its green and red dots are on screen.
rm -f "$out/dots.png"
summary=$("$xvfb" "$app" --scene dots --variant spiral --n 3000 --frames 10 --backend cpu \
  --screenshot "$out/dots.png" --size 1280x800)
echo "$summary"
grep -q '"scene":"dots"' <<<"$summary" || fail "the summary does not name the dots scene"
grep -q '"variant":"spiral"' <<<"$summary" || fail "--variant spiral did not reach the scene"
grep -q '"particles":3000' <<<"$summary" || fail "--n 3000 did not reach the scene"
"$check" "$out/dots.png" pi  # the dots use the inside/outside palette: green and red

# 2. A --n above the scene's limit is a usage error naming the scene's range, before any window.
set +e
err=$("$app" --scene dots --n 70000 --frames 1 2>&1 >/dev/null)
rc=$?
set -e
echo "$err" | head -1
[ "$rc" = 2 ] || fail "--n 70000: exit $rc, expected 2"
grep -q 'outside the dots scene.s range \[1, 65536\]' <<<"$err" || fail "--n 70000: the message does not name the range"

# 3. A preset file naming the scene: loaded with nothing skipped.
cat >"$out/dots.json" <<'JSON'
{"version": 1, "description": "dots", "scene": "dots",
 "scenes": {"dots": {"variant": "spiral", "count": 777, "block": [64],
                     "params": {"speed": 0.05, "point_size": 8, "frozen": false}}}}
JSON
summary=$("$xvfb" "$app" --preset "$out/dots.json" --frames 3 --backend cpu --size 640x480)
echo "$summary"
grep -q '"scene":"dots"' <<<"$summary" || fail "the preset did not select the dots scene"
grep -q '"particles":777' <<<"$summary" || fail "the preset's count did not apply"
grep -q '"block":\[64,1,1\]' <<<"$summary" || fail "the preset's block did not apply"
grep -q '"preset_skipped":0' <<<"$summary" || fail "the preset skipped something"

# 4. The soak cycles every registered scene, the dots among them (two cycles;
# the memory verdict is the reliability soak's business, so its exit is not asked).
summary=$("$xvfb" "$app" --soak 250 --backend cpu || true)
echo "$summary" | head -c 600; echo
grep -Eq '"steps_since_reset":\{[^}]*"dots":[1-9]' <<<"$summary" || fail "the soak did not run the dots scene"
grep -q '"errors":\[\]' <<<"$summary" || fail "the soak reported errors"
grep -Eq '"cycles":[2-9]' <<<"$summary" || fail "the soak did not cycle twice"
echo "run_dots_test: ok"
