/*
 * The OA unit's flexible EU event counters over real EU threads
 * (hw/gpumodel/intel/eu/eu.c, the EuEvClass tally of eu-exec.c): kernels of
 * known instruction mixes, run by a GPGPU_WALKER and as pixel-shader
 * threads, and each event and fine filter checked against the count
 * worked out by hand from the mix.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-oa-test.h"
#include "eu-asm.h"
#include "intel/gfx/gfx-int.h"

#define KERNEL_OFF      2048    /* the kernel, after the commands */
#define IDD_OFF         3072    /* its interface descriptor */

/* A flexible EU counter selection: event 3:0, coarse 7:4, fine 11:8. */
#define SEL(event, coarse, fine)    ((event) | (coarse) << 4 | (fine) << 8)

#define MIX_LOADED      17
#define MIX_FPU0        12
#define MIX_TERNARY     5
#define MIX_BINARY0     2
#define MIX_MOV         4
#define MIX_FPU1        2
#define MIX_BINARY1     1
#define MIX_SENDS       1
#define MIX_ANY         (MIX_FPU0 + MIX_FPU1 + MIX_SENDS)

/* EU_PERF_CNT_CTL0-6 from the selections of A7-A20 (two a register). */
static void flex_select(Fixture *f, const uint16_t *sel)
{
    for (unsigned r = 0; r < 7; r++) {
        wr(f, r < 4 ? INTEL_EU_PERF_CNTL0 + 0x100 * r :
                INTEL_EU_PERF_CNTL4 + 0x100 * (r - 4),
           sel[2 * r] | (uint32_t)sel[2 * r + 1] << 12);
    }
}

/*
 * STATE_BASE_ADDRESS (every base the batch), MEDIA_VFE_STATE, the
 * interface descriptor of the kernel at KERNEL_OFF, and a GPGPU_WALKER
 * of @x x @y SIMD8 groups of one thread (IGT's lib/gpu_cmds.c order).
 */
static void walker_batch(Fixture *f, const EuNative *k, size_t n,
                         uint32_t x, uint32_t y)
{
    Gen11_MEDIA_VFE_STATE vfe = {
        .maximum_number_of_threads = 1, .number_of_urb_entries = 1,
    };
    Gen11_MEDIA_INTERFACE_DESCRIPTOR_LOAD il = {
        .interface_descriptor_total_length = 32,
        .interface_descriptor_data_start_address = IDD_OFF,
    };
    Gen11_INTERFACE_DESCRIPTOR_DATA idd = {
        .kernel_start_pointer = KERNEL_OFF,
        .number_of_threads_in_gpgpu_thread_group = 1,
    };
    uint32_t cmds[IGT_SBA_DWORDS + GEN11_MEDIA_VFE_STATE_LENGTH +
                  GEN11_MEDIA_INTERFACE_DESCRIPTOR_LOAD_LENGTH +
                  WALKER_DWORDS + 1], *p = cmds;
    uint32_t dw[GEN11_INTERFACE_DESCRIPTOR_DATA_LENGTH];
    Buf state = buf_at(f, BATCH + IDD_OFF);

    p = igt_sba_pack(p, BATCH, true);
    gen11_media_vfe_state_pack(p, &vfe);
    p += GEN11_MEDIA_VFE_STATE_LENGTH;
    gen11_media_interface_descriptor_load_pack(p, &il);
    p += GEN11_MEDIA_INTERFACE_DESCRIPTOR_LOAD_LENGTH;
    p = pack_walker(p, 1, x, y);
    *p++ = MI_BATCH_BUFFER_END;
    g_assert_cmpuint(16 * n, <=, IDD_OFF - KERNEL_OFF);
    asm_emit(f->fh->ram + BATCH + KERNEL_OFF, k, n);
    gen11_interface_descriptor_data_pack(dw, &idd);
    emit_n(&state, dw, G_N_ELEMENTS(dw));
    run_batch(f, cmds, p - cmds);
}

/*
 * The mix, per thread: 5 mad (FPU0 ternary), 3 mov + the end's mov (FPU0
 * mov), 2 add (FPU0 binary), 1 not (FPU0, one source), math inv (FPU1,
 * one source), math pow (FPU1 binary), jmpi and nop (no counted pipe),
 * the EOT send: 17 instructions, 17 loaded clocks.  Run by a walker of
 * @x x @y threads.
 */
