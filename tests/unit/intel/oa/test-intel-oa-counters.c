/*
 * Unit tests of what the intel-gpu OA counters count: the GT busy
 * counter, the B and C counters under IGT's and the kernel's NOA
 * configurations, engine busyness, threads, the readable counter
 * registers and the flexible EU counters, with the work paced as the EUs
 * would run it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-oa-test.h"
#include "igt-perf.h"

/* EU_PERF_CNT_CTL0-6: A7 + 2r from bits 11:0 of register r, A8 + 2r 23:12. */
static void flex_program(Fixture *f, const uint32_t *ctl)
{
    for (unsigned r = 0; r < 7; r++) {
        wr(f, r < 4 ? INTEL_EU_PERF_CNTL0 + 0x100 * r :
                INTEL_EU_PERF_CNTL4 + 0x100 * (r - 4), ctl[r]);
    }
}

/* A7 "some pipe active", A8 stall (RenderBasic's first flexible pair). */
static const uint32_t some_pipe_ctl[7] = { 0x00005004 };

/* A GPGPU_WALKER of @x x @y groups of @threads threads, then the end. */
static void run_walker(Fixture *f, uint32_t threads, uint32_t x, uint32_t y)
{
    uint32_t cmds[WALKER_DWORDS + 1], *p = pack_walker(cmds, threads, x, y);

    *p++ = MI_BATCH_BUFFER_END;
    run_batch(f, cmds, p - cmds);
}

/* A0 (GT busy) moves with executed work and stands still when idle. */
static void test_busy_counter(Fixture *f, gconstpointer data)
{
    uint64_t p = period_ns(f, 16);      /* 10.9 ms */
    unsigned n;

    oa_open(f, 16);
    fake_host_step(f->fh, 2 * p + 1000);
    /* 100000 MI_NOOPs, then the two next reports. */
    ram_w32(f, BATCH + 100000 * 4, MI_BATCH_BUFFER_END);
    run_batch(f, NULL, 0);
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

/*
 * The Linux 5.x kernel's own ICL test configuration
 * (drivers/gpu/drm/i915/oa/i915_oa_icl.c) clears other NOA registers
 * under NOA_WRITE_HIGH 0 first, then writes what IGT's TestOa does, less
 * its flexible EU register.
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

static uint32_t c_counter(Fixture *f, uint64_t report, unsigned i)
{
    return ram_r32(f, report + 224 + 4 * i);
}

/* IGT's check of two consecutive TestOa reports (igt-perf.h). */
static void test_oa_check(Fixture *f, uint64_t r0, uint64_t r1)
{
    igt_test_oa_check(f->fh->ram + r0, f->fh->ram + r1);
}

/*
 * IGT's TestOa configuration: its NOA programming selects the test
 * signals, so the B counters come out at the ratios IGT checks between
 * every two reports (IGT's tests/i915/perf.c).
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
        g_assert_cmphex(ram_r32(f, r) & 0xffff0000, ==, 1u << 19 | 1u << 18);
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
    uint32_t clocks = ram_r32(f, r1 + 12) - ram_r32(f, r0 + 12);
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
    wr(f, INTEL_RPM_CONFIG1, 0);
    oa_open(f, EXPONENT);
    fake_host_step(f->fh, 3 * p);
    assert_last_two(f, false);

    wr(f, INTEL_RPM_CONFIG1, INTEL_RPM_CONFIG1_GT_NOA_ENABLE);
    fake_host_step(f->fh, 3 * p);
    assert_last_two(f, true);

    LOAD_CONFIG(f, render_basic_noa);
    fake_host_step(f->fh, 3 * p);
    assert_last_two(f, false);

    /* TestOa with one NOA register at another value: not its selection. */
    for (unsigned i = 0; i < G_N_ELEMENTS(intel_icl_test_oa); i++) {
        wr(f, intel_icl_test_oa[i].reg,
                intel_icl_test_oa[i].val == 0x0e130056 ? 0x0e130055 :
                intel_icl_test_oa[i].val);
    }
    fake_host_step(f->fh, 3 * p);
    assert_last_two(f, false);

    LOAD_CONFIG(f, intel_icl_test_oa);
    fake_host_step(f->fh, 3 * p);
    assert_last_two(f, true);
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
    wr(f, INTEL_RPM_CONFIG1, 0);
    {
        uint32_t c7 = rd(f, INTEL_OAPERF_C(7));

        engine_active(f, INTEL_RCS0, true);
        fake_host_step(f->fh, 1000);
        g_assert_cmpuint(rd(f, INTEL_OAPERF_C(7)), ==, c7);
    }
}

