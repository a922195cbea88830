/*
 * Unit tests of the intel-gpu 3D pipeline: IGT's Ice Lake render copy
 * (IGT 1.27.1 lib/rendercopy_gen9.c, _gen9_render_op() with
 * gen11_render_copyfunc's ps_kernel_gen11), its batch and state built
 * as IGT builds them, between linear, X- and Y-tiled 32 bpp surfaces.
 * Every destination pixel is checked: the rectangle holds the source's
 * pixels, the rest what was there.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-oa-test.h"
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

static void out(Bb *b, uint32_t v)
{
    ram_w32(b->f, b->base + b->pos, v);
    b->pos += 4;
}

static void outn(Bb *b, uint32_t hdr, unsigned zeros)
{
    out(b, hdr);
    for (unsigned i = 0; i < zeros; i++) {
        out(b, 0);
    }
}

static uint32_t align(Bb *b, uint32_t a)
{
    b->pos = (b->pos + a - 1) & ~(a - 1);
    return b->pos;
}

static uint64_t pixel_addr(const RcBuf *s, uint32_t x, uint32_t y)
{
    return s->addr + ref_offset(s->t, 4, s->stride, x * 4, y);
}

/* gen8_bind_buf(): a RENDER_SURFACE_STATE, B8G8R8A8_UNORM, 2D. */
static uint32_t bind_buf(Bb *b, const RcBuf *s)
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

static void emit_f(Bb *b, float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    out(b, u);
}

/* emit_vertex_2s() and emit_vertex_normalized() of lib/rendercopy.h. */
static void vertex(Bb *b, int16_t x, int16_t y, float u, float v)
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

/*
 * _gen9_render_op(): copy @w x @h pixels from (@sx, @sy) of @src to
 * (@dx, @dy) of @dst @instances times, with @o's changes; the batch at
 * RC_BATCH, ended and ready to start.
 */
