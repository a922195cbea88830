#!/usr/bin/python3
"""Host side of the guest tier: the verdicts, from the guest's raw output.

    guest_tier.py tap --profile intel|nv|igt|cost|compute|mesa --checks FILE [--why TEXT]
                      [--out DIR] LOG
        Parse LOG (the data channel, data.log) into sections and print the
        checks of FILE (checks.txt, nv-checks.txt) as TAP, in its order and
        with its ids: a check the log cannot decide (the guest stopped
        before its steps) is "not ok" with TEXT as the reason.  With DIR:
        write DIR/results.txt ("@@RESULT <id> ok|fail|skip <text>" lines),
        DIR/summary.txt (what `make run` prints) and the files a verdict
        names (splats.txt, irq-errors.txt, unmodelled.txt).  Exit status 0
        when no check failed.

    guest_tier.py oa-cost LOG
        make bench's OA cost runs of LOG (GPUMODEL_BENCH=1) as the lines
        tests/guest/oa-cost.awk reads: "ROUND MODE WORK PROBE HOST-CPU-S
        HOST-WALL-S HOST-OTHER-S", then a line "# e=E e1=E1 n=N b=B cpu=ST"
        with that script's variables.

The verdicts themselves are in the guest_verdicts package beside this
file (guest_verdicts/__init__.py lists its modules).  Standard library
only (the base system's /usr/bin/python3).
"""
import argparse
import sys

from guest_verdicts.log import read_checks
from guest_verdicts.oa_cost import oa_cost
from guest_verdicts.report import tap, write_out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("tap")
    t.add_argument("--profile", default="intel",
                   choices=("intel", "nv", "igt", "cost", "compute",
                            "mesa"))
    t.add_argument("--checks", required=True)
    t.add_argument("--why", default="the guest did not report it")
    t.add_argument("--out")
    t.add_argument("log")
    o = sub.add_parser("oa-cost")
    o.add_argument("log")
    a = p.parse_args()
    try:
        with open(a.log, "rb") as f:
            text = f.read().decode(errors="replace")
    except OSError:
        text = ""
    if a.cmd == "oa-cost":
        print("\n".join(oa_cost(text)))
        return 0
    checks = read_checks(a.checks)
    lines, failed, _, v, summary = tap(a.profile, text, checks, a.why)
    print("\n".join(lines))
    if a.out:
        write_out(a.out, v, summary)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
