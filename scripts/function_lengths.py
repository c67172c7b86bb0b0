#!/usr/bin/env python3
"""Lists the longest function bodies in C++ sources (lines from '{' to '}').

Usage: scripts/function_lengths.py [--top N] [--max L] DIR...
A heuristic scanner, no compiler needed: strings and comments are skipped and a
'{' opens a function body when the text before it ends like a signature
(')', 'const', 'override', 'noexcept', or a constructor's initializer list)
and it is not inside another function. With --max L it exits 1 when a
function is longer than L lines and its line before the signature does not
carry a 'long-function:' comment stating why.
"""
import argparse, pathlib, re, sys

SIG_END = re.compile(r"(\)\s*(const|override|noexcept|final|mutable|\s)*(->\s*[\w:<>,\s*&]+)?\s*$)|"
                     r"(\)\s*:\s*[\s\S]*\)\s*$)")
CONTROL = re.compile(r"\b(if|for|while|switch|catch|return)\s*\([^()]*(\([^()]*\))*[^()]*\)\s*$")


def strip(text):
    """Blanks out comments and string/char literals, keeping newlines."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end])); i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c); i = j + 1
        else:
            out.append(c); i += 1
    return "".join(out)


def functions(path):
    raw = path.read_text(errors="replace")
    text = strip(raw)
    lines = raw.split("\n")
    stack = []  # (is_function, start_line, name)
    last = 0    # end of the previous statement or brace
    for i, c in enumerate(text):
        if c == "{":
            before = text[last:i]
            in_fn = any(s[0] for s in stack)
            is_fn = (not in_fn and SIG_END.search(before) is not None
                     and CONTROL.search(before) is None and "=" not in before.split("(")[0])
            name = ""
            if is_fn:
                m = re.search(r"([~\w:]+(?:operator\S*)?)\s*\(", before)
                name = m.group(1) if m else "?"
            stack.append((is_fn, text.count("\n", 0, i) + 1, name))
            last = i + 1
        elif c == "}":
            if stack:
                is_fn, start, name = stack.pop()
                if is_fn:
                    end = text.count("\n", 0, i) + 1
                    sig = start - 1
                    while sig > 0 and "(" not in lines[sig - 1] and sig > start - 6:
                        sig -= 1
                    reason = any("long-function:" in lines[k] for k in range(max(0, sig - 3), start))
                    yield end - start + 1, name, start, reason
            last = i + 1
        elif c == ";":
            last = i + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--max", type=int)
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    found = []
    for d in a.dirs:
        for p in sorted(pathlib.Path(d).rglob("*")):
            if p.suffix in (".cpp", ".h", ".cu"):
                found += [(n, f"{p}:{line}", name, why) for n, name, line, why in functions(p)]
    found.sort(reverse=True)
    for n, where, name, why in found[: a.top]:
        print(f"{n:5d}  {name}  {where}{'  (reason stated)' if why else ''}")
    if a.max:
        bad = [f for f in found if f[0] > a.max and not f[3]]
        for n, where, name, _ in bad:
            print(f"too long ({n} > {a.max} lines, no 'long-function:' reason): {name} {where}",
                  file=sys.stderr)
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
