/*
 * qtest for intel-gpu: the 3D pipeline in QEMU.  A RECTLIST draw whose
 * pixel shader writes 1.0 to every channel (IGT 1.27.1
 * lib/rendercopy_gen9.c's alternative "Write all -1" kernel) fills a
 * rectangle of a linear B8G8R8A8_UNORM target; a draw over the largest
 * drawing rectangle keeps the engine busy step after step while QEMU
 * answers, until i915's engine reset clears it; a draw migrated midway
 * ends as without migration.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "intel-gpu-qtest.h"

static const uint32_t fill_kernel[][4] = {
    { 0x00600001, 0x2e000608, 0x00000000, 0x3f800000 },
    { 0x00600001, 0x2e200608, 0x00000000, 0x3f800000 },
    { 0x00600001, 0x2e400608, 0x00000000, 0x3f800000 },
    { 0x00600001, 0x2e600608, 0x00000000, 0x3f800000 },
    { 0x00600001, 0x2e800608, 0x00000000, 0x3f800000 },
    { 0x00600001, 0x2ea00608, 0x00000000, 0x3f800000 },
    { 0x00600001, 0x2ec00608, 0x00000000, 0x3f800000 },
    { 0x00600001, 0x2ee00608, 0x00000000, 0x3f800000 },
    { 0x05800031, 0x200022e0, 0x0e000e00, 0x90031000 },
};

#define TARGET_W        64
#define TARGET_H        16

/* State offsets in the one-page state buffer (surface/dynamic/kernel). */
#define ST_BT           0x000
#define ST_SURF         0x040
#define ST_KERNEL       0x100
#define ST_VB           0x200

static void put(Gpu *g, const Buf *b, uint32_t off, uint32_t v)
{
    qtest_writel(g->qts, b->phys + off, v);
}

