/*
 * intel-gpu command streamers: the per-engine register window, and each
 * engine's life cycle.  Execution is in cs.c, submission in execlists.c.
 *
 * Every engine has the same registers at its own base.  Status registers
 * are computed from the engine's state: MI_MODE's MODE_IDLE is set when
 * nothing executes, a reset request is ready at once (work only runs in
 * slices between MMIO accesses, so the engine is always quiescent here).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-gpu-int.h"

/* In the order of IntelEngineId: base, interrupt class and instance. */
static const struct {
    uint32_t base;
    uint8_t klass, instance;
} engine_info[INTEL_ENGINE_COUNT] = {
    [INTEL_RCS0] = { INTEL_RCS0_BASE, INTEL_CLASS_RENDER, 0 },
    [INTEL_BCS0] = { INTEL_BCS0_BASE, INTEL_CLASS_COPY, 0 },
    [INTEL_VCS0] = { INTEL_VCS0_BASE, INTEL_CLASS_VIDEO, 0 },
    [INTEL_VCS1] = { INTEL_VCS1_BASE, INTEL_CLASS_VIDEO, 1 },
    [INTEL_VCS2] = { INTEL_VCS2_BASE, INTEL_CLASS_VIDEO, 2 },
    [INTEL_VCS3] = { INTEL_VCS3_BASE, INTEL_CLASS_VIDEO, 3 },
    [INTEL_VECS0] = { INTEL_VECS0_BASE, INTEL_CLASS_VIDEO_ENHANCE, 0 },
    [INTEL_VECS1] = { INTEL_VECS1_BASE, INTEL_CLASS_VIDEO_ENHANCE, 1 },
};

static const uint32_t engine_bases[INTEL_ENGINE_COUNT] = {
    INTEL_RCS0_BASE, INTEL_BCS0_BASE, INTEL_VCS0_BASE, INTEL_VCS1_BASE,
    INTEL_VCS2_BASE, INTEL_VCS3_BASE, INTEL_VECS0_BASE, INTEL_VECS1_BASE,
};

static IntelEngine *engine_of(IntelGpu *gpu, const IntelRegBinding *b)
{
    return &gpu->engine[b->unit];
}

static uint32_t mi_mode_read(IntelGpu *gpu, const IntelRegBinding *b,
                             uint32_t offset)
{
    uint32_t v = intel_reg_get(gpu, offset);

    if (!intel_engine_busy(engine_of(gpu, b)) || (v & INTEL_MI_MODE_STOP_RING)) {
        v |= INTEL_MI_MODE_IDLE;
    }
    return v;
}

static void mi_mode_write(IntelGpu *gpu, const IntelRegBinding *b,
                          uint32_t offset, uint32_t old)
{
    uint32_t v = intel_reg_get(gpu, offset) & ~INTEL_MI_MODE_IDLE;

    /* MODE_IDLE is status, not storage. */
    intel_reg_set(gpu, offset, v);
    if ((old & INTEL_MI_MODE_STOP_RING) && !(v & INTEL_MI_MODE_STOP_RING)) {
        intel_cs_kick(engine_of(gpu, b));
    }
}

static uint32_t reset_ctl_read(IntelGpu *gpu, const IntelRegBinding *b,
                               uint32_t offset)
{
    uint32_t v = intel_reg_get(gpu, offset);

    /* Execution stops at the request; the engine is ready at once. */
    if (v & INTEL_RESET_CTL_REQUEST_RESET) {
        v |= INTEL_RESET_CTL_READY_TO_RESET;
    }
    return v;
}

static void reset_ctl_write(IntelGpu *gpu, const IntelRegBinding *b,
                            uint32_t offset, uint32_t old)
{
    uint32_t v = intel_reg_get(gpu, offset) & INTEL_RESET_CTL_REQUEST_RESET;

    intel_reg_set(gpu, offset, v);
    if ((old & INTEL_RESET_CTL_REQUEST_RESET) && !v) {
        intel_cs_kick(engine_of(gpu, b));
    }
}

