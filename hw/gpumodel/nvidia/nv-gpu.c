/*
 * nv-gpu model life cycle: the chipset profiles, the register file over
 * BAR0, creation and reset.
 *
 * Every block owns a window of BAR0 with one dword of storage per dword of
 * the window and a dense index from dword to table entry.  Offsets outside
 * every block, and offsets inside a block that its table does not describe,
 * read as 0, ignore writes and are reported once each as unimplemented.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "nv-gpu.h"

/*
 * CTRL[dom] bits a chipset implements; QUAD_STATE, SINGLE_STATE and
 * FAULT_CLEAR are not storage.
 */
#define NV40_CTRL_WMASK (NV_PC_CTRL_MODE_MASK | NV_PC_CTRL_CTR_MODE_MASK | \
                         NV_PC_CTRL_EVENT_CTR_PERIOD_ALL | \
                         NV_PC_CTRL_EVENT_IMPORT_PULSE | \
                         NV_PC_CTRL_FLAG_IMPORT_PULSE | NV_PC_CTRL_UNK16)
#define G84_CTRL_WMASK  (NV40_CTRL_WMASK | NV_PC_CTRL_RECORD_SHORT | \
                         NV_PC_CTRL_PERIODIC_MASK)
#define G92_CTRL_WMASK  (G84_CTRL_WMASK | NV_PC_CTRL_UNK30)

#define G84_FEATURES    (NV_PC_F_QUAD | NV_PC_F_EXTRA_MODES | NV_PC_F_RECORD | \
                         NV_PC_F_SPEC_SRC | NV_PC_F_PERIODIC | \
                         NV_PC_F_PREOP_SWAP | NV_PC_F_SETFLAG_ARG | \
                         NV_PC_F_WRCACHE)

/*
 * BOOT_0 as nouveau and envytools' parse_pmc_id decode it: chipset in
 * bits 28:20, bit 7 set (reference/nouveau-pcounter-notes.md 1.1).
 * PTIMER_TIME_B12 and GT215's PCOUNTER.USER pairs: envytools' G80:GF100
 * signal lists (pcounter/tesla.rst), per domain.  GT215 has every G92
 * feature (the seed's version list) and the USER signals.
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
    if (cfg->ptimer_src_hz > 10000000000ull) {
        *err = g_strdup_printf("PTIMER source clock %" G_GUINT64_FORMAT
                               " Hz: at most 10 GHz", cfg->ptimer_src_hz);
        return false;
    }
    return true;
}

/* ---- register file ---- */

static unsigned reg_count(const NvReg *r)
{
    return r->count ? r->count : 1;
}

static unsigned reg_stride(const NvReg *r)
{
    return r->stride ? r->stride : 4;
}

static void regfile_add(NvGpu *gpu, const NvRegBlock *blk)
{
    NvRegFile *f = &gpu->files[gpu->nfiles++];

    g_assert(gpu->nfiles <= NV_MAX_BLOCKS);
    f->block = blk;
    f->words = blk->size / 4;
    f->store = g_new0(uint32_t, f->words);
    f->index = g_new0(uint16_t, blk->size / 4);
    for (unsigned r = 0; r < blk->nregs; r++) {
        const NvReg *reg = &blk->regs[r];

        if (reg->feature && !(gpu->chip->pc_features & reg->feature)) {
            continue;
        }
        for (unsigned k = 0; k < reg_count(reg); k++) {
            uint32_t off = reg->offset + k * reg_stride(reg);

            /* The tables are static: a clash is a bug in them. */
            g_assert(off % 4 == 0 && off < blk->size);
            if (f->index[off / 4]) {
                g_error("nv-gpu: %s and %s both claim 0x%x",
                        blk->regs[f->index[off / 4] - 1].name, reg->name,
                        blk->base + off);
            }
            f->index[off / 4] = r + 1;
        }
    }
}

static NvRegFile *regfile_find(NvGpu *gpu, uint32_t offset)
{
    for (unsigned i = 0; i < gpu->nfiles; i++) {
        const NvRegBlock *b = gpu->files[i].block;

        if (offset >= b->base && offset - b->base < b->size) {
            return &gpu->files[i];
        }
    }
    return NULL;
}

static const NvReg *regfile_lookup(NvRegFile *f, uint32_t rel,
                                   unsigned *unit)
{
    uint16_t i = f->index[rel / 4];
    const NvReg *r;

    if (!i) {
        return NULL;
    }
    r = &f->block->regs[i - 1];
    *unit = (rel - r->offset) / reg_stride(r);
    return r;
}

uint32_t nv_reg_get(NvGpu *gpu, uint32_t offset)
{
    NvRegFile *f = regfile_find(gpu, offset);

    return f ? f->store[(offset - f->block->base) / 4] : 0;
}

void nv_reg_set(NvGpu *gpu, uint32_t offset, uint32_t val)
{
    NvRegFile *f = regfile_find(gpu, offset);

    if (f) {
        f->store[(offset - f->block->base) / 4] = val;
    }
}

