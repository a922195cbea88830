/*
 * intel-gpu render engine pipelines: routing of the GFXPIPE commands, the
 * state every pipeline shares, kernels and EU threads (PRM Vol 2a:
 * Command Reference: Instructions, "STATE_BASE_ADDRESS",
 * "PIPELINE_SELECT", "STATE_SIP"; PRM Vol 7: 3D-Media-GPGPU, "Thread
 * Dispatch").
 *
 * The pipelines' state is the running context's: in execlists mode a
 * switch of the render engine's context saves it in the context image
 * and loads the next context's (intel_gfx_context_save(), ctx-image.h),
 * as the hardware does, so runtimes that program their invariant state
 * once per context (Mesa, Intel's compute runtime) find it again.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>
#include "gfx-int.h"

/* Set a base (and its size, in 4 KiB pages) where its Modify Enable is. */
static void gfx_base_set(IntelGfxBase *b, bool modify, uint64_t addr,
                         bool size_modify, uint32_t pages)
{
    if (modify) {
        b->addr = intel_gfx_va(addr);
    }
    if (size_modify) {
        b->size = pages * 4096;
    }
}

/*
 * STATE_BASE_ADDRESS of 16 dwords (Gen8), 19 (Gen9: the bindless surface
 * base) or 22 (Gen11: the bindless sampler base); what a shorter command
 * lacks reads as 0, its Modify Enables clear.  The bindless sizes have no
 * Modify Enable of their own: they change with their base.
 */
static int gfx_state_base_address(IntelEngine *e, const uint32_t *cmd,
                                  unsigned len)
{
    IntelGfxBase *b = e->gfx.base;
    Gen11_STATE_BASE_ADDRESS s;

    if (len < 16) {
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION,
                           "STATE_BASE_ADDRESS shorter than 16 dwords");
        return CS_STOP;
    }
    gen11_state_base_address_unpack(cmd, len, &s);
    gfx_base_set(&b[INTEL_GFX_GENERAL],
                 s.general_state_base_address_modify_enable,
                 s.general_state_base_address,
                 s.general_state_buffer_size_modify_enable,
                 s.general_state_buffer_size);
    gfx_base_set(&b[INTEL_GFX_SURFACE],
                 s.surface_state_base_address_modify_enable,
                 s.surface_state_base_address, false, 0);
    gfx_base_set(&b[INTEL_GFX_DYNAMIC],
                 s.dynamic_state_base_address_modify_enable,
                 s.dynamic_state_base_address,
                 s.dynamic_state_buffer_size_modify_enable,
                 s.dynamic_state_buffer_size);
    gfx_base_set(&b[INTEL_GFX_INDIRECT],
                 s.indirect_object_base_address_modify_enable,
                 s.indirect_object_base_address,
                 s.indirect_object_buffer_size_modify_enable,
                 s.indirect_object_buffer_size);
    gfx_base_set(&b[INTEL_GFX_INSTRUCTION],
                 s.instruction_base_address_modify_enable,
                 s.instruction_base_address,
                 s.instruction_buffer_size_modify_enable,
                 s.instruction_buffer_size);
    gfx_base_set(&b[INTEL_GFX_BINDLESS_SURFACE],
                 s.bindless_surface_state_base_address_modify_enable,
                 s.bindless_surface_state_base_address,
                 s.bindless_surface_state_base_address_modify_enable,
                 s.bindless_surface_state_size);
    gfx_base_set(&b[INTEL_GFX_BINDLESS_SAMPLER],
                 s.bindless_sampler_state_base_address_modify_enable,
                 s.bindless_sampler_state_base_address,
                 s.bindless_sampler_state_base_address_modify_enable,
                 s.bindless_sampler_state_buffer_size);
    return CS_NEXT;
}

static int gfx_binding_table_pool(IntelEngine *e, const uint32_t *cmd,
                                  unsigned len)
{
    Gen11_3DSTATE_BINDING_TABLE_POOL_ALLOC p;

    gen11_3dstate_binding_table_pool_alloc_unpack(cmd, len, &p);
    e->gfx.bt_pool_enable = p.binding_table_pool_enable;
    gfx_base_set(&e->gfx.base[INTEL_GFX_BINDING_TABLE_POOL], true,
                 p.binding_table_pool_base_address, true,
                 p.binding_table_pool_buffer_size);
    return CS_NEXT;
}

