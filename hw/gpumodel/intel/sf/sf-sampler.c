/*
 * intel-gpu sampler: the sample, sample_l, sample_b, sample_lz, ld, ld_lz
 * and resinfo messages on 1D, 2D, 2D array and 3D surfaces at LOD 0 (PRM
 * Vol 7: 3D-Media-GPGPU, "Sampler", "Message Formats"; the descriptor in
 * PRM Vol 2d, "Sampler Message Descriptor").  A 2D array's layer and a
 * 3D surface's slice come in the r parameter, as Mesa sends an image's
 * third coordinate.
 *
 * Descriptor: binding table index 7:0, sampler index 11:8, message type
 * 16:12, SIMD mode 18:17 (1: SIMD8, 2: SIMD16).  Each parameter takes one
 * register per 8 channels, in the Gen9+ order (Mesa
 * brw_lower_logical_sends.c lower_sampler_logical_send): sample and
 * sample_lz u, v, r, ai; sample_l and sample_b lod/bias, u, v, r; ld u,
 * v, lod, r; ld_lz u, v, r.  The response is R, G, B, A, one register per
 * 8 channels each, 32-bit, skipping the channels the header's write
 * channel mask (M0.2 bits 15:12) disables.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include "sf.h"

enum {
    MSG_SAMPLE = 0, MSG_SAMPLE_B = 1, MSG_SAMPLE_L = 2, MSG_LD = 7,
    MSG_RESINFO = 10, MSG_SAMPLE_LZ = 24, MSG_LD_LZ = 26,
};

typedef struct Sampling {
    IntelSfThread *th;
    const IntelSurface *s;
    IntelSamplerState ss;
    int offset[3];              /* header texel offsets (u, v, r) */
    uint32_t layer_row;         /* first row of the array layer sampled */
    bool fault;
    IntelSfLines lines;         /* the message's texels, a line at a time */
} Sampling;

/* The message's payload registers, looked up once per message. */
typedef struct Payload {
    uint8_t *reg[16 + 32];      /* mlen is 4 bits, SENDS' ex_mlen 5 */
    unsigned first, simd;
} Payload;

static void sampler_payload_init(Payload *pl, EuThread *t,
                                 const EuInst *inst, uint32_t desc,
                                 uint32_t ex_desc, unsigned first,
                                 unsigned simd)
{
    unsigned n = (desc >> 25) & 0xf;

    if (inst->opcode == EU_OP_SENDS || inst->opcode == EU_OP_SENDSC) {
        n += (ex_desc >> 6) & 0x1f;
    }
    memset(pl->reg, 0, sizeof(pl->reg));
    for (unsigned i = 0; i < n && i < G_N_ELEMENTS(pl->reg); i++) {
        pl->reg[i] = intel_sf_payload(t, inst, desc, ex_desc, i);
    }
    pl->first = first;
    pl->simd = simd;
}

/* Parameter @k of channel @c: register k * (simd / 8) + c / 8. */
static uint32_t sampler_param(const Payload *pl, unsigned k, unsigned c,
                              bool *present)
{
    unsigned i = pl->first + k * (pl->simd / 8) + c / 8;
    uint8_t *r = i < G_N_ELEMENTS(pl->reg) ? pl->reg[i] : NULL;
    uint32_t v;

    if (!r) {
        *present = false;
        return 0;
    }
    memcpy(&v, r + (c % 8) * 4, 4);
    return GUINT32_FROM_LE(v);
}

/*
 * Apply address control mode @mode to texel index @i of a @size-texel
 * axis; false if the texel is the border colour.
 */
