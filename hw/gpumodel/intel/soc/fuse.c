/*
 * intel-gpu fuses and straps: GT topology (slices, subslices, EUs), the
 * media engines present, and the crystal the command-streamer timestamp
 * runs from.  All read-only; the topology comes from the device's
 * properties.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../intel-gpu-int.h"

/*
 * RPM_CONFIG0: crystal select 0 (24 MHz), CTC shift 2, so the command
 * streamer timestamp counts at 24 MHz >> (3 - 2) = 12 MHz.
 */
#define RPM_CONFIG0_ICL \
    GPU_FIELD_DP32(GPU_FIELD_DP32(0, INTEL_RPM_CONFIG0, CRYSTAL, 0), \
                   INTEL_RPM_CONFIG0, CTC, 2)

static uint32_t fuse_low_mask(unsigned n)
{
    return n >= 32 ? ~0u : (1u << n) - 1;
}

/* GMCH Graphics Control: 8 MiB of GGTT (4 GiB of address space), GMS. */
uint16_t intel_gpu_ggc(const IntelGpuConfig *cfg)
{
    uint32_t ggc = GPU_FIELD_DP32(0, INTEL_PCI_MGGC0, GGMS,
                                  INTEL_GGC_GGMS_8M);

    return GPU_FIELD_DP32(ggc, INTEL_PCI_MGGC0, GMS, cfg->stolen_mb / 32);
}

static uint32_t fuse_read(IntelGpu *gpu, const IntelRegBinding *b,
                          uint32_t offset)
{
    const IntelGpuConfig *c = &gpu->cfg;

    switch (offset) {
    case INTEL_GT_SLICE_ENABLE:
        return fuse_low_mask(c->slices);
    case INTEL_GT_SUBSLICE_DISABLE:
        return ~fuse_low_mask(c->subslices) & 0xff;
    case INTEL_EU_DISABLE:
        return ~fuse_low_mask(c->eus_per_subslice) & 0xff;
    case INTEL_GT_VEBOX_VDBOX_DISABLE:
        /* Gen11 fuses disable: bit n of 7:0 VCSn, of 19:16 VECSn. */
        return (~c->vdbox_mask & 0xffu) | ((~c->vebox_mask & 0xfu) << 16);
    case INTEL_GGC_MIRROR:
        return intel_gpu_ggc(c);
    }
    return intel_reg_get(gpu, offset);
}

#define FUSE(nm) INTEL_REG(nm, RO, .read = fuse_read)

static const IntelReg fuse_regs[] = {
    INTEL_REG(RPM_CONFIG0, RO, .reset = RPM_CONFIG0_ICL),
    /* CTC_MODE: 0 selects the crystal, not GEN9_TIMESTAMP_OVERRIDE. */
    INTEL_REG(CTC_MODE, RW),
    /* All L3 banks present. */
    INTEL_REG(MIRROR_FUSE3, RO),
    FUSE(EU_DISABLE),
    FUSE(GT_SLICE_ENABLE),
    FUSE(GT_SUBSLICE_DISABLE),
    FUSE(GT_VEBOX_VDBOX_DISABLE),
    FUSE(GGC_MIRROR),
    /* Multicast steering: software selects, the model has one copy. */
    INTEL_REG(MCR_SELECTOR, RW),
    INTEL_REG(EDRAM_CAP, RO),
};

const IntelRegBlock intel_fuse_block = INTEL_REG_BLOCK("fuse", fuse_regs);

/* Command-streamer timestamp frequency, as i915 derives it from RPM_CONFIG0. */
uint32_t intel_cs_timestamp_hz(IntelGpu *gpu)
{
    static const uint32_t crystal_hz[] = {
        24000000, 19200000, 38400000, 25000000,
    };
    uint32_t v = intel_reg_get(gpu, INTEL_RPM_CONFIG0);
    uint32_t crystal = GPU_FIELD_EX32(v, INTEL_RPM_CONFIG0, CRYSTAL);
    uint32_t shift = GPU_FIELD_EX32(v, INTEL_RPM_CONFIG0, CTC);

    /* A read-only strap: only a migration stream could change it. */
    g_assert(crystal < G_N_ELEMENTS(crystal_hz));
    return crystal_hz[crystal] >> (3 - shift);
}

/*
 * The whole register file is migrated, straps included.  Nothing in the
 * model writes RPM_CONFIG0, so a stream with another value was not made
 * by it: refuse it rather than map a reserved crystal select (4-7) to a
 * frequency i915 does not know either (gen11_get_crystal_clock_freq()).
 */
bool intel_fuse_post_load(IntelGpu *gpu, char **err)
{
    uint32_t v = intel_reg_get(gpu, INTEL_RPM_CONFIG0);

    if (v != RPM_CONFIG0_ICL) {
        *err = g_strdup_printf("RPM_CONFIG0 0x%x, not the strap 0x%x", v,
                               RPM_CONFIG0_ICL);
        return false;
    }
    return true;
}
