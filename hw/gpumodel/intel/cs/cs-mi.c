/*
 * intel-gpu command streamer: the MI commands (PRM Vol 2a: Command
 * Reference: Instructions, "MI_*"; "Memory Interface Commands"):
 * interrupts and arbitration, batch buffers and the context's workaround
 * batches, semaphores, stores and loads of memory and registers, atomics,
 * flushes with their post-sync writes, OA reports.  MI_MATH and the
 * predicates are in cs-alu.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "cs-int.h"

#define CS_POLL_NS          10000       /* semaphore re-poll interval */
#define CS_SIGNAL_POLL_NS   100000      /* signal-mode safety re-poll */

int cs_mi_noop(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
               unsigned len)
{
    /* Identification number write enable: bits 21:0 go to NOPID. */
    if (cmd[0] & MI_NOOP_ID_WRITE) {
        intel_engine_set_reg(e, INTEL_RING_NOPID, cmd[0] & MI_NOOP_ID_MASK);
    }
    return CS_NEXT;
}

int cs_mi_accept(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                 unsigned len)
{
    return CS_NEXT;
}

/* Display events, legacy contexts: no display and no legacy contexts. */
int cs_mi_unimp(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                unsigned len)
{
    gpu_host_log(&e->gpu->host, GPU_LOG_UNIMP,
                 "engine %u: %s not modelled, skipped", e->id, c->name);
    return CS_NEXT;
}

int cs_mi_user_interrupt(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                         unsigned len)
{
    intel_engine_raise(e, INTEL_GT_RENDER_USER_INTERRUPT);
    return CS_NEXT;
}

/* An arbitration point: switch if a new execlist waits. */
int cs_arbitrate(IntelEngine *e)
{
    if (e->arb_enabled && e->submit->arbitrate(e)) {
        return CS_STOP;
    }
    return CS_NEXT;
}

int cs_mi_arb_check(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                    unsigned len)
{
    return cs_arbitrate(e);
}

int cs_mi_arb_on_off(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                     unsigned len)
{
    e->arb_enabled = cmd[0] & MI_ARB_ENABLE;
    return CS_NEXT;
}

int cs_mi_report_head(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                      unsigned len)
{
    /* Ring head pointer storage: HWSP dword 4. */
    cs_write32(e, false, cs_status_page(e, false) + 16,
               intel_engine_reg(e, INTEL_RING_HEAD));
    return e->state == INTEL_CS_HALTED ? CS_STOP : CS_NEXT;
}

/* A workaround batch ended: the next one, or back to the context. */
void cs_wa_done(IntelEngine *e)
{
    if (e->wa_next.addr) {
        e->level[INTEL_CS_WA_LEVEL] = e->wa_next;
        e->wa_next = (IntelCsLevel) { 0 };
        return;
    }
    e->depth = e->wa_return_depth;
    e->arb_enabled = true;
}

/*
 * After a context restore: INDIRECT_CTX (address 31:6, size in cache
 * lines 5:0; run at the end of the restore rather than at its offset) and
 * then BB_PER_CTX_PTR (address 31:6, valid bit 0, until
 * MI_BATCH_BUFFER_END).  Both are privileged GGTT batches.
 */
void cs_start_wa_batches(IntelEngine *e)
{
    uint32_t ind = intel_engine_reg(e, INTEL_RING_INDIRECT_CTX);
    uint32_t per = intel_engine_reg(e, INTEL_RING_BB_PER_CTX_PTR);
    IntelCsLevel first = { 0 }, second = { 0 };

    if (ind & 0x3f) {
        first = (IntelCsLevel) {
            .addr = ind & ~0x3fu, .end = (ind & ~0x3fu) + (ind & 0x3f) * 64,
            .privileged = true,
        };
    }
    if (per & 1) {
        second = (IntelCsLevel) { .addr = per & ~0x3fu, .privileged = true };
    }
    if (!first.addr) {
        first = second;
        second = (IntelCsLevel) { 0 };
    }
    if (!first.addr) {
        return;
    }
    e->wa_return_depth = e->depth;
    e->depth = INTEL_CS_WA_LEVEL;
    e->level[INTEL_CS_WA_LEVEL] = first;
    e->wa_next = second;
    e->arb_enabled = false;
}

