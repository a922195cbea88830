#!/usr/bin/python3
"""The size limits that keep the code readable, as TAP: no C file over
1,000 lines, no function over 120 lines.  A function is a body whose
braces are at the start of a line, as QEMU's style places them.

  tools/size-check.py [FILE...]     (default: git ls-files '*.c' '*.h')
"""
import os
import subprocess
import sys

FILE_LINES = 1000
FUNCTION_LINES = 120


def functions(lines):
    """(name line, body length) of each function of a C file."""
    start = None
    for i, line in enumerate(lines):
        if line.startswith("{"):
            start = i
        elif line.startswith("}") and start is not None:
            head = start - 1
            while head > 0 and lines[head][:1] in (" ", "\t"):
                head -= 1
            yield lines[head].strip(), i - start - 1
            start = None


def main():
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    paths = sys.argv[1:] or subprocess.run(
        ["git", "ls-files", "*.c", "*.h"], cwd=top, capture_output=True,
        text=True, check=True).stdout.split()
    print("1..%d" % len(paths))
    bad = 0
    for n, path in enumerate(paths, 1):
        with open(os.path.join(top, path), errors="replace") as f:
            lines = f.read().split("\n")
        problems = []
        if len(lines) - 1 > FILE_LINES:
            problems.append("%d lines (at most %d)"
                            % (len(lines) - 1, FILE_LINES))
        for name, length in functions(lines):
            if length > FUNCTION_LINES:
                problems.append("a function of %d lines (at most %d): %s"
                                % (length, FUNCTION_LINES, name))
        if problems:
            bad = 1
            print("not ok %d - %s: %s" % (n, path, "; ".join(problems)))
        else:
            print("ok %d - %s" % (n, path))
    return bad


if __name__ == "__main__":
    sys.exit(main())
