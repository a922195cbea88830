/*
 * intel-gpu data ports: the render cache (render target writes and
 * reads, media block messages), the data cache 0 and 1 (block,
 * scattered, untyped, atomic, typed, media block, A64 and scratch
 * messages) and the read-only constant and sampler caches (PRM Vol 7:
 * 3D-Media-GPGPU, "Data Port", "Render Target Write", "Media Block
 * Read/Write", "Untyped Surface Read/Write", "Surface Boundary Rules";
 * the descriptors in PRM Vol 2d: Command Reference: Structures).
 *
 * Descriptor: binding table index 7:0 (255 and 253: stateless, from the
 * general state base), message control 13:8, message type 18:14, header
 * present 19.  The type and control values are Mesa's
 * (src/intel/compiler/brw_eu_defines.h, brw_eu.h: brw_dp_*_desc).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "sf.h"

#define BTI_SLM                 254
#define BTI_STATELESS           255
#define BTI_STATELESS_NC        253
#define A64_LIMIT               (1ull << 48)

enum {
    /* Data cache 0 (and the constant and sampler caches' reads). */
    DC0_OWORD_BLOCK_READ = 0, DC0_UNALIGNED_OWORD_BLOCK_READ = 1,
    DC0_DWORD_SCATTERED_READ = 3, DC0_BYTE_SCATTERED_READ = 4,
    DC0_MEMORY_FENCE = 7, DC0_OWORD_BLOCK_WRITE = 8,
    DC0_DWORD_SCATTERED_WRITE = 11, DC0_BYTE_SCATTERED_WRITE = 12,
    /* Data cache 1. */
    DC1_UNTYPED_READ = 1, DC1_UNTYPED_ATOMIC = 2, DC1_MEDIA_BLOCK_READ = 4,
    DC1_TYPED_READ = 5, DC1_TYPED_ATOMIC = 6, DC1_A64_UNTYPED_ATOMIC = 0x12,
    DC1_UNTYPED_WRITE = 9, DC1_MEDIA_BLOCK_WRITE = 10,
    DC1_TYPED_WRITE = 13, DC1_A64_SCATTERED_READ = 0x10,
    DC1_A64_UNTYPED_READ = 0x11, DC1_A64_UNTYPED_WRITE = 0x19,
    DC1_A64_SCATTERED_WRITE = 0x1a,
    /* Render cache (Gen9+: typed messages are data cache 1's). */
    RC_MEDIA_BLOCK_READ = 4, RC_MEDIA_BLOCK_WRITE = 10, RC_RT_WRITE = 12,
    RC_RT_READ = 13,
};

/* Where a message's offsets land. */
typedef struct Target {
    IntelSurface s;
    bool flat;                  /* stateless or A64: base + offset */
} Target;

typedef struct Msg {
    IntelSfThread *th;
    EuThread *t;
    const EuInst *inst;
    uint32_t desc, ex_desc;
    unsigned bti, ctrl, type;
    bool header;
    uint32_t chans;             /* channels the SEND runs for */
} Msg;

static uint32_t grf_ud(const uint8_t *r, unsigned i)
{
    uint32_t v;

    memcpy(&v, r + i * 4, 4);
    return GUINT32_FROM_LE(v);
}

static void set_grf_ud(uint8_t *r, unsigned i, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(r + i * 4, &v, 4);
}

static unsigned payload_len(const Msg *m)
{
    unsigned n = (m->desc >> 25) & 0xf;

    if (m->inst->opcode == EU_OP_SENDS || m->inst->opcode == EU_OP_SENDSC) {
        n += (m->ex_desc >> 6) & 0x1f;
    }
    return n;
}

/* Dword @i of message register @reg; false if the payload lacks it. */
static bool pl_ud(const Msg *m, unsigned reg, unsigned i, uint32_t *v)
{
    uint8_t *r = intel_sf_payload(m->t, m->inst, m->desc, m->ex_desc, reg);

    if (!r) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "data port message 0x%08x: payload register %u missing",
                     m->desc, reg);
        return false;
    }
    *v = grf_ud(r, i);
    return true;
}

/* Channel @c's dword of a per-channel parameter at register @reg. */
static bool pl_chan(const Msg *m, unsigned reg, unsigned c, uint32_t *v)
{
    return pl_ud(m, reg + c / 8, c % 8, v);
}

