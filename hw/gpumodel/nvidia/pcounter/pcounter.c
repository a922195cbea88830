/*
 * nv-gpu PCOUNTER (envytools docs/hw/pcounter/intro.rst, "PCOUNTER:
 * performance counter engine"), the NV40:GF100 register space with G84 to
 * GT215 features: 8 domains of 256 signals, input selection and 4-input
 * logic operations, the FLAG, single event, quad event and record modes.
 * This file advances the domains and has the registers and life cycle;
 * the rest is by job in pcounter-signals.c, pcounter-table.c,
 * pcounter-modes.c and pcounter-coupling.c (pcounter-int.h).
 *
 * Time: domain d has a clock of hz[d]; cycle c of domain d is the c-th
 * clock since the model's epoch.  Nothing steps per cycle.  A domain's
 * state is brought up to "now" lazily (on any PCOUNTER access, and from a
 * flush timer in record mode) by nv_pcounter_sync().
 *
 * Analytic evaluation: every modelled signal but TIME_B12 and the USER
 * levels (pcounter-signals.c) is a function of the cycle number that
 * repeats with a power-of-two period (1, PERIODIC 0x400..0x10000,
 * synthetic 2^k).  So, with the configuration fixed, the per-cycle input
 * word (the 16 selected signals, the six logic op outputs, SWAP) repeats
 * with period len = the largest period among the selected signals.  The
 * word is tabulated over one period, and per "channel" (an indicator or an
 * increment, e.g. EVENT x B4) a prefix sum over the period gives, for any
 * cycle range, the count in O(1) and the cycle of the n-th occurrence in
 * O(log len) (pcounter-table.c).  The modes are written as event loops
 * over those queries (pcounter-modes.c): quad mode needs the last two
 * SWAPs in a range; single mode the next PRE/START/STOP; record mode the
 * next STOP or the next cycle an event counter reaches 0xf000.  The cost
 * of a sync is independent of the clock rate and of the time elapsed,
 * except that each record packet, each single-mode period transition and
 * each change of a trailer EVENT/FLAG signal or of TIME_B12 in use is one
 * step.  A sync does at most a budget of steps; a domain that needs more
 * lags and catches up in later syncs (nv_pcounter_sync()).
 *
 * Cycles where the periodic formula does not hold (cycle 0, where delayed
 * arguments see "before reset"; the cycle PERIODIC is released from reset;
 * a PM_TRIGGER or WRCACHE_FLUSH pulse or a USER_TRIGGER write and the
 * cycle after it, if any input selects the signal; the first cycle of new
 * trailer EVENT/FLAG values or of a new PTIMER_TIME_B12 value, where
 * delayed arguments see the old ones) are evaluated one at a time through
 * the same mode code with a one-cycle span.
 *
 * PTIMER_TIME_B12 and the USER levels (pcounter-signals.c), and the
 * trailer EVENT/FLAG signals (pcounter-coupling.c), are constant over
 * spans that end at their next change, and constants of the table.
 *
 * A register write takes effect between cycle cur-1 (the last evaluated)
 * and cycle cur: cycles before it ran under the old configuration, cycle
 * cur and later under the new one.
 *
 * Choices envytools' pages leave open (docs/nv-gpu.rst lists them):
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
#include "pcounter-int.h"

/* ---- advancing a domain ---- */

/*
 * At most one bulk span between consecutive special cycles, and with
 * trailer EVENT/FLAG signals in use, one per change of them.  Stops short
 * of @target when an importing domain's queue is full, or when the
 * @budget of steps (spans) runs out.
 */
