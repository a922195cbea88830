/*
 * nv-gpu MMIO: the register file over BAR0 and its accessors.
 *
 * Every block owns a window of BAR0, a GpuRegFile (../regfile.h): one
 * dword of storage per dword of the window and a dense index from dword to
 * table entry.  Offsets outside every block, and offsets inside a block
 * that its table does not describe, read as 0, ignore writes and are
 * reported once each as unimplemented.  The windows that are not
 * registers (PROM, PRAMIN, the channels' USER areas) are the device's
 * (nv-gpu.c), which hands the rest to nv_mmio_read()/nv_mmio_write().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

static void nv_regfile_add(NvGpu *gpu, const NvRegBlock *blk)
{
    const GpuRegBlock *table = &blk->table;

    g_assert(gpu->nfiles < NV_MAX_BLOCKS);
    gpu_regfile_init(&gpu->files[gpu->nfiles++], "nv-gpu", blk->base,
                     blk->size, &table, 1, gpu->chip->pc_features,
                     &gpu->unmodelled);
}

/* @blocks in the order the migration stream keeps their storage. */
void nv_mmio_init(NvGpu *gpu, const NvRegBlock *const *blocks, unsigned n)
{
    gpu_reg_unmodelled_init(&gpu->unmodelled, &gpu->host, "nv-gpu: ",
                            GPU_REG_UNMODELLED_IGNORE, NV_GPU_BAR0_SIZE);
    for (unsigned i = 0; i < n; i++) {
        nv_regfile_add(gpu, blocks[i]);
    }
}

void nv_mmio_fini(NvGpu *gpu)
{
    for (unsigned i = 0; i < gpu->nfiles; i++) {
        gpu_regfile_fini(&gpu->files[i]);
    }
    gpu_reg_unmodelled_fini(&gpu->unmodelled);
}

void nv_mmio_reset(NvGpu *gpu)
{
    for (unsigned i = 0; i < gpu->nfiles; i++) {
        gpu_regfile_reset(&gpu->files[i]);
    }
}

/* Loaded state: a writable register holds no bit outside its write mask. */
bool nv_mmio_post_load(NvGpu *gpu, char **err)
{
    for (unsigned i = 0; i < gpu->nfiles; i++) {
        if (!gpu_regfile_check(&gpu->files[i], err)) {
            return false;
        }
    }
    return true;
}

static NvRegFile *nv_regfile_find(NvGpu *gpu, uint32_t offset)
{
    for (unsigned i = 0; i < gpu->nfiles; i++) {
        NvRegFile *f = &gpu->files[i];

        if (offset >= f->base && offset - f->base < f->size) {
            return f;
        }
    }
    return NULL;
}

uint32_t nv_reg_get(NvGpu *gpu, uint32_t offset)
{
    NvRegFile *f = nv_regfile_find(gpu, offset);

    return f ? f->store[(offset - f->base) / 4] : 0;
}

void nv_reg_set(NvGpu *gpu, uint32_t offset, uint32_t val)
{
    NvRegFile *f = nv_regfile_find(gpu, offset);

    if (f) {
        f->store[(offset - f->base) / 4] = val;
    }
}

/* A guest read of the dword at @offset: its entry's handler, or storage. */
uint32_t nv_mmio_read(NvGpu *gpu, uint32_t offset)
{
    NvRegFile *f = nv_regfile_find(gpu, offset);
    const GpuRegBinding *b;
    const NvReg *r;
    uint32_t rel;

    if (!f) {
        gpu_reg_unmodelled_note(&gpu->unmodelled, offset, false, 0);
        return 0;
    }
    rel = offset - f->base;
    b = gpu_regfile_lookup(f, rel);
    if (!b) {
        return gpu_regfile_unmodelled_read(f, rel, true);
    }
    r = (const NvReg *)b->reg;
    return r->read ? r->read(gpu, r, gpu_reg_instance(b, rel), offset)
                   : gpu_regfile_stored(f, b, rel);
}

/* A guest write: storage by the entry's access kind, then its handler. */
void nv_mmio_write(NvGpu *gpu, uint32_t offset, uint32_t val)
{
    NvRegFile *f = nv_regfile_find(gpu, offset);
    const GpuRegBinding *b;
    const NvReg *r;
    uint32_t rel, old;

    if (!f) {
        gpu_reg_unmodelled_note(&gpu->unmodelled, offset, true, val);
        return;
    }
    rel = offset - f->base;
    b = gpu_regfile_lookup(f, rel);
    if (!b) {
        gpu_regfile_unmodelled_write(f, rel, val, 0xffffffff, true);
        return;
    }
    old = gpu_regfile_store(f, b, rel, val, 0xffffffff, &val);
    r = (const NvReg *)b->reg;
    if (r->write) {
        r->write(gpu, r, gpu_reg_instance(b, rel), offset, old, val);
    }
}
