/*
 * intel-gpu 3D pipeline state (render.c): what the 3DSTATE_* commands
 * leave for 3DPRIMITIVE.  Data only; embedded in IntelGfxState.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_RENDER_STATE_H
#define HW_GPUMODEL_INTEL_RENDER_STATE_H

#include <stdint.h>

typedef struct IntelRenderState {
    uint32_t reserved;
} IntelRenderState;

#endif
