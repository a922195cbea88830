/*
 * IGT's Ice Lake render copy (IGT 1.27.1 lib/rendercopy_gen9.c,
 * _gen9_render_op() with gen11_render_copyfunc's ps_kernel_gen11): its
 * batch and state built as IGT builds them, for the render unit tests
 * and the render bench.  Every GFXPIPE command and state structure is
 * packed from its fields (gen11-state.h, generated from
 * hw/gpumodel/intel/gen11-state.desc), with IGT's values.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_INTEL_RENDER_COPY_H
#define TESTS_UNIT_INTEL_RENDER_COPY_H

#include "intel-fixture.h"
#include "eu-asm.h"
#include "tiling-ref.h"
#include "intel/sf/sf.h"
#include "tests/qtest/intel-gpu-igt-cmds.h"

#define RC_BATCH        0x030000u       /* 8 KiB: commands, then state */
#define RC_SPLIT        2048            /* BATCH_STATE_SPLIT */
#define SRC_SURF        0x200000u
#define DST_SURF        0x500000u       /* clear of SNAP and OABUF */
#define SURF_MAX        0x100000u

/* The enumerated values IGT sets (genxml's enums, lib/gen*_render.h). */
enum {
    RC_RECTLIST = 0x0f,                 /* 3D_Prim_Topo_Type */
    RC_R16G16_SSCALED = 0x0f6,          /* SURFACE_FORMAT */
    RC_VFCOMP_STORE_SRC = 1,            /* 3D_Vertex_Component_Control */
    RC_VFCOMP_STORE_0 = 2,
    RC_VFCOMP_STORE_1_FP = 3,
    RC_ALIGN_4 = 1,                     /* HALIGN_4, VALIGN_4 */
    RC_MOCS_PTE = 2,                    /* I915_MOCS_PTE << 1 */
    RC_BLENDFACTOR_ONE = 0x01,          /* 3D_Color_Buffer_Blend_Factor */
    RC_BLENDFACTOR_ZERO = 0x11,
    RC_BLENDFUNCTION_ADD = 0,           /* 3D_Color_Buffer_Blend_Function */
    RC_CULLMODE_NONE = 1,
    RC_FRONT_CCW = 1,                   /* Front Winding: CounterClockwise */
    RC_ACF_XYZW = 3,                    /* Attribute Active Component */
    RC_BARY_PERSPECTIVE_PIXEL = 1,      /* Barycentric Interpolation Mode */
};

typedef struct RcBuf {
    uint64_t addr;
    uint32_t width, height, stride;
    RefTiling t;
} RcBuf;

/* The batch as intel_bb builds it: dwords at @pos, state from the top. */
typedef struct Bb {
    Fixture *f;
    uint64_t base;
    uint32_t pos;
} Bb;

static inline void out(Bb *b, uint32_t v)
{
    ram_w32(b->f, b->base + b->pos, v);
    b->pos += 4;
}

static inline void out_dw(Bb *b, const uint32_t *dw, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        out(b, dw[i]);
    }
}

/*
 * The gen11-state.h entry NAME packed into the batch from the designated
 * initializers that follow (its fields, the rest zero; 0: all zero).
 * @stem is NAME in lower case, as its functions spell it: the
 * preprocessor cannot lower it.
 */
