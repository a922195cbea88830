/*
 * nv-gpu PMC: chip identification, engine enables and the interrupt tree
 * (the PTIMER alarm and PFIFO's non-stall interrupt are the sources
 * modelled; PCOUNTER has no interrupt lines on NV10:GF100).
 *
 * nv_pmc_update_irq() is the one place that computes the output.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

/*
 * Each source's line into PMC is its block's INTR & INTR_EN: PMC reads the
 * blocks' registers, so the blocks need not be called to know.
 */
static const struct {
    uint32_t bit, intr, intr_en;
} pmc_sources[] = {
    { NV_PMC_INTR_PTIMER, NV_PTIMER_INTR, NV_PTIMER_INTR_EN },
    { NV_PMC_INTR_PFIFO, NV_PFIFO_INTR, NV_PFIFO_INTR_EN },
};

/* Pending sources, as PMC_INTR shows them. */
static uint32_t pmc_intr(NvGpu *gpu)
{
    uint32_t pending = 0;

    for (unsigned i = 0; i < G_N_ELEMENTS(pmc_sources); i++) {
        if (nv_reg_get(gpu, pmc_sources[i].intr) &
            nv_reg_get(gpu, pmc_sources[i].intr_en)) {
            pending |= pmc_sources[i].bit;
        }
    }
    return pending;
}

void nv_pmc_update_irq(NvGpu *gpu)
{
    bool level = (nv_reg_get(gpu, NV_PMC_INTR_EN) & NV_PMC_INTR_EN_HW) &&
                 pmc_intr(gpu);

    if (level != gpu->irq_level) {
        gpu->irq_level = level;
        gpu_host_set_irq(&gpu->host, level);
    }
}

static uint32_t boot0_read(NvGpu *gpu, const NvReg *r, unsigned unit,
                           uint32_t offset)
{
    return gpu->chip->boot0;
}

static void boot1_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                        uint32_t offset, uint32_t old, uint32_t val)
{
    /* Only the little-endian register interface is modelled. */
    if (val) {
        gpu_host_log(&gpu->host, GPU_LOG_UNIMP,
                     "nv-gpu: PMC_BOOT_1 0x%08x: big-endian MMIO not "
                     "modelled, stays little-endian", val);
        nv_reg_set(gpu, offset, 0);
    }
}

static uint32_t pmc_intr_read(NvGpu *gpu, const NvReg *r, unsigned unit,
                              uint32_t offset)
{
    return pmc_intr(gpu);
}

/* A block's interrupt status: writing 1 clears the bit; then the line. */
void nv_intr_ack_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                       uint32_t offset, uint32_t old, uint32_t val)
{
    nv_reg_set(gpu, offset, old & ~val);
    nv_pmc_update_irq(gpu);
}

/* An interrupt enable: the line may change. */
void nv_intr_en_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                      uint32_t offset, uint32_t old, uint32_t val)
{
    nv_pmc_update_irq(gpu);
}

#define PMC_REG(nm, acc, ...) NV_REG(nm, 0, acc, __VA_ARGS__)

static const NvReg pmc_regs[] = {
    PMC_REG(PMC_BOOT_0, RO, .read = boot0_read),
    PMC_REG(PMC_BOOT_1, RW, .write = boot1_write),
    /* Sources are cleared at their own block (e.g. PTIMER_INTR). */
    PMC_REG(PMC_INTR, RO, .read = pmc_intr_read),
    PMC_REG(PMC_INTR_EN, RW, .wmask = 0x3, .write = nv_intr_en_write),
    /*
     * PCOUNTER ignores every ENABLE bit on NV10:GF100 (envytools
     * docs/hw/pcounter/intro.rst, "Introduction").
     */
    PMC_REG(PMC_ENABLE, RW),
};

const NvRegBlock nv_pmc_block =
    NV_REG_BLOCK("PMC", 0x000000, 0x1000, pmc_regs);
