/*
 * Unit tests of the intel-gpu shared functions (hw/gpumodel/intel/sf*.c,
 * surface.c): hand-built RENDER_SURFACE_STATE and SAMPLER_STATE in guest
 * memory, one message at a time, checked against results computed by hand
 * from PRM Vol 7 (3D-Media-GPGPU: "Sampler", "Data Port", "Render Target
 * Write") and the texel addresses of tiling-ref.h.  This file has the
 * helpers, the formats, surface states and the sampler, and registers
 * the tests of test-intel-sf-*.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include "test-intel-sf.h"
#include "tiling-ref.h"

void sf_init(Fixture *f, Sf *s, unsigned simd)
{
    memset(s, 0, sizeof(*s));
    s->f = f;
    s->t = g_new0(EuThread, 1);
    s->t->exec_mask = s->t->active = simd == 32 ? 0xffffffff :
                                     simd == 16 ? 0xffff : 0xff;
    s->th = (IntelSfThread) {
        .e = eng(f, RCS),
        .surface_state_base = SSB,
        .binding_table_base = SSB,
        .dynamic_state_base = DSB,
        .sampler_state = SAMPLERS,
        .simd = simd,
        .general_state_base = GSB,
        .stats = &s->st,
    };
}

void sf_fini(Sf *s)
{
    g_free(s->t);
}

int sf_sends(Sf *s, unsigned sfid, uint32_t desc, uint32_t ex_desc,
             unsigned exec, unsigned src, unsigned src1, unsigned dst)
{
    memset(&s->in, 0, sizeof(s->in));
    s->in.opcode = src1 ? EU_OP_SENDS : EU_OP_SEND;
    s->in.is_send = true;
    s->in.sfid = sfid;
    s->in.exec_size = exec;
    s->in.src[0].file = EU_FILE_GRF;
    s->in.src[0].nr = src;
    s->in.src[1].file = EU_FILE_GRF;
    s->in.src[1].nr = src1;
    s->in.dst.file = EU_FILE_GRF;
    s->in.dst.nr = dst;
    s->in.desc = desc;
    s->in.ex_desc = ex_desc;
    /* Each message a dispatch of its own: the tests change states. */
    intel_sf_thread_forget(&s->th);
    return intel_sf_send(s->t, &s->in, desc, ex_desc, &s->th);
}

int sf_send(Sf *s, unsigned sfid, uint32_t desc, unsigned exec,
            unsigned src, unsigned dst)
{
    return sf_sends(s, sfid, desc, 0, exec, src, 0, dst);
}

void set_ud(Sf *s, unsigned reg, unsigned i, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(&s->t->grf[reg * 32 + i * 4], &v, 4);
}

void set_f(Sf *s, unsigned reg, unsigned i, float f)
{
    set_ud(s, reg, i, intel_sf_f2u(f));
}

uint32_t get_ud(Sf *s, unsigned reg, unsigned i)
{
    uint32_t v;

    memcpy(&v, &s->t->grf[reg * 32 + i * 4], 4);
    return GUINT32_FROM_LE(v);
}

float get_f(Sf *s, unsigned reg, unsigned i)
{
    return intel_sf_u2f(get_ud(s, reg, i));
}

/* Channel c of a per-channel SIMD16 (or 8) parameter at @reg. */
void set_chan_f(Sf *s, unsigned reg, unsigned c, float f)
{
    set_f(s, reg + c / 8, c % 8, f);
}

float chan_f(Sf *s, unsigned reg, unsigned c)
{
    return get_f(s, reg + c / 8, c % 8);
}

uint8_t *ram(Fixture *f, uint64_t pa)
{
    return f->fh->ram + pa;
}

void put_state(Fixture *f, unsigned bti, const uint32_t ss[16])
{
    Gen11_BINDING_TABLE_STATE bte = {
        .surface_state_pointer = SS_AT + bti * 64,
    };
    uint32_t entry;

    gen11_binding_table_state_pack(&entry, &bte);
    ram_w32(f, SSB + bti * 4, entry);
    for (unsigned i = 0; i < 16; i++) {
        ram_w32(f, SSB + SS_AT + bti * 64 + i * 4, ss[i]);
    }
}

void put_surface_state(Fixture *f, unsigned bti,
                       const Gen11_RENDER_SURFACE_STATE *ss)
{
    uint32_t dw[GEN11_RENDER_SURFACE_STATE_LENGTH];

    gen11_render_surface_state_pack(dw, ss);
    put_state(f, bti, dw);
}

/* A 2D surface as gen8_bind_buf (IGT lib/rendercopy_gen9.c) makes it. */
void put_surface(Fixture *f, unsigned bti, unsigned type,
                 unsigned format, unsigned w, unsigned h,
                 unsigned pitch, unsigned tile, uint64_t base)
{
    put_surface_state(f, bti, &(Gen11_RENDER_SURFACE_STATE) {
        .surface_type = type,
        .surface_format = format,
        .tile_mode = tile,
        .width = w - 1,
        .height = h - 1,
        .surface_pitch = pitch - 1,
        .shader_channel_select_red = INTEL_SCS_RED,
        .shader_channel_select_green = INTEL_SCS_GREEN,
        .shader_channel_select_blue = INTEL_SCS_BLUE,
        .shader_channel_select_alpha = INTEL_SCS_ALPHA,
        .surface_base_address = base,
    });
}

