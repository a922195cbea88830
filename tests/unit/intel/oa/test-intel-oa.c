/*
 * Unit tests of the intel-gpu OA unit's stream: periodic reports in the
 * OA buffer as i915 programs it (drivers/gpu/drm/i915/i915_perf.c),
 * report layout and formats, overflow, triggers, interrupts, frequency
 * changes, MI_REPORT_PERF_COUNT and the OA fault drills.  What the
 * counters count is in test-intel-oa-counters.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-oa-test.h"

static void test_periodic(Fixture *f, gconstpointer data)
{
    uint64_t p = period_ns(f, EXPONENT);

    oa_open(f, EXPONENT);
    /* Written in batches, once a millisecond: all due by the last one. */
    fake_host_step(f->fh, 5 * 1000000);
    g_assert_cmpuint(reports_written(f), ==, 5 * 1000000 / p);
    for (unsigned i = 0; i + 1 < reports_written(f); i++) {
        uint64_t r = OABUF + i * 256;

        /* Reason TIMER, no context; on multiples of 2^(e+1) ticks. */
        g_assert_cmphex(ram_r32(f, r) >> 19, ==, 1);
        g_assert_cmpuint(ram_r32(f, r + 4) % (2u << EXPONENT), ==, 0);
        g_assert_cmpuint(ram_r32(f, r + 256 + 4) - ram_r32(f, r + 4), ==,
                         2u << EXPONENT);
        /* GPU_TICKS at the model's 1 GHz GT clock. */
        g_assert_cmpuint(ram_r32(f, r + 256 + 12) - ram_r32(f, r + 12), >=,
                         p - 1);
        g_assert_cmpuint(ram_r32(f, r + 256 + 12) - ram_r32(f, r + 12), <=,
                         p + 1);
    }
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);

    /* OACONTROL = 0 stops it: the tail stands still. */
    wr(f, INTEL_OACONTROL, 0);
    {
        uint32_t tail = rd(f, INTEL_OATAILPTR);

        fake_host_step(f->fh, 10 * 1000000);
        g_assert_cmphex(rd(f, INTEL_OATAILPTR), ==, tail);
    }
}

/* oa_open() with report format @fmt and buffer size code @code. */
static void oa_open_fmt(Fixture *f, unsigned exponent, unsigned fmt,
                        unsigned code)
{
    oa_open(f, exponent);
    wr(f, INTEL_OACONTROL, 0);
    wr(f, INTEL_OABUFFER, OABUF | code << 3 | 1);
    wr(f, INTEL_OACONTROL, fmt << 2 | 1);
}

/* The first nanosecond at which the 12 MHz timestamp reads @ticks. */
static uint64_t tick_ns(uint64_t ticks)
{
    return (ticks * 1000000000ull + 12000000 - 1) / 12000000;
}

/*
 * A report is visible to a reader polling OATAILPTR from the nanosecond
 * its timestamp is due, not before, however late the model's timer runs
 * (i915's hrtimer and its read() poll the tail): the clock is moved here
 * without running any timer.
 */
