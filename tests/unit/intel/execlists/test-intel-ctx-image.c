/*
 * The render engine's state in the context image (hw/gpumodel/intel/
 * ctx-image.h; execlists/execlists.c saves and restores it, gfx/ its
 * pipeline parts): each context sees the pipeline state and registers it
 * programmed, and no other context's, as on the hardware, which keeps
 * them in the context image (what Mesa and Intel's compute runtime rely
 * on: they emit their invariant state once per context).
 *
 * What i915 does with the image (drivers/gpu/drm/i915/gt/intel_lrc.c,
 * Linux 6.1): a render context of 14 pages (GEN11_LR_CONTEXT_RENDER_SIZE),
 * page 0 the PPHWSP, page 1 the register state; the first context's image
 * restore-inhibited (CTX_CONTEXT_CONTROL bit 0), recorded as the default
 * image after it ran and copied into every new context (lrc_init_state()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"

/* i915's init_common_regs(): restore on, or inhibited. */
#define CTX_CTRL_RESTORE        0x00090008u
#define CTX_CTRL_INHIBIT        0x00090009u

/* The model's part of @c's image, and a field of it, in guest memory. */
static uint64_t area(const Ctx *c)
{
    return c->lrca + INTEL_CTX_IMAGE_OFFSET;
}

#define AREA(c, field)  (area(c) + offsetof(IntelCtxImage, field))

/* ---- a context's state, all of it derived from its number n ---- */

/* Registers of the image's part the states program, and their values. */
static const uint32_t state_regs[] = {
    INTEL_RCS0_BASE + INTEL_RING_PREDICATE_SRC0,
    INTEL_RCS0_BASE + INTEL_RING_PREDICATE_SRC0 + 4,
    INTEL_RCS0_BASE + INTEL_RING_PREDICATE_DATA,
    INTEL_RCS0_BASE + INTEL_RING_PREDICATE_RESULT_2,
    INTEL_PS_INVOCATION_COUNT,
    INTEL_IA_VERTICES_COUNT + 4,
    INTEL_PS_DEPTH_COUNT,
    INTEL_RCS0_BASE + INTEL_RING_CS_GPR(3),
    INTEL_GPGPU_DISPATCHDIMZ,
    INTEL_3DPRIM_VERTEX_COUNT,
    INTEL_3DPRIM_XP(2),
    INTEL_L3CNTLREG,
    INTEL_RCS0_BASE + INTEL_RING_BB_OFFSET,
    INTEL_SO_WRITE_OFFSET(2),
    INTEL_SO_NUM_PRIMS_WRITTEN(3) + 4,
};

static uint32_t reg_value(unsigned n, unsigned i)
{
    return (n + 1) * 0x9E3779B1u + i;
}

static uint32_t gt_mode_of(unsigned n)
{
    return (n * 0x9E37u + 1) & 0xffff;
}

static const uint32_t pipelines[3] = {
    PIPELINE_SELECT_3D, PIPELINE_SELECT_MEDIA, PIPELINE_SELECT_GPGPU,
};

/* Base @w of state n: 4 KiB aligned, below 2^48; its size in pages. */
static uint64_t base_of(unsigned n, unsigned w)
{
    return (uint64_t)(n & 0xffff) << 32 | (uint64_t)(w + 1) << 28 |
           (n & 0xfff) << 12;
}

static uint32_t pages_of(unsigned n, unsigned w)
{
    return n + w + 1;
}

/* The dynamic state base: mapped memory, where CURBE and IDD come from. */
#define DYN_REGION      0x300000u
#define DYN_SIZE        0x2000u

static uint64_t dyn_of(unsigned n)
{
    return DYN_REGION + (n % 64) * DYN_SIZE;
}

static uint8_t dyn_byte(unsigned n, unsigned k)
{
    return (n % 64) * 31 + k * 7 + 1;
}

static uint32_t curbe_len_of(unsigned n)
{
    return (n % 16 + 1) * 32 + (n % 3) * 4;
}

static void fill_dyn(Fixture *f)
{
    for (unsigned r = 0; r < 64; r++) {
        for (unsigned k = 0; k < DYN_SIZE; k++) {
            f->fh->ram[DYN_REGION + r * DYN_SIZE + k] = dyn_byte(r, k);
        }
    }
}

