#!/usr/bin/env bash
# Usage: run_lesson_test.sh CUDAVIZ LESSON.md [CUDAVIZ ARGS...]
# Plays a lesson start to finish in a real window (scripted: --frames 3 per
# step, on the backend the arguments choose) and checks the JSON summary:
# every step played, its state applied and its run produced the values it
# names (or, on the CPU backend, named them as needing a GPU), no layout
# problems, exit 0; and that jumping to step 3 gives the state walking there does.
set -euo pipefail
# One display for every run of this test (a server each cost about a second): the
# script re-runs itself in it; with DISPLAY set, with_xvfb.sh runs each app there.
[ -n "${DISPLAY:-}" ] || exec "$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x720x24" "$0" "$@"
app=$1 lesson=$2
shift 2
# A display of its own (with_xvfb.sh; the current one when DISPLAY is set).
xvfb=("$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x720x24")
summary=$("${xvfb[@]}" "$app" --lesson "$lesson" --frames 3 --size 1280x720 "$@")
echo "$summary"
python3 - "$summary" <<'PY'
import json, sys
j = json.loads(sys.argv[1].strip().splitlines()[-1])
l = j["lesson"]
assert l["played"] == l["steps"] and l["steps"] >= 5, f"played {l['played']} of {l['steps']} steps"
assert l["ok"] == l["played"], f"only {l['ok']} of {l['played']} steps ok"
for s in l["step_reports"]:
    assert s["state_applied"], f"step {s['step']}: state did not apply: {s.get('state_problems')}"
    assert not s.get("missing"), f"step {s['step']}: not measured: {s['missing']}"
    if s["run"] != "none":
        assert s["run_state"] == "done" and s["rows"] > 0, f"step {s['step']}: run {s['run_state']}"
    measured = len(s["values"]) + len(s.get("needs_gpu", []))
    print(f"step {s['step']}: {s['run']}: {len(s['values'])} values, {len(s.get('needs_gpu', []))} need a GPU")
assert j["layout_problems"] == [], j["layout_problems"]
print("lesson ok:", l["title"])
PY
# Any step gives the same state whichever step came before: step 3 played
# alone (straight from the start) reads back the same as after steps 1 and 2.
alone=$("${xvfb[@]}" "$app" --lesson "$lesson" --step 3 --frames 3 --size 1280x720 "$@")
python3 - "$summary" "$alone" <<'PY'
import json, sys
walked = json.loads(sys.argv[1].strip().splitlines()[-1])["lesson"]["step_reports"][2]
jumped = json.loads(sys.argv[2].strip().splitlines()[-1])["lesson"]["step_reports"][0]
assert jumped["step"] == 3 and jumped["ok"], jumped
assert walked["state_digest"] == jumped["state_digest"], \
    f"step 3 differs when jumped to ({jumped['state_digest']}) and walked to ({walked['state_digest']})"
print("step 3 jumped to = walked to:", walked["state_digest"])
PY
