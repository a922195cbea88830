/*
 * Unit tests of the Gen11 EU interpreter (hw/gpumodel/intel/eu-exec.c):
 * hand-assembled kernels checked against results computed by hand from
 * the instruction pages of Intel Graphics PRM Vol 2 (Command Reference:
 * Instructions, EU ISA) and the region and flow-control rules of Vol 4
 * (Execution Unit ISA).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "eu-asm.h"

#define UD EU_TYPE_UD
#define SD EU_TYPE_D
#define UW EU_TYPE_UW
#define SW EU_TYPE_W
#define UB EU_TYPE_UB
#define FT EU_TYPE_F
#define HF EU_TYPE_HF

static uint8_t code[64 * 16];

typedef struct SendLog {
    unsigned calls;
    uint32_t desc, ex_desc;
    unsigned sfid;
    int ret;
} SendLog;

static int fake_send(EuThread *t, const EuInst *in, uint32_t desc,
                     uint32_t ex_desc, void *opaque)
{
    SendLog *l = opaque;

    l->calls++;
    l->desc = desc;
    l->ex_desc = ex_desc;
    l->sfid = in->sfid;
    return l->ret;
}

static EuThread *thread_for(const EuNative *prog, size_t n, uint32_t mask,
                            SendLog *log)
{
    EuThread *t = g_new0(EuThread, 1);

    asm_emit(code, prog, n);
    eu_thread_init(t, code, n * 16, mask, fake_send, log);
    return t;
}

/* Run a program ended by an EOT send; assert it finishes. */
static EuThread *run(const EuNative *prog, size_t n, uint32_t mask)
{
    static SendLog log;
    EuThread *t = thread_for(prog, n, mask, &log);

    eu_run(t, 1000);
    if (t->status != EU_DONE) {
        g_test_message("fault at 0x%x: %s", t->ip, t->fault);
    }
    g_assert_cmpint(t->status, ==, EU_DONE);
    return t;
}

#define EOT asm_send(8, 127, 127, EU_SFID_THREAD_SPAWNER, 0x02000010, true)
#define RUN(mask, ...) \
    run((const EuNative[]){ __VA_ARGS__, EOT }, \
        sizeof((const EuNative[]){ __VA_ARGS__, EOT }) / sizeof(EuNative), \
        (mask))

static uint32_t ud(EuThread *t, unsigned reg, unsigned i)
{
    uint32_t v;

    memcpy(&v, t->grf + reg * 32 + i * 4, 4);
    return GUINT32_FROM_LE(v);
}

static float fl(EuThread *t, unsigned reg, unsigned i)
{
    uint32_t u = ud(t, reg, i);
    float f;

    memcpy(&f, &u, 4);
    return f;
}

/* Kernels that first fill g2 with 0..7 (mov(8) g2<1>UD 0x76543210UV). */
#define IOTA(r) asm_1(EU_OP_MOV, 8, D(r, 0, UD), IMM(EU_TYPE_UB, 0x76543210))

static void test_mov_regions(void)
{
    AOp dst5 = { .file = EU_FILE_GRF, .type = UD, .nr = 5, .hs = 2 };
    EuThread *t = RUN(0xff,
        IOTA(2),
        /* scalar <0;1,0>: g3 = g2.5 */
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), G(2, 20, UD, R_0_1_0)),
        /* <4;4,1> on words: g4.w = w[0..3], w[4..7] of g2 (low halves) */
        asm_1(EU_OP_MOV, 8, D(4, 0, UD), G(2, 0, UW, R_16_8_2)),
        /* strided destination: g5 every other dword gets 0..3 */
        asm_1(EU_OP_MOV, 4, dst5, G(2, 0, UD, R_4_4_1)),
        /* V immediate: signed nibbles */
        asm_1(EU_OP_MOV, 8, D(6, 0, SD), IMM(EU_TYPE_B, 0x0000f8e1)));

    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmpuint(ud(t, 2, i), ==, i);
        g_assert_cmpuint(ud(t, 3, i), ==, 5);
        /* <16;8,2>UW reads the low word of each dword: 0..7 */
        g_assert_cmpuint(ud(t, 4, i), ==, i);
    }
    g_assert_cmpuint(ud(t, 5, 0), ==, 0);
    g_assert_cmpuint(ud(t, 5, 1), ==, 0);
    g_assert_cmpuint(ud(t, 5, 2), ==, 1);
    g_assert_cmpuint(ud(t, 5, 6), ==, 3);
    g_assert_cmpint((int32_t)ud(t, 6, 0), ==, 1);
    g_assert_cmpint((int32_t)ud(t, 6, 1), ==, -2);     /* 0xe */
    g_assert_cmpint((int32_t)ud(t, 6, 2), ==, -8);     /* 0x8 */
    g_assert_cmpint((int32_t)ud(t, 6, 3), ==, -1);     /* 0xf */
    g_free(t);
}

/* SIMD32 and quarter control: channel n of the instruction is bit
 * (quarter * 8 + n) of the dispatch mask. */
static void test_simd32_and_quarters(void)
{
    EuNative q2 = asm_1(EU_OP_MOV, 8, D(10, 0, UD), IMM(UD, 7));
    EuThread *t;

    EU_SET(&q2, EU_QTR_CTRL, 1);
    t = RUN(0x80000301u,
        asm_1(EU_OP_MOV, 32, D(2, 0, UD), IMM(UD, 9)),
        q2);

    for (unsigned i = 0; i < 32; i++) {
        bool on = (0x80000301u >> i) & 1;

        g_assert_cmpuint(ud(t, 2 + i / 8, i % 8), ==, on ? 9 : 0);
    }
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmpuint(ud(t, 10, i), ==, i < 2 ? 7 : 0);
    }
    g_free(t);
}

static void test_indirect(void)
{
    AOp ind = { .file = EU_FILE_GRF, .type = UD, .ind = true, .a_sub = 0,
                .a_imm = 8, .vs = 4, .w = 3, .hs = 1 };
    AOp a0 = { .file = EU_FILE_ARF, .type = UW, .nr = EU_ARF_ADDRESS,
               .hs = 1 };
    EuThread *t = RUN(0xff,
        IOTA(2),
        /* a0.0 = 64 (g2), src g[a0.0 + 8]<8;8,1>: g2.2 .. g3.1 */
        asm_1(EU_OP_MOV, 1, a0, IMM(UW, 64)),
        asm_1(EU_OP_MOV, 8, D(7, 0, UD), ind));

    g_assert_cmpuint(ud(t, 7, 0), ==, 2);
    g_assert_cmpuint(ud(t, 7, 5), ==, 7);
    g_assert_cmpuint(ud(t, 7, 6), ==, 0);              /* g3 is zero */
    g_free(t);

    /* VxH with width 1: channel n reads at a0.n + 4, here g2.(7 - n). */
    ind.vs = EU_VSTRIDE_VXH;
    ind.w = 0;
    ind.hs = 0;
    ind.a_imm = 4;
    t = RUN(0xff,
        IOTA(2),
        asm_1(EU_OP_MOV, 1, (AOp){ .file = EU_FILE_ARF, .type = UW,
                                   .nr = EU_ARF_ADDRESS, .sub = 0,
                                   .hs = 1 }, IMM(UW, 64 + 24)),
        asm_1(EU_OP_MOV, 1, (AOp){ .file = EU_FILE_ARF, .type = UW,
                                   .nr = EU_ARF_ADDRESS, .sub = 2,
                                   .hs = 1 }, IMM(UW, 64 + 20)),
        asm_1(EU_OP_MOV, 1, (AOp){ .file = EU_FILE_ARF, .type = UW,
                                   .nr = EU_ARF_ADDRESS, .sub = 4,
                                   .hs = 1 }, IMM(UW, 64 + 16)),
        asm_1(EU_OP_MOV, 1, (AOp){ .file = EU_FILE_ARF, .type = UW,
                                   .nr = EU_ARF_ADDRESS, .sub = 6,
                                   .hs = 1 }, IMM(UW, 64 + 12)),
        asm_1(EU_OP_MOV, 4, D(8, 0, UD), ind));
    for (unsigned i = 0; i < 4; i++) {
        g_assert_cmpuint(ud(t, 8, i), ==, 7 - i);
    }
    g_free(t);
}

static void count_log(void *opaque, GpuLogKind kind, const char *msg)
{
    g_assert_cmpint(kind, ==, GPU_LOG_GUEST_ERROR);
    g_assert_nonnull(strstr(msg, "register access out of range"));
    (*(unsigned *)opaque)++;
}

