"""What the tests of the guest tier's verdicts share (test_guest_tier.py
runs them all): the recorded logs, ways to change a section of one, the
verdicts of a log and a TAP runner.
"""
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from guest_verdicts.log import read_checks  # noqa: E402
from guest_verdicts.report import tap  # noqa: E402


def read(name):
    with open(os.path.join(HERE, name)) as f:
        return f.read()


CHECKS = read_checks(os.path.join(HERE, "checks.txt"))
NV_CHECKS = read_checks(os.path.join(HERE, "nv-checks.txt"))
INTEL = read("recorded/intel.log")
NV = read("recorded/nv.log")


def section(text, name, body):
    """TEXT with section NAME's body replaced (its @@BEGIN line kept unless
    BODY starts with one)."""
    pat = re.compile(r"^(@@BEGIN %s(?: [^\n]*)?)\n.*?^@@END %s$"
                     % (re.escape(name), re.escape(name)), re.M | re.S)
    m = pat.search(text)
    assert m, "no section %s" % name
    head = m.group(1)
    if body.startswith("@@BEGIN "):
        head, body = body.split("\n", 1)
    return text[:m.start()] + "%s\n%s@@END %s" % (head, body, name) + \
        text[m.end():]


def attrs(text, name, new):
    """TEXT with the @@BEGIN line of section NAME given attributes NEW."""
    return re.sub(r"^@@BEGIN %s( [^\n]*)?$" % re.escape(name),
                  "@@BEGIN %s %s" % (name, new), text, count=1, flags=re.M)


def body(text, name):
    m = re.search(r"^@@BEGIN %s(?: [^\n]*)?\n(.*?)^@@END %s$"
                  % (re.escape(name), re.escape(name)), text, re.M | re.S)
    return m.group(1)


def sub(text, name, old, new):
    """Replace OLD by NEW (a regular expression) in section NAME."""
    b = body(text, name)
    nb = re.sub(old, new, b, flags=re.M)
    assert nb != b, "%r not in section %s" % (old, name)
    return section(text, name, nb)


def drop(text, name):
    return re.sub(r"^@@BEGIN %s(?: [^\n]*)?\n.*?^@@END %s\n"
                  % (re.escape(name), re.escape(name)), "", text, count=1,
                  flags=re.M | re.S)


def judge(text, profile="intel"):
    checks = CHECKS if profile == "intel" else NV_CHECKS
    lines, failed, skipped, v, summary = tap(
        profile, text, checks, "WHY")
    return {cid: line for (cid, _), line in zip(checks, lines[1:])}, summary


class Case(unittest.TestCase):
    def verdicts(self, text, profile="intel"):
        return judge(text, profile)[0]

    def assertFails(self, text, failing, profile="intel", says=None):
        """Exactly the checks FAILING fail (the rest as in the passing
        log); SAYS: a text the first one's line holds."""
        base = self.verdicts(INTEL if profile == "intel" else NV, profile)
        got = self.verdicts(text, profile)
        bad = sorted(c for c, line in got.items() if line.startswith("not ok"))
        self.assertEqual(bad, sorted(failing), "\n".join(
            got[c] for c in bad))
        for c, line in got.items():
            if c not in failing:
                self.assertEqual(line.split(" # ")[0].startswith("ok"),
                                 base[c].split(" # ")[0].startswith("ok"), c)
        if says:
            self.assertIn(says, got[failing[0]])
        return got


def tap_main(modules):
    """Run every test of MODULES, print TAP; the exit status."""
    tests = []

    def flatten(s):
        for t in s:
            if isinstance(t, unittest.TestSuite):
                flatten(t)
            else:
                tests.append(t)
    for m in modules:
        flatten(unittest.defaultTestLoader.loadTestsFromModule(m))
    print("1..%d" % len(tests))
    failed = 0
    for n, t in enumerate(tests, 1):
        r = unittest.TestResult()
        t.run(r)
        name = t.id().split(".", 1)[1]
        if r.wasSuccessful():
            print("ok %d - %s" % (n, name))
        else:
            failed += 1
            print("not ok %d - %s" % (n, name))
            for _, tb in r.errors + r.failures:
                for line in tb.rstrip().split("\n"):
                    print("#   " + line)
    return 1 if failed else 0
