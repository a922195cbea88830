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

    igt_tier.py order [--ci-shard K/N] [--xfails PREFIX] [--no-pin] ...
        --ci-shard: drm-ci's split (drivers/gpu/drm/ci/igt_runner.sh in
        the Linux tree: sed -n K~Np) of the whole order above: entry i
        (from 1) when (i - 1) mod N = K - 1, the first and last entries
        too.  --xfails: the entries a regex of PREFIX-skips.txt finds are
        left out (after the split, as igt_runner.sh hands igt-runner the
        split list and --skips).  --no-pin: no entry stays first or last
        (for a list that is already a shard's part).

    igt_tier.py merge OUT RESULTS...
        One results.json (OUT) of the shards' RESULTS of a pass: their
        tests, the worse result where two shards ran the same entry, and
        the span of their times.

    igt_tier.py summary [--xfails PREFIX] [--dmesg-ignore FILE] [--tap]
                        [--junit FILE] [--drill LIST RESULTS]
                        [--test-timeout S --times FILE...]
                        --list LIST RESULTS...
        Verdicts of the passes whose igt_results files (results.json)
        are RESULTS, against the run's list: one TAP line per entry and
        pass (--tap), then a summary in IGT's terms per pass.  Exit
        status 0 when the run meets the expectations of --xfails, in
        drm-ci's form (drivers/gpu/drm/ci/xfails/ and
        Documentation/gpu/automated_testing.rst in the Linux tree):
        PREFIX-fails.txt ("name,Fail|Timeout|Crash": known failures),
        PREFIX-flakes.txt and PREFIX-skips.txt (one name or regex a
        line: tests whose result never fails the run, and tests not
        run), names without "igt@", "#" comments, every entry under a
        comment that says why.  An entry's IGT result counts as drm-ci's
        status: pass Pass, skip Skip, fail, warn, dmesg-warn and
        dmesg-fail Fail, timeout Timeout, crash, abort and incomplete
        Crash, none Missing.  Pass and Skip succeed; a listed failure
        that fails so succeeds as an expected failure (TAP: SKIP), with
        another failure fails, and passing or skipping fails as an
        unexpected pass (the line is to go); a flake succeeds whatever it
        gives; an entry that a skips regex matches is not run and is
        reported skipped; anything else fails.  A test igt_runner marked
        dmesg-warn (dmesg-fail) only for kernel warnings that all match a
        pattern of --dmesg-ignore's FILE (warnings about the emulated
        CPU, not the device) counts as passed (failed), and its line says
        so.  --junit: the same verdicts as JUnit XML (a test case per
        entry and pass).  --drill: the engine-freeze drill's list and
        results (two more TAP lines): i915 reset the frozen rcs0 during
        the first entry, and the second passed.  --test-timeout: the
        per-test timeout the runner had; one more TAP line per pass:
        every entry took at most half of it (the guest's clock, which the
        runner's timeout counts), so that a test is not one slow day away
        from being killed; --times (repeated, one per pass): the times
        files of "times" below.

    igt_tier.py report --out DIR [--xfails PREFIX] [--dmesg-ignore FILE]
                       [--test-timeout S] [--drill LIST] SHARD-DIR...
        The merge step of a sharded run (scripts/run-igt.sh --shard K/N,
        one per CI job): the shards' results of each pass merged into
        DIR/pass-P/results.json, their times into DIR/times-P.txt, and
        the verdicts of "summary" over the run's whole order (the
        shards' run.list) in DIR/tap.txt, DIR/junit.xml (JUnit XML for a
        CI's test view), DIR/summary.txt and DIR/failures.csv (every
        entry that did not pass or skip, "name,Status" as a fails.txt
        takes it; "name,UnexpectedPass" for a listed failure that passed
        or skipped).  An entry of a shard that left no results is Missing,
        and says so.  --drill: the drill's list; its results are the
        first shard's drill/.

    igt_tier.py compare JUNIT-A JUNIT-B
        Whether two runs' verdicts (their junit.xml) have the same test
        cases with the same verdicts: pass, fail, or skip with the same
        reason (a sharded run's report against an unsharded run of the
        same list); the differences are printed, and exit status 1.

    igt_tier.py times --list LIST RUNNER-LOG
        The guest seconds each entry of a guest's list took, longest
        first, from igt_runner's output in that guest (RUNNER-LOG).

