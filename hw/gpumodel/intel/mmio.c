/*
 * intel-gpu register file: the first 2 MiB of BAR0 (GTTMMADR).
 *
 * Every dword has storage.  Blocks describe their registers in tables; a
 * dense index maps each dword to its table entry, so an access costs one
 * array lookup.  Offsets no table describes behave as storage and are
 * reported once each as unmodelled.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "intel-gpu.h"

#define MMIO_DWORDS (INTEL_MMIO_SIZE / 4)

static unsigned reg_count(const IntelReg *r)
{
    return r->count ? r->count : 1;
}

static unsigned reg_stride(const IntelReg *r)
{
    return r->stride ? r->stride : 4;
}

void intel_mmio_init(IntelGpu *gpu, const IntelRegBlock *const *blocks,
                     unsigned nblocks)
{
    unsigned n = 0;

    for (unsigned i = 0; i < nblocks; i++) {
        n += blocks[i]->nregs * MAX(blocks[i]->nbases, 1);
    }
    /* The index stores binding numbers + 1 in 16 bits. */
    g_assert(n < G_MAXUINT16);

    gpu->mmio = g_new0(uint32_t, MMIO_DWORDS);
    gpu->index = g_new0(uint16_t, MMIO_DWORDS);
    gpu->unmodelled_seen = g_new0(uint8_t, MMIO_DWORDS / 8);
    gpu->bindings = g_new0(IntelRegBinding, n);
    gpu->nbindings = 0;

    for (unsigned i = 0; i < nblocks; i++) {
        const IntelRegBlock *blk = blocks[i];
        unsigned nbases = MAX(blk->nbases, 1);

        for (unsigned u = 0; u < nbases; u++) {
            for (unsigned r = 0; r < blk->nregs; r++) {
                const IntelReg *reg = &blk->regs[r];
                IntelRegBinding *b = &gpu->bindings[gpu->nbindings++];

                b->reg = reg;
                b->block = blk;
                b->base = blk->bases ? blk->bases[u] : 0;
                b->unit = u;
                for (unsigned k = 0; k < reg_count(reg); k++) {
                    uint32_t off = b->base + reg->offset + k * reg_stride(reg);
                    uint16_t prev;

                    /* The tables are static: a clash is a bug in them. */
                    g_assert(off % 4 == 0 && off < INTEL_MMIO_SIZE);
                    prev = gpu->index[off / 4];
                    if (prev && !gpu->bindings[prev - 1].reg->range) {
                        g_error("intel-gpu: %s and %s both claim 0x%x",
                                gpu->bindings[prev - 1].reg->name,
                                reg->name, off);
                    }
                    gpu->index[off / 4] = gpu->nbindings;
                }
            }
        }
    }
}

void intel_mmio_fini(IntelGpu *gpu)
{
    g_free(gpu->mmio);
    g_free(gpu->index);
    g_free(gpu->unmodelled_seen);
    g_free(gpu->bindings);
}

static void reset_binding(IntelGpu *gpu, const IntelRegBinding *b)
{
    const IntelReg *reg = b->reg;

    for (unsigned k = 0; k < reg_count(reg); k++) {
        uint32_t off = b->base + reg->offset + k * reg_stride(reg);

        /* A range's reset value must not overwrite what refines it. */
        if (&gpu->bindings[gpu->index[off / 4] - 1] == b) {
            gpu->mmio[off / 4] = reg->reset;
        }
    }
}

/*
 * The count of unmodelled offsets is a diagnostic over the device's life,
 * not guest-visible state, so it survives reset.
 */
void intel_mmio_reset(IntelGpu *gpu)
{
    memset(gpu->mmio, 0, INTEL_MMIO_SIZE);
    for (unsigned i = 0; i < gpu->nbindings; i++) {
        reset_binding(gpu, &gpu->bindings[i]);
    }
}

void intel_mmio_reset_unit(IntelGpu *gpu, const IntelRegBlock *block,
                           unsigned unit)
{
    for (unsigned i = 0; i < gpu->nbindings; i++) {
        const IntelRegBinding *b = &gpu->bindings[i];

        if (b->block == block && b->unit == unit) {
            reset_binding(gpu, b);
        }
    }
}

const IntelRegBinding *intel_mmio_lookup(IntelGpu *gpu, uint32_t offset)
{
    uint16_t i;

    if (offset >= INTEL_MMIO_SIZE) {
        return NULL;
    }
    i = gpu->index[offset / 4];
    return i ? &gpu->bindings[i - 1] : NULL;
}

