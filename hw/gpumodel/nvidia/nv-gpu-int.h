/*
 * nv-gpu model internals: each block's state and the calls blocks make to
 * each other.  Only model files, the migration description and the
 * white-box tests include this; the host glue uses nv-gpu.h.
 *
 * One file per hardware block, one folder per unit (fifo/, graph/,
 * memory/, pcounter/, core/: docs/architecture.rst); each block describes
 * its registers as a table (NvRegBlock) that the register file
 * (core/mmio.c) indexes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_NVIDIA_NV_GPU_INT_H
#define HW_GPUMODEL_NVIDIA_NV_GPU_INT_H

#include "nv-gpu.h"
#include "../regfile.h"

typedef struct NvReg NvReg;

/* ---- registers as data (../regfile.h) ---- */

#define NV_REG_RW   GPU_REG_RW
#define NV_REG_RO   GPU_REG_RO      /* writes ignored */
#define NV_REG_WO   GPU_REG_WO      /* reads as 0; the write handler acts */

/* @unit is the instance index (the PCOUNTER domain for per-domain regs). */
typedef uint32_t (*NvRegReadFn)(NvGpu *gpu, const NvReg *r, unsigned unit,
                                uint32_t offset);
/*
 * Called after every write, whatever the access kind, with @val limited to
 * the write mask and @old the value stored before.
 */
typedef void (*NvRegWriteFn)(NvGpu *gpu, const NvReg *r, unsigned unit,
                             uint32_t offset, uint32_t old, uint32_t val);

/* A table entry: the register (regfile.h, .feature NV_PC_F_*) + handlers. */
struct NvReg {
    GPU_REG_HEADER;
    NvRegReadFn read;
    NvRegWriteFn write;
};

/* A block's table and the window of BAR0 it owns. */
struct NvRegBlock {
    GpuRegBlock table;      /* entry offsets are from @base */
    uint32_t base;
    uint32_t size;
};

#define NV_REG_BLOCK(nm, base_, size_, regs_) \
    { .table = GPU_REG_BLOCK(nm, regs_), .base = base_, .size = size_ }

/*
 * An entry named by its offset macro in nv-gpu-regs.h, in the block at
 * @base_: NV_REG(PMC_INTR, 0, RO, ...) is "PMC_INTR" at NV_PMC_INTR.
 */
#define NV_REG(nm, base_, acc, ...) \
    { .name = #nm, .offset = NV_ ## nm - (base_), \
      .access = GPU_REG_ ## acc, __VA_ARGS__ }

static inline const NvReg *nv_reg_block_entry(const NvRegBlock *blk,
                                              unsigned i)
{
    return (const NvReg *)gpu_reg_block_entry(&blk->table, i);
}

/* One block's window of BAR0: storage and a dense dword index. */
typedef GpuRegFile NvRegFile;

#define NV_MAX_BLOCKS 18

/* ---- PTIMER (core/ptimer.c) ---- */

/*
 * Told after a write re-based TIME (TIME or the ratio written), by PTIMER,
 * which sits below its listener (PCOUNTER samples TIME).
 */
typedef void NvPtimerChangedFn(NvGpu *gpu);

typedef struct NvPtimer {
    uint64_t base_time;     /* TIME at base_ns */
    uint64_t base_ns;
    uint32_t time_high_latch;
    GpuTimer *alarm_timer;
    NvPtimerChangedFn *changed;     /* NULL: nobody listens */
} NvPtimer;

/* ---- PCOUNTER (pcounter/) ---- */

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

/* Per-cycle input word bits (see pcounter-signals.c: nv_pc_word_at). */
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
    uint32_t key;           /* span constants it assumes: nv_pc_table_key() */
    uint32_t len;           /* a power of two */
    uint8_t len_log2;
    uint32_t *word;         /* input word per cycle mod len */
    uint32_t *prefix[NV_PC_CHANNELS];   /* built on first use */
} NvPcTable;

