/*
 * Helpers the gpumodel device qtests share: start QEMU with the device,
 * find it, map its BARs, stop.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_QTEST_GPUMODEL_QTEST_H
#define TESTS_QTEST_GPUMODEL_QTEST_H

#include "libqtest.h"
#include "libqos/pci-pc.h"
#include "libqos/malloc-pc.h"
#include "hw/pci/pci_regs.h"
#include "qobject/qdict.h"

typedef struct Gpu {
    QTestState *qts;
    QGuestAllocator alloc;
    QPCIBus *bus;
    QPCIDevice *dev;
    int devfn;
    unsigned bars;          /* bit n: map BAR n */
    QPCIBar bar[6];
} Gpu;

/*
 * libqos allocates BARs from 0xE0000000, where a 256 MiB BAR does not fit;
 * q35 leaves 0xC0000000-0xFEBFFFFF to PCI.  Mapping again after a reset
 * reuses the same addresses.
 */
static inline void gpu_map(Gpu *g)
{
    g->bus->mmio_alloc_ptr = 0xC0000000;
    qpci_device_enable(g->dev);
    for (int i = 0; i < 6; i++) {
        if (g->bars & (1u << i)) {
            g->bar[i] = qpci_iomap(g->dev, i, NULL);
        }
    }
}

/* Start QEMU with @args, find the device at @devfn, map @bars. */
static inline void gpu_boot(Gpu *g, int devfn, unsigned bars,
                            const char *args)
{
    g->qts = qtest_init(args);
    pc_alloc_init(&g->alloc, g->qts, ALLOC_NO_FLAGS);
    g->bus = qpci_new_pc(g->qts, &g->alloc);
    g->devfn = devfn;
    g->dev = qpci_device_find(g->bus, devfn);
    g_assert_nonnull(g->dev);
    g->bars = bars;
    gpu_map(g);
}

static inline void gpu_stop(Gpu *g)
{
    g_free(g->dev);
    qpci_free_pc(g->bus);
    alloc_destroy(&g->alloc);
    qtest_quit(g->qts);
}

/* Wait (bounded) until query-migrate on @qts reports a final status. */
static inline void gpu_migrate_wait(QTestState *qts)
{
    for (int i = 0; i < 3000; i++) {
        QDict *rsp = qtest_qmp(qts, "{'execute': 'query-migrate'}");
        QDict *ret = qdict_get_qdict(rsp, "return");
        const char *st = ret ? qdict_get_try_str(ret, "status") : NULL;
        bool done = st && !strcmp(st, "completed");

        g_assert_true(!st || (strcmp(st, "failed") && strcmp(st, "cancelled")));
        qobject_unref(rsp);
        if (done) {
            return;
        }
        g_usleep(10 * 1000);
    }
    g_assert_not_reached();
}

/*
 * Save @g's machine to a file and continue in a new QEMU started with
 * @args (the source's) that loads it, as savevm/loadvm or a migration
 * would.  qtest's virtual clock is not in the migration stream (a real
 * accelerator's is), so the destination's clock is set to the source's
 * before the state is loaded; reading it takes a 1 ns step (qtest has no
 * plain clock read).  The libqos allocator starts afresh: tests keep
 * their guest buffers at fixed addresses.
 */
static inline void gpu_migrate(Gpu *g, const char *args)
{
    g_autofree char *dir = g_dir_make_tmp("gpumodel-mig-XXXXXX", NULL);
    g_autofree char *file = g_build_filename(dir, "state", NULL);
    g_autofree char *uri = g_strdup_printf("file:%s", file);
    g_autofree char *dargs = g_strdup_printf("%s -incoming defer", args);
    int64_t now = qtest_clock_step(g->qts, 1);
    QTestState *to;

    qtest_qmp_assert_success(g->qts, "{'execute': 'migrate', "
                             "'arguments': {'uri': %s}}", uri);
    gpu_migrate_wait(g->qts);

    to = qtest_init(dargs);
    qtest_clock_set(to, now);
    qtest_qmp_assert_success(to, "{'execute': 'migrate-incoming', "
                             "'arguments': {'uri': %s}}", uri);
    gpu_migrate_wait(to);
    qtest_qmp_assert_success(to, "{'execute': 'cont'}");
    qtest_clock_set(to, now);       /* still there: asserts OK */

    unlink(file);
    rmdir(dir);
    g_free(g->dev);
    qpci_free_pc(g->bus);
    alloc_destroy(&g->alloc);
    qtest_quit(g->qts);

    g->qts = to;
    pc_alloc_init(&g->alloc, to, ALLOC_NO_FLAGS);
    g->bus = qpci_new_pc(to, &g->alloc);
    g->dev = qpci_device_find(g->bus, g->devfn);
    g_assert_nonnull(g->dev);
    gpu_map(g);
}

/*
 * Run @workload uninterrupted, then saved and loaded into a new QEMU in
 * its middle (gpu_migrate()): what it observed must match byte for byte.
 */
static inline void gpu_migrate_check(GByteArray *(*workload)(bool migrate))
{
    g_autoptr(GByteArray) straight = workload(false);
    g_autoptr(GByteArray) migrated = workload(true);

    g_assert_cmpmem(migrated->data, migrated->len,
                    straight->data, straight->len);
}

/* A QMP command on @g's machine that must succeed (@ok) or be refused. */
static inline void G_GNUC_PRINTF(3, 0) gpu_qmp_expect(Gpu *g, bool ok,
                                                      const char *fmt,
                                                      va_list ap)
{
    QDict *resp = qtest_vqmp(g->qts, fmt, ap);

    g_assert_true(qdict_haskey(resp, ok ? "return" : "error"));
    qobject_unref(resp);
}

static inline void G_GNUC_PRINTF(2, 3) qmp_ok(Gpu *g, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    gpu_qmp_expect(g, true, fmt, ap);
    va_end(ap);
}

static inline void G_GNUC_PRINTF(2, 3) qmp_refused(Gpu *g, const char *fmt,
                                                   ...)
{
    va_list ap;

    va_start(ap, fmt);
    gpu_qmp_expect(g, false, fmt, ap);
    va_end(ap);
}

/* BAR0 dword access: both devices keep their registers there. */
static inline uint32_t rd(Gpu *g, uint32_t off)
{
    return qpci_io_readl(g->dev, g->bar[0], off);
}

static inline void wr(Gpu *g, uint32_t off, uint32_t val)
{
    qpci_io_writel(g->dev, g->bar[0], off, val);
}

/* Sizing a BAR: write all-ones, read back the size mask and type bits. */
static inline uint64_t bar_probe(Gpu *g, int bar, uint32_t *type)
{
    uint8_t off = PCI_BASE_ADDRESS_0 + bar * 4;
    uint32_t lo, hi = 0xffffffff;

    qpci_config_writel(g->dev, off, 0xffffffff);
    lo = qpci_config_readl(g->dev, off);
    if (lo & PCI_BASE_ADDRESS_SPACE_IO) {
        *type = lo & ~PCI_BASE_ADDRESS_IO_MASK;
        return (uint16_t)~(lo & PCI_BASE_ADDRESS_IO_MASK) + 1;
    }
    *type = lo & ~PCI_BASE_ADDRESS_MEM_MASK;
    if (*type & PCI_BASE_ADDRESS_MEM_TYPE_64) {
        qpci_config_writel(g->dev, off + 4, 0xffffffff);
        hi = qpci_config_readl(g->dev, off + 4);
    }
    return ~(((uint64_t)hi << 32) | (lo & PCI_BASE_ADDRESS_MEM_MASK)) + 1;
}

#endif
