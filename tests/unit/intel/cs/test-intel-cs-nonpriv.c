/*
 * Unit tests of the registers a non-privileged (PPGTT) batch may write on
 * the render engine: the user-mode list (cs-nonpriv.c), the
 * RING_FORCE_TO_NONPRIV slots as i915 programs them on Ice Lake, and what
 * the command streamer does with a refused register.
 *
 * Expected values: what Mesa 22.3 (iris_state.c, anv genX_state.c) and NEO
 * write from their batches on Gen11 and the effect they count on; i915
 * 6.1's icl_whitelist_build() and intel_engine_apply_whitelist()
 * (gt/intel_workarounds.c); the Gen11 Command Reference's
 * MI_LOAD_REGISTER_IMM (a register not listed turns the whole command
 * into a NOOP); PRM Vol 8 "User Mode Privileged Commands" (the error
 * flag).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"

/* RING_FORCE_TO_NONPRIV as i915 encodes it (gt/intel_engine_regs.h). */
#define NONPRIV_ACCESS_RD   (1u << 28)
#define NONPRIV_ACCESS_WR   (2u << 28)
#define NONPRIV_DENY        (1u << 30)
#define NONPRIV_RANGE_4     1u
#define NONPRIV_RANGE_16    2u

#define SLOT(i)     (INTEL_RCS0_BASE + INTEL_RING_FORCE_TO_NONPRIV(i))
#define BB(n)       (0x1000u * (n))         /* a user batch's page */
#define PRIV        INTEL_TRACE_PRIVILEGE

/*
 * i915 6.1 on Ice Lake: icl_whitelist_build()'s render entries, sorted by
 * offset as i915's lists are, then RING_NOPID in every unused slot.
 */
static void i915_icl_whitelist(Fixture *f)
{
    static const uint32_t slots[] = {
        INTEL_PS_INVOCATION_COUNT | NONPRIV_ACCESS_RD | NONPRIV_RANGE_4,
        INTEL_SLICE_COMMON_ECO_CHICKEN1,
        INTEL_SAMPLER_MODE,
        INTEL_HALF_SLICE_CHICKEN7,
    };

    for (unsigned i = 0; i < 12; i++) {
        wr(f, SLOT(i), i < G_N_ELEMENTS(slots) ? slots[i] :
           INTEL_RCS0_BASE + INTEL_RING_NOPID);
    }
}

/* A render context whose PPGTT maps USER_VA to USER_PA (2 MiB). */
static void user_context(Fixture *f, Ctx *c)
{
    uint64_t pml4 = table_alloc(f);

    map_2m(f, pml4, USER_VA, USER_PA);
    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, c, RCS, CTX_A, CRING_A, 0x10, pml4);
}

/* Run the user batch @bb (ended here) from the context's ring. */
static void run_user(Fixture *f, Ctx *c, Buf *bb)
{
    EMIT(bb, MI_BATCH_BUFFER_END);
    bb_start(&c->ring, USER_VA + (bb->base - USER_PA), MI_BATCH_PPGTT);
    ctx_submit(c);
    step(f);
    g_assert_true(engine_idle(f, RCS));
}

static uint32_t esr_privilege(Fixture *f)
{
    return erd(f, RCS, INTEL_RING_ESR) & INTEL_ERROR_PRIVILEGE;
}

/*
 * What iris (Mesa 22.3) writes on Gen11 at a render context's start, each
 * register in an LRI of its own (iris_emit_reg), NEO's thread arbitration
 * (TD_CTL2) and anv's preemption mode (CS_CHICKEN1), plus mi_builder's
 * CS-relative GPR store: all take effect from a user batch, three of them
 * through i915's slots.
 */