static bool sampler_wrap_index(unsigned mode, int64_t i, int64_t size,
                               int64_t *out)
{
    int64_t p;

    switch (mode) {
    case INTEL_TEXCOORD_WRAP:
        p = i % size;
        *out = p < 0 ? p + size : p;
        return true;
    case INTEL_TEXCOORD_MIRROR:
        p = i % (2 * size);
        p = p < 0 ? p + 2 * size : p;
        *out = p < size ? p : 2 * size - 1 - p;
        return true;
    case INTEL_TEXCOORD_MIRROR_ONCE:
        p = i < 0 ? -i - 1 : i;
        *out = MIN(p, size - 1);
        return true;
    case INTEL_TEXCOORD_CLAMP_BORDER:
        *out = i;
        return i >= 0 && i < size;
    default:
        /* CLAMP, and CUBE on a 2D surface. */
        *out = i < 0 ? 0 : i >= size ? size - 1 : i;
        return true;
    }
}

/* Fetch texel (x, y), already in range, with the border when outside. */
static void sampler_fetch(Sampling *sm, int64_t x, int64_t y, bool inside,
                          uint32_t rgba[4])
{
    uint8_t texel[16];

    if (!inside) {
        for (unsigned c = 0; c < 4; c++) {
            rgba[c] = intel_sf_f2u(sm->ss.border[c]);
        }
        return;
    }
    if (!intel_surface_read_cached(sm->th, sm->s, &sm->lines, x * sm->s->cpp,
                                   y + sm->layer_row, texel, sm->s->cpp)) {
        sm->fault = true;
    }
    intel_format_decode(sm->s->format, texel, rgba);
}

/* The texel at integer coordinates through the sampler's address modes. */
static void sampler_fetch_wrapped(Sampling *sm, int64_t x, int64_t y,
                                  uint32_t rgba[4])
{
    int64_t wx, wy = 0;
    bool in = sampler_wrap_index(sm->ss.wrap[0], x, sm->s->width, &wx);

    if (sm->s->type != INTEL_SURFTYPE_1D) {
        in &= sampler_wrap_index(sm->ss.wrap[1], y, sm->s->height, &wy);
    }
    sampler_fetch(sm, wx, wy, in, rgba);
}

/* Filtered sample at normalized (or texel) coordinates (u, v). */
static void sampler_sample2d(Sampling *sm, float u, float v, bool linear,
                             uint32_t rgba[4])
{
    float x = u, y = v;

    if (!sm->ss.non_normalized) {
        x *= sm->s->width;
        y *= sm->s->height;
    }
    if (sm->s->type == INTEL_SURFTYPE_1D) {
        y = 0.5f;
    }
    if (isnan(x) || isnan(y)) {
        x = y = 0;
    }
    /*
     * Keep the integer part far inside int64_t; wraps repeat anyway.
     * Not NaN here: comparisons, not the libm calls fminf/fmaxf.
     */
    x = x > 1e9f ? 1e9f : x < -1e9f ? -1e9f : x;
    y = y > 1e9f ? 1e9f : y < -1e9f ? -1e9f : y;
    if (!linear || intel_format_is_int(sm->s->format)) {
        sampler_fetch_wrapped(sm, (int64_t)floorf(x) + sm->offset[0],
                              (int64_t)floorf(y) + sm->offset[1], rgba);
        return;
    }
    {
        float fx = x - 0.5f, fy = y - 0.5f;
        int64_t x0 = (int64_t)floorf(fx), y0 = (int64_t)floorf(fy);
        float a = fx - floorf(fx), b = fy - floorf(fy);
        float w[4] = { (1 - a) * (1 - b), a * (1 - b), (1 - a) * b, a * b };
        float acc[4] = { 0 };

        x0 += sm->offset[0];
        y0 += sm->offset[1];
        for (unsigned i = 0; i < 4; i++) {
            uint32_t tx[4];

            sampler_fetch_wrapped(sm, x0 + (i & 1), y0 + (i >> 1), tx);
            for (unsigned c = 0; c < 4; c++) {
                acc[c] += w[i] * intel_sf_u2f(tx[c]);
            }
        }
        for (unsigned c = 0; c < 4; c++) {
            rgba[c] = intel_sf_f2u(acc[c]);
        }
    }
}

