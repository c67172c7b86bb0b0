#!/usr/bin/python3
"""Usage: class_browser_test.py WITH_XVFB CUDAVIZ LESSON OUTDIR

The students' page in a real browser (Debian's chromium, headless, driven by
python3-selenium through chromium-driver) against the app's class server on
127.0.0.1, the app playing LESSON in presentation mode at 1920x1080:
a wrong code refused; join with the code; vote, change the vote; the reveal
with the class's votes; a number sent and its histogram at the reveal; the
last answer kept on the next step. Screenshots of the page at a 390x844
phone viewport and of the teacher's view land in OUTDIR. The app's summary
must hold the votes each counted once. Exit 77 (CTest: skipped) when
chromium, chromium-driver or python3-selenium is missing."""
import os
import shutil
import sys
import time

from class_common import App

SKIP = 77


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
              "--no-first-run", "--disable-extensions", "--window-size=390,844",
              "--no-proxy-server"):  # loopback: never through a proxy
        o.add_argument(a)
    # A phone: 390x844 CSS pixels (an iPhone 12-14's), touch, twice as many device pixels.
    o.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0, "touch": True},
        "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 "
                     "(KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"})
    return webdriver.Chrome(service=Service(DRIVER), options=o)


def main():
    xvfb, app, lesson, out = sys.argv[1:5]
    os.makedirs(out, exist_ok=True)
    d = browser()  # before the app: the browser's start is the slow part
    a = App(xvfb, app, ["--backend", "cpu", "--lesson", lesson, "--frames", "40", "--fps-cap", "30",
                        "--present", "--size", "1920x1080", "--class-server", "127.0.0.1:0",
                        "--screenshot", os.path.join(out, "teacher.png")],
            screen="-screen 0 1920x1080x24")
    try:
        check(d, a, out)
    finally:
        d.quit()
    rc, summary = a.finish(240)
    if rc != 0 or summary is None:
        sys.exit(f"FAIL: the app exited {rc}\n" + a.stderr_tail())
    steps = summary["lesson"]["step_reports"]
    v1, v2 = steps[0].get("class_votes", {}), steps[2].get("class_votes", {})
    print("step 1 votes:", v1)
    print("step 2 votes:", v2)
    if v1.get("counts") != [0, 1] or v1.get("voted") != 1:
        sys.exit("FAIL: the changed vote was not counted once, for the second choice")
    if v2.get("numbers") != [25] or "measured_value" not in v2:
        sys.exit("FAIL: the number was not kept with the measurement")
    print("ok")


def wait(d, what, cond, timeout):
    try:
        return WebDriverWait(d, timeout, poll_frequency=0.2).until(lambda _d: cond())
    except Exception:
        d.save_screenshot("/tmp/class_browser_fail.png")
        sys.exit(f"FAIL: waited {timeout} s for {what}; page: "
                 + d.find_element(By.TAG_NAME, "body").text[:500])


def text(d, id_):
    return d.find_element(By.ID, id_).text


def visible(d, id_):
    return d.find_element(By.ID, id_).is_displayed()


def check(d, a, out):
    if not a.wait_server(90):
        sys.exit("FAIL: no 'class server:' line on stdout\n" + a.stderr_tail())
    print("server:", a.url, "code", a.code)
    d.get(a.url + "#" + a.code)  # what the QR code holds: the page fills the code in
    wait(d, "the code filled in from the address",
         lambda: d.find_element(By.ID, "code").get_attribute("value") == a.code, 20)
    d.get(a.url)
    d.refresh()
    wait(d, "the join form", lambda: visible(d, "code") and
         d.find_element(By.ID, "code").get_attribute("value") == "", 20)
    d.save_screenshot(os.path.join(out, "page-join.png"))
    # A wrong code is refused, and the page says so.
    d.find_element(By.ID, "code").send_keys("ZZZZ")
    d.find_element(By.ID, "join").click()
    wait(d, "the wrong code refused", lambda: "Wrong code" in text(d, "join-error"), 10)
    if visible(d, "vote-view"):
        sys.exit("FAIL: a wrong code reached the vote")
    # The right one (typed in lower case: case does not matter).
    field = d.find_element(By.ID, "code")
    field.clear()
    field.send_keys(a.code.lower())
    d.find_element(By.ID, "join").click()
    wait(d, "the first question", lambda: visible(d, "vote-view") and
         "keep drawing" in text(d, "question") and
         len(d.find_elements(By.CSS_SELECTOR, "#choices .choice")) == 2, 60)
    size = d.execute_script("return [window.innerWidth, window.innerHeight]")
    if size != [390, 844]:
        sys.exit(f"FAIL: the viewport is {size}, not 390x844")
    overflow = d.execute_script("return document.documentElement.scrollWidth > window.innerWidth")
    if overflow:
        sys.exit("FAIL: the page is wider than the phone")
    choices = d.find_elements(By.CSS_SELECTOR, "#choices .choice")
    choices[0].click()
    wait(d, "the first vote", lambda: text(d, "status").startswith("Voted: yes"), 10)
    d.find_elements(By.CSS_SELECTOR, "#choices .choice")[1].click()  # a change of mind
    wait(d, "the changed vote", lambda: text(d, "status").startswith("Voted: no"), 10)
    pressed = [c.get_attribute("aria-pressed") for c in d.find_elements(By.CSS_SELECTOR, "#choices .choice")]
    if pressed != ["false", "true"]:
        sys.exit(f"FAIL: the buttons show {pressed}")
    d.save_screenshot(os.path.join(out, "page-vote.png"))
    # The reveal: the measurement beside how the class voted (on the step, or
    # on the next one, which keeps the last answer in view).
    def revealed():
        if visible(d, "result") and text(d, "measured") == "yes":
            return "bars"
        if visible(d, "last") and text(d, "last-measured") == "yes":
            return "last-bars"
        return None
    where = wait(d, "the reveal", revealed, 180)
    bars = [b.text for b in d.find_elements(By.CSS_SELECTOR, f"#{where} .bar")]
    print("reveal:", where, bars)
    if len(bars) != 2 or not bars[1].endswith("1") or not bars[0].endswith("0"):
        sys.exit(f"FAIL: the reveal's bars read {bars}")
    if any(c.is_enabled() for c in d.find_elements(By.CSS_SELECTOR, "#choices .choice")):
        sys.exit("FAIL: voting still open after the reveal")
    d.save_screenshot(os.path.join(out, "page-reveal.png"))
    # A number, then its histogram at the reveal.
    wait(d, "the number question", lambda: visible(d, "number-form") and
         "milliseconds" in text(d, "question") and d.find_element(By.ID, "number").is_enabled(), 180)
    d.find_element(By.ID, "number").send_keys("25")
    d.find_element(By.ID, "send").click()
    wait(d, "the number sent", lambda: text(d, "status").startswith("Sent: 25"), 10)
    wait(d, "the number's reveal", lambda:
         (visible(d, "result") and len(d.find_elements(By.CSS_SELECTOR, "#bars .hist div")) == 8) or
         (visible(d, "last") and len(d.find_elements(By.CSS_SELECTOR, "#last-bars .hist div")) == 8), 180)
    d.save_screenshot(os.path.join(out, "page-number-reveal.png"))


if __name__ == "__main__":
    main()
