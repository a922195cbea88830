/*
 * intel-gpu command streamers: the per-engine register window.
 *
 * Every engine has the same registers at its own base.  Rings do not run
 * yet: an engine is always idle, so MI_MODE reports MODE_IDLE and a reset
 * request is ready at once.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-gpu.h"

/* In the order of IntelEngineId. */
static const uint32_t engine_bases[INTEL_ENGINE_COUNT] = {
    [INTEL_RCS0] = INTEL_RCS0_BASE,
    [INTEL_BCS0] = INTEL_BCS0_BASE,
    [INTEL_VCS0] = INTEL_VCS0_BASE,
    [INTEL_VCS1] = INTEL_VCS1_BASE,
    [INTEL_VCS2] = INTEL_VCS2_BASE,
    [INTEL_VCS3] = INTEL_VCS3_BASE,
    [INTEL_VECS0] = INTEL_VECS0_BASE,
    [INTEL_VECS1] = INTEL_VECS1_BASE,
};

static uint32_t mi_mode_read(IntelGpu *gpu, const IntelRegBinding *b,
                             uint32_t offset)
{
    return intel_reg_get(gpu, offset) | INTEL_MI_MODE_IDLE;
}

static void mi_mode_write(IntelGpu *gpu, const IntelRegBinding *b,
                          uint32_t offset, uint32_t old)
{
    /* MODE_IDLE is status, not storage. */
    intel_reg_set(gpu, offset,
                  intel_reg_get(gpu, offset) & ~INTEL_MI_MODE_IDLE);
}

static uint32_t reset_ctl_read(IntelGpu *gpu, const IntelRegBinding *b,
                               uint32_t offset)
{
    uint32_t v = intel_reg_get(gpu, offset);

    /* An idle engine is ready to reset as soon as software asks. */
    if (v & INTEL_RESET_CTL_REQUEST_RESET) {
        v |= INTEL_RESET_CTL_READY_TO_RESET;
    }
    return v;
}

static void reset_ctl_write(IntelGpu *gpu, const IntelRegBinding *b,
                            uint32_t offset, uint32_t old)
{
    intel_reg_set(gpu, offset,
                  intel_reg_get(gpu, offset) & INTEL_RESET_CTL_REQUEST_RESET);
}

static uint32_t timestamp_read(IntelGpu *gpu, const IntelRegBinding *b,
                               uint32_t offset)
{
    uint64_t ns = gpu_host_now_ns(&gpu->host);
    uint64_t hz = intel_cs_timestamp_hz(gpu);
    uint64_t ticks = ns / 1000000000u * hz + ns % 1000000000u * hz / 1000000000u;

    return b->reg->aux ? ticks >> 32 : (uint32_t)ticks;
}

#define ENG(n, off, acc) { .name = n, .offset = off, .access = acc }

static const IntelReg engine_regs[] = {
    ENG("RING_PGTBL_ER", 0x024, INTEL_REG_W1C),
    ENG("RING_TAIL", INTEL_RING_TAIL, INTEL_REG_RW),
    ENG("RING_HEAD", INTEL_RING_HEAD, INTEL_REG_RW),
    ENG("RING_START", INTEL_RING_START, INTEL_REG_RW),
    ENG("RING_CTL", INTEL_RING_CTL, INTEL_REG_RW),
    ENG("RING_IPEIR", 0x064, INTEL_REG_W1C),
    ENG("RING_HWS_PGA", INTEL_RING_HWS_PGA, INTEL_REG_RW),
    ENG("RING_HWSTAM", INTEL_RING_HWSTAM, INTEL_REG_RW),
    { .name = "RING_MI_MODE", .offset = INTEL_RING_MI_MODE,
      .access = INTEL_REG_MASKED, .read = mi_mode_read,
      .write = mi_mode_write },
    ENG("RING_EIR", INTEL_RING_EIR, INTEL_REG_W1C),
    { .name = "RING_EMR", .offset = INTEL_RING_EMR, .access = INTEL_REG_RW,
      .reset = 0xffffffff },
    ENG("RING_ESR", INTEL_RING_ESR, INTEL_REG_RO),
    { .name = "RING_RESET_CTL", .offset = INTEL_RING_RESET_CTL,
      .access = INTEL_REG_MASKED, .read = reset_ctl_read,
      .write = reset_ctl_write },
    ENG("RING_EXECLIST_STATUS_LO", INTEL_RING_EXECLIST_STATUS_LO,
        INTEL_REG_RO),
    ENG("RING_EXECLIST_STATUS_HI", INTEL_RING_EXECLIST_STATUS_HI,
        INTEL_REG_RO),
    ENG("RING_MODE", INTEL_RING_MODE, INTEL_REG_MASKED),
    { .name = "RING_TIMESTAMP", .offset = INTEL_RING_TIMESTAMP,
      .access = INTEL_REG_RO, .read = timestamp_read },
    { .name = "RING_TIMESTAMP_UDW", .offset = INTEL_RING_TIMESTAMP_UDW,
      .access = INTEL_REG_RO, .aux = 1, .read = timestamp_read },
    ENG("RING_CONTEXT_STATUS_PTR", INTEL_RING_CONTEXT_STATUS_PTR,
        INTEL_REG_MASKED),
};

const IntelRegBlock intel_engine_block = {
    .name = "engine",
    .regs = engine_regs,
    .nregs = G_N_ELEMENTS(engine_regs),
    .bases = engine_bases,
    .nbases = INTEL_ENGINE_COUNT,
};

/* An engine reset returns its registers to their defaults. */
void intel_engine_reset(IntelGpu *gpu, IntelEngineId id)
{
    intel_mmio_reset_unit(gpu, &intel_engine_block, id);
}
