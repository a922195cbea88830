/*
 * intel-gpu model life cycle: configuration, the list of register blocks,
 * creation and reset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-gpu-int.h"

/* Earlier blocks may describe ranges that later ones refine. */
static const IntelRegBlock *const intel_blocks[] = {
    &intel_ranges_block,
    &intel_mchbar_block,
    &intel_forcewake_block,
    &intel_fuse_block,
    &intel_pcode_block,
    &intel_display_block,
    &intel_irq_block,
    &intel_gt_block,
    &intel_engine_block,
    &intel_bcs_block,
    &intel_rcs_block,
    &intel_ggtt_block,
    &intel_oa_block,
    &intel_rps_block,
    &intel_rc6_block,
};

/* Gen11 PCI IDs (i915_pciids.h INTEL_ICL_11_IDS). */
static const uint16_t icl_device_ids[] = {
    0x8A50, 0x8A51, 0x8A52, 0x8A53, 0x8A54, 0x8A56, 0x8A57, 0x8A58,
    0x8A59, 0x8A5A, 0x8A5B, 0x8A5C, 0x8A5D, 0x8A70, 0x8A71,
};

bool intel_gpu_config_check(const IntelGpuConfig *cfg, char **err)
{
    bool id_ok = false;

    for (unsigned i = 0; i < G_N_ELEMENTS(icl_device_ids); i++) {
        id_ok |= cfg->device_id == icl_device_ids[i];
    }
    if (!id_ok) {
        *err = g_strdup_printf("device-id 0x%04x is not an Ice Lake GT "
                               "(0x8a50-0x8a5d, 0x8a70, 0x8a71)",
                               cfg->device_id);
    } else if (cfg->slices != 1) {
        *err = g_strdup_printf("slices=%u: a Gen11 GT has one slice",
                               cfg->slices);
    } else if (cfg->subslices < 1 || cfg->subslices > 8) {
        *err = g_strdup_printf("subslices=%u: must be 1 to 8",
                               cfg->subslices);
    } else if (cfg->eus_per_subslice < 1 || cfg->eus_per_subslice > 8) {
        *err = g_strdup_printf("eus-per-subslice=%u: must be 1 to 8",
                               cfg->eus_per_subslice);
    } else if (cfg->vdbox_mask > 0xf) {
        *err = g_strdup_printf("vdbox-mask=0x%x: Gen11 has VCS0-VCS3 "
                               "(mask 0x0-0xf)", cfg->vdbox_mask);
    } else if (cfg->vebox_mask > 0x3) {
        *err = g_strdup_printf("vebox-mask=0x%x: Gen11 has VECS0-VECS1 "
                               "(mask 0x0-0x3)", cfg->vebox_mask);
    } else if (cfg->stolen_mb % 32 || cfg->stolen_mb > 0xEF * 32) {
        /* GMS encodes 0x00-0xEF as that many 32 MiB units. */
        *err = g_strdup_printf("stolen-mb=%u: must be a multiple of 32 "
                               "up to %u", cfg->stolen_mb, 0xEF * 32);
    } else {
        return true;
    }
    return false;
}

IntelGpu *intel_gpu_new(const IntelGpuConfig *cfg, const GpuHost *host)
{
    IntelGpu *gpu = g_new0(IntelGpu, 1);

    gpu->cfg = *cfg;
    gpu->host = *host;
    intel_mmio_init(gpu, intel_blocks, G_N_ELEMENTS(intel_blocks));
    gpu->gsm = g_malloc0(INTEL_GSM_SIZE);
    intel_irq_init(gpu);
    /* Subscribers to GT events run in this order (core/events.c). */
    intel_engines_init(gpu);
    intel_rc6_init(gpu);
    intel_oa_init(gpu);
    intel_gpu_reset(gpu);
    return gpu;
}

void intel_gpu_free(IntelGpu *gpu)
{
    if (gpu) {
        intel_oa_fini(gpu);
        intel_engines_fini(gpu);
        intel_irq_fini(gpu);
        intel_mmio_fini(gpu);
        g_free(gpu->gsm);
        g_free(gpu);
    }
}

void intel_gpu_reset(IntelGpu *gpu)
{
    intel_mmio_reset(gpu);
    intel_irq_reset(gpu);
    intel_ggtt_reset(gpu);
    intel_oa_reset(gpu);
    intel_rps_reset(gpu);
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        intel_cs_reset(&gpu->engine[i]);
        intel_execlists_reset(&gpu->engine[i]);
        gpu->engine[i].stats = (IntelCsStats) { 0 };
    }
    intel_rc6_reset(gpu);
}

/*
 * After the state was loaded from a migration stream: reject values the
 * model could not have produced (the stream is as untrusted as the guest)
 * and drop caches of what was loaded.
 */
bool intel_gpu_post_load(IntelGpu *gpu, char **err)
{
    /* First: the timestamp frequency depends on it. */
    if (!intel_fuse_post_load(gpu, err)) {
        return false;
    }
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        if (!intel_cs_post_load(&gpu->engine[i], err) ||
            !intel_execlists_post_load(&gpu->engine[i], err)) {
            return false;
        }
    }
    return intel_rps_post_load(gpu, err) && intel_oa_post_load(gpu, err) &&
           intel_rc6_post_load(gpu, err);
}
