#!/usr/bin/env python3
"""List the longest Rust functions under the given folders.

Usage: tools/fn_lengths.py [--top N] DIR...   (default: crates/hashmate-engine/src, top 15)

A function runs from its `fn` line to the line of the brace that closes
it; comments and blank lines inside count. Good enough for a budget such
as "no function in search/ over 150 lines", not a parser.
"""
import re
import sys
from pathlib import Path

FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?fn\s+(\w+)")


def functions(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FN.match(lines[i])
        if not m:
            i += 1
            continue
        depth, parens, started, j = 0, 0, False, i
        while j < len(lines):
            code = lines[j].split("//")[0]
            for ch in code:
                if ch == "(":
                    parens += 1
                elif ch == ")":
                    parens -= 1
                elif ch == "{":
                    depth += 1
                    started = True
                elif ch == "}":
                    depth -= 1
            if not started and parens == 0 and code.rstrip().endswith(";"):
                break  # a declaration without a body (a trait method)
            if started and depth <= 0:
                yield m.group(5), i + 1, j - i + 1
                break
            j += 1
        i += 1


def main(argv):
    top = 15
    if len(argv) >= 2 and argv[0] == "--top":
        top, argv = int(argv[1]), argv[2:]
    dirs = argv or ["crates/hashmate-engine/src"]
    rows = []
    for d in dirs:
        for path in sorted(Path(d).rglob("*.rs")):
            for name, line, length in functions(path):
                rows.append((length, f"{path}:{line}", name))
    rows.sort(reverse=True)
    for length, where, name in rows[:top]:
        print(f"{length:5d}  {name:28s} {where}")


if __name__ == "__main__":
    main(sys.argv[1:])