static void mix_walker(Fixture *f, uint32_t x, uint32_t y)
{
    const EuNative k[] = {
        asm_3src(EU_OP_MAD, 8, true, 1, 6, 5, 3, 4),
        asm_3src(EU_OP_MAD, 8, true, 1, 6, 5, 3, 4),
        asm_3src(EU_OP_MAD, 8, true, 1, 6, 5, 3, 4),
        asm_3src(EU_OP_MAD, 8, true, 1, 6, 5, 3, 4),
        asm_3src(EU_OP_MAD, 8, true, 1, 6, 5, 3, 4),
        asm_1(EU_OP_MOV, 8, D(7, 0, EU_TYPE_UD), G(3, 0, EU_TYPE_UD, R_8_8_1)),
        asm_1(EU_OP_MOV, 8, D(7, 0, EU_TYPE_UD), G(4, 0, EU_TYPE_UD, R_8_8_1)),
        asm_1(EU_OP_MOV, 8, D(7, 0, EU_TYPE_UD), G(5, 0, EU_TYPE_UD, R_8_8_1)),
        asm_op(EU_OP_ADD, 8, D(8, 0, EU_TYPE_UD), G(3, 0, EU_TYPE_UD, R_8_8_1),
               IMM(EU_TYPE_UD, 1)),
        asm_op(EU_OP_ADD, 8, D(8, 0, EU_TYPE_UD), G(8, 0, EU_TYPE_UD, R_8_8_1),
               IMM(EU_TYPE_UD, 2)),
        asm_1(EU_OP_NOT, 8, D(9, 0, EU_TYPE_UD), G(3, 0, EU_TYPE_UD, R_8_8_1)),
        asm_math(EU_MATH_INV, 8, D(10, 0, EU_TYPE_F),
                 G(4, 0, EU_TYPE_F, R_8_8_1), NUL),
        asm_math(EU_MATH_POW, 8, D(11, 0, EU_TYPE_F),
                 G(4, 0, EU_TYPE_F, R_8_8_1), G(5, 0, EU_TYPE_F, R_8_8_1)),
        asm_op(EU_OP_JMPI, 1, NUL, NUL, IMM(EU_TYPE_D, 0)),
        asm_flow(EU_OP_NOP, 1, 0, 0),
        asm_1(EU_OP_MOV, 8, D(112, 0, EU_TYPE_UD),
              G(0, 0, EU_TYPE_UD, R_8_8_1)),
        asm_send(8, 0, 112, EU_SFID_THREAD_SPAWNER, 0x02000010, true),
    };

    walker_batch(f, k, G_N_ELEMENTS(k), x, y);
}

/*
 * 4 x 3 threads of the mix through a GPGPU_WALKER: every event and fine
 * filter, read from an OA report and the counter registers, is the mix
 * times 12 (divided by the EU share a row or EU-number filter selects).
 */
static void test_walker_mix(Fixture *f, gconstpointer data)
{
    const unsigned t = 4 * 3;
    const uint64_t fpu0 = MIX_FPU0 * t;
    const uint16_t sel[14] = {
        SEL(0, 0, 0), SEL(0, 0, 2), SEL(0, 0, 3), SEL(0, 0, 4),
        SEL(0, 0, 1), SEL(1, 0, 0), SEL(1, 0, 3), SEL(2, 0, 0),
        SEL(2, 0, 5), SEL(4, 0, 0), SEL(5, 0, 0), SEL(3, 0, 0),
        SEL(8, 0, 0), SEL(0, 7, 7),
    };
    const uint64_t want[14] = {
        fpu0,                           /* A7 FPU0 */
        MIX_TERNARY * t,                /* A8 FPU0 ternary */
        MIX_BINARY0 * t,                /* A9 FPU0 binary */
        MIX_MOV * t,                    /* A10 FPU0 mov */
        0,                              /* A11 FPU0 hybrid: none */
        MIX_FPU1 * t,                   /* A12 FPU1 */
        MIX_BINARY1 * t,                /* A13 FPU1 binary */
        MIX_SENDS * t,                  /* A14 send pipe */
        MIX_SENDS * t,                  /* A15 sends started */
        MIX_ANY * t,                    /* A16 some pipe */
        (MIX_LOADED - MIX_ANY) * t,     /* A17 stall: jmpi, nop */
        0,                              /* A18 both FPUs: one issue */
        MIX_LOADED * t / 8,             /* A19 occupancy integrator */
        fpu0 / 8,                       /* A20 FPU0, row 0 and EU 0 */
    };
    IntelEngine *e = eng(f, RCS);

    flex_select(f, sel);
    oa_open(f, 16);
    mix_walker(f, 4, 3);
    fake_host_step(f->fh, 1000000);
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, t);
    g_assert_cmpuint(e->stats.eu_clocks[INTEL_EU_TS], ==, MIX_LOADED * t);
    g_assert_cmpint(oa_snapshot(e, false, SNAP, 0), ==, 0);
    for (unsigned k = 0; k < 14; k++) {
        g_test_message("A%u", 7 + k);
        g_assert_cmpuint(a_counter(f, SNAP, 7 + k), ==, want[k]);
        g_assert_cmpuint(rd(f, INTEL_OAPERF_A(7 + k)), ==, want[k]);
    }
    /* The FFID filters: the walker's threads are the thread spawner's. */
    wr(f, INTEL_EU_PERF_CNTL4 + 0x200, SEL(0, 6, 0) | SEL(0, 5, 0) << 12);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_FREE(2)), ==, fpu0);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_FREE(3)), ==, 0);
}

