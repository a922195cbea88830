#!/usr/bin/python3
"""Tests of guest_tier.py (the guest tier's verdicts), in TAP.

recorded/intel.log and recorded/nv.log are the data channels of real
passing runs (scripts/run-guest.sh, both profiles; in intel.log the
i915-perf-reader sections keep only the counters the verdicts read).
Each failing case is that log with one reading changed the way a broken
device, driver or guest would change it, and must fail its check (and
only the checks that depend on it); recorded/intel-wedged.log is a run
cut short by a GT wedged on init, by hand.
"""
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import guest_tier  # noqa: E402


def read(name):
    with open(os.path.join(HERE, name)) as f:
        return f.read()


CHECKS = guest_tier.read_checks(os.path.join(HERE, "checks.txt"))
NV_CHECKS = guest_tier.read_checks(os.path.join(HERE, "nv-checks.txt"))
INTEL = read("recorded/intel.log")
NV = read("recorded/nv.log")


def section(text, name, body):
    """TEXT with section NAME's body replaced (its @@BEGIN line kept unless
    BODY starts with one)."""
    pat = re.compile(r"^(@@BEGIN %s(?: [^\n]*)?)\n.*?^@@END %s$"
                     % (re.escape(name), re.escape(name)), re.M | re.S)
    m = pat.search(text)
    assert m, "no section %s" % name
    head = m.group(1)
    if body.startswith("@@BEGIN "):
        head, body = body.split("\n", 1)
    return text[:m.start()] + "%s\n%s@@END %s" % (head, body, name) + \
        text[m.end():]


def attrs(text, name, new):
    """TEXT with the @@BEGIN line of section NAME given attributes NEW."""
    return re.sub(r"^@@BEGIN %s( [^\n]*)?$" % re.escape(name),
                  "@@BEGIN %s %s" % (name, new), text, count=1, flags=re.M)


def body(text, name):
    m = re.search(r"^@@BEGIN %s(?: [^\n]*)?\n(.*?)^@@END %s$"
                  % (re.escape(name), re.escape(name)), text, re.M | re.S)
    return m.group(1)


def sub(text, name, old, new):
    """Replace OLD by NEW (a regular expression) in section NAME."""
    b = body(text, name)
    nb = re.sub(old, new, b, flags=re.M)
    assert nb != b, "%r not in section %s" % (old, name)
    return section(text, name, nb)


def drop(text, name):
    return re.sub(r"^@@BEGIN %s(?: [^\n]*)?\n.*?^@@END %s\n"
                  % (re.escape(name), re.escape(name)), "", text, count=1,
                  flags=re.M | re.S)


def bump(block, by):
    """/proc/interrupts lines with i915's count (on its last CPU) raised
    by BY."""
    return re.sub(r"^(.* )(\d+)(\s+\D.* i915)$",
                  lambda m: "%s%d%s" % (m.group(1), int(m.group(2)) + by,
                                        m.group(3)), block, flags=re.M)


def judge(text, profile="intel"):
    checks = CHECKS if profile == "intel" else NV_CHECKS
    lines, failed, skipped, v, summary = guest_tier.tap(
        profile, text, checks, "WHY")
    return {cid: line for (cid, _), line in zip(checks, lines[1:])}, summary


class Case(unittest.TestCase):
    def verdicts(self, text, profile="intel"):
        return judge(text, profile)[0]

    def assertFails(self, text, failing, profile="intel", says=None):
        """Exactly the checks FAILING fail (the rest as in the passing
        log); SAYS: a text the first one's line holds."""
        base = self.verdicts(INTEL if profile == "intel" else NV, profile)
        got = self.verdicts(text, profile)
        bad = sorted(c for c, line in got.items() if line.startswith("not ok"))
        self.assertEqual(bad, sorted(failing), "\n".join(
            got[c] for c in bad))
        for c, line in got.items():
            if c not in failing:
                self.assertEqual(line.split(" # ")[0].startswith("ok"),
                                 base[c].split(" # ")[0].startswith("ok"), c)
        if says:
            self.assertIn(says, got[failing[0]])
        return got


class Passing(Case):
    def test_intel_log_passes(self):
        v, summary = judge(INTEL)
        self.assertEqual(len(v), len(CHECKS))
        for c, line in v.items():
            self.assertTrue(line.startswith("ok ") and "# SKIP" not in line,
                            line)
        self.assertIn("GT: not wedged", summary)
        self.assertTrue(any(x.startswith("Interrupts: IRQ ")
                            for x in summary))

    def test_nv_log_passes(self):
        v, summary = judge(NV, "nv")
        self.assertEqual(len(v), len(NV_CHECKS))
        for c, line in v.items():
            self.assertTrue(line.startswith("ok "), line)
        self.assertIn("nv-pcounter-probe (status 0, record-fault drill run: "
                      "0):", summary)
        self.assertTrue(any(x.startswith("  record-long ok domain 4 LONG")
                            for x in summary))

    def test_numbering_follows_checks(self):
        lines = guest_tier.tap("intel", INTEL, CHECKS, "WHY")[0]
        self.assertEqual(lines[0], "1..%d" % len(CHECKS))
        for n, line in enumerate(lines[1:], 1):
            self.assertTrue(line.startswith("ok %d - " % n), line)


