/*
 * intel-gpu interrupt tree (PRM vol 13, "Interrupts"): engine events ->
 * per-instance collapsing registers -> GT INT DW0/DW1 -> master interrupt
 * control -> the device's interrupt output.
 *
 * An event carries class, instance and 16 data bits.  It is AND-ed with its
 * class's enable field (each "Other" instance has its own); disabled bits
 * are dropped.  Enabled bits collect in the instance's collapsing register;
 * bits not masked by the instance's mask field raise a second-level event,
 * the instance's bit in GT INT DW.  A GT INT DW is double buffered: once
 * software has read it, events go to secondary storage until software has
 * cleared every bit, and are then presented as a new DW-level event.
 * Writing a one-hot selector presents the selected instance's unmasked bits
 * in the shared IIR (INTR_IDENTITY) with Data-Valid set; writing Data-Valid
 * clears both.  The master control's level bits are read-only; the output
 * is high while a level bit and the master enable are both set.
 *
 * intel_irq_update() is the one place that computes the output.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../intel-gpu-int.h"

typedef struct IntelIrqSource {
    const char *name;
    uint8_t klass;
    uint8_t instance;
    uint8_t bank;           /* GT INT DW0 or DW1 */
    uint8_t bit;
    uint32_t enable_reg;
    uint8_t enable_shift;   /* 16-bit field at bit 0 or 16 */
    uint32_t mask_reg;
    uint8_t mask_shift;
} IntelIrqSource;

#define ENGINE(n, c, i, bk, b, en, ensh, mk, mksh) \
    { .name = n, .klass = c, .instance = i, .bank = bk, .bit = b, \
      .enable_reg = en, .enable_shift = ensh, .mask_reg = mk, \
      .mask_shift = mksh }
#define VCS(n) \
    ENGINE("VCS" #n, INTEL_CLASS_VIDEO, n, 1, n, INTEL_VCS_VECS_INTR_ENABLE, \
           16, INTEL_VCS_INTR_MASK(n), (n) % 2 ? 0 : 16)
#define VECS(n) \
    ENGINE("VECS" #n, INTEL_CLASS_VIDEO_ENHANCE, n, 1, 31 - (n), \
           INTEL_VCS_VECS_INTR_ENABLE, 0, INTEL_VECS_INTR_MASK(n), \
           (n) % 2 ? 0 : 16)
#define OTHER(nm, i, b, en, mk, sh) \
    ENGINE(nm, INTEL_CLASS_OTHER, i, 0, b, en, sh, mk, sh)

/*
 * Gen11 sources.  Where two instances share a register, the first named
 * takes bits 31:16, as i915 programs them (GTPM "in upper half", GuC and
 * KCR in ENGINE1_MASK, GSC/CSME in 15:0).  The "Other" class's SCTRG
 * (instance 3) has no GT INT DW bit in any document we have, so it is not
 * a source.
 */
static const IntelIrqSource irq_sources[INTEL_IRQ_SOURCES] = {
    ENGINE("RCS0", INTEL_CLASS_RENDER, 0, 0, 0,
           INTEL_RENDER_COPY_INTR_ENABLE, 16, INTEL_RCS0_RSVD_INTR_MASK, 16),
    ENGINE("BCS0", INTEL_CLASS_COPY, 0, 0, 15,
           INTEL_RENDER_COPY_INTR_ENABLE, 0, INTEL_BCS_RSVD_INTR_MASK, 16),
    VCS(0), VCS(1), VCS(2), VCS(3),
    VECS(0), VECS(1),
    OTHER("GuC", 0, 25, INTEL_GUC_SG_INTR_ENABLE, INTEL_GUC_SG_INTR_MASK, 16),
    OTHER("GTPM", 1, 16, INTEL_GPM_WGBOXPERF_INTR_ENABLE,
          INTEL_GPM_WGBOXPERF_INTR_MASK, 16),
    OTHER("WDOAPerf", 2, 20, INTEL_GPM_WGBOXPERF_INTR_ENABLE,
          INTEL_GPM_WGBOXPERF_INTR_MASK, 0),
    OTHER("KCR", 4, 19, INTEL_CRYPTO_RSVD_INTR_ENABLE,
          INTEL_CRYPTO_RSVD_INTR_MASK, 16),
    OTHER("Gunit", 5, 28, INTEL_GUNIT_CSME_INTR_ENABLE,
          INTEL_GUNIT_CSME_INTR_MASK, 16),
    OTHER("CSME", 6, 31, INTEL_GUNIT_CSME_INTR_ENABLE,
          INTEL_GUNIT_CSME_INTR_MASK, 0),
};

