#!/usr/bin/python3
"""Host side of the IGT tier: the order of a run, and its verdicts.

    igt_tier.py order [--order listed|reversed|shuffle] [--seed N]
                      [--shard K/N] LIST...
        Print the entries of the test lists (lines "igt@..."), in the
        order asked for.  The first entry of the first list (BAT's
        i915_module_load@load, which loads the driver) stays first and
        the entries after a "# @last" line (BAT's module reloads) stay
        last, in every order, as IGT's own list keeps them.  --shard:
        only shard K of N (from 1): every Nth entry between the first
        and the last ones, which every shard runs (each shard is a guest
        of its own, whose driver they load and reload).

    igt_tier.py merge OUT RESULTS...
        One results.json (OUT) of the shards' RESULTS of a pass: their
        tests, the worse result where two shards ran the same entry, and
        the span of their times.

    igt_tier.py summary [--expected FILE] [--dmesg-ignore FILE] [--tap]
                        [--accel A] [--drill LIST RESULTS]
                        [--test-timeout S --times FILE...]
                        --list LIST RESULTS...
        Verdicts of the passes whose igt_results files (results.json)
        are RESULTS, against the run's list: one TAP line per entry and
        pass (--tap), then a summary in IGT's terms per pass.  Exit
        status 0 when every entry passed or skipped in every pass,
        except the expected failures (FILE: "igt@name  reason" lines),
        which count as skipped with their reason while they fail and
        fail when they pass (the list must follow the model).  A reason
        that starts "[tcg]" marks a bound of the test that depends on the
        guest CPU's speed: under --accel tcg (the default) the entry may
        fail or pass; under another accelerator it must pass.  A test
        igt_runner marked dmesg-warn (dmesg-fail) only for kernel
        warnings that all match a pattern of --dmesg-ignore's FILE
        (warnings about the emulated CPU, not the device) counts as
        passed (failed), and its line says so.  --drill:
        the engine-freeze drill's list and results (two more TAP lines):
        i915 reset the frozen rcs0 during the first entry, and the
        second passed.  --test-timeout: the per-test timeout the runner
        had; one more TAP line per pass: every entry took at most half
        of it (the guest's clock, which the runner's timeout counts), so
        that a test is not one slow day away from being killed; --times
        (repeated, one per pass): the times files of "times" below.

    igt_tier.py times --list LIST RUNNER-LOG
        The guest seconds each entry of a guest's list took, longest
        first, from igt_runner's output in that guest (RUNNER-LOG).

Standard library only (the base system's /usr/bin/python3).
"""
import argparse
import json
import os
import random
import re
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


def order(lists, how, seed, shard=(1, 1)):
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
    k, n = shard
    return first + middle[k - 1::n] + tail


def read_expected(path, accel="tcg"):
    expected = {}
    if path:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("igt@"):
                    name, _, reason = line.partition(" ")
                    reason = reason.strip()
                    m = re.match(r"\[(\w+)\]\s*", reason)
                    if m and m.group(1) != accel:
                        continue
                    expected[name] = reason
    return expected


# The warning level igt_runner was given (--dmesg-warn-level): a dmesg line
# "<L> [time] text" with L at most this is a warning.
WARN_LEVEL = 4
DMESG_LINE = re.compile(r"^<(\d)> \[\s*[\d.]+\] (.*)$")


def read_ignore(path):
    pats = []
    if path:
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if line and not line.startswith("#"):
                    pats.append(re.compile(line))
    return pats


def rejudge(tests, ignore):
    """Take the test's own result where igt_runner's dmesg-warn or
    dmesg-fail came only from ignored warnings; returns the notes."""
    notes = {}
    for name, t in tests.items():
        r = t.get("result")
        if r not in ("dmesg-warn", "dmesg-fail") or not ignore:
            continue
        warns = []
        for line in t.get("dmesg", "").splitlines():
            m = DMESG_LINE.match(line)
            if m and int(m.group(1)) <= WARN_LEVEL:
                warns.append(m.group(2))
        if warns and all(any(p.search(w) for p in ignore) for w in warns):
            t["result"] = "pass" if r == "dmesg-warn" else "fail"
            notes[name] = "%s only for \"%s\" (tests/igt/dmesg-ignore.txt)" \
                % (r, warns[0][:80])
    return notes


