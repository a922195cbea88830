/*
 * intel-gpu: migration state of the model (intel-gpu-vmstate.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_GPU_VMSTATE_H
#define HW_GPUMODEL_INTEL_GPU_VMSTATE_H

#include "migration/vmstate.h"

/* An IntelGpu, the model's state. */
extern const VMStateDescription vmstate_intel_gpu_model;

#endif