static int irq_source_index(unsigned klass, unsigned instance)
{
    for (int i = 0; i < INTEL_IRQ_SOURCES; i++) {
        if (irq_sources[i].klass == klass &&
            irq_sources[i].instance == instance) {
            return i;
        }
    }
    return -1;
}

static int irq_source_at(unsigned bank, unsigned bit)
{
    for (int i = 0; i < INTEL_IRQ_SOURCES; i++) {
        if (irq_sources[i].bank == bank && irq_sources[i].bit == bit) {
            return i;
        }
    }
    return -1;
}

static uint16_t irq_field(IntelGpu *gpu, uint32_t reg, unsigned shift)
{
    return intel_reg_get(gpu, reg) >> shift;
}

static uint16_t irq_unmasked(IntelGpu *gpu, int src)
{
    const IntelIrqSource *s = &irq_sources[src];

    return gpu->irq.cr[src] & ~irq_field(gpu, s->mask_reg, s->mask_shift);
}

static uint32_t master_level_bits(IntelGpu *gpu)
{
    IntelIrqState *irq = &gpu->irq;
    uint32_t bits = 0;

    for (unsigned b = 0; b < 2; b++) {
        if (irq->dw_iir[b]) {
            bits |= INTEL_MSTR_GT_DW(b);
        }
    }
    if (intel_reg_get(gpu, INTEL_GU_MISC_IIR)) {
        bits |= INTEL_MSTR_GU_MISC;
    }
    if (intel_reg_get(gpu, INTEL_PCU_IIR)) {
        bits |= INTEL_MSTR_PCU;
    }
    return bits;
}

/* The one place that computes the interrupt output. */
static void intel_irq_update(IntelGpu *gpu)
{
    bool level = (intel_reg_get(gpu, INTEL_GFX_MSTR_IRQ) & INTEL_MSTR_ENABLE)
                 && master_level_bits(gpu);

    if (level != gpu->irq.level) {
        gpu->irq.level = level;
        gpu_host_set_irq(&gpu->host, level);
    }
}

/* A second-level event: the source's bit in its GT INT DW. */
static void irq_dw_event(IntelGpu *gpu, int src)
{
    IntelIrqState *irq = &gpu->irq;
    const IntelIrqSource *s = &irq_sources[src];

    if (irq->dw_snapshot[s->bank]) {
        irq->dw_cr[s->bank] |= 1u << s->bit;
    } else {
        irq->dw_iir[s->bank] |= 1u << s->bit;
    }
}

/* An event that made it past the drills: enable, collapse, mask. */
static void irq_deliver(IntelGpu *gpu, int src, uint16_t bits)
{
    const IntelIrqSource *s = &irq_sources[src];

    bits &= irq_field(gpu, s->enable_reg, s->enable_shift);
    if (!bits) {
        return;
    }
    gpu->irq.cr[src] |= bits;
    if (bits & irq_unmasked(gpu, src)) {
        irq_dw_event(gpu, src);
    }
    intel_irq_update(gpu);
}

static void irq_delay_arm(IntelGpu *gpu)
{
    IntelIrqState *irq = &gpu->irq;
    uint64_t next = UINT64_MAX;

    for (int i = 0; i < INTEL_IRQ_SOURCES; i++) {
        if (irq->delayed_bits[i]) {
            next = MIN(next, irq->delayed_until[i]);
        }
    }
    if (next == UINT64_MAX) {
        gpu_host_timer_del(&gpu->host, irq->delay_timer);
    } else {
        gpu_host_timer_mod(&gpu->host, irq->delay_timer, next);
    }
}

static void irq_delay_fire(void *opaque)
{
    IntelGpu *gpu = opaque;
    IntelIrqState *irq = &gpu->irq;
    uint64_t now = gpu_host_now_ns(&gpu->host);

    for (int i = 0; i < INTEL_IRQ_SOURCES; i++) {
        if (irq->delayed_bits[i] && irq->delayed_until[i] <= now) {
            uint16_t bits = irq->delayed_bits[i];

            irq->delayed_bits[i] = 0;
            irq_deliver(gpu, i, bits);
        }
    }
    irq_delay_arm(gpu);
}