class PciAndDriver(Case):
    def test_wrong_device_id(self):
        self.assertFails(sub(INTEL, "pci", "^device 0x8a52", "device 0x8a56"),
                         ["pci-id"], says="want 0x8086:0x8a52")

    def test_no_device(self):
        t = drop(drop(INTEL, "pci"), "pci-resource")
        v = self.verdicts(t)
        self.assertIn("no PCI device at 0000:00:02.0", v["pci-id"])
        self.assertIn("BAR0: no PCI device", v["pci-bar0"])

    def test_bar_size_and_prefetch(self):
        t = sub(INTEL, "pci-resource", "0x00000000fdffffff",
                "0x00000000fd7fffff")
        self.assertFails(t, ["pci-bar0"], says="want 16 MiB")
        t = sub(INTEL, "pci-resource", "0x000000000014220c",
                "0x000000000014020c")
        self.assertFails(t, ["pci-bar2"],
                         says="want 256 MiB of 64-bit prefetchable")

    def test_bar_unassigned(self):
        t = sub(INTEL, "pci-resource", "^0x00000000fd000000 ",
                "0x0000000000000000 ")
        self.assertFails(t, ["pci-bar0"], says="BAR0 is not assigned")

    def test_modprobe_fails_or_times_out(self):
        t = attrs(INTEL, "modprobe", "rc=1 secs=3")
        self.assertFails(t, ["modprobe"], says="failed with status 1")
        t = attrs(INTEL, "modprobe", "rc=timeout secs=300")
        self.assertFails(t, ["modprobe"], says="did not finish in 300 s")

    def test_driver_not_bound(self):
        t = section(INTEL, "driver", "none\n")
        self.assertFails(t, ["driver-bound"], says="(driver: none)")


class Registers(Case):
    def test_register_values(self):
        for off, cid in (("00009138", "slice-enable"),
                         ("00009134", "eu-disable"),
                         ("00009140", "media-fuse"), ("00051000", "dfsm")):
            t = sub(INTEL, "intel_reg", r"\(0x%s\): 0x[0-9a-f]+" % off,
                    "(0x%s): 0x12345678" % off)
            self.assertFails(t, [cid], says="= 0x12345678, want")

    def test_forcewake_ack(self):
        t = sub(INTEL, "intel_reg", r"\(0x00000d84\): 0x00000001",
                "(0x00000d84): 0x00010000")
        self.assertFails(t, ["fw-ack-render"], says="want bit 0 set")

    def test_rp_state_cap(self):
        # RP1 outside [RPn, RP0].
        t = sub(INTEL, "intel_reg", r"\(0x00145998\): 0x00060b16",
                "(0x00145998): 0x00061716")
        self.assertFails(t, ["rp-state-cap"], says="RPn <= RP1 <= RP0")

    def test_intel_reg_failed(self):
        t = section(attrs(INTEL, "intel_reg", "rc=1 secs=0"), "intel_reg",
                    "Couldn't map MMIO region\n")
        v = self.verdicts(t)
        for c in ("fw-ack-render", "slice-enable", "eu-disable", "media-fuse",
                  "rp-state-cap", "dfsm"):
            self.assertIn("not read (intel_reg status 1: Couldn't map", v[c])


class GtState(Case):
    def test_wedged_on_init(self):
        v = self.verdicts(read("recorded/intel-wedged.log"))
        self.assertIn("GT wedged on init (drm debug: CI tainted:0x9 by "
                      "intel_gt_init", v["gt-state"])
        self.assertTrue(v["gt-state"].startswith("not ok"))
        for c in ("exec-store-rcs", "exec-nop", "gpu-top", "hang-reset"):
            self.assertIn("not run: GT wedged on init", v[c])
        self.assertIn("# SKIP render user interrupts need a GT",
                      v["irq-inject-render"])
        for c in ("snapshot-resume", "drill-hang", "drill-oa-stall"):
            self.assertIn("# SKIP needs a GT that initialised", v[c])
        # Not run, not reported: the guest's reason.
        self.assertIn("(not reported: WHY)", v["perf-record"])
        for c in ("pci-id", "modprobe", "no-splat", "irq-inject-gtpm",
                  "irq-healthy"):
            self.assertTrue(v[c].startswith("ok"), v[c])

    def test_hang_in_dmesg(self):
        t = sub(INTEL, "dmesg-gt", r"\Z",
                "[   50.0] i915 0000:00:02.0: [drm] GPU HANG: ecode 11:0\n")
        v = self.verdicts(t)
        self.assertIn("GT initialised, but dmesg has: i915 0000:00:02.0: "
                      "[drm] GPU HANG", v["gt-state"])
        self.assertIn("not run: GT hung", v["exec-store-rcs"])
        self.assertIn("not injected, GT state hung", v["irq-inject-render"])

    def test_wedge_message_with_debugfs_zero(self):
        t = sub(INTEL, "dmesg-gt", r"\Z",
                "[   50.000000] i915 0000:00:02.0: [drm] GT0: Failed to "
                "initialize GPU, declaring it wedged!\n")
        v = self.verdicts(t)
        self.assertIn("debugfs i915_wedged is 0 but dmesg says: i915",
                      v["gt-state"])

    def test_engines_missing(self):
        t = section(INTEL, "engines", "rcs0\n")
        self.assertFails(t, ["gt-state"], says="engines: rcs0, want bcs0 rcs0")

    def test_no_debugfs(self):
        v = self.verdicts(drop(INTEL, "i915_wedged"))
        self.assertIn("GT state unknown: no i915 debugfs", v["gt-state"])


