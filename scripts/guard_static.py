#!/usr/bin/env python3
"""Static figures of the guard without a GPU (docs/guard.md "Static figures").

   guard_static.py DIR [BEFORE_DIR]

DIR (and BEFORE_DIR) hold guard_dump --out's NAME.raw.ptx / NAME.guarded.ptx
(in sub-folders or not). Per kernel: PTX instructions of the entry's inline
code (up to its last `ret`: the out-of-line failure and slow paths left out,
and the checked copies of proven loops and the table scans too, which a
passed check does not run), its branches, and ptxas -v registers and spill
bytes for sm_90. A proxy only: instructions counted once, not per trip; the
innermost loops' figures come from guard_dump. BEFORE_DIR adds the guarded
figures of another build (e.g. the last GPU call's dump) beside them.
"""
import glob
import os
import re
import subprocess
import sys

SKIP = [(re.compile(r"^\$cvg_l\d+_slow:"), re.compile(r"^\$cvg_l\d+_after:")),
        (re.compile(r"^\$cv[gl]_\w*?loop:"), re.compile(r"^\$cv[gl]_\w*?checked:"))]


def inline_figures(path):
    lines = [l.strip() for l in open(path)]
    start = next(i for i, l in enumerate(lines) if ".entry" in l)
    rets = [i for i, l in enumerate(lines) if i > start and re.match(r"^(@\S+\s+)?ret;", l)]
    end = rets[-1] if rets else len(lines)
    n = br = 0
    skip_until = None
    for l in lines[start:end + 1]:
        if skip_until is not None:
            if skip_until.match(l):
                skip_until = None
            continue
        hit = [e for s, e in SKIP if s.match(l)]
        if hit:
            skip_until = hit[0]
            continue
        if not l or l.startswith(("//", ".", "$", "{", "}", ")")) or not l.endswith(";"):
            continue
        n += 1
        if re.match(r"^(@!?%\w+\s+)?bra", l):
            br += 1
    return n, br


def ptxas(path):
    try:
        r = subprocess.run(["ptxas", "-v", "-arch=sm_90", path, "-o", "/dev/null"], capture_output=True, text=True,
                           timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"ptxas: {e}"
    regs = re.findall(r"Used (\d+) registers", r.stderr)
    spill = re.findall(r"(\d+) bytes spill stores", r.stderr)
    return f"{max(map(int, regs)) if regs else '?'}r/{max(map(int, spill)) if spill else 0}sp"


def kernels(d):
    found = {}
    for p in sorted(glob.glob(os.path.join(d, "**", "*.raw.ptx"), recursive=True)):
        rel = os.path.relpath(p, d)[:-len(".raw.ptx")]
        found[rel] = p[:-len(".raw.ptx")]
    return found


def main():
    now = kernels(sys.argv[1])
    before = kernels(sys.argv[2]) if len(sys.argv) > 2 else {}
    by_name = {os.path.basename(k): v for k, v in before.items()}
    print(f"{'kernel':38} {'raw':>9} {'guarded':>9} {'ratio':>6} {'regs raw':>9} {'guarded':>9}"
          + (f" | {'before':>9} {'ratio':>6} {'regs':>9}" if before else ""))
    for k, stem in now.items():
        rn, rb = inline_figures(stem + ".raw.ptx")
        gn, gb = inline_figures(stem + ".guarded.ptx")
        line = (f"{k:38} {rn:5}/{rb:<3} {gn:5}/{gb:<3} {gn / max(rn, 1):6.2f} {ptxas(stem + '.raw.ptx'):>9} "
                f"{ptxas(stem + '.guarded.ptx'):>9}")
        # A flat BEFORE_DIR (one --out for every file) kept the last of equal names.
        last = [j for j in now if os.path.basename(j) == os.path.basename(k)][-1] == k
        b = before.get(k) or (by_name.get(os.path.basename(k)) if last else None)
        if b:
            bn, bb = inline_figures(b + ".guarded.ptx")
            line += f" | {bn:5}/{bb:<3} {bn / max(rn, 1):6.2f} {ptxas(b + '.guarded.ptx'):>9}"
        print(line)


if __name__ == "__main__":
    main()
