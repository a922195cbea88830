/*
 * intel-gpu 3D pipeline: 3DPRIMITIVE (PRM Vol 2a: Command Reference:
 * Instructions, "3DPRIMITIVE"; PRM Vol 7: 3D-Media-GPGPU, "3D Pipeline",
 * "Vertex Fetch", "Strips and Fans" (RECTLIST), "Windower", "Pixel
 * Shader Thread Payload").
 *
 * What runs: the vertex fetcher builds each vertex's URB entry from the
 * vertex elements; with no vertex shader the entry passes through (slot
 * 1 is the position, in screen space unless 3DSTATE_SF enables the
 * viewport transform).  A RECTLIST rectangle (three vertices, the fourth
 * implied) is rasterized with pixel centres at .5 (3DSTATE_MULTISAMPLE's
 * Pixel Location), the top-left rule, clipped to the drawing rectangle
 * and, if 3DSTATE_RASTER enables it, the scissor rectangle.  Its pixels
 * go to pixel-shader threads of 2x2 subspans, SIMD16 (else SIMD8) as
 * 3DSTATE_PS enables, with the payload the PRM describes: R0, R1 (the
 * subspans' origins and the pixel mask), the barycentrics 3DSTATE_WM
 * asks for, source depth and W if 3DSTATE_PS_EXTRA asks, then at the
 * dispatch GRF start the push constants and the attribute setup (plane)
 * data of the SF outputs 3DSTATE_SBE selects.
 *
 * Not modelled (logged once): other topologies, indexed and indirect
 * draws, vertex/hull/domain/geometry shaders, SIMD32-only pixel shaders,
 * depth and stencil tests, blending (sf-dataport.c writes unblended).
 *
 * A draw runs at most INTEL_GFX_STEP_INSTRUCTIONS EU instructions per
 * command-streamer step and continues at the next one from
 * the rectangle and subspan IntelRenderState keeps (each rectangle's
 * setup counts RENDER_RECT_COST against the budget); a thread runs at
 * most that many instructions, then it is ended (a watchdog: the model
 * does not keep a thread across steps).  Between steps the draw may be
 * preempted (CS_CONTINUE_ARB, as the hardware preempts a 3DPRIMITIVE
 * between its pixel shader threads): i915 preempts a busy engine after
 * a timeslice, and resets it if that takes longer than its preemption
 * timeout.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <string.h>
#include "gfx-int.h"

#define RECTLIST                0x0f    /* 3DPRIM_RECTLIST */
#define VERTEX_ACCESS_RANDOM    1       /* indexed (3DPRIMITIVE) */
#define RENDER_COORD_MAX        16384.0 /* the largest render target */
#define RENDER_RECT_COST        64      /* a rectangle's setup, in EU
                                         * instructions of the budget */
/* Texels a fast clear writes for the cost of one EU instruction. */
#define RENDER_CLEAR_TEXELS     16

/* VERTEX_ELEMENT_STATE component controls. */
enum {
    VFCOMP_NOSTORE, VFCOMP_STORE_SRC, VFCOMP_STORE_0, VFCOMP_STORE_1_FP,
    VFCOMP_STORE_1_INT,
};

/* How a vertex format's components are stored and converted. */
enum { VK_FLOAT, VK_HALF, VK_INT, VK_UINT, VK_SSCALED, VK_USCALED,
       VK_UNORM };

typedef struct VertexFormat {
    uint16_t format;
    uint8_t comps, bytes, kind;
} VertexFormat;

/* The vertex formats the model fetches (SURFACE_FORMAT values). */
static const VertexFormat vertex_formats[] = {
    { 0x000, 4, 4, VK_FLOAT },      /* R32G32B32A32_FLOAT */
    { 0x001, 4, 4, VK_INT },        /* R32G32B32A32_SINT */
    { 0x002, 4, 4, VK_UINT },       /* R32G32B32A32_UINT */
    { 0x040, 3, 4, VK_FLOAT },      /* R32G32B32_FLOAT */
    { 0x041, 3, 4, VK_INT },
    { 0x042, 3, 4, VK_UINT },
    { 0x082, 4, 2, VK_INT },        /* R16G16B16A16_SINT */
    { 0x083, 4, 2, VK_UINT },
    { 0x084, 4, 2, VK_HALF },       /* R16G16B16A16_FLOAT */
    { 0x085, 2, 4, VK_FLOAT },      /* R32G32_FLOAT */
    { 0x086, 2, 4, VK_INT },
    { 0x087, 2, 4, VK_UINT },
    { 0x093, 4, 2, VK_SSCALED },    /* R16G16B16A16_SSCALED */
    { 0x095, 2, 4, VK_SSCALED },    /* R32G32_SSCALED */
    { 0x096, 2, 4, VK_USCALED },
    { 0x0c7, 4, 1, VK_UNORM },      /* R8G8B8A8_UNORM */
    { 0x0ce, 2, 2, VK_INT },        /* R16G16_SINT */
    { 0x0cf, 2, 2, VK_UINT },
    { 0x0d0, 2, 2, VK_HALF },       /* R16G16_FLOAT */
    { 0x0d6, 1, 4, VK_INT },        /* R32_SINT */
    { 0x0d7, 1, 4, VK_UINT },
    { 0x0d8, 1, 4, VK_FLOAT },      /* R32_FLOAT */
    { 0x0f6, 2, 2, VK_SSCALED },    /* R16G16_SSCALED */
    { 0x0f7, 2, 2, VK_USCALED },
    { 0x0f8, 1, 4, VK_SSCALED },    /* R32_SSCALED */
};