class UserWork(Case):
    def test_store_fails(self):
        t = section(attrs(INTEL, "exec-store-bcs", "rc=1 secs=0"),
                    "exec-store-bcs", "store: execbuf: Input/output error\n")
        self.assertFails(t, ["exec-store-bcs"], says="store bcs (status 1)")

    def test_nop_without_rate(self):
        t = section(INTEL, "gem_exec_nop-rcs", "Test requirement not met\n")
        self.assertFails(t, ["exec-nop"],
                         says="rcs: no rate (Test requirement")

    def test_gpu_top_idle_busy(self):
        t = sub(INTEL, "intel_gpu_top-idle", r'"busy": [0-9.]+', '"busy": 5.0')
        self.assertFails(t, ["gpu-top"], says="want >= 2% and < 1%")

    def test_hang_without_reset_or_wedged(self):
        t = sub(INTEL, "dmesg-hang", "Resetting rcs0|GPU HANG", "Ignoring")
        self.assertFails(t, ["hang-reset"], says="reset: none")
        t = sub(INTEL, "dmesg-hang", r"\Z", "[ 60.0] i915: GT wedged\n")
        self.assertFails(t, ["hang-reset"], says="GT wedged")

    def test_perf_record(self):
        t = sub(INTEL, "perf-idle-reader", r"AvgGpuCoreFrequency: \d+",
                "AvgGpuCoreFrequency: 350000000")
        self.assertFails(t, ["perf-record"], says="AvgGpuCoreFrequency")
        t = sub(INTEL, "perf-busy-reader", r"GpuBusy: [0-9.]+", "GpuBusy: 0.0")
        self.assertFails(t, ["perf-record"])
        t = sub(INTEL, "perf-idle-reader", r"^Reports: \d+", "Reports: 50")
        self.assertFails(t, ["perf-record"], says="idle: 50 reports")

    def test_perf_eu(self):
        t = sub(INTEL, "perf-eu-reader", r"EuStall: [0-9.]+", "EuStall: 30.0")
        self.assertFails(t, ["perf-eu"], says="EuActive = 3 EuStall")
        t = sub(INTEL, "perf-eu-compute-reader", r"EuThreadOccupancy: [0-9.]+",
                "EuThreadOccupancy: 20.0")
        self.assertFails(t, ["perf-eu"])
        t = section(INTEL, "perf-eu-cmd", "walker: execbuf failed\n")
        self.assertFails(t, ["perf-eu"], says="walkers: walker: execbuf")

    def test_perf_testoa(self):
        t = sub(INTEL, "perf-testoa-reader", r"Counter3: \d+", "Counter3: 1")
        self.assertFails(t, ["perf-testoa"], says="want ratios")


class Splats(Case):
    WARN = ("[  70.0] ------------[ cut here ]------------\n"
            "[  70.0] i915 0000:00:02.0: drm_WARN_ON(x)\n"
            "[  70.0] WARNING: CPU: 1 PID: 90 at intel_uncore.c:1 fw_x+0x1\n"
            "[  70.0] Call Trace:\n")

    def test_splat_after_modprobe(self):
        t = sub(INTEL, "dmesg", r"\Z", self.WARN)
        got = self.assertFails(t, ["no-splat"], says="1 splats since "
                               "modprobe i915; 1x i915 0000:00:02.0: "
                               "drm_WARN_ON(x) / WARNING: at intel_uncore.c")
        v = judge(t)
        self.assertIn("Splats since modprobe i915: 1", v[1])
        self.assertTrue(got)

    def test_splat_before_modprobe_is_noted(self):
        t = sub(INTEL, "dmesg", r"^(\[[ 0-9.]*\] gpumodel: modprobe i915)$",
                "[ 1.0] WARNING: CPU: 0 PID: 1 at boot.c:1 x+0x1\n\\1")
        self.assertFails(t, [])
        self.assertIn("(1 before it, while booting",
                      self.verdicts(t)["no-splat"])

    def test_lost_mark(self):
        t = sub(INTEL, "dmesg", r"gpumodel: modprobe i915$", "gpumodel: lost")
        self.assertFails(t, ["no-splat"], says="lost the modprobe mark")


class Interrupts(Case):
    def test_host_agent_down(self):
        t = sub(INTEL, "host-agent", r"^@@GOT 1 ok .*$",
                "@@GOT 1 timeout no answer from the host agent in 30 s")
        v = self.verdicts(t)
        self.assertIn("host agent: timeout: no answer", v["host-agent"])
        self.assertIn("no host agent to inject through", v["irq-inject-gtpm"])
        self.assertIn("# SKIP no injections were made (host agent: timeout",
                      v["irq-healthy"])
        self.assertIn("# SKIP needs a GT that initialised and the host agent",
                      v["drill-dma"])

    def test_no_i915_interrupt(self):
        t = sub(INTEL, "interrupts", r"i915$", "xhci_hcd")
        v = self.verdicts(t)
        self.assertIn("no interrupt named i915 in /proc/interrupts",
                      v["irq-line"])
        self.assertIn("no i915 interrupt to count", v["irq-inject-render"])

    def test_runtime_suspended(self):
        t = section(INTEL, "runtime_status", "suspended\n")
        self.assertFails(t, ["irq-line", "irq-inject-gtpm", "irq-drill-gtpm",
                             "irq-inject-render"], says="runtime-suspended")

    def test_gtpm_not_armed(self):
        t = sub(INTEL, "gtpm-armed", r"\(0x001900ec\): 0xffce0000",
                "(0x001900ec): 0xffcf0000")
        v = self.assertFails(t, ["irq-gtpm-arm", "irq-inject-gtpm",
                                 "irq-drill-gtpm"],
                             says="read back 0x00010000, 0xffcf0000")
        self.assertIn("GTPM bit 0 is not armed", v["irq-inject-gtpm"])

    def test_gtpm_unreadable(self):
        t = section(attrs(INTEL, "gtpm-found", "rc=1 secs=0"), "gtpm-found",
                    "error\n")
        v = self.verdicts(t)
        self.assertIn("could not read GTPM's enable", v["irq-gtpm-arm"])
        self.assertIn("# SKIP nothing to put back", v["irq-gtpm-restore"])

    def test_injection_not_counted(self):
        b = body(INTEL, "irq-inject-gtpm")
        # Every count after the first injection stays where it was.
        first = re.search(r"^ 24: .*$", b, re.M).group(0)
        nb = re.sub(r"^ 24: .*$", first, b, flags=re.M)
        t = section(INTEL, "irq-inject-gtpm", nb)
        self.assertFails(t, ["irq-inject-gtpm"], says="injection 1 of 8 not "
                         "counted within 10 s")

    def test_injection_refused(self):
        t = sub(INTEL, "irq-inject-render", r"^@@GOT (\d+) ok \{\}$",
                r"@@GOT \1 error GenericError: no such device")
        self.assertFails(t, ["irq-inject-render"],
                         says="x-intel-gpu-inject-irq 1 of 8: error")

    def test_drill_drops_nothing(self):
        # The count moves by 8, not 8 - 3: the drill did not drop.
        b = body(INTEL, "irq-drill-gtpm")
        nb = b.rsplit("@@AFTER", 1)
        t = section(INTEL, "irq-drill-gtpm", nb[0] + "@@AFTER" +
                    bump(nb[1], 3))
        self.assertFails(t, ["irq-drill-gtpm"], says="(+8), want +5")

    def test_drill_refused(self):
        t = sub(INTEL, "irq-drill", r"^@@GOT 10 ok \{\}$",
                "@@GOT 10 error CommandNotFound: x-intel-gpu-drill-irq")
        self.assertFails(t, ["irq-drill-gtpm"], says="count=3: error: "
                         "CommandNotFound")

    def test_restore_fails(self):
        t = sub(INTEL, "gtpm-restored", r"\(0x0019003c\): 0x00000000",
                "(0x0019003c): 0x00010000")
        self.assertFails(t, ["irq-gtpm-restore"], says="read back 0xffcf0000, "
                         "0x00010000")

    def test_unhealthy(self):
        t = sub(INTEL, "dmesg-irq", r"\Z", "[ 90.0] i915 0000:00:02.0: [drm] "
                "*ERROR* GT0: unhandled engine interrupt class=1\n")
        self.assertFails(t, ["irq-healthy"], says="dmesg since the injections "
                         "began: i915 0000:00:02.0: [drm] *ERROR*")
        t = sub(INTEL, "intel_reg-irq", r"\(0x00190018\): 0x00000000",
                "(0x00190018): 0x00010000")
        self.assertFails(t, ["irq-healthy"], says="interrupt tree not at rest")
        n = int(guest_tier.irq_read(body(INTEL, "interrupts-after"))[0])
        t = section(INTEL, "interrupts-after",
                    bump(body(INTEL, "interrupts-after"), 1))
        self.assertFails(t, ["irq-healthy"], says="count moved after the last "
                         "injection: %d -> %d" % (n, n + 1))
        t = section(INTEL, "driver-after", "none\n")
        self.assertFails(t, ["irq-healthy"], says="i915 is not bound")


