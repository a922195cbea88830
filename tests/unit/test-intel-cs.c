/*
 * Unit tests of the intel-gpu command streamers: legacy rings, command
 * lengths, the CS ALU, predication, semaphores, GGTT and PPGTT
 * translation, errors and reset, privilege, budgeted execution,
 * execlists, and the memory and blitter commands.
 *
 * Expected values come from the PRM (DG2 vol. 8 "Command Stream
 * Programming", and the Gen11 command layouts) and from what i915 does
 * and expects (i915-icl-contract.md §4, §6), computed by hand.
 *
 * Memory: the fake host's RAM is at physical 0; the fixture maps the
 * first 8 MiB of the GGTT onto it one to one, so a GGTT address below
 * 8 MiB is the physical address.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include <glib.h>
#include "fake-host.h"
#include "igt-perf.h"
#include "intel-i915.h"
#include "hw/gpumodel/intel-oa-metric-sets.h"
#include "tiling-ref.h"

typedef struct Fixture {
    FakeHost *fh;
    IntelGpu *gpu;
    uint64_t next_table;        /* PPGTT table allocator */
} Fixture;

#define RCS     INTEL_RCS0
#define BCS     INTEL_BCS0
#define USER    INTEL_GT_RENDER_USER_INTERRUPT
#define CTXSW   INTEL_GT_CONTEXT_SWITCH
#define CS_ERR  INTEL_GT_CS_MASTER_ERROR

/* Memory map (GGTT == physical below GGTT_MAPPED). */
#define GGTT_MAPPED     (8u << 20)
#define UNMAPPED        0x00F00000u     /* GGTT address with no PTE */
#define HWSP_RCS        0x001000u
#define HWSP_BCS        0x002000u
#define RING_RCS        0x010000u
#define RING_BCS        0x020000u
#define RING_SIZE       0x10000u
#define BATCH           0x030000u
#define BATCH2          0x031000u
#define BATCH3          0x032000u
#define DATA            0x040000u
#define MARK            0x041000u
#define SEM             0x050000u
#define SEM2            0x050100u
#define CTX_A           0x080000u
#define CTX_B           0x090000u
#define CTX_C           0x0A0000u
#define CRING_A         0x0C0000u
#define CRING_B         0x0D0000u
#define CRING_C         0x0E0000u
#define CRING_SIZE      0x4000u
#define TABLES          0x100000u       /* PPGTT tables, bump-allocated */
#define SURF            0x200000u       /* blit surfaces */

#define STEP_NS         1000000u        /* 1 ms: plenty for short streams */

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

/* ---- fixture, registers, memory ---- */

/* What i915's gen11_gt_irq_postinstall and master enable do. */

static void fixture_setup(Fixture *f, gconstpointer data)
{
    f->fh = fake_host_new();
    f->gpu = intel_gpu_new(&intel_test_cfg, &f->fh->host);
    for (uint32_t page = 0; page < GGTT_MAPPED / 4096; page++) {
        intel_ggtt_write_pte(f->gpu, page, (uint64_t)page * 4096 | 1);
    }
    f->next_table = TABLES;
    i915_irq_postinstall(f->gpu);
}

static void fixture_teardown(Fixture *f, gconstpointer data)
{
    intel_gpu_free(f->gpu);
    fake_host_free(f->fh);
}

static uint32_t rd(Fixture *f, uint32_t off)
{
    return intel_mmio_read(f->gpu, off);
}

static void wr(Fixture *f, uint32_t off, uint32_t val)
{
    intel_mmio_write(f->gpu, off, val, 0xffffffff);
}

static IntelEngine *eng(Fixture *f, IntelEngineId id)
{
    return &f->gpu->engine[id];
}

static uint32_t erd(Fixture *f, IntelEngineId id, uint32_t off)
{
    return rd(f, eng(f, id)->base + off);
}

static void ewr(Fixture *f, IntelEngineId id, uint32_t off, uint32_t val)
{
    wr(f, eng(f, id)->base + off, val);
}

static uint32_t gpr_reg(Fixture *f, IntelEngineId id, unsigned n)
{
    return eng(f, id)->base + INTEL_RING_CS_GPR(n);
}

static uint64_t gpr(Fixture *f, IntelEngineId id, unsigned n)
{
    return (uint64_t)rd(f, gpr_reg(f, id, n) + 4) << 32 |
           rd(f, gpr_reg(f, id, n));
}

static void set_gpr(Fixture *f, IntelEngineId id, unsigned n, uint64_t v)
{
    wr(f, gpr_reg(f, id, n), v);
    wr(f, gpr_reg(f, id, n) + 4, v >> 32);
}

static bool engine_idle(Fixture *f, IntelEngineId id)
{
    return erd(f, id, INTEL_RING_MI_MODE) & INTEL_MI_MODE_IDLE;
}

static uint32_t ram_r32(Fixture *f, uint64_t pa)
{
    uint32_t v;

    g_assert_cmpuint(pa + 4, <=, FAKE_RAM_SIZE);
    memcpy(&v, f->fh->ram + pa, 4);
    return GUINT32_FROM_LE(v);
}

static uint64_t ram_r64(Fixture *f, uint64_t pa)
{
    return (uint64_t)ram_r32(f, pa + 4) << 32 | ram_r32(f, pa);
}

static void ram_w32(Fixture *f, uint64_t pa, uint32_t v)
{
    g_assert_cmpuint(pa + 4, <=, FAKE_RAM_SIZE);
    v = GUINT32_TO_LE(v);
    memcpy(f->fh->ram + pa, &v, 4);
}

static void ram_w64(Fixture *f, uint64_t pa, uint64_t v)
{
    ram_w32(f, pa, v);
    ram_w32(f, pa + 4, v >> 32);
}

static void step(Fixture *f)
{
    fake_host_step(f->fh, STEP_NS);
}

/* ---- interrupts, as i915 handles them ---- */

/*
 * Service GT INT DW0 bit @bit (RCS 0, BCS 15) if it is set: the identity
 * (0 if the bit was clear), and the bit acknowledged.
 */
static uint32_t take_irq(Fixture *f, unsigned bit)
{
    uint32_t id;

    if (!(rd(f, INTEL_GT_INTR_DW(0)) & (1u << bit))) {
        return 0;
    }
    id = i915_service_bit(f->gpu, 0, bit);
    wr(f, INTEL_GT_INTR_DW(0), 1u << bit);
    return id;
}

/* ---- command buffers ---- */

typedef struct Buf {
    Fixture *f;
    uint64_t base;
    uint32_t pos;               /* bytes */
} Buf;

static Buf buf_at(Fixture *f, uint64_t base)
{
    return (Buf) { .f = f, .base = base };
}

static void emit_n(Buf *b, const uint32_t *dw, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        ram_w32(b->f, b->base + b->pos, dw[i]);
        b->pos += 4;
    }
}

#define EMIT(b, ...) \
    emit_n((b), (const uint32_t[]) { __VA_ARGS__ }, \
           sizeof((const uint32_t[]) { __VA_ARGS__ }) / 4)

/* Command sequences are QWord aligned (PRM "Command Header"). */
static void qword_align(Buf *b)
{
    if (b->pos & 4) {
        EMIT(b, MI_NOOP);
    }
}

static void sdi(Buf *b, uint64_t addr, uint32_t v)
{
    EMIT(b, MI_SDI | MI_GGTT, addr, addr >> 32, v);
}

static void sdi_ppgtt(Buf *b, uint64_t addr, uint32_t v)
{
    EMIT(b, MI_SDI, addr, addr >> 32, v);
}

static void lri(Buf *b, uint32_t reg, uint32_t v)
{
    EMIT(b, MI_LRI(1), reg, v);
}

static void bb_start(Buf *b, uint64_t addr, uint32_t flags)
{
    EMIT(b, MI_BB_START | flags, addr, addr >> 32);
}

/* MI_SEMAPHORE_WAIT, GGTT, polling: continue when *addr <op> sdd. */
static void sem_wait(Buf *b, unsigned op, uint32_t sdd, uint64_t addr)
{
    EMIT(b, MI_SEM_WAIT | SEM_GGTT | SEM_POLL | op << 12, sdd, addr,
         addr >> 32);
}

/* A legacy ring (RING_MODE bit 3 clear): the TAIL write is the doorbell. */
typedef struct Ring {
    Buf b;
    IntelEngineId id;
} Ring;

static void ring_init(Fixture *f, Ring *r, IntelEngineId id, uint64_t start)
{
    r->b = buf_at(f, start);
    r->id = id;
    ewr(f, id, INTEL_RING_HWS_PGA, id == RCS ? HWSP_RCS : HWSP_BCS);
    ewr(f, id, INTEL_RING_CTL, 0);
    ewr(f, id, INTEL_RING_HEAD, 0);
    ewr(f, id, INTEL_RING_TAIL, 0);
    ewr(f, id, INTEL_RING_START, start);
    ewr(f, id, INTEL_RING_CTL, (RING_SIZE - 4096) | 1);
}

static void ring_submit(Ring *r)
{
    qword_align(&r->b);
    ewr(r->b.f, r->id, INTEL_RING_TAIL, r->b.pos);
}

static void ring_run(Ring *r)
{
    ring_submit(r);
    step(r->b.f);
}

static uint32_t head_offset(Fixture *f, IntelEngineId id)
{
    return erd(f, id, INTEL_RING_HEAD) & 0x1ffffc;
}

static uint64_t commands(Fixture *f, IntelEngineId id)
{
    return eng(f, id)->stats.commands;
}

/* ---- 1. legacy ring ---- */

static void test_legacy_ring(Fixture *f, gconstpointer data)
{
    Ring r;

    g_assert_cmphex(erd(f, RCS, INTEL_RING_MODE) &
                    INTEL_GFX_DISABLE_LEGACY_MODE, ==, 0);
    ring_init(f, &r, RCS, RING_RCS);
    EMIT(&r.b, 0x10400002, DATA, 0, 0xC0FFEE01);
    EMIT(&r.b, 0x01000000);
    ring_submit(&r);
    g_assert_cmpuint(r.b.pos, ==, 24);
    /* The doorbell only schedules: nothing before the clock moves. */
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);

    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0xC0FFEE01);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_HEAD), ==, 24);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_TAIL), ==, 24);
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
    g_assert_true(f->fh->irq);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 0);
    g_assert_cmphex(i915_service_bit(f->gpu, 0, 0), ==,
                    INTEL_INTR_DATA_VALID | USER);
    wr(f, INTEL_GT_INTR_DW(0), 1u << 0);
    g_assert_false(f->fh->irq);

    /* Only what lies between HEAD and the new TAIL executes. */
    ram_w32(f, DATA, 0);
    sdi(&r.b, DATA + 4, 2);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 2);
    g_assert_cmphex(head_offset(f, RCS), ==, 40);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);

    /*
     * HEAD wraps at the ring's size; its wrap count (bits 31:21) counts
     * the wraps.  A 4 KiB ring (RING_CTL size field 0), HEAD = TAIL 16
     * bytes before the end.
     */
    ewr(f, RCS, INTEL_RING_CTL, 0);
    ewr(f, RCS, INTEL_RING_HEAD, 4096 - 16);
    ewr(f, RCS, INTEL_RING_TAIL, 4096 - 16);
    ewr(f, RCS, INTEL_RING_CTL, 0 | 1);
    r.b.pos = 4096 - 16;
    sdi(&r.b, DATA + 8, 3);
    r.b.pos = 0;
    sdi(&r.b, DATA + 12, 4);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 3);
    g_assert_cmphex(ram_r32(f, DATA + 12), ==, 4);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_HEAD), ==, 1u << 21 | 16);
    g_assert_true(engine_idle(f, RCS));
}

/* ---- 2. command lengths ---- */

typedef struct LenCase {
    IntelEngineId id;
    const char *name;       /* the PRM's name; NULL: a 3D/media command */
    unsigned len;           /* dwords, from the command's layout */
    uint32_t dw[12];
    bool in_batch;          /* run from a batch rather than the ring */
    bool batch_unchecked;   /* starts a batch the model does not run */
} LenCase;

#define RCS_GPR(n)  (INTEL_RCS0_BASE + 0x600 + 8 * (n))

/* A case: engine, PRM name, length in dwords, the command. */
#define LC(e, n, l, ...) \
    { .id = (e), .name = (n), .len = (l), .dw = { __VA_ARGS__ } }

static const LenCase len_cases[] = {
    LC(RCS, "MI_NOOP", 1, 0x00000000),
    LC(RCS, "MI_NOOP", 1, 0x00400123),                  /* NOPID write */
    LC(RCS, "MI_SET_PREDICATE", 1, 0x00800000),
    LC(RCS, "MI_USER_INTERRUPT", 1, 0x01000000),
    LC(RCS, "MI_WAIT_FOR_EVENT", 1, 0x01800000),
    LC(RCS, "MI_WAIT_FOR_EVENT_2", 1, 0x02000000),
    LC(RCS, "MI_ARB_CHECK", 1, 0x02800000),
    LC(RCS, "MI_REPORT_HEAD", 1, 0x03800000),
    LC(RCS, "MI_ARB_ON_OFF", 1, 0x04000001),
    { .id = RCS, .name = "MI_BATCH_BUFFER_END", .len = 1,
      .dw = { 0x05000000 }, .in_batch = true },
    LC(RCS, "MI_SUSPEND_FLUSH", 1, 0x05800000),
    LC(RCS, "MI_PREDICATE", 1, 0x06000000),
    LC(RCS, "MI_LOAD_SCAN_LINES_INCL", 2, 0x09000000, 0),
    LC(RCS, "MI_LOAD_SCAN_LINES_EXCL", 2, 0x09800000, 0),
    LC(RCS, "MI_DISPLAY_FLIP", 3, 0x0A000001, 0, 0),
    LC(RCS, "MI_SET_CONTEXT", 2, 0x0C000000, 0),
    LC(RCS, "MI_MATH", 4, 0x0D000002, 0, 0, 0),
    LC(RCS, "MI_SEMAPHORE_SIGNAL", 2, 0x0D800000, 0),
    LC(RCS, "MI_SEMAPHORE_WAIT", 4, 0x0E40C002, 0, SEM, 0),
    LC(BCS, "MI_FORCE_WAKEUP", 2, 0x0E800000, 0),
    LC(RCS, "MI_STORE_DATA_IMM", 4, 0x10400002, DATA, 0, 0x11),
    LC(RCS, "MI_STORE_DATA_IMM", 5, 0x10600003, DATA + 8, 0, 0x22, 0x33),
    LC(RCS, "MI_STORE_DATA_INDEX", 3, 0x10800001, 0x200, 0x44),
    LC(RCS, "MI_LOAD_REGISTER_IMM", 3, 0x11000001, RCS_GPR(0), 0x55),
    LC(RCS, "MI_LOAD_REGISTER_IMM", 5,
       0x11000003, RCS_GPR(1), 1, RCS_GPR(1) + 4, 2),
    LC(RCS, "MI_UPDATE_GTT", 4, 0x11800002, 0x7FF000, 0x7FF001, 0),
    LC(RCS, "MI_STORE_REGISTER_MEM", 4,
       0x12400002, RCS_GPR(0), DATA + 0x10, 0),
    LC(BCS, "MI_FLUSH_DW", 4, 0x13000002, 0, 0, 0),
    LC(BCS, "MI_FLUSH_DW", 5, 0x13000003, 0, 0, 0, 0),
    LC(RCS, "MI_CLFLUSH", 3, 0x13800001, DATA, 0),
    LC(RCS, "MI_REPORT_PERF_COUNT", 4,
       0x14000002, (DATA + 0x100) | 1, 0, 0),
    LC(RCS, "MI_LOAD_REGISTER_MEM", 4, 0x14C00002, RCS_GPR(2), DATA, 0),
    LC(RCS, "MI_LOAD_REGISTER_REG", 3, 0x15000001, RCS_GPR(0), RCS_GPR(3)),
    LC(RCS, "MI_MEM_TO_MEM", 5, 0x17600003, DATA + 0x20, 0, DATA, 0),
    LC(RCS, "MI_ATOMIC", 3, 0x17C00501, DATA + 0x30, 0),
    LC(RCS, "MI_ATOMIC", 11, 0x17C40709, DATA + 0x34, 0, 1),
    LC(RCS, "MI_BATCH_BUFFER_START", 3, 0x18800001, BATCH, 0),
    LC(RCS, "MI_CONDITIONAL_BATCH_BUFFER_END", 4,
       0x1B600002, 0, DATA + 0x40, 0),
    { .id = RCS, .name = "MI_PRT_BATCH_BUFFER_START", .len = 3,
      .dw = { 0x1C800001, BATCH, 0 }, .batch_unchecked = true },
    LC(RCS, "PIPE_CONTROL", 6, 0x7A000004, 0, 0, 0, 0, 0),
    LC(RCS, NULL, 1, 0x69040300),                       /* PIPELINE_SELECT */
    LC(RCS, NULL, 1, 0x680B0000),                 /* 3DSTATE_VF_STATISTICS */
    LC(RCS, NULL, 4, 0x79000002, 0, 0, 0),      /* 3DSTATE_DRAWING_RECTANGLE */
    LC(RCS, NULL, 9, 0x70000007),                       /* MEDIA_VFE_STATE */
    LC(BCS, "XY_COLOR_BLT", 7,
       0x54300005, 0x03F00040, 0, 0x00010001, SURF, 0, 0x12345678),
    LC(BCS, "XY_SRC_COPY_BLT", 10,
       0x54F00008, 0x03CC0040, 0, 0x00010001, SURF + 0x100, 0, 0, 64,
       SURF, 0),
    LC(BCS, "XY_FAST_COPY_BLT", 10,
       0x50800008, 0x03000040, 0, 0x00010001, SURF + 0x200, 0, 0, 64,
       SURF, 0),
};

