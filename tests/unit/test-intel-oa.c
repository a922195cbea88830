/*
 * Unit tests of the intel-gpu OA unit: periodic reports in the OA buffer
 * as i915 programs it (contract §9.4, §9.5), report layout, overflow,
 * counters that move with the workload, MI_REPORT_PERF_COUNT.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include <glib.h>
#include "fake-host.h"
#include "igt-perf.h"
#include "intel-i915.h"
#include "hw/gpumodel/intel-oa-metric-sets.h"

#define OABUF       0x400000u   /* 128 KiB OA buffer (size code 0) */
#define OABUF_SIZE  0x20000u
#define RING        0x100000u
#define BATCH       0x200000u
#define SNAP        0x300000u
#define FMT_A32u40  5           /* A32u40_A4u32_B8_C8, 256 bytes */
#define EXPONENT    10          /* 2048 ticks: 170.7 us at 12 MHz */

typedef struct Fixture {
    FakeHost *fh;
    IntelGpu *gpu;
} Fixture;

static void fixture_setup(Fixture *f, gconstpointer data)
{
    f->fh = fake_host_new();
    f->gpu = intel_gpu_new(&intel_test_cfg, &f->fh->host);
    for (uint32_t page = 0; page < (8u << 20) / 4096; page++) {
        intel_ggtt_write_pte(f->gpu, page, (uint64_t)page << 12 | 1);
    }
}

static void fixture_teardown(Fixture *f, gconstpointer data)
{
    intel_gpu_free(f->gpu);
    fake_host_free(f->fh);
}

static uint32_t rd(Fixture *f, uint32_t off)
{
    return intel_mmio_read(f->gpu, off);
}

static uint32_t ram32(Fixture *f, uint64_t pa)
{
    uint32_t v;

    memcpy(&v, f->fh->ram + pa, 4);
    return GUINT32_FROM_LE(v);
}

/* gen8_init_oa_buffer + gen8_oa_enable, with a periodic exponent. */
static void oa_open(Fixture *f, unsigned exponent)
{
    i915_wr(f->gpu, INTEL_OASTATUS, 0);
    i915_wr(f->gpu, INTEL_OAHEADPTR, OABUF);
    i915_wr(f->gpu, INTEL_OABUFFER_UDW, 0);
    i915_wr(f->gpu, INTEL_OABUFFER, OABUF | 0 << 3 | 1);
    i915_wr(f->gpu, INTEL_OATAILPTR, OABUF);
    i915_wr(f->gpu, INTEL_OACTXCONTROL, exponent << 2 | 2 | 1);
    i915_wr(f->gpu, INTEL_OACONTROL, FMT_A32u40 << 2 | 1);
}

static uint64_t period_ns(Fixture *f, unsigned exponent)
{
    return (2ull << exponent) * 1000000000ull /
           intel_cs_timestamp_hz(f->gpu);
}

static unsigned reports_written(Fixture *f)
{
    return (rd(f, INTEL_OATAILPTR) - OABUF) / 256;
}

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
        g_assert_cmphex(ram32(f, r) >> 19, ==, 1);
        g_assert_cmpuint(ram32(f, r + 4) % (2u << EXPONENT), ==, 0);
        g_assert_cmpuint(ram32(f, r + 256 + 4) - ram32(f, r + 4), ==,
                         2u << EXPONENT);
        /* GPU_TICKS at the model's 1 GHz GT clock. */
        g_assert_cmpuint(ram32(f, r + 256 + 12) - ram32(f, r + 12), >=,
                         p - 1);
        g_assert_cmpuint(ram32(f, r + 256 + 12) - ram32(f, r + 12), <=,
                         p + 1);
    }
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);

    /* OACONTROL = 0 stops it: the tail stands still. */
    i915_wr(f->gpu, INTEL_OACONTROL, 0);
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
    i915_wr(f->gpu, INTEL_OACONTROL, 0);
    i915_wr(f->gpu, INTEL_OABUFFER, OABUF | code << 3 | 1);
    i915_wr(f->gpu, INTEL_OACONTROL, fmt << 2 | 1);
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
    g_assert_cmpuint(ram32(f, OABUF + 4), ==, 2u << 17);
    f->fh->now_ns = tick_ns(3 * (2u << 17));
    g_assert_cmpuint(reports_written(f), ==, 3);
    g_assert_cmpuint(ram32(f, OABUF + 2 * 256 + 4), ==, 3 * (2u << 17));

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
        ts0 = ram32(f, t0 - 64 + 4);
        f->fh->now_ns += 40 * 1000000;
        ts1 = f->fh->now_ns * 12 / 1000;        /* the timestamp now */
        n = (rd(f, INTEL_OATAILPTR) - t0) / 64;
        g_assert_cmpuint(n, ==, (ts1 - ts0) / 32);
        g_assert_cmpuint(n, >, 4096);
        for (unsigned i = 0; i < n; i++) {
            g_assert_cmpuint(ram32(f, t0 + 64 * i + 4), ==, ts0 + 32 * (i + 1));
            g_assert_cmphex(ram32(f, t0 + 64 * i) >> 19, ==, 1);
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
    ts = ram32(f, tail - 256 + 4);

    /*
     * Five periods later, no timer has run: the reader frees it all,
     * then finds the overflow of the reports due meanwhile.
     */
    f->fh->now_ns += 5 * p;
    i915_wr(f->gpu, INTEL_OAHEADPTR, tail);
    g_assert_cmpuint(rd(f, INTEL_OATAILPTR), ==, tail);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==,
                    INTEL_OASTATUS_BUFFER_OVERFLOW);
    i915_wr(f->gpu, INTEL_OASTATUS, 0);

    /* The next report is the first due after that, on the period. */
    fake_host_step(f->fh, 3 * p);
    n = (rd(f, INTEL_OATAILPTR) - tail) % OABUF_SIZE / 256;
    g_assert_cmpuint(n, >=, 2);
    g_assert_cmpuint(ram32(f, OABUF + 4), >, ts + 5 * (2u << EXPONENT));
    g_assert_cmpuint(ram32(f, OABUF + 4) % (2u << EXPONENT), ==, 0);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
}

