/*
 * Unit tests of the intel-gpu shared functions (hw/gpumodel/intel/sf*.c,
 * surface.c): hand-built RENDER_SURFACE_STATE and SAMPLER_STATE in guest
 * memory, one message at a time, checked against results computed by hand
 * from PRM Vol 7 (3D-Media-GPGPU: "Sampler", "Data Port", "Render Target
 * Write") and the texel addresses of tiling-ref.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include "intel-fixture.h"
#include "tiling-ref.h"
#include "intel/sf.h"
#include "igt-kernels.h"

/* Memory (GGTT == physical). */
#define SSB             0x300000u       /* surface state base */
#define SS_AT           0x1000u         /* surface states, 64 B each */
#define DSB             0x310000u       /* dynamic state base */
#define SAMPLERS        0x100u
#define BORDER          0x200u
#define BLEND           0x400u
#define SURF_A          0x320000u
#define SURF_B          0x340000u
#define GSB             0x380000u       /* general state base */

#define TILE_LINEAR     0
#define TILE_X          2
#define TILE_Y          3

#define DESC(mlen, rlen, hdr, rest) \
    ((uint32_t)(mlen) << 25 | (uint32_t)(rlen) << 20 | \
     (uint32_t)(hdr) << 19 | (rest))
/* Sampler: SIMD mode 18:17, message type 16:12, sampler 11:8, BTI 7:0. */
#define SMP(simd, type, bti) \
    ((uint32_t)((simd) == 16 ? 2 : 1) << 17 | (uint32_t)(type) << 12 | (bti))
/* Data port: message type 18:14, control 13:8, BTI 7:0. */
#define DP(type, ctrl, bti) \
    ((uint32_t)(type) << 14 | (uint32_t)(ctrl) << 8 | (bti))

typedef struct Sf {
    Fixture *f;
    EuThread *t;
    EuInst in;
    IntelSfThread th;
    IntelSfStats st;
} Sf;

static void sf_init(Fixture *f, Sf *s, unsigned simd)
{
    memset(s, 0, sizeof(*s));
    s->f = f;
    s->t = g_new0(EuThread, 1);
    s->t->exec_mask = s->t->active = simd == 32 ? 0xffffffff :
                                     simd == 16 ? 0xffff : 0xff;
    s->th = (IntelSfThread) {
        .e = eng(f, RCS),
        .surface_state_base = SSB,
        .dynamic_state_base = DSB,
        .sampler_state = SAMPLERS,
        .simd = simd,
        .general_state_base = GSB,
        .stats = &s->st,
    };
}

static void sf_fini(Sf *s)
{
    g_free(s->t);
}

