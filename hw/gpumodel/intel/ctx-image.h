/*
 * intel-gpu: the render engine's state in the render context image, the
 * model's part of it (docs/intel-gpu-engines.rst, "Context image").
 * Data only: execlists/ reads and writes it in guest memory at a
 * context switch and saves and restores the registers; gfx/ fills and
 * reads the pipeline parts (intel_gfx_context_save/restore()).
 *
 * Where.  i915 allocates a Gen11 render context of 14 pages
 * (GEN11_LR_CONTEXT_RENDER_SIZE; gt/intel_engine_cs.c
 * intel_engine_context_size(), gt/intel_lrc.c __lrc_alloc_state()) and
 * uses: page 0, the per-process HWSP (it zeroes it, lrc_init_state();
 * dword 0x34 is its flush scratch, LRC_PPHWSP_SCRATCH_ADDR); page 1, the
 * register state (LRC_STATE_OFFSET: gen11_rcs_offsets' LRI list up to
 * dword 0x45, the MI_MODE slot 0x55, RING_BB_OFFSET 0x65, OACTXCONTROL
 * 0x125); and page 2, where i915_perf.c keeps EU_PERF_CNTL0-6 (register
 * state dwords 0x78F-0x79B, ctx_flexeu0_offset).  The model reads the
 * register state's LRI list from pages 1 and 2 (execlists.c).  The
 * hardware keeps the rest of its render context in the pages after; the
 * model's part starts at page 3 and ends within the 14.
 *
 * i915 records its default image once (gt/intel_gt.c
 * __engines_record_defaults(): the whole object after the first
 * context ran) and copies it into every new context (lrc_init_state()),
 * so what the model saves there is every new context's starting state;
 * a zero header (a context that never ran) restores the reset state.
 *
 * In guest memory every field is a little-endian dword, except the CURBE
 * bytes; IntelCtxImage holds them in host order.  The header's length
 * counts the bytes from the header on that hold state: the CURBE's in use
 * end it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_CTX_IMAGE_H
#define HW_GPUMODEL_INTEL_CTX_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <glib.h>
#include "hw/gpumodel/intel-gpu-regs.h"
#include "gfx/gfx-state.h"

#define INTEL_CTX_IMAGE_MAGIC       0x4d555047u     /* "GPUM" */
#define INTEL_CTX_IMAGE_VERSION     4
/* From the LRCA: after the pages i915 uses. */
#define INTEL_CTX_IMAGE_OFFSET      (3 * 4096)

/*
 * The registers: a name, the absolute offset, dwords.  The render
 * context's per-context registers the model has that gen11_rcs_offsets
 * does not list.  OACTXCONTROL is not here: i915_perf.c writes the value
 * it wants each context to load into the register state (dword 0x125:
 * gen8_update_reg_state_unlocked(), gen8_configure_context()), and a copy
 * the model saved would be restored over it.
 */
#define INTEL_CTX_IMAGE_REG_LIST(X) \
    X(bb_offset, INTEL_RCS0_BASE + INTEL_RING_BB_OFFSET, 1) \
    X(gpgpu_threads_dispatched, INTEL_GPGPU_THREADS_DISPATCHED, 2) \
    X(statistics, INTEL_HS_INVOCATION_COUNT, 22) /* to PS_DEPTH_COUNT */ \
    X(set_predicate_result, \
      INTEL_RCS0_BASE + INTEL_RING_SET_PREDICATE_RESULT, 1) \
    X(predicate_result_2, INTEL_RCS0_BASE + INTEL_RING_PREDICATE_RESULT_2, 1) \
    X(predicate_src0, INTEL_RCS0_BASE + INTEL_RING_PREDICATE_SRC0, 2) \
    X(predicate_src1, INTEL_RCS0_BASE + INTEL_RING_PREDICATE_SRC1, 2) \
    X(predicate_data, INTEL_RCS0_BASE + INTEL_RING_PREDICATE_DATA, 2) \
    X(predicate_result, INTEL_RCS0_BASE + INTEL_RING_PREDICATE_RESULT, 1) \
    X(predicate_result_1, INTEL_RCS0_BASE + INTEL_RING_PREDICATE_RESULT_1, \
      1) \
    X(prim_end_offset, INTEL_3DPRIM_END_OFFSET, 1) \
    X(prim_start_vertex, INTEL_3DPRIM_START_VERTEX, 5) /* to BASE_VERTEX */ \
    X(gpgpu_dispatchdim, INTEL_GPGPU_DISPATCHDIMX, 3) \
    X(cs_chicken1, INTEL_CS_CHICKEN1, 1) \
    X(cs_gpr, INTEL_RCS0_BASE + INTEL_RING_CS_GPR(0), 32) \
    X(prim_xp, INTEL_3DPRIM_XP(0), 3) \
    X(so_num_prims_written, INTEL_SO_NUM_PRIMS_WRITTEN(0), 8) \
    X(so_prim_storage_needed, INTEL_SO_PRIM_STORAGE_NEEDED(0), 8) \
    X(so_write_offset, INTEL_SO_WRITE_OFFSET(0), 4) \
    X(l3cntlreg, INTEL_L3CNTLREG, 1) \
    X(gt_mode, INTEL_GT_MODE, 1)

/* The registers' values in the list's order, named. */
#define INTEL_CTX_IMAGE_REG_ROOM(name, offset, dwords) uint32_t name[dwords];

