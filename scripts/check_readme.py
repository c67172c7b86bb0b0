#!/usr/bin/env python3
"""README.md against the program and the tree: its command-line synopsis and its layout.

Usage: scripts/check_readme.py --cudaviz BIN [--root DIR]
       scripts/check_readme.py --cudaviz BIN [--root DIR] --self-test

Checks, each both ways where it can:
  - every flag `cudaviz --help` prints appears in README's synopsis (the first
    code block under "## Command line"), and every flag there is one --help prints;
  - the same commands (`cudaviz`, `cudaviz bench <scene-or-lab>`, `cudaviz bench
    kernel`, `cudaviz sweep ...`, `cudaviz doctor`: the words before the first
    option) in both;
  - a flag's choices (`--scene fountain|swarm|...`) are the same in both; the
    --panel names are the ones the program accepts (read from its refusal of an
    unknown name, since --help lists them in prose);
  - every folder at the top of app/ is named (`name/`) in README's layout (the
    first code block under "## Layout"); the folders are read from the tree.
--self-test plants a violation of each kind in temporary copies of README.md and
of app/'s folder list and checks that each is caught and the real ones pass.
Exit 0: all agree; 1: a difference (each printed); 2: usage or a missing input.
"""
import argparse, pathlib, re, subprocess, sys, tempfile

FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
CHOICES = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*) ([A-Za-z0-9.-]+(?:\|[A-Za-z0-9.-]+)+)")
REFUSAL = re.compile(r"--panel: '[^']*' is not one of (.+)")


def code_block(markdown, heading):
    """The first ``` block after the line `heading`."""
    lines = markdown.split("\n")
    try:
        start = lines.index(heading)
    except ValueError:
        raise SystemExit(f"README.md has no '{heading}' section")
    block, inside = [], False
    for line in lines[start + 1:]:
        if line.startswith("```"):
            if inside:
                return "\n".join(block)
            inside = True
        elif inside:
            block.append(line)
        elif line.startswith("## "):
            break
    raise SystemExit(f"README.md's '{heading}' section has no code block")


def commands(text):
    """The words after `cudaviz` up to the first option, per synopsis line."""
    heads = set()
    for line in text.split("\n"):
        m = re.match(r"\s*(?:usage:\s*)?cudaviz\b(.*)", line)
        if not m:
            continue
        words = []
        for word in re.split(r"\s{2,}", m.group(1).strip())[0].split():
            if word.startswith(("[", "-")):
                break
            words.append(word)
        heads.add(" ".join(words))
    return heads


def choices(text):
    """flag -> the set of choices written after it (`--backend auto|cuda|cpu`)."""
    found = {}
    for flag, alts in CHOICES.findall(text):
        found.setdefault(flag, set()).update(alts.split("|"))
    return found


def app_folders(app_dir):
    return sorted(p.name for p in pathlib.Path(app_dir).iterdir()
                  if p.is_dir() and not p.name.startswith((".", "__")))


def problems(readme, help_text, panel_names, folders):
    """Every difference, as sentences; empty when README agrees."""
    out = []
    synopsis = code_block(readme, "## Command line")
    layout = code_block(readme, "## Layout")
    in_help, in_readme = set(FLAG.findall(help_text)), set(FLAG.findall(synopsis))
    for f in sorted(in_help - in_readme):
        out.append(f"{f}: printed by --help, missing from README's synopsis")
    for f in sorted(in_readme - in_help):
        out.append(f"{f}: in README's synopsis, not printed by --help")
    ch, cr = commands(help_text), commands(synopsis)
    for c in sorted(ch - cr):
        out.append(f"'cudaviz {c}': a command in --help, missing from README's synopsis")
    for c in sorted(cr - ch):
        out.append(f"'cudaviz {c}': a command in README's synopsis, not in --help")
    want = choices(help_text)
    want["--panel"] = set(panel_names)
    have = choices(synopsis)
    for flag in sorted(set(want) | set(have)):
        a, b = want.get(flag, set()), have.get(flag, set())
        if a != b:
            out.append(f"{flag}: choices {'|'.join(sorted(a)) or '(none)'} in the program, "
                       f"{'|'.join(sorted(b)) or '(none)'} in README's synopsis")
    for name in folders:
        if not re.search(r"(?<![\w/.-])" + re.escape(name) + "/", layout):
            out.append(f"app/{name}/: a folder in the tree, not named in README's layout")
    return out


