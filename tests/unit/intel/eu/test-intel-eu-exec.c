/*
 * Unit tests of the Gen11 EU interpreter (hw/gpumodel/intel/eu/eu-exec.c):
 * hand-assembled kernels checked against results computed by hand from
 * the instruction pages of Intel Graphics PRM Vol 2 (Command Reference:
 * Instructions, EU ISA) and the region and flow-control rules of Vol 4
 * (Execution Unit ISA).  This file has the helpers, regions and the ALU,
 * and registers the tests of test-intel-eu-exec-*.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "test-intel-eu-exec.h"

uint8_t code[64 * 16];

int fake_send(EuThread *t, const EuInst *in, uint32_t desc,
              uint32_t ex_desc, void *opaque)
{
    SendLog *l = opaque;

    l->calls++;
    l->desc = desc;
    l->ex_desc = ex_desc;
    l->sfid = in->sfid;
    return l->ret;
}

EuThread *thread_for(const EuNative *prog, size_t n, uint32_t mask,
                     SendLog *log)
{
    EuThread *t = g_new0(EuThread, 1);

    asm_emit(code, prog, n);
    eu_thread_init(t, code, n * 16, mask, fake_send, log);
    return t;
}

/* Run a program ended by an EOT send; assert it finishes. */
EuThread *run(const EuNative *prog, size_t n, uint32_t mask)
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

uint32_t ud(EuThread *t, unsigned reg, unsigned i)
{
    uint32_t v;

    memcpy(&v, t->grf + reg * 32 + i * 4, 4);
    return GUINT32_FROM_LE(v);
}

float fl(EuThread *t, unsigned reg, unsigned i)
{
    uint32_t u = ud(t, reg, i);
    float f;

    memcpy(&f, &u, 4);
    return f;
}

static void test_mov_regions(void)
{
    AOp dst5 = { .file = EU_FILE_GRF, .type = UD, .nr = 5, .hs = 2 };
    EuThread *t = RUN(0xff,
        IOTA_WORDS, IOTA_WIDEN(2),
        /* scalar <0;1,0>: g3 = g2.5 */
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), G(2, 20, UD, R_0_1_0)),
        /* <4;4,1> on words: g4.w = w[0..3], w[4..7] of g2 (low halves) */
        asm_1(EU_OP_MOV, 8, D(4, 0, UD), G(2, 0, UW, R_16_8_2)),
        /* strided destination: g5 every other dword gets 0..3 */
        asm_1(EU_OP_MOV, 4, dst5, G(2, 0, UD, R_4_4_1)),
        /* V immediate: signed nibbles, into packed words */
        asm_1(EU_OP_MOV, 8, D(6, 0, SW), IMM(EU_TYPE_B, 0x0000f8e1)),
        /* ... and into every other dword, as IGC also writes */
        asm_op(EU_OP_ADD, 2, D(7, 0, UD), G(2, 0, UW, R_0_1_0),
              IMM(EU_TYPE_UB, 0x400)));

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
    g_assert_cmphex(ud(t, 6, 0), ==, 0xfffe0001);       /* 1, -2 (0xe) */
    g_assert_cmphex(ud(t, 6, 1), ==, 0xfffffff8);       /* -8, -1 */
    g_assert_cmphex(ud(t, 6, 2), ==, 0);
    /* Channel 1's dword is at the vector's word 2: 0x400 gives 0, 4. */
    g_assert_cmpuint(ud(t, 7, 0), ==, 0);
    g_assert_cmpuint(ud(t, 7, 1), ==, 4);
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
        IOTA_WORDS, IOTA_WIDEN(2),
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
        IOTA_WORDS, IOTA_WIDEN(2),
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

/*
 * smov: a mov whose channels the immediate in src1 also enables, as IGC
 * emits it for a vector insert at a varying index (visa/Optimizer.cpp
 * createSmov): "smov (16) r[a0.0]<1>:ud g2<0;1,0>:ud 0x8305:ud".  A mask
 * in a register is not an smov IGC emits: the thread faults.
 */