static void test_out_of_range_faults(void)
{
    static const GpuHostOps log_ops = { .log = count_log };
    unsigned logged = 0;
    const GpuHost host = { .ops = &log_ops, .opaque = &logged };
    AOp ind = { .file = EU_FILE_GRF, .type = UD, .ind = true, .a_sub = 0,
                .a_imm = 0, .vs = 4, .w = 3, .hs = 1 };
    AOp a0 = { .file = EU_FILE_ARF, .type = UW, .nr = EU_ARF_ADDRESS,
               .hs = 1 };
    const EuNative prog[] = {
        asm_1(EU_OP_MOV, 1, a0, IMM(UW, 4090)),
        asm_1(EU_OP_MOV, 8, D(7, 0, UD), ind),
        EOT,
    };
    const EuNative wide[] = {
        /* g127 with a <8;8,1> source of 16 dwords runs off the GRF */
        asm_1(EU_OP_MOV, 16, D(7, 0, UD), G(127, 0, UD, R_8_8_1)),
        EOT,
    };
    SendLog log = { 0 };
    EuThread *t = thread_for(prog, 3, 0xff, &log);

    t->host = &host;
    g_assert_cmpint(eu_run(t, 100), ==, EU_FAULT);
    g_assert_nonnull(t->fault);
    g_assert_cmpuint(t->ip, ==, 16);
    g_assert_cmpuint(log.calls, ==, 0);
    g_assert_cmpuint(logged, ==, 1);
    g_assert_cmpint(eu_run(t, 100), ==, EU_FAULT);     /* stays faulted */
    g_assert_cmpuint(logged, ==, 1);
    g_free(t);
    t = thread_for(wide, 2, 0xffff, &log);
    g_assert_cmpint(eu_run(t, 100), ==, EU_FAULT);
    g_free(t);
}

static void test_int_alu(void)
{
    EuThread *t = RUN(0xff,
        IOTA(2),
        asm_op(EU_OP_ADD, 8, D(3, 0, SD), G(2, 0, SD, R_8_8_1),
               IMM(SD, (uint32_t)-3)),
        asm_op(EU_OP_MUL, 8, D(4, 0, UD), G(2, 0, UD, R_8_8_1),
               IMM(UW, 1000)),
        asm_op(EU_OP_SHL, 1, D(5, 0, UD), G(2, 4, UD, R_0_1_0), IMM(UD, 33)),
        asm_op(EU_OP_ASR, 1, D(5, 4, SD), G(3, 0, SD, R_0_1_0), IMM(UD, 1)),
        asm_op(EU_OP_SHR, 1, D(5, 8, UD), G(3, 0, UD, R_0_1_0), IMM(UD, 28)),
        asm_op(EU_OP_AND, 1, D(5, 12, UD), G(3, 0, UD, R_0_1_0),
               IMM(UD, 0xff)),
        asm_op(EU_OP_XOR, 1, D(5, 16, UD), G(2, 28, UD, R_0_1_0),
               IMM(UD, 0xf0)),
        asm_1(EU_OP_NOT, 1, D(5, 20, UD), G(2, 0, UD, R_0_1_0)),
        asm_op(EU_OP_AVG, 1, D(5, 24, SD), G(2, 12, SD, R_0_1_0),
               IMM(SD, 4)),
        asm_op(EU_OP_OR, 1, D(5, 28, UD), G(2, 4, UD, R_0_1_0),
               IMM(UD, 0x100)),
        /* bit ops on 0x00f0 0000 */
        asm_1(EU_OP_LZD, 1, D(6, 0, UD), IMM(UD, 0x00f00000)),
        asm_1(EU_OP_FBL, 1, D(6, 4, UD), IMM(UD, 0x00f00000)),
        asm_1(EU_OP_FBH, 1, D(6, 8, UD), IMM(UD, 0x00f00000)),
        asm_1(EU_OP_FBH, 1, D(6, 12, UD), IMM(SD, 0xfff0ffff)),
        asm_1(EU_OP_CBIT, 1, D(6, 16, UD), IMM(UD, 0x00f00001)),
        asm_1(EU_OP_BFREV, 1, D(6, 20, UD), IMM(UD, 0x00000003)),
        asm_1(EU_OP_FBL, 1, D(6, 24, UD), IMM(UD, 0)),
        /* 0x80000000 * 6 = 3 << 32: mach gives the high half */
        asm_op(EU_OP_MACH, 1, D(6, 28, UD), G(6, 20, UD, R_0_1_0),
               IMM(UD, 6)));

    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmpint((int32_t)ud(t, 3, i), ==, (int)i - 3);
        g_assert_cmpuint(ud(t, 4, i), ==, i * 1000);
    }
    g_assert_cmpuint(ud(t, 5, 0), ==, 2);          /* 1 << (33 & 31) */
    g_assert_cmpuint(ud(t, 5, 1), ==, 0xfffffffe); /* -3 >> 1 */
    g_assert_cmpuint(ud(t, 5, 2), ==, 0xf);        /* 0xfffffffd >> 28 */
    g_assert_cmpuint(ud(t, 5, 3), ==, 0xfd);
    g_assert_cmpuint(ud(t, 5, 4), ==, 0xf7);
    g_assert_cmpuint(ud(t, 5, 5), ==, 0xffffffff);
    g_assert_cmpuint(ud(t, 5, 6), ==, 4);          /* (3 + 4 + 1) >> 1 */
    g_assert_cmpuint(ud(t, 5, 7), ==, 0x101);
    g_assert_cmpuint(ud(t, 6, 0), ==, 8);
    g_assert_cmpuint(ud(t, 6, 1), ==, 20);
    g_assert_cmpuint(ud(t, 6, 2), ==, 8);
    g_assert_cmpuint(ud(t, 6, 3), ==, 12);         /* first 0 after sign */
    g_assert_cmpuint(ud(t, 6, 4), ==, 5);
    g_assert_cmpuint(ud(t, 6, 5), ==, 0xc0000000);
    g_assert_cmpuint(ud(t, 6, 6), ==, 0xffffffff);
    g_assert_cmpuint(ud(t, 6, 7), ==, 4);          /* 0xc0000000*6 >> 32 */
    g_free(t);
}

static void test_float_and_conversions(void)
{
    EuThread *t = RUN(0xff,
        asm_1(EU_OP_MOV, 1, D(2, 0, FT), IMM(FT, asm_f(-2.75f))),
        asm_1(EU_OP_MOV, 1, D(2, 4, FT), IMM(FT, asm_f(3.5f))),
        asm_1(EU_OP_MOV, 1, D(2, 8, FT), IMM(FT, asm_f(3e10f))),
        /* float -> int: toward zero, saturating, NaN -> 0 */
        asm_1(EU_OP_MOV, 1, D(3, 0, SD), G(2, 0, FT, R_0_1_0)),
        asm_1(EU_OP_MOV, 1, D(3, 4, SD), G(2, 8, FT, R_0_1_0)),
        asm_1(EU_OP_MOV, 1, D(3, 8, UB), G(2, 4, FT, R_0_1_0)),
        asm_1(EU_OP_MOV, 1, D(3, 12, UD), G(2, 0, FT, R_0_1_0)),
        asm_1(EU_OP_MOV, 1, D(3, 16, SD), IMM(FT, 0x7fc00000)),
        /* int -> float, int saturate, float saturate */
        asm_1(EU_OP_MOV, 1, D(4, 0, FT), IMM(SD, (uint32_t)-7)),
        asm_sat(asm_1(EU_OP_MOV, 1, D(4, 4, UW), IMM(SD, 70000))),
        asm_sat(asm_1(EU_OP_MOV, 1, D(4, 8, FT), G(2, 4, FT, R_0_1_0))),
        asm_sat(asm_1(EU_OP_MOV, 1, D(4, 12, FT), G(2, 0, FT, R_0_1_0))),
        /* rounding */
        asm_1(EU_OP_RNDD, 1, D(5, 0, FT), G(2, 0, FT, R_0_1_0)),
        asm_1(EU_OP_RNDZ, 1, D(5, 4, FT), G(2, 0, FT, R_0_1_0)),
        asm_1(EU_OP_RNDE, 1, D(5, 8, FT), G(2, 4, FT, R_0_1_0)),
        asm_1(EU_OP_FRC, 1, D(5, 12, FT), G(2, 0, FT, R_0_1_0)),
        asm_op(EU_OP_ADD, 1, D(5, 16, FT), G(2, 0, FT, R_0_1_0),
               IMM(FT, asm_f(0.25f))),
        asm_op(EU_OP_MUL, 1, D(5, 20, FT), G(2, 4, FT, R_0_1_0),
               IMM(FT, asm_f(-2.0f))),
        /* half float round trip: 3.5 -> 0x4300 */
        asm_1(EU_OP_MOV, 1, D(6, 0, HF), G(2, 4, FT, R_0_1_0)),
        asm_1(EU_OP_MOV, 1, D(6, 4, FT), G(6, 0, HF, R_0_1_0)),
        /* VF: 0x30 = 1.0, 0x40 = 2.0, 0xb8 = -1.5, 0x00 = 0 */
        asm_1(EU_OP_MOV, 4, D(7, 0, FT), IMM(EU_TYPE_VF, 0x00b84030)));

    g_assert_cmpint((int32_t)ud(t, 3, 0), ==, -2);
    g_assert_cmpint((int32_t)ud(t, 3, 1), ==, INT32_MAX);
    g_assert_cmpuint(ud(t, 3, 2) & 0xff, ==, 3);
    g_assert_cmpuint(ud(t, 3, 3), ==, 0);
    g_assert_cmpuint(ud(t, 3, 4), ==, 0);
    g_assert_cmpfloat(fl(t, 4, 0), ==, -7.0f);
    g_assert_cmpuint(ud(t, 4, 1) & 0xffff, ==, 0xffff);
    g_assert_cmpfloat(fl(t, 4, 2), ==, 1.0f);
    g_assert_cmpfloat(fl(t, 4, 3), ==, 0.0f);
    g_assert_cmpfloat(fl(t, 5, 0), ==, -3.0f);
    g_assert_cmpfloat(fl(t, 5, 1), ==, -2.0f);
    g_assert_cmpfloat(fl(t, 5, 2), ==, 4.0f);      /* 3.5 to even */
    g_assert_cmpfloat(fl(t, 5, 3), ==, 0.25f);
    g_assert_cmpfloat(fl(t, 5, 4), ==, -2.5f);
    g_assert_cmpfloat(fl(t, 5, 5), ==, -7.0f);
    g_assert_cmpuint(ud(t, 6, 0) & 0xffff, ==, 0x4300);
    g_assert_cmpfloat(fl(t, 6, 1), ==, 3.5f);
    g_assert_cmpfloat(fl(t, 7, 0), ==, 1.0f);
    g_assert_cmpfloat(fl(t, 7, 1), ==, 2.0f);
    g_assert_cmpfloat(fl(t, 7, 2), ==, -1.5f);
    g_assert_cmpfloat(fl(t, 7, 3), ==, 0.0f);
    g_free(t);
}

