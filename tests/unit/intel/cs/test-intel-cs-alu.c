/*
 * Unit tests of the intel-gpu CS ALU (MI_MATH) and predication
 * (MI_PREDICATE, MI_SET_PREDICATE, predicated commands).
 *
 * Expected values come from the PRM (DG2 vol. 8 "Command Stream
 * Programming", and the Gen11 command layouts) and from what i915 does
 * and expects (drivers/gpu/drm/i915/gt/intel_lrc.c, intel_engine_cs.c),
 * computed by hand.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"

/* ---- MI_MATH ---- */

typedef struct AluResult {
    uint64_t accu, zf, cf;
} AluResult;

/* R0 = a, R1 = b; LOAD SRCA R0, LOAD SRCB R1, op; R2..R4 = ACCU, ZF, CF. */
static AluResult alu_binop(Ring *r, unsigned op, uint64_t a, uint64_t b)
{
    Fixture *f = r->b.f;
    IntelEngineId id = r->id;

    EMIT(&r->b, MI_LOAD_REGISTER_IMM(4), gpr_reg(f, id, 0), a,
         gpr_reg(f, id, 0) + 4, a >> 32, gpr_reg(f, id, 1), b,
         gpr_reg(f, id, 1) + 4, b >> 32);
    EMIT(&r->b, MI_MATH(6),
         MI_MATH_ALU(MI_ALU_LOAD, MI_ALU_SRCA, MI_ALU_R(0)),
         MI_MATH_ALU(MI_ALU_LOAD, MI_ALU_SRCB, MI_ALU_R(1)),
         MI_MATH_ALU(op, 0, 0),
         MI_MATH_ALU(MI_ALU_STORE, MI_ALU_R(2), MI_ALU_ACCU),
         MI_MATH_ALU(MI_ALU_STORE, MI_ALU_R(3), MI_ALU_ZF),
         MI_MATH_ALU(MI_ALU_STORE, MI_ALU_R(4), MI_ALU_CF));
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
    { MI_ALU_ADD, 5, 7, 12, 0, 0 },
    { MI_ALU_ADD, ALL1, 1, 0, 1, 1 },
    { MI_ALU_ADD, MSB, MSB, 0, 1, 1 },
    { MI_ALU_ADD, 0xFFFFFFFF, 1, 0x100000000ull, 0, 0 },
    { MI_ALU_ADD, ALL1, ALL1, 0xFFFFFFFFFFFFFFFEull, 0, 1 },
    /* SUB: ACCU = SRCA - SRCB; CF is the borrow. */
    { MI_ALU_SUB, 7, 5, 2, 0, 0 },
    { MI_ALU_SUB, 5, 7, 0xFFFFFFFFFFFFFFFEull, 0, 1 },
    { MI_ALU_SUB, 7, 7, 0, 1, 0 },
    { MI_ALU_SUB, 0, 1, ALL1, 0, 1 },
    { MI_ALU_AND, 0xF0F0, 0xFF00, 0xF000, 0, 0 },
    { MI_ALU_AND, 0xF0, 0x0F, 0, 1, 0 },
    { MI_ALU_AND, ALL1, 0x123456789ABCDEF0ull, 0x123456789ABCDEF0ull, 0, 0 },
    { MI_ALU_OR, 0xF0F0, 0xFF00, 0xFFF0, 0, 0 },
    { MI_ALU_OR, 0, 0, 0, 1, 0 },
    { MI_ALU_OR, MSB, 1, MSB | 1, 0, 0 },
    { MI_ALU_XOR, 0xF0F0, 0xFF00, 0x0FF0, 0, 0 },
    { MI_ALU_XOR, 0x1234, 0x1234, 0, 1, 0 },
    { MI_ALU_XOR, ALL1, MSB, 0x7FFFFFFFFFFFFFFFull, 0, 0 },
    /*
     * Shifts: SRCA by SRCB, where only 1, 2, 4, 8, 16 and 32 exist; other
     * amounts round down to the next of these, 0 does not shift, and
     * anything above 32 shifts by 32.
     */
    { MI_ALU_SHL, 1, 0, 1, 0, -1 },
    { MI_ALU_SHL, 1, 1, 2, 0, -1 },
    { MI_ALU_SHL, 1, 2, 4, 0, -1 },
    { MI_ALU_SHL, 1, 3, 4, 0, -1 },
    { MI_ALU_SHL, 1, 4, 0x10, 0, -1 },
    { MI_ALU_SHL, 1, 7, 0x10, 0, -1 },
    { MI_ALU_SHL, 1, 8, 0x100, 0, -1 },
    { MI_ALU_SHL, 1, 15, 0x100, 0, -1 },
    { MI_ALU_SHL, 1, 16, 0x10000, 0, -1 },
    { MI_ALU_SHL, 1, 31, 0x10000, 0, -1 },
    { MI_ALU_SHL, 1, 32, 0x100000000ull, 0, -1 },
    { MI_ALU_SHL, 1, 33, 0x100000000ull, 0, -1 },
    { MI_ALU_SHL, 1, 64, 0x100000000ull, 0, -1 },
    { MI_ALU_SHL, 1, 0x100000000ull, 0x100000000ull, 0, -1 },
    { MI_ALU_SHL, 0xFFFFFFFF00000000ull, 32, 0, 1, -1 },
    { MI_ALU_SHR, MSB, 1, 0x4000000000000000ull, 0, -1 },
    { MI_ALU_SHR, MSB, 12, 0x0080000000000000ull, 0, -1 },
    { MI_ALU_SHR, MSB, 40, 0x80000000ull, 0, -1 },
    { MI_ALU_SHR, MSB, 0, MSB, 0, -1 },
    { MI_ALU_SHR, 1, 1, 0, 1, -1 },
    { MI_ALU_SAR, MSB, 4, 0xF800000000000000ull, 0, -1 },
    { MI_ALU_SAR, MSB, 33, 0xFFFFFFFF80000000ull, 0, -1 },
    { MI_ALU_SAR, MSB, 6, 0xF800000000000000ull, 0, -1 },
    { MI_ALU_SAR, 0x4000000000000000ull, 2, 0x1000000000000000ull, 0, -1 },
    { MI_ALU_SAR, 0x4000000000000000ull, 17, 0x0000400000000000ull, 0, -1 },
    { MI_ALU_SAR, ALL1, 32, ALL1, 0, -1 },
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
    EMIT(&r.b, MI_MATH(4),
         MI_MATH_ALU(MI_ALU_LOADINV, MI_ALU_SRCA, MI_ALU_R(0)),
         MI_MATH_ALU(MI_ALU_LOAD0, MI_ALU_SRCB, 0),
         MI_MATH_ALU(MI_ALU_ADD, 0, 0),
         MI_MATH_ALU(MI_ALU_STORE, MI_ALU_R(5), MI_ALU_ACCU));
    EMIT(&r.b, MI_MATH(4),
         MI_MATH_ALU(MI_ALU_LOAD1, MI_ALU_SRCA, 0),
         MI_MATH_ALU(MI_ALU_LOAD0, MI_ALU_SRCB, 0),
         MI_MATH_ALU(MI_ALU_OR, 0, 0),
         MI_MATH_ALU(MI_ALU_STORE, MI_ALU_R(6), MI_ALU_ACCU));
    EMIT(&r.b, MI_MATH(5),
         MI_MATH_ALU(MI_ALU_LOAD0, MI_ALU_SRCA, 0),
         MI_MATH_ALU(MI_ALU_LOAD0, MI_ALU_SRCB, 0),
         MI_MATH_ALU(MI_ALU_ADD, 0, 0),
         MI_MATH_ALU(MI_ALU_STORE, MI_ALU_R(7), MI_ALU_ACCU),
         MI_MATH_ALU(MI_ALU_STORE, MI_ALU_R(8), MI_ALU_ZF));
    ring_run(&r);
    g_assert_cmphex(gpr(f, RCS, 5), ==, 0xFFFFFFFFFFFFFF00ull);
    g_assert_cmphex(gpr(f, RCS, 6), ==, ALL1);
    g_assert_cmphex(gpr(f, RCS, 7), ==, 0);
    g_assert_cmphex(gpr(f, RCS, 8), ==, ALL1);

    /* STOREINV of ACCU, ZF and CF; R15 as source and destination. */
    set_gpr(f, RCS, 15, 12);
    set_gpr(f, RCS, 14, 0);
    EMIT(&r.b, MI_MATH(7),
         MI_MATH_ALU(MI_ALU_LOAD, MI_ALU_SRCA, MI_ALU_R(15)),
         MI_MATH_ALU(MI_ALU_LOAD, MI_ALU_SRCB, MI_ALU_R(14)),
         MI_MATH_ALU(MI_ALU_ADD, 0, 0),
         MI_MATH_ALU(MI_ALU_STOREINV, MI_ALU_R(9), MI_ALU_ACCU),
         MI_MATH_ALU(MI_ALU_STOREINV, MI_ALU_R(10), MI_ALU_ZF),
         MI_MATH_ALU(MI_ALU_STOREINV, MI_ALU_R(11), MI_ALU_CF),
         MI_MATH_ALU(MI_ALU_STORE, MI_ALU_R(15), MI_ALU_ACCU));
    ring_run(&r);
    g_assert_cmphex(gpr(f, RCS, 9), ==, ~12ull);
    g_assert_cmphex(gpr(f, RCS, 10), ==, ALL1);
    g_assert_cmphex(gpr(f, RCS, 11), ==, ALL1);
    g_assert_cmphex(gpr(f, RCS, 15), ==, 12);

    /* The flags stay until the next ALU operation: a LOAD keeps them. */
    EMIT(&r.b, MI_MATH(6),
         MI_MATH_ALU(MI_ALU_LOAD1, MI_ALU_SRCA, 0),
         MI_MATH_ALU(MI_ALU_LOAD1, MI_ALU_SRCB, 0),
         MI_MATH_ALU(MI_ALU_ADD, 0, 0),
         MI_MATH_ALU(MI_ALU_LOAD0, MI_ALU_SRCA, 0),
         MI_MATH_ALU(MI_ALU_STORE, MI_ALU_R(12), MI_ALU_CF),
         MI_MATH_ALU(MI_ALU_STORE, MI_ALU_R(13), MI_ALU_ACCU));
    ring_run(&r);
    g_assert_cmphex(gpr(f, RCS, 12), ==, ALL1);
    g_assert_cmphex(gpr(f, RCS, 13), ==, 0xFFFFFFFFFFFFFFFEull);

    /* Each engine has its own GPRs and ALU: BCS_GPR at 0x22600. */
    rcs_r2 = gpr(f, RCS, 2);
    ring_init(f, &rb, BCS, RING_BCS);
    res = alu_binop(&rb, MI_ALU_SUB, 100, 58);
    g_assert_cmphex(res.accu, ==, 42);
    g_assert_cmphex(rd(f, 0x22600 + 16), ==, 42);
    g_assert_cmphex(gpr(f, RCS, 2), ==, rcs_r2);
}

