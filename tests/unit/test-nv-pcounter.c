/*
 * Unit tests of the nv-gpu model: PMC, PTIMER and PCOUNTER (envytools'
 * "PCOUNTER: performance counter engine"), including a naive
 * cycle-by-cycle reference evaluator written from the seed that the
 * model's analytic evaluation must match exactly.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include <glib.h>
#include "fake-host.h"
#include "gpumodel-math.h"
#include "nvidia/nv-gpu.h"

typedef struct Fixture {
    FakeHost *fh;
    NvGpu *gpu;
} Fixture;

/* @hz: per domain, NULL for 1 GHz everywhere (cycle c is ns c). */
static void fixture_open_hz(Fixture *f, const char *chipset,
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

static void fixture_open(Fixture *f, const char *chipset, uint32_t wcycles)
{
    fixture_open_hz(f, chipset, wcycles, NULL);
}

static void fixture_close(Fixture *f)
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

static uint32_t rd(Fixture *f, uint32_t off)
{
    return nv_gpu_read(f->gpu, off);
}

static void wr(Fixture *f, uint32_t off, uint32_t val)
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
static void step(Fixture *f, uint64_t ns)
{
    fake_host_step(f->fh, ns);
    settle(f);
}

#define SRC4(a, b, c, d) ((a) | (b) << 8 | (c) << 16 | (uint32_t)(d) << 24)
#define ONE   NV_SIG_ONE
#define ZERO  NV_SIG_ZERO
#define SYN(n) NV_SIG_SYNTH(n)
#define PER   NV_SIG_PERIODIC
#define OP_ARG0 0xaaaau     /* output = argument 0 */
#define OP_ARG1 0xccccu
#define OP_TRUE 0xffffu

/* The G92 logic-op and address bits: G92 and GT215 (the seed). */
static bool chip_g92(const char *chipset)
{
    return !g_strcmp0(chipset, "g92") || !g_strcmp0(chipset, "gt215");
}

/* GT215: each domain's USER_0 (envytools pcounter/tesla.rst) */
static const uint8_t gt215_user_sig[NV_PCOUNTER_DOMAINS] = {
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

    /* Reset ratio 1000/27 on a 27 MHz crystal: nanoseconds. */
    step(f, 1000000);
    g_assert_cmpuint(rd(f, NV_PTIMER_TIME_LOW), ==, 1000000);
    g_assert_cmpuint(rd(f, NV_PTIMER_TIME_HIGH), ==, 0);
    /* Ratio 1/1: 27 per microsecond, counted from the change. */
    wr(f, NV_PTIMER_NUMERATOR, 1);
    wr(f, NV_PTIMER_DENOMINATOR, 1);
    step(f, 1000);
    g_assert_cmpuint(rd(f, NV_PTIMER_TIME_LOW), ==, 1000000 + 27);
    /* nouveau's set-time order: HIGH, then LOW. */
    wr(f, NV_PTIMER_NUMERATOR, 1000);
    wr(f, NV_PTIMER_DENOMINATOR, 27);
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
 * The seed's NV40:GF100 register space as data: every row's instances fit
 * the space, aligned, none shared (with every variant present), and the
 * registers are where the seed puts them (transcribed here from it).
 */
typedef struct SeedReg {
    NvPcRegId id;
    unsigned index, dom;
    uint32_t offset;            /* from the space's start */
} SeedReg;

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

static void check_space(const NvRegBlock *b, const SeedReg *seed,
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
        g_assert_cmphex(space_offset(b, seed[i].id, seed[i].index,
                                     seed[i].dom), ==, seed[i].offset);
    }
}

static void test_layout_spaces(void)
{
    static const SeedReg nv40[] = {
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

/* ==== quad mode ==== */

static void quad_setup(Fixture *f, unsigned d, uint32_t pre, uint32_t start,
                       uint32_t event, uint32_t stop, uint32_t op)
{
    wr(f, NV40_PC_CTRL(d), NV_PC_MODE_QUAD);
    wr(f, NV40_PC_SPEC_SRC(d), ZERO);
    wr(f, NV40_PC_PRE_SRC(d), pre);
    wr(f, NV40_PC_START_SRC(d), start);
    wr(f, NV40_PC_EVENT_SRC(d), event);
    wr(f, NV40_PC_STOP_SRC(d), stop);
    wr(f, NV40_PC_START_OP(d), op);
    wr(f, NV40_PC_EVENT_OP(d), op);
    wr(f, NV40_PC_STOP_OP(d), op);
    wr(f, NV40_PC_PRE_OP(d), op);          /* swap: a clean start */
}

/* ONE, PERIODIC and a synthetic signal, counted over 10^9 cycles. */
static void test_quad_simple(Fixture *f, gconstpointer data)
{
    const uint64_t n = 1000000000;

    nv_pcounter_set_synth(f->gpu, 2, 0, 8, 3, 0);   /* 3 of every 256 */
    wr(f, NV40_PC_CTRL(2), NV_PC_MODE_QUAD | 1u << NV_PC_CTRL_PERIODIC_SHIFT);
    quad_setup(f, 2, SRC4(PER, 0, 0, 0), SRC4(ZERO, 0, 0, 0),
               SRC4(ONE, 0, 0, 0), SRC4(SYN(0), 0, 0, 0), OP_ARG0);
    wr(f, NV40_PC_CTRL(2), NV_PC_MODE_QUAD | 1u << NV_PC_CTRL_PERIODIC_SHIFT);
    step(f, n);
    wr(f, NV40_PC_PRE_OP(2), OP_ARG0);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(2)), ==, n);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES_ALT(2)), ==, n);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(2)), ==, n);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_START(2)), ==, 0);
    /* PERIODIC: the last clock of each 0x400 */
    g_assert_cmpuint(rd(f, NV40_PC_CTR_PRE(2)), ==, n / 0x400);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_STOP(2)), ==, n / 256 * 3);
    /* Other domains were not started, nothing swapped there. */
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(1)), ==, 0);
}

/* The clock rate maps virtual time to cycles; cost does not depend on it. */
static void test_quad_clock_rate(void)
{
    NvGpuConfig cfg = { .chipset = "g84" };
    FakeHost *fh = fake_host_new();
    NvGpu *gpu;
    uint64_t ns = 123456789;

    cfg.domain_hz[4] = 333000000;
    gpu = nv_gpu_new(&cfg, &fh->host);
    nv_gpu_write(gpu, NV40_PC_CTRL(4), NV_PC_MODE_QUAD);
    nv_gpu_write(gpu, NV40_PC_PRE_OP(4), 0);
    fake_host_step(fh, ns);
    nv_gpu_write(gpu, NV40_PC_PRE_OP(4), 0);
    g_assert_cmpuint(nv_gpu_read(gpu, NV40_PC_CTR_CYCLES(4)), ==,
                     ns * 333 / 1000);
    nv_gpu_free(gpu);
    fake_host_free(fh);
}

/* Every 4-input truth table entry, for every input. */
static void test_truth_tables(Fixture *f, gconstpointer data)
{
    GRand *g = g_rand_new_with_seed(g_test_rand_int());

    for (unsigned idx = 0; idx < 16; idx++) {
        uint32_t src = SRC4(idx & 1 ? ONE : ZERO, idx & 2 ? ONE : ZERO,
                            idx & 4 ? ONE : ZERO, idx & 8 ? ONE : ZERO);
        uint32_t op = g_rand_int(g) & 0xffff;
        bool bit = (op >> idx) & 1;

        quad_setup(f, 0, src, src, src, src, op);
        g_assert_cmphex(rd(f, NV40_PC_SRC_STATUS(0)), ==, idx * 0x1111);
        step(f, 100);
        wr(f, NV40_PC_PRE_OP(0), op);
        g_assert_cmpuint(rd(f, NV40_PC_CTR_PRE(0)), ==, bit * 100);
        g_assert_cmpuint(rd(f, NV40_PC_CTR_START(0)), ==, bit * 100);
        g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(0)), ==, bit * 100);
        g_assert_cmpuint(rd(f, NV40_PC_CTR_STOP(0)), ==, bit * 100);
        /*
         * SETFLAG's arguments: START_SRC[2], START_SRC[3], PRE_SRC[0],
         * PRE_SRC[1]; with PRE_SRC = START_SRC it sees index
         * (idx >> 2) | (idx & 3) << 2.  The FLAG signal lags 2 cycles.
         */
        wr(f, NV40_PC_CLRFLAG_OP(0), 0);
        wr(f, NV40_PC_SETFLAG_OP(0), 1u << ((idx >> 2) | (idx & 3) << 2));
        step(f, 1);
        g_assert_cmpuint(rd(f, NV40_PC_SIG_STATUS(0, 7)) >> 31, ==, 0);
        step(f, 1);
        g_assert_cmpuint(rd(f, NV40_PC_SIG_STATUS(0, 7)) >> 31, ==, 1);
        /* CLRFLAG: PRE_SRC[2], PRE_SRC[3], START_SRC[0], START_SRC[1]. */
        wr(f, NV40_PC_SETFLAG_OP(0), OP_TRUE);
        wr(f, NV40_PC_CLRFLAG_OP(0), 1u << ((idx >> 2) | (idx & 3) << 2));
        step(f, 2);
        g_assert_cmpuint(rd(f, NV40_PC_SIG_STATUS(0, 7)) >> 31, ==, 0);
        wr(f, NV40_PC_SETFLAG_OP(0), 0);
        wr(f, NV40_PC_CLRFLAG_OP(0), 0);
    }
    g_rand_free(g);
}

/* Delay bits: a signal alternating 1,0,1,0 against itself one cycle late. */
static void test_delay_bits(Fixture *f, gconstpointer data)
{
    bool g92 = !g_strcmp0(data, "g92");
    uint32_t alt = SRC4(SYN(0), SYN(0), SYN(0), SYN(0));
    const uint32_t and01 = 0x8888;      /* arg0 & arg1 */
    const uint32_t and23 = 0xf000;      /* arg2 & arg3 */

    nv_pcounter_set_synth(f->gpu, 0, 0, 1, 1, 0);
    quad_setup(f, 0, alt, alt, alt, alt, and01);
    step(f, 1000);
    wr(f, NV40_PC_PRE_OP(0), and01 | NV_PC_OP_DELAY0);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_PRE(0)), ==, 500);
    /* x(c) & x(c-1) is never 1 */
    step(f, 1000);
    wr(f, NV40_PC_PRE_OP(0), and01 | NV_PC_OP_DELAY0 | NV_PC_OP_DELAY1);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_PRE(0)), ==, 0);
    step(f, 1000);
    /* both delayed: x(c-1) & x(c-1) */
    wr(f, NV40_PC_PRE_OP(0), and23 | NV_PC_OP_ARG2_DELAYED_SRC0);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_PRE(0)), ==, 500);
    /* G92: argument 2 = SRC[0] delayed: x(c-1) & x(c) = 0 */
    wr(f, NV40_PC_EVENT_OP(0), and23 | NV_PC_OP_EV_ARG2_DELAYED_SRC0);
    step(f, 1000);
    wr(f, NV40_PC_PRE_OP(0), and23 | NV_PC_OP_ARG2_DELAYED_SRC0);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_PRE(0)), ==, g92 ? 0 : 500);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(0)), ==, g92 ? 0 : 500);
    /* EVENT bit 18: argument 3 is SETFLAG (all 1 here) */
    wr(f, NV40_PC_SETFLAG_OP(0), OP_TRUE);
    wr(f, NV40_PC_EVENT_OP(0), 0x8080 | NV_PC_OP_ARG3_SETFLAG);
    step(f, 1000);
    wr(f, NV40_PC_PRE_OP(0), and23);
    /* 0x8080: arg0 & arg1 & arg2 (arg3 any) */
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(0)), ==, 500);
}

