/*
 * Unit tests of the intel-gpu register file: access semantics of the
 * register tables, the blocks' behaviour, the GGTT, all without QEMU.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"
#include "tiling-ref.h"

/* The fixture's default configuration (intel-i915.h). */
#define default_cfg intel_test_cfg

static uint32_t masked_enable(uint32_t bits)
{
    return bits << 16 | bits;
}

static uint32_t masked_disable(uint32_t bits)
{
    return bits << 16;
}

/* Every table entry sits on a dword inside the register range. */
static void test_tables_well_formed(Fixture *f, gconstpointer data)
{
    g_assert_cmpuint(f->gpu->regs.nbindings, >, 50);
    for (unsigned i = 0; i < f->gpu->regs.nbindings; i++) {
        const IntelRegBinding *b = &f->gpu->regs.bindings[i];
        const GpuReg *r = b->reg;

        g_assert_nonnull(r->name);
        g_assert_cmpuint((b->base + r->offset) % 4, ==, 0);
        g_assert_cmpuint(b->base + r->offset, <, INTEL_MMIO_SIZE);
        /* A register looks itself up, unless a later entry refines it. */
        if (!r->range) {
            g_assert_true(intel_mmio_lookup(f->gpu, b->base + r->offset) == b);
        }
    }
}

static void test_read_only(Fixture *f, gconstpointer data)
{
    g_assert_cmphex(rd(f, INTEL_SKL_DFSM), ==, 0x50200000);
    wr(f, INTEL_SKL_DFSM, 0);
    g_assert_cmphex(rd(f, INTEL_SKL_DFSM), ==, 0x50200000);
    g_assert_cmphex(rd(f, INTEL_RPM_CONFIG0), ==, 0x4);
}

static void test_w1c(Fixture *f, gconstpointer data)
{
    /* Storage is only reachable through W1C: set it behind the guest. */
    intel_reg_set(f->gpu, INTEL_FPGA_DBG, 0x80000001);
    wr(f, INTEL_FPGA_DBG, 0x80000000);
    g_assert_cmphex(rd(f, INTEL_FPGA_DBG), ==, 0x1);
    wr(f, INTEL_FPGA_DBG, 0);
    g_assert_cmphex(rd(f, INTEL_FPGA_DBG), ==, 0x1);
    /* IIRs read 0 at rest and stay 0 after i915's ~0 clear. */
    g_assert_cmphex(rd(f, INTEL_GU_MISC_IIR), ==, 0);
    wr(f, INTEL_GU_MISC_IIR, 0xffffffff);
    g_assert_cmphex(rd(f, INTEL_GU_MISC_IIR), ==, 0);
}

static void test_masked(Fixture *f, gconstpointer data)
{
    uint32_t mode = INTEL_RCS0_BASE + INTEL_RING_MODE;

    wr(f, mode, masked_enable(1u << 3));
    wr(f, mode, masked_enable(1u << 10));
    g_assert_cmphex(rd(f, mode), ==, (1u << 3) | (1u << 10));
    /* Bits without their enable are untouched. */
    wr(f, mode, 0x0000ffff);
    g_assert_cmphex(rd(f, mode), ==, (1u << 3) | (1u << 10));
    wr(f, mode, masked_disable(1u << 3));
    g_assert_cmphex(rd(f, mode), ==, 1u << 10);
}

/* A narrow write changes only its bytes. */
static void test_narrow_write(Fixture *f, gconstpointer data)
{
    uint32_t emr = INTEL_RCS0_BASE + INTEL_RING_EMR;

    wr(f, emr, 0x11223344);
    intel_mmio_write(f->gpu, emr, 0xaa << 8, 0xff00);
    g_assert_cmphex(rd(f, emr), ==, 0x1122aa44);
}

