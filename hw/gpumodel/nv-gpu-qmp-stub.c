/*
 * QMP commands of nv-gpu when QEMU is built without it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-gpumodel.h"

void qmp_x_nv_gpu_drill_record_fault(const char *id, uint8_t domain,
                                     Error **errp)
{
    error_setg(errp, "this QEMU is built without nv-gpu");
}