static void test_reader_sees_due_reports(Fixture *f, gconstpointer data)
{
    uint64_t first = tick_ns(2u << 17);      /* exponent 17: 21.8 ms */

    g_assert_cmpuint(intel_cs_timestamp_hz(f->gpu), ==, 12000000);
    oa_open(f, 17);
    f->fh->now_ns = first - 1;
    g_assert_cmpuint(reports_written(f), ==, 0);
    f->fh->now_ns = first;
    g_assert_cmpuint(reports_written(f), ==, 1);
    g_assert_cmpuint(ram_r32(f, OABUF + 4), ==, 2u << 17);
    f->fh->now_ns = tick_ns(3 * (2u << 17));
    g_assert_cmpuint(reports_written(f), ==, 3);
    g_assert_cmpuint(ram_r32(f, OABUF + 2 * 256 + 4), ==, 3 * (2u << 17));

    /*
     * A fast stream (exponent 4, 2.7 us) read 40 ms after its last timer
     * run: every report due is there, one period apart, none lost (a
     * 1 MiB buffer of 64-byte A12 reports holds them).
     */
    oa_open_fmt(f, 4, 0, 3);
    fake_host_step(f->fh, 10000);
    {
        uint32_t t0 = rd(f, INTEL_OATAILPTR), ts0, ts1;
        unsigned n;

        g_assert_cmpuint(t0, >, OABUF);
        ts0 = ram_r32(f, t0 - 64 + 4);
        f->fh->now_ns += 40 * 1000000;
        ts1 = f->fh->now_ns * 12 / 1000;        /* the timestamp now */
        n = (rd(f, INTEL_OATAILPTR) - t0) / 64;
        g_assert_cmpuint(n, ==, (ts1 - ts0) / 32);
        g_assert_cmpuint(n, >, 4096);
        for (unsigned i = 0; i < n; i++) {
            g_assert_cmpuint(ram_r32(f, t0 + 64 * i + 4), ==,
                             ts0 + 32 * (i + 1));
            g_assert_cmphex(ram_r32(f, t0 + 64 * i) >> 19, ==, 1);
        }
        g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
        g_assert_cmpuint(f->gpu->oa.lost, ==, 0);
    }
}

/*
 * Reports due while the buffer is full are lost, as on hardware, even if
 * the reader makes room before the model writes them: a late timer does
 * not let them in afterwards.  The sources stay on their period.
 */
static void test_full_buffer_drops_due(Fixture *f, gconstpointer data)
{
    unsigned max = OABUF_SIZE / 256 - 1, n;
    uint64_t p = period_ns(f, EXPONENT);
    uint32_t tail, ts;

    oa_open(f, EXPONENT);
    fake_host_step(f->fh, (max + 1) * p);
    g_assert_cmpuint(reports_written(f), ==, max);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
    tail = rd(f, INTEL_OATAILPTR);
    ts = ram_r32(f, tail - 256 + 4);

    /*
     * Five periods later, no timer has run: the reader frees it all,
     * then finds the overflow of the reports due meanwhile.
     */
    f->fh->now_ns += 5 * p;
    wr(f, INTEL_OAHEADPTR, tail);
    g_assert_cmpuint(rd(f, INTEL_OATAILPTR), ==, tail);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==,
                    INTEL_OASTATUS_BUFFER_OVERFLOW);
    wr(f, INTEL_OASTATUS, 0);

    /* The next report is the first due after that, on the period. */
    fake_host_step(f->fh, 3 * p);
    n = (rd(f, INTEL_OATAILPTR) - tail) % OABUF_SIZE / 256;
    g_assert_cmpuint(n, >=, 2);
    g_assert_cmpuint(ram_r32(f, OABUF + 4), >, ts + 5 * (2u << EXPONENT));
    g_assert_cmpuint(ram_r32(f, OABUF + 4) % (2u << EXPONENT), ==, 0);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
}

/* The reader never consumes: reports stop at the head, nothing lost. */
static void test_overflow(Fixture *f, gconstpointer data)
{
    unsigned max = OABUF_SIZE / 256 - 1;
    uint32_t first_ts;

    oa_open(f, 4);      /* 32 ticks: 2.7 us */
    fake_host_step(f->fh, 1000000);
    first_ts = ram_r32(f, OABUF + 4);
    fake_host_step(f->fh, 10 * 1000000);
    g_assert_cmpuint(reports_written(f), ==, max);
    g_assert_true(rd(f, INTEL_OASTATUS) & INTEL_OASTATUS_BUFFER_OVERFLOW);
    /* The oldest report is intact. */
    g_assert_cmphex(ram_r32(f, OABUF + 4), ==, first_ts);
    g_assert_cmpuint(f->gpu->oa.lost, >, 0);

    /* The reader catches up: reporting goes on. */
    wr(f, INTEL_OAHEADPTR, rd(f, INTEL_OATAILPTR));
    wr(f, INTEL_OASTATUS, 0);
    fake_host_step(f->fh, 1000000);
    g_assert_cmpuint(reports_written(f), <, max);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
}

