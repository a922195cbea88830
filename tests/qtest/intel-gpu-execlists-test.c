/*
 * qtest for intel-gpu: execlists (ELSQ, CSB, preemption) and migration of a
 * running workload.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "intel-gpu-qtest.h"

static void test_execlists_elsq_csb(void)
{
    uint32_t rcs = INTEL_RCS0_BASE;
    uint64_t msi;
    Buf hwsp, data;
    Ctx ctx;
    Gpu g;

    msi = gpu_start_irq(&g);
    hwsp = execlists_enable(&g, rcs);
    data = buf_new(&g, 1);
    ctx_init(&g, &ctx, rcs, 0);
    emit_store(&g, &ctx.ring, MI_USE_GGTT, data.gtt + 0x100, 0xb0000001);
    EMIT(&g, &ctx.ring, MI_USER_INTERRUPT);
    ctx_submit(&g, rcs, &ctx, CCID(1));
    cs_settle(&g);

    g_assert_cmphex(buf_readl(&g, &data, 0x100), ==, 0xb0000001);
    EXPECT_CSB(&g, rcs, &hwsp, 0, INTEL_CSB_IDLE_ACTIVE,
               INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_ctx_id(&g, &hwsp, 1), ==, CCID(1));
    /* Context save: the image's HEAD is where execution ended. */
    g_assert_cmphex(ctx_slot(&g, &ctx, CTX_HEAD), ==, ctx.ring.len);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_EXECLIST_STATUS_HI), ==, 0);
    g_assert_true(engine_idle(&g, rcs));
    expect_msi(&g, msi, 0, INTEL_GT_CONTEXT_SWITCH |
                           INTEL_GT_RENDER_USER_INTERRUPT);
    gpu_stop(&g);
}

static void drill_csb(Gpu *g, int klass, int instance, const char *action)
{
    qmp_ok(g, "{'execute': 'x-intel-gpu-drill-csb', 'arguments': "
           "{'id': 'gpu', 'engine-class': %d, 'instance': %d, "
           "'action': %s}}", klass, instance, action);
}

/*
 * x-intel-gpu-drill-csb on rcs0: with the idle-to-active entry dropped
 * the completion is the first entry; a corrupted idle-to-active entry
 * is a bare "complete" with the context's ID.  The contexts' stores land
 * throughout, and the entry after the drill is true again.  Pending
 * drills (this one and a DMA drill on bcs0) survive a migration.
 */
static void test_drill_csb(void)
{
    const uint32_t done = INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE;
    uint32_t rcs = INTEL_RCS0_BASE, bcs = INTEL_BCS0_BASE;
    Buf hwsp, data, bring;
    Ctx ctx;
    Gpu g;

    gpu_start(&g);
    hwsp = execlists_enable(&g, rcs);
    data = buf_new(&g, 1);
    bring = buf_new(&g, 1);
    ctx_init(&g, &ctx, rcs, 0);

    /* The allocator starts afresh after gpu_migrate(): no buf_new below. */
    drill_csb(&g, 0, 0, "drop");
    drill_dma(&g, 3, 0, 1);
    gpu_migrate(&g, GPU_ARGS);
    emit_store(&g, &bring, MI_USE_GGTT, data.gtt + 0x40, 0xc5b0000b);
    ring_submit(&g, bcs, &bring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 0x40), ==, 0);
    g_assert_cmphex(rd(&g, bcs + INTEL_RING_ESR), ==, INTEL_ERROR_PAGE_TABLE);

    emit_store(&g, &ctx.ring, MI_USE_GGTT, data.gtt, 0xc5b00001);
    ctx_submit(&g, rcs, &ctx, CCID(1));
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 0), ==, 0xc5b00001);
    EXPECT_CSB(&g, rcs, &hwsp, 0, done);

    drill_csb(&g, 0, 0, "corrupt");
    emit_store(&g, &ctx.ring, MI_USE_GGTT, data.gtt + 4, 0xc5b00002);
    ctx_submit(&g, rcs, &ctx, CCID(1));
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 4), ==, 0xc5b00002);
    EXPECT_CSB(&g, rcs, &hwsp, 1, INTEL_CSB_COMPLETE, done);
    g_assert_cmphex(csb_ctx_id(&g, &hwsp, 1), ==, CCID(1));

    emit_store(&g, &ctx.ring, MI_USE_GGTT, data.gtt + 8, 0xc5b00003);
    ctx_submit(&g, rcs, &ctx, CCID(1));
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 8), ==, 0xc5b00003);
    EXPECT_CSB(&g, rcs, &hwsp, 3, INTEL_CSB_IDLE_ACTIVE, done);
    g_assert_true(engine_idle(&g, rcs));

    qmp_refused(&g, "{'execute': 'x-intel-gpu-drill-csb', 'arguments': "
                "{'id': 'gpu', 'engine-class': 0, 'instance': 3, "
                "'action': 'drop'}}");
    qmp_refused(&g, "{'execute': 'x-intel-gpu-drill-csb', 'arguments': "
                "{'id': 'gpu', 'engine-class': 0, 'instance': 0, "
                "'action': 'swap'}}");
    gpu_stop(&g);
}

