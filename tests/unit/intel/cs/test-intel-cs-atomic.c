/*
 * Unit tests of MI_ATOMIC: every operation at dword and qword size
 * against a reference computed here, inline and GPR operands, return
 * data, the octword compare-and-write, lengths, reserved encodings.
 *
 * Expected values: the Gen11 Command Reference's MI_ATOMIC (operand
 * layout, Return Data Control, "Dwords 3..10 must be included based on
 * the Data Size"), Mesa's genxml (gen90.xml MI_ATOMIC, Atomic_OPCODE) and
 * blorp's Gen11 clear-colour update (blorp_genX_exec.h,
 * blorp_update_clear_color).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"

#define SENTINEL    0xDEADBEEFCAFEF00Dull
#define ATOMIC_HDR  (MI_ATOMIC | MI_ATOMIC_GLOBAL_GTT)

/*
 * The reference: the operations as the Command Reference's atomics table
 * defines them, on @bits-bit values (new memory; *@ret the return data,
 * the old value except for PREDEC, which returns the new one).
 */
static uint64_t ref_atomic(unsigned op, unsigned bits, uint64_t m,
                           uint64_t s0, uint64_t s1, uint64_t *ret)
{
    uint64_t mask = bits == 64 ? ~0ull : 0xffffffffull;
    unsigned shift = 64 - bits;
    int64_t im = (int64_t)(m << shift) >> shift;
    int64_t is0 = (int64_t)(s0 << shift) >> shift;
    uint64_t v;

    m &= mask;
    s0 &= mask;
    s1 &= mask;
    switch (op) {
    case 0x1: v = m & s0; break;                    /* AND */
    case 0x2: v = m | s0; break;                    /* OR */
    case 0x3: v = m ^ s0; break;                    /* XOR */
    case 0x4: v = s0; break;                        /* MOVE */
    case 0x5: v = m + 1; break;                     /* INC */
    case 0x6: v = m - 1; break;                     /* DEC */
    case 0x7: v = m + s0; break;                    /* ADD */
    case 0x8: v = m - s0; break;                    /* SUB */
    case 0x9: v = s0 - m; break;                    /* RSUB */
    case 0xa: v = im >= is0 ? m : s0; break;        /* IMAX */
    case 0xb: v = im <= is0 ? m : s0; break;        /* IMIN */
    case 0xc: v = m >= s0 ? m : s0; break;          /* UMAX */
    case 0xd: v = m <= s0 ? m : s0; break;          /* UMIN */
    case 0xe: v = m == s0 ? s1 : m; break;          /* CMP_WR */
    default: v = m - 1; break;                      /* 0xf: PREDEC */
    }
    v &= mask;
    *ret = op == 0xf ? v : m;
    return v;
}

/* Memory, Operand1, Operand2: signs, carries, equal and unequal pairs. */
static const uint64_t atomic_values[][3] = {
    { 0x0000000500000007ull, 0x0000000300000009ull, 0x1111111122222222ull },
    { 0xFFFFFFFFFFFFFFFFull, 0x0000000000000001ull, 0x0000000000000002ull },
    { 0x800000007FFFFFFFull, 0x7FFFFFFF80000000ull, 0x0123456789ABCDEFull },
    { 0x123456789ABCDEF0ull, 0x123456789ABCDEF0ull, 0x0FEDCBA987654321ull },
    { 0x00000001FFFFFFFFull, 0x00000000FFFFFFFFull, 0xAAAAAAAA55555555ull },
    { 0x0000000000000000ull, 0x8000000000000000ull, 0x00000000DEADBEEFull },
};

