/*
 * qtest for intel-gpu: command streamers in legacy ring mode: stores, blits,
 * batches, error paths, DMA drills and resets during DMA.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "intel-gpu-qtest.h"

static void test_cs_ring_store_irq(void)
{
    uint32_t rcs = INTEL_RCS0_BASE;
    uint64_t msi;
    Buf ring, data;
    Gpu g;

    msi = gpu_start_irq(&g);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_MODE) &
                    INTEL_GFX_DISABLE_LEGACY_MODE, ==, 0);
    ring = buf_new(&g, 2);
    data = buf_new(&g, 1);
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt + 0x40, 0x5eed0001);
    EMIT(&g, &ring, MI_USER_INTERRUPT, MI_NOOP, MI_NOOP, MI_NOOP);
    ring_submit(&g, rcs, &ring);
    cs_settle(&g);

    g_assert_cmphex(buf_readl(&g, &data, 0x40), ==, 0x5eed0001);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, ring.len);
    assert_ring_idle(&g, rcs);
    expect_msi(&g, msi, 0, INTEL_GT_RENDER_USER_INTERRUPT);

    /*
     * The next request starts after MI_NOOPs to the ring's end (the ring
     * is zeroed) and wraps to its start; HEAD counts the wrap in 31:21.
     */
    ring.len = 0;
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt + 0x44, 0x5eed0002);
    EMIT(&g, &ring, MI_USER_INTERRUPT);
    wr(&g, rcs + INTEL_RING_TAIL, ring_tail(&g, &ring));
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 0x44), ==, 0x5eed0002);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, 1 << 21 | ring.len);
    assert_ring_idle(&g, rcs);
    expect_msi(&g, msi, 0, INTEL_GT_RENDER_USER_INTERRUPT);
    gpu_stop(&g);
}

/* A page of @pattern (byte i is i * 7 + 1) in @src, @dst all 0xee. */
static void blit_surfaces(Gpu *g, Buf *src, Buf *dst,
                          uint8_t pattern[INTEL_GGTT_PAGE_SIZE])
{
    *src = buf_new(g, 1);
    *dst = buf_new(g, 1);
    for (unsigned i = 0; i < INTEL_GGTT_PAGE_SIZE; i++) {
        pattern[i] = i * 7 + 1;
    }
    qtest_memwrite(g->qts, src->phys, pattern, INTEL_GGTT_PAGE_SIZE);
    qtest_memset(g->qts, dst->phys, 0xee, dst->size);
}

/* XY_* blits on BCS0 between linear 32 bpp surfaces in the GGTT. */
static void test_cs_blit(void)
{
    enum { SRC_PITCH = 256, DST_PITCH = 512, CPP = 4 };
    uint32_t bcs = INTEL_BCS0_BASE;
    uint8_t pattern[INTEL_GGTT_PAGE_SIZE], expect[INTEL_GGTT_PAGE_SIZE];
    uint8_t got[INTEL_GGTT_PAGE_SIZE];
    Buf ring, src, dst;
    Gpu g;

    gpu_start(&g);
    ring = buf_new(&g, 1);
    blit_surfaces(&g, &src, &dst, pattern);

    /* 5 x 3 pixels from src (2, 1) to dst (4, 2). */
    EMIT(&g, &ring, XY_SRC_COPY_BLT, XY_BR13_32BPP(BLT_ROP_SRC_COPY, DST_PITCH),
         2 << 16 | 4, 5 << 16 | 9, dst.gtt, 0,
         1 << 16 | 2, SRC_PITCH, src.gtt, 0);
    /* Fill dst (10, 5) - (13, 7) with one colour. */
    EMIT(&g, &ring, XY_COLOR_BLT, XY_BR13_32BPP(BLT_ROP_COLOR_COPY, DST_PITCH),
         5 << 16 | 10, 7 << 16 | 13, dst.gtt, 0, 0x11223344);
    ring_submit(&g, bcs, &ring);
    cs_settle(&g);
    assert_ring_idle(&g, bcs);
    g_assert_cmphex(rd(&g, bcs + INTEL_RING_ESR), ==, 0);

    memset(expect, 0xee, sizeof(expect));
    for (unsigned y = 0; y < 3; y++) {
        memcpy(&expect[(2 + y) * DST_PITCH + 4 * CPP],
               &pattern[(1 + y) * SRC_PITCH + 2 * CPP], 5 * CPP);
    }
    for (unsigned y = 5; y < 7; y++) {
        for (unsigned x = 10; x < 13; x++) {
            memcpy(&expect[y * DST_PITCH + x * CPP],
                   (const uint8_t[]) { 0x44, 0x33, 0x22, 0x11 }, CPP);
        }
    }
    qtest_memread(g.qts, dst.phys, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), expect, sizeof(expect));
    gpu_stop(&g);
}