/* B4 = 13, B6 = 29, B2 = 3 from constant signals. */
static void test_counter_modes(Fixture *f, gconstpointer data)
{
    static const struct {
        unsigned mode;
        uint32_t event, start;
    } cases[] = {
        { NV_PC_CTR_SIMPLE, 1, 1 },
        { NV_PC_CTR_EVENT_B4, 13, 1 },
        { NV_PC_CTR_EVENT_B6, 29, 1 },
        { NV_PC_CTR_EXTRA_B4, 1, 13 },
        { NV_PC_CTR_EXTRA_B6_EVENT_B2, 3, 29 },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        quad_setup(f, 5, SRC4(ONE, ONE, ONE, ONE),
                   SRC4(ONE, ZERO, ONE, ONE), SRC4(ONE, ONE, ONE, ZERO),
                   SRC4(ONE, ONE, ONE, ONE), OP_TRUE);
        wr(f, NV40_PC_CTRL(5), NV_PC_MODE_QUAD |
           cases[i].mode << NV_PC_CTRL_CTR_MODE_SHIFT);
        wr(f, NV40_PC_PRE_OP(5), OP_TRUE);
        step(f, 1000);
        wr(f, NV40_PC_PRE_OP(5), OP_TRUE);
        g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(5)), ==,
                         cases[i].event * 1000);
        g_assert_cmpuint(rd(f, NV40_PC_CTR_START(5)), ==,
                         cases[i].start * 1000);
        g_assert_cmpuint(rd(f, NV40_PC_CTR_PRE(5)), ==, 1000);
    }
}

static unsigned quad_state(Fixture *f, unsigned d)
{
    return (rd(f, NV40_PC_CTRL(d)) >> NV_PC_CTRL_QUAD_STATE_SHIFT) & 3;
}

static void test_quad_states(Fixture *f, gconstpointer data)
{
    wr(f, NV40_PC_CTRL(1), NV_PC_MODE_QUAD);
    wr(f, NV40_PC_EVENT_SRC(1), SRC4(ONE, 0, 0, 0));
    wr(f, NV40_PC_EVENT_OP(1), OP_ARG0);
    g_assert_cmpuint(quad_state(f, 1), ==, NV_PC_QUAD_EMPTY);
    wr(f, NV40_PC_PRE_OP(1), 0);
    step(f, 10);
    g_assert_cmpuint(quad_state(f, 1), ==, NV_PC_QUAD_VALID);
    wr(f, NV40_PC_PRE_OP(1), 0);
    step(f, 10);
    g_assert_cmpuint(quad_state(f, 1), ==, NV_PC_QUAD_OVERFLOW);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(1)), ==, 10);
    wr(f, NV40_PC_PRE_OP(1), 0);
    step(f, 1);
    g_assert_cmpuint(quad_state(f, 1), ==, NV_PC_QUAD_OVERFLOW);
    wr(f, NV40_PC_QUAD_ACK_TRIGGER(1), 1);
    g_assert_cmpuint(quad_state(f, 1), ==, NV_PC_QUAD_VALID);
    wr(f, NV40_PC_QUAD_ACK_TRIGGER(1), 0);
    g_assert_cmpuint(quad_state(f, 1), ==, NV_PC_QUAD_VALID);
    wr(f, NV40_PC_QUAD_ACK_TRIGGER(1), 1);
    g_assert_cmpuint(quad_state(f, 1), ==, NV_PC_QUAD_EMPTY);
    wr(f, NV40_PC_QUAD_ACK_TRIGGER(1), 1);
    g_assert_cmpuint(quad_state(f, 1), ==, NV_PC_QUAD_EMPTY);

    /* PGRAPH.PM_TRIGGER swaps through the reset SPEC_SRC. */
    wr(f, NV40_PC_SPEC_SRC(1), NV_SIG_PM_TRIGGER);
    step(f, 77);
    wr(f, NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
    g_assert_cmphex(rd(f, NV_PGRAPH_PM_CTRL), ==, 0);
    step(f, 5);
    g_assert_cmpuint(quad_state(f, 1), ==, NV_PC_QUAD_VALID);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(1)), ==, 78);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(1)), ==, 78);

    /* A SWAP on a cycle with events counts them in the next period. */
    nv_pcounter_set_synth(f->gpu, 1, 0, 4, 1, 0);   /* cycles 16k */
    wr(f, NV40_PC_SPEC_SRC(1), SYN(0));
    wr(f, NV40_PC_EVENT_SRC(1), SRC4(SYN(0), 0, 0, 0));
    step(f, 100);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(1)), ==, 1);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(1)), ==, 16);
}

static void test_quad_saturation(Fixture *f, gconstpointer data)
{
    quad_setup(f, 7, 0, 0, SRC4(ONE, 0, 0, 0), 0, OP_ARG0);
    step(f, 5000000000ull);
    wr(f, NV40_PC_PRE_OP(7), OP_ARG0);
    g_assert_cmphex(rd(f, NV40_PC_CTR_CYCLES(7)), ==, 0xffffffff);
    g_assert_cmphex(rd(f, NV40_PC_CTR_EVENT(7)), ==, 0xffffffff);
    g_assert_cmphex(rd(f, NV40_PC_CTR_PRE(7)), ==, 0);
}

/* ==== single event mode ==== */

static unsigned single_state(Fixture *f, unsigned d)
{
    return (rd(f, NV40_PC_CTRL(d)) >> NV_PC_CTRL_SINGLE_STATE_SHIFT) & 3;
}

static void test_single_states(Fixture *f, gconstpointer data)
{
    /*
     * PRE: PERIODIC (last clock of each 0x400); START: cycles 100 mod 256;
     * STOP: cycles 200 mod 256; EVENT: ONE.
     */
    nv_pcounter_set_synth(f->gpu, 6, 0, 8, 1, 256 - 100);
    nv_pcounter_set_synth(f->gpu, 6, 1, 8, 1, 256 - 200);
    wr(f, NV40_PC_CTRL(6), NV_PC_MODE_SINGLE |
       1u << NV_PC_CTRL_PERIODIC_SHIFT);
    wr(f, NV40_PC_PRE_SRC(6), SRC4(PER, 0, 0, 0));
    wr(f, NV40_PC_START_SRC(6), SRC4(SYN(0), 0, 0, 0));
    wr(f, NV40_PC_EVENT_SRC(6), SRC4(ONE, 0, 0, 0));
    wr(f, NV40_PC_STOP_SRC(6), SRC4(SYN(1), 0, 0, 0));
    wr(f, NV40_PC_START_OP(6), OP_ARG0);
    wr(f, NV40_PC_EVENT_OP(6), OP_ARG0);
    wr(f, NV40_PC_STOP_OP(6), OP_ARG0);
    wr(f, NV40_PC_CTR_PRE(6), 1);
    wr(f, NV40_PC_CTR_STOP(6), 2);
    wr(f, NV40_PC_THRESHOLD(6), 100);
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_INACTIVE);
    step(f, 5000);
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_INACTIVE);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(6)), ==, 0);

    /* Start at cycle 5000: CTR_PRE 1 -> two PRE pulses. */
    wr(f, NV40_PC_PRE_OP(6), OP_ARG0);
    step(f, 1);
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_WAIT_PRE);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_PRE(6)), ==, 1);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_STOP(6)), ==, 2);
    /* PRE pulses at 5119 and 6143 (mod 0x400 == 0x3ff) */
    step(f, 5120 - 5001);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_PRE(6)), ==, 0);
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_WAIT_PRE);
    step(f, 6144 - 5120);
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_WAIT_START);
    /* START at 6244 (6244 % 256 == 100), STOP at 6344: 100 cycles. */
    step(f, 6245 - 6144);
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_COUNTING);
    step(f, 6345 - 6245);
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_WAIT_START);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(6)), ==, 100);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(6)), ==, 100);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_START(6)), ==, 1);  /* >= 100 */
    g_assert_cmpuint(rd(f, NV40_PC_CTR_STOP(6)), ==, 1);
    /* Two more periods, then INACTIVE; counters hold. */
    step(f, 10000);
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_INACTIVE);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_START(6)), ==, 3);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_STOP(6)), ==, 0);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(6)), ==, 100);

    /* A config write other than PRE_OP aborts (now 16345). */
    wr(f, NV40_PC_PRE_OP(6), OP_ARG0);
    step(f, 500);
    /* one of two PRE pulses seen (16383) */
    g_assert_cmpuint(rd(f, NV40_PC_CTR_PRE(6)), ==, 0);
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_WAIT_PRE);
    wr(f, NV40_PC_THRESHOLD(6), 101);
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_INACTIVE);
    wr(f, NV40_PC_PRE_OP(6), OP_ARG0);
    step(f, 1);
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_WAIT_PRE);
    wr(f, NV40_PC_CTRL(6), NV_PC_MODE_SINGLE |
       1u << NV_PC_CTRL_PERIODIC_SHIFT);
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_INACTIVE);
}

/* ==== record mode ==== */

static uint16_t le16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static void record_setup(Fixture *f, unsigned d, uint32_t ctrl,
                         uint32_t start, uint32_t limit)
{
    wr(f, NV40_PC_CTRL(d), NV_PC_MODE_RECORD | ctrl);
    wr(f, NV40_PC_PRE_SRC(d), SRC4(ONE, ZERO, SYN(0), ONE));
    wr(f, NV40_PC_START_SRC(d), SRC4(ZERO, ONE, ZERO, ZERO));
    wr(f, NV40_PC_EVENT_SRC(d), SRC4(ZERO, ZERO, SYN(0), ONE));
    wr(f, NV40_PC_STOP_SRC(d), SRC4(SYN(1), 0, 0, 0));
    wr(f, NV40_PC_STOP_OP(d), OP_ARG0);
    wr(f, NV40_PC_RECORD_LIMIT(d), limit);
    wr(f, NV40_PC_RECORD_START(d), start);
}

static void test_record_packets(Fixture *f, gconstpointer data)
{
    uint8_t *m = f->fh->ram + 0x1000;

    nv_pcounter_set_synth(f->gpu, 3, 0, 2, 1, 0);     /* 1 of 4 */
    nv_pcounter_set_synth(f->gpu, 3, 1, 10, 1, 1);    /* cycle 1023 */
    record_setup(f, 3, 0, 0x1000, 0x1020);
    step(f, 3000);
    /* Packets at cycles 1023 and 2047: LONG, byte-exact. */
    g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(3)), ==, 0x1040);
    for (unsigned p = 0; p < 2; p++) {
        const uint8_t *k = m + 32 * p;

        g_assert_cmpuint(le16(k + 0) | (uint64_t)le16(k + 2) << 16, ==,
                         1024 * (p + 1));
        g_assert_cmpuint(le16(k + 4), ==, 0);
        g_assert_cmpuint(le16(k + 6), ==, 1);
        g_assert_cmpuint(le16(k + 8), ==, 1024);      /* PRE_SRC[0] ONE */
        g_assert_cmpuint(le16(k + 10), ==, 0);
        g_assert_cmpuint(le16(k + 12), ==, 256);      /* SYN(0) */
        g_assert_cmpuint(le16(k + 14), ==, 1024);
        g_assert_cmpuint(le16(k + 16), ==, 0);
        g_assert_cmpuint(le16(k + 18), ==, 1024);
        g_assert_cmpuint(le16(k + 20), ==, 0);
        g_assert_cmpuint(le16(k + 22), ==, 0);
        g_assert_cmpuint(le16(k + 24), ==, 0);
        g_assert_cmpuint(le16(k + 26), ==, 0);
        g_assert_cmpuint(le16(k + 28), ==, 256);
        g_assert_cmpuint(le16(k + 30), ==, 1024);
    }
    /* The second packet was at the limit: no third one. */
    step(f, 3000);
    g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(3)), ==, 0x1040);
    g_assert_cmpuint(le16(m + 64), ==, 0);

    /* SHORT: 16 bytes, the first half of LONG. */
    record_setup(f, 3, NV_PC_CTRL_RECORD_SHORT, 0x2000, 0x3000);
    /* now 6000; the next STOP is at 6143: 144 cycles since the clear */
    step(f, 144);
    g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(3)), ==, 0x2010);
    g_assert_cmpuint(le16(f->fh->ram + 0x2000), ==, 144);
    g_assert_cmpuint(le16(f->fh->ram + 0x2006), ==, 1);
    g_assert_cmpuint(le16(f->fh->ram + 0x2008), ==, 144);
    g_assert_cmpuint(le16(f->fh->ram + 0x200e), ==, 144);
    g_assert_cmpuint(le16(f->fh->ram + 0x2010), ==, 0);
}

