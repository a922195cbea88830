/*
 * intel-gpu execlists (PRM "Scheduling and Execlists", "Context Status";
 * Gen11 as i915 uses it): the submission queue, context switches with
 * save and restore of the logical ring context, and the context status
 * buffer (CSB) in the hardware status page.
 *
 * The submit queue (SQ, 8 descriptors at EXECLIST_SQ_CONTENTS, or written
 * cyclically through ELSP) is a staging buffer; a Load (EXECLIST_CONTROL)
 * samples it.  An idle engine switches to the sampled queue at once; a
 * busy one at its next arbitration point (MI_ARB_CHECK or an unsuccessful
 * MI_SEMAPHORE_WAIT with arbitration on, or an element boundary).  A later
 * Load before that replaces the sample: the latest queue wins.
 *
 * Context images are sequences of MI_LOAD_REGISTER_IMM (offset, value)
 * pairs after the PPHWSP page, as the hardware defines them.  Restore
 * applies every pair; with CTX_CONTEXT_CONTROL's restore-inhibit bit only
 * the ring context (ring, batch and PDP registers).  Save writes the
 * current value of every listed register back into its slot, so whatever
 * the driver put in the image (RING_HEAD, CTX_TIMESTAMP, OACTXCONTROL,
 * GPRs ...) round-trips without a per-generation slot table.  RING_TAIL
 * is the exception: software owns it and writes the next request's tail
 * into the image while the context may still run (i915's
 * execlists_update_context, then ELSP); a save in between must not put
 * back the tail the engine ran to, or the request is lost.
 *
 * The render context keeps the engine's state beyond the register list
 * (the pipelines' state, a draw or walker in progress, the per-context
 * registers the list lacks) in the model's part of the image, from page 3
 * on (ctx-image.h): a save writes it, a restore reads it back; with
 * restore-inhibit, or when it holds nothing valid, the pipelines start
 * from the reset state.
 *
 * CSB entries use the Gen8-Gen11 encoding i915 parses on Gen11 (bit 0
 * idle-to-active, 1 preempted, 2 element switch, 3 active-to-idle, 4
 * complete, 15 lite restore; high dword the context ID), twelve entries
 * at HWSP dword 0x10, the write pointer at dword 0x2F, mirrored in MMIO.
 * The CSB fault drill (engines.c) drops or corrupts the next entry.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "../intel-gpu-int.h"
#include "hw/gpumodel/intel-gpu-cmds.h"

/* The register-state part of an image that save and restore walk. */
#define LRC_MAX_DWORDS  2048

typedef struct LrcImage {
    uint64_t addr;                  /* GGTT address of the state page */
    uint32_t dw[LRC_MAX_DWORDS];
    unsigned pages;                 /* pages read into dw[] */
    /* Value slots in order, and the registers they load. */
    uint16_t slot[LRC_MAX_DWORDS / 2];
    uint32_t reg[LRC_MAX_DWORDS / 2];
    unsigned nregs;
} LrcImage;

/* The register list stays clear of the model's part of the image. */
G_STATIC_ASSERT(INTEL_LRC_STATE_OFFSET + LRC_MAX_DWORDS * 4 <=
                INTEL_CTX_IMAGE_OFFSET);

/* The registers of the model's part of a render context image. */
static const struct {
    uint32_t offset;                    /* absolute */
    uint32_t dwords;
} ctx_image_regs[] = {
#define CTX_IMAGE_REG(name, offset, dwords) { (offset), (dwords) },
    INTEL_CTX_IMAGE_REG_LIST(CTX_IMAGE_REG)
#undef CTX_IMAGE_REG
};

