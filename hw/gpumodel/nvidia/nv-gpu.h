/*
 * nv-gpu model: an NVIDIA G84-class card (PMC, PTIMER, PCOUNTER),
 * host-neutral (see ../host.h).
 *
 * One file per hardware block; each block describes its registers as a
 * table (NvRegBlock) that the register file (nv-gpu.c) indexes.  Facts
 * that differ between chipsets live in NvChipset rows, not in code.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_NVIDIA_NV_GPU_H
#define HW_GPUMODEL_NVIDIA_NV_GPU_H

#include <glib.h>
#include "../host.h"
#include "hw/gpumodel/nv-gpu-regs.h"

typedef struct NvGpu NvGpu;
typedef struct NvReg NvReg;
typedef struct NvRegBlock NvRegBlock;

/* ---- chipsets ---- */

/* PCOUNTER features, by the seed's revision list. */
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
} NvGpuConfig;

/* ---- registers as data ---- */

typedef enum NvRegAccess {
    NV_REG_RW,
    NV_REG_RO,              /* writes ignored */
    NV_REG_WO,              /* reads as 0; the write handler acts */
} NvRegAccess;

/* @unit is the instance index (the PCOUNTER domain for per-domain regs). */
typedef uint32_t (*NvRegReadFn)(NvGpu *gpu, const NvReg *r, unsigned unit,
                                uint32_t offset);
/* Called after a write stored @val (masked) over @old. */
typedef void (*NvRegWriteFn)(NvGpu *gpu, const NvReg *r, unsigned unit,
                             uint32_t offset, uint32_t old, uint32_t val);

struct NvReg {
    const char *name;
    uint32_t offset;        /* from the block's base */
    uint32_t count;         /* instances (0 means 1) */
    uint32_t stride;        /* bytes between instances (0 means 4) */
    NvRegAccess access;
    uint32_t reset;
    uint32_t wmask;         /* writable bits (0 means all) */
    uint32_t aux;           /* for the handlers: a register id */
    uint32_t feature;       /* NV_PC_F_*: present only with it (0: all) */
    NvRegReadFn read;
    NvRegWriteFn write;
};

struct NvRegBlock {
    const char *name;
    uint32_t base;          /* BAR0 offset */
    uint32_t size;
    const NvReg *regs;
    unsigned nregs;
};

/* One block placed in BAR0, with storage and a dense dword index. */
typedef struct NvRegFile {
    const NvRegBlock *block;
    uint32_t *store;
    uint16_t *index;        /* dword -> reg number + 1 */
} NvRegFile;

#define NV_MAX_BLOCKS 4

/* ---- PTIMER ---- */

typedef struct NvPtimer {
    uint64_t base_time;     /* TIME at base_ns */
    uint64_t base_ns;
    uint32_t time_high_latch;
    GpuTimer *alarm_timer;
} NvPtimer;

/* ---- PCOUNTER ---- */

/* Synthetic workload signal: 1 for @high cycles of every 2^@period_log2. */
typedef struct NvSynth {
    uint8_t period_log2;
    uint32_t high;
    uint32_t phase;
} NvSynth;

#define NV_PC_PERIOD_MAX_LOG2 16    /* PERIODIC 0x10000, synth periods */

enum {
    NV_PC_IN_PRE,
    NV_PC_IN_START,
    NV_PC_IN_EVENT,
    NV_PC_IN_STOP,
    NV_PC_IN_SETFLAG,
    NV_PC_IN_CLRFLAG,
    NV_PC_INPUTS
};

/* Counters, in the order the quad shadow set keeps them. */
enum {
    NV_PC_CTR_CYCLES,
    NV_PC_CTR_EVENT,
    NV_PC_CTR_START,
    NV_PC_CTR_PRE,
    NV_PC_CTR_STOP,
    NV_PC_CTRS
};

/* Per-cycle input word bits (see pcounter.c: word_at). */
#define NV_PC_W_SRC(i)      (1u << (i))           /* 16 selected signals */
#define NV_PC_W_IN(k)       (1u << (16 + (k)))    /* logic op outputs */
#define NV_PC_W_SWAP        (1u << 22)
#define NV_PC_W_UNK8        (1u << 23)

#define NV_PC_CHANNELS      28

/*
 * A domain's inputs repeat with period @len cycles once its configuration
 * is fixed; prefix sums over one period answer "how many / where is the
 * n-th" for any cycle range in O(1) / O(log len).
 */
typedef struct NvPcTable {
    bool valid;
    uint16_t key;           /* the trailer EVENT/FLAG values it assumes */
    uint32_t len;           /* a power of two */
    uint8_t len_log2;
    uint32_t *word;         /* input word per cycle mod len */
    uint32_t *prefix[NV_PC_CHANNELS];   /* built on first use */
} NvPcTable;

/* Trailer EVENT/FLAG signals 0xf0-0xff as bits 0-15 of a 16-bit set. */
#define NV_PC_TRAILER_SIGS  16
#define NV_PC_TABLES        4   /* period tables kept per domain */
#define NV_PC_IMPORT_QUEUE  8

/*
 * One imported EVENT or FLAG signal of another domain: the changes of the
 * source's signal that the importing domain has yet to see, in its own
 * cycles (the cycle whose synchronizer window takes the change in).
 */
typedef struct NvPcImport {
    uint64_t c[NV_PC_IMPORT_QUEUE];
    bool v[NV_PC_IMPORT_QUEUE];     /* the value from then on */
    bool rose[NV_PC_IMPORT_QUEUE];  /* a 0-to-1 change in that window */
    uint8_t head, n;
    bool last;              /* the value of the last change queued */
    bool cont;              /* CONTINUOUS value in cycle cur */
    uint64_t pulse_c;       /* the last window with a 0-to-1 change */
} NvPcImport;