static void pack_drawing_rect(unsigned n, uint32_t *dw)
{
    gen11_3dstate_drawing_rectangle_pack(dw,
        &(Gen11_3DSTATE_DRAWING_RECTANGLE) {
            .clipped_drawing_rectangle_x_min = n & 0xff,
            .clipped_drawing_rectangle_y_min = n >> 8,
            .clipped_drawing_rectangle_x_max = n + 100,
            .clipped_drawing_rectangle_y_max = 2 * n + 1,
            .drawing_rectangle_origin_x = -(int)(n % 50),
        });
}

static void emit_sba(Buf *b, unsigned n)
{
    Gen11_STATE_BASE_ADDRESS s = {
        .general_state_base_address_modify_enable = true,
        .general_state_base_address = base_of(n, 0),
        .general_state_buffer_size_modify_enable = true,
        .general_state_buffer_size = pages_of(n, 0),
        .surface_state_base_address_modify_enable = true,
        .surface_state_base_address = base_of(n, 1),
        .dynamic_state_base_address_modify_enable = true,
        .dynamic_state_base_address = dyn_of(n),
        .dynamic_state_buffer_size_modify_enable = true,
        .dynamic_state_buffer_size = pages_of(n, 2),
        .indirect_object_base_address_modify_enable = true,
        .indirect_object_base_address = base_of(n, 3),
        .indirect_object_buffer_size_modify_enable = true,
        .indirect_object_buffer_size = pages_of(n, 3),
        .instruction_base_address_modify_enable = true,
        .instruction_base_address = base_of(n, 4),
        .instruction_buffer_size_modify_enable = true,
        .instruction_buffer_size = pages_of(n, 4),
        .bindless_surface_state_base_address_modify_enable = true,
        .bindless_surface_state_base_address = base_of(n, 5),
        .bindless_surface_state_size = pages_of(n, 5),
        .bindless_sampler_state_base_address_modify_enable = true,
        .bindless_sampler_state_base_address = base_of(n, 6),
        .bindless_sampler_state_buffer_size = pages_of(n, 6),
    };
    uint32_t dw[GEN11_STATE_BASE_ADDRESS_LENGTH];

    gen11_state_base_address_pack(dw, &s);
    emit_n(b, dw, G_N_ELEMENTS(dw));
}

/* The binding table pool: base 7 of state n, enabled in odd states. */
static void emit_bt_pool(Buf *b, unsigned n)
{
    uint32_t dw[GEN11_3DSTATE_BINDING_TABLE_POOL_ALLOC_LENGTH];

    gen11_3dstate_binding_table_pool_alloc_pack(dw,
        &(Gen11_3DSTATE_BINDING_TABLE_POOL_ALLOC) {
            .binding_table_pool_enable = n & 1,
            .binding_table_pool_base_address =
                base_of(n, INTEL_GFX_BINDING_TABLE_POOL),
            .binding_table_pool_buffer_size =
                pages_of(n, INTEL_GFX_BINDING_TABLE_POOL),
        });
    emit_n(b, dw, G_N_ELEMENTS(dw));
}

static void emit_media(Buf *b, unsigned n)
{
    uint32_t dw[GEN11_MEDIA_VFE_STATE_LENGTH];

    gen11_media_vfe_state_pack(dw, &(Gen11_MEDIA_VFE_STATE) {
        .maximum_number_of_threads = n,
        .number_of_urb_entries = n & 0xff,
        .urb_entry_allocation_size = n + 2,
        .curbe_allocation_size = n + 3,
    });
    emit_n(b, dw, GEN11_MEDIA_VFE_STATE_LENGTH);
    gen11_media_curbe_load_pack(dw, &(Gen11_MEDIA_CURBE_LOAD) {
        .curbe_total_data_length = curbe_len_of(n),
        .curbe_data_start_address = 0,
    });
    emit_n(b, dw, GEN11_MEDIA_CURBE_LOAD_LENGTH);
    gen11_media_interface_descriptor_load_pack(dw,
        &(Gen11_MEDIA_INTERFACE_DESCRIPTOR_LOAD) {
            .interface_descriptor_total_length = 64,
            .interface_descriptor_data_start_address = 0x1000,
        });
    emit_n(b, dw, GEN11_MEDIA_INTERFACE_DESCRIPTOR_LOAD_LENGTH);
}

