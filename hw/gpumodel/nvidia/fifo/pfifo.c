/*
 * nv-gpu PFIFO: G84 channels in indirect-buffer (GPFIFO) mode, enough for
 * a kernel driver's own channel - host methods (semaphores, the
 * non-stall interrupt) and MEMORY_TO_MEMORY_FORMAT (class 0x5039) pitch
 * copies, executed when the guest writes IB_PUT.
 *
 * Where a channel's state lives, as nouveau sets it up
 * (drivers/gpu/drm/nouveau/nvkm/engine/fifo/chang84.c, gpfifog84.c):
 *   0x2600 + 4 x chid   bit 31 on, RAMFC address >> 8
 *   RAMFC + 0x48        the push buffer's DMA object (instance offset >> 4)
 *   RAMFC + 0x50/0x54   IB address, log2 of its entries at 0x54 bits 16-20
 *   RAMFC + 0x80        RAMHT: instance offset >> 4, log2 size - 9 at 27
 *   RAMFC + 0x98        the channel instance >> 12 (page directory +0x200)
 * RAMHT entries are {handle, offset >> 4 | engine << 20}
 * (nvkm/core/ramht.c).  An IB entry is {address[31:0], address[39:32] |
 * dwords << 10} (nouveau_dma.c: nv50_dma_push); push buffer words are
 * headers {opcode 31:29 (0 incrementing, 2 non-incrementing), count
 * 28:18, subchannel 15:13, method 12:2} and their data
 * (nvhw/class/cl006c.h).  Host methods: cl826f.h; M2MF: cl5039.h and
 * nouveau_bo5039.c.  envytools docs/hw/fifo/ describes the units.
 *
 * What is not modelled: DMA (non-IB) mode and jumps, the runlist (any
 * channel with its bit 31 on runs), engine contexts, other classes'
 * methods (ignored, counted as unimplemented once), M2MF block-linear
 * layouts (copied as pitch, logged) and notifiers.  The guest is hostile:
 * each run is bounded (NV_FIFO_BUDGET words), the rest continues from a
 * host timer, every address goes through memory/bar.c's checked walk, and a
 * fault stops the channel with a guest error logged once.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "../nv-gpu-int.h"

#define NV_FIFO_BUDGET      (1u << 16)  /* words (a copy: per 256 bytes) */
#define NV_FIFO_RESUME_NS   10000       /* the rest of a run */
#define NV_FIFO_POLL_NS     1000000     /* a semaphore acquire's retry */
#define NV_FIFO_COPY_MAX    (64u << 20) /* bytes per BUFFER_NOTIFY */
#define NV_FIFO_IB_LOG2_MAX 20

/* RAMFC words */
#define RAMFC_PUSH_DMA      0x48
#define RAMFC_IB_LO         0x50
#define RAMFC_IB_HI         0x54
#define RAMFC_RAMHT         0x80
#define RAMFC_INST          0x98

/* Host methods (cl826f.h) */
#define M_SET_OBJECT        0x0000
#define M_SEMAPHOREA        0x0010
#define M_SEMAPHOREB        0x0014
#define M_SEMAPHOREC        0x0018
#define M_SEMAPHORED        0x001c
#define   SEM_ACQUIRE       1
#define   SEM_RELEASE       2
#define   SEM_ACQ_GEQ       4
#define M_NON_STALL_INTR    0x0020
#define M_SET_CTXDMA_SEM    0x0060
#define M_HOST_END          0x0100

/* MEMORY_TO_MEMORY_FORMAT (cl5039.h) */
#define CLASS_M2MF          0x5039
#define M2MF_DMA_NOTIFY     0x0180
#define M2MF_DMA_IN         0x0184
#define M2MF_DMA_OUT        0x0188
#define M2MF_SRC_LAYOUT     0x0200
#define M2MF_DST_LAYOUT     0x021c
#define M2MF_OFFSET_IN_HI   0x0238
#define M2MF_OFFSET_OUT_HI  0x023c
#define M2MF_OFFSET_IN      0x030c
#define M2MF_OFFSET_OUT     0x0310
#define M2MF_PITCH_IN       0x0314
#define M2MF_PITCH_OUT      0x0318
#define M2MF_LINE_LENGTH    0x031c
#define M2MF_LINE_COUNT     0x0320
#define M2MF_BUFFER_NOTIFY  0x0328
#define   M2MF_LAYOUT_PITCH 1

