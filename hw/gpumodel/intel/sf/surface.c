/*
 * intel-gpu surfaces for the shared functions: RENDER_SURFACE_STATE,
 * SAMPLER_STATE and BLEND_STATE decoding (their fields as gen11-state.h
 * names them), texel formats, and memory access to a surface through its
 * tiling (PRM Vol 2d: Command Reference: Structures,
 * "RENDER_SURFACE_STATE", "SAMPLER_STATE", "BLEND_STATE",
 * "SURFACE_FORMAT"; PRM Vol 5:
 * Memory Views, tiling; PRM Vol 7: 3D-Media-GPGPU, "Surface Boundary
 * Rules").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include "sf.h"

#define SS_DWORDS       GEN11_RENDER_SURFACE_STATE_LENGTH
#define ADDR_MASK       0x0000ffffffffffffull

void intel_sf_log(const IntelSfThread *th, GpuLogKind kind,
                  const char *fmt, ...)
{
    char buf[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    gpu_host_log(&th->e->gpu->host, kind, "intel-gpu sf: %s", buf);
}

/* One state read; a failure is the engine's page fault. */
static bool surface_state_read(const IntelSfThread *th, uint64_t addr,
                               void *buf, size_t len)
{
    if (intel_vm_rw(th->e, th->ppgtt, addr & ADDR_MASK, buf, len, false)) {
        intel_engine_page_fault(th->e, th->ppgtt, addr & ADDR_MASK);
        return false;
    }
    return true;
}

/* ---- formats ---- */

/* sRGB: R, G and B encoded, alpha UNORM. */
enum { K_UNORM, K_SNORM, K_SRGB, K_FLOAT, K_UINT, K_SINT };

/* Channel c of a format: @bits wide at bit @shift of the element. */
typedef struct FormatChan {
    uint8_t shift, bits;
} FormatChan;

typedef struct FormatDesc {
    uint16_t format;
    uint8_t cpp, kind;
    FormatChan ch[4];           /* R, G, B, A; bits 0: absent */
} FormatDesc;

