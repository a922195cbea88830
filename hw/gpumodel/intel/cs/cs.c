/*
 * intel-gpu command streamer: fetches commands from a ring or from batch
 * buffers and executes them (PRM Vol 2a: Command Reference:
 * Instructions, "Command Streamer Command Formats", "Memory Interface
 * Commands"; "Execution Control Infrastructure").  This file holds the
 * fetch, the decode table, the run loop with its budget and the cost
 * accounting; the commands are in cs-mi.c, cs-alu.c, cs-pipe.c and
 * cs-blit.c (see cs-int.h).
 *
 * Execution is deferred work on the virtual clock: a doorbell (TAIL write,
 * execlist Load) only schedules the engine; each run executes at most a
 * budget of commands, then the next slice is scheduled after the modelled
 * time the slice took (and no sooner than CS_SLICE_GAP_NS), so a batch
 * that jumps to itself runs forever without holding the host's main loop.
 * Nor sooner than the host work the slice did allows: a slice of EU work
 * (a draw, a walker) or a large blit costs the host milliseconds for
 * microseconds of modelled GPU time, and back to back such slices would
 * hold QEMU's main loop, and the vCPUs waiting for it, most of the time.
 * That work is counted, not timed (interpreted EU instructions, pixels,
 * bytes blitted, at about what they cost a host): what the guest sees then
 * depends on what it asked for, never on how fast or busy the host is,
 * and under -icount the guest's timing is the same on every host.
 *
 * Cost model: every command costs CS_NS_PER_DWORD per dword plus its
 * table cost (flushes, post-sync writes), blits one nanosecond per 16
 * bytes and dispatched threads the time the EU array takes for them
 * (eu.c).  The sum is the engine's busy time, feeding timestamps and
 * statistics.  A slice's commands take effect when it runs, but its busy
 * time and EU work are done evenly over the following cost nanoseconds
 * (intel_engine_stats_at(), for the OA counters), and the engine starts
 * its next slice only after them.
 *
 * One table maps (command type, opcode) to name, length rule, where it
 * may run and its handler.  Handlers run with the fetch position already
 * past the command; a handler that must wait (an unsatisfied semaphore)
 * returns CS_RETRY and the position is put back.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>
#include "../../gpumodel-math.h"
#include "cs-int.h"

#define CS_SLICE_BUDGET     2048        /* work units per slice */
#define CS_NS_PER_DWORD     1
#define CS_PREFETCH_DWORDS  256         /* per refill, within a page */

/* ---- the command table ---- */

/*
 * A command of one dword (@len_bits 0) or with its DWord Length in the
 * header's low @len_bits bits; then optional fields (.predicate_enable).
 */
#define CS_CMD(n, len_bits, f, cost, fn_, ...) \
    { .name = n, .fixed_len = (len_bits) ? 0 : 1, \
      .len_mask = INSTR_LEN_MASK(len_bits), .flags = f, .cost_ns = cost, \
      .fn = fn_, __VA_ARGS__ }
/* Entries are named after their header's macro, or as the PRM names them. */
#define CS_MI(hdr, ...)     [MI_OPCODE(hdr)] = CS_CMD(#hdr, __VA_ARGS__)
#define CS_MI_AS(hdr, name, ...) \
    [MI_OPCODE(hdr)] = CS_CMD(name, __VA_ARGS__)
#define CS_BLT_AS(hdr, name, ...) \
    [BLT_OPCODE(hdr)] = CS_CMD(name, __VA_ARGS__)

