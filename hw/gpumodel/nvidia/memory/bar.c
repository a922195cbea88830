/*
 * nv-gpu host memory access (PBUS HOST_MEM, G80:GF100): VRAM as the CPU
 * reaches it through the PRAMIN window (BAR0 0x700000, "PMEM") and
 * through BAR1 and BAR3.
 *
 * Registers (envytools rnndb/bus/pbus.xml, HOST_MEM):
 *   0x1700 PMEM      bits 0-23 address >> 16, bits 24-25 target
 *   0x1704 CHAN      a channel (address >> 12, target); bit 30 picks the
 *                    BAR channel (1) or the PEEPHOLE one (0)
 *   0x1708 BAR1, 0x170c BAR3
 *                    bit 31 MODE: 0 a linear window on VRAM, 1 through
 *                    the DMA object at INST (bits 0-15, 16-byte units) in
 *                    the BAR channel
 *
 * Translation through a DMA object and the channel's page tables is the
 * G80 VM (envytools docs/hw/memory/g80-vm.rst: "DMA objects", "Page
 * tables"), laid out as nouveau writes it
 * (drivers/gpu/drm/nouveau/nvkm/subdev/bar/nv50.c: nv50_bar_oneinit,
 * nvkm/subdev/mmu/vmmnv50.c): the page directory at channel + 0x200
 * (G84 and later), one PDE per 512 MiB, a PDE's bits 0-1 the page size
 * (1: 64 KiB, 3: 4 KiB, 2: 16 KiB on GT215), PTE bit 0 valid, bit 3
 * read-only, bits 4-5 the aperture, bits 7-9 log2 of a contiguous block
 * whose PTEs all hold its first page's address.  Nothing is cached: each
 * access walks, so there is no TLB to invalidate.
 *
 * Every address is checked against VRAM; a fault reads 0, drops the write
 * and is logged once per window until reset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "../nv-gpu-int.h"

/* g80_mem_target (envytools rnndb/g80_defs.xml), also the PTE aperture. */
enum {
    MEM_VRAM = 0,
    MEM_SYSRAM = 2,
    MEM_SYSRAM_NOSNOOP = 3,
};

#define G84_PD_OFFSET       0x200
#define PDE_SPAN_SHIFT      29              /* 512 MiB per PDE */
#define PTE_VALID           (1ull << 0)
#define PTE_RO              (1ull << 3)
#define ADDR_MASK_40        0xfffffff000ull /* bits 12-39 */

/*
 * VRAM the model owns (no host store) is kept in chunks allocated on
 * first write: a test or fuzz run that creates many devices touches only
 * what it uses.
 */
static void nv_vram_rw(NvGpu *gpu, uint64_t addr, uint8_t *buf, unsigned len,
                       bool write)
{
    while (len) {
        uint64_t i = addr / NV_VRAM_CHUNK, off = addr % NV_VRAM_CHUNK;
        unsigned n = MIN(len, NV_VRAM_CHUNK - off);

        if (!gpu->vram_chunk[i] && write) {
            gpu->vram_chunk[i] = g_malloc0(NV_VRAM_CHUNK);
        }
        if (write) {
            memcpy(gpu->vram_chunk[i] + off, buf, n);
        } else if (gpu->vram_chunk[i]) {
            memcpy(buf, gpu->vram_chunk[i] + off, n);
        } else {
            memset(buf, 0, n);
        }
        addr += n;
        buf += n;
        len -= n;
    }
}

/* Read or write @len bytes of memory @target at @addr; false: no memory. */
bool nv_mem_rw(NvGpu *gpu, unsigned target, uint64_t addr, void *buf,
               unsigned len, bool write)
{
    switch (target) {
    case MEM_VRAM:
        if (addr >= gpu->vram_size || len > gpu->vram_size - addr) {
            return false;
        }
        if (!gpu->vram) {
            nv_vram_rw(gpu, addr, buf, len, write);
        } else if (write) {
            memcpy(gpu->vram + addr, buf, len);
            if (gpu->cfg.vram_written) {
                gpu->cfg.vram_written(gpu->cfg.vram_opaque, addr, len);
            }
        } else {
            memcpy(buf, gpu->vram + addr, len);
        }
        return true;
    case MEM_SYSRAM:
    case MEM_SYSRAM_NOSNOOP:
        return !(write ? gpu_host_dma_write(&gpu->host, addr, buf, len)
                       : gpu_host_dma_read(&gpu->host, addr, buf, len));
    default:
        return false;
    }
}

static uint64_t bar_le_get(const uint8_t *b, unsigned len)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < len; i++) {
        v |= (uint64_t)b[i] << (i * 8);
    }
    return v;
}

static void bar_le_put(uint8_t *b, unsigned len, uint64_t v)
{
    for (unsigned i = 0; i < len; i++) {
        b[i] = v >> (i * 8);
    }
}

