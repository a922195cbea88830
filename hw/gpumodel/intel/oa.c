/*
 * intel-gpu OA unit (PRM "Observability": OA programming, report formats;
 * i915 contract §9): periodic reports written into the OA buffer in the
 * GGTT, and the snapshots MI_REPORT_PERF_COUNT asks for.
 *
 * Sampling runs while OACONTROL's counter enable and OACTXCONTROL's timer
 * enable are both set, one report each time the command-streamer
 * timestamp crosses a multiple of 2^(exponent + 1) ticks, engines busy or
 * idle.  Reports are produced lazily: a
 * timer wakes at most every OA_BATCH_NS and writes every report that fell
 * due since, each with its own timestamp, so a short period costs few
 * host wake-ups.
 *
 * While counting, every render context switch adds a report too (reason
 * "context switch", the new context's ID).
 *
 * Each report is written whole before OATAILPTR advances (i915 reads up to
 * the tail).  When the next report would reach OAHEADPTR the buffer is
 * full: the report is dropped and OASTATUS reports the overflow; nothing
 * is overwritten.
 *
 * Counter model (what the counters mean in the emulation), GT clock
 * OA_GT_CLOCK_HZ:
 *   GPU_TICKS (dw3)  GT clocks since reset
 *   A0               GT busy clocks: modelled execution time of all engines
 *   A1, A2           render, copy engine busy clocks
 *   A3               3D, media and GPGPU commands executed
 *   A4               3DPRIMITIVE commands, A5 GPGPU_WALKER/MEDIA_OBJECT
 *   other A, B, C    0 (the Boolean CEC configuration is not evaluated)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "intel-gpu.h"

#define OA_BATCH_NS         1000000     /* timer wake-ups at most 1 kHz */
#define OA_MAX_PER_WAKE     4096        /* reports written per wake-up */
#define OA_GT_CLOCK_HZ      1000000000ull
#define OA_REASON_SHIFT     19
#define OA_REASON_TIMER     (1u << 0)
#define OA_REASON_CTX_SWITCH (1u << 3)
#define OA_CTX_VALID        (1u << 16)

/* Report formats by OACONTROL bits 4:2 (ICL), byte offsets of the parts. */
typedef struct OaFormat {
    unsigned size;
    int ticks;          /* dword 3 = GPU_TICKS, or -1 */
    int a40;            /* A0-A31 low dwords (high bytes at a40_hi) */
    int a40_hi;
    int a32;            /* 32-bit A counters (A0.. or A32..) */
    unsigned n_a32;
    int b, c;           /* B0-B7, C0-C7 (or C0-C3 in C4_B8) */
    unsigned n_c;
} OaFormat;

static const OaFormat oa_formats[8] = {
    [0] = { .size = 64, .ticks = -1, .a40 = -1, .a32 = 12, .n_a32 = 12,
            .b = -1, .c = -1 },                         /* A12 */
    [2] = { .size = 128, .ticks = -1, .a40 = -1, .a32 = 12, .n_a32 = 12,
            .b = 64, .c = 96, .n_c = 8 },               /* A12_B8_C8 */
    [5] = { .size = 256, .ticks = 12, .a40 = 16, .a40_hi = 160, .a32 = 144,
            .n_a32 = 4, .b = 192, .c = 224, .n_c = 8 }, /* A32u40_A4u32_B8_C8 */
    [7] = { .size = 64, .ticks = 12, .a40 = -1, .a32 = -1, .b = 32,
            .c = 16, .n_c = 4 },                        /* C4_B8 */
};

static const OaFormat *oa_format(IntelGpu *gpu)
{
    const OaFormat *f =
        &oa_formats[(intel_reg_get(gpu, INTEL_OACONTROL) >> 2) & 7];

    return f->size ? f : NULL;
}

static uint64_t ns_to_gt_clocks(uint64_t ns)
{
    return ns / 1000000000u * OA_GT_CLOCK_HZ +
           ns % 1000000000u * OA_GT_CLOCK_HZ / 1000000000u;
}

/* The A counters of the model (see the top of the file). */
static void oa_a_counters(IntelGpu *gpu, uint64_t a[6])
{
    IntelCsStats *rcs = &gpu->engine[INTEL_RCS0].stats;
    IntelCsStats *bcs = &gpu->engine[INTEL_BCS0].stats;

    memset(a, 0, 6 * sizeof(a[0]));
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        a[0] += ns_to_gt_clocks(gpu->engine[i].stats.busy_ns);
        a[3] += gpu->engine[i].stats.cmds_3d;
        a[4] += gpu->engine[i].stats.primitives;
        a[5] += gpu->engine[i].stats.walkers;
    }
    a[1] = ns_to_gt_clocks(rcs->busy_ns);
    a[2] = ns_to_gt_clocks(bcs->busy_ns);
}

static void put32(uint8_t *r, int off, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(r + off, &v, 4);
}

/*
 * Build a report of format @f taken at @ns: header dword 0 @dw0, the
 * timestamp, the running render context's ID, GPU ticks, counters.
 */
