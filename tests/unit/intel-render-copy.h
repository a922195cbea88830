/*
 * IGT's Ice Lake render copy (IGT 1.27.1 lib/rendercopy_gen9.c,
 * _gen9_render_op() with gen11_render_copyfunc's ps_kernel_gen11): its
 * batch and state built as IGT builds them, for the render unit tests
 * and the render bench.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_INTEL_RENDER_COPY_H
#define TESTS_UNIT_INTEL_RENDER_COPY_H

#include "intel-fixture.h"
#include "eu-asm.h"
#include "tiling-ref.h"

/* IGT's command headers (lib/gen*_render.h): GEN4_3D(3, op, sub). */
#define CMD3D(op, sub)  GFXPIPE_INSTR(GFXPIPE_3D, (op), (sub))
#define LEN(n)          ((n) - 2)

#define RC_BATCH        0x030000u       /* 8 KiB: commands, then state */
#define RC_SPLIT        2048            /* BATCH_STATE_SPLIT */
#define SRC_SURF        0x200000u
#define DST_SURF        0x500000u       /* clear of SNAP and OABUF */
#define SURF_MAX        0x100000u

typedef struct RcBuf {
    uint64_t addr;
    uint32_t width, height, stride;
    RefTiling t;
} RcBuf;

/* The batch as intel_bb builds it: dwords at @pos, state from the top. */
typedef struct Bb {
    Fixture *f;
    uint64_t base;
    uint32_t pos;
} Bb;

static inline void out(Bb *b, uint32_t v)
{
    ram_w32(b->f, b->base + b->pos, v);
    b->pos += 4;
}

static inline void outn(Bb *b, uint32_t hdr, unsigned zeros)
{
    out(b, hdr);
    for (unsigned i = 0; i < zeros; i++) {
        out(b, 0);
    }
}

static inline uint32_t align(Bb *b, uint32_t a)
{
    b->pos = (b->pos + a - 1) & ~(a - 1);
    return b->pos;
}

static inline uint64_t pixel_addr(const RcBuf *s, uint32_t x,
                                  uint32_t y)
{
    return s->addr + ref_offset(s->t, 4, s->stride, x * 4, y);
}

/* gen8_bind_buf(): a RENDER_SURFACE_STATE, B8G8R8A8_UNORM, 2D. */
static inline uint32_t bind_buf(Bb *b, const RcBuf *s)
{
    uint32_t off = align(b, 64);
    uint32_t tiled = s->t == REF_X ? 2 : s->t == REF_Y ? 3 : 0;

    out(b, 1u << 29 | 0x0c0 << 18 | 1 << 16 | 1 << 14 | tiled << 12 |
        1 << 8);
    out(b, 2u << 24);                   /* MOCS: I915_MOCS_PTE << 1 */
    out(b, (s->height - 1) << 16 | (s->width - 1));
    out(b, s->stride - 1);
    out(b, 0);
    out(b, 1 << 8);                     /* mip tail start LOD */
    out(b, 0);
    out(b, 4u << 25 | 5 << 22 | 6 << 19 | 7 << 16);    /* R G B A */
    out(b, s->addr);
    out(b, s->addr >> 32);
    for (unsigned i = 10; i < 16; i++) {
        out(b, 0);
    }
    return off;
}

static inline void emit_f(Bb *b, float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    out(b, u);
}

/* emit_vertex_2s() and emit_vertex_normalized() of lib/rendercopy.h. */
static inline void vertex(Bb *b, int16_t x, int16_t y, float u, float v)
{
    out(b, (uint16_t)x | (uint32_t)(uint16_t)y << 16);
    emit_f(b, u);
    emit_f(b, v);
}

/* What a test changes in IGT's batch (NULL: nothing). */
typedef struct RcOpts {
    const uint8_t *kernel;      /* another pixel shader */
    size_t kernel_len;
    uint32_t ps_dw6;            /* 3DSTATE_PS dword 6 (dispatch enables) */
    uint64_t consts;            /* push constant buffer 0 */
    uint32_t const_regs;
    uint32_t flat;              /* SBE constant interpolation enables */
} RcOpts;

