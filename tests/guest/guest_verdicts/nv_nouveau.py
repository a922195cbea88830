"""The nouveau checks of the nv profile (nv-checks.sh): stock nouveau
binds -device nv-gpu, initialises it with nothing in the kernel log above
notice level, unloads, reloads, goes on after a snapshot; the same with
acceleration (the default), whose kernel channel must have run its work,
and no BAR0 access outside the model.

Each step of the guest sends the driver link, the DRM nodes under the PCI
device, debugfs' clients files and the kernel log since the step began
(`dmesg -r`: each line with its level) as sections NAME-driver,
NAME-drm, NAME-clients, NAME-dmesg; the step's own output is section
NAME (with its exit status).
"""
import re

from .log import SPLAT
from .nv_pcounter import Probe

# PFIFO's channel table and user area (include/hw/gpumodel/nv-gpu-regs.h).
NV_CHAN = 0x002600
NV_USER = 0xc00000
NV_USER_STRIDE = 0x2000
# Kernel log levels (include/linux/kern_levels.h): 0-3 errors, 4 warning.
LEVEL_WARNING = 4
# At any level: a splat, or nvkm's timeouts ("timeout", "stalled at").
BAD_TEXT = re.compile(SPLAT + r"|timeout|timed out|stalled", re.I)
DMESG = re.compile(r"^<(\d+)>(.*)$")
# Of the emulated CPU, not the device: the guest's timer interrupt ran
# late because the host kept the vCPU from running, which the kernel
# reports once per boot (kernel/time/hrtimer.c; tests/igt/dmesg-ignore.txt
# ignores it in the IGT tier for the same reason); the clocksource
# watchdog finding the TSC skewed against the HPET after the vCPUs stood
# still (a snapshot, a busy host; kernel/time/clocksource.c).
HOST_LATE = re.compile(r"^hrtimer: interrupt took \d+ ns$"
                       r"|^clocksource: |^tsc: Marking TSC unstable")
# nv-gpu's VBIOS lists no display output, so no CRTC gets a connector;
# Linux 6.12's fbdev setup warns of that where 6.1's said nothing
# (drivers/gpu/drm/drm_fb_helper.c, drm_fb_helper_find_sizes()).
NO_OUTPUTS = re.compile(r"^nouveau \S+: \[drm\] No compatible format found$")


def kernel_log(log, name):
    """(level, text) of each line of section NAME-dmesg, or None."""
    s = log.get(name + "-dmesg")
    if s is None:
        return None
    out = []
    for line in s.lines:
        m = DMESG.match(line)
        if m:
            out.append((int(m.group(1)) & 7, m.group(2)))
        elif line:
            out.append((LEVEL_WARNING, line))   # unparsable: suspicious
    return out


def log_problems(lines):
    """The lines that are errors or warnings, or that tell of a timeout,
    a failure or a splat - from nouveau, DRM or anything else."""
    bad = []
    for lvl, text in lines:
        t = re.sub(r"^\[[ 0-9.]*\] ", "", text)
        # drm.debug's trace of nouveau's module parameters is not a report.
        if "nouveau_drm_init" in t or HOST_LATE.match(t) or NO_OUTPUTS.match(t):
            continue
        if lvl <= LEVEL_WARNING or BAD_TEXT.search(t):
            bad.append(t)
    return bad


def nouveau_lines(lines):
    """nouveau's own messages, without the timestamp."""
    return [re.sub(r"^\[[ 0-9.]*\] ", "", t) for _, t in lines
            if " nouveau " in t or "nouveau " in t[:20] or
            "Initialized nouveau" in t]


def bound(log, name):
    """(driver, card, render) after step NAME."""
    drv = log.value(name + "-driver")
    nodes = log.lines(name + "-drm")
    card = [n for n in nodes if re.fullmatch(r"card\d+", n)]
    render = [n for n in nodes if re.fullmatch(r"renderD\d+", n)]
    return drv.rsplit("/", 1)[-1], card, render


def want_bound(log, name, what, step=True):
    """(ok, text) for a step that should leave nouveau bound and clean
    (STEP: section NAME is a command whose exit status counts)."""
    s = log.get(name if step else name + "-driver")
    if s is None:
        return None
    if step and s.rc != "0":
        return False, "%s: exit status %s: %s" % (
            what, s.rc, " / ".join(s.lines[-3:]) or "no output")
    drv, card, render = bound(log, name)
    lines = kernel_log(log, name) or []
    bad = log_problems(lines)
    if drv != "nouveau" or not card or not render:
        return False, "%s: driver %s, DRM nodes %s" % (
            what, drv or "none", " ".join(log.lines(name + "-drm")) or "none")
    if bad:
        return False, "%s: bound, but the kernel log has: %s" % (
            what, " | ".join(bad[:4]))
    return True, "%s: bound to nouveau (%s, %s), kernel log clean" % (
        what, card[0], render[0])


