/*
 * intel-gpu: migration state of the Gen11 GT model.
 *
 * Everything the model keeps between two calls is here, block by block,
 * except what realize rebuilds (the register index and bindings), what
 * the properties fix (IntelGpuConfig) and caches the model drops in
 * intel_gpu_post_load() (a slice's prefetched commands, the NOA lane
 * tables and which NOA selections hold).
 * The host's part (timers, interrupt output) is vmstate_gpumodel_pci_host.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "migration/vmstate.h"
#include "gpumodel-pci.h"
#include "hw/gpumodel/intel-gpu-regs.h"
#include "intel/intel-gpu-int.h"
#include "intel-gpu-vmstate.h"

/* A fixed-size array of integers behind a pointer the model allocated. */
#define VMSTATE_PTR_ARRAY(_f, _s, _n, _info, _type) {                   \
    .name = (stringify(_f)),                                            \
    .num = (_n),                                                        \
    .info = &(_info),                                                   \
    .size = sizeof(_type),                                              \
    .flags = VMS_ARRAY | VMS_POINTER,                                   \
    .offset = vmstate_offset_pointer(_s, _f, _type),                    \
}

static const VMStateDescription vmstate_intel_irq = {
    .name = "intel-gpu/irq",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16_ARRAY(cr, IntelIrqState, INTEL_IRQ_SOURCES),
        VMSTATE_UINT32_ARRAY(dw_iir, IntelIrqState, 2),
        VMSTATE_UINT32_ARRAY(dw_cr, IntelIrqState, 2),
        VMSTATE_BOOL_ARRAY(dw_snapshot, IntelIrqState, 2),
        VMSTATE_UINT32_ARRAY(identity, IntelIrqState, 2),
        VMSTATE_BOOL(level, IntelIrqState),
        VMSTATE_UINT32_ARRAY(drill_count, IntelIrqState, INTEL_IRQ_SOURCES),
        VMSTATE_UINT64_ARRAY(drill_delay_ns, IntelIrqState,
                             INTEL_IRQ_SOURCES),
        VMSTATE_UINT16_ARRAY(delayed_bits, IntelIrqState, INTEL_IRQ_SOURCES),
        VMSTATE_UINT64_ARRAY(delayed_until, IntelIrqState,
                             INTEL_IRQ_SOURCES),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_intel_ggtt_tlb_entry = {
    .name = "intel-gpu/ggtt-tlb-entry",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(page, IntelGgttTlbEntry),
        VMSTATE_UINT64(pte, IntelGgttTlbEntry),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_intel_ppgtt_tlb_entry = {
    .name = "intel-gpu/ppgtt-tlb-entry",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(vpage, IntelPpgttTlbEntry),
        VMSTATE_UINT64(ppage, IntelPpgttTlbEntry),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_intel_cs_level = {
    .name = "intel-gpu/cs-level",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(addr, IntelCsLevel),
        VMSTATE_UINT64(end, IntelCsLevel),
        VMSTATE_BOOL(ppgtt, IntelCsLevel),
        VMSTATE_BOOL(privileged, IntelCsLevel),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_intel_cs_stats = {
    .name = "intel-gpu/cs-stats",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(commands, IntelCsStats),
        VMSTATE_UINT64(cmds_3d, IntelCsStats),
        VMSTATE_UINT64(primitives, IntelCsStats),
        VMSTATE_UINT64(walkers, IntelCsStats),
        VMSTATE_UINT64(vs_threads, IntelCsStats),
        VMSTATE_UINT64(gpgpu_threads, IntelCsStats),
        VMSTATE_UINT64(blit_bytes, IntelCsStats),
        VMSTATE_UINT64(busy_ns, IntelCsStats),
        VMSTATE_UINT64(context_switches, IntelCsStats),
        VMSTATE_UINT64_ARRAY(eu_clocks, IntelCsStats, INTEL_EU_FFIDS),
        VMSTATE_UINT64_2DARRAY(eu_ev, IntelCsStats, INTEL_EU_FFIDS,
                               INTEL_EU_EVS),
        VMSTATE_UINT64_ARRAY(px, IntelCsStats, INTEL_PX_COUNTS),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_intel_cs_in_flight = {
    .name = "intel-gpu/cs-in-flight",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(start_ns, IntelCsInFlight),
        VMSTATE_UINT64(end_ns, IntelCsInFlight),
        VMSTATE_UINT64_ARRAY(eu_clocks, IntelCsInFlight, INTEL_EU_FFIDS),
        VMSTATE_UINT64_2DARRAY(eu_ev, IntelCsInFlight, INTEL_EU_FFIDS,
                               INTEL_EU_EVS),
        VMSTATE_UINT64_ARRAY(px, IntelCsInFlight, INTEL_PX_COUNTS),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_intel_gfx_base = {
    .name = "intel-gpu/gfx-base",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(addr, IntelGfxBase),
        VMSTATE_UINT32(size, IntelGfxBase),
        VMSTATE_END_OF_LIST()
    },
};

/*
 * The 3D pipeline's state (render-state.h), a draw in progress included;
 * render.c bounds every value it uses, so any loaded value is safe.
 */
static const VMStateDescription vmstate_intel_render = {
    .name = "intel-gpu/render",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
#define RENDER_DWORDS(f) \
        VMSTATE_UINT32_ARRAY(f, IntelRenderState, \
                             sizeof_field(IntelRenderState, f) / 4)
        VMSTATE_UINT32_2DARRAY(vb, IntelRenderState, INTEL_RENDER_VBS,
                               GEN11_VERTEX_BUFFER_STATE_LENGTH),
        VMSTATE_UINT32_2DARRAY(ve, IntelRenderState, INTEL_RENDER_VES,
                               GEN11_VERTEX_ELEMENT_STATE_LENGTH),
        VMSTATE_UINT32(ve_count, IntelRenderState),
        RENDER_DWORDS(vf_topology),
        RENDER_DWORDS(vs),
        RENDER_DWORDS(hs),
        RENDER_DWORDS(ds),
        RENDER_DWORDS(gs),
        RENDER_DWORDS(te),
        RENDER_DWORDS(so),
        RENDER_DWORDS(clip),
        RENDER_DWORDS(sf),
        RENDER_DWORDS(raster),
        RENDER_DWORDS(sbe),
        RENDER_DWORDS(sbe_swiz),
        RENDER_DWORDS(wm),
        RENDER_DWORDS(ps),
        RENDER_DWORDS(ps_extra),
        RENDER_DWORDS(ps_blend),
        RENDER_DWORDS(constant_ps),
        RENDER_DWORDS(blend_state),
        RENDER_DWORDS(cc_state),
        RENDER_DWORDS(vp_cc),
        RENDER_DWORDS(vp_sf_clip),
        RENDER_DWORDS(scissor),
        RENDER_DWORDS(binding_table_ps),
        RENDER_DWORDS(sampler_state_ps),
        RENDER_DWORDS(drawing_rect),
        RENDER_DWORDS(multisample),
        RENDER_DWORDS(sample_mask),
        RENDER_DWORDS(depth_stencil),
#undef RENDER_DWORDS
        VMSTATE_BOOL(draw_active, IntelRenderState),
        VMSTATE_UINT64(draw_ctx, IntelRenderState),
        VMSTATE_UINT32(state_gen, IntelRenderState),
        VMSTATE_UINT32(draw_gen, IntelRenderState),
        VMSTATE_UINT64(draw_prim, IntelRenderState),
        VMSTATE_UINT32(draw_x, IntelRenderState),
        VMSTATE_UINT32(draw_y, IntelRenderState),
        VMSTATE_UINT32(thread_id, IntelRenderState),
        VMSTATE_END_OF_LIST()
    },
};

/*
 * An EU thread mid-run (eu-exec.h): its registers and channel state.  The
 * kernel is not migrated: media.c fetches it again from guest memory.
 */
static const VMStateDescription vmstate_intel_eu_thread = {
    .name = "intel-gpu/eu-thread",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8_ARRAY(grf, EuThread, EU_GRF_COUNT * EU_GRF_BYTES),
        VMSTATE_UINT16_ARRAY(a0, EuThread, 16),
        VMSTATE_UINT8_2DARRAY(acc, EuThread, 2, EU_GRF_BYTES * 2),
        VMSTATE_UINT32_ARRAY(flag, EuThread, 2),
        VMSTATE_UINT32_ARRAY(mask, EuThread, 4),
        VMSTATE_UINT32_ARRAY(sr0, EuThread, 4),
        VMSTATE_UINT32_ARRAY(cr0, EuThread, 4),
        VMSTATE_UINT32_SUB_ARRAY(tm0, EuThread, 0, 4),
        VMSTATE_UINT32(ip, EuThread),
        VMSTATE_UINT32(exec_mask, EuThread),
        VMSTATE_UINT32(active, EuThread),
        VMSTATE_UINT32(waiting, EuThread),
        VMSTATE_UINT32(broken, EuThread),
        VMSTATE_UINT32_ARRAY(wait_ip, EuThread, EU_MAX_CHANNELS),
        VMSTATE_UINT64(retired, EuThread),
        VMSTATE_INT64_ARRAY(accv, EuThread, EU_MAX_CHANNELS),
        VMSTATE_UINT32_ARRAY(notify, EuThread, 2),
        VMSTATE_END_OF_LIST()
    },
};

static bool intel_media_thread_needed(void *opaque)
{
    IntelMediaDispatch *d = opaque;

    return d->running;
}

static const VMStateDescription vmstate_intel_media_thread = {
    .name = "intel-gpu/media-dispatch/thread",
    .version_id = 0,
    .minimum_version_id = 0,
    .needed = intel_media_thread_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT(thread, IntelMediaDispatch, 0, vmstate_intel_eu_thread,
                       EuThread),
        VMSTATE_END_OF_LIST()
    },
};

static bool intel_media_indirect_needed(void *opaque)
{
    IntelMediaDispatch *d = opaque;

    return d->indirect_len != 0;
}

/* A GPGPU_WALKER's indirect data (its threads' payload). */
static const VMStateDescription vmstate_intel_media_indirect = {
    .name = "intel-gpu/media-dispatch/indirect",
    .version_id = 0,
    .minimum_version_id = 0,
    .needed = intel_media_indirect_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(indirect_start, IntelMediaDispatch),
        VMSTATE_UINT32(indirect_len, IntelMediaDispatch),
        VMSTATE_END_OF_LIST()
    },
};

/* A walker or MEDIA_OBJECT in progress (media-state.h). */
static const VMStateDescription vmstate_intel_media_dispatch = {
    .name = "intel-gpu/media-dispatch",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(kind, IntelMediaDispatch),
        VMSTATE_UINT32(idd, IntelMediaDispatch),
        VMSTATE_UINT32(simd, IntelMediaDispatch),
        VMSTATE_UINT32(tw, IntelMediaDispatch),
        VMSTATE_UINT32(th, IntelMediaDispatch),
        VMSTATE_UINT32(td, IntelMediaDispatch),
        VMSTATE_UINT32(x0, IntelMediaDispatch),
        VMSTATE_UINT32(xdim, IntelMediaDispatch),
        VMSTATE_UINT32(y0, IntelMediaDispatch),
        VMSTATE_UINT32(ydim, IntelMediaDispatch),
        VMSTATE_UINT32(zdim, IntelMediaDispatch),
        VMSTATE_UINT32(right_mask, IntelMediaDispatch),
        VMSTATE_UINT32(bottom_mask, IntelMediaDispatch),
        VMSTATE_UINT32(x, IntelMediaDispatch),
        VMSTATE_UINT32(y, IntelMediaDispatch),
        VMSTATE_UINT32(z, IntelMediaDispatch),
        VMSTATE_UINT32(tid, IntelMediaDispatch),
        VMSTATE_BOOL(running, IntelMediaDispatch),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_intel_media_thread,
        &vmstate_intel_media_indirect,
        NULL
    },
};