static void test_smov(void)
{
    AOp ind = { .file = EU_FILE_GRF, .type = UD, .ind = true, .a_sub = 0,
                .hs = 1 };
    AOp a0 = { .file = EU_FILE_ARF, .type = UW, .nr = EU_ARF_ADDRESS,
               .hs = 1 };
    const EuNative reg_mask[] = {
        asm_op(EU_OP_SMOV, 16, ind, G(2, 0, UD, R_0_1_0),
               G(3, 0, UD, R_0_1_0)),
    };
    SendLog log = { 0 };
    EuThread *t = RUN(0x7fff,
        asm_1(EU_OP_MOV, 1, D(2, 0, UD), IMM(UD, 0x5a5a)),
        asm_1(EU_OP_MOV, 1, a0, IMM(UW, 7 * 32)),
        asm_op(EU_OP_SMOV, 16, ind, G(2, 0, UD, R_0_1_0),
               IMM(UD, 0x8305)));

    g_assert_null(t->fault);
    for (unsigned c = 0; c < 16; c++) {
        /* channel 15: in the mask, not in the thread's channels */
        bool on = (0x8305 & 0x7fff) >> c & 1;

        g_assert_cmpuint(ud(t, 7 + c / 8, c % 8), ==, on ? 0x5a5a : 0);
    }
    g_free(t);

    t = thread_for(reg_mask, G_N_ELEMENTS(reg_mask), 0xffff, &log);
    g_assert_cmpint(eu_run(t, 10), ==, EU_FAULT);
    g_assert_nonnull(strstr(t->fault, "smov"));
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

/*
 * IGC's spin loops pause with "mov (1) tm0.4 0x3e0:uw": tm0.4 is the pause
 * register, not past tm0's end; the thread goes on.
 */
static void test_tm0_pause(void)
{
    AOp tm0_4 = { .file = EU_FILE_ARF, .type = UD, .nr = EU_ARF_TIMESTAMP,
                  .sub = 16, .hs = 1 };
    AOp tm0_4_src = tm0_4;
    EuThread *t;

    tm0_4_src.vs = 0;
    tm0_4_src.w = 0;
    tm0_4_src.hs = 0;
    t = RUN(0xff,
        asm_1(EU_OP_MOV, 1, tm0_4, IMM(UW, 0x3e0)),
        asm_1(EU_OP_MOV, 1, D(3, 0, UD), tm0_4_src));

    g_assert_cmpint(t->status, ==, EU_DONE);
    g_assert_cmphex(ud(t, 3, 0), ==, 0x3e0);
    g_free(t);
}

static void test_int_alu(void)
{
    EuThread *t = RUN(0xff,
        IOTA_WORDS, IOTA_WIDEN(2),
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
        /*
         * 0xc0000000 * 6 = 0x480000000: mach with AccWrEnable gives the
         * high half; without it (IGC's macl), the low half.
         */
        asm_acc_wr(asm_op(EU_OP_MACH, 1, D(6, 28, UD),
                          G(6, 20, UD, R_0_1_0), IMM(UD, 6))),
        asm_op(EU_OP_MACH, 1, D(7, 0, UD), G(6, 20, UD, R_0_1_0),
               IMM(UD, 6)),
        /* Rotates within the source's width: a dword, a word. */
        asm_1(EU_OP_MOV, 1, D(8, 0, UD), IMM(UD, 0x80000001)),
        asm_1(EU_OP_MOV, 1, D(8, 4, UW), IMM(UW, 0x8001)),
        asm_op(EU_OP_ROL, 1, D(7, 4, UD), G(8, 0, UD, R_0_1_0), IMM(UD, 4)),
        asm_op(EU_OP_ROL, 1, D(7, 8, UW), G(8, 4, UW, R_0_1_0), IMM(UW, 4)),
        asm_op(EU_OP_ROR, 1, D(7, 12, UW), G(8, 4, UW, R_0_1_0),
               IMM(UW, 1)));

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
    g_assert_cmpuint(ud(t, 7, 0), ==, 0x80000000); /* its low half */
    g_assert_cmphex(ud(t, 7, 1), ==, 0x00000018);
    g_assert_cmphex(ud(t, 7, 2) & 0xffff, ==, 0x0018);
    g_assert_cmphex(ud(t, 7, 3) & 0xffff, ==, 0xc000);
    g_free(t);
}

/*
 * addc's carry and subb's borrow, read back from acc0 as a register: how
 * IGC adds an offset to a 64-bit address ("addc lo {AccWrEn}", then
 * "mov c acc0.0:ud", "add hi c").  An older value of acc0 (a mul's) must
 * not show through.
 */
static void test_carry_in_acc(void)
{
    const AOp acc0 = { .file = EU_FILE_ARF, .type = EU_TYPE_UD,
                       .nr = EU_ARF_ACC, .vs = 0, .w = 0, .hs = 0 };
    const AOp acc0_dst = { .file = EU_FILE_ARF, .type = EU_TYPE_UD,
                           .nr = EU_ARF_ACC, .hs = 1 };
    EuThread *t = RUN(0xff,
        asm_1(EU_OP_MOV, 1, D(3, 0, UD), IMM(UD, 0xfffffff0)),
        asm_1(EU_OP_MOV, 1, D(3, 4, UD), IMM(UD, 0xc4d80000)),
        asm_1(EU_OP_MOV, 1, D(3, 8, UD), IMM(UD, 1)),
        asm_op(EU_OP_MUL, 1, acc0_dst, G(3, 8, UD, R_0_1_0), IMM(UW, 3)),
        asm_acc_wr(asm_op(EU_OP_ADDC, 1, D(2, 0, UD), G(3, 0, UD, R_0_1_0),
                          IMM(UD, 0x20))),
        asm_1(EU_OP_MOV, 1, D(2, 4, UD), acc0),
        asm_acc_wr(asm_op(EU_OP_ADDC, 1, D(2, 8, UD), G(3, 4, UD, R_0_1_0),
                          IMM(UD, 0x108))),
        asm_1(EU_OP_MOV, 1, D(2, 12, UD), acc0),
        asm_op(EU_OP_MUL, 1, acc0_dst, G(3, 8, UD, R_0_1_0), IMM(UW, 3)),
        asm_acc_wr(asm_op(EU_OP_SUBB, 1, D(2, 16, UD), G(3, 8, UD, R_0_1_0),
                          IMM(UD, 2))),
        asm_1(EU_OP_MOV, 1, D(2, 20, UD), acc0));

    g_assert_cmphex(ud(t, 2, 0), ==, 0x10);
    g_assert_cmphex(ud(t, 2, 1), ==, 1);            /* the carry */
    g_assert_cmphex(ud(t, 2, 2), ==, 0xc4d80108);
    g_assert_cmphex(ud(t, 2, 3), ==, 0);            /* none */
    g_assert_cmphex(ud(t, 2, 4), ==, 0xffffffff);
    g_assert_cmphex(ud(t, 2, 5), ==, 1);            /* the borrow */
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
    g_assert_cmpfloat_with_epsilon(fl(t, 3, 3), 8.0f, 0.00001);
    g_assert_cmpfloat_with_epsilon(fl(t, 3, 4), 5.0f, 0.00001);
    g_assert_cmpfloat_with_epsilon(fl(t, 3, 5), 1024.0f, 0.001);
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
        IOTA_WORDS, IOTA_WIDEN(20),
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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/intel-eu/exec/mov-regions", test_mov_regions);
    g_test_add_func("/intel-eu/exec/simd32-quarters",
                    test_simd32_and_quarters);
    g_test_add_func("/intel-eu/exec/indirect", test_indirect);
    g_test_add_func("/intel-eu/exec/smov", test_smov);
    g_test_add_func("/intel-eu/exec/out-of-range", test_out_of_range_faults);
    g_test_add_func("/intel-eu/exec/int-alu", test_int_alu);
    g_test_add_func("/intel-eu/exec/tm0-pause", test_tm0_pause);
    g_test_add_func("/intel-eu/exec/float-conversions",
                    test_float_and_conversions);
    g_test_add_func("/intel-eu/exec/math", test_math);
    g_test_add_func("/intel-eu/exec/math-macros", test_math_macros);
    g_test_add_func("/intel-eu/exec/pln-line-dp", test_pln_line_dp);
    g_test_add_func("/intel-eu/exec/goto", test_goto);
    g_test_add_func("/intel-eu/exec/goto-join", test_goto_join);
    g_test_add_func("/intel-eu/exec/calla-ret-mask", test_calla_ret_mask);
    g_test_add_func("/intel-eu/exec/unsupported-fault",
                    test_unsupported_fault);
    g_test_add_func("/intel-eu/exec/cmp-pred-sel", test_cmp_pred_sel);
    g_test_add_func("/intel-eu/exec/sel-minmax-nan", test_sel_minmax_nan);
    g_test_add_func("/intel-eu/exec/cmp-predicated", test_cmp_predicated);
    g_test_add_func("/intel-eu/exec/carry-in-acc", test_carry_in_acc);
    g_test_add_func("/intel-eu/exec/mask-mad", test_exec_mask_and_mad);
    g_test_add_func("/intel-eu/exec/flag-width-pred-send",
                    test_flag_width_and_pred_send);
    g_test_add_func("/intel-eu/exec/if-else", test_nested_if_else);
    g_test_add_func("/intel-eu/exec/loop", test_loop_break_cont);
    g_test_add_func("/intel-eu/exec/break-inside-if", test_break_inside_if);
    g_test_add_func("/intel-eu/exec/budget-hostile", test_budget_and_hostile);
    g_test_add_func("/intel-eu/exec/send", test_send_callback);
    g_test_add_func("/intel-eu/exec/call-ret-jmpi", test_call_ret_jmpi);
    g_test_add_func("/intel-eu/exec/wait-notify", test_wait_notify);
    g_test_add_func("/intel-eu/exec/random", test_random_kernels);
    g_test_add_func("/intel-eu/exec/fast-paths-agree", test_fast_paths_agree);
    return g_test_run();
}