/* ---- predication ---- */

typedef struct PredCompare {
    uint32_t op;            /* MI_PREDICATE_COMPAREOP_* */
    uint64_t src0, src1, data;
    bool result;
} PredCompare;

static const PredCompare pred_compares[] = {
    { MI_PREDICATE_COMPAREOP_TRUE, 0, 0, 0, true },
    { MI_PREDICATE_COMPAREOP_FALSE, 0, 0, 0, false },
    { MI_PREDICATE_COMPAREOP_SRCS_EQUAL, 7, 7, 0, true },
    { MI_PREDICATE_COMPAREOP_SRCS_EQUAL, 7, 5, 0, false },
    { MI_PREDICATE_COMPAREOP_SRCS_EQUAL, 0x100000007ull, 7, 0, false },
    { MI_PREDICATE_COMPAREOP_DELTAS_EQUAL, 7, 5, 2, true },
    { MI_PREDICATE_COMPAREOP_DELTAS_EQUAL, 7, 5, 3, false },
    { MI_PREDICATE_COMPAREOP_DELTAS_EQUAL, 5, 7, 0xFFFFFFFFFFFFFFFEull, true },
};

static const uint32_t pred_loads[] = {
    MI_PREDICATE_LOADOP_KEEP, MI_PREDICATE_LOADOP_LOAD,
    MI_PREDICATE_LOADOP_LOADINV,
};

