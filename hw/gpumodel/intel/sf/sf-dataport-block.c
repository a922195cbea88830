/*
 * intel-gpu data ports: the block messages.  OWord block reads and writes
 * (data cache 0, the constant and sampler caches), scratch block reads
 * and writes (data cache 0), and media block reads and writes (data cache
 * 1 and the render cache).  PRM Vol 7: 3D-Media-GPGPU, "Data Port",
 * "Media Block Read/Write".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include "sf-dataport-int.h"

/*
 * ---- OWord block read/write ----
 *
 * The address in the header: M0.2 the offset (in OWords, or bytes when
 * @unaligned, DWord-aligned) in the surface, or for @a64 (data cache 1,
 * Mesa's emit_a64_oword_block_header()) M0.1:M0.0 the 64-bit address.
 */
int dataport_oword_block(const Msg *m, bool write, bool unaligned, bool a64)
{
    static const unsigned owords[] = { 1, 1, 2, 4, 8 };
    unsigned n = m->ctrl & 7, bytes, skip = 0;
    uint8_t data[128];
    uint64_t off;
    uint32_t m02, m01 = 0;
    Target tg = { .flat = true };

    if (n >= G_N_ELEMENTS(owords) || !m->header) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "OWord block message 0x%08x: bad size or no header",
                     m->desc);
        return -1;
    }
    bytes = owords[n] * 16;
    /* One OWord: the low or the high half of a register. */
    skip = n == 1 ? 16 : 0;
    if (a64) {
        if (!dataport_payload_ud(m, 0, 0, &m02) ||
            !dataport_payload_ud(m, 0, 1, &m01)) {
            return -1;
        }
        off = ((uint64_t)m01 << 32 | m02) & (unaligned ? ~3ull : ~15ull);
    } else {
        if (!dataport_payload_ud(m, 0, 2, &m02) || !dataport_bind(m, &tg) ||
            !dataport_stateless_base(m, &tg, ~0x3ffu)) {
            return -1;
        }
        off = unaligned ? (m02 & ~3u) : (uint64_t)m02 * 16;
    }
    if (write) {
        for (unsigned i = 0; i < bytes; i += 4) {
            uint32_t v;

            if (!dataport_payload_ud(m, 1 + (skip + i) / 32,
                                     ((skip + i) % 32) / 4, &v)) {
                return -1;
            }
            v = GUINT32_TO_LE(v);
            memcpy(data + i, &v, 4);
        }
        if (!dataport_target_rw(m, &tg, off, data, bytes, true)) {
            return -1;
        }
    } else {
        if (!dataport_target_rw(m, &tg, off, data, bytes, false)) {
            return -1;
        }
        for (unsigned i = 0; i < bytes; i += 4) {
            uint32_t v;

            memcpy(&v, data + i, 4);
            dataport_response_ud(m, (skip + i) / 32, ((skip + i) % 32) / 4,
                                 GUINT32_FROM_LE(v));
        }
    }
    dataport_count(m, write);
    return 0;
}

/* ---- scratch block read/write (DC0, descriptor bit 18) ---- */

/*
 * The thread's scratch space: the 1 KiB-aligned pointer of M0.5 (the
 * thread's slot, R0.5: MEDIA_VFE_STATE's Scratch Space Base Pointer + its
 * FFTID x Per Thread Scratch Space) from the general state base, of the
 * size M0.3 bits 3:0 encode (R0.3: 1 KiB << n; Mesa's generate_scratch_
 * header() keeps those bits for the bounds check).  An access past it:
 * reads return zero and writes are dropped, as outside any surface
 * (PRM Vol 7, "Surface Boundary Rules"), logged once a step.
 */
int dataport_scratch_block(const Msg *m)
{
    bool write = (m->desc >> 17) & 1;
    unsigned regs = 1u << ((m->desc >> 12) & 3);
    uint64_t base, off = (uint64_t)(m->desc & 0xfff) * 32, size;
    uint32_t m03, m05;
    Target tg = { .flat = true };

    if (((m->desc >> 12) & 3) == 2 || !m->header) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "scratch message 0x%08x: bad size or no header",
                     m->desc);
        return -1;
    }
    if (!dataport_payload_ud(m, 0, 3, &m03) ||
        !dataport_payload_ud(m, 0, 5, &m05)) {
        return -1;
    }
    base = m05 & ~0x3ffu;
    size = (m03 & 0xf) > 11 ? 0 : 1024ull << (m03 & 0xf);
    if (off + regs * 32ull > size && !m->th->scratch_bounds_logged) {
        m->th->scratch_bounds_logged = true;
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "scratch access at 0x%" PRIx64 " beyond the thread's "
                     "%" PRIu64 " bytes", off, size);
    }
    tg.s.base = m->th->general_state_base;
    for (unsigned r = 0; r < regs; r++, off += 32) {
        uint8_t data[EU_GRF_BYTES] = { 0 };
        bool inside = off + EU_GRF_BYTES <= size;
        uint8_t *g;

        if (write) {
            g = intel_sf_payload(m->t, m->inst, m->desc, m->ex_desc, 1 + r);
            if (!g) {
                intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                             "scratch write shorter than its block");
                return -1;
            }
            if (inside && !dataport_target_rw(m, &tg, base + off, g,
                                              EU_GRF_BYTES, true)) {
                return -1;
            }
            continue;
        }
        if (inside && !dataport_target_rw(m, &tg, base + off, data,
                                          EU_GRF_BYTES, false)) {
            return -1;
        }
        g = intel_sf_response(m->t, m->inst, m->desc, r);
        if (g) {
            memcpy(g, data, EU_GRF_BYTES);
        }
    }
    dataport_count(m, write);
    return 0;
}