/* State n: pipeline, bases, SIP, media, 3D, registers. */
static void emit_state(Buf *b, unsigned n)
{
    uint32_t dw[GEN11_3DSTATE_DRAWING_RECTANGLE_LENGTH];

    gen11_pipeline_select_pack(dw, &(Gen11_PIPELINE_SELECT) {
        .mask_bits = 3, .pipeline_selection = pipelines[n % 3],
    });
    emit_n(b, dw, 1);
    emit_sba(b, n);
    emit_bt_pool(b, n);
    gen11_state_sip_pack(dw, &(Gen11_STATE_SIP) {
        .system_instruction_pointer = (uint64_t)n << 20 | 0x40,
    });
    emit_n(b, dw, GEN11_STATE_SIP_LENGTH);
    emit_media(b, n);
    pack_drawing_rect(n, dw);
    emit_n(b, dw, G_N_ELEMENTS(dw));
    EMIT(b, MI_LOAD_REGISTER_IMM(G_N_ELEMENTS(state_regs)));
    for (unsigned i = 0; i < G_N_ELEMENTS(state_regs); i++) {
        EMIT(b, state_regs[i], reg_value(n, i));
    }
    /* GT_MODE, masked: its 16 bits, all enabled. */
    EMIT(b, MI_LOAD_REGISTER_IMM(1));
    EMIT(b, INTEL_GT_MODE, 0xffff0000u | gt_mode_of(n));
}

/* The engine holds state n. */
static void check_state(Fixture *f, unsigned n)
{
    IntelEngine *e = eng(f, RCS);
    IntelMediaState *m = &e->gfx.media;
    uint32_t dw[GEN11_3DSTATE_DRAWING_RECTANGLE_LENGTH];
    static const unsigned other[] = { 0, 1, 3, 4, 5, 6, 7 };
    static uint8_t curbe[INTEL_MEDIA_CURBE_MAX];

    g_assert_cmpuint(e->gfx.pipeline, ==, pipelines[n % 3]);
    for (unsigned i = 0; i < G_N_ELEMENTS(other); i++) {
        g_assert_cmphex(e->gfx.base[other[i]].addr, ==,
                        base_of(n, other[i]));
        if (other[i] != 1) {
            g_assert_cmpuint(e->gfx.base[other[i]].size, ==,
                             pages_of(n, other[i]) * 4096);
        }
    }
    g_assert_cmphex(e->gfx.base[INTEL_GFX_DYNAMIC].addr, ==, dyn_of(n));
    g_assert_cmpuint(e->gfx.bt_pool_enable, ==, n & 1);
    g_assert_cmphex(e->gfx.sip, ==, (uint64_t)n << 20 | 0x40);
    g_assert_cmpuint(m->max_threads, ==, n + 1);
    g_assert_cmpuint(m->urb_entries, ==, n & 0xff);
    g_assert_cmpuint(m->urb_entry_size, ==, n + 2);
    g_assert_cmpuint(m->curbe_size, ==, n + 3);
    g_assert_cmpuint(m->curbe_len, ==, curbe_len_of(n));
    memset(curbe, 0, sizeof(curbe));
    for (unsigned k = 0; k < curbe_len_of(n); k++) {
        curbe[k] = dyn_byte(n, k);
    }
    g_assert_cmpmem(m->curbe, sizeof(m->curbe), curbe, sizeof(curbe));
    g_assert_cmpuint(m->idd_count, ==, 2);
    g_assert_cmphex(m->idd[1][7], ==, ram_r32(f, dyn_of(n) + 0x1000 + 60));
    g_assert_cmpuint(m->run.kind, ==, INTEL_MEDIA_IDLE);
    pack_drawing_rect(n, dw);
    g_assert_cmpmem(e->gfx.render.drawing_rect, sizeof(dw), dw, sizeof(dw));
    for (unsigned i = 0; i < G_N_ELEMENTS(state_regs); i++) {
        g_assert_cmphex(rd(f, state_regs[i]), ==, reg_value(n, i));
    }
    g_assert_cmphex(rd(f, INTEL_GT_MODE) & 0xffff, ==, gt_mode_of(n));
}

