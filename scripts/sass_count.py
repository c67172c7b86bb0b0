#!/usr/bin/env python3
"""Instructions per interaction of the n-body fast kernels' inner loops.

Reads `cuobjdump -sass` output (stdin or a file), finds in each forces_fast
build the backward branch whose loop body holds the most MUFU.RSQ (one per
interaction), and prints the body's instruction count over that MUFU count,
with the mix of opcodes. In the pairs builds (forces_pairs) one MUFU.RSQ
serves a pair, two interactions, and the loop measured is the two-way one
(the loop that passes reactions along with SHFL). Usage:
  cuobjdump -sass nbody.cubin | python3 scripts/sass_count.py [--dump DIR]
"""
import collections
import os
import re
import sys


def instructions(func_text):
    out = []
    for line in func_text.split("\n"):
        m = re.search(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m:
            out.append((int(m.group(1), 16), m.group(2).strip()))
    return out


def opcode(ins):
    words = ins.split()
    if words[0].startswith("@"):
        words = words[1:]
    return words[0].split(".")[0]


def inner_loop(instrs, need=None):
    index = {a: i for i, (a, _) in enumerate(instrs)}
    best = None
    for i, (addr, ins) in enumerate(instrs):
        if opcode(ins) != "BRA":
            continue
        t = re.search(r"0x([0-9a-f]+)", ins)
        if not t:
            continue
        target = int(t.group(1), 16)
        if target < addr and target in index:
            body = instrs[index[target]:i + 1]
            mufu = sum(opcode(x) == "MUFU" for _, x in body)
            if need:  # the innermost loop that holds `need` and MUFU
                if mufu and any(opcode(x) == need for _, x in body) and (
                        best is None or len(body) < len(best[1])):
                    best = (mufu, body)
                continue
            mufu = sum(opcode(x) == "MUFU" for _, x in body)
            if mufu and (best is None or mufu > best[0] or (mufu == best[0] and len(body) < len(best[1]))):
                best = (mufu, body)
    return best


def main():
    args = sys.argv[1:]
    dump = None
    if "--dump" in args:
        dump = args[args.index("--dump") + 1]
        args = args[:args.index("--dump")] + args[args.index("--dump") + 2:]
    text = open(args[0]).read() if args else sys.stdin.read()
    for func in re.split(r"\n\s*Function : ", text)[1:]:
        name = func.split("\n")[0].strip()
        m = re.search(r"forces_fastILi(\d+)ELi(\d+)ELi(\d+)", name)
        pairs = re.search(r"forces_pairsILi(\d+)ELi(\d+)ELi(\d+)", name)
        if pairs:
            k, threads, unroll = map(int, pairs.groups())
            label, per, best = f"pairs{k}u{unroll} (max {threads} threads)", 2, inner_loop(
                instructions(func), need="SHFL")
        elif m:
            k, threads, unroll = map(int, m.groups())
            label, per, best = f"k{k}u{unroll} (max {threads} threads)", 1, inner_loop(
                instructions(func))
        else:
            continue
        if not best:
            print(f"{label}: no inner loop found")
            continue
        mufu, body = best
        mix = collections.Counter(opcode(x) for _, x in body)
        what = "pairs" if per == 2 else "interactions"
        print(f"{label}: {len(body)} instructions for {mufu} {what} = "
              f"{len(body) / (mufu * per):.3f} per interaction; " +
              " ".join(f"{op} {c}" for op, c in mix.most_common()))
        if dump:
            os.makedirs(dump, exist_ok=True)
            with open(os.path.join(dump, f"{label.split()[0]}_{threads}.sass"), "w") as f:
                f.write("\n".join(f"/*{a:04x}*/ {x}" for a, x in body) + "\n")


if __name__ == "__main__":
    main()