static void test_forcewake_every_domain(Fixture *f, gconstpointer data)
{
    static const struct { uint32_t req, ack; } fw[] = {
        { INTEL_FORCEWAKE_RENDER, INTEL_FORCEWAKE_ACK_RENDER },
        { INTEL_FORCEWAKE_GT, INTEL_FORCEWAKE_ACK_GT },
        { INTEL_FORCEWAKE_VDBOX(0), INTEL_FORCEWAKE_ACK_VDBOX(0) },
        { INTEL_FORCEWAKE_VDBOX(7), INTEL_FORCEWAKE_ACK_VDBOX(7) },
        { INTEL_FORCEWAKE_VEBOX(0), INTEL_FORCEWAKE_ACK_VEBOX(0) },
        { INTEL_FORCEWAKE_VEBOX(3), INTEL_FORCEWAKE_ACK_VEBOX(3) },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(fw); i++) {
        g_assert_cmphex(rd(f, fw[i].ack), ==, 0);
        wr(f, fw[i].req, masked_enable(INTEL_FORCEWAKE_KERNEL));
        g_assert_cmphex(rd(f, fw[i].ack), ==, INTEL_FORCEWAKE_KERNEL);
        wr(f, fw[i].req, masked_enable(INTEL_FORCEWAKE_FALLBACK));
        g_assert_cmphex(rd(f, fw[i].ack), ==,
                        INTEL_FORCEWAKE_KERNEL | INTEL_FORCEWAKE_FALLBACK);
        /* i915's fw_domain_reset: _MASKED_BIT_DISABLE(0xffff). */
        wr(f, fw[i].req, masked_disable(0xffff));
        g_assert_cmphex(rd(f, fw[i].ack), ==, 0);
        /* Acks are read-only. */
        wr(f, fw[i].ack, 0xffffffff);
        g_assert_cmphex(rd(f, fw[i].ack), ==, 0);
    }
}

static void test_fuses_default(Fixture *f, gconstpointer data)
{
    g_assert_cmphex(rd(f, INTEL_GT_SLICE_ENABLE), ==, 0x1);
    g_assert_cmphex(rd(f, INTEL_GT_SUBSLICE_DISABLE), ==, 0x0);
    g_assert_cmphex(rd(f, INTEL_EU_DISABLE), ==, 0x0);
    g_assert_cmphex(rd(f, INTEL_MIRROR_FUSE3), ==, 0x0);
    g_assert_cmphex(rd(f, INTEL_GT_VEBOX_VDBOX_DISABLE), ==, 0x000F00FF);
    g_assert_cmphex(rd(f, INTEL_GGC_MIRROR), ==, 0xC0);
    g_assert_cmpuint(intel_cs_timestamp_hz(f->gpu), ==, 12000000);
}

static const IntelGpuConfig small_cfg = {
    .device_id = 0x8A56,
    .slices = 1, .subslices = 4, .eus_per_subslice = 6,
    .vdbox_mask = 0x5, .vebox_mask = 0x1, .stolen_mb = 64,
};

static void test_fuses_from_config(Fixture *f, gconstpointer data)
{
    g_assert_cmphex(rd(f, INTEL_GT_SUBSLICE_DISABLE), ==, 0xF0);
    g_assert_cmphex(rd(f, INTEL_EU_DISABLE), ==, 0xC0);
    g_assert_cmphex(rd(f, INTEL_GT_VEBOX_VDBOX_DISABLE), ==, 0x000E00FA);
    g_assert_cmphex(rd(f, INTEL_GGC_MIRROR), ==, 0x2C0);
    wr(f, INTEL_GT_SUBSLICE_DISABLE, 0);
    g_assert_cmphex(rd(f, INTEL_GT_SUBSLICE_DISABLE), ==, 0xF0);
}

static void test_config_check(void)
{
    IntelGpuConfig c = default_cfg;
    char *err = NULL;

    g_assert_true(intel_gpu_config_check(&c, &err));
    c.device_id = 0x1234;
    g_assert_false(intel_gpu_config_check(&c, &err));
    g_assert_nonnull(strstr(err, "device-id"));
    g_free(err);
    c = default_cfg;
    c.subslices = 9;
    g_assert_false(intel_gpu_config_check(&c, &err));
    g_assert_nonnull(strstr(err, "subslices"));
    g_free(err);
    c = default_cfg;
    c.stolen_mb = 48;
    g_assert_false(intel_gpu_config_check(&c, &err));
    g_free(err);
    c = default_cfg;
    c.slices = 2;
    g_assert_false(intel_gpu_config_check(&c, &err));
    g_free(err);
}