static int sf_sends(Sf *s, unsigned sfid, uint32_t desc, uint32_t ex_desc,
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

static int sf_send(Sf *s, unsigned sfid, uint32_t desc, unsigned exec,
                   unsigned src, unsigned dst)
{
    return sf_sends(s, sfid, desc, 0, exec, src, 0, dst);
}

static void set_ud(Sf *s, unsigned reg, unsigned i, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(&s->t->grf[reg * 32 + i * 4], &v, 4);
}

static void set_f(Sf *s, unsigned reg, unsigned i, float f)
{
    set_ud(s, reg, i, intel_sf_f2u(f));
}

static uint32_t get_ud(Sf *s, unsigned reg, unsigned i)
{
    uint32_t v;

    memcpy(&v, &s->t->grf[reg * 32 + i * 4], 4);
    return GUINT32_FROM_LE(v);
}

static float get_f(Sf *s, unsigned reg, unsigned i)
{
    return intel_sf_u2f(get_ud(s, reg, i));
}

/* Channel c of a per-channel SIMD16 (or 8) parameter at @reg. */
static void set_chan_f(Sf *s, unsigned reg, unsigned c, float f)
{
    set_f(s, reg + c / 8, c % 8, f);
}

static float chan_f(Sf *s, unsigned reg, unsigned c)
{
    return get_f(s, reg + c / 8, c % 8);
}

static uint8_t *ram(Fixture *f, uint64_t pa)
{
    return f->fh->ram + pa;
}

static void put_state(Fixture *f, unsigned bti, const uint32_t ss[16])
{
    ram_w32(f, SSB + bti * 4, SS_AT + bti * 64);
    for (unsigned i = 0; i < 16; i++) {
        ram_w32(f, SSB + SS_AT + bti * 64 + i * 4, ss[i]);
    }
}

/* A 2D surface as gen8_bind_buf (IGT lib/rendercopy_gen9.c) makes it. */
static void put_surface(Fixture *f, unsigned bti, unsigned type,
                        unsigned format, unsigned w, unsigned h,
                        unsigned pitch, unsigned tile, uint64_t base)
{
    uint32_t ss[16] = { 0 };

    ss[0] = type << 29 | format << 18 | tile << 12;
    ss[2] = (h - 1) << 16 | (w - 1);
    ss[3] = pitch - 1;
    ss[7] = 4u << 25 | 5u << 22 | 6u << 19 | 7u << 16;
    ss[8] = (uint32_t)base;
    ss[9] = base >> 32;
    put_state(f, bti, ss);
}

/* A buffer of @n entries of @format. */
static void put_buffer(Fixture *f, unsigned bti, unsigned format,
                       uint32_t n, unsigned pitch, uint64_t base)
{
    uint32_t ss[16] = { 0 };

    n--;
    ss[0] = (uint32_t)INTEL_SURFTYPE_BUFFER << 29 | format << 18;
    ss[2] = (n & 0x7f) | ((n >> 7) & 0x3fff) << 16;
    ss[3] = (n >> 21) << 21 | (pitch - 1);
    ss[8] = (uint32_t)base;
    put_state(f, bti, ss);
}

static void put_sampler(Fixture *f, unsigned index, unsigned min,
                        unsigned mag, unsigned wrap_x, unsigned wrap_y)
{
    uint64_t at = DSB + SAMPLERS + index * 16;

    ram_w32(f, at, min << 14 | mag << 17);
    ram_w32(f, at + 4, 0);
    ram_w32(f, at + 8, BORDER);
    ram_w32(f, at + 12, wrap_x << 6 | wrap_y << 3 | INTEL_TEXCOORD_CLAMP);
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
        g_assert_cmpfloat_with_epsilon(intel_sf_u2f(rgba[0]), 0.2502f, 1e-3);
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
    put_surface(f, 5, INTEL_SURFTYPE_2D, INTEL_SF_R8G8B8A8_UNORM, 64, 4, 64,
                TILE_LINEAR, SURF_A);
    g_assert_false(intel_surface_load(&s.th, 5, &surf));
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    /* X tiling needs whole 512-byte tiles per row. */
    put_surface(f, 5, INTEL_SURFTYPE_2D, INTEL_SF_R8G8B8A8_UNORM, 64, 4, 256,
                TILE_X, SURF_A);
    g_assert_false(intel_surface_load(&s.th, 5, &surf));

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
static void put_texture(Fixture *f)
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
static int sample16(Sf *s, unsigned type, const float *u, const float *v)
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
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 20, 0), 30 / 255.0f, 1e-6);
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 22, 0), 0, 1e-6);
    /* (1,0) (2,0) (1,1) (2,1): R (60 + 120) / 2, G 30, B (11+12+15+16)/4 */
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 20, 1), 90 / 255.0f, 1e-6);
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 22, 1), 30 / 255.0f, 1e-6);
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 24, 1), 13.5f / 255.0f, 1e-6);
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 20, 2), 120 / 255.0f, 1e-6);
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
    g_assert_cmpfloat_with_epsilon(chan_f(&s, 20, 0), 90 / 255.0f, 1e-6);
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
    uint32_t ss[16] = { 0 };
    Sf s;

    sf_init(f, &s, 8);
    for (unsigned l = 0; l < 3; l++) {
        for (unsigned x = 0; x < 4; x++) {
            ram_w32(f, SURF_A + l * 8 * 16 + 16 + x * 4, 10 * l + x);
        }
    }
    ss[0] = (uint32_t)INTEL_SURFTYPE_2D << 29 | 1u << 28 |
            INTEL_SF_R8G8B8A8_UNORM << 18;
    ss[1] = 8 >> 2;
    ss[2] = 3u << 16 | 3;
    ss[3] = 2u << 21 | 15;
    ss[4] = 1u << 18;
    ss[7] = 4u << 25 | 5u << 22 | 6u << 19 | 7u << 16;
    ss[8] = SURF_A;
    put_state(f, 1, ss);
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
    uint32_t ss[16] = { 0 };
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
    ss[0] = (uint32_t)INTEL_SURFTYPE_3D << 29 |
            INTEL_SF_R8G8B8A8_UNORM << 18;
    ss[1] = 4 >> 2;
    ss[2] = 1u << 16 | 1;
    ss[3] = 3u << 21 | 7;
    ss[7] = 4u << 25 | 5u << 22 | 6u << 19 | 7u << 16;
    ss[8] = SURF_A;
    put_state(f, 1, ss);
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
                                       1e-6);
    }
    g_assert_cmpfloat_with_epsilon(get_f(&s, 20, 7), 61 / 255.0f, 1e-6);

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

/* ---- render target writes ---- */

/* Pixel c of a SIMD16 dispatch: four 2x2 subspans along x. */
static unsigned px(unsigned c)
{
    return 2 * (c / 4) + (c & 1);
}

static unsigned py(unsigned c)
{
    return (c >> 1) & 1;
}

static void test_rt_write(Fixture *f, gconstpointer data)
{
    static const struct {
        unsigned tile;
        RefTiling ref;
        unsigned pitch;
    } kinds[] = {
        { TILE_LINEAR, REF_LINEAR, 64 }, { TILE_X, REF_X, 512 },
        { TILE_Y, REF_Y, 128 },
    };
    Sf s;

    for (unsigned k = 0; k < G_N_ELEMENTS(kinds); k++) {
        sf_init(f, &s, 16);
        memset(ram(f, SURF_B), 0xaa, 0x4000);
        put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_B8G8R8A8_UNORM, 16, 4,
                    kinds[k].pitch, kinds[k].tile, SURF_B);
        for (unsigned c = 0; c < 16; c++) {
            s.th.pixel_x[c] = px(c) + 4;
            s.th.pixel_y[c] = py(c) + 1;
            set_chan_f(&s, 10, c, c / 15.0f);
            set_chan_f(&s, 12, c, 0.5f);
            set_chan_f(&s, 14, c, 1.0f - c / 15.0f);
            set_chan_f(&s, 16, c, 1.0f);
        }
        /* Pixel 0 is not lit; pixel 5 goes out of range and clamps. */
        s.th.pixel_mask = 0xfffe;
        set_chan_f(&s, 10, 5, -1.0f);
        set_chan_f(&s, 12, 5, 2.0f);
        set_chan_f(&s, 14, 5, NAN);
        g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                                DESC(8, 0, 0, DP(12, 0x10, 0)), 16, 10, 0),
                        ==, 0);
        for (unsigned c = 0; c < 16; c++) {
            const uint8_t *p = ram(f, SURF_B +
                                   ref_offset(kinds[k].ref, 4,
                                              kinds[k].pitch,
                                              (px(c) + 4) * 4, py(c) + 1));

            if (c == 0) {
                g_assert_cmphex(p[0] | p[1] << 8 | p[2] << 16 |
                                (uint32_t)p[3] << 24, ==, 0xaaaaaaaa);
                continue;
            }
            if (c == 5) {
                g_assert_cmphex(p[2], ==, 0);
                g_assert_cmphex(p[1], ==, 255);
                g_assert_cmphex(p[0], ==, 0);
                continue;
            }
            /* c / 15 * 255 = 17c exactly; 0.5 -> 128. */
            g_assert_cmphex(p[2], ==, 17 * c);
            g_assert_cmphex(p[1], ==, 128);
            g_assert_cmphex(p[0], ==, 255 - 17 * c);
            g_assert_cmphex(p[3], ==, 255);
        }
        /* Nothing else written: the row above the pixels. */
        g_assert_cmphex(ram(f, SURF_B + ref_offset(kinds[k].ref, 4,
                                                   kinds[k].pitch, 16, 0))[0],
                        ==, 0xaa);
        g_assert_cmpuint(s.st.rt_writes, ==, 1);
        g_assert_cmpuint(s.st.rt_pixels, ==, 15);
        sf_fini(&s);
    }
}

