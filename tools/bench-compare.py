#!/usr/bin/python3
"""Before/after figures of the standalone benchmarks: runs each benchmark
of two builds in turn (base, new, base, new, ...) on one pinned CPU and
prints, for every figure a benchmark prints, the median over the runs of
new / base.  Pairing the runs keeps the ratio meaningful when the
machine's speed drifts.

  tools/bench-compare.py [--new NEW_BUILD] [-n RUNS] [--cpu N]
                         BASE_BUILD [BENCH...]

BASE_BUILD and NEW_BUILD are standalone build directories (NEW_BUILD
defaults to build/unit); BENCH names default to every bench-* program
of NEW_BUILD.  A figure is a row "label  number unit" (two or more blanks
after the label); its unit says whether more is better ("/s") or worse
(s, ns, x, ...).
"""
import argparse
import os
import re
import statistics
import subprocess

# A figure's row: its label, two or more blanks, the number and its unit.
ROW = re.compile(r"^\s*(\S.*?)\s{2,}(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)"
                 r"\s*(\S*)")


def figures(text):
    """{label: (number, unit)} of each row of a benchmark's output."""
    out = {}
    for line in text.splitlines():
        m = ROW.match(line)
        if m and m.group(1) not in out:
            out[m.group(1).rstrip(":")] = (float(m.group(2)), [m.group(3)])
    return out


def run(prog, cpu):
    return subprocess.run(["taskset", "-c", str(cpu), prog],
                          capture_output=True, text=True, check=True).stdout


def main():
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--new", default=os.path.join(top, "build", "unit"))
    ap.add_argument("base")
    ap.add_argument("-n", type=int, default=5)
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("bench", nargs="*")
    args = ap.parse_args()
    benches = args.bench or sorted(
        f for f in os.listdir(args.new) if f.startswith("bench-") and
        os.path.isfile(os.path.join(args.new, f)) and
        os.access(os.path.join(args.new, f), os.X_OK))
    for bench in benches:
        ratios = {}
        for _ in range(args.n):
            base = figures(run(os.path.join(args.base, bench), args.cpu))
            new = figures(run(os.path.join(args.new, bench), args.cpu))
            for label, (value, unit) in new.items():
                if label in base and base[label][0]:
                    ratios.setdefault((label, tuple(unit)), []).append(
                        value / base[label][0])
        print("%s (new / base, median of %d pairs)" % (bench, args.n))
        for (label, unit), r in ratios.items():
            print("  %-48s %6.3f  %s" % (label[:48], statistics.median(r),
                                         " ".join(unit)))


if __name__ == "__main__":
    main()