/* Memory Interface commands, by opcode. */
static const CsCmd mi_cmds[64] = {
    CS_MI(MI_NOOP, 0, CS_ALL, 0, cs_mi_noop),
    CS_MI(MI_SET_PREDICATE, 0, CS_UNPREDICATED, 0, cs_mi_set_predicate),
    CS_MI(MI_USER_INTERRUPT, 0, CS_ALL, 0, cs_mi_user_interrupt),
    CS_MI(MI_WAIT_FOR_EVENT, 0, CS_RCS_BCS | CS_UNIMP, 0, cs_mi_unimp),
    CS_MI(MI_WAIT_FOR_EVENT_2, 0, CS_RCS_BCS | CS_UNIMP, 0, cs_mi_unimp),
    CS_MI(MI_ARB_CHECK, 0, CS_ALL, 0, cs_mi_arb_check),
    CS_MI(MI_REPORT_HEAD, 0, CS_ALL, 0, cs_mi_report_head),
    CS_MI(MI_ARB_ON_OFF, 0, CS_PRIV, 0, cs_mi_arb_on_off),
    CS_MI(MI_BATCH_BUFFER_END, 0, CS_ALL, 0, cs_mi_batch_buffer_end),
    CS_MI(MI_SUSPEND_FLUSH, 0, CS_ALL, 0, cs_mi_accept),
    CS_MI(MI_PREDICATE, 0, CS_RCS_ONLY, 0, cs_mi_predicate),
    CS_MI(MI_LOAD_SCAN_LINES_INCL, 6, CS_RCS_BCS | CS_UNIMP, 0, cs_mi_unimp),
    CS_MI(MI_LOAD_SCAN_LINES_EXCL, 6, CS_RCS_BCS | CS_UNIMP, 0, cs_mi_unimp),
    CS_MI(MI_DISPLAY_FLIP, 8, CS_RCS_BCS | CS_PRIV | CS_UNIMP, 0, cs_mi_unimp),
    CS_MI(MI_SET_CONTEXT, 8, CS_RCS_ONLY | CS_PRIV | CS_UNIMP, 0, cs_mi_unimp),
    CS_MI_AS(MI_MATH_CMD, "MI_MATH", 8, CS_ALL, 0, cs_mi_math),
    CS_MI(MI_SEMAPHORE_SIGNAL, 8, CS_ALL, 0, cs_mi_semaphore_signal),
    CS_MI(MI_SEMAPHORE_WAIT, 8, CS_ALL, 0, cs_mi_semaphore_wait),
    CS_MI(MI_FORCE_WAKEUP, 8, CS_NOT_RCS, 0, cs_mi_accept),
    CS_MI(MI_STORE_DATA_IMM, 10, CS_ALL, 10, cs_mi_store_data_imm),
    CS_MI(MI_STORE_DATA_INDEX, 8, CS_PRIV, 10, cs_mi_store_data_index),
    CS_MI_AS(MI_LOAD_REGISTER_IMM_CMD, "MI_LOAD_REGISTER_IMM", 8, CS_ALL, 0,
             cs_mi_load_register_imm),
    CS_MI(MI_UPDATE_GTT, 10, CS_PRIV, 0, cs_mi_update_gtt),
    CS_MI(MI_STORE_REGISTER_MEM, 8, CS_ALL, 10,
          cs_mi_store_register_mem,
          .predicate_enable = MI_SRM_PREDICATE_ENABLE),
    CS_MI(MI_FLUSH_DW, 6, CS_NOT_RCS, 100, cs_mi_flush_dw),
    CS_MI(MI_CLFLUSH, 10, CS_RCS_ONLY, 0, cs_mi_accept),
    CS_MI(MI_REPORT_PERF_COUNT, 6, CS_RCS_ONLY, 100, cs_mi_report_perf_count),
    CS_MI(MI_LOAD_REGISTER_MEM, 8, CS_ALL, 10, cs_mi_load_register_mem),
    CS_MI(MI_LOAD_REGISTER_REG, 8, CS_ALL, 0, cs_mi_load_register_reg),
    /* The Gen11 PRM's name for MI_COPY_MEM_MEM. */
    CS_MI_AS(MI_COPY_MEM_MEM, "MI_MEM_TO_MEM", 8, CS_ALL, 10, cs_mi_mem_to_mem),
    CS_MI(MI_ATOMIC, 8, CS_ALL, 20, cs_mi_atomic),
    CS_MI(MI_BATCH_BUFFER_START, 8, CS_ALL, 0, cs_mi_batch_buffer_start),
    CS_MI(MI_CONDITIONAL_BATCH_BUFFER_END, 8, CS_ALL, 0,
          cs_mi_conditional_bb_end),
    CS_MI(MI_PRT_BATCH_BUFFER_START, 8, CS_ALL | CS_UNIMP, 0, cs_mi_unimp),
};