static void test_pcode_mailbox(Fixture *f, gconstpointer data)
{
    wr(f, INTEL_PCODE_DATA, 0x1234);
    wr(f, INTEL_PCODE_MAILBOX,
       INTEL_PCODE_READY | INTEL_PCODE_DYNAMIC_DUTY_CYCLE);
    g_assert_cmphex(rd(f, INTEL_PCODE_MAILBOX) & INTEL_PCODE_READY, ==, 0);
    g_assert_cmphex(rd(f, INTEL_PCODE_MAILBOX) & 0xff, ==, 0);
    g_assert_cmphex(rd(f, INTEL_PCODE_DATA), ==, 0);

    wr(f, INTEL_PCODE_MAILBOX, INTEL_PCODE_READY | 0x77);
    g_assert_cmphex(rd(f, INTEL_PCODE_MAILBOX), ==,
                    INTEL_PCODE_ERR_ILLEGAL_CMD);
    g_assert_cmpuint(f->fh->unimps, ==, 1);
    /* Without READY nothing happens. */
    wr(f, INTEL_PCODE_MAILBOX, INTEL_PCODE_WRITE_MIN_FREQ_TABLE);
    g_assert_cmphex(rd(f, INTEL_PCODE_MAILBOX), ==,
                    INTEL_PCODE_WRITE_MIN_FREQ_TABLE);
}

static void test_mchbar_mirror(Fixture *f, gconstpointer data)
{
    uint32_t cap = rd(f, INTEL_RP_STATE_CAP);

    /* RP0 1100 MHz, RPn 300 MHz in 50 MHz units; RP0 > RPn enables RPS. */
    g_assert_cmphex(cap & 0xff, ==, 22);
    g_assert_cmphex((cap >> 16) & 0xff, ==, 6);
    wr(f, INTEL_RP_STATE_CAP, 0);
    g_assert_cmphex(rd(f, INTEL_RP_STATE_CAP), ==, cap);
    /* The rest of the window reads 0 and ignores writes, unmodelled or not. */
    wr(f, INTEL_MCHBAR_MIRROR_BASE + 0x100, 0xdead);
    g_assert_cmphex(rd(f, INTEL_MCHBAR_MIRROR_BASE + 0x100), ==, 0);
    g_assert_cmpuint(f->gpu->unmodelled.count, ==, 0);
}

static void test_no_gvt_magic(Fixture *f, gconstpointer data)
{
    wr(f, INTEL_PVINFO_PAGE, 0x76544776);
    g_assert_cmphex(rd(f, INTEL_PVINFO_PAGE), ==, 0);
    wr(f, INTEL_SWVIRT_BASE + 0x10, 1);
    g_assert_cmphex(rd(f, INTEL_SWVIRT_BASE + 0x10), ==, 0);
}

static void test_power_wells(Fixture *f, gconstpointer data)
{
    uint32_t ctl2 = INTEL_PWR_WELL_CTL1 + 4;

    wr(f, ctl2, 2u << 2);           /* request PW2 (index 1) */
    g_assert_cmphex(rd(f, ctl2), ==, (2u << 2) | (1u << 2));
    wr(f, ctl2, 1u << 0);           /* state bits are not writable */
    g_assert_cmphex(rd(f, ctl2), ==, 0);
    g_assert_cmphex(rd(f, INTEL_SKL_FUSE_STATUS), ==, 0x8F800000);
}

