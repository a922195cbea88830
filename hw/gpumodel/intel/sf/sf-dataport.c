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
#include <inttypes.h>
#include "sf-dataport-int.h"

#define BTI_SLM                 254
#define BTI_STATELESS           255
#define BTI_STATELESS_NC        253
#define A64_LIMIT               (1ull << 48)
#define SLM_OFFSET_MASK         0xffff

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
    DC1_A64_SCATTERED_WRITE = 0x1a, DC1_A64_OWORD_BLOCK_READ = 0x14,
    DC1_A64_OWORD_BLOCK_WRITE = 0x15,
    /* The subtypes of the A64 scattered messages. */
    A64_SUBTYPE_BYTE = 0, A64_SUBTYPE_DWORD = 1, A64_SUBTYPE_QWORD = 2,
    /* Render cache (Gen9+: typed messages are data cache 1's). */
    RC_MEDIA_BLOCK_READ = 4, RC_MEDIA_BLOCK_WRITE = 10, RC_RT_WRITE = 12,
    RC_RT_READ = 13,
};

static void dataport_set_grf_ud(uint8_t *r, unsigned i, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(r + i * 4, &v, 4);
}

unsigned dataport_payload_len(const Msg *m)
{
    unsigned n = (m->desc >> 25) & 0xf;

    if (m->inst->opcode == EU_OP_SENDS || m->inst->opcode == EU_OP_SENDSC) {
        n += (m->ex_desc >> 6) & 0x1f;
    }
    return n;
}

/* Dword @i of message register @reg; false if the payload lacks it. */
bool dataport_payload_ud(const Msg *m, unsigned reg, unsigned i, uint32_t *v)
{
    uint8_t *r = intel_sf_payload(m->t, m->inst, m->desc, m->ex_desc, reg);

    if (!r) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "data port message 0x%08x: payload register %u missing",
                     m->desc, reg);
        return false;
    }
    *v = dataport_grf_ud(r, i);
    return true;
}

/* Channel @c's dword of a per-channel parameter at register @reg. */
bool dataport_payload_chan(const Msg *m, unsigned reg, unsigned c, uint32_t *v)
{
    return dataport_payload_ud(m, reg + c / 8, c % 8, v);
}

void dataport_response_ud(const Msg *m, unsigned reg, unsigned i, uint32_t v)
{
    uint8_t *r = intel_sf_response(m->t, m->inst, m->desc, reg);

    if (r) {
        dataport_set_grf_ud(r, i, v);
    }
}

/* @cached: through the thread's state cache (render target messages). */
bool dataport_bind_from(const Msg *m, Target *tg, bool cached)
{
    memset(tg, 0, sizeof(*tg));
    if (m->bti == BTI_STATELESS || m->bti == BTI_STATELESS_NC) {
        tg->flat = true;
        tg->s.base = m->th->general_state_base;
        return true;
    }
    if (m->bti == BTI_SLM) {
        tg->slm = true;
        return true;
    }
    return cached ? intel_surface_load_cached(m->th, m->bti, &tg->s) :
                    intel_surface_load(m->th, m->bti, &tg->s);
}

/*
 * A stateless message with a header addresses from the general state base
 * plus the buffer base of M0.5 (Mesa: "The A32 messages take a buffer base
 * address in header.5", the Skylake PRM's MH_A32_GO; block messages
 * ignore its bits 9:0, @mask): how a Gen9-11 kernel reaches its scratch
 * slot (R0.5) with OWord block and scattered messages.  False if the
 * header is missing (logged).
 */
bool dataport_stateless_base(const Msg *m, Target *tg, uint32_t mask)
{
    uint32_t m05;

    if (!tg->flat || !m->header) {
        return true;
    }
    if (!dataport_payload_ud(m, 0, 5, &m05)) {
        return false;
    }
    tg->s.base += m05 & mask;
    return true;
}

/*
 * @len bytes at byte @off of the thread group's shared local memory.
 * Only the offset's low 16 bits address it (at most 64 KB a group: the
 * interface descriptor's Shared Local Memory Size): IGC sets bit 28 of
 * every local variable's address so that none is a null pointer
 * (intel-graphics-compiler InlineLocalsResolution.cpp,
 * VALID_LOCAL_HIGH_BITS) and leaves it in the messages' offsets.
 * The model's answer past the group's allocation (the PRM leaves it
 * undefined): reads return 0, writes are dropped, logged once a step;
 * never another group's or the host's memory.
 */
