/*
 * intel-gpu GPGPU and media pipelines (PRM Vol 2a: Command Reference:
 * Instructions, "MEDIA_VFE_STATE", "MEDIA_INTERFACE_DESCRIPTOR_LOAD",
 * "MEDIA_CURBE_LOAD", "MEDIA_STATE_FLUSH", "GPGPU_WALKER",
 * "MEDIA_OBJECT"; PRM Vol 2d: Command Reference: Structures,
 * "INTERFACE_DESCRIPTOR_DATA"; PRM Vol 7: 3D-Media-GPGPU, "Media GPGPU
 * Pipeline", "Thread Payload").
 *
 * The walkers dispatch real EU threads, one after the other: each runs
 * the kernel its interface descriptor names until it sends EOT (the
 * thread spawner's end of thread) or faults (logged; the thread ends),
 * with intel_sf_send() as its shared functions.  The threads of a group
 * with barriers (Barrier Enable) start together and run in turn, each
 * until it waits at the barrier (media_group_*()).  Each thread's R0.5
 * holds its scratch slot.  A dispatch that does not
 * end within INTEL_GFX_STEP_INSTRUCTIONS returns CS_CONTINUE and resumes
 * where it was (IntelMediaDispatch) at the engine's next step; an endless
 * one keeps the engine busy until i915's hang detection resets it
 * (intel_media_reset()).  A GPGPU walker may be preempted between its
 * thread groups (CS_CONTINUE_ARB) and resumes from the context image.
 *
 * A walker before any MEDIA_INTERFACE_DESCRIPTOR_LOAD has no kernel to
 * run: its threads are counted as the synthetic EU work of intel_gfx_skip(),
 * as before the pipelines executed, so dispatch-only workloads keep
 * loading the EUs the OA unit observes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "gfx-int.h"

/* An interface descriptor as the walkers use it (PRM Vol 2d). */
typedef Gen11_INTERFACE_DESCRIPTOR_DATA Idd;

/* Each thread dispatched costs this many of the step's instructions. */
#define MEDIA_DISPATCH_COST     4

/* What has been logged (IntelMediaState.unimp_logged). */
enum {
    LOGGED_INDIRECT_SHORT = 1u << 1,
    UNIMP_OBJECT_WALKER = 1u << 2,
    LOGGED_GROUP_COUNT = 1u << 3,
    UNIMP_PAYLOAD = 1u << 4,
    UNIMP_OTHER = 1u << 5,
    LOGGED_SCRATCH_HIGH = 1u << 6,
};

static void media_unimp(IntelEngine *e, uint32_t kind, const char *what)
{
    IntelMediaState *m = &e->gfx.media;

    if (!(m->unimp_logged & kind)) {
        m->unimp_logged |= kind;
        gpu_host_log(&e->gpu->host, GPU_LOG_UNIMP,
                     "intel-gpu: media pipeline: %s not implemented", what);
    }
}

static void media_guest_error(IntelEngine *e, const char *what)
{
    gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                 "intel-gpu: media pipeline: %s", what);
}

static int media_vfe_state(IntelEngine *e, const uint32_t *cmd,
                           unsigned len)
{
    IntelMediaState *m = &e->gfx.media;
    Gen11_MEDIA_VFE_STATE v;

    gen11_media_vfe_state_unpack(cmd, len, &v);
    m->scratch = v.scratch_space_base_pointer;
    m->scratch_size = v.per_thread_scratch_space;
    if (m->scratch_size > 11) {
        /* The data port finds no byte of it in bounds (sf-dataport). */
        media_guest_error(e, "reserved Per Thread Scratch Space");
    }
    /*
     * Stack Size: NEO programs the scratch size's encoding in it, Mesa 0.
     * No thread reads it: IGC's stack calls keep their stack in the
     * private memory NEO allocates per hardware thread, and spill to
     * scratch through R0.5.  Traced, not modelled.
     */
    gpu_host_trace(&e->gpu->host, INTEL_TRACE_MEDIA_VFE, m->scratch,
                   m->scratch_size, v.stack_size);
    m->max_threads = v.maximum_number_of_threads + 1;
    m->urb_entries = v.number_of_urb_entries;
    m->urb_entry_size = v.urb_entry_allocation_size;
    m->curbe_size = v.curbe_allocation_size;
    return CS_NEXT;
}