/*
 * Tiled surfaces as i915 and IGT use them (gem_tiled_pread_basic,
 * gem_tiled_blits): an object written through a fenced aperture range
 * lands tiled in memory, the blitter reads it back as tiled; the blitter
 * writes a Y-tiled object that a Y fence reads back linearly.
 */
#define TILED_GTT       0x00200000u     /* in the aperture */
#define TILED_PITCH     1024u
#define TILED_ROWS      32u
#define TILED_PAGES     (TILED_PITCH * TILED_ROWS / INTEL_GGTT_PAGE_SIZE)
#define BCS_SWCTRL      0x22200u
#define   BCS_DST_Y     (1u << 1)

/* i915's i965_write_fence_reg: off, high dword, then low with valid. */
static void fence_set(Gpu *g, unsigned i, uint32_t start, uint32_t size,
                      uint32_t pitch, bool y)
{
    wr(g, INTEL_FENCE_REG(i), 0);
    wr(g, INTEL_FENCE_REG(i) + 4, (start + size - INTEL_GGTT_PAGE_SIZE) |
       (pitch / 128 - 1));
    wr(g, INTEL_FENCE_REG(i), start | (y ? 2 : 0) | 1);
}

/* Byte (@x, @y) of an X-tiled surface (IGT's x_ptr, no swizzling). */
static uint32_t x_tiled(uint32_t pitch, uint32_t x, uint32_t y)
{
    return y / 8 * pitch * 8 + x / 512 * 4096 + y % 8 * 512 + x % 512;
}

static void test_tiled_fence_blit(void)
{
    const uint32_t size = TILED_PITCH * TILED_ROWS;
    uint32_t bcs = INTEL_BCS0_BASE;
    g_autofree uint32_t *image = g_new(uint32_t, size / 4);
    g_autofree uint8_t *got = g_malloc(size);
    uint64_t xobj, yobj;
    Buf ring, lin;
    Gpu g;

    gpu_start(&g);
    for (uint32_t i = 0; i < size / 4; i++) {
        image[i] = 0xa0000000u | (i / 256) << 12 | i % 256;
    }
    /* Two fenced objects: X at TILED_GTT, Y right after it. */
    xobj = alloc_pages(&g, TILED_PAGES);
    yobj = alloc_pages(&g, TILED_PAGES);
    ggtt_map(&g, TILED_GTT, xobj, TILED_PAGES);
    ggtt_map(&g, TILED_GTT + size, yobj, TILED_PAGES);
    fence_set(&g, 0, TILED_GTT, size, TILED_PITCH, false);
    fence_set(&g, 1, TILED_GTT + size, size, TILED_PITCH, true);

    /* Written linearly through the aperture, stored X-tiled. */
    qpci_memwrite(g.dev, g.bar[2], TILED_GTT, image, size);
    qtest_memread(g.qts, xobj, got, size);
    for (uint32_t y = 0; y < TILED_ROWS; y++) {
        for (uint32_t x = 0; x < TILED_PITCH; x++) {
            g_assert_cmphex(got[x_tiled(TILED_PITCH, x, y)], ==,
                            ((uint8_t *)image)[y * TILED_PITCH + x]);
        }
    }

    /*
     * The blitter detiles it into a linear buffer, then tiles that into
     * the Y object (BCS_SWCTRL's destination bit).
     */
    ring = buf_new(&g, 1);
    lin = buf_new(&g, TILED_PAGES);
    EMIT(&g, &ring, XY_SRC_COPY_BLT | XY_SRC_COPY_BLT_SRC_TILED,
         XY_BR13_32BPP(BLT_ROP_SRC_COPY, TILED_PITCH), 0,
         TILED_ROWS << 16 | TILED_PITCH / 4, lin.gtt, 0,
         0, TILED_PITCH / 4, TILED_GTT, 0);
    EMIT(&g, &ring, MI_LOAD_REGISTER_IMM(1), BCS_SWCTRL,
         BCS_DST_Y << 16 | BCS_DST_Y);
    EMIT(&g, &ring, XY_SRC_COPY_BLT | XY_SRC_COPY_BLT_DST_TILED,
         XY_BR13_32BPP(BLT_ROP_SRC_COPY, TILED_PITCH / 4), 0,
         TILED_ROWS << 16 | TILED_PITCH / 4, TILED_GTT + size, 0,
         0, TILED_PITCH, lin.gtt, 0);
    EMIT(&g, &ring, MI_LOAD_REGISTER_IMM(1), BCS_SWCTRL, BCS_DST_Y << 16);
    ring_submit(&g, bcs, &ring);
    cs_settle(&g);
    assert_ring_idle(&g, bcs);
    g_assert_cmphex(rd(&g, bcs + INTEL_RING_ESR), ==, 0);
    qtest_memread(g.qts, lin.phys, got, size);
    g_assert_cmpmem(got, size, image, size);

    /* The Y object, read through its fence, is the image again. */
    qpci_memread(g.dev, g.bar[2], TILED_GTT + size, got, size);
    g_assert_cmpmem(got, size, image, size);
    /* And it is tiled in memory: row 1 starts at the second OWord. */
    g_assert_cmphex(qtest_readl(g.qts, yobj + 16), ==, image[256]);
    gpu_stop(&g);
}

