/*
 * intel-gpu OA unit (PRM "Observability": OA programming, report formats,
 * trigger logic; drivers/gpu/drm/i915/i915_perf.c): reports written into the OA buffer in
 * the GGTT, and the snapshots MI_REPORT_PERF_COUNT asks for.
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
 * Each report is written whole before OATAILPTR advances (i915 reads up to
 * the tail).  When the next report would reach OAHEADPTR the buffer is
 * full: the report is dropped and OASTATUS reports the overflow; nothing
 * is overwritten.  A report that makes the buffer cross half full raises
 * the "buffer half full" event (OA_IMR bit 28) on the WDOAPerf interrupt
 * source.
 *
 * Counter model (docs/intel-gpu-oa.rst), in GT clocks at the frequency
 * RPS grants (rps.c):
 *   GPU_TICKS (dw3)  GT clocks since reset
 *   A0               GT busy: modelled execution time of all engines
 *   A1               vertex-shader threads dispatched (3DPRIMITIVE)
 *   A4               GPGPU threads dispatched (GPGPU_WALKER, MEDIA_OBJECT)
 *   A7-A20           flexible EU events selected by EU_PERF_CNT_CTL0-6
 *                    over the modelled EU work of those threads (eu.c)
 *   other A          0: no rasterizer or per-stage shader is modelled
 *   B0-B7            clocks on which CECn's Boolean compare of the NOA
 *                    lanes holds (the NOA mux below)
 *   C0-C7            clocks on which NOA lane 8 + n is high
 * B and C count from the start trigger on when one is programmed
 * (OASTARTTRIG2/6 THRESHOLD_ENABLE): THRESHOLD GT clocks after GO.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>
#include "intel-gpu.h"
#include "hw/gpumodel/intel-oa-metric-sets.h"

#define OA_BATCH_NS         1000000     /* timer wake-ups at most 1 kHz */
#define OA_FLEX_FIRST       7           /* A7-A20: flexible EU counters */
#define OA_FLEX_COUNTERS    14
#define OA_MAX_PER_CATCH_UP (1u << 20)  /* see intel_oa_catch_up() */
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
#define OA_REASON_TIMER         (1u << 0)
#define OA_REASON_TRIGGER(k)    (1u << (1 + (k)))
#define OA_REASON_CTX_SWITCH    (1u << 3)
#define OA_REASON_GO_1_0        (1u << 4)
#define OA_REASON_CLK_RATIO     (1u << 5)

/* The OA buffer event on the WDOAPerf source (class 4, instance 2). */
#define OA_IRQ_INSTANCE         2
#define OA_IRQ_BUFFER_HALF_FULL (1u << 12)

/*
 * A report format: its size and the byte offsets of its parts (-1: not
 * in this format).  A counters are 40 bits where the format has a high
 * byte array (a40_hi), else 32.
 */
typedef struct OaFormat {
    const char *name;
    unsigned size;
    int ts;             /* TIME_STAMP */
    int ctx;            /* CTX_ID */
    int ticks;          /* GPU_TICKS */
    int a;              /* A counters from @a_first, @n_a of them */
    unsigned a_first, n_a;
    int a40_hi;         /* high bytes of the first 32 A counters */
    int b;              /* B0.. (@n_b) */
    unsigned n_b;
    int c;              /* C0.. (@n_c) */
    unsigned n_c;
} OaFormat;

/* Gen9-11, by OACONTROL Counter Select (bits 4:2). */
static const OaFormat oa_formats[8] = {
    [0] = { "A12", 64, 4, 8, 12, 16, 7, 12, -1, -1, 0, -1, 0 },
    [2] = { "A12_B8_C8", 128, 4, 8, 12, 16, 7, 12, -1, 64, 8, 96, 8 },
    [5] = { "A32u40_A4u32_B8_C8", 256, 4, 8, 12, 16, 0, 36, 160,
            192, 8, 224, 8 },
    [7] = { "C4_B8", 64, 4, 8, 12, -1, 0, 0, -1, 32, 8, 16, 4 },
};

