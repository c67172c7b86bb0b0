#!/usr/bin/env bash
# Regenerates docs/bad_inputs.md: runs the BadInputs test of a built tree (it
# checks every row's exit code and message and writes the table to the build
# tree) and copies its table into docs/. Run on a machine without a CUDA device
# (the document shows the CPU backend's answers), after a change of a message.
#
# Usage: scripts/bad_inputs.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
tests="$build/tests"
[[ -x $tests/app_tests ]] || { echo "bad_inputs.sh: no $tests/app_tests: build the target app_tests first" >&2; exit 2; }
rm -f "$tests/bad_inputs.md"
(cd "$tests" && CUDAVIZ_ASSETS="$root/assets" CUDAVIZ_REGENERATING_DOCS=1 \
  ./app_tests --gtest_filter='BadInputs.*' --gtest_brief=1)
[[ -s $tests/bad_inputs.md ]] || { echo "bad_inputs.sh: the test wrote no table" >&2; exit 1; }
if grep -q '| not run' "$tests/bad_inputs.md"; then
  echo "bad_inputs.sh: some rows did not run here (sanitizer build, or root without user nobody):" \
       "docs/bad_inputs.md left as it is" >&2
  exit 1
fi
cp "$tests/bad_inputs.md" "$root/docs/bad_inputs.md"
echo "bad_inputs.sh: docs/bad_inputs.md regenerated ($(grep -c '^| [a-z]' "$root/docs/bad_inputs.md") rows)"