/* Registers a restore-inhibited image still loads (the ring context). */
static const uint16_t ring_context_regs[] = {
    INTEL_RING_CONTEXT_CONTROL, INTEL_RING_HEAD, INTEL_RING_TAIL,
    INTEL_RING_START, INTEL_RING_CTL, INTEL_RING_BBADDR_UDW,
    INTEL_RING_BBADDR, INTEL_RING_BB_STATE, INTEL_RING_SBB_ADDR_UDW,
    INTEL_RING_SBB_ADDR, INTEL_RING_SBB_STATE, INTEL_RING_BB_PER_CTX_PTR,
    INTEL_RING_INDIRECT_CTX, INTEL_RING_INDIRECT_CTX_OFFSET,
    INTEL_RING_CTX_TIMESTAMP,
    INTEL_RING_PDP_UDW(3), INTEL_RING_PDP_LDW(3),
    INTEL_RING_PDP_UDW(2), INTEL_RING_PDP_LDW(2),
    INTEL_RING_PDP_UDW(1), INTEL_RING_PDP_LDW(1),
    INTEL_RING_PDP_UDW(0), INTEL_RING_PDP_LDW(0),
};

static IntelEngine *engine_at(IntelGpu *gpu, uint32_t offset)
{
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        if (offset - gpu->engine[i].base < 0x1000) {
            return &gpu->engine[i];
        }
    }
    return NULL;
}

/*
 * Registers an image may not load: doorbells and resets, here or on
 * another engine, which would recurse into submission from inside it.
 */
static bool lrc_reg_loadable(IntelEngine *e, uint32_t offset)
{
    IntelEngine *owner = engine_at(e->gpu, offset);
    uint32_t rel = offset - e->base;

    if (offset == INTEL_GDRST || (owner && owner != e)) {
        return false;
    }
    return !owner || (rel != INTEL_RING_ELSP &&
                      rel != INTEL_RING_EXECLIST_CONTROL &&
                      rel != INTEL_RING_RESET_CTL &&
                      (rel < INTEL_RING_EXECLIST_SQ ||
                       rel >= INTEL_RING_EXECLIST_SQ + 0x40));
}

static bool lrc_page(IntelEngine *e, LrcImage *img, unsigned page)
{
    if (page >= LRC_MAX_DWORDS / 1024) {
        return false;
    }
    while (img->pages <= page) {
        uint32_t *p = &img->dw[img->pages * 1024];

        if (intel_vm_rw(e, false, img->addr + img->pages * 4096ull, p, 4096,
                        false)) {
            gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                         "engine %u: context image page at GGTT 0x%"
                         G_GINT64_MODIFIER "x not mapped", e->id,
                         (uint64_t)(img->addr + img->pages * 4096ull));
            return false;
        }
        for (unsigned i = 0; i < 1024; i++) {
            p[i] = GUINT32_FROM_LE(p[i]);
        }
        img->pages++;
    }
    return true;
}

/*
 * Read the image and index its LRI list: MI_NOOP padding, LRI headers with
 * their pairs, up to MI_BATCH_BUFFER_END or anything else.
 */
static bool lrc_parse(IntelEngine *e, LrcImage *img, uint64_t lrca)
{
    unsigned i = 0;

    img->addr = lrca + INTEL_LRC_STATE_OFFSET;
    img->pages = 0;
    img->nregs = 0;
    if (!lrc_page(e, img, 0)) {
        return false;
    }
    while (i < LRC_MAX_DWORDS && lrc_page(e, img, i / 1024)) {
        uint32_t hdr = img->dw[i];
        unsigned pairs;

        if (hdr == 0) {
            i++;
            continue;
        }
        if ((hdr & MI_INSTR_MASK) != MI_LOAD_REGISTER_IMM_CMD) {
            break;          /* MI_BATCH_BUFFER_END or the end of the list */
        }
        pairs = ((hdr & INSTR_LEN_MASK(8)) + 1) / 2;
        i++;
        for (unsigned p = 0; p < pairs && i + 1 < LRC_MAX_DWORDS; p++) {
            if (!lrc_page(e, img, (i + 1) / 1024)) {
                return true;
            }
            img->reg[img->nregs] = img->dw[i] & MI_REG_OFFSET_MASK;
            img->slot[img->nregs] = i + 1;
            img->nregs++;
            i += 2;
        }
    }
    return true;
}