int cs_mi_batch_buffer_end(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                           unsigned len)
{
    if (e->depth == INTEL_CS_WA_LEVEL) {
        cs_wa_done(e);
        return CS_NEXT;
    }
    if (!e->depth) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: MI_BATCH_BUFFER_END in the ring ignored",
                     e->id);
        return CS_NEXT;
    }
    e->depth--;
    return CS_NEXT;
}

/* ---- semaphores ---- */

/* The semaphore address data against the semaphore data dword. */
static bool mi_sem_compare(uint32_t op, uint32_t sad, uint32_t sdd)
{
    switch (op) {
    case MI_SEMAPHORE_SAD_GT_SDD: return sad > sdd;
    case MI_SEMAPHORE_SAD_GTE_SDD: return sad >= sdd;
    case MI_SEMAPHORE_SAD_LT_SDD: return sad < sdd;
    case MI_SEMAPHORE_SAD_LTE_SDD: return sad <= sdd;
    case MI_SEMAPHORE_SAD_EQ_SDD: return sad == sdd;
    default: return sad != sdd;
    }
}

/*
 * MI_SEMAPHORE_WAIT.  Register Poll Mode (bit 16, Gen11 Command Reference
 * "REGISTER_POLL_MODE"): the semaphore is the register at dw2 bits 22:2,
 * Memory Type is ignored, the wait always polls, and a non-privileged
 * batch may use it.
 */
int cs_mi_semaphore_wait(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                         unsigned len)
{
    bool ggtt = cmd[0] & MI_GLOBAL_GTT, poll = cmd[0] & MI_SEMAPHORE_POLL;
    uint32_t op = cmd[0] & MI_SEMAPHORE_COMPARE_MASK;
    uint32_t sad;

    if (op > MI_SEMAPHORE_SAD_NEQ_SDD) {
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION,
                           "MI_SEMAPHORE_WAIT: reserved compare operation");
        return CS_STOP;
    }
    if (cmd[0] & MI_SEMAPHORE_REGISTER_POLL) {
        sad = intel_mmio_read(e->gpu, cmd[2] & MI_REG_OFFSET_MASK);
        poll = true;
    } else if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, cmd[0], cs_addr48(cmd[2], cmd[3]),
                               "MI_SEMAPHORE_WAIT in the GGTT");
        return CS_NEXT;
    } else if (cs_read32(e, !ggtt && intel_engine_ppgtt(e),
                         cs_addr48(cmd[2] & ~3u, cmd[3]), &sad)) {
        return CS_STOP;
    }
    if (mi_sem_compare(op, sad, cmd[1])) {
        return CS_NEXT;
    }
    /*
     * Unsuccessful: wait and poll again.  It is also a preemption point,
     * taken in cs_step once the position is back at this command, so a
     * preempted context re-evaluates the wait when it is resubmitted.
     */
    intel_engine_set_state(e, INTEL_CS_WAITING);
    gpu_host_timer_mod(&e->gpu->host, e->timer,
                       gpu_host_now_ns(&e->gpu->host) +
                       (poll ? CS_POLL_NS : CS_SIGNAL_POLL_NS));
    return CS_RETRY;
}

/* Engine numbering of MI_SEMAPHORE_SIGNAL's target engine select. */
static const IntelEngineId signal_target[8] = {
    [MI_SEMAPHORE_TARGET_RCS] = INTEL_RCS0,
    [MI_SEMAPHORE_TARGET_VCS0] = INTEL_VCS0,
    [MI_SEMAPHORE_TARGET_BCS] = INTEL_BCS0,
    [MI_SEMAPHORE_TARGET_VECS0] = INTEL_VECS0,
    [MI_SEMAPHORE_TARGET_VCS1] = INTEL_VCS1,
    [MI_SEMAPHORE_TARGET_VCS2] = INTEL_VCS2,
    [MI_SEMAPHORE_TARGET_VCS3] = INTEL_VCS3,
    [MI_SEMAPHORE_TARGET_VECS1] = INTEL_VECS1,
};

