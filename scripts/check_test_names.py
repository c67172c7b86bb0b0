#!/usr/bin/env python3
"""CTest's test names read as words: no parameter dumps, no bare indices.

Usage: scripts/check_test_names.py --ctest CTEST --build DIR
       scripts/check_test_names.py --self-test
Lists the tests (`ctest -N`) and fails on a name carrying gtest's parameter
comment ("# GetParam() = 24-byte object <2C-D6 ...>", "TypeParam") or ending in
a bare instance number ("Shapes/Fountain.Matches/3"): a TEST_P suite names its
instances with INSTANTIATE_TEST_SUITE_P's fourth argument ("lean_16x16"), and
gtest_discover_tests runs with NO_PRETTY_VALUES (tests/CMakeLists.txt).
"""
import argparse, re, subprocess, sys

BAD = [(re.compile(r"GetParam\(\)|TypeParam|byte object <"), "a parameter dump"),
       (re.compile(r"/\d+$"), "a bare instance number (give the suite a name generator)")]
LISTED = re.compile(r"^\s*Test\s+#\d+: (.+)$")


def problems(names):
    return [f"{n}: {why}" for n in names for rx, why in BAD if rx.search(n)]


def self_test():
    plants = [("Shapes/FountainGpuVsCpu.MatchesCpuTwin/lean_16x16", 0),
              ("RealLabs/LabCancel.Stops/sum3_cpu  # GetParam() = 24-byte object <D6-68 AD-AD>", 1),
              ("Shapes/FountainGpuVsCpu.MatchesCpuTwin/3", 1),
              ("Typed/Suite/0.Test<TypeParam = int>", 1),
              ("app.lesson_004-particles", 0)]
    failed = 0
    for name, want in plants:
        got = len(problems([name]))
        failed += got != want
        print(f"{'ok  ' if got == want else 'FAIL'} {name}: {got} problem(s), expected {want}")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ctest")
    ap.add_argument("--build")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.ctest or not a.build:
        ap.error("--ctest and --build are needed")
    r = subprocess.run([a.ctest, "--test-dir", a.build, "-N"], capture_output=True, text=True,
                       timeout=120)
    names = [m.group(1).rstrip() for m in map(LISTED.match, r.stdout.splitlines()) if m]
    if r.returncode != 0 or not names:
        print(f"ctest -N in {a.build}: exit {r.returncode}, {len(names)} tests\n{r.stderr}")
        return 1
    found = problems(names)
    for p in found:
        print(f"unreadable test name: {p}", file=sys.stderr)
    print(f"{len(names)} test names, {len(found)} unreadable")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
