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

typedef struct Fixture Fixture;

/* Commands (PRM "Memory Interface Commands"; i915 intel_gpu_commands.h). */
#define MI_NOOP                 0x00000000u
#define MI_USER_INTERRUPT       0x01000000u
#define MI_ARB_CHECK            0x02800000u
#define MI_ARB_ON               0x04000001u
#define MI_BB_END               0x05000000u
#define MI_PREDICATE            0x06000000u
#define MI_MATH(n)              (0x0D000000u | ((n) - 1))
#define MI_SEM_SIGNAL           0x0D800000u
#define MI_SEM_WAIT             0x0E000002u
#define   SEM_GGTT              (1u << 22)
#define   SEM_POLL              (1u << 15)
#define MI_SDI                  0x10000002u
#define   MI_GGTT               (1u << 22)
#define MI_LRI(n)               (0x11000000u | (2 * (n) - 1))
#define MI_SRM                  0x12000002u
#define MI_FLUSH_DW             0x13000002u
#define MI_LRM                  0x14800002u
#define MI_LRR                  0x15000001u
#define MI_COPY_MEM_MEM         0x17000003u
#define MI_ATOMIC               0x17800000u
#define   ATOMIC_RETURN         (1u << 16)
#define   ATOMIC_INLINE         (1u << 18)
#define   ATOMIC_QWORD          (1u << 19)
#define MI_BB_START             0x18800001u
#define   BB_PPGTT              (1u << 8)
#define   BB_PREDICATE          (1u << 15)
#define   BB_SECOND_LEVEL       (1u << 22)
#define MI_REPORT_PERF_COUNT    0x14000002u
#define PIPE_CONTROL            0x7A000004u
#define   PC_PREDICATE          (1u << 8)       /* dw0 */
#define   PC_QW_WRITE           (1u << 14)      /* dw1 */
#define   PC_TLB_INVALIDATE     (1u << 18)
#define   PC_CS_STALL           (1u << 20)
#define   PC_GLOBAL_GTT         (1u << 24)

/* CS ALU (PRM "Table for ALU OPCODE Encodings", "Register Encodings"). */
#define ALU(op, a, b)   ((uint32_t)(op) << 20 | (a) << 10 | (b))
#define ALU_LOAD        0x080
#define ALU_LOADINV     0x480
#define ALU_LOAD0       0x081
#define ALU_LOAD1       0x481
#define ALU_ADD         0x100
#define ALU_SUB         0x101
#define ALU_AND         0x102
#define ALU_OR          0x103
#define ALU_XOR         0x104
#define ALU_SHL         0x105
#define ALU_SHR         0x106
#define ALU_SAR         0x107
#define ALU_STORE       0x180
#define ALU_STOREINV    0x580
#define SRCA            0x20
#define SRCB            0x21
#define ACCU            0x31
#define ZF              0x32
#define CF              0x33

/*
 * Work the model counts but does not execute (3D and GPGPU), as dword
 * lists for an array: a 3DPRIMITIVE of @vertices x @instances, a
 * GPGPU_WALKER of @x x @y thread groups of @threads threads.
 */
#define GFX_3DPRIMITIVE(vertices, instances) \
    0x7B000005u, 0, (vertices), 0, (instances), 0, 0
#define GPGPU_WALKER(threads, x, y) \
    0x7105000Du, 0, 0, 0, (threads) - 1, 0, 0, (x), 0, 0, (y), 0, 1, ~0u, ~0u

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

/* Command sequences are QWord aligned (PRM "Command Header"). */
static inline void qword_align(Buf *b)
{
    if (b->pos & 4) {
        EMIT(b, MI_NOOP);
    }
}

/* MI_STORE_DATA_IMM of a dword to a GGTT address. */
static inline void sdi(Buf *b, uint64_t addr, uint32_t v)
{
    EMIT(b, MI_SDI | MI_GGTT, addr, addr >> 32, v);
}

/* MI_STORE_DATA_IMM of a dword to a PPGTT address. */
static inline void sdi_ppgtt(Buf *b, uint64_t addr, uint32_t v)
{
    EMIT(b, MI_SDI, addr, addr >> 32, v);
}

static inline void lri(Buf *b, uint32_t reg, uint32_t v)
{
    EMIT(b, MI_LRI(1), reg, v);
}

static inline void bb_start(Buf *b, uint64_t addr, uint32_t flags)
{
    EMIT(b, MI_BB_START | flags, addr, addr >> 32);
}

/* MI_SEMAPHORE_WAIT, GGTT, polling: continue when *addr <op> sdd. */
static inline void sem_wait(Buf *b, unsigned op, uint32_t sdd, uint64_t addr)
{
    EMIT(b, MI_SEM_WAIT | SEM_GGTT | SEM_POLL | op << 12, sdd, addr,
         addr >> 32);
}

#endif
