/*
 * qtest for intel-gpu: the device inside QEMU, driven through PCI config
 * space and its BARs as a driver would.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "gpumodel-qtest.h"
#include "qobject/qdict.h"
#include "hw/pci/pci_regs.h"
#include "hw/gpumodel/intel-gpu-regs.h"
#include "hw/gpumodel/intel-oa-metric-sets.h"

#define GPU_DEVFN   QPCI_DEVFN(2, 0)
#define GPU_BARS    (1u << INTEL_GTTMMADR_BAR | 1u << INTEL_GMADR_BAR | \
                     1u << INTEL_IOBAR_BAR)
#define GPU_ARGS    "-machine q35 -nodefaults " \
                    "-device intel-gpu,id=gpu,addr=02.0"

/* Start QEMU with the device and @extra appended to its -device. */
static void gpu_start_args(Gpu *g, const char *extra)
{
    g_autofree char *args = g_strdup_printf(GPU_ARGS "%s", extra);

    gpu_boot(g, GPU_DEVFN, GPU_BARS, args);
}

static void gpu_start(Gpu *g)
{
    gpu_start_args(g, "");
}

static uint32_t cfg_read(Gpu *g, uint8_t off, int size)
{
    switch (size) {
    case 1:
        return qpci_config_readb(g->dev, off);
    case 2:
        return qpci_config_readw(g->dev, off);
    }
    return qpci_config_readl(g->dev, off);
}

static void cfg_write(Gpu *g, uint8_t off, int size, uint32_t val)
{
    switch (size) {
    case 1:
        qpci_config_writeb(g->dev, off, val);
        break;
    case 2:
        qpci_config_writew(g->dev, off, val);
        break;
    default:
        qpci_config_writel(g->dev, off, val);
    }
}

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
 * The seed's 0/2/0 registers outside the BARs and capabilities: reset
 * value, and which bits a write of all-ones reaches.
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
    { "MGGC0", INTEL_PCI_MGGC0, 4, 3 << 6, 0 },
    { "DEVEN0", INTEL_PCI_DEVEN0, 4, 0x11, 0 },
    { "DEV2CTL", INTEL_PCI_DEV2CTL, 4, 0, 0 },
    { "MSAC", INTEL_PCI_MSAC, 4, INTEL_MSAC_APSZ_256M << 16, 0 },
    { "BDSM_HI", INTEL_PCI_BDSM_HI, 4, 0, 0xffffffff },
    { "VTDBAR_LSB", INTEL_PCI_VTDBAR_LSB, 4, 0, 0 },
    { "VTDBAR_MSB", INTEL_PCI_VTDBAR_MSB, 4, 0, 0 },
    { "PMCS", INTEL_PCI_PM_CAP + PCI_PM_CTRL, 2, 0x0008, 0x3 },
    { "SWSMI", INTEL_PCI_SWSMI, 4, 0, 0xffffffff },
    { "GSE", INTEL_PCI_GSE, 4, 0, 0xffffffff },
    { "SWSCI", INTEL_PCI_SWSCI, 4, 0, 0xffffffff },
    { "ASLS", INTEL_PCI_ASLS, 4, 0, 0xffffffff },
    { "BDSM", INTEL_PCI_BDSM, 4, 0, INTEL_BDSM_MASK | INTEL_BDSM_LOCK },
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
                    INTEL_BDSM_MASK | INTEL_BDSM_LOCK);
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
    uint8_t ptr;
    uint16_t flags;

    gpu_start(&g);
    ptr = qpci_config_readb(g.dev, PCI_CAPABILITY_LIST);
    for (unsigned i = 0; i < ARRAY_SIZE(chain); i++) {
        g_assert_cmphex(ptr, ==, chain[i][0]);
        g_assert_cmphex(qpci_config_readb(g.dev, ptr), ==, chain[i][1]);
        ptr = qpci_config_readb(g.dev, ptr + 1);
    }
    g_assert_cmphex(ptr, ==, 0);

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

    g.qts = qtest_init(GPU_ARGS);
    pc_alloc_init(&g.alloc, g.qts, ALLOC_NO_FLAGS);
    g.bus = qpci_new_pc(g.qts, &g.alloc);
    g.dev = qpci_device_find(g.bus, GPU_DEVFN);

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
    wr(&g, INTEL_FORCEWAKE_RENDER, 0x00010001);
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

/* @n contiguous pages of guest RAM, page aligned. */
static uint64_t alloc_pages(Gpu *g, unsigned n)
{
    uint64_t a = guest_alloc(&g->alloc, (n + 1) * INTEL_GGTT_PAGE_SIZE);

    return QEMU_ALIGN_UP(a, INTEL_GGTT_PAGE_SIZE);
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

    /* Remap without GFX_FLSH_CNTL: the cached translation still holds. */
    qpci_io_writeq(g.dev, g.bar[0], INTEL_GSM_OFFSET + 7 * 8, page_b | 1);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[2], 7 * 4096 + 0x40), ==,
                    0x11223344);
    wr(&g, INTEL_GFX_FLSH_CNTL, INTEL_GFX_FLSH_CNTL_EN);
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
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[4], INTEL_IOBAR_MMIO_DATA), ==, 0);
    gpu_stop(&g);
}

