/*
 * intel-gpu MCHBAR mirror (BAR0 0x140000-0x14FFFF): a read-only alias of
 * the host bridge's MCHBAR registers.  "Writes to the MCHBAR alias are not
 * allowed (writes will have no affect)" (PRM vol 13).  The registers i915
 * reads give a sane GT frequency range; the rest of the window reads 0.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-gpu.h"

/*
 * Frequencies in 50 MHz units: RP0 (max) 1100 MHz, RP1 550 MHz,
 * RPn (min) 300 MHz, as on an ICL-U GT2.
 */
#define RP0     22u
#define RP1     11u
#define RPN     6u

static const IntelReg mchbar_regs[] = {
    { .name = "MCHBAR_MIRROR", .offset = INTEL_MCHBAR_MIRROR_BASE,
      .count = INTEL_MCHBAR_MIRROR_SIZE / 4, .access = INTEL_REG_RO,
      .range = true },
    { .name = "RP_STATE_CAP", .offset = INTEL_RP_STATE_CAP,
      .access = INTEL_REG_RO, .reset = RP0 | RP1 << 8 | RPN << 16 },
    /* DDR data rate in 266.67 MT/s units (bits 3:0): DDR4-2400. */
    { .name = "DCLK", .offset = INTEL_DCLK, .access = INTEL_REG_RO,
      .reset = 9 },
    { .name = "FREQ_INFO_REC", .offset = INTEL_FREQ_INFO_REC,
      .access = INTEL_REG_RO, .reset = RP1 << 8 },
};

const IntelRegBlock intel_mchbar_block = {
    .name = "mchbar",
    .regs = mchbar_regs,
    .nregs = G_N_ELEMENTS(mchbar_regs),
};
