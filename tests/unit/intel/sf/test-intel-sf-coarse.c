/*
 * Unit tests of the intel-gpu shared functions: IGT's render copy pixel
 * shader (lib/rendercopy_gen9.c), and coarse access (lines, combined
 * writes, cached states).  test-intel-sf.c has the helpers and registers
 * these tests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "test-intel-sf.h"
#include "tiling-ref.h"
#include "igt-kernels.h"

/* ---- IGT's render copy pixel shader (lib/rendercopy_gen9.c) ---- */

/*
 * The kernel's sample (SIMD16, BTI 1) and render target write (BTI 0)
 * copy a 4x4 B8G8R8A8 texture to a Y-tiled target.  The payload (PRM
 * Vol 7, "PS Thread Payload for Normal Dispatch"): r2/r3 the pixel
 * barycentrics b1, b2 of channels 0-7, r4/r5 of channels 8-15, r6 the
 * plane constants: u = r6.3 + b1 r6.0 + b2 r6.1, v = r6.7 + b1 r6.4 +
 * b2 r6.5; here u = b1 and v = b2, the texel centres.  Where the
 * interpreter cannot decode the interpolation (mad with an :nf
 * accumulator source), the thread starts at the sample with the centres
 * already in g113-g116, as the mads leave them.
 */
void test_render_copy_kernel(Fixture *f, gconstpointer data)
{
    IntelSfStats st = { 0 };
    IntelSfThread th = {
        .e = eng(f, RCS),
        .surface_state_base = SSB,
        .binding_table_base = SSB,
        .dynamic_state_base = DSB,
        .sampler_state = SAMPLERS,
        .simd = 16,
        .pixel_mask = 0xffff,
        .stats = &st,
    };
    EuThread *t = g_new0(EuThread, 1);

    for (unsigned i = 0; i < 16; i++) {
        *ram(f, SURF_A + i * 4 + 0) = i;
        *ram(f, SURF_A + i * 4 + 1) = 0x10 + i;
        *ram(f, SURF_A + i * 4 + 2) = 0x20 + i;
        *ram(f, SURF_A + i * 4 + 3) = 0xf0 + i;
    }
    memset(ram(f, SURF_B), 0, 0x1000);
    put_surface(f, 1, INTEL_SURFTYPE_2D, INTEL_SF_B8G8R8A8_UNORM, 4, 4, 16,
                TILE_LINEAR, SURF_A);
    put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_B8G8R8A8_UNORM, 4, 4, 128,
                TILE_Y, SURF_B);
    put_sampler(f, 0, INTEL_MAPFILTER_NEAREST, INTEL_MAPFILTER_NEAREST,
                INTEL_TEXCOORD_CLAMP, INTEL_TEXCOORD_CLAMP);
    eu_thread_init(t, igt_ps_kernel_gen11, sizeof(igt_ps_kernel_gen11), 0xffff,
                   intel_sf_send, &th);
    for (unsigned c = 0; c < 16; c++) {
        /* Subspan s at ((s % 2) * 2, (s / 2) * 2). */
        unsigned x = (c / 4 % 2) * 2 + (c & 1);
        unsigned y = (c / 8) * 2 + ((c >> 1) & 1);
        float u = (x + 0.5f) / 4, v = (y + 0.5f) / 4;

        th.pixel_x[c] = x;
        th.pixel_y[c] = y;
        memcpy(&t->grf[(113 + c / 8) * 32 + (c % 8) * 4], &u, 4);
        memcpy(&t->grf[(115 + c / 8) * 32 + (c % 8) * 4], &v, 4);
        memcpy(&t->grf[(2 + 2 * (c / 8)) * 32 + (c % 8) * 4], &u, 4);
        memcpy(&t->grf[(3 + 2 * (c / 8)) * 32 + (c % 8) * 4], &v, 4);
    }
    {
        const float plane[8] = { 1, 0, 0, 0, 0, 1, 0, 0 };
        EuInst in;

        memcpy(&t->grf[6 * 32], plane, sizeof(plane));
        if (eu_decode(igt_ps_kernel_gen11, 16, &in) < 0) {
            g_test_message("interpolation not decoded (%s): from the sample",
                           in.error);
            t->ip = 8 * 16;
        }
    }
    g_assert_cmpint(eu_run(t, 100), ==, EU_DONE);
    for (unsigned y = 0; y < 4; y++) {
        for (unsigned x = 0; x < 4; x++) {
            g_assert_cmphex(ram_r32(f, SURF_B + ref_offset(REF_Y, 4, 128,
                                                           x * 4, y)), ==,
                            ram_r32(f, SURF_A + (y * 4 + x) * 4));
        }
    }
    g_assert_cmpuint(st.rt_pixels, ==, 16);
    g_assert_cmpuint(st.sampler_messages, ==, 1);
    g_free(t);
}

