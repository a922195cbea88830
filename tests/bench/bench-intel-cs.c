/*
 * make bench: throughput of the intel-gpu command streamer on the
 * host-neutral model, each next to a baseline measured in the same run
 * (memcpy of the same bytes), so the figures compare across machines.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include "fake-host.h"
#include "intel/intel-gpu-int.h"
#include "hw/gpumodel/intel-gpu-cmds.h"

#define RING        0x100000u   /* 64 KiB ring */
#define RING_SIZE   0x10000u
#define BATCH       0x200000u   /* batches from 2 MiB, up to 8 MiB */
#define BATCH_MAX   (6u << 20)
#define TARGET      0x080000u
#define HWSP        0x0f0000u
#define CTX_A       0x0c0000u
#define CTX_B       0x0d0000u
#define BCS_DST_Y   (INTEL_BCS_SWCTRL_DST_Y << 16 | INTEL_BCS_SWCTRL_DST_Y)
#define BLIT_SRC    0x800000u   /* two 4 MiB surfaces above the batches */
#define BLIT_DST    0xc00000u
#define BLIT_PITCH  4096u
#define BLIT_ROWS   1024u

typedef struct Bench {
    FakeHost *fh;
    IntelGpu *gpu;
    IntelEngine *rcs;
} Bench;

static void put32(Bench *b, uint32_t addr, uint32_t v)
{
    memcpy(b->fh->ram + addr, &v, 4);
}

static void wr(Bench *b, uint32_t off, uint32_t v)
{
    intel_mmio_write(b->gpu, off, v, ~0u);
}

/* Run the batch at BATCH from a two-command legacy ring; seconds taken. */
static double run_batch(Bench *b)
{
    gint64 t0;

    put32(b, RING, MI_BATCH_BUFFER_START_GEN8);
    put32(b, RING + 4, BATCH);
    put32(b, RING + 8, 0);
    put32(b, RING + 12, MI_NOOP);
    wr(b, INTEL_RCS0_BASE + INTEL_RING_HEAD, 0);
    wr(b, INTEL_RCS0_BASE + INTEL_RING_TAIL, 16);
    t0 = g_get_monotonic_time();
    intel_cs_run(b->rcs, ~0u);
    return (g_get_monotonic_time() - t0) / 1e6;
}

static double best_of(double (*fn)(Bench *), Bench *b)
{
    double best = 1e9;

    for (int r = 0; r < 5; r++) {
        double t = fn(b);       /* MIN() would evaluate a call twice */

        best = MIN(best, t);
    }
    return best;
}

static size_t memcpy_bytes;

static double memcpy_run(Bench *b)
{
    static uint8_t *dst;
    gint64 t0;

    dst = dst ? dst : g_malloc(BATCH_MAX);
    t0 = g_get_monotonic_time();
    memcpy(dst, b->fh->ram + BATCH, memcpy_bytes);
    __asm__ volatile("" : : "r"(dst) : "memory");
    return (g_get_monotonic_time() - t0) / 1e6;
}

static double baseline(Bench *b, size_t bytes)
{
    memcpy_bytes = bytes;
    return best_of(memcpy_run, b);
}

static void report(const char *what, double n, double secs, double base)
{
    printf("  %-34s %8.1f M/s  %6.1fx memcpy of the same bytes\n", what,
           n / secs / 1e6, secs / base);
}

static unsigned fill_noops(Bench *b, unsigned dwords)
{
    memset(b->fh->ram + BATCH, 0, dwords * 4);
    put32(b, BATCH + dwords * 4, MI_BATCH_BUFFER_END);
    return dwords;
}

static void bench_noop(Bench *b, unsigned dwords, const char *what)
{
    fill_noops(b, dwords);
    report(what, dwords, best_of(run_batch, b), baseline(b, dwords * 4));
}

static void bench_sdi(Bench *b)
{
    unsigned n = BATCH_MAX / 16 - 1;

    for (unsigned i = 0; i < n; i++) {
        uint32_t a = BATCH + i * 16;

        put32(b, a, MI_STORE_DWORD_IMM_GEN4 | MI_USE_GGTT);
        put32(b, a + 4, TARGET + (i % 1024) * 4);
        put32(b, a + 8, 0);
        put32(b, a + 12, i);
    }
    put32(b, BATCH + n * 16, MI_BATCH_BUFFER_END);
    report("MI_STORE_DATA_IMM", n, best_of(run_batch, b),
           baseline(b, n * 16));
}

/*
 * One 4 MiB XY_SRC_COPY_BLT from a linear surface into a linear, X or Y
 * one: tiled destinations take runs of 512 (X) or 16 (Y) bytes.
 */