int cs_mi_semaphore_signal(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                           unsigned len)
{
    unsigned target = (cmd[0] & MI_SEMAPHORE_TARGET_MASK) >>
                      MI_SEMAPHORE_TARGET_SHIFT;
    IntelEngine *t = &e->gpu->engine[signal_target[target]];

    if (t->state == INTEL_CS_WAITING) {
        intel_cs_kick(t);
    }
    return CS_NEXT;
}

/* ---- stores and loads ---- */

/*
 * MI_STORE_DATA_IMM "supports writing to multiple consecutive dwords or
 * qwords memory locations from the starting address" (Gen11 Command
 * Reference): the data is dwords 3 on, as many as DWord Length gives
 * (Store Qword, bit 21, makes them qwords: the same bytes).
 */
int cs_mi_store_data_imm(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                         unsigned len)
{
    bool ggtt = cmd[0] & MI_GLOBAL_GTT;
    bool ppgtt = !ggtt && intel_engine_ppgtt(e);
    uint64_t addr = cs_addr48(cmd[1], cmd[2]) & ~3ull;
    uint32_t data[64];

    if (len < 4) {
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION,
                           "MI_STORE_DATA_IMM without data");
        return CS_STOP;
    }
    if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, cmd[0], addr,
                               "MI_STORE_DATA_IMM to the GGTT");
        return CS_NEXT;
    }
    /* In runs of up to 64 dwords. */
    for (unsigned i = 3; i < len; i += G_N_ELEMENTS(data)) {
        unsigned n = MIN(len - i, G_N_ELEMENTS(data));

        for (unsigned k = 0; k < n; k++) {
            data[k] = GUINT32_TO_LE(cmd[i + k]);
        }
        if (cs_mem(e, ppgtt, addr + 4 * (i - 3), data, 4 * n, true)) {
            return CS_STOP;
        }
    }
    return CS_NEXT;
}

int cs_mi_store_data_index(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                           unsigned len)
{
    uint64_t hws = cs_status_page(e, cmd[0] & MI_STORE_DATA_INDEX_PPHWSP);
    uint32_t data[2] = { GUINT32_TO_LE(cmd[2]),
                         GUINT32_TO_LE(len == 4 ? cmd[3] : 0) };

    if (len != 3 && len != 4) {
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION,
                           "MI_STORE_DATA_INDEX length is not 3 or 4");
        return CS_STOP;
    }
    return cs_mem(e, false, hws + (cmd[1] & MI_STORE_DATA_INDEX_OFFSET_MASK),
                  data, (len - 2) * 4, true) ? CS_STOP : CS_NEXT;
}

/*
 * MI_LOAD_REGISTER_IMM: (register, value) pairs.  Byte Write Disables
 * (bits 11:8; Gen11 genxml): bit 8 + i keeps byte i of every register
 * written.  In a non-privileged batch, "any writes targeting the register
 * not listed in the User Mode Non-Privileged Register will convert this
 * command to a NOOP" (Gen11 Command Reference, MI_LOAD_REGISTER_IMM, as
 * Intel's media driver reproduces it in mhw_mi_hwcmd_g11_X.h; PRM Vol 8
 * "User Mode Privileged Commands": "converted to NOOP if the register
 * accessed is privileged"): one refused register drops the whole command,
 * the allowed registers of it too.
 */
