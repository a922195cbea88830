/*
 * intel-gpu OA unit: the counters and the reports' layout.  What the A, B
 * and C counters count, their values at a time, the report formats and a
 * report's contents, and the counter registers.
 *
 * Counter model (docs/intel-gpu-oa.rst), in GT clocks at the frequency
 * RPS grants (rps.c):
 *   GPU_TICKS (dw3)  GT clocks since reset
 *   A0               GT busy: modelled execution time of all engines
 *   A1               vertex-shader threads dispatched (3DPRIMITIVE)
 *   A4               GPGPU threads dispatched (GPGPU_WALKER, MEDIA_OBJECT)
 *   A6               pixel shader threads dispatched (render.c)
 *   A7-A20           flexible EU events selected by EU_PERF_CNT_CTL0-6
 *                    over the EU work of those threads (eu.c)
 *   A21              pixels rasterized and sent to pixel shaders
 *   A26              samples (pixels) written by render target writes
 *   A28              texels the sampler returned to pixel shaders
 *   other A          0: no other stage is modelled
 *   B0-B7            clocks on which CECn's Boolean compare of the NOA
 *                    lanes holds (the NOA mux, oa-noa.c)
 *   C0-C7            clocks on which NOA lane 8 + n is high
 * B and C count from the start trigger on when one is programmed
 * (OASTARTTRIG2/6 THRESHOLD_ENABLE): THRESHOLD GT clocks after GO.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "oa-int.h"

#define OA_FLEX_FIRST       7           /* A7-A20: flexible EU counters */
#define OA_FLEX_COUNTERS    14

/*
 * The A counter of each kind of pixel-pipeline work (the Gen9-11 metric
 * sets: A6 PsThreads, A21 RasterizedPixels, A26 SamplesWritten, A28
 * SamplerTexels; one sample per pixel, no multisampling).
 */
static const uint8_t oa_px_counter[INTEL_PX_COUNTS] = {
    [INTEL_PX_PS_THREADS] = 6,
    [INTEL_PX_RASTERIZED] = 21,
    [INTEL_PX_SAMPLES_WRITTEN] = 26,
    [INTEL_PX_SAMPLER_TEXELS] = 28,
};

/* Gen9-11, by OACONTROL Counter Select (bits 4:2). */
const OaFormat oa_formats[8] = {
    [0] = { "A12", 64, 4, 8, 12, 16, 7, 12, -1, -1, 0, -1, 0 },
    [2] = { "A12_B8_C8", 128, 4, 8, 12, 16, 7, 12, -1, 64, 8, 96, 8 },
    [5] = { "A32u40_A4u32_B8_C8", 256, 4, 8, 12, 16, 0, 36, 160,
            192, 8, 224, 8 },
    [7] = { "C4_B8", 64, 4, 8, 12, -1, 0, 0, -1, 32, 8, 16, 4 },
};