static bool name_covered(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(len_cases); i++) {
        if (len_cases[i].name && !strcmp(len_cases[i].name, name)) {
            return true;
        }
    }
    return false;
}

static void test_command_lengths(Fixture *f, gconstpointer data)
{
    Ring rings[INTEL_ENGINE_COUNT];

    /* Every command in the model's table has a case here. */
    for (uint32_t op = 0; op < 64; op++) {
        const char *n = intel_cs_command_name(op << 23);

        if (n && !name_covered(n)) {
            g_error("MI opcode 0x%02x (%s) has no length case", op, n);
        }
    }
    for (uint32_t op = 0; op < 128; op++) {
        const char *n = intel_cs_command_name(2u << 29 | op << 22);

        if (n && strcmp(n, "2D") && !name_covered(n)) {
            g_error("2D opcode 0x%02x (%s) has no length case", op, n);
        }
    }

    ring_init(f, &rings[RCS], RCS, RING_RCS);
    ring_init(f, &rings[BCS], BCS, RING_BCS);
    ram_w32(f, BATCH, MI_BB_END);
    for (unsigned i = 0; i < G_N_ELEMENTS(len_cases); i++) {
        const LenCase *c = &len_cases[i];
        Ring *r = &rings[c->id];
        uint32_t head0 = head_offset(f, c->id);
        uint64_t n0 = commands(f, c->id);
        unsigned ring_len = c->in_batch ? 3 : c->len;
        unsigned pad = (head0 / 4 + ring_len) & 1, expect_cmds;

        g_test_message("case %u: %s, 0x%08x", i, c->name ? c->name : "3D",
                       c->dw[0]);
        if (c->name) {
            g_assert_cmpstr(intel_cs_command_name(c->dw[0]), ==, c->name);
        }
        /* Pad in front so that the command ends on a QWord. */
        if (pad) {
            EMIT(&r->b, MI_NOOP);
        }
        if (c->in_batch) {
            Buf bb = buf_at(f, BATCH2);

            emit_n(&bb, c->dw, c->len);
            bb_start(&r->b, BATCH2, 0);
            expect_cmds = pad + 2;
        } else {
            emit_n(&r->b, c->dw, c->len);
            expect_cmds = pad + 1 +
                          (c->dw[0] >> 23 == 0x31 ? 1 : 0);  /* batch's END */
        }
        ring_run(r);
        g_assert_cmphex(erd(f, c->id, INTEL_RING_ESR), ==, 0);
        g_assert_cmphex(head_offset(f, c->id), ==,
                        head0 + 4 * (pad + ring_len));
        g_assert_cmphex(head_offset(f, c->id), ==,
                        erd(f, c->id, INTEL_RING_TAIL));
        if (!c->batch_unchecked) {
            g_assert_cmpuint(commands(f, c->id) - n0, ==, expect_cmds);
        }
        g_assert_true(engine_idle(f, c->id));

        /* The next command is parsed where this one ends. */
        sdi(&r->b, MARK, i + 1);
        ring_run(r);
        g_assert_cmphex(ram_r32(f, MARK), ==, i + 1);
    }

    /* A few payloads, to see they were read at the right dwords. */
    g_assert_cmphex(erd(f, RCS, INTEL_RING_NOPID), ==, 0x123);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0x11);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 0x22);
    g_assert_cmphex(ram_r32(f, DATA + 12), ==, 0x33);
    g_assert_cmphex(ram_r32(f, HWSP_RCS + 0x200), ==, 0x44);
    g_assert_cmphex(gpr(f, RCS, 1), ==, 0x200000001ull);
    g_assert_cmphex(ram_r32(f, SURF), ==, 0x12345678);
    g_assert_cmphex(ram_r32(f, SURF + 0x100), ==, 0x12345678);
    g_assert_cmphex(ram_r32(f, SURF + 0x200), ==, 0x12345678);
}

/* ---- 3. MI_MATH ---- */

typedef struct AluResult {
    uint64_t accu, zf, cf;
} AluResult;

/* R0 = a, R1 = b; LOAD SRCA R0, LOAD SRCB R1, op; R2..R4 = ACCU, ZF, CF. */
static AluResult alu_binop(Ring *r, unsigned op, uint64_t a, uint64_t b)
{
    Fixture *f = r->b.f;
    IntelEngineId id = r->id;

    EMIT(&r->b, MI_LRI(4), gpr_reg(f, id, 0), a, gpr_reg(f, id, 0) + 4,
         a >> 32, gpr_reg(f, id, 1), b, gpr_reg(f, id, 1) + 4, b >> 32);
    EMIT(&r->b, MI_MATH(6), ALU(ALU_LOAD, SRCA, 0), ALU(ALU_LOAD, SRCB, 1),
         ALU(op, 0, 0), ALU(ALU_STORE, 2, ACCU), ALU(ALU_STORE, 3, ZF),
         ALU(ALU_STORE, 4, CF));
    ring_run(r);
    g_assert_cmphex(erd(f, id, INTEL_RING_ESR), ==, 0);
    return (AluResult) { gpr(f, id, 2), gpr(f, id, 3), gpr(f, id, 4) };
}

typedef struct AluCase {
    unsigned op;
    uint64_t a, b, accu;
    int zf, cf;             /* -1: the PRM does not define it */
} AluCase;

#define ALL1    0xFFFFFFFFFFFFFFFFull
#define MSB     0x8000000000000000ull

static const AluCase alu_cases[] = {
    /* ADD: CF is the carry out of bit 63. */
    { ALU_ADD, 5, 7, 12, 0, 0 },
    { ALU_ADD, ALL1, 1, 0, 1, 1 },
    { ALU_ADD, MSB, MSB, 0, 1, 1 },
    { ALU_ADD, 0xFFFFFFFF, 1, 0x100000000ull, 0, 0 },
    { ALU_ADD, ALL1, ALL1, 0xFFFFFFFFFFFFFFFEull, 0, 1 },
    /* SUB: ACCU = SRCA - SRCB; CF is the borrow. */
    { ALU_SUB, 7, 5, 2, 0, 0 },
    { ALU_SUB, 5, 7, 0xFFFFFFFFFFFFFFFEull, 0, 1 },
    { ALU_SUB, 7, 7, 0, 1, 0 },
    { ALU_SUB, 0, 1, ALL1, 0, 1 },
    { ALU_AND, 0xF0F0, 0xFF00, 0xF000, 0, 0 },
    { ALU_AND, 0xF0, 0x0F, 0, 1, 0 },
    { ALU_AND, ALL1, 0x123456789ABCDEF0ull, 0x123456789ABCDEF0ull, 0, 0 },
    { ALU_OR, 0xF0F0, 0xFF00, 0xFFF0, 0, 0 },
    { ALU_OR, 0, 0, 0, 1, 0 },
    { ALU_OR, MSB, 1, MSB | 1, 0, 0 },
    { ALU_XOR, 0xF0F0, 0xFF00, 0x0FF0, 0, 0 },
    { ALU_XOR, 0x1234, 0x1234, 0, 1, 0 },
    { ALU_XOR, ALL1, MSB, 0x7FFFFFFFFFFFFFFFull, 0, 0 },
    /*
     * Shifts: SRCA by SRCB, where only 1, 2, 4, 8, 16 and 32 exist; other
     * amounts round down to the next of these, 0 does not shift, and
     * anything above 32 shifts by 32.
     */
    { ALU_SHL, 1, 0, 1, 0, -1 },
    { ALU_SHL, 1, 1, 2, 0, -1 },
    { ALU_SHL, 1, 2, 4, 0, -1 },
    { ALU_SHL, 1, 3, 4, 0, -1 },
    { ALU_SHL, 1, 4, 0x10, 0, -1 },
    { ALU_SHL, 1, 7, 0x10, 0, -1 },
    { ALU_SHL, 1, 8, 0x100, 0, -1 },
    { ALU_SHL, 1, 15, 0x100, 0, -1 },
    { ALU_SHL, 1, 16, 0x10000, 0, -1 },
    { ALU_SHL, 1, 31, 0x10000, 0, -1 },
    { ALU_SHL, 1, 32, 0x100000000ull, 0, -1 },
    { ALU_SHL, 1, 33, 0x100000000ull, 0, -1 },
    { ALU_SHL, 1, 64, 0x100000000ull, 0, -1 },
    { ALU_SHL, 1, 0x100000000ull, 0x100000000ull, 0, -1 },
    { ALU_SHL, 0xFFFFFFFF00000000ull, 32, 0, 1, -1 },
    { ALU_SHR, MSB, 1, 0x4000000000000000ull, 0, -1 },
    { ALU_SHR, MSB, 12, 0x0080000000000000ull, 0, -1 },
    { ALU_SHR, MSB, 40, 0x80000000ull, 0, -1 },
    { ALU_SHR, MSB, 0, MSB, 0, -1 },
    { ALU_SHR, 1, 1, 0, 1, -1 },
    { ALU_SAR, MSB, 4, 0xF800000000000000ull, 0, -1 },
    { ALU_SAR, MSB, 33, 0xFFFFFFFF80000000ull, 0, -1 },
    { ALU_SAR, MSB, 6, 0xF800000000000000ull, 0, -1 },
    { ALU_SAR, 0x4000000000000000ull, 2, 0x1000000000000000ull, 0, -1 },
    { ALU_SAR, 0x4000000000000000ull, 17, 0x0000400000000000ull, 0, -1 },
    { ALU_SAR, ALL1, 32, ALL1, 0, -1 },
};

static void test_mi_math(Fixture *f, gconstpointer data)
{
    Ring r, rb;
    AluResult res;
    uint64_t rcs_r2;

    ring_init(f, &r, RCS, RING_RCS);
    for (unsigned i = 0; i < G_N_ELEMENTS(alu_cases); i++) {
        const AluCase *c = &alu_cases[i];

        g_test_message("ALU case %u: op 0x%03x", i, c->op);
        res = alu_binop(&r, c->op, c->a, c->b);
        g_assert_cmphex(res.accu, ==, c->accu);
        /* ZF and CF are replicated on all 64 bits when stored. */
        g_assert_cmphex(res.zf, ==, c->zf ? ALL1 : 0);
        if (c->cf >= 0) {
            g_assert_cmphex(res.cf, ==, c->cf ? ALL1 : 0);
        }
    }

    /*
     * LOADINV loads the inverted register; LOAD0 zero; LOAD1 is LOAD0
     * with the "invert" prefix (0x481 = 0x400 | 0x081): all ones, as
     * Mesa's mi_builder relies on for UINT64_MAX immediates.
     */
    set_gpr(f, RCS, 0, 0xFF);
    EMIT(&r.b, MI_MATH(4), ALU(ALU_LOADINV, SRCA, 0), ALU(ALU_LOAD0, SRCB, 0),
         ALU(ALU_ADD, 0, 0), ALU(ALU_STORE, 5, ACCU));
    EMIT(&r.b, MI_MATH(4), ALU(ALU_LOAD1, SRCA, 0), ALU(ALU_LOAD0, SRCB, 0),
         ALU(ALU_OR, 0, 0), ALU(ALU_STORE, 6, ACCU));
    EMIT(&r.b, MI_MATH(5), ALU(ALU_LOAD0, SRCA, 0), ALU(ALU_LOAD0, SRCB, 0),
         ALU(ALU_ADD, 0, 0), ALU(ALU_STORE, 7, ACCU), ALU(ALU_STORE, 8, ZF));
    ring_run(&r);
    g_assert_cmphex(gpr(f, RCS, 5), ==, 0xFFFFFFFFFFFFFF00ull);
    g_assert_cmphex(gpr(f, RCS, 6), ==, ALL1);
    g_assert_cmphex(gpr(f, RCS, 7), ==, 0);
    g_assert_cmphex(gpr(f, RCS, 8), ==, ALL1);

    /* STOREINV of ACCU, ZF and CF; R15 as source and destination. */
    set_gpr(f, RCS, 15, 12);
    set_gpr(f, RCS, 14, 0);
    EMIT(&r.b, MI_MATH(7), ALU(ALU_LOAD, SRCA, 15), ALU(ALU_LOAD, SRCB, 14),
         ALU(ALU_ADD, 0, 0), ALU(ALU_STOREINV, 9, ACCU),
         ALU(ALU_STOREINV, 10, ZF), ALU(ALU_STOREINV, 11, CF),
         ALU(ALU_STORE, 15, ACCU));
    ring_run(&r);
    g_assert_cmphex(gpr(f, RCS, 9), ==, ~12ull);
    g_assert_cmphex(gpr(f, RCS, 10), ==, ALL1);
    g_assert_cmphex(gpr(f, RCS, 11), ==, ALL1);
    g_assert_cmphex(gpr(f, RCS, 15), ==, 12);

    /* The flags stay until the next ALU operation: a LOAD keeps them. */
    EMIT(&r.b, MI_MATH(6), ALU(ALU_LOAD1, SRCA, 0), ALU(ALU_LOAD1, SRCB, 0),
         ALU(ALU_ADD, 0, 0), ALU(ALU_LOAD0, SRCA, 0),
         ALU(ALU_STORE, 12, CF), ALU(ALU_STORE, 13, ACCU));
    ring_run(&r);
    g_assert_cmphex(gpr(f, RCS, 12), ==, ALL1);
    g_assert_cmphex(gpr(f, RCS, 13), ==, 0xFFFFFFFFFFFFFFFEull);

    /* Each engine has its own GPRs and ALU: BCS_GPR at 0x22600. */
    rcs_r2 = gpr(f, RCS, 2);
    ring_init(f, &rb, BCS, RING_BCS);
    res = alu_binop(&rb, ALU_SUB, 100, 58);
    g_assert_cmphex(res.accu, ==, 42);
    g_assert_cmphex(rd(f, 0x22600 + 16), ==, 42);
    g_assert_cmphex(gpr(f, RCS, 2), ==, rcs_r2);
}

/* ---- 4. predication ---- */

enum { CMP_TRUE, CMP_FALSE, CMP_SRCS_EQUAL, CMP_DELTAS_EQUAL };
enum { LOAD_KEEP = 0, LOAD_LOAD = 2, LOAD_LOADINV = 3 };
enum { COMBINE_SET, COMBINE_AND, COMBINE_OR, COMBINE_XOR };

typedef struct PredCompare {
    unsigned op;
    uint64_t src0, src1, data;
    bool result;
} PredCompare;

static const PredCompare pred_compares[] = {
    { CMP_TRUE, 0, 0, 0, true },
    { CMP_FALSE, 0, 0, 0, false },
    { CMP_SRCS_EQUAL, 7, 7, 0, true },
    { CMP_SRCS_EQUAL, 7, 5, 0, false },
    { CMP_SRCS_EQUAL, 0x100000007ull, 7, 0, false },
    { CMP_DELTAS_EQUAL, 7, 5, 2, true },
    { CMP_DELTAS_EQUAL, 7, 5, 3, false },
    { CMP_DELTAS_EQUAL, 5, 7, 0xFFFFFFFFFFFFFFFEull, true },
};

static bool combine(unsigned op, bool p, bool v)
{
    switch (op) {
    case COMBINE_SET: return v;
    case COMBINE_AND: return p && v;
    case COMBINE_OR: return p || v;
    default: return p != v;
    }
}

static void set_reg64(Fixture *f, IntelEngineId id, uint32_t off, uint64_t v)
{
    ewr(f, id, off, v);
    ewr(f, id, off + 4, v >> 32);
}

