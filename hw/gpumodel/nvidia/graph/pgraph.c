/*
 * nv-gpu PGRAPH: the PM_TRIGGER bit PCOUNTER watches - nouveau's perfmon
 * (nv40_perfctr_next() in drivers/gpu/drm/nouveau/nvkm/engine/pm/nv40.c)
 * and envytools' nvacounter pulse it to swap quad-mode counters - and an
 * engine that takes nouveau's initialisation
 * (drivers/gpu/drm/nouveau/nvkm/engine/gr/nv50.c: nv50_gr_init, the
 * context program upload, the TPC and zcull setup): the whole window is
 * storage that does nothing, except that the engine is always idle
 * (the status words g84_gr_tlb_flush polls read 0) and never interrupts
 * (INTR and TRAP read 0).  Methods reach no PGRAPH class but M2MF, which
 * fifo/pfifo.c executes itself.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

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

#define PGRAPH_REG(nm, acc, ...) NV_REG(nm, NV_PGRAPH_BASE, acc, __VA_ARGS__)

static const NvReg pgraph_regs[] = {
    { .name = "PGRAPH", .offset = 0, .count = NV_PGRAPH_SIZE / 4,
      .access = GPU_REG_RW, .range = true },
    PGRAPH_REG(PGRAPH_PM_CTRL, RW, .write = pm_ctrl_write),
    PGRAPH_REG(PGRAPH_INTR, WO),
    PGRAPH_REG(PGRAPH_TRAP, WO),
    { .name = "PGRAPH_STATUS",
      .offset = NV_PGRAPH_STATUS(0) - NV_PGRAPH_BASE,
      .count = NV_PGRAPH_STATUSES, .access = GPU_REG_RO },
    PGRAPH_REG(PGRAPH_IDLE, RO),
};

const NvRegBlock nv_pgraph_block =
    NV_REG_BLOCK("PGRAPH", NV_PGRAPH_BASE, NV_PGRAPH_SIZE, pgraph_regs);
