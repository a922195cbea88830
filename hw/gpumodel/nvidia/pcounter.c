/*
 * nv-gpu PCOUNTER (envytools "PCOUNTER: performance counter engine"), the
 * NV40:GF100 register space with G84 to GT215 features: 8 domains of 256
 * signals, input selection and 4-input logic operations, the FLAG, single
 * event, quad event and record modes.
 *
 * Time: domain d has a clock of hz[d]; cycle c of domain d is the c-th
 * clock since the model's epoch.  Nothing steps per cycle.  A domain's
 * state is brought up to "now" lazily (on any PCOUNTER access, and from a
 * flush timer in record mode) by nv_pcounter_sync().
 *
 * Analytic evaluation: every modelled signal but TIME_B12 and the USER
 * levels (below) is a function of the cycle number that repeats with a
 * power-of-two period (1, PERIODIC 0x400..0x10000, synthetic 2^k).  So,
 * with the configuration fixed, the per-cycle input word (the 16 selected
 * signals, the six logic op outputs, SWAP) repeats with period len = the
 * largest period among the selected signals.  The word is tabulated over
 * one period, and per
 * "channel" (an indicator or an increment, e.g. EVENT x B4) a prefix sum
 * over the period gives, for any cycle range, the count in O(1) and the
 * cycle of the n-th occurrence in O(log len).  The modes are written as
 * event loops over those queries: quad mode needs the last two SWAPs in a
 * range; single mode the next PRE/START/STOP; record mode the next STOP or
 * the next cycle an event counter reaches 0xf000.  The cost of a sync is
 * independent of the clock rate and of the time elapsed, except that each
 * record packet, each single-mode period transition and each change of a
 * trailer EVENT/FLAG signal or of TIME_B12 in use (below) is one step.
 * A sync does at most a budget of steps; a domain that needs more lags
 * and catches up in later syncs (nv_pcounter_sync()).
 *
 * Cycles where the periodic formula does not hold (cycle 0, where delayed
 * arguments see "before reset"; the cycle PERIODIC is released from reset;
 * a PM_TRIGGER or WRCACHE_FLUSH pulse or a USER_TRIGGER write and the
 * cycle after it, if any input selects the signal; the first cycle of new
 * trailer EVENT/FLAG values or of a new PTIMER_TIME_B12 value, where
 * delayed arguments see the old ones) are evaluated one at a time through
 * the same mode code with a one-cycle span.
 *
 * PTIMER_TIME_B12 (host domain) follows PTIMER at a rational rate, so it
 * is not periodic in powers of two: a domain that selects it runs in
 * spans over which it is constant, each ending at its next change, which
 * is computed (ptimer_next_change()); the period table takes its value
 * as a constant, like the trailer values below.
 *
 * USER_0/1 (GT215) are levels a USER_TRIGGER write sets in the domain's
 * current cycle, pulse-mode ones dropping back to 0 in the next: after
 * those two cycles they are constant until the next write, and the
 * period table takes them as constants too (tab_key()).
 *
 * Coupling: the trailer signals DOM[x].EVENT/FLAG (0xf0-0xff) depend on
 * a domain's own state or on another domain's, so they are not periodic.
 * A domain that selects any of them, or whose own EVENT/FLAG some domain
 * selects, is evaluated in spans over which those signals are constant:
 * a span stops after the next change of the EVENT output, after the next
 * cycle the FLAG may change, and before the next change of an import.
 * Within a span the trailer values are constants of the period table
 * (tables are kept per set of values, NV_PC_TABLES of them).  A domain
 * tells each importer of its EVENT/FLAG about changes as it passes them,
 * in the importer's cycles (a short queue per imported signal); an
 * importer runs only as far as its sources' evaluated past, or in a loop
 * of imports the lookahead of their quiet periods (quiet_horizons()),
 * decides its inputs.  nv_pcounter_sync() then runs the domains in rounds
 * (sync_coupled()).  Domains nobody couples to take the direct path.
 *
 * A register write takes effect between cycle cur-1 (the last evaluated)
 * and cycle cur: cycles before it ran under the old configuration, cycle
 * cur and later under the new one.
 *
 * Choices the seed leaves open (to be listed in docs/nv-gpu.rst):
 * - a delayed argument is the selected signal's value in the previous
 *   cycle (the delay sits before the input multiplexer);
 * - a domain's own DOM[d].EVENT is its EVENT output one cycle late (a
 *   same-cycle one would loop); an import of DOM[x].S in y's cycle c is
 *   S as x sees it in the last x cycle completed by the end of y's cycle
 *   c-2 (CONTINUOUS), or 1 iff it rose in the x cycles taken in by cycle
 *   c (PULSE);
 * - a newly selected trailer EVENT/FLAG signal starts at its source's
 *   current value;
 * - PERIODIC pulses on the last clock of each period, counting from reset
 *   or from the release of GCTRL.PERIODIC_RESET;
 * - single mode: CTR_CYCLES counts the cycles in COUNTING, the STOP cycle
 *   included, the START cycle not;
 * - record mode: the trigger is checked after the cycle's increments; the
 *   packet's cycle counter includes the trigger cycle; a packet occupies
 *   the domain's outgoing slot for record_write_cycles cycles; packets
 *   sent while the buffer is not valid reset the counters but are not
 *   written;
 * - record addresses are bus addresses (no channel/DMA object model).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "nv-gpu.h"
#include "../gpumodel-math.h"

#define NONE UINT64_MAX
#define NS_PER_S 1000000000ull
#define REC_CYCLES_MASK ((1ull << 48) - 1)

/* ---- the signal map ---- */

typedef enum NvSigKind {
    SIG_UNMODELLED,         /* a hardware signal we have no source for */
    SIG_ZERO,
    SIG_ONE,
    SIG_SYNTH,
    SIG_PERIODIC,
    SIG_PM_TRIGGER,
    SIG_WRCACHE_FLUSH,
    SIG_DOM_EVENT,
    SIG_DOM_FLAG,
    SIG_PTIMER_B12,         /* the host domain's only: NvChipset row */
    SIG_USER,               /* GT215 USER_0/1: per domain, NvChipset row */
} NvSigKind;

typedef struct NvSigRange {
    uint16_t first, last;
    NvSigKind kind;
    const char *name;
} NvSigRange;

/*
 * The same in every domain (nv-gpu-regs.h, NV_SIG_*).  The trailer is
 * the seed's NV40:GF100 list.
 */
static const NvSigRange sig_map[] = {
    { NV_SIG_ZERO, NV_SIG_ZERO, SIG_ZERO, "ZERO" },
    { NV_SIG_ONE, NV_SIG_ONE, SIG_ONE, "ONE" },
    { NV_SIG_SYNTH(0), NV_SIG_SYNTH(NV_SIG_SYNTH_COUNT - 1), SIG_SYNTH,
      "SYNTH" },
    { NV_SIG_TRAILER_ZERO, NV_SIG_TRAILER_ZERO, SIG_ZERO, "ZERO" },
    { NV_SIG_PERIODIC, NV_SIG_PERIODIC, SIG_PERIODIC, "PERIODIC" },
    { NV_SIG_WRCACHE_FLUSH, NV_SIG_WRCACHE_FLUSH, SIG_WRCACHE_FLUSH,
      "WRCACHE_FLUSH" },
    { NV_SIG_PM_TRIGGER, NV_SIG_PM_TRIGGER, SIG_PM_TRIGGER, "PM_TRIGGER" },
    { NV_SIG_DOM_EVENT(7), NV_SIG_DOM_EVENT(0), SIG_DOM_EVENT, "DOM.EVENT" },
    { NV_SIG_DOM_FLAG(7), NV_SIG_DOM_FLAG(0), SIG_DOM_FLAG, "DOM.FLAG" },
};

static const NvSigRange *sig_range(unsigned s)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(sig_map); i++) {
        if (s >= sig_map[i].first && s <= sig_map[i].last) {
            return &sig_map[i];
        }
    }
    return NULL;
}

/* sig_map by signal, for the per-cycle paths (nv_pcounter_init fills it) */
static uint8_t sig_kinds[NV_PCOUNTER_SIGNALS];

static void sig_kinds_init(void)
{
    for (unsigned s = 0; s < NV_PCOUNTER_SIGNALS; s++) {
        const NvSigRange *r = sig_range(s);

        sig_kinds[s] = r ? r->kind : SIG_UNMODELLED;
    }
}

static bool has(NvGpu *gpu, uint32_t feature)
{
    return gpu->chip->pc_features & feature;
}

/* envytools' "host clock" domain, where PTIMER's signal is. */
#define NV_PC_HOST_DOMAIN 0

/* Which USER signal @s is in @d (0, 1), or -1. */
static int user_index(NvGpu *gpu, const NvPcDomain *d, unsigned s)
{
    unsigned n = s - gpu->chip->user_sig[d->id];

    return has(gpu, NV_PC_F_USER) && n < NV_PC_USER_SIGS ? (int)n : -1;
}

static NvSigKind sig_kind(NvGpu *gpu, const NvPcDomain *d, unsigned s)
{
    s %= NV_PCOUNTER_SIGNALS;
    /* Real positions: they shadow synthetic signals in domains 3, 5, 6. */
    if (user_index(gpu, d, s) >= 0) {
        return SIG_USER;
    }
    if (s && s == gpu->chip->ptimer_b12_sig && d->id == NV_PC_HOST_DOMAIN) {
        return SIG_PTIMER_B12;
    }
    if (sig_kinds[s] == SIG_WRCACHE_FLUSH && !has(gpu, NV_PC_F_WRCACHE)) {
        return SIG_ZERO;            /* NV40:G84: base+0x0e is ZERO */
    }
    return sig_kinds[s];
}

/*
 * The trailer EVENT/FLAG signals as a 16-bit set: bit b is signal
 * 0xf0 + b, DOM[7 - b].EVENT for b < 8, DOM[15 - b].FLAG above.
 */
static unsigned trailer_bit(unsigned s)
{
    return s - NV_SIG_DOM_EVENT(7);
}

static unsigned trailer_dom(unsigned b)
{
    return (NV_PC_TRAILER_SIGS / 2 - 1) - b % (NV_PC_TRAILER_SIGS / 2);
}

static bool trailer_is_flag(unsigned b)
{
    return b >= NV_PC_TRAILER_SIGS / 2;
}

/* ---- the logic operations, as data ---- */

/*
 * Per input: which of the 16 selected signals are SRC[0..3] (PRE_SRC is
 * 0-3, START_SRC 4-7, EVENT_SRC 8-11, STOP_SRC 12-15; SETFLAG/CLRFLAG
 * borrow from PRE and START on NV30+), and which *_OP bits replace
 * arguments 2 and 3 (G92+) or argument 3 by SETFLAG (NV30+).
 */
typedef struct NvOpDesc {
    const char *name;
    uint8_t src[4];
    uint32_t arg2_delayed;
    uint32_t arg3_delayed;
    uint32_t arg3_setflag;
} NvOpDesc;