/* Blitter (2D) commands, by opcode. */
static const CsCmd blt_cmds[128] = {
    CS_BLT_AS(XY_FAST_COPY_BLT_CMD, "XY_FAST_COPY_BLT", 8, CS_ALL, 0,
              cs_xy_fast_copy_blt),
    CS_BLT_AS(XY_COLOR_BLT_CMD, "XY_COLOR_BLT", 8, CS_ALL, 0, cs_xy_color_blt),
    CS_BLT_AS(XY_SRC_COPY_BLT_CMD, "XY_SRC_COPY_BLT", 8, CS_ALL, 0,
              cs_xy_src_copy_blt),
};

static const CsCmd blt_unknown_cmd =
    CS_CMD("2D", 8, CS_ALL | CS_UNIMP, 0, cs_mi_unimp);

/* GFXPIPE commands: the few the model looks at, then by subtype. */
static const CsCmd pipe_control_cmd =
    CS_CMD("PIPE_CONTROL", 8, CS_RCS_ONLY, 100, cs_pipe_control,
           .predicate_enable = GFX_PREDICATE_ENABLE);
static const CsCmd gfx_3dprimitive_cmd =
    CS_CMD("GFX", 8, CS_ALL, 0, intel_gfx_cmd,
           .predicate_enable = GFX_PREDICATE_ENABLE);
static const CsCmd gfx_1dw_cmd = CS_CMD("GFX_1DW", 0, CS_ALL, 0,
                                        intel_gfx_cmd);
static const CsCmd gfx_cmd = CS_CMD("GFX", 8, CS_ALL, 0, intel_gfx_cmd);
static const CsCmd media_cmd = CS_CMD("MEDIA", 16, CS_ALL, 0, intel_gfx_cmd);

/* Decode a header; NULL for an invalid command. */
static const CsCmd *cs_decode(uint32_t hdr)
{
    const CsCmd *c;

    switch (INSTR_CLIENT(hdr)) {
    case INSTR_MI_CLIENT:
        c = &mi_cmds[MI_OPCODE(hdr)];
        return c->fn ? c : NULL;
    case INSTR_BC_CLIENT:
        c = &blt_cmds[BLT_OPCODE(hdr)];
        return c->fn ? c : &blt_unknown_cmd;
    case INSTR_RC_CLIENT:
        switch (hdr & GFXPIPE_OPCODE_MASK) {
        case GEN11_PIPE_CONTROL_HEADER:
            return &pipe_control_cmd;
        case GEN11_3DPRIMITIVE_HEADER:
            return &gfx_3dprimitive_cmd;
        case GEN11_PIPELINE_SELECT_HEADER:
        case GEN11_3DSTATE_VF_STATISTICS_HEADER:
            return &gfx_1dw_cmd;        /* single dwords */
        }
        return GFXPIPE_SUBTYPE(hdr) == GFXPIPE_MEDIA ? &media_cmd : &gfx_cmd;
    default:
        return NULL;
    }
}

static unsigned cs_cmd_len(const CsCmd *c, uint32_t hdr)
{
    return c->fixed_len ? c->fixed_len : (hdr & c->len_mask) + 2;
}

static bool cs_engine_allowed(IntelEngine *e, const CsCmd *c)
{
    bool rcs = e->id == INTEL_RCS0, bcs = e->id == INTEL_BCS0;

    return !((c->flags & CS_RCS_ONLY) && !rcs) &&
           !((c->flags & CS_NOT_RCS) && rcs) &&
           !((c->flags & CS_NOT_BCS) && bcs) &&
           !((c->flags & CS_RCS_BCS) && !rcs && !bcs);
}

/* Does predication turn this command into a NOOP? */
static bool cs_predicated_off(IntelEngine *e, uint32_t hdr, const CsCmd *c)
{
    if (c->flags & CS_UNPREDICATED) {
        return false;
    }
    if (e->set_predicate &&
        (intel_engine_reg(e, INTEL_RING_SET_PREDICATE_RESULT) & 1)) {
        return true;
    }
    /* Commands with their own Predicate Enable use MI_PREDICATE_RESULT. */
    if (hdr & c->predicate_enable) {
        return !(intel_engine_reg(e, INTEL_RING_PREDICATE_RESULT) & 1);
    }
    return false;
}

/* ---- fetch and execution ---- */