int cs_mi_load_register_imm(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                            unsigned len)
{
    uint32_t bytes = 0;

    if (!(len & 1)) {
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION,
                           "MI_LOAD_REGISTER_IMM with an odd dword");
        return CS_STOP;
    }
    for (unsigned i = 0; i < 4; i++) {
        if (!(cmd[0] & MI_LRI_BYTE_WRITE_DISABLE(i))) {
            bytes |= 0xffu << (8 * i);
        }
    }
    for (unsigned i = 1; i < len; i += 2) {
        uint32_t off = cs_reg_offset(e, cmd[0], cmd[i], MI_LRI_LRM_CS_MMIO);

        if (!cs_reg_write_allowed(e, off)) {
            cs_privilege_refused(e, cmd[0], off);
            return CS_NEXT;
        }
    }
    for (unsigned i = 1; i < len && e->state != INTEL_CS_HALTED; i += 2) {
        intel_mmio_write(e->gpu,
                         cs_reg_offset(e, cmd[0], cmd[i], MI_LRI_LRM_CS_MMIO),
                         cmd[i + 1], bytes);
    }
    return e->state == INTEL_CS_HALTED || e->state == INTEL_CS_IDLE ?
           CS_STOP : CS_NEXT;
}

int cs_mi_store_register_mem(IntelEngine *e, const CsCmd *c,
                             const uint32_t *cmd, unsigned len)
{
    bool ggtt = cmd[0] & MI_GLOBAL_GTT;
    uint32_t v = intel_mmio_read(e->gpu, cs_reg_offset(e, cmd[0], cmd[1],
                                                       MI_LRI_LRM_CS_MMIO));

    /* The read is always done; the store needs privilege for the GGTT. */
    if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, cmd[0], cs_addr48(cmd[2], cmd[3]),
                               "MI_STORE_REGISTER_MEM to the GGTT");
        return CS_NEXT;
    }
    return cs_write32(e, !ggtt && intel_engine_ppgtt(e),
                      cs_addr48(cmd[2] & ~3u, cmd[3]), v) ? CS_STOP : CS_NEXT;
}

int cs_mi_load_register_mem(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                            unsigned len)
{
    bool ggtt = cmd[0] & MI_GLOBAL_GTT;
    uint32_t off = cs_reg_offset(e, cmd[0], cmd[1], MI_LRI_LRM_CS_MMIO), v;

    /* "Converted to NOOP" with Use Global GTT or a register not listed. */
    if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, cmd[0], cs_addr48(cmd[2], cmd[3]),
                               "MI_LOAD_REGISTER_MEM from the GGTT");
        return CS_NEXT;
    }
    if (!cs_reg_write_allowed(e, off)) {
        cs_privilege_refused(e, cmd[0], off);
        return CS_NEXT;
    }
    if (cs_read32(e, !ggtt && intel_engine_ppgtt(e), cs_addr48(cmd[2] & ~3u, cmd[3]),
                  &v)) {
        return CS_STOP;
    }
    intel_mmio_write(e->gpu, off, v, 0xffffffff);
    return e->state == INTEL_CS_HALTED ? CS_STOP : CS_NEXT;
}

int cs_mi_load_register_reg(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                            unsigned len)
{
    uint32_t src = cs_reg_offset(e, cmd[0], cmd[1], MI_LRR_SOURCE_CS_MMIO);
    uint32_t dst = cs_reg_offset(e, cmd[0], cmd[2], MI_LRR_DEST_CS_MMIO);

    /* "Register write to a Privileged Register is discarded" (Vol 8). */
    if (!cs_reg_write_allowed(e, dst)) {
        cs_privilege_refused(e, cmd[0], dst);
        return CS_NEXT;
    }
    intel_mmio_write(e->gpu, dst, intel_mmio_read(e->gpu, src), 0xffffffff);
    return e->state == INTEL_CS_HALTED ? CS_STOP : CS_NEXT;
}

int cs_mi_mem_to_mem(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                     unsigned len)
{
    bool src_ggtt = cmd[0] & MI_COPY_MEM_MEM_SRC_GGTT;
    bool dst_ggtt = cmd[0] & MI_COPY_MEM_MEM_DST_GGTT;
    uint32_t v;

    if ((src_ggtt || dst_ggtt) && !cs_privileged(e)) {
        cs_privilege_violation(e, cmd[0], cs_addr48(cmd[1], cmd[2]),
                               "MI_COPY_MEM_MEM in the GGTT");
        return CS_NEXT;
    }
    if (cs_read32(e, !src_ggtt && intel_engine_ppgtt(e), cs_addr48(cmd[3] & ~3u, cmd[4]),
                  &v) ||
        cs_write32(e, !dst_ggtt && intel_engine_ppgtt(e), cs_addr48(cmd[1] & ~3u, cmd[2]),
                   v)) {
        return CS_STOP;
    }
    return CS_NEXT;
}

