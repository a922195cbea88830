/*
 * What the intel-gpu OA unit tests share: an OA stream opened as i915
 * opens it, the reports it writes, workloads from a legacy ring, and the
 * register writes i915 makes around them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_INTEL_OA_TEST_H
#define TESTS_UNIT_INTEL_OA_TEST_H

#include "intel-fixture.h"
#include "hw/gpumodel/intel-oa-metric-sets.h"

#define OABUF       0x400000u   /* 128 KiB OA buffer (size code 0) */
#define OABUF_SIZE  0x20000u
#define SNAP        0x300000u
#define FMT_A32u40  5           /* A32u40_A4u32_B8_C8, 256 bytes */
#define EXPONENT    10          /* 2048 ticks: 170.7 us at 12 MHz */

/* gen8_init_oa_buffer + gen8_oa_enable, with a periodic exponent. */
static inline void oa_open(Fixture *f, unsigned exponent)
{
    wr(f, INTEL_OASTATUS, 0);
    wr(f, INTEL_OAHEADPTR, OABUF);
    wr(f, INTEL_OABUFFER_UDW, 0);
    wr(f, INTEL_OABUFFER, OABUF | 0 << 3 | 1);
    wr(f, INTEL_OATAILPTR, OABUF);
    wr(f, INTEL_OACTXCONTROL, exponent << 2 | 2 | 1);
    wr(f, INTEL_OACONTROL, FMT_A32u40 << 2 | 1);
}

static inline uint64_t period_ns(Fixture *f, unsigned exponent)
{
    return (2ull << exponent) * 1000000000ull /
           intel_cs_timestamp_hz(f->gpu);
}

static inline unsigned reports_written(Fixture *f)
{
    return (rd(f, INTEL_OATAILPTR) - OABUF) / 256;
}

/* The legacy RCS ring at RING_RCS run from its start to dword @n. */
static inline void run_ring(Fixture *f, unsigned n)
{
    ring_start(f, RCS, RING_RCS, n * 4);
}

/* @n dwords at BATCH, started from the start of the ring. */
static inline void run_batch(Fixture *f, const uint32_t *cmds, unsigned n)
{
    Buf bb = buf_at(f, BATCH), ring = buf_at(f, RING_RCS);

    emit_n(&bb, cmds, n);
    bb_start(&ring, BATCH, 0);
    run_ring(f, 4);
}

static inline uint32_t a_counter(Fixture *f, uint64_t report, unsigned i)
{
    return ram_r32(f, report + 16 + 4 * i);
}

static inline void load_config(Fixture *f, const IntelRegValue *cfg,
                               unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        wr(f, cfg[i].reg, cfg[i].val);
    }
}

#define LOAD_CONFIG(f, cfg) load_config(f, cfg, G_N_ELEMENTS(cfg))

static inline uint32_t b_counter(Fixture *f, uint64_t report, unsigned i)
{
    return ram_r32(f, report + 192 + 4 * i);
}

/* A GT event at the time now, as the unit it comes from notifies it. */
static inline IntelGtEventArgs gt_event(Fixture *f, IntelGtEvent ev,
                                        IntelEngine *e)
{
    IntelGtEventArgs a = {
        .engine = e, .now = gpu_host_now_ns(&f->gpu->host),
    };

    intel_gt_notify(f->gpu, ev, &a);
    return a;
}

/* A context switched in or out, as execlists_set_ctx_active() does. */
static inline void engine_active(Fixture *f, IntelEngineId id, bool on)
{
    gt_event(f, INTEL_GT_SYNC, &f->gpu->engine[id]);
    f->gpu->engine[id].ctx_active = on;
}

/* MI_REPORT_PERF_COUNT's snapshot at @addr, as cs-mi.c asks OA for it. */
static inline int oa_snapshot(IntelEngine *e, bool ppgtt, uint64_t addr,
                              uint32_t report_id)
{
    IntelGtEventArgs a = {
        .engine = e, .now = gpu_host_now_ns(&e->gpu->host),
        .ppgtt = ppgtt, .addr = addr, .report_id = report_id,
    };

    intel_gt_notify(e->gpu, INTEL_GT_PERF_REPORT, &a);
    return a.ret;
}

/* RPNSWREQ as i915's gen6_rps_set writes it on Gen9+. */
static inline void rps_request(Fixture *f, uint32_t ratio)
{
    wr(f, INTEL_RPNSWREQ, GPU_FIELD_DP32(0, INTEL_RPNSWREQ, FREQ, ratio));
}

#endif
