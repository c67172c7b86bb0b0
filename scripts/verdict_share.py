#!/usr/bin/env python3
"""The verdict's cost in edit to running, per template, from `cudaviz bench
kernel` lines (JSON, one a line; other lines are skipped).

Without the test set: edit_to_run_ms (compile, load, the first launch: the
median of bench's edits, timed before the verdict's work starts). With it:
edit_to_verdict_ms (the last edit, while the verdict's cases are made ready
beside its compile, then the verdict: every case's check and the other
cases' launches), else edit_to_run_ms + verdict_ms from a bench without that
field. share = (with - without) / without, the median over a template's runs:
work done beside the compile counts where it slowed the edit. race_ms: on a GPU, the race check on the CPU
emulator that follows a right answer (race_check_ms; the kernel tab shows the
verdict, then its race check), listed apart: it is not the test set. Exit 1 when a template's median share is over --limit
or a run was not judged correct, or (with --max-edit-ms) a median edit to
running is over that.

Usage: verdict_share.py BENCH.jsonl [--limit 0.20] [--max-edit-ms 150]
"""
import argparse
import json
import statistics
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("jsonl")
    ap.add_argument("--limit", type=float, default=0.20)
    ap.add_argument("--max-edit-ms", type=float, default=0.0)
    a = ap.parse_args()
    runs = {}
    for line in open(a.jsonl, errors="replace"):
        if not line.startswith("{"):
            continue
        j = json.loads(line)
        if j.get("edit_to_run_ms") and "verdict_ms" in j:
            runs.setdefault(j.get("template"), []).append(j)
    if not runs:
        print("FAIL: no bench kernel line with edit_to_run_ms and verdict_ms")
        return 1
    ok = True
    print(f"{'template':18s} {'n':>9s} runs  without_ms  with_ms  added_ms  share  race_ms  correct  slowest cases")
    for t, js in sorted(runs.items()):
        with_ms = lambda j: j.get("edit_to_verdict_ms", j["edit_to_run_ms"] + j["verdict_ms"])
        e2r = statistics.median(j["edit_to_run_ms"] for j in js)
        v = statistics.median(with_ms(j) - j["edit_to_run_ms"] for j in js)
        share = statistics.median((with_ms(j) - j["edit_to_run_ms"]) / j["edit_to_run_ms"] for j in js)
        race = statistics.median(j.get("race_check_ms", 0.0) for j in js)
        right = all(j.get("correct") is True for j in js)
        ok = ok and share <= a.limit and right and (a.max_edit_ms <= 0 or e2r <= a.max_edit_ms)
        slow = [(c["case"], round(c["ms"], 1)) for c in sorted(js[0].get("cases", []), key=lambda c: -c["ms"])[:2]]
        print(f"{t:18s} {js[0]['n']:>9} {len(js):4d} {e2r:11.1f} {e2r + v:8.1f} {v:9.1f} {share:6.3f} {race:8.1f}  "
              f"{str(right):7s}  {slow}")
    edit = f", median edit to running <= {a.max_edit_ms:g} ms" if a.max_edit_ms > 0 else ""
    print("PASS" if ok else "FAIL", f"(each template's median share <= {a.limit:.2f}{edit}, every run correct)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
