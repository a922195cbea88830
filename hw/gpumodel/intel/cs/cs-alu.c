/*
 * intel-gpu command streamer: the CS ALU and predication (PRM Vol 2a:
 * Command Reference: Instructions, "MI_MATH", "MI_PREDICATE",
 * "MI_SET_PREDICATE", "MI_CONDITIONAL_BATCH_BUFFER_END").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cs-int.h"

/* A 64-bit register: two dwords, the low one first. */
static uint64_t cs_reg64(IntelEngine *e, uint32_t off)
{
    return (uint64_t)intel_engine_reg(e, off + 4) << 32 |
           intel_engine_reg(e, off);
}

static uint64_t gpr_get(IntelEngine *e, unsigned n)
{
    return cs_reg64(e, INTEL_RING_CS_GPR(n));
}

static void gpr_set(IntelEngine *e, unsigned n, uint64_t v)
{
    intel_engine_set_reg(e, INTEL_RING_CS_GPR(n), v);
    intel_engine_set_reg(e, INTEL_RING_CS_GPR(n) + 4, v >> 32);
}

/* MI_SET_PREDICATE modes: when following commands become NOOPs. */
static bool mi_set_predicate_noop(IntelEngine *e, uint32_t mode)
{
    uint32_t r = intel_engine_reg(e, INTEL_RING_PREDICATE_RESULT) & 1;
    uint32_t r2 = intel_engine_reg(e, INTEL_RING_PREDICATE_RESULT_2) & 1;

    switch (mode) {
    case MI_SET_PREDICATE_DISABLE: return false;
    case MI_SET_PREDICATE_NOOP_RESULT2_CLEAR: return !r2;
    case MI_SET_PREDICATE_NOOP_RESULT2_SET: return r2;
    case MI_SET_PREDICATE_NOOP_RESULT_CLEAR: return !r;
    case MI_SET_PREDICATE_NOOP_RESULT_SET: return r;
    case MI_SET_PREDICATE_ONE_SLICE: return false;
    /* Execute when two or three slices are enabled: there is one. */
    case MI_SET_PREDICATE_TWO_SLICES: return true;
    case MI_SET_PREDICATE_THREE_SLICES: return true;
    default: return true;           /* NOOP always (or reserved) */
    }
}

int cs_mi_set_predicate(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                        unsigned len)
{
    e->set_predicate = cmd[0] & MI_SET_PREDICATE_MASK;
    intel_engine_set_reg(e, INTEL_RING_SET_PREDICATE_RESULT,
                         mi_set_predicate_noop(e, e->set_predicate));
    return CS_NEXT;
}

/* MI_PREDICATE: load, combine and compare operations (RCS). */
int cs_mi_predicate(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                    unsigned len)
{
    uint64_t src0 = cs_reg64(e, INTEL_RING_PREDICATE_SRC0);
    uint64_t src1 = cs_reg64(e, INTEL_RING_PREDICATE_SRC1);
    uint64_t data = cs_reg64(e, INTEL_RING_PREDICATE_DATA);
    uint32_t load_op = cmd[0] & MI_PREDICATE_LOADOP_MASK;
    uint32_t combine = cmd[0] & MI_PREDICATE_COMBINEOP_MASK;
    bool p = intel_engine_reg(e, INTEL_RING_PREDICATE_RESULT) & 1, v;

    switch (cmd[0] & MI_PREDICATE_COMPAREOP_MASK) {
    case MI_PREDICATE_COMPAREOP_TRUE:
        v = true;
        break;
    case MI_PREDICATE_COMPAREOP_FALSE:
        v = false;
        break;
    case MI_PREDICATE_COMPAREOP_SRCS_EQUAL:
        v = src0 == src1;
        break;
    default: /* DELTAS_EQUAL */
        v = src0 - src1 == data;
        break;
    }
    intel_engine_set_reg(e, INTEL_RING_PREDICATE_DATA, src0 - src1);
    intel_engine_set_reg(e, INTEL_RING_PREDICATE_DATA + 4,
                         (src0 - src1) >> 32);
    if (load_op == MI_PREDICATE_LOADOP_KEEP) {
        return CS_NEXT;
    }
    if (load_op == MI_PREDICATE_LOADOP_LOADINV) {
        v = !v;
    } else if (load_op != MI_PREDICATE_LOADOP_LOAD) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: MI_PREDICATE reserved load operation",
                     e->id);
        return CS_NEXT;
    }
    switch (combine) {
    case MI_PREDICATE_COMBINEOP_SET:
        p = v;
        break;
    case MI_PREDICATE_COMBINEOP_AND:
        p = p && v;
        break;
    case MI_PREDICATE_COMBINEOP_OR:
        p = p || v;
        break;
    default: /* XOR */
        p = p != v;
        break;
    }
    intel_engine_set_reg(e, INTEL_RING_PREDICATE_RESULT, p);
    return CS_NEXT;
}

/* ---- CS ALU ---- */

static bool cs_alu_read(IntelEngine *e, unsigned op, uint64_t *v)
{
    if (op < MI_ALU_GPRS) {
        *v = gpr_get(e, op);
    } else if (op == MI_ALU_SRCA) {
        *v = e->srca;
    } else if (op == MI_ALU_SRCB) {
        *v = e->srcb;
    } else if (op == MI_ALU_ACCU) {
        *v = e->accu;
    } else if (op == MI_ALU_ZF) {
        *v = e->zf ? ~0ull : 0;
    } else if (op == MI_ALU_CF) {
        *v = e->cf ? ~0ull : 0;
    } else {
        return false;
    }
    return true;
}