class SnapshotAndDrills(Case):
    def test_snapshot(self):
        t = sub(INTEL, "snapshot", r"^@@GOT (\d+) ok .*$",
                r"@@GOT \1 error savevm gpumodel: Error: no block device")
        self.assertFails(t, ["snapshot-resume"], says="savevm/loadvm: error")
        t = section(INTEL, "gem_exec_nop-snapshot", "\n")
        self.assertFails(t, ["snapshot-resume"], says="gave no rate")
        t = sub(INTEL, "dmesg-snapshot", r"\Z", "[ 99.0] i915 0000:00:02.0: "
                "[drm] GPU HANG: ecode 11:0:00000000\n")
        self.assertFails(t, ["snapshot-resume"], says="dmesg after the "
                         "snapshot: i915 0000:00:02.0: [drm] GPU HANG")
        t = attrs(INTEL, "exec-after-snapshot", "rc=1 secs=0")
        self.assertFails(t, ["exec-after-snapshot"])

    def test_drill_without_reset(self):
        t = sub(INTEL, "dmesg-drill-csb-drop", "invalid CSB event", "other")
        self.assertFails(t, ["drill-csb-drop"], says="did not reset rcs0 as "
                         "expected (/Resetting rcs0 for invalid CSB event/)")

    def test_drill_wedges(self):
        t = sub(INTEL, "dmesg-drill-dma", r"\Z", "[ 99.0] i915: GT wedged\n")
        self.assertFails(t, ["drill-dma"], says="GT wedged")

    def test_drill_refused_and_next_batch(self):
        t = sub(INTEL, "drill-hang", r"^@@GOT (\d+) ok .*$",
                r"@@GOT \1 error CommandNotFound")
        self.assertFails(t, ["drill-hang"], says="hang 0 0: CommandNotFound")
        t = attrs(INTEL, "drill-csb-corrupt-after", "rc=timeout secs=30")
        self.assertFails(t, ["drill-csb-corrupt"], says="next batch failed "
                         "(status timeout)")

    def test_oa_stall(self):
        t = sub(INTEL, "drill-oa-stall-probe", r"max_wait_ms \d+",
                "max_wait_ms 20")
        self.assertFails(t, ["drill-oa-stall"], says="a wait >= 800 ms")
        t = sub(INTEL, "drill-oa-stall-probe", r" gaps 0 ", " gaps 2 ")
        self.assertFails(t, ["drill-oa-stall"])
        t = section(INTEL, "drill-oa-stall-probe", "perf: open failed\n")
        self.assertFails(t, ["drill-oa-stall"], says="no probe result: perf:")

    def test_oa_overflow(self):
        t = sub(INTEL, "dmesg-drill-oa-overflow", "force restart", "ignored")
        self.assertFails(t, ["drill-oa-overflow"], says="dmesg: no restart")
        t = sub(INTEL, "drill-oa-overflow-probe", r"buffer_lost 1",
                "buffer_lost 0")
        self.assertFails(t, ["drill-oa-overflow"])
        t = sub(INTEL, "dmesg-drill-oa-overflow", r"\Z",
                "[ 99.0] WARNING: CPU: 0 PID: 1 at i915_perf.c:1 x+0x1\n")
        self.assertFails(t, ["drill-oa-overflow"], says="dmesg: WARNING")


class Truncated(Case):
    def test_guest_stopped_after_modprobe(self):
        cut = INTEL.index("@@BEGIN driver")
        v = self.verdicts(INTEL[:cut])
        self.assertTrue(v["modprobe"].startswith("ok"))
        for c, line in v.items():
            if c not in ("pci-id", "pci-bar0", "pci-bar2", "modprobe"):
                self.assertIn("(not reported: WHY)", line)

    def test_empty_log(self):
        v = self.verdicts("")
        self.assertIn("no PCI device", v["pci-id"])
        self.assertIn("(not reported: WHY)", v["irq-healthy"])

    def test_summary_needs_done(self):
        cut = INTEL.index("@@DONE")
        summary = judge(INTEL[:cut])[1]
        self.assertFalse(any(x.startswith("Interrupts:") for x in summary))
        self.assertIn("GT: not wedged", summary)