/* The second half of a SIMD32 dispatch: a SIMD16 write in 2H. */
static void test_rt_write_simd32(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 32);
    memset(ram(f, SURF_B), 0, 0x100);
    put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_R8_UNORM, 32, 4, 32,
                TILE_LINEAR, SURF_B);
    s.t->active = 0xffff0000;
    s.th.pixel_mask = 0x00ff0000 | 0x0000ffff;
    for (unsigned p = 0; p < 32; p++) {
        s.th.pixel_x[p] = p;
        s.th.pixel_y[p] = 1;
    }
    for (unsigned c = 0; c < 16; c++) {
        set_chan_f(&s, 10, c, 1.0f);
    }
    memset(&s.in, 0, sizeof(s.in));
    s.in.opcode = EU_OP_SEND;
    s.in.sfid = EU_SFID_DP_RENDER;
    s.in.exec_size = 16;
    s.in.qtr = 2;
    s.in.src[0].file = EU_FILE_GRF;
    s.in.src[0].nr = 10;
    intel_sf_thread_forget(&s.th);
    g_assert_cmpint(intel_sf_send(s.t, &s.in, DESC(8, 0, 0, DP(12, 0, 0)),
                                  0, &s.th), ==, 0);
    /* Pixels 16-23 lit: x 16-23 of row 1 written, nothing else. */
    for (unsigned x = 0; x < 32; x++) {
        g_assert_cmphex(*ram(f, SURF_B + 32 + x), ==,
                        x >= 16 && x < 24 ? 255 : 0);
    }
    g_assert_cmpuint(s.st.rt_pixels, ==, 8);
    sf_fini(&s);
}

/* SIMD8 with a header: positions in M1.2-M1.5, the pixel mask in M1.7. */
static void test_rt_write_header(Fixture *f, gconstpointer data)
{
    Sf s;
    uint16_t *px16 = (uint16_t *)ram(f, SURF_B);

    sf_init(f, &s, 8);
    memset(ram(f, SURF_B), 0, 0x1000);
    put_surface(f, 2, INTEL_SURFTYPE_2D, INTEL_SF_R16G16B16A16_FLOAT, 8, 8,
                64, TILE_LINEAR, SURF_B);
    set_ud(&s, 11, 2, 3u << 16 | 2);       /* subspan 0 at (2, 3) */
    set_ud(&s, 11, 3, 5u << 16 | 6);       /* subspan 1 at (6, 5) */
    set_ud(&s, 11, 7, 0x0f0 | 0x09);       /* pixels 0, 3, 4-7 */
    for (unsigned c = 0; c < 8; c++) {
        set_f(&s, 12, c, 1.0f);
        set_f(&s, 13, c, 0.5f);
        set_f(&s, 14, c, c);
        set_f(&s, 15, c, -2.0f);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(6, 0, 1, DP(12, 0x14, 2)), 8, 10, 0), ==, 0);
    /* Pixel 3: (3, 4); 4: (6, 5); 1 not lit: (3, 3). */
    g_assert_cmphex(px16[(4 * 8 + 3) * 4 + 0], ==, 0x3c00);
    g_assert_cmphex(px16[(4 * 8 + 3) * 4 + 1], ==, 0x3800);
    g_assert_cmphex(px16[(4 * 8 + 3) * 4 + 2], ==, 0x4200);    /* 3.0 */
    g_assert_cmphex(px16[(4 * 8 + 3) * 4 + 3], ==, 0xc000);    /* -2.0 */
    g_assert_cmphex(px16[(5 * 8 + 6) * 4 + 2], ==, 0x4400);    /* 4.0 */
    g_assert_cmphex(px16[(3 * 8 + 3) * 4 + 0], ==, 0);
    g_assert_cmpuint(s.st.rt_pixels, ==, 6);

    /* Read back (render target read, SIMD8): lit pixels only. */
    set_ud(&s, 30, 1, 0x5555);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(2, 4, 1, DP(13, 1, 2)), 8, 10, 30), ==, 0);
    g_assert_cmpfloat(get_f(&s, 30, 3), ==, 1.0f);
    g_assert_cmpfloat(get_f(&s, 31, 3), ==, 0.5f);
    g_assert_cmpfloat(get_f(&s, 32, 3), ==, 3.0f);
    g_assert_cmpfloat(get_f(&s, 33, 4), ==, -2.0f);
    g_assert_cmphex(get_ud(&s, 30, 1), ==, 0x5555);
    sf_fini(&s);
}

/* BLEND_STATE's write disables keep channels; blending is reported. */
static void test_rt_write_blend_state(Fixture *f, gconstpointer data)
{
    Sf s;
    uint8_t *p = ram(f, SURF_B);

    sf_init(f, &s, 8);
    memset(p, 0x11, 64);
    put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_R8G8B8A8_UNORM, 4, 4, 16,
                TILE_LINEAR, SURF_B);
    s.th.blend_state = BLEND;
    ram_w32(f, DSB + BLEND, 0);
    ram_w32(f, DSB + BLEND + 4, 1u << 31 | 1u << 2);   /* blend, no red */
    ram_w32(f, DSB + BLEND + 8, 0);
    s.th.pixel_mask = 1;
    for (unsigned r = 0; r < 4; r++) {
        set_f(&s, 10 + r, 0, 1.0f);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(4, 0, 0, DP(12, 0x04, 0)), 8, 10, 0), ==, 0);
    g_assert_cmphex(p[0], ==, 0x11);
    g_assert_cmphex(p[1], ==, 255);
    g_assert_cmphex(p[3], ==, 255);
    g_assert_cmpuint(f->fh->unimps, ==, 1);
    sf_fini(&s);
}