def want_unbound(log, name, what):
    s = log.get(name)
    if s is None:
        return None
    drv, card, render = bound(log, name)
    bad = log_problems(kernel_log(log, name) or [])
    if s.rc != "0" or drv or card or render:
        return False, "%s: exit status %s, driver %s, DRM nodes %s" % (
            what, s.rc, drv or "none",
            " ".join(log.lines(name + "-drm")) or "none")
    if bad:
        return False, "%s: the kernel log has: %s" % (what, " | ".join(bad[:4]))
    return True, "%s: unbound, kernel log clean" % what


def expect_lines(lines, chipset="G84 (084000a2)"):
    """nouveau's probe messages a good load prints, missing ones listed."""
    text = "\n".join(nouveau_lines(lines))
    want = [("NVIDIA " + chipset, "NVIDIA " + re.escape(chipset)),
            ("bios: version", r"bios: version [0-9a-f.]+"),
            ("fb: N MiB", r"fb: \d+ MiB"),
            ("DRM: VRAM: N MiB", r"(?i:drm): VRAM: \d+ MiB"),
            # Where the VBIOS's tables were read (6.12 no longer prints
            # the DCB version, 6.1 did; both print this).
            ("TMDS table version", r"TMDS table version"),
            ("Initialized nouveau", r"Initialized nouveau")]
    return [w for w, pat in want if not re.search(pat, text)]


def seen(lines, pattern):
    m = re.search(pattern, "\n".join(nouveau_lines(lines)))
    return m.group(0) if m else "?"


def nv_nouveau(v, log):
    """The nouveau checks whose steps the log holds."""
    r = want_bound(log, "nouveau-load", "modprobe nouveau noaccel=1")
    if r is not None:
        v.check("nouveau-bind", "ok" if r[0] else "fail", r[1])
        lines = kernel_log(log, "nouveau-load") or []
        miss = expect_lines(lines)
        if miss:
            v.check("nouveau-dmesg", "fail", "nouveau's probe lines missing: "
                    + ", ".join(miss))
        else:
            v.check("nouveau-dmesg", "ok" if r[0] else "fail",
                    "%s; %s; %s; %s" % (
                        seen(lines, r"NVIDIA \S+ \(\w+\)"),
                        seen(lines, r"bios: version [0-9a-f.]+"),
                        seen(lines, r"fb: \d+ MiB \w+"),
                        seen(lines, r"(?i:drm): VRAM: \d+ MiB")) +
                    ("" if r[0] else "; but: " + r[1]))
        clients(v, log, "nouveau-clients", "nouveau-load")
    reload(v, log, "nouveau-reload", "nouveau-unload", "nouveau-reload",
           "modprobe nouveau noaccel=1 again")
    snap = log.get("nouveau-snapshot")
    after = want_unbound(log, "nouveau-after-snapshot",
                         "modprobe -r nouveau after it")
    if snap is not None:
        st, text, _ = snap.got()
        still = want_bound(log, "nouveau-snapshot", "after loadvm",
                           step=False)
        if st != "ok":
            v.check("nouveau-snapshot", "fail", "savevm/loadvm while bound: "
                    "%s: %s" % (st, text))
        elif still is None or after is None:
            pass                        # the guest stopped after it
        else:
            ok = still[0] and after[0]
            cl = log.lines("nouveau-snapshot-clients")
            ok = ok and bool(cl) and cl[-1] == "rc=0"
            v.check("nouveau-snapshot", "ok" if ok else "fail",
                    "savevm/loadvm while bound (%s); %s; clients %s; %s" % (
                        text, still[1], "read" if cl and cl[-1] == "rc=0"
                        else "NOT read", after[1]))
    nv_nouveau_accel(v, log)


def clients(v, log, cid, name):
    """CID: debugfs' clients read after step NAME."""
    cl = log.lines(name + "-clients")
    ok = cl and cl[-1] == "rc=0" and any("command" in x for x in cl)
    v.check(cid, "ok" if ok else "fail",
            "/sys/kernel/debug/dri/*/clients: %s" % (
                "read, header %s" % " ".join(cl[0].split())
                if ok else " / ".join(cl) or "no output"))


