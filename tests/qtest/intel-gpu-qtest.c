/*
 * intel-gpu qtest helpers (see intel-gpu-qtest.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "intel-gpu-qtest.h"
#include "intel-gpu-igt-cmds.h"

const GpuModel gpu_model = {
    .devfn = GPU_DEVFN,
    .bars = GPU_BARS,
    .args = GPU_ARGS,
};

void forcewake(Gpu *g, uint32_t reg, bool on)
{
    wr(g, reg, 0x00010000 | on);
}

uint64_t alloc_pages(Gpu *g, unsigned n)
{
    uint64_t a = guest_alloc(&g->alloc, (n + 1) * INTEL_GGTT_PAGE_SIZE);

    return QEMU_ALIGN_UP(a, INTEL_GGTT_PAGE_SIZE);
}

void inject(Gpu *g, int klass, int instance, int bits)
{
    qmp_ok(g, "{'execute': 'x-intel-gpu-inject-irq', 'arguments': "
           "{'id': 'gpu', 'engine-class': %d, 'instance': %d, 'bits': %d}}",
           klass, instance, bits);
}

void irq_postinstall(Gpu *g)
{
    uint32_t irqs = 0x0909;

    wr(g, INTEL_RENDER_COPY_INTR_ENABLE, irqs << 16 | irqs);
    wr(g, INTEL_RCS0_RSVD_INTR_MASK, ~(irqs << 16));
    wr(g, INTEL_BCS_RSVD_INTR_MASK, ~(irqs << 16));
    wr(g, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
}

uint64_t msi_to_ram(Gpu *g)
{
    return gpu_msi_to_ram(g, INTEL_PCI_MSI_CAP, MSI_MAGIC);
}

uint64_t gpu_start_irq(Gpu *g)
{
    uint64_t msi;

    gpu_start(g);
    msi = msi_to_ram(g);
    irq_postinstall(g);
    return msi;
}

void service(Gpu *g, unsigned bank, unsigned bit, uint32_t expect)
{
    g_assert_cmphex(rd(g, INTEL_GT_INTR_DW(bank)) & (1u << bit), !=, 0);
    wr(g, INTEL_IIR_REG_SELECTOR(bank), 1u << bit);
    g_assert_cmphex(rd(g, INTEL_INTR_IDENTITY_REG(bank)), ==, expect);
    wr(g, INTEL_INTR_IDENTITY_REG(bank), INTEL_INTR_DATA_VALID);
    wr(g, INTEL_GT_INTR_DW(bank), 1u << bit);
}

void ggtt_map(Gpu *g, uint32_t gtt, uint64_t phys, unsigned pages)
{
    for (unsigned i = 0; i < pages; i++) {
        qpci_io_writeq(g->dev, g->bar[0], INTEL_GSM_OFFSET +
                       (gtt / INTEL_GGTT_PAGE_SIZE + i) * 8ull,
                       (phys + i * INTEL_GGTT_PAGE_SIZE) |
                       INTEL_GGTT_PTE_PRESENT);
    }
    wr(g, INTEL_GFX_FLSH_CNTL, INTEL_GFX_FLSH_CNTL_EN);
}

Buf buf_ram(Gpu *g, unsigned pages)
{
    Buf b = { .size = pages * INTEL_GGTT_PAGE_SIZE };

    b.phys = alloc_pages(g, pages);
    qtest_memset(g->qts, b.phys, 0, b.size);
    return b;
}

Buf buf_new(Gpu *g, unsigned pages)
{
    Buf b = buf_ram(g, pages);

    b.gtt = b.phys + GTT_BIAS;
    ggtt_map(g, b.gtt, b.phys, pages);
    return b;
}

uint32_t buf_readl(Gpu *g, const Buf *b, uint32_t off)
{
    return qtest_readl(g->qts, b->phys + off);
}

void buf_emit(Gpu *g, Buf *b, const uint32_t *dw, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        g_assert_cmpuint(b->len + 4, <=, b->size);
        qtest_writel(g->qts, b->phys + b->len, dw[i]);
        b->len += 4;
    }
}

void emit_sba_igt(Gpu *g, Buf *b, uint32_t base)
{
    uint32_t dw[IGT_SBA_DWORDS];

    igt_sba_pack(dw, base, true);
    buf_emit(g, b, dw, IGT_SBA_DWORDS);
}

void emit_pipeline_select(Gpu *g, Buf *b, uint32_t pipeline)
{
    Gen11_PIPELINE_SELECT ps = {
        .mask_bits = 3, .pipeline_selection = pipeline,
    };
    uint32_t dw;

    gen11_pipeline_select_pack(&dw, &ps);
    buf_emit(g, b, &dw, 1);
}

void emit_walker(Gpu *g, Buf *b, const Gen11_GPGPU_WALKER *w)
{
    uint32_t dw[GEN11_GPGPU_WALKER_LENGTH];

    gen11_gpgpu_walker_pack(dw, w);
    buf_emit(g, b, dw, GEN11_GPGPU_WALKER_LENGTH);
}

void emit_store(Gpu *g, Buf *b, uint32_t flags, uint64_t addr,
                uint32_t val)
{
    EMIT(g, b, MI_STORE_DWORD_IMM_GEN4 | flags, addr, addr >> 32, val);
}

uint32_t ring_tail(Gpu *g, Buf *ring)
{
    if (ring->len & 4) {
        EMIT(g, ring, MI_NOOP);
    }
    return ring->len;
}

void ring_submit(Gpu *g, uint32_t base, Buf *ring)
{
    wr(g, base + INTEL_RING_HEAD, 0);
    wr(g, base + INTEL_RING_START, ring->gtt);
    wr(g, base + INTEL_RING_CTL, (ring->size - INTEL_GGTT_PAGE_SIZE) | 1);
    wr(g, base + INTEL_RING_TAIL, ring_tail(g, ring));
}

void cs_settle(Gpu *g)
{
    qtest_clock_step(g->qts, CS_SETTLE_NS);
}

bool engine_idle(Gpu *g, uint32_t base)
{
    return rd(g, base + INTEL_RING_MI_MODE) & INTEL_MI_MODE_IDLE;
}

void assert_ring_idle(Gpu *g, uint32_t base)
{
    g_assert_cmphex(rd(g, base + INTEL_RING_HEAD) & 0x1ffffc, ==,
                    rd(g, base + INTEL_RING_TAIL) & 0x1ffff8);
    g_assert_true(engine_idle(g, base));
}

void engine_settle_idle(Gpu *g, uint32_t base)
{
    for (int i = 0; i < CS_SETTLE_IDLE_MAX && !engine_idle(g, base); i++) {
        cs_settle(g);
    }
    assert_ring_idle(g, base);
}

/*
 * What i915 does with a runaway engine: STOP_RING idles it where it is
 * (time no longer moves ACTHD), a GDRST engine reset clears it, and a new
 * request in a legacy ring then runs.
 */