static uint32_t fifo_vram32(NvGpu *gpu, uint64_t addr, bool *ok)
{
    uint8_t b[4];

    if (!nv_mem_rw(gpu, 0, addr, b, 4, false)) {
        *ok = false;
        return 0;
    }
    return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

static void chan_fault(NvGpu *gpu, unsigned chid, const char *what,
                       uint64_t a)
{
    NvFifoChan *c = &gpu->fifo.chan[chid];

    c->faulted = true;
    if (!gpu->fifo.fault_logged) {
        gpu->fifo.fault_logged = true;
        gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                     "nv-gpu: PFIFO channel %u stopped: %s (0x%"
                     G_GINT64_MODIFIER "x); logged once", chid, what, a);
    }
}

static void fifo_unimp_once(NvGpu *gpu, unsigned what, const char *fmt,
                            uint32_t a, uint32_t b)
{
    if (!(gpu->fifo.unimp_logged & 1u << what)) {
        gpu->fifo.unimp_logged |= 1u << what;
        gpu_host_log(&gpu->host, GPU_LOG_UNIMP, fmt, a, b);
    }
}

/* The channel's RAMFC and instance; false if it is off or unreadable. */
static bool chan_ramfc(NvGpu *gpu, unsigned chid, uint64_t *ramfc,
                       uint64_t *inst)
{
    uint32_t v = nv_reg_get(gpu, NV_PFIFO_CHAN(chid));
    bool ok = true;

    if (!(v & NV_PFIFO_CHAN_VALID)) {
        return false;
    }
    *ramfc = (uint64_t)(v & NV_PFIFO_CHAN_RAMFC_MASK) << 8;
    *inst = (uint64_t)fifo_vram32(gpu, *ramfc + RAMFC_INST, &ok) << 12;
    return ok;
}

/*
 * The RAMHT entry for @handle: the object's VRAM address and engine.  A
 * linear search of the table (its hash is nouveau's choice, not needed
 * to find an entry), charged to the run's budget: a quarter word per
 * entry.
 */
static bool ramht_find(NvGpu *gpu, uint64_t ramfc, uint64_t inst,
                       uint32_t handle, uint64_t *obj, unsigned *engine,
                       uint32_t *budget)
{
    bool ok = true;
    uint32_t cfg = fifo_vram32(gpu, ramfc + RAMFC_RAMHT, &ok);
    unsigned bits = MIN((cfg >> 27 & 0x1f) + 9, 16u);
    uint64_t ht = inst + ((uint64_t)(cfg & 0x00ffffff) << 4);

    *budget -= MIN(*budget, 1u << bits >> 2);
    for (uint32_t i = 0; ok && i < 1u << bits; i++) {
        if (fifo_vram32(gpu, ht + i * 8, &ok) == handle && ok) {
            uint32_t ctx = fifo_vram32(gpu, ht + i * 8 + 4, &ok);

            *obj = inst + ((uint64_t)(ctx & 0xfffff) << 4);
            *engine = ctx >> 20 & 0xf;
            return ok;
        }
    }
    return false;
}

/* @handle's DMA object as an instance offset >> 4 + 1 (0: none). */
static uint32_t ctxdma_of(NvGpu *gpu, unsigned chid, uint64_t ramfc,
                          uint64_t inst, uint32_t handle, uint32_t *budget)
{
    uint64_t obj;
    unsigned engine;

    if (!ramht_find(gpu, ramfc, inst, handle, &obj, &engine, budget)) {
        chan_fault(gpu, chid, "no RAMHT entry for a handle", handle);
        return 0;
    }
    return ((obj - inst) >> 4) + 1;
}

/* Copy @n bytes between two DMA objects through a bounce buffer. */
static bool fifo_dma_copy(NvGpu *gpu, uint64_t inst, uint64_t din, uint64_t in,
                          uint64_t dout, uint64_t out, uint32_t n)
{
    uint8_t buf[4096];

    while (n) {
        uint32_t k = MIN(n, (uint32_t)sizeof(buf));

        if (nv_dmaobj_rw(gpu, inst, din, in, buf, k, false) ||
            nv_dmaobj_rw(gpu, inst, dout, out, buf, k, true)) {
            return false;
        }
        in += k;
        out += k;
        n -= k;
    }
    return true;
}

