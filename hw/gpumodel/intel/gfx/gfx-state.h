/*
 * intel-gpu render engine: the pipeline state the render command streamer
 * keeps between commands (PRM Vol 2a: Command Reference: Instructions,
 * "STATE_BASE_ADDRESS", "PIPELINE_SELECT", "STATE_SIP"), shared by the 3D
 * pipeline (render.c, its state in render-state.h) and the GPGPU and
 * media pipelines (media.c, media-state.h).  Data only: IntelEngine
 * embeds it; gfx-int.h has the functions.  It is the running context's:
 * a context switch saves it in the context image and loads the next
 * context's (ctx-image.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_GFX_STATE_H
#define HW_GPUMODEL_INTEL_GFX_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include "render-state.h"
#include "media-state.h"

/*
 * A STATE_BASE_ADDRESS base (or the binding table pool's) and its buffer
 * size (bytes; 0: none given).
 */
typedef struct IntelGfxBase {
    uint64_t addr;
    uint32_t size;
} IntelGfxBase;

enum {
    INTEL_GFX_GENERAL,
    INTEL_GFX_SURFACE,
    INTEL_GFX_DYNAMIC,
    INTEL_GFX_INDIRECT,
    INTEL_GFX_INSTRUCTION,
    INTEL_GFX_BINDLESS_SURFACE,
    INTEL_GFX_BINDLESS_SAMPLER,
    INTEL_GFX_BINDING_TABLE_POOL,       /* 3DSTATE_BINDING_TABLE_POOL_ALLOC */
    INTEL_GFX_BASES
};

typedef struct IntelGfxState {
    uint32_t pipeline;                  /* PIPELINE_SELECT_3D/MEDIA/GPGPU */
    IntelGfxBase base[INTEL_GFX_BASES];
    /* Binding tables from the pool's base (else the surface state's). */
    bool bt_pool_enable;
    uint64_t sip;                       /* STATE_SIP: the system routine */
    /* The last EU fault logged, and how often it repeated since (the
     * log's state: not migrated). */
    const char *fault_why;
    uint32_t fault_ip;
    uint64_t fault_repeats;
    IntelRenderState render;
    IntelMediaState media;
} IntelGfxState;

#endif