static bool nv_mem_get(NvGpu *gpu, unsigned target, uint64_t addr, unsigned len,
                       uint64_t *v)
{
    uint8_t b[8];

    if (!nv_mem_rw(gpu, target, addr, b, len, false)) {
        return false;
    }
    *v = bar_le_get(b, len);
    return true;
}

/* ---- PRAMIN ---- */

static void pmem_addr(NvGpu *gpu, uint32_t offset, unsigned *target,
                      uint64_t *addr)
{
    uint32_t pmem = nv_reg_get(gpu, NV_PBUS_PMEM);

    *target = GPU_FIELD_EX32(pmem, NV_PBUS_PMEM, TARGET);
    *addr = ((uint64_t)GPU_FIELD_EX32(pmem, NV_PBUS_PMEM, OFFSET) << 16) +
            (offset - NV_PMEM_BASE);
}

static void pmem_fault(NvGpu *gpu, uint64_t addr, bool write)
{
    if (!gpu->mem_fault_logged[NV_WIN_PMEM]) {
        gpu->mem_fault_logged[NV_WIN_PMEM] = true;
        gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                     "nv-gpu: PRAMIN %s at 0x%" G_GINT64_MODIFIER "x: no "
                     "memory there (PMEM 0x%08x)", write ? "write" : "read",
                     addr, nv_reg_get(gpu, NV_PBUS_PMEM));
    }
}

uint32_t nv_pmem_read(NvGpu *gpu, uint32_t offset)
{
    unsigned target;
    uint64_t addr, v;

    pmem_addr(gpu, offset, &target, &addr);
    if (!nv_mem_get(gpu, target, addr, 4, &v)) {
        pmem_fault(gpu, addr, false);
        return 0;
    }
    return v;
}

void nv_pmem_write(NvGpu *gpu, uint32_t offset, uint32_t val)
{
    unsigned target;
    uint64_t addr;
    uint8_t b[4];

    pmem_addr(gpu, offset, &target, &addr);
    bar_le_put(b, 4, val);
    if (!nv_mem_rw(gpu, target, addr, b, 4, true)) {
        pmem_fault(gpu, addr, true);
    }
}

/* ---- DMA objects and the VM: BAR1, BAR3, PFIFO ---- */

const char *const nv_vm_fault_name[] = {
    [NV_VM_OK] = "ok",
    [NV_VM_CHAN_TARGET] = "BAR channel not in VRAM",
    [NV_VM_DMAOBJ] = "DMA object unreadable or of an unknown target",
    [NV_VM_LIMIT] = "beyond the DMA object's limit",
    [NV_VM_PDE] = "no page table (PDE)",
    [NV_VM_PT] = "page table unreadable or too short",
    [NV_VM_PTE] = "page not present (PTE)",
    [NV_VM_RO] = "write to a read-only page",
    [NV_VM_MEM] = "no memory at the translated address",
};

/*
 * Offset @off in the DMA object at VRAM address @dma of the channel whose
 * instance (page directory at +0x200) is at VRAM address @chan: the page's
 * memory, address and the bytes left in the page.
 */
NvVmFault nv_dmaobj_translate(NvGpu *gpu, uint64_t chan, uint64_t dma,
                              uint64_t off, bool write, unsigned *target,
                              uint64_t *addr, uint64_t *left)
{
    uint64_t w[4], base, limit, va, pde, pte, pt;
    unsigned shift, ptarget, blk, dtarget;
    uint64_t idx, entries;

    for (unsigned i = 0; i < 4; i++) {
        if (!nv_mem_get(gpu, MEM_VRAM, dma + i * 4, 4, &w[i])) {
            return NV_VM_DMAOBJ;
        }
    }
    base = w[2] | (w[3] & 0xff) << 32;
    limit = w[1] | (w[3] >> 24) << 32;
    va = base + off;
    if (va > limit || va < base) {
        return NV_VM_LIMIT;
    }
    /* DMA object target: 0 paged (VM), 1 VRAM, 2/3 system memory. */
    dtarget = w[0] >> 16 & 3;
    if (dtarget) {
        *target = dtarget == 1 ? MEM_VRAM : dtarget;
        *addr = va;
        *left = limit - va + 1;
        return NV_VM_OK;
    }

    if (!nv_mem_get(gpu, MEM_VRAM,
                    chan + G84_PD_OFFSET + (va >> PDE_SPAN_SHIFT) * 8, 8,
                    &pde)) {
        return NV_VM_PDE;
    }
    switch (pde & 3) {
    case 1:
        shift = 16;
        entries = 1u << (PDE_SPAN_SHIFT - 16);
        break;
    case 2:
        shift = 14;
        entries = 1u << (PDE_SPAN_SHIFT - 14);
        break;
    case 3:
        /* 4 KiB tables may be cut short: 0x20000 >> (2 + n) entries. */
        shift = 12;
        entries = (pde >> 5 & 3) ? 0x20000u >> (1 + (pde >> 5 & 3))
                                 : 0x20000u;
        break;
    default:
        return NV_VM_PDE;
    }
    ptarget = pde >> 2 & 3;
    pt = pde & ADDR_MASK_40;
    idx = (va & ((1ull << PDE_SPAN_SHIFT) - 1)) >> shift;
    if (idx >= entries || !nv_mem_get(gpu, ptarget, pt + idx * 8, 8, &pte)) {
        return NV_VM_PT;
    }
    if (!(pte & PTE_VALID)) {
        return NV_VM_PTE;
    }
    if (write && (pte & PTE_RO)) {
        return NV_VM_RO;
    }
    blk = pte >> 7 & 7;
    *target = pte >> 4 & 3;
    *addr = (pte & ADDR_MASK_40 & ~((1ull << shift) - 1)) +
            ((idx & ((1ull << blk) - 1)) << shift) +
            (va & ((1ull << shift) - 1));
    *left = (1ull << shift) - (va & ((1ull << shift) - 1));
    return NV_VM_OK;
}