static int lrc_find(LrcImage *img, IntelEngine *e, uint32_t rel)
{
    for (unsigned i = 0; i < img->nregs; i++) {
        if (img->reg[i] == e->base + rel) {
            return i;
        }
    }
    return -1;
}

static bool is_ring_context_reg(IntelEngine *e, uint32_t offset)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(ring_context_regs); i++) {
        if (offset == e->base + ring_context_regs[i]) {
            return true;
        }
    }
    return false;
}

/*
 * The OA unit counts engine activity (its NOA signals): it syncs first.
 * An active context keeps the GT out of RC6: RC6 hears after.
 */
static void execlists_set_ctx_active(IntelEngine *e, bool active)
{
    IntelGtEventArgs a = {
        .engine = e, .now = gpu_host_now_ns(&e->gpu->host),
    };

    if (e->ctx_active != active) {
        intel_gt_notify(e->gpu, INTEL_GT_SYNC, &a);
        e->ctx_active = active;
        intel_gt_notify(e->gpu, INTEL_GT_ACTIVITY, &a);
    }
}

/* The model's part of a render context image: the render engine's. */
static bool ctx_image_engine(IntelEngine *e)
{
    return e->klass == INTEL_CLASS_RENDER;
}

static uint64_t ctx_image_addr(IntelEngine *e)
{
    return intel_engine_ctx_lrca(e) + INTEL_CTX_IMAGE_OFFSET;
}

/*
 * A register as a context image keeps it: masked registers with all
 * write enables set, as in the register list.
 */
static uint32_t ctx_image_reg_value(IntelEngine *e, uint32_t offset,
                                    uint32_t v)
{
    const IntelRegBinding *b = intel_mmio_lookup(e->gpu, offset);

    return b && b->reg->access == INTEL_REG_MASKED ? 0xffff0000u |
                                                     (v & 0xffff) : v;
}

/* Load the registers from @img, or (@img NULL) their reset values. */
static void ctx_image_load_regs(IntelEngine *e, const IntelCtxImage *img)
{
    unsigned n = 0;

    for (unsigned i = 0; i < G_N_ELEMENTS(ctx_image_regs); i++) {
        for (unsigned k = 0; k < ctx_image_regs[i].dwords; k++, n++) {
            uint32_t off = ctx_image_regs[i].offset + 4 * k;
            const IntelRegBinding *b = intel_mmio_lookup(e->gpu, off);
            uint32_t reset = ctx_image_reg_value(e, off,
                                                 b ? b->reg->reset : 0);

            intel_mmio_write_quiet(e->gpu, off, img ? img->regs[n] : reset);
        }
    }
}

/*
 * Read the model's part of the image into @img (host order): false if it
 * holds nothing to restore.  A zero header is a context that never ran;
 * any other header that is not this layout's is the guest's doing, and
 * logged.
 */
static bool ctx_image_read(IntelEngine *e, IntelCtxImage *img)
{
    uint64_t addr = ctx_image_addr(e);
    IntelCtxImageHeader *h = &img->hdr;
    uint32_t *dw = (uint32_t *)img;

    if (intel_vm_rw(e, false, addr, h, sizeof(*h), false)) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: context image at GGTT 0x%" G_GINT64_MODIFIER
                     "x not mapped", e->id, addr);
        return false;
    }
    for (unsigned i = 0; i < sizeof(*h) / 4; i++) {
        dw[i] = GUINT32_FROM_LE(dw[i]);
    }
    if (!h->magic && !h->version && !h->length && !h->reserved) {
        return false;
    }
    if (h->magic != INTEL_CTX_IMAGE_MAGIC ||
        h->version != INTEL_CTX_IMAGE_VERSION || h->reserved ||
        h->length < INTEL_CTX_IMAGE_FIXED || h->length > sizeof(*img) ||
        h->length % 4) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: context image at GGTT 0x%" G_GINT64_MODIFIER
                     "x: magic 0x%x, version %u, length %u not the model's: "
                     "not restored", e->id, addr, h->magic, h->version,
                     h->length);
        return false;
    }
    if (intel_vm_rw(e, false, addr + sizeof(*h), dw + sizeof(*h) / 4,
                    h->length - sizeof(*h), false)) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: context image at GGTT 0x%" G_GINT64_MODIFIER
                     "x not mapped", e->id, addr);
        return false;
    }
    for (unsigned i = sizeof(*h) / 4; i < INTEL_CTX_IMAGE_FIXED / 4; i++) {
        dw[i] = GUINT32_FROM_LE(dw[i]);
    }
    return true;
}