/* The engine's pipelines hold their reset state. */
static void check_pipeline_defaults(Fixture *f)
{
    IntelEngine *e = eng(f, RCS);
    static const IntelRenderState zero;

    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_3D);
    for (unsigned i = 0; i < INTEL_GFX_BASES; i++) {
        g_assert_cmphex(e->gfx.base[i].addr, ==, 0);
        g_assert_cmpuint(e->gfx.base[i].size, ==, 0);
    }
    g_assert_false(e->gfx.bt_pool_enable);
    g_assert_cmphex(e->gfx.sip, ==, 0);
    g_assert_cmpuint(e->gfx.media.max_threads, ==, 0);
    g_assert_cmpuint(e->gfx.media.curbe_len, ==, 0);
    g_assert_cmpuint(e->gfx.media.idd_count, ==, 0);
    g_assert_cmpuint(e->gfx.media.run.kind, ==, INTEL_MEDIA_IDLE);
    g_assert_cmpmem(&e->gfx.render, sizeof(zero), &zero, sizeof(zero));
}

/* ... and the image's registers theirs (0). */
static void check_defaults(Fixture *f)
{
    check_pipeline_defaults(f);
    for (unsigned i = 0; i < G_N_ELEMENTS(state_regs); i++) {
        g_assert_cmphex(rd(f, state_regs[i]), ==, 0);
    }
    g_assert_cmphex(rd(f, INTEL_GT_MODE) & 0xffff, ==, 0);
}

/* MI_STORE_REGISTER_MEM of @reg to GGTT @addr. */
static void srm(Buf *b, uint32_t reg, uint64_t addr)
{
    EMIT(b, MI_STORE_REGISTER_MEM_GEN8 | MI_SRM_LRM_GLOBAL_GTT, reg, addr,
         addr >> 32);
}

/* Submit @c with what its ring has now, and run until the engine idles. */
static void run_ctx(Ctx *c)
{
    qword_align(&c->ring);
    ctx_submit(c);
    step(c->f);
    g_assert_true(engine_idle(c->f, RCS));
    g_assert_cmphex(erd(c->f, RCS, INTEL_RING_ESR), ==, 0);
}

/* @c runs state n to completion. */
static void run_state(Ctx *c, unsigned n)
{
    emit_state(&c->ring, n);
    run_ctx(c);
}

/* ---- tests ---- */

/*
 * Two contexts alternate, the first preempted at a semaphore wait: each
 * finds its own state and registers again, the second starts from the
 * reset state, not the first's.
 */
static void test_alternate(Fixture *f, gconstpointer data)
{
    Ctx a, b;

    fill_dyn(f);
    two_contexts(f, &a, &b);
    emit_state(&a.ring, 1);
    sem_wait(&a.ring, MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM);
    for (unsigned i = 0; i < G_N_ELEMENTS(state_regs); i++) {
        srm(&a.ring, state_regs[i], DATA + 4 * i);
    }
    qword_align(&a.ring);
    ctx_submit(&a);
    step(f);
    g_assert_false(engine_idle(f, RCS));
    check_state(f, 1);

    /* B preempts A at its wait; B's first look is at the reset state. */
    srm(&b.ring, state_regs[0], MARK);
    srm(&b.ring, state_regs[4], MARK + 4);
    emit_state(&b.ring, 2);
    run_ctx(&b);
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, INTEL_CSB_PREEMPTED);
    g_assert_cmphex(ram_r32(f, MARK), ==, 0);
    g_assert_cmphex(ram_r32(f, MARK + 4), ==, 0);
    check_state(f, 2);
    g_assert_cmphex(ram_r32(f, AREA(&a, hdr.magic)), ==,
                    INTEL_CTX_IMAGE_MAGIC);
    g_assert_cmpuint(ram_r32(f, AREA(&a, hdr.version)), ==,
                     INTEL_CTX_IMAGE_VERSION);
    g_assert_cmpuint(ram_r32(f, AREA(&a, hdr.length)), ==,
                     INTEL_CTX_IMAGE_FIXED + curbe_len_of(1));

    /* A resumes after its wait with its own state. */
    ram_w32(f, SEM, 1);
    run_ctx(&a);
    check_state(f, 1);
    for (unsigned i = 0; i < G_N_ELEMENTS(state_regs); i++) {
        g_assert_cmphex(ram_r32(f, DATA + 4 * i), ==, reg_value(1, i));
    }
    EMIT(&b.ring, MI_NOOP, MI_NOOP);
    run_ctx(&b);
    check_state(f, 2);
    EMIT(&a.ring, MI_NOOP, MI_NOOP);
    run_ctx(&a);
    check_state(f, 1);
}

