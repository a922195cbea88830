/*
 * nv-gpu model: an NVIDIA G84-class card (PMC, PTIMER, PCOUNTER),
 * host-neutral (see ../host.h).
 *
 * The model's interface to its host glue (nv-gpu-pci.c): chipsets,
 * configuration, life cycle, BAR0 access, the synthetic signals and the
 * fault drill.  The blocks' state and their calls to each other are in
 * nv-gpu-int.h.  Facts that differ between chipsets live in NvChipset
 * rows, not in code.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_NVIDIA_NV_GPU_H
#define HW_GPUMODEL_NVIDIA_NV_GPU_H

#include <glib.h>
#include "../host.h"
#include "hw/gpumodel/nv-gpu-regs.h"

typedef struct NvGpu NvGpu;
typedef struct NvRegBlock NvRegBlock;

/* ---- chipsets ---- */

/* PCOUNTER features, by envytools' PCOUNTER revision list. */
enum {
    NV_PC_F_QUAD        = 1u << 0,  /* NV30: quad event mode */
    NV_PC_F_EXTRA_MODES = 1u << 1,  /* NV40: EVENT_B6, EXTRA_* */
    NV_PC_F_RECORD      = 1u << 2,  /* G84: record mode, GCTRL */
    NV_PC_F_SPEC_SRC    = 1u << 3,  /* G84: SWAP input selection */
    NV_PC_F_PERIODIC    = 1u << 4,  /* G84: PERIODIC signals */
    NV_PC_F_PREOP_SWAP  = 1u << 5,  /* G84:GF100: PRE_OP write swaps */
    NV_PC_F_G92_DELAY   = 1u << 6,  /* G92: delayed-source replace bits */
    NV_PC_F_ADDR_HIGH   = 1u << 7,  /* G92: RECORD_ADDRESS_HIGH */
    NV_PC_F_SETFLAG_ARG = 1u << 8,  /* NV30: SETFLAG as EVENT/STOP arg 3 */
    NV_PC_F_WRCACHE     = 1u << 9,  /* G84:GF100: PGRAPH.WRCACHE_FLUSH */
    NV_PC_F_USER        = 1u << 11, /* GT215: USER_TRIGGER */
};

typedef struct NvChipset {
    const char *name;
    uint32_t boot0;
    uint16_t device_id;
    unsigned pc_domains;
    uint32_t pc_features;
    const NvRegBlock *pc_block;     /* the PCOUNTER register layout */
    uint32_t ctrl_wmask;            /* writable CTRL[dom] bits */
    uint32_t op_wmask;              /* writable *_OP bits */
    /* Host domain (0) signal of PTIMER TIME bit 12 (envytools); 0: none */
    uint8_t ptimer_b12_sig;
    /* NV_PC_F_USER: per domain, USER_0's signal; USER_1 is the next */
    uint8_t user_sig[NV_PCOUNTER_DOMAINS];
} NvChipset;

const NvChipset *nv_chipset_find(const char *name);

/* ---- configuration ---- */

typedef struct NvGpuConfig {
    const char *chipset;                    /* "g84" */
    uint64_t domain_hz[NV_PCOUNTER_DOMAINS];/* 0: the chipset default */
    uint64_t ptimer_src_hz;                 /* 0: 27 MHz crystal */
    /* Cycles a record packet occupies a domain's one outgoing slot. */
    uint32_t record_write_cycles;
    /* How often record-mode packets reach memory without MMIO traffic. */
    uint64_t record_flush_ns;
    /* PCOUNTER steps per evaluation (0: NV_PC_STEP_BUDGET), pcounter.c */
    uint32_t pc_step_budget;
    /* VRAM: a power of two, 32 MiB-1 GiB (0: 256 MiB) */
    uint64_t vram_size;
    /* the host's VRAM store of vram_size bytes (NULL: the model's own) */
    uint8_t *vram;
    /* called after the model writes the host's VRAM (migration's dirty
     * tracking); may be NULL */
    void (*vram_written)(void *opaque, uint64_t addr, uint64_t len);
    void *vram_opaque;
} NvGpuConfig;

#define NV_VRAM_DEFAULT     (256ull << 20)
#define NV_VRAM_MIN         (32ull << 20)
#define NV_VRAM_MAX         (1ull << 30)

/* Model events for the host's trace hook (host.h), with their a, b, c. */
typedef enum NvTraceEvent {
    NV_TRACE_RECORD_FAULT,      /* domain, address, drilled */
} NvTraceEvent;

/* Synthetic workload signal: 1 for @high cycles of every 2^@period_log2. */
typedef struct NvSynth {
    uint8_t period_log2;
    uint32_t high;
    uint32_t phase;
} NvSynth;

#define NV_PC_PERIOD_MAX_LOG2 16    /* PERIODIC 0x10000, synth periods */

/* nv-gpu.c: life cycle and BAR0 */
bool nv_gpu_config_check(const NvGpuConfig *cfg, char **err);
NvGpu *nv_gpu_new(const NvGpuConfig *cfg, const GpuHost *host);
void nv_gpu_free(NvGpu *gpu);
void nv_gpu_reset(NvGpu *gpu);
void nv_gpu_pre_save(NvGpu *gpu);
bool nv_gpu_post_load(NvGpu *gpu, char **err);
uint32_t nv_gpu_read(NvGpu *gpu, uint32_t offset);
void nv_gpu_write(NvGpu *gpu, uint32_t offset, uint32_t val);
uint32_t nv_gpu_unmodelled_count(NvGpu *gpu);
const NvChipset *nv_gpu_chipset(NvGpu *gpu);

/* memory/bar.c: CPU accesses (1-8 bytes), BAR1 (VRAM) and BAR3 (RAMIN) */
uint64_t nv_gpu_bar_read(NvGpu *gpu, unsigned bar, uint64_t off,
                         unsigned size);
void nv_gpu_bar_write(NvGpu *gpu, unsigned bar, uint64_t off, uint64_t val,
                      unsigned size);

/*
 * core/vbios.c: the VBIOS image PROM serves, NV_VBIOS_SIZE bytes; its
 * version as nouveau prints it is MAJOR.<chipset>.MINOR.00.00.
 */
#define NV_VBIOS_SIZE           0x10000
#define NV_VBIOS_VERSION_MAJOR  0x60
#define NV_VBIOS_VERSION_MINOR  0x1a
void nv_vbios_build(const NvChipset *chip, uint8_t *buf);

/* pcounter/pcounter.c: synthetic workload signals, record fault drill */
bool nv_pcounter_set_synth(NvGpu *gpu, unsigned dom, unsigned n,
                           unsigned period_log2, uint32_t high,
                           uint32_t phase);
NvSynth nv_pcounter_synth(NvGpu *gpu, unsigned dom, unsigned n);
bool nv_pcounter_drill_record_fault(NvGpu *gpu, unsigned dom);

#endif