static int media_curbe_load(IntelEngine *e, const uint32_t *cmd,
                            unsigned len)
{
    IntelMediaState *m = &e->gfx.media;
    Gen11_MEDIA_CURBE_LOAD v;
    uint32_t n;

    gen11_media_curbe_load_unpack(cmd, len, &v);
    n = v.curbe_total_data_length;
    if (n > INTEL_MEDIA_CURBE_MAX) {
        media_unimp(e, UNIMP_OTHER, "CURBE beyond 16 KiB");
        n = INTEL_MEDIA_CURBE_MAX;
    }
    memset(m->curbe, 0, sizeof(m->curbe));
    m->curbe_len = 0;
    if (!intel_gfx_read(e, INTEL_GFX_DYNAMIC, v.curbe_data_start_address,
                        m->curbe, n)) {
        return CS_NEXT;
    }
    m->curbe_len = n;
    return CS_NEXT;
}

static int media_idd_load(IntelEngine *e, const uint32_t *cmd, unsigned len)
{
    IntelMediaState *m = &e->gfx.media;
    Gen11_MEDIA_INTERFACE_DESCRIPTOR_LOAD v;
    uint32_t n;

    gen11_media_interface_descriptor_load_unpack(cmd, len, &v);
    n = MIN(v.interface_descriptor_total_length, (uint32_t)sizeof(m->idd)) /
        (INTEL_MEDIA_IDD_DWORDS * 4);
    memset(m->idd, 0, sizeof(m->idd));
    m->idd_count = 0;
    if (!n) {
        media_guest_error(e, "interface descriptor load of no descriptor");
        return CS_NEXT;
    }
    /* The descriptors are 64-byte aligned: the low bits are not used. */
    if (intel_gfx_read(e, INTEL_GFX_DYNAMIC,
                       v.interface_descriptor_data_start_address & ~0x3fu,
                       m->idd, n * INTEL_MEDIA_IDD_DWORDS * 4)) {
        m->idd_count = n;
    }
    for (unsigned i = 0; i < n; i++) {
        for (unsigned j = 0; j < INTEL_MEDIA_IDD_DWORDS; j++) {
            m->idd[i][j] = GUINT32_FROM_LE(m->idd[i][j]);
        }
    }
    return CS_NEXT;
}

/* Interface descriptor @i in @idd; false (and logged) if not loaded. */
static bool media_idd(IntelEngine *e, uint32_t i, Idd *idd)
{
    if (i >= e->gfx.media.idd_count) {
        media_guest_error(e, "interface descriptor offset beyond those loaded");
        return false;
    }
    gen11_interface_descriptor_data_unpack(e->gfx.media.idd[i],
                                           INTEL_MEDIA_IDD_DWORDS, idd);
    return true;
}

/*
 * Thread @fftid's scratch slot, the Scratch Space Pointer of R0.5 bits
 * 31:10 (PRM Vol 7, "Thread Payload"; from the general state base):
 * MEDIA_VFE_STATE's Scratch Space Base Pointer + FFTID x Per Thread
 * Scratch Space.  No scratch space (a base of 0, as Mesa leaves it): 0.
 * A slot the 32 bits cannot hold: 0 (logged).
 */
static uint32_t media_scratch_slot(IntelEngine *e, uint32_t fftid)
{
    const IntelMediaState *m = &e->gfx.media;
    uint64_t slot;

    if (!m->scratch) {
        return 0;
    }
    slot = m->scratch + ((uint64_t)fftid << (10 + m->scratch_size));
    if (slot > UINT32_MAX) {
        if (!(m->unimp_logged & LOGGED_SCRATCH_HIGH)) {
            e->gfx.media.unimp_logged |= LOGGED_SCRATCH_HIGH;
            media_guest_error(e, "scratch slot beyond 4 GiB of the general "
                              "state base (none)");
        }
        return 0;
    }
    return slot & ~0x3ffu;
}

/*
 * The R0 header the thread spawner gives each thread (PRM Vol 7, "Thread
 * Payload"): the group's IDs in x (dw1), y (dw6) and z (dw7), the
 * interface descriptor offset and barrier ID (@dw2: bits 30:24, Gen11;
 * Mesa masks R0.2 with 0x7f000000), the sampler state pointer and Per
 * Thread Scratch Space (dw3, bits 3:0), the binding table pointer (dw4),
 * the scratch slot and FFTID (dw5).  The FFTID is the thread's place in
 * its group, within Maximum Number of Threads: no two threads in flight
 * share a scratch slot.
 */
static void media_r0(IntelEngine *e, EuThread *t, const Idd *idd,
                     uint32_t dw2, uint32_t gx, uint32_t gy, uint32_t gz,
                     uint32_t tid)
{
    const IntelMediaState *m = &e->gfx.media;
    uint32_t fftid = m->max_threads ? tid % m->max_threads : tid;
    uint32_t r0[8] = {
        0, gx, dw2, idd->sampler_state_pointer | (m->scratch_size & 0xf),
        idd->binding_table_pointer,
        media_scratch_slot(e, fftid) | (fftid & 0x3ff), gy, gz,
    };

    for (unsigned i = 0; i < 8; i++) {
        r0[i] = GUINT32_TO_LE(r0[i]);
    }
    memcpy(t->grf, r0, sizeof(r0));
}

