/*
 * The GFXPIPE state every render pipeline shares (hw/gpumodel/intel/
 * gfx.c): STATE_BASE_ADDRESS of 16, 19 and 22 dwords and its Modify
 * Enables, PIPELINE_SELECT's mask bits, kernel fetch across pages and
 * faults, the bases a thread's shared functions use.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"
#include "intel/gfx/gfx-int.h"

/* Run @n dwords at BATCH from the legacy ring until the engine idles. */
static void run(Fixture *f, const uint32_t *cmds, unsigned n)
{
    Buf bb = buf_at(f, BATCH), ring = buf_at(f, RING_RCS);

    emit_n(&bb, cmds, n);
    EMIT(&bb, MI_BATCH_BUFFER_END);
    bb_start(&ring, BATCH, 0);
    qword_align(&ring);
    ring_start(f, RCS, RING_RCS, ring.pos);
    step(f);
}

#define RUN(f, ...) \
    run((f), (const uint32_t[]) { __VA_ARGS__ }, \
        sizeof((const uint32_t[]) { __VA_ARGS__ }) / 4)

/* A STATE_BASE_ADDRESS of @len dwords: base i at 0x(i+1)000000 | @en. */
static void sba(Fixture *f, unsigned len, uint32_t en)
{
    uint32_t cmd[22] = { STATE_BASE_ADDRESS | (len - 2) };
    static const uint8_t dw[] = { 1, 4, 6, 8, 10, 16, 19 };
    static const uint8_t size_dw[] = { 12, 13, 14, 15, 18, 21 };

    for (unsigned i = 0; i < G_N_ELEMENTS(dw); i++) {
        if (dw[i] + 1u < len) {
            cmd[dw[i]] = (i + 1) << 24 | en;
            cmd[dw[i] + 1] = i + 1;         /* address bits 47:32 */
        }
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(size_dw); i++) {
        if (size_dw[i] < len) {
            cmd[size_dw[i]] = (i + 1) << 12 | en;
        }
    }
    run(f, cmd, len);
}

static uint64_t base(Fixture *f, unsigned which)
{
    return eng(f, RCS)->gfx.base[which].addr;
}

/* 16 dwords set the five classic bases, 19 the bindless surface base
 * too, 22 the bindless sampler base; sizes where the command has them. */
static void test_sba_lengths(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);

    sba(f, 16, SBA_MODIFY_ENABLE);
    for (unsigned i = 0; i < INTEL_GFX_BINDLESS_SURFACE; i++) {
        g_assert_cmphex(base(f, i), ==, (uint64_t)(i + 1) << 32 |
                        (i + 1) << 24);
    }
    g_assert_cmphex(base(f, INTEL_GFX_BINDLESS_SURFACE), ==, 0);
    g_assert_cmphex(base(f, INTEL_GFX_BINDLESS_SAMPLER), ==, 0);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_GENERAL].size, ==, 1u << 12);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_INSTRUCTION].size, ==, 4u << 12);

    intel_gfx_reset(e);
    sba(f, 19, SBA_MODIFY_ENABLE);
    g_assert_cmphex(base(f, INTEL_GFX_BINDLESS_SURFACE), ==,
                    6ull << 32 | 6u << 24);
    g_assert_cmphex(base(f, INTEL_GFX_BINDLESS_SAMPLER), ==, 0);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_BINDLESS_SURFACE].size, ==,
                    5u << 12);

    sba(f, 22, SBA_MODIFY_ENABLE);
    g_assert_cmphex(base(f, INTEL_GFX_BINDLESS_SAMPLER), ==,
                    7ull << 32 | 7u << 24);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_BINDLESS_SAMPLER].size, ==,
                    6u << 12);
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmpuint(erd(f, RCS, INTEL_RING_EIR), ==, 0);
}

/* Without its Modify Enable a base or size keeps its value. */
static void test_sba_modify_enable(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);

    sba(f, 22, SBA_MODIFY_ENABLE);
    RUN(f, STATE_BASE_ADDRESS | (22 - 2),
        0, 0, 0,
        0x0abc0000 | SBA_MODIFY_ENABLE, 0,      /* surface: modified */
        0x0def0000, 0,                          /* dynamic: kept */
        0, 0, 0, 0,
        0x5000 | SBA_MODIFY_ENABLE, 0x6000, 0, 0, 0, 0, 0, 0, 0, 0);
    g_assert_cmphex(base(f, INTEL_GFX_SURFACE), ==, 0x0abc0000);
    g_assert_cmphex(base(f, INTEL_GFX_DYNAMIC), ==, 3ull << 32 | 3u << 24);
    g_assert_cmphex(base(f, INTEL_GFX_GENERAL), ==, 1ull << 32 | 1u << 24);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_GENERAL].size, ==, 0x5000);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_DYNAMIC].size, ==, 2u << 12);
}

