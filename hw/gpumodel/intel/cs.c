/*
 * intel-gpu command streamer: fetches commands from a ring or from batch
 * buffers and executes them (PRM "Command Streamer Command Formats",
 * "Memory Interface Commands", "Execution Control Infrastructure").
 *
 * Execution is deferred work on the virtual clock: a doorbell (TAIL write,
 * execlist Load) only schedules the engine; each run executes at most a
 * budget of commands, then the next slice is scheduled after the modelled
 * time the slice took (and no sooner than CS_SLICE_GAP_NS), so a batch
 * that jumps to itself runs forever without holding the host's main loop.
 *
 * Cost model: every command costs CS_NS_PER_DWORD per dword plus its
 * table cost (flushes, post-sync writes), blits one nanosecond per 16
 * bytes and dispatched threads the time the EU array takes for them
 * (eu.c).  The sum is the engine's busy time, feeding timestamps and
 * statistics.  A slice's commands take effect when it runs, but its busy
 * time and EU work are done evenly over the following cost nanoseconds
 * (intel_cs_stats_at(), for the OA counters), and the engine starts its
 * next slice only after them.
 *
 * One table maps (command type, opcode) to name, length rule, where it
 * may run and its handler.  Handlers run with the fetch position already
 * past the command; a handler that must wait (an unsatisfied semaphore)
 * returns CS_RETRY and the position is put back.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "intel-gpu.h"
#include "../gpumodel-math.h"
#include "tiling.h"

#define CS_SLICE_BUDGET     2048        /* work units per slice */
#define CS_SLICE_GAP_NS     50000       /* minimum between slices */
#define CS_NS_PER_DWORD     1
#define CS_POLL_NS          10000       /* semaphore re-poll interval */
#define CS_SIGNAL_POLL_NS   100000      /* signal-mode safety re-poll */
#define CS_MAX_BLIT_BYTES   (64u << 20)    /* a 4K framebuffer is 33 MB */
#define CS_PREFETCH_DWORDS  256         /* per refill, within a page */

/* Handler results. */
enum {
    CS_NEXT,        /* done, continue with the next command */
    CS_RETRY,       /* not done: execute it again later */
    CS_STOP,        /* the engine stopped (error, idle, switch) */
};

typedef struct CsCmd CsCmd;
typedef int CsCmdFn(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                    unsigned len);

/* Where a command may run (the table's "Pipes" column). */
#define CS_ALL          0
#define CS_RCS_ONLY     (1u << 0)
#define CS_NOT_RCS      (1u << 1)
#define CS_NOT_BCS      (1u << 2)
#define CS_RCS_BCS      (1u << 3)
/* Refused in a non-privileged batch (PRM "User Mode Privileged Commands"). */
#define CS_PRIV         (1u << 4)
/* Skips are counted in stats and logged once as LOG_UNIMP. */
#define CS_UNIMP        (1u << 5)

struct CsCmd {
    const char *name;
    uint8_t fixed_len;      /* dwords, or 0: length field + 2 */
    uint16_t len_mask;      /* header bits holding length - 2 */
    uint16_t flags;
    uint16_t cost_ns;
    CsCmdFn *fn;
};

/* ---- helpers ---- */

static uint64_t addr48(uint32_t lo, uint32_t hi)
{
    return ((uint64_t)(hi & 0xffff) << 32) | lo;
}

bool intel_cs_execlists_mode(IntelEngine *e)
{
    return intel_engine_reg(e, INTEL_RING_MODE) &
           INTEL_GFX_DISABLE_LEGACY_MODE;
}

/* Is the command being executed from a privileged buffer? */
static bool cs_privileged(IntelEngine *e)
{
    if (e->depth) {
        return e->level[e->depth].privileged;
    }
    return !intel_cs_execlists_mode(e) ||
           (e->ctx_desc & INTEL_CTX_DESC_PRIVILEGE);
}

/* The address space of accesses that do not select the GGTT. */
static bool cs_ppgtt(IntelEngine *e)
{
    return intel_cs_execlists_mode(e) && e->ctx_active && e->pml4;
}

void intel_cs_raise(IntelEngine *e, uint16_t bits)
{
    intel_irq_raise(e->gpu, e->klass, e->instance, bits);
}

/*
 * The hardware's error path: the status bit in ESR, reported in EIR (and
 * as the CS master error interrupt) unless EMR masks it; the engine stops
 * until reset.
 */
static void cs_report_error(IntelEngine *e, uint32_t error)
{
    intel_engine_set_reg(e, INTEL_RING_ESR,
                         intel_engine_reg(e, INTEL_RING_ESR) | error);
    if (!(intel_engine_reg(e, INTEL_RING_EMR) & error)) {
        intel_engine_set_reg(e, INTEL_RING_EIR,
                             intel_engine_reg(e, INTEL_RING_EIR) | error);
        intel_cs_raise(e, INTEL_GT_CS_MASTER_ERROR);
    }
}

void intel_cs_error(IntelEngine *e, uint32_t error, const char *why)
{
    gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                 "engine %u: %s; engine halted", e->id, why);
    cs_report_error(e, error);
    intel_cs_set_state(e, INTEL_CS_HALTED);
    gpu_host_timer_del(&e->gpu->host, e->timer);
    intel_cs_sync_registers(e);
    gpu_host_trace(&e->gpu->host, INTEL_TRACE_ENGINE_ERROR, e->id, error,
                   (uint64_t)intel_engine_reg(e, INTEL_RING_ACTHD_UDW) << 32 |
                   intel_engine_reg(e, INTEL_RING_ACTHD));
}

/* A privileged command in a non-privileged batch is dropped and flagged. */
static void cs_privilege_violation(IntelEngine *e, const char *what)
{
    gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                 "engine %u: %s refused in a non-privileged batch",
                 e->id, what);
    cs_report_error(e, INTEL_ERROR_PRIVILEGE);
}

/*
 * A page fault of the engine at @addr: RING_FAULT_REG names the engine,
 * FAULT_TLB_DATA0/1 the page and address space, and the engine's
 * page-fault interrupt is raised.
 */
void intel_cs_page_fault(IntelEngine *e, bool ppgtt, uint64_t addr)
{
    IntelGpu *gpu = e->gpu;

    intel_reg_set(gpu, INTEL_RING_FAULT_REG,
                  1u | (uint32_t)e->klass << 12 | (uint32_t)e->instance << 3);
    intel_reg_set(gpu, INTEL_FAULT_TLB_DATA0, addr >> 12);
    intel_reg_set(gpu, INTEL_FAULT_TLB_DATA1,
                  ((addr >> 44) & 0xf) | (ppgtt ? 0 : 1u << 4));
    intel_cs_raise(e, INTEL_GT_PAGE_FAULT);
}

/* A page fault of a command also stops the engine until reset. */
static int cs_fault(IntelEngine *e, bool ppgtt, uint64_t addr)
{
    intel_cs_page_fault(e, ppgtt, addr);
    intel_cs_error(e, INTEL_ERROR_PAGE_TABLE,
                   ppgtt ? "PPGTT page fault" : "GGTT page fault");
    return CS_STOP;
}

/* Memory access from a command; a failure is the engine's page fault. */
static int cs_mem(IntelEngine *e, bool ppgtt, uint64_t addr, void *buf,
                  size_t len, bool write)
{
    if (intel_vm_rw(e, ppgtt, addr, buf, len, write)) {
        cs_fault(e, ppgtt, addr);
        return -1;
    }
    return 0;
}

static int cs_write32(IntelEngine *e, bool ppgtt, uint64_t addr, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    return cs_mem(e, ppgtt, addr, &v, 4, true);
}

static int cs_write64(IntelEngine *e, bool ppgtt, uint64_t addr, uint64_t v)
{
    v = GUINT64_TO_LE(v);
    return cs_mem(e, ppgtt, addr, &v, 8, true);
}

static int cs_read32(IntelEngine *e, bool ppgtt, uint64_t addr, uint32_t *v)
{
    if (cs_mem(e, ppgtt, addr, v, 4, false)) {
        return -1;
    }
    *v = GUINT32_FROM_LE(*v);
    return 0;
}

/* Where "store data index" lands: the context's PPHWSP or the HWSP. */
static uint64_t cs_status_page(IntelEngine *e, bool per_process)
{
    if (per_process && intel_cs_execlists_mode(e) && e->ctx_active) {
        return e->ctx_desc & INTEL_CTX_DESC_LRCA_MASK;
    }
    return intel_engine_reg(e, INTEL_RING_HWS_PGA) & ~0xfffu;
}

/* Command-streamer timestamp ticks in @ns nanoseconds. */
uint64_t intel_engine_timestamp(IntelGpu *gpu, uint64_t ns)
{
    uint64_t hz = intel_cs_timestamp_hz(gpu);

    return ns / 1000000000u * hz + ns % 1000000000u * hz / 1000000000u;
}

static uint64_t cs_timestamp64(IntelEngine *e)
{
    return intel_engine_timestamp(e->gpu, gpu_host_now_ns(&e->gpu->host));
}

/* CS MMIO remap: render-CS offsets address the executing engine. */
static uint32_t cs_reg_offset(IntelEngine *e, uint32_t hdr, uint32_t off,
                              uint32_t remap_bit)
{
    off &= 0x7ffffc;
    if ((hdr & remap_bit) && off >= INTEL_RCS0_BASE &&
        off < INTEL_RCS0_BASE + 0x800) {
        off = off - INTEL_RCS0_BASE + e->base;
    }
    return off;
}

/* A register write from a command stream, subject to privilege. */
static bool cs_reg_write_allowed(IntelEngine *e, uint32_t off)
{
    return cs_privileged(e) ||
           intel_cs_nonpriv_write_allowed(e->gpu, e->id, off);
}

static uint64_t gpr_get(IntelEngine *e, unsigned n)
{
    return (uint64_t)intel_engine_reg(e, INTEL_RING_CS_GPR(n) + 4) << 32 |
           intel_engine_reg(e, INTEL_RING_CS_GPR(n));
}