def under(tests, name):
    """The results of entry @name: its own, or for an entry naming a whole
    binary or subtest, those of the subtests under it.  igt_results writes
    the names in lower case (piglit's convention)."""
    name = name.lower()
    if name in tests:
        return [tests[name]]
    return [t for k, t in tests.items() if k.startswith(name + "@")]


def rank(r):
    return ORDER.index(r) if r in ORDER else len(ORDER)


def outcome(tests, name):
    """The result of entry @name (the worst under it), or None."""
    results = [t.get("result", "notrun") for t in under(tests, name)]
    if not results:
        return None
    bad = [r for r in results if r not in GOOD]
    if bad:
        return max(bad, key=rank)
    return "pass" if "pass" in results else "skip"


def first_line(tests, name, keys, words):
    """The first line of the entry's outputs holding one of @words."""
    for t in under(tests, name):
        for key in keys:
            for line in t.get(key, "").splitlines():
                if any(w in line for w in words):
                    return line.strip()[:160]
    return ""


def why_fail(tests, name):
    return first_line(tests, name, ("err", "out", "dmesg"),
                      ("Failed assertion", "FAIL", "failed", "Timeout",
                       "timeout", "WARNING", "Killing"))


def why_skip(tests, name):
    return first_line(tests, name, ("out",), ("Test requirement:",)) or \
        "the test skipped"


def verdict(n, label, name, r, tests, expected, lost=None):
    """One TAP line; True when it is a failure.  @lost: why an entry has no
    result, when its guest stopped early."""
    speed = expected.get(name, "").startswith("[")
    if speed and r in GOOD:
        return "ok %d - %s" % (n, label), False
    if name in expected and r is not None:
        if r in GOOD:
            return ("not ok %d - %s: %s, but it is listed as an expected "
                    "failure (%s)" % (n, label, r, expected[name])), True
        return ("ok %d - %s # SKIP expected failure (%s): %s"
                % (n, label, r, expected[name])), False
    if r == "skip":
        return "ok %d - %s # SKIP %s" % (n, label, why_skip(tests, name)), \
            False
    if r in GOOD:
        return "ok %d - %s" % (n, label), False
    if r is None:
        return ("not ok %d - %s: no result: %s"
                % (n, label, lost or "the runner stopped before it")), True
    text = why_fail(tests, name)
    return "not ok %d - %s: %s%s" % (n, label, r, ": " + text if text
                                     else ""), True


# igt_runner's line as an entry starts ("[uptime] [n/N] binary (subtest)"),
# and the guest's own line after the runner ended ("[uptime] done").
RUNNER_LINE = re.compile(r"^\[\s*([\d.]+)\] (?:\[(\d+)/\d+\] |done$)")


def lost_results(guests, passes):
    """{pass: {entry: why it has no result}} for the guests that stopped
    before they were done (run-guest.sh's stopped.txt in their log
    directory): the entry their runner had started last is the one the
    guest died in; the results of their whole pass went with it."""
    lost = {}
    for k, (list_path, logs) in enumerate(guests or [], 1):
        try:
            with open(os.path.join(logs, "stopped.txt")) as f:
                why = f.readline().strip()
        except OSError:
            continue
        entries, _ = read_list(list_path)
        died, culprit = 1, None
        for p in range(1, passes + 1):
            try:
                with open(os.path.join(logs, "igt-runner-%d.txt" % p),
                          errors="replace") as f:
                    started = [m.group(2) for m in
                               (RUNNER_LINE.match(x.strip()) for x in f)
                               if m and m.group(2)]
            except OSError:
                break
            died = p
            if started and int(started[-1]) <= len(entries):
                culprit = entries[int(started[-1]) - 1]
        where = "in %s" % culprit if culprit else "before its runner began"
        for p in range(died, passes + 1):
            mine = lost.setdefault(p, {})
            for e in entries:
                mine[e] = "guest %d stopped %s%s: %s" % (
                    k, where, " (pass %d)" % died if p > died else "", why)
        if culprit:
            lost[died][culprit] = "guest %d stopped while it ran: %s" % (
                k, why)
    return lost