static void note_unmodelled(IntelGpu *gpu, uint32_t offset, bool write,
                            uint32_t val)
{
    unsigned dw = offset / 4;

    if (gpu->unmodelled_seen[dw / 8] & (1u << (dw % 8))) {
        return;
    }
    gpu->unmodelled_seen[dw / 8] |= 1u << (dw % 8);
    gpu->unmodelled_count++;
    if (write) {
        gpu_host_log(&gpu->host, GPU_LOG_UNIMP,
                     "unmodelled register 0x%06x written (0x%08x), "
                     "kept as storage", offset, val);
    } else {
        gpu_host_log(&gpu->host, GPU_LOG_UNIMP,
                     "unmodelled register 0x%06x read, kept as storage",
                     offset);
    }
}

/*
 * Accesses from the host CPU are noted when they reach unmodelled offsets;
 * context save and restore (which walk every register of an image) are
 * not, so the count keeps meaning "what the driver touched".
 */
static uint32_t mmio_read(IntelGpu *gpu, uint32_t offset, bool note)
{
    const IntelRegBinding *b;

    offset &= ~3u;
    if (offset >= INTEL_MMIO_SIZE) {
        return 0;
    }
    b = intel_mmio_lookup(gpu, offset);
    if (!b) {
        if (note) {
            note_unmodelled(gpu, offset, false, 0);
        }
        return gpu->mmio[offset / 4];
    }
    return b->reg->read ? b->reg->read(gpu, b, offset) : gpu->mmio[offset / 4];
}

uint32_t intel_mmio_read(IntelGpu *gpu, uint32_t offset)
{
    return mmio_read(gpu, offset, true);
}

uint32_t intel_mmio_read_quiet(IntelGpu *gpu, uint32_t offset)
{
    return mmio_read(gpu, offset, false);
}

static void mmio_write(IntelGpu *gpu, uint32_t offset, uint32_t val,
                       uint32_t byte_mask, bool note)
{
    const IntelRegBinding *b;
    uint32_t *slot, old, m;

    offset &= ~3u;
    if (offset >= INTEL_MMIO_SIZE) {
        return;
    }
    slot = &gpu->mmio[offset / 4];
    old = *slot;
    val &= byte_mask;
    b = intel_mmio_lookup(gpu, offset);
    if (!b) {
        if (note) {
            note_unmodelled(gpu, offset, true, val);
        }
        *slot = (old & ~byte_mask) | val;
        return;
    }

    switch (b->reg->access) {
    case INTEL_REG_RW:
        *slot = (old & ~byte_mask) | val;
        break;
    case INTEL_REG_RO:
        return;
    case INTEL_REG_W1C:
        *slot = old & ~val;
        break;
    case INTEL_REG_MASKED:
        m = val >> 16;
        *slot = (old & ~m) | (val & m);
        break;
    }
    if (b->reg->write) {
        b->reg->write(gpu, b, offset, old);
    }
}

/* @byte_mask selects the bytes a narrow access wrote. */
void intel_mmio_write(IntelGpu *gpu, uint32_t offset, uint32_t val,
                      uint32_t byte_mask)
{
    mmio_write(gpu, offset, val, byte_mask, true);
}

void intel_mmio_write_quiet(IntelGpu *gpu, uint32_t offset, uint32_t val)
{
    mmio_write(gpu, offset, val, 0xffffffff, false);
}

char *intel_mmio_unmodelled_list(IntelGpu *gpu)
{
    GString *s = g_string_new(NULL);

    for (unsigned dw = 0; dw < MMIO_DWORDS; dw++) {
        if (gpu->unmodelled_seen[dw / 8] & (1u << (dw % 8))) {
            g_string_append_printf(s, "%s0x%06x", s->len ? " " : "", dw * 4);
        }
    }
    return g_string_free(s, false);
}

/*
 * Ranges that read as zero and ignore writes: no GVT-g paravirtual page
 * (i915 must not find VGT_MAGIC at 0x78000), and the range the PRM reserves
 * for software virtualization.
 */
static const IntelReg ranges_regs[] = {
    { .name = "PVINFO_PAGE", .offset = INTEL_PVINFO_PAGE, .count = 1024,
      .access = INTEL_REG_RO, .range = true },
    { .name = "SW_VIRT_RANGE", .offset = INTEL_SWVIRT_BASE,
      .count = INTEL_SWVIRT_SIZE / 4, .access = INTEL_REG_RO, .range = true },
};

const IntelRegBlock intel_ranges_block = {
    .name = "ranges",
    .regs = ranges_regs,
    .nregs = G_N_ELEMENTS(ranges_regs),
};
