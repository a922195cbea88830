#!/usr/bin/python3
"""Tests of the intel profile's verdicts (guest_verdicts/intel.py,
intel_irq.py, oa_cost.py) against recorded/intel.log and
recorded/intel-wedged.log, in TAP; test_guest_tier.py runs them with the
rest.
"""
import re
import sys
import unittest

from guest_cases import (INTEL, Case, attrs, body, drop, judge, read,
                         section, sub, tap_main)
from guest_verdicts.log import irq_read
from guest_verdicts.oa_cost import oa_cost


def bump(block, by):
    """/proc/interrupts lines with i915's count (on its last CPU) raised
    by BY."""
    return re.sub(r"^(.* )(\d+)(\s+\D.* i915)$",
                  lambda m: "%s%d%s" % (m.group(1), int(m.group(2)) + by,
                                        m.group(3)), block, flags=re.M)


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

    def test_splat_of_a_built_in_i915(self):
        # Built in, i915 loads while the kernel boots: its splats count
        # from its first line, before the modprobe mark.
        boot = ("[ 1.0] i915 0000:00:02.0: [drm] probing\n" +
                self.WARN.replace("70.0", "1.1"))
        t = sub(INTEL, "dmesg", r"^(\[[ 0-9.]*\] gpumodel: modprobe i915)$",
                boot.replace("\\", "\\\\") + "\\1")
        self.assertFails(t, [])
        t = t.replace("@@BEGIN modprobe ", "@@BEGIN i915-builtin\nyes\n"
                      "@@END i915-builtin\n@@BEGIN modprobe ", 1)
        self.assertFails(t, ["no-splat"], says="1 splats since modprobe")
        self.assertIn(", built in", self.verdicts(t)["modprobe"])


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
        n = int(irq_read(body(INTEL, "interrupts-after"))[0])
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
        self.assertEqual(oa_cost(log), [
            "1 none idle - 0.250 1.500 0.000",
            "1 fast cpu 1900000 ? ? ?",
            "1 fast nop 0.25 ? ? ?",
            "# e=7 e1=? n=1 b=4000 cpu=ok"])


if __name__ == "__main__":
    sys.exit(tap_main([sys.modules[__name__]]))