/* Where _gen9_render_op() put its state: offsets in the batch. */
typedef struct RcState {
    uint32_t bt, sampler, kernel, vb;
    uint32_t cc, blend, cc_vp, sf_vp, scissor;
} RcState;

/* ---- the state, from BATCH_STATE_SPLIT up ---- */

/* gen8_bind_surfaces(): the binding table, destination then source. */
static inline uint32_t rc_bind_surfaces(Bb *b, const RcBuf *src,
                                        const RcBuf *dst)
{
    uint32_t bt = align(b, 32);
    uint32_t ss_dst, ss_src;

    b->pos += 32;
    ss_dst = bind_buf(b, dst);
    ss_src = bind_buf(b, src);
    ram_w32(b->f, b->base + bt, ss_dst);
    ram_w32(b->f, b->base + bt + 4, ss_src);
    return bt;
}

/* gen8_create_sampler(): SAMPLER_STATE, NEAREST, CLAMP. */
static inline uint32_t rc_create_sampler(Bb *b)
{
    uint32_t sampler = align(b, 64);

    out(b, 0);
    out(b, 0);
    out(b, 0);
    out(b, 2 << 6 | 2 << 3 | 2);
    return sampler;
}

/* gen8_fill_ps(): the pixel shader, ps_kernel_gen11 or @o's. */
static inline uint32_t rc_fill_ps(Bb *b, const RcOpts *o)
{
    uint32_t kernel = align(b, 64);

    if (o->kernel) {
        for (size_t i = 0; i < o->kernel_len; i += 4) {
            uint32_t dw;

            memcpy(&dw, o->kernel + i, 4);
            out(b, GUINT32_FROM_LE(dw));
        }
    } else {
        for (unsigned i = 0; i < G_N_ELEMENTS(igt_ps_kernel_gen11); i++) {
            for (unsigned j = 0; j < 4; j++) {
                out(b, igt_ps_kernel_gen11[i][j]);
            }
        }
    }
    return kernel;
}

/* gen7_fill_vertex_buffer_data(): the RECTLIST's three corners. */
static inline uint32_t rc_fill_vertex_buffer_data(Bb *b, const RcBuf *src,
                                                  uint32_t sx, uint32_t sy,
                                                  uint32_t dx, uint32_t dy,
                                                  uint32_t w, uint32_t h)
{
    uint32_t vb = align(b, 8);

    vertex(b, dx + w, dy + h, (float)(sx + w) / src->width,
           (float)(sy + h) / src->height);
    vertex(b, dx, dy + h, (float)sx / src->width,
           (float)(sy + h) / src->height);
    vertex(b, dx, dy, (float)sx / src->width, (float)sy / src->height);
    return vb;
}

/*
 * gen6_create_cc_state() to gen6_create_scissor_rect(): COLOR_CALC_STATE,
 * BLEND_STATE, the CC and SF_CLIP viewports, SCISSOR_RECT.
 */
static inline void rc_create_cc_and_viewports(Bb *b, RcState *st)
{
    st->cc = align(b, 64);
    b->pos += 24;                       /* gen6_color_calc_state: zeros */
    st->blend = align(b, 64);
    out(b, 0);
    for (unsigned i = 0; i < 16; i++) {
        out(b, 1u << 26 | 0x11u << 21);     /* ONE, ZERO, ADD */
        out(b, 1u << 1);                    /* pre-blend colour clamp */
    }
    st->cc_vp = align(b, 32);
    emit_f(b, -1.e35f);
    emit_f(b, 1.e35f);
    st->sf_vp = align(b, 64);
    for (unsigned i = 0; i < 16; i++) {
        out(b, 0);
    }
    ram_w32(b->f, b->base + st->sf_vp + 36, 0x3f800000);   /* guardband */
    ram_w32(b->f, b->base + st->sf_vp + 44, 0x3f800000);   /* 1.0 */
    st->scissor = align(b, 64);
    out(b, 0);
    out(b, 0);
}