/* The reader never consumes: reports stop at the head, nothing lost. */
static void test_overflow(Fixture *f, gconstpointer data)
{
    unsigned max = OABUF_SIZE / 256 - 1;
    uint32_t first_ts;

    oa_open(f, 4);      /* 32 ticks: 2.7 us */
    fake_host_step(f->fh, 1000000);
    first_ts = ram32(f, OABUF + 4);
    fake_host_step(f->fh, 10 * 1000000);
    g_assert_cmpuint(reports_written(f), ==, max);
    g_assert_true(rd(f, INTEL_OASTATUS) & INTEL_OASTATUS_BUFFER_OVERFLOW);
    /* The oldest report is intact. */
    g_assert_cmphex(ram32(f, OABUF + 4), ==, first_ts);
    g_assert_cmpuint(f->gpu->oa.lost, >, 0);

    /* The reader catches up: reporting goes on. */
    i915_wr(f->gpu, INTEL_OAHEADPTR, rd(f, INTEL_OATAILPTR));
    i915_wr(f->gpu, INTEL_OASTATUS, 0);
    fake_host_step(f->fh, 1000000);
    g_assert_cmpuint(reports_written(f), <, max);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
}

static void put(Fixture *f, uint64_t pa, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(f->fh->ram + pa, &v, 4);
}

/* A legacy RCS ring of @n dwords at RING. */
static void run_ring(Fixture *f, unsigned n)
{
    i915_wr(f->gpu, INTEL_RCS0_BASE + INTEL_RING_HEAD, 0);
    i915_wr(f->gpu, INTEL_RCS0_BASE + INTEL_RING_START, RING);
    i915_wr(f->gpu, INTEL_RCS0_BASE + INTEL_RING_CTL, (0x10000 - 4096) | 1);
    i915_wr(f->gpu, INTEL_RCS0_BASE + INTEL_RING_TAIL, n * 4);
}

/* @n dwords at BATCH, started from a legacy RCS ring. */
static void run_batch(Fixture *f, const uint32_t *cmds, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        put(f, BATCH + 4 * i, cmds[i]);
    }
    put(f, RING, 0x18800001);           /* MI_BATCH_BUFFER_START, GGTT */
    put(f, RING + 4, BATCH);
    put(f, RING + 8, 0);
    run_ring(f, 4);
}

static uint32_t a_counter(Fixture *f, uint64_t report, unsigned i)
{
    return ram32(f, report + 16 + 4 * i);
}

/* A0 (GT busy) moves with executed work and stands still when idle. */
static void test_busy_counter(Fixture *f, gconstpointer data)
{
    uint64_t p = period_ns(f, 16);      /* 10.9 ms */
    unsigned n;

    oa_open(f, 16);
    fake_host_step(f->fh, 2 * p + 1000);
    /* 100000 MI_NOOPs, then the two next reports. */
    put(f, RING, 0x18800001);           /* MI_BATCH_BUFFER_START, GGTT */
    put(f, RING + 4, BATCH);
    put(f, RING + 8, 0);
    put(f, BATCH + 100000 * 4, 0x05000000);
    run_ring(f, 4);
    fake_host_step(f->fh, 2 * p + 1000);
    n = reports_written(f);
    g_assert_cmpuint(n, >=, 4);
    /* Busy between the first two reports: none; over the workload: 1 ns a
     * dword at 1 GHz, so at least 100000 clocks. */
    g_assert_cmpuint(a_counter(f, OABUF + 256, 0) -
                     a_counter(f, OABUF, 0), ==, 0);
    g_assert_cmpuint(a_counter(f, OABUF + (n - 1) * 256, 0) -
                     a_counter(f, OABUF + 256, 0), >=, 100000);
}

/* 40-bit A counters: low dword at 16 + 4i, high byte at 160 + i. */
static void test_a40_packing(Fixture *f, gconstpointer data)
{
    oa_open(f, EXPONENT);
    f->gpu->engine[INTEL_RCS0].stats.busy_ns = 0x12345678ABull;
    fake_host_step(f->fh, 2 * 1000000);
    g_assert_cmphex(ram32(f, OABUF + 16), ==, 0x345678AB);
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

        i915_wr(f->gpu, INTEL_OACONTROL, fmt[i].sel << 2);
        g_assert_cmpint(intel_oa_snapshot(&f->gpu->engine[INTEL_RCS0], false,
                                          r, 0x1234), ==, 0);
        g_assert_cmphex(ram32(f, r), ==, 0x1234);
        g_assert_cmpuint(ram32(f, r + 4), ==, 12);      /* 1 us at 12 MHz */
        g_assert_cmphex(ram32(f, r + 8), ==, 0);        /* no context */
        g_assert_cmpuint(ram32(f, r + 12), ==, 1000);   /* GPU ticks */
        for (unsigned k = 0; k < fmt[i].n_a; k++) {
            unsigned n = fmt[i].a_first + k;

            g_assert_cmphex(ram32(f, r + fmt[i].a + 4 * k), ==, 0xa000 + n);
            used += 4;
            if (fmt[i].sel == 5 && n < 32) {
                g_assert_cmphex(f->fh->ram[r + 160 + n], ==, 0x40 + n);
                used++;
            }
        }
        for (unsigned k = 0; fmt[i].b >= 0 && k < 8; k++) {
            g_assert_cmphex(ram32(f, r + fmt[i].b + 4 * k), ==, 0xb000 + k);
            used += 4;
        }
        for (unsigned k = 0; k < fmt[i].n_c; k++) {
            g_assert_cmphex(ram32(f, r + fmt[i].c + 4 * k), ==, 0xc000 + k);
            used += 4;
        }
        /* Everything else in the report is 0, nothing after it written. */
        g_assert_cmpuint(used, ==, fmt[i].size);
        g_assert_cmpmem(f->fh->ram + r + fmt[i].size, 64, zero, 64);
    }
}

/*
 * The Linux 5.x kernel's own ICL test configuration
 * (drivers/gpu/drm/i915/oa/i915_oa_icl.c, contract §9.8) clears other NOA
 * registers under NOA_WRITE_HIGH 0 first, then writes what IGT's TestOa
 * does, less its flexible EU register.
 */
static const IntelRegValue kernel_test_oa_preamble[] = {
    { 0x9884, 0x00000000 }, { 0x9888, 0x10060000 }, { 0x9888, 0x22060000 },
    { 0x9888, 0x16060000 }, { 0x9888, 0x24060000 }, { 0x9888, 0x18060000 },
    { 0x9888, 0x1a060000 }, { 0x9888, 0x12060000 }, { 0x9888, 0x14060000 },
    { 0x9888, 0x10060000 }, { 0x9888, 0x22060000 },
};

