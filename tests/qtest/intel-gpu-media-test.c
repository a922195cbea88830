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
#include "intel-gpu-compute-kernels.h"

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
    Gen11_RENDER_SURFACE_STATE ss = {
        .surface_type = 1,                      /* SURFTYPE_2D */
        .surface_format = 0x140,                /* R8_UNORM */
        .surface_vertical_alignment = 1,        /* VALIGN_4 */
        .surface_horizontal_alignment = 1,      /* HALIGN_4 */
        .render_cache_read_write_mode = 1,
        .width = WIDTH - 1,
        .height = HEIGHT - 1,
        .surface_pitch = WIDTH - 1,
        /* SCS_RED, GREEN, BLUE, ALPHA */
        .shader_channel_select_red = 4,
        .shader_channel_select_green = 5,
        .shader_channel_select_blue = 6,
        .shader_channel_select_alpha = 7,
        .surface_base_address = surf->gtt,
    };
    Gen11_INTERFACE_DESCRIPTOR_DATA idd = {
        .kernel_start_pointer = KERNEL,
        .single_program_flow = true,
        .binding_table_pointer = BINDING_TABLE,
        .constant_urb_entry_read_length = 1,
        .number_of_threads_in_gpgpu_thread_group = 1,
    };
    Gen11_BINDING_TABLE_STATE bte = { .surface_state_pointer = SURFACE_STATE };
    Gen11_MEDIA_VFE_STATE vfe = {
        .maximum_number_of_threads = 1,
        .number_of_urb_entries = 1,
        .curbe_allocation_size = 1,
    };
    Gen11_MEDIA_CURBE_LOAD cl = {
        .curbe_total_data_length = 64, .curbe_data_start_address = CURBE,
    };
    Gen11_MEDIA_INTERFACE_DESCRIPTOR_LOAD il = {
        .interface_descriptor_total_length = 32,
        .interface_descriptor_data_start_address = IDD,
    };
    uint32_t dw[GEN11_RENDER_SURFACE_STATE_LENGTH], curbe = color;

    put(g, bb, CURBE, &curbe, 1);
    gen11_binding_table_state_pack(dw, &bte);
    put(g, bb, BINDING_TABLE, dw, GEN11_BINDING_TABLE_STATE_LENGTH);
    gen11_render_surface_state_pack(dw, &ss);
    put(g, bb, SURFACE_STATE, dw, GEN11_RENDER_SURFACE_STATE_LENGTH);
    put(g, bb, KERNEL, kernel, kernel_dw);
    gen11_interface_descriptor_data_pack(dw, &idd);
    put(g, bb, IDD, dw, GEN11_INTERFACE_DESCRIPTOR_DATA_LENGTH);
    emit_pipeline_select(g, bb, PIPELINE_SELECT_GPGPU);
    emit_sba_igt(g, bb, bb->gtt);
    gen11_media_vfe_state_pack(dw, &vfe);
    buf_emit(g, bb, dw, GEN11_MEDIA_VFE_STATE_LENGTH);
    gen11_media_curbe_load_pack(dw, &cl);
    buf_emit(g, bb, dw, GEN11_MEDIA_CURBE_LOAD_LENGTH);
    gen11_media_interface_descriptor_load_pack(dw, &il);
    buf_emit(g, bb, dw, GEN11_MEDIA_INTERFACE_DESCRIPTOR_LOAD_LENGTH);
    emit_walker(g, bb, &(Gen11_GPGPU_WALKER) {
        .simd_size = 1,                         /* SIMD16 */
        .thread_group_id_x_dimension = xdim,
        .thread_group_id_y_dimension = ydim,
        .thread_group_id_z_dimension = 1,
        .right_execution_mask = 0xffff,
        .bottom_execution_mask = 0xffffffff,
    });
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
    gpgpu_batch(&g, &bb, &surf, hostile_endless_kernel,
                G_N_ELEMENTS(hostile_endless_kernel),
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