static const NvOpDesc op_desc[NV_PC_INPUTS] = {
    [NV_PC_IN_PRE] = { "PRE", { 0, 1, 2, 3 },
        NV_PC_OP_ARG2_DELAYED_SRC0, NV_PC_OP_ARG3_DELAYED_SRC1, 0 },
    [NV_PC_IN_START] = { "START", { 4, 5, 6, 7 },
        NV_PC_OP_ARG2_DELAYED_SRC0, NV_PC_OP_ARG3_DELAYED_SRC1, 0 },
    [NV_PC_IN_EVENT] = { "EVENT", { 8, 9, 10, 11 },
        NV_PC_OP_EV_ARG2_DELAYED_SRC0, NV_PC_OP_EV_ARG3_DELAYED_SRC1,
        NV_PC_OP_ARG3_SETFLAG },
    [NV_PC_IN_STOP] = { "STOP", { 12, 13, 14, 15 },
        NV_PC_OP_EV_ARG2_DELAYED_SRC0, NV_PC_OP_EV_ARG3_DELAYED_SRC1,
        NV_PC_OP_ARG3_SETFLAG },
    [NV_PC_IN_SETFLAG] = { "SETFLAG", { 6, 7, 0, 1 },
        NV_PC_OP_ARG2_DELAYED_SRC0, NV_PC_OP_ARG3_DELAYED_SRC1, 0 },
    [NV_PC_IN_CLRFLAG] = { "CLRFLAG", { 2, 3, 4, 5 },
        NV_PC_OP_ARG2_DELAYED_SRC0, NV_PC_OP_ARG3_DELAYED_SRC1, 0 },
};

/* SETFLAG first: EVENT and STOP may take it as argument 3. */
static const uint8_t op_order[NV_PC_INPUTS] = {
    NV_PC_IN_SETFLAG, NV_PC_IN_CLRFLAG, NV_PC_IN_PRE, NV_PC_IN_START,
    NV_PC_IN_EVENT, NV_PC_IN_STOP,
};

static unsigned sel_signal(const NvPcDomain *d, unsigned i)
{
    return (d->src[i / 4] >> (8 * (i % 4))) & 0xff;
}

static unsigned periodic_len(NvGpu *gpu, const NvPcDomain *d)
{
    unsigned per = (d->ctrl & NV_PC_CTRL_PERIODIC_MASK) >>
                   NV_PC_CTRL_PERIODIC_SHIFT;

    if (!has(gpu, NV_PC_F_PERIODIC) || !per ||
        (gpu->pc.gctrl & NV_PC_GCTRL_PERIODIC_RESET)) {
        return 0;
    }
    return 0x200u << per;
}

/* ---- one-cycle pulses from PGRAPH ---- */

/* The last two pulses of PGRAPH signal @k in @d's cycles. */
static const uint64_t *pulse_cycles(const NvPcDomain *d, NvSigKind k)
{
    return k == SIG_PM_TRIGGER ? d->pm_trigger_cycle : d->wrcache_flush_cycle;
}

static bool pulse_at(const uint64_t *pulse, uint64_t c)
{
    return c == pulse[0] || c == pulse[1];
}

/* ---- USER signals (GT215) ---- */

/* The levels from the cycle after the last write on: a span constant. */
static unsigned user_steady(const NvPcDomain *d)
{
    return d->user_val & ~d->user_pulse;
}

/*
 * USER_0/1 as a bit set in cycle @c, which is at least user_cycle - 1:
 * levels set by a USER_TRIGGER write in the domain's current cycle, the
 * pulse-mode ones back to 0 in the next.  Never written (user_cycle
 * NONE): all 0.
 */
static unsigned user_at(const NvPcDomain *d, uint64_t c)
{
    if (c < d->user_cycle) {
        return d->user_before;
    }
    return c == d->user_cycle ? d->user_val : user_steady(d);
}

static void user_trigger(NvPcDomain *d, uint32_t val)
{
    /* A second write in the same cycle replaces the first. */
    if (d->user_cycle != d->cur) {
        d->user_before = d->cur ? user_at(d, d->cur - 1) : 0;
    }
    d->user_cycle = d->cur;
    d->user_val = val & NV_PC_USER_MASK;
    d->user_pulse = (val >> NV_PC_USER_SIGS) & NV_PC_USER_MASK;
}

/* ---- PTIMER-derived signals ---- */

/*
 * PTIMER_TIME_B12 (envytools' G80:GF100 host clock signal list): bit 12 of
 * PTIMER's TIME, sampled at the domain's clock.  TIME advances by
 * NUMERATOR/DENOMINATOR per tick of the source clock, so in the domain's
 * cycles by P/Q = src_hz x NUMERATOR / (DENOMINATOR x domain_hz) per
 * cycle: TIME(c) = t0 + floor((c - c0) x P / Q) from the cycle c0 of the
 * last TIME or ratio write (or reset), where it was t0.  Not periodic in
 * powers of two, so not in the period table: constant over spans that
 * end at its next change, which is computed, like the trailer values.
 */
static uint64_t ptimer_rate(NvGpu *gpu, const NvPcDomain *d, uint64_t *q)
{
    /*
     * Both below 2^50: the clocks are at most 10 GHz (nv-gpu.c), the
     * ratio's terms at most 0xffff (PTIMER's write masks, checked at
     * load).
     */
    *q = d->hz * gpu->pc.ptimer_den;
    return gpu->cfg.ptimer_src_hz * gpu->pc.ptimer_num;
}

/*
 * TIME units elapsed from cycle ptimer_c0 to cycle @c >= ptimer_c0,
 * modulo 2^64 as TIME itself.
 */
static uint64_t ptimer_units(NvGpu *gpu, const NvPcDomain *d, uint64_t c)
{
    uint64_t q, p = ptimer_rate(gpu, d, &q);

    /* A zero ratio stops the clock (ptimer.c). */
    return (p && q) ? gpu_muldiv64_wrap(c - d->ptimer_c0, p, q) : 0;
}

/* TIME_B12 in cycle @c, which is at least ptimer_c0 - 1. */
static bool ptimer_b12_at(NvGpu *gpu, const NvPcDomain *d, uint64_t c)
{
    if (c < d->ptimer_c0) {
        return d->ptimer_before;
    }
    return ((gpu->pc.ptimer_t0 + ptimer_units(gpu, d, c)) >> 12) & 1;
}

/*
 * The first cycle after @c (>= ptimer_c0) at which TIME_B12 may differ
 * from cycle @c.  Bit 12 depends on TIME modulo 0x2000 only, which moves
 * by the rate modulo 0x2000 per cycle: up to 0x1000 up, or less than
 * 0x1000 down.  So the bit changes in the first cycle in which TIME has
 * reached the next multiple of 0x1000 up, or gone below the last one.
 *
 * With k = c - ptimer_c0 and k p = floor(k p / q) q + r, the cycle is
 * k + ceil((m q - r) / p) up, m = 0x1000 - x the units to the next
 * multiple; down, by dn / q per cycle, with s = (q - r) mod q for k dn,
 * k + floor((s + x q) / dn) + 1.  All terms are below 2^63.
 */
static uint64_t ptimer_next_change(NvGpu *gpu, const NvPcDomain *d,
                                   uint64_t c)
{
    uint64_t q, p = ptimer_rate(gpu, d, &q), k, x, r, dn, step;

    if (!d->ptimer_sel || !p || !q) {
        return NONE;
    }
    p %= q * 0x2000;
    if (!p) {
        return NONE;
    }
    k = c - d->ptimer_c0;
    x = (gpu->pc.ptimer_t0 + ptimer_units(gpu, d, c)) & 0xfff;
    if (p <= q * 0x1000) {
        gpu_muldivmod64_wrap(k, p, q, &r);
        step = ((0x1000 - x) * q - r + p - 1) / p;
    } else {
        dn = q * 0x2000 - p;
        gpu_muldivmod64_wrap(k, dn, q, &r);
        step = ((r ? q - r : 0) + x * q) / dn + 1;
    }
    return gpu_add64_sat(c, step);      /* NONE past the end of time */
}

/*
 * TIME_B12 of the current cycle into d->ptimer_b12 (the span constant);
 * whether it differs from the cycle before (delayed arguments see that).
 */
static bool ptimer_refresh(NvGpu *gpu, NvPcDomain *d)
{
    if (!d->ptimer_sel) {
        return false;
    }
    d->ptimer_b12 = ptimer_b12_at(gpu, d, d->cur);
    return d->cur && d->ptimer_b12 != ptimer_b12_at(gpu, d, d->cur - 1);
}

/* PTIMER as it is now becomes the domains' t0, NUMERATOR, DENOMINATOR. */
static void ptimer_snapshot(NvGpu *gpu)
{
    gpu->pc.ptimer_t0 = nv_ptimer_time(gpu);
    gpu->pc.ptimer_num = nv_reg_get(gpu, NV_PTIMER_NUMERATOR);
    gpu->pc.ptimer_den = nv_reg_get(gpu, NV_PTIMER_DENOMINATOR);
}

/*
 * Signal @s of domain @d at cycle @c.  @table: the periodic form, valid
 * away from the cycles that nv_pcounter.c evaluates one at a time.
 */
static bool sig_value(NvGpu *gpu, const NvPcDomain *d, unsigned s,
                      uint64_t c, bool table)
{
    const NvSynth *sy;
    unsigned x;

    switch (sig_kind(gpu, d, s)) {
    case SIG_ONE:
        return true;
    case SIG_SYNTH:
        sy = &d->synth[s - NV_SIG_SYNTH(0)];
        return ((c + sy->phase) & ((1ull << sy->period_log2) - 1)) <
               sy->high;
    case SIG_PERIODIC:
        x = periodic_len(gpu, d);
        if (!x || (!table && c < d->periodic_origin)) {
            return false;
        }
        return ((c - d->periodic_origin) & (x - 1)) == x - 1;
    case SIG_PM_TRIGGER:
    case SIG_WRCACHE_FLUSH:
        return !table && pulse_at(pulse_cycles(d, sig_kind(gpu, d, s)), c);
    case SIG_PTIMER_B12:
        return table ? d->ptimer_b12 : ptimer_b12_at(gpu, d, c);
    case SIG_USER:
        return ((table ? user_steady(d) : user_at(d, c)) >>
                user_index(gpu, d, s)) & 1;
    case SIG_DOM_EVENT:
    case SIG_DOM_FLAG:
        /* Constant over a span; the cycle before it may differ. */
        return (((!table && c < d->cur) ? d->dyn_prev : d->dyn) >>
                trailer_bit(s)) & 1;
    default:
        return false;
    }
}

static unsigned sig_period(NvGpu *gpu, const NvPcDomain *d, unsigned s)
{
    switch (sig_kind(gpu, d, s)) {
    case SIG_SYNTH:
        return 1u << d->synth[s - NV_SIG_SYNTH(0)].period_log2;
    case SIG_PERIODIC:
        return MAX(periodic_len(gpu, d), 1);
    default:
        return 1;
    }
}

/* The input word of cycle @c (bits: NV_PC_W_*). */
static uint32_t word_at(NvGpu *gpu, const NvPcDomain *d, uint64_t c,
                        bool table)
{
    uint32_t now = 0, prev = 0, w;
    bool in[NV_PC_INPUTS];
    bool g92 = has(gpu, NV_PC_F_G92_DELAY);
    bool setflag_arg = has(gpu, NV_PC_F_SETFLAG_ARG);

    for (unsigned i = 0; i < 16; i++) {
        unsigned s = sel_signal(d, i);

        now |= (uint32_t)sig_value(gpu, d, s, c, table) << i;
        /* Before cycle 0 every signal was 0. */
        if (table || c) {
            prev |= (uint32_t)sig_value(gpu, d, s, c - 1, table) << i;
        }
    }
    for (unsigned k = 0; k < NV_PC_INPUTS; k++) {
        unsigned in_id = op_order[k];
        const NvOpDesc *od = &op_desc[in_id];
        uint32_t op = d->op[in_id];
        unsigned a0, a1, a2, a3;

        a0 = ((op & NV_PC_OP_DELAY0 ? prev : now) >> od->src[0]) & 1;
        a1 = ((op & NV_PC_OP_DELAY1 ? prev : now) >> od->src[1]) & 1;
        a2 = (g92 && (op & od->arg2_delayed)) ? (prev >> od->src[0]) & 1
                                              : (now >> od->src[2]) & 1;
        if (setflag_arg && od->arg3_setflag && (op & od->arg3_setflag)) {
            a3 = in[NV_PC_IN_SETFLAG];
        } else if (g92 && (op & od->arg3_delayed)) {
            a3 = (prev >> od->src[1]) & 1;
        } else {
            a3 = (now >> od->src[3]) & 1;
        }
        in[in_id] = (op >> (a0 | a1 << 1 | a2 << 2 | a3 << 3)) & 1;
    }
    w = now;
    for (unsigned k = 0; k < NV_PC_INPUTS; k++) {
        w |= (uint32_t)in[k] * NV_PC_W_IN(k);
    }
    if (has(gpu, NV_PC_F_SPEC_SRC)) {
        w |= sig_value(gpu, d, NV_PC_SPEC_SRC_SWAP(d->spec_src), c, table) ?
             NV_PC_W_SWAP : 0;
        w |= sig_value(gpu, d, NV_PC_SPEC_SRC_UNK8(d->spec_src), c, table) ?
             NV_PC_W_UNK8 : 0;
    } else {
        /* NV30:G84: SWAP is hardwired to PGRAPH.PM_TRIGGER. */
        w |= sig_value(gpu, d, NV_SIG_PM_TRIGGER, c, table) ?
             NV_PC_W_SWAP : 0;
    }
    return w;
}