/*
 * A 3D surface: r (normalized unless the sampler says otherwise) picks
 * the slice, or with linear filtering blends the two nearest, each
 * through TCZ's address mode.
 */
static void sampler_sample3d(Sampling *sm, float u, float v, float r,
                             bool linear, uint32_t rgba[4])
{
    const IntelSurface *s = sm->s;
    float z = sm->ss.non_normalized ? r : r * s->depth, wz = 0, acc[4] = {0};
    int64_t z0;

    z = isnan(z) ? 0 : fmaxf(fminf(z, 1e9f), -1e9f);
    if (linear && !intel_format_is_int(s->format)) {
        z -= 0.5f;
        wz = z - floorf(z);
    }
    z0 = (int64_t)floorf(z) + sm->offset[2];
    for (unsigned i = 0; i < (wz > 0 ? 2 : 1); i++) {
        float w = i ? wz : 1 - wz;
        uint32_t tx[4];
        int64_t slice, row;

        row = sampler_wrap_index(sm->ss.wrap[2], z0 + i, s->depth, &slice) ?
              intel_surface_layer_row(s, slice) : -1;
        if (row >= 0) {
            sm->layer_row = row;
            sampler_sample2d(sm, u, v, linear, tx);
        } else {
            for (unsigned c = 0; c < 4; c++) {
                tx[c] = intel_sf_f2u(sm->ss.border[c]);
            }
        }
        for (unsigned c = 0; c < 4; c++) {
            acc[c] += w * intel_sf_u2f(tx[c]);
            rgba[c] = tx[c];
        }
    }
    if (wz > 0) {
        for (unsigned c = 0; c < 4; c++) {
            rgba[c] = intel_sf_f2u(acc[c]);
        }
    }
}

/*
 * LOD of channel @c from the differences across its 2x2 subspan
 * (channels 4n..4n+3: upper left, upper right, lower left, lower right).
 */
static float sampler_subspan_lod(const float *u, const float *v, unsigned c,
                                 const IntelSurface *s)
{
    unsigned b = c & ~3u;
    float dudx = (u[b + 1] - u[b]) * s->width;
    float dvdx = (v[b + 1] - v[b]) * s->height;
    float dudy = (u[b + 2] - u[b]) * s->width;
    float dvdy = (v[b + 2] - v[b]) * s->height;
    float rho = fmaxf(sqrtf(dudx * dudx + dvdx * dvdx),
                      sqrtf(dudy * dudy + dvdy * dvdy));

    return rho > 0 ? log2f(rho) : -INFINITY;
}

/* Apply the surface's shader channel selects. */
static void sampler_channel_select(const IntelSurface *s, const uint32_t in[4],
                                   uint32_t out[4])
{
    bool integer = intel_format_is_int(s->format);

    for (unsigned c = 0; c < 4; c++) {
        unsigned sel = s->scs[c];

        if (sel >= INTEL_SCS_RED) {
            out[c] = in[sel - INTEL_SCS_RED];
        } else if (sel == INTEL_SCS_ONE) {
            out[c] = integer ? 1 : intel_sf_f2u(1.0f);
        } else {
            out[c] = 0;
        }
    }
}

/*
 * Array layer @r (ld: an integer; else a float rounded to nearest even,
 * clamped to the surface's layers) of a 2D array; false past the last
 * layer (ld reads zero there).
 */
static bool sampler_select_layer(Sampling *sm, uint32_t r, bool integer)
{
    const IntelSurface *s = sm->s;
    int64_t index, row;

    sm->layer_row = 0;
    if (s->type == INTEL_SURFTYPE_3D && !integer) {
        return true;            /* sampler_sample3d() picks the slices */
    }
    if ((s->type != INTEL_SURFTYPE_2D && s->type != INTEL_SURFTYPE_3D) ||
        (s->depth <= 1 && !s->min_array)) {
        return true;
    }
    if (integer) {
        index = (int32_t)r + (int64_t)sm->offset[2];
    } else {
        float f = rintf(intel_sf_u2f(r));

        index = isnan(f) ? 0 : (int64_t)fmaxf(fminf(f, 4096), -1);
        index = MAX(MIN(index, (int64_t)s->depth - 1 - s->min_array), 0);
    }
    row = index < 0 ? -1 : intel_surface_layer_row(s, index);
    if (row < 0) {
        return false;
    }
    sm->layer_row = row;
    return true;
}

