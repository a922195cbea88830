/*
 * intel-gpu surface tiling: where a byte of a tiled surface lives.  Used
 * by the blitter (cs-blit.c) and by the aperture's fences (ggtt.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_TILING_H
#define HW_GPUMODEL_INTEL_TILING_H

#include <stdint.h>

typedef enum IntelTiling {
    INTEL_TILING_NONE,
    INTEL_TILING_X,         /* 4 KiB tiles of 512 B x 8 rows */
    INTEL_TILING_Y,         /* legacy TileY: 4 KiB of 128 B x 32 rows */
    INTEL_TILING_YF,        /* 4 KiB TileYf, its shape per pixel size */
    INTEL_TILING_YS,        /* 64 KiB TileYs, its shape per pixel size */
} IntelTiling;

/*
 * The width in bytes of one tile of @t for @cpp-byte pixels (1 for
 * linear): a tiled surface's pitch must be a multiple of it.  0 if @t
 * does not exist for @cpp (Yf and Ys take 1, 2, 4, 8 and 16).
 */
uint32_t intel_tile_width(IntelTiling t, unsigned cpp);

/*
 * Offset from the surface's base of byte @x of row @y, for a surface of
 * @pitch bytes per row in tiling @t with @cpp-byte pixels.  Linear
 * surfaces may have a negative pitch: the offset then wraps as a
 * two's-complement value.  A Yf or Ys @cpp that intel_tile_width()
 * refuses addresses as linear.
 */
uint64_t intel_tile_offset(IntelTiling t, unsigned cpp, int64_t pitch,
                           uint64_t x, uint64_t y);

/*
 * How many bytes of a row, from byte @x on, are contiguous in memory (at
 * least 1; UINT32_MAX for linear).
 */
uint32_t intel_tile_span(IntelTiling t, unsigned cpp, uint64_t x);

#endif
