/*
 * intel-gpu GPGPU and media pipeline state (media.c): what MEDIA_VFE_STATE,
 * MEDIA_INTERFACE_DESCRIPTOR_LOAD and MEDIA_CURBE_LOAD leave for the
 * walkers.  Data only; embedded in IntelGfxState.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_MEDIA_STATE_H
#define HW_GPUMODEL_INTEL_MEDIA_STATE_H

#include <stdint.h>

typedef struct IntelMediaState {
    uint32_t reserved;
} IntelMediaState;

#endif
