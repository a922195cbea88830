/*
 * intel-gpu command streamer: PIPE_CONTROL (PRM Vol 2a: Command
 * Reference: Instructions, "PIPE_CONTROL").
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
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION,
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
        intel_engine_raise(e, INTEL_GT_FLUSH_NOTIFY);
    }
    return r;
}
