/*
 * nv-gpu model: the device.  The chipset profiles, the configuration,
 * BAR0's windows and the life cycle (creation, reset, migration) of
 * every block; the register file over BAR0 is core/mmio.c's.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "nv-gpu-int.h"

/*
 * CTRL[dom] bits a chipset implements; QUAD_STATE, SINGLE_STATE and
 * FAULT_CLEAR are not storage.
 */
#define NV40_CTRL_WMASK (NV40_PC_CTRL_MODE_MASK | NV40_PC_CTRL_CTR_MODE_MASK | \
                         NV_PC_CTRL_EVENT_CTR_PERIOD_ALL | \
                         NV_PC_CTRL_EVENT_IMPORT_PULSE | \
                         NV_PC_CTRL_FLAG_IMPORT_PULSE | NV_PC_CTRL_UNK16)
#define G84_CTRL_WMASK  (NV40_CTRL_WMASK | NV_PC_CTRL_RECORD_SHORT | \
                         NV40_PC_CTRL_PERIODIC_MASK)
#define G92_CTRL_WMASK  (G84_CTRL_WMASK | NV_PC_CTRL_UNK30)

#define G84_FEATURES    (NV_PC_F_QUAD | NV_PC_F_EXTRA_MODES | NV_PC_F_RECORD | \
                         NV_PC_F_SPEC_SRC | NV_PC_F_PERIODIC | \
                         NV_PC_F_PREOP_SWAP | NV_PC_F_SETFLAG_ARG | \
                         NV_PC_F_WRCACHE)

/*
 * BOOT_0 as nouveau and envytools' parse_pmc_id decode it: chipset in
 * bits 28:20, bit 7 set (drivers/gpu/drm/nouveau/nvkm/engine/device/base.c,
 * nvkm_device_ctor).
 * PTIMER_TIME_B12 and GT215's PCOUNTER.USER pairs: envytools' G80:GF100
 * signal lists (pcounter/tesla.rst), per domain.  GT215 has every G92
 * feature (envytools' PCOUNTER version list) and the USER signals.
 */
static const NvChipset nv_chipsets[] = {
    { .name = "g84", .boot0 = 0x084000a2, .device_id = 0x0402,
      .pc_domains = 8, .pc_features = G84_FEATURES,
      .pc_block = &nv40_pcounter_block, .ctrl_wmask = G84_CTRL_WMASK,
      .op_wmask = 0x0007ffff, .ptimer_b12_sig = 0x2c },
    { .name = "g86", .boot0 = 0x086000a2, .device_id = 0x0422,
      .pc_domains = 8, .pc_features = G84_FEATURES,
      .pc_block = &nv40_pcounter_block, .ctrl_wmask = G84_CTRL_WMASK,
      .op_wmask = 0x0007ffff, .ptimer_b12_sig = 0x2c },
    { .name = "g92", .boot0 = 0x092000a2, .device_id = 0x0611,
      .pc_domains = 8,
      .pc_features = G84_FEATURES | NV_PC_F_G92_DELAY | NV_PC_F_ADDR_HIGH,
      .pc_block = &nv40_pcounter_block, .ctrl_wmask = G92_CTRL_WMASK,
      .op_wmask = 0x001fffff, .ptimer_b12_sig = 0x34 },
    { .name = "gt215", .boot0 = 0x0a3000a2, .device_id = 0x0ca3,
      .pc_domains = 8,
      .pc_features = G84_FEATURES | NV_PC_F_G92_DELAY | NV_PC_F_ADDR_HIGH |
                     NV_PC_F_USER,
      .pc_block = &nv40_pcounter_block, .ctrl_wmask = G92_CTRL_WMASK,
      .op_wmask = 0x001fffff, .ptimer_b12_sig = 0xa3,
      .user_sig = { 0x2a, 0x69, 0x9e, 0x13, 0x3b, 0x10, 0x10, 0x4f } },
};