static void test_math(void)
{
#define S(i) G(2, 4 * (i), FT, R_0_1_0)
    EuThread *t = RUN(0xff,
        asm_1(EU_OP_MOV, 1, D(2, 0, FT), IMM(FT, asm_f(4.0f))),
        asm_1(EU_OP_MOV, 1, D(2, 4, FT), IMM(FT, asm_f(16.0f))),
        asm_1(EU_OP_MOV, 1, D(2, 8, FT), IMM(FT, asm_f(3.0f))),
        asm_1(EU_OP_MOV, 1, D(2, 12, FT), IMM(FT, asm_f(32.0f))),
        asm_1(EU_OP_MOV, 1, D(2, 16, FT), IMM(FT, asm_f(2.0f))),
        asm_1(EU_OP_MOV, 1, D(2, 20, FT), IMM(FT, 0)),
        asm_math(EU_MATH_INV, 1, D(3, 0, FT), S(0), NUL),
        asm_math(EU_MATH_SQRT, 1, D(3, 4, FT), S(1), NUL),
        asm_math(EU_MATH_RSQ, 1, D(3, 8, FT), S(0), NUL),
        asm_math(EU_MATH_EXP, 1, D(3, 12, FT), S(2), NUL),
        asm_math(EU_MATH_LOG, 1, D(3, 16, FT), S(3), NUL),
        asm_math(EU_MATH_POW, 1, D(3, 20, FT), S(4), IMM(FT, asm_f(10.0f))),
        asm_math(EU_MATH_SIN, 1, D(3, 24, FT), S(5), NUL),
        asm_math(EU_MATH_COS, 1, D(3, 28, FT), S(5), NUL),
        asm_1(EU_OP_MOV, 1, D(2, 24, SD), IMM(SD, (uint32_t)-17)),
        asm_math(EU_MATH_INT_DIV_Q, 1, D(4, 0, SD), G(2, 24, SD, R_0_1_0),
                 IMM(SD, 5)),
        asm_math(EU_MATH_INT_DIV_R, 1, D(4, 4, SD), G(2, 24, SD, R_0_1_0),
                 IMM(SD, 5)),
        asm_math(EU_MATH_INT_DIV_Q, 1, D(4, 8, UD), G(2, 24, UD, R_0_1_0),
                 IMM(UD, 0)));
#undef S

    g_assert_cmpfloat(fl(t, 3, 0), ==, 0.25f);
    g_assert_cmpfloat(fl(t, 3, 1), ==, 4.0f);
    g_assert_cmpfloat(fl(t, 3, 2), ==, 0.5f);
    g_assert_cmpfloat_with_epsilon(fl(t, 3, 3), 8.0f, 1e-5);
    g_assert_cmpfloat_with_epsilon(fl(t, 3, 4), 5.0f, 1e-5);
    g_assert_cmpfloat_with_epsilon(fl(t, 3, 5), 1024.0f, 1e-3);
    g_assert_cmpfloat(fl(t, 3, 6), ==, 0.0f);
    g_assert_cmpfloat(fl(t, 3, 7), ==, 1.0f);
    g_assert_cmpint((int32_t)ud(t, 4, 0), ==, -3);   /* toward zero */
    g_assert_cmpint((int32_t)ud(t, 4, 1), ==, -2);
    g_assert_cmpuint(ud(t, 4, 2), ==, 0xffffffff);   /* divide by zero */
    g_free(t);
}

/* intdivmod writes the remainder one register after the quotient;
 * invm and rsqrtm give the reciprocal and reciprocal square root. */
static void test_math_macros(void)
{
    EuThread *t = RUN(0xff,
        asm_1(EU_OP_MOV, 1, D(2, 0, SD), IMM(SD, (uint32_t)-17)),
        asm_1(EU_OP_MOV, 1, D(2, 4, UD), IMM(UD, 100)),
        asm_math(EU_MATH_INT_DIV_QR, 1, D(8, 0, SD), G(2, 0, SD, R_0_1_0),
                 IMM(SD, 5)),
        asm_math(EU_MATH_INT_DIV_QR, 1, D(8, 4, UD), G(2, 4, UD, R_0_1_0),
                 IMM(UD, 7)),
        asm_1(EU_OP_MOV, 1, D(3, 0, FT), IMM(FT, asm_f(4.0f))),
        asm_1(EU_OP_MOV, 1, D(3, 4, FT), IMM(FT, asm_f(16.0f))),
        asm_math(EU_MATH_INVM, 1, D(4, 0, FT), G(3, 0, FT, R_0_1_0), NUL),
        asm_math(EU_MATH_RSQRTM, 1, D(4, 4, FT), G(3, 4, FT, R_0_1_0), NUL),
        /* A remainder past g127 faults (checked below on its own). */
        asm_1(EU_OP_MOV, 1, D(5, 0, UD), IMM(UD, 1)));

    g_assert_cmpint((int32_t)ud(t, 8, 0), ==, -3);
    g_assert_cmpint((int32_t)ud(t, 9, 0), ==, -2);
    g_assert_cmpuint(ud(t, 8, 1), ==, 14);
    g_assert_cmpuint(ud(t, 9, 1), ==, 2);
    g_assert_cmpfloat(fl(t, 4, 0), ==, 0.25f);
    g_assert_cmpfloat(fl(t, 4, 1), ==, 0.25f);
    g_free(t);

    {
        static SendLog log;
        EuNative prog[] = {
            asm_math(EU_MATH_INT_DIV_QR, 1, D(127, 0, UD),
                     G(2, 0, UD, R_0_1_0), IMM(UD, 3)),
        };

        t = thread_for(prog, 1, 0xff, &log);
        g_assert_cmpint(eu_run(t, 10), ==, EU_FAULT);
        g_free(t);
    }
}

/*
 * pln/line (plane a, b, -, c in g6) and the dot products over groups of
 * four channels, by hand: x = g10 = 0..7, g11 = 1, g12 = 8..15, g13 = 2.
 */
