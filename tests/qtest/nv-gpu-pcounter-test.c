/*
 * qtest for nv-gpu: PCOUNTER: quad, single and record modes, triggers,
 * the record-fault drill, hostile limits and migration.
 *
 * Expected counter values follow from the modes as envytools describes
 * them (docs/hw/pcounter/intro.rst, nv40.rst) and docs/nv-gpu.rst, and
 * from the synthetic signals each test configures, not from running the
 * model.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "nv-gpu-qtest.h"

#define SRC4(a, b, c, d) ((a) | (b) << 8 | (c) << 16 | (uint32_t)(d) << 24)
#define ONE         NV_SIG_ONE
#define SYN(n)      NV_SIG_SYNTH(n)
#define OP_ARG0     0xaaaau     /* output = argument 0 */
#define OP_TRUE     0xffffu

/*
 * Virtual time, after a 1 ns step (qtest has no plain clock read).  The
 * device was reset at 0, so this is also the cycle of a 1 GHz domain.
 */
static uint64_t now_ns(Gpu *g)
{
    return qtest_clock_step(g->qts, 1);
}

/*
 * Phase that makes a signal of period @per rise @off cycles after cycle
 * @c0: the synthetic signal is 1 while (c + phase) mod per < high.
 */
static unsigned phase_for(uint64_t c0, uint64_t off, unsigned per)
{
    return (per - (c0 + off) % per) % per;
}

static unsigned quad_state(Gpu *g, unsigned dom)
{
    return GPU_FIELD_EX32(rd(g, NV40_PC_CTRL(dom)), NV40_PC_CTRL, QUAD_STATE);
}

static unsigned single_state(Gpu *g, unsigned dom)
{
    return GPU_FIELD_EX32(rd(g, NV40_PC_CTRL(dom)), NV40_PC_CTRL,
                          SINGLE_STATE);
}

/*
 * PGRAPH.PM_TRIGGER pulses SWAP in the current cycle of every domain; the
 * swap happens before that cycle's counting, so it shows once that cycle
 * has run: the test steps 1 ns (a cycle at 1 GHz) after each pulse.
 */
static void pm_trigger(Gpu *g)
{
    wr(g, NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
    gpu_step(g, 1);
}

/*
 * Quad mode, as nouveau's nv40 perfmon uses it: counters of the selected
 * inputs, swapped into the visible set by PGRAPH.PM_TRIGGER.
 *   EVENT = synthetic 1 (4 of every 16 cycles), START = constant 1,
 *   PRE = op "true", STOP = op "false".
 */
static void quad_setup(Gpu *g, unsigned dom)
{
    wr(g, NV40_PC_PRE_SRC(dom), 0);
    wr(g, NV40_PC_PRE_OP(dom), OP_TRUE);
    wr(g, NV40_PC_START_SRC(dom), SRC4(ONE, 0, 0, 0));
    wr(g, NV40_PC_START_OP(dom), OP_ARG0);
    wr(g, NV40_PC_EVENT_SRC(dom), SRC4(SYN(1), 0, 0, 0));
    wr(g, NV40_PC_EVENT_OP(dom), OP_ARG0);
    wr(g, NV40_PC_STOP_SRC(dom), 0);
    wr(g, NV40_PC_STOP_OP(dom), 0);
    wr(g, NV40_PC_CTRL(dom), NV_PC_MODE_QUAD);
}

static void check_quad(Gpu *g, unsigned dom, uint32_t cycles)
{
    g_assert_cmpuint(rd(g, NV40_PC_CTR_CYCLES(dom)), ==, cycles);
    g_assert_cmpuint(rd(g, NV40_PC_CTR_CYCLES_ALT(dom)), ==, cycles);
    g_assert_cmpuint(rd(g, NV40_PC_CTR_EVENT(dom)), ==, cycles / 4);
    g_assert_cmpuint(rd(g, NV40_PC_CTR_START(dom)), ==, cycles);
    g_assert_cmpuint(rd(g, NV40_PC_CTR_PRE(dom)), ==, cycles);
    g_assert_cmpuint(rd(g, NV40_PC_CTR_STOP(dom)), ==, 0);
}

static void test_quad(void)
{
    Gpu g;

    gpu_start_args(&g, ",synth=*.1=16/4");
    quad_setup(&g, 0);
    quad_setup(&g, 3);
    g_assert_cmpuint(quad_state(&g, 0), ==, NV_PC_QUAD_EMPTY);

    /* First swap at c0: counts since setup become visible; ack them. */
    pm_trigger(&g);
    g_assert_cmpuint(quad_state(&g, 0), ==, NV_PC_QUAD_VALID);
    wr(&g, NV40_PC_QUAD_ACK_TRIGGER(0), 1);
    wr(&g, NV40_PC_QUAD_ACK_TRIGGER(3), 1);
    g_assert_cmpuint(quad_state(&g, 0), ==, NV_PC_QUAD_EMPTY);

    /*
     * Next swap at c0 + 1600 ns: 1600 cycles in domain 0 (1 GHz), 1920 in
     * domain 3 (its default 1.2 GHz).  Nothing visible changes before.
     */
    gpu_step(&g, 1599);
    g_assert_cmpuint(quad_state(&g, 0), ==, NV_PC_QUAD_EMPTY);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_CYCLES(0)), ==, 0);
    pm_trigger(&g);
    g_assert_cmpuint(quad_state(&g, 0), ==, NV_PC_QUAD_VALID);
    g_assert_cmpuint(quad_state(&g, 3), ==, NV_PC_QUAD_VALID);
    check_quad(&g, 0, 1600);
    check_quad(&g, 3, 1920);

    /*
     * A second swap before the acknowledge, at c0 + 2400: OVERFLOW.  On
     * G84 a PRE_OP write swaps too, taking effect at once.
     */
    gpu_step(&g, 799);
    wr(&g, NV40_PC_PRE_OP(0), OP_TRUE);
    g_assert_cmpuint(quad_state(&g, 0), ==, NV_PC_QUAD_OVERFLOW);
    check_quad(&g, 0, 800);
    wr(&g, NV40_PC_QUAD_ACK_TRIGGER(0), 1);
    g_assert_cmpuint(quad_state(&g, 0), ==, NV_PC_QUAD_VALID);
    wr(&g, NV40_PC_QUAD_ACK_TRIGGER(0), 1);
    g_assert_cmpuint(quad_state(&g, 0), ==, NV_PC_QUAD_EMPTY);

    /* EVENT_B4: each EVENT adds START_SRC[0..3] as a number, here 3. */
    wr(&g, NV40_PC_START_SRC(0), SRC4(ONE, ONE, 0, 0));
    wr(&g, NV40_PC_CTRL(0), GPU_FIELD_DP32(NV_PC_MODE_QUAD, NV40_PC_CTRL,
                                           CTR_MODE, NV_PC_CTR_EVENT_B4));
    pm_trigger(&g);
    gpu_step(&g, 159);
    pm_trigger(&g);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_CYCLES(0)), ==, 160);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_EVENT(0)), ==, 40 * 3);
    gpu_stop(&g);
}

