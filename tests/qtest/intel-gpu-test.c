/*
 * qtest for intel-gpu: config space, BARs, MMIO, GGTT, resets, RC6 and
 * properties.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "intel-gpu-qtest.h"

static void test_identity(void)
{
    Gpu g;

    gpu_start(&g);
    g_assert_cmphex(qpci_config_readw(g.dev, PCI_VENDOR_ID), ==, 0x8086);
    g_assert_cmphex(qpci_config_readw(g.dev, PCI_DEVICE_ID), ==, 0x8A52);
    g_assert_cmphex(qpci_config_readb(g.dev, PCI_REVISION_ID), ==, 0x07);
    g_assert_cmphex(qpci_config_readl(g.dev, PCI_CLASS_REVISION) >> 8, ==,
                    0x030000);
    g_assert_cmphex(qpci_config_readb(g.dev, PCI_HEADER_TYPE), ==, 0);
    g_assert_cmphex(qpci_config_readw(g.dev, PCI_SUBSYSTEM_VENDOR_ID), ==,
                    0x8086);
    g_assert_cmphex(qpci_config_readw(g.dev, PCI_SUBSYSTEM_ID), ==, 0x8A52);
    g_assert_cmphex(qpci_config_readb(g.dev, PCI_INTERRUPT_PIN), ==, 1);
    g_assert_cmphex(qpci_config_readw(g.dev, PCI_STATUS) &
                    PCI_STATUS_CAP_LIST, ==, PCI_STATUS_CAP_LIST);
    gpu_stop(&g);

    gpu_start_args(&g, ",device-id=0x8a56");
    g_assert_cmphex(qpci_config_readw(g.dev, PCI_DEVICE_ID), ==, 0x8A56);
    gpu_stop(&g);
}

/*
 * The 0/2/0 registers outside the BARs and capabilities (PRM Vol 13,
 * "GFX PCI Registers"; docs/intel-gpu.rst): reset value, and which bits
 * a write of all-ones reaches.
 */
typedef struct CfgCase {
    const char *name;
    uint8_t off;
    uint8_t size;
    uint32_t reset;
    uint32_t wmask;
} CfgCase;

static const CfgCase cfg_cases[] = {
    { "VID", 0x00, 2, 0x8086, 0 },
    { "DID", 0x02, 2, 0x8A52, 0 },
    { "CLS", 0x0C, 1, 0, 0xff },
    { "MLT", 0x0D, 1, 0, 0 },
    { "HDR", 0x0E, 1, 0, 0 },
    { "BIST", 0x0F, 1, 0, 0 },
    { "SVID", 0x2C, 2, 0x8086, 0 },
    { "SID", 0x2E, 2, 0x8A52, 0 },
    { "ROMADR", 0x30, 4, 0, 0 },
    { "CAPPOINT", 0x34, 1, INTEL_PCI_CAPID0, 0 },
    { "INTRLINE", 0x3C, 1, 0, 0xff },
    { "INTRPIN", 0x3D, 1, 1, 0 },
    { "MINGNT", 0x3E, 1, 0, 0 },
    { "MAXLAT", 0x3F, 1, 0, 0 },
    { "CAPCTRL0", 0x42, 2, 0x010c, 0 },
    { "CAPID0_A", INTEL_PCI_CAPID0_A, 4, 0, 0 },
    { "CAPID0_B", INTEL_PCI_CAPID0_B, 4, 0, 0 },
    { "MGGC0", INTEL_PCI_MGGC0, 4,
      GPU_FIELD_DP32(0, INTEL_PCI_MGGC0, GGMS, INTEL_GGC_GGMS_8M), 0 },
    { "DEVEN0", INTEL_PCI_DEVEN0, 4, 0x11, 0 },
    { "DEV2CTL", INTEL_PCI_DEV2CTL, 4, 0, 0 },
    { "MSAC", INTEL_PCI_MSAC, 4,
      GPU_FIELD_DP32(0, INTEL_PCI_MSAC, APSZ, INTEL_MSAC_APSZ_256M), 0 },
    { "BDSM_HI", INTEL_PCI_BDSM_HI, 4, 0, 0xffffffff },
    { "VTDBAR_LSB", INTEL_PCI_VTDBAR_LSB, 4, 0, 0 },
    { "VTDBAR_MSB", INTEL_PCI_VTDBAR_MSB, 4, 0, 0 },
    { "PMCS", INTEL_PCI_PM_CAP + PCI_PM_CTRL, 2, 0x0008, 0x3 },
    { "SWSMI", INTEL_PCI_SWSMI, 4, 0, 0xffffffff },
    { "GSE", INTEL_PCI_GSE, 4, 0, 0xffffffff },
    { "SWSCI", INTEL_PCI_SWSCI, 4, 0, 0xffffffff },
    { "ASLS", INTEL_PCI_ASLS, 4, 0, 0xffffffff },
    { "BDSM", INTEL_PCI_BDSM, 4, 0,
      INTEL_PCI_BDSM_ADDR_MASK | INTEL_BDSM_LOCK },
};