/*
 * Copy @len bytes of @src to the payload registers from @*reg on, whole
 * registers, zero-padded; false if they do not fit in the GRF.
 */
static bool media_payload(EuThread *t, unsigned *reg, const void *src,
                          size_t len)
{
    size_t regs = (len + EU_GRF_BYTES - 1) / EU_GRF_BYTES;

    if (*reg + regs > EU_GRF_COUNT) {
        return false;
    }
    memset(t->grf + *reg * EU_GRF_BYTES, 0, regs * EU_GRF_BYTES);
    memcpy(t->grf + *reg * EU_GRF_BYTES, src, len);
    *reg += regs;
    return true;
}

/* @regs registers of CURBE from register @from (zeros past what was loaded). */
static bool media_curbe_payload(IntelEngine *e, EuThread *t, unsigned *reg,
                                uint64_t from, uint64_t regs)
{
    uint64_t off = from * EU_GRF_BYTES, len = regs * EU_GRF_BYTES;

    if (*reg + regs > EU_GRF_COUNT) {
        return false;
    }
    memset(t->grf + *reg * EU_GRF_BYTES, 0, len);
    if (off < INTEL_MEDIA_CURBE_MAX) {
        memcpy(t->grf + *reg * EU_GRF_BYTES, e->gfx.media.curbe + off,
               MIN(len, INTEL_MEDIA_CURBE_MAX - off));
    }
    *reg += regs;
    return true;
}

/*
 * @regs registers of a GPGPU_WALKER's indirect data from register @from
 * (its bytes at the indirect object base + Indirect Data Start Address).
 * Past Indirect Data Length the hardware fetched nothing: zeros, logged
 * once.  False if they do not fit in the GRF or a page does not translate
 * (the fault reported).
 */
static bool media_indirect_payload(IntelEngine *e, EuThread *t,
                                   unsigned *reg, uint64_t from,
                                   uint64_t regs)
{
    const IntelMediaDispatch *d = &e->gfx.media.run;
    uint64_t off = from * EU_GRF_BYTES, len = regs * EU_GRF_BYTES, n;
    uint8_t *dst = t->grf + *reg * EU_GRF_BYTES;

    if (*reg + regs > EU_GRF_COUNT) {
        return false;
    }
    memset(dst, 0, len);
    n = off < d->indirect_len ? MIN(len, d->indirect_len - off) : 0;
    if (n < len && !(e->gfx.media.unimp_logged & LOGGED_INDIRECT_SHORT)) {
        e->gfx.media.unimp_logged |= LOGGED_INDIRECT_SHORT;
        media_guest_error(e, "GPGPU_WALKER payload beyond its indirect data "
                          "length (zeros)");
    }
    if (n && !intel_gfx_read(e, INTEL_GFX_INDIRECT, d->indirect_start + off,
                             dst, n)) {
        return false;
    }
    *reg += regs;
    return true;
}

/*
 * The kernel of interface descriptor @idd, decoded once for the step;
 * NULL if it cannot be fetched (a page fault, reported).
 */
static EuProgram *media_program(IntelEngine *e, const Idd *idd)
{
    IntelGfxKernel k;
    EuProgram *p;

    if (!intel_gfx_kernel_load(e, idd->kernel_start_pointer,
                               INTEL_GFX_COMPUTE_KERNEL_MAX, &k)) {
        media_guest_error(e, "kernel not mapped");
        return NULL;
    }
    p = eu_program_new(k.code, k.size);
    intel_gfx_kernel_free(&k);
    return p;
}

/*
 * The bytes of shared local memory a thread group of @idd has (PRM Vol
 * 2d, INTERFACE_DESCRIPTOR_DATA "Shared Local Memory Size", Gen9+: 0 none,
 * 1 1 KiB, 2 2 KiB, ... 7 64 KiB); a reserved encoding gives none
 * (media_gpgpu_walker() logs it).
 */
static uint32_t media_slm_size(const Idd *idd)
{
    uint32_t enc = idd->shared_local_memory_size;

    return enc && enc <= 7 ? 512u << enc : 0;
}

/* The channels of thread @tid of a GPGPU_WALKER's group. */
static uint32_t walker_exec_mask(const IntelMediaDispatch *d, uint32_t tid)
{
    uint32_t mask = d->simd == 32 ? ~0u : (1u << d->simd) - 1;

    if (tid % d->tw == d->tw - 1) {
        mask &= d->right_mask;
    }
    if (tid / d->tw % d->th == d->th - 1) {
        mask &= d->bottom_mask;
    }
    return mask;
}