/*
 * Restore the model's part of a render context image.  With @inhibit
 * (CTX_CONTEXT_CONTROL's Engine Context Restore Inhibit) the engine's
 * context is not loaded: the pipelines start from the reset state, and
 * the registers keep their values, as the register list's do.  Without
 * anything saved the state is the reset state, registers included.
 */
static void ctx_image_restore(IntelEngine *e, bool inhibit)
{
    IntelCtxImage *img;

    if (inhibit) {
        intel_gfx_context_restore(e, NULL);
        return;
    }
    img = g_new0(IntelCtxImage, 1);
    if (!ctx_image_read(e, img)) {
        g_free(img);
        img = NULL;
    }
    ctx_image_load_regs(e, img);
    intel_gfx_context_restore(e, img);
    g_free(img);
}

static void context_restore(IntelEngine *e, uint64_t desc)
{
    LrcImage *img = g_new(LrcImage, 1);
    bool inhibit = false;
    int ctl;

    e->ctx_desc = desc;
    execlists_set_ctx_active(e, true);
    if (lrc_parse(e, img, desc & INTEL_CTX_DESC_LRCA_MASK)) {
        ctl = lrc_find(img, e, INTEL_RING_CONTEXT_CONTROL);
        inhibit = ctl >= 0 && (img->dw[img->slot[ctl]] &
                               INTEL_CTX_CTRL_RESTORE_INHIBIT);
        for (unsigned i = 0; i < img->nregs; i++) {
            uint32_t reg = img->reg[i];

            if (lrc_reg_loadable(e, reg) &&
                (!inhibit || is_ring_context_reg(e, reg))) {
                intel_mmio_write_quiet(e->gpu, reg, img->dw[img->slot[i]]);
            }
        }
    }
    g_free(img);
    if (ctx_image_engine(e)) {
        ctx_image_restore(e, inhibit);
    }
    /* Addressing mode 3: legacy 64-bit context, 4-level PPGTT. */
    e->pml4 = GPU_FIELD_EX64(desc, INTEL_CTX_DESC, ADDR_MODE) == 3 ?
              (uint64_t)intel_engine_reg(e, INTEL_RING_PDP_UDW(0)) << 32 |
              intel_engine_reg(e, INTEL_RING_PDP_LDW(0)) : 0;
    intel_ppgtt_flush(e);
    intel_cs_context_restored(e);
    e->ctx_ts_base = intel_engine_reg(e, INTEL_RING_CTX_TIMESTAMP);
    e->ctx_in_ns = gpu_host_now_ns(&e->gpu->host);
    intel_gt_notify(e->gpu, INTEL_GT_CONTEXT_IN, &(IntelGtEventArgs) {
        .engine = e, .now = gpu_host_now_ns(&e->gpu->host),
    });
}

/*
 * A write the engine makes for itself (context save, context status).  A
 * failure is the engine's page fault, reported as for a command, but the
 * engine goes on: the switch it records has already happened.
 */
static bool execlists_mem_write(IntelEngine *e, uint64_t addr, void *buf,
                                size_t len, const char *what)
{
    if (!intel_vm_rw(e, false, addr, buf, len, true)) {
        return true;
    }
    gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                 "engine %u: %s at GGTT 0x%" G_GINT64_MODIFIER "x failed: "
                 "page fault", e->id, what, addr);
    intel_engine_page_fault(e, false, addr);
    return false;
}

/*
 * Save the model's part of a render context image: the registers, the
 * pipelines' state, then the header, up to the CURBE bytes in use.
 */