/*
 * A buffer of @n entries of @format: the count less one split over
 * Width (its bits 6:0), Height (20:7) and Depth (31:21).
 */
void put_buffer(Fixture *f, unsigned bti, unsigned format,
                uint32_t n, unsigned pitch, uint64_t base)
{
    n--;
    put_surface_state(f, bti, &(Gen11_RENDER_SURFACE_STATE) {
        .surface_type = INTEL_SURFTYPE_BUFFER,
        .surface_format = format,
        .width = n & 0x7f,
        .height = (n >> 7) & 0x3fff,
        .depth = n >> 21,
        .surface_pitch = pitch - 1,
        .surface_base_address = base,
    });
}

void put_sampler(Fixture *f, unsigned index, unsigned min,
                 unsigned mag, unsigned wrap_x, unsigned wrap_y)
{
    Gen11_SAMPLER_STATE ss = {
        .min_mode_filter = min,
        .mag_mode_filter = mag,
        .border_color_pointer = BORDER,
        .tcx_address_control_mode = wrap_x,
        .tcy_address_control_mode = wrap_y,
        .tcz_address_control_mode = INTEL_TEXCOORD_CLAMP,
    };
    uint32_t dw[GEN11_SAMPLER_STATE_LENGTH];

    gen11_sampler_state_pack(dw, &ss);
    for (unsigned i = 0; i < GEN11_SAMPLER_STATE_LENGTH; i++) {
        ram_w32(f, DSB + SAMPLERS + index * sizeof(dw) + i * 4, dw[i]);
    }
}

/* Pixel c of a SIMD16 dispatch: four 2x2 subspans along x. */
unsigned px(unsigned c)
{
    return 2 * (c / 4) + (c & 1);
}

unsigned py(unsigned c)
{
    return (c >> 1) & 1;
}

/* ---- formats ---- */