def reload(v, log, cid, unload, load, what):
    """CID: step UNLOAD unbinds cleanly, step LOAD (WHAT) binds again."""
    un = want_unbound(log, unload, "modprobe -r nouveau")
    re_ = want_bound(log, load, what)
    if un is not None and re_ is not None:
        v.check(cid, "ok" if un[0] and re_[0] else "fail",
                "%s; %s" % (un[1], re_[1]))
    elif un is not None and not un[0]:
        v.check(cid, "fail", un[1])


def nv_nouveau_accel(v, log):
    """The checks of nouveau with acceleration but the probe's run."""
    acc = want_bound(log, "nouveau-accel", "modprobe nouveau (acceleration)")
    if acc is not None:
        lines = kernel_log(log, "nouveau-accel") or []
        mm = seen(lines, r"MM: using \S+ for buffer copies")
        v.check("nouveau-accel", "ok" if acc[0] and mm != "?" else "fail",
                "%s; %s" % (acc[1], mm if mm != "?" else
                            "NO \"MM: using ... for buffer copies\" line: "
                            "acceleration not set up"))
        clients(v, log, "nouveau-accel-clients", "nouveau-accel")
    reload(v, log, "nouveau-accel-reload", "nouveau-accel-unload",
           "nouveau-accel-reload", "modprobe nouveau again")
    nv_channels(v, log)
    end = want_unbound(log, "nouveau-accel-end", "modprobe -r nouveau")
    um = log.get("unmodelled-accel")
    if end is not None and um is not None:
        st, text, _ = um.got()
        clean = st == "ok" and text.startswith('{"count": 0,')
        v.check("nouveau-accel-unload", "ok" if end[0] and clean else "fail",
                "%s; host: %s" % (end[1], "no unmodelled BAR0 access"
                                  if clean else "unmodelled BAR0 accesses: "
                                  "%s %s" % (st, text)))
    elif end is not None and not end[0]:
        v.check("nouveau-accel-unload", "fail", end[1])


def channels(s):
    """{chid: (entry, GET, IB_GET, IB_PUT)} of nv-pcounter-probe --channels
    (section S), or the reason there is none."""
    st = Probe(s.lines).steps.get("channels")
    if s.rc != "0" or st is None:
        return "nv-pcounter-probe --channels: exit status %s: %s" % (
            s.rc, " / ".join(s.lines[-3:]) or "no output")
    user = {off: r.value for (label, off), r in st.reads.items()
            if label == "user"}
    out = {}
    for (label, off), r in st.reads.items():
        if label == "chan" and NV_CHAN <= off < NV_CHAN + 4 * 128:
            chid = (off - NV_CHAN) // 4
            u = NV_USER + chid * NV_USER_STRIDE
            out[chid] = (r.value,) + tuple(user.get(u + x)
                                           for x in (0x44, 0x88, 0x8c))
    return out


def nv_channels(v, log):
    """nouveau-accel-channel: nouveau had a PFIFO channel turned on while
    bound (accel-channels), and after the unload (accel-channels-after)
    that channel had fetched push buffer words (GET and IB_PUT moved) and
    run every IB entry it was given (IB_GET = IB_PUT): the fence nouveau
    waits on to idle its kernel channel went through the model."""
    s, after = log.get("accel-channels"), log.get("accel-channels-after")
    if s is None or after is None:
        return
    bound, after = channels(s), channels(after)
    for r in (bound, after):
        if isinstance(r, str):
            return v.check("nouveau-accel-channel", "fail", r)
    on = sorted(c for c, x in bound.items() if x[0] >> 31)
    if not on:
        return v.check("nouveau-accel-channel", "fail",
                       "no PFIFO channel turned on while bound")
    fmt = "GET 0x%x, IB_GET %s, IB_PUT %s"
    seen_, bad = [], []
    for chid in on:
        x = after.get(chid)
        if x is None or None in x:
            bad.append("channel %d: no reads after the unload" % chid)
            continue
        seen_.append("channel %d: while bound %s; after the unload %s"
                     % (chid, fmt % bound[chid][1:], fmt % x[1:]))
        if not x[1] or not x[3]:
            bad.append("channel %d fetched no work" % chid)
        elif x[2] != x[3]:
            bad.append("channel %d not idle: IB_GET %d != IB_PUT %d"
                       % (chid, x[2], x[3]))
    v.check("nouveau-accel-channel", "fail" if bad else "ok",
            "; ".join(seen_ + bad) + ("" if bad else ": every IB entry run"))
