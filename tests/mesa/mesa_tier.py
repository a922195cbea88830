#!/usr/bin/python3
"""Verdicts of the Mesa tier (scripts/run-mesa.sh), from the guest's
sections (build/mesa/out/) and llvmpipe's images on the host, as TAP.

    mesa_tier.py --out DIR --reference DIR [--expected FILE] GUEST_TAP

GUEST_TAP is scripts/run-guest.sh --tap's output (its checks come
first).  Then:

  i915        modprobe i915 returned 0 and a render node appeared
  eglinfo     the surfaceless platform's driver is iris
  gl-CASE     tests/mesa/gl-smoke.c's case CASE ran on intel-gpu and its
              image is llvmpipe's (DIR/gl-CASE.out) within the tolerance
              the case gives per channel (0: byte for byte); a case
              --expected lists (drm-ci's NAME,RESULT form: gl-CASE,Fail)
              must fail, with its reason in the file
  dmesg       no GPU hang, reset, watchdog end or kernel splat

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


def read_image(path):
    """(name, width, height, tolerance, rows of pixel words) of a
    gl-smoke output file, or None."""
    try:
        with open(path) as f:
            lines = f.read().split("\n")
    except OSError:
        return None
    m = re.match(r"image (\S+) (\d+) (\d+) tolerance (\d+)$", lines[0])
    if not m:
        return None
    w, h = int(m.group(2)), int(m.group(3))
    rows = [line.split() for line in lines[1:1 + h]]
    if len(rows) != h or any(len(r) != w for r in rows):
        return None
    return m.group(1), w, h, int(m.group(4)), rows


def image_difference(got, want):
    """None when @got is @want within its tolerance, else a sentence on
    how many pixels differ and the first (x, y from the bottom row)."""
    tol = want[3]
    bad, first = 0, None
    for y, (grow, wrow) in enumerate(zip(got[4], want[4])):
        for x, (g, w) in enumerate(zip(grow, wrow)):
            if g == w:
                continue
            gb, wb = bytes.fromhex(g), bytes.fromhex(w)
            if max(abs(a - b) for a, b in zip(gb, wb)) > tol:
                bad += 1
                first = first or (x, y, g, w)
    if not bad:
        return None
    x, y, g, w = first
    return ("%d of %d pixels differ by more than %d; first at (%d, %d): "
            "intel-gpu %s, llvmpipe %s" % (bad, want[1] * want[2], tol, x, y,
                                           g, w))


def case_check(log, out, ref_dir, case, expected):
    """(ok, text): case @case's image against llvmpipe's."""
    name = "gl-" + case
    s = log.get(name)
    want = read_image(os.path.join(ref_dir, name + ".out"))
    got = read_image(os.path.join(out, name + "-out.txt"))
    if want is None:
        return False, "%s: no llvmpipe image in %s" % (name, ref_dir)
    if s is None:
        why = "not run in the guest"
    elif s.rc == "timeout":
        why = "timed out after %s s in the guest" % s.attrs.get("secs", "?")
    elif got is None:
        last = s.text.strip().split("\n")[-1][:160] if s.text.strip() else ""
        why = "no image (exit %s: %s)" % (s.rc, last)
    elif got[1:3] != want[1:3]:
        why = "a %dx%d image, llvmpipe's %dx%d" % (got[1], got[2], want[1],
                                                   want[2])
    else:
        why = image_difference(got, want)
        if why is None and s.rc != "0":
            why = "llvmpipe's image, but exit %s" % s.rc
    if name in expected:
        if why is None:
            return False, ("%s: passes, but mesa-expected.txt lists it as %s"
                           % (name, expected[name]))
        return True, "%s: fails as listed (%s)" % (name, why)
    if why is not None:
        return False, "%s: %s" % (name, why)
    how = ("byte for byte" if want[3] == 0 else
           "within %d a channel" % want[3])
    return True, "%s: llvmpipe's image %s, in %s s" % (
        name, how, s.attrs.get("secs", "?"))


def eglinfo_check(log):
    """(ok, text): eglinfo ran and the surfaceless platform has iris."""
    e = log.get("eglinfo")
    if e is None:
        return False, "eglinfo: not run"
    m = re.search(r"Surfaceless platform:.*?EGL driver name: (\S+)", e.text,
                  re.S)
    if not m or m.group(1) != "iris":
        return False, "eglinfo: surfaceless platform's driver %s" % (
            m.group(1) if m else "not found")
    return True, "eglinfo: surfaceless platform on iris"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--reference", required=True, metavar="DIR")
    p.add_argument("--cases", required=True, metavar="CASE,CASE")
    p.add_argument("--expected", metavar="FILE")
    p.add_argument("guest_tap")
    a = p.parse_args()
    log, tests, comments = load(a.guest_tap, a.out)
    expected = read_expected(a.expected) if a.expected else {}
    checks = [i915_check(log), eglinfo_check(log)]
    checks += [case_check(log, a.out, a.reference, c, expected)
               for c in a.cases.split(",") if c]
    checks.append(dmesg_check(log))
    return print_tap(tests, checks, comments)


if __name__ == "__main__":
    sys.exit(main())
