/*
 * Unit tests of the nv-gpu model: PMC, PTIMER and PCOUNTER (envytools
 * docs/hw/pcounter/intro.rst, "PCOUNTER: performance counter engine").
 * This file has the fixture, PMC, PTIMER, the register layouts, the
 * evaluation budget and the post-load checks, and registers the groups
 * of the other test-nv-pcounter-*.c files; nv-pcounter-ref.c is a naive
 * cycle-by-cycle reference evaluator that the model's analytic
 * evaluation must match exactly.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "nv-pcounter-ref.h"

/* @hz: per domain, NULL for 1 GHz everywhere (cycle c is ns c). */
void fixture_open_hz(Fixture *f, const char *chipset,
                     uint32_t wcycles, const uint64_t *hz)
{
    NvGpuConfig cfg = {
        .chipset = chipset,
        .record_write_cycles = wcycles,
    };

    for (unsigned d = 0; d < NV_PCOUNTER_DOMAINS; d++) {
        cfg.domain_hz[d] = hz ? hz[d] : 1000000000;
    }
    f->fh = fake_host_new();
    f->gpu = nv_gpu_new(&cfg, &f->fh->host);
}

void fixture_open(Fixture *f, const char *chipset, uint32_t wcycles)
{
    fixture_open_hz(f, chipset, wcycles, NULL);
}

void fixture_close(Fixture *f)
{
    nv_gpu_free(f->gpu);
    fake_host_free(f->fh);
}

static void fixture_setup(Fixture *f, gconstpointer data)
{
    fixture_open(f, data ? data : "g84", 0);
}

static void fixture_teardown(Fixture *f, gconstpointer data)
{
    fixture_close(f);
}

uint32_t rd(Fixture *f, uint32_t off)
{
    return nv_gpu_read(f->gpu, off);
}

void wr(Fixture *f, uint32_t off, uint32_t val)
{
    nv_gpu_write(f->gpu, off, val);
}

/*
 * Evaluate PCOUNTER up to now, however many budgets that takes, with the
 * clock standing still: the state a guest that waits long enough reads.
 */
static unsigned settle(Fixture *f)
{
    unsigned calls = 0;

    do {
        nv_pcounter_sync(f->gpu);
        g_assert_cmpuint(++calls, <, 1u << 20);
    } while (f->gpu->pc.behind);
    return calls;
}

/* Advance the clock, then let PCOUNTER catch up (see settle()). */
void step(Fixture *f, uint64_t ns)
{
    fake_host_step(f->fh, ns);
    settle(f);
}

/*
 * The G92 logic-op and address bits: G92 and GT215 (envytools
 * docs/hw/pcounter/intro.rst, "Introduction").
 */
bool chip_g92(const char *chipset)
{
    return !g_strcmp0(chipset, "g92") || !g_strcmp0(chipset, "gt215");
}

/* GT215: each domain's USER_0 (envytools pcounter/tesla.rst) */
const uint8_t gt215_user_sig[NV_PCOUNTER_DOMAINS] = {
    0x2a, 0x69, 0x9e, 0x13, 0x3b, 0x10, 0x10, 0x4f,
};

/* ==== PMC, PTIMER ==== */

static void test_pmc(Fixture *f, gconstpointer data)
{
    g_assert_cmphex(rd(f, NV_PMC_BOOT_0), ==,
                    !g_strcmp0(data, "g92") ? 0x092000a2 : 0x084000a2);
    g_assert_cmphex(rd(f, NV_PMC_BOOT_1), ==, 0);
    wr(f, NV_PMC_BOOT_0, 0);
    g_assert_cmphex(rd(f, NV_PMC_BOOT_0) >> 20, ==,
                    !g_strcmp0(data, "g92") ? 0x092 : 0x084);
    wr(f, NV_PMC_ENABLE, 0xffffffff);
    g_assert_cmphex(rd(f, NV_PMC_ENABLE), ==, 0xffffffff);
    /* Unmodelled: reads 0, reported once. */
    g_assert_cmpuint(f->fh->unimps, ==, 0);
    g_assert_cmphex(rd(f, 0x1234), ==, 0);
    g_assert_cmphex(rd(f, 0x1234), ==, 0);
    g_assert_cmpuint(f->fh->unimps, ==, 1);
}

