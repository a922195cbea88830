/*
 * intel-gpu OA unit: the OA buffer.  Where the next report goes, whether
 * the buffer has room for it, the tail-stall drill's held OATAILPTR, and
 * appending a report with its RPT_ID.
 *
 * Each report is written whole before OATAILPTR advances (i915 reads up to
 * the tail).  When the next report would reach OAHEADPTR the buffer is
 * full: the report is dropped and OASTATUS reports the overflow; nothing
 * is overwritten.  A report that makes the buffer cross half full raises
 * the "buffer half full" event (OA_IMR bit 28) on the WDOAPerf interrupt
 * source.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "oa-int.h"

/*
 * A report is 64-256 bytes the OA unit writes over several clocks; two
 * requested closer than this collide (oa_append).  IGT's TestOa checks
 * need pairs at least 6 clocks apart (B6 counts one clock in six).
 */
#define OA_REPORT_MIN_CLOCKS 8

/* RPT_ID (dword 0), the Gen9+ layout. */
#define OA_RPT_CTX_VALID        (1u << 16)
#define OA_RPT_THRESHOLD_ENABLE (1u << 17)
#define OA_RPT_START_TRIGGER    (1u << 18)
#define OA_REASON_SHIFT         19

/* The OA buffer event on the WDOAPerf source (class 4, instance 2). */
#define OA_IRQ_INSTANCE         2
#define OA_IRQ_BUFFER_HALF_FULL (1u << 12)

/*
 * RPT_ID's clock fields (OA_DEBUG "include clock ratio"): the squashed
 * slice clock frequency in bits 31:25 (its bits 6:0) and 10:9 (8:7), the
 * unslice clock frequency in 8:0, both in the RPS units of 50/3 MHz.  The
 * model's slice and unslice clocks are the one GT clock.
 */
static uint32_t oa_rpt_clock_ratio(IntelGpu *gpu)
{
    uint32_t f = intel_rps_ratio(gpu);

    return (f & 0x7f) << 25 | (f >> 7 & 3) << 9 | (f & 0x1ff);
}

/*
 * RPT_ID of a report the OA unit triggers itself (not MI_REPORT_PERF_COUNT,
 * whose dword 0 is its report ID as given): the @reason bits, whether a
 * render context is valid, the start trigger has fired and a report
 * trigger's threshold is enabled, and with OA_DEBUG "include clock ratio"
 * the frequencies.
 */
static uint32_t oa_rpt_id(IntelGpu *gpu, uint32_t reason, uint64_t ns)
{
    IntelOaState *oa = &gpu->oa;
    uint32_t id = reason << OA_REASON_SHIFT;

    if (intel_engine_ctx_active(&gpu->engine[INTEL_RCS0])) {
        id |= OA_RPT_CTX_VALID;
    }
    if (intel_reg_get(gpu, INTEL_OA_DEBUG) &
        INTEL_OA_DEBUG_INCLUDE_CLK_RATIO) {
        id |= oa_rpt_clock_ratio(gpu);
    }
    if (oa->start_trigger && oa->go &&
        intel_gt_clocks(gpu, ns) >= oa->start_clock) {
        id |= OA_RPT_START_TRIGGER;
    }
    for (unsigned k = 0; k < 2; k++) {
        if (intel_reg_get(gpu, INTEL_OAREPORTTRIG(4 * k + 1)) &
            INTEL_OATRIG_THRESHOLD_ENABLE) {
            id |= OA_RPT_THRESHOLD_ENABLE;
        }
    }
    return id;
}

static uint32_t oa_buffer_size(IntelGpu *gpu)
{
    return (128u << 10) << ((intel_reg_get(gpu, INTEL_OABUFFER) >> 3) & 7);
}

static uint32_t oa_buffer_base(IntelGpu *gpu)
{
    return intel_reg_get(gpu, INTEL_OABUFFER) & ~(oa_buffer_size(gpu) - 1);
}

void oa_status(IntelGpu *gpu, uint32_t bits)
{
    intel_reg_set(gpu, INTEL_OASTATUS,
                  intel_reg_get(gpu, INTEL_OASTATUS) | bits);
}

/*
 * Where the next report goes: OATAILPTR, or during a tail-stall drill the
 * device's own position, which OATAILPTR catches up with when it ends.
 */
static uint32_t oa_write_ptr(IntelGpu *gpu)
{
    return gpu->oa.tail_stalled ? gpu->oa.stall_tail :
           intel_reg_get(gpu, INTEL_OATAILPTR);
}

static void oa_set_write_ptr(IntelGpu *gpu, uint32_t v)
{
    if (gpu->oa.tail_stalled) {
        gpu->oa.stall_tail = v;
    } else {
        intel_reg_set(gpu, INTEL_OATAILPTR, v);
    }
}