/* ---- channels: what the modes count ---- */

enum {
    CH_PRE,             /* PRE input */
    CH_START,
    CH_STOP,
    CH_SWAP,
    CH_SETCLR,          /* SETFLAG or CLRFLAG: the FLAG may change */
    CH_EV_INC,          /* CTR_EVENT increment, by counter mode */
    CH_QSTART_INC,      /* quad CTR_START increment */
    CH_XPRE_INC,        /* single CTR_PRE increment (EXTRA_* modes) */
    CH_EV_HIGH,         /* the EVENT output is 1 */
    CH_EV_LOW,          /* the EVENT output is 0 */
    CH_SET_ONLY,        /* SETFLAG without CLRFLAG: the FLAG becomes 1 */
    CH_CLR,             /* CLRFLAG: the FLAG becomes 0 */
    CH_REC0,            /* 12 record counters: the selected signals 0-11 */
    CH_COUNT = CH_REC0 + 12
};

G_STATIC_ASSERT(CH_COUNT <= NV_PC_CHANNELS);

static unsigned ctr_mode(const NvPcDomain *d)
{
    unsigned m = (d->ctrl & NV_PC_CTRL_CTR_MODE_MASK) >>
                 NV_PC_CTRL_CTR_MODE_SHIFT;

    /* 5-7 are rejected at the CTRL write; count them as SIMPLE. */
    return m <= NV_PC_CTR_EXTRA_B6_EVENT_B2 ? m : NV_PC_CTR_SIMPLE;
}

static uint32_t b4(uint32_t w)
{
    return (w >> 4) & 0xf;              /* START_SRC[0..3] */
}

static uint32_t b6(uint32_t w)
{
    return b4(w) | ((w >> 10) & 3) << 4; /* + EVENT_SRC[2..3] */
}

static uint32_t b2(uint32_t w)
{
    return (w >> 8) & 3;                /* EVENT_SRC[0..1] */
}

static uint32_t ch_inc(unsigned ch, uint32_t w, unsigned mode)
{
    bool ev = w & NV_PC_W_IN(NV_PC_IN_EVENT);

    switch (ch) {
    case CH_PRE:
        return !!(w & NV_PC_W_IN(NV_PC_IN_PRE));
    case CH_START:
        return !!(w & NV_PC_W_IN(NV_PC_IN_START));
    case CH_STOP:
        return !!(w & NV_PC_W_IN(NV_PC_IN_STOP));
    case CH_SWAP:
        return !!(w & NV_PC_W_SWAP);
    case CH_SETCLR:
        return !!(w & (NV_PC_W_IN(NV_PC_IN_SETFLAG) |
                       NV_PC_W_IN(NV_PC_IN_CLRFLAG)));
    case CH_EV_HIGH:
        return ev;
    case CH_EV_LOW:
        return !ev;
    case CH_SET_ONLY:
        return (w & (NV_PC_W_IN(NV_PC_IN_SETFLAG) |
                     NV_PC_W_IN(NV_PC_IN_CLRFLAG))) ==
               NV_PC_W_IN(NV_PC_IN_SETFLAG);
    case CH_CLR:
        return !!(w & NV_PC_W_IN(NV_PC_IN_CLRFLAG));
    case CH_EV_INC:
        switch (mode) {
        case NV_PC_CTR_EVENT_B4:
            return ev ? b4(w) : 0;
        case NV_PC_CTR_EVENT_B6:
            return ev ? b6(w) : 0;
        case NV_PC_CTR_EXTRA_B6_EVENT_B2:
            return b2(w);
        default:
            return ev;
        }
    case CH_QSTART_INC:
        switch (mode) {
        case NV_PC_CTR_EXTRA_B4:
            return b4(w);
        case NV_PC_CTR_EXTRA_B6_EVENT_B2:
            return b6(w);
        default:
            return !!(w & NV_PC_W_IN(NV_PC_IN_START));
        }
    case CH_XPRE_INC:
        switch (mode) {
        case NV_PC_CTR_EXTRA_B4:
            return b4(w);
        case NV_PC_CTR_EXTRA_B6_EVENT_B2:
            return b6(w);
        default:
            return 0;
        }
    default:
        return (w >> (ch - CH_REC0)) & 1;
    }
}

/* ---- the period table ---- */

static void table_free(NvPcTable *t)
{
    g_free(t->word);
    t->word = NULL;
    for (unsigned i = 0; i < NV_PC_CHANNELS; i++) {
        g_free(t->prefix[i]);
        t->prefix[i] = NULL;
    }
    t->valid = false;
}

/*
 * The EVENT output of cycle cur-1.  After a bulk span it is left in the
 * table (a cache miss on every span otherwise): read it before the table
 * goes.
 */
static bool ev_last_get(NvPcDomain *d)
{
    if (d->ev_last_in_tab) {
        d->ev_last = d->tab.word[(d->cur - 1) & (d->tab.len - 1)] &
                     NV_PC_W_IN(NV_PC_IN_EVENT);
        d->ev_last_in_tab = false;
    }
    return d->ev_last;
}

static void table_drop(NvPcDomain *d)
{
    ev_last_get(d);
    table_free(&d->tab);
    for (unsigned i = 0; i < NV_PC_TABLES - 1; i++) {
        table_free(&d->spare[i]);
    }
}

/* The period of the domain's inputs: every selected signal's divides it. */
static unsigned table_len(NvGpu *gpu, const NvPcDomain *d)
{
    unsigned len = 1;

    for (unsigned i = 0; i < 16; i++) {
        len = MAX(len, sig_period(gpu, d, sel_signal(d, i)));
    }
    len = MAX(len, sig_period(gpu, d, NV_PC_SPEC_SRC_SWAP(d->spec_src)));
    return MAX(len, sig_period(gpu, d, NV_PC_SPEC_SRC_UNK8(d->spec_src)));
}

/*
 * What a table takes as constant: the trailer EVENT/FLAG values d->dyn,
 * PTIMER_TIME_B12 of the span and the steady USER levels.
 */
static uint32_t tab_key(const NvPcDomain *d)
{
    return d->dyn | (uint32_t)d->ptimer_b12 << NV_PC_TRAILER_SIGS |
           user_steady(d) << (NV_PC_TRAILER_SIGS + 1);
}

/* Swap in the spare table kept for the current span constants, if any. */
static bool table_find(NvPcDomain *d)
{
    for (unsigned i = 0; i < NV_PC_TABLES - 1; i++) {
        if (d->spare[i].valid && d->spare[i].key == tab_key(d)) {
            NvPcTable t = d->tab;

            ev_last_get(d);
            d->tab = d->spare[i];
            d->spare[i] = t;
            return true;
        }
    }
    return false;
}

/*
 * A new table for the current span constants (tab_key()); the one in
 * use, if any, becomes a spare.  Without trailer or PTIMER inputs there
 * is one key and no spares.
 */
static void table_build(NvGpu *gpu, NvPcDomain *d)
{
    NvPcTable *t = &d->tab;
    unsigned len = table_len(gpu, d);

    ev_last_get(d);
    if (t->valid) {
        table_free(&d->spare[d->spare_next]);
        d->spare[d->spare_next] = *t;
        d->spare_next = (d->spare_next + 1) % (NV_PC_TABLES - 1);
        memset(t, 0, sizeof(*t));
    }
    d->tab_steps = 0;
    table_free(t);
    t->key = tab_key(d);
    t->len = len;
    t->len_log2 = __builtin_ctz(len);
    t->word = g_new(uint32_t, len);
    /* Cycle i stands for every cycle congruent to i: all periods divide. */
    for (unsigned i = 0; i < len; i++) {
        t->word[i] = word_at(gpu, d, i, true);
    }
    t->valid = true;
}

static const uint32_t *table_prefix(NvPcDomain *d, unsigned ch)
{
    NvPcTable *t = &d->tab;

    if (!t->prefix[ch]) {
        unsigned mode = ctr_mode(d);
        uint32_t *p = g_new(uint32_t, t->len + 1);

        /* At most 63 x 0x10000 per period: fits. */
        p[0] = 0;
        for (unsigned i = 0; i < t->len; i++) {
            p[i + 1] = p[i] + ch_inc(ch, t->word[i], mode);
        }
        t->prefix[ch] = p;
    }
    return t->prefix[ch];
}

/*
 * A span answers the mode code's questions over a range of cycles: from
 * the period table, or for one cycle with an explicit word.
 */
typedef struct Span {
    NvPcDomain *d;
    bool one;
    uint32_t w;
    uint64_t c0;
} Span;

/* Sum of channel @ch over cycles [0, x) in the periodic form. */
static uint64_t tab_f(NvPcDomain *d, unsigned ch, uint64_t x)
{
    const uint32_t *p = table_prefix(d, ch);
    const NvPcTable *t = &d->tab;

    return (x >> t->len_log2) * p[t->len] + p[x & (t->len - 1)];
}

static uint64_t sp_count(const Span *s, unsigned ch, uint64_t a, uint64_t b)
{
    if (b <= a) {
        return 0;
    }
    if (s->one) {
        return (a <= s->c0 && s->c0 < b) ? ch_inc(ch, s->w, ctr_mode(s->d))
                                         : 0;
    }
    return tab_f(s->d, ch, b) - tab_f(s->d, ch, a);
}

/*
 * The cycle c in [a, b) at which the sum of @ch over [a, c] first reaches
 * @n (n >= 1), or NONE.
 */
static uint64_t sp_find(const Span *s, unsigned ch, uint64_t a, uint64_t b,
                        uint64_t n)
{
    const uint32_t *p;
    uint64_t target, q, rem, x;
    uint32_t len, lo, hi;

    if (b <= a) {
        return NONE;
    }
    if (s->one) {
        return (a <= s->c0 && s->c0 < b &&
                ch_inc(ch, s->w, ctr_mode(s->d)) >= n) ? s->c0 : NONE;
    }
    p = table_prefix(s->d, ch);
    len = s->d->tab.len;
    if (!p[len]) {
        return NONE;
    }
    /* Smallest x with F(x) >= F(a) + n; the cycle is x - 1. */
    target = tab_f(s->d, ch, a) + n;
    q = (target - 1) / p[len];
    rem = target - q * p[len];
    lo = 1;
    hi = len;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (p[mid] >= rem) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    x = q * len + lo;
    return x - 1 < b ? x - 1 : NONE;
}

