#!/usr/bin/env bash
# Usage: run_colour_by_interop_test.sh CUDAVIZ
# With colour by launch on, the ids buffer ping-pongs like the vertex
# buffers, so its write never waits for GL: on the external-memory path the
# step's interop (map + unmap of both) stays at most 0.01 ms a frame. Needs a
# CUDA device: exit 77 (skipped) without one.
set -euo pipefail
app=$1
in_window() { "$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x800x24" "$@"; }
# One frame first: on the CPU backend there is nothing to measure.
if in_window "$app" --backend auto --scene fountain --n 4096 --frames 1 | grep -q '"backend":"cpu"'; then
  echo "no CUDA device: skipped"
  exit 77
fi
summary=$(in_window "$app" --backend cuda --scene fountain --colour-by block --frames 300)
echo "$summary"
json=$(grep '^{' <<<"$summary" | tail -1)
grep -q '"id_buffers":2' <<<"$json" || { echo "FAIL: the ids buffer is not double-buffered"; exit 1; }
if grep -q '"transfer":"external memory"' <<<"$json"; then
  ms=$(grep -o '"interop_ms":[0-9.e+-]*' <<<"$json" | cut -d: -f2)
  awk -v ms="$ms" 'BEGIN { exit !(ms <= 0.01) }' || { echo "FAIL: interop_ms $ms > 0.01"; exit 1; }
  echo "ok: interop_ms $ms with colour by block"
else
  echo "ok: ids double-buffered (not the external path: interop_ms not compared)"
fi
