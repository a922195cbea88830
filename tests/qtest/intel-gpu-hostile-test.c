/*
 * qtest for intel-gpu: hostile guests: every loop the guest controls is
 * bounded.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "intel-gpu-qtest.h"

/*
 * Each test sets up a loop that never ends by itself and steps a long
 * stretch of virtual time (HOSTILE_STEPS of HOSTILE_STEP_NS) in which
 * registers must answer with the state the model defines for it.  The
 * test finishing at all is the evidence that the loop costs bounded host
 * work per step.
 */
#define HOSTILE_STEPS       6
#define HOSTILE_STEP_NS     (5 * CS_SETTLE_NS)

static bool in_buf(uint32_t addr, const Buf *b)
{
    return addr >= b->gtt && addr < b->gtt + b->len;
}

/*
 * Chained batch starts that never end, from a legacy ring.  First level:
 * A chains to B, B to A; the engine stays busy with ACTHD and BBADDR (the
 * first-level position) in A or B.  Second level: A calls B as a second
 * level batch, B chains to C and C to B, each a second level start again;
 * BBADDR stays just past A's call while ACTHD and SBB_ADDR move within B
 * and C.
 */
static void test_hostile_chained_batches(const void *opaque)
{
    bool second = GPOINTER_TO_INT(opaque);
    uint32_t rcs = INTEL_RCS0_BASE, acthd;
    Buf ring, a, b, c;
    Gpu g;

    gpu_start(&g);
    ring = buf_new(&g, 1);
    a = buf_new(&g, 1);
    b = buf_new(&g, 1);
    c = buf_new(&g, 1);
    EMIT(&g, &ring, MI_BATCH_BUFFER_START_GEN8, a.gtt, 0);
    if (second) {
        EMIT(&g, &a, MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_SECOND_LEVEL,
             b.gtt, 0);
        /* Chained in the second level: the bit set again (PRM). */
        EMIT(&g, &b, MI_NOOP,
             MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_SECOND_LEVEL, c.gtt, 0);
        EMIT(&g, &c, MI_NOOP, MI_NOOP,
             MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_SECOND_LEVEL, b.gtt, 0);
    } else {
        EMIT(&g, &a, MI_NOOP, MI_BATCH_BUFFER_START_GEN8, b.gtt, 0);
        EMIT(&g, &b, MI_BATCH_BUFFER_START_GEN8, a.gtt, 0);
    }
    ring_submit(&g, rcs, &ring);
    for (int i = 0; i < HOSTILE_STEPS; i++) {
        qtest_clock_step(g.qts, HOSTILE_STEP_NS);
        g_assert_false(engine_idle(&g, rcs));
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, 12);
        acthd = rd(&g, rcs + INTEL_RING_ACTHD);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_BB_STATE) &
                        INTEL_BB_STATE_ACTIVE, ==, INTEL_BB_STATE_ACTIVE);
        if (second) {
            g_assert_true(in_buf(acthd, &b) || in_buf(acthd, &c));
            g_assert_cmphex(rd(&g, rcs + INTEL_RING_SBB_ADDR), ==, acthd);
            g_assert_cmphex(rd(&g, rcs + INTEL_RING_BBADDR), ==, a.gtt + 12);
        } else {
            g_assert_true(in_buf(acthd, &a) || in_buf(acthd, &b));
            g_assert_cmphex(rd(&g, rcs + INTEL_RING_BBADDR), ==, acthd);
            g_assert_cmphex(rd(&g, rcs + INTEL_RING_SBB_STATE), ==, 0);
        }
    }
    engine_stop_reset_run(&g, rcs, INTEL_GRDOM_RENDER);
    gpu_stop(&g);
}

/* PML4, PDP, PD and PT index 1: through a PML4 whose entry 1 is itself. */
#define SELF_VA     (1ull << 39 | 1ull << 30 | 1ull << 21 | 1ull << 12)

/*
 * A PPGTT whose PML4 entry 1 points back at the PML4: SELF_VA walks the
 * same table four times and lands in the PML4 page itself, where a batch
 * jumps to itself.  Every fetch walks four levels and no more; the engine
 * stays busy at that batch, in the PPGTT, with no fault.
 */
