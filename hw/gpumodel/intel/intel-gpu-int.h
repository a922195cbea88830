/*
 * intel-gpu model internals: each block's state and the calls blocks make
 * to each other.  Only model files, the migration description and the
 * white-box tests include this; the host glue uses intel-gpu.h.
 *
 * One file per hardware block; each block describes its registers as a
 * table (IntelRegBlock) that the register file (mmio.c) indexes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_INTEL_GPU_INT_H
#define HW_GPUMODEL_INTEL_INTEL_GPU_INT_H

#include "intel-gpu.h"
#include "../regfile.h"
#include "gfx/gfx-state.h"
#include "ctx-image.h"
typedef struct IntelReg IntelReg;
typedef GpuRegBinding IntelRegBinding;
typedef GpuRegBlock IntelRegBlock;

/* The register file's access kinds (regfile.h), by their old names. */
#define INTEL_REG_RW        GPU_REG_RW
#define INTEL_REG_RO        GPU_REG_RO
#define INTEL_REG_W1C       GPU_REG_W1C
#define INTEL_REG_MASKED    GPU_REG_MASKED

/* The value a read returns; without it, the stored value. */
typedef uint32_t (*IntelRegReadFn)(IntelGpu *gpu, const IntelRegBinding *b,
                                   uint32_t offset);
/*
 * Called after every write, whatever the access kind, once the stored
 * value was updated from @old.
 */
typedef void (*IntelRegWriteFn)(IntelGpu *gpu, const IntelRegBinding *b,
                                uint32_t offset, uint32_t old);

/* A table entry: the register (regfile.h) and its handlers. */
struct IntelReg {
    GPU_REG_HEADER;
    IntelRegReadFn read;
    IntelRegWriteFn write;
};

/*
 * Table entries named by their offset macro in intel-gpu-regs.h:
 * INTEL_REG(RING_TAIL, RW, ...) is "RING_TAIL" at INTEL_RING_TAIL,
 * INTEL_REGN(PAT_INDEX, 8, RW, ...) eight at INTEL_PAT_INDEX(0) on.
 */