/*
 * An interrupt message from an engine.  Returns false if no such source
 * exists.
 */
bool intel_irq_raise(IntelGpu *gpu, unsigned klass, unsigned instance,
                     uint16_t bits)
{
    IntelIrqState *irq = &gpu->irq;
    int src = irq_source_index(klass, instance);

    if (src < 0) {
        return false;
    }
    if (irq->drill_count[src]) {
        irq->drill_count[src]--;
        if (!irq->drill_delay_ns[src]) {
            return true;                    /* lost */
        }
        /* Messages delayed together arrive together, collapsed. */
        if (!irq->delayed_bits[src]) {
            irq->delayed_until[src] = gpu_host_now_ns(&gpu->host) +
                                      irq->drill_delay_ns[src];
        }
        irq->delayed_bits[src] |= bits;
        irq_delay_arm(gpu);
        return true;
    }
    irq_deliver(gpu, src, bits);
    return true;
}

/* Drop (@delay_ns 0) or delay the next @count messages of a source. */
bool intel_irq_drill(IntelGpu *gpu, unsigned klass, unsigned instance,
                     uint32_t count, uint64_t delay_ns)
{
    int src = irq_source_index(klass, instance);

    if (src < 0) {
        return false;
    }
    gpu->irq.drill_count[src] = count;
    gpu->irq.drill_delay_ns[src] = delay_ns;
    return true;
}

/* ---- registers ---- */

static uint32_t mstr_read(IntelGpu *gpu, const IntelRegBinding *b,
                          uint32_t offset)
{
    return (intel_reg_get(gpu, offset) & INTEL_MSTR_ENABLE) |
           master_level_bits(gpu);
}

static void mstr_write(IntelGpu *gpu, const IntelRegBinding *b,
                       uint32_t offset, uint32_t old)
{
    intel_reg_set(gpu, offset, intel_reg_get(gpu, offset) & INTEL_MSTR_ENABLE);
    intel_irq_update(gpu);
}

static unsigned irq_bank_of(const IntelRegBinding *b, uint32_t offset)
{
    return (offset - b->base - b->reg->offset) / 4;
}

/*
 * Reading a GT INT DW takes the snapshot software services.  An empty DW
 * has nothing under service: software would never clear it, so it must
 * not hold back later events.
 */
static uint32_t gt_intr_dw_read(IntelGpu *gpu, const IntelRegBinding *b,
                                uint32_t offset)
{
    unsigned bank = irq_bank_of(b, offset);

    if (gpu->irq.dw_iir[bank]) {
        gpu->irq.dw_snapshot[bank] = true;
    }
    return gpu->irq.dw_iir[bank];
}

static void gt_intr_dw_write(IntelGpu *gpu, const IntelRegBinding *b,
                             uint32_t offset, uint32_t old)
{
    IntelIrqState *irq = &gpu->irq;
    unsigned bank = irq_bank_of(b, offset);

    irq->dw_iir[bank] &= ~intel_reg_get(gpu, offset);
    if (!irq->dw_iir[bank]) {
        /* End of service: what arrived meanwhile is a new DW event. */
        irq->dw_snapshot[bank] = false;
        irq->dw_iir[bank] = irq->dw_cr[bank];
        irq->dw_cr[bank] = 0;
    }
    intel_irq_update(gpu);
}

static void selector_write(IntelGpu *gpu, const IntelRegBinding *b,
                           uint32_t offset, uint32_t old)
{
    IntelIrqState *irq = &gpu->irq;
    unsigned bank = irq_bank_of(b, offset);
    uint32_t sel = intel_reg_get(gpu, offset), id;
    int src;
    uint16_t bits;

    if (!sel) {
        return;
    }
    if (sel & (sel - 1) || !(sel & irq->dw_iir[bank])) {
        gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                     "IIR_REG_SELECTOR%u 0x%08x: not one bit of "
                     "GT_INTR_DW%u 0x%08x", bank, sel, bank,
                     irq->dw_iir[bank]);
        intel_reg_set(gpu, offset, old);
        return;
    }
    src = irq_source_at(bank, __builtin_ctz(sel));
    if (src < 0) {
        /* Only reachable for bits no source sets: keep going quietly. */
        irq->identity[bank] = INTEL_INTR_DATA_VALID;
        return;
    }
    bits = irq_unmasked(gpu, src);
    irq->cr[src] &= ~bits;
    id = GPU_FIELD_DP32(INTEL_INTR_DATA_VALID, INTEL_INTR_IDENTITY_REG,
                        CLASS, irq_sources[src].klass);
    id = GPU_FIELD_DP32(id, INTEL_INTR_IDENTITY_REG, INSTANCE,
                        irq_sources[src].instance);
    irq->identity[bank] = GPU_FIELD_DP32(id, INTEL_INTR_IDENTITY_REG, INTR,
                                         bits);
}

