/*
 * The GFXPIPE state every render pipeline shares (hw/gpumodel/intel/
 * gfx.c): STATE_BASE_ADDRESS of 16, 19 and 22 dwords and its Modify
 * Enables, PIPELINE_SELECT's mask bits, kernel fetch across pages and
 * faults, the bases a thread's shared functions use, the binding table
 * pool.  The commands are
 * packed from their fields (gen11-state.h).
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

/* @s packed, cut to its first @len dwords (Gen8 16, Gen9 19, Gen11 22). */
static void run_sba(Fixture *f, const Gen11_STATE_BASE_ADDRESS *s,
                    unsigned len)
{
    uint32_t cmd[GEN11_STATE_BASE_ADDRESS_LENGTH];

    gen11_state_base_address_pack(cmd, s);
    cmd[0] = GEN11_STATE_BASE_ADDRESS_HEADER |
             (len - GEN11_STATE_BASE_ADDRESS_BIAS);
    run(f, cmd, len);
}

/* Base i at 0x(i+1)_0(i+1)000000, size i (i + 1) pages; Modify @en. */
#define BASE(i) ((uint64_t)(i) << 32 | (i) << 24)

static void sba(Fixture *f, unsigned len, bool en)
{
    Gen11_STATE_BASE_ADDRESS s = {
        .general_state_base_address_modify_enable = en,
        .general_state_base_address = BASE(1),
        .surface_state_base_address_modify_enable = en,
        .surface_state_base_address = BASE(2),
        .dynamic_state_base_address_modify_enable = en,
        .dynamic_state_base_address = BASE(3),
        .indirect_object_base_address_modify_enable = en,
        .indirect_object_base_address = BASE(4),
        .instruction_base_address_modify_enable = en,
        .instruction_base_address = BASE(5),
        .bindless_surface_state_base_address_modify_enable = en,
        .bindless_surface_state_base_address = BASE(6),
        .bindless_sampler_state_base_address_modify_enable = en,
        .bindless_sampler_state_base_address = BASE(7),
        .general_state_buffer_size_modify_enable = en,
        .general_state_buffer_size = 1,
        .dynamic_state_buffer_size_modify_enable = en,
        .dynamic_state_buffer_size = 2,
        .indirect_object_buffer_size_modify_enable = en,
        .indirect_object_buffer_size = 3,
        .instruction_buffer_size_modify_enable = en,
        .instruction_buffer_size = 4,
        .bindless_surface_state_size = 5,
        .bindless_sampler_state_buffer_size = 6,
    };

    run_sba(f, &s, len);
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

    sba(f, 16, true);
    for (unsigned i = 0; i < INTEL_GFX_BINDLESS_SURFACE; i++) {
        g_assert_cmphex(base(f, i), ==, BASE(i + 1));
    }
    g_assert_cmphex(base(f, INTEL_GFX_BINDLESS_SURFACE), ==, 0);
    g_assert_cmphex(base(f, INTEL_GFX_BINDLESS_SAMPLER), ==, 0);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_GENERAL].size, ==, 1u << 12);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_INSTRUCTION].size, ==, 4u << 12);

    intel_gfx_reset(e);
    sba(f, 19, true);
    g_assert_cmphex(base(f, INTEL_GFX_BINDLESS_SURFACE), ==, BASE(6));
    g_assert_cmphex(base(f, INTEL_GFX_BINDLESS_SAMPLER), ==, 0);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_BINDLESS_SURFACE].size, ==,
                    5u << 12);

    sba(f, 22, true);
    g_assert_cmphex(base(f, INTEL_GFX_BINDLESS_SAMPLER), ==, BASE(7));
    g_assert_cmphex(e->gfx.base[INTEL_GFX_BINDLESS_SAMPLER].size, ==,
                    6u << 12);
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmpuint(erd(f, RCS, INTEL_RING_EIR), ==, 0);
}

/*
 * Without its Modify Enable a base or size keeps its value; the bindless
 * sizes have none of their own: they change with their base.
 */
