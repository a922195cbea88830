"""The verdicts of the intel profile (guest-checks.sh): PCI, the driver,
the registers, the GT's state, user work on it, i915 perf, splats; the
interrupt checks and drills that run last are in intel_irq.py."""
import re

from .intel_irq import interrupts
from .log import (BDF_INTEL, HEAD, SPLAT, Verdicts, brief, busy_of,
                  check_bar, check_pci_id, first, grep_context, is_int,
                  knobs, num, rate_of, reader_field, reader_max, regval,
                  resource, shint, since, splat_heads, strip_ts, tdiv, words)


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
    builtin = log.value("i915-builtin", "no") == "yes"
    if mp.rc == "0":
        v.check("modprobe", "ok",
                "modprobe i915 (%s s)%s" % (mp.attrs.get("secs"),
                                            ", built in" if builtin else ""))
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
    if builtin:
        # Loaded while the kernel booted: from its first word on.
        mark = r"\bi915\b"
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