/* 40-bit A counters: low dword at 16 + 4i, high byte at 160 + i. */
static void test_a40_packing(Fixture *f, gconstpointer data)
{
    oa_open(f, EXPONENT);
    f->gpu->engine[INTEL_RCS0].stats.busy_ns = 0x12345678ABull;
    fake_host_step(f->fh, 2 * 1000000);
    g_assert_cmphex(ram_r32(f, OABUF + 16), ==, 0x345678AB);
    g_assert_cmphex(f->fh->ram[OABUF + 160], ==, 0x12);
    g_assert_cmphex(f->fh->ram[OABUF + 161], ==, 0);            /* A1 */
}

/*
 * Every Gen11 format byte for byte (PRM "Report Formats"), from a
 * snapshot with counting off: counter n holds a value that names it.
 */
static void test_formats(Fixture *f, gconstpointer data)
{
    static const struct {
        unsigned sel, size;
        int a;                  /* offset of the first A counter */
        unsigned a_first, n_a;
        int b, c;
        unsigned n_c;
    } fmt[] = {
        { 0, 64, 16, 7, 12, -1, -1, 0 },        /* A12 */
        { 2, 128, 16, 7, 12, 64, 96, 8 },       /* A12_B8_C8 */
        { 5, 256, 16, 0, 36, 192, 224, 8 },     /* A32u40_A4u32_B8_C8 */
        { 7, 64, -1, 0, 0, 32, 16, 4 },         /* C4_B8 */
    };
    IntelOaCounters *v = &f->gpu->oa.count;

    for (unsigned n = 0; n < INTEL_OA_A_COUNTERS; n++) {
        v->a[n] = (uint64_t)(0x40 + n) << 32 | (0xa000 + n);
    }
    for (unsigned n = 0; n < INTEL_OA_BC_COUNTERS; n++) {
        v->b[n] = 0xb000 + n;
        v->c[n] = 0xc000 + n;
    }
    fake_host_step(f->fh, 1000);
    for (unsigned i = 0; i < G_N_ELEMENTS(fmt); i++) {
        uint8_t zero[256] = { 0 };
        uint64_t r = SNAP + i * 0x1000;
        unsigned used = 16;

        wr(f, INTEL_OACONTROL, fmt[i].sel << 2);
        g_assert_cmpint(oa_snapshot(&f->gpu->engine[INTEL_RCS0], false,
                                    r, 0x1234), ==, 0);
        g_assert_cmphex(ram_r32(f, r), ==, 0x1234);
        g_assert_cmpuint(ram_r32(f, r + 4), ==, 12);      /* 1 us at 12 MHz */
        g_assert_cmphex(ram_r32(f, r + 8), ==, 0);        /* no context */
        g_assert_cmpuint(ram_r32(f, r + 12), ==, 1000);   /* GPU ticks */
        for (unsigned k = 0; k < fmt[i].n_a; k++) {
            unsigned n = fmt[i].a_first + k;

            g_assert_cmphex(ram_r32(f, r + fmt[i].a + 4 * k), ==, 0xa000 + n);
            used += 4;
            if (fmt[i].sel == 5 && n < 32) {
                g_assert_cmphex(f->fh->ram[r + 160 + n], ==, 0x40 + n);
                used++;
            }
        }
        for (unsigned k = 0; fmt[i].b >= 0 && k < 8; k++) {
            g_assert_cmphex(ram_r32(f, r + fmt[i].b + 4 * k), ==, 0xb000 + k);
            used += 4;
        }
        for (unsigned k = 0; k < fmt[i].n_c; k++) {
            g_assert_cmphex(ram_r32(f, r + fmt[i].c + 4 * k), ==, 0xc000 + k);
            used += 4;
        }
        /* Everything else in the report is 0, nothing after it written. */
        g_assert_cmpuint(used, ==, fmt[i].size);
        g_assert_cmpmem(f->fh->ram + r + fmt[i].size, 64, zero, 64);
    }
}