static void test_config_registers(void)
{
    Gpu g;

    gpu_start(&g);
    for (unsigned i = 0; i < ARRAY_SIZE(cfg_cases); i++) {
        const CfgCase *c = &cfg_cases[i];
        uint32_t ones = c->size == 4 ? 0xffffffff : (1u << c->size * 8) - 1;

        g_test_message("%s at 0x%02x", c->name, c->off);
        g_assert_cmphex(cfg_read(&g, c->off, c->size), ==, c->reset);
        cfg_write(&g, c->off, c->size, ones);
        g_assert_cmphex(cfg_read(&g, c->off, c->size), ==,
                        (c->reset & ~c->wmask) | c->wmask);
    }
    /*
     * PCICMD: I/O, memory, bus master, SERR and INTx disable are writable;
     * bits 15:11 are reserved.  PCISTS bits are read-only or RW1C: writing
     * ones sets nothing.
     */
    qpci_config_writew(g.dev, PCI_COMMAND, 0xffff);
    g_assert_cmphex(qpci_config_readw(g.dev, PCI_COMMAND) &
                    (PCI_COMMAND_IO | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER |
                     PCI_COMMAND_SERR | PCI_COMMAND_INTX_DISABLE), ==,
                    PCI_COMMAND_IO | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER |
                    PCI_COMMAND_SERR | PCI_COMMAND_INTX_DISABLE);
    g_assert_cmphex(qpci_config_readw(g.dev, PCI_COMMAND) & 0xf800, ==, 0);
    qpci_config_writew(g.dev, PCI_STATUS, 0xffff);
    g_assert_cmphex(qpci_config_readw(g.dev, PCI_STATUS), ==,
                    PCI_STATUS_CAP_LIST);
    /* PCI Express device capabilities are read-only. */
    qpci_config_writel(g.dev, INTEL_PCI_PCIE_CAP + PCI_EXP_DEVCAP, 0);
    g_assert_cmphex(qpci_config_readl(g.dev, INTEL_PCI_PCIE_CAP +
                                      PCI_EXP_DEVCAP), !=, 0);
    /* BDSM was locked by the all-ones write above: now read-only. */
    qpci_config_writel(g.dev, INTEL_PCI_BDSM, 0);
    g_assert_cmphex(qpci_config_readl(g.dev, INTEL_PCI_BDSM), ==,
                    INTEL_PCI_BDSM_ADDR_MASK | INTEL_BDSM_LOCK);
    qpci_config_writel(g.dev, INTEL_PCI_BDSM_HI, 0);
    g_assert_cmphex(qpci_config_readl(g.dev, INTEL_PCI_BDSM_HI), ==,
                    0xffffffff);
    gpu_stop(&g);

    gpu_start_args(&g, ",stolen-mb=64");
    g_assert_cmphex(qpci_config_readw(g.dev, INTEL_PCI_MGGC0), ==,
                    2 << 8 | 3 << 6);
    gpu_stop(&g);
}