/*
 * Quad mode swapped by the PERIODIC signal (SPEC_SRC.SWAP) instead of
 * PM_TRIGGER: every 0x400 cycles without any MMIO.
 */
static void test_quad_periodic(void)
{
    Gpu g;

    gpu_start_args(&g, ",synth=*.1=16/4");
    quad_setup(&g, 0);
    wr(&g, NV40_PC_SPEC_SRC(0), NV_SIG_PERIODIC);
    wr(&g, NV40_PC_CTRL(0),
       GPU_FIELD_DP32(NV_PC_MODE_QUAD, NV40_PC_CTRL, PERIODIC, 1));
    gpu_step(&g, 10 * 0x400);
    g_assert_cmpuint(quad_state(&g, 0), ==, NV_PC_QUAD_OVERFLOW);
    check_quad(&g, 0, 0x400);
    /* PERIODIC_RESET holds the generator: no more swaps. */
    wr(&g, NV40_PC_QUAD_ACK_TRIGGER(0), 1);
    wr(&g, NV40_PC_QUAD_ACK_TRIGGER(0), 1);
    wr(&g, NV40_PC_GCTRL, NV_PC_GCTRL_PERIODIC_RESET);
    gpu_step(&g, 4 * 0x400);
    g_assert_cmpuint(quad_state(&g, 0), ==, NV_PC_QUAD_EMPTY);
    gpu_stop(&g);
}

#define TIME_B12    0x2c        /* G84 host domain (0) signal */
#define OP_RISE     0x2222u     /* argument 0 and not argument 1 */

/* Quad mode counting @pre as CTR_PRE and @event as CTR_EVENT (by @op). */
static void count_setup(Gpu *g, unsigned dom, uint32_t pre, uint32_t event,
                        uint32_t op)
{
    wr(g, NV40_PC_SPEC_SRC(dom), 0);
    wr(g, NV40_PC_PRE_SRC(dom), pre);
    wr(g, NV40_PC_EVENT_SRC(dom), event);
    wr(g, NV40_PC_EVENT_OP(dom), op);
    wr(g, NV40_PC_CTRL(dom), NV_PC_MODE_QUAD);
}

/*
 * Swap domain @dom (a PRE_OP write, at once) and return the closed
 * period's CTR_PRE; its CTR_EVENT in @event.
 */
static uint32_t swap_pre(Gpu *g, unsigned dom, uint32_t *event)
{
    wr(g, NV40_PC_PRE_OP(dom), rd(g, NV40_PC_PRE_OP(dom)));
    *event = rd(g, NV40_PC_CTR_EVENT(dom));
    return rd(g, NV40_PC_CTR_PRE(dom));
}

/*
 * PTIMER_TIME_B12 in domain 0 (1 GHz): CTR_PRE counts the cycles it is
 * 1, CTR_EVENT its rises (it and itself one cycle late).  TIME is set to
 * 0 at the swap, so at the reset ratio (1 ns per ns) bit 12 is 1 for
 * 4096 of every 8192 cycles.
 */