/* A sampler message's parameters, common to its channels. */
typedef struct SamplerMsg {
    unsigned type, simd, nparams;
    uint32_t chans;
    Payload pl;
    Sampling sm;
    IntelSurface s;
    bool present;                   /* every parameter in the GRF */
    unsigned lod_subspan;           /* whose LOD @lod is */
    float lod;
} SamplerMsg;

/* The message types and SIMD modes the model samples with. */
static bool sampler_msg_supported(IntelSfThread *th, unsigned type,
                                  unsigned mode)
{
    if (mode != 1 && mode != 2) {
        intel_sf_log(th, GPU_LOG_UNIMP, "sampler SIMD mode %u", mode);
        return false;
    }
    if (type != MSG_SAMPLE && type != MSG_SAMPLE_B && type != MSG_SAMPLE_L &&
        type != MSG_LD && type != MSG_RESINFO && type != MSG_SAMPLE_LZ &&
        type != MSG_LD_LZ) {
        intel_sf_log(th, GPU_LOG_UNIMP, "sampler message type %u", type);
        return false;
    }
    return true;
}

/*
 * The message header's M0.2: the channel mask of the response (15:12)
 * and the texel offsets, signed 4-bit u (11:8), v (7:4), r (3:0).
 */
static bool sampler_header(IntelSfThread *th, EuThread *t,
                           const EuInst *inst, uint32_t desc,
                           uint32_t ex_desc, SamplerMsg *m, unsigned *mask)
{
    uint8_t *m0 = intel_sf_payload(t, inst, desc, ex_desc, 0);
    uint32_t m02;

    if (!m0) {
        intel_sf_log(th, GPU_LOG_GUEST_ERROR, "sampler header missing");
        return false;
    }
    memcpy(&m02, m0 + 8, 4);
    m02 = GUINT32_FROM_LE(m02);
    *mask = (m02 >> 12) & 0xf;
    m->sm.offset[0] = (int32_t)(m02 << 20) >> 28;
    m->sm.offset[1] = (int32_t)(m02 << 24) >> 28;
    m->sm.offset[2] = (int32_t)(m02 << 28) >> 28;
    return true;
}

/* resinfo: width, height, depth or layers, levels. */
static void sampler_resinfo(const IntelSurface *s, uint32_t raw[4])
{
    raw[0] = s->width;
    raw[1] = s->type == INTEL_SURFTYPE_1D ? 0 : s->height;
    /* A 2D array's layers, a 3D surface's depth. */
    raw[2] = s->type == INTEL_SURFTYPE_3D ||
             (s->type == INTEL_SURFTYPE_2D && s->depth > 1) ? s->depth : 0;
    raw[3] = s->levels;
}

/* ld, ld_lz: integer texel coordinates; outside the surface: zero. */
static bool sampler_ld(IntelSfThread *th, SamplerMsg *m, unsigned c,
                       uint32_t ru, uint32_t rv, bool in_layers,
                       uint32_t raw[4])
{
    const IntelSurface *s = &m->s;
    int64_t x = (int32_t)ru + (int64_t)m->sm.offset[0];
    int64_t y = s->type == INTEL_SURFTYPE_1D ? 0 :
                (int32_t)rv + (int64_t)m->sm.offset[1];
    uint32_t tx[4], lod = 0;

    if (m->type == MSG_LD && m->nparams > 2) {
        lod = sampler_param(&m->pl, 2, c, &m->present);
    }
    if (lod && lod < s->levels) {
        intel_sf_log(th, GPU_LOG_UNIMP, "ld from mip level %u", lod);
        return false;
    }
    /* A level the surface lacks reads as zero, like outside. */
    if (!lod && in_layers && x >= 0 && x < s->width && y >= 0 &&
        y < s->height) {
        sampler_fetch(&m->sm, x, y, true, tx);
        sampler_channel_select(s, tx, raw);
    }
    return true;
}