static void gpr_set(IntelEngine *e, unsigned n, uint64_t v)
{
    intel_engine_set_reg(e, INTEL_RING_CS_GPR(n), v);
    intel_engine_set_reg(e, INTEL_RING_CS_GPR(n) + 4, v >> 32);
}

/* ---- MI commands ---- */

static int mi_noop(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                   unsigned len)
{
    /* Identification number write enable: bits 21:0 go to NOPID. */
    if (cmd[0] & (1u << 22)) {
        intel_engine_set_reg(e, INTEL_RING_NOPID, cmd[0] & 0x3fffff);
    }
    return CS_NEXT;
}

static int mi_accept(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                     unsigned len)
{
    return CS_NEXT;
}

/* Displays events, legacy contexts: no display and no legacy contexts. */
static int mi_unimp(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                    unsigned len)
{
    gpu_host_log(&e->gpu->host, GPU_LOG_UNIMP,
                 "engine %u: %s not modelled, skipped", e->id, c->name);
    return CS_NEXT;
}

static int mi_user_interrupt(IntelEngine *e, const CsCmd *c,
                             const uint32_t *cmd, unsigned len)
{
    intel_cs_raise(e, INTEL_GT_RENDER_USER_INTERRUPT);
    return CS_NEXT;
}

/* An arbitration point: switch if a new execlist waits. */
static int cs_arbitrate(IntelEngine *e)
{
    if (e->arb_enabled && e->load_pending &&
        intel_execlists_arbitrate(e)) {
        return CS_STOP;
    }
    return CS_NEXT;
}

static int mi_arb_check(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                        unsigned len)
{
    return cs_arbitrate(e);
}

static int mi_arb_on_off(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                         unsigned len)
{
    e->arb_enabled = cmd[0] & 1;
    return CS_NEXT;
}

static int mi_report_head(IntelEngine *e, const CsCmd *c,
                          const uint32_t *cmd, unsigned len)
{
    /* Ring head pointer storage: HWSP dword 4. */
    cs_write32(e, false, cs_status_page(e, false) + 16,
               intel_engine_reg(e, INTEL_RING_HEAD));
    return e->state == INTEL_CS_HALTED ? CS_STOP : CS_NEXT;
}

/* A workaround batch ended: the next one, or back to the context. */
static void cs_wa_done(IntelEngine *e)
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
void intel_cs_start_wa_batches(IntelEngine *e)
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

static int mi_batch_buffer_end(IntelEngine *e, const CsCmd *c,
                               const uint32_t *cmd, unsigned len)
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

/* MI_SET_PREDICATE modes: when following commands become NOOPs. */
static bool set_predicate_noop(IntelEngine *e, uint32_t mode)
{
    uint32_t r = intel_engine_reg(e, INTEL_RING_PREDICATE_RESULT) & 1;
    uint32_t r2 = intel_engine_reg(e, INTEL_RING_PREDICATE_RESULT_2) & 1;

    switch (mode) {
    case 0: return false;           /* NOOP never */
    case 1: return !r2;             /* NOOP on result2 clear */
    case 2: return r2;              /* NOOP on result2 set */
    case 3: return !r;              /* NOOP on result clear */
    case 4: return r;               /* NOOP on result set */
    case 5: return false;           /* execute when one slice enabled */
    case 6: case 7: return true;    /* two or three slices: we have one */
    default: return true;           /* NOOP always */
    }
}

static int mi_set_predicate(IntelEngine *e, const CsCmd *c,
                            const uint32_t *cmd, unsigned len)
{
    e->set_predicate = cmd[0] & 0xf;
    intel_engine_set_reg(e, INTEL_RING_SET_PREDICATE_RESULT,
                         set_predicate_noop(e, e->set_predicate));
    return CS_NEXT;
}

static uint64_t reg64(IntelEngine *e, uint32_t off)
{
    return (uint64_t)intel_engine_reg(e, off + 4) << 32 |
           intel_engine_reg(e, off);
}

/* MI_PREDICATE: load, combine and compare operations (RCS). */
static int mi_predicate(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                        unsigned len)
{
    uint64_t src0 = reg64(e, INTEL_RING_PREDICATE_SRC0);
    uint64_t src1 = reg64(e, INTEL_RING_PREDICATE_SRC1);
    uint64_t data = reg64(e, INTEL_RING_PREDICATE_DATA);
    uint32_t load_op = (cmd[0] >> 6) & 3, combine = (cmd[0] >> 3) & 3;
    bool p = intel_engine_reg(e, INTEL_RING_PREDICATE_RESULT) & 1, v;

    switch (cmd[0] & 3) {
    case 0: v = true; break;                    /* COMPARE_TRUE */
    case 1: v = false; break;                   /* COMPARE_FALSE */
    case 2: v = src0 == src1; break;            /* SRCS_EQUAL */
    default: v = src0 - src1 == data; break;    /* DELTAS_EQUAL */
    }
    intel_engine_set_reg(e, INTEL_RING_PREDICATE_DATA, src0 - src1);
    intel_engine_set_reg(e, INTEL_RING_PREDICATE_DATA + 4,
                         (src0 - src1) >> 32);
    if (load_op == 0) {                         /* LOAD_KEEP */
        return CS_NEXT;
    }
    if (load_op == 3) {                         /* LOAD_LOADINV */
        v = !v;
    } else if (load_op != 2) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: MI_PREDICATE reserved load operation",
                     e->id);
        return CS_NEXT;
    }
    switch (combine) {
    case 0: p = v; break;
    case 1: p = p && v; break;
    case 2: p = p || v; break;
    default: p = p != v; break;
    }
    intel_engine_set_reg(e, INTEL_RING_PREDICATE_RESULT, p);
    return CS_NEXT;
}

/* ---- CS ALU ---- */

enum {
    ALU_SRCA = 0x20, ALU_SRCB = 0x21,
    ALU_ACCU = 0x31, ALU_ZF = 0x32, ALU_CF = 0x33,
};

static bool alu_read(IntelEngine *e, unsigned op, uint64_t *v)
{
    if (op < 16) {
        *v = gpr_get(e, op);
    } else if (op == ALU_SRCA) {
        *v = e->srca;
    } else if (op == ALU_SRCB) {
        *v = e->srcb;
    } else if (op == ALU_ACCU) {
        *v = e->accu;
    } else if (op == ALU_ZF) {
        *v = e->zf ? ~0ull : 0;
    } else if (op == ALU_CF) {
        *v = e->cf ? ~0ull : 0;
    } else {
        return false;
    }
    return true;
}

static uint64_t alu_shift_amount(uint64_t b)
{
    static const unsigned steps[] = { 32, 16, 8, 4, 2, 1 };

    for (unsigned i = 0; i < G_N_ELEMENTS(steps); i++) {
        if (b >= steps[i]) {
            return steps[i];
        }
    }
    return 0;
}

static void alu_result(IntelEngine *e, uint64_t v, bool cf)
{
    e->accu = v;
    e->zf = v == 0;
    e->cf = cf;
}

/* One ALU instruction; false if it is malformed. */
static bool alu_exec(IntelEngine *e, uint32_t insn, bool ppgtt)
{
    unsigned opcode = insn >> 20, op1 = (insn >> 10) & 0x3ff;
    unsigned op2 = insn & 0x3ff;
    uint64_t a = e->srca, b = e->srcb, v;

    switch (opcode) {
    case 0x000: case 0x001: case 0x002:         /* NOOP, FENCE_RD/WR */
        return true;
    case 0x080: case 0x480:                     /* LOAD, LOADINV */
        if ((op1 != ALU_SRCA && op1 != ALU_SRCB) || !alu_read(e, op2, &v)) {
            return false;
        }
        v = opcode == 0x480 ? ~v : v;
        *(op1 == ALU_SRCA ? &e->srca : &e->srcb) = v;
        return true;
    case 0x081: case 0x481:                     /* LOAD0, LOAD1 */
        if (op1 != ALU_SRCA && op1 != ALU_SRCB) {
            return false;
        }
        /*
         * LOAD1 is LOAD0 with the "invert" prefix: all ones (Mesa's
         * mi_builder emits it for UINT64_MAX).
         */
        *(op1 == ALU_SRCA ? &e->srca : &e->srcb) =
            opcode == 0x481 ? ~0ull : 0;
        return true;
    case 0x082:                                 /* LOADIND Rn, *ACCU */
        if (op1 >= 16) {
            return false;
        }
        if (cs_mem(e, ppgtt, e->accu & ~7ull, &v, 8, false)) {
            return true;
        }
        gpr_set(e, op1, GUINT64_FROM_LE(v));
        return true;
    case 0x100: alu_result(e, a + b, a + b < a); return true;
    case 0x101: alu_result(e, a - b, a < b); return true;
    case 0x102: alu_result(e, a & b, false); return true;
    case 0x103: alu_result(e, a | b, false); return true;
    case 0x104: alu_result(e, a ^ b, false); return true;
    case 0x105: alu_result(e, a << alu_shift_amount(b), false); return true;
    case 0x106: alu_result(e, a >> alu_shift_amount(b), false); return true;
    case 0x107:
        alu_result(e, (uint64_t)((int64_t)a >> alu_shift_amount(b)), false);
        return true;
    case 0x180: case 0x580:                     /* STORE, STOREINV */
        if (op1 >= 16 || (op2 != ALU_ACCU && op2 != ALU_ZF &&
                          op2 != ALU_CF && op2 != ALU_SRCA &&
                          op2 != ALU_SRCB)) {
            return false;
        }
        alu_read(e, op2, &v);
        gpr_set(e, op1, opcode == 0x580 ? ~v : v);
        return true;
    case 0x181:                                 /* STOREIND *ACCU, Rn */
        if (op2 >= 16) {
            return false;
        }
        cs_write64(e, ppgtt, e->accu & ~7ull, gpr_get(e, op2));
        return true;
    default:
        return false;
    }
}

static int mi_math(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                   unsigned len)
{
    bool ppgtt = e->depth ? e->level[e->depth].ppgtt : false;

    for (unsigned i = 1; i < len && e->state != INTEL_CS_HALTED; i++) {
        if (!alu_exec(e, cmd[i], ppgtt)) {
            gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                         "engine %u: MI_MATH instruction 0x%08x invalid, "
                         "ignored", e->id, cmd[i]);
        }
    }
    return e->state == INTEL_CS_HALTED ? CS_STOP : CS_NEXT;
}