static void resp_ud(const Msg *m, unsigned reg, unsigned i, uint32_t v)
{
    uint8_t *r = intel_sf_response(m->t, m->inst, m->desc, reg);

    if (r) {
        set_grf_ud(r, i, v);
    }
}

/* @cached: through the thread's state cache (render target messages). */
static bool bind_from(const Msg *m, Target *tg, bool cached)
{
    memset(tg, 0, sizeof(*tg));
    if (m->bti == BTI_STATELESS || m->bti == BTI_STATELESS_NC) {
        tg->flat = true;
        tg->s.base = m->th->general_state_base;
        return true;
    }
    if (m->bti == BTI_SLM) {
        intel_sf_log(m->th, GPU_LOG_UNIMP, "shared local memory message");
        return false;
    }
    return cached ? intel_surface_load_cached(m->th, m->bti, &tg->s) :
                    intel_surface_load(m->th, m->bti, &tg->s);
}

static bool bind(const Msg *m, Target *tg)
{
    return bind_from(m, tg, false);
}

/*
 * @len bytes at byte @off of @tg as a flat range: buffers by their
 * entries, 2D surfaces row after row by their pitch.  Outside the surface
 * reads return 0 and writes are dropped; false on a page fault.
 */
static bool target_rw(const Msg *m, const Target *tg, uint64_t off,
                      void *buf, unsigned len, bool write)
{
    const IntelSurface *s = &tg->s;
    uint8_t *p = buf;

    if (tg->flat) {
        uint64_t addr = (s->base + off) & (A64_LIMIT - 1);

        if (intel_vm_rw(m->th->e, m->th->ppgtt, addr, buf, len, write)) {
            intel_engine_page_fault(m->th->e, m->th->ppgtt, addr);
            return false;
        }
        return true;
    }
    if (s->type == INTEL_SURFTYPE_BUFFER || s->type == INTEL_SURFTYPE_NULL) {
        if (off > UINT32_MAX) {
            if (!write) {
                memset(buf, 0, len);
            }
            return true;
        }
        return intel_surface_rw(m->th, s, off, 0, buf, len, write);
    }
    while (len) {
        uint64_t y = off / s->pitch, x = off % s->pitch;
        unsigned n = MIN(len, s->pitch - x);

        if (y > UINT32_MAX) {
            if (!write) {
                memset(p, 0, len);
            }
            return true;
        }
        if (!intel_surface_rw(m->th, s, x, y, p, n, write)) {
            return false;
        }
        off += n;
        p += n;
        len -= n;
    }
    return true;
}

static void count(const Msg *m, bool write)
{
    if (!m->th->stats) {
        return;
    }
    if (write) {
        m->th->stats->dataport_writes++;
    } else {
        m->th->stats->dataport_reads++;
    }
}

/*
 * With a header, the pixel sample mask of a pixel shader's message (M0.7,
 * from bit @shift) also masks @chans.
 */
static bool header_mask(const Msg *m, unsigned shift, uint32_t *chans)
{
    uint32_t m07;

    if (!m->header) {
        return true;
    }
    if (!pl_ud(m, 0, 7, &m07)) {
        return false;
    }
    *chans &= m07 >> shift;
    return true;
}

/* ---- OWord block read/write (header M0.2: the offset) ---- */

static int oword_block(const Msg *m, bool write, bool unaligned)
{
    static const unsigned owords[] = { 1, 1, 2, 4, 8 };
    unsigned n = m->ctrl & 7, bytes, skip = 0;
    uint8_t data[128];
    uint64_t off;
    uint32_t m02;
    Target tg;

    if (n >= G_N_ELEMENTS(owords) || !m->header) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "OWord block message 0x%08x: bad size or no header",
                     m->desc);
        return -1;
    }
    bytes = owords[n] * 16;
    /* One OWord: the low or the high half of a register. */
    skip = n == 1 ? 16 : 0;
    if (!pl_ud(m, 0, 2, &m02) || !bind(m, &tg)) {
        return -1;
    }
    off = unaligned ? (m02 & ~3u) : (uint64_t)m02 * 16;
    if (write) {
        for (unsigned i = 0; i < bytes; i += 4) {
            uint32_t v;

            if (!pl_ud(m, 1 + (skip + i) / 32, ((skip + i) % 32) / 4, &v)) {
                return -1;
            }
            v = GUINT32_TO_LE(v);
            memcpy(data + i, &v, 4);
        }
        if (!target_rw(m, &tg, off, data, bytes, true)) {
            return -1;
        }
    } else {
        if (!target_rw(m, &tg, off, data, bytes, false)) {
            return -1;
        }
        for (unsigned i = 0; i < bytes; i += 4) {
            uint32_t v;

            memcpy(&v, data + i, 4);
            resp_ud(m, (skip + i) / 32, ((skip + i) % 32) / 4,
                    GUINT32_FROM_LE(v));
        }
    }
    count(m, write);
    return 0;
}

