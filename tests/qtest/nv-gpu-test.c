/*
 * qtest for nv-gpu: PCI identity, BARs and capabilities, properties,
 * PTIMER, interrupts and reset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "nv-gpu-qtest.h"

#define PM_CAP      0x60
#define MSI_CAP     0x68
#define PCIE_CAP    0x78

static void test_identity(void)
{
    static const struct {
        const char *arg;
        uint16_t did;
        uint32_t boot0;
    } cases[] = {
        { "", 0x0402, 0x084000a2 },
        { ",chipset=g84", 0x0402, 0x084000a2 },
        { ",chipset=g86", 0x0422, 0x086000a2 },
        { ",chipset=g92", 0x0611, 0x092000a2 },
        { ",chipset=gt215", 0x0ca3, 0x0a3000a2 },
    };
    Gpu g;

    for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
        gpu_start_args(&g, cases[i].arg);
        g_assert_cmphex(qpci_config_readw(g.dev, PCI_VENDOR_ID), ==, 0x10de);
        g_assert_cmphex(qpci_config_readw(g.dev, PCI_DEVICE_ID), ==,
                        cases[i].did);
        g_assert_cmphex(qpci_config_readl(g.dev, PCI_CLASS_REVISION) >> 8,
                        ==, 0x030000);
        g_assert_cmphex(qpci_config_readw(g.dev, PCI_SUBSYSTEM_VENDOR_ID), ==,
                        0x10de);
        g_assert_cmphex(qpci_config_readb(g.dev, PCI_INTERRUPT_PIN), ==, 1);
        /* BOOT_0 names the chipset in bits 28:20, as nouveau decodes it. */
        g_assert_cmphex(rd(&g, NV_PMC_BOOT_0), ==, cases[i].boot0);
        g_assert_cmphex((rd(&g, NV_PMC_BOOT_0) >> 20) & 0x1ff, ==,
                        cases[i].boot0 >> 20);
        g_assert_cmphex(rd(&g, NV_PMC_BOOT_1), ==, 0);
        gpu_stop(&g);
    }
}

static void test_bars(void)
{
    uint32_t type;
    Gpu g;

    gpu_start(&g);
    /*
     * Out of reset BAR1 and BAR3 are linear windows onto VRAM, which the
     * PRAMIN window (BAR0 0x700000, base in PBUS 0x1700) also reaches.
     */
    qpci_io_writel(g.dev, g.bar[1], 0x1000, 0x12345678);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[1], 0x1000), ==, 0x12345678);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[3], 0x1000), ==, 0x12345678);
    g_assert_cmphex(rd(&g, NV_PMEM_BASE + 0x1000), ==, 0x12345678);
    wr(&g, NV_PBUS_PMEM, 0x10);
    wr(&g, NV_PMEM_BASE + 0x20, 0x9abcdef0);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[3], 0x100020), ==, 0x9abcdef0);
    /* the VBIOS in PROM; straps and VRAM size as nouveau reads them */
    g_assert_cmphex(rd(&g, NV_PROM_BASE) & 0xffff, ==, 0xaa55);
    g_assert_cmphex(rd(&g, NV_PSTRAPS) & 0x00400040, ==, 0x00400000);
    g_assert_cmphex(rd(&g, NV_PFB_MEM_AMOUNT), ==, 256 << 20);

    g_assert_cmphex(bar_probe(&g, 0, &type), ==, 16 << 20);
    g_assert_cmphex(type, ==, PCI_BASE_ADDRESS_MEM_TYPE_32);
    g_assert_cmphex(bar_probe(&g, 1, &type), ==, 256 << 20);
    g_assert_cmphex(type, ==, PCI_BASE_ADDRESS_MEM_TYPE_64 |
                              PCI_BASE_ADDRESS_MEM_PREFETCH);
    g_assert_cmphex(bar_probe(&g, 3, &type), ==, 32 << 20);
    g_assert_cmphex(type, ==, PCI_BASE_ADDRESS_MEM_TYPE_64 |
                              PCI_BASE_ADDRESS_MEM_PREFETCH);
    gpu_stop(&g);
}