/* ---- data port ---- */

/* gpgpu/media fill's "DC media block write": a 16 x 4 block at (8, 2). */
static void test_media_block(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 16);
    memset(ram(f, SURF_B), 0, 0x4000);
    put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_R8_UNORM, 128, 64, 128,
                TILE_Y, SURF_B);
    set_ud(&s, 4, 0, 8);
    set_ud(&s, 4, 1, 2);
    set_ud(&s, 4, 2, 3u << 16 | 15);
    for (unsigned i = 0; i < 64; i++) {
        s.t->grf[5 * 32 + i] = 0x40 + i;   /* row r at r * 16 */
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 1, DP(10, 0, 0)), 16, 4, 0), ==, 0);
    for (unsigned y = 0; y < 4; y++) {
        for (unsigned x = 0; x < 16; x++) {
            g_assert_cmphex(*ram(f, SURF_B + ref_offset(REF_Y, 1, 128, 8 + x,
                                                        2 + y)), ==,
                            0x40 + y * 16 + x);
        }
    }
    g_assert_cmphex(*ram(f, SURF_B + ref_offset(REF_Y, 1, 128, 7, 2)), ==, 0);
    g_assert_cmphex(*ram(f, SURF_B + ref_offset(REF_Y, 1, 128, 24, 2)), ==,
                    0);

    /*
     * Read 4 x 2 at (-2, 1) through the render cache: X clamps to the
     * left edge, row 1 is empty, row 2 holds the block from x = 8.
     */
    *ram(f, SURF_B + ref_offset(REF_Y, 1, 128, 0, 2)) = 0x99;
    *ram(f, SURF_B + ref_offset(REF_Y, 1, 128, 1, 2)) = 0x98;
    set_ud(&s, 4, 0, (uint32_t)-2);
    set_ud(&s, 4, 1, 1);
    set_ud(&s, 4, 2, 1u << 16 | 3);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(1, 1, 1, DP(4, 0, 0)), 16, 4, 20), ==, 0);
    g_assert_cmphex(get_ud(&s, 20, 0), ==, 0);
    g_assert_cmphex(get_ud(&s, 20, 1), ==, 0x98999999);
    g_assert_cmpuint(s.st.dataport_writes, ==, 1);
    g_assert_cmpuint(s.st.dataport_reads, ==, 1);

    /* Writes outside the surface are dropped, bytes inside written. */
    set_ud(&s, 4, 0, 126);
    set_ud(&s, 4, 1, 63);
    set_ud(&s, 4, 2, 0u << 16 | 3);
    set_ud(&s, 5, 0, 0x04030201);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 0, 1, DP(10, 0, 0)), 16, 4, 0), ==, 0);
    g_assert_cmphex(*ram(f, SURF_B + ref_offset(REF_Y, 1, 128, 127, 63)), ==,
                    2);

    /*
     * An R8 surface's width counts DWords for media block messages (IGT's
     * media fill: an R8 surface 16 wide, 64-byte rows), up to its pitch.
     */
    put_surface(f, 1, INTEL_SURFTYPE_2D, INTEL_SF_R8_UNORM, 16, 4, 64,
                TILE_LINEAR, SURF_A);
    memset(ram(f, SURF_A), 0, 0x200);
    set_ud(&s, 4, 0, 48);
    set_ud(&s, 4, 1, 3);
    set_ud(&s, 4, 2, 0u << 16 | 31);
    memset(&s.t->grf[5 * 32], 0x5a, 32);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 0, 1, DP(10, 0, 1)), 16, 4, 0), ==, 0);
    g_assert_cmphex(*ram(f, SURF_A + 3 * 64 + 63), ==, 0x5a);
    g_assert_cmphex(*ram(f, SURF_A + 4 * 64), ==, 0);

    /* Reads past the right edge repeat the last element. */
    set_ud(&s, 4, 0, 126);
    set_ud(&s, 4, 1, 63);
    set_ud(&s, 4, 2, 0u << 16 | 3);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(1, 1, 1, DP(4, 0, 0)), 16, 4, 20), ==, 0);
    g_assert_cmphex(get_ud(&s, 20, 0), ==, 0x02020201);

    /* A block too large for its message fails. */
    set_ud(&s, 4, 2, 15u << 16 | 31);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 1, DP(10, 0, 0)), 16, 4, 0), ==, -1);
    sf_fini(&s);
}