static void m2mf_copy(NvGpu *gpu, unsigned chid, uint64_t inst,
                      uint32_t *budget)
{
    NvFifoChan *c = &gpu->fifo.chan[chid];
    uint64_t in = (uint64_t)c->m2mf_in_hi << 32 | c->m2mf_in;
    uint64_t out = (uint64_t)c->m2mf_out_hi << 32 | c->m2mf_out;
    uint64_t total = (uint64_t)c->m2mf_line_len * c->m2mf_line_count;

    if (!c->m2mf_dma_in || !c->m2mf_dma_out || total > NV_FIFO_COPY_MAX) {
        chan_fault(gpu, chid, "M2MF copy without DMA objects or larger "
                   "than 64 MiB", total);
        return;
    }
    if (c->m2mf_layout != (M2MF_LAYOUT_PITCH | M2MF_LAYOUT_PITCH << 1)) {
        fifo_unimp_once(gpu, 0, "nv-gpu: M2MF block-linear layout (0x%x) "
                        "copied as pitch-linear (chid %u)", c->m2mf_layout,
                        chid);
    }
    for (uint32_t l = 0; l < c->m2mf_line_count; l++) {
        if (!fifo_dma_copy(gpu, inst,
                           inst + ((uint64_t)(c->m2mf_dma_in - 1) << 4),
                           in + (uint64_t)l * c->m2mf_pitch_in,
                           inst + ((uint64_t)(c->m2mf_dma_out - 1) << 4),
                           out + (uint64_t)l * c->m2mf_pitch_out,
                           c->m2mf_line_len)) {
            chan_fault(gpu, chid, "M2MF copy fault at line", l);
            return;
        }
    }
    *budget -= MIN(*budget, (uint32_t)(total >> 8));
}

static void m2mf_method(NvGpu *gpu, unsigned chid, uint64_t ramfc,
                        uint64_t inst, uint32_t mthd, uint32_t d,
                        uint32_t *budget)
{
    NvFifoChan *c = &gpu->fifo.chan[chid];

    switch (mthd) {
    case M2MF_DMA_NOTIFY:
        break;                      /* notifiers are not written */
    case M2MF_DMA_IN:
        c->m2mf_dma_in = ctxdma_of(gpu, chid, ramfc, inst, d, budget);
        break;
    case M2MF_DMA_OUT:
        c->m2mf_dma_out = ctxdma_of(gpu, chid, ramfc, inst, d, budget);
        break;
    case M2MF_SRC_LAYOUT:
        c->m2mf_layout = (c->m2mf_layout & ~1u) | (d & 1);
        break;
    case M2MF_DST_LAYOUT:
        c->m2mf_layout = (c->m2mf_layout & ~2u) | (d & 1) << 1;
        break;
    case M2MF_OFFSET_IN_HI:
        c->m2mf_in_hi = d & 0xff;
        break;
    case M2MF_OFFSET_OUT_HI:
        c->m2mf_out_hi = d & 0xff;
        break;
    case M2MF_OFFSET_IN:
        c->m2mf_in = d;
        break;
    case M2MF_OFFSET_OUT:
        c->m2mf_out = d;
        break;
    case M2MF_PITCH_IN:
        c->m2mf_pitch_in = d;
        break;
    case M2MF_PITCH_OUT:
        c->m2mf_pitch_out = d;
        break;
    case M2MF_LINE_LENGTH:
        c->m2mf_line_len = d;
        break;
    case M2MF_LINE_COUNT:
        c->m2mf_line_count = d;
        break;
    case M2MF_BUFFER_NOTIFY:
        m2mf_copy(gpu, chid, inst, budget);
        break;
    default:
        break;                      /* block-linear geometry, FORMAT, NOP */
    }
}

/* The semaphore operation in SEMAPHORED; false: an acquire must wait. */
static bool fifo_semaphore(NvGpu *gpu, unsigned chid, uint64_t inst)
{
    NvFifoChan *c = &gpu->fifo.chan[chid];
    uint64_t off = (uint64_t)c->sem_hi << 32 | c->sem_lo;
    uint64_t dma = inst + ((uint64_t)(c->sem_ctxdma - 1) << 4);
    uint8_t b[4];
    uint32_t v;

    if (!c->sem_ctxdma) {
        chan_fault(gpu, chid, "semaphore without a DMA object", off);
        return true;
    }
    if (c->sem_op == SEM_RELEASE) {
        nv_le32_put(b, c->sem_payload);
        if (nv_dmaobj_rw(gpu, inst, dma, off, b, 4, true)) {
            chan_fault(gpu, chid, "semaphore release fault", off);
        }
        return true;
    }
    if (c->sem_op != SEM_ACQUIRE && c->sem_op != SEM_ACQ_GEQ) {
        chan_fault(gpu, chid, "unknown semaphore operation", c->sem_op);
        return true;
    }
    if (nv_dmaobj_rw(gpu, inst, dma, off, b, 4, false)) {
        chan_fault(gpu, chid, "semaphore acquire fault", off);
        return true;
    }
    v = nv_le32_get(b);
    return c->sem_op == SEM_ACQUIRE ? v == c->sem_payload
                                    : (int32_t)(v - c->sem_payload) >= 0;
}