static void test_ptimer(Fixture *f, gconstpointer data)
{
    uint32_t lo;

    /*
     * Reset: what nouveau programs for a 27 MHz crystal, 27 MHz x 3 x
     * 125 / 324 = 31.25 MHz, TIME 32 units a tick: nanoseconds.
     */
    g_assert_cmpuint(rd(f, NV_PTIMER_CLOCK_SOURCE), ==, 2);
    g_assert_cmpuint(rd(f, NV_PTIMER_NUMERATOR), ==, 324);
    g_assert_cmpuint(rd(f, NV_PTIMER_DENOMINATOR), ==, 125);
    step(f, 1000000);
    g_assert_cmpuint(rd(f, NV_PTIMER_TIME_LOW), ==, 1000000);
    g_assert_cmpuint(rd(f, NV_PTIMER_TIME_HIGH), ==, 0);
    /*
     * The crystal itself (internal MUL = DIV = 1, ratio 1/1): 27 ticks,
     * 864 units per microsecond, counted from the change.
     */
    wr(f, NV_PTIMER_CLOCK_SOURCE, 0);
    wr(f, NV_PTIMER_NUMERATOR, 1);
    wr(f, NV_PTIMER_DENOMINATOR, 1);
    step(f, 1000);
    g_assert_cmpuint(rd(f, NV_PTIMER_TIME_LOW), ==, 1000000 + 864);
    /* Internal DIV 2 halves it; CLOCK_MUL 0 stops the counter. */
    wr(f, NV_PTIMER_CLOCK_SOURCE, 0x100);
    step(f, 1000);
    g_assert_cmpuint(rd(f, NV_PTIMER_TIME_LOW), ==, 1000000 + 864 + 432);
    wr(f, NV_PTIMER_DENOMINATOR, 0);
    step(f, 1000);
    g_assert_cmpuint(rd(f, NV_PTIMER_TIME_LOW), ==, 1000000 + 864 + 432);
    /* nouveau's nv41_timer_init, then its set-time order: HIGH, LOW. */
    wr(f, NV_PTIMER_CLOCK_SOURCE, 2);
    wr(f, NV_PTIMER_NUMERATOR, 324);
    wr(f, NV_PTIMER_DENOMINATOR, 125);
    wr(f, NV_PTIMER_TIME_HIGH, 7);
    wr(f, NV_PTIMER_TIME_LOW, 0xfffffff0);
    g_assert_cmphex(rd(f, NV_PTIMER_TIME_HIGH), ==, 7);
    step(f, 100);
    g_assert_cmphex(rd(f, NV_PTIMER_TIME_HIGH), ==, 8);
    g_assert_cmphex(rd(f, NV_PTIMER_TIME_LOW), ==, 100 - 0x10);

    /* Alarm -> PTIMER_INTR -> PMC_INTR bit 20 -> the line. */
    lo = rd(f, NV_PTIMER_TIME_LOW);
    /* TIME_LOW just wrapped through the reset ALARM (0): pending. */
    g_assert_cmphex(rd(f, NV_PTIMER_INTR), ==, NV_PTIMER_INTR_ALARM);
    wr(f, NV_PTIMER_INTR, NV_PTIMER_INTR_ALARM);
    g_assert_cmphex(rd(f, NV_PTIMER_INTR), ==, 0);
    wr(f, NV_PTIMER_ALARM, lo + 5000);
    wr(f, NV_PTIMER_INTR_EN, 1);
    wr(f, NV_PMC_INTR_EN, NV_PMC_INTR_EN_HW);
    step(f, 4999);
    g_assert_cmphex(rd(f, NV_PMC_INTR), ==, 0);
    g_assert_false(f->fh->irq);
    step(f, 1);
    g_assert_cmphex(rd(f, NV_PTIMER_INTR), ==, 1);
    g_assert_cmphex(rd(f, NV_PMC_INTR), ==, NV_PMC_INTR_PTIMER);
    g_assert_true(f->fh->irq);
    wr(f, NV_PMC_INTR_EN, 0);
    g_assert_false(f->fh->irq);
    wr(f, NV_PMC_INTR_EN, NV_PMC_INTR_EN_HW);
    g_assert_true(f->fh->irq);
    wr(f, NV_PTIMER_INTR, 1);
    g_assert_false(f->fh->irq);
    g_assert_cmphex(rd(f, NV_PMC_INTR), ==, 0);
}

