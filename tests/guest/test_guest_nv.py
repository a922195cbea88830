#!/usr/bin/python3
"""Tests of the nv profile's verdicts (guest_verdicts/nv.py,
nv_pcounter.py) against recorded/nv.log, in TAP; test_guest_tier.py runs
them with the rest.
"""
import os
import re
import sys
import unittest

from guest_cases import (HERE, NV, Case, attrs, body, drop, judge, section,
                         sub, tap_main)
from guest_verdicts import nv_pcounter


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
        t = sub(NV, "record-fault", r"^@@GOT (\d+) ok \{\}$",
                r"@@GOT \1 error CommandNotFound")
        t = drop(t, "probe-drill")
        v = self.assertFails(t, ["record-fault-drill", "record-after-fault"],
                             "nv", says="on domain 4: error: CommandNotFound")
        self.assertIn("did not report it", v["record-after-fault"])


def logged(case, step, level, text, failing):
    """A nouveau line at LEVEL in step STEP's kernel log fails exactly the
    checks FAILING, saying so."""
    t = sub(NV, step + "-dmesg", r"\A", "%s[   20.1] nouveau 0000:00:03.0: "
            "%s\n" % (level, text))
    case.assertFails(t, failing, "nv", says=text)


class NvNouveau(Case):
    """nouveau's checks: each kind of failure a run can show."""

    def test_not_bound(self):
        t = section(NV, "nouveau-load-driver", "\n")
        t = section(t, "nouveau-load-drm", "")
        self.assertFails(t, ["nouveau-bind", "nouveau-dmesg"], "nv",
                         says="driver none, DRM nodes none")
        t = attrs(NV, "nouveau-load", "rc=1 secs=3")
        self.assertFails(t, ["nouveau-bind", "nouveau-dmesg"], "nv",
                         says="exit status 1")

    def test_error_and_timeout_lines(self):
        # An error-level line, whatever it says.
        t = sub(NV, "nouveau-load-dmesg", r"^(<6>\[[ 0-9.]*\] nouveau "
                r"0000:00:03.0: fb: .*)$",
                r"\1\n<3>[    9.9] nouveau 0000:00:03.0: fb: trapped")
        self.assertFails(t, ["nouveau-bind", "nouveau-dmesg"], "nv",
                         says="fb: trapped")
        # A warning, and nvkm's timeout at the info level.
        t = sub(NV, "nouveau-reload-dmesg", r"^(<6>\[[ 0-9.]*\] nouveau "
                r"0000:00:03.0: DRM: VRAM: .*)$",
                r"\1\n<6>[    9.9] nouveau 0000:00:03.0: mmu: timeout")
        self.assertFails(t, ["nouveau-reload"], "nv", says="mmu: timeout")
        t = sub(NV, "nouveau-load-dmesg", r"^(<6>\[[ 0-9.]*\] nouveau "
                r"0000:00:03.0: DRM: VRAM: .*)$",
                r"\1\n<4>[    9.9] WARNING: CPU: 0 PID: 1 at x.c:1")
        self.assertFails(t, ["nouveau-bind", "nouveau-dmesg"], "nv",
                         says="WARNING: CPU")

    def assertAllOk(self, t):
        v, _ = judge(t, "nv")
        self.assertTrue(all(line.startswith("ok ") for line in v.values()),
                        [line for line in v.values()
                         if not line.startswith("ok ")])

    def test_late_timer_of_the_emulated_cpu(self):
        # The host kept the vCPU from running: not the device's fault.
        for late in ("hrtimer: interrupt took 27921220 ns",
                     "clocksource: timekeeping watchdog on CPU0: Marking "
                     "clocksource 'tsc' as unstable because the skew is too "
                     "large:",
                     "tsc: Marking TSC unstable due to clocksource watchdog"):
            t = sub(NV, "nouveau-load-dmesg", r"^(<6>\[[ 0-9.]*\] nouveau "
                    r"0000:00:03.0: DRM: VRAM: .*)$",
                    r"\1\n<4>[    9.9] " + late.replace("\\", "\\\\"))
            self.assertAllOk(t)

    def test_linux_6_12_probe_lines(self):
        # 6.12's nouveau: "drm:" in lower case, no DCB version line, and
        # fbdev's warning that no CRTC has a connector.
        t = NV.replace("0000:00:03.0: DRM: ", "0000:00:03.0: drm: ")
        t = re.sub(r"^.*DCB version.*\n", "", t, flags=re.M)
        t = sub(t, "nouveau-load-dmesg", r"^(<6>\[[ 0-9.]*\] nouveau "
                r"0000:00:03.0: drm: VRAM: .*)$",
                r"\1\n<4>[    9.9] nouveau 0000:00:03.0: [drm] No "
                r"compatible format found")
        self.assertAllOk(t)
        # Still a warning from anyone else.
        t = sub(t, "nouveau-load-dmesg", r"^(<6>\[[ 0-9.]*\] nouveau "
                r"0000:00:03.0: drm: VRAM: .*)$",
                r"\1\n<4>[    9.9] nouveau 0000:00:03.0: [drm] No VRAM")
        self.assertFails(t, ["nouveau-bind", "nouveau-dmesg"], "nv",
                         says="No VRAM")

    def test_probe_line_missing(self):
        t = sub(NV, "nouveau-load-dmesg", r"^.*bios: version.*\n", "")
        self.assertFails(t, ["nouveau-dmesg"], "nv", says="bios: version")

    def test_clients_unreadable(self):
        t = section(NV, "nouveau-load-clients",
                    "cat: can't open '/sys/kernel/debug/dri/*/clients'\n"
                    "rc=1\n")
        self.assertFails(t, ["nouveau-clients"], "nv", says="can't open")

    def test_unload_leaves_it_bound(self):
        t = section(NV, "nouveau-unload-driver",
                    "../../../bus/pci/drivers/nouveau\n")
        self.assertFails(t, ["nouveau-reload"], "nv",
                         says="driver nouveau")

    def test_snapshot(self):
        t = sub(NV, "nouveau-snapshot", r"^@@GOT (\d+) ok .*$",
                r"@@GOT \1 error loadvm gpumodel: incoming state rejected")
        self.assertFails(t, ["nouveau-snapshot"], "nv",
                         says="error: loadvm gpumodel")
        t = section(NV, "nouveau-snapshot-driver", "\n")
        self.assertFails(t, ["nouveau-snapshot"], "nv",
                         says="after loadvm: driver none")

    def test_accel_not_set_up(self):
        # Bound, but without its buffer copies: acceleration did not start.
        t = sub(NV, "nouveau-accel-dmesg", r"^.*MM: using .*\n", "")
        self.assertFails(t, ["nouveau-accel"], "nv",
                         says="acceleration not set up")
        logged(self, "nouveau-accel", "<3>", "DRM: failed to create "
                    "kernel channel, -22", ["nouveau-accel"])

    def test_accel_clients_unreadable(self):
        t = section(NV, "nouveau-accel-clients",
                    "cat: can't open '/sys/kernel/debug/dri/*/clients'\n"
                    "rc=1\n")
        self.assertFails(t, ["nouveau-accel-clients"], "nv",
                         says="can't open")

    def test_accel_channel_not_idle(self):
        # At the accelerated unload before the reload, and at the last one.
        for step, cid in (("nouveau-accel-unload", "nouveau-accel-reload"),
                          ("nouveau-accel-end", "nouveau-accel-unload")):
            logged(self, step, "<3>", "DRM: failed to idle channel 1 "
                        "[DRM]", [cid])

    def test_accel_reload_not_bound(self):
        t = section(NV, "nouveau-accel-reload-driver", "\n")
        self.assertFails(t, ["nouveau-accel-reload"], "nv",
                         says="modprobe nouveau again: driver none")
        t = attrs(NV, "nouveau-accel-unload", "rc=1 secs=0")
        self.assertFails(t, ["nouveau-accel-reload"], "nv",
                         says="exit status 1")

    def test_accel_unmodelled(self):
        t = sub(NV, "unmodelled-accel", r'"count": 0,', '"count": 7,')
        self.assertFails(t, ["nouveau-accel-unload"], "nv",
                         says="unmodelled BAR0 accesses")

    def test_guest_stopped_after_load(self):
        cut = NV.split("@@BEGIN nouveau-unload ")[0]
        v = self.verdicts(cut, "nv")
        self.assertTrue(v["nouveau-bind"].startswith("ok"))
        for c in ("nouveau-reload", "nouveau-snapshot", "nouveau-accel",
                  "nouveau-accel-clients", "nouveau-accel-reload",
                  "probe-accel", "nouveau-accel-channel",
                  "nouveau-accel-unload"):
            self.assertTrue(v[c].startswith("not ok"), v[c])

    def test_guest_stopped_in_accel_probe(self):
        cut = NV.split("@@BEGIN probe-accel ")[0]
        v = self.verdicts(cut, "nv")
        for c in ("nouveau-accel", "nouveau-accel-clients",
                  "nouveau-accel-reload", "probe-exit"):
            self.assertTrue(v[c].startswith("ok"), v[c])
        for c in ("probe-accel", "nouveau-accel-channel",
                  "nouveau-accel-unload"):
            self.assertTrue(v[c].startswith("not ok"), v[c])