#define INTEL_REG(nm, acc, ...) \
    GPU_REG_ENTRY_P(INTEL_, nm, .access = GPU_REG_ ## acc, __VA_ARGS__)
#define INTEL_REGN(nm, n, acc, ...) \
    GPU_REG_ARRAY_P(INTEL_, nm, n, .access = GPU_REG_ ## acc, __VA_ARGS__)
#define INTEL_REG_BLOCK(nm, table, ...) GPU_REG_BLOCK(nm, table, __VA_ARGS__)

/* The entry of a binding: IntelReg starts with its GpuReg. */
static inline const IntelReg *intel_reg_entry(const IntelRegBinding *b)
{
    return (const IntelReg *)b->reg;
}

/* GGTT translation cache: direct mapped, dropped by GFX_FLSH_CNTL. */
#define INTEL_GGTT_TLB_ENTRIES 64

typedef struct IntelGgttTlbEntry {
    uint32_t page;          /* GGTT page number + 1; 0 = invalid */
    uint64_t pte;
} IntelGgttTlbEntry;

/*
 * Interrupt sources: engine class and instance as in the PRM's table, and
 * where each one's enable, mask and GT INT DW bit live.
 */
typedef enum IntelEngineClass {
    INTEL_CLASS_RENDER = 0,
    INTEL_CLASS_VIDEO = 1,
    INTEL_CLASS_VIDEO_ENHANCE = 2,
    INTEL_CLASS_COPY = 3,
    INTEL_CLASS_OTHER = 4,
} IntelEngineClass;

#define INTEL_IRQ_SOURCES 14

typedef struct IntelIrqState {
    uint16_t cr[INTEL_IRQ_SOURCES];         /* per-instance collapsing */
    uint32_t dw_iir[2];                     /* GT INT DW, as software sees */
    uint32_t dw_cr[2];                      /* secondary storage */
    bool dw_snapshot[2];                    /* read, not yet fully cleared */
    uint32_t identity[2];                   /* shared IIR */
    bool level;
    /* Fault drills: the next N messages of a source dropped or delayed. */
    uint32_t drill_count[INTEL_IRQ_SOURCES];
    uint64_t drill_delay_ns[INTEL_IRQ_SOURCES];
    uint16_t delayed_bits[INTEL_IRQ_SOURCES];
    uint64_t delayed_until[INTEL_IRQ_SOURCES];
    GpuTimer *delay_timer;
} IntelIrqState;

/* PPGTT translation cache of one engine, dropped by TLB invalidations. */
#define INTEL_PPGTT_TLB_ENTRIES 64

typedef struct IntelPpgttTlbEntry {
    uint64_t vpage;         /* virtual page number + 1; 0 = invalid */
    uint64_t ppage;         /* physical address of the page */
} IntelPpgttTlbEntry;

/* Where the command streamer fetches from: the ring or a batch level. */
typedef struct IntelCsLevel {
    uint64_t addr;          /* next command */
    uint64_t end;           /* INDIRECT_CTX: where it ends; 0: at BB_END */
    bool ppgtt;
    bool privileged;
} IntelCsLevel;

/*
 * Levels of batch nesting: the ring, first and second level batches, and
 * the context's workaround batch, which runs on top of whatever level the
 * restored context was at.
 */
#define INTEL_CS_LEVELS 4
#define INTEL_CS_WA_LEVEL 3

typedef enum IntelCsState {
    INTEL_CS_IDLE,          /* nothing to execute */
    INTEL_CS_RUNNING,       /* commands left; a slice is scheduled */
    INTEL_CS_WAITING,       /* re-polling an unsatisfied semaphore */
    INTEL_CS_HALTED,        /* stopped by an error until reset */
} IntelCsState;

#define INTEL_ELSQ_ELEMENTS 8

/*
 * Prefetched commands: a page, or one command of up to 2048 dwords (MI
 * commands such as MI_UPDATE_GTT have at most 1025); longer ones, which
 * only media commands' 16-bit length allows, are refused as malformed.
 */
#define INTEL_CS_FETCH_DWORDS 2048

typedef struct IntelCsFetch {
    uint32_t buf[INTEL_CS_FETCH_DWORDS];
    uint64_t addr;
    unsigned len;           /* valid dwords; 0 = empty */
    bool ppgtt;
} IntelCsFetch;

/* The fixed functions whose threads the EU array model tells apart (eu.c). */
typedef enum IntelEuFfid {
    INTEL_EU_VS,                /* vertex shader: 3DPRIMITIVE */
    INTEL_EU_TS,                /* thread spawner: GPGPU_WALKER, MEDIA_OBJECT */
    INTEL_EU_PS,                /* pixel shader: 3DPRIMITIVE (render.c) */
    INTEL_EU_FFIDS
} IntelEuFfid;

/*
 * EU clocks of the flexible EU events' sources, per fixed function
 * (eu.c): each pipe's active clocks in all and by instruction kind (the
 * fine filters' hybrid, ternary, binary, mov), the send pipe's, the
 * messages sent, the clocks both FPUs, some pipe and no pipe were active.
 * Each is counted on its own, so each grows monotonically as the work in
 * flight completes (cs.c rounds them separately).
 */
typedef enum IntelEuEv {
    INTEL_EU_EV_FPU0,           /* + 1..4: hybrid, ternary, binary, mov */
    INTEL_EU_EV_FPU1 = 5,       /* likewise */
    INTEL_EU_EV_SEND = 10,
    INTEL_EU_EV_SEND_START,
    INTEL_EU_EV_FPU_BOTH,
    INTEL_EU_EV_ANY,            /* some pipe active */
    INTEL_EU_EV_STALL,          /* a thread loaded, no pipe active */
    INTEL_EU_EVS
} IntelEuEv;

/*
 * Pixel-pipeline work (render.c and the shared functions its threads
 * use), as the OA unit's A counters count it.
 */
typedef enum IntelPxCount {
    INTEL_PX_PS_THREADS,        /* pixel shader threads (A6) */
    INTEL_PX_RASTERIZED,        /* pixels dispatched to them (A21) */
    INTEL_PX_SAMPLES_WRITTEN,   /* pixels render target writes wrote (A26) */
    INTEL_PX_SAMPLER_TEXELS,    /* texels the sampler returned (A28) */
    INTEL_PX_COUNTS
} IntelPxCount;

/*
 * Counters of what the engine executed, for OA and benchmarks; they move
 * only with executed work.
 */
typedef struct IntelCsStats {
    uint64_t commands;
    uint64_t cmds_3d;           /* render/media commands skipped */
    uint64_t primitives;        /* 3DPRIMITIVE */
    uint64_t walkers;           /* GPGPU_WALKER, MEDIA_OBJECT */
    uint64_t vs_threads;        /* modelled dispatch of 3DPRIMITIVE */
    uint64_t gpgpu_threads;     /* of GPGPU_WALKER and MEDIA_OBJECT */
    uint64_t blit_bytes;
    uint64_t busy_ns;           /* modelled execution time */
    uint64_t context_switches;
    uint64_t eu_clocks[INTEL_EU_FFIDS]; /* EU clocks of dispatched threads */
    uint64_t eu_ev[INTEL_EU_FFIDS][INTEL_EU_EVS];   /* their events */
    uint64_t px[INTEL_PX_COUNTS];   /* pixel-pipeline work */
} IntelCsStats;

/*
 * Work a slice committed at once but that the engine does at the modelled
 * pace (cs.c): busy time, EU and pixel work still to come complete evenly
 * over [@start_ns, @end_ns); @eu_clocks, @eu_ev and @px are the work of
 * that span.
 */
typedef struct IntelCsInFlight {
    uint64_t start_ns, end_ns;
    uint64_t eu_clocks[INTEL_EU_FFIDS];
    uint64_t eu_ev[INTEL_EU_FFIDS][INTEL_EU_EVS];
    uint64_t px[INTEL_PX_COUNTS];
} IntelCsInFlight;

/*
 * A submission backend (execlists/): the engine's command streamer asks
 * it at arbitration points and when the running element's ring is empty.
 */
typedef struct IntelEngine IntelEngine;

typedef struct IntelEngineSubmit {
    /* Switch to a pending execution queue, if any: has it switched? */
    bool (*arbitrate)(IntelEngine *e);
    void (*element_done)(IntelEngine *e);
} IntelEngineSubmit;

struct IntelEngine {
    IntelGpu *gpu;
    IntelEngineId id;
    uint32_t base;
    uint8_t klass, instance;
    GpuTimer *timer;
    const IntelEngineSubmit *submit;

    /* Command streamer (cs.c) */
    IntelCsState state;
    unsigned depth;                         /* 0: ring; 1, 2: batches */
    IntelCsLevel level[INTEL_CS_LEVELS];    /* [0] unused: HEAD is MMIO */
    IntelCsLevel wa_next;                   /* BB_PER_CTX after INDIRECT */
    unsigned wa_return_depth;
    bool arb_enabled;
    bool hang_drill;                        /* fetches nothing until reset */
    uint8_t csb_drill;                      /* IntelCsbDrill, next entry */
    uint32_t dma_drill;                     /* writes still to fail */
    uint32_t set_predicate;                 /* MI_SET_PREDICATE mode */
    uint64_t srca, srcb, accu;              /* MI_MATH */
    bool zf, cf;
    uint64_t pml4;                          /* PPGTT root */
    IntelPpgttTlbEntry tlb[INTEL_PPGTT_TLB_ENTRIES];
    IntelCsFetch fetch;
    IntelCsStats stats;
    IntelCsInFlight in_flight;
    /* EU instructions interpreted in the running slice (cs.c: pacing). */
    uint64_t slice_eu_instructions;
    /*
     * Privilege refusals already logged, a bit per MI opcode (63: other
     * commands), cs-access.c; further ones are only traced.  Not
     * migrated: it only decides what the host's log shows.
     */
    uint64_t privilege_logged;
    IntelGfxState gfx;                      /* render engine pipelines */

    /*
     * Execlists (execlists.c).  @load_pending, @ctx_active and @ctx_desc
     * are the running-context view the other units read through
     * intel_engine_ctx_*() and intel_engine_load_pending().
     */
    uint64_t eq[INTEL_ELSQ_ELEMENTS];       /* execution queue */
    unsigned eq_pos;                        /* running element */
    uint64_t pending_eq[INTEL_ELSQ_ELEMENTS];
    bool load_pending;                      /* a Load awaits arbitration */
    bool ctx_active;
    uint64_t ctx_desc;                      /* running context */
    uint64_t ctx_in_ns;                     /* CTX_TIMESTAMP base time */
    uint32_t ctx_ts_base;
    unsigned elsp_dword;                    /* next SQ dword via ELSP */
};

#define INTEL_OA_A_COUNTERS     36
#define INTEL_OA_BC_COUNTERS    8
/* NOA registers of the NOA selections the model knows (oa-noa.c). */
#define INTEL_OA_NOA_REGS       60

/* OA counter values (A0-A35 40 or 32 bits, B and C 32 bits, unwrapped). */
typedef struct IntelOaCounters {
    uint64_t a[INTEL_OA_A_COUNTERS];
    uint64_t b[INTEL_OA_BC_COUNTERS];
    uint64_t c[INTEL_OA_BC_COUNTERS];
} IntelOaCounters;

/* What the A counters count, summed over the engines since reset. */
typedef struct IntelOaSources {
    uint64_t busy_ns;
    uint64_t vs_threads;
    uint64_t gpgpu_threads;
    uint64_t eu_clocks[INTEL_EU_FFIDS];
    uint64_t eu_ev[INTEL_EU_FFIDS][INTEL_EU_EVS];
    uint64_t px[INTEL_PX_COUNTS];
} IntelOaSources;

/* The OA unit's sampling and counting state (oa.c, oa-*.c). */
typedef struct IntelOaState {
    GpuTimer *timer;
    bool running;               /* periodic sampling on */
    uint64_t period_ticks;      /* timestamp ticks between reports */
    uint64_t next_tick;         /* timestamp of the next periodic report */
    uint64_t trig_next[2];      /* GT clock of the next report-trigger
                                 * report; 0: off */
    bool go;                    /* counters counting (enable and resume) */
    uint64_t start_clock;       /* B and C count from this GT clock on */
    bool start_trigger;         /* a start trigger is programmed */
    uint64_t sync_ns;           /* @count and @src as of this time */
    IntelOaCounters count;
    IntelOaSources src;
    IntelOaCounters last;       /* as in the last report (overflow) */
    bool have_last_report;      /* @last_report_clock is valid */
    uint64_t last_report_clock; /* GT clock of the last buffered report */
    /*
     * NOA mux: the values of the NOA registers oa-noa.c knows, and derived
     * from them (rebuilt at post-load) which selections they hold
     */
    uint16_t noa[INTEL_OA_NOA_REGS];
    unsigned noa_sel;
    /*
     * Clocks of one NOA period on which CEC 0-7 holds and lane 8-15 is
     * high, as prefix sums (see oa_lane_prefix()); a cache
     */
    uint16_t lane_prefix[2 * INTEL_OA_BC_COUNTERS][7];
    bool lane_valid;
    uint64_t reports;           /* written, for tests and benchmarks */
    uint64_t lost;              /* dropped: buffer full or unmapped */
    /* Fault drills (intel_oa_drill_*) */
    bool tail_stalled;          /* OATAILPTR held while reports go on */
    uint32_t stall_tail;        /* meanwhile, where the next report goes */
    uint64_t stall_until_ns;    /* the stall ends then; 0: when ended */
    uint32_t overflow_drill;    /* the next N reports find the buffer full */
} IntelOaState;

/*
 * The GT frequency (rps.c): @ratio x 50/3 MHz since @since_ns, when the
 * GT clock had counted @clocks.
 */
typedef struct IntelRpsState {
    uint32_t ratio;
    uint64_t since_ns;
    uint64_t clocks;
} IntelRpsState;

/*
 * RC6 (rc6.c): @residency_ns counted up to the last update; while the RC6
 * conditions hold (@idle), the GT is in RC6 from @entry_ns on.
 */
typedef struct IntelRc6State {
    bool idle;
    uint64_t entry_ns;
    uint64_t residency_ns;
} IntelRc6State;

/*
 * GT events (core/events.c): a unit notifies the units above it, which
 * subscribed at creation.
 */
typedef enum IntelGtEvent {
    /* Counted activity is about to change at @now: OA folds its counters. */
    INTEL_GT_SYNC,
    /* An engine's busy state or context (@engine) changed: RC6 follows. */
    INTEL_GT_ACTIVITY,
    /* A context was switched in on @engine. */
    INTEL_GT_CONTEXT_IN,
    /* The GT clock went from RPS ratio @from to @to at @now. */
    INTEL_GT_FREQUENCY,
    /* @engine starts a slice at @now: reports due before see it as it was. */
    INTEL_GT_SLICE,
    /*
     * MI_REPORT_PERF_COUNT on @engine: a counter snapshot with
     * @report_id at @addr (@ppgtt); @ret -1 if the write faulted.
     */
    INTEL_GT_PERF_REPORT,
    INTEL_GT_EVENTS
} IntelGtEvent;

typedef struct IntelGtEventArgs {
    IntelEngine *engine;
    uint64_t now;
    uint32_t from, to;
    bool ppgtt;
    uint64_t addr;
    uint32_t report_id;
    int ret;
} IntelGtEventArgs;

typedef void IntelGtEventFn(IntelGpu *gpu, IntelGtEvent ev,
                            IntelGtEventArgs *a);

#define INTEL_GT_SUBSCRIBERS    2

struct IntelGpu {
    IntelGpuConfig cfg;
    GpuHost host;
    IntelGtEventFn *gt_subscriber[INTEL_GT_EVENTS][INTEL_GT_SUBSCRIBERS];

    /* Register file (mmio.c) */
    GpuRegFile regs;                    /* INTEL_MMIO_SIZE bytes */
    GpuRegUnmodelled unmodelled;

    /* Interrupt tree (irq.c) */
    IntelIrqState irq;

    /* GGTT (ggtt.c) */
    uint64_t *gsm;                      /* INTEL_GSM_SIZE bytes of PTEs */
    IntelGgttTlbEntry tlb[INTEL_GGTT_TLB_ENTRIES];
    uint64_t tlb_flushes;

    /* Command streamers (engines.c, engine/, cs/, execlists/) */
    IntelEngine engine[INTEL_ENGINE_COUNT];

    /* OA unit (oa.c, oa-*.c) */
    IntelOaState oa;

    /* GT frequency (rps.c) */
    IntelRpsState rps;

    /* RC6 (rc6.c) */
    IntelRc6State rc6;
};

/*
 * A command as an engine executes it: an entry of the command streamer's
 * table (cs/cs-int.h) and what its handler returns, which is the command
 * streamer's own (cs/) or a pipeline's (gfx/).
 */
enum {
    CS_NEXT,        /* done, continue with the next command */
    CS_RETRY,       /* not done: execute it again later */
    CS_STOP,        /* the engine stopped (error, idle, switch) */
    /*
     * Not done: its work continues at the engine's next step, without an
     * arbitration point in between (a dispatch in progress, gfx/gfx-int.h).
     */
    CS_CONTINUE,
    /*
     * As CS_CONTINUE, and an arbitration point: a draw between two of its
     * steps may be preempted (gfx/render.c: returned before it does a step's
     * work), and resumes when its context runs again.
     */
    CS_CONTINUE_ARB,
    /*
     * Not done: it waits for the work in flight (a CS stall); the slice
     * ends and the command executes again once that work is done.
     */
    CS_DRAIN,
};

typedef struct CsCmd CsCmd;
typedef int CsCmdFn(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                    unsigned len);

/*
 * The units' calls, top first as in docs/architecture.rst: each unit
 * calls only those below it (tools/unit-graph.py checks).
 */

/* The register file's storage (core/mmio.c). */
static inline uint32_t intel_reg_get(IntelGpu *gpu, uint32_t offset)
{
    return gpu->regs.store[offset / 4];
}

static inline void intel_reg_set(IntelGpu *gpu, uint32_t offset, uint32_t v)
{
    gpu->regs.store[offset / 4] = v;
}

/* engines.c: the engines' registers and life cycle */
void intel_engines_init(IntelGpu *gpu);
void intel_engines_fini(IntelGpu *gpu);
void intel_engine_reset(IntelGpu *gpu, IntelEngineId id);

/* oa/: the OA unit */
void intel_oa_init(IntelGpu *gpu);
void intel_oa_fini(IntelGpu *gpu);
void intel_oa_reset(IntelGpu *gpu);
bool intel_oa_post_load(IntelGpu *gpu, char **err);

/* execlists/: submission queue, context switches, status buffer */
extern const IntelEngineSubmit intel_execlists_submit;
void intel_execlists_load(IntelEngine *e);
void intel_execlists_reset(IntelEngine *e);
bool intel_execlists_post_load(IntelEngine *e, char **err);

/* cs/: command execution */
void intel_cs_kick(IntelEngine *e);
void intel_cs_timer(void *opaque);
void intel_cs_run(IntelEngine *e, unsigned budget);
void intel_cs_sync_registers(IntelEngine *e);
void intel_cs_context_restored(IntelEngine *e);
void intel_cs_go_idle(IntelEngine *e);
const char *intel_cs_command_name(uint32_t hdr);
void intel_cs_reset(IntelEngine *e);
bool intel_cs_post_load(IntelEngine *e, char **err);
bool intel_cs_nonpriv_write_allowed(IntelGpu *gpu, IntelEngineId id,
                                    uint32_t offset);

/*
 * gfx/: the GFXPIPE commands, and the render context's pipeline state in
 * its image (ctx-image.h): save fills @img's gfx, render, media and CURBE
 * parts; restore loads them from @img, whose header execlists/ checked,
 * or the reset state if @img is NULL.
 */
int intel_gfx_cmd(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                  unsigned len);
void intel_gfx_reset(IntelEngine *e);
/* Free what the pipelines allocated, when the engine goes. */
void intel_gfx_fini(IntelEngine *e);
bool intel_gfx_post_load(IntelEngine *e, char **err);
/* The threads of a group with barriers, allocated if they are not. */
void intel_media_group_alloc(IntelMediaState *m);
void intel_gfx_context_save(IntelEngine *e, IntelCtxImage *img);
void intel_gfx_context_restore(IntelEngine *e, const IntelCtxImage *img);

/* eu/eu.c: the EU array, as the flexible EU event counters see it */
void intel_eu_dispatch(IntelEngine *e, IntelEuFfid ffid, uint64_t threads);
uint64_t intel_eu_busy_clocks(IntelGpu *gpu, uint64_t eu_clocks);
void intel_eu_thread_events(IntelEngine *e, IntelEuFfid ffid,
                            const uint64_t *before, const uint64_t *after);
uint64_t intel_eu_flex_count(uint32_t sel, const uint64_t *eu_clocks,
                             const uint64_t (*eu_ev)[INTEL_EU_EVS]);

/* pm/: forcewake, the GT frequency and clock (rps.c), RC6 */
bool intel_forcewake_held(IntelGpu *gpu);
uint64_t intel_gt_clocks(IntelGpu *gpu, uint64_t ns);
uint64_t intel_gt_clocks_ns(IntelGpu *gpu, uint64_t clocks);
uint64_t intel_gt_clocks_for(IntelGpu *gpu, uint64_t ns);
uint64_t intel_gt_ns_for(IntelGpu *gpu, uint64_t clocks);
uint32_t intel_rps_ratio(IntelGpu *gpu);
void intel_rps_reset(IntelGpu *gpu);
bool intel_rps_post_load(IntelGpu *gpu, char **err);
void intel_rc6_init(IntelGpu *gpu);
void intel_rc6_update(IntelGpu *gpu);
void intel_rc6_reset(IntelGpu *gpu);
bool intel_rc6_post_load(IntelGpu *gpu, char **err);

/* engine/: what the units doing an engine's work need of it */
void intel_engine_services_init(IntelGpu *gpu);
bool intel_engine_busy(IntelEngine *e);
void intel_engine_set_state(IntelEngine *e, IntelCsState state);
uint64_t intel_engine_timestamp(IntelGpu *gpu, uint64_t ns);
uint32_t intel_engine_ctx_timestamp(IntelEngine *e);
void intel_engine_in_flight_rebase(IntelCsInFlight *w, uint64_t now);
void intel_engine_stats_at(IntelEngine *e, uint64_t ns, IntelCsStats *st);
void intel_engine_raise(IntelEngine *e, uint16_t bits);
void intel_engine_report_error(IntelEngine *e, uint32_t error);
void intel_engine_error(IntelEngine *e, uint32_t error, const char *why);
void intel_engine_page_fault(IntelEngine *e, bool ppgtt, uint64_t addr);

static inline uint32_t intel_engine_reg(IntelEngine *e, uint32_t off)
{
    return intel_reg_get(e->gpu, e->base + off);
}

static inline void intel_engine_set_reg(IntelEngine *e, uint32_t off,
                                        uint32_t v)
{
    intel_reg_set(e->gpu, e->base + off, v);
}

/* Is the engine in execlists mode (else legacy ring buffer mode)? */
static inline bool intel_cs_execlists_mode(IntelEngine *e)
{
    return intel_engine_reg(e, INTEL_RING_MODE) &
           INTEL_GFX_DISABLE_LEGACY_MODE;
}

/* The running-context view (written by execlists/ only). */
static inline bool intel_engine_ctx_active(const IntelEngine *e)
{
    return e->ctx_active;
}

static inline bool intel_engine_ctx_privileged(const IntelEngine *e)
{
    return e->ctx_desc & INTEL_CTX_DESC_PRIVILEGE;
}

/* The context image's GGTT address: its first page is the PPHWSP. */
static inline uint64_t intel_engine_ctx_lrca(const IntelEngine *e)
{
    return e->ctx_desc & INTEL_CTX_DESC_LRCA_MASK;
}

/* The running context's ID (the descriptor's upper dword), 0 when idle. */
static inline uint32_t intel_engine_ctx_id(const IntelEngine *e)
{
    return e->ctx_active ? e->ctx_desc >> 32 : 0;
}

/* A Load waits for the next arbitration point. */
static inline bool intel_engine_load_pending(const IntelEngine *e)
{
    return e->load_pending;
}

/*
 * A Load waits and arbitration is on (MI_ARB_ON_OFF): a pipeline at a
 * preemption point returns CS_CONTINUE_ARB; with arbitration off it goes
 * on, or it would wait for a switch that cannot come.
 */
static inline bool intel_engine_preempt_pending(const IntelEngine *e)
{
    return e->load_pending && e->arb_enabled;
}

/* The address space of accesses that do not select the GGTT. */
static inline bool intel_engine_ppgtt(IntelEngine *e)
{
    return intel_cs_execlists_mode(e) && intel_engine_ctx_active(e) &&
           e->pml4;
}

/* mem/: the GGTT and aperture, the engines' view of memory */
void intel_ggtt_flush(IntelGpu *gpu);
void intel_ggtt_reset(IntelGpu *gpu);
int intel_ggtt_translate(IntelGpu *gpu, uint32_t gtt_addr, uint64_t *phys);
int intel_vm_rw(IntelEngine *e, bool ppgtt, uint64_t addr, void *buf,
                size_t len, bool write);
int intel_ppgtt_translate(IntelEngine *e, uint64_t va, uint64_t *pa);
int intel_ggtt_rw(IntelGpu *gpu, uint64_t addr, void *buf, size_t len,
                  bool write);
void intel_ppgtt_flush(IntelEngine *e);

/* core/: the register file, the interrupt tree, GT events */
void intel_mmio_init(IntelGpu *gpu, const IntelRegBlock *const *blocks,
                     unsigned nblocks);
void intel_mmio_fini(IntelGpu *gpu);
void intel_mmio_reset(IntelGpu *gpu);
uint32_t intel_mmio_read_quiet(IntelGpu *gpu, uint32_t offset);
void intel_mmio_write_quiet(IntelGpu *gpu, uint32_t offset, uint32_t val);
const IntelRegBinding *intel_mmio_lookup(IntelGpu *gpu, uint32_t offset);
void intel_mmio_reset_unit(IntelGpu *gpu, const IntelRegBlock *block,
                           unsigned unit);

void intel_irq_init(IntelGpu *gpu);
void intel_irq_fini(IntelGpu *gpu);
void intel_irq_reset(IntelGpu *gpu);
void intel_gt_subscribe(IntelGpu *gpu, IntelGtEvent ev, IntelGtEventFn *fn);
void intel_gt_notify(IntelGpu *gpu, IntelGtEvent ev, IntelGtEventArgs *a);

/* soc/: fuses */
uint32_t intel_cs_timestamp_hz(IntelGpu *gpu);
bool intel_fuse_post_load(IntelGpu *gpu, char **err);

/* The register blocks, in the files named after them. */
extern const IntelRegBlock intel_ranges_block;      /* mmio.c */
extern const IntelRegBlock intel_forcewake_block;   /* forcewake.c */
extern const IntelRegBlock intel_fuse_block;        /* fuse.c */
extern const IntelRegBlock intel_pcode_block;       /* pcode.c */
extern const IntelRegBlock intel_mchbar_block;      /* mchbar.c */
extern const IntelRegBlock intel_display_block;     /* display.c */
extern const IntelRegBlock intel_irq_block;         /* irq.c */
extern const IntelRegBlock intel_gt_block;          /* gt.c */
extern const IntelRegBlock intel_engine_block;      /* engines.c */
extern const IntelRegBlock intel_bcs_block;         /* engines.c */
extern const IntelRegBlock intel_rcs_block;         /* engines.c */
extern const IntelRegBlock intel_ggtt_block;        /* ggtt.c */
extern const IntelRegBlock intel_oa_block;          /* oa.c */
extern const IntelRegBlock intel_rps_block;         /* rps.c */
extern const IntelRegBlock intel_rc6_block;         /* rc6.c */

#endif
