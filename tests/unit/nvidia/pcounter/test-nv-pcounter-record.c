/*
 * nv-gpu PCOUNTER unit tests: record mode (envytools
 * docs/hw/pcounter/intro.rst, "Record mode" and "Record mode setup").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nv-pcounter-test.h"

/* ==== record mode ==== */

static uint16_t le16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

void record_setup(Fixture *f, unsigned d, uint32_t ctrl,
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

/*
 * WRCACHE_FLUSH pulses in consecutive cycles, the second cycle's pulse
 * written twice, with a PTIMER TIME write between them: the host domain
 * at 7 MHz (cycle c from c x 1000/7 ns), STOP the pulse one cycle late.
 * The delayed STOP of cycle 93 sees the pulse of cycle 92 however many
 * pulses cycle 93 has, so there are two packets, at cycles 93 and 94.
 */
static void test_record_flush_repeat(void)
{
    uint64_t hz[NV_PCOUNTER_DOMAINS] = { 7000000 };
    const uint8_t *m;
    Fixture f;

    fixture_open_hz(&f, "g84", 0, hz);
    m = f.fh->ram + 0x4000;
    record_setup(&f, 0, NV_PC_CTRL_RECORD_SHORT, 0x4000, 0x8000);
    wr(&f, NV40_PC_STOP_SRC(0), SRC4(NV_SIG_WRCACHE_FLUSH, 0, 0, 0));
    wr(&f, NV40_PC_STOP_OP(0), OP_ARG0 | NV_PC_OP_DELAY0);
    step(&f, 13283);                                /* cycle 92 */
    wr(&f, NV_FLUSH, NV_FLUSH_TRIGGER);
    step(&f, 13312 - 13283);                        /* cycle 93 */
    wr(&f, NV_PTIMER_TIME_HIGH, 0x3d31c332);
    wr(&f, NV_PTIMER_TIME_LOW, 0x237db9b1);
    step(&f, 13338 - 13312);
    wr(&f, NV_FLUSH, NV_FLUSH_TRIGGER);
    step(&f, 13350 - 13338);
    wr(&f, NV_FLUSH, NV_FLUSH_TRIGGER);
    step(&f, 14000 - 13350);                        /* cycle 98 */
    g_assert_cmphex(rd(&f, NV40_PC_RECORD_STATUS(0)), ==, 0x4020);
    /* cycle counter, STOP count, PRE_SRC[0] (ONE) since the last */
    g_assert_cmpuint(le16(m + 0), ==, 94);
    g_assert_cmpuint(le16(m + 6), ==, 1);
    g_assert_cmpuint(le16(m + 8), ==, 94);
    g_assert_cmpuint(le16(m + 16), ==, 95);
    g_assert_cmpuint(le16(m + 16 + 6), ==, 1);
    g_assert_cmpuint(le16(m + 16 + 8), ==, 1);
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

void nv_pcounter_test_add_record(void)
{
    add("/nv/pcounter/record/packets", test_record_packets, NULL);
    add("/nv/pcounter/record/flush-level", test_record_flush_level, NULL);
    g_test_add_func("/nv/pcounter/record/backpressure",
                    test_record_backpressure);
    g_test_add_func("/nv/pcounter/record/flush-repeat",
                    test_record_flush_repeat);
    add("/nv/pcounter/record/fault", test_record_fault, NULL);
    add("/nv/pcounter/record/timer", test_record_timer, NULL);
}
