#!/usr/bin/env bash
# Usage: reliability_test.sh CUDAVIZ MODE
# Window-level reliability checks, on the CPU backend under Xvfb
# (with_xvfb.sh, or the current DISPLAY), with KHR_debug output on (CUDAVIZ_GL_DEBUG=1):
#   tour        every scene and every lab, scripted: 0 GL errors each
#   storm       resize storm (odd sizes, 1x1, iconify/restore) over all scenes: 0 GL errors
#   fault       an injected launch failure: exit 1 naming the call and the error
#   fault_soak  the same fault during a scene cycle: the other scenes keep running
#   close_lab   the window closed while a lab runs: clean exit within seconds
#   signal      Ctrl+C (SIGINT) while a lab runs: closed as by the window's button,
#               exit 0 with the summary, within seconds
#   soak        a short soak (CI length): memory growth under 1%, 0 GL errors
#   reopen      a lost GL context (injected): the window reopens with the state kept,
#               the student's kernel back in the editor and not running
#   stall       a frame that never returns after a fault (injected): the watchdog
#               saves the student's kernel and ends the run (exit 1) within its limit
set -euo pipefail
# One display for every run of this test (a server each cost about a second): the
# script re-runs itself in it; with DISPLAY set, with_xvfb.sh runs each app there.
[ -n "${DISPLAY:-}" ] || exec "$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x800x24" "$0" "$@"
app=$1 mode=$2
export CUDAVIZ_GL_DEBUG=1
# Each run in a display of its own; the exit code is the app's (with_xvfb.sh).
xrun=("$(dirname "$0")/with_xvfb.sh" -s "-screen 0 1280x800x24")
err=$(mktemp)
trap 'rm -f "$err"' EXIT

fail() { echo "FAIL: $*"; echo "--- stderr:"; tail -20 "$err"; exit 1; }
# run EXPECTED_RC ARGS...: runs the app, leaves its last stdout line in $json.
run() {
  local want=$1
  shift
  set +e
  out=$("${xrun[@]}" "$app" --backend cpu "$@" 2>"$err")
  rc=$?
  set -e
  json=$(tail -n 1 <<<"$out")
  echo "cudaviz $* -> exit $rc"
  [ "$rc" = "$want" ] || fail "exit $rc, expected $want"
}
has() { grep -qF -- "$1" <<<"$json" || fail "summary lacks $1: $json"; }
clean_gl() {
  has '"gl_debug":true'
  has '"gl_errors":0'
  if grep -q "GL debug:" "$err"; then fail "GL debug messages on stderr"; fi
}