/* One method; false: the channel waits (a semaphore acquire). */
static bool fifo_method(NvGpu *gpu, unsigned chid, uint64_t ramfc,
                        uint64_t inst, unsigned subc, uint32_t mthd,
                        uint32_t d, uint32_t *budget)
{
    NvFifoChan *c = &gpu->fifo.chan[chid];
    uint64_t obj;
    unsigned engine;
    bool ok = true;

    switch (mthd) {
    case M_SET_OBJECT:
        /*
         * A handle no longer in RAMHT (nouveau frees its M2MF object
         * before idling the channel whose unsent buffer still binds it)
         * leaves the subchannel unbound.  The hardware would raise a
         * CACHE_ERROR interrupt: not modelled.
         */
        if (!ramht_find(gpu, ramfc, inst, d, &obj, &engine, budget)) {
            fifo_unimp_once(gpu, 3, "nv-gpu: PFIFO: SET_OBJECT 0x%08x not in "
                            "RAMHT: subchannel %u unbound", d, subc);
            c->subc_class[subc] = 0;
            return true;
        }
        /* A graphics object's first word holds its class. */
        c->subc_class[subc] = engine == 1 ? fifo_vram32(gpu, obj, &ok) & 0xffff
                                          : 0;
        return true;
    case M_SEMAPHOREA:
        c->sem_hi = d & 0xff;
        return true;
    case M_SEMAPHOREB:
        c->sem_lo = d;
        return true;
    case M_SEMAPHOREC:
        c->sem_payload = d;
        return true;
    case M_SEMAPHORED:
        c->sem_op = d & 7;
        c->sem_waiting = !fifo_semaphore(gpu, chid, inst);
        return !c->sem_waiting;
    case M_NON_STALL_INTR:
        nv_reg_set(gpu, NV_PFIFO_INTR,
                   nv_reg_get(gpu, NV_PFIFO_INTR) | NV_PFIFO_INTR_UEVENT);
        nv_pmc_update_irq(gpu);
        return true;
    case M_SET_CTXDMA_SEM:
        c->sem_ctxdma = ctxdma_of(gpu, chid, ramfc, inst, d, budget);
        return true;
    }
    if (mthd < M_HOST_END) {
        return true;                /* other host methods: nothing to do */
    }
    if (c->subc_class[subc] == CLASS_M2MF) {
        m2mf_method(gpu, chid, ramfc, inst, mthd, d, budget);
    } else {
        fifo_unimp_once(gpu, 1, "nv-gpu: PFIFO: methods of class 0x%04x "
                        "ignored (method 0x%04x)", c->subc_class[subc], mthd);
    }
    return true;
}

/* One push buffer word: a header, or the data of the current one. */
static bool fifo_push_word(NvGpu *gpu, unsigned chid, uint64_t ramfc,
                           uint64_t inst, uint32_t d, uint32_t *budget)
{
    NvFifoChan *c = &gpu->fifo.chan[chid];
    unsigned op = d >> 29;

    if (c->hdr_count) {
        if (!fifo_method(gpu, chid, ramfc, inst, c->hdr_subc, c->hdr_mthd, d,
                         budget)) {
            return false;           /* retried: the word is not consumed */
        }
        c->hdr_count--;
        if (!c->hdr_ninc) {
            c->hdr_mthd = (c->hdr_mthd + 4) & 0x1ffc;
        }
        return true;
    }
    if (op == 0 || op == 2) {
        c->hdr_mthd = d & 0x1ffc;
        c->hdr_subc = d >> 13 & 7;
        c->hdr_count = d >> 18 & 0x7ff;
        c->hdr_ninc = op == 2;
    } else {
        fifo_unimp_once(gpu, 2, "nv-gpu: PFIFO: push buffer word 0x%08x (chid "
                        "%u): only method headers are modelled", d, chid);
    }
    return true;
}

