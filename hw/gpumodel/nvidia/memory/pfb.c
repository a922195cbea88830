/*
 * nv-gpu PFB: the memory configuration nouveau sizes VRAM from, and the
 * VM TLB flush it triggers after page table updates.
 *
 * nouveau's reader (drivers/gpu/drm/nouveau/nvkm/subdev/fb/ramnv50.c:
 * nv50_ram_ctor, nv50_fb_vram_rblock) takes the size from MEM_AMOUNT and
 * checks it against the geometry in CFG0/CFG1 and the partition count
 * (PBUS HWUNITS_0): 2 partitions x 8 banks x 2^10 columns x 8 bytes make
 * 128 KiB rows, and ROWBITSA rows of them the size.  The type is GDDR3.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

#define ROW_LOG2        17      /* 128 KiB rows */
#define CFG1_FIXED \
    GPU_FIELD_DP32(GPU_FIELD_DP32(0, NV_PFB_CFG1, COLBITS, 0xa), \
                   NV_PFB_CFG1, BANKS, 1)

static uint32_t mem_amount_read(NvGpu *gpu, const NvReg *r, unsigned unit,
                                uint32_t offset)
{
    return (uint32_t)(gpu->vram_size & 0xffffff00u) |
           (uint32_t)(gpu->vram_size >> 32 & 0xff);
}

/* Row bits: log2(size) = ROW_LOG2 + ROWBITSA + 8. */
static uint32_t cfg1_read(NvGpu *gpu, const NvReg *r, unsigned unit,
                          uint32_t offset)
{
    uint32_t rb = 63 - __builtin_clzll(gpu->vram_size) - ROW_LOG2 - 8;

    return GPU_FIELD_DP32(GPU_FIELD_DP32(CFG1_FIXED, NV_PFB_CFG1, ROWBITSA, rb),
                          NV_PFB_CFG1, ROWBITSB, rb);
}

/* Nothing is cached (bar.c), so the flush is done when written. */
static void vm_trigger_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                             uint32_t offset, uint32_t old, uint32_t val)
{
    nv_reg_set(gpu, offset, val & ~NV_PFB_VM_TRIGGER_BUSY);
}

#define PFB_REG(nm, acc, ...) NV_REG(nm, 0x100000, acc, __VA_ARGS__)

static const NvReg pfb_regs[] = {
    PFB_REG(PFB_CFG0, RO),
    PFB_REG(PFB_CFG1, RO, .read = cfg1_read),
    PFB_REG(PFB_MEM_AMOUNT, RO, .read = mem_amount_read),
    PFB_REG(PFB_UNK250, RO),
    PFB_REG(PFB_TAG_COUNT, RO),     /* no compression tags */
    PFB_REG(PFB_MEM_TYPE, RO, .reset = NV_PFB_MEM_TYPE_GDDR3),
    PFB_REG(PFB_NISO_FLUSH_SYSRAM, RW),
    PFB_REG(PFB_VM_TRIGGER, RW, .write = vm_trigger_write),
    /* No VM traps: bit 31 (pending) never set. */
    PFB_REG(PFB_TRAP, RW, .wmask = 0x7fffffff),
    PFB_REG(PFB_TRAP_DATA, RO),
};

const NvRegBlock nv_pfb_block =
    NV_REG_BLOCK("PFB", 0x100000, 0x1000, pfb_regs);