/*
 * Context A blocks in i915's "pause" semaphore; a Load of B preempts it
 * there; A, resubmitted once the flag is clear, re-evaluates the wait.
 */
static void test_execlists_preempt(void)
{
    uint32_t rcs = INTEL_RCS0_BASE, wait_at;
    Buf hwsp, data;
    Ctx a, b;
    Gpu g;

    gpu_start(&g);
    hwsp = execlists_enable(&g, rcs);
    data = buf_new(&g, 1);
    qtest_writel(g.qts, data.phys + 0x100, 1);          /* the flag */
    ctx_init(&g, &a, rcs, 0);
    emit_store(&g, &a.ring, MI_USE_GGTT, data.gtt, 0xa1);
    EMIT(&g, &a.ring, MI_ARB_ON_OFF | MI_ARB_ENABLE);
    wait_at = a.ring.len;
    EMIT(&g, &a.ring, MI_SEMAPHORE_WAIT_EQ, 0, data.gtt + 0x100, 0);
    emit_store(&g, &a.ring, MI_USE_GGTT, data.gtt + 4, 0xa2);
    ctx_init(&g, &b, rcs, 0);
    emit_store(&g, &b.ring, MI_USE_GGTT, data.gtt + 8, 0xb1);

    ctx_submit(&g, rcs, &a, CCID(1));
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 0), ==, 0xa1);
    g_assert_cmphex(buf_readl(&g, &data, 4), ==, 0);
    EXPECT_CSB(&g, rcs, &hwsp, 0, INTEL_CSB_IDLE_ACTIVE);
    g_assert_false(engine_idle(&g, rcs));
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_EXECLIST_STATUS_HI), ==, CCID(1));

    ctx_submit(&g, rcs, &b, CCID(2));
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 8), ==, 0xb1);
    g_assert_cmphex(buf_readl(&g, &data, 4), ==, 0);
    EXPECT_CSB(&g, rcs, &hwsp, 1, INTEL_CSB_PREEMPTED,
               INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_ctx_id(&g, &hwsp, 1), ==, CCID(1));
    g_assert_cmphex(csb_ctx_id(&g, &hwsp, 2), ==, CCID(2));
    /* A was saved at the unsuccessful wait: it executes it again. */
    g_assert_cmphex(ctx_slot(&g, &a, CTX_HEAD), ==, wait_at);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_EXECLIST_STATUS_HI), ==, 0);

    qtest_writel(g.qts, data.phys + 0x100, 0);
    ctx_submit(&g, rcs, &a, CCID(3));
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 4), ==, 0xa2);
    EXPECT_CSB(&g, rcs, &hwsp, 3, INTEL_CSB_IDLE_ACTIVE,
               INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    g_assert_cmphex(csb_ctx_id(&g, &hwsp, 4), ==, CCID(3));
    g_assert_cmphex(ctx_slot(&g, &a, CTX_HEAD), ==, a.ring.len);
    gpu_stop(&g);
}

/*
 * A workload with OA sampling, run twice: straight through, and saved to a
 * file and loaded into a new QEMU while context A is blocked in a
 * semaphore wait inside a PPGTT batch.  Both runs leave the same bytes in
 * guest memory (breadcrumbs, CSB, OA reports) and the same registers.
 */
