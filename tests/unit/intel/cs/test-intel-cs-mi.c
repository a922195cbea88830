/*
 * Unit tests of the intel-gpu command set: every command's length, and
 * the memory and blitter commands' effects.
 *
 * Expected values come from the PRM (DG2 vol. 8 "Command Stream
 * Programming", and the Gen11 command layouts) and from what i915 does
 * and expects (drivers/gpu/drm/i915/gt/intel_lrc.c, intel_engine_cs.c),
 * computed by hand.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"

/* ---- command lengths ---- */

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
    LC(RCS, "MI_NOOP", 1, MI_NOOP),
    LC(RCS, "MI_NOOP", 1, MI_NOOP | MI_NOOP_ID_WRITE | 0x123),
    LC(RCS, "MI_SET_PREDICATE", 1, MI_SET_PREDICATE),
    LC(RCS, "MI_USER_INTERRUPT", 1, MI_USER_INTERRUPT),
    LC(RCS, "MI_WAIT_FOR_EVENT", 1, MI_WAIT_FOR_EVENT),
    LC(RCS, "MI_WAIT_FOR_EVENT_2", 1, MI_WAIT_FOR_EVENT_2),
    LC(RCS, "MI_ARB_CHECK", 1, MI_ARB_CHECK),
    LC(RCS, "MI_REPORT_HEAD", 1, MI_REPORT_HEAD),
    LC(RCS, "MI_ARB_ON_OFF", 1, MI_ARB_ON_OFF | MI_ARB_ENABLE),
    { .id = RCS, .name = "MI_BATCH_BUFFER_END", .len = 1,
      .dw = { MI_BATCH_BUFFER_END }, .in_batch = true },
    LC(RCS, "MI_SUSPEND_FLUSH", 1, MI_SUSPEND_FLUSH),
    LC(RCS, "MI_PREDICATE", 1, MI_PREDICATE),
    LC(RCS, "MI_LOAD_SCAN_LINES_INCL", 2, MI_LOAD_SCAN_LINES_INCL, 0),
    LC(RCS, "MI_LOAD_SCAN_LINES_EXCL", 2, MI_LOAD_SCAN_LINES_EXCL, 0),
    LC(RCS, "MI_DISPLAY_FLIP", 3, MI_DISPLAY_FLIP | INSTR_LEN(3), 0, 0),
    LC(RCS, "MI_SET_CONTEXT", 2, MI_SET_CONTEXT, 0),
    LC(RCS, "MI_MATH", 4, MI_MATH(3), 0, 0, 0),
    LC(RCS, "MI_SEMAPHORE_SIGNAL", 2, MI_SEMAPHORE_SIGNAL, 0),
    LC(RCS, "MI_SEMAPHORE_WAIT", 4,
       MI_SEMAPHORE_WAIT | INSTR_LEN(4) | MI_SEMAPHORE_GLOBAL_GTT |
       MI_SEMAPHORE_POLL | MI_SEMAPHORE_SAD_EQ_SDD, 0, SEM, 0),
    LC(BCS, "MI_FORCE_WAKEUP", 2, MI_FORCE_WAKEUP, 0),
    LC(RCS, "MI_STORE_DATA_IMM", 4,
       MI_STORE_DWORD_IMM_GEN4 | MI_USE_GGTT, DATA, 0, 0x11),
    LC(RCS, "MI_STORE_DATA_IMM", 5,
       MI_STORE_QWORD_IMM_GEN8 | MI_USE_GGTT, DATA + 8, 0, 0x22, 0x33),
    LC(RCS, "MI_STORE_DATA_INDEX", 3,
       MI_STORE_DATA_INDEX | INSTR_LEN(3), 0x200, 0x44),
    LC(RCS, "MI_LOAD_REGISTER_IMM", 3,
       MI_LOAD_REGISTER_IMM(1), RCS_GPR(0), 0x55),
    LC(RCS, "MI_LOAD_REGISTER_IMM", 5,
       MI_LOAD_REGISTER_IMM(2), RCS_GPR(1), 1, RCS_GPR(1) + 4, 2),
    LC(RCS, "MI_UPDATE_GTT", 4,
       MI_UPDATE_GTT | INSTR_LEN(4), 0x7FF000, 0x7FF001, 0),
    LC(RCS, "MI_STORE_REGISTER_MEM", 4,
       MI_STORE_REGISTER_MEM_GEN8 | MI_USE_GGTT, RCS_GPR(0), DATA + 0x10, 0),
    LC(BCS, "MI_FLUSH_DW", 4, MI_FLUSH_DW | INSTR_LEN(4), 0, 0, 0),
    LC(BCS, "MI_FLUSH_DW", 5, MI_FLUSH_DW | INSTR_LEN(5), 0, 0, 0, 0),
    LC(RCS, "MI_CLFLUSH", 3, MI_CLFLUSH | INSTR_LEN(3), DATA, 0),
    LC(RCS, "MI_REPORT_PERF_COUNT", 4,
       MI_REPORT_PERF_COUNT | INSTR_LEN(4),
       (DATA + 0x100) | MI_REPORT_PERF_COUNT_GGTT, 0, 0),
    LC(RCS, "MI_LOAD_REGISTER_MEM", 4,
       MI_LOAD_REGISTER_MEM_GEN8 | MI_USE_GGTT, RCS_GPR(2), DATA, 0),
    LC(RCS, "MI_LOAD_REGISTER_REG", 3,
       MI_LOAD_REGISTER_REG | INSTR_LEN(3), RCS_GPR(0), RCS_GPR(3)),
    LC(RCS, "MI_MEM_TO_MEM", 5,
       MI_COPY_MEM_MEM | INSTR_LEN(5) | MI_COPY_MEM_MEM_SRC_GGTT |
       MI_COPY_MEM_MEM_DST_GGTT, DATA + 0x20, 0, DATA, 0),
    LC(RCS, "MI_ATOMIC", 3,
       MI_ATOMIC | INSTR_LEN(3) | MI_ATOMIC_GLOBAL_GTT | MI_ATOMIC_INC,
       DATA + 0x30, 0),
    LC(RCS, "MI_ATOMIC", 11,
       MI_ATOMIC | INSTR_LEN(11) | MI_ATOMIC_GLOBAL_GTT |
       MI_ATOMIC_INLINE_DATA | MI_ATOMIC_ADD, DATA + 0x34, 0, 1),
    /* Inline operands as the data size needs: dword 5, qword 7. */
    LC(RCS, "MI_ATOMIC", 5,
       MI_ATOMIC | INSTR_LEN(5) | MI_ATOMIC_GLOBAL_GTT |
       MI_ATOMIC_INLINE_DATA | MI_ATOMIC_ADD, DATA + 0x34, 0, 1, 0),
    LC(RCS, "MI_ATOMIC", 7,
       MI_ATOMIC | INSTR_LEN(7) | MI_ATOMIC_GLOBAL_GTT |
       MI_ATOMIC_INLINE_DATA | MI_ATOMIC_QWORD | MI_ATOMIC_OP_QWORD |
       MI_ATOMIC_MOVE, DATA + 0x38, 0, 0x66, 0, 0x77, 0),
    LC(RCS, "MI_BATCH_BUFFER_START", 3,
       MI_BATCH_BUFFER_START_GEN8, BATCH, 0),
    LC(RCS, "MI_CONDITIONAL_BATCH_BUFFER_END", 4,
       MI_CONDITIONAL_BATCH_BUFFER_END | INSTR_LEN(4) | MI_USE_GGTT |
       MI_DO_COMPARE, 0, DATA + 0x40, 0),
    { .id = RCS, .name = "MI_PRT_BATCH_BUFFER_START", .len = 3,
      .dw = { MI_PRT_BATCH_BUFFER_START | INSTR_LEN(3), BATCH, 0 },
      .batch_unchecked = true },
    /* GFXPIPE: the headers of gen11-state.h, the rest zero. */
    LC(RCS, "PIPE_CONTROL", 6, GEN11_PIPE_CONTROL_HEADER | (6 - 2)),
    LC(RCS, NULL, 1, GEN11_PIPELINE_SELECT_HEADER),
    LC(RCS, NULL, 1, GEN11_3DSTATE_VF_STATISTICS_HEADER),
    LC(RCS, NULL, 4, GEN11_3DSTATE_DRAWING_RECTANGLE_HEADER | (4 - 2)),
    LC(RCS, NULL, 9, GEN11_MEDIA_VFE_STATE_HEADER | (9 - 2)),
    LC(BCS, "XY_COLOR_BLT", 7,
       XY_COLOR_BLT_CMD | BLT_WRITE_RGBA | INSTR_LEN(7),
       BLT_DEPTH_32 | BLT_ROP_COLOR_COPY | 64, 0, 0x00010001, SURF, 0,
       0x12345678),
    LC(BCS, "XY_SRC_COPY_BLT", 10,
       XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA | INSTR_LEN(10),
       BLT_DEPTH_32 | BLT_ROP_SRC_COPY | 64, 0, 0x00010001, SURF + 0x100, 0,
       0, 64, SURF, 0),
    LC(BCS, "XY_FAST_COPY_BLT", 10,
       XY_FAST_COPY_BLT_CMD | INSTR_LEN(10),
       XY_FAST_COPY_COLOR_DEPTH_32 | 64, 0, 0x00010001, SURF + 0x200, 0,
       0, 64, SURF, 0),
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
        const char *n = intel_cs_command_name(MI_INSTR(op, 0));

        if (n && !name_covered(n)) {
            g_error("MI opcode 0x%02x (%s) has no length case", op, n);
        }
    }
    for (uint32_t op = 0; op < 128; op++) {
        const char *n = intel_cs_command_name(BLT_INSTR(op));

        if (n && strcmp(n, "2D") && !name_covered(n)) {
            g_error("2D opcode 0x%02x (%s) has no length case", op, n);
        }
    }

    ring_init(f, &rings[RCS], RCS, RING_RCS);
    ring_init(f, &rings[BCS], BCS, RING_BCS);
    ram_w32(f, BATCH, MI_BATCH_BUFFER_END);
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
            /* A batch runs its MI_BATCH_BUFFER_END too. */
            expect_cmds = pad + 1 + ((c->dw[0] & MI_INSTR_MASK) ==
                                     MI_BATCH_BUFFER_START);
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
    g_assert_cmphex(ram_r32(f, DATA + 0x34), ==, 2);
    g_assert_cmphex(ram_r64(f, DATA + 0x38), ==, 0x0000007700000066ull);
    g_assert_cmphex(ram_r32(f, SURF), ==, 0x12345678);
    g_assert_cmphex(ram_r32(f, SURF + 0x100), ==, 0x12345678);
    g_assert_cmphex(ram_r32(f, SURF + 0x200), ==, 0x12345678);
}