static void test_formats(Fixture *f, gconstpointer data)
{
    uint8_t t[16];
    uint32_t rgba[4];
    const uint32_t in[4] = { intel_sf_f2u(1.0f), intel_sf_f2u(0.5f),
                             intel_sf_f2u(0.0f), intel_sf_f2u(0.2f) };

    /* B8G8R8A8: B in byte 0; 0.5 rounds to 128, 0.2 * 255 = 51. */
    memset(t, 0, sizeof(t));
    intel_format_encode(INTEL_SF_B8G8R8A8_UNORM, in, 0xf, t);
    g_assert_cmphex(t[0], ==, 0);
    g_assert_cmphex(t[1], ==, 128);
    g_assert_cmphex(t[2], ==, 255);
    g_assert_cmphex(t[3], ==, 51);
    intel_format_decode(INTEL_SF_B8G8R8A8_UNORM, t, rgba);
    g_assert_cmpfloat(intel_sf_u2f(rgba[0]), ==, 1.0f);
    g_assert_cmpfloat(intel_sf_u2f(rgba[1]), ==, 128 / 255.0f);
    g_assert_cmpfloat(intel_sf_u2f(rgba[2]), ==, 0.0f);
    g_assert_cmpfloat(intel_sf_u2f(rgba[3]), ==, 51 / 255.0f);

    /* Out of range and NaN: clamped, NaN to 0. */
    {
        const uint32_t odd[4] = { intel_sf_f2u(-1.0f), intel_sf_f2u(2.0f),
                                  intel_sf_f2u(NAN),
                                  intel_sf_f2u(1.0f / 510) };

        intel_format_encode(INTEL_SF_R8G8B8A8_UNORM, odd, 0xf, t);
        g_assert_cmphex(t[0], ==, 0);
        g_assert_cmphex(t[1], ==, 255);
        g_assert_cmphex(t[2], ==, 0);
        g_assert_cmphex(t[3], ==, 1);       /* 0.5 rounds up */
    }

    /* B5G6R5: R 15:11, G 10:5, B 4:0; no alpha reads as 1.0. */
    memset(t, 0, sizeof(t));
    intel_format_encode(INTEL_SF_B5G6R5_UNORM, in, 0xf, t);
    g_assert_cmphex(t[0] | t[1] << 8, ==, 31u << 11 | 32u << 5 | 0);
    intel_format_decode(INTEL_SF_B5G6R5_UNORM, t, rgba);
    g_assert_cmpfloat(intel_sf_u2f(rgba[1]), ==, 32 / 63.0f);
    g_assert_cmpfloat(intel_sf_u2f(rgba[3]), ==, 1.0f);

    /* R10G10B10A2: 0.5 -> 512 (511.5 + 0.5), 0.2 * 3 = 0.6 -> 1. */
    intel_format_encode(INTEL_SF_R10G10B10A2_UNORM, in, 0xf, t);
    g_assert_cmphex(t[0] | t[1] << 8 | t[2] << 16 | (uint32_t)t[3] << 24, ==,
                    1023u | 512u << 10 | 0u << 20 | 1u << 30);

    /* R16G16B16A16_FLOAT: halves; the write mask keeps alpha. */
    memset(t, 0xee, sizeof(t));
    intel_format_encode(INTEL_SF_R16G16B16A16_FLOAT, in, 0x7, t);
    g_assert_cmphex(t[0] | t[1] << 8, ==, 0x3c00);
    g_assert_cmphex(t[2] | t[3] << 8, ==, 0x3800);
    g_assert_cmphex(t[4] | t[5] << 8, ==, 0x0000);
    g_assert_cmphex(t[6] | t[7] << 8, ==, 0xeeee);

    /* B8G8R8X8: alpha is not stored and reads as 1.0. */
    memset(t, 0, sizeof(t));
    intel_format_encode(INTEL_SF_B8G8R8X8_UNORM, in, 0xf, t);
    g_assert_cmphex(t[3], ==, 0);
    intel_format_decode(INTEL_SF_B8G8R8X8_UNORM, t, rgba);
    g_assert_cmpfloat(intel_sf_u2f(rgba[3]), ==, 1.0f);

    /* R32_UINT: integers as they are; G and B 0, alpha 1. */
    {
        const uint32_t ints[4] = { 0xdeadbeef, 7, 7, 7 };

        intel_format_encode(INTEL_SF_R32_UINT, ints, 0xf, t);
        intel_format_decode(INTEL_SF_R32_UINT, t, rgba);
        g_assert_cmphex(rgba[0], ==, 0xdeadbeef);
        g_assert_cmphex(rgba[1], ==, 0);
        g_assert_cmphex(rgba[3], ==, 1);
    }
    /*
     * sRGB: 0.25 linear is 0.5371 (137 of 255), 0.002 on the linear
     * piece 0.0258 (7); alpha stays linear.
     */
    {
        const uint32_t lin[4] = { intel_sf_f2u(0.25f), intel_sf_f2u(0.002f),
                                  intel_sf_f2u(1.0f), intel_sf_f2u(0.5f) };

        intel_format_encode(INTEL_SF_R8G8B8A8_UNORM_SRGB, lin, 0xf, t);
        g_assert_cmphex(t[0], ==, 137);
        g_assert_cmphex(t[1], ==, 7);
        g_assert_cmphex(t[2], ==, 255);
        g_assert_cmphex(t[3], ==, 128);
        intel_format_decode(INTEL_SF_R8G8B8A8_UNORM_SRGB, t, rgba);
        g_assert_cmpfloat_with_epsilon(intel_sf_u2f(rgba[0]), 0.2502f, 0.001);
        g_assert_cmpfloat(intel_sf_u2f(rgba[2]), ==, 1.0f);
        g_assert_cmpfloat(intel_sf_u2f(rgba[3]), ==, 128 / 255.0f);
    }

    /* SNORM: -1.0 is -127 (0x81), 0x80 reads as -1.0 too; SINT signed. */
    {
        const uint32_t sn[4] = { intel_sf_f2u(-1.0f), intel_sf_f2u(0.5f),
                                 intel_sf_f2u(-2.0f), intel_sf_f2u(1.0f) };

        intel_format_encode(INTEL_SF_R8G8B8A8_SNORM, sn, 0xf, t);
        g_assert_cmphex(t[0], ==, 0x81);
        g_assert_cmphex(t[1], ==, 64);      /* 63.5 rounds away from 0 */
        g_assert_cmphex(t[2], ==, 0x81);
        g_assert_cmphex(t[3], ==, 0x7f);
        t[2] = 0x80;
        intel_format_decode(INTEL_SF_R8G8B8A8_SNORM, t, rgba);
        g_assert_cmpfloat(intel_sf_u2f(rgba[0]), ==, -1.0f);
        g_assert_cmpfloat(intel_sf_u2f(rgba[2]), ==, -1.0f);
        g_assert_cmpfloat(intel_sf_u2f(rgba[1]), ==, 64 / 127.0f);
        intel_format_decode(INTEL_SF_R8G8B8A8_SINT, t, rgba);
        g_assert_cmpint((int32_t)rgba[0], ==, -127);
        g_assert_cmpint((int32_t)rgba[2], ==, -128);
        g_assert_true(intel_format_is_int(INTEL_SF_R8G8B8A8_SINT));
    }
    g_assert_cmpuint(intel_format_cpp(INTEL_SF_R16_UNORM), ==, 2);
    g_assert_cmpuint(intel_format_cpp(INTEL_SF_R32G32B32A32_FLOAT), ==, 16);
    g_assert_cmpuint(intel_format_cpp(0x1c1), ==, 0);   /* unknown */
}

/* ---- surface and sampler states ---- */