static void test_capability_chain(void)
{
    static const uint8_t chain[][2] = {
        { INTEL_PCI_CAPID0, PCI_CAP_ID_VNDR },
        { INTEL_PCI_PCIE_CAP, PCI_CAP_ID_EXP },
        { INTEL_PCI_MSI_CAP, PCI_CAP_ID_MSI },
        { INTEL_PCI_PM_CAP, PCI_CAP_ID_PM },
    };
    Gpu g;
    uint16_t flags;

    gpu_start(&g);
    gpu_assert_cap_chain(&g, chain, ARRAY_SIZE(chain));

    /* Root-complex integrated endpoint on pcie.0. */
    flags = qpci_config_readw(g.dev, INTEL_PCI_PCIE_CAP + PCI_EXP_FLAGS);
    g_assert_cmphex((flags & PCI_EXP_FLAGS_TYPE) >> 4, ==, PCI_EXP_TYPE_RC_END);
    /* PM: No_Soft_Reset, D0 at reset. */
    g_assert_cmphex(qpci_config_readw(g.dev, INTEL_PCI_PM_CAP + PCI_PM_CTRL),
                    ==, PCI_PM_CTRL_NO_SOFT_RESET);
    gpu_stop(&g);
}

static void test_bars(void)
{
    Gpu g;
    uint32_t type;

    gpu_boot_unmapped(&g, GPU_DEVFN, GPU_ARGS);

    g_assert_cmphex(bar_probe(&g, 0, &type), ==, 16 << 20);
    g_assert_cmphex(type, ==, PCI_BASE_ADDRESS_MEM_TYPE_64);
    g_assert_cmphex(bar_probe(&g, 2, &type), ==, 256 << 20);
    g_assert_cmphex(type, ==, PCI_BASE_ADDRESS_MEM_TYPE_64 |
                              PCI_BASE_ADDRESS_MEM_PREFETCH);
    g_assert_cmphex(bar_probe(&g, 4, &type), ==, 64);
    g_assert_cmphex(type, ==, PCI_BASE_ADDRESS_SPACE_IO);
    gpu_stop(&g);
}

static void test_msi_capability(void)
{
    uint8_t cap = INTEL_PCI_MSI_CAP;
    uint16_t mc;
    Gpu g;

    gpu_start(&g);
    mc = qpci_config_readw(g.dev, cap + PCI_MSI_FLAGS);
    /* One vector, 32-bit address, per-vector masking, disabled. */
    g_assert_cmphex(mc & PCI_MSI_FLAGS_QMASK, ==, 0);
    g_assert_cmphex(mc & PCI_MSI_FLAGS_64BIT, ==, 0);
    g_assert_cmphex(mc & PCI_MSI_FLAGS_MASKBIT, ==, PCI_MSI_FLAGS_MASKBIT);
    g_assert_cmphex(mc & PCI_MSI_FLAGS_ENABLE, ==, 0);

    qpci_config_writel(g.dev, cap + PCI_MSI_ADDRESS_LO, 0xfee00ffc);
    g_assert_cmphex(qpci_config_readl(g.dev, cap + PCI_MSI_ADDRESS_LO), ==,
                    0xfee00ffc);
    qpci_config_writew(g.dev, cap + PCI_MSI_DATA_32, 0x4321);
    g_assert_cmphex(qpci_config_readw(g.dev, cap + PCI_MSI_DATA_32), ==,
                    0x4321);
    /* Only vector 0 exists: its mask bit alone is writable. */
    qpci_config_writel(g.dev, cap + PCI_MSI_MASK_32, 0xffffffff);
    g_assert_cmphex(qpci_config_readl(g.dev, cap + PCI_MSI_MASK_32), ==, 1);
    /* Pending is read-only to software. */
    qpci_config_writel(g.dev, cap + PCI_MSI_PENDING_32, 0xffffffff);
    g_assert_cmphex(qpci_config_readl(g.dev, cap + PCI_MSI_PENDING_32), ==, 0);
    /* Asking for more vectors than offered is clamped to one. */
    qpci_config_writew(g.dev, cap + PCI_MSI_FLAGS,
                       mc | PCI_MSI_FLAGS_ENABLE | (2 << 4));
    mc = qpci_config_readw(g.dev, cap + PCI_MSI_FLAGS);
    g_assert_cmphex(mc & PCI_MSI_FLAGS_ENABLE, ==, PCI_MSI_FLAGS_ENABLE);
    g_assert_cmphex(mc & PCI_MSI_FLAGS_QSIZE, ==, 0);
    gpu_stop(&g);
}