static void test_predication(Fixture *f, gconstpointer data)
{
    Ring r;
    Buf bb = buf_at(f, BATCH);

    ring_init(f, &r, RCS, RING_RCS);

    /*
     * MI_PREDICATE: the compare operation gives C; LOAD_KEEP leaves the
     * predicate, LOAD_LOAD sets it to C combined with the old predicate.
     * LOAD_LOADINV with SET gives !C and with XOR !(P ^ C).  LOADINV with
     * AND and OR is not tested: whether the inversion applies before or
     * after the combination is not in the seed PRM (its figure is lost),
     * and the two readings differ only there.
     */
    for (unsigned i = 0; i < G_N_ELEMENTS(pred_compares); i++) {
        const PredCompare *c = &pred_compares[i];
        static const unsigned loads[] = { LOAD_KEEP, LOAD_LOAD, LOAD_LOADINV };

        for (unsigned l = 0; l < G_N_ELEMENTS(loads); l++) {
            for (unsigned comb = 0; comb < 4; comb++) {
                for (unsigned p0 = 0; p0 < 2; p0++) {
                    unsigned load = loads[l];
                    bool expect;

                    if (load == LOAD_KEEP) {
                        expect = p0;
                    } else if (load == LOAD_LOAD) {
                        expect = combine(comb, p0, c->result);
                    } else if (comb == COMBINE_SET) {
                        expect = !c->result;
                    } else if (comb == COMBINE_XOR) {
                        expect = !(p0 ^ c->result);
                    } else {
                        continue;
                    }
                    set_reg64(f, RCS, INTEL_RING_PREDICATE_SRC0, c->src0);
                    set_reg64(f, RCS, INTEL_RING_PREDICATE_SRC1, c->src1);
                    set_reg64(f, RCS, INTEL_RING_PREDICATE_DATA, c->data);
                    ewr(f, RCS, INTEL_RING_PREDICATE_RESULT, p0);
                    EMIT(&r.b, MI_PREDICATE | load << 6 | comb << 3 | c->op);
                    ring_run(&r);
                    if ((erd(f, RCS, INTEL_RING_PREDICATE_RESULT) & 1) !=
                        expect) {
                        g_error("MI_PREDICATE compare %u (case %u) load %u "
                                "combine %u, predicate %u: expected %u",
                                c->op, i, load, comb, p0, expect);
                    }
                }
            }
        }
    }
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);

    /* MI_BATCH_BUFFER_START with predication: taken iff RESULT_1 is 1. */
    sdi(&bb, DATA, 1);
    EMIT(&bb, MI_BB_END);
    ewr(f, RCS, INTEL_RING_PREDICATE_RESULT_1, 0);
    bb_start(&r.b, BATCH, BB_PREDICATE);
    sdi(&r.b, DATA + 4, 2);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 2);
    ewr(f, RCS, INTEL_RING_PREDICATE_RESULT_1, 1);
    bb_start(&r.b, BATCH, BB_PREDICATE);
    sdi(&r.b, DATA + 4, 3);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA), ==, 1);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 3);
    /* Without the enable bit RESULT_1 does not matter. */
    ram_w32(f, DATA, 0);
    ewr(f, RCS, INTEL_RING_PREDICATE_RESULT_1, 0);
    bb_start(&r.b, BATCH, 0);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA), ==, 1);

    /*
     * Commands with a Predicate Enable bit are NOOPs while
     * MI_PREDICATE_RESULT is 0 (PRM "Command's Listing Predication
     * Control"): PIPE_CONTROL (dw0 bit 8), MI_STORE_REGISTER_MEM (bit 21).
     */
    ewr(f, RCS, INTEL_RING_PREDICATE_RESULT, 0);
    EMIT(&r.b, PIPE_CONTROL | PC_PREDICATE,
         PC_CS_STALL | PC_QW_WRITE | PC_GLOBAL_GTT, DATA + 8, 0, 0xAA, 0);
    set_gpr(f, RCS, 0, 0xBB);
    EMIT(&r.b, MI_SRM | MI_GGTT | 1u << 21, gpr_reg(f, RCS, 0), DATA + 16, 0);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 16), ==, 0);
    /* Predicate set by MI_PREDICATE itself, then they execute. */
    EMIT(&r.b, MI_PREDICATE | LOAD_LOAD << 6 | COMBINE_SET << 3 | CMP_TRUE);
    EMIT(&r.b, PIPE_CONTROL | PC_PREDICATE,
         PC_CS_STALL | PC_QW_WRITE | PC_GLOBAL_GTT, DATA + 8, 0, 0xAA, 0);
    EMIT(&r.b, MI_SRM | MI_GGTT | 1u << 21, gpr_reg(f, RCS, 0), DATA + 16, 0);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 0xAA);
    g_assert_cmphex(ram_r32(f, DATA + 16), ==, 0xBB);
    /* Without the enable bit a PIPE_CONTROL ignores the predicate. */
    ewr(f, RCS, INTEL_RING_PREDICATE_RESULT, 0);
    EMIT(&r.b, PIPE_CONTROL, PC_CS_STALL | PC_QW_WRITE | PC_GLOBAL_GTT,
         DATA + 24, 0, 0xCC, 0);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 24), ==, 0xCC);

    /*
     * MI_SET_PREDICATE "NOOP on result set" (4): following commands are
     * NOOPs while MI_PREDICATE_RESULT is set, until predication is
     * disabled (0) again.
     */
    ewr(f, RCS, INTEL_RING_PREDICATE_RESULT, 1);
    EMIT(&r.b, 0x00800004);
    sdi(&r.b, DATA + 32, 1);
    EMIT(&r.b, 0x00800000);
    sdi(&r.b, DATA + 36, 2);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 32), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 36), ==, 2);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/* ---- 5. semaphores ---- */

typedef struct SemCase {
    unsigned op;            /* SAD > SDD, >=, <, <=, ==, != */
    uint32_t sdd_pass, sdd_fail;
    uint32_t sad_release;   /* memory that lets the failing wait pass */
} SemCase;

/* The semaphore memory holds 5. */
static const SemCase sem_cases[] = {
    { 0, 4, 5, 6 },
    { 1, 5, 6, 6 },
    { 2, 6, 5, 4 },
    { 3, 5, 4, 4 },
    { 4, 5, 4, 4 },
    { 5, 4, 5, 4 },
};

/* An unsuccessful poll re-reads no sooner than this: it waits, not spins. */
#define POLL_MIN_NS     1000u

static void test_semaphore_wait(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    Ring r, rb;
    uint32_t mark = 0;

    ring_init(f, &r, RCS, RING_RCS);
    for (unsigned i = 0; i < G_N_ELEMENTS(sem_cases); i++) {
        const SemCase *c = &sem_cases[i];
        uint64_t n0;

        g_test_message("compare operation %u", c->op);
        ram_w32(f, SEM, 5);
        sem_wait(&r.b, c->op, c->sdd_pass, SEM);
        sdi(&r.b, MARK, ++mark);
        ring_run(&r);
        g_assert_cmphex(ram_r32(f, MARK), ==, mark);
        g_assert_true(engine_idle(f, RCS));

        sem_wait(&r.b, c->op, c->sdd_fail, SEM);
        sdi(&r.b, MARK, ++mark);
        ring_submit(&r);
        fake_host_step(f->fh, 0);
        g_assert_cmphex(ram_r32(f, MARK), ==, mark - 1);
        g_assert_false(engine_idle(f, RCS));
        /* Waiting: the next look at memory is a poll interval away. */
        g_assert_true(e->timer->armed);
        g_assert_cmpuint(e->timer->deadline, >=, f->fh->now_ns + POLL_MIN_NS);
        n0 = commands(f, RCS);
        step(f);
        g_assert_cmpuint(commands(f, RCS) - n0, <=, STEP_NS / POLL_MIN_NS);
        g_assert_cmphex(ram_r32(f, MARK), ==, mark - 1);
        /* HEAD stays at the wait; registers stay readable. */
        g_assert_cmphex(erd(f, RCS, INTEL_RING_ACTHD), ==,
                        RING_RCS + r.b.pos - 32);
        g_assert_false(engine_idle(f, RCS));

        /* Memory changes; a later poll sees it and the ring continues. */
        ram_w32(f, SEM, c->sad_release);
        step(f);
        g_assert_cmphex(ram_r32(f, MARK), ==, mark);
        g_assert_true(engine_idle(f, RCS));
        g_assert_cmphex(head_offset(f, RCS), ==, r.b.pos);
    }

    /* Compares are unsigned: 0xFFFFFFFF > 1. */
    ram_w32(f, SEM, 0xFFFFFFFF);
    sem_wait(&r.b, 0, 1, SEM);
    sdi(&r.b, MARK, ++mark);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, MARK), ==, mark);

    /*
     * Signal mode (bit 15 clear): the waiter re-reads memory when an
     * MI_SEMAPHORE_SIGNAL names its engine (target 0 = RCS), as soon as
     * the few nanoseconds of work it committed before waiting are done:
     * long before its 100 us safety re-poll.
     */
    ram_w32(f, SEM2, 0);
    EMIT(&r.b, MI_SEM_WAIT | SEM_GGTT | 4u << 12, 1, SEM2, 0);
    sdi(&r.b, MARK, ++mark);
    ring_submit(&r);
    fake_host_step(f->fh, 0);
    g_assert_false(engine_idle(f, RCS));
    ring_init(f, &rb, BCS, RING_BCS);
    sdi(&rb.b, SEM2, 1);
    EMIT(&rb.b, MI_SEM_SIGNAL, 0);
    ring_submit(&rb);
    fake_host_step(f->fh, 1000);
    g_assert_cmphex(ram_r32(f, MARK), ==, mark);
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/* ---- 6. GGTT and PPGTT ---- */

static uint64_t table_alloc(Fixture *f)
{
    uint64_t t = f->next_table;

    f->next_table += 4096;
    g_assert_cmpuint(f->next_table, <=, SURF);
    return t;
}

/* The next level's table under entry @idx of @table, created if absent. */
static uint64_t table_next(Fixture *f, uint64_t table, unsigned idx)
{
    uint64_t e = ram_r64(f, table + idx * 8);

    if (!(e & 1)) {
        e = table_alloc(f) | 3;             /* present, RW (i915) */
        ram_w64(f, table + idx * 8, e);
    }
    return e & ~0xfffull;
}

static uint64_t pd_of(Fixture *f, uint64_t pml4, uint64_t va)
{
    uint64_t pdp = table_next(f, pml4, (va >> 39) & 511);

    return table_next(f, pdp, (va >> 30) & 511);
}

static void map_4k(Fixture *f, uint64_t pml4, uint64_t va, uint64_t pa)
{
    uint64_t pt = table_next(f, pd_of(f, pml4, va), (va >> 21) & 511);

    ram_w64(f, pt + ((va >> 12) & 511) * 8, pa | 3);
}

static void map_2m(Fixture *f, uint64_t pml4, uint64_t va, uint64_t pa)
{
    ram_w64(f, pd_of(f, pml4, va) + ((va >> 21) & 511) * 8, pa | 0x83);
}

static void test_gtt(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    uint64_t pml4 = table_alloc(f), pdp = table_alloc(f);
    uint64_t pd = table_alloc(f), pt = table_alloc(f), pa;
    /* PML4 index 1, PDP index 2, PD index 3, PT index 4. */
    uint64_t va = 1ull << 39 | 2ull << 30 | 3ull << 21 | 4ull << 12;
    uint64_t va2m = 1ull << 39 | 2ull << 30 | 5ull << 21;
    Ring r;

    /* GGTT: the fixture's identity map; a page without PTE faults. */
    g_assert_cmpint(intel_ggtt_translate(f->gpu, 0x5010, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x5010);
    g_assert_cmpint(intel_ggtt_translate(f->gpu, UNMAPPED, &pa), ==, -1);
    /* A PTE write reaches cached addresses only after GFX_FLSH_CNTL. */
    intel_ggtt_write_pte(f->gpu, 5, 0x9000 | 1);
    g_assert_cmpint(intel_ggtt_translate(f->gpu, 0x5010, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x5010);
    wr(f, INTEL_GFX_FLSH_CNTL, INTEL_GFX_FLSH_CNTL_EN);
    g_assert_cmpint(intel_ggtt_translate(f->gpu, 0x5010, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x9010);
    intel_ggtt_write_pte(f->gpu, 5, 0x5000 | 1);
    wr(f, INTEL_GFX_FLSH_CNTL, INTEL_GFX_FLSH_CNTL_EN);

    /* PPGTT: a 4 KiB page and a 2 MiB page (PS, bit 7, in the PDE). */
    ram_w64(f, pml4 + 1 * 8, pdp | 3);
    ram_w64(f, pdp + 2 * 8, pd | 3);
    ram_w64(f, pd + 3 * 8, pt | 3);
    ram_w64(f, pt + 4 * 8, 0x300000 | 3);
    ram_w64(f, pd + 5 * 8, 0x400000 | 0x83);
    e->pml4 = pml4;
    intel_ppgtt_flush(e);
    g_assert_cmpint(intel_ppgtt_translate(e, va + 0x567, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x300567);
    g_assert_cmpint(intel_ppgtt_translate(e, va2m + 0x12345, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x412345);
    g_assert_cmpint(intel_ppgtt_translate(e, va2m + 0x1FFFFF, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x5FFFFF);
    /* Non-present entries at each level fault. */
    g_assert_cmpint(intel_ppgtt_translate(e, va + 0x1000, &pa), ==, -1);
    g_assert_cmpint(intel_ppgtt_translate(e, va2m + (1u << 21), &pa), ==,
                    -1);
    g_assert_cmpint(intel_ppgtt_translate(e, 1ull << 39 | 3ull << 30, &pa),
                    ==, -1);
    g_assert_cmpint(intel_ppgtt_translate(e, 2ull << 39, &pa), ==, -1);

    /* Translations are cached until the TLB is dropped. */
    ram_w64(f, pt + 4 * 8, 0x310000 | 3);
    g_assert_cmpint(intel_ppgtt_translate(e, va, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x300000);
    intel_ppgtt_flush(e);
    g_assert_cmpint(intel_ppgtt_translate(e, va, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x310000);
    ram_w64(f, pt + 4 * 8, 0);
    g_assert_cmpint(intel_ppgtt_translate(e, va, &pa), ==, 0);
    intel_ppgtt_flush(e);
    g_assert_cmpint(intel_ppgtt_translate(e, va, &pa), ==, -1);

    /* i915's mmio_invalidate_full: GEN8_RTCR = 1, polled until 0. */
    ram_w64(f, pt + 4 * 8, 0x320000 | 3);
    g_assert_cmpint(intel_ppgtt_translate(e, va, &pa), ==, 0);
    ram_w64(f, pt + 4 * 8, 0x330000 | 3);
    wr(f, INTEL_RTCR, 1);
    g_assert_cmphex(rd(f, INTEL_RTCR), ==, 0);
    g_assert_cmpint(intel_ppgtt_translate(e, va, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x330000);

    /* In-ring: PIPE_CONTROL with TLB invalidate (i915's EMIT_INVALIDATE). */
    ring_init(f, &r, RCS, RING_RCS);
    e->pml4 = pml4;                 /* ring_init does not touch it */
    ram_w64(f, pt + 4 * 8, 0x340000 | 3);
    EMIT(&r.b, PIPE_CONTROL, PC_CS_STALL | PC_TLB_INVALIDATE, 0, 0, 0, 0);
    ring_run(&r);
    g_assert_cmpint(intel_ppgtt_translate(e, va, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x340000);

    /* MI_FLUSH_DW with "TLB invalidate" (bit 18) on BCS. */
    eng(f, BCS)->pml4 = pml4;
    intel_ppgtt_flush(eng(f, BCS));
    g_assert_cmpint(intel_ppgtt_translate(eng(f, BCS), va, &pa), ==, 0);
    ram_w64(f, pt + 4 * 8, 0x350000 | 3);
    ring_init(f, &r, BCS, RING_BCS);
    EMIT(&r.b, MI_FLUSH_DW | 1u << 18, 0, 0, 0);
    ring_run(&r);
    g_assert_cmpint(intel_ppgtt_translate(eng(f, BCS), va, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x350000);

    /* The helpers below build the same structures. */
    map_4k(f, pml4, 7ull << 30, 0x360000);
    map_2m(f, pml4, 8ull << 30, 0x600000);
    intel_ppgtt_flush(e);
    g_assert_cmpint(intel_ppgtt_translate(e, (7ull << 30) + 0x10, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x360010);
    g_assert_cmpint(intel_ppgtt_translate(e, (8ull << 30) + 0x1234, &pa),
                    ==, 0);
    g_assert_cmphex(pa, ==, 0x601234);
}

/* ---- 7. faults, errors and reset ---- */

/* i915's enable_error_interrupt: EMR ~0, EIR cleared, ESR 0, EMR ~1. */
static void i915_enable_error_interrupt(Fixture *f, IntelEngineId id)
{
    ewr(f, id, INTEL_RING_EMR, ~0u);
    ewr(f, id, INTEL_RING_EIR, ~0u);
    g_assert_cmphex(erd(f, id, INTEL_RING_ESR), ==, 0);
    ewr(f, id, INTEL_RING_EMR, ~INTEL_ERROR_INSTRUCTION);
}

/* After a reset: defaults, nothing in error, idle. */
static void assert_engine_reset(Fixture *f, IntelEngineId id)
{
    g_assert_cmphex(rd(f, INTEL_GDRST), ==, 0);
    g_assert_cmphex(erd(f, id, INTEL_RING_ESR), ==, 0);
    g_assert_cmphex(erd(f, id, INTEL_RING_EIR), ==, 0);
    g_assert_cmphex(erd(f, id, INTEL_RING_EMR), ==, 0xffffffff);
    g_assert_cmphex(erd(f, id, INTEL_RING_HEAD), ==, 0);
    g_assert_cmphex(erd(f, id, INTEL_RING_TAIL), ==, 0);
    g_assert_cmphex(erd(f, id, INTEL_RING_CTL), ==, 0);
    g_assert_true(engine_idle(f, id));
}

static void test_errors(Fixture *f, gconstpointer data)
{
    static const uint32_t bad[] = {
        0x3f800000,     /* type 1: reserved */
        0x20000000,     /* type 1 */
        0xE0000000,     /* type 7: reserved */
        0x03000000,     /* MI opcode 0x06: reserved */
        0x08000000,     /* MI opcode 0x10: reserved */
    };
    Ring r;
    uint32_t mark = 0;

    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_test_message("header 0x%08x", bad[i]);
        ring_init(f, &r, RCS, RING_RCS);
        i915_enable_error_interrupt(f, RCS);
        sdi(&r.b, MARK, ++mark);
        EMIT(&r.b, bad[i]);
        sdi(&r.b, MARK + 4, mark);
        ring_run(&r);
        g_assert_cmphex(ram_r32(f, MARK), ==, mark);
        g_assert_cmphex(ram_r32(f, MARK + 4), !=, mark);
        g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==,
                        INTEL_ERROR_INSTRUCTION);
        g_assert_cmphex(erd(f, RCS, INTEL_RING_EIR), ==,
                        INTEL_ERROR_INSTRUCTION);
        /* ACTHD at the offending command; the engine stopped. */
        g_assert_cmphex(erd(f, RCS, INTEL_RING_ACTHD), ==, RING_RCS + 16);
        g_assert_true(engine_idle(f, RCS));
        g_assert_cmphex(take_irq(f, 0), ==, INTEL_INTR_DATA_VALID | CS_ERR);
        /* A halted engine ignores new work until reset. */
        sdi(&r.b, MARK + 8, mark);
        ring_run(&r);
        g_assert_cmphex(ram_r32(f, MARK + 8), !=, mark);

        /* Engine reset (i915's GEN11_GRDOM_RENDER), then it runs again. */
        wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
        assert_engine_reset(f, RCS);
        ring_init(f, &r, RCS, RING_RCS);
        sdi(&r.b, MARK + 12, mark);
        ring_run(&r);
        g_assert_cmphex(ram_r32(f, MARK + 12), ==, mark);
        g_assert_cmphex(take_irq(f, 0), ==, 0);
    }

    /* EIR is write-1-to-clear; ESR keeps the status. */
    ring_init(f, &r, RCS, RING_RCS);
    i915_enable_error_interrupt(f, RCS);
    EMIT(&r.b, 0x20000000);
    ring_run(&r);
    ewr(f, RCS, INTEL_RING_EIR, INTEL_ERROR_INSTRUCTION);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EIR), ==, 0);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, INTEL_ERROR_INSTRUCTION);
    take_irq(f, 0);

    /* A command on an engine it does not exist on: MI_FLUSH_DW on RCS. */
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    ring_init(f, &r, RCS, RING_RCS);
    i915_enable_error_interrupt(f, RCS);
    EMIT(&r.b, MI_FLUSH_DW, 0, 0, 0);
    ring_run(&r);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, INTEL_ERROR_INSTRUCTION);
    g_assert_cmphex(take_irq(f, 0), ==, INTEL_INTR_DATA_VALID | CS_ERR);

    /*
     * A batch at an unmapped GGTT address: a page-table error.  With
     * i915's EMR (only bit 0 unmasked) it is status only: no EIR bit, no
     * CS master error interrupt.
     */
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    ring_init(f, &r, RCS, RING_RCS);
    i915_enable_error_interrupt(f, RCS);
    bb_start(&r.b, UNMAPPED, 0);
    sdi(&r.b, MARK, ++mark);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, MARK), !=, mark);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, INTEL_ERROR_PAGE_TABLE);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EIR), ==, 0);
    g_assert_cmphex(take_irq(f, 0), ==, 0);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ACTHD), ==, UNMAPPED);

    /* Full reset (GRDOM_FULL) also restores the engine. */
    wr(f, INTEL_GDRST, INTEL_GRDOM_FULL);
    assert_engine_reset(f, RCS);
    ring_init(f, &r, RCS, RING_RCS);
    sdi(&r.b, MARK, ++mark);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, MARK), ==, mark);

    /* Everything unmasked: a store to an unmapped page is reported. */
    ewr(f, RCS, INTEL_RING_EMR, 0);
    sdi(&r.b, UNMAPPED + 0x40, 1);
    sdi(&r.b, MARK, ++mark);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, MARK), !=, mark);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, INTEL_ERROR_PAGE_TABLE);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EIR), ==, INTEL_ERROR_PAGE_TABLE);
    g_assert_cmphex(take_irq(f, 0), ==, INTEL_INTR_DATA_VALID | CS_ERR);

    /* A reset of another engine leaves this one halted. */
    wr(f, INTEL_GDRST, INTEL_GRDOM_BLT);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, INTEL_ERROR_PAGE_TABLE);
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    assert_engine_reset(f, RCS);
}