/*
 * A batch that jumps to itself runs until stopped, in slices: the device
 * keeps answering, STOP_RING idles it and an engine reset clears it.
 */
static void test_cs_self_loop(void)
{
    uint32_t rcs = INTEL_RCS0_BASE, ts, acthd;
    Buf ring, batch;
    Gpu g;

    gpu_start(&g);
    ring = buf_new(&g, 1);
    batch = buf_new(&g, 1);
    EMIT(&g, &batch, MI_BATCH_BUFFER_START_GEN8, batch.gtt, 0);
    EMIT(&g, &ring, MI_BATCH_BUFFER_START_GEN8, batch.gtt, 0);
    ring_submit(&g, rcs, &ring);
    qtest_clock_step(g.qts, 1);
    for (int i = 0; i < 5; i++) {
        ts = rd(&g, rcs + INTEL_RING_TIMESTAMP);
        qtest_clock_step(g.qts, CS_SETTLE_NS);
        g_assert_cmpuint((uint32_t)(rd(&g, rcs + INTEL_RING_TIMESTAMP) - ts),
                         >, 0);
        acthd = rd(&g, rcs + INTEL_RING_ACTHD);
        g_assert_cmphex(acthd, >=, batch.gtt);
        g_assert_cmphex(acthd, <, batch.gtt + batch.len);
        g_assert_false(engine_idle(&g, rcs));
    }

    wr(&g, rcs + INTEL_RING_MI_MODE, 0x01000100);       /* STOP_RING */
    g_assert_true(engine_idle(&g, rcs));
    acthd = rd(&g, rcs + INTEL_RING_ACTHD);
    qtest_clock_step(g.qts, CS_SETTLE_NS);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ACTHD), ==, acthd);

    wr(&g, INTEL_GDRST, INTEL_GRDOM_RENDER);
    g_assert_cmphex(rd(&g, INTEL_GDRST), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_TAIL), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_START), ==, 0);
    g_assert_true(engine_idle(&g, rcs));
    gpu_stop(&g);
}

/*
 * An invalid command header halts the engine with a CS error until an
 * engine reset; after it the engine runs a new ring.
 */