static bool intel_media_slm_needed(void *opaque)
{
    IntelMediaState *m = opaque;

    return m->run.kind == INTEL_MEDIA_GPGPU_WALKER;
}

/* The shared local memory of a walker's thread group mid-run. */
static const VMStateDescription vmstate_intel_media_slm = {
    .name = "intel-gpu/media/slm",
    .version_id = 0,
    .minimum_version_id = 0,
    .needed = intel_media_slm_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8_ARRAY(slm, IntelMediaState, INTEL_MEDIA_SLM_MAX),
        VMSTATE_END_OF_LIST()
    },
};

static bool intel_media_group_needed(void *opaque)
{
    IntelMediaState *m = opaque;

    return m->group_n != 0;
}

/* The threads go where the model keeps them, allocated if not yet. */
static int intel_media_group_pre_load(void *opaque)
{
    intel_media_group_alloc(opaque);
    return 0;
}

static bool intel_media_group_n_ok(void *opaque, int version_id)
{
    IntelMediaState *m = opaque;

    return m->group_n >= 0 && m->group_n <= INTEL_MEDIA_GROUP_MAX;
}

/* A thread group with barriers mid-run: its threads (media.c). */
static const VMStateDescription vmstate_intel_media_group = {
    .name = "intel-gpu/media/group",
    .version_id = 0,
    .minimum_version_id = 0,
    .needed = intel_media_group_needed,
    .pre_load = intel_media_group_pre_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(run.live, IntelMediaState),
        VMSTATE_UINT32(run.cur, IntelMediaState),
        VMSTATE_UINT32(run.arrived, IntelMediaState),
        VMSTATE_INT32(group_n, IntelMediaState),
        VMSTATE_VALIDATE("group size", intel_media_group_n_ok),
        VMSTATE_STRUCT_VARRAY_POINTER_INT32(group, IntelMediaState, group_n,
                                            vmstate_intel_eu_thread,
                                            EuThread),
        VMSTATE_END_OF_LIST()
    },
};