/*
 * The 3D state a draw uses, unpacked from IntelRenderState once per
 * command-streamer step (the state does not change under a draw).
 */
typedef struct DrawState {
    Gen11_VERTEX_BUFFER_STATE vb[INTEL_RENDER_VBS];
    Gen11_VERTEX_ELEMENT_STATE ve[INTEL_RENDER_VES];
    unsigned ve_count;
    Gen11_3DSTATE_VF_TOPOLOGY topology;
    Gen11_3DSTATE_SF sf;
    Gen11_3DSTATE_RASTER raster;
    Gen11_3DSTATE_SBE sbe;
    Gen11_3DSTATE_SBE_SWIZ swiz;
    Gen11_3DSTATE_WM wm;
    Gen11_3DSTATE_PS ps;
    Gen11_3DSTATE_PS_EXTRA ps_extra;
    Gen11_3DSTATE_CONSTANT_PS constant;
    Gen11_3DSTATE_DRAWING_RECTANGLE rect;
    Gen11_3DSTATE_MULTISAMPLE ms;
    Gen11_3DSTATE_WM_DEPTH_STENCIL depth_stencil;
    uint32_t blend_state, sf_clip_viewport, scissor;    /* dynamic state */
    uint32_t binding_table, sampler_state;
    double centre;              /* pixel centres at +.5 or +.0 */
} DrawState;

/* A vertex's URB entry: 4 dwords per vertex element. */
typedef struct Vertex {
    uint32_t vue[INTEL_RENDER_VES][4];
} Vertex;

/* One rectangle, as the rasterizer and the attribute setup see it. */
typedef struct Rect {
    Vertex v[3];
    float x[3], y[3], z[3];
    int32_t x0, y0, x1, y1;     /* pixels [x0, x1) x [y0, y1) drawn */
} Rect;

static uint32_t render_f2u(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

static float render_u2f(uint32_t u)
{
    float f;

    memcpy(&f, &u, 4);
    return f;
}

/* What keeps a draw from running, each logged once. */
enum {
    UNIMP_VE_FORMAT, UNIMP_SIMD32, UNIMP_INDIRECT, UNIMP_INDEXED,
    UNIMP_TOPOLOGY, UNIMP_STAGE, UNIMP_DEPTH, UNIMP_THREAD_BUDGET,
};

static const char *const unimp_what[] = {
    [UNIMP_VE_FORMAT] = "a vertex element format",
    [UNIMP_SIMD32] = "a SIMD32-only pixel shader",
    [UNIMP_INDIRECT] = "an indirect draw",
    [UNIMP_INDEXED] = "an indexed draw",
    [UNIMP_TOPOLOGY] = "a topology other than RECTLIST",
    [UNIMP_STAGE] = "a shader stage before the rasterizer",
    [UNIMP_DEPTH] = "the depth or stencil test (pixels drawn untested)",
};

static void render_unimp(IntelEngine *e, unsigned why)
{
    static uint32_t logged;

    if (logged & (1u << why)) {
        return;
    }
    logged |= 1u << why;
    if (why == UNIMP_THREAD_BUDGET) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "intel-gpu: pixel shader thread ran past %u "
                     "instructions: ended", INTEL_GFX_STEP_INSTRUCTIONS);
        return;
    }
    gpu_host_log(&e->gpu->host, GPU_LOG_UNIMP,
                 "intel-gpu: 3DPRIMITIVE: %s not modelled%s",
                 unimp_what[why], why == UNIMP_DEPTH ? "" : ": draw skipped");
}

static const VertexFormat *render_vertex_format(uint32_t format)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(vertex_formats); i++) {
        if (vertex_formats[i].format == format) {
            return &vertex_formats[i];
        }
    }
    return NULL;
}

/* Component @c of @src in format @vf, as the VF stores it. */
static uint32_t render_vertex_comp(const VertexFormat *vf, const uint8_t *src,
                                   unsigned c)
{
    const uint8_t *p = src + c * vf->bytes;
    uint32_t u = 0;
    int32_t s;

    memcpy(&u, p, vf->bytes);
    u = GUINT32_FROM_LE(u);
    s = vf->bytes == 2 ? (int16_t)u : vf->bytes == 1 ? (int8_t)u : (int32_t)u;
    switch (vf->kind) {
    case VK_HALF:
        return render_f2u(eu_half_to_float(u));
    case VK_INT:
        return s;
    case VK_SSCALED:
        return render_f2u((float)s);
    case VK_USCALED:
        return render_f2u((float)u);
    case VK_UNORM:
        return render_f2u(u / (float)((1ull << (8 * vf->bytes)) - 1));
    default:
        return u;               /* FLOAT, UINT: as they are */
    }
}

