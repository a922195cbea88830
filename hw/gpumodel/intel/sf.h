/*
 * intel-gpu shared functions: what an EU thread's SEND reaches (PRM Vol 7:
 * 3D-Media-GPGPU, "Shared Functions", "Sampler", "Data Port"; the message
 * descriptors in PRM Vol 2d: Command Reference: Structures).
 *
 * The pipelines (media.c: GPGPU and media; render.c: 3D) dispatch EU
 * threads and give each an IntelSfThread saying where its surfaces,
 * samplers and memory are.  intel_sf_send() is the threads' EuSendFn: it
 * routes a message by SFID to the sampler (sf-sampler.c) or a data port
 * (sf-dataport.c); surface.c decodes surface and sampler states and
 * addresses texels through tiling.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_SF_H
#define HW_GPUMODEL_INTEL_SF_H

#include "intel-gpu-int.h"
#include "eu-exec.h"
#include "tiling.h"

/*
 * A RENDER_SURFACE_STATE as the shared functions use it (PRM Vol 2d:
 * Command Reference: Structures, "RENDER_SURFACE_STATE").
 */
typedef struct IntelSurface {
    uint64_t base;          /* graphics address (the context's PPGTT) */
    uint32_t type;          /* SURFTYPE_* (bits 31:29 of dword 0) */
    uint32_t format;        /* SURFACE_FORMAT (dword 0, bits 26:18) */
    uint32_t width, height; /* in elements (the fields + 1) */
    uint32_t depth;
    uint32_t pitch;         /* bytes (the field + 1) */
    uint32_t cpp;           /* bytes per element, 0 if the format is not
                             * one the model knows */
    IntelTiling tiling;
} IntelSurface;

/*
 * A SAMPLER_STATE as the sampler uses it (PRM Vol 2d, "SAMPLER_STATE"):
 * the filters and the address control modes.
 */
typedef struct IntelSamplerState {
    uint8_t min_filter, mag_filter;     /* MAPFILTER_* */
    uint8_t wrap[3];                    /* TCX/TCY/TCZ address control */
} IntelSamplerState;

/* Shared-function work, for the OA and EU counters. */
typedef struct IntelSfStats {
    uint64_t sampler_messages;
    uint64_t sampler_texels;            /* texels returned */
    uint64_t dataport_reads;            /* messages */
    uint64_t dataport_writes;           /* messages */
    uint64_t rt_writes;                 /* render target write messages */
    uint64_t rt_pixels;                 /* pixels written by them */
} IntelSfStats;

/*
 * A dispatched thread's view of the shared functions.  The pipeline fills
 * it before the thread runs; the shared functions only read it (and add
 * to *stats).
 */
typedef struct IntelSfThread {
    IntelEngine *e;             /* memory through the engine's context VM */
    bool ppgtt;                 /* surfaces in the PPGTT (else the GGTT) */
    uint64_t surface_state_base;    /* STATE_BASE_ADDRESS */
    uint64_t dynamic_state_base;
    uint32_t binding_table;     /* offset from surface_state_base */
    uint32_t sampler_state;     /* offset from dynamic_state_base */
    uint32_t simd;              /* the thread's dispatch width: 8/16/32 */

    /*
     * Pixel shaders: the pixel each channel stands for and which ones are
     * lit, for header-less render target writes (PRM Vol 7, "Render
     * Target Write": the pixel positions come from the dispatch).
     */
    uint32_t pixel_mask;
    uint16_t pixel_x[EU_MAX_CHANNELS], pixel_y[EU_MAX_CHANNELS];

    IntelSfStats *stats;
} IntelSfThread;

/*
 * The EuSendFn of every dispatched thread (@opaque: its IntelSfThread).
 * Returns 0 when the message completed, -1 for a message the model does
 * not implement or a malformed one (logged; the thread faults).  An
 * access outside the surface follows the PRM's out-of-bounds rules (reads
 * return zero, writes are dropped); a page fault goes through the
 * engine's fault path (intel_cs_page_fault()).
 */
int intel_sf_send(EuThread *t, const EuInst *inst, uint32_t desc,
                  uint32_t ex_desc, void *opaque);

/* surface.c */
/*
 * Binding table entry @index of @th, decoded; false (and logged) if the
 * entry or its state cannot be read or is not a surface the model knows.
 */
bool intel_surface_load(const IntelSfThread *th, unsigned index,
                        IntelSurface *s);
/* SAMPLER_STATE @index of @th's sampler state table. */
bool intel_sampler_state_load(const IntelSfThread *th, unsigned index,
                              IntelSamplerState *ss);
/*
 * Read or write @len bytes at byte @x of row @y of @s (a 2D surface),
 * within the surface's bounds; false on a page fault.
 */
bool intel_surface_rw(const IntelSfThread *th, const IntelSurface *s,
                      uint32_t x, uint32_t y, void *buf, unsigned len,
                      bool write);

#endif