static int64_t unmodelled_count(Gpu *g)
{
    QDict *resp = qtest_qmp(g->qts, "{'execute': 'qom-get', 'arguments': "
                            "{'path': 'gpu', "
                            "'property': 'unmodelled-mmio-count'}}");
    int64_t n = qdict_get_int(resp, "return");

    qobject_unref(resp);
    return n;
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
    wr(&g, INTEL_FORCEWAKE_RENDER, 0x00010001);
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

/* ---- interrupts ---- */

#define MSI_MAGIC 0x4321

static void inject(Gpu *g, int klass, int instance, int bits)
{
    qmp_ok(g, "{'execute': 'x-intel-gpu-inject-irq', 'arguments': "
           "{'id': 'gpu', 'engine-class': %d, 'instance': %d, 'bits': %d}}",
           klass, instance, bits);
}

/* What i915's gen11_gt_irq_postinstall and master enable write. */
static void irq_postinstall(Gpu *g)
{
    uint32_t irqs = 0x0909;

    wr(g, INTEL_RENDER_COPY_INTR_ENABLE, irqs << 16 | irqs);
    wr(g, INTEL_RCS0_RSVD_INTR_MASK, ~(irqs << 16));
    wr(g, INTEL_BCS_RSVD_INTR_MASK, ~(irqs << 16));
    wr(g, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
}

/* MSI to a word of guest RAM; returns its address. */
static uint64_t msi_to_ram(Gpu *g)
{
    uint64_t addr = guest_alloc(&g->alloc, 4);
    uint8_t cap = INTEL_PCI_MSI_CAP;

    qtest_writel(g->qts, addr, 0);
    qpci_config_writel(g->dev, cap + PCI_MSI_ADDRESS_LO, addr);
    qpci_config_writew(g->dev, cap + PCI_MSI_DATA_32, MSI_MAGIC);
    qpci_config_writew(g->dev, cap + PCI_MSI_FLAGS,
                       qpci_config_readw(g->dev, cap + PCI_MSI_FLAGS) |
                       PCI_MSI_FLAGS_ENABLE);
    return addr;
}

static void service(Gpu *g, unsigned bank, unsigned bit, uint32_t expect)
{
    g_assert_cmphex(rd(g, INTEL_GT_INTR_DW(bank)) & (1u << bit), !=, 0);
    wr(g, INTEL_IIR_REG_SELECTOR(bank), 1u << bit);
    g_assert_cmphex(rd(g, INTEL_INTR_IDENTITY_REG(bank)), ==, expect);
    wr(g, INTEL_INTR_IDENTITY_REG(bank), INTEL_INTR_DATA_VALID);
    wr(g, INTEL_GT_INTR_DW(bank), 1u << bit);
}

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

    /* The seed's flow: disable master, service, re-enable. */
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

    gpu_start(&g);
    msi = msi_to_ram(&g);
    irq_postinstall(&g);
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

static bool intx_asserted(Gpu *g)
{
    return qpci_config_readw(g->dev, PCI_STATUS) & PCI_STATUS_INTERRUPT;
}

static void test_irq_intx(void)
{
    Gpu g;

    gpu_start(&g);
    irq_postinstall(&g);
    g_assert_false(intx_asserted(&g));
    inject(&g, 3, 0, 1);
    g_assert_true(intx_asserted(&g));
    /* Master enable gates the level. */
    wr(&g, INTEL_GFX_MSTR_IRQ, 0);
    g_assert_false(intx_asserted(&g));
    wr(&g, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    g_assert_true(intx_asserted(&g));
    /* Serviced: the level drops. */
    service(&g, 0, 15, INTEL_INTR_DATA_VALID | 3 << 16 | 1);
    g_assert_false(intx_asserted(&g));
    gpu_stop(&g);
}

static void test_irq_drill(void)
{
    uint64_t msi;
    Gpu g;

    gpu_start(&g);
    msi = msi_to_ram(&g);
    irq_postinstall(&g);
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

/* ---- command streamers ---- */

/* Command headers (PRM "MI Commands", "Blitter Commands"). */
#define MI_NOOP                 0x00000000u
#define MI_USER_INTERRUPT       0x01000000u
#define MI_ARB_ON_OFF_ENABLE    0x04000001u
#define MI_BATCH_BUFFER_END     0x05000000u
#define MI_SEMAPHORE_WAIT_EQ    0x0E40C002u     /* GGTT, poll, SAD == SDD */
#define MI_STORE_DATA_IMM       0x10000002u
#define   MI_USE_GGTT           (1u << 22)
#define MI_LRI(n)               (0x11000000u | (2 * (n) - 1))
#define MI_BATCH_BUFFER_START   0x18800001u
#define MI_REPORT_PERF_COUNT    0x14000002u
#define   MI_BB_PPGTT           (1u << 8)
#define XY_BLT(op, len)         (2u << 29 | (op) << 22 | 3u << 20 | ((len) - 2))
#define XY_COLOR_BLT            XY_BLT(0x50u, 7)
#define XY_SRC_COPY_BLT         XY_BLT(0x53u, 10)
#define XY_BR13_32BPP(rop, pitch) (3u << 24 | (rop) << 16 | (pitch))

/* Virtual time in which any of these rings runs to its end. */
#define CS_SETTLE_NS            1000000
/* Test memory sits in the GGTT at its guest-physical address plus this. */
#define GTT_BIAS                0x40000000u
/* Descriptor: valid, legacy 64-bit context (4-level PPGTT), privileged. */
#define CTX_DESC_FLAGS          0x119u
/* i915's CCIDs (upper descriptor dword): SW context ID tag << 5. */
#define CCID(tag)               ((tag) << 5)
/* The image's value slots (state page dwords) of RING_HEAD and RING_TAIL. */
#define CTX_HEAD                5
#define CTX_TAIL                7

/* Guest RAM, possibly mapped in the GGTT, and a write cursor into it. */
typedef struct Buf {
    uint64_t phys;
    uint32_t gtt;
    uint32_t size;
    uint32_t len;           /* bytes emitted */
} Buf;

static void ggtt_map(Gpu *g, uint32_t gtt, uint64_t phys, unsigned pages)
{
    for (unsigned i = 0; i < pages; i++) {
        qpci_io_writeq(g->dev, g->bar[0], INTEL_GSM_OFFSET +
                       (gtt / INTEL_GGTT_PAGE_SIZE + i) * 8ull,
                       (phys + i * INTEL_GGTT_PAGE_SIZE) |
                       INTEL_GGTT_PTE_PRESENT);
    }
    wr(g, INTEL_GFX_FLSH_CNTL, INTEL_GFX_FLSH_CNTL_EN);
}

/* Zeroed RAM that only a PPGTT maps. */
static Buf buf_ram(Gpu *g, unsigned pages)
{
    Buf b = { .size = pages * INTEL_GGTT_PAGE_SIZE };

    b.phys = alloc_pages(g, pages);
    qtest_memset(g->qts, b.phys, 0, b.size);
    return b;
}

/* Zeroed RAM mapped in the GGTT. */
static Buf buf_new(Gpu *g, unsigned pages)
{
    Buf b = buf_ram(g, pages);

    b.gtt = b.phys + GTT_BIAS;
    ggtt_map(g, b.gtt, b.phys, pages);
    return b;
}

static uint32_t buf_readl(Gpu *g, const Buf *b, uint32_t off)
{
    return qtest_readl(g->qts, b->phys + off);
}

static void buf_emit(Gpu *g, Buf *b, const uint32_t *dw, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        g_assert_cmpuint(b->len + 4, <=, b->size);
        qtest_writel(g->qts, b->phys + b->len, dw[i]);
        b->len += 4;
    }
}

#define EMIT(g, b, ...) \
    buf_emit(g, b, (const uint32_t[]) { __VA_ARGS__ }, \
             sizeof((const uint32_t[]) { __VA_ARGS__ }) / 4)

static void emit_store(Gpu *g, Buf *b, uint32_t flags, uint64_t addr,
                       uint32_t val)
{
    EMIT(g, b, MI_STORE_DATA_IMM | flags, addr, addr >> 32, val);
}

/* RING_TAIL is qword aligned (bits 20:3): pad with MI_NOOP. */
static uint32_t ring_tail(Gpu *g, Buf *ring)
{
    if (ring->len & 4) {
        EMIT(g, ring, MI_NOOP);
    }
    return ring->len;
}

/* Legacy ring mode: program the ring; the TAIL write is the doorbell. */
static void ring_submit(Gpu *g, uint32_t base, Buf *ring)
{
    wr(g, base + INTEL_RING_HEAD, 0);
    wr(g, base + INTEL_RING_START, ring->gtt);
    wr(g, base + INTEL_RING_CTL, (ring->size - INTEL_GGTT_PAGE_SIZE) | 1);
    wr(g, base + INTEL_RING_TAIL, ring_tail(g, ring));
}

static void cs_settle(Gpu *g)
{
    qtest_clock_step(g->qts, CS_SETTLE_NS);
}

static bool engine_idle(Gpu *g, uint32_t base)
{
    return rd(g, base + INTEL_RING_MI_MODE) & INTEL_MI_MODE_IDLE;
}

/* i915's ring_is_idle: HEAD == TAIL (offsets) and MODE_IDLE. */
static void assert_ring_idle(Gpu *g, uint32_t base)
{
    g_assert_cmphex(rd(g, base + INTEL_RING_HEAD) & 0x1ffffc, ==,
                    rd(g, base + INTEL_RING_TAIL) & 0x1ffff8);
    g_assert_true(engine_idle(g, base));
}

/* One MSI arrived: service the GT DW0 interrupt, as i915's handler does. */
static void expect_msi(Gpu *g, uint64_t msi, unsigned bit, uint32_t data)
{
    g_assert_cmphex(qtest_readl(g->qts, msi), ==, MSI_MAGIC);
    qtest_writel(g->qts, msi, 0);
    wr(g, INTEL_GFX_MSTR_IRQ, 0);
    service(g, 0, bit, INTEL_INTR_DATA_VALID | data);
    wr(g, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    g_assert_cmphex(qtest_readl(g->qts, msi), ==, 0);
}

static void test_cs_ring_store_irq(void)
{
    uint32_t rcs = INTEL_RCS0_BASE;
    uint64_t msi;
    Buf ring, data;
    Gpu g;

    gpu_start(&g);
    msi = msi_to_ram(&g);
    irq_postinstall(&g);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_MODE) &
                    INTEL_GFX_DISABLE_LEGACY_MODE, ==, 0);
    ring = buf_new(&g, 2);
    data = buf_new(&g, 1);
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt + 0x40, 0x5eed0001);
    EMIT(&g, &ring, MI_USER_INTERRUPT, MI_NOOP, MI_NOOP, MI_NOOP);
    ring_submit(&g, rcs, &ring);
    cs_settle(&g);

    g_assert_cmphex(buf_readl(&g, &data, 0x40), ==, 0x5eed0001);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, ring.len);
    assert_ring_idle(&g, rcs);
    expect_msi(&g, msi, 0, INTEL_GT_RENDER_USER_INTERRUPT);

    /*
     * The next request starts after MI_NOOPs to the ring's end (the ring
     * is zeroed) and wraps to its start; HEAD counts the wrap in 31:21.
     */
    ring.len = 0;
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt + 0x44, 0x5eed0002);
    EMIT(&g, &ring, MI_USER_INTERRUPT);
    wr(&g, rcs + INTEL_RING_TAIL, ring_tail(&g, &ring));
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 0x44), ==, 0x5eed0002);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, 1 << 21 | ring.len);
    assert_ring_idle(&g, rcs);
    expect_msi(&g, msi, 0, INTEL_GT_RENDER_USER_INTERRUPT);
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
    g_assert_cmpuint(rd(&g, INTEL_GT_CORE_STATUS) & INTEL_GT_CORE_RC_MASK,
                     ==, INTEL_GT_CORE_RC6);

    wr(&g, INTEL_FORCEWAKE_RENDER, 0x00010001);
    wr(&g, INTEL_FORCEWAKE_GT, 0x00010001);
    g_assert_cmpuint(rc6_after_50ms(&g), ==, 0);
    g_assert_cmpuint(rd(&g, INTEL_GT_CORE_STATUS) & INTEL_GT_CORE_RC_MASK,
                     ==, INTEL_GT_CORE_RC0);
    wr(&g, INTEL_FORCEWAKE_RENDER, 0x00010000);
    wr(&g, INTEL_FORCEWAKE_GT, 0x00010000);
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

/*
 * The OA buffer as i915's gen8_init_oa_buffer programs it: 128 KiB (size
 * code 0), size-aligned at OA_GTT in the GGTT, head and tail at its start.
 */
#define OA_GTT      0x20000000u
#define OA_PAGES    32

static Buf oa_buffer_init(Gpu *g)
{
    Buf b = buf_ram(g, OA_PAGES);

    b.gtt = OA_GTT;
    ggtt_map(g, OA_GTT, b.phys, OA_PAGES);
    wr(g, INTEL_OASTATUS, 0);
    wr(g, INTEL_OAHEADPTR, OA_GTT);
    wr(g, INTEL_OABUFFER, OA_GTT | 1);
    wr(g, INTEL_OATAILPTR, OA_GTT);
    return b;
}

/*
 * The OA unit programmed as i915's gen8_init_oa_buffer/gen8_oa_enable do:
 * periodic reports land one period (2^(e+1) timestamp ticks) apart until
 * OACONTROL is cleared; MI_REPORT_PERF_COUNT from a ring writes a
 * snapshot with its report ID.
 */