static void test_pln_line_dp(void)
{
    EuThread *t = RUN(0xffff,
        IOTA(20),
        asm_1(EU_OP_MOV, 8, D(10, 0, FT), G(20, 0, UD, R_8_8_1)),
        asm_1(EU_OP_MOV, 8, D(11, 0, FT), IMM(FT, asm_f(1.0f))),
        asm_op(EU_OP_ADD, 8, D(12, 0, FT), G(10, 0, FT, R_8_8_1),
               IMM(FT, asm_f(8.0f))),
        asm_1(EU_OP_MOV, 8, D(13, 0, FT), IMM(FT, asm_f(2.0f))),
        asm_1(EU_OP_MOV, 1, D(6, 0, FT), IMM(FT, asm_f(2.0f))),
        asm_1(EU_OP_MOV, 1, D(6, 4, FT), IMM(FT, asm_f(3.0f))),
        asm_1(EU_OP_MOV, 1, D(6, 8, FT), IMM(FT, asm_f(99.0f))),
        asm_1(EU_OP_MOV, 1, D(6, 12, FT), IMM(FT, asm_f(0.5f))),
        asm_op(EU_OP_PLN, 16, D(30, 0, FT), G(6, 0, FT, R_0_1_0),
               G(10, 0, FT, R_8_8_1)),
        asm_op(EU_OP_LINE, 8, D(32, 0, FT), G(6, 0, FT, R_0_1_0),
               G(10, 0, FT, R_8_8_1)),
        asm_op(EU_OP_DP4, 8, D(34, 0, FT), G(10, 0, FT, R_8_8_1),
               G(10, 0, FT, R_8_8_1)),
        asm_op(EU_OP_DPH, 8, D(35, 0, FT), G(10, 0, FT, R_8_8_1),
               G(11, 0, FT, R_8_8_1)),
        asm_op(EU_OP_DP3, 8, D(36, 0, FT), G(10, 0, FT, R_8_8_1),
               G(10, 0, FT, R_8_8_1)),
        asm_op(EU_OP_DP2, 8, D(37, 0, FT), G(10, 0, FT, R_8_8_1),
               G(10, 0, FT, R_8_8_1)));

    for (unsigned c = 0; c < 16; c++) {
        float y = c < 8 ? 1.0f : 2.0f;

        g_assert_cmpfloat(fl(t, 30 + c / 8, c % 8), ==,
                          2.0f * c + 3.0f * y + 0.5f);
    }
    for (unsigned c = 0; c < 8; c++) {
        bool lo = c < 4;

        g_assert_cmpfloat(fl(t, 32, c), ==, 2.0f * c + 0.5f);
        g_assert_cmpfloat(fl(t, 34, c), ==, lo ? 14.0f : 126.0f);
        g_assert_cmpfloat(fl(t, 35, c), ==, lo ? 4.0f : 16.0f);
        g_assert_cmpfloat(fl(t, 36, c), ==, lo ? 5.0f : 77.0f);
        g_assert_cmpfloat(fl(t, 37, c), ==, lo ? 1.0f : 41.0f);
    }
    g_free(t);
}

/* goto: the channels whose predicate holds skip to the UIP; when all
 * of them do, the thread jumps to the JIP. */
static void test_goto(void)
{
    EuThread *t = RUN(0xff,
        IOTA(2),                                                    /* 0 */
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 0)),               /* 1 */
        asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(2, 0, UD, R_8_8_1),
                        IMM(UD, 4)), EU_COND_L, 0),                 /* 2 */
        asm_pred(asm_flow(EU_OP_GOTO, 8, 2 * 16, 2 * 16),
                 EU_PRED_NORMAL, false, 0),                         /* 3 */
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 1)),               /* 4 */
        asm_op(EU_OP_ADD, 8, D(4, 0, UD), G(3, 0, UD, R_8_8_1),
               IMM(UD, 10)),                                        /* 5 */
        asm_pred(asm_flow(EU_OP_GOTO, 8, 2 * 16, 2 * 16),
                 EU_PRED_NORMAL, true, 1),                          /* 6 */
        asm_1(EU_OP_MOV, 8, D(5, 0, UD), IMM(UD, 1)));              /* 7 */

    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmpuint(ud(t, 3, c), ==, c < 4 ? 0 : 1);
        g_assert_cmpuint(ud(t, 4, c), ==, c < 4 ? 10 : 11);
        /* f1 is clear: the inverted predicate sends every channel. */
        g_assert_cmpuint(ud(t, 5, c), ==, 0);
    }
    g_free(t);
}

/* calla jumps to an absolute IP saving the return IP and the channel
 * enables; ret restores both (here a mask the subroutine rewrote). */
static void test_calla_ret_mask(void)
{
    EuNative calla = asm_flow(EU_OP_CALLA, 1, 4 * 16, 0);
    EuThread *t;

    EU_SET(&calla, EU_DST_FILE, EU_FILE_GRF);
    EU_SET(&calla, EU_DST_TYPE, EU_TYPE_UD);
    EU_SET(&calla, EU_DST_HSTRIDE, 1);
    EU_SET(&calla, EU_DST_REG_NR, 20);
    t = RUN(0xff,
        IOTA(2),                                                    /* 0 */
        calla,                                                      /* 1 */
        asm_op(EU_OP_ADD, 8, D(5, 0, UD), G(2, 0, UD, R_8_8_1),
               IMM(UD, 100)),                                       /* 2 */
        asm_op(EU_OP_JMPI, 1, NUL, NUL, IMM(SD, 48)),               /* 3 */
        asm_1(EU_OP_MOV, 1, D(21, 0, UD), G(20, 4, UD, R_0_1_0)),   /* 4 */
        asm_1(EU_OP_MOV, 1, D(20, 4, UD), IMM(UD, 0x0f)),           /* 5 */
        asm_1(EU_OP_RET, 1, NUL, G(20, 0, UD, R_0_1_0)));           /* 6 */

    g_assert_cmpuint(ud(t, 20, 0), ==, 2 * 16);
    g_assert_cmpuint(ud(t, 21, 0), ==, 0xff);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmpuint(ud(t, 5, c), ==, c < 4 ? c + 100 : 0);
    }
    g_free(t);
}

/* Opcodes the model does not implement fault the thread, with a
 * reason, rather than guess: smov, brc, brd, and a reserved one. */
static void test_unsupported_fault(void)
{
    static const unsigned ops[] = {
        EU_OP_SMOV, EU_OP_BRC, EU_OP_BRD, EU_OP_MADM, 127, 11,
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(ops); i++) {
        static SendLog log;
        EuNative prog[] = {
            asm_op(ops[i], 8, D(3, 0, UD), G(2, 0, UD, R_8_8_1),
                   G(2, 0, UD, R_8_8_1)),
        };
        EuThread *t = thread_for(prog, 1, 0xff, &log);

        g_assert_cmpint(eu_run(t, 10), ==, EU_FAULT);
        g_assert_nonnull(t->fault);
        g_free(t);
    }
}

static void test_cmp_pred_sel(void)
{
    EuThread *t = RUN(0xff,
        IOTA(2),
        /* cmp.l.f0.0 (8) null g2 4 -> f0.0 = 0x0f */
        asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(2, 0, SD, R_8_8_1),
                        IMM(SD, 4)), EU_COND_L, 0),
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 7)),
        asm_pred(asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 1)),
                 EU_PRED_NORMAL, false, 0),
        asm_pred(asm_1(EU_OP_MOV, 8, D(4, 0, UD), IMM(UD, 9)),
                 EU_PRED_NORMAL, true, 0),
        /* max/min via sel.ge / sel.l against 5 */
        asm_cond(asm_op(EU_OP_SEL, 8, D(5, 0, SD), G(2, 0, SD, R_8_8_1),
                        IMM(SD, 5)), EU_COND_GE, 0),
        asm_cond(asm_op(EU_OP_SEL, 8, D(6, 0, SD), G(2, 0, SD, R_8_8_1),
                        IMM(SD, 5)), EU_COND_L, 0),
        /* predicated sel picks per channel: f0.0 ? g2 : 100 */
        asm_pred(asm_op(EU_OP_SEL, 8, D(7, 0, SD), G(2, 0, SD, R_8_8_1),
                        IMM(SD, 100)), EU_PRED_NORMAL, false, 0),
        /* add.z.f1.0: flags from the result; cmp into a dst gives ~0 */
        asm_cond(asm_op(EU_OP_ADD, 8, D(8, 0, SD), G(2, 0, SD, R_8_8_1),
                        IMM(SD, (uint32_t)-6)), EU_COND_Z, 2),
        asm_cond(asm_op(EU_OP_CMP, 8, D(9, 0, SD), G(2, 0, SD, R_8_8_1),
                        IMM(SD, 2)), EU_COND_GE, 1),
        /* any4h: channel group 0-3 has a flag bit, 4-7 none */
        asm_pred(asm_1(EU_OP_MOV, 8, D(10, 0, UD), IMM(UD, 3)),
                 EU_PRED_ANY4H, false, 0));

    g_assert_cmphex(t->flag[0] & 0xffff, ==, 0x0f);
    g_assert_cmphex(t->flag[1] & 0xffff, ==, 0x40);
    g_assert_cmphex(t->flag[0] >> 16, ==, 0xfc);
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmpuint(ud(t, 3, i), ==, i < 4 ? 1 : 7);
        g_assert_cmpuint(ud(t, 4, i), ==, i < 4 ? 0 : 9);
        g_assert_cmpuint(ud(t, 5, i), ==, MAX(i, 5));
        g_assert_cmpuint(ud(t, 6, i), ==, MIN(i, 5));
        g_assert_cmpuint(ud(t, 7, i), ==, i < 4 ? i : 100);
        g_assert_cmpuint(ud(t, 9, i), ==, i >= 2 ? 0xffffffff : 0);
        g_assert_cmpuint(ud(t, 10, i), ==, i < 4 ? 3 : 0);
    }
    g_free(t);
}