/*
 * Haswell, by OACONTROL Counter Select (PRM "Observability Performance
 * Counters" for SNB-HSW, "Report Formats"): RPT_ID and TIME_STAMP, then the counters; the
 * reserved row of the B formats holds the C counters.  Platform data for a
 * "hsw" platform: the Gen11 device does not select it.
 */
static const OaFormat oa_formats_hsw[8] G_GNUC_UNUSED = {
    [0] = { "A13", 64, 4, -1, -1, 12, 0, 13, -1, -1, 0, -1, 0 },
    [1] = { "A29", 128, 4, -1, -1, 12, 0, 29, -1, -1, 0, -1, 0 },
    [2] = { "A13_B8_C8", 128, 4, -1, -1, 12, 0, 13, -1, 64, 8, 96, 8 },
    [3] = { "A29_B8_C8", 192, 4, -1, -1, 12, 0, 29, -1, 128, 8, 160, 8 },
    [4] = { "B4_C8", 64, 4, -1, -1, -1, 0, 0, -1, 16, 4, 32, 8 },
    [5] = { "A45_B8_C8", 256, 4, -1, -1, 12, 0, 45, -1, 192, 8, 224, 8 },
    [6] = { "B4_C8_A16", 128, 4, -1, -1, 64, 29, 16, -1, 16, 4, 32, 8 },
    [7] = { "C4_B8", 64, 4, -1, -1, -1, 0, 0, -1, 32, 8, 16, 4 },
};

static const OaFormat *oa_format(IntelGpu *gpu)
{
    const OaFormat *f =
        &oa_formats[(intel_reg_get(gpu, INTEL_OACONTROL) >> 2) & 7];

    return f->size ? f : NULL;
}

/* ---- the counters ---- */

/*
 * The NOA mux.  Each NOA_WRITE programs one NOA register: its address in
 * bits 31:16, below NOA_WRITE_HIGH, and its value in 15:0.  Neither the
 * PRMs nor a driver source say what the registers select, so the model
 * knows the programming of two of the metric sets Intel publishes for
 * ICL (IGT's oa-icl.xml, which i915 loads as written) and the lanes they
 * put on the OA unit's 16 NOA inputs, as their counter equations and
 * IGT's checks of them imply (docs/intel-gpu-oa.rst):
 *   TestOa       lane 3 high on odd GT clocks (a clock/2 square wave),
 *                lanes 5:4 01 on clocks 1 mod 3 and 10 on clocks 2 mod 3
 *   GpuBusyness  lanes 11-15: the copy engine, any video-enhancement
 *                engine, video engine 1, video engine 0 and the render
 *                engine active (its BlitterBusy ... RenderBusy are C3-C7)
 * A selection drives its lanes while each NOA register it programs holds
 * its value and RPM_CONFIG1's NOA enable is set; other lanes are 0.
 */
enum { OA_NOA_TEST_OA, OA_NOA_GPU_BUSYNESS, OA_NOA_SELECTIONS };

#define OA_NOA_PERIOD   6       /* of the clock-derived (TestOa) lanes */

/* The selections' configurations (include/hw/gpumodel/...-metric-sets.h). */
static const struct {
    const IntelRegValue *regs;
    unsigned n;
} oa_noa_configs[OA_NOA_SELECTIONS] = {
    [OA_NOA_TEST_OA] = { intel_icl_test_oa, G_N_ELEMENTS(intel_icl_test_oa) },
    [OA_NOA_GPU_BUSYNESS] = { intel_icl_gpu_busyness,
                              G_N_ELEMENTS(intel_icl_gpu_busyness) },
};

/*
 * The NOA registers the selections write, in their configurations' order
 * (gpu->oa.noa[] holds their values): NOA_WRITE_HIGH, then NOA_WRITE's
 * address (31:16) and value (15:0).
 */
