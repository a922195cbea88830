/*
 * intel-gpu OA unit, the stream (KBL PRM Vol 14 "Observability": OA
 * programming, report formats, trigger logic; drivers/gpu/drm/i915/
 * i915_perf.c): reports written into the OA buffer in the GGTT, and the
 * snapshots MI_REPORT_PERF_COUNT asks for.
 *
 * Counting ("GO") runs while OACONTROL's counter enable and OACTXCONTROL's
 * counter stop-resume bit are both set; the A, B and C counters advance
 * only then, and a GO 1->0 transition with OA enabled writes a report.
 *
 * Reports go to the buffer
 *  - every 2^(exponent + 1) command-streamer timestamp ticks while
 *    OACTXCONTROL's timer is enabled, on multiples of the period, engines
 *    busy or idle (reason "timer");
 *  - every THRESHOLD GT clocks of a report trigger whose OAREPORTTRIG2/6
 *    has REPORT_TRIGGER_ENABLE and THRESHOLD_ENABLE (reason "internal
 *    report trigger 1/2"; trigger 1 wins when both fall on one clock);
 *  - on every render context switch while OA is enabled;
 *  - on GO 1->0;
 *  - on a GT frequency change (rps.c).
 * OA_DEBUG can turn off the last three, as on hardware.  Timer and trigger
 * reports are produced lazily: a timer wakes at most every OA_BATCH_NS and
 * writes every report that fell due since, each with its own time; any
 * change that moves the counters (GO, an engine going active or idle, a
 * CEC, trigger or NOA write, a GT frequency change), every event report
 * and every access of the reader's registers (OATAILPTR, OASTATUS,
 * OAHEADPTR) first writes the reports due before it, so a reader sees
 * them exactly when they are due.  Each such operation happens at one
 * instant, read once: QEMU's virtual clock moves on while a handler runs,
 * and a report due between two reads of it would otherwise be written
 * after the event's own, or count from a later sync.
 *
 * The OA buffer and a report's way into it are in oa-buffer.c, what the
 * counters count and the report formats in oa-counters.c, the NOA mux
 * the B and C counters look at in oa-noa.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>
#include "oa-int.h"

#define OA_BATCH_NS         1000000     /* timer wake-ups at most 1 kHz */
#define OA_MAX_PER_CATCH_UP (1u << 20)  /* see oa_catch_up() */

/* Report reasons: RPT_ID bits 24:19 (oa-buffer.c). */
#define OA_REASON_TIMER         (1u << 0)
#define OA_REASON_TRIGGER(k)    (1u << (1 + (k)))
#define OA_REASON_CTX_SWITCH    (1u << 3)
#define OA_REASON_GO_1_0        (1u << 4)
#define OA_REASON_CLK_RATIO     (1u << 5)

/*
 * MI_REPORT_PERF_COUNT: a snapshot in the current format at @addr, its
 * report ID in dword 0 unchanged (IGT's mi-rpc expects 0xdeadbeef back).
 */
static void oa_perf_report(IntelGpu *gpu, IntelGtEvent ev,
                           IntelGtEventArgs *a)
{
    const OaFormat *f = oa_format(gpu) ?: &oa_formats[5];
    uint8_t r[256];

    oa_build(gpu, f, a->report_id, a->now, r);
    a->ret = intel_vm_rw(a->engine, a->ppgtt, a->addr, r, f->size, true);
}

static bool oa_enabled(IntelGpu *gpu)
{
    return (intel_reg_get(gpu, INTEL_OACONTROL) & INTEL_OACONTROL_ENABLE) &&
           oa_format(gpu);
}

static bool oa_sampling(IntelGpu *gpu)
{
    return oa_enabled(gpu) &&
           (intel_reg_get(gpu, INTEL_OACTXCONTROL) &
            INTEL_OACTXCONTROL_TIMER_ENABLE);
}

/* The timer period in timestamp ticks: 2^(exponent + 1). */
static uint64_t oa_period_ticks(IntelGpu *gpu)
{
    unsigned e = (intel_reg_get(gpu, INTEL_OACTXCONTROL) >> 2) & 0x3f;

    return 2ull << MIN(e, 31u);
}

/* The first nanosecond at which the timestamp reads @ticks. */
static uint64_t oa_ticks_to_ns(IntelGpu *gpu, uint64_t ticks)
{
    uint64_t hz = intel_cs_timestamp_hz(gpu);

    return ticks / hz * 1000000000u +
           (ticks % hz * 1000000000u + hz - 1) / hz;
}