static void ctx_image_save(IntelEngine *e)
{
    IntelCtxImage *img = g_new0(IntelCtxImage, 1);
    uint32_t *dw = (uint32_t *)img;
    unsigned n = 0;
    uint32_t len;

    for (unsigned i = 0; i < G_N_ELEMENTS(ctx_image_regs); i++) {
        for (unsigned k = 0; k < ctx_image_regs[i].dwords; k++) {
            uint32_t off = ctx_image_regs[i].offset + 4 * k;

            img->regs[n++] = ctx_image_reg_value(
                e, off, intel_mmio_read_quiet(e->gpu, off));
        }
    }
    intel_gfx_context_save(e, img);
    len = INTEL_CTX_IMAGE_FIXED + ((img->media.curbe_len + 3) & ~3u);
    img->hdr = (IntelCtxImageHeader) {
        .magic = INTEL_CTX_IMAGE_MAGIC,
        .version = INTEL_CTX_IMAGE_VERSION,
        .length = len,
    };
    for (unsigned i = 0; i < INTEL_CTX_IMAGE_FIXED / 4; i++) {
        dw[i] = GUINT32_TO_LE(dw[i]);
    }
    execlists_mem_write(e, ctx_image_addr(e), img, len, "context save");
    g_free(img);
}

/* Write every listed register's current value back into the image. */
static void context_save(IntelEngine *e)
{
    LrcImage *img = g_new(LrcImage, 1);

    /* Batch levels (BB_STATE, BBADDR ...) are saved where they are now. */
    intel_cs_sync_registers(e);
    intel_engine_set_reg(e, INTEL_RING_CTX_TIMESTAMP,
                         intel_engine_ctx_timestamp(e));
    if (lrc_parse(e, img, e->ctx_desc & INTEL_CTX_DESC_LRCA_MASK) &&
        img->nregs) {
        int tail = lrc_find(img, e, INTEL_RING_TAIL);
        unsigned end = img->slot[img->nregs - 1] + 1;
        unsigned skip = tail >= 0 ? img->slot[tail] : end;

        for (unsigned i = 0; i < img->nregs; i++) {
            const IntelRegBinding *b = intel_mmio_lookup(e->gpu, img->reg[i]);
            uint32_t v = intel_mmio_read_quiet(e->gpu, img->reg[i]);

            /* Masked registers are saved with all write enables set. */
            if (b && b->reg->access == INTEL_REG_MASKED) {
                v = 0xffff0000u | (v & 0xffff);
            }
            img->dw[img->slot[i]] = v;
        }
        for (unsigned i = 0; i < end; i++) {
            img->dw[i] = GUINT32_TO_LE(img->dw[i]);
        }
        /*
         * The register list only, around the RING_TAIL slot: software may
         * write the image while the engine runs (see the top comment).
         */
        if (execlists_mem_write(e, img->addr, img->dw, skip * 4,
                                "context save") &&
            skip + 1 < end) {
            execlists_mem_write(e, img->addr + (skip + 1) * 4,
                                &img->dw[skip + 1], (end - skip - 1) * 4,
                                "context save");
        }
    }
    g_free(img);
    if (ctx_image_engine(e)) {
        ctx_image_save(e);
    }
}

/* Re-read only RING_TAIL from the image (lite restore). */
static void context_resample_tail(IntelEngine *e)
{
    LrcImage *img = g_new(LrcImage, 1);

    if (lrc_parse(e, img, e->ctx_desc & INTEL_CTX_DESC_LRCA_MASK)) {
        int t = lrc_find(img, e, INTEL_RING_TAIL);

        if (t >= 0) {
            intel_engine_set_reg(e, INTEL_RING_TAIL, img->dw[img->slot[t]]);
        }
    }
    g_free(img);
}

/* The running context, as the command streamer sees it (cs*.c). */
/*
 * The CSB fault drill's corruption: the event's kind reversed for i915's
 * Gen11 parser, which promotes its pending submission on idle-to-active or
 * preempted and otherwise takes the event as "element complete".
 */
