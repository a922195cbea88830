/*
 * intel-gpu 3D pipeline: the 3DSTATE_* commands (PRM Vol 2a: Command
 * Reference: Instructions, each command's page; the field layouts as in
 * Mesa's src/intel/genxml/gen90.xml and gen110.xml).
 *
 * The state is kept as the commands' dwords in IntelRenderState; render.c
 * decodes it when a 3DPRIMITIVE draws.  Stages the model does not run
 * (vertex, hull, domain and geometry shaders, tessellation, stream
 * output) are accepted disabled; enabling one is logged once and its
 * draws are skipped.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "gfx-int.h"

#define OP(op, sub)     GFXPIPE_INSTR(GFXPIPE_3D, (op), (sub))

/* Copy dwords @first.. of @cmd into @dst[@n], zeroing what is missing. */
static void take(uint32_t *dst, unsigned n, const uint32_t *cmd,
                 unsigned len, unsigned first)
{
    for (unsigned i = 0; i < n; i++) {
        dst[i] = first + i < len ? cmd[first + i] : 0;
    }
}

static void vertex_buffers(IntelRenderState *rs, const uint32_t *cmd,
                           unsigned len)
{
    /* Four dwords per buffer (PRM: VERTEX_BUFFER_STATE). */
    for (unsigned i = 1; i + 3 < len; i += 4) {
        unsigned idx = cmd[i] >> 26;
        IntelRenderVb *vb = &rs->vb[MIN(idx, INTEL_RENDER_VBS - 1)];

        if (idx >= INTEL_RENDER_VBS) {
            continue;
        }
        vb->dw1 = cmd[i];
        vb->addr = (cmd[i + 1] | (uint64_t)cmd[i + 2] << 32) &
                   ((1ull << 48) - 1);
        vb->size = cmd[i + 3];
    }
}

static void vertex_elements(IntelRenderState *rs, const uint32_t *cmd,
                            unsigned len)
{
    unsigned n = MIN((len - 1) / 2, INTEL_RENDER_VES);

    rs->ve_count = n;
    for (unsigned i = 0; i < n; i++) {
        rs->ve[i][0] = cmd[1 + 2 * i];
        rs->ve[i][1] = cmd[2 + 2 * i];
    }
}

/* A stage the model does not run: accepted while disabled (logged once). */
static void stage(IntelEngine *e, uint32_t *dst, uint32_t dw, uint32_t bit,
                  const char *name)
{
    static bool logged;

    *dst = dw & bit;
    if (*dst && !logged) {
        logged = true;
        gpu_host_log(&e->gpu->host, GPU_LOG_UNIMP,
                     "intel-gpu: 3D %s enabled: its draws are skipped\n",
                     name);
    }
}

int intel_render_state_cmd(IntelEngine *e, const uint32_t *cmd, unsigned len)
{
    IntelRenderState *rs = &e->gfx.render;
    uint32_t dw1 = len > 1 ? cmd[1] : 0;

    rs->state_gen++;
    switch (cmd[0] & GFXPIPE_OPCODE_MASK) {
    case OP(0, 0x08):
        vertex_buffers(rs, cmd, len);
        break;
    case OP(0, 0x09):
        vertex_elements(rs, cmd, len);
        break;
    case OP(0, 0x4b):
        rs->topology = dw1 & 0x3f;
        break;
    case OP(0, 0x10):                   /* 3DSTATE_VS: Function Enable */
        stage(e, &rs->vs, len > 7 ? cmd[7] : 0, 1u << 0, "vertex shader");
        break;
    case OP(0, 0x1b):                   /* 3DSTATE_HS: Enable */
        stage(e, &rs->hs, len > 2 ? cmd[2] : 0, 1u << 31, "hull shader");
        break;
    case OP(0, 0x1d):                   /* 3DSTATE_DS: Function Enable */
        stage(e, &rs->ds, len > 7 ? cmd[7] : 0, 1u << 0, "domain shader");
        break;
    case OP(0, 0x11):                   /* 3DSTATE_GS: Function Enable */
        stage(e, &rs->gs, len > 7 ? cmd[7] : 0, 1u << 0, "geometry shader");
        break;
    case OP(0, 0x1c):                   /* 3DSTATE_TE: TE Enable */
        stage(e, &rs->te, dw1, 1u << 0, "tessellation");
        break;
    case OP(0, 0x1e):                   /* 3DSTATE_STREAMOUT: SO Enable */
        stage(e, &rs->so, dw1, 1u << 31, "stream output");
        break;
    case OP(0, 0x12):
        take(rs->clip, 3, cmd, len, 1);
        break;
    case OP(0, 0x13):
        take(rs->sf, 3, cmd, len, 1);
        break;
    case OP(0, 0x50):
        rs->raster = dw1;
        break;
    case OP(0, 0x1f):
        take(rs->sbe, 5, cmd, len, 1);
        break;
    case OP(0, 0x51):
        take(rs->sbe_swiz, 8, cmd, len, 1);
        break;
    case OP(0, 0x14):
        rs->wm = dw1;
        break;
    case OP(0, 0x20):
        take(rs->ps, 11, cmd, len, 1);
        break;
    case OP(0, 0x4f):
        rs->ps_extra = dw1;
        break;
    case OP(0, 0x4d):
        rs->ps_blend = dw1;
        break;
    case OP(0, 0x17):
        take(rs->constant_ps, 10, cmd, len, 1);
        break;
    case OP(0, 0x24):                   /* pointer 31:6, valid bit 0 */
        rs->blend_state = dw1 & ~0x3fu;
        break;
    case OP(0, 0x0e):
        rs->cc_state = dw1 & ~0x3fu;
        break;
    case OP(0, 0x23):
        rs->cc_viewport = dw1 & ~0x1fu;
        break;
    case OP(0, 0x21):
        rs->sf_clip_viewport = dw1 & ~0x3fu;
        break;
    case OP(0, 0x0f):
        rs->scissor = dw1 & ~0x1fu;
        break;
    case OP(0, 0x2a):
        rs->binding_table_ps = dw1 & 0xffe0u;
        break;
    case OP(0, 0x2f):
        rs->sampler_state_ps = dw1 & ~0x1fu;
        break;
    case OP(1, 0x00):
        take(rs->drawing_rect, 3, cmd, len, 1);
        break;
    case OP(0, 0x0d):
        rs->multisample = dw1;
        break;
    case OP(0, 0x18):
        rs->sample_mask = dw1;
        break;
    case OP(0, 0x4e):
        rs->depth_stencil = dw1;
        break;
    default:
        /*
         * Accepted without effect: URB and push-constant allocation,
         * viewport and clear parameters, depth, stencil and hierarchical
         * depth buffers (no depth test is modelled), the other stages'
         * constants, binding tables and samplers, VF options.
         */
        break;
    }
    return CS_NEXT;
}