class Nv(Case):
    def test_wrong_id_and_bar(self):
        t = sub(NV, "pci", "^revision 0xa1", "revision 0xa2")
        self.assertFails(t, ["pci-id"], "nv", says="want 0x10de:0x0402")
        t = sub(NV, "pci-resource", r"^(0x\S+ 0x\S+) 0x0000000000040200",
                r"\1 0x0000000000142208")
        self.assertFails(t, ["pci-bar0"], "nv", says="32-bit non-prefetchable")

    def test_probe_stopped_early(self):
        b = body(NV, "probe")
        t = section(attrs(NV, "probe", "rc=139 secs=1"), "probe",
                    b.split("step record-long")[0])
        v = self.verdicts(t, "nv")
        for c in ("record-long", "record-short", "dma-buffer"):
            self.assertIn("did not report it (exit status 139", v[c])
        self.assertIn("exited with status 139", v["probe-exit"])

    def test_probe_timeout(self):
        t = attrs(NV, "probe", "rc=timeout secs=120")
        self.assertFails(t, ["probe-exit"], "nv",
                         says="did not finish in 120 s")

    def test_unmodelled_access(self):
        t = sub(NV, "unmodelled", r'"count": 0, "offsets": null',
                '"count": 2, "offsets": null')
        self.assertFails(t, ["probe-exit"], "nv", says="reports unmodelled "
                         "BAR0 accesses")

    def test_record_fault_refused(self):
        t = sub(NV, "record-fault", r"^@@GOT 1 ok \{\}$",
                "@@GOT 1 error CommandNotFound")
        t = drop(t, "probe-drill")
        v = self.assertFails(t, ["record-fault-drill", "record-after-fault"],
                             "nv", says="on domain 4: error: CommandNotFound")
        self.assertIn("did not report it", v["record-after-fault"])


def step_sub(text, name, step, old, new, count=1):
    """Replace OLD by NEW (a regular expression, COUNT times; 0: all) in
    step STEP of nv-pcounter-probe's output in section NAME."""
    b = body(text, name)
    m = re.search(r"^step %s\n(.*?)(?=^step |\Z)" % re.escape(step), b,
                  re.M | re.S)
    assert m, "no step %s in section %s" % (step, name)
    ns = re.sub(old, new, m.group(1), count=count, flags=re.M)
    assert ns != m.group(1), "%r not in step %s" % (old, step)
    return section(text, name, b[:m.start(1)] + ns + b[m.end(1):])


def step_drop(text, name, step):
    """Section NAME without step STEP (its lines and the header)."""
    b = body(text, name)
    nb = re.sub(r"^step %s\n.*?(?=^step |\Z)" % re.escape(step), "", b,
                count=1, flags=re.M | re.S)
    assert nb != b
    return section(text, name, nb)


def poke(text, name, step, offset, data):
    """Record-buffer bytes DATA at OFFSET from the start of step STEP's
    filled region, as the probe read them back."""
    b = body(text, name)
    m = re.search(r"^step %s\n.*?^fill (0x[0-9a-f]+) " % re.escape(step), b,
                  re.M | re.S)
    addr = int(m.group(1), 16) + offset
    line = addr & ~31
    old = re.search(r"^m 0x%08x ([0-9a-f]+)$" % line, b, re.M).group(1)
    raw = bytearray.fromhex(old)
    raw[addr - line:addr - line + len(data)] = data
    return sub(text, name, r"^m 0x%08x [0-9a-f]+$" % line,
               "m 0x%08x %s" % (line, raw.hex()))


def reg_line(off, label):
    return r"^r %s 0x%06x 0x[0-9a-f]+$" % (re.escape(label), off)


def set_reg(text, name, step, label, off, value):
    return step_sub(text, name, step, reg_line(off, label),
                    "r %s 0x%06x 0x%08x" % (label, off, value))


def get_reg(text, name, step, label, off):
    b = body(text, name)
    m = re.search(r"^step %s\n(.*?)(?=^step |\Z)" % re.escape(step), b,
                  re.M | re.S)
    return int(re.search(reg_line(off, label), m.group(1),
                         re.M).group(0).split()[3], 16)


def add_reg(text, name, step, label, off, by):
    """TEXT with read LABEL of OFF in step STEP raised by BY, and the value
    it had."""
    n = get_reg(text, name, step, label, off)
    return set_reg(text, name, step, label, off, n + by), n


PC = guest_tier.pc