/* No STOP: a packet when an event counter reaches 0xf000, STOP count 0. */
static void test_record_flush_level(Fixture *f, gconstpointer data)
{
    record_setup(f, 0, 0, 0x4000, 0x8000);
    wr(f, NV40_PC_STOP_SRC(0), SRC4(ZERO, 0, 0, 0));
    step(f, 0xf000 - 1);
    g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(0)), ==, 0x4000);
    step(f, 1);
    g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(0)), ==, 0x4020);
    g_assert_cmphex(le16(f->fh->ram + 0x4000), ==, 0xf000);
    g_assert_cmphex(le16(f->fh->ram + 0x4006), ==, 0);
    g_assert_cmphex(le16(f->fh->ram + 0x4008), ==, 0xf000);
    /* Held by RECORD_RESET: nothing counts, no packets. */
    wr(f, NV40_PC_GCTRL, NV_PC_GCTRL_RECORD_RESET);
    step(f, 0x20000);
    wr(f, NV40_PC_GCTRL, 0);
    g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(0)), ==, 0x4020);
    step(f, 0xf000);
    g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(0)), ==, 0x4040);
    g_assert_cmphex(le16(f->fh->ram + 0x4020), ==, 0xf000);
}

/* Slow memory: STOP pulses pile up in one packet. */
static void test_record_backpressure(void)
{
    Fixture f;

    fixture_open(&f, "g84", 100);
    nv_pcounter_set_synth(f.gpu, 0, 1, 4, 1, 0);     /* every 16 cycles */
    record_setup(&f, 0, 0, 0x4000, 0x8000);
    step(&f, 200);
    /* cycle 0: packet (STOP 1), busy until 101; 16..96 pile up: 6. */
    g_assert_cmphex(rd(&f, NV40_PC_RECORD_STATUS(0)), ==, 0x4040);
    g_assert_cmpuint(le16(f.fh->ram + 0x4006), ==, 1);
    g_assert_cmpuint(le16(f.fh->ram + 0x4026), ==, 6);
    g_assert_cmpuint(le16(f.fh->ram + 0x4028), ==, 101);
    fixture_close(&f);
}

static void test_record_fault(Fixture *f, gconstpointer data)
{
    nv_pcounter_set_synth(f->gpu, 2, 1, 4, 1, 0);
    record_setup(f, 2, 0, FAKE_RAM_SIZE - 0x20, 0xffffff00);
    step(f, 20);
    /* one packet fits, the next faults and wedges the domain */
    g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(2)), ==, FAKE_RAM_SIZE | 1);
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    wr(f, NV40_PC_CTRL(2), NV_PC_MODE_RECORD | NV_PC_CTRL_FAULT_CLEAR);
    g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(2)), ==, FAKE_RAM_SIZE);
    wr(f, NV40_PC_RECORD_START(2), 0x1000);
    step(f, 100);
    g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(2)), ==, 0x1000);
    g_assert_cmpuint(le16(f->fh->ram + 0x1006), ==, 0);
}

/* Packets reach memory from the flush timer, without MMIO. */
static void test_record_timer(Fixture *f, gconstpointer data)
{
    nv_pcounter_set_synth(f->gpu, 0, 1, 10, 1, 1);
    record_setup(f, 0, 0, 0x1000, 0x2000);
    fake_host_step(f->fh, 1000000);
    g_assert_cmpuint(le16(f->fh->ram + 0x1006), ==, 1);
    g_assert_cmpuint(le16(f->fh->ram + 0x1000 + 32 * 90 + 6), ==, 1);
}

/* ==== trailer EVENT/FLAG signals as inputs ==== */

#define EV(d) NV_SIG_DOM_EVENT(d)
#define FL(d) NV_SIG_DOM_FLAG(d)

/* Quad mode counting @event as CTR_EVENT and @stop as CTR_STOP. */
static void count_setup(Fixture *f, unsigned d, unsigned event,
                        unsigned stop, uint32_t ctrl)
{
    quad_setup(f, d, 0, 0, SRC4(event, 0, 0, 0), SRC4(stop, 0, 0, 0),
               OP_ARG0);
    wr(f, NV40_PC_CTRL(d), NV_PC_MODE_QUAD | ctrl);
    wr(f, NV40_PC_PRE_OP(d), OP_ARG0);     /* swap: a clean start */
}

/* Swap (PRE_OP write) and read a counter of the closed period. */
static uint32_t swap_read(Fixture *f, unsigned d, uint32_t reg)
{
    wr(f, NV40_PC_PRE_OP(d), rd(f, NV40_PC_PRE_OP(d)));
    return rd(f, reg);
}

/* SRC_STATUS bit @i of domain @d: selected signal i in the current cycle. */
static bool src_bit(Fixture *f, unsigned d, unsigned i)
{
    return (rd(f, NV40_PC_SRC_STATUS(d)) >> i) & 1;
}

/*
 * The first cycle in which domains @cont (CONTINUOUS) and @pulse (PULSE)
 * see a 0-to-1 change as SRC_STATUS bit @i: both 1; in the next cycle
 * only @cont.
 */
static void expect_rise(Fixture *f, unsigned cont, unsigned pulse,
                        unsigned i)
{
    g_assert_true(src_bit(f, cont, i));
    g_assert_true(src_bit(f, pulse, i));
    step(f, 1);
    g_assert_true(src_bit(f, cont, i));
    g_assert_false(src_bit(f, pulse, i));
}

/* The own EVENT is the EVENT output one cycle late; it may feed back. */
static void test_own_event(Fixture *f, gconstpointer data)
{
    nv_pcounter_set_synth(f->gpu, 0, 0, 4, 1, 0);   /* cycles 16k */
    quad_setup(f, 0, SRC4(EV(0), 0, 0, 0), 0, SRC4(SYN(0), 0, 0, 0), 0,
               OP_ARG0);
    g_assert_cmpuint(f->fh->unimps, ==, 0);
    step(f, 17);
    /* cycle 17: EVENT(16) = 1 shows as DOM[0].EVENT (bit 0x17) */
    g_assert_true(src_bit(f, 0, 0));
    g_assert_false(src_bit(f, 0, 8));
    g_assert_cmpuint((rd(f, NV40_PC_SIG_STATUS(0, 7)) >> 0x17) & 1, ==, 1);
    g_assert_cmpuint(swap_read(f, 0, NV40_PC_CTR_EVENT(0)), ==, 2);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_PRE(0)), ==, 1);      /* cycle 1 */

    /* EVENT = NOT own EVENT: 0, 1, 0, 1... from cycle 17 (EVENT(16) 1) */
    wr(f, NV40_PC_EVENT_SRC(0), SRC4(EV(0), 0, 0, 0));
    wr(f, NV40_PC_EVENT_OP(0), 0x5555);
    wr(f, NV40_PC_PRE_OP(0), OP_ARG0);
    step(f, 1001);
    g_assert_cmpuint(swap_read(f, 0, NV40_PC_CTR_EVENT(0)), ==, 500);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_PRE(0)), ==, 501);  /* 16..1016 */
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(0)), ==, 1001);
}

/* The own FLAG is the FLAG two cycles late (the seed); it may feed back. */
static void test_own_flag(Fixture *f, gconstpointer data)
{
    /* SETFLAG = START_SRC[2] (its argument 0) = SYNTH0, 1 at cycle 10 */
    nv_pcounter_set_synth(f->gpu, 1, 0, 10, 1, 1024 - 10);
    quad_setup(f, 1, 0, SRC4(ZERO, ZERO, SYN(0), ZERO),
               SRC4(FL(1), 0, 0, 0), 0, OP_ARG0);
    wr(f, NV40_PC_SETFLAG_OP(1), OP_ARG0);
    wr(f, NV40_PC_PRE_OP(1), OP_ARG0);
    step(f, 11);
    g_assert_false(src_bit(f, 1, 8));
    step(f, 1);
    g_assert_true(src_bit(f, 1, 8));                     /* cycle 12 */
    step(f, 88);
    g_assert_cmpuint(swap_read(f, 1, NV40_PC_CTR_EVENT(1)), ==, 88);

    /*
     * SETFLAG = NOT FLAG signal, CLRFLAG = FLAG signal: the FLAG (after
     * cycle 100 + i) goes 1 1 0 0 1 1 0 0..., the signal two cycles
     * later: half of the cycles.
     */
    quad_setup(f, 2, SRC4(FL(2), ZERO, FL(2), ZERO), 0,
               SRC4(FL(2), 0, 0, 0), 0, OP_ARG0);
    wr(f, NV40_PC_SETFLAG_OP(2), 0x0f0f);   /* NOT argument 2, PRE_SRC[0] */
    wr(f, NV40_PC_CLRFLAG_OP(2), OP_ARG0);  /* argument 0, PRE_SRC[2] */
    wr(f, NV40_PC_PRE_OP(2), OP_ARG0);
    step(f, 2);
    g_assert_true(src_bit(f, 2, 8));
    step(f, 2);
    g_assert_false(src_bit(f, 2, 8));
    step(f, 996);
    g_assert_cmpuint(swap_read(f, 2, NV40_PC_CTR_EVENT(2)), ==, 500);
}

/*
 * Equal clocks: another domain's signal two cycles late (CONTINUOUS), or
 * one cycle per 0-to-1 change (PULSE).  Domain 1's EVENT is 1 for cycles
 * 0-31 of every 64 (DOM[1].EVENT: 1-32), its FLAG set at cycle 10
 * (DOM[1].FLAG: from 12).
 */
static void test_import_equal_clocks(Fixture *f, gconstpointer data)
{
    nv_pcounter_set_synth(f->gpu, 1, 0, 6, 32, 0);
    nv_pcounter_set_synth(f->gpu, 1, 1, 10, 1, 1024 - 10);
    quad_setup(f, 1, 0, SRC4(ZERO, ZERO, SYN(1), ZERO),
               SRC4(SYN(0), 0, 0, 0), 0, OP_ARG0);
    wr(f, NV40_PC_SETFLAG_OP(1), OP_ARG0);
    count_setup(f, 2, EV(1), FL(1), 0);
    count_setup(f, 3, EV(1), FL(1), NV_PC_CTRL_EVENT_IMPORT_PULSE |
                NV_PC_CTRL_FLAG_IMPORT_PULSE);
    step(f, 2);
    g_assert_false(src_bit(f, 2, 8));
    g_assert_false(src_bit(f, 3, 8));
    step(f, 1);
    expect_rise(f, 2, 3, 8);                             /* cycle 3 */
    step(f, 9);
    g_assert_false(src_bit(f, 2, 12));                   /* cycle 13 */
    step(f, 1);
    expect_rise(f, 2, 3, 12);
    step(f, 640 - 15);
    /* cycles 3-34 of every 64; one pulse per 64 */
    g_assert_cmpuint(swap_read(f, 2, NV40_PC_CTR_EVENT(2)), ==, 320);
    g_assert_cmpuint(swap_read(f, 3, NV40_PC_CTR_EVENT(3)), ==, 10);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_STOP(2)), ==, 640 - 14);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_STOP(3)), ==, 1);
    /* Each domain's own signals are not synchronized. */
    g_assert_cmpuint(rd(f, NV40_PC_SIG_STATUS(1, 7)) >> 0x1e & 1, ==, 1);
}

/*
 * The seed: through CONTINUOUS, single-clock pulses are lost in a slower
 * domain and stretched in a faster one; PULSE makes each 0-to-1 change
 * one pulse.  Domain 1 at 1 GHz pulses every 64 cycles (DOM[1].EVENT at
 * 64m + 1), domains 2 and 3 see it at 250 MHz; domain 5 at 250 MHz
 * pulses every 16 of its cycles, domains 4 and 6 see it at 1 GHz.
 */
