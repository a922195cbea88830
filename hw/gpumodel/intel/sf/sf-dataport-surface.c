/*
 * intel-gpu data ports: the surface messages at per-channel addresses.
 * Byte and DWord scattered reads and writes, untyped surface reads and
 * writes (and their A64 forms), untyped, A64 and typed atomics, and typed
 * surface reads and writes.  PRM Vol 7: 3D-Media-GPGPU, "Data Port",
 * "Untyped Surface Read/Write", "Surface Boundary Rules".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "sf-dataport-int.h"

/* ---- scattered and untyped messages ---- */

/*
 * Byte (@elem_bytes 1, 2, 4), DWord and QWord (4, 8) scattered access,
 * and untyped surface reads/writes, at per-channel byte offsets (or A64
 * addresses): the components of @comps (a mask of up to eight) at
 * consecutive elements of each channel's address, element after element
 * in the registers, each register holding eight channels' DWords or four
 * channels' QWords.  Elements narrower than a DWord take the low bytes
 * of a DWord.
 */
int dataport_scattered(const Msg *m, unsigned simd, unsigned elem_bytes,
                       unsigned comps, unsigned how, bool write)
{
    bool a64 = how & SC_A64;
    unsigned addr_regs = (simd / 8) * (a64 ? 2 : 1);
    unsigned first = m->header, data = first + addr_regs, reg = 0;
    unsigned stride = MAX(elem_bytes, 4), comp_regs = simd * stride / 32;
    uint32_t chans = m->chans & (simd == 16 ? 0xffff : 0xff);
    Target tg;

    if (simd != 8 && simd != 16) {
        intel_sf_log(m->th, GPU_LOG_UNIMP,
                     "data port message 0x%08x: SIMD4x2 mode", m->desc);
        return -1;
    }
    if (!dataport_header_mask(m, 0, &chans)) {
        return -1;
    }
    if (a64) {
        tg = (Target) { .flat = true };
    } else if (!dataport_bind(m, &tg) ||
               !dataport_stateless_base(m, &tg, ~0u)) {
        return -1;
    }
    if (dataport_payload_len(m) <
        data + (write ? __builtin_popcount(comps) * comp_regs : 0)) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "data port message 0x%08x: payload too short", m->desc);
        return -1;
    }
    for (unsigned comp = 0; comp < 8; comp++) {
        if (!((comps >> comp) & 1)) {
            continue;
        }
        for (unsigned c = 0; c < simd; c++) {
            unsigned r = reg + c * stride / 32, i = (c * stride % 32) / 4;
            uint64_t off;
            uint32_t lo, hi = 0, v[2] = { 0, 0 };

            if (!((chans >> c) & 1)) {
                continue;
            }
            if (a64) {
                if (!dataport_payload_ud(m, first + c / 4, (c % 4) * 2,
                                         &lo) ||
                    !dataport_payload_ud(m, first + c / 4, (c % 4) * 2 + 1,
                                         &hi)) {
                    return -1;
                }
            } else if (!dataport_payload_chan(m, first, c, &lo)) {
                return -1;
            }
            off = ((uint64_t)hi << 32 | lo) * (how & SC_DWORDS ? 4 : 1) +
                  (uint64_t)comp * stride;
            if (write) {
                for (unsigned k = 0; k < stride / 4; k++) {
                    if (!dataport_payload_ud(m, data + r, i + k, &v[k])) {
                        return -1;
                    }
                    v[k] = GUINT32_TO_LE(v[k]);
                }
                if (!dataport_target_rw(m, &tg, off, v, elem_bytes, true)) {
                    return -1;
                }
                continue;
            }
            if (!dataport_target_rw(m, &tg, off, v, elem_bytes, false)) {
                return -1;
            }
            for (unsigned k = 0; k < stride / 4; k++) {
                dataport_response_ud(m, r, i + k, GUINT32_FROM_LE(v[k]));
            }
        }
        reg += comp_regs;
    }
    dataport_count(m, write);
    return 0;
}

/* ---- untyped atomics (Mesa brw_dp_untyped_atomic_desc, BRW_AOP_*) ---- */