/*
 * Registers of gen11_rcs_offsets (intel_lrc.c, Linux 6.1): i915's
 * register state holds them, the model's part must not.
 */
static const uint16_t gen11_rcs_regs[] = {
    0x244, 0x034, 0x030, 0x038, 0x03c, 0x168, 0x140, 0x110, 0x11c,
    0x114, 0x118, 0x1c0, 0x1c4, 0x1c8, 0x180, 0x3a8, 0x28c, 0x288,
    0x284, 0x280, 0x27c, 0x278, 0x274, 0x270, 0x1b0, 0x0c8,
};

static void check_not_in_gen11_list(uint32_t offset, uint32_t dwords)
{
    for (unsigned k = 0; k < dwords; k++) {
        for (unsigned i = 0; i < G_N_ELEMENTS(gen11_rcs_regs); i++) {
            g_assert_cmphex(offset + 4 * k, !=,
                            INTEL_RCS0_BASE + gen11_rcs_regs[i]);
        }
        /* Nor OACTXCONTROL, which i915_perf.c keeps in slot 0x125. */
        g_assert_cmphex(offset + 4 * k, !=, INTEL_OACTXCONTROL);
    }
}

#define CANARY  0xA5A5A5A5u

/*
 * Where the state goes: from page 3 of the 14 i915 allocates, none of
 * what i915 uses (page 0, the register state in pages 1 and 2, i915's
 * slots 0x55, 0x65, 0x125 and EU_PERF_CNTL at 0x78F-0x79B among them)
 * written, nothing past the length or the 14 pages.
 */
static void test_layout(Fixture *f, gconstpointer data)
{
    uint64_t end;
    uint32_t len;
    Ctx a;

    g_assert_cmpuint(INTEL_CTX_IMAGE_OFFSET, >=, 3 * 4096);
    g_assert_cmpuint(INTEL_CTX_IMAGE_OFFSET + sizeof(IntelCtxImage), <=,
                     INTEL_LR_CONTEXT_RENDER_SIZE);
    g_assert_cmpuint(INTEL_LR_CONTEXT_RENDER_SIZE, ==, 14 * 4096);
    g_assert_cmpuint(offsetof(IntelCtxImage, regs), ==, 16);
    g_assert_cmpuint(offsetof(IntelCtxImage, curbe), ==,
                     INTEL_CTX_IMAGE_FIXED);
#define CHECK_REG(name, offset, dwords) check_not_in_gen11_list(offset, dwords);
    INTEL_CTX_IMAGE_REG_LIST(CHECK_REG)
#undef CHECK_REG

    fill_dyn(f);
    one_context(f, &a);
    /* After the register list (BB_END at 0x34), page 2 and the rest. */
    for (uint64_t p = ctx_state(&a, 0x35);
         p < a.lrca + INTEL_LR_CONTEXT_RENDER_SIZE + 4096; p += 4) {
        ram_w32(f, p, CANARY);
    }
    for (uint64_t p = a.lrca; p < a.lrca + 4096; p += 4) {
        ram_w32(f, p, CANARY);
    }
    for (unsigned i = 0; i < sizeof(IntelCtxImageHeader); i += 4) {
        ram_w32(f, area(&a) + i, 0);    /* never saved */
    }
    run_state(&a, 5);

    len = ram_r32(f, AREA(&a, hdr.length));
    g_assert_cmpuint(len, ==, INTEL_CTX_IMAGE_FIXED + curbe_len_of(5));
    g_assert_cmphex(ram_r32(f, AREA(&a, reg.cs_gpr[6])), ==,
                    reg_value(5, 7));
    g_assert_cmphex(ram_r32(f, AREA(&a, gfx.pipeline)), ==, pipelines[2]);
    end = area(&a) + len;
    for (uint64_t p = a.lrca; p < a.lrca + 4096; p += 4) {
        g_assert_cmphex(ram_r32(f, p), ==, CANARY);
    }
    for (uint64_t p = ctx_state(&a, 0x35);
         p < a.lrca + INTEL_LR_CONTEXT_RENDER_SIZE + 4096; p += 4) {
        if (p < area(&a) || p >= end) {
            g_assert_cmphex(ram_r32(f, p), ==, CANARY);
        }
    }
    g_assert_cmpuint(end, <=, a.lrca + INTEL_LR_CONTEXT_RENDER_SIZE);
}

