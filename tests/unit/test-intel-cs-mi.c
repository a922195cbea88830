/*
 * Unit tests of the intel-gpu command set: every command's length, and
 * the memory and blitter commands' effects.
 *
 * Expected values come from the PRM (DG2 vol. 8 "Command Stream
 * Programming", and the Gen11 command layouts) and from what i915 does
 * and expects (i915-icl-contract.md §4, §6), computed by hand.
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

/* ---- memory and blitter commands ---- */

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

static const FixtureTest tests[] = {
    { "/intel/cs/command-lengths", test_command_lengths },
    { "/intel/cs/memory-commands", test_memory_commands },
};

FIXTURE_MAIN(fixture_setup_i915)
