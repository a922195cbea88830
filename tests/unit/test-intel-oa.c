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
#include "intel-i915.h"

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
    /* The render engine did it all; the copy engine did nothing. */
    g_assert_cmpuint(a_counter(f, OABUF + (n - 1) * 256, 1), ==,
                     a_counter(f, OABUF + (n - 1) * 256, 0));
    g_assert_cmpuint(a_counter(f, OABUF + (n - 1) * 256, 2), ==, 0);
}

/* 40-bit A counters: low dword at 16 + 4i, high byte at 160 + i. */
static void test_a40_packing(Fixture *f, gconstpointer data)
{
    f->gpu->engine[INTEL_RCS0].stats.busy_ns = 0x12345678ABull;
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 2 * 1000000);
    g_assert_cmphex(ram32(f, OABUF + 16), ==, 0x345678AB);
    g_assert_cmphex(f->fh->ram[OABUF + 160], ==, 0x12);
    g_assert_cmphex(ram32(f, OABUF + 20), ==, 0x345678AB);   /* A1 */
    g_assert_cmphex(f->fh->ram[OABUF + 161], ==, 0x12);
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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
#define ADD(path, fn) \
    g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
    ADD("/intel/oa/periodic", test_periodic);
    ADD("/intel/oa/overflow", test_overflow);
    ADD("/intel/oa/busy-counter", test_busy_counter);
    ADD("/intel/oa/a40-packing", test_a40_packing);
    ADD("/intel/oa/report-perf-count", test_report_perf_count);
    return g_test_run();
}
