/*
 * Unit tests of the intel-gpu blitter: XY_SRC_COPY_BLT, XY_COLOR_BLT and
 * XY_FAST_COPY_BLT on linear and tiled (X, Y, Yf, Ys) surfaces.
 *
 * Expected values come from the PRM (DG2 vol. 8 "Command Stream
 * Programming", and the Gen11 command layouts) and from what i915 does
 * and expects (drivers/gpu/drm/i915/gt/intel_lrc.c, intel_engine_cs.c),
 * computed by hand.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"
#include "tiling-ref.h"

/* ---- tiled blits ---- */

/* The blitter commands as the tests send them: RGBA, full length. */
#define XY_SRC_COPY     (XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA | INSTR_LEN(10))
#define XY_COLOR        (XY_COLOR_BLT_CMD | BLT_WRITE_RGBA | INSTR_LEN(7))
#define XY_FAST_COPY    (XY_FAST_COPY_BLT_CMD | INSTR_LEN(10))

#define BCS_SWCTRL              0x22200u        /* masked */
#define   SWCTRL_SRC_Y          (1u << 0)
#define   SWCTRL_DST_Y          (1u << 1)

/* Surfaces: linear sources and targets, tiled targets. */
#define LIN_A           0x200000u
#define LIN_B           0x240000u
#define TIL_A           0x300000u
#define TIL_B           0x340000u
#define TIL_C           0x380000u
#define TIL_D           0x400000u       /* 128 KiB: a row of Ys tiles */
#define TIL_SIZE        0x40000u

typedef struct Surf {
    uint64_t addr;
    uint32_t pitch;             /* bytes */
    RefTiling t;
} Surf;

/* A byte pattern of (byte x, row) with few repeats. */
static uint8_t pat(uint32_t xb, uint32_t y)
{
    return (xb * 0x9E3779B1u + y * 0x85EBCA77u) >> 24;
}

/* The pattern's first @wb bytes of @h rows in the linear surface @s. */
static void fill_pattern(Fixture *f, const Surf *s, uint32_t wb, uint32_t h)
{
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < wb; x++) {
            f->fh->ram[s->addr + (uint64_t)y * s->pitch + x] = pat(x, y);
        }
    }
}

/*
 * In @exp, an image of @s: the pattern's bytes from (@sx, @sy), @wb x @h,
 * placed at byte @dx of row @dy.
 */
static void expect_copy(uint8_t *exp, uint32_t size, const Surf *s,
                        unsigned cpp, uint32_t dx, uint32_t dy, uint32_t sx,
                        uint32_t sy, uint32_t wb, uint32_t h)
{
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < wb; x++) {
            uint64_t o = ref_offset(s->t, cpp, s->pitch, dx + x, dy + y);

            g_assert_cmpuint(o, <, size);
            exp[o] = pat(sx + x, sy + y);
        }
    }
}

/* Guest memory at @addr is @exp; names the first byte that is not. */
static void assert_image(Fixture *f, uint64_t addr, const uint8_t *exp,
                         uint32_t size)
{
    for (uint32_t i = 0; i < size; i++) {
        if (f->fh->ram[addr + i] != exp[i]) {
            g_test_message("first difference at byte 0x%x of 0x%"
                           G_GINT64_MODIFIER "x", i, addr);
            g_assert_cmphex(f->fh->ram[addr + i], ==, exp[i]);
        }
    }
}

/* @s (@size bytes) holds the pattern copied as expect_copy() says. */
static void assert_copy(Fixture *f, const Surf *s, uint32_t size,
                        unsigned cpp, uint32_t dx, uint32_t dy, uint32_t sx,
                        uint32_t sy, uint32_t wb, uint32_t h)
{
    uint8_t *exp = g_malloc0(size);

    expect_copy(exp, size, s, cpp, dx, dy, sx, sy, wb, h);
    assert_image(f, s->addr, exp, size);
    g_free(exp);
}

/* The pitch field: dwords for tiled surfaces, bytes for linear ones. */
static uint32_t pitch_field(const Surf *s)
{
    return s->t == REF_LINEAR ? s->pitch : s->pitch / 4;
}

