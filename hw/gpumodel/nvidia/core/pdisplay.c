/*
 * nv-gpu PRMIO and PDISPLAY (envytools rnndb/display/g80_pdisplay.xml):
 * the display engine is present (PBUS HWUNITS_1) but drives no output
 * (the VBIOS' DCB has none).  Linux 6.1's nouveau never starts it:
 * nouveau_display_create (drivers/gpu/drm/nouveau/nouveau_display.c)
 * creates the display object only when the DCB has entries.  6.12's
 * creates it anyway, to tell a headless card, and that runs
 * nv50_disp_oneinit and nv50_disp_init (nvkm/engine/disp/nv50.c, which
 * g84.c's g84_disp uses for G84, G86 and G92); it then creates no CRTC.
 * What nouveau touches:
 *
 * - the VGA CRTC index/data bytes devinit reads to see whether the card
 *   was POSTed (0: no, and the VBIOS init script is one INIT_DONE);
 * - nv50_disp_init: the capability registers it copies into the
 *   engine's own copies, OBJECTS (the engine's instance memory) and the
 *   interrupt enables; nv50_disp_oneinit reads the CLOCK_UNK04 copy for
 *   the DACs, SORs and PIORs present (nv50_dac_cnt, nv50_sor_cnt,
 *   nv50_pior_cnt);
 * - the interrupt registers nv50_disp_fini clears (both versions: a
 *   device's fini reaches every engine) and nv50_disp_intr reads;
 * - the VBIOS shadow register whose "not enabled" makes nouveau skip the
 *   PRAMIN copy of the VBIOS (nvkm/subdev/bios/shadowramin.c).
 *
 * There is no EVO behind them: the copies, OBJECTS and the enables are
 * storage, and no display interrupt is ever raised.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

static const NvReg prmio_regs[] = {
    NV_REG(PRMIO_CRTC, 0x601000, WO),
};

const NvRegBlock nv_prmio_block =
    NV_REG_BLOCK("PRMIO", 0x601000, 0x1000, prmio_regs);

#define PDISPLAY_REG(nm, acc, ...) \
    NV_REG(nm, NV_PDISPLAY_BASE, acc, __VA_ARGS__)
#define PDISPLAY_ARRAY(nm, first, n, stride_, acc) \
    { .name = #nm, .offset = (first) - NV_PDISPLAY_BASE, .count = (n), \
      .stride = (stride_), .access = GPU_REG_ ## acc }
/* One CRTC's four caps words (the CRTCs are 0x800 apart). */
#define PDISPLAY_CRTC_CAPS(i) \
    PDISPLAY_ARRAY(PDISPLAY_CRTC_CAPS, NV_PDISPLAY_CRTC_CAPS(i, 0), \
                   NV_PDISPLAY_CRTC_CAPS_WORDS, 4, RO)

/*
 * The unit's first 64 KiB as one window (envytools' PDISPLAY is 128 KiB):
 * what nouveau touches is spread over nine of its pages, and a window per
 * page would take half of NV_MAX_BLOCKS.
 */
static const NvReg pdisplay_regs[] = {
    PDISPLAY_REG(PDISPLAY_OBJECTS, RW),
    /*
     * Nothing pending, ever.  nv50_disp_init reads INTR_1 bit 8 set as a
     * display the VBIOS still drives, to be taken over through 0x6194e8:
     * 0 skips that.
     */
    PDISPLAY_REG(PDISPLAY_INTR_0, WO),
    PDISPLAY_REG(PDISPLAY_INTR_1, WO),
    PDISPLAY_REG(PDISPLAY_INTR_EN_0, RW),
    PDISPLAY_REG(PDISPLAY_INTR_EN_1, RW),
    PDISPLAY_REG(PDISPLAY_CLOCK_UNK04_COPY, RW),
    PDISPLAY_ARRAY(PDISPLAY_CRTC_CAPS_COPY, NV_PDISPLAY_CRTC_CAPS_COPY(0, 0),
                   NV_PDISPLAY_CRTCS * NV_PDISPLAY_CRTC_CAPS_WORDS, 4, RW),
    PDISPLAY_ARRAY(PDISPLAY_DAC_UNK_STATUS_COPY,
                   NV_PDISPLAY_DAC_UNK_STATUS_COPY(0), NV_PDISPLAY_DACS, 4,
                   RW),
    PDISPLAY_ARRAY(PDISPLAY_SOR_CAP_COPY, NV_PDISPLAY_SOR_CAP_COPY(0),
                   NV_PDISPLAY_SORS, 4, RW),
    PDISPLAY_ARRAY(PDISPLAY_PIOR_CAPS_COPY, NV_PDISPLAY_PIOR_CAPS_COPY(0),
                   NV_PDISPLAY_PIORS, 4, RW),
    /*
     * The capabilities: read-only, and 0, as envytools gives no value for
     * any of them.  In CLOCK_UNK04, 0 also says "no DAC, SOR or PIOR" in
     * the bits nouveau reads from its copy, so nouveau powers no output
     * resource (which a DCB without outputs has no use for); it is also
     * what nv50_disp_oneinit sees, as it reads the copy before
     * nv50_disp_init fills it.
     */
    PDISPLAY_REG(PDISPLAY_CLOCK_UNK04, RO),
    PDISPLAY_CRTC_CAPS(0),
    PDISPLAY_CRTC_CAPS(1),
    PDISPLAY_REG(PDISPLAY_VBIOS_SHADOW, RO),
    PDISPLAY_ARRAY(PDISPLAY_DAC_UNK_STATUS, NV_PDISPLAY_DAC_UNK_STATUS(0),
                   NV_PDISPLAY_DACS, 0x800, RO),
    PDISPLAY_ARRAY(PDISPLAY_SOR_CAP, NV_PDISPLAY_SOR_CAP(0),
                   NV_PDISPLAY_SORS, 0x800, RO),
    PDISPLAY_ARRAY(PDISPLAY_PIOR_CAPS, NV_PDISPLAY_PIOR_CAPS(0),
                   NV_PDISPLAY_PIORS, 0x800, RO),
};

const NvRegBlock nv_pdisplay_block =
    NV_REG_BLOCK("PDISPLAY", NV_PDISPLAY_BASE, NV_PDISPLAY_SIZE,
                 pdisplay_regs);