static void test_surface_state(Fixture *f, gconstpointer data)
{
    Sf s;
    IntelSurface surf;
    IntelSamplerState ss;

    sf_init(f, &s, 16);
    put_surface(f, 3, INTEL_SURFTYPE_2D, INTEL_SF_B8G8R8A8_UNORM, 100, 20,
                512, TILE_X, 0x123456000ull);
    g_assert_true(intel_surface_load(&s.th, 3, &surf));
    g_assert_cmpuint(surf.type, ==, INTEL_SURFTYPE_2D);
    g_assert_cmpuint(surf.width, ==, 100);
    g_assert_cmpuint(surf.height, ==, 20);
    g_assert_cmpuint(surf.pitch, ==, 512);
    g_assert_cmpuint(surf.cpp, ==, 4);
    g_assert_cmpuint(surf.tiling, ==, INTEL_TILING_X);
    g_assert_cmphex(surf.base, ==, 0x123456000ull);
    g_assert_cmpuint(surf.scs[0], ==, INTEL_SCS_RED);
    g_assert_cmpuint(surf.scs[3], ==, INTEL_SCS_ALPHA);

    /* A buffer's entry count is split over width, height and depth. */
    put_buffer(f, 4, INTEL_SF_RAW, 0x12345, 1, SURF_A);
    g_assert_true(intel_surface_load(&s.th, 4, &surf));
    g_assert_cmpuint(intel_surface_bytes(&surf), ==, 0x12345);

    /* W tiling, an unknown format, a pitch below the width: refused. */
    put_surface(f, 5, INTEL_SURFTYPE_2D, INTEL_SF_R8_UNORM, 64, 64, 64, 1,
                SURF_A);
    g_assert_false(intel_surface_load(&s.th, 5, &surf));
    g_assert_cmpuint(f->fh->unimps, ==, 1);
    put_surface(f, 5, INTEL_SURFTYPE_2D, 0x1c1, 64, 64, 64, 0, SURF_A);
    g_assert_false(intel_surface_load(&s.th, 5, &surf));
    g_assert_cmpuint(f->fh->unimps, ==, 2);
    /*
     * Surface Format is ten bits (27:18): 0x200 up are ASTC formats, not
     * the ones below them (read as nine bits, 0x2c7 was R8G8B8A8_UNORM).
     */
    put_surface(f, 5, INTEL_SURFTYPE_2D, 0x200 | INTEL_SF_R8G8B8A8_UNORM,
                64, 64, 256, TILE_LINEAR, SURF_A);
    g_assert_false(intel_surface_load(&s.th, 5, &surf));
    g_assert_cmpuint(f->fh->unimps, ==, 3);
    put_surface(f, 5, INTEL_SURFTYPE_2D, INTEL_SF_R8G8B8A8_UNORM, 64, 4, 64,
                TILE_LINEAR, SURF_A);
    g_assert_false(intel_surface_load(&s.th, 5, &surf));
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    /* X tiling needs whole 512-byte tiles per row. */
    put_surface(f, 5, INTEL_SURFTYPE_2D, INTEL_SF_R8G8B8A8_UNORM, 64, 4, 256,
                TILE_X, SURF_A);
    g_assert_false(intel_surface_load(&s.th, 5, &surf));

    /*
     * A binding table in the binding table pool (iris on Gen11): read
     * from binding_table_base; its entry still points from the surface
     * state base (entry 3's surface state above).
     */
    ram_w32(f, GSB + 0x40 + 6 * 4, ram_r32(f, SSB + 3 * 4));
    s.th.binding_table_base = GSB;
    s.th.binding_table = 0x40;
    g_assert_true(intel_surface_load(&s.th, 6, &surf));
    g_assert_cmpuint(surf.width, ==, 100);
    g_assert_cmphex(surf.base, ==, 0x123456000ull);
    s.th.binding_table_base = SSB;
    s.th.binding_table = 0;

    /* SAMPLER_STATE: filters, TCX/TCY/TCZ, the border colour. */
    put_sampler(f, 2, INTEL_MAPFILTER_LINEAR, INTEL_MAPFILTER_NEAREST,
                INTEL_TEXCOORD_MIRROR, INTEL_TEXCOORD_CLAMP_BORDER);
    ram_w32(f, DSB + BORDER + 4, intel_sf_f2u(0.75f));
    g_assert_true(intel_sampler_state_load(&s.th, 2, &ss));
    g_assert_cmpuint(ss.min_filter, ==, INTEL_MAPFILTER_LINEAR);
    g_assert_cmpuint(ss.mag_filter, ==, INTEL_MAPFILTER_NEAREST);
    g_assert_cmpuint(ss.wrap[0], ==, INTEL_TEXCOORD_MIRROR);
    g_assert_cmpuint(ss.wrap[1], ==, INTEL_TEXCOORD_CLAMP_BORDER);
    g_assert_cmpuint(ss.wrap[2], ==, INTEL_TEXCOORD_CLAMP);
    g_assert_cmpfloat(ss.border[1], ==, 0.75f);
    sf_fini(&s);
}

/* ---- sampler ---- */

