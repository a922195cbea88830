"""What the user-space tiers' verdicts share (tests/compute/compute_tier.py,
tests/mesa/mesa_tier.py): reading the guest's sections and
scripts/run-guest.sh's TAP, the checks of i915 loaded with a render node
and of a kernel log without GPU hangs, resets, request watchdog ends or
splats, and the TAP they print."""
import os
import re

from .log import SPLAT, Log

# "Fence expiration time out": i915's request watchdog cancelled a
# submission (gt/intel_gt_requests.c, CONFIG_DRM_I915_REQUEST_TIMEOUT).
HANG = (r"GPU HANG|[Rr]esetting|wedged|hangcheck|\*ERROR\*|"
        r"Fence expiration time out")


def i915_check(log):
    """(ok, text): modprobe i915 returned 0 and renderD128 appeared."""
    m = log.get("modprobe")
    dri = log.get("dri")
    if m is None:
        return False, "i915: modprobe i915 not reported"
    if m.rc != "0":
        return False, "i915: modprobe i915 returned %s" % m.rc
    if dri is None or "renderD128" not in dri.text:
        return False, "i915: loaded, but no /dev/dri/renderD128"
    return True, "i915: loaded in %s s, renderD128 there" % m.attrs.get(
        "secs", "?")


def dmesg_check(log):
    """(ok, text): the guest's kernel log has no GPU hang, reset, wedged
    GT, request ended by the watchdog or kernel splat."""
    d = log.get("dmesg")
    if d is None:
        return False, "dmesg: not reported"
    bad = [x for x in d.lines if re.search(HANG, x) or re.search(SPLAT, x)]
    if bad:
        return False, ("dmesg: %d lines of hangs, resets, watchdog ends or "
                       "splats, first: %s" % (len(bad), bad[0].strip()[:160]))
    return True, "dmesg: no GPU hang, reset or splat"


def load(guest_tap, out):
    """(log, tests, comments): the sections of @out/data.log, and the
    checks of run-guest.sh's TAP file @guest_tap as (ok, text) with its
    comment lines."""
    try:
        with open(guest_tap) as f:
            gtap = f.read().split("\n")
    except OSError:
        gtap = ["not ok 1 - the guest ran (no TAP from run-guest.sh)"]
    try:
        with open(os.path.join(out, "data.log"), "rb") as f:
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
    return log, tests, comments


def print_tap(tests, checks, comments):
    """Print @tests, then @checks (ok, text), as TAP, then @comments;
    0 when every one passed, else 1."""
    tests = tests + [(ok, "- " + text) for ok, text in checks]
    print("1..%d" % len(tests))
    for n, (ok, text) in enumerate(tests, 1):
        print("%s %d %s" % ("ok" if ok else "not ok", n, text))
    for line in comments:
        print(line)
    return 0 if all(ok for ok, _ in tests) else 1


def read_expected(path):
    """{NAME: result, lower case} of a drm-ci expectations file
    (NAME,RESULT a line; comments and blank lines skipped)."""
    exp = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, result = line.rpartition(",")
                exp[name] = result.lower()
    return exp
