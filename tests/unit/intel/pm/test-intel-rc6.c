/*
 * Unit tests of intel-gpu RC6: residency counts 1.28 us ticks while the
 * GT is idle with RC6 enabled as i915's gen11_rc6_enable and
 * intel_rc6_park/unpark program it, after the idle hysteresis, and not
 * while forcewake is held or an engine is busy (gt/intel_rc6.c, IGT's
 * perf@rc6-disable).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"

#define TICK        INTEL_RC6_TICK_NS
#define HYST        25u             /* i915: 25 * 1.28 us */
#define MS          1000000ull

/* What i915 writes in RC_CONTROL (gen11_rc6_enable, intel_rc6_park). */
#define RC_UNPARKED (INTEL_RC_CTL_HW_ENABLE | INTEL_RC_CTL_RC6_ENABLE | \
                     INTEL_RC_CTL_EI_MODE)
#define RC_PARKED   INTEL_RC_CTL_RC6_ENABLE

static uint32_t residency(Fixture *f)
{
    return rd(f, INTEL_GT_GFX_RC6);
}

static uint32_t rc_state(Fixture *f)
{
    return GPU_FIELD_EX32(rd(f, INTEL_GT_CORE_STATUS), INTEL_GT_CORE_STATUS,
                          RC);
}

/* gen11_rc6_enable's thresholds, then RC_CONTROL as intel_rc6_unpark. */
static void rc6_enable(Fixture *f)
{
    wr(f, INTEL_RC6_WAKE_RATE_LIMIT, 54 << 16 | 85);
    wr(f, INTEL_MEDIA_WAKE_RATE_LIMIT, 150);
    wr(f, INTEL_RC_EVALUATION_INTERVAL, 125000);
    wr(f, INTEL_RC_IDLE_HYSTERESIS, HYST);
    wr(f, INTEL_RC_SLEEP, 0);
    wr(f, INTEL_RC6_THRESHOLD, 50000);
    wr(f, INTEL_MEDIA_PG_IDLE_HYSTERESIS, 60);
    wr(f, INTEL_RENDER_PG_IDLE_HYSTERESIS, 60);
    wr(f, INTEL_PG_ENABLE, 7);
    wr(f, INTEL_RC_CONTROL, RC_UNPARKED);
}

/* Idle with RC6 enabled: one tick per 1.28 us once the hysteresis passed. */
static void test_idle(Fixture *f, gconstpointer data)
{
    uint32_t r0;

    /* Out of reset RC6 is disabled: nothing counts. */
    fake_host_step(f->fh, 10 * MS);
    g_assert_cmpuint(residency(f), ==, 0);
    g_assert_cmpuint(rc_state(f), ==, INTEL_GT_CORE_RC0);

    rc6_enable(f);
    fake_host_step(f->fh, HYST * TICK);
    g_assert_cmpuint(residency(f), ==, 0);
    g_assert_cmpuint(rc_state(f), ==, INTEL_GT_CORE_RC6);
    fake_host_step(f->fh, 1000 * TICK + TICK / 2);
    g_assert_cmpuint(residency(f), ==, 1000);
    fake_host_step(f->fh, TICK / 2);
    g_assert_cmpuint(residency(f), ==, 1001);

    /* 50 ms, as perf@rc6-disable waits: 39062 ticks (49.999 ms). */
    r0 = residency(f);
    fake_host_step(f->fh, 50 * MS);
    g_assert_cmpuint(residency(f) - r0, ==, 50 * MS / TICK);

    /* Parked (RC6_ENABLE alone, target RC6): still in RC6, no new wait. */
    r0 = residency(f);
    wr(f, INTEL_RC_CONTROL, RC_PARKED);
    wr(f, INTEL_RC_STATE, GPU_FIELD_DP32(0, INTEL_RC_STATE, SW_TARGET, 4));
    fake_host_step(f->fh, 100 * TICK);
    g_assert_cmpuint(residency(f) - r0, ==, 100);

    /* A device reset clears the counter. */
    intel_gpu_reset(f->gpu);
    g_assert_cmpuint(residency(f), ==, 0);
}

