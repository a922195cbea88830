/*
 * qtest for intel-gpu: the GPGPU pipeline runs EU threads in the device:
 * IGT's gpgpu fill (lib/gpgpu_fill.c, gen11_gpgpu_kernel) from a legacy
 * ring, and a walker whose kernel never ends, which keeps the engine busy
 * (QEMU answering) until i915's reset sequence stops it; a walker
 * migrated with a thread mid-run ends as it would have.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "intel-gpu-qtest.h"

#define WIDTH       64
#define HEIGHT      64
#define COLOR_C4    0xc4
#define COLOR_4C    0x4c

/* The batch's state half, as IGT lays it out (lib/gpu_cmds.c). */
enum {
    CURBE = 2048, BINDING_TABLE = 2112, SURFACE_STATE = 2176,
    KERNEL = 2240, IDD = 2432,
};

/* IGT's lib/gpgpu_fill.c gen11_gpgpu_kernel. */
static const uint32_t gpgpu_kernel[] = {
    0x00400001, 0x20202288, 0x00000020, 0x00000000,
    0x00000009, 0x20400208, 0x06000004, 0x00000004,
    0x00000001, 0x20440208, 0x00000018, 0x00000000,
    0x00600001, 0x20800208, 0x008d0000, 0x00000000,
    0x00200001, 0x20800208, 0x00450040, 0x00000000,
    0x00000001, 0x20880608, 0x00000000, 0x0000000f,
    0x00800001, 0x20a00208, 0x00000020, 0x00000000,
    0x0c800031, 0x24000a40, 0x06000080, 0x040a8000,
    0x00600001, 0x2e000208, 0x008d0000, 0x00000000,
    0x07800031, 0x20000a40, 0x06000e00, 0x82000010,
};

/* add(1) r3.0 r3.0 1; while(1) -16: a thread that never ends. */
static const uint32_t endless_kernel[] = {
    0x00000040, 0x20600208, 0x06000060, 0x00000001,
    0x00000027, 0x00000000, 0x00000000, 0xfffffff0,
};

/*
 * Each thread counts r3 from 0 to LOOP_COUNT (mov; add; cmp.l.f0.0;
 * (+f0.0) while: the registers start with what the previous thread left),
 * then IGT's gpgpu kernel writes 16 bytes of r3 (its mov(16) r5 taking
 * r3.0 instead of the color in r1.0) at (group x * 16, group y): a
 * thread of 60000 instructions, mid-run at most steps' ends.
 */
#define LOOP_COUNT  20000
static const uint32_t loop_kernel[] = {
    0x00000001, 0x20600608, 0x00000000, 0x00000000,
    0x00000040, 0x20600208, 0x06000060, 0x00000001,
    0x05000010, 0x20000200, 0x06000060, LOOP_COUNT,
    0x00010027, 0x00000000, 0x00000000, 0xffffffe0,
    0x00000009, 0x20400208, 0x06000004, 0x00000004,
    0x00000001, 0x20440208, 0x00000018, 0x00000000,
    0x00600001, 0x20800208, 0x008d0000, 0x00000000,
    0x00200001, 0x20800208, 0x00450040, 0x00000000,
    0x00000001, 0x20880608, 0x00000000, 0x0000000f,
    0x00800001, 0x20a00208, 0x00000060, 0x00000000,
    0x0c800031, 0x24000a40, 0x06000080, 0x040a8000,
    0x00600001, 0x2e000208, 0x008d0000, 0x00000000,
    0x07800031, 0x20000a40, 0x06000e00, 0x82000010,
};

static void put(Gpu *g, const Buf *b, uint32_t off, const uint32_t *dw,
                size_t n)
{
    qtest_memwrite(g->qts, b->phys + off, dw, n * 4);
}

/*
 * IGT's __gen9_gpgpu_fillfunc in @bb: @kernel, R8 surface @surf, a walker
 * of @xdim x @ydim SIMD16 groups.
 */
static void gpgpu_batch(Gpu *g, Buf *bb, const Buf *surf,
                        const uint32_t *kernel, size_t kernel_dw,
                        uint32_t xdim, uint32_t ydim, uint8_t color)
{
    uint32_t base = bb->gtt | 1;
    uint32_t ss[16] = {
        [0] = 1u << 29 | 0x140u << 18 | 1u << 16 | 1u << 14 | 1u << 8,
        [2] = (HEIGHT - 1) << 16 | (WIDTH - 1),
        [3] = WIDTH - 1,
        [7] = 4u << 25 | 5u << 22 | 6u << 19 | 7u << 16,
        [8] = surf->gtt,
    };
    uint32_t idd[8] = { KERNEL, 0, 1u << 18, 0, BINDING_TABLE, 1u << 16, 1 };
    uint32_t curbe = color, bt = SURFACE_STATE;

    put(g, bb, CURBE, &curbe, 1);
    put(g, bb, BINDING_TABLE, &bt, 1);
    put(g, bb, SURFACE_STATE, ss, 16);
    put(g, bb, KERNEL, kernel, kernel_dw);
    put(g, bb, IDD, idd, 8);
    EMIT(g, bb, PIPELINE_SELECT | PIPELINE_SELECT_MASK_BITS |
         PIPELINE_SELECT_GPGPU);
    EMIT(g, bb, STATE_BASE_ADDRESS | (19 - 2), 1, 0, 1, base, 0, base, 0,
         0, 0, base, 0, 0xfffff000 | 1, 1 << 12 | 1, 0xfffff000 | 1,
         1 << 12 | 1, 1, 0, 0xfffff000);
    EMIT(g, bb, MEDIA_VFE_STATE | (9 - 2), 0, 0, 1 << 16 | 1 << 8, 0, 1,
         0, 0, 0);
    EMIT(g, bb, MEDIA_CURBE_LOAD | (4 - 2), 0, 64, CURBE);
    EMIT(g, bb, MEDIA_INTERFACE_DESCRIPTOR_LOAD | (4 - 2), 0, 32, IDD);
    EMIT(g, bb, GPGPU_WALKER | 13, 0, 0, 0, 1u << 30, 0, 0, xdim, 0, 0,
         ydim, 0, 1, 0xffff, 0xffffffff);
    EMIT(g, bb, MI_BATCH_BUFFER_END);
}