/*
 * Make @need dwords at @addr available.  A refill reads to the end of the
 * page (commands are prefetched as on hardware), and further only as far
 * as the command needs, so a command ending at a page end never touches
 * the next page.
 */
static const uint32_t *cs_fetch(IntelEngine *e, IntelCsFetch *f, uint64_t addr,
                                bool ppgtt, unsigned need)
{
    unsigned n;

    if (f->len && f->ppgtt == ppgtt && addr >= f->addr &&
        addr + need * 4ull <= f->addr + f->len * 4ull) {
        return &f->buf[(addr - f->addr) / 4];
    }
    n = MAX(need, MIN(CS_PREFETCH_DWORDS, (4096 - (addr & 0xfff)) / 4));
    n = MIN(n, INTEL_CS_FETCH_DWORDS);
    f->len = 0;
    if (intel_vm_rw(e, ppgtt, addr, f->buf, n * 4, false)) {
        if (need == n || intel_vm_rw(e, ppgtt, addr, f->buf, need * 4,
                                     false)) {
            return NULL;
        }
        n = need;
    }
    for (unsigned i = 0; i < n; i++) {
        f->buf[i] = GUINT32_FROM_LE(f->buf[i]);
    }
    f->addr = addr;
    f->len = n;
    f->ppgtt = ppgtt;
    return f->buf;
}

static uint32_t ring_size(IntelEngine *e)
{
    return ((intel_engine_reg(e, INTEL_RING_CTL) >> 12) & 0x1ff) * 4096 +
           4096;
}

/*
 * Where the next command is, and the dwords a command there may have:
 * to the ring's end, or in a batch the prefetch buffer's size.
 */
static uint64_t cs_position(IntelEngine *e, bool *ppgtt, unsigned *room)
{
    if (e->depth) {
        *ppgtt = e->level[e->depth].ppgtt;
        *room = INTEL_CS_FETCH_DWORDS;
        return e->level[e->depth].addr;
    }
    *ppgtt = false;
    *room = (ring_size(e) - (intel_engine_reg(e, INTEL_RING_HEAD) &
                             0x1ffffc)) / 4;
    return (intel_engine_reg(e, INTEL_RING_START) & ~0xfffu) +
           (intel_engine_reg(e, INTEL_RING_HEAD) & 0x1ffffc);
}

static void cs_advance(IntelEngine *e, unsigned dwords)
{
    uint32_t head, off, wraps;

    if (e->depth) {
        e->level[e->depth].addr += dwords * 4;
        return;
    }
    head = intel_engine_reg(e, INTEL_RING_HEAD);
    off = (head & 0x1ffffc) + dwords * 4;
    wraps = head >> 21;
    if (off >= ring_size(e)) {
        off -= ring_size(e);
        wraps++;
    }
    intel_engine_set_reg(e, INTEL_RING_HEAD, wraps << 21 | off);
}

/* Dwords between HEAD and TAIL, across the ring's end. */
static uint32_t ring_dwords_to_tail(IntelEngine *e)
{
    uint32_t head = intel_engine_reg(e, INTEL_RING_HEAD) & 0x1ffffc;
    uint32_t tail = intel_engine_reg(e, INTEL_RING_TAIL) & 0x1ffff8;

    return (tail >= head ? tail - head : ring_size(e) - head + tail) / 4;
}

static bool ring_empty(IntelEngine *e)
{
    return ring_dwords_to_tail(e) == 0;
}

/* ACTHD and the batch registers show where the engine is. */
static uint32_t cs_bb_state(const IntelCsLevel *l)
{
    return INTEL_BB_STATE_ACTIVE | (l->ppgtt ? INTEL_BB_STATE_PPGTT : 0) |
           (l->privileged ? INTEL_BB_STATE_PRIVILEGED : 0);
}