void nv_pc_dom_advance(NvGpu *gpu, NvPcDomain *d, uint64_t target,
                       uint32_t *budget)
{
    bool coupled = d->dyn_sel || d->ev_watched || d->flag_watched;

    while (d->cur < target && *budget) {
        uint64_t c = d->cur;
        uint64_t end;
        bool f = d->flag;
        bool nv_pc_ptimer_changed = nv_pc_ptimer_refresh(gpu, d);
        NvPcSpan s = { .d = d };

        if (coupled) {
            if (!nv_pc_export_room(gpu, d)) {
                return;
            }
            nv_pc_ev_last_get(d);
            d->dyn = nv_pc_dyn_at_cur(gpu, d);
        }
        nv_pc_budget_take(gpu, budget);
        /* A trailer change: delayed arguments see the old value. */
        s.one = nv_pc_is_special(gpu, d, c) || d->dyn != d->dyn_prev ||
                nv_pc_ptimer_changed;
        if (!s.one && !nv_pc_table_ready(d)) {
            /*
             * Trailer values without a table: one cycle at a time until
             * the steps since the last build pay for one (a quarter of
             * its length), so that values changing every few cycles
             * cost no more than a few times a step per cycle.
             */
            s.one = coupled && d->tab_steps++ < nv_pc_table_len(gpu, d) / 4;
            if (!s.one) {
                nv_pc_table_build(gpu, d);
            }
        }
        if (s.one) {
            s.c0 = c;
            s.w = nv_pc_word_at(gpu, d, c, false);
            end = c + 1;
        } else {
            end = MIN(target, nv_pc_next_special(gpu, d, c));
            end = MIN(end, nv_pc_ptimer_next_change(gpu, d, c));
            if (coupled) {
                end = nv_pc_dyn_span_end(d, &s, c, end);
            }
        }
        end = nv_pc_run_span(gpu, &s, c, end, budget);
        d->cur = end;
        if (coupled) {
            nv_pc_dyn_span_done(gpu, d, &s, c, end, f);
        } else if (s.one) {
            d->ev_last = s.w & NV_PC_W_IN(NV_PC_IN_EVENT);
            d->ev_last_in_tab = false;
        } else {
            d->ev_last_in_tab = true;
        }
    }
}

static uint64_t nv_pc_dom_cycles_at(NvGpu *gpu, const NvPcDomain *d,
                                    uint64_t now)
{
    uint64_t ns = now - gpu->pc.epoch_ns;

    return gpu_muldiv64(ns, d->hz, NS_PER_S);     /* saturates */
}

/* Record packets reach memory, and a lagging evaluation goes on. */
static void nv_pc_flush_arm(NvGpu *gpu)
{
    NvPcounter *pc = &gpu->pc;

    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        const NvPcDomain *d = &pc->dom[i];

        if ((nv_pc_dom_mode(d) == NV_PC_MODE_RECORD && !d->rec_wedged) ||
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
 * Bring every domain up to the current time, within the work budget.
 *
 * Budget: an evaluation runs at most cfg.pc_step_budget steps (spans of
 * nv_pc_dom_advance()), shared equally by the domains; a round of
 * nv_pc_sync_coupled() moves at least one step, so rounds are bounded too.
 * Trailer signals that change every cycle cost a step per cycle: such a
 * domain cannot keep up with virtual time and lags.  It then stays at
 * the cycle it reached (reads show that state; a register write takes
 * effect there) and continues in the next evaluation: any PCOUNTER
 * access, and the flush timer, which nv_pc_flush_arm() keeps armed while
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
        target[i] = nv_pc_dom_cycles_at(gpu, &gpu->pc.dom[i], now);
        left[i] = MAX(gpu->cfg.pc_step_budget / n, 1);
        if (!gpu->pc.coupled) {
            nv_pc_dom_advance(gpu, &gpu->pc.dom[i], target[i], &left[i]);
        }
    }
    if (gpu->pc.coupled) {
        nv_pc_sync_coupled(gpu, target, left);
    }
    for (unsigned i = 0; i < n; i++) {
        behind |= gpu->pc.dom[i].cur < target[i];
    }
    gpu->pc.behind = behind;
    if (behind) {
        nv_pc_flush_arm(gpu);
    } else {
        gpu->pc.synced_ns = now;
    }
}

static void nv_pc_flush_fire(void *opaque)
{
    NvGpu *gpu = opaque;

    nv_pcounter_sync(gpu);
    nv_pc_flush_arm(gpu);
}

/* ---- registers ---- */

static NvPcDomain *nv_pc_reg_dom(NvGpu *gpu, unsigned unit)
{
    return &gpu->pc.dom[unit % NV_PCOUNTER_DOMAINS];
}

