/*
 * intel-gpu GT-wide control: graphics domain reset (GDRST), TLB
 * invalidation, fault and idle-message reporting, GuC status and WOPCM.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-gpu-int.h"

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

#define TLB_INVAL(nm, klass) \
    INTEL_REG(nm, RW, .aux = klass, .write = tlb_inval_write)

static const IntelReg gt_regs[] = {
    INTEL_REG(GDRST, RW, .write = gdrst_write),
    TLB_INVAL(RTCR, INTEL_CLASS_RENDER),
    TLB_INVAL(M1TCR, INTEL_CLASS_VIDEO),
    TLB_INVAL(M2TCR, INTEL_CLASS_VIDEO),
    TLB_INVAL(BTCR, INTEL_CLASS_COPY),
    TLB_INVAL(VTCR, INTEL_CLASS_VIDEO_ENHANCE),
    /*
     * Set by an engine's page fault (cs.c).  i915 clears the valid bit
     * with a read-modify-write that writes it as 0 (intel_gt.c:
     * intel_gt_clear_error_registers()), so the register is plain RW.
     */
    INTEL_REG(RING_FAULT_REG, RW),
    INTEL_REG(FAULT_TLB_DATA0, RO),
    INTEL_REG(FAULT_TLB_DATA1, RO),
    /* No message to the command streamers is ever pending. */
    INTEL_REG(MSG_IDLE_CS, RO),
    INTEL_REG(MSG_IDLE_BCS, RO),
    INTEL_REG(GAMW_ECO_DEV_RW_IA, RW),
    /*
     * No GuC firmware runs: its microcontroller stays in reset (i915 checks
     * after a GuC domain reset) and its WOPCM is not locked (bit 0 clear).
     */
    INTEL_REG(GUC_STATUS, RO, .reset = INTEL_GUC_STATUS_MIA_IN_RESET),
    INTEL_REG(GUC_WOPCM_SIZE, RW),
    INTEL_REG(DMA_GUC_WOPCM_OFFSET, RW),
};

const IntelRegBlock intel_gt_block = INTEL_REG_BLOCK("gt", gt_regs);