static void test_untyped(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, SURF_A), 0, 0x400);
    put_buffer(f, 6, INTEL_SF_RAW, 256, 1, SURF_A);
    /* SIMD8 write of R and G (mask 0xc) at 8c; channel 7 at 252: R only. */
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c * 8);
        set_ud(&s, 3, c, 100 + c);
        set_ud(&s, 4, c, 200 + c);
    }
    set_ud(&s, 2, 7, 252);
    s.t->active = 0x7f | 0x80;
    s.t->active &= ~(1u << 3);             /* channel 3 disabled */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 0, DP(9, 0x2c, 6)), 8, 2, 0), ==, 0);
    for (unsigned c = 0; c < 7; c++) {
        g_assert_cmpuint(ram_r32(f, SURF_A + c * 8), ==, c == 3 ? 0 : 100 + c);
        g_assert_cmpuint(ram_r32(f, SURF_A + c * 8 + 4), ==,
                         c == 3 ? 0 : 200 + c);
    }
    g_assert_cmpuint(ram_r32(f, SURF_A + 252), ==, 107);
    g_assert_cmpuint(ram_r32(f, SURF_A + 256), ==, 0);    /* dropped */

    /* SIMD16 read of R, G, B (mask 0x8): past the end reads 0. */
    sf_fini(&s);
    sf_init(f, &s, 16);
    put_buffer(f, 6, INTEL_SF_RAW, 256, 1, SURF_A);
    ram_w32(f, SURF_A + 256, 0xdead);
    for (unsigned c = 0; c < 16; c++) {
        set_ud(&s, 2 + c / 8, c % 8, c * 8);
    }
    set_ud(&s, 3, 7, 256);                  /* channel 15: past the end */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 6, 0, DP(1, 0x18, 6)), 16, 2, 20), ==, 0);
    /* Channel 1 at 8: R 101, G 201, B the next channel's R. */
    g_assert_cmpuint(get_ud(&s, 20, 1), ==, 101);
    g_assert_cmpuint(get_ud(&s, 22, 1), ==, 201);
    g_assert_cmpuint(get_ud(&s, 24, 1), ==, 102);
    g_assert_cmpuint(get_ud(&s, 20, 3), ==, 0);           /* not written */
    g_assert_cmpuint(get_ud(&s, 21, 7), ==, 0);           /* not 0xdead */
    g_assert_cmpuint(s.st.dataport_reads, ==, 1);
    sf_fini(&s);
}

/* Untyped atomics: add returning the old values, compare-and-write. */
static void test_untyped_atomic(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    put_buffer(f, 6, INTEL_SF_RAW, 64, 1, SURF_A);
    for (unsigned i = 0; i < 16; i++) {
        ram_w32(f, SURF_A + i * 4, 100 + i);
    }
    ram_w32(f, SURF_A + 64, 7);
    /* Channels 0-6 add c + 1 at dword c; channel 7 is past the end. */
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c * 4);
        set_ud(&s, 3, c, c + 1);
    }
    set_ud(&s, 2, 7, 64);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 1, 0, DP(2, 0x30 | 7, 6)), 8, 2, 20),
                    ==, 0);
    for (unsigned c = 0; c < 7; c++) {
        g_assert_cmpuint(get_ud(&s, 20, c), ==, 100 + c);
        g_assert_cmpuint(ram_r32(f, SURF_A + c * 4), ==, 101 + 2 * c);
    }
    g_assert_cmpuint(get_ud(&s, 20, 7), ==, 0);
    g_assert_cmpuint(ram_r32(f, SURF_A + 64), ==, 7);

    /* CMPWR: channel 0 matches (101 -> 5), channel 1 does not. */
    s.t->active = 3;
    set_ud(&s, 3, 0, 101);
    set_ud(&s, 3, 1, 0);
    set_ud(&s, 4, 0, 5);
    set_ud(&s, 4, 1, 6);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 0, DP(2, 0x10 | 14, 6)), 8, 2, 20),
                    ==, 0);
    g_assert_cmpuint(ram_r32(f, SURF_A), ==, 5);
    g_assert_cmpuint(ram_r32(f, SURF_A + 4), ==, 103);

    /* Typed (u, v; then the source): UMAX on an R32_UINT 4x4 texel. */
    s.t->active = 0xff;
    put_surface(f, 4, INTEL_SURFTYPE_2D, INTEL_SF_R32_UINT, 4, 4, 16,
                TILE_LINEAR, SURF_B);
    memset(ram(f, SURF_B), 0, 64);
    ram_w32(f, SURF_B + 2 * 16 + 4, 50);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c == 0 ? 1 : 9);     /* only channel 0 inside */
        set_ud(&s, 3, c, 2);
        set_ud(&s, 4, c, c == 0 ? 70 : 1);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 1, 0, DP(6, 0x20 | 12, 4)), 8, 2, 20),
                    ==, 0);
    g_assert_cmpuint(get_ud(&s, 20, 0), ==, 50);
    g_assert_cmpuint(get_ud(&s, 20, 1), ==, 0);
    g_assert_cmpuint(ram_r32(f, SURF_B + 2 * 16 + 4), ==, 70);

    /* A64 (two dwords an address): INC at SURF_B + 4c. */
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2 + c / 4, (c % 4) * 2, SURF_B + 4 * c);
        set_ud(&s, 2 + c / 4, (c % 4) * 2 + 1, 0);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 1, 0, DP(0x12, 0x20 | 5, 253)), 8, 2,
                            20), ==, 0);
    g_assert_cmpuint(get_ud(&s, 20, 0), ==, 0);
    g_assert_cmpuint(ram_r32(f, SURF_B + 4 * 7), ==, 1);
    sf_fini(&s);
}

/* Stateless OWord block write and read: general state base + 16 x M0.2. */
static void test_oword_block(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, GSB), 0, 0x100);
    set_ud(&s, 40, 2, 2);
    for (unsigned i = 0; i < 8; i++) {
        set_ud(&s, 41, i, 0x1000 + i);
    }
    /* SENDS: the header from src0, the data from src1 (ex_mlen 1). */
    g_assert_cmpint(sf_sends(&s, EU_SFID_DP_DATA,
                             DESC(1, 0, 1, DP(8, 2, 255)), 1 << 6, 8, 40, 41,
                             0), ==, 0);
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmphex(ram_r32(f, GSB + 32 + i * 4), ==, 0x1000 + i);
    }
    /* One OWord, high half: the register's upper 16 bytes. */
    set_ud(&s, 40, 2, 3);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(1, 1, 1, DP(0, 1, 255)), 8, 40, 50), ==, 0);
    g_assert_cmphex(get_ud(&s, 50, 4), ==, 0x1004);
    g_assert_cmphex(get_ud(&s, 50, 7), ==, 0x1007);
    g_assert_cmphex(get_ud(&s, 50, 0), ==, 0);
    /* The constant cache reads the same way: 2 OWords at byte 36. */
    set_ud(&s, 40, 2, 36);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_CONST,
                            DESC(1, 1, 1, DP(1, 2, 255)), 8, 40, 50), ==, 0);
    g_assert_cmphex(get_ud(&s, 50, 0), ==, 0x1001);
    g_assert_cmphex(get_ud(&s, 50, 6), ==, 0x1007);
    g_assert_cmphex(get_ud(&s, 50, 7), ==, 0);
    sf_fini(&s);
}