static void test_ptimer_signal(void)
{
    uint32_t event;
    Gpu g;

    gpu_start(&g);
    count_setup(&g, 0, SRC4(TIME_B12, 0, 0, 0),
                SRC4(TIME_B12, TIME_B12, 0, 0), OP_RISE | NV_PC_OP_DELAY1);
    wr(&g, NV_PTIMER_TIME_HIGH, 0);
    wr(&g, NV_PTIMER_TIME_LOW, 0);
    wr(&g, NV40_PC_PRE_OP(0), OP_ARG0);
    gpu_step(&g, 81920);
    g_assert_cmpuint(swap_pre(&g, 0, &event), ==, 40960);
    g_assert_cmpuint(event, ==, 10);

    /* Four times the ratio from here: a change every 1024 cycles. */
    wr(&g, NV_PTIMER_DENOMINATOR, 500);
    gpu_step(&g, 8192);
    g_assert_cmpuint(swap_pre(&g, 0, &event), ==, 4096);
    g_assert_cmpuint(event, ==, 4);

    /* SIG_STATUS shows bit 12 of the TIME the driver reads. */
    for (unsigned i = 0; i < 4; i++) {
        uint32_t t;

        gpu_step(&g, 700);
        t = rd(&g, NV_PTIMER_TIME_LOW);
        g_assert_cmpuint(rd(&g, NV40_PC_SIG_STATUS(0, 1)) >> 12 & 1, ==,
                         t >> 12 & 1);
    }
    gpu_stop(&g);
}

/*
 * PGRAPH.WRCACHE_FLUSH: each write of the flush trigger (0x070000 bit 0,
 * as nouveau's g84_bar_flush() does) is a one-cycle pulse; the register
 * reads 0 (flush done) at once.
 */
static void test_wrcache_flush(void)
{
    uint32_t event;
    Gpu g;

    gpu_start(&g);
    count_setup(&g, 2, 0, SRC4(NV_SIG_WRCACHE_FLUSH, 0, 0, 0), OP_ARG0);
    wr(&g, NV40_PC_PRE_OP(2), 0);
    for (unsigned i = 0; i < 3; i++) {
        gpu_step(&g, 100);
        wr(&g, NV_FLUSH, NV_FLUSH_TRIGGER);
        g_assert_cmphex(rd(&g, NV_FLUSH), ==, 0);
    }
    gpu_step(&g, 1);
    swap_pre(&g, 2, &event);
    g_assert_cmpuint(event, ==, 3);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_CYCLES(2)), ==, 301);
    gpu_stop(&g);
}

/*
 * GT215's USER signals of domain 2 (1 GHz; USER_0/1 are its signals
 * 0x9e/0x9f, envytools): CTR_PRE counts the cycles USER_0 is 1,
 * CTR_EVENT the rises of USER_1.  A USER_TRIGGER write sets them in the
 * current cycle; pulse-mode bits drop back to 0 one cycle later.
 */
#define GT215_U0    0x9e
#define GT215_U1    0x9f

static uint32_t user_status(Gpu *g)
{
    return rd(g, NV40_PC_SIG_STATUS(2, GT215_U0 / 32)) >> (GT215_U0 % 32) & 3;
}

/* A gt215 with domain 2 counting as above from now on. */
static void user_start(Gpu *g)
{
    gpu_start_args(g, ",chipset=gt215");
    count_setup(g, 2, SRC4(GT215_U0, 0, 0, 0),
                SRC4(GT215_U1, GT215_U1, 0, 0), OP_RISE | NV_PC_OP_DELAY1);
    wr(g, NV40_PC_PRE_OP(2), OP_ARG0);
}

static void test_user_trigger(void)
{
    uint32_t event;
    Gpu g;

    user_start(&g);
    gpu_step(&g, 1000);

    /* USER_0 as a level for 100 cycles; three USER_1 pulses meanwhile. */
    wr(&g, NV40_PC_USER_TRIGGER(2), 0x1);
    g_assert_cmphex(user_status(&g), ==, 1);
    for (unsigned i = 0; i < 3; i++) {
        gpu_step(&g, 25);
        wr(&g, NV40_PC_USER_TRIGGER(2), 0x1 | 0x2 | 0x8);
        g_assert_cmphex(user_status(&g), ==, 3);
    }
    gpu_step(&g, 25);
    g_assert_cmphex(user_status(&g), ==, 1);
    wr(&g, NV40_PC_USER_TRIGGER(2), 0);
    g_assert_cmphex(user_status(&g), ==, 0);
    gpu_step(&g, 1000);
    g_assert_cmpuint(swap_pre(&g, 2, &event), ==, 100);
    g_assert_cmpuint(event, ==, 3);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_CYCLES(2)), ==, 2100);

    /* Write-only; both pulsed: 1 in the write's cycle only. */
    g_assert_cmphex(rd(&g, NV40_PC_USER_TRIGGER(2)), ==, 0);
    wr(&g, NV40_PC_USER_TRIGGER(2), 0xf);
    g_assert_cmphex(user_status(&g), ==, 3);
    gpu_step(&g, 1);
    g_assert_cmphex(user_status(&g), ==, 0);
    gpu_step(&g, 99);
    g_assert_cmpuint(swap_pre(&g, 2, &event), ==, 1);
    g_assert_cmpuint(event, ==, 1);
    gpu_stop(&g);
}

/*
 * Single mode: PRE = constant 1, START = STOP = SYNTH0, EVENT = SYNTH1,
 * THRESHOLD 64; @pre + 1 PREs to wait for, @stop + 1 periods.  The PRE_OP
 * write that starts it is the caller's.
 */
