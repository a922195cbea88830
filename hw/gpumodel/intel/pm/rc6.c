/*
 * intel-gpu RC6: the GT's idle power state and its residency counter.
 *
 * The GT is in RC6 once the RC6 conditions have held for the idle
 * hysteresis (RC_IDLE_HYSTERESIS, in 1.28 us ticks): RC6 enabled in
 * RC_CONTROL, no forcewake domain requested, and no engine running a
 * context (execlists) or commands (legacy ring).  Any of those wakes it
 * at once.  GT_GFX_RC6 counts the time spent in RC6 in 1.28 us ticks,
 * 32 bits wide and wrapping, as i915's intel_rc6_residency_ns() reads it
 * for sysfs rc6_residency_ms and the PMU's rc6-residency.
 *
 * i915 on Gen11 leaves the decision to hardware while the GT is unparked
 * (HW_ENABLE | RC6_ENABLE | EI_MODE 1) and asks for RC6 directly when it
 * parks (RC6_ENABLE alone, RC_STATE target RC6); the model enters RC6 the
 * same way in both.  The evaluation interval, thresholds, wake rate
 * limits and power-gating controls are stored only.
 *
 * Residency is computed lazily: whatever changes a condition (RC_CONTROL
 * and forcewake request writes, engine activity, which comes as the GT
 * event INTEL_GT_ACTIVITY) calls intel_rc6_update(), which counts the
 * time in RC6 since the last call and notes whether the conditions hold
 * from now on.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../intel-gpu-int.h"

/* Do the RC6 conditions hold now (hysteresis apart)? */
static bool rc6_conditions(IntelGpu *gpu)
{
    if (!(intel_reg_get(gpu, INTEL_RC_CONTROL) & INTEL_RC_CTL_RC6_ENABLE) ||
        intel_forcewake_held(gpu)) {
        return false;
    }
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        IntelEngine *e = &gpu->engine[i];

        if (intel_engine_ctx_active(e) || intel_engine_busy(e)) {
            return false;
        }
    }
    return true;
}

/* Nanoseconds in RC6 from reset to @now. */
static uint64_t rc6_residency_at(IntelGpu *gpu, uint64_t now)
{
    IntelRc6State *rc6 = &gpu->rc6;

    if (rc6->idle && now > rc6->entry_ns) {
        return rc6->residency_ns + (now - rc6->entry_ns);
    }
    return rc6->residency_ns;
}

/* Is the GT in RC6 at @now? */
static bool rc6_active(IntelGpu *gpu, uint64_t now)
{
    return gpu->rc6.idle && now >= gpu->rc6.entry_ns;
}

void intel_rc6_update(IntelGpu *gpu)
{
    IntelRc6State *rc6 = &gpu->rc6;
    uint64_t now = gpu_host_now_ns(&gpu->host);
    bool idle = rc6_conditions(gpu);

    if (rc6->idle) {
        rc6->residency_ns = rc6_residency_at(gpu, now);
        rc6->entry_ns = MAX(rc6->entry_ns, now);
    } else if (idle) {
        uint64_t hyst = intel_reg_get(gpu, INTEL_RC_IDLE_HYSTERESIS);

        /* The hysteresis in force when the GT goes idle applies. */
        rc6->entry_ns = now + hyst * INTEL_RC6_TICK_NS;
    }
    if (idle != rc6->idle) {
        rc6->idle = idle;
        gpu_host_trace(&gpu->host, INTEL_TRACE_RC6, idle, rc6->entry_ns,
                       rc6->residency_ns / INTEL_RC6_TICK_NS);
    }
}

static void rc6_activity(IntelGpu *gpu, IntelGtEvent ev, IntelGtEventArgs *a)
{
    intel_rc6_update(gpu);
}

void intel_rc6_init(IntelGpu *gpu)
{
    intel_gt_subscribe(gpu, INTEL_GT_ACTIVITY, rc6_activity);
}

static void rc_control_write(IntelGpu *gpu, const IntelRegBinding *b,
                             uint32_t offset, uint32_t old)
{
    intel_rc6_update(gpu);
}

/* The residency counter: 32 bits of 1.28 us ticks, wrapping. */
static uint32_t gfx_rc6_read(IntelGpu *gpu, const IntelRegBinding *b,
                             uint32_t offset)
{
    uint64_t now = gpu_host_now_ns(&gpu->host);

    return rc6_residency_at(gpu, now) / INTEL_RC6_TICK_NS;
}

/* The current RC state, as i915's debugfs drpc reads it. */
static uint32_t gt_core_status_read(IntelGpu *gpu, const IntelRegBinding *b,
                                    uint32_t offset)
{
    return GPU_FIELD_DP32(0, INTEL_GT_CORE_STATUS, RC,
                          rc6_active(gpu, gpu_host_now_ns(&gpu->host)) ?
                          INTEL_GT_CORE_RC6 : INTEL_GT_CORE_RC0);
}

#define RC6_PARAM(nm) INTEL_REG(nm, RW)

static const IntelReg rc6_regs[] = {
    INTEL_REG(RC_CONTROL, RW, .write = rc_control_write),
    RC6_PARAM(RC_STATE),
    RC6_PARAM(RC6_WAKE_RATE_LIMIT),
    RC6_PARAM(MEDIA_WAKE_RATE_LIMIT),
    RC6_PARAM(RC_EVALUATION_INTERVAL),
    RC6_PARAM(RC_IDLE_HYSTERESIS),
    RC6_PARAM(RC_SLEEP),
    RC6_PARAM(RC6_THRESHOLD),
    RC6_PARAM(MEDIA_PG_IDLE_HYSTERESIS),
    RC6_PARAM(RENDER_PG_IDLE_HYSTERESIS),
    RC6_PARAM(PG_ENABLE),
    INTEL_REG(GT_CORE_STATUS, RO, .read = gt_core_status_read),
    INTEL_REG(GT_GFX_RC6, RO, .read = gfx_rc6_read),
};

const IntelRegBlock intel_rc6_block = INTEL_REG_BLOCK("rc6", rc6_regs);

/* After the registers and engines: RC_CONTROL is 0, so not idle. */
void intel_rc6_reset(IntelGpu *gpu)
{
    gpu->rc6 = (IntelRc6State) { 0 };
}

/*
 * @idle caches the conditions, which every change updates: a stream where
 * they disagree would count residency while an engine runs.
 */
bool intel_rc6_post_load(IntelGpu *gpu, char **err)
{
    if (gpu->rc6.idle != rc6_conditions(gpu)) {
        *err = g_strdup_printf("RC6 idle flag %d, but the RC6 conditions "
                               "say %d", gpu->rc6.idle, !gpu->rc6.idle);
        return false;
    }
    return true;
}