/*
 * Half-way through the walker's modelled time, about half of each event
 * has counted, and never more than the EUs could in that time; no
 * counter ever goes back as the work completes.
 */
static void test_walker_pacing(Fixture *f, gconstpointer data)
{
    const uint16_t sel[14] = {
        SEL(0, 0, 2), SEL(4, 0, 0), SEL(5, 0, 0), SEL(8, 0, 0),
        SEL(0, 0, 0), SEL(1, 0, 0), SEL(2, 0, 0),
    };
    uint64_t last[7] = { 0 };
    const uint64_t t = 32 * 64, half = MIX_TERNARY * t / 2;
    IntelEngine *e = eng(f, RCS);
    uint64_t mid, ternary, any;

    flex_select(f, sel);
    oa_open(f, 16);
    /* 2048 threads: 2048 x 17 EU clocks, 544 GT clocks on 64 EUs. */
    mix_walker(f, 32, 64);
    fake_host_step(f->fh, 100);
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, t);
    g_assert_cmpuint(e->in_flight.end_ns, >, f->fh->now_ns);
    mid = (e->in_flight.start_ns + e->in_flight.end_ns) / 2;
    fake_host_step(f->fh, mid - f->fh->now_ns);
    ternary = rd(f, INTEL_OAPERF_A(7));
    any = rd(f, INTEL_OAPERF_A(8));
    g_assert_cmpuint(ternary, >=, half - half / 10);
    g_assert_cmpuint(ternary, <=, half + half / 10);
    g_assert_cmpuint(any, <=, 64 * (intel_gt_clocks_for(
                         f->gpu, mid - e->in_flight.start_ns) + 1));
    while (f->fh->now_ns < e->in_flight.end_ns + 100) {
        fake_host_step(f->fh, 7);
        for (unsigned k = 0; k < 7; k++) {
            uint64_t v = rd(f, INTEL_OAPERF_A(7 + k));

            g_assert_cmpuint(v, >=, last[k]);
            last[k] = v;
        }
    }
    fake_host_step(f->fh, 1000000);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(7)), ==, MIX_TERNARY * t);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(8)), ==, MIX_ANY * t);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(9)), ==, (MIX_LOADED - MIX_ANY) * t);
}

/* A send function for threads run outside a pipeline: done at once. */
static int send_done(EuThread *t, const EuInst *inst, uint32_t desc,
                     uint32_t ex_desc, void *opaque)
{
    (*(unsigned *)opaque)++;
    return 0;
}

/*
 * A pixel-shader thread run as render.c runs them (intel_gfx_thread_run
 * with the PS fixed function): three messages, two of them mid-kernel;
 * the PS filter passes its events, the VS and TS filters do not.
 */
