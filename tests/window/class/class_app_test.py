#!/usr/bin/python3
"""Usage: class_app_test.py WITH_XVFB CUDAVIZ LESSON

The app with the class server, without a browser:
  1. presentation mode at 1920x1080 with the lesson and the class panel: the
     scene keeps at least 60% of the screen ("scene_share" in the summary),
     no panel overlaps another, the server ran and printed its one line, and
     step 1's Run button was wholly in view with the QR code shown
     ("run_button_visible" of its step report);
  2. a port already in use: a clear message on stderr, and the app runs its
     frames to the end without the server (exit 0).
Loopback only; every run ends by itself (--frames)."""
import socket
import sys

from class_common import App


def main():
    xvfb, app, lesson = sys.argv[1:4]
    # 1. The projector's picture.
    a = App(xvfb, app, ["--backend", "cpu", "--lesson", lesson, "--step", "1", "--frames", "6",
                        "--present", "--size", "1920x1080", "--class-server", "127.0.0.1:0"],
            screen="-screen 0 1920x1080x24")
    rc, s = a.finish(180)
    lines = [l for l in a.out if l.startswith("class server: ")]
    if rc != 0 or s is None:
        sys.exit(f"FAIL: exit {rc}\n" + a.stderr_tail())
    print(f"presentation mode: scene_share {s.get('scene_share'):.3f}, layout_problems "
          f"{s.get('layout_problems')}, class {s.get('class')}")
    if len(lines) != 1 or not a.code:
        sys.exit(f"FAIL: expected exactly one 'class server:' line, got {lines}")
    if s.get("scene_share", 0) < 0.6:
        sys.exit("FAIL: the scene keeps under 60% of the screen in presentation mode")
    if s.get("layout_problems"):
        sys.exit("FAIL: panels overlap or clip")
    if not s.get("class", {}).get("running"):
        sys.exit("FAIL: the class server was not running")
    # The step's Run button in view before the run, with the QR code shown (it
    # folds only at the first reveal): the projector's teacher must not scroll.
    first = (s.get("lesson", {}).get("step_reports") or [{}])[0]
    if first.get("run_button_visible") is not True:
        sys.exit(f"FAIL: step 1's Run button was not wholly in view with the QR code shown: {first}")
    # 2. A port in use.
    held = socket.socket()
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    held.bind(("127.0.0.1", 0))
    held.listen(1)
    port = held.getsockname()[1]
    a = App(xvfb, app, ["--backend", "cpu", "--scene", "fountain", "--n", "4096", "--frames", "5",
                        "--class-server", f"127.0.0.1:{port}"])
    rc, s = a.finish(120)
    held.close()
    err = "".join(a.err)
    if rc != 0 or s is None or s.get("frames", 0) < 5:
        sys.exit(f"FAIL: with the port in use the app did not run on (exit {rc})\n{err[-2000:]}")
    if f"cannot listen on 127.0.0.1:{port}" not in err:
        sys.exit(f"FAIL: no clear message about port {port}:\n{err[-2000:]}")
    if a.code or s.get("class", {}).get("running"):
        sys.exit("FAIL: a server claimed to run on a port in use")
    print(f"port {port} in use: the app ran its frames; stderr said:",
          [l.strip() for l in a.err if "class server" in l])
    print("ok")


if __name__ == "__main__":
    main()
