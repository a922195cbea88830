/*
 * make bench: speed of the Gen11 EU interpreter (eu_run) on SIMD16
 * kernels, each next to a plain C loop doing the same arithmetic on the
 * same data in the same run, so the ratio compares across machines.
 * The retired-instruction count and the results are checked, so a
 * broken kernel cannot silently measure nothing.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include "eu-asm.h"

#define UD EU_TYPE_UD
#define SD EU_TYPE_D
#define FT EU_TYPE_F
#define LANES 16
#define ITERS 100000u           /* loop trips per run */

/* Registers of the kernels (each SIMD16 32-bit operand spans two). */
#define R_CNT   2
#define R_FADD  10
#define R_FMUL  12
#define R_FMAD  14
#define R_FB    20
#define R_FC    22
#define R_FD    24
#define R_IADD  30
#define R_IMUL  32
#define R_IB    40
#define R_IC    42
#define R_MSG   50

/* The data both sides start from. */
typedef struct Data {
    float fadd[LANES], fmul[LANES], fmad[LANES];
    float fb[LANES], fc[LANES], fd[LANES];
    int32_t iadd[LANES], imul[LANES], ib[LANES], ic[LANES];
} Data;

static void data_init(Data *d)
{
    for (int l = 0; l < LANES; l++) {
        d->fadd[l] = l;
        d->fmul[l] = 1.0f;
        d->fmad[l] = 0.0f;
        d->fb[l] = 0.25f + l / 64.0f;
        d->fc[l] = 1.0f - l * 1e-6f;
        d->fd[l] = 0.5f;
        d->iadd[l] = l;
        d->imul[l] = l | 1;
        d->ib[l] = 3 * l + 7;
        d->ic[l] = 2 * l + 3;   /* odd: the product never becomes 0 */
    }
}

static void grf_put(EuThread *t, unsigned nr, const void *v)
{
    memcpy(t->grf + nr * EU_GRF_BYTES, v, LANES * 4);
}

static void grf_get(const EuThread *t, unsigned nr, void *v)
{
    memcpy(v, t->grf + nr * EU_GRF_BYTES, LANES * 4);
}

#define SRC(nr, t) G(nr, 0, t, R_8_8_1)
#define EOT asm_send(8, 127, 127, EU_SFID_THREAD_SPAWNER, 0x02000010, true)

#define KERNEL_MAX 16

/*
 * Copy a loop body to p and append the tail: count, compare, (f0.0)
 * while back to the top, then the EOT.  Returns the instruction count.
 */
static size_t loop_kernel(EuNative *p, const EuNative *body, size_t n)
{
    g_assert(n + 4 <= KERNEL_MAX);
    memcpy(p, body, n * sizeof(*body));
    p[n] = asm_op(EU_OP_ADD, LANES, D(R_CNT, 0, SD), SRC(R_CNT, SD),
                  IMM(SD, 1));
    p[n + 1] = asm_cond(asm_op(EU_OP_CMP, LANES, NUL, SRC(R_CNT, SD),
                               IMM(SD, ITERS)), EU_COND_L, 0);
    p[n + 2] = asm_pred(asm_flow(EU_OP_WHILE, LANES, -(int)(n + 2) * 16, 0),
                        EU_PRED_NORMAL, false, 0);
    p[n + 3] = EOT;
    return n + 4;
}

#define LOOP_KERNEL(p, ...) \
    loop_kernel((p), (const EuNative[]){ __VA_ARGS__ }, \
                sizeof((const EuNative[]){ __VA_ARGS__ }) / sizeof(EuNative))

/* Five ALU operations plus the tail: 8 instructions a trip. */
static size_t alu_kernel(EuNative *p)
{
    return LOOP_KERNEL(p,
        asm_op(EU_OP_ADD, LANES, D(R_FADD, 0, FT), SRC(R_FADD, FT),
               SRC(R_FB, FT)),
        asm_op(EU_OP_MUL, LANES, D(R_FMUL, 0, FT), SRC(R_FMUL, FT),
               SRC(R_FC, FT)),
        asm_3src(EU_OP_MAD, LANES, true, 1, R_FMAD, R_FMAD, R_FMUL, R_FD),
        asm_op(EU_OP_ADD, LANES, D(R_IADD, 0, SD), SRC(R_IADD, SD),
               SRC(R_IB, SD)),
        asm_op(EU_OP_MUL, LANES, D(R_IMUL, 0, SD), SRC(R_IMUL, SD),
               SRC(R_IC, SD)));
}
#define ALU_BODY 8u
#define ALU_OPS 7u              /* channel-wide ops a trip: 5 + add + cmp */

