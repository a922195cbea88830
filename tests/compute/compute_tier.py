#!/usr/bin/python3
"""Host side of the compute tier: the verdicts, as TAP, from what the guest
sent (tests/compute/compute-checks.sh) and the references made on the
host: the OpenCL programs run with PoCL, the Vulkan program's C
computation (scripts/run-compute.sh makes both).

    compute_tier.py --out DIR [--compare NAME:REF:WHO ...]
                    [--piglit POCL_RESULTS --piglit-expected FILE]
                    [--clpeak TEST,TEST] GUEST_TAP

GUEST_TAP is scripts/run-guest.sh's TAP of the compute profile (whether
the guest ran every step: its check of tests/compute/checks.txt, with the
reason when it did not); its lines come first, renumbered.  --out is that
run's directory (data.log, the data channel).  Each --compare names a
program's run in the guest (its section NAME, its output NAME-out) and
the reference output REF it must equal, made on the host by WHO (PoCL,
or the program's C reference).  Then, from data.log's sections:

  i915        modprobe i915 returned 0 and a render node appeared
  clinfo      clinfo ran and lists a device (its name is the check's text)
  vulkaninfo  vulkaninfo --summary ran and lists a device
  NAME        the program ran on intel-gpu (exit 0) and its output
              equals REF byte for byte (else the first difference)
  dmesg       no GPU hang, reset, wedged GT, request ended by i915's
              watchdog or kernel splat in the guest's log

Exit status 0 when no check failed.  Standard library only.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "guest"))
from guest_verdicts.userspace import (  # noqa: E402
    dmesg_check, i915_check, load, print_tap, read_expected)


def first_difference(got, want, who):
    """A sentence on where two outputs first differ, and how many values
    differ; @who made @want."""
    g = got.decode(errors="replace").split("\n")
    w = want.decode(errors="replace").split("\n")
    if g[:1] != w[:1]:
        return "header %r, %s's %r" % (g[0][:60], who, w[0][:60])
    diff = [i for i in range(1, max(len(g), len(w)))
            if (g[i] if i < len(g) else None) != (w[i] if i < len(w) else None)]
    if not diff:
        return "same values, other bytes"
    i = diff[0]
    return ("%d of %d values differ; first at [%d]: model %s, %s %s" %
            (len(diff), len(w) - 2, i - 1,
             g[i] if i < len(g) else "(missing)", who,
             w[i] if i < len(w) else "(missing)"))


def kernel_ms(text):
    """The time cl-kernels said its kernel ran, in ms, or None."""
    m = re.search(r"kernel ran in ([0-9.]+) ms", text or "")
    return float(m.group(1)) if m else None


def timing(s, refp, who):
    """", kernel X ms, WHO's Y ms (Z times)" when both programs said."""
    try:
        with open(re.sub(r"\.out$", ".err", refp)) as f:
            ref = kernel_ms(f.read())
    except OSError:
        ref = None
    got = kernel_ms(s.text)
    if got is None or not ref:
        return ""
    return ", kernel %.1f ms, %s's %.1f ms (%.0f times)" % (got, who, ref,
                                                            got / ref)


def compare(log, out, name, refp, who):
    """(ok, text): the guest's run @name against the reference @refp."""
    s = log.get(name)
    try:
        with open(refp, "rb") as f:
            want = f.read()
    except OSError:
        want = None
    try:
        with open(os.path.join(out, "%s-out.txt" % name), "rb") as f:
            got = f.read()
    except OSError:
        got = None
    if s is None:
        return False, "%s: not run in the guest" % name
    why = s.text.strip().split("\n")[-1][:200] if s.text.strip() else ""
    if want is None:
        return False, "%s: no %s output %s" % (name, who, refp)
    if s.rc == "timeout":
        return False, ("%s: timed out after %s s in the guest (%s)" %
                       (name, s.attrs.get("secs", "?"), why))
    if not got:
        return False, "%s: no output (exit %s: %s)" % (name, s.rc, why)
    if got != want:
        return False, ("%s: differs from %s's (exit %s): %s" %
                       (name, who, s.rc, first_difference(got, want, who)))
    if s.rc != "0":
        return False, ("%s: same output as %s's but exit %s (%s)" %
                       (name, who, s.rc, why))
    return True, ("%s: %d bytes, identical to %s's, in %s s%s" %
                  (name, len(got), who, s.attrs.get("secs", "?"),
                   timing(s, refp, who)))


def device_check(log, name, pattern, what):
    """(ok, text): tool @name ran and its output names a device."""
    c = log.get(name)
    names = re.findall(pattern, c.text, re.M) if c else []
    if c is None:
        return False, "%s: not reported" % name
    if c.rc != "0" or not names:
        return False, "%s: exit %s, %d devices" % (name, c.rc, len(names))
    return True, "%s: %s \"%s\", in %s s" % (name, what, names[0],
                                             c.attrs.get("secs", "?"))