static void test_cs_invalid_opcode(void)
{
    static const uint32_t invalid[] = {
        MI_INSTR(0x3F, 0),                      /* no such MI opcode */
        1u << INSTR_CLIENT_SHIFT,               /* reserved Command Type */
    };
    uint32_t rcs = INTEL_RCS0_BASE;
    uint64_t msi;
    Buf ring, data;
    Gpu g;

    msi = gpu_start_irq(&g);
    data = buf_new(&g, 1);
    for (unsigned i = 0; i < ARRAY_SIZE(invalid); i++) {
        uint32_t off = 16 * i;

        g_test_message("header 0x%08x", invalid[i]);
        /* i915's enable_error_interrupt. */
        wr(&g, rcs + INTEL_RING_EMR, ~0u);
        wr(&g, rcs + INTEL_RING_EIR, ~0u);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
        wr(&g, rcs + INTEL_RING_EMR, ~INTEL_ERROR_INSTRUCTION);
        ring = buf_new(&g, 1);
        emit_store(&g, &ring, MI_USE_GGTT, data.gtt + off, 1);
        EMIT(&g, &ring, invalid[i]);
        emit_store(&g, &ring, MI_USE_GGTT, data.gtt + off + 4, 2);
        ring_submit(&g, rcs, &ring);
        cs_settle(&g);

        g_assert_cmphex(buf_readl(&g, &data, off), ==, 1);
        g_assert_cmphex(buf_readl(&g, &data, off + 4), ==, 0);
        g_assert_true(engine_idle(&g, rcs));
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_EIR) &
                        INTEL_ERROR_INSTRUCTION, ==, INTEL_ERROR_INSTRUCTION);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR) &
                        INTEL_ERROR_INSTRUCTION, ==, INTEL_ERROR_INSTRUCTION);
        expect_msi(&g, msi, 0, INTEL_GT_CS_MASTER_ERROR);
        /* EIR is write-1-to-clear; ESR is status until the reset. */
        wr(&g, rcs + INTEL_RING_EIR, INTEL_ERROR_INSTRUCTION);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_EIR), ==, 0);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==,
                        INTEL_ERROR_INSTRUCTION);
        /* Halted: time does not move it on. */
        qtest_clock_step(g.qts, CS_SETTLE_NS);
        g_assert_cmphex(buf_readl(&g, &data, off + 4), ==, 0);

        wr(&g, INTEL_GDRST, INTEL_GRDOM_RENDER);
        g_assert_cmphex(rd(&g, INTEL_GDRST), ==, 0);
        g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
        ring = buf_new(&g, 1);
        emit_store(&g, &ring, MI_USE_GGTT, data.gtt + off + 8, 3);
        EMIT(&g, &ring, MI_USER_INTERRUPT);
        ring_submit(&g, rcs, &ring);
        cs_settle(&g);
        g_assert_cmphex(buf_readl(&g, &data, off + 8), ==, 3);
        g_assert_cmphex(buf_readl(&g, &data, off + 4), ==, 0);
        assert_ring_idle(&g, rcs);
        expect_msi(&g, msi, 0, INTEL_GT_RENDER_USER_INTERRUPT);
    }
    gpu_stop(&g);
}

/*
 * x-intel-gpu-drill-hang: rcs0 stops fetching with no error (HEAD still,
 * not idle, ESR clear) until a GDRST render reset, after which a new
 * request runs.  Naming an engine that does not exist is an error.
 */
static void test_drill_hang(void)
{
    uint32_t rcs = INTEL_RCS0_BASE;
    Buf ring, data;
    Gpu g;

    gpu_start(&g);
    ring = buf_new(&g, 1);
    data = buf_new(&g, 1);
    qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-hang', 'arguments': "
           "{'id': 'gpu', 'engine-class': 0, 'instance': 0}}");
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt, 0xdead0001);
    ring_submit(&g, rcs, &ring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 0), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, 0);
    g_assert_false(engine_idle(&g, rcs));
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);

    wr(&g, INTEL_GDRST, INTEL_GRDOM_RENDER);
    g_assert_cmphex(rd(&g, INTEL_GDRST), ==, 0);
    ring.len = 0;
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt + 4, 0x600d0002);
    ring_submit(&g, rcs, &ring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 4), ==, 0x600d0002);
    assert_ring_idle(&g, rcs);

    qmp_refused(&g, "{'execute': 'x-intel-gpu-drill-hang', "
                "'arguments': {'id': 'gpu', 'engine-class': 5, "
                "'instance': 0}}");
    gpu_stop(&g);
}

/* RING_FAULT_REG and FAULT_TLB_DATA0 name this engine's GGTT fault. */
static void expect_ggtt_fault(Gpu *g, int klass, uint32_t gtt)
{
    g_assert_cmphex(rd(g, INTEL_RING_FAULT_REG), ==, 1u | klass << 12);
    g_assert_cmphex(rd(g, INTEL_FAULT_TLB_DATA0), ==, gtt >> 12);
    wr(g, INTEL_RING_FAULT_REG, 0);
}