static void render_copy_n(Fixture *f, const RcBuf *src, uint32_t sx,
                          uint32_t sy, uint32_t w, uint32_t h,
                          const RcBuf *dst, uint32_t dx, uint32_t dy,
                          uint32_t instances, const RcOpts *o)
{
    Bb b = { f, RC_BATCH, RC_SPLIT };
    uint32_t bt, sampler, kernel, vb, cc, blend, cc_vp, sf_vp, scissor;
    uint32_t bt_pos, ss_dst, ss_src;
    uint64_t base = RC_BATCH;

    /* State. */
    bt_pos = align(&b, 32);
    bt = bt_pos;
    b.pos += 32;
    ss_dst = bind_buf(&b, dst);
    ss_src = bind_buf(&b, src);
    ram_w32(f, base + bt_pos, ss_dst);
    ram_w32(f, base + bt_pos + 4, ss_src);
    sampler = align(&b, 64);            /* NEAREST, CLAMP */
    out(&b, 0);
    out(&b, 0);
    out(&b, 0);
    out(&b, 2 << 6 | 2 << 3 | 2);
    kernel = align(&b, 64);
    if (o && o->kernel) {
        for (size_t i = 0; i < o->kernel_len; i += 4) {
            uint32_t dw;

            memcpy(&dw, o->kernel + i, 4);
            out(&b, GUINT32_FROM_LE(dw));
        }
    } else {
        for (unsigned i = 0; i < G_N_ELEMENTS(igt_ps_kernel_gen11); i++) {
            for (unsigned j = 0; j < 4; j++) {
                out(&b, igt_ps_kernel_gen11[i][j]);
            }
        }
    }
    vb = align(&b, 8);
    vertex(&b, dx + w, dy + h, (float)(sx + w) / src->width,
           (float)(sy + h) / src->height);
    vertex(&b, dx, dy + h, (float)sx / src->width,
           (float)(sy + h) / src->height);
    vertex(&b, dx, dy, (float)sx / src->width, (float)sy / src->height);
    cc = align(&b, 64);
    b.pos += 24;                        /* gen6_color_calc_state: zeros */
    blend = align(&b, 64);
    out(&b, 0);
    for (unsigned i = 0; i < 16; i++) {
        out(&b, 1u << 26 | 0x11u << 21);    /* ONE, ZERO, ADD */
        out(&b, 1u << 1);                   /* pre-blend colour clamp */
    }
    cc_vp = align(&b, 32);
    emit_f(&b, -1.e35f);
    emit_f(&b, 1.e35f);
    sf_vp = align(&b, 64);
    for (unsigned i = 0; i < 16; i++) {
        out(&b, 0);
    }
    ram_w32(f, base + sf_vp + 36, 0x3f800000);  /* guardband 1.0 */
    ram_w32(f, base + sf_vp + 44, 0x3f800000);
    scissor = align(&b, 64);
    out(&b, 0);
    out(&b, 0);
    g_assert_cmpuint(b.pos, <=, 8192);

    /* Commands. */
    b.pos = 0;
    out(&b, PIPELINE_SELECT | PIPELINE_SELECT_3D | 3 << 8);
    outn(&b, STATE_SIP | LEN(3), 2);
    for (unsigned i = 0x12; i <= 0x16; i++) {   /* push constant alloc */
        outn(&b, CMD3D(1, i), 1);
    }
    out(&b, STATE_BASE_ADDRESS | LEN(19));
    out(&b, 1);
    out(&b, 0);
    out(&b, 1);
    out(&b, base | 1);                  /* surface */
    out(&b, base >> 32);
    out(&b, base | 1);                  /* dynamic */
    out(&b, base >> 32);
    out(&b, 0);                         /* indirect */
    out(&b, 0);
    out(&b, base | 1);                  /* instruction */
    out(&b, base >> 32);
    out(&b, 0xfffff000 | 1);
    out(&b, 1 << 12 | 1);
    out(&b, 0xfffff000 | 1);
    out(&b, 1 << 12 | 1);
    out(&b, 0);
    out(&b, 0);
    out(&b, 0);
    out(&b, CMD3D(0, 0x23));
    out(&b, cc_vp);
    out(&b, CMD3D(0, 0x21));
    out(&b, sf_vp);
    out(&b, CMD3D(0, 0x30));            /* URB_VS, GS, HS, DS */
    out(&b, 64 | 1 << 16 | 4 << 25);
    out(&b, CMD3D(0, 0x33));
    out(&b, 4 << 25);
    out(&b, CMD3D(0, 0x31));
    out(&b, 4 << 25);
    out(&b, CMD3D(0, 0x32));
    out(&b, 4 << 25);
    out(&b, CMD3D(0, 0x24));
    out(&b, blend | 1);
    out(&b, CMD3D(0, 0x0e));
    out(&b, cc | 1);
    outn(&b, CMD3D(0, 0x0d), 1);        /* MULTISAMPLE */
    out(&b, CMD3D(0, 0x18));
    out(&b, 1);
    outn(&b, CMD3D(0, 0x52) | LEN(5), 4);   /* WM_HZ_OP */
    outn(&b, CMD3D(0, 0x19) | LEN(11), 10); /* CONSTANT_HS */
    outn(&b, CMD3D(0, 0x1b) | LEN(9), 8);   /* HS */
    outn(&b, CMD3D(0, 0x27), 1);
    outn(&b, CMD3D(0, 0x2c), 1);
    outn(&b, CMD3D(0, 0x1c) | LEN(4), 3);   /* TE */
    outn(&b, CMD3D(0, 0x16) | LEN(11), 10); /* CONSTANT_GS */
    outn(&b, CMD3D(0, 0x11) | LEN(10), 9);  /* GS */
    outn(&b, CMD3D(0, 0x29), 1);
    outn(&b, CMD3D(0, 0x2e), 1);
    outn(&b, CMD3D(0, 0x1a) | LEN(11), 10); /* CONSTANT_DS */
    outn(&b, CMD3D(0, 0x1d) | LEN(11), 10); /* DS */
    outn(&b, CMD3D(0, 0x28), 1);
    outn(&b, CMD3D(0, 0x2d), 1);
    outn(&b, CMD3D(0, 0x15) | LEN(11), 10); /* CONSTANT_VS */
    outn(&b, CMD3D(0, 0x26), 1);
    outn(&b, CMD3D(0, 0x2b), 1);
    outn(&b, CMD3D(0, 0x10) | LEN(9), 8);   /* VS */
    outn(&b, CMD3D(0, 0x1e) | LEN(5), 4);   /* STREAMOUT */
    outn(&b, CMD3D(0, 0x12) | LEN(4), 3);   /* CLIP */
    out(&b, CMD3D(0, 0x1f) | LEN(6));       /* SBE */
    out(&b, 1 << 22 | 1 << 29 | 1 << 28 | 1 << 11 | 1 << 5);
    out(&b, 0);
    out(&b, o ? o->flat : 0);
    out(&b, 3);
    out(&b, 0);
    outn(&b, CMD3D(0, 0x51) | LEN(11), 10); /* SBE_SWIZ */
    out(&b, CMD3D(0, 0x50) | LEN(5));       /* RASTER */
    out(&b, 1 << 21 | 1 << 16);
    out(&b, 0);
    out(&b, 0);
    out(&b, 0);
    outn(&b, CMD3D(0, 0x13) | LEN(4), 3);   /* SF */
    out(&b, CMD3D(0, 0x14));                /* WM */
    out(&b, 1 << 11);
    out(&b, CMD3D(0, 0x17) | LEN(11));      /* CONSTANT_PS */
    out(&b, o ? o->const_regs : 0);
    out(&b, 0);
    out(&b, o ? o->consts : 0);
    out(&b, o ? o->consts >> 32 : 0);
    for (unsigned i = 0; i < 6; i++) {
        out(&b, 0);
    }
    out(&b, CMD3D(0, 0x20) | LEN(12));      /* PS */
    out(&b, kernel);
    out(&b, 0);
    out(&b, 1u << 27 | 2 << 18);
    out(&b, 0);
    out(&b, 0);
    out(&b, o && o->ps_dw6 ? o->ps_dw6 : 62u << 23 | 1 << 1);
    out(&b, 6 << 16);
    out(&b, 0);
    out(&b, 0);
    out(&b, 0);
    out(&b, 0);
    out(&b, CMD3D(0, 0x4d));                /* PS_BLEND */
    out(&b, 1 << 30);
    out(&b, CMD3D(0, 0x4f));                /* PS_EXTRA */
    out(&b, 1u << 31 | 1 << 8);
    out(&b, CMD3D(0, 0x2a));
    out(&b, bt);
    out(&b, CMD3D(0, 0x2f));
    out(&b, sampler);
    out(&b, CMD3D(0, 0x0f));
    out(&b, scissor);
    outn(&b, CMD3D(0, 0x4e) | LEN(4), 3);   /* WM_DEPTH_STENCIL */
    outn(&b, CMD3D(0, 0x05) | LEN(8), 7);   /* DEPTH_BUFFER */
    outn(&b, CMD3D(0, 0x07) | LEN(5), 4);   /* HIER_DEPTH_BUFFER */
    outn(&b, CMD3D(0, 0x06) | LEN(5), 4);   /* STENCIL_BUFFER */
    out(&b, CMD3D(0, 0x04) | LEN(3));       /* CLEAR_PARAMS */
    out(&b, 0);
    out(&b, 1);
    out(&b, CMD3D(1, 0x00) | LEN(4));       /* DRAWING_RECTANGLE */
    out(&b, 0);
    out(&b, (dst->height - 1) << 16 | (dst->width - 1));
    out(&b, 0);
    out(&b, CMD3D(0, 0x08) | LEN(5));       /* VERTEX_BUFFERS */
    out(&b, 0 << 26 | 1 << 14 | 12);
    out(&b, base + vb);
    out(&b, (base + vb) >> 32);
    out(&b, 3 * 12);
    out(&b, CMD3D(0, 0x09) | LEN(7));       /* VERTEX_ELEMENTS */
    out(&b, 1 << 25 | 0x000 << 16);
    out(&b, 2u << 28 | 2 << 24 | 2 << 20 | 2 << 16);
    out(&b, 1 << 25 | 0x0f6 << 16);
    out(&b, 1u << 28 | 1 << 24 | 2 << 20 | 3 << 16);
    out(&b, 1 << 25 | 0x085 << 16 | 4);
    out(&b, 1u << 28 | 1 << 24 | 2 << 20 | 3 << 16);
    out(&b, CMD3D(0, 0x4b));                /* VF_TOPOLOGY */
    out(&b, 0x0f);
    outn(&b, CMD3D(0, 0x0c), 1);            /* VF */
    outn(&b, CMD3D(0, 0x49) | LEN(3), 2);   /* VF_INSTANCING */
    out(&b, GFX_OP_3DPRIMITIVE | LEN(7));
    out(&b, 0);
    out(&b, 3);
    out(&b, 0);
    out(&b, instances);
    out(&b, 0);
    out(&b, 0);
    out(&b, MI_BATCH_BUFFER_END);
    g_assert_cmpuint(b.pos, <=, RC_SPLIT);
}