static void single_setup(Gpu *g, unsigned dom, uint32_t pre, uint32_t stop)
{
    wr(g, NV40_PC_PRE_SRC(dom), SRC4(ONE, 0, 0, 0));
    wr(g, NV40_PC_START_SRC(dom), SRC4(SYN(0), 0, 0, 0));
    wr(g, NV40_PC_START_OP(dom), OP_ARG0);
    wr(g, NV40_PC_EVENT_SRC(dom), SRC4(SYN(1), 0, 0, 0));
    wr(g, NV40_PC_EVENT_OP(dom), OP_ARG0);
    wr(g, NV40_PC_STOP_SRC(dom), SRC4(SYN(0), 0, 0, 0));
    wr(g, NV40_PC_STOP_OP(dom), OP_ARG0);
    wr(g, NV40_PC_CTR_PRE(dom), pre);
    wr(g, NV40_PC_CTR_STOP(dom), stop);
    wr(g, NV40_PC_THRESHOLD(dom), 64);
    wr(g, NV40_PC_CTRL(dom), NV_PC_MODE_SINGLE);
}

/*
 * Single mode in domain 2 (1 GHz), time counted from the PRE_OP write at
 * cycle c0: PRE = constant 1 with CTR_PRE 9 (ten PREs: WAIT_START from
 * c0+10); START = STOP = a pulse at c0+100+256k; EVENT = 4 of every 16
 * cycles from c0; THRESHOLD 64; CTR_STOP 1 (two periods).
 */
static void test_single(void)
{
    g_autofree char *spec = NULL;
    uint64_t c0;
    Gpu g;

    gpu_start(&g);
    c0 = now_ns(&g);
    spec = g_strdup_printf("2.0=256/1/%u 2.1=16/4/%u",
                           phase_for(c0, 100, 256), phase_for(c0, 0, 16));
    set_synth(&g, spec);
    single_setup(&g, 2, 9, 1);
    g_assert_cmpuint(single_state(&g, 2), ==, NV_PC_SINGLE_INACTIVE);

    /* The PRE_OP write starts the process. */
    wr(&g, NV40_PC_PRE_OP(2), OP_ARG0);
    g_assert_cmpuint(single_state(&g, 2), ==, NV_PC_SINGLE_WAIT_PRE);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_PRE(2)), ==, 9);
    gpu_step(&g, 5);
    g_assert_cmpuint(single_state(&g, 2), ==, NV_PC_SINGLE_WAIT_PRE);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_PRE(2)), ==, 4);
    gpu_step(&g, 45);                                       /* c0 + 50 */
    g_assert_cmpuint(single_state(&g, 2), ==, NV_PC_SINGLE_WAIT_START);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_PRE(2)), ==, 0);

    /* START at c0+100: counting from c0+101. */
    gpu_step(&g, 150);                                      /* c0 + 200 */
    g_assert_cmpuint(single_state(&g, 2), ==, NV_PC_SINGLE_COUNTING);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_CYCLES(2)), ==, 200 - 101);
    /* EVENT high at offsets 112-115, 128-131, ..., 192-195. */
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_EVENT(2)), ==, 6 * 4);

    /* STOP at c0+356, counted: 256 cycles, 64 events >= THRESHOLD. */
    gpu_step(&g, 200);                                      /* c0 + 400 */
    g_assert_cmpuint(single_state(&g, 2), ==, NV_PC_SINGLE_WAIT_START);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_CYCLES(2)), ==, 256);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_EVENT(2)), ==, 64);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_START(2)), ==, 1);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_STOP(2)), ==, 0);

    /* Second period c0+613..c0+868; CTR_STOP was 0: INACTIVE. */
    gpu_step(&g, 600);                                      /* c0 + 1000 */
    g_assert_cmpuint(single_state(&g, 2), ==, NV_PC_SINGLE_INACTIVE);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_CYCLES(2)), ==, 256);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_EVENT(2)), ==, 64);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_START(2)), ==, 2);

    /* Inactive, nothing counts. */
    gpu_step(&g, 1000);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_START(2)), ==, 2);

    /* A configuration write other than PRE_OP aborts a run. */
    wr(&g, NV40_PC_PRE_OP(2), OP_ARG0);
    g_assert_cmpuint(single_state(&g, 2), ==, NV_PC_SINGLE_WAIT_PRE);
    wr(&g, NV40_PC_THRESHOLD(2), 1);
    g_assert_cmpuint(single_state(&g, 2), ==, NV_PC_SINGLE_INACTIVE);
    gpu_stop(&g);
}

