/*
 * nv-gpu PCOUNTER signals (envytools docs/hw/pcounter/intro.rst, "The
 * PCOUNTER signals" and "Input selection"): what each of a domain's 256
 * signals is in a cycle, the 16 selected inputs and the six logic
 * operations that make the cycle's input word, and the cycles in which
 * the periodic form (pcounter-table.c) does not hold.
 *
 * PTIMER_TIME_B12 (host domain) follows PTIMER at a rational rate, so it
 * is not periodic in powers of two: a domain that selects it runs in
 * spans over which it is constant, each ending at its next change,
 * which is computed (nv_pc_ptimer_next_change()); the period table takes
 * its value as a constant, like the trailer values (pcounter-coupling.c).
 *
 * USER_0/1 (GT215) are levels a USER_TRIGGER write sets in the domain's
 * current cycle, pulse-mode ones dropping back to 0 in the next: after
 * those two cycles they are constant until the next write, and the
 * period table takes them as constants too (nv_pc_table_key()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pcounter-int.h"

/* ---- the signal map ---- */

typedef struct NvSigRange {
    uint16_t first, last;
    NvSigKind kind;
    const char *name;
} NvSigRange;

/*
 * The same in every domain (nv-gpu-regs.h, NV_SIG_*).  The trailer is
 * the NV40:GF100 list of envytools docs/hw/pcounter/intro.rst, "Trailer
 * signals".
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

static const NvSigRange *nv_pc_sig_range(unsigned s)
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

void nv_pc_sig_kinds_init(void)
{
    for (unsigned s = 0; s < NV_PCOUNTER_SIGNALS; s++) {
        const NvSigRange *r = nv_pc_sig_range(s);

        sig_kinds[s] = r ? r->kind : SIG_UNMODELLED;
    }
}

/* Which USER signal @s is in @d (0, 1), or -1. */
static int nv_pc_user_index(NvGpu *gpu, const NvPcDomain *d, unsigned s)
{
    unsigned n = s - gpu->chip->user_sig[d->id];

    return nv_pc_has(gpu, NV_PC_F_USER) && n < NV_PC_USER_SIGS ? (int)n : -1;
}

static NvSigKind nv_pc_sig_kind_of(NvGpu *gpu, const NvPcDomain *d, unsigned s)
{
    s %= NV_PCOUNTER_SIGNALS;
    /* Real positions: they shadow synthetic signals in domains 3, 5, 6. */
    if (nv_pc_user_index(gpu, d, s) >= 0) {
        return SIG_USER;
    }
    if (s && s == gpu->chip->ptimer_b12_sig && d->id == NV_PC_HOST_DOMAIN) {
        return SIG_PTIMER_B12;
    }
    if (sig_kinds[s] == SIG_WRCACHE_FLUSH && !nv_pc_has(gpu, NV_PC_F_WRCACHE)) {
        return SIG_ZERO;            /* NV40:G84: base+0x0e is ZERO */
    }
    return sig_kinds[s];
}