static uint32_t sp_word(const Span *s, uint64_t c)
{
    /* len is a power of two */
    return s->one ? s->w : s->d->tab.word[c & (s->d->tab.len - 1)];
}

/* ---- the FLAG ---- */

/* FLAG after cycles [a, b) from @flag: the last SETFLAG/CLRFLAG wins. */
static bool flag_after(const Span *s, bool flag, uint64_t a, uint64_t b)
{
    uint64_t n = sp_count(s, CH_SETCLR, a, b);

    if (!n) {
        return flag;
    }
    /* CLRFLAG beats SETFLAG in the same cycle. */
    return !(sp_word(s, sp_find(s, CH_SETCLR, a, b, n)) &
             NV_PC_W_IN(NV_PC_IN_CLRFLAG));
}

static void flag_run(const Span *s, uint64_t a, uint64_t b)
{
    NvPcDomain *d = s->d;

    if (b <= a) {
        return;
    }
    d->flag_prev = b - a >= 2 ? flag_after(s, d->flag, a, b - 1) : d->flag;
    d->flag = flag_after(s, d->flag, a, b);
}

static void flag_frozen(NvPcDomain *d, uint64_t a, uint64_t b)
{
    if (b > a) {
        d->flag_prev = d->flag;
    }
}

static uint32_t sat32(uint64_t v, uint64_t add)
{
    return MIN(v + add, (uint64_t)UINT32_MAX);
}

/* ---- quad event mode ---- */

static void quad_counts(const Span *s, uint64_t a, uint64_t b,
                        const uint32_t *base, uint32_t *out)
{
    out[NV_PC_CTR_CYCLES] = sat32(base[NV_PC_CTR_CYCLES], b - a);
    out[NV_PC_CTR_EVENT] = sat32(base[NV_PC_CTR_EVENT],
                                 sp_count(s, CH_EV_INC, a, b));
    out[NV_PC_CTR_START] = sat32(base[NV_PC_CTR_START],
                                 sp_count(s, CH_QSTART_INC, a, b));
    out[NV_PC_CTR_PRE] = sat32(base[NV_PC_CTR_PRE],
                               sp_count(s, CH_PRE, a, b));
    out[NV_PC_CTR_STOP] = sat32(base[NV_PC_CTR_STOP],
                                sp_count(s, CH_STOP, a, b));
}

static void quad_run(const Span *s, uint64_t a, uint64_t b)
{
    static const uint32_t zero[NV_PC_CTRS];
    NvPcDomain *d = s->d;
    uint64_t n = sp_count(s, CH_SWAP, a, b);
    uint32_t tmp[NV_PC_CTRS];

    if (!n) {
        quad_counts(s, a, b, d->shadow, tmp);
        memcpy(d->shadow, tmp, sizeof(tmp));
    } else {
        /* A swap happens before the cycle's counting. */
        uint64_t last = sp_find(s, CH_SWAP, a, b, n);

        if (n >= 2) {
            quad_counts(s, sp_find(s, CH_SWAP, a, b, n - 1), last, zero,
                        d->ctr);
        } else {
            quad_counts(s, a, last, d->shadow, d->ctr);
        }
        quad_counts(s, last, b, zero, d->shadow);
        /* EMPTY -> VALID -> OVERFLOW, once per swap. */
        if (n >= 2 || d->quad_state != NV_PC_QUAD_EMPTY) {
            d->quad_state = NV_PC_QUAD_OVERFLOW;
        } else {
            d->quad_state = NV_PC_QUAD_VALID;
        }
    }
    flag_run(s, a, b);
}

/* One evaluation step from @budget; false when it is spent. */
static bool budget_take(NvGpu *gpu, uint32_t *budget)
{
    if (!*budget) {
        return false;
    }
    (*budget)--;
    gpu->pc.steps++;
    return true;
}

/* ---- single event mode ---- */

/*
 * The PRE_OP write, between cycles cur-1 and cur (as all writes): the
 * seed's INACTIVE case in the cycle of the write.
 */