/* A few of RenderBasic's NOA writes: its lane routing (the 0x..1f block). */
static const IntelRegValue render_basic_noa[] = {
    { 0x9884, 0x00000003 }, { 0x9888, 0x301f4000 }, { 0x9888, 0x501f2404 },
    { 0x9888, 0x521f0092 }, { 0x9888, 0x541f0024 }, { 0x9888, 0x4e1f2000 },
};

static void load_config(Fixture *f, const IntelRegValue *cfg, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        i915_wr(f->gpu, cfg[i].reg, cfg[i].val);
    }
}

#define LOAD_CONFIG(f, cfg) load_config(f, cfg, G_N_ELEMENTS(cfg))

static uint32_t b_counter(Fixture *f, uint64_t report, unsigned i)
{
    return ram32(f, report + 192 + 4 * i);
}

static uint32_t c_counter(Fixture *f, uint64_t report, unsigned i)
{
    return ram32(f, report + 224 + 4 * i);
}

/* IGT's check of two consecutive TestOa reports (igt-perf.h). */
static void test_oa_check(Fixture *f, uint64_t r0, uint64_t r1)
{
    igt_test_oa_check(f->fh->ram + r0, f->fh->ram + r1);
}

/*
 * IGT's TestOa configuration: its NOA programming selects the test
 * signals, so the B counters come out at the ratios IGT checks between
 * every two reports (contract §9.8).
 */
static void test_cec_test_oa(Fixture *f, gconstpointer data)
{
    LOAD_CONFIG(f, intel_icl_test_oa);
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 3 * 1000000);
    g_assert_cmpuint(reports_written(f), >=, 10);
    for (unsigned k = 0; k + 1 < reports_written(f); k++) {
        uint64_t r = OABUF + k * 256;

        /* Reason timer; the start trigger (threshold 0) has fired. */
        g_assert_cmphex(ram32(f, r) & 0xffff0000, ==, 1u << 19 | 1u << 18);
        test_oa_check(f, r, r + 256);
        /* An idle GT: no engine busy lane (C counters) selected. */
        for (unsigned i = 0; i < 8; i++) {
            g_assert_cmpuint(c_counter(f, r + 256, i), ==, 0);
        }
    }
}

/* The kernel's older test configuration selects the same signals. */
static void test_cec_kernel_test_config(Fixture *f, gconstpointer data)
{
    LOAD_CONFIG(f, kernel_test_oa_preamble);
    load_config(f, intel_icl_test_oa, G_N_ELEMENTS(intel_icl_test_oa) - 1);
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 3 * 1000000);
    g_assert_cmpuint(reports_written(f), >=, 10);
    for (unsigned k = 0; k + 1 < reports_written(f); k++) {
        test_oa_check(f, OABUF + k * 256, OABUF + (k + 1) * 256);
    }
}

/* B3 (lane 3 == 0), B5 (lane 4 == 1) and B7 (lanes 4:3 > 0) over @clocks. */
static void assert_test_lanes(Fixture *f, uint64_t r0, uint64_t r1,
                              bool selected)
{
    uint32_t clocks = ram32(f, r1 + 12) - ram32(f, r0 + 12);
    uint32_t b3 = b_counter(f, r1, 3) - b_counter(f, r0, 3);
    uint32_t b5 = b_counter(f, r1, 5) - b_counter(f, r0, 5);
    uint32_t b7 = b_counter(f, r1, 7) - b_counter(f, r0, 7);

    g_assert_cmpuint(clocks, >, 100);
    if (selected) {
        g_assert_cmpuint(b3, <=, clocks / 2 + 1);
        g_assert_cmpuint(b5, >=, clocks / 3 - 1);
        g_assert_cmpuint(b7, >=, clocks * 2 / 3 - 1);
    } else {            /* every lane low */
        g_assert_cmpuint(b3, ==, clocks);
        g_assert_cmpuint(b5, ==, 0);
        g_assert_cmpuint(b7, ==, 0);
    }
}

/*
 * The NOA mux decides what the B counters compare: nothing without
 * RPM_CONFIG1's NOA enable (i915 clears it when a stream closes), nothing
 * once another metric set's NOA writes replace TestOa's lane routing or
 * when one of TestOa's NOA registers holds another value; TestOa's writes
 * again bring the test signals back.
 */
static void assert_last_two(Fixture *f, bool selected)
{
    unsigned n = reports_written(f);

    g_assert_cmpuint(n, >=, 2);
    assert_test_lanes(f, OABUF + (n - 2) * 256, OABUF + (n - 1) * 256,
                      selected);
}

static void test_noa_selection(Fixture *f, gconstpointer data)
{
    uint64_t p = period_ns(f, EXPONENT);

    LOAD_CONFIG(f, intel_icl_test_oa);
    i915_wr(f->gpu, INTEL_RPM_CONFIG1, 0);
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 3 * p);
    assert_last_two(f, false);

    i915_wr(f->gpu, INTEL_RPM_CONFIG1, INTEL_RPM_CONFIG1_GT_NOA_ENABLE);
    fake_host_step(f->fh, 3 * p);
    assert_last_two(f, true);

    LOAD_CONFIG(f, render_basic_noa);
    fake_host_step(f->fh, 3 * p);
    assert_last_two(f, false);

    /* TestOa with one NOA register at another value: not its selection. */
    for (unsigned i = 0; i < G_N_ELEMENTS(intel_icl_test_oa); i++) {
        i915_wr(f->gpu, intel_icl_test_oa[i].reg,
                intel_icl_test_oa[i].val == 0x0e130056 ? 0x0e130055 :
                intel_icl_test_oa[i].val);
    }
    fake_host_step(f->fh, 3 * p);
    assert_last_two(f, false);

    LOAD_CONFIG(f, intel_icl_test_oa);
    fake_host_step(f->fh, 3 * p);
    assert_last_two(f, true);
}

/* A context switched in or out, as execlists.c's set_ctx_active() does. */
static void engine_active(Fixture *f, IntelEngineId id, bool on)
{
    intel_oa_sync(f->gpu);
    f->gpu->engine[id].ctx_active = on;
}

/*
 * GpuBusyness: RenderBusy is C7, BlitterBusy C3, VeboxBusy C4, Vdbox1 and
 * Vdbox0 C5 and C6, AnyRingBusy B0 (CEC0 "any equal" over lanes 11-15);
 * each counts the GT clocks its engine has a context, exactly.
 */
