/*
 * make bench: host cost of IGT's gen11 render copy (the batch of
 * intel-render-copy.h) of a 1920x1080 32 bpp surface, linear, X- and
 * Y-tiled, through the unit fixture: the whole 3D pipeline, the pixel
 * shader on the EU interpreter and its sampler and render target write
 * messages.  Reported as host ns per pixel next to a plain memcpy of
 * the same bytes in the same run, so the ratio compares across
 * machines.
 *
 * The fake host has 16 MiB of RAM, less than two 1080p surfaces: the
 * source and the destination are distinct GGTT ranges mapped onto the
 * same physical pages, so the copy writes each pixel back in place.
 * The pixels written and the surface are checked after every run.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include "intel-render-copy.h"

#define W           1920u
#define H           1080u
#define PITCH       (W * 4)
#define SURF_PA     0x00400000u         /* physical, both surfaces */
#define SRC_VA      0x01000000u
#define DST_VA      0x02000000u
#define SURF_BYTES  (PITCH * H)
#define MAP_BYTES   (PITCH * 1088u)    /* whole rows of Y tiles */
#define RUNS        3

/*
 * Host memory calls, counted around the fake host's: in QEMU each is an
 * address space access, the cost the coarse access saves.
 */
static const GpuHostOps *fake_ops;
static GpuHostOps counting_ops;
static uint64_t dma_calls;

static int count_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    dma_calls++;
    return fake_ops->dma_read(opaque, addr, buf, len);
}

static int count_write(void *opaque, uint64_t addr, const void *buf,
                       size_t len)
{
    dma_calls++;
    return fake_ops->dma_write(opaque, addr, buf, len);
}

static uint32_t pixel(uint32_t i)
{
    return i * 0x9E3779B1u ^ 0x01020304u;
}

static double run_once(Fixture *f, RefTiling t, double *calls,
                       double *insns)
{
    RcBuf src = { SRC_VA, W, H, PITCH, t };
    RcBuf dst = { DST_VA, W, H, PITCH, t };
    IntelEngine *e = eng(f, RCS);
    uint64_t px0 = e->stats.px[INTEL_PX_SAMPLES_WRITTEN];
    uint64_t eu0 = e->stats.eu_clocks[INTEL_EU_PS];
    gint64 t0;
    Ring r;

    render_copy(f, &src, 0, 0, W, H, &dst, 0, 0);
    ring_init(f, &r, RCS, RING_RCS);
    bb_start(&r.b, RC_BATCH, 0);
    dma_calls = 0;
    t0 = g_get_monotonic_time();
    ring_submit(&r);
    for (unsigned i = 0; i < 1000000 && (i == 0 || !engine_idle(f, RCS));
         i++) {
        step(f);
    }
    t0 = g_get_monotonic_time() - t0;
    *calls = (double)dma_calls / (W * H);
    *insns = (double)(e->stats.eu_clocks[INTEL_EU_PS] - eu0) / (W * H);
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
    g_assert_cmpuint(e->stats.px[INTEL_PX_SAMPLES_WRITTEN] - px0, ==,
                     W * H);
    return t0 * 1e3 / (W * H);
}

static double memcpy_ns(void)
{
    uint8_t *a = g_malloc(SURF_BYTES), *b = g_malloc0(SURF_BYTES);
    double best = 1e9;

    memset(a, 0x5a, SURF_BYTES);
    for (int i = 0; i < RUNS; i++) {
        gint64 t0 = g_get_monotonic_time();

        memcpy(b, a, SURF_BYTES);
        t0 = g_get_monotonic_time() - t0;
        g_assert_cmpint(b[SURF_BYTES - 1], ==, 0x5a);
        best = MIN(best, t0 * 1e3 / (W * H));
    }
    g_free(a);
    g_free(b);
    return best;
}

int main(void)
{
    static const struct {
        const char *name;
        RefTiling t;
    } cases[] = {
        { "linear", REF_LINEAR }, { "X-tiled", REF_X }, { "Y-tiled", REF_Y },
    };
    Fixture f;
    double mc = memcpy_ns();

    fixture_setup_ggtt(&f, NULL);
    fake_ops = f.gpu->host.ops;
    counting_ops = *fake_ops;
    counting_ops.dma_read = count_read;
    counting_ops.dma_write = count_write;
    f.gpu->host.ops = &counting_ops;
    for (uint32_t p = 0; p < MAP_BYTES / 4096; p++) {
        intel_ggtt_write_pte(f.gpu, SRC_VA / 4096 + p,
                             (SURF_PA + p * 4096ull) | 1);
        intel_ggtt_write_pte(f.gpu, DST_VA / 4096 + p,
                             (SURF_PA + p * 4096ull) | 1);
    }
    for (uint32_t i = 0; i < W * H; i++) {
        ram_w32(&f, SURF_PA + i * 4, pixel(i));
    }
    printf("render copy %ux%u 32 bpp (memcpy of the same bytes: "
           "%.3f ns/pixel)\n", W, H, mc);
    for (unsigned c = 0; c < G_N_ELEMENTS(cases); c++) {
        double best = 1e9, calls = 0, insns = 0;

        for (int i = 0; i < RUNS; i++) {
            /* Not in MIN(), which would evaluate it twice. */
            double t = run_once(&f, cases[c].t, &calls, &insns);

            best = MIN(best, t);
        }
        /* The same tiling both sides: every pixel back in place. */
        for (uint32_t i = 0; i < W * H; i += 997) {
            g_assert_cmphex(ram_r32(&f, SURF_PA + i * 4), ==, pixel(i));
        }
        printf("  %-8s %7.1f ns/pixel %6.1f ms/frame %6.0fx memcpy "
               "%5.2f host memory calls/pixel %5.2f EU instructions/pixel\n",
               cases[c].name, best, best * W * H / 1e6, best / mc, calls,
               insns);
    }
    fixture_teardown(&f, NULL);
    return 0;
}
