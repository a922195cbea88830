/*
 * intel-gpu GT-wide control: graphics domain reset (GDRST), TLB
 * invalidation, fault and idle-message reporting, GuC status and WOPCM.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-gpu.h"

/* GDRST domain bit of each engine. */
static const uint32_t engine_domain[INTEL_ENGINE_COUNT] = {
    [INTEL_RCS0] = INTEL_GRDOM_RENDER,
    [INTEL_BCS0] = INTEL_GRDOM_BLT,
    [INTEL_VCS0] = INTEL_GRDOM_MEDIA(0),
    [INTEL_VCS1] = INTEL_GRDOM_MEDIA(1),
    [INTEL_VCS2] = INTEL_GRDOM_MEDIA(2),
    [INTEL_VCS3] = INTEL_GRDOM_MEDIA(3),
    [INTEL_VECS0] = INTEL_GRDOM_VECS(0),
    [INTEL_VECS1] = INTEL_GRDOM_VECS(1),
};

/* The reset completes at once, so the requested bits self-clear. */
static void gdrst_write(IntelGpu *gpu, const IntelRegBinding *b,
                        uint32_t offset, uint32_t old)
{
    uint32_t req = intel_reg_get(gpu, offset);

    for (unsigned id = 0; id < INTEL_ENGINE_COUNT; id++) {
        if (req & (INTEL_GRDOM_FULL | engine_domain[id])) {
            intel_engine_reset(gpu, id);
        }
    }
    intel_reg_set(gpu, offset, 0);
}

/*
 * TLB invalidation of one engine class: bit n drops the cached PPGTT
 * translations of instance n.  It completes at once, so the bits
 * self-clear.
 */
static void tlb_inval_write(IntelGpu *gpu, const IntelRegBinding *b,
                            uint32_t offset, uint32_t old)
{
    uint32_t v = intel_reg_get(gpu, offset);

    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        IntelEngine *e = &gpu->engine[i];

        if (e->klass == b->reg->aux && (v & (1u << e->instance))) {
            intel_ppgtt_flush(e);
        }
    }
    intel_reg_set(gpu, offset, 0);
}

#define TLB_INVAL(n, off, klass) \
    { .name = n, .offset = off, .access = INTEL_REG_RW, .aux = klass, \
      .write = tlb_inval_write }

static const IntelReg gt_regs[] = {
    { .name = "GDRST", .offset = INTEL_GDRST, .access = INTEL_REG_RW,
      .write = gdrst_write },
    TLB_INVAL("RTCR", INTEL_RTCR, INTEL_CLASS_RENDER),
    TLB_INVAL("M1TCR", INTEL_M1TCR, INTEL_CLASS_VIDEO),
    TLB_INVAL("M2TCR", INTEL_M2TCR, INTEL_CLASS_VIDEO),
    TLB_INVAL("BTCR", INTEL_BTCR, INTEL_CLASS_COPY),
    TLB_INVAL("VTCR", INTEL_VTCR, INTEL_CLASS_VIDEO_ENHANCE),
    /*
     * Set by an engine's page fault (cs.c).  i915 clears the valid bit
     * with a read-modify-write that writes it as 0 (intel_gt.c:
     * intel_gt_clear_error_registers()), so the register is plain RW.
     */
    { .name = "RING_FAULT_REG", .offset = INTEL_RING_FAULT_REG,
      .access = INTEL_REG_RW },
    { .name = "FAULT_TLB_DATA0", .offset = INTEL_FAULT_TLB_DATA0,
      .access = INTEL_REG_RO },
    { .name = "FAULT_TLB_DATA1", .offset = INTEL_FAULT_TLB_DATA1,
      .access = INTEL_REG_RO },
    /* No message to the command streamers is ever pending. */
    { .name = "MSG_IDLE_CS", .offset = INTEL_MSG_IDLE_CS,
      .access = INTEL_REG_RO },
    { .name = "MSG_IDLE_BCS", .offset = INTEL_MSG_IDLE_BCS,
      .access = INTEL_REG_RO },
    { .name = "GAMW_ECO_DEV_RW_IA", .offset = INTEL_GAMW_ECO_DEV_RW_IA,
      .access = INTEL_REG_RW },
    /*
     * No GuC firmware runs: its microcontroller stays in reset (i915 checks
     * after a GuC domain reset) and its WOPCM is not locked (bit 0 clear).
     */
    { .name = "GUC_STATUS", .offset = INTEL_GUC_STATUS,
      .access = INTEL_REG_RO, .reset = INTEL_GUC_STATUS_MIA_IN_RESET },
    { .name = "GUC_WOPCM_SIZE", .offset = INTEL_GUC_WOPCM_SIZE,
      .access = INTEL_REG_RW },
    { .name = "DMA_GUC_WOPCM_OFFSET", .offset = INTEL_DMA_GUC_WOPCM_OFFSET,
      .access = INTEL_REG_RW },
};

const IntelRegBlock intel_gt_block = {
    .name = "gt",
    .regs = gt_regs,
    .nregs = G_N_ELEMENTS(gt_regs),
};