static void test_hostile_ppgtt_self_ref(void)
{
    const uint64_t va = SELF_VA + 0x800;
    uint32_t rcs = INTEL_RCS0_BASE;
    uint64_t pml4;
    Ctx ctx;
    Gpu g;

    gpu_start(&g);
    pml4 = buf_ram(&g, 1).phys;
    qtest_writeq(g.qts, pml4 + 8, pml4 | PPGTT_PRESENT_RW);
    qtest_writel(g.qts, pml4 + 0x800,
                 MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT);
    qtest_writel(g.qts, pml4 + 0x804, (uint32_t)va);
    qtest_writel(g.qts, pml4 + 0x808, va >> 32);
    execlists_enable(&g, rcs);
    ctx_init_ppgtt_start(&g, &ctx, rcs, pml4, va);
    ctx_submit(&g, rcs, &ctx, CCID(1));
    for (int i = 0; i < HOSTILE_STEPS; i++) {
        qtest_clock_step(g.qts, HOSTILE_STEP_NS);
        g_assert_false(engine_idle(&g, rcs));
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
        g_assert_cmphex(rd(&g, INTEL_RING_FAULT_REG), ==, 0);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ACTHD), ==, (uint32_t)va);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ACTHD_UDW), ==, va >> 32);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_BB_STATE) &
                        INTEL_BB_STATE_PPGTT, ==, INTEL_BB_STATE_PPGTT);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_EXECLIST_STATUS_HI), ==,
                        CCID(1));
    }
    engine_stop_reset_run(&g, rcs, INTEL_GRDOM_RENDER);
    gpu_stop(&g);
}

/*
 * A PPGTT batch that jumps to an address whose PML4 entry is not present:
 * the walk stops there, one page fault (RING_FAULT_REG, FAULT_TLB_DATA0/1
 * naming the PPGTT address, one page-fault interrupt), the engine halted
 * with the page-table error.  Time does not fault it again.
 */
static void test_hostile_ppgtt_fault(void)
{
    const uint64_t bad_va = 5ull << 39 | 0x1000;
    uint32_t rcs = INTEL_RCS0_BASE;
    uint64_t msi;
    Buf batch, target;
    Ppgtt pp;
    Ctx ctx;
    Gpu g;

    gpu_start(&g);
    msi = msi_to_ram(&g);
    wr(&g, INTEL_RENDER_COPY_INTR_ENABLE, INTEL_GT_PAGE_FAULT << 16);
    wr(&g, INTEL_RCS0_RSVD_INTR_MASK, ~(INTEL_GT_PAGE_FAULT << 16));
    wr(&g, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    ppgtt_batch_init(&g, &pp, &batch, &target);
    EMIT(&g, &batch, MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
         (uint32_t)bad_va, bad_va >> 32);
    execlists_enable(&g, rcs);
    ctx_init_batch(&g, &ctx, rcs, &pp);
    ctx_submit(&g, rcs, &ctx, CCID(1));
    cs_settle(&g);
    g_assert_cmphex(rd(&g, INTEL_RING_FAULT_REG), ==, 1);
    g_assert_cmphex(rd(&g, INTEL_FAULT_TLB_DATA0), ==,
                    (uint32_t)(bad_va >> 12));
    g_assert_cmphex(rd(&g, INTEL_FAULT_TLB_DATA1), ==, bad_va >> 44);
    expect_msi(&g, msi, 0, INTEL_GT_PAGE_FAULT);
    for (int i = 0; i < HOSTILE_STEPS; i++) {
        qtest_clock_step(g.qts, HOSTILE_STEP_NS);
        g_assert_true(engine_idle(&g, rcs));
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==,
                        INTEL_ERROR_PAGE_TABLE);
        g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);
        g_assert_cmphex(rd(&g, INTEL_GT_INTR_DW(0)), ==, 0);
    }
    engine_stop_reset_run(&g, rcs, INTEL_GRDOM_RENDER);
    gpu_stop(&g);
}

/*
 * MI_SEMAPHORE_WAIT in poll mode on a value that does not match: the
 * engine stays in the wait (busy, ACTHD at the wait) however long it
 * polls; the value written to memory lets it go on.  A second wait that
 * never matches is stopped with STOP_RING and an engine reset.
 */
