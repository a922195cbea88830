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
the igt profile's guest reports its one check itself ("@@RESULT"), and so
does nv-pcounter-probe inside its section.  Every verdict here is the one
the guest scripts made in shell before, with the same texts.

Standard library only (the base system's /usr/bin/python3).
"""
import argparse
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


def nv(log, checks):
    """The verdicts of nv-checks.sh, and the probe's own."""
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
    out = list(probe.lines)
    drill = log.get("probe-drill")
    if drill is not None:
        out += drill.lines + ["# the record-fault drill run: exit status %s"
                              % drill.rc]
    reported = set()
    for line in out:
        w = line.split(" ", 3)
        if w[0] == "@@RESULT" and len(w) >= 3:
            v.check(w[1], w[2], w[3] if len(w) > 3 else "")
            reported.add(w[1])
    if log.get("unmodelled") is None:
        return v, None
    for cid, _ in checks:
        if cid not in ("pci-id", "pci-bar0", "probe-exit") and \
                cid not in reported and cid not in v.res:
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
               "nv-pcounter-probe (status %s):" % rc]
    for line in out:
        if line.startswith("@@RESULT "):
            line = "  " + line[len("@@RESULT "):]
        elif line.startswith("# "):
            line = "    " + line[2:]
        summary.append(line)
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