/* The GPGPU and media pipelines' state (media-state.h). */
static const VMStateDescription vmstate_intel_media = {
    .name = "intel-gpu/media",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(scratch, IntelMediaState),
        VMSTATE_UINT32(scratch_size, IntelMediaState),
        VMSTATE_UINT32(max_threads, IntelMediaState),
        VMSTATE_UINT32(urb_entries, IntelMediaState),
        VMSTATE_UINT32(urb_entry_size, IntelMediaState),
        VMSTATE_UINT32(curbe_size, IntelMediaState),
        VMSTATE_UINT32(idd_count, IntelMediaState),
        VMSTATE_UINT32_2DARRAY(idd, IntelMediaState, INTEL_MEDIA_IDDS,
                               INTEL_MEDIA_IDD_DWORDS),
        VMSTATE_UINT32(curbe_len, IntelMediaState),
        VMSTATE_UINT8_ARRAY(curbe, IntelMediaState, INTEL_MEDIA_CURBE_MAX),
        VMSTATE_STRUCT(run, IntelMediaState, 0, vmstate_intel_media_dispatch,
                       IntelMediaDispatch),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_intel_media_slm,
        &vmstate_intel_media_group,
        NULL
    },
};

/* The render engine's pipeline state (gfx-state.h). */
static const VMStateDescription vmstate_intel_gfx = {
    .name = "intel-gpu/gfx",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(pipeline, IntelGfxState),
        VMSTATE_STRUCT_ARRAY(base, IntelGfxState, INTEL_GFX_BASES, 0,
                             vmstate_intel_gfx_base, IntelGfxBase),
        VMSTATE_BOOL(bt_pool_enable, IntelGfxState),
        VMSTATE_UINT64(sip, IntelGfxState),
        VMSTATE_STRUCT(render, IntelGfxState, 0, vmstate_intel_render,
                       IntelRenderState),
        VMSTATE_STRUCT(media, IntelGfxState, 0, vmstate_intel_media,
                       IntelMediaState),
        VMSTATE_END_OF_LIST()
    },
};

