/*
 * nv-gpu PSTRAPS: the board straps (envytools docs/hw/io/pstraps.rst).
 * nouveau takes the crystal from them
 * (drivers/gpu/drm/nouveau/nvkm/engine/device/base.c: nvkm_device_ctor,
 * NV_50 mask 0x00400040): bit 22 alone is 27 MHz, the model's PTIMER
 * source.  Bit 1: a board with its own ROM.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

static const NvReg pstraps_regs[] = {
    NV_REG(PSTRAPS, 0x101000, RO,
           .reset = NV_STRAPS_G84_CRYSTAL_27M | NV_STRAPS_G84_ROM),
};

const NvRegBlock nv_pstraps_block =
    NV_REG_BLOCK("PSTRAPS", 0x101000, 0x1000, pstraps_regs);