static void test_mesa_registers(Fixture *f, gconstpointer data)
{
    static const struct {
        uint32_t reg, value, reads;
    } writes[] = {
        { INTEL_SAMPLER_MODE, 1u << 21 | 1u << 5, 1u << 5 },
        { INTEL_HALF_SLICE_CHICKEN7, 1u << 17 | 1u << 1, 1u << 1 },
        { INTEL_GT_MODE, 1u << 26 | 1u << 10, 1u << 10 },
        { INTEL_L3CNTLREG, 0x60000661, 0x60000661 },
        { INTEL_CS_DEBUG_MODE2, 1u << 20 | 1u << 4, 1u << 4 },
        { INTEL_TCCNTLREG, 0xf, 0xf },
        { INTEL_CACHE_MODE_0, 1u << 31 | 1u << 15, 1u << 15 },
        { INTEL_CACHE_MODE_1, 0x00400040, 0x0040 },
        { INTEL_CS_CHICKEN1, 1u << 16 | 1u << 0, 1u << 0 },
        { INTEL_SLICE_COMMON_ECO_CHICKEN1, 1u << 27 | 1u << 11, 1u << 11 },
        { INTEL_TD_CTL2, 0x00000001, 0x00000001 },
        { INTEL_TD_CTL, 0x12345678, 0x5678 },
        { 0x2430, 7, 7 },                       /* 3DPRIM_START_VERTEX */
        { 0x2500, 9, 9 },                       /* GPUGPU_DISPATCHDIMX */
        { 0x5280, 0x40, 0x40 },                 /* SO_WRITE_OFFSET0 */
    };
    Buf bb = buf_at(f, USER_PA + BB(1));
    Ctx c;

    i915_icl_whitelist(f);
    user_context(f, &c);
    for (unsigned i = 0; i < G_N_ELEMENTS(writes); i++) {
        lri(&bb, writes[i].reg, writes[i].value);
    }
    EMIT(&bb, MI_LOAD_REGISTER_IMM(2) | MI_LRI_LRM_CS_MMIO,
         INTEL_RING_CS_GPR(0), 0x1234, INTEL_RING_CS_GPR(0) + 4, 0x5678);
    run_user(f, &c, &bb);
    for (unsigned i = 0; i < G_N_ELEMENTS(writes); i++) {
        g_test_message("register 0x%x", writes[i].reg);
        g_assert_cmphex(rd(f, writes[i].reg), ==, writes[i].reads);
    }
    g_assert_cmphex(gpr(f, RCS, 0), ==, 0x0000567800001234ull);
    g_assert_cmphex(esr_privilege(f), ==, 0);
    g_assert_cmpuint(f->fh->traces[PRIV], ==, 0);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, CSB_DONE);
}

/*
 * Registers Gen11's list leaves out are refused: what i915 opens only to
 * reads (PS_INVOCATION_COUNT, PS_DEPTH_COUNT), what no list has
 * (3D_CHICKEN3, anv's AA line fix), what DG2's has and Gen11 lacks
 * (L3ALLOCREG), the engine's own controls (HWS_PGA).
 */
static void test_refused_registers(Fixture *f, gconstpointer data)
{
    static const uint32_t refused[] = {
        INTEL_PS_INVOCATION_COUNT, INTEL_PS_INVOCATION_COUNT + 4,
        INTEL_PS_DEPTH_COUNT + 4, 0x2090, 0xB134,
        INTEL_RCS0_BASE + INTEL_RING_HWS_PGA,
    };
    Ctx c;

    i915_icl_whitelist(f);
    user_context(f, &c);
    for (unsigned i = 0; i < G_N_ELEMENTS(refused); i++) {
        Buf bb = buf_at(f, USER_PA + BB(1 + i));
        uint32_t old = rd(f, refused[i]);

        g_test_message("register 0x%x", refused[i]);
        lri(&bb, refused[i], 0x00DE0000);
        run_user(f, &c, &bb);
        g_assert_cmphex(rd(f, refused[i]), ==, old);
        g_assert_cmpuint(f->fh->traces[PRIV], ==, i + 1);
        g_assert_cmphex(f->fh->last_trace[PRIV][0], ==, RCS);
        g_assert_cmphex(f->fh->last_trace[PRIV][1], ==,
                        MI_LOAD_REGISTER_IMM(1));
        g_assert_cmphex(f->fh->last_trace[PRIV][2], ==, refused[i]);
    }
    /*
     * Traced, not logged: user-mode drivers make such writes as normal
     * work (NEO's GEN9_ROW_CHICKEN4).
     */
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);
    g_assert_cmphex(esr_privilege(f), ==, INTEL_ERROR_PRIVILEGE);
    /* i915 masks it (RING_EMR): no error interrupt; the context went on. */
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EIR), ==, 0);
}