static bool dataport_slm_rw(const Msg *m, uint64_t off, void *buf,
                            unsigned len, bool write)
{
    uint32_t size = m->th->slm ? m->th->slm_size : 0;
    unsigned n;

    off &= SLM_OFFSET_MASK;
    n = off < size ? MIN(len, size - off) : 0;

    if (n < len) {
        /* Once a step of the dispatch (one IntelSfThread), not a channel. */
        if (!m->th->slm_bounds_logged) {
            m->th->slm_bounds_logged = true;
            intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                         "shared local memory access at 0x%" PRIx64
                         " beyond its %u bytes", off, size);
        }
        if (!write) {
            memset((uint8_t *)buf + n, 0, len - n);
        }
    }
    if (n) {
        if (write) {
            memcpy(m->th->slm + off, buf, n);
        } else {
            memcpy(buf, m->th->slm + off, n);
        }
    }
    return true;
}

/*
 * @len bytes at byte @off of @tg as a flat range: buffers by their
 * entries, 2D surfaces row after row by their pitch.  Outside the surface
 * reads return 0 and writes are dropped; false on a page fault.
 */
bool dataport_target_rw(const Msg *m, const Target *tg, uint64_t off,
                        void *buf, unsigned len, bool write)
{
    const IntelSurface *s = &tg->s;
    uint8_t *p = buf;

    if (tg->slm) {
        return dataport_slm_rw(m, off, buf, len, write);
    }
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

void dataport_count(const Msg *m, bool write)
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
bool dataport_header_mask(const Msg *m, unsigned shift, uint32_t *chans)
{
    uint32_t m07;

    if (!m->header) {
        return true;
    }
    if (!dataport_payload_ud(m, 0, 7, &m07)) {
        return false;
    }
    *chans &= m07 >> shift;
    return true;
}

/* ---- routing ---- */

static int dataport_memory_fence(const Msg *m)
{
    /* Memory is coherent in the model: the fence completes at once. */
    for (unsigned i = 0; i < 8; i++) {
        dataport_response_ud(m, 0, i, 0);
    }
    return 0;
}

static int dataport_byte_scattered(const Msg *m, bool write)
{
    /* Data size in control bits 3:2, SIMD16 in bit 0. */
    unsigned size = (m->ctrl >> 2) & 3;

    if (size > 2) {
        intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                     "byte scattered data size %u", size);
        return -1;
    }
    return dataport_scattered(m, m->ctrl & 1 ? 16 : 8, 1u << size, 1, 0,
                              write);
}

static int dataport_untyped(const Msg *m, bool a64, bool write)
{
    unsigned mode = (m->ctrl >> 4) & 3;

    /* Control bits 3:0 mask the components off. */
    return dataport_scattered(m, mode == 1 ? 16 : mode == 2 ? 8 : 0, 4,
                              ~m->ctrl & 0xf, a64 ? SC_A64 : 0, write);
}

static int dataport_dc0(const Msg *m, bool read_only)
{
    switch (m->type) {
    case DC0_OWORD_BLOCK_READ:
        return dataport_oword_block(m, false, false, false);
    case DC0_UNALIGNED_OWORD_BLOCK_READ:
        return dataport_oword_block(m, false, true, false);
    case DC0_DWORD_SCATTERED_READ:
        /*
         * Legacy SIMD mode (control bit 1), SIMD16 in bit 0; offsets in
         * DWords (Mesa brw_fs_nir.cpp: "The offset for a DWORD scattered
         * message is in dwords").
         */
        return dataport_scattered(m, m->ctrl & 1 ? 16 : 8, 4, 1, SC_DWORDS,
                                  false);
    }
    if (read_only) {
        return -2;
    }
    switch (m->type) {
    case DC0_BYTE_SCATTERED_READ:
        return dataport_byte_scattered(m, false);
    case DC0_MEMORY_FENCE:
        return dataport_memory_fence(m);
    case DC0_OWORD_BLOCK_WRITE:
        return dataport_oword_block(m, true, false, false);
    case DC0_DWORD_SCATTERED_WRITE:
        return dataport_scattered(m, m->ctrl & 1 ? 16 : 8, 4, 1, SC_DWORDS,
                                  true);
    case DC0_BYTE_SCATTERED_WRITE:
        return dataport_byte_scattered(m, true);
    }
    return -2;
}