/* Also before a context save: the image gets the current position. */
void intel_cs_sync_registers(IntelEngine *e)
{
    bool ppgtt;
    unsigned room;
    uint64_t pos = cs_position(e, &ppgtt, &room);
    IntelCsLevel *l1 = &e->level[1];
    /* A workaround batch runs on top of the context's own position. */
    unsigned depth = e->depth == INTEL_CS_WA_LEVEL ? e->wa_return_depth
                                                   : e->depth;

    intel_engine_set_reg(e, INTEL_RING_ACTHD, pos);
    intel_engine_set_reg(e, INTEL_RING_ACTHD_UDW, pos >> 32);
    intel_engine_set_reg(e, INTEL_RING_BBADDR, depth ? l1->addr : 0);
    intel_engine_set_reg(e, INTEL_RING_BBADDR_UDW,
                         depth ? l1->addr >> 32 : 0);
    intel_engine_set_reg(e, INTEL_RING_BB_STATE, depth ? cs_bb_state(l1) : 0);
    intel_engine_set_reg(e, INTEL_RING_SBB_ADDR,
                         depth > 1 ? e->level[2].addr : 0);
    intel_engine_set_reg(e, INTEL_RING_SBB_ADDR_UDW,
                         depth > 1 ? e->level[2].addr >> 32 : 0);
    intel_engine_set_reg(e, INTEL_RING_SBB_STATE,
                         depth > 1 ? cs_bb_state(&e->level[2]) : 0);
}

/* Reload the batch levels from the registers (after a context restore). */
static void cs_load_level(IntelEngine *e, IntelCsLevel *l, uint32_t state,
                          uint32_t lo, uint32_t hi)
{
    l->addr = cs_addr48(lo, hi);
    l->ppgtt = state & INTEL_BB_STATE_PPGTT;
    l->privileged = state & INTEL_BB_STATE_PRIVILEGED;
}

static void cs_load_batch_state(IntelEngine *e)
{
    uint32_t bb = intel_engine_reg(e, INTEL_RING_BB_STATE);
    uint32_t sbb = intel_engine_reg(e, INTEL_RING_SBB_STATE);

    e->depth = 0;
    if (bb & INTEL_BB_STATE_ACTIVE) {
        cs_load_level(e, &e->level[1], bb,
                      intel_engine_reg(e, INTEL_RING_BBADDR),
                      intel_engine_reg(e, INTEL_RING_BBADDR_UDW));
        e->depth = 1;
        if (sbb & INTEL_BB_STATE_ACTIVE) {
            cs_load_level(e, &e->level[2], sbb,
                          intel_engine_reg(e, INTEL_RING_SBB_ADDR),
                          intel_engine_reg(e, INTEL_RING_SBB_ADDR_UDW));
            e->depth = 2;
        }
    }
}

static bool cs_runnable(IntelEngine *e)
{
    return e->state == INTEL_CS_RUNNING &&
           !(intel_engine_reg(e, INTEL_RING_MI_MODE) &
             INTEL_MI_MODE_STOP_RING) &&
           !(intel_engine_reg(e, INTEL_RING_RESET_CTL) &
             INTEL_RESET_CTL_REQUEST_RESET);
}

/* The ring ran dry: the element is complete, or a legacy ring idles. */
static void cs_ring_done(IntelEngine *e)
{
    if (intel_cs_execlists_mode(e) && intel_engine_ctx_active(e)) {
        e->submit->element_done(e);
    } else {
        intel_engine_set_state(e, INTEL_CS_IDLE);
    }
}

/*
 * A run of MI_NOOPs (without an identification number) does nothing but
 * take time: execute as many as are fetched, within the budget and before
 * TAIL, at once.
 */
static unsigned cs_noop_run(IntelEngine *e, IntelCsFetch *f,
                            const uint32_t *cmd, unsigned room,
                            unsigned budget, uint64_t *cost)
{
    unsigned avail = MIN(f->len - (unsigned)(cmd - f->buf), room), n = 0;

    if (!e->depth) {
        avail = MIN(avail, ring_dwords_to_tail(e));
    }
    avail = MIN(avail, budget);
    while (n < avail && !cmd[n]) {
        n++;
    }
    e->stats.commands += n;
    *cost += n * CS_NS_PER_DWORD;
    cs_advance(e, n);
    return n;
}

static uint64_t cs_eu_clocks(IntelEngine *e)
{
    uint64_t sum = 0;

    for (unsigned i = 0; i < INTEL_EU_FFIDS; i++) {
        sum += e->stats.eu_clocks[i];
    }
    return sum;
}

/*
 * Execute one command; returns the work units it took.  *@drain: the
 * command waits for the work in flight (the slice is over).
 */