static void render_copy(Fixture *f, const RcBuf *src, uint32_t sx,
                        uint32_t sy, uint32_t w, uint32_t h,
                        const RcBuf *dst, uint32_t dx, uint32_t dy)
{
    render_copy_n(f, src, sx, sy, w, h, dst, dx, dy, 1, NULL);
}

static uint32_t src_pixel(uint32_t x, uint32_t y)
{
    return (x * 0x9E3779B1u) ^ (y * 0x85EBCA77u) ^ 0x01020304u;
}

#define DST_FILL    0x5a5a5a5au

static void fill(Fixture *f, const RcBuf *s, bool src)
{
    for (uint32_t y = 0; y < s->height; y++) {
        for (uint32_t x = 0; x < s->width; x++) {
            ram_w32(f, pixel_addr(s, x, y), src ? src_pixel(x, y) :
                    DST_FILL);
        }
    }
}

static void run_copy(Fixture *f)
{
    Ring r;

    ring_init(f, &r, RCS, RING_RCS);
    bb_start(&r.b, RC_BATCH, 0);
    ring_submit(&r);
    for (unsigned i = 0; i < 200 && (i == 0 || !engine_idle(f, RCS)); i++) {
        step(f);
    }
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/* Every pixel of @dst: the copied rectangle or the fill. */
static void check_copy(Fixture *f, const RcBuf *dst, uint32_t sx,
                       uint32_t sy, uint32_t w, uint32_t h, uint32_t dx,
                       uint32_t dy)
{
    for (uint32_t y = 0; y < dst->height; y++) {
        for (uint32_t x = 0; x < dst->width; x++) {
            bool in = x >= dx && x < dx + w && y >= dy && y < dy + h;
            uint32_t want = in ? src_pixel(x - dx + sx, y - dy + sy) :
                            DST_FILL;
            uint32_t got = ram_r32(f, pixel_addr(dst, x, y));

            if (got != want) {
                g_error("pixel (%u, %u): 0x%08x, want 0x%08x", x, y, got,
                        want);
            }
        }
    }
}

#define WRITTEN(e)  ((e)->stats.px[INTEL_PX_SAMPLES_WRITTEN])

typedef struct CopyCase {
    RefTiling src, dst;
    uint32_t sx, sy, w, h, dx, dy;
} CopyCase;

static void copy_case(Fixture *f, const CopyCase *c)
{
    RcBuf src = { SRC_SURF, 256, 128, 1024, c->src };
    RcBuf dst = { DST_SURF, 256, 128, 1024, c->dst };
    IntelEngine *e = eng(f, RCS);
    uint64_t px0 = WRITTEN(e), th0 = e->stats.px[INTEL_PX_PS_THREADS];

    fill(f, &src, true);
    fill(f, &dst, false);
    render_copy(f, &src, c->sx, c->sy, c->w, c->h, &dst, c->dx, c->dy);
    run_copy(f);
    check_copy(f, &dst, c->sx, c->sy, c->w, c->h, c->dx, c->dy);
    g_assert_cmpuint(WRITTEN(e) - px0, ==, c->w * c->h);
    g_assert_cmpuint(e->stats.px[INTEL_PX_PS_THREADS] - th0, >=,
                     c->w * c->h / 16);
    g_assert_false(e->gfx.render.draw_active);
}

/* The whole surface, then a rectangle at odd offsets and sizes. */
static void test_copy(Fixture *f, RefTiling st, RefTiling dt)
{
    const CopyCase whole = { st, dt, 0, 0, 256, 128, 0, 0 };
    const CopyCase part = { st, dt, 5, 3, 61, 37, 17, 9 };

    copy_case(f, &whole);
    copy_case(f, &part);
}

static void test_linear(Fixture *f, gconstpointer data)
{
    test_copy(f, REF_LINEAR, REF_LINEAR);
}

static void test_tiled_x(Fixture *f, gconstpointer data)
{
    test_copy(f, REF_X, REF_X);
    test_copy(f, REF_LINEAR, REF_X);
}

static void test_tiled_y(Fixture *f, gconstpointer data)
{
    test_copy(f, REF_Y, REF_Y);
    test_copy(f, REF_X, REF_Y);
}

/*
 * A copy larger than one step's EU instruction budget continues at the
 * next step (CS_CONTINUE): part of it is done after the first slice.
 */
static void test_continue(Fixture *f, gconstpointer data)
{
    RcBuf src = { SRC_SURF, 512, 256, 2048, REF_LINEAR };
    RcBuf dst = { DST_SURF, 512, 256, 2048, REF_Y };
    IntelEngine *e = eng(f, RCS);
    Ring r;

    fill(f, &src, true);
    fill(f, &dst, false);
    render_copy(f, &src, 0, 0, 512, 256, &dst, 0, 0);
    ring_init(f, &r, RCS, RING_RCS);
    bb_start(&r.b, RC_BATCH, 0);
    ring_submit(&r);
    fake_host_step(f->fh, 0);
    g_assert_true(e->gfx.render.draw_active);
    g_assert_cmpuint(WRITTEN(e), >, 0);
    g_assert_cmpuint(WRITTEN(e), <, 512 * 256);
    for (unsigned i = 0; i < 200 && !engine_idle(f, RCS); i++) {
        step(f);
    }
    g_assert_true(engine_idle(f, RCS));
    check_copy(f, &dst, 0, 0, 512, 256, 0, 0);
    g_assert_cmpuint(WRITTEN(e), ==, 512 * 256);
}

/*
 * The payload beyond the render copy's: a SIMD8-only pixel shader (kernel
 * 0, dispatch GRF start 6) that writes push constant 0 and 1 as red and
 * green, the flat (constant-interpolated) texture coordinate u as blue
 * (its setup's constant r7.3 plus its b1 coefficient r7.0, which is 0
 * when flat), 1.0 as alpha.  Push constants take r6, the attribute's
 * setup data r7-r8.  u at vertex 0 is 32 / 128 = 0.25, blue 64; green
 * 0.5 is 128 (rounded to nearest).
 */
static void test_simd8_push_flat(Fixture *f, gconstpointer data)
{
    const EuNative k[] = {
        asm_1(EU_OP_MOV, 8, D(113, 0, EU_TYPE_F), G(6, 0, EU_TYPE_F, R_0_1_0)),
        asm_1(EU_OP_MOV, 8, D(114, 0, EU_TYPE_F), G(6, 4, EU_TYPE_F, R_0_1_0)),
        asm_op(EU_OP_ADD, 8, D(115, 0, EU_TYPE_F),
               G(7, 12, EU_TYPE_F, R_0_1_0), G(7, 0, EU_TYPE_F, R_0_1_0)),
        asm_1(EU_OP_MOV, 8, D(116, 0, EU_TYPE_F),
              IMM(EU_TYPE_F, asm_f(1.0f))),
        /* Render target write, SIMD8 single source, last RT, mlen 4. */
        asm_send(8, 0, 113, EU_SFID_DP_RENDER, 0x88031400, true),
    };
    uint8_t code[sizeof(k)];
    RcBuf src = { SRC_SURF, 128, 64, 512, REF_LINEAR };
    RcBuf dst = { DST_SURF, 128, 64, 512, REF_Y };
    RcOpts o = {
        .kernel = code, .kernel_len = sizeof(code),
        .ps_dw6 = 62u << 23 | 1 << 0 | 1 << 11,     /* SIMD8, push */
        .consts = DATA, .const_regs = 1, .flat = 1,
    };
    IntelEngine *e = eng(f, RCS);

    asm_emit(code, k, G_N_ELEMENTS(k));
    ram_w32(f, DATA, 0x3f800000);               /* 1.0 */
    ram_w32(f, DATA + 4, 0x3f000000);           /* 0.5 */
    fill(f, &src, true);
    fill(f, &dst, false);
    render_copy_n(f, &src, 0, 0, 32, 16, &dst, 3, 5, 1, &o);
    run_copy(f);
    for (uint32_t y = 0; y < dst.height; y++) {
        for (uint32_t x = 0; x < dst.width; x++) {
            bool in = x >= 3 && x < 35 && y >= 5 && y < 21;

            g_assert_cmphex(ram_r32(f, pixel_addr(&dst, x, y)), ==,
                            in ? 0xffff8040u : DST_FILL);
        }
    }
    /* 2x2 subspans: columns 2-35 (17), rows 4-21 (9), 2 a thread. */
    g_assert_cmpuint(e->stats.px[INTEL_PX_PS_THREADS], ==, (17 * 9 + 1) / 2);
}

/*
 * Execlists: a draw is preempted between its steps (as i915 preempts a
 * busy engine for another context) and resumes where it stopped when its
 * context runs again: every pixel is written once.
 */
static void test_preempt(Fixture *f, gconstpointer data)
{
    RcBuf src = { SRC_SURF, 512, 512, 2048, REF_LINEAR };
    RcBuf dst = { DST_SURF, 512, 512, 2048, REF_X };
    IntelEngine *e = eng(f, RCS);
    uint64_t done;
    Ctx a, b;

    two_contexts(f, &a, &b);
    fill(f, &src, true);
    fill(f, &dst, false);
    render_copy(f, &src, 0, 0, 512, 512, &dst, 0, 0);
    bb_start(&a.ring, RC_BATCH, 0);
    sdi(&a.ring, DATA, 1);
    ctx_submit(&a);
    fake_host_step(f->fh, 0);
    g_assert_true(e->gfx.render.draw_active);

    sdi(&b.ring, DATA + 4, 2);
    ctx_submit(&b);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, INTEL_CSB_PREEMPTED);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x41);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 2);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);
    done = WRITTEN(e);
    g_assert_cmpuint(done, >, 0);
    g_assert_cmpuint(done, <, 512 * 512);
    g_assert_true(e->gfx.render.draw_active);

    ctx_submit(&a);
    for (unsigned i = 0; i < 200 && ram_r32(f, DATA) != 1; i++) {
        step(f);
    }
    g_assert_cmphex(ram_r32(f, DATA), ==, 1);
    check_copy(f, &dst, 0, 0, 512, 512, 0, 0);
    g_assert_cmpuint(WRITTEN(e), ==, 512 * 512);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/*
 * The context that preempts the draw programs other state (an empty
 * drawing rectangle, the GPGPU pipeline): the preempted draw resumes
 * with its own, kept for its context across the switch (gfx.c), as the
 * hardware keeps it in the context image.
 */