/*
 * Report trigger @k's period in GT clocks, 0 when it does not report:
 * OAREPORTTRIG1/5 threshold (15:0), OAREPORTTRIG2/6 enables.  The event
 * the threshold counts is the GT clock; the NOA input selection and its
 * invert bits are stored only.
 */
static uint64_t oa_trigger_clocks(IntelGpu *gpu, unsigned k)
{
    uint32_t ctl = intel_reg_get(gpu, INTEL_OAREPORTTRIG(4 * k + 1));
    uint32_t need = INTEL_OATRIG_REPORT_ENABLE | INTEL_OATRIG_THRESHOLD_ENABLE;

    if ((ctl & need) != need) {
        return 0;
    }
    return intel_reg_get(gpu, INTEL_OAREPORTTRIG(4 * k)) & 0xffff;
}

/* The next timer or trigger report due, its time and reason; or false. */
static bool oa_next_due(IntelGpu *gpu, uint64_t *ns, uint32_t *reason)
{
    IntelOaState *oa = &gpu->oa;

    *ns = oa->running ? oa_ticks_to_ns(gpu, oa->next_tick) : UINT64_MAX;
    *reason = oa->running ? OA_REASON_TIMER : 0;
    for (unsigned k = 0; k < 2; k++) {
        uint64_t t;

        if (!oa->trig_next[k]) {
            continue;
        }
        t = intel_gt_clocks_ns(gpu, oa->trig_next[k]);
        if (t > *ns) {
            continue;
        }
        if (t < *ns) {
            *reason = 0;
            *ns = t;
        }
        if (!(*reason & OA_REASON_TRIGGER(0))) {    /* trigger 1 first */
            *reason |= OA_REASON_TRIGGER(k);
        }
    }
    return *reason;
}

/* Move every report source due at @ns to its next report. */
static void oa_advance(IntelGpu *gpu, uint64_t ns)
{
    IntelOaState *oa = &gpu->oa;

    if (oa->running && oa_ticks_to_ns(gpu, oa->next_tick) == ns) {
        oa->next_tick += oa->period_ticks;
    }
    for (unsigned k = 0; k < 2; k++) {
        if (oa->trig_next[k] &&
            intel_gt_clocks_ns(gpu, oa->trig_next[k]) == ns) {
            oa->trig_next[k] += oa_trigger_clocks(gpu, k);
        }
    }
}

/*
 * The timer fires when timestamp bit (exponent + 1) toggles, so reports
 * sit on multiples of the period whenever sampling (re)starts.
 */
static uint64_t oa_next_boundary(IntelGpu *gpu, uint64_t period,
                                  uint64_t now)
{
    uint64_t ts = intel_engine_timestamp(gpu, now);

    return (ts / period + 1) * period;
}

/* (Re)start the report triggers from @now. */
static void oa_triggers_start(IntelGpu *gpu, uint64_t now)
{
    for (unsigned k = 0; k < 2; k++) {
        uint64_t c = oa_trigger_clocks(gpu, k);

        gpu->oa.trig_next[k] = c && gpu->oa.go ?
                               intel_gt_clocks(gpu, now) + c : 0;
    }
}

static void oa_arm(IntelGpu *gpu)
{
    uint64_t now = gpu_host_now_ns(&gpu->host), ns;
    uint32_t reason;

    if (oa_next_due(gpu, &ns, &reason)) {
        gpu_host_timer_mod(&gpu->host, gpu->oa.timer,
                           MAX(ns, now + OA_BATCH_NS));
    } else {
        gpu_host_timer_del(&gpu->host, gpu->oa.timer);
    }
}

/*
 * The buffer is full and stays so while the reports due by @now are
 * written (its reader cannot move OAHEADPTR meanwhile): every one of them
 * is dropped with OASTATUS's buffer overflow, as on hardware, counted and
 * skipped at once rather than one by one.  A timer and a trigger report
 * on one clock count as two here.
 */