/* sample, sample_b, sample_l, sample_lz: filtered at (u, v[, r]). */
static void sampler_sample_at(SamplerMsg *m, unsigned c, const float *u,
                              const float *v, uint32_t r, bool in_layers,
                              uint32_t raw[4])
{
    float lod = 0;
    bool linear;
    uint32_t tx[4];

    if (m->type == MSG_SAMPLE && m->sm.ss.min_filter != m->sm.ss.mag_filter) {
        /*
         * The LOD only picks the filter: one per 2x2 subspan, computed at
         * its first lit channel.
         */
        if (m->lod_subspan != c / 4) {
            m->lod_subspan = c / 4;
            m->lod = sampler_subspan_lod(u, v, c, &m->s);
        }
        lod = m->lod;
    } else if (m->type == MSG_SAMPLE_L) {
        lod = intel_sf_u2f(sampler_param(&m->pl, 0, c, &m->present));
    }
    /* Magnification up to LOD 0, minification above. */
    linear = (lod > 0 ? m->sm.ss.min_filter : m->sm.ss.mag_filter) !=
             INTEL_MAPFILTER_NEAREST;
    if (m->s.type == INTEL_SURFTYPE_3D) {
        sampler_sample3d(&m->sm, u[c], v[c], intel_sf_u2f(r), linear, tx);
        sampler_channel_select(&m->s, tx, raw);
    } else if (in_layers) {
        sampler_sample2d(&m->sm, u[c], v[c], linear, tx);
        sampler_channel_select(&m->s, tx, raw);
    }
}

/* The response: enabled channels only, each simd / 8 registers. */
static void sampler_response(EuThread *t, const EuInst *inst, uint32_t desc,
                             const SamplerMsg *m, unsigned mask,
                             uint32_t (*out)[EU_MAX_CHANNELS])
{
    unsigned reg = 0;
    uint8_t *r8 = NULL;

    for (unsigned ch = 0; ch < 4; ch++) {
        if ((mask >> ch) & 1) {
            continue;
        }
        for (unsigned c = 0; c < m->simd; c++) {
            uint8_t *r = c % 8 ? r8 : intel_sf_response(t, inst, desc,
                                                        reg + c / 8);
            uint32_t le = GUINT32_TO_LE(out[ch][c]);

            r8 = r;
            if (r && ((m->chans >> c) & 1)) {
                memcpy(r + (c % 8) * 4, &le, 4);
            }
        }
        reg += m->simd / 8;
    }
}

/* The surface, and unless the message only loads texels its sampler. */
static bool sampler_load_state(IntelSfThread *th, SamplerMsg *m,
                               uint32_t desc)
{
    unsigned bti = desc & 0xff, sampler = (desc >> 8) & 0xf;

    if (!intel_surface_load_cached(th, bti, &m->s)) {
        return false;
    }
    if (m->s.type != INTEL_SURFTYPE_1D && m->s.type != INTEL_SURFTYPE_2D &&
        m->s.type != INTEL_SURFTYPE_3D && m->s.type != INTEL_SURFTYPE_NULL) {
        intel_sf_log(th, GPU_LOG_UNIMP, "sampling surface type %u",
                     m->s.type);
        return false;
    }
    return m->type == MSG_LD || m->type == MSG_LD_LZ ||
           m->type == MSG_RESINFO ||
           intel_sampler_state_load_cached(th, sampler, &m->sm.ss);
}

