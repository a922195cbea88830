/*
 * nv-gpu PNVIO and PIOCLOCK (envytools pnvio, g80-pioclock; one 4 KiB
 * window): the GPIO interrupt registers nouveau's nv50 GPIO code
 * (drivers/gpu/drm/nouveau/nvkm/subdev/gpio/nv50.c) masks and acks at
 * fini, and the reference PLL its clock code reads.  The board has no
 * GPIO lines in use (the VBIOS has no GPIO table), so nothing is ever
 * pending.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

#define PNVIO_REG(nm, acc, ...) NV_REG(nm, 0x00e000, acc, __VA_ARGS__)

static const NvReg pnvio_regs[] = {
    PNVIO_REG(PNVIO_GPIO_INTR_EN, RW),
    PNVIO_REG(PNVIO_GPIO_INTR, WO),
    PNVIO_REG(PNVIO_UNK18C, RW),
    PNVIO_REG(PIOCLOCK_REF_PLL, RO),
};

const NvRegBlock nv_pnvio_block =
    NV_REG_BLOCK("PNVIO", 0x00e000, 0x1000, pnvio_regs);