/*
 * A start trigger with a threshold: B counters count from THRESHOLD
 * clocks after GO; RPT_ID bit 18 tells reports after it.  C0 (an engine
 * active) stays 0 on an idle GT.
 */
static void test_start_trigger(Fixture *f, gconstpointer data)
{
    uint64_t p = period_ns(f, 8);       /* 42.7 us */

    wr(f, INTEL_OACEC(2), 0x3);       /* B1: always */
    wr(f, INTEL_OACEC(3), 0xffff);
    wr(f, INTEL_OASTARTTRIG(0), 3 * p / 2);
    wr(f, INTEL_OASTARTTRIG(1), INTEL_OATRIG_THRESHOLD_ENABLE);
    oa_open(f, 8);
    fake_host_step(f->fh, 2 * 1000000);
    g_assert_cmpuint(reports_written(f), >=, 3);
    /* Reports at p and 2p after GO (GO at 0, a period boundary). */
    g_assert_cmphex(ram_r32(f, OABUF) & (1u << 18), ==, 0);
    g_assert_cmpuint(b_counter(f, OABUF, 1), ==, 0);
    g_assert_cmphex(ram_r32(f, OABUF + 256) & (1u << 18), ==, 1u << 18);
    g_assert_cmpuint(b_counter(f, OABUF + 256, 1), ==,
                     ram_r32(f, OABUF + 256 + 12) - 3 * p / 2);
    g_assert_cmpuint(ram_r32(f, OABUF + 256 + 224), ==, 0);       /* C0 */
}

/* Report trigger 1: a report every THRESHOLD clocks, reason bit 20. */
static void test_report_trigger(Fixture *f, gconstpointer data)
{
    oa_open(f, 30);                     /* the timer: once in 179 s */
    wr(f, INTEL_OAREPORTTRIG(0), 50000);
    wr(f, INTEL_OAREPORTTRIG(1), INTEL_OATRIG_REPORT_ENABLE |
            INTEL_OATRIG_THRESHOLD_ENABLE);
    fake_host_step(f->fh, 1000000 + 100);
    g_assert_cmpuint(reports_written(f), ==, 20);
    for (unsigned k = 0; k < 20; k++) {
        uint64_t r = OABUF + k * 256;

        /* Reason trigger 1, RPT_ID's threshold-enable bit. */
        g_assert_cmphex(ram_r32(f, r) & 0xfff80000, ==, 1u << 20);
        g_assert_cmphex(ram_r32(f, r) & (1u << 17), ==, 1u << 17);
        g_assert_cmpuint(ram_r32(f, r + 12), ==, 50000 * (k + 1));
    }
}

/*
 * OACTXCONTROL's stop-resume bit: clearing it stops the counters (GO
 * 1->0 report, reason bit 23); timer reports go on with frozen counters.
 */
static void test_go_transition(Fixture *f, gconstpointer data)
{
    uint64_t p = period_ns(f, EXPONENT);
    unsigned n;

    wr(f, INTEL_OACEC(2), 0x3);
    wr(f, INTEL_OACEC(3), 0xffff);
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 2 * p + p / 2);
    wr(f, INTEL_OACTXCONTROL, EXPONENT << 2 | 2);
    n = reports_written(f);
    g_assert_cmpuint(n, ==, 3);
    g_assert_cmphex(ram_r32(f, OABUF + 2 * 256) >> 19, ==, 1u << 4);
    g_assert_cmpuint(b_counter(f, OABUF + 2 * 256, 1), ==,
                     ram_r32(f, OABUF + 2 * 256 + 12));
    fake_host_step(f->fh, 1000000);
    n = reports_written(f);
    g_assert_cmpuint(n, >, 3);
    g_assert_cmphex(ram_r32(f, OABUF + (n - 1) * 256) >> 19, ==, 1);
    g_assert_cmpuint(b_counter(f, OABUF + (n - 1) * 256, 1), ==,
                     b_counter(f, OABUF + 2 * 256, 1));
    /* OA_DEBUG can turn GO reports off. */
    wr(f, INTEL_OACTXCONTROL, EXPONENT << 2 | 2 | 1);
    wr(f, INTEL_OA_DEBUG, INTEL_OA_DEBUG_NO_GO_REPORTS << 16 |
            INTEL_OA_DEBUG_NO_GO_REPORTS);
    wr(f, INTEL_OACTXCONTROL, EXPONENT << 2 | 2);
    g_assert_cmpuint(reports_written(f), ==, n);
}

