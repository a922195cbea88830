/*
 * nv-gpu PCOUNTER period table: what the modes count (channels, from
 * envytools docs/hw/pcounter/intro.rst, "Counters" and "Special counter
 * modes"), tabulated over one period of the input word with a prefix sum
 * per channel, and the range queries the modes ask of a span of cycles:
 * how many, and where the n-th (pcounter.c has the overview).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "pcounter-int.h"

/* ---- channels: what the modes count ---- */

static unsigned nv_pc_ctr_mode(const NvPcDomain *d)
{
    unsigned m = GPU_FIELD_EX32(d->ctrl, NV40_PC_CTRL, CTR_MODE);

    /* 5-7 are rejected at the CTRL write; count them as SIMPLE. */
    return m <= NV_PC_CTR_EXTRA_B6_EVENT_B2 ? m : NV_PC_CTR_SIMPLE;
}

static uint32_t nv_pc_word_b4(uint32_t w)
{
    return (w >> 4) & 0xf;              /* START_SRC[0..3] */
}

static uint32_t nv_pc_word_b6(uint32_t w)
{
    return nv_pc_word_b4(w) | ((w >> 10) & 3) << 4; /* + EVENT_SRC[2..3] */
}

static uint32_t nv_pc_word_b2(uint32_t w)
{
    return (w >> 8) & 3;                /* EVENT_SRC[0..1] */
}

/* What the EXTRA_* counter modes count in cycle word @w, else @other. */
static uint32_t nv_pc_extra_inc(uint32_t w, unsigned mode, uint32_t other)
{
    switch (mode) {
    case NV_PC_CTR_EXTRA_B4:
        return nv_pc_word_b4(w);
    case NV_PC_CTR_EXTRA_B6_EVENT_B2:
        return nv_pc_word_b6(w);
    default:
        return other;
    }
}

static uint32_t nv_pc_ch_inc(unsigned ch, uint32_t w, unsigned mode)
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
            return ev ? nv_pc_word_b4(w) : 0;
        case NV_PC_CTR_EVENT_B6:
            return ev ? nv_pc_word_b6(w) : 0;
        case NV_PC_CTR_EXTRA_B6_EVENT_B2:
            return nv_pc_word_b2(w);
        default:
            return ev;
        }
    case CH_QSTART_INC:
        return nv_pc_extra_inc(w, mode, !!(w & NV_PC_W_IN(NV_PC_IN_START)));
    case CH_XPRE_INC:
        return nv_pc_extra_inc(w, mode, 0);
    default:
        return (w >> (ch - CH_REC0)) & 1;
    }
}

/* ---- the period table ---- */

static void nv_pc_table_free(NvPcTable *t)
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
bool nv_pc_ev_last_get(NvPcDomain *d)
{
    if (d->ev_last_in_tab) {
        d->ev_last = d->tab.word[(d->cur - 1) & (d->tab.len - 1)] &
                     NV_PC_W_IN(NV_PC_IN_EVENT);
        d->ev_last_in_tab = false;
    }
    return d->ev_last;
}

void nv_pc_table_drop(NvPcDomain *d)
{
    nv_pc_ev_last_get(d);
    nv_pc_table_free(&d->tab);
    for (unsigned i = 0; i < NV_PC_TABLES - 1; i++) {
        nv_pc_table_free(&d->spare[i]);
    }
}

/* The period of the domain's inputs: every selected signal's divides it. */
unsigned nv_pc_table_len(NvGpu *gpu, const NvPcDomain *d)
{
    unsigned swap = GPU_FIELD_EX32(d->spec_src, NV40_PC_SPEC_SRC, SWAP);
    unsigned unk8 = GPU_FIELD_EX32(d->spec_src, NV40_PC_SPEC_SRC, UNK8);
    unsigned len = 1;

    for (unsigned i = 0; i < 16; i++) {
        len = MAX(len, nv_pc_sig_period(gpu, d, nv_pc_sel_signal(d, i)));
    }
    len = MAX(len, nv_pc_sig_period(gpu, d, swap));
    return MAX(len, nv_pc_sig_period(gpu, d, unk8));
}

/*
 * What a table takes as constant: the trailer EVENT/FLAG values d->dyn,
 * PTIMER_TIME_B12 of the span and the steady USER levels.
 */