static void test_power_management(void)
{
    uint8_t pmcs = INTEL_PCI_PM_CAP + PCI_PM_CTRL;
    Gpu g;

    gpu_start(&g);
    forcewake(&g, INTEL_FORCEWAKE_RENDER, true);
    wr(&g, INTEL_PAT_INDEX(1), 0x09);

    qpci_config_writew(g.dev, pmcs, PCI_PM_CTRL_NO_SOFT_RESET | 3);
    g_assert_cmphex(qpci_config_readw(g.dev, pmcs) & 3, ==, 3);
    /* In D3hot the BARs do not decode: nothing reads or lands. */
    g_assert_cmphex(rd(&g, INTEL_PAT_INDEX(1)), !=, 0x09);
    wr(&g, INTEL_PAT_INDEX(1), 0x3b);

    qpci_config_writew(g.dev, pmcs, PCI_PM_CTRL_NO_SOFT_RESET);
    g_assert_cmphex(qpci_config_readw(g.dev, pmcs) & 3, ==, 0);
    /* D3hot -> D0 with No_Soft_Reset keeps device state. */
    g_assert_cmphex(rd(&g, INTEL_PAT_INDEX(1)), ==, 0x09);
    g_assert_cmphex(rd(&g, INTEL_FORCEWAKE_ACK_RENDER), ==, 1);
    gpu_stop(&g);
}

static void test_forcewake(void)
{
    static const uint32_t fw[][2] = {
        { INTEL_FORCEWAKE_RENDER, INTEL_FORCEWAKE_ACK_RENDER },
        { INTEL_FORCEWAKE_GT, INTEL_FORCEWAKE_ACK_GT },
        { INTEL_FORCEWAKE_VDBOX(0), INTEL_FORCEWAKE_ACK_VDBOX(0) },
        { INTEL_FORCEWAKE_VDBOX(1), INTEL_FORCEWAKE_ACK_VDBOX(1) },
        { INTEL_FORCEWAKE_VDBOX(2), INTEL_FORCEWAKE_ACK_VDBOX(2) },
        { INTEL_FORCEWAKE_VDBOX(3), INTEL_FORCEWAKE_ACK_VDBOX(3) },
        { INTEL_FORCEWAKE_VDBOX(4), INTEL_FORCEWAKE_ACK_VDBOX(4) },
        { INTEL_FORCEWAKE_VDBOX(5), INTEL_FORCEWAKE_ACK_VDBOX(5) },
        { INTEL_FORCEWAKE_VDBOX(6), INTEL_FORCEWAKE_ACK_VDBOX(6) },
        { INTEL_FORCEWAKE_VDBOX(7), INTEL_FORCEWAKE_ACK_VDBOX(7) },
        { INTEL_FORCEWAKE_VEBOX(0), INTEL_FORCEWAKE_ACK_VEBOX(0) },
        { INTEL_FORCEWAKE_VEBOX(1), INTEL_FORCEWAKE_ACK_VEBOX(1) },
        { INTEL_FORCEWAKE_VEBOX(2), INTEL_FORCEWAKE_ACK_VEBOX(2) },
        { INTEL_FORCEWAKE_VEBOX(3), INTEL_FORCEWAKE_ACK_VEBOX(3) },
    };
    Gpu g;

    gpu_start(&g);
    for (unsigned i = 0; i < ARRAY_SIZE(fw); i++) {
        /* i915: reset, wait ack clear, request, wait ack, release. */
        wr(&g, fw[i][0], 0xffff0000);
        g_assert_cmphex(rd(&g, fw[i][1]) & 1, ==, 0);
        wr(&g, fw[i][0], 0x00010001);
        g_assert_cmphex(rd(&g, fw[i][1]) & 1, ==, 1);
        wr(&g, fw[i][0], 0x80008000);
        g_assert_cmphex(rd(&g, fw[i][1]), ==, 0x8001);
        wr(&g, fw[i][0], 0x00010000);
        g_assert_cmphex(rd(&g, fw[i][1]), ==, 0x8000);
    }
    gpu_stop(&g);
}