static void test_import_clock_ratio(void)
{
    static const uint64_t hz[NV_PCOUNTER_DOMAINS] = {
        1000000000, 1000000000, 250000000, 250000000,
        1000000000, 250000000, 1000000000, 1000000000,
    };
    Fixture fx, *f = &fx;

    fixture_open_hz(f, "g84", 0, hz);
    nv_pcounter_set_synth(f->gpu, 1, 0, 6, 1, 0);
    nv_pcounter_set_synth(f->gpu, 5, 0, 4, 1, 0);
    count_setup(f, 1, SYN(0), ZERO, 0);
    count_setup(f, 5, SYN(0), ZERO, 0);
    count_setup(f, 2, EV(1), ZERO, 0);
    count_setup(f, 3, EV(1), ZERO, NV_PC_CTRL_EVENT_IMPORT_PULSE);
    count_setup(f, 4, EV(5), ZERO, 0);
    count_setup(f, 6, EV(5), ZERO, NV_PC_CTRL_EVENT_IMPORT_PULSE);
    /* Domain 4's cycle c samples domain 5's cycle (c - 1) / 4 - 1. */
    step(f, 8);
    g_assert_false(src_bit(f, 4, 8));
    step(f, 1);
    expect_rise(f, 4, 6, 8);                             /* cycle 9 */
    step(f, 6400 - 10);
    g_assert_cmpuint(swap_read(f, 1, NV40_PC_CTR_EVENT(1)), ==, 100);
    g_assert_cmpuint(swap_read(f, 5, NV40_PC_CTR_EVENT(5)), ==, 100);
    /* 4c - 5 is never 64m + 1: all lost; windows of 4 catch them all */
    g_assert_cmpuint(swap_read(f, 2, NV40_PC_CTR_EVENT(2)), ==, 0);
    g_assert_cmpuint(swap_read(f, 3, NV40_PC_CTR_EVENT(3)), ==, 100);
    /* cycles 64m + 9 .. 64m + 12; one each */
    g_assert_cmpuint(swap_read(f, 4, NV40_PC_CTR_EVENT(4)), ==, 400);
    g_assert_cmpuint(swap_read(f, 6, NV40_PC_CTR_EVENT(6)), ==, 100);
    fixture_close(f);
}

/*
 * A handshake between two domains importing each other's FLAG: domain 1
 * sets its FLAG at cycle 1000 (DOM[1].FLAG from 1002), domain 2 sees it
 * from 1004 and sets its own (DOM[2].FLAG from 1006), which domain 1
 * counts from 1008.  Then nothing changes: 10^7 cycles in few rounds.
 */
static void test_import_handshake(Fixture *f, gconstpointer data)
{
    const uint64_t n = 10000000;

    /* SETFLAG = START_SRC[2]: SYNTH0 (cycle 1000) / DOM[1].FLAG */
    nv_pcounter_set_synth(f->gpu, 1, 0, 16, 1, 65536 - 1000);
    quad_setup(f, 1, 0, SRC4(ZERO, ZERO, SYN(0), ZERO),
               SRC4(FL(2), 0, 0, 0), 0, OP_ARG0);
    quad_setup(f, 2, 0, SRC4(ZERO, ZERO, FL(1), ZERO),
               SRC4(FL(1), 0, 0, 0), 0, OP_ARG0);
    for (unsigned d = 1; d <= 2; d++) {
        wr(f, NV40_PC_SETFLAG_OP(d), OP_ARG0);
        wr(f, NV40_PC_PRE_OP(d), OP_ARG0);
    }
    step(f, 1007);
    g_assert_false(src_bit(f, 1, 8));
    step(f, 1);
    g_assert_true(src_bit(f, 1, 8));                     /* cycle 1008 */
    step(f, n - 1008);
    g_assert_cmpuint(swap_read(f, 1, NV40_PC_CTR_EVENT(1)), ==, n - 1008);
    g_assert_cmpuint(swap_read(f, 2, NV40_PC_CTR_EVENT(2)), ==, n - 1004);
}

/*
 * Two domains importing each other's EVENT, each EVENT the NOT of the
 * import: EVENT(c) = NOT EVENT'(c - 3), 1 for three cycles of every six.
 * The domains run in lock-step rounds; a hostile loop ends.
 */
static void test_import_loop(Fixture *f, gconstpointer data)
{
    const uint64_t n = 600000;

    for (unsigned d = 0; d < 2; d++) {
        count_setup(f, d, EV(1 - d), ZERO, 0);
        wr(f, NV40_PC_EVENT_OP(d), 0x5555);
        wr(f, NV40_PC_PRE_OP(d), OP_ARG0);
    }
    step(f, n);
    for (unsigned d = 0; d < 2; d++) {
        g_assert_cmpuint(swap_read(f, d, NV40_PC_CTR_EVENT(d)), ==, n / 2);
    }
}

/* ==== PTIMER_TIME_B12 and PGRAPH.WRCACHE_FLUSH ==== */

#define TB12_G84 0x2c       /* envytools: G84/G86 host clock signal */
#define TB12_G92 0x34
#define TB12_GT215 0xa3
#define OP_RISE  0x2222u    /* argument 0 and not argument 1 */

/*
 * Domain 0 counts TIME_B12 as CTR_PRE and its rises (the signal and
 * itself delayed) as CTR_EVENT.  At 1 GHz and the reset ratio, TIME is
 * the cycle number: bit 12 is 1 for 4096 of every 8192 cycles.
 */
static void test_ptimer_signal(Fixture *f, gconstpointer data)
{
    unsigned sig = data && !strcmp(data, "g92") ? TB12_G92 : TB12_G84;

    quad_setup(f, 0, SRC4(sig, 0, 0, 0), 0, SRC4(sig, sig, 0, 0), 0,
               OP_ARG0);
    wr(f, NV40_PC_EVENT_OP(0), OP_RISE | NV_PC_OP_DELAY1);
    /* Only the host domain has it. */
    quad_setup(f, 1, SRC4(sig, 0, 0, 0), 0, 0, 0, OP_ARG0);
    step(f, 81920);
    g_assert_cmpuint(swap_read(f, 0, NV40_PC_CTR_PRE(0)), ==, 40960);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(0)), ==, 10);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(0)), ==, 81920);
    g_assert_cmpuint(swap_read(f, 1, NV40_PC_CTR_PRE(1)), ==, 0);

    /* Twice the ratio from the write's cycle: a change every 2048. */
    wr(f, NV_PTIMER_NUMERATOR, 2000);
    step(f, 8192);
    g_assert_cmpuint(swap_read(f, 0, NV40_PC_CTR_PRE(0)), ==, 4096);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(0)), ==, 2);

    /*
     * TIME = 0x1000 from this cycle: 1.  The cycle before had 0x17ffe,
     * also 1, so no rise: the delayed argument sees the old TIME.
     */
    g_assert_cmpuint(rd(f, NV_PTIMER_TIME_LOW), ==, 0x18000);
    wr(f, NV_PTIMER_TIME_HIGH, 0);
    wr(f, NV_PTIMER_TIME_LOW, 0x1000);
    g_assert_true(src_bit(f, 0, 0));
    step(f, 10);
    g_assert_cmpuint(swap_read(f, 0, NV40_PC_CTR_PRE(0)), ==, 10);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(0)), ==, 0);

    /* TIME = 0xffd, 2 per cycle: 1 from the third cycle, one rise. */
    wr(f, NV_PTIMER_TIME_LOW, 0xffd);
    g_assert_false(src_bit(f, 0, 0));
    step(f, 2);
    g_assert_true(src_bit(f, 0, 0));
    g_assert_cmphex(rd(f, NV40_PC_SIG_STATUS(0, sig / 32)) >> (sig % 32) & 1,
                    ==, 1);
    step(f, 8);
    g_assert_cmpuint(swap_read(f, 0, NV40_PC_CTR_PRE(0)), ==, 8);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(0)), ==, 1);

    /* A zero ratio stops TIME: the signal holds. */
    wr(f, NV_PTIMER_DENOMINATOR, 0);
    step(f, 100000);
    g_assert_cmpuint(swap_read(f, 0, NV40_PC_CTR_PRE(0)), ==, 100000);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(0)), ==, 0);
}

/*
 * Faster than 0x1000 TIME units per cycle, bit 12 samples TIME aliased:
 * domain 0 at 1 MHz, ratio 0xffff/1, 1769445 units per cycle, TIME
 * mod 0x2000 goes down 27 per cycle.
 */
static void test_ptimer_signal_fast(void)
{
    uint64_t hz[NV_PCOUNTER_DOMAINS] = { 1000000 };
    uint64_t ones = 0, rises = 0;
    Fixture f;

    fixture_open_hz(&f, "g84", 0, hz);
    quad_setup(&f, 0, SRC4(TB12_G84, 0, 0, 0), 0,
               SRC4(TB12_G84, TB12_G84, 0, 0), 0, OP_ARG0);
    wr(&f, NV40_PC_EVENT_OP(0), OP_RISE | NV_PC_OP_DELAY1);
    wr(&f, NV_PTIMER_NUMERATOR, 0xffff);
    wr(&f, NV_PTIMER_DENOMINATOR, 1);
    step(&f, 10000000);
    for (uint64_t c = 0; c < 10000; c++) {
        bool b = (c * 1769445ull >> 12) & 1;

        ones += b;
        rises += b && c && !((c - 1) * 1769445ull >> 12 & 1);
    }
    g_assert_cmpuint(swap_read(&f, 0, NV40_PC_CTR_PRE(0)), ==, ones);
    g_assert_cmpuint(rd(&f, NV40_PC_CTR_EVENT(0)), ==, rises);
    /* one rise per 0x2000 / 27 cycles: not a constant signal */
    g_assert_cmpuint(rises, >=, 10000 * 27 / 0x2000);
    fixture_close(&f);
}

/*
 * Each write of the flush trigger is a one-cycle WRCACHE_FLUSH pulse in
 * every domain's current cycle; two in one cycle are one pulse.
 */
static void test_wrcache_flush(Fixture *f, gconstpointer data)
{
    quad_setup(f, 2, 0, 0, SRC4(NV_SIG_WRCACHE_FLUSH, 0, 0, 0), 0, OP_ARG0);
    /* Delayed: the cycle after each pulse. */
    wr(f, NV40_PC_STOP_SRC(2), SRC4(NV_SIG_WRCACHE_FLUSH, 0, 0, 0));
    wr(f, NV40_PC_STOP_OP(2), OP_ARG0 | NV_PC_OP_DELAY0);
    quad_setup(f, 5, 0, 0, 0, 0, OP_ARG0);
    wr(f, NV40_PC_SPEC_SRC(5), NV_SIG_WRCACHE_FLUSH);
    wr(f, NV40_PC_QUAD_ACK_TRIGGER(5), 1);
    g_assert_cmpuint(quad_state(f, 5), ==, NV_PC_QUAD_EMPTY);
    step(f, 100);
    wr(f, NV_FLUSH, NV_FLUSH_TRIGGER);
    g_assert_cmphex(rd(f, NV_FLUSH), ==, 0);        /* done at once */
    /* The swap precedes the pulse cycle's counting: seen once it ran. */
    step(f, 1);
    g_assert_cmpuint(quad_state(f, 5), ==, NV_PC_QUAD_VALID);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(5)), ==, 100);
    step(f, 4);
    wr(f, NV_FLUSH, NV_FLUSH_TRIGGER);
    wr(f, NV_FLUSH, NV_FLUSH_TRIGGER);
    wr(f, NV_FLUSH, 0);                             /* not a flush */
    step(f, 50);
    g_assert_cmpuint(swap_read(f, 2, NV40_PC_CTR_EVENT(2)), ==, 2);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_STOP(2)), ==, 2);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(2)), ==, 155);
    g_assert_cmpuint(quad_state(f, 5), ==, NV_PC_QUAD_OVERFLOW);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(5)), ==, 5);
}

/* ==== GT215 USER signals ==== */

#define U0 0x69             /* domain 1's USER_0 on GT215 */
#define U1 0x6a

/* After @ns more cycles, domain 1's counts since the last swap. */
static void user_expect(Fixture *f, uint64_t ns, uint32_t pre,
                        uint32_t event, uint32_t start, uint32_t stop)
{
    step(f, ns);
    g_assert_cmpuint(swap_read(f, 1, NV40_PC_CTR_PRE(1)), ==, pre);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(1)), ==, event);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_START(1)), ==, start);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_STOP(1)), ==, stop);
}

/*
 * Domain 1 in quad mode: PRE = USER_0, START = USER_1, EVENT = USER_0
 * one cycle late (DELAY0), STOP = rises of USER_1 (USER_1 and not
 * itself delayed).  Cycle c is ns c.
 */