static void test_oa_periodic_and_snapshot(void)
{
    const uint32_t oa_gtt = OA_GTT, exponent = 10;
    Buf oabuf, ring, snap;
    uint32_t tail, n;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_buffer_init(&g);
    wr(&g, INTEL_OACTXCONTROL, exponent << 2 | 2 | 1);
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);
    qtest_clock_step(g.qts, 20 * 1000 * 1000);

    /* 20 ms at 170.7 us a report, written once a millisecond. */
    tail = rd(&g, INTEL_OATAILPTR);
    n = (tail - oa_gtt) / 256;
    g_assert_cmpuint(n, >=, 100);
    g_assert_cmpuint(n, <=, 118);
    for (uint32_t i = 0; i + 1 < n; i++) {
        uint32_t r = i * 256;

        g_assert_cmphex(buf_readl(&g, &oabuf, r) >> 19, ==, 1);
        g_assert_cmpuint(buf_readl(&g, &oabuf, r + 256 + 4) -
                         buf_readl(&g, &oabuf, r + 4), ==, 2u << exponent);
    }
    wr(&g, INTEL_OACONTROL, 0);
    qtest_clock_step(g.qts, 5 * 1000 * 1000);
    g_assert_cmphex(rd(&g, INTEL_OATAILPTR), ==, tail);
    g_assert_cmphex(rd(&g, INTEL_OASTATUS), ==, 0);

    ring = buf_new(&g, 1);
    snap = buf_new(&g, 1);
    EMIT(&g, &ring, MI_REPORT_PERF_COUNT, snap.gtt | 1, 0, 0xcafe);
    ring_submit(&g, INTEL_RCS0_BASE, &ring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &snap, 0), ==, 0xcafe);
    g_assert_cmpuint(buf_readl(&g, &snap, 4), >,
                     buf_readl(&g, &oabuf, (n - 1) * 256 + 4));
    gpu_stop(&g);
}

/*
 * IGT's TestOa configuration (hw/gpumodel/intel-oa-metric-sets.h) loaded
 * from a ring as i915's config batch does (MI_LOAD_REGISTER_IMM), then OA
 * sampling (exponent 8, 42.7 us) and MI_REPORT_PERF_COUNT with IGT's
 * report ID: the snapshot keeps 0xdeadbeef (IGT's mi-rpc), and every two
 * timer reports have the start trigger fired (RPT_ID bit 18), B0 = 0,
 * B1 = B2 = the GPU_TICKS delta, B3 its half, B4 and B5 a third, B6 a
 * sixth, B7 two thirds, within 1 (tests/i915/perf.c,
 * gen8_sanity_check_test_oa_reports).
 */
static void test_oa_test_oa_config(void)
{
    static const uint32_t num[8] = { 0, 1, 1, 1, 1, 1, 1, 2 };
    static const uint32_t den[8] = { 1, 1, 1, 2, 3, 3, 6, 3 };
    const uint32_t oa_gtt = OA_GTT;
    Buf oabuf, ring, snap;
    uint32_t n;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_buffer_init(&g);
    /* i915's order: the configuration batch, OA_DEBUG, then enable. */
    ring = buf_new(&g, 1);
    for (unsigned i = 0; i < G_N_ELEMENTS(intel_icl_test_oa); i++) {
        EMIT(&g, &ring, MI_LRI(1), intel_icl_test_oa[i].reg,
             intel_icl_test_oa[i].val);
    }
    ring_submit(&g, INTEL_RCS0_BASE, &ring);
    cs_settle(&g);
    wr(&g, INTEL_OA_DEBUG, (INTEL_OA_DEBUG_NO_CLK_RATIO_REPORTS |
                            INTEL_OA_DEBUG_INCLUDE_CLK_RATIO) * 0x10001);
    wr(&g, INTEL_OACTXCONTROL, 8 << 2 | 2 | 1);
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);

    qtest_clock_step(g.qts, 200 * 1000);
    ring = buf_new(&g, 1);
    snap = buf_new(&g, 1);
    EMIT(&g, &ring, MI_REPORT_PERF_COUNT, snap.gtt | 1, 0, 0xdeadbeef);
    ring_submit(&g, INTEL_RCS0_BASE, &ring);
    qtest_clock_step(g.qts, 3 * 1000 * 1000);
    g_assert_cmphex(buf_readl(&g, &snap, 0), ==, 0xdeadbeef);
    g_assert_cmphex(rd(&g, INTEL_RCS0_BASE + INTEL_RING_ESR), ==, 0);

    n = (rd(&g, INTEL_OATAILPTR) - oa_gtt) / 256;
    g_assert_cmpuint(n, >=, 70);
    for (uint32_t i = 0; i + 1 < n; i++) {
        uint32_t r = i * 256;
        uint32_t clocks = buf_readl(&g, &oabuf, r + 256 + 12) -
                          buf_readl(&g, &oabuf, r + 12);

        /* The unit's own reports: timer, start trigger, frequency. */
        g_assert_cmphex(buf_readl(&g, &oabuf, r) >> 19 & 0x3f, ==, 1);
        g_assert_true(buf_readl(&g, &oabuf, r) & (1u << 18));
        for (unsigned k = 0; k < 8; k++) {
            uint32_t b = buf_readl(&g, &oabuf, r + 256 + 192 + 4 * k) -
                         buf_readl(&g, &oabuf, r + 192 + 4 * k);
            uint32_t ref = clocks * num[k] / den[k];

            g_assert_cmpuint(b, >=, k < 3 ? ref : ref - 1);
            g_assert_cmpuint(b, <=, k < 3 ? ref : ref + 1);
        }
    }
    wr(&g, INTEL_OACONTROL, 0);
    gpu_stop(&g);
}

/* A page of @pattern (byte i is i * 7 + 1) in @src, @dst all 0xee. */
static void blit_surfaces(Gpu *g, Buf *src, Buf *dst,
                          uint8_t pattern[INTEL_GGTT_PAGE_SIZE])
{
    *src = buf_new(g, 1);
    *dst = buf_new(g, 1);
    for (unsigned i = 0; i < INTEL_GGTT_PAGE_SIZE; i++) {
        pattern[i] = i * 7 + 1;
    }
    qtest_memwrite(g->qts, src->phys, pattern, INTEL_GGTT_PAGE_SIZE);
    qtest_memset(g->qts, dst->phys, 0xee, dst->size);
}

/* XY_* blits on BCS0 between linear 32 bpp surfaces in the GGTT. */
static void test_cs_blit(void)
{
    enum { SRC_PITCH = 256, DST_PITCH = 512, CPP = 4 };
    uint32_t bcs = INTEL_BCS0_BASE;
    uint8_t pattern[INTEL_GGTT_PAGE_SIZE], expect[INTEL_GGTT_PAGE_SIZE];
    uint8_t got[INTEL_GGTT_PAGE_SIZE];
    Buf ring, src, dst;
    Gpu g;

    gpu_start(&g);
    ring = buf_new(&g, 1);
    blit_surfaces(&g, &src, &dst, pattern);

    /* 5 x 3 pixels from src (2, 1) to dst (4, 2). */
    EMIT(&g, &ring, XY_SRC_COPY_BLT, XY_BR13_32BPP(0xcc, DST_PITCH),
         2 << 16 | 4, 5 << 16 | 9, dst.gtt, 0,
         1 << 16 | 2, SRC_PITCH, src.gtt, 0);
    /* Fill dst (10, 5) - (13, 7) with one colour. */
    EMIT(&g, &ring, XY_COLOR_BLT, XY_BR13_32BPP(0xf0, DST_PITCH),
         5 << 16 | 10, 7 << 16 | 13, dst.gtt, 0, 0x11223344);
    ring_submit(&g, bcs, &ring);
    cs_settle(&g);
    assert_ring_idle(&g, bcs);
    g_assert_cmphex(rd(&g, bcs + INTEL_RING_ESR), ==, 0);

    memset(expect, 0xee, sizeof(expect));
    for (unsigned y = 0; y < 3; y++) {
        memcpy(&expect[(2 + y) * DST_PITCH + 4 * CPP],
               &pattern[(1 + y) * SRC_PITCH + 2 * CPP], 5 * CPP);
    }
    for (unsigned y = 5; y < 7; y++) {
        for (unsigned x = 10; x < 13; x++) {
            memcpy(&expect[y * DST_PITCH + x * CPP],
                   (const uint8_t[]) { 0x44, 0x33, 0x22, 0x11 }, CPP);
        }
    }
    qtest_memread(g.qts, dst.phys, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), expect, sizeof(expect));
    gpu_stop(&g);
}

/*
 * Tiled surfaces as i915 and IGT use them (gem_tiled_pread_basic,
 * gem_tiled_blits): an object written through a fenced aperture range
 * lands tiled in memory, the blitter reads it back as tiled; the blitter
 * writes a Y-tiled object that a Y fence reads back linearly.
 */
#define TILED_GTT       0x00200000u     /* in the aperture */
#define TILED_PITCH     1024u
#define TILED_ROWS      32u
#define TILED_PAGES     (TILED_PITCH * TILED_ROWS / INTEL_GGTT_PAGE_SIZE)
#define XY_SRC_TILED    (1u << 15)
#define XY_DST_TILED    (1u << 11)
#define BCS_SWCTRL      0x22200u
#define   BCS_DST_Y     (1u << 1)

/* i915's i965_write_fence_reg: off, high dword, then low with valid. */
static void fence_set(Gpu *g, unsigned i, uint32_t start, uint32_t size,
                      uint32_t pitch, bool y)
{
    wr(g, INTEL_FENCE_REG(i), 0);
    wr(g, INTEL_FENCE_REG(i) + 4, (start + size - INTEL_GGTT_PAGE_SIZE) |
       (pitch / 128 - 1));
    wr(g, INTEL_FENCE_REG(i), start | (y ? 2 : 0) | 1);
}

/* Byte (@x, @y) of an X-tiled surface (IGT's x_ptr, no swizzling). */
static uint32_t x_tiled(uint32_t pitch, uint32_t x, uint32_t y)
{
    return y / 8 * pitch * 8 + x / 512 * 4096 + y % 8 * 512 + x % 512;
}