static uint32_t ring_timestamp_read(IntelGpu *gpu, const IntelRegBinding *b,
                                    uint32_t offset)
{
    uint64_t ticks = intel_engine_timestamp(gpu,
                                            gpu_host_now_ns(&gpu->host));

    return b->reg->aux ? ticks >> 32 : (uint32_t)ticks;
}

static uint32_t ring_ctx_timestamp_read(IntelGpu *gpu, const IntelRegBinding *b,
                                        uint32_t offset)
{
    return intel_engine_ctx_timestamp(engine_of(gpu, b));
}

/* Legacy ring mode: TAIL (and a now-valid RING_CTL) are the doorbell. */
static void ring_doorbell_write(IntelGpu *gpu, const IntelRegBinding *b,
                                uint32_t offset, uint32_t old)
{
    IntelEngine *e = engine_of(gpu, b);

    if (!intel_cs_execlists_mode(e)) {
        intel_cs_kick(e);
    }
}

/* ELSP: each dword write fills the next SQ dword, wrapping after E7. */
static void elsp_write(IntelGpu *gpu, const IntelRegBinding *b,
                       uint32_t offset, uint32_t old)
{
    IntelEngine *e = engine_of(gpu, b);

    intel_engine_set_reg(e, INTEL_RING_EXECLIST_SQ + 4 * e->elsp_dword,
                         intel_reg_get(gpu, offset));
    e->elsp_dword = (e->elsp_dword + 1) % (2 * INTEL_ELSQ_ELEMENTS);
    intel_reg_set(gpu, offset, 0);
}

static void execlist_control_write(IntelGpu *gpu, const IntelRegBinding *b,
                                   uint32_t offset, uint32_t old)
{
    IntelEngine *e = engine_of(gpu, b);

    if (intel_reg_get(gpu, offset) & INTEL_EL_CTRL_LOAD) {
        if (intel_cs_execlists_mode(e)) {
            intel_execlists_load(e);
        } else {
            gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                         "engine %u: execlist Load in legacy ring mode "
                         "ignored", e->id);
        }
    }
    intel_reg_set(gpu, offset, 0);
}

static uint32_t execlist_status_hi_read(IntelGpu *gpu,
                                        const IntelRegBinding *b,
                                        uint32_t offset)
{
    IntelEngine *e = engine_of(gpu, b);

    return intel_engine_ctx_id(e);
}


/*
 * The table's names for registers intel-gpu-regs.h spells otherwise (the
 * MI_PREDICATE_* ones are i915's names, drivers/gpu/drm/i915/gt/
 * intel_engine_regs.h).
 */
#define INTEL_RING_PGTBL_ER             0x024
#define INTEL_RING_IPEIR                0x064
#define INTEL_RING_PDP(i)               INTEL_RING_PDP_LDW(i)
#define INTEL_MI_PREDICATE_RESULT_2     INTEL_RING_PREDICATE_RESULT_2
#define INTEL_MI_PREDICATE_SRC0         INTEL_RING_PREDICATE_SRC0
#define INTEL_MI_PREDICATE_SRC1         INTEL_RING_PREDICATE_SRC1
#define INTEL_MI_PREDICATE_DATA         INTEL_RING_PREDICATE_DATA
#define INTEL_MI_PREDICATE_RESULT       INTEL_RING_PREDICATE_RESULT
#define INTEL_MI_PREDICATE_RESULT_1     INTEL_RING_PREDICATE_RESULT_1
#define INTEL_RING_EXECLIST_SQ_CONTENTS INTEL_RING_EXECLIST_SQ
#define INTEL_CS_GPR(i)                 INTEL_RING_CS_GPR(i)

