#!/usr/bin/env bash
# No function-local statics holding state in UI code (docs/architecture.md
# "A frame"): what a panel remembers lives in UiState, its panel object or the
# Context, so it is built at setup, reset with its owner and visible to tests.
# Constant tables (static const / constexpr) and static member functions are
# fine. Checked from the sources alone; exit 1 with one line per static found.
#
# Usage: scripts/check_statics.sh [REPO_ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

bad=0
# One awk over every file (a pipeline a file took 7 s on two cores).
# An indented `static` (inside a function or class) that is neither const nor
# a function declaration: a variable that keeps its value between calls.
mapfile -t all < <(find app/ui app/insight app/lessons app/widgets app/core -type f \( -name '*.h' -o -name '*.cpp' \) | sort)
files=${#all[@]}
while IFS= read -r hit; do
  echo "$hit: a function-local static keeps state; keep it in UiState, the panel or the Context"
  bad=1
done < <(awk '{ line = $0; sub(/\/\/.*$/, "", line)
               if (line !~ /^[[:space:]]+static[[:space:]]/) next
               if (line ~ /static[[:space:]]+(const|constexpr|inline[[:space:]]+const)[[:space:]]/) next
               if (line ~ /static[[:space:]]+[A-Za-z_][A-Za-z0-9_:<>, *&]*[[:space:]*&]+[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(/) next
               print FILENAME ":" FNR }' "${all[@]}")

if ((bad)); then
  echo "check_statics: function-local statics in UI code (docs/architecture.md \"A frame\")"
  exit 1
fi
echo "check_statics: $files files of UI code, no function-local statics holding state"
