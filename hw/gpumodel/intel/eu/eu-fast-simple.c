/*
 * Gen11 EU interpreter: the fast paths' simplest forms, an executor
 * compiled for each operation and shape of its sources.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "eu-exec-int.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/*
 * The simplest forms (F add/mul/mad, D/UD add/mul/and/or/shl and cmp: no
 * source modifiers, saturation or condition besides cmp's) get
 * executors compiled for their sources' shapes, bit s of shape set when
 * source s is a vector, so that the lanes stay in registers.
 */
/* Four lanes at a time, in the compilers' generic vectors (GCC and
 * clang lower them to the host's SIMD, or to scalar code). */
typedef float EuV4F __attribute__((vector_size(16)));
typedef double EuV4D __attribute__((vector_size(32)));
typedef uint32_t EuV4U __attribute__((vector_size(16)));
typedef int32_t EuV4I __attribute__((vector_size(16)));

/*
 * The comparison's lanes as all ones or zero (what cmp writes), on four
 * vectors of four lanes, the condition resolved once rather than per
 * lane.
 */
#define FAST_CMP_MASK4(cond, a, b, m) \
    do { \
        switch (cond) { \
        case EU_COND_Z: \
            FAST_CMP_VEC(a, b, m, EU_FAST_EQ); \
            break; \
        case EU_COND_NZ: \
            FAST_CMP_VEC(a, b, m, EU_FAST_NE); \
            break; \
        case EU_COND_G: \
            FAST_CMP_VEC(a, b, m, EU_FAST_GT); \
            break; \
        case EU_COND_GE: \
            FAST_CMP_VEC(a, b, m, EU_FAST_GE); \
            break; \
        case EU_COND_L: \
            FAST_CMP_VEC(a, b, m, EU_FAST_LT); \
            break; \
        case EU_COND_LE: \
            FAST_CMP_VEC(a, b, m, EU_FAST_LE); \
            break; \
        default: \
            (m)[0] = (m)[1] = (m)[2] = (m)[3] = (EuV4I){ 0 }; \
        } \
    } while (0)
#define FAST_CMP_VEC(a, b, m, CMP) \
    do { \
        (m)[0] = (EuV4I)CMP((a)[0], (b)[0]); \
        (m)[1] = (EuV4I)CMP((a)[1], (b)[1]); \
        (m)[2] = (EuV4I)CMP((a)[2], (b)[2]); \
        (m)[3] = (EuV4I)CMP((a)[3], (b)[3]); \
    } while (0)

/* Source s as four vectors of 32-bit lanes: 16 lanes of a vector, or a
 * scalar (register or immediate) broadcast. */
static inline __attribute__((always_inline))
void simple_load(const EuThread *t, const EuInst *in, int s, bool vec,
                 EuV4U *v)
{
    if (vec) {
        memcpy(v, t->grf + in->fast_src[s], 4 * sizeof(*v));
    } else {
        uint32_t x = eu_fast_scalar(t, in, s);

        v[0] = v[1] = v[2] = v[3] = (EuV4U){ x, x, x, x };
    }
}

static inline __attribute__((always_inline))
void simple_f(EuThread *t, const EuInst *in, unsigned op, unsigned shape)
{
    EuV4U ua[4], ub[4], uc[4], m[4];
    EuV4F r[4];
    const EuV4U qnan = { 0x7fc00000, 0x7fc00000, 0x7fc00000, 0x7fc00000 };
    EuV4U any;

    simple_load(t, in, 0, shape & 1, ua);
    simple_load(t, in, 1, shape & 2, ub);
    if (op == EU_OP_MAD) {
        simple_load(t, in, 2, shape & 4, uc);
    }
    _Pragma("GCC unroll 4")
    for (int i = 0; i < 4; i++) {
        EuV4F a = (EuV4F)ua[i], b = (EuV4F)ub[i];

        if (op == EU_OP_MAD) {
            EuV4D x = __builtin_convertvector(a, EuV4D);
            EuV4D y = __builtin_convertvector(b, EuV4D);
            EuV4D z = __builtin_convertvector((EuV4F)uc[i], EuV4D);

            r[i] = __builtin_convertvector(x + y * z, EuV4F);
        } else {
            r[i] = op == EU_OP_ADD ? a + b : a * b;
        }
        m[i] = (EuV4U)(r[i] != r[i]);
    }
    any = m[0] | m[1] | m[2] | m[3];
    if (any[0] | any[1] | any[2] | any[3]) {
        _Pragma("GCC unroll 4")
    for (int i = 0; i < 4; i++) {
            r[i] = (EuV4F)(((EuV4U)r[i] & ~m[i]) | (qnan & m[i]));
        }
    }
    eu_fast_store(t, in, eu_fast_enables(t, in, true), r, 4);
}

/* Bit i set where lane i of the four masks is. */
static inline uint32_t fast_mask4_bits(const EuV4I *m)
{
#ifdef __SSE2__
    return (uint32_t)_mm_movemask_ps((__m128)m[0]) |
           (uint32_t)_mm_movemask_ps((__m128)m[1]) << 4 |
           (uint32_t)_mm_movemask_ps((__m128)m[2]) << 8 |
           (uint32_t)_mm_movemask_ps((__m128)m[3]) << 12;
#else
    uint32_t bits = 0;

    for (int v = 0; v < 4; v++) {
        for (int i = 0; i < 4; i++) {
            bits |= (m[v][i] & 1u) << (4 * v + i);
        }
    }
    return bits;
#endif
}