static void test_engine_reset_handshake(Fixture *f, gconstpointer data)
{
    uint32_t ctl = INTEL_BCS0_BASE + INTEL_RING_RESET_CTL;
    uint32_t mi_mode = INTEL_BCS0_BASE + INTEL_RING_MI_MODE;

    g_assert_cmphex(rd(f, ctl), ==, 0);
    wr(f, ctl, masked_enable(INTEL_RESET_CTL_REQUEST_RESET));
    g_assert_cmphex(rd(f, ctl), ==, INTEL_RESET_CTL_REQUEST_RESET |
                                    INTEL_RESET_CTL_READY_TO_RESET);
    wr(f, ctl, masked_disable(INTEL_RESET_CTL_REQUEST_RESET));
    g_assert_cmphex(rd(f, ctl), ==, 0);

    g_assert_cmphex(rd(f, mi_mode) & INTEL_MI_MODE_IDLE, ==,
                    INTEL_MI_MODE_IDLE);
    wr(f, mi_mode, masked_enable(INTEL_MI_MODE_STOP_RING));
    g_assert_cmphex(rd(f, mi_mode), ==,
                    INTEL_MI_MODE_STOP_RING | INTEL_MI_MODE_IDLE);
    /* MODE_IDLE is status: clearing it has no effect. */
    wr(f, mi_mode, masked_disable(INTEL_MI_MODE_IDLE));
    g_assert_cmphex(rd(f, mi_mode) & INTEL_MI_MODE_IDLE, ==,
                    INTEL_MI_MODE_IDLE);
}

static void test_gdrst(Fixture *f, gconstpointer data)
{
    uint32_t rcs_pga = INTEL_RCS0_BASE + INTEL_RING_HWS_PGA;
    uint32_t bcs_pga = INTEL_BCS0_BASE + INTEL_RING_HWS_PGA;

    wr(f, rcs_pga, 0x1000);
    wr(f, bcs_pga, 0x2000);
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    g_assert_cmphex(rd(f, INTEL_GDRST), ==, 0);
    g_assert_cmphex(rd(f, rcs_pga), ==, 0);
    g_assert_cmphex(rd(f, bcs_pga), ==, 0x2000);
    wr(f, INTEL_GDRST, INTEL_GRDOM_FULL);
    g_assert_cmphex(rd(f, INTEL_GDRST), ==, 0);
    g_assert_cmphex(rd(f, bcs_pga), ==, 0);
    /* i915 resets the GuC domain, then expects its core held in reset. */
    wr(f, INTEL_GDRST, INTEL_GRDOM_GUC);
    g_assert_cmphex(rd(f, INTEL_GDRST), ==, 0);
    g_assert_cmphex(rd(f, INTEL_GUC_STATUS) & INTEL_GUC_STATUS_MIA_IN_RESET,
                    ==, INTEL_GUC_STATUS_MIA_IN_RESET);
    /* Engine reset restores EMR's all-masked default. */
    g_assert_cmphex(rd(f, INTEL_BCS0_BASE + INTEL_RING_EMR), ==, 0xffffffff);
}

static void test_tlb_invalidate_self_clears(Fixture *f, gconstpointer data)
{
    static const uint32_t regs[] = {
        INTEL_RTCR, INTEL_M1TCR, INTEL_M2TCR, INTEL_BTCR, INTEL_VTCR,
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(regs); i++) {
        wr(f, regs[i], 1);
        g_assert_cmphex(rd(f, regs[i]), ==, 0);
    }
}

static void test_timestamp(Fixture *f, gconstpointer data)
{
    uint32_t ts = INTEL_RCS0_BASE + INTEL_RING_TIMESTAMP;
    uint32_t ts_hi = INTEL_RCS0_BASE + INTEL_RING_TIMESTAMP_UDW;

    f->fh->now_ns = 0;
    g_assert_cmpuint(rd(f, ts), ==, 0);
    f->fh->now_ns = 1000000;            /* 1 ms at 12 MHz */
    g_assert_cmpuint(rd(f, ts), ==, 12000);
    f->fh->now_ns = 400ull * 1000000000;  /* 4.8e9 ticks: past 32 bits */
    g_assert_cmpuint(rd(f, ts_hi), ==, 4800000000ull >> 32);
    g_assert_cmpuint(rd(f, ts), ==, (uint32_t)4800000000ull);
}

