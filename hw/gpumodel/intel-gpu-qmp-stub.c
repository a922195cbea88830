/*
 * QMP commands of intel-gpu when QEMU is built without it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-gpumodel.h"

void qmp_x_intel_gpu_inject_irq(const char *id, uint8_t engine_class,
                                uint8_t instance, uint16_t bits, Error **errp)
{
    error_setg(errp, "this QEMU is built without intel-gpu");
}

void qmp_x_intel_gpu_drill_irq(const char *id, uint8_t engine_class,
                               uint8_t instance, uint32_t count,
                               bool has_delay_ns, uint64_t delay_ns,
                               Error **errp)
{
    error_setg(errp, "this QEMU is built without intel-gpu");
}

void qmp_x_intel_gpu_drill_hang(const char *id, uint8_t engine_class,
                                uint8_t instance, Error **errp)
{
    error_setg(errp, "this QEMU is built without intel-gpu");
}

void qmp_x_intel_gpu_drill_csb(const char *id, uint8_t engine_class,
                               uint8_t instance,
                               IntelGpuCsbDrillAction action, Error **errp)
{
    error_setg(errp, "this QEMU is built without intel-gpu");
}

void qmp_x_intel_gpu_drill_dma(const char *id, uint8_t engine_class,
                               uint8_t instance, uint32_t count, Error **errp)
{
    error_setg(errp, "this QEMU is built without intel-gpu");
}

void qmp_x_intel_gpu_drill_oa_tail_stall(const char *id, bool stall,
                                         bool has_duration_ns,
                                         uint64_t duration_ns, Error **errp)
{
    error_setg(errp, "this QEMU is built without intel-gpu");
}

void qmp_x_intel_gpu_drill_oa_overflow(const char *id, bool has_count,
                                       uint32_t count, Error **errp)
{
    error_setg(errp, "this QEMU is built without intel-gpu");
}
