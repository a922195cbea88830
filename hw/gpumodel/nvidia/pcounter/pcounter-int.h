/*
 * nv-gpu PCOUNTER: what its files share (pcounter.c has the overview).
 *
 *   pcounter-signals.c   the signals, input selection, the logic ops
 *   pcounter-table.c     channels, the period table, span queries
 *   pcounter-modes.c     the FLAG; single event, quad event, record modes
 *   pcounter-coupling.c  trailer EVENT/FLAG signals between domains
 *   pcounter.c           advancing the domains, registers, life cycle
 *
 * Private to those files; the rest of the model uses nv-gpu.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef NV_PCOUNTER_INT_H
#define NV_PCOUNTER_INT_H

#include "../nv-gpu-int.h"
#include "../../gpumodel-math.h"

#define NONE UINT64_MAX
#define NS_PER_S 1000000000ull
#define REC_CYCLES_MASK ((1ull << 48) - 1)

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

/* envytools' "host clock" domain, where PTIMER's signal is. */
#define NV_PC_HOST_DOMAIN 0

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

/*
 * A span answers the mode code's questions over a range of cycles: from
 * the period table, or for one cycle with an explicit word.
 */
typedef struct NvPcSpan {
    NvPcDomain *d;
    bool one;
    uint32_t w;
    uint64_t c0;
} NvPcSpan;

static inline bool nv_pc_has(NvGpu *gpu, uint32_t feature)
{
    return gpu->chip->pc_features & feature;
}

/*
 * The trailer EVENT/FLAG signals as a 16-bit set: bit b is signal
 * 0xf0 + b, DOM[7 - b].EVENT for b < 8, DOM[15 - b].FLAG above.
 */
static inline unsigned nv_pc_trailer_bit(unsigned s)
{
    return s - NV_SIG_DOM_EVENT(7);
}

static inline unsigned nv_pc_trailer_dom(unsigned b)
{
    return (NV_PC_TRAILER_SIGS / 2 - 1) - b % (NV_PC_TRAILER_SIGS / 2);
}

static inline bool nv_pc_trailer_is_flag(unsigned b)
{
    return b >= NV_PC_TRAILER_SIGS / 2;
}

static inline unsigned nv_pc_sel_signal(const NvPcDomain *d, unsigned i)
{
    return (d->src[i / 4] >> (8 * (i % 4))) & 0xff;
}

/* The last two pulses of PGRAPH signal @k in @d's cycles. */
static inline const uint64_t *nv_pc_pulse_cycles(const NvPcDomain *d,
                                                 NvSigKind k)
{
    return k == SIG_PM_TRIGGER ? d->pm_trigger_cycle : d->wrcache_flush_cycle;
}

static inline bool nv_pc_pulse_at(const uint64_t *pulse, uint64_t c)
{
    return c == pulse[0] || c == pulse[1];
}

/* The levels from the cycle after the last write on: a span constant. */
static inline unsigned nv_pc_user_steady(const NvPcDomain *d)
{
    return d->user_val & ~d->user_pulse;
}

static inline uint32_t nv_pc_sp_word(const NvPcSpan *s, uint64_t c)
{
    /* len is a power of two */
    return s->one ? s->w : s->d->tab.word[c & (s->d->tab.len - 1)];
}

static inline uint32_t nv_pc_sat32(uint64_t v, uint64_t add)
{
    return MIN(v + add, (uint64_t)UINT32_MAX);
}

/* One evaluation step from @budget; false when it is spent. */
static inline bool nv_pc_budget_take(NvGpu *gpu, uint32_t *budget)
{
    if (!*budget) {
        return false;
    }
    (*budget)--;
    gpu->pc.steps++;
    return true;
}

static inline unsigned nv_pc_dom_mode(const NvPcDomain *d)
{
    return GPU_FIELD_EX32(d->ctrl, NV40_PC_CTRL, MODE);
}

/* pcounter-signals.c */
void nv_pc_sig_kinds_init(void);
NvSigKind nv_pc_sig_kind(NvGpu *gpu, const NvPcDomain *d, unsigned s);
void nv_pc_user_trigger(NvPcDomain *d, uint32_t val);
bool nv_pc_ptimer_b12_at(NvGpu *gpu, const NvPcDomain *d, uint64_t c);
uint64_t nv_pc_ptimer_next_change(NvGpu *gpu, const NvPcDomain *d,
                                  uint64_t c);
bool nv_pc_ptimer_refresh(NvGpu *gpu, NvPcDomain *d);
void nv_pc_ptimer_snapshot(NvGpu *gpu);
bool nv_pc_sig_value(NvGpu *gpu, const NvPcDomain *d, unsigned s,
                     uint64_t c, bool table);
unsigned nv_pc_sig_period(NvGpu *gpu, const NvPcDomain *d, unsigned s);
uint32_t nv_pc_word_at(NvGpu *gpu, const NvPcDomain *d, uint64_t c,
                       bool table);
bool nv_pc_ptimer_selected(NvGpu *gpu, NvPcDomain *d);
bool nv_pc_is_special(NvGpu *gpu, const NvPcDomain *d, uint64_t c);
uint64_t nv_pc_next_special(NvGpu *gpu, const NvPcDomain *d, uint64_t c);
void nv_pc_note_signal(NvGpu *gpu, NvPcDomain *d, unsigned s);

/* pcounter-table.c */
bool nv_pc_ev_last_get(NvPcDomain *d);
void nv_pc_table_drop(NvPcDomain *d);
unsigned nv_pc_table_len(NvGpu *gpu, const NvPcDomain *d);
bool nv_pc_table_ready(NvPcDomain *d);
void nv_pc_table_build(NvGpu *gpu, NvPcDomain *d);
uint64_t nv_pc_sp_count(const NvPcSpan *s, unsigned ch, uint64_t a, uint64_t b);
uint64_t nv_pc_sp_find(const NvPcSpan *s, unsigned ch, uint64_t a, uint64_t b,
                       uint64_t n);

/* pcounter-modes.c */
void nv_pc_single_start(NvPcDomain *d);
void nv_pc_quad_swap(NvPcDomain *d);
void nv_pc_record_clear(NvPcDomain *d);
uint64_t nv_pc_run_span(NvGpu *gpu, const NvPcSpan *s, uint64_t a, uint64_t b,
                        uint32_t *budget);

/* pcounter-coupling.c */
bool nv_pc_trailer_own(NvPcDomain *x, bool flag);
uint16_t nv_pc_dyn_at_cur(NvGpu *gpu, NvPcDomain *d);
bool nv_pc_export_room(NvGpu *gpu, const NvPcDomain *x);
uint64_t nv_pc_dyn_span_end(NvPcDomain *d, const NvPcSpan *s, uint64_t c,
                            uint64_t end);
void nv_pc_dyn_span_done(NvGpu *gpu, NvPcDomain *d, const NvPcSpan *s,
                         uint64_t c, uint64_t e, bool f);
void nv_pc_sync_coupled(NvGpu *gpu, const uint64_t *target, uint32_t *left);
void nv_pc_coupling_update(NvGpu *gpu);
uint16_t nv_pc_trailer_selection(NvGpu *gpu, const NvPcDomain *d);
void nv_pc_selection_update(NvGpu *gpu, NvPcDomain *d);
bool nv_pc_import_ok(NvGpu *gpu, const NvPcDomain *y, unsigned b);

/* pcounter.c */
void nv_pc_dom_advance(NvGpu *gpu, NvPcDomain *d, uint64_t target,
                       uint32_t *budget);

#endif