static void test_unmodelled(Fixture *f, gconstpointer data)
{
    char *list;

    g_assert_cmpuint(f->gpu->unmodelled.count, ==, 0);
    wr(f, 0xB020, 0x12345678);        /* LNCFCMOCS0: not in a table */
    g_assert_cmphex(rd(f, 0xB020), ==, 0x12345678);
    rd(f, 0xB020);
    rd(f, 0x4100);
    g_assert_cmpuint(f->gpu->unmodelled.count, ==, 2);
    g_assert_cmpuint(f->fh->unimps, ==, 2);
    list = intel_mmio_unmodelled_list(f->gpu);
    g_assert_cmpstr(list, ==, "0x004100 0x00b020");
    g_free(list);
    /* Storage is reset; the diagnostic count is not. */
    intel_gpu_reset(f->gpu);
    g_assert_cmphex(rd(f, 0xB020), ==, 0);
    g_assert_cmpuint(f->gpu->unmodelled.count, ==, 2);
}

static void test_reset_restores_defaults(Fixture *f, gconstpointer data)
{
    wr(f, INTEL_FORCEWAKE_RENDER, masked_enable(1));
    wr(f, INTEL_PAT_INDEX(3), 0x3b);
    intel_ggtt_write_pte(f->gpu, 5, 0x1001);
    intel_gpu_reset(f->gpu);
    g_assert_cmphex(rd(f, INTEL_FORCEWAKE_ACK_RENDER), ==, 0);
    g_assert_cmphex(rd(f, INTEL_PAT_INDEX(3)), ==, 0);
    g_assert_cmphex(intel_ggtt_read_pte(f->gpu, 5), ==, 0);
    g_assert_cmphex(rd(f, INTEL_RCS0_BASE + INTEL_RING_EMR), ==, 0xffffffff);
}

static void test_ggtt_tlb_and_flush(Fixture *f, gconstpointer data)
{
    uint8_t *ram = f->fh->ram;
    uint32_t v = 0;
    uint64_t flushes;

    memcpy(ram + 0x10000 + 0x10, "\x11\x22\x33\x44", 4);
    memcpy(ram + 0x20000 + 0x10, "\x55\x66\x77\x88", 4);
    intel_ggtt_write_pte(f->gpu, 3, 0x10000 | INTEL_GGTT_PTE_PRESENT);
    g_assert_cmpint(intel_aperture_rw(f->gpu, 3 * 4096 + 0x10, &v, 4, false),
                    ==, 0);
    g_assert_cmphex(GUINT32_FROM_LE(v), ==, 0x44332211);

    /*
     * Remapped: the PTE write replaces the cached translation (Gen11 i915
     * writes no GFX_FLSH_CNTL after it: gt/intel_ggtt.c).
     */
    intel_ggtt_write_pte(f->gpu, 3, 0x20000 | INTEL_GGTT_PTE_PRESENT);
    intel_aperture_rw(f->gpu, 3 * 4096 + 0x10, &v, 4, false);
    g_assert_cmphex(GUINT32_FROM_LE(v), ==, 0x88776655);
    /* GFX_FLSH_CNTL drops the whole cache and reads back 0. */
    flushes = f->gpu->tlb_flushes;
    wr(f, INTEL_GFX_FLSH_CNTL, INTEL_GFX_FLSH_CNTL_EN);
    g_assert_cmphex(rd(f, INTEL_GFX_FLSH_CNTL), ==, 0);
    g_assert_cmpuint(f->gpu->tlb_flushes, ==, flushes + 1);
    intel_aperture_rw(f->gpu, 3 * 4096 + 0x10, &v, 4, false);
    g_assert_cmphex(GUINT32_FROM_LE(v), ==, 0x88776655);

    /* Writes land in memory; a write straddling into an unmapped page. */
    v = GUINT32_TO_LE(0xcafef00d);
    g_assert_cmpint(intel_aperture_rw(f->gpu, 3 * 4096 + 0x20, &v, 4, true),
                    ==, 0);
    g_assert_cmpmem(ram + 0x20020, 4, "\x0d\xf0\xfe\xca", 4);
    g_assert_cmpint(intel_aperture_rw(f->gpu, 4 * 4096 - 2, &v, 4, true),
                    ==, -1);
    g_assert_cmpmem(ram + 0x20ffe, 2, "\x0d\xf0", 2);
}

