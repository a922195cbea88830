/*
 * nv-gpu PCOUNTER unit tests: quad event mode, the logic operations and
 * counter modes, single event mode (envytools docs/hw/pcounter/intro.rst,
 * "Input selection", "Counters", "Single event mode", "Quad event mode").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nv-pcounter-test.h"

/* ==== quad mode ==== */

void quad_setup(Fixture *f, unsigned d, uint32_t pre, uint32_t start,
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
    wr(f, NV40_PC_CTRL(2),
       GPU_FIELD_DP32(NV_PC_MODE_QUAD, NV40_PC_CTRL, PERIODIC, 1));
    quad_setup(f, 2, SRC4(PER, 0, 0, 0), SRC4(ZERO, 0, 0, 0),
               SRC4(ONE, 0, 0, 0), SRC4(SYN(0), 0, 0, 0), OP_ARG0);
    wr(f, NV40_PC_CTRL(2),
       GPU_FIELD_DP32(NV_PC_MODE_QUAD, NV40_PC_CTRL, PERIODIC, 1));
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
        wr(f, NV40_PC_CTRL(5), GPU_FIELD_DP32(NV_PC_MODE_QUAD, NV40_PC_CTRL,
                                              CTR_MODE, cases[i].mode));
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

unsigned quad_state(Fixture *f, unsigned d)
{
    return GPU_FIELD_EX32(rd(f, NV40_PC_CTRL(d)), NV40_PC_CTRL, QUAD_STATE);
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

unsigned single_state(Fixture *f, unsigned d)
{
    return GPU_FIELD_EX32(rd(f, NV40_PC_CTRL(d)), NV40_PC_CTRL, SINGLE_STATE);
}

static void test_single_states(Fixture *f, gconstpointer data)
{
    /*
     * PRE: PERIODIC (last clock of each 0x400); START: cycles 100 mod 256;
     * STOP: cycles 200 mod 256; EVENT: ONE.
     */
    nv_pcounter_set_synth(f->gpu, 6, 0, 8, 1, 256 - 100);
    nv_pcounter_set_synth(f->gpu, 6, 1, 8, 1, 256 - 200);
    wr(f, NV40_PC_CTRL(6),
       GPU_FIELD_DP32(NV_PC_MODE_SINGLE, NV40_PC_CTRL, PERIODIC, 1));
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
    wr(f, NV40_PC_CTRL(6),
       GPU_FIELD_DP32(NV_PC_MODE_SINGLE, NV40_PC_CTRL, PERIODIC, 1));
    g_assert_cmpuint(single_state(f, 6), ==, NV_PC_SINGLE_INACTIVE);
}

void nv_pcounter_test_add_modes(void)
{
    add("/nv/pcounter/quad/simple", test_quad_simple, NULL);
    g_test_add_func("/nv/pcounter/quad/clock-rate", test_quad_clock_rate);
    add("/nv/pcounter/logic/truth-tables", test_truth_tables, NULL);
    add("/nv/pcounter/logic/delay-bits/g84", test_delay_bits, "g84");
    add("/nv/pcounter/logic/delay-bits/g92", test_delay_bits, "g92");
    add("/nv/pcounter/counter-modes", test_counter_modes, NULL);
    add("/nv/pcounter/quad/states", test_quad_states, NULL);
    add("/nv/pcounter/quad/saturation", test_quad_saturation, NULL);
    add("/nv/pcounter/single/states", test_single_states, NULL);
}