/* ---- execlists helpers ---- */

/*
 * A context image laid out as i915's gen8_xcs_offsets (gen11 headers:
 * posted, CS MMIO): value slots at these state-page dwords.
 */
#define CTX_CONTEXT_CONTROL     0x03
#define CTX_RING_HEAD           0x05
#define CTX_RING_TAIL           0x07
#define CTX_RING_START          0x09
#define CTX_RING_CTL            0x0B
#define CTX_BB_STATE            0x11
#define CTX_TIMESTAMP           0x23
#define CTX_PDP0_UDW            0x31
#define CTX_PDP0_LDW            0x33

typedef struct Ctx {
    Fixture *f;
    IntelEngineId id;
    uint64_t lrca;
    uint32_t ccid;
    Buf ring;
} Ctx;

static uint64_t ctx_state(Ctx *c, unsigned slot)
{
    return c->lrca + INTEL_LRC_STATE_OFFSET + 4 * slot;
}

static void ctx_init(Fixture *f, Ctx *c, IntelEngineId id, uint64_t lrca,
                     uint64_t ring, uint32_t ccid, uint64_t pml4)
{
    static const uint16_t lri1[11] = {
        0x244, 0x034, 0x030, 0x038, 0x03c, 0x168, 0x140, 0x110, 0x11c,
        0x114, 0x118,
    };
    static const uint16_t lri2[9] = {
        0x3a8, 0x28c, 0x288, 0x284, 0x280, 0x27c, 0x278, 0x274, 0x270,
    };
    uint32_t base = eng(f, id)->base;
    uint64_t st = lrca + INTEL_LRC_STATE_OFFSET;
    unsigned i = 0;

    *c = (Ctx) { .f = f, .id = id, .lrca = lrca, .ccid = ccid,
                 .ring = buf_at(f, ring) };
    memset(f->fh->ram + lrca, 0, 2 * 4096);
    ram_w32(f, st + 4 * i++, MI_NOOP);
    ram_w32(f, st + 4 * i++, MI_LRI(11) | 1u << 19 | 1u << 12);
    for (unsigned k = 0; k < 11; k++) {
        ram_w32(f, st + 4 * i, base + lri1[k]);
        i += 2;
    }
    i += 9;                                         /* NOP(9) */
    ram_w32(f, st + 4 * i++, MI_LRI(9) | 1u << 19 | 1u << 12);
    for (unsigned k = 0; k < 9; k++) {
        ram_w32(f, st + 4 * i, base + lri2[k]);
        i += 2;
    }
    g_assert_cmpuint(i, ==, 0x34);
    ram_w32(f, st + 4 * i, MI_BB_END | 1);
    /* i915's init_common_regs: inhibit synchronous switch, restore on. */
    ram_w32(f, ctx_state(c, CTX_CONTEXT_CONTROL), 0x00090008);
    ram_w32(f, ctx_state(c, CTX_RING_START), ring);
    ram_w32(f, ctx_state(c, CTX_RING_CTL), (CRING_SIZE - 4096) | 1);
    ram_w32(f, ctx_state(c, CTX_PDP0_UDW), pml4 >> 32);
    ram_w32(f, ctx_state(c, CTX_PDP0_LDW), pml4);
}

/* i915's execlists_update_context: only CTX_RING_TAIL changes. */
static void ctx_set_tail(Ctx *c)
{
    qword_align(&c->ring);
    ram_w32(c->f, ctx_state(c, CTX_RING_TAIL), c->ring.pos);
}

static uint32_t ctx_head(Ctx *c)
{
    return ram_r32(c->f, ctx_state(c, CTX_RING_HEAD));
}

/* Valid, legacy 64-bit (4-level PPGTT) addressing, privileged. */
static uint64_t ctx_desc(Ctx *c)
{
    return (uint64_t)c->ccid << 32 | c->lrca | INTEL_CTX_DESC_VALID |
           3u << INTEL_CTX_DESC_ADDR_MODE_SHIFT | INTEL_CTX_DESC_PRIVILEGE;
}

/* What i915 programs: enable_execlists, error interrupt, CSB reset. */
static void execlists_init(Fixture *f, IntelEngineId id, uint64_t hwsp)
{
    ewr(f, id, INTEL_RING_HWSTAM, ~0u);
    ewr(f, id, INTEL_RING_MODE, 0x00080008);
    ewr(f, id, INTEL_RING_MI_MODE, 0x01000000);
    ewr(f, id, INTEL_RING_HWS_PGA, hwsp);
    i915_enable_error_interrupt(f, id);
    ewr(f, id, INTEL_RING_CONTEXT_STATUS_PTR, 0xffff0b0b);
    for (unsigned i = 0; i < INTEL_CSB_ENTRIES; i++) {
        ram_w64(f, hwsp + (INTEL_HWS_CSB_BUF0 + 2 * i) * 4, ~0ull);
    }
    ram_w32(f, hwsp + INTEL_HWS_CSB_WRITE * 4, 11);
    g_assert_true(intel_cs_execlists_mode(eng(f, id)));
}

/* execlists_submit_ports: element 1 first, then 0, then Load. */
static void elsq_submit(Fixture *f, IntelEngineId id, uint64_t d0,
                        uint64_t d1)
{
    ewr(f, id, INTEL_RING_EXECLIST_SQ + 8, d1);
    ewr(f, id, INTEL_RING_EXECLIST_SQ + 12, d1 >> 32);
    ewr(f, id, INTEL_RING_EXECLIST_SQ, d0);
    ewr(f, id, INTEL_RING_EXECLIST_SQ + 4, d0 >> 32);
    ewr(f, id, INTEL_RING_EXECLIST_CONTROL, INTEL_EL_CTRL_LOAD);
}

static void ctx_submit(Ctx *c)
{
    ctx_set_tail(c);
    elsq_submit(c->f, c->id, ctx_desc(c), 0);
}

/* Execlists on RCS and two contexts, A (ID 0x41) and B (ID 0x42). */
static void two_contexts(Fixture *f, Ctx *a, Ctx *b)
{
    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, a, RCS, CTX_A, CRING_A, 0x41, 0);
    ctx_init(f, b, RCS, CTX_B, CRING_B, 0x42, 0);
}

static uint32_t csb_lo(Fixture *f, uint64_t hwsp, unsigned i)
{
    return ram_r32(f, hwsp + (INTEL_HWS_CSB_BUF0 + 2 * i) * 4);
}

static uint32_t csb_hi(Fixture *f, uint64_t hwsp, unsigned i)
{
    return ram_r32(f, hwsp + (INTEL_HWS_CSB_BUF0 + 2 * i) * 4 + 4);
}

static uint32_t csb_write_ptr(Fixture *f, uint64_t hwsp)
{
    return ram_r32(f, hwsp + INTEL_HWS_CSB_WRITE * 4);
}

/* ---- 8. privilege ---- */

#define USER_VA         0x40000000ull   /* 2 MiB page -> PA 0x600000 */
#define USER_PA         0x600000u

static void test_privilege(Fixture *f, gconstpointer data)
{
    uint64_t pml4 = table_alloc(f);
    Buf bb1 = buf_at(f, USER_PA), bb2 = buf_at(f, USER_PA + 0x1000);
    Buf bb3 = buf_at(f, USER_PA + 0x2000);
    uint32_t hws = HWSP_RCS;
    uint32_t slot = eng(f, RCS)->base + INTEL_RING_FORCE_TO_NONPRIV(0);
    Ctx c;

    map_2m(f, pml4, USER_VA, USER_PA);
    /* The user's view of the DATA page is not its GGTT address. */
    execlists_init(f, RCS, hws);
    ctx_init(f, &c, RCS, CTX_A, CRING_A, 0x10, pml4);

    /*
     * From a PPGTT (non-privileged) batch: GGTT stores and privileged
     * registers are dropped and flagged; PPGTT stores and registers of
     * the PRM's non-privileged table happen.
     */
    sdi(&bb1, DATA, 0xBAD);                         /* GGTT: dropped */
    sdi_ppgtt(&bb1, USER_VA + 0x10000, 0x600D);     /* PPGTT */
    lri(&bb1, eng(f, RCS)->base + INTEL_RING_HWS_PGA, 0x00DEA000);
    lri(&bb1, gpr_reg(f, RCS, 0), 0x1234);          /* CS_GPR: allowed */
    lri(&bb1, 0xE18C, 5);                           /* GEN10_SAMPLER_MODE */
    EMIT(&bb1, MI_SEM_WAIT | SEM_GGTT | SEM_POLL | 4u << 12, 1, SEM, 0);
    EMIT(&bb1, 0x10800001, 0x200, 0xBAD);           /* STORE_DATA_INDEX */
    EMIT(&bb1, MI_ATOMIC | MI_GGTT | 5u << 8 | 1, DATA + 4, 0);
    /* A second-level batch from a PPGTT batch is in the PPGTT too. */
    bb_start(&bb1, USER_VA + 0x2000, BB_SECOND_LEVEL);
    EMIT(&bb1, MI_BB_END);
    sdi_ppgtt(&bb3, USER_VA + 0x10008, 0x3333);
    sdi(&bb3, DATA + 8, 0xBAD);                     /* still unprivileged */
    EMIT(&bb3, MI_BB_END);

    /* i915's whitelist slot (icl_whitelist_build): RW, one register. */
    lri(&bb2, 0xE18C, 6);
    EMIT(&bb2, MI_BB_END);

    bb_start(&c.ring, USER_VA, BB_PPGTT);
    lri(&c.ring, slot, 0xE18C);                     /* the ring may */
    bb_start(&c.ring, USER_VA + 0x1000, BB_PPGTT);
    sdi(&c.ring, MARK, 1);
    ctx_submit(&c);
    step(f);

    g_assert_cmphex(ram_r32(f, MARK), ==, 1);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 0);
    g_assert_cmphex(ram_r32(f, USER_PA + 0x10000), ==, 0x600D);
    g_assert_cmphex(ram_r32(f, USER_PA + 0x10008), ==, 0x3333);
    g_assert_cmphex(ram_r32(f, CTX_A + 0x200), ==, 0);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_HWS_PGA), ==, hws);
    g_assert_cmphex(gpr(f, RCS, 0), ==, 0x1234);
    g_assert_cmphex(rd(f, 0xE18C), ==, 6);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR) & INTEL_ERROR_PRIVILEGE, ==,
                    INTEL_ERROR_PRIVILEGE);
    /* Dropped, not fatal: with i915's EMR nothing but status. */
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR) & ~INTEL_ERROR_PRIVILEGE,
                    ==, 0);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EIR), ==, 0);
    g_assert_cmphex(csb_lo(f, hws, 1), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);

    /*
     * BCS: its GPRs (BCS_GPR 0x22600) are in the PRM's table; a slot
     * with read-only access (bit 28) grants no write.
     */
    execlists_init(f, BCS, HWSP_BCS);
    ctx_init(f, &c, BCS, CTX_B, CRING_B, 0x20, pml4);
    bb1 = buf_at(f, USER_PA + 0x3000);
    lri(&bb1, 0x22600, 0xB0B);
    lri(&bb1, 0x22080, 0x00DEA000);
    lri(&bb1, 0x22000 + INTEL_RING_INDIRECT_CTX_OFFSET, 7);
    EMIT(&bb1, MI_BB_END);
    wr(f, INTEL_BCS0_BASE + INTEL_RING_FORCE_TO_NONPRIV(0),
       1u << 28 | (0x22000 + INTEL_RING_INDIRECT_CTX_OFFSET));
    bb_start(&c.ring, USER_VA + 0x3000, BB_PPGTT);
    ctx_submit(&c);
    step(f);
    g_assert_cmphex(rd(f, 0x22600), ==, 0xB0B);
    g_assert_cmphex(rd(f, 0x22080), ==, HWSP_BCS);
    g_assert_cmphex(rd(f, 0x22000 + INTEL_RING_INDIRECT_CTX_OFFSET), ==, 0);
    g_assert_cmphex(erd(f, BCS, INTEL_RING_ESR), ==, INTEL_ERROR_PRIVILEGE);
}

/* ---- 9. budgeted execution ---- */

/* cs.c's CS_SLICE_BUDGET: work units one slice may execute. */
#define SLICE_BUDGET    2048u

