/*
 * nv-gpu PCOUNTER unit tests: the trailer EVENT/FLAG signals as inputs, a
 * domain's own and imported from others (envytools
 * docs/hw/pcounter/intro.rst, "The EVENT and FLAG signals").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nv-pcounter-test.h"

/* ==== trailer EVENT/FLAG signals as inputs ==== */

/* Quad mode counting @event as CTR_EVENT and @stop as CTR_STOP. */
void count_setup(Fixture *f, unsigned d, unsigned event,
                 unsigned stop, uint32_t ctrl)
{
    quad_setup(f, d, 0, 0, SRC4(event, 0, 0, 0), SRC4(stop, 0, 0, 0),
               OP_ARG0);
    wr(f, NV40_PC_CTRL(d), NV_PC_MODE_QUAD | ctrl);
    wr(f, NV40_PC_PRE_OP(d), OP_ARG0);     /* swap: a clean start */
}

/* Swap (PRE_OP write) and read a counter of the closed period. */
uint32_t swap_read(Fixture *f, unsigned d, uint32_t reg)
{
    wr(f, NV40_PC_PRE_OP(d), rd(f, NV40_PC_PRE_OP(d)));
    return rd(f, reg);
}

/* SRC_STATUS bit @i of domain @d: selected signal i in the current cycle. */
bool src_bit(Fixture *f, unsigned d, unsigned i)
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

/*
 * The own FLAG is the FLAG two cycles late (envytools
 * docs/hw/pcounter/intro.rst, "The flag"); it may feed back.
 */
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
 * Through CONTINUOUS, single-clock pulses are lost in a slower domain
 * and stretched in a faster one (envytools docs/hw/pcounter/intro.rst,
 * "The EVENT and FLAG signals"); PULSE makes each 0-to-1 change
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

void nv_pcounter_test_add_coupling(void)
{
    add("/nv/pcounter/trailer/own-event", test_own_event, NULL);
    add("/nv/pcounter/trailer/own-flag", test_own_flag, NULL);
    add("/nv/pcounter/trailer/import-equal-clocks",
        test_import_equal_clocks, NULL);
    g_test_add_func("/nv/pcounter/trailer/import-clock-ratio",
                    test_import_clock_ratio);
    add("/nv/pcounter/trailer/import-loop", test_import_loop, NULL);
    add("/nv/pcounter/trailer/import-handshake", test_import_handshake, NULL);
}