/* Run channel @chid until it is idle, waits, faults or the budget ends. */
static void chan_run(NvGpu *gpu, unsigned chid, uint32_t *budget)
{
    NvFifoChan *c = &gpu->fifo.chan[chid];
    uint64_t ramfc, inst, push, ib;
    uint32_t w54, entries;
    bool ok = true;

    if (c->faulted || !chan_ramfc(gpu, chid, &ramfc, &inst)) {
        return;
    }
    push = inst +
           ((uint64_t)fifo_vram32(gpu, ramfc + RAMFC_PUSH_DMA, &ok) << 4);
    ib = fifo_vram32(gpu, ramfc + RAMFC_IB_LO, &ok);
    w54 = fifo_vram32(gpu, ramfc + RAMFC_IB_HI, &ok);
    ib |= (uint64_t)(w54 & 0xff) << 32;
    entries = 1u << MIN(w54 >> 16 & 0x1f, NV_FIFO_IB_LOG2_MAX);
    if (!ok) {
        chan_fault(gpu, chid, "RAMFC unreadable", ramfc);
        return;
    }
    while (*budget) {
        if (!c->seg_left) {
            uint8_t e[8];
            uint32_t w0, w1;

            if (c->ib_get == (c->ib_put & (entries - 1))) {
                return;             /* idle */
            }
            if (nv_dmaobj_rw(gpu, inst, push, ib + c->ib_get * 8ull, e, 8,
                             false)) {
                chan_fault(gpu, chid, "IB entry unreadable", c->ib_get);
                return;
            }
            w0 = nv_le32_get(e);
            w1 = nv_le32_get(e + 4);
            c->seg_addr = (w0 & ~3u) | (uint64_t)(w1 & 0xff) << 32;
            c->seg_left = w1 >> 10 & 0x1fffff;
            c->ib_get = (c->ib_get + 1) & (entries - 1);
            c->get = c->seg_addr;
            (*budget)--;            /* empty entries cost too */
            continue;
        }
        while (c->seg_left && *budget) {
            uint8_t b[4];

            if (nv_dmaobj_rw(gpu, inst, push, c->seg_addr, b, 4, false)) {
                chan_fault(gpu, chid, "push buffer unreadable", c->seg_addr);
                return;
            }
            if (!fifo_push_word(gpu, chid, ramfc, inst, nv_le32_get(b),
                                budget)) {
                return;             /* waits on a semaphore */
            }
            if (c->faulted) {
                return;
            }
            c->seg_addr += 4;
            c->seg_left--;
            c->get = c->seg_addr;
            *budget -= MIN(*budget, 1u);   /* a method may have spent it */
        }
    }
}

/* Run every channel with work, within one budget; resume later if cut. */
static void fifo_run(NvGpu *gpu)
{
    uint32_t budget = NV_FIFO_BUDGET;
    bool more = false, waits = false;

    for (unsigned chid = 0; chid < NV_PFIFO_CHANS; chid++) {
        NvFifoChan *c = &gpu->fifo.chan[chid];

        chan_run(gpu, chid, &budget);
        if (!c->faulted) {
            waits |= c->sem_waiting;
            more |= !c->sem_waiting && (c->seg_left ||
                                        c->ib_get != c->ib_put);
        }
    }
    /* Cut short: soon; a semaphore to poll: less often. */
    if (more || waits) {
        gpu_host_timer_mod(&gpu->host, gpu->fifo.timer,
                           gpu_host_now_ns(&gpu->host) +
                           (more ? NV_FIFO_RESUME_NS : NV_FIFO_POLL_NS));
    }
}

static void fifo_timer(void *opaque)
{
    fifo_run(opaque);
}

/* ---- the user area ---- */

uint32_t nv_fifo_user_read(NvGpu *gpu, uint32_t offset)
{
    NvFifoChan *c = &gpu->fifo.chan[(offset - NV_USER_BASE) / NV_USER_STRIDE];

    switch (offset % NV_USER_STRIDE) {
    case NV_USER_PUT:
        return c->put;
    case NV_USER_GET:
        return c->get;
    case NV_USER_IB_GET:
        return c->ib_get;
    case NV_USER_IB_PUT:
        return c->ib_put;
    }
    return 0;
}