/*
 * The barrier ID of the walker's group (R0.2 bits 30:24): one group runs
 * at a time, and the model's IDs go round 16 with the group's place, so
 * that a kernel that does not take its ID from R0.2 misses its barrier
 * as it would on the hardware.  A group without barriers has none: 0.
 */
static uint32_t walker_barrier_id(const IntelMediaDispatch *d,
                                  const Idd *idd)
{
    if (!idd->barrier_enable) {
        return 0;
    }
    return ((d->z * d->ydim + d->y) * d->xdim + d->x) & 0xf;
}

/* Start the walker's next thread (d->tid) in @t; false if its payload
 * does not fit (logged; it is not dispatched). */
static bool walker_thread_start(IntelEngine *e, IntelMediaDispatch *d,
                                const Idd *idd, EuProgram *p, EuThread *t)
{
    unsigned reg = 1;
    uint64_t cross = idd->cross_thread_constant_data_read_length;
    uint64_t per = idd->constant_urb_entry_read_length;
    uint64_t own = cross + d->tid * per;
    bool ok;

    /*
     * A new group's shared local memory: undefined on the hardware; zero
     * here, so no value crosses from one group or context to another.
     */
    if (!d->tid) {
        memset(e->gfx.media.slm, 0, media_slm_size(idd));
    }
    eu_thread_init_program(t, p, walker_exec_mask(d, d->tid), intel_sf_send,
                           NULL);
    media_r0(e, t, idd, d->idd | walker_barrier_id(d, idd) << 24, d->x, d->y,
             d->z, d->tid);
    /*
     * From the indirect data when the walker has some, as Intel's compute
     * runtime lays it out in memory: the cross-thread data, then each
     * thread's (its local IDs), the same for every group (NEO
     * gpgpu_walker_base.inl: Indirect Data Length = cross-thread size +
     * threads per group x per-thread size).  In the thread's registers
     * the thread's own data comes first, then the cross-thread data: the
     * order IGC compiles kernels of indirect input for (intel-graphics-
     * compiler KernelArgs.cpp, KernelArgsOrder InputType::INDIRECT; its
     * Gen11 kernels read their local IDs from R1).  Else from the CURBE,
     * cross-thread data first (PRM Vol 7, "CURBE"), as Mesa's anv and
     * iris load it (MEDIA_CURBE_LOAD).
     */
    if (reg + cross + per > EU_GRF_COUNT) {
        media_unimp(e, UNIMP_PAYLOAD, "a payload beyond the GRF");
        return false;
    }
    if (d->indirect_len) {
        /* A page that does not translate: reported, not dispatched. */
        ok = media_indirect_payload(e, t, &reg, own, per) &&
             media_indirect_payload(e, t, &reg, 0, cross);
    } else {
        ok = media_curbe_payload(e, t, &reg, 0, cross) &&
             media_curbe_payload(e, t, &reg, own, per);
    }
    return ok;
}

/* Move to the walker's next thread; false when there is none. */
static bool walker_advance(IntelMediaDispatch *d)
{
    if (++d->tid < d->tw * d->th * d->td) {
        return true;
    }
    d->tid = 0;
    if (++d->x < d->xdim) {
        return true;
    }
    d->x = d->x0;
    if (++d->y < d->ydim) {
        return true;
    }
    d->y = d->y0;
    return ++d->z < d->zdim;
}

/*
 * A walker whose groups have barriers and more threads than one subslice
 * holds, 64 (the hardware's limit; the model's group array).  Checked at
 * each step too: a context image the guest wrote may restore such a
 * walker with such a descriptor.
 */
static bool media_group_oversize(const IntelMediaDispatch *d, const Idd *idd)
{
    return d->kind == INTEL_MEDIA_GPGPU_WALKER && idd->barrier_enable &&
           d->tw * d->th * d->td > INTEL_MEDIA_GROUP_MAX;
}

/* A thread of the dispatch resumes on the program fetched for the step. */
static void media_thread_resume(EuThread *t, EuProgram *p,
                                IntelSfThread *sft)
{
    t->prog = p;
    t->code = NULL;
    t->code_size = eu_program_size(p);
    t->send = intel_sf_send;
    t->send_opaque = sft;
}

/*
 * No thread of the dispatch can run again: the hardware's would hang
 * there until i915's hang detection resets the engine; so does the
 * model's, logged once, and no step does work for it.
 */
static void media_stuck(IntelEngine *e, const char *why)
{
    e->gfx.media.run.stuck = true;
    media_guest_error(e, why);
}

void intel_media_group_alloc(IntelMediaState *m)
{
    if (!m->group) {
        m->group = g_new0(EuThread, INTEL_MEDIA_GROUP_MAX);
    }
}