typedef struct NvPcDomain {
    unsigned id;
    uint64_t hz;
    uint64_t cur;           /* cycles [0, cur) have been evaluated */

    /* configuration, as written */
    uint32_t src[4];        /* PRE, START, EVENT, STOP _SRC */
    uint32_t op[NV_PC_INPUTS];
    uint32_t spec_src;
    uint32_t ctrl;
    uint32_t threshold;
    uint32_t pre_init, stop_init;
    NvSynth synth[NV_SIG_SYNTH_COUNT];

    /* signal origins: cycles at which one-cycle events happen */
    uint64_t periodic_origin;
    uint64_t pm_trigger_cycle[2];       /* last two; UINT64_MAX: none */

    /* counters: live in single mode, the visible set in quad mode */
    uint32_t ctr[NV_PC_CTRS];
    uint32_t shadow[NV_PC_CTRS];
    uint8_t quad_state;
    uint8_t single_state;
    bool flag;              /* FLAG after cycle cur-1 */
    bool flag_prev;         /* FLAG after cycle cur-2: the FLAG signal */

    /* record mode */
    uint64_t rec_cycles;    /* 48 bits */
    uint16_t rec_ev[12];
    uint16_t rec_stop;
    uint64_t rec_busy_until;            /* first cycle the slot is free */
    uint32_t rec_pos;
    uint32_t rec_limit;
    uint32_t rec_start;
    uint8_t rec_addr_high;
    bool rec_valid;
    bool rec_fault;
    bool rec_wedged;
    uint64_t rec_packets;               /* packets sent (diagnostic) */

    NvPcTable tab;          /* the one in use */

    /* trailer EVENT/FLAG signals as inputs (pcounter.c: "coupling") */
    uint16_t dyn_sel;       /* the ones this domain selects */
    uint16_t dyn;           /* their values in the current span */
    uint16_t dyn_prev;      /* their values in the cycle before it */
    bool ev_last;           /* EVENT output of cycle cur-1 */
    bool ev_last_in_tab;    /* ... to be read from the table (tab.word) */
    bool ev_watched;        /* some domain selects DOM[id].EVENT */
    bool flag_watched;      /* some domain selects DOM[id].FLAG */
    uint8_t unimp_seen[NV_PCOUNTER_SIGNALS / 8];

    /* rarely used: last in the structure */
    NvPcTable spare[NV_PC_TABLES - 1];  /* for other trailer values */
    unsigned spare_next;                /* the one to replace next */
    uint32_t tab_steps;     /* one-cycle steps for want of a table */
    NvPcImport imp[NV_PC_TRAILER_SIGS];
} NvPcDomain;

typedef struct NvPcounter {
    NvPcDomain dom[NV_PCOUNTER_DOMAINS];
    uint32_t gctrl;
    uint32_t record_chan, record_dma;
    uint64_t epoch_ns;
    uint64_t synced_ns;     /* every domain is up to this time */
    bool coupled;           /* some domain selects a trailer EVENT/FLAG */
    bool import_loop;       /* ... and domains import from each other */
    uint32_t budget;        /* steps left in this sync */
    uint64_t steps;         /* steps taken since creation (diagnostic) */
    uint32_t flush_backoff; /* flush interval factor while domains lag */
    GpuTimer *flush_timer;
} NvPcounter;

struct NvGpu {
    NvGpuConfig cfg;
    const NvChipset *chip;
    GpuHost host;

    NvRegFile files[NV_MAX_BLOCKS];
    unsigned nfiles;
    GHashTable *unmodelled_seen;

    bool irq_level;
    NvPtimer ptimer;
    NvPcounter pc;
};

/* nv-gpu.c: life cycle and the register file */
bool nv_gpu_config_check(const NvGpuConfig *cfg, char **err);
NvGpu *nv_gpu_new(const NvGpuConfig *cfg, const GpuHost *host);
void nv_gpu_free(NvGpu *gpu);
void nv_gpu_reset(NvGpu *gpu);
uint32_t nv_gpu_read(NvGpu *gpu, uint32_t offset);
void nv_gpu_write(NvGpu *gpu, uint32_t offset, uint32_t val);
uint32_t nv_reg_get(NvGpu *gpu, uint32_t offset);
void nv_reg_set(NvGpu *gpu, uint32_t offset, uint32_t val);

/* pmc.c */
void nv_pmc_update_irq(NvGpu *gpu);
extern const NvRegBlock nv_pmc_block;

/* ptimer.c */
void nv_ptimer_init(NvGpu *gpu);
void nv_ptimer_fini(NvGpu *gpu);
void nv_ptimer_reset(NvGpu *gpu);
uint64_t nv_ptimer_time(NvGpu *gpu);
uint32_t nv_ptimer_intr(NvGpu *gpu);
extern const NvRegBlock nv_ptimer_block;

/* pgraph.c */
extern const NvRegBlock nv_pgraph_block;

/* pcounter.c */
void nv_pcounter_init(NvGpu *gpu);
void nv_pcounter_fini(NvGpu *gpu);
void nv_pcounter_reset(NvGpu *gpu);
void nv_pcounter_sync(NvGpu *gpu);
void nv_pcounter_pm_trigger(NvGpu *gpu);
bool nv_pcounter_set_synth(NvGpu *gpu, unsigned dom, unsigned n,
                           unsigned period_log2, uint32_t high,
                           uint32_t phase);
extern const NvRegBlock nv40_pcounter_block;

#endif
