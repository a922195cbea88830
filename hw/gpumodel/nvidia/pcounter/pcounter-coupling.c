/*
 * nv-gpu PCOUNTER coupling: the trailer signals DOM[x].EVENT/FLAG
 * (0xf0-0xff; envytools docs/hw/pcounter/intro.rst, "The EVENT and FLAG
 * signals") depend on a domain's own state or on another domain's, so
 * they are not periodic.  A domain that selects any of them, or whose own
 * EVENT/FLAG some domain selects, is evaluated in spans over which those
 * signals are constant: a span stops after the next change of the EVENT
 * output, after the next cycle the FLAG may change, and before the next
 * change of an import.  Within a span the trailer values are constants of
 * the period table (tables are kept per set of values, NV_PC_TABLES of
 * them).  A domain tells each importer of its EVENT/FLAG about changes as
 * it passes them, in the importer's cycles (a short queue per imported
 * signal); an importer runs only as far as its sources' evaluated past,
 * or in a loop of imports the lookahead of their quiet periods
 * (nv_pc_quiet_horizons()), decides its inputs.  nv_pcounter_sync() then runs
 * the domains in rounds (nv_pc_sync_coupled()).  Domains nobody couples
 * to take the direct path.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "pcounter-int.h"

/* ---- trailer EVENT/FLAG signals as inputs ---- */

/*
 * DOM[x].EVENT and DOM[x].FLAG are, in domain x itself, the EVENT output
 * one cycle late and the FLAG two cycles late: S_x(j) = EVENT(j - 1),
 * FLAG after cycle j - 2.  Domain y != x sees them through a synchronizer
 * (the head of this file): in its cycle c, the window of x cycles
 * (k(c - 1), k(c)] with k(c) = floor((c - 1) * hz_x / hz_y) - 1, the x
 * cycles completed by the end of y's cycle c - 2.  CONTINUOUS gives
 * S_x(k(c)); PULSE gives 1 iff S_x rose from 0 to 1 inside the window.
 *
 * The first y cycle whose window takes in x cycle @j.
 */
static uint64_t nv_pc_import_cycle(const NvPcDomain *x, const NvPcDomain *y,
                                   uint64_t j)
{
    uint64_t c;

    if (j >= NONE - 1) {
        return NONE;
    }
    c = gpu_muldiv64_ceil(j + 1, y->hz, x->hz);     /* saturates */
    return c < NONE - 1 ? c + 1 : NONE - 1;
}

static bool nv_pc_import_pulse_mode(const NvPcDomain *d, unsigned b)
{
    return d->ctrl & (nv_pc_trailer_is_flag(b) ?
                      NV_PC_CTRL_FLAG_IMPORT_PULSE :
                      NV_PC_CTRL_EVENT_IMPORT_PULSE);
}

/* Domain @x's own DOM[x].EVENT/FLAG signal in its cycle cur. */
bool nv_pc_trailer_own(NvPcDomain *x, bool flag)
{
    return flag ? x->flag_prev : nv_pc_ev_last_get(x);
}

/* The value of imported signal @b in cycle cur, taking in due changes. */
static bool nv_pc_import_value(NvPcDomain *d, unsigned b)
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
    return nv_pc_import_pulse_mode(d, b) ? q->pulse_c == d->cur : q->cont;
}

/* The trailer EVENT/FLAG signals @d selects, in its cycle cur. */
uint16_t nv_pc_dyn_at_cur(NvGpu *gpu, NvPcDomain *d)
{
    uint16_t v = 0;

    for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
        unsigned x = nv_pc_trailer_dom(b);
        bool on;

        if (!(d->dyn_sel & (1u << b))) {
            continue;
        }
        if (x == d->id) {
            on = nv_pc_trailer_own(d, nv_pc_trailer_is_flag(b));
        } else {
            on = nv_pc_import_value(d, b);
        }
        v |= (uint16_t)on << b;
    }
    return v;
}

/*
 * The first cycle after cur at which an imported signal may change: the
 * next queued change, or the end of a PULSE.  NONE: none known.
 */