static uint32_t identity_read(IntelGpu *gpu, const IntelRegBinding *b,
                              uint32_t offset)
{
    return gpu->irq.identity[irq_bank_of(b, offset)];
}

static void identity_write(IntelGpu *gpu, const IntelRegBinding *b,
                           uint32_t offset, uint32_t old)
{
    unsigned bank = irq_bank_of(b, offset);

    if (intel_reg_get(gpu, offset) & INTEL_INTR_DATA_VALID) {
        gpu->irq.identity[bank] = 0;
        intel_reg_set(gpu, INTEL_IIR_REG_SELECTOR(bank), 0);
    }
}

/* Unmasking pending bits raises the second-level event they held back. */
static void intr_mask_write(IntelGpu *gpu, const IntelRegBinding *b,
                            uint32_t offset, uint32_t old)
{
    for (int i = 0; i < INTEL_IRQ_SOURCES; i++) {
        const IntelIrqSource *s = &irq_sources[i];
        uint16_t was = gpu->irq.cr[i] & ~(uint16_t)(old >> s->mask_shift);

        if (s->mask_reg == offset && (irq_unmasked(gpu, i) & ~was)) {
            irq_dw_event(gpu, i);
        }
    }
    intel_irq_update(gpu);
}

static void iir_write(IntelGpu *gpu, const IntelRegBinding *b,
                      uint32_t offset, uint32_t old)
{
    intel_irq_update(gpu);
}

#define IRQ_MASK(nm, cnt) \
    INTEL_REG(nm, RW, .count = cnt, .reset = 0xffffffff, \
              .write = intr_mask_write)
#define IRQ_MASKN(nm, cnt) \
    INTEL_REGN(nm, cnt, RW, .reset = 0xffffffff, .write = intr_mask_write)
#define INTEL_GT_INTR_ENABLE        INTEL_RENDER_COPY_INTR_ENABLE
#define INTEL_OTHER_INTR_MASK       INTEL_GUC_SG_INTR_MASK
/*
 * A classic ISR/IMR/IIR/IER bank.  Nothing in the model raises these (no
 * display, no PCU events), but i915 resets them at install and asserts
 * that every IIR reads 0, so they keep their access semantics.
 */