/* Trailer EVENT/FLAG signals 0xf0-0xff as bits 0-15 of a 16-bit set. */
#define NV_PC_TRAILER_SIGS  16
#define NV_PC_USER_SIGS     2       /* GT215:GF100 USER_0, USER_1 */
#define NV_PC_USER_MASK     ((1u << NV_PC_USER_SIGS) - 1)
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
    uint64_t wrcache_flush_cycle[2];    /* last two; UINT64_MAX: none */

    /*
     * USER_0/1 (GT215 USER_TRIGGER): bit n is USER_n.  user_val from
     * cycle user_cycle (UINT64_MAX: never written), the user_pulse bits
     * back to 0 from the cycle after; user_before in cycle user_cycle - 1.
     */
    uint64_t user_cycle;
    uint8_t user_val;
    uint8_t user_pulse;
    uint8_t user_before;

    /*
     * PTIMER TIME as this domain samples it (pcounter-signals.c:
     * "PTIMER-derived signals"): NvPcounter.ptimer_t0 at cycle
     * ptimer_c0, advancing by NUMERATOR x source Hz / (DENOMINATOR x
     * domain Hz) per cycle.
     */
    uint64_t ptimer_c0;
    bool ptimer_before;     /* TIME_B12 in cycle ptimer_c0 - 1 */
    bool ptimer_sel;        /* some input selects TIME_B12 */
    bool ptimer_b12;        /* TIME_B12 in the current span */

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
    bool rec_drill;                     /* the next write fails (a drill) */
    uint64_t rec_packets;               /* packets sent (diagnostic) */

    NvPcTable tab;          /* the one in use */

    /* trailer EVENT/FLAG signals as inputs (pcounter-coupling.c) */
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
    bool behind;            /* the budget ran out: some domain lags */
    uint64_t steps;         /* evaluation steps so far (diagnostic) */
    GpuTimer *flush_timer;  /* record flushes and catching up */
    /* PTIMER since its last write, as the domains sample it */
    uint64_t ptimer_t0;     /* TIME at each domain's ptimer_c0 */
    uint32_t ptimer_num, ptimer_den;
} NvPcounter;

/* Evaluation steps per nv_pcounter_sync() (pcounter.c: "budget"). */
#define NV_PC_STEP_BUDGET   16384

/* ---- PFIFO (fifo/pfifo.c) ---- */

typedef struct NvFifoChan {
    /* the user area */
    uint32_t put, get, ib_get, ib_put;
    /* the push buffer segment being read, the method header in force */
    uint64_t seg_addr;
    uint32_t seg_left;              /* words */
    uint32_t hdr_mthd, hdr_subc, hdr_count;
    bool hdr_ninc;
    bool faulted;                   /* stopped until turned on again */
    /* host semaphores; DMA objects are instance offsets >> 4, + 1 */
    uint32_t sem_hi, sem_lo, sem_payload, sem_op, sem_ctxdma;
    bool sem_waiting;
    uint32_t subc_class[8];
    /* MEMORY_TO_MEMORY_FORMAT */
    uint32_t m2mf_dma_in, m2mf_dma_out, m2mf_layout;
    uint32_t m2mf_in_hi, m2mf_out_hi, m2mf_in, m2mf_out;
    uint32_t m2mf_pitch_in, m2mf_pitch_out, m2mf_line_len, m2mf_line_count;
} NvFifoChan;

typedef struct NvPfifo {
    NvFifoChan chan[NV_PFIFO_CHANS];
    GpuTimer *timer;                /* work left over, semaphore polls */
    bool fault_logged;              /* log-once diagnostics */
    uint32_t unimp_logged;
} NvPfifo;