class NvAccel(Case):
    """The probe's run beside nouveau with acceleration, and its channel."""

    def test_probe_accel_reading(self):
        # A reading of the second run fails probe-accel alone, naming the
        # check; the first run's quad-trigger stays ok.
        off = PC("NV40_PC_CTR_CYCLES_ALT", 0)
        t = set_reg(NV, "probe-accel", "quad", "window", off, 7)
        self.assertFails(t, ["probe-accel"], "nv", says="quad-trigger: ")
        self.assertIn("CTR_CYCLES_ALT 7 != CTR_CYCLES",
                      self.verdicts(t, "nv")["probe-accel"])
        t = poke(NV, "probe-accel", "record-short", 5 * 16 + 8, b"\x00\x00")
        self.assertFails(t, ["probe-accel"], "nv", says="record-short: ")
        t = set_reg(NV, "probe-accel", "ptimer-flush", "window",
                    PC("NV40_PC_CTR_EVENT", 1), 6)
        self.assertFails(t, ["probe-accel"], "nv", says="wrcache-flush: ")

    def test_probe_accel_stopped(self):
        b = body(NV, "probe-accel")
        t = section(attrs(NV, "probe-accel", "rc=139 secs=1"), "probe-accel",
                    b.split("step record-long")[0])
        got = self.assertFails(t, ["probe-accel"], "nv",
                               says="exit status 139")
        self.assertIn("record-long: not reported", got["probe-accel"])
        self.assertIn("dma-buffer: not reported", got["probe-accel"])

    def test_probe_accel_nouveau_lost(self):
        logged(self, "accel-bound", "<4>", "fifo: PUSHBUFFER "
                         "fault", ["probe-accel"])
        t = section(NV, "accel-bound-driver", "\n")
        self.assertFails(t, ["probe-accel"], "nv",
                         says="nouveau through it: driver none")

    def assertChannel(self, text, says):
        self.assertFails(text, ["nouveau-accel-channel"], "nv", says=says)

    def channel_read(self, text, reg, value, name="accel-channels-after"):
        """TEXT with the first channel's user-area register REG read as
        VALUE in section NAME."""
        b = body(text, name)
        chan = re.search(r"^r chan 0x([0-9a-f]+) ", b, re.M)
        chid = (int(chan.group(1), 16) - 0x2600) // 4
        off = 0xc00000 + chid * 0x2000 + reg
        return sub(text, name, r"^r user 0x%06x 0x[0-9a-f]+$" % off,
                   "r user 0x%06x 0x%08x" % (off, value))

    def test_channel_behind(self):
        ib_put = int(re.search(r"after the unload GET 0x[0-9a-f]+, IB_GET "
                               r"\d+, IB_PUT (\d+)", self.verdicts(NV, "nv")[
                                   "nouveau-accel-channel"]).group(1))
        t = self.channel_read(NV, 0x88, ib_put - 1)
        self.assertChannel(t, "not idle: IB_GET %d != IB_PUT %d"
                           % (ib_put - 1, ib_put))

    def test_channel_no_work(self):
        t = NV
        for reg in (0x44, 0x88, 0x8c):
            t = self.channel_read(t, reg, 0)
        self.assertChannel(t, "fetched no work")
        # GET moved, but no IB entry was ever given.
        t = self.channel_read(NV, 0x8c, 0)
        self.assertChannel(t, "fetched no work")

    def test_channel_not_on(self):
        # The channel table entry without bit 31 while nouveau is bound.
        t = sub(NV, "accel-channels", r"^r chan (0x[0-9a-f]+) 0x8",
                r"r chan \1 0x0")
        self.assertChannel(t, "no PFIFO channel turned on while bound")
        t = sub(NV, "accel-channels-after", r"^r (chan|user) .*\n", "")
        self.assertChannel(t, "no reads after the unload")

    def test_channel_probe_failed(self):
        t = attrs(NV, "accel-channels-after", "rc=1 secs=0")
        self.assertChannel(t, "--channels: exit status 1")
        t = section(NV, "accel-channels", "step setup\nresource0 "
                    "/sys/bus/pci/devices/0000:00:03.0/resource0 error "
                    "Permission denied\n")
        self.assertChannel(t, "exit status 0: step setup")


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