class NvReadings(Case):
    """Each PCOUNTER check from nv-pcounter-probe's raw readings: a reading
    changed fails its check, and only it."""

    def test_quad_event_count(self):
        # Domain 0's CTR_EVENT past what SYNTH1 (16/4) can give.
        off = PC("NV40_PC_CTR_EVENT", 0)
        t, n = add_reg(NV, "probe", "quad", "window", off, 5)
        self.assertFails(t, ["quad-trigger"], "nv", says="; CTR_EVENT %d, "
                         "want one of" % (n + 5))

    def test_quad_cycles_alt_and_ptimer(self):
        off = PC("NV40_PC_CTR_CYCLES_ALT", 0)
        t = set_reg(NV, "probe", "quad", "window", off, 7)
        self.assertFails(t, ["quad-trigger"], "nv",
                         says="CTR_CYCLES_ALT 7 != CTR_CYCLES")
        # PTIMER saw 3 ms more than the window's cycles.
        t0 = get_reg(NV, "probe", "quad", "t0", 0x9400)
        t = set_reg(NV, "probe", "quad", "t0", 0x9400, t0 - 3000000)
        self.assertFails(t, ["quad-trigger"], "nv", says="but PTIMER saw")

    def test_quad_logic(self):
        # SYNTH1 & SYNTH2 never overlap (16/4 and 16/12 at phase 12).
        t = set_reg(NV, "probe", "quad", "window", PC("NV40_PC_CTR_STOP", 1),
                    3)
        self.assertFails(t, ["quad-logic"], "nv", says="CTR_STOP 3, want 0")
        # START + EVENT (SYNTH1 + SYNTH2) covers every cycle.
        off = PC("NV40_PC_CTR_START", 1)
        t, n = add_reg(NV, "probe", "quad", "window", off, -4)
        got = self.assertFails(t, ["quad-logic"], "nv")
        self.assertIn("START+EVENT", got["quad-logic"])

    def test_quad_states(self):
        ctrl = PC("NV40_PC_CTRL", 0)
        t = set_reg(NV, "probe", "quad", "trigger", ctrl, 0x00000001)
        self.assertFails(t, ["quad-states"], "nv", says="QUAD_STATE 0 after "
                         "setup, 0 after PM_TRIGGER")
        t = set_reg(NV, "probe", "quad", "ack", PC("NV40_PC_CTRL", 1),
                    0x01000001)
        self.assertFails(t, ["quad-states"], "nv", says="0/1 after")
        # The closing swap not seen: the window is not the one read.
        t = set_reg(NV, "probe", "quad", "close", PC("NV40_PC_CTRL", 1),
                    0x00000001)
        self.assertFails(t, ["quad-logic"], "nv", says="domain 1 QUAD_STATE "
                         "0 after the closing PM_TRIGGER, want 1 VALID")

    def test_quad_states_follow_the_writes(self):
        # Without the acknowledgements the state after them is VALID, as
        # read: the expectation comes from the writes, not a constant.
        t = step_sub(NV, "probe", "quad", r"^(r trigger 0x00a7c4 .*\n)"
                     r"w 0x00a7e0 0x00000001\nw 0x00a7e4 0x00000001\n",
                     r"\1")
        t = set_reg(t, "probe", "quad", "ack", PC("NV40_PC_CTRL", 0),
                    0x01000001)
        t = set_reg(t, "probe", "quad", "ack", PC("NV40_PC_CTRL", 1),
                    0x01000001)
        # The next PM_TRIGGER then overflows: the window reads OVERFLOW.
        self.assertIn("(want 0 EMPTY, 1 VALID, 1)",
                      self.verdicts(t, "nv")["quad-states"])
        self.assertTrue(self.verdicts(t, "nv")["quad-states"]
                        .startswith("ok"))

    def test_quad_periodic(self):
        off = PC("NV40_PC_CTR_CYCLES", 2)
        t = set_reg(NV, "probe", "quad-periodic", "window", off, 0x800)
        got = self.assertFails(t, ["quad-periodic"], "nv",
                               says="CTR_CYCLES 2048 (want 1024)")
        self.assertIn("CTR_PRE 1024, want 2048", got["quad-periodic"])
        t = set_reg(NV, "probe", "quad-periodic", "window",
                    PC("NV40_PC_CTRL", 2), 0x01200001)
        self.assertFails(t, ["quad-periodic"], "nv",
                         says="QUAD_STATE 1 (want 3 OVERFLOW)")
        # PERIODIC_PERIOD 2: 0x800-cycle windows are then expected.
        t = step_sub(NV, "probe", "quad-periodic", r"^w 0x00a7c8 0x00200001$",
                     "w 0x00a7c8 0x00400001")
        self.assertFails(t, ["quad-periodic"], "nv",
                         says="CTR_CYCLES 1024 (want 2048)")

    def test_ptimer_b12(self):
        off = PC("NV40_PC_CTR_PRE", 0)
        t, n = add_reg(NV, "probe", "ptimer-flush", "window", off, 300)
        self.assertFails(t, ["ptimer-b12"], "nv", says="PTIMER_TIME_B12 "
                         "(signal 0x2c) 1 in %d cycles" % (n + 300))
        off = PC("NV40_PC_CTR_EVENT", 0)
        t, n = add_reg(NV, "probe", "ptimer-flush", "window", off, 2)
        self.assertFails(t, ["ptimer-b12"], "nv")

    def test_wrcache_flush(self):
        off = PC("NV40_PC_CTR_EVENT", 1)
        t = set_reg(NV, "probe", "ptimer-flush", "window", off, 4)
        self.assertFails(t, ["wrcache-flush"], "nv", says="5 of 5 write "
                         "flushes (0x070000 = 1) done (bit 1 read 0); domain "
                         "1 counted 4 PGRAPH.WRCACHE_FLUSH pulses (want 5)")
        t = set_reg(NV, "probe", "ptimer-flush", "flush3", 0x070000, 2)
        self.assertFails(t, ["wrcache-flush"], "nv", says="4 of 5 write")
        # One flush fewer written: four pulses are then expected.
        t = step_sub(NV, "probe", "ptimer-flush",
                     r"^w 0x070000 0x00000001\nr flush5 .*\n", "")
        self.assertFails(t, ["wrcache-flush"], "nv", says="4 of 4 write "
                         "flushes")

    def test_record_packet_counter(self):
        # Packet 1's ctr1 (SYNTH1 16/4 over a 4096-cycle period: 1024).
        t = poke(NV, "probe", "record-long", 32 + 10, b"\x01\x04")
        self.assertFails(t, ["record-long"], "nv", says="; packet 1: cycles")
        t = poke(NV, "probe", "record-short", 5 * 16 + 8, b"\x00\x00")
        self.assertFails(t, ["record-short"], "nv", says="; packet 5:")
        # A packet with 2 STOPs, one with its cycles off by one.
        t = poke(NV, "probe", "record-long", 3 * 32 + 6, b"\x02")
        self.assertFails(t, ["record-long"], "nv", says="STOPs 2")
        t = poke(NV, "probe", "record-long", 0, b"\x00\x00")
        self.assertFails(t, ["record-long"], "nv", says="; packet 0:")

    def test_record_past_limit_and_fault(self):
        t = poke(NV, "probe", "record-long", 2048 - 3, b"\x00")
        self.assertFails(t, ["record-long"], "nv", says="; byte 0x7fd past "
                         "RECORD_LIMIT written")
        off = PC("NV40_PC_RECORD_STATUS", 5)
        st = get_reg(NV, "probe", "record-short", "final", off)
        t = set_reg(NV, "probe", "record-short", "final", off, st - 16 + 1)
        self.assertFails(t, ["record-short"], "nv", says="(fault: DMA "
                         "failed)")

    def test_record_limit_follows_the_writes(self):
        # A lower RECORD_LIMIT: the same bytes then have a written packet
        # past it.
        off = PC("NV40_PC_RECORD_LIMIT", 4)
        t = step_sub(NV, "probe", "record-long",
                     r"^w 0x%06x (0x[0-9a-f]+)$" % off,
                     lambda m: "w 0x%06x 0x%08x" % (off, int(m.group(1), 16)
                                                    - 32))
        got = self.assertFails(t, ["record-long"], "nv")
        self.assertIn("RECORD_LIMIT +0x7a0: 62 packets", got["record-long"])

    def test_synth_decides_the_expectations(self):
        # SYNTH1 at 16/8: every count of it is off.
        t = sub(NV, "synth", r"\*\.1=16/4", "*.1=16/8")
        self.assertFails(t, ["quad-trigger", "quad-logic", "quad-periodic",
                             "record-long", "record-short",
                             "record-after-fault"], "nv")
        # A STOP that is not a one-cycle pulse.
        t = sub(NV, "synth", r"^4\.0=4096/1", "4.0=4096/2")
        self.assertFails(t, ["record-long", "record-fault-drill"], "nv",
                         says="synth must make SYNTH0 of domain 4 a 1-cycle")
        t = section(NV, "synth", "4.0=4096\n")
        v = self.verdicts(t, "nv")
        for c in ("quad-states", "ptimer-b12", "record-long",
                  "record-after-fault"):
            self.assertIn("cannot parse the synth section", v[c])
        for c in ("bar0-mmap", "pmc-boot0", "dma-buffer", "probe-exit"):
            self.assertTrue(v[c].startswith("ok"), v[c])

    def test_setup(self):
        t = sub(NV, "probe", r"^config-command 0x[0-9a-f]+$",
                "config-command 0x0001")
        self.assertFails(t, ["bar0-mmap"], "nv", says="bus mastering NOT "
                         "enabled")
        t = set_reg(NV, "probe", "setup", "boot0", 0, 0x086000a1)
        self.assertFails(t, ["pmc-boot0"], "nv", says="PMC BOOT_0 = "
                         "0x086000a1 (chipset 0x86), want the G84's")
        b = body(NV, "probe")
        t = section(attrs(NV, "probe", "rc=1 secs=0"), "probe",
                    b.split("mmap ok")[0] + "mmap error Invalid argument\n")
        v = self.verdicts(t, "nv")
        self.assertIn("mmap /sys/bus/pci/devices/0000:00:03.0/resource0: "
                      "Invalid argument", v["bar0-mmap"])
        self.assertIn("did not report it (exit status 1", v["pmc-boot0"])

    def test_page(self):
        t = step_sub(NV, "probe", "page-after", r"^pfn 0x[0-9a-f]+$",
                     "pfn 0x1234")
        self.assertFails(t, ["dma-buffer"], "nv", says="MOVED")
        t = step_sub(NV, "probe", "page", r"^pfn 0x[0-9a-f]+$",
                     "pfn 0x100000")
        v = self.verdicts(t, "nv")
        self.assertIn("(pagemap PFN 0x100000; RECORD_START is 32-bit)",
                      v["dma-buffer"])

    def test_missing_step_and_reading(self):
        t = step_drop(NV, "probe", "ptimer-flush")
        self.assertFails(t, ["ptimer-b12", "wrcache-flush"], "nv",
                         says="did not report it (exit status 0; see probe")
        t = step_sub(NV, "probe", "record-short", r"^r final .*\n", "")
        self.assertFails(t, ["record-short"], "nv", says="readings: no "
                         "RECORD_STATUS read final in step record-short")
        t = step_sub(NV, "probe", "quad", reg_line(PC("NV40_PC_CTR_PRE", 1),
                                                   "window") + "\n", "")
        got = self.assertFails(t, ["quad-logic"], "nv",
                               says="readings: no read window of 0x00a704")
        t = step_sub(NV, "probe-drill", "record-fault-drill", r"^fill .*\n",
                     "")
        self.assertFails(t, ["record-fault-drill"], "nv", says="readings: no "
                         "fill line in step record-fault-drill")
        # Half the record buffer read back.
        t = step_sub(NV, "probe", "record-long", r"^m 0x[0-9a-f]+[2-7]00 .*\n",
                     "", count=0)
        self.assertFails(t, ["record-long"], "nv", says="readings: no bytes "
                         "at")
        self.assertTrue(got)

    def test_hostile_lines(self):
        t = sub(NV, "probe", r"^step quad$", "step quad\nr window zz 0x1\n"
                "w 0x00a7c0\nm 0x0 xyz\nfill a b c\nstep\n\x00garbage")
        self.assertFails(t, [], "nv")

    def test_drill_fault_and_buffer(self):
        off = PC("NV40_PC_RECORD_STATUS", 4)
        st = get_reg(NV, "probe-drill", "record-fault-drill", "fault", off)
        t = set_reg(NV, "probe-drill", "record-fault-drill", "fault", off,
                    st & ~1)
        self.assertFails(t, ["record-fault-drill"], "nv", says="domain 4 "
                         "under the drill: RECORD_STATUS 0x%08x (want 0x%08x"
                         % (st & ~1, st))
        t = poke(NV, "probe-drill", "record-fault-drill", 100, b"\x01")
        self.assertFails(t, ["record-fault-drill"], "nv",
                         says="buffer WRITTEN")
        # The domain not wedged: the new RECORD_START wrote a packet.
        t = set_reg(NV, "probe-drill", "record-fault-drill", "restarted",
                    off, (st & ~1) + 32)
        self.assertFails(t, ["record-fault-drill"], "nv", says="20 ms later")
        t = poke(NV, "probe-drill", "record-after-fault", 32 + 9, b"\x00")
        self.assertFails(t, ["record-after-fault"], "nv", says="; packet 1:")