static void single_start(NvPcDomain *d)
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
static void quad_swap(NvPcDomain *d)
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
static uint64_t single_run(NvGpu *gpu, const Span *s, uint64_t a,
                           uint64_t b, uint32_t *budget)
{
    NvPcDomain *d = s->d;
    uint64_t a0 = a, t, end;

    while (a < b) {
        if (a > a0 && !budget_take(gpu, budget)) {
            return a;
        }
        switch (d->single_state) {
        case NV_PC_SINGLE_WAIT_PRE: {
            uint64_t need = (uint64_t)d->ctr[NV_PC_CTR_PRE] + 1;

            t = sp_find(s, CH_PRE, a, b, need);
            if (t == NONE) {
                d->ctr[NV_PC_CTR_PRE] -= sp_count(s, CH_PRE, a, b);
                flag_run(s, a, b);
                return b;
            }
            d->ctr[NV_PC_CTR_PRE] = 0;
            flag_run(s, a, t + 1);
            d->single_state = NV_PC_SINGLE_WAIT_START;
            a = t + 1;
            break;
        }
        case NV_PC_SINGLE_WAIT_START:
            t = sp_find(s, CH_START, a, b, 1);
            if (t == NONE) {
                flag_run(s, a, b);
                return b;
            }
            flag_run(s, a, t + 1);
            d->ctr[NV_PC_CTR_CYCLES] = 0;
            if (!(d->ctrl & NV_PC_CTRL_EVENT_CTR_PERIOD_ALL)) {
                d->ctr[NV_PC_CTR_EVENT] = 0;
            }
            d->single_state = NV_PC_SINGLE_COUNTING;
            a = t + 1;
            break;
        case NV_PC_SINGLE_COUNTING:
            t = sp_find(s, CH_STOP, a, b, 1);
            end = t == NONE ? b : t + 1;
            d->ctr[NV_PC_CTR_EVENT] = sat32(d->ctr[NV_PC_CTR_EVENT],
                                            sp_count(s, CH_EV_INC, a, end));
            d->ctr[NV_PC_CTR_PRE] = sat32(d->ctr[NV_PC_CTR_PRE],
                                          sp_count(s, CH_XPRE_INC, a, end));
            d->ctr[NV_PC_CTR_CYCLES] = sat32(d->ctr[NV_PC_CTR_CYCLES],
                                             end - a);
            flag_run(s, a, end);
            if (t != NONE) {
                if (d->ctr[NV_PC_CTR_EVENT] >= d->threshold) {
                    d->ctr[NV_PC_CTR_START] =
                        sat32(d->ctr[NV_PC_CTR_START], 1);
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
            flag_frozen(d, a, b);
            return b;
        }
    }
    return b;
}

/* ---- record mode ---- */

static void record_clear(NvPcDomain *d)
{
    d->rec_cycles = 0;
    memset(d->rec_ev, 0, sizeof(d->rec_ev));
    d->rec_stop = 0;
}

static void record_accumulate(const Span *s, uint64_t a, uint64_t b)
{
    NvPcDomain *d = s->d;

    d->rec_cycles = (d->rec_cycles + (b - a)) & REC_CYCLES_MASK;
    for (unsigned i = 0; i < 12; i++) {
        d->rec_ev[i] = MIN(d->rec_ev[i] + sp_count(s, CH_REC0 + i, a, b),
                           0xffffull);
    }
    d->rec_stop = MIN(d->rec_stop + sp_count(s, CH_STOP, a, b), 0xfffull);
}

static bool record_wants_packet(const NvPcDomain *d)
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

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static void record_packet(NvGpu *gpu, NvPcDomain *d, uint64_t t)
{
    uint8_t pkt[NV_PC_RECORD_LONG_SIZE];
    unsigned size = (d->ctrl & NV_PC_CTRL_RECORD_SHORT) ?
                    NV_PC_RECORD_SHORT_SIZE : NV_PC_RECORD_LONG_SIZE;

    put16(pkt + 0, d->rec_cycles);
    put16(pkt + 2, d->rec_cycles >> 16);
    put16(pkt + 4, d->rec_cycles >> 32);
    put16(pkt + 6, d->rec_stop & 0xfff);
    for (unsigned i = 0; i < 12; i++) {
        put16(pkt + 8 + 2 * i, d->rec_ev[i]);
    }
    if (d->rec_valid) {
        uint64_t addr = d->rec_pos;
        bool drill = d->rec_drill;

        if (has(gpu, NV_PC_F_ADDR_HIGH)) {
            addr |= (uint64_t)d->rec_addr_high << 32;
        }
        if (drill || gpu_host_dma_write(&gpu->host, addr, pkt, size)) {
            /* The seed: a fault wedges the domain until GPU reset. */
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
static uint64_t record_run(NvGpu *gpu, const Span *s, uint64_t a,
                           uint64_t b, uint32_t *budget)
{
    NvPcDomain *d = s->d;
    uint64_t a0 = a;

    if (gpu->pc.gctrl & NV_PC_GCTRL_RECORD_RESET) {
        flag_run(s, a, b);
        record_clear(d);
        return b;
    }
    while (a < b && !d->rec_wedged) {
        uint64_t t;

        if (a > a0 && !budget_take(gpu, budget)) {
            flag_run(s, a0, a);
            return a;
        }

        if (record_wants_packet(d)) {
            t = MAX(a, d->rec_busy_until);
        } else {
            t = sp_find(s, CH_STOP, a, b, 1);
            for (unsigned i = 0; i < 12; i++) {
                t = MIN(t, sp_find(s, CH_REC0 + i, a, b,
                                   NV_PC_RECORD_FLUSH_LEVEL - d->rec_ev[i]));
            }
            if (t != NONE) {
                /* Counters only grow: the trigger holds until the slot. */
                t = MAX(t, d->rec_busy_until);
            }
        }
        if (t == NONE || t >= b) {
            record_accumulate(s, a, b);
            break;
        }
        record_accumulate(s, a, t + 1);
        record_packet(gpu, d, t);
        a = t + 1;
    }
    flag_run(s, a0, b);
    return b;
}

/* ---- running spans ---- */

static unsigned dom_mode(const NvPcDomain *d)
{
    return d->ctrl & NV_PC_CTRL_MODE_MASK;
}

/* The span [a, b) in the domain's mode; returns the cycle reached. */
static uint64_t run_span(NvGpu *gpu, const Span *s, uint64_t a, uint64_t b,
                         uint32_t *budget)
{
    switch (dom_mode(s->d)) {
    case NV_PC_MODE_SINGLE:
        return single_run(gpu, s, a, b, budget);
    case NV_PC_MODE_QUAD:
        quad_run(s, a, b);
        return b;
    case NV_PC_MODE_RECORD:
        return record_run(gpu, s, a, b, budget);
    default:
        /* Mode 3 is rejected at the CTRL write: the domain idles. */
        flag_frozen(s->d, a, b);
        return b;
    }
}

/* Whether the domain's inputs see signal @s at all. */
static bool selects(NvGpu *gpu, const NvPcDomain *d, unsigned s)
{
    if (!has(gpu, NV_PC_F_SPEC_SRC)) {
        if (s == NV_SIG_PM_TRIGGER) {
            return true;    /* NV30:G84: SWAP is PGRAPH.PM_TRIGGER */
        }
    } else if (NV_PC_SPEC_SRC_SWAP(d->spec_src) == s ||
               NV_PC_SPEC_SRC_UNK8(d->spec_src) == s) {
        return true;
    }
    for (unsigned r = 0; r < 4; r++) {
        uint32_t x = d->src[r] ^ s * 0x01010101u;

        /* A zero byte in x: one of the four selections is @s. */
        if ((x - 0x01010101u) & ~x & 0x80808080u) {
            return true;
        }
    }
    return false;
}

/* Whether an input of @d selects TIME_B12 (the host domain only). */
static bool ptimer_selected(NvGpu *gpu, NvPcDomain *d)
{
    return d->id == NV_PC_HOST_DOMAIN && gpu->chip->ptimer_b12_sig &&
           selects(gpu, d, gpu->chip->ptimer_b12_sig);
}

/* Whether an input of @d selects one of its USER signals (GT215). */
static bool user_selected(NvGpu *gpu, const NvPcDomain *d)
{
    if (!has(gpu, NV_PC_F_USER)) {
        return false;
    }
    for (unsigned k = 0; k < NV_PC_USER_SIGS; k++) {
        if (selects(gpu, d, gpu->chip->user_sig[d->id] + k)) {
            return true;
        }
    }
    return false;
}

/*
 * Origins, two pulses for each of two signals and the last USER_TRIGGER
 * write, and their next cycles
 */
#define NV_PC_SPECIAL_MAX (2 + 2 * 2 * 2 + 2)

/*
 * Cycles the period table does not describe: a pulse or USER_TRIGGER
 * write is seen directly and delayed by one cycle; the origins see
 * "before" in their delayed inputs.  A pulse or USER signal no input
 * selects changes nothing: the table holds there.
 */
static unsigned special_cycles(NvGpu *gpu, const NvPcDomain *d,
                               uint64_t *out)
{
    static const NvSigKind pulsed[] = { SIG_PM_TRIGGER, SIG_WRCACHE_FLUSH };
    static const uint8_t pulsed_sig[] = {
        NV_SIG_PM_TRIGGER, NV_SIG_WRCACHE_FLUSH
    };
    unsigned n = 0;

    out[n++] = 0;
    out[n++] = d->periodic_origin;
    for (unsigned k = 0; k < G_N_ELEMENTS(pulsed); k++) {
        const uint64_t *pulse = pulse_cycles(d, pulsed[k]);
        bool seen = pulse[0] != NONE && selects(gpu, d, pulsed_sig[k]);

        for (unsigned i = 0; i < 2 && seen; i++) {
            if (pulse[i] != NONE) {
                out[n++] = pulse[i];
                out[n++] = pulse[i] + 1;
            }
        }
    }
    if (d->user_cycle != NONE && user_selected(gpu, d)) {
        out[n++] = d->user_cycle;
        out[n++] = d->user_cycle + 1;
    }
    return n;
}

static bool is_special(NvGpu *gpu, const NvPcDomain *d, uint64_t c)
{
    uint64_t cand[NV_PC_SPECIAL_MAX];
    unsigned n = special_cycles(gpu, d, cand);

    for (unsigned i = 0; i < n; i++) {
        if (cand[i] == c) {
            return true;
        }
    }
    return false;
}

static uint64_t next_special(NvGpu *gpu, const NvPcDomain *d, uint64_t c)
{
    uint64_t cand[NV_PC_SPECIAL_MAX], next = NONE;
    unsigned n = special_cycles(gpu, d, cand);

    for (unsigned i = 0; i < n; i++) {
        if (cand[i] > c) {
            next = MIN(next, cand[i]);
        }
    }
    return next;
}

/* ---- trailer EVENT/FLAG signals as inputs ---- */

/*
 * DOM[x].EVENT and DOM[x].FLAG are, in domain x itself, the EVENT output
 * one cycle late and the FLAG two cycles late: S_x(j) = EVENT(j - 1),
 * FLAG after cycle j - 2.  Domain y != x sees them through a synchronizer
 * (pcounter.c head, "coupling"): in its cycle c, the window of x cycles
 * (k(c - 1), k(c)] with k(c) = floor((c - 1) * hz_x / hz_y) - 1, the x
 * cycles completed by the end of y's cycle c - 2.  CONTINUOUS gives
 * S_x(k(c)); PULSE gives 1 iff S_x rose from 0 to 1 inside the window.
 *
 * The first y cycle whose window takes in x cycle @j.
 */
static uint64_t import_cycle(const NvPcDomain *x, const NvPcDomain *y,
                             uint64_t j)
{
    uint64_t c;

    if (j >= NONE - 1) {
        return NONE;
    }
    c = gpu_muldiv64_ceil(j + 1, y->hz, x->hz);     /* saturates */
    return c < NONE - 1 ? c + 1 : NONE - 1;
}

static bool import_pulse_mode(const NvPcDomain *d, unsigned b)
{
    return d->ctrl & (trailer_is_flag(b) ? NV_PC_CTRL_FLAG_IMPORT_PULSE :
                                           NV_PC_CTRL_EVENT_IMPORT_PULSE);
}

/* Domain @x's own DOM[x].EVENT/FLAG signal in its cycle cur. */
static bool trailer_own(NvPcDomain *x, bool flag)
{
    return flag ? x->flag_prev : ev_last_get(x);
}

/* The value of imported signal @b in cycle cur, taking in due changes. */
static bool import_value(NvPcDomain *d, unsigned b)
{
    NvPcImport *q = &d->imp[b];

    while (q->n && q->c[q->head] <= d->cur) {
        q->cont = q->v[q->head];
        if (q->rose[q->head]) {
            q->pulse_c = q->c[q->head];
        }
        q->head = (q->head + 1) % NV_PC_IMPORT_QUEUE;
        q->n--;
    }
    return import_pulse_mode(d, b) ? q->pulse_c == d->cur : q->cont;
}

/* The trailer EVENT/FLAG signals @d selects, in its cycle cur. */
static uint16_t dyn_at_cur(NvGpu *gpu, NvPcDomain *d)
{
    uint16_t v = 0;

    for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
        unsigned x = trailer_dom(b);
        bool on;

        if (!(d->dyn_sel & (1u << b))) {
            continue;
        }
        if (x == d->id) {
            on = trailer_own(d, trailer_is_flag(b));
        } else {
            on = import_value(d, b);
        }
        v |= (uint16_t)on << b;
    }
    return v;
}

/*
 * The first cycle after cur at which an imported signal may change: the
 * next queued change, or the end of a PULSE.  NONE: none known.
 */
static uint64_t import_next_change(NvPcDomain *d)
{
    uint64_t next = NONE;

    for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
        const NvPcImport *q = &d->imp[b];

        if (!(d->dyn_sel & (1u << b)) || trailer_dom(b) == d->id) {
            continue;
        }
        if (q->n) {
            next = MIN(next, q->c[q->head]);
        }
        if (q->pulse_c == d->cur) {
            next = MIN(next, d->cur + 1);
        }
    }
    return next;
}

/* Whether every domain importing from @x has room for a span's changes. */
static bool export_room(NvGpu *gpu, const NvPcDomain *x)
{
    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        const NvPcDomain *y = &gpu->pc.dom[i];

        for (unsigned f = 0; f < 2 && y != x; f++) {
            unsigned b = f ? trailer_bit(NV_SIG_DOM_FLAG(x->id))
                           : trailer_bit(NV_SIG_DOM_EVENT(x->id));

            /* A span queues at most two changes per signal. */
            if ((y->dyn_sel & (1u << b)) &&
                y->imp[b].n + 2 > NV_PC_IMPORT_QUEUE) {
                return false;
            }
        }
    }
    return true;
}

/* @x's signal DOM[x].EVENT/FLAG is @v from its cycle @j: tell importers. */
static void export_value(NvGpu *gpu, const NvPcDomain *x, bool flag,
                         uint64_t j, bool v)
{
    unsigned b = flag ? trailer_bit(NV_SIG_DOM_FLAG(x->id))
                      : trailer_bit(NV_SIG_DOM_EVENT(x->id));

    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        NvPcDomain *y = &gpu->pc.dom[i];
        NvPcImport *q = &y->imp[b];
        unsigned tail;
        uint64_t c;

        if (y == x || !(y->dyn_sel & (1u << b)) || q->last == v) {
            continue;
        }
        q->last = v;
        c = import_cycle(x, y, j);
        tail = (q->head + q->n + NV_PC_IMPORT_QUEUE - 1) % NV_PC_IMPORT_QUEUE;
        if (q->n && q->c[tail] == c) {
            /* The same window: the last value, any rise. */
            q->v[tail] = v;
            q->rose[tail] |= v;
            continue;
        }
        /* export_room() checked before the span. */
        g_assert(q->n < NV_PC_IMPORT_QUEUE);
        tail = (q->head + q->n) % NV_PC_IMPORT_QUEUE;
        q->c[tail] = c;
        q->v[tail] = v;
        q->rose[tail] = v;
        q->n++;
    }
}

/* Whether the FLAG can change at all in the current state. */
static bool flag_live(const NvPcDomain *d)
{
    switch (dom_mode(d)) {
    case NV_PC_MODE_SINGLE:
        return d->single_state != NV_PC_SINGLE_INACTIVE;
    case NV_PC_MODE_QUAD:
    case NV_PC_MODE_RECORD:
        return true;
    default:
        return false;
    }
}

/*
 * With trailer EVENT/FLAG signals in use, where a bulk span [c, end) must
 * stop so that they are constant inside it: before the next import
 * change; after the next change of the EVENT output or possible change
 * of the FLAG (they show one or two cycles later, here and in importers).
 */
static uint64_t dyn_span_end(NvPcDomain *d, const Span *s, uint64_t c,
                             uint64_t end)
{
    uint64_t t;

    end = MIN(end, import_next_change(d));
    if (d->ev_watched) {
        t = sp_find(s, d->ev_last ? CH_EV_LOW : CH_EV_HIGH, c, end, 1);
        end = t == NONE ? end : t + 1;
    }
    if (d->flag_watched && d->flag != d->flag_prev) {
        end = MIN(end, c + 1);
    } else if (d->flag_watched && flag_live(d)) {
        t = sp_find(s, d->flag ? CH_CLR : CH_SET_ONLY, c, end, 1);
        end = t == NONE ? end : t + 1;
    }
    return end;
}

/*
 * After span [c, e): the EVENT output of cycle e - 1, and what importers
 * must see, the trailer signals up to cycle e (= cur) included: EVENT
 * from e - 1, and @f, the FLAG after cycle c - 1, which dyn_span_end()
 * kept as the FLAG signal of cycles c + 1 to e.
 */
static void dyn_span_done(NvGpu *gpu, NvPcDomain *d, const Span *s,
                          uint64_t c, uint64_t e, bool f)
{
    bool ev = sp_word(s, e - 1) & NV_PC_W_IN(NV_PC_IN_EVENT);

    if (d->ev_watched && ev != d->ev_last) {
        export_value(gpu, d, false, e, ev);
    }
    d->ev_last = ev;
    if (d->flag_watched) {
        export_value(gpu, d, true, c + 1, f);
    }
    d->dyn_prev = d->dyn;
}

/* ---- advancing a domain ---- */

/*
 * At most one bulk span between consecutive special cycles, and with
 * trailer EVENT/FLAG signals in use, one per change of them.  Stops short
 * of @target when an importing domain's queue is full, or when the
 * @budget of steps (spans) runs out.
 */
static void dom_advance(NvGpu *gpu, NvPcDomain *d, uint64_t target,
                        uint32_t *budget)
{
    bool coupled = d->dyn_sel || d->ev_watched || d->flag_watched;

    while (d->cur < target && *budget) {
        uint64_t c = d->cur;
        uint64_t end;
        bool f = d->flag;
        bool ptimer_changed = ptimer_refresh(gpu, d);
        Span s = { .d = d };

        if (coupled) {
            if (!export_room(gpu, d)) {
                return;
            }
            ev_last_get(d);
            d->dyn = dyn_at_cur(gpu, d);
        }
        budget_take(gpu, budget);
        /* A trailer change: delayed arguments see the old value. */
        s.one = is_special(gpu, d, c) || d->dyn != d->dyn_prev ||
                ptimer_changed;
        if (!s.one && (!d->tab.valid || d->tab.key != tab_key(d)) &&
            !table_find(d)) {
            /*
             * Trailer values without a table: one cycle at a time until
             * the steps since the last build pay for one (a quarter of
             * its length), so that values changing every few cycles
             * cost no more than a few times a step per cycle.
             */
            s.one = coupled && d->tab_steps++ < table_len(gpu, d) / 4;
            if (!s.one) {
                table_build(gpu, d);
            }
        }
        if (s.one) {
            s.c0 = c;
            s.w = word_at(gpu, d, c, false);
            end = c + 1;
        } else {
            end = MIN(target, next_special(gpu, d, c));
            end = MIN(end, ptimer_next_change(gpu, d, c));
            if (coupled) {
                end = dyn_span_end(d, &s, c, end);
            }
        }
        end = run_span(gpu, &s, c, end, budget);
        d->cur = end;
        if (coupled) {
            dyn_span_done(gpu, d, &s, c, end, f);
        } else if (s.one) {
            d->ev_last = s.w & NV_PC_W_IN(NV_PC_IN_EVENT);
            d->ev_last_in_tab = false;
        } else {
            d->ev_last_in_tab = true;
        }
    }
}

static uint64_t dom_cycles_at(NvGpu *gpu, const NvPcDomain *d, uint64_t now)
{
    uint64_t ns = now - gpu->pc.epoch_ns;

    return gpu_muldiv64(ns, d->hz, NS_PER_S);     /* saturates */
}

/* Record packets reach memory, and a lagging evaluation goes on. */
static void flush_arm(NvGpu *gpu)
{
    NvPcounter *pc = &gpu->pc;

    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        const NvPcDomain *d = &pc->dom[i];

        if ((dom_mode(d) == NV_PC_MODE_RECORD && !d->rec_wedged) ||
            pc->behind) {
            gpu_host_timer_mod(&gpu->host, pc->flush_timer,
                               gpu_host_now_ns(&gpu->host) +
                               gpu->cfg.record_flush_ns);
            return;
        }
    }
    gpu_host_timer_del(&gpu->host, pc->flush_timer);
}