case $mode in
  tour)
    for s in "fountain --n 16384" "swarm --n 16384" "nbody --n 512" "pi --n 20000"; do
      # shellcheck disable=SC2086
      run 0 --scene $s --frames 20 --size 640x400
      clean_gl
    done
    # Each lab to the end (the last frame waits for it), small sizes where the default is slow.
    for lab in $("$app" bench no_such_target 2>&1 | sed -n 's/.*known: \(.*\))/\1/p' | tr -d ,); do
      case $lab in fountain | swarm | nbody | splat | kernel) continue ;; esac  # kernel: needs --source
      run 0 --scene pi --n 1000 --lab "$lab" --frames 5 --size 640x400
      clean_gl
      has '"lab_state":"done"'
    done
    ;;
  storm)
    CUDAVIZ_RESIZE_STORM=1 run 0 --soak 400
    clean_gl
    has '"resize_storm":{"passes":'
    grep -q '"resizes":0,' <<<"$json" && fail "the storm did not resize"
    grep -o '"resize_storm":{[^}]*}' <<<"$json"
    ;;
  fault)
    CUDAVIZ_FAULT='launch:cpu swarm step:after=5' run 1 --scene swarm --n 4096 --frames 30
    grep -q 'cpu swarm step \[injected by CUDAVIZ_FAULT\] failed: cudaErrorLaunchFailure' "$err" ||
      fail "no message naming the call and the error"
    grep -q 'the run ended with an error' "$err" || fail "no end-of-run error"
    has '"frames":30'  # the app kept drawing after the fault
    clean_gl
    ;;
  fault_soak)
    # Fountain fails once; the soak goes on through swarm, n-body and pi.
    CUDAVIZ_FAULT='launch:cpu fountain step:after=3' run 1 --soak 400
    has '"errors":["fountain: cpu fountain step [injected by CUDAVIZ_FAULT] failed: cudaErrorLaunchFailure'
    has '"frames":400'
    for s in swarm nbody pi; do
      grep -q "\"$s\":[1-9]" <<<"$json" || fail "the $s scene did not step after the fault"
    done
    clean_gl
    ;;
  close_lab)
    # sum3's default run takes seconds on the CPU: the window closes at frame 5, mid-run.
    # close_ms is the app's own time from the close to the lab cancelled and joined: a
    # wall clock around the run would also count start-up, which on a runner busy with
    # parallel window tests took over 10 s.
    start=$(date +%s%N)
    CUDAVIZ_CLOSE_AT_FRAME=5 run 0 --scene pi --n 1000 --lab sum3 --frames 100000
    wall=$((($(date +%s%N) - start) / 1000000))
    has '"lab_state":"cancelled"'
    ms=$(grep -o '"close_ms":[0-9.]*' <<<"$json" | cut -d: -f2 | cut -d. -f1)
    [ -n "$ms" ] || fail "the summary lacks close_ms"
    echo "closed with the lab running: workers stopped ${ms} ms after the close (${wall} ms with start-up)"
    [ "$ms" -lt 5000 ] || fail "took ${ms} ms from the close to the workers stopped"
    clean_gl
    ;;
  signal)
    # As close_lab, but the close comes from the terminal (process/stop_signal.h).
    # With DISPLAY set, with_xvfb.sh execs the app: $! is the app.
    "${xrun[@]}" "$app" --backend cpu --scene pi --n 1000 --lab sum3 --frames 100000 >"$err.out" 2>"$err" &
    pid=$!
    for _ in $(seq 1 300); do grep -q "^backend:" "$err" && break; sleep 0.1; done
    sleep 1  # some frames, the lab under way
    kill -INT "$pid"
    start=$(date +%s%N)
    for _ in $(seq 1 400); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done  # up to 20 s
    ms=$((($(date +%s%N) - start) / 1000000))
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
    set +e
    wait "$pid"
    rc=$?
    set -e
    json=$(tail -n 1 "$err.out")
    rm -f "$err.out"
    echo "SIGINT -> exit $rc after ${ms} ms"
    [ "$rc" = 0 ] || fail "exit $rc after SIGINT, expected 0"
    has '"stopped_by":"SIGINT"'
    grep -q "SIGINT: closing" "$err" || fail "the app did not say why it closed"
    [ "$ms" -lt 20000 ] || fail "took ${ms} ms to close after SIGINT"
    clean_gl
    ;;
  soak)
    run 0 --soak "${SOAK_FRAMES:-3000}"
    clean_gl
    has '"passed":true'
    grep -o '"host_rss":{[^}]*}' <<<"$json"
    ;;
  reopen)
    kernel=$(dirname "$0")/../../assets/kernels/fountain_particle.cu
    CUDAVIZ_FAULT=launch:gl-context-reset:after=5 run 0 --kernel "$kernel" --block 8x4 --frames 30
    grep -q "reopening the window (1)" "$err" || fail "no reopen reported"
    has '"window_reopened":"the GPU was reset and the window'"'"'s OpenGL context was lost (GL_UNKNOWN_CONTEXT_RESET)'
    has '"frames":30'
    has '"block":[8,4,1]'            # the state came back
    has '"kernel_state":"off"'       # not running: it may be what reset the GPU
    clean_gl
    ;;
  stall)
    cfg=$(mktemp -d)
    kernel=$(dirname "$0")/../../assets/kernels/fountain_particle.cu
    start=$(date +%s)
    XDG_CONFIG_HOME=$cfg CUDAVIZ_FAULT=launch:frame-stall:after=3 run 1 --kernel "$kernel" --frames 300
    took=$(( $(date +%s) - start ))
    [ "$took" -lt 40 ] || fail "the watchdog took $took s (limit 15 s)"
    grep -q "has not drawn a frame for 1[5-9] s since an injected stall" "$err" || fail "no stall message"
    cmp -s "$kernel" "$cfg/cudaviz/recovered-kernel.cu" || fail "the kernel was not saved"
    grep -q "$cfg/cudaviz/recovered-kernel.cu" "$err" || fail "the saved kernel's path not named"
    rm -rf "$cfg"
    ;;
  *)
    echo "unknown mode $mode"
    exit 2
    ;;
esac
echo PASS