static void test_masked_and_fuses(void)
{
    uint32_t mi_mode = INTEL_RCS0_BASE + INTEL_RING_MI_MODE;
    Gpu g;

    gpu_start(&g);
    wr(&g, mi_mode, 0x01000100);        /* STOP_RING */
    wr(&g, mi_mode, 0x00000001);        /* no enable: ignored */
    g_assert_cmphex(rd(&g, mi_mode), ==,
                    INTEL_MI_MODE_STOP_RING | INTEL_MI_MODE_IDLE);

    g_assert_cmphex(rd(&g, INTEL_GT_SLICE_ENABLE), ==, 0x1);
    g_assert_cmphex(rd(&g, INTEL_GT_SUBSLICE_DISABLE), ==, 0x0);
    g_assert_cmphex(rd(&g, INTEL_EU_DISABLE), ==, 0x0);
    g_assert_cmphex(rd(&g, INTEL_GT_VEBOX_VDBOX_DISABLE), ==, 0x000F00FF);
    g_assert_cmphex(rd(&g, INTEL_RPM_CONFIG0), ==, 0x4);
    g_assert_cmphex(rd(&g, INTEL_SKL_DFSM), ==, 0x50200000);
    g_assert_cmphex(rd(&g, INTEL_FPGA_DBG), ==, 0);
    g_assert_cmphex(rd(&g, INTEL_PVINFO_PAGE), ==, 0);
    g_assert_cmphex(rd(&g, INTEL_GUC_WOPCM_SIZE), ==, 0);
    g_assert_cmphex(rd(&g, INTEL_SDE_IIR), ==, 0);
    gpu_stop(&g);

    gpu_start_args(&g, ",subslices=6,eus-per-subslice=7,vdbox-mask=5");
    g_assert_cmphex(rd(&g, INTEL_GT_SUBSLICE_DISABLE), ==, 0xC0);
    g_assert_cmphex(rd(&g, INTEL_EU_DISABLE), ==, 0x80);
    g_assert_cmphex(rd(&g, INTEL_GT_VEBOX_VDBOX_DISABLE), ==, 0x000F00FA);
    gpu_stop(&g);
}

static void test_handshakes(void)
{
    uint32_t reset_ctl = INTEL_RCS0_BASE + INTEL_RING_RESET_CTL;
    Gpu g;

    gpu_start(&g);
    wr(&g, INTEL_GDRST, INTEL_GRDOM_FULL);
    g_assert_cmphex(rd(&g, INTEL_GDRST), ==, 0);
    wr(&g, reset_ctl, 0x00010001);
    g_assert_cmphex(rd(&g, reset_ctl), ==, 0x3);
    wr(&g, INTEL_PCODE_MAILBOX,
       INTEL_PCODE_READY | INTEL_PCODE_DYNAMIC_DUTY_CYCLE);
    g_assert_cmphex(rd(&g, INTEL_PCODE_MAILBOX), ==, 0);
    wr(&g, INTEL_RTCR, 1);
    g_assert_cmphex(rd(&g, INTEL_RTCR), ==, 0);
    gpu_stop(&g);
}

static void test_mchbar_read_only(void)
{
    Gpu g;

    gpu_start(&g);
    g_assert_cmphex(rd(&g, INTEL_RP_STATE_CAP), ==, 0x00060B16);
    wr(&g, INTEL_RP_STATE_CAP, 0);
    g_assert_cmphex(rd(&g, INTEL_RP_STATE_CAP), ==, 0x00060B16);
    wr(&g, INTEL_MCHBAR_MIRROR_BASE + 0x5000, 0x1234);
    g_assert_cmphex(rd(&g, INTEL_MCHBAR_MIRROR_BASE + 0x5000), ==, 0);
    gpu_stop(&g);
}

