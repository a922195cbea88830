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
#include "intel-render-copy.h"
#include "intel/cs/cs-int.h"

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
 * next step (CS_CONTINUE): part of it is done after the first slice, and
 * the next slice comes after the pause its work earns (cs-int.h): each
 * pixel rasterized, sampled and written, and each EU instruction.
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
    g_assert_cmpuint(e->timer->deadline - f->fh->now_ns, ==,
                     e->stats.eu_clocks[INTEL_EU_PS] *
                     CS_PACE_NS_PER_EU_INSTRUCTION +
                     (e->stats.px[INTEL_PX_RASTERIZED] + WRITTEN(e) +
                      e->stats.px[INTEL_PX_SAMPLER_TEXELS]) *
                     CS_PACE_NS_PER_PIXEL_EVENT);
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
        .kernel = code, .kernel_len = sizeof(code), .simd8 = true,
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
 * context runs again: every pixel is written once.  With @other_state the
 * preempting context programs other state (an empty drawing rectangle,
 * the GPGPU pipeline): the draw resumes with its own, which the switch
 * saved in its context image with the draw's position (ctx-image.h), as
 * the hardware does.
 */
static void preempt_copy(Fixture *f, bool other_state)
{
    RcBuf src = { SRC_SURF, 512, 512, 2048, REF_LINEAR };
    RcBuf dst = { DST_SURF, 512, 512, 2048, other_state ? REF_Y : REF_X };
    IntelEngine *e = eng(f, RCS);
    uint64_t done, image;
    Ctx a, b;

    two_contexts(f, &a, &b);
    image = a.lrca + INTEL_CTX_IMAGE_OFFSET;
    fill(f, &src, true);
    fill(f, &dst, false);
    render_copy(f, &src, 0, 0, 512, 512, &dst, 0, 0);
    bb_start(&a.ring, RC_BATCH, 0);
    sdi(&a.ring, DATA, 1);
    ctx_submit(&a);
    fake_host_step(f->fh, 0);
    g_assert_true(e->gfx.render.draw_active);

    if (other_state) {
        Gen11_PIPELINE_SELECT ps = {
            .mask_bits = 3, .pipeline_selection = PIPELINE_SELECT_GPGPU,
        };
        uint32_t dw[GEN11_3DSTATE_DRAWING_RECTANGLE_LENGTH];

        gen11_3dstate_drawing_rectangle_pack(dw,
            &(Gen11_3DSTATE_DRAWING_RECTANGLE) { 0 });
        emit_n(&b.ring, dw, G_N_ELEMENTS(dw));
        gen11_pipeline_select_pack(dw, &ps);
        emit_n(&b.ring, dw, 1);
    }
    sdi(&b.ring, DATA + 4, 2);
    ctx_submit(&b);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, INTEL_CSB_PREEMPTED);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x41);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 2);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);
    g_assert_cmpuint(e->gfx.pipeline, ==, other_state ?
                     PIPELINE_SELECT_GPGPU : PIPELINE_SELECT_3D);
    done = WRITTEN(e);
    g_assert_cmpuint(done, >, 0);
    g_assert_cmpuint(done, <, 512 * 512);
    /* A's draw and state are in its context image (ctx-image.h). */
    g_assert_cmphex(ram_r32(f, image + offsetof(IntelCtxImage, hdr.magic)),
                    ==, INTEL_CTX_IMAGE_MAGIC);
    g_assert_cmpuint(ram_r32(f, image + offsetof(IntelCtxImage,
                                                 render.draw_active)), ==, 1);
    g_assert_cmpuint(ram_r32(f, image + offsetof(IntelCtxImage,
                                                 render.draw_prim)), ==,
                     e->gfx.render.draw_prim);

    ctx_submit(&a);
    for (unsigned i = 0; i < 200 && ram_r32(f, DATA) != 1; i++) {
        step(f);
    }
    g_assert_cmphex(ram_r32(f, DATA), ==, 1);
    check_copy(f, &dst, 0, 0, 512, 512, 0, 0);
    g_assert_cmpuint(WRITTEN(e), ==, 512 * 512);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_3D);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

static void test_preempt(Fixture *f, gconstpointer data)
{
    preempt_copy(f, false);
}

static void test_preempt_other_state(Fixture *f, gconstpointer data)
{
    preempt_copy(f, true);
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
    g_assert_cmpint(oa_snapshot(eng(f, RCS), false, SNAP, 0), ==, 0);
    g_assert_cmpuint(a_counter(f, SNAP, 26), ==, 61 * 37);
    g_assert_cmpuint(a_counter(f, SNAP, 21), ==, 61 * 37);
    g_assert_cmpuint(a_counter(f, SNAP, 6), ==, 148);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_FREE(1)), ==, 148);
    g_assert_cmpuint(a_counter(f, SNAP, 1), ==, 0);     /* no VS */
}

/*
 * BLORP's fast clear of a CCS target (3DSTATE_PS Render Target Fast Clear
 * Enable): an 8 x 8 rectangle stands for the 512 x 256 pixels of its 64 x
 * 32 blocks, each given the surface state's clear colour whatever the
 * shader writes; a full resolve afterwards changes nothing.
 */
static void test_fast_clear(Fixture *f, gconstpointer data)
{
    RcBuf src = { SRC_SURF, 16, 16, 64, REF_LINEAR };
    RcBuf dst = { DST_SURF, 512, 256, 2048, REF_Y };
    RcOpts o = {
        .fast_clear = true,
        .clear = { 0, 0x3f000000, 0x3f800000, 0x3f800000 }, /* 0 .5 1 1 */
    };

    fill(f, &src, true);
    fill(f, &dst, false);
    render_copy_n(f, &src, 0, 0, 8, 8, &dst, 0, 0, 1, &o);
    run_copy(f);
    o = (RcOpts) { .resolve = true };
    render_copy_n(f, &src, 0, 0, 8, 8, &dst, 0, 0, 1, &o);
    run_copy(f);
    for (uint32_t y = 0; y < dst.height; y++) {
        for (uint32_t x = 0; x < dst.width; x++) {
            /* B8G8R8A8_UNORM: blue 255, green 128, red 0, alpha 255. */
            g_assert_cmphex(ram_r32(f, pixel_addr(&dst, x, y)), ==,
                            0xff0080ff);
        }
    }
    g_assert_cmpuint(WRITTEN(eng(f, RCS)), ==, 0);
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
    { "/intel-render/fast-clear", test_fast_clear },
    { "/intel-render/hostile/empty-rects", test_hostile_empty },
};

FIXTURE_MAIN(fixture_setup_ggtt)
