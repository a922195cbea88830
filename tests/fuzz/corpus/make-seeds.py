#!/usr/bin/env python3
"""Write the seed corpus of the fuzz harnesses: one directory per target,
one small file per scenario, named after what it sets up.  The files are
committed; run this again after changing a harness's input format.

  fuzz-nv-pcounter/        tests/fuzz/fuzz-nv-pcounter.c's operations
  fuzz-intel-cs/           tests/fuzz/fuzz-intel-cs.c's mode byte + ring
                           (the compute-* seeds: GPGPU walkers of
                           hostile kernels, from the qtests' kernels in
                           tests/qtest/intel-gpu-compute-kernels.h and
                           commands packed by hw/gpumodel/intel/
                           gen11-state.desc)
  fuzz-intel-eu/           tests/fuzz/fuzz-intel-eu.c's dispatch byte,
                           kernel length, kernel, GRF contents
  generic-fuzz-intel-gpu/  QEMU generic-fuzz operations ("FUZZ"-separated)
  generic-fuzz-nv-gpu/
"""
import importlib.util
import os
import re
import struct

TOP = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(TOP, '..', '..', '..'))


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


# ---- fuzz-intel-cs: GPGPU walkers of hostile kernels ----

def load_desc():
    """gen11-state.desc's entries by name, parsed as gen-gfx-state.py
    parses them for gen11-state.h."""
    spec = importlib.util.spec_from_file_location(
        'gen_gfx_state', os.path.join(ROOT, 'scripts', 'gen-gfx-state.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    path = os.path.join(ROOT, 'hw', 'gpumodel', 'intel', 'gen11-state.desc')
    return {e.name: e for e in mod.parse(path)}


def pack(desc, name, **vals):
    """The dwords of command or structure @name with fields @vals, as
    gen11-state.h's gen11_*_pack() writes them."""
    e = desc[name]
    fields = {f.name: f for f in e.fields}
    bits = 0
    for k, v in vals.items():
        f = fields[k]
        if f.type in ('offset', 'address'):
            # The value's own bits lo..hi of its first dword, in place.
            mask = (1 << (f.hi + 1)) - (1 << f.lo)
            bits |= (v & mask) << (32 * f.dw)
        else:
            assert 0 <= v < 1 << f.width, (name, k, v)
            bits |= v << f.start
    dws = [(bits >> (32 * i)) & 0xffffffff for i in range(e.length)]
    if e.kind == 'command':
        dws[0] |= e.header << 16
        if e.bias == 2:
            dws[0] |= e.length - e.bias
    return dws


def compute_kernels():
    """The qtests' kernels, by name, from their header."""
    path = os.path.join(ROOT, 'tests', 'qtest', 'intel-gpu-compute-kernels.h')
    with open(path, encoding='utf-8') as f:
        text = f.read()
    return {m.group(1): [int(x, 16) for x in
                         re.findall(r'0x[0-9a-f]+', m.group(2))]
            for m in re.finditer(r'uint32_t (\w+)\[\] = \{(.*?)\};', text,
                                 re.S)}


# fuzz-intel-cs's guest: the ring at RING, the GGTT one to one over the
# first 8 MiB.  The ring starts the batch just past its 64 KiB (the ring
# runs to its tail, 64 KiB less 8, on MI_NOOPs after the batch).
RING = 0x100000
BATCH = RING + 0x10000
KERNEL, IDD, CURBE = 0x800, 0xc00, 0xd00
OUT = RING + 0x12000
DONE = OUT + 0x800
UNMAPPED = 0x30000000   # beyond the 8 MiB the harness maps


def compute_seed(desc, kernel, idd, walker, vfe=None):
    """The qtests' compute batch (intel-gpu-compute-hostile-test.c): state
    bases at the batch, the general state base 0, every thread's r1 the
    CURBE (dword 0 OUT's OWord), SIMD8 threads, then a store."""
    cmds = pack(desc, 'PIPELINE_SELECT', pipeline_selection=2, mask_bits=3)
    cmds += pack(desc, 'STATE_BASE_ADDRESS',
                 general_state_base_address_modify_enable=1,
                 surface_state_base_address_modify_enable=1,
                 surface_state_base_address=BATCH,
                 dynamic_state_base_address_modify_enable=1,
                 dynamic_state_base_address=BATCH,
                 instruction_base_address_modify_enable=1,
                 instruction_base_address=BATCH)
    cmds += pack(desc, 'MEDIA_VFE_STATE', maximum_number_of_threads=63,
                 number_of_urb_entries=1, curbe_allocation_size=1,
                 **(vfe or {}))
    cmds += pack(desc, 'MEDIA_CURBE_LOAD', curbe_total_data_length=32,
                 curbe_data_start_address=CURBE)
    cmds += pack(desc, 'MEDIA_INTERFACE_DESCRIPTOR_LOAD',
                 interface_descriptor_total_length=32,
                 interface_descriptor_data_start_address=IDD)
    w = dict(thread_group_id_x_dimension=1, thread_group_id_y_dimension=1,
             thread_group_id_z_dimension=1, right_execution_mask=0xff,
             bottom_execution_mask=0xff)
    w.update(walker)
    cmds += pack(desc, 'GPGPU_WALKER', **w)
    cmds += [MI_STORE_DWORD_IMM_GEN4 | MI_USE_GGTT, DONE, 0, 0xd0e0001,
             MI_BATCH_BUFFER_END]
    d = dict(kernel_start_pointer=KERNEL,
             cross_thread_constant_data_read_length=1)
    d.update(idd)
    batch = bytearray(0xd20)
    batch[0:4 * len(cmds)] = struct.pack('<%dI' % len(cmds), *cmds)
    batch[KERNEL:KERNEL + 4 * len(kernel)] = struct.pack(
        '<%dI' % len(kernel), *kernel)
    dws = pack(desc, 'INTERFACE_DESCRIPTOR_DATA', **d)
    batch[IDD:IDD + 32] = struct.pack('<8I', *dws)
    r1 = [OUT // 16] + [0xc0de0000 + i for i in range(1, 8)]
    batch[CURBE:CURBE + 32] = struct.pack('<8I', *r1)
    ring = bytearray(BATCH - RING)
    ring[0:12] = struct.pack('<3I', MI_BATCH_BUFFER_START_GEN8, BATCH, 0)
    return bytes([0]) + bytes(ring) + bytes(batch)


def compute_seeds():
    """One seed per qtest of intel-gpu-compute-hostile-test.c, and the
    endless kernel of intel-gpu-media-test.c."""
    t = 'fuzz-intel-cs'
    desc = load_desc()
    k = compute_kernels()
    put(t, 'compute-endless-kernel', compute_seed(
        desc, k['hostile_endless_kernel'], {},
        dict(thread_group_id_x_dimension=0xffffffff,
             thread_group_id_y_dimension=0xffffffff)))
    put(t, 'compute-oversize-group', compute_seed(
        desc, k['hostile_store_kernel'],
        dict(number_of_threads_in_gpgpu_thread_group=64, barrier_enable=1),
        dict(thread_width_counter_maximum=63,
             thread_height_counter_maximum=1)))
    put(t, 'compute-slm-out-of-range', compute_seed(
        desc, k['hostile_slm_kernel'],
        dict(number_of_threads_in_gpgpu_thread_group=1,
             shared_local_memory_size=1),
        dict(thread_group_id_x_dimension=2)))
    put(t, 'compute-scratch-unmapped', compute_seed(
        desc, k['hostile_scratch_kernel'],
        dict(number_of_threads_in_gpgpu_thread_group=1),
        dict(thread_group_id_x_dimension=2),
        vfe=dict(scratch_space_base_pointer=UNMAPPED)))
    put(t, 'compute-barrier-never-met', compute_seed(
        desc, k['hostile_barrier_skip_kernel'],
        dict(number_of_threads_in_gpgpu_thread_group=4, barrier_enable=1),
        dict(thread_width_counter_maximum=3,
             thread_group_id_x_dimension=2)))


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
    compute_seeds()
    eu_seeds()
    generic_seeds()