/* 4x4 R8G8B8A8 at SURF_A: texel (x, y) = (60x, 60y, 10 + x + 4y, 255). */
void put_texture(Fixture *f)
{
    for (unsigned y = 0; y < 4; y++) {
        for (unsigned x = 0; x < 4; x++) {
            uint8_t *p = ram(f, SURF_A + y * 16 + x * 4);

            p[0] = 60 * x;
            p[1] = 60 * y;
            p[2] = 10 + x + 4 * y;
            p[3] = 255;
        }
    }
    put_surface(f, 1, INTEL_SURFTYPE_2D, INTEL_SF_R8G8B8A8_UNORM, 4, 4, 16,
                TILE_LINEAR, SURF_A);
}

/* SIMD16 sample of (u[c], v[c]) from BTI 1 with sampler 0: g20.. R. */
int sample16(Sf *s, unsigned type, const float *u, const float *v)
{
    for (unsigned c = 0; c < 16; c++) {
        set_chan_f(s, 2, c, u[c]);
        set_chan_f(s, 4, c, v[c]);
    }
    return sf_send(s, EU_SFID_SAMPLER, DESC(4, 8, 0, SMP(16, type, 1)), 16,
                   2, 20);
}

static void test_sample_nearest(Fixture *f, gconstpointer data)
{
    Sf s;
    float u[16], v[16];

    sf_init(f, &s, 16);
    put_texture(f);
    put_sampler(f, 0, INTEL_MAPFILTER_NEAREST, INTEL_MAPFILTER_NEAREST,
                INTEL_TEXCOORD_CLAMP, INTEL_TEXCOORD_CLAMP);
    /* Texel centres: channel c samples texel (c % 4, c / 4). */
    for (unsigned c = 0; c < 16; c++) {
        u[c] = (c % 4 + 0.5f) / 4;
        v[c] = (c / 4 + 0.5f) / 4;
    }
    g_assert_cmpint(sample16(&s, 0, u, v), ==, 0);
    for (unsigned c = 0; c < 16; c++) {
        unsigned x = c % 4, y = c / 4;

        g_assert_cmpfloat(chan_f(&s, 20, c), ==, 60 * x / 255.0f);
        g_assert_cmpfloat(chan_f(&s, 22, c), ==, 60 * y / 255.0f);
        g_assert_cmpfloat(chan_f(&s, 24, c), ==, (10 + x + 4 * y) / 255.0f);
        g_assert_cmpfloat(chan_f(&s, 26, c), ==, 1.0f);
    }
    g_assert_cmpuint(s.st.sampler_messages, ==, 1);
    g_assert_cmpuint(s.st.sampler_texels, ==, 16);

    /* sample_lz: the same texels; a quarter texel off stays in them. */
    for (unsigned c = 0; c < 16; c++) {
        u[c] += 0.24f / 4;
    }
    g_assert_cmpint(sample16(&s, 24, u, v), ==, 0);
    for (unsigned c = 0; c < 16; c++) {
        g_assert_cmpfloat(chan_f(&s, 20, c), ==, 60 * (c % 4) / 255.0f);
    }
    sf_fini(&s);
}

static void test_sample_bilinear(Fixture *f, gconstpointer data)
{
    Sf s;
    float u[16], v[16];

    sf_init(f, &s, 16);
    put_texture(f);
    put_sampler(f, 0, INTEL_MAPFILTER_LINEAR, INTEL_MAPFILTER_LINEAR,
                INTEL_TEXCOORD_CLAMP, INTEL_TEXCOORD_CLAMP);
    for (unsigned c = 0; c < 16; c++) {
        u[c] = (c % 4 + 0.5f) / 4;
        v[c] = (c / 4 + 0.5f) / 4;
    }
    /* Channel 0: between texels (0,0) and (1,0); 1: four texels. */
    u[0] = 1.0f / 4;
    u[1] = 2.0f / 4;
    v[1] = 1.0f / 4;
    /* Channel 2 at the texel centre (2, 0): that texel alone. */
    g_assert_cmpint(sample16(&s, 24, u, v), ==, 0);
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 20, 0), 30 / 255.0f, 0.000001);
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 22, 0), 0, 0.000001);
    /* (1,0) (2,0) (1,1) (2,1): R (60 + 120) / 2, G 30, B (11+12+15+16)/4 */
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 20, 1), 90 / 255.0f, 0.000001);
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 22, 1), 30 / 255.0f, 0.000001);
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 24, 1), 13.5f / 255.0f, 0.000001);
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 20, 2), 120 / 255.0f, 0.000001);
    sf_fini(&s);
}

