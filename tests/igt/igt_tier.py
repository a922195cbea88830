#!/usr/bin/python3
"""Host side of the IGT tier: the order of a run, and its verdicts.

    igt_tier.py order [--order listed|reversed|shuffle] [--seed N] LIST...
        Print the entries of the test lists (lines "igt@..."), in the
        order asked for.  The first entry of the first list (BAT's
        i915_module_load@load, which loads the driver) stays first and
        the entries after a "# @last" line (BAT's module reloads) stay
        last, in every order, as IGT's own list keeps them.

    igt_tier.py summary [--expected FILE] [--tap] --list LIST RESULTS...
        Verdicts of the passes whose igt_results files (results.json)
        are RESULTS, against the run's list: one TAP line per entry and
        pass (--tap), then a summary in IGT's terms per pass.  Exit
        status 0 when every entry passed or skipped in every pass,
        except the expected failures (FILE: "igt@name  reason" lines),
        which count as skipped with their reason while they fail and
        fail when they pass (the list must follow the model).

Standard library only (the base system's /usr/bin/python3).
"""
import argparse
import json
import random
import sys

# IGT's results (runner/resultgen.c), and what counts as a success.
GOOD = ("pass", "skip")
ORDER = ("pass", "skip", "fail", "timeout", "dmesg-warn", "dmesg-fail",
         "warn", "crash", "abort", "incomplete", "notrun")


def read_list(path):
    """Entries of a test list, with the index of its "# @last" line."""
    entries, last = [], None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line == "# @last":
                last = len(entries)
            elif line.startswith("igt@"):
                entries.append(line.split()[0])
    return entries, last


def order(lists, how, seed):
    first, middle, tail = [], [], []
    for i, path in enumerate(lists):
        entries, last = read_list(path)
        if last is None:
            last = len(entries)
        if i == 0 and entries:
            first, entries, last = entries[:1], entries[1:], last - 1
        middle += entries[:last]
        tail += entries[last:]
    if how == "reversed":
        middle.reverse()
    elif how == "shuffle":
        random.Random(seed).shuffle(middle)
    return first + middle + tail


def read_expected(path):
    expected = {}
    if path:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("igt@"):
                    name, _, reason = line.partition(" ")
                    expected[name] = reason.strip()
    return expected


def outcome(tests, name):
    """The result of entry @name: its own, or for an entry naming a whole
    binary or subtest, the worst of the results under it."""
    if name in tests:
        return tests[name].get("result", "notrun")
    under = [t.get("result", "notrun") for k, t in tests.items()
             if k.startswith(name + "@")]
    if not under:
        return None
    bad = [r for r in under if r not in GOOD]
    if bad:
        return max(bad, key=lambda r: ORDER.index(r) if r in ORDER else 99)
    return "pass" if "pass" in under else "skip"


def why(tests, name):
    """A one-line reason from a failed entry's output."""
    t = tests.get(name, {})
    for key in ("err", "out", "dmesg"):
        for line in t.get(key, "").splitlines():
            if any(w in line for w in ("FAIL", "Failed", "failed",
                                       "Timeout", "timeout", "WARNING",
                                       "Killing")):
                return line.strip()[:160]
    return ""


def summary(args):
    entries, _ = read_list(args.list)
    expected = read_expected(args.expected)
    n = 0
    bad = 0
    lines = []
    totals = []
    for p, path in enumerate(args.results, 1):
        try:
            with open(path) as f:
                run = json.load(f)
        except (OSError, ValueError) as e:
            run = {"tests": {}}
            lines.append("# pass %d: no results (%s)" % (p, e))
        tests = run.get("tests", {})
        count = {}
        for name in entries:
            n += 1
            r = outcome(tests, name)
            label = "%s (pass %d)" % (name, p) if len(args.results) > 1 \
                else name
            count[r or "notrun"] = count.get(r or "notrun", 0) + 1
            if name in expected:
                if r in GOOD:
                    lines.append("not ok %d - %s: %s, but it is listed as an "
                                 "expected failure (%s)"
                                 % (n, label, r, expected[name]))
                    bad += 1
                else:
                    lines.append("ok %d - %s # SKIP expected failure (%s): %s"
                                 % (n, label, r or "no result",
                                    expected[name]))
            elif r == "skip":
                lines.append("ok %d - %s # SKIP %s"
                             % (n, label, why_skip(tests, name)))
            elif r in GOOD:
                lines.append("ok %d - %s" % (n, label))
            else:
                bad += 1
                text = why(tests, name) if r else \
                    "no result: the runner stopped before it"
                lines.append("not ok %d - %s: %s%s"
                             % (n, label, r or "notrun",
                                ": " + text if text and r else
                                (": " + text if not r else "")))
        secs = 0
        te = run.get("time_elapsed", {})
        if "start" in te and "end" in te:
            secs = te["end"] - te["start"]
        totals.append((p, count, secs))
    if args.tap:
        print("1..%d" % n)
        for line in lines:
            print(line)
    for p, count, secs in totals:
        parts = ", ".join("%d %s" % (count[r], r)
                          for r in ORDER if count.get(r))
        xf = sum(1 for name in entries if name in expected)
        print("%sIGT pass %d: %s (%d listed as expected failures); "
              "%.0f s" % ("# " if args.tap else "", p, parts, xf, secs))
    return 1 if bad else 0


def why_skip(tests, name):
    t = tests.get(name)
    if t is None:
        for k, v in tests.items():
            if k.startswith(name + "@"):
                t = v
                break
    for line in (t or {}).get("out", "").splitlines():
        if line.startswith("Test requirement not met") or \
           line.startswith("Test requirement:") or \
           "requirement" in line:
            return line.strip()[:160]
    return "the test skipped"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("order")
    o.add_argument("--order", default="listed",
                   choices=("listed", "reversed", "shuffle"))
    o.add_argument("--seed", type=int, default=0)
    o.add_argument("lists", nargs="+")
    s = sub.add_parser("summary")
    s.add_argument("--expected")
    s.add_argument("--list", required=True)
    s.add_argument("--tap", action="store_true")
    s.add_argument("results", nargs="+")
    args = ap.parse_args()
    if args.cmd == "order":
        for e in order(args.lists, args.order, args.seed):
            print(e)
        return 0
    return summary(args)


if __name__ == "__main__":
    sys.exit(main())