static void test_gpu_busyness(Fixture *f, gconstpointer data)
{
    static const struct {
        IntelEngineId id;
        unsigned c;
    } lanes[] = {
        { INTEL_RCS0, 7 }, { INTEL_BCS0, 3 }, { INTEL_VECS0, 4 },
        { INTEL_VCS1, 5 }, { INTEL_VCS0, 6 },
    };

    LOAD_CONFIG(f, intel_icl_gpu_busyness);
    oa_open(f, 30);                     /* no timer reports meanwhile */
    fake_host_step(f->fh, 1000);
    for (unsigned k = 0; k < G_N_ELEMENTS(lanes); k++) {
        uint32_t c0[8], b0 = rd(f, INTEL_OAPERF_B(0));

        for (unsigned i = 0; i < 8; i++) {
            c0[i] = rd(f, INTEL_OAPERF_C(i));
        }
        /* Busy 10000 clocks (10 us at 1 GHz), then 500 idle ones. */
        engine_active(f, lanes[k].id, true);
        fake_host_step(f->fh, 10000);
        engine_active(f, lanes[k].id, false);
        fake_host_step(f->fh, 500);
        for (unsigned i = 0; i < 8; i++) {
            g_assert_cmpuint(rd(f, INTEL_OAPERF_C(i)) - c0[i], ==,
                             i == lanes[k].c ? 10000 : 0);
        }
        g_assert_cmpuint(rd(f, INTEL_OAPERF_B(0)) - b0, ==, 10000);
    }
    /* Render and copy busy together, overlapping by 3000 clocks. */
    {
        uint32_t b0 = rd(f, INTEL_OAPERF_B(0));

        engine_active(f, INTEL_RCS0, true);
        fake_host_step(f->fh, 2000);
        engine_active(f, INTEL_BCS0, true);
        fake_host_step(f->fh, 3000);
        engine_active(f, INTEL_RCS0, false);
        fake_host_step(f->fh, 4000);
        engine_active(f, INTEL_BCS0, false);
        g_assert_cmpuint(rd(f, INTEL_OAPERF_B(0)) - b0, ==, 9000);
    }
    /* Without the NOA enable the lanes are low. */
    i915_wr(f->gpu, INTEL_RPM_CONFIG1, 0);
    {
        uint32_t c7 = rd(f, INTEL_OAPERF_C(7));

        engine_active(f, INTEL_RCS0, true);
        fake_host_step(f->fh, 1000);
        g_assert_cmpuint(rd(f, INTEL_OAPERF_C(7)), ==, c7);
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

    i915_wr(f->gpu, INTEL_OACEC(2), 0x3);       /* B1: always */
    i915_wr(f->gpu, INTEL_OACEC(3), 0xffff);
    i915_wr(f->gpu, INTEL_OASTARTTRIG(0), 3 * p / 2);
    i915_wr(f->gpu, INTEL_OASTARTTRIG(1), INTEL_OATRIG_THRESHOLD_ENABLE);
    oa_open(f, 8);
    fake_host_step(f->fh, 2 * 1000000);
    g_assert_cmpuint(reports_written(f), >=, 3);
    /* Reports at p and 2p after GO (GO at 0, a period boundary). */
    g_assert_cmphex(ram32(f, OABUF) & (1u << 18), ==, 0);
    g_assert_cmpuint(b_counter(f, OABUF, 1), ==, 0);
    g_assert_cmphex(ram32(f, OABUF + 256) & (1u << 18), ==, 1u << 18);
    g_assert_cmpuint(b_counter(f, OABUF + 256, 1), ==,
                     ram32(f, OABUF + 256 + 12) - 3 * p / 2);
    g_assert_cmpuint(ram32(f, OABUF + 256 + 224), ==, 0);       /* C0 */
}

/* Report trigger 1: a report every THRESHOLD clocks, reason bit 20. */
static void test_report_trigger(Fixture *f, gconstpointer data)
{
    oa_open(f, 30);                     /* the timer: once in 179 s */
    i915_wr(f->gpu, INTEL_OAREPORTTRIG(0), 50000);
    i915_wr(f->gpu, INTEL_OAREPORTTRIG(1), INTEL_OATRIG_REPORT_ENABLE |
            INTEL_OATRIG_THRESHOLD_ENABLE);
    fake_host_step(f->fh, 1000000 + 100);
    g_assert_cmpuint(reports_written(f), ==, 20);
    for (unsigned k = 0; k < 20; k++) {
        uint64_t r = OABUF + k * 256;

        /* Reason trigger 1, RPT_ID's threshold-enable bit. */
        g_assert_cmphex(ram32(f, r) & 0xfff80000, ==, 1u << 20);
        g_assert_cmphex(ram32(f, r) & (1u << 17), ==, 1u << 17);
        g_assert_cmpuint(ram32(f, r + 12), ==, 50000 * (k + 1));
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

    i915_wr(f->gpu, INTEL_OACEC(2), 0x3);
    i915_wr(f->gpu, INTEL_OACEC(3), 0xffff);
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 2 * p + p / 2);
    i915_wr(f->gpu, INTEL_OACTXCONTROL, EXPONENT << 2 | 2);
    n = reports_written(f);
    g_assert_cmpuint(n, ==, 3);
    g_assert_cmphex(ram32(f, OABUF + 2 * 256) >> 19, ==, 1u << 4);
    g_assert_cmpuint(b_counter(f, OABUF + 2 * 256, 1), ==,
                     ram32(f, OABUF + 2 * 256 + 12));
    fake_host_step(f->fh, 1000000);
    n = reports_written(f);
    g_assert_cmpuint(n, >, 3);
    g_assert_cmphex(ram32(f, OABUF + (n - 1) * 256) >> 19, ==, 1);
    g_assert_cmpuint(b_counter(f, OABUF + (n - 1) * 256, 1), ==,
                     b_counter(f, OABUF + 2 * 256, 1));
    /* OA_DEBUG can turn GO reports off. */
    i915_wr(f->gpu, INTEL_OACTXCONTROL, EXPONENT << 2 | 2 | 1);
    i915_wr(f->gpu, INTEL_OA_DEBUG, INTEL_OA_DEBUG_NO_GO_REPORTS << 16 |
            INTEL_OA_DEBUG_NO_GO_REPORTS);
    i915_wr(f->gpu, INTEL_OACTXCONTROL, EXPONENT << 2 | 2);
    g_assert_cmpuint(reports_written(f), ==, n);
}

/* A counter wrapping its 32 bits between reports: OASTATUS bit 2. */
static void test_counter_overflow(Fixture *f, gconstpointer data)
{
    i915_wr(f->gpu, INTEL_OACEC(2), 0x3);
    i915_wr(f->gpu, INTEL_OACEC(3), 0xffff);
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
    f->gpu->oa.count.b[1] = 0xffffffffull - 1000;
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==,
                    INTEL_OASTATUS_COUNTER_OVERFLOW);
    /* i915 clears it by writing 0. */
    i915_wr(f->gpu, INTEL_OASTATUS, 0);
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

    i915_wr(f->gpu, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    i915_wr(f->gpu, INTEL_GPM_WGBOXPERF_INTR_ENABLE, 1u << 12);
    i915_wr(f->gpu, INTEL_GPM_WGBOXPERF_INTR_MASK, 0);
    oa_open(f, 4);
    fake_host_step(f->fh, (half - 2) * p);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 20);
    g_assert_true(f->fh->irq);

    /* Masked in OA_IMR: a second crossing raises nothing. */
    i915_wr(f->gpu, INTEL_GT_INTR_DW(0), 1u << 20);
    i915_wr(f->gpu, INTEL_OA_IMR, INTEL_OA_IMR_BUFFER_HALF_FULL);
    i915_wr(f->gpu, INTEL_OAHEADPTR, rd(f, INTEL_OATAILPTR));
    fake_host_step(f->fh, 2 * 1000000);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);
}