static const FormatDesc formats[] = {
    { INTEL_SF_R32G32B32A32_FLOAT, 16, K_FLOAT,
      { { 0, 32 }, { 32, 32 }, { 64, 32 }, { 96, 32 } } },
    { INTEL_SF_R32G32B32A32_UINT, 16, K_UINT,
      { { 0, 32 }, { 32, 32 }, { 64, 32 }, { 96, 32 } } },
    { INTEL_SF_R32G32B32X32_FLOAT, 16, K_FLOAT,
      { { 0, 32 }, { 32, 32 }, { 64, 32 }, { 0, 0 } } },
    { INTEL_SF_R16G16B16A16_UNORM, 8, K_UNORM,
      { { 0, 16 }, { 16, 16 }, { 32, 16 }, { 48, 16 } } },
    { INTEL_SF_R16G16B16A16_UINT, 8, K_UINT,
      { { 0, 16 }, { 16, 16 }, { 32, 16 }, { 48, 16 } } },
    { INTEL_SF_R16G16B16A16_FLOAT, 8, K_FLOAT,
      { { 0, 16 }, { 16, 16 }, { 32, 16 }, { 48, 16 } } },
    { INTEL_SF_R32G32_FLOAT, 8, K_FLOAT, { { 0, 32 }, { 32, 32 } } },
    { INTEL_SF_R32G32_UINT, 8, K_UINT, { { 0, 32 }, { 32, 32 } } },
    { INTEL_SF_B8G8R8A8_UNORM, 4, K_UNORM,
      { { 16, 8 }, { 8, 8 }, { 0, 8 }, { 24, 8 } } },
    { INTEL_SF_R10G10B10A2_UNORM, 4, K_UNORM,
      { { 0, 10 }, { 10, 10 }, { 20, 10 }, { 30, 2 } } },
    { INTEL_SF_R8G8B8A8_UNORM, 4, K_UNORM,
      { { 0, 8 }, { 8, 8 }, { 16, 8 }, { 24, 8 } } },
    { INTEL_SF_R8G8B8A8_UINT, 4, K_UINT,
      { { 0, 8 }, { 8, 8 }, { 16, 8 }, { 24, 8 } } },
    { INTEL_SF_R16G16_UNORM, 4, K_UNORM, { { 0, 16 }, { 16, 16 } } },
    { INTEL_SF_R16G16_UINT, 4, K_UINT, { { 0, 16 }, { 16, 16 } } },
    { INTEL_SF_R16G16_FLOAT, 4, K_FLOAT, { { 0, 16 }, { 16, 16 } } },
    { INTEL_SF_B10G10R10A2_UNORM, 4, K_UNORM,
      { { 20, 10 }, { 10, 10 }, { 0, 10 }, { 30, 2 } } },
    { INTEL_SF_R32_UINT, 4, K_UINT, { { 0, 32 } } },
    { INTEL_SF_R32_FLOAT, 4, K_FLOAT, { { 0, 32 } } },
    { INTEL_SF_B8G8R8X8_UNORM, 4, K_UNORM,
      { { 16, 8 }, { 8, 8 }, { 0, 8 }, { 0, 0 } } },
    { INTEL_SF_R8G8B8X8_UNORM, 4, K_UNORM,
      { { 0, 8 }, { 8, 8 }, { 16, 8 }, { 0, 0 } } },
    { INTEL_SF_B5G6R5_UNORM, 2, K_UNORM,
      { { 11, 5 }, { 5, 6 }, { 0, 5 } } },
    { INTEL_SF_B5G5R5A1_UNORM, 2, K_UNORM,
      { { 10, 5 }, { 5, 5 }, { 0, 5 }, { 15, 1 } } },
    { INTEL_SF_R8G8_UNORM, 2, K_UNORM, { { 0, 8 }, { 8, 8 } } },
    { INTEL_SF_R16_UNORM, 2, K_UNORM, { { 0, 16 } } },
    { INTEL_SF_R16_UINT, 2, K_UINT, { { 0, 16 } } },
    { INTEL_SF_R16_FLOAT, 2, K_FLOAT, { { 0, 16 } } },
    { INTEL_SF_R8_UNORM, 1, K_UNORM, { { 0, 8 } } },
    { INTEL_SF_R8_UINT, 1, K_UINT, { { 0, 8 } } },
    { INTEL_SF_A8_UNORM, 1, K_UNORM, { { 0, 0 }, { 0, 0 }, { 0, 0 },
                                       { 0, 8 } } },
    { INTEL_SF_R32G32B32A32_SINT, 16, K_SINT,
      { { 0, 32 }, { 32, 32 }, { 64, 32 }, { 96, 32 } } },
    { INTEL_SF_R16G16B16A16_SNORM, 8, K_SNORM,
      { { 0, 16 }, { 16, 16 }, { 32, 16 }, { 48, 16 } } },
    { INTEL_SF_R16G16B16A16_SINT, 8, K_SINT,
      { { 0, 16 }, { 16, 16 }, { 32, 16 }, { 48, 16 } } },
    { INTEL_SF_R32G32_SINT, 8, K_SINT, { { 0, 32 }, { 32, 32 } } },
    { INTEL_SF_B8G8R8A8_UNORM_SRGB, 4, K_SRGB,
      { { 16, 8 }, { 8, 8 }, { 0, 8 }, { 24, 8 } } },
    { INTEL_SF_R8G8B8A8_UNORM_SRGB, 4, K_SRGB,
      { { 0, 8 }, { 8, 8 }, { 16, 8 }, { 24, 8 } } },
    { INTEL_SF_R8G8B8A8_SNORM, 4, K_SNORM,
      { { 0, 8 }, { 8, 8 }, { 16, 8 }, { 24, 8 } } },
    { INTEL_SF_R8G8B8A8_SINT, 4, K_SINT,
      { { 0, 8 }, { 8, 8 }, { 16, 8 }, { 24, 8 } } },
    { INTEL_SF_R16G16_SNORM, 4, K_SNORM, { { 0, 16 }, { 16, 16 } } },
    { INTEL_SF_R16G16_SINT, 4, K_SINT, { { 0, 16 }, { 16, 16 } } },
    { INTEL_SF_R32_SINT, 4, K_SINT, { { 0, 32 } } },
    { INTEL_SF_B8G8R8X8_UNORM_SRGB, 4, K_SRGB,
      { { 16, 8 }, { 8, 8 }, { 0, 8 }, { 0, 0 } } },
    { INTEL_SF_R8G8B8X8_UNORM_SRGB, 4, K_SRGB,
      { { 0, 8 }, { 8, 8 }, { 16, 8 }, { 0, 0 } } },
    { INTEL_SF_R8G8_SNORM, 2, K_SNORM, { { 0, 8 }, { 8, 8 } } },
    { INTEL_SF_R8G8_SINT, 2, K_SINT, { { 0, 8 }, { 8, 8 } } },
    { INTEL_SF_R8G8_UINT, 2, K_UINT, { { 0, 8 }, { 8, 8 } } },
    { INTEL_SF_R16_SNORM, 2, K_SNORM, { { 0, 16 } } },
    { INTEL_SF_R16_SINT, 2, K_SINT, { { 0, 16 } } },
    { INTEL_SF_R8_SNORM, 1, K_SNORM, { { 0, 8 } } },
    { INTEL_SF_R8_SINT, 1, K_SINT, { { 0, 8 } } },
    /* Untyped and block messages address RAW buffers byte by byte. */
    { INTEL_SF_RAW, 1, K_UINT, { { 0, 8 } } },
};

