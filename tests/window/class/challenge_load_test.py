#!/usr/bin/python3
"""Usage: challenge_load_test.py WITH_XVFB CUDAVIZ KERNELS [--students N] [--backend cpu|cuda]
                                 [--seconds S] [--fps F] [--max-p99 S] [--max-frame-p99-delta MS]
                                 [--screenshot PNG] [--template count3|fountain_kernel] [--live FILE.cu]

Challenge mode under a class (docs/class_server.md, "Challenge mode"): the real
app under Xvfb with --challenge count3 and the class server on 127.0.0.1, N
simulated students (threads) each joining, choosing a name and submitting one
kernel at once: KERNELS/count3.cu (right), tests' count3_wrong.cu (wrong) and
KERNELS/count3_racy.cu (racy) in turn. Every verdict must be the right one
(right: correct; wrong: wrong; racy: wrong once explain ran). Prints the
submit-to-verdict p50/p99 (as the students saw it) and the window's frame-time
p99 with the load and in a run without it (at most 20 s of frames). --max-p99 and
--max-frame-p99-delta enforce targets (the GPU run); without them the figures
are printed. Bounded: the app runs at most S seconds (default 60), the students
give up with it; once every student has the final word it is closed (SIGTERM, as
Ctrl+C: it prints its summary). --template fountain_kernel: the students send the fountain's
kernel (right) and one with gravity's sign flipped (wrong) instead; --live
FILE.cu runs that kernel in the teacher's fountain meanwhile (--scene
fountain --kernel FILE.cu: the path the tab's "run in the scene" takes), so
the screenshot shows a student's kernel live beside the leaderboard."""
import argparse
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from class_common import App, percentile, phone_address, request  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def app_args(backend, seconds, fps, screenshot=None, template="count3", live=None):
    args = ["--backend", backend, "--challenge", template, "--class-server", "127.0.0.1:0",
            "--frames", str(int(seconds * fps)), "--fps-cap", str(fps), "--size", "1280x800"]
    if screenshot:  # the teacher's view at the end: the challenge tab (open with --challenge)
        args += ["--screenshot", screenshot]
    if live:  # a student's kernel in the teacher's scene
        args += ["--scene", "fountain", "--kernel", live]
    return args


def kernel_set(template, kernels):
    """The students' files for a template and the final verdict each must get."""
    if template == "fountain_kernel":
        return [(os.path.join(kernels, "fountain_kernel.cu"), "correct"),
                (os.path.join(HERE, "fountain_kernel_wrong.cu"), "wrong")]
    return [(os.path.join(kernels, "count3.cu"), "correct"),
            (os.path.join(HERE, "count3_wrong.cu"), "wrong"),
            (os.path.join(kernels, "count3_racy.cu"), "wrong")]


def student(port, code, i, source, expect, out, deadline):
    rec = {"i": i, "expect": expect}
    out[i] = rec
    me = phone_address(i)
    s, j = request(port, "POST", "/api/join", {"code": code}, source=me)
    if s != 200:
        rec["error"] = f"join {s} {j}"
        return
    token = j["token"]
    s, j = request(port, "POST", "/api/name", {"token": token, "name": f"student {i}"}, source=me)
    if s != 200:
        rec["error"] = f"name {s} {j}"
        return
    t0 = time.time()
    s, j = request(port, "POST", "/api/submit", {"token": token, "source": source}, timeout=10, source=me)
    if s != 202:
        rec["error"] = f"submit {s} {j}"
        return
    while time.time() - t0 < deadline:
        s, j = request(port, "GET", "/api/submissions", token=token, source=me)
        if s == 200 and j["submissions"]:
            sub = j["submissions"][0]
            if sub.get("outcome") and "verdict_s" not in rec:
                rec["verdict_s"] = time.time() - t0
                rec["server_s"] = sub.get("seconds_to_verdict")
                rec["first"] = sub["outcome"]
            if sub.get("outcome") and (sub.get("explained") or sub["outcome"] in ("compile error", "fault")):
                rec["final"] = sub["outcome"]
                rec["final_s"] = time.time() - t0
                rec["message"] = sub.get("message", "")
                rec["findings"] = sub.get("findings", [])
                return
        elif s == 403:
            rec["error"] = "token refused"
            return
        time.sleep(0.25)