static uint32_t csb_corrupt(uint32_t status)
{
    return status & (INTEL_CSB_IDLE_ACTIVE | INTEL_CSB_PREEMPTED) ?
           INTEL_CSB_COMPLETE : INTEL_CSB_PREEMPTED;
}

/*
 * One context status entry: the entry, then the write pointer (HWSP and
 * CONTEXT_STATUS_PTR), then the context-switch interrupt, in that order.
 * If the HWSP write fails, the entry is only in the MMIO mirror.
 */
static void csb_write(IntelEngine *e, uint32_t status, uint32_t ctx_id)
{
    uint32_t ptr = intel_engine_reg(e, INTEL_RING_CONTEXT_STATUS_PTR);
    unsigned wp = (GPU_FIELD_EX32(ptr, INTEL_RING_CONTEXT_STATUS_PTR,
                                  WRITE_PTR) + 1) % INTEL_CSB_ENTRIES;
    uint64_t hwsp = intel_engine_reg(e, INTEL_RING_HWS_PGA) & ~0xfffu;
    uint32_t entry[2], wp_le = GUINT32_TO_LE(wp);
    uint32_t mirror = wp < 6 ? INTEL_RING_CSB_BUF + 8 * wp
                             : INTEL_RING_CSB_BUF2 + 8 * (wp - 6);
    IntelCsbDrill drill = e->csb_drill;

    e->csb_drill = INTEL_CSB_DRILL_NONE;
    if (drill == INTEL_CSB_DRILL_DROP) {
        return;
    }
    if (drill == INTEL_CSB_DRILL_CORRUPT) {
        status = csb_corrupt(status);
    }
    entry[0] = GUINT32_TO_LE(status);
    entry[1] = GUINT32_TO_LE(ctx_id);
    intel_engine_set_reg(e, mirror, status);
    intel_engine_set_reg(e, mirror + 4, ctx_id);
    if (execlists_mem_write(e, hwsp + (INTEL_HWS_CSB_BUF0 + 2 * wp) * 4,
                            entry, 8, "context status entry")) {
        execlists_mem_write(e, hwsp + INTEL_HWS_CSB_WRITE * 4, &wp_le, 4,
                            "context status pointer");
    }
    intel_engine_set_reg(e, INTEL_RING_CONTEXT_STATUS_PTR,
                         GPU_FIELD_DP32(ptr, INTEL_RING_CONTEXT_STATUS_PTR,
                                        WRITE_PTR, wp));
    gpu_host_trace(&e->gpu->host, INTEL_TRACE_CONTEXT_STATUS, e->id,
                   (uint64_t)ctx_id << 32 | status, wp);
    intel_engine_raise(e, INTEL_GT_CONTEXT_SWITCH);
}

static unsigned execlists_next_valid(IntelEngine *e, unsigned from)
{
    while (from < INTEL_ELSQ_ELEMENTS &&
           !(e->eq[from] & INTEL_CTX_DESC_VALID)) {
        from++;
    }
    return from;
}

static uint32_t execlists_ctx_id(uint64_t desc)
{
    return desc >> 32;
}

/* Run element @idx of the execution queue, or go idle past the end. */
static void execlists_start_element(IntelEngine *e, unsigned idx)
{
    e->eq_pos = idx;
    if (idx >= INTEL_ELSQ_ELEMENTS) {
        execlists_set_ctx_active(e, false);
        intel_cs_go_idle(e);
        return;
    }
    context_restore(e, e->eq[idx]);
    intel_engine_set_state(e, INTEL_CS_RUNNING);
}

/* A Load: sample the submission queue, to be taken at arbitration. */
void intel_execlists_load(IntelEngine *e)
{
    for (unsigned i = 0; i < INTEL_ELSQ_ELEMENTS; i++) {
        uint32_t off = INTEL_RING_EXECLIST_SQ + 8 * i;

        e->pending_eq[i] = (uint64_t)intel_engine_reg(e, off + 4) << 32 |
                           intel_engine_reg(e, off);
    }
    e->load_pending = true;
    gpu_host_trace(&e->gpu->host, INTEL_TRACE_EXECLIST_LOAD, e->id,
                   e->pending_eq[0], e->pending_eq[1]);
    intel_cs_kick(e);
}