/*
 * x-intel-gpu-drill-dma: a store on rcs0 whose write the drill fails
 * lands nothing and takes the page-fault path (RING_FAULT_REG, the
 * page-table error in ESR, engine halted); a blit on bcs0 leaves its
 * destination untouched.  After an engine reset each engine runs its
 * next request, and the same blit copies.
 */
static void test_drill_dma(void)
{
    enum { PITCH = 256, W = PITCH / 4, H = 4 };   /* whole rows */
    uint32_t rcs = INTEL_RCS0_BASE, bcs = INTEL_BCS0_BASE;
    uint8_t pattern[INTEL_GGTT_PAGE_SIZE], got[PITCH * H];
    Buf ring, data, src, dst;
    Gpu g;

    gpu_start(&g);
    ring = buf_new(&g, 1);
    data = buf_new(&g, 1);
    drill_dma(&g, 0, 0, 1);
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt, 0xd0a00001);
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt + 4, 0xd0a00002);
    ring_submit(&g, rcs, &ring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 0), ==, 0);
    g_assert_cmphex(buf_readl(&g, &data, 4), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, INTEL_ERROR_PAGE_TABLE);
    expect_ggtt_fault(&g, 0, data.gtt);
    g_assert_true(engine_idle(&g, rcs));
    wr(&g, INTEL_GDRST, INTEL_GRDOM_RENDER);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
    ring.len = 0;
    emit_store(&g, &ring, MI_USE_GGTT, data.gtt + 8, 0xd0a00003);
    ring_submit(&g, rcs, &ring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &data, 8), ==, 0xd0a00003);
    assert_ring_idle(&g, rcs);

    ring = buf_new(&g, 1);
    blit_surfaces(&g, &src, &dst, pattern);
    EMIT(&g, &ring, XY_SRC_COPY_BLT, XY_BR13_32BPP(BLT_ROP_SRC_COPY, PITCH),
         0, H << 16 | W, dst.gtt, 0, 0, PITCH, src.gtt, 0);
    drill_dma(&g, 3, 0, 1);
    ring_submit(&g, bcs, &ring);
    cs_settle(&g);
    qtest_memread(g.qts, dst.phys, got, sizeof(got));
    for (unsigned i = 0; i < sizeof(got); i++) {
        g_assert_cmphex(got[i], ==, 0xee);
    }
    g_assert_cmphex(rd(&g, bcs + INTEL_RING_ESR), ==, INTEL_ERROR_PAGE_TABLE);
    expect_ggtt_fault(&g, 3, dst.gtt);
    wr(&g, INTEL_GDRST, INTEL_GRDOM_BLT);
    ring_submit(&g, bcs, &ring);
    cs_settle(&g);
    qtest_memread(g.qts, dst.phys, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), pattern, sizeof(got));
    assert_ring_idle(&g, bcs);

    qmp_refused(&g, "{'execute': 'x-intel-gpu-drill-dma', 'arguments': "
                "{'id': 'gpu', 'engine-class': 5, 'instance': 0, "
                "'count': 1}}");
    gpu_stop(&g);
}

static void test_cs_ppgtt_batch(void)
{
    const uint64_t batch_va = BATCH_VA;
    uint32_t rcs = INTEL_RCS0_BASE;
    Buf hwsp, batch, target;
    Ppgtt pp;
    Ctx ctx;
    Gpu g;

    gpu_start(&g);
    ppgtt_batch_init(&g, &pp, &batch, &target);
    emit_store(&g, &batch, 0, batch_va + 0x1080, 0x99990001);
    EMIT(&g, &batch, MI_BATCH_BUFFER_END);

    hwsp = execlists_enable(&g, rcs);
    ctx_init_batch(&g, &ctx, rcs, &pp);
    ctx_submit(&g, rcs, &ctx, CCID(1));
    cs_settle(&g);

    g_assert_cmphex(qtest_readl(g.qts, target.phys + 0x80), ==, 0x99990001);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
    EXPECT_CSB(&g, rcs, &hwsp, 0, INTEL_CSB_IDLE_ACTIVE,
               INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE);
    gpu_stop(&g);
}