static uint32_t f32(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

/* Emit command @name packed by @pack from the fields that follow. */
#define EMIT_CMD(g, b, name, pack, ...) do { \
        uint32_t dw_[GEN11_##name##_LENGTH]; \
        pack(dw_, &(Gen11_##name) { __VA_ARGS__ }); \
        buf_emit((g), (b), dw_, GEN11_##name##_LENGTH); \
    } while (0)

/*
 * Draw the rectangle (@x0, @y0)-(@x1, @y1) @instances times into @target
 * through @state, the drawing rectangle (0, 0)-(@dw - 1, @dh - 1).
 */
static void emit_draw(Gpu *g, Buf *batch, const Buf *state,
                      const Buf *target, float x0, float y0, float x1,
                      float y1, uint32_t dw, uint32_t dh, uint32_t instances)
{
    const float v[3][2] = { { x1, y1 }, { x0, y1 }, { x0, y0 } };
    Gen11_RENDER_SURFACE_STATE ss = {
        .surface_type = 1,                      /* SURFTYPE_2D */
        .surface_format = 0x0c0,                /* B8G8R8A8_UNORM */
        .width = TARGET_W - 1,
        .height = TARGET_H - 1,
        .surface_pitch = TARGET_W * 4 - 1,
        /* SCS_RED, GREEN, BLUE, ALPHA */
        .shader_channel_select_red = 4,
        .shader_channel_select_green = 5,
        .shader_channel_select_blue = 6,
        .shader_channel_select_alpha = 7,
        .surface_base_address = target->gtt,
    };
    /*
     * Vertex buffer 0: three vertices of x, y.  Element 0 is the VUE
     * header (zeros), element 1 the position (x, y, 0, 1).
     */
    Gen11_VERTEX_BUFFER_STATE vb = {
        .address_modify_enable = true,
        .buffer_pitch = 8,
        .buffer_starting_address = state->gtt + ST_VB,
        .buffer_size = 24,
    };
    Gen11_VERTEX_ELEMENT_STATE ve[2] = {
        { .valid = true, .component_0_control = 2,
          .component_1_control = 2, .component_2_control = 2,
          .component_3_control = 2 },                   /* VFCOMP_STORE_0 */
        { .valid = true, .source_element_format = 0x085, /* R32G32_FLOAT */
          .component_0_control = 1, .component_1_control = 1,
          .component_2_control = 2, .component_3_control = 3 },
    };
    uint32_t d[GEN11_RENDER_SURFACE_STATE_LENGTH];

    gen11_binding_table_state_pack(d, &(Gen11_BINDING_TABLE_STATE) {
        .surface_state_pointer = ST_SURF,
    });
    put(g, state, ST_BT, d[0]);
    gen11_render_surface_state_pack(d, &ss);
    for (unsigned i = 0; i < GEN11_RENDER_SURFACE_STATE_LENGTH; i++) {
        put(g, state, ST_SURF + 4 * i, d[i]);
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(fill_kernel); i++) {
        for (unsigned j = 0; j < 4; j++) {
            put(g, state, ST_KERNEL + 16 * i + 4 * j, fill_kernel[i][j]);
        }
    }
    for (unsigned i = 0; i < 3; i++) {
        put(g, state, ST_VB + 8 * i, f32(v[i][0]));
        put(g, state, ST_VB + 8 * i + 4, f32(v[i][1]));
    }

    emit_pipeline_select(g, batch, PIPELINE_SELECT_3D);
    emit_sba_igt(g, batch, state->gtt);
    EMIT_CMD(g, batch, 3DSTATE_VF_TOPOLOGY, gen11_3dstate_vf_topology_pack,
             .primitive_topology_type = 0x0f);          /* RECTLIST */
    EMIT(g, batch, GEN11_3DSTATE_VERTEX_BUFFERS_HEADER |
         (1 + GEN11_VERTEX_BUFFER_STATE_LENGTH - 2));
    gen11_vertex_buffer_state_pack(d, &vb);
    buf_emit(g, batch, d, GEN11_VERTEX_BUFFER_STATE_LENGTH);
    EMIT(g, batch, GEN11_3DSTATE_VERTEX_ELEMENTS_HEADER |
         (1 + 2 * GEN11_VERTEX_ELEMENT_STATE_LENGTH - 2));
    for (unsigned i = 0; i < 2; i++) {
        gen11_vertex_element_state_pack(d, &ve[i]);
        buf_emit(g, batch, d, GEN11_VERTEX_ELEMENT_STATE_LENGTH);
    }
    EMIT_CMD(g, batch, 3DSTATE_DRAWING_RECTANGLE,
             gen11_3dstate_drawing_rectangle_pack,
             .clipped_drawing_rectangle_x_max = dw - 1,
             .clipped_drawing_rectangle_y_max = dh - 1);
    EMIT_CMD(g, batch, 3DSTATE_BINDING_TABLE_POINTERS_PS,
             gen11_3dstate_binding_table_pointers_ps_pack,
             .pointer_to_ps_binding_table = ST_BT);
    EMIT_CMD(g, batch, 3DSTATE_PS, gen11_3dstate_ps_pack,
             .kernel_start_pointer_0 = ST_KERNEL,
             .binding_table_entry_count = 1,
             ._16_pixel_dispatch_enable = true,
             .dispatch_grf_start_register_for_constant_setup_data_0 = 6);
    EMIT_CMD(g, batch, 3DSTATE_PS_EXTRA, gen11_3dstate_ps_extra_pack,
             .pixel_shader_valid = true);
    EMIT_CMD(g, batch, 3DPRIMITIVE, gen11_3dprimitive_pack,
             .vertex_count_per_instance = 3, .instance_count = instances);
    EMIT(g, batch, MI_BATCH_BUFFER_END);
}

static void start_draw(Gpu *g, Buf *target, float x0, float y0, float x1,
                       float y1, uint32_t dw, uint32_t dh, uint32_t instances)
{
    Buf ring = buf_new(g, 1), batch = buf_new(g, 1), state = buf_new(g, 1);

    emit_draw(g, &batch, &state, target, x0, y0, x1, y1, dw, dh, instances);
    EMIT(g, &ring, MI_BATCH_BUFFER_START_GEN8, batch.gtt, 0);
    ring_submit(g, INTEL_RCS0_BASE, &ring);
}

/* The rectangle (8, 4)-(40, 12) is white, the rest untouched. */
static void test_render_fill(void)
{
    Buf target;
    Gpu g;

    gpu_start(&g);
    target = buf_new(&g, 1);
    start_draw(&g, &target, 8, 4, 40, 12, TARGET_W, TARGET_H, 1);
    cs_settle(&g);
    assert_ring_idle(&g, INTEL_RCS0_BASE);
    for (uint32_t y = 0; y < TARGET_H; y++) {
        for (uint32_t x = 0; x < TARGET_W; x++) {
            bool in = x >= 8 && x < 40 && y >= 4 && y < 12;

            uint32_t px = buf_readl(&g, &target, (y * TARGET_W + x) * 4);

            g_assert_cmphex(px, ==, in ? 0xffffffffu : 0);
        }
    }
    gpu_stop(&g);
}

/*
 * A 16384 x 16384 rectangle drawn 2^32 - 1 times: far more than the
 * steps the test runs execute.  The engine stays busy, registers answer
 * between steps, and a GDRST render reset ends the draw: a new request
 * runs.
 */
static void test_render_hostile_huge(void)
{
    uint32_t rcs = INTEL_RCS0_BASE;
    Buf target;
    Gpu g;

    gpu_start(&g);
    target = buf_new(&g, 1);
    start_draw(&g, &target, 0, 0, 16384, 16384, 16384, 16384, ~0u);
    for (unsigned i = 0; i < 4; i++) {
        cs_settle(&g);
        g_assert_false(engine_idle(&g, rcs));
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
    }
    /* What it drew is what fits in the target: all of it white. */
    g_assert_cmphex(buf_readl(&g, &target, 0), ==, 0xffffffffu);

    engine_stop_reset_run(&g, rcs, INTEL_GRDOM_RENDER);
    gpu_stop(&g);
}

/*
 * A draw of 4 x 16384 x 16 pixels in SIMD16 threads of 9 instructions:
 * some 12 steps.  Migrated 200 us in, mid-draw, it ends as it does
 * without migration: the same pixels and the same count of pixel shader
 * threads (the free-running A6), so the draw resumed, not restarted.
 */
static GByteArray *draw_workload(bool migrate)
{
    uint32_t rcs = INTEL_RCS0_BASE, threads;
    GByteArray *out = g_byte_array_new();
    uint8_t pixels[TARGET_W * TARGET_H * 4];
    Buf target;
    Gpu g;

    gpu_start(&g);
    target = buf_new(&g, 1);
    start_draw(&g, &target, 0, 0, 16384, 16, 16384, 16, 4);
    qtest_clock_step(g.qts, 200 * 1000);
    g_assert_false(engine_idle(&g, rcs));
    gpu_maybe_migrate(&g, migrate, GPU_ARGS);
    engine_settle_idle(&g, rcs);
    qtest_memread(g.qts, target.phys, pixels, sizeof(pixels));
    g_byte_array_append(out, pixels, sizeof(pixels));
    threads = rd(&g, INTEL_OAPERF_FREE(1));
    g_assert_cmpuint(threads, ==, 4 * 16384 * 16 / 16);
    g_byte_array_append(out, (uint8_t *)&threads, sizeof(threads));
    gpu_stop(&g);
    return out;
}

static void test_migrate_mid_draw(void)
{
    gpu_migrate_check(draw_workload);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/intel-gpu/render/fill", test_render_fill);
    qtest_add_func("/intel-gpu/render/hostile-huge",
                   test_render_hostile_huge);
    qtest_add_func("/intel-gpu/render/migrate-mid-draw",
                   test_migrate_mid_draw);
    return g_test_run();
}