static void oa_drop_due(IntelGpu *gpu, uint64_t now)
{
    IntelOaState *oa = &gpu->oa;
    uint64_t ts = intel_engine_timestamp(gpu, now);
    uint64_t clk = intel_gt_clocks(gpu, now), n;

    oa_status(gpu, INTEL_OASTATUS_BUFFER_OVERFLOW);
    if (oa->running && oa->next_tick <= ts) {
        n = (ts - oa->next_tick) / oa->period_ticks + 1;
        oa->lost += n;
        oa->next_tick += n * oa->period_ticks;
    }
    for (unsigned k = 0; k < 2; k++) {
        uint64_t thr = oa_trigger_clocks(gpu, k);

        if (thr && oa->trig_next[k] && oa->trig_next[k] <= clk) {
            n = (clk - oa->trig_next[k]) / thr + 1;
            oa->lost += n;
            oa->trig_next[k] += n * thr;
        }
    }
}
/*
 * Write every timer and trigger report due by @now, each with its own
 * time, however late this runs: a full buffer drops the rest at once.
 * Only an overflow drill of about a million reports can exceed
 * OA_MAX_PER_CATCH_UP (the buffer holds at most 256 Ki reports); then the
 * rest are lost and the sources skip ahead.
 */
static void oa_catch_up(IntelGpu *gpu, uint64_t now)
{
    const OaFormat *f = oa_format(gpu);
    uint64_t ns;
    uint32_t reason;
    unsigned n;

    if (!oa_enabled(gpu)) {
        return;
    }
    for (n = 0; n < OA_MAX_PER_CATCH_UP; n++) {
        if (!oa_next_due(gpu, &ns, &reason) || ns > now) {
            return;
        }
        if (oa_really_full(gpu, f)) {
            oa_drop_due(gpu, now);
            return;
        }
        oa_append(gpu, f, reason, ns);
        oa_advance(gpu, ns);
    }
    if (oa_next_due(gpu, &ns, &reason) && ns <= now) {
        oa_status(gpu, INTEL_OASTATUS_REPORT_LOST);
        if (gpu->oa.running) {
            gpu->oa.next_tick = oa_next_boundary(gpu, gpu->oa.period_ticks,
                                                 now);
        }
        oa_triggers_start(gpu, now);
    }
}

/* An engine starts a slice: reports due before see it as it was. */
static void oa_slice(IntelGpu *gpu, IntelGtEvent ev, IntelGtEventArgs *a)
{
    oa_catch_up(gpu, a->now);
}

static void oa_timer(void *opaque)
{
    IntelGpu *gpu = opaque;

    oa_catch_up(gpu, gpu_host_now_ns(&gpu->host));
    oa_arm(gpu);
}

/*
 * Something that moves the counters is about to change at @now (GO, an
 * engine's activity, the CEC or trigger configuration, the GT frequency):
 * write the reports due by then, then fold what counted so far into the
 * counters.  The same instant for both: a report due after the catch-up's
 * time but before the sync's would count from the sync, later than it is
 * stamped.
 */
static void oa_sync_at(IntelGpu *gpu, uint64_t now)
{
    IntelOaState *oa = &gpu->oa;

    oa_catch_up(gpu, now);
    oa_counters_at(gpu, now, &oa->count);
    oa_sources(gpu, oa_edge_ns(gpu, now, intel_gt_clocks(gpu, now)),
               &oa->src);
    oa->sync_ns = now;
    oa->lane_valid = false;
}

void intel_oa_sync(IntelGpu *gpu)
{
    oa_sync_at(gpu, gpu_host_now_ns(&gpu->host));
}

static void oa_sync_event(IntelGpu *gpu, IntelGtEvent ev, IntelGtEventArgs *a)
{
    oa_sync_at(gpu, a->now);
}

/*
 * An event's report at @now, with OA enabled and unless OA_DEBUG's @off
 * is set; after the timer and trigger reports due by then, which the lazy
 * timer may not have written yet (the buffer stays in time order).
 */
static void oa_event_report(IntelGpu *gpu, uint64_t now, uint32_t off,
                            uint32_t reason)
{
    if (oa_enabled(gpu) && !(intel_reg_get(gpu, INTEL_OA_DEBUG) & off)) {
        oa_catch_up(gpu, now);
        oa_append(gpu, oa_format(gpu), reason, now);
    }
}

/*
 * A render context was switched in: with OA enabled, a report with
 * reason "context switch" and the new context's ID goes to the buffer.
 */
