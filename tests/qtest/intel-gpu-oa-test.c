/*
 * qtest for intel-gpu: the OA unit: periodic reports, snapshots, counters and
 * OA drills.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "intel-gpu-qtest.h"
#include "hw/gpumodel/intel-oa-metric-sets.h"

/*
 * The OA unit programmed as i915's gen8_init_oa_buffer/gen8_oa_enable do:
 * periodic reports land one period (2^(e+1) timestamp ticks) apart until
 * OACONTROL is cleared; MI_REPORT_PERF_COUNT from a ring writes a
 * snapshot with its report ID.
 */
static void test_oa_periodic_and_snapshot(void)
{
    const uint32_t oa_gtt = OA_GTT, exponent = 10;
    Buf oabuf, ring, snap;
    uint32_t tail, n;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_buffer_init(&g);
    wr(&g, INTEL_OACTXCONTROL, exponent << 2 | 2 | 1);
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);
    qtest_clock_step(g.qts, 20 * 1000 * 1000);

    /* 20 ms at 170.7 us a report, written once a millisecond. */
    tail = rd(&g, INTEL_OATAILPTR);
    n = (tail - oa_gtt) / 256;
    g_assert_cmpuint(n, >=, 100);
    g_assert_cmpuint(n, <=, 118);
    for (uint32_t i = 0; i + 1 < n; i++) {
        uint32_t r = i * 256;

        g_assert_cmphex(buf_readl(&g, &oabuf, r) >> 19, ==, 1);
        g_assert_cmpuint(buf_readl(&g, &oabuf, r + 256 + 4) -
                         buf_readl(&g, &oabuf, r + 4), ==, 2u << exponent);
    }
    wr(&g, INTEL_OACONTROL, 0);
    qtest_clock_step(g.qts, 5 * 1000 * 1000);
    g_assert_cmphex(rd(&g, INTEL_OATAILPTR), ==, tail);
    g_assert_cmphex(rd(&g, INTEL_OASTATUS), ==, 0);

    ring = buf_new(&g, 1);
    snap = buf_new(&g, 1);
    EMIT(&g, &ring, MI_REPORT_PERF_COUNT | INSTR_LEN(4),
         snap.gtt | MI_REPORT_PERF_COUNT_GGTT, 0, 0xcafe);
    ring_submit(&g, INTEL_RCS0_BASE, &ring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &snap, 0), ==, 0xcafe);
    g_assert_cmpuint(buf_readl(&g, &snap, 4), >,
                     buf_readl(&g, &oabuf, (n - 1) * 256 + 4));
    gpu_stop(&g);
}

/*
 * IGT's TestOa configuration (hw/gpumodel/intel-oa-metric-sets.h) loaded
 * from a ring as i915's config batch does (MI_LOAD_REGISTER_IMM), then OA
 * sampling (exponent 8, 42.7 us) and MI_REPORT_PERF_COUNT with IGT's
 * report ID: the snapshot keeps 0xdeadbeef (IGT's mi-rpc), and every two
 * timer reports have the start trigger fired (RPT_ID bit 18), B0 = 0,
 * B1 = B2 = the GPU_TICKS delta, B3 its half, B4 and B5 a third, B6 a
 * sixth, B7 two thirds, within 1 (tests/i915/perf.c,
 * gen8_sanity_check_test_oa_reports).
 */