def entry_times(entries, runner_log):
    """(seconds, name) of the entries of a guest's list, longest first:
    from the runner's line as each starts to the next one's (the last:
    to the guest's "done"), on the guest's clock, which the runner's
    per-test timeout counts too."""
    starts = []
    with open(runner_log, errors="replace") as f:
        for line in f:
            m = RUNNER_LINE.match(line.strip())
            if m:
                starts.append(float(m.group(1)))
    times = [(b - a, name) for a, b, name in zip(starts, starts[1:], entries)]
    return sorted(times, reverse=True)


def read_times(path):
    """The (seconds, name) lines of a times file, longest first."""
    times = []
    with open(path) as f:
        for line in f:
            secs, _, name = line.strip().partition(" ")
            if name:
                times.append((float(secs), name.strip()))
    return sorted(times, reverse=True)


def margin(n, p, times, timeout):
    """The TAP line of pass @p's margin against the per-test timeout."""
    over = [(s, name) for s, name in times if s > timeout / 2]
    if not times:
        return ("not ok %d - pass %d: no entry has a time" % (n, p)), True
    if over:
        return ("not ok %d - pass %d: %s took %.1f s, more than half of "
                "the %d s per-test timeout" % (n, p, over[0][1], over[0][0],
                                               timeout)), True
    return ("ok %d - pass %d: every entry within half of the %d s per-test "
            "timeout (longest %.1f s, %s)" % (n, p, timeout, times[0][0],
                                             times[0][1])), False


def merge(out, paths):
    tests, starts, ends = {}, [], []
    for path in paths:
        run, _ = load(path)
        for name, t in run.get("tests", {}).items():
            if name not in tests or \
               rank(t.get("result")) > rank(tests[name].get("result")):
                tests[name] = t
        te = run.get("time_elapsed", {})
        if "start" in te and "end" in te:
            starts.append(te["start"])
            ends.append(te["end"])
    run = {"__type__": "TestrunResult", "tests": tests}
    if starts:
        run["time_elapsed"] = {"__type__": "TimeAttribute",
                               "start": min(starts), "end": max(ends)}
    with open(out, "w") as f:
        json.dump(run, f)


def load(path):
    try:
        with open(path) as f:
            return json.load(f), None
    except (OSError, ValueError) as e:
        return {}, e


def drill(n, list_path, path):
    """TAP lines of the engine-freeze drill, numbered from n + 1."""
    entries, _ = read_list(list_path)
    run, err = load(path)
    tests = {k.lower(): v for k, v in run.get("tests", {}).items()}
    first, second = entries[0], entries[1]
    dmesg = "".join(t.get("dmesg", "") for t in tests.values())
    # An engine reset ("Resetting rcs0 for ..."), or the GT's when IGT's
    # hang detector allowed only that ("Resetting chip for stopped
    # heartbeat on rcs0"): either way i915 found the frozen engine.
    reset = [line for line in dmesg.splitlines()
             if "Resetting " in line and "rcs0" in line]
    r1, r2 = outcome(tests, first), outcome(tests, second)
    lines = []
    if reset:
        lines.append("ok %d - drill: rcs0 frozen with nothing raised; i915 "
                     "reset it (%s) while %s ran (%s)"
                     % (n + 1, reset[0].split("] ", 1)[-1].strip()[:100],
                        first, r1))
    else:
        lines.append("not ok %d - drill: rcs0 frozen with nothing raised; "
                     "i915 reset nothing for rcs0 while %s ran (%s)%s"
                     % (n + 1, first, r1 or "no result",
                        ": %s" % err if err else ""))
    if r2 == "pass":
        lines.append("ok %d - drill: %s passes after the reset"
                     % (n + 2, second))
    else:
        lines.append("not ok %d - drill: %s after the reset: %s%s"
                     % (n + 2, second, r2 or "no result",
                        ": " + why_fail(tests, second) if r2 else ""))
    bad = not reset or r2 != "pass"
    return lines, bad


