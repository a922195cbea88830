/*
 * intel-gpu GPGPU and media pipeline state (media.c): what MEDIA_VFE_STATE,
 * MEDIA_INTERFACE_DESCRIPTOR_LOAD and MEDIA_CURBE_LOAD leave for the
 * walkers, and the dispatch in progress.  Data only; embedded in
 * IntelGfxState.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_MEDIA_STATE_H
#define HW_GPUMODEL_INTEL_MEDIA_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include "../eu/eu-exec.h"
#include "hw/gpumodel/intel/gen11-state.h"

/* INTERFACE_DESCRIPTOR_DATA: 8 dwords; an Interface Descriptor Offset
 * (6 bits) selects one of 64. */
#define INTEL_MEDIA_IDDS        64
#define INTEL_MEDIA_IDD_DWORDS  GEN11_INTERFACE_DESCRIPTOR_DATA_LENGTH
/*
 * The CURBE bytes the model keeps: more than a thread's 128 registers
 * can take, even with per-thread data for a few threads of a group.
 */
#define INTEL_MEDIA_CURBE_MAX   (16u * 1024)
/* MEDIA_OBJECT inline data the payload registers after R0 can take. */
#define INTEL_MEDIA_INLINE_MAX  ((EU_GRF_COUNT - 1) * EU_GRF_BYTES / 4)

/* Shared local memory of a thread group: at most 64 KiB (encoding 7). */
#define INTEL_MEDIA_SLM_MAX     (64u * 1024)

/*
 * A thread group with barriers runs all its threads at once: at most 64
 * (INTERFACE_DESCRIPTOR_DATA's Number of Threads in GPGPU Thread Group).
 */
#define INTEL_MEDIA_GROUP_MAX   64

/* GPGPU_WALKER's Indirect Data Length: 17 bits of bytes. */
#define INTEL_MEDIA_INDIRECT_MAX ((1u << 17) - 1)

/* What the dispatch in progress is. */
enum {
    INTEL_MEDIA_IDLE,
    INTEL_MEDIA_GPGPU_WALKER,
    INTEL_MEDIA_OBJECT,
};

/*
 * A dispatch that spans steps: the walker's parameters, the position of
 * the next thread and, if one is, the thread running (its registers; the
 * kernel is fetched again from the instruction base at each step).
 */
typedef struct IntelMediaDispatch {
    uint32_t kind;              /* INTEL_MEDIA_* */
    uint32_t idd;               /* interface descriptor index */
    uint32_t simd;              /* 8, 16, 32 channels */
    uint32_t tw, th, td;        /* threads per group in x, y, z */
    uint32_t x0, xdim, y0, ydim, zdim;
    uint32_t right_mask, bottom_mask;
    uint32_t x, y, z;           /* the group of the next thread */
    uint32_t tid;               /* its thread in the group */
    /*
     * GPGPU_WALKER's indirect data (offset from the indirect object base,
     * bytes; length 0: none, the payload comes from the CURBE).
     */
    uint32_t indirect_start, indirect_len;
    bool running;               /* thread (or group) is mid-run */
    /*
     * A thread group with barriers mid-run (IntelMediaState.group): the
     * threads not ended (a bit each), the one to run next, the barrier
     * messages counted toward the group's next meeting.  @stuck: no
     * thread of it can run again (logged): the walker hangs, as on the
     * hardware, until an engine reset.
     */
    uint64_t live;
    uint32_t cur;
    uint32_t arrived;
    bool stuck;
    EuThread thread;
} IntelMediaDispatch;

typedef struct IntelMediaState {
    /* MEDIA_VFE_STATE */
    uint64_t scratch;           /* Scratch Space Base Pointer */
    uint32_t scratch_size;      /* Per Thread Scratch Space: 1 KiB << n */
    uint32_t max_threads;
    uint32_t urb_entries, urb_entry_size;   /* entries, 256-bit units */
    uint32_t curbe_size;        /* CURBE allocation, 256-bit units */
    /* MEDIA_INTERFACE_DESCRIPTOR_LOAD */
    uint32_t idd_count;         /* 0: none loaded */
    uint32_t idd[INTEL_MEDIA_IDDS][INTEL_MEDIA_IDD_DWORDS];
    /* MEDIA_CURBE_LOAD */
    uint32_t curbe_len;         /* bytes */
    uint8_t curbe[INTEL_MEDIA_CURBE_MAX];
    IntelMediaDispatch run;
    /* The running thread group's shared local memory (run's descriptor's
     * size of it in use). */
    uint8_t slm[INTEL_MEDIA_SLM_MAX];
    /*
     * The threads of a group with barriers, INTEL_MEDIA_GROUP_MAX of them
     * allocated at the first such group and kept (reset and context
     * switches keep the allocation); @group_n of them in use while a
     * group runs, else 0.
     */
    EuThread *group;
    int32_t group_n;
    uint32_t unimp_logged;      /* LOG_UNIMP once per kind (not migrated) */
} IntelMediaState;

#endif
