/*
 * nv-gpu PCOUNTER counting modes (envytools docs/hw/pcounter/intro.rst,
 * "Single event mode", "Quad event mode", "Record mode" and "The flag"),
 * written as event loops over a span's range queries (pcounter-table.c):
 * quad mode needs the last two SWAPs in a range; single mode the next
 * PRE/START/STOP; record mode the next STOP or the next cycle an event
 * counter reaches 0xf000, and writes the record packets.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "pcounter-int.h"

/* ---- the FLAG ---- */

/* FLAG after cycles [a, b) from @flag: the last SETFLAG/CLRFLAG wins. */
static bool nv_pc_flag_after(const NvPcSpan *s, bool flag, uint64_t a,
                             uint64_t b)
{
    uint64_t n = nv_pc_sp_count(s, CH_SETCLR, a, b);

    if (!n) {
        return flag;
    }
    /* CLRFLAG beats SETFLAG in the same cycle. */
    return !(nv_pc_sp_word(s, nv_pc_sp_find(s, CH_SETCLR, a, b, n)) &
             NV_PC_W_IN(NV_PC_IN_CLRFLAG));
}

static void nv_pc_flag_run(const NvPcSpan *s, uint64_t a, uint64_t b)
{
    NvPcDomain *d = s->d;

    if (b <= a) {
        return;
    }
    d->flag_prev = b - a >= 2 ? nv_pc_flag_after(s, d->flag, a, b - 1)
                              : d->flag;
    d->flag = nv_pc_flag_after(s, d->flag, a, b);
}

static void nv_pc_flag_frozen(NvPcDomain *d, uint64_t a, uint64_t b)
{
    if (b > a) {
        d->flag_prev = d->flag;
    }
}

/* ---- quad event mode ---- */

static void nv_pc_quad_counts(const NvPcSpan *s, uint64_t a, uint64_t b,
                              const uint32_t *base, uint32_t *out)
{
    out[NV_PC_CTR_CYCLES] = nv_pc_sat32(base[NV_PC_CTR_CYCLES], b - a);
    out[NV_PC_CTR_EVENT] = nv_pc_sat32(base[NV_PC_CTR_EVENT],
                                       nv_pc_sp_count(s, CH_EV_INC, a, b));
    out[NV_PC_CTR_START] = nv_pc_sat32(base[NV_PC_CTR_START],
                                       nv_pc_sp_count(s, CH_QSTART_INC, a, b));
    out[NV_PC_CTR_PRE] = nv_pc_sat32(base[NV_PC_CTR_PRE],
                                     nv_pc_sp_count(s, CH_PRE, a, b));
    out[NV_PC_CTR_STOP] = nv_pc_sat32(base[NV_PC_CTR_STOP],
                                      nv_pc_sp_count(s, CH_STOP, a, b));
}

static void nv_pc_quad_run(const NvPcSpan *s, uint64_t a, uint64_t b)
{
    static const uint32_t zero[NV_PC_CTRS];
    NvPcDomain *d = s->d;
    uint64_t n = nv_pc_sp_count(s, CH_SWAP, a, b);
    uint32_t tmp[NV_PC_CTRS];

    if (!n) {
        nv_pc_quad_counts(s, a, b, d->shadow, tmp);
        memcpy(d->shadow, tmp, sizeof(tmp));
    } else {
        /* A swap happens before the cycle's counting. */
        uint64_t last = nv_pc_sp_find(s, CH_SWAP, a, b, n);

        if (n >= 2) {
            nv_pc_quad_counts(s, nv_pc_sp_find(s, CH_SWAP, a, b, n - 1), last,
                              zero, d->ctr);
        } else {
            nv_pc_quad_counts(s, a, last, d->shadow, d->ctr);
        }
        nv_pc_quad_counts(s, last, b, zero, d->shadow);
        /* EMPTY -> VALID -> OVERFLOW, once per swap. */
        if (n >= 2 || d->quad_state != NV_PC_QUAD_EMPTY) {
            d->quad_state = NV_PC_QUAD_OVERFLOW;
        } else {
            d->quad_state = NV_PC_QUAD_VALID;
        }
    }
    nv_pc_flag_run(s, a, b);
}

/* ---- single event mode ---- */

/*
 * The PRE_OP write, between cycles cur-1 and cur (as all writes): the
 * INACTIVE case in the cycle of the write (envytools
 * docs/hw/pcounter/intro.rst, "Single event mode").
 */
void nv_pc_single_start(NvPcDomain *d)
{
    d->ctr[NV_PC_CTR_EVENT] = 0;
    d->ctr[NV_PC_CTR_START] = 0;
    d->ctr[NV_PC_CTR_CYCLES] = 0;
    d->ctr[NV_PC_CTR_PRE] = d->pre_init;
    d->ctr[NV_PC_CTR_STOP] = d->stop_init;
    d->flag = false;
    d->single_state = NV_PC_SINGLE_WAIT_PRE;
}