const NvChipset *nv_chipset_find(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(nv_chipsets); i++) {
        if (!g_strcmp0(nv_chipsets[i].name, name)) {
            return &nv_chipsets[i];
        }
    }
    return NULL;
}

/* Default domain clocks (envytools tesla.rst: 0 host, 3 shader, 4 memory). */
static const uint64_t default_domain_hz[NV_PCOUNTER_DOMAINS] = {
    100000000, 500000000, 500000000, 1200000000,
    400000000, 500000000, 400000000, 500000000,
};

bool nv_gpu_config_check(const NvGpuConfig *cfg, char **err)
{
    const char *name = cfg->chipset ? cfg->chipset : "g84";

    if (!nv_chipset_find(name)) {
        *err = g_strdup_printf("chipset=%s: not one of g84, g86, g92, "
                               "gt215", name);
        return false;
    }
    for (unsigned d = 0; d < NV_PCOUNTER_DOMAINS; d++) {
        /* Cycle arithmetic multiplies ns by Hz in 128 bits; keep it sane. */
        if (cfg->domain_hz[d] > 10000000000ull) {
            *err = g_strdup_printf("domain %u clock %" G_GUINT64_FORMAT
                                   " Hz: at most 10 GHz", d,
                                   cfg->domain_hz[d]);
            return false;
        }
    }
    if (cfg->vram_size && (cfg->vram_size & (cfg->vram_size - 1) ||
                           cfg->vram_size < NV_VRAM_MIN ||
                           cfg->vram_size > NV_VRAM_MAX)) {
        *err = g_strdup_printf("VRAM size %" G_GUINT64_FORMAT " bytes: a "
                               "power of two from 32 MiB to 1 GiB",
                               cfg->vram_size);
        return false;
    }
    if (cfg->ptimer_src_hz > 10000000000ull) {
        *err = g_strdup_printf("PTIMER source clock %" G_GUINT64_FORMAT
                               " Hz: at most 10 GHz", cfg->ptimer_src_hz);
        return false;
    }
    return true;
}

/* ---- BAR0 ---- */

/* The windows that are not registers, then the register file (core/mmio.c). */
uint32_t nv_gpu_read(NvGpu *gpu, uint32_t offset)
{
    offset &= ~3u;
    if (offset - NV_PROM_BASE < NV_PROM_SIZE) {
        return nv_prom_read(gpu, offset);
    }
    if (offset - NV_PMEM_BASE < NV_PMEM_SIZE) {
        return nv_pmem_read(gpu, offset);
    }
    if (offset - NV_USER_BASE < NV_PFIFO_CHANS * NV_USER_STRIDE) {
        return nv_fifo_user_read(gpu, offset);
    }
    return nv_mmio_read(gpu, offset);
}

void nv_gpu_write(NvGpu *gpu, uint32_t offset, uint32_t val)
{
    offset &= ~3u;
    if (offset - NV_PROM_BASE < NV_PROM_SIZE) {
        return;                             /* a ROM */
    }
    if (offset - NV_PMEM_BASE < NV_PMEM_SIZE) {
        nv_pmem_write(gpu, offset, val);
        return;
    }
    if (offset - NV_USER_BASE < NV_PFIFO_CHANS * NV_USER_STRIDE) {
        nv_fifo_user_write(gpu, offset, val);
        return;
    }
    nv_mmio_write(gpu, offset, val);
}

/* ---- life cycle ---- */

/* Every block's registers, in the order the migration stream keeps them. */
static void nv_gpu_mmio_init(NvGpu *gpu)
{
    const NvRegBlock *blocks[] = {
        &nv_pmc_block, &nv_ptimer_block, gpu->chip->pc_block,
        &nv_pgraph_block, &nv_flush_block, &nv_pbus_block, &nv_pfifo_block,
        &nv_pfb_block, &nv_pstraps_block, &nv_pclock_block,
        &nv_pcontrol_block, &nv_pnvio_block, &nv_ptherm_block,
        &nv_pfuse_block, &nv_ppci_block, &nv_prmio_block, &nv_pdisplay_block,
    };

    nv_mmio_init(gpu, blocks, G_N_ELEMENTS(blocks));
}