/* For the other files: this one calls nv_pc_sig_kind_of(), which inlines. */
NvSigKind nv_pc_sig_kind(NvGpu *gpu, const NvPcDomain *d, unsigned s)
{
    return nv_pc_sig_kind_of(gpu, d, s);
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

static const NvOpDesc nv_pc_op_desc[NV_PC_INPUTS] = {
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
static const uint8_t nv_pc_op_order[NV_PC_INPUTS] = {
    NV_PC_IN_SETFLAG, NV_PC_IN_CLRFLAG, NV_PC_IN_PRE, NV_PC_IN_START,
    NV_PC_IN_EVENT, NV_PC_IN_STOP,
};

static unsigned nv_pc_periodic_len(NvGpu *gpu, const NvPcDomain *d)
{
    unsigned per = GPU_FIELD_EX32(d->ctrl, NV40_PC_CTRL, PERIODIC);

    if (!nv_pc_has(gpu, NV_PC_F_PERIODIC) || !per ||
        (gpu->pc.gctrl & NV_PC_GCTRL_PERIODIC_RESET)) {
        return 0;
    }
    return 0x200u << per;
}

/* ---- USER signals (GT215) ---- */

/*
 * USER_0/1 as a bit set in cycle @c, which is at least user_cycle - 1:
 * levels set by a USER_TRIGGER write in the domain's current cycle, the
 * pulse-mode ones back to 0 in the next.  Never written (user_cycle
 * NONE): all 0.
 */
static unsigned nv_pc_user_at(const NvPcDomain *d, uint64_t c)
{
    if (c < d->user_cycle) {
        return d->user_before;
    }
    return c == d->user_cycle ? d->user_val : nv_pc_user_steady(d);
}

void nv_pc_user_trigger(NvPcDomain *d, uint32_t val)
{
    /* A second write in the same cycle replaces the first. */
    if (d->user_cycle != d->cur) {
        d->user_before = d->cur ? nv_pc_user_at(d, d->cur - 1) : 0;
    }
    d->user_cycle = d->cur;
    d->user_val = val & NV_PC_USER_MASK;
    d->user_pulse = (val >> NV_PC_USER_SIGS) & NV_PC_USER_MASK;
}

/* ---- PTIMER-derived signals ---- */

/*
 * PTIMER_TIME_B12 (envytools' G80:GF100 host clock signal list): bit 12 of
 * PTIMER's TIME, sampled at the domain's clock.  TIME advances by num/den
 * per tick of the source clock (core/ptimer.c: nv_ptimer_ratio), so in the
 * domain's cycles by P/Q = src_hz x num / (den x domain_hz) per cycle:
 * TIME(c) = t0 + floor((c - c0) x P / Q) from the cycle c0 of the last
 * TIME or ratio write (or reset), where it was t0.  Not periodic in
 * powers of two, so not in the period table: constant over spans that
 * end at its next change, which is computed, like the trailer values.
 */
static uint64_t nv_pc_ptimer_rate(NvGpu *gpu, const NvPcDomain *d, uint64_t *q)
{
    /*
     * P below 2^63 and Q below 2^54: the clocks are at most 10 GHz
     * (nv-gpu.c), the ratio's terms within NV_PTIMER_RATIO_*_MAX
     * (PTIMER's write masks, checked at load).  nv_pc_ptimer_next_change
     * needs Q x 0x2000 within 64 bits: a Q still at 2^50 or more after
     * the snapshot's reduction (a divider no driver programs at a
     * domain clock of GHz) is rounded, both terms halved.
     */
    uint64_t p = gpu->cfg.ptimer_src_hz * gpu->pc.ptimer_num;

    *q = d->hz * gpu->pc.ptimer_den;
    while (*q >= 1ull << 50) {
        p >>= 1;
        *q >>= 1;
    }
    return p;
}

/*
 * TIME units elapsed from cycle ptimer_c0 to cycle @c >= ptimer_c0,
 * modulo 2^64 as TIME itself.
 */
static uint64_t nv_pc_ptimer_units(NvGpu *gpu, const NvPcDomain *d, uint64_t c)
{
    uint64_t q, p = nv_pc_ptimer_rate(gpu, d, &q);

    /* A zero ratio stops the clock (core/ptimer.c). */
    return (p && q) ? gpu_muldiv64_wrap(c - d->ptimer_c0, p, q) : 0;
}

/* TIME_B12 in cycle @c, which is at least ptimer_c0 - 1. */
bool nv_pc_ptimer_b12_at(NvGpu *gpu, const NvPcDomain *d, uint64_t c)
{
    if (c < d->ptimer_c0) {
        return d->ptimer_before;
    }
    return ((gpu->pc.ptimer_t0 + nv_pc_ptimer_units(gpu, d, c)) >> 12) & 1;
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
uint64_t nv_pc_ptimer_next_change(NvGpu *gpu, const NvPcDomain *d,
                                  uint64_t c)
{
    uint64_t q, p = nv_pc_ptimer_rate(gpu, d, &q), k, x, r, dn, step;

    if (!d->ptimer_sel || !p || !q) {
        return NONE;
    }
    p %= q * 0x2000;
    if (!p) {
        return NONE;
    }
    k = c - d->ptimer_c0;
    x = (gpu->pc.ptimer_t0 + nv_pc_ptimer_units(gpu, d, c)) & 0xfff;
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
bool nv_pc_ptimer_refresh(NvGpu *gpu, NvPcDomain *d)
{
    if (!d->ptimer_sel) {
        return false;
    }
    d->ptimer_b12 = nv_pc_ptimer_b12_at(gpu, d, d->cur);
    return d->cur && d->ptimer_b12 != nv_pc_ptimer_b12_at(gpu, d, d->cur - 1);
}

static uint32_t nv_pc_gcd32(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t t = a % b;

        a = b;
        b = t;
    }
    return a;
}

/* PTIMER as it is now becomes the domains' t0 and ratio (in lowest terms). */
void nv_pc_ptimer_snapshot(NvGpu *gpu)
{
    uint32_t num, den, g;

    gpu->pc.ptimer_t0 = nv_ptimer_time(gpu);
    nv_ptimer_ratio(gpu, &num, &den);
    g = nv_pc_gcd32(num, den);
    gpu->pc.ptimer_num = g ? num / g : 0;
    gpu->pc.ptimer_den = g ? den / g : 0;
}

/*
 * Signal @s of domain @d at cycle @c.  @table: the periodic form, valid
 * away from the cycles that pcounter.c evaluates one at a time.
 */
static bool nv_pc_sig_value_of(NvGpu *gpu, const NvPcDomain *d, unsigned s,
                               uint64_t c, bool table)
{
    NvSigKind k = nv_pc_sig_kind_of(gpu, d, s);
    const NvSynth *sy;
    unsigned x;

    switch (k) {
    case SIG_ONE:
        return true;
    case SIG_SYNTH:
        sy = &d->synth[s - NV_SIG_SYNTH(0)];
        return ((c + sy->phase) & ((1ull << sy->period_log2) - 1)) <
               sy->high;
    case SIG_PERIODIC:
        x = nv_pc_periodic_len(gpu, d);
        if (!x || (!table && c < d->periodic_origin)) {
            return false;
        }
        return ((c - d->periodic_origin) & (x - 1)) == x - 1;
    case SIG_PM_TRIGGER:
    case SIG_WRCACHE_FLUSH:
        return !table && nv_pc_pulse_at(nv_pc_pulse_cycles(d, k), c);
    case SIG_PTIMER_B12:
        return table ? d->ptimer_b12 : nv_pc_ptimer_b12_at(gpu, d, c);
    case SIG_USER:
        return ((table ? nv_pc_user_steady(d) : nv_pc_user_at(d, c)) >>
                nv_pc_user_index(gpu, d, s)) & 1;
    case SIG_DOM_EVENT:
    case SIG_DOM_FLAG:
        /* Constant over a span; the cycle before it may differ. */
        return (((!table && c < d->cur) ? d->dyn_prev : d->dyn) >>
                nv_pc_trailer_bit(s)) & 1;
    default:
        return false;
    }
}

bool nv_pc_sig_value(NvGpu *gpu, const NvPcDomain *d, unsigned s,
                     uint64_t c, bool table)
{
    return nv_pc_sig_value_of(gpu, d, s, c, table);
}

unsigned nv_pc_sig_period(NvGpu *gpu, const NvPcDomain *d, unsigned s)
{
    switch (nv_pc_sig_kind_of(gpu, d, s)) {
    case SIG_SYNTH:
        return 1u << d->synth[s - NV_SIG_SYNTH(0)].period_log2;
    case SIG_PERIODIC:
        return MAX(nv_pc_periodic_len(gpu, d), 1);
    default:
        return 1;
    }
}

/* The input word of cycle @c (bits: NV_PC_W_*). */
uint32_t nv_pc_word_at(NvGpu *gpu, const NvPcDomain *d, uint64_t c,
                       bool table)
{
    uint32_t now = 0, prev = 0, w;
    bool in[NV_PC_INPUTS];
    bool g92 = nv_pc_has(gpu, NV_PC_F_G92_DELAY);
    bool setflag_arg = nv_pc_has(gpu, NV_PC_F_SETFLAG_ARG);

    for (unsigned i = 0; i < 16; i++) {
        unsigned s = nv_pc_sel_signal(d, i);

        now |= (uint32_t)nv_pc_sig_value_of(gpu, d, s, c, table) << i;
        /* Before cycle 0 every signal was 0. */
        if (table || c) {
            prev |= (uint32_t)nv_pc_sig_value_of(gpu, d, s, c - 1, table) << i;
        }
    }
    for (unsigned k = 0; k < NV_PC_INPUTS; k++) {
        unsigned in_id = nv_pc_op_order[k];
        const NvOpDesc *od = &nv_pc_op_desc[in_id];
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
    if (nv_pc_has(gpu, NV_PC_F_SPEC_SRC)) {
        unsigned swap = GPU_FIELD_EX32(d->spec_src, NV40_PC_SPEC_SRC, SWAP);
        unsigned unk8 = GPU_FIELD_EX32(d->spec_src, NV40_PC_SPEC_SRC, UNK8);

        w |= nv_pc_sig_value_of(gpu, d, swap, c, table) ? NV_PC_W_SWAP : 0;
        w |= nv_pc_sig_value_of(gpu, d, unk8, c, table) ? NV_PC_W_UNK8 : 0;
    } else {
        /* NV30:G84: SWAP is hardwired to PGRAPH.PM_TRIGGER. */
        w |= nv_pc_sig_value_of(gpu, d, NV_SIG_PM_TRIGGER, c, table) ?
             NV_PC_W_SWAP : 0;
    }
    return w;
}

/* ---- what the inputs select; cycles the table does not describe ---- */

/* Whether the domain's inputs see signal @s at all. */
static bool nv_pc_selects(NvGpu *gpu, const NvPcDomain *d, unsigned s)
{
    if (!nv_pc_has(gpu, NV_PC_F_SPEC_SRC)) {
        if (s == NV_SIG_PM_TRIGGER) {
            return true;    /* NV30:G84: SWAP is PGRAPH.PM_TRIGGER */
        }
    } else if (GPU_FIELD_EX32(d->spec_src, NV40_PC_SPEC_SRC, SWAP) == s ||
               GPU_FIELD_EX32(d->spec_src, NV40_PC_SPEC_SRC, UNK8) == s) {
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
bool nv_pc_ptimer_selected(NvGpu *gpu, NvPcDomain *d)
{
    return d->id == NV_PC_HOST_DOMAIN && gpu->chip->ptimer_b12_sig &&
           nv_pc_selects(gpu, d, gpu->chip->ptimer_b12_sig);
}

/* Whether an input of @d selects one of its USER signals (GT215). */
static bool nv_pc_user_selected(NvGpu *gpu, const NvPcDomain *d)
{
    if (!nv_pc_has(gpu, NV_PC_F_USER)) {
        return false;
    }
    for (unsigned k = 0; k < NV_PC_USER_SIGS; k++) {
        if (nv_pc_selects(gpu, d, gpu->chip->user_sig[d->id] + k)) {
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
static unsigned nv_pc_special_cycles(NvGpu *gpu, const NvPcDomain *d,
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
        const uint64_t *pulse = nv_pc_pulse_cycles(d, pulsed[k]);
        bool seen = pulse[0] != NONE && nv_pc_selects(gpu, d, pulsed_sig[k]);

        for (unsigned i = 0; i < 2 && seen; i++) {
            if (pulse[i] != NONE) {
                out[n++] = pulse[i];
                out[n++] = pulse[i] + 1;
            }
        }
    }
    if (d->user_cycle != NONE && nv_pc_user_selected(gpu, d)) {
        out[n++] = d->user_cycle;
        out[n++] = d->user_cycle + 1;
    }
    return n;
}

bool nv_pc_is_special(NvGpu *gpu, const NvPcDomain *d, uint64_t c)
{
    uint64_t cand[NV_PC_SPECIAL_MAX];
    unsigned n = nv_pc_special_cycles(gpu, d, cand);

    for (unsigned i = 0; i < n; i++) {
        if (cand[i] == c) {
            return true;
        }
    }
    return false;
}

uint64_t nv_pc_next_special(NvGpu *gpu, const NvPcDomain *d, uint64_t c)
{
    uint64_t cand[NV_PC_SPECIAL_MAX], next = NONE;
    unsigned n = nv_pc_special_cycles(gpu, d, cand);

    for (unsigned i = 0; i < n; i++) {
        if (cand[i] > c) {
            next = MIN(next, cand[i]);
        }
    }
    return next;
}

void nv_pc_note_signal(NvGpu *gpu, NvPcDomain *d, unsigned s)
{
    NvSigKind k = nv_pc_sig_kind_of(gpu, d, s);
    const NvSigRange *r = nv_pc_sig_range(s);

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
