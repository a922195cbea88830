/*
 * nv-gpu PGRAPH: only the PM_TRIGGER bit PCOUNTER watches.  nouveau's
 * perfmon (nv40_perfctr_next() in
 * drivers/gpu/drm/nouveau/nvkm/engine/pm/nv40.c) and envytools'
 * nvacounter pulse it to swap quad-mode counters.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nv-gpu-int.h"

static void pm_ctrl_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                          uint32_t offset, uint32_t old, uint32_t val)
{
    /* A one-clock pulse, so the bit never reads back as set. */
    if (val & NV_PGRAPH_PM_TRIGGER) {
        nv_reg_set(gpu, offset, nv_reg_get(gpu, offset) &
                   ~NV_PGRAPH_PM_TRIGGER);
        nv_pcounter_pm_trigger(gpu);
    }
}

static const NvReg pgraph_regs[] = {
    NV_REG(PGRAPH_PM_CTRL, 0x400000, RW, .write = pm_ctrl_write),
};

const NvRegBlock nv_pgraph_block =
    NV_REG_BLOCK("PGRAPH", 0x400000, 0x1000, pgraph_regs);
