/*
 * nv-gpu: migration state of the G84-class model.
 *
 * Everything the model keeps between two calls is here, block by block,
 * one field a line, except what realize and the properties fix (NvGpuConfig,
 * a domain's id and clock, the register index), what nv_gpu_post_load()
 * derives from the loaded configuration (which trailer signals each domain
 * selects, who watches whose EVENT/FLAG, whether imports loop) and the
 * period tables, which are caches.  The synthetic signals are saved: they
 * are host settings, but qom-set changes them at run time and the guest's
 * counters depend on them.  The host's part (timers, interrupt output) is
 * vmstate_gpumodel_pci_host.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "migration/vmstate.h"
#include "gpumodel-pci.h"
#include "nvidia/nv-gpu-int.h"
#include "nv-gpu-vmstate.h"

/* A block's register storage: the same block on both ends. */
static const VMStateDescription vmstate_nv_regfile = {
    .name = "nv-gpu/regfile",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_EQUAL(words, NvRegFile, NULL),
        VMSTATE_VARRAY_UINT32(store, NvRegFile, words, 0,
                              vmstate_info_uint32, uint32_t),
        VMSTATE_END_OF_LIST()
    },
};

/* TIME as base + elapsed since base_ns (virtual clock) x the ratio. */
static const VMStateDescription vmstate_nv_ptimer = {
    .name = "nv-gpu/ptimer",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(base_time, NvPtimer),
        VMSTATE_UINT64(base_ns, NvPtimer),
        VMSTATE_UINT32(time_high_latch, NvPtimer),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_nv_pc_synth = {
    .name = "nv-gpu/pc-synth",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8(period_log2, NvSynth),
        VMSTATE_UINT32(high, NvSynth),
        VMSTATE_UINT32(phase, NvSynth),
        VMSTATE_END_OF_LIST()
    },
};