static uint16_t le16_at(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static void check_packet(const uint8_t *p, uint64_t cycles, unsigned stop,
                         unsigned ev0, unsigned ev1, bool is_long)
{
    g_assert_cmpuint(le16_at(p) | (uint64_t)le16_at(p + 2) << 16 |
                     (uint64_t)le16_at(p + 4) << 32, ==, cycles);
    g_assert_cmpuint(le16_at(p + 6), ==, stop);
    g_assert_cmpuint(le16_at(p + 8), ==, ev0);
    g_assert_cmpuint(le16_at(p + 10), ==, ev1);
    for (unsigned i = 2; i < (is_long ? 12 : 4); i++) {
        g_assert_cmpuint(le16_at(p + 8 + 2 * i), ==, 0);
    }
}

/*
 * Record mode from cycle c0 in a 1 GHz domain: STOP = synthetic 0, a
 * pulse at c0+100+256k; record counter 0 = constant 1, counter 1 =
 * synthetic 1, high 4 of every 16 cycles from c0; the other ten 0.
 */
static void record_synth(Gpu *g, uint64_t c0)
{
    g_autofree char *spec = g_strdup_printf("*.0=256/1/%u *.1=16/4/%u",
                                            phase_for(c0, 100, 256),
                                            phase_for(c0, 0, 16));

    set_synth(g, spec);
}

static void record_setup(Gpu *g, unsigned dom, uint32_t ctrl,
                         uint32_t start, uint32_t limit)
{
    wr(g, NV40_PC_PRE_SRC(dom), SRC4(ONE, SYN(1), 0, 0));
    wr(g, NV40_PC_START_SRC(dom), 0);
    wr(g, NV40_PC_EVENT_SRC(dom), 0);
    wr(g, NV40_PC_STOP_SRC(dom), SRC4(SYN(0), 0, 0, 0));
    wr(g, NV40_PC_STOP_OP(dom), OP_ARG0);
    wr(g, NV40_PC_CTRL(dom), NV_PC_MODE_RECORD | ctrl);
    wr(g, NV40_PC_RECORD_LIMIT(dom), limit);
    wr(g, NV40_PC_RECORD_START(dom), start);
}

static void test_record(void)
{
    uint8_t buf[160], sbuf[64];
    uint64_t addr, saddr, c0;
    Gpu g;

    gpu_start(&g);
    addr = guest_alloc(&g.alloc, sizeof(buf));
    saddr = guest_alloc(&g.alloc, sizeof(sbuf));
    g_assert_cmphex(addr & 0xf, ==, 0);
    g_assert_cmphex(saddr & 0xf, ==, 0);
    memset(buf, 0xaa, sizeof(buf));
    qtest_memwrite(g.qts, addr, buf, sizeof(buf));
    qtest_memwrite(g.qts, saddr, buf, sizeof(sbuf));

    c0 = now_ns(&g);
    record_synth(&g, c0);
    /* LONG packets; the limit admits writes at +0, +32 and +64. */
    record_setup(&g, 4, 0, addr, addr + 64);
    /* SHORT packets; writes at +0 and +16. */
    record_setup(&g, 5, NV_PC_CTRL_RECORD_SHORT, saddr, saddr + 16);
    g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(4)), ==, addr);

    /*
     * No MMIO for 100 us: packets reach memory by themselves (the
     * record-flush-ns default).  STOPs at c0+100, 356, 612, 868, ...
     */
    gpu_step(&g, 100000);
    qtest_memread(g.qts, addr, buf, sizeof(buf));
    /*
     * The cycle counter is a timestamp from RECORD_START, including the
     * STOP cycle; the event counters restart with each packet.
     */
    check_packet(buf, 101, 1, 101, 28, true);           /* [c0, c0+100] */
    check_packet(buf + 32, 357, 1, 256, 64, true);
    check_packet(buf + 64, 613, 1, 256, 64, true);
    for (unsigned i = 96; i < sizeof(buf); i++) {
        g_assert_cmphex(buf[i], ==, 0xaa);               /* past the limit */
    }
    qtest_memread(g.qts, saddr, sbuf, sizeof(sbuf));
    check_packet(sbuf, 101, 1, 101, 28, false);
    check_packet(sbuf + 16, 357, 1, 256, 64, false);
    for (unsigned i = 32; i < sizeof(sbuf); i++) {
        g_assert_cmphex(sbuf[i], ==, 0xaa);
    }

    /* RECORD_STATUS: the next write position, no fault. */
    g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(4)), ==, addr + 96);
    g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(5)), ==, saddr + 32);

    /* A new RECORD_START re-arms the buffer. */
    memset(buf, 0xaa, sizeof(buf));
    qtest_memwrite(g.qts, addr, buf, sizeof(buf));
    wr(&g, NV40_PC_RECORD_LIMIT(4), addr);
    wr(&g, NV40_PC_RECORD_START(4), addr);
    gpu_step(&g, 1000);
    g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(4)), ==, addr + 32);
    qtest_memread(g.qts, addr, buf, 64);
    g_assert_cmpuint(le16_at(buf + 6), ==, 1);
    g_assert_cmphex(buf[32], ==, 0xaa);
    gpu_stop(&g);
}

/*
 * A record write that fails (no memory at the address) sets the fault bit
 * and wedges the domain: FAULT_CLEAR clears the bit only, and a new buffer
 * receives nothing until the GPU is reset.
 */
static void test_record_fault(void)
{
    const uint32_t hole = 0x40000000;   /* above q35's 128 MiB of RAM */
    uint64_t addr, c0;
    uint8_t buf[32];
    Gpu g;

    gpu_start(&g);
    addr = guest_alloc(&g.alloc, sizeof(buf));
    memset(buf, 0xaa, sizeof(buf));
    qtest_memwrite(g.qts, addr, buf, sizeof(buf));

    c0 = now_ns(&g);
    record_synth(&g, c0);
    record_setup(&g, 6, 0, hole, hole + 0x1000);
    gpu_step(&g, 99);
    g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(6)), ==, hole);
    gpu_step(&g, 2);                                        /* STOP at c0+100 */
    g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(6)), ==,
                    hole | NV_PC_RECORD_STATUS_FAULT);

    wr(&g, NV40_PC_CTRL(6), NV_PC_MODE_RECORD | NV_PC_CTRL_FAULT_CLEAR);
    g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(6)), ==, hole);
    g_assert_cmphex(rd(&g, NV40_PC_CTRL(6)) & NV_PC_CTRL_FAULT_CLEAR, ==, 0);
    wr(&g, NV40_PC_RECORD_LIMIT(6), addr);
    wr(&g, NV40_PC_RECORD_START(6), addr);
    gpu_step(&g, 1000);
    qtest_memread(g.qts, addr, buf, sizeof(buf));
    for (unsigned i = 0; i < sizeof(buf); i++) {
        g_assert_cmphex(buf[i], ==, 0xaa);
    }
    g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(6)), ==, addr);
    gpu_stop(&g);
}

