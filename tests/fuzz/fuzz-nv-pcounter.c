/*
 * Fuzz harness: the nv-gpu model (PMC, PTIMER, PCOUNTER, PGRAPH's PM
 * trigger) driven by a decoded sequence of BAR0 reads and writes, virtual
 * time steps, synthetic-signal settings and resets, on the host-neutral
 * model with a fake host whose guest RAM is bounded (record-mode packets
 * aimed past its end fault).  Whatever the bytes, the model must not
 * crash, assert, hang or leak, and after every input its own post-load
 * checks must accept its state: what it reaches by itself must migrate.
 *
 * Built two ways, as fuzz-intel-cs.c: a libFuzzer target with
 * -Dfuzz=true (clang), and always as fuzz-nv-pcounter-smoke, a unit test
 * that feeds it seeded pseudo-random inputs.
 *
 * Input layout: byte 0 picks the chipset, byte 1 the domain clocks, byte
 * 2 the record slot time; then operations, one opcode byte each with its
 * operands (see nvf_op).  Missing bytes read as 0.
 *
 * Time: short steps (up to 65 us) run the host's timers as they fall due;
 * long steps (up to 2^47 ns) jump the clock and then run the timers that
 * are due once, as QEMU's main loop does after a vCPU or the host kept it
 * away.  The model must then bound its own work: an MMIO access or a
 * timer does at most one sync's budget of PCOUNTER steps, however far
 * behind the domains are (the harness sets a small budget, so that
 * lagging domains are common).  So every operation's work is bounded; an
 * input stops once the model has taken NVF_STEP_CAP steps (more of the
 * same lagging work finds nothing new).  An input that still
 * runs long is a hang: libFuzzer's -timeout reports it, and the smoke
 * test arms a watchdog (NVF_WATCHDOG_S, SIGALRM) around each input.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "fake-host.h"
#include "nvidia/nv-gpu-int.h"

/* PCOUNTER steps after which an input stops (NvPcounter.steps). */
#define NVF_STEP_CAP    (1ull << 20)
/* Steps per evaluation: small, so that lagging domains are common. */
#define NVF_STEP_BUDGET 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct NvfInput {
    const uint8_t *p, *end;
} NvfInput;

static uint32_t take(NvfInput *in, unsigned bytes)
{
    uint32_t v = 0;

    for (unsigned i = 0; i < bytes && in->p < in->end; i++) {
        v |= (uint32_t)*in->p++ << (8 * i);
    }
    return v;
}

static const uint32_t ptimer_regs[] = {
    NV_PTIMER_INTR, NV_PTIMER_INTR_EN, NV_PTIMER_NUMERATOR,
    NV_PTIMER_DENOMINATOR, NV_PTIMER_CLOCK_SOURCE, NV_PTIMER_TIME_LOW,
    NV_PTIMER_TIME_HIGH, NV_PTIMER_ALARM,
};

static const uint32_t pmc_regs[] = {
    NV_PMC_BOOT_0, NV_PMC_BOOT_1, NV_PMC_INTR, NV_PMC_INTR_EN,
    NV_PMC_ENABLE, NV_PGRAPH_PM_CTRL,
};

/* A BAR0 offset, mostly PCOUNTER, then PTIMER, PMC/PGRAPH, anywhere. */
static uint32_t nvf_offset(NvfInput *in)
{
    uint32_t sel = take(in, 1), v = take(in, 2);

    switch (sel & 7) {
    case 5:
        return ptimer_regs[v % G_N_ELEMENTS(ptimer_regs)];
    case 6:
        return pmc_regs[v % G_N_ELEMENTS(pmc_regs)];
    case 7:
        return (v | sel << 16) & (NV_GPU_BAR0_SIZE - 1);
    default:
        return NV_PCOUNTER_BASE + (v & (NV_PCOUNTER_SIZE - 4));
    }
}

/* Signals worth selecting: constants, synthetic, the trailer block. */
static uint8_t nvf_signal(uint8_t b)
{
    static const uint8_t sigs[] = {
        NV_SIG_ZERO, NV_SIG_ONE, NV_SIG_PERIODIC, NV_SIG_PM_TRIGGER,
        NV_SIG_WRCACHE_FLUSH, NV_SIG_TRAILER_ZERO,
    };

    if (b & 0x80) {
        return NV_SIG_TRAILER_BASE | (b & 0x1f);
    }
    if (b & 0x40) {
        return NV_SIG_SYNTH(b & 7);
    }
    return b & 0x20 ? b : sigs[b % sizeof(sigs)];
}

