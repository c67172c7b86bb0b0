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
files=0
while IFS= read -r file; do
  files=$((files + 1))
  case $file in app/core/* | app/main.cpp) continue ;; esac
  # Drop // comments, then look for a call of getenv or its variants.
  while IFS= read -r hit; do
    echo "$file:$hit: reads the environment; take the value from the Config main() built (app/config/config.h)"
    bad=1
  done < <(sed -E 's://.*$::' "$file" | grep -nE '\b(secure_)?getenv[[:space:]]*\(' | cut -d: -f1)
done < <(find app kernels -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) | sort)

if ((bad)); then
  echo "check_env: getenv below app/core or in kernels/ (docs/architecture.md \"Configuration\")"
  exit 1
fi
echo "check_env: $files files, no getenv below app/core or in kernels/"
