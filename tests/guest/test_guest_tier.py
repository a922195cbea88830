#!/usr/bin/python3
"""Tests of guest_tier.py (the guest tier's verdicts), in TAP.

recorded/intel.log and recorded/nv.log are the data channels of real
passing runs (scripts/run-guest.sh, both profiles; in intel.log the
i915-perf-reader sections keep only the counters the verdicts read).
Each failing case is that log with one reading changed the way a broken
device, driver or guest would change it, and must fail its check (and
only the checks that depend on it); recorded/intel-wedged.log is a run
cut short by a GT wedged on init, by hand.

This file runs them all (the guest/verdicts tier of make check): its own
(the recorded logs pass, TAP numbering, the igt and cost profiles, the
command line), test_guest_intel.py's and test_guest_nv.py's; guest_cases.py has
what they share.
"""
import os
import subprocess
import sys
import tempfile
import unittest

import guest_cases
from guest_cases import CHECKS, HERE, INTEL, NV, NV_CHECKS, Case, judge, tap
import test_guest_intel
import test_guest_nv
from guest_verdicts.host_cost import host_cost


class Passing(Case):
    def test_intel_log_passes(self):
        v, summary = judge(INTEL)
        self.assertEqual(len(v), len(CHECKS))
        for c, line in v.items():
            self.assertTrue(line.startswith("ok ") and "# SKIP" not in line,
                            line)
        self.assertIn("GT: not wedged", summary)
        self.assertTrue(any(x.startswith("Interrupts: IRQ ")
                            for x in summary))

    def test_nv_log_passes(self):
        v, summary = judge(NV, "nv")
        self.assertEqual(len(v), len(NV_CHECKS))
        for c, line in v.items():
            self.assertTrue(line.startswith("ok "), line)
        self.assertIn("nv-pcounter-probe (status 0, record-fault drill run: "
                      "0):", summary)
        self.assertTrue(any(x.startswith("  record-long ok domain 4 LONG")
                            for x in summary))

    def test_numbering_follows_checks(self):
        lines = tap("intel", INTEL, CHECKS, "WHY")[0]
        self.assertEqual(lines[0], "1..%d" % len(CHECKS))
        for n, line in enumerate(lines[1:], 1):
            self.assertTrue(line.startswith("ok %d - " % n), line)


class GuestReported(Case):
    def test_igt_profile_takes_the_guest_result(self):
        checks = [("igt-done", "every pass ran")]
        lines = tap("igt", "@@BEGIN x\n@@RESULT no ok x\n@@END x\n"
                               "@@RESULT igt-done ok 1 pass\n@@DONE\n",
                               checks, "WHY")[0]
        self.assertEqual(lines, ["1..1", "ok 1 - 1 pass"])
        lines = tap("igt", "", checks, "WHY")[0]
        self.assertEqual(lines[1], "not ok 1 - every pass ran "
                         "(not reported: WHY)")

    def test_cost_profile_figures(self):
        got = ('@@GOT {0} ok {{"cpu-s": {1}, "other-s": 5.0, '
               '"wall-s": {2}}}\n')
        log = ("@@BEGIN cost-1-nop-rcs\n@@REQ 1 cpu\n" +
               got.format(1, 10.25, 100.0) + "@@REQ 2 cpu\n" +
               got.format(2, 11.75, 101.5) +
               "nop ok: 4000 rcs batches in 0.08 s\n@@END cost-1-nop-rcs\n"
               "@@BEGIN cost-1-walker\n@@REQ 3 cpu\n" +
               got.format(3, 12.0, 102.0) + "@@REQ 4 cpu\n"
               "@@GOT 4 timeout no answer\n@@END cost-1-walker\n"
               "@@RESULT cost-runs ok 1 rounds\n@@DONE\n")
        self.assertEqual(host_cost(log), [
            ("1", "nop-rcs", "1.500", "1.500", "0.000"),
            ("1", "walker", "?", "?", "?")])
        lines = tap("cost", log, [("cost-runs", "every piece ran")],
                    "WHY")[0]
        self.assertEqual(lines, ["1..1", "ok 1 - 1 rounds"])


class CommandLine(unittest.TestCase):
    """guest_tier.py as run-guest.sh runs it, from another directory."""

    def run_tier(self, profile, checks, log, out):
        return subprocess.run(
            [sys.executable, os.path.join(HERE, "guest_tier.py"), "tap",
             "--profile", profile, "--checks", os.path.join(HERE, checks),
             "--why", "WHY", "--out", out, log], cwd=out,
            capture_output=True, text=True)

    def test_tap_results_and_summary(self):
        for profile, checks, names, text in (
                ("intel", "checks.txt", CHECKS, INTEL),
                ("nv", "nv-checks.txt", NV_CHECKS, NV)):
            with tempfile.TemporaryDirectory() as out:
                p = self.run_tier(profile, checks, os.path.join(
                    HERE, "recorded", profile + ".log"), out)
                self.assertEqual((p.returncode, p.stderr), (0, ""))
                self.assertEqual(p.stdout.split("\n")[:-1],
                                 tap(profile, text, names, "WHY")[0])
                with open(os.path.join(out, "results.txt")) as f:
                    res = [x.split(" ", 3)[1:3] for x in f]
                self.assertEqual(sorted(res),
                                 sorted([c, "ok"] for c, _ in names))
                with open(os.path.join(out, "summary.txt")) as f:
                    self.assertTrue(f.read().startswith("Guest: Linux "))

    def test_failing_log(self):
        with tempfile.TemporaryDirectory() as out:
            p = self.run_tier("nv", "nv-checks.txt",
                              os.path.join(out, "absent.log"), out)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("not ok 1 - no PCI device at 0000:00:03.0",
                          p.stdout)
            self.assertFalse(os.path.exists(os.path.join(out,
                                                         "summary.txt")))


def main():
    """Run every test of the guest tier's verdicts, print TAP."""
    return guest_cases.tap_main([sys.modules[__name__], test_guest_intel,
                                 test_guest_nv])


if __name__ == "__main__":
    sys.exit(main())