#define MIG_BUF     0x100000    /* fixed: the allocator starts afresh */
#define MIG_SBUF    0x104000
#define MIG_SYNTH   "*.0=256/1/%u *.1=16/4/%u 7.2=64/20/%u"

/* Every register a driver reads, and both record buffers. */
static void observe(Gpu *g, GByteArray *out)
{
    static const uint32_t regs[] = {
        NV40_PC_CTR_CYCLES(0), NV40_PC_CTR_CYCLES_ALT(0),
        NV40_PC_CTR_EVENT(0), NV40_PC_CTR_START(0), NV40_PC_CTR_PRE(0),
        NV40_PC_CTR_STOP(0), NV40_PC_CTRL(0), NV40_PC_RECORD_STATUS(0),
        NV40_PC_SRC_STATUS(0),
    };
    uint8_t buf[0x400];
    uint32_t v;

    for (unsigned d = 0; d < NV_PCOUNTER_DOMAINS; d++) {
        for (unsigned i = 0; i < G_N_ELEMENTS(regs); i++) {
            v = rd(g, regs[i] + 4 * d);

            g_byte_array_append(out, (uint8_t *)&v, 4);
        }
        v = rd(g, NV40_PC_SIG_STATUS(d, 7));
        g_byte_array_append(out, (uint8_t *)&v, 4);
    }
    for (unsigned i = 0; i < 3; i++) {
        static const uint32_t pt[] = {
            NV_PTIMER_TIME_LOW, NV_PTIMER_TIME_HIGH, NV_PTIMER_INTR,
        };
        v = rd(g, pt[i]);
        g_byte_array_append(out, (uint8_t *)&v, 4);
    }
    qtest_memread(g->qts, MIG_BUF, buf, sizeof(buf));
    g_byte_array_append(out, buf, sizeof(buf));
    qtest_memread(g->qts, MIG_SBUF, buf, sizeof(buf));
    g_byte_array_append(out, buf, sizeof(buf));
}

/*
 * A PCOUNTER workload in every mode, saved and loaded into a new QEMU in
 * the middle (@migrate) or not:
 *   domains 0 and 3: quad mode on synthetic signals (1 and 1.2 GHz);
 *   domain 2: single mode, five periods, counting at the snapshot;
 *   domains 4 and 5: record mode, LONG and SHORT packets, a packet being
 *     gathered and the flush timer armed at the snapshot;
 *   domain 6 counts domain 7's EVENT through a PULSE import, domain 7
 *     its own as STOP, which is 1 at the snapshot;
 *   PTIMER with an alarm due after the snapshot, and TIME_HIGH written
 *     before it, TIME_LOW after.
 * Returns what a driver would read at the end.
 */
static GByteArray *migrate_workload(bool migrate)
{
    g_autofree char *spec = NULL;
    GByteArray *out = g_byte_array_new();
    uint8_t fill[0x400];
    uint64_t c0;
    Gpu g;

    gpu_start(&g);
    memset(fill, 0xaa, sizeof(fill));
    qtest_memwrite(g.qts, MIG_BUF, fill, sizeof(fill));
    qtest_memwrite(g.qts, MIG_SBUF, fill, sizeof(fill));
    c0 = now_ns(&g);
    /* Domain 7 (500 MHz): SYNTH2 high from 5 cycles before the snapshot. */
    spec = g_strdup_printf(MIG_SYNTH, phase_for(c0, 100, 256),
                           phase_for(c0, 0, 16),
                           phase_for((c0 + 700) / 2 - 5, 0, 64));
    set_synth(&g, spec);

    quad_setup(&g, 0);
    quad_setup(&g, 3);
    record_setup(&g, 4, 0, MIG_BUF, MIG_BUF + 0x300);
    record_setup(&g, 5, NV_PC_CTRL_RECORD_SHORT, MIG_SBUF, MIG_SBUF + 0x300);

    single_setup(&g, 2, 3, 4);
    wr(&g, NV40_PC_PRE_OP(2), OP_ARG0);

    wr(&g, NV40_PC_EVENT_SRC(7), SRC4(SYN(2), 0, 0, 0));
    wr(&g, NV40_PC_EVENT_OP(7), OP_ARG0);
    wr(&g, NV40_PC_STOP_SRC(7), SRC4(NV_SIG_DOM_EVENT(7), 0, 0, 0));
    wr(&g, NV40_PC_STOP_OP(7), OP_ARG0);
    wr(&g, NV40_PC_CTRL(7), NV_PC_MODE_QUAD);
    quad_setup(&g, 6);
    wr(&g, NV40_PC_EVENT_SRC(6), SRC4(NV_SIG_DOM_EVENT(7), 0, 0, 0));
    wr(&g, NV40_PC_CTRL(6), NV_PC_MODE_QUAD | NV_PC_CTRL_EVENT_IMPORT_PULSE);

    pm_trigger(&g);
    wr(&g, NV40_PC_QUAD_ACK_TRIGGER(0), 1);
    alarm_in(&g, 120000);

    /*
     * Mid-run, c0 + 700: single mode counting in its second period, the
     * fourth record packet gathering (three are in memory).
     */
    gpu_step(&g, 700 - 2);
    g_assert_cmpuint(single_state(&g, 2), ==, NV_PC_SINGLE_COUNTING);
    wr(&g, NV_PTIMER_TIME_HIGH, 0x12);
    gpu_maybe_migrate(&g, migrate, GPU_ARGS);
    gpu_step(&g, 300);
    wr(&g, NV_PTIMER_TIME_LOW, 0x345);
    gpu_step(&g, 150000);
    pm_trigger(&g);

    g_assert_cmpuint(single_state(&g, 2), ==, NV_PC_SINGLE_INACTIVE);
    g_assert_cmpuint(rd(&g, NV40_PC_CTR_START(2)), ==, 5);
    g_assert_cmpuint(rd(&g, NV_PTIMER_TIME_HIGH), ==, 0x12);
    g_assert_cmpuint(rd(&g, NV_PTIMER_INTR), ==, NV_PTIMER_INTR_ALARM);
    observe(&g, out);
    gpu_stop(&g);
    return out;
}