#define IRQ_ISR(nm, base) \
    { .name = #nm "_ISR", .offset = (base), .access = GPU_REG_RO }
#define IRQ_IMR(nm, base) \
    { .name = #nm "_IMR", .offset = (base) + 4, .access = GPU_REG_RW, \
      .reset = 0xffffffff }
#define IRQ_IIR(nm, base) \
    { .name = #nm "_IIR", .offset = (base) + 8, .access = GPU_REG_W1C, \
      .write = iir_write }
#define IRQ_IER(nm, base) \
    { .name = #nm "_IER", .offset = (base) + 12, .access = GPU_REG_RW }

static const IntelReg irq_regs[] = {
    INTEL_REG(GFX_MSTR_IRQ, RW, .read = mstr_read, .write = mstr_write),
    INTEL_REGN(GT_INTR_DW, 2, RW, .read = gt_intr_dw_read,
               .write = gt_intr_dw_write),
    INTEL_REGN(INTR_IDENTITY_REG, 2, RW, .read = identity_read,
               .write = identity_write),
    INTEL_REGN(IIR_REG_SELECTOR, 2, RW, .write = selector_write),
    INTEL_REG(GT_INTR_ENABLE, RW, .count = 6),
    IRQ_MASK(RCS0_RSVD_INTR_MASK, 1),
    IRQ_MASK(BCS_RSVD_INTR_MASK, 1),
    IRQ_MASKN(VCS_INTR_MASK, 2),
    IRQ_MASKN(VECS_INTR_MASK, 1),
    IRQ_MASK(OTHER_INTR_MASK, 4),
    INTEL_REG(DISPLAY_INT_CTL, RW),
    IRQ_ISR(DE_PIPE_A, INTEL_DE_PIPE_ISR(0)),
    IRQ_IMR(DE_PIPE_A, INTEL_DE_PIPE_ISR(0)),
    IRQ_IIR(DE_PIPE_A, INTEL_DE_PIPE_ISR(0)),
    IRQ_IER(DE_PIPE_A, INTEL_DE_PIPE_ISR(0)),
    IRQ_ISR(DE_PIPE_B, INTEL_DE_PIPE_ISR(1)),
    IRQ_IMR(DE_PIPE_B, INTEL_DE_PIPE_ISR(1)),
    IRQ_IIR(DE_PIPE_B, INTEL_DE_PIPE_ISR(1)),
    IRQ_IER(DE_PIPE_B, INTEL_DE_PIPE_ISR(1)),
    IRQ_ISR(DE_PIPE_C, INTEL_DE_PIPE_ISR(2)),
    IRQ_IMR(DE_PIPE_C, INTEL_DE_PIPE_ISR(2)),
    IRQ_IIR(DE_PIPE_C, INTEL_DE_PIPE_ISR(2)),
    IRQ_IER(DE_PIPE_C, INTEL_DE_PIPE_ISR(2)),
    IRQ_ISR(DE_PORT, INTEL_DE_PORT_ISR),
    IRQ_IMR(DE_PORT, INTEL_DE_PORT_ISR),
    IRQ_IIR(DE_PORT, INTEL_DE_PORT_ISR),
    IRQ_IER(DE_PORT, INTEL_DE_PORT_ISR),
    IRQ_ISR(DE_MISC, INTEL_DE_MISC_ISR),
    IRQ_IMR(DE_MISC, INTEL_DE_MISC_ISR),
    IRQ_IIR(DE_MISC, INTEL_DE_MISC_ISR),
    IRQ_IER(DE_MISC, INTEL_DE_MISC_ISR),
    IRQ_ISR(DE_HPD, INTEL_DE_HPD_ISR),
    IRQ_IMR(DE_HPD, INTEL_DE_HPD_ISR),
    IRQ_IIR(DE_HPD, INTEL_DE_HPD_ISR),
    IRQ_IER(DE_HPD, INTEL_DE_HPD_ISR),
    IRQ_ISR(PCU, INTEL_PCU_ISR),
    IRQ_IMR(PCU, INTEL_PCU_ISR),
    IRQ_IIR(PCU, INTEL_PCU_ISR),
    IRQ_IER(PCU, INTEL_PCU_ISR),
    IRQ_ISR(GU_MISC, INTEL_GU_MISC_ISR),
    IRQ_IMR(GU_MISC, INTEL_GU_MISC_ISR),
    IRQ_IIR(GU_MISC, INTEL_GU_MISC_ISR),
    IRQ_IER(GU_MISC, INTEL_GU_MISC_ISR),
    IRQ_ISR(SDE, INTEL_SDE_ISR),
    IRQ_IMR(SDE, INTEL_SDE_ISR),
    IRQ_IIR(SDE, INTEL_SDE_ISR),
    IRQ_IER(SDE, INTEL_SDE_ISR),
};

const IntelRegBlock intel_irq_block = INTEL_REG_BLOCK("irq", irq_regs);

void intel_irq_init(IntelGpu *gpu)
{
    gpu->irq.delay_timer = gpu_host_timer_new(&gpu->host, irq_delay_fire,
                                              gpu);
}

void intel_irq_fini(IntelGpu *gpu)
{
    gpu_host_timer_free(&gpu->host, gpu->irq.delay_timer);
}

/*
 * Registers are reset by the register file; this is the tree's state.  The
 * output is low afterwards; the host lowers its line in its own reset.
 */
void intel_irq_reset(IntelGpu *gpu)
{
    IntelIrqState *irq = &gpu->irq;
    GpuTimer *t = irq->delay_timer;

    gpu_host_timer_del(&gpu->host, t);
    *irq = (IntelIrqState) { .delay_timer = t };
}