/*
 * A slow ratio puts the alarm beyond 2^64 ns: the deadline saturates and
 * the alarm stays unarmed rather than wrapping to an earlier time; a
 * near one still fires on time.  A 1 Hz source, internal DIV 16 and
 * ratio 1/0xfffe advances TIME by 32 units every 16 x 0xfffe s: one unit
 * every 0x7fff x 10^9 ns.
 */
static void test_ptimer_alarm_far(void)
{
    NvGpuConfig cfg = { .chipset = "g84", .ptimer_src_hz = 1 };
    const uint64_t unit_ns = 0x7fffull * 1000000000ull;
    Fixture f;
    uint32_t lo;

    f.fh = fake_host_new();
    f.gpu = nv_gpu_new(&cfg, &f.fh->host);
    wr(&f, NV_PTIMER_CLOCK_SOURCE, 0xf00);
    wr(&f, NV_PTIMER_NUMERATOR, 0xfffe);
    wr(&f, NV_PTIMER_DENOMINATOR, 1);
    lo = rd(&f, NV_PTIMER_TIME_LOW);
    /* 2^32 - 1 units away: about 1.4e23 ns. */
    wr(&f, NV_PTIMER_ALARM, lo - 1);
    g_assert_false(f.gpu->ptimer.alarm_timer->armed);
    fake_host_step(f.fh, 1000 * unit_ns);
    g_assert_cmphex(rd(&f, NV_PTIMER_INTR), ==, 0);
    g_assert_cmpuint(rd(&f, NV_PTIMER_TIME_LOW), ==, lo + 1000);

    /* One unit away: armed, and fires at that unit's first ns. */
    lo = rd(&f, NV_PTIMER_TIME_LOW);
    wr(&f, NV_PTIMER_ALARM, lo + 1);
    g_assert_true(f.gpu->ptimer.alarm_timer->armed);
    fake_host_step(f.fh, unit_ns - 1);
    g_assert_cmphex(rd(&f, NV_PTIMER_INTR), ==, 0);
    fake_host_step(f.fh, 1);
    g_assert_cmphex(rd(&f, NV_PTIMER_INTR), ==, NV_PTIMER_INTR_ALARM);
    fixture_close(&f);
}

/* ==== PCOUNTER register layout ==== */

