#!/usr/bin/env python3
"""The measured evidence and screenshots stay a small part of a source archive.

Usage: scripts/check_evidence_size.py [--root DIR] [--max-percent P] [DIR ...]
       scripts/check_evidence_size.py --self-test

Measures `git archive HEAD` (the committed tree: nothing uncommitted counts)
and the bytes the given folders take in it (default docs/evidence and
docs/screenshots; tar headers and padding included). Exit 1 when they are
more than P percent of it (default 20), 0 otherwise; prints the figures and the
largest files either way. Exit 77 (CTest's SKIP_RETURN_CODE) when git or the
repository's history is not there, e.g. a source tarball.
--self-test builds a throw-away repository with a planted oversized screenshot
and checks that it fails, and passes once the picture is small.
"""
import argparse, os, pathlib, shutil, subprocess, sys, tarfile, tempfile

SKIP = 77
DEFAULT_DIRS = ["docs/evidence", "docs/screenshots"]


def archive_sizes(root, dirs):
    """(archive bytes, bytes of `dirs` in it, [(bytes, path)] of theirs)."""
    p = subprocess.Popen(["git", "-C", str(root), "archive", "--format=tar", "HEAD"],
                         stdout=subprocess.PIPE)

    class Counter:
        total = 0

        def read(self, n=-1):
            b = p.stdout.read(n)
            Counter.total += len(b)
            return b

    inside, files = 0, []
    with tarfile.open(fileobj=Counter(), mode="r|") as tar:
        for m in tar:
            if any(m.name == d or m.name.startswith(d.rstrip("/") + "/") for d in dirs):
                occupied = 512 + (m.size + 511) // 512 * 512  # header + padded data
                inside += occupied
                if m.isfile():
                    files.append((m.size, m.name))
    while p.stdout.read(65536):  # the end-of-archive blocks
        pass
    if p.wait() != 0:
        raise RuntimeError(f"git archive HEAD in {root} failed (exit {p.returncode})")
    return Counter.total, inside, sorted(files, reverse=True)


def check(root, dirs, max_percent, out=sys.stdout):
    total, inside, files = archive_sizes(root, dirs)
    share = 100.0 * inside / total if total else 0.0
    print(f"git archive HEAD: {total / 1e6:.2f} MB; {', '.join(dirs)}: {inside / 1e6:.2f} MB "
          f"= {share:.1f}% (limit {max_percent:g}%)", file=out)
    for size, name in files[:5]:
        print(f"  {size / 1e3:8.1f} kB  {name}", file=out)
    if share > max_percent:
        print(f"over the limit: summarise raw logs (docs/evidence/README.md), shrink pictures to "
              f"the size the docs show, and git rm what no document cites", file=out)
        return 1
    return 0


def have_git(root):
    if shutil.which("git") is None:
        return "git is not installed"
    r = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "-q", "HEAD"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return f"{root} is not a git checkout with a HEAD commit"
    return None


def self_test():
    if shutil.which("git") is None:
        print("skipped: git is not installed")
        return SKIP
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        repo = pathlib.Path(tmp)
        env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
                   GIT_COMMITTER_EMAIL="t@t", GIT_CONFIG_NOSYSTEM="1", HOME=tmp)

        def git(*args):
            subprocess.run(["git", "-C", tmp, *args], check=True, env=env, capture_output=True)

        git("init", "-q")
        (repo / "src").mkdir()
        (repo / "src" / "code.cpp").write_bytes(b"int main() { return 0; }\n" * 4000)  # ~100 kB
        (repo / "docs" / "screenshots").mkdir(parents=True)
        pic = repo / "docs" / "screenshots" / "planted.jpg"
        cases = [(os.urandom(200_000), 1, "a 200 kB picture beside 100 kB of code"),
                 (os.urandom(10_000), 0, "the picture shrunk to 10 kB"),
                 (None, 0, "the picture uncommitted (only HEAD counts)")]
        for data, want, what in cases:
            if data is None:
                pic.write_bytes(os.urandom(400_000))  # in the work tree, not committed
            else:
                pic.write_bytes(data)
                git("add", "-A")
                git("commit", "-q", "-m", what)
            with open(os.devnull, "w") as sink:
                got = check(repo, DEFAULT_DIRS, 20.0, out=sink)
            ok = got == want
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {what}: exit {got}, expected {want}")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=pathlib.Path,
                    default=pathlib.Path(__file__).resolve().parent.parent)
    ap.add_argument("--max-percent", type=float, default=20.0)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("dirs", nargs="*", default=DEFAULT_DIRS)
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    why = have_git(a.root)
    if why:
        print(f"skipped: {why}")
        return SKIP
    return check(a.root, a.dirs, a.max_percent)


if __name__ == "__main__":
    sys.exit(main())
