/*
 * intel-gpu surface tiling (PRM Vol 5 "Memory Views": tiling, TileYf and
 * TileYs).
 *
 * A tile is 4 KiB (64 KiB for Ys) of memory holding a rectangle of the
 * surface; tiles are laid out in row-major order, a row of tiles being
 * pitch x tile height bytes.  Inside a tile each bit of the byte offset
 * comes from one bit of the byte's x (in bytes) or y, in an order the
 * layout fixes: a layout is two masks saying which offset bits take the
 * next bit of x and of y.  Gen11 has no bit-6 swizzling (i915 reports
 * I915_BIT_6_SWIZZLE_NONE), so this is the whole address function.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdbool.h>
#include <stddef.h>
#include "tiling.h"

typedef struct TileLayout {
    uint16_t x, y;          /* offset bits taking x's and y's bits */
    uint8_t wbits, hbits;   /* their counts: log2 of the tile's shape */
} TileLayout;

/*
 * Offset bits 11..0 (15..0 for Ys), most significant first:
 * X           y y y x x x x x x x x x          512 B x 8
 * Y           x x x y y y y y x x x x          128 B x 32, OWord columns
 * Yf 8 bpp    x y x y y y y y x x x x          64 B x 64
 * Yf 16/32    x y x y x y y y x x x x          128 B x 32
 * Yf 64/128   x y x y x x y y x x x x          256 B x 16
 * Ys          x y x y, then the Yf bits: four times as wide and high
 */
static const TileLayout legacy_layouts[] = {
    [INTEL_TILING_X] = { 0x01ff, 0x0e00, 9, 3 },
    [INTEL_TILING_Y] = { 0x0e0f, 0x01f0, 7, 5 },
};

/* By log2(cpp). */
static const TileLayout yf_layouts[5] = {
    { 0x0a0f, 0x05f0, 6, 6 },
    { 0x0a8f, 0x0570, 7, 5 },
    { 0x0a8f, 0x0570, 7, 5 },
    { 0x0acf, 0x0530, 8, 4 },
    { 0x0acf, 0x0530, 8, 4 },
};

static const TileLayout ys_layouts[5] = {
    { 0xaa0f, 0x55f0, 8, 8 },
    { 0xaa8f, 0x5570, 9, 7 },
    { 0xaa8f, 0x5570, 9, 7 },
    { 0xaacf, 0x5530, 10, 6 },
    { 0xaacf, 0x5530, 10, 6 },
};

/* NULL for linear and for a Yf or Ys pixel size that does not exist. */
static const TileLayout *tile_layout(IntelTiling t, unsigned cpp)
{
    bool pow2 = cpp && cpp <= 16 && !(cpp & (cpp - 1));

    switch (t) {
    case INTEL_TILING_X:
    case INTEL_TILING_Y:
        return &legacy_layouts[t];
    case INTEL_TILING_YF:
        return pow2 ? &yf_layouts[__builtin_ctz(cpp)] : NULL;
    case INTEL_TILING_YS:
        return pow2 ? &ys_layouts[__builtin_ctz(cpp)] : NULL;
    default:
        return NULL;
    }
}

/*
 * Spread the low bits of @v over the set bits of @mask (16 bits at most),
 * lowest first, a run of adjacent bits at a time.
 */
static uint32_t tile_deposit(uint32_t v, uint32_t mask)
{
    uint32_t r = 0;

    while (mask) {
        unsigned lo = __builtin_ctz(mask);
        unsigned len = __builtin_ctz(~(mask >> lo));
        uint32_t bits = (1u << len) - 1;

        r |= (v & bits) << lo;
        v >>= len;
        mask &= ~(bits << lo);
    }
    return r;
}

uint32_t intel_tile_width(IntelTiling t, unsigned cpp)
{
    const TileLayout *l = tile_layout(t, cpp);

    if (t == INTEL_TILING_NONE) {
        return 1;
    }
    return l ? 1u << l->wbits : 0;
}

uint64_t intel_tile_offset(IntelTiling t, unsigned cpp, int64_t pitch,
                           uint64_t x, uint64_t y)
{
    const TileLayout *l = tile_layout(t, cpp);
    unsigned wbits, hbits;

    if (!l) {
        return y * (uint64_t)pitch + x;
    }
    wbits = l->wbits;
    hbits = l->hbits;
    return (y >> hbits) * ((uint64_t)pitch << hbits) +
           (x >> wbits) * ((uint64_t)1 << (wbits + hbits)) +
           tile_deposit(x & ((1u << wbits) - 1), l->x) +
           tile_deposit(y & ((1u << hbits) - 1), l->y);
}

uint32_t intel_tile_span(IntelTiling t, unsigned cpp, uint64_t x)
{
    const TileLayout *l = tile_layout(t, cpp);
    uint32_t run;

    if (!l) {
        return UINT32_MAX;
    }
    /* The offset's low bits that x fills in order: x's contiguous run. */
    run = 1u << __builtin_ctz(~(uint32_t)l->x);
    return run - (x & (run - 1));
}
