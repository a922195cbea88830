/*
 * Gen11 EU interpreter: structured control flow.  The channels a branch
 * disables wait, parked at the IP where they resume; the run loop
 * re-enables them there.
 *
 * Facts: Intel Graphics PRM Vol 2 (Command Reference: Instructions, EU
 * ISA: "if", "else", "while", "break", "goto", "call", "ret", ...) and
 * Vol 4 (Execution Unit ISA: "Execution Mask", "Flow Control"); Mesa
 * src/intel/compiler/brw_eu_emit.c for the Gen8+ JIP/UIP convention
 * (byte offsets from the branch instruction; BREAK and CONT have UIP at
 * the WHILE).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "eu-exec-int.h"

/* Disable the given channels until the thread reaches ip. */
static void eu_flow_park(EuThread *t, uint32_t chans, uint32_t ip)
{
    if (!chans) {
        return;
    }
    for (unsigned c = 0; c < EU_MAX_CHANNELS; c++) {
        if ((chans >> c) & 1) {
            t->wait_ip[c] = ip;
        }
    }
    t->active &= ~chans;
    t->waiting |= chans;
}

/* The channels an instruction's execution size and group cover. */
static uint32_t eu_flow_group_mask(const EuInst *in)
{
    unsigned g = eu_group_base(in);
    uint64_t m = ((1ull << in->exec_size) - 1) << g;

    return (uint32_t)m;
}

/* Execute a branch instruction (eu_is_branch()); returns the next IP. */
uint32_t eu_exec_flow(EuThread *t, const EuInst *in)
{
    uint32_t next = t->ip + in->size;
    uint32_t own = t->active & eu_flow_group_mask(in);
    uint32_t m;

    switch (in->opcode) {
    case EU_OP_IF:
        m = own & ~eu_cf_chans(t, in);
        eu_flow_park(t, m, t->ip + in->jip);
        break;
    case EU_OP_ELSE:
        eu_flow_park(t, own, t->ip + in->jip);
        break;
    case EU_OP_ENDIF:
    case EU_OP_JOIN:
        /*
         * The reconvergence points of IF and of GOTO (opcode 0x2f, JIP
         * only; IGC's goto/join pairs): the channels parked here are
         * already back (eu_resume_channels()), and with none active the
         * thread already went on to the next parked channel's IP, where
         * the JIP leads.
         */
        break;
    case EU_OP_BREAK:
        m = eu_cf_chans(t, in);
        eu_flow_park(t, m, t->ip + in->uip);
        t->broken |= m;
        break;
    case EU_OP_CONT:
    case EU_OP_HALT:
        eu_flow_park(t, eu_cf_chans(t, in), t->ip + in->uip);
        break;
    case EU_OP_WHILE:
        m = eu_cf_chans(t, in);
        if (in->jip >= 0) {
            eu_fault(t, "WHILE with a forward jump");
            return next;
        }
        if (m) {
            eu_flow_park(t, own & ~m, next);
            return t->ip + in->jip;
        }
        break;
    case EU_OP_JMPI: {
        /* One uniform jump, relative to the next instruction (Mesa
         * elk_eu_emit.c elk_land_fwd_jump). */
        Val v = eu_read_src(t, in, 1, 0);

        if (in->pred_ctrl == EU_PRED_NONE || eu_predicate(t, in, 0)) {
            return next + (int32_t)v.i;
        }
        break;
    }
    case EU_OP_GOTO:
        /* Gen8+ goto: the channels whose predicate holds wait for the
         * UIP; with none left the thread goes to the JIP (PRM Vol 2,
         * "goto"). */
        eu_flow_park(t, eu_cf_chans(t, in), t->ip + in->uip);
        if (!t->active) {
            return t->ip + in->jip;
        }
        break;
    case EU_OP_CALL:
    case EU_OP_CALLA: {
        /* dst.0 = return IP, dst.1 = the channel enables (PRM Vol 2,
         * "call", "calla"); calla's JIP is absolute. */
        Val ra = { .i = next }, mask = { .i = t->active };

        eu_write_dst(t, in, 0, ra);
        eu_write_dst(t, in, 1, mask);
        return in->opcode == EU_OP_CALLA ? (uint32_t)in->jip :
                                           t->ip + in->jip;
    }
    case EU_OP_RET: {
        /* Restore the IP and the channel enables call saved: src0.0 and
         * the dword after it (PRM Vol 2, "ret"). */
        const uint8_t *p = in->src[0].file == EU_FILE_GRF ?
                           eu_elem_ptr(t, &in->src[0], 0, false) : NULL;
        uint32_t ra, mask;

        if (!p || (p - t->grf) + 8 > (int64_t)sizeof(t->grf)) {
            eu_fault(t, "ret without a GRF return address");
            return next;
        }
        memcpy(&ra, p, 4);
        memcpy(&mask, p + 4, 4);
        mask = GUINT32_FROM_LE(mask) & t->exec_mask;
        t->active = mask;
        t->waiting &= ~mask;
        t->broken &= ~mask;
        return GUINT32_FROM_LE(ra);
    }
    default:
        eu_fault(t, "control-flow instruction not implemented");
    }
    return next;
}

/* Re-enable channels parked at the current IP; with none active, skip
 * ahead to the nearest parked channel, as the hardware's JIP jumps do. */
void eu_resume_channels(EuThread *t)
{
    /* Each hop moves forward to a parked channel's IP: bounded. */
    for (unsigned hop = 0; hop <= 2 * EU_MAX_CHANNELS; hop++) {
        uint32_t best = UINT32_MAX;

        /* Only the waiting channels (a bit is cleared only by its own
         * turn, so a snapshot of the mask will do). */
        for (uint32_t w = t->waiting; w; w &= w - 1) {
            unsigned c = __builtin_ctz(w);

            if (t->wait_ip[c] == t->ip) {
                if (!((t->broken >> c) & 1)) {
                    t->waiting &= ~(1u << c);
                    t->active |= 1u << c;
                    continue;
                }
                /* A break resumes after the WHILE that its UIP names. */
                t->broken &= ~(1u << c);
                t->wait_ip[c] = t->ip + 16;
            }
            if (t->wait_ip[c] > t->ip && t->wait_ip[c] < best) {
                best = t->wait_ip[c];
            }
        }
        if (t->active || best == UINT32_MAX) {
            return;
        }
        t->ip = best;
    }
}