/* An imported EVENT/FLAG: the changes the importer has yet to see. */
static const VMStateDescription vmstate_nv_pc_import = {
    .name = "nv-gpu/pc-import",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64_ARRAY(c, NvPcImport, NV_PC_IMPORT_QUEUE),
        VMSTATE_BOOL_ARRAY(v, NvPcImport, NV_PC_IMPORT_QUEUE),
        VMSTATE_BOOL_ARRAY(rose, NvPcImport, NV_PC_IMPORT_QUEUE),
        VMSTATE_UINT8(head, NvPcImport),
        VMSTATE_UINT8(n, NvPcImport),
        VMSTATE_BOOL(last, NvPcImport),
        VMSTATE_BOOL(cont, NvPcImport),
        VMSTATE_UINT64(pulse_c, NvPcImport),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_nv_pc_domain = {
    .name = "nv-gpu/pc-domain",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(cur, NvPcDomain),
        /* configuration */
        VMSTATE_UINT32_ARRAY(src, NvPcDomain, 4),
        VMSTATE_UINT32_ARRAY(op, NvPcDomain, NV_PC_INPUTS),
        VMSTATE_UINT32(spec_src, NvPcDomain),
        VMSTATE_UINT32(ctrl, NvPcDomain),
        VMSTATE_UINT32(threshold, NvPcDomain),
        VMSTATE_UINT32(pre_init, NvPcDomain),
        VMSTATE_UINT32(stop_init, NvPcDomain),
        VMSTATE_STRUCT_ARRAY(synth, NvPcDomain, NV_SIG_SYNTH_COUNT, 0,
                             vmstate_nv_pc_synth, NvSynth),
        /* signal origins */
        VMSTATE_UINT64(periodic_origin, NvPcDomain),
        VMSTATE_UINT64_ARRAY(pm_trigger_cycle, NvPcDomain, 2),
        VMSTATE_UINT64_ARRAY(wrcache_flush_cycle, NvPcDomain, 2),
        VMSTATE_UINT64(user_cycle, NvPcDomain),
        VMSTATE_UINT8(user_val, NvPcDomain),
        VMSTATE_UINT8(user_pulse, NvPcDomain),
        VMSTATE_UINT8(user_before, NvPcDomain),
        VMSTATE_UINT64(ptimer_c0, NvPcDomain),
        VMSTATE_BOOL(ptimer_before, NvPcDomain),
        VMSTATE_BOOL(ptimer_b12, NvPcDomain),
        /* counters, quad shadows, states, FLAG */
        VMSTATE_UINT32_ARRAY(ctr, NvPcDomain, NV_PC_CTRS),
        VMSTATE_UINT32_ARRAY(shadow, NvPcDomain, NV_PC_CTRS),
        VMSTATE_UINT8(quad_state, NvPcDomain),
        VMSTATE_UINT8(single_state, NvPcDomain),
        VMSTATE_BOOL(flag, NvPcDomain),
        VMSTATE_BOOL(flag_prev, NvPcDomain),
        /* record mode: the packet being gathered, the position, faults */
        VMSTATE_UINT64(rec_cycles, NvPcDomain),
        VMSTATE_UINT16_ARRAY(rec_ev, NvPcDomain, 12),
        VMSTATE_UINT16(rec_stop, NvPcDomain),
        VMSTATE_UINT64(rec_busy_until, NvPcDomain),
        VMSTATE_UINT32(rec_pos, NvPcDomain),
        VMSTATE_UINT32(rec_limit, NvPcDomain),
        VMSTATE_UINT32(rec_start, NvPcDomain),
        VMSTATE_UINT8(rec_addr_high, NvPcDomain),
        VMSTATE_BOOL(rec_valid, NvPcDomain),
        VMSTATE_BOOL(rec_fault, NvPcDomain),
        VMSTATE_BOOL(rec_wedged, NvPcDomain),
        VMSTATE_BOOL(rec_drill, NvPcDomain),
        VMSTATE_UINT64(rec_packets, NvPcDomain),
        /* trailer EVENT/FLAG history (pcounter-coupling.c) */
        VMSTATE_UINT16(dyn, NvPcDomain),
        VMSTATE_UINT16(dyn_prev, NvPcDomain),
        VMSTATE_BOOL(ev_last, NvPcDomain),
        VMSTATE_STRUCT_ARRAY(imp, NvPcDomain, NV_PC_TRAILER_SIGS, 0,
                             vmstate_nv_pc_import, NvPcImport),
        VMSTATE_UINT8_ARRAY(unimp_seen, NvPcDomain, NV_PCOUNTER_SIGNALS / 8),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_nv_pcounter = {
    .name = "nv-gpu/pcounter",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(dom, NvPcounter, NV_PCOUNTER_DOMAINS, 0,
                             vmstate_nv_pc_domain, NvPcDomain),
        VMSTATE_UINT32(gctrl, NvPcounter),
        VMSTATE_UINT32(record_chan, NvPcounter),
        VMSTATE_UINT32(record_dma, NvPcounter),
        VMSTATE_UINT64(epoch_ns, NvPcounter),
        VMSTATE_UINT64(synced_ns, NvPcounter),
        VMSTATE_BOOL(behind, NvPcounter),
        VMSTATE_UINT64(steps, NvPcounter),
        VMSTATE_UINT64(ptimer_t0, NvPcounter),
        VMSTATE_UINT32(ptimer_num, NvPcounter),
        VMSTATE_UINT32(ptimer_den, NvPcounter),
        VMSTATE_END_OF_LIST()
    },
};

static int nv_gpu_model_pre_save(void *opaque)
{
    nv_gpu_pre_save(opaque);
    return 0;
}

/* A channel's user area, parser and object state (pfifo.c). */
static const VMStateDescription vmstate_nv_fifo_chan = {
    .name = "nv-gpu/fifo-chan",
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(put, NvFifoChan),
        VMSTATE_UINT32(get, NvFifoChan),
        VMSTATE_UINT32(ib_get, NvFifoChan),
        VMSTATE_UINT32(ib_put, NvFifoChan),
        VMSTATE_UINT64(seg_addr, NvFifoChan),
        VMSTATE_UINT32(seg_left, NvFifoChan),
        VMSTATE_UINT32(hdr_mthd, NvFifoChan),
        VMSTATE_UINT32(hdr_subc, NvFifoChan),
        VMSTATE_UINT32(hdr_count, NvFifoChan),
        VMSTATE_BOOL(hdr_ninc, NvFifoChan),
        VMSTATE_BOOL(faulted, NvFifoChan),
        VMSTATE_UINT32(sem_hi, NvFifoChan),
        VMSTATE_UINT32(sem_lo, NvFifoChan),
        VMSTATE_UINT32(sem_payload, NvFifoChan),
        VMSTATE_UINT32(sem_op, NvFifoChan),
        VMSTATE_UINT32(sem_ctxdma, NvFifoChan),
        VMSTATE_BOOL(sem_waiting, NvFifoChan),
        VMSTATE_UINT32_ARRAY(subc_class, NvFifoChan, 8),
        VMSTATE_UINT32(m2mf_dma_in, NvFifoChan),
        VMSTATE_UINT32(m2mf_dma_out, NvFifoChan),
        VMSTATE_UINT32(m2mf_layout, NvFifoChan),
        VMSTATE_UINT32(m2mf_in_hi, NvFifoChan),
        VMSTATE_UINT32(m2mf_out_hi, NvFifoChan),
        VMSTATE_UINT32(m2mf_in, NvFifoChan),
        VMSTATE_UINT32(m2mf_out, NvFifoChan),
        VMSTATE_UINT32(m2mf_pitch_in, NvFifoChan),
        VMSTATE_UINT32(m2mf_pitch_out, NvFifoChan),
        VMSTATE_UINT32(m2mf_line_len, NvFifoChan),
        VMSTATE_UINT32(m2mf_line_count, NvFifoChan),
        VMSTATE_END_OF_LIST()
    },
};

static int nv_gpu_model_post_load(void *opaque, int version_id)
{
    char *err = NULL;

    return nv_gpu_post_load(opaque, &err) ? 0 :
           gpumodel_pci_state_refused("nv-gpu", err);
}

/*
 * PMC and PGRAPH are registers only; PTIMER, PCOUNTER and the BAR channels
 * have state.  VRAM is a RAM region of the PCI glue, migrated as RAM; the
 * VBIOS is rebuilt from the chipset.
 */
const VMStateDescription vmstate_nv_gpu_model = {
    .name = "nv-gpu/model",
    .version_id = 0,
    .minimum_version_id = 0,
    .pre_save = nv_gpu_model_pre_save,
    .post_load = nv_gpu_model_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_EQUAL(nfiles, NvGpu, NULL),
        VMSTATE_STRUCT_ARRAY(files, NvGpu, NV_MAX_BLOCKS, 0,
                             vmstate_nv_regfile, NvRegFile),
        VMSTATE_BOOL(irq_level, NvGpu),
        VMSTATE_STRUCT(ptimer, NvGpu, 0, vmstate_nv_ptimer, NvPtimer),
        VMSTATE_STRUCT(pc, NvGpu, 0, vmstate_nv_pcounter, NvPcounter),
        VMSTATE_UINT32(bar_chan, NvGpu),
        VMSTATE_UINT32(peephole_chan, NvGpu),
        VMSTATE_STRUCT_ARRAY(fifo.chan, NvGpu, NV_PFIFO_CHANS, 0,
                             vmstate_nv_fifo_chan, NvFifoChan),
        VMSTATE_END_OF_LIST()
    },
};
