/*
 * Unit tests of the Gen11 EU interpreter: flow control (goto, calls, if/else,
 * loops), execution masks, sends and the instruction budget.
 * test-intel-eu-exec.c has the helpers and registers these tests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include "test-intel-eu-exec.h"

/* goto: the channels whose predicate holds skip to the UIP; when all
 * of them do, the thread jumps to the JIP. */
void test_goto(void)
{
    EuThread *t = RUN(0xff,
        IOTA_WORDS, IOTA_WIDEN(2),                                  /* 0, 1 */
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 0)),               /* 2 */
        asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(2, 0, UD, R_8_8_1),
                        IMM(UD, 4)), EU_COND_L, 0),                 /* 3 */
        asm_pred(asm_flow(EU_OP_GOTO, 8, 2 * 16, 2 * 16),
                 EU_PRED_NORMAL, false, 0),                         /* 4 */
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 1)),               /* 5 */
        asm_op(EU_OP_ADD, 8, D(4, 0, UD), G(3, 0, UD, R_8_8_1),
               IMM(UD, 10)),                                        /* 6 */
        asm_pred(asm_flow(EU_OP_GOTO, 8, 2 * 16, 2 * 16),
                 EU_PRED_NORMAL, true, 1),                          /* 7 */
        asm_1(EU_OP_MOV, 8, D(5, 0, UD), IMM(UD, 1)));              /* 8 */

    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmpuint(ud(t, 3, c), ==, c < 4 ? 0 : 1);
        g_assert_cmpuint(ud(t, 4, c), ==, c < 4 ? 10 : 11);
        /* f1 is clear: the inverted predicate sends every channel. */
        g_assert_cmpuint(ud(t, 5, c), ==, 0);
    }
    g_free(t);
}

/*
 * IGC's goto/join pairs: the channels a goto sends to its UIP wait at the
 * join (opcode 0x2f), which the others reach after the skipped code; a
 * goto that sends every channel jumps to the join at once.
 */
void test_goto_join(void)
{
    EuThread *t = RUN(0xff,
        IOTA_WORDS, IOTA_WIDEN(2),                                  /* 0, 1 */
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 0)),               /* 2 */
        asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(2, 0, UD, R_8_8_1),
                        IMM(UD, 4)), EU_COND_L, 0),                 /* 3 */
        asm_pred(asm_flow(EU_OP_GOTO, 8, 2 * 16, 2 * 16),
                 EU_PRED_NORMAL, false, 0),                         /* 4 */
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 1)),               /* 5 */
        asm_flow(EU_OP_JOIN, 8, 16, 0),                             /* 6 */
        asm_op(EU_OP_ADD, 8, D(4, 0, UD), G(3, 0, UD, R_8_8_1),
               IMM(UD, 10)),                                        /* 7 */
        asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(2, 0, UD, R_8_8_1),
                        IMM(UD, 8)), EU_COND_L, 1),                 /* 8 */
        asm_pred(asm_flow(EU_OP_GOTO, 8, 2 * 16, 2 * 16),
                 EU_PRED_NORMAL, false, 1),                         /* 9 */
        asm_1(EU_OP_MOV, 8, D(5, 0, UD), IMM(UD, 1)),               /* 10 */
        asm_flow(EU_OP_JOIN, 8, 16, 0),                             /* 11 */
        asm_op(EU_OP_ADD, 8, D(6, 0, UD), G(4, 0, UD, R_8_8_1),
               IMM(UD, 1)));                                        /* 12 */

    g_assert_cmpint(t->status, ==, EU_DONE);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmpuint(ud(t, 3, c), ==, c < 4 ? 0 : 1);
        g_assert_cmpuint(ud(t, 4, c), ==, c < 4 ? 10 : 11);
        g_assert_cmpuint(ud(t, 5, c), ==, 0);
        g_assert_cmpuint(ud(t, 6, c), ==, c < 4 ? 11 : 12);
    }
    g_free(t);
}

/* calla jumps to an absolute IP saving the return IP and the channel
 * enables; ret restores both (here a mask the subroutine rewrote). */
