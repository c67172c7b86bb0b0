#!/usr/bin/python3
"""Usage: class_pictures.py WITH_XVFB CUDAVIZ LESSON STEP OUT.png [PHONES]

Pictures of the teacher's view for docs/screenshots (not a test): the app
plays step STEP of LESSON in presentation mode at 1920x1080 with the class
server while PHONES (default 27) simulated phones join and vote (choices
weighted towards the first ones; numbers spread over a factor of ten), so
OUT-stepK-before.png shows the live counts and OUT-stepK-after.png the
reveal beside the class's votes."""
import random
import sys
import time

from class_common import App, request


def main():
    xvfb, app, lesson, step, out = sys.argv[1:6]
    phones = int(sys.argv[6]) if len(sys.argv) > 6 else 27
    a = App(xvfb, app, ["--backend", "cpu", "--lesson", lesson, "--step", step, "--frames", "60",
                        "--present", "--size", "1920x1080", "--class-server", "127.0.0.1:0",
                        "--screenshot", out], screen="-screen 0 1920x1080x24")
    if not a.wait_server(90):
        sys.exit("no class server line\n" + a.stderr_tail())
    tokens = []
    for _ in range(phones):
        s, j = request(a.port, "POST", "/api/join", {"code": a.code})
        if s == 200:
            tokens.append(j["token"])
    end = time.time() + 60
    q = {}
    while time.time() < end:
        s, q = request(a.port, "GET", "/api/step", token=tokens[0])
        if s == 200 and q.get("open") and q.get("kind") in ("choice", "number"):
            break
        time.sleep(0.2)
    rng = random.Random(4)
    for i, t in enumerate(tokens[:-3]):  # a few joined but have not voted
        if q["kind"] == "choice":
            n = len(q["choices"])
            body = {"choice": min(n - 1, int(rng.expovariate(0.9)))}
        else:
            body = {"value": round(10 ** rng.uniform(0, 1.3), 1)}
        body.update({"token": t, "round": q["round"]})
        request(a.port, "POST", "/api/vote", body)
    rc, summary = a.finish(300)
    print("exit", rc, summary.get("class") if summary else a.stderr_tail())


if __name__ == "__main__":
    main()
