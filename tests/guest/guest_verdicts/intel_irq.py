"""The intel profile's last checks, made with the host agent: interrupt
injection through i915's handler, the snapshot, the fault drills on rcs0
and the OA drills; the summary's last lines."""
import re

from .log import (HEAD, IRQMSG, SPLAT, brief, first, irq_read, is_int,
                  rate_of, regval, shint, strip_ts, words)

GTPM_EN, GTPM_MASK, GTPM_BIT = "0x19003C", "0x1900EC", 0x1 << 16


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