static void test_user_quad(Fixture *f, gconstpointer data)
{
    quad_setup(f, 1, SRC4(U0, 0, 0, 0), SRC4(U1, 0, 0, 0),
               SRC4(U0, 0, 0, 0), SRC4(U1, U1, 0, 0), OP_ARG0);
    wr(f, NV40_PC_EVENT_OP(1), OP_ARG0 | NV_PC_OP_DELAY0);
    wr(f, NV40_PC_STOP_OP(1), OP_RISE | NV_PC_OP_DELAY1);
    /* Another domain's signal 0x69 is not domain 1's USER_0. */
    quad_setup(f, 2, SRC4(U0, 0, 0, 0), 0, 0, 0, OP_ARG0);
    user_expect(f, 100, 0, 0, 0, 0);

    /* A level: from the write's cycle on; the delayed EVENT one later. */
    wr(f, NV40_PC_USER_TRIGGER(1), 1);
    g_assert_true(src_bit(f, 1, 0));
    g_assert_cmphex(rd(f, NV40_PC_SIG_STATUS(1, U0 / 32)) >> (U0 % 32) & 3,
                    ==, 1);
    user_expect(f, 50, 50, 49, 0, 0);
    g_assert_true(src_bit(f, 1, 0));
    g_assert_cmpuint(swap_read(f, 2, NV40_PC_CTR_PRE(2)), ==, 0);

    /* Back to 0: the delayed argument still sees the old 1 once. */
    wr(f, NV40_PC_USER_TRIGGER(1), 0);
    g_assert_false(src_bit(f, 1, 0));
    user_expect(f, 20, 0, 1, 0, 0);

    /* Pulse mode: one cycle of 1, seen delayed in the next. */
    wr(f, NV40_PC_USER_TRIGGER(1), 0x5);
    g_assert_true(src_bit(f, 1, 0));
    step(f, 1);
    g_assert_false(src_bit(f, 1, 0));
    user_expect(f, 30, 1, 1, 0, 0);

    /* USER_1 as a level: START every cycle, STOP once (the rise). */
    wr(f, NV40_PC_USER_TRIGGER(1), 0x2);
    user_expect(f, 40, 0, 0, 40, 1);

    /*
     * Two writes in one cycle: the second sets the signals.  USER_1
     * pulsed from 1 (no rise: the cycle before was 1), USER_0 a level.
     */
    wr(f, NV40_PC_USER_TRIGGER(1), 0x0);
    wr(f, NV40_PC_USER_TRIGGER(1), 0xb);
    user_expect(f, 10, 10, 9, 1, 0);

    /* Pulse mode for a 0 value: 0 indefinitely; a pulsed rise of USER_1. */
    wr(f, NV40_PC_USER_TRIGGER(1), 0xe);
    user_expect(f, 1000000, 0, 1, 1, 1);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(1)), ==, 1000000);

    /* Reset clears them. */
    wr(f, NV40_PC_USER_TRIGGER(1), 0x3);
    nv_gpu_reset(f->gpu);
    quad_setup(f, 1, SRC4(U0, U1, 0, 0), 0, 0, 0, OP_TRUE ^ 1);
    step(f, 10);
    g_assert_cmpuint(swap_read(f, 1, NV40_PC_CTR_PRE(1)), ==, 0);
}

/*
 * Single mode: PRE = ONE, START = USER_0, STOP = USER_1, EVENT = ONE;
 * pulses bracket a 30-cycle count.  USER_TRIGGER is not configuration:
 * it does not abort the run.
 */
static void test_user_single(Fixture *f, gconstpointer data)
{
    wr(f, NV40_PC_CTRL(1), NV_PC_MODE_SINGLE);
    wr(f, NV40_PC_PRE_SRC(1), SRC4(ONE, 0, 0, 0));
    wr(f, NV40_PC_START_SRC(1), SRC4(U0, 0, 0, 0));
    wr(f, NV40_PC_EVENT_SRC(1), SRC4(ONE, 0, 0, 0));
    wr(f, NV40_PC_STOP_SRC(1), SRC4(U1, 0, 0, 0));
    wr(f, NV40_PC_START_OP(1), OP_ARG0);
    wr(f, NV40_PC_EVENT_OP(1), OP_ARG0);
    wr(f, NV40_PC_STOP_OP(1), OP_ARG0);
    wr(f, NV40_PC_PRE_OP(1), OP_ARG0);
    step(f, 10);
    g_assert_cmpuint(single_state(f, 1), ==, NV_PC_SINGLE_WAIT_START);
    wr(f, NV40_PC_USER_TRIGGER(1), 0x5);
    step(f, 1);
    g_assert_cmpuint(single_state(f, 1), ==, NV_PC_SINGLE_COUNTING);
    step(f, 29);
    wr(f, NV40_PC_USER_TRIGGER(1), 0xa);
    step(f, 100);
    g_assert_cmpuint(single_state(f, 1), ==, NV_PC_SINGLE_INACTIVE);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_CYCLES(1)), ==, 30);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(1)), ==, 30);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_START(1)), ==, 1);
}

/* ==== the reference evaluator: one cycle at a time, from the seed ==== */

typedef struct RefSynth {
    unsigned log2, high, phase;
} RefSynth;

typedef struct RefSys RefSys;

typedef struct Ref {
    RefSys *sys;
    unsigned id;
    uint64_t hz;                /* 0: the domain is not evaluated */
    /* configuration */
    bool g92;
    uint32_t src[4];            /* PRE, START, EVENT, STOP _SRC */
    uint32_t op[6];             /* PRE START EVENT STOP SETFLAG CLRFLAG */
    uint32_t spec, ctrl, threshold, pre_init, stop_init;
    RefSynth synth[NV_SIG_SYNTH_COUNT];
    uint32_t wcycles;
    uint32_t rec_start, rec_limit;
    /* state */
    uint64_t c;                 /* next cycle */
    uint64_t ctr[5], shadow[5]; /* CYCLES EVENT START PRE STOP */
    unsigned qstate, sstate;
    bool flag, flag_hist[2];    /* after cycles c-1 and c-2 */
    uint64_t rcyc;
    unsigned rev[12], rstop;
    uint64_t busy_until;
    uint32_t pos;
    bool valid, fault;
    uint8_t *mem;               /* a copy of guest RAM's buffer area */
    uint32_t ctrl_before;       /* CTRL before cycle ctrl_since */
    uint64_t ctrl_since;
    GByteArray *ev_out;         /* EVENT output of every cycle */
    GByteArray *flag_out;       /* FLAG after every cycle */
    /* PTIMER's TIME in cycle c, and the fraction of a unit past it */
    uint64_t ptime, pfrac;
    unsigned ptimer_sig;        /* TIME_B12's number here, 0: none */
    GByteArray *ptimer_out;     /* TIME_B12 of every cycle */
    GArray *pulse[2];           /* cycles of PM_TRIGGER, WRCACHE_FLUSH */
    unsigned user_sig;          /* GT215: USER_0's number, 0: none */
    GArray *user;               /* USER_TRIGGER writes (RefUser) */
} Ref;

/* A USER_TRIGGER write before cycle c: the register's value. */
typedef struct RefUser {
    uint64_t c;
    uint32_t val;
} RefUser;

/* PTIMER's registers: TIME = time + (ns - ns0) x 27 MHz x num / den */
typedef struct RefPtimer {
    uint64_t ns, time;
    uint32_t num, den;
} RefPtimer;

struct RefSys {
    Ref dom[NV_PCOUNTER_DOMAINS];
    RefPtimer pt;
};

/* Cycle @c's value in @a, 0 before cycle 0. */
static bool ref_hist(const GByteArray *a, int64_t c)
{
    g_assert(c < (int64_t)a->len);
    return c >= 0 && a->data[c];
}

/*
 * The seed's DOM[x].EVENT / DOM[x].FLAG as domain x itself sees it, in
 * its cycle j: the EVENT output one cycle late (the model's choice: a
 * direct connection loops), the FLAG two cycles late (the seed).
 */
static bool ref_trailer_own(const Ref *x, bool flag, int64_t j)
{
    return flag ? ref_hist(x->flag_out, j - 2) : ref_hist(x->ev_out, j - 1);
}

/*
 * Domain x's signal in domain y's cycle c: the synchronizer presents
 * the signal as it was in x two y clocks ago, at the end of y's cycle
 * c - 2: the last x cycle completed by then, k(c) (CONTINUOUS), or 1 if
 * it rose in the x cycles sampled for c and not for c - 1 (PULSE).
 */
static int64_t ref_k(const Ref *x, const Ref *y, int64_t c)
{
    if (c < 1) {
        return -1;
    }
    return (int64_t)gpu_muldiv64(c - 1, x->hz, y->hz) - 1;
}

static bool ref_trailer(const Ref *y, unsigned s, int64_t c)
{
    bool flag = s >= NV_SIG_DOM_FLAG(7);
    unsigned xid = flag ? NV_SIG_DOM_FLAG(0) - s : NV_SIG_DOM_EVENT(0) - s;
    const Ref *x = &y->sys->dom[xid];
    uint32_t ctrl = c < (int64_t)y->ctrl_since ? y->ctrl_before : y->ctrl;
    bool pulse = ctrl & (flag ? 1u << 13 : 1u << 11);
    int64_t k = ref_k(x, y, c);

    if (x == y) {
        return ref_trailer_own(y, flag, c);
    }
    if (!x->hz) {
        return false;
    }
    if (!pulse) {
        return ref_trailer_own(x, flag, k);
    }
    for (int64_t j = MAX(ref_k(x, y, c - 1) + 1, 0); j <= k; j++) {
        if (ref_trailer_own(x, flag, j) && !ref_trailer_own(x, flag, j - 1)) {
            return true;
        }
    }
    return false;
}

/* Whether @c is one of the cycles in @a. */
static bool ref_in(const GArray *a, int64_t c)
{
    for (unsigned i = 0; a && i < a->len; i++) {
        if (g_array_index(a, uint64_t, i) == (uint64_t)c) {
            return true;
        }
    }
    return false;
}

static bool ref_sig(const Ref *r, unsigned s, int64_t c)
{
    unsigned per;

    if (c < 0) {
        return false;
    }
    if (s == NV_SIG_ONE) {
        return true;
    }
    if (s && s == r->ptimer_sig) {
        /* The cycle being evaluated: TIME now; earlier: as recorded. */
        return c == (int64_t)r->c ? (r->ptime >> 12) & 1
                                  : ref_hist(r->ptimer_out, c);
    }
    if (r->user_sig && s - r->user_sig < 2) {
        /*
         * The seed: the last write sets USER_n to bit n; a pulse-mode bit
         * (n + 2) resets it to 0 on the next cycle.  Before any: 0.
         */
        for (unsigned i = r->user->len; i-- > 0;) {
            const RefUser *u = &g_array_index(r->user, RefUser, i);
            unsigned n = s - r->user_sig;

            if (u->c <= (uint64_t)c) {
                return (u->val >> n) & 1 &&
                       (u->c == (uint64_t)c || !((u->val >> (n + 2)) & 1));
            }
        }
        return false;
    }
    if (s == NV_SIG_PM_TRIGGER || s == NV_SIG_WRCACHE_FLUSH) {
        return ref_in(r->pulse[s == NV_SIG_WRCACHE_FLUSH], c);
    }
    if (s >= NV_SIG_SYNTH(0) && s < NV_SIG_SYNTH(NV_SIG_SYNTH_COUNT)) {
        const RefSynth *y = &r->synth[s - NV_SIG_SYNTH(0)];
        uint64_t p = 1ull << y->log2;

        return (uint64_t)(c + y->phase) % p < y->high;
    }
    if (s == NV_SIG_PERIODIC) {
        per = (r->ctrl >> 21) & 7;
        /* one clock of 1 every 0x200 << per clocks, on the last clock */
        return per && (uint64_t)c % (0x200u << per) == (0x200u << per) - 1;
    }
    if (s >= NV_SIG_DOM_EVENT(7) && r->sys) {
        return ref_trailer(r, s, c);
    }
    return false;   /* ZERO and everything not modelled */
}

static unsigned ref_srcsig(const Ref *r, unsigned reg, unsigned i)
{
    return (r->src[reg] >> (8 * i)) & 0xff;
}