static int gfx_pipeline_select(IntelEngine *e, const uint32_t *cmd)
{
    Gen11_PIPELINE_SELECT ps;
    uint32_t mask, sel;

    /* Mask Bits 9:8, its low two, enable the writes of the selection. */
    gen11_pipeline_select_unpack(cmd, 1, &ps);
    mask = ps.mask_bits & 3;
    sel = (e->gfx.pipeline & ~mask) | (ps.pipeline_selection & mask);
    if (sel > PIPELINE_SELECT_GPGPU) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "intel-gpu: PIPELINE_SELECT of reserved pipeline %u",
                     sel);
        return CS_NEXT;
    }
    e->gfx.pipeline = sel;
    return CS_NEXT;
}

/* Every GFXPIPE command but PIPE_CONTROL. */
int intel_gfx_cmd(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                  unsigned len)
{
    uint32_t op = cmd[0] & GFXPIPE_OPCODE_MASK;

    if (e->id != INTEL_RCS0) {
        return intel_gfx_skip(e, c, cmd, len);
    }
    switch (GFXPIPE_SUBTYPE(cmd[0])) {
    case GFXPIPE_COMMON:
        if (op == GEN11_STATE_BASE_ADDRESS_HEADER) {
            return gfx_state_base_address(e, cmd, len);
        }
        if (op == GEN11_STATE_SIP_HEADER && len >= GEN11_STATE_SIP_LENGTH) {
            Gen11_STATE_SIP sip;

            gen11_state_sip_unpack(cmd, len, &sip);
            e->gfx.sip = intel_gfx_va(sip.system_instruction_pointer);
            return CS_NEXT;
        }
        break;
    case GFXPIPE_SINGLE_DW:
        if (op == GEN11_PIPELINE_SELECT_HEADER) {
            return gfx_pipeline_select(e, cmd);
        }
        break;
    case GFXPIPE_MEDIA:
        return intel_media_cmd(e, c, cmd, len);
    case GFXPIPE_3D:
        /* Not the 3D pipeline's alone: the GPGPU walkers' tables too. */
        if (op == GEN11_3DSTATE_BINDING_TABLE_POOL_ALLOC_HEADER) {
            return gfx_binding_table_pool(e, cmd, len);
        }
        return intel_render_cmd(e, c, cmd, len);
    }
    return intel_gfx_skip(e, c, cmd, len);
}

bool intel_gfx_read(IntelEngine *e, unsigned which, uint64_t offset,
                    void *buf, size_t len)
{
    uint64_t addr = intel_gfx_addr(e, which, offset);
    bool ppgtt = intel_engine_ppgtt(e);

    if (intel_vm_rw(e, ppgtt, addr, buf, len, false)) {
        intel_engine_page_fault(e, ppgtt, addr);
        return false;
    }
    return true;
}

/*
 * A kernel's bytes: from the instruction base + @ksp, @max of them or up
 * to the first page that does not translate (the interpreter faults a
 * thread that runs past what was fetched).
 */
bool intel_gfx_kernel_load(IntelEngine *e, uint64_t ksp, size_t max,
                           IntelGfxKernel *k)
{
    uint64_t addr = intel_gfx_addr(e, INTEL_GFX_INSTRUCTION, ksp);
    bool ppgtt = intel_engine_ppgtt(e);
    size_t size = 0;

    k->ksp = ksp;
    k->code = g_malloc(max);
    while (size < max) {
        size_t n = MIN(4096 - (addr + size) % 4096, max - size);

        if (intel_vm_rw(e, ppgtt, addr + size, k->code + size, n, false)) {
            break;
        }
        size += n;
    }
    k->size = size;
    if (!size) {
        intel_engine_page_fault(e, ppgtt, addr);
        intel_gfx_kernel_free(k);
        return false;
    }
    return true;
}

void intel_gfx_kernel_free(IntelGfxKernel *k)
{
    g_free(k->code);
    k->code = NULL;
    k->size = 0;
}

void intel_gfx_sf_thread_init(IntelEngine *e, IntelSfThread *th,
                              uint32_t binding_table, uint32_t sampler_state,
                              unsigned simd, IntelSfStats *stats)
{
    memset(th, 0, sizeof(*th));
    th->e = e;
    th->ppgtt = intel_engine_ppgtt(e);
    th->general_state_base = e->gfx.base[INTEL_GFX_GENERAL].addr;
    th->surface_state_base = e->gfx.base[INTEL_GFX_SURFACE].addr;
    th->binding_table_base =
        e->gfx.base[e->gfx.bt_pool_enable ? INTEL_GFX_BINDING_TABLE_POOL :
                    INTEL_GFX_SURFACE].addr;
    th->dynamic_state_base = e->gfx.base[INTEL_GFX_DYNAMIC].addr;
    /* GT_MODE's alignment: the pointer's bits 15:5 hold its bits 18:8. */
    th->binding_table =
        GPU_FIELD_EX32(intel_reg_get(e->gpu, INTEL_GT_MODE), INTEL_GT_MODE,
                       BINDING_TABLE_ALIGNMENT) ?
        (binding_table & 0xffe0) << 3 : binding_table;
    th->sampler_state = sampler_state;
    th->simd = simd;
    th->stats = stats;
}

