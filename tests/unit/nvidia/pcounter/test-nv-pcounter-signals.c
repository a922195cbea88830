/*
 * nv-gpu PCOUNTER unit tests: signals from outside PCOUNTER, PTIMER's
 * TIME_B12 (envytools docs/hw/pcounter/tesla.rst, "Host clock"),
 * PGRAPH.WRCACHE_FLUSH and GT215's USER signals (intro.rst, "The
 * PM_TRIGGER and WRCACHE_FLUSH signals", "The USER signals").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nv-pcounter-test.h"

/* ==== PTIMER_TIME_B12 and PGRAPH.WRCACHE_FLUSH ==== */

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
    wr(f, NV_PTIMER_DENOMINATOR, 250);
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

    /* A zero ratio (CLOCK_MUL 0) stops TIME: the signal holds. */
    wr(f, NV_PTIMER_DENOMINATOR, 0);
    step(f, 100000);
    g_assert_cmpuint(swap_read(f, 0, NV40_PC_CTR_PRE(0)), ==, 100000);
    g_assert_cmpuint(rd(f, NV40_PC_CTR_EVENT(0)), ==, 0);
}

/*
 * Faster than 0x1000 TIME units per cycle, bit 12 samples TIME aliased:
 * domain 0 at 1 MHz, internal MUL = DIV = 1, ratio 0xffff/32 (32 units a
 * tick): 27 x 0xffff = 1769445 units per cycle, TIME
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
    wr(&f, NV_PTIMER_CLOCK_SOURCE, 0);
    wr(&f, NV_PTIMER_NUMERATOR, 32);
    wr(&f, NV_PTIMER_DENOMINATOR, 0xffff);
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

void nv_pcounter_test_add_signals(void)
{
    add("/nv/pcounter/ptimer-b12/g84", test_ptimer_signal, "g84");
    add("/nv/pcounter/ptimer-b12/g92", test_ptimer_signal, "g92");
    g_test_add_func("/nv/pcounter/ptimer-b12/fast", test_ptimer_signal_fast);
    add("/nv/pcounter/wrcache-flush", test_wrcache_flush, NULL);
    add("/nv/pcounter/user/quad", test_user_quad, "gt215");
    add("/nv/pcounter/user/single", test_user_single, "gt215");
}
