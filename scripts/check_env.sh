#!/usr/bin/env bash
# The environment is read once (docs/architecture.md "Configuration"): main()
# fills one Config (app/config/config.h) and passes it down. No getenv below
# app/core (app/core and app/main.cpp may read it) and none in kernels/.
# Checked from the sources alone (comments are skipped); exit 1 with one line
# per call found.
#
# Usage: scripts/check_env.sh [REPO_ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

bad=0
# One awk over every file (a process a file took 15 s on two cores): drop //
# comments, then look for a call of getenv or its variants.
mapfile -t all < <(find app kernels -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) | sort)
files=${#all[@]}
scan=()
for file in "${all[@]}"; do
  case $file in app/core/* | app/main.cpp) ;; *) scan+=("$file") ;; esac
done
while IFS= read -r hit; do
  echo "$hit: reads the environment; take the value from the Config main() built (app/config/config.h)"
  bad=1
done < <(awk '{ line = $0; sub(/\/\/.*$/, "", line)
               if (line ~ /(^|[^A-Za-z0-9_])(secure_)?getenv[[:space:]]*\(/) print FILENAME ":" FNR }' "${scan[@]}")

if ((bad)); then
  echo "check_env: getenv below app/core or in kernels/ (docs/architecture.md \"Configuration\")"
  exit 1
fi
echo "check_env: $files files, no getenv below app/core or in kernels/"