static const IntelReg engine_regs[] = {
    INTEL_REG(RING_PGTBL_ER, W1C),
    INTEL_REG(RING_TAIL, RW, .write = ring_doorbell_write),
    INTEL_REG(RING_HEAD, RW),
    INTEL_REG(RING_START, RW),
    INTEL_REG(RING_CTL, RW, .write = ring_doorbell_write),
    INTEL_REG(RING_ACTHD_UDW, RO),
    INTEL_REG(RING_IPEIR, W1C),
    INTEL_REG(RING_INSTDONE, RO),
    INTEL_REG(RING_ACTHD, RO),
    INTEL_REG(RING_HWS_PGA, RW),
    INTEL_REG(RING_NOPID, RO),
    INTEL_REG(RING_HWSTAM, RW),
    INTEL_REG(RING_MI_MODE, MASKED, .read = mi_mode_read,
              .write = mi_mode_write),
    /* Storage only: Gen11 engine interrupts are not masked here. */
    INTEL_REG(RING_IMR, RW, .reset = 0xffffffff),
    INTEL_REG(RING_EIR, W1C),
    INTEL_REG(RING_EMR, RW, .reset = 0xffffffff),
    INTEL_REG(RING_ESR, RO),
    INTEL_REG(RING_INSTPM, MASKED),
    INTEL_REG(RING_RESET_CTL, MASKED, .read = reset_ctl_read,
              .write = reset_ctl_write),
    /* Batch state: written by the engine, loaded by context restore. */
    INTEL_REG(RING_BB_STATE, RW),
    INTEL_REG(RING_SBB_ADDR, RW),
    INTEL_REG(RING_SBB_STATE, RW),
    INTEL_REG(RING_SBB_ADDR_UDW, RW),
    INTEL_REG(RING_BBADDR, RW),
    INTEL_REG(RING_BBADDR_UDW, RW),
    INTEL_REG(RING_WATCHDOG_CTL, RW),
    INTEL_REG(RING_WATCHDOG_THRESH, RW),
    INTEL_REG(RING_BB_PER_CTX_PTR, RW),
    INTEL_REG(RING_INDIRECT_CTX, RW),
    INTEL_REG(RING_INDIRECT_CTX_OFFSET, RW),
    INTEL_REG(RING_ELSP, RW, .write = elsp_write),
    INTEL_REG(RING_EXECLIST_STATUS_LO, RO),
    INTEL_REG(RING_EXECLIST_STATUS_HI, RO, .read = execlist_status_hi_read),
    INTEL_REG(RING_CONTEXT_CONTROL, MASKED),
    INTEL_REGN(RING_PDP, 8, RW),
    INTEL_REG(RING_MODE, MASKED),
    INTEL_REG(RING_TIMESTAMP, RO, .read = ring_timestamp_read),
    INTEL_REG(RING_TIMESTAMP_UDW, RO, .aux = 1, .read = ring_timestamp_read),
    INTEL_REG(RING_CSB_BUF, RO, .count = 12),
    /* Read pointer = write pointer = 11: the first entry goes to slot 0. */
    INTEL_REG(RING_CONTEXT_STATUS_PTR, MASKED, .reset = 0x0b0b),
    INTEL_REG(RING_CTX_TIMESTAMP, RW, .read = ring_ctx_timestamp_read),
    INTEL_REG(RING_SET_PREDICATE_RESULT, RW),
    INTEL_REG(MI_PREDICATE_RESULT_2, RW),
    INTEL_REG(RING_CSB_BUF2, RO, .count = 12),
    INTEL_REG(MI_PREDICATE_SRC0, RW, .count = 2),
    INTEL_REG(MI_PREDICATE_SRC1, RW, .count = 2),
    INTEL_REG(MI_PREDICATE_DATA, RW, .count = 2),
    INTEL_REG(MI_PREDICATE_RESULT, RW),
    INTEL_REG(MI_PREDICATE_RESULT_1, RW),
    INTEL_REGN(RING_FORCE_TO_NONPRIV, 12, RW),
    INTEL_REG(RING_EXECLIST_SQ_CONTENTS, RW, .count = 16),
    INTEL_REG(RING_EXECLIST_CONTROL, RW, .write = execlist_control_write),
    INTEL_REGN(CS_GPR, 32, RW),
};

const IntelRegBlock intel_engine_block =
    INTEL_REG_BLOCK("engine", engine_regs, .bases = engine_bases,
                    .nbases = INTEL_ENGINE_COUNT);

/* The blitter's own registers (absolute offsets). */
static const IntelReg bcs_regs[] = {
    /* Which tiled surfaces of the XY blits are TileY (cs.c). */
    INTEL_REG(BCS_SWCTRL, MASKED),
};

const IntelRegBlock intel_bcs_block = INTEL_REG_BLOCK("bcs", bcs_regs);

