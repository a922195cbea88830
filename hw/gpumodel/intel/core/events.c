/*
 * intel-gpu GT events: how a unit tells the units above it that something
 * they follow changed, without calling up.  The units that care (OA, RC6,
 * the engines' work accounting) subscribe at creation; the unit where the
 * change happens notifies.  Subscribers run in the order they subscribed.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../intel-gpu-int.h"

void intel_gt_subscribe(IntelGpu *gpu, IntelGtEvent ev, IntelGtEventFn *fn)
{
    unsigned n = 0;

    while (n < INTEL_GT_SUBSCRIBERS && gpu->gt_subscriber[ev][n]) {
        n++;
    }
    g_assert(n < INTEL_GT_SUBSCRIBERS);
    gpu->gt_subscriber[ev][n] = fn;
}

void intel_gt_notify(IntelGpu *gpu, IntelGtEvent ev, IntelGtEventArgs *a)
{
    for (unsigned n = 0; n < INTEL_GT_SUBSCRIBERS; n++) {
        if (gpu->gt_subscriber[ev][n]) {
            gpu->gt_subscriber[ev][n](gpu, ev, a);
        }
    }
}
