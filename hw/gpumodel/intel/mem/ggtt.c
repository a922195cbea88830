/*
 * intel-gpu global GTT: the PTE array (GSM, BAR0 + 8 MiB), its translation
 * cache, the aperture (BAR2) that reaches memory through it, and the
 * registers around it (PAT, fences, GFX_FLSH_CNTL).  Fenced regions of
 * the aperture are detiled (see intel_aperture_rw()).
 *
 * A PTE is present when bit 0 is set; bits 38:12 hold the page's physical
 * address.  Translations are cached; a PTE write through the GSM replaces
 * its page's cached translation, so the next access sees it.  Gen11 i915
 * relies on that: 6.12's writes GFX_FLSH_CNTL (which drops the whole
 * cache here) only where the GSM is mapped write-combined, before Gen11
 * (gt/intel_ggtt.c, needs_wc_ggtt_mapping()); 6.1's wrote it after every
 * update.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "../intel-gpu-int.h"
#include "tiling.h"

#define GGTT_ENTRIES (INTEL_GSM_SIZE / 8)

uint64_t intel_ggtt_read_pte(IntelGpu *gpu, uint32_t index)
{
    return index < GGTT_ENTRIES ? gpu->gsm[index] : 0;
}

void intel_ggtt_write_pte(IntelGpu *gpu, uint32_t index, uint64_t pte)
{
    IntelGgttTlbEntry *e = &gpu->tlb[index % INTEL_GGTT_TLB_ENTRIES];

    if (index < GGTT_ENTRIES) {
        gpu->gsm[index] = pte;
        if (e->page == index + 1) {
            e->page = 0;
        }
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
 * Fences: a valid fence's region, [start page, last page] of the GGTT, is
 * seen through the aperture as a linear surface of the fence's pitch
 * while the memory behind it is X or Y tiled, so that software can reach
 * a tiled object with plain CPU accesses.  i915 sizes the region to whole
 * rows of tiles.  The lowest-numbered fence holding the page applies.
 */
typedef struct IntelFence {
    uint32_t start;
    uint32_t pitch;                     /* bytes */
    IntelTiling tiling;
} IntelFence;

static void fence_decode(IntelGpu *gpu, unsigned i, IntelFence *f)
{
    uint32_t lo = intel_reg_get(gpu, INTEL_FENCE_REG(i));
    uint32_t hi = intel_reg_get(gpu, INTEL_FENCE_REG_HI(i));

    f->start = lo & INTEL_FENCE_REG_PAGE_MASK;
    f->pitch = (GPU_FIELD_EX32(hi, INTEL_FENCE_REG_HI, PITCH) + 1) *
               INTEL_FENCE_PITCH_UNIT;
    f->tiling = lo & INTEL_FENCE_TILING_Y ? INTEL_TILING_Y : INTEL_TILING_X;
}

static bool fence_find(IntelGpu *gpu, uint32_t addr, IntelFence *f)
{
    uint32_t page = addr & INTEL_FENCE_REG_PAGE_MASK;

    for (unsigned i = 0; i < INTEL_FENCE_COUNT; i++) {
        uint32_t lo = intel_reg_get(gpu, INTEL_FENCE_REG(i));
        uint32_t hi = intel_reg_get(gpu, INTEL_FENCE_REG_HI(i));

        if ((lo & INTEL_FENCE_VALID) &&
            page >= (lo & INTEL_FENCE_REG_PAGE_MASK) &&
            page <= (hi & INTEL_FENCE_REG_HI_PAGE_MASK)) {
            fence_decode(gpu, i, f);
            return true;
        }
    }
    return false;
}

/*
 * Where the aperture's GGTT address @addr lands, and how many of the
 * bytes from it, at most @n, are contiguous there.
 */
static uint64_t aperture_detile(IntelGpu *gpu, uint32_t addr, size_t *n)
{
    IntelFence f;
    uint32_t linear, x, y;
    uint64_t tiled;

    if (!fence_find(gpu, addr, &f)) {
        return addr;
    }
    linear = addr - f.start;
    x = linear % f.pitch;
    y = linear / f.pitch;
    tiled = f.start + intel_tile_offset(f.tiling, 1, f.pitch, x, y);
    *n = MIN(*n, MIN(f.pitch - x, intel_tile_span(f.tiling, 1, x)));
    /* Only a pitch the tile width does not divide leaves the page. */
    *n = MIN(*n, INTEL_GGTT_PAGE_SIZE - tiled % INTEL_GGTT_PAGE_SIZE);
    return tiled;
}

/*
 * The aperture maps the start of the GGTT, through the fences.  An access
 * to a page without a present PTE reads all-ones and drops writes, as on
 * hardware.
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
        size_t n = MIN(len, INTEL_GGTT_PAGE_SIZE -
                            offset % INTEL_GGTT_PAGE_SIZE);
        uint64_t gtt = aperture_detile(gpu, offset, &n);
        uint64_t phys;
        int err = -1;

        if (gtt <= UINT32_MAX && !intel_ggtt_translate(gpu, gtt, &phys)) {
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

/*
 * A fence taking effect with a pitch its tiles do not divide, or ending
 * before it starts, is a driver bug: hardware does not define the result.
 */
static void fence_write(IntelGpu *gpu, const IntelRegBinding *b,
                        uint32_t offset, uint32_t old)
{
    unsigned i = (offset - INTEL_FENCE_REG(0)) / 8;
    uint32_t lo = intel_reg_get(gpu, INTEL_FENCE_REG(i));
    uint32_t hi = intel_reg_get(gpu, INTEL_FENCE_REG_HI(i));
    IntelFence f;

    if (offset != INTEL_FENCE_REG(i) || !(lo & INTEL_FENCE_VALID)) {
        return;
    }
    fence_decode(gpu, i, &f);
    if (f.pitch % intel_tile_width(f.tiling, 1) ||
        (hi & INTEL_FENCE_REG_HI_PAGE_MASK) < f.start) {
        gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                     "fence %u: pitch %u bytes for %s tiling, pages "
                     "0x%x-0x%x: not a valid fence", i, f.pitch,
                     f.tiling == INTEL_TILING_Y ? "Y" : "X", f.start,
                     hi & INTEL_FENCE_REG_HI_PAGE_MASK);
    }
}

static const IntelReg ggtt_regs[] = {
    INTEL_REG(GFX_FLSH_CNTL, RW, .write = gfx_flsh_cntl_write),
    /* Caching attributes do not matter to an emulator: plain storage. */
    INTEL_REGN(PAT_INDEX, 8, RW),
    INTEL_REGN(FENCE_REG, 2 * INTEL_FENCE_COUNT, RW, .write = fence_write),
};

const IntelRegBlock intel_ggtt_block = INTEL_REG_BLOCK("ggtt", ggtt_regs);