/* The 3D state of a draw, unpacked. */
static void render_draw_state(const IntelRenderState *rs, DrawState *st)
{
    Gen11_3DSTATE_BLEND_STATE_POINTERS blend;
    Gen11_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP vp;
    Gen11_3DSTATE_SCISSOR_STATE_POINTERS scissor;
    Gen11_3DSTATE_BINDING_TABLE_POINTERS_PS bt;
    Gen11_3DSTATE_SAMPLER_STATE_POINTERS_PS samplers;

    for (unsigned i = 0; i < INTEL_RENDER_VBS; i++) {
        gen11_vertex_buffer_state_unpack(rs->vb[i],
                                         GEN11_VERTEX_BUFFER_STATE_LENGTH,
                                         &st->vb[i]);
    }
    st->ve_count = MIN(rs->ve_count, INTEL_RENDER_VES);
    for (unsigned i = 0; i < st->ve_count; i++) {
        gen11_vertex_element_state_unpack(rs->ve[i],
                                          GEN11_VERTEX_ELEMENT_STATE_LENGTH,
                                          &st->ve[i]);
    }
#define UNPACK(fn, member, to) fn(rs->member, G_N_ELEMENTS(rs->member), to)
    UNPACK(gen11_3dstate_vf_topology_unpack, vf_topology, &st->topology);
    UNPACK(gen11_3dstate_sf_unpack, sf, &st->sf);
    UNPACK(gen11_3dstate_raster_unpack, raster, &st->raster);
    UNPACK(gen11_3dstate_sbe_unpack, sbe, &st->sbe);
    UNPACK(gen11_3dstate_sbe_swiz_unpack, sbe_swiz, &st->swiz);
    UNPACK(gen11_3dstate_wm_unpack, wm, &st->wm);
    UNPACK(gen11_3dstate_ps_unpack, ps, &st->ps);
    UNPACK(gen11_3dstate_ps_extra_unpack, ps_extra, &st->ps_extra);
    UNPACK(gen11_3dstate_constant_ps_unpack, constant_ps, &st->constant);
    UNPACK(gen11_3dstate_drawing_rectangle_unpack, drawing_rect, &st->rect);
    UNPACK(gen11_3dstate_multisample_unpack, multisample, &st->ms);
    UNPACK(gen11_3dstate_wm_depth_stencil_unpack, depth_stencil,
           &st->depth_stencil);
    UNPACK(gen11_3dstate_blend_state_pointers_unpack, blend_state, &blend);
    UNPACK(gen11_3dstate_viewport_state_pointers_sf_clip_unpack, vp_sf_clip,
           &vp);
    UNPACK(gen11_3dstate_scissor_state_pointers_unpack, scissor, &scissor);
    UNPACK(gen11_3dstate_binding_table_pointers_ps_unpack, binding_table_ps,
           &bt);
    UNPACK(gen11_3dstate_sampler_state_pointers_ps_unpack, sampler_state_ps,
           &samplers);
#undef UNPACK
    st->blend_state = blend.blend_state_pointer;
    st->sf_clip_viewport = vp.sf_clip_viewport_pointer;
    st->scissor = scissor.scissor_rect_pointer;
    st->binding_table = bt.pointer_to_ps_binding_table;
    st->sampler_state = samplers.pointer_to_ps_sampler_state;
    /* Pixel Location: centres at .5 (UL_CORNER) or .0 (CENTER). */
    st->centre = st->ms.pixel_location ? 0.0 : 0.5;
}

/*
 * Vertex @index's URB entry (PRM Vol 7, "Vertex Fetch"); false if a
 * vertex element cannot be fetched (logged, or a page fault raised).
 */
static bool render_fetch_vertex(IntelEngine *e, const DrawState *st,
                                uint32_t index, Vertex *v)
{
    bool ppgtt = intel_engine_ppgtt(e);

    memset(v, 0, sizeof(*v));
    for (unsigned i = 0; i < st->ve_count; i++) {
        const Gen11_VERTEX_ELEMENT_STATE *ve = &st->ve[i];
        const VertexFormat *vf =
            render_vertex_format(ve->source_element_format);
        const Gen11_VERTEX_BUFFER_STATE *vb =
            ve->vertex_buffer_index < INTEL_RENDER_VBS ?
            &st->vb[ve->vertex_buffer_index] : NULL;
        const uint32_t comp[4] = {
            ve->component_0_control, ve->component_1_control,
            ve->component_2_control, ve->component_3_control,
        };
        uint8_t src[16] = { 0 };
        bool need_src = false;

        if (!ve->valid) {
            continue;
        }
        for (unsigned c = 0; c < 4; c++) {
            need_src |= comp[c] == VFCOMP_STORE_SRC;
        }
        if (need_src && !vf) {
            render_unimp(e, UNIMP_VE_FORMAT);
            return false;
        }
        if (need_src && vb && !vb->null_vertex_buffer) {
            uint64_t addr = intel_gfx_va(vb->buffer_starting_address);
            uint64_t off = (uint64_t)index * vb->buffer_pitch +
                           ve->source_element_offset;
            unsigned n = vf->comps * vf->bytes;

            /* Past the buffer's size: zeros (PRM: out-of-bounds fetch). */
            if (off + n <= vb->buffer_size &&
                intel_vm_rw(e, ppgtt, addr + off, src, n, false)) {
                intel_engine_page_fault(e, ppgtt, addr + off);
                return false;
            }
        }
        for (unsigned c = 0; c < 4; c++) {
            uint32_t *d = &v->vue[i][c];

            switch (comp[c]) {
            case VFCOMP_STORE_SRC:
                if (c < vf->comps) {
                    *d = render_vertex_comp(vf, src, c);
                } else {
                    *d = c < 3 ? 0 : vf->kind == VK_INT ||
                         vf->kind == VK_UINT ? 1 : render_f2u(1.0f);
                }
                break;
            case VFCOMP_STORE_1_FP:
                *d = render_f2u(1.0f);
                break;
            case VFCOMP_STORE_1_INT:
                *d = 1;
                break;
            default:                    /* NOSTORE, 0, IDs: 0 */
                *d = 0;
            }
        }
    }
    return true;
}