typedef struct OaNoaReg {
    unsigned sel;               /* OA_NOA_* */
    uint32_t high;              /* NOA_WRITE_HIGH */
    uint32_t write;             /* NOA_WRITE */
} OaNoaReg;

typedef void OaNoaFn(IntelGpu *gpu, unsigned i, const OaNoaReg *r,
                     void *opaque);

/* Call @fn for each of them; returns how many there are. */
static unsigned oa_noa_walk(IntelGpu *gpu, OaNoaFn *fn, void *opaque)
{
    unsigned i = 0;

    for (unsigned sel = 0; sel < OA_NOA_SELECTIONS; sel++) {
        OaNoaReg r = { .sel = sel };

        for (unsigned k = 0; k < oa_noa_configs[sel].n; k++) {
            const IntelRegValue *rv = &oa_noa_configs[sel].regs[k];

            if (rv->reg == INTEL_NOA_WRITE_HIGH) {
                r.high = rv->val;
            } else if (rv->reg == INTEL_NOA_WRITE) {
                r.write = rv->val;
                if (fn) {
                    fn(gpu, i, &r, opaque);
                }
                i++;
            }
        }
    }
    return i;
}

/* A selection one of whose registers holds another value does not hold. */
static void oa_noa_miss(IntelGpu *gpu, unsigned i, const OaNoaReg *r,
                        void *opaque)
{
    if (gpu->oa.noa[i] != (uint16_t)r->write) {
        gpu->oa.noa_sel &= ~(1u << r->sel);
    }
}

/* Which selections the NOA registers hold, into oa.noa_sel. */
static void oa_noa_match(IntelGpu *gpu)
{
    gpu->oa.noa_sel = (1u << OA_NOA_SELECTIONS) - 1;
    oa_noa_walk(gpu, oa_noa_miss, NULL);
}

/* Does selection @sel drive its lanes now? */
static bool oa_noa_on(IntelGpu *gpu, unsigned sel)
{
    return (intel_reg_get(gpu, INTEL_RPM_CONFIG1) &
            INTEL_RPM_CONFIG1_GT_NOA_ENABLE) && (gpu->oa.noa_sel & 1u << sel);
}

/* The lanes that hold from one sync to the next: engine activity. */
static uint16_t oa_noa_held(IntelGpu *gpu)
{
    /* GpuBusyness's lane per engine; 0: none (VCS2 and VCS3) */
    static const uint8_t lane[INTEL_ENGINE_COUNT] = {
        [INTEL_RCS0] = 15, [INTEL_BCS0] = 11, [INTEL_VCS0] = 14,
        [INTEL_VCS1] = 13, [INTEL_VECS0] = 12, [INTEL_VECS1] = 12,
    };
    uint16_t v = 0;

    if (!oa_noa_on(gpu, OA_NOA_GPU_BUSYNESS)) {
        return 0;
    }
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        if (gpu->engine[i].ctx_active && lane[i]) {
            v |= 1u << lane[i];
        }
    }
    return v;
}

/* The lanes at GT clock @c: @held, and TestOa's clock-derived ones. */
static uint16_t oa_noa_at(uint16_t held, bool test, uint64_t c)
{
    if (!test) {
        return held;
    }
    return held | (c & 1) << 3 | (c % 3 == 1) << 4 | (c % 3 == 2) << 5;
}

/*
 * CECn_0: compare function (2:0), compare value (18:3), select (20:19);
 * CECn_1: mask (15:0), 1 = lane not considered.  Functions 1-7 are sets of
 * {greater, equal, less} (i915's names: 1 >, 2 ==, 3 >=, 4 <, 5 !=, 6 <=;
 * 7 always, as TestOa's B2 needs); 0 "any equal": some considered lane
 * equals the value's bit (GpuBusyness's AnyRingBusy).  The select is not
 * used: TestOa compares the lanes with select 2 ("Boolean"), GpuBusyness
 * with 0 ("NOA"), and no published configuration uses 1.
 */
