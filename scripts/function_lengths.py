#!/usr/bin/env python3
"""Lists the longest function bodies in C++/CUDA sources and checks a limit.

Usage: scripts/function_lengths.py [--top N] [--max L] [--allow FILE] DIR...
       scripts/function_lengths.py --self-test

A heuristic scanner, no compiler needed: strings and comments are skipped and a
'{' opens a function body when the text before it ends like a signature
(')', 'const', 'override', 'noexcept', or a constructor's initializer list)
and it is not inside another function. A length counts the lines from the
line of '{' to the line of '}'.

With --max L it exits 1 when a function is longer than L lines unless
  - the line right above its first line (the signature, or its `template <...>`)
    is a one-line comment `// long: <why>` with a reason after the colon, or
  - --allow FILE lists it as `FILE:FUNCTION` (a path ending, e.g.
    `lessons/lesson.cpp:read_run`; '#' starts a comment). The list grandfathers
    functions that were long before the check existed: it is meant to shrink to
    nothing. Entries that match no long function are reported, not fatal.
--self-test plants a violation in a temporary copy and checks that it is caught.
"""
import argparse, bisect, pathlib, re, sys, tempfile

SIG_END = re.compile(r"(\)\s*(const|override|noexcept|final|mutable|\s)*(->\s*[\w:<>,\s*&]+)?\s*$)|"
                     r"(\)\s*:\s*[\s\S]*\)\s*$)")
CONTROL = re.compile(r"\b(if|for|while|switch|catch|return)\s*\([^()]*(\([^()]*\))*[^()]*\)\s*$")
MARKER = re.compile(r"^\s*//\s*long:\s*\S")
SOURCES = (".cpp", ".h", ".cu", ".cuh")


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
    """Yields (lines, name, first line of the body, has a `// long:` reason)."""
    raw = path.read_text(errors="replace")
    text = strip(raw)
    lines = raw.split("\n")
    newlines = [k for k, ch in enumerate(text) if ch == "\n"]
    line_of = lambda pos: bisect.bisect_left(newlines, pos) + 1  # 1-based line of offset pos
    stack = []  # (is_function, body's first line, name, signature's first line)
    last = 0    # end of the previous statement or brace
    for i, c in enumerate(text):
        if c == "{":
            before = text[last:i]
            in_fn = any(s[0] for s in stack)
            is_fn = (not in_fn and SIG_END.search(before) is not None
                     and CONTROL.search(before) is None and "=" not in before.split("(")[0])
            name, sig = "", 0
            if is_fn:
                m = re.search(r"([~\w:]+(?:operator\S*)?)\s*\(", before)
                name = m.group(1) if m else "?"
                lead = len(before) - len(before.lstrip())
                sig = line_of(last + lead)
            stack.append((is_fn, line_of(i), name, sig))
            last = i + 1
        elif c == "}":
            if stack:
                is_fn, start, name, sig = stack.pop()
                if is_fn:
                    end = line_of(i)
                    reason = sig >= 2 and MARKER.match(lines[sig - 2]) is not None
                    yield end - start + 1, name, start, reason
            last = i + 1
        elif c == ";":
            last = i + 1


def scan(dirs):
    found = []
    for d in dirs:
        root = pathlib.Path(d)
        paths = [root] if root.is_file() else sorted(root.rglob("*"))
        for p in paths:
            if p.suffix in SOURCES and p.is_file():
                found += [(n, str(p), line, name, why) for n, name, line, why in functions(p)]
    found.sort(key=lambda f: (-f[0], f[1], f[2]))
    return found


def read_allow(path):
    entries = []
    for raw in pathlib.Path(path).read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            m = re.match(r"^(.+?\.(?:cpp|h|cu|cuh)):(\S+)$", line)
            if not m:
                raise SystemExit(f"{path}: '{raw}' is not FILE:FUNCTION")
            entries.append((m.group(1), m.group(2)))
    return entries


def allowed(entry, path, name):
    file, fn = entry
    return name == fn and (path == file or path.endswith("/" + file))


def check(found, limit, allow, out=sys.stderr):
    """Returns the number of functions over the limit with neither a reason nor an allow entry."""
    bad, used = 0, set()
    for n, path, line, name, why in found:
        if n <= limit or why:
            continue
        hit = [e for e in allow if allowed(e, path, name)]
        if hit:
            used.update(hit)
            continue
        bad += 1
        print(f"too long ({n} > {limit} lines, no '// long: <why>' comment right above it): "
              f"{name} {path}:{line}", file=out)
    for e in allow:
        if e not in used:
            print(f"note: allow entry {e[0]}:{e[1]} matches no function over {limit} lines: "
                  "remove it", file=out)
    return bad


def self_test():
    """A planted long function must fail; the same with a reason, or allowed, must pass."""
    body = "\n".join(f"  x += {k};" for k in range(70))
    plain = f"int sum(int x) {{\n{body}\n  return x;\n}}\n"
    cases = [
        ("no reason", "// Adds.\n" + plain, [], 1),
        ("reason right above", "// long: one table, split it and it reads worse\n" + plain, [], 0),
        ("reason with a blank line between", "// long: far away\n\n" + plain, [], 1),
        ("empty reason", "// long:\n" + plain, [], 1),
        ("reason above a template line", "// long: why\ntemplate <typename T>\n" + plain, [], 0),
        ("allowed by path ending", plain, [("planted/long.cpp", "sum")], 0),
        ("allowed by file name", plain, [("long.cpp", "sum")], 0),
        ("allowed for another file", plain, [("ong.cpp", "sum")], 1),
        ("allowed entry for another function", plain, [("planted/long.cpp", "other")], 1),
        ("short function", "int f() {\n  return 1;\n}\n", [], 0),
    ]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        src = pathlib.Path(tmp) / "planted" / "long.cpp"
        src.parent.mkdir()
        for what, code, allow, want in cases:
            src.write_text(code)
            sink = open("/dev/null", "w")
            got = check(scan([tmp]), 60, allow, out=sink)
            sink.close()
            ok = got == want
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {what}: {got} flagged, expected {want}")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--max", type=int)
    ap.add_argument("--allow", help="FILE:FUNCTION lines grandfathered under --max")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("dirs", nargs="*")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.dirs:
        ap.error("name at least one directory")
    found = scan(a.dirs)
    for n, path, line, name, why in found[: a.top]:
        print(f"{n:5d}  {name}  {path}:{line}{'  (reason stated)' if why else ''}")
    if a.max:
        allow = read_allow(a.allow) if a.allow else []
        return 1 if check(found, a.max, allow) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