/* ---- scratch block read/write (DC0, descriptor bit 18) ---- */

static int scratch_block(const Msg *m)
{
    bool write = (m->desc >> 17) & 1;
    unsigned regs = 1u << ((m->desc >> 12) & 3);
    uint64_t base;
    uint32_t m05;
    Target tg = { .flat = true };

    if (((m->desc >> 12) & 3) == 2 || !m->header) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "scratch message 0x%08x: bad size or no header",
                     m->desc);
        return -1;
    }
    if (!pl_ud(m, 0, 5, &m05)) {
        return -1;
    }
    /* The per-thread scratch space pointer, from the general state base. */
    base = (m05 & ~0x3ffu) + (uint64_t)(m->desc & 0xfff) * 32;
    tg.s.base = m->th->general_state_base;
    for (unsigned r = 0; r < regs; r++) {
        uint8_t data[EU_GRF_BYTES];
        uint8_t *g;

        if (write) {
            g = intel_sf_payload(m->t, m->inst, m->desc, m->ex_desc, 1 + r);
            if (!g) {
                intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                             "scratch write shorter than its block");
                return -1;
            }
            if (!target_rw(m, &tg, base + r * 32ull, g, EU_GRF_BYTES,
                           true)) {
                return -1;
            }
            continue;
        }
        if (!target_rw(m, &tg, base + r * 32ull, data, EU_GRF_BYTES,
                       false)) {
            return -1;
        }
        g = intel_sf_response(m->t, m->inst, m->desc, r);
        if (g) {
            memcpy(g, data, EU_GRF_BYTES);
        }
    }
    count(m, write);
    return 0;
}

/* ---- scattered and untyped messages ---- */

/*
 * Byte (@elem_bytes 1, 2, 4) or dword scattered access, and untyped
 * surface reads/writes of up to four dwords per channel (@comps, @cmask
 * the disabled ones), at per-channel byte offsets (or A64 addresses).
 */
/* scattered()'s addressing: 64-bit addresses; offsets in DWords. */
enum { SC_A64 = 1, SC_DWORDS = 2 };

static int scattered(const Msg *m, unsigned simd, unsigned elem_bytes,
                     unsigned cmask, unsigned how, bool write)
{
    bool a64 = how & SC_A64;
    unsigned addr_regs = (simd / 8) * (a64 ? 2 : 1);
    unsigned first = m->header, data = first + addr_regs, reg = 0;
    uint32_t chans = m->chans & (simd == 16 ? 0xffff : 0xff);
    Target tg;

    if (simd != 8 && simd != 16) {
        intel_sf_log(m->th, GPU_LOG_UNIMP,
                     "data port message 0x%08x: SIMD4x2 mode", m->desc);
        return -1;
    }
    if (!header_mask(m, 0, &chans)) {
        return -1;
    }
    if (a64) {
        tg = (Target) { .flat = true };
    } else if (!bind(m, &tg)) {
        return -1;
    }
    if (payload_len(m) < data + (write ? (4 - __builtin_popcount(cmask)) *
                                 (simd / 8) : 0)) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "data port message 0x%08x: payload too short", m->desc);
        return -1;
    }
    for (unsigned comp = 0; comp < 4; comp++) {
        if ((cmask >> comp) & 1) {
            continue;
        }
        for (unsigned c = 0; c < simd; c++) {
            uint64_t off;
            uint32_t lo, hi = 0, v = 0;

            if (!((chans >> c) & 1)) {
                continue;
            }
            if (a64) {
                if (!pl_ud(m, first + c / 4, (c % 4) * 2, &lo) ||
                    !pl_ud(m, first + c / 4, (c % 4) * 2 + 1, &hi)) {
                    return -1;
                }
            } else if (!pl_chan(m, first, c, &lo)) {
                return -1;
            }
            off = ((uint64_t)hi << 32 | lo) * (how & SC_DWORDS ? 4 : 1) +
                  comp * 4ull;
            if (write) {
                if (!pl_chan(m, data + reg, c, &v)) {
                    return -1;
                }
                v = GUINT32_TO_LE(v);
                if (!target_rw(m, &tg, off, &v, elem_bytes, true)) {
                    return -1;
                }
            } else {
                if (!target_rw(m, &tg, off, &v, elem_bytes, false)) {
                    return -1;
                }
                resp_ud(m, reg + c / 8, c % 8, GUINT32_FROM_LE(v));
            }
        }
        reg += simd / 8;
    }
    count(m, write);
    return 0;
}