class NvRegisterNames(unittest.TestCase):
    def test_offsets_match_the_header(self):
        with open(os.path.join(HERE, "..", "..", "include", "hw", "gpumodel",
                               "nv-gpu-regs.h")) as f:
            hdr = f.read()
        defs = {}
        for m in re.finditer(r"^#define\s+(\w+)(\(d\))?\s+\(?(0x[0-9a-f]+"
                             r"u?|\d+u?|\(?[^\n]*?)(?:\s*\+ \(d\) \* 4\))?"
                             r"\s*(?:/\*.*)?$", hdr, re.M):
            defs[m.group(1)] = m.group(3)

        def value(name):
            v = defs[name].strip("()").rstrip("u")
            m = re.fullmatch(r"(\w+?)u? << (\d+)", v)
            if m:
                return int(m.group(1), 0) << int(m.group(2))
            m = re.fullmatch(r"\(?NV_SIG_TRAILER_BASE \+ (0x[0-9a-f]+)", v)
            if m:
                return value("NV_SIG_TRAILER_BASE") + int(m.group(1), 16)
            return int(v, 0)
        for table in (guest_tier.NV_REGS, guest_tier.NV_PC,
                      guest_tier.NV_FIELDS):
            for name, off in table.items():
                self.assertEqual(value(name), off, name)