/* A STATE_BASE_ADDRESS shorter than 16 dwords is an instruction error. */
static void test_sba_short(Fixture *f, gconstpointer data)
{
    i915_enable_error_interrupt(f, RCS);
    RUN(f, STATE_BASE_ADDRESS | (10 - 2), 0x1000 | 1, 0, 0, 0, 0, 0, 0,
        0, 0);
    g_assert_cmphex(base(f, INTEL_GFX_GENERAL), ==, 0);
    g_assert_cmpuint(erd(f, RCS, INTEL_RING_EIR) & INTEL_ERROR_INSTRUCTION,
                     !=, 0);
}

/* Mask Bits 9:8 enable the writes of Pipeline Selection 1:0. */
static void test_pipeline_select_mask(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);

    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_3D);
    RUN(f, PIPELINE_SELECT | PIPELINE_SELECT_GPGPU);        /* no mask */
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_3D);
    RUN(f, PIPELINE_SELECT | PIPELINE_SELECT_MASK_BITS | PIPELINE_SELECT_GPGPU);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_GPGPU);
    /* Bit 8 alone writes bit 0 only: 2 | 1 would be reserved, kept. */
    RUN(f, PIPELINE_SELECT | 1u << 8 | PIPELINE_SELECT_MEDIA);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_GPGPU);
    RUN(f, PIPELINE_SELECT | 1u << 9 | PIPELINE_SELECT_MEDIA);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_3D);
    RUN(f, PIPELINE_SELECT | 1u << 8 | PIPELINE_SELECT_MEDIA);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_MEDIA);
    /* Media's other mask bits (12, 13) and their fields change nothing. */
    RUN(f, PIPELINE_SELECT | 3u << 12 | 3u << 4);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_MEDIA);
}

/*
 * A kernel is fetched up to the first page that does not translate (the
 * GGTT maps the first GGTT_MAPPED bytes); a first page that does not
 * translate is a page fault.
 */
static void test_kernel_fetch(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    IntelGfxKernel k;

    e->gfx.base[INTEL_GFX_INSTRUCTION].addr = GGTT_MAPPED - 0x3000;
    for (unsigned i = 0; i < 0x3000; i += 4) {
        ram_w32(f, GGTT_MAPPED - 0x3000 + i, i);
    }
    /* 0x40 bytes into the first of three mapped pages: across two. */
    g_assert_true(intel_gfx_kernel_load(e, 0x40, &k));
    g_assert_cmpuint(k.size, ==, 0x3000 - 0x40);
    g_assert_cmpuint(k.ksp, ==, 0x40);
    for (unsigned i = 0; i < k.size; i += 4) {
        uint32_t v;

        memcpy(&v, k.code + i, 4);
        g_assert_cmpuint(v, ==, 0x40 + i);
    }
    intel_gfx_kernel_free(&k);
    g_assert_null(k.code);
    g_assert_cmpuint(rd(f, INTEL_RING_FAULT_REG), ==, 0);

    /* At most INTEL_GFX_KERNEL_MAX. */
    e->gfx.base[INTEL_GFX_INSTRUCTION].addr = 0;
    g_assert_true(intel_gfx_kernel_load(e, 0x100000, &k));
    g_assert_cmpuint(k.size, ==, INTEL_GFX_KERNEL_MAX);
    intel_gfx_kernel_free(&k);

    /* The first page unmapped: a fault, no kernel. */
    g_assert_false(intel_gfx_kernel_load(e, UNMAPPED + 0x80, &k));
    g_assert_null(k.code);
    g_assert_cmpuint(rd(f, INTEL_RING_FAULT_REG) & 1, ==, 1);
    g_assert_cmphex(rd(f, INTEL_FAULT_TLB_DATA0), ==, UNMAPPED >> 12);
}

/*
 * A thread's shared functions address from the bases STATE_BASE_ADDRESS
 * set: stateless messages from the general state base.
 */
static void test_sf_thread_bases(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    IntelSfStats stats;
    IntelSfThread th;

    sba(f, 22, SBA_MODIFY_ENABLE);
    intel_gfx_sf_thread_init(e, &th, 0x40, 0x80, 16, &stats);
    g_assert_cmphex(th.general_state_base, ==, base(f, INTEL_GFX_GENERAL));
    g_assert_cmphex(th.surface_state_base, ==, base(f, INTEL_GFX_SURFACE));
    g_assert_cmphex(th.dynamic_state_base, ==, base(f, INTEL_GFX_DYNAMIC));
    g_assert_cmphex(th.binding_table, ==, 0x40);
    g_assert_cmphex(th.sampler_state, ==, 0x80);
    g_assert_cmpuint(th.simd, ==, 16);
    g_assert_true(th.stats == &stats && th.e == e);
}

static const FixtureTest tests[] = {
    { "/intel-gfx/sba/lengths", test_sba_lengths },
    { "/intel-gfx/sba/modify-enable", test_sba_modify_enable },
    { "/intel-gfx/sba/short", test_sba_short },
    { "/intel-gfx/pipeline-select/mask", test_pipeline_select_mask },
    { "/intel-gfx/kernel-fetch", test_kernel_fetch },
    { "/intel-gfx/sf-thread-bases", test_sf_thread_bases },
};

FIXTURE_MAIN(fixture_setup_ggtt)
