/*
 * qtest for intel-gpu: interrupts: MSI, INTx and the interrupt drill.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "intel-gpu-qtest.h"

static void test_irq_msi(void)
{
    uint64_t msi;
    Gpu g;

    gpu_start(&g);
    msi = msi_to_ram(&g);
    /* Not enabled in the tree: nothing is sent. */
    inject(&g, 0, 0, 1);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);
    g_assert_cmphex(rd(&g, INTEL_GT_INTR_DW(0)), ==, 0);

    irq_postinstall(&g);
    inject(&g, 0, 0, 1);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, MSI_MAGIC);
    g_assert_cmphex(rd(&g, INTEL_GFX_MSTR_IRQ), ==,
                    INTEL_MSTR_ENABLE | INTEL_MSTR_GT_DW(0));

    /*
     * gen11_irq_handler's flow (drivers/gpu/drm/i915/i915_irq.c):
     * disable master, service, re-enable.
     */
    qtest_writel(g.qts, msi, 0);
    wr(&g, INTEL_GFX_MSTR_IRQ, 0);
    service(&g, 0, 0, INTEL_INTR_DATA_VALID | 1);
    wr(&g, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);

    /* An event during service: exactly one message at re-enable. */
    inject(&g, 0, 0, 1);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, MSI_MAGIC);
    qtest_writel(g.qts, msi, 0);
    wr(&g, INTEL_GFX_MSTR_IRQ, 0);
    g_assert_cmphex(rd(&g, INTEL_GT_INTR_DW(0)), ==, 1);
    inject(&g, 3, 0, 1);                             /* BCS, meanwhile */
    service(&g, 0, 0, INTEL_INTR_DATA_VALID | 1);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);
    wr(&g, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, MSI_MAGIC);
    qtest_writel(g.qts, msi, 0);
    wr(&g, INTEL_GFX_MSTR_IRQ, 0);
    service(&g, 0, 15, INTEL_INTR_DATA_VALID | 3 << 16 | 1);
    wr(&g, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);

    /* A masked event stays in its collapsing register until unmasked. */
    wr(&g, INTEL_RCS0_RSVD_INTR_MASK, 0xffffffff);
    inject(&g, 0, 0, 1);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);
    wr(&g, INTEL_RCS0_RSVD_INTR_MASK, ~(1u << 16));
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, MSI_MAGIC);
    gpu_stop(&g);
}

static void test_irq_msi_mask_pending(void)
{
    uint8_t cap = INTEL_PCI_MSI_CAP;
    uint64_t msi;
    Gpu g;

    msi = gpu_start_irq(&g);
    qpci_config_writel(g.dev, cap + PCI_MSI_MASK_32, 1);
    inject(&g, 0, 0, 1);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);
    g_assert_cmphex(qpci_config_readl(g.dev, cap + PCI_MSI_PENDING_32), ==, 1);
    /* Unmasking sends the pending message. */
    qpci_config_writel(g.dev, cap + PCI_MSI_MASK_32, 0);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, MSI_MAGIC);
    g_assert_cmphex(qpci_config_readl(g.dev, cap + PCI_MSI_PENDING_32), ==, 0);
    gpu_stop(&g);
}

static void test_irq_intx(void)
{
    Gpu g;

    gpu_start(&g);
    irq_postinstall(&g);
    g_assert_false(gpu_intx_asserted(&g));
    inject(&g, 3, 0, 1);
    g_assert_true(gpu_intx_asserted(&g));
    /* Master enable gates the level. */
    wr(&g, INTEL_GFX_MSTR_IRQ, 0);
    g_assert_false(gpu_intx_asserted(&g));
    wr(&g, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    g_assert_true(gpu_intx_asserted(&g));
    /* Serviced: the level drops. */
    service(&g, 0, 15, INTEL_INTR_DATA_VALID | 3 << 16 | 1);
    g_assert_false(gpu_intx_asserted(&g));
    gpu_stop(&g);
}

static void test_irq_drill(void)
{
    uint64_t msi;
    Gpu g;

    msi = gpu_start_irq(&g);
    /* Lose the next two render messages. */
    qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-irq', 'arguments': "
           "{'id': 'gpu', 'engine-class': 0, 'instance': 0, 'count': 2}}");
    inject(&g, 0, 0, 1);
    inject(&g, 0, 0, 1);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);
    inject(&g, 0, 0, 1);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, MSI_MAGIC);
    service(&g, 0, 0, INTEL_INTR_DATA_VALID | 1);

    /* Delay the next copy message by 100 us of virtual time. */
    qtest_writel(g.qts, msi, 0);
    qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-irq', 'arguments': "
           "{'id': 'gpu', 'engine-class': 3, 'instance': 0, 'count': 1, "
           "'delay-ns': 100000}}");
    inject(&g, 3, 0, 1);
    qtest_clock_step(g.qts, 99999);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);
    qtest_clock_step(g.qts, 1);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, MSI_MAGIC);

    /* Unknown sources and devices are errors. */
    qmp_refused(&g, "{'execute': 'x-intel-gpu-inject-irq', "
                "'arguments': {'id': 'gpu', 'engine-class': 0, "
                "'instance': 5, 'bits': 1}}");
    qmp_refused(&g, "{'execute': 'x-intel-gpu-inject-irq', "
                "'arguments': {'id': 'nosuch', 'engine-class': 0, "
                "'instance': 0, 'bits': 1}}");
    gpu_stop(&g);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/intel-gpu/irq/msi", test_irq_msi);
    qtest_add_func("/intel-gpu/irq/msi-mask-pending",
                   test_irq_msi_mask_pending);
    qtest_add_func("/intel-gpu/irq/intx", test_irq_intx);
    qtest_add_func("/intel-gpu/irq/drill", test_irq_drill);
    return g_test_run();
}