/* ---- the commands, from the start of the batch ---- */

/* gen9_emit_state_base_address(): every base the batch itself. */
static inline void rc_emit_state_base_address(Bb *b)
{
    uint64_t base = b->base;

    out(b, STATE_BASE_ADDRESS | LEN(19));
    out(b, 1);
    out(b, 0);
    out(b, 1);
    out(b, base | 1);                   /* surface */
    out(b, base >> 32);
    out(b, base | 1);                   /* dynamic */
    out(b, base >> 32);
    out(b, 0);                          /* indirect */
    out(b, 0);
    out(b, base | 1);                   /* instruction */
    out(b, base >> 32);
    out(b, 0xfffff000 | 1);
    out(b, 1 << 12 | 1);
    out(b, 0xfffff000 | 1);
    out(b, 1 << 12 | 1);
    out(b, 0);
    out(b, 0);
    out(b, 0);
}

/*
 * PIPELINE_SELECT to 3DSTATE_SAMPLE_MASK: the 3D pipeline, SIP, push
 * constant allocation, base addresses, viewport pointers, URB, colour
 * calc and blend pointers, multisampling.
 */
static inline void rc_emit_pipeline_setup(Bb *b, const RcState *st)
{
    out(b, PIPELINE_SELECT | PIPELINE_SELECT_3D | 3 << 8);
    outn(b, STATE_SIP | LEN(3), 2);
    for (unsigned i = 0x12; i <= 0x16; i++) {   /* push constant alloc */
        outn(b, CMD3D(1, i), 1);
    }
    rc_emit_state_base_address(b);
    out(b, CMD3D(0, 0x23));
    out(b, st->cc_vp);
    out(b, CMD3D(0, 0x21));
    out(b, st->sf_vp);
    out(b, CMD3D(0, 0x30));             /* URB_VS, GS, HS, DS */
    out(b, 64 | 1 << 16 | 4 << 25);
    out(b, CMD3D(0, 0x33));
    out(b, 4 << 25);
    out(b, CMD3D(0, 0x31));
    out(b, 4 << 25);
    out(b, CMD3D(0, 0x32));
    out(b, 4 << 25);
    out(b, CMD3D(0, 0x24));
    out(b, st->blend | 1);
    out(b, CMD3D(0, 0x0e));
    out(b, st->cc | 1);
    outn(b, CMD3D(0, 0x0d), 1);         /* MULTISAMPLE */
    out(b, CMD3D(0, 0x18));
    out(b, 1);
}

/*
 * gen8_emit_null_state(), STREAMOUT and CLIP: the stages the copy does
 * not use, all off.
 */
static inline void rc_emit_null_state(Bb *b)
{
    outn(b, CMD3D(0, 0x52) | LEN(5), 4);    /* WM_HZ_OP */
    outn(b, CMD3D(0, 0x19) | LEN(11), 10);  /* CONSTANT_HS */
    outn(b, CMD3D(0, 0x1b) | LEN(9), 8);    /* HS */
    outn(b, CMD3D(0, 0x27), 1);
    outn(b, CMD3D(0, 0x2c), 1);
    outn(b, CMD3D(0, 0x1c) | LEN(4), 3);    /* TE */
    outn(b, CMD3D(0, 0x16) | LEN(11), 10);  /* CONSTANT_GS */
    outn(b, CMD3D(0, 0x11) | LEN(10), 9);   /* GS */
    outn(b, CMD3D(0, 0x29), 1);
    outn(b, CMD3D(0, 0x2e), 1);
    outn(b, CMD3D(0, 0x1a) | LEN(11), 10);  /* CONSTANT_DS */
    outn(b, CMD3D(0, 0x1d) | LEN(11), 10);  /* DS */
    outn(b, CMD3D(0, 0x28), 1);
    outn(b, CMD3D(0, 0x2d), 1);
    outn(b, CMD3D(0, 0x15) | LEN(11), 10);  /* CONSTANT_VS */
    outn(b, CMD3D(0, 0x26), 1);
    outn(b, CMD3D(0, 0x2b), 1);
    outn(b, CMD3D(0, 0x10) | LEN(9), 8);    /* VS */
    outn(b, CMD3D(0, 0x1e) | LEN(5), 4);    /* STREAMOUT */
    outn(b, CMD3D(0, 0x12) | LEN(4), 3);    /* CLIP */
}

