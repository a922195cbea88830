/*
 * nv-gpu PCOUNTER unit tests: random configurations, and hostile ones,
 * run by the model and by the reference evaluator (nv-pcounter-ref.c),
 * which must agree exactly.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "nv-pcounter-ref.h"

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

void compare(Fixture *f, Ref *r, const char *what)
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

void ref_free(Ref *r)
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
void ref_apply(Fixture *f, Ref *r)
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
        /* CLOCK_MUL: the rate's multiplier */
        wr(f, NV_PTIMER_DENOMINATOR, g_rand_int_range(g, 0, 8) ?
                                     g_rand_int_range(g, 1, 0x10000) : 0);
        break;
    case 4:
        /* CLOCK_DIV: its divider, often small (a fast clock) */
        wr(f, NV_PTIMER_NUMERATOR, g_rand_int_range(g, 0, 8) ?
           g_rand_int_range(g, 1, 2u << g_rand_int_range(g, 0, 12)) : 0);
        break;
    default:
        return;
    }
    /* TIME units per crystal tick; CLOCK_SOURCE stays at reset (x3). */
    num = 3 * 32 * rd(f, NV_PTIMER_DENOMINATOR);
    den = rd(f, NV_PTIMER_NUMERATOR);
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
                    NV_PTIMER_CLOCK_SOURCE,
                };

                wr(&f, ptimer_regs[g_rand_int_range(g, 0, 5)], g_rand_int(g));
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

void nv_pcounter_test_add_random(void)
{
    g_test_add_func("/nv/pcounter/random/quad", test_random_quad);
    g_test_add_func("/nv/pcounter/random/single", test_random_single);
    g_test_add_func("/nv/pcounter/random/record", test_random_record);
    g_test_add_func("/nv/pcounter/random/coupled", test_random_coupled);
    g_test_add_func("/nv/pcounter/random/hostile", test_random_hostile);
}