/*
 * Thread dispatch: a 3DPRIMITIVE of 100 vertices x 3 instances is 38
 * SIMD8 vertex-shader threads (A1); a GPGPU_WALKER of 4x2x1 groups of 16
 * threads is 128 GPGPU threads (A4).
 */
static void test_thread_counters(Fixture *f, gconstpointer data)
{
    uint32_t cmds[PRIMITIVE_DWORDS + WALKER_DWORDS + 1], *p = cmds;

    p = pack_primitive(p, 100, 3);
    p = pack_walker(p, 16, 4, 2);
    *p++ = MI_BATCH_BUFFER_END;
    oa_open(f, 16);
    run_batch(f, cmds, p - cmds);
    fake_host_step(f->fh, 1000000);
    g_assert_cmpint(oa_snapshot(&f->gpu->engine[INTEL_RCS0], false,
                                SNAP, 0), ==, 0);
    g_assert_cmpuint(ram_r32(f, SNAP + 16 + 4 * 1), ==, 38);
    g_assert_cmpuint(ram_r32(f, SNAP + 16 + 4 * 4), ==, 128);
}

/*
 * Two reports within one GT clock carry the same counters: IGT's TestOa
 * check bounds every A counter's delta by GPU_TICKS' delta x EUs, 0 when
 * both reports fall on one clock.  At 300 MHz a clock is 3.3 ns; snapshots
 * 1 ns apart while a GPGPU walker keeps the EUs and the engine busy.
 */
