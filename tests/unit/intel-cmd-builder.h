/*
 * Command streams for the intel-gpu unit tests: a buffer in guest memory
 * that commands are emitted into, a dword at a time, and builders for the
 * commands the tests use most.  GFXPIPE commands and state are packed
 * from their fields (gen11-state.h, generated from
 * hw/gpumodel/intel/gen11-state.desc).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_INTEL_CMD_BUILDER_H
#define TESTS_UNIT_INTEL_CMD_BUILDER_H

#include <stdbool.h>
#include <stdint.h>
#include "hw/gpumodel/intel-gpu-cmds.h"
#include "hw/gpumodel/intel/gen11-state.h"
#include "tests/qtest/intel-gpu-igt-cmds.h"

typedef struct Fixture Fixture;

/*
 * Work the model counts but does not execute, packed at @dw (each returns
 * the dword after it, so that a list is built in an array): a 3DPRIMITIVE
 * of @vertices x @instances after a 3DSTATE_VS that enables a vertex
 * shader (its SIMD8 threads are counted, not run), PRIMITIVE_DWORDS in
 * all; a GPGPU_WALKER of @x x @y thread groups of @threads threads.
 */
#define PRIMITIVE_DWORDS (GEN11_3DSTATE_VS_LENGTH + GEN11_3DPRIMITIVE_LENGTH)
#define WALKER_DWORDS    GEN11_GPGPU_WALKER_LENGTH

static inline uint32_t *pack_primitive(uint32_t *dw, uint32_t vertices,
                                       uint32_t instances)
{
    Gen11_3DSTATE_VS vs = { .enable = true };
    Gen11_3DPRIMITIVE prim = {
        .vertex_count_per_instance = vertices,
        .instance_count = instances,
    };

    gen11_3dstate_vs_pack(dw, &vs);
    gen11_3dprimitive_pack(dw + GEN11_3DSTATE_VS_LENGTH, &prim);
    return dw + PRIMITIVE_DWORDS;
}

static inline uint32_t *pack_walker(uint32_t *dw, uint32_t threads,
                                    uint32_t x, uint32_t y)
{
    Gen11_GPGPU_WALKER w = {
        .thread_width_counter_maximum = threads - 1,
        .thread_group_id_x_dimension = x,
        .thread_group_id_y_dimension = y,
        .thread_group_id_z_dimension = 1,
        .right_execution_mask = ~0u,
        .bottom_execution_mask = ~0u,
    };

    gen11_gpgpu_walker_pack(dw, &w);
    return dw + WALKER_DWORDS;
}

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
    Gen11_PIPE_CONTROL pc = {
        .command_streamer_stall_enable = true,
        .post_sync_operation = POST_SYNC_WRITE_IMM,
        .destination_address_type = 1,          /* the GGTT */
        .address = addr,
        .immediate_data = v,
    };
    uint32_t dw[GEN11_PIPE_CONTROL_LENGTH];

    gen11_pipe_control_pack(dw, &pc);
    dw[0] |= dw0;
    emit_n(b, dw, GEN11_PIPE_CONTROL_LENGTH);
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
