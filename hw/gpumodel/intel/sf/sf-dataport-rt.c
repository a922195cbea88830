/*
 * intel-gpu data ports: the render cache's render target writes and reads
 * (framebuffer fetch): a pixel shader's pixels, their mask and positions,
 * BLEND_STATE's write enables.  PRM Vol 7: 3D-Media-GPGPU, "Render Target
 * Write"; PRM Vol 2d: "BLEND_STATE".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "sf-dataport-int.h"

/* ---- render target write ---- */

static bool once_blend, once_logic;

/* BLEND_STATE entry @rt's write enables (bit 0 R .. bit 3 A). */
static bool rt_write_mask(const Msg *m, unsigned rt, unsigned *mask)
{
    IntelSfThread *th = m->th;
    Gen11_BLEND_STATE_ENTRY be;

    *mask = 0xf;
    if (!th->blend_state || rt >= 8) {
        return true;
    }
    /* Kept with the thread's other states (IntelSfThread). */
    if (th->blend_rt == rt + 1) {
        *mask = th->blend_mask;
        return true;
    }
    if (!intel_blend_state_entry_load(th, rt, &be)) {
        return false;
    }
    if (be.color_buffer_blend_enable && !once_blend) {
        once_blend = true;
        intel_sf_log(th, GPU_LOG_UNIMP,
                     "colour blending: render targets written unblended");
    }
    if (be.logic_op_enable && !once_logic) {
        once_logic = true;
        intel_sf_log(th, GPU_LOG_UNIMP,
                     "logic ops: render targets written as the source");
    }
    *mask = (be.write_disable_red ? 0 : 1) | (be.write_disable_green ? 0 : 2) |
            (be.write_disable_blue ? 0 : 4) | (be.write_disable_alpha ? 0 : 8);
    th->blend_rt = rt + 1;
    th->blend_mask = *mask;
    return true;
}

/* The pixels of a render target message and its target. */
typedef struct RtPixels {
    unsigned simd;
    unsigned base;              /* the dispatch's pixel of channel 0 */
    uint32_t pmask;             /* lit pixels (header: of its half) */
    uint32_t chans;
    int64_t layer;              /* first row of the target's layer */
    Target tg;
} RtPixels;

static bool rt_setup(const Msg *m, unsigned simd, bool high, RtPixels *rp)
{
    rp->simd = simd;
    rp->chans = m->chans & (simd == 16 ? 0xffff : 0xff);
    /*
     * The dispatch's pixel for channel 0: the send's channel group (the
     * second half of a SIMD32 dispatch), and for SIMD8 messages the slot
     * group select's half of a SIMD16 one.
     */
    rp->base = m->inst->qtr * 8 + m->inst->nib * 4;
    if (simd == 8 && high && rp->base % 16 == 0) {
        rp->base += 8;
    }
    if (m->header) {
        uint32_t m17;

        /* M1.7 bits 15:0: the pixel mask (Mesa: the header's word 15). */
        if (!dataport_payload_ud(m, 1, 7, &m17)) {
            return false;
        }
        rp->pmask = m17 & 0xffff;
    } else {
        rp->pmask = m->th->pixel_mask;
    }
    if (!dataport_bind_from(m, &rp->tg, true)) {
        return false;
    }
    if (rp->tg.flat || (rp->tg.s.type != INTEL_SURFTYPE_2D &&
                        rp->tg.s.type != INTEL_SURFTYPE_1D &&
                        rp->tg.s.type != INTEL_SURFTYPE_3D &&
                        rp->tg.s.type != INTEL_SURFTYPE_NULL)) {
        intel_sf_log(m->th, GPU_LOG_UNIMP,
                     "render target message to surface type %u",
                     rp->tg.s.type);
        return false;
    }
    /* A 2D array target: its Minimum Array Element's layer. */
    rp->layer = intel_surface_layer_row(&rp->tg.s, 0);
    return true;
}

/*
 * The pixel of channel @c: 1 and its row and byte in the target if it is
 * lit and inside, 0 if it is lit and outside, -1 if not lit, -2 if the
 * header is short.
 */
static int rt_pixel(const Msg *m, const RtPixels *rp, unsigned c,
                    uint32_t *xb, uint32_t *row)
{
    /* The header describes one SIMD16 half of the dispatch. */
    unsigned p = rp->base + c, hp = m->header ? p % 16 : p;
    const IntelSurface *s = &rp->tg.s;
    uint32_t x, y;

    if (p >= EU_MAX_CHANNELS || !((rp->chans >> c) & 1) ||
        !((rp->pmask >> hp) & 1)) {
        return -1;
    }
    if (m->header) {
        uint32_t ss;

        /* M1.2-M1.5: subspan origins, X 15:0, Y 31:16. */
        if (!dataport_payload_ud(m, 1, 2 + hp / 4, &ss)) {
            return -2;
        }
        x = (ss & 0xffff) + (hp & 1);
        y = (ss >> 16) + ((hp >> 1) & 1);
    } else {
        x = m->th->pixel_x[p];
        y = m->th->pixel_y[p];
    }
    if (s->type == INTEL_SURFTYPE_NULL || x >= s->width || y >= s->height ||
        rp->layer < 0) {
        return 0;
    }
    *xb = x * s->cpp;
    *row = y + rp->layer;
    return 1;
}