def run(xvfb, app, kernels, n, backend, seconds, fps, load, screenshot=None, template="count3", live=None):
    a = App(xvfb, app, app_args(backend, seconds, fps, screenshot, template, live))
    if not a.wait_server(60):
        a.finish(10)
        sys.exit("FAIL: no class server line\n" + a.stderr_tail())
    results = {}
    if load:
        sources = [(open(f).read(), e) for f, e in kernel_set(template, kernels)]
        threads = []
        for i in range(n):
            src, expect = sources[i % len(sources)]
            t = threading.Thread(target=student, args=(a.port, a.code, i, src, expect, results, seconds - 5),
                                 daemon=True)
            threads.append(t)
        for t in threads:
            t.start()
        for t in threads:
            t.join(seconds + 30)
        # Every student has the final word (or gave up): the loaded run has what
        # it measures, so the app closes now, as Ctrl+C does, not after --frames.
        a.close()
    # --frames sets the longest run: on a loaded machine the frames come slower than --fps.
    rc, summary = a.finish(max(seconds * 6, seconds + 120))
    if rc != 0 or summary is None:
        sys.exit(f"FAIL: the app exited {rc}\n" + a.stderr_tail())
    return results, summary


def main():
    p = argparse.ArgumentParser()
    p.add_argument("xvfb")
    p.add_argument("app")
    p.add_argument("kernels")
    p.add_argument("--students", type=int, default=60)
    p.add_argument("--backend", default="cpu")
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--fps", type=int, default=60)
    p.add_argument("--max-p99", type=float)
    p.add_argument("--max-frame-p99-delta", type=float)
    p.add_argument("--screenshot", help="the loaded run's last frame, with the challenge tab open")
    p.add_argument("--template", default="count3", choices=["count3", "fountain_kernel"])
    p.add_argument("--live", help="a kernel file run in the teacher's fountain meanwhile (fountain_kernel)")
    o = p.parse_args()
    # The baseline needs only enough frames for their p99: at most 20 s of them.
    base_results, base = run(o.xvfb, o.app, o.kernels, 0, o.backend, min(o.seconds, 20), o.fps, False,
                             None, o.template, o.live)
    results, loaded = run(o.xvfb, o.app, o.kernels, o.students, o.backend, o.seconds, o.fps, True,
                          o.screenshot, o.template, o.live)
    bad = []
    lat, server, final = [], [], []
    for i, r in sorted(results.items()):
        if "error" in r:
            bad.append(f"student {i}: {r['error']}")
        elif "verdict_s" not in r or "final" not in r:
            bad.append(f"student {i}: no verdict within {o.seconds - 5:.0f} s")
        else:
            lat.append(r["verdict_s"])
            server.append(r["server_s"])
            final.append(r["final_s"])
            if r["final"] != r["expect"]:
                bad.append(f"student {i}: {r['final']} where {r['expect']} was right ({r['message']})")
    ch = loaded.get("challenge", {})
    print(f"students {o.students} on {o.backend} ({o.template}): {len(lat)} verdicts; runners {ch.get('runners')}")
    if lat:
        print(f"submit to verdict (students' view): p50 {percentile(lat, 50):.2f} s, p99 {percentile(lat, 99):.2f} s, "
              f"max {max(lat):.2f} s; the server's p99 {percentile(server, 99):.2f} s")
        print(f"submit to the final word (explain's race check): p50 {percentile(final, 50):.2f} s, "
              f"p99 {percentile(final, 99):.2f} s")
    print("stages (median ms): compile", ch.get("compile_ms_p50"), "run", ch.get("run_ms_p50"),
          "explain", ch.get("explain_ms_p50"))
    fb, fl = base.get("frame_ms_p99"), loaded.get("frame_ms_p99")
    print(f"window frame time p99: {fb} ms without the load, {fl} ms with it "
          f"(p50 {base.get('frame_ms_p50')} / {loaded.get('frame_ms_p50')} ms); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("built-ins:", ch.get("builtins"))
    for b in bad[:20]:
        print("  " + b)
    if o.live:  # the student's kernel ran in the teacher's fountain, not the built-in
        print("live kernel:", loaded.get("kernel_source"), loaded.get("kernel_state"), "kernel_ms",
              loaded.get("user_kernel_ms"))
        if loaded.get("kernel_source") != "yours" or loaded.get("kernel_state") != "ready":
            bad.append(f"the live kernel did not run in the scene ({loaded.get('kernel_state')})")
    if bad:
        sys.exit(f"FAIL: {len(bad)} students without the right verdict")
    if o.max_p99 is not None and percentile(lat, 99) > o.max_p99:
        sys.exit(f"FAIL: submit-to-verdict p99 {percentile(lat, 99):.2f} s is over {o.max_p99} s")
    if o.max_frame_p99_delta is not None and fb is not None and fl is not None and fl - fb > o.max_frame_p99_delta:
        sys.exit(f"FAIL: the frame time p99 grew {fl - fb:.2f} ms (at most {o.max_frame_p99_delta})")
    print("ok")


if __name__ == "__main__":
    main()