/* A value: raw, four signal selectors, or a guest address near RAM's end. */
static uint32_t nvf_value(NvfInput *in, unsigned mode)
{
    uint32_t v = take(in, 4);

    switch (mode) {
    case 1:
        return nvf_signal(v) | nvf_signal(v >> 8) << 8 |
               nvf_signal(v >> 16) << 16 | (uint32_t)nvf_signal(v >> 24) << 24;
    case 2:
        return FAKE_RAM_SIZE - (v & 0xffff) * 16 + (v >> 28) * 16;
    case 3:
        return v & 0xff;
    default:
        return v;
    }
}

static void nvf_step(FakeHost *fh, NvfInput *in, uint8_t op)
{
    uint64_t ns = take(in, 2);

    if (op & 0x80) {
        /* Long: 2^16 to 2^47 ns, where counters saturate and wrap. */
        fh->now_ns += (ns + 1) << (16 + ((op >> 3) & 15));
        fake_host_step(fh, 0);
    } else {
        fake_host_step(fh, ns);
    }
}

/* Decode and run one operation. */
static void nvf_op(NvGpu *gpu, FakeHost *fh, NvfInput *in)
{
    uint8_t op = take(in, 1);
    uint32_t off, v;

    switch (op & 7) {
    case 0:
    case 1:
    case 2:
        off = nvf_offset(in);
        nv_gpu_write(gpu, off, nvf_value(in, op >> 3 & 3));
        break;
    case 3:
        nv_gpu_read(gpu, nvf_offset(in));
        break;
    case 4:
    case 5:
        nvf_step(fh, in, op);
        break;
    case 6:
        v = take(in, 1);
        nv_pcounter_set_synth(gpu, v & 15, v >> 4, take(in, 1) & 31,
                              take(in, 4), take(in, 4));
        break;
    default:
        if (op & 0x80) {
            nv_gpu_reset(gpu);
        } else {
            nv_pcounter_pm_trigger(gpu);
        }
        break;
    }
}

/*
 * As a migration would: pre-save on the source, post-load on the same
 * state.  A refusal is a bug in the model or its checks: fail as a crash
 * does.
 */
static void check_migratable(NvGpu *gpu)
{
    char *err = NULL;

    nv_gpu_pre_save(gpu);
    if (!nv_gpu_post_load(gpu, &err)) {
        fprintf(stderr, "post-load refuses the model's own state: %s\n",
                err);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const chipsets[] = { "g84", "g86", "g92" };
    static const uint64_t clocks[] = { 0, 1000000000, 1000, 10000000000ull };
    NvfInput in = { data, data + size };
    NvGpuConfig cfg = { 0 };
    static FakeHost *fh;
    uint32_t hz;
    NvGpu *gpu;

    cfg.chipset = chipsets[take(&in, 1) % G_N_ELEMENTS(chipsets)];
    hz = take(&in, 2);
    for (unsigned d = 0; d < NV_PCOUNTER_DOMAINS; d++) {
        cfg.domain_hz[d] = clocks[(hz >> (2 * d)) & 3];
    }
    cfg.record_write_cycles = take(&in, 1);
    cfg.pc_step_budget = NVF_STEP_BUDGET;
    /*
     * A new device on the same host, whose timers it frees; guest RAM
     * keeps old packets, which no input reads (record mode only writes).
     */
    if (!fh) {
        fh = fake_host_new();
    }
    fh->now_ns = 0;
    fh->ntimers = 0;
    gpu = nv_gpu_new(&cfg, &fh->host);
    while (in.p < in.end && gpu->pc.steps < NVF_STEP_CAP) {
        nvf_op(gpu, fh, &in);
    }
    check_migratable(gpu);
    nv_gpu_free(gpu);
    return 0;
}

#ifndef GPUMODEL_LIBFUZZER
#include <signal.h>
#include <unistd.h>

/*
 * Seconds one input may take before the smoke test calls it a hang: far
 * above what any input takes (milliseconds), so that only a loop that does
 * not end trips it, on any machine and under the sanitizers.
 */
#define NVF_WATCHDOG_S 120

static void watchdog(int sig)
{
    static const char msg[] = "fuzz-nv-pcounter: input hangs\n";

    if (write(2, msg, sizeof(msg) - 1)) {
        /* nothing more to do */
    }
    abort();
}

/*
 * The smoke test: seeded random bytes, which the decoder turns into
 * operations biased towards PCOUNTER registers and useful signals.
 */
static void test_random_ops(void)
{
    GRand *r = g_rand_new_with_seed(0x6e766763);
    uint8_t buf[4096];

    signal(SIGALRM, watchdog);
    for (int iter = 0; iter < 400; iter++) {
        size_t size = g_rand_int_range(r, 4, sizeof(buf));

        for (size_t i = 0; i < size; i++) {
            buf[i] = g_rand_int(r);
        }
        alarm(NVF_WATCHDOG_S);
        LLVMFuzzerTestOneInput(buf, size);
        alarm(0);
    }
    g_rand_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/nv-pcounter/fuzz/random-ops", test_random_ops);
    return g_test_run();
}
#endif