/* One atomic on DATA, operands inline or in CS_GPR0-3, GPR4-5 sentinels. */
static void run_atomic(Fixture *f, unsigned size, unsigned op, bool inl,
                       const uint64_t *v)
{
    unsigned bits = size ? 64 : 32;
    uint32_t hdr = ATOMIC_HDR | size << MI_ATOMIC_SIZE_SHIFT |
                   (size << 5 | op) << MI_ATOMIC_OPCODE_SHIFT |
                   MI_ATOMIC_RETURN_DATA | MI_ATOMIC_CS_STALL;
    uint64_t mem = bits == 64 ? v[0] : (v[0] & 0xffffffff) | SENTINEL << 32;
    uint64_t ret, want = ref_atomic(op, bits, v[0], v[1], v[2], &ret);
    Ring r;

    g_test_message("size %u op 0x%x %s: 0x%" G_GINT64_MODIFIER "x",
                   size, op, inl ? "inline" : "GPRs", v[0]);
    ring_init(f, &r, RCS, RING_RCS);
    ram_w64(f, DATA, mem);
    set_gpr(f, RCS, 4, SENTINEL);
    set_gpr(f, RCS, 5, SENTINEL);
    if (inl) {
        /* Poison the GPRs: inline operands must not read them. */
        set_gpr(f, RCS, 0, ~v[1]);
        set_gpr(f, RCS, 2, ~v[2]);
        if (bits == 32) {
            EMIT(&r.b, hdr | MI_ATOMIC_INLINE_DATA | INSTR_LEN(5), DATA, 0,
                 v[1], v[2]);
        } else {
            EMIT(&r.b, hdr | MI_ATOMIC_INLINE_DATA | INSTR_LEN(7), DATA, 0,
                 v[1], v[2], v[1] >> 32, v[2] >> 32);
        }
    } else {
        /* A dword operand is the low dword of its GPR. */
        set_gpr(f, RCS, 0, v[1]);
        set_gpr(f, RCS, 2, v[2]);
        EMIT(&r.b, hdr | INSTR_LEN(3), DATA, 0);
    }
    ring_run(&r);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
    if (bits == 32) {
        /* The dword beside is untouched; GPR4's high dword too. */
        g_assert_cmphex(ram_r64(f, DATA), ==, want | SENTINEL << 32);
        g_assert_cmphex(gpr(f, RCS, 4), ==,
                        (SENTINEL & ~0xffffffffull) | ret);
    } else {
        g_assert_cmphex(ram_r64(f, DATA), ==, want);
        g_assert_cmphex(gpr(f, RCS, 4), ==, ret);
    }
    g_assert_cmphex(gpr(f, RCS, 5), ==, SENTINEL);
}

static void test_atomic_ops(Fixture *f, gconstpointer data)
{
    for (unsigned size = 0; size < 2; size++) {
        for (unsigned op = 0x1; op <= 0xf; op++) {
            for (unsigned i = 0; i < G_N_ELEMENTS(atomic_values); i++) {
                run_atomic(f, size, op, i & 1, atomic_values[i]);
            }
        }
    }
}

/* Values the PRM's definitions give, worked by hand. */
static void test_atomic_known(Fixture *f, gconstpointer data)
{
    uint64_t ret;

    /* IMAX is signed: 0x80000000 is the smallest dword. */
    g_assert_cmphex(ref_atomic(0xa, 32, 0x80000000, 5, 0, &ret), ==, 5);
    g_assert_cmphex(ref_atomic(0xc, 32, 0x80000000, 5, 0, &ret), ==,
                    0x80000000);
    g_assert_cmphex(ref_atomic(0xb, 64, 1, ~0ull, 0, &ret), ==, ~0ull);
    /* RSUB wraps; PREDEC returns the new value. */
    g_assert_cmphex(ref_atomic(0x9, 32, 3, 1, 0, &ret), ==, 0xfffffffe);
    g_assert_cmphex(ref_atomic(0xf, 64, 0, 0, 0, &ret), ==, ~0ull);
    g_assert_cmphex(ret, ==, ~0ull);

    /* The model agrees: a qword IMIN with a negative operand in GPR0. */
    run_atomic(f, 1, 0xb, false, (const uint64_t[]) { 7, -2ull, 0 });
    g_assert_cmphex(ram_r64(f, DATA), ==, -2ull);
    g_assert_cmphex(gpr(f, RCS, 4), ==, 7);
    /* A dword PREDEC of 0 wraps to 0xffffffff, which GPR4 returns. */
    run_atomic(f, 0, 0xf, true, (const uint64_t[]) { 0, 0, 0 });
    g_assert_cmphex(ram_r32(f, DATA), ==, 0xffffffff);
    g_assert_cmphex(gpr(f, RCS, 4) & 0xffffffff, ==, 0xffffffff);
}

/*
 * blorp_update_clear_color on Gen11 (Mesa 22.3): two MOVE8B of seven
 * dwords (DWord Length 5), the colour's dwords in dwords 3 and 5
 * (Operand1), 0 in 4 and 6 (Operand2); the second with CS STALL and
 * Return Data Control.
 */
