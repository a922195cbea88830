#!/usr/bin/python3
"""Host side of the compute tier: the verdicts, as TAP, from what the guest
sent (tests/compute/compute-checks.sh) and from the same programs run on
the host with PoCL (scripts/run-compute.sh runs both).

    compute_tier.py --out DIR --ref DIR --kernels K,K GUEST_TAP

GUEST_TAP is scripts/run-guest.sh's TAP of the compute profile (whether
the guest ran every step: its check of tests/compute/checks.txt, with the
reason when it did not); its lines come first, renumbered.  --out is that
run's directory (data.log, the data channel); --ref holds PoCL's outputs,
KERNEL.out.  Then, from data.log's sections:

  i915      modprobe i915 returned 0 and a render node appeared
  clinfo    clinfo ran and lists a device (its name is the check's text)
  KERNEL    the program ran on intel-gpu (exit 0) and its output equals
            PoCL's byte for byte (else the first difference)
  dmesg     no GPU hang, reset, wedged GT or kernel splat in the guest's log

Exit status 0 when no check failed.  Standard library only.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "guest"))
from guest_verdicts.log import Log, SPLAT  # noqa: E402

HANG = r"GPU HANG|[Rr]esetting|wedged|hangcheck|\*ERROR\*"


def first_difference(got, want):
    """A sentence on where two outputs first differ, and how many values
    differ."""
    g = got.decode(errors="replace").split("\n")
    w = want.decode(errors="replace").split("\n")
    if g[:1] != w[:1]:
        return "header %r, PoCL's %r" % (g[0][:60], w[0][:60])
    diff = [i for i in range(1, max(len(g), len(w)))
            if (g[i] if i < len(g) else None) != (w[i] if i < len(w) else None)]
    if not diff:
        return "same values, other bytes"
    i = diff[0]
    return ("%d of %d values differ; first at [%d]: model %s, PoCL %s" %
            (len(diff), len(w) - 2, i - 1,
             g[i] if i < len(g) else "(missing)",
             w[i] if i < len(w) else "(missing)"))


def verdicts(log, out, ref, kernels):
    """(ok, text) per check, in order."""
    res = []
    m = log.get("modprobe")
    dri = log.get("dri")
    if m is None:
        res.append((False, "i915: modprobe i915 not reported"))
    elif m.rc != "0":
        res.append((False, "i915: modprobe i915 returned %s" % m.rc))
    elif dri is None or "renderD128" not in dri.text:
        res.append((False, "i915: loaded, but no /dev/dri/renderD128"))
    else:
        res.append((True, "i915: loaded in %s s, renderD128 there" %
                    m.attrs.get("secs", "?")))

    c = log.get("clinfo")
    names = re.findall(r"^\s*Device Name\s+(.*\S)", c.text, re.M) if c else []
    plats = re.findall(r"^\s*Platform Name\s+(.*\S)", c.text, re.M) if c else []
    if c is None:
        res.append((False, "clinfo: not reported"))
    elif c.rc != "0" or not names:
        res.append((False, "clinfo: exit %s, %d devices" % (c.rc, len(names))))
    else:
        res.append((True, "clinfo: device \"%s\" (platform \"%s\"), in %s s" %
                    (names[0], plats[0] if plats else "?",
                     c.attrs.get("secs", "?"))))

    for k in kernels:
        s = log.get("cl-" + k)
        o = log.get("cl-%s-out" % k)
        refp = os.path.join(ref, k + ".out")
        outp = os.path.join(out, "cl-%s-out.txt" % k)
        try:
            with open(refp, "rb") as f:
                want = f.read()
        except OSError:
            want = None
        try:
            with open(outp, "rb") as f:
                got = f.read()
        except OSError:
            got = None
        if s is None:
            res.append((False, "%s: not run in the guest" % k))
            continue
        why = s.text.strip().split("\n")[-1][:200] if s.text.strip() else ""
        if want is None:
            res.append((False, "%s: no PoCL output %s" % (k, refp)))
        elif s.rc == "timeout":
            res.append((False, "%s: timed out after %s s in the guest (%s)" %
                        (k, s.attrs.get("secs", "?"), why)))
        elif o is None or not got:
            res.append((False, "%s: no output (exit %s: %s)" % (k, s.rc, why)))
        elif got != want:
            res.append((False, "%s: differs from PoCL (exit %s): %s" %
                        (k, s.rc, first_difference(got, want))))
        elif s.rc != "0":
            res.append((False, "%s: same output as PoCL but exit %s (%s)" %
                        (k, s.rc, why)))
        else:
            res.append((True, "%s: %d bytes, identical to PoCL's, in %s s" %
                        (k, len(got), s.attrs.get("secs", "?"))))

    d = log.get("dmesg")
    if d is None:
        res.append((False, "dmesg: not reported"))
    else:
        bad = [x for x in d.lines if re.search(HANG, x) or re.search(SPLAT, x)]
        if bad:
            res.append((False, "dmesg: %d lines of hangs, resets or splats, "
                        "first: %s" % (len(bad), bad[0].strip()[:160])))
        else:
            res.append((True, "dmesg: no GPU hang, reset or splat"))
    return res


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--ref", required=True)
    p.add_argument("--kernels", required=True)
    p.add_argument("guest_tap")
    a = p.parse_args()
    try:
        with open(a.guest_tap) as f:
            gtap = f.read().split("\n")
    except OSError:
        gtap = ["not ok 1 - the guest ran (no TAP from run-guest.sh)"]
    try:
        with open(os.path.join(a.out, "data.log"), "rb") as f:
            log = Log(f.read().decode(errors="replace"))
    except OSError:
        log = Log("")
    tests, comments = [], []
    for line in gtap:
        mt = re.match(r"(not ok|ok) \d+ (.*)", line)
        if mt:
            tests.append((mt.group(1) == "ok", mt.group(2)))
        elif line.startswith("#"):
            comments.append(line)
    for ok, text in verdicts(log, a.out, a.ref,
                             [k for k in a.kernels.split(",") if k]):
        tests.append((ok, "- " + text))
    print("1..%d" % len(tests))
    for n, (ok, text) in enumerate(tests, 1):
        print("%s %d %s" % ("ok" if ok else "not ok", n, text))
    for line in comments:
        print(line)
    return 0 if all(ok for ok, _ in tests) else 1


if __name__ == "__main__":
    sys.exit(main())
