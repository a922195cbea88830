"""nv-gpu: PCOUNTER's checks from nv-pcounter-probe's readings.

The probe (tests/guest/nv-pcounter-probe.c) reports the BAR0 writes it
made, the reads it took ("r LABEL OFFSET VALUE"), the record buffer bytes
it read back and the PFN of its page, in steps.  Every expected value
here follows from the configuration those writes programmed, the
synthetic signals the host gave QEMU (the "synth" section) and PCOUNTER's
modes (envytools docs/hw/pcounter/intro.rst, "PCOUNTER: performance
counter engine": "Quad event mode", "Record mode", "Record mode setup").
Probe replays the output, Signals gives what a domain's inputs see.
"""
import bisect
import re

# BAR0 offsets and fields, as include/hw/gpumodel/nv-gpu-regs.h names them
# (test_guest_nv.py compares them with the header).  Per domain d:
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
    "NV_PC_CTRL_RECORD_SHORT": 1 << 20, "NV40_PC_CTRL_PERIODIC_SHIFT": 21,
    "NV40_PC_CTRL_QUAD_STATE_SHIFT": 24,
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
    SWAP nv-gpu resets to PGRAPH.PM_TRIGGER, hw/gpumodel/nvidia/pcounter/
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
    return ctrl >> F["NV40_PC_CTRL_QUAD_STATE_SHIFT"] & 3


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
    field = ctrl >> F["NV40_PC_CTRL_PERIODIC_SHIFT"] & 7
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