static const uint32_t pred_combines[] = {
    MI_PREDICATE_COMBINEOP_SET, MI_PREDICATE_COMBINEOP_AND,
    MI_PREDICATE_COMBINEOP_OR, MI_PREDICATE_COMBINEOP_XOR,
};

static bool combine(uint32_t op, bool p, bool v)
{
    switch (op) {
    case MI_PREDICATE_COMBINEOP_SET: return v;
    case MI_PREDICATE_COMBINEOP_AND: return p && v;
    case MI_PREDICATE_COMBINEOP_OR: return p || v;
    default: return p != v;
    }
}

static void set_reg64(Fixture *f, IntelEngineId id, uint32_t off, uint64_t v)
{
    ewr(f, id, off, v);
    ewr(f, id, off + 4, v >> 32);
}

/*
 * Predicated stores: PIPE_CONTROL's post-sync write of 0xAA to DATA + 8,
 * MI_STORE_REGISTER_MEM of CS_GPR0 to DATA + 16.
 */
static void predicated_stores(Ring *r)
{
    pc_store(&r->b, GFX_PREDICATE_ENABLE, DATA + 8, 0xAA);
    EMIT(&r->b, MI_STORE_REGISTER_MEM_GEN8 | MI_USE_GGTT |
         MI_SRM_PREDICATE_ENABLE, gpr_reg(r->b.f, RCS, 0), DATA + 16, 0);
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
     * AND and OR is not tested: PRM Vol 2a, MI_PREDICATE does not say
     * whether the inversion applies before or after the combination, and
     * the two readings differ only there.
     */
    for (unsigned i = 0; i < G_N_ELEMENTS(pred_compares); i++) {
        const PredCompare *c = &pred_compares[i];

        for (unsigned l = 0; l < G_N_ELEMENTS(pred_loads); l++) {
            for (unsigned k = 0; k < G_N_ELEMENTS(pred_combines); k++) {
                for (unsigned p0 = 0; p0 < 2; p0++) {
                    uint32_t load = pred_loads[l], comb = pred_combines[k];
                    bool expect;

                    if (load == MI_PREDICATE_LOADOP_KEEP) {
                        expect = p0;
                    } else if (load == MI_PREDICATE_LOADOP_LOAD) {
                        expect = combine(comb, p0, c->result);
                    } else if (comb == MI_PREDICATE_COMBINEOP_SET) {
                        expect = !c->result;
                    } else if (comb == MI_PREDICATE_COMBINEOP_XOR) {
                        expect = !(p0 ^ c->result);
                    } else {
                        continue;
                    }
                    set_reg64(f, RCS, INTEL_RING_PREDICATE_SRC0, c->src0);
                    set_reg64(f, RCS, INTEL_RING_PREDICATE_SRC1, c->src1);
                    set_reg64(f, RCS, INTEL_RING_PREDICATE_DATA, c->data);
                    ewr(f, RCS, INTEL_RING_PREDICATE_RESULT, p0);
                    EMIT(&r.b, MI_PREDICATE | load | comb | c->op);
                    ring_run(&r);
                    if ((erd(f, RCS, INTEL_RING_PREDICATE_RESULT) & 1) !=
                        expect) {
                        g_error("MI_PREDICATE compare %u (case %u) load %u "
                                "combine %u, predicate %u: expected %u",
                                c->op, i, load >> 6, comb >> 3, p0, expect);
                    }
                }
            }
        }
    }
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);

    /* MI_BATCH_BUFFER_START with predication: taken iff RESULT_1 is 1. */
    sdi(&bb, DATA, 1);
    EMIT(&bb, MI_BATCH_BUFFER_END);
    for (uint32_t taken = 0; taken < 2; taken++) {
        ewr(f, RCS, INTEL_RING_PREDICATE_RESULT_1, taken);
        bb_start(&r.b, BATCH, MI_BATCH_PREDICATE);
        sdi(&r.b, DATA + 4, 2 + taken);
        ring_run(&r);
        g_assert_cmphex(ram_r32(f, DATA), ==, taken);
        g_assert_cmphex(ram_r32(f, DATA + 4), ==, 2 + taken);
    }
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
    set_gpr(f, RCS, 0, 0xBB);
    predicated_stores(&r);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 16), ==, 0);
    /* Predicate set by MI_PREDICATE itself, then they execute. */
    EMIT(&r.b, MI_PREDICATE | MI_PREDICATE_LOADOP_LOAD |
         MI_PREDICATE_COMBINEOP_SET | MI_PREDICATE_COMPAREOP_TRUE);
    predicated_stores(&r);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 0xAA);
    g_assert_cmphex(ram_r32(f, DATA + 16), ==, 0xBB);
    /* Without the enable bit a PIPE_CONTROL ignores the predicate. */
    ewr(f, RCS, INTEL_RING_PREDICATE_RESULT, 0);
    pc_store(&r.b, 0, DATA + 24, 0xCC);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 24), ==, 0xCC);

    /*
     * MI_SET_PREDICATE "NOOP on result set" (4): following commands are
     * NOOPs while MI_PREDICATE_RESULT is set, until predication is
     * disabled (0) again.
     */
    ewr(f, RCS, INTEL_RING_PREDICATE_RESULT, 1);
    EMIT(&r.b, MI_SET_PREDICATE | MI_SET_PREDICATE_NOOP_RESULT_SET);
    sdi(&r.b, DATA + 32, 1);
    EMIT(&r.b, MI_SET_PREDICATE | MI_SET_PREDICATE_DISABLE);
    sdi(&r.b, DATA + 36, 2);
    ring_run(&r);
    g_assert_cmphex(ram_r32(f, DATA + 32), ==, 0);
    g_assert_cmphex(ram_r32(f, DATA + 36), ==, 2);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

static const FixtureTest tests[] = {
    { "/intel/cs/mi-math", test_mi_math },
    { "/intel/cs/predication", test_predication },
};

FIXTURE_MAIN(fixture_setup_i915)
