/*
 * make bench: PCOUNTER evaluation speed, in simulated domain-cycles per
 * host second, for an idle and a busy quad-mode configuration, and the
 * cost at two clock rates 100x apart.  Figures and ratios are measured in
 * this run and printed, never asserted: they depend on the host.
 *
 * Each sample is what a driver's sampling loop costs the model: virtual
 * time advances by the sampling interval, then the guest pulses
 * PM_TRIGGER and reads the counters of every domain.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <glib.h>
#include "fake-host.h"
#include "nvidia/nv-gpu-int.h"

#define SAMPLES 20000

#define SRC4(a, b, c, d) ((a) | (b) << 8 | (c) << 16 | (uint32_t)(d) << 24)

typedef struct Bench {
    FakeHost *fh;
    NvGpu *gpu;
    uint64_t hz;
    bool busy;
} Bench;

/* volatile: the counter reads must not be optimised away. */
static volatile uint32_t sink;

/*
 * Idle: quad mode, every input ZERO, SWAP on PM_TRIGGER (the reset
 * SPEC_SRC): only the cycle counter moves.
 * Busy: quad mode in all 8 domains, the 16 inputs on synthetic signals of
 * periods 2..65536 with different duties, non-trivial logic ops, EVENT_B6
 * counting, SETFLAG/CLRFLAG toggling, SWAP on PERIODIC every 0x400 cycles
 * (thousands of swaps per sample at the longer intervals).
 */
static void bench_open(Bench *b, uint64_t hz, bool busy)
{
    NvGpuConfig cfg = { .chipset = "g84" };
    NvGpu *gpu;

    for (unsigned d = 0; d < NV_PCOUNTER_DOMAINS; d++) {
        cfg.domain_hz[d] = hz;
    }
    b->fh = fake_host_new();
    b->gpu = gpu = nv_gpu_new(&cfg, &b->fh->host);
    b->hz = hz;
    b->busy = busy;
    for (unsigned d = 0; d < NV_PCOUNTER_DOMAINS; d++) {
        uint32_t ctrl = NV_PC_MODE_QUAD;

        if (busy) {
            for (unsigned n = 0; n < NV_SIG_SYNTH_COUNT; n++) {
                unsigned log2 = 1 + (n * 5 + d) % 16;

                nv_pcounter_set_synth(gpu, d, n, log2,
                                      ((1u << log2) * (n + 1)) / 9, n * 3);
            }
            nv_gpu_write(gpu, NV40_PC_PRE_SRC(d), SRC4(0x10, 0x11, 0x12,
                                                       0x13));
            nv_gpu_write(gpu, NV40_PC_START_SRC(d), SRC4(0x14, 0x15, 0x16,
                                                         0x17));
            nv_gpu_write(gpu, NV40_PC_EVENT_SRC(d), SRC4(0x11, 0x13, 0x15,
                                                         0x17));
            nv_gpu_write(gpu, NV40_PC_STOP_SRC(d), SRC4(0x10, 0x12, 0x14,
                                                        0x16));
            nv_gpu_write(gpu, NV40_PC_PRE_OP(d), 0x6996);
            nv_gpu_write(gpu, NV40_PC_START_OP(d), 0xfe80 | 1u << 16);
            nv_gpu_write(gpu, NV40_PC_EVENT_OP(d), 0xaaaa);
            nv_gpu_write(gpu, NV40_PC_STOP_OP(d), 0x8888 | 1u << 17);
            nv_gpu_write(gpu, NV40_PC_SETFLAG_OP(d), 0x8000);
            nv_gpu_write(gpu, NV40_PC_CLRFLAG_OP(d), 0x0001);
            nv_gpu_write(gpu, NV40_PC_SPEC_SRC(d), NV_SIG_PERIODIC);
            ctrl = GPU_FIELD_DP32(ctrl, NV40_PC_CTRL, CTR_MODE,
                                  NV_PC_CTR_EVENT_B6);
            ctrl = GPU_FIELD_DP32(ctrl, NV40_PC_CTRL, PERIODIC, 1);
        }
        nv_gpu_write(gpu, NV40_PC_CTRL(d), ctrl);
    }
}

static void bench_close(Bench *b)
{
    nv_gpu_free(b->gpu);
    fake_host_free(b->fh);
}

