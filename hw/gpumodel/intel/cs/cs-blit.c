/*
 * intel-gpu command streamer: the blitter commands (PRM Vol 2a: Command
 * Reference: Instructions, "XY_COLOR_BLT", "XY_SRC_COPY_BLT",
 * "XY_FAST_COPY_BLT"); the tiled address arithmetic is in tiling.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cs-int.h"
#include "../mem/tiling.h"

#define CS_MAX_BLIT_BYTES   (64u << 20)    /* a 4K framebuffer is 33 MB */

/*
 * Blits (PRM "Blitter Engine Command Formats"; Gen11 as i915 and IGT
 * program it).  A surface is tiled as the command says; for the legacy
 * XY commands "tiled" means X unless BCS_SWCTRL selects Y for the source
 * or destination (software sets it around the blit with
 * MI_LOAD_REGISTER_IMM).  Tiled pitches are in dwords.
 */
typedef struct BlitSurface {
    uint64_t addr;
    int64_t pitch;          /* bytes */
    unsigned x, y;          /* pixels */
    IntelTiling tiling;
} BlitSurface;

/* A surface from its address dwords, pitch field and x1,y1 dword. */
static BlitSurface blit_surface(const uint32_t *addr, uint32_t pitch,
                                uint32_t xy, IntelTiling tiling)
{
    int64_t p = (int16_t)(pitch & BLT_PITCH_MASK);

    return (BlitSurface) {
        .addr = cs_addr48(addr[0], addr[1]),
        .pitch = tiling == INTEL_TILING_NONE ? p : 4 * p,
        .x = xy & 0xffff, .y = xy >> 16, .tiling = tiling,
    };
}

/* The legacy XY commands' tiling of a surface the command marks tiled. */
static IntelTiling blit_legacy_tiling(IntelEngine *e, bool tiled,
                                      uint32_t swctrl_y)
{
    if (!tiled) {
        return INTEL_TILING_NONE;
    }
    return intel_reg_get(e->gpu, INTEL_BCS_SWCTRL) & swctrl_y ?
           INTEL_TILING_Y : INTEL_TILING_X;
}

static bool blit_surface_ok(IntelEngine *e, const CsCmd *c,
                            const BlitSurface *s, unsigned cpp,
                            const char *which)
{
    uint32_t width = intel_tile_width(s->tiling, cpp);

    if (s->tiling != INTEL_TILING_NONE &&
        (!width || s->pitch <= 0 || s->pitch % width)) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: %s %s pitch %" G_GINT64_FORMAT " bytes "
                     "is not a multiple of its %u-byte tiles (%u bytes "
                     "per pixel), skipped", e->id, c->name, which,
                     s->pitch, width, cpp);
        return false;
    }
    return true;
}

static bool blit_check(IntelEngine *e, const CsCmd *c, const BlitSurface *dst,
                       const BlitSurface *src, uint64_t w, uint64_t h,
                       unsigned cpp)
{
    if (!blit_surface_ok(e, c, dst, cpp, "destination") ||
        (src && !blit_surface_ok(e, c, src, cpp, "source"))) {
        return false;
    }
    if (w * h * cpp > CS_MAX_BLIT_BYTES) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: %s of %" G_GUINT64_FORMAT " bytes exceeds "
                     "the model's limit, skipped", e->id, c->name,
                     w * h * cpp);
        return false;
    }
    return true;
}

/* Where byte @x (from the rectangle's left edge) of row @y of @s lives. */
static uint64_t blit_addr(const BlitSurface *s, unsigned cpp, uint64_t x,
                          unsigned y)
{
    return s->addr + intel_tile_offset(s->tiling, cpp, s->pitch,
                                       (uint64_t)s->x * cpp + x,
                                       (uint64_t)s->y + y);
}

/*
 * Read or write @n bytes of row @y of @s from byte @x on (from the
 * rectangle's left edge), in runs contiguous in memory: one access for a
 * linear row, one per OWord column of a Y tile.
 */
static int blit_row_rw(IntelEngine *e, bool ppgtt, const BlitSurface *s,
                       unsigned cpp, uint64_t x, unsigned y, uint8_t *buf,
                       size_t n, bool write)
{
    for (size_t done = 0, k; done < n; done += k) {
        k = MIN(n - done, intel_tile_span(s->tiling, cpp,
                                          (uint64_t)s->x * cpp + x + done));
        if (cs_mem(e, ppgtt, blit_addr(s, cpp, x + done, y), buf + done, k,
                   write)) {
            return -1;
        }
    }
    return 0;
}

/* Copy or fill a w x h rectangle of cpp-byte pixels, row by row. */
static int blit_rect(IntelEngine *e, const BlitSurface *dst,
                     const BlitSurface *src, uint32_t fill, unsigned w,
                     unsigned h, unsigned cpp)
{
    bool ppgtt = intel_engine_ppgtt(e);
    uint8_t buf[4096];
    size_t row = (size_t)w * cpp;

    for (unsigned y = 0; y < h; y++) {
        for (size_t done = 0, n; done < row; done += n) {
            n = MIN(sizeof(buf), row - done);
            if (src) {
                if (blit_row_rw(e, ppgtt, src, cpp, done, y, buf, n, false)) {
                    return CS_STOP;
                }
            } else {
                for (size_t i = 0; i < n; i++) {
                    buf[i] = fill >> (8 * ((done + i) % cpp));
                }
            }
            if (blit_row_rw(e, ppgtt, dst, cpp, done, y, buf, n, true)) {
                return CS_STOP;
            }
        }
    }
    e->stats.blit_bytes += (uint64_t)row * h;
    return CS_NEXT;
}