/*
 * Switch to the sampled queue; @saved when the running context was
 * already saved (it completed at an element boundary).  Returns true:
 * the engine now executes something else (or nothing).
 */
static bool switch_to_new_queue(IntelEngine *e, bool completed)
{
    unsigned first;
    uint32_t status, away = execlists_ctx_id(e->ctx_desc);
    bool was_active = e->ctx_active, lite;

    memcpy(e->eq, e->pending_eq, sizeof(e->eq));
    e->load_pending = false;
    first = execlists_next_valid(e, 0);
    lite = was_active && first < INTEL_ELSQ_ELEMENTS &&
           !((e->eq[first] ^ e->ctx_desc) & INTEL_CTX_DESC_LRCA_MASK) &&
           !(e->eq[first] & INTEL_CTX_DESC_FORCE_RESTORE);

    if (!was_active) {
        status = INTEL_CSB_IDLE_ACTIVE;
    } else {
        status = INTEL_CSB_PREEMPTED | (completed ? INTEL_CSB_COMPLETE : 0) |
                 (lite ? INTEL_CSB_LITE_RESTORE : 0);
        if (!lite && !completed) {
            context_save(e);
        }
    }
    if (lite) {
        /* Same context: keep HEAD and position, take the new TAIL. */
        e->eq_pos = first;
        e->ctx_desc = e->eq[first];
        context_resample_tail(e);
        intel_engine_set_state(e, INTEL_CS_RUNNING);
    } else {
        if (first >= INTEL_ELSQ_ELEMENTS) {
            status |= INTEL_CSB_ACTIVE_IDLE;    /* preempt to idle */
        }
        execlists_start_element(e, first);
    }
    csb_write(e, status, was_active ? away : execlists_ctx_id(e->ctx_desc));
    return true;
}

/* An arbitration point with a Load pending. */
static bool execlists_arbitrate(IntelEngine *e)
{
    return e->load_pending && switch_to_new_queue(e, false);
}

/* The running element's ring is empty: the context is complete. */
static void execlists_element_done(IntelEngine *e)
{
    uint32_t away = execlists_ctx_id(e->ctx_desc);
    unsigned next;

    context_save(e);
    if (e->load_pending) {
        switch_to_new_queue(e, true);
        return;
    }
    next = execlists_next_valid(e, e->eq_pos + 1);
    execlists_start_element(e, next);
    csb_write(e, next < INTEL_ELSQ_ELEMENTS ?
              INTEL_CSB_ELEMENT_SWITCH | INTEL_CSB_COMPLETE :
              INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE, away);
}

/* Loaded state the queue and the status buffer index by. */
bool intel_execlists_post_load(IntelEngine *e, char **err)
{
    /* eq_pos past the end means idle. */
    if (e->eq_pos > INTEL_ELSQ_ELEMENTS ||
        e->elsp_dword >= 2 * INTEL_ELSQ_ELEMENTS) {
        *err = g_strdup_printf("engine %u: queue position %u, ELSP dword %u",
                               e->id, e->eq_pos, e->elsp_dword);
        return false;
    }
    if (e->csb_drill > INTEL_CSB_DRILL_CORRUPT) {
        *err = g_strdup_printf("engine %u: CSB drill %u", e->id,
                               e->csb_drill);
        return false;
    }
    return true;
}

void intel_execlists_reset(IntelEngine *e)
{
    memset(e->eq, 0, sizeof(e->eq));
    memset(e->pending_eq, 0, sizeof(e->pending_eq));
    e->eq_pos = 0;
    e->load_pending = false;
    execlists_set_ctx_active(e, false);
    e->ctx_desc = 0;
    e->ctx_in_ns = 0;
    e->ctx_ts_base = 0;
    e->elsp_dword = 0;
}

/* The engine's submission backend (engines.c plugs it in). */
const IntelEngineSubmit intel_execlists_submit = {
    .arbitrate = execlists_arbitrate,
    .element_done = execlists_element_done,
};
