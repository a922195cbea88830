/*
 * intel-gpu forcewake: the request/acknowledge pairs of the Gen11
 * "Force Wake Table" (PRM vol 13).
 *
 * Software writes a request register (masked) and polls its acknowledge
 * register.  The model keeps every power well awake, so the acknowledge
 * follows the request at once: it reads the request's value.  Registers
 * stay accessible whatever the forcewake state, as i915 writes shadowed
 * registers (ring tails, ELSQ) without taking forcewake.  A request held
 * in any domain keeps the GT out of RC6 (rc6.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../intel-gpu-int.h"

static uint32_t fw_ack_read(IntelGpu *gpu, const IntelRegBinding *b,
                            uint32_t offset)
{
    uint32_t inst = (offset - b->base - b->reg->offset) / 4;

    return intel_reg_get(gpu, b->reg->aux + inst * 4) & 0xffff;
}

static void fw_req_write(IntelGpu *gpu, const IntelRegBinding *b,
                         uint32_t offset, uint32_t old)
{
    intel_rc6_update(gpu);
}

#define FW_REQ(nm, cnt) \
    INTEL_REG(nm, MASKED, .count = cnt, .write = fw_req_write)
#define FW_ACK(nm, cnt, req) \
    INTEL_REG(nm, RO, .count = cnt, .aux = INTEL_ ## req, .read = fw_ack_read)

/* The media domains by their first instance. */
#define INTEL_FORCEWAKE_MEDIA_VDBOX         INTEL_FORCEWAKE_VDBOX(0)
#define INTEL_FORCEWAKE_ACK_MEDIA_VDBOX     INTEL_FORCEWAKE_ACK_VDBOX(0)
#define INTEL_FORCEWAKE_MEDIA_VEBOX         INTEL_FORCEWAKE_VEBOX(0)
#define INTEL_FORCEWAKE_ACK_MEDIA_VEBOX     INTEL_FORCEWAKE_ACK_VEBOX(0)

static const IntelReg forcewake_regs[] = {
    FW_REQ(FORCEWAKE_RENDER, 1),
    FW_ACK(FORCEWAKE_ACK_RENDER, 1, FORCEWAKE_RENDER),
    FW_REQ(FORCEWAKE_GT, 1),
    FW_ACK(FORCEWAKE_ACK_GT, 1, FORCEWAKE_GT),
    FW_REQ(FORCEWAKE_MEDIA_VDBOX, 8),
    FW_ACK(FORCEWAKE_ACK_MEDIA_VDBOX, 8, FORCEWAKE_MEDIA_VDBOX),
    FW_REQ(FORCEWAKE_MEDIA_VEBOX, 4),
    FW_ACK(FORCEWAKE_ACK_MEDIA_VEBOX, 4, FORCEWAKE_MEDIA_VEBOX),
};

const IntelRegBlock intel_forcewake_block =
    INTEL_REG_BLOCK("forcewake", forcewake_regs);

/* Does software hold any domain awake? */
bool intel_forcewake_held(IntelGpu *gpu)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(forcewake_regs); i++) {
        const IntelReg *r = &forcewake_regs[i];

        if (r->access != INTEL_REG_MASKED) {
            continue;
        }
        for (unsigned k = 0; k < r->count; k++) {
            if (intel_reg_get(gpu, r->offset + 4 * k) & 0xffff) {
                return true;
            }
        }
    }
    return false;
}