/*
 * Thread dispatch: a 3DPRIMITIVE of 100 vertices x 3 instances is 38
 * SIMD8 vertex-shader threads (A1); a GPGPU_WALKER of 4x2x1 groups of 16
 * threads is 128 GPGPU threads (A4).
 */
static void test_thread_counters(Fixture *f, gconstpointer data)
{
    static const uint32_t cmds[] = {
        0x7b000005, 0, 100, 0, 3, 0, 0,                 /* 3DPRIMITIVE */
        0x7105000d, 0, 0, 0, 15, 0, 0, 4, 0, 0, 2, 0, 1, ~0u, ~0u,
        0x05000000,                                     /* MI_BB_END */
    };

    oa_open(f, 16);
    run_batch(f, cmds, G_N_ELEMENTS(cmds));
    fake_host_step(f->fh, 1000000);
    g_assert_cmpint(intel_oa_snapshot(&f->gpu->engine[INTEL_RCS0], false,
                                      SNAP, 0), ==, 0);
    g_assert_cmpuint(ram32(f, SNAP + 16 + 4 * 1), ==, 38);
    g_assert_cmpuint(ram32(f, SNAP + 16 + 4 * 4), ==, 128);
}

/*
 * Two reports within one GT clock carry the same counters: IGT's TestOa
 * check bounds every A counter's delta by GPU_TICKS' delta x EUs, 0 when
 * both reports fall on one clock.  At 300 MHz a clock is 3.3 ns; snapshots
 * 1 ns apart while a GPGPU walker keeps the EUs and the engine busy.
 */
static void test_same_clock_reports(Fixture *f, gconstpointer data)
{
    static const uint32_t ctl[7] = { 0x00005004 };
    static const uint32_t cmds[] = {
        0x7105000d, 0, 0, 0, 63, 0, 0, 64, 0, 0, 64, 0, 1, ~0u, ~0u,
        0x05000000,
    };
    IntelEngine *rcs = &f->gpu->engine[INTEL_RCS0];
    unsigned same = 0, moved = 0;

    for (unsigned r = 0; r < 7; r++) {
        i915_wr(f->gpu, r < 4 ? INTEL_EU_PERF_CNTL0 + 0x100 * r :
                INTEL_EU_PERF_CNTL4 + 0x100 * (r - 4), ctl[r]);
    }
    i915_wr(f->gpu, INTEL_RPNSWREQ, 18u << INTEL_RPS_FREQ_SHIFT);
    oa_open(f, 30);
    fake_host_step(f->fh, 1000);
    run_batch(f, cmds, G_N_ELEMENTS(cmds));
    fake_host_step(f->fh, 20000 + 7);
    for (unsigned i = 0; i < 30; i++) {
        uint64_t r0 = SNAP, r1 = SNAP + 256;

        g_assert_cmpint(intel_oa_snapshot(rcs, false, r0, 0), ==, 0);
        f->fh->now_ns++;
        g_assert_cmpint(intel_oa_snapshot(rcs, false, r1, 0), ==, 0);
        if (ram32(f, r1 + 12) == ram32(f, r0 + 12)) {
            g_assert_cmpmem(f->fh->ram + r0 + 16, 240,
                            f->fh->ram + r1 + 16, 240);
            same++;
        } else {
            moved += a_counter(f, r1, 0) != a_counter(f, r0, 0);
        }
    }
    /* 2 in 3 pairs share a clock; the engine was busy throughout. */
    g_assert_cmpuint(same, >=, 15);
    g_assert_cmpuint(moved, >=, 5);
}

/* MI_REPORT_PERF_COUNT: a report in the current format at the address. */
static void test_report_perf_count(Fixture *f, gconstpointer data)
{
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 1000000);
    put(f, RING, 0x14000002);           /* MI_REPORT_PERF_COUNT, 4 dw */
    put(f, RING + 4, SNAP | 1);         /* GGTT */
    put(f, RING + 8, 0);
    put(f, RING + 12, 0xbeef);
    run_ring(f, 4);
    fake_host_step(f->fh, 1000);
    g_assert_cmphex(ram32(f, SNAP), ==, 0xbeef);
    /* The timestamp of now (1 ms = 12000 ticks), GPU ticks at 1 GHz. */
    g_assert_cmpuint(ram32(f, SNAP + 4), ==, 12000);
    g_assert_cmpuint(ram32(f, SNAP + 12), ==, 1000000);
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
    i915_wr(f->gpu, INTEL_OAREPORTTRIG(1), INTEL_OATRIG_THRESHOLD_ENABLE);
    /* gen8_enable_metric_set on Gen9-11. */
    i915_wr(f->gpu, INTEL_OA_DEBUG,
            (INTEL_OA_DEBUG_NO_CLK_RATIO_REPORTS |
             INTEL_OA_DEBUG_INCLUDE_CLK_RATIO) * 0x10001);
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 1000000);

    /* From a ring (no context loaded). */
    put(f, RING, 0x14000002);           /* MI_REPORT_PERF_COUNT, 4 dw */
    put(f, RING + 4, SNAP | 1);         /* GGTT */
    put(f, RING + 8, 0);
    put(f, RING + 12, ids[0]);
    run_ring(f, 4);
    fake_host_step(f->fh, 1000);
    g_assert_cmphex(ram32(f, SNAP), ==, ids[0]);
    g_assert_cmphex(rd(f, INTEL_RCS0_BASE + INTEL_RING_ESR), ==, 0);

    /* With a render context, beside a timer report that has every flag. */
    engine_active(f, INTEL_RCS0, true);
    for (unsigned i = 1; i < G_N_ELEMENTS(ids); i++) {
        g_assert_cmpint(intel_oa_snapshot(&f->gpu->engine[INTEL_RCS0], false,
                                          SNAP + 256 * i, ids[i]), ==, 0);
        g_assert_cmphex(ram32(f, SNAP + 256 * i), ==, ids[i]);
    }
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(ram32(f, OABUF + (reports_written(f) - 1) * 256), ==,
                    1u << 19 | flags);
}