/*
 * A64 scattered messages (Mesa brw_dp_a64_byte_scattered_rw_desc; the
 * Skylake PRM's MDC_A64_DS): control bits 1:0 the subtype (byte, DWord,
 * QWord; HWord not modelled), 3:2 the data size (bytes: 1, 2 or 4 of a
 * DWord; DWord and QWord: 1, 2, 4 or 8 elements a channel), bit 4 SIMD16.
 */
static int dataport_a64_scattered(const Msg *m, bool write)
{
    unsigned subtype = m->ctrl & 3, ds = (m->ctrl >> 2) & 3;
    unsigned simd = m->ctrl & 0x10 ? 16 : 8;

    switch (subtype) {
    case A64_SUBTYPE_BYTE:
        if (ds > 2) {
            intel_sf_log(m->th, GPU_LOG_GUEST_ERROR,
                         "A64 byte scattered data size %u", ds);
            return -1;
        }
        return dataport_scattered(m, simd, 1u << ds, 1, SC_A64, write);
    case A64_SUBTYPE_DWORD:
    case A64_SUBTYPE_QWORD:
        return dataport_scattered(m, simd, subtype == A64_SUBTYPE_DWORD ? 4 : 8,
                                  (1u << (1u << ds)) - 1, SC_A64, write);
    }
    return -2;
}

static int dataport_dc1(const Msg *m)
{
    switch (m->type) {
    case DC1_UNTYPED_READ:
        return dataport_untyped(m, false, false);
    case DC1_UNTYPED_WRITE:
        return dataport_untyped(m, false, true);
    case DC1_UNTYPED_ATOMIC:
        return dataport_atomic(m, AT_UNTYPED);
    case DC1_TYPED_ATOMIC:
        return dataport_atomic(m, AT_TYPED);
    case DC1_A64_UNTYPED_ATOMIC:
        return dataport_atomic(m, AT_A64);
    case DC1_A64_UNTYPED_READ:
        return dataport_untyped(m, true, false);
    case DC1_A64_UNTYPED_WRITE:
        return dataport_untyped(m, true, true);
    case DC1_MEDIA_BLOCK_READ:
        return dataport_media_block(m, false);
    case DC1_MEDIA_BLOCK_WRITE:
        return dataport_media_block(m, true);
    case DC1_TYPED_READ:
        return dataport_typed(m, false);
    case DC1_TYPED_WRITE:
        return dataport_typed(m, true);
    case DC1_A64_SCATTERED_READ:
    case DC1_A64_SCATTERED_WRITE:
        return dataport_a64_scattered(m, m->type == DC1_A64_SCATTERED_WRITE);
    case DC1_A64_OWORD_BLOCK_READ:
    case DC1_A64_OWORD_BLOCK_WRITE:
        /* Control bits 4:3: 0 OWord-aligned, 1 DWord-aligned address. */
        if (((m->ctrl >> 3) & 3) > 1) {
            return -2;
        }
        return dataport_oword_block(m, m->type == DC1_A64_OWORD_BLOCK_WRITE,
                                    (m->ctrl >> 3) & 1, true);
    }
    return -2;
}

static int dataport_render_cache(const Msg *m)
{
    /* The render cache's type is 17:14; bit 18 is coarse pixel writes. */
    switch (m->type & 0xf) {
    case RC_RT_WRITE:
        return dataport_rt_write(m);
    case RC_RT_READ:
        return dataport_rt_read(m);
    case RC_MEDIA_BLOCK_READ:
        return dataport_media_block(m, false);
    case RC_MEDIA_BLOCK_WRITE:
        return dataport_media_block(m, true);
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
        r = (desc >> 18) & 1 ? dataport_scratch_block(&m)
                             : dataport_dc0(&m, false);
        break;
    case EU_SFID_DP_CONST:
    case EU_SFID_DP_SAMPLER:
        r = dataport_dc0(&m, true);
        break;
    case EU_SFID_DP_DATA1:
        r = dataport_dc1(&m);
        break;
    case EU_SFID_DP_RENDER:
        r = dataport_render_cache(&m);
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
