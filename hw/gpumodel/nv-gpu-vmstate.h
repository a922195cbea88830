/*
 * nv-gpu: migration state of the model (nv-gpu-vmstate.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_NV_GPU_VMSTATE_H
#define HW_GPUMODEL_NV_GPU_VMSTATE_H

#include "migration/vmstate.h"

/* An NvGpu, the model's state. */
extern const VMStateDescription vmstate_nv_gpu_model;

#endif