/* Scratch blocks: general state base + M0.5 (1 KiB units) + 32 x offset. */
static void test_scratch(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, GSB), 0, 0x1000);
    set_ud(&s, 40, 5, 0x800 | 0x3ff);      /* low bits are not address */
    for (unsigned i = 0; i < 16; i++) {
        set_ud(&s, 41 + i / 8, i % 8, 0x700 + i);
    }
    /* Write 2 registers at HWord 3: bit 18 scratch, 17 write, 13:12 size. */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(3, 0, 1, 1u << 18 | 1u << 17 | 1u << 12 | 3),
                            8, 40, 0), ==, 0);
    g_assert_cmphex(ram_r32(f, GSB + 0x800 + 96), ==, 0x700);
    g_assert_cmphex(ram_r32(f, GSB + 0x800 + 96 + 60), ==, 0x70f);
    /* Read one register back from HWord 4. */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(1, 1, 1, 1u << 18 | 4), 8, 40, 50), ==, 0);
    g_assert_cmphex(get_ud(&s, 50, 0), ==, 0x708);
    g_assert_cmphex(get_ud(&s, 50, 7), ==, 0x70f);
    sf_fini(&s);
}

/* A64 untyped write and byte scattered read: 64-bit addresses. */
static void test_a64(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, SURF_A), 0, 0x100);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2 + c / 4, (c % 4) * 2, SURF_A + 16 * c);
        set_ud(&s, 2 + c / 4, (c % 4) * 2 + 1, 0);
        set_ud(&s, 4, c, 0xc0de0000 + c);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 0, DP(0x19, 0x2e, 253)), 8, 2, 0),
                    ==, 0);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmphex(ram_r32(f, SURF_A + 16 * c), ==, 0xc0de0000 + c);
    }
    /* Bytes, SIMD8: control data size 0 (3:2), subtype byte (1:0). */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 1, 0, DP(0x10, 0, 253)), 8, 2, 30), ==,
                    0);
    g_assert_cmphex(get_ud(&s, 30, 5), ==, 0x05);
    /* Past the GGTT's 4 GiB: a page fault, the message fails. */
    set_ud(&s, 2, 1, 1);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 1, 0, DP(0x10, 0, 253)), 8, 2, 30), ==,
                    -1);
    sf_fini(&s);
}

static void test_byte_scattered(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, SURF_A), 0, 64);
    put_buffer(f, 3, INTEL_SF_RAW, 64, 1, SURF_A);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c * 3);
        set_ud(&s, 3, c, 0xffffff00 | (0xa0 + c));
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(2, 0, 0, DP(12, 0, 3)), 8, 2, 0), ==, 0);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmphex(*ram(f, SURF_A + c * 3), ==, 0xa0 + c);
        g_assert_cmphex(*ram(f, SURF_A + c * 3 + 1), ==, 0);
    }
    /* DWord scattered: offsets in DWords, SIMD8 (control 2). */
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, 8 + c);
        set_ud(&s, 3, c, 0xd0000000 + c);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(2, 0, 0, DP(11, 2, 3)), 8, 2, 0), ==, 0);
    g_assert_cmphex(ram_r32(f, SURF_A + 32 + 4 * 5), ==, 0xd0000005);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(1, 1, 0, DP(3, 2, 3)), 8, 2, 20), ==, 0);
    g_assert_cmphex(get_ud(&s, 20, 7), ==, 0xd0000007);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c * 3);
    }

    /* Two-byte reads, zero-extended. */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(1, 1, 0, DP(4, 4, 3)), 8, 2, 20), ==, 0);
    g_assert_cmphex(get_ud(&s, 20, 1), ==, 0x00a1);
    g_assert_cmphex(get_ud(&s, 20, 0), ==, 0x00a0);
    sf_fini(&s);
}

static void test_typed(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, SURF_A), 0, 0x400);
    put_surface(f, 4, INTEL_SURFTYPE_2D, INTEL_SF_R32_UINT, 8, 8, 32,
                TILE_LINEAR, SURF_A);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c);
        set_ud(&s, 3, c, 7 - c);
        set_ud(&s, 4, c, 0x5000 + c);
    }
    set_ud(&s, 2, 6, 8);                    /* outside: dropped */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 0, DP(13, 0x1e, 4)), 8, 2, 0), ==, 0);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmphex(ram_r32(f, SURF_A + (7 - c) * 32 + c * 4), ==,
                        c == 6 ? 0 : 0x5000 + c);
    }
    /* Read R and A of R8G8B8A8: floats. */
    put_surface(f, 4, INTEL_SURFTYPE_2D, INTEL_SF_R8G8B8A8_UNORM, 8, 8, 32,
                TILE_LINEAR, SURF_A);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 2, 0, DP(5, 0x16, 4)), 8, 2, 20), ==, 0);
    g_assert_cmpfloat(get_f(&s, 20, 1), ==, 1 / 255.0f);       /* 0x01 */
    g_assert_cmpfloat(get_f(&s, 21, 1), ==, 0);                 /* 0x00 */
    g_assert_cmpfloat(get_f(&s, 20, 6), ==, 0);                 /* outside */
    sf_fini(&s);
}

/* ---- faults and malformed messages ---- */