/* gen8_emit_sf(): SBE (@o's flat inputs), SBE_SWIZ, RASTER, SF. */
static inline void rc_emit_sf(Bb *b, const RcOpts *o)
{
    out(b, CMD3D(0, 0x1f) | LEN(6));        /* SBE */
    out(b, 1 << 22 | 1 << 29 | 1 << 28 | 1 << 11 | 1 << 5);
    out(b, 0);
    out(b, o->flat);
    out(b, 3);
    out(b, 0);
    outn(b, CMD3D(0, 0x51) | LEN(11), 10);  /* SBE_SWIZ */
    out(b, CMD3D(0, 0x50) | LEN(5));        /* RASTER */
    out(b, 1 << 21 | 1 << 16);
    out(b, 0);
    out(b, 0);
    out(b, 0);
    outn(b, CMD3D(0, 0x13) | LEN(4), 3);    /* SF */
}

/*
 * gen8_emit_ps() (WM, CONSTANT_PS with @o's push constants, PS,
 * PS_BLEND, PS_EXTRA), then the PS binding table, sampler and scissor
 * pointers.
 */
static inline void rc_emit_ps(Bb *b, const RcState *st, const RcOpts *o)
{
    out(b, CMD3D(0, 0x14));                 /* WM */
    out(b, 1 << 11);
    out(b, CMD3D(0, 0x17) | LEN(11));       /* CONSTANT_PS */
    out(b, o->const_regs);
    out(b, 0);
    out(b, o->consts);
    out(b, o->consts >> 32);
    for (unsigned i = 0; i < 6; i++) {
        out(b, 0);
    }
    out(b, CMD3D(0, 0x20) | LEN(12));       /* PS */
    out(b, st->kernel);
    out(b, 0);
    out(b, 1u << 27 | 2 << 18);
    out(b, 0);
    out(b, 0);
    out(b, o->ps_dw6 ? o->ps_dw6 : 62u << 23 | 1 << 1);
    out(b, 6 << 16);
    out(b, 0);
    out(b, 0);
    out(b, 0);
    out(b, 0);
    out(b, CMD3D(0, 0x4d));                 /* PS_BLEND */
    out(b, 1 << 30);
    out(b, CMD3D(0, 0x4f));                 /* PS_EXTRA */
    out(b, 1u << 31 | 1 << 8);
    out(b, CMD3D(0, 0x2a));
    out(b, st->bt);
    out(b, CMD3D(0, 0x2f));
    out(b, st->sampler);
    out(b, CMD3D(0, 0x0f));
    out(b, st->scissor);
}

/*
 * gen9_emit_depth(), gen7_emit_clear(), gen6_emit_drawing_rectangle():
 * no depth or stencil, the drawing rectangle all of @dst.
 */
static inline void rc_emit_depth_and_rectangle(Bb *b, const RcBuf *dst)
{
    outn(b, CMD3D(0, 0x4e) | LEN(4), 3);    /* WM_DEPTH_STENCIL */
    outn(b, CMD3D(0, 0x05) | LEN(8), 7);    /* DEPTH_BUFFER */
    outn(b, CMD3D(0, 0x07) | LEN(5), 4);    /* HIER_DEPTH_BUFFER */
    outn(b, CMD3D(0, 0x06) | LEN(5), 4);    /* STENCIL_BUFFER */
    out(b, CMD3D(0, 0x04) | LEN(3));        /* CLEAR_PARAMS */
    out(b, 0);
    out(b, 1);
    out(b, CMD3D(1, 0x00) | LEN(4));        /* DRAWING_RECTANGLE */
    out(b, 0);
    out(b, (dst->height - 1) << 16 | (dst->width - 1));
    out(b, 0);
}

