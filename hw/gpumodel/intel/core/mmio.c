/*
 * intel-gpu register file: the first 2 MiB of BAR0 (GTTMMADR), one
 * GpuRegFile (../regfile.h) over the blocks' tables.
 *
 * Every dword has storage.  Offsets no table describes behave as storage
 * and are reported once each as unmodelled.  The accessors here call the
 * entries' handlers with the model's types.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "../intel-gpu-int.h"

void intel_mmio_init(IntelGpu *gpu, const IntelRegBlock *const *blocks,
                     unsigned nblocks)
{
    gpu_reg_unmodelled_init(&gpu->unmodelled, &gpu->host, "",
                            GPU_REG_UNMODELLED_STORAGE, INTEL_MMIO_SIZE);
    gpu_regfile_init(&gpu->regs, "intel-gpu", 0, INTEL_MMIO_SIZE, blocks,
                     nblocks, 0, &gpu->unmodelled);
}

void intel_mmio_fini(IntelGpu *gpu)
{
    gpu_regfile_fini(&gpu->regs);
    gpu_reg_unmodelled_fini(&gpu->unmodelled);
}

/*
 * The count of unmodelled offsets is a diagnostic over the device's life,
 * not guest-visible state, so it survives reset.
 */
void intel_mmio_reset(IntelGpu *gpu)
{
    gpu_regfile_reset(&gpu->regs);
}

void intel_mmio_reset_unit(IntelGpu *gpu, const IntelRegBlock *block,
                           unsigned unit)
{
    gpu_regfile_reset_unit(&gpu->regs, block, unit);
}

const IntelRegBinding *intel_mmio_lookup(IntelGpu *gpu, uint32_t offset)
{
    return offset < INTEL_MMIO_SIZE ? gpu_regfile_lookup(&gpu->regs, offset)
                                    : NULL;
}

/*
 * Accesses from the host CPU are noted when they reach unmodelled offsets;
 * context save and restore (which walk every register of an image) are
 * not, so the count keeps meaning "what the driver touched".
 */
static uint32_t intel_mmio_read_common(IntelGpu *gpu, uint32_t offset,
                                       bool note)
{
    const IntelRegBinding *b;
    const IntelReg *r;

    offset &= ~3u;
    if (offset >= INTEL_MMIO_SIZE) {
        return 0;
    }
    b = gpu_regfile_lookup(&gpu->regs, offset);
    if (!b) {
        return gpu_regfile_unmodelled_read(&gpu->regs, offset, note);
    }
    r = intel_reg_entry(b);
    return r->read ? r->read(gpu, b, offset)
                   : gpu_regfile_stored(&gpu->regs, b, offset);
}

uint32_t intel_mmio_read(IntelGpu *gpu, uint32_t offset)
{
    return intel_mmio_read_common(gpu, offset, true);
}

uint32_t intel_mmio_read_quiet(IntelGpu *gpu, uint32_t offset)
{
    return intel_mmio_read_common(gpu, offset, false);
}

static void intel_mmio_write_common(IntelGpu *gpu, uint32_t offset,
                                    uint32_t val, uint32_t byte_mask,
                                    bool note)
{
    const IntelRegBinding *b;
    const IntelReg *r;
    uint32_t old, written;

    offset &= ~3u;
    if (offset >= INTEL_MMIO_SIZE) {
        return;
    }
    b = gpu_regfile_lookup(&gpu->regs, offset);
    if (!b) {
        gpu_regfile_unmodelled_write(&gpu->regs, offset, val, byte_mask,
                                     note);
        return;
    }
    old = gpu_regfile_store(&gpu->regs, b, offset, val, byte_mask,
                            &written);
    r = intel_reg_entry(b);
    if (r->write) {
        r->write(gpu, b, offset, old);
    }
}

/* @byte_mask selects the bytes a narrow access wrote. */
void intel_mmio_write(IntelGpu *gpu, uint32_t offset, uint32_t val,
                      uint32_t byte_mask)
{
    intel_mmio_write_common(gpu, offset, val, byte_mask, true);
}

void intel_mmio_write_quiet(IntelGpu *gpu, uint32_t offset, uint32_t val)
{
    intel_mmio_write_common(gpu, offset, val, 0xffffffff, false);
}

char *intel_mmio_unmodelled_list(IntelGpu *gpu)
{
    return gpu_reg_unmodelled_list(&gpu->unmodelled);
}

uint32_t intel_mmio_unmodelled_count(IntelGpu *gpu)
{
    return gpu->unmodelled.count;
}

/*
 * Ranges that read as zero and ignore writes: no GVT-g paravirtual page
 * (i915 must not find VGT_MAGIC at 0x78000), and the range the PRM reserves
 * for software virtualization.
 */
#define INTEL_SW_VIRT_RANGE INTEL_SWVIRT_BASE

static const IntelReg ranges_regs[] = {
    INTEL_REG(PVINFO_PAGE, RO, .count = 1024, .range = true),
    INTEL_REG(SW_VIRT_RANGE, RO, .count = INTEL_SWVIRT_SIZE / 4,
              .range = true),
};

const IntelRegBlock intel_ranges_block =
    INTEL_REG_BLOCK("ranges", ranges_regs);