static void test_budget(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    Buf bb = buf_at(f, BATCH);
    Ring r;
    uint64_t n0, n1;

    /* A batch that jumps to itself. */
    bb_start(&bb, BATCH, 0);
    ring_init(f, &r, RCS, RING_RCS);
    bb_start(&r.b, BATCH, 0);
    ring_submit(&r);

    n0 = commands(f, RCS);
    for (unsigned i = 0; i < 10; i++) {
        /* Run exactly the next slice. */
        g_assert_true(e->timer->armed);
        g_assert_cmpuint(e->timer->deadline, >=, f->fh->now_ns);
        fake_host_step(f->fh, e->timer->deadline - f->fh->now_ns);
        n1 = commands(f, RCS);
        g_assert_cmpuint(n1 - n0, >, 0);
        g_assert_cmpuint(n1 - n0, <=, SLICE_BUDGET);
        n0 = n1;
        /* The host has control back; the next slice is later. */
        g_assert_true(e->timer->armed);
        g_assert_cmpuint(e->timer->deadline, >, f->fh->now_ns);
        /* Registers show where the engine is. */
        g_assert_cmphex(erd(f, RCS, INTEL_RING_ACTHD), >=, BATCH);
        g_assert_cmphex(erd(f, RCS, INTEL_RING_ACTHD), <, BATCH + 12);
        g_assert_cmphex(erd(f, RCS, INTEL_RING_BBADDR), ==, BATCH);
        g_assert_false(engine_idle(f, RCS));
        g_assert_cmphex(head_offset(f, RCS), ==, 12);
    }
    /* Over 10 ms, no more than one budget per slice ran. */
    step(f);
    step(f);
    step(f);
    g_assert_cmpuint(commands(f, RCS) - n0, >, 0);

    /* i915's intel_engine_stop_cs: STOP_RING, then MODE_IDLE is polled. */
    ewr(f, RCS, INTEL_RING_MI_MODE, 0x01000100);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_MI_MODE) &
                    (INTEL_MI_MODE_STOP_RING | INTEL_MI_MODE_IDLE), ==,
                    INTEL_MI_MODE_STOP_RING | INTEL_MI_MODE_IDLE);
    n0 = commands(f, RCS);
    step(f);
    g_assert_cmpuint(commands(f, RCS), ==, n0);

    /* Clearing STOP_RING lets it continue. */
    ewr(f, RCS, INTEL_RING_MI_MODE, 0x01000000);
    g_assert_false(engine_idle(f, RCS));
    step(f);
    g_assert_cmpuint(commands(f, RCS), >, n0);

    /* Reset ends it for good. */
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    assert_engine_reset(f, RCS);
    n0 = commands(f, RCS);
    step(f);
    g_assert_cmpuint(commands(f, RCS), ==, n0);
}

/* ---- 10. execlists ---- */

static void test_execlists_single(Fixture *f, gconstpointer data)
{
    Ctx c;
    uint32_t tail;

    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, &c, RCS, CTX_A, CRING_A, 0x41, 0);
    sdi(&c.ring, DATA, 0xA1);
    sem_wait(&c.ring, 4, 1, SEM);
    EMIT(&c.ring, MI_USER_INTERRUPT);
    ctx_submit(&c);
    tail = c.ring.pos;
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EXECLIST_STATUS_HI), ==, 0);

    /* Idle to active: CSB entry 0, write pointer 0, interrupt. */
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0xA1);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, 0xffffffff);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 0);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_CSB_BUF), ==,
                    INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_CONTEXT_STATUS_PTR) & 0xf0f, ==,
                    11u << 8 | 0);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EXECLIST_STATUS_HI), ==, 0x41);
    g_assert_false(engine_idle(f, RCS));
    g_assert_cmphex(take_irq(f, 0), ==, INTEL_INTR_DATA_VALID | CTXSW);

    /* The semaphore passes: complete, active to idle. */
    ram_w32(f, SEM, 1);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x41);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 1);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_CSB_BUF + 8), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_CSB_BUF + 12), ==, 0x41);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_CONTEXT_STATUS_PTR) & 0xf0f, ==,
                    11u << 8 | 1);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EXECLIST_STATUS_HI), ==, 0);
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmphex(take_irq(f, 0), ==,
                    INTEL_INTR_DATA_VALID | USER | CTXSW);
    /* Context save: the image's RING_HEAD is where execution stopped. */
    g_assert_cmphex(ctx_head(&c), ==, tail);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_HEAD) & 0x1ffffc, ==, tail);

    /* Resubmission runs only the new commands (i915 updates TAIL only). */
    ram_w32(f, DATA, 0);
    sdi(&c.ring, DATA + 4, 0xA2);
    ctx_submit(&c);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0xA2);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 2), ==, INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 3), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 3);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

static void test_execlists_two_elements(Fixture *f, gconstpointer data)
{
    Ctx a, b;

    two_contexts(f, &a, &b);
    sdi(&a.ring, DATA, 0xA);
    sdi(&b.ring, DATA + 4, 0xB);
    ctx_set_tail(&a);
    ctx_set_tail(&b);
    elsq_submit(f, RCS, ctx_desc(&a), ctx_desc(&b));
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0xA);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0xB);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==,
                    INTEL_CSB_ELEMENT_SWITCH | INTEL_CSB_COMPLETE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x41);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 2), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 2), ==, 0x42);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 2);
    g_assert_cmphex(ctx_head(&a), ==, a.ring.pos);
    g_assert_cmphex(ctx_head(&b), ==, b.ring.pos);
    g_assert_true(engine_idle(f, RCS));
}

static void test_execlists_lite_restore(Fixture *f, gconstpointer data)
{
    Ctx a;

    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, &a, RCS, CTX_A, CRING_A, 0x41, 0);
    EMIT(&a.ring, MI_ARB_ON);
    sdi(&a.ring, DATA, 1);
    sem_wait(&a.ring, 4, 1, SEM);
    sdi(&a.ring, DATA + 4, 2);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 1);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0);

    /* Same LRCA again with a new tail while it waits: a lite restore. */
    sdi(&a.ring, DATA + 8, 3);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==,
                    INTEL_CSB_PREEMPTED | INTEL_CSB_LITE_RESTORE);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 1);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EXECLIST_STATUS_HI), ==, 0x41);
    /* Still waiting: the semaphore is not skipped. */
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0);
    g_assert_false(engine_idle(f, RCS));

    ram_w32(f, SEM, 1);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 2);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 3);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 2), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 2);
    g_assert_cmphex(ctx_head(&a), ==, a.ring.pos);
}

/*
 * i915 writes a request's tail into the image of a context the engine
 * still runs, then loads it (execlists_update_context, then ELSP).  If the
 * context completes in between, the load restores it from the image: the
 * tail there must be i915's, not the one the engine ran to.  (Saving
 * RING_TAIL lost the request, and the GT never idled.)
 */
static void test_execlists_tail_written_before_completion(Fixture *f,
                                                          gconstpointer data)
{
    Ctx a;

    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, &a, RCS, CTX_A, CRING_A, 0x41, 0);
    sdi(&a.ring, DATA, 1);
    sem_wait(&a.ring, 4, 1, SEM);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 1);

    /* The next request's tail is in the image; the Load is not yet. */
    sdi(&a.ring, DATA + 4, 2);
    ctx_set_tail(&a);
    ram_w32(f, SEM, 1);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(ram_r32(f, ctx_state(&a, CTX_RING_TAIL)), ==,
                    a.ring.pos);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0);

    elsq_submit(f, RCS, ctx_desc(&a), 0);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 2);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 3), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(ctx_head(&a), ==, a.ring.pos);
    g_assert_true(engine_idle(f, RCS));
}

static void test_execlists_preempt(Fixture *f, gconstpointer data)
{
    Ctx a, b;
    uint32_t wait_at;

    two_contexts(f, &a, &b);
    sdi(&a.ring, DATA, 0x11);
    wait_at = a.ring.pos;
    sem_wait(&a.ring, 4, 1, SEM);
    sdi(&a.ring, DATA + 4, 0x12);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0x11);

    /* A Load of another context while A polls: A is preempted. */
    sdi(&b.ring, DATA + 8, 0x21);
    ctx_submit(&b);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, INTEL_CSB_PREEMPTED);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x41);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 2), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 2), ==, 0x42);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 0x21);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0);
    /* A's image: HEAD at the wait, which is evaluated again later. */
    g_assert_cmphex(ctx_head(&a), ==, wait_at);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EXECLIST_STATUS_HI), ==, 0);

    /* Resubmitted with the semaphore released: it resumes at the wait. */
    ram_w32(f, DATA, 0);
    ram_w32(f, SEM, 1);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0x12);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 3), ==, INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 4), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 4);
}

/*
 * The context's workaround batches run after its restore, before its
 * ring: INDIRECT_CTX for its size in cache lines (no BB_END needed), then
 * BB_PER_CTX_PTR until its MI_BATCH_BUFFER_END.
 */
static void test_execlists_wa_batches(Fixture *f, gconstpointer data)
{
    uint32_t base = eng(f, RCS)->base;
    Buf ind = buf_at(f, BATCH), per = buf_at(f, BATCH2);
    uint64_t st;
    Ctx a;

    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, &a, RCS, CTX_A, CRING_A, 0x41, 0);
    sdi(&ind, MARK, 1);             /* 4 dwords + 12 MI_NOOPs: 1 line */
    ram_w32(f, BATCH + 64, MI_USER_INTERRUPT);  /* past the line: not run */
    sdi(&per, MARK + 4, 2);
    EMIT(&per, MI_BB_END);
    /* Replace the image's MI_BATCH_BUFFER_END with one more LRI. */
    st = a.lrca + INTEL_LRC_STATE_OFFSET;
    ram_w32(f, st + 4 * 0x34, MI_LRI(3) | 1u << 19);
    ram_w32(f, st + 4 * 0x35, base + INTEL_RING_BB_PER_CTX_PTR);
    ram_w32(f, st + 4 * 0x36, BATCH2 | 1);
    ram_w32(f, st + 4 * 0x37, base + INTEL_RING_INDIRECT_CTX);
    ram_w32(f, st + 4 * 0x38, BATCH | 1);
    ram_w32(f, st + 4 * 0x39, base + INTEL_RING_INDIRECT_CTX_OFFSET);
    ram_w32(f, st + 4 * 0x3a, 0);
    ram_w32(f, st + 4 * 0x3b, MI_BB_END | 1);
    sdi(&a.ring, DATA, 3);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, MARK), ==, 1);
    g_assert_cmphex(ram_r32(f, MARK + 4), ==, 2);
    g_assert_cmphex(ram_r32(f, DATA), ==, 3);
    g_assert_cmphex(take_irq(f, 0) & USER, ==, 0);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/*
 * With OA counting (no timer), a render context switch writes an OA
 * report: reason "context switch" (dword 0 bit 22), context valid
 * (bit 16) and the new context's ID in dword 2.
 */
static void test_execlists_oa_switch_report(Fixture *f, gconstpointer data)
{
    const uint64_t oabuf = SURF;
    Ctx a;

    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, &a, RCS, CTX_A, CRING_A, 0x41, 0);
    wr(f, INTEL_OAHEADPTR, oabuf);
    wr(f, INTEL_OATAILPTR, oabuf);
    wr(f, INTEL_OABUFFER, oabuf | 1);           /* 128 KiB */
    wr(f, INTEL_OACONTROL, 5 << 2 | 1);         /* A32u40_A4u32_B8_C8 */
    sdi(&a.ring, DATA, 0xA);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0xA);
    g_assert_cmphex(rd(f, INTEL_OATAILPTR), ==, oabuf + 256);
    g_assert_cmphex(ram_r32(f, oabuf) >> 19 & 0x3f, ==, 1u << 3);
    g_assert_true(ram_r32(f, oabuf) & (1u << 16));
    g_assert_cmphex(ram_r32(f, oabuf + 8), ==, 0x41);
}

#define OA_BUF          0x400000u       /* 4 MiB OA buffer: size code 5 */
#define OA_BUF_CODE     5
#define OA_FMT          5               /* A32u40_A4u32_B8_C8 */
#define OA_REPORT       256
#define OA_EXPONENT     6               /* 10.7 us at 12 MHz */
#define OA_REASON(r)    ((r) >> 19 & 0x3f)
#define OA_REASON_TIMER         (1u << 0)
#define OA_REASON_CTX_SWITCH    (1u << 3)
#define OA_REASON_CLK_RATIO     (1u << 5)
/*
 * IGT's TestOa check wants B6 within 1 of clocks / 6 computed as
 * "b >= ref - 1" in 32 bits: any two reports 1-5 GT clocks apart fail
 * it, whatever the counters say.  Such pairs arise when an event (here a
 * context switch) falls next to a timer report; the model loses the later
 * one with OASTATUS "report lost", as the PRM's OASTATUS1 describes for a
 * report requested before the previous one completed (oa.c's
 * OA_REPORT_MIN_CLOCKS), so every pair left is checkable.
 */
#define OA_IGT_MIN_CLOCKS       6

/*
 * IGT's non-zero-reason as the guest runs it under TCG: a TestOa stream
 * at a short period while two contexts take turns on the render engine
 * and RPS moves the GT frequency (as i915's gen6_rps_set writes
 * RPNSWREQ), with a clock that moves on while the device handles each
 * event, as QEMU's virtual clock does.  Every report has a reason, and
 * each report is in time order after the one before it (timestamp, GPU
 * ticks) and passes IGT's TestOa check (gen8_sanity_check_test_oa_reports
 * in tests/i915/perf.c): a report due while an event was being handled is
 * not written after the event's own, and counts at the clock it is
 * stamped with (IGT saw B1 and GPU_TICKS go back 301 clocks from a
 * context-switch report to the next timer report).  @debug is what
 * OA_DEBUG enables.
 */
static void execlists_oa_order(Fixture *f, uint32_t debug)
{
    unsigned n, reasons = 0;
    uint32_t clocks;
    Ctx ctx[2];

    two_contexts(f, &ctx[0], &ctx[1]);
    /* A batch of 1000 MI_NOOPs (zeroed memory). */
    ram_w32(f, BATCH + 1000 * 4, MI_BB_END);
    /* i915_oa_stream_init and gen8_enable_metric_set, then the enable. */
    for (unsigned i = 0; i < G_N_ELEMENTS(intel_icl_test_oa); i++) {
        wr(f, intel_icl_test_oa[i].reg, intel_icl_test_oa[i].val);
    }
    wr(f, INTEL_OA_DEBUG, debug << 16 | debug);
    wr(f, INTEL_OASTATUS, 0);
    wr(f, INTEL_OAHEADPTR, OA_BUF);
    wr(f, INTEL_OABUFFER_UDW, 0);
    wr(f, INTEL_OABUFFER, OA_BUF | OA_BUF_CODE << 3 | 1);
    wr(f, INTEL_OATAILPTR, OA_BUF);
    wr(f, INTEL_OACTXCONTROL, OA_EXPONENT << 2 | 2 | 1);
    wr(f, INTEL_OACONTROL, OA_FMT << 2 | 1);

    f->fh->read_tick_ns = 20;
    for (unsigned i = 0; i < 1200; i++) {
        Ctx *c = &ctx[i & 1];

        bb_start(&c->ring, BATCH, 0);
        ctx_submit(c);
        /* 2-11 us apart, at every phase of the period. */
        fake_host_step(f->fh, 2000 + i * 7919 % 9000);
        if (i % 3 == 2) {
            wr(f, INTEL_RPNSWREQ,
               (18 + i * 13 % 49) << INTEL_RPS_FREQ_SHIFT);
        }
    }
    step(f);

    /* Reports requested within a few clocks of another collided. */
    g_assert_cmphex(rd(f, INTEL_OASTATUS) & ~INTEL_OASTATUS_REPORT_LOST, ==,
                    0);
    n = (rd(f, INTEL_OATAILPTR) - OA_BUF) / OA_REPORT;
    g_assert_cmpuint(n, >, 1500);
    for (unsigned k = 0; k < n; k++) {
        const uint8_t *r1 = f->fh->ram + OA_BUF + k * OA_REPORT;
        const uint8_t *r0 = r1 - OA_REPORT;

        g_assert_cmphex(OA_REASON(igt_oa_dw(r1, 0)), !=, 0);
        reasons |= OA_REASON(igt_oa_dw(r1, 0));
        if (!k) {
            continue;
        }
        g_assert_cmpint((int32_t)(igt_oa_dw(r1, IGT_OA_TIMESTAMP) -
                                  igt_oa_dw(r0, IGT_OA_TIMESTAMP)), >=, 0);
        clocks = igt_oa_dw(r1, IGT_OA_GPU_TICKS) -
                 igt_oa_dw(r0, IGT_OA_GPU_TICKS);
        /*
         * A report closer than IGT's ratios can check (B6 needs six
         * clocks) is lost instead: oa.c's OA_REPORT_MIN_CLOCKS.
         */
        g_assert_cmpuint(clocks, >=, OA_IGT_MIN_CLOCKS);
        igt_test_oa_check(r0, r1);
    }
    g_assert_cmphex(reasons, ==, OA_REASON_TIMER | OA_REASON_CTX_SWITCH |
                    (debug & INTEL_OA_DEBUG_NO_CLK_RATIO_REPORTS ?
                     0 : OA_REASON_CLK_RATIO));
}

/* OA_DEBUG as i915 6.1 sets it on Gen9-11: no frequency-change reports. */
static void test_execlists_oa_order(Fixture *f, gconstpointer data)
{
    execlists_oa_order(f, INTEL_OA_DEBUG_NO_CLK_RATIO_REPORTS |
                       INTEL_OA_DEBUG_INCLUDE_CLK_RATIO);
}

/* With the frequency-change reports, which count at their own clock. */
static void test_execlists_oa_order_clk_ratio(Fixture *f, gconstpointer data)
{
    execlists_oa_order(f, INTEL_OA_DEBUG_INCLUDE_CLK_RATIO);
}

/* PRM context-status rows 2 and 3: a Load with no valid element. */
static void test_execlists_preempt_to_idle(Fixture *f, gconstpointer data)
{
    Ctx a;
    uint32_t wait_at;

    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, &a, RCS, CTX_A, CRING_A, 0x41, 0);
    wait_at = a.ring.pos;
    sem_wait(&a.ring, 4, 1, SEM);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EXECLIST_STATUS_HI), ==, 0x41);

    /* While A polls: preempt to idle, A saved at its wait. */
    elsq_submit(f, RCS, 0, 0);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==,
                    INTEL_CSB_PREEMPTED | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x41);
    g_assert_cmphex(ctx_head(&a), ==, wait_at);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EXECLIST_STATUS_HI), ==, 0);
    g_assert_true(erd(f, RCS, INTEL_RING_MI_MODE) & INTEL_MI_MODE_IDLE);

    /* While idle: idle to active and back to idle in one entry. */
    elsq_submit(f, RCS, 0, 0);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 2), ==,
                    INTEL_CSB_IDLE_ACTIVE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 2);
}