def summary(args):
    entries, _ = read_list(args.list)
    expected = read_expected(args.expected, args.accel)
    ignore = read_ignore(args.dmesg_ignore)
    n = 0
    bad = False
    lines = []
    totals = []
    lost = lost_results(args.guest, len(args.results))
    for p, path in enumerate(args.results, 1):
        run, err = load(path)
        if err:
            lines.append("# pass %d: no results (%s)" % (p, err))
        tests = {k.lower(): v for k, v in run.get("tests", {}).items()}
        notes = rejudge(tests, ignore)
        count = {}
        for name in entries:
            n += 1
            r = outcome(tests, name)
            label = name if len(args.results) == 1 else \
                "%s (pass %d)" % (name, p)
            count[r or "notrun"] = count.get(r or "notrun", 0) + 1
            line, failed = verdict(n, label, name, r, tests, expected,
                                   lost.get(p, {}).get(name))
            note = [v for k, v in notes.items()
                    if k == name.lower() or k.startswith(name.lower() + "@")]
            if note and r in GOOD:
                line += " (igt_runner: %s)" % note[0]
            lines.append(line)
            bad |= failed
        if args.test_timeout:
            n += 1
            times = read_times(args.times[p - 1]) \
                if len(args.times or []) >= p else []
            line, failed = margin(n, p, times, args.test_timeout)
            lines.append(line)
            bad |= failed
        te = run.get("time_elapsed", {})
        secs = te["end"] - te["start"] if "start" in te and "end" in te \
            else 0
        totals.append((p, count, secs))
    if args.drill:
        more, failed = drill(n, *args.drill)
        lines += more
        n += len(more)
        bad |= failed
    if args.tap:
        print("1..%d" % n)
        for line in lines:
            print(line)
    xf = sum(1 for name in entries if name in expected)
    for p, count, secs in totals:
        parts = ", ".join("%d %s" % (count[r], r)
                          for r in ORDER if count.get(r))
        print("%sIGT pass %d: %s (%d listed as expected failures); %.0f s"
              % ("# " if args.tap else "", p, parts, xf, secs))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("order")
    o.add_argument("--order", default="listed",
                   choices=("listed", "reversed", "shuffle"))
    o.add_argument("--seed", type=int, default=0)
    o.add_argument("--shard", default="1/1")
    o.add_argument("lists", nargs="+")
    s = sub.add_parser("summary")
    s.add_argument("--expected")
    s.add_argument("--dmesg-ignore")
    s.add_argument("--accel", default="tcg")
    s.add_argument("--list", required=True)
    s.add_argument("--tap", action="store_true")
    s.add_argument("--drill", nargs=2, metavar=("LIST", "RESULTS"))
    s.add_argument("--test-timeout", type=int, default=0)
    s.add_argument("--times", action="append")
    s.add_argument("--guest", nargs=2, action="append",
                   metavar=("LIST", "LOGS"))
    s.add_argument("results", nargs="+")
    m = sub.add_parser("times")
    m.add_argument("--list", required=True)
    m.add_argument("runner_log")
    g = sub.add_parser("merge")
    g.add_argument("out")
    g.add_argument("results", nargs="+")
    args = ap.parse_args()
    if args.cmd == "order":
        m = re.fullmatch(r"(\d+)/(\d+)", args.shard)
        if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
            ap.error("--shard takes K/N, 1 <= K <= N")
        for e in order(args.lists, args.order, args.seed,
                       (int(m.group(1)), int(m.group(2)))):
            print(e)
        return 0
    if args.cmd == "merge":
        merge(args.out, args.results)
        return 0
    if args.cmd == "times":
        entries, _ = read_list(args.list)
        for secs, name in entry_times(entries, args.runner_log):
            print("%7.1f %s" % (secs, name))
        return 0
    return summary(args)


if __name__ == "__main__":
    sys.exit(main())
