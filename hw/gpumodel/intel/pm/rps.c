/*
 * intel-gpu RPS: the GT frequency.  Software requests a frequency in
 * RPNSWREQ (bits 31:23, units of 50/3 MHz, as i915's GEN9_FREQUENCY()
 * writes it); the model grants it at once, clamped to RP_STATE_CAP's
 * RPn..RP0, and RPSTAT1's CAGF (bits 31:23) reads it back.  The GT clock
 * runs at the granted frequency: GPU_TICKS, the B/C counters and the
 * report-trigger thresholds count it (PRM: GPU_TICKS "will vary with
 * frequency").  A change of the granted frequency writes an OA
 * frequency-change report.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include "../intel-gpu-int.h"

/* 60 x 50/3 MHz: the 1 GHz the GT runs at out of reset. */
#define RPS_RESET_RATIO     60u
/* The ratio unit is 50/3 MHz: a GT clock is 60 / ratio ns. */
#define RPS_NS_PER_RATIO    60u

/* RP_STATE_CAP gives RP0 (7:0) and RPn (23:16) in 50 MHz units. */
static void rps_caps(IntelGpu *gpu, uint32_t *min, uint32_t *max)
{
    uint32_t cap = intel_reg_get(gpu, INTEL_RP_STATE_CAP);

    *max = (cap & 0xff) * 3;
    *min = MIN(((cap >> 16) & 0xff) * 3, *max);
}

/* GT clocks in @ns at @ratio: floor(ns * ratio / 60), without overflow. */
static uint64_t rps_clocks(uint64_t ns, uint32_t ratio)
{
    return ns / RPS_NS_PER_RATIO * ratio +
           ns % RPS_NS_PER_RATIO * ratio / RPS_NS_PER_RATIO;
}

uint64_t intel_gt_clocks(IntelGpu *gpu, uint64_t ns)
{
    IntelRpsState *rps = &gpu->rps;

    if (ns < rps->since_ns) {   /* before the last change: not asked */
        uint64_t back = rps_clocks(rps->since_ns - ns, rps->ratio);

        return rps->clocks > back ? rps->clocks - back : 0;
    }
    return rps->clocks + rps_clocks(ns - rps->since_ns, rps->ratio);
}

uint64_t intel_gt_clocks_for(IntelGpu *gpu, uint64_t ns)
{
    return rps_clocks(ns, gpu->rps.ratio);
}

/* How long @clocks GT clocks take at the current frequency, rounded up. */
uint64_t intel_gt_ns_for(IntelGpu *gpu, uint64_t clocks)
{
    uint32_t ratio = gpu->rps.ratio;      /* never 0: see rpnswreq_write() */

    return clocks / ratio * RPS_NS_PER_RATIO +
           (clocks % ratio * RPS_NS_PER_RATIO + ratio - 1) / ratio;
}

/* The first nanosecond at which the GT clock count reaches @clocks. */
uint64_t intel_gt_clocks_ns(IntelGpu *gpu, uint64_t clocks)
{
    IntelRpsState *rps = &gpu->rps;
    uint64_t k;

    if (clocks <= rps->clocks) {
        return rps->since_ns;
    }
    k = clocks - rps->clocks;
    return rps->since_ns + k / rps->ratio * RPS_NS_PER_RATIO +
           (k % rps->ratio * RPS_NS_PER_RATIO + rps->ratio - 1) / rps->ratio;
}

uint32_t intel_rps_ratio(IntelGpu *gpu)
{
    return gpu->rps.ratio;
}

/*
 * A frequency request: granted at once within RPn..RP0.  The OA unit
 * writes what fell due at the old frequency, then reports the change,
 * both at the instant the clock changes: QEMU's clock moves on while this
 * runs, and an OA sync at a later read would count the clocks in between
 * at the old frequency, GPU_TICKS at the new one.
 */
static void rpnswreq_write(IntelGpu *gpu, const IntelRegBinding *b,
                           uint32_t offset, uint32_t old)
{
    IntelRpsState *rps = &gpu->rps;
    uint64_t now = gpu_host_now_ns(&gpu->host);
    uint32_t req = GPU_FIELD_EX32(intel_reg_get(gpu, offset), INTEL_RPNSWREQ,
                                  FREQ);
    uint32_t min, max, ratio;
    IntelGtEventArgs change = { .now = now };

    rps_caps(gpu, &min, &max);
    ratio = MAX(MIN(req, max), min);
    if (!ratio || ratio == rps->ratio) {
        return;
    }
    change.from = rps->ratio;
    intel_gt_notify(gpu, INTEL_GT_SYNC, &change);
    rps->clocks = intel_gt_clocks(gpu, now);
    rps->since_ns = now;
    rps->ratio = ratio;
    gpu_host_trace(&gpu->host, INTEL_TRACE_GT_FREQUENCY,
                   (uint64_t)ratio * 50 / 3, req, rps->clocks);
    change.to = ratio;
    intel_gt_notify(gpu, INTEL_GT_FREQUENCY, &change);
}

/* CAGF: the frequency granted. */
static uint32_t rpstat1_read(IntelGpu *gpu, const IntelRegBinding *b,
                             uint32_t offset)
{
    return GPU_FIELD_DP32(0, INTEL_RPSTAT1, CAGF, gpu->rps.ratio);
}

static const IntelReg rps_regs[] = {
    INTEL_REG(RPNSWREQ, RW, .write = rpnswreq_write),
    INTEL_REG(RPSTAT1, RO, .read = rpstat1_read),
};

const IntelRegBlock intel_rps_block = INTEL_REG_BLOCK("rps", rps_regs);

void intel_rps_reset(IntelGpu *gpu)
{
    gpu->rps = (IntelRpsState) { .ratio = RPS_RESET_RATIO };
}

bool intel_rps_post_load(IntelGpu *gpu, char **err)
{
    uint32_t min, max;

    rps_caps(gpu, &min, &max);
    if (gpu->rps.ratio < MAX(min, 1) || gpu->rps.ratio > MAX(max, 1)) {
        *err = g_strdup_printf("GT frequency ratio %" PRIu32 " outside "
                               "%" PRIu32 "-%" PRIu32, gpu->rps.ratio,
                               min, max);
        return false;
    }
    return true;
}