/* RPNSWREQ as i915's gen6_rps_set writes it on Gen9+. */
static void rps_request(Fixture *f, uint32_t ratio)
{
    i915_wr(f->gpu, INTEL_RPNSWREQ, ratio << INTEL_RPS_FREQ_SHIFT);
}

static unsigned find_reason(Fixture *f, unsigned from, uint32_t reason)
{
    for (unsigned k = from; k < reports_written(f); k++) {
        if ((ram32(f, OABUF + k * 256) >> 19 & 0x3f) == reason) {
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
    i915_wr(f->gpu, INTEL_OA_DEBUG, INTEL_OA_DEBUG_INCLUDE_CLK_RATIO << 16 |
            INTEL_OA_DEBUG_INCLUDE_CLK_RATIO);
    fake_host_step(f->fh, 1000000 + p / 2);
    n = reports_written(f);
    /* 60 = 0b0111100: bits 31:25 and 8:0 of RPT_ID. */
    g_assert_cmphex(ram32(f, OABUF) & 0xfe0007ff, ==, 60u << 25 | 60);

    rps_request(f, 33);                                 /* 550 MHz */
    g_assert_cmphex(rd(f, INTEL_RPSTAT1), ==, 33u << 23);
    /* Written after the reports due before the change, at once. */
    k = reports_written(f) - 1;
    g_assert_cmpuint(k, >=, n);
    g_assert_cmpuint(find_reason(f, 0, 1u << 5), ==, k);
    g_assert_cmphex(ram32(f, OABUF + k * 256) & 0xfe0007ff, ==,
                    33u << 25 | 33);
    fake_host_step(f->fh, 2 * 1000000);
    g_assert_cmpuint(reports_written(f), >=, k + 10);
    for (unsigned i = k + 1; i + 1 < reports_written(f); i++) {
        uint64_t r = OABUF + i * 256;
        uint32_t d = ram32(f, r + 256 + 12) - ram32(f, r + 12);

        g_assert_cmphex(ram32(f, r) >> 19 & 0x3f, ==, 1);
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
    i915_wr(f->gpu, INTEL_OA_DEBUG,
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
    i915_wr(f->gpu, INTEL_OAREPORTTRIG(0), 50000);      /* 100 us */
    i915_wr(f->gpu, INTEL_OAREPORTTRIG(1), INTEL_OATRIG_REPORT_ENABLE |
            INTEL_OATRIG_THRESHOLD_ENABLE);
    fake_host_step(f->fh, 1000000 + 100);
    g_assert_cmpuint(reports_written(f), ==, 10);
    for (unsigned k = 0; k + 1 < 10; k++) {
        g_assert_cmpuint(ram32(f, OABUF + (k + 1) * 256 + 12) -
                         ram32(f, OABUF + k * 256 + 12), ==, 50000);
        g_assert_cmpuint(ram32(f, OABUF + (k + 1) * 256 + 4) -
                         ram32(f, OABUF + k * 256 + 4), ==, 1200);
    }
}

/*
 * The readable counter registers (OAPERF_A*, B, C, GPU_TICKS, the
 * free-running A4) read what a report taken at the same time carries.
 */
static void test_counter_registers(Fixture *f, gconstpointer data)
{
    static const uint32_t cmds[] = {
        0x7105000d, 0, 0, 0, 15, 0, 0, 4, 0, 0, 2, 0, 1, ~0u, ~0u,
        0x05000000,
    };

    i915_wr(f->gpu, INTEL_OACEC(2), 0x3);       /* B1: always */
    i915_wr(f->gpu, INTEL_OACEC(3), 0xffff);
    oa_open(f, 16);
    f->gpu->oa.count.a[0] = 0x2300000000ull;    /* past 32 bits */
    run_batch(f, cmds, G_N_ELEMENTS(cmds));
    fake_host_step(f->fh, 1000000 + 777);
    g_assert_cmpint(intel_oa_snapshot(&f->gpu->engine[INTEL_RCS0], false,
                                      SNAP, 0), ==, 0);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(0)), ==, a_counter(f, SNAP, 0));
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(0) + 4), ==,
                     f->fh->ram[SNAP + 160]);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(0) + 4), ==, 0x23);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(4)), ==, 128);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(4)), ==, a_counter(f, SNAP, 4));
    g_assert_cmpuint(rd(f, INTEL_OAPERF_GPU_TICKS), ==, ram32(f, SNAP + 12));
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmpuint(rd(f, INTEL_OAPERF_B(i)), ==,
                         ram32(f, SNAP + 192 + 4 * i));
        g_assert_cmpuint(rd(f, INTEL_OAPERF_C(i)), ==,
                         ram32(f, SNAP + 224 + 4 * i));
    }
    g_assert_cmpuint(rd(f, INTEL_OAPERF_B(1)), ==, 1000777);
    /* Free-running A4 counts with OA off too; counters do not. */
    i915_wr(f->gpu, INTEL_OACONTROL, 0);
    run_ring(f, 4);
    fake_host_step(f->fh, 1000000);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_FREE(0)), ==, 256);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(4)), ==, 128);
    /* Read-only. */
    i915_wr(f->gpu, INTEL_OAPERF_B(1), 5);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_B(1)), ==, 1000777);
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
    g_assert_cmphex(ram32(f, tail0) >> 19, ==, 1);
    fake_host_step(f->fh, 1000000 + 1);
    n = reports_written(f);
    g_assert_cmpuint(n, >=, (4000000 - p) / p);
    for (unsigned i = 0; i + 1 < n; i++) {
        g_assert_cmpuint(ram32(f, OABUF + (i + 1) * 256 + 4) -
                         ram32(f, OABUF + i * 256 + 4), ==, 2u << EXPONENT);
    }
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
    g_assert_false(f->gpu->oa.tail_stalled);

    /* Without a duration until ended; software moving the tail (i915's
     * buffer re-init) moves the write position. */
    intel_oa_drill_tail_stall(f->gpu, true, 0);
    i915_wr(f->gpu, INTEL_OAHEADPTR, OABUF);
    i915_wr(f->gpu, INTEL_OATAILPTR, OABUF);
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
        uint32_t d = ram32(f, OABUF + (i + 1) * 256 + 4) -
                     ram32(f, OABUF + i * 256 + 4);

        g_assert_true(d == 2u << EXPONENT || d == 4u << EXPONENT);
        gaps += d == 4u << EXPONENT;
    }
    g_assert_cmpuint(gaps, ==, 1);
    /* gen8_oa_read's restart: OA off, buffer re-initialised, OA on. */
    i915_wr(f->gpu, INTEL_OACONTROL, 0);
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 2 * 1000000);
    g_assert_cmphex(rd(f, INTEL_OASTATUS), ==, 0);
    n = reports_written(f);
    g_assert_cmpuint(n, >=, 10);
    for (unsigned i = 0; i + 1 < n; i++) {
        g_assert_cmpuint(ram32(f, OABUF + (i + 1) * 256 + 4) -
                         ram32(f, OABUF + i * 256 + 4), ==, 2u << EXPONENT);
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
    intel_oa_context_switch(f->gpu);
    fake_host_step(f->fh, 2 * 1000000);
    n = reports_written(f);
    g_assert_cmpuint(find_reason(f, 0, 1u << 3), <, n);
    for (unsigned i = 0; i + 1 < n; i++) {
        g_assert_cmpint((int32_t)(ram32(f, OABUF + (i + 1) * 256 + 4) -
                                  ram32(f, OABUF + i * 256 + 4)), >=, 0);
    }
}