static void test_ggtt_unmapped(Fixture *f, gconstpointer data)
{
    uint64_t v = 0;

    g_assert_cmpint(intel_aperture_rw(f->gpu, 0x5000, &v, 8, false), ==, -1);
    g_assert_cmphex(v, ==, ~0ull);
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    /* PTE to memory the host cannot reach: also all-ones. */
    intel_ggtt_write_pte(f->gpu, 6, 0x7F00000000ull | 1);
    v = 0;
    g_assert_cmpint(intel_aperture_rw(f->gpu, 6 * 4096, &v, 8, false),
                    ==, -1);
    g_assert_cmphex(v, ==, ~0ull);
    /* Beyond the aperture, and the PTE index beyond the GSM. */
    g_assert_cmpint(intel_aperture_rw(f->gpu, INTEL_GMADR_SIZE - 4, &v, 8,
                                      false), ==, -1);
    intel_ggtt_write_pte(f->gpu, INTEL_GSM_SIZE / 8, 1);
    g_assert_cmphex(intel_ggtt_read_pte(f->gpu, INTEL_GSM_SIZE / 8), ==, 0);
}

/* ---- fences: detiled aperture ---- */

/*
 * The fenced GGTT range: FENCE_PAGES pages from FENCE_GTT, mapped to
 * guest memory in reverse page order, so that a test sees that the
 * detiled GGTT address is translated afterwards.
 */
#define FENCE_GTT       0x00100000u
#define FENCE_PAGES     8u
#define FENCE_RAM       0x00400000u

static uint64_t fence_ram(uint32_t gtt)
{
    uint32_t page = (gtt - (FENCE_GTT - 4096)) / 4096;

    return FENCE_RAM + (uint64_t)(FENCE_PAGES + 1 - page) * 4096 +
           gtt % 4096;
}

/* What memory holds at GGTT address @gtt: a byte with few repeats. */
static uint8_t fence_pat(uint32_t gtt)
{
    return (gtt * 0x9E3779B1u) >> 24;
}

/* Map the range and the pages either side; fill them with a pattern. */
static void fence_map(Fixture *f)
{
    for (uint32_t gtt = FENCE_GTT - 4096;
         gtt < FENCE_GTT + (FENCE_PAGES + 1) * 4096; gtt += 4096) {
        intel_ggtt_write_pte(f->gpu, gtt / 4096,
                             fence_ram(gtt) | INTEL_GGTT_PTE_PRESENT);
        for (uint32_t i = 0; i < 4096; i++) {
            f->fh->ram[fence_ram(gtt + i)] = fence_pat(gtt + i);
        }
    }
}

/* i915's i965_write_fence_reg: off, high dword, then low with valid. */
static void set_fence(Fixture *f, unsigned i, uint32_t start, uint32_t size,
                      uint32_t pitch, bool y)
{
    wr(f, INTEL_FENCE_REG(i), 0);
    wr(f, INTEL_FENCE_REG(i) + 4, (start + size - 4096) | (pitch / 128 - 1));
    wr(f, INTEL_FENCE_REG(i), start | (y ? 2 : 0) | 1);
}

/* @len bytes through the aperture at @gtt. */
static void ap_read(Fixture *f, uint32_t gtt, void *buf, size_t len)
{
    g_assert_cmpint(intel_aperture_rw(f->gpu, gtt, buf, len, false), ==, 0);
}

/*
 * @n bytes read through the aperture at FENCE_GTT + @lin are memory's
 * bytes from GGTT FENCE_GTT + @at, the last @n - @split of them from
 * FENCE_GTT + @at2 on: where an access crosses into another run.
 */
