/*
 * intel-gpu command streamer: PIPE_CONTROL (PRM Vol 2a: Command
 * Reference: Instructions, "PIPE_CONTROL").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cs-int.h"
#include "hw/gpumodel/intel/gen11-state.h"

int cs_pipe_control(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                    unsigned len)
{
    Gen11_PIPE_CONTROL pc;
    int r;

    if (len < GEN11_PIPE_CONTROL_LENGTH) {
        intel_engine_error(e, INTEL_ERROR_INSTRUCTION,
                           "PIPE_CONTROL shorter than 6 dwords");
        return CS_STOP;
    }
    gen11_pipe_control_unpack(cmd, len, &pc);
    /*
     * Command Streamer Stall Enable: nothing of it, post-sync write
     * included, happens before the work ahead of it is done.  With guest
     * time counted in instructions, the clock stands still in a slice:
     * without this, an MI_REPORT_PERF_COUNT or breadcrumb after the stall
     * would see a draw's last step only partly done.
     */
    if (pc.command_streamer_stall_enable &&
        gpu_host_now_ns(&e->gpu->host) < e->in_flight.end_ns) {
        return CS_DRAIN;
    }
    if (pc.tlb_invalidate) {
        intel_ppgtt_flush(e);
    }
    /* Destination Address Type 1: the GGTT (else the PPGTT). */
    r = cs_post_sync(e, cmd[0], pc.post_sync_operation, pc.store_data_index,
                     pc.destination_address_type,
                     pc.address, pc.immediate_data, 8);
    if (r == CS_NEXT && pc.notify_enable) {
        intel_engine_raise(e, INTEL_GT_FLUSH_NOTIFY);
    }
    return r;
}