static void test_ggtt_pte(void)
{
    Gpu g;

    gpu_start(&g);
    qpci_io_writeq(g.dev, g.bar[0], INTEL_GSM_OFFSET + 8 * 42,
                   0x0000001234567001ull);
    g_assert_cmphex(qpci_io_readq(g.dev, g.bar[0], INTEL_GSM_OFFSET + 8 * 42),
                    ==, 0x0000001234567001ull);
    g_assert_cmphex(rd(&g, INTEL_GSM_OFFSET + 8 * 42 + 4), ==, 0x12);
    /* The last PTE of the 8 MiB GSM (i915's read_last_pte). */
    qpci_io_writeq(g.dev, g.bar[0], INTEL_GTTMMADR_SIZE - 8, 0xabcd001);
    g_assert_cmphex(qpci_io_readq(g.dev, g.bar[0], INTEL_GTTMMADR_SIZE - 8),
                    ==, 0xabcd001);
    gpu_stop(&g);
}

static void test_aperture(void)
{
    Gpu g;
    uint64_t page_a, page_b;

    gpu_start(&g);
    page_a = alloc_pages(&g, 1);
    page_b = alloc_pages(&g, 1);
    qtest_writel(g.qts, page_a + 0x40, 0x11223344);
    qtest_writel(g.qts, page_b + 0x40, 0x55667788);

    /* GGTT page 7 -> page_a; read and write through the aperture. */
    qpci_io_writeq(g.dev, g.bar[0], INTEL_GSM_OFFSET + 7 * 8, page_a | 1);
    wr(&g, INTEL_GFX_FLSH_CNTL, INTEL_GFX_FLSH_CNTL_EN);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[2], 7 * 4096 + 0x40), ==,
                    0x11223344);
    qpci_io_writel(g.dev, g.bar[2], 7 * 4096 + 0x80, 0xcafef00d);
    g_assert_cmphex(qtest_readl(g.qts, page_a + 0x80), ==, 0xcafef00d);
    qpci_io_writeb(g.dev, g.bar[2], 7 * 4096 + 0x81, 0x5a);
    g_assert_cmphex(qtest_readl(g.qts, page_a + 0x80), ==, 0xcafe5a0d);

    /*
     * Remap without GFX_FLSH_CNTL, as 6.12's i915 does on Gen11: the next
     * access goes to the new page.
     */
    qpci_io_writeq(g.dev, g.bar[0], INTEL_GSM_OFFSET + 7 * 8, page_b | 1);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[2], 7 * 4096 + 0x40), ==,
                    0x55667788);

    /* No present PTE: all-ones, writes dropped. */
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[2], 9 * 4096), ==, 0xffffffff);
    qpci_io_writel(g.dev, g.bar[2], 9 * 4096, 0);
    gpu_stop(&g);
}

static void test_iobar(void)
{
    Gpu g;

    gpu_start(&g);
    qpci_io_writel(g.dev, g.bar[4], INTEL_IOBAR_MMIO_INDEX, INTEL_SKL_DFSM);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[4], INTEL_IOBAR_MMIO_INDEX), ==,
                    INTEL_SKL_DFSM);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[4], INTEL_IOBAR_MMIO_DATA), ==,
                    0x50200000);
    qpci_io_writel(g.dev, g.bar[4], INTEL_IOBAR_MMIO_INDEX,
                   INTEL_FORCEWAKE_GT);
    qpci_io_writel(g.dev, g.bar[4], INTEL_IOBAR_MMIO_DATA, 0x00010001);
    g_assert_cmphex(rd(&g, INTEL_FORCEWAKE_ACK_GT), ==, 1);
    qpci_io_writel(g.dev, g.bar[4], INTEL_IOBAR_MMIO_INDEX,
                   INTEL_GSM_OFFSET + 8);
    qpci_io_writel(g.dev, g.bar[4], INTEL_IOBAR_MMIO_DATA, 0x5001);
    g_assert_cmphex(qpci_io_readq(g.dev, g.bar[0], INTEL_GSM_OFFSET + 8), ==,
                    0x5001);
    /* An index that decodes to nothing reads 0. */
    qpci_io_writel(g.dev, g.bar[4], INTEL_IOBAR_MMIO_INDEX, 0x400000);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[4], INTEL_IOBAR_MMIO_DATA), ==,
                    0);
    gpu_stop(&g);
}