static void test_hostile_semaphore_wait(void)
{
    uint32_t rcs = INTEL_RCS0_BASE, wait_at;
    Buf ring, data;
    Gpu g;

    gpu_start(&g);
    ring = buf_new(&g, 1);
    data = buf_new(&g, 1);
    qtest_writel(g.qts, data.phys + 0x100, 1);
    wait_at = ring.len;
    EMIT(&g, &ring, MI_SEMAPHORE_WAIT_EQ, 0, data.gtt + 0x100, 0);
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt, 0x5e4a0001);
    EMIT(&g, &ring, MI_SEMAPHORE_WAIT_EQ, 7, data.gtt + 0x100, 0);
    ring_submit(&g, rcs, &ring);
    for (int i = 0; i < HOSTILE_STEPS; i++) {
        qtest_clock_step(g.qts, HOSTILE_STEP_NS);
        g_assert_false(engine_idle(&g, rcs));
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, wait_at);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ACTHD), ==,
                        ring.gtt + wait_at);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
        g_assert_cmphex(buf_readl(&g, &data, 0), ==, 0);
    }
    qtest_writel(g.qts, data.phys + 0x100, 0);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 0), ==, 0x5e4a0001);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, wait_at + 32);
    g_assert_false(engine_idle(&g, rcs));
    engine_stop_reset_run(&g, rcs, INTEL_GRDOM_RENDER);
    gpu_stop(&g);
}

/*
 * OA periodic sampling at the shortest period (exponent 0, 6 reports a
 * microsecond) into the 128 KiB buffer, with OAHEADPTR never advanced:
 * the buffer fills up to one report short of the head and stays so,
 * nothing is overwritten, OASTATUS reports the overflow (and only that:
 * the reports due meanwhile are dropped for the full buffer, not lost to
 * the model's pace).  After OA is disabled and the reader catches up,
 * sampling resumes and the tail wraps to the buffer's start.
 */
static void test_hostile_oa_wrap(void)
{
    const uint32_t oa_gtt = OA_GTT, report = 256;
    const uint32_t full = oa_gtt + OA_PAGES * INTEL_GGTT_PAGE_SIZE - report;
    uint32_t ts0, tail, n;
    Buf oabuf;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_buffer_init(&g);
    wr(&g, INTEL_OACTXCONTROL, 0 << 2 | 2 | 1);
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);
    qtest_clock_step(g.qts, HOSTILE_STEP_NS);
    ts0 = buf_readl(&g, &oabuf, 4);
    for (int i = 0; i < HOSTILE_STEPS; i++) {
        qtest_clock_step(g.qts, HOSTILE_STEP_NS);
        g_assert_cmphex(rd(&g, INTEL_OATAILPTR), ==, full);
        g_assert_cmphex(rd(&g, INTEL_OAHEADPTR), ==, oa_gtt);
        g_assert_cmphex(rd(&g, INTEL_OASTATUS), ==,
                        INTEL_OASTATUS_BUFFER_OVERFLOW);
        g_assert_cmphex(buf_readl(&g, &oabuf, 4), ==, ts0);
        g_assert_cmphex(rd(&g, INTEL_OACONTROL) & 1, ==, 1);
    }

    /* i915's disable, then the reader consumes everything. */
    wr(&g, INTEL_OACONTROL, 0);
    wr(&g, INTEL_OAHEADPTR, full);
    wr(&g, INTEL_OASTATUS, 0);
    wr(&g, INTEL_OACTXCONTROL, 10 << 2 | 2 | 1);
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);
    qtest_clock_step(g.qts, 2 * CS_SETTLE_NS);
    tail = rd(&g, INTEL_OATAILPTR);
    /* 2 ms at 170.7 us a report: the first at the end, the rest wrapped. */
    g_assert_cmphex(tail, <, full);
    n = (tail - oa_gtt) / report + 1;
    g_assert_cmpuint(n, >=, 5);
    g_assert_cmpuint(n, <=, 14);
    g_assert_cmpuint(buf_readl(&g, &oabuf, 4) - ts0, >, 0);
    g_assert_cmphex(buf_readl(&g, &oabuf, 0) >> 19, ==, 1);
    g_assert_cmphex(rd(&g, INTEL_OASTATUS), ==, 0);
    wr(&g, INTEL_OACONTROL, 0);
    gpu_stop(&g);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_data_func("/intel-gpu/hostile/chained-batches",
                        GINT_TO_POINTER(false), test_hostile_chained_batches);
    qtest_add_data_func("/intel-gpu/hostile/chained-second-level",
                        GINT_TO_POINTER(true), test_hostile_chained_batches);
    qtest_add_func("/intel-gpu/hostile/ppgtt-self-ref",
                   test_hostile_ppgtt_self_ref);
    qtest_add_func("/intel-gpu/hostile/ppgtt-fault", test_hostile_ppgtt_fault);
    qtest_add_func("/intel-gpu/hostile/semaphore-wait",
                   test_hostile_semaphore_wait);
    qtest_add_func("/intel-gpu/hostile/oa-wrap", test_hostile_oa_wrap);
    return g_test_run();
}