static void sample(Bench *b, uint64_t interval_ns)
{
    fake_host_step(b->fh, interval_ns);
    nv_gpu_write(b->gpu, NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
    for (unsigned d = 0; d < NV_PCOUNTER_DOMAINS; d++) {
        sink = nv_gpu_read(b->gpu, NV40_PC_CTR_CYCLES(d));
        sink = nv_gpu_read(b->gpu, NV40_PC_CTR_EVENT(d));
    }
}

/* Host seconds for SAMPLES samples, best of five (the least disturbed). */
static double run(uint64_t hz, bool busy, uint64_t interval_ns,
                  uint32_t *event0)
{
    double best = 1e9;

    for (int r = 0; r < 5; r++) {
        Bench b;
        gint64 t0;

        bench_open(&b, hz, busy);
        sample(&b, interval_ns);            /* builds the period tables */
        t0 = g_get_monotonic_time();
        for (unsigned i = 0; i < SAMPLES; i++) {
            sample(&b, interval_ns);
        }
        t0 = g_get_monotonic_time() - t0;   /* once: MIN() evaluates twice */
        best = MIN(best, t0 / 1e6);
        /* The last full PERIODIC window: shows the busy domains count. */
        *event0 = nv_gpu_read(b.gpu, NV40_PC_CTR_EVENT(0));
        bench_close(&b);
    }
    return best;
}

/* Simulated cycles per host second, per domain. */
static double rate(uint64_t hz, uint64_t interval_ns, double secs)
{
    return (double)SAMPLES * interval_ns * hz / 1e9 / secs;
}

/*
 * PTIMER_TIME_B12 in the host domain: its domain steps once per change
 * of the bit, every 4096 ns at the reset ratio.  Host seconds for one
 * virtual second (1000 samples 1 ms apart) of the busy configuration at
 * 100 MHz, with domain 0's EVENT_SRC[0] on a synthetic signal or on it.
 */
static double run_ptimer(bool b12)
{
    Bench b;
    gint64 t0;
    double secs;

    bench_open(&b, 100000000, true);
    if (b12) {
        nv_gpu_write(b.gpu, NV40_PC_EVENT_SRC(0), SRC4(0x2c, 0x13, 0x15,
                                                       0x17));
    }
    sample(&b, 1000000);
    t0 = g_get_monotonic_time();
    for (unsigned i = 0; i < 1000; i++) {
        sample(&b, 1000000);
    }
    secs = (g_get_monotonic_time() - t0) / 1e6;
    bench_close(&b);
    return secs;
}

int main(void)
{
    static const uint64_t intervals[] = { 10000, 1000000, 100000000 };
    const uint64_t ghz = 1000000000;
    uint32_t ev;

    printf("nv-gpu PCOUNTER, quad mode, 8 domains, %d samples per figure "
           "(best of 5);\n", SAMPLES);
    printf("a sample = advance virtual time, PM_TRIGGER, read 2 counters "
           "per domain.\n\n");
    printf("simulated cycles per host second, per domain, at 1 GHz:\n");
    printf("  %-12s %14s %14s %12s\n", "interval", "idle", "busy",
           "busy us/smp");
    for (unsigned i = 0; i < G_N_ELEMENTS(intervals); i++) {
        double idle = run(ghz, false, intervals[i], &ev);
        double busy = run(ghz, true, intervals[i], &ev);

        printf("  %9.0f us %14.3g %14.3g %12.2f\n", intervals[i] / 1e3,
               rate(ghz, intervals[i], idle), rate(ghz, intervals[i], busy),
               busy / SAMPLES * 1e6);
    }

    printf("\ncost against the clock rate (busy, 1 ms interval):\n");
    {
        double slow = run(100000000, true, 1000000, &ev);
        uint32_t ev_slow = ev;
        double fast = run(10000000000ull, true, 1000000, &ev);

        printf("  100 MHz: %8.3f s host, %10.3g cycles/s per domain "
               "(CTR_EVENT[0] %u)\n", slow,
               rate(100000000, 1000000, slow), ev_slow);
        printf("   10 GHz: %8.3f s host, %10.3g cycles/s per domain "
               "(CTR_EVENT[0] %u)\n", fast,
               rate(10000000000ull, 1000000, fast), ev);
        printf("  host time 10 GHz / 100 MHz: %.2fx for 100x the cycles\n",
               fast / slow);
    }

    printf("\nPTIMER_TIME_B12 in domain 0 (busy, 100 MHz, 1 s virtual, "
           "1 ms samples):\n");
    printf("  EVENT_SRC[0] synthetic: %8.3f s host\n", run_ptimer(false));
    printf("  EVENT_SRC[0] TIME_B12:  %8.3f s host (244141 changes)\n",
           run_ptimer(true));
    return 0;
}