static void test_sba_modify_enable(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);

    sba(f, 22, true);
    run_sba(f, &(Gen11_STATE_BASE_ADDRESS) {
        .surface_state_base_address_modify_enable = true,
        .surface_state_base_address = 0x0abc0000,       /* modified */
        .dynamic_state_base_address = 0x0def0000,       /* kept */
        .general_state_buffer_size_modify_enable = true,
        .general_state_buffer_size = 5,
        .dynamic_state_buffer_size = 6,
        .bindless_surface_state_size = 9,               /* kept */
        .bindless_sampler_state_base_address_modify_enable = true,
        .bindless_sampler_state_buffer_size = 10,       /* modified */
    }, 22);
    g_assert_cmphex(base(f, INTEL_GFX_SURFACE), ==, 0x0abc0000);
    g_assert_cmphex(base(f, INTEL_GFX_DYNAMIC), ==, BASE(3));
    g_assert_cmphex(base(f, INTEL_GFX_GENERAL), ==, BASE(1));
    g_assert_cmphex(e->gfx.base[INTEL_GFX_GENERAL].size, ==, 5u << 12);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_DYNAMIC].size, ==, 2u << 12);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_BINDLESS_SURFACE].size, ==,
                    5u << 12);
    g_assert_cmphex(base(f, INTEL_GFX_BINDLESS_SAMPLER), ==, 0);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_BINDLESS_SAMPLER].size, ==,
                    10u << 12);
}

/* A STATE_BASE_ADDRESS shorter than 16 dwords is an instruction error. */
static void test_sba_short(Fixture *f, gconstpointer data)
{
    i915_enable_error_interrupt(f, RCS);
    run_sba(f, &(Gen11_STATE_BASE_ADDRESS) {
        .general_state_base_address_modify_enable = true,
        .general_state_base_address = 0x1000,
    }, 10);
    g_assert_cmphex(base(f, INTEL_GFX_GENERAL), ==, 0);
    g_assert_cmpuint(erd(f, RCS, INTEL_RING_EIR) & INTEL_ERROR_INSTRUCTION,
                     !=, 0);
}

/* PIPELINE_SELECT of @sel with Mask Bits @mask (and @flags: 5:4). */
static void pipeline_select(Fixture *f, uint32_t mask, uint32_t sel,
                            bool flags)
{
    Gen11_PIPELINE_SELECT ps = {
        .mask_bits = mask,
        .pipeline_selection = sel,
        .media_sampler_dop_clock_gate_enable = flags,
        .force_media_awake = flags,
    };
    uint32_t dw;

    gen11_pipeline_select_pack(&dw, &ps);
    run(f, &dw, 1);
}

/* Mask Bits 9:8 enable the writes of Pipeline Selection 1:0. */
static void test_pipeline_select_mask(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);

    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_3D);
    pipeline_select(f, 0, PIPELINE_SELECT_GPGPU, false);    /* no mask */
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_3D);
    pipeline_select(f, 3, PIPELINE_SELECT_GPGPU, false);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_GPGPU);
    /* Bit 8 alone writes bit 0 only: 2 | 1 would be reserved, kept. */
    pipeline_select(f, 1, PIPELINE_SELECT_MEDIA, false);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_GPGPU);
    pipeline_select(f, 2, PIPELINE_SELECT_MEDIA, false);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_3D);
    pipeline_select(f, 1, PIPELINE_SELECT_MEDIA, false);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_MEDIA);
    /* Media's other mask bits (12, 13) and their fields change nothing. */
    pipeline_select(f, 0x30, 0, true);
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
    g_assert_true(intel_gfx_kernel_load(e, 0x40, INTEL_GFX_KERNEL_MAX,
                                        &k));
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
    g_assert_true(intel_gfx_kernel_load(e, 0x100000, INTEL_GFX_KERNEL_MAX,
                                        &k));
    g_assert_cmpuint(k.size, ==, INTEL_GFX_KERNEL_MAX);
    intel_gfx_kernel_free(&k);

    /* The first page unmapped: a fault, no kernel. */
    g_assert_false(intel_gfx_kernel_load(e, UNMAPPED + 0x80,
                                         INTEL_GFX_KERNEL_MAX, &k));
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

    sba(f, 22, true);
    intel_gfx_sf_thread_init(e, &th, 0x40, 0x80, 16, &stats);
    g_assert_cmphex(th.general_state_base, ==, base(f, INTEL_GFX_GENERAL));
    g_assert_cmphex(th.surface_state_base, ==, base(f, INTEL_GFX_SURFACE));
    g_assert_cmphex(th.dynamic_state_base, ==, base(f, INTEL_GFX_DYNAMIC));
    g_assert_cmphex(th.binding_table, ==, 0x40);
    g_assert_cmphex(th.sampler_state, ==, 0x80);
    g_assert_cmpuint(th.simd, ==, 16);
    g_assert_true(th.stats == &stats && th.e == e);
}

