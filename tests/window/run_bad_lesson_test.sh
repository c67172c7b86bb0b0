#!/usr/bin/env bash
# Usage: run_bad_lesson_test.sh CUDAVIZ
# A lesson with mistakes: a scripted run refuses it (exit 2) with one message
# per mistake naming the file, the step and the field, and the valid names;
# the window (no --frames) keeps running and lists them in the lesson tab;
# --step past the last step is a usage error.
set -euo pipefail
# One display for every run of this test (a server each cost about a second): the
# script re-runs itself in it; with DISPLAY set, with_xvfb.sh runs each app there.
[ -n "${DISPLAY:-}" ] || exec "$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x720x24" "$0" "$@"
app=$1
# A display of its own (with_xvfb.sh; the current one when DISPLAY is set).
xvfb=("$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x720x24")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bad=$dir/bad-lesson.md
cat >"$bad" <<'MD'
# A lesson with mistakes

## Step: A fine step

```step
run: lab count3
run.variant: cpu
```

## Step: Names that do not exist

```step
scene: volcano
lab: sorting
panel: dashboard
run: lab count3
run.variant: quick
```
MD
set +e
msg=$("${xvfb[@]}" "$app" --backend cpu --lesson "$bad" --frames 3 2>&1 >/dev/null)
rc=$?
set -e
echo "$msg"
[ "$rc" -eq 2 ] || { echo "a bad lesson exited $rc, not 2"; exit 1; }
for want in "$bad:13: step 2 'Names that do not exist': field 'scene'" \
            "fountain, swarm, nbody, pi" \
            "field 'lab'" "count3" \
            "field 'panel': 'dashboard' is not a panel" "occupancy" \
            "field 'run.variant': 'quick' is not a variant of count3" "racy, atomic"; do
  grep -qF -- "$want" <<<"$msg" || { echo "the message lacks: $want"; exit 1; }
done
# Without --frames the window opens, shows the problems and keeps running.
set +e
msg=$(CUDAVIZ_CLOSE_AT_FRAME=5 "${xvfb[@]}" "$app" --backend cpu --lesson "$bad" 2>&1 >/dev/null)
rc=$?
set -e
[ "$rc" -eq 0 ] || { echo "the window with a bad lesson exited $rc, not 0"; echo "$msg"; exit 1; }
grep -qF "field 'panel'" <<<"$msg" || { echo "the window did not report the problems"; exit 1; }
# --step past the end: a usage error naming the count.
good=$dir/good.md
sed -n '1,8p' "$bad" >"$good"
set +e
msg=$("${xvfb[@]}" "$app" --backend cpu --lesson "$good" --step 3 --frames 3 2>&1 >/dev/null)
rc=$?
set -e
echo "$msg"
[ "$rc" -eq 2 ] || { echo "--step 3 of 1 exited $rc, not 2"; exit 1; }
grep -qF -- "--step: 3 is past the 1 steps" <<<"$msg" || { echo "the message does not name the step count"; exit 1; }
echo "bad lessons refused as expected"
