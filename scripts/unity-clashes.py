#!/usr/bin/env python3
"""Quick pre-check for unity-build clashes, without compiling.

Usage: scripts/unity-clashes.py BUILD_DIR

BUILD_DIR is a build folder configured with -DCMAKE_UNITY_BUILD=ON (configuring is enough: CMake
writes the unity_<n>_cxx.cxx files, each #including a batch of .cpp files). For every batch, lists
the file-local names that more than one of its .cpp files defines: names in an anonymous
namespace, `static` functions and variables, namespace-scope `constexpr`/`const` variables and
`using` aliases, macros that are not #undef'd, and gtest TEST/TEST_F names. Exit status 1 when any
is found.

This is a heuristic (a light tokenizer, not a C++ parser): it catches the common clashes in
seconds, but the unity build itself (`cmake --build BUILD_DIR -- -k 0`) is the authority.
"""
import collections
import pathlib
import re
import sys

INCLUDE = re.compile(r'^#include "(.+\.(?:cpp|cc|cxx))"', re.M)
KEYWORDS = {
    "if", "for", "while", "switch", "return", "sizeof", "alignof", "decltype", "operator",
    "static_assert", "noexcept", "requires", "template", "typename", "const", "constexpr",
    "static", "inline", "auto", "void", "int", "bool", "char", "double", "float", "unsigned",
    "long", "short", "signed", "std", "override", "final", "explicit", "default", "delete",
}


def strip(text):
    """Removes comments, string and character literals (keeps line structure)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            out.append("\n" * text.count("\n", i, n if j < 0 else j))
            i = n if j < 0 else j + 2
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            out.append('""')
            i = n if end < 0 else end + len(m.group(1)) + 2
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                i += 1  # digit separator 1'000
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def declared_name(stmt):
    """The name a namespace-scope declaration statement introduces, or None."""
    stmt = re.sub(r"\s+", " ", stmt).strip()
    stmt = re.sub(r"^template ?<.*?> ?(?=[a-zA-Z])", "", stmt)
    stmt = re.sub(r"\[\[.*?\]\] ?", "", stmt)
    if not stmt or stmt.startswith(("#", "using namespace", "namespace", "extern \"")):
        return None
    m = re.match(r"using (\w+) ?= ?(.*)", stmt)
    if m:  # an alias may be repeated if it names the same type
        return m.group(1) + " = " + m.group(2)
    if stmt.startswith("using "):  # a using-declaration may be repeated
        return None
    m = re.match(r"(?:enum (?:class |struct )?|struct |class |union )(\w+)", stmt)
    if m:
        return m.group(1)
    head = re.split(r"[=({\[;]", stmt, maxsplit=1)[0]
    names = re.findall(r"[A-Za-z_]\w*", head)
    names = [w for w in names if w not in KEYWORDS]
    if not names or "operator" in head or re.search(r"::\s*~?\w+\s*$", head):
        return None  # a member defined out of class (Type::name) is not file-local
    return names[-1]


def file_locals(path):
    """(names, macros, tests) that a .cpp file defines with internal linkage."""
    raw = path.read_text(errors="replace")
    text = strip(raw)
    macros = set(re.findall(r"^\s*#\s*define\s+(\w+)", text, re.M))
    macros -= set(re.findall(r"^\s*#\s*undef\s+(\w+)", text, re.M))
    tests = set(re.findall(r"\bTEST(?:_F|_P)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)", text))
    tests = {f"{a}.{b}" for a, b in tests}
    text = re.sub(r"^\s*#.*$", "", text, flags=re.M)  # drop preprocessor lines
    text = re.sub(r"\bTEST(?:_F|_P)?\s*\([^)]*\)", "void __keel_test()", text)
    names = set()
    stack = []  # "anon", "ns" or "other" per open brace
    stmt = []
    i = 0
    for tok in re.finditer(r"[{};]|[^{};]+", text):
        t = tok.group(0)
        at_ns_scope = all(k != "other" for k in stack)
        if t == "{":
            head = "".join(stmt).strip()
            if at_ns_scope and re.search(r"(?:^|\s)namespace\s*$", head):
                stack.append("anon")
            elif at_ns_scope and re.search(r"(?:^|\s)namespace\s+[\w:]+\s*$", head):
                stack.append("ns")
            elif at_ns_scope and re.search(r'extern\s*""\s*$', head):
                stack.append("ns")
            else:
                if at_ns_scope:
                    _record(head, stack, names)
                stack.append("other")
            stmt = []
        elif t == "}":
            if stack:
                stack.pop()
            stmt = []
        elif t == ";":
            if at_ns_scope:
                _record("".join(stmt), stack, names)
            stmt = []
        else:
            stmt.append(t)
    return names, macros, tests


def _record(stmt, stack, names):
    s = re.sub(r"\s+", " ", stmt).strip()
    if not s:
        return
    local = ("anon" in stack or re.match(r"(?:\[\[.*?\]\] )?(?:static|constexpr|const) ", s)
             or s.startswith("using ") or re.match(r"(?:inline )?constexpr ", s))
    if not local:
        return
    name = declared_name(s)
    if name and not name.startswith("__keel"):
        names.add(name)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = pathlib.Path(sys.argv[1])
    batches = sorted(build.rglob("unity_*_cxx.cxx"))
    if not batches:
        sys.exit(f"{build}: no unity_*_cxx.cxx (configure it with -DCMAKE_UNITY_BUILD=ON)")
    cache = {}
    found = 0
    for batch in batches:
        files = [pathlib.Path(p) for p in INCLUDE.findall(batch.read_text())]
        owners = collections.defaultdict(list)
        for f in files:
            if f not in cache:
                cache[f] = file_locals(f) if f.exists() else (set(), set(), set())
            names, macros, tests = cache[f]
            for n in names:
                owners[("name", n)].append(f)
            for n in macros:
                owners[("macro", n)].append(f)
            for n in tests:
                owners[("test", n)].append(f)
        for (kind, name), where in sorted(owners.items()):
            if len(where) > 1 and " = " not in name:
                found += 1
                rel = batch.relative_to(build)
                print(f"{rel}: {kind} {name}: " + ", ".join(str(w) for w in where))
        aliases = collections.defaultdict(set)
        for (kind, name), where in owners.items():
            if " = " in name:
                aliases[name.split(" = ")[0]].add(name)
        for alias, forms in sorted(aliases.items()):
            if len(forms) > 1:
                found += 1
                print(f"{batch.relative_to(build)}: alias {alias}: " + "; ".join(sorted(forms)))
    print(f"{found} possible clash(es) in {len(batches)} unity batches", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