static void test_layout(Fixture *f, gconstpointer data)
{
    bool g92 = chip_g92(data);
    bool gt215 = !g_strcmp0(data, "gt215");
    unsigned unimps;

    for (unsigned d = 0; d < 8; d++) {
        uint32_t v = 0x01020304 * (d + 1);

        wr(f, NV40_PC_PRE_SRC(d), v);
        wr(f, NV40_PC_START_SRC(d), v + 1);
        wr(f, NV40_PC_EVENT_SRC(d), v + 2);
        wr(f, NV40_PC_STOP_SRC(d), v + 3);
        wr(f, NV40_PC_THRESHOLD(d), v + 4);
        wr(f, NV40_PC_RECORD_LIMIT(d), 0xffffffff);
        wr(f, NV40_PC_EVENT_OP(d), 0xffffffff);
        wr(f, NV40_PC_PRE_OP(d), 0xffffffff);
    }
    for (unsigned d = 0; d < 8; d++) {
        uint32_t v = 0x01020304 * (d + 1);

        g_assert_cmphex(rd(f, NV40_PC_PRE_SRC(d)), ==, v);
        g_assert_cmphex(rd(f, NV40_PC_START_SRC(d)), ==, v + 1);
        g_assert_cmphex(rd(f, NV40_PC_EVENT_SRC(d)), ==, v + 2);
        g_assert_cmphex(rd(f, NV40_PC_STOP_SRC(d)), ==, v + 3);
        g_assert_cmphex(rd(f, NV40_PC_THRESHOLD(d)), ==, v + 4);
        /* bits 4-31 only */
        g_assert_cmphex(rd(f, NV40_PC_RECORD_LIMIT(d)), ==, 0xfffffff0);
        /* bits 19/20 of *_OP are G92+ */
        g_assert_cmphex(rd(f, NV40_PC_EVENT_OP(d)), ==,
                        g92 ? 0x1fffff : 0x7ffff);
        g_assert_cmphex(rd(f, NV40_PC_SPEC_SRC(d)), ==, NV_SIG_PM_TRIGGER);
        /* write-only */
        g_assert_cmphex(rd(f, NV40_PC_QUAD_ACK_TRIGGER(d)), ==, 0);
    }
    /* CTRL: QUAD_STATE/SINGLE_STATE read-only, FAULT_CLEAR write-only. */
    wr(f, NV40_PC_CTRL(3), 0xffffffff);
    g_assert_cmphex(rd(f, NV40_PC_CTRL(3)), ==,
                    g92 ? 0x40f12973 : 0x00f12973);
    wr(f, NV40_PC_CTRL(3), 0);
    g_assert_cmphex(rd(f, NV40_PC_CTRL(3)), ==, 0);
    wr(f, NV40_PC_GCTRL, 0xffffffff);
    g_assert_cmphex(rd(f, NV40_PC_GCTRL), ==, 0x11);
    wr(f, NV40_PC_GCTRL, 0);
    wr(f, NV40_PC_RECORD_START(2), 0x12345678);
    g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(2)), ==, 0x12345670);
    wr(f, NV40_PC_RECORD_STATUS(2), 0);
    g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(2)), ==, 0x12345670);

    /* Present only on later chipsets: unimplemented here. */
    unimps = f->fh->unimps;
    wr(f, NV40_PC_RECORD_ADDRESS_HIGH(1), 0x1ff);
    g_assert_cmphex(rd(f, NV40_PC_RECORD_ADDRESS_HIGH(1)), ==,
                    g92 ? 0xff : 0);
    g_assert_cmpuint(f->fh->unimps - unimps, ==, g92 ? 0 : 1);
    unimps = f->fh->unimps;
    wr(f, NV40_PC_USER_TRIGGER(0), 1);     /* GT215- */
    g_assert_cmpuint(f->fh->unimps - unimps, ==, gt215 ? 0 : 1);
    g_assert_cmphex(rd(f, NV40_PC_USER_TRIGGER(0)), ==, 0);  /* write-only */
    /* An unmodelled signal is reported once when selected. */
    unimps = f->fh->unimps;
    wr(f, NV40_PC_EVENT_SRC(0), SRC4(0x42, 0x42, ONE, ONE));
    wr(f, NV40_PC_PRE_SRC(0), SRC4(0x42, ZERO, ZERO, ZERO));
    g_assert_cmpuint(f->fh->unimps - unimps, ==, 1);
    /* The trailer EVENT/FLAG signals are modelled. */
    wr(f, NV40_PC_STOP_SRC(0), SRC4(NV_SIG_DOM_EVENT(0), NV_SIG_DOM_FLAG(7),
                                    NV_SIG_DOM_EVENT(5), ZERO));
    wr(f, NV40_PC_CTRL(0), NV_PC_CTRL_EVENT_IMPORT_PULSE |
       NV_PC_CTRL_FLAG_IMPORT_PULSE);
    g_assert_cmpuint(f->fh->unimps - unimps, ==, 1);
}

/*
 * envytools' NV40:GF100 register space (docs/hw/pcounter/intro.rst,
 * "MMIO registers", NV40) as data: every row's instances fit the space,
 * aligned, none shared (with every variant present), and the registers
 * are where that page puts them (transcribed from it).
 */
typedef struct DocReg {
    NvPcRegId id;
    unsigned index, dom;
    uint32_t offset;            /* from the space's start */
} DocReg;

/* The BAR offset of register @id[@index] of domain @dom, or ~0u. */
static uint32_t space_offset(const NvRegBlock *b, NvPcRegId id,
                             unsigned index, unsigned dom)
{
    for (unsigned i = 0; i < b->table.nregs; i++) {
        const NvReg *r = nv_reg_block_entry(b, i);

        if (NV_PC_AUX_ID(r->aux) == id && NV_PC_AUX_INDEX(r->aux) == index &&
            dom < MAX(r->count, 1)) {
            return r->offset + dom * (r->stride ? r->stride : 4);
        }
    }
    return ~0u;
}