/* Fault drills not yet used up; a stream without them has none. */
static bool intel_engine_drills_needed(void *opaque)
{
    IntelEngine *e = opaque;

    return e->csb_drill != INTEL_CSB_DRILL_NONE || e->dma_drill;
}

static const VMStateDescription vmstate_intel_engine_drills = {
    .name = "intel-gpu/engine/drills",
    .version_id = 0,
    .minimum_version_id = 0,
    .needed = intel_engine_drills_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8(csb_drill, IntelEngine),
        VMSTATE_UINT32(dma_drill, IntelEngine),
        VMSTATE_END_OF_LIST()
    },
};

/* A command streamer with its execlists; its timer is the host's. */
static const VMStateDescription vmstate_intel_engine = {
    .name = "intel-gpu/engine",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(state, IntelEngine),
        VMSTATE_UINT32(depth, IntelEngine),
        VMSTATE_STRUCT_ARRAY(level, IntelEngine, INTEL_CS_LEVELS, 0,
                             vmstate_intel_cs_level, IntelCsLevel),
        VMSTATE_STRUCT(wa_next, IntelEngine, 0, vmstate_intel_cs_level,
                       IntelCsLevel),
        VMSTATE_UINT32(wa_return_depth, IntelEngine),
        VMSTATE_BOOL(arb_enabled, IntelEngine),
        VMSTATE_BOOL(hang_drill, IntelEngine),
        VMSTATE_UINT32(set_predicate, IntelEngine),
        VMSTATE_UINT64(srca, IntelEngine),
        VMSTATE_UINT64(srcb, IntelEngine),
        VMSTATE_UINT64(accu, IntelEngine),
        VMSTATE_BOOL(zf, IntelEngine),
        VMSTATE_BOOL(cf, IntelEngine),
        VMSTATE_UINT64(pml4, IntelEngine),
        VMSTATE_STRUCT_ARRAY(tlb, IntelEngine, INTEL_PPGTT_TLB_ENTRIES, 0,
                             vmstate_intel_ppgtt_tlb_entry,
                             IntelPpgttTlbEntry),
        VMSTATE_STRUCT(stats, IntelEngine, 0, vmstate_intel_cs_stats,
                       IntelCsStats),
        VMSTATE_STRUCT(in_flight, IntelEngine, 0, vmstate_intel_cs_in_flight,
                       IntelCsInFlight),
        VMSTATE_UINT64_ARRAY(eq, IntelEngine, INTEL_ELSQ_ELEMENTS),
        VMSTATE_UINT32(eq_pos, IntelEngine),
        VMSTATE_UINT64_ARRAY(pending_eq, IntelEngine, INTEL_ELSQ_ELEMENTS),
        VMSTATE_BOOL(load_pending, IntelEngine),
        VMSTATE_BOOL(ctx_active, IntelEngine),
        VMSTATE_UINT64(ctx_desc, IntelEngine),
        VMSTATE_UINT64(ctx_in_ns, IntelEngine),
        VMSTATE_UINT32(ctx_ts_base, IntelEngine),
        VMSTATE_UINT32(elsp_dword, IntelEngine),
        VMSTATE_STRUCT(gfx, IntelEngine, 0, vmstate_intel_gfx, IntelGfxState),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_intel_engine_drills,
        NULL
    },
};