static void test_malformed(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 16);
    put_texture(f);
    put_sampler(f, 0, INTEL_MAPFILTER_NEAREST, INTEL_MAPFILTER_NEAREST,
                INTEL_TEXCOORD_CLAMP, INTEL_TEXCOORD_CLAMP);
    /* SIMD4x2 sampling, sample_c, a message without coordinates. */
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(4, 8, 0, 0 << 17 | 1), 16, 2, 20), ==, -1);
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(4, 8, 0, SMP(16, 3, 1)), 16, 2, 20), ==, -1);
    g_assert_cmpuint(f->fh->unimps, ==, 2);
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(0, 8, 0, SMP(16, 0, 1)), 16, 2, 20), ==, -1);
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    /* A payload running off the register file. */
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(4, 8, 0, SMP(16, 0, 1)), 16, 126, 20), ==,
                    -1);
    /* Unknown data port messages, URB, a thread spawner without EOT. */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(1, 1, 0, DP(3, 0, 0)), 16, 2, 20), ==, -1);
    g_assert_cmpint(sf_send(&s, EU_SFID_URB, DESC(1, 0, 1, 0), 16, 2, 20),
                    ==, -1);
    g_assert_cmpint(sf_send(&s, EU_SFID_THREAD_SPAWNER, DESC(1, 0, 0, 0x10),
                            16, 2, 0), ==, -1);
    /* An unsupported render target write subtype, an SLM message. */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(8, 0, 0, DP(12, 7, 0)), 16, 2, 0), ==, -1);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 0, DP(9, 0x2e, 254)), 8, 2, 0), ==, -1);

    /* The thread spawner's EOT completes: the interpreter ends it. */
    s.in.eot = true;
    memset(&s.in, 0, sizeof(s.in));
    s.in.sfid = EU_SFID_THREAD_SPAWNER;
    s.in.eot = true;
    s.in.exec_size = 8;
    intel_sf_thread_forget(&s.th);
    g_assert_cmpint(intel_sf_send(s.t, &s.in, DESC(1, 0, 0, 0x10), 0, &s.th),
                    ==, 0);
    sf_fini(&s);
}

/*
 * A thread of a context with a PPGTT: surface states and surfaces are
 * graphics addresses in it (here the states at their GGTT addresses,
 * mapped one to one, the buffer at USER_VA -> USER_PA).
 */
static void test_ppgtt(Fixture *f, gconstpointer data)
{
    uint64_t pml4 = table_alloc(f);
    Sf s;

    sf_init(f, &s, 8);
    for (uint64_t a = 0x200000; a < 0x400000; a += 0x200000) {
        map_2m(f, pml4, a, a);
    }
    map_2m(f, pml4, USER_VA, USER_PA);
    eng(f, RCS)->pml4 = pml4;
    intel_ppgtt_flush(eng(f, RCS));
    s.th.ppgtt = true;
    put_buffer(f, 6, INTEL_SF_RAW, 256, 1, USER_VA);
    memset(ram(f, USER_PA), 0, 64);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c * 4);
        set_ud(&s, 3, c, 0xbeef00 + c);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 0, 0, DP(9, 0x2e, 6)), 8, 2, 0), ==, 0);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmphex(ram_r32(f, USER_PA + c * 4), ==, 0xbeef00 + c);
    }
    /* Unmapped in the PPGTT: a PPGTT page fault. */
    put_buffer(f, 6, INTEL_SF_RAW, 256, 1, USER_VA + 0x200000);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 0, 0, DP(9, 0x2e, 6)), 8, 2, 0), ==, -1);
    g_assert_cmphex(intel_reg_get(f->gpu, INTEL_FAULT_TLB_DATA0), ==,
                    (USER_VA + 0x200000) >> 12);
    sf_fini(&s);
}

/* A surface in unmapped memory: the engine's page fault, message fails. */
static void test_page_fault(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    put_buffer(f, 6, INTEL_SF_RAW, 256, 1, UNMAPPED);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c * 4);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(1, 1, 0, DP(1, 0x2e, 6)), 8, 2, 20), ==, -1);
    g_assert_cmphex(intel_reg_get(f->gpu, INTEL_RING_FAULT_REG) & 1, ==, 1);
    g_assert_cmphex(intel_reg_get(f->gpu, INTEL_FAULT_TLB_DATA0), ==,
                    UNMAPPED >> 12);
    sf_fini(&s);
}

/*
 * Hostile messages: random descriptors, payloads and states.  Every one
 * completes or fails (0 or -1), and none writes a register outside its
 * response.
 */