/* XY_SRC_COPY_BLT of 32-bit pixels; TileY comes from BCS_SWCTRL. */
static void emit_src_copy(Buf *b, const Surf *d, unsigned dx, unsigned dy,
                          const Surf *s, unsigned sx, unsigned sy,
                          unsigned w, unsigned h)
{
    EMIT(b, XY_SRC_COPY | (d->t ? XY_SRC_COPY_BLT_DST_TILED : 0) |
         (s->t ? XY_SRC_COPY_BLT_SRC_TILED : 0),
         BLT_DEPTH_32 | BLT_ROP_SRC_COPY | pitch_field(d), dy << 16 | dx,
         (dy + h) << 16 | (dx + w), d->addr, 0, sy << 16 | sx,
         pitch_field(s), s->addr, 0);
}

/* XY_FAST_COPY_BLT of @cpp-byte pixels. */
static void emit_fast_copy(Buf *b, unsigned cpp, const Surf *d, unsigned dx,
                           unsigned dy, const Surf *s, unsigned sx,
                           unsigned sy, unsigned w, unsigned h)
{
    static const uint32_t mode[] = {
        [REF_LINEAR] = XY_FAST_COPY_LINEAR, [REF_X] = XY_FAST_COPY_TILE_X,
        [REF_Y] = XY_FAST_COPY_TILE_Y, [REF_YF] = XY_FAST_COPY_TILE_Y,
        [REF_YS] = XY_FAST_COPY_TILE_YS,
    };
    static const uint32_t depth[17] = {
        [1] = XY_FAST_COPY_COLOR_DEPTH_8, [2] = XY_FAST_COPY_COLOR_DEPTH_16,
        [4] = XY_FAST_COPY_COLOR_DEPTH_32, [8] = XY_FAST_COPY_COLOR_DEPTH_64,
        [16] = XY_FAST_COPY_COLOR_DEPTH_128,
    };

    EMIT(b, XY_FAST_COPY | XY_FAST_COPY_BLT_D0_SRC_TILE_MODE(mode[s->t]) |
         XY_FAST_COPY_BLT_D0_DST_TILE_MODE(mode[d->t]),
         (s->t == REF_YF ? XY_FAST_COPY_BLT_D1_SRC_YF : 0) |
         (d->t == REF_YF ? XY_FAST_COPY_BLT_D1_DST_YF : 0) | depth[cpp] |
         pitch_field(d), dy << 16 | dx, (dy + h) << 16 | (dx + w),
         d->addr, 0, sy << 16 | sx, pitch_field(s), s->addr, 0);
}

/* Run the ring until the engine idles (large blits take a few slices). */
static void ring_run_idle(Ring *r)
{
    ring_submit(r);
    for (unsigned i = 0; i < 100 && (i == 0 || !engine_idle(r->b.f, r->id));
         i++) {
        step(r->b.f);
    }
    g_assert_true(engine_idle(r->b.f, r->id));
    g_assert_cmphex(erd(r->b.f, r->id, INTEL_RING_ESR), ==, 0);
}

static void zero_surfaces(Fixture *f)
{
    memset(f->fh->ram + LIN_B, 0, TIL_SIZE);
    memset(f->fh->ram + TIL_A, 0, TIL_D + 2 * TIL_SIZE - TIL_A);
}

/*
 * XY_SRC_COPY_BLT with X-tiled surfaces (BR00 bits 11 and 15): linear to
 * tiled, then a rectangle out of the tiled surface that straddles tile
 * columns and rows.
 */
