/*
 * nv-gpu PFIFO: a G84 GPFIFO channel laid out the way nouveau lays out
 * its kernel channel (drivers/gpu/drm/nouveau/nvkm/engine/fifo/chang84.c,
 * gpfifog84.c; nvkm/core/ramht.c; nouveau_dma.c; nv84_fence.c;
 * nouveau_bo5039.c): fence semaphores, the non-stall interrupt, M2MF
 * copies, acquires that wait, long runs cut and resumed, and faults.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <string.h>
#include "fake-host.h"
#include "nvidia/nv-gpu-int.h"

#define CHID        1
#define INST        0x00100000ull   /* channel instance; PD at +0x200 */
#define RAMFC       0x00110000ull
#define PT          0x00200000ull   /* 4 KiB pages, VA 0 .. 2 MiB */
#define PT64        0x00210000ull   /* 64 KiB pages, VA 512 MiB .. */
#define PAGES       0x00300000ull   /* VRAM behind VA 0 .. */
#define DMA_PUSH    0x1000          /* instance offsets */
#define DMA_VM      0x1020
#define OBJ_M2MF    0x1040
#define RAMHT       0x2000
#define H_VM        0x80000002u
#define H_M2MF      0x5039u
#define VA_IB       0x10000
#define VA_PUSH     0x20000         /* in system memory */
#define SYS_PUSH    0x00400000ull
#define VA_SEM      0x30000
#define VA_BIG      0x20000000ull
#define USER(r)     (NV_USER_BASE + CHID * NV_USER_STRIDE + (r))

typedef struct Fixture {
    FakeHost *fh;
    NvGpu *gpu;
    uint32_t ib_put;
    uint32_t push[256];
    unsigned npush;
} Fixture;

static void wr(Fixture *f, uint32_t off, uint32_t v)
{
    nv_gpu_write(f->gpu, off, v);
}

static uint32_t rd(Fixture *f, uint32_t off)
{
    return nv_gpu_read(f->gpu, off);
}

static void vram_wr32(Fixture *f, uint64_t a, uint32_t v)
{
    uint8_t b[4];

    nv_le32_put(b, v);
    g_assert_true(nv_mem_rw(f->gpu, 0, a, b, 4, true));
}

static uint32_t vram_rd32(Fixture *f, uint64_t a)
{
    uint8_t b[4];

    g_assert_true(nv_mem_rw(f->gpu, 0, a, b, 4, false));
    return nv_le32_get(b);
}

static void vram_wr64(Fixture *f, uint64_t a, uint64_t v)
{
    vram_wr32(f, a, v);
    vram_wr32(f, a + 4, v >> 32);
}

/* A VM DMA object over the whole 40-bit space (nv50_dmaobj_bind). */
static void dmaobj_vm(Fixture *f, uint32_t off)
{
    vram_wr32(f, INST + off + 0x0, 0x7fc00000);     /* target 0: VM */
    vram_wr32(f, INST + off + 0x4, 0xffffffff);
    vram_wr32(f, INST + off + 0x8, 0);
    vram_wr32(f, INST + off + 0xc, 0xff000000);
}

static void ramht_add(Fixture *f, unsigned slot, uint32_t handle,
                      uint32_t ctx)
{
    vram_wr32(f, INST + RAMHT + slot * 8, handle);
    vram_wr32(f, INST + RAMHT + slot * 8 + 4, ctx);
}

static void setup(Fixture *f, gconstpointer data)
{
    NvGpuConfig cfg = { .vram_size = NV_VRAM_MIN };

    memset(f, 0, sizeof(*f));
    f->fh = fake_host_new();
    f->gpu = nv_gpu_new(&cfg, &f->fh->host);
    /* VM: 4 KiB pages from VRAM PAGES, the push buffer page in sysram */
    vram_wr64(f, INST + 0x200, PT | 0x3);
    for (unsigned i = 0; i < 0x40; i++) {
        vram_wr64(f, PT + i * 8, (PAGES + i * 0x1000) | 1);
    }
    vram_wr64(f, PT + (VA_PUSH >> 12) * 8, SYS_PUSH | 2 << 4 | 1);
    dmaobj_vm(f, DMA_PUSH);
    dmaobj_vm(f, DMA_VM);
    vram_wr32(f, INST + OBJ_M2MF, H_M2MF);          /* its class */
    /* RAMHT (slots are nouveau's hash; any slot is found) */
    ramht_add(f, 0x82, H_VM, DMA_VM >> 4);
    ramht_add(f, 0x3c, H_M2MF, OBJ_M2MF >> 4 | 1 << 20);
    /* RAMFC and the channel table, as g84_fifo_gpfifo_new writes them */
    vram_wr32(f, RAMFC + 0x48, DMA_PUSH >> 4);
    vram_wr32(f, RAMFC + 0x50, VA_IB);
    vram_wr32(f, RAMFC + 0x54, 9 << 16);            /* 512 entries */
    vram_wr32(f, RAMFC + 0x80, 3u << 27 | 4 << 24 | RAMHT >> 4);
    vram_wr32(f, RAMFC + 0x98, INST >> 12);
    wr(f, NV_PFIFO_CHAN(CHID), NV_PFIFO_CHAN_VALID | RAMFC >> 8);
    wr(f, NV_PFIFO_INTR_EN, NV_PFIFO_INTR_UEVENT);
    wr(f, NV_PMC_INTR_EN, NV_PMC_INTR_EN_HW);
}

