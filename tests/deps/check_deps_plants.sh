#!/usr/bin/env bash
# scripts/check_deps.sh must fail on a planted violation: each plant goes into
# a copy of app/ and kernels/ (in a mkdtemp folder) and is undone after, and
# the check must exit 1 naming the planted file. The unplanted copy must pass, so a failure
# below is the plant's, not the tree's.
# Usage: tests/deps/check_deps_plants.sh REPO_ROOT
set -euo pipefail
root=$(cd "${1:?usage: $0 REPO_ROOT}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/check_deps_plants.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/scripts"
cp "$root/scripts/check_deps.sh" "$work/scripts/"

cp -r "$root/app" "$root/kernels" "$work/"
planted=()  # files a plant added or changed, each with its clean copy beside it
undo() {
  local f
  for f in "${planted[@]}"; do
    if [[ -f $f.clean ]]; then mv "$f.clean" "$f"; else rm -rf "$f"; fi
  done
  planted=()
}

fails=0
expect_fail() {  # NAME FILE: the check must fail and name FILE
  local name=$1 file=$2 out rc=0
  out=$("$work/scripts/check_deps.sh" "$work" 2>&1) || rc=$?
  if ((rc == 0)); then
    echo "FAIL $name: check_deps passed with the plant in $file"; fails=1
  elif ! grep -q "^$file" <<< "$out"; then
    echo "FAIL $name: check_deps failed (exit $rc) but did not name $file:"; echo "$out"; fails=1
  else
    echo "ok   $name: $(grep "^$file" <<< "$out" | head -n 1)"
  fi
}
plant() {  # FILE INCLUDE: append an #include line to FILE (relative to the copy)
  cp "$work/$1" "$work/$1.clean.tmp" && mv "$work/$1.clean.tmp" "$work/$1.clean"
  planted+=("$work/$1")
  printf '#include "%s"\n' "$2" >> "$work/$1"
}
add() {  # FILE: a new file (a copy of a header that includes nothing)
  mkdir -p "$(dirname "$work/$1")"
  cp "$work/app/usercode/wire/launch_abi.h" "$work/$1"
  planted+=("$work/$1")
}

"$work/scripts/check_deps.sh" "$work" > /dev/null || { echo "FAIL: the unplanted tree does not pass"; exit 1; }

# A part including a higher part: the guard (no app) reaching into compile.
plant app/usercode/guard/ptx_text.cpp usercode/compile/compile.h
expect_fail "guard -> compile" app/usercode/guard/ptx_text.cpp; undo
# A peer part: one helper process including the other's code.
plant app/usercode/explain/explain_main.cpp usercode/runner/runner_executor.h
expect_fail "explain -> runner" app/usercode/explain/explain_main.cpp; undo
# The guard (text to text) reaching any of the app, even a lower layer.
plant app/usercode/guard/ptx_guard.cpp config/config.h
expect_fail "guard -> config" app/usercode/guard/ptx_guard.cpp; undo
# The app's side reaching into a helper's program (a lower part, but another process).
plant app/usercode/client/runner_client.cpp usercode/runner/runner_executor.h
expect_fail "client -> runner" app/usercode/client/runner_client.cpp; undo
plant app/bench/bench_kernel.cpp usercode/runner/guard_words.h
expect_fail "bench -> runner" app/bench/bench_kernel.cpp; undo
# The emulator reaching the app's side.
plant app/usercode/emu/build.cpp usercode/client/user_kernel.h
expect_fail "emu -> client" app/usercode/emu/build.cpp; undo
# A part including a higher layer of the app.
plant app/usercode/wire/protocol.cpp ui/panels.h
expect_fail "wire -> ui" app/usercode/wire/protocol.cpp; undo
# A low layer including a part above it.
plant app/io/atomic_file.cpp usercode/wire/protocol.h
expect_fail "io -> usercode/wire" app/io/atomic_file.cpp; undo
# A file directly in the parent of the parts, and a part with no place.
add app/usercode/loose.h
expect_fail "file outside a part" app/usercode/loose.h; undo
add app/usercode/newpart/x.h
expect_fail "part without a layer" app/usercode/newpart/x.h; rm -rf "$work/app/usercode/newpart"; undo
# kernels/ including the app.
plant kernels/common/block_shape.cpp usercode/wire/launch_abi.h
expect_fail "kernels -> app" kernels/common/block_shape.cpp; undo

exit $fails