/* ---- semaphores ---- */

static bool sem_compare(unsigned op, uint32_t sad, uint32_t sdd)
{
    switch (op) {
    case 0: return sad > sdd;
    case 1: return sad >= sdd;
    case 2: return sad < sdd;
    case 3: return sad <= sdd;
    case 4: return sad == sdd;
    default: return sad != sdd;
    }
}

static int mi_semaphore_wait(IntelEngine *e, const CsCmd *c,
                             const uint32_t *cmd, unsigned len)
{
    bool ggtt = cmd[0] & (1u << 22), poll = cmd[0] & (1u << 15);
    unsigned op = (cmd[0] >> 12) & 7;
    uint32_t sad;

    if (op > 5) {
        intel_cs_error(e, INTEL_ERROR_INSTRUCTION,
                       "MI_SEMAPHORE_WAIT with a reserved compare operation");
        return CS_STOP;
    }
    if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, "MI_SEMAPHORE_WAIT in the GGTT");
        return CS_NEXT;
    }
    if (cs_read32(e, !ggtt && cs_ppgtt(e), addr48(cmd[2] & ~3u, cmd[3]),
                  &sad)) {
        return CS_STOP;
    }
    if (sem_compare(op, sad, cmd[1])) {
        return CS_NEXT;
    }
    /*
     * Unsuccessful: wait and poll again.  It is also a preemption point,
     * taken in cs_step once the position is back at this command, so a
     * preempted context re-evaluates the wait when it is resubmitted.
     */
    intel_cs_set_state(e, INTEL_CS_WAITING);
    gpu_host_timer_mod(&e->gpu->host, e->timer,
                       gpu_host_now_ns(&e->gpu->host) +
                       (poll ? CS_POLL_NS : CS_SIGNAL_POLL_NS));
    return CS_RETRY;
}

/* Engine numbering of MI_SEMAPHORE_SIGNAL's target engine select. */
static const IntelEngineId signal_target[8] = {
    INTEL_RCS0, INTEL_VCS0, INTEL_BCS0, INTEL_VECS0,
    INTEL_VCS1, INTEL_VCS2, INTEL_VCS3, INTEL_VECS1,
};

static int mi_semaphore_signal(IntelEngine *e, const CsCmd *c,
                               const uint32_t *cmd, unsigned len)
{
    IntelEngine *t = &e->gpu->engine[signal_target[(cmd[0] >> 15) & 7]];

    if (t->state == INTEL_CS_WAITING) {
        intel_cs_kick(t);
    }
    return CS_NEXT;
}

/* ---- stores and loads ---- */

static int mi_store_data_imm(IntelEngine *e, const CsCmd *c,
                             const uint32_t *cmd, unsigned len)
{
    bool ggtt = cmd[0] & (1u << 22);
    uint64_t addr = addr48(cmd[1], cmd[2]);
    uint32_t data[2];

    if (len != 4 && len != 5) {
        intel_cs_error(e, INTEL_ERROR_INSTRUCTION,
                       "MI_STORE_DATA_IMM length is not 4 or 5");
        return CS_STOP;
    }
    if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, "MI_STORE_DATA_IMM to the GGTT");
        return CS_NEXT;
    }
    data[0] = GUINT32_TO_LE(cmd[3]);
    data[1] = GUINT32_TO_LE(len == 5 ? cmd[4] : 0);
    if (cs_mem(e, !ggtt && cs_ppgtt(e), addr & ~3ull, data, (len - 3) * 4,
               true)) {
        return CS_STOP;
    }
    return CS_NEXT;
}

static int mi_store_data_index(IntelEngine *e, const CsCmd *c,
                               const uint32_t *cmd, unsigned len)
{
    uint64_t hws = cs_status_page(e, cmd[0] & (1u << 21));
    uint32_t data[2] = { GUINT32_TO_LE(cmd[2]),
                         GUINT32_TO_LE(len == 4 ? cmd[3] : 0) };

    if (len != 3 && len != 4) {
        intel_cs_error(e, INTEL_ERROR_INSTRUCTION,
                       "MI_STORE_DATA_INDEX length is not 3 or 4");
        return CS_STOP;
    }
    return cs_mem(e, false, hws + (cmd[1] & 0xffc), data, (len - 2) * 4,
                  true) ? CS_STOP : CS_NEXT;
}

static int mi_load_register_imm(IntelEngine *e, const CsCmd *c,
                                const uint32_t *cmd, unsigned len)
{
    if (!(len & 1)) {
        intel_cs_error(e, INTEL_ERROR_INSTRUCTION,
                       "MI_LOAD_REGISTER_IMM with an odd dword");
        return CS_STOP;
    }
    /* A privileged register anywhere makes the whole command a NOOP. */
    for (unsigned i = 1; i < len; i += 2) {
        uint32_t off = cs_reg_offset(e, cmd[0], cmd[i], 1u << 19);

        if (!cs_reg_write_allowed(e, off)) {
            cs_privilege_violation(e, "MI_LOAD_REGISTER_IMM to a "
                                   "privileged register");
            return CS_NEXT;
        }
    }
    for (unsigned i = 1; i < len && e->state != INTEL_CS_HALTED; i += 2) {
        intel_mmio_write(e->gpu, cs_reg_offset(e, cmd[0], cmd[i], 1u << 19),
                         cmd[i + 1], 0xffffffff);
    }
    return e->state == INTEL_CS_HALTED || e->state == INTEL_CS_IDLE ?
           CS_STOP : CS_NEXT;
}

static int mi_store_register_mem(IntelEngine *e, const CsCmd *c,
                                 const uint32_t *cmd, unsigned len)
{
    bool ggtt = cmd[0] & (1u << 22);
    uint32_t v = intel_mmio_read(e->gpu,
                                 cs_reg_offset(e, cmd[0], cmd[1], 1u << 19));

    /* The read is always done; the store needs privilege for the GGTT. */
    if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, "MI_STORE_REGISTER_MEM to the GGTT");
        return CS_NEXT;
    }
    return cs_write32(e, !ggtt && cs_ppgtt(e),
                      addr48(cmd[2] & ~3u, cmd[3]), v) ? CS_STOP : CS_NEXT;
}

static int mi_load_register_mem(IntelEngine *e, const CsCmd *c,
                                const uint32_t *cmd, unsigned len)
{
    bool ggtt = cmd[0] & (1u << 22);
    uint32_t off = cs_reg_offset(e, cmd[0], cmd[1], 1u << 19), v;

    if ((ggtt || !cs_reg_write_allowed(e, off)) && !cs_privileged(e)) {
        cs_privilege_violation(e, "MI_LOAD_REGISTER_MEM");
        return CS_NEXT;
    }
    if (cs_read32(e, !ggtt && cs_ppgtt(e), addr48(cmd[2] & ~3u, cmd[3]),
                  &v)) {
        return CS_STOP;
    }
    intel_mmio_write(e->gpu, off, v, 0xffffffff);
    return e->state == INTEL_CS_HALTED ? CS_STOP : CS_NEXT;
}

static int mi_load_register_reg(IntelEngine *e, const CsCmd *c,
                                const uint32_t *cmd, unsigned len)
{
    uint32_t src = cs_reg_offset(e, cmd[0], cmd[1], 1u << 16);
    uint32_t dst = cs_reg_offset(e, cmd[0], cmd[2], 1u << 17);

    if (!cs_reg_write_allowed(e, dst)) {
        cs_privilege_violation(e, "MI_LOAD_REGISTER_REG to a privileged "
                               "register");
        return CS_NEXT;
    }
    intel_mmio_write(e->gpu, dst, intel_mmio_read(e->gpu, src), 0xffffffff);
    return e->state == INTEL_CS_HALTED ? CS_STOP : CS_NEXT;
}

static int mi_mem_to_mem(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                         unsigned len)
{
    bool src_ggtt = cmd[0] & (1u << 22), dst_ggtt = cmd[0] & (1u << 21);
    uint32_t v;

    if ((src_ggtt || dst_ggtt) && !cs_privileged(e)) {
        cs_privilege_violation(e, "MI_COPY_MEM_MEM in the GGTT");
        return CS_NEXT;
    }
    if (cs_read32(e, !src_ggtt && cs_ppgtt(e), addr48(cmd[3] & ~3u, cmd[4]),
                  &v) ||
        cs_write32(e, !dst_ggtt && cs_ppgtt(e), addr48(cmd[1] & ~3u, cmd[2]),
                   v)) {
        return CS_STOP;
    }
    return CS_NEXT;
}

/* MI_ATOMIC opcodes (low bits; +0x20 for qword, +0x40 for octword). */
enum {
    ATOMIC_AND = 1, ATOMIC_OR, ATOMIC_XOR, ATOMIC_MOVE, ATOMIC_INC,
    ATOMIC_DEC, ATOMIC_ADD, ATOMIC_SUB, ATOMIC_RSUB, ATOMIC_IMAX,
    ATOMIC_IMIN, ATOMIC_UMAX, ATOMIC_UMIN, ATOMIC_CMP_WR, ATOMIC_PREDEC,
};

static bool atomic_op(unsigned op, unsigned bits, uint64_t m, uint64_t s0,
                      uint64_t s1, uint64_t *out)
{
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    int64_t sm = bits == 64 ? (int64_t)m : (int32_t)m;
    int64_t ss = bits == 64 ? (int64_t)s0 : (int32_t)s0;

    switch (op) {
    case ATOMIC_AND: *out = m & s0; break;
    case ATOMIC_OR: *out = m | s0; break;
    case ATOMIC_XOR: *out = m ^ s0; break;
    case ATOMIC_MOVE: *out = s0; break;
    case ATOMIC_INC: *out = m + 1; break;
    case ATOMIC_DEC: case ATOMIC_PREDEC: *out = m - 1; break;
    case ATOMIC_ADD: *out = m + s0; break;
    case ATOMIC_SUB: *out = m - s0; break;
    case ATOMIC_RSUB: *out = s0 - m; break;
    case ATOMIC_IMAX: *out = sm > ss ? m : s0; break;
    case ATOMIC_IMIN: *out = sm < ss ? m : s0; break;
    case ATOMIC_UMAX: *out = (m & mask) > (s0 & mask) ? m : s0; break;
    case ATOMIC_UMIN: *out = (m & mask) < (s0 & mask) ? m : s0; break;
    case ATOMIC_CMP_WR: *out = (m & mask) == (s0 & mask) ? s1 : m; break;
    default: return false;
    }
    *out &= mask;
    return true;
}

