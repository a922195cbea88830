/*
 * intel-gpu render engine pipelines, private to their files: the GFXPIPE
 * command handlers and what the pipelines share.
 *
 *   gfx.c      routing of GFXPIPE commands, STATE_BASE_ADDRESS,
 *              PIPELINE_SELECT, STATE_SIP; kernels and EU threads
 *   render.c   the 3D pipeline: 3DPRIMITIVE (render-state.c: 3DSTATE_*)
 *   media.c    the GPGPU and media pipelines: MEDIA_*, GPGPU_WALKER
 *              (media-image.c: their state in the context image)
 *   sf*.c      the shared functions the threads send to (sf.h)
 *
 * A command whose threads do not all run in one step (3DPRIMITIVE, a
 * walker) returns CS_CONTINUE: the command streamer calls it again at its
 * next step, and the pipeline resumes from the dispatch state it keeps in
 * IntelGfxState.  Each call runs at most about INTEL_GFX_STEP_INSTRUCTIONS
 * EU instructions, so a huge or endless dispatch never holds the host's
 * main loop; it keeps the engine busy until it ends or i915 resets it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_GFX_INT_H
#define HW_GPUMODEL_INTEL_GFX_INT_H

#include "../intel-gpu-int.h"
#include "hw/gpumodel/intel-gpu-cmds.h"
#include "../eu/eu-exec.h"
#include "../sf/sf.h"
#include "hw/gpumodel/intel/gen11-state.h"

/* EU instructions one call of a dispatching command may run. */
#define INTEL_GFX_STEP_INSTRUCTIONS (1u << 16)
/*
 * The most of a kernel fetched from the instruction base (bytes), for each
 * draw or each step of a dispatch: a shader, and a compute kernel, which
 * can be longer (IGC's unrolled float8 cos is about 74 KiB).
 */
#define INTEL_GFX_KERNEL_MAX        (64u * 1024)
#define INTEL_GFX_COMPUTE_KERNEL_MAX (1u << 20)

/* gfx.c */
int intel_gfx_skip(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                   unsigned len);
/* A value of the context image that is out of range: logged. */
void intel_gfx_context_bad(IntelEngine *e, const char *what);

/* A graphics address as the engines translate it: its low 48 bits. */
static inline uint64_t intel_gfx_va(uint64_t addr)
{
    return addr & ((1ull << 48) - 1);
}

/* The graphics address @offset bytes from STATE_BASE_ADDRESS base @which. */
static inline uint64_t intel_gfx_addr(IntelEngine *e, unsigned which,
                                      uint64_t offset)
{
    return intel_gfx_va(e->gfx.base[which].addr + offset);
}

/* Read @len bytes of state at @offset from base @which; false if faulted. */
bool intel_gfx_read(IntelEngine *e, unsigned which, uint64_t offset,
                    void *buf, size_t len);

/* A kernel: its bytes from the instruction base, fetched once. */
typedef struct IntelGfxKernel {
    uint64_t ksp;               /* offset from the instruction base */
    uint8_t *code;
    size_t size;                /* up to the first unmapped page */
} IntelGfxKernel;

bool intel_gfx_kernel_load(IntelEngine *e, uint64_t ksp, size_t max,
                           IntelGfxKernel *k);
void intel_gfx_kernel_free(IntelGfxKernel *k);

/* The parts of a thread's IntelSfThread that come from the engine. */
void intel_gfx_sf_thread_init(IntelEngine *e, IntelSfThread *th,
                              uint32_t binding_table, uint32_t sampler_state,
                              unsigned simd, IntelSfStats *stats);

/*
 * Run @t for at most @max_instructions; its EU work counts for @ffid.
 * A fault is logged and ends the thread (EU_FAULT).
 */
EuStatus intel_gfx_thread_run(IntelEngine *e, EuThread *t, IntelEuFfid ffid,
                              uint64_t max_instructions);

/* render.c */
int intel_render_cmd(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                     unsigned len);
void intel_render_reset(IntelEngine *e);
/* render-state.c: a 3DSTATE_* command (len >= 1). */
int intel_render_state_cmd(IntelEngine *e, const uint32_t *cmd, unsigned len);
/* The 3D state in a context image, or (@p NULL) the reset state. */
void intel_render_context_save(IntelEngine *e, IntelCtxImageRender *p);
void intel_render_context_restore(IntelEngine *e,
                                  const IntelCtxImageRender *p);
/* The stages before the rasterizer the 3D state enables. */
enum {
    INTEL_RENDER_STAGE_VS = 1u << 0,
    INTEL_RENDER_STAGE_HS = 1u << 1,
    INTEL_RENDER_STAGE_DS = 1u << 2,
    INTEL_RENDER_STAGE_GS = 1u << 3,
    INTEL_RENDER_STAGE_TE = 1u << 4,
    INTEL_RENDER_STAGE_SO = 1u << 5,
};
uint32_t intel_render_stages(const IntelRenderState *rs);

/* media.c */
int intel_media_cmd(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                    unsigned len);
void intel_media_reset(IntelEngine *e);
/* Free what the pipelines allocated (the engine goes). */
void intel_media_fini(IntelEngine *e);

/* media-image.c */
bool intel_media_post_load(IntelEngine *e, char **err);
/* The media state and CURBE in a context image, or the reset state. */
void intel_media_context_save(IntelEngine *e, IntelCtxImage *img);
void intel_media_context_restore(IntelEngine *e, const IntelCtxImage *img);

#endif