static void test_capabilities(void)
{
    static const uint8_t chain[][2] = {
        { PM_CAP, PCI_CAP_ID_PM },
        { MSI_CAP, PCI_CAP_ID_MSI },
        { PCIE_CAP, PCI_CAP_ID_EXP },
    };
    uint16_t mc;
    Gpu g;

    gpu_start(&g);
    gpu_assert_cap_chain(&g, chain, ARRAY_SIZE(chain));

    /* MSI: one vector, 64-bit address, no per-vector mask, disabled. */
    mc = qpci_config_readw(g.dev, MSI_CAP + PCI_MSI_FLAGS);
    g_assert_cmphex(mc & PCI_MSI_FLAGS_QMASK, ==, 0);
    g_assert_cmphex(mc & PCI_MSI_FLAGS_64BIT, ==, PCI_MSI_FLAGS_64BIT);
    g_assert_cmphex(mc & PCI_MSI_FLAGS_MASKBIT, ==, 0);
    g_assert_cmphex(mc & PCI_MSI_FLAGS_ENABLE, ==, 0);
    gpu_stop(&g);
}

/* Bad properties stop QEMU with a message naming the problem. */
static void test_bad_properties(void)
{
    static const char *const cases[][2] = {
        { "chipset=nv50", "chipset=nv50" },
        { "dom3-hz=20000000000", "at most 10 GHz" },
        { "ptimer-src-hz=20000000000", "PTIMER source clock" },
        { "vram-size=48M", "power of two" },
        { "synth=0.0=3/1", "synth" },
        { "synth=8.0=4/1", "synth" },
        { "synth=0.0=4/5", "synth" },
    };

    gpu_assert_bad_properties("nv-gpu", cases, ARRAY_SIZE(cases));
}

/* The synth property reads back the model's settings in canonical form. */
static void test_synth_property(void)
{
    QDict *resp;
    Gpu g;

    /* Quoted: QEMU is started through the shell. */
    gpu_start_args(&g, ",synth='1.2=0x100/3;3.0=16/16/5'");
    resp = qtest_qmp(g.qts, "{'execute': 'qom-get', 'arguments': "
                     "{'path': '" GPU_PATH "', 'property': 'synth'}}");
    g_assert_cmpstr(qdict_get_str(resp, "return"), ==,
                    "1.2=256/3 3.0=16/16/5");
    qobject_unref(resp);

    set_synth(&g, "*.7=2/1");
    resp = qtest_qmp(g.qts, "{'execute': 'qom-get', 'arguments': "
                     "{'path': '" GPU_PATH "', 'property': 'synth'}}");
    g_assert_cmpstr(qdict_get_str(resp, "return"), ==,
                    "0.7=2/1 1.7=2/1 2.7=2/1 3.7=2/1 4.7=2/1 5.7=2/1 "
                    "6.7=2/1 7.7=2/1");
    qobject_unref(resp);

    resp = qtest_qmp(g.qts, "{'execute': 'qom-set', 'arguments': "
                     "{'path': '" GPU_PATH "', 'property': 'synth', "
                     "'value': '0.0=7/1'}}");
    g_assert_true(qdict_haskey(resp, "error"));
    qobject_unref(resp);
    gpu_stop(&g);
}

static uint64_t ptimer(Gpu *g)
{
    uint32_t hi, lo;

    /* nouveau's read: HIGH, LOW, HIGH again until stable. */
    do {
        hi = rd(g, NV_PTIMER_TIME_HIGH);
        lo = rd(g, NV_PTIMER_TIME_LOW);
    } while (hi != rd(g, NV_PTIMER_TIME_HIGH));
    return (uint64_t)hi << 32 | lo;
}

static void test_ptimer(void)
{
    uint64_t t0;
    Gpu g;

    gpu_start(&g);
    /*
     * Reset: nouveau's nv41_timer_init values for the 27 MHz crystal
     * (x3, x 125/324, 32 units a tick): nanoseconds.
     */
    g_assert_cmpuint(rd(&g, NV_PTIMER_CLOCK_SOURCE), ==, 2);
    g_assert_cmpuint(rd(&g, NV_PTIMER_NUMERATOR), ==, 324);
    g_assert_cmpuint(rd(&g, NV_PTIMER_DENOMINATOR), ==, 125);
    t0 = ptimer(&g);
    gpu_step(&g, 1000000);
    g_assert_cmpuint(ptimer(&g) - t0, ==, 1000000);

    /* Twice CLOCK_MUL (0x9210): twice as fast from now on. */
    wr(&g, NV_PTIMER_DENOMINATOR, 250);
    t0 = ptimer(&g);
    gpu_step(&g, 27000);
    g_assert_cmpuint(ptimer(&g) - t0, ==, 54000);

    /* TIME_HIGH is latched, TIME_LOW sets both. */
    wr(&g, NV_PTIMER_TIME_HIGH, 5);
    wr(&g, NV_PTIMER_TIME_LOW, 0x100);
    g_assert_cmpuint(ptimer(&g), ==, (5ull << 32) | 0x100);
    gpu_step(&g, 27);
    g_assert_cmpuint(ptimer(&g), ==, (5ull << 32) | (0x100 + 54));
    gpu_stop(&g);
}