static GByteArray *migrate_workload(bool migrate)
{
    const uint64_t batch_va = BATCH_VA;
    const uint64_t flag_va = batch_va + 0x1000 + 0x100;
    const uint32_t rcs = INTEL_RCS0_BASE, oa_gtt = OA_GTT;
    static const uint32_t regs[] = {
        INTEL_OATAILPTR, INTEL_OASTATUS, INTEL_OAHEADPTR,
        INTEL_RCS0_BASE + INTEL_RING_HEAD,
        INTEL_RCS0_BASE + INTEL_RING_CONTEXT_STATUS_PTR,
        INTEL_RCS0_BASE + INTEL_RING_EXECLIST_STATUS_LO,
        INTEL_RCS0_BASE + INTEL_RING_EXECLIST_STATUS_HI,
        INTEL_RCS0_BASE + INTEL_RING_ESR,
    };
    GByteArray *out = g_byte_array_new();
    Buf hwsp, batch, target, data, oabuf;
    g_autofree uint8_t *mem = g_malloc(OA_PAGES * INTEL_GGTT_PAGE_SIZE);
    Ppgtt pp;
    Ctx a, b;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_buffer_init(&g);
    wr(&g, INTEL_OACTXCONTROL, 10 << 2 | 2 | 1);
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);

    ppgtt_batch_init(&g, &pp, &batch, &target);
    data = buf_new(&g, 1);
    qtest_writel(g.qts, target.phys + 0x100, 1);         /* the flag */
    emit_store(&g, &batch, 0, batch_va + 0x1080, 0xa1);
    EMIT(&g, &batch, MI_SEMAPHORE_WAIT_EQ & ~MI_USE_GGTT, 0,
         (uint32_t)flag_va, flag_va >> 32);
    emit_store(&g, &batch, 0, batch_va + 0x1084, 0xa2);
    EMIT(&g, &batch, MI_BATCH_BUFFER_END);

    hwsp = execlists_enable(&g, rcs);
    ctx_init_batch(&g, &a, rcs, &pp);
    emit_store(&g, &a.ring, MI_USE_GGTT, data.gtt, 0xa3);
    ctx_init(&g, &b, rcs, 0);
    emit_store(&g, &b.ring, MI_USE_GGTT, data.gtt + 4, 0xb1);

    ctx_submit(&g, rcs, &a, CCID(1));
    qtest_clock_step(g.qts, 1500 * 1000);
    g_assert_cmphex(qtest_readl(g.qts, target.phys + 0x80), ==, 0xa1);
    g_assert_cmphex(qtest_readl(g.qts, target.phys + 0x84), ==, 0);
    gpu_maybe_migrate(&g, migrate, GPU_ARGS);
    qtest_clock_step(g.qts, 300 * 1000);
    qtest_writel(g.qts, target.phys + 0x100, 0);
    qtest_clock_step(g.qts, 1000 * 1000);
    ctx_submit(&g, rcs, &b, CCID(2));
    qtest_clock_step(g.qts, 2000 * 1000);
    wr(&g, INTEL_OACONTROL, 0);

    g_assert_cmphex(qtest_readl(g.qts, target.phys + 0x84), ==, 0xa2);
    g_assert_cmphex(buf_readl(&g, &data, 0), ==, 0xa3);
    g_assert_cmphex(buf_readl(&g, &data, 4), ==, 0xb1);
    EXPECT_CSB(&g, rcs, &hwsp, 0, INTEL_CSB_IDLE_ACTIVE,
               INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE,
               INTEL_CSB_IDLE_ACTIVE,
               INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    /* 4.8 ms at 170.7 us a report, and a report per context switch in. */
    g_assert_cmpuint(rd(&g, INTEL_OATAILPTR) - oa_gtt, >=, 28 * 256);

    for (unsigned i = 0; i < G_N_ELEMENTS(regs); i++) {
        uint32_t v = rd(&g, regs[i]);

        g_byte_array_append(out, (uint8_t *)&v, 4);
    }
    qtest_memread(g.qts, target.phys, mem, INTEL_GGTT_PAGE_SIZE);
    g_byte_array_append(out, mem, INTEL_GGTT_PAGE_SIZE);
    qtest_memread(g.qts, data.phys, mem, INTEL_GGTT_PAGE_SIZE);
    g_byte_array_append(out, mem, INTEL_GGTT_PAGE_SIZE);
    qtest_memread(g.qts, hwsp.phys, mem, INTEL_GGTT_PAGE_SIZE);
    g_byte_array_append(out, mem, INTEL_GGTT_PAGE_SIZE);
    qtest_memread(g.qts, oabuf.phys, mem, oabuf.size);
    g_byte_array_append(out, mem, oabuf.size);
    gpu_stop(&g);
    return out;
}

static void test_migrate_workload(void)
{
    gpu_migrate_check(migrate_workload);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/intel-gpu/execlists/elsq-csb", test_execlists_elsq_csb);
    qtest_add_func("/intel-gpu/execlists/preempt", test_execlists_preempt);
    qtest_add_func("/intel-gpu/migrate/workload", test_migrate_workload);
    qtest_add_func("/intel-gpu/execlists/drill-csb", test_drill_csb);
    return g_test_run();
}