static inline uint32_t nv_le32_get(const uint8_t *b)
{
    return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline void nv_le32_put(uint8_t *b, uint32_t v)
{
    b[0] = v;
    b[1] = v >> 8;
    b[2] = v >> 16;
    b[3] = v >> 24;
}

#define NV_VRAM_CHUNK   (1u << 20)

/* The windows onto memory, for bar.c's log-once faults. */
enum {
    NV_WIN_PMEM,
    NV_WIN_BAR1,
    NV_WIN_BAR3,
    NV_WINS
};

struct NvGpu {
    NvGpuConfig cfg;
    const NvChipset *chip;
    GpuHost host;

    NvRegFile files[NV_MAX_BLOCKS];
    uint32_t nfiles;
    GpuRegUnmodelled unmodelled;        /* over all of BAR0 */

    bool irq_level;
    NvPtimer ptimer;
    NvPcounter pc;

    /* memory: VRAM (the host's, or the model's own chunks), the BIOS */
    uint8_t *vram;
    uint8_t **vram_chunk;               /* NULL until written (bar.c) */
    uint64_t vram_size;
    uint8_t *vbios;                     /* NV_VBIOS_SIZE bytes */
    /* PBUS HOST_MEM: the channels last written to 0x1704 (bar.c) */
    uint32_t bar_chan;
    uint32_t peephole_chan;
    bool mem_fault_logged[NV_WINS];     /* a log-once diagnostic */
    NvPfifo fifo;
};

/*
 * The calls between units (a folder each), top first: a unit calls only
 * the units below it.  nv-gpu.c, the device, calls them all.
 */

/* ---- fifo/: PFIFO */

/* pfifo.c */
extern const NvRegBlock nv_pfifo_block;
uint32_t nv_fifo_user_read(NvGpu *gpu, uint32_t offset);
void nv_fifo_user_write(NvGpu *gpu, uint32_t offset, uint32_t val);
void nv_fifo_init(NvGpu *gpu);
void nv_fifo_fini(NvGpu *gpu);
void nv_fifo_reset(NvGpu *gpu);
bool nv_fifo_post_load(NvGpu *gpu, char **err);

/* ---- graph/: PGRAPH */

/* pgraph.c */
extern const NvRegBlock nv_pgraph_block;

/* ---- memory/: VRAM and the ways to it (bar.c), PFB, the write flush */

/* bar.c: memory, DMA objects and the G84 VM; the PRAMIN window */
typedef enum NvVmFault {
    NV_VM_OK,
    NV_VM_CHAN_TARGET,
    NV_VM_DMAOBJ,
    NV_VM_LIMIT,
    NV_VM_PDE,
    NV_VM_PT,
    NV_VM_PTE,
    NV_VM_RO,
    NV_VM_MEM,
} NvVmFault;
extern const char *const nv_vm_fault_name[];
bool nv_mem_rw(NvGpu *gpu, unsigned target, uint64_t addr, void *buf,
               unsigned len, bool write);
NvVmFault nv_dmaobj_translate(NvGpu *gpu, uint64_t chan, uint64_t dma,
                              uint64_t off, bool write, unsigned *target,
                              uint64_t *addr, uint64_t *left);
NvVmFault nv_dmaobj_rw(NvGpu *gpu, uint64_t chan, uint64_t dma, uint64_t off,
                       void *buf, uint64_t len, bool write);
uint32_t nv_pmem_read(NvGpu *gpu, uint32_t offset);
void nv_pmem_write(NvGpu *gpu, uint32_t offset, uint32_t val);

/* pfb.c, flush.c */
extern const NvRegBlock nv_pfb_block;
extern const NvRegBlock nv_flush_block;

/* ---- pcounter/: PCOUNTER (pcounter-int.h: what its files share) */

/*
 * PCOUNTER registers, in envytools' words.  The register space
 * (pcounter-regs.c) names them by these ids in NvReg.aux, with the array
 * index of SIG_STATUS; the instance (NvReg count/stride) is the domain.
 */
typedef enum NvPcRegId {
    PC_PRE_SRC, PC_START_SRC, PC_EVENT_SRC, PC_STOP_SRC,
    PC_PRE_OP, PC_START_OP, PC_EVENT_OP, PC_STOP_OP, PC_SETFLAG_OP,
    PC_CLRFLAG_OP,
    PC_SRC_STATUS, PC_SPEC_SRC,
    PC_CTR_CYCLES, PC_CTR_CYCLES_ALT, PC_CTR_EVENT, PC_CTR_START,
    PC_CTR_PRE, PC_CTR_STOP, PC_THRESHOLD,
    PC_RECORD_ADDRESS_HIGH, PC_RECORD_STATUS, PC_RECORD_LIMIT,
    PC_RECORD_START, PC_RECORD_CHAN, PC_RECORD_DMA, PC_GCTRL,
    PC_CTRL, PC_QUAD_ACK_TRIGGER, PC_SIG_STATUS,
    PC_USER_TRIGGER,            /* GT215 */
    PC_REG_IDS
} NvPcRegId;

#define NV_PC_AUX(id, index)    ((id) | (index) << 8)
#define NV_PC_AUX_ID(aux)       ((NvPcRegId)((aux) & 0xff))
#define NV_PC_AUX_INDEX(aux)    ((aux) >> 8)

/* pcounter-regs.c: the NV40:GF100 register space (envytools) */
extern const NvRegBlock nv40_pcounter_block;

/* pcounter.c */
uint32_t nv_pcounter_reg_read(NvGpu *gpu, const NvReg *r, unsigned unit,
                              uint32_t offset);
void nv_pcounter_reg_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                           uint32_t offset, uint32_t old, uint32_t val);
void nv_pcounter_init(NvGpu *gpu);
void nv_pcounter_fini(NvGpu *gpu);
void nv_pcounter_reset(NvGpu *gpu);
void nv_pcounter_sync(NvGpu *gpu);
void nv_pcounter_pm_trigger(NvGpu *gpu);
void nv_pcounter_wrcache_flush(NvGpu *gpu);
void nv_pcounter_pre_save(NvGpu *gpu);
bool nv_pcounter_post_load(NvGpu *gpu, char **err);