static void test_sample_wrap(Fixture *f, gconstpointer data)
{
    static const struct {
        unsigned mode;
        float left, right;      /* R at x = -1 and x = 4 (row 0) */
    } modes[] = {
        { INTEL_TEXCOORD_WRAP, 180, 0 },
        { INTEL_TEXCOORD_MIRROR, 0, 180 },
        { INTEL_TEXCOORD_CLAMP, 0, 180 },
        { INTEL_TEXCOORD_MIRROR_ONCE, 0, 180 },
        { INTEL_TEXCOORD_CLAMP_BORDER, -1, -1 },
    };
    Sf s;
    float u[16], v[16];

    sf_init(f, &s, 16);
    put_texture(f);
    ram_w32(f, DSB + BORDER, intel_sf_f2u(0.25f));
    for (unsigned i = 0; i < G_N_ELEMENTS(modes); i++) {
        put_sampler(f, 0, INTEL_MAPFILTER_NEAREST, INTEL_MAPFILTER_NEAREST,
                    modes[i].mode, INTEL_TEXCOORD_CLAMP);
        for (unsigned c = 0; c < 16; c++) {
            u[c] = c & 1 ? 4.5f / 4 : -0.5f / 4;
            v[c] = 0.5f / 4;
        }
        /* Further out: wrap's period is 4 texels, mirror's 8. */
        u[2] = 6.5f / 4;            /* x = 6 */
        g_assert_cmpint(sample16(&s, 24, u, v), ==, 0);
        if (modes[i].left < 0) {
            g_assert_cmpfloat(chan_f(&s, 20, 0), ==, 0.25f);
            g_assert_cmpfloat(chan_f(&s, 20, 1), ==, 0.25f);
            continue;
        }
        g_assert_cmpfloat(chan_f(&s, 20, 0), ==, modes[i].left / 255.0f);
        g_assert_cmpfloat(chan_f(&s, 20, 1), ==, modes[i].right / 255.0f);
        g_assert_cmpfloat(chan_f(&s, 20, 2), ==,
                          (modes[i].mode == INTEL_TEXCOORD_WRAP ? 120 :
                           modes[i].mode == INTEL_TEXCOORD_MIRROR ? 60 :
                           180) / 255.0f);
    }

    /* Bilinear at the left edge: wrap blends texels 3 and 0. */
    put_sampler(f, 0, INTEL_MAPFILTER_LINEAR, INTEL_MAPFILTER_LINEAR,
                INTEL_TEXCOORD_WRAP, INTEL_TEXCOORD_CLAMP);
    u[0] = 0;
    g_assert_cmpint(sample16(&s, 24, u, v), ==, 0);
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 20, 0), 90 / 255.0f, 0.000001);
    sf_fini(&s);
}

/* The header's write channel mask (M0.2 15:12) drops G and B. */
static void test_sample_header_mask(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    put_texture(f);
    put_sampler(f, 0, INTEL_MAPFILTER_NEAREST, INTEL_MAPFILTER_NEAREST,
                INTEL_TEXCOORD_CLAMP, INTEL_TEXCOORD_CLAMP);
    set_ud(&s, 10, 2, 0x6000);
    for (unsigned c = 0; c < 8; c++) {
        set_f(&s, 11, c, (c % 4 + 0.5f) / 4);
        set_f(&s, 12, c, 2.5f / 4);
    }
    set_ud(&s, 31, 0, 0x12345678);
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(3, 2, 1, SMP(8, 0, 1)), 8, 10, 30), ==, 0);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmpfloat(get_f(&s, 30, c), ==, 60 * (c % 4) / 255.0f);
        g_assert_cmpfloat(get_f(&s, 31, c), ==, 1.0f);    /* alpha */
    }
    g_assert_cmphex(get_ud(&s, 32, 0), ==, 0);  /* rlen 2: nothing more */
    sf_fini(&s);
}

/* ld on X- and Y-tiled B8G8R8A8, and ld outside the surface. */
static void test_ld_tiled(Fixture *f, gconstpointer data)
{
    static const struct {
        unsigned tile;
        RefTiling ref;
        unsigned pitch;
    } kinds[] = {
        { TILE_X, REF_X, 512 }, { TILE_Y, REF_Y, 256 },
        { TILE_LINEAR, REF_LINEAR, 260 },
    };
    Sf s;

    sf_init(f, &s, 16);
    for (unsigned k = 0; k < G_N_ELEMENTS(kinds); k++) {
        put_surface(f, 1, INTEL_SURFTYPE_2D, INTEL_SF_B8G8R8A8_UNORM, 64, 40,
                    kinds[k].pitch, kinds[k].tile, SURF_A);
        for (unsigned c = 0; c < 16; c++) {
            unsigned x = c * 4 + 1, y = c * 2 + 3;
            uint8_t *p = ram(f, SURF_A + ref_offset(kinds[k].ref, 4,
                                                    kinds[k].pitch, x * 4,
                                                    y));

            p[0] = c;               /* B */
            p[1] = 2 * c;           /* G */
            p[2] = 3 * c;           /* R */
            p[3] = 255 - c;
            set_ud(&s, 2 + c / 8, c % 8, x);
            set_ud(&s, 4 + c / 8, c % 8, y);
        }
        /* Channel 15 outside the surface: zeros. */
        set_ud(&s, 5, 7, 64);
        g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                                DESC(4, 8, 0, SMP(16, 26, 1)), 16, 2, 20),
                        ==, 0);
        for (unsigned c = 0; c < 15; c++) {
            g_assert_cmpfloat(chan_f(&s, 20, c), ==, 3 * c / 255.0f);
            g_assert_cmpfloat(chan_f(&s, 22, c), ==, 2 * c / 255.0f);
            g_assert_cmpfloat(chan_f(&s, 24, c), ==, c / 255.0f);
            g_assert_cmpfloat(chan_f(&s, 26, c), ==, (255 - c) / 255.0f);
        }
        g_assert_cmpfloat(chan_f(&s, 20, 15), ==, 0);
        g_assert_cmpfloat(chan_f(&s, 26, 15), ==, 0);
    }
    /* ld (u, v, lod): LOD 1 of a one-level surface reads zero. */
    for (unsigned c = 0; c < 16; c++) {
        set_ud(&s, 6 + c / 8, c % 8, c == 3);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(6, 8, 0, SMP(16, 7, 1)), 16, 2, 20), ==, 0);
    g_assert_cmpfloat(chan_f(&s, 20, 2), ==, 6 / 255.0f);
    g_assert_cmpfloat(chan_f(&s, 20, 3), ==, 0);
    g_assert_cmpfloat(chan_f(&s, 26, 3), ==, 0);
    sf_fini(&s);
}

