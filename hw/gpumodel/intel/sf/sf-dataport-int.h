/*
 * intel-gpu data ports internals: what the data port files share.
 *
 *   sf-dataport.c          a message's payload, response and target,
 *                          and the routing by data port and message type
 *   sf-dataport-block.c    OWord block, scratch block, media block
 *   sf-dataport-surface.c  scattered, untyped, atomic and typed messages
 *   sf-dataport-rt.c       render target writes and reads
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPUMODEL_INTEL_SF_DATAPORT_INT_H
#define GPUMODEL_INTEL_SF_DATAPORT_INT_H

#include "sf.h"

/* Where a message's offsets land. */
typedef struct Target {
    IntelSurface s;
    bool flat;                  /* stateless or A64: base + offset */
    bool slm;                   /* shared local memory: its offset */
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

static inline uint32_t dataport_grf_ud(const uint8_t *r, unsigned i)
{
    uint32_t v;

    memcpy(&v, r + i * 4, 4);
    return GUINT32_FROM_LE(v);
}

/* sf-dataport.c: payload, response, target. */
unsigned dataport_payload_len(const Msg *m);
bool dataport_payload_ud(const Msg *m, unsigned reg, unsigned i,
                         uint32_t *v);
bool dataport_payload_chan(const Msg *m, unsigned reg, unsigned c,
                           uint32_t *v);
void dataport_response_ud(const Msg *m, unsigned reg, unsigned i,
                          uint32_t v);
bool dataport_bind_from(const Msg *m, Target *tg, bool cached);
bool dataport_target_rw(const Msg *m, const Target *tg, uint64_t off,
                        void *buf, unsigned len, bool write);
void dataport_count(const Msg *m, bool write);
bool dataport_stateless_base(const Msg *m, Target *tg, uint32_t mask);
bool dataport_header_mask(const Msg *m, unsigned shift, uint32_t *chans);

static inline bool dataport_bind(const Msg *m, Target *tg)
{
    return dataport_bind_from(m, tg, false);
}

/* sf-dataport-block.c */
int dataport_oword_block(const Msg *m, bool write, bool unaligned, bool a64);
int dataport_scratch_block(const Msg *m);
int dataport_media_block(const Msg *m, bool write);

/* sf-dataport-surface.c */
/* dataport_scattered()'s addressing: 64-bit addresses; offsets in DWords. */
enum { SC_A64 = 1, SC_DWORDS = 2 };
int dataport_scattered(const Msg *m, unsigned simd, unsigned elem_bytes,
                       unsigned cmask, unsigned how, bool write);
/* The atomics' addressing: per-channel offsets, A64 addresses, texels. */
enum { AT_UNTYPED, AT_A64, AT_TYPED };
int dataport_atomic(const Msg *m, unsigned kind);
int dataport_typed(const Msg *m, bool write);

/* sf-dataport-rt.c */
int dataport_rt_write(const Msg *m);
int dataport_rt_read(const Msg *m);

#endif
