/*
 * intel-gpu GPGPU and media pipelines (PRM Vol 2a: Command Reference:
 * Instructions, "MEDIA_VFE_STATE", "MEDIA_INTERFACE_DESCRIPTOR_LOAD",
 * "MEDIA_CURBE_LOAD", "GPGPU_WALKER", "MEDIA_OBJECT"; PRM Vol 7:
 * 3D-Media-GPGPU, "Media GPGPU Pipeline").
 *
 * Not executed yet: the commands are counted and skipped (cs_gfx_skip).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "gfx-int.h"

int intel_media_cmd(IntelEngine *e, const CsCmd *c, const uint32_t *cmd,
                    unsigned len)
{
    return cs_gfx_skip(e, c, cmd, len);
}

void intel_media_reset(IntelEngine *e)
{
    memset(&e->gfx.media, 0, sizeof(e->gfx.media));
}