/* Clamp @f to the render coordinate range (NaN to its low end). */
static double render_coord(double f, double lo)
{
    return f >= -RENDER_COORD_MAX ? MIN(f, RENDER_COORD_MAX) : lo;
}

/*
 * The viewport transform of viewport 0 (SF_CLIP_VIEWPORT's scale m00,
 * m11, m22 and translation m30, m31, m32), or the identity if 3DSTATE_SF
 * does not enable it; false if it faulted.
 */
static bool render_viewport(IntelEngine *e, const DrawState *st, float vp[6])
{
    Gen11_SF_CLIP_VIEWPORT v;
    uint32_t m[6];

    vp[0] = vp[1] = vp[2] = 1;
    vp[3] = vp[4] = vp[5] = 0;
    if (!st->sf.viewport_transform_enable) {
        return true;
    }
    /* The six dwords of the matrix elements: the rest is not read. */
    if (!intel_gfx_read(e, INTEL_GFX_DYNAMIC, st->sf_clip_viewport, m,
                        sizeof(m))) {
        return false;
    }
    for (unsigned i = 0; i < 6; i++) {
        m[i] = GUINT32_FROM_LE(m[i]);
    }
    gen11_sf_clip_viewport_unpack(m, G_N_ELEMENTS(m), &v);
    vp[0] = v.viewport_matrix_element_m00;
    vp[1] = v.viewport_matrix_element_m11;
    vp[2] = v.viewport_matrix_element_m22;
    vp[3] = v.viewport_matrix_element_m30;
    vp[4] = v.viewport_matrix_element_m31;
    vp[5] = v.viewport_matrix_element_m32;
    return true;
}

/*
 * Set up rectangle @prim of the draw @p: its vertices, the pixels it
 * covers inside the drawing rectangle and scissor; false if it faulted.
 */
static bool render_setup_rect(IntelEngine *e, const DrawState *st,
                              const Gen11_3DPRIMITIVE *p, uint32_t prim,
                              Rect *r)
{
    int32_t ox = st->rect.drawing_rectangle_origin_x;
    int32_t oy = st->rect.drawing_rectangle_origin_y;
    double c = st->centre;
    double xmin = RENDER_COORD_MAX, xmax = -RENDER_COORD_MAX;
    double ymin = RENDER_COORD_MAX, ymax = -RENDER_COORD_MAX;
    float vp[6];

    if (!render_viewport(e, st, vp)) {
        return false;
    }
    for (unsigned i = 0; i < 3; i++) {
        uint32_t index = p->start_vertex_location + prim * 3 + i;
        const uint32_t *pos = r->v[i].vue[1];

        if (!render_fetch_vertex(e, st, index, &r->v[i])) {
            return false;
        }
        r->x[i] = render_u2f(pos[0]) * vp[0] + vp[3] + ox;
        r->y[i] = render_u2f(pos[1]) * vp[1] + vp[4] + oy;
        r->z[i] = render_u2f(pos[2]) * vp[2] + vp[5];
        xmin = MIN(xmin, render_coord(r->x[i], RENDER_COORD_MAX));
        xmax = MAX(xmax, render_coord(r->x[i], -RENDER_COORD_MAX));
        ymin = MIN(ymin, render_coord(r->y[i], RENDER_COORD_MAX));
        ymax = MAX(ymax, render_coord(r->y[i], -RENDER_COORD_MAX));
    }
    /* Centre x + c inside [xmin, xmax): the top-left rule. */
    r->x0 = (int32_t)ceil(xmin - c);
    r->x1 = (int32_t)ceil(xmax - c);
    r->y0 = (int32_t)ceil(ymin - c);
    r->y1 = (int32_t)ceil(ymax - c);
    /* The drawing rectangle: inclusive, unsigned 16-bit bounds. */
    r->x0 = MAX(r->x0, (int32_t)st->rect.clipped_drawing_rectangle_x_min);
    r->y0 = MAX(r->y0, (int32_t)st->rect.clipped_drawing_rectangle_y_min);
    r->x1 = MIN(r->x1,
                (int32_t)st->rect.clipped_drawing_rectangle_x_max + 1);
    r->y1 = MIN(r->y1,
                (int32_t)st->rect.clipped_drawing_rectangle_y_max + 1);
    if (st->raster.scissor_rectangle_enable) {
        Gen11_SCISSOR_RECT sr;
        uint32_t s[GEN11_SCISSOR_RECT_LENGTH];

        if (!intel_gfx_read(e, INTEL_GFX_DYNAMIC, st->scissor, s,
                            sizeof(s))) {
            return false;
        }
        for (unsigned i = 0; i < G_N_ELEMENTS(s); i++) {
            s[i] = GUINT32_FROM_LE(s[i]);
        }
        gen11_scissor_rect_unpack(s, G_N_ELEMENTS(s), &sr);
        r->x0 = MAX(r->x0, (int32_t)sr.scissor_rectangle_x_min);
        r->y0 = MAX(r->y0, (int32_t)sr.scissor_rectangle_y_min);
        r->x1 = MIN(r->x1, (int32_t)sr.scissor_rectangle_x_max + 1);
        r->y1 = MIN(r->y1, (int32_t)sr.scissor_rectangle_y_max + 1);
    }
    return true;
}