/*
 * Lookahead for domains that import from each other in a loop, which
 * would otherwise advance in rounds of one or two cycles however rarely
 * their signals change.
 *
 * The first cycle at which @d's inputs may change: now, if its current
 * cycle is evaluated on its own; else a special cycle, a queued import
 * change, the end of a PULSE, the first cycle whose window takes in a
 * source's cycle @quiet[x], or the change of its own signals (@quiet[d]).
 */
static uint64_t inputs_quiet_until(NvGpu *gpu, NvPcDomain *d,
                                   const uint64_t *quiet)
{
    bool ptimer_changed = ptimer_refresh(gpu, d);
    uint64_t h;

    d->dyn = dyn_at_cur(gpu, d);
    if (is_special(gpu, d, d->cur) || d->dyn != d->dyn_prev ||
        ptimer_changed) {
        return d->cur;
    }
    h = MIN(next_special(gpu, d, d->cur), import_next_change(d));
    h = MIN(h, ptimer_next_change(gpu, d, d->cur));
    for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
        unsigned x = trailer_dom(b);

        if (!(d->dyn_sel & (1u << b)) || x >= gpu->chip->pc_domains) {
            continue;
        }
        h = MIN(h, x == d->id ? quiet[x] : import_cycle(&gpu->pc.dom[x], d,
                                                        quiet[x]));
    }
    return h;
}

/*
 * The first cycle after cur at which @d's DOM[d].EVENT/FLAG that some
 * domain selects may differ from cycle cur, its inputs constant before
 * cycle @h: a change of the EVENT output shows one cycle later, one of
 * the FLAG two; from cycle h on anything may change.  Without a table
 * for the current inputs, only cycle cur is sure.
 */
static uint64_t outputs_quiet_until(NvGpu *gpu, NvPcDomain *d, uint64_t h)
{
    uint64_t q = h == NONE ? NONE : h + 1, t;
    Span s = { .d = d };

    if (h <= d->cur ||
        ((!d->tab.valid || d->tab.key != tab_key(d)) && !table_find(d))) {
        return d->cur + 1;
    }
    if (d->ev_watched) {
        t = sp_find(&s, ev_last_get(d) ? CH_EV_LOW : CH_EV_HIGH, d->cur, h,
                    1);
        q = t == NONE ? q : MIN(q, t + 1);
    }
    if (d->flag_watched && d->flag != d->flag_prev) {
        q = MIN(q, d->cur + 1);
    } else if (d->flag_watched && flag_live(d)) {
        t = sp_find(&s, d->flag ? CH_CLR : CH_SET_ONLY, d->cur, h, 1);
        q = t == NONE ? q : MIN(q, t + 2);
    }
    return q;
}

/*
 * @quiet[x]: a cycle before which domain x's exported signals keep their
 * value of cycle cur.  The greatest solution of the two functions above,
 * from "never" down: every path from a change to its effect takes time,
 * so, like shortest paths, it settles within one pass per domain.
 */
static void quiet_horizons(NvGpu *gpu, uint64_t *quiet)
{
    unsigned n = gpu->chip->pc_domains;

    for (unsigned i = 0; i < n; i++) {
        quiet[i] = NONE;
    }
    for (unsigned pass = 0; pass <= n + 1; pass++) {
        bool changed = false;

        for (unsigned i = 0; i < n; i++) {
            NvPcDomain *d = &gpu->pc.dom[i];
            uint64_t q;

            if (!d->ev_watched && !d->flag_watched) {
                continue;
            }
            q = outputs_quiet_until(gpu, d,
                                    inputs_quiet_until(gpu, d, quiet));
            if (q < quiet[i]) {
                quiet[i] = q;
                changed = true;
            }
        }
        if (!changed) {
            return;
        }
    }
    /* Not settled (it does): only what is known. */
    for (unsigned i = 0; i < n; i++) {
        quiet[i] = gpu->pc.dom[i].cur + 1;
    }
}

/*
 * How far domain @d may run: until the first cycle whose window takes in
 * a source cycle not known to importers, those after the source's cycle
 * cur or the lookahead @quiet (NULL: none).
 */
static uint64_t import_limit(NvGpu *gpu, const NvPcDomain *d,
                             const uint64_t *quiet)
{
    uint64_t lim = NONE;

    for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
        unsigned x = trailer_dom(b);
        uint64_t known;

        if (!(d->dyn_sel & (1u << b)) || x == d->id ||
            x >= gpu->chip->pc_domains) {
            continue;
        }
        known = gpu->pc.dom[x].cur + 1;
        if (quiet) {
            known = MAX(known, quiet[x]);
        }
        lim = MIN(lim, import_cycle(&gpu->pc.dom[x], d, known));
    }
    return lim;
}

/*
 * Domains that import from each other run in rounds: each as far as its
 * sources' known signals allow.  The domain that is earliest in virtual
 * time always moves: its cycle cur only needs source cycles that ended
 * before it started, and its importers, not earlier than it, hold at most
 * three queued windows from it.  So every round moves, until a domain's
 * share of the budget (@left) runs out; the rounds follow the changes of
 * the signals in use.
 */
static void sync_coupled(NvGpu *gpu, const uint64_t *target, uint32_t *left)
{
    unsigned n = gpu->chip->pc_domains;
    uint64_t quiet[NV_PCOUNTER_DOMAINS];

    for (;;) {
        bool pending = false, moved = false, spent = false;

        if (gpu->pc.import_loop) {
            quiet_horizons(gpu, quiet);
        }
        for (unsigned i = 0; i < n; i++) {
            NvPcDomain *d = &gpu->pc.dom[i];
            uint64_t before = d->cur;

            dom_advance(gpu, d, MIN(target[i], import_limit(gpu, d,
                        gpu->pc.import_loop ? quiet : NULL)), &left[i]);
            moved |= d->cur != before;
            pending |= d->cur < target[i];
            spent |= !left[i];
        }
        if (!pending || !moved) {
            /*
             * Without a spent share, !moved cannot happen (above) from
             * a state the model made; a crafted migration stream that
             * gets past the post-load checks stops here, not in a loop.
             */
            if (pending && !spent) {
                gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                             "nv-gpu: PCOUNTER domains that import from "
                             "each other cannot progress; evaluation "
                             "stopped for this access");
            }
            return;
        }
    }
}

/*
 * Bring every domain up to the current time, within the work budget.
 *
 * Budget: an evaluation runs at most cfg.pc_step_budget steps (spans of
 * dom_advance()), shared equally by the domains; a round of
 * sync_coupled() moves at least one step, so rounds are bounded too.
 * Trailer signals that change every cycle cost a step per cycle: such a
 * domain cannot keep up with virtual time and lags.  It then stays at
 * the cycle it reached (reads show that state; a register write takes
 * effect there) and continues in the next evaluation: any PCOUNTER
 * access, and the flush timer, which flush_arm() keeps armed while
 * pc.behind.
 */
void nv_pcounter_sync(NvGpu *gpu)
{
    uint64_t now = gpu_host_now_ns(&gpu->host);
    uint64_t target[NV_PCOUNTER_DOMAINS];
    uint32_t left[NV_PCOUNTER_DOMAINS];
    unsigned n = gpu->chip->pc_domains;
    bool behind = false;

    /*
     * A driver reads many counters at one instant: after the first, the
     * domains are there already (configuration writes do not move them).
     */
    if (now == gpu->pc.synced_ns) {
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        target[i] = dom_cycles_at(gpu, &gpu->pc.dom[i], now);
        left[i] = MAX(gpu->cfg.pc_step_budget / n, 1);
        if (!gpu->pc.coupled) {
            dom_advance(gpu, &gpu->pc.dom[i], target[i], &left[i]);
        }
    }
    if (gpu->pc.coupled) {
        sync_coupled(gpu, target, left);
    }
    for (unsigned i = 0; i < n; i++) {
        behind |= gpu->pc.dom[i].cur < target[i];
    }
    gpu->pc.behind = behind;
    if (behind) {
        flush_arm(gpu);
    } else {
        gpu->pc.synced_ns = now;
    }
}

static void flush_fire(void *opaque)
{
    NvGpu *gpu = opaque;

    nv_pcounter_sync(gpu);
    flush_arm(gpu);
}

/* ---- registers ---- */

static NvPcDomain *reg_dom(NvGpu *gpu, unsigned unit)
{
    return &gpu->pc.dom[unit % NV_PCOUNTER_DOMAINS];
}

/* A configuration change: the period table no longer holds. */
static void dom_reconfigured(NvPcDomain *d)
{
    table_drop(d);
}

/* Seed: config writes other than PRE_OP abort the single-mode process. */
static void dom_abort(NvPcDomain *d)
{
    d->single_state = NV_PC_SINGLE_INACTIVE;
}

static void note_signal(NvGpu *gpu, NvPcDomain *d, unsigned s)
{
    NvSigKind k = sig_kind(gpu, d, s);
    const NvSigRange *r = sig_range(s);

    if (k != SIG_UNMODELLED) {
        return;
    }
    if (d->unimp_seen[s / 8] & (1u << (s % 8))) {
        return;
    }
    d->unimp_seen[s / 8] |= 1u << (s % 8);
    gpu_host_log(&gpu->host, GPU_LOG_UNIMP,
                 "nv-gpu: PCOUNTER domain %u signal 0x%02x (%s) selected: "
                 "not modelled as an input, reads as 0", d->id, s,
                 r ? r->name : "unassigned");
}