/* The seed's steps 1-8 of "the input calculation", for input @k. */
static bool ref_input(const Ref *r, unsigned k, int64_t c, bool setflag)
{
    /* SRC[0..3] as (register, index) */
    static const unsigned srcsel[6][4][2] = {
        { {0, 0}, {0, 1}, {0, 2}, {0, 3} },
        { {1, 0}, {1, 1}, {1, 2}, {1, 3} },
        { {2, 0}, {2, 1}, {2, 2}, {2, 3} },
        { {3, 0}, {3, 1}, {3, 2}, {3, 3} },
        { {1, 2}, {1, 3}, {0, 0}, {0, 1} },     /* SETFLAG */
        { {0, 2}, {0, 3}, {1, 0}, {1, 1} },     /* CLRFLAG */
    };
    uint32_t op = r->op[k];
    bool src[4], srcp[4], arg[4];
    bool ev_stop = k == 2 || k == 3;
    unsigned idx = 0;

    for (unsigned i = 0; i < 4; i++) {
        unsigned s = ref_srcsig(r, srcsel[k][i][0], srcsel[k][i][1]);

        src[i] = ref_sig(r, s, c);
        srcp[i] = ref_sig(r, s, c - 1);
        arg[i] = src[i];
    }
    if (op & (1u << 16)) {
        arg[0] = srcp[0];
    }
    if (op & (1u << 17)) {
        arg[1] = srcp[1];
    }
    if (r->g92) {
        if (op & (1u << (ev_stop ? 19 : 18))) {
            arg[2] = srcp[0];
        }
        if (op & (1u << (ev_stop ? 20 : 19))) {
            arg[3] = srcp[1];
        }
    }
    if (ev_stop && (op & (1u << 18))) {
        arg[3] = setflag;
    }
    for (unsigned i = 0; i < 4; i++) {
        idx |= arg[i] << i;
    }
    return (op >> idx) & 1;
}

typedef struct RefIn {
    bool pre, start, event, stop, set, clr, swap;
    unsigned srcbits;
} RefIn;

static RefIn ref_inputs(const Ref *r, int64_t c)
{
    RefIn in;

    in.set = ref_input(r, 4, c, false);
    in.clr = ref_input(r, 5, c, false);
    in.pre = ref_input(r, 0, c, in.set);
    in.start = ref_input(r, 1, c, in.set);
    in.event = ref_input(r, 2, c, in.set);
    in.stop = ref_input(r, 3, c, in.set);
    in.swap = ref_sig(r, r->spec & 0xff, c);
    in.srcbits = 0;
    for (unsigned i = 0; i < 16; i++) {
        in.srcbits |= (unsigned)ref_sig(r, ref_srcsig(r, i / 4, i % 4), c)
                      << i;
    }
    return in;
}

static void sat_add(uint64_t *v, uint64_t a)
{
    *v = MIN(*v + a, 0xffffffffull);
}

static void ref_record_packet(Ref *r, FakeHost *fh)
{
    uint8_t p[32];
    unsigned size = (r->ctrl & (1u << 20)) ? 16 : 32;
    uint16_t words[16];

    words[0] = r->rcyc;
    words[1] = r->rcyc >> 16;
    words[2] = r->rcyc >> 32;
    words[3] = r->rstop;
    for (unsigned i = 0; i < 12; i++) {
        words[4 + i] = r->rev[i];
    }
    for (unsigned i = 0; i < 16; i++) {
        p[2 * i] = words[i];
        p[2 * i + 1] = words[i] >> 8;
    }
    if (r->valid) {
        if (r->pos + size > FAKE_RAM_SIZE) {
            r->fault = true;
            return;
        }
        memcpy(r->mem + r->pos, p, size);
        if (r->pos >= r->rec_limit) {
            r->valid = false;
        }
        r->pos += size;
    }
    memset(r->rev, 0, sizeof(r->rev));
    r->rstop = 0;
}

static void ref_cycle(Ref *r, FakeHost *fh)
{
    unsigned mode = r->ctrl & 3;
    unsigned cm = (r->ctrl >> 4) & 7;
    int64_t c = r->c;
    RefIn in = ref_inputs(r, c);
    unsigned b4 = (in.srcbits >> 4) & 0xf;
    unsigned b6 = b4 | ((in.srcbits >> 10) & 3) << 4;
    unsigned b2 = (in.srcbits >> 8) & 3;
    uint64_t ev_inc, st_inc, xpre_inc;
    bool frozen = false;
    uint8_t hist[2];

    ev_inc = cm == 1 ? (in.event ? b4 : 0) :
             cm == 2 ? (in.event ? b6 : 0) :
             cm == 4 ? b2 : in.event;
    st_inc = cm == 3 ? b4 : cm == 4 ? b6 : in.start;
    xpre_inc = cm == 3 ? b4 : cm == 4 ? b6 : 0;

    if (mode == 1) {
        if (in.swap) {
            memcpy(r->ctr, r->shadow, sizeof(r->ctr));
            memset(r->shadow, 0, sizeof(r->shadow));
            r->qstate = r->qstate == 0 ? 1 : 3;
        }
        sat_add(&r->shadow[0], 1);
        sat_add(&r->shadow[1], ev_inc);
        sat_add(&r->shadow[2], st_inc);
        sat_add(&r->shadow[3], in.pre);
        sat_add(&r->shadow[4], in.stop);
    } else if (mode == 0) {
        switch (r->sstate) {
        case 0:
            frozen = true;
            break;
        case 1:
            if (in.pre) {
                if (r->ctr[3]) {
                    r->ctr[3]--;
                } else {
                    r->sstate = 2;
                }
            }
            break;
        case 2:
            if (in.start) {
                r->ctr[0] = 0;
                if (!(r->ctrl & (1u << 8))) {
                    r->ctr[1] = 0;
                }
                r->sstate = 3;
            }
            break;
        case 3:
            sat_add(&r->ctr[1], ev_inc);
            sat_add(&r->ctr[3], xpre_inc);
            sat_add(&r->ctr[0], 1);
            if (in.stop) {
                if (r->ctr[1] >= r->threshold) {
                    sat_add(&r->ctr[2], 1);
                }
                if (r->ctr[4]) {
                    r->ctr[4]--;
                    r->sstate = 2;
                } else {
                    r->sstate = 0;
                }
            }
            break;
        }
    } else if (mode == 2 && !r->fault) {
        bool want = false;

        r->rcyc = (r->rcyc + 1) & ((1ull << 48) - 1);
        for (unsigned i = 0; i < 12; i++) {
            if ((in.srcbits >> i) & 1) {
                r->rev[i] = MIN(r->rev[i] + 1, 0xffffu);
            }
            want |= r->rev[i] >= 0xf000;
        }
        if (in.stop) {
            r->rstop = MIN(r->rstop + 1, 0xfffu);
        }
        want |= r->rstop != 0;
        if (want && (uint64_t)c >= r->busy_until) {
            ref_record_packet(r, fh);
            r->busy_until = c + 1 + r->wcycles;
        }
    }
    r->flag_hist[1] = r->flag_hist[0];
    if (!frozen && mode != 3) {
        if (in.set) {
            r->flag = true;
        }
        if (in.clr) {
            r->flag = false;
        }
    }
    r->flag_hist[0] = r->flag;
    hist[0] = in.event;
    hist[1] = r->flag;
    g_byte_array_append(r->ev_out, &hist[0], 1);
    g_byte_array_append(r->flag_out, &hist[1], 1);
    hist[0] = (r->ptime >> 12) & 1;
    g_byte_array_append(r->ptimer_out, &hist[0], 1);
    /* One cycle of the domain: 27 MHz / hz crystal ticks of num/den. */
    if (r->sys && r->sys->pt.den) {
        uint64_t q = r->hz * r->sys->pt.den;

        r->pfrac += 27000000ull * r->sys->pt.num;
        r->ptime += r->pfrac / q;
        r->pfrac %= q;
    }
    r->c++;
}

/* Whether cycle r->c starts before n->c: r->c / r->hz < n->c / n->hz. */
static bool ref_before(const Ref *r, const Ref *n)
{
    uint64_t rh, rl, nh, nl;

    gpu_mul64(r->c, n->hz, &rh, &rl);
    gpu_mul64(n->c, r->hz, &nh, &nl);
    return rh < nh || (rh == nh && rl < nl);
}

/*
 * Every evaluated domain up to @ns, one cycle at a time in the order the
 * cycles start (a cycle only needs others' cycles that ended before).
 */
static void ref_run_to(RefSys *sys, uint64_t ns, FakeHost *fh)
{
    for (;;) {
        Ref *next = NULL;

        for (unsigned i = 0; i < NV_PCOUNTER_DOMAINS; i++) {
            Ref *r = &sys->dom[i];

            if (!r->hz || r->c >= gpu_muldiv64(ns, r->hz, 1000000000)) {
                continue;
            }
            if (!next || ref_before(r, next)) {
                next = r;
            }
        }
        if (!next) {
            return;
        }
        ref_cycle(next, fh);
    }
}

/* PTIMER's TIME at @ns, from its register definition. */
static uint64_t ref_ptimer_time(const RefSys *sys, uint64_t ns)
{
    const RefPtimer *pt = &sys->pt;

    if (!pt->den) {
        return pt->time;
    }
    return pt->time + gpu_muldiv64(ns - pt->ns, 27000000ull * pt->num,
                                   1000000000ull * pt->den);
}

/*
 * A PTIMER write at @ns (domains evaluated up to it): TIME becomes @time
 * and the ratio @num/@den; each domain samples them from its next cycle.
 */
static void ref_ptimer_set(RefSys *sys, uint64_t ns, uint64_t time,
                           uint32_t num, uint32_t den)
{
    sys->pt = (RefPtimer) { .ns = ns, .time = time, .num = num, .den = den };
    for (unsigned i = 0; i < NV_PCOUNTER_DOMAINS; i++) {
        sys->dom[i].ptime = time;
        sys->dom[i].pfrac = 0;
    }
}

/* A PGRAPH pulse (@k 0: PM_TRIGGER, 1: WRCACHE_FLUSH) in cycle r->c. */
static void ref_pulse(RefSys *sys, unsigned k)
{
    for (unsigned i = 0; i < NV_PCOUNTER_DOMAINS; i++) {
        Ref *r = &sys->dom[i];

        if (r->hz) {
            g_array_append_val(r->pulse[k], r->c);
        }
    }
}

/* A PRE_OP write before cycle r->c: start single mode, swap quad mode. */
static void ref_preop(Ref *r)
{
    if ((r->ctrl & 3) == 0 && r->sstate == 0) {
        r->ctr[1] = r->ctr[2] = r->ctr[0] = 0;
        r->ctr[3] = r->pre_init;
        r->ctr[4] = r->stop_init;
        r->flag = r->flag_hist[0] = false;
        if (r->c) {
            /* FLAG after cycle c - 1, as the seed's INACTIVE case has it */
            r->flag_out->data[r->c - 1] = 0;
        }
        r->sstate = 1;
    } else if ((r->ctrl & 3) == 1) {
        memcpy(r->ctr, r->shadow, sizeof(r->ctr));
        memset(r->shadow, 0, sizeof(r->shadow));
        r->qstate = r->qstate == 0 ? 1 : 3;
    }
}

/* ==== random configurations against the reference ==== */

static const uint8_t sig_pool[] = {
    ZERO, ONE, SYN(0), SYN(1), SYN(2), SYN(3), SYN(4), PER,
    TB12_G84, TB12_G92, TB12_GT215, NV_SIG_PM_TRIGGER, NV_SIG_WRCACHE_FLUSH,
};

/* The signals a random configuration picks from. */
typedef struct Pool {
    uint8_t sig[G_N_ELEMENTS(sig_pool) + 8 + 6];
    unsigned n;
} Pool;

static unsigned rnd_sig(GRand *g, const Pool *p)
{
    return p->sig[g_rand_int_range(g, 0, p->n)];
}

static uint32_t rnd_src(GRand *g, const Pool *p)
{
    return SRC4(rnd_sig(g, p), rnd_sig(g, p), rnd_sig(g, p), rnd_sig(g, p));
}

/* The trailer EVENT/FLAG signals domain @r selects (bit s - 0xf0). */
static unsigned ref_trailer_sel(const Ref *r)
{
    unsigned sel = 0;

    for (unsigned i = 0; i < 17; i++) {
        unsigned s = i < 16 ? ref_srcsig(r, i / 4, i % 4) : r->spec & 0xff;

        if (s >= NV_SIG_DOM_EVENT(7)) {
            sel |= 1u << (s - NV_SIG_DOM_EVENT(7));
        }
    }
    return sel;
}

