/*
 * nv-gpu memory as nouveau finds and reaches it: the straps, unit masks
 * and memory configuration it sizes VRAM from
 * (drivers/gpu/drm/nouveau/nvkm/subdev/fb/ramnv50.c), the PRAMIN window
 * (nvkm/subdev/instmem/nv50.c), and BAR1/BAR3 through the BAR channel's
 * DMA objects and page tables, built the way nvkm/subdev/bar/nv50.c and
 * nvkm/subdev/mmu/vmmnv50.c build them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "fake-host.h"
#include "nvidia/nv-gpu-int.h"

typedef struct Fixture {
    FakeHost *fh;
    NvGpu *gpu;
} Fixture;

static void open_size(Fixture *f, uint64_t vram)
{
    NvGpuConfig cfg = { .vram_size = vram };

    f->fh = fake_host_new();
    f->gpu = nv_gpu_new(&cfg, &f->fh->host);
}

static void close_fx(Fixture *f)
{
    nv_gpu_free(f->gpu);
    fake_host_free(f->fh);
}

static uint32_t rd(Fixture *f, uint32_t off)
{
    return nv_gpu_read(f->gpu, off);
}

static void wr(Fixture *f, uint32_t off, uint32_t val)
{
    nv_gpu_write(f->gpu, off, val);
}

/* VRAM through PRAMIN, as nv50_instobj_wr32_slow does. */
static void vram_wr32(Fixture *f, uint64_t addr, uint32_t val)
{
    wr(f, NV_PBUS_PMEM, (addr & ~0xfffffull) >> 16);
    wr(f, NV_PMEM_BASE + (addr & 0xfffff), val);
}

static uint32_t vram_rd32(Fixture *f, uint64_t addr)
{
    wr(f, NV_PBUS_PMEM, (addr & ~0xfffffull) >> 16);
    return rd(f, NV_PMEM_BASE + (addr & 0xfffff));
}

static void vram_wr64(Fixture *f, uint64_t addr, uint64_t val)
{
    vram_wr32(f, addr, val);
    vram_wr32(f, addr + 4, val >> 32);
}

/* nouveau's reading of the straps, unit masks and memory configuration */
static void check_sizing(uint64_t vram)
{
    Fixture f;
    uint32_t r0, r4, hw, amount, straps;
    uint64_t size, rowsize, predicted;
    unsigned parts, colbits, rowbitsa, banks;

    open_size(&f, vram);
    straps = rd(&f, NV_PSTRAPS);
    g_assert_cmphex(straps & 0x00400040, ==, 0x00400000);   /* 27 MHz */
    hw = rd(&f, NV_PBUS_HWUNITS_0);
    g_assert_cmphex(hw & NV_HWUNITS_0_VDEC, ==, 0);
    g_assert_cmphex(rd(&f, NV_PBUS_HWUNITS_1) & (NV_HWUNITS_1_BSP |
                    NV_HWUNITS_1_CIPHER), ==, 0);
    amount = rd(&f, NV_PFB_MEM_AMOUNT);
    size = (uint64_t)(amount & 0xff) << 32 | (amount & 0xffffff00);
    g_assert_cmpuint(size, ==, vram);
    g_assert_cmpuint(rd(&f, NV_PFB_MEM_TYPE) & 7, ==, NV_PFB_MEM_TYPE_GDDR3);

    /* nv50_fb_vram_rblock: the geometry predicts the same size */
    r0 = rd(&f, NV_PFB_CFG0);
    r4 = rd(&f, NV_PFB_CFG1);
    parts = __builtin_popcount(GPU_FIELD_EX32(hw, NV_PBUS_HWUNITS_0, PART));
    colbits = (r4 & 0x0000f000) >> 12;
    rowbitsa = ((r4 & 0x000f0000) >> 16) + 8;
    banks = 1 << (((r4 & 0x03000000) >> 24) + 2);
    rowsize = (uint64_t)parts * banks * (1 << colbits) * 8;
    predicted = rowsize << rowbitsa;
    g_assert_cmphex(r0 & 4, ==, 0);
    g_assert_cmpuint(parts, >, 0);
    g_assert_cmpuint(predicted, ==, vram);
    g_assert_cmpuint(rd(&f, NV_PFB_TAG_COUNT), ==, 0);
    /* nouveau's g84_pcie_init sets the speed bit; the units stay */
    wr(&f, NV_PBUS_HWUNITS_1, 0xffffffff);
    g_assert_cmphex(rd(&f, NV_PBUS_HWUNITS_1), ==,
                    NV_HWUNITS_1_DISPLAY | NV_HWUNITS_1_PCIE_SPEED);
    wr(&f, NV_PBUS_HWUNITS_0, 0);
    g_assert_cmphex(rd(&f, NV_PBUS_HWUNITS_0), ==, hw);
    close_fx(&f);
}

