/*
 * What the intel-gpu unit tests share: the default configuration and the
 * register sequences stock i915 uses on the interrupt tree
 * (drivers/gpu/drm/i915/gt/intel_gt_irq.c, i915_irq.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_INTEL_I915_H
#define TESTS_UNIT_INTEL_I915_H

#include "intel/intel-gpu-int.h"

/* An ICL GT2 as `-device intel-gpu` makes it by default. */
static const IntelGpuConfig intel_test_cfg = {
    .device_id = INTEL_GPU_DEVICE_ID_ICL_GT2,
    .slices = 1, .subslices = 8, .eus_per_subslice = 8,
};

static inline void i915_wr(IntelGpu *gpu, uint32_t off, uint32_t val)
{
    intel_mmio_write(gpu, off, val, 0xffffffff);
}

/* gen11_gt_irq_postinstall and the master enable: engine bits 0, 3, 8, 11. */
static inline void i915_irq_postinstall(IntelGpu *gpu)
{
    uint32_t irqs = INTEL_GT_RENDER_USER_INTERRUPT | INTEL_GT_CONTEXT_SWITCH |
                    INTEL_GT_CS_MASTER_ERROR | INTEL_GT_WAIT_SEMAPHORE;

    i915_wr(gpu, INTEL_RENDER_COPY_INTR_ENABLE, irqs << 16 | irqs);
    i915_wr(gpu, INTEL_VCS_VECS_INTR_ENABLE, irqs << 16 | irqs);
    i915_wr(gpu, INTEL_RCS0_RSVD_INTR_MASK, ~(irqs << 16));
    i915_wr(gpu, INTEL_BCS_RSVD_INTR_MASK, ~(irqs << 16));
    i915_wr(gpu, INTEL_VCS_INTR_MASK(0), ~(irqs << 16 | irqs));
    i915_wr(gpu, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
}

/* gen11_gt_bank_handler for one GT INT DW bit; returns the identity. */
static inline uint32_t i915_service_bit(IntelGpu *gpu, unsigned bank,
                                        unsigned bit)
{
    uint32_t id;

    i915_wr(gpu, INTEL_IIR_REG_SELECTOR(bank), 1u << bit);
    id = intel_mmio_read(gpu, INTEL_INTR_IDENTITY_REG(bank));
    i915_wr(gpu, INTEL_INTR_IDENTITY_REG(bank), INTEL_INTR_DATA_VALID);
    return id;
}

#endif