/* ---- MI_ATOMIC ---- */

/*
 * MI_ATOMIC (Gen11 Command Reference, "MI_ATOMIC", whose text Intel's
 * media driver reproduces in mhw_mi_hwcmd_g11_X.h; Mesa's genxml
 * gen90.xml, which gen110.xml imports): a read-modify-write of 4, 8 or 16
 * bytes of memory ("Data Size", bits 20:19).  The ATOMIC OPCODE (15:8)
 * repeats the size in bits 7:5 ("Data size must match with the Atomic
 * Opcode"): 0x01-0x0f on dwords, 0x21-0x2f on qwords (Mesa's AND8B ...
 * PREDEC8B), and on octwords only 0x4e, CMP_WR16B.  The operations are the
 * L3 atomics the data port has too (sf-dataport-surface.c): PREDEC
 * returns the new value, every other the old one.  Bit 21 is reserved in
 * the Gen11 (and Gen9) Command Reference; genxml names it "Post-Sync
 * Operation", after Gen8, and no driver sets it: ignored.  CS STALL (bit
 * 17) asks the parser to wait for the atomic: the model's is done before
 * the next command.
 */
static bool mi_atomic_opcode_valid(unsigned size, unsigned opcode)
{
    unsigned op = opcode & 0x1f;

    if (size == MI_ATOMIC_OCTWORD >> MI_ATOMIC_SIZE_SHIFT) {
        return opcode << MI_ATOMIC_OPCODE_SHIFT == MI_ATOMIC_CMP_WR16B;
    }
    return size <= MI_ATOMIC_QWORD >> MI_ATOMIC_SIZE_SHIFT &&
           opcode >> 5 == size &&
           op >= MI_ATOMIC_AND >> MI_ATOMIC_OPCODE_SHIFT &&
           op <= MI_ATOMIC_PREDEC >> MI_ATOMIC_OPCODE_SHIFT;
}

/* The new value of a dword or qword (@bits) at @m; @op is bits 4:0. */
static uint64_t mi_atomic_op(unsigned op, unsigned bits, uint64_t m,
                             uint64_t s0, uint64_t s1)
{
    uint64_t mask = bits == 64 ? ~0ull : 0xffffffffull;
    int64_t sm = bits == 64 ? (int64_t)m : (int32_t)m;
    int64_t ss = bits == 64 ? (int64_t)s0 : (int32_t)s0;
    uint64_t v;

    switch (op << MI_ATOMIC_OPCODE_SHIFT) {
    case MI_ATOMIC_AND:
        v = m & s0;
        break;
    case MI_ATOMIC_OR:
        v = m | s0;
        break;
    case MI_ATOMIC_XOR:
        v = m ^ s0;
        break;
    case MI_ATOMIC_MOVE:
        v = s0;
        break;
    case MI_ATOMIC_INC:
        v = m + 1;
        break;
    case MI_ATOMIC_DEC:
    case MI_ATOMIC_PREDEC:
        v = m - 1;
        break;
    case MI_ATOMIC_ADD:
        v = m + s0;
        break;
    case MI_ATOMIC_SUB:
        v = m - s0;
        break;
    case MI_ATOMIC_RSUB:
        v = s0 - m;
        break;
    case MI_ATOMIC_IMAX:
        v = sm > ss ? m : s0;
        break;
    case MI_ATOMIC_IMIN:
        v = sm < ss ? m : s0;
        break;
    case MI_ATOMIC_UMAX:
        v = MAX(m, s0);
        break;
    case MI_ATOMIC_UMIN:
        v = MIN(m, s0);
        break;
    default:                                    /* MI_ATOMIC_CMP_WR */
        v = m == s0 ? s1 : m;
        break;
    }
    return v & mask;
}