static bool cec_holds(uint32_t ctl, uint32_t mask, uint16_t noa)
{
    uint16_t considered = ~mask;
    uint16_t s = noa & considered;
    uint16_t v = (ctl >> INTEL_OACEC_VALUE_SHIFT) & considered;
    unsigned fn = ctl & INTEL_OACEC_COMPARE_MASK;

    if (!fn) {
        return (uint16_t)~(s ^ v) & considered;
    }
    return ((fn & 1) && s > v) || ((fn & 2) && s == v) ||
           ((fn & 4) && s < v);
}

/*
 * Per row, the clocks among the first k of a NOA period (k = 0-6) on which
 * CEC n holds (rows 0-7) or lane n is high (rows 8-15: the C counters),
 * with the engines and the configuration as they are.
 */
static const uint16_t (*oa_lane_prefix(IntelGpu *gpu))[OA_NOA_PERIOD + 1]
{
    IntelOaState *oa = &gpu->oa;

    if (!oa->lane_valid) {
        uint16_t held = oa_noa_held(gpu);
        bool test = oa_noa_on(gpu, OA_NOA_TEST_OA);

        for (unsigned i = 0; i < 2 * INTEL_OA_BC_COUNTERS; i++) {
            bool cec = i < INTEL_OA_BC_COUNTERS;
            uint32_t ctl = cec ? intel_reg_get(gpu, INTEL_OACEC(2 * i)) : 0;
            uint32_t mask = cec ? intel_reg_get(gpu, INTEL_OACEC(2 * i + 1))
                                : 0;

            oa->lane_prefix[i][0] = 0;
            for (unsigned k = 0; k < OA_NOA_PERIOD; k++) {
                uint16_t noa = oa_noa_at(held, test, k);

                oa->lane_prefix[i][k + 1] = oa->lane_prefix[i][k] +
                    (cec ? cec_holds(ctl, mask, noa) : noa >> i & 1);
            }
        }
        oa->lane_valid = true;
    }
    return (const uint16_t (*)[OA_NOA_PERIOD + 1])oa->lane_prefix;
}

/* Clocks in [@c0, @c1) a prefix row @p counts. */
static uint64_t oa_lane_span(const uint16_t *p, uint64_t c0, uint64_t c1)
{
    return (c1 / OA_NOA_PERIOD - c0 / OA_NOA_PERIOD) * p[OA_NOA_PERIOD] +
           p[c1 % OA_NOA_PERIOD] - p[c0 % OA_NOA_PERIOD];
}

/* The engines' work done by @ns (not what is still in flight then). */
static void oa_sources(IntelGpu *gpu, uint64_t ns, IntelOaSources *s)
{
    memset(s, 0, sizeof(*s));
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        IntelCsStats st;

        intel_cs_stats_at(&gpu->engine[i], ns, &st);
        s->busy_ns += st.busy_ns;
        s->vs_threads += st.vs_threads;
        s->gpgpu_threads += st.gpgpu_threads;
        for (unsigned k = 0; k < INTEL_EU_FFIDS; k++) {
            s->eu_clocks[k] += st.eu_clocks[k];
        }
    }
}

/*
 * Flexible EU counter @k (A7 + k): its EU_PERF_CNT_CTL half, bits 11:0
 * for even @k, 23:12 for odd (the layout i915's and IGT's metric sets
 * program, e.g. RenderBasic's 0x00005004: A7 "EU active", A8 "EU stall").
 */
static uint32_t oa_flex_sel(IntelGpu *gpu, unsigned k)
{
    unsigned r = k / 2;
    uint32_t ctl = intel_reg_get(gpu, r < 4 ? INTEL_EU_PERF_CNTL0 + 0x100 * r :
                                 INTEL_EU_PERF_CNTL4 + 0x100 * (r - 4));

    return ctl >> (12 * (k & 1)) & 0xfff;
}