/* ---- memory and blitter commands ---- */

/* MI_COPY_MEM_MEM: dwords 1-2 destination, 3-4 source. */
static void test_mi_copy_mem_mem(Fixture *f, gconstpointer data)
{
    Ring r;

    ring_init(f, &r, RCS, RING_RCS);
    ram_w32(f, DATA + 32, 0x5A5A5A5A);
    EMIT(&r.b, MI_COPY_MEM_MEM | INSTR_LEN(5) | MI_COPY_MEM_MEM_SRC_GGTT |
         MI_COPY_MEM_MEM_DST_GGTT, DATA + 36, 0, DATA + 32, 0);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 36), ==, 0x5A5A5A5A);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/* MI_LOAD_REGISTER_MEM, _REG, MI_STORE_REGISTER_MEM. */
static void test_mi_load_store_register(Fixture *f, gconstpointer data)
{
    Ring r;

    ring_init(f, &r, RCS, RING_RCS);
    ram_w32(f, DATA + 40, 0xCAFEF00D);
    EMIT(&r.b, MI_LOAD_REGISTER_MEM_GEN8 | MI_USE_GGTT, gpr_reg(f, RCS, 6),
         DATA + 40, 0);
    EMIT(&r.b, MI_LOAD_REGISTER_REG | INSTR_LEN(3), gpr_reg(f, RCS, 6),
         gpr_reg(f, RCS, 7) + 4);
    EMIT(&r.b, MI_STORE_REGISTER_MEM_GEN8 | MI_USE_GGTT,
         gpr_reg(f, RCS, 7) + 4, DATA + 44, 0);
    ring_run(&r);
    g_assert_cmphex(gpr(f, RCS, 6) & 0xffffffff, ==, 0xCAFEF00D);
    g_assert_cmphex(gpr(f, RCS, 7) >> 32, ==, 0xCAFEF00D);
    g_assert_cmphex(ram_r32(f, DATA + 44), ==, 0xCAFEF00D);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/*
 * "Add CS MMIO Start Offset": the register dword is an offset from the
 * executing engine's base (Gen11 Command Reference, bit 19 of
 * MI_LOAD_REGISTER_IMM/MEM and MI_STORE_REGISTER_MEM, bits 18 and 19 of
 * MI_LOAD_REGISTER_REG).  Mesa's mi_builder.h emits CS_GPRn that way on
 * Gen11: 0x600 + 8 * n, the bit set.
 */
static void test_mi_cs_mmio_remap(Fixture *f, gconstpointer data)
{
    Ring r, rb;

    ring_init(f, &r, RCS, RING_RCS);
    ring_init(f, &rb, BCS, RING_BCS);
    /* mi_store(mi_reg64(GPR0), mi_imm(...)): one LRI of two registers. */
    EMIT(&r.b, MI_LOAD_REGISTER_IMM(2) | MI_LRI_LRM_CS_MMIO,
         0x600, 0x11112222, 0x604, 0x33334444);
    /* GPR0 to GPR1 (source and destination remapped), GPR1 to memory. */
    EMIT(&r.b, MI_LOAD_REGISTER_REG | INSTR_LEN(3) | MI_LRR_SOURCE_CS_MMIO |
         MI_LRR_DEST_CS_MMIO, 0x600, 0x608);
    EMIT(&r.b, MI_STORE_REGISTER_MEM_GEN8 | MI_USE_GGTT | MI_LRI_LRM_CS_MMIO,
         0x608, DATA + 0x80, 0);
    /* Memory to GPR2; GPR2 to GPR3 with only the source remapped. */
    ram_w32(f, DATA + 0x84, 0x5555AAAA);
    EMIT(&r.b, MI_LOAD_REGISTER_MEM_GEN8 | MI_USE_GGTT | MI_LRI_LRM_CS_MMIO,
         0x610, DATA + 0x84, 0);
    EMIT(&r.b, MI_LOAD_REGISTER_REG | INSTR_LEN(3) | MI_LRR_SOURCE_CS_MMIO,
         0x610, gpr_reg(f, RCS, 3));
    ring_run(&r);
    g_assert_cmphex(gpr(f, RCS, 0), ==, 0x3333444411112222ull);
    g_assert_cmphex(gpr(f, RCS, 1) & 0xffffffff, ==, 0x11112222);
    g_assert_cmphex(ram_r32(f, DATA + 0x80), ==, 0x11112222);
    g_assert_cmphex(gpr(f, RCS, 2) & 0xffffffff, ==, 0x5555AAAA);
    g_assert_cmphex(gpr(f, RCS, 3) & 0xffffffff, ==, 0x5555AAAA);
    /* Nothing landed at the bare offsets. */
    g_assert_cmphex(rd(f, 0x600), ==, 0);
    g_assert_cmphex(rd(f, 0x608), ==, 0);

    /* The same dwords on BCS address BCS's GPRs (0x22600). */
    EMIT(&rb.b, MI_LOAD_REGISTER_IMM(1) | MI_LRI_LRM_CS_MMIO, 0x618, 0xB0B);
    ring_run(&rb);
    g_assert_cmphex(rd(f, INTEL_BCS0_BASE + 0x618), ==, 0xB0B);
    g_assert_cmphex(gpr(f, RCS, 3) & 0xffffffff, ==, 0x5555AAAA);
    /*
     * An absolute offset with the bit, as i915's Gen11 context images
     * have them: only the offset within the engine's 8 KiB counts.
     */
    EMIT(&rb.b, MI_LOAD_REGISTER_IMM(1) | MI_LRI_LRM_CS_MMIO,
         INTEL_BCS0_BASE + 0x620, 0xC0C);
    ring_run(&rb);
    g_assert_cmphex(rd(f, INTEL_BCS0_BASE + 0x620), ==, 0xC0C);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
    g_assert_cmphex(erd(f, BCS, INTEL_RING_ESR), ==, 0);
}

/*
 * MI_LOAD_REGISTER_IMM's Byte Write Disables (bits 11:8, Gen11 genxml):
 * bit 8 + i keeps byte i of every register of the command.
 */
static void test_mi_lri_byte_write_disables(Fixture *f, gconstpointer data)
{
    Ring r;

    ring_init(f, &r, RCS, RING_RCS);
    set_gpr(f, RCS, 0, 0x1111111111111111ull);
    EMIT(&r.b, MI_LOAD_REGISTER_IMM(2) | MI_LRI_BYTE_WRITE_DISABLE(0) |
         MI_LRI_BYTE_WRITE_DISABLE(3), gpr_reg(f, RCS, 0), 0xAABBCCDD,
         gpr_reg(f, RCS, 0) + 4, 0x55667788);
    ring_run(&r);
    g_assert_cmphex(gpr(f, RCS, 0), ==, 0x1166771111BBCC11ull);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/*
 * MI_STORE_DATA_IMM writes as many dwords (or qwords, with Store Qword)
 * as its length carries, from the address on (Gen11 Command Reference).
 */
static void test_mi_store_data_imm_n(Fixture *f, gconstpointer data)
{
    uint32_t cmd[3 + 100];
    Ring r;

    ring_init(f, &r, RCS, RING_RCS);
    EMIT(&r.b, MI_STORE_DATA_IMM | INSTR_LEN(7) | MI_USE_GGTT, DATA + 0x100,
         0, 1, 2, 3, 4);
    EMIT(&r.b, MI_STORE_DATA_IMM | MI_STORE_DATA_IMM_QWORD | INSTR_LEN(7) |
         MI_USE_GGTT, DATA + 0x120, 0, 0x11, 0x22, 0x33, 0x44);
    /* 100 dwords: more than the model writes at once. */
    cmd[0] = MI_STORE_DATA_IMM | INSTR_LEN(103) | MI_USE_GGTT;
    cmd[1] = DATA + 0x200;
    cmd[2] = 0;
    for (unsigned i = 0; i < 100; i++) {
        cmd[3 + i] = 0x1000 + i;
    }
    emit_n(&r.b, cmd, 103);
    sdi(&r.b, MARK, 0x5D1);
    ring_run(&r);
    for (unsigned i = 0; i < 4; i++) {
        g_assert_cmphex(ram_r32(f, DATA + 0x100 + 4 * i), ==, i + 1);
    }
    g_assert_cmphex(ram_r64(f, DATA + 0x120), ==, 0x0000002200000011ull);
    g_assert_cmphex(ram_r64(f, DATA + 0x128), ==, 0x0000004400000033ull);
    for (unsigned i = 0; i < 100; i++) {
        g_assert_cmphex(ram_r32(f, DATA + 0x200 + 4 * i), ==, 0x1000 + i);
    }
    g_assert_cmphex(ram_r32(f, DATA + 0x200 + 400), ==, 0);
    g_assert_cmphex(ram_r32(f, MARK), ==, 0x5D1);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/*
 * MI_SEMAPHORE_WAIT in Register Poll Mode (bit 16): dword 2 names a
 * register, polled until the compare holds.
 */
static void test_mi_semaphore_register_poll(Fixture *f, gconstpointer data)
{
    Ring r;

    ring_init(f, &r, RCS, RING_RCS);
    set_gpr(f, RCS, 5, 3);
    EMIT(&r.b, MI_SEMAPHORE_WAIT | INSTR_LEN(4) | MI_SEMAPHORE_REGISTER_POLL |
         MI_SEMAPHORE_SAD_EQ_SDD, 4, gpr_reg(f, RCS, 5), 0);
    sdi(&r.b, MARK, 0x99);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, MARK), ==, 0);
    g_assert_false(engine_idle(f, RCS));
    set_gpr(f, RCS, 5, 4);
    step(f);
    g_assert_cmphex(ram_r32(f, MARK), ==, 0x99);
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/*
 * Batch levels (Gen11 Command Reference, MI_BATCH_BUFFER_START "Second
 * Level Batch Buffer"; MI_CONDITIONAL_BATCH_BUFFER_END): a second-level
 * batch returns to the first at its end, chains within the second level
 * with the bit set, and without it continues the first level at the new
 * address; a conditional end in a second-level batch ends the first too.
 */
static void test_batch_levels(Fixture *f, gconstpointer data)
{
    Buf b1 = buf_at(f, BATCH), b2 = buf_at(f, BATCH2);
    Buf b3 = buf_at(f, BATCH3);
    Ring r;

    ring_init(f, &r, RCS, RING_RCS);
    bb_start(&b1, BATCH2, MI_BATCH_SECOND_LEVEL);
    sdi(&b1, DATA, 1);
    EMIT(&b1, MI_BATCH_BUFFER_END);
    bb_start(&b2, BATCH3, MI_BATCH_SECOND_LEVEL);   /* chain, level 2 */
    sdi(&b2, DATA + 4, 0xBAD);
    sdi(&b3, DATA + 8, 3);
    EMIT(&b3, MI_BATCH_BUFFER_END);                 /* back to level 1 */
    bb_start(&r.b, BATCH, 0);
    sdi(&r.b, DATA + 12, 4);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA), ==, 1);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 3);
    g_assert_cmphex(ram_r32(f, DATA + 12), ==, 4);

    /* A first-level start from level 2: the old first level is left. */
    b1 = buf_at(f, BATCH + 0x400);
    b2 = buf_at(f, BATCH2 + 0x400);
    b3 = buf_at(f, BATCH3 + 0x400);
    bb_start(&b1, BATCH2 + 0x400, MI_BATCH_SECOND_LEVEL);
    sdi(&b1, DATA + 16, 0xBAD);
    EMIT(&b1, MI_BATCH_BUFFER_END);
    bb_start(&b2, BATCH3 + 0x400, 0);
    sdi(&b3, DATA + 20, 6);
    EMIT(&b3, MI_BATCH_BUFFER_END);                 /* back to the ring */
    bb_start(&r.b, BATCH + 0x400, 0);
    sdi(&r.b, DATA + 24, 7);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 16), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 20), ==, 6);
    g_assert_cmphex(ram_r32(f, DATA + 24), ==, 7);

    /* A conditional end (memory 3 <= data 5) in level 2 ends level 1. */
    b1 = buf_at(f, BATCH + 0x800);
    b2 = buf_at(f, BATCH2 + 0x800);
    ram_w32(f, DATA + 0x40, 3);
    bb_start(&b1, BATCH2 + 0x800, MI_BATCH_SECOND_LEVEL);
    sdi(&b1, DATA + 28, 0xBAD);
    EMIT(&b1, MI_BATCH_BUFFER_END);
    EMIT(&b2, MI_CONDITIONAL_BATCH_BUFFER_END | INSTR_LEN(4) | MI_USE_GGTT |
         MI_DO_COMPARE, 5, DATA + 0x40, 0);
    sdi(&b2, DATA + 32, 0xBAD);
    EMIT(&b2, MI_BATCH_BUFFER_END);
    bb_start(&r.b, BATCH + 0x800, 0);
    sdi(&r.b, DATA + 36, 9);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 28), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 32), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 36), ==, 9);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
    g_assert_true(engine_idle(f, RCS));
}