static void oa_context_in(IntelGpu *gpu, IntelGtEvent ev,
                          IntelGtEventArgs *a)
{
    if (a->engine->id == INTEL_RCS0) {
        oa_event_report(gpu, a->now, INTEL_OA_DEBUG_NO_CTX_SWITCH_REPORTS,
                        OA_REASON_CTX_SWITCH);
    }
}

/*
 * The GT frequency changed at @now (rps.c, after a sync at the same
 * instant): with OA enabled, a frequency-change report (reason bit 5)
 * unless OA_DEBUG turns those off; the report triggers' times moved with
 * the clock.
 */
static void oa_frequency_change(IntelGpu *gpu, IntelGtEvent ev,
                                IntelGtEventArgs *a)
{
    oa_event_report(gpu, a->now, INTEL_OA_DEBUG_NO_CLK_RATIO_REPORTS,
                    OA_REASON_CLK_RATIO);
    oa_arm(gpu);
}

/*
 * Fault drill: hold OATAILPTR.  Reports keep landing in the buffer (and
 * fill it) but the tail does not move until the drill ends: after
 * @duration_ns of virtual time (0: when ended), when @on is false, or at
 * a reset.  A software write of OATAILPTR meanwhile moves the write
 * position as it would without the drill.
 */
void intel_oa_drill_tail_stall(IntelGpu *gpu, bool on, uint64_t duration_ns)
{
    IntelOaState *oa = &gpu->oa;
    uint64_t now = gpu_host_now_ns(&gpu->host);

    oa_catch_up(gpu, now);
    oa_stall_expire(gpu, now);
    if (!on) {
        oa_stall_end(gpu);
        return;
    }
    if (!oa->tail_stalled) {
        oa->stall_tail = intel_reg_get(gpu, INTEL_OATAILPTR);
        oa->tail_stalled = true;
    }
    oa->stall_until_ns = duration_ns ? now + duration_ns : 0;
}

/* Fault drill: the next @count reports find the buffer full. */
void intel_oa_drill_overflow(IntelGpu *gpu, uint32_t count)
{
    oa_catch_up(gpu, gpu_host_now_ns(&gpu->host));
    gpu->oa.overflow_drill = count;
}

/*
 * Start trigger: the earliest programmed one (OASTARTTRIG2/6
 * THRESHOLD_ENABLE) fires THRESHOLD (OASTARTTRIG1/5 15:0) GT clocks after
 * GO; B and C count from then on.  Without one they count from GO.
 */
static void oa_start_trigger(IntelGpu *gpu, uint64_t go_ns)
{
    IntelOaState *oa = &gpu->oa;
    uint64_t delay = UINT64_MAX;

    for (unsigned k = 0; k < 2; k++) {
        if (intel_reg_get(gpu, INTEL_OASTARTTRIG(4 * k + 1)) &
            INTEL_OATRIG_THRESHOLD_ENABLE) {
            delay = MIN(delay,
                        intel_reg_get(gpu, INTEL_OASTARTTRIG(4 * k)) & 0xffff);
        }
    }
    oa->start_trigger = delay != UINT64_MAX;
    oa->start_clock = intel_gt_clocks(gpu, go_ns) +
                      (oa->start_trigger ? delay : 0);
}

/*
 * Run @fn (a sync or a catch-up) at @now with register @offset back at
 * @old.
 */
static void oa_before_write(IntelGpu *gpu, uint32_t offset, uint32_t old,
                            uint64_t now,
                            void (*fn)(IntelGpu *gpu, uint64_t now))
{
    uint32_t val = intel_reg_get(gpu, offset);

    intel_reg_set(gpu, offset, old);
    fn(gpu, now);
    intel_reg_set(gpu, offset, val);
}

/*
 * A register that changes what the counters count (EU_PERF_CNT_CTL,
 * RPM_CONFIG1's NOA enable): what counted so far counted under the old
 * value @old.
 */
static void oa_counting_write(IntelGpu *gpu, const IntelRegBinding *b,
                              uint32_t offset, uint32_t old)
{
    oa_before_write(gpu, offset, old, gpu_host_now_ns(&gpu->host),
                    oa_sync_at);
}


/*
 * Reads and writes the OA buffer's reader makes (i915 polls OATAILPTR and
 * OASTATUS, writes OAHEADPTR and clears OASTATUS): first every report due
 * by now is written, so what the reader sees is what hardware would show
 * at this time, however late the model's timer runs.  A write takes
 * effect after them: the reports due before it saw the old value.
 */
