#!/usr/bin/python3
"""Host side of the guest tier: the verdicts, from the guest's raw output.

    guest_tier.py tap --profile intel|nv|igt --checks FILE [--why TEXT]
                      [--out DIR] LOG
        Parse LOG (the data channel, data.log) into sections and print the
        checks of FILE (checks.txt, nv-checks.txt) as TAP, in its order and
        with its ids: a check the log cannot decide (the guest stopped
        before its steps) is "not ok" with TEXT as the reason.  With DIR:
        write DIR/results.txt ("@@RESULT <id> ok|fail|skip <text>" lines),
        DIR/summary.txt (what `make run` prints) and the files a verdict
        names (splats.txt, irq-errors.txt, unmodelled.txt).  Exit status 0
        when no check failed.

    guest_tier.py oa-cost LOG
        make bench's OA cost runs of LOG (GPUMODEL_BENCH=1) as the lines
        tests/guest/oa-cost.awk reads: "ROUND MODE WORK PROBE HOST-CPU-S
        HOST-WALL-S HOST-OTHER-S", then a line "# e=E e1=E1 n=N b=B cpu=ST"
        with that script's variables.

The guest (tests/guest/guest-checks.sh, nv-checks.sh) only runs steps and
sends sections, "@@BEGIN <name> [rc=<status> secs=<s>]" ... "@@END
<name>", with "@@REQ"/"@@GOT" lines for its requests to the host agent;
the igt profile's guest reports its one check itself ("@@RESULT").  Every
verdict here is the one the guest scripts made in shell before, with the
same texts; nv-pcounter-probe's PCOUNTER checks are made here from the
register reads and writes and the record buffer bytes it reports (see
"nv-gpu: PCOUNTER" below), with the texts it printed before.

Standard library only (the base system's /usr/bin/python3).
"""
import argparse
import bisect
import json
import os
import re
import sys

BDF_INTEL = "0000:00:02.0"
BDF_NV = "0000:00:03.0"

SPLAT = (r"WARNING:|BUG:|Oops|Call Trace:|drm_WARN|cut here|"
         r"general protection fault|UBSAN:|blocked for more than")
HEAD = (r"WARNING:|BUG:|Oops:|general protection fault|UBSAN:|"
        r"blocked for more than")
# i915's interrupt messages (gen11_gt_engine_identity: "INTR_IDENTITY_REG
# ... not valid!", gen11_gt_identity_handler: "unhandled engine
# interrupt"), the IRQ core's ("nobody cared").
IRQMSG = (r"not valid|lied|unhandled|unknown interrupt|nobody cared|"
          r"Disabling IRQ|\*ERROR\*")
GTPM_EN, GTPM_MASK, GTPM_BIT = "0x19003C", "0x1900EC", 0x1 << 16


# ---- the log ---------------------------------------------------------------

class Section:
    def __init__(self, name, attrs):
        self.name = name
        self.attrs = attrs
        self.lines = []

    @property
    def rc(self):
        return self.attrs.get("rc")

    @property
    def text(self):
        return "".join(line + "\n" for line in self.lines)

    def got(self):
        """The first answer of the host agent in the section: (status,
        text, request words)."""
        req = []
        for line in self.lines:
            if line.startswith("@@REQ "):
                req = line.split()[2:]
            elif line.startswith("@@GOT "):
                w = line.split(" ", 3)
                return (w[2] if len(w) > 2 else "",
                        w[3] if len(w) > 3 else "", req)
        return ("", "", req)


class Log:
    """The data channel: sections by name (the last of a name wins), the
    results the guest reported itself, whether it reached @@DONE."""

    def __init__(self, text):
        self.sections = {}
        self.results = []       # (id, status, text) in order
        self.done = False
        cur = None
        for line in text.replace("\r", "").split("\n"):
            if line.startswith("@@BEGIN "):
                w = line.split()
                attrs = dict(a.split("=", 1) for a in w[2:] if "=" in a)
                cur = Section(w[1], attrs)
                self.sections[w[1]] = cur
            elif line.startswith("@@END ") and cur is not None:
                cur = None
            elif cur is not None and line.endswith("@@END " + cur.name):
                # A section whose last line had no newline.
                cur.lines.append(line[:-len("@@END " + cur.name)])
                cur = None
            elif cur is not None:
                cur.lines.append(line)
            elif line.startswith("@@RESULT "):
                w = line.split(" ", 3)
                if len(w) >= 3:
                    self.results.append(
                        (w[1], w[2], w[3] if len(w) > 3 else ""))
            elif line.startswith("@@DONE"):
                self.done = True

    def get(self, name):
        return self.sections.get(name)

    def text(self, name):
        s = self.sections.get(name)
        return s.text if s else ""

    def lines(self, name):
        s = self.sections.get(name)
        return s.lines if s else []

    def value(self, name, default=""):
        """A one-line section (put in the guest)."""
        s = self.sections.get(name)
        return s.lines[0] if s and s.lines else default


# ---- shell's helpers, the same results -------------------------------------

def brief(text):
    """The start of a file on one line, for a failure message."""
    return text.replace("\n", " ")[:160]


def words(lines):
    w = " ".join(x for x in lines if x != "").strip()
    return w or "none"


def strip_ts(line):
    return re.sub(r"^\[[ 0-9.]*\] ", "", line)


def first(lines, pattern, flags=0):
    for line in lines:
        if re.search(pattern, line, flags):
            return line
    return ""


def num(s):
    """awk's number of a string: its leading number, else 0."""
    m = re.match(r"\s*([-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)", s or "")
    return float(m.group(1)) if m else 0.0


def shint(s):
    """$((s)) of a number printed in decimal or 0x hex; None if neither."""
    try:
        return int(s.strip(), 0)
    except (ValueError, AttributeError):
        return None


def is_int(s):
    return re.fullmatch(r"\s*-?\d+\s*", s or "") is not None