/*
 * PRM context-status row 4: the running element completes at its boundary
 * while a Load waits: one entry, switched to the new queue with the
 * earlier context complete.
 */
static void test_execlists_complete_with_load(Fixture *f,
                                              gconstpointer data)
{
    Ctx a, b;

    two_contexts(f, &a, &b);
    /* 5000 MI_NOOPs (zeroed memory) with arbitration off: 3 slices. */
    EMIT(&a.ring, MI_ARB_ON & ~1u);
    bb_start(&a.ring, BATCH, 0);
    ram_w32(f, BATCH + 5000 * 4, MI_BB_END);
    sdi(&a.ring, DATA, 0xA);
    sdi(&b.ring, DATA + 4, 0xB);
    ctx_submit(&a);
    fake_host_step(f->fh, 1);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);
    g_assert_true(intel_cs_busy(eng(f, RCS)));

    ctx_submit(&b);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0xA);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0xB);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==,
                    INTEL_CSB_PREEMPTED | INTEL_CSB_COMPLETE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x41);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 2), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 2);
    /* A's image: complete, HEAD at its tail. */
    g_assert_cmphex(ctx_head(&a), ==, a.ring.pos);
}

/*
 * Preempted inside a batch: the image keeps the batch position
 * (BB_STATE, BBADDR), so resubmission continues in the batch at the
 * wait, neither earlier (repeating commands) nor in the ring.
 */
static void test_execlists_preempt_in_batch(Fixture *f, gconstpointer data)
{
    Buf bb = buf_at(f, BATCH);
    Ctx a, b;

    two_contexts(f, &a, &b);
    sdi(&bb, DATA, 1);
    sem_wait(&bb, 4, 1, SEM);
    sdi(&bb, DATA + 4, 2);
    sem_wait(&bb, 4, 1, SEM2);
    sdi(&bb, DATA + 8, 3);
    EMIT(&bb, MI_BB_END);
    bb_start(&a.ring, BATCH, 0);
    sdi(&a.ring, DATA + 12, 4);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 1);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0);

    /* First wait released and B loaded: A runs on and stops at the next. */
    ram_w32(f, SEM, 1);
    sdi(&b.ring, DATA + 16, 5);
    ctx_submit(&b);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 2);
    g_assert_cmphex(ram_r32(f, DATA + 16), ==, 5);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, INTEL_CSB_PREEMPTED);
    g_assert_cmphex(ram_r32(f, ctx_state(&a, CTX_BB_STATE)) &
                    INTEL_BB_STATE_ACTIVE, ==, INTEL_BB_STATE_ACTIVE);

    ram_w32(f, DATA, 0);
    ram_w32(f, DATA + 4, 0);
    ram_w32(f, SEM2, 1);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 3);
    g_assert_cmphex(ram_r32(f, DATA + 12), ==, 4);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 4), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    /* Saved at completion: no batch active any more. */
    g_assert_cmphex(ram_r32(f, ctx_state(&a, CTX_BB_STATE)) &
                    INTEL_BB_STATE_ACTIVE, ==, 0);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

static void test_execlists_latest_queue(Fixture *f, gconstpointer data)
{
    Ctx a, b;

    two_contexts(f, &a, &b);
    sdi(&a.ring, DATA, 0xA);
    sdi(&b.ring, DATA + 4, 0xB);
    ctx_submit(&a);
    ctx_submit(&b);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0xB);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x42);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 1);
    /* A was never restored, so never saved. */
    g_assert_cmphex(ctx_head(&a), ==, 0);
}

/* MI_SEMAPHORE_WAIT in the PPGTT (allowed from a non-privileged batch). */
static void sem_wait_ppgtt(Buf *b, uint32_t sdd, uint64_t va)
{
    EMIT(b, MI_SEM_WAIT | SEM_POLL | 4u << 12, sdd, va, va >> 32);
}

/*
 * Two contexts with their own PPGTTs and a batch at the same virtual
 * address, as two processes have: each executes its own batch, also when
 * one is switched in at the place the other was just fetching from.
 * Each waits on its own semaphore page (VA + 0x2000): A at offset 0,
 * B at offset 0x100.
 */
static void test_execlists_ppgtt_per_context(Fixture *f, gconstpointer data)
{
    uint64_t pml4a = table_alloc(f), pml4b = table_alloc(f);
    Buf ba = buf_at(f, 0x300000), bb = buf_at(f, 0x310000);
    Ctx a, b;

    map_4k(f, pml4a, USER_VA, 0x300000);
    map_4k(f, pml4a, USER_VA + 0x1000, 0x301000);
    map_4k(f, pml4a, USER_VA + 0x2000, 0x302000);
    map_4k(f, pml4b, USER_VA, 0x310000);
    map_4k(f, pml4b, USER_VA + 0x1000, 0x311000);
    map_4k(f, pml4b, USER_VA + 0x2000, 0x312000);
    /* The same layout: both wait at USER_VA + 16. */
    sdi_ppgtt(&ba, USER_VA + 0x1000, 0xA1);
    sem_wait_ppgtt(&ba, 1, USER_VA + 0x2000);
    sdi_ppgtt(&ba, USER_VA + 0x1004, 0xA2);
    EMIT(&ba, MI_BB_END);
    sdi_ppgtt(&bb, USER_VA + 0x1000, 0xB1);
    sem_wait_ppgtt(&bb, 1, USER_VA + 0x2100);
    sdi_ppgtt(&bb, USER_VA + 0x1004, 0xB2);
    EMIT(&bb, MI_BB_END);

    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, &a, RCS, CTX_A, CRING_A, 0x41, pml4a);
    ctx_init(f, &b, RCS, CTX_B, CRING_B, 0x42, pml4b);
    bb_start(&a.ring, USER_VA, BB_PPGTT);
    bb_start(&b.ring, USER_VA, BB_PPGTT);

    /* B waits in its batch; A preempts it and waits in its own. */
    ctx_submit(&b);
    step(f);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, 0x311000), ==, 0xB1);
    g_assert_cmphex(ram_r32(f, 0x301000), ==, 0xA1);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, INTEL_CSB_PREEMPTED);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x42);

    /*
     * B's semaphore released (and, in B's space, A's semaphore address
     * also reads 1), B back at A's poll: it continues with its own batch.
     */
    ram_w32(f, 0x312100, 1);
    ram_w32(f, 0x312000, 1);
    ctx_submit(&b);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 2), ==, INTEL_CSB_PREEMPTED);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 2), ==, 0x41);
    g_assert_cmphex(ram_r32(f, 0x311004), ==, 0xB2);
    g_assert_cmphex(ram_r32(f, 0x311000), ==, 0xB1);
    g_assert_cmphex(ram_r32(f, 0x301004), ==, 0);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 3), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 3), ==, 0x42);

    ram_w32(f, 0x302000, 1);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, 0x301004), ==, 0xA2);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 5), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/* ---- 11. memory and blitter commands ---- */

static void test_memory_commands(Fixture *f, gconstpointer data)
{
    Ring r, rb;

    ring_init(f, &r, RCS, RING_RCS);

    /*
     * MI_ATOMIC (Gen11 layout): Operand1 in dwords 3, 5, 7, 9 and
     * Operand2 in 4, 6, 8, 10 inline, or [CS_GPR1, CS_GPR0] and
     * [CS_GPR3, CS_GPR2]; the old memory value returns in CS_GPR4 (and
     * CS_GPR5 for octwords).
     */
    set_gpr(f, RCS, 4, 0xDEADBEEF00000000ull);
    ram_w32(f, DATA, 10);
    EMIT(&r.b, MI_ATOMIC | MI_GGTT | ATOMIC_INLINE | ATOMIC_RETURN |
         7u << 8 | 9, DATA, 0, 5, 0, 0, 0, 0, 0, 0, 0);       /* ADD */
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA), ==, 15);
    /* A dword return updates the lower dword of CS_GPR4 only. */
    g_assert_cmphex(gpr(f, RCS, 4), ==, 0xDEADBEEF0000000Aull);

    ram_w32(f, DATA + 4, 7);
    EMIT(&r.b, MI_ATOMIC | MI_GGTT | ATOMIC_INLINE | ATOMIC_RETURN |
         0xEu << 8 | 9, DATA + 4, 0, 7, 99, 0, 0, 0, 0, 0, 0); /* CMP_WR */
    EMIT(&r.b, MI_ATOMIC | MI_GGTT | ATOMIC_INLINE |
         0xEu << 8 | 9, DATA + 4, 0, 7, 55, 0, 0, 0, 0, 0, 0);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 99);
    g_assert_cmphex(gpr(f, RCS, 4) & 0xffffffff, ==, 7);

    ram_w32(f, DATA + 8, 41);
    EMIT(&r.b, MI_ATOMIC | MI_GGTT | ATOMIC_RETURN | 5u << 8 | 1,
         DATA + 8, 0);                                      /* INC */
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 42);
    g_assert_cmphex(gpr(f, RCS, 4) & 0xffffffff, ==, 41);

    /* Operands from the GPRs: compare GPR0, new value GPR2. */
    set_gpr(f, RCS, 0, 0xAAAA000000000007ull);
    set_gpr(f, RCS, 1, 0x1111);
    set_gpr(f, RCS, 2, 0x77);
    ram_w32(f, DATA + 12, 7);
    EMIT(&r.b, MI_ATOMIC | MI_GGTT | 0xEu << 8 | 1, DATA + 12, 0);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 12), ==, 0x77);

    /* Qword ADD: Operand1 = dword 5 : dword 3. */
    ram_w64(f, DATA + 16, 0xFFFFFFFF);
    EMIT(&r.b, MI_ATOMIC | MI_GGTT | ATOMIC_INLINE | ATOMIC_QWORD |
         ATOMIC_RETURN | 0x27u << 8 | 9, DATA + 16, 0,
         1, 0, 1, 0, 0, 0, 0, 0);
    ring_run(&r);
    g_assert_cmphex(ram_r64(f, DATA + 16), ==, 0x200000000ull);
    g_assert_cmphex(gpr(f, RCS, 4), ==, 0xFFFFFFFF);

    /* MI_COPY_MEM_MEM: dwords 1-2 destination, 3-4 source. */
    ram_w32(f, DATA + 32, 0x5A5A5A5A);
    EMIT(&r.b, MI_COPY_MEM_MEM | 1u << 22 | 1u << 21, DATA + 36, 0,
         DATA + 32, 0);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 36), ==, 0x5A5A5A5A);

    /* MI_LOAD_REGISTER_MEM, _REG, MI_STORE_REGISTER_MEM. */
    ram_w32(f, DATA + 40, 0xCAFEF00D);
    EMIT(&r.b, MI_LRM | MI_GGTT, gpr_reg(f, RCS, 6), DATA + 40, 0);
    EMIT(&r.b, MI_LRR, gpr_reg(f, RCS, 6), gpr_reg(f, RCS, 7) + 4);
    EMIT(&r.b, MI_SRM | MI_GGTT, gpr_reg(f, RCS, 7) + 4, DATA + 44, 0);
    ring_run(&r);
    g_assert_cmphex(gpr(f, RCS, 6) & 0xffffffff, ==, 0xCAFEF00D);
    g_assert_cmphex(gpr(f, RCS, 7) >> 32, ==, 0xCAFEF00D);
    g_assert_cmphex(ram_r32(f, DATA + 44), ==, 0xCAFEF00D);

    /* PIPE_CONTROL post-sync write immediate: a qword (i915's breadcrumb). */
    ram_w64(f, DATA + 48, ~0ull);
    EMIT(&r.b, PIPE_CONTROL, PC_CS_STALL | PC_QW_WRITE | PC_GLOBAL_GTT,
         DATA + 48, 0, 0x11112222, 0x33334444);
    ring_run(&r);
    g_assert_cmphex(ram_r64(f, DATA + 48), ==, 0x3333444411112222ull);

    /*
     * MI_FLUSH_DW post-sync on BCS: a dword store with 4 dwords (i915's
     * gen8_emit_ggtt_write), a qword with 5; "store data index" (bit 21)
     * addresses the status page.
     */
    ring_init(f, &rb, BCS, RING_BCS);
    ram_w64(f, DATA + 64, ~0ull);
    ram_w64(f, DATA + 72, ~0ull);
    EMIT(&rb.b, MI_FLUSH_DW | 1u << 14, (DATA + 64) | 4, 0, 0x1234);
    EMIT(&rb.b, (MI_FLUSH_DW + 1) | 1u << 14, (DATA + 72) | 4, 0,
         0x55556666, 0x77778888);
    EMIT(&rb.b, MI_FLUSH_DW | 1u << 21 | 1u << 14, 0xD0, 0, 0xABCD);
    ring_run(&rb);
    g_assert_cmphex(ram_r64(f, DATA + 64), ==, 0xFFFFFFFF00001234ull);
    g_assert_cmphex(ram_r64(f, DATA + 72), ==, 0x7777888855556666ull);
    g_assert_cmphex(ram_r32(f, HWSP_BCS + 0xD0), ==, 0xABCD);

    /*
     * XY_COLOR_BLT: 32 bpp (dw1 25:24 = 3), ROP 0xF0, pitch 64; the
     * rectangle x 2..4, y 1..2 (x2, y2 exclusive).
     */
    memset(f->fh->ram + SURF, 0xEE, 4 * 64);
    EMIT(&rb.b, 0x54300005, 3u << 24 | 0xF0u << 16 | 64, 1u << 16 | 2,
         3u << 16 | 5, SURF, 0, 0xC0C0C0C0);
    ring_run(&rb);
    for (unsigned y = 0; y < 4; y++) {
        for (unsigned x = 0; x < 16; x++) {
            bool in = x >= 2 && x < 5 && y >= 1 && y < 3;

            g_assert_cmphex(ram_r32(f, SURF + y * 64 + x * 4), ==,
                            in ? 0xC0C0C0C0 : 0xEEEEEEEE);
        }
    }
    /* 16 bpp (depth 1 = 565): two bytes of the colour per pixel. */
    memset(f->fh->ram + SURF + 0x400, 0, 64);
    EMIT(&rb.b, 0x54300005, 1u << 24 | 0xF0u << 16 | 64, 0 << 16 | 1,
         1u << 16 | 4, SURF + 0x400, 0, 0x1234);
    ring_run(&rb);
    g_assert_cmphex(ram_r64(f, SURF + 0x400), ==, 0x1234123412340000ull);

    /* XY_SRC_COPY_BLT: source (1,1) 3 x 2 to destination (4,2). */
    for (unsigned i = 0; i < 64; i++) {
        ram_w32(f, SURF + 0x1000 + 4 * i, 0x100 + i);
    }
    memset(f->fh->ram + SURF + 0x2000, 0, 4 * 64);
    EMIT(&rb.b, 0x54F00008, 3u << 24 | 0xCCu << 16 | 64, 2u << 16 | 4,
         4u << 16 | 7, SURF + 0x2000, 0, 1u << 16 | 1, 64, SURF + 0x1000, 0);
    ring_run(&rb);
    for (unsigned y = 0; y < 4; y++) {
        for (unsigned x = 0; x < 16; x++) {
            bool in = x >= 4 && x < 7 && y >= 2 && y < 4;
            uint32_t src = 0x100 + (y - 2 + 1) * 16 + (x - 4 + 1);

            g_assert_cmphex(ram_r32(f, SURF + 0x2000 + y * 64 + x * 4), ==,
                            in ? src : 0);
        }
    }
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
    g_assert_cmphex(erd(f, BCS, INTEL_RING_ESR), ==, 0);
}

/* ---- 12. tiled blits ---- */

/*
 * Blitter commands (PRM "XY_SRC_COPY_BLT", "XY_COLOR_BLT",
 * "XY_FAST_COPY_BLT"; i915 intel_gpu_commands.h, IGT intel_reg.h).
 */
#define XY_SRC_COPY             0x54F00008u     /* 10 dwords, RGBA */
#define XY_COLOR                0x54300005u     /* 7 dwords, RGBA */
#define XY_FAST_COPY            0x50800008u     /* 10 dwords */
#define   BLT_SRC_TILED         (1u << 15)
#define   BLT_DST_TILED         (1u << 11)
#define   FAST_SRC_YF           (1u << 31)      /* dw1 */
#define   FAST_DST_YF           (1u << 30)
#define BCS_SWCTRL              0x22200u        /* masked */
#define   SWCTRL_SRC_Y          (1u << 0)
#define   SWCTRL_DST_Y          (1u << 1)

/* Surfaces: linear sources and targets, tiled targets. */
#define LIN_A           0x200000u
#define LIN_B           0x240000u
#define TIL_A           0x300000u
#define TIL_B           0x340000u
#define TIL_C           0x380000u
#define TIL_D           0x400000u       /* 128 KiB: a row of Ys tiles */
#define TIL_SIZE        0x40000u