static int64_t unmodelled_count(Gpu *g)
{
    return gpu_prop_int(g, "unmodelled-mmio-count");
}

static void test_unmodelled_storage(void)
{
    Gpu g;
    int64_t before;

    gpu_start(&g);
    before = unmodelled_count(&g);
    wr(&g, 0xB020, 0x12345678);
    g_assert_cmphex(rd(&g, 0xB020), ==, 0x12345678);
    wr(&g, 0xB024, 0x1);
    g_assert_cmpint(unmodelled_count(&g), ==, before + 2);
    /* The 2..8 MiB hole of BAR0 decodes nothing. */
    wr(&g, 0x300000, 0x1);
    g_assert_cmphex(rd(&g, 0x300000), ==, 0);
    gpu_stop(&g);
}

static void test_reset(void)
{
    Gpu g;

    gpu_start(&g);
    forcewake(&g, INTEL_FORCEWAKE_RENDER, true);
    wr(&g, INTEL_PAT_INDEX(2), 0x3);
    wr(&g, 0xB020, 0x1);
    qpci_io_writeq(g.dev, g.bar[0], INTEL_GSM_OFFSET, 0x1001);
    qpci_config_writel(g.dev, INTEL_PCI_ASLS, 0x7f000000);
    qpci_config_writel(g.dev, INTEL_PCI_BDSM, INTEL_BDSM_LOCK);

    qtest_system_reset(g.qts);
    gpu_map(&g);
    g_assert_cmphex(rd(&g, INTEL_FORCEWAKE_ACK_RENDER), ==, 0);
    g_assert_cmphex(rd(&g, INTEL_PAT_INDEX(2)), ==, 0);
    g_assert_cmphex(rd(&g, 0xB020), ==, 0);
    g_assert_cmphex(qpci_io_readq(g.dev, g.bar[0], INTEL_GSM_OFFSET), ==, 0);
    g_assert_cmphex(qpci_config_readl(g.dev, INTEL_PCI_ASLS), ==, 0);
    /* BDSM unlocked again. */
    qpci_config_writel(g.dev, INTEL_PCI_BDSM, 0x7ff00000);
    g_assert_cmphex(qpci_config_readl(g.dev, INTEL_PCI_BDSM), ==, 0x7ff00000);
    gpu_stop(&g);
}

/* ---- RC6 ---- */

#define RC6_TICK_NS     INTEL_RC6_TICK_NS
#define RC6_HYST        25u             /* i915: 25 x 1.28 us */
#define MS_NS           1000000ull

/* How far GT_GFX_RC6 moves in 50 ms, as IGT's perf@rc6-disable waits. */
static uint32_t rc6_after_50ms(Gpu *g)
{
    uint32_t r0 = rd(g, INTEL_GT_GFX_RC6);

    qtest_clock_step(g->qts, 50 * MS_NS);
    return rd(g, INTEL_GT_GFX_RC6) - r0;
}

/* @ns in RC6 read as whole ticks between two reads: floor, or one more. */
static void assert_rc6_ticks(uint32_t ticks, uint64_t ns)
{
    g_assert_cmpuint(ticks, >=, ns / RC6_TICK_NS);
    g_assert_cmpuint(ticks, <=, ns / RC6_TICK_NS + 1);
}

/*
 * RC6 residency as i915 reads it for sysfs rc6_residency_ms: it moves
 * while the GT idles, not while forcewake is held (i915 perf's
 * FORCEWAKE_ALL) or a ring runs, and again after; a reset clears it.
 */
