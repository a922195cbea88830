/*
 * Unit tests of intel-gpu execlists: submission, the context-status
 * buffer, preemption, lite restore, workaround batches, per-context
 * PPGTTs, OA reports at context switches, and the CSB fault drill.
 *
 * Expected values come from the PRM (DG2 vol. 8 "Command Stream
 * Programming", and the Gen11 command layouts) and from what i915 does
 * and expects (drivers/gpu/drm/i915/gt/intel_lrc.c, intel_engine_cs.c),
 * computed by hand.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"
#include "igt-perf.h"
#include "hw/gpumodel/intel-oa-metric-sets.h"

/* ---- execlists ---- */

/* DATA and DATA + 4 hold @a and @b. */
static void assert_data(Fixture *f, uint32_t a, uint32_t b)
{
    g_assert_cmphex(ram_r32(f, DATA), ==, a);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, b);
}

/* Contexts A and B with a store each: 0xA at DATA, 0xB at DATA + 4. */
static void two_stores(Fixture *f, Ctx *a, Ctx *b)
{
    two_contexts(f, a, b);
    sdi(&a->ring, DATA, 0xA);
    sdi(&b->ring, DATA + 4, 0xB);
}

/*
 * RCS's CSB entries @i and @i + 1, the last written: a context ran from
 * idle to completion.
 */
static void assert_csb_ran(Fixture *f, unsigned i)
{
    g_assert_cmphex(csb_lo(f, HWSP_RCS, i), ==, INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, i + 1), ==, CSB_DONE);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, i + 1);
}

/*
 * Both stores of two_stores() done, A then B from one Load: idle to
 * active, A's switch to B with @status, B's completion.
 */
static void assert_a_then_b(Fixture *f, uint32_t status)
{
    assert_data(f, 0xA, 0xB);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, status);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x41);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 2), ==, CSB_DONE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 2), ==, 0x42);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 2);
}

static void test_execlists_single(Fixture *f, gconstpointer data)
{
    Ctx c;
    uint32_t tail;

    one_context(f, &c);
    sdi(&c.ring, DATA, 0xA1);
    sem_wait(&c.ring, MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM);
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
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, CSB_DONE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x41);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 1);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_CSB_BUF + 8), ==, CSB_DONE);
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
    assert_data(f, 0, 0xA2);
    assert_csb_ran(f, 2);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

static void test_execlists_two_elements(Fixture *f, gconstpointer data)
{
    Ctx a, b;

    two_stores(f, &a, &b);
    ctx_set_tail(&a);
    ctx_set_tail(&b);
    elsq_submit(f, RCS, ctx_desc(&a), ctx_desc(&b));
    step(f);
    assert_a_then_b(f, INTEL_CSB_ELEMENT_SWITCH | INTEL_CSB_COMPLETE);
    g_assert_cmphex(ctx_head(&a), ==, a.ring.pos);
    g_assert_cmphex(ctx_head(&b), ==, b.ring.pos);
    g_assert_true(engine_idle(f, RCS));
}

static void test_execlists_latest_queue(Fixture *f, gconstpointer data)
{
    Ctx a, b;

    two_stores(f, &a, &b);
    ctx_submit(&a);
    ctx_submit(&b);
    step(f);
    assert_data(f, 0, 0xB);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, CSB_DONE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 1), ==, 0x42);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 1);
    /* A was never restored, so never saved. */
    g_assert_cmphex(ctx_head(&a), ==, 0);
}

