/*
 * Helpers the gpumodel device qtests share, in the manner of QEMU's
 * libqos: start QEMU with a device, find and enable it, map its BARs,
 * MMIO and config-space access, MSI and INTx, QMP and QOM, clock
 * stepping, save and load into a new QEMU.  Device-specific helpers are
 * in intel-gpu-qtest.h and nv-gpu-qtest.h.
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

/* The device under test, as the test's QEMU sees it. */
typedef struct Gpu {
    QTestState *qts;
    QGuestAllocator alloc;
    QPCIBus *bus;
    QPCIDevice *dev;
    int devfn;
    unsigned bars;          /* bit n: map BAR n */
    QPCIBar bar[6];
} Gpu;

/* What the tests name the device by in QMP (its -device id=). */
#define GPU_ID      "gpu"
#define GPU_PATH    "/machine/peripheral/" GPU_ID

/*
 * Enable memory, I/O and bus mastering and map the BARs in g->bars.
 * libqos allocates BARs from 0xE0000000, where a 256 MiB BAR does not fit;
 * q35 leaves 0xC0000000-0xFEBFFFFF to PCI.  Mapping again after a reset
 * reuses the same addresses.
 */
void gpu_map(Gpu *g);

/*
 * Start QEMU with @args followed by @extra (appended to the last
 * -device), find the device at @devfn, map @bars.
 */
void gpu_boot(Gpu *g, int devfn, unsigned bars, const char *args,
              const char *extra);

/* Start QEMU with @args and find the device, mapping nothing. */
void gpu_boot_unmapped(Gpu *g, int devfn, const char *args);

void gpu_stop(Gpu *g);

/* The device a test program drives: its device helper defines this. */
typedef struct GpuModel {
    int devfn;
    unsigned bars;          /* the BARs gpu_start() maps */
    const char *args;       /* QEMU's arguments, ending in the -device */
} GpuModel;

extern const GpuModel gpu_model;

/* Start QEMU with gpu_model, @extra appended to its -device. */
void gpu_start_args(Gpu *g, const char *extra);
void gpu_start(Gpu *g);

/*
 * Save @g's machine to a file and continue in a new QEMU started with
 * @args (the source's) that loads it, as savevm/loadvm or a migration
 * would.  qtest's virtual clock is not in the migration stream (a real
 * accelerator's is), so the destination's clock is set to the source's
 * before the state is loaded; reading it takes a 1 ns step (qtest has no
 * plain clock read).  The libqos allocator starts afresh: tests keep
 * their guest buffers at fixed addresses.
 */
void gpu_migrate(Gpu *g, const char *args);

/*
 * Run @workload uninterrupted, then saved and loaded into a new QEMU in
 * its middle (gpu_migrate()): what it observed must match byte for byte.
 */
void gpu_migrate_check(GByteArray *(*workload)(bool migrate));

/*
 * In a gpu_migrate_check() workload: migrate if @migrate, else let pass
 * the 1 ns gpu_migrate() takes, so that both runs see the same clock.
 */
void gpu_maybe_migrate(Gpu *g, bool migrate, const char *args);

/* A QMP command on @g's machine that must succeed. */
void G_GNUC_PRINTF(2, 3) qmp_ok(Gpu *g, const char *fmt, ...);

/* A QMP command on @g's machine that must be refused. */
void G_GNUC_PRINTF(2, 3) qmp_refused(Gpu *g, const char *fmt, ...);

/* QOM property @prop of the device, an integer. */
int64_t gpu_prop_int(Gpu *g, const char *prop);

/* Step virtual time by @ns; returns the new time. */
int64_t gpu_step(Gpu *g, int64_t ns);

/* BAR0 dword access: both devices keep their registers there. */
uint32_t rd(Gpu *g, uint32_t off);
void wr(Gpu *g, uint32_t off, uint32_t val);

/* Sizing a BAR: write all-ones, read back the size mask and type bits. */
uint64_t bar_probe(Gpu *g, int bar, uint32_t *type);

/* Config space access of @size bytes (1, 2 or 4). */
uint32_t cfg_read(Gpu *g, uint8_t off, int size);
void cfg_write(Gpu *g, uint8_t off, int size, uint32_t val);

/*
 * The capability list is @n entries of { offset, capability ID }, in this
 * order, and nothing after them.
 */
void gpu_assert_cap_chain(Gpu *g, const uint8_t (*chain)[2], unsigned n);

/* The device's INTx level, as PCI_STATUS shows it. */
bool gpu_intx_asserted(Gpu *g);

/*
 * Point the device's MSI (capability at @cap, 32- or 64-bit address) at a
 * zeroed dword of guest RAM, with message data @data, and enable it;
 * returns the dword's address.
 */
uint64_t gpu_msi_to_ram(Gpu *g, uint8_t cap, uint16_t data);

/*
 * Each of @n bad -device @device properties (cases[i][0]) stops QEMU
 * with an error message that contains cases[i][1].
 */
void gpu_assert_bad_properties(const char *device,
                               const char *const (*cases)[2], unsigned n);

#endif