/* A counter wrapping its 32 bits between reports: OASTATUS bit 2. */
static void test_counter_overflow(Fixture *f, gconstpointer data)
{
    wr(f, INTEL_OACEC(2), 0x3);
    wr(f, INTEL_OACEC(3), 0xffff);
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
    f->gpu->oa.count.b[1] = 0xffffffffull - 1000;
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==,
                    INTEL_OASTATUS_COUNTER_OVERFLOW);
    /* i915 clears it by writing 0. */
    wr(f, INTEL_OASTATUS, 0);
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
}

/*
 * The buffer crossing half full raises the OA event (data bit 12) on the
 * WDOAPerf source, GT INT DW0 bit 20, unless OA_IMR bit 28 masks it.
 */
static void test_half_full_irq(Fixture *f, gconstpointer data)
{
    uint64_t p = period_ns(f, 4);
    unsigned half = OABUF_SIZE / 2 / 256;

    wr(f, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    wr(f, INTEL_GPM_WGBOXPERF_INTR_ENABLE, 1u << 12);
    wr(f, INTEL_GPM_WGBOXPERF_INTR_MASK, 0);
    oa_open(f, 4);
    fake_host_step(f->fh, (half - 2) * p);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 20);
    g_assert_true(f->fh->irq);

    /* Masked in OA_IMR: a second crossing raises nothing. */
    wr(f, INTEL_GT_INTR_DW(0), 1u << 20);
    wr(f, INTEL_OA_IMR, INTEL_OA_IMR_BUFFER_HALF_FULL);
    wr(f, INTEL_OAHEADPTR, rd(f, INTEL_OATAILPTR));
    fake_host_step(f->fh, 2 * 1000000);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);
}

/* MI_REPORT_PERF_COUNT of a report with ID @id to SNAP, from the ring. */
static void ring_report_perf_count(Fixture *f, uint32_t id)
{
    Buf ring = buf_at(f, RING_RCS);

    EMIT(&ring, MI_REPORT_PERF_COUNT | INSTR_LEN(4),
         SNAP | MI_REPORT_PERF_COUNT_GGTT, 0, id);
    run_ring(f, 4);
}

/* MI_REPORT_PERF_COUNT: a report in the current format at the address. */
static void test_report_perf_count(Fixture *f, gconstpointer data)
{
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 1000000);
    ring_report_perf_count(f, 0xbeef);
    fake_host_step(f->fh, 1000);
    g_assert_cmphex(ram_r32(f, SNAP), ==, 0xbeef);
    /* The timestamp of now (1 ms = 12000 ticks), GPU ticks at 1 GHz. */
    g_assert_cmpuint(ram_r32(f, SNAP + 4), ==, 12000);
    g_assert_cmpuint(ram_r32(f, SNAP + 12), ==, 1000000);
    g_assert_cmphex(rd(f, INTEL_RCS0_BASE + INTEL_RING_ESR), ==, 0);
}

/*
 * MI_REPORT_PERF_COUNT stores its report ID unchanged (IGT's mi-rpc and
 * gen8-unprivileged-single-ctx-counters expect 0xdeadbeef and 0xbeefbeef
 * back), whatever RPT_ID flags the unit's own reports carry meanwhile:
 * render context valid (16), a report trigger threshold enabled (17), the
 * start trigger fired (18), and the GT frequency i915's OA_DEBUG asks for.
 */