/*
 * By SURFACE_FORMAT (10 bits; the model knows none from 0x200 up, ASTC's
 * among them): formats[] index + 1, 0 for none.  Every texel goes
 * through here: a table, not a search.
 */
static uint8_t format_index[512];

static const FormatDesc *surface_format_desc(uint32_t format)
{
    static gsize once;
    unsigned i;

    if (g_once_init_enter(&once)) {
        for (i = 0; i < G_N_ELEMENTS(formats); i++) {
            format_index[formats[i].format] = i + 1;
        }
        g_once_init_leave(&once, 1);
    }
    i = format < G_N_ELEMENTS(format_index) ? format_index[format] : 0;
    return i ? &formats[i - 1] : NULL;
}

unsigned intel_format_cpp(uint32_t format)
{
    const FormatDesc *d = surface_format_desc(format);

    return d ? d->cpp : 0;
}

bool intel_format_is_int(uint32_t format)
{
    const FormatDesc *d = surface_format_desc(format);

    return d && (d->kind == K_UINT || d->kind == K_SINT);
}

/* sRGB to linear and back (the sRGB transfer function's two pieces). */
static float surface_srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float surface_linear_to_srgb(float l)
{
    return l <= 0.0031308f ? l * 12.92f :
           1.055f * powf(l, 1.0f / 2.4f) - 0.055f;
}

/* @v's @bits-bit two's complement value. */
static int64_t surface_sign_extend(uint64_t v, unsigned bits)
{
    return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* IEEE binary32 to binary16, round to nearest even. */
static uint16_t surface_float_to_half(float f)
{
    uint32_t u = intel_sf_f2u(f), sign = (u >> 16) & 0x8000;
    int32_t exp = (int32_t)((u >> 23) & 0xff) - 127 + 15;
    uint32_t mant = u & 0x7fffff;

    if (((u >> 23) & 0xff) == 0xff) {
        return sign | 0x7c00 | (mant ? 0x200 : 0);
    }
    if (exp >= 31) {
        return sign | 0x7c00;
    }
    if (exp <= 0) {
        uint32_t m, shift, half, r;

        if (exp < -10) {
            return sign;
        }
        m = mant | 0x800000;
        shift = 14 - exp;
        half = 1u << (shift - 1);
        r = m >> shift;
        if ((m & (2 * half - 1)) > half ||
            ((m & (2 * half - 1)) == half && (r & 1))) {
            r++;
        }
        return sign | r;
    }
    {
        uint32_t h = sign | (uint32_t)exp << 10 | mant >> 13;
        uint32_t rest = mant & 0x1fff;

        if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) {
            h++;            /* may carry into the exponent: still right */
        }
        return h;
    }
}

/*
 * A texel as two little-endian 64-bit words: no channel of formats[]
 * crosses from one to the other.
 */
static void texel_words(const uint8_t *texel, unsigned cpp, uint64_t w[2])
{
    uint32_t u32;
    uint16_t u16;

    /* Whole loads of the element's size, no byte loop. */
    w[1] = 0;
    switch (cpp) {
    case 16:
        memcpy(&w[1], texel + 8, 8);
        w[1] = GUINT64_FROM_LE(w[1]);
        /* fall through */
    case 8:
        memcpy(&w[0], texel, 8);
        w[0] = GUINT64_FROM_LE(w[0]);
        break;
    case 4:
        memcpy(&u32, texel, 4);
        w[0] = GUINT32_FROM_LE(u32);
        break;
    case 2:
        memcpy(&u16, texel, 2);
        w[0] = GUINT16_FROM_LE(u16);
        break;
    default:
        w[0] = texel[0];
    }
}