/* The GT enters RC6 only after HYSTERESIS ticks of idleness. */
static void test_hysteresis(Fixture *f, gconstpointer data)
{
    rc6_enable(f);
    fake_host_step(f->fh, 10 * TICK);
    /* A short wake (forcewake taken and dropped) starts the wait again. */
    forcewake(f, INTEL_FORCEWAKE_RENDER, true);
    forcewake(f, INTEL_FORCEWAKE_RENDER, false);
    fake_host_step(f->fh, 10 * TICK);
    /* i915 parks meanwhile: the GT stays idle, the wait goes on. */
    wr(f, INTEL_RC_CONTROL, RC_PARKED);
    fake_host_step(f->fh, (HYST - 11) * TICK);
    g_assert_cmpuint(residency(f), ==, 0);
    g_assert_cmpuint(rc_state(f), ==, INTEL_GT_CORE_RC0);
    fake_host_step(f->fh, TICK);
    g_assert_cmpuint(rc_state(f), ==, INTEL_GT_CORE_RC6);
    fake_host_step(f->fh, 10 * TICK);
    g_assert_cmpuint(residency(f), ==, 10);

    /* A longer hysteresis applies from the next idle period. */
    wr(f, INTEL_RC_IDLE_HYSTERESIS, 1000);
    forcewake(f, INTEL_FORCEWAKE_GT, true);
    forcewake(f, INTEL_FORCEWAKE_GT, false);
    fake_host_step(f->fh, 1000 * TICK);
    g_assert_cmpuint(residency(f), ==, 10);
    fake_host_step(f->fh, 5 * TICK);
    g_assert_cmpuint(residency(f), ==, 15);
}

/* Any forcewake domain held keeps the GT awake: i915 perf's FORCEWAKE_ALL. */
static void test_forcewake(Fixture *f, gconstpointer data)
{
    static const uint32_t domains[] = {
        INTEL_FORCEWAKE_RENDER, INTEL_FORCEWAKE_GT,
        INTEL_FORCEWAKE_VDBOX(0), INTEL_FORCEWAKE_VEBOX(1),
    };
    uint32_t r0;

    rc6_enable(f);
    for (unsigned i = 0; i < G_N_ELEMENTS(domains); i++) {
        forcewake(f, domains[i], true);
        r0 = residency(f);
        fake_host_step(f->fh, 50 * MS);
        g_assert_cmpuint(residency(f), ==, r0);
        g_assert_cmpuint(rc_state(f), ==, INTEL_GT_CORE_RC0);
        forcewake(f, domains[i], false);
        fake_host_step(f->fh, (HYST + 100) * TICK);
        g_assert_cmpuint(residency(f) - r0, ==, 100);
    }

    /* Two domains: both must go before the GT sleeps. */
    forcewake(f, INTEL_FORCEWAKE_RENDER, true);
    forcewake(f, INTEL_FORCEWAKE_GT, true);
    r0 = residency(f);
    forcewake(f, INTEL_FORCEWAKE_RENDER, false);
    fake_host_step(f->fh, 10 * MS);
    g_assert_cmpuint(residency(f), ==, r0);
    /* intel_uncore_forcewake_reset clears every request bit. */
    wr(f, INTEL_FORCEWAKE_GT, 0xffff0000);
    fake_host_step(f->fh, (HYST + 7) * TICK);
    g_assert_cmpuint(residency(f) - r0, ==, 7);
}