static void test_blit_tiled_x(Fixture *f, gconstpointer data)
{
    Surf lin = { LIN_A, 1024, REF_LINEAR }, tx = { TIL_A, 1024, REF_X };
    Surf out = { LIN_B, 2048, REF_LINEAR };
    uint64_t bytes0;
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    zero_surfaces(f);
    fill_pattern(f, &lin, 1024, 64);
    bytes0 = eng(f, BCS)->stats.blit_bytes;
    emit_src_copy(&rb.b, &tx, 0, 0, &lin, 0, 0, 256, 24);
    ring_run_idle(&rb);
    g_assert_cmpuint(eng(f, BCS)->stats.blit_bytes - bytes0, ==,
                     256 * 24 * 4);
    /*
     * Pixel (130, 9), byte x 520: tile row 1 (8192), tile column 1
     * (4096), row 1 of the tile (512), byte 8.
     */
    g_assert_cmphex(f->fh->ram[TIL_A + 12808], ==, pat(520, 9));
    assert_copy(f, &tx, 1024 * 24, 4, 0, 0, 0, 0, 1024, 24);

    /* Pixels 120-219 of rows 5-13: bytes 480-879, rows across 8. */
    emit_src_copy(&rb.b, &out, 7, 2, &tx, 120, 5, 100, 9);
    ring_run_idle(&rb);
    assert_copy(f, &out, 2048 * 16, 4, 28, 2, 480, 5, 400, 9);
}

/*
 * TileY for the XY blits comes from BCS_SWCTRL, a masked register that
 * software loads with MI_LOAD_REGISTER_IMM: bit 1 for the destination,
 * bit 0 for the source, each only for a surface the command marks tiled.
 */
static void test_blit_tiled_y(Fixture *f, gconstpointer data)
{
    Surf lin = { LIN_A, 1024, REF_LINEAR }, ty = { TIL_B, 1024, REF_Y };
    Surf tx = { TIL_A, 1024, REF_X }, ty2 = { TIL_C, 512, REF_Y };
    Surf out = { LIN_B, 2048, REF_LINEAR };
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    zero_surfaces(f);
    fill_pattern(f, &lin, 1024, 64);
    lri(&rb.b, BCS_SWCTRL, SWCTRL_DST_Y << 16 | SWCTRL_DST_Y);
    emit_src_copy(&rb.b, &ty, 0, 0, &lin, 0, 0, 256, 40);
    ring_run_idle(&rb);
    g_assert_cmphex(rd(f, BCS_SWCTRL), ==, SWCTRL_DST_Y);
    /*
     * Pixel (50, 5), byte x 200: tile 1 (4096), OWord column 4 of it
     * (2048), row 5 (80), byte 8.
     */
    g_assert_cmphex(f->fh->ram[TIL_B + 6232], ==, pat(200, 5));
    assert_copy(f, &ty, 1024 * 64, 4, 0, 0, 0, 0, 1024, 40);

    /* Y source into a linear destination; rows across 32. */
    lri(&rb.b, BCS_SWCTRL, (SWCTRL_SRC_Y | SWCTRL_DST_Y) << 16 |
        SWCTRL_SRC_Y);
    emit_src_copy(&rb.b, &out, 7, 2, &ty, 30, 25, 100, 12);
    ring_run_idle(&rb);
    g_assert_cmphex(rd(f, BCS_SWCTRL), ==, SWCTRL_SRC_Y);
    assert_copy(f, &out, 2048 * 16, 4, 28, 2, 120, 25, 400, 12);

    /* X source (SRC_Y clear), Y destination: the bits are independent. */
    lri(&rb.b, BCS_SWCTRL, (SWCTRL_SRC_Y | SWCTRL_DST_Y) << 16);
    emit_src_copy(&rb.b, &tx, 0, 0, &lin, 0, 0, 256, 40);
    lri(&rb.b, BCS_SWCTRL, SWCTRL_SRC_Y << 16 | SWCTRL_DST_Y << 16 |
        SWCTRL_DST_Y);
    emit_src_copy(&rb.b, &ty2, 4, 3, &tx, 100, 1, 64, 36);
    lri(&rb.b, BCS_SWCTRL, (SWCTRL_SRC_Y | SWCTRL_DST_Y) << 16);
    ring_run_idle(&rb);
    g_assert_cmphex(rd(f, BCS_SWCTRL), ==, 0);
    assert_copy(f, &ty2, 512 * 64, 4, 16, 3, 400, 1, 256, 36);
}