static void regfile_reset(NvRegFile *f)
{
    const NvRegBlock *blk = f->block;

    memset(f->store, 0, blk->size);
    for (unsigned r = 0; r < blk->nregs; r++) {
        const NvReg *reg = &blk->regs[r];

        for (unsigned k = 0; k < reg_count(reg); k++) {
            f->store[(reg->offset + k * reg_stride(reg)) / 4] = reg->reset;
        }
    }
}

static void note_unmodelled(NvGpu *gpu, uint32_t offset, bool write,
                            uint32_t val)
{
    if (!g_hash_table_add(gpu->unmodelled_seen, GUINT_TO_POINTER(offset))) {
        return;
    }
    if (write) {
        gpu_host_log(&gpu->host, GPU_LOG_UNIMP,
                     "nv-gpu: unmodelled register 0x%06x written (0x%08x), "
                     "ignored", offset, val);
    } else {
        gpu_host_log(&gpu->host, GPU_LOG_UNIMP,
                     "nv-gpu: unmodelled register 0x%06x read as 0", offset);
    }
}

uint32_t nv_gpu_read(NvGpu *gpu, uint32_t offset)
{
    NvRegFile *f;
    const NvReg *r;
    unsigned unit;
    uint32_t rel;

    offset &= ~3u;
    f = regfile_find(gpu, offset);
    rel = f ? offset - f->block->base : 0;
    r = f ? regfile_lookup(f, rel, &unit) : NULL;
    if (!r) {
        note_unmodelled(gpu, offset, false, 0);
        return 0;
    }
    if (r->read) {
        return r->read(gpu, r, unit, offset);
    }
    return r->access == NV_REG_WO ? 0 : f->store[rel / 4];
}

void nv_gpu_write(NvGpu *gpu, uint32_t offset, uint32_t val)
{
    NvRegFile *f;
    const NvReg *r;
    unsigned unit;
    uint32_t rel, old, wmask;

    offset &= ~3u;
    f = regfile_find(gpu, offset);
    rel = f ? offset - f->block->base : 0;
    r = f ? regfile_lookup(f, rel, &unit) : NULL;
    if (!r) {
        note_unmodelled(gpu, offset, true, val);
        return;
    }
    old = f->store[rel / 4];
    wmask = r->wmask ? r->wmask : 0xffffffff;
    val &= wmask;
    if (r->access == NV_REG_RW) {
        f->store[rel / 4] = (old & ~wmask) | val;
    }
    if (r->write) {
        r->write(gpu, r, unit, offset, old, val);
    }
}

/* ---- life cycle ---- */

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
    gpu->host = *host;
    gpu->unmodelled_seen = g_hash_table_new(NULL, NULL);
    regfile_add(gpu, &nv_pmc_block);
    regfile_add(gpu, &nv_ptimer_block);
    regfile_add(gpu, gpu->chip->pc_block);
    regfile_add(gpu, &nv_pgraph_block);
    regfile_add(gpu, &nv_flush_block);
    nv_ptimer_init(gpu);
    nv_pcounter_init(gpu);
    nv_gpu_reset(gpu);
    return gpu;
}

void nv_gpu_free(NvGpu *gpu)
{
    nv_pcounter_fini(gpu);
    nv_ptimer_fini(gpu);
    for (unsigned i = 0; i < gpu->nfiles; i++) {
        g_free(gpu->files[i].store);
        g_free(gpu->files[i].index);
    }
    g_hash_table_destroy(gpu->unmodelled_seen);
    g_free(gpu);
}

void nv_gpu_reset(NvGpu *gpu)
{
    for (unsigned i = 0; i < gpu->nfiles; i++) {
        regfile_reset(&gpu->files[i]);
    }
    nv_reg_set(gpu, NV_PMC_BOOT_0, gpu->chip->boot0);
    nv_ptimer_reset(gpu);
    nv_pcounter_reset(gpu);
    nv_pmc_update_irq(gpu);
}

/* Before the state is saved: what is only in caches goes to the state. */
void nv_gpu_pre_save(NvGpu *gpu)
{
    nv_pcounter_pre_save(gpu);
}

/* A writable register holds no bit outside its write mask. */
static bool regfile_ok(NvGpu *gpu, const NvRegFile *f, char **err)
{
    const NvRegBlock *blk = f->block;

    for (unsigned r = 0; r < blk->nregs; r++) {
        const NvReg *reg = &blk->regs[r];

        for (unsigned k = 0; k < reg_count(reg) && reg->wmask &&
                             reg->access == NV_REG_RW; k++) {
            uint32_t off = reg->offset + k * reg_stride(reg);

            if (f->store[off / 4] & ~reg->wmask) {
                *err = g_strdup_printf("%s 0x%x: 0x%08x", reg->name,
                                       blk->base + off, f->store[off / 4]);
                return false;
            }
        }
    }
    return true;
}

/*
 * After the state was loaded from a migration stream: reject values the
 * model could not have produced (the stream is as untrusted as the guest)
 * and rebuild what is derived from it.
 */
bool nv_gpu_post_load(NvGpu *gpu, char **err)
{
    for (unsigned i = 0; i < gpu->nfiles; i++) {
        if (!regfile_ok(gpu, &gpu->files[i], err)) {
            return false;
        }
    }
    return nv_ptimer_post_load(gpu, err) && nv_pcounter_post_load(gpu, err);
}