/* ---- core/: the register file, PMC, PTIMER, PBUS, registers-only blocks */

/* mmio.c: the register file over BAR0 */
void nv_mmio_init(NvGpu *gpu, const NvRegBlock *const *blocks, unsigned n);
void nv_mmio_fini(NvGpu *gpu);
void nv_mmio_reset(NvGpu *gpu);
bool nv_mmio_post_load(NvGpu *gpu, char **err);
uint32_t nv_mmio_read(NvGpu *gpu, uint32_t offset);
void nv_mmio_write(NvGpu *gpu, uint32_t offset, uint32_t val);
/* A register's storage, as the blocks (not the guest) see it */
uint32_t nv_reg_get(NvGpu *gpu, uint32_t offset);
void nv_reg_set(NvGpu *gpu, uint32_t offset, uint32_t val);

/* pmc.c */
void nv_pmc_update_irq(NvGpu *gpu);
void nv_intr_ack_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                       uint32_t offset, uint32_t old, uint32_t val);
void nv_intr_en_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                      uint32_t offset, uint32_t old, uint32_t val);
extern const NvRegBlock nv_pmc_block;

/* ptimer.c */
void nv_ptimer_init(NvGpu *gpu);
void nv_ptimer_fini(NvGpu *gpu);
void nv_ptimer_reset(NvGpu *gpu);
bool nv_ptimer_post_load(NvGpu *gpu, char **err);
uint64_t nv_ptimer_time(NvGpu *gpu);
/* TIME units per source tick as num/den, and its bounds */
#define NV_PTIMER_RATIO_NUM_MAX ((256u * 0xffff) << NV_PTIMER_TIME_SHIFT)
#define NV_PTIMER_RATIO_DEN_MAX (16u * 0xffff)
void nv_ptimer_ratio(NvGpu *gpu, uint32_t *num, uint32_t *den);
void nv_ptimer_ratio_of(uint32_t div, uint32_t mul, uint32_t src,
                        uint32_t *num, uint32_t *den);
void nv_ptimer_set_changed(NvGpu *gpu, NvPtimerChangedFn *fn);
extern const NvRegBlock nv_ptimer_block;

/* pbus.c, pstraps.c */
extern const NvRegBlock nv_pbus_block;
extern const NvRegBlock nv_pstraps_block;
/* pclock.c, pnvio.c, ptherm.c, ppci.c, pdisplay.c */
extern const NvRegBlock nv_pclock_block;
extern const NvRegBlock nv_pcontrol_block;
extern const NvRegBlock nv_pnvio_block;
extern const NvRegBlock nv_ptherm_block;
extern const NvRegBlock nv_pfuse_block;
extern const NvRegBlock nv_ppci_block;
extern const NvRegBlock nv_prmio_block;
extern const NvRegBlock nv_pdisplay_block;

/* vbios.c: PROM (BAR0 NV_PROM_BASE) */
uint32_t nv_prom_read(NvGpu *gpu, uint32_t offset);

#endif