/*
 * Write a whole @texel at byte @xb of row @row of @s: with @combine
 * combined by line in @wr when it can be (intel_surface_write_queue),
 * else after what @wr holds, directly.  False on a page fault.
 */
static bool rt_texel_put(const Msg *m, IntelSfWrites *wr,
                         const IntelSurface *s, uint32_t xb, uint32_t row,
                         const uint8_t *texel, bool combine)
{
    uint64_t addr;

    if (combine && intel_surface_addr(s, xb, row, s->cpp, &addr) &&
        intel_surface_write_queue(m->th, wr, addr, texel, s->cpp) > 0) {
        return true;
    }
    return intel_surface_write_flush(m->th, wr) &&
           intel_surface_rw(m->th, s, xb, row, (void *)texel, s->cpp, true);
}

/*
 * A fast clear (3DSTATE_PS Render Target Fast Clear Enable): each pixel
 * of the clear's rectangle stands for a block of the target, which the
 * hardware marks cleared in the target's CCS for later reads to resolve.
 * The model writes the clear colour through to the block's pixels
 * instead, so that every read (sampler, render target, blitter, CPU)
 * sees it and a resolve has nothing left to do.  The rectangle is
 * scaled down by half the fast clear alignment of a single-sampled CCS
 * target (PRM Vol 7: 3D-Media-GPGPU, "Render Target Fast Clear"; Mesa
 * blorp_clear.c get_fast_clear_rect()): 256 bytes by 32 rows of a 32 or
 * 64 bpp target, 16 by 16 pixels of a 128 bpp one, the only ones with a
 * CCS on Gen11.
 */
static int rt_fast_clear(const Msg *m, const RtPixels *rp)
{
    const IntelSurface *s = &rp->tg.s;
    unsigned bw, bh;
    uint32_t rgba[4];
    uint8_t texel[16] = { 0 };
    IntelSfWrites wr;
    uint64_t texels = 0;

    if (s->type == INTEL_SURFTYPE_NULL) {
        return 0;
    }
    if (s->cpp != 4 && s->cpp != 8 && s->cpp != 16) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "fast clear of a %u-byte format: no CCS", s->cpp);
        return -1;
    }
    bw = 256 / s->cpp;
    bh = s->cpp == 16 ? 16 : 32;
    if (!intel_surface_clear_color(m->th, s, rgba)) {
        return -1;
    }
    intel_format_encode(s->format, rgba, 0xf, texel);
    wr.n = 0;
    wr.mapped_page = 0;
    for (unsigned c = 0; c < rp->simd; c++) {
        uint32_t xb, row, x0, y0, x1, y1;
        int at = rt_pixel(m, rp, c, &xb, &row);

        if (at == -2) {
            goto fail;
        }
        if (at <= 0) {
            continue;
        }
        x0 = xb / s->cpp * bw;
        y0 = (row - rp->layer) * bh;
        x1 = MIN((uint64_t)x0 + bw, s->width);
        y1 = MIN((uint64_t)y0 + bh, s->height);
        for (uint32_t y = y0; y < y1; y++) {
            for (uint32_t x = x0; x < x1; x++) {
                texels++;
                if (!rt_texel_put(m, &wr, s, x * s->cpp, y + rp->layer,
                                  texel, true)) {
                    goto fail;
                }
            }
        }
    }
    if (!intel_surface_write_flush(m->th, &wr)) {
        goto fail;
    }
    if (m->th->stats) {
        m->th->stats->rt_writes++;
        m->th->stats->rt_clear_texels += texels;
    }
    return 0;

fail:
    intel_surface_write_flush(m->th, &wr);
    return -1;
}

/* The pixels a render target write of message subtype @subtype has. */
static unsigned rt_write_simd(const Msg *m, unsigned subtype)
{
    switch (subtype) {
    case 0:     /* SIMD16 single source */
    case 1:     /* SIMD16 replicated data */
        return 16;
    case 2:     /* SIMD8 dual source, low and high: source 0 written */
    case 3:
    case 4:     /* SIMD8 single source */
        return 8;
    }
    intel_sf_log(m->th, GPU_LOG_UNIMP, "render target write subtype %u",
                 subtype);
    return 0;
}