int intel_sf_sampler(IntelSfThread *th, EuThread *t, const EuInst *inst,
                     uint32_t desc, uint32_t ex_desc)
{
    unsigned type = (desc >> 12) & 0x1f, mode = (desc >> 17) & 3;
    bool header = (desc >> 19) & 1;
    unsigned mask = 0;
    uint32_t out[4][EU_MAX_CHANNELS];
    uint32_t ru[EU_MAX_CHANNELS], rv[EU_MAX_CHANNELS];
    float u[EU_MAX_CHANNELS], v[EU_MAX_CHANNELS];
    SamplerMsg m = { .type = type, .present = true, .lod_subspan = UINT_MAX };
    /* ld's and sample_l/b's first parameter is not a coordinate. */
    unsigned k = type == MSG_SAMPLE_L || type == MSG_SAMPLE_B;
    /* The array index: after u, v (and ld's lod). */
    unsigned rk = k || type == MSG_LD ? 3 : 2;

    if (!sampler_msg_supported(th, type, mode)) {
        return -1;
    }
    m.simd = mode == 1 ? 8 : 16;
    m.sm = (Sampling) { .th = th, .s = &m.s };
    m.chans = intel_sf_channels(t, inst) & ((1u << m.simd) - 1);
    if (header && !sampler_header(th, t, inst, desc, ex_desc, &m, &mask)) {
        return -1;
    }
    m.nparams = (desc >> 25 & 0xf) + ((inst->opcode == EU_OP_SENDS ||
                                       inst->opcode == EU_OP_SENDSC) ?
                                      (ex_desc >> 6) & 0x1f : 0);
    m.nparams = m.nparams > header ?
                (m.nparams - header) / (m.simd / 8) : 0;
    if (m.nparams < 1) {
        intel_sf_log(th, GPU_LOG_GUEST_ERROR,
                     "sampler message without coordinates (desc 0x%08x)",
                     desc);
        return -1;
    }
    if (!sampler_load_state(th, &m, desc)) {
        return -1;
    }

    sampler_payload_init(&m.pl, t, inst, desc, ex_desc, header, m.simd);
    /* Coordinates first, for the subspan LODs of sample. */
    for (unsigned c = 0; c < m.simd; c++) {
        ru[c] = sampler_param(&m.pl, k, c, &m.present);
        rv[c] = m.nparams > k + 1 ?
                sampler_param(&m.pl, k + 1, c, &m.present) : 0;
        u[c] = intel_sf_u2f(ru[c]);
        v[c] = intel_sf_u2f(rv[c]);
    }
    for (unsigned c = 0; c < m.simd; c++) {
        uint32_t raw[4] = { 0 }, r = 0;
        bool in_layers;

        if (!((m.chans >> c) & 1)) {
            continue;
        }
        if (m.nparams > rk) {
            r = sampler_param(&m.pl, rk, c, &m.present);
        }
        in_layers = sampler_select_layer(&m.sm, r, type == MSG_LD ||
                                         type == MSG_LD_LZ);
        if (m.s.type == INTEL_SURFTYPE_NULL) {
            /* A null surface samples as zero. */
        } else if (type == MSG_RESINFO) {
            sampler_resinfo(&m.s, raw);
        } else if (type == MSG_LD || type == MSG_LD_LZ) {
            if (!sampler_ld(th, &m, c, ru[c], rv[c], in_layers, raw)) {
                return -1;
            }
        } else {
            sampler_sample_at(&m, c, u, v, r, in_layers, raw);
        }
        for (unsigned ch = 0; ch < 4; ch++) {
            out[ch][c] = raw[ch];
        }
    }
    if (m.sm.fault || !m.present) {
        if (!m.present) {
            intel_sf_log(th, GPU_LOG_GUEST_ERROR,
                         "sampler payload outside the register file");
        }
        return -1;
    }
    sampler_response(t, inst, desc, &m, mask, out);
    if (th->stats) {
        th->stats->sampler_messages++;
        th->stats->sampler_texels += __builtin_popcount(m.chans);
    }
    return 0;
}