typedef struct Surf {
    uint64_t addr;
    uint32_t pitch;             /* bytes */
    RefTiling t;
} Surf;

/* A byte pattern of (byte x, row) with few repeats. */
static uint8_t pat(uint32_t xb, uint32_t y)
{
    return (xb * 0x9E3779B1u + y * 0x85EBCA77u) >> 24;
}

/* The pattern's first @wb bytes of @h rows in the linear surface @s. */
static void fill_pattern(Fixture *f, const Surf *s, uint32_t wb, uint32_t h)
{
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < wb; x++) {
            f->fh->ram[s->addr + (uint64_t)y * s->pitch + x] = pat(x, y);
        }
    }
}

/*
 * In @exp, an image of @s: the pattern's bytes from (@sx, @sy), @wb x @h,
 * placed at byte @dx of row @dy.
 */
static void expect_copy(uint8_t *exp, uint32_t size, const Surf *s,
                        unsigned cpp, uint32_t dx, uint32_t dy, uint32_t sx,
                        uint32_t sy, uint32_t wb, uint32_t h)
{
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < wb; x++) {
            uint64_t o = ref_offset(s->t, cpp, s->pitch, dx + x, dy + y);

            g_assert_cmpuint(o, <, size);
            exp[o] = pat(sx + x, sy + y);
        }
    }
}

/* Guest memory at @addr is @exp; names the first byte that is not. */
static void assert_image(Fixture *f, uint64_t addr, const uint8_t *exp,
                         uint32_t size)
{
    for (uint32_t i = 0; i < size; i++) {
        if (f->fh->ram[addr + i] != exp[i]) {
            g_test_message("first difference at byte 0x%x of 0x%"
                           G_GINT64_MODIFIER "x", i, addr);
            g_assert_cmphex(f->fh->ram[addr + i], ==, exp[i]);
        }
    }
}

/* @s (@size bytes) holds the pattern copied as expect_copy() says. */
static void assert_copy(Fixture *f, const Surf *s, uint32_t size,
                        unsigned cpp, uint32_t dx, uint32_t dy, uint32_t sx,
                        uint32_t sy, uint32_t wb, uint32_t h)
{
    uint8_t *exp = g_malloc0(size);

    expect_copy(exp, size, s, cpp, dx, dy, sx, sy, wb, h);
    assert_image(f, s->addr, exp, size);
    g_free(exp);
}

/* The pitch field: dwords for tiled surfaces, bytes for linear ones. */
static uint32_t pitch_field(const Surf *s)
{
    return s->t == REF_LINEAR ? s->pitch : s->pitch / 4;
}

/* XY_SRC_COPY_BLT of 32-bit pixels; TileY comes from BCS_SWCTRL. */
static void emit_src_copy(Buf *b, const Surf *d, unsigned dx, unsigned dy,
                          const Surf *s, unsigned sx, unsigned sy,
                          unsigned w, unsigned h)
{
    EMIT(b, XY_SRC_COPY | (d->t ? BLT_DST_TILED : 0) |
         (s->t ? BLT_SRC_TILED : 0),
         3u << 24 | 0xCCu << 16 | pitch_field(d), dy << 16 | dx,
         (dy + h) << 16 | (dx + w), d->addr, 0, sy << 16 | sx,
         pitch_field(s), s->addr, 0);
}

/* XY_FAST_COPY_BLT of @cpp-byte pixels. */
static void emit_fast_copy(Buf *b, unsigned cpp, const Surf *d, unsigned dx,
                           unsigned dy, const Surf *s, unsigned sx,
                           unsigned sy, unsigned w, unsigned h)
{
    static const uint32_t mode[] = {
        [REF_LINEAR] = 0, [REF_X] = 1, [REF_Y] = 2, [REF_YF] = 2,
        [REF_YS] = 3,
    };
    static const uint32_t depth[17] = {
        [1] = 0, [2] = 1, [4] = 3, [8] = 4, [16] = 5,
    };

    EMIT(b, XY_FAST_COPY | mode[s->t] << 20 | mode[d->t] << 13,
         (s->t == REF_YF ? FAST_SRC_YF : 0) |
         (d->t == REF_YF ? FAST_DST_YF : 0) | depth[cpp] << 24 |
         pitch_field(d), dy << 16 | dx, (dy + h) << 16 | (dx + w),
         d->addr, 0, sy << 16 | sx, pitch_field(s), s->addr, 0);
}

/* Run the ring until the engine idles (large blits take a few slices). */
static void ring_run_idle(Ring *r)
{
    ring_submit(r);
    for (unsigned i = 0; i < 100 && (i == 0 || !engine_idle(r->b.f, r->id));
         i++) {
        step(r->b.f);
    }
    g_assert_true(engine_idle(r->b.f, r->id));
    g_assert_cmphex(erd(r->b.f, r->id, INTEL_RING_ESR), ==, 0);
}

static void zero_surfaces(Fixture *f)
{
    memset(f->fh->ram + LIN_B, 0, TIL_SIZE);
    memset(f->fh->ram + TIL_A, 0, TIL_D + 2 * TIL_SIZE - TIL_A);
}

/*
 * XY_SRC_COPY_BLT with X-tiled surfaces (BR00 bits 11 and 15): linear to
 * tiled, then a rectangle out of the tiled surface that straddles tile
 * columns and rows.
 */
static void test_blit_tiled_x(Fixture *f, gconstpointer data)
{
    Surf lin = { LIN_A, 1024, REF_LINEAR }, tx = { TIL_A, 1024, REF_X };
    Surf out = { LIN_B, 2048, REF_LINEAR };
    uint64_t bytes0;
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    zero_surfaces(f);
    fill_pattern(f, &lin, 1024, 64);
    bytes0 = eng(f, BCS)->stats.blit_bytes;
    emit_src_copy(&rb.b, &tx, 0, 0, &lin, 0, 0, 256, 24);
    ring_run_idle(&rb);
    g_assert_cmpuint(eng(f, BCS)->stats.blit_bytes - bytes0, ==,
                     256 * 24 * 4);
    /*
     * Pixel (130, 9), byte x 520: tile row 1 (8192), tile column 1
     * (4096), row 1 of the tile (512), byte 8.
     */
    g_assert_cmphex(f->fh->ram[TIL_A + 12808], ==, pat(520, 9));
    assert_copy(f, &tx, 1024 * 24, 4, 0, 0, 0, 0, 1024, 24);

    /* Pixels 120-219 of rows 5-13: bytes 480-879, rows across 8. */
    emit_src_copy(&rb.b, &out, 7, 2, &tx, 120, 5, 100, 9);
    ring_run_idle(&rb);
    assert_copy(f, &out, 2048 * 16, 4, 28, 2, 480, 5, 400, 9);
}

/*
 * TileY for the XY blits comes from BCS_SWCTRL, a masked register that
 * software loads with MI_LOAD_REGISTER_IMM: bit 1 for the destination,
 * bit 0 for the source, each only for a surface the command marks tiled.
 */
static void test_blit_tiled_y(Fixture *f, gconstpointer data)
{
    Surf lin = { LIN_A, 1024, REF_LINEAR }, ty = { TIL_B, 1024, REF_Y };
    Surf tx = { TIL_A, 1024, REF_X }, ty2 = { TIL_C, 512, REF_Y };
    Surf out = { LIN_B, 2048, REF_LINEAR };
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    zero_surfaces(f);
    fill_pattern(f, &lin, 1024, 64);
    lri(&rb.b, BCS_SWCTRL, SWCTRL_DST_Y << 16 | SWCTRL_DST_Y);
    emit_src_copy(&rb.b, &ty, 0, 0, &lin, 0, 0, 256, 40);
    ring_run_idle(&rb);
    g_assert_cmphex(rd(f, BCS_SWCTRL), ==, SWCTRL_DST_Y);
    /*
     * Pixel (50, 5), byte x 200: tile 1 (4096), OWord column 4 of it
     * (2048), row 5 (80), byte 8.
     */
    g_assert_cmphex(f->fh->ram[TIL_B + 6232], ==, pat(200, 5));
    assert_copy(f, &ty, 1024 * 64, 4, 0, 0, 0, 0, 1024, 40);

    /* Y source into a linear destination; rows across 32. */
    lri(&rb.b, BCS_SWCTRL, (SWCTRL_SRC_Y | SWCTRL_DST_Y) << 16 |
        SWCTRL_SRC_Y);
    emit_src_copy(&rb.b, &out, 7, 2, &ty, 30, 25, 100, 12);
    ring_run_idle(&rb);
    g_assert_cmphex(rd(f, BCS_SWCTRL), ==, SWCTRL_SRC_Y);
    assert_copy(f, &out, 2048 * 16, 4, 28, 2, 120, 25, 400, 12);

    /* X source (SRC_Y clear), Y destination: the bits are independent. */
    lri(&rb.b, BCS_SWCTRL, (SWCTRL_SRC_Y | SWCTRL_DST_Y) << 16);
    emit_src_copy(&rb.b, &tx, 0, 0, &lin, 0, 0, 256, 40);
    lri(&rb.b, BCS_SWCTRL, SWCTRL_SRC_Y << 16 | SWCTRL_DST_Y << 16 |
        SWCTRL_DST_Y);
    emit_src_copy(&rb.b, &ty2, 4, 3, &tx, 100, 1, 64, 36);
    lri(&rb.b, BCS_SWCTRL, (SWCTRL_SRC_Y | SWCTRL_DST_Y) << 16);
    ring_run_idle(&rb);
    g_assert_cmphex(rd(f, BCS_SWCTRL), ==, 0);
    assert_copy(f, &ty2, 512 * 64, 4, 16, 3, 400, 1, 256, 36);
}

/* XY_COLOR_BLT into X (16 bpp) and Y (8 bpp) tiled surfaces. */
static void test_blit_tiled_color(Fixture *f, gconstpointer data)
{
    Surf tx = { TIL_A, 1024, REF_X }, ty = { TIL_B, 128, REF_Y };
    Surf lin = { LIN_B, 128, REF_LINEAR };
    uint8_t *exp = g_malloc0(1024 * 16);
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    zero_surfaces(f);
    /* Pixels 250-261 of rows 3-10: bytes 500-523, across a tile edge. */
    EMIT(&rb.b, XY_COLOR | BLT_DST_TILED, 1u << 24 | 0xF0u << 16 | 1024 / 4,
         3u << 16 | 250, 11u << 16 | 262, TIL_A, 0, 0xBEEF);
    ring_run_idle(&rb);
    for (uint32_t y = 3; y < 11; y++) {
        for (uint32_t x = 500; x < 524; x++) {
            exp[ref_offset(tx.t, 2, tx.pitch, x, y)] = x & 1 ? 0xBE : 0xEF;
        }
    }
    assert_image(f, tx.addr, exp, 1024 * 16);
    g_free(exp);

    /* 8 bpp, pixels 10-39 of rows 20-39: across OWords and tile rows. */
    exp = g_malloc0(128 * 64);
    lri(&rb.b, BCS_SWCTRL, SWCTRL_DST_Y << 16 | SWCTRL_DST_Y);
    EMIT(&rb.b, XY_COLOR | BLT_DST_TILED, 0u << 24 | 0xF0u << 16 | 128 / 4,
         20u << 16 | 10, 40u << 16 | 40, TIL_B, 0, 0x5A);
    /* BCS_SWCTRL does not make an untiled destination tiled. */
    EMIT(&rb.b, XY_COLOR, 0u << 24 | 0xF0u << 16 | 128,
         20u << 16 | 10, 40u << 16 | 40, LIN_B, 0, 0xA5);
    ring_run_idle(&rb);
    for (uint32_t y = 20; y < 40; y++) {
        for (uint32_t x = 10; x < 40; x++) {
            exp[ref_offset(ty.t, 1, ty.pitch, x, y)] = 0x5A;
        }
    }
    assert_image(f, ty.addr, exp, 128 * 64);
    memset(exp, 0, 128 * 64);
    for (uint32_t y = 20; y < 40; y++) {
        memset(exp + ref_offset(lin.t, 1, lin.pitch, 10, y), 0xA5, 30);
    }
    assert_image(f, lin.addr, exp, 128 * 64);
    g_free(exp);
}

/*
 * XY_FAST_COPY_BLT: tiling in BR00 (0 linear, 1 X, 2 Y, 3 Ys; Y is Yf
 * with BR01 bit 30 or 31), 32 bpp through every layout and back, then Yf
 * at each pixel size, whose tile shape follows it.
 */
static void test_blit_fast_copy(Fixture *f, gconstpointer data)
{
    static const struct {
        unsigned cpp, w, h, pitch;
    } yf_cases[] = {
        { 1, 128, 80, 128 }, { 2, 64, 40, 256 }, { 8, 64, 24, 512 },
        { 16, 32, 24, 512 },
    };
    Surf lin = { LIN_A, 1024, REF_LINEAR }, out = { LIN_B, 1024, REF_LINEAR };
    Surf tx = { TIL_A, 1024, REF_X }, ty = { TIL_B, 1024, REF_Y };
    Surf yf = { TIL_C, 1024, REF_YF }, ys = { TIL_D, 1024, REF_YS };
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    zero_surfaces(f);
    fill_pattern(f, &lin, 1024, 64);
    emit_fast_copy(&rb.b, 4, &tx, 0, 0, &lin, 0, 0, 256, 40);
    emit_fast_copy(&rb.b, 4, &ty, 0, 0, &tx, 0, 0, 256, 40);
    emit_fast_copy(&rb.b, 4, &yf, 0, 0, &ty, 0, 0, 256, 40);
    emit_fast_copy(&rb.b, 4, &ys, 0, 0, &yf, 0, 0, 256, 40);
    emit_fast_copy(&rb.b, 4, &out, 0, 0, &ys, 0, 0, 256, 40);
    ring_run_idle(&rb);
    assert_copy(f, &tx, 1024 * 40, 4, 0, 0, 0, 0, 1024, 40);
    assert_copy(f, &ty, 1024 * 64, 4, 0, 0, 0, 0, 1024, 40);
    assert_copy(f, &yf, 1024 * 64, 4, 0, 0, 0, 0, 1024, 40);
    assert_copy(f, &ys, 1024 * 128, 4, 0, 0, 0, 0, 1024, 40);
    assert_copy(f, &out, 1024 * 40, 4, 0, 0, 0, 0, 1024, 40);
    /*
     * Yf, 32 bpp, pixel (37, 9), byte x 148: tile 1 (4096); in it x 20,
     * y 9 = offset bits x3-0 (4), y1-0 (16), x4 (128), y3 (256).
     */
    g_assert_cmphex(f->fh->ram[TIL_C + 4500], ==, pat(148, 9));
    /*
     * Ys, 32 bpp, pixel (200, 70), byte x 800: tile 1 (65536); in it x
     * 288, y 70: the Yf part of (32, 6) is 608, then x8 (32768) and y6
     * (16384).
     */
    g_assert_cmpuint(ref_offset(REF_YS, 4, 1024, 800, 70), ==, 115296);
    emit_fast_copy(&rb.b, 4, &ys, 192, 64, &lin, 192, 0, 16, 8);
    ring_run_idle(&rb);
    g_assert_cmphex(f->fh->ram[TIL_D + 115296], ==, pat(800, 6));

    /* A rectangle inside a Yf surface. */
    memset(f->fh->ram + TIL_C, 0, TIL_SIZE);
    emit_fast_copy(&rb.b, 4, &yf, 4, 3, &lin, 8, 3, 40, 20);
    ring_run_idle(&rb);
    assert_copy(f, &yf, 1024 * 32, 4, 16, 3, 32, 3, 160, 20);

    for (unsigned i = 0; i < G_N_ELEMENTS(yf_cases); i++) {
        unsigned cpp = yf_cases[i].cpp, h = yf_cases[i].h;
        uint32_t wb = yf_cases[i].w * cpp;
        Surf src = { LIN_A, wb, REF_LINEAR };
        Surf dst = { TIL_C, yf_cases[i].pitch, REF_YF };

        g_test_message("Yf, %u bytes per pixel", cpp);
        memset(f->fh->ram + TIL_C, 0, TIL_SIZE);
        fill_pattern(f, &src, wb, h);
        emit_fast_copy(&rb.b, cpp, &dst, 0, 0, &src, 0, 0,
                       yf_cases[i].w, h);
        ring_run_idle(&rb);
        assert_copy(f, &dst, dst.pitch * 128, cpp, 0, 0, 0, 0, wb, h);
    }
    /*
     * By hand: 8 bpp, pixel (70, 40): tile 1 (4096); in it x 6, y 40 =
     * x3-0 (6), y4-0 = 8 (128), y5 (1024).  64 bpp, pixel (40, 19), byte
     * x 320, pitch 512: tile row 1 (8192), tile 1 (4096); in it x 64, y
     * 3 = y1-0 (48), x6 (512).
     */
    g_assert_cmpuint(ref_offset(REF_YF, 1, 128, 70, 40), ==, 5254);
    g_assert_cmpuint(ref_offset(REF_YF, 8, 512, 320, 19), ==, 12848);
}

/*
 * As IGT's intel_bb_emit_blt_copy() runs a Y blit: from a user (PPGTT,
 * non-privileged) batch on BCS under execlists, BCS_SWCTRL loaded around
 * the blit (it is in the blitter's non-privileged register list).
 */