/*
 * The render engine's modes and controls that Mesa (iris, anv) and NEO
 * program from their batches on Gen11: storage with the access the
 * register has, nothing of their effect modelled (absolute offsets).
 */
static const IntelReg rcs_regs[] = {
    INTEL_REG(CS_DEBUG_MODE2, MASKED),
    INTEL_REG(CS_CHICKEN1, MASKED),
    INTEL_REG(CACHE_MODE_0, MASKED),
    INTEL_REG(CACHE_MODE_1, MASKED),
    INTEL_REG(GT_MODE, MASKED),
    INTEL_REG(L3CNTLREG, RW),
    INTEL_REG(SLICE_COMMON_ECO_CHICKEN1, MASKED),
    INTEL_REG(TCCNTLREG, RW),
    INTEL_REG(SAMPLER_MODE, MASKED),
    INTEL_REG(HALF_SLICE_CHICKEN7, MASKED),
    /* IGT's gem_ctx_isolation: bits 31:16 of TD_CTL hold nothing. */
    INTEL_REG(TD_CTL, RW, .wmask = 0xffff),
    INTEL_REG(TD_CTL2, RW),
};

const IntelRegBlock intel_rcs_block = INTEL_REG_BLOCK("rcs", rcs_regs);

void intel_engines_init(IntelGpu *gpu)
{
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        IntelEngine *e = &gpu->engine[i];

        e->gpu = gpu;
        e->id = i;
        e->base = engine_info[i].base;
        e->klass = engine_info[i].klass;
        e->instance = engine_info[i].instance;
        e->timer = gpu_host_timer_new(&gpu->host, intel_cs_timer, e);
        e->submit = &intel_execlists_submit;
    }
    intel_engine_services_init(gpu);
}

void intel_engines_fini(IntelGpu *gpu)
{
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        gpu_host_timer_free(&gpu->host, gpu->engine[i].timer);
        intel_gfx_fini(&gpu->engine[i]);
    }
}

/*
 * An engine reset stops execution, drops the execution queue and returns
 * the engine's registers to their defaults.
 */
void intel_engine_reset(IntelGpu *gpu, IntelEngineId id)
{
    IntelEngine *e = &gpu->engine[id];

    intel_cs_reset(e);
    intel_execlists_reset(e);
    intel_mmio_reset_unit(gpu, &intel_engine_block, id);
    if (id == INTEL_BCS0) {
        intel_mmio_reset_unit(gpu, &intel_bcs_block, 0);
    }
}

/* The engine of interrupt class @klass and @instance, or NULL. */
static IntelEngine *engine_by_class(IntelGpu *gpu, unsigned klass,
                                    unsigned instance)
{
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        IntelEngine *e = &gpu->engine[i];

        if (e->klass == klass && e->instance == instance) {
            return e;
        }
    }
    return NULL;
}

/*
 * Fault drills.  Each returns false if there is no such engine; an engine
 * reset (GDRST, or a GT or system reset) ends what is left of any of them.
 *
 * Hang: the engine stops fetching commands from now on, without an error.
 */
bool intel_engine_drill_hang(IntelGpu *gpu, unsigned klass,
                             unsigned instance)
{
    IntelEngine *e = engine_by_class(gpu, klass, instance);

    if (e) {
        e->hang_drill = true;
        gpu_host_timer_del(&gpu->host, e->timer);
    }
    return e;
}

/* The engine's next context-status entry is dropped or corrupted. */
bool intel_engine_drill_csb(IntelGpu *gpu, unsigned klass, unsigned instance,
                            IntelCsbDrill action)
{
    IntelEngine *e = engine_by_class(gpu, klass, instance);

    if (e) {
        e->csb_drill = action;
    }
    return e;
}

/*
 * The engine's next @writes memory writes fail as an unmapped address
 * does (vm.c); 0 ends the drill.
 */
bool intel_engine_drill_dma(IntelGpu *gpu, unsigned klass, unsigned instance,
                            uint32_t writes)
{
    IntelEngine *e = engine_by_class(gpu, klass, instance);

    if (e) {
        e->dma_drill = writes;
    }
    return e;
}
