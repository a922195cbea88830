/*
 * intel-gpu display engine: fused off.
 *
 * SKL_DFSM disables pipes A, B and C, so i915 sees no display
 * (HAS_DISPLAY() false) and skips display initialisation.  The few display
 * registers it still touches behave as on hardware whose display power
 * wells simply come up when asked: FPGA_DBG clean, power-well state follows
 * the request, the power-gate fuses report "distributed".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../intel-gpu-int.h"

#define DFSM_NO_DISPLAY (INTEL_DFSM_PIPE_A_DISABLE | \
                         INTEL_DFSM_PIPE_B_DISABLE | \
                         INTEL_DFSM_PIPE_C_DISABLE)

/* Fuse download done (bit 31), power gates PG0..PG4 ready (bits 27:23). */
#define FUSE_STATUS_ALL_PG 0x8F800000u

/*
 * HSW_PWR_WELL_CTL*: well n has REQUEST at bit 2n+1 and STATE at bit 2n;
 * the state follows the request.
 */
#define PWR_WELL_REQ_BITS 0xAAAAAAAAu

static uint32_t pwr_well_read(IntelGpu *gpu, const IntelRegBinding *b,
                              uint32_t offset)
{
    uint32_t req = intel_reg_get(gpu, offset) & PWR_WELL_REQ_BITS;

    return req | (req >> 1);
}

static void pwr_well_write(IntelGpu *gpu, const IntelRegBinding *b,
                           uint32_t offset, uint32_t old)
{
    intel_reg_set(gpu, offset, intel_reg_get(gpu, offset) & PWR_WELL_REQ_BITS);
}

/* Each request/status register and its BIOS, KVMR and debug copies. */
#define PWR_WELL(nm) \
    INTEL_REG(nm, RW, .count = 4, .read = pwr_well_read, \
              .write = pwr_well_write)
#define INTEL_PWR_WELL_CTL      INTEL_PWR_WELL_CTL1
#define INTEL_PWR_WELL_CTL_AUX  INTEL_PWR_WELL_CTL_AUX1
#define INTEL_PWR_WELL_CTL_DDI  INTEL_PWR_WELL_CTL_DDI1

static const IntelReg display_regs[] = {
    INTEL_REG(SKL_DFSM, RO, .reset = DFSM_NO_DISPLAY),
    INTEL_REG(SKL_FUSE_STATUS, RO, .reset = FUSE_STATUS_ALL_PG),
    /* No unclaimed access is ever flagged: bit 31 stays clear. */
    INTEL_REG(FPGA_DBG, W1C),
    PWR_WELL(PWR_WELL_CTL),
    PWR_WELL(PWR_WELL_CTL_AUX),
    PWR_WELL(PWR_WELL_CTL_DDI),
    INTEL_REG(DC_STATE_EN, RW),
};

const IntelRegBlock intel_display_block =
    INTEL_REG_BLOCK("display", display_regs);