static int mi_atomic(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                     unsigned len)
{
    bool ggtt = cmd[0] & (1u << 22), inline_data = cmd[0] & (1u << 18);
    bool ret = cmd[0] & (1u << 16);
    unsigned size = (cmd[0] >> 19) & 3, op = (cmd[0] >> 8) & 0xff;
    unsigned bytes = 4u << size, n = bytes / 4;
    uint64_t addr = addr48(cmd[1] & ~3u, cmd[2]);
    bool ppgtt = !ggtt && cs_ppgtt(e);
    uint32_t mem[4] = { 0 }, src[8], res[4];

    if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, "MI_ATOMIC in the GGTT");
        return CS_NEXT;
    }
    if (size == 3 || (op >> 5) != size || (inline_data && len < 11)) {
        intel_cs_error(e, INTEL_ERROR_INSTRUCTION,
                       "MI_ATOMIC size, opcode and length disagree");
        return CS_STOP;
    }
    /*
     * Operand1 (src[0-3]): inline dwords 3, 5, 7, 9 or [CS_GPR1, CS_GPR0];
     * Operand2 (src[4-7]): dwords 4, 6, 8, 10 or [CS_GPR3, CS_GPR2].
     */
    for (unsigned i = 0; i < 4; i++) {
        src[i] = inline_data ? cmd[3 + 2 * i] :
                 intel_engine_reg(e, INTEL_RING_CS_GPR(0) + 4 * i);
        src[4 + i] = inline_data ? cmd[4 + 2 * i] :
                     intel_engine_reg(e, INTEL_RING_CS_GPR(2) + 4 * i);
    }
    if (cs_mem(e, ppgtt, addr & ~(uint64_t)(bytes - 1), mem, bytes, false)) {
        return CS_STOP;
    }
    for (unsigned i = 0; i < n; i++) {
        mem[i] = GUINT32_FROM_LE(mem[i]);
    }
    if (size == 2) {
        /* Octword: compare-and-write of 16 bytes only. */
        if ((op & 0x1f) != ATOMIC_CMP_WR) {
            gpu_host_log(&e->gpu->host, GPU_LOG_UNIMP,
                         "engine %u: MI_ATOMIC octword op 0x%x not "
                         "modelled, skipped", e->id, op);
            return CS_NEXT;
        }
        memcpy(res, memcmp(mem, src, 16) ? mem : &src[4], 16);
    } else {
        uint64_t m = mem[0] | (n == 2 ? (uint64_t)mem[1] << 32 : 0);
        uint64_t s0 = src[0] | (n == 2 ? (uint64_t)src[1] << 32 : 0);
        uint64_t s1 = src[4] | (n == 2 ? (uint64_t)src[5] << 32 : 0);
        uint64_t out;

        if (!atomic_op(op & 0x1f, n * 32, m, s0, s1, &out)) {
            intel_cs_error(e, INTEL_ERROR_INSTRUCTION,
                           "MI_ATOMIC reserved opcode");
            return CS_STOP;
        }
        res[0] = out;
        res[1] = out >> 32;
    }
    /* Return data: the old memory value in [CS_GPR5, CS_GPR4]. */
    if (ret) {
        for (unsigned i = 0; i < n; i++) {
            intel_engine_set_reg(e, INTEL_RING_CS_GPR(4) + 4 * i, mem[i]);
        }
    }
    for (unsigned i = 0; i < n; i++) {
        res[i] = GUINT32_TO_LE(res[i]);
    }
    return cs_mem(e, ppgtt, addr & ~(uint64_t)(bytes - 1), res, bytes, true) ?
           CS_STOP : CS_NEXT;
}

static int mi_update_gtt(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
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
static int mi_report_perf_count(IntelEngine *e, const CsCmd *c,
                                const uint32_t *cmd, unsigned len)
{
    bool ggtt = cmd[1] & 1;
    uint64_t addr = addr48(cmd[1] & ~63u, cmd[2]);

    if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, "MI_REPORT_PERF_COUNT to the GGTT");
        return CS_NEXT;
    }
    if (intel_oa_snapshot(e, !ggtt && cs_ppgtt(e), addr, cmd[3])) {
        return cs_fault(e, !ggtt && cs_ppgtt(e), addr);
    }
    return CS_NEXT;
}

/* Post-sync operation of MI_FLUSH_DW and PIPE_CONTROL. */
static int cs_post_sync(IntelEngine *e, unsigned op, bool index, bool ggtt,
                        uint64_t addr, uint64_t data, unsigned bytes)
{
    bool ppgtt = !ggtt && !index && cs_ppgtt(e);

    if (!op) {
        return CS_NEXT;
    }
    if ((ggtt || index) && !cs_privileged(e)) {
        cs_privilege_violation(e, "post-sync write to the GGTT");
        return CS_NEXT;
    }
    if (index) {
        addr = cs_status_page(e, true) + (addr & 0xff8);
    }
    switch (op) {
    case 1:                                     /* write immediate */
        break;
    case 2:                                     /* PS depth count */
        data = e->stats.primitives;
        bytes = 8;
        break;
    default:                                    /* timestamp */
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

static int mi_flush_dw(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                       unsigned len)
{
    unsigned op = (cmd[0] >> 14) & 3;
    bool index = cmd[0] & (1u << 21);
    int r;

    if (len < 4) {
        intel_cs_error(e, INTEL_ERROR_INSTRUCTION,
                       "MI_FLUSH_DW shorter than 4 dwords");
        return CS_STOP;
    }
    if (cmd[0] & (1u << 18)) {
        intel_ppgtt_flush(e);
    }
    r = cs_post_sync(e, op, index, cmd[1] & (1u << 2),
                     addr48(cmd[1] & ~7u, cmd[2]),
                     cmd[3] | (len >= 5 ? (uint64_t)cmd[4] << 32 : 0),
                     len >= 5 ? 8 : 4);
    if (r == CS_NEXT && (cmd[0] & (1u << 8))) {
        intel_cs_raise(e, INTEL_GT_FLUSH_NOTIFY);
    }
    return r;
}

static int mi_conditional_bb_end(IntelEngine *e, const CsCmd *c,
                                 const uint32_t *cmd, unsigned len)
{
    bool ggtt = cmd[0] & (1u << 22), mask_mode = cmd[0] & (1u << 19);
    uint64_t addr = addr48(cmd[2] & ~7u, cmd[3]);
    uint32_t v, m = ~0u;

    if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, "MI_CONDITIONAL_BATCH_BUFFER_END in the "
                               "GGTT");
        return CS_NEXT;
    }
    if (cs_read32(e, !ggtt && cs_ppgtt(e), addr, &v) ||
        (mask_mode && cs_read32(e, !ggtt && cs_ppgtt(e), addr + 4, &m))) {
        return CS_STOP;
    }
    /*
     * With "compare semaphore" (bit 21) the batch ends when the memory
     * value is not above the data; without it, never.
     */
    if ((cmd[0] & (1u << 21)) && (v & m) <= cmd[1] && e->depth) {
        mi_batch_buffer_end(e, c, cmd, len);
    }
    return CS_NEXT;
}

static int mi_batch_buffer_start(IntelEngine *e, const CsCmd *c,
                                 const uint32_t *cmd, unsigned len)
{
    bool ppgtt = cmd[0] & (1u << 8), second = cmd[0] & (1u << 22);
    bool priv = cs_privileged(e) && !ppgtt;
    IntelCsLevel lvl;

    /* Chained or second level from a PPGTT batch: in the PPGTT too. */
    if (e->depth && e->level[e->depth].ppgtt) {
        ppgtt = true;
    }

    /* Predicated: taken only when MI_PREDICATE_RESULT_1 is set. */
    if ((cmd[0] & (1u << 15)) &&
        !(intel_engine_reg(e, INTEL_RING_PREDICATE_RESULT_1) & 1)) {
        return CS_NEXT;
    }
    if (cmd[0] & (1u << 16)) {
        gpu_host_log(&e->gpu->host, GPU_LOG_UNIMP,
                     "engine %u: MI_BATCH_BUFFER_START add-offset not "
                     "modelled, offset ignored", e->id);
    }
    lvl = (IntelCsLevel) {
        .addr = addr48(cmd[1] & ~3u, cmd[2]),
        .ppgtt = ppgtt && cs_ppgtt(e),
        .privileged = priv,
    };
    if (ppgtt && !cs_ppgtt(e)) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: PPGTT batch without a PPGTT context, "
                     "using the GGTT", e->id);
    }
    if (e->depth == 0 || (second && e->depth == 1)) {
        e->depth++;                 /* first level, or second level */
    } else if (second) {
        intel_cs_error(e, INTEL_ERROR_INSTRUCTION,
                       "third-level batch buffer");
        return CS_STOP;
    }
    /* Otherwise chained: the new batch replaces the current one. */
    e->level[e->depth] = lvl;
    return CS_NEXT;
}

/* ---- render, media and blitter commands ---- */

static int pipe_control(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                        unsigned len)
{
    uint32_t dw1;
    int r;

    if (len < 6) {
        intel_cs_error(e, INTEL_ERROR_INSTRUCTION,
                       "PIPE_CONTROL shorter than 6 dwords");
        return CS_STOP;
    }
    dw1 = cmd[1];
    if (dw1 & (1u << 18)) {
        intel_ppgtt_flush(e);
    }
    r = cs_post_sync(e, (dw1 >> 14) & 3, dw1 & (1u << 21), dw1 & (1u << 24),
                     addr48(cmd[2] & ~3u, cmd[3]),
                     cmd[4] | (uint64_t)cmd[5] << 32, 8);
    if (r == CS_NEXT && (dw1 & (1u << 8))) {
        intel_cs_raise(e, INTEL_GT_FLUSH_NOTIFY);
    }
    return r;
}