static void test_oa_test_oa_config(void)
{
    static const uint32_t num[8] = { 0, 1, 1, 1, 1, 1, 1, 2 };
    static const uint32_t den[8] = { 1, 1, 1, 2, 3, 3, 6, 3 };
    const uint32_t oa_gtt = OA_GTT;
    Buf oabuf, ring, snap;
    uint32_t n;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_buffer_init(&g);
    /* i915's order: the configuration batch, OA_DEBUG, then enable. */
    ring = buf_new(&g, 1);
    for (unsigned i = 0; i < G_N_ELEMENTS(intel_icl_test_oa); i++) {
        EMIT(&g, &ring, MI_LOAD_REGISTER_IMM(1), intel_icl_test_oa[i].reg,
             intel_icl_test_oa[i].val);
    }
    ring_submit(&g, INTEL_RCS0_BASE, &ring);
    cs_settle(&g);
    wr(&g, INTEL_OA_DEBUG, (INTEL_OA_DEBUG_NO_CLK_RATIO_REPORTS |
                            INTEL_OA_DEBUG_INCLUDE_CLK_RATIO) * 0x10001);
    wr(&g, INTEL_OACTXCONTROL, 8 << 2 | 2 | 1);
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);

    qtest_clock_step(g.qts, 200 * 1000);
    ring = buf_new(&g, 1);
    snap = buf_new(&g, 1);
    EMIT(&g, &ring, MI_REPORT_PERF_COUNT | INSTR_LEN(4),
         snap.gtt | MI_REPORT_PERF_COUNT_GGTT, 0, 0xdeadbeef);
    ring_submit(&g, INTEL_RCS0_BASE, &ring);
    qtest_clock_step(g.qts, 3 * 1000 * 1000);
    g_assert_cmphex(buf_readl(&g, &snap, 0), ==, 0xdeadbeef);
    g_assert_cmphex(rd(&g, INTEL_RCS0_BASE + INTEL_RING_ESR), ==, 0);

    n = (rd(&g, INTEL_OATAILPTR) - oa_gtt) / 256;
    g_assert_cmpuint(n, >=, 70);
    for (uint32_t i = 0; i + 1 < n; i++) {
        uint32_t r = i * 256;
        uint32_t clocks = buf_readl(&g, &oabuf, r + 256 + 12) -
                          buf_readl(&g, &oabuf, r + 12);

        /* The unit's own reports: timer, start trigger, frequency. */
        g_assert_cmphex(buf_readl(&g, &oabuf, r) >> 19 & 0x3f, ==, 1);
        g_assert_true(buf_readl(&g, &oabuf, r) & (1u << 18));
        for (unsigned k = 0; k < 8; k++) {
            uint32_t b = buf_readl(&g, &oabuf, r + 256 + 192 + 4 * k) -
                         buf_readl(&g, &oabuf, r + 192 + 4 * k);
            uint32_t ref = clocks * num[k] / den[k];

            g_assert_cmpuint(b, >=, k < 3 ? ref : ref - 1);
            g_assert_cmpuint(b, <=, k < 3 ? ref : ref + 1);
        }
    }
    wr(&g, INTEL_OACONTROL, 0);
    gpu_stop(&g);
}

/*
 * OA enabled without the timer: each render context switched in writes a
 * report with reason "context switch" (RPT_ID bit 22), context valid
 * (bit 16) and the context ID i915 reads back (report dword 2): the
 * descriptor's upper dword, i915's CCID.
 */
static void test_oa_context_switch_report(void)
{
    const uint32_t rcs = INTEL_RCS0_BASE, oa_gtt = OA_GTT;
    Buf oabuf, data;
    Ctx a, b;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_buffer_init(&g);
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);
    execlists_enable(&g, rcs);
    data = buf_new(&g, 1);
    ctx_init(&g, &a, rcs, 0);
    emit_store(&g, &a.ring, MI_USE_GGTT, data.gtt, 0xa1);
    ctx_init(&g, &b, rcs, 0);
    emit_store(&g, &b.ring, MI_USE_GGTT, data.gtt + 4, 0xb1);

    ctx_submit(&g, rcs, &a, CCID(7));
    cs_settle(&g);
    ctx_submit(&g, rcs, &b, CCID(9));
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 4), ==, 0xb1);

    g_assert_cmphex(rd(&g, INTEL_OATAILPTR), ==, oa_gtt + 2 * 256);
    for (unsigned i = 0; i < 2; i++) {
        uint32_t rpt = buf_readl(&g, &oabuf, i * 256);

        g_assert_cmphex(rpt >> 19 & 0x3f, ==, 1u << 3);
        g_assert_true(rpt & (1u << 16));
        g_assert_cmphex(buf_readl(&g, &oabuf, i * 256 + 8), ==,
                        i ? CCID(9) : CCID(7));
    }
    /* TIMESTAMP (dword 1) moves on between the two switches. */
    g_assert_cmpuint(buf_readl(&g, &oabuf, 256 + 4), >,
                     buf_readl(&g, &oabuf, 4));
    gpu_stop(&g);
}