/* Which domains' EVENT/FLAG some domain selects. */
static void coupling_update(NvGpu *gpu)
{
    NvPcounter *pc = &gpu->pc;
    unsigned n = gpu->chip->pc_domains;

    uint32_t reach[NV_PCOUNTER_DOMAINS] = { 0 };   /* x -> importers */

    pc->coupled = pc->import_loop = false;
    for (unsigned i = 0; i < n; i++) {
        pc->dom[i].ev_watched = pc->dom[i].flag_watched = false;
    }
    for (unsigned i = 0; i < n; i++) {
        for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
            NvPcDomain *x = &pc->dom[trailer_dom(b)];

            if (!(pc->dom[i].dyn_sel & (1u << b)) || trailer_dom(b) >= n) {
                continue;
            }
            pc->coupled = true;
            if (trailer_dom(b) != i) {
                reach[trailer_dom(b)] |= 1u << i;
            }
            if (trailer_is_flag(b)) {
                x->flag_watched = true;
            } else {
                x->ev_watched = true;
            }
        }
    }
    /* Transitive closure: a domain that reaches itself is in a loop. */
    for (unsigned k = 0; k < n; k++) {
        for (unsigned i = 0; i < n; i++) {
            if (reach[i] & (1u << k)) {
                reach[i] |= reach[k];
            }
        }
    }
    for (unsigned i = 0; i < n; i++) {
        pc->import_loop |= !!(reach[i] & (1u << i));
    }
}

/* The trailer EVENT/FLAG signals the domain's SRC and SPEC_SRC select. */
static uint16_t trailer_selection(NvGpu *gpu, const NvPcDomain *d)
{
    uint16_t sel = 0;

    for (unsigned i = 0; i < 16; i++) {
        unsigned s = sel_signal(d, i);

        if (s >= NV_SIG_DOM_EVENT(7)) {
            sel |= 1u << trailer_bit(s);
        }
    }
    if (has(gpu, NV_PC_F_SPEC_SRC)) {
        for (unsigned i = 0; i < 2; i++) {
            unsigned s = i ? NV_PC_SPEC_SRC_UNK8(d->spec_src)
                           : NV_PC_SPEC_SRC_SWAP(d->spec_src);

            if (s >= NV_SIG_DOM_EVENT(7)) {
                sel |= 1u << trailer_bit(s);
            }
        }
    }
    return sel;
}

/*
 * After a SRC or SPEC_SRC write.  A newly selected signal has no tracked
 * past: it is taken to have held its source's current value (an import's
 * synchronizer starts full of it), delayed arguments included.
 */
static void selection_update(NvGpu *gpu, NvPcDomain *d)
{
    uint16_t sel = trailer_selection(gpu, d);
    uint16_t added = sel & ~d->dyn_sel;

    for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
        unsigned x = trailer_dom(b);
        NvPcImport *q = &d->imp[b];
        bool v = false;

        if (!(added & (1u << b))) {
            continue;
        }
        if (x < gpu->chip->pc_domains) {
            v = trailer_own(&gpu->pc.dom[x], trailer_is_flag(b));
        }
        memset(q, 0, sizeof(*q));
        q->last = q->cont = v;
        q->pulse_c = NONE;
        d->dyn_prev = (d->dyn_prev & ~(1u << b)) | (uint16_t)v << b;
    }
    d->dyn_sel = sel;
    d->dyn_prev &= sel;
    d->dyn = d->dyn_prev;
    d->ptimer_sel = ptimer_selected(gpu, d);
    coupling_update(gpu);
}

static void src_write(NvGpu *gpu, NvPcDomain *d, unsigned which,
                      uint32_t val)
{
    d->src[which] = val;
    for (unsigned i = 0; i < 4; i++) {
        note_signal(gpu, d, (val >> (8 * i)) & 0xff);
    }
    selection_update(gpu, d);
}

static uint32_t ctrl_read(NvPcDomain *d)
{
    return d->ctrl |
           (uint32_t)d->quad_state << NV_PC_CTRL_QUAD_STATE_SHIFT |
           (uint32_t)d->single_state << NV_PC_CTRL_SINGLE_STATE_SHIFT;
}

static void ctrl_write(NvGpu *gpu, NvPcDomain *d, uint32_t val)
{
    unsigned mode = val & NV_PC_CTRL_MODE_MASK;
    unsigned cm = (val & NV_PC_CTRL_CTR_MODE_MASK) >>
                  NV_PC_CTRL_CTR_MODE_SHIFT;

    if (val & NV_PC_CTRL_FAULT_CLEAR) {
        /* Only the status bit: the domain stays wedged (the seed). */
        d->rec_fault = false;
    }
    if (mode == 3 || (mode == NV_PC_MODE_RECORD &&
                      !has(gpu, NV_PC_F_RECORD))) {
        gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                     "nv-gpu: PCOUNTER CTRL[%u] MODE %u is not a mode; "
                     "the domain idles", d->id, mode);
    }
    if (cm > NV_PC_CTR_EXTRA_B6_EVENT_B2) {
        gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                     "nv-gpu: PCOUNTER CTRL[%u] CTR_MODE %u is not a mode; "
                     "counting as SIMPLE", d->id, cm);
    }
    d->ctrl = val & gpu->chip->ctrl_wmask;
    dom_reconfigured(d);
    dom_abort(d);
}

static void gctrl_write(NvGpu *gpu, uint32_t val)
{
    NvPcounter *pc = &gpu->pc;
    uint32_t old = pc->gctrl;

    pc->gctrl = val & (NV_PC_GCTRL_RECORD_RESET | NV_PC_GCTRL_PERIODIC_RESET);
    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        NvPcDomain *d = &pc->dom[i];

        /* The generators restart from the beginning of their cycle. */
        if ((old & NV_PC_GCTRL_PERIODIC_RESET) &&
            !(pc->gctrl & NV_PC_GCTRL_PERIODIC_RESET)) {
            d->periodic_origin = d->cur;
        }
        if (pc->gctrl & NV_PC_GCTRL_RECORD_RESET) {
            record_clear(d);
        }
        dom_reconfigured(d);
    }
}

/*
 * The trailer signals as the domain's inputs see them in cycle cur; an
 * import it does not select reads as its source's current value.
 */
static uint32_t sig_status(NvGpu *gpu, NvPcDomain *d, unsigned i)
{
    uint32_t v = 0;

    d->dyn = dyn_at_cur(gpu, d);
    for (unsigned b = 0; b < 32; b++) {
        unsigned s = i * 32 + b;
        unsigned x;
        bool on;

        switch (sig_kind(gpu, d, s)) {
        case SIG_DOM_EVENT:
        case SIG_DOM_FLAG:
            x = trailer_dom(trailer_bit(s));
            if (d->dyn_sel & (1u << trailer_bit(s))) {
                on = (d->dyn >> trailer_bit(s)) & 1;
            } else {
                on = x < gpu->chip->pc_domains &&
                     trailer_own(&gpu->pc.dom[x],
                                 trailer_is_flag(trailer_bit(s)));
            }
            break;
        default:
            on = sig_value(gpu, d, s, d->cur, false);
            break;
        }
        v |= (uint32_t)on << b;
    }
    return v;
}

/* The handlers of every PCOUNTER layout's registers (pcounter-regs.c). */
uint32_t nv_pcounter_reg_read(NvGpu *gpu, const NvReg *r, unsigned unit,
                              uint32_t offset)
{
    NvPcDomain *d = reg_dom(gpu, unit);

    nv_pcounter_sync(gpu);
    switch (NV_PC_AUX_ID(r->aux)) {
    case PC_SRC_STATUS:
        d->dyn = dyn_at_cur(gpu, d);
        return word_at(gpu, d, d->cur, false) & 0xffff;
    case PC_SIG_STATUS:
        return sig_status(gpu, d, NV_PC_AUX_INDEX(r->aux));
    case PC_CTR_CYCLES:
    case PC_CTR_CYCLES_ALT:
        return d->ctr[NV_PC_CTR_CYCLES];
    case PC_CTR_EVENT:
        return d->ctr[NV_PC_CTR_EVENT];
    case PC_CTR_START:
        return d->ctr[NV_PC_CTR_START];
    case PC_CTR_PRE:
        return d->ctr[NV_PC_CTR_PRE];
    case PC_CTR_STOP:
        return d->ctr[NV_PC_CTR_STOP];
    case PC_RECORD_STATUS:
        return (d->rec_pos & NV_PC_RECORD_ADDR_MASK) | d->rec_fault;
    case PC_CTRL:
        return ctrl_read(d);
    default:
        return nv_reg_get(gpu, offset);
    }
}

void nv_pcounter_reg_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                           uint32_t offset, uint32_t old, uint32_t val)
{
    NvPcounter *pc = &gpu->pc;
    NvPcDomain *d = reg_dom(gpu, unit);
    NvPcRegId id = NV_PC_AUX_ID(r->aux);

    /* Everything before this write ran under the old configuration. */
    nv_pcounter_sync(gpu);
    switch (id) {
    case PC_PRE_SRC:
    case PC_START_SRC:
    case PC_EVENT_SRC:
    case PC_STOP_SRC:
        src_write(gpu, d, id - PC_PRE_SRC, val);
        dom_abort(d);
        break;
    case PC_PRE_OP:
        d->op[NV_PC_IN_PRE] = val & gpu->chip->op_wmask;
        nv_reg_set(gpu, offset, d->op[NV_PC_IN_PRE]);
        /* Starts single mode / swaps quad mode (the seed). */
        if (dom_mode(d) == NV_PC_MODE_SINGLE &&
            d->single_state == NV_PC_SINGLE_INACTIVE) {
            single_start(d);
        } else if (dom_mode(d) == NV_PC_MODE_QUAD &&
                   has(gpu, NV_PC_F_PREOP_SWAP)) {
            quad_swap(d);
        }
        break;
    case PC_START_OP:
    case PC_EVENT_OP:
    case PC_STOP_OP:
    case PC_SETFLAG_OP:
    case PC_CLRFLAG_OP:
        d->op[NV_PC_IN_START + (id - PC_START_OP)] =
            val & gpu->chip->op_wmask;
        nv_reg_set(gpu, offset, val & gpu->chip->op_wmask);
        dom_abort(d);
        break;
    case PC_SPEC_SRC:
        d->spec_src = val;
        note_signal(gpu, d, NV_PC_SPEC_SRC_SWAP(val));
        selection_update(gpu, d);
        dom_abort(d);
        break;
    case PC_CTR_PRE:
        d->pre_init = val;
        dom_abort(d);
        break;
    case PC_CTR_STOP:
        d->stop_init = val;
        dom_abort(d);
        break;
    case PC_CTR_CYCLES:
    case PC_CTR_CYCLES_ALT:
    case PC_CTR_EVENT:
    case PC_CTR_START:
        dom_abort(d);
        break;
    case PC_THRESHOLD:
        d->threshold = val;
        dom_abort(d);
        break;
    case PC_CTRL:
        ctrl_write(gpu, d, val);
        break;
    case PC_USER_TRIGGER:
        /* The GT215 layout; a signal, not configuration: tab_key() */
        user_trigger(d, val);
        break;
    case PC_QUAD_ACK_TRIGGER:
        if (val & 1) {
            d->quad_state = d->quad_state == NV_PC_QUAD_OVERFLOW ?
                            NV_PC_QUAD_VALID : NV_PC_QUAD_EMPTY;
        }
        break;
    case PC_RECORD_START:
        d->rec_start = val & NV_PC_RECORD_ADDR_MASK;
        d->rec_pos = d->rec_start;
        d->rec_valid = true;
        if (dom_mode(d) == NV_PC_MODE_RECORD) {
            record_clear(d);
        }
        break;
    case PC_RECORD_LIMIT:
        d->rec_limit = val & NV_PC_RECORD_ADDR_MASK;
        break;
    case PC_RECORD_ADDRESS_HIGH:
        d->rec_addr_high = val & 0xff;
        break;
    case PC_RECORD_CHAN:
        pc->record_chan = val;
        if (val & NV_PC_RECORD_CHAN_VALID) {
            gpu_host_log(&gpu->host, GPU_LOG_UNIMP,
                         "nv-gpu: PCOUNTER RECORD_CHAN bind (chan 0x%x, "
                         "dma 0x%x) not modelled: record addresses are "
                         "bus addresses", val & 0x3fffffff,
                         pc->record_dma & 0xffff);
        }
        break;
    case PC_RECORD_DMA:
        pc->record_dma = val;
        break;
    case PC_GCTRL:
        gctrl_write(gpu, val);
        break;
    default:
        break;
    }
    if (id != PC_QUAD_ACK_TRIGGER && id != PC_RECORD_CHAN &&
        id != PC_RECORD_DMA && id != PC_USER_TRIGGER) {
        dom_reconfigured(d);
    }
    flush_arm(gpu);
}