/*
 * i915's default image (__engines_record_defaults(), lrc_init_state()):
 * the first context runs restore-inhibited with the context workarounds
 * (L3CNTLREG, CS_CHICKEN1 among them); its image, copied into a new
 * context, gives it those registers and the reset pipeline state,
 * whatever ran in between.
 */
static void test_default_image(Fixture *f, gconstpointer data)
{
    Ctx k, x, n;

    fill_dyn(f);
    two_contexts(f, &k, &x);
    ctx_init(f, &n, RCS, CTX_C, CRING_C, 0x43, 0);
    ram_w32(f, ctx_state(&k, CTX_CONTEXT_CONTROL), CTX_CTRL_INHIBIT);
    EMIT(&k.ring, MI_LOAD_REGISTER_IMM(2), INTEL_L3CNTLREG, 0xABCD,
         INTEL_CS_CHICKEN1, 0x00060002);
    run_ctx(&k);
    check_pipeline_defaults(f);

    run_state(&x, 3);
    /* lrc_init_state(): the default image, then the registers i915 sets. */
    memcpy(f->fh->ram + n.lrca, f->fh->ram + k.lrca,
           INTEL_LR_CONTEXT_RENDER_SIZE);
    ram_w32(f, ctx_state(&n, CTX_CONTEXT_CONTROL), CTX_CTRL_RESTORE);
    ram_w32(f, ctx_state(&n, CTX_RING_HEAD), 0);
    ram_w32(f, ctx_state(&n, CTX_RING_START), CRING_C);
    srm(&n.ring, INTEL_L3CNTLREG, MARK);
    srm(&n.ring, INTEL_CS_CHICKEN1, MARK + 4);
    srm(&n.ring, state_regs[0], MARK + 8);
    run_ctx(&n);
    check_pipeline_defaults(f);
    g_assert_cmphex(ram_r32(f, MARK), ==, 0xABCD);
    g_assert_cmphex(ram_r32(f, MARK + 4) & 0xffff, ==, 0x0002);
    g_assert_cmphex(ram_r32(f, MARK + 8), ==, 0);
}

/*
 * Engine Context Restore Inhibit: the engine's context is not loaded.
 * The pipelines start from the reset state, not the context's saved one
 * nor the last context's; the registers keep the engine's values, as the
 * register list's do (only its ring context is loaded: the new commands
 * run).
 */
static void test_inhibit(Fixture *f, gconstpointer data)
{
    Ctx a, b;

    fill_dyn(f);
    two_contexts(f, &a, &b);
    run_state(&b, 2);
    run_state(&a, 1);
    ram_w32(f, ctx_state(&b, CTX_CONTEXT_CONTROL), CTX_CTRL_INHIBIT);
    srm(&b.ring, state_regs[0], MARK);
    run_ctx(&b);
    check_pipeline_defaults(f);
    g_assert_cmphex(ram_r32(f, MARK), ==, reg_value(1, 0));
    g_assert_cmphex(rd(f, state_regs[0]), ==, reg_value(1, 0));

    /* Restore on again: what B's save then held, the reset pipelines. */
    ram_w32(f, ctx_state(&b, CTX_CONTEXT_CONTROL), CTX_CTRL_RESTORE);
    run_ctx(&a);
    EMIT(&b.ring, MI_NOOP, MI_NOOP);
    run_ctx(&b);
    check_pipeline_defaults(f);
    g_assert_cmphex(rd(f, state_regs[0]), ==, reg_value(1, 0));
}

/*
 * A saved part the guest damaged.  A header not the model's is nothing
 * saved: the reset state, registers too, logged (a zero one, a context
 * that never ran, silently).  A value out of range resets its part only.
 * Nothing crashes or reads past the image.
 */
typedef struct Corrupt {
    size_t offset;
    uint32_t value;
    bool header;                /* the whole part: defaults */
    bool logged;
    unsigned part;              /* else: 1 gfx, 2 media, 3 render */
} Corrupt;