/* The PS kernel for @simd of the widths 3DSTATE_PS enables (Mesa:
 * brw_fs_simd_width_for_ksp): 0, 1 or 2; -1 if none is. */
static int ps_ksp_index(const Gen11_3DSTATE_PS *ps, unsigned simd)
{
    bool s8 = ps->_8_pixel_dispatch_enable;
    bool s16 = ps->_16_pixel_dispatch_enable;
    bool s32 = ps->_32_pixel_dispatch_enable;

    if (simd == 8) {
        return s8 ? 0 : -1;
    }
    if (simd == 16) {
        return !s16 ? -1 : (s8 || s32) ? 2 : 0;
    }
    return !s32 ? -1 : (s8 || s16) ? 1 : 0;
}

/* A draw's pixel shader and what its threads share. */
typedef struct PsDispatch {
    DrawState st;
    unsigned simd, grf_start;
    EuProgram *prog;
    IntelSfThread sf;
    IntelSfStats stats;
    EuThread *t;
    uint32_t consts[64 * 8];    /* push constants */
    unsigned const_regs;
} PsDispatch;

static void render_reg_f(EuThread *t, unsigned reg, unsigned dw, float f)
{
    uint32_t u = GUINT32_TO_LE(render_f2u(f));

    if (reg < EU_GRF_COUNT) {
        memcpy(&t->grf[reg * EU_GRF_BYTES + dw * 4], &u, 4);
    }
}

static void render_reg_ud(EuThread *t, unsigned reg, unsigned dw, uint32_t v)
{
    render_reg_f(t, reg, dw, render_u2f(v));
}

/* Push constants (3DSTATE_CONSTANT_PS buffers 0-3), read once a call. */
static bool render_load_constants(IntelEngine *e, PsDispatch *d)
{
    const Gen11_3DSTATE_CONSTANT_BODY *body = &d->st.constant.constant_body;
    bool ppgtt = intel_engine_ppgtt(e);

    d->const_regs = 0;
    if (!d->st.ps.push_constant_enable) {
        return true;
    }
    for (unsigned b = 0; b < 4; b++) {
        unsigned n = body->read_length[b];
        uint64_t addr = intel_gfx_va(body->buffer[b]);

        n = MIN(n, 64 - d->const_regs);
        if (n && intel_vm_rw(e, ppgtt, addr, &d->consts[d->const_regs * 8],
                             n * EU_GRF_BYTES, false)) {
            intel_engine_page_fault(e, ppgtt, addr);
            return false;
        }
        d->const_regs += n;
    }
    return true;
}

/*
 * The SF output attribute @k's component values at the three vertices
 * (PRM Vol 7, "Attribute Swizzling": 3DSTATE_SBE and SBE_SWIZ).
 */
static void sbe_attr(const DrawState *st, const Rect *r, unsigned k,
                     float val[3][4])
{
    /* The read offset counts pairs of 128-bit slots. */
    unsigned offset = st->sbe.vertex_urb_entry_read_offset * 2, src = k;
    unsigned over = 0;

    if (st->sbe.attribute_swizzle_enable && k < 16) {
        const Gen11_SF_OUTPUT_ATTRIBUTE_DETAIL *a = &st->swiz.attribute[k];

        src = a->source_attribute;
        over = (a->component_override_x ? 1 : 0) |
               (a->component_override_y ? 2 : 0) |
               (a->component_override_z ? 4 : 0) |
               (a->component_override_w ? 8 : 0);
        if (over) {
            /* Constant Source: 0000, 0001, 1110 or 1111 (x, y, z, w). */
            static const float cs[4][4] = {
                { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 0 },
                { 1, 1, 1, 1 },
            };

            for (unsigned i = 0; i < 3; i++) {
                for (unsigned c = 0; c < 4; c++) {
                    val[i][c] = cs[a->constant_source][c];
                }
            }
        }
    }
    for (unsigned i = 0; i < 3; i++) {
        for (unsigned c = 0; c < 4; c++) {
            unsigned slot = offset + src;

            if (over & (1u << c)) {
                continue;
            }
            val[i][c] = slot < INTEL_RENDER_VES ?
                        render_u2f(r->v[i].vue[slot][c]) : 0.0f;
        }
    }
}

/* Barycentric weights (b1, b2) of vertices 1 and 2 at (@px, @py). */
static void render_barycentric(const Rect *r, double px, double py, float *b1,
                               float *b2)
{
    double ax = r->x[1] - r->x[0], ay = r->y[1] - r->y[0];
    double bx = r->x[2] - r->x[0], by = r->y[2] - r->y[0];
    double det = ax * by - bx * ay, dx = px - r->x[0], dy = py - r->y[0];

    *b1 = det ? (dx * by - bx * dy) / det : 0;
    *b2 = det ? (ax * dy - dx * ay) / det : 0;
}

