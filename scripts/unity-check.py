#!/usr/bin/env python3
"""Finds unity-build clashes quickly: parses every unity batch of a build folder, no code generated.

Usage: scripts/unity-check.py BUILD_DIR [JOBS [FIRST...]]

BUILD_DIR must be configured with -DCMAKE_UNITY_BUILD=ON (e.g.
`cmake --preset debug -B build/unity -DCMAKE_UNITY_BUILD=ON -DKEEL_WERROR=ON`). Every
unity_<n>_cxx.cxx in its compile_commands.json is compiled with -fsyntax-only and the build's own
flags (warnings as errors included), JOBS at a time (default 2). Clashes between file-local names
are front-end errors (redefinition, ambiguity, -Wshadow), so this finds all of them at a fraction
of the cost of a full build; failures are printed with the compiler's messages. Exit status 1 when
any batch fails. Batches that include one of the FIRST files (e.g. `git diff --name-only main`)
are checked first. Re-run cmake first if files were added (the batches are made at configure time).
"""
import concurrent.futures
import json
import pathlib
import shlex
import subprocess
import sys


def syntax_only(entry):
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    while args and pathlib.Path(args[0]).name in ("ccache", "sccache"):
        args = args[1:]
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif a in ("-c", "-MD", "-MMD") or a.startswith("-fsanitize") or a.startswith("-g"):
            continue
        else:
            out.append(a)
    return out + ["-fsyntax-only"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = pathlib.Path(sys.argv[1])
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    first = [str(pathlib.Path(f).resolve()) for f in sys.argv[3:]]
    db = build / "compile_commands.json"
    if not db.exists():
        sys.exit(f"{db}: missing (configure {build} first)")
    entries = [e for e in json.loads(db.read_text()) if "/Unity/unity_" in e["file"]]
    if not entries:
        sys.exit(f"{build}: no unity batches (configure it with -DCMAKE_UNITY_BUILD=ON)")
    if first:
        def touched(entry):
            text = pathlib.Path(entry["file"]).read_text()
            return any(f'"{f}"' in text for f in first)
        entries.sort(key=lambda e: not touched(e))

    def run(entry):
        r = subprocess.run(syntax_only(entry), cwd=entry["directory"], capture_output=True,
                           text=True)
        return entry["file"], r.returncode, r.stdout + r.stderr

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for done, (file, code, text) in enumerate(pool.map(run, entries), 1):
            rel = pathlib.Path(file).relative_to(build.resolve())
            print(f"[{done}/{len(entries)}] {'FAILED ' if code else ''}{rel}", flush=True)
            if code:
                failed += 1
                print(text, flush=True)
    print(f"{failed} of {len(entries)} unity batches failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
