/*
 * intel-gpu engine services: what every unit that does an engine's work
 * (command streamer, execlists, pipelines, shared functions, OA, power
 * management) needs of the engine, below all of them.  The engine's run
 * state, the work it has committed but not yet done at the modelled pace
 * (IntelCsInFlight), its timestamps, its error path and page faults
 * (PRM Vol 2c, RING_ESR/RING_EIR/RING_EMR, "Fault Reporting").
 *
 * The running-context view (ctx_active, ctx_desc, load_pending in
 * IntelEngine) is plain data that only execlists/ writes; the others read
 * it through intel_engine_ctx_*().  The submission backend plugs in
 * through IntelEngine.submit, as i915 plugs its backends into
 * intel_engine_cs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../intel-gpu-int.h"
#include "../../gpumodel-math.h"

bool intel_engine_busy(IntelEngine *e)
{
    return e->state == INTEL_CS_RUNNING || e->state == INTEL_CS_WAITING;
}

/* A busy engine keeps the GT out of RC6: activity subscribers hear of it. */
void intel_engine_set_state(IntelEngine *e, IntelCsState state)
{
    bool was_busy = intel_engine_busy(e);

    e->state = state;
    if (intel_engine_busy(e) != was_busy) {
        intel_gt_notify(e->gpu, INTEL_GT_ACTIVITY,
                        &(IntelGtEventArgs) { .engine = e });
    }
}

/* Command-streamer timestamp ticks in @ns nanoseconds. */
uint64_t intel_engine_timestamp(IntelGpu *gpu, uint64_t ns)
{
    uint64_t hz = intel_cs_timestamp_hz(gpu);

    return ns / 1000000000u * hz + ns % 1000000000u * hz / 1000000000u;
}

/* CTX_TIMESTAMP: the running context's time on the engine. */
uint32_t intel_engine_ctx_timestamp(IntelEngine *e)
{
    if (!e->ctx_active) {
        return intel_engine_reg(e, INTEL_RING_CTX_TIMESTAMP);
    }
    return e->ctx_ts_base +
           intel_engine_timestamp(e->gpu, gpu_host_now_ns(&e->gpu->host) -
                                          e->ctx_in_ns);
}

/* ---- work in flight ---- */

/*
 * Start the span in flight anew at @now, inside it: what is done by now
 * stays done, the rest follows evenly from now on.
 */
void intel_engine_in_flight_rebase(IntelCsInFlight *w, uint64_t now)
{
    uint64_t span = w->end_ns - w->start_ns, left = w->end_ns - now;

    for (unsigned i = 0; i < INTEL_EU_FFIDS; i++) {
        w->eu_clocks[i] = gpu_muldiv64(w->eu_clocks[i], left, span);
        for (unsigned k = 0; k < INTEL_EU_EVS; k++) {
            w->eu_ev[i][k] = gpu_muldiv64(w->eu_ev[i][k], left, span);
        }
    }
    for (unsigned i = 0; i < INTEL_PX_COUNTS; i++) {
        w->px[i] = gpu_muldiv64(w->px[i], left, span);
    }
    w->start_ns = now;
}

/* Take from @done the part @left / @span of the work @in_flight. */
static void engine_undo(uint64_t *done, uint64_t in_flight, uint64_t left,
                        uint64_t span)
{
    uint64_t undone = gpu_muldiv64(in_flight, left, span);

    *done -= MIN(undone, *done);
}

/* The engine's statistics as of @ns: less the work still in flight then. */
void intel_engine_stats_at(IntelEngine *e, uint64_t ns, IntelCsStats *st)
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
        engine_undo(&st->eu_clocks[i], w->eu_clocks[i], left, span);
        for (unsigned k = 0; k < INTEL_EU_EVS; k++) {
            engine_undo(&st->eu_ev[i][k], w->eu_ev[i][k], left, span);
        }
    }
    for (unsigned i = 0; i < INTEL_PX_COUNTS; i++) {
        engine_undo(&st->px[i], w->px[i], left, span);
    }
}

/*
 * The GT clock changed from RPS ratio @from to @to at @now: the work in
 * flight is a number of clocks, which now take longer or shorter.
 */
static void engine_frequency_change(IntelGpu *gpu, IntelGtEvent ev,
                                    IntelGtEventArgs *a)
{
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        IntelEngine *e = &gpu->engine[i];
        IntelCsInFlight *w = &e->in_flight;
        uint64_t scaled;

        if (a->now >= w->end_ns) {
            continue;
        }
        if (a->now > w->start_ns) {
            intel_engine_in_flight_rebase(w, a->now);
        }
        scaled = gpu_muldiv64(w->end_ns - w->start_ns, a->from, a->to);
        e->stats.busy_ns = e->stats.busy_ns - (w->end_ns - w->start_ns) +
                           scaled;
        w->end_ns = w->start_ns + scaled;
    }
}

void intel_engine_services_init(IntelGpu *gpu)
{
    intel_gt_subscribe(gpu, INTEL_GT_FREQUENCY, engine_frequency_change);
}

/* ---- errors and faults ---- */

void intel_engine_raise(IntelEngine *e, uint16_t bits)
{
    intel_irq_raise(e->gpu, e->klass, e->instance, bits);
}

/*
 * The hardware's error report: the status bit in ESR, reported in EIR
 * (and as the CS master error interrupt) unless EMR masks it.
 */
void intel_engine_report_error(IntelEngine *e, uint32_t error)
{
    intel_engine_set_reg(e, INTEL_RING_ESR,
                         intel_engine_reg(e, INTEL_RING_ESR) | error);
    if (!(intel_engine_reg(e, INTEL_RING_EMR) & error)) {
        intel_engine_set_reg(e, INTEL_RING_EIR,
                             intel_engine_reg(e, INTEL_RING_EIR) | error);
        intel_engine_raise(e, INTEL_GT_CS_MASTER_ERROR);
    }
}

/*
 * An error that stops the engine until reset.  Only commands raise it,
 * inside intel_cs_run(), which brings the position registers up to date
 * and traces the error after the step.
 */
void intel_engine_error(IntelEngine *e, uint32_t error, const char *why)
{
    gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                 "engine %u: %s; engine halted", e->id, why);
    intel_engine_report_error(e, error);
    intel_engine_set_state(e, INTEL_CS_HALTED);
    gpu_host_timer_del(&e->gpu->host, e->timer);
}

/*
 * A page fault of the engine at @addr: RING_FAULT_REG names the engine,
 * FAULT_TLB_DATA0/1 the page and address space, and the engine's
 * page-fault interrupt is raised.
 */
void intel_engine_page_fault(IntelEngine *e, bool ppgtt, uint64_t addr)
{
    IntelGpu *gpu = e->gpu;

    intel_reg_set(gpu, INTEL_RING_FAULT_REG,
                  1u | (uint32_t)e->klass << 12 | (uint32_t)e->instance << 3);
    intel_reg_set(gpu, INTEL_FAULT_TLB_DATA0, addr >> 12);
    intel_reg_set(gpu, INTEL_FAULT_TLB_DATA1,
                  ((addr >> 44) & 0xf) | (ppgtt ? 0 : 1u << 4));
    intel_engine_raise(e, INTEL_GT_PAGE_FAULT);
}