def tdiv(a, b):
    """Shell arithmetic's division (towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def regval(text, off):
    """The value intel_reg printed for OFFSET ("NAME (0x00009138):
    0x00000001"), or ""."""
    pat = re.compile(r"\(0x0*%s\):" % re.escape(off[2:]), re.I)
    for line in text.split("\n"):
        if pat.search(line):
            m = re.match(r".*\): *(0x[0-9a-fA-F]*)", line)
            return m.group(1) if m else ""
    return ""


def rate_of(text):
    """gem_exec_nop's microseconds per batch: its last number line."""
    us = ""
    for line in text.split("\n"):
        if re.match(r"^ *[0-9]+\.[0-9]+ *$", line):
            us = line.replace(" ", "")
    return us


def reader_field(text, name):
    for line in text.split("\n"):
        m = re.match(r"^ *%s: *(.*)" % re.escape(name), line)
        if m:
            return m.group(1)
    return ""


def reader_max(text, name):
    vals = [m.group(1) for m in (re.match(r"^ *%s: *(.*)" % re.escape(name), x)
                                 for x in text.split("\n")) if m]
    if not vals:
        return ""
    best = vals[0]
    for v in vals[1:]:
        if num(v) >= num(best):
            best = v
    return best


def busy_of(text, engine):
    """The largest "busy" of ENGINE in intel_gpu_top -J output (the
    engine's block spans lines), "%.1f"."""
    m, inb = 0.0, False
    for line in text.split("\n"):
        if '"%s"' % engine in line:
            inb = True
        if inb and '"busy"' in line:
            f = line.split(":")
            v = num(re.sub(r"[^0-9.]", "", f[1] if len(f) > 1 else ""))
            m = max(m, v)
            inb = False
    return "%.1f" % m


def irq_read(text):
    """i915's interrupt in /proc/interrupts: (count summed over the CPUs,
    "<IRQ>: <chip, hwirq, type, name>"), ("", "") without one."""
    lines = [x for x in text.split("\n") if x.strip()]
    if not lines:
        return "", ""
    n = len(lines[0].split())
    for line in lines[1:]:
        f = line.split()
        for i in range(n + 1, len(f)):
            if re.match(r"^i915,?$", f[i]):
                s = sum(num(x) for x in f[1:n + 1])
                return "%d" % s, " ".join([f[0]] + f[n + 1:])
    return "", ""


def since(lines, pattern):
    """sed -n '/PATTERN/,$p'."""
    for i, line in enumerate(lines):
        if re.search(pattern, line):
            return lines[i:]
    return []


def grep_context(lines, pattern, before, after):
    """grep -E -B BEFORE -A AFTER PATTERN: lines with "--" between
    groups."""
    keep = set()
    for i, line in enumerate(lines):
        if re.search(pattern, line):
            keep.update(range(max(0, i - before),
                              min(len(lines), i + after + 1)))
    out, last = [], None
    for i in sorted(keep):
        if last is not None and i != last + 1:
            out.append("--")
        out.append(lines[i])
        last = i
    return out


def splat_heads(lines):
    """"<count>x <message> / WARNING: at <file:line> <function>", one per
    kind, sorted."""
    heads, prev = [], ""
    for line in grep_context(lines, HEAD, 1, 0):
        line = strip_ts(line)
        if line == "--" or "cut here" in line:
            prev = ""
        elif re.search(HEAD, line):
            line = re.sub(r"CPU: [0-9]+ PID: [0-9]+ ", "", line, count=1)
            heads.append((prev + " / " if prev else "") + line)
            prev = ""
        else:
            prev = line
    out = []
    for h in sorted(heads):
        if out and out[-1][1] == h:
            out[-1][0] += 1
        else:
            out.append([1, h])
    return ["%dx %s" % (c, h) for c, h in out]


def knobs(log, **default):
    k = dict(default)
    for w in log.value("knobs").split():
        if "=" in w:
            a, b = w.split("=", 1)
            k[a] = b
    return k


# ---- verdicts --------------------------------------------------------------

class Verdicts:
    """Checks in the order they are made; check() of an id already made
    replaces it (the shell's last @@RESULT won)."""

    def __init__(self):
        self.res = {}
        self.files = {}         # name -> text, for --out

    def check(self, cid, st, text):
        self.res[cid] = (st, text)


def pci_got(log):
    if log.get("pci") is None:
        return "absent"
    f = dict(x.split(" ", 1) for x in log.lines("pci") if " " in x)
    return "%s:%s class %s revision %s" % (
        f.get("vendor", ""), f.get("device", ""), f.get("class", ""),
        f.get("revision", ""))


def resource(log, index):
    lines = log.lines("pci-resource")
    if index >= len(lines):
        return None
    w = lines[index].split()
    return (w + ["", "", ""])[:3]


def check_pci_id(v, log, bdf, want, ok):
    """pci-id: the device's IDs are WANT ("0x8086:0x8a52 class 0x030000
    revision 0x07"); OK is the text when they are.  Returns what the guest
    read, "absent" without a device."""
    got = pci_got(log)
    if got == "absent":
        v.check("pci-id", "fail", "no PCI device at %s" % bdf)
    elif got == want:
        v.check("pci-id", "ok", "PCI %s is %s" % (bdf, ok))
    else:
        v.check("pci-id", "fail", "PCI %s is %s, want %s" % (bdf, got, want))
    return got


def bar(log, index):
    """BAR INDEX from the resource file: its start, end and flags as the
    kernel printed them, the start, size and flags as numbers, and the
    "BARn: ..." text of the checks."""
    start, end, flags = resource(log, index) or ("", "", "")
    s, e, f = shint(start) or 0, shint(end) or 0, shint(flags) or 0
    size = e - s + 1 if s else 0
    what = "BAR%d: %d MiB at %s, flags %s" % (index, size >> 20, start, flags)
    return start, end, flags, s, size, f, what


def check_bar(v, log, bdf, cid, index, mib, pref, desc):
    if log.get("pci-resource") is None:
        return v.check(cid, "fail",
                       "BAR%d: no PCI device at %s" % (index, bdf))
    start, end, flags, s, size, f, what = bar(log, index)
    pf = 1 if f & 0x2000 else 0
    if s == 0:
        v.check(cid, "fail", "BAR%d is not assigned (resource line: %s %s %s)"
                % (index, start, end, flags))
    elif size == mib << 20 and f & 0x200 and f & 0x100000 and pf == pref:
        v.check(cid, "ok", "%s (%s)" % (what, desc))
    else:
        v.check(cid, "fail", "%s, want %d MiB of %s" % (what, mib, desc))


def intel(log):
    """The verdicts of guest-checks.sh; (Verdicts, summary lines)."""
    v = Verdicts()
    k = knobs(log, IRQ_INJECT="8", IRQ_DRILL_DROP="3", IRQ_DRILL_INJECT="8",
              IRQ_TIMEOUT="10", MODPROBE_TIMEOUT="300", TOOL_TIMEOUT="30")
    bdf = BDF_INTEL

    # ---- PCI
    got = check_pci_id(v, log, bdf, "0x8086:0x8a52 class 0x030000 revision "
                       "0x07", "8086:8a52, class 0x030000, revision 0x07")
    check_bar(v, log, bdf, "pci-bar0", 0, 16, 0,
              "64-bit non-prefetchable memory")
    check_bar(v, log, bdf, "pci-bar2", 2, 256, 1, "64-bit prefetchable memory")

    # ---- the driver
    mp = log.get("modprobe")
    if mp is None:
        return v, None
    if mp.rc == "0":
        v.check("modprobe", "ok",
                "modprobe i915 (%s s)" % mp.attrs.get("secs"))
    elif mp.rc == "timeout":
        v.check("modprobe", "fail", "modprobe i915 did not finish in %s s"
                % k["MODPROBE_TIMEOUT"])
    else:
        v.check("modprobe", "fail", "modprobe i915 failed with status %s: %s"
                % (mp.rc, brief(mp.text)))
    if log.get("driver") is None:
        return v, None
    drv = log.value("driver", "none")
    if drv == "i915":
        v.check("driver-bound", "ok", "i915 is bound to %s" % bdf)
    elif got == "absent":
        v.check("driver-bound", "fail",
                "i915 is not bound: no PCI device at %s" % bdf)
    else:
        v.check("driver-bound", "fail", "i915 is not bound to %s (driver: %s)"
                % (bdf, drv))

    # ---- registers
    ir = log.get("intel_reg")
    if ir is None:
        return v, None
    regs, reg_rc = ir.text, ir.rc

    def notread(name, off):
        return "intel_reg: %s %s not read (intel_reg status %s: %s)" % (
            name, off, reg_rc, brief(regs))

    def check_reg(cid, off, name, want):
        val = regval(regs, off)
        if not val:
            v.check(cid, "fail", notread(name, off))
        elif shint(val) == want:
            v.check(cid, "ok", "intel_reg: %s %s = %s" % (name, off, val))
        else:
            v.check(cid, "fail", "intel_reg: %s %s = %s, want 0x%08x"
                    % (name, off, val, want))

    ack, req = regval(regs, "0xd84"), regval(regs, "0xa278")
    held = "with forcewake held (request 0xa278 = %s)" % (req or "?")
    if not ack:
        v.check("fw-ack-render", "fail",
                notread("FORCEWAKE_ACK_RENDER", "0xd84"))
    elif shint(ack) & 1 and shint(ack) >> 16 == 0:
        v.check("fw-ack-render", "ok", "intel_reg: FORCEWAKE_ACK_RENDER 0xd84 "
                "= %s %s" % (ack, held))
    else:
        v.check("fw-ack-render", "fail",
                "intel_reg: FORCEWAKE_ACK_RENDER 0xd84"
                " = %s %s, want bit 0 set and bits 31:16 clear" % (ack, held))
    check_reg("slice-enable", "0x9138", "GEN11_GT_SLICE_ENABLE", 0x00000001)
    check_reg("eu-disable", "0x9134", "GEN11_EU_DISABLE", 0x00000000)
    check_reg("media-fuse", "0x9140", "GEN11_GT_VEBOX_VDBOX_DISABLE",
              0x000f00ff)
    # RP_STATE_CAP: i915 takes RP0 from bits 7:0 and RPn from bits 23:16
    # (50 MHz units); on Gen11 it reads RP1 from FREQ_INFO_REC, so bits
    # 15:8 (the PRM's RP1 field) are only required to lie between the two.
    val = regval(regs, "0x145998")
    if not val:
        v.check("rp-state-cap", "fail", notread("RP_STATE_CAP", "0x145998"))
    else:
        x = shint(val)
        rp0, rp1, rpn = x & 0xff, (x >> 8) & 0xff, (x >> 16) & 0xff
        f = "RP0 %d MHz, RP1 %d MHz, RPn %d MHz" % (
            rp0 * 50, rp1 * 50, rpn * 50)
        if rp0 == 0x16 and rpn == 0x06 and rpn <= rp1 <= rp0 and x >> 24 == 0:
            v.check("rp-state-cap", "ok", "intel_reg: RP_STATE_CAP 0x145998 = "
                    "%s (%s)" % (val, f))
        else:
            v.check("rp-state-cap", "fail",
                    "intel_reg: RP_STATE_CAP 0x145998 ="
                    " %s (%s), want RP0 1100 MHz (0x16), RPn 300 MHz (0x06), "
                    "RPn <= RP1 <= RP0" % (val, f))
    check_reg("dfsm", "0x51000", "SKL_DFSM", 0x50200000)

    # ---- GT state
    # The state is what debugfs i915_wedged says.  i915 6.1 rarely says
    # why: it prints "Failed to initialize GPU, declaring it wedged!" only
    # when intel_gt_init failed without wedging the GT itself; a wedge on
    # init leaves only a drm debug line "CI tainted:0x9 by
    # intel_gt_init+..." (add_taint_for_CI from
    # intel_gt_set_wedged_on_init).  So the reason is the first of: a
    # message saying "wedged"; that debug line; the caller of
    # intel_gt_set_wedged in a stack trace; nothing.  A dmesg that
    # declares a wedge while debugfs says 0 fails.
    if log.get("dmesg-gt") is None:
        return v, None
    dm = log.lines("dmesg-gt")
    said = ""
    for line in dm:
        if re.search("wedged", line, re.I) and "[drm:" not in line \
                and "+0x" not in line:
            said = strip_ts(line)
            break
    taint = ""
    for line in dm:
        m = re.search(r"CI tainted:.*", line)
        if m:
            taint = m.group(0)
            break
    caller = ""
    hits = [i for i, x in enumerate(dm) if " intel_gt_set_wedged+0x" in x]
    if hits:
        x = dm[min(hits[-1] + 1, len(dm) - 1)]
        m = re.match(r".* ([_a-z0-9]*)\+0x.*", x)
        caller = m.group(1) if m else ""
    engines = words(log.lines("engines")) if log.get("engines") else "none"
    wedged = log.value("i915_wedged") if log.get("i915_wedged") else ""
    if wedged == "1":
        gt = "wedged"
        if said:
            gt += " (dmesg: %s)" % said
        elif taint:
            gt += " on init (drm debug: %s)" % taint
        elif caller:
            gt += " (by %s, seen in a stack trace; no message)" % caller
        else:
            gt += " (dmesg gives no reason)"
        v.check("gt-state", "fail", "GT %s; engines: %s" % (gt, engines))
    elif wedged == "0":
        hung = strip_ts(first(
            dm, r"GPU HANG|Resetting|reset request timed out"))
        if said:
            gt = "inconsistent"
            v.check("gt-state", "fail", "GT state: debugfs i915_wedged is 0 "
                    "but dmesg says: %s" % said)
        elif hung:
            gt = "hung"
            v.check("gt-state", "fail",
                    "GT initialised, but dmesg has: %s" % hung)
        elif engines != "bcs0 rcs0":
            gt = "not wedged"
            v.check("gt-state", "fail", "GT not wedged, but engines: %s, want "
                    "bcs0 rcs0" % engines)
        else:
            gt = "not wedged"
            v.check("gt-state", "ok", "GT initialised, not wedged, no hang or "
                    "reset; engines: %s" % engines)
    else:
        gt = "unknown"
        v.check("gt-state", "fail", "GT state unknown: no i915 debugfs for %s "
                "(driver: %s)" % (bdf, drv))

    # ---- user work
    work_sum = []

    def exec_store(cid, engine):
        s = log.get(cid)
        if s is None:
            return
        if s.rc == "0":
            v.check(cid, "ok", "i915-exec-probe: %s" % brief(s.text))
        else:
            v.check(cid, "fail", "i915-exec-probe store %s (status %s): %s"
                    % (engine, s.rc, brief(s.text)))
        work_sum.append("%s store: %s" % (
            engine, s.lines[0].split(":")[0] if s.lines else ""))

    if gt == "not wedged":
        exec_store("exec-store-rcs", "rcs")
        exec_store("exec-store-bcs", "bcs")
        nop_ok, nop_what = 0, ""
        for e in ("rcs", "bcs"):
            s = log.get("gem_exec_nop-" + e)
            if s is None:
                continue
            us = rate_of(s.text)
            if us and float(us) > 0:
                nop_ok += 1
                nop_what += " %s %s us/batch (%.0f/s);" % (
                    e, us, 1e6 / float(us))
            else:
                nop_what += " %s: no rate (%s);" % (e, brief(s.text))
        if log.get("gem_exec_nop-bcs") is not None:
            v.check("exec-nop", "ok" if nop_ok == 2 else "fail",
                    "gem_exec_nop:" + nop_what)
            work_sum.append("gem_exec_nop:" + nop_what)
        if log.get("syscalls") is not None:
            base = ""
            for line in log.lines("syscalls"):
                if line.startswith("syscalls ok: "):
                    base = line[len("syscalls ok: "):]
            work_sum[-1] += " baseline " + base
        if log.get("intel_gpu_top-idle") is not None:
            tb = log.text("intel_gpu_top-busy")
            busy = busy_of(tb, "Render/3D/0")
            idle = busy_of(log.text("intel_gpu_top-idle"), "Render/3D/0")
            what = ("intel_gpu_top: Render/3D/0 %s%% busy during "
                    "gem_exec_nop, %s%% after" % (busy, idle))
            if float(busy) >= 2 and float(idle) < 1:
                v.check("gpu-top", "ok", what)
            else:
                v.check("gpu-top", "fail", "%s; want >= 2%% and < 1%% (%s)"
                        % (what, brief(tb)))
        h = log.get("hang")
        if h is not None and log.get("dmesg-hang") is not None:
            dh = log.lines("dmesg-hang")
            reset = strip_ts(first(dh, r"Resetting rcs0|GPU HANG"))
            wedge = first(dh, r"wedged|Failed to reset", re.I)
            if h.rc == "0" and reset and not wedge:
                v.check("hang-reset", "ok",
                        "%s; dmesg: %s" % (brief(h.text), reset))
            else:
                v.check("hang-reset", "fail",
                        "i915-exec-probe hang (status %s):"
                        " %s; reset: %s; %s" % (h.rc, brief(h.text),
                                                reset or "none", wedge))
            work_sum.append("hang: %s" % (reset or "no reset"))
        exec_store("exec-after-reset", "rcs")
        perf(v, log, work_sum)
    else:
        for c in ("exec-store-rcs", "exec-store-bcs", "exec-nop", "gpu-top",
                  "hang-reset", "exec-after-reset"):
            v.check(c, "fail", "not run: GT %s" % gt)

    # ---- splats
    # Everything after the guest's "modprobe i915" mark in the kernel log
    # counts.  A splat before it (the kernel booting on TCG) is only
    # mentioned.  Any line of a splat fails the check (a bare dump_stack
    # has only "Call Trace:"); the headline of each is its WARNING/BUG line
    # with the message printed before it.
    if log.get("dmesg") is None:
        return v, None
    dmesg = log.lines("dmesg")
    mark = r"gpumodel: modprobe i915$"
    d915 = since(dmesg, mark)
    heads = splat_heads(d915)
    nhead = sum(1 for x in d915 if re.search(HEAD, x))
    if not d915:
        v.check("no-splat", "fail", "the kernel log lost the modprobe mark; "
                "cannot tell")
    elif any(re.search(SPLAT, x) for x in d915):
        v.check("no-splat", "fail", "%d splats since modprobe i915; %s"
                % (nhead, heads[0] if heads else ""))
        v.files["splats.txt"] = "".join(
            x + "\n" for x in grep_context(d915, SPLAT, 2, 40))
    else:
        before = 0
        for x in dmesg:
            if re.search(mark, x):
                break
            before += bool(re.search(HEAD, x))
        note = (" (%d before it, while booting: see dmesg.txt)" % before
                if before else "")
        v.check("no-splat", "ok", "no oops, BUG or WARN splat from modprobe "
                "i915 to the interrupt checks" + note)

    # ---- the summary's first part
    summary = ["Guest: Linux %s, checks done %s s after boot"
               % (log.value("uname"), log.value("uptime"))]
    if got == "absent":
        summary.append("Device: none at %s" % bdf)
    else:
        summary.append("Device: %s %s" % (bdf, got))
        for i in (0, 2):
            r = resource(log, i)
            if r and shint(r[0]):
                summary.append("  BAR: %d MiB at %s (flags %s)" % (
                    (shint(r[1]) - shint(r[0]) + 1) >> 20, r[0], r[2]))
    summary.append("Driver: %s (modprobe i915: status %s after %s s)"
                   % (drv, mp.rc, mp.attrs.get("secs")))
    summary.append("GT: %s" % gt)
    summary.append("User work: %s" % "; ".join(work_sum))
    for x in log.lines("debugfs/i915_capabilities"):
        if re.match(r"^(platform|graphics version|gt):", x):
            summary.append("  " + x)
    summary.append("Engines (sysfs): %s" % engines)
    ls = log.lines("lsgpu")
    summary.append("lsgpu: %s" % re.sub(" +", " ", ls[0] if ls else ""))
    summary.append("intel_gpu_frequency --get: %s"
                   % words(log.lines("intel_gpu_frequency")))
    summary.append("DRM nodes: %s" % words(log.value("dri-nodes").split()))
    summary.append("What i915 found (drm debug messages):")
    for x in dmesg:
        if "[drm:" in x and re.search(r"GGTT size|GMADR size|DSM size|"
                                      r"fused off|rawclk rate|enable_guc=", x):
            summary.append(re.sub(r"^\[[ 0-9.]*\] [^]]*\]\] ", "  ", x))
    freq = None
    for f in ("debugfs/i915_frequency_info",
              "debugfs/gt0/i915_frequency_info"):
        if log.get(f) is not None:
            freq = log.lines(f)
    if freq is not None:
        summary.append("RPS (debugfs i915_frequency_info):")
        summary += ["  " + x for x in freq if re.match(
            r"^(Lowest|Nominal|Max non-overclocked|Current freq)", x)]
    sseu = [re.sub(r"^ *Available ", "", x) + "," for x in
            log.lines("debugfs/i915_sseu_status")
            if re.search(r"Available (Slice|Subslice|EU) Total", x)]
    summary.append("SSEU (debugfs i915_sseu_status): %s"
                   % re.sub(",$", "", words(sseu)))
    summary.append("i915 messages (info and above):")
    summary += [re.sub(r"^\[[ 0-9.]*\] ", "  ", x) for x in dmesg if re.search(
        r"i915 0000:00:02\.0: \[drm\]|i915: |\[drm\] ", x)][:40]
    summary.append("Splats since modprobe i915: %d" % nhead)
    summary += ["  " + x for x in heads]
    summary.append("intel_reg:")
    summary += ["  " + x for x in ir.lines[:20]]

    done = interrupts(v, log, k, gt, drv)
    if log.done:
        summary += done
    return v, summary


def perf(v, log, work_sum):
    """perf-record, perf-eu, perf-testoa: i915 perf streams recorded by
    IGT's i915-perf-recorder and decoded by its reader."""
    if log.get("perf-busy-reader") is not None:
        # Idle: (reports - 1) x 2^(e+1) ticks span the OA timestamps; GPU
        # ticks at the GT frequency i915 set.  Busy: GpuBusy (A0) rises.
        m = re.search(r"oa_exponent=([0-9]*)", log.text("perf-idle-recorder"))
        e = m.group(1) if m else ""
        idle = log.text("perf-idle-reader")
        n = reader_field(idle, "Reports")
        rng = ""
        for x in log.lines("perf-idle-reader"):
            if x.startswith("OA data timestamp range:"):
                rng = x[len("OA data timestamp range:"):].lstrip()
                break
        t0, t1 = rng.split("-")[0], rng.split("-")[-1]
        f = reader_field(idle, "AvgGpuCoreFrequency")
        act = (log.lines("perf-idle-cmd") or [""])[0]
        b0 = reader_max(idle, "GpuBusy")
        b1 = reader_max(log.text("perf-busy-reader"), "GpuBusy")
        store = (log.lines("perf-busy-cmd") or [""])[0]
        ie = int(e) if e else 0
        # The reader prints them in hex; the shell took either.
        i0, i1 = shint(t0), shint(t1)
        ok_t = i0 is not None and i1 is not None
        span = tdiv(i1 - i0, 2 << ie) if ok_t else 0
        what = ("idle: %s reports at e=%s over %s periods, "
                "AvgGpuCoreFrequency %s (GT at %s MHz), GpuBusy %s; with 2000 "
                "user batches: GpuBusy %s" % (
                    n or "?", e or "?", span, f or "?", act or "?",
                    b0 or "?", b1 or "?"))
        a = num(act)
        if e and is_int(n) and int(n) > 100 and t0 and ok_t and \
                (i1 - i0) % (2 << ie) == 0 and \
                tdiv(span * 9, 10) <= int(n) - 1 <= span + 2 and \
                a >= 300 and 0.99e6 * a < num(f) < 1.01e6 * a and \
                num(b1) > num(b0) and store.split(":")[0] == "nop ok":
            v.check("perf-record", "ok", "i915-perf-recorder/reader, "
                    "RenderBasic: " + what)
        else:
            v.check("perf-record", "fail", "%s; timestamps %s; batch: %s"
                    % (what, rng or "?", store or "none"))
        work_sum.append("OA: " + what)

    if log.get("perf-eu-compute-reader") is not None:
        # RenderBasic's EU_PERF_CNT_CTL0-6 (A7 EU active, A8 EU stall, A9
        # both FPUs, A10 VS FPU0 ...) over GPGPU walkers: per thread 48
        # active, 16 stalled, 8 both-FPU clocks of 64, no vertex work
        # (docs/intel-gpu-oa.rst).  ComputeBasic makes A9 the
        # threads-loaded integrator: one thread an EU while busy gives
        # EuThreadOccupancy 1/7 of the busy time, 4/21 of EuActive.
        eu = log.text("perf-eu-reader")
        ea, es = reader_max(eu, "EuActive"), reader_max(eu, "EuStall")
        eb = reader_max(eu, "EuFpuBothActive")
        vs, cs = reader_max(eu, "VsFpu0Active"), reader_max(eu, "CsThreads")
        ei = reader_max(log.text("perf-idle-reader"), "EuActive")
        cr = log.text("perf-eu-compute-reader")
        ca = reader_max(cr, "EuActive")
        co = reader_max(cr, "EuThreadOccupancy")
        walk = (log.lines("perf-eu-cmd") or [""])[0]
        walk2 = (log.lines("perf-eu-compute-cmd") or [""])[0]
        what = ("EuActive %s %%, EuStall %s %%, EuFpuBothActive %s %%, "
                "VsFpu0Active %s %%, CsThreads %s with 1000 walkers; EuActive "
                "%s %% idle; ComputeBasic: EuActive %s %%, EuThreadOccupancy "
                "%s %%" % tuple(x or "?" for x in
                                (ea, es, eb, vs, cs, ei, ca, co)))
        a, s, b = num(ea), num(es), num(eb)
        if walk.split(":")[0] == "walker ok" and \
                walk2.split(":")[0] == "walker ok" and \
                1 < a <= 75.01 and a + s <= 100.01 and \
                2.97 * s < a < 3.03 * s and 0.49 * s < b < 0.51 * s and \
                num(vs) == 0 and num(cs) >= 262144 and num(ei) == 0 and \
                num(ca) > 1 and 0.98 * num(ca) * 4 / 21 < num(co) < \
                1.02 * num(ca) * 4 / 21:
            v.check("perf-eu", "ok",
                    "RenderBasic's and ComputeBasic's flexible"
                    " EU counters over GPGPU walkers: " + what)
        else:
            v.check("perf-eu", "fail", "%s; want EuActive = 3 EuStall = 6 "
                    "EuFpuBothActive in (1, 75], none for VS or idle, "
                    "EuThreadOccupancy 4/21 of EuActive; walkers: %s; %s"
                    % (what, walk or "none", walk2 or "none"))
        work_sum.append("EU: " + what)

    if log.get("perf-testoa-reader") is not None:
        # IGT's TestOa: its B counter configuration against the model's NOA
        # signals gives fixed ratios to the GPU clock (IGT's
        # gen8_sanity_check_test_oa_reports).
        t = log.text("perf-testoa-reader")
        clk = reader_field(t, "GpuCoreClocks")
        cs = "".join(" " + reader_field(t, "Counter%d" % i) for i in range(8))
        what = "TestOa: GpuCoreClocks %s, Counter0-7:%s" % (clk or "?", cs)
        ok = False
        if clk:
            k, f = num(clk), cs.split()
            ok = len(f) == 8 and k >= 1e6 and all(
                abs(num(x) - k * w / 6) <= k / 1000
                for x, w in zip(f, (0, 6, 6, 3, 2, 2, 1, 4)))
        if ok:
            v.check("perf-testoa", "ok", what + " (ratios 0, 1, 1, 1/2, 1/3, "
                    "1/3, 1/6, 2/3)")
        else:
            v.check("perf-testoa", "fail", what + "; want ratios 0, 1, 1, 1/2,"
                    " 1/3, 1/3, 1/6, 2/3")


def series(log, name, k):
    """An injection series: (before, after, error, overrun)."""
    s = log.get(name)
    n, lost = int(s.attrs.get("n", 0)), int(s.attrs.get("lost", 0))
    blocks, cur, tag = {}, [], "before"
    answers = {}
    i = 0
    for line in s.lines:
        if line.startswith("@@REQ "):
            i += 1
        elif line.startswith("@@GOT "):
            w = line.split(" ", 3)
            answers[i] = (w[2] if len(w) > 2 else "",
                          w[3] if len(w) > 3 else "")
        elif line.startswith("@@COUNTED ") or line == "@@AFTER":
            blocks[tag] = cur
            cur, tag = [], line.split()[1] if " " in line else "after"
        else:
            cur.append(line)
    blocks[tag] = cur
    before = irq_read("\n".join(blocks.get("before", [])))[0]
    err, over = "", ""
    target = int(before or 0)
    for j in range(1, n + 1):
        if j not in answers:
            break
        st, text = answers[j]
        if st != "ok":
            err = "x-intel-gpu-inject-irq %d of %d: %s: %s" % (j, n, st, text)
            break
        if j <= lost:
            continue
        target += 1
        cnt = irq_read("\n".join(blocks.get(str(j), [])))[0]
        if int(cnt or 0) < target:
            err = ("injection %d of %d not counted within %s s (count %s, "
                   "want %d)" % (j, n, k["IRQ_TIMEOUT"], cnt or "none",
                                 target))
            break
        if int(cnt) > target and not over:
            over = "after injection %d the count was %s, want %d" % (
                j, cnt, target)
    after = irq_read("\n".join(blocks.get("after", [])))[0]
    return before, after, err, over


def gtpm_readback(log, write, read, en, mk):
    """GTPM's enable and mask as section READ has them after the intel_reg
    write WRITE: (enable, mask, whether they are EN and MK, "status N:
    <what the write printed>")."""
    w = log.get(write)
    r = log.text(read)
    g_en, g_mk = regval(r, GTPM_EN), regval(r, GTPM_MASK)
    same = bool(g_en and g_mk) and shint(g_en) == shint(en) and \
        shint(g_mk) == shint(mk)
    wrote = "status %s: %s" % (w.rc if w else "", brief(w.text if w else ""))
    return g_en, g_mk, same, wrote


def interrupts(v, log, k, gt, drv):
    """The interrupt checks, the snapshot, the drills; the summary's last
    lines."""
    if log.get("host-agent") is None:
        return []
    st, text, _ = log.get("host-agent").got()
    agent_st = st
    if st == "ok":
        v.check("host-agent", "ok", "host agent answers on the data channel; "
                "QMP query-status: %s" % text)
    else:
        v.check("host-agent", "fail", "host agent: %s: %s" % (st, text))

    if log.get("interrupts") is None:
        return []
    rpm = log.value("runtime_status")
    irq_n, irq_line = irq_read(log.text("interrupts"))
    irq_ok = False
    if not irq_n:
        v.check("irq-line", "fail",
                "no interrupt named i915 in /proc/interrupts"
                " (driver: %s, runtime PM: %s)" % (drv, rpm or "none"))
    elif rpm != "active":
        v.check("irq-line", "fail",
                "i915's interrupt is IRQ %s, count %s, but "
                "the device is runtime-%s after power/control=on"
                % (irq_line, irq_n, rpm or "?"))
    else:
        how = "MSI" if "MSI" in irq_line else "not MSI"
        v.check("irq-line", "ok", "i915's interrupt is IRQ %s (%s), count %s, "
                "runtime PM active" % (irq_line, how, irq_n))
        irq_ok = True
    irq_sum = ["IRQ %s" % (irq_line or "none")]

    def check_series(cid, n, lost, what):
        if agent_st != "ok":
            return v.check(cid, "fail",
                           what + ": no host agent to inject through")
        if not irq_ok:
            return v.check(cid, "fail", what + ": no i915 interrupt to count")
        if log.get(cid) is None:
            return
        before, after, err, over = series(log, cid, k)
        want = n - lost
        got = "count %s -> %s" % (before, after)
        d = int(after or 0) - int(before or 0)
        if err:
            v.check(cid, "fail", "%s: %s; %s" % (what, err, got))
        elif d != want:
            v.check(cid, "fail", "%s: %s (+%d), want +%d%s"
                    % (what, got, d, want, "; " + over if over else ""))
        else:
            v.check(cid, "ok", "%s: i915's %s (+%d)" % (what, got, want))
        irq_sum.append("%s: %s -> %s" % (what, before, after or "?"))

    # GTPM bit 0 armed: enable, then unmask; read back.
    found = log.get("gtpm-found")
    if found is None:
        return []
    en0, mk0 = regval(found.text, GTPM_EN), regval(found.text, GTPM_MASK)
    armed = False
    if not en0 or not mk0:
        v.check("irq-gtpm-arm", "fail",
                "intel_reg could not read GTPM's enable %s and mask %s "
                "(status %s: %s)" % (GTPM_EN, GTPM_MASK, found.rc,
                                     brief(found.text)))
    else:
        en1 = "0x%08x" % (shint(en0) | GTPM_BIT)
        mk1 = "0x%08x" % (shint(mk0) & ~GTPM_BIT & 0xffffffff)
        g_en, g_mk, same, wrote = gtpm_readback(log, "gtpm-write",
                                                "gtpm-armed", en1, mk1)
        if same:
            v.check("irq-gtpm-arm", "ok", "intel_reg: GTPM bit 0 enabled and "
                    "unmasked: enable %s %s -> %s, mask %s %s -> %s"
                    % (GTPM_EN, en0, g_en, GTPM_MASK, mk0, g_mk))
            armed = True
        else:
            v.check("irq-gtpm-arm", "fail",
                    "intel_reg wrote enable %s %s, mask"
                    " %s %s (%s), read back %s, %s" % (
                        GTPM_EN, en1, GTPM_MASK, mk1, wrote, g_en or "?",
                        g_mk or "?"))
        irq_sum.append("GTPM enable/mask %s/%s -> %s/%s"
                       % (en0, mk0, g_en or "?", g_mk or "?"))

    inj, drop = int(k["IRQ_INJECT"]), int(k["IRQ_DRILL_DROP"])
    dinj = int(k["IRQ_DRILL_INJECT"])
    what = "%d GTPM events (class 4, instance 1, bit 0) injected" % inj
    if armed:
        check_series("irq-inject-gtpm", inj, 0, what)
    else:
        v.check("irq-inject-gtpm", "fail", what + ": not injected, GTPM bit 0 "
                "is not armed (irq-gtpm-arm)")
    what = "drill drops %d of %d GTPM events injected" % (drop, dinj)
    if not armed:
        v.check("irq-drill-gtpm", "fail",
                what + ": not injected, GTPM bit 0 is"
                " not armed (irq-gtpm-arm)")
    elif agent_st == "ok" and irq_ok:
        if log.get("irq-drill") is not None:
            st, text, _ = log.get("irq-drill").got()
            if st == "ok":
                check_series("irq-drill-gtpm", dinj, drop, what)
            else:
                v.check("irq-drill-gtpm", "fail",
                        "x-intel-gpu-drill-irq class 4"
                        " instance 1 count=%d: %s: %s" % (drop, st, text))
    else:
        check_series("irq-drill-gtpm", dinj, drop, what)

    # Put back what i915 had.
    if not en0 or not mk0:
        v.check("irq-gtpm-restore", "skip",
                "nothing to put back: GTPM's enable"
                " and mask were never read or written")
    elif log.get("gtpm-restored") is not None:
        g_en, g_mk, same, wrote = gtpm_readback(log, "gtpm-restore-write",
                                                "gtpm-restored", en0, mk0)
        if same:
            v.check("irq-gtpm-restore", "ok",
                    "intel_reg: GTPM's enable %s and "
                    "mask %s back to the values i915 left, %s and %s"
                    % (GTPM_EN, GTPM_MASK, g_en, g_mk))
        else:
            v.check("irq-gtpm-restore", "fail", "intel_reg wrote mask %s %s, "
                    "enable %s %s (%s), read back %s, %s" % (
                        GTPM_MASK, mk0, GTPM_EN, en0, wrote, g_mk or "?",
                        g_en or "?"))
        irq_sum.append("GTPM enable/mask restored: %s/%s"
                       % (g_en or "?", g_mk or "?"))

    what = ("%d render user interrupts (class 0, instance 0, bit 0) injected"
            % inj)
    if gt == "not wedged":
        check_series("irq-inject-render", inj, 0, what)
    elif gt.startswith("wedged"):
        v.check("irq-inject-render", "skip",
                "render user interrupts need a GT that initialised: on a "
                "wedged GT i915 6.1 signals freed breadcrumbs and the guest "
                "panics (engines are not emulated yet)")
        irq_sum.append("render user interrupts: not injected (GT wedged)")
    else:
        v.check("irq-inject-render", "fail", "%s: not injected, GT state %s"
                % (what, gt))

    # Healthy after it: still bound, no interrupt error from i915 or the
    # IRQ core, the tree at rest as i915's handler leaves it (master
    # enable set, GT INT DW0 cleared, no identity or selector pending: it
    # serviced every event), and the count stood still since the last
    # injection.
    if log.get("interrupts-after") is None:
        return []
    last_n = irq_read(log.text("interrupts-last"))[0]
    errors = [strip_ts(x) for x in log.lines("dmesg-irq")
              if re.search(IRQMSG + "|" + SPLAT, x)]
    head = []
    for pat in (IRQMSG, HEAD):
        h = first(errors, pat)
        if h and h not in head:
            head.append(h)
    ir = log.get("intel_reg-irq")
    regs = ir.text if ir else ""
    mstr, dw0 = regval(regs, "0x190010"), regval(regs, "0x190018")
    ident, sel = regval(regs, "0x190060"), regval(regs, "0x190070")
    tree = ("GFX_MSTR_IRQ %s, GT_INTR_DW0 %s, INTR_IDENTITY0 %s, "
            "IIR_REG_SELECTOR0 %s" % tuple(x or "?" for x in
                                           (mstr, dw0, ident, sel)))
    irq_n, irq_line = irq_read(log.text("interrupts-after"))
    drv = log.value("driver-after", "none")
    if agent_st != "ok" or not irq_ok:
        v.check("irq-healthy", "skip", "no injections were made (host agent: "
                "%s; i915 interrupt: %s)" % (agent_st, irq_line or "none"))
    elif drv != "i915":
        v.check("irq-healthy", "fail",
                "after the injections i915 is not bound "
                "(driver: %s)" % drv)
    elif errors:
        v.check("irq-healthy", "fail", "dmesg since the injections began: %s "
                "(%d lines)" % (" / ".join(head) or errors[0], len(errors)))
        v.files["irq-errors.txt"] = "".join(x + "\n" for x in errors)
    elif not (mstr and dw0 and ident and sel):
        v.check("irq-healthy", "fail",
                "intel_reg could not read the interrupt "
                "tree (status %s: %s)" % (ir.rc if ir else "", brief(regs)))
    elif shint(mstr) != 0x80000000 or shint(dw0) or shint(ident) or shint(sel):
        v.check("irq-healthy", "fail", "interrupt tree not at rest: %s, want "
                "0x80000000, 0, 0, 0" % tree)
    elif (irq_n or "x") != (last_n or "y"):
        v.check("irq-healthy", "fail", "the i915 count moved after the last "
                "injection: %s -> %s" % (last_n, irq_n or "none"))
    else:
        v.check("irq-healthy", "ok", "i915 bound, no interrupt error or splat "
                "in dmesg, tree at rest (%s), count still %s" % (tree, irq_n))
    irq_sum.append("tree after: " + tree)

    skip = ("needs a GT that initialised and the host agent (GT: %s; "
            "agent: %s)" % (gt, agent_st))
    up = gt == "not wedged" and agent_st == "ok"

    # A snapshot taken and loaded back while gem_exec_nop keeps rcs0 busy:
    # gem_exec_nop completes, no hang, reset or splat follows, and the next
    # batch runs.
    snap_sum = "not taken"
    if not up:
        v.check("snapshot-resume", "skip", skip)
        v.check("exec-after-snapshot", "skip", "no snapshot was taken")
    elif log.get("dmesg-snapshot") is not None:
        st, text, _ = log.get("snapshot").got()
        nop = log.text("gem_exec_nop-snapshot")
        us = rate_of(nop)
        trouble = strip_ts(first(
            log.lines("dmesg-snapshot"),
            r"GPU HANG|Resetting|wedged|Failed to reset|" + SPLAT))
        snap_sum = ("savevm+loadvm %s (%s), gem_exec_nop %s us/batch, "
                    "dmesg: %s" % (st, text, us or "no rate",
                                   trouble or "quiet"))
        if st != "ok":
            v.check("snapshot-resume", "fail",
                    "savevm/loadvm: %s: %s" % (st, text))
        elif not us or float(us) <= 0:
            v.check("snapshot-resume", "fail",
                    "gem_exec_nop gave no rate across"
                    " the snapshot: %s" % brief(nop))
        elif trouble:
            v.check("snapshot-resume", "fail", "dmesg after the snapshot: %s"
                    % trouble)
        else:
            v.check("snapshot-resume", "ok", snap_sum)
        s = log.get("exec-after-snapshot")
        if s is not None:
            if s.rc == "0":
                v.check("exec-after-snapshot", "ok", "i915-exec-probe: %s"
                        % brief(s.text))
            else:
                v.check("exec-after-snapshot", "fail", "i915-exec-probe store "
                        "rcs (status %s): %s" % (s.rc, brief(s.text)))

    # Fault drills on rcs0 under a user batch: the check wants i915 to reset
    # rcs0 with a kernel log line matching EXPECT (what i915 does with that
    # drill), not to be wedged, and the next batch to store its value.
    hung = r"Resetting rcs0 for (stopped heartbeat|preemption time out)"
    csb = r"Resetting rcs0 for invalid CSB event"
    drills_sum = ""
    for cid, expect in (("drill-hang", hung), ("drill-csb-drop", csb),
                        ("drill-csb-corrupt", csb), ("drill-dma", hung)):
        if not up:
            v.check(cid, "skip", skip)
            drills_sum += " %s: not run;" % cid
            continue
        after = log.get(cid + "-after")
        if after is None:
            continue
        st, text, req = log.get(cid).got()
        victim = log.get(cid + "-victim")
        dm = log.lines("dmesg-" + cid)
        reset = words([strip_ts(x) for x in dm
                       if re.search(r"Resetting rcs0|GPU HANG", x)])
        match = first(dm, expect)
        wedge = first(dm, r"wedged|Failed to reset", re.I)
        d_sum = ("drill %s; batch under the drill: status %s; i915: %s; next "
                 "batch: status %s" % (st, victim.rc if victim else "", reset,
                                       after.rc))
        drills_sum += " %s: %s;" % (cid, d_sum)
        if st != "ok":
            v.check(cid, "fail", "%s: %s" % (" ".join(req), text))
        elif not match or wedge:
            v.check(cid, "fail", "i915 did not reset rcs0 as expected (/%s/): "
                    "%s; %s" % (expect, reset, wedge))
        elif after.rc != "0":
            v.check(cid, "fail",
                    "after the reset the next batch failed (status"
                    " %s): %s" % (after.rc, brief(after.text)))
        else:
            v.check(cid, "ok", "%s; %s" % (d_sum, brief(after.text)))

    # The OA drills, i915-perf-probe reading a stream while the host
    # drills, as stock i915 6.1 does:
    # - drill-oa-stall (OATAILPTR held 1 s): the reader gets nothing while
    #   it holds, then every report written meanwhile: no gap, nothing lost;
    # - drill-oa-overflow (one report): gen8_oa_read finds OASTATUS buffer
    #   overflow, gives the reader a DRM_I915_PERF_RECORD_OA_BUFFER_LOST
    #   record and restarts the OA unit; the reports after it come one
    #   period apart.
    oa_sum = "not run"

    def oa(name):
        st = log.get(name).got()[0]
        text = log.get(name).got()[1]
        probe = log.get(name + "-probe")
        out = first(probe.lines if probe else [], r"^perf ok")
        trouble = strip_ts(first(
            log.lines("dmesg-" + name),
            r"WARNING:|BUG:|Oops|Call Trace|unlanded|timed out"))
        fields = {}
        # The last " NAME N " of each name, as the shell's sed took it.
        for m in re.finditer(r"(?= (\w+) ([0-9]*) )", " %s " % out):
            fields[m.group(1)] = m.group(2)
        what = "drill %s; %s" % (st, out or "no probe result: %s"
                                 % brief(probe.text if probe else ""))
        return st, text, out, trouble, fields, what

    def ge(fields, key, n):
        return is_int(fields.get(key)) and int(fields[key]) >= n

    if not up:
        v.check("drill-oa-stall", "skip", skip)
        v.check("drill-oa-overflow", "skip", skip)
    elif log.get("dmesg-drill-oa-overflow") is not None:
        st, _, out, trouble, f, what = oa("drill-oa-stall")
        oa_sum = "stall: " + what
        if st == "ok" and out and ge(f, "samples", 300) and \
                f.get("gaps") == "0" and f.get("buffer_lost") == "0" and \
                f.get("report_lost") == "0" and ge(f, "max_wait_ms", 800) and \
                not trouble:
            v.check("drill-oa-stall", "ok", what)
        else:
            v.check("drill-oa-stall", "fail",
                    "%s; want >= 300 samples, no gap or loss, a wait >= "
                    "800 ms; dmesg: %s" % (what, trouble or "quiet"))
        st, _, out, trouble, f, what = oa("drill-oa-overflow")
        # i915's drm_dbg when gen8_oa_read restarts the unit.
        restart = strip_ts(first(log.lines("dmesg-drill-oa-overflow"),
                                 r"OA buffer overflow.*force restart"))
        what += "; dmesg: %s" % (restart or "no restart")
        oa_sum += "; overflow: " + what
        if st == "ok" and out and f.get("buffer_lost") == "1" and \
                f.get("report_lost") == "0" and ge(f, "after_lost", 100) and \
                f.get("gaps_after_lost") == "0" and restart and not trouble:
            v.check("drill-oa-overflow", "ok", what)
        else:
            v.check("drill-oa-overflow", "fail",
                    "%s; want one OA_BUFFER_LOST record, i915's restart, "
                    ">= 100 samples after it one period apart; dmesg: %s"
                    % (what, trouble or "quiet"))

    if log.get("vcs0-control") is not None:
        before, after, _, _ = series(log, "vcs0-control", k)
        st = log.get("vcs0-control").got()[0]
        said = strip_ts(first(log.lines("dmesg-vcs0"), IRQMSG + "|" + HEAD))
        irq_sum.append("VCS0 control: %s, count %s -> %s, dmesg: %s"
                       % (st, before, after or "?", said or "nothing"))

    unmodelled = "not asked (no host agent)"
    if log.get("unmodelled") is not None:
        st, text, _ = log.get("unmodelled").got()
        v.files["unmodelled.txt"] = text + "\n"
        m = re.search(r'"count": *([0-9]*)', text)
        unmodelled = "%s distinct offsets (list: unmodelled.txt)" % (
            m.group(1) if m else "%s: %s" % (st, text))
    return ["Interrupts: " + "; ".join(irq_sum),
            "Snapshot: " + snap_sum,
            "Drills:" + drills_sum,
            "OA drills: " + oa_sum,
            "Unmodelled registers the guest touched: " + unmodelled]


# ---- nv-gpu: PCOUNTER from nv-pcounter-probe's readings --------------------
#
# The probe (tests/guest/nv-pcounter-probe.c) reports the BAR0 writes it
# made, the reads it took ("r LABEL OFFSET VALUE"), the record buffer bytes
# it read back and the PFN of its page, in steps.  Every expected value
# here follows from the configuration those writes programmed, the
# synthetic signals the host gave QEMU (the "synth" section) and PCOUNTER's
# modes (envytools docs/hw/pcounter/intro.rst, "PCOUNTER: performance
# counter engine": "Quad event mode", "Record mode", "Record mode setup").

# BAR0 offsets and fields, as include/hw/gpumodel/nv-gpu-regs.h names them
# (test_guest_tier.py compares them with the header).  Per domain d:
# NV_PC[name] + 4 * d.
NV_REGS = {
    "NV_PMC_BOOT_0": 0x000000,
    "NV_PTIMER_TIME_LOW": 0x009400,
    "NV_PGRAPH_PM_CTRL": 0x400084,
    "NV_FLUSH": 0x070000,
}
NV_PC = {
    "NV40_PC_PRE_SRC": 0xa400, "NV40_PC_PRE_OP": 0xa420,
    "NV40_PC_START_SRC": 0xa440, "NV40_PC_START_OP": 0xa460,
    "NV40_PC_EVENT_SRC": 0xa480, "NV40_PC_EVENT_OP": 0xa4a0,
    "NV40_PC_STOP_SRC": 0xa4c0, "NV40_PC_STOP_OP": 0xa4e0,
    "NV40_PC_SPEC_SRC": 0xa560,
    "NV40_PC_CTR_CYCLES": 0xa600, "NV40_PC_CTR_CYCLES_ALT": 0xa640,
    "NV40_PC_CTR_EVENT": 0xa680, "NV40_PC_CTR_START": 0xa6c0,
    "NV40_PC_RECORD_STATUS": 0xa6e0, "NV40_PC_CTR_PRE": 0xa700,
    "NV40_PC_RECORD_LIMIT": 0xa720, "NV40_PC_CTR_STOP": 0xa740,
    "NV40_PC_RECORD_START": 0xa760, "NV40_PC_CTRL": 0xa7c0,
    "NV40_PC_QUAD_ACK_TRIGGER": 0xa7e0,
}
NV_FIELDS = {
    "NV_PGRAPH_PM_TRIGGER": 1 << 5,
    "NV_FLUSH_TRIGGER": 1 << 0, "NV_FLUSH_BUSY": 1 << 1,
    "NV_PC_RECORD_STATUS_FAULT": 1 << 0,
    "NV_PC_OP_DELAY0": 1 << 16, "NV_PC_OP_DELAY1": 1 << 17,
    "NV_PC_MODE_QUAD": 1,
    "NV_PC_CTRL_RECORD_SHORT": 1 << 20, "NV_PC_CTRL_PERIODIC_SHIFT": 21,
    "NV_PC_CTRL_QUAD_STATE_SHIFT": 24,
    "NV_PC_QUAD_EMPTY": 0, "NV_PC_QUAD_VALID": 1, "NV_PC_QUAD_OVERFLOW": 3,
    "NV_SIG_ONE": 0x01, "NV_SIG_PERIODIC": 0xed, "NV_SIG_PM_TRIGGER": 0xef,
    "NV_PC_RECORD_LONG_SIZE": 32, "NV_PC_RECORD_SHORT_SIZE": 16,
    "NV_PC_RECORD_FLUSH_LEVEL": 0xf000,
}
F = NV_FIELDS
SIG_ZERO, SIG_ONE, SIG_SYNTH0 = 0x00, F["NV_SIG_ONE"], 0x10
EMPTY, VALID, OVERFLOW = (F["NV_PC_QUAD_EMPTY"], F["NV_PC_QUAD_VALID"],
                          F["NV_PC_QUAD_OVERFLOW"])
STATE_NAME = {EMPTY: "EMPTY", VALID: "VALID", OVERFLOW: "OVERFLOW"}
OP_TRUE, OP_ARG0, OP_ARG1, OP_OR01, OP_AND01 = (0xffff, 0xaaaa, 0xcccc,
                                                0xeeee, 0x8888)
# The G84's PMC BOOT_0 (chipset 0x84 in bits 28:20, as nouveau decodes it).
BOOT0_G84 = 0x084000a2
# Default domain clocks in Hz (docs/nv-gpu.rst, "Default domain clocks").
DOM_HZ = (100000000, 500000000, 500000000, 1200000000,
          400000000, 500000000, 400000000, 500000000)
# PTIMER_TIME_B12 at PTIMER's reset ratio (TIME in ns): bit 12 of TIME, a
# square wave of 2 << 12 ns (docs/nv-gpu.rst, "PTIMER_TIME_B12").
B12_PERIOD_NS = 2 << 12


def pc(name, dom):
    return NV_PC[name] + 4 * dom


# The PCOUNTER registers a read's configuration holds.
PC_REGS = frozenset(pc(n, d) for n in NV_PC for d in range(8))


def parse_synth(spec):
    """The synth property (DOM.N=PERIOD/HIGH[/PHASE], ' ' or ';'): [dom][n]
    = (period, high, phase); None when it does not parse."""
    syn = [[(1, 0, 0)] * 8 for _ in range(8)]
    for tok in re.split(r"[ ;]+", spec.strip()):
        if not tok:
            continue
        m = re.fullmatch(r"([0-7*])\.([0-7])=(\w+)/(\w+)(?:/(\w+))?", tok)
        if not m:
            return None
        try:
            per, high = int(m.group(3), 0), int(m.group(4), 0)
            ph = int(m.group(5), 0) if m.group(5) else 0
        except ValueError:
            return None
        if not 0 < per <= 65536 or per & (per - 1) or high > per or \
                ph >= per:
            return None
        for d in range(8) if m.group(1) == "*" else [int(m.group(1))]:
            syn[d][int(m.group(2))] = (per, high, ph)
    return syn


class Signals:
    """What the inputs of a domain see: ONE, the synthetic signals, 0 for
    everything else (docs/nv-gpu.rst, "Synthetic workload signals")."""

    def __init__(self, syn, dom):
        self.syn, self.dom = syn, dom
        self.cache = {}

    def synth(self, sig):
        if SIG_SYNTH0 <= sig < SIG_SYNTH0 + 8:
            return self.syn[self.dom][sig - SIG_SYNTH0]
        return None

    def period(self, sig):
        s = self.synth(sig)
        return s[0] if s else 1

    def at(self, sig, c):
        if sig == SIG_ONE:
            return 1
        s = self.synth(sig)
        return int((c + s[2]) % s[0] < s[1]) if s else 0

    def input_at(self, inp, c):
        """An input: the truth table OP over the four signals SRC selects;
        OP bits 16/17 delay arguments 0/1 by one cycle."""
        src, op = inp
        delay = (F["NV_PC_OP_DELAY0"], F["NV_PC_OP_DELAY1"], 0, 0)
        idx = 0
        for i in range(4):
            late = 1 if op & delay[i] else 0
            idx |= self.at(src >> (8 * i) & 0xff, c - late) << i
        return op >> idx & 1

    def input_period(self, inp):
        # Powers of two: the largest is the LCM.
        return max(self.period(inp[0] >> (8 * i) & 0xff) for i in range(4))

    def windows(self, inputs, n):
        """Every sum of INPUTS can take over a window of N cycles starting
        at any phase (the guest cannot know at which cycle a write lands;
        the signals are periodic, so one period of phases is all)."""
        key = (tuple(inputs), n)
        if key not in self.cache:
            self.cache[key] = self._windows(inputs, n)
        return self.cache[key]

    def _windows(self, inputs, n):
        q = max(self.input_period(i) for i in inputs)
        pre = [0]
        for c in range(2 * q):
            pre.append(pre[-1] + sum(self.input_at(i, c) for i in inputs))
        full, r = divmod(n, q)
        return [full * pre[q] + pre[s + r] - pre[s] for s in range(q)]

    def name(self, sig, long=True):
        if sig == SIG_ONE:
            return "ONE"
        s = self.synth(sig)
        if s is None:
            return "signal 0x%02x" % sig
        n = "SYNTH%d" % (sig - SIG_SYNTH0)
        return n + " %d/%d" % s[:2] if long else n

    def describe(self, inp, long=True):
        src, op = inp[0], inp[1] & 0xffff
        a, b = src & 0xff, src >> 8 & 0xff
        if op == OP_TRUE:
            return "op true"
        if op == 0:
            return "op false"
        if op == OP_ARG0 and not inp[1] >> 16:
            return self.name(a, long)
        if op == OP_ARG1 and not inp[1] >> 16:
            return self.name(b, long)
        if op in (OP_OR01, OP_AND01):
            return (self.name(a, False) + ("|" if op == OP_OR01 else "&") +
                    self.name(b, False))
        return "SRC 0x%08x OP 0x%08x" % inp


class Missing(Exception):
    pass


class Read:
    def __init__(self, value, regs, states):
        self.value, self.regs, self.states = value, regs, states


class Step:
    def __init__(self, name):
        self.name = name
        self.writes = []        # (offset, value)
        self.reads = {}         # (label, offset) -> Read
        self.mem = {}           # address -> bytes
        self.fill = None        # (address, length, byte)
        self.keys = {}          # other lines: first word -> the rest

    def read(self, label, off):
        r = self.reads.get((label, off))
        if r is None:
            raise Missing("no read %s of 0x%06x in step %s"
                          % (label, off, self.name))
        return r

    def val(self, label, off):
        return self.read(label, off).value

    def filled(self):
        """(address, length, byte) of the memory the probe filled."""
        if self.fill is None:
            raise Missing("no fill line in step %s" % self.name)
        return self.fill

    def bytes(self, addr, n):
        """N bytes from ADDR as the probe read them back."""
        out = bytearray()
        keys = None
        while len(out) < n:
            a = addr + len(out)
            base = a
            if a not in self.mem:
                keys = keys or sorted(self.mem)
                i = bisect.bisect_right(keys, a)
                base = keys[i - 1] if i else None
            if base is None or a - base >= len(self.mem[base]):
                raise Missing("no bytes at 0x%08x in step %s"
                              % (a, self.name))
            out += self.mem[base][a - base:]
        return bytes(out[:n])


class Probe:
    """nv-pcounter-probe's output, replayed: each read sees the registers
    every write before it programmed (from reset: 0, but SPEC_SRC, whose
    SWAP nv-gpu resets to PGRAPH.PM_TRIGGER, hw/gpumodel/nvidia/
    pcounter-regs.c) and the quad states the writes lead to: a swap
    (PRE_OP written in quad mode on G84:GF100, or the SWAP input, here
    PM_TRIGGER) moves EMPTY -> VALID -> OVERFLOW, QUAD_ACK_TRIGGER back
    one unit.  Lines it cannot parse are skipped."""

    def __init__(self, lines):
        self.steps = {}
        regs = {pc("NV40_PC_SPEC_SRC", d): F["NV_SIG_PM_TRIGGER"]
                for d in range(8)}
        states = [EMPTY] * 8
        cur = self.steps[""] = Step("")
        for line in lines:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            try:
                if w[0] == "step" and len(w) == 2:
                    cur = self.steps[w[1]] = Step(w[1])
                elif w[0] == "w" and len(w) == 3:
                    off, val = int(w[1], 16), int(w[2], 16)
                    cur.writes.append((off, val))
                    self.swaps(regs, states, off, val)
                    if off in PC_REGS:
                        regs[off] = val
                elif w[0] == "r" and len(w) == 4:
                    cur.reads[(w[1], int(w[2], 16))] = Read(
                        int(w[3], 16), dict(regs), list(states))
                elif w[0] == "m" and len(w) == 3:
                    cur.mem[int(w[1], 16)] = bytes.fromhex(w[2])
                elif w[0] == "fill" and len(w) == 4:
                    cur.fill = (int(w[1], 16), int(w[2], 16), int(w[3], 16))
                else:
                    cur.keys[w[0]] = line.split(None, 1)[1] \
                        if len(w) > 1 else ""
            except ValueError:
                continue

    @staticmethod
    def swaps(regs, states, off, val):
        up = {EMPTY: VALID, VALID: OVERFLOW, OVERFLOW: OVERFLOW}
        down = {OVERFLOW: VALID, VALID: EMPTY, EMPTY: EMPTY}
        for d in range(8):
            quad = regs.get(pc("NV40_PC_CTRL", d), 0) & 3 == \
                F["NV_PC_MODE_QUAD"]
            swap = regs[pc("NV40_PC_SPEC_SRC", d)] & 0xff
            if quad and (off == pc("NV40_PC_PRE_OP", d) or
                         (off == NV_REGS["NV_PGRAPH_PM_CTRL"] and
                          val & F["NV_PGRAPH_PM_TRIGGER"] and
                          swap == F["NV_SIG_PM_TRIGGER"])):
                states[d] = up.get(states[d], states[d])
            if off == pc("NV40_PC_QUAD_ACK_TRIGGER", d) and val & 1:
                states[d] = down.get(states[d], states[d])

    def step(self, name):
        s = self.steps.get(name)
        if s is None:
            raise Missing("no step %s" % name)
        return s


def quad_state(ctrl):
    return ctrl >> F["NV_PC_CTRL_QUAD_STATE_SHIFT"] & 3


def inputs(regs, dom):
    """The four inputs of domain DOM as (SRC, OP), as programmed."""
    def reg(n):
        return regs.get(pc(n, dom), 0)
    return {k: (reg("NV40_PC_%s_SRC" % k), reg("NV40_PC_%s_OP" % k))
            for k in ("PRE", "START", "EVENT", "STOP")}


QUAD_CTRS = (("CYCLES", "NV40_PC_CTR_CYCLES"),
             ("ALT", "NV40_PC_CTR_CYCLES_ALT"), ("PRE", "NV40_PC_CTR_PRE"),
             ("START", "NV40_PC_CTR_START"), ("EVENT", "NV40_PC_CTR_EVENT"),
             ("STOP", "NV40_PC_CTR_STOP"), ("CTRL", "NV40_PC_CTRL"))


def quad_window(step, label, dom):
    """The counters of a quad window read under LABEL, the registers and
    quad state at that read."""
    q = {k: step.val(label, pc(r, dom)) for k, r in QUAD_CTRS}
    return q, step.read(label, pc("NV40_PC_CTRL", dom))


def count_msg(what, v, xs):
    if v in xs:
        return ""
    lo, hi = min(xs), max(xs)
    if lo == hi:
        return "; %s %d, want %d" % (what, v, lo)
    return "; %s %d, want one of %d..%d reachable" % (what, v, lo, hi)


def quad_check(sig, q, inp):
    """Every counter of a quad window against its input: the faults."""
    msg = ""
    if q["ALT"] != q["CYCLES"]:
        msg = "; CTR_CYCLES_ALT %d != CTR_CYCLES %d" % (q["ALT"], q["CYCLES"])
    for k in ("PRE", "START", "EVENT", "STOP"):
        msg += count_msg("CTR_" + k, q[k], sig.windows([inp[k]], q["CYCLES"]))
    return msg


def state_msg(step, label, dom, what):
    """"" when domain DOM's quad state at read LABEL is the one the writes
    lead to, else why not."""
    r = step.read(label, pc("NV40_PC_CTRL", dom))
    got, want = quad_state(r.value), r.states[dom]
    if got == want:
        return ""
    return "; domain %d QUAD_STATE %d %s, want %d %s" % (
        dom, got, what, want, STATE_NAME.get(want, "?"))


def nv_quad(v, p, sig):
    s = p.step("quad")
    ctrl = pc("NV40_PC_CTRL", 0)
    st0, st1 = s.read("setup", ctrl), s.read("trigger", ctrl)
    ack0, ack1 = s.read("ack", ctrl), s.read("ack", pc("NV40_PC_CTRL", 1))
    trig1 = s.read("trigger", pc("NV40_PC_CTRL", 1))
    got = [quad_state(x.value) for x in (st0, st1, ack0, ack1, trig1)]
    want = [st0.states[0], st1.states[0], ack0.states[0], ack1.states[1],
            trig1.states[1]]
    v.check("quad-states", "ok" if got == want else "fail",
            "quad mode: QUAD_STATE %d after setup, %d after PM_TRIGGER "
            "(PGRAPH 0x400084 bit 5), %d/%d after QUAD_ACK_TRIGGER (want "
            "%d %s, %d %s, %d)" % (got[0], got[1], got[2], got[3], want[0],
                                   STATE_NAME.get(want[0], "?"), want[1],
                                   STATE_NAME.get(want[1], "?"), want[2]))

    a, ra = quad_window(s, "window", 0)
    s0, inp = sig[0], inputs(ra.regs, 0)
    msg = state_msg(s, "close", 0, "after the closing PM_TRIGGER")
    msg += quad_check(s0, a, inp)
    # The window in ns against PTIMER: the same virtual clock.
    dt = (s.val("t1", NV_REGS["NV_PTIMER_TIME_LOW"]) -
          s.val("t0", NV_REGS["NV_PTIMER_TIME_LOW"])) & 0xffffffff
    ns = a["CYCLES"] * 1000000000 // DOM_HZ[0]
    if abs(ns - dt) > 1000000:
        msg += "; %d ns of domain 0 cycles but PTIMER saw %d ns" % (ns, dt)
    xs = s0.windows([inp["EVENT"]], a["CYCLES"])
    v.check("quad-trigger", "ok" if a["CYCLES"] > 0 and not msg else "fail",
            "domain 0 (%d MHz) over a PM_TRIGGER window of %d cycles: "
            "CTR_EVENT (%s) %d (reachable %d..%d), CTR_START (%s) %d, "
            "CTR_PRE (%s) %d, CTR_STOP (%s) %d, CYCLES_ALT %d%s"
            % (DOM_HZ[0] // 1000000, a["CYCLES"],
               s0.describe(inp["EVENT"]), a["EVENT"], min(xs), max(xs),
               s0.describe(inp["START"]), a["START"],
               s0.describe(inp["PRE"]), a["PRE"],
               s0.describe(inp["STOP"]), a["STOP"], a["ALT"], msg))

    b, rb = quad_window(s, "window", 1)
    s1, inp = sig[1], inputs(rb.regs, 1)
    msg = state_msg(s, "close", 1, "after the closing PM_TRIGGER")
    msg += quad_check(s1, b, inp)
    xs = s1.windows([inp["START"], inp["EVENT"]], b["CYCLES"])
    if b["START"] + b["EVENT"] not in xs:
        msg += "; START+EVENT %d, want %d..%d" % (
            b["START"] + b["EVENT"], min(xs), max(xs))
    v.check("quad-logic", "ok" if b["CYCLES"] > 0 and not msg else "fail",
            "domain 1 (%d MHz), same window, %d cycles: %s %d, %s %d + %s "
            "%d = %d, %s %d%s"
            % (DOM_HZ[1] // 1000000, b["CYCLES"],
               s1.describe(inp["PRE"], False), b["PRE"],
               s1.describe(inp["START"], False), b["START"],
               s1.describe(inp["EVENT"], False), b["EVENT"],
               b["START"] + b["EVENT"], s1.describe(inp["STOP"], False),
               b["STOP"], msg))


def nv_periodic(v, p, sig):
    dom = 2
    s = p.step("quad-periodic")
    q, r = quad_window(s, "window", dom)
    sd, inp = sig[dom], inputs(r.regs, dom)
    ctrl = r.regs.get(pc("NV40_PC_CTRL", dom), 0)
    spec = r.regs[pc("NV40_PC_SPEC_SRC", dom)] & 0xff
    field = ctrl >> F["NV_PC_CTRL_PERIODIC_SHIFT"] & 7
    # PERIODIC pulses every 0x400 << (PERIODIC_PERIOD - 1) cycles; each
    # pulse swaps when SWAP selects it.
    period = 0x400 << (field - 1) if field else 0
    dt = (s.val("t1", NV_REGS["NV_PTIMER_TIME_LOW"]) -
          s.val("t0", NV_REGS["NV_PTIMER_TIME_LOW"])) & 0xffffffff
    swaps = dt * DOM_HZ[dom] // 1000000000 // period \
        if period and spec == F["NV_SIG_PERIODIC"] else 0
    want = r.states[dom]
    for _ in range(min(swaps, 2)):
        want = OVERFLOW if want != EMPTY else VALID
    st = quad_state(q["CTRL"])
    msg = quad_check(sd, q, inp)
    ok = not msg and q["CYCLES"] == period and st == want
    v.check("quad-periodic", "ok" if ok else "fail",
            "domain %d swapped by PERIODIC (SPEC_SRC 0x%02x, CTRL 0x%08x) "
            "without MMIO for 1 ms: QUAD_STATE %d (want %d %s), CTR_CYCLES "
            "%d (want %d), CTR_EVENT (%s) %d, CTR_START %d, CTR_PRE %d, "
            "CTR_STOP %d%s" % (dom, spec, ctrl, st, want,
                               STATE_NAME.get(want, "?"), q["CYCLES"],
                               period, sd.describe(inp["EVENT"]), q["EVENT"],
                               q["START"], q["PRE"], q["STOP"], msg))


def nv_ptimer_flush(v, p, sig):
    s = p.step("ptimer-flush")
    a, ra = quad_window(s, "window", 0)
    b, _ = quad_window(s, "window", 1)
    waits = (state_msg(s, "open", 0, "after the opening PM_TRIGGER") +
             state_msg(s, "close", 0, "after the closing PM_TRIGGER") +
             state_msg(s, "close", 1, "after the closing PM_TRIGGER"))
    inp = inputs(ra.regs, 0)
    per = B12_PERIOD_NS * DOM_HZ[0] / 1e9   # cycles per period of bit 12
    # Half the cycles, give or take a quarter period for the unknown phase
    # (and one cycle); one rise per period, or one more.
    dev = a["PRE"] - a["CYCLES"] / 2.0
    rises = int(a["CYCLES"] / per)
    ok = not waits and a["CYCLES"] > 0 and -per / 4 - 1 <= dev <= \
        per / 4 + 1 and rises <= a["EVENT"] <= rises + 1
    v.check("ptimer-b12", "ok" if ok else "fail",
            "domain 0 (%d MHz) over a %d-cycle PM_TRIGGER window: "
            "PTIMER_TIME_B12 (signal 0x%02x) 1 in %d cycles (want %.0f +- "
            "%.0f), %d rises (want %d or %d)%s"
            % (DOM_HZ[0] // 1000000, a["CYCLES"], inp["PRE"][0] & 0xff,
               a["PRE"], a["CYCLES"] / 2.0, per / 4 + 1, a["EVENT"], rises,
               rises + 1, waits))
    # One WRCACHE_FLUSH pulse per flush triggered (0x070000 = 1).
    flush = NV_REGS["NV_FLUSH"]
    n = sum(1 for off, val in s.writes
            if off == flush and val & F["NV_FLUSH_TRIGGER"])
    done = sum(1 for i in range(1, n + 1)
               if not s.val("flush%d" % i, flush) & F["NV_FLUSH_BUSY"])
    ok = not waits and done == n and b["EVENT"] == n
    v.check("wrcache-flush", "ok" if ok else "fail",
            "%d of %d write flushes (0x070000 = 1) done (bit 1 read 0); "
            "domain 1 counted %d PGRAPH.WRCACHE_FLUSH pulses (want %d)%s"
            % (done, n, b["EVENT"], n, waits))


def le(data, off, n):
    return int.from_bytes(data[off:off + n], "little")


def stop_pulse(sd, stop):
    """The period of the STOP input when it is 1 in one cycle of each
    period of 2..0xefff cycles (so that no event counter reaches the
    flush level between STOPs), else None."""
    q = sd.input_period(stop)
    ones = sum(sd.input_at(stop, c) for c in range(q))
    ok = ones == 1 and 2 <= q < F["NV_PC_RECORD_FLUSH_LEVEL"]
    return q if ok else None


def record_status_read(s, label):
    """(domain, Read) of the RECORD_STATUS read under LABEL."""
    for d in range(8):
        r = s.reads.get((label, pc("NV40_PC_RECORD_STATUS", d)))
        if r is not None:
            return d, r
    raise Missing("no RECORD_STATUS read %s in step %s" % (label, s.name))


def nv_record(v, p, sig, cid):
    """A record-mode capture: packets exact per STOP period (envytools
    docs/hw/pcounter/intro.rst, "Record mode")."""
    s = p.step(cid)
    dom, r = record_status_read(s, "final")
    regs, status = r.regs, r.value
    ctrl = regs.get(pc("NV40_PC_CTRL", dom), 0)
    is_short = ctrl & F["NV_PC_CTRL_RECORD_SHORT"]
    size = F["NV_PC_RECORD_%s_SIZE" % ("SHORT" if is_short else "LONG")]
    nctr = 4 if is_short else 12
    start = regs.get(pc("NV40_PC_RECORD_START", dom), 0)
    limit = regs.get(pc("NV40_PC_RECORD_LIMIT", dom), 0)
    npk = (limit - start) // size + 1 if limit >= start else 0
    sd = sig[dom]
    stop = (regs.get(pc("NV40_PC_STOP_SRC", dom), 0),
            regs.get(pc("NV40_PC_STOP_OP", dom), 0))
    per = stop_pulse(sd, stop)
    if per is None:
        syn = sd.synth(stop[0] & 0xff) or (0, 0, 0)
        return v.check(cid, "fail", "synth must make SYNTH0 of domain %d a "
                       "1-cycle pulse with a period of 2..32768 (it is "
                       "%d/%d)" % (dom, syn[0], syn[1]))
    # Counter i counts the signal byte i of PRE_SRC, START_SRC, EVENT_SRC.
    srcs = [regs.get(pc("NV40_PC_%s_SRC" % k, dom), 0)
            for k in ("PRE", "START", "EVENT")]
    ctrs = [(srcs[i // 4] >> 8 * (i % 4) & 0xff, OP_ARG0)
            for i in range(nctr)]
    one = next((i for i in range(nctr) if ctrs[i][0] == SIG_ONE), None)
    # Each packet at the limit or before it is written, then the buffer
    # is no longer valid: the position ends one packet past the limit.
    msg, ok = "", True
    if status != limit + size:
        msg = "; RECORD_STATUS 0x%08x, want 0x%08x%s" % (
            status, limit + size, " (fault: DMA failed)"
            if status & F["NV_PC_RECORD_STATUS_FAULT"] else " (in 10 s)")
        ok = False
    addr, span, fill = s.filled()
    data = s.bytes(addr, span)
    ts0 = 0
    for k in range(npk if ok else 0):
        o = start - addr + k * size
        ts, stops = le(data, o, 6), le(data, o + 6, 2)
        val = [le(data, o + 8 + 2 * i, 2) for i in range(nctr)]
        bad = stops != 1
        if k == 0:
            # From RECORD_START to the first STOP: a window of up to one
            # period, its length in the ONE counter.
            ts0 = ts
            n = val[one] if one is not None else ts
            bad |= ts < 1 or ts > per or n < 1 or n > ts
            for i in range(nctr):
                bad |= val[i] not in sd.windows([ctrs[i]], n)
        else:
            # A whole STOP period: exact.
            bad |= ts != ts0 + k * per
            for i in range(nctr):
                xs = sd.windows([ctrs[i]], per)
                bad |= val[i] not in xs or min(xs) != max(xs)
        if bad:
            msg = ("; packet %d: cycles %d (first %d, period %d), STOPs %d, "
                   "ctr0 %d, ctr1 %d, ctr2 %d" % (k, ts, ts0, per, stops,
                                                  val[0], val[1], val[2]))
            ok = False
            break
    for i in range(span) if ok else ():
        if not 0 <= addr + i - start < npk * size and data[i] != fill:
            msg = "; byte 0x%x past RECORD_LIMIT written" % (addr + i - start)
            ok = False
            break
    counted = ["ctr%d (%s) %d" % (i, sd.name(ctrs[i][0]),
                                  min(sd.windows([ctrs[i]], per)))
               for i in range(nctr) if ctrs[i][0] != SIG_ZERO]
    v.check(cid, "ok" if ok else "fail",
            "domain %d %s packets at bus address 0x%08x, RECORD_LIMIT +0x%x: "
            "%d packets, RECORD_STATUS 0x%08x; packets 1..%d each %d cycles "
            "apart, 1 STOP, %s, %d zero counters; slot past the limit "
            "untouched%s" % (dom, "SHORT" if is_short else "LONG", start,
                             limit - start, npk, status, npk - 1, per,
                             ", ".join(counted), nctr - len(counted), msg))


def nv_record_fault(v, p, sig):
    """The drilled domain: FAULT and nothing written; FAULT_CLEAR clears
    the bit only, the domain stays wedged (envytools docs/hw/pcounter/
    intro.rst, "Record mode setup")."""
    s = p.step("record-fault-drill")
    dom, r = record_status_read(s, "fault")
    stop = (r.regs.get(pc("NV40_PC_STOP_SRC", dom), 0),
            r.regs.get(pc("NV40_PC_STOP_OP", dom), 0))
    if stop_pulse(sig[dom], stop) is None:
        return v.check("record-fault-drill", "fail", "synth must give domain "
                       "%d a SYNTH0 pulse (STOP)" % dom)
    start = r.regs.get(pc("NV40_PC_RECORD_START", dom), 0)
    status = r.value
    cleared = s.val("cleared", pc("NV40_PC_RECORD_STATUS", dom))
    after = s.read("restarted", pc("NV40_PC_RECORD_STATUS", dom))
    restart = after.regs.get(pc("NV40_PC_RECORD_START", dom), 0)
    addr, span, fill = s.filled()
    untouched = all(x == fill for x in s.bytes(addr, span))
    fault = start | F["NV_PC_RECORD_STATUS_FAULT"]
    ok = status == fault and untouched and cleared == start and \
        after.value == restart
    v.check("record-fault-drill", "ok" if ok else "fail",
            "domain %d under the drill: RECORD_STATUS 0x%08x (want 0x%08x: "
            "FAULT, nothing written), buffer %s; after CTRL.FAULT_CLEAR "
            "0x%08x (want 0x%08x); a new RECORD_START, 20 ms later: 0x%08x "
            "(want 0x%08x: the domain stays wedged until GPU reset)"
            % (dom, status, fault, "untouched" if untouched else "WRITTEN",
               cleared, start, after.value, restart))


def nv_setup(v, p):
    s = p.step("setup")
    res = s.keys.get("resource0")
    if res is None:
        raise Missing("no resource0 line")
    w = res.split(" ", 2)
    path = w[0]
    if len(w) > 2 and w[1] == "error":
        return v.check("bar0-mmap", "fail", "%s: %s" % (path, w[2]))
    if len(w) < 2 or shint(w[1]) != 16 << 20:
        return v.check("bar0-mmap", "fail", "%s: not 16 MiB" % path)
    mm = s.keys.get("mmap", "")
    if mm != "ok":
        return v.check("bar0-mmap", "fail", "mmap %s: %s"
                       % (path, mm[len("error "):] or "no answer"))
    # Memory decoding and bus mastering: PCI COMMAND bits 1 and 2.
    cmd = shint(s.keys.get("config-command", "")) or 0
    on = cmd & 6 == 6
    v.check("bar0-mmap", "ok" if on else "fail", "%s mapped (16 MiB), memory "
            "decoding and bus mastering %s" % (path, "enabled" if on else
                                               "NOT enabled"))
    boot0 = s.val("boot0", NV_REGS["NV_PMC_BOOT_0"])
    v.check("pmc-boot0", "ok" if boot0 == BOOT0_G84 else "fail",
            "PMC BOOT_0 = 0x%08x (chipset 0x%02x)%s"
            % (boot0, boot0 >> 20 & 0x1ff, "" if boot0 == BOOT0_G84 else
               ", want the G84's 0x%08x" % BOOT0_G84))


def nv_page(v, p):
    s = p.step("page")
    if "page" in s.keys:
        return v.check("dma-buffer", "fail", s.keys["page"][len("error "):])
    pfn = shint(s.keys.get("pfn", ""))
    if pfn is None:
        raise Missing("no pfn line in step page")
    bus = pfn << 12
    if pfn <= 0 or bus + 4096 > 1 << 32:
        return v.check("dma-buffer", "fail", "no usable physical address for "
                       "the record page (pagemap PFN 0x%x; RECORD_START is "
                       "32-bit)" % pfn)
    after = shint(p.step("page-after").keys.get("pfn", ""))
    v.check("dma-buffer", "ok" if after == pfn else "fail",
            "record page: locked, guest physical 0x%08x from "
            "/proc/self/pagemap, %s after the capture"
            % (bus, "still there" if after == pfn else "MOVED"))


def nv_probe(v, lines, drill, syn):
    """The checks of one run of nv-pcounter-probe (DRILL: the record-fault
    drill run): those whose readings it reported."""
    p = Probe(lines)
    sig = [Signals(syn, d) for d in range(8)] if syn else None
    if drill:
        judges = [(("record-fault-drill",),
                   lambda: nv_record_fault(v, p, sig)),
                  (("record-after-fault",),
                   lambda: nv_record(v, p, sig, "record-after-fault"))]
    else:
        judges = [(("bar0-mmap", "pmc-boot0"), lambda: nv_setup(v, p)),
                  (("quad-states", "quad-trigger", "quad-logic"),
                   lambda: nv_quad(v, p, sig)),
                  (("quad-periodic",), lambda: nv_periodic(v, p, sig)),
                  (("ptimer-b12", "wrcache-flush"),
                   lambda: nv_ptimer_flush(v, p, sig)),
                  (("record-long",),
                   lambda: nv_record(v, p, sig, "record-long")),
                  (("record-short",),
                   lambda: nv_record(v, p, sig, "record-short")),
                  (("dma-buffer",), lambda: nv_page(v, p))]
    for cids, judge_it in judges:
        before = dict(v.res)
        try:
            if sig is None and cids[0] not in ("bar0-mmap", "dma-buffer"):
                raise Missing("cannot parse the synth section")
            judge_it()
        except Missing as e:
            # A step the probe never reached (it stopped first) leaves its
            # checks to the caller; one cut short fails them, saying why.
            if str(e).startswith("no step ") or \
                    str(e) == "no resource0 line":
                continue
            for cid in cids:
                if v.res.get(cid) is before.get(cid):
                    v.check(cid, "fail", "nv-pcounter-probe's readings: %s"
                            % e)


def nv(log, checks):
    """The verdicts of nv-checks.sh and nv-pcounter-probe's readings."""
    v = Verdicts()
    k = knobs(log, PROBE_TIMEOUT="120")
    bdf = BDF_NV
    got = check_pci_id(v, log, bdf,
                       "0x10de:0x0402 class 0x030000 revision 0xa1",
                       "10de:0402 (G84), class 0x030000, revision 0xa1")
    if got == "absent":
        v.check("pci-bar0", "fail", "BAR0: no PCI device at %s" % bdf)
    else:
        _, _, _, _, size, f, what = bar(log, 0)
        if size == 16 << 20 and f & 0x200 and not f & (0x100000 | 0x2000):
            v.check("pci-bar0", "ok",
                    what + " (32-bit non-prefetchable memory)")
        else:
            v.check("pci-bar0", "fail", what + ", want 16 MiB of 32-bit "
                    "non-prefetchable memory")
    probe = log.get("probe")
    if probe is None:
        return v, None
    rc = probe.rc
    rf = log.get("record-fault")
    st, text, _ = rf.got() if rf else ("", "", [])
    if rf is not None and st != "ok":
        v.check("record-fault-drill", "fail", "x-nv-gpu-drill-record-fault on "
                "domain 4: %s: %s" % (st, text))
    syn = parse_synth(log.value("synth"))
    nv_probe(v, probe.lines, False, syn)
    drill = log.get("probe-drill")
    if drill is not None:
        nv_probe(v, drill.lines, True, syn)
    if log.get("unmodelled") is None:
        return v, None
    drill_ids = ("record-fault-drill", "record-after-fault")
    for cid, _ in checks:
        if cid in ("pci-id", "pci-bar0", "probe-exit") or cid in v.res:
            continue
        if cid in drill_ids:
            v.check(cid, "fail", "nv-pcounter-probe did not report it (exit "
                    "status %s; see probe-drill section)"
                    % (drill.rc if drill is not None else "none: not run"))
        else:
            v.check(cid, "fail", "nv-pcounter-probe did not report it (exit "
                    "status %s; see probe section)" % rc)
    st, text, _ = log.get("unmodelled").got()
    um = text if st == "ok" else "unknown (%s: %s)" % (st, text)
    if rc == "0" and um.startswith('{"count": 0,'):
        v.check("probe-exit", "ok",
                "nv-pcounter-probe exited 0 after %s..%s s "
                "of uptime; host: no unmodelled BAR0 access"
                % (log.value("probe-start"), log.value("probe-end")))
    elif rc == "0":
        v.check("probe-exit", "fail",
                "nv-pcounter-probe exited 0, but the host"
                " reports unmodelled BAR0 accesses: " + um)
    elif rc == "timeout":
        v.check("probe-exit", "fail",
                "nv-pcounter-probe did not finish in %s s"
                % k["PROBE_TIMEOUT"])
    else:
        v.check("probe-exit", "fail",
                "nv-pcounter-probe exited with status %s "
                "(host: unmodelled %s)" % (rc, um))
    summary = ["Guest: Linux %s, checks done %s s after boot"
               % (log.value("uname"), log.value("uptime")),
               "Device: %s %s" % (bdf, got),
               "Synthetic signals (NV_SYNTH): %s" % log.value("synth"),
               "nv-pcounter-probe (status %s, record-fault drill run: %s):"
               % (rc, drill.rc if drill is not None else "not run")]
    for cid, _ in checks:
        if cid not in ("pci-id", "pci-bar0", "probe-exit") and cid in v.res:
            summary.append("  %s %s %s" % (cid, v.res[cid][0],
                                           v.res[cid][1]))
    return v, summary if log.done else None


def read_checks(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                w = line.split(None, 1)
                out.append((w[0], w[1].strip() if len(w) > 1 else ""))
    return out


def judge(profile, log, checks):
    """(Verdicts, summary lines or None)."""
    if profile == "intel":
        return intel(log)
    if profile == "nv":
        return nv(log, checks)
    v = Verdicts()
    for cid, st, text in log.results:
        v.check(cid, st, text)
    return v, None


def tap(profile, text, checks, why):
    """TAP lines, failures, skips, Verdicts, summary."""
    v, summary = judge(profile, Log(text), checks)
    lines = ["1..%d" % len(checks)]
    failed = skipped = 0
    for n, (cid, desc) in enumerate(checks, 1):
        st, t = v.res.get(cid, (None, ""))
        if st == "ok":
            lines.append("ok %d - %s" % (n, t))
        elif st == "skip":
            lines.append("ok %d - %s # SKIP %s" % (n, desc, t))
            skipped += 1
        elif st == "fail":
            lines.append("not ok %d - %s" % (n, t))
            failed += 1
        else:
            lines.append("not ok %d - %s (not reported: %s)" % (n, desc, why))
            failed += 1
    return lines, failed, skipped, v, summary


# ---- make bench's OA cost --------------------------------------------------

def oa_cost(text):
    log = Log(text)
    out = []
    cfg = dict(w.split("=", 1) for w in log.value("oa-cost").split()
               if "=" in w)
    cpu_st = ""

    def jdiff(key, a, b):
        try:
            return "%.3f" % (float(json.loads(b)[key]) -
                             float(json.loads(a)[key]))
        except (ValueError, KeyError, TypeError):
            return "?"
    for name, s in log.sections.items():
        m = re.match(r"^oa-cost-(\d+)-(none|slow|fast)-(idle|cpu|nop)$", name)
        if not m:
            continue
        got = [x.split(" ", 3) for x in s.lines if x.startswith("@@GOT ")]
        c0 = got[0][3] if len(got) > 0 and got[0][2] == "ok" else ""
        c1 = got[1][3] if len(got) > 1 and got[1][2] == "ok" else ""
        cpu_st = cpu_st or (got[0][2] if got else "")
        work = m.group(3)
        probe = "-"
        for line in s.lines:
            if work == "cpu":
                p = re.match(r"^syscalls ok: ([0-9]*) getppid/s$", line)
            elif work == "nop":
                p = re.match(r"^nop ok: .* in ([0-9.]*) s$", line)
            else:
                p = None
            if p:
                probe = p.group(1)
        if work != "idle" and probe == "-":
            probe = "?"
        out.append("%s %s %s %s %s %s %s" % (
            m.group(1), m.group(2), work, probe, jdiff("cpu-s", c0, c1),
            jdiff("wall-s", c0, c1), jdiff("other-s", c0, c1)))

    def exp(name):
        m = re.search(r"oa_exponent=([0-9]*)", log.text(name))
        return m.group(1) if m else "?"
    out.append("# e=%s e1=%s n=%s b=%s cpu=%s" % (
        exp("oa-cost-fast-recorder"), exp("oa-cost-slow-recorder"),
        cfg.get("rounds", "?"), cfg.get("batches", "?"), cpu_st or "?"))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("tap")
    t.add_argument("--profile", default="intel",
                   choices=("intel", "nv", "igt"))
    t.add_argument("--checks", required=True)
    t.add_argument("--why", default="the guest did not report it")
    t.add_argument("--out")
    t.add_argument("log")
    o = sub.add_parser("oa-cost")
    o.add_argument("log")
    a = p.parse_args()
    try:
        with open(a.log, "rb") as f:
            text = f.read().decode(errors="replace")
    except OSError:
        text = ""
    if a.cmd == "oa-cost":
        print("\n".join(oa_cost(text)))
        return 0
    checks = read_checks(a.checks)
    lines, failed, _, v, summary = tap(a.profile, text, checks, a.why)
    print("\n".join(lines))
    if a.out:
        with open(os.path.join(a.out, "results.txt"), "w") as f:
            for cid, (st, txt) in v.res.items():
                f.write("@@RESULT %s %s %s\n" % (cid, st, txt))
        for name, body in v.files.items():
            with open(os.path.join(a.out, name), "w") as f:
                f.write(body)
        if summary is not None:
            with open(os.path.join(a.out, "summary.txt"), "w") as f:
                f.write("".join(x + "\n" for x in summary))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