static void test_migrate_workload(void)
{
    gpu_migrate_check(migrate_workload);
}

/*
 * GT215 USER signals across a snapshot taken the cycle after a
 * USER_TRIGGER write (USER_0 a level, USER_1 pulsed): on the destination
 * USER_1 has dropped, USER_0 holds, and a later pulse is a new rise.
 * Counted as in test_user_trigger().
 */
static GByteArray *migrate_user(bool migrate)
{
    GByteArray *out = g_byte_array_new();
    uint32_t v[3];
    Gpu g;

    user_start(&g);
    gpu_step(&g, 100);
    wr(&g, NV40_PC_USER_TRIGGER(2), 0x1 | 0x2 | 0x8);
    gpu_maybe_migrate(&g, migrate, GPU_ARGS ",chipset=gt215");
    g_assert_cmphex(user_status(&g), ==, 1);
    gpu_step(&g, 49);
    wr(&g, NV40_PC_USER_TRIGGER(2), 0x1 | 0x2 | 0x8);
    gpu_step(&g, 50);
    v[0] = swap_pre(&g, 2, &v[1]);
    v[2] = user_status(&g);
    g_assert_cmpuint(v[0], ==, 100);
    g_assert_cmpuint(v[1], ==, 2);
    g_byte_array_append(out, (uint8_t *)v, sizeof(v));
    gpu_stop(&g);
    return out;
}

static void test_migrate_user(void)
{
    gpu_migrate_check(migrate_user);
}

/*
 * Trailer signals that change every cycle in every domain (each EVENT
 * negates its own DOM[d].EVENT): evaluation costs a step per cycle and
 * cannot keep up, so the domains lag virtual time.  Registers still
 * answer at once, and the counters are consistent with what has been
 * evaluated (EVENT high every other cycle).
 */
static void test_budget(void)
{
    uint32_t cycles = 0;
    Gpu g;

    gpu_start(&g);
    for (unsigned d = 0; d < NV_PCOUNTER_DOMAINS; d++) {
        quad_setup(&g, d);
        wr(&g, NV40_PC_EVENT_SRC(d), SRC4(NV_SIG_DOM_EVENT(d), 0, 0, 0));
        wr(&g, NV40_PC_EVENT_OP(d), 0x5555);
    }
    pm_trigger(&g);
    for (unsigned i = 0; i < 4; i++) {
        uint32_t c;

        gpu_step(&g, 5 * 1000 * 1000);
        g_assert_cmphex(rd(&g, NV_PMC_BOOT_0), ==, 0x084000a2);
        pm_trigger(&g);
        c = rd(&g, NV40_PC_CTR_CYCLES(0));
        /* Progress, less than the 5 ms at 1 GHz that passed. */
        g_assert_cmpuint(c, >, 0);
        g_assert_cmpuint(c, <, 5 * 1000 * 1000);
        g_assert_cmpuint(rd(&g, NV40_PC_CTR_EVENT(0)), >=, c / 2);
        g_assert_cmpuint(rd(&g, NV40_PC_CTR_EVENT(0)), <=, c / 2 + 1);
        cycles += c;
    }
    g_assert_cmpuint(cycles, >, 4 * 1000);
    gpu_stop(&g);
}

/*
 * The record-fault drill: domain 4's next packet write fails as a DMA
 * fault would; domain 5 records on.  FAULT_CLEAR clears the bit only and
 * the domain stays wedged until reset (docs/nv-gpu.rst), which also ends a
 * drill not yet used.
 */
