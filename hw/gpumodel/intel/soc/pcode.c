/*
 * intel-gpu PCODE mailbox: software's channel to the power-management
 * firmware.  Software writes DATA/DATA1, then MAILBOX with READY (bit 31)
 * and a command, and polls for READY to clear; bits 7:0 then hold the
 * status.  The model answers at once.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../intel-gpu-int.h"

/*
 * Commands i915 sends to a Gen11 GT without display.  The firmware's
 * answer to a read is DATA; 0 is a valid "nothing configured" for both.
 */
static bool pcode_known(uint32_t cmd)
{
    switch (cmd) {
    case INTEL_PCODE_WRITE_MIN_FREQ_TABLE:
    case INTEL_PCODE_DYNAMIC_DUTY_CYCLE:
        return true;
    }
    return false;
}

static void pcode_mailbox_write(IntelGpu *gpu, const IntelRegBinding *b,
                                uint32_t offset, uint32_t old)
{
    uint32_t mbox = intel_reg_get(gpu, offset);
    uint32_t cmd = GPU_FIELD_EX32(mbox, INTEL_PCODE_MAILBOX, CMD);
    uint32_t status = 0;

    if (!(mbox & INTEL_PCODE_READY)) {
        return;
    }
    if (old & INTEL_PCODE_READY) {
        /* Real firmware would still be busy; we never are. */
        gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                     "PCODE mailbox written while busy (0x%08x)", mbox);
    }
    if (pcode_known(cmd)) {
        if (cmd == INTEL_PCODE_DYNAMIC_DUTY_CYCLE) {
            intel_reg_set(gpu, INTEL_PCODE_DATA, 0);
            intel_reg_set(gpu, INTEL_PCODE_DATA1, 0);
        }
    } else {
        gpu_host_log(&gpu->host, GPU_LOG_UNIMP,
                     "PCODE command 0x%02x (mailbox 0x%08x) refused",
                     cmd, mbox);
        status = INTEL_PCODE_ERR_ILLEGAL_CMD;
    }
    intel_reg_set(gpu, offset, GPU_FIELD_DP32(mbox & ~INTEL_PCODE_READY,
                                              INTEL_PCODE_MAILBOX, CMD,
                                              status));
}

static const IntelReg pcode_regs[] = {
    INTEL_REG(PCODE_MAILBOX, RW, .write = pcode_mailbox_write),
    INTEL_REG(PCODE_DATA, RW),
    INTEL_REG(PCODE_DATA1, RW),
};

const IntelRegBlock intel_pcode_block = INTEL_REG_BLOCK("pcode", pcode_regs);