/*
 * One refused register in an LRI of several: the whole command is a
 * NOOP, the allowed registers before and after it included; the batch
 * goes on with the next command.  LRM and LRR refuse their one register.
 */
static void test_mixed_lri(Fixture *f, gconstpointer data)
{
    Buf bb = buf_at(f, USER_PA + BB(1));
    uint32_t hws;
    Ctx c;

    user_context(f, &c);
    hws = erd(f, RCS, INTEL_RING_HWS_PGA);
    EMIT(&bb, MI_LOAD_REGISTER_IMM(3), gpr_reg(f, RCS, 0), 0x11,
         INTEL_RCS0_BASE + INTEL_RING_HWS_PGA, 0x00DEA000,
         gpr_reg(f, RCS, 1), 0x22);
    sdi_ppgtt(&bb, USER_VA + 0x10000, 0x600D);
    /* LRM and LRR of a refused register; an allowed LRR after them. */
    ram_w32(f, USER_PA + 0x10010, 0x00DEA000);
    EMIT(&bb, MI_LOAD_REGISTER_MEM_GEN8, INTEL_RCS0_BASE + INTEL_RING_HWS_PGA,
         USER_VA + 0x10010, 0);
    /* In the batch: the context's restore sets the GPRs it saved. */
    EMIT(&bb, MI_LOAD_REGISTER_IMM(1), gpr_reg(f, RCS, 3), 0x00DEA000);
    EMIT(&bb, MI_LOAD_REGISTER_REG | INSTR_LEN(3), gpr_reg(f, RCS, 3),
         INTEL_RCS0_BASE + INTEL_RING_HWS_PGA);
    EMIT(&bb, MI_LOAD_REGISTER_REG | INSTR_LEN(3), gpr_reg(f, RCS, 3),
         gpr_reg(f, RCS, 2));
    run_user(f, &c, &bb);
    g_assert_cmphex(gpr(f, RCS, 0), ==, 0);
    g_assert_cmphex(gpr(f, RCS, 1), ==, 0);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_HWS_PGA), ==, hws);
    g_assert_cmphex(ram_r32(f, USER_PA + 0x10000), ==, 0x600D);
    g_assert_cmphex(gpr(f, RCS, 2) & 0xffffffff, ==, 0x00DEA000);
    g_assert_cmphex(esr_privilege(f), ==, INTEL_ERROR_PRIVILEGE);
    g_assert_cmpuint(f->fh->traces[PRIV], ==, 3);
    g_assert_cmphex(f->fh->last_trace[PRIV][1], ==,
                    MI_LOAD_REGISTER_REG | INSTR_LEN(3));
    g_assert_cmphex(f->fh->last_trace[PRIV][2], ==,
                    INTEL_RCS0_BASE + INTEL_RING_HWS_PGA);
    /* Register refusals are traced, not logged. */
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);

    /* The same LRI without the refused register writes both. */
    bb = buf_at(f, USER_PA + BB(2));
    EMIT(&bb, MI_LOAD_REGISTER_IMM(2), gpr_reg(f, RCS, 0), 0x11,
         gpr_reg(f, RCS, 1), 0x22);
    run_user(f, &c, &bb);
    g_assert_cmphex(gpr(f, RCS, 0), ==, 0x11);
    g_assert_cmphex(gpr(f, RCS, 1), ==, 0x22);
    g_assert_cmpuint(f->fh->traces[PRIV], ==, 3);
}

/*
 * RING_FORCE_TO_NONPRIV: a slot grants writes with access RW or WR, over
 * 1, 4, 16 or 64 registers; RD and deny entries grant none; a slot of
 * another engine grants nothing here; the read of an SRM is always done.
 */
