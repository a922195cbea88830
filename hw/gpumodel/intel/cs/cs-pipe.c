/*
 * intel-gpu command streamer: the render engine's GFXPIPE commands (PRM
 * Vol 2a: Command Reference: Instructions, "PIPE_CONTROL",
 * "GPGPU_WALKER", "MEDIA_OBJECT").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cs-int.h"

int cs_pipe_control(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                    unsigned len)
{
    uint32_t dw1;
    int r;

    if (len < 6) {
        intel_cs_error(e, INTEL_ERROR_INSTRUCTION,
                       "PIPE_CONTROL shorter than 6 dwords");
        return CS_STOP;
    }
    dw1 = cmd[1];
    /*
     * Command Streamer Stall Enable: nothing of it, post-sync write
     * included, happens before the work ahead of it is done.  With guest
     * time counted in instructions, the clock stands still in a slice:
     * without this, an MI_REPORT_PERF_COUNT or breadcrumb after the stall
     * would see a draw's last step only partly done.
     */
    if ((dw1 & PIPE_CONTROL_CS_STALL) &&
        gpu_host_now_ns(&e->gpu->host) < e->in_flight.end_ns) {
        return CS_DRAIN;
    }
    if (dw1 & PIPE_CONTROL_TLB_INVALIDATE) {
        intel_ppgtt_flush(e);
    }
    r = cs_post_sync(e, POST_SYNC_OP(dw1),
                     dw1 & PIPE_CONTROL_STORE_DATA_INDEX,
                     dw1 & PIPE_CONTROL_GLOBAL_GTT_IVB,
                     addr48(cmd[2] & ~3u, cmd[3]),
                     cmd[4] | (uint64_t)cmd[5] << 32, 8);
    if (r == CS_NEXT && (dw1 & PIPE_CONTROL_NOTIFY)) {
        intel_cs_raise(e, INTEL_GT_FLUSH_NOTIFY);
    }
    return r;
}

/* @a * @b, saturating: the operands are guest-controlled. */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    uint64_t r;

    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* Thread groups of a GPGPU_WALKER: (dimension - start) in x, y and z. */
static uint64_t walker_groups(const uint32_t *cmd)
{
    uint64_t x = cmd[7] > cmd[5] ? cmd[7] - cmd[5] : 0;
    uint64_t y = cmd[10] > cmd[8] ? cmd[10] - cmd[8] : 0;
    uint64_t z = cmd[12] > cmd[11] ? cmd[12] - cmd[11] : 0;

    return mul_sat(mul_sat(x, y), z);
}

/*
 * GFXPIPE commands no pipeline executes: counted and skipped.  (The 3D
 * pipeline, render.c, runs 3DPRIMITIVE; media.c runs media and GPGPU
 * walkers once a kernel is loaded.)  Skipped GPGPU and media dispatch is
 * modelled from the command: a GPGPU_WALKER its threads per group (thread
 * width counter maximum + 1) times its groups, a MEDIA_OBJECT one thread.
 * The threads' EU work (eu.c) takes engine time in cs_step().
 */
int cs_gfx_skip(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                unsigned len)
{
    uint32_t op = cmd[0] & GFXPIPE_OPCODE_MASK;
    uint64_t threads;

    if (op == GPGPU_WALKER && len >= 13) {
        e->stats.walkers++;
        threads = mul_sat((cmd[4] & GPGPU_WALKER_THREAD_WIDTH_MASK) + 1,
                          walker_groups(cmd));
        e->stats.gpgpu_threads += threads;
        intel_eu_dispatch(e, INTEL_EU_TS, threads);
    } else if (op == MEDIA_OBJECT) {
        e->stats.walkers++;
        e->stats.gpgpu_threads++;
        intel_eu_dispatch(e, INTEL_EU_TS, 1);
    }
    e->stats.cmds_3d++;
    return CS_NEXT;
}
