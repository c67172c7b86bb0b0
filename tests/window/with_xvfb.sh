#!/usr/bin/env bash
# Usage: with_xvfb.sh [-s "XVFB ARGS"] COMMAND [ARGS...]
# Runs COMMAND in a display of its own and exits with COMMAND's exit code.
#
# Why not `xvfb-run -a`: tests running in parallel raced for display numbers
# (-a probes for a free one, then starts the server: two tests can pick the
# same), and xvfb-run's own cleanup could turn an app's exit 1 into exit 5
# ("problem while cleaning up temporary directory"). Here Xvfb chooses a free
# display itself (-displayfd: it takes the display's lock atomically and writes
# the number once it accepts connections), the auth cookie lives in a private
# `mktemp -d`, and the verdict is COMMAND's: cleanup problems are reported on
# stderr, never in the exit code.
#
# With DISPLAY already set, COMMAND runs there directly. Exit 125 when no
# display could be started (never 0, 1 or 2, which tests expect from the app).
# XVFB ARGS default to "-screen 0 1280x800x24".
set -uo pipefail
server_args="-screen 0 1280x800x24"
if [ "${1:-}" = "-s" ]; then
  server_args=$2
  shift 2
fi
[ $# -gt 0 ] || { echo "with_xvfb.sh: no command given" >&2; exit 125; }
if [ -n "${DISPLAY:-}" ]; then exec "$@"; fi

harness_fail() { echo "with_xvfb.sh: $*" >&2; exit 125; }
command -v Xvfb >/dev/null || harness_fail "Xvfb not installed (apt-get install xvfb xauth)"
command -v xauth >/dev/null || harness_fail "xauth not installed (apt-get install xauth)"

dir=$(mktemp -d "${TMPDIR:-/tmp}/cudaviz-xvfb.XXXXXXXX") || harness_fail "mktemp -d failed"
xvfb_pid=""
cleanup() {
  if [ -n "$xvfb_pid" ]; then
    kill "$xvfb_pid" 2>/dev/null
    for _ in $(seq 1 50); do  # a server that ignores TERM for 5 s is killed
      kill -0 "$xvfb_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$xvfb_pid" 2>/dev/null
    wait "$xvfb_pid" 2>/dev/null  # reaped: its lock file and socket are gone
    xvfb_pid=""
  fi
  rm -rf "$dir" 2>/dev/null || echo "with_xvfb.sh: could not remove $dir (ignored)" >&2
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP

# The server reads every cookie of its -auth file whatever the display number,
# so the cookie can be written before the number is known; the client's file
# gets it under the real number below.
: >"$dir/server.auth" && : >"$dir/Xauthority" || harness_fail "cannot write in $dir"
cookie=$(mcookie 2>/dev/null || od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
xauth -q -f "$dir/server.auth" add :0 MIT-MAGIC-COOKIE-1 "$cookie" ||
  harness_fail "xauth could not write $dir/server.auth"
# -noreset: a client that closes its last window and opens another (the app reopening
# its window after a lost GL context) must not find the server in the middle of a reset.
# shellcheck disable=SC2086  # server_args are words, like xvfb-run's -s
Xvfb -displayfd 3 -auth "$dir/server.auth" -nolisten tcp -noreset $server_args \
  3>"$dir/displayfd" </dev/null >"$dir/xvfb.log" 2>&1 &
xvfb_pid=$!

display=""
for _ in $(seq 1 300); do  # up to 30 s on a loaded 2-core runner
  display=$(head -n 1 "$dir/displayfd" 2>/dev/null)
  [ -n "$display" ] && break
  kill -0 "$xvfb_pid" 2>/dev/null || { cat "$dir/xvfb.log" >&2; harness_fail "Xvfb exited at start"; }
  sleep 0.1
done
[ -n "$display" ] || { cat "$dir/xvfb.log" >&2; harness_fail "Xvfb did not report a display in 30 s"; }

export XAUTHORITY="$dir/Xauthority" DISPLAY=":$display"
xauth -q -f "$XAUTHORITY" add "$DISPLAY" MIT-MAGIC-COOKIE-1 "$cookie" ||
  harness_fail "xauth could not write $XAUTHORITY"

"$@"
rc=$?
cleanup
exit "$rc"