#define RC_PACK(b, stem, NAME, ...) \
    do { \
        uint32_t rc_dw_[GEN11_##NAME##_LENGTH]; \
        \
        gen11_##stem##_pack(rc_dw_, &(Gen11_##NAME) { __VA_ARGS__ }); \
        out_dw((b), rc_dw_, GEN11_##NAME##_LENGTH); \
    } while (0)

/* The command NAME with every field zero: its header, then zeros. */
#define RC_ZERO(b, NAME) \
    rc_zero((b), GEN11_##NAME##_HEADER, GEN11_##NAME##_LENGTH, \
            GEN11_##NAME##_BIAS)

/* A command's header, @n dwords in all (@bias: what DWord Length omits). */
static inline void rc_header(Bb *b, uint32_t header, unsigned n,
                             unsigned bias)
{
    out(b, header | (n - bias));
}

static inline void rc_zero(Bb *b, uint32_t header, unsigned n, unsigned bias)
{
    rc_header(b, header, n, bias);
    for (unsigned i = 1; i < n; i++) {
        out(b, 0);
    }
}

static inline uint32_t align(Bb *b, uint32_t a)
{
    b->pos = (b->pos + a - 1) & ~(a - 1);
    return b->pos;
}

static inline uint64_t pixel_addr(const RcBuf *s, uint32_t x,
                                  uint32_t y)
{
    return s->addr + ref_offset(s->t, 4, s->stride, x * 4, y);
}

/* gen8_bind_buf(): a RENDER_SURFACE_STATE, B8G8R8A8_UNORM, 2D. */
static inline uint32_t bind_buf(Bb *b, const RcBuf *s)
{
    uint32_t off = align(b, 64);

    RC_PACK(b, render_surface_state, RENDER_SURFACE_STATE,
            .surface_type = INTEL_SURFTYPE_2D,
            .surface_format = INTEL_SF_B8G8R8A8_UNORM,
            .surface_vertical_alignment = RC_ALIGN_4,
            .surface_horizontal_alignment = RC_ALIGN_4,
            .tile_mode = s->t == REF_X ? INTEL_TILE_MODE_XMAJOR :
                         s->t == REF_Y ? INTEL_TILE_MODE_YMAJOR :
                         INTEL_TILE_MODE_LINEAR,
            .render_cache_read_write_mode = 1,
            .mocs = RC_MOCS_PTE,
            .height = s->height - 1,
            .width = s->width - 1,
            .surface_pitch = s->stride - 1,
            .mip_tail_start_lod = 1,
            .shader_channel_select_red = INTEL_SCS_RED,
            .shader_channel_select_green = INTEL_SCS_GREEN,
            .shader_channel_select_blue = INTEL_SCS_BLUE,
            .shader_channel_select_alpha = INTEL_SCS_ALPHA,
            .surface_base_address = s->addr);
    return off;
}

static inline void emit_f(Bb *b, float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    out(b, u);
}

/*
 * emit_vertex_2s() and emit_vertex_normalized() of lib/rendercopy.h:
 * vertex data (R16G16_SSCALED, R32G32_FLOAT), not a GFXPIPE structure.
 */
static inline void vertex(Bb *b, int16_t x, int16_t y, float u, float v)
{
    out(b, (uint16_t)x | (uint32_t)(uint16_t)y << 16);
    emit_f(b, u);
    emit_f(b, v);
}

/* What a test changes in IGT's batch (NULL: nothing). */
typedef struct RcOpts {
    const uint8_t *kernel;      /* another pixel shader */
    size_t kernel_len;
    bool simd8;                 /* SIMD8 dispatch (IGT's: SIMD16) */
    uint64_t consts;            /* push constant buffer 0 ... */
    uint32_t const_regs;        /* ... of so many registers (0: none) */
    uint32_t flat;              /* SBE constant interpolation enables */
    /*
     * A fast clear (BLORP's) to the clear colour @clear (floats' bits,
     * in the destination's surface state), or a full resolve.
     */
    bool fast_clear, resolve;
    uint32_t clear[4];
} RcOpts;

/* Where _gen9_render_op() put its state: offsets in the batch. */
typedef struct RcState {
    uint32_t bt, sampler, kernel, vb;
    uint32_t cc, blend, cc_vp, sf_vp, scissor;
} RcState;

/* ---- the state, from BATCH_STATE_SPLIT up ---- */

/* gen8_bind_surfaces(): the binding table, destination then source. */
static inline uint32_t rc_bind_surfaces(Bb *b, const RcBuf *src,
                                        const RcBuf *dst)
{
    uint32_t bt = align(b, 32);
    uint32_t ss[2];

    b->pos += 32;
    ss[0] = bind_buf(b, dst);
    ss[1] = bind_buf(b, src);
    for (unsigned i = 0; i < 2; i++) {
        Gen11_BINDING_TABLE_STATE e = { .surface_state_pointer = ss[i] };
        uint32_t dw;

        gen11_binding_table_state_pack(&dw, &e);
        ram_w32(b->f, b->base + bt + i * 4, dw);
    }
    return bt;
}

/* gen8_create_sampler(): SAMPLER_STATE, NEAREST, CLAMP. */
static inline uint32_t rc_create_sampler(Bb *b)
{
    uint32_t sampler = align(b, 64);

    RC_PACK(b, sampler_state, SAMPLER_STATE,
            .min_mode_filter = INTEL_MAPFILTER_NEAREST,
            .mag_mode_filter = INTEL_MAPFILTER_NEAREST,
            .tcx_address_control_mode = INTEL_TEXCOORD_CLAMP,
            .tcy_address_control_mode = INTEL_TEXCOORD_CLAMP,
            .tcz_address_control_mode = INTEL_TEXCOORD_CLAMP);
    return sampler;
}

/* gen8_fill_ps(): the pixel shader, ps_kernel_gen11 or @o's. */
static inline uint32_t rc_fill_ps(Bb *b, const RcOpts *o)
{
    uint32_t kernel = align(b, 64);

    if (o->kernel) {
        for (size_t i = 0; i < o->kernel_len; i += 4) {
            uint32_t dw;

            memcpy(&dw, o->kernel + i, 4);
            out(b, GUINT32_FROM_LE(dw));
        }
    } else {
        for (unsigned i = 0; i < G_N_ELEMENTS(igt_ps_kernel_gen11); i++) {
            out_dw(b, igt_ps_kernel_gen11[i], 4);
        }
    }
    return kernel;
}

/* gen7_fill_vertex_buffer_data(): the RECTLIST's three corners. */
static inline uint32_t rc_fill_vertex_buffer_data(Bb *b, const RcBuf *src,
                                                  uint32_t sx, uint32_t sy,
                                                  uint32_t dx, uint32_t dy,
                                                  uint32_t w, uint32_t h)
{
    uint32_t vb = align(b, 8);

    vertex(b, dx + w, dy + h, (float)(sx + w) / src->width,
           (float)(sy + h) / src->height);
    vertex(b, dx, dy + h, (float)sx / src->width,
           (float)(sy + h) / src->height);
    vertex(b, dx, dy, (float)sx / src->width, (float)sy / src->height);
    return vb;
}

/*
 * gen6_create_cc_state() to gen6_create_scissor_rect(): COLOR_CALC_STATE,
 * BLEND_STATE, the CC and SF_CLIP viewports, SCISSOR_RECT.
 */
static inline void rc_create_cc_and_viewports(Bb *b, RcState *st)
{
    st->cc = align(b, 64);
    b->pos += 24;                       /* gen6_color_calc_state: zeros */
    st->blend = align(b, 64);
    RC_PACK(b, blend_state, BLEND_STATE, 0);
    for (unsigned i = 0; i < 16; i++) {
        RC_PACK(b, blend_state_entry, BLEND_STATE_ENTRY,
                .source_blend_factor = RC_BLENDFACTOR_ONE,
                .destination_blend_factor = RC_BLENDFACTOR_ZERO,
                .color_blend_function = RC_BLENDFUNCTION_ADD,
                .pre_blend_color_clamp_enable = true);
    }
    st->cc_vp = align(b, 32);
    RC_PACK(b, cc_viewport, CC_VIEWPORT,
            .minimum_depth = -1.e35f, .maximum_depth = 1.e35f);
    st->sf_vp = align(b, 64);
    RC_PACK(b, sf_clip_viewport, SF_CLIP_VIEWPORT,
            .x_max_clip_guardband = 1.0f, .y_max_clip_guardband = 1.0f);
    st->scissor = align(b, 64);
    RC_PACK(b, scissor_rect, SCISSOR_RECT, 0);
}

/* ---- the commands, from the start of the batch ---- */

/* gen9_emit_state_base_address(): every base the batch itself. */
static inline void rc_emit_state_base_address(Bb *b)
{
    uint32_t dw[IGT_SBA_DWORDS];

    igt_sba_pack(dw, b->base, false);
    out_dw(b, dw, IGT_SBA_DWORDS);
}

/*
 * PIPELINE_SELECT to 3DSTATE_SAMPLE_MASK: the 3D pipeline, SIP, push
 * constant allocation, base addresses, viewport pointers, URB, colour
 * calc and blend pointers, multisampling.
 */
static inline void rc_emit_pipeline_setup(Bb *b, const RcState *st)
{
    RC_PACK(b, pipeline_select, PIPELINE_SELECT,
            .pipeline_selection = PIPELINE_SELECT_3D, .mask_bits = 3);
    RC_ZERO(b, STATE_SIP);
    RC_ZERO(b, 3DSTATE_PUSH_CONSTANT_ALLOC_VS);
    RC_ZERO(b, 3DSTATE_PUSH_CONSTANT_ALLOC_HS);
    RC_ZERO(b, 3DSTATE_PUSH_CONSTANT_ALLOC_DS);
    RC_ZERO(b, 3DSTATE_PUSH_CONSTANT_ALLOC_GS);
    RC_ZERO(b, 3DSTATE_PUSH_CONSTANT_ALLOC_PS);
    rc_emit_state_base_address(b);
    RC_PACK(b, 3dstate_viewport_state_pointers_cc,
            3DSTATE_VIEWPORT_STATE_POINTERS_CC,
            .cc_viewport_pointer = st->cc_vp);
    RC_PACK(b, 3dstate_viewport_state_pointers_sf_clip,
            3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP,
            .sf_clip_viewport_pointer = st->sf_vp);
    RC_PACK(b, 3dstate_urb_vs, 3DSTATE_URB_VS,
            .vs_number_of_urb_entries = 64,
            .vs_urb_entry_allocation_size = 1,
            .vs_urb_starting_address = 4);
    RC_PACK(b, 3dstate_urb_gs, 3DSTATE_URB_GS,
            .gs_urb_starting_address = 4);
    RC_PACK(b, 3dstate_urb_hs, 3DSTATE_URB_HS,
            .hs_urb_starting_address = 4);
    RC_PACK(b, 3dstate_urb_ds, 3DSTATE_URB_DS,
            .ds_urb_starting_address = 4);
    RC_PACK(b, 3dstate_blend_state_pointers, 3DSTATE_BLEND_STATE_POINTERS,
            .blend_state_pointer = st->blend,
            .blend_state_pointer_valid = true);
    RC_PACK(b, 3dstate_cc_state_pointers, 3DSTATE_CC_STATE_POINTERS,
            .color_calc_state_pointer = st->cc,
            .color_calc_state_pointer_valid = true);
    RC_ZERO(b, 3DSTATE_MULTISAMPLE);
    RC_PACK(b, 3dstate_sample_mask, 3DSTATE_SAMPLE_MASK, .sample_mask = 1);
}

/*
 * gen8_emit_null_state(), STREAMOUT and CLIP: the stages the copy does
 * not use, all off.
 */
static inline void rc_emit_null_state(Bb *b)
{
    RC_ZERO(b, 3DSTATE_WM_HZ_OP);
    RC_ZERO(b, 3DSTATE_CONSTANT_HS);
    RC_ZERO(b, 3DSTATE_HS);
    RC_ZERO(b, 3DSTATE_BINDING_TABLE_POINTERS_HS);
    RC_ZERO(b, 3DSTATE_SAMPLER_STATE_POINTERS_HS);
    RC_ZERO(b, 3DSTATE_TE);
    RC_ZERO(b, 3DSTATE_CONSTANT_GS);
    RC_ZERO(b, 3DSTATE_GS);
    RC_ZERO(b, 3DSTATE_BINDING_TABLE_POINTERS_GS);
    RC_ZERO(b, 3DSTATE_SAMPLER_STATE_POINTERS_GS);
    RC_ZERO(b, 3DSTATE_CONSTANT_DS);
    RC_ZERO(b, 3DSTATE_DS);
    RC_ZERO(b, 3DSTATE_BINDING_TABLE_POINTERS_DS);
    RC_ZERO(b, 3DSTATE_SAMPLER_STATE_POINTERS_DS);
    RC_ZERO(b, 3DSTATE_CONSTANT_VS);
    RC_ZERO(b, 3DSTATE_BINDING_TABLE_POINTERS_VS);
    RC_ZERO(b, 3DSTATE_SAMPLER_STATE_POINTERS_VS);
    RC_ZERO(b, 3DSTATE_VS);
    RC_ZERO(b, 3DSTATE_STREAMOUT);
    RC_ZERO(b, 3DSTATE_CLIP);
}

/* gen8_emit_sf(): SBE (@o's flat inputs), SBE_SWIZ, RASTER, SF. */
static inline void rc_emit_sf(Bb *b, const RcOpts *o)
{
    RC_PACK(b, 3dstate_sbe, 3DSTATE_SBE,
            .number_of_sf_output_attributes = 1,
            .force_vertex_urb_entry_read_length = true,
            .force_vertex_urb_entry_read_offset = true,
            .vertex_urb_entry_read_length = 1,
            .vertex_urb_entry_read_offset = 1,
            .constant_interpolation_enable = o->flat,
            .attribute_active_component_format = { RC_ACF_XYZW });
    RC_ZERO(b, 3DSTATE_SBE_SWIZ);
    RC_PACK(b, 3dstate_raster, 3DSTATE_RASTER,
            .front_winding = RC_FRONT_CCW, .cull_mode = RC_CULLMODE_NONE);
    RC_ZERO(b, 3DSTATE_SF);
}

/*
 * gen8_emit_ps() (WM, CONSTANT_PS with @o's push constants, PS,
 * PS_BLEND, PS_EXTRA), then the PS binding table, sampler and scissor
 * pointers.
 */
static inline void rc_emit_ps(Bb *b, const RcState *st, const RcOpts *o)
{
    RC_PACK(b, 3dstate_wm, 3DSTATE_WM,
            .barycentric_interpolation_mode = RC_BARY_PERSPECTIVE_PIXEL);
    RC_PACK(b, 3dstate_constant_ps, 3DSTATE_CONSTANT_PS,
            .constant_body = {
                .read_length = { o->const_regs },
                .buffer = { o->consts },
            });
    RC_PACK(b, 3dstate_ps, 3DSTATE_PS,
            .kernel_start_pointer_0 = st->kernel,
            .sampler_count = 1,
            .binding_table_entry_count = 2,
            .maximum_number_of_threads_per_psd = 62,
            ._8_pixel_dispatch_enable = o->simd8,
            ._16_pixel_dispatch_enable = !o->simd8,
            .push_constant_enable = o->const_regs != 0,
            .render_target_fast_clear_enable = o->fast_clear,
            .render_target_resolve_type = o->resolve ? 3 : 0,
            .dispatch_grf_start_register_for_constant_setup_data_0 = 6);
    RC_PACK(b, 3dstate_ps_blend, 3DSTATE_PS_BLEND, .has_writeable_rt = true);
    RC_PACK(b, 3dstate_ps_extra, 3DSTATE_PS_EXTRA,
            .pixel_shader_valid = true, .attribute_enable = true);
    RC_PACK(b, 3dstate_binding_table_pointers_ps,
            3DSTATE_BINDING_TABLE_POINTERS_PS,
            .pointer_to_ps_binding_table = st->bt);
    RC_PACK(b, 3dstate_sampler_state_pointers_ps,
            3DSTATE_SAMPLER_STATE_POINTERS_PS,
            .pointer_to_ps_sampler_state = st->sampler);
    RC_PACK(b, 3dstate_scissor_state_pointers,
            3DSTATE_SCISSOR_STATE_POINTERS,
            .scissor_rect_pointer = st->scissor);
}

/*
 * gen9_emit_depth(), gen7_emit_clear(), gen6_emit_drawing_rectangle():
 * no depth or stencil, the drawing rectangle all of @dst.
 */
static inline void rc_emit_depth_and_rectangle(Bb *b, const RcBuf *dst)
{
    RC_ZERO(b, 3DSTATE_WM_DEPTH_STENCIL);
    RC_ZERO(b, 3DSTATE_DEPTH_BUFFER);
    RC_ZERO(b, 3DSTATE_HIER_DEPTH_BUFFER);
    RC_ZERO(b, 3DSTATE_STENCIL_BUFFER);
    RC_PACK(b, 3dstate_clear_params, 3DSTATE_CLEAR_PARAMS,
            .depth_clear_value_valid = true);
    RC_PACK(b, 3dstate_drawing_rectangle, 3DSTATE_DRAWING_RECTANGLE,
            .clipped_drawing_rectangle_x_max = dst->width - 1,
            .clipped_drawing_rectangle_y_max = dst->height - 1);
}

/*
 * gen7_emit_vertex_buffer(), gen6_emit_vertex_elements(),
 * gen8_emit_vf_topology(), gen8_emit_primitive(): the vertices at @vb
 * drawn as a RECTLIST @instances times.  The elements: the VUE header
 * (zeros), the position (x, y, 0, 1), the texture coordinate (u, v, 0,
 * 1).
 */
static inline void rc_emit_primitive(Bb *b, uint32_t vb, uint32_t instances)
{
    static const Gen11_VERTEX_ELEMENT_STATE ve[] = {
        {
            .valid = true,
            .source_element_format = INTEL_SF_R32G32B32A32_FLOAT,
            .component_0_control = RC_VFCOMP_STORE_0,
            .component_1_control = RC_VFCOMP_STORE_0,
            .component_2_control = RC_VFCOMP_STORE_0,
            .component_3_control = RC_VFCOMP_STORE_0,
        }, {
            .valid = true,
            .source_element_format = RC_R16G16_SSCALED,
            .component_0_control = RC_VFCOMP_STORE_SRC,
            .component_1_control = RC_VFCOMP_STORE_SRC,
            .component_2_control = RC_VFCOMP_STORE_0,
            .component_3_control = RC_VFCOMP_STORE_1_FP,
        }, {
            .valid = true,
            .source_element_format = INTEL_SF_R32G32_FLOAT,
            .source_element_offset = 4,
            .component_0_control = RC_VFCOMP_STORE_SRC,
            .component_1_control = RC_VFCOMP_STORE_SRC,
            .component_2_control = RC_VFCOMP_STORE_0,
            .component_3_control = RC_VFCOMP_STORE_1_FP,
        },
    };

    rc_header(b, GEN11_3DSTATE_VERTEX_BUFFERS_HEADER,
              GEN11_3DSTATE_VERTEX_BUFFERS_LENGTH +
              GEN11_VERTEX_BUFFER_STATE_LENGTH,
              GEN11_3DSTATE_VERTEX_BUFFERS_BIAS);
    RC_PACK(b, vertex_buffer_state, VERTEX_BUFFER_STATE,
            .vertex_buffer_index = 0,
            .address_modify_enable = true,
            .buffer_pitch = 12,
            .buffer_starting_address = b->base + vb,
            .buffer_size = 3 * 12);
    rc_header(b, GEN11_3DSTATE_VERTEX_ELEMENTS_HEADER,
              GEN11_3DSTATE_VERTEX_ELEMENTS_LENGTH +
              G_N_ELEMENTS(ve) * GEN11_VERTEX_ELEMENT_STATE_LENGTH,
              GEN11_3DSTATE_VERTEX_ELEMENTS_BIAS);
    for (unsigned i = 0; i < G_N_ELEMENTS(ve); i++) {
        uint32_t dw[GEN11_VERTEX_ELEMENT_STATE_LENGTH];

        gen11_vertex_element_state_pack(dw, &ve[i]);
        out_dw(b, dw, GEN11_VERTEX_ELEMENT_STATE_LENGTH);
    }
    RC_PACK(b, 3dstate_vf_topology, 3DSTATE_VF_TOPOLOGY,
            .primitive_topology_type = RC_RECTLIST);
    RC_ZERO(b, 3DSTATE_VF);
    RC_ZERO(b, 3DSTATE_VF_INSTANCING);
    RC_PACK(b, 3dprimitive, 3DPRIMITIVE,
            .vertex_count_per_instance = 3, .instance_count = instances);
}

/*
 * _gen9_render_op(): copy @w x @h pixels from (@sx, @sy) of @src to
 * (@dx, @dy) of @dst @instances times, with @o's changes; the batch at
 * RC_BATCH, ended and ready to start.
 */
static inline void render_copy_n(Fixture *f, const RcBuf *src,
                                 uint32_t sx, uint32_t sy,
                                 uint32_t w, uint32_t h,
                                 const RcBuf *dst, uint32_t dx, uint32_t dy,
                                 uint32_t instances, const RcOpts *o)
{
    static const RcOpts igt;            /* no changes */
    Bb b = { f, RC_BATCH, RC_SPLIT };
    RcState st;

    if (!o) {
        o = &igt;
    }
    st.bt = rc_bind_surfaces(&b, src, dst);
    if (o->fast_clear) {
        /* The destination's Red/Green/Blue/Alpha Clear Color. */
        uint32_t ss = ram_r32(f, RC_BATCH + st.bt) & ~0x3fu;

        for (unsigned i = 0; i < 4; i++) {
            ram_w32(f, RC_BATCH + ss + (12 + i) * 4, o->clear[i]);
        }
    }
    st.sampler = rc_create_sampler(&b);
    st.kernel = rc_fill_ps(&b, o);
    st.vb = rc_fill_vertex_buffer_data(&b, src, sx, sy, dx, dy, w, h);
    rc_create_cc_and_viewports(&b, &st);
    g_assert_cmpuint(b.pos, <=, 8192);

    b.pos = 0;
    rc_emit_pipeline_setup(&b, &st);
    rc_emit_null_state(&b);
    rc_emit_sf(&b, o);
    rc_emit_ps(&b, &st, o);
    rc_emit_depth_and_rectangle(&b, dst);
    rc_emit_primitive(&b, st.vb, instances);
    out(&b, MI_BATCH_BUFFER_END);
    g_assert_cmpuint(b.pos, <=, RC_SPLIT);
}

static inline void render_copy(Fixture *f, const RcBuf *src,
                               uint32_t sx, uint32_t sy,
                               uint32_t w, uint32_t h,
                               const RcBuf *dst, uint32_t dx, uint32_t dy)
{
    render_copy_n(f, src, sx, sy, w, h, dst, dx, dy, 1, NULL);
}

#endif
