/*
 * Command streams for the intel-gpu unit tests: a buffer in guest memory
 * that commands are emitted into, a dword at a time, and builders for the
 * commands the tests use most.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_INTEL_CMD_BUILDER_H
#define TESTS_UNIT_INTEL_CMD_BUILDER_H

#include <stdint.h>
#include "hw/gpumodel/intel-gpu-cmds.h"

typedef struct Fixture Fixture;

/*
 * Work the model counts but does not execute, as dword lists for an
 * array: a 3DPRIMITIVE of @vertices x @instances after a 3DSTATE_VS that
 * enables a vertex shader (its SIMD8 threads are counted, not run), a
 * GPGPU_WALKER of @x x @y thread groups of @threads threads.
 */
#define VS_ENABLE_DW \
    GFXPIPE_INSTR(GFXPIPE_3D, 0, 0x10) | INSTR_LEN(9), 0, 0, 0, 0, 0, 0, 1, 0
#define PRIMITIVE_DW(vertices, instances) \
    VS_ENABLE_DW, \
    GFX_OP_3DPRIMITIVE | INSTR_LEN(7), 0, (vertices), 0, (instances), 0, 0
#define WALKER_DW(threads, x, y) \
    GPGPU_WALKER | INSTR_LEN(15), 0, 0, 0, (threads) - 1, 0, 0, (x), 0, 0, \
    (y), 0, 1, ~0u, ~0u

/* Commands at @base in guest memory; @pos is where the next one goes. */
typedef struct Buf {
    Fixture *f;
    uint64_t base;
    uint32_t pos;               /* bytes */
} Buf;

Buf buf_at(Fixture *f, uint64_t base);
void emit_n(Buf *b, const uint32_t *dw, unsigned n);

#define EMIT(b, ...) \
    emit_n((b), (const uint32_t[]) { __VA_ARGS__ }, \
           sizeof((const uint32_t[]) { __VA_ARGS__ }) / 4)

/* Command sequences are QWord aligned (PRM Vol 2a, "Command Header"). */
static inline void qword_align(Buf *b)
{
    if (b->pos & 4) {
        EMIT(b, MI_NOOP);
    }
}

/* MI_STORE_DATA_IMM of a dword to a GGTT address. */
static inline void sdi(Buf *b, uint64_t addr, uint32_t v)
{
    EMIT(b, MI_STORE_DWORD_IMM_GEN4 | MI_USE_GGTT, addr, addr >> 32, v);
}

/* MI_STORE_DATA_IMM of a dword to a PPGTT address. */
static inline void sdi_ppgtt(Buf *b, uint64_t addr, uint32_t v)
{
    EMIT(b, MI_STORE_DWORD_IMM_GEN4, addr, addr >> 32, v);
}

static inline void lri(Buf *b, uint32_t reg, uint32_t v)
{
    EMIT(b, MI_LOAD_REGISTER_IMM(1), reg, v);
}

static inline void bb_start(Buf *b, uint64_t addr, uint32_t flags)
{
    EMIT(b, MI_BATCH_BUFFER_START_GEN8 | flags, addr, addr >> 32);
}

/*
 * PIPE_CONTROL (dw0 flags @dw0) with a CS stall and a post-sync write of
 * the qword @v to GGTT @addr (i915's breadcrumb).
 */
static inline void pc_store(Buf *b, uint32_t dw0, uint64_t addr, uint64_t v)
{
    EMIT(b, GFX_OP_PIPE_CONTROL(6) | dw0,
         PIPE_CONTROL_CS_STALL | PIPE_CONTROL_QW_WRITE |
         PIPE_CONTROL_GLOBAL_GTT_IVB, addr, addr >> 32, v, v >> 32);
}

/*
 * MI_SEMAPHORE_WAIT, polling, with @flags (MI_SEMAPHORE_GLOBAL_GTT or
 * not): continue when *addr <compare> sdd, @compare one of
 * MI_SEMAPHORE_SAD_*_SDD.
 */
static inline void sem_wait_flags(Buf *b, uint32_t flags, uint32_t compare,
                                  uint32_t sdd, uint64_t addr)
{
    EMIT(b, MI_SEMAPHORE_WAIT | INSTR_LEN(4) | MI_SEMAPHORE_POLL | flags |
         compare, sdd, addr, addr >> 32);
}

/* The same in the GGTT. */
static inline void sem_wait(Buf *b, uint32_t compare, uint32_t sdd,
                            uint64_t addr)
{
    sem_wait_flags(b, MI_SEMAPHORE_GLOBAL_GTT, compare, sdd, addr);
}

#endif