/* @len bytes at @off of a DMA object (see above), split where pages end. */
NvVmFault nv_dmaobj_rw(NvGpu *gpu, uint64_t chan, uint64_t dma, uint64_t off,
                       void *buf, uint64_t len, bool write)
{
    uint8_t *b = buf;

    while (len) {
        unsigned target;
        uint64_t addr, left, n;
        NvVmFault f = nv_dmaobj_translate(gpu, chan, dma, off, write,
                                          &target, &addr, &left);

        if (f != NV_VM_OK) {
            return f;
        }
        n = MIN(len, left);
        if (!nv_mem_rw(gpu, target, addr, b, n, write)) {
            return NV_VM_MEM;
        }
        off += n;
        b += n;
        len -= n;
    }
    return NV_VM_OK;
}

static void bar_fault(NvGpu *gpu, unsigned win, uint64_t off, bool write,
                      NvVmFault f)
{
    if (!gpu->mem_fault_logged[win]) {
        gpu->mem_fault_logged[win] = true;
        gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                     "nv-gpu: BAR%u %s at 0x%" G_GINT64_MODIFIER "x: %s "
                     "(reads 0, writes dropped; logged once)",
                     win == NV_WIN_BAR1 ? 1 : 3, write ? "write" : "read",
                     off, nv_vm_fault_name[f]);
    }
}

/* @len bytes (1-8) at BAR offset @off. */
static bool bar_rw(NvGpu *gpu, unsigned win, uint64_t off, uint8_t *b,
                   unsigned len, bool write)
{
    uint32_t sel = nv_reg_get(gpu, win == NV_WIN_BAR1 ? NV_PBUS_BAR1
                                                      : NV_PBUS_BAR3);
    uint64_t chan =
        (uint64_t)GPU_FIELD_EX32(gpu->bar_chan, NV_PBUS_BAR_CHAN, ADDR) << 12;
    NvVmFault f;

    if (!(sel & NV_BAR_MODE_DMAOBJ)) {
        f = nv_mem_rw(gpu, MEM_VRAM, off, b, len, write) ? NV_VM_OK
                                                         : NV_VM_MEM;
    } else if (GPU_FIELD_EX32(gpu->bar_chan, NV_PBUS_BAR_CHAN, TARGET)) {
        f = NV_VM_CHAN_TARGET;
    } else {
        f = nv_dmaobj_rw(gpu, chan,
                         chan + ((uint64_t)GPU_FIELD_EX32(sel, NV_BAR,
                                                          INST) << 4),
                         off, b, len, write);
    }
    if (f != NV_VM_OK) {
        bar_fault(gpu, win, off, write, f);
        return false;
    }
    return true;
}

uint64_t nv_gpu_bar_read(NvGpu *gpu, unsigned bar, uint64_t off,
                         unsigned size)
{
    uint8_t b[8];
    unsigned win = bar == 1 ? NV_WIN_BAR1 : NV_WIN_BAR3;

    g_assert(size >= 1 && size <= 8);
    if (!bar_rw(gpu, win, off, b, size, false)) {
        return 0;
    }
    return bar_le_get(b, size);
}

void nv_gpu_bar_write(NvGpu *gpu, unsigned bar, uint64_t off, uint64_t val,
                      unsigned size)
{
    uint8_t b[8];
    unsigned win = bar == 1 ? NV_WIN_BAR1 : NV_WIN_BAR3;

    g_assert(size >= 1 && size <= 8);
    bar_le_put(b, size, val);
    bar_rw(gpu, win, off, b, size, true);
}