Standard library only (the base system's /usr/bin/python3).
"""
import argparse
import contextlib
import io
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


def order(lists, how, seed, shard=(1, 1), pin=True):
    first, middle, tail = [], [], []
    for i, path in enumerate(lists):
        entries, last = read_list(path)
        if last is None or not pin:
            last = len(entries)
        if i == 0 and entries and pin:
            first, entries, last = entries[:1], entries[1:], last - 1
        middle += entries[:last]
        tail += entries[last:]
    if how == "reversed":
        middle.reverse()
    elif how == "shuffle":
        random.Random(seed).shuffle(middle)
    k, n = shard
    return first + middle[k - 1::n] + tail


def ci_shard(entries, shard):
    """drm-ci's split of a list over parallel jobs (sed -n K~Np in
    drivers/gpu/drm/ci/igt_runner.sh): entry i, from 1, goes to job
    ((i - 1) mod N) + 1."""
    k, n = shard
    return entries[k - 1::n]


# drm-ci's expectations (drivers/gpu/drm/ci/xfails/ in the Linux tree): the
# statuses a fails.txt line may give, and IGT's results as those statuses.
FAIL_STATUSES = ("Fail", "Timeout", "Crash")
STATUS = {"pass": "Pass", "skip": "Skip", "fail": "Fail", "warn": "Fail",
          "dmesg-warn": "Fail", "dmesg-fail": "Fail", "timeout": "Timeout",
          "crash": "Crash", "abort": "Crash", "incomplete": "Crash",
          "notrun": "Missing", None: "Missing"}


def ci_name(entry):
    """drm-ci's name of a list entry: without IGT's "igt@"."""
    return entry[4:] if entry.startswith("igt@") else entry


class Xfails:
    """The expectation files PREFIX-fails.txt, -flakes.txt, -skips.txt.
    Each entry comes with the "#" comment above it in its paragraph (a
    blank line ends a comment's reach); an entry without one is an error,
    so that every expectation says why."""

    def __init__(self, prefix=None):
        self.fails, self.flakes, self.skips = {}, [], []
        if not prefix:
            return
        for line, why, src in self._read(prefix + "-fails.txt"):
            name, sep, status = line.rpartition(",")
            if not sep or status not in FAIL_STATUSES:
                raise ValueError("%s: \"%s\": a fails line is name,%s"
                                 % (src, line, "|".join(FAIL_STATUSES)))
            self.fails[name.lower()] = (status, why, src)
        for kind in ("flakes", "skips"):
            for line, why, src in self._read("%s-%s.txt" % (prefix, kind)):
                try:
                    pat = re.compile(line)
                except re.error as e:
                    raise ValueError("%s: \"%s\": %s" % (src, line, e))
                getattr(self, kind).append((pat, why, src))

    @staticmethod
    def _read(path):
        """(entry, why, file:line) of an expectation file, [] if none."""
        src = os.path.basename(path)
        try:
            f = open(path)
        except FileNotFoundError:
            return []
        out, why = [], []
        with f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    why = []
                elif line.startswith("#"):
                    why.append(line.lstrip("#").strip())
                elif not why:
                    raise ValueError("%s:%d: \"%s\" has no comment above it "
                                     "saying why" % (src, n, line))
                else:
                    out.append((line, " ".join(why), "%s:%d" % (src, n)))
        return out

    @staticmethod
    def _match(pats, entry):
        """(why, where) of the first regex that finds the entry's name
        (a search, not anchored, as igt-runner's --skips and --flakes)."""
        name = ci_name(entry)
        for pat, why, src in pats:
            if pat.search(name):
                return why, src
        return None

    def skipped(self, entry):
        return self._match(self.skips, entry)

    def flake(self, entry):
        return self._match(self.flakes, entry)

    def fail(self, entry):
        """(status, why, where) of the entry's fails line, or None."""
        return self.fails.get(ci_name(entry).lower())


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


def verdict(n, label, name, r, tests, xfails, lost=None):
    """One TAP line; True when it is a failure.  @lost: why an entry has no
    result, when its guest stopped early.  The verdicts are drm-ci's (see
    summary in the module's help)."""
    status = STATUS.get(r, "Fail")
    flake = xfails.flake(name)
    fail = xfails.fail(name)
    if flake and status not in ("Pass", "Skip"):
        return ("ok %d - %s # SKIP known flake (%s: %s): %s"
                % (n, label, flake[1], flake[0], r or "no result")), False
    if fail and status == fail[0]:
        return ("ok %d - %s # SKIP expected failure (%s: %s): %s"
                % (n, label, fail[2], fail[1], r or "no result")), False
    if fail and status in ("Pass", "Skip"):
        return ("not ok %d - %s: unexpected pass: %s, but %s lists it as "
                "%s (%s); the line is to go" % (n, label, r, fail[2],
                                                fail[0], fail[1])), True
    listed = " (%s lists it as %s: %s)" % (fail[2], fail[0], fail[1]) \
        if fail else ""
    if r == "skip":
        return "ok %d - %s # SKIP %s" % (n, label, why_skip(tests, name)), \
            False
    if r in GOOD:
        return "ok %d - %s" % (n, label), False
    if r is None:
        return ("not ok %d - %s: no result: %s%s"
                % (n, label, lost or "the runner stopped before it",
                   listed)), True
    text = why_fail(tests, name)
    return "not ok %d - %s: %s%s%s" % (n, label, r, ": " + text if text
                                       else "", listed), True


# igt_runner's line as an entry starts ("[uptime] [n/N] binary (subtest)"),
# and the guest's own line after the runner ended ("[uptime] done").
RUNNER_LINE = re.compile(r"^\[\s*([\d.]+)\] (?:\[(\d+)/\d+\] |done$)")


def lost_results(guests, passes):
    """{pass: {entry: why it has no result}} for the guests that stopped
    before they were done (run-guest.sh's stopped.txt in their log
    directory): the entry their runner had started last is the one the
    guest died in; the results of their whole pass went with it."""
    lost = {}
    for k, guest in enumerate(guests or [], 1):
        list_path, logs = guest[:2]
        who = guest[2] if len(guest) > 2 else "guest %d" % k
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
                mine[e] = "%s stopped %s%s: %s" % (
                    who, where, " (pass %d)" % died if p > died else "", why)
        if culprit:
            lost[died][culprit] = "%s stopped while it ran: %s" % (who, why)
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
    """The verdicts (see the module's help); prints TAP (--tap) and the
    passes' summaries, writes --junit; returns the exit status."""
    entries, _ = read_list(args.list)
    xfails = Xfails(getattr(args, "xfails", None))
    ignore = read_ignore(args.dmesg_ignore)
    n = 0
    bad = False
    cases = []          # (JUnit name, TAP line)
    totals = []
    lost = lost_results(args.guest, len(args.results))
    for p, extra in (getattr(args, "lost", None) or {}).items():
        for name, why in extra.items():
            lost.setdefault(p, {}).setdefault(name, why)
    left_out = [e for e in entries if xfails.skipped(e)]
    for p, path in enumerate(args.results, 1):
        run, err = load(path)
        if err:
            cases.append((None, "# pass %d: no results (%s)" % (p, err)))
        tests = {k.lower(): v for k, v in run.get("tests", {}).items()}
        notes = rejudge(tests, ignore)
        count = {}
        for name in entries:
            n += 1
            label = name if len(args.results) == 1 else \
                "%s (pass %d)" % (name, p)
            skip = xfails.skipped(name)
            if skip:
                cases.append((label, "ok %d - %s # SKIP not run (%s: %s)"
                              % (n, label, skip[1], skip[0])))
                continue
            r = outcome(tests, name)
            count[r or "notrun"] = count.get(r or "notrun", 0) + 1
            line, failed = verdict(n, label, name, r, tests, xfails,
                                   lost.get(p, {}).get(name))
            note = [v for k, v in notes.items()
                    if k == name.lower() or k.startswith(name.lower() + "@")]
            if note and r in GOOD:
                line += " (igt_runner: %s)" % note[0]
            cases.append((label, line))
            bad |= failed
        if args.test_timeout:
            n += 1
            times = read_times(args.times[p - 1]) \
                if len(args.times or []) >= p else []
            line, failed = margin(n, p, times, args.test_timeout)
            cases.append(("pass %d: per-test timeout margin" % p, line))
            bad |= failed
        te = run.get("time_elapsed", {})
        secs = te["end"] - te["start"] if "start" in te and "end" in te \
            else 0
        totals.append((p, count, secs))
    if args.drill:
        more, failed = drill(n, *args.drill)
        cases += [("drill %d" % i, line) for i, line in enumerate(more, 1)]
        n += len(more)
        bad |= failed
    if args.tap:
        print("1..%d" % n)
        for _, line in cases:
            print(line)
    if getattr(args, "junit", None):
        write_junit(args.junit, [c for c in cases if c[0]])
    xf = sum(1 for name in entries if xfails.fail(name))
    fl = sum(1 for name in entries if xfails.flake(name))
    for p, count, secs in totals:
        parts = ", ".join("%d %s" % (count[r], r)
                          for r in ORDER if count.get(r))
        print("%sIGT pass %d: %s (%d listed as known failures, %d as "
              "flakes, %d left out as skips); %.0f s"
              % ("# " if args.tap else "", p, parts or "nothing", xf, fl,
                 len(left_out), secs))
    return 1 if bad else 0


TAP_LINE = re.compile(r"^(not )?ok \d+ - (.*?)(?: # (SKIP) (.*))?$")


def write_junit(path, cases):
    """JUnit XML of the TAP lines: a test case each, failed for "not ok",
    skipped for "# SKIP" (with the reason), named by drm-ci's name and
    classed by the IGT binary, as GitLab's test report shows them."""
    import xml.etree.ElementTree as ET
    suite = ET.Element("testsuite", name="IGT")
    fails = skips = 0
    for name, line in cases:
        m = TAP_LINE.match(line)
        if not m:
            continue
        short = ci_name(name)
        cls = "igt." + short.split("@")[0] if name.startswith("igt@") \
            else "gpumodel"
        case = ET.SubElement(suite, "testcase", name=short, classname=cls)
        if m.group(1):
            fails += 1
            text = m.group(2)
            msg = text[len(name) + 2:] if text.startswith(name + ": ") \
                else text
            ET.SubElement(case, "failure", message=msg[:200]).text = line
        elif m.group(3):
            skips += 1
            ET.SubElement(case, "skipped", message=m.group(4)[:200])
    suite.set("tests", str(len(suite)))
    suite.set("failures", str(fails))
    suite.set("skipped", str(skips))
    top = ET.Element("testsuites")
    top.append(suite)
    ET.ElementTree(top).write(path, encoding="utf-8", xml_declaration=True)


def junit_verdicts(path):
    """{test case: (verdict, skip reason)} of a JUnit file of write_junit:
    pass, skip (with its message: an expected failure, a flake, a skips
    entry or the test's own requirement) or fail."""
    import xml.etree.ElementTree as ET
    out = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        name = case.get("name")
        if case.find("failure") is not None:
            out[name] = ("fail", "")
        elif case.find("skipped") is not None:
            out[name] = ("skip", case.find("skipped").get("message", ""))
        else:
            out[name] = ("pass", "")
    return out


def compare(a_path, b_path):
    """Print where two runs' verdicts differ; 0 when they have the same
    test cases with the same verdicts (a sharded run's report and an
    unsharded run of the same list, say)."""
    a, b = junit_verdicts(a_path), junit_verdicts(b_path)
    diff = 0
    for name in sorted(set(a) | set(b)):
        if a.get(name) != b.get(name):
            diff += 1
            print("%s: %s | %s" % (name, a.get(name, "absent"),
                                   b.get(name, "absent")))
    count = {}
    for verdict, _ in a.values():
        count[verdict] = count.get(verdict, 0) + 1
    print("%s: %d test case(s) (%s) against %d: %s" % (
        "same" if not diff else "DIFFERENT", len(a),
        ", ".join("%d %s" % (count[k], k) for k in sorted(count)), len(b),
        "same names, same verdicts" if not diff else
        "%d differ" % diff))
    return 1 if diff else 0


def report(args):
    """The merge step of a sharded run: see the module's help."""
    shards = []
    for d in args.shards:
        m = re.search(r"(\d+)-of-(\d+)$", os.path.normpath(d))
        if not m:
            raise SystemExit("igt_tier.py report: %s is not a shard's "
                             "directory (K-of-N)" % d)
        shards.append((int(m.group(1)), int(m.group(2)), d))
    totals = {n for _, n, _ in shards}
    if len(totals) != 1:
        raise SystemExit("igt_tier.py report: shards of different runs: "
                         "%s" % sorted(totals))
    total = totals.pop()
    have = {k: d for k, _, d in shards}
    whole = None
    for k in sorted(have):
        path = os.path.join(have[k], "run.list")
        if os.path.exists(path):
            whole, _ = read_list(path)
            break
    if whole is None:
        raise SystemExit("igt_tier.py report: no shard has its run.list")
    passes = 1
    for d in have.values():
        while os.path.exists(os.path.join(d, "pass-%d" % (passes + 1))):
            passes += 1
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "igt.list"), "w") as f:
        f.write("".join(e + "\n" for e in whole))
    # Entries of a shard that left no results, with that as their reason.
    missing = {}
    for k in range(1, total + 1):
        if k in have and os.path.exists(os.path.join(have[k], "igt.list")):
            continue
        for e in ci_shard(whole, (k, total)):
            missing[e] = "shard %d of %d left no results (its job did not " \
                "run or ended before its guests)" % (k, total)
    results, times, guests = [], [], []
    for p in range(1, passes + 1):
        parts = [os.path.join(d, "pass-%d" % p, "results.json")
                 for d in have.values()]
        parts = [x for x in parts if os.path.exists(x)]
        os.makedirs(os.path.join(args.out, "pass-%d" % p), exist_ok=True)
        out = os.path.join(args.out, "pass-%d" % p, "results.json")
        merge(out, parts)
        results.append(out)
        lines = []
        for d in have.values():
            try:
                with open(os.path.join(d, "times-%d.txt" % p)) as f:
                    lines += f.read().splitlines(True)
            except OSError:
                pass
        tpath = os.path.join(args.out, "times-%d.txt" % p)
        with open(tpath, "w") as f:
            f.writelines(sorted(lines, key=lambda x: -float(x.split()[0])))
        times.append(tpath)
    for k in sorted(have):
        gdir = os.path.join(have[k], "guests")
        for g in sorted(os.listdir(gdir)) if os.path.isdir(gdir) else []:
            glist = os.path.join(have[k], g, "igt.list")
            if os.path.exists(glist):
                guests.append((glist, os.path.join(gdir, g),
                               "part %d's guest %s" % (k, g.split("-")[-1])))
    drill_args = None
    if args.drill and 1 in have:
        drill_args = (args.drill, os.path.join(have[1], "drill",
                                               "results.json"))
    ns = argparse.Namespace(
        list=os.path.join(args.out, "igt.list"), xfails=args.xfails,
        dmesg_ignore=args.dmesg_ignore, tap=True, results=results,
        drill=drill_args, test_timeout=args.test_timeout, times=times,
        guest=guests, junit=os.path.join(args.out, "junit.xml"),
        lost={p: missing for p in range(1, passes + 1)})
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = summary(ns)
    tap = buf.getvalue()
    with open(os.path.join(args.out, "tap.txt"), "w") as f:
        f.write(tap)
    lines = tap.splitlines()
    summ = [x[2:] for x in lines if x.startswith("# IGT pass")]
    summ += [re.sub(r"^(not )?ok \d+ - ", lambda m: "FAILED: " if m.group(1)
                    else "", x) for x in lines if " - drill: " in x]
    summ.insert(0, "%d shard(s) of %d merged%s" % (
        len(have), total, ", shards %s missing" % ", ".join(
            str(k) for k in range(1, total + 1) if k not in have)
        if len(have) < total else ""))
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write("".join(x + "\n" for x in summ))
    # deqp-runner's failures.csv: what did not pass or skip, as fails.txt
    # lines, and UnexpectedPass for a listed failure that passed or
    # skipped (drivers/gpu/drm/ci/xfails/update-xfails.py reads these).
    with open(os.path.join(args.out, "failures.csv"), "w") as f:
        xfails, ignore = Xfails(args.xfails), read_ignore(args.dmesg_ignore)
        for p, path in enumerate(results, 1):
            run, _ = load(path)
            tests = {k.lower(): v for k, v in run.get("tests", {}).items()}
            rejudge(tests, ignore)
            for e in whole:
                if xfails.skipped(e):
                    continue
                st = STATUS.get(outcome(tests, e), "Fail")
                if st in ("Pass", "Skip") and xfails.fail(e):
                    st = "UnexpectedPass"
                if st not in ("Pass", "Skip"):
                    f.write("%s,%s\n" % (ci_name(e), st))
    for x in lines:
        if x.startswith("not ok"):
            print(x)
    for x in summ:
        print(x)
    return rc