class NvSignals(unittest.TestCase):
    def test_windows(self):
        syn = guest_tier.parse_synth("*.1=16/4 2.1=16/4/2")
        s = guest_tier.Signals(syn, 0)
        one = (0x11, 0xaaaa)
        # 20 cycles: one period (4) and 4 cycles at any phase (0..4).
        self.assertEqual(sorted(set(s.windows([one], 20))), [4, 5, 6, 7, 8])
        self.assertEqual(set(s.windows([one], 32)), {8})
        # Delayed argument 1 of itself, AND NOT: one rise per period.
        rise = (0x1111, 0x2222 | 1 << 17)
        self.assertEqual(set(s.windows([rise], 64)), {4})
        self.assertEqual(set(s.windows([(0x01, 0xaaaa)], 7)), {7})
        self.assertIsNone(guest_tier.parse_synth("1.1=12/4"))
        self.assertEqual(syn[2][1], (16, 4, 2))


class GuestReported(Case):
    def test_igt_profile_takes_the_guest_result(self):
        checks = [("igt-done", "every pass ran")]
        lines = guest_tier.tap("igt", "@@BEGIN x\n@@RESULT no ok x\n@@END x\n"
                               "@@RESULT igt-done ok 1 pass\n@@DONE\n",
                               checks, "WHY")[0]
        self.assertEqual(lines, ["1..1", "ok 1 - 1 pass"])
        lines = guest_tier.tap("igt", "", checks, "WHY")[0]
        self.assertEqual(lines[1], "not ok 1 - every pass ran "
                         "(not reported: WHY)")


class OaCost(unittest.TestCase):
    def test_rounds_from_sections(self):
        log = ("@@BEGIN oa-cost\nrounds=1 batches=4000\n@@END oa-cost\n"
               "@@BEGIN oa-cost-1-none-idle\n@@REQ 1 cpu\n"
               '@@GOT 1 ok {"cpu-s": 1.0, "other-s": 0.5, "wall-s": 10.0}\n'
               "@@REQ 2 cpu\n"
               '@@GOT 2 ok {"cpu-s": 1.25, "other-s": 0.5, "wall-s": 11.5}\n'
               "@@END oa-cost-1-none-idle\n"
               "@@BEGIN oa-cost-1-fast-cpu\n@@REQ 3 cpu\n"
               '@@GOT 3 ok {"cpu-s": 2.0, "other-s": 1.0, "wall-s": 20.0}\n'
               "@@REQ 4 cpu\n@@GOT 4 timeout no answer\n"
               "syscalls ok: 1900000 getppid/s\n@@END oa-cost-1-fast-cpu\n"
               "@@BEGIN oa-cost-1-fast-nop\n@@REQ 5 cpu\n@@GOT 5 ok {}\n"
               "nop ok: 4000 rcs batches in 0.25 s\n"
               "@@REQ 6 cpu\n@@GOT 6 ok {}\n"
               "@@END oa-cost-1-fast-nop\n"
               "@@BEGIN oa-cost-fast-recorder\noa_exponent=7\n"
               "@@END oa-cost-fast-recorder\n")
        self.assertEqual(guest_tier.oa_cost(log), [
            "1 none idle - 0.250 1.500 0.000",
            "1 fast cpu 1900000 ? ? ?",
            "1 fast nop 0.25 ? ? ?",
            "# e=7 e1=? n=1 b=4000 cpu=ok"])


def main():
    """Run every test, print TAP."""
    suite = unittest.defaultTestLoader.loadTestsFromModule(
        sys.modules[__name__])
    tests = []

    def flatten(s):
        for t in s:
            if isinstance(t, unittest.TestSuite):
                flatten(t)
            else:
                tests.append(t)
    flatten(suite)
    print("1..%d" % len(tests))
    failed = 0
    for n, t in enumerate(tests, 1):
        r = unittest.TestResult()
        t.run(r)
        name = t.id().split(".", 1)[1]
        if r.wasSuccessful():
            print("ok %d - %s" % (n, name))
        else:
            failed += 1
            print("not ok %d - %s" % (n, name))
            for _, tb in r.errors + r.failures:
                for line in tb.rstrip().split("\n"):
                    print("#   " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