/* XY_* color depth (dw1 bits 25:24) in bytes per pixel. */
static unsigned xy_cpp(uint32_t dw1)
{
    static const uint8_t cpp[4] = { 1, 2, 2, 4 };

    return cpp[(dw1 & (3u << BLT_DEPTH_SHIFT)) >> BLT_DEPTH_SHIFT];
}

/*
 * The destination rectangle, from x1,y1 (dw2) to x2,y2 (dw3) exclusive,
 * of a command at least @min_len dwords long; false: nothing to draw.
 */
static bool xy_rect(const uint32_t *cmd, unsigned len, unsigned min_len,
                    unsigned *w, unsigned *h)
{
    unsigned x1, y1, x2, y2;

    if (len < min_len) {
        return false;
    }
    x1 = cmd[2] & 0xffff;
    y1 = cmd[2] >> 16;
    x2 = cmd[3] & 0xffff;
    y2 = cmd[3] >> 16;
    *w = x2 - x1;
    *h = y2 - y1;
    return x2 > x1 && y2 > y1;
}

/* Only the ROP that copies (the source, or the color) is modelled. */
static bool xy_rop_ok(IntelEngine *e, const CsCmd *c, uint32_t dw1,
                      uint32_t rop)
{
    if ((dw1 & (0xffu << BLT_ROP_SHIFT)) == rop) {
        return true;
    }
    gpu_host_log(&e->gpu->host, GPU_LOG_UNIMP,
                 "engine %u: %s ROP 0x%02x not modelled, skipped", e->id,
                 c->name, BLT_ROP(dw1));
    return false;
}

/* The destination of XY_COLOR_BLT and XY_SRC_COPY_BLT: dw4-5, dw1, dw2. */
static BlitSurface xy_dst_surface(IntelEngine *e, const uint32_t *cmd)
{
    return blit_surface(&cmd[4], cmd[1], cmd[2],
                        blit_legacy_tiling(e,
                                           cmd[0] & XY_SRC_COPY_BLT_DST_TILED,
                                           INTEL_BCS_SWCTRL_DST_Y));
}

int cs_xy_color_blt(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                    unsigned len)
{
    unsigned cpp = xy_cpp(cmd[1]), w, h;
    BlitSurface dst;

    if (!xy_rect(cmd, len, 7, &w, &h) ||
        !xy_rop_ok(e, c, cmd[1], BLT_ROP_COLOR_COPY)) {
        return CS_NEXT;
    }
    dst = xy_dst_surface(e, cmd);
    if (!blit_check(e, c, &dst, NULL, w, h, cpp)) {
        return CS_NEXT;
    }
    return blit_rect(e, &dst, NULL, cmd[6], w, h, cpp);
}

int cs_xy_src_copy_blt(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                       unsigned len)
{
    unsigned cpp = xy_cpp(cmd[1]), w, h;
    BlitSurface dst, src;

    if (!xy_rect(cmd, len, 10, &w, &h) ||
        !xy_rop_ok(e, c, cmd[1], BLT_ROP_SRC_COPY)) {
        return CS_NEXT;
    }
    dst = xy_dst_surface(e, cmd);
    src = blit_surface(&cmd[8], cmd[7], cmd[6],
                       blit_legacy_tiling(e,
                                          cmd[0] & XY_SRC_COPY_BLT_SRC_TILED,
                                          INTEL_BCS_SWCTRL_SRC_Y));
    if (!blit_check(e, c, &dst, &src, w, h, cpp)) {
        return CS_NEXT;
    }
    return blit_rect(e, &dst, &src, 0, w, h, cpp);
}

/* XY_FAST_COPY_BLT's tiling field (2 bits), Y made Yf by a dw1 bit. */
static IntelTiling fast_copy_tiling(uint32_t mode, bool yf)
{
    static const IntelTiling tiling[4] = {
        [XY_FAST_COPY_LINEAR] = INTEL_TILING_NONE,
        [XY_FAST_COPY_TILE_X] = INTEL_TILING_X,
        [XY_FAST_COPY_TILE_Y] = INTEL_TILING_Y,
        [XY_FAST_COPY_TILE_YS] = INTEL_TILING_YS,
    };

    mode &= 3;
    return mode == XY_FAST_COPY_TILE_Y && yf ? INTEL_TILING_YF
                                             : tiling[mode];
}

int cs_xy_fast_copy_blt(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                        unsigned len)
{
    /* Bytes per pixel of the color depth field; 0: reserved. */
    static const uint8_t cpp_of[8] = { 1, 2, 0, 4, 8, 16, 0, 0 };
    unsigned cpp = cpp_of[(cmd[1] >> XY_FAST_COPY_COLOR_DEPTH_SHIFT) & 7];
    unsigned w, h;
    BlitSurface dst, src;

    if (!xy_rect(cmd, len, 10, &w, &h)) {
        return CS_NEXT;
    }
    if (!cpp) {
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION,
                           "XY_FAST_COPY_BLT reserved color depth");
        return CS_STOP;
    }
    dst = blit_surface(&cmd[4], cmd[1], cmd[2],
                       fast_copy_tiling(cmd[0] >>
                                        XY_FAST_COPY_BLT_D0_DST_TILING_SHIFT,
                                        cmd[1] & XY_FAST_COPY_BLT_D1_DST_YF));
    src = blit_surface(&cmd[8], cmd[7], cmd[6],
                       fast_copy_tiling(cmd[0] >>
                                        XY_FAST_COPY_BLT_D0_SRC_TILING_SHIFT,
                                        cmd[1] & XY_FAST_COPY_BLT_D1_SRC_YF));
    if (!blit_check(e, c, &dst, &src, w, h, cpp)) {
        return CS_NEXT;
    }
    return blit_rect(e, &dst, &src, 0, w, h, cpp);
}
