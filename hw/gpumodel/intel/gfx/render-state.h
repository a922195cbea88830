/*
 * intel-gpu 3D pipeline state (render-state.c, render.c): what the
 * 3DSTATE_* commands leave for 3DPRIMITIVE, and where a draw that spans
 * command-streamer steps stands.  Data only; embedded in IntelGfxState.
 *
 * State is kept as the commands' dwords, dword 0 on, as long as the
 * command is (zeros past the end of a shorter one), and as the dwords
 * of the vertex buffers and elements; render.c unpacks it
 * (gen11-state.h, the PRM's 3DSTATE_* and structure pages name the
 * fields) once per command-streamer step of a draw.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_RENDER_STATE_H
#define HW_GPUMODEL_INTEL_RENDER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw/gpumodel/intel/gen11-state.h"

#define INTEL_RENDER_VBS        33      /* vertex buffers 0-32 */
#define INTEL_RENDER_VES        34      /* vertex elements */
#define INTEL_RENDER_ATTRS      32      /* SF output attributes */

typedef struct IntelRenderState {
    /* 3DSTATE_VERTEX_BUFFERS: VERTEX_BUFFER_STATE by buffer index. */
    uint32_t vb[INTEL_RENDER_VBS][GEN11_VERTEX_BUFFER_STATE_LENGTH];
    /* 3DSTATE_VERTEX_ELEMENTS: @ve_count VERTEX_ELEMENT_STATEs. */
    uint32_t ve[INTEL_RENDER_VES][GEN11_VERTEX_ELEMENT_STATE_LENGTH];
    uint32_t ve_count;
    /* The 3DSTATE commands, each the last one received. */
    uint32_t vf_topology[GEN11_3DSTATE_VF_TOPOLOGY_LENGTH];
    uint32_t vs[GEN11_3DSTATE_VS_LENGTH];
    uint32_t hs[GEN11_3DSTATE_HS_LENGTH];
    uint32_t ds[GEN11_3DSTATE_DS_LENGTH];
    uint32_t gs[GEN11_3DSTATE_GS_LENGTH];
    uint32_t te[GEN11_3DSTATE_TE_LENGTH];
    uint32_t so[GEN11_3DSTATE_STREAMOUT_LENGTH];
    uint32_t clip[GEN11_3DSTATE_CLIP_LENGTH];
    uint32_t sf[GEN11_3DSTATE_SF_LENGTH];
    uint32_t raster[GEN11_3DSTATE_RASTER_LENGTH];
    uint32_t sbe[GEN11_3DSTATE_SBE_LENGTH];
    uint32_t sbe_swiz[GEN11_3DSTATE_SBE_SWIZ_LENGTH];
    uint32_t wm[GEN11_3DSTATE_WM_LENGTH];
    uint32_t ps[GEN11_3DSTATE_PS_LENGTH];
    uint32_t ps_extra[GEN11_3DSTATE_PS_EXTRA_LENGTH];
    uint32_t ps_blend[GEN11_3DSTATE_PS_BLEND_LENGTH];
    uint32_t constant_ps[GEN11_3DSTATE_CONSTANT_PS_LENGTH];
    /* The state pointers (dynamic state; the binding table: surface). */
    uint32_t blend_state[GEN11_3DSTATE_BLEND_STATE_POINTERS_LENGTH];
    uint32_t cc_state[GEN11_3DSTATE_CC_STATE_POINTERS_LENGTH];
    uint32_t vp_cc[GEN11_3DSTATE_VIEWPORT_STATE_POINTERS_CC_LENGTH];
    uint32_t vp_sf_clip[GEN11_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP_LENGTH];
    uint32_t scissor[GEN11_3DSTATE_SCISSOR_STATE_POINTERS_LENGTH];
    uint32_t binding_table_ps[GEN11_3DSTATE_BINDING_TABLE_POINTERS_PS_LENGTH];
    uint32_t sampler_state_ps[GEN11_3DSTATE_SAMPLER_STATE_POINTERS_PS_LENGTH];
    uint32_t drawing_rect[GEN11_3DSTATE_DRAWING_RECTANGLE_LENGTH];
    uint32_t multisample[GEN11_3DSTATE_MULTISAMPLE_LENGTH];
    uint32_t sample_mask[GEN11_3DSTATE_SAMPLE_MASK_LENGTH];
    uint32_t depth_stencil[GEN11_3DSTATE_WM_DEPTH_STENCIL_LENGTH];

    /*
     * The draw in progress (3DPRIMITIVE returned CS_CONTINUE): its
     * rectangle @prim, the next subspan row and column in it; the context
     * (LRCA, 0 in ring mode) and state generation it started with.
     * @state_gen counts the 3DSTATE commands.
     */
    bool draw_active;
    uint64_t draw_ctx;
    uint32_t state_gen, draw_gen;
    uint64_t draw_prim;
    uint32_t draw_x, draw_y;
    uint32_t thread_id;                 /* R0.6 of the next PS thread */
} IntelRenderState;

/*
 * The state the commands left, in IntelRenderState's order: every field
 * above the draw in progress, each uint32_t or an array of them (what a
 * context image keeps, ctx-image.h).
 */
#define INTEL_RENDER_STATE_FIELDS(X) \
    X(vb) X(ve) X(ve_count) X(vf_topology) X(vs) X(hs) X(ds) X(gs) X(te) \
    X(so) X(clip) X(sf) X(raster) X(sbe) X(sbe_swiz) X(wm) X(ps) \
    X(ps_extra) X(ps_blend) X(constant_ps) X(blend_state) X(cc_state) \
    X(vp_cc) X(vp_sf_clip) X(scissor) X(binding_table_ps) \
    X(sampler_state_ps) X(drawing_rect) X(multisample) X(sample_mask) \
    X(depth_stencil)

/* The dwords of those fields: vb to depth_stencil. */
#define INTEL_RENDER_STATE_DWORDS \
    ((offsetof(IntelRenderState, depth_stencil) + \
      sizeof(((IntelRenderState *)0)->depth_stencil) - \
      offsetof(IntelRenderState, vb)) / 4)

#endif
