#!/usr/bin/python3
"""Usage: class_load_test.py WITH_XVFB CUDAVIZ LESSON

The real app under Xvfb plays a step with a question while 300 simulated
phones join, vote and change their vote (then poll once a second, as the
page does), against the same run without the server (the classroom's targets, docs/class_server.md):
  - the 300 phones' joins and votes within 10 s, every vote answered 200;
  - every phone counted exactly once, with its last vote (the step's
    "class_votes" in the summary);
  - vote-to-frame latency p99 <= 200 ms (the app's own measurement:
    accepted by the server -> first frame whose snapshot has it), where the
    frames themselves take at most 100 ms at p99;
  - the frame time's p99 unchanged within 1 ms (both runs capped at 60 fps).
A machine shared with other work gets up to three pairs of runs; each pair
is printed. The frame-time target needs cores to spare for the server, the
300 simulated phones (this script) and the renderer (llvmpipe under Xvfb):
on a machine with fewer than 8 cores the frame-time and latency targets are
measured and printed, not enforced (the counting targets always are). Loopback only; every
run ends by itself (--frames)."""
import os
import sys
import threading
import time
import random

from class_common import phone_address, App, percentile, request, wait_for_question

PHONES, THREADS = 300, 24


def run(xvfb, app, lesson, server):
    args = ["--backend", "cpu", "--scene", "fountain", "--n", "4096", "--size", "640x400",
            "--lesson", lesson, "--step", "1", "--frames", "120", "--fps-cap", "60"]
    if server:
        args += ["--class-server", "127.0.0.1:0"]
    a = App(xvfb, app, args, screen="-screen 0 800x600x24")
    load = None
    if server:
        if not a.wait_server(60):
            a.stop()
            sys.exit("FAIL: no 'class server:' line\n" + a.stderr_tail())
        round_ = wait_for_question(a.port, a.code, "choice", 30)
        if round_ is None:
            a.stop()
            sys.exit("FAIL: the step's question never reached the phones")
        load = phones(a.port, a.code, round_, a.proc)
    rc, summary = a.finish(120)
    if rc != 0 or summary is None:
        sys.exit(f"FAIL: the app exited {rc}\n" + a.stderr_tail())
    return summary, load


def phones(port, code, round_, proc):
    final = [None] * PHONES
    failures = []
    latencies = []
    lock = threading.Lock()
    t0 = time.time()
    done = threading.Event()
    tokens = [None] * PHONES

    def worker(w):
        rng = random.Random(w)
        for i in range(w, PHONES, THREADS):
            s, j = request(port, "POST", "/api/join", {"code": code}, source=phone_address(i))
            if s != 200:
                failures.append(("join", s))
                continue
            tokens[i] = j["token"]
            if request(port, "GET", "/api/step", token=tokens[i], source=phone_address(i))[0] != 200:
                failures.append(("step", i))
            for _ in range(2):  # a vote, then a change of mind
                c = rng.randrange(2)
                t = time.time()
                s, _j = request(port, "POST", "/api/vote",
                                {"token": tokens[i], "round": round_, "choice": c}, source=phone_address(i))
                if s != 200:
                    failures.append(("vote", s))
                    continue
                with lock:
                    latencies.append((time.time() - t) * 1000)
                final[i] = c

    def poller(w):  # then every phone follows the step once a second until the app ends
        while proc.poll() is None:
            start = time.time()
            for i in range(w, PHONES, THREADS):
                if tokens[i] and proc.poll() is None:
                    request(port, "GET", "/api/step", token=tokens[i], timeout=2, source=phone_address(i))
            time.sleep(max(0.0, 1.0 - (time.time() - start)))

    ws = [threading.Thread(target=worker, args=(w,)) for w in range(THREADS)]
    for t in ws:
        t.start()
    for t in ws:
        t.join()
    seconds = time.time() - t0
    done.set()
    for w in range(THREADS):
        threading.Thread(target=poller, args=(w,), daemon=True).start()
    return {"seconds": seconds, "final": final, "failures": failures,
            "request_ms_p99": percentile(latencies, 99)}


def main():
    xvfb, app, lesson = sys.argv[1:4]
    cores = os.cpu_count() or 1
    # The timing targets need cores to spare (see above); counting is enforced everywhere.
    enforce_timing = cores >= 8
    ok = False
    for attempt in range(3):
        base, _ = run(xvfb, app, lesson, False)
        loaded, load = run(xvfb, app, lesson, True)
        cls = loaded.get("class", {})
        step = loaded["lesson"]["step_reports"][0]
        votes = step.get("class_votes", {})
        expected = [sum(1 for c in load["final"] if c == k) for k in range(2)]
        d = loaded["frame_ms_p99"] - base["frame_ms_p99"]
        print(f"pair {attempt + 1}: frame_ms p99 {base['frame_ms_p99']:.2f} without the server, "
              f"{loaded['frame_ms_p99']:.2f} with 300 phones (difference {d:+.2f} ms); "
              f"p50 {base['frame_ms_p50']:.2f} / {loaded['frame_ms_p50']:.2f}; "
              f"phones done in {load['seconds']:.2f} s, request p99 {load['request_ms_p99']:.1f} ms, "
              f"vote-to-frame p99 {cls.get('vote_to_frame_ms_p99')} ms; "
              f"counts {votes.get('counts')} (expected {expected}), voted {votes.get('voted')}, "
              f"answered 4xx {cls.get('answered_4xx')}")
        problems = []
        if load["failures"]:
            problems.append(f"{len(load['failures'])} requests failed: {load['failures'][:5]}")
        if load["seconds"] > 10:
            problems.append(f"the phones took {load['seconds']:.1f} s (> 10 s)")
        if votes.get("counts") != expected or votes.get("voted") != PHONES:
            problems.append("the votes were not each counted once")
        if cls.get("votes_accepted") != 2 * PHONES or cls.get("joined") != PHONES + 1:
            problems.append(f"accepted {cls.get('votes_accepted')} votes from {cls.get('joined')} joins")
        # A vote waits for the next frame to be seen: where frames themselves take
        # over 100 ms (a starved machine), 200 ms measures the machine, not the server.
        late = cls.get("vote_to_frame_ms_p99", 1e9)
        if late > 200 and enforce_timing and loaded["frame_ms_p99"] <= 100:
            problems.append("vote-to-frame latency p99 over 200 ms")
        elif late > 200:
            print(f"NOTE: vote-to-frame p99 {late:.0f} ms (frames p99 {loaded['frame_ms_p99']:.0f} ms) "
                  f"on a {cores}-core machine: not enforced here (ClassHttp.ThreeHundredPhones* "
                  f"measures the server against a 60 Hz reader)")
        if problems:  # counting is not noise: fail at once
            sys.exit("FAIL: " + "; ".join(problems))
        if abs(d) <= 1.0:
            ok = True
            break
        if not enforce_timing:  # one pair shows the numbers; more would not enforce anything
            break
    if not ok and not enforce_timing:
        print(f"NOTE: the frame time's p99 moved by more than 1 ms on a "
              f"{cores}-core machine, where the phones' simulation and the server share the "
              f"renderer's cores; not enforced under 8 cores (run it on a larger machine)")
    elif not ok:
        sys.exit("FAIL: the frame time's p99 moved by more than 1 ms in three pairs of runs")
    print("ok")


if __name__ == "__main__":
    main()