static void test_tiled_fence_blit(void)
{
    const uint32_t size = TILED_PITCH * TILED_ROWS;
    uint32_t bcs = INTEL_BCS0_BASE;
    g_autofree uint32_t *image = g_new(uint32_t, size / 4);
    g_autofree uint8_t *got = g_malloc(size);
    uint64_t xobj, yobj;
    Buf ring, lin;
    Gpu g;

    gpu_start(&g);
    for (uint32_t i = 0; i < size / 4; i++) {
        image[i] = 0xa0000000u | (i / 256) << 12 | i % 256;
    }
    /* Two fenced objects: X at TILED_GTT, Y right after it. */
    xobj = alloc_pages(&g, TILED_PAGES);
    yobj = alloc_pages(&g, TILED_PAGES);
    ggtt_map(&g, TILED_GTT, xobj, TILED_PAGES);
    ggtt_map(&g, TILED_GTT + size, yobj, TILED_PAGES);
    fence_set(&g, 0, TILED_GTT, size, TILED_PITCH, false);
    fence_set(&g, 1, TILED_GTT + size, size, TILED_PITCH, true);

    /* Written linearly through the aperture, stored X-tiled. */
    qpci_memwrite(g.dev, g.bar[2], TILED_GTT, image, size);
    qtest_memread(g.qts, xobj, got, size);
    for (uint32_t y = 0; y < TILED_ROWS; y++) {
        for (uint32_t x = 0; x < TILED_PITCH; x++) {
            g_assert_cmphex(got[x_tiled(TILED_PITCH, x, y)], ==,
                            ((uint8_t *)image)[y * TILED_PITCH + x]);
        }
    }

    /*
     * The blitter detiles it into a linear buffer, then tiles that into
     * the Y object (BCS_SWCTRL's destination bit).
     */
    ring = buf_new(&g, 1);
    lin = buf_new(&g, TILED_PAGES);
    EMIT(&g, &ring, XY_SRC_COPY_BLT | XY_SRC_TILED,
         XY_BR13_32BPP(0xcc, TILED_PITCH), 0,
         TILED_ROWS << 16 | TILED_PITCH / 4, lin.gtt, 0,
         0, TILED_PITCH / 4, TILED_GTT, 0);
    EMIT(&g, &ring, MI_LRI(1), BCS_SWCTRL, BCS_DST_Y << 16 | BCS_DST_Y);
    EMIT(&g, &ring, XY_SRC_COPY_BLT | XY_DST_TILED,
         XY_BR13_32BPP(0xcc, TILED_PITCH / 4), 0,
         TILED_ROWS << 16 | TILED_PITCH / 4, TILED_GTT + size, 0,
         0, TILED_PITCH, lin.gtt, 0);
    EMIT(&g, &ring, MI_LRI(1), BCS_SWCTRL, BCS_DST_Y << 16);
    ring_submit(&g, bcs, &ring);
    cs_settle(&g);
    assert_ring_idle(&g, bcs);
    g_assert_cmphex(rd(&g, bcs + INTEL_RING_ESR), ==, 0);
    qtest_memread(g.qts, lin.phys, got, size);
    g_assert_cmpmem(got, size, image, size);

    /* The Y object, read through its fence, is the image again. */
    qpci_memread(g.dev, g.bar[2], TILED_GTT + size, got, size);
    g_assert_cmpmem(got, size, image, size);
    /* And it is tiled in memory: row 1 starts at the second OWord. */
    g_assert_cmphex(qtest_readl(g.qts, yobj + 16), ==, image[256]);
    gpu_stop(&g);
}

/*
 * A batch that jumps to itself runs until stopped, in slices: the device
 * keeps answering, STOP_RING idles it and an engine reset clears it.
 */
static void test_cs_self_loop(void)
{
    uint32_t rcs = INTEL_RCS0_BASE, ts, acthd;
    Buf ring, batch;
    Gpu g;

    gpu_start(&g);
    ring = buf_new(&g, 1);
    batch = buf_new(&g, 1);
    EMIT(&g, &batch, MI_BATCH_BUFFER_START, batch.gtt, 0);
    EMIT(&g, &ring, MI_BATCH_BUFFER_START, batch.gtt, 0);
    ring_submit(&g, rcs, &ring);
    qtest_clock_step(g.qts, 1);
    for (int i = 0; i < 5; i++) {
        ts = rd(&g, rcs + INTEL_RING_TIMESTAMP);
        qtest_clock_step(g.qts, CS_SETTLE_NS);
        g_assert_cmpuint((uint32_t)(rd(&g, rcs + INTEL_RING_TIMESTAMP) - ts),
                         >, 0);
        acthd = rd(&g, rcs + INTEL_RING_ACTHD);
        g_assert_cmphex(acthd, >=, batch.gtt);
        g_assert_cmphex(acthd, <, batch.gtt + batch.len);
        g_assert_false(engine_idle(&g, rcs));
    }

    wr(&g, rcs + INTEL_RING_MI_MODE, 0x01000100);       /* STOP_RING */
    g_assert_true(engine_idle(&g, rcs));
    acthd = rd(&g, rcs + INTEL_RING_ACTHD);
    qtest_clock_step(g.qts, CS_SETTLE_NS);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ACTHD), ==, acthd);

    wr(&g, INTEL_GDRST, INTEL_GRDOM_RENDER);
    g_assert_cmphex(rd(&g, INTEL_GDRST), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_TAIL), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_START), ==, 0);
    g_assert_true(engine_idle(&g, rcs));
    gpu_stop(&g);
}

/*
 * An invalid command header halts the engine with a CS error until an
 * engine reset; after it the engine runs a new ring.
 */
static void test_cs_invalid_opcode(void)
{
    static const uint32_t invalid[] = { 0x3f800000, 0x20000000 };
    uint32_t rcs = INTEL_RCS0_BASE;
    uint64_t msi;
    Buf ring, data;
    Gpu g;

    gpu_start(&g);
    msi = msi_to_ram(&g);
    irq_postinstall(&g);
    data = buf_new(&g, 1);
    for (unsigned i = 0; i < ARRAY_SIZE(invalid); i++) {
        uint32_t off = 16 * i;

        g_test_message("header 0x%08x", invalid[i]);
        /* i915's enable_error_interrupt. */
        wr(&g, rcs + INTEL_RING_EMR, ~0u);
        wr(&g, rcs + INTEL_RING_EIR, ~0u);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
        wr(&g, rcs + INTEL_RING_EMR, ~INTEL_ERROR_INSTRUCTION);
        ring = buf_new(&g, 1);
        emit_store(&g, &ring, MI_USE_GGTT, data.gtt + off, 1);
        EMIT(&g, &ring, invalid[i]);
        emit_store(&g, &ring, MI_USE_GGTT, data.gtt + off + 4, 2);
        ring_submit(&g, rcs, &ring);
        cs_settle(&g);

        g_assert_cmphex(buf_readl(&g, &data, off), ==, 1);
        g_assert_cmphex(buf_readl(&g, &data, off + 4), ==, 0);
        g_assert_true(engine_idle(&g, rcs));
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_EIR) &
                        INTEL_ERROR_INSTRUCTION, ==, INTEL_ERROR_INSTRUCTION);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR) &
                        INTEL_ERROR_INSTRUCTION, ==, INTEL_ERROR_INSTRUCTION);
        expect_msi(&g, msi, 0, INTEL_GT_CS_MASTER_ERROR);
        /* EIR is write-1-to-clear; ESR is status until the reset. */
        wr(&g, rcs + INTEL_RING_EIR, INTEL_ERROR_INSTRUCTION);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_EIR), ==, 0);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==,
                        INTEL_ERROR_INSTRUCTION);
        /* Halted: time does not move it on. */
        qtest_clock_step(g.qts, CS_SETTLE_NS);
        g_assert_cmphex(buf_readl(&g, &data, off + 4), ==, 0);

        wr(&g, INTEL_GDRST, INTEL_GRDOM_RENDER);
        g_assert_cmphex(rd(&g, INTEL_GDRST), ==, 0);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
        ring = buf_new(&g, 1);
        emit_store(&g, &ring, MI_USE_GGTT, data.gtt + off + 8, 3);
        EMIT(&g, &ring, MI_USER_INTERRUPT);
        ring_submit(&g, rcs, &ring);
        cs_settle(&g);
        g_assert_cmphex(buf_readl(&g, &data, off + 8), ==, 3);
        g_assert_cmphex(buf_readl(&g, &data, off + 4), ==, 0);
        assert_ring_idle(&g, rcs);
        expect_msi(&g, msi, 0, INTEL_GT_RENDER_USER_INTERRUPT);
    }
    gpu_stop(&g);
}

/*
 * x-intel-gpu-drill-hang: rcs0 stops fetching with no error (HEAD still,
 * not idle, ESR clear) until a GDRST render reset, after which a new
 * request runs.  Naming an engine that does not exist is an error.
 */
static void test_drill_hang(void)
{
    uint32_t rcs = INTEL_RCS0_BASE;
    Buf ring, data;
    Gpu g;

    gpu_start(&g);
    ring = buf_new(&g, 1);
    data = buf_new(&g, 1);
    qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-hang', 'arguments': "
           "{'id': 'gpu', 'engine-class': 0, 'instance': 0}}");
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt, 0xdead0001);
    ring_submit(&g, rcs, &ring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 0), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, 0);
    g_assert_false(engine_idle(&g, rcs));
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);

    wr(&g, INTEL_GDRST, INTEL_GRDOM_RENDER);
    g_assert_cmphex(rd(&g, INTEL_GDRST), ==, 0);
    ring.len = 0;
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt + 4, 0x600d0002);
    ring_submit(&g, rcs, &ring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 4), ==, 0x600d0002);
    assert_ring_idle(&g, rcs);

    qmp_refused(&g, "{'execute': 'x-intel-gpu-drill-hang', "
                "'arguments': {'id': 'gpu', 'engine-class': 5, "
                "'instance': 0}}");
    gpu_stop(&g);
}

static void drill_dma(Gpu *g, int klass, int instance, unsigned count)
{
    qmp_ok(g, "{'execute': 'x-intel-gpu-drill-dma', 'arguments': "
           "{'id': 'gpu', 'engine-class': %d, 'instance': %d, "
           "'count': %u}}", klass, instance, count);
}