static uint32_t nv_pc_table_key(const NvPcDomain *d)
{
    return d->dyn | (uint32_t)d->ptimer_b12 << NV_PC_TRAILER_SIGS |
           nv_pc_user_steady(d) << (NV_PC_TRAILER_SIGS + 1);
}

/* Swap in the spare table kept for the current span constants, if any. */
static bool nv_pc_table_find(NvPcDomain *d)
{
    for (unsigned i = 0; i < NV_PC_TABLES - 1; i++) {
        if (d->spare[i].valid && d->spare[i].key == nv_pc_table_key(d)) {
            NvPcTable t = d->tab;

            nv_pc_ev_last_get(d);
            d->tab = d->spare[i];
            d->spare[i] = t;
            return true;
        }
    }
    return false;
}

/* Whether the table in use, or a spare, holds for the span constants. */
bool nv_pc_table_ready(NvPcDomain *d)
{
    return (d->tab.valid && d->tab.key == nv_pc_table_key(d)) ||
           nv_pc_table_find(d);
}

/*
 * A new table for the current span constants (nv_pc_table_key()); the one in
 * use, if any, becomes a spare.  Without trailer or PTIMER inputs there
 * is one key and no spares.
 */
void nv_pc_table_build(NvGpu *gpu, NvPcDomain *d)
{
    NvPcTable *t = &d->tab;
    unsigned len = nv_pc_table_len(gpu, d);

    nv_pc_ev_last_get(d);
    if (t->valid) {
        nv_pc_table_free(&d->spare[d->spare_next]);
        d->spare[d->spare_next] = *t;
        d->spare_next = (d->spare_next + 1) % (NV_PC_TABLES - 1);
        memset(t, 0, sizeof(*t));
    }
    d->tab_steps = 0;
    nv_pc_table_free(t);
    t->key = nv_pc_table_key(d);
    t->len = len;
    t->len_log2 = __builtin_ctz(len);
    t->word = g_new(uint32_t, len);
    /* Cycle i stands for every cycle congruent to i: all periods divide. */
    for (unsigned i = 0; i < len; i++) {
        t->word[i] = nv_pc_word_at(gpu, d, i, true);
    }
    t->valid = true;
}

static const uint32_t *nv_pc_table_prefix(NvPcDomain *d, unsigned ch)
{
    NvPcTable *t = &d->tab;

    if (!t->prefix[ch]) {
        unsigned mode = nv_pc_ctr_mode(d);
        uint32_t *p = g_new(uint32_t, t->len + 1);

        /* At most 63 x 0x10000 per period: fits. */
        p[0] = 0;
        for (unsigned i = 0; i < t->len; i++) {
            p[i + 1] = p[i] + nv_pc_ch_inc(ch, t->word[i], mode);
        }
        t->prefix[ch] = p;
    }
    return t->prefix[ch];
}

/* Sum of channel @ch over cycles [0, x) in the periodic form. */
static uint64_t nv_pc_table_sum(NvPcDomain *d, unsigned ch, uint64_t x)
{
    const uint32_t *p = nv_pc_table_prefix(d, ch);
    const NvPcTable *t = &d->tab;

    return (x >> t->len_log2) * p[t->len] + p[x & (t->len - 1)];
}

uint64_t nv_pc_sp_count(const NvPcSpan *s, unsigned ch, uint64_t a, uint64_t b)
{
    if (b <= a) {
        return 0;
    }
    if (s->one) {
        return (a <= s->c0 && s->c0 < b) ?
               nv_pc_ch_inc(ch, s->w, nv_pc_ctr_mode(s->d)) : 0;
    }
    return nv_pc_table_sum(s->d, ch, b) - nv_pc_table_sum(s->d, ch, a);
}

/*
 * The cycle c in [a, b) at which the sum of @ch over [a, c] first reaches
 * @n (n >= 1), or NONE.
 */
uint64_t nv_pc_sp_find(const NvPcSpan *s, unsigned ch, uint64_t a, uint64_t b,
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
                nv_pc_ch_inc(ch, s->w, nv_pc_ctr_mode(s->d)) >= n) ?
               s->c0 : NONE;
    }
    p = nv_pc_table_prefix(s->d, ch);
    len = s->d->tab.len;
    if (!p[len]) {
        return NONE;
    }
    /* Smallest x with F(x) >= F(a) + n; the cycle is x - 1. */
    target = nv_pc_table_sum(s->d, ch, a) + n;
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
