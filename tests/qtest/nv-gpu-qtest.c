/*
 * nv-gpu qtest helpers (see nv-gpu-qtest.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "nv-gpu-qtest.h"

const GpuModel gpu_model = {
    .devfn = GPU_DEVFN,
    .bars = GPU_BARS,
    .args = GPU_ARGS,
};

void set_synth(Gpu *g, const char *spec)
{
    qmp_ok(g, "{'execute': 'qom-set', 'arguments': {'path': '" GPU_PATH "', "
           "'property': 'synth', 'value': %s}}", spec);
}

void alarm_in(Gpu *g, uint32_t ns)
{
    wr(g, NV_PTIMER_ALARM, rd(g, NV_PTIMER_TIME_LOW) + ns);
    wr(g, NV_PTIMER_INTR_EN, NV_PTIMER_INTR_ALARM);
    wr(g, NV_PMC_INTR_EN, NV_PMC_INTR_EN_HW);
}