static void oa_build(IntelGpu *gpu, const OaFormat *f, uint32_t dw0,
                     uint64_t ns, uint8_t *r)
{
    IntelEngine *rcs = &gpu->engine[INTEL_RCS0];
    uint64_t a[6];

    memset(r, 0, f->size);
    oa_a_counters(gpu, a);
    if (rcs->ctx_active && (dw0 >> OA_REASON_SHIFT)) {
        dw0 |= OA_CTX_VALID;
    }
    put32(r, 0, dw0);
    put32(r, 4, intel_engine_timestamp(gpu, ns));
    put32(r, 8, rcs->ctx_active ? rcs->ctx_desc >> 32 : 0);
    if (f->ticks >= 0) {
        put32(r, f->ticks, ns_to_gt_clocks(ns));
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(a); i++) {
        if (f->a40 >= 0) {
            /* 40-bit: low dword, and the high byte in its own array. */
            put32(r, f->a40 + 4 * i, a[i]);
            r[f->a40_hi + i] = a[i] >> 32;
        } else if (f->a32 >= 0 && i < f->n_a32) {
            put32(r, f->a32 + 4 * i, a[i]);
        }
    }
}

/* MI_REPORT_PERF_COUNT: a snapshot in the current format at @addr. */
int intel_oa_snapshot(IntelEngine *e, bool ppgtt, uint64_t addr,
                      uint32_t report_id)
{
    const OaFormat *f = oa_format(e->gpu) ?: &oa_formats[5];
    uint8_t r[256];

    oa_build(e->gpu, f, report_id, gpu_host_now_ns(&e->gpu->host), r);
    return intel_vm_rw(e, ppgtt, addr, r, f->size, true);
}

static uint32_t oa_buffer_size(IntelGpu *gpu)
{
    return (128u << 10) << ((intel_reg_get(gpu, INTEL_OABUFFER) >> 3) & 7);
}

static uint32_t oa_buffer_base(IntelGpu *gpu)
{
    return intel_reg_get(gpu, INTEL_OABUFFER) & ~(oa_buffer_size(gpu) - 1);
}

static void oa_status(IntelGpu *gpu, uint32_t bits)
{
    intel_reg_set(gpu, INTEL_OASTATUS,
                  intel_reg_get(gpu, INTEL_OASTATUS) | bits);
}

/* Append one report at the tail, unless the buffer is full. */
static void oa_append(IntelGpu *gpu, const OaFormat *f, uint32_t reason,
                      uint64_t ns)
{
    uint32_t base = oa_buffer_base(gpu), size = oa_buffer_size(gpu);
    uint32_t head = (intel_reg_get(gpu, INTEL_OAHEADPTR) & ~63u) - base;
    uint32_t tail = (intel_reg_get(gpu, INTEL_OATAILPTR) & ~63u) - base;
    uint8_t r[256];

    head %= size;
    tail %= size;
    if ((tail - head) % size + f->size >= size) {
        oa_status(gpu, INTEL_OASTATUS_BUFFER_OVERFLOW);
        gpu->oa.lost++;
        return;
    }
    oa_build(gpu, f, reason << OA_REASON_SHIFT, ns, r);
    if (intel_vm_rw(&gpu->engine[INTEL_RCS0], false, base + tail, r,
                    f->size, true)) {
        gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                     "OA buffer at GGTT 0x%x not mapped: report lost",
                     base + tail);
        oa_status(gpu, INTEL_OASTATUS_REPORT_LOST);
        gpu->oa.lost++;
        return;
    }
    intel_reg_set(gpu, INTEL_OATAILPTR,
                  base + (tail + f->size) % size);
    gpu->oa.reports++;
}

static bool oa_sampling(IntelGpu *gpu)
{
    return (intel_reg_get(gpu, INTEL_OACONTROL) & INTEL_OACONTROL_ENABLE) &&
           (intel_reg_get(gpu, INTEL_OACTXCONTROL) &
            INTEL_OACTXCONTROL_TIMER_ENABLE) && oa_format(gpu);
}

/* The timer period in timestamp ticks: 2^(exponent + 1). */
static uint64_t oa_period_ticks(IntelGpu *gpu)
{
    unsigned e = (intel_reg_get(gpu, INTEL_OACTXCONTROL) >> 2) & 0x3f;

    return 2ull << MIN(e, 31u);
}

/* The first nanosecond at which the timestamp reads @ticks. */
static uint64_t ticks_to_ns(IntelGpu *gpu, uint64_t ticks)
{
    uint64_t hz = intel_cs_timestamp_hz(gpu);

    return ticks / hz * 1000000000u +
           (ticks % hz * 1000000000u + hz - 1) / hz;
}

static void oa_arm(IntelGpu *gpu)
{
    uint64_t now = gpu_host_now_ns(&gpu->host);

    gpu_host_timer_mod(&gpu->host, gpu->oa.timer,
                       MAX(ticks_to_ns(gpu, gpu->oa.next_tick),
                           now + OA_BATCH_NS));
}

/*
 * The timer fires when timestamp bit (exponent + 1) toggles, so reports
 * sit on multiples of the period whenever sampling (re)starts.
 */