/*
 * The @n dwords of each operand.  Inline, Operand1's dword i is the
 * command's dword 3 + 2i and Operand2's 4 + 2i: interleaved (the Command
 * Reference's and genxml's "Operand1 Data Dword 0" at dword 3, "Operand2
 * Data Dword 0" at 4, "Operand1 Data Dword 1" at 5 ...).  "Dwords 3..10
 * must be included based on the Data Size": 5 dwords for a dword atomic, 7
 * (blorp's MOVE8B of Gen11 clear colours) for a qword, 11 for an octword;
 * a longer command's extra dwords are not read (i915's GVT and NEO always
 * send 11).  Otherwise Operand1 is [CS_GPR1, CS_GPR0] and Operand2
 * [CS_GPR3, CS_GPR2].
 *
 * A command shorter than its operands: the parser takes a command's length
 * from its DWord Length (PRM "Command Streamer Command Formats") and the
 * hardware's Instruction Error is for command types and opcodes it does
 * not support, not for lengths, so it executes the atomic and parses the
 * next command where the length says.  What the missing operand dwords
 * hold is not defined; the model takes 0 (the address's high dword too,
 * in a command of 2 dwords) and logs the guest error (an increment or
 * decrement, which takes no operand, is exact).
 */
static void mi_atomic_operands(IntelEngine *e, const uint32_t *cmd,
                               unsigned len, unsigned n, uint32_t *op1,
                               uint32_t *op2)
{
    bool inline_data = cmd[0] & MI_ATOMIC_INLINE_DATA;
    unsigned need = inline_data ? 3 + 2 * n : 3;

    if (len < need) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: MI_ATOMIC of %u dwords where its data "
                     "size takes %u; the others taken as 0",
                     e->id, len, need);
    }
    for (unsigned i = 0; i < n; i++) {
        if (inline_data) {
            op1[i] = 3 + 2 * i < len ? cmd[3 + 2 * i] : 0;
            op2[i] = 4 + 2 * i < len ? cmd[4 + 2 * i] : 0;
        } else {
            op1[i] = intel_engine_reg(e, INTEL_RING_CS_GPR(0) + 4 * i);
            op2[i] = intel_engine_reg(e, INTEL_RING_CS_GPR(2) + 4 * i);
        }
    }
}

/* The new memory @res and the return data @ret of @n dwords at @mem. */
static void mi_atomic_compute(unsigned opcode, unsigned n,
                              const uint32_t *mem, const uint32_t *op1,
                              const uint32_t *op2, uint32_t *res,
                              uint32_t *ret)
{
    uint64_t m, v;

    if (n == 4) {                               /* CMP_WR16B */
        memcpy(res, memcmp(mem, op1, 16) ? mem : op2, 16);
        memcpy(ret, mem, 16);
        return;
    }
    m = mem[0] | (n == 2 ? (uint64_t)mem[1] << 32 : 0);
    v = mi_atomic_op(opcode & 0x1f, 32 * n, m,
                     op1[0] | (n == 2 ? (uint64_t)op1[1] << 32 : 0),
                     op2[0] | (n == 2 ? (uint64_t)op2[1] << 32 : 0));
    res[0] = v;
    res[1] = v >> 32;
    if ((opcode & 0x1f) << MI_ATOMIC_OPCODE_SHIFT == MI_ATOMIC_PREDEC) {
        m = v;
    }
    ret[0] = m;
    ret[1] = m >> 32;
}

