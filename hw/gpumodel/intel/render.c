/*
 * intel-gpu 3D pipeline (PRM Vol 2a: Command Reference: Instructions,
 * "3DSTATE_*", "3DPRIMITIVE"; PRM Vol 7: 3D-Media-GPGPU, "3D Pipeline").
 *
 * Not executed yet: the commands are counted and skipped (cs_gfx_skip).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "gfx-int.h"

int intel_render_cmd(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                     unsigned len)
{
    return cs_gfx_skip(e, c, cmd, len);
}

void intel_render_reset(IntelEngine *e)
{
    memset(&e->gfx.render, 0, sizeof(e->gfx.render));
}