static const VMStateDescription vmstate_intel_oa_counters = {
    .name = "intel-gpu/oa-counters",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64_ARRAY(a, IntelOaCounters, INTEL_OA_A_COUNTERS),
        VMSTATE_UINT64_ARRAY(b, IntelOaCounters, INTEL_OA_BC_COUNTERS),
        VMSTATE_UINT64_ARRAY(c, IntelOaCounters, INTEL_OA_BC_COUNTERS),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_intel_oa_sources = {
    .name = "intel-gpu/oa-sources",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(busy_ns, IntelOaSources),
        VMSTATE_UINT64(vs_threads, IntelOaSources),
        VMSTATE_UINT64(gpgpu_threads, IntelOaSources),
        VMSTATE_UINT64_ARRAY(eu_clocks, IntelOaSources, INTEL_EU_FFIDS),
        VMSTATE_UINT64_2DARRAY(eu_ev, IntelOaSources, INTEL_EU_FFIDS,
                               INTEL_EU_EVS),
        VMSTATE_UINT64_ARRAY(px, IntelOaSources, INTEL_PX_COUNTS),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_intel_oa = {
    .name = "intel-gpu/oa",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(running, IntelOaState),
        VMSTATE_UINT64(period_ticks, IntelOaState),
        VMSTATE_UINT64(next_tick, IntelOaState),
        VMSTATE_UINT64_ARRAY(trig_next, IntelOaState, 2),
        VMSTATE_BOOL(go, IntelOaState),
        VMSTATE_UINT64(start_clock, IntelOaState),
        VMSTATE_BOOL(start_trigger, IntelOaState),
        VMSTATE_UINT64(sync_ns, IntelOaState),
        VMSTATE_STRUCT(count, IntelOaState, 0, vmstate_intel_oa_counters,
                       IntelOaCounters),
        VMSTATE_STRUCT(src, IntelOaState, 0, vmstate_intel_oa_sources,
                       IntelOaSources),
        VMSTATE_STRUCT(last, IntelOaState, 0, vmstate_intel_oa_counters,
                       IntelOaCounters),
        VMSTATE_BOOL(have_last_report, IntelOaState),
        VMSTATE_UINT64(last_report_clock, IntelOaState),
        VMSTATE_UINT64(reports, IntelOaState),
        VMSTATE_UINT64(lost, IntelOaState),
        VMSTATE_BOOL(tail_stalled, IntelOaState),
        VMSTATE_UINT32(stall_tail, IntelOaState),
        VMSTATE_UINT64(stall_until_ns, IntelOaState),
        VMSTATE_UINT32(overflow_drill, IntelOaState),
        VMSTATE_UINT16_ARRAY(noa, IntelOaState, INTEL_OA_NOA_REGS),
        VMSTATE_END_OF_LIST()
    },
};

/* The GT frequency; intel_rps_post_load() checks it. */
static const VMStateDescription vmstate_intel_rps = {
    .name = "intel-gpu/rps",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(ratio, IntelRpsState),
        VMSTATE_UINT64(since_ns, IntelRpsState),
        VMSTATE_UINT64(clocks, IntelRpsState),
        VMSTATE_END_OF_LIST()
    },
};