/* A send that completes at once, one float add, and the tail. */
static size_t send_kernel(EuNative *p)
{
    return LOOP_KERNEL(p,
        asm_send(LANES, R_MSG, R_MSG, EU_SFID_DP_DATA1, 0x040a8000, false),
        asm_op(EU_OP_ADD, LANES, D(R_FADD, 0, FT), SRC(R_FADD, FT),
               SRC(R_FB, FT)));
}
#define SEND_BODY 5u
#define SEND_OPS 4u             /* send, add, add, cmp */

static uint8_t code[KERNEL_MAX * 16];
static EuProgram *program;
static unsigned sends;

/* A shared function that does nothing and completes at once. */
static int noop_send(EuThread *t, const EuInst *in, uint32_t desc,
                     uint32_t ex_desc, void *opaque)
{
    sends++;
    return 0;
}

static void (*volatile c_send)(void);

static void __attribute__((noinline)) c_noop(void)
{
    sends++;
}

static double now(void)
{
    return g_get_monotonic_time() / 1e6;
}

/* Run a kernel on fresh data; seconds taken, t left for checking. */
static double eu_time(EuThread *t, size_t (*kernel)(EuNative *),
                      const Data *d)
{
    EuNative prog[KERNEL_MAX];
    size_t n = kernel(prog);
    double t0;

    asm_emit(code, prog, n);
    /* As the pipelines run kernels: from a shared program. */
    eu_program_unref(program);
    program = eu_program_new(code, n * 16);
    eu_thread_init_program(t, program, 0xffff, noop_send, NULL);
    grf_put(t, R_FADD, d->fadd);
    grf_put(t, R_FMUL, d->fmul);
    grf_put(t, R_FMAD, d->fmad);
    grf_put(t, R_FB, d->fb);
    grf_put(t, R_FC, d->fc);
    grf_put(t, R_FD, d->fd);
    grf_put(t, R_IADD, d->iadd);
    grf_put(t, R_IMUL, d->imul);
    grf_put(t, R_IB, d->ib);
    grf_put(t, R_IC, d->ic);
    sends = 0;
    t0 = now();
    eu_run(t, UINT64_MAX);
    return now() - t0;
}

static double c_alu(Data *d)
{
    double t0 = now();

    for (unsigned i = 0; i < ITERS; i++) {
        for (int l = 0; l < LANES; l++) {
            d->fadd[l] += d->fb[l];
            d->fmul[l] *= d->fc[l];
            d->fmad[l] += d->fmul[l] * d->fd[l];
            d->iadd[l] = (uint32_t)d->iadd[l] + (uint32_t)d->ib[l];
            d->imul[l] = (uint32_t)d->imul[l] * (uint32_t)d->ic[l];
        }
        __asm__ volatile("" : : "r"(d) : "memory");
    }
    return now() - t0;
}

static double c_send_loop(Data *d)
{
    double t0 = now();

    for (unsigned i = 0; i < ITERS; i++) {
        c_send();
        for (int l = 0; l < LANES; l++) {
            d->fadd[l] += d->fb[l];
        }
    }
    return now() - t0;
}

static void check_floats(const EuThread *t, unsigned nr, const float *want)
{
    float got[LANES];

    grf_get(t, nr, got);
    for (int l = 0; l < LANES; l++) {
        /* mad may round once where C rounds twice, or the reverse */
        g_assert_cmpfloat(fabsf(got[l] - want[l]), <=,
                          fabsf(want[l]) * 1e-4f + 1e-6f);
    }
}

static void check_ints(const EuThread *t, unsigned nr, const int32_t *want)
{
    int32_t got[LANES];

    grf_get(t, nr, got);
    for (int l = 0; l < LANES; l++) {
        g_assert_cmpint(got[l], ==, want[l]);
    }
}

static void check_run(const EuThread *t, unsigned body)
{
    int32_t cnt[LANES];

    g_assert_cmpint(t->status, ==, EU_DONE);
    g_assert_cmpuint(t->retired, ==, (uint64_t)ITERS * body + 1);
    grf_get(t, R_CNT, cnt);
    for (int l = 0; l < LANES; l++) {
        g_assert_cmpint(cnt[l], ==, ITERS);
    }
}

static void report(const char *what, uint64_t insts, uint64_t chan_ops,
                   double eu, double c)
{
    printf("  %-22s %7.2f M EU inst/s  %8.2f M chan-op/s  "
           "%6.1fx plain C\n", what, insts / eu / 1e6, chan_ops / eu / 1e6,
           eu / c);
}

static void bench_alu(EuThread *t)
{
    double eu = 1e9, c = 1e9;
    Data init, want;

    data_init(&init);
    for (int r = 0; r < 3; r++) {
        /* MIN evaluates its arguments twice: time first */
        double e = eu_time(t, alu_kernel, &init), p;

        want = init;
        p = c_alu(&want);
        eu = MIN(eu, e);
        c = MIN(c, p);
    }
    check_run(t, ALU_BODY);
    check_floats(t, R_FADD, want.fadd);
    check_floats(t, R_FMUL, want.fmul);
    check_floats(t, R_FMAD, want.fmad);
    check_ints(t, R_IADD, want.iadd);
    check_ints(t, R_IMUL, want.imul);
    report("SIMD16 add/mul/mad", t->retired,
           (uint64_t)ITERS * ALU_OPS * LANES, eu, c);
}