/*
 * A 2D array of three 4x4 R8G8B8A8 layers, QPitch 8 rows, viewed from
 * layer 1 (Minimum Array Element): texel R is 10 * layer + x.
 */
static void test_array(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    for (unsigned l = 0; l < 3; l++) {
        for (unsigned x = 0; x < 4; x++) {
            ram_w32(f, SURF_A + l * 8 * 16 + 16 + x * 4, 10 * l + x);
        }
    }
    put_surface_state(f, 1, &(Gen11_RENDER_SURFACE_STATE) {
        .surface_type = INTEL_SURFTYPE_2D,
        .surface_array = true,
        .surface_format = INTEL_SF_R8G8B8A8_UNORM,
        .surface_qpitch = 8 / 4,
        .width = 3, .height = 3, .depth = 2,
        .surface_pitch = 15,
        .minimum_array_element = 1,
        .shader_channel_select_red = INTEL_SCS_RED,
        .shader_channel_select_green = INTEL_SCS_GREEN,
        .shader_channel_select_blue = INTEL_SCS_BLUE,
        .shader_channel_select_alpha = INTEL_SCS_ALPHA,
        .surface_base_address = SURF_A,
    });
    put_sampler(f, 0, INTEL_MAPFILTER_NEAREST, INTEL_MAPFILTER_NEAREST,
                INTEL_TEXCOORD_CLAMP, INTEL_TEXCOORD_CLAMP);

    /* ld_lz (u, v, r) at (c % 4, 1), r = c / 4: layers 1, 2, none. */
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c % 4);
        set_ud(&s, 3, c, 1);
        set_ud(&s, 4, c, c / 4 + (c == 7 ? 1 : 0));
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(3, 4, 0, SMP(8, 26, 1)), 8, 2, 20), ==, 0);
    g_assert_cmpfloat(get_f(&s, 20, 1), ==, 11 / 255.0f);
    g_assert_cmpfloat(get_f(&s, 20, 6), ==, 22 / 255.0f);
    g_assert_cmpfloat(get_f(&s, 20, 7), ==, 0);        /* layer 3: none */

    /* sample_lz: r rounds to nearest even, then clamps to the layers. */
    for (unsigned c = 0; c < 8; c++) {
        set_f(&s, 2, c, (c % 4 + 0.5f) / 4);
        set_f(&s, 3, c, 1.5f / 4);
        set_f(&s, 4, c, c < 4 ? 0.5f : 7.0f);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(3, 4, 0, SMP(8, 24, 1)), 8, 2, 20), ==, 0);
    g_assert_cmpfloat(get_f(&s, 20, 2), ==, 12 / 255.0f);
    g_assert_cmpfloat(get_f(&s, 20, 5), ==, 21 / 255.0f);

    /* resinfo: the layer count in B. */
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(1, 4, 0, SMP(8, 10, 1)), 8, 2, 20), ==, 0);
    g_assert_cmpuint(get_ud(&s, 20, 0), ==, 4);
    g_assert_cmpuint(get_ud(&s, 22, 0), ==, 3);

    /* A render target write lands in layer 1's rows. */
    s.th.pixel_mask = 1;
    s.th.pixel_x[0] = 2;
    s.th.pixel_y[0] = 3;
    for (unsigned r = 0; r < 4; r++) {
        set_f(&s, 10 + r, 0, 1.0f);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(4, 0, 0, DP(12, 0x04, 1)), 8, 10, 0), ==, 0);
    g_assert_cmphex(ram_r32(f, SURF_A + (8 + 3) * 16 + 2 * 4), ==,
                    0xffffffff);
    g_assert_cmphex(ram_r32(f, SURF_A + 3 * 16 + 2 * 4), ==, 0);
    sf_fini(&s);
}

/*
 * A 3D surface, 2x2x4 R8G8B8A8, slices 4 rows apart: R is 40 z + x.  r
 * picks slices, linear filtering blends two.
 */