/* ---- outside the register space ---- */

/* A PGRAPH signal: a one-cycle pulse in every domain's current cycle. */
static void pgraph_pulse(NvGpu *gpu, NvSigKind k)
{
    nv_pcounter_sync(gpu);
    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        NvPcDomain *d = &gpu->pc.dom[i];
        uint64_t *pulse = k == SIG_PM_TRIGGER ? d->pm_trigger_cycle
                                              : d->wrcache_flush_cycle;

        /* The previous pulse may still be seen delayed this cycle. */
        pulse[1] = pulse[0];
        pulse[0] = d->cur;
    }
    flush_arm(gpu);
}

void nv_pcounter_pm_trigger(NvGpu *gpu)
{
    pgraph_pulse(gpu, SIG_PM_TRIGGER);
}

void nv_pcounter_wrcache_flush(NvGpu *gpu)
{
    pgraph_pulse(gpu, SIG_WRCACHE_FLUSH);
}

/*
 * PTIMER's TIME or ratio was written (ptimer.c, after its re-base): the
 * cycles before each domain's current one sampled the old TIME, the
 * current one on sample the new, as any register write.
 */
void nv_pcounter_ptimer_changed(NvGpu *gpu)
{
    nv_pcounter_sync(gpu);
    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        NvPcDomain *d = &gpu->pc.dom[i];

        d->ptimer_before = d->cur && ptimer_b12_at(gpu, d, d->cur - 1);
        d->ptimer_c0 = d->cur;
    }
    ptimer_snapshot(gpu);
}

/*
 * A synthetic workload signal (QMP/properties in QEMU, tests here): 1 for
 * @high of every 2^@period_log2 cycles, starting @phase cycles into the
 * pattern at cycle 0.
 */
bool nv_pcounter_set_synth(NvGpu *gpu, unsigned dom, unsigned n,
                           unsigned period_log2, uint32_t high,
                           uint32_t phase)
{
    NvPcDomain *d;

    if (dom >= gpu->chip->pc_domains || n >= NV_SIG_SYNTH_COUNT ||
        period_log2 > NV_PC_PERIOD_MAX_LOG2) {
        return false;
    }
    nv_pcounter_sync(gpu);
    d = &gpu->pc.dom[dom];
    d->synth[n].period_log2 = period_log2;
    d->synth[n].high = MIN(high, 1u << period_log2);
    d->synth[n].phase = phase & ((1u << period_log2) - 1);
    dom_reconfigured(d);
    return true;
}

/*
 * Fault drill: the domain's next record-mode packet write fails as a
 * failed DMA write does (RECORD_STATUS bit 0, the domain wedged until
 * reset).  A reset ends a drill not yet used.
 */
bool nv_pcounter_drill_record_fault(NvGpu *gpu, unsigned dom)
{
    if (dom >= gpu->chip->pc_domains) {
        return false;
    }
    gpu->pc.dom[dom].rec_drill = true;
    return true;
}

/* The EVENT output a bulk span left in the period table, which is a cache. */
void nv_pcounter_pre_save(NvGpu *gpu)
{
    for (unsigned i = 0; i < NV_PCOUNTER_DOMAINS; i++) {
        ev_last_get(&gpu->pc.dom[i]);
    }
}

static bool import_ok(NvGpu *gpu, const NvPcDomain *y, unsigned b)
{
    const NvPcImport *q = &y->imp[b];
    const NvPcDomain *x = &gpu->pc.dom[trailer_dom(b)];
    uint64_t last = 0;

    if (q->head >= NV_PC_IMPORT_QUEUE || q->n > NV_PC_IMPORT_QUEUE ||
        (q->pulse_c != NONE && q->pulse_c > y->cur)) {
        return false;
    }
    /* Windows in order, of changes in cycles the source has evaluated. */
    for (unsigned k = 0; k < q->n; k++) {
        uint64_t c = q->c[(q->head + k) % NV_PC_IMPORT_QUEUE];

        if ((k && c <= last) || c > import_cycle(x, y, x->cur)) {
            return false;
        }
        last = c;
    }
    return true;
}

static bool dom_state_ok(NvGpu *gpu, const NvPcDomain *d, uint64_t now)
{
    const NvPcounter *pc = &gpu->pc;
    uint64_t upto = dom_cycles_at(gpu, d, MAX(now, pc->synced_ns));

    if (d->cur > upto || (!pc->behind &&
                          d->cur != dom_cycles_at(gpu, d, pc->synced_ns)) ||
        d->periodic_origin > d->cur || d->ptimer_c0 > d->cur ||
        d->quad_state > NV_PC_QUAD_OVERFLOW ||
        d->single_state > NV_PC_SINGLE_COUNTING ||
        (d->ctrl & ~gpu->chip->ctrl_wmask) ||
        (d->rec_pos & ~NV_PC_RECORD_ADDR_MASK) ||
        (d->rec_start & ~NV_PC_RECORD_ADDR_MASK) ||
        (d->rec_limit & ~NV_PC_RECORD_ADDR_MASK) ||
        (d->rec_cycles & ~REC_CYCLES_MASK) || d->rec_stop > 0xfff ||
        d->rec_busy_until > d->cur + 1 + gpu->cfg.record_write_cycles) {
        return false;
    }
    for (unsigned k = 0; k < NV_PC_INPUTS; k++) {
        if (d->op[k] & ~gpu->chip->op_wmask) {
            return false;
        }
    }
    for (unsigned i = 0; i < 2; i++) {
        if ((d->pm_trigger_cycle[i] != NONE &&
             d->pm_trigger_cycle[i] > d->cur) ||
            (d->wrcache_flush_cycle[i] != NONE &&
             d->wrcache_flush_cycle[i] > d->cur)) {
            return false;
        }
    }
    if ((d->user_cycle == NONE ? d->user_val | d->user_pulse |
                                 d->user_before
                               : d->user_cycle > d->cur ||
                                 !has(gpu, NV_PC_F_USER)) ||
        ((d->user_val | d->user_pulse | d->user_before) &
         ~NV_PC_USER_MASK)) {
        return false;
    }
    for (unsigned n = 0; n < NV_SIG_SYNTH_COUNT; n++) {
        const NvSynth *y = &d->synth[n];

        if (y->period_log2 > NV_PC_PERIOD_MAX_LOG2 ||
            y->high > (1u << y->period_log2) ||
            y->phase >= (1u << y->period_log2)) {
            return false;
        }
    }
    return true;
}

/*
 * After a load: refuse what the model cannot have produced (the stream is
 * as untrusted as the guest), rebuild what is derived from the loaded
 * configuration (the trailer selections and coupling), drop the period
 * tables, which are caches.
 */
bool nv_pcounter_post_load(NvGpu *gpu, char **err)
{
    NvPcounter *pc = &gpu->pc;
    uint64_t now = gpu_host_now_ns(&gpu->host);

    if (pc->epoch_ns > pc->synced_ns ||
        (pc->gctrl & ~(NV_PC_GCTRL_RECORD_RESET |
                       NV_PC_GCTRL_PERIODIC_RESET)) ||
        (pc->ptimer_num | pc->ptimer_den) > 0xffff) {
        *err = g_strdup_printf("PCOUNTER epoch %" G_GUINT64_FORMAT " ns, "
                               "synced %" G_GUINT64_FORMAT " ns, GCTRL 0x%x, "
                               "PTIMER ratio 0x%x/0x%x",
                               pc->epoch_ns, pc->synced_ns, pc->gctrl,
                               pc->ptimer_num, pc->ptimer_den);
        return false;
    }
    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        NvPcDomain *d = &pc->dom[i];

        d->ev_last_in_tab = false;
        table_drop(d);
        d->spare_next = 0;
        d->tab_steps = 0;
        d->dyn_sel = trailer_selection(gpu, d);
        d->ptimer_sel = ptimer_selected(gpu, d);
    }
    coupling_update(gpu);
    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        NvPcDomain *d = &pc->dom[i];

        if (!dom_state_ok(gpu, d, now) || (d->dyn & ~d->dyn_sel) ||
            (d->dyn_prev & ~d->dyn_sel)) {
            *err = g_strdup_printf("PCOUNTER domain %u: cycle %"
                                   G_GUINT64_FORMAT ", CTRL 0x%x, states "
                                   "%u/%u, record position 0x%x", i, d->cur,
                                   d->ctrl, d->quad_state, d->single_state,
                                   d->rec_pos);
            return false;
        }
        for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
            if ((d->dyn_sel & (1u << b)) && trailer_dom(b) != i &&
                !import_ok(gpu, d, b)) {
                *err = g_strdup_printf("PCOUNTER domain %u: import of "
                                       "signal 0x%x", i,
                                       NV_SIG_DOM_EVENT(7) + b);
                return false;
            }
        }
    }
    return true;
}

void nv_pcounter_init(NvGpu *gpu)
{
    sig_kinds_init();
    gpu->pc.flush_timer = gpu_host_timer_new(&gpu->host, flush_fire, gpu);
}

void nv_pcounter_fini(NvGpu *gpu)
{
    for (unsigned i = 0; i < NV_PCOUNTER_DOMAINS; i++) {
        table_drop(&gpu->pc.dom[i]);
    }
    gpu_host_timer_free(&gpu->host, gpu->pc.flush_timer);
}

/* Synthetic signals keep their settings: they are the host's, not HW. */
void nv_pcounter_reset(NvGpu *gpu)
{
    NvPcounter *pc = &gpu->pc;

    pc->gctrl = 0;
    pc->record_chan = 0;
    pc->record_dma = 0;
    pc->epoch_ns = gpu_host_now_ns(&gpu->host);
    pc->synced_ns = pc->epoch_ns;   /* every domain at cycle 0 */
    for (unsigned i = 0; i < NV_PCOUNTER_DOMAINS; i++) {
        NvPcDomain *d = &pc->dom[i];
        NvSynth synth[NV_SIG_SYNTH_COUNT];

        memcpy(synth, d->synth, sizeof(synth));
        table_drop(d);
        memset(d, 0, sizeof(*d));
        memcpy(d->synth, synth, sizeof(synth));
        d->id = i;
        d->hz = gpu->cfg.domain_hz[i];
        d->spec_src = NV_SIG_PM_TRIGGER;
        d->pm_trigger_cycle[0] = d->pm_trigger_cycle[1] = NONE;
        d->wrcache_flush_cycle[0] = d->wrcache_flush_cycle[1] = NONE;
        d->user_cycle = NONE;
        for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
            d->imp[b].pulse_c = NONE;
        }
    }
    pc->coupled = false;
    ptimer_snapshot(gpu);       /* every domain's ptimer_c0 is 0 */
    pc->behind = false;
    gpu_host_timer_del(&gpu->host, pc->flush_timer);
}