static void test_report_id(Fixture *f, gconstpointer data)
{
    static const uint32_t ids[] = { 0xdeadbeef, 0xbeefbeef, 0 };
    uint32_t flags = 1u << 16 | 1u << 17 | 1u << 18 | 60u << 25 | 60;

    LOAD_CONFIG(f, intel_icl_test_oa);     /* start triggers at threshold 0 */
    wr(f, INTEL_OAREPORTTRIG(1), INTEL_OATRIG_THRESHOLD_ENABLE);
    /* gen8_enable_metric_set on Gen9-11. */
    wr(f, INTEL_OA_DEBUG,
            (INTEL_OA_DEBUG_NO_CLK_RATIO_REPORTS |
             INTEL_OA_DEBUG_INCLUDE_CLK_RATIO) * 0x10001);
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 1000000);

    /* From a ring (no context loaded). */
    ring_report_perf_count(f, ids[0]);
    fake_host_step(f->fh, 1000);
    g_assert_cmphex(ram_r32(f, SNAP), ==, ids[0]);
    g_assert_cmphex(rd(f, INTEL_RCS0_BASE + INTEL_RING_ESR), ==, 0);

    /* With a render context, beside a timer report that has every flag. */
    engine_active(f, INTEL_RCS0, true);
    for (unsigned i = 1; i < G_N_ELEMENTS(ids); i++) {
        g_assert_cmpint(oa_snapshot(&f->gpu->engine[INTEL_RCS0], false,
                                    SNAP + 256 * i, ids[i]), ==, 0);
        g_assert_cmphex(ram_r32(f, SNAP + 256 * i), ==, ids[i]);
    }
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(ram_r32(f, OABUF + (reports_written(f) - 1) * 256), ==,
                    1u << 19 | flags);
}

static unsigned find_reason(Fixture *f, unsigned from, uint32_t reason)
{
    for (unsigned k = from; k < reports_written(f); k++) {
        if ((ram_r32(f, OABUF + k * 256) >> 19 & 0x3f) == reason) {
            return k;
        }
    }
    return ~0u;
}

/*
 * A GT frequency change (RPNSWREQ, granted within RPn..RP0 and read back
 * in RPSTAT1) writes a report with reason bit 5; GPU_TICKS then advance
 * at the new frequency.  With OA_DEBUG "include clock ratio" RPT_ID
 * carries the frequency; OA_DEBUG bit 5 turns the reports off.
 */
static void test_frequency_change(Fixture *f, gconstpointer data)
{
    uint64_t p = period_ns(f, EXPONENT);
    unsigned k, n;

    g_assert_cmphex(rd(f, INTEL_RPSTAT1), ==, 60u << 23);      /* 1 GHz */
    oa_open(f, EXPONENT);
    wr(f, INTEL_OA_DEBUG, INTEL_OA_DEBUG_INCLUDE_CLK_RATIO << 16 |
            INTEL_OA_DEBUG_INCLUDE_CLK_RATIO);
    fake_host_step(f->fh, 1000000 + p / 2);
    n = reports_written(f);
    /* 60 = 0b0111100: bits 31:25 and 8:0 of RPT_ID. */
    g_assert_cmphex(ram_r32(f, OABUF) & 0xfe0007ff, ==, 60u << 25 | 60);

    rps_request(f, 33);                                 /* 550 MHz */
    g_assert_cmphex(rd(f, INTEL_RPSTAT1), ==, 33u << 23);
    /* Written after the reports due before the change, at once. */
    k = reports_written(f) - 1;
    g_assert_cmpuint(k, >=, n);
    g_assert_cmpuint(find_reason(f, 0, 1u << 5), ==, k);
    g_assert_cmphex(ram_r32(f, OABUF + k * 256) & 0xfe0007ff, ==,
                    33u << 25 | 33);
    fake_host_step(f->fh, 2 * 1000000);
    g_assert_cmpuint(reports_written(f), >=, k + 10);
    for (unsigned i = k + 1; i + 1 < reports_written(f); i++) {
        uint64_t r = OABUF + i * 256;
        uint32_t d = ram_r32(f, r + 256 + 12) - ram_r32(f, r + 12);

        g_assert_cmphex(ram_r32(f, r) >> 19 & 0x3f, ==, 1);
        g_assert_cmpuint(d, >=, p * 33 / 60 - 1);
        g_assert_cmpuint(d, <=, p * 33 / 60 + 2);
    }

    /* Clamped to RP0 (1100 MHz); the same frequency again: no report. */
    rps_request(f, 200);
    g_assert_cmphex(rd(f, INTEL_RPSTAT1), ==, 66u << 23);
    n = reports_written(f);
    rps_request(f, 66);
    g_assert_cmpuint(reports_written(f), ==, n);
    fake_host_step(f->fh, 1000);    /* not in the same clock as the last */
    rps_request(f, 0);                                  /* RPn: 300 MHz */
    g_assert_cmphex(rd(f, INTEL_RPSTAT1), ==, 18u << 23);
    g_assert_cmpuint(find_reason(f, n, 1u << 5), ==, n);

    /* i915's OA_DEBUG: no clock-ratio reports. */
    wr(f, INTEL_OA_DEBUG,
            INTEL_OA_DEBUG_NO_CLK_RATIO_REPORTS << 16 |
            INTEL_OA_DEBUG_NO_CLK_RATIO_REPORTS);
    n = reports_written(f);
    rps_request(f, 60);
    g_assert_cmpuint(reports_written(f), ==, n);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
}