/*
 * The payload of a thread for @n subspans with origins @sx/@sy (PRM Vol
 * 7, "Pixel Shader Thread Payload"); @lit: the pixels inside.
 */
static void ps_payload(IntelEngine *e, PsDispatch *d, const Rect *r,
                       const uint16_t *sx, const uint16_t *sy, unsigned n,
                       uint32_t lit)
{
    IntelRenderState *rs = &e->gfx.render;
    const DrawState *st = &d->st;
    EuThread *t = d->t;
    double c = st->centre;
    unsigned reg = 2, groups = d->simd / 8;
    float b1[EU_MAX_CHANNELS], b2[EU_MAX_CHANNELS];
    float z[EU_MAX_CHANNELS];

    for (unsigned ch = 0; ch < d->simd; ch++) {
        unsigned s = ch / 4;
        double px = (s < n ? sx[s] : 0) + (ch & 1) + c;
        double py = (s < n ? sy[s] : 0) + ((ch >> 1) & 1) + c;

        render_barycentric(r, px, py, &b1[ch], &b2[ch]);
        z[ch] = r->z[0] + b1[ch] * (r->z[1] - r->z[0]) +
                b2[ch] * (r->z[2] - r->z[0]);
        d->sf.pixel_x[ch] = px;
        d->sf.pixel_y[ch] = py;
    }
    /*
     * Every payload register is written whole: a thread of the same
     * program starts with what the previous one left (eu-exec.h).
     * R0: sampler state and binding table pointers, the thread's ID.
     */
    memset(t->grf, 0, 2 * EU_GRF_BYTES);
    render_reg_ud(t, 0, 3, st->sampler_state);
    render_reg_ud(t, 0, 4, st->binding_table);
    render_reg_ud(t, 0, 6, rs->thread_id++);
    /* R1.2-5: subspan origins (Y 31:16, X 15:0); R1.7: the pixel mask. */
    for (unsigned s = 0; s < n; s++) {
        render_reg_ud(t, 1, 2 + s, (uint32_t)sy[s] << 16 | sx[s]);
    }
    render_reg_ud(t, 1, 7, lit);
    /*
     * Barycentrics, per mode that Barycentric Interpolation Mode (a bit
     * each: perspective pixel, centroid, sample, then linear) enables: b1
     * then b2 of each group of 8 channels.  One sample at the pixel
     * centre: all modes agree, and with w = 1 perspective and linear ones
     * too.
     */
    for (unsigned m = 0; m < 6; m++) {
        if (!(st->wm.barycentric_interpolation_mode & (1u << m))) {
            continue;
        }
        for (unsigned g = 0; g < groups; g++, reg += 2) {
            for (unsigned i = 0; i < 8; i++) {
                render_reg_f(t, reg, i, b1[g * 8 + i]);
                render_reg_f(t, reg + 1, i, b2[g * 8 + i]);
            }
        }
    }
    if (st->ps_extra.pixel_shader_uses_source_depth) {
        for (unsigned g = 0; g < groups; g++, reg++) {
            for (unsigned i = 0; i < 8; i++) {
                render_reg_f(t, reg, i, z[g * 8 + i]);
            }
        }
    }
    if (st->ps_extra.pixel_shader_uses_source_w) {
        for (unsigned g = 0; g < groups; g++, reg++) {
            for (unsigned i = 0; i < 8; i++) {
                render_reg_f(t, reg, i, 1.0f);
            }
        }
    }
    /* The constant and setup data at the dispatch GRF start. */
    reg = d->grf_start;
    for (unsigned i = 0; i < d->const_regs && reg < EU_GRF_COUNT;
         i++, reg++) {
        memcpy(&t->grf[reg * EU_GRF_BYTES], &d->consts[i * 8],
               EU_GRF_BYTES);
    }
    if (st->ps_extra.attribute_enable) {
        unsigned attrs = MIN(st->sbe.number_of_sf_output_attributes,
                             INTEL_RENDER_ATTRS);

        for (unsigned k = 0; k < attrs; k++, reg += 2) {
            /* Constant Interpolation Enable: a bit per attribute. */
            bool flat = st->sbe.constant_interpolation_enable & (1u << k);
            float v[3][4];

            sbe_attr(st, r, k, v);
            /* Per component: b1's and b2's coefficients, -, constant. */
            for (unsigned ch = 0; ch < 4; ch++) {
                unsigned rg = reg + ch / 2, dw = (ch & 1) * 4;

                render_reg_f(t, rg, dw, flat ? 0 : v[1][ch] - v[0][ch]);
                render_reg_f(t, rg, dw + 1, flat ? 0 : v[2][ch] - v[0][ch]);
                render_reg_f(t, rg, dw + 2, 0);
                render_reg_f(t, rg, dw + 3, v[0][ch]);
            }
        }
    }
}

/*
 * Run rectangle @r's remaining subspans from the draw position; false
 * when the step's instruction budget ran out first (@used).
 */
