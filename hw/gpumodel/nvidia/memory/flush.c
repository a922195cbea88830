/*
 * nv-gpu write flush (BAR0 0x070000): the register nouveau's
 * g84_bar_flush() (drivers/gpu/drm/nouveau/nvkm/subdev/bar/g84.c) writes
 * with 1 and then polls until bit 1 reads 0.  There is no write cache
 * here, so the flush is done at once.
 *
 * PCOUNTER's trailer signal PGRAPH.WRCACHE_FLUSH (G84:GF100) is pulsed
 * by each flush: no register that pulses it is documented (envytools
 * leaves "The PM_TRIGGER and WRCACHE_FLUSH signals" unwritten), and this
 * is the write-cache flush a G84 driver issues (docs/nv-gpu.rst).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

static void flush_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                        uint32_t offset, uint32_t old, uint32_t val)
{
    if ((val & NV_FLUSH_TRIGGER) &&
        (gpu->chip->pc_features & NV_PC_F_WRCACHE)) {
        nv_pcounter_wrcache_flush(gpu);
    }
}

static const NvReg flush_regs[] = {
    /* Done at once: BUSY always reads 0. */
    NV_REG(FLUSH, 0x070000, WO, .wmask = NV_FLUSH_TRIGGER,
           .write = flush_write),
};

const NvRegBlock nv_flush_block =
    NV_REG_BLOCK("FLUSH", 0x070000, 0x1000, flush_regs);