NvGpu *nv_gpu_new(const NvGpuConfig *cfg, const GpuHost *host)
{
    NvGpu *gpu = g_new0(NvGpu, 1);

    gpu->cfg = *cfg;
    gpu->chip = nv_chipset_find(cfg->chipset ? cfg->chipset : "g84");
    g_assert(gpu->chip);
    gpu->cfg.chipset = gpu->chip->name;
    for (unsigned d = 0; d < NV_PCOUNTER_DOMAINS; d++) {
        if (!gpu->cfg.domain_hz[d]) {
            gpu->cfg.domain_hz[d] = default_domain_hz[d];
        }
    }
    if (!gpu->cfg.ptimer_src_hz) {
        gpu->cfg.ptimer_src_hz = 27000000;
    }
    if (!gpu->cfg.record_flush_ns) {
        gpu->cfg.record_flush_ns = 100000;
    }
    if (!gpu->cfg.pc_step_budget) {
        gpu->cfg.pc_step_budget = NV_PC_STEP_BUDGET;
    }
    gpu->vram_size = cfg->vram_size ? cfg->vram_size : NV_VRAM_DEFAULT;
    gpu->vram = cfg->vram;
    if (!gpu->vram) {
        gpu->vram_chunk = g_new0(uint8_t *, gpu->vram_size / NV_VRAM_CHUNK);
    }
    gpu->vbios = g_malloc(NV_VBIOS_SIZE);
    nv_vbios_build(gpu->chip, gpu->vbios);
    gpu->host = *host;
    nv_gpu_mmio_init(gpu);
    nv_ptimer_init(gpu);
    nv_pcounter_init(gpu);
    nv_fifo_init(gpu);
    nv_gpu_reset(gpu);
    return gpu;
}

void nv_gpu_free(NvGpu *gpu)
{
    nv_fifo_fini(gpu);
    nv_pcounter_fini(gpu);
    nv_ptimer_fini(gpu);
    nv_mmio_fini(gpu);
    g_free(gpu->vbios);
    if (gpu->vram_chunk) {
        for (uint64_t i = 0; i < gpu->vram_size / NV_VRAM_CHUNK; i++) {
            g_free(gpu->vram_chunk[i]);
        }
        g_free(gpu->vram_chunk);
    }
    g_free(gpu);
}

const NvChipset *nv_gpu_chipset(NvGpu *gpu)
{
    return gpu->chip;
}

uint32_t nv_gpu_unmodelled_count(NvGpu *gpu)
{
    return gpu->unmodelled.count;
}

void nv_gpu_reset(NvGpu *gpu)
{
    nv_mmio_reset(gpu);
    nv_reg_set(gpu, NV_PMC_BOOT_0, gpu->chip->boot0);
    /* VRAM keeps its contents, as on a board that stays powered. */
    gpu->bar_chan = gpu->peephole_chan = 0;
    memset(gpu->mem_fault_logged, 0, sizeof(gpu->mem_fault_logged));
    nv_ptimer_reset(gpu);
    nv_pcounter_reset(gpu);
    nv_fifo_reset(gpu);
    nv_pmc_update_irq(gpu);
}

/* Before the state is saved: what is only in caches goes to the state. */
void nv_gpu_pre_save(NvGpu *gpu)
{
    nv_pcounter_pre_save(gpu);
}

/*
 * After the state was loaded from a migration stream: reject values the
 * model could not have produced (the stream is as untrusted as the guest)
 * and rebuild what is derived from it.
 */
bool nv_gpu_post_load(NvGpu *gpu, char **err)
{
    return nv_mmio_post_load(gpu, err) && nv_ptimer_post_load(gpu, err) &&
           nv_pcounter_post_load(gpu, err) && nv_fifo_post_load(gpu, err);
}