/* ---- untyped atomics (Mesa brw_dp_untyped_atomic_desc, BRW_AOP_*) ---- */

enum {
    AOP_AND = 1, AOP_OR = 2, AOP_XOR = 3, AOP_MOV = 4, AOP_INC = 5,
    AOP_DEC = 6, AOP_ADD = 7, AOP_SUB = 8, AOP_REVSUB = 9, AOP_IMAX = 10,
    AOP_IMIN = 11, AOP_UMAX = 12, AOP_UMIN = 13, AOP_CMPWR = 14,
    AOP_PREDEC = 15,
};

static uint32_t atomic_op(unsigned op, uint32_t old, uint32_t a, uint32_t b)
{
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
        return (int32_t)old > (int32_t)a ? old : a;
    case AOP_IMIN:
        return (int32_t)old < (int32_t)a ? old : a;
    case AOP_UMAX: return MAX(old, a);
    case AOP_UMIN: return MIN(old, a);
    default: return old == a ? b : old;     /* CMPWR */
    }
}

/* The atomics' addressing: per-channel offsets, A64 addresses, texels. */
enum { AT_UNTYPED, AT_A64, AT_TYPED };

/*
 * Channel @c's address: a byte offset in @tg (*@xb unused), or for typed
 * atomics the texel's byte in row *@row.  False if the payload lacks it;
 * *@inside false for a texel outside the surface.
 */