/*
 * gen7_emit_vertex_buffer(), gen6_emit_vertex_elements(),
 * gen8_emit_vf_topology(), gen8_emit_primitive(): the vertices at @vb
 * drawn as a RECTLIST @instances times.
 */
static inline void rc_emit_primitive(Bb *b, uint32_t vb, uint32_t instances)
{
    out(b, CMD3D(0, 0x08) | LEN(5));        /* VERTEX_BUFFERS */
    out(b, 0 << 26 | 1 << 14 | 12);
    out(b, b->base + vb);
    out(b, (b->base + vb) >> 32);
    out(b, 3 * 12);
    out(b, CMD3D(0, 0x09) | LEN(7));        /* VERTEX_ELEMENTS */
    out(b, 1 << 25 | 0x000 << 16);
    out(b, 2u << 28 | 2 << 24 | 2 << 20 | 2 << 16);
    out(b, 1 << 25 | 0x0f6 << 16);
    out(b, 1u << 28 | 1 << 24 | 2 << 20 | 3 << 16);
    out(b, 1 << 25 | 0x085 << 16 | 4);
    out(b, 1u << 28 | 1 << 24 | 2 << 20 | 3 << 16);
    out(b, CMD3D(0, 0x4b));                 /* VF_TOPOLOGY */
    out(b, 0x0f);
    outn(b, CMD3D(0, 0x0c), 1);             /* VF */
    outn(b, CMD3D(0, 0x49) | LEN(3), 2);    /* VF_INSTANCING */
    out(b, GFX_OP_3DPRIMITIVE | LEN(7));
    out(b, 0);
    out(b, 3);
    out(b, 0);
    out(b, instances);
    out(b, 0);
    out(b, 0);
}

/*
 * _gen9_render_op(): copy @w x @h pixels from (@sx, @sy) of @src to
 * (@dx, @dy) of @dst @instances times, with @o's changes; the batch at
 * RC_BATCH, ended and ready to start.
 */
static inline void render_copy_n(Fixture *f, const RcBuf *src,
                                 uint32_t sx, uint32_t sy,
                                 uint32_t w, uint32_t h,
                                 const RcBuf *dst, uint32_t dx, uint32_t dy,
                                 uint32_t instances, const RcOpts *o)
{
    static const RcOpts igt;            /* no changes */
    Bb b = { f, RC_BATCH, RC_SPLIT };
    RcState st;

    if (!o) {
        o = &igt;
    }
    st.bt = rc_bind_surfaces(&b, src, dst);
    st.sampler = rc_create_sampler(&b);
    st.kernel = rc_fill_ps(&b, o);
    st.vb = rc_fill_vertex_buffer_data(&b, src, sx, sy, dx, dy, w, h);
    rc_create_cc_and_viewports(&b, &st);
    g_assert_cmpuint(b.pos, <=, 8192);

    b.pos = 0;
    rc_emit_pipeline_setup(&b, &st);
    rc_emit_null_state(&b);
    rc_emit_sf(&b, o);
    rc_emit_ps(&b, &st, o);
    rc_emit_depth_and_rectangle(&b, dst);
    rc_emit_primitive(&b, st.vb, instances);
    out(&b, MI_BATCH_BUFFER_END);
    g_assert_cmpuint(b.pos, <=, RC_SPLIT);
}

static inline void render_copy(Fixture *f, const RcBuf *src,
                               uint32_t sx, uint32_t sy,
                               uint32_t w, uint32_t h,
                               const RcBuf *dst, uint32_t dx, uint32_t dy)
{
    render_copy_n(f, src, sx, sy, w, h, dst, dx, dy, 1, NULL);
}

#endif
