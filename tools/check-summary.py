#!/usr/bin/python3
"""make check's last lines, from the `meson test` run it made: what failed,
the seconds of each tier and one line over all the tiers' TAP subtests,
"N passed, N failed, N skipped".  Exit status 1 when anything failed.
A tier's seconds are the sum of its tests' (two run at once, see
tests/meson.build); "wall" is from the first test's start to the last's
end.

  tools/check-summary.py [BUILDDIR]        (default build/unit)

It reads BUILDDIR/meson-logs/testlog.json (each test's result, TAP output
and duration, one JSON object a line) and BUILDDIR/meson-info/
intro-tests.json (each test's suite, the tier, and the tiers' order).

A subtest counts as meson's TAP parser takes it: "ok" passed, "ok # SKIP"
skipped, "not ok" failed ("not ok # TODO" skipped, "ok # TODO" failed).
A test that meson failed (a crash, a timeout, a bail-out, a short plan,
a nonzero exit) and whose output names no failed subtest counts one
failure, plus one for each subtest its plan announced and it did not run.
"""
import json
import os
import re
import sys

TEST = re.compile(r"(not )?ok\b")
DIRECTIVE = re.compile(r"[^#]*#\s*(skip|todo)\b", re.IGNORECASE)
PLAN = re.compile(r"1\.\.([0-9]+)")
MAX_LINES = 20     # of a test's failures, printed (all are in the log)
BAD = {"FAIL", "ERROR", "TIMEOUT", "UNEXPECTEDPASS", "INTERRUPT"}


def count(stdout):
    """(passed, failed, skipped, failure lines) of one TAP output."""
    passed = failed = skipped = 0
    plan = None
    lines = []
    for line in stdout.splitlines():
        if line.startswith("Bail out!"):
            lines.append(line)
        if plan is None and PLAN.match(line):
            plan = int(PLAN.match(line).group(1))
        m = TEST.match(line)
        if not m:
            continue
        ok = m.group(1) is None
        d = DIRECTIVE.match(line)
        d = d.group(1).lower() if d else None
        if d == "todo":
            ok = not ok
            if ok:
                skipped += 1
                continue
        if not ok:
            failed += 1
            lines.append(line)
        elif d == "skip":
            skipped += 1
        else:
            passed += 1
    missing = max(0, plan - passed - failed - skipped) if plan else 0
    return passed, failed + missing, skipped, lines, missing


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/unit"
    log = os.path.join(build, "meson-logs", "testlog.json")
    try:
        with open(log) as f:
            runs = [json.loads(line) for line in f if line.strip()]
        with open(os.path.join(build, "meson-info", "intro-tests.json")) as f:
            tests = json.load(f)
    except OSError as e:
        print("check-summary: %s (did meson test run?)" % e)
        return 1

    # Tiers in the order meson starts them (intro-tests.json is sorted
    # by priority), without the project's name.
    tier = {}
    order = []
    for t in tests:
        s = t["suite"][0].split(":")[-1] if t["suite"] else "-"
        tier[t["name"]] = s
        if s not in order:
            order.append(s)

    total = [0, 0, 0]
    seconds = {}
    start = end = None
    for r in runs:
        # "project:suite / name", as meson prints it.
        name = r["name"].split(" / ", 1)[-1]
        passed, failed, skipped, lines, missing = count(r.get("stdout") or "")
        for line in lines[:MAX_LINES]:
            print("  %s: %s" % (name, line))
        if len(lines) > MAX_LINES:
            print("  %s: ... %d more" % (name, len(lines) - MAX_LINES))
        if missing:
            print("  %s: %d planned subtest(s) not run" % (name, missing))
        if r["result"] in BAD:
            rc = r["returncode"]
            if r["result"] == "TIMEOUT":
                why = "timed out after %d s" % r["duration"]
            elif r["result"] == "INTERRUPT":
                why = "interrupted"
            elif rc and rc < 0:
                why = "killed by signal %d" % -rc
            elif rc:
                why = "exit status %d" % rc
            else:
                why = "meson: %s" % r["result"]
            print("  %s: %s (log: %s)" % (
                name, why, os.path.join(build, "meson-logs", "testlog.txt")))
            if failed == 0:
                failed = 1
        for i, n in enumerate((passed, failed, skipped)):
            total[i] += n
        s = tier.get(name) or r["name"].split(" / ")[0].split(":")[-1]
        seconds[s] = seconds.get(s, 0) + r["duration"]
        start = min(start, r["starttime"]) if start else r["starttime"]
        end = max(end or 0, r["starttime"] + r["duration"])

    order += [s for s in seconds if s not in order]
    if seconds:
        print("tiers: %s; wall %d s" % (
            ", ".join("%s %d s" % (s, seconds[s])
                      for s in order if s in seconds), end - start))
    print("%d passed, %d failed, %d skipped" % tuple(total))
    return 1 if total[1] or not runs else 0


if __name__ == "__main__":
    sys.exit(main())
