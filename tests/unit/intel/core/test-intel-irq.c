/*
 * Unit tests of the intel-gpu interrupt tree (PRM vol 13 "Interrupts").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"

/* Interrupt sources: class, instance. */
#define IRQ_RCS     INTEL_CLASS_RENDER, 0
#define IRQ_BCS     INTEL_CLASS_COPY, 0
#define IRQ_VCS(n)  INTEL_CLASS_VIDEO, (n)
#define GTPM        INTEL_CLASS_OTHER, 1
#define OAPERF      INTEL_CLASS_OTHER, 2

static void test_reset_state(Fixture *f, gconstpointer data)
{
    g_assert_cmphex(rd(f, INTEL_GFX_MSTR_IRQ), ==, 0);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);
    g_assert_cmphex(rd(f, INTEL_INTR_IDENTITY_REG(0)), ==, 0);
    g_assert_cmphex(rd(f, INTEL_RCS0_RSVD_INTR_MASK), ==, 0xffffffff);
    g_assert_cmphex(rd(f, INTEL_RENDER_COPY_INTR_ENABLE), ==, 0);
    /* Other IIRs: write-1-to-clear, 0 at rest (i915 asserts it). */
    wr(f, INTEL_GU_MISC_IIR, 0xffffffff);
    wr(f, INTEL_PCU_IIR, 0xffffffff);
    g_assert_cmphex(rd(f, INTEL_GU_MISC_IIR) | rd(f, INTEL_PCU_IIR) |
                    rd(f, INTEL_SDE_IIR), ==, 0);
    g_assert_false(f->fh->irq);
}

static void test_enable_drops(Fixture *f, gconstpointer data)
{
    /* Nothing enabled: the event is dropped, not held. */
    wr(f, INTEL_RCS0_RSVD_INTR_MASK, 0);
    wr(f, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    g_assert_true(intel_irq_raise(f->gpu, IRQ_RCS, USER));
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);
    wr(f, INTEL_RENDER_COPY_INTR_ENABLE, USER << 16);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);
    g_assert_false(f->fh->irq);

    /* Enabled: DW0 bit 0 and the output. */
    g_assert_true(intel_irq_raise(f->gpu, IRQ_RCS, USER | CTXSW));
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 0);
    g_assert_true(f->fh->irq);
    g_assert_cmphex(rd(f, INTEL_GFX_MSTR_IRQ), ==,
                    INTEL_MSTR_ENABLE | INTEL_MSTR_GT_DW(0));
    /* Only the enabled bit is presented. */
    g_assert_cmphex(i915_service_bit(f->gpu, 0, 0), ==,
                    INTEL_INTR_DATA_VALID | USER);

    g_assert_false(intel_irq_raise(f->gpu, INTEL_CLASS_RENDER, 1, USER));
    g_assert_false(intel_irq_raise(f->gpu, 7, 0, USER));
}

/* Instances of a class share the enable; each has its own mask. */
static void test_class_enable_instance_mask(Fixture *f, gconstpointer data)
{
    wr(f, INTEL_VCS_VECS_INTR_ENABLE, USER << 16);
    wr(f, INTEL_VCS_INTR_MASK(0), ~(uint32_t)USER);     /* VCS1 unmasked */
    wr(f, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    intel_irq_raise(f->gpu, IRQ_VCS(0), USER);
    intel_irq_raise(f->gpu, IRQ_VCS(1), USER);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(1)), ==, 1u << 1);
    g_assert_cmphex(i915_service_bit(f->gpu, 1, 1), ==, INTEL_INTR_DATA_VALID |
                    INTEL_CLASS_VIDEO << 16 | 1 << 20 | USER);
    /* VCS0's masked event waits in its collapsing register. */
    wr(f, INTEL_GT_INTR_DW(1), 1u << 1);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(1)), ==, 0);
    wr(f, INTEL_VCS_INTR_MASK(0), ~(uint32_t)(USER << 16 | USER));
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(1)), ==, 1u << 0);
    g_assert_cmphex(i915_service_bit(f->gpu, 1, 0), ==, INTEL_INTR_DATA_VALID |
                    INTEL_CLASS_VIDEO << 16 | USER);

    /*
     * "Other" instances have their own enables: GTPM on (i915: "pm is in
     * upper half"), OA perf off.
     */
    wr(f, INTEL_GPM_WGBOXPERF_INTR_ENABLE, 0x0020 << 16);
    wr(f, INTEL_GPM_WGBOXPERF_INTR_MASK, 0);
    intel_irq_raise(f->gpu, OAPERF, 0x1000);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);
    intel_irq_raise(f->gpu, GTPM, 0x0020);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 16);
    wr(f, INTEL_GPM_WGBOXPERF_INTR_ENABLE, 0x1000);
    intel_irq_raise(f->gpu, OAPERF, 0x1000);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 16);
    wr(f, INTEL_GT_INTR_DW(0), 1u << 16);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 20);
    g_assert_cmphex(i915_service_bit(f->gpu, 0, 20), ==, INTEL_INTR_DATA_VALID |
                    INTEL_CLASS_OTHER << 16 | 2 << 20 | 0x1000);
}