static const Corrupt corrupt_cases[] = {
    { offsetof(IntelCtxImage, hdr.magic), 0x12345678, true, true, 0 },
    { offsetof(IntelCtxImage, hdr.version), INTEL_CTX_IMAGE_VERSION + 1,
      true, true, 0 },
    { offsetof(IntelCtxImage, hdr.length), INTEL_CTX_IMAGE_FIXED - 4, true,
      true, 0 },
    { offsetof(IntelCtxImage, hdr.length), sizeof(IntelCtxImage) + 4, true,
      true, 0 },
    { offsetof(IntelCtxImage, hdr.length), INTEL_CTX_IMAGE_FIXED + 2, true,
      true, 0 },
    { offsetof(IntelCtxImage, hdr.reserved), 1, true, true, 0 },
    { offsetof(IntelCtxImage, gfx.pipeline), 3, false, true, 1 },
    { offsetof(IntelCtxImage, media.idd_count), INTEL_MEDIA_IDDS + 1, false,
      true, 2 },
    { offsetof(IntelCtxImage, media.curbe_len), INTEL_MEDIA_CURBE_MAX, false,
      true, 2 },
    { offsetof(IntelCtxImage, media.run.kind), INTEL_MEDIA_OBJECT, false,
      true, 2 },
    { offsetof(IntelCtxImage, render.draw_active), 2, false, true, 3 },
};

static void corrupt_case(Fixture *f, Ctx *a, Ctx *x, const uint8_t *good,
                         const Corrupt *c)
{
    IntelEngine *e = eng(f, RCS);
    uint32_t rect[GEN11_3DSTATE_DRAWING_RECTANGLE_LENGTH];
    unsigned errors;

    memcpy(f->fh->ram + area(a), good, sizeof(IntelCtxImage));
    ram_w32(f, area(a) + c->offset, c->value);
    EMIT(&x->ring, MI_NOOP, MI_NOOP);
    run_ctx(x);
    errors = f->fh->guest_errors;
    EMIT(&a->ring, MI_NOOP, MI_NOOP);
    run_ctx(a);
    g_assert_cmpuint(f->fh->guest_errors - errors, ==, c->logged);
    if (c->header) {
        check_defaults(f);
        return;
    }
    g_assert_cmphex(rd(f, state_regs[0]), ==, reg_value(1, 0));
    g_assert_cmpuint(e->gfx.pipeline, ==, c->part == 1 ?
                     PIPELINE_SELECT_3D : pipelines[1]);
    g_assert_cmpuint(e->gfx.media.curbe_len, ==, c->part == 2 ? 0 :
                     curbe_len_of(1));
    pack_drawing_rect(1, rect);
    g_assert_cmphex(e->gfx.render.drawing_rect[2], ==, c->part == 3 ? 0 :
                    rect[2]);
}

/* Dword @offset of the image copy @img, little-endian as in memory. */
static void put32(uint8_t *img, size_t offset, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(img + offset, &v, 4);
}

static void test_corrupt(Fixture *f, gconstpointer data)
{
    uint8_t *good = g_malloc(sizeof(IntelCtxImage)), *other;
    unsigned errors;
    Ctx a, x;

    fill_dyn(f);
    two_contexts(f, &a, &x);
    run_state(&x, 2);
    run_state(&a, 1);
    run_state(&x, 2);
    memcpy(good, f->fh->ram + area(&a), sizeof(IntelCtxImage));
    for (unsigned i = 0; i < G_N_ELEMENTS(corrupt_cases); i++) {
        g_test_message("case %u", i);
        corrupt_case(f, &a, &x, good, &corrupt_cases[i]);
    }

    /* A walker position the walkers cannot index by (no thread width). */
    other = g_memdup2(good, sizeof(IntelCtxImage));
    put32(other, offsetof(IntelCtxImage, media.run.kind),
          INTEL_MEDIA_GPGPU_WALKER);
    put32(other, offsetof(IntelCtxImage, media.run.simd), 16);
    put32(other, offsetof(IntelCtxImage, media.run.td), 1);
    corrupt_case(f, &a, &x, other, &(Corrupt) {
        offsetof(IntelCtxImage, media.run.th), 1, false, true, 2 });

    /* Garbage after a valid header, the longest: registers take it all. */
    memset(f->fh->ram + area(&a) + sizeof(IntelCtxImageHeader), 0xff,
           sizeof(IntelCtxImage) - sizeof(IntelCtxImageHeader));
    ram_w32(f, AREA(&a, hdr.length), sizeof(IntelCtxImage));
    EMIT(&x.ring, MI_NOOP, MI_NOOP);
    run_ctx(&x);
    errors = f->fh->guest_errors;
    EMIT(&a.ring, MI_NOOP, MI_NOOP);
    run_ctx(&a);
    g_assert_cmpuint(f->fh->guest_errors - errors, ==, 3);
    check_pipeline_defaults(f);
    g_assert_cmphex(rd(f, state_regs[0]), ==, 0xffffffff);

    /* A zero header: a context that never ran, nothing logged. */
    memset(other, 0, sizeof(IntelCtxImage));
    corrupt_case(f, &a, &x, other, &(Corrupt) {
        offsetof(IntelCtxImage, hdr.magic), 0, true, false, 0 });
    g_free(other);
    g_free(good);
}