/* ---- coarse access: lines, combined writes, cached states ---- */

/* Row 0 of a 32-texel surface: texels 0-15 end the mapped GGTT. */
#define EDGE_BASE       (GGTT_MAPPED - 64)

static uint32_t edge_texel(unsigned x)
{
    return 0xff000000u | x << 16 | (x * 7) << 8 | (255 - x);
}

/* A SIMD16 thread sampling it (BTI 1) with nearest sampler 0. */
static void edge_init(Fixture *f, Sf *s)
{
    sf_init(f, s, 16);
    put_surface(f, 1, INTEL_SURFTYPE_2D, INTEL_SF_B8G8R8A8_UNORM, 32, 1,
                128, TILE_LINEAR, EDGE_BASE);
    for (unsigned x = 0; x < 16; x++) {
        ram_w32(f, EDGE_BASE + x * 4, edge_texel(x));
    }
    put_sampler(f, 0, INTEL_MAPFILTER_NEAREST, INTEL_MAPFILTER_NEAREST,
                INTEL_TEXCOORD_CLAMP, INTEL_TEXCOORD_CLAMP);
}

/*
 * A message's texels read a line at a time: a line ending its page
 * reads, the texels past the page fault as they did one by one, and
 * the message fails with the first unmapped texel's page.
 */
void test_sample_page_edge(Fixture *f, gconstpointer data)
{
    Sf s;
    float u[16], v[16];

    edge_init(f, &s);
    /* Texels 15, 0, 14, 1, ...: every line of the page, out of order. */
    for (unsigned c = 0; c < 16; c++) {
        unsigned x = c & 1 ? c / 2 : 15 - c / 2;

        u[c] = (x + 0.5f) / 32;
        v[c] = 0.5f;
    }
    g_assert_cmpint(sample16(&s, 24, u, v), ==, 0);
    for (unsigned c = 0; c < 16; c++) {
        unsigned x = c & 1 ? c / 2 : 15 - c / 2;

        g_assert_cmpfloat(chan_f(&s, 20, c), ==, x / 255.0f);
        g_assert_cmpfloat(chan_f(&s, 22, c), ==, x * 7 / 255.0f);
        g_assert_cmpfloat(chan_f(&s, 24, c), ==, (255 - x) / 255.0f);
    }
    g_assert_cmphex(intel_reg_get(f->gpu, INTEL_RING_FAULT_REG) & 1, ==, 0);

    /* Texels 8-23: the second half is on the unmapped page. */
    for (unsigned c = 0; c < 16; c++) {
        u[c] = (c + 8 + 0.5f) / 32;
    }
    g_assert_cmpint(sample16(&s, 24, u, v), ==, -1);
    g_assert_cmphex(intel_reg_get(f->gpu, INTEL_RING_FAULT_REG) & 1, ==, 1);
    g_assert_cmphex(intel_reg_get(f->gpu, INTEL_FAULT_TLB_DATA0), ==,
                    GGTT_MAPPED >> 12);
    sf_fini(&s);
}

/*
 * Render target writes combined by line leave memory as pixel by pixel
 * writes did: unlit pixels untouched, a pixel written twice holds the
 * later channel's colour, and at the first pixel on an unmapped page the
 * message stops, the pixels before it written and none after.
 */