static void test_sizing(void)
{
    check_sizing(NV_VRAM_DEFAULT);
    check_sizing(NV_VRAM_MIN);
    check_sizing(NV_VRAM_MAX);
}

static void test_config(void)
{
    NvGpuConfig cfg = { .vram_size = 48ull << 20 };
    g_autofree char *err = NULL;

    g_assert_false(nv_gpu_config_check(&cfg, &err));
    g_assert_nonnull(strstr(err, "power of two"));
    cfg.vram_size = 2 * NV_VRAM_MAX;
    g_clear_pointer(&err, g_free);
    g_assert_false(nv_gpu_config_check(&cfg, &err));
    cfg.vram_size = 0;
    g_assert_true(nv_gpu_config_check(&cfg, &err));
}

/* PRAMIN: the window moves over VRAM; past its end reads 0. */
static void test_pramin(void)
{
    Fixture f;

    open_size(&f, NV_VRAM_MIN);
    vram_wr32(&f, 0x123450, 0xdeadbeef);
    vram_wr32(&f, NV_VRAM_MIN - 4, 0x600dcafe);
    g_assert_cmphex(vram_rd32(&f, 0x123450), ==, 0xdeadbeef);
    g_assert_cmphex(vram_rd32(&f, NV_VRAM_MIN - 4), ==, 0x600dcafe);
    /* the same byte through another window position */
    wr(&f, NV_PBUS_PMEM, 0x10);
    g_assert_cmphex(rd(&f, NV_PMEM_BASE + 0x23450), ==, 0xdeadbeef);
    /* past VRAM: reads 0, writes dropped, the guest error logged once */
    wr(&f, NV_PBUS_PMEM, NV_VRAM_MIN >> 16);
    wr(&f, NV_PMEM_BASE, 1);
    g_assert_cmphex(rd(&f, NV_PMEM_BASE), ==, 0);
    g_assert_cmpuint(f.fh->guest_errors, ==, 1);
    /* a target with no memory (1) */
    wr(&f, NV_PBUS_PMEM, GPU_FIELD_DP32(0, NV_PBUS_PMEM, TARGET, 1));
    g_assert_cmphex(rd(&f, NV_PMEM_BASE + 0x23450), ==, 0);
    g_assert_cmpuint(nv_gpu_unmodelled_count(f.gpu), ==, 0);
    close_fx(&f);
}

/* BAR3 before nouveau programs it, and BAR1 after bar1_fini: linear. */
static void test_bar_linear(void)
{
    Fixture f;

    open_size(&f, NV_VRAM_MIN);
    vram_wr32(&f, 0x2000, 0x11223344);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 3, 0x2000, 4), ==, 0x11223344);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 1, 0x2001, 2), ==, 0x2233);
    nv_gpu_bar_write(f.gpu, 1, 0x2008, 0x0102030405060708ull, 8);
    g_assert_cmphex(vram_rd32(&f, 0x200c), ==, 0x01020304);
    /* beyond VRAM (BAR1 may be larger): a fault, reads 0 */
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 1, NV_VRAM_MIN, 4), ==, 0);
    nv_gpu_bar_write(f.gpu, 1, NV_VRAM_MIN - 2, 0xffffffff, 4);
    g_assert_cmphex(vram_rd32(&f, NV_VRAM_MIN - 4), ==, 0);
    close_fx(&f);
}