static void assert_read(Fixture *f, int32_t lin, unsigned n, int32_t at,
                        unsigned split, int32_t at2)
{
    uint8_t b[8];

    g_assert_cmpuint(n, <=, sizeof(b));
    ap_read(f, FENCE_GTT + lin, b, n);
    for (unsigned i = 0; i < n; i++) {
        uint32_t gtt = FENCE_GTT + (i < split ? at + i : at2 + i - split);

        g_assert_cmphex(b[i], ==, fence_pat(gtt));
    }
}

/*
 * Every byte of @pages fenced from FENCE_GTT, read through the aperture
 * in one access, is the byte where @t puts its (x, y); the rest of the
 * mapped pages read linearly.
 */
static void assert_fenced(Fixture *f, RefTiling t, uint32_t pitch,
                          uint32_t pages)
{
    uint32_t size = (FENCE_PAGES + 2) * 4096, base = FENCE_GTT - 4096;
    uint8_t *got = g_malloc(size);

    ap_read(f, base, got, size);
    for (uint32_t i = 0; i < size; i++) {
        uint32_t gtt = base + i, lin = gtt - FENCE_GTT;

        if (gtt >= FENCE_GTT && lin < pages * 4096) {
            gtt = FENCE_GTT + ref_offset(t, 1, pitch, lin % pitch,
                                         lin / pitch);
        }
        if (got[i] != fence_pat(gtt)) {
            g_test_message("aperture 0x%x: expected GGTT 0x%x", base + i,
                           gtt);
            g_assert_cmphex(got[i], ==, fence_pat(gtt));
        }
    }
    g_free(got);
}

/*
 * An X fence: 1024-byte pitch, 32 KiB (four rows of tiles).  By hand,
 * linear 9736 = (x 520, y 9) is tile row 1 (8192), tile 1 (4096), row 1
 * of it (512), byte 8: 12808.
 */
static void test_fence_x(Fixture *f, gconstpointer data)
{
    uint8_t b[8];

    fence_map(f);
    set_fence(f, 3, FENCE_GTT, FENCE_PAGES * 4096, 1024, false);
    assert_read(f, 9736, 1, 12808, 1, 0);
    assert_fenced(f, REF_X, 1024, FENCE_PAGES);

    /* Across a tile column: bytes 508-511 of tile 0, 0-3 of tile 1. */
    assert_read(f, 508, 8, 508, 4, 4096);
    /* Across the end of row 0 (tile 1's 510) into row 1 (512). */
    assert_read(f, 1022, 4, 4096 + 510, 2, 512);

    /* Writes are detiled the same way. */
    memcpy(b, "\x11\x22\x33\x44\x55\x66\x77\x88", 8);
    g_assert_cmpint(intel_aperture_rw(f->gpu, FENCE_GTT + 1020, b, 8, true),
                    ==, 0);
    g_assert_cmphex(f->fh->ram[fence_ram(FENCE_GTT + 4096 + 508)], ==, 0x11);
    g_assert_cmphex(f->fh->ram[fence_ram(FENCE_GTT + 4096 + 511)], ==, 0x44);
    g_assert_cmphex(f->fh->ram[fence_ram(FENCE_GTT + 512)], ==, 0x55);
    g_assert_cmphex(f->fh->ram[fence_ram(FENCE_GTT + 515)], ==, 0x88);
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);
}

/*
 * A Y fence: 512-byte pitch (four tiles a row), 32 KiB (two rows of
 * tiles).  By hand, linear 2660 = (x 100, y 5) is OWord column 6 (3072),
 * row 5 (80), byte 4: 3156; linear 15560 = (x 200, y 30) is tile 1
 * (4096), column 4 (2048), row 30 (480), byte 8: 6632.
 */
static void test_fence_y(Fixture *f, gconstpointer data)
{
    fence_map(f);
    set_fence(f, 0, FENCE_GTT, FENCE_PAGES * 4096, 512, true);
    assert_read(f, 2660, 1, 3156, 1, 0);
    assert_read(f, 15560, 1, 6632, 1, 0);
    assert_fenced(f, REF_Y, 512, FENCE_PAGES);

    /* Across an OWord column (16), and across a tile (124-131). */
    assert_read(f, 12, 8, 12, 4, 512);
    assert_read(f, 124, 8, 7 * 512 + 12, 4, 4096);
}