static void compare(Fixture *f, Ref *r, const char *what)
{
    unsigned dom = r->id;
    unsigned mode = r->ctrl & 3;
    uint32_t ctrl = rd(f, NV40_PC_CTRL(dom));
    uint32_t sig7 = rd(f, NV40_PC_SIG_STATUS(dom, 7));
    RefIn in = ref_inputs(r, r->c);
    unsigned sel = ref_trailer_sel(r);

    g_assert_cmpuint(r->c, ==,
                     gpu_muldiv64(f->fh->now_ns, r->hz, 1000000000));
    if (mode != 2) {
        g_assert_cmphex(rd(f, NV40_PC_CTR_CYCLES(dom)), ==, r->ctr[0]);
        g_assert_cmphex(rd(f, NV40_PC_CTR_CYCLES_ALT(dom)), ==, r->ctr[0]);
        g_assert_cmphex(rd(f, NV40_PC_CTR_EVENT(dom)), ==, r->ctr[1]);
        g_assert_cmphex(rd(f, NV40_PC_CTR_START(dom)), ==, r->ctr[2]);
        g_assert_cmphex(rd(f, NV40_PC_CTR_PRE(dom)), ==, r->ctr[3]);
        g_assert_cmphex(rd(f, NV40_PC_CTR_STOP(dom)), ==, r->ctr[4]);
        g_assert_cmpuint((ctrl >> 24) & 3, ==, mode == 1 ? r->qstate : 0);
        g_assert_cmpuint((ctrl >> 28) & 3, ==, r->sstate);
    } else {
        g_assert_cmphex(rd(f, NV40_PC_RECORD_STATUS(dom)), ==,
                        r->pos | r->fault);
        g_assert_cmpmem(f->fh->ram + r->rec_start, 0x4000,
                        r->mem + r->rec_start, 0x4000);
    }
    g_assert_cmphex(rd(f, NV40_PC_SRC_STATUS(dom)), ==, in.srcbits);
    /* TIME_B12 in the host domain, nothing elsewhere. */
    for (unsigned s = TB12_G84; s <= TB12_G92; s += TB12_G92 - TB12_G84) {
        g_assert_cmpuint(rd(f, NV40_PC_SIG_STATUS(dom, 1)) >> (s - 32) & 1,
                         ==, ref_sig(r, s, r->c));
    }
    /* GT215: the USER signals as the inputs see them this cycle. */
    for (unsigned s = r->user_sig; r->user_sig && s < r->user_sig + 2; s++) {
        g_assert_cmpuint(rd(f, NV40_PC_SIG_STATUS(dom, s / 32)) >>
                         (s % 32) & 1, ==, ref_sig(r, s, r->c));
    }
    /* The own FLAG signal shows the FLAG two cycles late. */
    g_assert_cmpuint((sig7 >> (0x1f - dom)) & 1, ==, r->flag_hist[1]);
    /* Selected trailer signals (and the own ones) as the inputs see them. */
    sel |= 1u << (NV_SIG_DOM_EVENT(dom) - NV_SIG_DOM_EVENT(7));
    sel |= 1u << (NV_SIG_DOM_FLAG(dom) - NV_SIG_DOM_EVENT(7));
    for (unsigned b = 0; b < 16; b++) {
        if (sel & (1u << b)) {
            g_assert_cmpuint((sig7 >> (16 + b)) & 1, ==,
                             ref_sig(r, NV_SIG_DOM_EVENT(7) + b, r->c));
        }
    }
}

static void ref_apply(Fixture *f, Ref *r);

static void ref_free(Ref *r)
{
    g_free(r->mem);
    g_byte_array_free(r->ev_out, true);
    g_byte_array_free(r->flag_out, true);
    g_byte_array_free(r->ptimer_out, true);
    for (unsigned k = 0; k < 2; k++) {
        g_array_free(r->pulse[k], true);
    }
    g_array_free(r->user, true);
}

/* A random configuration of domain @r, written to the model. */
static void ref_setup_random(GRand *g, Fixture *f, Ref *r, unsigned mode,
                             const Pool *pool)
{
    unsigned dom = r->id;

    for (unsigned n = 0; n < 5; n++) {
        RefSynth *y = &r->synth[n];

        y->log2 = g_rand_int_range(g, 0, 13);
        y->high = g_rand_int_range(g, 0, (1 << y->log2) + 1);
        y->phase = g_rand_int_range(g, 0, 1 << y->log2);
        g_assert_true(nv_pcounter_set_synth(f->gpu, dom, n, y->log2, y->high,
                                            y->phase));
    }
    for (unsigned i = 0; i < 4; i++) {
        r->src[i] = rnd_src(g, pool);
    }
    for (unsigned k = 0; k < 6; k++) {
        uint32_t mask = r->g92 ? 0x1fffff : 0x7ffff;

        r->op[k] = g_rand_int(g) & mask;
    }
    r->spec = rnd_sig(g, pool);
    r->ctrl = mode | g_rand_int_range(g, 0, 5) << 4 |
              (g_rand_boolean(g) ? 1u << 8 : 0) |
              (g_rand_boolean(g) ? NV_PC_CTRL_EVENT_IMPORT_PULSE : 0) |
              (g_rand_boolean(g) ? NV_PC_CTRL_FLAG_IMPORT_PULSE : 0) |
              (g_rand_boolean(g) ? 1u << 20 : 0) |
              g_rand_int_range(g, 0, 3) << 21;
    r->threshold = g_rand_int_range(g, 0, 300);
    r->pre_init = g_rand_int_range(g, 0, 4);
    r->stop_init = g_rand_int_range(g, 0, 20);
    r->rec_start = 0x10000 + dom * 0x8000;
    r->rec_limit = r->rec_start + g_rand_int_range(g, 0, 0x100) * 16;
    ref_apply(f, r);
}

/* Write @r's configuration to the model; the PRE_OP write starts it. */
static void ref_apply(Fixture *f, Ref *r)
{
    unsigned dom = r->id;

    r->mem = g_malloc0(FAKE_RAM_SIZE);
    r->ev_out = g_byte_array_new();
    r->flag_out = g_byte_array_new();
    r->ptimer_out = g_byte_array_new();
    for (unsigned k = 0; k < 2; k++) {
        r->pulse[k] = g_array_new(false, false, sizeof(uint64_t));
    }
    r->user = g_array_new(false, false, sizeof(RefUser));

    wr(f, NV40_PC_CTRL(dom), r->ctrl);
    wr(f, NV40_PC_PRE_SRC(dom), r->src[0]);
    wr(f, NV40_PC_START_SRC(dom), r->src[1]);
    wr(f, NV40_PC_EVENT_SRC(dom), r->src[2]);
    wr(f, NV40_PC_STOP_SRC(dom), r->src[3]);
    wr(f, NV40_PC_START_OP(dom), r->op[1]);
    wr(f, NV40_PC_EVENT_OP(dom), r->op[2]);
    wr(f, NV40_PC_STOP_OP(dom), r->op[3]);
    wr(f, NV40_PC_SETFLAG_OP(dom), r->op[4]);
    wr(f, NV40_PC_CLRFLAG_OP(dom), r->op[5]);
    wr(f, NV40_PC_SPEC_SRC(dom), r->spec);
    wr(f, NV40_PC_THRESHOLD(dom), r->threshold);
    wr(f, NV40_PC_CTR_PRE(dom), r->pre_init);
    wr(f, NV40_PC_CTR_STOP(dom), r->stop_init);
    wr(f, NV40_PC_RECORD_LIMIT(dom), r->rec_limit);
    wr(f, NV40_PC_RECORD_START(dom), r->rec_start);
    r->pos = r->rec_start;
    r->valid = true;
    wr(f, NV40_PC_PRE_OP(dom), r->op[0]);
    ref_preop(r);
}

/*
 * Mid-run: other import modes and another EVENT logic operation (the
 * selection unchanged, so exact); the CTRL write aborts single mode.
 */
static void ref_rewrite_random(GRand *g, Fixture *f, Ref *r)
{
    if (r->ctrl_since != r->c) {
        r->ctrl_before = r->ctrl;
        r->ctrl_since = r->c;
    }
    r->ctrl ^= (g_rand_boolean(g) ? NV_PC_CTRL_EVENT_IMPORT_PULSE : 0) |
               (g_rand_boolean(g) ? NV_PC_CTRL_FLAG_IMPORT_PULSE : 0);
    r->op[2] = g_rand_int(g) & (r->g92 ? 0x1fffff : 0x7ffff);
    wr(f, NV40_PC_CTRL(r->id), r->ctrl);
    wr(f, NV40_PC_EVENT_OP(r->id), r->op[2]);
    if ((r->ctrl & 3) == NV_PC_MODE_SINGLE) {
        r->sstate = NV_PC_SINGLE_INACTIVE;
    }
}

/* USER_TRIGGER writes (GT215) to some evaluated domains, in cycle r->c. */
static void ref_user_writes(GRand *g, Fixture *f, RefSys *sys)
{
    for (unsigned i = 0; i < NV_PCOUNTER_DOMAINS; i++) {
        Ref *r = &sys->dom[i];
        /* sometimes two in the same cycle: the second one counts */
        unsigned n = r->hz && r->user_sig ? g_rand_int_range(g, 0, 3) : 0;

        for (unsigned k = 0; k < n; k++) {
            RefUser u = { .c = r->c, .val = g_rand_int_range(g, 0, 16) };

            wr(f, NV40_PC_USER_TRIGGER(i), u.val);
            g_array_append_val(r->user, u);
        }
    }
}

/*
 * Between steps: a PGRAPH pulse, USER_TRIGGER writes, or PTIMER's TIME
 * or ratio written (sometimes a zero or a far faster ratio).
 */