static unsigned cs_step(IntelEngine *e, IntelCsFetch *f, unsigned budget,
                        uint64_t *cost, bool *drain)
{
    unsigned saved_depth = e->depth, room, len;
    uint32_t saved_head = intel_engine_reg(e, INTEL_RING_HEAD);
    IntelCsLevel saved = e->depth ? e->level[e->depth] : (IntelCsLevel) {0};
    const uint32_t *cmd;
    const CsCmd *c;
    bool ppgtt;
    uint64_t pos, blit0 = e->stats.blit_bytes, eu0 = cs_eu_clocks(e);
    int r;

    if (!e->depth && ring_empty(e)) {
        cs_ring_done(e);
        return 1;
    }
    if (e->depth == INTEL_CS_WA_LEVEL && e->level[e->depth].end &&
        e->level[e->depth].addr >= e->level[e->depth].end) {
        cs_wa_done(e);
        return 1;
    }
    pos = cs_position(e, &ppgtt, &room);
    cmd = cs_fetch(e, f, pos, ppgtt, 1);
    if (!cmd) {
        cs_fault(e, ppgtt, pos);
        return 1;
    }
    if (!cmd[0]) {
        return cs_noop_run(e, f, cmd, room, budget, cost);
    }
    c = cs_decode(cmd[0]);
    if (!c || !cs_engine_allowed(e, c)) {
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION, c ?
                           "command not supported on this engine" :
                           "invalid command header");
        return 1;
    }
    len = cs_cmd_len(c, cmd[0]);
    if (!e->depth && len > ring_dwords_to_tail(e)) {
        /* The rest of the command is not submitted yet: wait for TAIL. */
        cs_ring_done(e);
        return 1;
    }
    if (len > room) {
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION, e->depth ?
                           "command longer than the model fetches" :
                           "command crosses the end of the ring");
        return 1;
    }
    cmd = cs_fetch(e, f, pos, ppgtt, len);
    if (!cmd) {
        cs_fault(e, ppgtt, pos);
        return 1;
    }
    e->stats.commands++;
    *cost += len * CS_NS_PER_DWORD + c->cost_ns;
    cs_advance(e, len);
    if (cs_predicated_off(e, cmd[0], c)) {
        return 1;
    }
    if ((c->flags & CS_PRIV) && !cs_privileged(e)) {
        cs_privilege_violation(e, cmd[0], 0, c->name);
        return 1;
    }
    r = c->fn(e, c, cmd, len);
    if (r == CS_DRAIN) {
        /* Its cost is paid when it executes. */
        *cost -= len * CS_NS_PER_DWORD + c->cost_ns;
        e->stats.commands--;
        *drain = true;
    }
    if (r == CS_RETRY || r == CS_CONTINUE || r == CS_CONTINUE_ARB ||
        r == CS_DRAIN) {
        /* Not done: the command executes again from the same place. */
        e->depth = saved_depth;
        if (saved_depth) {
            e->level[saved_depth] = saved;
        } else {
            intel_engine_set_reg(e, INTEL_RING_HEAD, saved_head);
        }
        /* An unsuccessful semaphore wait is an arbitration point. */
        if (r == CS_RETRY || r == CS_CONTINUE_ARB) {
            cs_arbitrate(e);
        }
    }
    /* Blits take one nanosecond per 16 bytes moved, on top of the command. */
    *cost += (e->stats.blit_bytes - blit0) / 16;
    /* Dispatched threads: the time the EU array takes to run them. */
    *cost += intel_gt_ns_for(e->gpu, intel_eu_busy_clocks(
                                 e->gpu, cs_eu_clocks(e) - eu0));
    /* A dispatch in progress, or a drain, has used up the slice. */
    if (r == CS_CONTINUE || r == CS_CONTINUE_ARB || r == CS_DRAIN) {
        return MAX(budget, 1u);
    }
    /* Of the slice's budget, a blit takes one more unit per 4 KiB. */
    return 1 + (e->stats.blit_bytes - blit0) / 4096;
}

/*
 * A command executed at @now took @cost and dispatched EU and pixel work
 * (the statistics since @s0).  Its effects are there at once; the engine
 * does its work at the modelled pace, after the work still in flight,
 * and every report taken meanwhile (an OA context-switch report later in
 * the same slice too) sees only the part done by then.
 */