/*
 * The BAR channel as nv50_bar_oneinit lays it out: page directory at
 * +0x200, the BAR2 DMA object at +0x10 over VA 0x1_0000_0000, 32 MiB;
 * 4 KiB pages, one PTE per page, a two-page contiguous block.
 */
#define CHAN        0x01000000ull
#define PT4K        0x01100000ull
#define PT64K       0x01200000ull
#define DMA_BAR3    0x10
#define DMA_BAR1    0x30
#define VA_BAR3     0x100000000ull
#define PAGE_A      0x00300000ull

static void dma_obj(Fixture *f, uint32_t inst, uint64_t start,
                    uint64_t limit, uint32_t w0)
{
    vram_wr32(f, CHAN + inst + 0x00, w0);
    vram_wr32(f, CHAN + inst + 0x04, limit);
    vram_wr32(f, CHAN + inst + 0x08, start);
    vram_wr32(f, CHAN + inst + 0x0c, (uint32_t)(limit >> 32) << 24 |
                                     (uint32_t)(start >> 32));
}

static void bar_setup(Fixture *f)
{
    /* BAR3: PDE 8 (VA 4 GiB) -> 4 KiB table; pages 0-1 a 2-page block */
    dma_obj(f, DMA_BAR3, VA_BAR3, VA_BAR3 + (32 << 20) - 1, 0x7fc00000);
    vram_wr64(f, CHAN + 0x200 + 8 * 8, PT4K | 0x3);
    vram_wr64(f, PT4K + 0 * 8, PAGE_A | 1 << 7 | 1);
    vram_wr64(f, PT4K + 1 * 8, PAGE_A | 1 << 7 | 1);
    vram_wr64(f, PT4K + 2 * 8, 0x00500000 | 1 << 3 | 1);   /* read-only */
    /* page 3 absent */
    /* BAR1: PDE 0 -> 64 KiB pages, page 0 at 0x400000 */
    dma_obj(f, DMA_BAR1, 0, (256 << 20) - 1, 0x7fc00000);
    vram_wr64(f, CHAN + 0x200, PT64K | 0x1);
    vram_wr64(f, PT64K, 0x00400000 | 1);

    wr(f, NV_PBUS_BAR_CHAN, CHAN >> 12);
    wr(f, NV_PBUS_BAR_CHAN, NV_BAR_CHAN_WHICH_BAR | CHAN >> 12);
    wr(f, NV_PBUS_BAR3, NV_BAR_MODE_DMAOBJ | DMA_BAR3 >> 4);
    wr(f, NV_PBUS_BAR1, NV_BAR_MODE_DMAOBJ | DMA_BAR1 >> 4);
    wr(f, NV_FLUSH, NV_FLUSH_TRIGGER);
    g_assert_cmphex(rd(f, NV_FLUSH) & NV_FLUSH_BUSY, ==, 0);
    wr(f, NV_PFB_VM_TRIGGER, 0x00060001);
    g_assert_cmphex(rd(f, NV_PFB_VM_TRIGGER) & NV_PFB_VM_TRIGGER_BUSY, ==,
                    0);
}