/* A counter @i of a 256-byte A32u40_A4u32_B8_C8 report (low dword). */
static uint32_t report_a(Gpu *g, Buf *b, uint32_t at, unsigned i)
{
    return buf_readl(g, b, at + 16 + 4 * i);
}

/*
 * Flexible EU counters, programmed from the ring as i915's OA config
 * batch does (MI_LOAD_REGISTER_IMM of EU_PERF_CNT_CTL0/1): a GPGPU_WALKER
 * of 262144 threads keeps the 64 EUs busy 262144 GT clocks (262 us at the
 * GT's 1 GHz).  Periodic reports meanwhile see "some pipe active" (A7)
 * at 48 of 64 EUs a clock and GT busy (A0) at every clock; a snapshot
 * after the work holds each event's share of the 64-clock kernel: A7
 * 48, A8 (stall) 16, A9 (FPU0 of GPGPU threads) 32, A10 (FPU0 of vertex
 * threads) 0 clocks a thread.
 */
static void test_oa_flex_eu_counters(void)
{
    const uint32_t rcs = INTEL_RCS0_BASE, oa_gtt = OA_GTT, threads = 262144;
    Buf oabuf, ring, snap;
    uint32_t n, inside = 0;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_buffer_init(&g);
    wr(&g, INTEL_OACTXCONTROL, 7 << 2 | 2 | 1);         /* 21.3 us */
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);
    ring = buf_new(&g, 1);
    snap = buf_new(&g, 1);
    EMIT(&g, &ring, MI_LOAD_REGISTER_IMM(2), INTEL_EU_PERF_CNTL0, 0x00005004,
         INTEL_EU_PERF_CNTL0 + 0x100, 0x00010060);
    EMIT(&g, &ring, MI_REPORT_PERF_COUNT | INSTR_LEN(4),
         snap.gtt | MI_REPORT_PERF_COUNT_GGTT, 0, 1);
    emit_pipeline_select(&g, &ring, PIPELINE_SELECT_GPGPU);
    emit_walker(&g, &ring, &(Gen11_GPGPU_WALKER) {
        .thread_width_counter_maximum = 63,
        .thread_group_id_x_dimension = 64,
        .thread_group_id_y_dimension = 64,
        .thread_group_id_z_dimension = 1,
        .right_execution_mask = ~0u,
        .bottom_execution_mask = ~0u,
    });
    ring_submit(&g, rcs, &ring);
    qtest_clock_step(g.qts, 1000);
    /* The next submission runs after the walker's EU work is done. */
    EMIT(&g, &ring, MI_REPORT_PERF_COUNT | INSTR_LEN(4),
         (snap.gtt + 256) | MI_REPORT_PERF_COUNT_GGTT, 0, 2);
    wr(&g, rcs + INTEL_RING_TAIL, ring_tail(&g, &ring));
    cs_settle(&g);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);

    g_assert_cmpuint(report_a(&g, &snap, 256, 4) - report_a(&g, &snap, 0, 4),
                     ==, threads);
    g_assert_cmpuint(report_a(&g, &snap, 256, 7) - report_a(&g, &snap, 0, 7),
                     ==, threads * 48);
    g_assert_cmpuint(report_a(&g, &snap, 256, 8) - report_a(&g, &snap, 0, 8),
                     ==, threads * 16);
    g_assert_cmpuint(report_a(&g, &snap, 256, 9) - report_a(&g, &snap, 0, 9),
                     ==, threads * 32);
    g_assert_cmpuint(report_a(&g, &snap, 256, 10), ==, 0);
    g_assert_cmpuint(report_a(&g, &snap, 256, 0) - report_a(&g, &snap, 0, 0),
                     >=, threads);

    n = (rd(&g, INTEL_OATAILPTR) - oa_gtt) / 256;
    for (uint32_t i = 0; i + 1 < n; i++) {
        uint32_t r = i * 256;
        uint32_t clocks = buf_readl(&g, &oabuf, r + 256 + 12) -
                          buf_readl(&g, &oabuf, r + 12);
        uint32_t active = report_a(&g, &oabuf, r + 256, 7) -
                          report_a(&g, &oabuf, r, 7);
        uint32_t busy = report_a(&g, &oabuf, r + 256, 0) -
                        report_a(&g, &oabuf, r, 0);

        g_assert_cmpuint(active, <=, 48 * clocks + 48);
        /*
         * A period wholly in the walker's time; the slice's few other
         * commands share that time, so a little under 48 a clock.
         */
        if (busy >= clocks - 1) {
            g_assert_cmpuint(active, >=, 47 * clocks);
            inside++;
        }
    }
    g_assert_cmpuint(inside, >=, 10);
    gpu_stop(&g);
}