/* The device, a ring, a batch page and a surface of two pages. */
static void start(Gpu *g, Buf *ring, Buf *bb, Buf *surf)
{
    gpu_start(g);
    *ring = buf_new(g, 1);
    *bb = buf_new(g, 1);
    *surf = buf_new(g, 2);
}

/* The batch started from the render engine's legacy ring. */
static void submit(Gpu *g, Buf *ring, const Buf *bb)
{
    EMIT(g, ring, MI_BATCH_BUFFER_START_GEN8, bb->gtt, 0);
    ring_submit(g, INTEL_RCS0_BASE, ring);
}

static void test_gpgpu_fill(void)
{
    uint32_t rcs = INTEL_RCS0_BASE;
    uint8_t pixels[WIDTH * HEIGHT];
    Buf ring, bb, surf;
    Gpu g;

    start(&g, &ring, &bb, &surf);
    qtest_memset(g.qts, surf.phys, COLOR_C4, WIDTH * HEIGHT);
    qtest_memset(g.qts, surf.phys + WIDTH * HEIGHT, 0xee, 4096);
    gpgpu_batch(&g, &bb, &surf, gpgpu_kernel, G_N_ELEMENTS(gpgpu_kernel),
                WIDTH / 2 / 16, HEIGHT / 2, COLOR_4C);
    submit(&g, &ring, &bb);
    cs_settle(&g);
    assert_ring_idle(&g, rcs);

    qtest_memread(g.qts, surf.phys, pixels, sizeof(pixels));
    for (unsigned y = 0; y < HEIGHT; y++) {
        for (unsigned x = 0; x < WIDTH; x++) {
            g_assert_cmphex(pixels[y * WIDTH + x], ==,
                            x < WIDTH / 2 && y < HEIGHT / 2 ?
                            COLOR_4C : COLOR_C4);
        }
    }
    g_assert_cmphex(qtest_readb(g.qts, surf.phys + WIDTH * HEIGHT), ==,
                    0xee);
    gpu_stop(&g);
}

/*
 * A kernel that never ends keeps the render engine busy, step after
 * step; STOP_RING and a GDRST render reset end it and the engine runs
 * the next request.
 */
static void test_endless_kernel(void)
{
    uint32_t rcs = INTEL_RCS0_BASE, acthd;
    Buf ring, bb, surf;
    Gpu g;

    start(&g, &ring, &bb, &surf);
    gpgpu_batch(&g, &bb, &surf, endless_kernel, G_N_ELEMENTS(endless_kernel),
                ~0u, ~0u, 0);
    submit(&g, &ring, &bb);
    for (int i = 0; i < 10; i++) {
        cs_settle(&g);
        g_assert_false(engine_idle(&g, rcs));
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
    }
    acthd = rd(&g, rcs + INTEL_RING_ACTHD);
    g_assert_cmphex(acthd, >=, bb.gtt);
    g_assert_cmphex(acthd, <, bb.gtt + bb.len);

    engine_stop_reset_run(&g, rcs, INTEL_GRDOM_RENDER);
    gpu_stop(&g);
}

/*
 * 2 x 8 groups of the loop kernel: 960000 instructions over some 15
 * steps.  Migrated 200 us in, mid-walker and mid-thread, the surface
 * ends as it does without migration.
 */
static GByteArray *walker_workload(bool migrate)
{
    uint32_t rcs = INTEL_RCS0_BASE;
    GByteArray *out = g_byte_array_new();
    uint8_t pixels[WIDTH * 8];
    Buf ring, bb, surf;
    Gpu g;

    start(&g, &ring, &bb, &surf);
    gpgpu_batch(&g, &bb, &surf, loop_kernel, G_N_ELEMENTS(loop_kernel),
                2, 8, 0);
    submit(&g, &ring, &bb);
    qtest_clock_step(g.qts, 200 * 1000);
    g_assert_false(engine_idle(&g, rcs));
    gpu_maybe_migrate(&g, migrate, GPU_ARGS);
    engine_settle_idle(&g, rcs);
    qtest_memread(g.qts, surf.phys, pixels, sizeof(pixels));
    for (unsigned y = 0; y < 8; y++) {
        for (unsigned x = 0; x < WIDTH; x += 4) {
            uint32_t v;

            memcpy(&v, pixels + y * WIDTH + x, 4);
            g_assert_cmpuint(le32_to_cpu(v), ==, x < 32 ? LOOP_COUNT : 0);
        }
    }
    g_byte_array_append(out, pixels, sizeof(pixels));
    gpu_stop(&g);
    return out;
}

static void test_migrate_mid_walker(void)
{
    gpu_migrate_check(walker_workload);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/intel-gpu/media/gpgpu-fill", test_gpgpu_fill);
    qtest_add_func("/intel-gpu/media/endless-kernel", test_endless_kernel);
    qtest_add_func("/intel-gpu/media/migrate-mid-walker",
                   test_migrate_mid_walker);
    return g_test_run();
}
