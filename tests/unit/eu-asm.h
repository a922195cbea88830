/*
 * A tiny Gen11 EU assembler for the unit tests: just enough to build
 * native align1 instructions field by field, with the names of
 * hw/gpumodel/intel/eu/eu-isa.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_EU_ASM_H
#define TESTS_UNIT_EU_ASM_H

#include "igt-kernels.h"
#include "intel/eu/eu-exec.h"

/* An operand: file, type (hardware encoding), register, byte subregister
 * and region encodings (vstride, width, hstride). */
typedef struct AOp {
    unsigned file, type, nr, sub, vs, w, hs;
    uint32_t imm;
    bool ind, neg, abs;
    unsigned a_sub;
    int a_imm;
} AOp;

/* Region encodings: <vs;w,hs> in the log form of eu-isa.h. */
#define R_8_8_1 4, 3, 1
#define R_0_1_0 0, 0, 0
#define R_16_8_2 5, 3, 2
#define R_4_4_1 3, 2, 1

#define G(nr_, sub_, t_, rgn_) \
    ((AOp){ .file = EU_FILE_GRF, .type = (t_), .nr = (nr_), .sub = (sub_), \
            .vs = asm_vs((int[]){ rgn_ }), .w = asm_w((int[]){ rgn_ }), \
            .hs = asm_hs((int[]){ rgn_ }) })
#define D(nr_, sub_, t_) \
    ((AOp){ .file = EU_FILE_GRF, .type = (t_), .nr = (nr_), .sub = (sub_), \
            .hs = 1 })
#define IMM(t_, v_) ((AOp){ .file = EU_FILE_IMM, .type = (t_), .imm = (v_) })
#define NUL ((AOp){ .file = EU_FILE_ARF, .type = EU_TYPE_UD, .hs = 1 })

static inline unsigned asm_vs(const int *r) { return r[0]; }
static inline unsigned asm_w(const int *r) { return r[1]; }
static inline unsigned asm_hs(const int *r) { return r[2]; }