/*
 * A context whose object ends before the model's part (its pages not in
 * the GGTT): the restore finds nothing (logged), the save faults as the
 * register state's would.
 */
static void test_unmapped(Fixture *f, gconstpointer data)
{
    uint64_t lrca = GGTT_MAPPED - INTEL_CTX_IMAGE_OFFSET;
    unsigned errors = f->fh->guest_errors;
    Ctx c;

    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, &c, RCS, lrca, CRING_A, 0x41, 0);
    sdi(&c.ring, DATA, 1);
    qword_align(&c.ring);
    ctx_submit(&c);
    step(f);
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmphex(ram_r32(f, DATA), ==, 1);
    g_assert_cmpuint(f->fh->guest_errors - errors, ==, 2);
    g_assert_cmphex(rd(f, INTEL_RING_FAULT_REG) & 1, ==, 1);
    check_defaults(f);
}

/*
 * No limit on contexts: 1,000, each with its own state, all saved, then
 * each restored after another.  Each has the 14 pages i915 allocates and
 * a 4 KiB ring, above the fixture's memory.
 */
#define MANY            1000
#define MANY_BASE       (16u << 20)
#define MANY_STRIDE     (INTEL_LR_CONTEXT_RENDER_SIZE + 4096)

static void test_thousand(Fixture *f, gconstpointer data)
{
    uint64_t top = MANY_BASE + (uint64_t)MANY * MANY_STRIDE;
    Ctx *c = g_new(Ctx, MANY);

    fake_host_grow_ram(f->fh, top);
    for (uint64_t p = GGTT_MAPPED; p < top; p += 4096) {
        intel_ggtt_write_pte(f->gpu, p / 4096, p | 1);
    }
    fill_dyn(f);
    execlists_init(f, RCS, HWSP_RCS);
    for (unsigned i = 0; i < MANY; i++) {
        uint64_t lrca = MANY_BASE + (uint64_t)i * MANY_STRIDE;

        ctx_init(f, &c[i], RCS, lrca, lrca + INTEL_LR_CONTEXT_RENDER_SIZE,
                 0x1000 + i, 0);
        ram_w32(f, ctx_state(&c[i], CTX_RING_CTL), 1);      /* 4 KiB */
        run_state(&c[i], i);
        check_state(f, i);
    }
    /* Each after another: the odd ones, then the even ones backwards. */
    for (unsigned k = 0; k < MANY; k++) {
        unsigned i = k < MANY / 2 ? 2 * k + 1 : 2 * (MANY - 1 - k);

        EMIT(&c[i].ring, MI_NOOP, MI_NOOP);
        run_ctx(&c[i]);
        check_state(f, i);
    }
    g_free(c);
}

static const FixtureTest tests[] = {
    { "/intel/ctx-image/alternate", test_alternate },
    { "/intel/ctx-image/layout", test_layout },
    { "/intel/ctx-image/default-image", test_default_image },
    { "/intel/ctx-image/inhibit", test_inhibit },
    { "/intel/ctx-image/corrupt", test_corrupt },
    { "/intel/ctx-image/unmapped", test_unmapped },
    { "/intel/ctx-image/thousand", test_thousand },
};

FIXTURE_MAIN(fixture_setup_i915)
