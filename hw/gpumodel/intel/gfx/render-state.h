/*
 * intel-gpu 3D pipeline state (render-state.c, render.c): what the
 * 3DSTATE_* commands leave for 3DPRIMITIVE, and where a draw that spans
 * command-streamer steps stands.  Data only; embedded in IntelGfxState.
 *
 * Most state is kept as the command's dwords (PRM Vol 2a: Command
 * Reference: Instructions, the 3DSTATE_* pages name the fields), decoded
 * when a 3DPRIMITIVE uses it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_RENDER_STATE_H
#define HW_GPUMODEL_INTEL_RENDER_STATE_H

#include <stdbool.h>
#include <stdint.h>

#define INTEL_RENDER_VBS        33      /* vertex buffers 0-32 */
#define INTEL_RENDER_VES        34      /* vertex elements */
#define INTEL_RENDER_ATTRS      32      /* SF output attributes */

/* 3DSTATE_VERTEX_BUFFERS, one buffer. */
typedef struct IntelRenderVb {
    uint64_t addr;
    uint32_t size;                      /* bytes */
    uint32_t dw1;                       /* pitch 11:0, null VB bit 13 */
} IntelRenderVb;

typedef struct IntelRenderState {
    IntelRenderVb vb[INTEL_RENDER_VBS];
    uint32_t ve[INTEL_RENDER_VES][2];   /* VERTEX_ELEMENT_STATE */
    uint32_t ve_count;
    uint32_t topology;                  /* 3DSTATE_VF_TOPOLOGY */
    uint32_t vs, hs, ds, gs, te, so;    /* each stage's enable dword */
    uint32_t clip[3];                   /* 3DSTATE_CLIP dw1-3 */
    uint32_t sf[3];                     /* 3DSTATE_SF dw1-3 */
    uint32_t raster;                    /* 3DSTATE_RASTER dw1 */
    uint32_t sbe[5];                    /* 3DSTATE_SBE dw1-5 */
    uint32_t sbe_swiz[8];               /* 3DSTATE_SBE_SWIZ dw1-8 */
    uint32_t wm;                        /* 3DSTATE_WM dw1 */
    uint32_t ps[11];                    /* 3DSTATE_PS dw1-11 */
    uint32_t ps_extra;                  /* 3DSTATE_PS_EXTRA dw1 */
    uint32_t ps_blend;                  /* 3DSTATE_PS_BLEND dw1 */
    uint32_t constant_ps[10];           /* 3DSTATE_CONSTANT_PS dw1-10 */
    uint32_t blend_state;               /* pointers (dynamic state) */
    uint32_t cc_state;
    uint32_t cc_viewport;
    uint32_t sf_clip_viewport;
    uint32_t scissor;
    uint32_t binding_table_ps;          /* surface state offset */
    uint32_t sampler_state_ps;          /* dynamic state offset */
    uint32_t drawing_rect[3];           /* min, max, origin */
    uint32_t multisample;               /* 3DSTATE_MULTISAMPLE dw1 */
    uint32_t sample_mask;
    uint32_t depth_stencil;             /* 3DSTATE_WM_DEPTH_STENCIL dw1 */

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

#endif
