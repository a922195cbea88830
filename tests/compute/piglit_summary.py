#!/usr/bin/python3
"""A piglit run's results in a form small enough to send from the guest,
and the same for the host's run: one line a test, its output only where
it did not pass.

    piglit_summary.py [--out-lines N] RESULTS_DIR

RESULTS_DIR is what `piglit run` wrote (results.json, compressed or not).
Printed, tab-separated, a line a test, sorted by name:

    RESULT  SECONDS  NAME  SUBTESTS

RESULT is piglit's (pass, fail, skip, crash, timeout, warn, ...);
SUBTESTS the subtests that did not pass, "name=result" joined by "|"
("-" when none).  After them, for every test that did not pass, its
command's stdout and stderr: the first --out-lines lines (default 12)
that say what went wrong, then the last as many, as "# NAME" followed by
the lines indented by two spaces.  Standard
library only: the guest root has python3 for piglit's runner.
"""
import argparse
import bz2
import gzip
import json
import lzma
import os
import re
import sys

# The lines of a test's output that say what went wrong.
ERRORS = r"Error|Expecting|FAIL|[Ff]ailed|Unexpected"

OPENERS = {"results.json": open, "results.json.bz2": bz2.open,
           "results.json.gz": gzip.open, "results.json.xz": lzma.open}


def load(d):
    """The "tests" dict of piglit's results in directory @d."""
    for name, opener in OPENERS.items():
        p = os.path.join(d, name)
        if os.path.exists(p):
            with opener(p, "rt") as f:
                return json.load(f)["tests"]
    raise SystemExit("piglit_summary: no results.json in %s" % d)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out-lines", type=int, default=12)
    p.add_argument("results")
    a = p.parse_args()
    tests = load(a.results)
    bad = []
    for name in sorted(tests):
        t = tests[name]
        subs = {k: v for k, v in t.get("subtests", {}).items()
                if k != "__type__" and v != "pass"}
        tm = t.get("time") or {}
        secs = max(0.0, (tm.get("end") or 0) - (tm.get("start") or 0))
        sub = "|".join("%s=%s" % (k.replace("|", "/").replace("\t", " "), v)
                       for k, v in sorted(subs.items())) or "-"
        print("%s\t%.1f\t%s\t%s" % (t["result"], secs, name, sub))
        if t["result"] != "pass":
            bad.append((name, t))
    for name, t in bad:
        print("# %s" % name)
        for what in ("out", "err"):
            lines = (t.get(what) or "").rstrip("\n").split("\n")
            if lines == [""]:
                continue
            # The first errors say most; then the end of the output.
            first = [x for x in lines if re.search(ERRORS, x)][:a.out_lines]
            for line in first + lines[-a.out_lines:]:
                print("  %s" % line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