static void test_irq_intx(void)
{
    Gpu g;

    gpu_start(&g);
    alarm_in(&g, 5000);
    gpu_step(&g, 4999);
    g_assert_false(gpu_intx_asserted(&g));
    g_assert_cmphex(rd(&g, NV_PMC_INTR), ==, 0);
    gpu_step(&g, 1);
    g_assert_true(gpu_intx_asserted(&g));
    g_assert_cmphex(rd(&g, NV_PMC_INTR), ==, NV_PMC_INTR_PTIMER);

    /* The PMC master enable gates the line, not the source. */
    wr(&g, NV_PMC_INTR_EN, 0);
    g_assert_false(gpu_intx_asserted(&g));
    wr(&g, NV_PMC_INTR_EN, NV_PMC_INTR_EN_HW);
    g_assert_true(gpu_intx_asserted(&g));

    /* Acknowledged at PTIMER: the level drops. */
    wr(&g, NV_PTIMER_INTR, NV_PTIMER_INTR_ALARM);
    g_assert_false(gpu_intx_asserted(&g));
    g_assert_cmphex(rd(&g, NV_PMC_INTR), ==, 0);
    gpu_stop(&g);
}

#define MSI_MAGIC 0x4e56

static void test_irq_msi(void)
{
    uint64_t msi;
    Gpu g;

    gpu_start(&g);
    msi = gpu_msi_to_ram(&g, MSI_CAP, MSI_MAGIC);

    alarm_in(&g, 1000);
    gpu_step(&g, 1000);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, MSI_MAGIC);
    /* With MSI on, INTx stays quiet. */
    g_assert_false(gpu_intx_asserted(&g));

    /* One message per rising edge: none while the level stays up. */
    qtest_writel(g.qts, msi, 0);
    wr(&g, NV_PMC_INTR_EN, NV_PMC_INTR_EN_HW);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);
    wr(&g, NV_PTIMER_INTR, NV_PTIMER_INTR_ALARM);
    alarm_in(&g, 1000);
    gpu_step(&g, 1000);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, MSI_MAGIC);
    gpu_stop(&g);
}

static void test_reset(void)
{
    Gpu g;

    gpu_start(&g);
    wr(&g, NV_PTIMER_ALARM, 0x1234);
    wr(&g, NV40_PC_THRESHOLD(3), 77);
    wr(&g, NV40_PC_CTRL(3), NV_PC_MODE_QUAD);
    alarm_in(&g, 100);
    gpu_step(&g, 100);
    g_assert_true(gpu_intx_asserted(&g));

    qmp_ok(&g, "{'execute': 'system_reset'}");
    qtest_qmp_eventwait(g.qts, "RESET");
    gpu_map(&g);
    g_assert_false(gpu_intx_asserted(&g));
    g_assert_cmphex(rd(&g, NV_PTIMER_ALARM), ==, 0);
    g_assert_cmphex(rd(&g, NV_PMC_INTR_EN), ==, 0);
    g_assert_cmphex(rd(&g, NV40_PC_THRESHOLD(3)), ==, 0);
    g_assert_cmphex(rd(&g, NV40_PC_CTRL(3)), ==, 0);
    g_assert_cmphex(rd(&g, NV40_PC_SPEC_SRC(3)), ==, NV_SIG_PM_TRIGGER);
    gpu_stop(&g);
}

/* VRAM through the PRAMIN window, as nouveau's instmem does early on. */
static void vram_wr32(Gpu *g, uint64_t addr, uint32_t val)
{
    wr(g, NV_PBUS_PMEM, addr >> 16);
    wr(g, NV_PMEM_BASE + (addr & 0xffff), val);
}

/*
 * A channel (nouveau's G84 layout, pfifo.c) whose IB ring holds 256
 * entries of 8 MiB of empty method headers each, through a linear VRAM
 * DMA object: far more than one run.  The device answers its registers
 * while the channel runs, GET moves on, and turning the channel off
 * stops it.
 */
