#!/usr/bin/python3
"""The lists of programs that tests/meson.build runs from other builds are
whole: a test program missing from them would never run, silently.  TAP,
one test.

  tests/tier-list.py qtest NAME...
      NAME... (tests/meson.build read tests/qtest/*-test.c when meson
      configured build/unit) are the *-test.c files there now.
  tests/tier-list.py sanitize BUILDDIR NAME...
      NAME... (unit_programs of tests/unit/meson.build) are every test-*
      program that tests/unit/meson.build builds, as meson's
      BUILDDIR/meson-info/intro-targets.json lists them.
"""
import fnmatch
import json
import os
import sys

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def main():
    what, args = sys.argv[1], sys.argv[2:]
    if what == "qtest":
        have = set(args)
        want = {f[:-2] for f in os.listdir(os.path.join(TOP, "tests/qtest"))
                if fnmatch.fnmatch(f, "*-test.c")}
        fix = ("tests/qtest changed since build/unit was configured",
               "run meson setup --reconfigure build/unit (make unit does)")
    elif what == "sanitize":
        with open(os.path.join(args[0], "meson-info",
                               "intro-targets.json")) as f:
            targets = json.load(f)
        have = set(args[1:])
        want = {t["name"] for t in targets
                if t["type"] == "executable" and t["name"].startswith("test-")
                and t["defined_in"].endswith("tests/unit/meson.build")}
        fix = ("tests/unit/meson.build's test programs and unit_programs "
               "differ", "add each program to unit_programs")
    else:
        sys.exit("tier-list: qtest NAME... or sanitize BUILDDIR NAME...")

    print("1..1")
    if have == want:
        print("ok 1 - the %s tier runs all %d programs" % (what, len(have)))
        return 0
    diff = ["not in the list: %s" % n for n in sorted(want - have)]
    diff += ["gone: %s" % n for n in sorted(have - want)]
    print("not ok 1 - %s (%s): %s" % (fix[0], ", ".join(diff), fix[1]))
    return 1


if __name__ == "__main__":
    sys.exit(main())