/*
 * The counters count on GT clock edges: the work the A counters take is
 * the work done by the last edge at or before @ns, where the GT clock
 * reads @clocks (intel_gt_clocks() of @ns), so two reports within
 * one clock carry the same counters (IGT bounds each A counter's delta
 * by the GPU_TICKS delta times the EUs).  The GT frequency has not
 * changed since the last sync.
 */
static uint64_t oa_edge_ns(IntelGpu *gpu, uint64_t ns, uint64_t clocks)
{
    return MIN(intel_gt_clocks_ns(gpu, clocks), ns);
}

/*
 * The counters at @ns, not before the last sync: what they were then,
 * plus what counted since if GO.  A counters take the engines' work done
 * by then; B and C are exact per clock.  The GT frequency has not changed
 * since the last sync (a change syncs first).
 */
static void oa_counters_at(IntelGpu *gpu, uint64_t ns, IntelOaCounters *v)
{
    IntelOaState *oa = &gpu->oa;
    uint64_t c0 = MAX(intel_gt_clocks(gpu, oa->sync_ns), oa->start_clock);
    uint64_t c1 = intel_gt_clocks(gpu, ns);
    IntelOaSources s;
    bool eu_moved;

    *v = oa->count;
    if (!oa->go) {
        return;
    }
    oa_sources(gpu, oa_edge_ns(gpu, ns, c1), &s);
    v->a[0] += intel_gt_clocks_for(gpu, s.busy_ns - oa->src.busy_ns);
    v->a[1] += s.vs_threads - oa->src.vs_threads;
    v->a[4] += s.gpgpu_threads - oa->src.gpgpu_threads;
    /* The flexible EU counters move only with EU work (most reports not). */
    eu_moved = memcmp(s.eu_clocks, oa->src.eu_clocks, sizeof(s.eu_clocks));
    for (unsigned k = 0; eu_moved && k < OA_FLEX_COUNTERS; k++) {
        uint32_t sel = oa_flex_sel(gpu, k);

        v->a[OA_FLEX_FIRST + k] += intel_eu_flex_count(sel, s.eu_clocks) -
                                   intel_eu_flex_count(sel, oa->src.eu_clocks);
    }
    if (c1 > c0) {
        const uint16_t (*p)[OA_NOA_PERIOD + 1] = oa_lane_prefix(gpu);

        for (unsigned i = 0; i < INTEL_OA_BC_COUNTERS; i++) {
            v->b[i] += oa_lane_span(p[i], c0, c1);
            /* C n: lane 8 + n */
            v->c[i] += oa_lane_span(p[INTEL_OA_BC_COUNTERS + i], c0, c1);
        }
    }
}

static void put32(uint8_t *r, int off, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(r + off, &v, 4);
}

