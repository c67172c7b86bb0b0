#!/usr/bin/env python3
"""Which of the last CTest run's failures were LeakSanitizer's own tracer crashing.

Usage: scripts/lsan_tracer_crashes.py BUILD_DIR
       scripts/lsan_tracer_crashes.py --self-test

At process exit LSan stops the world with a ptrace tracer that walks every
thread's stack and TLS; now and then (a known, unfixed LSan flake:
google/sanitizers#1353) the tracer itself takes SIGSEGV and LSan ends the
process with "LeakSanitizer has encountered a fatal error" after every test in
it passed. That says nothing about our code, so scripts/sanitize.sh runs such
tests once more. This script decides which failures those are, from
Testing/Temporary/LastTest.log: a failure counts only when its output has the
tracer's crash line, LSan's fatal-error line, gtest's PASSED line and no
FAILED line, and no sanitizer report. Prints a CTest -R regex naming them and
exits 0 when every failure is such a crash; exits 1 (printing why) otherwise,
so a real failure is never run again to hide it. --self-test plants logs of
each kind (a tracer crash, a leak, an ASan report, a failed assertion, a
crash before gtest finished) and checks each verdict.
"""
import re
import sys
import tempfile
from pathlib import Path

REPORT = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer: detected)|runtime error:")


def tests_of(log: str):
    """(name, output, passed) for each test in CTest's LastTest.log."""
    blocks = re.split(r"^\d+/\d+ Testing: ", log, flags=re.M)[1:]
    for block in blocks:
        name = block.split("\n", 1)[0].strip()
        # A skipped test is "Test Pass Reason: Skip regular expression found".
        passed = re.search(r"^Test Pass(ed\.$| Reason:)", block, flags=re.M) is not None
        yield name, block, passed


def tracer_crash_only(output: str) -> bool:
    return ("Tracer caught signal" in output
            and "LeakSanitizer has encountered a fatal error" in output
            and re.search(r"^\[  PASSED  \]", output, flags=re.M) is not None
            and re.search(r"^\[  FAILED  \]", output, flags=re.M) is None
            and REPORT.search(output) is None)


def rerun_regex(build: Path):
    """(exit code, the -R regex or the reason) for BUILD_DIR's last run."""
    path = build / "Testing" / "Temporary" / "LastTest.log"
    try:
        log = path.read_text(errors="replace")
    except OSError as e:
        return 1, f"cannot read {path}: {e}"
    failed = [(n, out) for n, out, passed in tests_of(log) if not passed]
    if not failed:
        return 1, f"{path} lists no failed test"
    real = [n for n, out in failed if not tracer_crash_only(out)]
    if real:
        return 1, "real failures (not LSan's tracer): " + ", ".join(real)
    return 0, "^(" + "|".join(re.escape(n) for n, _ in failed) + ")$"


GTEST_OK = "[       OK ] {n} (5 ms)\n[==========] 1 test ran.\n[  PASSED  ] 1 test.\n"
TRACER = ("Tracer caught signal 11: addr=0x2408 pc=0x7f0 sp=0x7f0\n"
          "==1==LeakSanitizer has encountered a fatal error.\n")


def planted(name: str, output: str, passed: bool) -> str:
    return (f"1/2 Testing: {name}\n1/2 Test: {name}\nOutput:\n"
            "----------------------------------------------------------\n"
            f"[ RUN      ] {name}\n{output}<end of output>\n"
            "----------------------------------------------------------\n"
            + ("Test Passed.\n" if passed else "Test Failed.\n")
            + "----------------------------------------------------------\n\n")


def self_test() -> int:
    ok_test = planted("A.Passes", GTEST_OK.format(n="A.Passes"), True)
    ok_test += planted("A.Skips", "[  SKIPPED ] 1 test\n", True).replace(
        "Test Passed.", "Test Pass Reason:\nSkip regular expression found in output.")
    crash = planted("A.Crash/1", GTEST_OK.format(n="A.Crash/1") + TRACER, False)
    cases = {
        "only tracer crashes": (ok_test + crash, 0),
        "a leak": (crash + planted("B.Leaks", GTEST_OK.format(n="B.Leaks")
                   + "==1==ERROR: LeakSanitizer: detected memory leaks\n", False), 1),
        "an ASan report before the tracer crash": (planted(
            "C.Asan", "==1==ERROR: AddressSanitizer: heap-use-after-free\n"
            + GTEST_OK.format(n="C.Asan") + TRACER, False), 1),
        "UBSan": (planted("D.Ub", "x.cpp:3:5: runtime error: signed integer overflow\n"
                          + GTEST_OK.format(n="D.Ub") + TRACER, False), 1),
        "a failed assertion": (planted("E.Fails", "[  FAILED  ] E.Fails\n" + TRACER, False), 1),
        "a crash before gtest finished": (planted("F.Dies", TRACER, False), 1),
        "nothing failed": (ok_test, 1),
    }
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        log = Path(d) / "Testing" / "Temporary" / "LastTest.log"
        log.parent.mkdir(parents=True)
        for what, (text, want) in cases.items():
            log.write_text("Start testing: now\n" + text)
            code, said = rerun_regex(Path(d))
            if code != want:
                print(f"self-test: {what}: exit {code}, wanted {want} ({said})")
                bad += 1
        log.write_text(ok_test + crash)
        code, said = rerun_regex(Path(d))
        if said != r"^(A\.Crash/1)$" or not re.fullmatch(said, "A.Crash/1"):
            print(f"self-test: the regex {said!r} names exactly A.Crash/1")
            bad += 1
    print("self-test: " + ("ok" if not bad else f"{bad} wrong"))
    return 1 if bad else 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    code, said = rerun_regex(Path(sys.argv[1]))
    print(said if code == 0 else "lsan_tracer_crashes: " + said,
          file=sys.stdout if code == 0 else sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