static bool atomic_addr(const Msg *m, const Target *tg, unsigned kind,
                        unsigned first, unsigned ncoord, unsigned c,
                        uint64_t *off, uint32_t *row, bool *inside)
{
    uint32_t lo, hi, coord[3] = { 0, 0, 0 };
    int64_t layer;

    *inside = true;
    if (kind == AT_UNTYPED) {
        *off = 0;
        if (!pl_chan(m, first, c, &lo)) {
            return false;
        }
        *off = lo;
        return true;
    }
    if (kind == AT_A64) {
        if (!pl_ud(m, first + c / 4, (c % 4) * 2, &lo) ||
            !pl_ud(m, first + c / 4, (c % 4) * 2 + 1, &hi)) {
            return false;
        }
        *off = (uint64_t)hi << 32 | lo;
        return true;
    }
    for (unsigned k = 0; k < ncoord; k++) {
        if (!pl_ud(m, first + k, c, &coord[k])) {
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

/*
 * Untyped (data cache 1 type 2; control: operation 3:0, SIMD8 bit 4,
 * else SIMD16, return data bit 5), A64 (0x12: SIMD8, bit 4 64-bit, not
 * modelled) and typed atomics (6: SIMD8, bit 4 the high slot group).
 * Payload: addresses (typed: u, v, r), then the first source and (CMPWR)
 * the second.  The response is the old value (PREDEC: the new one).
 * Outside the surface nothing is written and 0 returned.
 */
static int atomic(const Msg *m, unsigned kind)
{
    unsigned op = m->ctrl & 0xf, high = (m->ctrl >> 4) & 1;
    unsigned simd = kind == AT_UNTYPED && !high ? 16 : 8;
    unsigned regs = simd / 8, first = m->header, ncoord = 0, src;
    unsigned nsrc = op == AOP_INC || op == AOP_DEC || op == AOP_PREDEC ?
                    0 : op == AOP_CMPWR ? 2 : 1;
    uint32_t chans = m->chans & (simd == 16 ? 0xffff : 0xff);
    Target tg = { .flat = true };

    if (!op || (kind == AT_A64 && high)) {
        intel_sf_log(m->th, GPU_LOG_UNIMP, "atomic 0x%08x (operation %u)",
                     m->desc, op);
        return -1;
    }
    if (kind == AT_TYPED) {
        /* The coordinates are what the sources leave of the payload. */
        int n = (int)payload_len(m) - (int)first - (int)nsrc;

        ncoord = n < 1 ? 0 : MIN(n, 3);
        src = first + ncoord;
    } else {
        src = first + (kind == AT_A64 ? 2 : regs);
    }
    if ((kind == AT_TYPED && !ncoord) ||
        payload_len(m) < src + nsrc * regs) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "atomic 0x%08x: payload too short", m->desc);
        return -1;
    }
    if (!header_mask(m, kind == AT_TYPED && high ? 8 : 0, &chans) ||
        (kind != AT_A64 && !bind(m, &tg))) {
        return -1;
    }
    if (kind == AT_TYPED && (tg.flat || tg.s.cpp != 4)) {
        intel_sf_log(m->th, GPU_LOG_UNIMP,
                     "typed atomic on a surface of %u-byte elements",
                     tg.s.cpp);
        return -1;
    }
    for (unsigned c = 0; c < simd; c++) {
        uint32_t a = 0, b = 0, old = 0, new, row = 0;
        uint64_t off;
        bool inside, ok;

        if (!((chans >> c) & 1)) {
            continue;
        }
        if (!atomic_addr(m, &tg, kind, first, ncoord, c, &off, &row,
                         &inside) ||
            (nsrc > 0 && !pl_chan(m, src, c, &a)) ||
            (nsrc > 1 && !pl_chan(m, src + regs, c, &b))) {
            return -1;
        }
        if (!inside) {
            new = 0;
        } else {
            ok = kind == AT_TYPED ?
                 intel_surface_rw(m->th, &tg.s, off, row, &old, 4, false) :
                 target_rw(m, &tg, off, &old, 4, false);
            old = GUINT32_FROM_LE(old);
            new = GUINT32_TO_LE(atomic_op(op, old, a, b));
            if (!ok || !(kind == AT_TYPED ?
                         intel_surface_rw(m->th, &tg.s, off, row, &new, 4,
                                          true) :
                         target_rw(m, &tg, off, &new, 4, true))) {
                return -1;
            }
        }
        if ((m->ctrl >> 5) & 1) {
            resp_ud(m, c / 8, c % 8,
                    op == AOP_PREDEC ? GUINT32_FROM_LE(new) : old);
        }
    }
    count(m, true);
    return 0;
}

/* ---- media block read/write (header M0.0 X, M0.1 Y, M0.2 size) ---- */

static int media_block(const Msg *m, bool write)
{
    uint32_t m0[3];
    unsigned w, h, row_pitch;
    int32_t bx, by;
    Target tg;

    for (unsigned i = 0; i < 3; i++) {
        if (!pl_ud(m, 0, i, &m0[i])) {
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
    if (!bind(m, &tg)) {
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
    count(m, write);
    return 0;
}

/* ---- typed surface read/write (SIMD8: u, v, r, lod, then data) ---- */

static int typed(const Msg *m, bool write)
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
    if (!header_mask(m, group == 2 ? 8 : 0, &chans)) {
        return -1;
    }
    ncoord = (int)payload_len(m) - (int)first - (write ? (int)nchan : 0);
    if (ncoord < 1 || !nchan) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "typed message 0x%08x: payload too short", m->desc);
        return -1;
    }
    ncoord = MIN(ncoord, 4);
    if (!bind(m, &tg)) {
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
            if (!pl_ud(m, first + k, c, &coord[k])) {
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
                if (!pl_ud(m, first + ncoord + reg++, c, &rgba[ch])) {
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
                resp_ud(m, reg++, c, rgba[ch]);
            }
        }
    }
    count(m, write);
    return 0;
}

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
        if (!pl_ud(m, 1, 7, &m17)) {
            return false;
        }
        rp->pmask = m17 & 0xffff;
    } else {
        rp->pmask = m->th->pixel_mask;
    }
    if (!bind_from(m, &rp->tg, true)) {
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
        if (!pl_ud(m, 1, 2 + hp / 4, &ss)) {
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

static int rt_write(const Msg *m)
{
    unsigned subtype = m->ctrl & 7, slot = (m->ctrl >> 3) & 1;
    unsigned simd, first = m->header ? 2 : 0, lit = 0, wmask;
    bool replicated = subtype == 1;
    IntelSfWrites wr;
    uint8_t *col[4][2];
    RtPixels rp;

    switch (subtype) {
    case 0:     /* SIMD16 single source */
    case 1:     /* SIMD16 replicated data */
        simd = 16;
        break;
    case 2:     /* SIMD8 dual source, low and high: source 0 written */
    case 3:
    case 4:     /* SIMD8 single source */
        simd = 8;
        break;
    default:
        intel_sf_log(m->th, GPU_LOG_UNIMP,
                     "render target write subtype %u", subtype);
        return -1;
    }
    if (payload_len(m) < first + (replicated ? 1 : 4 * simd / 8)) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "render target write 0x%08x: payload too short",
                     m->desc);
        return -1;
    }
    if (!rt_setup(m, simd, slot || subtype == 3, &rp) ||
        !rt_write_mask(m, m->bti, &wmask)) {
        return -1;
    }
    /*
     * Whole-pixel writes are combined by line (intel_surface_write_queue):
     * memory ends as the pixel-by-pixel writes leave it, faults included.
     * A partial write mask reads each pixel first: pixel by pixel.
     */
    wr.n = 0;
    wr.mapped_page = 0;
    /* The colour registers, looked up once (NULL: pl_chan() says why). */
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
        uint64_t addr;

        if (at == -2) {
            goto fail;
        }
        if (at < 0) {
            continue;
        }
        for (unsigned ch = 0; ch < 4; ch++) {
            bool ok;

            if (!replicated && col[ch][c / 8]) {
                rgba[ch] = grf_ud(col[ch][c / 8], c % 8);
                continue;
            }
            ok = replicated ? pl_ud(m, first, ch, &rgba[ch]) :
                 pl_chan(m, first + ch * (simd / 8), c, &rgba[ch]);
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
        if (wmask == 0xf &&
            intel_surface_addr(&rp.tg.s, xb, row, rp.tg.s.cpp, &addr) &&
            intel_surface_write_queue(m->th, &wr, addr, texel,
                                      rp.tg.s.cpp) > 0) {
            continue;
        }
        if (!intel_surface_write_flush(m->th, &wr) ||
            !intel_surface_rw(m->th, &rp.tg.s, xb, row, texel, rp.tg.s.cpp,
                              true)) {
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
static int rt_read(const Msg *m)
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
            resp_ud(m, ch * (simd / 8) + c / 8, c % 8, rgba[ch]);
        }
    }
    count(m, false);
    return 0;
}