/* @a * @b, saturating: the operands are guest-controlled. */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    uint64_t r;

    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* Thread groups of a GPGPU_WALKER: (dimension - start) in x, y and z. */
static uint64_t walker_groups(const uint32_t *cmd)
{
    uint64_t x = cmd[7] > cmd[5] ? cmd[7] - cmd[5] : 0;
    uint64_t y = cmd[10] > cmd[8] ? cmd[10] - cmd[8] : 0;
    uint64_t z = cmd[12] > cmd[11] ? cmd[12] - cmd[11] : 0;

    return mul_sat(mul_sat(x, y), z);
}

/*
 * 3D, media and GPGPU work is not executed: it is counted and skipped.
 * The thread dispatch the OA counters see is modelled from the command:
 * a 3DPRIMITIVE dispatches one SIMD8 vertex-shader thread per 8 vertices
 * (vertex count x instance count), a GPGPU_WALKER its threads per group
 * (thread width counter maximum + 1) times its groups, a MEDIA_OBJECT one
 * thread.  The threads' EU work (eu.c) takes engine time in cs_step().
 */
static int gfx_skip(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                    unsigned len)
{
    uint32_t op = cmd[0] >> 16;
    uint64_t threads;

    if (op == 0x7b00) {                     /* 3DPRIMITIVE */
        e->stats.primitives++;
        if (len >= 5) {
            uint64_t v = mul_sat(cmd[2], MAX(cmd[4], 1u));

            threads = v / 8 + (v % 8 != 0);
            e->stats.vs_threads += threads;
            intel_eu_dispatch(e, INTEL_EU_VS, threads);
        }
    } else if (op == 0x7105 && len >= 13) { /* GPGPU_WALKER */
        e->stats.walkers++;
        threads = mul_sat((cmd[4] & 0x3f) + 1, walker_groups(cmd));
        e->stats.gpgpu_threads += threads;
        intel_eu_dispatch(e, INTEL_EU_TS, threads);
    } else if (op == 0x7100) {              /* MEDIA_OBJECT */
        e->stats.walkers++;
        e->stats.gpgpu_threads++;
        intel_eu_dispatch(e, INTEL_EU_TS, 1);
    }
    e->stats.cmds_3d++;
    return CS_NEXT;
}

/*
 * Blits (PRM "Blitter Engine Command Formats"; Gen11 as i915 and IGT
 * program it).  A surface is tiled as the command says; for the legacy
 * XY commands "tiled" means X unless BCS_SWCTRL selects Y for the source
 * or destination (software sets it around the blit with
 * MI_LOAD_REGISTER_IMM).  Tiled pitches are in dwords.
 */
typedef struct BlitSurface {
    uint64_t addr;
    int64_t pitch;          /* bytes */
    unsigned x, y;          /* pixels */
    IntelTiling tiling;
} BlitSurface;

/* A surface from its address dwords, pitch field and x1,y1 dword. */
static BlitSurface blit_surface(const uint32_t *addr, uint32_t pitch,
                                uint32_t xy, IntelTiling tiling)
{
    int64_t p = (int16_t)(pitch & INTEL_XY_PITCH_MASK);

    return (BlitSurface) {
        .addr = addr48(addr[0], addr[1]),
        .pitch = tiling == INTEL_TILING_NONE ? p : 4 * p,
        .x = xy & 0xffff, .y = xy >> 16, .tiling = tiling,
    };
}

/* The legacy XY commands' tiling of a surface the command marks tiled. */
static IntelTiling blit_legacy_tiling(IntelEngine *e, bool tiled,
                                      uint32_t swctrl_y)
{
    if (!tiled) {
        return INTEL_TILING_NONE;
    }
    return intel_reg_get(e->gpu, INTEL_BCS_SWCTRL) & swctrl_y ?
           INTEL_TILING_Y : INTEL_TILING_X;
}

static bool blit_surface_ok(IntelEngine *e, const CsCmd *c,
                            const BlitSurface *s, unsigned cpp,
                            const char *which)
{
    uint32_t width = intel_tile_width(s->tiling, cpp);

    if (s->tiling != INTEL_TILING_NONE &&
        (!width || s->pitch <= 0 || s->pitch % width)) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: %s %s pitch %" G_GINT64_FORMAT " bytes "
                     "is not a multiple of its %u-byte tiles (%u bytes "
                     "per pixel), skipped", e->id, c->name, which,
                     s->pitch, width, cpp);
        return false;
    }
    return true;
}

static bool blit_check(IntelEngine *e, const CsCmd *c, const BlitSurface *dst,
                       const BlitSurface *src, uint64_t w, uint64_t h,
                       unsigned cpp)
{
    if (!blit_surface_ok(e, c, dst, cpp, "destination") ||
        (src && !blit_surface_ok(e, c, src, cpp, "source"))) {
        return false;
    }
    if (w * h * cpp > CS_MAX_BLIT_BYTES) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: %s of %" G_GUINT64_FORMAT " bytes exceeds "
                     "the model's limit, skipped", e->id, c->name,
                     w * h * cpp);
        return false;
    }
    return true;
}

/* Where byte @x (from the rectangle's left edge) of row @y of @s lives. */
static uint64_t blit_addr(const BlitSurface *s, unsigned cpp, uint64_t x,
                          unsigned y)
{
    return s->addr + intel_tile_offset(s->tiling, cpp, s->pitch,
                                       (uint64_t)s->x * cpp + x,
                                       (uint64_t)s->y + y);
}

/*
 * Read or write @n bytes of row @y of @s from byte @x on (from the
 * rectangle's left edge), in runs contiguous in memory: one access for a
 * linear row, one per OWord column of a Y tile.
 */
static int blit_row_rw(IntelEngine *e, bool ppgtt, const BlitSurface *s,
                       unsigned cpp, uint64_t x, unsigned y, uint8_t *buf,
                       size_t n, bool write)
{
    for (size_t done = 0, k; done < n; done += k) {
        k = MIN(n - done, intel_tile_span(s->tiling, cpp,
                                          (uint64_t)s->x * cpp + x + done));
        if (cs_mem(e, ppgtt, blit_addr(s, cpp, x + done, y), buf + done, k,
                   write)) {
            return -1;
        }
    }
    return 0;
}

/* Copy or fill a w x h rectangle of cpp-byte pixels, row by row. */
static int blit_rect(IntelEngine *e, const BlitSurface *dst,
                     const BlitSurface *src, uint32_t fill, unsigned w,
                     unsigned h, unsigned cpp)
{
    bool ppgtt = cs_ppgtt(e);
    uint8_t buf[4096];
    size_t row = (size_t)w * cpp;

    for (unsigned y = 0; y < h; y++) {
        for (size_t done = 0, n; done < row; done += n) {
            n = MIN(sizeof(buf), row - done);
            if (src) {
                if (blit_row_rw(e, ppgtt, src, cpp, done, y, buf, n, false)) {
                    return CS_STOP;
                }
            } else {
                for (size_t i = 0; i < n; i++) {
                    buf[i] = fill >> (8 * ((done + i) % cpp));
                }
            }
            if (blit_row_rw(e, ppgtt, dst, cpp, done, y, buf, n, true)) {
                return CS_STOP;
            }
        }
    }
    e->stats.blit_bytes += (uint64_t)row * h;
    return CS_NEXT;
}

/* XY_* color depth (dw1 bits 25:24) in bytes per pixel. */
static unsigned xy_cpp(uint32_t dw1)
{
    static const uint8_t cpp[4] = { 1, 2, 2, 4 };

    return cpp[(dw1 >> 24) & 3];
}

static int xy_color_blt(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                        unsigned len)
{
    unsigned cpp = xy_cpp(cmd[1]), rop = (cmd[1] >> 16) & 0xff;
    unsigned x1 = cmd[2] & 0xffff, y1 = cmd[2] >> 16;
    unsigned x2 = cmd[3] & 0xffff, y2 = cmd[3] >> 16;
    BlitSurface dst;

    if (len < 7 || x2 <= x1 || y2 <= y1) {
        return CS_NEXT;             /* empty rectangle: nothing drawn */
    }
    if (rop != 0xf0) {
        gpu_host_log(&e->gpu->host, GPU_LOG_UNIMP,
                     "engine %u: XY_COLOR_BLT ROP 0x%02x not modelled, "
                     "skipped", e->id, rop);
        return CS_NEXT;
    }
    dst = blit_surface(&cmd[4], cmd[1], cmd[2],
                       blit_legacy_tiling(e, cmd[0] & INTEL_XY_DST_TILED,
                                          INTEL_BCS_SWCTRL_DST_Y));
    if (!blit_check(e, c, &dst, NULL, x2 - x1, y2 - y1, cpp)) {
        return CS_NEXT;
    }
    return blit_rect(e, &dst, NULL, cmd[6], x2 - x1, y2 - y1, cpp);
}

static int xy_src_copy_blt(IntelEngine *e, const CsCmd *c,
                           const uint32_t *cmd, unsigned len)
{
    unsigned cpp = xy_cpp(cmd[1]), rop = (cmd[1] >> 16) & 0xff;
    unsigned x1 = cmd[2] & 0xffff, y1 = cmd[2] >> 16;
    unsigned x2 = cmd[3] & 0xffff, y2 = cmd[3] >> 16;
    BlitSurface dst, src;

    if (len < 10 || x2 <= x1 || y2 <= y1) {
        return CS_NEXT;
    }
    if (rop != 0xcc) {
        gpu_host_log(&e->gpu->host, GPU_LOG_UNIMP,
                     "engine %u: XY_SRC_COPY_BLT ROP 0x%02x not modelled, "
                     "skipped", e->id, rop);
        return CS_NEXT;
    }
    dst = blit_surface(&cmd[4], cmd[1], cmd[2],
                       blit_legacy_tiling(e, cmd[0] & INTEL_XY_DST_TILED,
                                          INTEL_BCS_SWCTRL_DST_Y));
    src = blit_surface(&cmd[8], cmd[7], cmd[6],
                       blit_legacy_tiling(e, cmd[0] & INTEL_XY_SRC_TILED,
                                          INTEL_BCS_SWCTRL_SRC_Y));
    if (!blit_check(e, c, &dst, &src, x2 - x1, y2 - y1, cpp)) {
        return CS_NEXT;
    }
    return blit_rect(e, &dst, &src, 0, x2 - x1, y2 - y1, cpp);
}