/* Did counter @v wrap its @bits since the last report? */
static bool wrapped(uint64_t v, uint64_t last, unsigned bits)
{
    return v >> bits != last >> bits;
}

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

    if (gpu->engine[INTEL_RCS0].ctx_active) {
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

/*
 * Build a report of format @f taken at @ns: dword 0 @dw0 as it is (a
 * report ID or an RPT_ID), the timestamp, the running render context's
 * ID, GPU ticks, counters.  Counter wrap since the previous report sets
 * OASTATUS's counter overflow bit.
 */
static void oa_build(IntelGpu *gpu, const OaFormat *f, uint32_t dw0,
                     uint64_t ns, uint8_t *r)
{
    IntelEngine *rcs = &gpu->engine[INTEL_RCS0];
    IntelOaState *oa = &gpu->oa;
    IntelOaCounters v;
    bool wrap = false;

    memset(r, 0, f->size);
    oa_counters_at(gpu, ns, &v);
    put32(r, 0, dw0);
    put32(r, f->ts, intel_engine_timestamp(gpu, ns));
    if (f->ctx >= 0) {
        put32(r, f->ctx, rcs->ctx_active ? rcs->ctx_desc >> 32 : 0);
    }
    if (f->ticks >= 0) {
        put32(r, f->ticks, intel_gt_clocks(gpu, ns));
    }
    for (unsigned i = 0; f->a >= 0 && i < f->n_a; i++) {
        unsigned n = f->a_first + i;
        bool a40 = f->a40_hi >= 0 && n < 32;

        put32(r, f->a + 4 * i, v.a[n]);
        if (a40) {
            r[f->a40_hi + n] = v.a[n] >> 32;
        }
        wrap |= wrapped(v.a[n], oa->last.a[n], a40 ? 40 : 32);
    }
    for (unsigned i = 0; i < f->n_b; i++) {
        put32(r, f->b + 4 * i, v.b[i]);
        wrap |= wrapped(v.b[i], oa->last.b[i], 32);
    }
    for (unsigned i = 0; i < f->n_c; i++) {
        put32(r, f->c + 4 * i, v.c[i]);
        wrap |= wrapped(v.c[i], oa->last.c[i], 32);
    }
    if (wrap) {
        intel_reg_set(gpu, INTEL_OASTATUS, intel_reg_get(gpu, INTEL_OASTATUS) |
                      INTEL_OASTATUS_COUNTER_OVERFLOW);
    }
    oa->last = v;
}

/*
 * MI_REPORT_PERF_COUNT: a snapshot in the current format at @addr, its
 * report ID in dword 0 unchanged (IGT's mi-rpc expects 0xdeadbeef back).
 */
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
static void oa_stall_end(IntelGpu *gpu)
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
static void oa_stall_expire(IntelGpu *gpu, uint64_t ns)
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
static void oa_append(IntelGpu *gpu, const OaFormat *f, uint32_t reason,
                      uint64_t ns)
{
    uint32_t base = oa_buffer_base(gpu), size = oa_buffer_size(gpu);
    uint64_t clock = intel_gt_clocks(gpu, ns);
    uint32_t tail, used;
    uint8_t r[256];

    oa_stall_expire(gpu, ns);
    /*
     * Two reports requested within a few clocks collide: the later one is
     * lost and OASTATUS says so, as the PRM's OASTATUS1 "Report Lost"
     * describes for a request made before the previous report completed.
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
static uint64_t ticks_to_ns(IntelGpu *gpu, uint64_t ticks)
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

    *ns = oa->running ? ticks_to_ns(gpu, oa->next_tick) : UINT64_MAX;
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

    if (oa->running && ticks_to_ns(gpu, oa->next_tick) == ns) {
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
 * Is the buffer too full for a report of @f (and no overflow drill, whose
 * reports are dropped one by one)?
 */
static bool oa_really_full(IntelGpu *gpu, const OaFormat *f)
{
    return !gpu->oa.overflow_drill &&
           oa_used(gpu) + f->size >= oa_buffer_size(gpu);
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

void intel_oa_catch_up(IntelGpu *gpu)
{
    oa_catch_up(gpu, gpu_host_now_ns(&gpu->host));
}

static void oa_timer(void *opaque)
{
    IntelGpu *gpu = opaque;

    intel_oa_catch_up(gpu);
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
void intel_oa_sync_at(IntelGpu *gpu, uint64_t now)
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
    intel_oa_sync_at(gpu, gpu_host_now_ns(&gpu->host));
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
void intel_oa_context_switch(IntelGpu *gpu)
{
    oa_event_report(gpu, gpu_host_now_ns(&gpu->host),
                    INTEL_OA_DEBUG_NO_CTX_SWITCH_REPORTS,
                    OA_REASON_CTX_SWITCH);
}

/*
 * The GT frequency changed at @now (rps.c, after intel_oa_sync_at() at the
 * same instant): with OA enabled, a frequency-change report (reason bit
 * 5) unless OA_DEBUG turns those off; the report triggers' times moved
 * with the clock.
 */
void intel_oa_frequency_change(IntelGpu *gpu, uint64_t now)
{
    oa_event_report(gpu, now, INTEL_OA_DEBUG_NO_CLK_RATIO_REPORTS,
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
    intel_oa_catch_up(gpu);
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
                    intel_oa_sync_at);
}

/*
 * NOA_WRITE's register, if it is @r: the first change (*@synced false)
 * folds in what counted under the old lanes.
 */
static void oa_noa_store(IntelGpu *gpu, unsigned i, const OaNoaReg *r,
                         void *synced)
{
    IntelOaState *oa = &gpu->oa;
    uint32_t w = intel_reg_get(gpu, INTEL_NOA_WRITE);

    if (r->high == intel_reg_get(gpu, INTEL_NOA_WRITE_HIGH) &&
        r->write >> 16 == w >> 16 && oa->noa[i] != (uint16_t)w) {
        if (!*(bool *)synced) {
            intel_oa_sync(gpu);
            *(bool *)synced = true;
        }
        oa->noa[i] = w;
    }
}

/*
 * NOA_WRITE: the NOA register NOA_WRITE_HIGH and bits 31:16 address takes
 * bits 15:0.  Only the registers of the selections the model knows are
 * kept; a change of one first folds in what counted under the old lanes.
 */
static void oa_noa_write(IntelGpu *gpu, const IntelRegBinding *b,
                         uint32_t offset, uint32_t old)
{
    bool synced = false;

    oa_noa_walk(gpu, oa_noa_store, &synced);
    oa_noa_match(gpu);
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

    oa_before_write(gpu, offset, old, now, intel_oa_sync_at);

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
                       ticks_to_ns(gpu, period),
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

/*
 * The readable counters: the values a report taken now carries (A0-A31
 * as low and upper dwords of 40 bits).  The free-running copies of A4,
 * A6, A19 and A20 count since reset whatever OA's enable and GO say.
 */
static uint32_t oa_counter_read(IntelGpu *gpu, const IntelRegBinding *b,
                                uint32_t offset)
{
    uint64_t now = gpu_host_now_ns(&gpu->host);
    IntelOaCounters v;
    IntelOaSources s;
    uint64_t x;

    oa_counters_at(gpu, now, &v);
    if (offset < INTEL_OAPERF_A32(0)) {
        x = v.a[(offset - INTEL_OAPERF_A(0)) / 8] & ((1ull << 40) - 1);
        return offset & 4 ? x >> 32 : x;
    } else if (offset < INTEL_OAPERF_GPU_TICKS) {
        return v.a[32 + (offset - INTEL_OAPERF_A32(0)) / 4];
    } else if (offset < INTEL_OAPERF_B(0)) {
        return intel_gt_clocks(gpu, now);
    } else if (offset < INTEL_OAPERF_C(0)) {
        return v.b[(offset - INTEL_OAPERF_B(0)) / 4];
    } else if (offset < INTEL_OAPERF_FREE(0)) {
        return v.c[(offset - INTEL_OAPERF_C(0)) / 4];
    }
    /*
     * Free-running A4, A6, A19, A20: A4 the GPGPU threads, A19 and A20 all
     * EU work since reset under their present selection; A6 (no source) 0.
     */
    oa_sources(gpu, now, &s);
    switch ((offset - INTEL_OAPERF_FREE(0)) / 8) {
    case 0:
        x = s.gpgpu_threads;
        break;
    case 2:
    case 3:
        x = intel_eu_flex_count(oa_flex_sel(gpu, 10 + (offset -
                                INTEL_OAPERF_FREE(0)) / 8), s.eu_clocks);
        break;
    default:
        x = 0;
    }
    return offset & 4 ? x >> 32 : x;
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
    g_assert(oa_noa_walk(gpu, NULL, NULL) == INTEL_OA_NOA_REGS);
    gpu->oa.timer = gpu_host_timer_new(&gpu->host, oa_timer, gpu);
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