/* OA on at exponent 10 (170.7 us) in the A32u40_A4u32_B8_C8 format. */
static Buf oa_start(Gpu *g)
{
    Buf b = oa_buffer_init(g);

    wr(g, INTEL_OACTXCONTROL, 10 << 2 | 2 | 1);
    wr(g, INTEL_OACONTROL, 5 << 2 | 1);
    return b;
}

/* How many timer periods apart reports @i and @i + 1 are. */
static uint32_t oa_periods_between(Gpu *g, Buf *oabuf, unsigned i)
{
    return (buf_readl(g, oabuf, (i + 1) * 256 + 4) -
            buf_readl(g, oabuf, i * 256 + 4)) / (2u << 10);
}

/*
 * x-intel-gpu-drill-oa-tail-stall: OATAILPTR holds while reports land in
 * the buffer, across a migration; after the duration it publishes them
 * all, one period apart with none lost.  Ended early by stall=false.
 */
static void test_oa_drill_tail_stall(void)
{
    uint32_t tail0, n;
    Buf oabuf;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_start(&g);
    qtest_clock_step(g.qts, 2 * 1000 * 1000);
    tail0 = rd(&g, INTEL_OATAILPTR);
    qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-oa-tail-stall', "
           "'arguments': {'id': 'gpu', 'stall': true, "
           "'duration-ns': 5000000}}");
    qtest_clock_step(g.qts, 4 * 1000 * 1000);
    g_assert_cmphex(rd(&g, INTEL_OATAILPTR), ==, tail0);
    g_assert_cmphex(buf_readl(&g, &oabuf, tail0 - OA_GTT) >> 19, ==, 1);
    /* The stall is part of the migration state. */
    gpu_migrate(&g, GPU_ARGS);
    g_assert_cmphex(rd(&g, INTEL_OATAILPTR), ==, tail0);
    qtest_clock_step(g.qts, 2 * 1000 * 1000);
    n = (rd(&g, INTEL_OATAILPTR) - OA_GTT) / 256;
    g_assert_cmpuint(n, >=, (tail0 - OA_GTT) / 256 + 4000 / 171);
    for (unsigned i = 0; i + 1 < n; i++) {
        g_assert_cmpuint(oa_periods_between(&g, &oabuf, i), ==, 1);
    }
    g_assert_cmphex(rd(&g, INTEL_OASTATUS), ==, 0);

    qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-oa-tail-stall', "
           "'arguments': {'id': 'gpu', 'stall': true}}");
    tail0 = rd(&g, INTEL_OATAILPTR);
    qtest_clock_step(g.qts, 3 * 1000 * 1000);
    g_assert_cmphex(rd(&g, INTEL_OATAILPTR), ==, tail0);
    qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-oa-tail-stall', "
           "'arguments': {'id': 'gpu', 'stall': false}}");
    g_assert_cmpuint(rd(&g, INTEL_OATAILPTR), >=, tail0 + 15 * 256);
    qmp_refused(&g, "{'execute': 'x-intel-gpu-drill-oa-tail-stall', "
                "'arguments': {'id': 'nothing', 'stall': true}}");
    gpu_stop(&g);
}