def piglit_digest(text):
    """{test: (result, secs, subtests)} and {test: its output lines} of
    a tests/compute/piglit_summary.py digest."""
    res, outs, cur = {}, {}, None
    for line in text.split("\n"):
        f = line.split("\t")
        if line.startswith("# "):
            cur = outs.setdefault(line[2:], [])
        elif line.startswith("  ") and cur is not None:
            cur.append(line[2:])
        elif len(f) == 4:
            res[f[2]] = (f[0], f[1], f[3])
    return res, outs


def piglit_verdicts(log, pocl_path, expected):
    """(ok, text) per test of the PoCL run, the guest's result against
    PoCL's."""
    with open(pocl_path) as f:
        pocl, _ = piglit_digest(f.read())
    s = log.get("piglit-results")
    guest, outs = piglit_digest(s.text if s else "")
    run = log.get("piglit")
    res = []
    if run is None or run.rc == "timeout":
        res.append((False, "piglit: %s" % ("not run in the guest" if run is None
                                           else "timed out after %s s" %
                                           run.attrs.get("secs", "?"))))
    for name in sorted(pocl):
        want = pocl[name][0]
        got, secs, subs = guest.get(name, ("notrun", "-", "-"))
        head = "piglit@%s: %s (PoCL %s)" % (name, got, want)
        why = ""
        if got != "pass" and outs.get(name):
            why = ": " + " / ".join(x.strip() for x in outs[name][-3:])[:200]
        if name in expected:
            ok = got == expected[name]
            res.append((ok, "%s, listed as %s%s" %
                        (head, expected[name],
                         "" if ok else " in piglit-cl-expected.txt" + why)))
        elif got == "pass":
            res.append((True, "%s in %s s" % (head, secs)))
        elif got == "skip":
            # What the device does not offer (cl_khr_fp64, OpenCL C 2.0
            # features): piglit's own verdict that the test does not apply.
            res.append((True, "%s, not applicable on intel-gpu%s" %
                        (head, why)))
        elif want != "pass":
            res.append((True, "%s, not passing with PoCL either%s" %
                        (head, "" if subs == "-" else " (" + subs[:120] + ")")))
        else:
            res.append((False, head + why))
    listed = [n for n in expected if n in pocl]
    res.append((len(listed) * 20 <= len(pocl),
                "piglit: %d of %d tests listed in piglit-cl-expected.txt"
                " (at most 5 %%)" % (len(listed), len(pocl))))
    return res


def clpeak_verdict(log, test):
    """(ok, text): clpeak --@test's run in the guest."""
    name = "clpeak-" + test
    s = log.get(name)
    if s is None:
        return False, "%s: not run in the guest" % name
    figures = re.findall(r"^\s*(\S[^:\n]*?)\s*:\s*([0-9]+\.[0-9]+)", s.text,
                         re.M)
    secs = s.attrs.get("secs", "?")
    if s.rc == "timeout":
        return False, "%s: timed out after %s s, %d figures" % (
            name, secs, len(figures))
    bad = re.findall(r"^.*(?:[Ss]kipped|[Ee]rror|[Ff]ailed).*$", s.text, re.M)
    if s.rc != "0" or not figures or bad:
        return False, "%s: exit %s, %d figures%s" % (
            name, s.rc, len(figures), ": " + bad[0].strip()[:120] if bad
            else "")
    return True, "%s: %s in %s s" % (
        name, ", ".join("%s %s" % f for f in figures[:6]), secs)


def verdicts(log, out, compares):
    """(ok, text) per check, in order."""
    res = [i915_check(log)]
    res.append(device_check(log, "clinfo", r"^\s*Device Name\s+(.*\S)",
                            "OpenCL device"))
    res.append(device_check(log, "vulkaninfo", r"^\s*deviceName\s*=\s*(.*\S)",
                            "Vulkan device"))
    for name, refp, who in compares:
        res.append(compare(log, out, name, refp, who))

    res.append(dmesg_check(log))
    return res


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--compare", action="append", default=[],
                   metavar="NAME:REF:WHO")
    p.add_argument("--piglit", metavar="POCL_RESULTS")
    p.add_argument("--piglit-expected", metavar="FILE")
    p.add_argument("--clpeak", default="", metavar="TEST,TEST")
    p.add_argument("guest_tap")
    a = p.parse_args()
    log, tests, comments = load(a.guest_tap, a.out)
    compares = [tuple(c.split(":", 2)) for c in a.compare]
    if any(len(c) != 3 for c in compares):
        p.error("--compare takes NAME:REF:WHO")
    checks = verdicts(log, a.out, compares)
    if a.piglit:
        checks[-1:-1] = piglit_verdicts(log, a.piglit,
                                        read_expected(a.piglit_expected))
    checks[-1:-1] = [clpeak_verdict(log, t) for t in a.clpeak.split(",") if t]
    return print_tap(tests, checks, comments)


if __name__ == "__main__":
    sys.exit(main())