/* Flags see the destination's integer width; a send with every channel
 * predicated off sends nothing. */
static void test_flag_width_and_pred_send(void)
{
    const EuNative prog[] = {
        asm_1(EU_OP_MOV, 1, D(2, 0, UD), IMM(UD, 0xffffffff)),
        asm_cond(asm_op(EU_OP_ADD, 1, D(3, 0, UD), G(2, 0, UD, R_0_1_0),
                        IMM(UD, 1)), EU_COND_Z, 0),
        asm_cond(asm_op(EU_OP_ADD, 1, D(3, 4, SW), G(2, 0, SD, R_0_1_0),
                        IMM(SD, 0x8001)), EU_COND_L, 2),
        asm_pred(asm_send(1, 10, 2, EU_SFID_DP_DATA1, 0x040a8000, false),
                 EU_PRED_NORMAL, true, 0),
        EOT,
    };
    SendLog log = { 0 };
    EuThread *t = thread_for(prog, G_N_ELEMENTS(prog), 0xff, &log);

    g_assert_cmpint(eu_run(t, 100), ==, EU_DONE);
    g_assert_cmpuint(ud(t, 3, 0), ==, 0);
    g_assert_cmphex(t->flag[0] & 1, ==, 1);         /* 2^32 wraps to 0 */
    g_assert_cmphex(t->flag[1] & 1, ==, 1);         /* 0x8000 as W < 0 */
    g_assert_cmpuint(log.calls, ==, 1);             /* only the EOT */
    g_free(t);
}

static void test_exec_mask_and_mad(void)
{
    EuThread *t = RUN(0x5a,
        IOTA(2),
        asm_1(EU_OP_MOV, 8, D(3, 0, FT), G(2, 0, SD, R_8_8_1)),
        asm_1(EU_OP_MOV, 8, D(4, 0, FT), IMM(FT, asm_f(2.0f))),
        asm_1(EU_OP_MOV, 8, D(5, 0, FT), IMM(FT, asm_f(0.5f))),
        /* mad: g6 = g5 + g3 * g4 */
        asm_3src(EU_OP_MAD, 8, true, 1, 6, 5, 3, 4));

    for (unsigned i = 0; i < 8; i++) {
        bool on = (0x5a >> i) & 1;

        g_assert_cmpuint(ud(t, 2, i), ==, on ? i : 0);
        g_assert_cmpfloat(fl(t, 6, i), ==, on ? 0.5f + 2.0f * i : 0.0f);
    }
    g_free(t);
}

/*
 * if (x < 4) { if (x & 1) y = 1 else y = 2 } else { y = 3 }
 * Offsets in bytes, as Gen8+ JIP/UIP are.
 */
static void test_nested_if_else(void)
{
    EuThread *t = RUN(0xff,
        IOTA(2),                                                    /* 0 */
        asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(2, 0, SD, R_8_8_1),
                        IMM(SD, 4)), EU_COND_L, 0),                 /* 1 */
        asm_pred(asm_flow(EU_OP_IF, 8, 9 * 16, 10 * 16),
                 EU_PRED_NORMAL, false, 0),                         /* 2 */
        asm_cond(asm_op(EU_OP_AND, 8, NUL, G(2, 0, UD, R_8_8_1),
                        IMM(UD, 1)), EU_COND_NZ, 2),                /* 3 */
        asm_pred(asm_flow(EU_OP_IF, 8, 3 * 16, 4 * 16),
                 EU_PRED_NORMAL, false, 2),                         /* 4 */
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 1)),               /* 5 */
        asm_flow(EU_OP_ELSE, 8, 2 * 16, 2 * 16),                    /* 6 */
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 2)),               /* 7 */
        asm_flow(EU_OP_ENDIF, 8, 16, 0),                            /* 8 */
        asm_op(EU_OP_ADD, 8, D(4, 0, UD), G(3, 0, UD, R_8_8_1),
              IMM(UD, 10)),                                         /* 9 */
        asm_flow(EU_OP_ELSE, 8, 2 * 16, 2 * 16),                    /* 10 */
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 3)),               /* 11 */
        asm_flow(EU_OP_ENDIF, 8, 16, 0),                            /* 12 */
        asm_op(EU_OP_ADD, 8, D(5, 0, UD), G(3, 0, UD, R_8_8_1),
              IMM(UD, 100)));                                       /* 13 */

    for (unsigned i = 0; i < 8; i++) {
        unsigned y = i >= 4 ? 3 : (i & 1) ? 1 : 2;

        g_assert_cmpuint(ud(t, 3, i), ==, y);
        g_assert_cmpuint(ud(t, 4, i), ==, i < 4 ? y + 10 : 0);
        g_assert_cmpuint(ud(t, 5, i), ==, y + 100);
    }
    g_assert_cmphex(t->active, ==, 0xff);
    g_free(t);
}

/*
 * i = 0; sum = 0;
 * do { i++; if (i == 3) continue; sum += i; if (i >= lane + 4) break; }
 * while (i < 10);
 */
static void test_loop_break_cont(void)
{
    EuThread *t = RUN(0xff,
        IOTA(2),                                                    /* 0 */
        asm_1(EU_OP_MOV, 8, D(3, 0, SD), IMM(SD, 0)),               /* 1 */
        asm_1(EU_OP_MOV, 8, D(4, 0, SD), IMM(SD, 0)),               /* 2 */
        asm_op(EU_OP_ADD, 8, D(3, 0, SD), G(3, 0, SD, R_8_8_1),
               IMM(SD, 1)),                                         /* 3 */
        asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(3, 0, SD, R_8_8_1),
                        IMM(SD, 3)), EU_COND_Z, 0),                 /* 4 */
        asm_pred(asm_flow(EU_OP_CONT, 8, 16, 6 * 16),
                 EU_PRED_NORMAL, false, 0),                         /* 5 */
        asm_op(EU_OP_ADD, 8, D(4, 0, SD), G(4, 0, SD, R_8_8_1),
               G(3, 0, SD, R_8_8_1)),                               /* 6 */
        asm_op(EU_OP_ADD, 8, D(5, 0, SD), G(2, 0, SD, R_8_8_1),
               IMM(SD, 4)),                                         /* 7 */
        asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(3, 0, SD, R_8_8_1),
                        G(5, 0, SD, R_8_8_1)), EU_COND_GE, 0),      /* 8 */
        asm_pred(asm_flow(EU_OP_BREAK, 8, 16, 2 * 16),
                 EU_PRED_NORMAL, false, 0),                         /* 9 */
        asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(3, 0, SD, R_8_8_1),
                        IMM(SD, 10)), EU_COND_L, 0),                /* 10 */
        asm_pred(asm_flow(EU_OP_WHILE, 8, -8 * 16, 0),
                 EU_PRED_NORMAL, false, 0),                         /* 11 */
        asm_op(EU_OP_ADD, 8, D(6, 0, SD), G(4, 0, SD, R_8_8_1),
               IMM(SD, 1000)));                                     /* 12 */

    for (int lane = 0; lane < 8; lane++) {
        int i = 0, sum = 0;

        do {
            i++;
            if (i == 3) {
                continue;
            }
            sum += i;
            if (i >= lane + 4) {
                break;
            }
        } while (i < 10);
        g_assert_cmpint((int32_t)ud(t, 3, lane), ==, i);
        g_assert_cmpint((int32_t)ud(t, 4, lane), ==, sum);
        g_assert_cmpint((int32_t)ud(t, 6, lane), ==, sum + 1000);
    }
    g_free(t);
}

/*
 * A loop inside an if whose channels all break together, while the else
 * channels wait further on: the break resumes after the WHILE, not at
 * the else.
 */