static void check_space(const NvRegBlock *b, const DocReg *doc,
                        unsigned n)
{
    g_autoptr(GHashTable) seen = g_hash_table_new(NULL, NULL);

    for (unsigned i = 0; i < b->table.nregs; i++) {
        const NvReg *r = nv_reg_block_entry(b, i);

        g_assert_cmpuint(NV_PC_AUX_ID(r->aux), <, PC_REG_IDS);
        for (unsigned k = 0; k < MAX(r->count, 1); k++) {
            uint32_t off = r->offset + k * (r->stride ? r->stride : 4);

            g_assert_cmpuint(off % 4, ==, 0);
            g_assert_cmpuint(off, <, b->size);
            g_assert_true(g_hash_table_add(seen, GUINT_TO_POINTER(off + 1)));
        }
    }
    for (unsigned i = 0; i < n; i++) {
        g_assert_cmphex(space_offset(b, doc[i].id, doc[i].index,
                                     doc[i].dom), ==, doc[i].offset);
    }
}

static void test_layout_spaces(void)
{
    static const DocReg nv40[] = {
        { PC_PRE_SRC, 0, 7, 0x41c }, { PC_CLRFLAG_OP, 0, 1, 0x524 },
        { PC_SRC_STATUS, 0, 2, 0x548 }, { PC_SPEC_SRC, 0, 3, 0x56c },
        { PC_USER_TRIGGER, 0, 4, 0x590 }, { PC_CTR_CYCLES_ALT, 0, 5, 0x654 },
        { PC_RECORD_ADDRESS_HIGH, 0, 6, 0x6b8 },
        { PC_RECORD_STATUS, 0, 7, 0x6fc }, { PC_RECORD_LIMIT, 0, 1, 0x724 },
        { PC_RECORD_START, 0, 2, 0x768 }, { PC_THRESHOLD, 0, 3, 0x78c },
        { PC_RECORD_CHAN, 0, 0, 0x7a0 }, { PC_RECORD_DMA, 0, 0, 0x7a4 },
        { PC_GCTRL, 0, 0, 0x7a8 }, { PC_CTRL, 0, 4, 0x7d0 },
        { PC_QUAD_ACK_TRIGGER, 0, 5, 0x7f4 }, { PC_SIG_STATUS, 0, 0, 0x800 },
        { PC_SIG_STATUS, 5, 3, 0x874 }, { PC_SIG_STATUS, 7, 7, 0x8fc },
    };

    check_space(&nv40_pcounter_block, nv40, G_N_ELEMENTS(nv40));
}

/*
 * The work budget: trailer signals that change every cycle (domain 0's
 * EVENT negates its own DOM[0].EVENT; domains 1 and 2 negate each
 * other's) cost a step per cycle.  Over a long span each evaluation does
 * at most a budget of steps and the domains lag; the flush timer and
 * later accesses continue, and once caught up the counters are the
 * reference's.
 */
static void test_budget(void)
{
    static const unsigned peer[3] = { 0, 2, 1 };
    const uint64_t span = 300000;
    RefSys sys = { 0 };
    Fixture f;
    uint64_t before;
    unsigned calls;

    fixture_open(&f, "g84", 0);
    ref_ptimer_set(&sys, 0, 0, 1000, 27);
    for (unsigned d = 0; d < 3; d++) {
        Ref *r = &sys.dom[d];

        *r = (Ref) {
            .sys = &sys, .id = d, .hz = 1000000000,
            .ptimer_sig = d ? 0 : TB12_G84,
            .src = { 0, SRC4(ONE, 0, 0, 0), SRC4(EV(peer[d]), 0, 0, 0), 0 },
            .op = { OP_ARG0, OP_ARG0, 0x5555 },
            .spec = NV_SIG_PM_TRIGGER, .ctrl = NV_PC_MODE_QUAD,
            .rec_start = 0x10000 + d * 0x8000,
        };
        r->rec_limit = r->rec_start;
        ref_apply(&f, r);
    }
    fake_host_step(f.fh, span);
    for (calls = 0; calls == 0 || f.gpu->pc.behind; calls++) {
        before = f.gpu->pc.steps;
        nv_pcounter_sync(f.gpu);
        g_assert_cmpuint(f.gpu->pc.steps - before, <=, NV_PC_STEP_BUDGET);
        if (calls == 0) {
            /* Lagging: the flush timer goes on with the work. */
            g_assert_true(f.gpu->pc.behind);
            before = f.gpu->pc.steps;
            fake_host_step(f.fh, 100000);
            g_assert_cmpuint(f.gpu->pc.steps - before, >, 0);
            g_assert_cmpuint(f.gpu->pc.steps - before, <=,
                             NV_PC_STEP_BUDGET);
        }
    }
    /* A step per domain cycle: many evaluations. */
    g_assert_cmpuint(calls, >=, 3 * span / NV_PC_STEP_BUDGET);
    ref_run_to(&sys, f.fh->now_ns, f.fh);
    for (unsigned d = 0; d < 3; d++) {
        wr(&f, NV40_PC_PRE_OP(d), OP_ARG0);
        ref_preop(&sys.dom[d]);
        compare(&f, &sys.dom[d], "budget");
        /* EVENT is 1 every other cycle (every third in the loop). */
        g_assert_cmpuint(rd(&f, NV40_PC_CTR_EVENT(d)), >=,
                         (span + 100000) / 3);
    }
    for (unsigned d = 0; d < 3; d++) {
        ref_free(&sys.dom[d]);
    }
    fixture_close(&f);
}