/*
 * The region is [start page, last page], both whole (assert_fenced() reads
 * across both ends in one access): a fence not valid, or only half
 * written, does nothing; a fence turned off stops detiling; the
 * lowest-numbered of two fences on a page wins.  By hand, linear 12388 =
 * (x 100, y 12), in the last page, is tile row 1 (8192), row 4 of the tile
 * (2048), byte 100: 10340.
 */
static void test_fence_edges(Fixture *f, gconstpointer data)
{
    fence_map(f);
    wr(f, INTEL_FENCE_REG(5) + 4, (FENCE_GTT + 12288) | 7);
    wr(f, INTEL_FENCE_REG(5), FENCE_GTT);
    assert_fenced(f, REF_LINEAR, 1024, FENCE_PAGES);

    set_fence(f, 5, FENCE_GTT, 4 * 4096, 1024, false);
    assert_read(f, 12388, 1, 10340, 1, 0);
    assert_fenced(f, REF_X, 1024, 4);

    /* A Y fence on the same pages, numbered higher: X still applies. */
    set_fence(f, 9, FENCE_GTT, 4 * 4096, 512, true);
    assert_read(f, 12388, 1, 10340, 1, 0);
    /* Fence 5 off, as i915 clears it: fence 9's Y applies. */
    wr(f, INTEL_FENCE_REG(5), 0);
    wr(f, INTEL_FENCE_REG(5) + 4, 0);
    assert_fenced(f, REF_Y, 512, 4);
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);

    /* Enabled with a pitch X tiles do not divide, or ending first. */
    set_fence(f, 12, FENCE_GTT + 8 * 4096, 4096, 640, false);
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    wr(f, INTEL_FENCE_REG(13) + 4, FENCE_GTT | 3);
    wr(f, INTEL_FENCE_REG(13), (FENCE_GTT + 4096) | 1);
    g_assert_cmpuint(f->fh->guest_errors, ==, 2);
}

static void add(const char *path, gconstpointer cfg,
                void (*fn)(Fixture *, gconstpointer))
{
    g_test_add(path, Fixture, cfg, fixture_setup, fn, fixture_teardown);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    add("/intel/regs/tables", NULL, test_tables_well_formed);
    add("/intel/regs/read-only", NULL, test_read_only);
    add("/intel/regs/w1c", NULL, test_w1c);
    add("/intel/regs/masked", NULL, test_masked);
    add("/intel/regs/narrow-write", NULL, test_narrow_write);
    add("/intel/regs/unmodelled", NULL, test_unmodelled);
    add("/intel/regs/reset", NULL, test_reset_restores_defaults);
    add("/intel/forcewake/every-domain", NULL, test_forcewake_every_domain);
    add("/intel/fuse/default", NULL, test_fuses_default);
    add("/intel/fuse/from-config", &small_cfg, test_fuses_from_config);
    g_test_add_func("/intel/config/check", test_config_check);
    add("/intel/pcode/mailbox", NULL, test_pcode_mailbox);
    add("/intel/mchbar/mirror", NULL, test_mchbar_mirror);
    add("/intel/ranges/no-gvt", NULL, test_no_gvt_magic);
    add("/intel/display/power-wells", NULL, test_power_wells);
    add("/intel/engine/reset-handshake", NULL, test_engine_reset_handshake);
    add("/intel/engine/timestamp", NULL, test_timestamp);
    add("/intel/gt/gdrst", NULL, test_gdrst);
    add("/intel/gt/tlb-invalidate", NULL, test_tlb_invalidate_self_clears);
    add("/intel/ggtt/tlb-flush", NULL, test_ggtt_tlb_and_flush);
    add("/intel/ggtt/unmapped", NULL, test_ggtt_unmapped);
    add("/intel/ggtt/fence-x", NULL, test_fence_x);
    add("/intel/ggtt/fence-y", NULL, test_fence_y);
    add("/intel/ggtt/fence-edges", NULL, test_fence_edges);
    return g_test_run();
}
