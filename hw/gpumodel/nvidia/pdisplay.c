/*
 * nv-gpu PRMIO and PDISPLAY (envytools g80-prmio, g80-pdisplay): the
 * display engine is present (PBUS HWUNITS_1) but drives no output (the
 * VBIOS' DCB has none), so nouveau never starts it.  What it still
 * touches: the VGA CRTC index/data bytes devinit reads to see whether the
 * card was POSTed (0: no, and the VBIOS init script is one INIT_DONE),
 * the disable writes of nv50_disp_fini, and the VBIOS shadow register
 * whose "not enabled" makes nouveau skip the PRAMIN copy of the VBIOS
 * (drivers/gpu/drm/nouveau/nvkm/subdev/bios/shadowramin.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nv-gpu-int.h"

static const NvReg prmio_regs[] = {
    NV_REG(PRMIO_CRTC, 0x601000, WO),
};

const NvRegBlock nv_prmio_block =
    NV_REG_BLOCK("PRMIO", 0x601000, 0x1000, prmio_regs);

#define PDISPLAY_REG(nm, acc, ...) NV_REG(nm, 0x610000, acc, __VA_ARGS__)

static const NvReg pdisplay_regs[] = {
    PDISPLAY_REG(PDISPLAY_UNK020, WO),
    PDISPLAY_REG(PDISPLAY_UNK024, WO),
};

const NvRegBlock nv_pdisplay_block =
    NV_REG_BLOCK("PDISPLAY", 0x610000, 0x1000, pdisplay_regs);

/* The same unit's page at 0x619000 (a window of its own: storage). */
static const NvReg pdisplay_619_regs[] = {
    NV_REG(PDISPLAY_VBIOS_SHADOW, 0x619000, RO),
};

const NvRegBlock nv_pdisplay_619_block =
    NV_REG_BLOCK("PDISPLAY", 0x619000, 0x1000, pdisplay_619_regs);
