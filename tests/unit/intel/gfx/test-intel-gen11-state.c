/*
 * The generated GFXPIPE state helpers (gen11-state.h, from
 * hw/gpumodel/intel/gen11-state.desc by scripts/gen-gfx-state.py): packs
 * checked against dwords written out by hand from the PRM's bit
 * positions, unpack as pack's inverse, fields across dwords, sign
 * extension, floats, arrays and nested structures, and a command
 * shorter than its length read as if zero-padded, never past its end.
 * (tests/unit/genxml-check.py checks the description itself against
 * Mesa's genxml.)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include "hw/gpumodel/intel/gen11-state.h"

static void test_header(void)
{
    Gen11_PIPELINE_SELECT ps = { .pipeline_selection = 2, .mask_bits = 3 };
    Gen11_MEDIA_STATE_FLUSH msf = { .interface_descriptor_offset = 5 };
    uint32_t dw[2];

    /* 3D: type 3, subtype 3, opcode 0, sub-opcode 0x20; length 12. */
    g_assert_cmphex(GEN11_3DSTATE_PS_HEADER, ==, 0x78200000u);
    g_assert_cmpuint(GEN11_3DSTATE_PS_LENGTH, ==, 12);
    g_assert_cmpuint(GEN11_3DSTATE_PS_BIAS, ==, 2);
    /* One dword, no DWord Length. */
    gen11_pipeline_select_pack(dw, &ps);
    g_assert_cmphex(dw[0], ==, 0x69040302u);
    g_assert_cmpuint(GEN11_PIPELINE_SELECT_BIAS, ==, 1);
    /* Media: a 16-bit DWord Length. */
    gen11_media_state_flush_pack(dw, &msf);
    g_assert_cmphex(dw[0], ==, 0x70040000u);
    g_assert_cmphex(dw[1], ==, 5);
    /* Varying length: the fixed part and where the elements begin. */
    g_assert_cmpuint(GEN11_MEDIA_OBJECT_LENGTH, ==, 6);
    g_assert_cmpuint(GEN11_MEDIA_OBJECT_INLINE_DATA_DW, ==, 6);
    g_assert_cmpuint(GEN11_3DSTATE_VERTEX_BUFFERS_VERTEX_BUFFER_STATE_DW,
                     ==, 1);
}

static void test_3dstate_ps(void)
{
    Gen11_3DSTATE_PS ps = {
        .kernel_start_pointer_0 = 0x0000123456789a40ull,
        .kernel_start_pointer_2 = 0xffffffffffffffc0ull,
        .push_constant_enable = true,
        ._16_pixel_dispatch_enable = true,
        .dispatch_grf_start_register_for_constant_setup_data_2 = 0x7f,
    };
    uint32_t dw[GEN11_3DSTATE_PS_LENGTH];
    Gen11_3DSTATE_PS back;

    gen11_3dstate_ps_pack(dw, &ps);
    g_assert_cmphex(dw[0], ==, 0x78200000u | (12 - 2));
    g_assert_cmphex(dw[1], ==, 0x56789a40u);
    g_assert_cmphex(dw[2], ==, 0x1234u);
    g_assert_cmphex(dw[6], ==, 1u << 11 | 1u << 1);
    g_assert_cmphex(dw[7], ==, 0x7f);
    g_assert_cmphex(dw[10], ==, 0xffffffc0u);
    g_assert_cmphex(dw[11], ==, 0xffffffffu);
    gen11_3dstate_ps_unpack(dw, G_N_ELEMENTS(dw), &back);
    g_assert_cmphex(back.kernel_start_pointer_0, ==,
                    ps.kernel_start_pointer_0);
    g_assert_cmphex(back.kernel_start_pointer_2, ==,
                    ps.kernel_start_pointer_2);
    g_assert_true(back.push_constant_enable);
    g_assert_true(back._16_pixel_dispatch_enable);
    g_assert_false(back._8_pixel_dispatch_enable);
    g_assert_cmpuint(
        back.dispatch_grf_start_register_for_constant_setup_data_2, ==, 0x7f);

    /* Low bits under an offset are not the field's: dropped. */
    ps.kernel_start_pointer_1 = 0x3f;
    gen11_3dstate_ps_pack(dw, &ps);
    g_assert_cmphex(dw[8], ==, 0);
}

/* A guest's short command: what is missing reads as 0, nothing past it. */
static void test_short(void)
{
    uint32_t dw[GEN11_3DSTATE_PS_LENGTH + 1];
    Gen11_3DSTATE_PS ps;

    for (unsigned i = 0; i < G_N_ELEMENTS(dw); i++) {
        dw[i] = ~0u;
    }
    gen11_3dstate_ps_unpack(dw, 2, &ps);
    g_assert_cmphex(ps.kernel_start_pointer_0, ==, 0xffffffc0u);
    g_assert_false(ps.push_constant_enable);
    g_assert_cmphex(ps.kernel_start_pointer_2, ==, 0);
    gen11_3dstate_ps_unpack(dw, 0, &ps);
    g_assert_cmphex(ps.kernel_start_pointer_0, ==, 0);
    /* Past its length a command is not read even if @ndw says more. */
    dw[GEN11_3DSTATE_PS_LENGTH] = 0x12345678;
    gen11_3dstate_ps_unpack(dw, G_N_ELEMENTS(dw), &ps);
    g_assert_cmphex(ps.kernel_start_pointer_2, ==, ~0ull << 6);
}

