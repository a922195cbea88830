/*
 * intel-gpu interrupt registers.
 *
 * Nothing raises an interrupt yet: the registers exist with their hardware
 * access semantics (identity and IIRs write-1-to-clear, reading 0 at rest,
 * as i915 asserts at install), and the output stays low.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-gpu.h"

#define IRQ_RW(n, off) { .name = n, .offset = off, .access = INTEL_REG_RW }
#define IRQ_W1C(n, off) { .name = n, .offset = off, .access = INTEL_REG_W1C }
#define IRQ_RO(n, off) { .name = n, .offset = off, .access = INTEL_REG_RO }

static const IntelReg irq_regs[] = {
    IRQ_RW("GFX_MSTR_IRQ", INTEL_GFX_MSTR_IRQ),
    { .name = "GT_INTR_DW", .offset = INTEL_GT_INTR_DW(0), .count = 2,
      .access = INTEL_REG_W1C },
    { .name = "INTR_IDENTITY_REG", .offset = INTEL_INTR_IDENTITY_REG(0),
      .count = 2, .access = INTEL_REG_W1C },
    { .name = "IIR_REG_SELECTOR", .offset = INTEL_IIR_REG_SELECTOR(0),
      .count = 2, .access = INTEL_REG_RW },
    /* Engine enables 0x190030-0x190040 and masks 0x190090-0x1900F0. */
    { .name = "GT_INTR_ENABLE", .offset = 0x190030, .count = 5,
      .access = INTEL_REG_RW },
    { .name = "GT_INTR_MASK", .offset = 0x190090, .count = 25,
      .access = INTEL_REG_RW, .reset = 0xffffffff },
    IRQ_RW("DISPLAY_INT_CTL", INTEL_DISPLAY_INT_CTL),
    IRQ_RO("PCU_ISR", INTEL_PCU_ISR),
    IRQ_RW("PCU_IMR", INTEL_PCU_IMR),
    IRQ_W1C("PCU_IIR", INTEL_PCU_IIR),
    IRQ_RW("PCU_IER", INTEL_PCU_IER),
    IRQ_RO("GU_MISC_ISR", INTEL_GU_MISC_ISR),
    IRQ_RW("GU_MISC_IMR", INTEL_GU_MISC_IMR),
    IRQ_W1C("GU_MISC_IIR", INTEL_GU_MISC_IIR),
    IRQ_RW("GU_MISC_IER", INTEL_GU_MISC_IER),
    IRQ_RO("SDE_ISR", INTEL_SDE_ISR),
    IRQ_RW("SDE_IMR", INTEL_SDE_IMR),
    IRQ_W1C("SDE_IIR", INTEL_SDE_IIR),
    IRQ_RW("SDE_IER", INTEL_SDE_IER),
};

const IntelRegBlock intel_irq_block = {
    .name = "irq",
    .regs = irq_regs,
    .nregs = G_N_ELEMENTS(irq_regs),
};