static inline uint32_t asm_f(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

static inline unsigned asm_log2(unsigned v)
{
    return 31 - __builtin_clz(v);
}

static inline void asm_src_set(EuNative *n, int i, EuField f, uint64_t v)
{
    eu_set_bits_(n, EU_F(f.hi + 32 * i, f.lo + 32 * i), v);
}

/* Source i (src1's fields are src0's plus 32 bits, but for AddrImm[9]). */
static inline void asm_src(EuNative *n, int i, AOp s)
{
    if (i) {
        EU_SET(n, EU_SRC1_FILE, s.file);
        EU_SET(n, EU_SRC1_TYPE, s.type);
    } else {
        EU_SET(n, EU_SRC0_FILE, s.file);
        EU_SET(n, EU_SRC0_TYPE, s.type);
    }
    if (s.file == EU_FILE_IMM) {
        EU_SET(n, EU_IMM32, s.imm);
        return;
    }
    if (s.file != EU_FILE_GRF && i == 1) {
        return;                 /* null: src1 bits may hold an immediate */
    }
    asm_src_set(n, i, EU_SRC0_VSTRIDE, s.vs);
    asm_src_set(n, i, EU_SRC0_WIDTH, s.w);
    asm_src_set(n, i, EU_SRC0_HSTRIDE, s.hs);
    asm_src_set(n, i, EU_SRC0_NEGATE, s.neg);
    asm_src_set(n, i, EU_SRC0_ABS, s.abs);
    if (s.ind) {
        asm_src_set(n, i, EU_SRC0_ADDR_MODE, 1);
        asm_src_set(n, i, EU_SRC0_IA_SUBREG, s.a_sub);
        asm_src_set(n, i, EU_SRC0_IA_IMM, s.a_imm & 0x1ff);
        if (i) {
            EU_SET(n, EU_SRC1_IA_IMM9, (s.a_imm >> 9) & 1);
        } else {
            EU_SET(n, EU_SRC0_IA_IMM9, (s.a_imm >> 9) & 1);
        }
    } else {
        asm_src_set(n, i, EU_SRC0_REG_NR, s.nr);
        asm_src_set(n, i, EU_SRC0_SUBREG, s.sub);
    }
}

/* Two-source (or one-source) align1 instruction. */
static inline EuNative asm_op(unsigned op, unsigned exec, AOp dst, AOp s0,
                              AOp s1)
{
    EuNative n = { 0 };

    EU_SET(&n, EU_OPCODE, op);
    EU_SET(&n, EU_EXEC_SIZE, asm_log2(exec));
    EU_SET(&n, EU_DST_FILE, dst.file);
    EU_SET(&n, EU_DST_TYPE, dst.type);
    EU_SET(&n, EU_DST_HSTRIDE, dst.hs);
    if (dst.ind) {
        EU_SET(&n, EU_DST_ADDR_MODE, 1);
        EU_SET(&n, EU_DST_IA_SUBREG, dst.a_sub);
        EU_SET(&n, EU_DST_IA_IMM, dst.a_imm & 0x1ff);
        EU_SET(&n, EU_DST_IA_IMM9, (dst.a_imm >> 9) & 1);
    } else {
        EU_SET(&n, EU_DST_REG_NR, dst.nr);
        EU_SET(&n, EU_DST_SUBREG, dst.sub);
    }
    asm_src(&n, 0, s0);
    asm_src(&n, 1, s1);
    return n;
}

static inline EuNative asm_1(unsigned op, unsigned exec, AOp dst, AOp s0)
{
    return asm_op(op, exec, dst, s0, NUL);
}

/* Modifiers applied after building. */
static inline EuNative asm_cond(EuNative n, unsigned cond, unsigned flag)
{
    EU_SET(&n, EU_COND_MOD, cond);
    EU_SET(&n, EU_FLAG_REG, flag >> 1);
    EU_SET(&n, EU_FLAG_SUBREG, flag & 1);
    return n;
}

static inline EuNative asm_pred(EuNative n, unsigned ctrl, bool inv,
                                unsigned flag)
{
    EU_SET(&n, EU_PRED_CTRL, ctrl);
    EU_SET(&n, EU_PRED_INV, inv);
    EU_SET(&n, EU_FLAG_REG, flag >> 1);
    EU_SET(&n, EU_FLAG_SUBREG, flag & 1);
    return n;
}

static inline EuNative asm_sat(EuNative n)
{
    EU_SET(&n, EU_SATURATE, 1);
    return n;
}

static inline EuNative asm_acc_wr(EuNative n)
{
    EU_SET(&n, EU_ACC_WR, 1);
    return n;
}

static inline EuNative asm_math(unsigned fn, unsigned exec, AOp dst, AOp s0,
                                AOp s1)
{
    EuNative n = asm_op(EU_OP_MATH, exec, dst, s0, s1);

    EU_SET(&n, EU_COND_MOD, fn);
    return n;
}

/* Flow control: JIP/UIP in bytes from this instruction. */
static inline EuNative asm_flow(unsigned op, unsigned exec, int jip, int uip)
{
    EuNative n = { 0 };

    EU_SET(&n, EU_OPCODE, op);
    EU_SET(&n, EU_EXEC_SIZE, asm_log2(exec));
    EU_SET(&n, EU_JIP, (uint32_t)jip);
    EU_SET(&n, EU_UIP, (uint32_t)uip);
    return n;
}

/* Three-source align1 (mad etc.), all GRF <8;8,1>-like regions with
 * the Gen10+ 2-bit vstride/hstride encodings. */
static inline EuNative asm_3src(unsigned op, unsigned exec, bool fp,
                                unsigned type, unsigned dst, unsigned s0,
                                unsigned s1, unsigned s2)
{
    EuNative n = { 0 };

    EU_SET(&n, EU_OPCODE, op);
    EU_SET(&n, EU_EXEC_SIZE, asm_log2(exec));
    EU_SET(&n, EU_3_EXEC_TYPE, fp);
    EU_SET(&n, EU_3_DST_TYPE, type);
    EU_SET(&n, EU_3_SRC0_TYPE, type);
    EU_SET(&n, EU_3_SRC1_TYPE, type);
    EU_SET(&n, EU_3_SRC2_TYPE, type);
    EU_SET(&n, EU_3_DST_HSTRIDE, 1);
    EU_SET(&n, EU_3_DST_REG_NR, dst);
    EU_SET(&n, EU_3_SRC0_REG_NR, s0);
    EU_SET(&n, EU_3_SRC1_REG_NR, s1);
    EU_SET(&n, EU_3_SRC2_REG_NR, s2);
    EU_SET(&n, EU_3_SRC0_VSTRIDE, 3);   /* 8 */
    EU_SET(&n, EU_3_SRC0_HSTRIDE, 1);
    EU_SET(&n, EU_3_SRC1_VSTRIDE, 3);
    EU_SET(&n, EU_3_SRC1_HSTRIDE, 1);
    EU_SET(&n, EU_3_SRC2_HSTRIDE, 1);
    return n;
}

/* A send with an immediate descriptor; sfid in the cond-mod bits. */
static inline EuNative asm_send(unsigned exec, unsigned dst, unsigned src,
                                unsigned sfid, uint32_t desc, bool eot)
{
    EuNative n = asm_1(EU_OP_SEND, exec, D(dst, 0, EU_TYPE_UD),
                       G(src, 0, EU_TYPE_UD, R_8_8_1));

    EU_SET(&n, EU_COND_MOD, sfid);
    EU_SET(&n, EU_SRC1_FILE, EU_FILE_IMM);
    EU_SET(&n, EU_SEND_DESC, desc & 0x7fffffff);
    EU_SET(&n, EU_SEND_EOT, eot);
    return n;
}

/* Little-endian byte image of a program. */
static inline void asm_emit(uint8_t *out, const EuNative *prog, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t lo = GUINT64_TO_LE(prog[i].lo), hi = GUINT64_TO_LE(prog[i].hi);

        memcpy(out + 16 * i, &lo, 8);
        memcpy(out + 16 * i + 8, &hi, 8);
    }
}