void nv_fifo_user_write(NvGpu *gpu, uint32_t offset, uint32_t val)
{
    unsigned chid = (offset - NV_USER_BASE) / NV_USER_STRIDE;
    NvFifoChan *c = &gpu->fifo.chan[chid];

    switch (offset % NV_USER_STRIDE) {
    case NV_USER_PUT:
        c->put = val;               /* DMA mode: not modelled */
        break;
    case NV_USER_IB_PUT:
        c->ib_put = val & ((1u << NV_FIFO_IB_LOG2_MAX) - 1);
        fifo_run(gpu);
        break;
    }
}

/* ---- registers ---- */

/* A channel turned on starts from an empty IB and a clean state. */
static void chan_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                       uint32_t offset, uint32_t old, uint32_t val)
{
    if (val & ~old & NV_PFIFO_CHAN_VALID) {
        memset(&gpu->fifo.chan[unit], 0, sizeof(gpu->fifo.chan[unit]));
    }
}

#define PFIFO_REG(nm, acc, ...) NV_REG(nm, 0x002000, acc, __VA_ARGS__)

static const NvReg pfifo_regs[] = {
    PFIFO_REG(PFIFO_UNK044, RW),
    /* INTR & INTR_EN is PFIFO's line into PMC (core/pmc.c reads them). */
    PFIFO_REG(PFIFO_INTR, RW, .wmask = NV_PFIFO_INTR_UEVENT,
              .write = nv_intr_ack_write),
    PFIFO_REG(PFIFO_INTR_EN, RW, .write = nv_intr_en_write),
    PFIFO_REG(PFIFO_CACHES, RW),
    PFIFO_REG(PFIFO_UNK50C, RW),
    PFIFO_REG(PFIFO_UNK520, RW),
    { .name = "PFIFO_CHAN", .offset = NV_PFIFO_CHAN(0) - 0x002000,
      .count = NV_PFIFO_CHANS, .access = GPU_REG_RW, .write = chan_write },
    PFIFO_REG(PFIFO_CACHE1_PUSH0, RW),
    /* No hash lookups are ever busy. */
    PFIFO_REG(PFIFO_CACHE1_PULL0, RW, .wmask = ~NV_PFIFO_PULL0_HASH_BUSY),
    PFIFO_REG(PFIFO_CACHE1_HASH, RW),
    PFIFO_REG(PFIFO_RUNLIST_COUNT, RW),
    PFIFO_REG(PFIFO_RUNLIST_ADDR, RW),
    /* Context unloads are done at once: what was written stays. */
    PFIFO_REG(PFIFO_UNLOAD, RW),
};

const NvRegBlock nv_pfifo_block =
    NV_REG_BLOCK("PFIFO", 0x002000, 0x2000, pfifo_regs);

void nv_fifo_init(NvGpu *gpu)
{
    gpu->fifo.timer = gpu_host_timer_new(&gpu->host, fifo_timer, gpu);
}

void nv_fifo_fini(NvGpu *gpu)
{
    gpu_host_timer_free(&gpu->host, gpu->fifo.timer);
}

void nv_fifo_reset(NvGpu *gpu)
{
    gpu_host_timer_del(&gpu->host, gpu->fifo.timer);
    memset(gpu->fifo.chan, 0, sizeof(gpu->fifo.chan));
    gpu->fifo.fault_logged = false;
    gpu->fifo.unimp_logged = 0;
}

/* Loaded state: indices in range; work left resumes from the timer. */
bool nv_fifo_post_load(NvGpu *gpu, char **err)
{
    for (unsigned i = 0; i < NV_PFIFO_CHANS; i++) {
        NvFifoChan *c = &gpu->fifo.chan[i];

        if (c->hdr_subc > 7 || c->hdr_count > 0x7ff ||
            c->seg_left > 0x1fffff || c->hdr_mthd & ~0x1ffcu ||
            c->ib_get >= 1u << NV_FIFO_IB_LOG2_MAX ||
            c->ib_put >= 1u << NV_FIFO_IB_LOG2_MAX) {
            *err = g_strdup_printf("PFIFO channel %u: parser state out of "
                                   "range", i);
            return false;
        }
    }
    gpu_host_timer_mod(&gpu->host, gpu->fifo.timer,
                       gpu_host_now_ns(&gpu->host) + NV_FIFO_RESUME_NS);
    return true;
}