static void test_force_to_nonpriv(Fixture *f, gconstpointer data)
{
    Buf bb = buf_at(f, USER_PA + BB(1));
    Ctx c;

    user_context(f, &c);
    /* No slot programmed: SAMPLER_MODE is refused. */
    lri(&bb, INTEL_SAMPLER_MODE, 0x00200020);
    run_user(f, &c, &bb);
    g_assert_cmphex(rd(f, INTEL_SAMPLER_MODE), ==, 0);

    /* BCS's slot does not open it on RCS; i915's RCS slots do. */
    wr(f, INTEL_BCS0_BASE + INTEL_RING_FORCE_TO_NONPRIV(0),
       INTEL_SAMPLER_MODE);
    bb = buf_at(f, USER_PA + BB(2));
    lri(&bb, INTEL_SAMPLER_MODE, 0x00200020);
    run_user(f, &c, &bb);
    g_assert_cmphex(rd(f, INTEL_SAMPLER_MODE), ==, 0);
    i915_icl_whitelist(f);
    bb = buf_at(f, USER_PA + BB(3));
    lri(&bb, INTEL_SAMPLER_MODE, 0x00200020);
    EMIT(&bb, MI_LOAD_REGISTER_IMM(1), gpr_reg(f, RCS, 4), 0x00020002);
    EMIT(&bb, MI_LOAD_REGISTER_REG | INSTR_LEN(3), gpr_reg(f, RCS, 4),
         INTEL_HALF_SLICE_CHICKEN7);
    /*
     * Read-only PS_DEPTH_COUNT: no write, but SRM reads it (the value
     * the context's restore loaded).
     */
    lri(&bb, INTEL_PS_DEPTH_COUNT, 0xBAD);
    EMIT(&bb, MI_STORE_REGISTER_MEM_GEN8, INTEL_PS_DEPTH_COUNT,
         USER_VA + 0x10020, 0);
    ram_w32(f, USER_PA + 0x10020, 0xffffffff);
    run_user(f, &c, &bb);
    g_assert_cmphex(rd(f, INTEL_SAMPLER_MODE), ==, 0x20);
    g_assert_cmphex(rd(f, INTEL_HALF_SLICE_CHICKEN7), ==, 0x2);
    g_assert_cmphex(rd(f, INTEL_PS_DEPTH_COUNT), !=, 0xBAD);
    g_assert_cmphex(ram_r32(f, USER_PA + 0x10020), ==,
                    rd(f, INTEL_PS_DEPTH_COUNT));

    /* WR access over 16 registers; a deny entry; a RD entry. */
    wr(f, SLOT(4), 0xC000 | NONPRIV_ACCESS_WR | NONPRIV_RANGE_16);
    wr(f, SLOT(5), 0xC100 | NONPRIV_DENY);
    wr(f, SLOT(6), 0xC200 | NONPRIV_ACCESS_RD);
    bb = buf_at(f, USER_PA + BB(4));
    lri(&bb, 0xC03C, 0x3C);
    lri(&bb, 0xC040, 0x40);
    lri(&bb, 0xC100, 0x100);
    lri(&bb, 0xC200, 0x200);
    run_user(f, &c, &bb);
    g_assert_cmphex(rd(f, 0xC03C), ==, 0x3C);
    g_assert_cmphex(rd(f, 0xC040), ==, 0);
    g_assert_cmphex(rd(f, 0xC100), ==, 0);
    g_assert_cmphex(rd(f, 0xC200), ==, 0);
    /* SAMPLER_MODE twice, PS_DEPTH_COUNT, and three here. */
    g_assert_cmpuint(f->fh->traces[PRIV], ==, 6);
}

static const FixtureTest tests[] = {
    { "/intel/cs/nonpriv/mesa-registers", test_mesa_registers },
    { "/intel/cs/nonpriv/refused-registers", test_refused_registers },
    { "/intel/cs/nonpriv/mixed-lri", test_mixed_lri },
    { "/intel/cs/nonpriv/force-to-nonpriv", test_force_to_nonpriv },
};

FIXTURE_MAIN(fixture_setup_i915)