/* Surface Format is bits 27:18: ten bits (ASTC formats are 0x200 up). */
static void test_surface_state(void)
{
    uint32_t ss[GEN11_RENDER_SURFACE_STATE_LENGTH] = {
        [0] = 0x207u << 18 | 1u << 29 | 3u << 12,
        [2] = 99u << 16 | 199,
        [7] = 4u << 25 | 5u << 22 | 6u << 19 | 7u << 16,
        [8] = 0x89abc000u, [9] = 0xffff0123u,
    };
    Gen11_RENDER_SURFACE_STATE s;
    uint32_t back[GEN11_RENDER_SURFACE_STATE_LENGTH];

    gen11_render_surface_state_unpack(ss, G_N_ELEMENTS(ss), &s);
    g_assert_cmphex(s.surface_format, ==, 0x207);
    g_assert_cmpuint(s.surface_type, ==, 1);
    g_assert_cmpuint(s.tile_mode, ==, 3);
    g_assert_cmpuint(s.width, ==, 199);
    g_assert_cmpuint(s.height, ==, 99);
    g_assert_cmpuint(s.shader_channel_select_red, ==, 4);
    g_assert_cmpuint(s.shader_channel_select_alpha, ==, 7);
    g_assert_cmphex(s.surface_base_address, ==, 0xffff012389abc000ull);
    gen11_render_surface_state_pack(back, &s);
    g_assert_cmpmem(back, sizeof(back), ss, sizeof(ss));
}

static void test_signed_float(void)
{
    Gen11_3DSTATE_DRAWING_RECTANGLE dr = {
        .drawing_rectangle_origin_x = -2,
        .drawing_rectangle_origin_y = 300,
        .clipped_drawing_rectangle_x_max = 0xffff,
    };
    Gen11_SF_CLIP_VIEWPORT vp = { .viewport_matrix_element_m31 = -0.5f };
    uint32_t dw[GEN11_SF_CLIP_VIEWPORT_LENGTH];

    gen11_3dstate_drawing_rectangle_pack(dw, &dr);
    g_assert_cmphex(dw[2], ==, 0xffff);
    g_assert_cmphex(dw[3], ==, 300u << 16 | 0xfffe);
    dw[3] = 0x8000ffffu;
    gen11_3dstate_drawing_rectangle_unpack(dw, 4, &dr);
    g_assert_cmpint(dr.drawing_rectangle_origin_x, ==, -1);
    g_assert_cmpint(dr.drawing_rectangle_origin_y, ==, -32768);

    gen11_sf_clip_viewport_pack(dw, &vp);
    g_assert_cmphex(dw[4], ==, 0xbf000000u);
    vp.viewport_matrix_element_m31 = 0;
    gen11_sf_clip_viewport_unpack(dw, G_N_ELEMENTS(dw), &vp);
    g_assert_true(vp.viewport_matrix_element_m31 == -0.5f);
}

/* Arrays, and structures inside commands (whole dwords, or 16 bits). */
static void test_nested(void)
{
    Gen11_3DSTATE_CONSTANT_PS c = {
        .constant_body = {
            .read_length = { 1, 2, 3, 4 },
            .buffer = { 0x1000, 0, 0, 0xffff00000020ull },
        },
    };
    Gen11_3DSTATE_SBE_SWIZ sw = {
        .attribute[1] = { .source_attribute = 3, .constant_source = 2,
                          .component_override_w = true },
        .attribute_wrap_shortest_enables[15] = 0xf,
    };
    uint32_t dw[GEN11_3DSTATE_SBE_SWIZ_LENGTH];

    gen11_3dstate_constant_ps_pack(dw, &c);
    g_assert_cmphex(dw[0], ==, 0x78170000u | (11 - 2));
    g_assert_cmphex(dw[1], ==, 2u << 16 | 1);
    g_assert_cmphex(dw[2], ==, 4u << 16 | 3);
    g_assert_cmphex(dw[3], ==, 0x1000);
    g_assert_cmphex(dw[9], ==, 0x20);
    g_assert_cmphex(dw[10], ==, 0xffffu);
    c.constant_body.read_length[3] = 0;
    gen11_3dstate_constant_ps_unpack(dw, GEN11_3DSTATE_CONSTANT_PS_LENGTH,
                                     &c);
    g_assert_cmpuint(c.constant_body.read_length[3], ==, 4);
    g_assert_cmphex(c.constant_body.buffer[3], ==, 0xffff00000020ull);

    gen11_3dstate_sbe_swiz_pack(dw, &sw);
    g_assert_cmphex(dw[1], ==, (3u | 2u << 9 | 1u << 15) << 16);
    g_assert_cmphex(dw[10], ==, 0xf0000000u);
    sw.attribute[1].source_attribute = 0;
    gen11_3dstate_sbe_swiz_unpack(dw, GEN11_3DSTATE_SBE_SWIZ_LENGTH, &sw);
    g_assert_cmpuint(sw.attribute[1].source_attribute, ==, 3);
    g_assert_cmpuint(sw.attribute[1].constant_source, ==, 2);
    g_assert_true(sw.attribute[1].component_override_w);
    g_assert_false(sw.attribute[0].component_override_w);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/intel/gen11-state/header", test_header);
    g_test_add_func("/intel/gen11-state/3dstate-ps", test_3dstate_ps);
    g_test_add_func("/intel/gen11-state/short", test_short);
    g_test_add_func("/intel/gen11-state/surface-state", test_surface_state);
    g_test_add_func("/intel/gen11-state/signed-float", test_signed_float);
    g_test_add_func("/intel/gen11-state/nested", test_nested);
    return g_test_run();
}