/* RING_FAULT_REG and FAULT_TLB_DATA0 name this engine's GGTT fault. */
static void expect_ggtt_fault(Gpu *g, int klass, uint32_t gtt)
{
    g_assert_cmphex(rd(g, INTEL_RING_FAULT_REG), ==, 1u | klass << 12);
    g_assert_cmphex(rd(g, INTEL_FAULT_TLB_DATA0), ==, gtt >> 12);
    wr(g, INTEL_RING_FAULT_REG, 0);
}

/*
 * x-intel-gpu-drill-dma: a store on rcs0 whose write the drill fails
 * lands nothing and takes the page-fault path (RING_FAULT_REG, the
 * page-table error in ESR, engine halted); a blit on bcs0 leaves its
 * destination untouched.  After an engine reset each engine runs its
 * next request, and the same blit copies.
 */
static void test_drill_dma(void)
{
    enum { PITCH = 256, W = PITCH / 4, H = 4 };   /* whole rows */
    uint32_t rcs = INTEL_RCS0_BASE, bcs = INTEL_BCS0_BASE;
    uint8_t pattern[INTEL_GGTT_PAGE_SIZE], got[PITCH * H];
    Buf ring, data, src, dst;
    Gpu g;

    gpu_start(&g);
    ring = buf_new(&g, 1);
    data = buf_new(&g, 1);
    drill_dma(&g, 0, 0, 1);
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt, 0xd0a00001);
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt + 4, 0xd0a00002);
    ring_submit(&g, rcs, &ring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 0), ==, 0);
    g_assert_cmphex(buf_readl(&g, &data, 4), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, INTEL_ERROR_PAGE_TABLE);
    expect_ggtt_fault(&g, 0, data.gtt);
    g_assert_true(engine_idle(&g, rcs));
    wr(&g, INTEL_GDRST, INTEL_GRDOM_RENDER);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
    ring.len = 0;
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt + 8, 0xd0a00003);
    ring_submit(&g, rcs, &ring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 8), ==, 0xd0a00003);
    assert_ring_idle(&g, rcs);

    ring = buf_new(&g, 1);
    blit_surfaces(&g, &src, &dst, pattern);
    EMIT(&g, &ring, XY_SRC_COPY_BLT, XY_BR13_32BPP(0xcc, PITCH),
         0, H << 16 | W, dst.gtt, 0, 0, PITCH, src.gtt, 0);
    drill_dma(&g, 3, 0, 1);
    ring_submit(&g, bcs, &ring);
    cs_settle(&g);
    qtest_memread(g.qts, dst.phys, got, sizeof(got));
    for (unsigned i = 0; i < sizeof(got); i++) {
        g_assert_cmphex(got[i], ==, 0xee);
    }
    g_assert_cmphex(rd(&g, bcs + INTEL_RING_ESR), ==, INTEL_ERROR_PAGE_TABLE);
    expect_ggtt_fault(&g, 3, dst.gtt);
    wr(&g, INTEL_GDRST, INTEL_GRDOM_BLT);
    ring_submit(&g, bcs, &ring);
    cs_settle(&g);
    qtest_memread(g.qts, dst.phys, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), pattern, sizeof(got));
    assert_ring_idle(&g, bcs);

    qmp_refused(&g, "{'execute': 'x-intel-gpu-drill-dma', 'arguments': "
                "{'id': 'gpu', 'engine-class': 5, 'instance': 0, "
                "'count': 1}}");
    gpu_stop(&g);
}

/* ---- execlists ---- */

/* i915's reset_csb_pointers and enable_execlists; returns the HWSP. */
static Buf execlists_enable(Gpu *g, uint32_t base)
{
    Buf hwsp = buf_new(g, 1);

    qtest_memset(g->qts, hwsp.phys + INTEL_HWS_CSB_BUF0 * 4, 0xff,
                 INTEL_CSB_ENTRIES * 8);
    qtest_writel(g->qts, hwsp.phys + INTEL_HWS_CSB_WRITE * 4,
                 INTEL_CSB_ENTRIES - 1);
    wr(g, base + INTEL_RING_CONTEXT_STATUS_PTR, 0xffff0b0b);
    wr(g, base + INTEL_RING_HWSTAM, ~0u);
    wr(g, base + INTEL_RING_MODE, 0x00080008);
    wr(g, base + INTEL_RING_MI_MODE, 0x01000000);
    wr(g, base + INTEL_RING_HWS_PGA, hwsp.gtt);
    return hwsp;
}

static uint32_t csb_ctx_id(Gpu *g, const Buf *hwsp, unsigned slot)
{
    return buf_readl(g, hwsp, (INTEL_HWS_CSB_BUF0 + 2 * slot + 1) * 4);
}

/*
 * The CSB entries from @first on have these statuses, in the HWSP and its
 * MMIO mirror, and the last of them is the last written.
 */
static void expect_csb(Gpu *g, uint32_t base, const Buf *hwsp,
                       unsigned first, const uint32_t *status, unsigned n)
{
    unsigned last = (first + n - 1) % INTEL_CSB_ENTRIES;

    for (unsigned i = 0; i < n; i++) {
        unsigned s = (first + i) % INTEL_CSB_ENTRIES;
        uint32_t mirror = s < 6 ? INTEL_RING_CSB_BUF + 8 * s
                                : INTEL_RING_CSB_BUF2 + 8 * (s - 6);

        g_test_message("CSB slot %u", s);
        g_assert_cmphex(buf_readl(g, hwsp, (INTEL_HWS_CSB_BUF0 + 2 * s) * 4),
                        ==, status[i]);
        g_assert_cmphex(rd(g, base + mirror), ==, status[i]);
    }
    g_assert_cmphex(buf_readl(g, hwsp, INTEL_HWS_CSB_WRITE * 4), ==, last);
    g_assert_cmphex(rd(g, base + INTEL_RING_CONTEXT_STATUS_PTR) &
                    INTEL_CSB_WRITE_PTR_MASK, ==, last);
    /* Nothing beyond. */
    g_assert_cmphex(csb_ctx_id(g, hwsp, (last + 1) % INTEL_CSB_ENTRIES), ==,
                    0xffffffff);
}

#define EXPECT_CSB(g, base, hwsp, first, ...) \
    expect_csb(g, base, hwsp, first, (const uint32_t[]) { __VA_ARGS__ }, \
               sizeof((const uint32_t[]) { __VA_ARGS__ }) / 4)

/* A logical ring context: PPHWSP and register state pages, and a ring. */
typedef struct Ctx {
    Buf image;
    Buf ring;
} Ctx;

static void ctx_init(Gpu *g, Ctx *c, uint32_t base, uint64_t pml4)
{
    c->image = buf_new(g, 2);
    c->ring = buf_new(g, 1);
    c->image.len = INTEL_LRC_STATE_OFFSET;
    EMIT(g, &c->image, MI_NOOP, MI_LRI(7),
         base + INTEL_RING_CONTEXT_CONTROL, 0x00090008,
         base + INTEL_RING_HEAD, 0,
         base + INTEL_RING_TAIL, 0,
         base + INTEL_RING_START, c->ring.gtt,
         base + INTEL_RING_CTL, (c->ring.size - INTEL_GGTT_PAGE_SIZE) | 1,
         base + INTEL_RING_PDP_UDW(0), pml4 >> 32,
         base + INTEL_RING_PDP_LDW(0), pml4,
         MI_BATCH_BUFFER_END);
}

static uint32_t ctx_slot(Gpu *g, const Ctx *c, unsigned slot)
{
    return buf_readl(g, &c->image, INTEL_LRC_STATE_OFFSET + slot * 4);
}

/* i915's execlists_update_context, then the ELSQ writes and a Load. */
static void ctx_submit(Gpu *g, uint32_t base, Ctx *c, uint32_t ccid)
{
    qtest_writel(g->qts, c->image.phys + INTEL_LRC_STATE_OFFSET +
                 CTX_TAIL * 4, ring_tail(g, &c->ring));
    wr(g, base + INTEL_RING_EXECLIST_SQ + 8, 0);
    wr(g, base + INTEL_RING_EXECLIST_SQ + 12, 0);
    wr(g, base + INTEL_RING_EXECLIST_SQ, c->image.gtt | CTX_DESC_FLAGS);
    wr(g, base + INTEL_RING_EXECLIST_SQ + 4, ccid);
    wr(g, base + INTEL_RING_EXECLIST_CONTROL, INTEL_EL_CTRL_LOAD);
}