/*
 * A record packet or a single-mode period every cycle is a step too (the
 * input tests/fuzz/corpus/fuzz-nv-pcounter/record-packet-every-cycle):
 * each evaluation stays within the budget, and once the lagging domains
 * caught up, the state is that of an evaluation with no budget.
 */
static void test_budget_packets(void)
{
    const uint64_t span = 300000;
    Fixture f[2];

    for (unsigned k = 0; k < 2; k++) {
        Fixture *x = &f[k];

        fixture_open(x, "g84", 0);
        if (k) {
            x->gpu->cfg.pc_step_budget = UINT32_MAX;
        }
        record_setup(x, 1, 0, 0x1000, 0x1000);
        wr(x, NV40_PC_STOP_SRC(1), SRC4(ONE, 0, 0, 0));
        wr(x, NV40_PC_CTRL(2), NV_PC_MODE_SINGLE);
        wr(x, NV40_PC_PRE_SRC(2), SRC4(ONE, 0, 0, 0));
        wr(x, NV40_PC_START_SRC(2), SRC4(ONE, 0, 0, 0));
        wr(x, NV40_PC_STOP_SRC(2), SRC4(ONE, 0, 0, 0));
        wr(x, NV40_PC_START_OP(2), OP_ARG0);
        wr(x, NV40_PC_STOP_OP(2), OP_ARG0);
        wr(x, NV40_PC_CTR_STOP(2), 0xffffffff);
        wr(x, NV40_PC_PRE_OP(2), OP_ARG0);
        x->fh->now_ns += span;
    }
    for (unsigned calls = 0; calls == 0 || f[0].gpu->pc.behind; calls++) {
        uint64_t before = f[0].gpu->pc.steps;

        nv_pcounter_sync(f[0].gpu);
        g_assert_cmpuint(f[0].gpu->pc.steps - before, <=, NV_PC_STEP_BUDGET);
        g_assert_true(calls > 0 || f[0].gpu->pc.behind);
    }
    nv_pcounter_sync(f[1].gpu);
    g_assert_false(f[1].gpu->pc.behind);
    g_assert_cmpuint(f[0].gpu->pc.dom[1].rec_packets, >=, span / 2);
    for (unsigned dom = 1; dom <= 2; dom++) {
        const uint32_t ctr[] = {
            NV40_PC_CTR_CYCLES(dom), NV40_PC_CTR_EVENT(dom),
            NV40_PC_CTR_START(dom), NV40_PC_CTR_PRE(dom),
            NV40_PC_CTR_STOP(dom),
        };

        g_assert_cmpuint(f[0].gpu->pc.dom[dom].cur, ==,
                         f[1].gpu->pc.dom[dom].cur);
        g_assert_cmpuint(f[0].gpu->pc.dom[dom].rec_packets, ==,
                         f[1].gpu->pc.dom[dom].rec_packets);
        g_assert_cmphex(rd(&f[0], NV40_PC_RECORD_STATUS(dom)), ==,
                        rd(&f[1], NV40_PC_RECORD_STATUS(dom)));
        g_assert_cmphex(rd(&f[0], NV40_PC_CTRL(dom)), ==,
                        rd(&f[1], NV40_PC_CTRL(dom)));
        for (unsigned c = 0; c < G_N_ELEMENTS(ctr); c++) {
            g_assert_cmphex(rd(&f[0], ctr[c]), ==, rd(&f[1], ctr[c]));
        }
    }
    for (unsigned k = 0; k < 2; k++) {
        fixture_close(&f[k]);
    }
}