def shard_arg(ap, text):
    m = re.fullmatch(r"(\d+)/(\d+)", text)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        ap.error("a shard is K/N, 1 <= K <= N: %s" % text)
    return int(m.group(1)), int(m.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("order")
    o.add_argument("--order", default="listed",
                   choices=("listed", "reversed", "shuffle"))
    o.add_argument("--seed", type=int, default=0)
    o.add_argument("--shard", default="1/1")
    o.add_argument("--ci-shard")
    o.add_argument("--xfails")
    o.add_argument("--no-pin", action="store_true")
    o.add_argument("lists", nargs="+")
    s = sub.add_parser("summary")
    s.add_argument("--xfails")
    s.add_argument("--dmesg-ignore")
    s.add_argument("--list", required=True)
    s.add_argument("--tap", action="store_true")
    s.add_argument("--junit")
    s.add_argument("--drill", nargs=2, metavar=("LIST", "RESULTS"))
    s.add_argument("--test-timeout", type=int, default=0)
    s.add_argument("--times", action="append")
    s.add_argument("--guest", nargs=2, action="append",
                   metavar=("LIST", "LOGS"))
    s.add_argument("results", nargs="+")
    r = sub.add_parser("report")
    r.add_argument("--out", required=True)
    r.add_argument("--xfails")
    r.add_argument("--dmesg-ignore")
    r.add_argument("--test-timeout", type=int, default=0)
    r.add_argument("--drill")
    r.add_argument("shards", nargs="+")
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    m = sub.add_parser("times")
    m.add_argument("--list", required=True)
    m.add_argument("runner_log")
    g = sub.add_parser("merge")
    g.add_argument("out")
    g.add_argument("results", nargs="+")
    args = ap.parse_args()
    try:
        if args.cmd == "order":
            got = order(args.lists, args.order, args.seed,
                        shard_arg(ap, args.shard), pin=not args.no_pin)
            if args.ci_shard:
                got = ci_shard(got, shard_arg(ap, args.ci_shard))
            xfails = Xfails(args.xfails)
            got = [e for e in got if not xfails.skipped(e)]
            for e in got:
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
        if args.cmd == "report":
            return report(args)
        if args.cmd == "compare":
            return compare(args.a, args.b)
        return summary(args)
    except ValueError as e:
        print("igt_tier.py: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