static void test_break_inside_if(void)
{
    EuThread *t = RUN(0xff,
        IOTA(2),                                                    /* 0 */
        asm_1(EU_OP_MOV, 8, D(3, 0, SD), IMM(SD, 0)),               /* 1 */
        asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(2, 0, SD, R_8_8_1),
                        IMM(SD, 4)), EU_COND_L, 0),                 /* 2 */
        asm_pred(asm_flow(EU_OP_IF, 8, 7 * 16, 8 * 16),
                 EU_PRED_NORMAL, false, 0),                         /* 3 */
        asm_op(EU_OP_ADD, 8, D(3, 0, SD), G(3, 0, SD, R_8_8_1),
               IMM(SD, 1)),                                         /* 4 */
        asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(3, 0, SD, R_8_8_1),
                        IMM(SD, 2)), EU_COND_GE, 2),                /* 5 */
        asm_pred(asm_flow(EU_OP_BREAK, 8, 16, 16),
                 EU_PRED_NORMAL, false, 2),                         /* 6 */
        asm_flow(EU_OP_WHILE, 8, -3 * 16, 0),                       /* 7 */
        asm_1(EU_OP_MOV, 8, D(4, 0, UD), IMM(UD, 1)),               /* 8 */
        asm_flow(EU_OP_ELSE, 8, 2 * 16, 2 * 16),                    /* 9 */
        asm_1(EU_OP_MOV, 8, D(4, 0, UD), IMM(UD, 5)),               /* 10 */
        asm_flow(EU_OP_ENDIF, 8, 16, 0),                            /* 11 */
        asm_op(EU_OP_ADD, 8, D(5, 0, UD), G(4, 0, UD, R_8_8_1),
               IMM(UD, 100)));                                      /* 12 */

    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmpuint(ud(t, 3, i), ==, i < 4 ? 2 : 0);
        g_assert_cmpuint(ud(t, 4, i), ==, i < 4 ? 1 : 5);
        g_assert_cmpuint(ud(t, 5, i), ==, i < 4 ? 101 : 105);
    }
    g_free(t);
}

static void test_budget_and_hostile(void)
{
    const EuNative spin[] = {
        asm_op(EU_OP_ADD, 1, D(3, 0, UD), G(3, 0, UD, R_0_1_0), IMM(UD, 1)),
        asm_flow(EU_OP_WHILE, 1, -16, 0),
    };
    const EuNative jmp[] = { asm_flow(EU_OP_JMPI, 1, 0, 0) };
    const EuNative a16[] = { asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 1)) };
    SendLog log = { 0 };
    EuThread *t = thread_for(spin, 2, 1, &log);

    g_assert_cmpint(eu_run(t, 1001), ==, EU_BUDGET);
    g_assert_cmpuint(ud(t, 3, 0), ==, 501);
    g_assert_cmpint(eu_run(t, 10), ==, EU_BUDGET);     /* resumable */
    g_assert_cmpuint(t->retired, ==, 1011);
    g_free(t);

    /* A jump out of the kernel faults instead of reading beyond it. */
    t = thread_for(jmp, 1, 1, &log);
    EU_SET((EuNative *)code, EU_SRC1_FILE, EU_FILE_IMM);
    EU_SET((EuNative *)code, EU_SRC1_TYPE, EU_TYPE_D);
    EU_SET((EuNative *)code, EU_IMM32, 0x1000);
    g_assert_cmpint(eu_run(t, 10), ==, EU_FAULT);
    g_free(t);

    /* Align16 is rejected; running off the end faults. */
    t = thread_for(a16, 1, 1, &log);
    EU_SET((EuNative *)code, EU_ACCESS_MODE, 1);
    g_assert_cmpint(eu_run(t, 10), ==, EU_FAULT);
    g_assert_cmpstr(t->fault, ==, "align16 is not supported on this model");
    g_free(t);
    t = thread_for(a16, 1, 1, &log);
    g_assert_cmpint(eu_run(t, 10), ==, EU_FAULT);
    g_assert_cmpuint(t->ip, ==, 16);
    g_free(t);
}

static void test_send_callback(void)
{
    const EuNative prog[] = {
        asm_send(8, 10, 2, EU_SFID_DP_DATA1, 0x040a8000, false),
        asm_1(EU_OP_MOV, 1, D(3, 0, UD), IMM(UD, 5)),
        EOT,
    };
    SendLog log = { .ret = 1 };
    EuThread *t = thread_for(prog, 3, 0xff, &log);

    g_assert_cmpint(eu_run(t, 100), ==, EU_WAIT_SEND);
    g_assert_cmpuint(log.calls, ==, 1);
    g_assert_cmphex(log.desc, ==, 0x040a8000);
    g_assert_cmpuint(log.ex_desc, ==, 0);
    g_assert_cmpuint(log.sfid, ==, EU_SFID_DP_DATA1);
    g_assert_cmpuint(t->ip, ==, 16);
    log.ret = 0;
    g_assert_cmpint(eu_run(t, 100), ==, EU_DONE);
    g_assert_cmpuint(ud(t, 3, 0), ==, 5);
    g_assert_cmpuint(log.calls, ==, 2);
    g_free(t);

    /* An unsupported message faults the thread. */
    log = (SendLog){ .ret = -1 };
    t = thread_for(prog, 3, 0xff, &log);
    g_assert_cmpint(eu_run(t, 100), ==, EU_FAULT);
    g_assert_cmpuint(ud(t, 3, 0), ==, 0);
    g_free(t);
}

static void test_call_ret_jmpi(void)
{
    AOp ret_src = G(20, 0, UD, R_0_1_0);
    EuNative call = asm_flow(EU_OP_CALL, 1, 3 * 16, 0);
    EuNative jmpi = asm_op(EU_OP_JMPI, 1, NUL, NUL, IMM(SD, 32));
    EuThread *t;

    EU_SET(&call, EU_DST_FILE, EU_FILE_GRF);
    EU_SET(&call, EU_DST_TYPE, EU_TYPE_UD);
    EU_SET(&call, EU_DST_HSTRIDE, 1);
    EU_SET(&call, EU_DST_REG_NR, 20);
    t = RUN(0xff,
        call,                                                       /* 0 */
        asm_1(EU_OP_MOV, 1, D(3, 0, UD), IMM(UD, 1)),               /* 1 */
        jmpi,                                                       /* 2 */
        asm_1(EU_OP_MOV, 1, D(4, 0, UD), IMM(UD, 7)),               /* 3 */
        asm_1(EU_OP_RET, 1, NUL, ret_src));                         /* 4 */

    g_assert_cmpuint(ud(t, 20, 0), ==, 16);    /* return address */
    g_assert_cmpuint(ud(t, 3, 0), ==, 1);
    g_assert_cmpuint(ud(t, 4, 0), ==, 7);      /* jmpi skipped the ret */
    g_free(t);
}

/*
 * Random instruction words, half of them with a valid opcode and
 * align1: every run ends (done, fault, wait or budget) without touching
 * memory outside the thread; the sanitizer build checks the rest.
 */
static AOp random_operand(GRand *rng, bool dst)
{
    static const uint8_t types[] = { UD, SD, UW, SW, UB, FT, HF };
    AOp o = G(g_rand_int_range(rng, 0, 128), g_rand_int_range(rng, 0, 32),
              types[g_rand_int_range(rng, 0, G_N_ELEMENTS(types))],
              R_8_8_1);

    o.vs = g_rand_int_range(rng, 0, 7);
    o.w = g_rand_int_range(rng, 0, 5);
    o.hs = g_rand_int_range(rng, dst, 4);
    if (g_rand_int_range(rng, 0, 8) == 0) {
        o.ind = true;
        o.a_sub = g_rand_int_range(rng, 0, 16);
        o.a_imm = g_rand_int_range(rng, -512, 512);
        o.vs = g_rand_boolean(rng) ? EU_VSTRIDE_VXH : o.vs;
    }
    if (!dst && g_rand_int_range(rng, 0, 4) == 0) {
        o = IMM(o.type == UB ? UD : o.type, g_rand_int(rng));
    }
    return o;
}