/* XY_FAST_COPY_BLT's tiling field (2 bits), Y made Yf by a dw1 bit. */
static IntelTiling fast_copy_tiling(uint32_t mode, bool yf)
{
    static const IntelTiling tiling[4] = {
        [INTEL_FAST_COPY_LINEAR] = INTEL_TILING_NONE,
        [INTEL_FAST_COPY_TILE_X] = INTEL_TILING_X,
        [INTEL_FAST_COPY_TILE_Y] = INTEL_TILING_Y,
        [INTEL_FAST_COPY_TILE_YS] = INTEL_TILING_YS,
    };

    mode &= 3;
    return mode == INTEL_FAST_COPY_TILE_Y && yf ? INTEL_TILING_YF
                                                : tiling[mode];
}

static int xy_fast_copy_blt(IntelEngine *e, const CsCmd *c,
                            const uint32_t *cmd, unsigned len)
{
    /* Color depth, dw1 bits 26:24 (IGT's XY_FAST_COPY_COLOR_DEPTH_*). */
    static const uint8_t cpp_of[8] = { 1, 2, 0, 4, 8, 16, 0, 0 };
    unsigned cpp = cpp_of[(cmd[1] >> 24) & 7];
    unsigned x1 = cmd[2] & 0xffff, y1 = cmd[2] >> 16;
    unsigned x2 = cmd[3] & 0xffff, y2 = cmd[3] >> 16;
    BlitSurface dst, src;

    if (len < 10 || x2 <= x1 || y2 <= y1) {
        return CS_NEXT;
    }
    if (!cpp) {
        intel_cs_error(e, INTEL_ERROR_INSTRUCTION,
                       "XY_FAST_COPY_BLT reserved color depth");
        return CS_STOP;
    }
    dst = blit_surface(&cmd[4], cmd[1], cmd[2],
                       fast_copy_tiling(cmd[0] >>
                                        INTEL_FAST_COPY_DST_TILING_SHIFT,
                                        cmd[1] & INTEL_FAST_COPY_DST_YF));
    src = blit_surface(&cmd[8], cmd[7], cmd[6],
                       fast_copy_tiling(cmd[0] >>
                                        INTEL_FAST_COPY_SRC_TILING_SHIFT,
                                        cmd[1] & INTEL_FAST_COPY_SRC_YF));
    if (!blit_check(e, c, &dst, &src, x2 - x1, y2 - y1, cpp)) {
        return CS_NEXT;
    }
    return blit_rect(e, &dst, &src, 0, x2 - x1, y2 - y1, cpp);
}

/* ---- the command table ---- */

#define MI1(n, f, fn_)  { .name = n, .fixed_len = 1, .flags = f, .fn = fn_ }
#define MIN_(n, m, f, cost, fn_) \
    { .name = n, .len_mask = m, .flags = f, .cost_ns = cost, .fn = fn_ }

/* Memory Interface commands, by opcode (bits 28:23). */
static const CsCmd mi_cmds[64] = {
    [0x00] = MI1("MI_NOOP", CS_ALL, mi_noop),
    [0x01] = MI1("MI_SET_PREDICATE", CS_ALL, mi_set_predicate),
    [0x02] = MI1("MI_USER_INTERRUPT", CS_ALL, mi_user_interrupt),
    [0x03] = MI1("MI_WAIT_FOR_EVENT", CS_RCS_BCS | CS_UNIMP, mi_unimp),
    [0x04] = MI1("MI_WAIT_FOR_EVENT_2", CS_RCS_BCS | CS_UNIMP, mi_unimp),
    [0x05] = MI1("MI_ARB_CHECK", CS_ALL, mi_arb_check),
    [0x07] = MI1("MI_REPORT_HEAD", CS_ALL, mi_report_head),
    [0x08] = MI1("MI_ARB_ON_OFF", CS_PRIV, mi_arb_on_off),
    [0x0a] = MI1("MI_BATCH_BUFFER_END", CS_ALL, mi_batch_buffer_end),
    [0x0b] = MI1("MI_SUSPEND_FLUSH", CS_ALL, mi_accept),
    [0x0c] = MI1("MI_PREDICATE", CS_RCS_ONLY, mi_predicate),
    [0x12] = MIN_("MI_LOAD_SCAN_LINES_INCL", 0x3f, CS_RCS_BCS | CS_UNIMP, 0,
                  mi_unimp),
    [0x13] = MIN_("MI_LOAD_SCAN_LINES_EXCL", 0x3f, CS_RCS_BCS | CS_UNIMP, 0,
                  mi_unimp),
    [0x14] = MIN_("MI_DISPLAY_FLIP", 0xff, CS_RCS_BCS | CS_PRIV | CS_UNIMP,
                  0, mi_unimp),
    [0x18] = MIN_("MI_SET_CONTEXT", 0xff, CS_RCS_ONLY | CS_PRIV | CS_UNIMP,
                  0, mi_unimp),
    [0x1a] = MIN_("MI_MATH", 0xff, CS_ALL, 0, mi_math),
    [0x1b] = MIN_("MI_SEMAPHORE_SIGNAL", 0xff, CS_ALL, 0,
                  mi_semaphore_signal),
    [0x1c] = MIN_("MI_SEMAPHORE_WAIT", 0xff, CS_ALL, 0, mi_semaphore_wait),
    [0x1d] = MIN_("MI_FORCE_WAKEUP", 0xff, CS_NOT_RCS, 0, mi_accept),
    [0x20] = MIN_("MI_STORE_DATA_IMM", 0x3ff, CS_ALL, 10,
                  mi_store_data_imm),
    [0x21] = MIN_("MI_STORE_DATA_INDEX", 0xff, CS_PRIV, 10,
                  mi_store_data_index),
    [0x22] = MIN_("MI_LOAD_REGISTER_IMM", 0xff, CS_ALL, 0,
                  mi_load_register_imm),
    [0x23] = MIN_("MI_UPDATE_GTT", 0x3ff, CS_PRIV, 0, mi_update_gtt),
    [0x24] = MIN_("MI_STORE_REGISTER_MEM", 0xff, CS_ALL, 10,
                  mi_store_register_mem),
    [0x26] = MIN_("MI_FLUSH_DW", 0x3f, CS_NOT_RCS, 100, mi_flush_dw),
    [0x27] = MIN_("MI_CLFLUSH", 0x3ff, CS_RCS_ONLY, 0, mi_accept),
    [0x28] = MIN_("MI_REPORT_PERF_COUNT", 0x3f, CS_RCS_ONLY, 100,
                  mi_report_perf_count),
    [0x29] = MIN_("MI_LOAD_REGISTER_MEM", 0xff, CS_ALL, 10,
                  mi_load_register_mem),
    [0x2a] = MIN_("MI_LOAD_REGISTER_REG", 0xff, CS_ALL, 0,
                  mi_load_register_reg),
    [0x2e] = MIN_("MI_MEM_TO_MEM", 0xff, CS_ALL, 10, mi_mem_to_mem),
    [0x2f] = MIN_("MI_ATOMIC", 0xff, CS_ALL, 20, mi_atomic),
    [0x31] = MIN_("MI_BATCH_BUFFER_START", 0xff, CS_ALL, 0,
                  mi_batch_buffer_start),
    [0x36] = MIN_("MI_CONDITIONAL_BATCH_BUFFER_END", 0xff, CS_ALL, 0,
                  mi_conditional_bb_end),
    [0x39] = MIN_("MI_PRT_BATCH_BUFFER_START", 0xff, CS_ALL | CS_UNIMP, 0,
                  mi_unimp),
};

/* Blitter (2D) commands, by opcode (bits 28:22). */
static const CsCmd blt_cmds[128] = {
    [0x42] = MIN_("XY_FAST_COPY_BLT", 0xff, CS_ALL, 0, xy_fast_copy_blt),
    [0x50] = MIN_("XY_COLOR_BLT", 0xff, CS_ALL, 0, xy_color_blt),
    [0x53] = MIN_("XY_SRC_COPY_BLT", 0xff, CS_ALL, 0, xy_src_copy_blt),
};

static const CsCmd pipe_control_cmd =
    MIN_("PIPE_CONTROL", 0xff, CS_RCS_ONLY, 100, pipe_control);
static const CsCmd gfx_1dw_cmd = MI1("GFX_1DW", CS_ALL, gfx_skip);
static const CsCmd gfx_cmd = MIN_("GFX", 0xff, CS_ALL, 0, gfx_skip);
static const CsCmd media_cmd = MIN_("MEDIA", 0xffff, CS_ALL, 0, gfx_skip);
static const CsCmd blt_unknown_cmd =
    MIN_("2D", 0xff, CS_ALL | CS_UNIMP, 0, mi_unimp);

/* Decode a header; NULL for an invalid command. */
static const CsCmd *cs_decode(uint32_t hdr)
{
    const CsCmd *c;

    switch (hdr >> 29) {
    case 0:
        c = &mi_cmds[(hdr >> 23) & 0x3f];
        return c->fn ? c : NULL;
    case 2:
        c = &blt_cmds[(hdr >> 22) & 0x7f];
        return c->fn ? c : &blt_unknown_cmd;
    case 3:
        if ((hdr >> 16) == 0x7a00) {
            return &pipe_control_cmd;
        }
        /* PIPELINE_SELECT and 3DSTATE_VF_STATISTICS are single dwords. */
        if ((hdr >> 16) == 0x6904 || (hdr >> 16) == 0x680b) {
            return &gfx_1dw_cmd;
        }
        return ((hdr >> 27) & 3) == 2 ? &media_cmd : &gfx_cmd;
    default:
        return NULL;
    }
}

static unsigned cs_cmd_len(const CsCmd *c, uint32_t hdr)
{
    return c->fixed_len ? c->fixed_len : (hdr & c->len_mask) + 2;
}

