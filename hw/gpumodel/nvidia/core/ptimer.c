/*
 * nv-gpu PTIMER: the 64-bit nanosecond clock and its alarm.
 *
 * The counter runs at the source clock (the crystal) x CLOCK_SOURCE's
 * internal MUL/DIV x DENOMINATOR / NUMERATOR, and TIME counts it in units
 * of 1/32 (envytools docs/hw/bus/ptimer.rst: 0x9200 CLOCK_DIV, 0x9210
 * CLOCK_MUL, 0x9220 CLOCK_SOURCE); nouveau's nv41_timer_init
 * (drivers/gpu/drm/nouveau/nvkm/subdev/timer/nv41.c) programs 31.25 MHz
 * from its crystal, so TIME is in nanoseconds.  The reset values are
 * those it programs for 27 MHz.  The external source (TCLK) is not
 * modelled: it is taken to be the crystal too.  TIME is computed lazily
 * from the host's virtual clock: TIME = base + source ticks since base x
 * the ratio; writes to TIME or the ratio re-base it.  The alarm is a host
 * timer armed for the moment TIME_LOW reaches ALARM.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"
#include "../../gpumodel-math.h"

#define NS_PER_S 1000000000ull

/*
 * TIME units per source tick, as @num / @den, from the three registers.
 * The factors fit in 64 bits: ptimer_src_hz is at most 10 GHz (nv-gpu.c,
 * < 2^34), num at most NV_PTIMER_RATIO_NUM_MAX (< 2^29) and den at most
 * NV_PTIMER_RATIO_DEN_MAX (< 2^20) by the write masks, which
 * nv_gpu_post_load() checks: src_hz x num < 2^63, 10^9 x den < 2^50.
 */
void nv_ptimer_ratio_of(uint32_t div, uint32_t mul, uint32_t src,
                        uint32_t *num, uint32_t *den)
{
    uint32_t smul = GPU_FIELD_EX32(src, NV_PTIMER_CLOCK_SOURCE, MUL) + 1;
    uint32_t sdiv = GPU_FIELD_EX32(src, NV_PTIMER_CLOCK_SOURCE, DIV) + 1;

    *num = (smul * mul) << NV_PTIMER_TIME_SHIFT;
    *den = sdiv * div;
}

void nv_ptimer_ratio(NvGpu *gpu, uint32_t *num, uint32_t *den)
{
    nv_ptimer_ratio_of(nv_reg_get(gpu, NV_PTIMER_NUMERATOR),
                       nv_reg_get(gpu, NV_PTIMER_DENOMINATOR),
                       nv_reg_get(gpu, NV_PTIMER_CLOCK_SOURCE), num, den);
}

static uint64_t ptimer_time_at(NvGpu *gpu, uint64_t now, uint32_t num,
                               uint32_t den)
{
    NvPtimer *t = &gpu->ptimer;

    if (!den) {
        return t->base_time;        /* a zero divisor stops the clock */
    }
    /* TIME is a 64-bit counter: it wraps, and so does the time elapsed. */
    return t->base_time + gpu_muldiv64_wrap(now - t->base_ns,
                                            gpu->cfg.ptimer_src_hz * num,
                                            NS_PER_S * den);
}

uint64_t nv_ptimer_time(NvGpu *gpu)
{
    uint32_t num, den;

    nv_ptimer_ratio(gpu, &num, &den);
    return ptimer_time_at(gpu, gpu_host_now_ns(&gpu->host), num, den);
}

/* Arm the host timer for the next time TIME_LOW becomes ALARM. */
static void ptimer_alarm_arm(NvGpu *gpu)
{
    NvPtimer *t = &gpu->ptimer;
    uint32_t num, den;
    uint64_t now = gpu_host_now_ns(&gpu->host);
    uint64_t cur;
    uint64_t delta;
    uint64_t deadline;

    nv_ptimer_ratio(gpu, &num, &den);
    cur = ptimer_time_at(gpu, now, num, den);
    delta = (uint32_t)(nv_reg_get(gpu, NV_PTIMER_ALARM) - (uint32_t)cur);
    if (!num || !den) {
        gpu_host_timer_del(&gpu->host, t->alarm_timer);
        return;
    }
    /* Just matched (or just fired): the next match is 2^32 ticks away. */
    if (!delta) {
        delta = 1ull << 32;
    }
    /*
     * The first ns at which ptimer_time_at() has advanced by @delta from the
     * base.  Work from the base so rounding matches ptimer_time_at() exactly.
     * A host time, not TIME: past 2^64 ns it saturates, and the alarm is
     * never (a slow ratio puts 2^32 ticks centuries away).
     */
    deadline = gpu_add64_sat(t->base_ns,
                             gpu_muldiv64_ceil(cur - t->base_time + delta,
                                               NS_PER_S * den,
                                               gpu->cfg.ptimer_src_hz * num));
    if (deadline == UINT64_MAX) {
        gpu_host_timer_del(&gpu->host, t->alarm_timer);
        return;
    }
    gpu_host_timer_mod(&gpu->host, t->alarm_timer, deadline);
}

static void ptimer_alarm_fire(void *opaque)
{
    NvGpu *gpu = opaque;

    nv_reg_set(gpu, NV_PTIMER_INTR,
               nv_reg_get(gpu, NV_PTIMER_INTR) | NV_PTIMER_INTR_ALARM);
    nv_pmc_update_irq(gpu);
    ptimer_alarm_arm(gpu);
}

void nv_ptimer_set_changed(NvGpu *gpu, NvPtimerChangedFn *fn)
{
    gpu->ptimer.changed = fn;
}