/* A mostly well-formed instruction with random operands and modifiers. */
static EuNative random_inst(GRand *rng, const uint8_t *ops, unsigned nops)
{
    unsigned op = ops[g_rand_int_range(rng, 0, nops)];
    unsigned exec = 1u << g_rand_int_range(rng, 0, 6);
    EuNative n;

    if (eu_is_branch(op)) {
        n = asm_flow(op, exec, 16 * g_rand_int_range(rng, -8, 9),
                     16 * g_rand_int_range(rng, -8, 9));
    } else if (eu_is_3src(op)) {
        n = asm_3src(op, exec, g_rand_boolean(rng), g_rand_int_range(rng, 0, 2),
                     g_rand_int_range(rng, 0, 128),
                     g_rand_int_range(rng, 0, 128),
                     g_rand_int_range(rng, 0, 128),
                     g_rand_int_range(rng, 0, 128));
    } else if (op == EU_OP_SEND) {
        n = asm_send(exec, g_rand_int_range(rng, 0, 128),
                     g_rand_int_range(rng, 0, 128),
                     g_rand_int_range(rng, 0, 16), g_rand_int(rng),
                     g_rand_int_range(rng, 0, 8) == 0);
    } else {
        AOp s0 = random_operand(rng, false);

        if (s0.file == EU_FILE_IMM) {
            s0 = G(1, 0, s0.type, R_0_1_0);
        }
        n = asm_op(op, exec, random_operand(rng, true), s0,
                   random_operand(rng, false));
    }
    EU_SET(&n, EU_QTR_CTRL, g_rand_int_range(rng, 0, 4));
    EU_SET(&n, EU_NIB_CTRL, g_rand_boolean(rng));
    EU_SET(&n, EU_MASK_CTRL, g_rand_boolean(rng));
    if (g_rand_boolean(rng)) {
        n = asm_pred(n, g_rand_int_range(rng, 1, 14), g_rand_boolean(rng),
                     g_rand_int_range(rng, 0, 4));
    }
    if (!eu_is_branch(op) && op != EU_OP_SEND && op != EU_OP_MATH &&
        g_rand_boolean(rng)) {
        n = asm_cond(n, g_rand_int_range(rng, 0, 10),
                     g_rand_int_range(rng, 0, 4));
    }
    if (op == EU_OP_MATH) {
        EU_SET(&n, EU_COND_MOD, g_rand_int_range(rng, 1, 16));
    }
    if (g_rand_int_range(rng, 0, 4) == 0) {
        unsigned b = g_rand_int_range(rng, 0, 128);

        EU_SET(&n, EU_F(b, b), !EU_GET(&n, EU_F(b, b)));
    }
    return n;
}

static void test_random_kernels(void)
{
    static const uint8_t ops[] = {
        EU_OP_MOV, EU_OP_SEL, EU_OP_NOT, EU_OP_AND, EU_OP_SHL, EU_OP_ASR,
        EU_OP_CMP, EU_OP_CMPN, EU_OP_IF, EU_OP_ELSE, EU_OP_ENDIF,
        EU_OP_WHILE, EU_OP_BREAK, EU_OP_CONT, EU_OP_HALT, EU_OP_CALL,
        EU_OP_RET, EU_OP_JMPI, EU_OP_SEND, EU_OP_SENDS, EU_OP_MATH,
        EU_OP_ADD, EU_OP_MUL, EU_OP_MACH, EU_OP_MAD, EU_OP_LRP, EU_OP_BFE,
        EU_OP_FBH, EU_OP_FRC, EU_OP_PLN, EU_OP_LINE, EU_OP_DP4, EU_OP_DPH,
        EU_OP_GOTO, EU_OP_CALLA, EU_OP_SMOV, EU_OP_BRC,
    };
    GRand *rng = g_rand_new_with_seed(11);
    SendLog log = { 0 };
    EuProgram *p = NULL;
    EuNative prog[16];
    unsigned ended[EU_BUDGET + 1] = { 0 };
    uint64_t retired = 0;

    for (int iter = 0; iter < 3000; iter++) {
        EuThread *t;

        for (int i = 0; i < 16; i++) {
            prog[i] = random_inst(rng, ops, G_N_ELEMENTS(ops));
        }
        log.ret = g_rand_int_range(rng, -1, 2);
        t = thread_for(prog, 16, g_rand_int(rng), &log);
        if (iter & 1) {
            /* Every other kernel through a shared program (and the fast
             * paths where they apply). */
            p = eu_program_new(code, 16 * 16);
            eu_thread_init_program(t, p, t->exec_mask, fake_send, &log);
        }
        for (int i = 0; i < 16; i++) {
            t->a0[i] = g_rand_int(rng);
        }
        for (int r = 0; r < 20 && eu_run(t, 500) == EU_WAIT_SEND; r++) {
            /* resume after each wait */
        }
        retired += t->retired;
        ended[t->status]++;
        g_assert_cmpint(t->status, !=, EU_RUNNING);
        g_assert_true(t->status != EU_FAULT || t->fault);
        eu_program_unref(p);
        p = NULL;
        g_free(t);
    }
    g_test_message("retired %" G_GUINT64_FORMAT ", done %u, fault %u, "
                   "wait %u, budget %u", retired, ended[EU_DONE],
                   ended[EU_FAULT], ended[EU_WAIT_SEND], ended[EU_BUDGET]);
    /* Valid opcodes in a row run: not everything faults at once. */
    g_assert_cmpuint(retired, >, 3000);
    g_rand_free(rng);
}

/*
 * Differential test of the fast paths: random kernels of the forms they
 * take (and near misses) run once through the generic path (private
 * cache, fast paths off) and once through a shared program with them on;
 * the threads must end in the same state, bit for bit.
 */
static AOp diff_operand(GRand *rng, unsigned type, bool dst)
{
    static const int regions[][3] = {
        { R_8_8_1 }, { R_8_8_1 }, { R_0_1_0 }, { R_0_1_0 }, { R_4_4_1 },
        { 5, 4, 1 }, { R_16_8_2 }, { 1, 0, 0 }, { 2, 1, 1 },
    };
    unsigned size = eu_type_size(type);
    const int *rg = regions[g_rand_int_range(rng, 0, G_N_ELEMENTS(regions))];
    AOp o = G(g_rand_int_range(rng, 2, 10), 0, type, R_8_8_1);

    if (g_rand_int_range(rng, 0, 40) == 0) {
        o.nr = 127;                     /* runs off the GRF */
    }
    o.sub = size * g_rand_int_range(rng, 0, 32 / size);
    if (dst) {
        o.hs = g_rand_int_range(rng, 0, 6) ? 1 : 2;
        if (g_rand_int_range(rng, 0, 10) == 0) {
            o = NUL;
            o.type = type;
        }
        return o;
    }
    o.vs = rg[0];
    o.w = rg[1];
    o.hs = rg[2];
    o.neg = g_rand_int_range(rng, 0, 5) == 0;
    o.abs = g_rand_int_range(rng, 0, 6) == 0;
    return o;
}

static uint32_t diff_imm(GRand *rng, bool fp)
{
    static const float f[] = {
        0.0f, -0.0f, 1.0f, -2.5f, 0.5f, 1e30f, -1e-40f, 3.0f,
    };
    uint32_t nan = 0x7fa00001;

    if (!fp) {
        return g_rand_boolean(rng) ? g_rand_int(rng) :
               (uint32_t)g_rand_int_range(rng, -40, 40);
    }
    return g_rand_int_range(rng, 0, 9) == 0 ? nan :
           asm_f(f[g_rand_int_range(rng, 0, G_N_ELEMENTS(f))]);
}