static void test_execlists_elsq_csb(void)
{
    uint32_t rcs = INTEL_RCS0_BASE;
    uint64_t msi;
    Buf hwsp, data;
    Ctx ctx;
    Gpu g;

    gpu_start(&g);
    msi = msi_to_ram(&g);
    irq_postinstall(&g);
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

/* A 4-level PPGTT with one page table: the 2 MiB around one address. */
typedef struct Ppgtt {
    uint64_t table[4];      /* PML4, PDP, PD, PT */
    uint64_t va;            /* what the PT maps */
} Ppgtt;

#define PPGTT_PRESENT_RW    3u

static void ppgtt_init(Gpu *g, Ppgtt *p, uint64_t va)
{
    p->va = va & ~((1ull << 21) - 1);
    for (int l = 0; l < 4; l++) {
        p->table[l] = buf_ram(g, 1).phys;
    }
    for (int l = 0; l < 3; l++) {
        qtest_writeq(g->qts, p->table[l] + ((va >> (39 - 9 * l)) & 511) * 8,
                     p->table[l + 1] | PPGTT_PRESENT_RW);
    }
}

static void ppgtt_map(Gpu *g, Ppgtt *p, uint64_t va, uint64_t phys)
{
    g_assert_cmphex(va & ~((1ull << 21) - 1), ==, p->va);
    qtest_writeq(g->qts, p->table[3] + ((va >> 12) & 511) * 8,
                 phys | PPGTT_PRESENT_RW);
}

/* PML4, PDP, PD and PT index 1, 2, 3, 4. */
#define BATCH_VA    (1ull << 39 | 2ull << 30 | 3ull << 21 | 4ull << 12)

/* A PPGTT with a batch page at BATCH_VA and a target page after it. */
static void ppgtt_batch_init(Gpu *g, Ppgtt *pp, Buf *batch, Buf *target)
{
    *batch = buf_ram(g, 1);
    *target = buf_ram(g, 1);
    ppgtt_init(g, pp, BATCH_VA);
    ppgtt_map(g, pp, BATCH_VA, batch->phys);
    ppgtt_map(g, pp, BATCH_VA + 0x1000, target->phys);
}

/* Context @ctx on @pml4 whose ring starts a PPGTT batch at @va. */
static void ctx_init_ppgtt_start(Gpu *g, Ctx *ctx, uint32_t base,
                                 uint64_t pml4, uint64_t va)
{
    ctx_init(g, ctx, base, pml4);
    EMIT(g, &ctx->ring, MI_ARB_ON_OFF_ENABLE,
         MI_BATCH_BUFFER_START | MI_BB_PPGTT, (uint32_t)va, va >> 32);
}

/* A context on @pp whose ring starts the batch at BATCH_VA. */
static void ctx_init_batch(Gpu *g, Ctx *ctx, uint32_t base, Ppgtt *pp)
{
    ctx_init_ppgtt_start(g, ctx, base, pp->table[0], BATCH_VA);
}

static void test_cs_ppgtt_batch(void)
{
    const uint64_t batch_va = BATCH_VA;
    uint32_t rcs = INTEL_RCS0_BASE;
    Buf hwsp, batch, target;
    Ppgtt pp;
    Ctx ctx;
    Gpu g;

    gpu_start(&g);
    ppgtt_batch_init(&g, &pp, &batch, &target);
    emit_store(&g, &batch, 0, batch_va + 0x1080, 0x99990001);
    EMIT(&g, &batch, MI_BATCH_BUFFER_END);

    hwsp = execlists_enable(&g, rcs);
    ctx_init_batch(&g, &ctx, rcs, &pp);
    ctx_submit(&g, rcs, &ctx, CCID(1));
    cs_settle(&g);

    g_assert_cmphex(qtest_readl(g.qts, target.phys + 0x80), ==, 0x99990001);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
    EXPECT_CSB(&g, rcs, &hwsp, 0, INTEL_CSB_IDLE_ACTIVE,
               INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
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
    EMIT(&g, &a.ring, MI_ARB_ON_OFF_ENABLE);
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
 * OA enabled without the timer: each render context switched in writes a
 * report with reason "context switch" (RPT_ID bit 22), context valid
 * (bit 16) and the context ID i915 reads back (report dword 2): the
 * descriptor's upper dword, i915's CCID.
 */
static void test_oa_context_switch_report(void)
{
    const uint32_t rcs = INTEL_RCS0_BASE, oa_gtt = OA_GTT;
    Buf oabuf, data;
    Ctx a, b;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_buffer_init(&g);
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);
    execlists_enable(&g, rcs);
    data = buf_new(&g, 1);
    ctx_init(&g, &a, rcs, 0);
    emit_store(&g, &a.ring, MI_USE_GGTT, data.gtt, 0xa1);
    ctx_init(&g, &b, rcs, 0);
    emit_store(&g, &b.ring, MI_USE_GGTT, data.gtt + 4, 0xb1);

    ctx_submit(&g, rcs, &a, CCID(7));
    cs_settle(&g);
    ctx_submit(&g, rcs, &b, CCID(9));
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 4), ==, 0xb1);

    g_assert_cmphex(rd(&g, INTEL_OATAILPTR), ==, oa_gtt + 2 * 256);
    for (unsigned i = 0; i < 2; i++) {
        uint32_t rpt = buf_readl(&g, &oabuf, i * 256);

        g_assert_cmphex(rpt >> 19 & 0x3f, ==, 1u << 3);
        g_assert_true(rpt & (1u << 16));
        g_assert_cmphex(buf_readl(&g, &oabuf, i * 256 + 8), ==,
                        i ? CCID(9) : CCID(7));
    }
    /* TIMESTAMP (dword 1) moves on between the two switches. */
    g_assert_cmpuint(buf_readl(&g, &oabuf, 256 + 4), >,
                     buf_readl(&g, &oabuf, 4));
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
    if (migrate) {
        gpu_migrate(&g, GPU_ARGS);
    } else {
        qtest_clock_step(g.qts, 1);     /* as gpu_migrate() does */
    }
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


/* ---- resets during DMA-heavy work ---- */

#define HEAVY_STORES    4096
#define HEAVY_DATA_PAGES (HEAVY_STORES * 4 / INTEL_GGTT_PAGE_SIZE)

/* How many of the heavy batch's stores have landed. */
static unsigned heavy_count(Gpu *g, const Buf *data)
{
    g_autofree uint32_t *v = g_new(uint32_t, HEAVY_STORES);
    unsigned n = 0;

    qtest_memread(g->qts, data->phys, v, HEAVY_STORES * 4);
    for (unsigned i = 0; i < HEAVY_STORES; i++) {
        if (GUINT32_FROM_LE(v[i]) == i + 1) {
            n++;
        } else {
            g_assert_cmphex(v[i], ==, 0);
        }
    }
    return n;
}

/*
 * rcs0 in a legacy ring runs a batch of HEAVY_STORES MI_STORE_DATA_IMM
 * (store i writes i + 1 to dword i, several slices of work) and then a
 * user interrupt; returns once part of it has landed.
 */
static Buf heavy_start(Gpu *g)
{
    g_autofree uint32_t *bb = g_new(uint32_t, HEAVY_STORES * 4 + 2);
    Buf ring = buf_new(g, 1);
    Buf data = buf_new(g, HEAVY_DATA_PAGES);
    Buf batch = buf_new(g, HEAVY_STORES * 16 / INTEL_GGTT_PAGE_SIZE + 1);
    unsigned n = 0;

    for (unsigned i = 0; i < HEAVY_STORES; i++) {
        bb[4 * i] = GUINT32_TO_LE(MI_STORE_DATA_IMM | MI_USE_GGTT);
        bb[4 * i + 1] = GUINT32_TO_LE(data.gtt + 4 * i);
        bb[4 * i + 2] = 0;
        bb[4 * i + 3] = GUINT32_TO_LE(i + 1);
    }
    bb[4 * HEAVY_STORES] = GUINT32_TO_LE(MI_BATCH_BUFFER_END);
    bb[4 * HEAVY_STORES + 1] = 0;
    qtest_memwrite(g->qts, batch.phys, bb, (HEAVY_STORES * 4 + 2) * 4);
    EMIT(g, &ring, MI_BATCH_BUFFER_START, batch.gtt, 0, MI_USER_INTERRUPT);
    ring_submit(g, INTEL_RCS0_BASE, &ring);
    for (int i = 0; i < 100 && !n; i++) {
        qtest_clock_step(g->qts, 10000);
        n = heavy_count(g, &data);
    }
    g_assert_cmpuint(n, >, 0);
    g_assert_cmpuint(n, <, HEAVY_STORES);
    return data;
}

typedef enum ResetKind {
    RESET_SYSTEM,           /* qtest system_reset */
    RESET_FLR,              /* PCI Express function level reset */
    RESET_GDRST,            /* GDRST full GT reset */
} ResetKind;

/*
 * A reset while the heavy batch runs, with a delayed interrupt (the
 * interrupt drill) pending for the device resets: once the driver has
 * set up MSI and the interrupt tree again, nothing more lands in memory
 * and no MSI arrives, with virtual time stepped far past where the rest
 * would have run; rcs0's registers are back to their defaults (and for
 * the device resets the register file and GGTT too); a new request then
 * stores its value and interrupts.
 */
static void test_reset_during_dma(const void *opaque)
{
    ResetKind kind = GPOINTER_TO_INT(opaque);
    uint32_t rcs = INTEL_RCS0_BASE;
    uint64_t msi, msi2;
    unsigned n;
    Buf data, ring, out;
    Gpu g;

    gpu_start(&g);
    msi = msi_to_ram(&g);
    irq_postinstall(&g);
    wr(&g, INTEL_PAT_INDEX(2), 0x3);
    data = heavy_start(&g);
    if (kind != RESET_GDRST) {
        qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-irq', 'arguments': "
               "{'id': 'gpu', 'engine-class': 0, 'instance': 0, "
               "'count': 1, 'delay-ns': 5000000}}");
        inject(&g, 0, 0, INTEL_GT_RENDER_USER_INTERRUPT);
    }
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);

    switch (kind) {
    case RESET_SYSTEM:
        qtest_system_reset(g.qts);
        gpu_map(&g);
        break;
    case RESET_FLR:
        g_assert_cmphex(qpci_config_readl(g.dev, INTEL_PCI_PCIE_CAP +
                                          PCI_EXP_DEVCAP) &
                        PCI_EXP_DEVCAP_FLR, ==, PCI_EXP_DEVCAP_FLR);
        qpci_config_writew(g.dev, INTEL_PCI_PCIE_CAP + PCI_EXP_DEVCTL,
                           qpci_config_readw(g.dev, INTEL_PCI_PCIE_CAP +
                                             PCI_EXP_DEVCTL) |
                           PCI_EXP_DEVCTL_BCR_FLR);
        g_assert_cmphex(qpci_config_readw(g.dev, PCI_COMMAND) &
                        PCI_COMMAND_MASTER, ==, 0);
        gpu_map(&g);
        break;
    case RESET_GDRST:
        wr(&g, INTEL_GDRST, INTEL_GRDOM_FULL);
        g_assert_cmphex(rd(&g, INTEL_GDRST), ==, 0);
        break;
    }
    n = heavy_count(&g, &data);
    msi2 = msi_to_ram(&g);
    irq_postinstall(&g);
    qtest_clock_step(g.qts, 100 * CS_SETTLE_NS);
    g_assert_cmpuint(heavy_count(&g, &data), ==, n);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);
    g_assert_cmphex(qtest_readl(g.qts, msi2), ==, 0);
    g_assert_cmphex(rd(&g, INTEL_GT_INTR_DW(0)), ==, 0);

    g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_TAIL), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_START), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_CTL), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_BBADDR), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
    g_assert_true(engine_idle(&g, rcs));
    if (kind != RESET_GDRST) {
        g_assert_cmphex(rd(&g, INTEL_PAT_INDEX(2)), ==, 0);
        g_assert_cmphex(qpci_io_readq(g.dev, g.bar[0], INTEL_GSM_OFFSET +
                                      (data.gtt / INTEL_GGTT_PAGE_SIZE) * 8),
                        ==, 0);
    }

    ring = buf_new(&g, 1);
    out = buf_new(&g, 1);
    emit_store(&g, &ring, MI_USE_GGTT, out.gtt, 0x600d0001);
    EMIT(&g, &ring, MI_USER_INTERRUPT);
    ring_submit(&g, rcs, &ring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &out, 0), ==, 0x600d0001);
    assert_ring_idle(&g, rcs);
    expect_msi(&g, msi2, 0, INTEL_GT_RENDER_USER_INTERRUPT);
    g_assert_cmpuint(heavy_count(&g, &data), ==, n);
    gpu_stop(&g);
}