static void test_same_clock_reports(Fixture *f, gconstpointer data)
{
    IntelEngine *rcs = &f->gpu->engine[INTEL_RCS0];
    unsigned same = 0, moved = 0;

    flex_program(f, some_pipe_ctl);
    rps_request(f, 18);
    oa_open(f, 30);
    fake_host_step(f->fh, 1000);
    run_walker(f, 64, 64, 64);
    fake_host_step(f->fh, 20000 + 7);
    for (unsigned i = 0; i < 30; i++) {
        uint64_t r0 = SNAP, r1 = SNAP + 256;

        g_assert_cmpint(oa_snapshot(rcs, false, r0, 0), ==, 0);
        f->fh->now_ns++;
        g_assert_cmpint(oa_snapshot(rcs, false, r1, 0), ==, 0);
        if (ram_r32(f, r1 + 12) == ram_r32(f, r0 + 12)) {
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

/*
 * The readable counter registers (OAPERF_A*, B, C, GPU_TICKS, the
 * free-running A4) read what a report taken at the same time carries.
 */
static void test_counter_registers(Fixture *f, gconstpointer data)
{
    wr(f, INTEL_OACEC(2), 0x3);       /* B1: always */
    wr(f, INTEL_OACEC(3), 0xffff);
    oa_open(f, 16);
    f->gpu->oa.count.a[0] = 0x2300000000ull;    /* past 32 bits */
    run_walker(f, 16, 4, 2);
    fake_host_step(f->fh, 1000000 + 777);
    g_assert_cmpint(oa_snapshot(&f->gpu->engine[INTEL_RCS0], false,
                                SNAP, 0), ==, 0);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(0)), ==, a_counter(f, SNAP, 0));
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(0) + 4), ==,
                     f->fh->ram[SNAP + 160]);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(0) + 4), ==, 0x23);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(4)), ==, 128);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(4)), ==, a_counter(f, SNAP, 4));
    g_assert_cmpuint(rd(f, INTEL_OAPERF_GPU_TICKS), ==, ram_r32(f, SNAP + 12));
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmpuint(rd(f, INTEL_OAPERF_B(i)), ==,
                         ram_r32(f, SNAP + 192 + 4 * i));
        g_assert_cmpuint(rd(f, INTEL_OAPERF_C(i)), ==,
                         ram_r32(f, SNAP + 224 + 4 * i));
    }
    g_assert_cmpuint(rd(f, INTEL_OAPERF_B(1)), ==, 1000777);
    /* Free-running A4 counts with OA off too; counters do not. */
    wr(f, INTEL_OACONTROL, 0);
    run_ring(f, 4);
    fake_host_step(f->fh, 1000000);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_FREE(0)), ==, 256);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(4)), ==, 128);
    /* Read-only. */
    wr(f, INTEL_OAPERF_B(1), 5);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_B(1)), ==, 1000777);
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
    uint32_t cmds[PRIMITIVE_DWORDS + WALKER_DWORDS + 1], *p = cmds;

    p = pack_primitive(p, 800, 1);                  /* 100 VS threads */
    p = pack_walker(p, 64, 4, 4);
    *p++ = MI_BATCH_BUFFER_END;
    flex_program(f, ctl);
    oa_open(f, 16);
    run_batch(f, cmds, p - cmds);
    fake_host_step(f->fh, 1000000);
    g_assert_cmpint(oa_snapshot(&f->gpu->engine[INTEL_RCS0], false,
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
    wr(f, INTEL_EU_PERF_CNTL4 + 0x200, 0x00001000);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(19)), ==, 0);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_FREE(2)), ==, 71936 / 2);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_FREE(3)), ==, 71936 / 4);
    run_batch(f, cmds, p - cmds);
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
    uint64_t busy = 262144, t0 = f->fh->now_ns;
    Buf ring = buf_at(f, RING_RCS);
    unsigned n, inside = 0;

    flex_program(f, some_pipe_ctl);
    oa_open(f, 6);                      /* 128 ticks: 10.7 us */
    run_walker(f, 64, 64, 64);
    /* Then a store after run_batch()'s 12 bytes, submitted at once. */
    ring.pos = 12;
    sdi(&ring, SNAP, 0x600d);
    qword_align(&ring);
    fake_host_step(f->fh, 1000);
    ewr(f, RCS, INTEL_RING_TAIL, ring.pos);
    fake_host_step(f->fh, busy / 2);
    g_assert_cmphex(ram_r32(f, SNAP), ==, 0);
    fake_host_step(f->fh, busy);
    g_assert_cmphex(ram_r32(f, SNAP), ==, 0x600d);

    n = reports_written(f);
    for (unsigned i = 0; i + 1 < n; i++) {
        uint64_t r = OABUF + i * 256, ts = ram_r32(f, r + 4);
        uint32_t clocks = ram_r32(f, r + 256 + 12) - ram_r32(f, r + 12);
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
    unsigned n;

    flex_program(f, some_pipe_ctl);
    oa_open(f, 6);
    run_walker(f, 64, 64, 64);
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
        run_walker(f, 64, 64, 64);
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
        uint32_t clocks = ram_r32(f, r + 256 + 12) - ram_r32(f, r + 12);

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

static const FixtureTest tests[] = {
    { "/intel/oa/same-clock-reports", test_same_clock_reports },
    { "/intel/oa/busy-counter", test_busy_counter },
    { "/intel/oa/cec-test-oa", test_cec_test_oa },
    { "/intel/oa/cec-kernel-test-config", test_cec_kernel_test_config },
    { "/intel/oa/noa-selection", test_noa_selection },
    { "/intel/oa/gpu-busyness", test_gpu_busyness },
    { "/intel/oa/thread-counters", test_thread_counters },
    { "/intel/oa/counter-registers", test_counter_registers },
    { "/intel/oa/flex-eu-counters", test_flex_eu_counters },
    { "/intel/oa/eu-work-pacing", test_eu_work_pacing },
    { "/intel/oa/eu-work-frequency-change", test_eu_work_frequency_change },
};

FIXTURE_MAIN(fixture_setup_ggtt)