/* As if SWAP were asserted in cycle cur: before its counting. */
void nv_pc_quad_swap(NvPcDomain *d)
{
    memcpy(d->ctr, d->shadow, sizeof(d->ctr));
    memset(d->shadow, 0, sizeof(d->shadow));
    d->quad_state = d->quad_state == NV_PC_QUAD_EMPTY ?
                    NV_PC_QUAD_VALID : NV_PC_QUAD_OVERFLOW;
}

/*
 * Each step ends a state; bounded by the cycles in [a, b) and by
 * @budget (a step each after the first).  Returns the cycle reached.
 */
static uint64_t nv_pc_single_run(NvGpu *gpu, const NvPcSpan *s, uint64_t a,
                                 uint64_t b, uint32_t *budget)
{
    NvPcDomain *d = s->d;
    uint64_t a0 = a, t, end;

    while (a < b) {
        if (a > a0 && !nv_pc_budget_take(gpu, budget)) {
            return a;
        }
        switch (d->single_state) {
        case NV_PC_SINGLE_WAIT_PRE: {
            uint64_t need = (uint64_t)d->ctr[NV_PC_CTR_PRE] + 1;

            t = nv_pc_sp_find(s, CH_PRE, a, b, need);
            if (t == NONE) {
                d->ctr[NV_PC_CTR_PRE] -= nv_pc_sp_count(s, CH_PRE, a, b);
                nv_pc_flag_run(s, a, b);
                return b;
            }
            d->ctr[NV_PC_CTR_PRE] = 0;
            nv_pc_flag_run(s, a, t + 1);
            d->single_state = NV_PC_SINGLE_WAIT_START;
            a = t + 1;
            break;
        }
        case NV_PC_SINGLE_WAIT_START:
            t = nv_pc_sp_find(s, CH_START, a, b, 1);
            if (t == NONE) {
                nv_pc_flag_run(s, a, b);
                return b;
            }
            nv_pc_flag_run(s, a, t + 1);
            d->ctr[NV_PC_CTR_CYCLES] = 0;
            if (!(d->ctrl & NV_PC_CTRL_EVENT_CTR_PERIOD_ALL)) {
                d->ctr[NV_PC_CTR_EVENT] = 0;
            }
            d->single_state = NV_PC_SINGLE_COUNTING;
            a = t + 1;
            break;
        case NV_PC_SINGLE_COUNTING:
            t = nv_pc_sp_find(s, CH_STOP, a, b, 1);
            end = t == NONE ? b : t + 1;
            d->ctr[NV_PC_CTR_EVENT] =
                nv_pc_sat32(d->ctr[NV_PC_CTR_EVENT],
                            nv_pc_sp_count(s, CH_EV_INC, a, end));
            d->ctr[NV_PC_CTR_PRE] =
                nv_pc_sat32(d->ctr[NV_PC_CTR_PRE],
                            nv_pc_sp_count(s, CH_XPRE_INC, a, end));
            d->ctr[NV_PC_CTR_CYCLES] =
                nv_pc_sat32(d->ctr[NV_PC_CTR_CYCLES], end - a);
            nv_pc_flag_run(s, a, end);
            if (t != NONE) {
                if (d->ctr[NV_PC_CTR_EVENT] >= d->threshold) {
                    d->ctr[NV_PC_CTR_START] =
                        nv_pc_sat32(d->ctr[NV_PC_CTR_START], 1);
                }
                if (d->ctr[NV_PC_CTR_STOP]) {
                    d->ctr[NV_PC_CTR_STOP]--;
                    d->single_state = NV_PC_SINGLE_WAIT_START;
                } else {
                    d->single_state = NV_PC_SINGLE_INACTIVE;
                }
            }
            a = end;
            break;
        default:
            /* INACTIVE: nothing counts and the FLAG is frozen. */
            nv_pc_flag_frozen(d, a, b);
            return b;
        }
    }
    return b;
}

/* ---- record mode ---- */

void nv_pc_record_clear(NvPcDomain *d)
{
    d->rec_cycles = 0;
    memset(d->rec_ev, 0, sizeof(d->rec_ev));
    d->rec_stop = 0;
}

static void nv_pc_record_accumulate(const NvPcSpan *s, uint64_t a, uint64_t b)
{
    NvPcDomain *d = s->d;

    d->rec_cycles = (d->rec_cycles + (b - a)) & REC_CYCLES_MASK;
    for (unsigned i = 0; i < 12; i++) {
        d->rec_ev[i] = MIN(d->rec_ev[i] + nv_pc_sp_count(s, CH_REC0 + i, a, b),
                           0xffffull);
    }
    d->rec_stop = MIN(d->rec_stop + nv_pc_sp_count(s, CH_STOP, a, b), 0xfffull);
}

static bool nv_pc_record_wants_packet(const NvPcDomain *d)
{
    if (d->rec_stop) {
        return true;
    }
    for (unsigned i = 0; i < 12; i++) {
        if (d->rec_ev[i] >= NV_PC_RECORD_FLUSH_LEVEL) {
            return true;
        }
    }
    return false;
}