/* A report trigger's threshold counts GT clocks at the GT frequency. */
static void test_trigger_follows_frequency(Fixture *f, gconstpointer data)
{
    rps_request(f, 30);                                 /* 500 MHz */
    oa_open(f, 30);
    wr(f, INTEL_OAREPORTTRIG(0), 50000);      /* 100 us */
    wr(f, INTEL_OAREPORTTRIG(1), INTEL_OATRIG_REPORT_ENABLE |
            INTEL_OATRIG_THRESHOLD_ENABLE);
    fake_host_step(f->fh, 1000000 + 100);
    g_assert_cmpuint(reports_written(f), ==, 10);
    for (unsigned k = 0; k + 1 < 10; k++) {
        g_assert_cmpuint(ram_r32(f, OABUF + (k + 1) * 256 + 12) -
                         ram_r32(f, OABUF + k * 256 + 12), ==, 50000);
        g_assert_cmpuint(ram_r32(f, OABUF + (k + 1) * 256 + 4) -
                         ram_r32(f, OABUF + k * 256 + 4), ==, 1200);
    }
}

/*
 * Tail-stall drill: reports keep landing in the buffer, OATAILPTR holds
 * until the drill's time is up, then publishes them all; the stream has
 * no gap and nothing is lost.
 */
static void test_drill_tail_stall(Fixture *f, gconstpointer data)
{
    uint64_t p = period_ns(f, EXPONENT);
    uint32_t tail0;
    unsigned n;

    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 1000000);
    tail0 = rd(f, INTEL_OATAILPTR);
    intel_oa_drill_tail_stall(f->gpu, true, 3000000);
    fake_host_step(f->fh, 2000000);
    g_assert_cmphex(rd(f, INTEL_OATAILPTR), ==, tail0);
    /* The report after the held tail has landed. */
    g_assert_cmphex(ram_r32(f, tail0) >> 19, ==, 1);
    fake_host_step(f->fh, 1000000 + 1);
    n = reports_written(f);
    g_assert_cmpuint(n, >=, (4000000 - p) / p);
    for (unsigned i = 0; i + 1 < n; i++) {
        g_assert_cmpuint(ram_r32(f, OABUF + (i + 1) * 256 + 4) -
                         ram_r32(f, OABUF + i * 256 + 4), ==, 2u << EXPONENT);
    }
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
    g_assert_false(f->gpu->oa.tail_stalled);

    /* Without a duration until ended; software moving the tail (i915's
     * buffer re-init) moves the write position. */
    intel_oa_drill_tail_stall(f->gpu, true, 0);
    wr(f, INTEL_OAHEADPTR, OABUF);
    wr(f, INTEL_OATAILPTR, OABUF);
    fake_host_step(f->fh, 10 * 1000000);
    g_assert_cmphex(rd(f, INTEL_OATAILPTR), ==, OABUF);
    intel_oa_drill_tail_stall(f->gpu, false, 0);
    g_assert_cmpuint(reports_written(f), >=, 10 * 1000000 / p - 1);
    g_assert_cmpuint(reports_written(f), <=, 10 * 1000000 / p + 1);
}

