/*
 * intel-gpu 3D pipeline: the 3DSTATE_* commands (PRM Vol 2a: Command
 * Reference: Instructions, each command's page; their fields as
 * gen11-state.desc describes them).
 *
 * The state is kept as the commands' dwords in IntelRenderState; render.c
 * unpacks it when a 3DPRIMITIVE draws.  Stages the model does not run
 * (vertex, hull, domain and geometry shaders, tessellation, stream
 * output) are accepted disabled; enabling one is logged once and its
 * draws are skipped.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stddef.h>
#include <string.h>
#include "gfx-int.h"

/* The commands kept whole, where, and the stage each enables if any. */
#define KEEP(cmd, member, stage, what) \
    { GEN11_##cmd##_HEADER, offsetof(IntelRenderState, member), \
      GEN11_##cmd##_LENGTH, stage, what }

static const struct {
    uint32_t header;
    uint16_t offset;
    uint8_t dwords;
    uint8_t stage;                      /* INTEL_RENDER_STAGE_* */
    const char *what;
} kept[] = {
    KEEP(3DSTATE_VF_TOPOLOGY, vf_topology, 0, NULL),
    KEEP(3DSTATE_VS, vs, INTEL_RENDER_STAGE_VS, "vertex shader"),
    KEEP(3DSTATE_HS, hs, INTEL_RENDER_STAGE_HS, "hull shader"),
    KEEP(3DSTATE_DS, ds, INTEL_RENDER_STAGE_DS, "domain shader"),
    KEEP(3DSTATE_GS, gs, INTEL_RENDER_STAGE_GS, "geometry shader"),
    KEEP(3DSTATE_TE, te, INTEL_RENDER_STAGE_TE, "tessellation"),
    KEEP(3DSTATE_STREAMOUT, so, INTEL_RENDER_STAGE_SO, "stream output"),
    KEEP(3DSTATE_CLIP, clip, 0, NULL),
    KEEP(3DSTATE_SF, sf, 0, NULL),
    KEEP(3DSTATE_RASTER, raster, 0, NULL),
    KEEP(3DSTATE_SBE, sbe, 0, NULL),
    KEEP(3DSTATE_SBE_SWIZ, sbe_swiz, 0, NULL),
    KEEP(3DSTATE_WM, wm, 0, NULL),
    KEEP(3DSTATE_PS, ps, 0, NULL),
    KEEP(3DSTATE_PS_EXTRA, ps_extra, 0, NULL),
    KEEP(3DSTATE_PS_BLEND, ps_blend, 0, NULL),
    KEEP(3DSTATE_CONSTANT_PS, constant_ps, 0, NULL),
    KEEP(3DSTATE_BLEND_STATE_POINTERS, blend_state, 0, NULL),
    KEEP(3DSTATE_CC_STATE_POINTERS, cc_state, 0, NULL),
    KEEP(3DSTATE_VIEWPORT_STATE_POINTERS_CC, vp_cc, 0, NULL),
    KEEP(3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP, vp_sf_clip, 0, NULL),
    KEEP(3DSTATE_SCISSOR_STATE_POINTERS, scissor, 0, NULL),
    KEEP(3DSTATE_BINDING_TABLE_POINTERS_PS, binding_table_ps, 0, NULL),
    KEEP(3DSTATE_SAMPLER_STATE_POINTERS_PS, sampler_state_ps, 0, NULL),
    KEEP(3DSTATE_DRAWING_RECTANGLE, drawing_rect, 0, NULL),
    KEEP(3DSTATE_MULTISAMPLE, multisample, 0, NULL),
    KEEP(3DSTATE_SAMPLE_MASK, sample_mask, 0, NULL),
    KEEP(3DSTATE_WM_DEPTH_STENCIL, depth_stencil, 0, NULL),
};

/* Copy @cmd (@len dwords) into @dst[@n], zeroing what is missing. */
static void render_state_take(uint32_t *dst, unsigned n, const uint32_t *cmd,
                              unsigned len)
{
    for (unsigned i = 0; i < n; i++) {
        dst[i] = i < len ? cmd[i] : 0;
    }
}

/* VERTEX_BUFFER_STATEs, each kept at its Vertex Buffer Index. */
static void vertex_buffers(IntelRenderState *rs, const uint32_t *cmd,
                           unsigned len)
{
    const unsigned n = GEN11_VERTEX_BUFFER_STATE_LENGTH;

    for (unsigned i = GEN11_3DSTATE_VERTEX_BUFFERS_VERTEX_BUFFER_STATE_DW;
         i + n <= len; i += n) {
        Gen11_VERTEX_BUFFER_STATE vb;

        gen11_vertex_buffer_state_unpack(cmd + i, n, &vb);
        if (vb.vertex_buffer_index < INTEL_RENDER_VBS) {
            render_state_take(rs->vb[vb.vertex_buffer_index], n, cmd + i, n);
        }
    }
}

static void vertex_elements(IntelRenderState *rs, const uint32_t *cmd,
                            unsigned len)
{
    const unsigned first = GEN11_3DSTATE_VERTEX_ELEMENTS_ELEMENT_DW;
    const unsigned n = GEN11_VERTEX_ELEMENT_STATE_LENGTH;

    rs->ve_count = MIN((len - first) / n, INTEL_RENDER_VES);
    for (unsigned i = 0; i < rs->ve_count; i++) {
        render_state_take(rs->ve[i], n, cmd + first + i * n, n);
    }
}

uint32_t intel_render_stages(const IntelRenderState *rs)
{
    Gen11_3DSTATE_VS vs;
    Gen11_3DSTATE_HS hs;
    Gen11_3DSTATE_DS ds;
    Gen11_3DSTATE_GS gs;
    Gen11_3DSTATE_TE te;
    Gen11_3DSTATE_STREAMOUT so;

    gen11_3dstate_vs_unpack(rs->vs, GEN11_3DSTATE_VS_LENGTH, &vs);
    gen11_3dstate_hs_unpack(rs->hs, GEN11_3DSTATE_HS_LENGTH, &hs);
    gen11_3dstate_ds_unpack(rs->ds, GEN11_3DSTATE_DS_LENGTH, &ds);
    gen11_3dstate_gs_unpack(rs->gs, GEN11_3DSTATE_GS_LENGTH, &gs);
    gen11_3dstate_te_unpack(rs->te, GEN11_3DSTATE_TE_LENGTH, &te);
    gen11_3dstate_streamout_unpack(rs->so, GEN11_3DSTATE_STREAMOUT_LENGTH,
                                   &so);
    return (vs.enable ? INTEL_RENDER_STAGE_VS : 0) |
           (hs.enable ? INTEL_RENDER_STAGE_HS : 0) |
           (ds.enable ? INTEL_RENDER_STAGE_DS : 0) |
           (gs.enable ? INTEL_RENDER_STAGE_GS : 0) |
           (te.te_enable ? INTEL_RENDER_STAGE_TE : 0) |
           (so.so_function_enable ? INTEL_RENDER_STAGE_SO : 0);
}

/* A stage the model does not run: accepted while disabled (logged once). */
static void render_state_stage(IntelEngine *e, uint32_t which, const char *what)
{
    static bool logged;

    if ((intel_render_stages(&e->gfx.render) & which) && !logged) {
        logged = true;
        gpu_host_log(&e->gpu->host, GPU_LOG_UNIMP,
                     "intel-gpu: 3D %s enabled: its draws are skipped",
                     what);
    }
}

int intel_render_state_cmd(IntelEngine *e, const uint32_t *cmd, unsigned len)
{
    IntelRenderState *rs = &e->gfx.render;
    uint32_t hdr = cmd[0] & GFXPIPE_OPCODE_MASK;

    rs->state_gen++;
    if (hdr == GEN11_3DSTATE_VERTEX_BUFFERS_HEADER) {
        vertex_buffers(rs, cmd, len);
        return CS_NEXT;
    }
    if (hdr == GEN11_3DSTATE_VERTEX_ELEMENTS_HEADER) {
        vertex_elements(rs, cmd, len);
        return CS_NEXT;
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(kept); i++) {
        if (kept[i].header == hdr) {
            render_state_take((uint32_t *)((uint8_t *)rs + kept[i].offset),
                              kept[i].dwords, cmd, len);
            if (kept[i].stage) {
                render_state_stage(e, kept[i].stage, kept[i].what);
            }
            return CS_NEXT;
        }
    }
    /*
     * Accepted without effect: URB and push-constant allocation,
     * viewport and clear parameters, depth, stencil and hierarchical
     * depth buffers (no depth test is modelled), the other stages'
     * constants, binding tables and samplers, VF options.
     */
    return CS_NEXT;
}

/* The state's fields in a context image's order (ctx-image.h). */
#define IMAGE_FIELD(member) \
    { offsetof(IntelRenderState, member), \
      sizeof(((IntelRenderState *)0)->member) / 4 },

static const struct {
    uint16_t offset;
    uint16_t dwords;
} image_fields[] = {
    INTEL_RENDER_STATE_FIELDS(IMAGE_FIELD)
};

/* The list names each field from vb to depth_stencil once. */
#define IMAGE_FIELD_ROOM(member) \
    uint32_t member[sizeof(((IntelRenderState *)0)->member) / 4];

typedef struct RenderImageFields {
    INTEL_RENDER_STATE_FIELDS(IMAGE_FIELD_ROOM)
} RenderImageFields;

G_STATIC_ASSERT(sizeof(RenderImageFields) == 4 * INTEL_RENDER_STATE_DWORDS);

void intel_render_context_save(IntelEngine *e, IntelCtxImageRender *p)
{
    const IntelRenderState *rs = &e->gfx.render;
    uint32_t *d = p->state;

    for (unsigned i = 0; i < G_N_ELEMENTS(image_fields); i++) {
        memcpy(d, (const uint8_t *)rs + image_fields[i].offset,
               image_fields[i].dwords * 4);
        d += image_fields[i].dwords;
    }
    p->draw_active = rs->draw_active;
    p->draw_ctx[0] = rs->draw_ctx;
    p->draw_ctx[1] = rs->draw_ctx >> 32;
    p->state_gen = rs->state_gen;
    p->draw_gen = rs->draw_gen;
    p->draw_prim[0] = rs->draw_prim;
    p->draw_prim[1] = rs->draw_prim >> 32;
    p->draw_x = rs->draw_x;
    p->draw_y = rs->draw_y;
    p->thread_id = rs->thread_id;
}

/*
 * render.c bounds what it reads of the state and the draw's position:
 * any value draws safely.  A draw that did not start in this context
 * (its image copied from another's) starts over (render.c).
 */
void intel_render_context_restore(IntelEngine *e,
                                  const IntelCtxImageRender *p)
{
    IntelRenderState *rs = &e->gfx.render;
    const uint32_t *d;

    memset(rs, 0, sizeof(*rs));
    if (!p) {
        return;
    }
    d = p->state;
    for (unsigned i = 0; i < G_N_ELEMENTS(image_fields); i++) {
        memcpy((uint8_t *)rs + image_fields[i].offset, d,
               image_fields[i].dwords * 4);
        d += image_fields[i].dwords;
    }
    if (p->draw_active > 1 || rs->ve_count > INTEL_RENDER_VES) {
        intel_gfx_context_bad(e, "3D state");
        memset(rs, 0, sizeof(*rs));
        return;
    }
    rs->draw_active = p->draw_active;
    rs->draw_ctx = (uint64_t)p->draw_ctx[1] << 32 | p->draw_ctx[0];
    rs->state_gen = p->state_gen;
    rs->draw_gen = p->draw_gen;
    rs->draw_prim = (uint64_t)p->draw_prim[1] << 32 | p->draw_prim[0];
    rs->draw_x = p->draw_x;
    rs->draw_y = p->draw_y;
    rs->thread_id = p->thread_id;
}