/* XY_COLOR_BLT into X (16 bpp) and Y (8 bpp) tiled surfaces. */
static void test_blit_tiled_color(Fixture *f, gconstpointer data)
{
    Surf tx = { TIL_A, 1024, REF_X }, ty = { TIL_B, 128, REF_Y };
    Surf lin = { LIN_B, 128, REF_LINEAR };
    uint8_t *exp = g_malloc0(1024 * 16);
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    zero_surfaces(f);
    /* Pixels 250-261 of rows 3-10: bytes 500-523, across a tile edge. */
    EMIT(&rb.b, XY_COLOR | XY_SRC_COPY_BLT_DST_TILED,
         BLT_DEPTH_16_565 | BLT_ROP_COLOR_COPY | 1024 / 4, 3u << 16 | 250,
         11u << 16 | 262, TIL_A, 0, 0xBEEF);
    ring_run_idle(&rb);
    for (uint32_t y = 3; y < 11; y++) {
        for (uint32_t x = 500; x < 524; x++) {
            exp[ref_offset(tx.t, 2, tx.pitch, x, y)] = x & 1 ? 0xBE : 0xEF;
        }
    }
    assert_image(f, tx.addr, exp, 1024 * 16);
    g_free(exp);

    /* 8 bpp, pixels 10-39 of rows 20-39: across OWords and tile rows. */
    exp = g_malloc0(128 * 64);
    lri(&rb.b, BCS_SWCTRL, SWCTRL_DST_Y << 16 | SWCTRL_DST_Y);
    EMIT(&rb.b, XY_COLOR | XY_SRC_COPY_BLT_DST_TILED,
         BLT_DEPTH_8 | BLT_ROP_COLOR_COPY | 128 / 4, 20u << 16 | 10,
         40u << 16 | 40, TIL_B, 0, 0x5A);
    /* BCS_SWCTRL does not make an untiled destination tiled. */
    EMIT(&rb.b, XY_COLOR, BLT_DEPTH_8 | BLT_ROP_COLOR_COPY | 128,
         20u << 16 | 10, 40u << 16 | 40, LIN_B, 0, 0xA5);
    ring_run_idle(&rb);
    for (uint32_t y = 20; y < 40; y++) {
        for (uint32_t x = 10; x < 40; x++) {
            exp[ref_offset(ty.t, 1, ty.pitch, x, y)] = 0x5A;
        }
    }
    assert_image(f, ty.addr, exp, 128 * 64);
    memset(exp, 0, 128 * 64);
    for (uint32_t y = 20; y < 40; y++) {
        memset(exp + ref_offset(lin.t, 1, lin.pitch, 10, y), 0xA5, 30);
    }
    assert_image(f, lin.addr, exp, 128 * 64);
    g_free(exp);
}

/*
 * XY_FAST_COPY_BLT: tiling in BR00 (0 linear, 1 X, 2 Y, 3 Ys; Y is Yf
 * with BR01 bit 30 or 31), 32 bpp through every layout and back, then Yf
 * at each pixel size, whose tile shape follows it.
 */
