#!/usr/bin/env bash
# Every step of every shipped lesson on the GPU, one step per run
# (--lesson FILE --step K --frames 3 --backend cuda), the five lessons side by
# side: how long each step takes, its exit status, what it measured, and its
# before/after screenshots (lessons.tar). A step still going after
# STEP_LIMIT s (default 150) is stopped and reported as such.
set -uo pipefail
source scripts/gpu_env.sh
mkdir -p "$OUT/lessons"
limit=${STEP_LIMIT:-150}
one_lesson() {
  local f=$1 base steps k t0 rc
  base=$(basename "$f" .md)
  steps=$(grep -c '^## Step' "$f")
  for k in $(seq 1 "$steps"); do
    t0=$(date +%s%N)
    timeout -k 5 "$limit" "$B/cudaviz" --lesson "$f" --step "$k" --frames 3 --backend cuda \
      --screenshot "$OUT/lessons/$base.png" > "$OUT/lessons/$base-$k.json" 2> "$OUT/lessons/$base-$k.err"
    rc=$?
    echo "$base step $k: exit $rc, $(( ($(date +%s%N) - t0) / 1000000 )) ms" >> "$OUT/lessons/$base.log"
    grep -E "lesson step|cudaviz:" "$OUT/lessons/$base-$k.err" | head -4 >> "$OUT/lessons/$base.log"
    python3 - "$OUT/lessons/$base-$k.json" >> "$OUT/lessons/$base.log" 2>&1 <<'PY'
import json, sys
try:
    j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
    for r in j.get("lesson", {}).get("steps", j.get("lesson", [])) if isinstance(j.get("lesson"), dict) else j.get("lesson", []):
        print("  ", json.dumps(r)[:600])
except Exception as e:
    print("   no summary:", e)
PY
  done
}
for f in assets/lessons/*.md; do one_lesson "$f" & done
wait
cat "$OUT"/lessons/*.log > "$OUT/lessons.log"
(cd "$OUT/lessons" && tar cf ../lessons.tar *.png *.err *.json) && rm -f "$OUT"/lessons/*.png
echo done >> "$OUT/lessons.log"