def program_text(cudaviz):
    """--help's text and the --panel names the program accepts."""
    h = subprocess.run([cudaviz, "--help"], capture_output=True, text=True, timeout=60)
    if h.returncode != 0:
        raise SystemExit(f"{cudaviz} --help: exit {h.returncode}: {h.stderr.strip()}")
    r = subprocess.run([cudaviz, "--panel", "?"], capture_output=True, text=True, timeout=60)
    m = REFUSAL.search(r.stderr)
    if r.returncode != 2 or not m:
        raise SystemExit(f"{cudaviz} --panel ?: expected exit 2 naming the panels, got exit "
                         f"{r.returncode}: {r.stderr[:300]}")
    return h.stdout, [n.strip() for n in m.group(1).split(",")]


def self_test(root, help_text, panels):
    """Each planted difference is caught; the real README and tree pass."""
    readme = (root / "README.md").read_text()
    synopsis = code_block(readme, "## Command line")
    flag = sorted(set(FLAG.findall(synopsis)) - {"--help"})[-1]
    scene = next(iter(choices(help_text)["--scene"]))
    plants = [
        ("the real README and tree", readme, help_text, panels, [], None),
        (f"README without {flag}", readme.replace(synopsis, re.sub(
            r"\[" + flag + r"(?![\w-])[^\]\[]*(\[[^\]]*\])?[^\]]*\]", "", synopsis)),
         help_text, panels, [], flag),
        ("README with an unknown flag", readme.replace(synopsis, synopsis + " [--planted-flag]"),
         help_text, panels, [], "--planted-flag"),
        ("--help with a flag README lacks", readme, help_text + "  [--planted-option VALUE]\n",
         panels, [], "--planted-option"),
        ("--help with a command README lacks", readme,
         help_text + "  cudaviz planted <thing> [--n N]\n", panels, [], "cudaviz planted"),
        (f"README without the scene {scene}", readme.replace(synopsis, synopsis.replace(
            "|" + scene, "").replace(scene + "|", "")), help_text, panels, [], "--scene"),
        ("a panel README does not list", readme, help_text, panels + ["planted-panel"], [],
         "--panel"),
        ("a new folder under app/", readme, help_text, panels, ["planted_folder"],
         "app/planted_folder/"),
    ]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for what, text, htext, pnames, extra, expect in plants:
            copy = pathlib.Path(tmp) / "README.md"
            copy.write_text(text)
            app = pathlib.Path(tmp) / "app"
            if app.exists():
                for d in app.iterdir():
                    d.rmdir()
            else:
                app.mkdir()
            for name in app_folders(root / "app") + extra:
                (app / name).mkdir()
            found = problems(copy.read_text(), htext, pnames, app_folders(app))
            ok = (not found) if expect is None else any(expect in p for p in found)
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {what}: " +
                  ("; ".join(found) if found else "no difference"))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cudaviz", required=True, help="the built cudaviz binary")
    ap.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent,
                    type=pathlib.Path, help="the repository (default: this script's)")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    help_text, panels = program_text(a.cudaviz)
    if a.self_test:
        return self_test(a.root, help_text, panels)
    found = problems((a.root / "README.md").read_text(), help_text, panels,
                     app_folders(a.root / "app"))
    for p in found:
        print(f"README.md: {p}", file=sys.stderr)
    if not found:
        print("README.md: synopsis and layout agree with --help and app/")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