/* IGT's dword arrays as the little-endian bytes the EU fetches. */
static inline void asm_kernel_bytes(uint8_t *out, const uint32_t (*k)[4],
                                    size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < 4; j++) {
            uint32_t le = GUINT32_TO_LE(k[i][j]);

            memcpy(out + 16 * i + 4 * j, &le, 4);
        }
    }
}


#ifdef EU_GOLDEN_DIR
/* Disassemble IGT's kernel k and compare with the golden file name
 * (EU_GOLDEN_PRINT=1 prints the text, to write a new golden file). */
static inline void asm_check_golden(const char *name, const uint32_t (*k)[4],
                                    size_t n)
{
    g_autofree char *path = g_build_filename(EU_GOLDEN_DIR, name, NULL);
    g_autofree char *want = NULL;
    g_autoptr(GError) err = NULL;
    GString *s = g_string_new(NULL);
    g_autofree char *text = NULL;

    for (size_t i = 0; i < n; i++) {
        uint8_t bytes[16];
        EuInst d;

        asm_kernel_bytes(bytes, &k[i], 1);
        g_assert_cmpint(eu_decode(bytes, 16, &d), ==, 0);
        g_assert_null(d.error);
        eu_disasm(&d, s);
        g_string_append_c(s, '\n');
    }
    text = g_string_free(s, false);
    if (g_getenv("EU_GOLDEN_PRINT")) {
        g_print("%s", text);
    }
    g_assert_true(g_file_get_contents(path, &want, NULL, &err));
    g_assert_no_error(err);
    g_assert_cmpstr(text, ==, want);
}
#endif

#endif