static void teardown(Fixture *f, gconstpointer data)
{
    nv_gpu_free(f->gpu);
    fake_host_free(f->fh);
}

/* cl006c method header: incrementing (0) or non-incrementing (2). */
static void mthd(Fixture *f, unsigned subc, uint32_t m, unsigned n, ...)
{
    va_list ap;

    f->push[f->npush++] = n << 18 | subc << 13 | m;
    va_start(ap, n);
    for (unsigned i = 0; i < n; i++) {
        f->push[f->npush++] = va_arg(ap, uint32_t);
    }
    va_end(ap);
}

/* Write the words into the push buffer, one IB entry, IB_PUT (a kick). */
static void kick(Fixture *f)
{
    /* VA_IB is in the VRAM-backed range: VA x is PAGES + x there. */
    uint64_t pa = PAGES + VA_IB + (f->ib_put * 8) % 0x1000;

    memcpy(f->fh->ram + SYS_PUSH, f->push, f->npush * 4);
    vram_wr32(f, pa, VA_PUSH);
    vram_wr32(f, pa + 4, f->npush << 10);
    f->ib_put++;
    wr(f, USER(NV_USER_IB_PUT), f->ib_put);
}

/* nv84_fence_emit32: the fence's release and the non-stall interrupt. */
static void test_fence(Fixture *f, gconstpointer data)
{
    mthd(f, 0, 0x60, 1, H_VM);
    mthd(f, 0, 0x10, 5, 0, VA_SEM, 0x1234, 2, 0);
    kick(f);
    g_assert_cmphex(vram_rd32(f, PAGES + VA_SEM), ==, 0x1234);
    g_assert_cmpuint(rd(f, USER(NV_USER_IB_GET)), ==, 1);
    g_assert_cmphex(rd(f, USER(NV_USER_GET)), ==, VA_PUSH + f->npush * 4);
    g_assert_cmphex(rd(f, NV_PFIFO_INTR), ==, NV_PFIFO_INTR_UEVENT);
    g_assert_cmphex(rd(f, NV_PMC_INTR), ==, NV_PMC_INTR_PFIFO);
    g_assert_true(f->fh->irq);
    wr(f, NV_PFIFO_INTR, NV_PFIFO_INTR_UEVENT);     /* nouveau's ack */
    g_assert_false(f->fh->irq);
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);
}

/* nv50_bo_move_init + nv50_bo_move_m2mf: a pitch copy of 4 lines. */
static void test_m2mf(Fixture *f, gconstpointer data)
{
    for (unsigned i = 0; i < 64; i++) {
        vram_wr32(f, PAGES + 0x4000 + i * 4, 0xa0000000 + i);
    }
    mthd(f, 4, 0x0000, 1, H_M2MF);
    mthd(f, 4, 0x0180, 3, H_VM, H_VM, H_VM);
    mthd(f, 4, 0x0200, 1, 1);
    mthd(f, 4, 0x021c, 1, 1);
    mthd(f, 4, 0x0238, 2, 0, 0);
    mthd(f, 4, 0x030c, 8, 0x4000, 0x8000, 64, 64, 64, 4, 0x101, 0);
    kick(f);
    for (unsigned i = 0; i < 64; i++) {
        g_assert_cmphex(vram_rd32(f, PAGES + 0x8000 + i * 4), ==,
                        0xa0000000 + i);
    }
    g_assert_cmphex(vram_rd32(f, PAGES + 0x8100), ==, 0);
    g_assert_cmpuint(f->fh->unimps, ==, 0);
}

/* ACQ_GEQ waits until the semaphore reaches the value, polled. */
static void test_acquire(Fixture *f, gconstpointer data)
{
    vram_wr32(f, PAGES + VA_SEM, 5);
    mthd(f, 0, 0x60, 1, H_VM);
    mthd(f, 0, 0x10, 4, 0, VA_SEM, 7, 4);           /* wait for >= 7 */
    mthd(f, 0, 0x10, 4, 0, VA_SEM + 4, 0x99, 2);    /* then release */
    kick(f);
    g_assert_cmphex(vram_rd32(f, PAGES + VA_SEM + 4), ==, 0);
    fake_host_step(f->fh, 5000000);
    g_assert_cmphex(vram_rd32(f, PAGES + VA_SEM + 4), ==, 0);
    vram_wr32(f, PAGES + VA_SEM, 8);
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(vram_rd32(f, PAGES + VA_SEM + 4), ==, 0x99);
    g_assert_cmphex(rd(f, USER(NV_USER_GET)), ==, VA_PUSH + f->npush * 4);
}