int cs_mi_atomic(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                 unsigned len)
{
    bool ggtt = cmd[0] & MI_GLOBAL_GTT;
    bool ppgtt = !ggtt && intel_engine_ppgtt(e);
    unsigned size = (cmd[0] & MI_ATOMIC_SIZE_MASK) >> MI_ATOMIC_SIZE_SHIFT;
    unsigned opcode = (cmd[0] & MI_ATOMIC_OPCODE_MASK) >>
                      MI_ATOMIC_OPCODE_SHIFT;
    unsigned n = 1u << size;
    uint32_t mem[4] = { 0 }, op1[4], op2[4], res[4], ret[4];
    uint64_t addr;

    if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, cmd[0], cs_addr48(cmd[1], cmd[2]),
                               "MI_ATOMIC in the GGTT");
        return CS_NEXT;
    }
    /* Reserved size, reserved opcode, or a size and an opcode at odds. */
    if (!mi_atomic_opcode_valid(size, opcode)) {
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION, size == 3 ?
                           "MI_ATOMIC reserved data size" :
                           "MI_ATOMIC reserved opcode for its data size");
        return CS_STOP;
    }
    mi_atomic_operands(e, cmd, len, n, op1, op2);
    /* The data, naturally aligned (the address counts dwords). */
    addr = cs_addr48(cmd[1] & ~3u, len > 2 ? cmd[2] : 0) &
           ~(uint64_t)(4 * n - 1);
    if (cs_mem(e, ppgtt, addr, mem, 4 * n, false)) {
        return CS_STOP;
    }
    for (unsigned i = 0; i < n; i++) {
        mem[i] = GUINT32_FROM_LE(mem[i]);
    }
    mi_atomic_compute(opcode, n, mem, op1, op2, res, ret);
    /*
     * Return Data Control: [CS_GPR5, CS_GPR4] take the returned data, as
     * wide as the data: a dword the low dword of CS_GPR4 only, a qword
     * CS_GPR4, an octword CS_GPR4 (low qword) and CS_GPR5.
     */
    if (cmd[0] & MI_ATOMIC_RETURN_DATA) {
        for (unsigned i = 0; i < n; i++) {
            intel_engine_set_reg(e, INTEL_RING_CS_GPR(4) + 4 * i, ret[i]);
        }
    }
    for (unsigned i = 0; i < n; i++) {
        res[i] = GUINT32_TO_LE(res[i]);
    }
    return cs_mem(e, ppgtt, addr, res, 4 * n, true) ? CS_STOP : CS_NEXT;
}

int cs_mi_update_gtt(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                     unsigned len)
{
    /* dw1: GGTT address of the first page; then one qword PTE per page. */
    uint32_t first = cmd[1] >> 12;

    for (unsigned i = 2; i + 1 < len; i += 2) {
        intel_ggtt_write_pte(e->gpu, first + (i - 2) / 2,
                             cmd[i] | (uint64_t)cmd[i + 1] << 32);
    }
    return CS_NEXT;
}

/* An OA snapshot in the current report format, report ID in dword 0. */
int cs_mi_report_perf_count(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                            unsigned len)
{
    bool ggtt = cmd[1] & MI_REPORT_PERF_COUNT_GGTT;
    IntelGtEventArgs report = {
        .engine = e, .now = gpu_host_now_ns(&e->gpu->host),
        .ppgtt = !ggtt && intel_engine_ppgtt(e), .addr = cs_addr48(cmd[1] & ~63u, cmd[2]),
        .report_id = cmd[3],
    };

    if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, cmd[0], report.addr,
                               "MI_REPORT_PERF_COUNT to the GGTT");
        return CS_NEXT;
    }
    intel_gt_notify(e->gpu, INTEL_GT_PERF_REPORT, &report);
    if (report.ret) {
        return cs_fault(e, report.ppgtt, report.addr);
    }
    return CS_NEXT;
}

/* Post-sync operation @op (POST_SYNC_*) of MI_FLUSH_DW and PIPE_CONTROL. */
int cs_post_sync(IntelEngine *e, uint32_t hdr, unsigned op, bool index,
                 bool ggtt, uint64_t addr, uint64_t data, unsigned bytes)
{
    bool ppgtt = !ggtt && !index && intel_engine_ppgtt(e);

    if (op == POST_SYNC_NONE) {
        return CS_NEXT;
    }
    if ((ggtt || index) && !cs_privileged(e)) {
        cs_privilege_violation(e, hdr, addr, "post-sync write to the GGTT");
        return CS_NEXT;
    }
    if (index) {
        addr = cs_status_page(e, true) + (addr & 0xff8);
    }
    switch (op) {
    case POST_SYNC_WRITE_IMM:
        break;
    case POST_SYNC_WRITE_DEPTH:                 /* PS depth count */
        data = e->stats.primitives;
        bytes = 8;
        break;
    default:                                    /* POST_SYNC_WRITE_TIMESTAMP */
        data = cs_timestamp64(e);
        bytes = 8;
        break;
    }
    if (bytes == 8 ? cs_write64(e, ppgtt, addr & ~7ull, data)
                   : cs_write32(e, ppgtt, addr & ~3ull, data)) {
        return CS_STOP;
    }
    return CS_NEXT;
}