typedef struct IntelCtxImageRegs {
    INTEL_CTX_IMAGE_REG_LIST(INTEL_CTX_IMAGE_REG_ROOM)
} IntelCtxImageRegs;

/* Dwords for them: room for registers a later version adds. */
#define INTEL_CTX_IMAGE_REGS        128

typedef struct IntelCtxImageHeader {
    uint32_t magic;
    uint32_t version;
    uint32_t length;            /* bytes that hold state, header on */
    uint32_t reserved;          /* 0 */
} IntelCtxImageHeader;

/*
 * STATE_BASE_ADDRESS, 3DSTATE_BINDING_TABLE_POOL_ALLOC, PIPELINE_SELECT,
 * STATE_SIP (gfx.c).
 */
typedef struct IntelCtxImageGfx {
    uint32_t pipeline;
    uint32_t bt_pool_enable;            /* 3DSTATE_BINDING_TABLE_POOL_ALLOC */
    uint32_t sip[2];                    /* low, high */
    uint32_t base[INTEL_GFX_BASES][3];  /* address low, high; size */
} IntelCtxImageGfx;

/* The 3D state (render-state.h), the draw in progress included. */
typedef struct IntelCtxImageRender {
    uint32_t state[INTEL_RENDER_STATE_DWORDS];
    uint32_t draw_active;
    uint32_t draw_ctx[2];
    uint32_t state_gen, draw_gen;
    uint32_t draw_prim[2];
    uint32_t draw_x, draw_y;
    uint32_t thread_id;
} IntelCtxImageRender;

/* A walker in progress between thread groups (media-state.h). */
typedef struct IntelCtxImageDispatch {
    uint32_t kind, idd, simd;
    uint32_t tw, th, td;
    uint32_t x0, xdim, y0, ydim, zdim;
    uint32_t right_mask, bottom_mask;
    uint32_t x, y, z, tid;
    uint32_t indirect_start, indirect_len;
} IntelCtxImageDispatch;

/* The GPGPU and media state (media-state.h) but the CURBE's bytes. */
typedef struct IntelCtxImageMedia {
    uint32_t scratch[2];
    uint32_t scratch_size;      /* Per Thread Scratch Space */
    uint32_t max_threads, urb_entries, urb_entry_size, curbe_size;
    uint32_t idd_count;
    uint32_t idd[INTEL_MEDIA_IDDS][INTEL_MEDIA_IDD_DWORDS];
    IntelCtxImageDispatch run;
    uint32_t curbe_len;
} IntelCtxImageMedia;

typedef struct IntelCtxImage {
    IntelCtxImageHeader hdr;
    union {
        IntelCtxImageRegs reg;
        uint32_t regs[INTEL_CTX_IMAGE_REGS];    /* the list's, then 0 */
    };
    IntelCtxImageGfx gfx;
    IntelCtxImageRender render;
    IntelCtxImageMedia media;
    uint8_t curbe[INTEL_MEDIA_CURBE_MAX];   /* media.curbe_len in use */
} IntelCtxImage;

/* The bytes before the CURBE: every valid length has them. */
#define INTEL_CTX_IMAGE_FIXED       offsetof(IntelCtxImage, curbe)

/*
 * Dwords throughout, so no padding (and no packing to ask for): the
 * layout is the fields' order, the offsets below.
 */
G_STATIC_ASSERT(sizeof(IntelCtxImageHeader) == 16);
G_STATIC_ASSERT(offsetof(IntelCtxImage, regs) == 16);
G_STATIC_ASSERT(offsetof(IntelCtxImage, gfx) ==
                16 + 4 * INTEL_CTX_IMAGE_REGS);
G_STATIC_ASSERT(sizeof(IntelCtxImageGfx) == 4 * (4 + 3 * INTEL_GFX_BASES));
G_STATIC_ASSERT(sizeof(IntelCtxImageRender) ==
                4 * (INTEL_RENDER_STATE_DWORDS + 10));
G_STATIC_ASSERT(sizeof(IntelCtxImageDispatch) == 4 * 19);
G_STATIC_ASSERT(sizeof(IntelCtxImageMedia) ==
                4 * (9 + INTEL_MEDIA_IDDS * INTEL_MEDIA_IDD_DWORDS) +
                sizeof(IntelCtxImageDispatch));
G_STATIC_ASSERT(INTEL_CTX_IMAGE_FIXED ==
                sizeof(IntelCtxImageHeader) + 4 * INTEL_CTX_IMAGE_REGS +
                sizeof(IntelCtxImageGfx) + sizeof(IntelCtxImageRender) +
                sizeof(IntelCtxImageMedia));
G_STATIC_ASSERT(INTEL_CTX_IMAGE_FIXED % 4 == 0);
G_STATIC_ASSERT(sizeof(IntelCtxImage) ==
                INTEL_CTX_IMAGE_FIXED + INTEL_MEDIA_CURBE_MAX);
G_STATIC_ASSERT(sizeof(IntelCtxImageRegs) <= 4 * INTEL_CTX_IMAGE_REGS);
/* Within the 14 pages i915 allocates. */
G_STATIC_ASSERT(INTEL_CTX_IMAGE_OFFSET + sizeof(IntelCtxImage) <=
                INTEL_LR_CONTEXT_RENDER_SIZE);

#endif