static void test_blit_fast_copy(Fixture *f, gconstpointer data)
{
    static const struct {
        unsigned cpp, w, h, pitch;
    } yf_cases[] = {
        { 1, 128, 80, 128 }, { 2, 64, 40, 256 }, { 8, 64, 24, 512 },
        { 16, 32, 24, 512 },
    };
    Surf lin = { LIN_A, 1024, REF_LINEAR }, out = { LIN_B, 1024, REF_LINEAR };
    Surf tx = { TIL_A, 1024, REF_X }, ty = { TIL_B, 1024, REF_Y };
    Surf yf = { TIL_C, 1024, REF_YF }, ys = { TIL_D, 1024, REF_YS };
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    zero_surfaces(f);
    fill_pattern(f, &lin, 1024, 64);
    emit_fast_copy(&rb.b, 4, &tx, 0, 0, &lin, 0, 0, 256, 40);
    emit_fast_copy(&rb.b, 4, &ty, 0, 0, &tx, 0, 0, 256, 40);
    emit_fast_copy(&rb.b, 4, &yf, 0, 0, &ty, 0, 0, 256, 40);
    emit_fast_copy(&rb.b, 4, &ys, 0, 0, &yf, 0, 0, 256, 40);
    emit_fast_copy(&rb.b, 4, &out, 0, 0, &ys, 0, 0, 256, 40);
    ring_run_idle(&rb);
    assert_copy(f, &tx, 1024 * 40, 4, 0, 0, 0, 0, 1024, 40);
    assert_copy(f, &ty, 1024 * 64, 4, 0, 0, 0, 0, 1024, 40);
    assert_copy(f, &yf, 1024 * 64, 4, 0, 0, 0, 0, 1024, 40);
    assert_copy(f, &ys, 1024 * 128, 4, 0, 0, 0, 0, 1024, 40);
    assert_copy(f, &out, 1024 * 40, 4, 0, 0, 0, 0, 1024, 40);
    /*
     * Yf, 32 bpp, pixel (37, 9), byte x 148: tile 1 (4096); in it x 20,
     * y 9 = offset bits x3-0 (4), y1-0 (16), x4 (128), y3 (256).
     */
    g_assert_cmphex(f->fh->ram[TIL_C + 4500], ==, pat(148, 9));
    /*
     * Ys, 32 bpp, pixel (200, 70), byte x 800: tile 1 (65536); in it x
     * 288, y 70: the Yf part of (32, 6) is 608, then x8 (32768) and y6
     * (16384).
     */
    g_assert_cmpuint(ref_offset(REF_YS, 4, 1024, 800, 70), ==, 115296);
    emit_fast_copy(&rb.b, 4, &ys, 192, 64, &lin, 192, 0, 16, 8);
    ring_run_idle(&rb);
    g_assert_cmphex(f->fh->ram[TIL_D + 115296], ==, pat(800, 6));

    /* A rectangle inside a Yf surface. */
    memset(f->fh->ram + TIL_C, 0, TIL_SIZE);
    emit_fast_copy(&rb.b, 4, &yf, 4, 3, &lin, 8, 3, 40, 20);
    ring_run_idle(&rb);
    assert_copy(f, &yf, 1024 * 32, 4, 16, 3, 32, 3, 160, 20);

    for (unsigned i = 0; i < G_N_ELEMENTS(yf_cases); i++) {
        unsigned cpp = yf_cases[i].cpp, h = yf_cases[i].h;
        uint32_t wb = yf_cases[i].w * cpp;
        Surf src = { LIN_A, wb, REF_LINEAR };
        Surf dst = { TIL_C, yf_cases[i].pitch, REF_YF };

        g_test_message("Yf, %u bytes per pixel", cpp);
        memset(f->fh->ram + TIL_C, 0, TIL_SIZE);
        fill_pattern(f, &src, wb, h);
        emit_fast_copy(&rb.b, cpp, &dst, 0, 0, &src, 0, 0,
                       yf_cases[i].w, h);
        ring_run_idle(&rb);
        assert_copy(f, &dst, dst.pitch * 128, cpp, 0, 0, 0, 0, wb, h);
    }
    /*
     * By hand: 8 bpp, pixel (70, 40): tile 1 (4096); in it x 6, y 40 =
     * x3-0 (6), y4-0 = 8 (128), y5 (1024).  64 bpp, pixel (40, 19), byte
     * x 320, pitch 512: tile row 1 (8192), tile 1 (4096); in it x 64, y
     * 3 = y1-0 (48), x6 (512).
     */
    g_assert_cmpuint(ref_offset(REF_YF, 1, 128, 70, 40), ==, 5254);
    g_assert_cmpuint(ref_offset(REF_YF, 8, 512, 320, 19), ==, 12848);
}

/*
 * As IGT's intel_bb_emit_blt_copy() runs a Y blit: from a user (PPGTT,
 * non-privileged) batch on BCS under execlists, BCS_SWCTRL loaded around
 * the blit (it is in the blitter's non-privileged register list).
 */
