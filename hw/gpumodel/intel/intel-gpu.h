/*
 * intel-gpu model: a Gen11 "Ice Lake" GT, host-neutral (see ../host.h).
 *
 * The model's interface to its host glue (intel-gpu-pci.c): configuration,
 * life cycle, register and aperture access, and the fault drills.  The
 * blocks' state and their calls to each other are in intel-gpu-int.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_INTEL_GPU_H
#define HW_GPUMODEL_INTEL_INTEL_GPU_H

#include <glib.h>
#include "../host.h"
#include "hw/gpumodel/intel-gpu-regs.h"

/* What a QEMU user can choose; validated by intel_gpu_config_check(). */
typedef struct IntelGpuConfig {
    uint16_t device_id;
    uint8_t slices;
    uint8_t subslices;          /* per slice */
    uint8_t eus_per_subslice;
    uint8_t vdbox_mask;         /* enabled video decode engines */
    uint8_t vebox_mask;         /* enabled video enhancement engines */
    uint32_t stolen_mb;         /* data stolen memory, GMS encoding */
} IntelGpuConfig;

/* Command streamers, in GDRST/engine-table order. */
typedef enum IntelEngineId {
    INTEL_RCS0,
    INTEL_BCS0,
    INTEL_VCS0,
    INTEL_VCS1,
    INTEL_VCS2,
    INTEL_VCS3,
    INTEL_VECS0,
    INTEL_VECS1,
    INTEL_ENGINE_COUNT
} IntelEngineId;

/* Model events for the host's trace (gpu_host_trace). */
typedef enum IntelTraceEvent {
    INTEL_TRACE_ENGINE_KICK,        /* engine, state */
    INTEL_TRACE_ENGINE_SLICE,       /* engine, commands, modelled ns */
    INTEL_TRACE_ENGINE_ERROR,       /* engine, error bits, ACTHD */
    INTEL_TRACE_EXECLIST_LOAD,      /* engine, element 0, element 1 */
    INTEL_TRACE_CONTEXT_STATUS,     /* engine, CSB entry, slot */
    INTEL_TRACE_OA_SAMPLING,        /* on, period ns, OATAILPTR */
    INTEL_TRACE_GT_FREQUENCY,       /* MHz, requested ratio, GT clocks */
    INTEL_TRACE_OA_DRILL,           /* IntelOaDrillEvent, value, OATAILPTR */
    INTEL_TRACE_RC6,                /* idle, RC6 entry ns, residency ticks */
    /* A command refused in a non-privileged batch (the PRM's NOOP). */
    INTEL_TRACE_PRIVILEGE,          /* engine, header, register or address */
    /* MEDIA_VFE_STATE's scratch and stack. */
    INTEL_TRACE_MEDIA_VFE,          /* scratch base, scratch size, stack size */
    /* Text events (gpu_host_trace_text). */
    INTEL_TRACE_EU_INST,            /* IP, active channels; disassembly */
} IntelTraceEvent;

/* What INTEL_TRACE_OA_DRILL reports. */
typedef enum IntelOaDrillEvent {
    INTEL_OA_DRILL_STALL_END,       /* value: bytes published at once */
    INTEL_OA_DRILL_OVERFLOW,        /* value: forced overflows left */
} IntelOaDrillEvent;

typedef struct IntelGpu IntelGpu;

/* Fault drill on an engine's next context-status entry (execlists.c). */
typedef enum IntelCsbDrill {
    INTEL_CSB_DRILL_NONE,
    INTEL_CSB_DRILL_DROP,       /* not written; no pointer move, interrupt */
    INTEL_CSB_DRILL_CORRUPT,    /* written with the event's kind reversed */
} IntelCsbDrill;

/* intel-gpu.c: life cycle */
bool intel_gpu_config_check(const IntelGpuConfig *cfg, char **err);
IntelGpu *intel_gpu_new(const IntelGpuConfig *cfg, const GpuHost *host);
void intel_gpu_free(IntelGpu *gpu);
void intel_gpu_reset(IntelGpu *gpu);
bool intel_gpu_post_load(IntelGpu *gpu, char **err);
uint16_t intel_gpu_ggc(const IntelGpuConfig *cfg);

/* mmio.c: the register file (GTTMMADR's first 2 MiB) */
uint32_t intel_mmio_read(IntelGpu *gpu, uint32_t offset);
void intel_mmio_write(IntelGpu *gpu, uint32_t offset, uint32_t val,
                      uint32_t byte_mask);
char *intel_mmio_unmodelled_list(IntelGpu *gpu);
uint32_t intel_mmio_unmodelled_count(IntelGpu *gpu);

/* ggtt.c: the GGTT's PTEs and the aperture (GMADR) */
uint64_t intel_ggtt_read_pte(IntelGpu *gpu, uint32_t index);
void intel_ggtt_write_pte(IntelGpu *gpu, uint32_t index, uint64_t pte);
int intel_aperture_rw(IntelGpu *gpu, uint64_t offset, void *buf,
                      size_t len, bool write);

/* irq.c: interrupts injected and delayed by the host */
bool intel_irq_raise(IntelGpu *gpu, unsigned klass, unsigned instance,
                     uint16_t bits);
bool intel_irq_drill(IntelGpu *gpu, unsigned klass, unsigned instance,
                     uint32_t count, uint64_t delay_ns);

/* engines.c, oa/oa.c: fault drills */
bool intel_engine_drill_hang(IntelGpu *gpu, unsigned klass,
                             unsigned instance);
bool intel_engine_drill_csb(IntelGpu *gpu, unsigned klass, unsigned instance,
                            IntelCsbDrill action);
bool intel_engine_drill_dma(IntelGpu *gpu, unsigned klass, unsigned instance,
                            uint32_t writes);
void intel_oa_drill_tail_stall(IntelGpu *gpu, bool on, uint64_t duration_ns);
void intel_oa_drill_overflow(IntelGpu *gpu, uint32_t count);

#endif
