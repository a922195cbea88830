/*
 * nv-gpu qtest helpers: the device started with its test clocks, the
 * synthetic signals set, a PTIMER alarm.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_QTEST_NV_GPU_QTEST_H
#define TESTS_QTEST_NV_GPU_QTEST_H

#include "gpumodel-qtest.h"
#include "hw/gpumodel/nv-gpu-regs.h"

#define GPU_DEVFN   QPCI_DEVFN(2, 0)
#define GPU_BARS    (1u << 0 | 1u << 1 | 1u << 3)  /* BAR0, BAR1, BAR3 */
/* Domains 0, 2, 4-6 at 1 GHz: one cycle per ns.  1 and 3 keep defaults. */
#define GPU_ARGS    "-machine q35 -nodefaults " \
                    "-device nv-gpu,id=" GPU_ID ",addr=02.0," \
                    "dom0-hz=1000000000,dom2-hz=1000000000," \
                    "dom4-hz=1000000000,dom5-hz=1000000000," \
                    "dom6-hz=1000000000"

/* Set the synth property: synthetic signals as docs/nv-gpu.rst writes them. */
void set_synth(Gpu *g, const char *spec);

/* PTIMER alarm @ns from now, routed to the PMC output. */
void alarm_in(Gpu *g, uint32_t ns);

#endif