static void cs_account(IntelEngine *e, uint64_t now, uint64_t cost,
                       const IntelCsStats *s0)
{
    IntelCsInFlight *w = &e->in_flight;

    if (now >= w->end_ns) {
        *w = (IntelCsInFlight) { .start_ns = now, .end_ns = now };
    } else if (now > w->start_ns) {
        intel_engine_in_flight_rebase(w, now);
    }
    e->stats.busy_ns += cost;
    w->end_ns += cost;
    for (unsigned i = 0; i < INTEL_EU_FFIDS; i++) {
        w->eu_clocks[i] += e->stats.eu_clocks[i] - s0->eu_clocks[i];
        for (unsigned k = 0; k < INTEL_EU_EVS; k++) {
            w->eu_ev[i][k] += e->stats.eu_ev[i][k] - s0->eu_ev[i][k];
        }
    }
    for (unsigned i = 0; i < INTEL_PX_COUNTS; i++) {
        w->px[i] += e->stats.px[i] - s0->px[i];
    }
}

/* The pause the slice's host work since @s0 earns (cs-int.h). */
static uint64_t cs_slice_pace(IntelEngine *e, const IntelCsStats *s0)
{
    static const unsigned pixel_events[] = {
        INTEL_PX_RASTERIZED, INTEL_PX_SAMPLES_WRITTEN, INTEL_PX_SAMPLER_TEXELS,
    };
    uint64_t pace = e->slice_eu_instructions * CS_PACE_NS_PER_EU_INSTRUCTION +
                    (e->stats.blit_bytes - s0->blit_bytes) /
                    CS_PACE_BLIT_BYTES_PER_NS;

    for (unsigned i = 0; i < G_N_ELEMENTS(pixel_events); i++) {
        unsigned k = pixel_events[i];

        pace += (e->stats.px[k] - s0->px[k]) * CS_PACE_NS_PER_PIXEL_EVENT;
    }
    return pace;
}

void intel_cs_run(IntelEngine *e, unsigned budget)
{
    uint64_t cost = 0, commands = e->stats.commands;
    IntelCsStats s0, slice0 = e->stats;
    unsigned used = 0;
    bool drain = false, halted = e->state == INTEL_CS_HALTED;
    IntelGtEventArgs slice = { .engine = e };

    /*
     * A hang drill: the engine stops fetching, stays busy and reports
     * nothing, as a hung engine does, until an engine or GT reset.
     */
    if (e->hang_drill) {
        return;
    }
    /* Memory may have changed since the last slice: fetch afresh. */
    e->fetch.len = 0;
    e->slice_eu_instructions = 0;
    if (e->state == INTEL_CS_WAITING) {
        intel_engine_set_state(e, INTEL_CS_RUNNING);
    }
    /* An idle engine takes a new execlist at once. */
    if (intel_engine_load_pending(e) && !intel_engine_ctx_active(e) &&
        e->state != INTEL_CS_HALTED) {
        e->submit->arbitrate(e);
    }
    /* OA reports due before this slice see the engine as it was. */
    slice.now = gpu_host_now_ns(&e->gpu->host);
    intel_gt_notify(e->gpu, INTEL_GT_SLICE, &slice);
    while (used < budget && cs_runnable(e)) {
        uint64_t step_cost = 0;

        s0 = e->stats;
        used += cs_step(e, &e->fetch, budget - used, &step_cost, &drain);
        /*
         * At the time now, not the slice's start: QEMU's clock may move
         * meanwhile, and an OA sync in the step has seen the time it read.
         */
        cs_account(e, gpu_host_now_ns(&e->gpu->host), step_cost, &s0);
        cost += step_cost;
    }
    intel_cs_sync_registers(e);
    if (!halted && e->state == INTEL_CS_HALTED) {
        gpu_host_trace(&e->gpu->host, INTEL_TRACE_ENGINE_ERROR, e->id,
                       intel_engine_reg(e, INTEL_RING_ESR),
                       (uint64_t)intel_engine_reg(e, INTEL_RING_ACTHD_UDW) <<
                       32 | intel_engine_reg(e, INTEL_RING_ACTHD));
    }
    gpu_host_trace(&e->gpu->host, INTEL_TRACE_ENGINE_SLICE, e->id,
                   e->stats.commands - commands, cost);
    if (cs_runnable(e)) {
        uint64_t pace = cs_slice_pace(e, &slice0);

        /* A stalled command goes on as soon as the work is done. */
        gpu_host_timer_mod(&e->gpu->host, e->timer,
                           MAX(e->in_flight.end_ns,
                               gpu_host_now_ns(&e->gpu->host) +
                               (drain ? pace : MAX(pace, CS_SLICE_GAP_NS))));
    }
}