/*
 * The barrier messages that meet the group's barrier: the interface
 * descriptor's Number of Threads in GPGPU Thread Group, which the
 * hardware counts; one that is not the walker's group size is logged,
 * and 0 or one past the group counts the group's threads.
 */
static uint32_t media_group_count(IntelEngine *e, const Idd *idd,
                                  uint32_t n)
{
    IntelMediaState *m = &e->gfx.media;
    uint32_t c = idd->number_of_threads_in_gpgpu_thread_group;

    if (c != n && !(m->unimp_logged & LOGGED_GROUP_COUNT)) {
        m->unimp_logged |= LOGGED_GROUP_COUNT;
        media_guest_error(e, "Number of Threads in GPGPU Thread Group is "
                          "not the walker's threads per group");
    }
    return c && c <= INTEL_MEDIA_GROUP_MAX ? c : n;
}

/*
 * Start every thread of the walker's group (a group with barriers) at
 * once, as the hardware dispatches a whole group to one subslice for its
 * barrier and shared local memory; false if none could start.
 */
static bool media_group_start(IntelEngine *e, const Idd *idd, EuProgram *p,
                              int64_t *budget)
{
    IntelMediaState *m = &e->gfx.media;
    IntelMediaDispatch *d = &m->run;
    uint32_t n = d->tw * d->th * d->td;

    intel_media_group_alloc(m);
    d->live = 0;
    d->cur = 0;
    d->arrived = 0;
    for (d->tid = 0; d->tid < n; d->tid++) {
        *budget -= MEDIA_DISPATCH_COST;
        e->stats.gpgpu_threads++;
        if (walker_thread_start(e, d, idd, p, &m->group[d->tid])) {
            d->live |= 1ull << d->tid;
        }
    }
    d->tid = n - 1;             /* walker_advance() goes to the next group */
    m->group_n = d->live ? n : 0;
    return d->live != 0;
}

/* The next thread of the group that can run, from d->cur on; -1: none. */
static int media_group_next(const IntelMediaState *m)
{
    const IntelMediaDispatch *d = &m->run;

    for (int32_t k = 0; k < m->group_n; k++) {
        uint32_t i = (d->cur + k) % m->group_n;
        const EuThread *t = &m->group[i];

        if (((d->live >> i) & 1) && (t->status != EU_WAIT_NOTIFY ||
                                     t->notify[t->notify_wait & 1])) {
            return i;
        }
    }
    return -1;
}

/*
 * @msgs more barrier messages: each time they reach @count the barrier
 * is met and the gateway notifies the group's threads (n0.0), which ends
 * the wait each thread has after its message (PRM Vol 7, "Message
 * Gateway": BarrierMsg).  A thread that ended does not count, nor is it
 * waited for: it never sends its message, and the others wait on (Xe2
 * added a barrier of the active threads only; Mesa asks for it there).
 */
static void media_group_barrier(IntelMediaState *m, uint32_t count,
                                uint32_t msgs)
{
    IntelMediaDispatch *d = &m->run;

    d->arrived += msgs;
    while (d->arrived >= count) {
        d->arrived -= count;
        for (int32_t i = 0; i < m->group_n; i++) {
            m->group[i].notify[0] += (d->live >> i) & 1;
        }
    }
}

/*
 * Run the group's threads in turn, each until it waits for its barrier,
 * ends or uses up the step's instructions: true when all have ended.
 */
static bool media_group_run(IntelEngine *e, const Idd *idd, EuProgram *p,
                            IntelSfThread *sft, int64_t *budget)
{
    IntelMediaState *m = &e->gfx.media;
    IntelMediaDispatch *d = &m->run;
    uint32_t count = media_group_count(e, idd, m->group_n);

    sft->barrier = true;
    sft->barrier_id = walker_barrier_id(d, idd);
    while (*budget > 0 && d->live) {
        int i = media_group_next(m);
        uint32_t msgs = sft->barrier_msgs;
        EuThread *t;
        uint64_t before;

        if (i < 0) {
            media_stuck(e, "thread group waits at a barrier its ended "
                        "threads never reach: it hangs");
            return false;
        }
        t = &m->group[i];
        media_thread_resume(t, p, sft);
        before = t->retired;
        switch (intel_gfx_thread_run(e, t, INTEL_EU_TS, MAX(*budget, 1))) {
        case EU_RUNNING:
        case EU_BUDGET:
        case EU_WAIT_SEND:
            d->cur = i;
            break;
        case EU_WAIT_NOTIFY:
            d->cur = (i + 1) % m->group_n;
            break;
        default:                        /* EOT, or a fault (logged) */
            d->live &= ~(1ull << i);
            d->cur = (i + 1) % m->group_n;
            break;
        }
        *budget -= MAX(t->retired - before, 1);
        media_group_barrier(m, count, sft->barrier_msgs - msgs);
    }
    if (d->live) {
        return false;
    }
    m->group_n = 0;
    return true;
}