enum {
    AOP_AND = 1, AOP_OR = 2, AOP_XOR = 3, AOP_MOV = 4, AOP_INC = 5,
    AOP_DEC = 6, AOP_ADD = 7, AOP_SUB = 8, AOP_REVSUB = 9, AOP_IMAX = 10,
    AOP_IMIN = 11, AOP_UMAX = 12, AOP_UMIN = 13, AOP_CMPWR = 14,
    AOP_PREDEC = 15,
};

/* @bits wide: the signed comparisons' sign bit. */
static uint64_t dataport_atomic_op(unsigned op, unsigned bits, uint64_t old,
                                   uint64_t a, uint64_t b)
{
    uint64_t sign = 1ull << (bits - 1);

    switch (op) {
    case AOP_AND: return old & a;
    case AOP_OR: return old | a;
    case AOP_XOR: return old ^ a;
    case AOP_MOV: return a;
    case AOP_INC: return old + 1;
    case AOP_DEC:
    case AOP_PREDEC: return old - 1;
    case AOP_ADD: return old + a;
    case AOP_SUB: return old - a;
    case AOP_REVSUB: return a - old;
    case AOP_IMAX:
        return (old ^ sign) > (a ^ sign) ? old : a;
    case AOP_IMIN:
        return (old ^ sign) < (a ^ sign) ? old : a;
    case AOP_UMAX: return MAX(old, a);
    case AOP_UMIN: return MIN(old, a);
    default: return old == a ? b : old;     /* CMPWR */
    }
}

/* The @n-byte little-endian value at @b, and its store. */
static uint64_t dataport_le(const uint8_t *b, unsigned n)
{
    uint64_t v = 0;

    while (n--) {
        v = v << 8 | b[n];
    }
    return v;
}

static void dataport_put_le(uint8_t *b, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++, v >>= 8) {
        b[i] = v;
    }
}

/* Channel @c's @bits-wide operand in the source at register @reg. */
static bool dataport_atomic_src(const Msg *m, unsigned reg, unsigned c,
                                unsigned bits, uint64_t *v)
{
    uint32_t lo, hi = 0;

    if (bits == 32) {
        if (!dataport_payload_chan(m, reg, c, &lo)) {
            return false;
        }
    } else if (!dataport_payload_ud(m, reg + c / 4, (c % 4) * 2, &lo) ||
               !dataport_payload_ud(m, reg + c / 4, (c % 4) * 2 + 1, &hi)) {
        return false;
    }
    *v = (uint64_t)hi << 32 | lo;
    return true;
}

/*
 * Channel @c's address: a byte offset in @tg (*@xb unused), or for typed
 * atomics the texel's byte in row *@row.  False if the payload lacks it;
 * *@inside false for a texel outside the surface.
 */
static bool dataport_atomic_addr(const Msg *m, const Target *tg, unsigned kind,
                                 unsigned first, unsigned ncoord, unsigned c,
                                 uint64_t *off, uint32_t *row, bool *inside)
{
    uint32_t lo, hi, coord[3] = { 0, 0, 0 };
    int64_t layer;

    *inside = true;
    if (kind == AT_UNTYPED) {
        *off = 0;
        if (!dataport_payload_chan(m, first, c, &lo)) {
            return false;
        }
        *off = lo;
        return true;
    }
    if (kind == AT_A64) {
        if (!dataport_payload_ud(m, first + c / 4, (c % 4) * 2, &lo) ||
            !dataport_payload_ud(m, first + c / 4, (c % 4) * 2 + 1, &hi)) {
            return false;
        }
        *off = (uint64_t)hi << 32 | lo;
        return true;
    }
    for (unsigned k = 0; k < ncoord; k++) {
        if (!dataport_payload_ud(m, first + k, c, &coord[k])) {
            return false;
        }
    }
    layer = intel_surface_layer_row(&tg->s, coord[2]);
    *inside = coord[0] < tg->s.width && coord[1] < tg->s.height &&
              layer >= 0 && tg->s.type != INTEL_SURFTYPE_NULL;
    *off = (uint64_t)coord[0] * tg->s.cpp;
    *row = coord[1] + (*inside ? layer : 0);
    return true;
}