/* End a tail stall: OATAILPTR publishes every report written meanwhile. */
void oa_stall_end(IntelGpu *gpu)
{
    IntelOaState *oa = &gpu->oa;
    uint32_t held = intel_reg_get(gpu, INTEL_OATAILPTR);

    if (!oa->tail_stalled) {
        return;
    }
    intel_reg_set(gpu, INTEL_OATAILPTR, oa->stall_tail);
    gpu_host_trace(&gpu->host, INTEL_TRACE_OA_DRILL, INTEL_OA_DRILL_STALL_END,
                   (oa->stall_tail - held) % oa_buffer_size(gpu),
                   oa->stall_tail);
    oa->tail_stalled = false;
    oa->stall_tail = 0;
    oa->stall_until_ns = 0;
}

/* A stall with a duration ends by itself: what is true at @ns. */
void oa_stall_expire(IntelGpu *gpu, uint64_t ns)
{
    if (gpu->oa.stall_until_ns && ns >= gpu->oa.stall_until_ns) {
        oa_stall_end(gpu);
    }
}

/*
 * Is the buffer full for the next report (the drill says so, or it would
 * reach OAHEADPTR)?  Then it is dropped with OASTATUS's buffer overflow.
 */
static bool oa_full(IntelGpu *gpu, uint32_t used, uint32_t need,
                    uint32_t size)
{
    IntelOaState *oa = &gpu->oa;

    if (oa->overflow_drill) {
        oa->overflow_drill--;
        gpu_host_trace(&gpu->host, INTEL_TRACE_OA_DRILL,
                       INTEL_OA_DRILL_OVERFLOW, oa->overflow_drill,
                       oa_write_ptr(gpu));
    } else if (used + need < size) {
        return false;
    }
    oa_status(gpu, INTEL_OASTATUS_BUFFER_OVERFLOW);
    oa->lost++;
    return true;
}

/* Where the next report goes, as an offset into the buffer. */
static uint32_t oa_write_offset(IntelGpu *gpu)
{
    return ((oa_write_ptr(gpu) & ~63u) - oa_buffer_base(gpu)) %
           oa_buffer_size(gpu);
}

/* Bytes from OAHEADPTR to where the next report goes. */
static uint32_t oa_used(IntelGpu *gpu)
{
    uint32_t size = oa_buffer_size(gpu);
    uint32_t head = ((intel_reg_get(gpu, INTEL_OAHEADPTR) & ~63u) -
                     oa_buffer_base(gpu)) % size;

    return (oa_write_offset(gpu) - head) % size;
}

/* Append one report at the tail, unless the buffer is full. */
void oa_append(IntelGpu *gpu, const OaFormat *f, uint32_t reason,
               uint64_t ns)
{
    uint32_t base = oa_buffer_base(gpu), size = oa_buffer_size(gpu);
    uint64_t clock = intel_gt_clocks(gpu, ns);
    uint32_t tail, used;
    uint8_t r[256];

    oa_stall_expire(gpu, ns);
    /*
     * Two reports requested within a few clocks collide: the later one is
     * lost and OASTATUS says so, as the SNB-HSW "Observability Performance
     * Counters" PRM's OASTATUS1 "Report Lost" describes for a request made
     * before the previous report completed.
     * No PRM gives the gap for Gen11; OA_REPORT_MIN_CLOCKS is the model's.
     */
    if (gpu->oa.have_last_report &&
        clock - gpu->oa.last_report_clock < OA_REPORT_MIN_CLOCKS) {
        oa_status(gpu, INTEL_OASTATUS_REPORT_LOST);
        gpu->oa.lost++;
        return;
    }
    tail = oa_write_offset(gpu);
    used = oa_used(gpu);
    if (oa_full(gpu, used, f->size, size)) {
        return;
    }
    oa_build(gpu, f, oa_rpt_id(gpu, reason, ns), ns, r);
    if (intel_ggtt_rw(gpu, base + tail, r, f->size, true)) {
        gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                     "OA buffer at GGTT 0x%x not mapped: report lost",
                     base + tail);
        oa_status(gpu, INTEL_OASTATUS_REPORT_LOST);
        gpu->oa.lost++;
        return;
    }
    oa_set_write_ptr(gpu, base + (tail + f->size) % size);
    gpu->oa.reports++;
    gpu->oa.have_last_report = true;
    gpu->oa.last_report_clock = clock;
    if (used < size / 2 && used + f->size >= size / 2 &&
        !(intel_reg_get(gpu, INTEL_OA_IMR) & INTEL_OA_IMR_BUFFER_HALF_FULL)) {
        intel_irq_raise(gpu, INTEL_CLASS_OTHER, OA_IRQ_INSTANCE,
                        OA_IRQ_BUFFER_HALF_FULL);
    }
}

/*
 * Is the buffer too full for a report of @f (and no overflow drill, whose
 * reports are dropped one by one)?
 */
bool oa_really_full(IntelGpu *gpu, const OaFormat *f)
{
    return !gpu->oa.overflow_drill &&
           oa_used(gpu) + f->size >= oa_buffer_size(gpu);
}