/* EU_PERF_CNT_CTL0-6: A7 + 2r from bits 11:0 of register r, A8 + 2r 23:12. */
static void flex_program(Fixture *f, const uint32_t *ctl)
{
    for (unsigned r = 0; r < 7; r++) {
        i915_wr(f->gpu, r < 4 ? INTEL_EU_PERF_CNTL0 + 0x100 * r :
                INTEL_EU_PERF_CNTL4 + 0x100 * (r - 4), ctl[r]);
    }
}

/*
 * Flexible EU events over the modelled threads: each thread is a 64-clock
 * kernel with FPU0 active 32 clocks (8 ternary, 16 binary, 8 mov), FPU1
 * 16 (8 of them beside FPU0), send 8 (2 messages), some pipe 48, a stall
 * 16; the row filters take half the EUs, the EU-number filters a quarter;
 * the threads-loaded integrator pulses every 8 thread clocks.
 */
static void test_flex_eu_counters(Fixture *f, gconstpointer data)
{
    static const uint32_t ctl[7] = {
        0x00005004,     /* A7 some pipe active, A8 stall (RenderBasic) */
        0x00010003,     /* A9 FPU0+FPU1, A10 FPU0 of VS threads */
        0x00062008,     /* A11 occupancy, A12 send of TS (GPGPU) threads */
        0x00702200,     /* A13 FPU0 ternary, A14 send on EU #0 */
        0x00074504,     /* A15 sends started, A16 some pipe on row 0 */
        0x00014023,     /* A17 both FPUs of HS, A18 some pipe of VS: */
                        /* filters the PRM does not support: nothing */
        0xffffffff,     /* A19, A20 no event */
    };
    static const uint64_t want[14] = {
        /* 1024 GPGPU + 100 VS threads: 71936 thread clocks */
        53952, 17984, 8992, 3200, 8992, 8192, 8992, 2248, 2248, 26976,
        0, 0, 0, 0,
    };
    static const uint32_t cmds[] = {
        0x7b000005, 0, 800, 0, 1, 0, 0,                 /* 100 VS threads */
        0x7105000d, 0, 0, 0, 63, 0, 0, 4, 0, 0, 4, 0, 1, ~0u, ~0u,
        0x05000000,
    };

    flex_program(f, ctl);
    oa_open(f, 16);
    run_batch(f, cmds, G_N_ELEMENTS(cmds));
    fake_host_step(f->fh, 1000000);
    g_assert_cmpint(intel_oa_snapshot(&f->gpu->engine[INTEL_RCS0], false,
                                      SNAP, 0), ==, 0);
    g_assert_cmpuint(a_counter(f, SNAP, 4), ==, 1024);
    for (unsigned k = 0; k < 14; k++) {
        g_assert_cmpuint(a_counter(f, SNAP, 7 + k), ==, want[k]);
        /* The readable registers agree. */
        g_assert_cmpuint(rd(f, INTEL_OAPERF_A(7 + k)), ==, want[k]);
    }

    /*
     * A new selection counts from now on: what counted stays.  The
     * free-running A19 and A20 take all EU work since reset under theirs.
     */
    i915_wr(f->gpu, INTEL_EU_PERF_CNTL4 + 0x200, 0x00001000);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(19)), ==, 0);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_FREE(2)), ==, 71936 / 2);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_FREE(3)), ==, 71936 / 4);
    run_batch(f, cmds, G_N_ELEMENTS(cmds));
    fake_host_step(f->fh, 1000000);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(7)), ==, 2 * want[0]);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(19)), ==, 71936 / 2);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(20)), ==, 71936 / 4);
}

/*
 * EU work takes engine time and is counted at that pace: 262144 GPGPU
 * threads on 64 EUs keep the engine busy 262144 GT clocks (262 us at the
 * model's 1 GHz).  Periodic reports meanwhile see A0 and "some pipe
 * active" grow with the clock, never past what 64 EUs can do; the next
 * submission runs only after the work is done.
 */