static inline __attribute__((always_inline))
void simple_i32(EuThread *t, const EuInst *in, unsigned op, unsigned shape)
{
    EuV4U a[4], b[4], r[4];
    EuV4I m[4];
    uint32_t en, bits;

    simple_load(t, in, 0, shape & 1, a);
    simple_load(t, in, 1, shape & 2, b);
    _Pragma("GCC unroll 4")
    for (int i = 0; i < 4; i++) {
        switch (op) {
        case EU_OP_ADD:
            r[i] = a[i] + b[i];
            break;
        case EU_OP_MUL:
            r[i] = a[i] * b[i];
            break;
        case EU_OP_AND:
            r[i] = a[i] & b[i];
            break;
        case EU_OP_OR:
            r[i] = a[i] | b[i];
            break;
        case EU_OP_SHL:
            r[i] = a[i] << (b[i] & 31);
            break;
        }
    }
    if (op != EU_OP_CMP) {
        eu_fast_store(t, in, eu_fast_enables(t, in, true), r, 4);
        return;
    }
    en = eu_fast_enables(t, in, true);
    if (in->src[0].type == EU_TYPE_D) {
        EuV4I x[4], y[4];

        memcpy(x, a, sizeof(x));
        memcpy(y, b, sizeof(y));
        FAST_CMP_MASK4(in->cond_mod, x, y, m);
    } else {
        FAST_CMP_MASK4(in->cond_mod, a, b, m);
    }
    bits = fast_mask4_bits(m) & ((1u << in->exec_size) - 1);
    eu_fast_set_flags(t, in, en, bits);
    eu_fast_store(t, in, en, m, 4);
}

#define SIMPLE_F(op, shape) \
    static void exec_sf_##op##_##shape(EuThread *t, const EuInst *in) \
    { \
        simple_f(t, in, EU_OP_##op, shape); \
    }
#define SIMPLE_I(op, shape) \
    static void exec_si_##op##_##shape(EuThread *t, const EuInst *in) \
    { \
        simple_i32(t, in, EU_OP_##op, shape); \
    }
#define SIMPLE_SHAPES2(X, op) X(op, 0) X(op, 1) X(op, 2) X(op, 3)
SIMPLE_SHAPES2(SIMPLE_F, ADD) SIMPLE_SHAPES2(SIMPLE_F, MUL)
SIMPLE_SHAPES2(SIMPLE_F, MAD) SIMPLE_F(MAD, 4) SIMPLE_F(MAD, 5)
SIMPLE_F(MAD, 6) SIMPLE_F(MAD, 7)
SIMPLE_SHAPES2(SIMPLE_I, ADD) SIMPLE_SHAPES2(SIMPLE_I, MUL)
SIMPLE_SHAPES2(SIMPLE_I, AND) SIMPLE_SHAPES2(SIMPLE_I, OR)
SIMPLE_SHAPES2(SIMPLE_I, SHL) SIMPLE_SHAPES2(SIMPLE_I, CMP)

#define SIMPLE_TAB2(p, op) \
    { p##op##_0, p##op##_1, p##op##_2, p##op##_3 }

/* The simple executor for in, or NULL (after eu_fast_exec_for() accepted
 * it, so the operands are resolved). */
EuExecFn eu_fast_simple_exec_for(const EuInst *in, bool fp, bool null_dst)
{
    static const EuExecFn f_add[4] = SIMPLE_TAB2(exec_sf_, ADD);
    static const EuExecFn f_mul[4] = SIMPLE_TAB2(exec_sf_, MUL);
    static const EuExecFn f_mad[8] = {
        exec_sf_MAD_0, exec_sf_MAD_1, exec_sf_MAD_2, exec_sf_MAD_3,
        exec_sf_MAD_4, exec_sf_MAD_5, exec_sf_MAD_6, exec_sf_MAD_7,
    };
    static const EuExecFn i_ops[][4] = {
        SIMPLE_TAB2(exec_si_, ADD), SIMPLE_TAB2(exec_si_, MUL),
        SIMPLE_TAB2(exec_si_, AND), SIMPLE_TAB2(exec_si_, OR),
        SIMPLE_TAB2(exec_si_, SHL), SIMPLE_TAB2(exec_si_, CMP),
    };
    unsigned shape = 0, op = in->opcode;

    for (int s = 0; s < in->nsrc && s < 3; s++) {
        if (in->src[s].abs || in->src[s].negate) {
            return NULL;
        }
        shape |= (in->fast_step[s] ? 1u : 0) << s;
    }
    if (in->saturate || (in->cond_mod && op != EU_OP_CMP) ||
        (null_dst && op != EU_OP_CMP)) {
        return NULL;
    }
    if (fp) {
        return op == EU_OP_ADD ? f_add[shape] :
               op == EU_OP_MUL ? f_mul[shape] :
               op == EU_OP_MAD ? f_mad[shape] : NULL;
    }
    switch (op) {
    case EU_OP_ADD: return i_ops[0][shape];
    case EU_OP_MUL: return i_ops[1][shape];
    case EU_OP_AND: return i_ops[2][shape];
    case EU_OP_OR: return i_ops[3][shape];
    case EU_OP_SHL: return i_ops[4][shape];
    case EU_OP_CMP: return i_ops[5][shape];
    }
    return NULL;
}
