/*
 * intel-gpu MCHBAR mirror (BAR0 0x140000-0x14FFFF): a read-only alias of
 * the host bridge's MCHBAR registers.  "Writes to the MCHBAR alias are not
 * allowed (writes will have no affect)" (PRM vol 13).  The registers i915
 * reads give a sane GT frequency range; the rest of the window reads 0.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../intel-gpu-int.h"

/*
 * Frequencies in 50 MHz units: RP0 (max) 1100 MHz, RP1 550 MHz,
 * RPn (min) 300 MHz, as on an ICL-U GT2.
 */
#define RP0     22u
#define RP1     11u
#define RPN     6u

#define INTEL_MCHBAR_MIRROR INTEL_MCHBAR_MIRROR_BASE

static const IntelReg mchbar_regs[] = {
    INTEL_REG(MCHBAR_MIRROR, RO, .count = INTEL_MCHBAR_MIRROR_SIZE / 4,
              .range = true),
    INTEL_REG(RP_STATE_CAP, RO, .reset = RP0 | RP1 << 8 | RPN << 16),
    /* DDR data rate in 266.67 MT/s units (bits 3:0): DDR4-2400. */
    INTEL_REG(DCLK, RO, .reset = 9),
    INTEL_REG(FREQ_INFO_REC, RO, .reset = RP1 << 8),
};

const IntelRegBlock intel_mchbar_block = INTEL_REG_BLOCK("mchbar", mchbar_regs);
