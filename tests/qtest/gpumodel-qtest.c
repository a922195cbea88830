/*
 * Helpers the gpumodel device qtests share (see gpumodel-qtest.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "gpumodel-qtest.h"

void gpu_map(Gpu *g)
{
    g->bus->mmio_alloc_ptr = 0xC0000000;
    qpci_device_enable(g->dev);
    for (int i = 0; i < 6; i++) {
        if (g->bars & (1u << i)) {
            g->bar[i] = qpci_iomap(g->dev, i, NULL);
        }
    }
}

/* A new QEMU's allocator and bus, and the device on it at g->devfn. */
static void gpu_attach(Gpu *g, QTestState *qts)
{
    g->qts = qts;
    pc_alloc_init(&g->alloc, qts, ALLOC_NO_FLAGS);
    g->bus = qpci_new_pc(qts, &g->alloc);
    g->dev = qpci_device_find(g->bus, g->devfn);
    g_assert_nonnull(g->dev);
}

static void gpu_detach(Gpu *g)
{
    g_free(g->dev);
    qpci_free_pc(g->bus);
    alloc_destroy(&g->alloc);
    qtest_quit(g->qts);
}

void gpu_boot_unmapped(Gpu *g, int devfn, const char *args)
{
    g->devfn = devfn;
    g->bars = 0;
    gpu_attach(g, qtest_init(args));
}

void gpu_boot(Gpu *g, int devfn, unsigned bars, const char *args,
              const char *extra)
{
    g_autofree char *all = g_strconcat(args, extra, NULL);

    gpu_boot_unmapped(g, devfn, all);
    g->bars = bars;
    gpu_map(g);
}

void gpu_start_args(Gpu *g, const char *extra)
{
    gpu_boot(g, gpu_model.devfn, gpu_model.bars, gpu_model.args, extra);
}

void gpu_start(Gpu *g)
{
    gpu_start_args(g, "");
}

void gpu_stop(Gpu *g)
{
    gpu_detach(g);
}

/* Wait (bounded) until query-migrate on @qts reports a final status. */
static void gpu_migrate_wait(QTestState *qts)
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

void gpu_migrate(Gpu *g, const char *args)
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
    gpu_detach(g);
    gpu_attach(g, to);
    gpu_map(g);
}

void gpu_maybe_migrate(Gpu *g, bool migrate, const char *args)
{
    if (migrate) {
        gpu_migrate(g, args);
    } else {
        qtest_clock_step(g->qts, 1);
    }
}

void gpu_migrate_check(GByteArray *(*workload)(bool migrate))
{
    g_autoptr(GByteArray) straight = workload(false);
    g_autoptr(GByteArray) migrated = workload(true);

    g_assert_cmpmem(migrated->data, migrated->len,
                    straight->data, straight->len);
}

static void G_GNUC_PRINTF(3, 0) gpu_qmp_expect(Gpu *g, bool ok,
                                               const char *fmt, va_list ap)
{
    QDict *resp = qtest_vqmp(g->qts, fmt, ap);

    g_assert_true(qdict_haskey(resp, ok ? "return" : "error"));
    qobject_unref(resp);
}

void qmp_ok(Gpu *g, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    gpu_qmp_expect(g, true, fmt, ap);
    va_end(ap);
}

void qmp_refused(Gpu *g, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    gpu_qmp_expect(g, false, fmt, ap);
    va_end(ap);
}

int64_t gpu_prop_int(Gpu *g, const char *prop)
{
    QDict *resp = qtest_qmp(g->qts, "{'execute': 'qom-get', 'arguments': "
                            "{'path': %s, 'property': %s}}", GPU_PATH, prop);
    int64_t n = qdict_get_int(resp, "return");

    qobject_unref(resp);
    return n;
}

int64_t gpu_step(Gpu *g, int64_t ns)
{
    return qtest_clock_step(g->qts, ns);
}

uint32_t rd(Gpu *g, uint32_t off)
{
    return qpci_io_readl(g->dev, g->bar[0], off);
}

void wr(Gpu *g, uint32_t off, uint32_t val)
{
    qpci_io_writel(g->dev, g->bar[0], off, val);
}

uint64_t bar_probe(Gpu *g, int bar, uint32_t *type)
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

uint32_t cfg_read(Gpu *g, uint8_t off, int size)
{
    switch (size) {
    case 1:
        return qpci_config_readb(g->dev, off);
    case 2:
        return qpci_config_readw(g->dev, off);
    }
    return qpci_config_readl(g->dev, off);
}

void cfg_write(Gpu *g, uint8_t off, int size, uint32_t val)
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

void gpu_assert_cap_chain(Gpu *g, const uint8_t (*chain)[2], unsigned n)
{
    uint8_t ptr;

    g_assert_cmphex(qpci_config_readw(g->dev, PCI_STATUS) &
                    PCI_STATUS_CAP_LIST, ==, PCI_STATUS_CAP_LIST);
    ptr = qpci_config_readb(g->dev, PCI_CAPABILITY_LIST);
    for (unsigned i = 0; i < n; i++) {
        g_assert_cmphex(ptr, ==, chain[i][0]);
        g_assert_cmphex(qpci_config_readb(g->dev, ptr), ==, chain[i][1]);
        ptr = qpci_config_readb(g->dev, ptr + 1);
    }
    g_assert_cmphex(ptr, ==, 0);
}

bool gpu_intx_asserted(Gpu *g)
{
    return qpci_config_readw(g->dev, PCI_STATUS) & PCI_STATUS_INTERRUPT;
}

uint64_t gpu_msi_to_ram(Gpu *g, uint8_t cap, uint16_t data)
{
    uint64_t addr = guest_alloc(&g->alloc, 4);
    uint16_t flags = qpci_config_readw(g->dev, cap + PCI_MSI_FLAGS);

    qtest_writel(g->qts, addr, 0);
    qpci_config_writel(g->dev, cap + PCI_MSI_ADDRESS_LO, addr);
    if (flags & PCI_MSI_FLAGS_64BIT) {
        qpci_config_writel(g->dev, cap + PCI_MSI_ADDRESS_HI, addr >> 32);
        qpci_config_writew(g->dev, cap + PCI_MSI_DATA_64, data);
    } else {
        qpci_config_writew(g->dev, cap + PCI_MSI_DATA_32, data);
    }
    qpci_config_writew(g->dev, cap + PCI_MSI_FLAGS,
                       flags | PCI_MSI_FLAGS_ENABLE);
    return addr;
}

void gpu_assert_bad_properties(const char *device,
                               const char *const (*cases)[2], unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        g_autofree char *cmd = g_strdup_printf(
            "%s -machine q35 -nodefaults -display none -S -device %s,%s",
            getenv("QTEST_QEMU_BINARY"), device, cases[i][0]);
        g_autofree char *err = NULL;
        int status;

        g_test_message("-device %s,%s", device, cases[i][0]);
        g_assert_true(g_spawn_command_line_sync(cmd, NULL, &err, &status,
                                                NULL));
        g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) != 0);
        g_assert_nonnull(strstr(err, cases[i][1]));
    }
}