PC = nv_pcounter.pc


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
        got = self.assertFails(t, ["quad-trigger", "quad-logic",
                                   "quad-periodic", "record-long",
                                   "record-short", "record-after-fault",
                                   "probe-accel"], "nv")
        for c in ("quad-trigger: ", "record-short: "):
            self.assertIn(c, got["probe-accel"])
        # A STOP that is not a one-cycle pulse.
        t = sub(NV, "synth", r"^4\.0=4096/1", "4.0=4096/2")
        self.assertFails(t, ["record-long", "record-fault-drill",
                             "probe-accel"], "nv",
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
        # GPU_FIELD(REG, FIELD, shift, length): REG_FIELD_SHIFT, _MASK
        for m in re.finditer(r"^\s*GPU_FIELD\((\w+), (\w+), (\d+), (\d+)\);",
                             hdr, re.M):
            name, shift, length = ("%s_%s" % m.group(1, 2), int(m.group(3)),
                                   int(m.group(4)))
            defs[name + "_SHIFT"] = str(shift)
            defs[name + "_LENGTH"] = str(length)
            defs[name + "_MASK"] = hex(((1 << length) - 1) << shift)

        def value(name):
            v = defs[name].strip("()").rstrip("u")
            m = re.fullmatch(r"(\w+?)u? << (\d+)", v)
            if m:
                return int(m.group(1), 0) << int(m.group(2))
            m = re.fullmatch(r"\(?NV_SIG_TRAILER_BASE \+ (0x[0-9a-f]+)", v)
            if m:
                return value("NV_SIG_TRAILER_BASE") + int(m.group(1), 16)
            return int(v, 0)
        for table in (nv_pcounter.NV_REGS, nv_pcounter.NV_PC,
                      nv_pcounter.NV_FIELDS):
            for name, off in table.items():
                self.assertEqual(value(name), off, name)


class NvSignals(unittest.TestCase):
    def test_windows(self):
        syn = nv_pcounter.parse_synth("*.1=16/4 2.1=16/4/2")
        s = nv_pcounter.Signals(syn, 0)
        one = (0x11, 0xaaaa)
        # 20 cycles: one period (4) and 4 cycles at any phase (0..4).
        self.assertEqual(sorted(set(s.windows([one], 20))), [4, 5, 6, 7, 8])
        self.assertEqual(set(s.windows([one], 32)), {8})
        # Delayed argument 1 of itself, AND NOT: one rise per period.
        rise = (0x1111, 0x2222 | 1 << 17)
        self.assertEqual(set(s.windows([rise], 64)), {4})
        self.assertEqual(set(s.windows([(0x01, 0xaaaa)], 7)), {7})
        self.assertIsNone(nv_pcounter.parse_synth("1.1=12/4"))
        self.assertEqual(syn[2][1], (16, 4, 2))


if __name__ == "__main__":
    sys.exit(tap_main([sys.modules[__name__]]))