/* A counter @i of a 256-byte A32u40_A4u32_B8_C8 report (low dword). */
static uint32_t report_a(Gpu *g, Buf *b, uint32_t at, unsigned i)
{
    return buf_readl(g, b, at + 16 + 4 * i);
}

/*
 * Flexible EU counters, programmed from the ring as i915's OA config
 * batch does (MI_LOAD_REGISTER_IMM of EU_PERF_CNT_CTL0/1): a GPGPU_WALKER
 * of 262144 threads keeps the 64 EUs busy 262144 GT clocks (262 us at the
 * GT's 1 GHz).  Periodic reports meanwhile see "some pipe active" (A7)
 * at 48 of 64 EUs a clock and GT busy (A0) at every clock; a snapshot
 * after the work holds each event's share of the 64-clock kernel: A7
 * 48, A8 (stall) 16, A9 (FPU0 of GPGPU threads) 32, A10 (FPU0 of vertex
 * threads) 0 clocks a thread.
 */
static void test_oa_flex_eu_counters(void)
{
    const uint32_t rcs = INTEL_RCS0_BASE, oa_gtt = OA_GTT, threads = 262144;
    Buf oabuf, ring, snap;
    uint32_t n, inside = 0;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_buffer_init(&g);
    wr(&g, INTEL_OACTXCONTROL, 7 << 2 | 2 | 1);         /* 21.3 us */
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);
    ring = buf_new(&g, 1);
    snap = buf_new(&g, 1);
    EMIT(&g, &ring, MI_LRI(2), INTEL_EU_PERF_CNTL0, 0x00005004,
         INTEL_EU_PERF_CNTL0 + 0x100, 0x00010060);
    EMIT(&g, &ring, MI_REPORT_PERF_COUNT, snap.gtt | 1, 0, 1);
    EMIT(&g, &ring, 0x69040302);                        /* PIPELINE_SELECT */
    EMIT(&g, &ring, 0x7105000d, 0, 0, 0, 63, 0, 0, 64, 0, 0, 64, 0, 1,
         ~0u, ~0u);                                     /* GPGPU_WALKER */
    ring_submit(&g, rcs, &ring);
    qtest_clock_step(g.qts, 1000);
    /* The next submission runs after the walker's EU work is done. */
    EMIT(&g, &ring, MI_REPORT_PERF_COUNT, (snap.gtt + 256) | 1, 0, 2);
    wr(&g, rcs + INTEL_RING_TAIL, ring_tail(&g, &ring));
    cs_settle(&g);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);

    g_assert_cmpuint(report_a(&g, &snap, 256, 4) - report_a(&g, &snap, 0, 4),
                     ==, threads);
    g_assert_cmpuint(report_a(&g, &snap, 256, 7) - report_a(&g, &snap, 0, 7),
                     ==, threads * 48);
    g_assert_cmpuint(report_a(&g, &snap, 256, 8) - report_a(&g, &snap, 0, 8),
                     ==, threads * 16);
    g_assert_cmpuint(report_a(&g, &snap, 256, 9) - report_a(&g, &snap, 0, 9),
                     ==, threads * 32);
    g_assert_cmpuint(report_a(&g, &snap, 256, 10), ==, 0);
    g_assert_cmpuint(report_a(&g, &snap, 256, 0) - report_a(&g, &snap, 0, 0),
                     >=, threads);

    n = (rd(&g, INTEL_OATAILPTR) - oa_gtt) / 256;
    for (uint32_t i = 0; i + 1 < n; i++) {
        uint32_t r = i * 256;
        uint32_t clocks = buf_readl(&g, &oabuf, r + 256 + 12) -
                          buf_readl(&g, &oabuf, r + 12);
        uint32_t active = report_a(&g, &oabuf, r + 256, 7) -
                          report_a(&g, &oabuf, r, 7);
        uint32_t busy = report_a(&g, &oabuf, r + 256, 0) -
                        report_a(&g, &oabuf, r, 0);

        g_assert_cmpuint(active, <=, 48 * clocks + 48);
        /*
         * A period wholly in the walker's time; the slice's few other
         * commands share that time, so a little under 48 a clock.
         */
        if (busy >= clocks - 1) {
            g_assert_cmpuint(active, >=, 47 * clocks);
            inside++;
        }
    }
    g_assert_cmpuint(inside, >=, 10);
    gpu_stop(&g);
}

/* ---- OA fault drills and the GT frequency ---- */

/* OA on at exponent 10 (170.7 us) in the A32u40_A4u32_B8_C8 format. */
static Buf oa_start(Gpu *g)
{
    Buf b = oa_buffer_init(g);

    wr(g, INTEL_OACTXCONTROL, 10 << 2 | 2 | 1);
    wr(g, INTEL_OACONTROL, 5 << 2 | 1);
    return b;
}

/* How many timer periods apart reports @i and @i + 1 are. */
static uint32_t oa_periods_between(Gpu *g, Buf *oabuf, unsigned i)
{
    return (buf_readl(g, oabuf, (i + 1) * 256 + 4) -
            buf_readl(g, oabuf, i * 256 + 4)) / (2u << 10);
}

/*
 * x-intel-gpu-drill-oa-tail-stall: OATAILPTR holds while reports land in
 * the buffer, across a migration; after the duration it publishes them
 * all, one period apart with none lost.  Ended early by stall=false.
 */
static void test_oa_drill_tail_stall(void)
{
    uint32_t tail0, n;
    Buf oabuf;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_start(&g);
    qtest_clock_step(g.qts, 2 * 1000 * 1000);
    tail0 = rd(&g, INTEL_OATAILPTR);
    qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-oa-tail-stall', "
           "'arguments': {'id': 'gpu', 'stall': true, "
           "'duration-ns': 5000000}}");
    qtest_clock_step(g.qts, 4 * 1000 * 1000);
    g_assert_cmphex(rd(&g, INTEL_OATAILPTR), ==, tail0);
    g_assert_cmphex(buf_readl(&g, &oabuf, tail0 - OA_GTT) >> 19, ==, 1);
    /* The stall is part of the migration state. */
    gpu_migrate(&g, GPU_ARGS);
    g_assert_cmphex(rd(&g, INTEL_OATAILPTR), ==, tail0);
    qtest_clock_step(g.qts, 2 * 1000 * 1000);
    n = (rd(&g, INTEL_OATAILPTR) - OA_GTT) / 256;
    g_assert_cmpuint(n, >=, (tail0 - OA_GTT) / 256 + 4000 / 171);
    for (unsigned i = 0; i + 1 < n; i++) {
        g_assert_cmpuint(oa_periods_between(&g, &oabuf, i), ==, 1);
    }
    g_assert_cmphex(rd(&g, INTEL_OASTATUS), ==, 0);

    qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-oa-tail-stall', "
           "'arguments': {'id': 'gpu', 'stall': true}}");
    tail0 = rd(&g, INTEL_OATAILPTR);
    qtest_clock_step(g.qts, 3 * 1000 * 1000);
    g_assert_cmphex(rd(&g, INTEL_OATAILPTR), ==, tail0);
    qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-oa-tail-stall', "
           "'arguments': {'id': 'gpu', 'stall': false}}");
    g_assert_cmpuint(rd(&g, INTEL_OATAILPTR), >=, tail0 + 15 * 256);
    qmp_refused(&g, "{'execute': 'x-intel-gpu-drill-oa-tail-stall', "
                "'arguments': {'id': 'nothing', 'stall': true}}");
    gpu_stop(&g);
}

/*
 * x-intel-gpu-drill-oa-overflow: the next report is dropped with
 * OASTATUS buffer overflow, as for a full buffer; i915's restart (clear
 * the status, re-init the buffer) gets a normal stream again.
 */