static void ref_random_event(GRand *g, Fixture *f, RefSys *sys)
{
    uint64_t now = f->fh->now_ns, t;
    uint32_t num = sys->pt.num, den = sys->pt.den;

    switch (g_rand_int_range(g, 0, 8)) {
    case 0:
        wr(f, NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
        ref_pulse(sys, 0);
        return;
    case 5:
    case 6:
        ref_user_writes(g, f, sys);
        return;
    case 1:
        wr(f, NV_FLUSH, NV_FLUSH_TRIGGER);
        ref_pulse(sys, 1);
        return;
    case 2:
        t = (uint64_t)g_rand_int(g) << 32 | g_rand_int(g);
        wr(f, NV_PTIMER_TIME_HIGH, t >> 32);
        wr(f, NV_PTIMER_TIME_LOW, t);
        ref_ptimer_set(sys, now, t, num, den);
        return;
    case 3:
        num = g_rand_int_range(g, 0, 8) ? g_rand_int_range(g, 1, 0x10000) : 0;
        wr(f, NV_PTIMER_NUMERATOR, num);
        break;
    case 4:
        den = g_rand_int_range(g, 0, 8) ?
              g_rand_int_range(g, 1, 2u << g_rand_int_range(g, 0, 12)) : 0;
        wr(f, NV_PTIMER_DENOMINATOR, den);
        break;
    default:
        return;
    }
    ref_ptimer_set(sys, now, ref_ptimer_time(sys, now), num, den);
}

static const uint64_t rnd_hz[] = {
    1000000000, 1000000000, 500000000, 1200000000, 400000000, 333333333,
    2700000000ull,
};

/*
 * @ndom random domains, each in @mode (or a random mode if @mode > 2),
 * against the reference.  With @ndom > 1 the domains run at random clocks
 * and their inputs include their own and each other's EVENT/FLAG.
 */
static void random_run(GRand *g, unsigned mode, const char *chipset,
                       unsigned ndom)
{
    Fixture f;
    RefSys sys = { 0 };
    Pool pool = { .n = G_N_ELEMENTS(sig_pool) };
    uint64_t hz[NV_PCOUNTER_DOMAINS];
    unsigned ids[NV_PCOUNTER_DOMAINS];
    uint32_t wcycles = g_rand_int_range(g, 0, 3) ? 0 :
                       g_rand_int_range(g, 0, 300);
    bool gt215 = !strcmp(chipset, "gt215");

    memcpy(pool.sig, sig_pool, sizeof(sig_pool));
    for (unsigned i = 0; i < NV_PCOUNTER_DOMAINS; i++) {
        unsigned j = g_rand_int_range(g, 0, i + 1);

        /* a random permutation: the first @ndom are the domains used */
        ids[i] = ids[j];
        ids[j] = i;
        hz[i] = ndom > 1 ? rnd_hz[g_rand_int_range(g, 0,
                                                    G_N_ELEMENTS(rnd_hz))]
                         : 1000000000;
    }
    /*
     * The host domain at its default 100 MHz or slower too: PTIMER then
     * moves up to 0x10000 units per cycle, TIME_B12 aliased.
     */
    hz[0] = (uint64_t[]) { hz[0], 100000000, 27000000, 7000000 }
            [g_rand_int_range(g, 0, 4)];
    /* The host domain, the one with TIME_B12, in half the runs. */
    for (unsigned i = 0, first = g_rand_boolean(g); first && i < 8; i++) {
        if (ids[i] == 0) {
            ids[i] = ids[0];
            ids[0] = 0;
        }
    }
    for (unsigned i = 0; i < ndom && ndom > 1; i++) {
        pool.sig[pool.n++] = NV_SIG_DOM_EVENT(ids[i]);
        pool.sig[pool.n++] = NV_SIG_DOM_FLAG(ids[i]);
    }
    /* Each domain's USER signals (another's position: what is there). */
    for (unsigned i = 0; i < ndom && gt215; i++) {
        pool.sig[pool.n++] = gt215_user_sig[ids[i]];
        pool.sig[pool.n++] = gt215_user_sig[ids[i]] + 1;
    }
    fixture_open_hz(&f, chipset, wcycles, hz);
    ref_ptimer_set(&sys, 0, 0, 1000, 27);
    for (unsigned i = 0; i < ndom; i++) {
        Ref *r = &sys.dom[ids[i]];

        r->sys = &sys;
        r->ptimer_sig = ids[i] ? 0 : gt215 ? TB12_GT215 :
                        !strcmp(chipset, "g92") ? TB12_G92 : TB12_G84;
        r->id = ids[i];
        r->hz = hz[ids[i]];
        r->g92 = chip_g92(chipset);
        r->user_sig = gt215 ? gt215_user_sig[ids[i]] : 0;
        r->wcycles = wcycles;
        ref_setup_random(g, &f, r, mode <= 2 ? mode :
                         (unsigned)g_rand_int_range(g, 0, 3), &pool);
    }

    for (unsigned i = 0; i < 12; i++) {
        uint64_t ns = g_rand_boolean(g) ? g_rand_int_range(g, 0, 40) :
                      g_rand_int_range(g, 0, 9000);

        step(&f, ns);
        ref_run_to(&sys, f.fh->now_ns, f.fh);
        for (unsigned j = 0; j < ndom; j++) {
            compare(&f, &sys.dom[ids[j]], "random");
            if (ndom > 1 && i % 4 == 3 && g_rand_boolean(g)) {
                ref_rewrite_random(g, &f, &sys.dom[ids[j]]);
            }
        }
        ref_random_event(g, &f, &sys);
    }
    for (unsigned i = 0; i < ndom; i++) {
        ref_free(&sys.dom[ids[i]]);
    }
    fixture_close(&f);
}

static void test_random_mode(unsigned mode, const char *chipset)
{
    GRand *g = g_rand_new_with_seed(g_test_rand_int());

    for (unsigned i = 0; i < 60; i++) {
        random_run(g, mode, chipset, 1);
    }
    g_rand_free(g);
}

static void test_random_quad(void)
{
    test_random_mode(NV_PC_MODE_QUAD, "g84");
    test_random_mode(NV_PC_MODE_QUAD, "g92");
    test_random_mode(NV_PC_MODE_QUAD, "gt215");
}

static void test_random_single(void)
{
    test_random_mode(NV_PC_MODE_SINGLE, "g84");
    test_random_mode(NV_PC_MODE_SINGLE, "g92");
    test_random_mode(NV_PC_MODE_SINGLE, "gt215");
}

static void test_random_record(void)
{
    test_random_mode(NV_PC_MODE_RECORD, "g84");
    test_random_mode(NV_PC_MODE_RECORD, "g92");
    test_random_mode(NV_PC_MODE_RECORD, "gt215");
}

/* Two or three domains at random clocks, importing from each other. */
static void test_random_coupled(void)
{
    GRand *g = g_rand_new_with_seed(g_test_rand_int());

    for (unsigned i = 0; i < 80; i++) {
        random_run(g, ~0u, (const char *[]) { "g84", "g92", "gt215" }[i % 3],
                   2 + i % 2);
    }
    g_rand_free(g);
}

/*
 * A hostile guest: random writes of every PCOUNTER register, trailer signals
 * selected and deselected at any time, PM_TRIGGER, write flushes, PTIMER
 * writes, synthetic signal changes, at random clocks.  Nothing is compared
 * (a newly selected signal starts at its source's value, see nv-gpu.rst); the
 * model's own checks (queue room, progress of every round) must hold and
 * every sync must end.
 */
static uint32_t hostile_src(GRand *g)
{
    uint32_t v = 0;

    for (unsigned i = 0; i < 4; i++) {
        unsigned s;

        switch (g_rand_int_range(g, 0, 5)) {
        case 0:
        case 1:
            s = g_rand_int_range(g, NV_SIG_DOM_EVENT(7), 0x100);
            break;
        case 2:
            s = SYN(g_rand_int_range(g, 0, 4));
            break;
        case 3:
            s = g_rand_boolean(g) ? TB12_G84 : TB12_G92;
            break;
        default:
            s = g_rand_int_range(g, 0, 0x100);
            break;
        }
        v |= s << (8 * i);
    }
    return v;
}

static void test_random_hostile(void)
{
    static const uint32_t regs[] = {
        NV40_PC_PRE_SRC(0), NV40_PC_START_SRC(0), NV40_PC_EVENT_SRC(0),
        NV40_PC_STOP_SRC(0), NV40_PC_SPEC_SRC(0), NV40_PC_PRE_OP(0),
        NV40_PC_START_OP(0), NV40_PC_EVENT_OP(0), NV40_PC_STOP_OP(0),
        NV40_PC_SETFLAG_OP(0), NV40_PC_CLRFLAG_OP(0), NV40_PC_CTRL(0),
        NV40_PC_THRESHOLD(0), NV40_PC_CTR_PRE(0), NV40_PC_CTR_STOP(0),
        NV40_PC_QUAD_ACK_TRIGGER(0), NV40_PC_RECORD_LIMIT(0),
        NV40_PC_RECORD_START(0),
    };
    static const uint64_t hz[] = {
        1000000, 27000000, 100000000, 400000000, 1000000000, 2700000000ull,
        10000000000ull,
    };
    GRand *g = g_rand_new_with_seed(g_test_rand_int());
    unsigned loops = 0;

    for (unsigned run = 0; run < 6; run++) {
        uint64_t dhz[NV_PCOUNTER_DOMAINS];
        Fixture f;

        for (unsigned d = 0; d < NV_PCOUNTER_DOMAINS; d++) {
            dhz[d] = hz[g_rand_int_range(g, 0, G_N_ELEMENTS(hz))];
        }
        fixture_open_hz(&f, run % 2 ? "g92" : "g84", 0, dhz);
        for (unsigned i = 0; i < 400; i++) {
            unsigned d = g_rand_int_range(g, 0, NV_PCOUNTER_DOMAINS);
            unsigned k = g_rand_int_range(g, 0, G_N_ELEMENTS(regs) + 5);
            uint32_t r = k < G_N_ELEMENTS(regs) ? regs[k] + 4 * d : 0;

            if (r && r <= NV40_PC_SPEC_SRC(0) + 28 && k < 5) {
                wr(&f, r, hostile_src(g));
            } else if (r) {
                wr(&f, r, g_rand_int(g));
            } else if (k == G_N_ELEMENTS(regs)) {
                wr(&f, NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
            } else if (k == G_N_ELEMENTS(regs) + 1) {
                wr(&f, NV40_PC_GCTRL, g_rand_int(g));
            } else if (k == G_N_ELEMENTS(regs) + 2) {
                unsigned l = g_rand_int_range(g, 0, 17);

                nv_pcounter_set_synth(f.gpu, d, g_rand_int_range(g, 0, 8), l,
                                      g_rand_int_range(g, 0, (1 << l) + 1),
                                      g_rand_int(g));
            } else if (k == G_N_ELEMENTS(regs) + 3) {
                wr(&f, NV_FLUSH, g_rand_int(g));
            } else {
                static const uint32_t ptimer_regs[] = {
                    NV_PTIMER_NUMERATOR, NV_PTIMER_DENOMINATOR,
                    NV_PTIMER_TIME_LOW, NV_PTIMER_TIME_HIGH,
                };

                wr(&f, ptimer_regs[g_rand_int_range(g, 0, 4)], g_rand_int(g));
            }
            loops += f.gpu->pc.import_loop;
            step(&f, g_rand_int_range(g, 0, 8) ? g_rand_int_range(g, 0, 50) :
                 g_rand_int_range(g, 0, 10000));
            (void)rd(&f, NV40_PC_SIG_STATUS(d, 7));
            (void)rd(&f, NV40_PC_SRC_STATUS(d));
        }
        fixture_close(&f);
    }
    /* Most steps ran with domains importing from each other. */
    g_assert_cmpuint(loops, >, 6 * 400 / 2);
    g_rand_free(g);
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
 * fuzz-nv-pcounter seed record-packet-every-cycle): each evaluation stays
 * within the budget, and once the lagging domains caught up, the state is
 * that of an evaluation with no budget.
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

static void add(const char *path, void (*fn)(Fixture *, gconstpointer),
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
    add("/nv/pcounter/layout/g84", test_layout, "g84");
    add("/nv/pcounter/layout/g92", test_layout, "g92");
    add("/nv/pcounter/layout/gt215", test_layout, "gt215");
    g_test_add_func("/nv/pcounter/layout/spaces", test_layout_spaces);
    add("/nv/pcounter/quad/simple", test_quad_simple, NULL);
    g_test_add_func("/nv/pcounter/quad/clock-rate", test_quad_clock_rate);
    add("/nv/pcounter/logic/truth-tables", test_truth_tables, NULL);
    add("/nv/pcounter/logic/delay-bits/g84", test_delay_bits, "g84");
    add("/nv/pcounter/logic/delay-bits/g92", test_delay_bits, "g92");
    add("/nv/pcounter/counter-modes", test_counter_modes, NULL);
    add("/nv/pcounter/quad/states", test_quad_states, NULL);
    add("/nv/pcounter/quad/saturation", test_quad_saturation, NULL);
    add("/nv/pcounter/single/states", test_single_states, NULL);
    add("/nv/pcounter/record/packets", test_record_packets, NULL);
    add("/nv/pcounter/record/flush-level", test_record_flush_level, NULL);
    g_test_add_func("/nv/pcounter/record/backpressure",
                    test_record_backpressure);
    add("/nv/pcounter/record/fault", test_record_fault, NULL);
    add("/nv/pcounter/record/timer", test_record_timer, NULL);
    add("/nv/pcounter/trailer/own-event", test_own_event, NULL);
    add("/nv/pcounter/trailer/own-flag", test_own_flag, NULL);
    add("/nv/pcounter/trailer/import-equal-clocks",
        test_import_equal_clocks, NULL);
    g_test_add_func("/nv/pcounter/trailer/import-clock-ratio",
                    test_import_clock_ratio);
    add("/nv/pcounter/trailer/import-loop", test_import_loop, NULL);
    add("/nv/pcounter/trailer/import-handshake", test_import_handshake, NULL);
    add("/nv/pcounter/ptimer-b12/g84", test_ptimer_signal, "g84");
    add("/nv/pcounter/ptimer-b12/g92", test_ptimer_signal, "g92");
    g_test_add_func("/nv/pcounter/ptimer-b12/fast", test_ptimer_signal_fast);
    add("/nv/pcounter/wrcache-flush", test_wrcache_flush, NULL);
    add("/nv/pcounter/user/quad", test_user_quad, "gt215");
    add("/nv/pcounter/user/single", test_user_single, "gt215");
    g_test_add_func("/nv/pcounter/random/quad", test_random_quad);
    g_test_add_func("/nv/pcounter/random/single", test_random_single);
    g_test_add_func("/nv/pcounter/random/record", test_random_record);
    g_test_add_func("/nv/pcounter/random/coupled", test_random_coupled);
    g_test_add_func("/nv/pcounter/random/hostile", test_random_hostile);
    g_test_add_func("/nv/pcounter/budget", test_budget);
    g_test_add_func("/nv/pcounter/budget/packets", test_budget_packets);
    add("/nv/post-load-checks", test_post_load_checks, NULL);
    add("/nv/post-load-checks/user", test_user_post_load, "gt215");
    return g_test_run();
}