static void bench_blit(Bench *b, uint32_t tiled, uint32_t swctrl,
                       const char *what)
{
    const uint32_t cmd[] = {
        XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA | tiled | INSTR_LEN(10),
        BLT_DEPTH_32 | BLT_ROP_SRC_COPY |
        (tiled ? BLIT_PITCH / 4 : BLIT_PITCH),
        0, BLIT_ROWS << 16 | BLIT_PITCH / 4, BLIT_DST, 0,
        0, BLIT_PITCH, BLIT_SRC, 0, MI_BATCH_BUFFER_END, MI_NOOP,
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(cmd); i++) {
        put32(b, BATCH + 4 * i, cmd[i]);
    }
    wr(b, INTEL_BCS_SWCTRL, swctrl);
    report(what, BLIT_PITCH * BLIT_ROWS, best_of(run_batch, b),
           baseline(b, BLIT_PITCH * BLIT_ROWS));
}

/* Second-level MI_BATCH_BUFFER_START to an MI_BATCH_BUFFER_END. */
static void bench_bb_pairs(Bench *b)
{
    unsigned n = BATCH_MAX / 16 - 1;
    uint32_t end = TARGET;

    put32(b, end, MI_BATCH_BUFFER_END);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = BATCH + i * 16;

        put32(b, a, MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_SECOND_LEVEL);
        put32(b, a + 4, end);
        put32(b, a + 8, 0);
        put32(b, a + 12, MI_NOOP);
    }
    put32(b, BATCH + n * 16, MI_BATCH_BUFFER_END);
    report("MI_BATCH_BUFFER_START/END pairs", n, best_of(run_batch, b),
           baseline(b, n * 16));
}

/* Where translations go, so that the compiler keeps the lookups. */
static volatile uint64_t sink;

static double ggtt_walks(Bench *b)
{
    gint64 t0 = g_get_monotonic_time();

    for (uint32_t i = 0; i < 4000000; i++) {
        uint64_t pa;

        /* Pages 64 apart: every lookup misses the translation cache. */
        intel_ggtt_translate(b->gpu, (i * 64 % 2048) << 12, &pa);
        sink += pa;
    }
    return (g_get_monotonic_time() - t0) / 1e6;
}

static double ppgtt_walks(Bench *b)
{
    gint64 t0 = g_get_monotonic_time();

    for (uint32_t i = 0; i < 4000000; i++) {
        uint64_t pa;

        /* 512 pages over 64 cache slots: every lookup walks. */
        intel_ppgtt_translate(b->rcs, (uint64_t)(i % 512) << 12, &pa);
        sink += pa;
    }
    return (g_get_monotonic_time() - t0) / 1e6;
}

/* PML4 at 0xa0000 -> PDP 0xa1000 -> PD 0xa2000 -> PT 0xa3000: 512 pages. */
static void build_ppgtt(Bench *b)
{
    uint64_t e;

    for (int i = 0; i < 3; i++) {
        e = 0xa1000 + i * 0x1000 + 3;
        memcpy(b->fh->ram + 0xa0000 + i * 0x1000, &e, 8);
    }
    for (int i = 0; i < 512; i++) {
        e = (uint64_t)(0x400000 + i * 4096) | 3;
        memcpy(b->fh->ram + 0xa3000 + i * 8, &e, 8);
    }
    b->rcs->pml4 = 0xa0000;
}

/* A context image whose ring is empty: each element completes at once. */
static void build_context(Bench *b, uint32_t lrca)
{
    static const uint32_t lri[] = {
        MI_LOAD_REGISTER_IMM(4),
        INTEL_RCS0_BASE + INTEL_RING_CONTEXT_CONTROL, 0x00090008,
        INTEL_RCS0_BASE + INTEL_RING_HEAD, 0,
        INTEL_RCS0_BASE + INTEL_RING_TAIL, 0,
        INTEL_RCS0_BASE + INTEL_RING_START, RING,
        MI_BATCH_BUFFER_END,
    };

    memset(b->fh->ram + lrca, 0, 0x2000);
    memcpy(b->fh->ram + lrca + 0x1000 + 4, lri, sizeof(lri));
}

static double context_switches(Bench *b)
{
    gint64 t0 = g_get_monotonic_time();

    for (int i = 0; i < 20000; i++) {
        wr(b, INTEL_RCS0_BASE + INTEL_RING_EXECLIST_SQ, CTX_A | 0x119);
        wr(b, INTEL_RCS0_BASE + INTEL_RING_EXECLIST_SQ + 4, 1);
        wr(b, INTEL_RCS0_BASE + INTEL_RING_EXECLIST_SQ + 8, CTX_B | 0x119);
        wr(b, INTEL_RCS0_BASE + INTEL_RING_EXECLIST_SQ + 12, 2);
        wr(b, INTEL_RCS0_BASE + INTEL_RING_EXECLIST_CONTROL, 1);
        intel_cs_run(b->rcs, ~0u);
    }
    return (g_get_monotonic_time() - t0) / 1e6;
}