/*
 * Overflow drill: the next report finds the buffer full (dropped,
 * OASTATUS buffer overflow); later ones land normally, one period after
 * the gap.
 */
static void test_drill_overflow(Fixture *f, gconstpointer data)
{
    unsigned n, gaps = 0;

    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
    intel_oa_drill_overflow(f->gpu, 1);
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==,
                    INTEL_OASTATUS_BUFFER_OVERFLOW);
    g_assert_cmpuint(f->gpu->oa.lost, ==, 1);
    n = reports_written(f);
    for (unsigned i = 0; i + 1 < n; i++) {
        uint32_t d = ram_r32(f, OABUF + (i + 1) * 256 + 4) -
                     ram_r32(f, OABUF + i * 256 + 4);

        g_assert_true(d == 2u << EXPONENT || d == 4u << EXPONENT);
        gaps += d == 4u << EXPONENT;
    }
    g_assert_cmpuint(gaps, ==, 1);
    /* gen8_oa_read's restart: OA off, buffer re-initialised, OA on. */
    wr(f, INTEL_OACONTROL, 0);
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 2 * 1000000);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
    n = reports_written(f);
    g_assert_cmpuint(n, >=, 10);
    for (unsigned i = 0; i + 1 < n; i++) {
        g_assert_cmpuint(ram_r32(f, OABUF + (i + 1) * 256 + 4) -
                         ram_r32(f, OABUF + i * 256 + 4), ==, 2u << EXPONENT);
    }
}

/*
 * An event report (here a context switch) between two timer wake-ups
 * comes after the timer reports due before it: the buffer stays in
 * timestamp order.
 */
static void test_event_report_order(Fixture *f, gconstpointer data)
{
    uint64_t p = period_ns(f, EXPONENT);
    unsigned n;

    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 1000000 + 3 * p);
    gt_event(f, INTEL_GT_CONTEXT_IN, &f->gpu->engine[INTEL_RCS0]);
    fake_host_step(f->fh, 2 * 1000000);
    n = reports_written(f);
    g_assert_cmpuint(find_reason(f, 0, 1u << 3), <, n);
    for (unsigned i = 0; i + 1 < n; i++) {
        g_assert_cmpint((int32_t)(ram_r32(f, OABUF + (i + 1) * 256 + 4) -
                                  ram_r32(f, OABUF + i * 256 + 4)), >=, 0);
    }
}

static const FixtureTest tests[] = {
    { "/intel/oa/periodic", test_periodic },
    { "/intel/oa/overflow", test_overflow },
    { "/intel/oa/reader-sees-due-reports", test_reader_sees_due_reports },
    { "/intel/oa/full-buffer-drops-due", test_full_buffer_drops_due },
    { "/intel/oa/a40-packing", test_a40_packing },
    { "/intel/oa/report-perf-count", test_report_perf_count },
    { "/intel/oa/report-id", test_report_id },
    { "/intel/oa/formats", test_formats },
    { "/intel/oa/start-trigger", test_start_trigger },
    { "/intel/oa/report-trigger", test_report_trigger },
    { "/intel/oa/go-transition", test_go_transition },
    { "/intel/oa/counter-overflow", test_counter_overflow },
    { "/intel/oa/half-full-irq", test_half_full_irq },
    { "/intel/oa/frequency-change", test_frequency_change },
    { "/intel/oa/trigger-follows-frequency", test_trigger_follows_frequency },
    { "/intel/oa/drill-tail-stall", test_drill_tail_stall },
    { "/intel/oa/drill-overflow", test_drill_overflow },
    { "/intel/oa/event-report-order", test_event_report_order },
};

FIXTURE_MAIN(fixture_setup_ggtt)
