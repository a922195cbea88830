/*
 * nv-gpu PTHERM and PFUSE (envytools ptherm, pfuse): the board has no
 * internal temperature sensor - PFUSE 0x1a8 reads 0, so nouveau's
 * g84_temp_get (drivers/gpu/drm/nouveau/nvkm/subdev/therm/g84.c) reports
 * none and never enables the sensor - and no fan control.  PTHERM keeps
 * what nouveau writes and raises no interrupt.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

#define PTHERM_REG(nm, acc, ...) NV_REG(nm, 0x020000, acc, __VA_ARGS__)

static const NvReg ptherm_regs[] = {
    PTHERM_REG(PTHERM_UNK000, RW),
    PTHERM_REG(PTHERM_INTR, WO),
    { .name = "PTHERM_UNK400", .offset = NV_PTHERM_UNK400(0) - 0x020000,
      .count = NV_PTHERM_UNK400S, .access = GPU_REG_RW },
};

const NvRegBlock nv_ptherm_block =
    NV_REG_BLOCK("PTHERM", 0x020000, 0x1000, ptherm_regs);

/* Every fuse reads 0 (read through nv50_fuse_read, nvkm/subdev/fuse). */
static const NvReg pfuse_regs[] = {
    { .name = "PFUSE", .offset = 0, .count = NV_PFUSE_WORDS,
      .access = GPU_REG_RO },
};

const NvRegBlock nv_pfuse_block =
    NV_REG_BLOCK("PFUSE", 0x021000, 0x1000, pfuse_regs);