void test_calla_ret_mask(void)
{
    EuNative calla = asm_flow(EU_OP_CALLA, 1, 5 * 16, 0);
    EuThread *t;

    EU_SET(&calla, EU_DST_FILE, EU_FILE_GRF);
    EU_SET(&calla, EU_DST_TYPE, EU_TYPE_UD);
    EU_SET(&calla, EU_DST_HSTRIDE, 1);
    EU_SET(&calla, EU_DST_REG_NR, 20);
    t = RUN(0xff,
        IOTA_WORDS, IOTA_WIDEN(2),                                  /* 0, 1 */
        calla,                                                      /* 2 */
        asm_op(EU_OP_ADD, 8, D(5, 0, UD), G(2, 0, UD, R_8_8_1),
               IMM(UD, 100)),                                       /* 3 */
        asm_op(EU_OP_JMPI, 1, NUL, NUL, IMM(SD, 48)),               /* 4 */
        asm_1(EU_OP_MOV, 1, D(21, 0, UD), G(20, 4, UD, R_0_1_0)),   /* 5 */
        asm_1(EU_OP_MOV, 1, D(20, 4, UD), IMM(UD, 0x0f)),           /* 6 */
        asm_1(EU_OP_RET, 1, NUL, G(20, 0, UD, R_0_1_0)));           /* 7 */

    g_assert_cmpuint(ud(t, 20, 0), ==, 3 * 16);
    g_assert_cmpuint(ud(t, 21, 0), ==, 0xff);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmpuint(ud(t, 5, c), ==, c < 4 ? c + 100 : 0);
    }
    g_free(t);
}

/* Opcodes the model does not implement fault the thread, with a
 * reason, rather than guess: brc, brd, madm, and reserved ones. */
void test_unsupported_fault(void)
{
    static const unsigned ops[] = {
        EU_OP_BRC, EU_OP_BRD, EU_OP_MADM, 127, 11,
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

void test_cmp_pred_sel(void)
{
    EuThread *t = RUN(0xff,
        IOTA_WORDS, IOTA_WIDEN(2),
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

/*
 * sel.ge and sel.l on floats are maxNum and minNum: a NaN and a number
 * give the number, two NaNs a NaN (piglit's builtin-float-fmax and
 * -maxmag through IGC: fmax(1.0, NaN) is 1.0).
 */
void test_sel_minmax_nan(void)
{
    const uint32_t nan = 0x7fc00000, one = 0x3f800000, two = 0x40000000;
    EuThread *t = RUN(0xff,
        /* g2 = 1.0, NaN, NaN, 2.0 ...; g3 = NaN, 2.0, NaN, 1.0 ...
         * (subregisters in bytes) */
        asm_1(EU_OP_MOV, 8, D(2, 0, UD), IMM(UD, one)),
        asm_1(EU_OP_MOV, 1, D(2, 4, UD), IMM(UD, nan)),
        asm_1(EU_OP_MOV, 1, D(2, 8, UD), IMM(UD, nan)),
        asm_1(EU_OP_MOV, 1, D(2, 12, UD), IMM(UD, two)),
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, nan)),
        asm_1(EU_OP_MOV, 1, D(3, 4, UD), IMM(UD, two)),
        asm_1(EU_OP_MOV, 1, D(3, 12, UD), IMM(UD, one)),
        asm_cond(asm_op(EU_OP_SEL, 8, D(4, 0, FT), G(2, 0, FT, R_8_8_1),
                        G(3, 0, FT, R_8_8_1)), EU_COND_GE, 0),
        asm_cond(asm_op(EU_OP_SEL, 8, D(5, 0, FT), G(2, 0, FT, R_8_8_1),
                        G(3, 0, FT, R_8_8_1)), EU_COND_L, 0));

    g_assert_cmphex(ud(t, 4, 0), ==, one);
    g_assert_cmphex(ud(t, 4, 1), ==, two);
    g_assert_true(isnan(fl(t, 4, 2)));
    g_assert_cmphex(ud(t, 4, 3), ==, two);
    g_assert_cmphex(ud(t, 5, 0), ==, one);
    g_assert_cmphex(ud(t, 5, 1), ==, two);
    g_assert_true(isnan(fl(t, 5, 2)));
    g_assert_cmphex(ud(t, 5, 3), ==, one);
    g_free(t);
}

/*
 * A predicated cmp writes the flag and destination of the channels its
 * predicate enables only: IGC compiles 64-bit compares to a cmp
 * predicated on the flag it writes ("(+f0.0) cmp.z.f0.0", then
 * "(-f0.0) cmp.g.f0.0"), which relies on it.
 */
void test_cmp_predicated(void)
{
    EuThread *t = RUN(0xff,
        IOTA_WORDS, IOTA_WIDEN(2),
        asm_1(EU_OP_MOV, 8, D(3, 0, UD), IMM(UD, 7)),
        /* f0.0 = 0x0f: channels 0-3 */
        asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(2, 0, SD, R_8_8_1),
                        IMM(SD, 4)), EU_COND_L, 0),
        /* channels 0-3 only: i >= 2 -> f0.0 = 0x0c */
        asm_pred(asm_cond(asm_op(EU_OP_CMP, 8, NUL, G(2, 0, SD, R_8_8_1),
                                 IMM(SD, 2)), EU_COND_GE, 0),
                 EU_PRED_NORMAL, false, 0),
        /* the others (0, 1, 4-7): i == 6 -> f0.0 = 0x4c, g3 there */
        asm_pred(asm_cond(asm_op(EU_OP_CMP, 8, D(3, 0, SD),
                                 G(2, 0, SD, R_8_8_1), IMM(SD, 6)),
                          EU_COND_Z, 0),
                 EU_PRED_NORMAL, true, 0));

    g_assert_cmphex(t->flag[0] & 0xffff, ==, 0x4c);
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmpuint(ud(t, 3, i), ==,
                         i == 2 || i == 3 ? 7 : i == 6 ? 0xffffffff : 0);
    }
    g_free(t);
}