static void test_execlists_lite_restore(Fixture *f, gconstpointer data)
{
    Ctx a;

    one_context(f, &a);
    EMIT(&a.ring, MI_ARB_ON_OFF | MI_ARB_ENABLE);
    sdi(&a.ring, DATA, 1);
    sem_wait(&a.ring, MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM);
    sdi(&a.ring, DATA + 4, 2);
    ctx_submit(&a);
    step(f);
    assert_data(f, 1, 0);

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
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 2), ==, CSB_DONE);
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

    one_context(f, &a);
    sdi(&a.ring, DATA, 1);
    sem_wait(&a.ring, MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA), ==, 1);

    /* The next request's tail is in the image; the Load is not yet. */
    sdi(&a.ring, DATA + 4, 2);
    ctx_set_tail(&a);
    ram_w32(f, SEM, 1);
    step(f);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, CSB_DONE);
    g_assert_cmphex(ram_r32(f, ctx_state(&a, CTX_RING_TAIL)), ==,
                    a.ring.pos);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0);

    elsq_submit(f, RCS, ctx_desc(&a), 0);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 2);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 3), ==, CSB_DONE);
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
    sem_wait(&a.ring, MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM);
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
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 2), ==, CSB_DONE);
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
    assert_data(f, 0, 0x12);
    assert_csb_ran(f, 3);
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

    one_context(f, &a);
    sdi(&ind, MARK, 1);             /* 4 dwords + 12 MI_NOOPs: 1 line */
    ram_w32(f, BATCH + 64, MI_USER_INTERRUPT);  /* past the line: not run */
    sdi(&per, MARK + 4, 2);
    EMIT(&per, MI_BATCH_BUFFER_END);
    /* Replace the image's MI_BATCH_BUFFER_END with one more LRI. */
    st = a.lrca + INTEL_LRC_STATE_OFFSET;
    ram_w32(f, st + 4 * 0x34, MI_LOAD_REGISTER_IMM(3) | MI_LRI_LRM_CS_MMIO);
    ram_w32(f, st + 4 * 0x35, base + INTEL_RING_BB_PER_CTX_PTR);
    ram_w32(f, st + 4 * 0x36, BATCH2 | 1);
    ram_w32(f, st + 4 * 0x37, base + INTEL_RING_INDIRECT_CTX);
    ram_w32(f, st + 4 * 0x38, BATCH | 1);
    ram_w32(f, st + 4 * 0x39, base + INTEL_RING_INDIRECT_CTX_OFFSET);
    ram_w32(f, st + 4 * 0x3a, 0);
    ram_w32(f, st + 4 * 0x3b, MI_BATCH_BUFFER_END | 1);
    sdi(&a.ring, DATA, 3);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, MARK), ==, 1);
    g_assert_cmphex(ram_r32(f, MARK + 4), ==, 2);
    g_assert_cmphex(ram_r32(f, DATA), ==, 3);
    g_assert_cmphex(take_irq(f, 0) & USER, ==, 0);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, CSB_DONE);
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

    one_context(f, &a);
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
 * report requested before the previous one completed (oa-buffer.c's
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
    ram_w32(f, BATCH + 1000 * 4, MI_BATCH_BUFFER_END);
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
            wr(f, INTEL_RPNSWREQ, GPU_FIELD_DP32(0, INTEL_RPNSWREQ, FREQ,
                                                 18 + i * 13 % 49));
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
         * clocks) is lost instead: oa-buffer.c's OA_REPORT_MIN_CLOCKS.
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

    one_context(f, &a);
    wait_at = a.ring.pos;
    sem_wait(&a.ring, MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM);
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
    EMIT(&a.ring, MI_ARB_ON_OFF | MI_ARB_DISABLE);
    bb_start(&a.ring, BATCH, 0);
    ram_w32(f, BATCH + 5000 * 4, MI_BATCH_BUFFER_END);
    sdi(&a.ring, DATA, 0xA);
    sdi(&b.ring, DATA + 4, 0xB);
    ctx_submit(&a);
    fake_host_step(f->fh, 1);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);
    g_assert_true(intel_engine_busy(eng(f, RCS)));

    ctx_submit(&b);
    step(f);
    assert_a_then_b(f, INTEL_CSB_PREEMPTED | INTEL_CSB_COMPLETE);
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
    sem_wait(&bb, MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM);
    sdi(&bb, DATA + 4, 2);
    sem_wait(&bb, MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM2);
    sdi(&bb, DATA + 8, 3);
    EMIT(&bb, MI_BATCH_BUFFER_END);
    bb_start(&a.ring, BATCH, 0);
    sdi(&a.ring, DATA + 12, 4);
    ctx_submit(&a);
    step(f);
    assert_data(f, 1, 0);

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
    assert_data(f, 0, 0);
    g_assert_cmphex(ram_r32(f, DATA + 8), ==, 3);
    g_assert_cmphex(ram_r32(f, DATA + 12), ==, 4);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 4), ==, CSB_DONE);
    /* Saved at completion: no batch active any more. */
    g_assert_cmphex(ram_r32(f, ctx_state(&a, CTX_BB_STATE)) &
                    INTEL_BB_STATE_ACTIVE, ==, 0);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/* MI_SEMAPHORE_WAIT in the PPGTT (allowed from a non-privileged batch). */