int cs_mi_flush_dw(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                   unsigned len)
{
    unsigned op = POST_SYNC_OP(cmd[0]);
    bool index = cmd[0] & MI_FLUSH_DW_STORE_INDEX;
    int r;

    if (len < 4) {
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION,
                           "MI_FLUSH_DW shorter than 4 dwords");
        return CS_STOP;
    }
    if (cmd[0] & MI_INVALIDATE_TLB) {
        intel_ppgtt_flush(e);
    }
    r = cs_post_sync(e, cmd[0], op, index, cmd[1] & MI_FLUSH_DW_USE_GTT,
                     cs_addr48(cmd[1] & ~7u, cmd[2]),
                     cmd[3] | (len >= 5 ? (uint64_t)cmd[4] << 32 : 0),
                     len >= 5 ? 8 : 4);
    if (r == CS_NEXT && (cmd[0] & MI_FLUSH_DW_NOTIFY)) {
        intel_engine_raise(e, INTEL_GT_FLUSH_NOTIFY);
    }
    return r;
}

int cs_mi_batch_buffer_start(IntelEngine *e, const CsCmd *c,
                             const uint32_t *cmd, unsigned len)
{
    bool ppgtt = cmd[0] & MI_BATCH_PPGTT;
    bool second = cmd[0] & MI_BATCH_SECOND_LEVEL;
    bool priv = cs_privileged(e) && !ppgtt;
    IntelCsLevel lvl;

    /* Chained or second level from a PPGTT batch: in the PPGTT too. */
    if (e->depth && e->level[e->depth].ppgtt) {
        ppgtt = true;
    }

    /* Predicated: taken only when MI_PREDICATE_RESULT_1 is set. */
    if ((cmd[0] & MI_BATCH_PREDICATE) &&
        !(intel_engine_reg(e, INTEL_RING_PREDICATE_RESULT_1) & 1)) {
        return CS_NEXT;
    }
    if (cmd[0] & MI_BATCH_ADD_OFFSET) {
        gpu_host_log(&e->gpu->host, GPU_LOG_UNIMP,
                     "engine %u: MI_BATCH_BUFFER_START add-offset not "
                     "modelled, offset ignored", e->id);
    }
    lvl = (IntelCsLevel) {
        .addr = cs_addr48(cmd[1] & ~3u, cmd[2]),
        .ppgtt = ppgtt && intel_engine_ppgtt(e),
        .privileged = priv,
    };
    if (ppgtt && !intel_engine_ppgtt(e)) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: PPGTT batch without a PPGTT context, "
                     "using the GGTT", e->id);
    }
    /*
     * "The command streamer contains three storage elements; one for the
     * ring head address, one for the batch head address, and one for the
     * second level batch head address.  When performing batch buffer
     * chaining, hardware simply updates the head pointer of the first
     * level batch address storage.  [...] When this bit is set, hardware
     * uses the 2nd level batch head address storage element" (Gen11
     * Command Reference, MI_BATCH_BUFFER_START, Second Level Batch
     * Buffer).  So from a second-level batch the bit chains within the
     * second level, and without it the first level continues at the new
     * address, the second-level batch left.  A workaround batch (after a
     * context restore) only chains.
     */
    if (e->depth == INTEL_CS_WA_LEVEL) {
        if (second) {
            intel_engine_error(e, INTEL_ERROR_INSTRUCTION,
                               "second-level batch from a context "
                               "workaround batch");
            return CS_STOP;
        }
    } else {
        e->depth = second && e->depth ? 2 : 1;
    }
    e->level[e->depth] = lvl;
    return CS_NEXT;
}