/* Flags see the destination's integer width; a send with every channel
 * predicated off sends nothing. */
void test_flag_width_and_pred_send(void)
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

void test_exec_mask_and_mad(void)
{
    EuThread *t = RUN(0x5a,
        IOTA_WORDS, IOTA_WIDEN(2),
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
void test_nested_if_else(void)
{
    EuThread *t = RUN(0xff,
        IOTA_WORDS, IOTA_WIDEN(2),                                  /* 0 */
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
void test_loop_break_cont(void)
{
    EuThread *t = RUN(0xff,
        IOTA_WORDS, IOTA_WIDEN(2),                                  /* 0 */
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
void test_break_inside_if(void)
{
    EuThread *t = RUN(0xff,
        IOTA_WORDS, IOTA_WIDEN(2),                                  /* 0 */
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

void test_budget_and_hostile(void)
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

void test_send_callback(void)
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

void test_call_ret_jmpi(void)
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
 * wait n0.0: a notification pending is taken and the thread goes on;
 * none, the thread suspends on the wait (EU_WAIT_NOTIFY) and evaluates
 * it again when run after one arrives.  A wait on another register
 * faults.
 */
void test_wait_notify(void)
{
    const AOp n0 = { .file = EU_FILE_ARF, .type = UD, .nr = EU_ARF_NOTIFY };
    const AOp g3 = G(3, 0, UD, R_0_1_0);
    const EuNative prog[] = {
        asm_1(EU_OP_WAIT, 1, n0, n0),
        asm_op(EU_OP_ADD, 1, D(3, 0, UD), g3, IMM(UD, 1)),
        asm_1(EU_OP_WAIT, 1, n0, n0),
        asm_op(EU_OP_ADD, 1, D(3, 0, UD), g3, IMM(UD, 1)),
        EOT,
    };
    const EuNative bad[] = { asm_1(EU_OP_WAIT, 1, n0, g3), EOT };
    SendLog log = { 0 };
    EuThread *t = thread_for(prog, G_N_ELEMENTS(prog), 0xff, &log);

    t->notify[0] = 1;
    g_assert_cmpint(eu_run(t, 100), ==, EU_WAIT_NOTIFY);
    g_assert_cmpuint(ud(t, 3, 0), ==, 1);
    g_assert_cmpuint(t->ip, ==, 32);
    g_assert_cmpuint(t->notify_wait, ==, 0);
    g_assert_cmpint(eu_run(t, 100), ==, EU_WAIT_NOTIFY);   /* still none */
    g_assert_cmpuint(t->ip, ==, 32);
    t->notify[0] = 1;
    g_assert_cmpint(eu_run(t, 100), ==, EU_DONE);
    g_assert_cmpuint(ud(t, 3, 0), ==, 2);
    g_assert_cmpuint(t->notify[0], ==, 0);
    g_free(t);

    t = thread_for(bad, G_N_ELEMENTS(bad), 0xff, &log);
    g_assert_cmpint(eu_run(t, 10), ==, EU_FAULT);
    g_free(t);
}