static EuNative diff_inst(GRand *rng)
{
    static const uint8_t ops[] = {
        EU_OP_MOV, EU_OP_ADD, EU_OP_MUL, EU_OP_MAD, EU_OP_SEL, EU_OP_CMP,
        EU_OP_AND, EU_OP_OR, EU_OP_XOR, EU_OP_NOT, EU_OP_SHL, EU_OP_SHR,
        EU_OP_ASR, EU_OP_MOV, EU_OP_ADD, EU_OP_MAD,
    };
    static const uint8_t itypes[] = { UD, SD, UW, SW, UB, EU_TYPE_B };
    unsigned op = ops[g_rand_int_range(rng, 0, G_N_ELEMENTS(ops))];
    unsigned exec = 1u << g_rand_int_range(rng, 0, 5);
    bool fp = g_rand_boolean(rng);
    bool same = g_rand_int_range(rng, 0, 3) != 0;
    unsigned ty[3];
    EuNative n;

    for (int i = 0; i < 3; i++) {
        ty[i] = fp ? FT : itypes[g_rand_int_range(rng, 0, 6)];
        if (same) {
            ty[i] = ty[0];
        }
    }
    if (op == EU_OP_MAD) {
        unsigned t3 = fp ? 1 : g_rand_int_range(rng, 0, 4);

        n = asm_3src(op, exec, fp, t3, g_rand_int_range(rng, 2, 10),
                     g_rand_int_range(rng, 2, 10),
                     g_rand_int_range(rng, 2, 10),
                     g_rand_int_range(rng, 2, 10));
        if (g_rand_boolean(rng)) {
            EU_SET(&n, EU_3_SRC2_HSTRIDE, 0);   /* scalar src2 */
        }
        if (g_rand_int_range(rng, 0, 3) == 0) {
            EU_SET(&n, EU_3_SRC0_VSTRIDE, 0);
            EU_SET(&n, EU_3_SRC0_HSTRIDE, 0);
        }
        EU_SET(&n, EU_3_SRC1_NEGATE, g_rand_int_range(rng, 0, 4) == 0);
        EU_SET(&n, EU_3_SRC0_ABS, g_rand_int_range(rng, 0, 4) == 0);
        if (fp && g_rand_int_range(rng, 0, 3) == 0) {
            /* Through the accumulator, as ps_kernel_gen11 does. */
            EU_SET(&n, EU_3_DST_FILE, 1);
            EU_SET(&n, EU_3_DST_REG_NR, EU_ARF_ACC);
            EU_SET(&n, EU_3_DST_TYPE, 3);
        } else if (fp && g_rand_int_range(rng, 0, 2) == 0) {
            EU_SET(&n, EU_3_SRC0_FILE, 1);
            EU_SET(&n, EU_3_SRC0_REG_NR, EU_ARF_ACC);
            EU_SET(&n, EU_3_SRC0_TYPE, 3);
            EU_SET(&n, EU_3_SRC0_VSTRIDE, 3);
            EU_SET(&n, EU_3_SRC0_HSTRIDE, 1);
        }
    } else {
        AOp s1 = diff_operand(rng, ty[2], false);

        if (g_rand_int_range(rng, 0, 3) == 0) {
            unsigned it = ty[2] == UB ? UW :
                          ty[2] == EU_TYPE_B ? SW : ty[2];

            s1 = IMM(it, diff_imm(rng, fp));
        }
        n = asm_op(op, exec, diff_operand(rng, ty[0], true),
                   diff_operand(rng, ty[1], false), s1);
    }
    EU_SET(&n, EU_QTR_CTRL, g_rand_int_range(rng, 0, 4));
    EU_SET(&n, EU_NIB_CTRL, exec < 8 && g_rand_boolean(rng));
    EU_SET(&n, EU_MASK_CTRL, g_rand_int_range(rng, 0, 4) == 0);
    if (g_rand_boolean(rng)) {
        n = asm_pred(n, g_rand_int_range(rng, 0, 8) ? EU_PRED_NORMAL :
                        EU_PRED_ANY4H, g_rand_boolean(rng),
                     g_rand_int_range(rng, 0, 4));
    }
    if (op == EU_OP_CMP || g_rand_boolean(rng)) {
        static const uint8_t conds[] = { 1, 2, 3, 4, 5, 6, 8, 9 };

        n = asm_cond(n, conds[g_rand_int_range(rng, 0, 8)],
                     g_rand_int_range(rng, 0, 4));
    }
    if (g_rand_int_range(rng, 0, 4) == 0) {
        n = asm_sat(n);
    }
    return n;
}

static void diff_state(EuThread *t, GRand *rng)
{
    for (unsigned r = 0; r < 12; r++) {
        for (unsigned i = 0; i < 8; i++) {
            uint32_t v = g_rand_int_range(rng, 0, 3) == 0 ? g_rand_int(rng) :
                         asm_f(g_rand_double_range(rng, -4, 4));

            if (g_rand_int_range(rng, 0, 20) == 0) {
                v = 0x7fc00000;
            }
            memcpy(t->grf + r * 32 + 4 * i, &v, 4);
        }
    }
    t->flag[0] = g_rand_int(rng);
    t->flag[1] = g_rand_int(rng);
}

/* One run of the kernel in code: generic (private cache, fast paths
 * off) or through program p with them on, from the state seed gives. */
static EuThread *diff_run(EuProgram *p, uint32_t mask, uint32_t seed,
                          uint64_t budget)
{
    static SendLog log;
    EuThread *t = g_new0(EuThread, 1);
    GRand *st = g_rand_new_with_seed(seed);

    eu_fast_paths = p != NULL;
    if (p) {
        eu_thread_init_program(t, p, mask, fake_send, &log);
    } else {
        eu_thread_init(t, code, 9 * 16, mask, fake_send, &log);
    }
    diff_state(t, st);
    g_rand_free(st);
    eu_run(t, budget);
    eu_fast_paths = true;
    return t;
}

/* On a mismatch, name the first instruction after which the GRFs
 * differ. */
static void diff_explain(const EuNative *prog, EuProgram *p, uint32_t mask,
                         uint32_t seed)
{
    for (int i = 0; i < 8; i++) {
        g_autoptr(GString) s = g_string_new(NULL);
        EuInst d;

        eu_decode_native(&prog[i], &d);
        eu_disasm(&d, s);
        g_test_message("%d: %s fast %d", i, s->str,
                       eu_inst_has_fast_path(&d));
    }
    for (int k = 1; k <= 8; k++) {
        g_autofree EuThread *x = diff_run(NULL, mask, seed, k);
        g_autofree EuThread *y = diff_run(p, mask, seed, k);

        if (memcmp(x->grf, y->grf, sizeof(x->grf))) {
            g_test_message("the GRFs differ after %d instructions", k);
            return;
        }
    }
}

static void test_fast_paths_agree(void)
{
    GRand *rng = g_rand_new_with_seed(1234);
    unsigned fast = 0, total = 0, faults = 0;

    for (int iter = 0; iter < 4000; iter++) {
        EuNative prog[9];
        uint32_t mask = g_rand_boolean(rng) ? 0xffff : g_rand_int(rng);
        uint32_t seed = g_rand_int(rng);
        EuProgram *p;
        EuThread *a, *b;

        for (int i = 0; i < 8; i++) {
            EuInst d;

            prog[i] = diff_inst(rng);
            if (eu_decode_native(&prog[i], &d) == 0) {
                total++;
                fast += eu_inst_has_fast_path(&d);
            }
        }
        prog[8] = EOT;
        asm_emit(code, prog, 9);
        p = eu_program_new(code, 9 * 16);
        a = diff_run(NULL, mask, seed, 100);
        b = diff_run(p, mask, seed, 100);
        faults += a->status == EU_FAULT;
        if (memcmp(a->grf, b->grf, sizeof(a->grf))) {
            diff_explain(prog, p, mask, seed);
        }
        g_assert_cmpint(a->status, ==, b->status);
        g_assert_cmpuint(a->retired, ==, b->retired);
        g_assert_cmpuint(a->ip, ==, b->ip);
        g_assert_cmphex(a->flag[0], ==, b->flag[0]);
        g_assert_cmphex(a->flag[1], ==, b->flag[1]);
        g_assert_cmpmem(a->grf, sizeof(a->grf), b->grf, sizeof(b->grf));
        g_assert_cmpmem(a->accv, sizeof(a->accv), b->accv, sizeof(b->accv));
        g_assert_cmpmem(a->acc, sizeof(a->acc), b->acc, sizeof(b->acc));
        eu_program_unref(p);
        g_free(a);
        g_free(b);
    }
    g_test_message("%u of %u instructions fast, %u faulting kernels",
                   fast, total, faults);
    /* Both paths were exercised. */
    g_assert_cmpuint(fast, >, total / 4);
    g_assert_cmpuint(fast, <, total);
    g_rand_free(rng);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/intel-eu/exec/mov-regions", test_mov_regions);
    g_test_add_func("/intel-eu/exec/simd32-quarters",
                    test_simd32_and_quarters);
    g_test_add_func("/intel-eu/exec/indirect", test_indirect);
    g_test_add_func("/intel-eu/exec/out-of-range", test_out_of_range_faults);
    g_test_add_func("/intel-eu/exec/int-alu", test_int_alu);
    g_test_add_func("/intel-eu/exec/float-conversions",
                    test_float_and_conversions);
    g_test_add_func("/intel-eu/exec/math", test_math);
    g_test_add_func("/intel-eu/exec/math-macros", test_math_macros);
    g_test_add_func("/intel-eu/exec/pln-line-dp", test_pln_line_dp);
    g_test_add_func("/intel-eu/exec/goto", test_goto);
    g_test_add_func("/intel-eu/exec/calla-ret-mask", test_calla_ret_mask);
    g_test_add_func("/intel-eu/exec/unsupported-fault",
                    test_unsupported_fault);
    g_test_add_func("/intel-eu/exec/cmp-pred-sel", test_cmp_pred_sel);
    g_test_add_func("/intel-eu/exec/mask-mad", test_exec_mask_and_mad);
    g_test_add_func("/intel-eu/exec/flag-width-pred-send",
                    test_flag_width_and_pred_send);
    g_test_add_func("/intel-eu/exec/if-else", test_nested_if_else);
    g_test_add_func("/intel-eu/exec/loop", test_loop_break_cont);
    g_test_add_func("/intel-eu/exec/break-inside-if", test_break_inside_if);
    g_test_add_func("/intel-eu/exec/budget-hostile", test_budget_and_hostile);
    g_test_add_func("/intel-eu/exec/send", test_send_callback);
    g_test_add_func("/intel-eu/exec/call-ret-jmpi", test_call_ret_jmpi);
    g_test_add_func("/intel-eu/exec/random", test_random_kernels);
    g_test_add_func("/intel-eu/exec/fast-paths-agree", test_fast_paths_agree);
    return g_test_run();
}