/* A configuration change: the period table no longer holds. */
static void nv_pc_dom_reconfigured(NvPcDomain *d)
{
    nv_pc_table_drop(d);
}

/*
 * Config writes other than PRE_OP abort the single-mode process
 * (envytools docs/hw/pcounter/intro.rst, "Single event mode").
 */
static void nv_pc_dom_abort(NvPcDomain *d)
{
    d->single_state = NV_PC_SINGLE_INACTIVE;
}

static void nv_pc_src_write(NvGpu *gpu, NvPcDomain *d, unsigned which,
                            uint32_t val)
{
    d->src[which] = val;
    for (unsigned i = 0; i < 4; i++) {
        nv_pc_note_signal(gpu, d, (val >> (8 * i)) & 0xff);
    }
    nv_pc_selection_update(gpu, d);
}

static uint32_t nv_pc_ctrl_read(NvPcDomain *d)
{
    uint32_t v = GPU_FIELD_DP32(d->ctrl, NV40_PC_CTRL, QUAD_STATE,
                                d->quad_state);

    return GPU_FIELD_DP32(v, NV40_PC_CTRL, SINGLE_STATE, d->single_state);
}

static void nv_pc_ctrl_write(NvGpu *gpu, NvPcDomain *d, uint32_t val)
{
    unsigned mode = GPU_FIELD_EX32(val, NV40_PC_CTRL, MODE);
    unsigned cm = GPU_FIELD_EX32(val, NV40_PC_CTRL, CTR_MODE);

    if (val & NV_PC_CTRL_FAULT_CLEAR) {
        /*
         * Only the status bit: the domain stays wedged (envytools
         * docs/hw/pcounter/intro.rst, "Control registers").
         */
        d->rec_fault = false;
    }
    if (mode == 3 || (mode == NV_PC_MODE_RECORD &&
                      !nv_pc_has(gpu, NV_PC_F_RECORD))) {
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
    nv_pc_dom_reconfigured(d);
    nv_pc_dom_abort(d);
}

static void nv_pc_gctrl_write(NvGpu *gpu, uint32_t val)
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
            nv_pc_record_clear(d);
        }
        nv_pc_dom_reconfigured(d);
    }
}

/*
 * The trailer signals as the domain's inputs see them in cycle cur; an
 * import it does not select reads as its source's current value.
 */