/*
 * A walker of groups with barriers: start the next group, run it.  -1:
 * the step is over with the group mid-run (or hung); 0: the group ended
 * and another follows; 1: the walker is done.
 */
static int media_group_step(IntelEngine *e, const Idd *idd, EuProgram *p,
                            IntelSfThread *sft, int64_t *budget)
{
    IntelMediaDispatch *d = &e->gfx.media.run;

    if (!d->running) {
        d->running = media_group_start(e, idd, p, budget);
    }
    if (d->running && !media_group_run(e, idd, p, sft, budget)) {
        return -1;
    }
    d->running = false;
    return walker_advance(d) ? 0 : 1;
}

/*
 * A walker between two thread groups with a new execlist waiting: an
 * arbitration point, as the hardware preempts a GPGPU walker at a thread
 * group boundary at the preemption level CS_CHICKEN1 selects (i915 selects
 * thread group on Gen11: WaDisableGPGPUMidThreadPreemption,
 * gt/intel_workarounds.c).  Mid-thread, the reset level, preempts there
 * too (the model keeps no thread in the image); command level not at all.
 */
static bool media_preempt_point(IntelEngine *e)
{
    const IntelMediaDispatch *d = &e->gfx.media.run;
    uint32_t chicken = intel_reg_get(e->gpu, INTEL_CS_CHICKEN1);

    return d->kind == INTEL_MEDIA_GPGPU_WALKER && !d->running && !d->tid &&
           intel_engine_preempt_pending(e) &&
           GPU_FIELD_EX32(chicken, INTEL_CS_CHICKEN1, PREEMPT_GPGPU_LEVEL) !=
           INTEL_PREEMPT_GPGPU_COMMAND;
}

/*
 * Run the dispatch in progress for at most a step's instructions: the
 * thread mid-run, then the next ones (a group with barriers: all its
 * threads in turn).  CS_NEXT when it is over.  At a preemption point the
 * step ends, and the next one preempts.
 */
static int media_dispatch_run(IntelEngine *e)
{
    IntelMediaDispatch *d = &e->gfx.media.run;
    int64_t budget = INTEL_GFX_STEP_INSTRUCTIONS;
    IntelSfThread sft;
    IntelSfStats stats = { 0 };
    EuProgram *p;
    Idd idd;
    int r = CS_CONTINUE, g;

    if (d->stuck) {
        return CS_CONTINUE;             /* hung until an engine reset */
    }
    p = media_idd(e, d->idd, &idd) ? media_program(e, &idd) : NULL;
    if (!p || media_group_oversize(d, &idd)) {
        d->kind = INTEL_MEDIA_IDLE;
        d->running = false;
        e->gfx.media.group_n = 0;
        if (!p) {
            return CS_NEXT;
        }
        /* A restored descriptor gained Barrier Enable under the walker. */
        eu_program_unref(p);
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION, "GPGPU_WALKER: thread "
                           "group with barriers of more than 64 threads");
        return CS_STOP;
    }
    intel_gfx_sf_thread_init(e, &sft, idd.binding_table_pointer,
                             idd.sampler_state_pointer, d->simd, &stats);
    if (d->kind == INTEL_MEDIA_GPGPU_WALKER) {
        sft.slm = e->gfx.media.slm;
        sft.slm_size = media_slm_size(&idd);
    }
    while (budget > 0 && !d->stuck) {
        EuThread *t = &d->thread;
        uint64_t before;

        if (d->kind == INTEL_MEDIA_GPGPU_WALKER && idd.barrier_enable) {
            g = media_group_step(e, &idd, p, &sft, &budget);
            if (g) {
                r = g > 0 ? CS_NEXT : r;
                break;
            }
            if (media_preempt_point(e)) {
                break;
            }
            continue;
        }
        if (!d->running) {
            if (d->kind != INTEL_MEDIA_GPGPU_WALKER) {
                r = CS_NEXT;            /* a MEDIA_OBJECT's one thread */
                break;
            }
            budget -= MEDIA_DISPATCH_COST;
            e->stats.gpgpu_threads++;
            d->running = walker_thread_start(e, d, &idd, p, t);
            if (!d->running) {
                if (!walker_advance(d)) {
                    r = CS_NEXT;
                    break;
                }
                continue;
            }
        }
        media_thread_resume(t, p, &sft);
        before = t->retired;
        /* A thread dispatched on the step's last units runs one. */
        switch (intel_gfx_thread_run(e, t, INTEL_EU_TS, MAX(budget, 1))) {
        case EU_RUNNING:
        case EU_BUDGET:
        case EU_WAIT_SEND:
            break;
        case EU_WAIT_NOTIFY:
            /* Only a group's barrier notifies, and it has none. */
            media_stuck(e, "thread waits for a notification without a "
                        "barrier to send it: it hangs");
            break;
        default:                        /* EOT, or a fault (logged) */
            d->running = false;
            break;
        }
        budget -= MAX(t->retired - before, 1);
        if (!d->running &&
            (d->kind != INTEL_MEDIA_GPGPU_WALKER || !walker_advance(d))) {
            r = CS_NEXT;
            break;
        }
        if (media_preempt_point(e)) {
            break;
        }
    }
    eu_program_unref(p);
    if (r == CS_NEXT) {
        d->kind = INTEL_MEDIA_IDLE;
        d->running = false;
    }
    return r;
}