static uint32_t oa_reader_read(IntelGpu *gpu, const IntelRegBinding *b,
                               uint32_t offset)
{
    uint64_t now = gpu_host_now_ns(&gpu->host);

    oa_catch_up(gpu, now);
    oa_stall_expire(gpu, now);
    return intel_reg_get(gpu, offset);
}

static void oa_reader_write(IntelGpu *gpu, const IntelRegBinding *b,
                            uint32_t offset, uint32_t old)
{
    oa_before_write(gpu, offset, old, gpu_host_now_ns(&gpu->host),
                    oa_catch_up);
}

/*
 * A register that moves the counters or the report sources changed from
 * @old: sync under the old value, then apply the new one.
 */
static void oa_config_write(IntelGpu *gpu, const IntelRegBinding *b,
                            uint32_t offset, uint32_t old)
{
    IntelOaState *oa = &gpu->oa;
    uint64_t now = gpu_host_now_ns(&gpu->host);
    bool was_go = oa->go, on;
    uint64_t period;

    oa_before_write(gpu, offset, old, now, oa_sync_at);

    oa->go = oa_enabled(gpu) && (intel_reg_get(gpu, INTEL_OACTXCONTROL) &
                                 INTEL_OACTXCONTROL_COUNTER_RESUME);
    if (oa->go && !was_go) {
        oa_start_trigger(gpu, now);
    } else if (!oa->go && was_go) {
        oa_event_report(gpu, now, INTEL_OA_DEBUG_NO_GO_REPORTS,
                        OA_REASON_GO_1_0);
    }
    if (offset != INTEL_OACONTROL && offset != INTEL_OACTXCONTROL &&
        oa->go == was_go) {
        oa_triggers_start(gpu, now);    /* a CEC or trigger register */
    }

    on = oa_sampling(gpu);
    period = oa_period_ticks(gpu);
    if (on && (!oa->running || period != oa->period_ticks)) {
        oa->period_ticks = period;
        oa->next_tick = oa_next_boundary(gpu, period, now);
    }
    if (on != oa->running) {
        gpu_host_trace(&gpu->host, INTEL_TRACE_OA_SAMPLING, on,
                       oa_ticks_to_ns(gpu, period),
                       intel_reg_get(gpu, INTEL_OATAILPTR));
    }
    oa->running = on;
    if (oa->go != was_go) {
        oa_triggers_start(gpu, now);
    }
    oa_arm(gpu);
}

/* Software moves the tail (buffer init): so does the write position. */
static void oa_tailptr_write(IntelGpu *gpu, const IntelRegBinding *b,
                             uint32_t offset, uint32_t old)
{
    oa_reader_write(gpu, b, offset, old);
    if (gpu->oa.tail_stalled) {
        gpu->oa.stall_tail = intel_reg_get(gpu, offset);
    }
}


#define OA_RW(nm) INTEL_REG(nm, RW)
/* Registers whose change moves the counters or the report triggers. */
#define OA_RWC(nm, cnt) INTEL_REGN(nm, cnt, RW, .write = oa_config_write)
/* Counter registers: read-only, read as now. */
#define OA_CNT(nm, cnt) INTEL_REGN(nm, cnt, RO, .read = oa_counter_read)
/* Flexible EU event selections, 0x100 apart. */
#define OA_FLEX(nm, cnt) \
    INTEL_REG(nm, RW, .count = cnt, .stride = 0x100, \
              .write = oa_counting_write)
/* The table's names for the counter groups and selections. */
#define INTEL_OAPERF_A0_31(i)       INTEL_OAPERF_A(i)
#define INTEL_OAPERF_A32_35(i)      INTEL_OAPERF_A32(i)
#define INTEL_GPU_TICKS(i)          (INTEL_OAPERF_GPU_TICKS + (i) * 4)
#define INTEL_EU_PERF_CNTL0_3       INTEL_EU_PERF_CNTL0
#define INTEL_EU_PERF_CNTL4_6       INTEL_EU_PERF_CNTL4