/* Without RC6_ENABLE in RC_CONTROL (__intel_rc6_disable) nothing counts. */
static void test_disabled(Fixture *f, gconstpointer data)
{
    uint32_t r0;

    rc6_enable(f);
    fake_host_step(f->fh, (HYST + 10) * TICK);
    r0 = residency(f);
    g_assert_cmpuint(r0, ==, 10);
    wr(f, INTEL_RC_CONTROL, RC_UNPARKED & ~INTEL_RC_CTL_RC6_ENABLE);
    fake_host_step(f->fh, 10 * MS);
    g_assert_cmpuint(residency(f), ==, r0);
    wr(f, INTEL_RC_CONTROL, 0);
    fake_host_step(f->fh, 10 * MS);
    g_assert_cmpuint(residency(f), ==, r0);
    g_assert_cmpuint(rc_state(f), ==, INTEL_GT_CORE_RC0);
}

/* 32 bits of ticks wrap, as intel_rc6_residency_ns expects. */
static void test_wrap(Fixture *f, gconstpointer data)
{
    rc6_enable(f);
    fake_host_step(f->fh, HYST * TICK);
    fake_host_step(f->fh, (0xffffffffull - 2) * TICK);
    g_assert_cmphex(residency(f), ==, 0xfffffffd);
    fake_host_step(f->fh, 10 * TICK);
    g_assert_cmphex(residency(f), ==, 7);
}

/* A ring of 16 bytes: a semaphore wait until *SEM == 1. */
static void ring_fill_wait(Fixture *f)
{
    Buf b = buf_at(f, RING_RCS);

    ram_w32(f, SEM, 0);
    sem_wait(&b, MI_SEMAPHORE_SAD_EQ_SDD, 1, SEM);
}

/* A legacy RCS ring blocked in that wait. */
static void ring_start_wait(Fixture *f)
{
    ring_fill_wait(f);
    ring_start(f, RCS, RING_RCS, 16);
}

static bool rcs_busy(Fixture *f)
{
    return intel_engine_busy(&f->gpu->engine[INTEL_RCS0]);
}

static bool rcs_ctx_active(Fixture *f)
{
    return f->gpu->engine[INTEL_RCS0].ctx_active;
}

/*
 * @start puts RCS to work in the semaphore wait: while @active, the GT
 * stays out of RC6; once the wait ends, it sleeps after the hysteresis.
 */
static void check_work_blocks_rc6(Fixture *f, void (*start)(Fixture *),
                                  bool (*active)(Fixture *))
{
    uint32_t r0;

    rc6_enable(f);
    fake_host_step(f->fh, (HYST + 10) * TICK);
    r0 = residency(f);
    start(f);
    fake_host_step(f->fh, 10 * MS);
    g_assert_true(active(f));
    g_assert_cmpuint(residency(f), ==, r0);

    ram_w32(f, SEM, 1);
    fake_host_step(f->fh, MS);
    g_assert_false(active(f));
    r0 = residency(f);
    fake_host_step(f->fh, 10 * MS);
    g_assert_cmpuint(residency(f) - r0, ==, 10 * MS / TICK);
}

/* Commands executing in ring mode keep the GT out of RC6. */
static void test_legacy_ring(Fixture *f, gconstpointer data)
{
    check_work_blocks_rc6(f, ring_start_wait, rcs_busy);
}

/*
 * Execlists: an image loading the ring registers, the ring blocked in a
 * semaphore wait; the context is active until its ring runs dry.
 */