static void test_selector_misuse(Fixture *f, gconstpointer data)
{
    i915_irq_postinstall(f->gpu);
    intel_irq_raise(f->gpu, IRQ_RCS, USER);
    intel_irq_raise(f->gpu, IRQ_BCS, USER);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 0 | 1u << 15);
    /* Not one-hot. */
    wr(f, INTEL_IIR_REG_SELECTOR(0), 1u << 0 | 1u << 15);
    g_assert_cmphex(rd(f, INTEL_INTR_IDENTITY_REG(0)), ==, 0);
    g_assert_cmphex(rd(f, INTEL_IIR_REG_SELECTOR(0)), ==, 0);
    /* Not in DW_IIR. */
    wr(f, INTEL_IIR_REG_SELECTOR(0), 1u << 3);
    g_assert_cmphex(rd(f, INTEL_INTR_IDENTITY_REG(0)), ==, 0);
    g_assert_cmpuint(f->fh->guest_errors, ==, 2);
    /* Proper use presents BCS with its class; ack clears both. */
    wr(f, INTEL_IIR_REG_SELECTOR(0), 1u << 15);
    g_assert_cmphex(rd(f, INTEL_INTR_IDENTITY_REG(0)), ==,
                    INTEL_INTR_DATA_VALID | INTEL_CLASS_COPY << 16 | USER);
    wr(f, INTEL_INTR_IDENTITY_REG(0), INTEL_INTR_DATA_VALID);
    g_assert_cmphex(rd(f, INTEL_INTR_IDENTITY_REG(0)), ==, 0);
    g_assert_cmphex(rd(f, INTEL_IIR_REG_SELECTOR(0)), ==, 0);
}

/* An event between the snapshot read and the final clear. */
static void test_double_buffer_race(Fixture *f, gconstpointer data)
{
    i915_irq_postinstall(f->gpu);
    intel_irq_raise(f->gpu, IRQ_RCS, USER);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 0);   /* snapshot */
    intel_irq_raise(f->gpu, IRQ_BCS, USER);
    /* The snapshot under service does not change. */
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 0);
    g_assert_cmphex(i915_service_bit(f->gpu, 0, 0) & 0xffff, ==, USER);
    wr(f, INTEL_GT_INTR_DW(0), 1u << 0);
    /* Completely cleared: the secondary storage becomes a new event. */
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 15);
    g_assert_true(f->fh->irq);
    g_assert_cmphex(i915_service_bit(f->gpu, 0, 15), ==,
                    INTEL_INTR_DATA_VALID | INTEL_CLASS_COPY << 16 | USER);
    wr(f, INTEL_GT_INTR_DW(0), 1u << 15);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);
    g_assert_false(f->fh->irq);

    /* A same-engine event during service also comes back afterwards. */
    intel_irq_raise(f->gpu, IRQ_RCS, USER);
    rd(f, INTEL_GT_INTR_DW(0));
    i915_service_bit(f->gpu, 0, 0);
    intel_irq_raise(f->gpu, IRQ_RCS, CTXSW);
    wr(f, INTEL_GT_INTR_DW(0), 1u << 0);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 0);
    g_assert_cmphex(i915_service_bit(f->gpu, 0, 0) & 0xffff, ==, CTXSW);
}

/*
 * i915's gen11_irq_handler flow: clear enable, read, service, set
 * enable.  Events arriving during service make exactly one new message.
 */