/* PIPE_CONTROL post-sync write immediate: a qword (i915's breadcrumb). */
static void test_pipe_control_post_sync(Fixture *f, gconstpointer data)
{
    Ring r;

    ring_init(f, &r, RCS, RING_RCS);
    ram_w64(f, DATA + 48, ~0ull);
    pc_store(&r.b, 0, DATA + 48, 0x3333444411112222ull);
    ring_run(&r);
    g_assert_cmphex(ram_r64(f, DATA + 48), ==, 0x3333444411112222ull);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/*
 * MI_FLUSH_DW post-sync on BCS: a dword store with 4 dwords (i915's
 * gen8_emit_ggtt_write), a qword with 5; "store data index" (bit 21)
 * addresses the status page.
 */
static void test_mi_flush_dw_post_sync(Fixture *f, gconstpointer data)
{
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    ram_w64(f, DATA + 64, ~0ull);
    ram_w64(f, DATA + 72, ~0ull);
    EMIT(&rb.b, MI_FLUSH_DW | INSTR_LEN(4) | MI_FLUSH_DW_OP_STOREDW,
         (DATA + 64) | MI_FLUSH_DW_USE_GTT, 0, 0x1234);
    EMIT(&rb.b, MI_FLUSH_DW | INSTR_LEN(5) | MI_FLUSH_DW_OP_STOREDW,
         (DATA + 72) | MI_FLUSH_DW_USE_GTT, 0, 0x55556666, 0x77778888);
    EMIT(&rb.b, MI_FLUSH_DW | INSTR_LEN(4) | MI_FLUSH_DW_STORE_INDEX |
         MI_FLUSH_DW_OP_STOREDW, 0xD0, 0, 0xABCD);
    ring_run(&rb);
    g_assert_cmphex(ram_r64(f, DATA + 64), ==, 0xFFFFFFFF00001234ull);
    g_assert_cmphex(ram_r64(f, DATA + 72), ==, 0x7777888855556666ull);
    g_assert_cmphex(ram_r32(f, HWSP_BCS + 0xD0), ==, 0xABCD);
    g_assert_cmphex(erd(f, BCS, INTEL_RING_ESR), ==, 0);
}

/*
 * XY_COLOR_BLT: 32 bpp (dw1 25:24 = 3), ROP 0xF0, pitch 64; the
 * rectangle x 2..4, y 1..2 (x2, y2 exclusive).
 */
static void test_xy_color_blt(Fixture *f, gconstpointer data)
{
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    memset(f->fh->ram + SURF, 0xEE, 4 * 64);
    EMIT(&rb.b, XY_COLOR_BLT_CMD | BLT_WRITE_RGBA | INSTR_LEN(7),
         BLT_DEPTH_32 | BLT_ROP_COLOR_COPY | 64, 1u << 16 | 2, 3u << 16 | 5,
         SURF, 0, 0xC0C0C0C0);
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
    EMIT(&rb.b, XY_COLOR_BLT_CMD | BLT_WRITE_RGBA | INSTR_LEN(7),
         BLT_DEPTH_16_565 | BLT_ROP_COLOR_COPY | 64, 0 << 16 | 1,
         1u << 16 | 4, SURF + 0x400, 0, 0x1234);
    ring_run(&rb);
    g_assert_cmphex(ram_r64(f, SURF + 0x400), ==, 0x1234123412340000ull);
    g_assert_cmphex(erd(f, BCS, INTEL_RING_ESR), ==, 0);
}

/* XY_SRC_COPY_BLT: source (1,1) 3 x 2 to destination (4,2). */
static void test_xy_src_copy_blt(Fixture *f, gconstpointer data)
{
    Ring rb;

    ring_init(f, &rb, BCS, RING_BCS);
    for (unsigned i = 0; i < 64; i++) {
        ram_w32(f, SURF + 0x1000 + 4 * i, 0x100 + i);
    }
    memset(f->fh->ram + SURF + 0x2000, 0, 4 * 64);
    EMIT(&rb.b, XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA | INSTR_LEN(10),
         BLT_DEPTH_32 | BLT_ROP_SRC_COPY | 64, 2u << 16 | 4, 4u << 16 | 7,
         SURF + 0x2000, 0, 1u << 16 | 1, 64, SURF + 0x1000, 0);
    ring_run(&rb);
    for (unsigned y = 0; y < 4; y++) {
        for (unsigned x = 0; x < 16; x++) {
            bool in = x >= 4 && x < 7 && y >= 2 && y < 4;
            uint32_t src = 0x100 + (y - 2 + 1) * 16 + (x - 4 + 1);

            g_assert_cmphex(ram_r32(f, SURF + 0x2000 + y * 64 + x * 4), ==,
                            in ? src : 0);
        }
    }
    g_assert_cmphex(erd(f, BCS, INTEL_RING_ESR), ==, 0);
}

static const FixtureTest tests[] = {
    { "/intel/cs/command-lengths", test_command_lengths },
    { "/intel/cs/memory-commands/mi-copy-mem-mem", test_mi_copy_mem_mem },
    { "/intel/cs/memory-commands/mi-load-store-register",
      test_mi_load_store_register },
    { "/intel/cs/memory-commands/cs-mmio-remap", test_mi_cs_mmio_remap },
    { "/intel/cs/memory-commands/lri-byte-write-disables",
      test_mi_lri_byte_write_disables },
    { "/intel/cs/memory-commands/store-data-imm-n", test_mi_store_data_imm_n },
    { "/intel/cs/semaphore-register-poll", test_mi_semaphore_register_poll },
    { "/intel/cs/batch-levels", test_batch_levels },
    { "/intel/cs/memory-commands/pipe-control-post-sync",
      test_pipe_control_post_sync },
    { "/intel/cs/memory-commands/mi-flush-dw-post-sync",
      test_mi_flush_dw_post_sync },
    { "/intel/cs/memory-commands/xy-color-blt", test_xy_color_blt },
    { "/intel/cs/memory-commands/xy-src-copy-blt", test_xy_src_copy_blt },
};

FIXTURE_MAIN(fixture_setup_i915)