static void sem_wait_ppgtt(Buf *b, uint32_t sdd, uint64_t va)
{
    sem_wait_flags(b, 0, MI_SEMAPHORE_SAD_EQ_SDD, sdd, va);
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
    EMIT(&ba, MI_BATCH_BUFFER_END);
    sdi_ppgtt(&bb, USER_VA + 0x1000, 0xB1);
    sem_wait_ppgtt(&bb, 1, USER_VA + 0x2100);
    sdi_ppgtt(&bb, USER_VA + 0x1004, 0xB2);
    EMIT(&bb, MI_BATCH_BUFFER_END);

    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, &a, RCS, CTX_A, CRING_A, 0x41, pml4a);
    ctx_init(f, &b, RCS, CTX_B, CRING_B, 0x42, pml4b);
    bb_start(&a.ring, USER_VA, MI_BATCH_PPGTT);
    bb_start(&b.ring, USER_VA, MI_BATCH_PPGTT);

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
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 3), ==, CSB_DONE);
    g_assert_cmphex(csb_hi(f, HWSP_RCS, 3), ==, 0x42);

    ram_w32(f, 0x302000, 1);
    ctx_submit(&a);
    step(f);
    g_assert_cmphex(ram_r32(f, 0x301004), ==, 0xA2);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 5), ==, CSB_DONE);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
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
    Ctx c;

    one_context(f, &c);
    g_assert_false(intel_engine_drill_csb(f->gpu, INTEL_CLASS_OTHER, 0,
                                          INTEL_CSB_DRILL_DROP));

    /* Dropped idle-to-active: nothing in slot 0, no interrupt. */
    g_assert_true(intel_engine_drill_csb(f->gpu, INTEL_CLASS_RENDER, 0,
                                         INTEL_CSB_DRILL_DROP));
    sdi(&c.ring, DATA, 0xA1);
    sem_wait(&c.ring, MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM);
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
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, CSB_DONE);
    g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 0);
    g_assert_cmphex(take_irq(f, 0), ==, INTEL_INTR_DATA_VALID | CTXSW);

    /* Corrupted idle-to-active: a bare complete, same context ID. */
    g_assert_true(intel_engine_drill_csb(f->gpu, INTEL_CLASS_RENDER, 0,
                                         INTEL_CSB_DRILL_CORRUPT));
    ram_w32(f, SEM, 0);
    sem_wait(&c.ring, MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM);
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
    assert_csb_ran(f, 3);

    /* An engine reset cancels a drill not used yet. */
    g_assert_true(intel_engine_drill_csb(f->gpu, INTEL_CLASS_RENDER, 0,
                                         INTEL_CSB_DRILL_DROP));
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    one_context(f, &c);
    sdi(&c.ring, DATA + 4, 0xA2);
    ctx_submit(&c);
    step(f);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0xA2);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 0), ==, INTEL_CSB_IDLE_ACTIVE);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, CSB_DONE);
}

static const FixtureTest tests[] = {
    { "/intel/cs/execlists/drill-csb", test_drill_csb },
    { "/intel/cs/execlists/single", test_execlists_single },
    { "/intel/cs/execlists/two-elements", test_execlists_two_elements },
    { "/intel/cs/execlists/lite-restore", test_execlists_lite_restore },
    { "/intel/cs/execlists/tail-written-before-completion",
      test_execlists_tail_written_before_completion },
    { "/intel/cs/execlists/preempt", test_execlists_preempt },
    { "/intel/cs/execlists/wa-batches", test_execlists_wa_batches },
    { "/intel/cs/execlists/oa-switch-report", test_execlists_oa_switch_report },
    { "/intel/cs/execlists/oa-order", test_execlists_oa_order },
    { "/intel/cs/execlists/oa-order-clk-ratio",
      test_execlists_oa_order_clk_ratio },
    { "/intel/cs/execlists/preempt-to-idle", test_execlists_preempt_to_idle },
    { "/intel/cs/execlists/complete-with-load",
      test_execlists_complete_with_load },
    { "/intel/cs/execlists/preempt-in-batch", test_execlists_preempt_in_batch },
    { "/intel/cs/execlists/latest-queue", test_execlists_latest_queue },
    { "/intel/cs/execlists/ppgtt-per-context",
      test_execlists_ppgtt_per_context },
};

FIXTURE_MAIN(fixture_setup_i915)
