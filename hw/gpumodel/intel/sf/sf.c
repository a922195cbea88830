/*
 * intel-gpu shared functions: a SEND's message routed by its SFID (PRM
 * Vol 7: 3D-Media-GPGPU, "Shared Functions"; the descriptor layouts in
 * PRM Vol 2d: Command Reference: Structures, "Message Descriptor").
 *
 * Every message descriptor has mlen in bits 28:25, rlen in 24:20 and
 * "header present" in bit 19; a SENDS adds src1's ex_mlen in the
 * extended descriptor's bits 10:6.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "sf.h"

static unsigned sf_desc_mlen(uint32_t desc)
{
    return (desc >> 25) & 0xf;
}

static unsigned sf_desc_rlen(uint32_t desc)
{
    return (desc >> 20) & 0x1f;
}

static bool sf_is_sends(const EuInst *inst)
{
    return inst->opcode == EU_OP_SENDS || inst->opcode == EU_OP_SENDSC;
}

uint8_t *intel_sf_payload(EuThread *t, const EuInst *inst, uint32_t desc,
                          uint32_t ex_desc, unsigned i)
{
    unsigned mlen = sf_desc_mlen(desc), nr;

    if (i < mlen) {
        nr = inst->src[0].nr + i;
    } else if (sf_is_sends(inst) && i - mlen < ((ex_desc >> 6) & 0x1f)) {
        nr = inst->src[1].nr + (i - mlen);
    } else {
        return NULL;
    }
    return nr < EU_GRF_COUNT ? &t->grf[nr * EU_GRF_BYTES] : NULL;
}

uint8_t *intel_sf_response(EuThread *t, const EuInst *inst, uint32_t desc,
                           unsigned i)
{
    unsigned nr = inst->dst.nr + i;

    /* A null destination (the ARF) takes no response. */
    if (i >= sf_desc_rlen(desc) || inst->dst.file != EU_FILE_GRF ||
        nr >= EU_GRF_COUNT) {
        return NULL;
    }
    return &t->grf[nr * EU_GRF_BYTES];
}

uint32_t intel_sf_channels(const EuThread *t, const EuInst *inst)
{
    unsigned g = inst->qtr * 8 + inst->nib * 4;
    uint32_t width = inst->exec_size >= 32 ? UINT32_MAX :
                     (1u << inst->exec_size) - 1;
    uint32_t m;

    if (inst->mask_ctrl) {
        return width;
    }
    m = g < 32 ? (t->active >> g) & width : 0;
    if (inst->pred_ctrl == EU_PRED_NORMAL && inst->flag_nr < 2) {
        unsigned b = inst->flag_subnr * 16 + g;
        uint32_t f = b < 32 ? t->flag[inst->flag_nr] >> b : 0;

        m &= inst->pred_inv ? ~f : f;
    }
    return m;
}

void intel_sf_thread_forget(IntelSfThread *th)
{
    memset(th->surf_cache, 0, sizeof(th->surf_cache));
    memset(th->sampler_cache, 0, sizeof(th->sampler_cache));
    th->blend_rt = 0;
}

/* The message gateway's BarrierMsg sub-function (descriptor bits 2:0). */
#define GW_BARRIER              4

/* R0.2 and a barrier message's M0.2: the barrier ID in bits 30:24. */
#define SF_BARRIER_ID(dw)       (((dw) >> 24) & 0x7f)

/* A gateway message's fault, logged once a step (IntelSfThread). */
static void sf_gateway_error(IntelSfThread *th, const char *what,
                             uint32_t v)
{
    if (!th->gateway_logged) {
        th->gateway_logged = true;
        intel_sf_log(th, GPU_LOG_GUEST_ERROR, "%s (0x%x)", what, v);
    }
}

/*
 * The message gateway (PRM Vol 7: 3D-Media-GPGPU, "Message Gateway"):
 * a BarrierMsg counts toward the thread group's barrier when its M0.2
 * names the group's barrier ID (Mesa's emit_barrier(): R0.2 & 0x7f000000
 * on Gen11, then a wait on n0.0).  One the group's barrier does not
 * count is lost, as on the hardware, where it goes to another barrier or
 * none: the thread's wait then never ends.  The other sub-functions are
 * not modelled.
 */
static int sf_gateway(IntelSfThread *th, EuThread *t, const EuInst *inst,
                      uint32_t desc, uint32_t ex_desc)
{
    static const char *const names[8] = {
        "OpenGateway", "CloseGateway", "ForwardMsg", "GetTimeStamp",
        "BarrierMsg", "UpdateGatewayState", "MMIO read/write", "reserved",
    };
    uint8_t *m0;
    uint32_t m02;

    if ((desc & 7) != GW_BARRIER) {
        intel_sf_log(th, GPU_LOG_UNIMP, "message gateway %s, descriptor "
                     "0x%08x", names[desc & 7], desc);
        return -1;
    }
    m0 = intel_sf_payload(t, inst, desc, ex_desc, 0);
    if (!m0) {
        sf_gateway_error(th, "barrier message without its payload", desc);
        return -1;
    }
    memcpy(&m02, m0 + 8, 4);
    m02 = GUINT32_FROM_LE(m02);
    if (!th->barrier) {
        sf_gateway_error(th, "barrier message from a thread group without "
                         "Barrier Enable", m02);
    } else if (SF_BARRIER_ID(m02) != th->barrier_id) {
        sf_gateway_error(th, "barrier message not for its group's barrier",
                         m02);
    } else {
        th->barrier_msgs++;
    }
    return 0;
}

int intel_sf_send(EuThread *t, const EuInst *inst, uint32_t desc,
                  uint32_t ex_desc, void *opaque)
{
    IntelSfThread *th = opaque;

    if (!th || !th->e) {
        return -1;              /* a thread dispatched without its state */
    }
    switch (inst->sfid) {
    case EU_SFID_SAMPLER:
        return intel_sf_sampler(th, t, inst, desc, ex_desc);
    case EU_SFID_DP_SAMPLER:
    case EU_SFID_DP_RENDER:
    case EU_SFID_DP_CONST:
    case EU_SFID_DP_DATA:
    case EU_SFID_DP_DATA1:
        return intel_sf_dataport(th, t, inst, desc, ex_desc);
    case EU_SFID_NULL:
    case EU_SFID_THREAD_SPAWNER:
    case EU_SFID_GATEWAY:
        /*
         * The end of the thread: the interpreter stops the thread and the
         * pipeline that dispatched it sees it done.
         */
        if (inst->eot) {
            return 0;
        }
        if (inst->sfid == EU_SFID_GATEWAY) {
            return sf_gateway(th, t, inst, desc, ex_desc);
        }
        break;
    }
    intel_sf_log(th, GPU_LOG_UNIMP, "SFID %u message, descriptor 0x%08x",
                 inst->sfid, desc);
    return -1;
}