static void test_hostile_fifo(void)
{
    const uint64_t inst = 0x01000000, ramfc = 0x01010000;
    const uint32_t user = NV_USER_BASE + NV_USER_STRIDE;
    uint32_t get[3];
    Gpu g;

    gpu_start(&g);
    /* DMA object at inst + 0x1000: VRAM, linear, 0 .. 16 MiB */
    vram_wr32(&g, inst + 0x1000, 1u << 16);
    vram_wr32(&g, inst + 0x1004, 0x00ffffff);
    vram_wr32(&g, inst + 0x1008, 0);
    vram_wr32(&g, inst + 0x100c, 0);
    vram_wr32(&g, ramfc + 0x48, 0x1000 >> 4);
    vram_wr32(&g, ramfc + 0x50, 0x00f00000);        /* IB in VRAM */
    vram_wr32(&g, ramfc + 0x54, 8 << 16);           /* 256 entries */
    vram_wr32(&g, ramfc + 0x98, inst >> 12);
    for (unsigned i = 0; i < 256; i++) {
        vram_wr32(&g, 0x00f00000 + i * 8, 0x00000000);
        vram_wr32(&g, 0x00f00004 + i * 8, 0x1fffffu << 10);
    }
    wr(&g, NV_PFIFO_CHAN(1), NV_PFIFO_CHAN_VALID | ramfc >> 8);
    wr(&g, user + NV_USER_IB_PUT, 255);
    for (unsigned i = 0; i < 3; i++) {
        gpu_step(&g, 100 * 1000);
        g_assert_cmphex(rd(&g, NV_PMC_BOOT_0), ==, 0x084000a2);
        get[i] = rd(&g, user + NV_USER_GET);
        g_assert_cmpuint(rd(&g, user + NV_USER_IB_GET), <, 255);
    }
    g_assert_cmphex(get[0], <, get[1]);
    g_assert_cmphex(get[1], <, get[2]);
    wr(&g, NV_PFIFO_CHAN(1), 0);
    get[0] = rd(&g, user + NV_USER_GET);
    gpu_step(&g, 100 * 1000);
    g_assert_cmphex(rd(&g, user + NV_USER_GET), ==, get[0]);
    gpu_stop(&g);
}

/*
 * What a bound nouveau leaves in the device, across a snapshot: VRAM
 * (written through PRAMIN), BAR3 through the BAR channel's page tables,
 * and a PFIFO channel that has run a fence release and waits on an
 * acquire.  After the load BAR3 still maps, and the acquire, once
 * satisfied through BAR1, lets the channel release its next fence.
 */
#define MIG_INST    0x01000000u
#define MIG_RAMFC   0x01010000u
#define MIG_BARCH   0x01100000u
#define MIG_PT      0x01200000u
#define MIG_PUSH    0x00e00000u
#define MIG_IB      0x00f00000u
#define MIG_SEM     0x00d00000u

static void mig_dmaobj_linear(Gpu *g, uint32_t at)
{
    vram_wr32(g, at, 1u << 16);                     /* VRAM, no VM */
    vram_wr32(g, at + 4, 0x00ffffff);
    vram_wr32(g, at + 8, 0);
    vram_wr32(g, at + 12, 0);
}

static void mig_push(Gpu *g, uint32_t at, const uint32_t *w, unsigned n,
                     unsigned ib)
{
    for (unsigned i = 0; i < n; i++) {
        vram_wr32(g, at + i * 4, w[i]);
    }
    vram_wr32(g, MIG_IB + ib * 8, at);
    vram_wr32(g, MIG_IB + ib * 8 + 4, n << 10);
}

static void mig_observe(Gpu *g, GByteArray *out)
{
    const uint32_t user = NV_USER_BASE + NV_USER_STRIDE;
    uint32_t v[6] = {
        qpci_io_readl(g->dev, g->bar[3], 0x10),
        qpci_io_readl(g->dev, g->bar[1], MIG_SEM),
        qpci_io_readl(g->dev, g->bar[1], MIG_SEM + 8),
        rd(g, user + NV_USER_IB_GET),
        rd(g, user + NV_USER_GET),
        rd(g, NV_PFIFO_INTR),
    };

    g_byte_array_append(out, (uint8_t *)v, sizeof(v));
}