static void execlists_start_wait(Fixture *f)
{
    uint32_t base = INTEL_RCS0_BASE, st = CTX_A + INTEL_LRC_STATE_OFFSET;
    static const uint32_t regs[] = {
        INTEL_RING_HEAD, INTEL_RING_TAIL, INTEL_RING_START, INTEL_RING_CTL,
    };
    const uint32_t vals[] = { 0, 16, RING_RCS, (RING_SIZE - 4096) | 1 };
    uint64_t desc = GPU_FIELD_DP64((uint64_t)0x41 << 32 | CTX_A |
                                   INTEL_CTX_DESC_VALID |
                                   INTEL_CTX_DESC_PRIVILEGE,
                                   INTEL_CTX_DESC, ADDR_MODE, 3);

    wr(f, base + INTEL_RING_MODE, INTEL_GFX_DISABLE_LEGACY_MODE << 16 |
                                  INTEL_GFX_DISABLE_LEGACY_MODE);
    wr(f, base + INTEL_RING_HWS_PGA, HWSP_RCS);
    memset(f->fh->ram + CTX_A, 0, INTEL_LR_CONTEXT_RENDER_SIZE);
    ram_w32(f, st, MI_LOAD_REGISTER_IMM(4));
    for (unsigned i = 0; i < 4; i++) {
        ram_w32(f, st + 4 + 8 * i, base + regs[i]);
        ram_w32(f, st + 8 + 8 * i, vals[i]);
    }
    ram_w32(f, st + 36, MI_BATCH_BUFFER_END);
    ring_fill_wait(f);
    elsq_submit(f, RCS, desc, 0);
}

/* A context active on an engine keeps the GT out of RC6. */
static void test_execlists(Fixture *f, gconstpointer data)
{
    IntelEngine *rcs = &f->gpu->engine[INTEL_RCS0];
    uint32_t r0;

    check_work_blocks_rc6(f, execlists_start_wait, rcs_ctx_active);

    /*
     * A context halted by a CS error is still loaded: the engine is not
     * idle until software resets it.
     */
    ram_w32(f, RING_RCS + 16, 0xFFFFFFFFu);     /* no such command */
    ram_w32(f, RING_RCS + 20, 0);
    ram_w32(f, CTX_A + INTEL_LRC_STATE_OFFSET + 16, 24);    /* RING_TAIL */
    wr(f, INTEL_RCS0_BASE + INTEL_RING_EXECLIST_CONTROL, INTEL_EL_CTRL_LOAD);
    fake_host_step(f->fh, MS);
    g_assert_cmpuint(rcs->state, ==, INTEL_CS_HALTED);
    g_assert_true(rcs->ctx_active);
    r0 = residency(f);
    fake_host_step(f->fh, 10 * MS);
    g_assert_cmpuint(residency(f), ==, r0);
    wr(f, INTEL_GDRST, INTEL_GRDOM_RENDER);
    fake_host_step(f->fh, (HYST + 10) * TICK);
    g_assert_cmpuint(residency(f) - r0, ==, 10);
}

/* The idle flag caches the conditions; a stream must agree with them. */
static void test_post_load(Fixture *f, gconstpointer data)
{
    char *err = NULL;

    rc6_enable(f);
    execlists_start_wait(f);
    fake_host_step(f->fh, MS);
    g_assert_true(intel_gpu_post_load(f->gpu, &err));
    f->gpu->rc6.idle = true;
    g_assert_false(intel_gpu_post_load(f->gpu, &err));
    g_assert_nonnull(strstr(err, "RC6"));
    g_clear_pointer(&err, g_free);
    f->gpu->rc6.idle = false;

    ram_w32(f, SEM, 1);
    fake_host_step(f->fh, MS);
    g_assert_true(intel_gpu_post_load(f->gpu, &err));
    f->gpu->rc6.idle = false;
    g_assert_false(intel_gpu_post_load(f->gpu, &err));
    g_clear_pointer(&err, g_free);
}

static const FixtureTest tests[] = {
    { "/intel/rc6/idle", test_idle },
    { "/intel/rc6/hysteresis", test_hysteresis },
    { "/intel/rc6/forcewake", test_forcewake },
    { "/intel/rc6/disabled", test_disabled },
    { "/intel/rc6/wrap", test_wrap },
    { "/intel/rc6/legacy-ring", test_legacy_ring },
    { "/intel/rc6/execlists", test_execlists },
    { "/intel/rc6/post-load", test_post_load },
};

FIXTURE_MAIN(fixture_setup_ggtt)