static void test_oa_drill_overflow(void)
{
    uint32_t n, gaps = 0;
    Buf oabuf;
    Gpu g;

    gpu_start(&g);
    oabuf = oa_start(&g);
    qtest_clock_step(g.qts, 2 * 1000 * 1000);
    qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-oa-overflow', "
           "'arguments': {'id': 'gpu'}}");
    qtest_clock_step(g.qts, 2 * 1000 * 1000);
    g_assert_cmphex(rd(&g, INTEL_OASTATUS), ==,
                    INTEL_OASTATUS_BUFFER_OVERFLOW);
    n = (rd(&g, INTEL_OATAILPTR) - OA_GTT) / 256;
    for (unsigned i = 0; i + 1 < n; i++) {
        uint32_t d = oa_periods_between(&g, &oabuf, i);

        g_assert_true(d == 1 || d == 2);
        gaps += d == 2;
    }
    g_assert_cmpuint(gaps, ==, 1);

    /* gen8_oa_read's restart: OA off, buffer re-initialised, OA on. */
    wr(&g, INTEL_OACONTROL, 0);
    oabuf = oa_buffer_init(&g);
    wr(&g, INTEL_OACONTROL, 5 << 2 | 1);
    qtest_clock_step(g.qts, 2 * 1000 * 1000);
    g_assert_cmphex(rd(&g, INTEL_OASTATUS), ==, 0);
    n = (rd(&g, INTEL_OATAILPTR) - OA_GTT) / 256;
    g_assert_cmpuint(n, >=, 10);
    for (unsigned i = 0; i + 1 < n; i++) {
        g_assert_cmpuint(oa_periods_between(&g, &oabuf, i), ==, 1);
    }
    gpu_stop(&g);
}

/*
 * RPNSWREQ changes the GT frequency (RPSTAT1 reads it back): a report
 * with reason bit 5 is written and GPU ticks then advance at 550 MHz.
 */
static void test_oa_frequency_change(void)
{
    uint32_t n, k;
    Buf oabuf;
    Gpu g;

    gpu_start(&g);
    g_assert_cmphex(rd(&g, INTEL_RPSTAT1), ==, 60u << 23);
    oabuf = oa_start(&g);
    qtest_clock_step(g.qts, 1000 * 1000);
    wr(&g, INTEL_RPNSWREQ, 33u << 23);
    g_assert_cmphex(rd(&g, INTEL_RPSTAT1), ==, 33u << 23);
    k = (rd(&g, INTEL_OATAILPTR) - OA_GTT) / 256 - 1;
    g_assert_cmphex(buf_readl(&g, &oabuf, k * 256) >> 19 & 0x3f, ==, 1u << 5);
    qtest_clock_step(g.qts, 2 * 1000 * 1000);
    n = (rd(&g, INTEL_OATAILPTR) - OA_GTT) / 256;
    g_assert_cmpuint(n, >=, k + 10);
    for (unsigned i = k + 1; i + 1 < n; i++) {
        uint32_t d = buf_readl(&g, &oabuf, (i + 1) * 256 + 12) -
                     buf_readl(&g, &oabuf, i * 256 + 12);

        /* 170667 ns at 550 MHz */
        g_assert_cmpuint(d, >=, 93865);
        g_assert_cmpuint(d, <=, 93868);
    }
    gpu_stop(&g);
}

/* ---- hostile guests: every loop the guest controls is bounded ---- */

/*
 * Each test sets up a loop that never ends by itself and steps a long
 * stretch of virtual time (HOSTILE_STEPS of HOSTILE_STEP_NS) in which
 * registers must answer with the state the model defines for it.  The
 * test finishing at all is the evidence that the loop costs bounded host
 * work per step.
 */
#define HOSTILE_STEPS       6
#define HOSTILE_STEP_NS     (5 * CS_SETTLE_NS)
#define MI_BB_SECOND_LEVEL  (1u << 22)

static bool in_buf(uint32_t addr, const Buf *b)
{
    return addr >= b->gtt && addr < b->gtt + b->len;
}

/*
 * What i915 does with a runaway engine: STOP_RING idles it where it is
 * (time no longer moves ACTHD), a GDRST engine reset clears it, and a new
 * request in a legacy ring then runs.
 */
static void hostile_stop_and_run(Gpu *g, uint32_t base, uint32_t grdom)
{
    uint32_t acthd;
    Buf ring, data;

    wr(g, base + INTEL_RING_MI_MODE, 0x01000100);       /* STOP_RING */
    g_assert_true(engine_idle(g, base));
    acthd = rd(g, base + INTEL_RING_ACTHD);
    cs_settle(g);
    g_assert_cmphex(rd(g, base + INTEL_RING_ACTHD), ==, acthd);

    wr(g, INTEL_GDRST, grdom);
    g_assert_cmphex(rd(g, INTEL_GDRST), ==, 0);
    g_assert_cmphex(rd(g, base + INTEL_RING_BB_STATE), ==, 0);
    g_assert_cmphex(rd(g, base + INTEL_RING_ESR), ==, 0);
    ring = buf_new(g, 1);
    data = buf_new(g, 1);
    emit_store(g, &ring, MI_USE_GGTT, data.gtt, 0x600d0001);
    ring_submit(g, base, &ring);
    cs_settle(g);
    g_assert_cmphex(buf_readl(g, &data, 0), ==, 0x600d0001);
    assert_ring_idle(g, base);
}

/*
 * Chained batch starts that never end, from a legacy ring.  First level:
 * A chains to B, B to A; the engine stays busy with ACTHD and BBADDR (the
 * first-level position) in A or B.  Second level: A calls B as a second
 * level batch, B chains to C and C to B; BBADDR stays just past A's call
 * while ACTHD and SBB_ADDR move within B and C.
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
    EMIT(&g, &ring, MI_BATCH_BUFFER_START, a.gtt, 0);
    if (second) {
        EMIT(&g, &a, MI_BATCH_BUFFER_START | MI_BB_SECOND_LEVEL, b.gtt, 0);
        EMIT(&g, &b, MI_NOOP, MI_BATCH_BUFFER_START, c.gtt, 0);
        EMIT(&g, &c, MI_NOOP, MI_NOOP, MI_BATCH_BUFFER_START, b.gtt, 0);
    } else {
        EMIT(&g, &a, MI_NOOP, MI_BATCH_BUFFER_START, b.gtt, 0);
        EMIT(&g, &b, MI_BATCH_BUFFER_START, a.gtt, 0);
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
    hostile_stop_and_run(&g, rcs, INTEL_GRDOM_RENDER);
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
    qtest_writel(g.qts, pml4 + 0x800, MI_BATCH_BUFFER_START | MI_BB_PPGTT);
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
    hostile_stop_and_run(&g, rcs, INTEL_GRDOM_RENDER);
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
    EMIT(&g, &batch, MI_BATCH_BUFFER_START | MI_BB_PPGTT, (uint32_t)bad_va,
         bad_va >> 32);
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
    hostile_stop_and_run(&g, rcs, INTEL_GRDOM_RENDER);
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
    hostile_stop_and_run(&g, rcs, INTEL_GRDOM_RENDER);
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

    for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
        g_autofree char *cmd = g_strdup_printf(
            "%s -machine q35 -nodefaults -display none -S "
            "-device intel-gpu,%s", getenv("QTEST_QEMU_BINARY"),
            cases[i][0]);
        g_autofree char *err = NULL;
        int status;

        g_assert_true(g_spawn_command_line_sync(cmd, NULL, &err, &status,
                                                NULL));
        g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) != 0);
        g_assert_nonnull(strstr(err, cases[i][1]));
    }
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
    qtest_add_func("/intel-gpu/irq/msi", test_irq_msi);
    qtest_add_func("/intel-gpu/irq/msi-mask-pending",
                   test_irq_msi_mask_pending);
    qtest_add_func("/intel-gpu/irq/intx", test_irq_intx);
    qtest_add_func("/intel-gpu/irq/drill", test_irq_drill);
    qtest_add_func("/intel-gpu/cs/ring-store-irq", test_cs_ring_store_irq);
    qtest_add_func("/intel-gpu/rc6/residency", test_rc6_residency);
    qtest_add_func("/intel-gpu/cs/ppgtt-batch", test_cs_ppgtt_batch);
    qtest_add_func("/intel-gpu/cs/blit", test_cs_blit);
    qtest_add_func("/intel-gpu/cs/tiled-fence-blit", test_tiled_fence_blit);
    qtest_add_func("/intel-gpu/cs/self-loop", test_cs_self_loop);
    qtest_add_func("/intel-gpu/cs/invalid-opcode", test_cs_invalid_opcode);
    qtest_add_func("/intel-gpu/cs/drill-hang", test_drill_hang);
    qtest_add_func("/intel-gpu/cs/drill-dma", test_drill_dma);
    qtest_add_func("/intel-gpu/oa/periodic-and-snapshot",
                   test_oa_periodic_and_snapshot);
    qtest_add_func("/intel-gpu/oa/test-oa-config", test_oa_test_oa_config);
    qtest_add_func("/intel-gpu/execlists/elsq-csb", test_execlists_elsq_csb);
    qtest_add_func("/intel-gpu/execlists/preempt", test_execlists_preempt);
    qtest_add_func("/intel-gpu/oa/flex-eu-counters", test_oa_flex_eu_counters);
    qtest_add_func("/intel-gpu/oa/context-switch-report",
                   test_oa_context_switch_report);
    qtest_add_func("/intel-gpu/migrate/workload", test_migrate_workload);
    qtest_add_func("/intel-gpu/execlists/drill-csb", test_drill_csb);
    qtest_add_data_func("/intel-gpu/reset/system-during-dma",
                        GINT_TO_POINTER(RESET_SYSTEM), test_reset_during_dma);
    qtest_add_data_func("/intel-gpu/reset/flr-during-dma",
                        GINT_TO_POINTER(RESET_FLR), test_reset_during_dma);
    qtest_add_data_func("/intel-gpu/reset/gdrst-during-dma",
                        GINT_TO_POINTER(RESET_GDRST), test_reset_during_dma);
    qtest_add_func("/intel-gpu/oa/drill-tail-stall", test_oa_drill_tail_stall);
    qtest_add_func("/intel-gpu/oa/drill-overflow", test_oa_drill_overflow);
    qtest_add_func("/intel-gpu/oa/frequency-change",
                   test_oa_frequency_change);
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