static uint32_t nv_pc_sig_status(NvGpu *gpu, NvPcDomain *d, unsigned i)
{
    uint32_t v = 0;

    d->dyn = nv_pc_dyn_at_cur(gpu, d);
    for (unsigned b = 0; b < 32; b++) {
        unsigned s = i * 32 + b;
        unsigned t = nv_pc_trailer_bit(s), x = nv_pc_trailer_dom(t);
        bool on;

        switch (nv_pc_sig_kind(gpu, d, s)) {
        case SIG_DOM_EVENT:
        case SIG_DOM_FLAG:
            if (d->dyn_sel & (1u << t)) {
                on = (d->dyn >> t) & 1;
            } else {
                on = x < gpu->chip->pc_domains &&
                     nv_pc_trailer_own(&gpu->pc.dom[x],
                                       nv_pc_trailer_is_flag(t));
            }
            break;
        default:
            on = nv_pc_sig_value(gpu, d, s, d->cur, false);
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
    NvPcDomain *d = nv_pc_reg_dom(gpu, unit);

    nv_pcounter_sync(gpu);
    switch (NV_PC_AUX_ID(r->aux)) {
    case PC_SRC_STATUS:
        d->dyn = nv_pc_dyn_at_cur(gpu, d);
        return nv_pc_word_at(gpu, d, d->cur, false) & 0xffff;
    case PC_SIG_STATUS:
        return nv_pc_sig_status(gpu, d, NV_PC_AUX_INDEX(r->aux));
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
        return nv_pc_ctrl_read(d);
    default:
        return nv_reg_get(gpu, offset);
    }
}

void nv_pcounter_reg_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                           uint32_t offset, uint32_t old, uint32_t val)
{
    NvPcounter *pc = &gpu->pc;
    NvPcDomain *d = nv_pc_reg_dom(gpu, unit);
    NvPcRegId id = NV_PC_AUX_ID(r->aux);

    /* Everything before this write ran under the old configuration. */
    nv_pcounter_sync(gpu);
    switch (id) {
    case PC_PRE_SRC:
    case PC_START_SRC:
    case PC_EVENT_SRC:
    case PC_STOP_SRC:
        nv_pc_src_write(gpu, d, id - PC_PRE_SRC, val);
        nv_pc_dom_abort(d);
        break;
    case PC_PRE_OP:
        d->op[NV_PC_IN_PRE] = val & gpu->chip->op_wmask;
        nv_reg_set(gpu, offset, d->op[NV_PC_IN_PRE]);
        /*
         * Starts single mode / swaps quad mode (envytools
         * docs/hw/pcounter/intro.rst, "Input selection").
         */
        if (nv_pc_dom_mode(d) == NV_PC_MODE_SINGLE &&
            d->single_state == NV_PC_SINGLE_INACTIVE) {
            nv_pc_single_start(d);
        } else if (nv_pc_dom_mode(d) == NV_PC_MODE_QUAD &&
                   nv_pc_has(gpu, NV_PC_F_PREOP_SWAP)) {
            nv_pc_quad_swap(d);
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
        nv_pc_dom_abort(d);
        break;
    case PC_SPEC_SRC:
        d->spec_src = val;
        nv_pc_note_signal(gpu, d, GPU_FIELD_EX32(val, NV40_PC_SPEC_SRC, SWAP));
        nv_pc_selection_update(gpu, d);
        nv_pc_dom_abort(d);
        break;
    case PC_CTR_PRE:
        d->pre_init = val;
        nv_pc_dom_abort(d);
        break;
    case PC_CTR_STOP:
        d->stop_init = val;
        nv_pc_dom_abort(d);
        break;
    case PC_CTR_CYCLES:
    case PC_CTR_CYCLES_ALT:
    case PC_CTR_EVENT:
    case PC_CTR_START:
        nv_pc_dom_abort(d);
        break;
    case PC_THRESHOLD:
        d->threshold = val;
        nv_pc_dom_abort(d);
        break;
    case PC_CTRL:
        nv_pc_ctrl_write(gpu, d, val);
        break;
    case PC_USER_TRIGGER:
        /* The GT215 layout; a signal, not configuration: nv_pc_table_key() */
        nv_pc_user_trigger(d, val);
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
        if (nv_pc_dom_mode(d) == NV_PC_MODE_RECORD) {
            nv_pc_record_clear(d);
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
        nv_pc_gctrl_write(gpu, val);
        break;
    default:
        break;
    }
    if (id != PC_QUAD_ACK_TRIGGER && id != PC_RECORD_CHAN &&
        id != PC_RECORD_DMA && id != PC_USER_TRIGGER) {
        nv_pc_dom_reconfigured(d);
    }
    nv_pc_flush_arm(gpu);
}

/* ---- outside the register space ---- */

/* A PGRAPH signal: a one-cycle pulse in every domain's current cycle. */
static void nv_pc_pgraph_pulse(NvGpu *gpu, NvSigKind k)
{
    nv_pcounter_sync(gpu);
    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        NvPcDomain *d = &gpu->pc.dom[i];
        uint64_t *pulse = k == SIG_PM_TRIGGER ? d->pm_trigger_cycle
                                              : d->wrcache_flush_cycle;

        /*
         * The previous pulse may still be seen delayed this cycle.  A
         * second pulse in the same cycle is the same pulse: shifting it
         * in would drop a pulse of the cycle before, which the delayed
         * arguments of this cycle still see.
         */
        if (pulse[0] != d->cur) {
            pulse[1] = pulse[0];
            pulse[0] = d->cur;
        }
    }
    nv_pc_flush_arm(gpu);
}

void nv_pcounter_pm_trigger(NvGpu *gpu)
{
    nv_pc_pgraph_pulse(gpu, SIG_PM_TRIGGER);
}

void nv_pcounter_wrcache_flush(NvGpu *gpu)
{
    nv_pc_pgraph_pulse(gpu, SIG_WRCACHE_FLUSH);
}

/*
 * PTIMER's TIME or ratio was written (core/ptimer.c, after its re-base;
 * nv_pcounter_init() makes this its listener): the cycles before each
 * domain's current one sampled the old TIME, the current one on sample
 * the new, as any register write.
 */
static void nv_pc_ptimer_changed(NvGpu *gpu)
{
    nv_pcounter_sync(gpu);
    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        NvPcDomain *d = &gpu->pc.dom[i];

        d->ptimer_before = d->cur && nv_pc_ptimer_b12_at(gpu, d, d->cur - 1);
        d->ptimer_c0 = d->cur;
    }
    nv_pc_ptimer_snapshot(gpu);
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
    nv_pc_dom_reconfigured(d);
    return true;
}

/* Synthetic signal @n of domain @dom as set (all zero if there is none). */
NvSynth nv_pcounter_synth(NvGpu *gpu, unsigned dom, unsigned n)
{
    if (dom >= gpu->chip->pc_domains || n >= NV_SIG_SYNTH_COUNT) {
        return (NvSynth) { 0 };
    }
    return gpu->pc.dom[dom].synth[n];
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
        nv_pc_ev_last_get(&gpu->pc.dom[i]);
    }
}