/* RC6 residency; intel_rc6_post_load() checks the idle flag. */
static const VMStateDescription vmstate_intel_rc6 = {
    .name = "intel-gpu/rc6",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(idle, IntelRc6State),
        VMSTATE_UINT64(entry_ns, IntelRc6State),
        VMSTATE_UINT64(residency_ns, IntelRc6State),
        VMSTATE_END_OF_LIST()
    },
};

static int intel_gpu_model_post_load(void *opaque, int version_id)
{
    char *err = NULL;

    return intel_gpu_post_load(opaque, &err) ? 0 :
           gpumodel_pci_state_refused("intel-gpu", err);
}

const VMStateDescription vmstate_intel_gpu_model = {
    .name = "intel-gpu/model",
    .version_id = 0,
    .minimum_version_id = 0,
    .post_load = intel_gpu_model_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_PTR_ARRAY(regs.store, IntelGpu, INTEL_MMIO_SIZE / 4,
                          vmstate_info_uint32, uint32_t),
        VMSTATE_PTR_ARRAY(unmodelled.seen, IntelGpu, INTEL_MMIO_SIZE / 32,
                          vmstate_info_uint8, uint8_t),
        VMSTATE_UINT32(unmodelled.count, IntelGpu),
        VMSTATE_STRUCT(irq, IntelGpu, 0, vmstate_intel_irq, IntelIrqState),
        VMSTATE_PTR_ARRAY(gsm, IntelGpu, INTEL_GSM_SIZE / 8,
                          vmstate_info_uint64, uint64_t),
        VMSTATE_STRUCT_ARRAY(tlb, IntelGpu, INTEL_GGTT_TLB_ENTRIES, 0,
                             vmstate_intel_ggtt_tlb_entry, IntelGgttTlbEntry),
        VMSTATE_UINT64(tlb_flushes, IntelGpu),
        VMSTATE_STRUCT_ARRAY(engine, IntelGpu, INTEL_ENGINE_COUNT, 0,
                             vmstate_intel_engine, IntelEngine),
        VMSTATE_STRUCT(oa, IntelGpu, 0, vmstate_intel_oa, IntelOaState),
        VMSTATE_STRUCT(rps, IntelGpu, 0, vmstate_intel_rps, IntelRpsState),
        VMSTATE_STRUCT(rc6, IntelGpu, 0, vmstate_intel_rc6, IntelRc6State),
        VMSTATE_END_OF_LIST()
    },
};