/*
 * OA periodic sampling at @exponent for one second of virtual time into a
 * 128 KiB buffer that the "reader" drains each millisecond: reports
 * written per host second, next to memcpy of the same report bytes, and
 * the host time the model spends per virtual second of sampling.
 */
static void bench_oa(Bench *b, unsigned exponent, const char *what)
{
    uint64_t r0 = b->gpu->oa.reports, l0 = b->gpu->oa.lost, n;
    gint64 t0;
    double secs;
    size_t bytes;

    wr(b, INTEL_OAHEADPTR, BATCH);
    wr(b, INTEL_OATAILPTR, BATCH);
    wr(b, INTEL_OABUFFER, BATCH | 1);
    wr(b, INTEL_OACTXCONTROL, exponent << 2 | 2 | 1);
    wr(b, INTEL_OACONTROL, 5 << 2 | 1);
    t0 = g_get_monotonic_time();
    for (int ms = 0; ms < 1000; ms++) {
        fake_host_step(b->fh, 1000000);
        wr(b, INTEL_OAHEADPTR, intel_mmio_read(b->gpu, INTEL_OATAILPTR));
    }
    secs = (g_get_monotonic_time() - t0) / 1e6;
    wr(b, INTEL_OACONTROL, 0);
    n = b->gpu->oa.reports - r0;
    /* The baseline copies one buffer's worth; scale it to all reports. */
    bytes = MIN(n * 256, BATCH_MAX);
    report(what, n, secs, baseline(b, bytes) * (n * 256.0 / bytes));
    printf("  %-34s %8.4f host s per virtual s (%" G_GUINT64_FORMAT
           " reports, %" G_GUINT64_FORMAT " lost to a full buffer)\n", "",
           secs, n, b->gpu->oa.lost - l0);
}

int main(void)
{
    static const IntelGpuConfig cfg = {
        .device_id = INTEL_GPU_DEVICE_ID_ICL_GT2,
        .slices = 1, .subslices = 8, .eus_per_subslice = 8,
    };
    Bench b = { .fh = fake_host_new() };
    double secs;
    uint64_t sw0;

    b.gpu = intel_gpu_new(&cfg, &b.fh->host);
    b.rcs = &b.gpu->engine[INTEL_RCS0];
    /* GGTT = physical for all 16 MiB. */
    for (uint32_t p = 0; p < 4096; p++) {
        intel_ggtt_write_pte(b.gpu, p, (uint64_t)p << 12 | 1);
    }
    wr(&b, INTEL_RCS0_BASE + INTEL_RING_START, RING);
    wr(&b, INTEL_RCS0_BASE + INTEL_RING_CTL, (RING_SIZE - 4096) | 1);

    printf("intel-gpu command streamer (model, no QEMU), rate and cost "
           "relative to memcpy of the command bytes in the same run:\n");
    bench_noop(&b, 16384, "MI_NOOP dwords, 64 KiB batch");
    bench_noop(&b, BATCH_MAX / 4 - 1, "MI_NOOP dwords, 6 MiB batch");
    bench_sdi(&b);
    bench_bb_pairs(&b);
    bench_blit(&b, 0, 0, "blit bytes, linear");
    bench_blit(&b, XY_SRC_COPY_BLT_DST_TILED, 0, "blit bytes, into X tiles");
    bench_blit(&b, XY_SRC_COPY_BLT_DST_TILED, BCS_DST_Y,
               "blit bytes, into Y tiles");

    secs = best_of(ggtt_walks, &b);
    printf("  %-34s %8.1f M/s\n", "GGTT translations (cache misses)",
           4 / secs);
    build_ppgtt(&b);
    secs = best_of(ppgtt_walks, &b);
    printf("  %-34s %8.1f M/s\n", "PPGTT 4-level walks", 4 / secs);

    wr(&b, INTEL_RCS0_BASE + INTEL_RING_MODE, 0x00080008);
    wr(&b, INTEL_RCS0_BASE + INTEL_RING_HWS_PGA, HWSP);
    build_context(&b, CTX_A);
    build_context(&b, CTX_B);
    sw0 = b.rcs->stats.context_switches;
    secs = context_switches(&b);
    printf("  %-34s %8.3f M/s  (two contexts ping-ponging; image "
           "restore + save each)\n", "context switches",
           (b.rcs->stats.context_switches - sw0) / secs / 1e6);

    /* The shortest period the OA unit has: 2 ticks. */
    bench_oa(&b, 0, "OA reports, exponent 0");
    /*
     * i915's shortest by default (oa_max_sample_rate 100 kHz): the
     * model's share of the OA cost make bench's guest line measures.
     */
    bench_oa(&b, 7, "OA reports, exponent 7 (i915 min)");

    intel_gpu_free(b.gpu);
    fake_host_free(b.fh);
    return 0;
}
