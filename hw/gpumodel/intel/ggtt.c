/*
 * intel-gpu global GTT: the PTE array (GSM, BAR0 + 8 MiB), its translation
 * cache, the aperture (BAR2) that reaches memory through it, and the
 * registers around it (PAT, fences, GFX_FLSH_CNTL).
 *
 * A PTE is present when bit 0 is set; bits 38:12 hold the page's physical
 * address.  Translations are cached as hardware caches them: a PTE write
 * alone does not reach an address already cached; software writes
 * GFX_FLSH_CNTL to drop the cache, as i915 does after every update.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "intel-gpu.h"

#define GGTT_ENTRIES (INTEL_GSM_SIZE / 8)

uint64_t intel_ggtt_read_pte(IntelGpu *gpu, uint32_t index)
{
    return index < GGTT_ENTRIES ? gpu->gsm[index] : 0;
}

void intel_ggtt_write_pte(IntelGpu *gpu, uint32_t index, uint64_t pte)
{
    if (index < GGTT_ENTRIES) {
        gpu->gsm[index] = pte;
    }
}

void intel_ggtt_flush(IntelGpu *gpu)
{
    memset(gpu->tlb, 0, sizeof(gpu->tlb));
    gpu->tlb_flushes++;
}

void intel_ggtt_reset(IntelGpu *gpu)
{
    memset(gpu->gsm, 0, INTEL_GSM_SIZE);
    intel_ggtt_flush(gpu);
    gpu->tlb_flushes = 0;
}

/* Returns 0 and the physical address, or -1 if the page is not present. */
int intel_ggtt_translate(IntelGpu *gpu, uint32_t gtt_addr, uint64_t *phys)
{
    uint32_t page = gtt_addr / INTEL_GGTT_PAGE_SIZE;
    IntelGgttTlbEntry *e = &gpu->tlb[page % INTEL_GGTT_TLB_ENTRIES];

    if (e->page != page + 1) {
        e->page = page + 1;
        e->pte = gpu->gsm[page];
    }
    if (!(e->pte & INTEL_GGTT_PTE_PRESENT)) {
        return -1;
    }
    *phys = (e->pte & INTEL_GGTT_PTE_ADDR_MASK) |
            (gtt_addr & (INTEL_GGTT_PAGE_SIZE - 1));
    return 0;
}

/*
 * The aperture maps the start of the GGTT.  An access to a page without a
 * present PTE reads all-ones and drops writes, as on hardware.
 */
int intel_aperture_rw(IntelGpu *gpu, uint64_t offset, void *buf, size_t len,
                      bool write)
{
    uint8_t *p = buf;
    int ret = 0;

    if (offset >= INTEL_GMADR_SIZE || len > INTEL_GMADR_SIZE - offset) {
        return -1;
    }
    while (len) {
        uint32_t in_page = INTEL_GGTT_PAGE_SIZE -
                           offset % INTEL_GGTT_PAGE_SIZE;
        size_t n = MIN(len, in_page);
        uint64_t phys;
        int err;

        err = intel_ggtt_translate(gpu, offset, &phys);
        if (!err) {
            err = write ? gpu_host_dma_write(&gpu->host, phys, p, n)
                        : gpu_host_dma_read(&gpu->host, phys, p, n);
        }
        if (err) {
            gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                         "aperture %s at 0x%" G_GINT64_MODIFIER "x: "
                         "GGTT page not present or not memory",
                         write ? "write" : "read", offset);
            if (!write) {
                memset(p, 0xff, n);
            }
            ret = -1;
        }
        offset += n;
        p += n;
        len -= n;
    }
    return ret;
}

static void gfx_flsh_cntl_write(IntelGpu *gpu, const IntelRegBinding *b,
                                uint32_t offset, uint32_t old)
{
    if (intel_reg_get(gpu, offset) & INTEL_GFX_FLSH_CNTL_EN) {
        intel_ggtt_flush(gpu);
    }
    intel_reg_set(gpu, offset, 0);
}

/* Fence n: low dword at even index, bit 0 = valid. */
static void fence_write(IntelGpu *gpu, const IntelRegBinding *b,
                        uint32_t offset, uint32_t old)
{
    bool low = (offset - INTEL_FENCE_REG(0)) % 8 == 0;

    if (low && (intel_reg_get(gpu, offset) & 1) && !(old & 1)) {
        gpu_host_log(&gpu->host, GPU_LOG_UNIMP,
                     "fence %u enabled: aperture access is not detiled",
                     (offset - INTEL_FENCE_REG(0)) / 8);
    }
}

static const IntelReg ggtt_regs[] = {
    { .name = "GFX_FLSH_CNTL", .offset = INTEL_GFX_FLSH_CNTL,
      .access = INTEL_REG_RW, .write = gfx_flsh_cntl_write },
    /* Caching attributes do not matter to an emulator: plain storage. */
    { .name = "PAT_INDEX", .offset = INTEL_PAT_INDEX(0), .count = 8,
      .access = INTEL_REG_RW },
    { .name = "FENCE_REG", .offset = INTEL_FENCE_REG(0), .count = 64,
      .access = INTEL_REG_RW, .write = fence_write },
};

const IntelRegBlock intel_ggtt_block = {
    .name = "ggtt",
    .regs = ggtt_regs,
    .nregs = G_N_ELEMENTS(ggtt_regs),
};
