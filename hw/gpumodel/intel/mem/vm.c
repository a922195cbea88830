/*
 * intel-gpu engine memory access: the one choke point through which the
 * command streamers read and write graphics memory, in the global GTT or
 * in the running context's 4-level, 48-bit PPGTT.
 *
 * PPGTT: PML4 (VA 47:39) -> PDP (38:30) -> PD (29:21) -> PT (20:12), each
 * a 4 KiB table of 512 little-endian qwords; bit 0 is "present", bits
 * 45:12 the next table or the page.  PS (bit 7) in a PDP entry maps 1 GiB
 * and in a PD entry 2 MiB directly.  A PD entry's IPS bit (64 KiB pages)
 * is ignored: i915 still writes every 4 KiB PTE under it, so a 4 KiB walk
 * finds the same pages.
 *
 * Translations are cached per engine, and the cache is dropped only where
 * hardware drops it: PIPE_CONTROL / MI_FLUSH_DW TLB invalidation, the
 * TLB-invalidate registers, and loading a context with another root.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "../intel-gpu-int.h"

#define PPGTT_PRESENT   (1ull << 0)
#define PPGTT_PS        (1ull << 7)
#define PPGTT_ADDR_MASK 0x00003FFFFFFFF000ull   /* bits 45:12 */
#define PPGTT_VA_BITS   48
#define GGTT_LIMIT      (1ull << 32)

void intel_ppgtt_flush(IntelEngine *e)
{
    memset(e->tlb, 0, sizeof(e->tlb));
}

static int ppgtt_walk(IntelEngine *e, uint64_t va, uint64_t *page)
{
    uint64_t table = e->pml4 & PPGTT_ADDR_MASK;

    for (int shift = 39; shift >= 12; shift -= 9) {
        uint64_t entry;
        unsigned idx = (va >> shift) & 511;

        if (gpu_host_dma_read(&e->gpu->host, table + idx * 8, &entry, 8)) {
            return -1;
        }
        entry = GUINT64_FROM_LE(entry);
        if (!(entry & PPGTT_PRESENT)) {
            return -1;
        }
        /* 1 GiB (PDP level) and 2 MiB (PD level) pages. */
        if ((shift == 30 || shift == 21) && (entry & PPGTT_PS)) {
            uint64_t size = 1ull << shift;

            *page = (entry & PPGTT_ADDR_MASK & ~(size - 1)) |
                    (va & (size - 1) & ~0xfffull);
            return 0;
        }
        table = entry & PPGTT_ADDR_MASK;
    }
    *page = table;
    return 0;
}

/* Returns 0 and the physical address, or -1 on a fault. */
int intel_ppgtt_translate(IntelEngine *e, uint64_t va, uint64_t *pa)
{
    uint64_t vpage = (va & ((1ull << PPGTT_VA_BITS) - 1)) >> 12;
    IntelPpgttTlbEntry *t = &e->tlb[vpage % INTEL_PPGTT_TLB_ENTRIES];

    if (t->vpage != vpage + 1) {
        uint64_t page;

        if (ppgtt_walk(e, vpage << 12, &page)) {
            return -1;
        }
        t->vpage = vpage + 1;
        t->ppage = page;
    }
    *pa = t->ppage | (va & 0xfff);
    return 0;
}

/* Through @ppgtt's PPGTT, or the GGTT if it is NULL. */
static int vm_translate(IntelGpu *gpu, IntelEngine *ppgtt, uint64_t addr,
                        uint64_t *pa)
{
    if (ppgtt) {
        return intel_ppgtt_translate(ppgtt, addr, pa);
    }
    if (addr >= GGTT_LIMIT) {
        return -1;
    }
    return intel_ggtt_translate(gpu, addr, pa);
}

static int vm_rw(IntelGpu *gpu, IntelEngine *ppgtt, uint64_t addr,
                 void *buf, size_t len, bool write)
{
    uint8_t *p = buf;

    while (len) {
        size_t n = MIN(len, 4096 - (addr & 0xfff));
        uint64_t pa;
        int err;

        if (vm_translate(gpu, ppgtt, addr, &pa)) {
            return -1;
        }
        err = write ? gpu_host_dma_write(&gpu->host, pa, p, n)
                    : gpu_host_dma_read(&gpu->host, pa, p, n);
        if (err) {
            return -1;
        }
        addr += n;
        p += n;
        len -= n;
    }
    return 0;
}

/*
 * Read or write @len bytes at graphics address @addr, page by page.
 * Returns 0, or -1 if a page is not mapped or not memory; the caller
 * reports that as the engine's page fault.
 *
 * The DMA fault drill (intel_engine_drill_dma) fails each of the engine's
 * next writes here, whole and before any byte lands, so every writer
 * (commands, post-syncs, context status, context save) gives the answer
 * it gives for an unmapped address.
 */
int intel_vm_rw(IntelEngine *e, bool ppgtt, uint64_t addr, void *buf,
                size_t len, bool write)
{
    if (write && e->dma_drill) {
        e->dma_drill--;
        return -1;
    }
    return vm_rw(e->gpu, ppgtt ? e : NULL, addr, buf, len, write);
}

/*
 * GGTT access of a unit that is not a command streamer (the OA unit):
 * the engines' fault drills do not apply.
 */
int intel_ggtt_rw(IntelGpu *gpu, uint64_t addr, void *buf, size_t len,
                  bool write)
{
    return vm_rw(gpu, NULL, addr, buf, len, write);
}