static int media_gpgpu_walker(IntelEngine *e, const CsCmd *c,
                              const uint32_t *cmd, unsigned len)
{
    IntelMediaDispatch *d = &e->gfx.media.run;
    static const uint8_t simd[4] = { 8, 16, 32, 0 };
    Gen11_GPGPU_WALKER w;
    Idd idd;

    if (!e->gfx.media.idd_count) {
        return intel_gfx_skip(e, c, cmd, len);
    }
    e->stats.walkers++;
    e->stats.cmds_3d++;
    gen11_gpgpu_walker_unpack(cmd, len, &w);
    if (!media_idd(e, w.interface_descriptor_offset, &idd)) {
        return CS_NEXT;
    }
    if (idd.shared_local_memory_size > 7) {
        media_guest_error(e, "reserved shared local memory size: none");
    }
    *d = (IntelMediaDispatch) {
        .kind = INTEL_MEDIA_GPGPU_WALKER,
        .idd = w.interface_descriptor_offset,
        .simd = simd[w.simd_size],
        .tw = w.thread_width_counter_maximum + 1,
        .th = w.thread_height_counter_maximum + 1,
        .td = w.thread_depth_counter_maximum + 1,
        .x0 = w.thread_group_id_starting_x,
        .xdim = w.thread_group_id_x_dimension,
        .y0 = w.thread_group_id_starting_y,
        .ydim = w.thread_group_id_y_dimension,
        .zdim = w.thread_group_id_z_dimension,
        .right_mask = w.right_execution_mask,
        .bottom_mask = w.bottom_execution_mask,
        .x = w.thread_group_id_starting_x,
        .y = w.thread_group_id_starting_y,
        .z = w.thread_group_id_starting_resume_z,
        .indirect_start = w.indirect_data_start_address,
        .indirect_len = w.indirect_data_length,
    };
    if (!d->simd) {
        media_guest_error(e, "GPGPU_WALKER of reserved SIMD size");
        d->kind = INTEL_MEDIA_IDLE;
        return CS_NEXT;
    }
    /*
     * A group with barriers runs on one subslice, at most 64 threads
     * (Number of Threads in GPGPU Thread Group, PRM Vol 2d,
     * INTERFACE_DESCRIPTOR_DATA).  Past that the hardware's behaviour is
     * not defined: refused as a command with a reserved value is, an
     * instruction error that halts the engine until i915 resets it.
     */
    if (media_group_oversize(d, &idd)) {
        d->kind = INTEL_MEDIA_IDLE;
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION, "GPGPU_WALKER: thread "
                           "group with barriers of more than 64 threads");
        return CS_STOP;
    }
    if (d->x >= d->xdim || d->y >= d->ydim || d->z >= d->zdim) {
        d->kind = INTEL_MEDIA_IDLE;     /* no thread group */
        return CS_NEXT;
    }
    return media_dispatch_run(e);
}