/* ---- routing ---- */

static int memory_fence(const Msg *m)
{
    /* Memory is coherent in the model: the fence completes at once. */
    for (unsigned i = 0; i < 8; i++) {
        resp_ud(m, 0, i, 0);
    }
    return 0;
}

static int byte_scattered(const Msg *m, bool write)
{
    /* Data size in control bits 3:2, SIMD16 in bit 0. */
    unsigned size = (m->ctrl >> 2) & 3;

    if (size > 2) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "byte scattered data size %u", size);
        return -1;
    }
    return scattered(m, m->ctrl & 1 ? 16 : 8, 1u << size, 0xe, 0, write);
}

static int untyped(const Msg *m, bool a64, bool write)
{
    unsigned mode = (m->ctrl >> 4) & 3;

    return scattered(m, mode == 1 ? 16 : mode == 2 ? 8 : 0, 4,
                     m->ctrl & 0xf, a64 ? SC_A64 : 0, write);
}

static int dc0(const Msg *m, bool read_only)
{
    switch (m->type) {
    case DC0_OWORD_BLOCK_READ:
        return oword_block(m, false, false);
    case DC0_UNALIGNED_OWORD_BLOCK_READ:
        return oword_block(m, false, true);
    case DC0_DWORD_SCATTERED_READ:
        /*
         * Legacy SIMD mode (control bit 1), SIMD16 in bit 0; offsets in
         * DWords (Mesa brw_fs_nir.cpp: "The offset for a DWORD scattered
         * message is in dwords").
         */
        return scattered(m, m->ctrl & 1 ? 16 : 8, 4, 0xe, SC_DWORDS, false);
    }
    if (read_only) {
        return -2;
    }
    switch (m->type) {
    case DC0_BYTE_SCATTERED_READ:
        return byte_scattered(m, false);
    case DC0_MEMORY_FENCE:
        return memory_fence(m);
    case DC0_OWORD_BLOCK_WRITE:
        return oword_block(m, true, false);
    case DC0_DWORD_SCATTERED_WRITE:
        return scattered(m, m->ctrl & 1 ? 16 : 8, 4, 0xe, SC_DWORDS, true);
    case DC0_BYTE_SCATTERED_WRITE:
        return byte_scattered(m, true);
    }
    return -2;
}