static void test_preempt_other_state(Fixture *f, gconstpointer data)
{
    RcBuf src = { SRC_SURF, 512, 512, 2048, REF_LINEAR };
    RcBuf dst = { DST_SURF, 512, 512, 2048, REF_Y };
    IntelEngine *e = eng(f, RCS);
    Ctx a, b;

    two_contexts(f, &a, &b);
    fill(f, &src, true);
    fill(f, &dst, false);
    render_copy(f, &src, 0, 0, 512, 512, &dst, 0, 0);
    bb_start(&a.ring, RC_BATCH, 0);
    sdi(&a.ring, DATA, 1);
    ctx_submit(&a);
    fake_host_step(f->fh, 0);
    g_assert_true(e->gfx.render.draw_active);

    EMIT(&b.ring, GFX_OP_3DSTATE_DRAWING_RECTANGLE | (4 - 2), 0, 0, 0,
         PIPELINE_SELECT | PIPELINE_SELECT_MASK_BITS | PIPELINE_SELECT_GPGPU);
    sdi(&b.ring, DATA + 4, 2);
    ctx_submit(&b);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 2);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_GPGPU);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);

    ctx_submit(&a);
    for (unsigned i = 0; i < 200 && ram_r32(f, DATA) != 1; i++) {
        step(f);
    }
    g_assert_cmphex(ram_r32(f, DATA), ==, 1);
    check_copy(f, &dst, 0, 0, 512, 512, 0, 0);
    g_assert_cmpuint(WRITTEN(e), ==, 512 * 512);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_3D);
}