static void bt_pool(Fixture *f, bool enable, uint64_t addr)
{
    uint32_t cmd[GEN11_3DSTATE_BINDING_TABLE_POOL_ALLOC_LENGTH];

    gen11_3dstate_binding_table_pool_alloc_pack(cmd,
        &(Gen11_3DSTATE_BINDING_TABLE_POOL_ALLOC) {
            .binding_table_pool_enable = enable,
            .binding_table_pool_base_address = addr,
            .binding_table_pool_buffer_size = 128,
        });
    run(f, cmd, G_N_ELEMENTS(cmd));
}

/*
 * 3DSTATE_BINDING_TABLE_POOL_ALLOC (Mesa's iris and anv on Gen11): while
 * the pool is enabled a thread's binding tables are offsets from its
 * base, else from the surface state base; surface states stay at the
 * surface state base.  GT_MODE says where the pointer's bits are.
 */
static void test_binding_table_pool(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    IntelSfThread th;

    sba(f, 22, true);
    intel_gfx_sf_thread_init(e, &th, 0x40, 0, 16, NULL);
    g_assert_cmphex(th.binding_table_base, ==, base(f, INTEL_GFX_SURFACE));

    bt_pool(f, true, BASE(8));
    g_assert_cmphex(base(f, INTEL_GFX_BINDING_TABLE_POOL), ==, BASE(8));
    g_assert_cmpuint(e->gfx.base[INTEL_GFX_BINDING_TABLE_POOL].size, ==,
                     128 * 4096);
    intel_gfx_sf_thread_init(e, &th, 0x40, 0, 16, NULL);
    g_assert_cmphex(th.binding_table_base, ==, BASE(8));
    g_assert_cmphex(th.surface_state_base, ==, base(f, INTEL_GFX_SURFACE));
    g_assert_cmphex(th.binding_table, ==, 0x40);

    /*
     * Disabled: the surface state base again; STATE_BASE_ADDRESS alone
     * leaves the pool as it was.
     */
    bt_pool(f, false, BASE(9));
    intel_gfx_sf_thread_init(e, &th, 0x40, 0, 16, NULL);
    g_assert_cmphex(th.binding_table_base, ==, base(f, INTEL_GFX_SURFACE));
    bt_pool(f, true, BASE(9));
    sba(f, 22, true);
    intel_gfx_sf_thread_init(e, &th, 0x40, 0, 16, NULL);
    g_assert_cmphex(th.binding_table_base, ==, BASE(9));

    /*
     * GT_MODE's Binding Table Alignment 18:8 (iris on Gen11, from its
     * batch): the pointer's bits 15:5 are its offset's bits 18:8.
     */
    wr(f, INTEL_GT_MODE, 1u << 26 | 1u << 10);
    intel_gfx_sf_thread_init(e, &th, 0x20, 0, 16, NULL);
    g_assert_cmphex(th.binding_table, ==, 0x100);
    intel_gfx_sf_thread_init(e, &th, 0xffe0, 0, 16, NULL);
    g_assert_cmphex(th.binding_table, ==, 0x7ff00);
    wr(f, INTEL_GT_MODE, 1u << 26);
    intel_gfx_sf_thread_init(e, &th, 0x20, 0, 16, NULL);
    g_assert_cmphex(th.binding_table, ==, 0x20);

    /* A reset disables it. */
    intel_gfx_reset(e);
    g_assert_false(e->gfx.bt_pool_enable);
    g_assert_cmphex(base(f, INTEL_GFX_BINDING_TABLE_POOL), ==, 0);
}

static const FixtureTest tests[] = {
    { "/intel-gfx/sba/lengths", test_sba_lengths },
    { "/intel-gfx/sba/modify-enable", test_sba_modify_enable },
    { "/intel-gfx/sba/short", test_sba_short },
    { "/intel-gfx/pipeline-select/mask", test_pipeline_select_mask },
    { "/intel-gfx/kernel-fetch", test_kernel_fetch },
    { "/intel-gfx/sf-thread-bases", test_sf_thread_bases },
    { "/intel-gfx/binding-table-pool", test_binding_table_pool },
};

FIXTURE_MAIN(fixture_setup_ggtt)
