#!/usr/bin/python3
"""What QEMU pays for fixed guest work, one build or two builds paired.

  tools/bench-guest-compare.py [-n RUNS] [--rounds R] [--new QEMU]
                               [--base QEMU] [--out DIR]

Boots the test guest with the cost profile (scripts/run-guest.sh
--profile cost, tests/guest/cost-checks.sh) RUNS times on each QEMU
binary, base and new in turn, one vCPU, the guest's clock counting its
own instructions (-icount shift=0,sleep=off).  The guest then does the
same work in every run on every host: the same instructions, the same
batches and EU threads, the same OA reports.  What a build changes is
QEMU's host CPU time for that work, which the host agent reads around
each piece; wall time and the guest's own rates would measure the host's
load as much as the build.

For each piece of work: QEMU's host CPU seconds in the run (summed over
the guest's R rounds), the median over the runs with the lowest and
highest; with --base, the median of the runs' new/base ratios, pair by
pair, so that a drift of the host's speed hits both sides of a ratio.
The piece "syscalls" runs no device code: its ratio is the noise floor,
and the TCG speed of the two builds if they differ there.

--new defaults to build/qemu's binary; --out (default
build/guest/out-cost) keeps each run's logs in run-K-base, run-K-new.
"""
import argparse
import os
import statistics
import subprocess
import sys

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(TOP, "tests", "guest"))
from guest_verdicts.host_cost import host_cost  # noqa: E402

# The pieces of work, in the order cost-checks.sh runs them.
WORKS = ("syscalls", "nop-rcs", "nop-bcs", "walker", "oa-nop")


def run(qemu, out, rounds):
    """{work: cpu-s summed over the rounds} of one boot, or None."""
    env = dict(os.environ, QEMU=qemu)
    subprocess.run([os.path.join(TOP, "scripts", "run-guest.sh"), "--tap",
                    "--profile", "cost", "--icount", "0", "--cpus", "1",
                    "--out", out, "--append", "COST_ROUNDS=%d" % rounds],
                   env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    try:
        with open(os.path.join(out, "data.log"), "rb") as f:
            text = f.read().decode(errors="replace")
    except OSError:
        return None
    cost = {}
    for _, work, cpu, _, _ in host_cost(text):
        if cpu == "?":
            return None
        cost[work] = cost.get(work, 0.0) + float(cpu)
    return cost or None


def spread(xs, fmt):
    xs = sorted(xs)
    return (fmt + " (" + fmt + "-" + fmt + ")") % (
        statistics.median(xs), xs[0], xs[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=5, help="runs of each build")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds of the work in one boot")
    ap.add_argument("--new", default=os.path.join(
        TOP, "build", "qemu", "qemu-system-x86_64"))
    ap.add_argument("--base")
    ap.add_argument("--out", default=os.path.join(
        TOP, "build", "guest", "out-cost"))
    a = ap.parse_args()
    sides = (("base", a.base), ("new", a.new)) if a.base else (("new", a.new),)
    got = {side: [] for side, _ in sides}
    pairs = []
    for k in range(1, a.n + 1):
        one = {}
        for side, qemu in sides:
            out = os.path.join(a.out, "run-%d-%s" % (k, side))
            os.makedirs(out, exist_ok=True)
            one[side] = run(qemu, out, a.rounds)
            if one[side] is None:
                print("run %d (%s): no figures; see %s" % (k, side, out))
            else:
                got[side].append(one[side])
        if all(one.get(s) for s, _ in sides):
            pairs.append(one)

    print("QEMU host CPU s for fixed guest work (-icount shift=0, 1 vCPU,"
          " %d rounds a run), median (lowest-highest) of %d runs:"
          % (a.rounds, len(got["new"])))
    works = [w for w in WORKS if all(w in r for r in got["new"])]
    for w in works:
        line = "  %-9s new %s" % (w, spread([r[w] for r in got["new"]],
                                            "%.2f"))
        if a.base and got["base"]:
            line += "  base %s" % spread([r[w] for r in got["base"]], "%.2f")
        print(line)
    if a.base:
        print("new/base, pair by pair (%d pairs), median (lowest-highest):"
              % len(pairs))
        for w in works:
            ratios = [p["new"][w] / p["base"][w] for p in pairs
                      if p["base"].get(w)]
            if ratios:
                print("  %-9s %s" % (w, spread(ratios, "%.3f")))
    return 0 if got["new"] and (not a.base or pairs) else 1


if __name__ == "__main__":
    sys.exit(main())