static void test_blit_user_batch_y(Fixture *f, gconstpointer data)
{
    uint64_t pml4 = table_alloc(f);
    Buf bb = buf_at(f, USER_PA);
    Surf lin = { USER_VA + 0x10000, 512, REF_LINEAR };
    Surf ty = { USER_VA + 0x40000, 512, REF_Y };
    Surf ty_pa = { USER_PA + 0x40000, 512, REF_Y };
    Surf lin_pa = { USER_PA + 0x10000, 512, REF_LINEAR };
    Ctx c;

    map_2m(f, pml4, USER_VA, USER_PA);
    execlists_init(f, BCS, HWSP_BCS);
    ctx_init(f, &c, BCS, CTX_A, CRING_A, 0x20, pml4);
    memset(f->fh->ram + ty_pa.addr, 0, 512 * 64);
    fill_pattern(f, &lin_pa, 512, 40);
    lri(&bb, BCS_SWCTRL, (SWCTRL_SRC_Y | SWCTRL_DST_Y) << 16 | SWCTRL_DST_Y);
    emit_src_copy(&bb, &ty, 0, 0, &lin, 0, 0, 128, 40);
    EMIT(&bb, MI_FLUSH_DW, 0, 0, 0);
    lri(&bb, BCS_SWCTRL, (SWCTRL_SRC_Y | SWCTRL_DST_Y) << 16);
    EMIT(&bb, MI_BB_END);
    bb_start(&c.ring, USER_VA, BB_PPGTT);
    ctx_submit(&c);
    step(f);
    step(f);
    g_assert_cmphex(erd(f, BCS, INTEL_RING_ESR), ==, 0);
    g_assert_cmphex(rd(f, BCS_SWCTRL), ==, 0);
    assert_copy(f, &ty_pa, 512 * 64, 4, 0, 0, 0, 0, 512, 40);
}

/*
 * A tiled pitch its tiles do not divide, or a negative one, is a guest
 * error: the blit is skipped, the engine goes on.
 */
static void test_blit_tiled_bad_pitch(Fixture *f, gconstpointer data)
{
    Surf lin = { LIN_A, 1024, REF_LINEAR };
    Surf bad_x = { TIL_A, 640, REF_X }, bad_yf = { TIL_A, 192, REF_YF };
    Surf bad_ys = { TIL_A, 256, REF_YS };
    unsigned errors0 = f->fh->guest_errors;
    uint8_t *zero = g_malloc0(TIL_SIZE);
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    zero_surfaces(f);
    fill_pattern(f, &lin, 1024, 64);
    emit_src_copy(&rb.b, &bad_x, 0, 0, &lin, 0, 0, 16, 4);
    emit_fast_copy(&rb.b, 4, &bad_yf, 0, 0, &lin, 0, 0, 16, 4);
    emit_fast_copy(&rb.b, 4, &bad_ys, 0, 0, &lin, 0, 0, 16, 4);
    /* Source pitch field 0xFF80: -128 dwords. */
    EMIT(&rb.b, XY_SRC_COPY | BLT_SRC_TILED, 3u << 24 | 0xCCu << 16 | 1024,
         0, 4u << 16 | 16, LIN_B, 0, 0, 0xFF80, TIL_A, 0);
    sdi(&rb.b, DATA, 0x600D);
    ring_run_idle(&rb);
    g_assert_cmpuint(f->fh->guest_errors - errors0, ==, 4);
    assert_image(f, TIL_A, zero, TIL_SIZE);
    assert_image(f, LIN_B, zero, TIL_SIZE);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0x600D);
    g_free(zero);
}

static void add(const char *path, void (*fn)(Fixture *, gconstpointer))
{
    g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown);
}

/* ---- fault drills ---- */

/*
 * x-intel-gpu-drill-csb in the model: a dropped entry is written nowhere
 * and raises nothing, and the next entry takes its slot; a corrupted one
 * has its kind reversed (promote <-> complete) and keeps its context ID;
 * an engine reset cancels a drill not yet used.
 */
static void test_drill_csb(Fixture *f, gconstpointer data)
{
    const uint32_t done = INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE;
    Ctx c;

    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, &c, RCS, CTX_A, CRING_A, 0x41, 0);
    g_assert_false(intel_engine_drill_csb(f->gpu, INTEL_CLASS_OTHER, 0,
                                          INTEL_CSB_DRILL_DROP));

    /* Dropped idle-to-active: nothing in slot 0, no interrupt. */
    g_assert_true(intel_engine_drill_csb(f->gpu, INTEL_CLASS_RENDER, 0,
                                         INTEL_CSB_DRILL_DROP));
    sdi(&c.ring, DATA, 0xA1);
    sem_wait(&c.ring, 4, 1, SEM);
    ctx_submit(&c);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0xA1);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, 0xffffffff);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 11);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_CONTEXT_STATUS_PTR) & 0xf, ==, 11);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_CSB_BUF), ==, 0);
    g_assert_cmphex(take_irq(f, 0), ==, 0);
    /* The engine switched all the same; its completion goes to slot 0. */
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EXECLIST_STATUS_HI), ==, 0x41);
    ram_w32(f, SEM, 1);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, done);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 0);
    g_assert_cmphex(take_irq(f, 0), ==, INTEL_INTR_DATA_VALID | CTXSW);

    /* Corrupted idle-to-active: a bare complete, same context ID. */
    g_assert_true(intel_engine_drill_csb(f->gpu, INTEL_CLASS_RENDER, 0,
                                         INTEL_CSB_DRILL_CORRUPT));
    ram_w32(f, SEM, 0);
    sem_wait(&c.ring, 4, 1, SEM);
    ctx_submit(&c);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, INTEL_CSB_COMPLETE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x41);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_CSB_BUF + 8), ==,
                    INTEL_CSB_COMPLETE);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 1);
    g_assert_cmphex(take_irq(f, 0), ==, INTEL_INTR_DATA_VALID | CTXSW);
    /* Corrupted completion: a bare preempted.  Only one entry is hit. */
    g_assert_true(intel_engine_drill_csb(f->gpu, INTEL_CLASS_RENDER, 0,
                                         INTEL_CSB_DRILL_CORRUPT));
    ram_w32(f, SEM, 1);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 2), ==, INTEL_CSB_PREEMPTED);
    ctx_submit(&c);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 3), ==, INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 4), ==, done);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 4);

    /* An engine reset cancels a drill not used yet. */
    g_assert_true(intel_engine_drill_csb(f->gpu, INTEL_CLASS_RENDER, 0,
                                         INTEL_CSB_DRILL_DROP));
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, &c, RCS, CTX_A, CRING_A, 0x41, 0);
    sdi(&c.ring, DATA + 4, 0xA2);
    ctx_submit(&c);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0xA2);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, done);
}

/* RING_FAULT_REG and FAULT_TLB_DATA0 name @id's GGTT fault at @addr. */
static void assert_ggtt_fault(Fixture *f, IntelEngineId id, uint64_t addr)
{
    IntelEngine *e = eng(f, id);

    g_assert_cmphex(rd(f, INTEL_RING_FAULT_REG), ==,
                    1u | e->klass << 12 | e->instance << 3);
    g_assert_cmphex(rd(f, INTEL_FAULT_TLB_DATA0), ==, addr >> 12);
    g_assert_cmphex(rd(f, INTEL_FAULT_TLB_DATA1), ==, 1u << 4);
    /* i915 clears the valid bit by writing the value back without it. */
    wr(f, INTEL_RING_FAULT_REG, rd(f, INTEL_RING_FAULT_REG) & ~1u);
    g_assert_cmphex(rd(f, INTEL_RING_FAULT_REG) & 1, ==, 0);
    wr(f, INTEL_RING_FAULT_REG, 0);
}

/*
 * x-intel-gpu-drill-dma in the model: a failed command write lands
 * nothing and is the page fault of an unmapped address (the engine
 * halts); a failed context-status write is a page fault too but the
 * engine goes on, the entry only in the MMIO mirror; writes are counted
 * one by one; reads and other engines are not affected; an engine reset
 * cancels what is left.
 */
static void test_drill_dma(Fixture *f, gconstpointer data)
{
    Ring r, rb;
    Ctx c;

    g_assert_false(intel_engine_drill_dma(f->gpu, INTEL_CLASS_OTHER, 0, 1));
    ring_init(f, &r, RCS, RING_RCS);
    ring_init(f, &rb, BCS, RING_BCS);
    i915_enable_error_interrupt(f, RCS);
    ewr(f, RCS, INTEL_RING_EMR, 0);
    g_assert_true(intel_engine_drill_dma(f->gpu, INTEL_CLASS_RENDER, 0, 2));
    sdi(&rb.b, MARK + 8, 0xB1);
    ring_run(&rb);
    g_assert_cmphex(ram_r32(f, MARK + 8), ==, 0xB1);
    ram_w32(f, DATA, 0xD0);
    EMIT(&r.b, MI_LRM, INTEL_RING_CS_GPR(0) + eng(f, RCS)->base, DATA, 0);
    sdi(&r.b, MARK, 1);
    sdi(&r.b, MARK + 4, 2);
    ring_run(&r);
    g_assert_cmphex(gpr(f, RCS, 0) & 0xffffffff, ==, 0xD0);
    g_assert_cmphex(ram_r32(f, MARK), ==, 0);
    g_assert_cmphex(ram_r32(f, MARK + 4), ==, 0);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, INTEL_ERROR_PAGE_TABLE);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EIR), ==, INTEL_ERROR_PAGE_TABLE);
    g_assert_cmphex(take_irq(f, 0), ==, INTEL_INTR_DATA_VALID | CS_ERR);
    assert_ggtt_fault(f, RCS, MARK);
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmpuint(eng(f, RCS)->dma_drill, ==, 1);

    /* The reset cancels the write left; the next store lands. */
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    assert_engine_reset(f, RCS);
    ring_init(f, &r, RCS, RING_RCS);
    sdi(&r.b, MARK + 4, 3);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, MARK + 4), ==, 3);

    /*
     * Execlists: the first write is the idle-to-active entry.  It is only
     * in the MMIO mirror (where i915's wa_csb_read finds it), the HWSP
     * pointer stays, and the context runs on; the next entries land.
     */
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, &c, RCS, CTX_A, CRING_A, 0x41, 0);
    sdi(&c.ring, DATA + 8, 0xA3);
    g_assert_true(intel_engine_drill_dma(f->gpu, INTEL_CLASS_RENDER, 0, 1));
    ctx_submit(&c);
    step(f);
    assert_ggtt_fault(f, RCS, HWSP_RCS + INTEL_HWS_CSB_BUF0 * 4);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_CSB_BUF), ==,
                    INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, 0xffffffff);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 0xA3);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==,
                    INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 1);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
    g_assert_cmphex(ctx_head(&c), ==, c.ring.pos);
}

/*
 * State loaded from a migration stream: values the model cannot produce
 * are refused before anything indexes with them.
 */
static void test_post_load_checks(Fixture *f, gconstpointer data)
{
    IntelEngine *e = &f->gpu->engine[RCS];
    char *err = NULL;

    g_assert_true(intel_gpu_post_load(f->gpu, &err));
    g_assert_null(err);

    /*
     * The crystal strap (intel_cs_timestamp_hz() asserts on a reserved
     * select), and any other value the model never writes.
     */
    for (unsigned i = 0; i < 3; i++) {
        static const uint32_t bad[] = {
            4u << INTEL_RPM_CONFIG0_CRYSTAL_SHIFT,
            7u << INTEL_RPM_CONFIG0_CRYSTAL_SHIFT,
            1u << INTEL_RPM_CONFIG0_CRYSTAL_SHIFT |
            2u << INTEL_RPM_CONFIG0_CTC_SHIFT,
        };
        uint32_t good = intel_reg_get(f->gpu, INTEL_RPM_CONFIG0);

        intel_reg_set(f->gpu, INTEL_RPM_CONFIG0, bad[i]);
        g_assert_false(intel_gpu_post_load(f->gpu, &err));
        g_assert_nonnull(strstr(err, "RPM_CONFIG0"));
        g_clear_pointer(&err, g_free);
        intel_reg_set(f->gpu, INTEL_RPM_CONFIG0, good);
        g_assert_true(intel_gpu_post_load(f->gpu, &err));
    }

    e->depth = INTEL_CS_LEVELS;
    g_assert_false(intel_gpu_post_load(f->gpu, &err));
    g_assert_nonnull(strstr(err, "engine 0"));
    g_clear_pointer(&err, g_free);
    e->depth = 0;

    e->eq_pos = INTEL_ELSQ_ELEMENTS;        /* idle past the last element */
    g_assert_true(intel_gpu_post_load(f->gpu, &err));
    e->eq_pos = INTEL_ELSQ_ELEMENTS + 1;
    g_assert_false(intel_gpu_post_load(f->gpu, &err));
    g_clear_pointer(&err, g_free);
    e->eq_pos = 0;

    /* A running OA timer with a period OACTXCONTROL does not give. */
    f->gpu->oa.running = true;
    f->gpu->oa.period_ticks = 0;
    g_assert_false(intel_gpu_post_load(f->gpu, &err));
    g_assert_nonnull(strstr(err, "OA period"));
    g_clear_pointer(&err, g_free);
    f->gpu->oa.running = false;

    f->gpu->oa.trig_next[1] = 1000;
    g_assert_false(intel_gpu_post_load(f->gpu, &err));
    g_clear_pointer(&err, g_free);
    f->gpu->oa.trig_next[1] = 0;

    /* An OA tail-stall end time without a stall. */
    f->gpu->oa.stall_until_ns = 1000;
    g_assert_false(intel_gpu_post_load(f->gpu, &err));
    g_assert_nonnull(strstr(err, "stall"));
    g_clear_pointer(&err, g_free);
    f->gpu->oa.tail_stalled = true;
    g_assert_true(intel_gpu_post_load(f->gpu, &err));
    f->gpu->oa.tail_stalled = false;
    f->gpu->oa.stall_until_ns = 0;

    /* A GT frequency outside RPn..RP0 (0 would divide by zero). */
    f->gpu->rps.ratio = 0;
    g_assert_false(intel_gpu_post_load(f->gpu, &err));
    g_assert_nonnull(strstr(err, "frequency"));
    g_clear_pointer(&err, g_free);
    f->gpu->rps.ratio = 67;
    g_assert_false(intel_gpu_post_load(f->gpu, &err));
    g_clear_pointer(&err, g_free);
    f->gpu->rps.ratio = 66;
    g_assert_true(intel_gpu_post_load(f->gpu, &err));

    e->csb_drill = INTEL_CSB_DRILL_CORRUPT + 1;
    g_assert_false(intel_gpu_post_load(f->gpu, &err));
    g_assert_nonnull(strstr(err, "CSB drill"));
    g_clear_pointer(&err, g_free);
    e->csb_drill = INTEL_CSB_DRILL_CORRUPT;
    g_assert_true(intel_gpu_post_load(f->gpu, &err));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    add("/intel/cs/legacy-ring", test_legacy_ring);
    add("/intel/cs/command-lengths", test_command_lengths);
    add("/intel/cs/mi-math", test_mi_math);
    add("/intel/cs/predication", test_predication);
    add("/intel/cs/semaphore-wait", test_semaphore_wait);
    add("/intel/cs/gtt", test_gtt);
    add("/intel/cs/errors", test_errors);
    add("/intel/cs/privilege", test_privilege);
    add("/intel/cs/budget", test_budget);
    add("/intel/cs/post-load-checks", test_post_load_checks);
    add("/intel/cs/drill-dma", test_drill_dma);
    add("/intel/cs/execlists/drill-csb", test_drill_csb);
    add("/intel/cs/execlists/single", test_execlists_single);
    add("/intel/cs/execlists/two-elements", test_execlists_two_elements);
    add("/intel/cs/execlists/lite-restore", test_execlists_lite_restore);
    add("/intel/cs/execlists/tail-written-before-completion",
        test_execlists_tail_written_before_completion);
    add("/intel/cs/execlists/preempt", test_execlists_preempt);
    add("/intel/cs/execlists/wa-batches", test_execlists_wa_batches);
    add("/intel/cs/execlists/oa-switch-report",
        test_execlists_oa_switch_report);
    add("/intel/cs/execlists/oa-order", test_execlists_oa_order);
    add("/intel/cs/execlists/oa-order-clk-ratio",
        test_execlists_oa_order_clk_ratio);
    add("/intel/cs/execlists/preempt-to-idle",
        test_execlists_preempt_to_idle);
    add("/intel/cs/execlists/complete-with-load",
        test_execlists_complete_with_load);
    add("/intel/cs/execlists/preempt-in-batch",
        test_execlists_preempt_in_batch);
    add("/intel/cs/execlists/latest-queue", test_execlists_latest_queue);
    add("/intel/cs/execlists/ppgtt-per-context",
        test_execlists_ppgtt_per_context);
    add("/intel/cs/memory-commands", test_memory_commands);
    add("/intel/cs/blit/tiled-x", test_blit_tiled_x);
    add("/intel/cs/blit/tiled-y", test_blit_tiled_y);
    add("/intel/cs/blit/tiled-color", test_blit_tiled_color);
    add("/intel/cs/blit/fast-copy", test_blit_fast_copy);
    add("/intel/cs/blit/user-batch-y", test_blit_user_batch_y);
    add("/intel/cs/blit/tiled-bad-pitch", test_blit_tiled_bad_pitch);
    return g_test_run();
}