/* ---- media block read/write (header M0.0 X, M0.1 Y, M0.2 size) ---- */

int dataport_media_block(const Msg *m, bool write)
{
    uint32_t m0[3];
    unsigned w, h, row_pitch;
    int32_t bx, by;
    Target tg;

    for (unsigned i = 0; i < 3; i++) {
        if (!dataport_payload_ud(m, 0, i, &m0[i])) {
            return -1;
        }
    }
    bx = (int32_t)m0[0];
    by = (int32_t)m0[1];
    w = (m0[2] & 0x3ff) + 1;
    h = ((m0[2] >> 16) & 0x3fff) + 1;
    /* Rows take the width rounded up to a power of two, 4 bytes or more. */
    row_pitch = w <= 4 ? 4 : w <= 8 ? 8 : w <= 16 ? 16 : w <= 32 ? 32 : 64;
    if (!m->header || w > 64 || h > 64 || row_pitch * h > 8 * EU_GRF_BYTES) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "media block %ux%u (message 0x%08x) too large",
                     w, h, m->desc);
        return -1;
    }
    if (!dataport_bind(m, &tg)) {
        return -1;
    }
    if (tg.flat || (tg.s.type != INTEL_SURFTYPE_2D &&
                    tg.s.type != INTEL_SURFTYPE_NULL)) {
        intel_sf_log(m->th, GPU_LOG_UNIMP,
                     "media block message on surface type %u", tg.s.type);
        return -1;
    }
    /*
     * Media block messages take the width of a surface of elements
     * smaller than a DWord in DWords (PRM Vol 7: 3D-Media-GPGPU, "Media
     * Block Read/Write"): IGT's lib/media_fill.c writes 64 bytes a row
     * of an R8 surface 16 wide.
     */
    if (tg.s.cpp && tg.s.cpp < 4) {
        tg.s.width = tg.s.width * 4 / tg.s.cpp;
    }
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            unsigned at = y * row_pitch + x;
            uint8_t *g;
            int64_t px = (int64_t)bx + x, py = (int64_t)by + y;
            uint8_t b = 0;

            if (write) {
                g = intel_sf_payload(m->t, m->inst, m->desc, m->ex_desc,
                                     1 + at / EU_GRF_BYTES);
                if (!g) {
                    intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                                 "media block write shorter than its block");
                    return -1;
                }
                /* Outside the surface: dropped. */
                if (px < 0 || py < 0 || px > UINT32_MAX || py > UINT32_MAX) {
                    continue;
                }
                if (!intel_surface_rw(m->th, &tg.s, px, py,
                                      g + at % EU_GRF_BYTES, 1, true)) {
                    return -1;
                }
                continue;
            }
            /*
             * Reads outside the surface return the nearest edge element
             * (PRM Vol 7, "Media Block Read": boundary behaviour).
             */
            if (tg.s.type == INTEL_SURFTYPE_2D) {
                int64_t row = MIN((int64_t)tg.s.width * tg.s.cpp,
                                  (int64_t)tg.s.pitch);

                if (px < 0) {
                    px = ((px % tg.s.cpp) + tg.s.cpp) % tg.s.cpp;
                } else if (px >= row) {
                    px = row - tg.s.cpp + px % tg.s.cpp;
                }
                py = py < 0 ? 0 : py >= tg.s.height ? tg.s.height - 1 : py;
                if (!intel_surface_rw(m->th, &tg.s, px, py, &b, 1, false)) {
                    return -1;
                }
            }
            g = intel_sf_response(m->t, m->inst, m->desc,
                                  at / EU_GRF_BYTES);
            if (g) {
                g[at % EU_GRF_BYTES] = b;
            }
        }
    }
    dataport_count(m, write);
    return 0;
}