/* The atomic's element: a texel's bytes in row @row, or at offset @off. */
static bool dataport_atomic_rw(const Msg *m, const Target *tg, unsigned kind,
                               uint64_t off, uint32_t row, uint8_t *buf,
                               unsigned bytes, bool write)
{
    return kind == AT_TYPED ?
           intel_surface_rw(m->th, &tg->s, off, row, buf, bytes, write) :
           dataport_target_rw(m, tg, off, buf, bytes, write);
}

/*
 * Untyped (data cache 1 type 2; control: operation 3:0, SIMD8 bit 4,
 * else SIMD16, return data bit 5), A64 (0x12: SIMD8, bit 4 64-bit
 * operands, Mesa brw_dp_a64_untyped_atomic_desc) and typed atomics (6:
 * SIMD8, bit 4 the high slot group).  Payload: addresses (typed: u, v,
 * r), then the first source and (CMPWR) the second, a register per eight
 * 32-bit or four 64-bit operands.  The response is the old value
 * (PREDEC: the new one), as wide as the operands.  Outside the surface
 * nothing is written and 0 returned.
 */
int dataport_atomic(const Msg *m, unsigned kind)
{
    unsigned op = m->ctrl & 0xf, high = (m->ctrl >> 4) & 1;
    unsigned simd = kind == AT_UNTYPED && !high ? 16 : 8;
    unsigned bits = kind == AT_A64 && high ? 64 : 32;
    unsigned regs = simd * bits / 256, first = m->header, ncoord = 0, src;
    unsigned nsrc = op == AOP_INC || op == AOP_DEC || op == AOP_PREDEC ?
                    0 : op == AOP_CMPWR ? 2 : 1;
    unsigned bytes = bits / 8;
    uint32_t chans = m->chans & (simd == 16 ? 0xffff : 0xff);
    Target tg = { .flat = true };

    if (!op) {
        intel_sf_log(m->th, GPU_LOG_UNIMP, "atomic 0x%08x (operation %u)",
                     m->desc, op);
        return -1;
    }
    if (kind == AT_TYPED) {
        /* The coordinates are what the sources leave of the payload. */
        int n = (int)dataport_payload_len(m) - (int)first - (int)nsrc;

        ncoord = n < 1 ? 0 : MIN(n, 3);
        src = first + ncoord;
    } else {
        src = first + (kind == AT_A64 ? 2 : regs);
    }
    if ((kind == AT_TYPED && !ncoord) ||
        dataport_payload_len(m) < src + nsrc * regs) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "atomic 0x%08x: payload too short", m->desc);
        return -1;
    }
    if (!dataport_header_mask(m, kind == AT_TYPED && high ? 8 : 0, &chans) ||
        (kind != AT_A64 && !dataport_bind(m, &tg))) {
        return -1;
    }
    if (kind == AT_TYPED && (tg.flat || tg.s.cpp != 4)) {
        intel_sf_log(m->th, GPU_LOG_UNIMP,
                     "typed atomic on a surface of %u-byte elements",
                     tg.s.cpp);
        return -1;
    }
    for (unsigned c = 0; c < simd; c++) {
        uint64_t a = 0, b = 0, old = 0, ret, off;
        uint8_t buf[8] = { 0 };
        uint32_t row = 0;
        bool inside;

        if (!((chans >> c) & 1)) {
            continue;
        }
        if (!dataport_atomic_addr(m, &tg, kind, first, ncoord, c, &off, &row,
                                  &inside) ||
            (nsrc > 0 && !dataport_atomic_src(m, src, c, bits, &a)) ||
            (nsrc > 1 && !dataport_atomic_src(m, src + regs, c, bits, &b))) {
            return -1;
        }
        if (inside) {
            if (!dataport_atomic_rw(m, &tg, kind, off, row, buf, bytes,
                                    false)) {
                return -1;
            }
            old = dataport_le(buf, bytes);
            dataport_put_le(buf, bytes,
                            dataport_atomic_op(op, bits, old, a, b));
            if (!dataport_atomic_rw(m, &tg, kind, off, row, buf, bytes,
                                    true)) {
                return -1;
            }
        }
        if (!((m->ctrl >> 5) & 1)) {
            continue;
        }
        ret = op == AOP_PREDEC ? dataport_le(buf, bytes) : old;
        if (bits == 32) {
            dataport_response_ud(m, c / 8, c % 8, ret);
        } else {
            dataport_response_ud(m, c / 4, (c % 4) * 2, ret);
            dataport_response_ud(m, c / 4, (c % 4) * 2 + 1, ret >> 32);
        }
    }
    dataport_count(m, true);
    return 0;
}