static void test_drill_record_fault(void)
{
    uint8_t buf[64];
    Gpu g;

    gpu_start(&g);
    qmp_refused(&g, "{'execute': 'x-nv-gpu-drill-record-fault', "
                "'arguments': {'id': 'gpu', 'domain': 8}}");
    qmp_refused(&g, "{'execute': 'x-nv-gpu-drill-record-fault', "
                "'arguments': {'id': 'nothing', 'domain': 0}}");
    for (unsigned pass = 0; pass < 2; pass++) {
        uint64_t c0;

        memset(buf, 0xaa, sizeof(buf));
        qtest_memwrite(g.qts, MIG_BUF, buf, sizeof(buf));
        qtest_memwrite(g.qts, MIG_SBUF, buf, sizeof(buf));
        qmp_ok(&g, "{'execute': 'x-nv-gpu-drill-record-fault', "
               "'arguments': {'id': 'gpu', 'domain': 4}}");
        if (pass) {
            /* A reset before the write ends the drill. */
            qmp_ok(&g, "{'execute': 'system_reset'}");
            gpu_map(&g);
        }
        c0 = now_ns(&g);
        record_synth(&g, c0);
        record_setup(&g, 4, 0, MIG_BUF, MIG_BUF + 0x1000);
        record_setup(&g, 5, 0, MIG_SBUF, MIG_SBUF + 0x1000);
        gpu_step(&g, 1000);
        g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(5)), ==, MIG_SBUF + 128);
        if (pass) {
            g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(4)), ==,
                            MIG_BUF + 128);
            break;
        }
        g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(4)), ==,
                        MIG_BUF | NV_PC_RECORD_STATUS_FAULT);
        qtest_memread(g.qts, MIG_BUF, buf, sizeof(buf));
        for (unsigned i = 0; i < sizeof(buf); i++) {
            g_assert_cmphex(buf[i], ==, 0xaa);
        }
        wr(&g, NV40_PC_CTRL(4), NV_PC_MODE_RECORD | NV_PC_CTRL_FAULT_CLEAR);
        g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(4)), ==, MIG_BUF);
        wr(&g, NV40_PC_RECORD_START(4), MIG_BUF);
        gpu_step(&g, 1000);
        g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(4)), ==, MIG_BUF);
    }
    gpu_stop(&g);
}

/*
 * Record mode with STOP high every other cycle in a 1 GHz domain, a
 * packet per STOP, and a one-packet buffer (RECORD_LIMIT = RECORD_START),
 * over 20 ms: the first packet lands, the rest are dropped at the limit,
 * RECORD_STATUS stays just past it and nothing beyond is written; the
 * registers answer all along while evaluation lags within its budget.  A
 * new RECORD_START and RECORD_LIMIT then take exactly three packets.
 */
static void test_hostile_record_limit(void)
{
    const uint32_t addr = MIG_BUF, addr2 = MIG_SBUF;
    uint8_t buf[256];
    Gpu g;

    gpu_start(&g);
    memset(buf, 0xaa, sizeof(buf));
    qtest_memwrite(g.qts, addr, buf, sizeof(buf));
    qtest_memwrite(g.qts, addr2, buf, sizeof(buf));
    set_synth(&g, "*.0=2/1");
    record_setup(&g, 4, 0, addr, addr);
    for (unsigned i = 0; i < 4; i++) {
        gpu_step(&g, 5 * 1000 * 1000);
        g_assert_cmphex(rd(&g, NV_PMC_BOOT_0), ==, 0x084000a2);
        g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(4)), ==, addr + 32);
        qtest_memread(g.qts, addr, buf, sizeof(buf));
        g_assert_cmpuint(le16_at(buf + 6), ==, 1);
        for (unsigned j = 32; j < sizeof(buf); j++) {
            g_assert_cmphex(buf[j], ==, 0xaa);
        }
    }

    wr(&g, NV40_PC_RECORD_LIMIT(4), addr2 + 64);
    wr(&g, NV40_PC_RECORD_START(4), addr2);
    gpu_step(&g, 1000 * 1000);
    g_assert_cmphex(rd(&g, NV40_PC_RECORD_STATUS(4)), ==, addr2 + 96);
    qtest_memread(g.qts, addr2, buf, sizeof(buf));
    for (unsigned j = 0; j < 96; j += 32) {
        g_assert_cmpuint(le16_at(buf + j + 6), ==, 1);
    }
    for (unsigned j = 96; j < sizeof(buf); j++) {
        g_assert_cmphex(buf[j], ==, 0xaa);
    }
    gpu_stop(&g);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/nv-gpu/pcounter/quad", test_quad);
    qtest_add_func("/nv-gpu/pcounter/quad-periodic", test_quad_periodic);
    qtest_add_func("/nv-gpu/pcounter/ptimer-signal", test_ptimer_signal);
    qtest_add_func("/nv-gpu/pcounter/wrcache-flush", test_wrcache_flush);
    qtest_add_func("/nv-gpu/pcounter/single", test_single);
    qtest_add_func("/nv-gpu/pcounter/user-trigger", test_user_trigger);
    qtest_add_func("/nv-gpu/pcounter/record", test_record);
    qtest_add_func("/nv-gpu/pcounter/record-fault", test_record_fault);
    qtest_add_func("/nv-gpu/pcounter/drill-record-fault",
                   test_drill_record_fault);
    qtest_add_func("/nv-gpu/pcounter/budget", test_budget);
    qtest_add_func("/nv-gpu/migrate/workload", test_migrate_workload);
    qtest_add_func("/nv-gpu/hostile/record-limit", test_hostile_record_limit);
    qtest_add_func("/nv-gpu/migrate/user", test_migrate_user);
    return g_test_run();
}