static uint64_t nv_pc_import_next_change(NvPcDomain *d)
{
    uint64_t next = NONE;

    for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
        const NvPcImport *q = &d->imp[b];

        if (!(d->dyn_sel & (1u << b)) || nv_pc_trailer_dom(b) == d->id) {
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
bool nv_pc_export_room(NvGpu *gpu, const NvPcDomain *x)
{
    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        const NvPcDomain *y = &gpu->pc.dom[i];

        for (unsigned f = 0; f < 2 && y != x; f++) {
            unsigned b = f ? nv_pc_trailer_bit(NV_SIG_DOM_FLAG(x->id))
                           : nv_pc_trailer_bit(NV_SIG_DOM_EVENT(x->id));

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
static void nv_pc_export_value(NvGpu *gpu, const NvPcDomain *x, bool flag,
                               uint64_t j, bool v)
{
    unsigned b = flag ? nv_pc_trailer_bit(NV_SIG_DOM_FLAG(x->id))
                      : nv_pc_trailer_bit(NV_SIG_DOM_EVENT(x->id));

    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        NvPcDomain *y = &gpu->pc.dom[i];
        NvPcImport *q = &y->imp[b];
        unsigned tail;
        uint64_t c;

        if (y == x || !(y->dyn_sel & (1u << b)) || q->last == v) {
            continue;
        }
        q->last = v;
        c = nv_pc_import_cycle(x, y, j);
        tail = (q->head + q->n + NV_PC_IMPORT_QUEUE - 1) % NV_PC_IMPORT_QUEUE;
        if (q->n && q->c[tail] == c) {
            /* The same window: the last value, any rise. */
            q->v[tail] = v;
            q->rose[tail] |= v;
            continue;
        }
        /* nv_pc_export_room() checked before the span. */
        g_assert(q->n < NV_PC_IMPORT_QUEUE);
        tail = (q->head + q->n) % NV_PC_IMPORT_QUEUE;
        q->c[tail] = c;
        q->v[tail] = v;
        q->rose[tail] = v;
        q->n++;
    }
}

/* Whether the FLAG can change at all in the current state. */
static bool nv_pc_flag_live(const NvPcDomain *d)
{
    switch (nv_pc_dom_mode(d)) {
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
uint64_t nv_pc_dyn_span_end(NvPcDomain *d, const NvPcSpan *s, uint64_t c,
                            uint64_t end)
{
    uint64_t t;

    end = MIN(end, nv_pc_import_next_change(d));
    if (d->ev_watched) {
        t = nv_pc_sp_find(s, d->ev_last ? CH_EV_LOW : CH_EV_HIGH, c, end, 1);
        end = t == NONE ? end : t + 1;
    }
    if (d->flag_watched && d->flag != d->flag_prev) {
        end = MIN(end, c + 1);
    } else if (d->flag_watched && nv_pc_flag_live(d)) {
        t = nv_pc_sp_find(s, d->flag ? CH_CLR : CH_SET_ONLY, c, end, 1);
        end = t == NONE ? end : t + 1;
    }
    return end;
}

/*
 * After span [c, e): the EVENT output of cycle e - 1, and what importers
 * must see, the trailer signals up to cycle e (= cur) included: EVENT
 * from e - 1, and @f, the FLAG after cycle c - 1, which nv_pc_dyn_span_end()
 * kept as the FLAG signal of cycles c + 1 to e.
 */
void nv_pc_dyn_span_done(NvGpu *gpu, NvPcDomain *d, const NvPcSpan *s,
                         uint64_t c, uint64_t e, bool f)
{
    bool ev = nv_pc_sp_word(s, e - 1) & NV_PC_W_IN(NV_PC_IN_EVENT);

    if (d->ev_watched && ev != d->ev_last) {
        nv_pc_export_value(gpu, d, false, e, ev);
    }
    d->ev_last = ev;
    if (d->flag_watched) {
        nv_pc_export_value(gpu, d, true, c + 1, f);
    }
    d->dyn_prev = d->dyn;
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
static uint64_t nv_pc_inputs_quiet_until(NvGpu *gpu, NvPcDomain *d,
                                         const uint64_t *quiet)
{
    bool ptimer_changed = nv_pc_ptimer_refresh(gpu, d);
    uint64_t h;

    d->dyn = nv_pc_dyn_at_cur(gpu, d);
    if (nv_pc_is_special(gpu, d, d->cur) || d->dyn != d->dyn_prev ||
        ptimer_changed) {
        return d->cur;
    }
    h = MIN(nv_pc_next_special(gpu, d, d->cur), nv_pc_import_next_change(d));
    h = MIN(h, nv_pc_ptimer_next_change(gpu, d, d->cur));
    for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
        unsigned x = nv_pc_trailer_dom(b);

        if (!(d->dyn_sel & (1u << b)) || x >= gpu->chip->pc_domains) {
            continue;
        }
        h = MIN(h, x == d->id ? quiet[x]
                              : nv_pc_import_cycle(&gpu->pc.dom[x], d,
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
static uint64_t nv_pc_outputs_quiet_until(NvGpu *gpu, NvPcDomain *d, uint64_t h)
{
    uint64_t q = h == NONE ? NONE : h + 1, t;
    NvPcSpan s = { .d = d };

    if (h <= d->cur || !nv_pc_table_ready(d)) {
        return d->cur + 1;
    }
    if (d->ev_watched) {
        t = nv_pc_sp_find(&s, nv_pc_ev_last_get(d) ? CH_EV_LOW : CH_EV_HIGH,
                          d->cur, h, 1);
        q = t == NONE ? q : MIN(q, t + 1);
    }
    if (d->flag_watched && d->flag != d->flag_prev) {
        q = MIN(q, d->cur + 1);
    } else if (d->flag_watched && nv_pc_flag_live(d)) {
        t = nv_pc_sp_find(&s, d->flag ? CH_CLR : CH_SET_ONLY, d->cur, h, 1);
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
static void nv_pc_quiet_horizons(NvGpu *gpu, uint64_t *quiet)
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
            q = nv_pc_inputs_quiet_until(gpu, d, quiet);
            q = nv_pc_outputs_quiet_until(gpu, d, q);
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
static uint64_t nv_pc_import_limit(NvGpu *gpu, const NvPcDomain *d,
                                   const uint64_t *quiet)
{
    uint64_t lim = NONE;

    for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
        unsigned x = nv_pc_trailer_dom(b);
        uint64_t known;

        if (!(d->dyn_sel & (1u << b)) || x == d->id ||
            x >= gpu->chip->pc_domains) {
            continue;
        }
        known = gpu->pc.dom[x].cur + 1;
        if (quiet) {
            known = MAX(known, quiet[x]);
        }
        lim = MIN(lim, nv_pc_import_cycle(&gpu->pc.dom[x], d, known));
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
void nv_pc_sync_coupled(NvGpu *gpu, const uint64_t *target, uint32_t *left)
{
    unsigned n = gpu->chip->pc_domains;
    uint64_t quiet[NV_PCOUNTER_DOMAINS];

    for (;;) {
        bool pending = false, moved = false, spent = false;

        if (gpu->pc.import_loop) {
            nv_pc_quiet_horizons(gpu, quiet);
        }
        for (unsigned i = 0; i < n; i++) {
            NvPcDomain *d = &gpu->pc.dom[i];
            uint64_t before = d->cur;
            uint64_t lim = nv_pc_import_limit(gpu, d, gpu->pc.import_loop ?
                                                      quiet : NULL);

            nv_pc_dom_advance(gpu, d, MIN(target[i], lim), &left[i]);
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

/* Which domains' EVENT/FLAG some domain selects. */
void nv_pc_coupling_update(NvGpu *gpu)
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
            NvPcDomain *x = &pc->dom[nv_pc_trailer_dom(b)];

            if (!(pc->dom[i].dyn_sel & (1u << b)) ||
                nv_pc_trailer_dom(b) >= n) {
                continue;
            }
            pc->coupled = true;
            if (nv_pc_trailer_dom(b) != i) {
                reach[nv_pc_trailer_dom(b)] |= 1u << i;
            }
            if (nv_pc_trailer_is_flag(b)) {
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
uint16_t nv_pc_trailer_selection(NvGpu *gpu, const NvPcDomain *d)
{
    uint16_t sel = 0;

    for (unsigned i = 0; i < 16; i++) {
        unsigned s = nv_pc_sel_signal(d, i);

        if (s >= NV_SIG_DOM_EVENT(7)) {
            sel |= 1u << nv_pc_trailer_bit(s);
        }
    }
    if (nv_pc_has(gpu, NV_PC_F_SPEC_SRC)) {
        const unsigned spec[] = {
            GPU_FIELD_EX32(d->spec_src, NV40_PC_SPEC_SRC, SWAP),
            GPU_FIELD_EX32(d->spec_src, NV40_PC_SPEC_SRC, UNK8),
        };

        for (unsigned i = 0; i < 2; i++) {
            unsigned s = spec[i];

            if (s >= NV_SIG_DOM_EVENT(7)) {
                sel |= 1u << nv_pc_trailer_bit(s);
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
void nv_pc_selection_update(NvGpu *gpu, NvPcDomain *d)
{
    uint16_t sel = nv_pc_trailer_selection(gpu, d);
    uint16_t added = sel & ~d->dyn_sel;

    for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
        unsigned x = nv_pc_trailer_dom(b);
        NvPcImport *q = &d->imp[b];
        bool v = false;

        if (!(added & (1u << b))) {
            continue;
        }
        if (x < gpu->chip->pc_domains) {
            v = nv_pc_trailer_own(&gpu->pc.dom[x], nv_pc_trailer_is_flag(b));
        }
        memset(q, 0, sizeof(*q));
        q->last = q->cont = v;
        q->pulse_c = NONE;
        d->dyn_prev = (d->dyn_prev & ~(1u << b)) | (uint16_t)v << b;
    }
    d->dyn_sel = sel;
    d->dyn_prev &= sel;
    d->dyn = d->dyn_prev;
    d->ptimer_sel = nv_pc_ptimer_selected(gpu, d);
    nv_pc_coupling_update(gpu);
}

bool nv_pc_import_ok(NvGpu *gpu, const NvPcDomain *y, unsigned b)
{
    const NvPcImport *q = &y->imp[b];
    const NvPcDomain *x = &gpu->pc.dom[nv_pc_trailer_dom(b)];
    uint64_t last = 0;

    if (q->head >= NV_PC_IMPORT_QUEUE || q->n > NV_PC_IMPORT_QUEUE ||
        (q->pulse_c != NONE && q->pulse_c > y->cur)) {
        return false;
    }
    /* Windows in order, of changes in cycles the source has evaluated. */
    for (unsigned k = 0; k < q->n; k++) {
        uint64_t c = q->c[(q->head + k) % NV_PC_IMPORT_QUEUE];

        if ((k && c <= last) || c > nv_pc_import_cycle(x, y, x->cur)) {
            return false;
        }
        last = c;
    }
    return true;
}
