/*
 * Unit tests of the Gen11 EU interpreter: random instruction words, and the
 * fast paths checked against the generic path on random kernels.
 * test-intel-eu-exec.c has the helpers and registers these tests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "test-intel-eu-exec.h"

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

void test_random_kernels(void)
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

void test_fast_paths_agree(void)
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