static void test_random_messages(Fixture *f, gconstpointer data)
{
    static const unsigned sfids[] = {
        EU_SFID_SAMPLER, EU_SFID_DP_RENDER, EU_SFID_DP_DATA,
        EU_SFID_DP_DATA1, EU_SFID_DP_CONST, EU_SFID_DP_SAMPLER,
        EU_SFID_GATEWAY, EU_SFID_URB,
    };
    static uint8_t before[EU_GRF_COUNT * EU_GRF_BYTES];
    GRand *rng = g_rand_new_with_seed(0x5f5f);
    unsigned done = 0;
    Sf s;

    sf_init(f, &s, 16);
    s.th.blend_state = BLEND;
    for (unsigned iter = 0; iter < 3000; iter++) {
        uint32_t desc = g_rand_int(rng), ex = g_rand_int(rng);
        unsigned dst = g_rand_int_range(rng, 0, EU_GRF_COUNT);
        unsigned rlen = (desc >> 20) & 0x1f;
        int r;

        /* States: 8 surfaces, 4 samplers, a blend state, all random. */
        if (iter % 64 == 0) {
            for (unsigned i = 0; i < 8; i++) {
                uint32_t ss[16];

                for (unsigned d = 0; d < 16; d++) {
                    ss[d] = g_rand_int(rng);
                }
                /* Half of them plausible: known types, formats, sizes. */
                if (g_rand_boolean(rng)) {
                    static const uint8_t types[] = { 0, 1, 1, 1, 4, 7 };
                    static const uint16_t fmts[] = {
                        INTEL_SF_R8G8B8A8_UNORM, INTEL_SF_R8_UNORM,
                        INTEL_SF_R32_UINT, INTEL_SF_R16G16B16A16_FLOAT,
                        INTEL_SF_RAW, INTEL_SF_R32G32B32A32_FLOAT,
                    };

                    unsigned type = types[g_rand_int_range(rng, 0, 6)];
                    unsigned fmt = fmts[g_rand_int_range(rng, 0, 6)];
                    unsigned tile = g_rand_int_range(rng, 0, 3);

                    ss[0] = type << 29 | fmt << 18 |
                            (tile ? tile + 1 : 0) << 12;
                    ss[1] &= 0x3f;
                    ss[2] &= 0x003f003f;
                    ss[3] = (ss[3] & 3) << 21 |
                            (512u * (1 + (ss[3] >> 8) % 4) - 1);
                    ss[4] &= 3u << 18;
                    ss[5] &= 0x3;
                }
                ss[8] = g_rand_int_range(rng, 0, GGTT_MAPPED);
                ss[9] = g_rand_int_range(rng, 0, 4) ? 0 : g_rand_int(rng);
                put_state(f, i, ss);
            }
            for (unsigned i = 0; i < 16 * 4 + 68; i += 4) {
                ram_w32(f, DSB + SAMPLERS + i, g_rand_int(rng));
            }
        }
        for (unsigned i = 0; i < sizeof(s.t->grf); i += 4) {
            set_ud(&s, i / 32, (i % 32) / 4, g_rand_int(rng));
        }
        s.t->active = g_rand_int(rng);
        s.th.pixel_mask = g_rand_int(rng);
        /* Half of them a message type the SFID knows. */
        s.in.sfid = sfids[g_rand_int_range(rng, 0, G_N_ELEMENTS(sfids))];
        if (g_rand_boolean(rng)) {
            static const uint8_t types[][10] = {
                [EU_SFID_SAMPLER] = { 0, 1, 2, 7, 10, 24, 26, 0, 0, 0 },
                [EU_SFID_DP_DATA] = { 0, 1, 3, 4, 7, 8, 11, 12, 8, 0 },
                [EU_SFID_DP_DATA1] = { 1, 2, 4, 5, 6, 9, 10, 13, 18, 25 },
                [EU_SFID_DP_RENDER] = { 4, 13, 10, 12, 13, 12, 12, 4, 5, 10 },
                [EU_SFID_DP_CONST] = { 0, 1, 3, 0, 1, 3, 0, 1, 3, 0 },
            };
            unsigned type = types[s.in.sfid][g_rand_int_range(rng, 0, 10)];

            if (s.in.sfid == EU_SFID_SAMPLER) {
                desc = (desc & ~(0x1fu << 12 | 3u << 17)) | type << 12 |
                       (uint32_t)g_rand_int_range(rng, 1, 3) << 17;
            } else if (s.in.sfid < G_N_ELEMENTS(types)) {
                desc = (desc & ~(0x1fu << 14)) | type << 14;
            }
            rlen = (desc >> 20) & 0x1f;
        }
        /* Mostly binding table entries that exist, or stateless. */
        desc = (desc & ~0xffu) | (g_rand_boolean(rng) ?
                                  g_rand_int_range(rng, 0, 8) :
                                  g_rand_int_range(rng, 250, 256));
        memcpy(before, s.t->grf, sizeof(before));
        {
            unsigned sfid = s.in.sfid;

            memset(&s.in, 0, sizeof(s.in));
            s.in.sfid = sfid;
        }
        s.in.opcode = g_rand_boolean(rng) ? EU_OP_SEND : EU_OP_SENDS;
        s.in.exec_size = g_rand_boolean(rng) ? 16 : 8;
        s.in.qtr = g_rand_int_range(rng, 0, 4);
        s.in.mask_ctrl = g_rand_boolean(rng);
        s.in.eot = g_rand_int_range(rng, 0, 8) == 0;
        s.in.src[0].file = s.in.src[1].file = s.in.dst.file = EU_FILE_GRF;
        s.in.src[0].nr = g_rand_int_range(rng, 0, EU_GRF_COUNT);
        s.in.src[1].nr = g_rand_int_range(rng, 0, EU_GRF_COUNT);
        s.in.dst.nr = dst;
        intel_sf_thread_forget(&s.th);
        r = intel_sf_send(s.t, &s.in, desc, ex, &s.th);
        g_assert_true(r == 0 || r == -1);
        done += r == 0;
        for (unsigned reg = 0; reg < EU_GRF_COUNT; reg++) {
            if (reg >= dst && reg < dst + rlen) {
                continue;
            }
            if (memcmp(&before[reg * 32], &s.t->grf[reg * 32], 32)) {
                g_error("message 0x%08x (SFID %u) wrote g%u", desc,
                        s.in.sfid, reg);
            }
        }
    }
    /* Enough of them are well-formed to reach memory. */
    g_test_message("%u of 3000 random messages completed", done);
    g_assert_cmpuint(done, >, 150);
    g_rand_free(rng);
    sf_fini(&s);
}

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
static void test_render_copy_kernel(Fixture *f, gconstpointer data)
{
    IntelSfStats st = { 0 };
    IntelSfThread th = {
        .e = eng(f, RCS),
        .surface_state_base = SSB,
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
static void test_sample_page_edge(Fixture *f, gconstpointer data)
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
static void test_rt_write_combined(Fixture *f, gconstpointer data)
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
static void test_state_cache(Fixture *f, gconstpointer data)
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
    { "/intel-sf/rt-write/blend-state", test_rt_write_blend_state },
    { "/intel-sf/dataport/media-block", test_media_block },
    { "/intel-sf/dataport/untyped", test_untyped },
    { "/intel-sf/dataport/untyped-atomic", test_untyped_atomic },
    { "/intel-sf/dataport/oword-block", test_oword_block },
    { "/intel-sf/dataport/byte-scattered", test_byte_scattered },
    { "/intel-sf/dataport/typed", test_typed },
    { "/intel-sf/dataport/scratch", test_scratch },
    { "/intel-sf/dataport/a64", test_a64 },
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