/*
 * Haswell, by OACONTROL Counter Select (the SNB-HSW "Observability
 * Performance Counters" PRM, "Report Formats"): RPT_ID and TIME_STAMP,
 * then the counters; the reserved row of the B formats holds the C
 * counters.  Platform data for a "hsw" platform: the Gen11 device does
 * not select it.
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

const OaFormat *oa_format(IntelGpu *gpu)
{
    const OaFormat *f =
        &oa_formats[(intel_reg_get(gpu, INTEL_OACONTROL) >> 2) & 7];

    return f->size ? f : NULL;
}

/* The engines' work done by @ns (not what is still in flight then). */
void oa_sources(IntelGpu *gpu, uint64_t ns, IntelOaSources *s)
{
    memset(s, 0, sizeof(*s));
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        IntelCsStats st;

        intel_engine_stats_at(&gpu->engine[i], ns, &st);
        s->busy_ns += st.busy_ns;
        s->vs_threads += st.vs_threads;
        s->gpgpu_threads += st.gpgpu_threads;
        for (unsigned k = 0; k < INTEL_EU_FFIDS; k++) {
            s->eu_clocks[k] += st.eu_clocks[k];
            for (unsigned j = 0; j < INTEL_EU_EVS; j++) {
                s->eu_ev[k][j] += st.eu_ev[k][j];
            }
        }
        for (unsigned k = 0; k < INTEL_PX_COUNTS; k++) {
            s->px[k] += st.px[k];
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
uint64_t oa_edge_ns(IntelGpu *gpu, uint64_t ns, uint64_t clocks)
{
    return MIN(intel_gt_clocks_ns(gpu, clocks), ns);
}

/*
 * The counters at @ns, not before the last sync: what they were then,
 * plus what counted since if GO.  A counters take the engines' work done
 * by then; B and C are exact per clock.  The GT frequency has not changed
 * since the last sync (a change syncs first).
 */
void oa_counters_at(IntelGpu *gpu, uint64_t ns, IntelOaCounters *v)
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
    for (unsigned k = 0; k < INTEL_PX_COUNTS; k++) {
        v->a[oa_px_counter[k]] += s.px[k] - oa->src.px[k];
    }
    /* The flexible EU counters move only with EU work (most reports not). */
    eu_moved = memcmp(s.eu_clocks, oa->src.eu_clocks, sizeof(s.eu_clocks)) ||
               memcmp(s.eu_ev, oa->src.eu_ev, sizeof(s.eu_ev));
    for (unsigned k = 0; eu_moved && k < OA_FLEX_COUNTERS; k++) {
        uint32_t sel = oa_flex_sel(gpu, k);

        v->a[OA_FLEX_FIRST + k] +=
            intel_eu_flex_count(sel, s.eu_clocks, s.eu_ev) -
            intel_eu_flex_count(sel, oa->src.eu_clocks, oa->src.eu_ev);
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

static void oa_put32(uint8_t *r, int off, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(r + off, &v, 4);
}

/* Did counter @v wrap its @bits since the last report? */
static bool oa_wrapped(uint64_t v, uint64_t last, unsigned bits)
{
    return v >> bits != last >> bits;
}

/*
 * Build a report of format @f taken at @ns: dword 0 @dw0 as it is (a
 * report ID or an RPT_ID), the timestamp, the running render context's
 * ID, GPU ticks, counters.  Counter wrap since the previous report sets
 * OASTATUS's counter overflow bit.
 */
void oa_build(IntelGpu *gpu, const OaFormat *f, uint32_t dw0,
              uint64_t ns, uint8_t *r)
{
    IntelEngine *rcs = &gpu->engine[INTEL_RCS0];
    IntelOaState *oa = &gpu->oa;
    IntelOaCounters v;
    bool wrap = false;

    memset(r, 0, f->size);
    oa_counters_at(gpu, ns, &v);
    oa_put32(r, 0, dw0);
    oa_put32(r, f->ts, intel_engine_timestamp(gpu, ns));
    if (f->ctx >= 0) {
        oa_put32(r, f->ctx, intel_engine_ctx_id(rcs));
    }
    if (f->ticks >= 0) {
        oa_put32(r, f->ticks, intel_gt_clocks(gpu, ns));
    }
    for (unsigned i = 0; f->a >= 0 && i < f->n_a; i++) {
        unsigned n = f->a_first + i;
        bool a40 = f->a40_hi >= 0 && n < 32;

        oa_put32(r, f->a + 4 * i, v.a[n]);
        if (a40) {
            r[f->a40_hi + n] = v.a[n] >> 32;
        }
        wrap |= oa_wrapped(v.a[n], oa->last.a[n], a40 ? 40 : 32);
    }
    for (unsigned i = 0; i < f->n_b; i++) {
        oa_put32(r, f->b + 4 * i, v.b[i]);
        wrap |= oa_wrapped(v.b[i], oa->last.b[i], 32);
    }
    for (unsigned i = 0; i < f->n_c; i++) {
        oa_put32(r, f->c + 4 * i, v.c[i]);
        wrap |= oa_wrapped(v.c[i], oa->last.c[i], 32);
    }
    if (wrap) {
        intel_reg_set(gpu, INTEL_OASTATUS, intel_reg_get(gpu, INTEL_OASTATUS) |
                      INTEL_OASTATUS_COUNTER_OVERFLOW);
    }
    oa->last = v;
}

/*
 * The readable counters: the values a report taken now carries (A0-A31
 * as low and upper dwords of 40 bits).  The free-running copies of A4,
 * A6, A19 and A20 count since reset whatever OA's enable and GO say.
 */
uint32_t oa_counter_read(IntelGpu *gpu, const IntelRegBinding *b,
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
     * Free-running A4, A6, A19, A20: A4 the GPGPU threads, A6 the pixel
     * shader threads, A19 and A20 all EU work since reset under their
     * present selection.
     */
    oa_sources(gpu, now, &s);
    switch ((offset - INTEL_OAPERF_FREE(0)) / 8) {
    case 0:
        x = s.gpgpu_threads;
        break;
    case 1:
        x = s.px[INTEL_PX_PS_THREADS];
        break;
    case 2:
    case 3:
        x = intel_eu_flex_count(oa_flex_sel(gpu, 10 + (offset -
                                INTEL_OAPERF_FREE(0)) / 8), s.eu_clocks,
                                s.eu_ev);
        break;
    default:
        x = 0;
    }
    return offset & 4 ? x >> 32 : x;
}