static void test_atomic_move8b_blorp(Fixture *f, gconstpointer data)
{
    static const uint32_t color[4] = {
        0x3F800000, 0x00000000, 0x3F000000, 0x3F800000,
    };
    uint32_t hdr = ATOMIC_HDR | MI_ATOMIC_QWORD | MI_ATOMIC_OP_QWORD |
                   MI_ATOMIC_MOVE | MI_ATOMIC_INLINE_DATA | INSTR_LEN(7);
    Ring r;

    g_assert_cmphex(hdr & 0xff, ==, 5);
    g_assert_cmphex((hdr & MI_ATOMIC_OPCODE_MASK) >> MI_ATOMIC_OPCODE_SHIFT,
                    ==, 0x24);
    ring_init(f, &r, RCS, RING_RCS);
    ram_w64(f, SURF, 0x1111111122222222ull);
    ram_w64(f, SURF + 8, 0x3333333344444444ull);
    set_gpr(f, RCS, 4, SENTINEL);
    EMIT(&r.b, hdr, SURF, 0, color[0], 0, color[1], 0);
    EMIT(&r.b, hdr | MI_ATOMIC_CS_STALL | MI_ATOMIC_RETURN_DATA, SURF + 8,
         0, color[2], 0, color[3], 0);
    sdi(&r.b, MARK, 0x7D);
    ring_run(&r);
    for (unsigned i = 0; i < 4; i++) {
        g_assert_cmphex(ram_r32(f, SURF + 4 * i), ==, color[i]);
    }
    g_assert_cmphex(gpr(f, RCS, 4), ==, 0x3333333344444444ull);
    /* The command ended after seven dwords: the store after it ran. */
    g_assert_cmphex(ram_r32(f, MARK), ==, 0x7D);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);
}

/*
 * CMP_WR16B (0x4e): 16 bytes replaced by Operand2 when they equal
 * Operand1; the old octword returns in CS_GPR4 (low qword) and CS_GPR5.
 */
static void test_atomic_octword(Fixture *f, gconstpointer data)
{
    uint32_t hdr = ATOMIC_HDR | MI_ATOMIC_OCTWORD | MI_ATOMIC_CMP_WR16B |
                   MI_ATOMIC_RETURN_DATA;
    Ring r;

    ring_init(f, &r, RCS, RING_RCS);
    ram_w64(f, DATA, 0x0000000200000001ull);
    ram_w64(f, DATA + 8, 0x0000000400000003ull);
    /* Operand1 in dwords 3, 5, 7, 9 equal: Operand2 (4, 6, 8, 10) stored. */
    EMIT(&r.b, hdr | MI_ATOMIC_INLINE_DATA | INSTR_LEN(11), DATA, 0,
         1, 0xA1, 2, 0xA2, 3, 0xA3, 4, 0xA4);
    ring_run(&r);
    g_assert_cmphex(ram_r64(f, DATA), ==, 0x000000A2000000A1ull);
    g_assert_cmphex(ram_r64(f, DATA + 8), ==, 0x000000A4000000A3ull);
    g_assert_cmphex(gpr(f, RCS, 4), ==, 0x0000000200000001ull);
    g_assert_cmphex(gpr(f, RCS, 5), ==, 0x0000000400000003ull);

    /* Unequal in the top dword only: memory stays, it still returns. */
    EMIT(&r.b, hdr | MI_ATOMIC_INLINE_DATA | INSTR_LEN(11), DATA, 0,
         0xA1, 1, 0xA2, 2, 0xA3, 3, 0xA5, 4);
    ring_run(&r);
    g_assert_cmphex(ram_r64(f, DATA), ==, 0x000000A2000000A1ull);
    g_assert_cmphex(ram_r64(f, DATA + 8), ==, 0x000000A4000000A3ull);
    g_assert_cmphex(gpr(f, RCS, 5), ==, 0x000000A4000000A3ull);

    /* From the GPRs: Operand1 [GPR1, GPR0], Operand2 [GPR3, GPR2]. */
    set_gpr(f, RCS, 0, 0x000000A2000000A1ull);
    set_gpr(f, RCS, 1, 0x000000A4000000A3ull);
    set_gpr(f, RCS, 2, 0x5555555566666666ull);
    set_gpr(f, RCS, 3, 0x7777777788888888ull);
    EMIT(&r.b, hdr | INSTR_LEN(3), DATA, 0);
    ring_run(&r);
    g_assert_cmphex(ram_r64(f, DATA), ==, 0x5555555566666666ull);
    g_assert_cmphex(ram_r64(f, DATA + 8), ==, 0x7777777788888888ull);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/*
 * Lengths: a longer command's extra dwords are skipped (NEO and GVT send
 * 11 dwords at every size); a shorter one executes with its missing
 * operand dwords as 0, logs a guest error, and the next command is parsed
 * where its length says (cs-mi.c, mi_atomic_operands).
 */
static void test_atomic_lengths(Fixture *f, gconstpointer data)
{
    Ring r;

    ring_init(f, &r, RCS, RING_RCS);
    ram_w32(f, DATA, 10);
    EMIT(&r.b, ATOMIC_HDR | MI_ATOMIC_ADD | MI_ATOMIC_INLINE_DATA |
         INSTR_LEN(11), DATA, 0, 5, 0, 100, 100, 100, 100, 100, 100);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA), ==, 15);
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);

    /* A qword ADD with Operand1's high dword (dword 5) left out. */
    ram_w64(f, DATA + 8, 0x00000001FFFFFFFFull);
    EMIT(&r.b, ATOMIC_HDR | MI_ATOMIC_QWORD | MI_ATOMIC_OP_QWORD |
         MI_ATOMIC_ADD | MI_ATOMIC_INLINE_DATA | INSTR_LEN(5), DATA + 8, 0,
         1, 0);
    sdi(&r.b, MARK, 0x51);
    ring_run(&r);
    g_assert_cmphex(ram_r64(f, DATA + 8), ==, 0x0000000200000000ull);
    g_assert_cmphex(ram_r32(f, MARK), ==, 0x51);
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);

    /* An increment needs no operand: exact even without any. */
    ram_w32(f, DATA + 16, 41);
    EMIT(&r.b, ATOMIC_HDR | MI_ATOMIC_INC | MI_ATOMIC_INLINE_DATA |
         INSTR_LEN(3), DATA + 16, 0);
    sdi(&r.b, MARK, 0x52);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 16), ==, 42);
    g_assert_cmphex(ram_r32(f, MARK), ==, 0x52);
    g_assert_cmpuint(f->fh->guest_errors, ==, 2);

    /* Two dwords: the address's high dword is 0 too. */
    EMIT(&r.b, ATOMIC_HDR | MI_ATOMIC_INC | INSTR_LEN(2), DATA + 16);
    sdi(&r.b, MARK, 0x53);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 16), ==, 43);
    g_assert_cmphex(ram_r32(f, MARK), ==, 0x53);
    g_assert_cmpuint(f->fh->guest_errors, ==, 3);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
    g_assert_true(engine_idle(f, RCS));
}

