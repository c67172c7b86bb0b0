#!/usr/bin/env python3
"""SASS instructions of each cubin dump, in all and inside innermost loops.

Reads `cuobjdump -sass` outputs (one file each, e.g. K.raw.sass and
K.guarded.sass from guard_dump, scripts/gpu_guard_table.sh) and prints one
line a file: instructions, branches, and the instructions and branches in
loops that hold no other loop (a backward branch to an address at or before
it). For the guard's static cost: the hot loops of a guarded kernel should
hold as many instructions as the unguarded one's.
  python3 scripts/sass_loops.py DUMP.sass...
"""
import re
import sys


def parse(text):
    ins, labels = [], {}
    pending = []
    for line in text.split("\n"):
        lab = re.match(r"\s*(\.L_x_\d+):", line)
        if lab:
            pending.append(lab.group(1))
            continue
        m = re.search(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        for p in pending:
            labels[p] = addr
        pending = []
        ins.append((addr, m.group(2).strip()))
    return ins, labels


def target(text, labels):
    m = re.search(r"`\((\.L_x_\d+)\)", text)
    if m:
        return labels.get(m.group(1))
    m = re.search(r"\bBRA\b.*?0x([0-9a-f]+)", text)
    return int(m.group(1), 16) if m else None


def figures(text):
    ins, labels = parse(text)
    loops = []
    for addr, t in ins:
        words = t.split()
        op = words[1] if words[0].startswith("@") else words[0]
        if op.split(".")[0] != "BRA":
            continue
        to = target(t, labels)
        if to is not None and to <= addr:
            loops.append((to, addr))
    inner = [l for l in loops if not any(o != l and l[0] <= o[0] and o[1] <= l[1] for o in loops)]
    def count(lo, hi, branches=False):
        n = 0
        for a, t in ins:
            if lo <= a <= hi:
                n += (" BRA " in " " + t.replace("@", " ") + " ") if branches else 1
        return n
    sizes = sorted((count(lo, hi) for lo, hi in inner), reverse=True)
    return (len(ins), sum(" BRA " in " " + t + " " for _, t in ins), len(inner),
            sum(sizes), sum(count(lo, hi, True) for lo, hi in inner), sizes)


# A guarded kernel's proven loop appears twice (its proven and its checked
# copy): the sizes list shows each innermost loop's instructions.
print(f"{'dump':40} {'instr':>6} {'bra':>5} {'loops':>5} {'in-loop':>8} {'loop-bra':>8}  sizes")
for path in sys.argv[1:]:
    n, b, loops, inl, inb, sizes = figures(open(path).read())
    name = "/".join(path.rsplit("/", 2)[-2:])  # lab folder / file: the corpus repeats names
    print(f"{name:40} {n:6} {b:5} {loops:5} {inl:8} {inb:8}  {','.join(map(str, sizes[:8]))}")
