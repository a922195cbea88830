/*
 * nv-gpu PPCI (envytools ppci): the window in BAR0 onto the card's PCI
 * configuration space, which nouveau uses on G84 instead of config cycles
 * (drivers/gpu/drm/nouveau/nvkm/subdev/pci/nv40.c: nv40_pci_rd32/wr32)
 * for the ROM shadow bit (0x50) and the PCIe capability (0x7c, 0x80,
 * 0x88, 0x41c, 0x460).  Not connected to the host's configuration space:
 * reads 0 - no ExtTag, link speed field 0, so nouveau changes nothing -
 * and writes are kept here only.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

static const NvReg ppci_regs[] = {
    { .name = "PPCI_CONFIG", .offset = 0, .count = NV_PPCI_CONFIG_WORDS,
      .access = GPU_REG_WO },
};

const NvRegBlock nv_ppci_block =
    NV_REG_BLOCK("PPCI", 0x088000, 0x1000, ppci_regs);
