#!/usr/bin/env python3
"""Write the seed corpus of the fuzz harnesses: one directory per target,
one small file per scenario, named after what it sets up.  The files are
committed; run this again after changing a harness's input format.

  fuzz-nv-pcounter/        tests/fuzz/fuzz-nv-pcounter.c's operations
  fuzz-intel-cs/           tests/fuzz/fuzz-intel-cs.c's mode byte + ring
  fuzz-intel-eu/           tests/fuzz/fuzz-intel-eu.c's dispatch byte,
                           kernel length, kernel, GRF contents
  generic-fuzz-intel-gpu/  QEMU generic-fuzz operations ("FUZZ"-separated)
  generic-fuzz-nv-gpu/
"""
import os
import struct

TOP = os.path.dirname(os.path.abspath(__file__))


def put(target, name, data):
    d = os.path.join(TOP, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


# ---- fuzz-nv-pcounter ----

PC = 0xa000
ONE, ZERO, EV0 = 0x01, 0x00, 0xf7     # NV_SIG_ONE, _ZERO, DOM_EVENT(0)


def nv_header(chip=0, hz=0x5555, wcycles=0):
    """chip: 0 g84, 1 g86, 2 g92; hz: 2 bits per domain (1 = 1 GHz)."""
    return bytes([chip]) + struct.pack('<H', hz) + bytes([wcycles])


def nv_wr(off, val):
    """A raw write: PCOUNTER by its offset in the block, else anywhere."""
    if PC <= off < PC + 0x1000:
        return bytes([0, 0]) + struct.pack('<HI', off - PC, val)
    return bytes([0, 7 | (off >> 16) << 0]) + struct.pack('<HI', off & 0xffff,
                                                          val)


def nv_rd(off):
    return bytes([3, 0]) + struct.pack('<H', off - PC)


def nv_step(ns):
    return bytes([4]) + struct.pack('<H', ns)


def nv_jump(shift, n=0):
    """Jump the clock by (n + 1) << (16 + shift) ns."""
    return bytes([0x84 | shift << 3]) + struct.pack('<H', n)


def dom(reg, d):
    return reg + 4 * d


PRE_SRC, PRE_OP, START_SRC, START_OP = 0xa400, 0xa420, 0xa440, 0xa460
EVENT_SRC, EVENT_OP, STOP_SRC, STOP_OP = 0xa480, 0xa4a0, 0xa4c0, 0xa4e0
CTR_CYCLES, CTR_EVENT, REC_STATUS = 0xa600, 0xa680, 0xa6e0
REC_LIMIT, REC_START, CTRL = 0xa720, 0xa760, 0xa7c0
ARG0 = 0xaaaa


def nv_counting(d, mode, event=ONE, stop=ZERO):
    return (nv_wr(dom(CTRL, d), mode) + nv_wr(dom(EVENT_SRC, d), event) +
            nv_wr(dom(EVENT_OP, d), ARG0) + nv_wr(dom(STOP_SRC, d), stop) +
            nv_wr(dom(STOP_OP, d), ARG0) + nv_wr(dom(START_SRC, d), ONE) +
            nv_wr(dom(START_OP, d), ARG0) + nv_wr(dom(PRE_SRC, d), ONE) +
            nv_wr(dom(PRE_OP, d), ARG0))


def nv_seeds():
    t = 'fuzz-nv-pcounter'
    put(t, 'quad-count', nv_header() + nv_counting(0, 1) + nv_step(5000) +
        nv_rd(dom(CTR_EVENT, 0)) + nv_jump(15, 0xffff) +
        nv_rd(dom(CTR_CYCLES, 0)))
    put(t, 'single-count', nv_header() + nv_counting(2, 0, stop=0x10) +
        bytes([6, 0x02, 4]) + struct.pack('<II', 3, 0) +   # synth 2.0
        nv_step(60000) + nv_rd(dom(CTR_EVENT, 2)))
    put(t, 'record-in-ram', nv_header(wcycles=3) +
        nv_counting(1, 2, stop=ONE) + nv_wr(dom(REC_LIMIT, 1), 0x2000) +
        nv_wr(dom(REC_START, 1), 0x1000) + nv_step(50000) +
        nv_rd(dom(REC_STATUS, 1)))
    put(t, 'record-past-ram', nv_header() + nv_counting(1, 2, stop=ONE) +
        nv_wr(dom(REC_LIMIT, 1), 0xfffffff0) +
        nv_wr(dom(REC_START, 1), (16 << 20) - 64) + nv_step(50000) +
        nv_rd(dom(REC_STATUS, 1)) + nv_wr(dom(CTRL, 1), 2 | 1 << 27))
    # The reproducer of the unbounded sync: EVENT = NOT own EVENT, then
    # a 2^46 ns jump and a read.
    put(t, 'self-negating-event-jump', nv_header() +
        nv_counting(0, 1, event=EV0) + nv_wr(dom(EVENT_OP, 0), 0x5555) +
        nv_jump(14, 0xffff) + nv_rd(dom(CTR_EVENT, 0)))
    put(t, 'import-loop', nv_header() +
        nv_counting(0, 1, event=0xf6) + nv_wr(dom(EVENT_OP, 0), 0x5555) +
        nv_counting(1, 1, event=EV0) + nv_wr(dom(EVENT_OP, 1), 0x5555) +
        nv_step(30000) + nv_rd(dom(CTR_EVENT, 1)))
    put(t, 'ptimer-alarm', nv_header() + nv_wr(0x9140, 1) +
        nv_wr(0x140, 1) + nv_wr(0x9420, 40000) + nv_step(50000) +
        bytes([3, 5]) + struct.pack('<H', 0) + nv_wr(0x9100, 1))
    put(t, 'pm-trigger-reset', nv_header(chip=2) +
        nv_counting(3, 1, event=0xef) + nv_wr(0x400084, 0x20) +
        bytes([7]) + nv_step(100) + bytes([0x87]) + nv_rd(dom(CTRL, 3)))


# ---- fuzz-intel-cs ----

# Command encodings, mirroring include/hw/gpumodel/intel-gpu-cmds.h
# (Python cannot include it): keep the two in step.
def mi_instr(opcode, flags=0):
    return opcode << 23 | flags


def instr_len(n):
    return n - 2


MI_NOOP = mi_instr(0x00)
MI_BATCH_BUFFER_END = mi_instr(0x0A)
MI_STORE_DATA_IMM = mi_instr(0x20)
MI_BATCH_BUFFER_START = mi_instr(0x31)
MI_USE_GGTT = 1 << 22
MI_STORE_DWORD_IMM_GEN4 = MI_STORE_DATA_IMM | instr_len(4)
MI_BATCH_BUFFER_START_GEN8 = MI_BATCH_BUFFER_START | instr_len(3)


def intel_seeds():
    t = 'fuzz-intel-cs'
    noop, end = MI_NOOP, MI_BATCH_BUFFER_END
    # A store to the ring's page, and a batch start into the ring itself.
    sdi = [MI_STORE_DWORD_IMM_GEN4 | MI_USE_GGTT, 0x100040, 0, 0xc0ffee]
    bbs = [MI_BATCH_BUFFER_START_GEN8, 0x100000, 0]
    for mode, name in ((0, 'rcs-ring'), (1, 'bcs-ring'), (2, 'rcs-execlist')):
        dws = sdi + [noop] * 4 + [end, noop]
        put(t, name + '-store', bytes([mode]) + struct.pack(
            '<%dI' % len(dws), *dws))
    dws = bbs + [noop] * 4 + [end]
    put(t, 'rcs-self-chaining-batch', bytes([0]) + struct.pack(
        '<%dI' % len(dws), *dws))


# ---- fuzz-intel-eu ----

# IGT 1.27.1's Gen11 kernels, as its sources list them (dwords).
GPGPU_FILL = [  # lib/gpgpu_fill.c gen11_gpgpu_kernel
    0x00400001, 0x20202288, 0x00000020, 0x00000000,
    0x00000009, 0x20400208, 0x06000004, 0x00000004,
    0x00000001, 0x20440208, 0x00000018, 0x00000000,
    0x00600001, 0x20800208, 0x008d0000, 0x00000000,
    0x00200001, 0x20800208, 0x00450040, 0x00000000,
    0x00000001, 0x20880608, 0x00000000, 0x0000000f,
    0x00800001, 0x20a00208, 0x00000020, 0x00000000,
    0x0c800031, 0x24000a40, 0x06000080, 0x040a8000,
    0x00600001, 0x2e000208, 0x008d0000, 0x00000000,
    0x07800031, 0x20000a40, 0x06000e00, 0x82000010,
]
RENDER_COPY_PS = [  # lib/rendercopy_gen9.c ps_kernel_gen11
    0x0060005b, 0x2000c01c, 0x07206601, 0x01800404,
    0x0060005b, 0x7100480c, 0x0722003b, 0x01880406,
    0x0060005b, 0x2000c01c, 0x07206601, 0x01800408,
    0x0060005b, 0x7200480c, 0x0722003b, 0x0188040a,
    0x0060005b, 0x2000c01c, 0x07206e01, 0x01a00404,
    0x0060005b, 0x7300480c, 0x0722003b, 0x01a80406,
    0x0060005b, 0x2000c01c, 0x07206e01, 0x01a00408,
    0x0060005b, 0x7400480c, 0x0722003b, 0x01a8040a,
    0x02800031, 0x21804a4c, 0x06000e20, 0x08840001,
    0x00800001, 0x2e204b28, 0x008d0180, 0x00000000,
    0x00800001, 0x2e604b28, 0x008d01c0, 0x00000000,
    0x00800001, 0x2ea04b28, 0x008d0200, 0x00000000,
    0x00800001, 0x2ee04b28, 0x008d0240, 0x00000000,
    0x05800031, 0x20004a44, 0x06000e20, 0x90031000,
]


def eu_seed(dispatch, kernel, grf=b''):
    code = struct.pack('<%dI' % len(kernel), *kernel)
    return bytes([dispatch]) + struct.pack('<H', len(code)) + code + grf


def eu_seeds():
    t = 'fuzz-intel-eu'
    # r0/r1 as a thread's payload might hold them: small, nonzero.
    grf = bytes(range(64))
    put(t, 'gpgpu-fill-simd16', eu_seed(1, GPGPU_FILL, grf))
    put(t, 'render-copy-ps-simd16', eu_seed(1, RENDER_COPY_PS, grf))
    # The same with the shared function deferring, then refusing.
    put(t, 'render-copy-ps-deferred', eu_seed(1 | 1 << 2, RENDER_COPY_PS))
    put(t, 'gpgpu-fill-refused', eu_seed(2 | 2 << 2, GPGPU_FILL))


# ---- QEMU generic-fuzz ----

SEP = b'FUZZ'


def gf_write(base, offset, value, size=2):
    """OP_WRITE: size 2 is a 32-bit access; base picks the region."""
    return bytes([3]) + struct.pack('<BBxxIQ', size, base, offset, value)


def gf_read(base, offset, size=2):
    return bytes([2]) + struct.pack('<BBxxI', size, base, offset)


def gf_step():
    return bytes([9])


def gf(ops):
    return SEP.join(ops)


def generic_seeds():
    t = 'generic-fuzz-nv-gpu'
    put(t, 'pcounter-record', gf([
        gf_write(0, 0xa7c4, 2), gf_write(0, 0xa4c4, ONE),
        gf_write(0, 0xa4e4, ARG0), gf_write(0, 0xa724, 0x2000),
        gf_write(0, 0xa764, 0x1000), gf_step(), gf_read(0, 0xa6e4)]))
    put(t, 'pcounter-self-negating', gf([
        gf_write(0, 0xa7c0, 1), gf_write(0, 0xa480, EV0),
        gf_write(0, 0xa4a0, 0x5555), gf_write(0, 0x9420, 0xffffffff),
        gf_step(), gf_read(0, 0xa680), gf_read(0, 0x9400)]))
    put(t, 'ptimer-alarm', gf([
        gf_write(0, 0x9140, 1), gf_write(0, 0x140, 1),
        gf_write(0, 0x9420, 100000), gf_step(), gf_read(0, 0x100)]))
    t = 'generic-fuzz-intel-gpu'
    put(t, 'ring-store', gf([
        gf_write(0, 0x2080, 0x0f0000), gf_write(0, 0x2038, 0),
        gf_write(0, 0x2034, 0), gf_write(0, 0x203c, 0x1001),
        gf_write(0, 0x2030, 0x40), gf_step(), gf_read(0, 0x2034)]))
    put(t, 'gt-irq', gf([
        gf_write(0, 0x190010, 0xffffffff), gf_write(0, 0x190030, 0),
        gf_write(0, 0x44404, 0), gf_write(0, 0x190000, 0x80000000),
        gf_step(), gf_read(0, 0x190010)]))


if __name__ == '__main__':
    nv_seeds()
    intel_seeds()
    eu_seeds()
    generic_seeds()