/*
 * A hostile draw: 2^32 - 1 instances of a rectangle outside the drawing
 * rectangle.  No thread runs, yet each step ends (the rectangles' setup
 * counts against the budget) with the draw in progress; i915's render
 * reset (GDRST) clears it and the engine idles.
 */
static void test_hostile_empty(Fixture *f, gconstpointer data)
{
    RcBuf src = { SRC_SURF, 256, 128, 1024, REF_LINEAR };
    RcBuf dst = { DST_SURF, 256, 128, 1024, REF_LINEAR };
    IntelEngine *e = eng(f, RCS);
    uint64_t prims;
    Ring r;

    render_copy_n(f, &src, 0, 0, 16, 16, &dst, 300, 200, ~0u, NULL);
    ring_init(f, &r, RCS, RING_RCS);
    bb_start(&r.b, RC_BATCH, 0);
    ring_submit(&r);
    step(f);
    prims = e->gfx.render.draw_prim;
    g_assert_true(e->gfx.render.draw_active);
    g_assert_cmpuint(prims, >, 0);
    step(f);
    g_assert_cmpuint(e->gfx.render.draw_prim, >, prims);
    g_assert_false(engine_idle(f, RCS));
    g_assert_cmpuint(e->stats.px[INTEL_PX_PS_THREADS], ==, 0);
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    g_assert_false(e->gfx.render.draw_active);
    g_assert_true(engine_idle(f, RCS));
}