static uint64_t cs_alu_shift_amount(uint64_t b)
{
    static const unsigned steps[] = { 32, 16, 8, 4, 2, 1 };

    for (unsigned i = 0; i < G_N_ELEMENTS(steps); i++) {
        if (b >= steps[i]) {
            return steps[i];
        }
    }
    return 0;
}

static void cs_alu_result(IntelEngine *e, uint64_t v, bool cf)
{
    e->accu = v;
    e->zf = v == 0;
    e->cf = cf;
}

/* One ALU instruction; false if it is malformed. */
static bool cs_alu_exec(IntelEngine *e, uint32_t insn, bool ppgtt)
{
    unsigned opcode = MI_ALU_OPCODE(insn), op1 = MI_ALU_OPERAND1(insn);
    unsigned op2 = MI_ALU_OPERAND2(insn);
    uint64_t a = e->srca, b = e->srcb, v;
    bool to_src = op1 == MI_ALU_SRCA || op1 == MI_ALU_SRCB;

    switch (opcode) {
    case MI_ALU_NOOP: case MI_ALU_FENCE_RD: case MI_ALU_FENCE_WR:
        return true;
    case MI_ALU_LOAD: case MI_ALU_LOADINV:
        if (!to_src || !cs_alu_read(e, op2, &v)) {
            return false;
        }
        v = opcode == MI_ALU_LOADINV ? ~v : v;
        *(op1 == MI_ALU_SRCA ? &e->srca : &e->srcb) = v;
        return true;
    case MI_ALU_LOAD0: case MI_ALU_LOAD1:
        if (!to_src) {
            return false;
        }
        /*
         * LOAD1 is LOAD0 with the "invert" prefix: all ones (Mesa's
         * mi_builder emits it for UINT64_MAX).
         */
        *(op1 == MI_ALU_SRCA ? &e->srca : &e->srcb) =
            opcode == MI_ALU_LOAD1 ? ~0ull : 0;
        return true;
    case MI_ALU_LOADIND:                        /* Rn, *ACCU */
        if (op1 >= MI_ALU_GPRS) {
            return false;
        }
        if (cs_mem(e, ppgtt, e->accu & ~7ull, &v, 8, false)) {
            return true;
        }
        gpr_set(e, op1, GUINT64_FROM_LE(v));
        return true;
    case MI_ALU_ADD:
        cs_alu_result(e, a + b, a + b < a);
        return true;
    case MI_ALU_SUB:
        cs_alu_result(e, a - b, a < b);
        return true;
    case MI_ALU_AND:
        cs_alu_result(e, a & b, false);
        return true;
    case MI_ALU_OR:
        cs_alu_result(e, a | b, false);
        return true;
    case MI_ALU_XOR:
        cs_alu_result(e, a ^ b, false);
        return true;
    case MI_ALU_SHL:
        cs_alu_result(e, a << cs_alu_shift_amount(b), false);
        return true;
    case MI_ALU_SHR:
        cs_alu_result(e, a >> cs_alu_shift_amount(b), false);
        return true;
    case MI_ALU_SAR:
        cs_alu_result(e, (uint64_t)((int64_t)a >> cs_alu_shift_amount(b)),
                      false);
        return true;
    case MI_ALU_STORE: case MI_ALU_STOREINV:
        if (op1 >= MI_ALU_GPRS || op2 < MI_ALU_GPRS ||
            !cs_alu_read(e, op2, &v)) {
            return false;
        }
        gpr_set(e, op1, opcode == MI_ALU_STOREINV ? ~v : v);
        return true;
    case MI_ALU_STOREIND:                       /* *ACCU, Rn */
        if (op2 >= MI_ALU_GPRS) {
            return false;
        }
        cs_write64(e, ppgtt, e->accu & ~7ull, gpr_get(e, op2));
        return true;
    default:
        return false;
    }
}

int cs_mi_math(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
               unsigned len)
{
    bool ppgtt = e->depth ? e->level[e->depth].ppgtt : false;

    for (unsigned i = 1; i < len && e->state != INTEL_CS_HALTED; i++) {
        if (!cs_alu_exec(e, cmd[i], ppgtt)) {
            gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                         "engine %u: MI_MATH instruction 0x%08x invalid, "
                         "ignored", e->id, cmd[i]);
        }
    }
    return e->state == INTEL_CS_HALTED ? CS_STOP : CS_NEXT;
}

int cs_mi_conditional_bb_end(IntelEngine *e, const CsCmd *c,
                             const uint32_t *cmd, unsigned len)
{
    bool ggtt = cmd[0] & MI_GLOBAL_GTT;
    bool mask_mode = cmd[0] & MI_COMPARE_MASK_MODE;
    uint64_t addr = cs_addr48(cmd[2] & ~7u, cmd[3]);
    uint32_t v, m = ~0u;

    if (ggtt && !cs_privileged(e)) {
        cs_privilege_violation(e, cmd[0], addr,
                               "MI_CONDITIONAL_BATCH_BUFFER_END in the GGTT");
        return CS_NEXT;
    }
    if (cs_read32(e, !ggtt && intel_engine_ppgtt(e), addr, &v) ||
        (mask_mode && cs_read32(e, !ggtt && intel_engine_ppgtt(e), addr + 4, &m))) {
        return CS_STOP;
    }
    /*
     * With "compare semaphore" (MI_DO_COMPARE) the batch ends when the
     * memory value is not above the data; without it, never.  "Termination
     * of second level batch buffer due to this command will also terminate
     * the parent/first level batch buffer" (Gen11 Command Reference): back
     * to the ring, or from a workaround batch to the context.
     */
    if ((cmd[0] & MI_DO_COMPARE) && (v & m) <= cmd[1] && e->depth) {
        if (e->depth == INTEL_CS_WA_LEVEL) {
            cs_wa_done(e);
        } else {
            e->depth = 0;
        }
    }
    return CS_NEXT;
}