static void test_rc6_residency(void)
{
    uint32_t rcs = INTEL_RCS0_BASE;
    Buf ring, sem;
    Gpu g;

    gpu_start(&g);
    g_assert_cmpuint(rc6_after_50ms(&g), ==, 0);      /* RC6 off at reset */
    /* gen11_rc6_enable, then RC_CONTROL as intel_rc6_unpark writes it. */
    wr(&g, INTEL_RC_IDLE_HYSTERESIS, RC6_HYST);
    wr(&g, INTEL_RC_CONTROL, INTEL_RC_CTL_HW_ENABLE |
                             INTEL_RC_CTL_RC6_ENABLE | INTEL_RC_CTL_EI_MODE);
    assert_rc6_ticks(rc6_after_50ms(&g), 50 * MS_NS - RC6_HYST * RC6_TICK_NS);
    g_assert_cmpuint(GPU_FIELD_EX32(rd(&g, INTEL_GT_CORE_STATUS),
                                    INTEL_GT_CORE_STATUS, RC),
                     ==, INTEL_GT_CORE_RC6);

    forcewake(&g, INTEL_FORCEWAKE_RENDER, true);
    forcewake(&g, INTEL_FORCEWAKE_GT, true);
    g_assert_cmpuint(rc6_after_50ms(&g), ==, 0);
    g_assert_cmpuint(GPU_FIELD_EX32(rd(&g, INTEL_GT_CORE_STATUS),
                                    INTEL_GT_CORE_STATUS, RC),
                     ==, INTEL_GT_CORE_RC0);
    forcewake(&g, INTEL_FORCEWAKE_RENDER, false);
    forcewake(&g, INTEL_FORCEWAKE_GT, false);
    assert_rc6_ticks(rc6_after_50ms(&g), 50 * MS_NS - RC6_HYST * RC6_TICK_NS);

    /* A ring blocked in a semaphore wait keeps the GT awake. */
    ring = buf_new(&g, 2);
    sem = buf_new(&g, 1);
    EMIT(&g, &ring, MI_SEMAPHORE_WAIT_EQ, 1, sem.gtt, 0);
    ring_submit(&g, rcs, &ring);
    g_assert_cmpuint(rc6_after_50ms(&g), ==, 0);
    g_assert_false(engine_idle(&g, rcs));
    qtest_writel(g.qts, sem.phys, 1);
    cs_settle(&g);
    assert_ring_idle(&g, rcs);
    assert_rc6_ticks(rc6_after_50ms(&g), 50 * MS_NS);

    qtest_system_reset(g.qts);
    gpu_map(&g);
    g_assert_cmpuint(rd(&g, INTEL_GT_GFX_RC6), ==, 0);
    gpu_stop(&g);
}

/* Bad properties stop QEMU with a message naming the property. */
static void test_bad_properties(void)
{
    static const char *const cases[][2] = {
        { "device-id=0x1234", "device-id" },
        { "subslices=9", "subslices" },
        { "slices=2", "slices" },
        { "stolen-mb=33", "stolen-mb" },
        { "addr=02.1", "function 0" },
    };

    gpu_assert_bad_properties("intel-gpu", cases, ARRAY_SIZE(cases));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/intel-gpu/config/identity", test_identity);
    qtest_add_func("/intel-gpu/config/registers", test_config_registers);
    qtest_add_func("/intel-gpu/config/capabilities", test_capability_chain);
    qtest_add_func("/intel-gpu/config/bars", test_bars);
    qtest_add_func("/intel-gpu/config/msi", test_msi_capability);
    qtest_add_func("/intel-gpu/config/power-management",
                   test_power_management);
    qtest_add_func("/intel-gpu/config/bad-properties", test_bad_properties);
    qtest_add_func("/intel-gpu/mmio/forcewake", test_forcewake);
    qtest_add_func("/intel-gpu/mmio/masked-and-fuses", test_masked_and_fuses);
    qtest_add_func("/intel-gpu/mmio/handshakes", test_handshakes);
    qtest_add_func("/intel-gpu/mmio/mchbar", test_mchbar_read_only);
    qtest_add_func("/intel-gpu/mmio/unmodelled", test_unmodelled_storage);
    qtest_add_func("/intel-gpu/mmio/iobar", test_iobar);
    qtest_add_func("/intel-gpu/ggtt/pte", test_ggtt_pte);
    qtest_add_func("/intel-gpu/ggtt/aperture", test_aperture);
    qtest_add_func("/intel-gpu/reset", test_reset);
    qtest_add_func("/intel-gpu/rc6/residency", test_rc6_residency);
    return g_test_run();
}