static bool cs_engine_allowed(IntelEngine *e, const CsCmd *c)
{
    bool rcs = e->id == INTEL_RCS0, bcs = e->id == INTEL_BCS0;

    return !((c->flags & CS_RCS_ONLY) && !rcs) &&
           !((c->flags & CS_NOT_RCS) && rcs) &&
           !((c->flags & CS_NOT_BCS) && bcs) &&
           !((c->flags & CS_RCS_BCS) && !rcs && !bcs);
}

/* Does predication turn this command into a NOOP? */
static bool cs_predicated_off(IntelEngine *e, uint32_t hdr, const CsCmd *c)
{
    if (c->fn == mi_set_predicate) {
        return false;
    }
    if (e->set_predicate &&
        (intel_engine_reg(e, INTEL_RING_SET_PREDICATE_RESULT) & 1)) {
        return true;
    }
    /* Commands with their own PredicateEnable use MI_PREDICATE_RESULT. */
    if ((c->fn == mi_store_register_mem && (hdr & (1u << 21))) ||
        (c == &pipe_control_cmd && (hdr & (1u << 8))) ||
        ((hdr >> 16) == 0x7b00 && (hdr & (1u << 8)))) {
        return !(intel_engine_reg(e, INTEL_RING_PREDICATE_RESULT) & 1);
    }
    return false;
}

/* ---- fetch and execution ---- */

/*
 * Make @need dwords at @addr available.  A refill reads to the end of the
 * page (commands are prefetched as on hardware), and further only as far
 * as the command needs, so a command ending at a page end never touches
 * the next page.
 */
static const uint32_t *cs_fetch(IntelEngine *e, IntelCsFetch *f, uint64_t addr,
                                bool ppgtt, unsigned need)
{
    unsigned n;

    if (f->len && f->ppgtt == ppgtt && addr >= f->addr &&
        addr + need * 4ull <= f->addr + f->len * 4ull) {
        return &f->buf[(addr - f->addr) / 4];
    }
    n = MAX(need, MIN(CS_PREFETCH_DWORDS, (4096 - (addr & 0xfff)) / 4));
    n = MIN(n, INTEL_CS_FETCH_DWORDS);
    f->len = 0;
    if (intel_vm_rw(e, ppgtt, addr, f->buf, n * 4, false)) {
        if (need == n || intel_vm_rw(e, ppgtt, addr, f->buf, need * 4,
                                     false)) {
            return NULL;
        }
        n = need;
    }
    for (unsigned i = 0; i < n; i++) {
        f->buf[i] = GUINT32_FROM_LE(f->buf[i]);
    }
    f->addr = addr;
    f->len = n;
    f->ppgtt = ppgtt;
    return f->buf;
}

static uint32_t ring_size(IntelEngine *e)
{
    return ((intel_engine_reg(e, INTEL_RING_CTL) >> 12) & 0x1ff) * 4096 +
           4096;
}

/* Where the next command is, and the dwords left before the ring's end. */
static uint64_t cs_position(IntelEngine *e, bool *ppgtt, unsigned *room)
{
    if (e->depth) {
        *ppgtt = e->level[e->depth].ppgtt;
        *room = INTEL_CS_FETCH_DWORDS;
        return e->level[e->depth].addr;
    }
    *ppgtt = false;
    *room = (ring_size(e) - (intel_engine_reg(e, INTEL_RING_HEAD) &
                             0x1ffffc)) / 4;
    return (intel_engine_reg(e, INTEL_RING_START) & ~0xfffu) +
           (intel_engine_reg(e, INTEL_RING_HEAD) & 0x1ffffc);
}

static void cs_advance(IntelEngine *e, unsigned dwords)
{
    uint32_t head, off, wraps;

    if (e->depth) {
        e->level[e->depth].addr += dwords * 4;
        return;
    }
    head = intel_engine_reg(e, INTEL_RING_HEAD);
    off = (head & 0x1ffffc) + dwords * 4;
    wraps = head >> 21;
    if (off >= ring_size(e)) {
        off -= ring_size(e);
        wraps++;
    }
    intel_engine_set_reg(e, INTEL_RING_HEAD, wraps << 21 | off);
}

/* Dwords between HEAD and TAIL, across the ring's end. */
static uint32_t ring_dwords_to_tail(IntelEngine *e)
{
    uint32_t head = intel_engine_reg(e, INTEL_RING_HEAD) & 0x1ffffc;
    uint32_t tail = intel_engine_reg(e, INTEL_RING_TAIL) & 0x1ffff8;

    return (tail >= head ? tail - head : ring_size(e) - head + tail) / 4;
}

static bool ring_empty(IntelEngine *e)
{
    return ring_dwords_to_tail(e) == 0;
}

/* ACTHD and the batch registers show where the engine is. */
static uint32_t bb_state(const IntelCsLevel *l)
{
    return INTEL_BB_STATE_ACTIVE | (l->ppgtt ? INTEL_BB_STATE_PPGTT : 0) |
           (l->privileged ? INTEL_BB_STATE_PRIVILEGED : 0);
}

/* Also before a context save: the image gets the current position. */
void intel_cs_sync_registers(IntelEngine *e)
{
    bool ppgtt;
    unsigned room;
    uint64_t pos = cs_position(e, &ppgtt, &room);
    IntelCsLevel *l1 = &e->level[1];
    /* A workaround batch runs on top of the context's own position. */
    unsigned depth = e->depth == INTEL_CS_WA_LEVEL ? e->wa_return_depth
                                                   : e->depth;

    intel_engine_set_reg(e, INTEL_RING_ACTHD, pos);
    intel_engine_set_reg(e, INTEL_RING_ACTHD_UDW, pos >> 32);
    intel_engine_set_reg(e, INTEL_RING_BBADDR, depth ? l1->addr : 0);
    intel_engine_set_reg(e, INTEL_RING_BBADDR_UDW,
                         depth ? l1->addr >> 32 : 0);
    intel_engine_set_reg(e, INTEL_RING_BB_STATE, depth ? bb_state(l1) : 0);
    intel_engine_set_reg(e, INTEL_RING_SBB_ADDR,
                         depth > 1 ? e->level[2].addr : 0);
    intel_engine_set_reg(e, INTEL_RING_SBB_ADDR_UDW,
                         depth > 1 ? e->level[2].addr >> 32 : 0);
    intel_engine_set_reg(e, INTEL_RING_SBB_STATE,
                         depth > 1 ? bb_state(&e->level[2]) : 0);
}

/* Reload the batch levels from the registers (after a context restore). */
static void cs_load_level(IntelEngine *e, IntelCsLevel *l, uint32_t state,
                          uint32_t lo, uint32_t hi)
{
    l->addr = addr48(lo, hi);
    l->ppgtt = state & INTEL_BB_STATE_PPGTT;
    l->privileged = state & INTEL_BB_STATE_PRIVILEGED;
}

void intel_cs_load_batch_state(IntelEngine *e)
{
    uint32_t bb = intel_engine_reg(e, INTEL_RING_BB_STATE);
    uint32_t sbb = intel_engine_reg(e, INTEL_RING_SBB_STATE);

    e->depth = 0;
    if (bb & INTEL_BB_STATE_ACTIVE) {
        cs_load_level(e, &e->level[1], bb,
                      intel_engine_reg(e, INTEL_RING_BBADDR),
                      intel_engine_reg(e, INTEL_RING_BBADDR_UDW));
        e->depth = 1;
        if (sbb & INTEL_BB_STATE_ACTIVE) {
            cs_load_level(e, &e->level[2], sbb,
                          intel_engine_reg(e, INTEL_RING_SBB_ADDR),
                          intel_engine_reg(e, INTEL_RING_SBB_ADDR_UDW));
            e->depth = 2;
        }
    }
}

static bool cs_runnable(IntelEngine *e)
{
    return e->state == INTEL_CS_RUNNING &&
           !(intel_engine_reg(e, INTEL_RING_MI_MODE) &
             INTEL_MI_MODE_STOP_RING) &&
           !(intel_engine_reg(e, INTEL_RING_RESET_CTL) &
             INTEL_RESET_CTL_REQUEST_RESET);
}

/* The ring ran dry: the element is complete, or a legacy ring idles. */
static void cs_ring_done(IntelEngine *e)
{
    if (intel_cs_execlists_mode(e) && e->ctx_active) {
        intel_execlists_element_done(e);
    } else {
        intel_cs_set_state(e, INTEL_CS_IDLE);
    }
}

/*
 * A run of MI_NOOPs (without an identification number) does nothing but
 * take time: execute as many as are fetched, within the budget and before
 * TAIL, at once.
 */
static unsigned cs_noop_run(IntelEngine *e, IntelCsFetch *f,
                            const uint32_t *cmd, unsigned room,
                            unsigned budget, uint64_t *cost)
{
    unsigned avail = MIN(f->len - (unsigned)(cmd - f->buf), room), n = 0;

    if (!e->depth) {
        avail = MIN(avail, ring_dwords_to_tail(e));
    }
    avail = MIN(avail, budget);
    while (n < avail && !cmd[n]) {
        n++;
    }
    e->stats.commands += n;
    *cost += n * CS_NS_PER_DWORD;
    cs_advance(e, n);
    return n;
}

static uint64_t cs_eu_clocks(IntelEngine *e)
{
    return e->stats.eu_clocks[INTEL_EU_VS] + e->stats.eu_clocks[INTEL_EU_TS];
}