/*
 * A thread's fault, logged unless it repeats the previous one (same IP,
 * same reason): a walker of faulting threads logs once, not per thread.
 */
static void gfx_log_fault(IntelEngine *e, const EuThread *t)
{
    IntelGfxState *g = &e->gfx;
    const char *why = t->fault ? t->fault : "unknown";

    if (g->fault_why == why && g->fault_ip == t->ip) {
        g->fault_repeats++;
        return;
    }
    if (g->fault_repeats) {
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "intel-gpu: (the EU fault before repeated %" PRIu64
                     " times)", g->fault_repeats);
    }
    gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                 "intel-gpu: EU thread fault at IP 0x%x: %s", t->ip, why);
    g->fault_why = why;
    g->fault_ip = t->ip;
    g->fault_repeats = 0;
}

/* Each instruction as QEMU's trace event intel_gpu_eu_inst. */
static void gfx_trace_inst(void *opaque, const EuThread *t, const EuInst *in)
{
    IntelEngine *e = opaque;
    GString *text = g_string_new(NULL);

    eu_disasm(in, text);
    gpu_host_trace_text(&e->gpu->host, INTEL_TRACE_EU_INST, t->ip, t->active,
                        text->str);
    g_string_free(text, true);
}

/*
 * One EU clock per instruction issued: the EU array's busy time and the
 * OA unit's EU counters (eu.c: by pipe and kind) follow the instructions
 * really executed.
 */
EuStatus intel_gfx_thread_run(IntelEngine *e, EuThread *t, IntelEuFfid ffid,
                              uint64_t max_instructions)
{
    uint64_t before = t->retired, ev0[EU_EVC_COUNT];
    EuStatus s;

    memcpy(ev0, t->ev_clocks, sizeof(ev0));
    t->trace = gpu_host_trace_wanted(&e->gpu->host, INTEL_TRACE_EU_INST) ?
               gfx_trace_inst : NULL;
    t->trace_opaque = e;
    s = eu_run(t, max_instructions);
    e->stats.eu_clocks[ffid] += t->retired - before;
    e->slice_eu_instructions += t->retired - before;
    intel_eu_thread_events(e, ffid, ev0, t->ev_clocks);
    if (s == EU_FAULT) {
        gfx_log_fault(e, t);
    }
    return s;
}

/*
 * The render context's pipeline state in its context image (ctx-image.h),
 * execlists/ driving: at a switch out the state goes into @img, at a
 * switch in the next context's comes back, so a context sees the state
 * it programmed and no other's, and a draw or walker it was preempted in
 * resumes with it.  The EU fault log's state stays the engine's.
 */
void intel_gfx_context_save(IntelEngine *e, IntelCtxImage *img)
{
    IntelGfxState *g = &e->gfx;
    IntelCtxImageGfx *p = &img->gfx;

    p->pipeline = g->pipeline;
    p->bt_pool_enable = g->bt_pool_enable;
    p->sip[0] = g->sip;
    p->sip[1] = g->sip >> 32;
    for (unsigned i = 0; i < INTEL_GFX_BASES; i++) {
        p->base[i][0] = g->base[i].addr;
        p->base[i][1] = g->base[i].addr >> 32;
        p->base[i][2] = g->base[i].size;
    }
    intel_render_context_save(e, &img->render);
    intel_media_context_save(e, img);
}

/*
 * A saved value the hardware would misbehave with (the guest owns the
 * image): logged, and its part of the state starts from reset.
 */
void intel_gfx_context_bad(IntelEngine *e, const char *what)
{
    gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                 "intel-gpu: context image at GGTT 0x%" PRIx64 ": %s out "
                 "of range, not restored", intel_engine_ctx_lrca(e), what);
}

static uint64_t gfx_image_qword(const uint32_t *dw)
{
    return (uint64_t)dw[1] << 32 | dw[0];
}

