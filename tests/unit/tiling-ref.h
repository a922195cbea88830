/*
 * A reference for the unit tests of tiled blits and fences: where byte
 * @xb of row @y of a tiled surface lives, written out independently of
 * the model's tiling.c (which works from bit masks): X and Y as IGT's
 * lib/intel_bufops.c and i915's selftest tiled_offset() compute them,
 * Yf and Ys bit by bit from the PRM's layout tables (Yf 32 bpp is IGT's
 * yf_ptr()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_TILING_REF_H
#define TESTS_UNIT_TILING_REF_H

#include <stdint.h>

typedef enum RefTiling {
    REF_LINEAR,
    REF_X,
    REF_Y,
    REF_YF,
    REF_YS,
} RefTiling;

/* Bit @from of @v, moved to bit @to. */
#define REF_BIT(v, from, to)    ((((v) >> (from)) & 1u) << (to))

/* Yf tile: 64 B x 64 (1 byte pixels), 128 x 32 (2, 4), 256 x 16 (8, 16). */
static inline unsigned ref_yf_width(unsigned cpp)
{
    return cpp == 1 ? 64 : cpp <= 4 ? 128 : 256;
}

static inline unsigned ref_yf_height(unsigned cpp)
{
    return 4096 / ref_yf_width(cpp);
}

/* Offset inside a 4 KiB Yf tile; x below the tile width, y its height. */
static inline uint32_t ref_yf_in_tile(unsigned cpp, uint32_t x, uint32_t y)
{
    uint32_t o = x & 0xf;

    if (cpp == 1) {
        return o | (y & 0x1f) << 4 | REF_BIT(x, 4, 9) | REF_BIT(y, 5, 10) |
               REF_BIT(x, 5, 11);
    }
    if (cpp <= 4) {
        return o | (y & 3) << 4 | REF_BIT(y, 2, 6) | REF_BIT(x, 4, 7) |
               REF_BIT(y, 3, 8) | REF_BIT(x, 5, 9) | REF_BIT(y, 4, 10) |
               REF_BIT(x, 6, 11);
    }
    return o | (y & 3) << 4 | REF_BIT(x, 4, 6) | REF_BIT(x, 5, 7) |
           REF_BIT(y, 2, 8) | REF_BIT(x, 6, 9) | REF_BIT(y, 3, 10) |
           REF_BIT(x, 7, 11);
}

static inline uint64_t ref_offset(RefTiling t, unsigned cpp, uint32_t pitch,
                                  uint32_t xb, uint32_t y)
{
    unsigned tw = ref_yf_width(cpp), th = ref_yf_height(cpp);
    unsigned wb = __builtin_ctz(tw), hb = __builtin_ctz(th);
    uint32_t x_in, y_in;

    switch (t) {
    case REF_X:
        return (uint64_t)(y / 8) * pitch * 8 + (xb / 512) * 4096 +
               (y % 8) * 512 + xb % 512;
    case REF_Y:
        return (uint64_t)(y / 32) * pitch * 32 + (xb / 128) * 4096 +
               (xb % 128) / 16 * 512 + (y % 32) * 16 + xb % 16;
    case REF_YF:
        return (uint64_t)(y / th) * pitch * th + (xb / tw) * 4096 +
               ref_yf_in_tile(cpp, xb % tw, y % th);
    case REF_YS:
        /* A Yf tile's bits, then y, x, y, x: 4 x 4 Yf tiles. */
        x_in = xb % (4 * tw);
        y_in = y % (4 * th);
        return (uint64_t)(y / (4 * th)) * pitch * 4 * th +
               (xb / (4 * tw)) * 65536 +
               ref_yf_in_tile(cpp, x_in % tw, y_in % th) +
               REF_BIT(y_in, hb, 12) + REF_BIT(x_in, wb, 13) +
               REF_BIT(y_in, hb + 1, 14) + REF_BIT(x_in, wb + 1, 15);
    default:
        return (uint64_t)y * pitch + xb;
    }
}

#endif