/*
 * Reserved encodings are the hardware's instruction error: the engine
 * halts (ESR bit 0) with memory untouched, until reset.
 */
static void test_atomic_reserved(Fixture *f, gconstpointer data)
{
    static const uint32_t bad[] = {
        3u << MI_ATOMIC_SIZE_SHIFT | 0x6e << MI_ATOMIC_OPCODE_SHIFT,
        MI_ATOMIC_DWORD | 0x10 << MI_ATOMIC_OPCODE_SHIFT,
        MI_ATOMIC_DWORD | 0x00 << MI_ATOMIC_OPCODE_SHIFT,
        MI_ATOMIC_QWORD | MI_ATOMIC_ADD,                /* a dword opcode */
        MI_ATOMIC_DWORD | MI_ATOMIC_OP_QWORD | MI_ATOMIC_ADD,
        MI_ATOMIC_OCTWORD | MI_ATOMIC_OP_OCTWORD | MI_ATOMIC_ADD,
        MI_ATOMIC_OCTWORD | MI_ATOMIC_CMP_WR,
    };
    Ring r;

    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_test_message("MI_ATOMIC 0x%08x", ATOMIC_HDR | bad[i]);
        ring_init(f, &r, RCS, RING_RCS);
        ram_w64(f, DATA, 0x5A5A5A5A5A5A5A5Aull);
        EMIT(&r.b, ATOMIC_HDR | bad[i] | INSTR_LEN(3), DATA, 0);
        sdi(&r.b, MARK, i + 1);
        ring_run(&r);
        g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==,
                        INTEL_ERROR_INSTRUCTION);
        g_assert_cmphex(ram_r64(f, DATA), ==, 0x5A5A5A5A5A5A5A5Aull);
        g_assert_cmphex(ram_r32(f, MARK), !=, i + 1);
        wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
        assert_engine_reset(f, RCS);
    }
}

static const FixtureTest tests[] = {
    { "/intel/cs/mi-atomic/ops", test_atomic_ops },
    { "/intel/cs/mi-atomic/known-values", test_atomic_known },
    { "/intel/cs/mi-atomic/move8b-blorp", test_atomic_move8b_blorp },
    { "/intel/cs/mi-atomic/octword", test_atomic_octword },
    { "/intel/cs/mi-atomic/lengths", test_atomic_lengths },
    { "/intel/cs/mi-atomic/reserved", test_atomic_reserved },
};

FIXTURE_MAIN(fixture_setup_i915)
