/*
 * Unit tests of the intel-gpu command streamers: legacy rings,
 * semaphores, GGTT and PPGTT translation, errors and reset, privilege,
 * budgeted execution, DMA fault drills and migration checks.  The
 * command set, the CS ALU, execlists and the blitter have files of
 * their own (test-intel-cs-*.c, test-intel-execlists.c).
 *
 * Expected values come from the PRM (DG2 vol. 8 "Command Stream
 * Programming", and the Gen11 command layouts) and from what i915 does
 * and expects (drivers/gpu/drm/i915/gt/intel_lrc.c, intel_engine_cs.c),
 * computed by hand.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"
#include "intel/cs/cs-int.h"

/* ---- legacy ring ---- */

static void test_legacy_ring(Fixture *f, gconstpointer data)
{
    Ring r;

    g_assert_cmphex(erd(f, RCS, INTEL_RING_MODE) &
                    INTEL_GFX_DISABLE_LEGACY_MODE, ==, 0);
    ring_init(f, &r, RCS, RING_RCS);
    sdi(&r.b, DATA, 0xC0FFEE01);
    EMIT(&r.b, MI_USER_INTERRUPT);
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

/* ---- semaphores ---- */

typedef struct SemCase {
    uint32_t op;            /* MI_SEMAPHORE_SAD_*_SDD */
    uint32_t sdd_pass, sdd_fail;
    uint32_t sad_release;   /* memory that lets the failing wait pass */
} SemCase;

/* The semaphore memory holds 5. */
static const SemCase sem_cases[] = {
    { MI_SEMAPHORE_SAD_GT_SDD, 4, 5, 6 },
    { MI_SEMAPHORE_SAD_GTE_SDD, 5, 6, 6 },
    { MI_SEMAPHORE_SAD_LT_SDD, 6, 5, 4 },
    { MI_SEMAPHORE_SAD_LTE_SDD, 5, 4, 4 },
    { MI_SEMAPHORE_SAD_EQ_SDD, 5, 4, 4 },
    { MI_SEMAPHORE_SAD_NEQ_SDD, 4, 5, 4 },
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

        g_test_message("compare operation %u",
                       c->op >> MI_SEMAPHORE_COMPARE_SHIFT);
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
    sem_wait(&r.b, MI_SEMAPHORE_SAD_GT_SDD, 1, SEM);
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
    EMIT(&r.b, MI_SEMAPHORE_WAIT | INSTR_LEN(4) | MI_SEMAPHORE_GLOBAL_GTT |
         MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM2, 0);
    sdi(&r.b, MARK, ++mark);
    ring_submit(&r);
    fake_host_step(f->fh, 0);
    g_assert_false(engine_idle(f, RCS));
    ring_init(f, &rb, BCS, RING_BCS);
    sdi(&rb.b, SEM2, 1);
    EMIT(&rb.b, MI_SEMAPHORE_SIGNAL |
         MI_SEMAPHORE_TARGET(MI_SEMAPHORE_TARGET_RCS), 0);
    ring_submit(&rb);
    fake_host_step(f->fh, 1000);
    g_assert_cmphex(ram_r32(f, MARK), ==, mark);
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/* ---- GGTT and PPGTT ---- */

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
    /*
     * A PTE write replaces the cached translation of its page: Gen11 i915
     * writes no GFX_FLSH_CNTL after it.
     */
    intel_ggtt_write_pte(f->gpu, 5, 0x9000 | 1);
    g_assert_cmpint(intel_ggtt_translate(f->gpu, 0x5010, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x9010);
    intel_ggtt_write_pte(f->gpu, 5, 0x5000 | 1);
    g_assert_cmpint(intel_ggtt_translate(f->gpu, 0x5010, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x5010);

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
    {
        Gen11_PIPE_CONTROL pc = {
            .command_streamer_stall_enable = true, .tlb_invalidate = true,
        };
        uint32_t dw[GEN11_PIPE_CONTROL_LENGTH];

        gen11_pipe_control_pack(dw, &pc);
        emit_n(&r.b, dw, G_N_ELEMENTS(dw));
    }
    ring_run(&r);
    g_assert_cmpint(intel_ppgtt_translate(e, va, &pa), ==, 0);
    g_assert_cmphex(pa, ==, 0x340000);

    /* MI_FLUSH_DW with "TLB invalidate" (bit 18) on BCS. */
    eng(f, BCS)->pml4 = pml4;
    intel_ppgtt_flush(eng(f, BCS));
    g_assert_cmpint(intel_ppgtt_translate(eng(f, BCS), va, &pa), ==, 0);
    ram_w64(f, pt + 4 * 8, 0x350000 | 3);
    ring_init(f, &r, BCS, RING_BCS);
    EMIT(&r.b, MI_FLUSH_DW | INSTR_LEN(4) | MI_INVALIDATE_TLB, 0, 0, 0);
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

/* ---- faults, errors and reset ---- */

static void test_errors(Fixture *f, gconstpointer data)
{
    static const uint32_t bad[] = {
        1u << INSTR_CLIENT_SHIFT | 0x1F800000,  /* type 1: reserved */
        1u << INSTR_CLIENT_SHIFT,               /* type 1 */
        7u << INSTR_CLIENT_SHIFT,               /* type 7: reserved */
        MI_INSTR(0x06, 0),                      /* MI opcode: reserved */
        MI_INSTR(0x10, 0),                      /* MI opcode: reserved */
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
    EMIT(&r.b, 1u << INSTR_CLIENT_SHIFT);
    ring_run(&r);
    ewr(f, RCS, INTEL_RING_EIR, INTEL_ERROR_INSTRUCTION);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_EIR), ==, 0);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, INTEL_ERROR_INSTRUCTION);
    take_irq(f, 0);

    /* A command on an engine it does not exist on: MI_FLUSH_DW on RCS. */
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    ring_init(f, &r, RCS, RING_RCS);
    i915_enable_error_interrupt(f, RCS);
    EMIT(&r.b, MI_FLUSH_DW | INSTR_LEN(4), 0, 0, 0);
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

/* ---- privilege ---- */

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
    sem_wait(&bb1, MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM);
    EMIT(&bb1, MI_STORE_DATA_INDEX | INSTR_LEN(3), 0x200, 0xBAD);
    EMIT(&bb1, MI_ATOMIC | INSTR_LEN(3) | MI_ATOMIC_GLOBAL_GTT |
         MI_ATOMIC_INC, DATA + 4, 0);
    /* A second-level batch from a PPGTT batch is in the PPGTT too. */
    bb_start(&bb1, USER_VA + 0x2000, MI_BATCH_SECOND_LEVEL);
    EMIT(&bb1, MI_BATCH_BUFFER_END);
    sdi_ppgtt(&bb3, USER_VA + 0x10008, 0x3333);
    sdi(&bb3, DATA + 8, 0xBAD);                     /* still unprivileged */
    EMIT(&bb3, MI_BATCH_BUFFER_END);

    /* i915's whitelist slot (icl_whitelist_build): RW, one register. */
    lri(&bb2, 0xE18C, 0x00060006);                  /* masked */
    EMIT(&bb2, MI_BATCH_BUFFER_END);

    bb_start(&c.ring, USER_VA, MI_BATCH_PPGTT);
    lri(&c.ring, slot, 0xE18C);                     /* the ring may */
    bb_start(&c.ring, USER_VA + 0x1000, MI_BATCH_PPGTT);
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
    g_assert_cmphex(csb_lo(f, hws, 1), ==, CSB_DONE);

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
    EMIT(&bb1, MI_BATCH_BUFFER_END);
    wr(f, INTEL_BCS0_BASE + INTEL_RING_FORCE_TO_NONPRIV(0),
       1u << 28 | (0x22000 + INTEL_RING_INDIRECT_CTX_OFFSET));
    bb_start(&c.ring, USER_VA + 0x3000, MI_BATCH_PPGTT);
    ctx_submit(&c);
    step(f);
    g_assert_cmphex(rd(f, 0x22600), ==, 0xB0B);
    g_assert_cmphex(rd(f, 0x22080), ==, HWSP_BCS);
    g_assert_cmphex(rd(f, 0x22000 + INTEL_RING_INDIRECT_CTX_OFFSET), ==, 0);
    g_assert_cmphex(erd(f, BCS, INTEL_RING_ESR), ==, INTEL_ERROR_PRIVILEGE);

    /*
     * VCS1: its rows are relative to its base (VCS_GPR), to HEVC1's
     * (0x1C6800) and to its TRTT_CR (VDBOX-1, 0x4440), plus the rows
     * every VCS and VECS shares (WPARID); HWS_PGA is in none.
     */
    execlists_init(f, INTEL_VCS1, 0x003000);
    ctx_init(f, &c, INTEL_VCS1, CTX_C, CRING_C, 0x30, pml4);
    bb1 = buf_at(f, USER_PA + 0x4000);
    lri(&bb1, INTEL_VCS1_BASE + 0x600, 0xC0C);
    lri(&bb1, 0x1C6800 + 0x10, 0x4E7C);
    lri(&bb1, INTEL_VCS1_BASE + 0x21C, 3);
    lri(&bb1, 0x4440 + 0x04, 0x7777);
    lri(&bb1, INTEL_VCS1_BASE + INTEL_RING_HWS_PGA, 0x00DEA000);
    EMIT(&bb1, MI_BATCH_BUFFER_END);
    bb_start(&c.ring, USER_VA + 0x4000, MI_BATCH_PPGTT);
    ctx_submit(&c);
    step(f);
    g_assert_cmphex(rd(f, INTEL_VCS1_BASE + 0x600), ==, 0xC0C);
    g_assert_cmphex(rd(f, 0x1C6800 + 0x10), ==, 0x4E7C);
    g_assert_cmphex(rd(f, INTEL_VCS1_BASE + 0x21C), ==, 3);
    g_assert_cmphex(rd(f, 0x4440 + 0x04), ==, 0x7777);
    g_assert_cmphex(rd(f, INTEL_VCS1_BASE + INTEL_RING_HWS_PGA), ==,
                    0x003000);
    g_assert_cmphex(erd(f, INTEL_VCS1, INTEL_RING_ESR), ==,
                    INTEL_ERROR_PRIVILEGE);
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

/*
 * A batch that jumps to itself does little work per slice: its slices
 * follow each other CS_SLICE_GAP_NS apart, and it runs until a reset.
 * (A slice of EU work earns a longer pause: test-intel-media.c.)
 */
static void test_slice_gap(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    Buf bb = buf_at(f, BATCH);
    Ring r;

    bb_start(&bb, BATCH, 0);            /* a batch that jumps to itself */
    ring_init(f, &r, RCS, RING_RCS);
    bb_start(&r.b, BATCH, 0);
    ring_submit(&r);
    for (unsigned i = 0; i < 3; i++) {
        fake_host_step(f->fh, e->timer->deadline - f->fh->now_ns);
        g_assert_true(e->timer->armed);
        g_assert_cmpuint(e->timer->deadline - f->fh->now_ns, ==,
                         CS_SLICE_GAP_NS);
    }
    g_assert_false(engine_idle(f, RCS));
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    assert_engine_reset(f, RCS);
}

/* ---- fault drills and migration ---- */

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
    EMIT(&r.b, MI_LOAD_REGISTER_MEM_GEN8, gpr_reg(f, RCS, 0), DATA, 0);
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
    one_context(f, &c);
    sdi(&c.ring, DATA + 8, 0xA3);
    g_assert_true(intel_engine_drill_dma(f->gpu, INTEL_CLASS_RENDER, 0, 1));
    ctx_submit(&c);
    step(f);
    assert_ggtt_fault(f, RCS, HWSP_RCS + INTEL_HWS_CSB_BUF0 * 4);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_CSB_BUF), ==,
                    INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, 0xffffffff);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 0xA3);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, CSB_DONE);
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
            GPU_FIELD_DP32(0, INTEL_RPM_CONFIG0, CRYSTAL, 4),
            GPU_FIELD_DP32(0, INTEL_RPM_CONFIG0, CRYSTAL, 7),
            GPU_FIELD_DP32(GPU_FIELD_DP32(0, INTEL_RPM_CONFIG0, CRYSTAL, 1),
                           INTEL_RPM_CONFIG0, CTC, 2),
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

static const FixtureTest tests[] = {
    { "/intel/cs/legacy-ring", test_legacy_ring },
    { "/intel/cs/semaphore-wait", test_semaphore_wait },
    { "/intel/cs/gtt", test_gtt },
    { "/intel/cs/errors", test_errors },
    { "/intel/cs/privilege", test_privilege },
    { "/intel/cs/budget", test_budget },
    { "/intel/cs/slice-gap", test_slice_gap },
    { "/intel/cs/post-load-checks", test_post_load_checks },
    { "/intel/cs/drill-dma", test_drill_dma },
};

FIXTURE_MAIN(fixture_setup_i915)