static bool ps_rect(IntelEngine *e, PsDispatch *d, const Rect *r,
                    uint64_t *used)
{
    IntelRenderState *rs = &e->gfx.render;
    unsigned per_thread = d->simd / 4;
    int32_t sx0 = r->x0 & ~1;

    if (r->x0 >= r->x1 || r->y0 >= r->y1) {
        return true;
    }
    if ((int32_t)rs->draw_y < (r->y0 & ~1)) {
        rs->draw_y = r->y0 & ~1;
        rs->draw_x = sx0;
    }
    while ((int32_t)rs->draw_y < r->y1) {
        uint16_t sx[8], sy[8];
        uint32_t lit = 0, exec = 0;
        unsigned n = 0;
        uint64_t clear_texels;
        EuStatus st;

        if (e->state == INTEL_CS_HALTED) {
            return true;                /* a fault stopped the engine */
        }
        if (*used >= INTEL_GFX_STEP_INSTRUCTIONS) {
            return false;
        }
        /* The next subspans in row order: all touch the rectangle. */
        while (n < per_thread && (int32_t)rs->draw_y < r->y1) {
            int32_t x = MAX((int32_t)rs->draw_x, sx0), y = rs->draw_y;

            for (unsigned p = 0; p < 4; p++) {
                int32_t px = x + (p & 1), py = y + (p >> 1);

                if (px >= r->x0 && px < r->x1 && py >= r->y0 &&
                    py < r->y1) {
                    lit |= 1u << (n * 4 + p);
                }
            }
            exec |= 0xfu << (n * 4);
            sx[n] = x;
            sy[n] = y;
            n++;
            rs->draw_x = x + 2;
            if ((int32_t)rs->draw_x >= r->x1) {
                rs->draw_x = sx0;
                rs->draw_y = y + 2;
            }
        }
        eu_thread_init_program(d->t, d->prog, exec, intel_sf_send, &d->sf);
        d->t->host = &e->gpu->host;
        ps_payload(e, d, r, sx, sy, n, lit);
        d->sf.pixel_mask = lit;
        clear_texels = d->stats.rt_clear_texels;
        st = intel_gfx_thread_run(e, d->t, INTEL_EU_PS,
                                  INTEL_GFX_STEP_INSTRUCTIONS);
        /* A fast clear's blocks count against the step's budget too. */
        *used += d->t->retired + (d->stats.rt_clear_texels - clear_texels) /
                                 RENDER_CLEAR_TEXELS;
        e->stats.px[INTEL_PX_PS_THREADS]++;
        e->stats.px[INTEL_PX_RASTERIZED] += __builtin_popcount(lit);
        if (st == EU_BUDGET || st == EU_WAIT_SEND) {
            render_unimp(e, UNIMP_THREAD_BUDGET);
        }
    }
    return true;
}

/* The pixel shader of the draw, or false (logged) if none runs. */
static bool ps_setup(IntelEngine *e, PsDispatch *d)
{
    const Gen11_3DSTATE_PS *ps = &d->st.ps;
    IntelGfxKernel k;
    uint64_t ksp;
    int idx;

    d->simd = 16;
    idx = ps_ksp_index(ps, 16);
    if (idx < 0) {
        d->simd = 8;
        idx = ps_ksp_index(ps, 8);
    }
    if (idx < 0) {
        if (ps->_32_pixel_dispatch_enable) {
            render_unimp(e, UNIMP_SIMD32);
        }
        return false;
    }
    d->grf_start =
        idx == 0 ? ps->dispatch_grf_start_register_for_constant_setup_data_0 :
        idx == 1 ? ps->dispatch_grf_start_register_for_constant_setup_data_1 :
                   ps->dispatch_grf_start_register_for_constant_setup_data_2;
    ksp = idx == 0 ? ps->kernel_start_pointer_0 :
          idx == 1 ? ps->kernel_start_pointer_1 : ps->kernel_start_pointer_2;
    if (!render_load_constants(e, d) ||
        !intel_gfx_kernel_load(e, ksp, INTEL_GFX_KERNEL_MAX, &k)) {
        return false;
    }
    d->prog = eu_program_new(k.code, k.size);
    intel_gfx_kernel_free(&k);
    intel_gfx_sf_thread_init(e, &d->sf, d->st.binding_table,
                             d->st.sampler_state, d->simd, &d->stats);
    d->sf.blend_state = d->st.blend_state;
    d->sf.rt_op = ps->render_target_fast_clear_enable ?
                  INTEL_SF_RT_FAST_CLEAR :
                  ps->render_target_resolve_type ? INTEL_SF_RT_RESOLVE :
                  INTEL_SF_RT_WRITE;
    d->t = g_new(EuThread, 1);
    return true;
}

static void ps_done(IntelEngine *e, PsDispatch *d)
{
    IntelCsStats *s = &e->stats;

    s->px[INTEL_PX_SAMPLES_WRITTEN] += d->stats.rt_pixels;
    s->px[INTEL_PX_SAMPLER_TEXELS] += d->stats.sampler_texels;
    eu_program_unref(d->prog);
    g_free(d->t);
}