static bool nv_pc_dom_state_ok(NvGpu *gpu, const NvPcDomain *d, uint64_t now)
{
    const NvPcounter *pc = &gpu->pc;
    uint64_t upto = nv_pc_dom_cycles_at(gpu, d, MAX(now, pc->synced_ns));

    if (d->cur > upto ||
        (!pc->behind &&
         d->cur != nv_pc_dom_cycles_at(gpu, d, pc->synced_ns)) ||
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
                                 !nv_pc_has(gpu, NV_PC_F_USER)) ||
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
        pc->ptimer_num > NV_PTIMER_RATIO_NUM_MAX ||
        pc->ptimer_den > NV_PTIMER_RATIO_DEN_MAX) {
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
        nv_pc_table_drop(d);
        d->spare_next = 0;
        d->tab_steps = 0;
        d->dyn_sel = nv_pc_trailer_selection(gpu, d);
        d->ptimer_sel = nv_pc_ptimer_selected(gpu, d);
    }
    nv_pc_coupling_update(gpu);
    for (unsigned i = 0; i < gpu->chip->pc_domains; i++) {
        NvPcDomain *d = &pc->dom[i];

        if (!nv_pc_dom_state_ok(gpu, d, now) || (d->dyn & ~d->dyn_sel) ||
            (d->dyn_prev & ~d->dyn_sel)) {
            *err = g_strdup_printf("PCOUNTER domain %u: cycle %"
                                   G_GUINT64_FORMAT ", CTRL 0x%x, states "
                                   "%u/%u, record position 0x%x", i, d->cur,
                                   d->ctrl, d->quad_state, d->single_state,
                                   d->rec_pos);
            return false;
        }
        for (unsigned b = 0; b < NV_PC_TRAILER_SIGS; b++) {
            if ((d->dyn_sel & (1u << b)) && nv_pc_trailer_dom(b) != i &&
                !nv_pc_import_ok(gpu, d, b)) {
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
    nv_pc_sig_kinds_init();
    gpu->pc.flush_timer = gpu_host_timer_new(&gpu->host, nv_pc_flush_fire, gpu);
    nv_ptimer_set_changed(gpu, nv_pc_ptimer_changed);
}

void nv_pcounter_fini(NvGpu *gpu)
{
    for (unsigned i = 0; i < NV_PCOUNTER_DOMAINS; i++) {
        nv_pc_table_drop(&gpu->pc.dom[i]);
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
        nv_pc_table_drop(d);
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
    nv_pc_ptimer_snapshot(gpu);       /* every domain's ptimer_c0 is 0 */
    pc->behind = false;
    gpu_host_timer_del(&gpu->host, pc->flush_timer);
}