static void test_blit_user_batch_y(Fixture *f, gconstpointer data)
{
    uint64_t pml4 = table_alloc(f);
    Buf bb = buf_at(f, USER_PA);
    Surf lin = { USER_VA + 0x10000, 512, REF_LINEAR };
    Surf ty = { USER_VA + 0x40000, 512, REF_Y };
    Surf ty_pa = { USER_PA + 0x40000, 512, REF_Y };
    Surf lin_pa = { USER_PA + 0x10000, 512, REF_LINEAR };
    Ctx c;

    map_2m(f, pml4, USER_VA, USER_PA);
    execlists_init(f, BCS, HWSP_BCS);
    ctx_init(f, &c, BCS, CTX_A, CRING_A, 0x20, pml4);
    memset(f->fh->ram + ty_pa.addr, 0, 512 * 64);
    fill_pattern(f, &lin_pa, 512, 40);
    lri(&bb, BCS_SWCTRL, (SWCTRL_SRC_Y | SWCTRL_DST_Y) << 16 | SWCTRL_DST_Y);
    emit_src_copy(&bb, &ty, 0, 0, &lin, 0, 0, 128, 40);
    EMIT(&bb, MI_FLUSH_DW | INSTR_LEN(4), 0, 0, 0);
    lri(&bb, BCS_SWCTRL, (SWCTRL_SRC_Y | SWCTRL_DST_Y) << 16);
    EMIT(&bb, MI_BATCH_BUFFER_END);
    bb_start(&c.ring, USER_VA, MI_BATCH_PPGTT);
    ctx_submit(&c);
    step(f);
    step(f);
    g_assert_cmphex(erd(f, BCS, INTEL_RING_ESR), ==, 0);
    g_assert_cmphex(rd(f, BCS_SWCTRL), ==, 0);
    assert_copy(f, &ty_pa, 512 * 64, 4, 0, 0, 0, 0, 512, 40);
}

/*
 * A tiled pitch its tiles do not divide, or a negative one, is a guest
 * error: the blit is skipped, the engine goes on.
 */
static void test_blit_tiled_bad_pitch(Fixture *f, gconstpointer data)
{
    Surf lin = { LIN_A, 1024, REF_LINEAR };
    Surf bad_x = { TIL_A, 640, REF_X }, bad_yf = { TIL_A, 192, REF_YF };
    Surf bad_ys = { TIL_A, 256, REF_YS };
    unsigned errors0 = f->fh->guest_errors;
    uint8_t *zero = g_malloc0(TIL_SIZE);
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    zero_surfaces(f);
    fill_pattern(f, &lin, 1024, 64);
    emit_src_copy(&rb.b, &bad_x, 0, 0, &lin, 0, 0, 16, 4);
    emit_fast_copy(&rb.b, 4, &bad_yf, 0, 0, &lin, 0, 0, 16, 4);
    emit_fast_copy(&rb.b, 4, &bad_ys, 0, 0, &lin, 0, 0, 16, 4);
    /* Source pitch field 0xFF80: -128 dwords. */
    EMIT(&rb.b, XY_SRC_COPY | XY_SRC_COPY_BLT_SRC_TILED,
         BLT_DEPTH_32 | BLT_ROP_SRC_COPY | 1024, 0, 4u << 16 | 16, LIN_B, 0,
         0, 0xFF80, TIL_A, 0);
    sdi(&rb.b, DATA, 0x600D);
    ring_run_idle(&rb);
    g_assert_cmpuint(f->fh->guest_errors - errors0, ==, 4);
    assert_image(f, TIL_A, zero, TIL_SIZE);
    assert_image(f, LIN_B, zero, TIL_SIZE);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0x600D);
    g_free(zero);
}

static const FixtureTest tests[] = {
    { "/intel/cs/blit/tiled-x", test_blit_tiled_x },
    { "/intel/cs/blit/tiled-y", test_blit_tiled_y },
    { "/intel/cs/blit/tiled-color", test_blit_tiled_color },
    { "/intel/cs/blit/fast-copy", test_blit_fast_copy },
    { "/intel/cs/blit/user-batch-y", test_blit_user_batch_y },
    { "/intel/cs/blit/tiled-bad-pitch", test_blit_tiled_bad_pitch },
};

FIXTURE_MAIN(fixture_setup_i915)