/* Does the draw run?  Logs what keeps it from running. */
static bool render_supported(IntelEngine *e, const Gen11_3DPRIMITIVE *p,
                             const DrawState *st, uint32_t stages)
{
    if (p->indirect_parameter_enable) {
        render_unimp(e, UNIMP_INDIRECT);
    } else if (p->vertex_access_type == VERTEX_ACCESS_RANDOM) {
        render_unimp(e, UNIMP_INDEXED);
    } else if (st->topology.primitive_topology_type != RECTLIST) {
        render_unimp(e, UNIMP_TOPOLOGY);
    } else if (stages & ~INTEL_RENDER_STAGE_SO) {
        render_unimp(e, UNIMP_STAGE);
    } else if (!st->ps_extra.pixel_shader_valid) {
        return false;                   /* no pixel shader: nothing drawn */
    } else {
        if (st->depth_stencil.depth_test_enable ||
            st->depth_stencil.stencil_test_enable) {
            render_unimp(e, UNIMP_DEPTH);
        }
        return true;
    }
    return false;
}

/*
 * 3DPRIMITIVE: Vertex Count Per Instance x Instance Count vertices from
 * Start Vertex Location; each instance draws the same rectangles.
 */
static int render_primitive(IntelEngine *e, const uint32_t *cmd,
                            unsigned len)
{
    IntelRenderState *rs = &e->gfx.render;
    uint64_t used = 0, total;
    uint64_t ctx = intel_cs_execlists_mode(e) ?
                   intel_engine_ctx_lrca(e) : 0;
    PsDispatch d = { 0 };
    Gen11_3DPRIMITIVE p;
    bool done = true;

    if (len < GEN11_3DPRIMITIVE_LENGTH) {
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION,
                           "3DPRIMITIVE shorter than 7 dwords");
        return CS_STOP;
    }
    gen11_3dprimitive_unpack(cmd, len, &p);
    /*
     * A draw preempted between steps resumes when its context runs the
     * command again, with the state and position the context image kept
     * (gfx.c intel_gfx_context_save()).  If the draw is not this
     * context's (an image copied from another context's), or the context
     * changed 3D state since, the command is a new draw with the state
     * there is.
     */
    if (rs->draw_active &&
        (rs->draw_ctx != ctx || rs->draw_gen != rs->state_gen)) {
        rs->draw_active = false;
    }
    /*
     * A draw continuing at a new step with a new execlist waiting: an
     * arbitration point before any work, so a preemption happens with
     * the work of the steps before done (the step starts after the work
     * in flight), as the hardware drains a preempted draw's threads
     * before it saves the context.
     */
    if (rs->draw_active && intel_engine_preempt_pending(e)) {
        return CS_CONTINUE_ARB;
    }
    render_draw_state(rs, &d.st);
    if (!rs->draw_active) {
        uint32_t stages = intel_render_stages(rs);

        e->stats.primitives++;
        if (stages & INTEL_RENDER_STAGE_VS) {
            /* Vertex shader threads the model does not run: counted. */
            uint64_t v = (uint64_t)p.vertex_count_per_instance *
                         MAX(p.instance_count, 1u);

            e->stats.vs_threads += v / 8 + (v % 8 != 0);
            intel_eu_dispatch(e, INTEL_EU_VS, v / 8 + (v % 8 != 0));
        }
        if (!render_supported(e, &p, &d.st, stages) || !ps_setup(e, &d)) {
            return CS_NEXT;
        }
        rs->draw_active = true;
        rs->draw_ctx = ctx;
        rs->draw_gen = rs->state_gen;
        rs->draw_prim = 0;
        rs->draw_x = rs->draw_y = 0;
    } else if (!ps_setup(e, &d)) {
        rs->draw_active = false;
        return CS_NEXT;
    }
    total = (uint64_t)(p.vertex_count_per_instance / 3) *
            MAX(p.instance_count, 1u);
    while (rs->draw_prim < total) {
        Rect r;

        /* Empty rectangles cost their setup: a draw of many is bounded. */
        if (used >= INTEL_GFX_STEP_INSTRUCTIONS) {
            done = false;
            break;
        }
        used += RENDER_RECT_COST;
        if (e->state == INTEL_CS_HALTED ||
            !render_setup_rect(e, &d.st, &p, rs->draw_prim %
                               (p.vertex_count_per_instance / 3), &r)) {
            break;
        }
        if (!ps_rect(e, &d, &r, &used)) {
            done = false;
            break;
        }
        rs->draw_prim++;
        rs->draw_x = rs->draw_y = 0;
    }
    ps_done(e, &d);
    if (!done) {
        return CS_CONTINUE;
    }
    rs->draw_active = false;
    return CS_NEXT;
}

int intel_render_cmd(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                     unsigned len)
{
    if ((cmd[0] & GFXPIPE_OPCODE_MASK) == GEN11_3DPRIMITIVE_HEADER) {
        e->stats.cmds_3d++;
        return render_primitive(e, cmd, len);
    }
    /* 3D Command Opcode 0 and 1: 3DSTATE (pipelined and not). */
    if (GFXPIPE_SUBTYPE(cmd[0]) == GFXPIPE_3D &&
        GFXPIPE_OPCODE(cmd[0]) <= 1) {
        e->stats.cmds_3d++;
        return intel_render_state_cmd(e, cmd, len);
    }
    return intel_gfx_skip(e, c, cmd, len);
}

void intel_render_reset(IntelEngine *e)
{
    memset(&e->gfx.render, 0, sizeof(e->gfx.render));
}