/*
 * x-intel-gpu-drill-oa-overflow: the next report is dropped with
 * OASTATUS buffer overflow, as for a full buffer; i915's restart (clear
 * the status, re-init the buffer) gets a normal stream again.
 */
static void test_oa_drill_overflow(void)
{
    uint32_t n, gaps = 0;
    Buf oabuf;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_start(&g);
    qtest_clock_step(g.qts, 2 * 1000 * 1000);
    qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-oa-overflow', "
           "'arguments': {'id': 'gpu'}}");
    qtest_clock_step(g.qts, 2 * 1000 * 1000);
    g_assert_cmphex(rd(&g, INTEL_OASTATUS), ==,
                    INTEL_OASTATUS_BUFFER_OVERFLOW);
    n = (rd(&g, INTEL_OATAILPTR) - OA_GTT) / 256;
    for (unsigned i = 0; i + 1 < n; i++) {
        uint32_t d = oa_periods_between(&g, &oabuf, i);

        g_assert_true(d == 1 || d == 2);
        gaps += d == 2;
    }
    g_assert_cmpuint(gaps, ==, 1);

    /* gen8_oa_read's restart: OA off, buffer re-initialised, OA on. */
    wr(&g, INTEL_OACONTROL, 0);
    oabuf = oa_buffer_init(&g);
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);
    qtest_clock_step(g.qts, 2 * 1000 * 1000);
    g_assert_cmphex(rd(&g, INTEL_OASTATUS), ==, 0);
    n = (rd(&g, INTEL_OATAILPTR) - OA_GTT) / 256;
    g_assert_cmpuint(n, >=, 10);
    for (unsigned i = 0; i + 1 < n; i++) {
        g_assert_cmpuint(oa_periods_between(&g, &oabuf, i), ==, 1);
    }
    gpu_stop(&g);
}

/*
 * RPNSWREQ changes the GT frequency (RPSTAT1 reads it back): a report
 * with reason bit 5 is written and GPU ticks then advance at 550 MHz.
 */
static void test_oa_frequency_change(void)
{
    uint32_t n, k;
    Buf oabuf;
    Gpu g;

    gpu_start(&g);
    g_assert_cmphex(rd(&g, INTEL_RPSTAT1), ==, 60u << 23);
    oabuf = oa_start(&g);
    qtest_clock_step(g.qts, 1000 * 1000);
    wr(&g, INTEL_RPNSWREQ, 33u << 23);
    g_assert_cmphex(rd(&g, INTEL_RPSTAT1), ==, 33u << 23);
    k = (rd(&g, INTEL_OATAILPTR) - OA_GTT) / 256 - 1;
    g_assert_cmphex(buf_readl(&g, &oabuf, k * 256) >> 19 & 0x3f, ==, 1u << 5);
    qtest_clock_step(g.qts, 2 * 1000 * 1000);
    n = (rd(&g, INTEL_OATAILPTR) - OA_GTT) / 256;
    g_assert_cmpuint(n, >=, k + 10);
    for (unsigned i = k + 1; i + 1 < n; i++) {
        uint32_t d = buf_readl(&g, &oabuf, (i + 1) * 256 + 12) -
                     buf_readl(&g, &oabuf, i * 256 + 12);

        /* 170667 ns at 550 MHz */
        g_assert_cmpuint(d, >=, 93865);
        g_assert_cmpuint(d, <=, 93868);
    }
    gpu_stop(&g);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/intel-gpu/oa/periodic-and-snapshot",
                   test_oa_periodic_and_snapshot);
    qtest_add_func("/intel-gpu/oa/test-oa-config", test_oa_test_oa_config);
    qtest_add_func("/intel-gpu/oa/flex-eu-counters", test_oa_flex_eu_counters);
    qtest_add_func("/intel-gpu/oa/context-switch-report",
                   test_oa_context_switch_report);
    qtest_add_func("/intel-gpu/oa/drill-tail-stall", test_oa_drill_tail_stall);
    qtest_add_func("/intel-gpu/oa/drill-overflow", test_oa_drill_overflow);
    qtest_add_func("/intel-gpu/oa/frequency-change",
                   test_oa_frequency_change);
    return g_test_run();
}