static void test_eu_work_pacing(Fixture *f, gconstpointer data)
{
    static const uint32_t ctl[7] = { 0x00005004 };
    static const uint32_t cmds[] = {
        0x7105000d, 0, 0, 0, 63, 0, 0, 64, 0, 0, 64, 0, 1, ~0u, ~0u,
        0x05000000,
    };
    uint64_t busy = 262144, t0 = f->fh->now_ns;
    unsigned n, inside = 0;

    flex_program(f, ctl);
    oa_open(f, 6);                      /* 128 ticks: 10.7 us */
    run_batch(f, cmds, G_N_ELEMENTS(cmds));
    /* Then a store, submitted at once after the batch. */
    put(f, RING + 12, 0x10400002);      /* MI_STORE_DATA_IMM, GGTT */
    put(f, RING + 16, SNAP);
    put(f, RING + 20, 0);
    put(f, RING + 24, 0x600d);
    put(f, RING + 28, 0);               /* MI_NOOP: TAIL is qword aligned */
    fake_host_step(f->fh, 1000);
    i915_wr(f->gpu, INTEL_RCS0_BASE + INTEL_RING_TAIL, 32);
    fake_host_step(f->fh, busy / 2);
    g_assert_cmphex(ram32(f, SNAP), ==, 0);
    fake_host_step(f->fh, busy);
    g_assert_cmphex(ram32(f, SNAP), ==, 0x600d);

    n = reports_written(f);
    for (unsigned i = 0; i + 1 < n; i++) {
        uint64_t r = OABUF + i * 256, ts = ram32(f, r + 4);
        uint32_t clocks = ram32(f, r + 256 + 12) - ram32(f, r + 12);
        uint32_t active = a_counter(f, r + 256, 7) - a_counter(f, r, 7);
        uint32_t gt_busy = a_counter(f, r + 256, 0) - a_counter(f, r, 0);

        g_assert_cmpuint(active, <=, 48 * clocks + 48);
        g_assert_cmpuint(gt_busy, <=, clocks + 1);
        /* Reports wholly inside the walker's time: fully busy. */
        if (ts * 1000 / 12 > t0 + 2000 &&
            (ts + 128) * 1000 / 12 + 2000 < t0 + busy) {
            g_assert_cmpuint(active, >=, 48 * clocks - 48);
            g_assert_cmpuint(gt_busy, >=, clocks - 1);
            inside++;
        }
    }
    g_assert_cmpuint(inside, >=, 20);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(7)), ==, 262144 * 48);
}

/*
 * The work in flight is GT clocks: when the GT slows from 1 GHz to 300
 * MHz a third of the way into a walker, the rest takes 3.3 times longer,
 * and no report sees more than the clocks allow, however the frequency
 * moves.
 */
static void test_eu_work_frequency_change(Fixture *f, gconstpointer data)
{
    static const uint32_t ctl[7] = { 0x00005004 };
    static const uint32_t cmds[] = {
        0x7105000d, 0, 0, 0, 63, 0, 0, 64, 0, 0, 64, 0, 1, ~0u, ~0u,
        0x05000000,
    };
    unsigned n;

    flex_program(f, ctl);
    oa_open(f, 6);
    run_batch(f, cmds, G_N_ELEMENTS(cmds));
    fake_host_step(f->fh, 87000);
    rps_request(f, 18);                 /* 300 MHz */
    fake_host_step(f->fh, 500000);
    /* 87 us of 1 GHz clocks done, 175144 clocks left: 584 us at 300 MHz. */
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(7)), <, 262144 * 48);
    fake_host_step(f->fh, 100000);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(7)), ==, 262144 * 48);

    fake_host_step(f->fh, 1000000);     /* the reports due are written */
    /*
     * Then walkers every 80 us, under ten frequency changes each between
     * 300 and 1100 MHz, mostly while earlier work is still in flight.
     */
    for (unsigned j = 0; j < 100; j++) {
        run_batch(f, cmds, G_N_ELEMENTS(cmds));
        for (unsigned k = 0; k < 10; k++) {
            fake_host_step(f->fh, 7000 + 1000 * (k % 3));
            rps_request(f, 18 + (j * 7 + k * 13) % 48);
        }
    }
    fake_host_step(f->fh, 1000000);
    n = reports_written(f);
    g_assert_cmpuint(n, >, 500);
    for (unsigned i = 0; i + 1 < n; i++) {
        uint64_t r = OABUF + i * 256;
        uint32_t clocks = ram32(f, r + 256 + 12) - ram32(f, r + 12);

        /* Within two clocks of rounding. */
        g_assert_cmpuint(a_counter(f, r + 256, 7) - a_counter(f, r, 7), <=,
                         48 * clocks + 96);
        g_assert_cmpuint(a_counter(f, r + 256, 0) - a_counter(f, r, 0), <=,
                         clocks + 2);
    }
    /* Resubmitting the ring drops what has not started: all done is. */
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(4)), >=, 10 * 262144);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(7)), ==,
                     48ull * rd(f, INTEL_OAPERF_A(4)));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
#define ADD(path, fn) \
    g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
    ADD("/intel/oa/periodic", test_periodic);
    ADD("/intel/oa/overflow", test_overflow);
    ADD("/intel/oa/reader-sees-due-reports", test_reader_sees_due_reports);
    ADD("/intel/oa/full-buffer-drops-due", test_full_buffer_drops_due);
    ADD("/intel/oa/same-clock-reports", test_same_clock_reports);
    ADD("/intel/oa/busy-counter", test_busy_counter);
    ADD("/intel/oa/a40-packing", test_a40_packing);
    ADD("/intel/oa/report-perf-count", test_report_perf_count);
    ADD("/intel/oa/report-id", test_report_id);
    ADD("/intel/oa/formats", test_formats);
    ADD("/intel/oa/cec-test-oa", test_cec_test_oa);
    ADD("/intel/oa/cec-kernel-test-config", test_cec_kernel_test_config);
    ADD("/intel/oa/noa-selection", test_noa_selection);
    ADD("/intel/oa/gpu-busyness", test_gpu_busyness);
    ADD("/intel/oa/start-trigger", test_start_trigger);
    ADD("/intel/oa/report-trigger", test_report_trigger);
    ADD("/intel/oa/go-transition", test_go_transition);
    ADD("/intel/oa/counter-overflow", test_counter_overflow);
    ADD("/intel/oa/half-full-irq", test_half_full_irq);
    ADD("/intel/oa/thread-counters", test_thread_counters);
    ADD("/intel/oa/frequency-change", test_frequency_change);
    ADD("/intel/oa/trigger-follows-frequency",
        test_trigger_follows_frequency);
    ADD("/intel/oa/counter-registers", test_counter_registers);
    ADD("/intel/oa/drill-tail-stall", test_drill_tail_stall);
    ADD("/intel/oa/drill-overflow", test_drill_overflow);
    ADD("/intel/oa/event-report-order", test_event_report_order);
    ADD("/intel/oa/flex-eu-counters", test_flex_eu_counters);
    ADD("/intel/oa/eu-work-pacing", test_eu_work_pacing);
    ADD("/intel/oa/eu-work-frequency-change", test_eu_work_frequency_change);
    return g_test_run();
}
