#!/usr/bin/env python3
"""Check that Keel modules only include modules of lower layers (docs/ARCHITECTURE.md).

Usage: check-layers.py [REPO_ROOT]   (default: current directory)
Prints each offending include as  file:line: module -> module  and exits 1 if any.
A module folder that is not in the table is reported once, so the table stays current.
Two more rules: no file includes another module's internals (keel/<other>/detail/), and a
language runtime (keel/script, keel/fsm outside their compiler/ and testing/ folders) includes
nothing from keel/text, so a shipping game links no parser.
"""
import os, re, sys

LAYERS = {
    "core": 0,
    "profile": 1, "settings": 1, "serial": 1, "props": 1, "hashing": 1, "text": 1,
    "kernel": 2, "tween": 2, "script": 2, "fsm": 2, "pack": 2, "save": 2,
    "pipeline": 3,
    "assets": 4, "spatial": 4,
    "world": 5,
    "platform": 6,
}
# Same-layer uses that the design allows.
ALLOWED_SAME_LAYER = {("props", "serial"), ("tween", "kernel"), ("save", "pack"), ("spatial", "assets")}

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]keel/([a-z_0-9]+)/([a-z_0-9/]*)')
# Runtime folders that must not reach the text parser (the compilers live in compiler/).
RUNTIMES = {"script", "fsm"}
RUNTIME_EXEMPT_DIRS = {"compiler", "testing"}

def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    base = os.path.join(root, "keel")
    if not os.path.isdir(base):
        print("check-layers: no keel/ folder under", os.path.abspath(root))
        return 0
    bad = 0
    unknown = set()
    for module in sorted(os.listdir(base)):
        mdir = os.path.join(base, module)
        if not os.path.isdir(mdir):
            continue
        if module not in LAYERS:
            unknown.add(module)
            continue
        for dirpath, _, files in os.walk(mdir):
            for name in files:
                if not name.endswith((".h", ".hpp", ".cpp", ".cc", ".inl")):
                    continue
                if name.endswith(("_test.cpp", "_fuzz.cpp", "_bench.cpp")):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        dep = m.group(1)
                        rel = os.path.relpath(path, mdir).split(os.sep)
                        if dep != module and m.group(2).startswith("detail/"):
                            bad += 1
                            print(f"{os.path.relpath(path, root)}:{lineno}: {module} -> internals of {dep} ({dep}/detail/)")
                            continue
                        if (dep == "text" and module in RUNTIMES and len(rel) > 0
                                and rel[0] not in RUNTIME_EXEMPT_DIRS):
                            bad += 1
                            print(f"{os.path.relpath(path, root)}:{lineno}: {module} runtime -> text (move it to {module}/compiler/)")
                            continue
                        if dep == module:
                            continue
                        if dep not in LAYERS:
                            unknown.add(dep)
                            continue
                        ok = LAYERS[dep] < LAYERS[module] or (module, dep) in ALLOWED_SAME_LAYER
                        if not ok:
                            bad += 1
                            print(f"{os.path.relpath(path, root)}:{lineno}: {module} (layer {LAYERS[module]}) -> {dep} (layer {LAYERS[dep]})")
    for u in sorted(unknown):
        print(f"check-layers: module '{u}' is not in the layer table; add it (design.md section 2)")
    print(f"check-layers: {bad} upward or sideways include(s)")
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