#define HEAVY_STORES    4096
#define HEAVY_DATA_PAGES (HEAVY_STORES * 4 / INTEL_GGTT_PAGE_SIZE)

/* How many of the heavy batch's stores have landed. */
static unsigned heavy_count(Gpu *g, const Buf *data)
{
    g_autofree uint32_t *v = g_new(uint32_t, HEAVY_STORES);
    unsigned n = 0;

    qtest_memread(g->qts, data->phys, v, HEAVY_STORES * 4);
    for (unsigned i = 0; i < HEAVY_STORES; i++) {
        if (GUINT32_FROM_LE(v[i]) == i + 1) {
            n++;
        } else {
            g_assert_cmphex(v[i], ==, 0);
        }
    }
    return n;
}

/*
 * rcs0 in a legacy ring runs a batch of HEAVY_STORES MI_STORE_DATA_IMM
 * (store i writes i + 1 to dword i, several slices of work) and then a
 * user interrupt; returns once part of it has landed.
 */
static Buf heavy_start(Gpu *g)
{
    g_autofree uint32_t *bb = g_new(uint32_t, HEAVY_STORES * 4 + 2);
    Buf ring = buf_new(g, 1);
    Buf data = buf_new(g, HEAVY_DATA_PAGES);
    Buf batch = buf_new(g, HEAVY_STORES * 16 / INTEL_GGTT_PAGE_SIZE + 1);
    unsigned n = 0;

    for (unsigned i = 0; i < HEAVY_STORES; i++) {
        bb[4 * i] = GUINT32_TO_LE(MI_STORE_DWORD_IMM_GEN4 | MI_USE_GGTT);
        bb[4 * i + 1] = GUINT32_TO_LE(data.gtt + 4 * i);
        bb[4 * i + 2] = 0;
        bb[4 * i + 3] = GUINT32_TO_LE(i + 1);
    }
    bb[4 * HEAVY_STORES] = GUINT32_TO_LE(MI_BATCH_BUFFER_END);
    bb[4 * HEAVY_STORES + 1] = 0;
    qtest_memwrite(g->qts, batch.phys, bb, (HEAVY_STORES * 4 + 2) * 4);
    EMIT(g, &ring, MI_BATCH_BUFFER_START_GEN8, batch.gtt, 0, MI_USER_INTERRUPT);
    ring_submit(g, INTEL_RCS0_BASE, &ring);
    for (int i = 0; i < 100 && !n; i++) {
        qtest_clock_step(g->qts, 10000);
        n = heavy_count(g, &data);
    }
    g_assert_cmpuint(n, >, 0);
    g_assert_cmpuint(n, <, HEAVY_STORES);
    return data;
}

typedef enum ResetKind {
    RESET_SYSTEM,           /* qtest system_reset */
    RESET_FLR,              /* PCI Express function level reset */
    RESET_GDRST,            /* GDRST full GT reset */
} ResetKind;

/*
 * A reset while the heavy batch runs, with a delayed interrupt (the
 * interrupt drill) pending for the device resets: once the driver has
 * set up MSI and the interrupt tree again, nothing more lands in memory
 * and no MSI arrives, with virtual time stepped far past where the rest
 * would have run; rcs0's registers are back to their defaults (and for
 * the device resets the register file and GGTT too); a new request then
 * stores its value and interrupts.
 */