void engine_stop_reset_run(Gpu *g, uint32_t base, uint32_t grdom)
{
    uint32_t acthd;
    Buf ring, data;

    wr(g, base + INTEL_RING_MI_MODE, 0x01000100);       /* STOP_RING */
    g_assert_true(engine_idle(g, base));
    acthd = rd(g, base + INTEL_RING_ACTHD);
    cs_settle(g);
    g_assert_cmphex(rd(g, base + INTEL_RING_ACTHD), ==, acthd);

    wr(g, INTEL_GDRST, grdom);
    g_assert_cmphex(rd(g, INTEL_GDRST), ==, 0);
    g_assert_cmphex(rd(g, base + INTEL_RING_BB_STATE), ==, 0);
    g_assert_cmphex(rd(g, base + INTEL_RING_ESR), ==, 0);
    ring = buf_new(g, 1);
    data = buf_new(g, 1);
    emit_store(g, &ring, MI_USE_GGTT, data.gtt, 0x600d0001);
    ring_submit(g, base, &ring);
    cs_settle(g);
    g_assert_cmphex(buf_readl(g, &data, 0), ==, 0x600d0001);
    assert_ring_idle(g, base);
}

void expect_msi(Gpu *g, uint64_t msi, unsigned bit, uint32_t data)
{
    g_assert_cmphex(qtest_readl(g->qts, msi), ==, MSI_MAGIC);
    qtest_writel(g->qts, msi, 0);
    wr(g, INTEL_GFX_MSTR_IRQ, 0);
    service(g, 0, bit, INTEL_INTR_DATA_VALID | data);
    wr(g, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    g_assert_cmphex(qtest_readl(g->qts, msi), ==, 0);
}

Buf oa_buffer_init(Gpu *g)
{
    Buf b = buf_ram(g, OA_PAGES);

    b.gtt = OA_GTT;
    ggtt_map(g, OA_GTT, b.phys, OA_PAGES);
    wr(g, INTEL_OASTATUS, 0);
    wr(g, INTEL_OAHEADPTR, OA_GTT);
    wr(g, INTEL_OABUFFER, OA_GTT | 1);
    wr(g, INTEL_OATAILPTR, OA_GTT);
    return b;
}

void drill_dma(Gpu *g, int klass, int instance, unsigned count)
{
    qmp_ok(g, "{'execute': 'x-intel-gpu-drill-dma', 'arguments': "
           "{'id': 'gpu', 'engine-class': %d, 'instance': %d, "
           "'count': %u}}", klass, instance, count);
}

Buf execlists_enable(Gpu *g, uint32_t base)
{
    Buf hwsp = buf_new(g, 1);

    qtest_memset(g->qts, hwsp.phys + INTEL_HWS_CSB_BUF0 * 4, 0xff,
                 INTEL_CSB_ENTRIES * 8);
    qtest_writel(g->qts, hwsp.phys + INTEL_HWS_CSB_WRITE * 4,
                 INTEL_CSB_ENTRIES - 1);
    wr(g, base + INTEL_RING_CONTEXT_STATUS_PTR, 0xffff0b0b);
    wr(g, base + INTEL_RING_HWSTAM, ~0u);
    wr(g, base + INTEL_RING_MODE, 0x00080008);
    wr(g, base + INTEL_RING_MI_MODE, 0x01000000);
    wr(g, base + INTEL_RING_HWS_PGA, hwsp.gtt);
    return hwsp;
}

uint32_t csb_ctx_id(Gpu *g, const Buf *hwsp, unsigned slot)
{
    return buf_readl(g, hwsp, (INTEL_HWS_CSB_BUF0 + 2 * slot + 1) * 4);
}

void expect_csb(Gpu *g, uint32_t base, const Buf *hwsp,
                unsigned first, const uint32_t *status, unsigned n)
{
    unsigned last = (first + n - 1) % INTEL_CSB_ENTRIES;

    for (unsigned i = 0; i < n; i++) {
        unsigned s = (first + i) % INTEL_CSB_ENTRIES;
        uint32_t mirror = s < 6 ? INTEL_RING_CSB_BUF + 8 * s
                                : INTEL_RING_CSB_BUF2 + 8 * (s - 6);

        g_test_message("CSB slot %u", s);
        g_assert_cmphex(buf_readl(g, hwsp, (INTEL_HWS_CSB_BUF0 + 2 * s) * 4),
                        ==, status[i]);
        g_assert_cmphex(rd(g, base + mirror), ==, status[i]);
    }
    g_assert_cmphex(buf_readl(g, hwsp, INTEL_HWS_CSB_WRITE * 4), ==, last);
    g_assert_cmphex(GPU_FIELD_EX32(rd(g, base + INTEL_RING_CONTEXT_STATUS_PTR),
                                   INTEL_RING_CONTEXT_STATUS_PTR, WRITE_PTR),
                    ==, last);
    /* Nothing beyond. */
    g_assert_cmphex(csb_ctx_id(g, hwsp, (last + 1) % INTEL_CSB_ENTRIES), ==,
                    0xffffffff);
}

void ctx_init(Gpu *g, Ctx *c, uint32_t base, uint64_t pml4)
{
    /* As i915 allocates it: the render engine saves all of its image. */
    c->image = buf_new(g, (base == INTEL_RCS0_BASE ?
                           INTEL_LR_CONTEXT_RENDER_SIZE :
                           INTEL_LR_CONTEXT_OTHER_SIZE) /
                          INTEL_GGTT_PAGE_SIZE);
    c->ring = buf_new(g, 1);
    c->image.len = INTEL_LRC_STATE_OFFSET;
    EMIT(g, &c->image, MI_NOOP, MI_LOAD_REGISTER_IMM(7),
         base + INTEL_RING_CONTEXT_CONTROL, 0x00090008,
         base + INTEL_RING_HEAD, 0,
         base + INTEL_RING_TAIL, 0,
         base + INTEL_RING_START, c->ring.gtt,
         base + INTEL_RING_CTL, (c->ring.size - INTEL_GGTT_PAGE_SIZE) | 1,
         base + INTEL_RING_PDP_UDW(0), pml4 >> 32,
         base + INTEL_RING_PDP_LDW(0), pml4,
         MI_BATCH_BUFFER_END);
}

uint32_t ctx_slot(Gpu *g, const Ctx *c, unsigned slot)
{
    return buf_readl(g, &c->image, INTEL_LRC_STATE_OFFSET + slot * 4);
}

void ctx_submit(Gpu *g, uint32_t base, Ctx *c, uint32_t ccid)
{
    qtest_writel(g->qts, c->image.phys + INTEL_LRC_STATE_OFFSET +
                 CTX_TAIL * 4, ring_tail(g, &c->ring));
    wr(g, base + INTEL_RING_EXECLIST_SQ + 8, 0);
    wr(g, base + INTEL_RING_EXECLIST_SQ + 12, 0);
    wr(g, base + INTEL_RING_EXECLIST_SQ, c->image.gtt | CTX_DESC_FLAGS);
    wr(g, base + INTEL_RING_EXECLIST_SQ + 4, ccid);
    wr(g, base + INTEL_RING_EXECLIST_CONTROL, INTEL_EL_CTRL_LOAD);
}

void ppgtt_init(Gpu *g, Ppgtt *p, uint64_t va)
{
    p->va = va & ~((1ull << 21) - 1);
    for (int l = 0; l < 4; l++) {
        p->table[l] = buf_ram(g, 1).phys;
    }
    for (int l = 0; l < 3; l++) {
        qtest_writeq(g->qts, p->table[l] + ((va >> (39 - 9 * l)) & 511) * 8,
                     p->table[l + 1] | PPGTT_PRESENT_RW);
    }
}

void ppgtt_map(Gpu *g, Ppgtt *p, uint64_t va, uint64_t phys)
{
    g_assert_cmphex(va & ~((1ull << 21) - 1), ==, p->va);
    qtest_writeq(g->qts, p->table[3] + ((va >> 12) & 511) * 8,
                 phys | PPGTT_PRESENT_RW);
}

void ppgtt_batch_init(Gpu *g, Ppgtt *pp, Buf *batch, Buf *target)
{
    *batch = buf_ram(g, 1);
    *target = buf_ram(g, 1);
    ppgtt_init(g, pp, BATCH_VA);
    ppgtt_map(g, pp, BATCH_VA, batch->phys);
    ppgtt_map(g, pp, BATCH_VA + 0x1000, target->phys);
}

void ctx_init_ppgtt_start(Gpu *g, Ctx *ctx, uint32_t base,
                          uint64_t pml4, uint64_t va)
{
    ctx_init(g, ctx, base, pml4);
    EMIT(g, &ctx->ring, MI_ARB_ON_OFF | MI_ARB_ENABLE,
         MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT, (uint32_t)va, va >> 32);
}

void ctx_init_batch(Gpu *g, Ctx *ctx, uint32_t base, Ppgtt *pp)
{
    ctx_init_ppgtt_start(g, ctx, base, pp->table[0], BATCH_VA);
}
