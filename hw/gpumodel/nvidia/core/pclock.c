/*
 * nv-gpu PCLOCK and PCONTROL (envytools g80-pclock, g80-pcontrol): the
 * PLLs and clock sources nouveau's nv50_clk_read
 * (drivers/gpu/drm/nouveau/nvkm/subdev/clk/nv50.c) reads to report the
 * clocks.  The model has no PLLs: everything reads 0, which nouveau reads
 * as every domain running from the crystal (core, shader, vdec) or off
 * (memory PLL disabled); no pstate is ever programmed (the VBIOS has no
 * 'P' table).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

static const NvReg pclock_regs[] = {
    { .name = "PCLOCK_PLL", .offset = NV_PCLOCK_PLL(0) - 0x004000,
      .count = NV_PCLOCK_PLLS, .access = GPU_REG_RO },
    NV_REG(PCLOCK_VDEC_DIV, 0x004000, RO),
};

const NvRegBlock nv_pclock_block =
    NV_REG_BLOCK("PCLOCK", 0x004000, 0x1000, pclock_regs);

static const NvReg pcontrol_regs[] = {
    NV_REG(PCONTROL_MAST, 0x00c000, RO),
};

const NvRegBlock nv_pcontrol_block =
    NV_REG_BLOCK("PCONTROL", 0x00c000, 0x1000, pcontrol_regs);