static void test_reset_during_dma(const void *opaque)
{
    ResetKind kind = GPOINTER_TO_INT(opaque);
    uint32_t rcs = INTEL_RCS0_BASE;
    uint64_t msi, msi2;
    unsigned n;
    Buf data, ring, out;
    Gpu g;

    msi = gpu_start_irq(&g);
    wr(&g, INTEL_PAT_INDEX(2), 0x3);
    data = heavy_start(&g);
    if (kind != RESET_GDRST) {
        qmp_ok(&g, "{'execute': 'x-intel-gpu-drill-irq', 'arguments': "
               "{'id': 'gpu', 'engine-class': 0, 'instance': 0, "
               "'count': 1, 'delay-ns': 5000000}}");
        inject(&g, 0, 0, INTEL_GT_RENDER_USER_INTERRUPT);
    }
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);

    switch (kind) {
    case RESET_SYSTEM:
        qtest_system_reset(g.qts);
        gpu_map(&g);
        break;
    case RESET_FLR:
        g_assert_cmphex(qpci_config_readl(g.dev, INTEL_PCI_PCIE_CAP +
                                          PCI_EXP_DEVCAP) &
                        PCI_EXP_DEVCAP_FLR, ==, PCI_EXP_DEVCAP_FLR);
        qpci_config_writew(g.dev, INTEL_PCI_PCIE_CAP + PCI_EXP_DEVCTL,
                           qpci_config_readw(g.dev, INTEL_PCI_PCIE_CAP +
                                             PCI_EXP_DEVCTL) |
                           PCI_EXP_DEVCTL_BCR_FLR);
        g_assert_cmphex(qpci_config_readw(g.dev, PCI_COMMAND) &
                        PCI_COMMAND_MASTER, ==, 0);
        gpu_map(&g);
        break;
    case RESET_GDRST:
        wr(&g, INTEL_GDRST, INTEL_GRDOM_FULL);
        g_assert_cmphex(rd(&g, INTEL_GDRST), ==, 0);
        break;
    }
    n = heavy_count(&g, &data);
    msi2 = msi_to_ram(&g);
    irq_postinstall(&g);
    qtest_clock_step(g.qts, 100 * CS_SETTLE_NS);
    g_assert_cmpuint(heavy_count(&g, &data), ==, n);
    g_assert_cmphex(qtest_readl(g.qts, msi), ==, 0);
    g_assert_cmphex(qtest_readl(g.qts, msi2), ==, 0);
    g_assert_cmphex(rd(&g, INTEL_GT_INTR_DW(0)), ==, 0);

    g_assert_cmphex(rd(&g, rcs + INTEL_RING_HEAD), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_TAIL), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_START), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_CTL), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_BBADDR), ==, 0);
    g_assert_cmphex(rd(&g, rcs + INTEL_RING_ESR), ==, 0);
    g_assert_true(engine_idle(&g, rcs));
    if (kind != RESET_GDRST) {
        g_assert_cmphex(rd(&g, INTEL_PAT_INDEX(2)), ==, 0);
        g_assert_cmphex(qpci_io_readq(g.dev, g.bar[0], INTEL_GSM_OFFSET +
                                      (data.gtt / INTEL_GGTT_PAGE_SIZE) * 8),
                        ==, 0);
    }

    ring = buf_new(&g, 1);
    out = buf_new(&g, 1);
    emit_store(&g, &ring, MI_USE_GGTT, out.gtt, 0x600d0001);
    EMIT(&g, &ring, MI_USER_INTERRUPT);
    ring_submit(&g, rcs, &ring);
    cs_settle(&g);
    g_assert_cmphex(buf_readl(&g, &out, 0), ==, 0x600d0001);
    assert_ring_idle(&g, rcs);
    expect_msi(&g, msi2, 0, INTEL_GT_RENDER_USER_INTERRUPT);
    g_assert_cmpuint(heavy_count(&g, &data), ==, n);
    gpu_stop(&g);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/intel-gpu/cs/ring-store-irq", test_cs_ring_store_irq);
    qtest_add_func("/intel-gpu/cs/ppgtt-batch", test_cs_ppgtt_batch);
    qtest_add_func("/intel-gpu/cs/blit", test_cs_blit);
    qtest_add_func("/intel-gpu/cs/tiled-fence-blit", test_tiled_fence_blit);
    qtest_add_func("/intel-gpu/cs/self-loop", test_cs_self_loop);
    qtest_add_func("/intel-gpu/cs/invalid-opcode", test_cs_invalid_opcode);
    qtest_add_func("/intel-gpu/cs/drill-hang", test_drill_hang);
    qtest_add_func("/intel-gpu/cs/drill-dma", test_drill_dma);
    qtest_add_data_func("/intel-gpu/reset/system-during-dma",
                        GINT_TO_POINTER(RESET_SYSTEM), test_reset_during_dma);
    qtest_add_data_func("/intel-gpu/reset/flr-during-dma",
                        GINT_TO_POINTER(RESET_FLR), test_reset_during_dma);
    qtest_add_data_func("/intel-gpu/reset/gdrst-during-dma",
                        GINT_TO_POINTER(RESET_GDRST), test_reset_during_dma);
    return g_test_run();
}
