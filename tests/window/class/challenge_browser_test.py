#!/usr/bin/python3
"""Usage: challenge_browser_test.py WITH_XVFB CUDAVIZ KERNELS OUTDIR

Challenge mode in a real browser (Debian's chromium, headless, through
python3-selenium and chromium-driver) against the app with --challenge count3
and the class server on 127.0.0.1 (CPU backend): join with the code and a
name (a bad name refused with the rule), the editor (CodeMirror) holding the
template's starting file, then submit a kernel that does not compile (its
line marked), a wrong one (the first failing case in words), a racy one
(explain's race makes it wrong) and a right one (correct, its time against
the built-ins, on the leaderboard under the name). Screenshots at a laptop's
1280x800 and a phone's 390x844 land in OUTDIR. Exit 77 (skipped) without
chromium, chromium-driver or python3-selenium."""
import base64
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from class_common import App  # noqa: E402

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))


def skip(why):
    print(f"SKIPPED: {why}")
    sys.exit(SKIP)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    skip("python3-selenium is not installed (apt-get install python3-selenium)")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not CHROMIUM or not DRIVER:
    skip("chromium or chromium-driver is not installed (apt-get install chromium chromium-driver)")


def browser():
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--no-first-run", "--disable-extensions", "--window-size=1280,800", "--no-proxy-server"):
        o.add_argument(a)
    return webdriver.Chrome(service=Service(DRIVER), options=o)


def text(d, id_):
    return d.find_element(By.ID, id_).text


def submit(d, source, want, timeout=90):
    """Puts `source` in the editor, submits, waits for the final outcome; returns it."""
    d.execute_script("document.querySelector('.CodeMirror').CodeMirror.setValue(arguments[0])", source)
    WebDriverWait(d, 20).until(lambda d: d.find_element(By.ID, "submit").is_enabled())
    before = text(d, "outcome").split(":")[0]  # "#3": the last submission's verdict, still shown
    d.find_element(By.ID, "submit").click()
    end = time.time() + timeout
    while time.time() < end:
        o = text(d, "outcome")
        f = text(d, "findings")
        final = "so far" not in o and "explain is looking" not in f
        if o.split(":")[0] != before and want in o and final:
            return o
        time.sleep(0.3)
    sys.exit(f"FAIL: no '{want}' verdict in {timeout} s (outcome '{text(d, 'outcome')}', "
             f"message '{text(d, 'message')}', findings '{text(d, 'findings')}')")


def in_view(d, id_):
    return d.execute_script("const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                            "return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;", id_)


def full_page(d, path):
    """The whole page at the window's width in one picture (chromium's DevTools)."""
    m = d.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = d.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": m["width"], "height": min(m["height"], 8000), "scale": 1}})
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def check(d, a, kernels, out):
    if not a.wait_server(60):
        sys.exit("FAIL: no class server line\n" + a.stderr_tail())
    d.get(f"http://127.0.0.1:{a.port}/challenge.html#{a.code}")
    WebDriverWait(d, 20).until(lambda d: d.find_element(By.ID, "code").get_attribute("value") == a.code)
    d.save_screenshot(os.path.join(out, "challenge-join.png"))
    d.find_element(By.ID, "name").send_keys("<b>x</b>")
    d.find_element(By.ID, "join").click()
    WebDriverWait(d, 20).until(lambda d: "1 to 20 characters" in text(d, "join-error"))
    d.find_element(By.ID, "name").clear()
    d.find_element(By.ID, "name").send_keys("Ada")
    d.find_element(By.ID, "join").click()
    WebDriverWait(d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".CodeMirror"))
    starter = d.execute_script("return document.querySelector('.CodeMirror').CodeMirror.getValue()")
    assert "template: count3" in starter, starter
    assert d.find_elements(By.CSS_SELECTOR, ".CodeMirror-linenumber"), "no line numbers"
    assert d.find_elements(By.CSS_SELECTOR, ".cm-keyword"), "no syntax colours"
    # Does not compile: the line is marked.
    bad = "// template: count3\nextern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n  nope;\n}\n"
    submit(d, bad, "compile error")
    assert "line 3" in text(d, "marks"), text(d, "marks")
    assert d.find_elements(By.CSS_SELECTOR, ".cm-error-line"), "the error line is not marked"
    d.save_screenshot(os.path.join(out, "challenge-compile-error.png"))
    wrong = submit(d, open(os.path.join(HERE, "count3_wrong.cu")).read(), "wrong")
    msg = text(d, "message")
    assert "wrong for" in msg and "expected" in msg, msg  # the verdict's first failing case
    submit(d, open(os.path.join(kernels, "count3_racy.cu")).read(), "wrong")
    assert "race" in text(d, "findings") or "race" in text(d, "message"), text(d, "findings")
    right = submit(d, open(os.path.join(kernels, "count3.cu")).read(), "correct")
    times = text(d, "times")
    assert "median" in times and "built-in" in times, times
    assert "launches on fresh data after the timing, each answer compared" in times, times  # the time comes from audited launches
    WebDriverWait(d, 20).until(lambda d: "Ada" in text(d, "rows"))
    print("verdicts:", wrong, "/", right, "| times:", times.splitlines()[0])
    print("leaderboard:", text(d, "rows").replace("\n", " | "))
    # On a laptop the verdict and the board sit beside the editor, in view.
    assert in_view(d, "outcome") and in_view(d, "rows"), "the verdict or the board is below the fold at 1280x800"
    d.save_screenshot(os.path.join(out, "challenge-laptop.png"))
    full_page(d, os.path.join(out, "challenge-laptop-full.png"))
    d.set_window_size(390, 844)
    time.sleep(0.5)
    wide = d.execute_script("return document.documentElement.scrollWidth")
    assert wide <= 390, f"the phone page is {wide} px wide in 390"
    d.save_screenshot(os.path.join(out, "challenge-phone.png"))
    full_page(d, os.path.join(out, "challenge-phone-full.png"))


def main():
    xvfb, app, kernels, out = sys.argv[1:5]
    os.makedirs(out, exist_ok=True)
    d = browser()
    a = App(xvfb, app, ["--backend", "cpu", "--challenge", "count3", "--class-server", "127.0.0.1:0",
                        "--frames", "9000", "--fps-cap", "30", "--size", "1920x1080",
                        "--screenshot", os.path.join(out, "teacher.png")],
            screen="-screen 0 1920x1080x24")
    try:
        check(d, a, kernels, out)
    finally:
        d.quit()
        a.stop()
    a.finish(30)
    print("ok")


if __name__ == "__main__":
    main()