static void test_master_flow(Fixture *f, gconstpointer data)
{
    uint32_t master;

    i915_irq_postinstall(f->gpu);
    intel_irq_raise(f->gpu, IRQ_RCS, USER);
    g_assert_cmpuint(f->fh->irq_edges, ==, 1);

    wr(f, INTEL_GFX_MSTR_IRQ, 0);
    g_assert_false(f->fh->irq);
    master = rd(f, INTEL_GFX_MSTR_IRQ);
    g_assert_cmphex(master, ==, INTEL_MSTR_GT_DW(0));
    /* Level bits are read-only. */
    wr(f, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_GT_DW(1));
    g_assert_cmphex(rd(f, INTEL_GFX_MSTR_IRQ), ==, INTEL_MSTR_GT_DW(0));
    rd(f, INTEL_GT_INTR_DW(0));
    intel_irq_raise(f->gpu, IRQ_BCS, USER);
    intel_irq_raise(f->gpu, IRQ_VCS(0), USER);
    i915_service_bit(f->gpu, 0, 0);
    wr(f, INTEL_GT_INTR_DW(0), 1u << 0);
    g_assert_cmpuint(f->fh->irq_edges, ==, 1);
    wr(f, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    g_assert_cmpuint(f->fh->irq_edges, ==, 2);
    g_assert_cmphex(rd(f, INTEL_GFX_MSTR_IRQ), ==, INTEL_MSTR_ENABLE |
                    INTEL_MSTR_GT_DW(0) | INTEL_MSTR_GT_DW(1));

    /* Service everything: the output drops, no further message. */
    wr(f, INTEL_GFX_MSTR_IRQ, 0);
    rd(f, INTEL_GT_INTR_DW(0));
    i915_service_bit(f->gpu, 0, 15);
    wr(f, INTEL_GT_INTR_DW(0), 1u << 15);
    rd(f, INTEL_GT_INTR_DW(1));
    i915_service_bit(f->gpu, 1, 0);
    wr(f, INTEL_GT_INTR_DW(1), 1u << 0);
    wr(f, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    g_assert_false(f->fh->irq);
    g_assert_cmpuint(f->fh->irq_edges, ==, 2);
}

static void test_drill_drop_and_delay(Fixture *f, gconstpointer data)
{
    i915_irq_postinstall(f->gpu);
    g_assert_true(intel_irq_drill(f->gpu, IRQ_RCS, 2, 0));
    intel_irq_raise(f->gpu, IRQ_RCS, USER);
    intel_irq_raise(f->gpu, IRQ_RCS, USER);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);
    intel_irq_raise(f->gpu, IRQ_RCS, USER);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 0);
    i915_service_bit(f->gpu, 0, 0);
    wr(f, INTEL_GT_INTR_DW(0), 1u << 0);

    /* Delayed by 50 us: nothing before, the event after. */
    g_assert_true(intel_irq_drill(f->gpu, IRQ_BCS, 1, 50000));
    intel_irq_raise(f->gpu, IRQ_BCS, USER);
    fake_host_step(f->fh, 49999);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);
    g_assert_false(f->fh->irq);
    fake_host_step(f->fh, 1);
    g_assert_true(f->fh->irq);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 15);
    /* The drill is spent: the next message is immediate. */
    i915_service_bit(f->gpu, 0, 15);
    wr(f, INTEL_GT_INTR_DW(0), 1u << 15);
    intel_irq_raise(f->gpu, IRQ_BCS, USER);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 1u << 15);
    g_assert_false(intel_irq_drill(f->gpu, INTEL_CLASS_OTHER, 3, 1, 0));
}

static void test_reset_clears_tree(Fixture *f, gconstpointer data)
{
    i915_irq_postinstall(f->gpu);
    intel_irq_drill(f->gpu, IRQ_BCS, 1, 1000);
    intel_irq_raise(f->gpu, IRQ_BCS, USER);
    intel_irq_raise(f->gpu, IRQ_RCS, USER);
    intel_gpu_reset(f->gpu);
    fake_host_step(f->fh, 2000);
    g_assert_cmphex(rd(f, INTEL_GT_INTR_DW(0)), ==, 0);
    g_assert_cmphex(rd(f, INTEL_GFX_MSTR_IRQ), ==, 0);
}

static const FixtureTest tests[] = {
    { "/intel/irq/reset-state", test_reset_state },
    { "/intel/irq/enable-drops", test_enable_drops },
    { "/intel/irq/class-enable-instance-mask",
      test_class_enable_instance_mask },
    { "/intel/irq/selector-misuse", test_selector_misuse },
    { "/intel/irq/double-buffer-race", test_double_buffer_race },
    { "/intel/irq/master-flow", test_master_flow },
    { "/intel/irq/drill", test_drill_drop_and_delay },
    { "/intel/irq/reset", test_reset_clears_tree },
};

FIXTURE_MAIN(fixture_setup)