static void nv_pc_put16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static void nv_pc_record_packet(NvGpu *gpu, NvPcDomain *d, uint64_t t)
{
    uint8_t pkt[NV_PC_RECORD_LONG_SIZE];
    unsigned size = (d->ctrl & NV_PC_CTRL_RECORD_SHORT) ?
                    NV_PC_RECORD_SHORT_SIZE : NV_PC_RECORD_LONG_SIZE;

    nv_pc_put16(pkt + 0, d->rec_cycles);
    nv_pc_put16(pkt + 2, d->rec_cycles >> 16);
    nv_pc_put16(pkt + 4, d->rec_cycles >> 32);
    nv_pc_put16(pkt + 6, d->rec_stop & 0xfff);
    for (unsigned i = 0; i < 12; i++) {
        nv_pc_put16(pkt + 8 + 2 * i, d->rec_ev[i]);
    }
    if (d->rec_valid) {
        uint64_t addr = d->rec_pos;
        bool drill = d->rec_drill;

        if (nv_pc_has(gpu, NV_PC_F_ADDR_HIGH)) {
            addr |= (uint64_t)d->rec_addr_high << 32;
        }
        if (drill || gpu_host_dma_write(&gpu->host, addr, pkt, size)) {
            /*
             * A fault wedges the domain until GPU reset (envytools
             * docs/hw/pcounter/intro.rst, "Record mode setup").
             */
            gpu_host_trace(&gpu->host, NV_TRACE_RECORD_FAULT, d->id, addr,
                           drill);
            if (!drill) {
                gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                             "nv-gpu: PCOUNTER domain %u record write to "
                             "0x%" G_GINT64_MODIFIER "x faulted; domain "
                             "wedged", d->id, addr);
            }
            d->rec_drill = false;
            d->rec_fault = true;
            d->rec_wedged = true;
            return;
        }
        /* One write always succeeds before the limit stops further ones. */
        if (d->rec_pos >= d->rec_limit) {
            d->rec_valid = false;
        }
        d->rec_pos += size;     /* the internal address is 32-bit */
    }
    memset(d->rec_ev, 0, sizeof(d->rec_ev));
    d->rec_stop = 0;
    d->rec_busy_until = t + 1 + gpu->cfg.record_write_cycles;
    d->rec_packets++;
}

/*
 * One step per packet; bounded by the cycles in [a, b) and by @budget
 * (a step each after the first).  Returns the cycle reached.
 */
static uint64_t nv_pc_record_run(NvGpu *gpu, const NvPcSpan *s, uint64_t a,
                                 uint64_t b, uint32_t *budget)
{
    NvPcDomain *d = s->d;
    uint64_t a0 = a;

    if (gpu->pc.gctrl & NV_PC_GCTRL_RECORD_RESET) {
        nv_pc_flag_run(s, a, b);
        nv_pc_record_clear(d);
        return b;
    }
    while (a < b && !d->rec_wedged) {
        uint64_t t;

        if (a > a0 && !nv_pc_budget_take(gpu, budget)) {
            nv_pc_flag_run(s, a0, a);
            return a;
        }

        if (nv_pc_record_wants_packet(d)) {
            t = MAX(a, d->rec_busy_until);
        } else {
            t = nv_pc_sp_find(s, CH_STOP, a, b, 1);
            for (unsigned i = 0; i < 12; i++) {
                t = MIN(t, nv_pc_sp_find(s, CH_REC0 + i, a, b,
                                         NV_PC_RECORD_FLUSH_LEVEL -
                                         d->rec_ev[i]));
            }
            if (t != NONE) {
                /* Counters only grow: the trigger holds until the slot. */
                t = MAX(t, d->rec_busy_until);
            }
        }
        if (t == NONE || t >= b) {
            nv_pc_record_accumulate(s, a, b);
            break;
        }
        nv_pc_record_accumulate(s, a, t + 1);
        nv_pc_record_packet(gpu, d, t);
        a = t + 1;
    }
    nv_pc_flag_run(s, a0, b);
    return b;
}

/* ---- running spans ---- */

/* The span [a, b) in the domain's mode; returns the cycle reached. */
uint64_t nv_pc_run_span(NvGpu *gpu, const NvPcSpan *s, uint64_t a, uint64_t b,
                        uint32_t *budget)
{
    switch (nv_pc_dom_mode(s->d)) {
    case NV_PC_MODE_SINGLE:
        return nv_pc_single_run(gpu, s, a, b, budget);
    case NV_PC_MODE_QUAD:
        nv_pc_quad_run(s, a, b);
        return b;
    case NV_PC_MODE_RECORD:
        return nv_pc_record_run(gpu, s, a, b, budget);
    default:
        /* Mode 3 is rejected at the CTRL write: the domain idles. */
        nv_pc_flag_frozen(s->d, a, b);
        return b;
    }
}