int dataport_rt_write(const Msg *m)
{
    unsigned subtype = m->ctrl & 7, slot = (m->ctrl >> 3) & 1;
    unsigned simd = rt_write_simd(m, subtype);
    unsigned first = m->header ? 2 : 0, lit = 0, wmask;
    bool replicated = subtype == 1;
    IntelSfWrites wr;
    uint8_t *col[4][2];
    RtPixels rp;

    if (!simd) {
        return -1;
    }
    if (dataport_payload_len(m) < first + (replicated ? 1 : 4 * simd / 8)) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "render target write 0x%08x: payload too short",
                     m->desc);
        return -1;
    }
    if (m->th->rt_op == INTEL_SF_RT_RESOLVE) {
        /* Fast clears wrote through, and nothing is compressed. */
        if (m->th->stats) {
            m->th->stats->rt_writes++;
        }
        return 0;
    }
    if (!rt_setup(m, simd, slot || subtype == 3, &rp)) {
        return -1;
    }
    if (m->th->rt_op == INTEL_SF_RT_FAST_CLEAR) {
        return rt_fast_clear(m, &rp);
    }
    if (!rt_write_mask(m, m->bti, &wmask)) {
        return -1;
    }
    /*
     * Whole-pixel writes are combined by line (intel_surface_write_queue):
     * memory ends as the pixel-by-pixel writes leave it, faults included.
     * A partial write mask reads each pixel first: pixel by pixel.
     */
    wr.n = 0;
    wr.mapped_page = 0;
    /*
     * The colour registers, looked up once (NULL: dataport_payload_chan()
     * says why).
     */
    for (unsigned ch = 0; ch < 4; ch++) {
        for (unsigned h = 0; h < simd / 8; h++) {
            col[ch][h] = intel_sf_payload(m->t, m->inst, m->desc,
                                          m->ex_desc,
                                          first + ch * (simd / 8) + h);
        }
    }
    for (unsigned c = 0; c < simd; c++) {
        uint32_t rgba[4], xb, row;
        uint8_t texel[16] = { 0 };
        int at = rt_pixel(m, &rp, c, &xb, &row);

        if (at == -2) {
            goto fail;
        }
        if (at < 0) {
            continue;
        }
        for (unsigned ch = 0; ch < 4; ch++) {
            bool ok;

            if (!replicated && col[ch][c / 8]) {
                rgba[ch] = dataport_grf_ud(col[ch][c / 8], c % 8);
                continue;
            }
            ok = replicated ? dataport_payload_ud(m, first, ch, &rgba[ch]) :
                 dataport_payload_chan(m, first + ch * (simd / 8), c,
                                       &rgba[ch]);
            if (!ok) {
                goto fail;
            }
        }
        lit++;
        if (!at) {
            continue;           /* outside the target: dropped */
        }
        if (wmask != 0xf &&
            !intel_surface_rw(m->th, &rp.tg.s, xb, row, texel,
                              rp.tg.s.cpp, false)) {
            goto fail;
        }
        intel_format_encode(rp.tg.s.format, rgba, wmask, texel);
        /* A partial write mask read the pixel: pixel by pixel. */
        if (!rt_texel_put(m, &wr, &rp.tg.s, xb, row, texel, wmask == 0xf)) {
            goto fail;
        }
    }
    if (!intel_surface_write_flush(m->th, &wr)) {
        goto fail;
    }
    if (m->th->stats) {
        m->th->stats->rt_writes++;
        m->th->stats->rt_pixels += lit;
    }
    return 0;

fail:
    /* What the pixels before the failure wrote stays written. */
    intel_surface_write_flush(m->th, &wr);
    return -1;
}

/*
 * Render target read (framebuffer fetch; Mesa brw_fb_read_desc): the
 * target's texels of the lit pixels as R, G, B, A, SIMD8 if control bit 0
 * is set; outside the target, 0.
 */
int dataport_rt_read(const Msg *m)
{
    unsigned simd = m->ctrl & 1 ? 8 : 16;
    RtPixels rp;

    if (!rt_setup(m, simd, false, &rp)) {
        return -1;
    }
    for (unsigned c = 0; c < simd; c++) {
        uint32_t rgba[4] = { 0, 0, 0, 0 }, xb, row;
        uint8_t texel[16];
        int at = rt_pixel(m, &rp, c, &xb, &row);

        if (at == -2) {
            return -1;
        }
        if (at < 0) {
            continue;
        }
        if (at) {
            if (!intel_surface_rw(m->th, &rp.tg.s, xb, row, texel,
                                  rp.tg.s.cpp, false)) {
                return -1;
            }
            intel_format_decode(rp.tg.s.format, texel, rgba);
        }
        for (unsigned ch = 0; ch < 4; ch++) {
            dataport_response_ud(m, ch * (simd / 8) + c / 8, c % 8, rgba[ch]);
        }
    }
    dataport_count(m, false);
    return 0;
}