/* ---- typed surface read/write (SIMD8: u, v, r, lod, then data) ---- */

int dataport_typed(const Msg *m, bool write)
{
    unsigned cmask = m->ctrl & 0xf, group = (m->ctrl >> 4) & 3;
    unsigned nchan = 4 - __builtin_popcount(cmask), first = m->header;
    uint32_t chans = m->chans & 0xff;
    int ncoord;
    Target tg;

    if (group != 1 && group != 2) {
        intel_sf_log(m->th, GPU_LOG_UNIMP,
                     "typed message 0x%08x: SIMD4x2 mode", m->desc);
        return -1;
    }
    /* The high slot group takes the sample mask's high byte. */
    if (!dataport_header_mask(m, group == 2 ? 8 : 0, &chans)) {
        return -1;
    }
    ncoord = (int)dataport_payload_len(m) - (int)first -
             (write ? (int)nchan : 0);
    if (ncoord < 1 || !nchan) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "typed message 0x%08x: payload too short", m->desc);
        return -1;
    }
    ncoord = MIN(ncoord, 4);
    if (!dataport_bind(m, &tg)) {
        return -1;
    }
    if (tg.flat) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "typed message to a stateless binding table index");
        return -1;
    }
    for (unsigned c = 0; c < 8; c++) {
        uint32_t coord[3] = { 0, 0, 0 }, rgba[4] = { 0, 0, 0, 0 };
        uint8_t texel[16] = { 0 };
        unsigned reg = 0;
        bool inside;
        uint64_t row;
        int64_t layer;

        if (!((chans >> c) & 1)) {
            continue;
        }
        for (int k = 0; k < MIN(ncoord, 3); k++) {
            if (!dataport_payload_ud(m, first + k, c, &coord[k])) {
                return -1;
            }
        }
        if (tg.s.type == INTEL_SURFTYPE_1D ||
            tg.s.type == INTEL_SURFTYPE_BUFFER) {
            coord[1] = coord[2] = 0;
        }
        /* r: the array layer of a 2D array (the message's third). */
        layer = intel_surface_layer_row(&tg.s, coord[2]);
        row = (uint64_t)coord[0] * tg.s.cpp;
        inside = coord[0] < tg.s.width && coord[1] < tg.s.height &&
                 layer >= 0 && tg.s.type != INTEL_SURFTYPE_NULL;
        coord[1] += inside ? layer : 0;
        if (write) {
            unsigned mask = 0;

            for (unsigned ch = 0; ch < 4; ch++) {
                if ((cmask >> ch) & 1) {
                    continue;
                }
                if (!dataport_payload_ud(m, first + ncoord + reg++, c,
                                         &rgba[ch])) {
                    return -1;
                }
                mask |= 1u << ch;
            }
            if (!inside) {
                continue;
            }
            /* Channels the message leaves out keep their value. */
            if ((mask != 0xf &&
                 !intel_surface_rw(m->th, &tg.s, row, coord[1], texel,
                                   tg.s.cpp, false))) {
                return -1;
            }
            intel_format_encode(tg.s.format, rgba, mask, texel);
            if (!intel_surface_rw(m->th, &tg.s, row, coord[1], texel,
                                  tg.s.cpp, true)) {
                return -1;
            }
            continue;
        }
        if (inside) {
            if (!intel_surface_rw(m->th, &tg.s, row, coord[1], texel,
                                  tg.s.cpp, false)) {
                return -1;
            }
            intel_format_decode(tg.s.format, texel, rgba);
        }
        for (unsigned ch = 0; ch < 4; ch++) {
            if (!((cmask >> ch) & 1)) {
                dataport_response_ud(m, reg++, c, rgba[ch]);
            }
        }
    }
    dataport_count(m, write);
    return 0;
}