/* MEDIA_OBJECT: one thread, its CURBE, indirect and inline data. */
static int media_object(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                        unsigned len)
{
    IntelMediaDispatch *d = &e->gfx.media.run;
    const unsigned inline_dw = GEN11_MEDIA_OBJECT_INLINE_DATA_DW;
    Gen11_MEDIA_OBJECT mo;
    EuProgram *p;
    unsigned reg = 1;
    Idd idd;
    bool fits;

    if (!e->gfx.media.idd_count) {
        return intel_gfx_skip(e, c, cmd, len);
    }
    e->stats.walkers++;
    e->stats.cmds_3d++;
    e->stats.gpgpu_threads++;
    gen11_media_object_unpack(cmd, len, &mo);
    p = media_idd(e, mo.interface_descriptor_offset, &idd) ?
        media_program(e, &idd) : NULL;
    if (!p) {
        return CS_NEXT;
    }
    *d = (IntelMediaDispatch) {
        .kind = INTEL_MEDIA_OBJECT,
        .idd = mo.interface_descriptor_offset,
        .simd = 16,
        .running = true,
    };
    eu_thread_init_program(&d->thread, p, 0xffff, intel_sf_send, NULL);
    media_r0(e, &d->thread, &idd, d->idd, 0, 0, 0, 0);
    fits = media_curbe_payload(e, &d->thread, &reg,
                               idd.constant_urb_entry_read_offset,
                               idd.constant_urb_entry_read_length);
    if (fits && mo.indirect_data_length) {
        size_t n = MIN(mo.indirect_data_length,
                       (EU_GRF_COUNT - reg) * EU_GRF_BYTES);
        uint8_t *buf = g_malloc0(n);

        if (!intel_gfx_read(e, INTEL_GFX_INDIRECT,
                            mo.indirect_data_start_address, buf, n)) {
            fits = false;
        } else {
            fits = n == mo.indirect_data_length &&
                   media_payload(&d->thread, &reg, buf, n);
        }
        g_free(buf);
    }
    if (fits && len > inline_dw) {
        uint32_t inl[INTEL_MEDIA_INLINE_MAX] = { 0 };
        unsigned n = MIN(len - inline_dw, INTEL_MEDIA_INLINE_MAX);

        for (unsigned i = 0; i < n; i++) {
            inl[i] = GUINT32_TO_LE(cmd[inline_dw + i]);
        }
        fits = n == len - inline_dw &&
               media_payload(&d->thread, &reg, inl, n * 4);
    }
    eu_program_unref(p);
    if (!fits) {
        media_unimp(e, UNIMP_PAYLOAD, "a payload beyond the GRF");
        d->kind = INTEL_MEDIA_IDLE;
        d->running = false;
        return CS_NEXT;
    }
    return media_dispatch_run(e);
}

/* The commands executed, and the dwords they need at least. */
static const struct {
    uint32_t op;
    uint8_t len;
    const char *too_short;
} media_cmds[] = {
#define MEDIA_CMD(name, dwords) \
    { GEN11_##name##_HEADER, GEN11_##name##_LENGTH, \
      #name " shorter than " #dwords " dwords" }
    MEDIA_CMD(MEDIA_VFE_STATE, 9),
    MEDIA_CMD(MEDIA_CURBE_LOAD, 4),
    MEDIA_CMD(MEDIA_INTERFACE_DESCRIPTOR_LOAD, 4),
    MEDIA_CMD(GPGPU_WALKER, 15),
    MEDIA_CMD(MEDIA_OBJECT, 6),
#undef MEDIA_CMD
};

int intel_media_cmd(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                    unsigned len)
{
    uint32_t op = cmd[0] & GFXPIPE_OPCODE_MASK;

    /*
     * The command streamer calls a dispatch in progress again; preempted
     * before the step's work, the walker resumes when its context runs
     * again, its position in the context image.
     */
    if (e->gfx.media.run.kind != INTEL_MEDIA_IDLE) {
        return media_preempt_point(e) ? CS_CONTINUE_ARB
                                      : media_dispatch_run(e);
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(media_cmds); i++) {
        if (op == media_cmds[i].op && len < media_cmds[i].len) {
            intel_engine_error(e, INTEL_ERROR_INSTRUCTION,
                               media_cmds[i].too_short);
            return CS_STOP;
        }
    }
    switch (op) {
    case GEN11_MEDIA_VFE_STATE_HEADER:
        return media_vfe_state(e, cmd, len);
    case GEN11_MEDIA_CURBE_LOAD_HEADER:
        return media_curbe_load(e, cmd, len);
    case GEN11_MEDIA_INTERFACE_DESCRIPTOR_LOAD_HEADER:
        return media_idd_load(e, cmd, len);
    case GEN11_MEDIA_STATE_FLUSH_HEADER:
        /* Every thread has ended when its command retires. */
        return CS_NEXT;
    case GEN11_GPGPU_WALKER_HEADER:
        return media_gpgpu_walker(e, c, cmd, len);
    case GEN11_MEDIA_OBJECT_HEADER:
        return media_object(e, c, cmd, len);
    case GEN11_MEDIA_OBJECT_WALKER_HEADER:
        media_unimp(e, UNIMP_OBJECT_WALKER, "MEDIA_OBJECT_WALKER");
        break;
    default:
        media_unimp(e, UNIMP_OTHER, "a media command");
        break;
    }
    return intel_gfx_skip(e, c, cmd, len);
}

void intel_media_reset(IntelEngine *e)
{
    EuThread *group = e->gfx.media.group;

    memset(&e->gfx.media, 0, sizeof(e->gfx.media));
    e->gfx.media.group = group;
}

void intel_media_fini(IntelEngine *e)
{
    g_free(e->gfx.media.group);
    e->gfx.media.group = NULL;
}
