"""The verdicts of the nv profile (nv-checks.sh): PCI, nouveau (in
nv_nouveau.py), the probe's runs (its setup and record page here,
PCOUNTER in nv_pcounter.py), its exit and the host's unmodelled accesses;
the summary."""
from .log import BDF_NV, Verdicts, bar, check_pci_id, knobs, shint
from .nv_nouveau import kernel_log, nouveau_lines, nv_nouveau, want_bound
from .nv_pcounter import (BOOT0_G84, NV_REGS, Missing, Probe, Signals,
                          nv_periodic, nv_ptimer_flush, nv_quad, nv_record,
                          nv_record_fault, parse_synth)


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


# The checks of a run of the probe (drill: the record-fault drill run),
# each group with the function that judges it.
RUN_JUDGES = [
    (("bar0-mmap", "pmc-boot0"), lambda v, p, sig: nv_setup(v, p)),
    (("quad-states", "quad-trigger", "quad-logic"), nv_quad),
    (("quad-periodic",), nv_periodic),
    (("ptimer-b12", "wrcache-flush"), nv_ptimer_flush),
    (("record-long",),
     lambda v, p, sig: nv_record(v, p, sig, "record-long")),
    (("record-short",),
     lambda v, p, sig: nv_record(v, p, sig, "record-short")),
    (("dma-buffer",), lambda v, p, sig: nv_page(v, p))]
DRILL_JUDGES = [
    (("record-fault-drill",), nv_record_fault),
    (("record-after-fault",),
     lambda v, p, sig: nv_record(v, p, sig, "record-after-fault"))]
RUN_IDS = [cid for cids, _ in RUN_JUDGES for cid in cids]


def nv_probe(v, lines, drill, syn):
    """The checks of one run of nv-pcounter-probe (DRILL: the record-fault
    drill run): those whose readings it reported."""
    p = Probe(lines)
    sig = [Signals(syn, d) for d in range(8)] if syn else None
    judges = DRILL_JUDGES if drill else RUN_JUDGES
    for cids, judge_it in judges:
        before = dict(v.res)
        try:
            if sig is None and cids[0] not in ("bar0-mmap", "dma-buffer"):
                raise Missing("cannot parse the synth section")
            judge_it(v, p, sig)
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


def nv_probe_accel(v, log, syn):
    """probe-accel: the probe's run beside nouveau with acceleration
    (section probe-accel) passes every check of RUN_IDS, and nouveau stays
    bound with a clean kernel log through it (accel-bound)."""
    s = log.get("probe-accel")
    if s is None:
        return
    w = Verdicts()
    nv_probe(w, s.lines, False, syn)
    bad = ["%s: %s" % (cid, w.res[cid][1] if cid in w.res else
                       "not reported") for cid in RUN_IDS
           if w.res.get(cid, ("",))[0] != "ok"]
    if s.rc != "0":
        bad.insert(0, "nv-pcounter-probe exit status %s" % s.rc)
    still = want_bound(log, "accel-bound", "nouveau through it", step=False)
    if still is not None and not still[0]:
        bad.append(still[1])
    v.check("probe-accel", "fail" if bad else "ok",
            "nv-pcounter-probe beside nouveau (acceleration): %s" % (
                "; ".join(bad) if bad else "exit 0, %d checks ok (%s); %s"
                % (len(RUN_IDS), " ".join(RUN_IDS),
                   still[1] if still else "no state after it")))


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
    nv_nouveau(v, log)
    syn = parse_synth(log.value("synth"))
    nv_probe_accel(v, log, syn)
    probe = log.get("probe")
    if probe is None:
        return v, None
    rc = probe.rc
    rf = log.get("record-fault")
    st, text, _ = rf.got() if rf else ("", "", [])
    if rf is not None and st != "ok":
        v.check("record-fault-drill", "fail", "x-nv-gpu-drill-record-fault on "
                "domain 4: %s: %s" % (st, text))
    nv_probe(v, probe.lines, False, syn)
    drill = log.get("probe-drill")
    if drill is not None:
        nv_probe(v, drill.lines, True, syn)
    if log.get("unmodelled") is None:
        return v, None
    drill_ids = ("record-fault-drill", "record-after-fault")
    for cid, _ in checks:
        if cid in ("pci-id", "pci-bar0", "probe-exit", "probe-accel") or \
                cid in v.res or cid.startswith("nouveau-"):
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
                "of uptime (driver: %s); host: no unmodelled BAR0 access"
                % (log.value("probe-start"), log.value("probe-end"),
                   log.value("nouveau-reload-driver").rsplit("/", 1)[-1]
                   or "none"))
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
               "nouveau (noaccel=1):"]
    summary += ["  " + x for x in nouveau_lines(
        kernel_log(log, "nouveau-load") or []) if "] ..." not in x]
    summary += ["  %s %s %s" % (cid, v.res[cid][0], v.res[cid][1])
                for cid, _ in checks
                if cid.startswith("nouveau-") and cid in v.res]
    summary += [
        "nv-pcounter-probe (status %s, record-fault drill run: %s):"
        % (rc, drill.rc if drill is not None else "not run")]
    for cid, _ in checks:
        if cid not in ("pci-id", "pci-bar0", "probe-exit") and \
                not cid.startswith("nouveau-") and cid in v.res:
            summary.append("  %s %s %s" % (cid, v.res[cid][0],
                                           v.res[cid][1]))
    return v, summary if log.done else None
