/*
 * intel-gpu command streamer, private to its files: the command table's
 * entries and handlers, and what the handlers share.
 *
 *   cs.c        fetch, the decode table, the run loop and its budget
 *   cs-access.c privilege, address spaces, memory access, errors, faults
 *   cs-mi.c     MI commands: batches, semaphores, stores, loads, atomics
 *   cs-alu.c    MI_MATH, MI_PREDICATE, MI_SET_PREDICATE, conditional end
 *   cs-pipe.c   PIPE_CONTROL, and the GFXPIPE commands not executed
 *               (the others are routed by gfx.c: gfx-int.h)
 *   cs-blit.c   blitter commands (the tiling itself is in tiling.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_CS_INT_H
#define HW_GPUMODEL_INTEL_CS_INT_H

#include "../intel-gpu-int.h"
#include "hw/gpumodel/intel-gpu-cmds.h"

/*
 * Between two slices of an engine (cs.c): at least CS_SLICE_GAP_NS, and
 * at least the pause the slice's host work earns, counted: about what
 * the model takes on a 2-core test machine per EU instruction it
 * interprets, per pixel-pipeline event (a pixel rasterized, written or
 * sampled: make bench's render copy, 270-300 ns a pixel, is three) and
 * per byte blitted.
 */
#define CS_SLICE_GAP_NS                 50000
#define CS_PACE_NS_PER_EU_INSTRUCTION   8
#define CS_PACE_NS_PER_PIXEL_EVENT      90
#define CS_PACE_BLIT_BYTES_PER_NS       4

/* Where a command may run (the table's "Pipes" column). */
#define CS_ALL          0
#define CS_RCS_ONLY     (1u << 0)
#define CS_NOT_RCS      (1u << 1)
#define CS_NOT_BCS      (1u << 2)
#define CS_RCS_BCS      (1u << 3)
/* Refused in a non-privileged batch (PRM "User Mode Privileged Commands"). */
#define CS_PRIV         (1u << 4)
/* Skips are counted in stats and logged once as LOG_UNIMP. */
#define CS_UNIMP        (1u << 5)
/* Executed whatever MI_SET_PREDICATE says (MI_SET_PREDICATE itself). */
#define CS_UNPREDICATED (1u << 6)

struct CsCmd {
    const char *name;
    uint8_t fixed_len;      /* dwords, or 0: length field + 2 */
    uint16_t len_mask;      /* header bits holding length - 2 */
    uint16_t flags;
    uint16_t cost_ns;
    /* Its own Predicate Enable bit: then MI_PREDICATE_RESULT decides. */
    uint32_t predicate_enable;
    CsCmdFn *fn;
};

static inline uint64_t cs_addr48(uint32_t lo, uint32_t hi)
{
    return ((uint64_t)(hi & 0xffff) << 32) | lo;
}

/* Is the command being executed from a privileged buffer? */
static inline bool cs_privileged(IntelEngine *e)
{
    if (e->depth) {
        return e->level[e->depth].privileged;
    }
    return !intel_cs_execlists_mode(e) || intel_engine_ctx_privileged(e);
}

/* cs-access.c */
void cs_privilege_refused(IntelEngine *e, uint32_t hdr, uint64_t where);
void cs_privilege_violation(IntelEngine *e, uint32_t hdr, uint64_t where,
                            const char *what);
int cs_fault(IntelEngine *e, bool ppgtt, uint64_t addr);
int cs_mem(IntelEngine *e, bool ppgtt, uint64_t addr, void *buf, size_t len,
           bool write);
int cs_write32(IntelEngine *e, bool ppgtt, uint64_t addr, uint32_t v);
int cs_write64(IntelEngine *e, bool ppgtt, uint64_t addr, uint64_t v);
int cs_read32(IntelEngine *e, bool ppgtt, uint64_t addr, uint32_t *v);
uint64_t cs_status_page(IntelEngine *e, bool per_process);
uint32_t cs_reg_offset(IntelEngine *e, uint32_t hdr, uint32_t off,
                       uint32_t remap_bit);
bool cs_reg_write_allowed(IntelEngine *e, uint32_t off);
uint64_t cs_timestamp64(IntelEngine *e);

/* cs-mi.c */
int cs_arbitrate(IntelEngine *e);
void cs_wa_done(IntelEngine *e);
void cs_start_wa_batches(IntelEngine *e);
int cs_post_sync(IntelEngine *e, uint32_t hdr, unsigned op, bool index,
                 bool ggtt, uint64_t addr, uint64_t data, unsigned bytes);
CsCmdFn cs_mi_noop, cs_mi_accept, cs_mi_unimp, cs_mi_user_interrupt,
        cs_mi_arb_check, cs_mi_arb_on_off, cs_mi_report_head,
        cs_mi_batch_buffer_end, cs_mi_semaphore_wait, cs_mi_semaphore_signal,
        cs_mi_store_data_imm, cs_mi_store_data_index,
        cs_mi_load_register_imm, cs_mi_store_register_mem,
        cs_mi_load_register_mem, cs_mi_load_register_reg, cs_mi_mem_to_mem,
        cs_mi_atomic, cs_mi_update_gtt, cs_mi_report_perf_count,
        cs_mi_flush_dw, cs_mi_batch_buffer_start;

/* cs-alu.c */
CsCmdFn cs_mi_set_predicate, cs_mi_predicate, cs_mi_math,
        cs_mi_conditional_bb_end;

/* cs-pipe.c */
CsCmdFn cs_pipe_control;

/* cs-blit.c */
CsCmdFn cs_xy_color_blt, cs_xy_src_copy_blt, cs_xy_fast_copy_blt;

#endif