void intel_cs_timer(void *opaque)
{
    intel_cs_run(opaque, CS_SLICE_BUDGET);
}

/*
 * A doorbell (TAIL write, execlist Load, semaphore signal, STOP_RING or
 * reset request cleared): execute soon, from the main loop.
 */
void intel_cs_kick(IntelEngine *e)
{
    if (e->state == INTEL_CS_HALTED) {
        return;
    }
    if (e->state == INTEL_CS_WAITING ||
        (e->state == INTEL_CS_IDLE && !intel_cs_execlists_mode(e) &&
         (intel_engine_reg(e, INTEL_RING_CTL) & 1) && !ring_empty(e))) {
        intel_engine_set_state(e, INTEL_CS_RUNNING);
    }
    gpu_host_trace(&e->gpu->host, INTEL_TRACE_ENGINE_KICK, e->id, e->state, 0);
    if (e->state == INTEL_CS_RUNNING || intel_engine_load_pending(e)) {
        /* Not before the work already committed is done. */
        gpu_host_timer_mod(&e->gpu->host, e->timer,
                           MAX(gpu_host_now_ns(&e->gpu->host),
                               e->in_flight.end_ns));
    }
}

/*
 * A context was restored (execlists.c): arbitration is on again, the
 * engine continues at the image's batch position, after the context's
 * workaround batches.
 */
void intel_cs_context_restored(IntelEngine *e)
{
    e->arb_enabled = true;
    /* Prefetched commands belong to the old context's address space. */
    e->fetch.len = 0;
    cs_load_batch_state(e);
    cs_start_wa_batches(e);
    e->stats.context_switches++;
}

/* The execution queue ran out (execlists.c): nothing to execute. */
void intel_cs_go_idle(IntelEngine *e)
{
    e->depth = 0;
    intel_engine_set_state(e, INTEL_CS_IDLE);
}

void intel_cs_reset(IntelEngine *e)
{
    gpu_host_timer_del(&e->gpu->host, e->timer);
    intel_engine_set_state(e, INTEL_CS_IDLE);
    e->depth = 0;
    e->wa_next = (IntelCsLevel) { 0 };
    e->arb_enabled = true;          /* arbitration is on by default */
    e->hang_drill = false;
    e->csb_drill = INTEL_CSB_DRILL_NONE;
    e->dma_drill = 0;
    e->set_predicate = 0;
    e->srca = e->srcb = e->accu = 0;
    e->zf = e->cf = false;
    e->pml4 = 0;
    /* Work in flight is abandoned: its statistics count as done. */
    e->in_flight = (IntelCsInFlight) { 0 };
    intel_ppgtt_flush(e);
    intel_gfx_reset(e);
}

/* Loaded state the command streamer's loops and tables index by. */
bool intel_cs_post_load(IntelEngine *e, char **err)
{
    if (e->state > INTEL_CS_HALTED || e->depth >= INTEL_CS_LEVELS ||
        e->wa_return_depth >= INTEL_CS_LEVELS) {
        *err = g_strdup_printf("engine %u: state %u, depth %u/%u", e->id,
                               e->state, e->depth, e->wa_return_depth);
        return false;
    }
    if (e->in_flight.start_ns > e->in_flight.end_ns) {
        *err = g_strdup_printf("engine %u: work in flight from %" PRIu64
                               " to %" PRIu64 " ns", e->id,
                               e->in_flight.start_ns, e->in_flight.end_ns);
        return false;
    }
    e->fetch.len = 0;           /* the prefetched commands are not migrated */
    return intel_gfx_post_load(e, err);
}

/* The command table, for documentation and tests. */
const char *intel_cs_command_name(uint32_t hdr)
{
    const CsCmd *c = cs_decode(hdr);

    return c ? c->name : NULL;
}