static const IntelReg oa_regs[] = {
    INTEL_REG(OACONTROL, RW, .write = oa_config_write),
    INTEL_REG(OA_DEBUG, MASKED),
    /* The reader's registers: the reports due by now come first. */
    INTEL_REG(OASTATUS, RW, .read = oa_reader_read, .write = oa_reader_write),
    INTEL_REG(OAHEADPTR, RW, .write = oa_reader_write),
    INTEL_REG(OATAILPTR, RW, .read = oa_reader_read, .write = oa_tailptr_write),
    OA_RW(OABUFFER),
    OA_RW(OABUFFER_UDW),
    /* Also loaded from the render context image (value slot 0x125). */
    INTEL_REG(OACTXCONTROL, RW, .write = oa_config_write),
    OA_RWC(OASTARTTRIG, 8),
    OA_RWC(OAREPORTTRIG, 8),
    OA_RWC(OACEC, 16),
    OA_RW(OA_IMR),
    /* Also loaded from the render context image (i915 stores them there). */
    OA_FLEX(EU_PERF_CNTL0_3, 4),
    OA_FLEX(EU_PERF_CNTL4_6, 3),
    /*
     * The NOA mux; RPM_CONFIG1 bit 9 enables it (i915's GEN10_GT_NOA_ENABLE).
     * GDT_CHICKEN_BITS bit 7 was the Gen8-9 enable; Gen11 configurations
     * write it 0 and the model stores it.
     */
    OA_RW(GDT_CHICKEN_BITS),
    INTEL_REG(RPM_CONFIG1, RW, .write = oa_counting_write),
    OA_RW(NOA_WRITE_HIGH),
    INTEL_REG(NOA_WRITE, RW, .write = oa_noa_write),
    OA_CNT(OAPERF_A0_31, 64),
    OA_CNT(OAPERF_A32_35, 4),
    OA_CNT(GPU_TICKS, 1),
    OA_CNT(OAPERF_B, INTEL_OA_BC_COUNTERS),
    OA_CNT(OAPERF_C, INTEL_OA_BC_COUNTERS),
    OA_CNT(OAPERF_FREE, 8),
};

const IntelRegBlock intel_oa_block = INTEL_REG_BLOCK("oa", oa_regs);

void intel_oa_init(IntelGpu *gpu)
{
    /* The state has a slot for each NOA register of the selections. */
    g_assert(oa_noa_count(gpu) == INTEL_OA_NOA_REGS);
    gpu->oa.timer = gpu_host_timer_new(&gpu->host, oa_timer, gpu);
    intel_gt_subscribe(gpu, INTEL_GT_SYNC, oa_sync_event);
    intel_gt_subscribe(gpu, INTEL_GT_CONTEXT_IN, oa_context_in);
    intel_gt_subscribe(gpu, INTEL_GT_FREQUENCY, oa_frequency_change);
    intel_gt_subscribe(gpu, INTEL_GT_SLICE, oa_slice);
    intel_gt_subscribe(gpu, INTEL_GT_PERF_REPORT, oa_perf_report);
}

void intel_oa_fini(IntelGpu *gpu)
{
    gpu_host_timer_free(&gpu->host, gpu->oa.timer);
}

/*
 * Loaded state: a running timer has the period OACTXCONTROL gives and a
 * pending trigger a non-zero threshold, or oa_advance() would not advance.
 */
bool intel_oa_post_load(IntelGpu *gpu, char **err)
{
    IntelOaState *oa = &gpu->oa;

    if (oa->running && oa->period_ticks != oa_period_ticks(gpu)) {
        *err = g_strdup_printf("OA period %" PRIu64 " ticks, OACTXCONTROL "
                               "0x%x", oa->period_ticks,
                               intel_reg_get(gpu, INTEL_OACTXCONTROL));
        return false;
    }
    for (unsigned k = 0; k < 2; k++) {
        if (oa->trig_next[k] && !oa_trigger_clocks(gpu, k)) {
            *err = g_strdup_printf("OA report trigger %u pending but off", k);
            return false;
        }
    }
    if (!oa->tail_stalled && (oa->stall_until_ns || oa->stall_tail)) {
        *err = g_strdup_printf("OA tail stall end %" PRIu64 " ns, position "
                               "0x%x without a stall", oa->stall_until_ns,
                               oa->stall_tail);
        return false;
    }
    oa_noa_match(gpu);
    oa->lane_valid = false;
    return true;
}

void intel_oa_reset(IntelGpu *gpu)
{
    GpuTimer *t = gpu->oa.timer;

    gpu_host_timer_del(&gpu->host, t);
    gpu->oa = (IntelOaState) { .timer = t };
    oa_noa_match(gpu);
}