static void test_bar_paged(void)
{
    g_autofree char *err = NULL;
    Fixture f;

    open_size(&f, NV_VRAM_MIN);
    bar_setup(&f);

    /* page 0 and 1: one block from PAGE_A */
    nv_gpu_bar_write(f.gpu, 3, 0x10, 0xa5a5a5a5, 4);
    g_assert_cmphex(vram_rd32(&f, PAGE_A + 0x10), ==, 0xa5a5a5a5);
    vram_wr32(&f, PAGE_A + 0x1ffc, 0x5a5a5a5a);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 3, 0x1ffc, 4), ==, 0x5a5a5a5a);
    /* an access across the block's end into the read-only page */
    vram_wr32(&f, 0x00500000, 0x87654321);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 3, 0x1ffc, 8), ==,
                    0x876543215a5a5a5aull);
    /* read-only page: the write is dropped */
    nv_gpu_bar_write(f.gpu, 3, 0x2000, 0, 4);
    g_assert_cmphex(vram_rd32(&f, 0x00500000), ==, 0x87654321);
    /* absent page and past the limit: 0 */
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 3, 0x3000, 4), ==, 0);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 3, 32 << 20, 4), ==, 0);
    g_assert_cmpuint(f.fh->guest_errors, ==, 1);

    /* BAR1 on 64 KiB pages */
    vram_wr32(&f, 0x00400000 + 0xfff0, 0xbeef0001);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 1, 0xfff0, 4), ==, 0xbeef0001);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 1, 0x10000, 4), ==, 0);

    /* a PEEPHOLE channel write leaves the BAR channel alone */
    wr(&f, NV_PBUS_BAR_CHAN, 0x123);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 3, 0x10, 4), ==, 0xa5a5a5a5);

    /* the state as a migration stream carries it is accepted back */
    g_assert_true(nv_gpu_post_load(f.gpu, &err));

    /* bar1_fini writes 0: linear again */
    wr(&f, NV_PBUS_BAR1, 0);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 1, 0x00400000 + 0xfff0, 4), ==,
                    0xbeef0001);
    close_fx(&f);
}

/* Garbage tables: every walk ends in a fault, nothing outside VRAM. */
static void test_bar_garbage(void)
{
    Fixture f;

    open_size(&f, NV_VRAM_MIN);
    bar_setup(&f);
    /* a PDE pointing past VRAM, a DMA object with a huge limit */
    vram_wr64(&f, CHAN + 0x200 + 8 * 8, 0xfffffff000ull | 0x3);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 3, 0, 4), ==, 0);
    dma_obj(&f, DMA_BAR3, 0xffffffffffull, 0xffffffffffull, 0x7fc00000);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 3, 0x1000, 4), ==, 0);
    /* a BAR channel past VRAM, or not in VRAM */
    wr(&f, NV_PBUS_BAR_CHAN, NV_BAR_CHAN_WHICH_BAR | 0x0fffffff);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 3, 0, 8), ==, 0);
    wr(&f, NV_PBUS_BAR_CHAN, NV_BAR_CHAN_WHICH_BAR | 1u << 28);
    nv_gpu_bar_write(f.gpu, 3, 0, 1, 1);
    /* a linear (VRAM) DMA object */
    wr(&f, NV_PBUS_BAR_CHAN, NV_BAR_CHAN_WHICH_BAR | CHAN >> 12);
    dma_obj(&f, DMA_BAR3, 0x8000, 0xffff, 0x00010000);
    vram_wr32(&f, 0x8010, 0x31415926);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 3, 0x10, 4), ==, 0x31415926);
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 3, 0x8000, 4), ==, 0);
    close_fx(&f);
}

/* Reset forgets the BAR channel and the windows' modes. */
static void test_reset(void)
{
    Fixture f;

    open_size(&f, NV_VRAM_MIN);
    bar_setup(&f);
    nv_gpu_reset(f.gpu);
    g_assert_cmphex(rd(&f, NV_PBUS_BAR3), ==, 0);
    g_assert_cmphex(f.gpu->bar_chan, ==, 0);
    /* VRAM keeps its contents */
    g_assert_cmphex(nv_gpu_bar_read(f.gpu, 3, CHAN + 0x200 + 64, 4), ==,
                    (uint32_t)PT4K | 3);
    close_fx(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/nv-mem/sizing", test_sizing);
    g_test_add_func("/nv-mem/config", test_config);
    g_test_add_func("/nv-mem/pramin", test_pramin);
    g_test_add_func("/nv-mem/bar-linear", test_bar_linear);
    g_test_add_func("/nv-mem/bar-paged", test_bar_paged);
    g_test_add_func("/nv-mem/bar-garbage", test_bar_garbage);
    g_test_add_func("/nv-mem/reset", test_reset);
    return g_test_run();
}