/* TIME was re-based by a write: tell the listener. */
static void ptimer_notify_changed(NvGpu *gpu)
{
    if (gpu->ptimer.changed) {
        gpu->ptimer.changed(gpu);
    }
}

static void ptimer_rebase(NvGpu *gpu, uint32_t num, uint32_t den)
{
    uint64_t now = gpu_host_now_ns(&gpu->host);

    gpu->ptimer.base_time = ptimer_time_at(gpu, now, num, den);
    gpu->ptimer.base_ns = now;
}

static void ptimer_ratio_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                               uint32_t offset, uint32_t old, uint32_t val)
{
    uint32_t v[3] = {
        nv_reg_get(gpu, NV_PTIMER_NUMERATOR),
        nv_reg_get(gpu, NV_PTIMER_DENOMINATOR),
        nv_reg_get(gpu, NV_PTIMER_CLOCK_SOURCE),
    };
    uint32_t num, den;

    /* Time so far ran at the old ratio. */
    v[offset == NV_PTIMER_NUMERATOR ? 0 :
      offset == NV_PTIMER_DENOMINATOR ? 1 : 2] = old;
    nv_ptimer_ratio_of(v[0], v[1], v[2], &num, &den);
    ptimer_rebase(gpu, num, den);
    if (!val && offset != NV_PTIMER_CLOCK_SOURCE) {
        gpu_host_log(&gpu->host, GPU_LOG_GUEST_ERROR,
                     "nv-gpu: PTIMER %s = 0 stops the clock", r->name);
    }
    ptimer_alarm_arm(gpu);
    ptimer_notify_changed(gpu);
}

static uint32_t ptimer_time_read(NvGpu *gpu, const NvReg *r, unsigned unit,
                                 uint32_t offset)
{
    uint64_t t = nv_ptimer_time(gpu);

    return offset == NV_PTIMER_TIME_LOW ? (uint32_t)t : t >> 32;
}

static void ptimer_time_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                              uint32_t offset, uint32_t old, uint32_t val)
{
    NvPtimer *t = &gpu->ptimer;

    /* nouveau writes TIME_HIGH, then TIME_LOW, which takes effect. */
    if (offset == NV_PTIMER_TIME_HIGH) {
        t->time_high_latch = val;
        return;
    }
    t->base_time = (uint64_t)t->time_high_latch << 32 | val;
    t->base_ns = gpu_host_now_ns(&gpu->host);
    ptimer_alarm_arm(gpu);
    ptimer_notify_changed(gpu);
}

static void ptimer_alarm_write(NvGpu *gpu, const NvReg *r, unsigned unit,
                               uint32_t offset, uint32_t old, uint32_t val)
{
    ptimer_alarm_arm(gpu);
}

/*
 * Reset ratio: nanoseconds from the 27 MHz crystal, as nv41_timer_init
 * programs it: 27 MHz x 3 x 125 / 324 = 31.25 MHz, x 32.
 */
#define PTIMER_REG(nm, acc, ...) NV_REG(nm, 0x009000, acc, __VA_ARGS__)

static const NvReg ptimer_regs[] = {
    /* INTR & INTR_EN is PTIMER's line into PMC (pmc.c reads them). */
    PTIMER_REG(PTIMER_INTR, RW, .wmask = NV_PTIMER_INTR_ALARM,
               .write = nv_intr_ack_write),
    PTIMER_REG(PTIMER_INTR_EN, RW, .wmask = NV_PTIMER_INTR_ALARM,
               .write = nv_intr_en_write),
    PTIMER_REG(PTIMER_NUMERATOR, RW, .reset = 324, .wmask = 0xffff,
               .write = ptimer_ratio_write),
    PTIMER_REG(PTIMER_DENOMINATOR, RW, .reset = 125, .wmask = 0xffff,
               .write = ptimer_ratio_write),
    PTIMER_REG(PTIMER_CLOCK_SOURCE, RW, .reset = 2, .wmask = 0x10fff,
               .write = ptimer_ratio_write),
    PTIMER_REG(PTIMER_TIME_LOW, RW, .read = ptimer_time_read,
               .write = ptimer_time_write),
    PTIMER_REG(PTIMER_TIME_HIGH, RW, .read = ptimer_time_read,
               .write = ptimer_time_write),
    PTIMER_REG(PTIMER_ALARM, RW, .write = ptimer_alarm_write),
};

const NvRegBlock nv_ptimer_block =
    NV_REG_BLOCK("PTIMER", 0x009000, 0x1000, ptimer_regs);

void nv_ptimer_init(NvGpu *gpu)
{
    gpu->ptimer.alarm_timer = gpu_host_timer_new(&gpu->host, ptimer_alarm_fire,
                                                 gpu);
}

void nv_ptimer_fini(NvGpu *gpu)
{
    gpu_host_timer_free(&gpu->host, gpu->ptimer.alarm_timer);
}

/* Loaded state: the time base is not in the future. */
bool nv_ptimer_post_load(NvGpu *gpu, char **err)
{
    uint64_t now = gpu_host_now_ns(&gpu->host);

    if (gpu->ptimer.base_ns > now) {
        *err = g_strdup_printf("PTIMER base at %" G_GUINT64_FORMAT " ns, "
                               "after now (%" G_GUINT64_FORMAT " ns)",
                               gpu->ptimer.base_ns, now);
        return false;
    }
    return true;
}

void nv_ptimer_reset(NvGpu *gpu)
{
    gpu->ptimer.base_time = 0;
    gpu->ptimer.base_ns = gpu_host_now_ns(&gpu->host);
    gpu->ptimer.time_high_latch = 0;
    ptimer_alarm_arm(gpu);
}