/*
 * State loaded from a migration stream: each value the model cannot
 * produce and would index, loop or compute with is refused.  @stmt
 * spoils one field of a good state; the state is put back after.
 */
#define EXPECT_REFUSED(f, stmt, what) do {                              \
        NvPcounter pc_ = (f)->gpu->pc;                                  \
        NvPtimer pt_ = (f)->gpu->ptimer;                                \
        uint32_t num_ = rd(f, NV_PTIMER_NUMERATOR);                     \
        char *err_ = NULL;                                              \
                                                                        \
        stmt;                                                           \
        g_assert_false(nv_gpu_post_load((f)->gpu, &err_));              \
        g_assert_nonnull(strstr(err_, what));                           \
        g_free(err_);                                                   \
        (f)->gpu->pc = pc_;                                             \
        (f)->gpu->ptimer = pt_;                                         \
        nv_reg_set((f)->gpu, NV_PTIMER_NUMERATOR, num_);                \
        g_assert_true(nv_gpu_post_load((f)->gpu, &err_));               \
    } while (0)

static void test_post_load_checks(Fixture *f, gconstpointer data)
{
    NvPcounter *pc = &f->gpu->pc;
    NvPcDomain *d = &pc->dom[1];
    NvPcImport *q = &d->imp[NV_SIG_DOM_EVENT(0) - NV_SIG_DOM_EVENT(7)];
    char *err = NULL;

    /* Domain 0's EVENT negates itself; domain 1 imports it. */
    count_setup(f, 0, EV(0), ZERO, 0);
    wr(f, NV40_PC_EVENT_OP(0), 0x5555);
    count_setup(f, 1, EV(0), ZERO, 0);
    record_setup(f, 2, 0, 0x1000, 0x2000);
    step(f, 1000);
    g_assert_true(nv_gpu_post_load(f->gpu, &err));
    g_assert_null(err);
    /* The derived state is rebuilt from the configuration. */
    g_assert_true(pc->coupled && pc->dom[0].ev_watched);
    g_assert_cmphex(d->dyn_sel, ==, 1u << 7);

    EXPECT_REFUSED(f, pc->epoch_ns = pc->synced_ns + 1, "epoch");
    EXPECT_REFUSED(f, pc->gctrl = 4, "GCTRL");
    /* The 64-bit TIME arithmetic needs the ratio within its write masks. */
    EXPECT_REFUSED(f, pc->ptimer_num = NV_PTIMER_RATIO_NUM_MAX + 1,
                   "PTIMER ratio");
    EXPECT_REFUSED(f, pc->ptimer_den = NV_PTIMER_RATIO_DEN_MAX + 1,
                   "PTIMER ratio");
    EXPECT_REFUSED(f, nv_reg_set(f->gpu, NV_PTIMER_NUMERATOR, 0x10000),
                   "PTIMER_NUMERATOR");
    EXPECT_REFUSED(f, d->cur += 10000, "domain 1");
    EXPECT_REFUSED(f, d->cur -= 1, "domain 1");
    EXPECT_REFUSED(f, d->periodic_origin = d->cur + 1, "domain 1");
    /* G84 has no USER signals */
    EXPECT_REFUSED(f, d->user_cycle = d->cur, "domain 1");
    EXPECT_REFUSED(f, d->user_val = 1, "domain 1");
    EXPECT_REFUSED(f, d->quad_state = 4, "domain 1");
    EXPECT_REFUSED(f, d->single_state = 4, "domain 1");
    EXPECT_REFUSED(f, d->ctrl |= NV_PC_CTRL_UNK30, "domain 1");
    EXPECT_REFUSED(f, d->op[NV_PC_IN_STOP] = 0x100000, "domain 1");
    EXPECT_REFUSED(f, d->rec_pos = 0x1008, "domain 1");
    EXPECT_REFUSED(f, d->rec_start = 0x1004, "domain 1");
    EXPECT_REFUSED(f, d->rec_limit = 0x1001, "domain 1");
    EXPECT_REFUSED(f, d->rec_cycles = 1ull << 48, "domain 1");
    EXPECT_REFUSED(f, d->rec_stop = 0x1000, "domain 1");
    EXPECT_REFUSED(f, d->rec_busy_until = d->cur + 2, "domain 1");
    EXPECT_REFUSED(f, d->pm_trigger_cycle[1] = d->cur + 1, "domain 1");
    EXPECT_REFUSED(f, d->wrcache_flush_cycle[0] = d->cur + 1, "domain 1");
    EXPECT_REFUSED(f, d->ptimer_c0 = d->cur + 1, "domain 1");
    EXPECT_REFUSED(f, d->synth[3].period_log2 = 17, "domain 1");
    EXPECT_REFUSED(f, d->synth[3].high = 2, "domain 1");
    EXPECT_REFUSED(f, d->synth[3].phase = 1, "domain 1");
    EXPECT_REFUSED(f, d->dyn = 1, "domain 1");
    EXPECT_REFUSED(f, d->dyn_prev = 1, "domain 1");
    /* The import queue: positions, order, causality. */
    EXPECT_REFUSED(f, q->head = NV_PC_IMPORT_QUEUE, "import");
    EXPECT_REFUSED(f, q->n = NV_PC_IMPORT_QUEUE + 1, "import");
    EXPECT_REFUSED(f, q->pulse_c = d->cur + 1, "import");
    EXPECT_REFUSED(f, (q->head = 0, q->n = 2, q->c[0] = d->cur,
                       q->c[1] = d->cur), "import");
    EXPECT_REFUSED(f, (q->head = 0, q->n = 1, q->c[0] = d->cur + 4),
                   "import");
    EXPECT_REFUSED(f, f->gpu->ptimer.base_ns = f->fh->now_ns + 1, "PTIMER");
    EXPECT_REFUSED(f, nv_reg_set(f->gpu, NV_PTIMER_NUMERATOR, 0x10000),
                   "PTIMER_NUMERATOR");
}

