#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang++) and runs each for a bounded time.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 60; BUILD_DIR overrides build-fuzz,
#        MAIN_BUILD names the main build whose objects fuzz_preset links, default build)
# Needs clang++ with libFuzzer: `scripts/deps.sh --fuzz` installs it.
# Starts from the seed corpus in tests/fuzz/corpus/<target>/ (read only; new
# inputs go to a scratch corpus in the build dir). Exits non-zero on any crash,
# sanitizer report or unexpected exception; the reproducer is in the build dir.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
build=${BUILD_DIR:-build-fuzz}
root=$(pwd)
# fuzz_preset links the rest of the app from a main build (MAIN_BUILD, default
# build): built and run when that build exists, skipped with a note otherwise.
main_build=${MAIN_BUILD:-build}
targets=(fuzz_int_file fuzz_cli)
main_flag=()
if [ -d "$main_build/app/CMakeFiles/cudaviz_core.dir" ]; then
  main_flag=(-DCUDAVIZ_BUILD_DIR="$(cd "$main_build" && pwd)")
  targets+=(fuzz_preset fuzz_class_api)
else
  echo "== fuzz_preset, fuzz_class_api: skipped (no main build in $main_build; set MAIN_BUILD)"
fi
cmake -S tests/fuzz -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ "${main_flag[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One target's bounded run; its summary line goes to $build/$target.result.
run_target() {
  set +e  # the fuzzer's exit status is the result, read below
  local target=$1 scratch="$build/corpus/$1" log="$build/$1.log" len=512 t=$secs rc execs rate
  mkdir -p "$scratch"
  [ "$target" = fuzz_preset ] && len=2048  # a full preset is about 1 KiB of JSON
  # The routes' bodies are small JSON objects; a dozen routes: half the time finds them.
  [ "$target" = fuzz_class_api ] && len=1024 && t=$(( (secs + 1) / 2 ))
  echo "== $target: ${t}s"
  # -max_len: a few hundred bytes reach every branch of both parsers (chunk
  # boundaries in int_file are exercised by its unit tests, not here).
  # -timeout: a single input taking over 10 s counts as a hang.
  (cd "$build" && "./$target" -max_total_time="$t" -max_len="$len" -timeout=10 -rss_limit_mb=2048 \
     -print_final_stats=1 -artifact_prefix="./$target-" "corpus/$target" "$root/tests/fuzz/corpus/$target") \
     >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ $rc -ne 0 ]; then
    echo "$target: FAILED (exit $rc) after ${execs:-?} executions; see $log" > "$build/$target.result"
  else
    echo "$target: ${execs:-?} executions in ${t}s (${rate:-?}/s), corpus $(ls "$scratch" | wc -l) inputs, no crash" \
      > "$build/$target.result"
  fi
  return $rc
}

# Each fuzzer is one process on one core: as many run at once as there are
# cores (CI's two: the four targets in about half the time, each with the
# executions it had alone).
status=0
summary=()
running=0
for target in "${targets[@]}"; do
  rm -f "$build/$target.result"
  if [ "$running" -ge "$(nproc)" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "$target" &
  running=$((running + 1))
done
wait || true
for target in "${targets[@]}"; do
  line=$(cat "$build/$target.result" 2>/dev/null || echo "$target: FAILED (no result)")
  summary+=("$line")
  if [[ $line == *FAILED* ]]; then
    status=1
    tail -40 "$build/$target.log"
  fi
done
echo "== fuzz summary"
printf '%s\n' "${summary[@]}"
exit $status