/*
 * 6 MiB of push buffer (zeros: empty headers) in one IB entry: the first
 * kick runs a budget of 0x10000 words (the IB entry one of them), the
 * rest follows from the timer, 0x10000 words every 10 us.
 */
static void test_long_run(Fixture *f, gconstpointer data)
{
    uint32_t words = 6u << 18;
    uint32_t ib = PAGES + VA_IB;

    vram_wr64(f, INST + 0x200 + (VA_BIG >> 29) * 8, PT64 | 0x1);
    for (unsigned i = 0; i < 96; i++) {
        vram_wr64(f, PT64 + i * 8, (0x01000000ull + i * 0x10000) | 1);
    }
    vram_wr32(f, ib, (uint32_t)VA_BIG);
    vram_wr32(f, ib + 4, (uint32_t)(VA_BIG >> 32) | words << 10);
    wr(f, USER(NV_USER_IB_PUT), 1);
    g_assert_cmphex(rd(f, USER(NV_USER_GET)), ==, VA_BIG + 0xffff * 4);
    fake_host_step(f->fh, 10000);
    g_assert_cmphex(rd(f, USER(NV_USER_GET)), ==, VA_BIG + 0x1ffff * 4);
    fake_host_step(f->fh, 1000000);
    g_assert_cmphex(rd(f, USER(NV_USER_GET)), ==, VA_BIG + words * 4ull);
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);
}

/* A push buffer running off its mapping stops the channel, once. */
static void test_fault(Fixture *f, gconstpointer data)
{
    uint32_t ib = PAGES + VA_IB;

    vram_wr32(f, ib, 0x3f000);                  /* the last mapped page */
    vram_wr32(f, ib + 4, 0x2000 << 10);         /* and far past it */
    wr(f, USER(NV_USER_IB_PUT), 1);
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    g_assert_true(f->gpu->fifo.chan[CHID].faulted);
    g_assert_cmphex(rd(f, USER(NV_USER_GET)), ==, 0x40000);
    wr(f, USER(NV_USER_IB_PUT), 2);
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    /* turned off and on: runs again from an empty IB */
    wr(f, NV_PFIFO_CHAN(CHID), 0);
    wr(f, NV_PFIFO_CHAN(CHID), NV_PFIFO_CHAN_VALID | RAMFC >> 8);
    g_assert_false(f->gpu->fifo.chan[CHID].faulted);
    g_assert_cmpuint(rd(f, USER(NV_USER_IB_GET)), ==, 0);
    /* a channel that is off ignores kicks */
    wr(f, USER(NV_USER_IB_PUT) + NV_USER_STRIDE, 3);
    g_assert_cmpuint(rd(f, USER(NV_USER_IB_GET) + NV_USER_STRIDE), ==, 0);
}

/*
 * SET_OBJECTs of handles not in a 64 Ki-entry RAMHT: each search is
 * charged to the run, so a run stops after a few and the rest follows.
 */
static void test_ramht_cost(Fixture *f, gconstpointer data)
{
    vram_wr32(f, RAMFC + 0x80, 7u << 27 | RAMHT >> 4);
    for (unsigned i = 0; i < 16; i++) {
        mthd(f, 4, 0x0000, 1, 0x12340000 + i);
    }
    kick(f);
    g_assert_cmphex(rd(f, USER(NV_USER_GET)), <, VA_PUSH + f->npush * 4);
    fake_host_step(f->fh, 100000);
    g_assert_cmphex(rd(f, USER(NV_USER_GET)), ==, VA_PUSH + f->npush * 4);
    g_assert_cmpuint(f->fh->unimps, ==, 1);         /* logged once */
}

/* A loaded state with the parser out of range is refused. */
static void test_post_load(Fixture *f, gconstpointer data)
{
    g_autofree char *err = NULL;

    g_assert_true(nv_gpu_post_load(f->gpu, &err));
    f->gpu->fifo.chan[5].hdr_subc = 8;
    g_assert_false(nv_gpu_post_load(f->gpu, &err));
    g_assert_nonnull(strstr(err, "PFIFO channel 5"));
    f->gpu->fifo.chan[5].hdr_subc = 0;
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
#define ADD(name, fn) \
    g_test_add("/nv-fifo/" name, Fixture, NULL, setup, fn, teardown)
    ADD("fence", test_fence);
    ADD("m2mf", test_m2mf);
    ADD("acquire", test_acquire);
    ADD("long-run", test_long_run);
    ADD("fault", test_fault);
    ADD("ramht-cost", test_ramht_cost);
    ADD("post-load", test_post_load);
    return g_test_run();
}
