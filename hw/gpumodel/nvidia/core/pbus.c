/*
 * nv-gpu PBUS: the unit masks nouveau reads to know what the chip has
 * (HWUNITS), the bus interrupt nouveau enables, and the HOST_MEM
 * registers behind the PRAMIN window and BAR1/BAR3 (memory/bar.c).
 *
 * HWUNITS (envytools rnndb/bus/pbus.xml; nouveau's reader is
 * drivers/gpu/drm/nouveau/nvkm/subdev/devinit/g84.c: g84_devinit_disable):
 * a GeForce 8600 GT's two TPCs of two MPs and two memory partitions, a
 * display, and no video decoding units (VDEC, BSP, CIPHER) - the model
 * has none of them, so nouveau is told as a board with them fused off
 * would tell it, and does not create those engines.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

#define G84_HWUNITS_0 \
    GPU_FIELD_DP32(GPU_FIELD_DP32(GPU_FIELD_DP32(NV_HWUNITS_0_UNK28, \
                                                 NV_PBUS_HWUNITS_0, TPC, 0x3), \
                                  NV_PBUS_HWUNITS_0, PART, 0x03), \
                   NV_PBUS_HWUNITS_0, MP, 0x3)
#define G84_HWUNITS_1   NV_HWUNITS_1_DISPLAY

/* Only the PCIe speed bit is storage; the unit bits are fixed. */
static uint32_t hwunits_1_read(NvGpu *gpu, const NvReg *r, unsigned unit,
                               uint32_t offset)
{
    return G84_HWUNITS_1 | nv_reg_get(gpu, offset);
}

/* Both channels are kept: which one a write sets is bit 30. */
static void bar_chan_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                           uint32_t offset, uint32_t old, uint32_t val)
{
    if (val & NV_BAR_CHAN_WHICH_BAR) {
        gpu->bar_chan = val & ~NV_BAR_CHAN_WHICH_BAR;
    } else {
        gpu->peephole_chan = val;
    }
}

#define PBUS_REG(nm, acc, ...) NV_REG(nm, 0x001000, acc, __VA_ARGS__)
#define BAR_SEL_WMASK   (NV_BAR_MODE_DMAOBJ | NV_BAR_INST_MASK)

static const NvReg pbus_regs[] = {
    PBUS_REG(PBUS_DEBUG_1, RW),
    /* No PBUS interrupt is ever raised (MMIO faults are not modelled). */
    PBUS_REG(PBUS_INTR, WO),
    PBUS_REG(PBUS_INTR_EN, RW),
    PBUS_REG(PBUS_HWUNITS_0, RO, .reset = G84_HWUNITS_0),
    /* nouveau's g84_pcie_init sets the speed bit; the rest is fixed. */
    PBUS_REG(PBUS_HWUNITS_1, RW, .wmask = NV_HWUNITS_1_PCIE_SPEED,
             .read = hwunits_1_read),
    PBUS_REG(PBUS_PMEM, RW, .wmask = 0x03ffffff),
    PBUS_REG(PBUS_BAR_CHAN, RW, .wmask = 0x7fffffff, .write = bar_chan_write),
    PBUS_REG(PBUS_BAR1, RW, .wmask = BAR_SEL_WMASK),
    PBUS_REG(PBUS_BAR3, RW, .wmask = BAR_SEL_WMASK),
    PBUS_REG(PBUS_PEEPHOLE, RW, .wmask = BAR_SEL_WMASK),
    /* BAR1 remapping (envytools pbus.rst "REMAP"): stored, not applied. */
    { .name = "PBUS_REMAP", .offset = NV_PBUS_REMAP(0) - 0x001000,
      .count = NV_PBUS_REMAPS, .access = GPU_REG_RW },
};

const NvRegBlock nv_pbus_block =
    NV_REG_BLOCK("PBUS", 0x001000, 0x1000, pbus_regs);