static GByteArray *migrate_memory(bool migrate)
{
    static const uint32_t fence[] = {
        1 << 18 | 0x60, 0xbeef0001,
        4 << 18 | 0x10, 0, MIG_SEM, 0x11, 2,
        1 << 18 | 0x20, 0,
    };
    static const uint32_t wait[] = {
        4 << 18 | 0x10, 0, MIG_SEM + 4, 5, 4,        /* ACQ_GEQ 5 */
        4 << 18 | 0x10, 0, MIG_SEM + 8, 0x22, 2,
    };
    GByteArray *out = g_byte_array_new();
    Gpu g;

    gpu_start(&g);
    /* BAR3: the BAR channel, a DMA object at +0x10, VA 0 -> 0x00c00000 */
    vram_wr32(&g, MIG_BARCH + 0x10, 0x7fc00000);
    vram_wr32(&g, MIG_BARCH + 0x14, 0x01ffffff);
    vram_wr32(&g, MIG_BARCH + 0x18, 0);
    vram_wr32(&g, MIG_BARCH + 0x1c, 0);
    vram_wr32(&g, MIG_BARCH + 0x200, MIG_PT | 3);
    vram_wr32(&g, MIG_PT, 0x00c00000 | 1);
    vram_wr32(&g, 0x00c00010, 0x5a5a5a5a);
    wr(&g, NV_PBUS_BAR_CHAN, MIG_BARCH >> 12);
    wr(&g, NV_PBUS_BAR_CHAN, NV_BAR_CHAN_WHICH_BAR | MIG_BARCH >> 12);
    wr(&g, NV_PBUS_BAR3, NV_BAR_MODE_DMAOBJ | 0x10 >> 4);
    /* PFIFO channel 1: linear DMA objects, RAMHT with the semaphore's */
    mig_dmaobj_linear(&g, MIG_INST + 0x1000);
    mig_dmaobj_linear(&g, MIG_INST + 0x1020);
    vram_wr32(&g, MIG_INST + 0x2000, 0xbeef0001);
    vram_wr32(&g, MIG_INST + 0x2004, 0x1020 >> 4);
    vram_wr32(&g, MIG_RAMFC + 0x48, 0x1000 >> 4);
    vram_wr32(&g, MIG_RAMFC + 0x50, MIG_IB);
    vram_wr32(&g, MIG_RAMFC + 0x54, 4 << 16);
    vram_wr32(&g, MIG_RAMFC + 0x80, 3u << 27 | 0x2000 >> 4);
    vram_wr32(&g, MIG_RAMFC + 0x98, MIG_INST >> 12);
    mig_push(&g, MIG_PUSH, fence, G_N_ELEMENTS(fence), 0);
    mig_push(&g, MIG_PUSH + 0x100, wait, G_N_ELEMENTS(wait), 1);
    wr(&g, NV_PFIFO_CHAN(1), NV_PFIFO_CHAN_VALID | MIG_RAMFC >> 8);
    wr(&g, NV_USER_BASE + NV_USER_STRIDE + NV_USER_IB_PUT, 2);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[1], MIG_SEM), ==, 0x11);

    gpu_maybe_migrate(&g, migrate, GPU_ARGS);
    mig_observe(&g, out);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[3], 0x10), ==, 0x5a5a5a5a);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[1], MIG_SEM + 8), ==, 0);
    qpci_io_writel(g.dev, g.bar[1], MIG_SEM + 4, 7);
    gpu_step(&g, 2 * 1000 * 1000);
    g_assert_cmphex(qpci_io_readl(g.dev, g.bar[1], MIG_SEM + 8), ==, 0x22);
    mig_observe(&g, out);
    gpu_stop(&g);
    return out;
}

static void test_migrate_memory(void)
{
    gpu_migrate_check(migrate_memory);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/nv-gpu/pci/identity", test_identity);
    qtest_add_func("/nv-gpu/pci/bars", test_bars);
    qtest_add_func("/nv-gpu/pci/capabilities", test_capabilities);
    qtest_add_func("/nv-gpu/pci/bad-properties", test_bad_properties);
    qtest_add_func("/nv-gpu/synth-property", test_synth_property);
    qtest_add_func("/nv-gpu/ptimer", test_ptimer);
    qtest_add_func("/nv-gpu/irq/intx", test_irq_intx);
    qtest_add_func("/nv-gpu/irq/msi", test_irq_msi);
    qtest_add_func("/nv-gpu/reset", test_reset);
    qtest_add_func("/nv-gpu/hostile/fifo", test_hostile_fifo);
    qtest_add_func("/nv-gpu/migrate/memory", test_migrate_memory);
    return g_test_run();
}