/* Execute one command; returns the work units it took. */
static unsigned cs_step(IntelEngine *e, IntelCsFetch *f, unsigned budget,
                        uint64_t *cost)
{
    unsigned saved_depth = e->depth, room, len;
    uint32_t saved_head = intel_engine_reg(e, INTEL_RING_HEAD);
    IntelCsLevel saved = e->depth ? e->level[e->depth] : (IntelCsLevel) {0};
    const uint32_t *cmd;
    const CsCmd *c;
    bool ppgtt;
    uint64_t pos, blit0 = e->stats.blit_bytes, eu0 = cs_eu_clocks(e);
    int r;

    if (!e->depth && ring_empty(e)) {
        cs_ring_done(e);
        return 1;
    }
    if (e->depth == INTEL_CS_WA_LEVEL && e->level[e->depth].end &&
        e->level[e->depth].addr >= e->level[e->depth].end) {
        cs_wa_done(e);
        return 1;
    }
    pos = cs_position(e, &ppgtt, &room);
    cmd = cs_fetch(e, f, pos, ppgtt, 1);
    if (!cmd) {
        cs_fault(e, ppgtt, pos);
        return 1;
    }
    if (!cmd[0]) {
        return cs_noop_run(e, f, cmd, room, budget, cost);
    }
    c = cs_decode(cmd[0]);
    if (!c || !cs_engine_allowed(e, c)) {
        intel_cs_error(e, INTEL_ERROR_INSTRUCTION, c ?
                       "command not supported on this engine" :
                       "invalid command header");
        return 1;
    }
    len = cs_cmd_len(c, cmd[0]);
    if (!e->depth && len > ring_dwords_to_tail(e)) {
        /* The rest of the command is not submitted yet: wait for TAIL. */
        cs_ring_done(e);
        return 1;
    }
    if (len > room) {
        intel_cs_error(e, INTEL_ERROR_INSTRUCTION,
                       "command crosses the end of the ring");
        return 1;
    }
    cmd = cs_fetch(e, f, pos, ppgtt, len);
    if (!cmd) {
        cs_fault(e, ppgtt, pos);
        return 1;
    }
    e->stats.commands++;
    *cost += len * CS_NS_PER_DWORD + c->cost_ns;
    cs_advance(e, len);
    if (cs_predicated_off(e, cmd[0], c)) {
        return 1;
    }
    if ((c->flags & CS_PRIV) && !cs_privileged(e)) {
        cs_privilege_violation(e, c->name);
        return 1;
    }
    r = c->fn(e, c, cmd, len);
    if (r == CS_RETRY) {
        /* Not done: the command executes again from the same place. */
        e->depth = saved_depth;
        if (saved_depth) {
            e->level[saved_depth] = saved;
        } else {
            intel_engine_set_reg(e, INTEL_RING_HEAD, saved_head);
        }
        /* An unsuccessful semaphore wait is an arbitration point. */
        cs_arbitrate(e);
    }
    /* Blits cost one unit per 4 KiB moved, on top of the command. */
    *cost += (e->stats.blit_bytes - blit0) / 16;
    /* Dispatched threads: the time the EU array takes to run them. */
    *cost += intel_gt_ns_for(e->gpu, intel_eu_busy_clocks(
                                 e->gpu, cs_eu_clocks(e) - eu0));
    return 1 + (e->stats.blit_bytes - blit0) / 4096;
}

/*
 * Start the span in flight anew at @now, inside it: what is done by now
 * stays done, the rest follows evenly from now on.
 */
static void cs_in_flight_rebase(IntelCsInFlight *w, uint64_t now)
{
    uint64_t span = w->end_ns - w->start_ns, left = w->end_ns - now;

    for (unsigned i = 0; i < INTEL_EU_FFIDS; i++) {
        w->eu_clocks[i] = gpu_muldiv64(w->eu_clocks[i], left, span);
    }
    w->start_ns = now;
}

/*
 * A command executed at @now took @cost and dispatched EU work (the
 * statistics since @eu0).  Its effects are there at once; the engine does
 * its work at the modelled pace, after the work still in flight, and
 * every report taken meanwhile (an OA context-switch report later in the
 * same slice too) sees only the part done by then.
 */
static void cs_account(IntelEngine *e, uint64_t now, uint64_t cost,
                       const uint64_t *eu0)
{
    IntelCsInFlight *w = &e->in_flight;

    if (now >= w->end_ns) {
        *w = (IntelCsInFlight) { .start_ns = now, .end_ns = now };
    } else if (now > w->start_ns) {
        cs_in_flight_rebase(w, now);
    }
    e->stats.busy_ns += cost;
    w->end_ns += cost;
    for (unsigned i = 0; i < INTEL_EU_FFIDS; i++) {
        w->eu_clocks[i] += e->stats.eu_clocks[i] - eu0[i];
    }
}

/* The engine's statistics as of @ns: less the work still in flight then. */
void intel_cs_stats_at(IntelEngine *e, uint64_t ns, IntelCsStats *st)
{
    const IntelCsInFlight *w = &e->in_flight;
    uint64_t span = w->end_ns - w->start_ns, left;

    *st = e->stats;
    if (ns >= w->end_ns || !span) {
        return;
    }
    left = w->end_ns - MAX(ns, w->start_ns);
    st->busy_ns -= MIN(left, st->busy_ns);
    for (unsigned i = 0; i < INTEL_EU_FFIDS; i++) {
        uint64_t undone = gpu_muldiv64(w->eu_clocks[i], left, span);

        st->eu_clocks[i] -= MIN(undone, st->eu_clocks[i]);
    }
}

/*
 * The GT clock changed from RPS ratio @from to @to at @now: the work in
 * flight is a number of clocks, which now take longer or shorter.
 */
void intel_cs_frequency_change(IntelEngine *e, uint64_t now, uint32_t from,
                               uint32_t to)
{
    IntelCsInFlight *w = &e->in_flight;
    uint64_t scaled;

    if (now >= w->end_ns) {
        return;
    }
    if (now > w->start_ns) {
        cs_in_flight_rebase(w, now);
    }
    scaled = gpu_muldiv64(w->end_ns - w->start_ns, from, to);
    e->stats.busy_ns = e->stats.busy_ns - (w->end_ns - w->start_ns) + scaled;
    w->end_ns = w->start_ns + scaled;
}

void intel_cs_run(IntelEngine *e, unsigned budget)
{
    uint64_t cost = 0, commands = e->stats.commands, eu0[INTEL_EU_FFIDS];
    unsigned used = 0;

    /*
     * A hang drill: the engine stops fetching, stays busy and reports
     * nothing, as a hung engine does, until an engine or GT reset.
     */
    if (e->hang_drill) {
        return;
    }
    /* Memory may have changed since the last slice: fetch afresh. */
    e->fetch.len = 0;
    if (e->state == INTEL_CS_WAITING) {
        intel_cs_set_state(e, INTEL_CS_RUNNING);
    }
    /* An idle engine takes a new execlist at once. */
    if (e->load_pending && !e->ctx_active &&
        e->state != INTEL_CS_HALTED) {
        intel_execlists_arbitrate(e);
    }
    /* OA reports due before this slice see the engine as it was. */
    intel_oa_catch_up(e->gpu);
    while (used < budget && cs_runnable(e)) {
        uint64_t step_cost = 0;

        memcpy(eu0, e->stats.eu_clocks, sizeof(eu0));
        used += cs_step(e, &e->fetch, budget - used, &step_cost);
        /*
         * At the time now, not the slice's start: QEMU's clock may move
         * meanwhile, and an OA sync in the step has seen the time it read.
         */
        cs_account(e, gpu_host_now_ns(&e->gpu->host), step_cost, eu0);
        cost += step_cost;
    }
    intel_cs_sync_registers(e);
    gpu_host_trace(&e->gpu->host, INTEL_TRACE_ENGINE_SLICE, e->id,
                   e->stats.commands - commands, cost);
    if (cs_runnable(e)) {
        gpu_host_timer_mod(&e->gpu->host, e->timer,
                           MAX(e->in_flight.end_ns,
                               gpu_host_now_ns(&e->gpu->host) +
                               CS_SLICE_GAP_NS));
    }
}

void intel_cs_timer(void *opaque)
{
    intel_cs_run(opaque, CS_SLICE_BUDGET);
}

/*
 * A doorbell (TAIL write, execlist Load, semaphore signal, STOP_RING or
 * reset request cleared): execute soon, from the main loop.
 */
void intel_cs_kick(IntelEngine *e)
{
    if (e->state == INTEL_CS_HALTED) {
        return;
    }
    if (e->state == INTEL_CS_WAITING ||
        (e->state == INTEL_CS_IDLE && !intel_cs_execlists_mode(e) &&
         (intel_engine_reg(e, INTEL_RING_CTL) & 1) && !ring_empty(e))) {
        intel_cs_set_state(e, INTEL_CS_RUNNING);
    }
    gpu_host_trace(&e->gpu->host, INTEL_TRACE_ENGINE_KICK, e->id, e->state, 0);
    if (e->state == INTEL_CS_RUNNING || e->load_pending) {
        /* Not before the work already committed is done. */
        gpu_host_timer_mod(&e->gpu->host, e->timer,
                           MAX(gpu_host_now_ns(&e->gpu->host),
                               e->in_flight.end_ns));
    }
}

bool intel_cs_busy(IntelEngine *e)
{
    return e->state == INTEL_CS_RUNNING || e->state == INTEL_CS_WAITING;
}

/* A busy engine keeps the GT out of RC6: rc6.c hears of every change. */
void intel_cs_set_state(IntelEngine *e, IntelCsState state)
{
    bool was_busy = intel_cs_busy(e);

    e->state = state;
    if (intel_cs_busy(e) != was_busy) {
        intel_rc6_update(e->gpu);
    }
}

void intel_cs_reset(IntelEngine *e)
{
    gpu_host_timer_del(&e->gpu->host, e->timer);
    intel_cs_set_state(e, INTEL_CS_IDLE);
    e->depth = 0;
    e->wa_next = (IntelCsLevel) { 0 };
    e->arb_enabled = true;          /* arbitration is on by default */
    e->hang_drill = false;
    e->csb_drill = INTEL_CSB_DRILL_NONE;
    e->dma_drill = 0;
    e->set_predicate = 0;
    e->srca = e->srcb = e->accu = 0;
    e->zf = e->cf = false;
    e->pml4 = 0;
    /* Work in flight is abandoned: its statistics count as done. */
    e->in_flight = (IntelCsInFlight) { 0 };
    intel_ppgtt_flush(e);
}

/* The command table, for documentation and tests. */
const char *intel_cs_command_name(uint32_t hdr)
{
    const CsCmd *c = cs_decode(hdr);

    return c ? c->name : NULL;
}