static void test_3d(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, SURF_A), 0, 0x100);
    for (unsigned z = 0; z < 4; z++) {
        for (unsigned x = 0; x < 2; x++) {
            for (unsigned y = 0; y < 2; y++) {
                ram_w32(f, SURF_A + (z * 4 + y) * 8 + x * 4, 40 * z + x);
            }
        }
    }
    put_surface_state(f, 1, &(Gen11_RENDER_SURFACE_STATE) {
        .surface_type = INTEL_SURFTYPE_3D,
        .surface_format = INTEL_SF_R8G8B8A8_UNORM,
        .surface_qpitch = 4 / 4,
        .width = 1, .height = 1, .depth = 3,
        .surface_pitch = 7,
        .shader_channel_select_red = INTEL_SCS_RED,
        .shader_channel_select_green = INTEL_SCS_GREEN,
        .shader_channel_select_blue = INTEL_SCS_BLUE,
        .shader_channel_select_alpha = INTEL_SCS_ALPHA,
        .surface_base_address = SURF_A,
    });
    put_sampler(f, 0, INTEL_MAPFILTER_LINEAR, INTEL_MAPFILTER_LINEAR,
                INTEL_TEXCOORD_CLAMP, INTEL_TEXCOORD_CLAMP);
    /* Texel (c % 2, 0) at slice centres c / 2, and between 1 and 2. */
    for (unsigned c = 0; c < 8; c++) {
        set_f(&s, 2, c, (c % 2 + 0.5f) / 2);
        set_f(&s, 3, c, 0.25f);
        set_f(&s, 4, c, (c / 2 + 0.5f) / 4);
    }
    set_f(&s, 4, 7, 0.5f);
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(3, 4, 0, SMP(8, 24, 1)), 8, 2, 20), ==, 0);
    for (unsigned c = 0; c < 7; c++) {
        g_assert_cmpfloat_with_epsilon(get_f(&s, 20, c),
                                       (40 * (c / 2) + c % 2) / 255.0f,
                                       0.000001);
    }
    g_assert_cmpfloat_with_epsilon(get_f(&s, 20, 7), 61 / 255.0f, 0.000001);

    /* ld_lz with an integer slice; resinfo's depth. */
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, 1);
        set_ud(&s, 3, c, 1);
        set_ud(&s, 4, c, c % 5);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(3, 4, 0, SMP(8, 26, 1)), 8, 2, 20), ==, 0);
    g_assert_cmpfloat(get_f(&s, 20, 3), ==, 121 / 255.0f);
    g_assert_cmpfloat(get_f(&s, 20, 4), ==, 0);
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(1, 4, 0, SMP(8, 10, 1)), 8, 2, 20), ==, 0);
    g_assert_cmpuint(get_ud(&s, 22, 0), ==, 4);
    sf_fini(&s);
}

static const FixtureTest tests[] = {
    { "/intel-sf/formats", test_formats },
    { "/intel-sf/surface-state", test_surface_state },
    { "/intel-sf/sampler/nearest", test_sample_nearest },
    { "/intel-sf/sampler/bilinear", test_sample_bilinear },
    { "/intel-sf/sampler/wrap", test_sample_wrap },
    { "/intel-sf/sampler/header-mask", test_sample_header_mask },
    { "/intel-sf/sampler/ld-tiled", test_ld_tiled },
    { "/intel-sf/sampler/array", test_array },
    { "/intel-sf/sampler/3d", test_3d },
    { "/intel-sf/rt-write/simd16", test_rt_write },
    { "/intel-sf/rt-write/header", test_rt_write_header },
    { "/intel-sf/rt-write/simd32", test_rt_write_simd32 },
    { "/intel-sf/rt-write/fast-clear", test_rt_fast_clear },
    { "/intel-sf/rt-write/blend-state", test_rt_write_blend_state },
    { "/intel-sf/dataport/media-block", test_media_block },
    { "/intel-sf/dataport/untyped", test_untyped },
    { "/intel-sf/dataport/untyped-atomic", test_untyped_atomic },
    { "/intel-sf/dataport/oword-block", test_oword_block },
    { "/intel-sf/dataport/byte-scattered", test_byte_scattered },
    { "/intel-sf/dataport/typed", test_typed },
    { "/intel-sf/dataport/scratch", test_scratch },
    { "/intel-sf/dataport/a64", test_a64 },
    { "/intel-sf/dataport/a64-wide", test_a64_wide },
    { "/intel-sf/malformed", test_malformed },
    { "/intel-sf/page-fault", test_page_fault },
    { "/intel-sf/coarse/sample-page-edge", test_sample_page_edge },
    { "/intel-sf/coarse/rt-write-combined", test_rt_write_combined },
    { "/intel-sf/coarse/state-cache", test_state_cache },
    { "/intel-sf/ppgtt", test_ppgtt },
    { "/intel-sf/random-messages", test_random_messages },
    { "/intel-sf/render-copy-kernel", test_render_copy_kernel },
};

FIXTURE_MAIN(fixture_setup_ggtt)
