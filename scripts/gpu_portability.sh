#!/usr/bin/env bash
# Portability evidence on the lent GPU, in one call of well under 8
# minutes. Three builds made on the CPU machine, stripped and xz-compressed:
#   NATIVE  the usual build for the GPU machine (90 or the dev/portable preset)
#   V75     -DCMAKE_CUDA_ARCHITECTURES=75-virtual: only Turing PTX, every kernel JIT-compiled
#   R89     -DCMAKE_CUDA_ARCHITECTURES=89-real: no code the H100 can run
# Build them here (each in its own build dir), e.g.:
#   for a in 75-virtual 89-real; do
#     cmake -S . -B build-$a -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=$a
#     cmake --build build-$a -j2 --target cudaviz gpu_tests; done
#   mkdir -p .devrun/native .devrun/v75 .devrun/r89
#   cp build/app/cudaviz .devrun/native/; cp build-75-virtual/app/cudaviz build-75-virtual/tests/gpu_tests .devrun/v75/
#   cp build-89-real/app/cudaviz .devrun/r89/; strip .devrun/*/*; xz -9 .devrun/*/*
# On the GPU machine (carry .devrun and .gl; they must stay under 64 MiB with the tree):
#   bash scripts/gpu_portability.sh [.devrun/native .devrun/v75 .devrun/r89]
# Results: $OUT/portability/summary.txt (PASS/FAIL lines), kernel_times.md (per-kernel
# table, native vs compute_75 JIT), bench_native.jsonl, bench_v75.jsonl, logs.tar.
set -uo pipefail
NATIVE=${1:-.devrun/native}
V75=${2:-.devrun/v75}
R89=${3:-.devrun/r89}
OUT=${OUT:-/tmp/cudaviz-out}
P=$OUT/portability
L=$P/logs
mkdir -p "$L"
summary=$P/summary.txt
: > "$summary"
check() {  # check NAME CONDITION-RESULT(0/1) DETAIL
  if [ "$2" -eq 0 ]; then echo "PASS $1: $3" | tee -a "$summary"; else echo "FAIL $1: $3" | tee -a "$summary"; fi
}
for d in "$NATIVE" "$V75" "$R89"; do
  for f in "$d"/*.xz; do [ -e "$f" ] && unxz -f "$f"; done
  chmod +x "$d"/* 2> /dev/null
done
source .gl/gl-env.sh  # Xvfb on :99, NVIDIA's GLX, libglfw
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader | tee "$L/nvidia-smi.txt"
start=$SECONDS
# What each binary holds (the V75 one: only compute_75 PTX; R89: only sm_89 cubins).
for b in "$NATIVE" "$V75" "$R89"; do
  echo "== $b/cudaviz"; /usr/local/cuda/bin/cuobjdump --list-elf --list-ptx "$b/cudaviz" 2>&1 | grep -oE '(sm|compute)_[0-9]+[af]?\.(cubin|ptx)' | sort | uniq -c
done > "$L/fatbins.txt" 2>&1
cat "$L/fatbins.txt" >> "$summary"

# 1. The whole GPU suite of the compute_75-PTX-only build (every kernel JIT-compiled for sm_90).
#    V75_TESTS=0 leaves it to the caller (e.g. beside the sanitizers, off the timed part).
if [ "${V75_TESTS:-1}" != 0 ]; then
timeout 300 "$V75/gpu_tests" --gtest_brief=1 > "$L/v75_gpu_tests.log" 2>&1
rc=$?
tail -n 5 "$L/v75_gpu_tests.log"
grep -q "PASSED" "$L/v75_gpu_tests.log" && ! grep -q "FAILED" "$L/v75_gpu_tests.log"
check "v75 gpu_tests" $(( rc != 0 || $? != 0 )) "exit $rc; $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$L/v75_gpu_tests.log" | tr '\n' ' ')"
grep -E "code for .*PTX" "$L/v75_gpu_tests.log" | head -n 1 | tee -a "$summary"
fi

# 2. Every bench target, every variant, on the native build and on the JIT-compiled PTX.
targets=("fountain --n 16777216" "swarm --n 4194304" "nbody --n 131072" "splat --n 16777216"
         "pi --n 268435456" "sum3 --n 1000" "count3 --n 67108864" "reduce --n 67108864"
         "reverse --n 67108864" "corelated --n 1000")
for build in native v75; do
  bin=$NATIVE/cudaviz; [ $build = v75 ] && bin=$V75/cudaviz
  out=$P/bench_$build.jsonl
  : > "$out"
  for t in "${targets[@]}"; do
    timeout 60 "$bin" bench $t --variant all --backend cuda >> "$out" 2>> "$L/bench_$build.err"
    echo "bench $build $t: exit $?" >> "$L/bench_$build.err"
  done
  bad=$(grep -c '"correct":false' "$out")
  fails=$(grep -c 'exit [^0]' "$L/bench_$build.err")
  check "bench $build" $(( bad + fails > 0 )) "$(grep -c '"bench"' "$out") rows, $bad wrong answers, $fails failed runs"
done
python3 - "$P/bench_native.jsonl" "$P/bench_v75.jsonl" > "$P/kernel_times.md" << 'PY'
import json, sys
def load(p):
    rows = {}
    for line in open(p):
        if line.startswith("{"):
            j = json.loads(line)
            if j.get("backend") == "cuda":
                rows[(j["bench"], j["variant"], j["n"])] = j
    return rows
nat, v75 = load(sys.argv[1]), load(sys.argv[2])
print("| bench | variant | n | native ms | compute_75 JIT ms | JIT / native | correct (native, JIT) |")
print("|---|---|---|---|---|---|---|")
fmt = lambda v: "-" if v is None else f"{v:.4g}"
for k in sorted(set(nat) | set(v75)):
    a, b = nat.get(k, {}), v75.get(k, {})
    ma, mb = a.get("ms_median"), b.get("ms_median")
    ratio = f"{mb / ma:.2f}" if ma and mb else "-"
    print(f"| {k[0]} | {k[1]} | {k[2]} | {fmt(ma)} | {fmt(mb)} | {ratio} | "
          f"{a.get('correct', '-')}, {b.get('correct', '-')} |")
PY

# 3. The build with no code for this GPU: doctor names the fix, bench exits 1 with the
#    sentence, the window opens on the CPU backend and says why.
timeout 60 "$R89/cudaviz" doctor > "$L/doctor_r89_nvidia.txt" 2>&1
rc=$?
grep -q "DCMAKE_CUDA_ARCHITECTURES=90" "$L/doctor_r89_nvidia.txt"
check "r89 doctor" $(( rc != 0 || $? != 0 )) "exit $rc (0 expected: the CPU backend runs), fix line present"
timeout 60 "$R89/cudaviz" bench fountain > "$L/bench_r89.out" 2> "$L/bench_r89.err"
rc=$?
grep -q "has no code in this build" "$L/bench_r89.err"
check "r89 bench" $(( rc != 1 || $? != 0 )) "exit $rc (1 expected): $(head -c 300 "$L/bench_r89.err")"
timeout 120 "$R89/cudaviz" --frames 30 --screenshot "$L/r89_window.png" > "$L/r89_window.out" 2> "$L/r89_window.err"
rc=$?
grep -q "has no code in this build" "$L/r89_window.err" && grep -q '"backend":"cpu"' "$L/r89_window.out"
check "r89 window" $(( rc != 0 || $? != 0 )) "exit $rc, CPU backend with the sentence on stderr"

# 4. doctor with NVIDIA GLX (interop) and Mesa (copy path) on the native build, and with no display.
timeout 60 "$NATIVE/cudaviz" doctor > "$L/doctor_nvidia.txt" 2>&1
rc=$?
grep -q "^\[ok\] interop" "$L/doctor_nvidia.txt"
check "doctor NVIDIA GLX" $(( rc != 0 || $? != 0 )) "exit $rc, interop ok"
( unset __GLX_VENDOR_LIBRARY_NAME; timeout 60 "$NATIVE/cudaviz" doctor > "$L/doctor_mesa.txt" 2>&1 )
rc=$?
grep -q "^\[problem\] interop" "$L/doctor_mesa.txt" && grep -q "copy path" "$L/doctor_mesa.txt"
check "doctor Mesa" $(( rc != 0 || $? != 0 )) "exit $rc, interop fails -> copy path named"
( unset DISPLAY; timeout 60 "$NATIVE/cudaviz" doctor > "$L/doctor_nodisplay.txt" 2>&1 )
rc=$?
check "doctor no display" $(( rc != 1 )) "exit $rc (1 expected)"
timeout 30 "$NATIVE/cudaviz" bench pi --device 7 > /dev/null 2> "$L/device7.err"
rc=$?
grep -q "this machine has 1 CUDA device" "$L/device7.err"
check "--device 7" $(( rc != 2 || $? != 0 )) "exit $rc: $(head -n 1 "$L/device7.err")"
CUDA_VISIBLE_DEVICES= timeout 60 "$NATIVE/cudaviz" doctor > "$L/doctor_hidden.txt" 2>&1
check "doctor CUDA_VISIBLE_DEVICES=''" $? "exit status (0: the CPU backend runs)"

cp "$L"/doctor_nvidia.txt "$L"/doctor_mesa.txt "$P"/ 2> /dev/null
echo "elapsed $((SECONDS - start)) s" | tee -a "$summary"
(cd "$P" && tar cf logs.tar logs && rm -rf logs)