void test_rt_write_combined(Fixture *f, gconstpointer data)
{
    static const struct {
        unsigned tile, pitch;
    } kinds[] = { { TILE_LINEAR, 128 }, { TILE_X, 512 }, { TILE_Y, 128 } };
    Sf s;

    for (unsigned k = 0; k < G_N_ELEMENTS(kinds); k++) {
        uint64_t base = SURF_B;
        RefTiling ref = kinds[k].tile == TILE_X ? REF_X :
                        kinds[k].tile == TILE_Y ? REF_Y : REF_LINEAR;

        sf_init(f, &s, 16);
        memset(ram(f, base), 0xaa, 0x8000);
        put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_B8G8R8A8_UNORM, 32, 8,
                    kinds[k].pitch, kinds[k].tile, base);
        for (unsigned c = 0; c < 16; c++) {
            s.th.pixel_x[c] = px(c) + 2;
            s.th.pixel_y[c] = py(c) + 3;
            set_chan_f(&s, 10, c, c / 15.0f);
            set_chan_f(&s, 12, c, 0);
            set_chan_f(&s, 14, c, 0);
            set_chan_f(&s, 16, c, 1.0f);
        }
        /* Channel 13 writes channel 1's pixel again; 6 and 10 unlit. */
        s.th.pixel_x[13] = s.th.pixel_x[1];
        s.th.pixel_y[13] = s.th.pixel_y[1];
        s.th.pixel_mask = 0xffff & ~(1u << 6 | 1u << 10);
        g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                                DESC(8, 0, 0, DP(12, 0x10, 0)), 16, 10, 0),
                        ==, 0);
        for (unsigned c = 0; c < 16; c++) {
            const uint8_t *p = ram(f, base + ref_offset(ref, 4,
                                                        kinds[k].pitch,
                                                        (px(c) + 2) * 4,
                                                        py(c) + 3));
            unsigned want = c == 1 ? 13 : c;

            if (c == 13) {
                continue;
            }
            if (c == 6 || c == 10) {
                g_assert_cmphex(p[2], ==, 0xaa);
                continue;
            }
            g_assert_cmphex(p[2], ==, 17 * want);
            g_assert_cmphex(p[3], ==, 255);
        }
        g_assert_cmpuint(s.st.rt_pixels, ==, 14);
        sf_fini(&s);
    }

    /* Across the end of the mapped GGTT (linear, row 0). */
    sf_init(f, &s, 16);
    memset(ram(f, EDGE_BASE), 0xaa, 64);
    put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_B8G8R8A8_UNORM, 32, 1, 128,
                TILE_LINEAR, EDGE_BASE);
    for (unsigned c = 0; c < 16; c++) {
        s.th.pixel_x[c] = c + 8;
        s.th.pixel_y[c] = 0;
        set_chan_f(&s, 10, c, 1.0f);
        set_chan_f(&s, 12, c, 1.0f);
        set_chan_f(&s, 14, c, 1.0f);
        set_chan_f(&s, 16, c, 1.0f);
    }
    /* After the faulting channel 8, channel 15 comes back to pixel 0. */
    s.th.pixel_x[15] = 0;
    s.th.pixel_mask = 0xffff & ~(1u << 3);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(8, 0, 0, DP(12, 0x10, 0)), 16, 10, 0),
                    ==, -1);
    for (unsigned x = 0; x < 16; x++) {
        bool written = x >= 8 && x != 11;

        g_assert_cmphex(ram_r32(f, EDGE_BASE + x * 4), ==,
                        written ? 0xffffffffu : 0xaaaaaaaau);
    }
    g_assert_cmphex(intel_reg_get(f->gpu, INTEL_FAULT_TLB_DATA0), ==,
                    GGTT_MAPPED >> 12);
    g_assert_cmpuint(s.st.rt_writes, ==, 0);
    sf_fini(&s);
}

/*
 * A thread keeps the states it decoded (IntelSfThread): a surface state
 * changed under it is not seen until the states are dropped.
 */
void test_state_cache(Fixture *f, gconstpointer data)
{
    Sf s;
    float u[16], v[16];

    edge_init(f, &s);
    for (unsigned c = 0; c < 16; c++) {
        u[c] = (c + 0.5f) / 32;
        v[c] = 0.5f;
    }
    g_assert_cmpint(sample16(&s, 24, u, v), ==, 0);
    /* The same thread: the first message's states (a 16-bit format). */
    put_surface(f, 1, INTEL_SURFTYPE_2D, INTEL_SF_R16_UNORM, 32, 1, 128,
                TILE_LINEAR, EDGE_BASE);
    g_assert_cmpint(intel_sf_send(s.t, &s.in, s.in.desc, s.in.ex_desc,
                                  &s.th), ==, 0);
    g_assert_cmpfloat(chan_f(&s, 20, 3), ==, 3 / 255.0f);
    /* Dropped: the new state, R16 of the same bytes. */
    intel_sf_thread_forget(&s.th);
    g_assert_cmpint(intel_sf_send(s.t, &s.in, s.in.desc, s.in.ex_desc,
                                  &s.th), ==, 0);
    g_assert_cmpfloat(chan_f(&s, 20, 3),
                      ==, (edge_texel(1) >> 16) / 65535.0f);
    sf_fini(&s);
}