static void bench_send(EuThread *t)
{
    double eu = 1e9, c = 1e9;
    Data init, want;

    data_init(&init);
    c_send = c_noop;
    for (int r = 0; r < 3; r++) {
        double e = eu_time(t, send_kernel, &init), p;

        g_assert_cmpuint(sends, ==, ITERS + 1);    /* and the EOT */
        want = init;
        sends = 0;
        p = c_send_loop(&want);
        g_assert_cmpuint(sends, ==, ITERS);
        eu = MIN(eu, e);
        c = MIN(c, p);
    }
    check_run(t, SEND_BODY);
    check_floats(t, R_FADD, want.fadd);
    report("SIMD16 send + add", t->retired,
           (uint64_t)ITERS * SEND_OPS * LANES, eu, c);
}

/* IGT's render copy pixel shader (eu-asm.h igt_ps_kernel_gen11): 8
 * mads through acc0, a sampler send, 4 movs and the render-target write
 * with EOT. */
#define PS_THREADS 65536u       /* a 1024x1024 copy in SIMD16 threads */

/* The sampler returns u in r and v in g; the RT write does nothing. */
static int ps_send(EuThread *t, const EuInst *in, uint32_t desc,
                   uint32_t ex_desc, void *opaque)
{
    if (in->sfid == EU_SFID_SAMPLER) {
        uint8_t *m = t->grf + in->src[0].nr * EU_GRF_BYTES;
        uint8_t *d = t->grf + in->dst.nr * EU_GRF_BYTES;

        memcpy(d, m, 4 * EU_GRF_BYTES);
    }
    sends++;
    return 0;
}

/*
 * Many short threads of one kernel, as the pipelines dispatch them: one
 * EuProgram, and per thread eu_thread_init_program(), a PS payload
 * (barycentrics in r2-r5, plane constants in r6) and eu_run() to EOT.
 */
static void bench_ps_threads(EuThread *t)
{
    uint8_t bytes[sizeof(igt_ps_kernel_gen11)];
    double best = 1e9;
    uint64_t retired = 0;

    asm_kernel_bytes(bytes, igt_ps_kernel_gen11,
                     G_N_ELEMENTS(igt_ps_kernel_gen11));
    for (int r = 0; r < 3; r++) {
        EuProgram *p = eu_program_new(bytes, sizeof(bytes));
        double t0 = now();

        sends = 0;
        retired = 0;
        for (unsigned n = 0; n < PS_THREADS; n++) {
            float bary[4][8], plane[8] = {
                1.0f / 1024, 0, 0, (n % 64) * 16.0f / 1024,
                0, 1.0f / 1024, 0, (n / 64) / 1024.0f,
            };

            eu_thread_init_program(t, p, 0xffff, ps_send, NULL);
            for (int c = 0; c < 8; c++) {
                bary[0][c] = bary[2][c] = c;
                bary[1][c] = bary[3][c] = c & 1;
            }
            memcpy(t->grf + 2 * EU_GRF_BYTES, bary, sizeof(bary));
            memcpy(t->grf + 6 * EU_GRF_BYTES, plane, sizeof(plane));
            if (eu_run(t, 100) != EU_DONE) {
                g_error("ps thread %u: %s", n, t->fault);
            }
            retired += t->retired;
        }
        t0 = now() - t0;            /* once: MIN() evaluates twice */
        best = MIN(best, t0);
        g_assert_cmpuint(sends, ==, 2 * PS_THREADS);
        eu_program_unref(p);
    }
    g_assert_cmpuint(retired, ==, (uint64_t)PS_THREADS *
                                  G_N_ELEMENTS(igt_ps_kernel_gen11));
    printf("  %-22s %7.2f M EU inst/s  %8.2f M threads/s "
           "(%u threads of %zu)\n", "ps_kernel_gen11 threads",
           retired / best / 1e6, PS_THREADS / best / 1e6, PS_THREADS,
           G_N_ELEMENTS(igt_ps_kernel_gen11));
}

/* With arguments, only the benchmarks named (alu, send, ps). */
static bool wanted(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], name)) {
            return true;
        }
    }
    return argc < 2;
}

int main(int argc, char **argv)
{
    EuThread *t = g_new0(EuThread, 1);

    printf("intel-gpu EU interpreter, %u loop trips, best of 3:\n", ITERS);
    if (wanted(argc, argv, "alu")) {
        bench_alu(t);
    }
    if (wanted(argc, argv, "send")) {
        bench_send(t);
    }
    if (wanted(argc, argv, "ps")) {
        bench_ps_threads(t);
    }
    eu_program_unref(program);
    g_free(t);
    return 0;
}