static void test_ps_thread(Fixture *f, gconstpointer data)
{
    const EuNative k[] = {
        asm_send(8, 20, 2, EU_SFID_DP_RENDER, 0x02000000, false),
        asm_3src(EU_OP_MAD, 16, true, 1, 6, 4, 2, 8),
        asm_op(EU_OP_MUL, 16, D(10, 0, EU_TYPE_F), G(2, 0, EU_TYPE_F, R_8_8_1),
               G(4, 0, EU_TYPE_F, R_8_8_1)),
        asm_math(EU_MATH_SQRT, 16, D(12, 0, EU_TYPE_F),
                 G(2, 0, EU_TYPE_F, R_8_8_1), NUL),
        asm_send(8, 20, 2, EU_SFID_DP_RENDER, 0x02000000, false),
        asm_send(8, 0, 2, EU_SFID_DP_RENDER, 0x02000000, true),
    };
    /*
     * Selections and their counts; the last three are filters the PRM
     * does not support with the event, which count nothing.
     */
    static const uint16_t filtered[][2] = {
        { SEL(2, 5, 0), 3 },            /* PS: send pipe */
        { SEL(0, 5, 2), 1 },            /* PS: FPU0 ternary */
        { SEL(1, 5, 0), 1 },            /* PS: FPU1 */
        { SEL(0, 1, 0), 0 },            /* VS: FPU0 */
        { SEL(0, 6, 0), 0 },            /* TS: FPU0 */
        { SEL(4, 0, 0), 6 },            /* some pipe */
        { SEL(5, 0, 0), 0 },            /* stall */
        { SEL(4, 0, 2), 0 },            /* some pipe, ternary */
        { SEL(0, 0, 5), 0 },            /* FPU0, send start */
        { SEL(4, 5, 0), 0 },            /* PS: some pipe */
    };
    IntelEngine *e = eng(f, RCS);
    uint8_t code[sizeof(k) * 2];
    EuThread *t = g_new0(EuThread, 1);
    unsigned sends = 0;
    const uint64_t *ev = e->stats.eu_ev[INTEL_EU_PS];

    asm_emit(code, k, G_N_ELEMENTS(k));
    eu_thread_init(t, code, 16 * G_N_ELEMENTS(k), 0xffff, send_done,
                   &sends);
    g_assert_cmpint(intel_gfx_thread_run(e, t, INTEL_EU_PS, 100), ==,
                    EU_DONE);
    g_assert_cmpuint(sends, ==, 3);
    g_assert_cmpuint(t->retired, ==, 6);
    g_assert_cmpuint(t->ev_clocks[EU_EVC_SEND], ==, 3);
    g_assert_cmpuint(t->ev_clocks[EU_EVC_FPU0 + EU_EVK_TERNARY], ==, 1);
    g_assert_cmpuint(t->ev_clocks[EU_EVC_FPU0 + EU_EVK_BINARY], ==, 1);
    g_assert_cmpuint(t->ev_clocks[EU_EVC_FPU1 + EU_EVK_OTHER], ==, 1);
    g_assert_cmpuint(e->stats.eu_clocks[INTEL_EU_PS], ==, 6);
    g_assert_cmpuint(ev[INTEL_EU_EV_FPU0], ==, 2);
    g_assert_cmpuint(ev[INTEL_EU_EV_FPU1], ==, 1);
    g_assert_cmpuint(ev[INTEL_EU_EV_FPU1 + 3], ==, 0);      /* binary */
    g_assert_cmpuint(ev[INTEL_EU_EV_SEND], ==, 3);
    g_assert_cmpuint(ev[INTEL_EU_EV_SEND_START], ==, 3);
    g_assert_cmpuint(ev[INTEL_EU_EV_FPU_BOTH], ==, 0);

    /* Through the filters, as A7-A20 count. */
    for (unsigned i = 0; i < G_N_ELEMENTS(filtered); i++) {
        g_test_message("selection 0x%03x", filtered[i][0]);
        g_assert_cmpuint(intel_eu_flex_count(filtered[i][0],
                                             e->stats.eu_clocks,
                                             e->stats.eu_ev), ==,
                         filtered[i][1]);
    }
    g_free(t);
}

/*
 * Walkers before any interface descriptor still dispatch the synthetic
 * kernel: 64 threads of 64 clocks, 48 of some pipe and 16 stalled each.
 */
static void test_synthetic_walker(Fixture *f, gconstpointer data)
{
    const uint16_t sel[14] = { SEL(4, 0, 0), SEL(5, 0, 0), SEL(3, 0, 0) };
    uint32_t cmds[WALKER_DWORDS + 1], *p = pack_walker(cmds, 1, 8, 8);

    *p++ = MI_BATCH_BUFFER_END;
    flex_select(f, sel);
    oa_open(f, 16);
    run_batch(f, cmds, p - cmds);
    fake_host_step(f->fh, 1000000);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(7)), ==, 64 * 48);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(8)), ==, 64 * 16);
    g_assert_cmpuint(rd(f, INTEL_OAPERF_A(9)), ==, 64 * 8);
}

static const FixtureTest tests[] = {
    { "/intel-eu-events/walker-mix", test_walker_mix },
    { "/intel-eu-events/walker-pacing", test_walker_pacing },
    { "/intel-eu-events/ps-thread", test_ps_thread },
    { "/intel-eu-events/synthetic-walker", test_synthetic_walker },
};

FIXTURE_MAIN(fixture_setup_ggtt)