static int dc1(const Msg *m)
{
    unsigned size;

    switch (m->type) {
    case DC1_UNTYPED_READ:
        return untyped(m, false, false);
    case DC1_UNTYPED_WRITE:
        return untyped(m, false, true);
    case DC1_UNTYPED_ATOMIC:
        return atomic(m, AT_UNTYPED);
    case DC1_TYPED_ATOMIC:
        return atomic(m, AT_TYPED);
    case DC1_A64_UNTYPED_ATOMIC:
        return atomic(m, AT_A64);
    case DC1_A64_UNTYPED_READ:
        return untyped(m, true, false);
    case DC1_A64_UNTYPED_WRITE:
        return untyped(m, true, true);
    case DC1_MEDIA_BLOCK_READ:
        return media_block(m, false);
    case DC1_MEDIA_BLOCK_WRITE:
        return media_block(m, true);
    case DC1_TYPED_READ:
        return typed(m, false);
    case DC1_TYPED_WRITE:
        return typed(m, true);
    case DC1_A64_SCATTERED_READ:
    case DC1_A64_SCATTERED_WRITE:
        /* Subtype 1:0 byte, data size 3:2, SIMD16 bit 4. */
        size = (m->ctrl >> 2) & 3;
        if ((m->ctrl & 3) || size > 2) {
            return -2;
        }
        return scattered(m, m->ctrl & 0x10 ? 16 : 8, 1u << size, 0xe, SC_A64,
                         m->type == DC1_A64_SCATTERED_WRITE);
    }
    return -2;
}

static int render_cache(const Msg *m)
{
    /* The render cache's type is 17:14; bit 18 is coarse pixel writes. */
    switch (m->type & 0xf) {
    case RC_RT_WRITE:
        return rt_write(m);
    case RC_RT_READ:
        return rt_read(m);
    case RC_MEDIA_BLOCK_READ:
        return media_block(m, false);
    case RC_MEDIA_BLOCK_WRITE:
        return media_block(m, true);
    }
    return -2;
}

int intel_sf_dataport(IntelSfThread *th, EuThread *t, const EuInst *inst,
                      uint32_t desc, uint32_t ex_desc)
{
    Msg m = {
        .th = th, .t = t, .inst = inst, .desc = desc, .ex_desc = ex_desc,
        .bti = desc & 0xff, .ctrl = (desc >> 8) & 0x3f,
        .type = (desc >> 14) & 0x1f, .header = (desc >> 19) & 1,
        .chans = intel_sf_channels(t, inst),
    };
    int r = -2;

    switch (inst->sfid) {
    case EU_SFID_DP_DATA:
        r = (desc >> 18) & 1 ? scratch_block(&m) : dc0(&m, false);
        break;
    case EU_SFID_DP_CONST:
    case EU_SFID_DP_SAMPLER:
        r = dc0(&m, true);
        break;
    case EU_SFID_DP_DATA1:
        r = dc1(&m);
        break;
    case EU_SFID_DP_RENDER:
        r = render_cache(&m);
        break;
    }
    if (r == -2) {
        intel_sf_log(th, GPU_LOG_UNIMP,
                     "data port (SFID %u) message type %u, descriptor "
                     "0x%08x", inst->sfid, m.type, desc);
        return -1;
    }
    return r;
}