static void texel_store(uint8_t *texel, unsigned cpp, const uint64_t w[2])
{
    uint64_t u64;
    uint32_t u32;
    uint16_t u16;

    switch (cpp) {
    case 16:
        u64 = GUINT64_TO_LE(w[1]);
        memcpy(texel + 8, &u64, 8);
        /* fall through */
    case 8:
        u64 = GUINT64_TO_LE(w[0]);
        memcpy(texel, &u64, 8);
        break;
    case 4:
        u32 = GUINT32_TO_LE((uint32_t)w[0]);
        memcpy(texel, &u32, 4);
        break;
    case 2:
        u16 = GUINT16_TO_LE((uint16_t)w[0]);
        memcpy(texel, &u16, 2);
        break;
    default:
        texel[0] = w[0];
    }
}

static uint64_t surface_chan_mask(unsigned bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static uint64_t texel_bits(const uint64_t w[2], unsigned shift,
                           unsigned bits)
{
    return (w[shift / 64] >> (shift % 64)) & surface_chan_mask(bits);
}

/*
 * The words by value, not by index: four channels in a row would
 * otherwise wait on each other's store.
 */
static void set_texel_bits(uint64_t w[2], unsigned shift, unsigned bits,
                           uint64_t v)
{
    uint64_t mask = surface_chan_mask(bits) << (shift % 64);
    uint64_t put = (v << (shift % 64)) & mask;

    if (shift < 64) {
        w[0] = (w[0] & ~mask) | put;
    } else {
        w[1] = (w[1] & ~mask) | put;
    }
}

void intel_format_decode(uint32_t format, const uint8_t *texel,
                         uint32_t rgba[4])
{
    const FormatDesc *d = surface_format_desc(format);
    uint64_t w[2];

    if (d) {
        texel_words(texel, d->cpp, w);
    }
    for (unsigned c = 0; c < 4; c++) {
        const FormatChan *ch;
        uint64_t v;
        float f;

        rgba[c] = 0;
        if (!d) {
            continue;
        }
        ch = &d->ch[c];
        if (!ch->bits) {
            if (c == 3) {
                rgba[c] = d->kind == K_UINT || d->kind == K_SINT ? 1 :
                          intel_sf_f2u(1.0f);
            }
            continue;
        }
        v = texel_bits(w, ch->shift, ch->bits);
        switch (d->kind) {
        case K_UNORM:
        case K_SRGB:
            /* Channels are 32 bits at most: signed conversions. */
            f = (float)(int64_t)v / (float)(int64_t)((1ull << ch->bits) - 1);
            rgba[c] = intel_sf_f2u(d->kind == K_SRGB && c < 3 ?
                                   surface_srgb_to_linear(f) : f);
            break;
        case K_SNORM:
            /* The most negative value reads as -1.0 too. */
            f = (float)surface_sign_extend(v, ch->bits) /
                (float)((1ull << (ch->bits - 1)) - 1);
            rgba[c] = intel_sf_f2u(f < -1.0f ? -1.0f : f);
            break;
        case K_SINT:
            rgba[c] = (uint32_t)surface_sign_extend(v, ch->bits);
            break;
        case K_FLOAT:
            rgba[c] = ch->bits == 16 ? intel_sf_f2u(eu_half_to_float(v)) :
                                       (uint32_t)v;
            break;
        default:
            rgba[c] = (uint32_t)v;
        }
    }
}

void intel_format_encode(uint32_t format, const uint32_t rgba[4],
                         unsigned write_mask, uint8_t *texel)
{
    const FormatDesc *d = surface_format_desc(format);
    uint64_t w[2];

    if (!d) {
        return;
    }
    texel_words(texel, d->cpp, w);
    for (unsigned c = 0; c < 4; c++) {
        const FormatChan *ch = &d->ch[c];
        uint64_t max, v;
        float f;

        if (!ch->bits || !((write_mask >> c) & 1)) {
            continue;
        }
        max = ch->bits >= 64 ? ~0ull : (1ull << ch->bits) - 1;
        f = intel_sf_u2f(rgba[c]);
        switch (d->kind) {
        case K_UNORM:
        case K_SRGB:
            /*
             * Float to UNORM (PRM Vol 7, "Render Target Write": the D3D
             * conversion): NaN is 0, saturate, scale, round to nearest.
             */
            f = isnan(f) ? 0.0f : f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
            if (d->kind == K_SRGB && c < 3) {
                f = surface_linear_to_srgb(f);
            }
            /*
             * floorf() of a value in [0.5, 2^32]: truncation is the same,
             * and a signed conversion one instruction.
             */
            v = (uint64_t)(int64_t)(f * (float)(int64_t)max + 0.5f);
            break;
        case K_SNORM:
            /* The same into [-1, 1], on the positive range's scale. */
            f = isnan(f) ? 0.0f : f < -1.0f ? -1.0f : f > 1.0f ? 1.0f : f;
            v = (uint64_t)(int64_t)roundf(f * (float)(max >> 1)) & max;
            break;
        case K_FLOAT:
            v = ch->bits == 16 ? surface_float_to_half(f) : rgba[c];
            break;
        default:
            /* Integer targets take the low bits, as the data port does. */
            v = rgba[c] & max;
        }
        set_texel_bits(w, ch->shift, ch->bits, v);
    }
    texel_store(texel, d->cpp, w);
}

/* ---- surface and sampler states ---- */

/* Read @n dwords of state at @addr into @dw, in host order. */
static bool surface_state_dwords(const IntelSfThread *th, uint64_t addr,
                                 uint32_t *dw, unsigned n)
{
    if (!surface_state_read(th, addr, dw, n * 4)) {
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        dw[i] = GUINT32_FROM_LE(dw[i]);
    }
    return true;
}

bool intel_surface_load(const IntelSfThread *th, unsigned index,
                        IntelSurface *s)
{
    uint64_t bt = th->binding_table_base + th->binding_table + index * 4ull;
    uint32_t entry[GEN11_BINDING_TABLE_STATE_LENGTH], dw[SS_DWORDS];
    Gen11_BINDING_TABLE_STATE bte;
    Gen11_RENDER_SURFACE_STATE ss;

    memset(s, 0, sizeof(*s));
    if (index > 255 ||
        !surface_state_dwords(th, bt, entry, G_N_ELEMENTS(entry))) {
        return false;
    }
    gen11_binding_table_state_unpack(entry, G_N_ELEMENTS(entry), &bte);
    if (!surface_state_dwords(th, th->surface_state_base +
                              bte.surface_state_pointer, dw, SS_DWORDS)) {
        return false;
    }
    gen11_render_surface_state_unpack(dw, SS_DWORDS, &ss);
    s->type = ss.surface_type;
    s->format = ss.surface_format;
    s->width = ss.width + 1;
    s->height = ss.height + 1;
    s->depth = ss.depth + 1;
    s->pitch = ss.surface_pitch + 1;
    s->base = ss.surface_base_address & ADDR_MASK;
    s->scs[0] = ss.shader_channel_select_red;
    s->scs[1] = ss.shader_channel_select_green;
    s->scs[2] = ss.shader_channel_select_blue;
    s->scs[3] = ss.shader_channel_select_alpha;
    s->levels = ss.mip_count_lod + 1;
    /* Surface QPitch counts 4 rows. */
    s->qpitch = ss.surface_qpitch * 4;
    s->min_array = ss.minimum_array_element;
    if (ss.clear_value_address_enable) {
        s->clear_addr = ss.clear_value_address & ADDR_MASK;
    }
    s->clear[0] = ss.red_clear_color;
    s->clear[1] = ss.green_clear_color;
    s->clear[2] = ss.blue_clear_color;
    s->clear[3] = ss.alpha_clear_color;
    if (s->type == INTEL_SURFTYPE_NULL) {
        /* Reads return 0 and writes are dropped: no memory behind it. */
        s->width = s->height = s->depth = 0;
        s->cpp = 1;
        return true;
    }
    s->cpp = intel_format_cpp(s->format);
    if (!s->cpp) {
        intel_sf_log(th, GPU_LOG_UNIMP, "surface format 0x%x (BTI %u)",
                     s->format, index);
        return false;
    }
    if (s->type == INTEL_SURFTYPE_BUFFER) {
        /*
         * The entry count less one, split over the size fields: Width
         * holds its bits 6:0, Height 20:7, Depth 31:21.
         */
        uint32_t n = (ss.width & 0x7f) | ss.height << 7 | ss.depth << 21;

        s->width = n + 1;
        s->height = s->depth = 1;
        s->pitch = s->width * s->cpp;
        return true;
    }
    if (s->type == INTEL_SURFTYPE_STRBUF || s->type > INTEL_SURFTYPE_CUBE) {
        intel_sf_log(th, GPU_LOG_UNIMP, "surface type %u (BTI %u)",
                     s->type, index);
        return false;
    }
    switch (ss.tile_mode) {
    case INTEL_TILE_MODE_LINEAR:
        s->tiling = INTEL_TILING_NONE;
        break;
    case INTEL_TILE_MODE_XMAJOR:
        s->tiling = INTEL_TILING_X;
        break;
    case INTEL_TILE_MODE_YMAJOR:
        s->tiling = ss.tiled_resource_mode == INTEL_TRMODE_TILEYF ?
                    INTEL_TILING_YF :
                    ss.tiled_resource_mode == INTEL_TRMODE_TILEYS ?
                    INTEL_TILING_YS : INTEL_TILING_Y;
        break;
    default:
        intel_sf_log(th, GPU_LOG_UNIMP, "W-tiled surface (BTI %u)", index);
        return false;
    }
    if ((uint64_t)s->width * s->cpp > s->pitch) {
        intel_sf_log(th, GPU_LOG_GUEST_ERROR,
                     "surface pitch %u below its width (BTI %u)",
                     s->pitch, index);
        return false;
    }
    if (s->tiling != INTEL_TILING_NONE &&
        (!intel_tile_width(s->tiling, s->cpp) ||
         s->pitch % intel_tile_width(s->tiling, s->cpp))) {
        intel_sf_log(th, GPU_LOG_GUEST_ERROR,
                     "tiled surface pitch %u not whole tiles (BTI %u)",
                     s->pitch, index);
        return false;
    }
    return true;
}

bool intel_surface_clear_color(const IntelSfThread *th, const IntelSurface *s,
                               uint32_t rgba[4])
{
    if (!s->clear_addr) {
        memcpy(rgba, s->clear, sizeof(s->clear));
        return true;
    }
    return surface_state_dwords(th, s->clear_addr, rgba, 4);
}

bool intel_sampler_state_load(const IntelSfThread *th, unsigned index,
                              IntelSamplerState *ss)
{
    const unsigned n = GEN11_SAMPLER_STATE_LENGTH;
    uint64_t addr = th->dynamic_state_base + th->sampler_state +
                    index * n * 4ull;
    uint32_t dw[GEN11_SAMPLER_STATE_LENGTH];
    uint32_t bdw[GEN11_SAMPLER_BORDER_COLOR_STATE_LENGTH];
    Gen11_SAMPLER_BORDER_COLOR_STATE border;
    Gen11_SAMPLER_STATE st;

    memset(ss, 0, sizeof(*ss));
    if (index > 15 || !surface_state_dwords(th, addr, dw, n)) {
        return false;
    }
    gen11_sampler_state_unpack(dw, n, &st);
    ss->min_filter = st.min_mode_filter;
    ss->mag_filter = st.mag_mode_filter;
    ss->wrap[0] = st.tcx_address_control_mode;
    ss->wrap[1] = st.tcy_address_control_mode;
    ss->wrap[2] = st.tcz_address_control_mode;
    ss->non_normalized = st.non_normalized_coordinate_enable;
    for (unsigned i = 0; i < 3; i++) {
        if (ss->wrap[i] != INTEL_TEXCOORD_CLAMP_BORDER) {
            continue;
        }
        /* Border Color Pointer: from the dynamic state base. */
        if (!surface_state_dwords(th, th->dynamic_state_base +
                                  st.border_color_pointer, bdw,
                                  G_N_ELEMENTS(bdw))) {
            return false;
        }
        gen11_sampler_border_color_state_unpack(bdw, G_N_ELEMENTS(bdw),
                                                &border);
        ss->border[0] = border.border_color_float_red;
        ss->border[1] = border.border_color_float_green;
        ss->border[2] = border.border_color_float_blue;
        ss->border[3] = border.border_color_float_alpha;
        break;
    }
    return true;
}

bool intel_blend_state_entry_load(const IntelSfThread *th, unsigned rt,
                                  Gen11_BLEND_STATE_ENTRY *be)
{
    const unsigned n = GEN11_BLEND_STATE_ENTRY_LENGTH;
    uint32_t dw[GEN11_BLEND_STATE_ENTRY_LENGTH];

    /* BLEND_STATE: a global dword, then an entry per render target. */
    if (!surface_state_dwords(th, th->dynamic_state_base + th->blend_state +
                              (GEN11_BLEND_STATE_ENTRY_DW + rt * n) * 4ull,
                              dw, n)) {
        return false;
    }
    gen11_blend_state_entry_unpack(dw, n, be);
    return true;
}

/*
 * The caches keep what loaded; a failed load is not kept and fails (and
 * logs) again at the next message, as it did uncached.
 */
bool intel_surface_load_cached(IntelSfThread *th, unsigned index,
                               IntelSurface *s)
{
    unsigned i;

    for (i = 0; i < INTEL_SF_STATE_CACHE && th->surf_cache[i].index; i++) {
        if (th->surf_cache[i].index == index + 1) {
            *s = th->surf_cache[i].s;
            return true;
        }
    }
    if (!intel_surface_load(th, index, s)) {
        return false;
    }
    if (i < INTEL_SF_STATE_CACHE) {
        th->surf_cache[i].s = *s;
        th->surf_cache[i].index = index + 1;
    }
    return true;
}

bool intel_sampler_state_load_cached(IntelSfThread *th, unsigned index,
                                     IntelSamplerState *ss)
{
    unsigned i;

    for (i = 0; i < INTEL_SF_STATE_CACHE && th->sampler_cache[i].index;
         i++) {
        if (th->sampler_cache[i].index == index + 1) {
            *ss = th->sampler_cache[i].ss;
            return true;
        }
    }
    if (!intel_sampler_state_load(th, index, ss)) {
        return false;
    }
    if (i < INTEL_SF_STATE_CACHE) {
        th->sampler_cache[i].ss = *ss;
        th->sampler_cache[i].index = index + 1;
    }
    return true;
}

/* ---- memory ---- */

/* Rows of all of @s's layers (a 2D array's last layer ends it). */
static uint64_t surface_rows(const IntelSurface *s)
{
    /* 3D surfaces keep their slices as a 2D array does its layers. */
    if ((s->type == INTEL_SURFTYPE_2D || s->type == INTEL_SURFTYPE_3D) &&
        s->depth > 1) {
        return (uint64_t)(s->depth - 1) * s->qpitch + s->height;
    }
    return s->height;
}

uint64_t intel_surface_bytes(const IntelSurface *s)
{
    if (s->type == INTEL_SURFTYPE_NULL) {
        return 0;
    }
    if (s->type == INTEL_SURFTYPE_BUFFER) {
        return (uint64_t)s->width * s->cpp;
    }
    return (uint64_t)s->pitch * surface_rows(s);
}

int64_t intel_surface_layer_row(const IntelSurface *s, uint32_t index)
{
    uint64_t layer = (uint64_t)s->min_array + index;

    if (s->type != INTEL_SURFTYPE_2D && s->type != INTEL_SURFTYPE_3D) {
        return index ? -1 : 0;
    }
    return layer < s->depth ? (int64_t)(layer * s->qpitch) : -1;
}

bool intel_surface_rw(const IntelSfThread *th, const IntelSurface *s,
                      uint32_t x, uint32_t y, void *buf, unsigned len,
                      bool write)
{
    uint8_t *p = buf;
    uint64_t row_bytes, end;

    if (s->type == INTEL_SURFTYPE_BUFFER) {
        row_bytes = y ? 0 : intel_surface_bytes(s);
    } else {
        /* Never past the pitch: that is the next row's (or tile's). */
        row_bytes = y < surface_rows(s) ?
                    MIN((uint64_t)s->width * s->cpp, s->pitch) : 0;
    }
    if (s->type == INTEL_SURFTYPE_NULL) {
        row_bytes = 0;
    }
    end = MIN((uint64_t)x + len, row_bytes);
    /* Bytes outside the surface: reads return 0, writes are dropped. */
    if (!write) {
        memset(p, 0, len);
    }
    for (uint64_t bx = x; bx < end;) {
        uint64_t off, addr;
        uint32_t span = 1;
        unsigned n;

        if (s->tiling != INTEL_TILING_NONE) {
            span = intel_tile_span(s->tiling, s->cpp, bx);
        } else {
            span = UINT32_MAX;
        }
        n = MIN(end - bx, span);
        off = intel_tile_offset(s->tiling, s->cpp, s->pitch, bx, y);
        if (s->type == INTEL_SURFTYPE_BUFFER) {
            off = bx;
        }
        addr = (s->base + off) & ADDR_MASK;
        if (intel_vm_rw(th->e, th->ppgtt, addr, p + (bx - x), n, write)) {
            intel_engine_page_fault(th->e, th->ppgtt, addr);
            return false;
        }
        bx += n;
    }
    return true;
}

/* ---- coarse access: whole lines per message ---- */

bool intel_surface_addr(const IntelSurface *s, uint32_t x, uint32_t y,
                        unsigned len, uint64_t *addr)
{
    uint64_t off;

    if (s->type == INTEL_SURFTYPE_BUFFER || s->type == INTEL_SURFTYPE_NULL ||
        !len || y >= surface_rows(s) ||
        (uint64_t)x + len > MIN((uint64_t)s->width * s->cpp, s->pitch)) {
        return false;
    }
    if (s->tiling != INTEL_TILING_NONE &&
        intel_tile_span(s->tiling, s->cpp, x) < len) {
        return false;
    }
    off = intel_tile_offset(s->tiling, s->cpp, s->pitch, x, y);
    *addr = (s->base + off) & ADDR_MASK;
    return true;
}

/*
 * The line holding @len bytes at graphics address @addr, read into @c
 * if it is not there; NULL if the bytes are not within one line or the
 * line cannot be read.  A line never crosses a page, so it reads where
 * the bytes in it read.
 */
static const uint8_t *surface_line_get(const IntelSfThread *th, IntelSfLines *c,
                                       uint64_t addr, unsigned len)
{
    uint64_t line = addr & ~(uint64_t)(INTEL_SF_LINE - 1);
    unsigned slot;

    if ((addr & (INTEL_SF_LINE - 1)) + len > INTEL_SF_LINE) {
        return NULL;
    }
    for (unsigned i = 0; i < INTEL_SF_LINES; i++) {
        if (c->tag[i] == line + 1) {
            return c->data[i] + (addr - line);
        }
    }
    slot = c->next++ % INTEL_SF_LINES;
    c->tag[slot] = 0;
    if (intel_vm_rw(th->e, th->ppgtt, line, c->data[slot], INTEL_SF_LINE,
                    false)) {
        return NULL;
    }
    c->tag[slot] = line + 1;
    return c->data[slot] + (addr - line);
}

bool intel_surface_read_cached(const IntelSfThread *th,
                               const IntelSurface *s, IntelSfLines *c,
                               uint32_t x, uint32_t y, void *buf,
                               unsigned len)
{
    const uint8_t *p;
    uint64_t addr;

    p = intel_surface_addr(s, x, y, len, &addr) ?
        surface_line_get(th, c, addr, len) : NULL;
    if (p) {
        memcpy(buf, p, len);
        return true;
    }
    /* Outside, split by the tiling, or unreadable: byte for byte. */
    return intel_surface_rw(th, s, x, y, buf, len, false);
}

/* Does the page of @addr translate (no memory is touched)? */
static bool surface_page_maps(const IntelSfThread *th, uint64_t addr)
{
    uint64_t pa;

    if (th->ppgtt) {
        return !intel_ppgtt_translate(th->e, addr, &pa);
    }
    return addr < (1ull << 32) &&
           !intel_ggtt_translate(th->e->gpu, addr, &pa);
}

int intel_surface_write_queue(const IntelSfThread *th, IntelSfWrites *w,
                              uint64_t addr, const void *buf, unsigned len)
{
    uint64_t line = addr & ~(uint64_t)(INTEL_SF_LINE - 1);
    unsigned off = addr - line, i;

    if (off + len > INTEL_SF_LINE) {
        return 0;
    }
    if (w->mapped_page != (addr >> 12) + 1) {
        if (!surface_page_maps(th, addr)) {
            return -1;
        }
        w->mapped_page = (addr >> 12) + 1;
    }
    i = 0;
    while (i < w->n && w->line[i] != line) {
        i++;
    }
    if (i == w->n) {
        if (w->n == INTEL_SF_WLINES) {
            return 0;
        }
        w->n++;
        w->line[i] = line;
        w->first[i] = addr;
        w->dirty[i] = 0;
    }
    memcpy(w->data[i] + off, buf, len);
    w->dirty[i] |= (len >= 64 ? ~0ull : (1ull << len) - 1) << off;
    return 1;
}

bool intel_surface_write_flush(const IntelSfThread *th, IntelSfWrites *w)
{
    unsigned n = w->n;

    w->n = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t d = w->dirty[i];

        while (d) {
            unsigned lo = __builtin_ctzll(d);
            unsigned len = ~(d >> lo) ? (unsigned)__builtin_ctzll(~(d >> lo))
                                      : 64 - lo;

            /*
             * The page mapped when queued: only a mapping to something
             * that is not memory (or the DMA fault drill) fails here, and
             * the fault is the line's first pixel's.
             */
            if (intel_vm_rw(th->e, th->ppgtt, w->line[i] + lo,
                            w->data[i] + lo, len, true)) {
                intel_engine_page_fault(th->e, th->ppgtt, w->first[i]);
                return false;
            }
            d &= len + lo >= 64 ? 0 : ~0ull << (lo + len);
        }
    }
    return true;
}