static uint64_t oa_next_boundary(IntelGpu *gpu, uint64_t period)
{
    uint64_t now = intel_engine_timestamp(gpu, gpu_host_now_ns(&gpu->host));

    return (now / period + 1) * period;
}

static void oa_timer(void *opaque)
{
    IntelGpu *gpu = opaque;
    uint64_t now = gpu_host_now_ns(&gpu->host);
    const OaFormat *f = oa_format(gpu);
    unsigned n = 0;

    if (!oa_sampling(gpu)) {
        gpu->oa.running = false;
        return;
    }
    while (ticks_to_ns(gpu, gpu->oa.next_tick) <= now &&
           n++ < OA_MAX_PER_WAKE) {
        oa_append(gpu, f, OA_REASON_TIMER,
                  ticks_to_ns(gpu, gpu->oa.next_tick));
        gpu->oa.next_tick += gpu->oa.period_ticks;
    }
    if (ticks_to_ns(gpu, gpu->oa.next_tick) <= now) {
        /* More fell due than a wake-up writes: those are lost. */
        oa_status(gpu, INTEL_OASTATUS_REPORT_LOST);
        gpu->oa.next_tick = oa_next_boundary(gpu, gpu->oa.period_ticks);
    }
    oa_arm(gpu);
}

/*
 * A render context was switched in: with OA counting, a report with
 * reason "context switch" and the new context's ID goes to the buffer.
 */
void intel_oa_context_switch(IntelGpu *gpu)
{
    const OaFormat *f = oa_format(gpu);

    if ((intel_reg_get(gpu, INTEL_OACONTROL) & INTEL_OACONTROL_ENABLE) &&
        f) {
        oa_append(gpu, f, OA_REASON_CTX_SWITCH,
                  gpu_host_now_ns(&gpu->host));
    }
}

/* OACONTROL or OACTXCONTROL changed: start, retime or stop sampling. */
static void oa_control_write(IntelGpu *gpu, const IntelRegBinding *b,
                             uint32_t offset, uint32_t old)
{
    bool on = oa_sampling(gpu);
    uint64_t period = oa_period_ticks(gpu);

    if (on && (!gpu->oa.running || period != gpu->oa.period_ticks)) {
        gpu->oa.period_ticks = period;
        gpu->oa.next_tick = oa_next_boundary(gpu, period);
        oa_arm(gpu);
    } else if (!on && gpu->oa.running) {
        gpu_host_timer_del(&gpu->host, gpu->oa.timer);
    }
    if (on != gpu->oa.running) {
        gpu_host_trace(&gpu->host, INTEL_TRACE_OA_SAMPLING, on,
                       ticks_to_ns(gpu, period),
                       intel_reg_get(gpu, INTEL_OATAILPTR));
    }
    gpu->oa.running = on;
}

#define OA_RW(n, off) { .name = n, .offset = off, .access = INTEL_REG_RW }
#define OA_RWN(n, off, cnt, stride_) \
    { .name = n, .offset = off, .count = cnt, .stride = stride_, \
      .access = INTEL_REG_RW }

static const IntelReg oa_regs[] = {
    { .name = "OACONTROL", .offset = INTEL_OACONTROL, .access = INTEL_REG_RW,
      .write = oa_control_write },
    { .name = "OA_DEBUG", .offset = INTEL_OA_DEBUG,
      .access = INTEL_REG_MASKED },
    OA_RW("OASTATUS", INTEL_OASTATUS),
    OA_RW("OAHEADPTR", INTEL_OAHEADPTR),
    OA_RW("OATAILPTR", INTEL_OATAILPTR),
    OA_RW("OABUFFER", INTEL_OABUFFER),
    OA_RW("OABUFFER_UDW", INTEL_OABUFFER_UDW),
    /* Also loaded from the render context image (value slot 0x125). */
    { .name = "OACTXCONTROL", .offset = INTEL_OACTXCONTROL,
      .access = INTEL_REG_RW, .write = oa_control_write },
    OA_RWN("OASTARTTRIG", INTEL_OASTARTTRIG(0), 8, 4),
    OA_RWN("OAREPORTTRIG", INTEL_OAREPORTTRIG(0), 8, 4),
    OA_RWN("OACEC", INTEL_OACEC(0), 16, 4),
    OA_RWN("EU_PERF_CNTL0_3", INTEL_EU_PERF_CNTL0, 4, 0x100),
    OA_RWN("EU_PERF_CNTL4_6", INTEL_EU_PERF_CNTL4, 3, 0x100),
};

const IntelRegBlock intel_oa_block = {
    .name = "oa",
    .regs = oa_regs,
    .nregs = G_N_ELEMENTS(oa_regs),
};

void intel_oa_init(IntelGpu *gpu)
{
    gpu->oa.timer = gpu_host_timer_new(&gpu->host, oa_timer, gpu);
}

void intel_oa_fini(IntelGpu *gpu)
{
    gpu_host_timer_free(&gpu->host, gpu->oa.timer);
}

void intel_oa_reset(IntelGpu *gpu)
{
    GpuTimer *t = gpu->oa.timer;

    gpu_host_timer_del(&gpu->host, t);
    gpu->oa = (IntelOaState) { .timer = t };
}