/* GT215: a USER_TRIGGER write in the future or of bits it has not. */
static void test_user_post_load(Fixture *f, gconstpointer data)
{
    NvPcDomain *d = &f->gpu->pc.dom[3];
    char *err = NULL;

    wr(f, NV40_PC_USER_TRIGGER(3), 0x7);
    step(f, 10);
    wr(f, NV40_PC_USER_TRIGGER(3), 0x2);
    g_assert_true(nv_gpu_post_load(f->gpu, &err));
    EXPECT_REFUSED(f, d->user_cycle = d->cur + 1, "domain 3");
    EXPECT_REFUSED(f, d->user_pulse = 4, "domain 3");
    EXPECT_REFUSED(f, d->user_before = 0x80, "domain 3");
    EXPECT_REFUSED(f, d->user_cycle = UINT64_MAX, "domain 3");
}

void add(const char *path, void (*fn)(Fixture *, gconstpointer),
         const char *chipset)
{
    g_test_add(path, Fixture, chipset, fixture_setup, fn, fixture_teardown);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    add("/nv/pmc/boot/g84", test_pmc, "g84");
    add("/nv/pmc/boot/g92", test_pmc, "g92");
    add("/nv/ptimer/time-alarm", test_ptimer, NULL);
    g_test_add_func("/nv/ptimer/alarm-far", test_ptimer_alarm_far);
    add("/nv/pcounter/layout/g84", test_layout, "g84");
    add("/nv/pcounter/layout/g92", test_layout, "g92");
    add("/nv/pcounter/layout/gt215", test_layout, "gt215");
    g_test_add_func("/nv/pcounter/layout/spaces", test_layout_spaces);
    nv_pcounter_test_add_modes();
    nv_pcounter_test_add_record();
    nv_pcounter_test_add_coupling();
    nv_pcounter_test_add_signals();
    nv_pcounter_test_add_random();
    g_test_add_func("/nv/pcounter/budget", test_budget);
    g_test_add_func("/nv/pcounter/budget/packets", test_budget_packets);
    add("/nv/post-load-checks", test_post_load_checks, NULL);
    add("/nv/post-load-checks/user", test_user_post_load, "gt215");
    return g_test_run();
}