/*
 * The OA A counters follow the copy (IGT's perf
 * gen8-unprivileged-single-ctx-counters: A26 moves by width x height):
 * A26 samples written and A21 pixels rasterized, 61 x 37; A6 the PS
 * threads, 2x2 subspans in SIMD16 threads: rows 9-45 are 19 subspan
 * rows, columns 17-77 31 subspan columns, 589 subspans, 148 threads.
 */
static void test_oa_counters(Fixture *f, gconstpointer data)
{
    RcBuf src = { SRC_SURF, 256, 128, 1024, REF_LINEAR };
    RcBuf dst = { DST_SURF, 256, 128, 1024, REF_X };

    fill(f, &src, true);
    fill(f, &dst, false);
    render_copy(f, &src, 5, 3, 61, 37, &dst, 17, 9);
    oa_open(f, 16);
    run_copy(f);
    g_assert_cmpint(intel_oa_snapshot(eng(f, RCS), false, SNAP, 0), ==, 0);
    g_assert_cmpuint(a_counter(f, SNAP, 26), ==, 61 * 37);
    g_assert_cmpuint(a_counter(f, SNAP, 21), ==, 61 * 37);
    g_assert_cmpuint(a_counter(f, SNAP, 6), ==, 148);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_FREE(1)), ==, 148);
    g_assert_cmpuint(a_counter(f, SNAP, 1), ==, 0);     /* no VS */
}

static const FixtureTest tests[] = {
    { "/intel-render/copy/linear", test_linear },
    { "/intel-render/copy/tiled-x", test_tiled_x },
    { "/intel-render/copy/tiled-y", test_tiled_y },
    { "/intel-render/copy/continue", test_continue },
    { "/intel-render/copy/preempt", test_preempt },
    { "/intel-render/copy/preempt-other-state", test_preempt_other_state },
    { "/intel-render/payload/simd8-push-flat", test_simd8_push_flat },
    { "/intel-render/oa-counters", test_oa_counters },
    { "/intel-render/hostile/empty-rects", test_hostile_empty },
};

FIXTURE_MAIN(fixture_setup_ggtt)