void intel_gfx_context_restore(IntelEngine *e, const IntelCtxImage *img)
{
    IntelGfxState *g = &e->gfx;
    const IntelCtxImageGfx *p = img ? &img->gfx : NULL;

    g->pipeline = PIPELINE_SELECT_3D;
    memset(g->base, 0, sizeof(g->base));
    g->bt_pool_enable = false;
    g->sip = 0;
    if (p && p->pipeline > PIPELINE_SELECT_GPGPU) {
        intel_gfx_context_bad(e, "pipeline selection");
        p = NULL;
    }
    if (p) {
        g->pipeline = p->pipeline;
        g->bt_pool_enable = p->bt_pool_enable & 1;
        g->sip = intel_gfx_va(gfx_image_qword(p->sip));
        for (unsigned i = 0; i < INTEL_GFX_BASES; i++) {
            g->base[i].addr = intel_gfx_va(gfx_image_qword(p->base[i]));
            g->base[i].size = p->base[i][2];
        }
    }
    intel_render_context_restore(e, img ? &img->render : NULL);
    intel_media_context_restore(e, img);
}

void intel_gfx_reset(IntelEngine *e)
{
    intel_render_reset(e);
    intel_media_reset(e);
    e->gfx.pipeline = PIPELINE_SELECT_3D;
    memset(e->gfx.base, 0, sizeof(e->gfx.base));
    e->gfx.bt_pool_enable = false;
    e->gfx.sip = 0;
    e->gfx.fault_why = NULL;
    e->gfx.fault_ip = 0;
    e->gfx.fault_repeats = 0;
}

void intel_gfx_fini(IntelEngine *e)
{
    intel_media_fini(e);
}

bool intel_gfx_post_load(IntelEngine *e, char **err)
{
    if (e->gfx.pipeline > PIPELINE_SELECT_GPGPU) {
        *err = g_strdup_printf("engine %u: pipeline %u", e->id,
                               e->gfx.pipeline);
        return false;
    }
    return intel_media_post_load(e, err);
}

/* @a * @b, saturating: the operands are guest-controlled. */
static uint64_t gfx_mul_sat(uint64_t a, uint64_t b)
{
    uint64_t r;

    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* Thread groups of a GPGPU_WALKER: (dimension - start) in x, y and z. */
static uint64_t gfx_walker_groups(const Gen11_GPGPU_WALKER *w)
{
    uint64_t x = w->thread_group_id_x_dimension >
                 w->thread_group_id_starting_x ?
                 w->thread_group_id_x_dimension -
                 w->thread_group_id_starting_x : 0;
    uint64_t y = w->thread_group_id_y_dimension >
                 w->thread_group_id_starting_y ?
                 w->thread_group_id_y_dimension -
                 w->thread_group_id_starting_y : 0;
    uint64_t z = w->thread_group_id_z_dimension >
                 w->thread_group_id_starting_resume_z ?
                 w->thread_group_id_z_dimension -
                 w->thread_group_id_starting_resume_z : 0;

    return gfx_mul_sat(gfx_mul_sat(x, y), z);
}

/*
 * GFXPIPE commands no pipeline executes: counted and skipped.  (The 3D
 * pipeline, render.c, runs 3DPRIMITIVE; media.c runs media and GPGPU
 * walkers once a kernel is loaded.)  Skipped GPGPU and media dispatch is
 * modelled from the command: a GPGPU_WALKER its threads per group (thread
 * width counter maximum + 1) times its groups, a MEDIA_OBJECT one thread.
 * The threads' EU work (eu.c) takes engine time in cs_step().
 */
int intel_gfx_skip(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                   unsigned len)
{
    uint32_t op = cmd[0] & GFXPIPE_OPCODE_MASK;
    uint64_t threads;

    if (op == GEN11_GPGPU_WALKER_HEADER && len >= 13) {
        Gen11_GPGPU_WALKER w;

        gen11_gpgpu_walker_unpack(cmd, len, &w);
        e->stats.walkers++;
        threads = gfx_mul_sat(w.thread_width_counter_maximum + 1,
                              gfx_walker_groups(&w));
        e->stats.gpgpu_threads += threads;
        intel_eu_dispatch(e, INTEL_EU_TS, threads);
    } else if (op == GEN11_MEDIA_OBJECT_HEADER) {
        e->stats.walkers++;
        e->stats.gpgpu_threads++;
        intel_eu_dispatch(e, INTEL_EU_TS, 1);
    }
    e->stats.cmds_3d++;
    return CS_NEXT;
}
