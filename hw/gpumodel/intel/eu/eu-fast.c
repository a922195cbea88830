/*
 * Gen11 EU interpreter: the fast paths on whole registers (see
 * eu-exec-int.h), floats and integers in 16 lanes, and the choice of an
 * instruction's fast executor when it is cached: the simplest forms go to
 * eu-fast-simple.c's executors, mad through the NF accumulator to
 * eu-fast-acc.c's.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include "eu-exec-int.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static bool fast_cond(unsigned cond, double x)
{
    switch (cond) {
    case EU_COND_Z: return x == 0;
    case EU_COND_NZ: return !(x == 0);
    case EU_COND_G: return x > 0;
    case EU_COND_GE: return x >= 0;
    case EU_COND_L: return x < 0;
    case EU_COND_LE: return x <= 0;
    case EU_COND_U: return isnan(x);
    case EU_COND_O: return isinf(x);
    }
    return false;
}

/*
 * The comparison cmp and sel make (a - b's sign, as eu-alu.c's
 * eu_alu_diff() gives it).
 */
static bool fast_cmp_f(unsigned cond, double a, double b)
{
    switch (cond) {
    case EU_COND_Z: return a == b;
    case EU_COND_NZ: return !(a == b);
    case EU_COND_G: return a > b;
    case EU_COND_GE: return a >= b;
    case EU_COND_L: return a < b;
    case EU_COND_LE: return a <= b;
    }
    return false;
}

static bool fast_cmp_i(unsigned cond, int64_t a, int64_t b)
{
    switch (cond) {
    case EU_COND_Z: return a == b;
    case EU_COND_NZ: return a != b;
    case EU_COND_G: return a > b;
    case EU_COND_GE: return a >= b;
    case EU_COND_L: return a < b;
    case EU_COND_LE: return a <= b;
    }
    return false;
}

/*
 * sel.l and sel.ge on floats: min and max, which give the number of a NaN
 * and a number (alu_sel()).
 */
static bool fast_pick_f(unsigned cond, float a, float b)
{
    if ((cond == EU_COND_L || cond == EU_COND_GE) &&
        (isnan(a) || isnan(b))) {
        return !isnan(a);
    }
    return fast_cmp_f(cond, a, b);
}

/* sel: a where the condition (or, without one, the predicate) holds. */
#define FAST_SEL(t, in, r, a, b, cmp) \
    do { \
        uint32_t p_ = eu_fast_pred(t, in); \
        for (int i = 0; i < EU_FAST_LANES; i++) { \
            bool pick_ = in->cond_mod ? cmp(in->cond_mod, a[i], b[i]) \
                                      : (p_ >> i) & 1; \
            r[i] = pick_ ? a[i] : b[i]; \
        } \
    } while (0)

/* Bit i set where m[i] (all ones or zero) is set. */
static inline uint32_t fast_mask_bits(const int32_t *m)
{
    uint32_t bits = 0;

#ifdef __SSE2__
    for (int i = 0; i < EU_FAST_LANES; i += 4) {
        __m128 v;

        memcpy(&v, m + i, sizeof(v));
        bits |= (uint32_t)_mm_movemask_ps(v) << i;
    }
#else
    for (int i = 0; i < EU_FAST_LANES; i++) {
        bits |= (m[i] & 1u) << i;
    }
#endif
    return bits;
}

/* The comparison's lanes as all ones or zero (what cmp writes), the
 * condition resolved once rather than per lane. */
#define FAST_CMP_MASK(cond, a, b, m) \
    do { \
        switch (cond) { \
        case EU_COND_Z: \
            FAST_CMP_LOOP(a, b, m, EU_FAST_EQ, 0); \
            break; \
        case EU_COND_NZ: \
            FAST_CMP_LOOP(a, b, m, EU_FAST_EQ, -1); \
            break; \
        case EU_COND_G: \
            FAST_CMP_LOOP(a, b, m, EU_FAST_GT, 0); \
            break; \
        case EU_COND_GE: \
            FAST_CMP_LOOP(a, b, m, EU_FAST_GE, 0); \
            break; \
        case EU_COND_L: \
            FAST_CMP_LOOP(a, b, m, EU_FAST_LT, 0); \
            break; \
        case EU_COND_LE: \
            FAST_CMP_LOOP(a, b, m, EU_FAST_LE, 0); \
            break; \
        } \
    } while (0)

#define FAST_CMP_LOOP(a, b, m, CMP, inv) \
    for (int i_ = 0; i_ < EU_FAST_LANES; i_++) { \
        (m)[i_] = (CMP((a)[i_], (b)[i_]) ? -1 : 0) ^ (inv); \
    }

/* A float source's 16 lanes: a vector reads 64 bytes (fast_operand()
 * made sure they are inside the GRF), a scalar is broadcast. */
static inline __attribute__((always_inline))
void fast_load_f(const EuThread *t, const EuInst *in, int s, float *v)
{
    const EuOperand *o = &in->src[s];

    if (in->fast_step[s]) {
        memcpy(v, t->grf + in->fast_src[s], 4 * EU_FAST_LANES);
    } else {
        float x = eu_fast_scalar_f(t, in, s);

        for (int i = 0; i < EU_FAST_LANES; i++) {
            v[i] = x;
        }
    }
    if (o->abs) {
        for (int i = 0; i < EU_FAST_LANES; i++) {
            v[i] = fabsf(v[i]);
        }
    }
    if (o->negate) {
        for (int i = 0; i < EU_FAST_LANES; i++) {
            v[i] = -v[i];
        }
    }
}

/*
 * Floats.  add and mul round once in float, which is what the generic
 * path's double computation rounded to float gives (double holds the
 * exact sum or product's first 2 x 24 + 2 bits); mad goes through double
 * as the generic path does.  mov and sel go through double there too,
 * which quiets a signaling NaN: so do they here.
 */
static inline __attribute__((always_inline))
void fast_f(EuThread *t, const EuInst *in, unsigned op)
{
    float a[EU_FAST_LANES], b[EU_FAST_LANES], c[EU_FAST_LANES];
    float r[EU_FAST_LANES];
    unsigned n = in->exec_size;
    uint32_t en = eu_fast_enables(t, in, op != EU_OP_SEL);
    uint32_t bits = 0;

    fast_load_f(t, in, 0, a);
    if (in->nsrc > 1) {
        fast_load_f(t, in, 1, b);
    }
    switch (op) {
    case EU_OP_MOV:
        memcpy(r, a, sizeof(r));
        break;
    case EU_OP_ADD:
        for (int i = 0; i < EU_FAST_LANES; i++) {
            r[i] = a[i] + b[i];
        }
        break;
    case EU_OP_MUL:
        for (int i = 0; i < EU_FAST_LANES; i++) {
            r[i] = a[i] * b[i];
        }
        break;
    case EU_OP_MAD:
        fast_load_f(t, in, 2, c);
        for (int i = 0; i < EU_FAST_LANES; i++) {
            r[i] = (double)a[i] + (double)b[i] * (double)c[i];
        }
        break;
    case EU_OP_SEL:
        FAST_SEL(t, in, r, a, b, fast_pick_f);
        break;
    case EU_OP_CMP: {
        int32_t m[EU_FAST_LANES];

        FAST_CMP_MASK(in->cond_mod, a, b, m);
        bits = fast_mask_bits(m) & ((1u << n) - 1);
        eu_fast_set_flags(t, in, en, bits);
        eu_fast_store(t, in, en, m, 4);
        return;
    }
    }
    if (op == EU_OP_MOV && eu_is_raw_mov(in)) {
        /* the bits as they are */
    } else if (op == EU_OP_MOV || op == EU_OP_SEL) {
        uint32_t u[EU_FAST_LANES];

        memcpy(u, r, sizeof(u));
        for (int i = 0; i < EU_FAST_LANES; i++) {
            u[i] |= (u[i] & 0x7fffffff) > 0x7f800000 ? 0x00400000 : 0;
        }
        memcpy(r, u, sizeof(u));
    } else {
        int32_t m[EU_FAST_LANES];

        for (int i = 0; i < EU_FAST_LANES; i++) {
            m[i] = r[i] != r[i] ? -1 : 0;
        }
        if (fast_mask_bits(m)) {
            for (int i = 0; i < EU_FAST_LANES; i++) {
                r[i] = isnan(r[i]) ? NAN : r[i];
            }
        }
    }
    if (in->saturate) {
        for (int i = 0; i < EU_FAST_LANES; i++) {
            r[i] = isnan(r[i]) ? 0.0f : r[i] < 0.0f ? 0.0f :
                   r[i] > 1.0f ? 1.0f : r[i];
        }
    }
    if (in->cond_mod && op != EU_OP_SEL) {
        for (unsigned i = 0; i < n; i++) {
            bits |= (uint32_t)fast_cond(in->cond_mod, r[i]) << i;
        }
        eu_fast_set_flags(t, in, en, bits);
    }
    eu_fast_store(t, in, en, r, 4);
}

/*
 * The integer operations both integer paths share, on lanes of the
 * unsigned type lane_t (the MAD case loads src2 with load); false for any
 * other op, which the caller's own switch does.
 */
#define FAST_INT_FN(name, lane_t, src_t, load) \
static inline __attribute__((always_inline)) \
bool name(const EuThread *t, const EuInst *in, unsigned op, lane_t *r, \
      const src_t *a, const src_t *b, src_t *c) \
{ \
    switch (op) { \
    case EU_OP_MOV: \
        for (int i = 0; i < EU_FAST_LANES; i++) { \
            r[i] = a[i]; \
        } \
        return true; \
    case EU_OP_NOT: \
        for (int i = 0; i < EU_FAST_LANES; i++) { \
            r[i] = ~a[i]; \
        } \
        return true; \
    case EU_OP_ADD: \
        for (int i = 0; i < EU_FAST_LANES; i++) { \
            r[i] = (lane_t)a[i] + (lane_t)b[i]; \
        } \
        return true; \
    case EU_OP_MUL: \
        for (int i = 0; i < EU_FAST_LANES; i++) { \
            r[i] = (lane_t)a[i] * (lane_t)b[i]; \
        } \
        return true; \
    case EU_OP_MAD: \
        load(t, in, 2, c); \
        for (int i = 0; i < EU_FAST_LANES; i++) { \
            r[i] = (lane_t)a[i] + (lane_t)b[i] * (lane_t)c[i]; \
        } \
        return true; \
    case EU_OP_AND: \
        for (int i = 0; i < EU_FAST_LANES; i++) { \
            r[i] = a[i] & b[i]; \
        } \
        return true; \
    case EU_OP_OR: \
        for (int i = 0; i < EU_FAST_LANES; i++) { \
            r[i] = a[i] | b[i]; \
        } \
        return true; \
    case EU_OP_XOR: \
        for (int i = 0; i < EU_FAST_LANES; i++) { \
            r[i] = a[i] ^ b[i]; \
        } \
        return true; \
    case EU_OP_SHL: \
        for (int i = 0; i < EU_FAST_LANES; i++) { \
            r[i] = (lane_t)a[i] << (b[i] & 31); \
        } \
        return true; \
    default: \
        return false; \
    } \
}

/* 32-bit integers without source modifiers, in 32-bit lanes. */
static inline __attribute__((always_inline))
void fast_load_u32(const EuThread *t, const EuInst *in, int s, uint32_t *v)
{
    if (in->fast_step[s]) {
        memcpy(v, t->grf + in->fast_src[s], 4 * EU_FAST_LANES);
    } else {
        uint32_t x = eu_fast_scalar(t, in, s);

        for (int i = 0; i < EU_FAST_LANES; i++) {
            v[i] = x;
        }
    }
}

FAST_INT_FN(fast_int_u32, uint32_t, uint32_t, fast_load_u32)

static int64_t fast_ext32(uint32_t x, bool sgn)
{
    return sgn ? (int64_t)(int32_t)x : (int64_t)x;
}

static inline __attribute__((always_inline))
void fast_i32(EuThread *t, const EuInst *in, unsigned op)
{
    uint32_t a[EU_FAST_LANES], b[EU_FAST_LANES], c[EU_FAST_LANES];
    uint32_t r[EU_FAST_LANES];
    unsigned n = in->exec_size;
    bool s0 = in->src[0].type == EU_TYPE_D;
    uint32_t en = eu_fast_enables(t, in, op != EU_OP_SEL);
    uint32_t bits = 0;

    fast_load_u32(t, in, 0, a);
    if (in->nsrc > 1) {
        fast_load_u32(t, in, 1, b);
    }
    if (!fast_int_u32(t, in, op, r, a, b, c)) {
        switch (op) {
        case EU_OP_SHR:
            for (int i = 0; i < EU_FAST_LANES; i++) {
                r[i] = a[i] >> (b[i] & 31);
            }
            break;
        case EU_OP_ASR:
            for (int i = 0; i < EU_FAST_LANES; i++) {
                r[i] = s0 ? (uint32_t)((int32_t)a[i] >> (b[i] & 31)) :
                       a[i] >> (b[i] & 31);
            }
            break;
        case EU_OP_SEL: {
            uint32_t p = eu_fast_pred(t, in);

            for (int i = 0; i < EU_FAST_LANES; i++) {
                bool pick = in->cond_mod ?
                            fast_cmp_i(in->cond_mod, fast_ext32(a[i], s0),
                                       fast_ext32(b[i], s0)) : (p >> i) & 1;

                r[i] = pick ? a[i] : b[i];
            }
            break;
        }
        case EU_OP_CMP: {
            int32_t m[EU_FAST_LANES];

            if (s0) {
                int32_t x[EU_FAST_LANES], y[EU_FAST_LANES];

                memcpy(x, a, sizeof(x));
                memcpy(y, b, sizeof(y));
                FAST_CMP_MASK(in->cond_mod, x, y, m);
            } else {
                FAST_CMP_MASK(in->cond_mod, a, b, m);
            }
            bits = fast_mask_bits(m) & ((1u << n) - 1);
            eu_fast_set_flags(t, in, en, bits);
            eu_fast_store(t, in, en, m, 4);
            return;
        }
        }
    }
    if (in->cond_mod && op != EU_OP_SEL) {
        bool sd = in->dst.type == EU_TYPE_D;

        for (unsigned i = 0; i < n; i++) {
            bits |= (uint32_t)fast_cond(in->cond_mod,
                                        (double)fast_ext32(r[i], sd)) << i;
        }
        eu_fast_set_flags(t, in, en, bits);
    }
    eu_fast_store(t, in, en, r, 4);
}

/* Integer sources as the generic path extends them (eu_read_raw()). */
static void fast_load_i(const EuThread *t, const EuInst *in, int s,
                        int64_t *v)
{
    const EuOperand *o = &in->src[s];
    unsigned n = in->fast_step[s] ? in->exec_size : 1;
    const uint8_t *p = t->grf + in->fast_src[s];
    uint8_t imm[8];

    if (o->file == EU_FILE_IMM) {
        memcpy(imm, &o->imm, 8);
        p = imm;
        n = 1;
    }
    for (unsigned i = 0; i < n; i++) {
        v[i] = eu_read_raw(o->type, p + i * eu_type_size(o->type)).i;
    }
    if (n == 1) {
        for (int i = 1; i < EU_FAST_LANES; i++) {
            v[i] = v[0];
        }
    }
    if (o->abs) {
        for (int i = 0; i < EU_FAST_LANES; i++) {
            v[i] = v[i] < 0 ? (int64_t)(0 - (uint64_t)v[i]) : v[i];
        }
    }
    if (o->negate) {
        bool logic = in->opcode >= EU_OP_NOT && in->opcode <= EU_OP_XOR;

        for (int i = 0; i < EU_FAST_LANES; i++) {
            v[i] = logic ? ~v[i] : (int64_t)(0 - (uint64_t)v[i]);
        }
    }
}

FAST_INT_FN(fast_int_i64, uint64_t, int64_t, fast_load_i)

static void fast_i64(EuThread *t, const EuInst *in)
{
    int64_t a[EU_FAST_LANES], b[EU_FAST_LANES], c[EU_FAST_LANES];
    uint64_t r[EU_FAST_LANES];
    unsigned n = in->exec_size, op = in->opcode;
    unsigned dsize = eu_type_size(in->dst.type);
    unsigned amt_mask = 31;
    uint32_t en = eu_fast_enables(t, in, op != EU_OP_SEL);
    uint32_t bits = 0;

    fast_load_i(t, in, 0, a);
    if (in->nsrc > 1) {
        fast_load_i(t, in, 1, b);
    }
    if (!fast_int_i64(t, in, op, r, a, b, c)) {
        switch (op) {
        case EU_OP_SHR: {
            uint64_t m = (1ull << (8 * eu_type_size(in->src[0].type))) - 1;

            for (int i = 0; i < EU_FAST_LANES; i++) {
                r[i] = ((uint64_t)a[i] & m) >> (b[i] & amt_mask);
            }
            break;
        }
        case EU_OP_ASR:
            for (int i = 0; i < EU_FAST_LANES; i++) {
                r[i] = a[i] >> (b[i] & amt_mask);
            }
            break;
        case EU_OP_SEL:
            FAST_SEL(t, in, r, a, b, fast_cmp_i);
            break;
        case EU_OP_CMP:
            memset(r, 0, sizeof(r));
            for (unsigned i = 0; i < n; i++) {
                bits |= (uint32_t)fast_cmp_i(in->cond_mod, a[i], b[i]) << i;
                r[i] = (bits >> i) & 1 ? ~0ull : 0;
            }
            eu_fast_set_flags(t, in, en, bits);
            break;
        }
    }
    if (in->cond_mod && op != EU_OP_SEL && op != EU_OP_CMP) {
        /* Flags see the result in the destination's type. */
        unsigned sh = 64 - 8 * dsize;
        bool sgn = eu_type_is_signed(in->dst.type);

        for (unsigned i = 0; i < n; i++) {
            int64_t x = sgn ? (int64_t)(r[i] << sh) >> sh :
                        (int64_t)((r[i] << sh) >> sh);

            bits |= (uint32_t)fast_cond(in->cond_mod, (double)x) << i;
        }
        eu_fast_set_flags(t, in, en, bits);
    }
    if (in->fast_dst != UINT16_MAX) {
        uint8_t *d = t->grf + in->fast_dst;

        for (unsigned i = 0; i < n; i++) {
            if ((en >> i) & 1) {
                memcpy(d + dsize * i, &r[i], dsize);
            }
        }
    }
}

/* A plain mov: the bits, lane for lane or broadcast. */
static void fast_mov_raw(EuThread *t, const EuInst *in)
{
    unsigned n = in->exec_size, size = eu_type_size(in->dst.type);
    uint32_t en = eu_fast_enables(t, in, true);
    const uint8_t *src = t->grf + in->fast_src[0];
    uint8_t *d = t->grf + in->fast_dst;
    uint8_t b[8];

    if (in->fast_step[0] && en == (1u << n) - 1) {
        if (n * size == 64) {
            memmove(d, src, 64);
        } else if (n * size == 32) {
            memmove(d, src, 32);
        } else {
            memmove(d, src, n * size);
        }
        return;
    }
    if (!in->fast_step[0]) {
        uint64_t le = GUINT64_TO_LE(in->src[0].imm);

        memcpy(b, in->src[0].file == EU_FILE_IMM ? (const void *)&le : src,
               size);
    }
    for (unsigned i = 0; i < n; i++) {
        if ((en >> i) & 1) {
            memcpy(d + size * i, in->fast_step[0] ? src + size * i : b,
                   size);
        }
    }
}

/* One executor per opcode, so that each is compiled for its own. */
#define FAST_OPS(X) \
    X(MOV) X(ADD) X(MUL) X(MAD) X(SEL) X(CMP) X(NOT) X(AND) X(OR) X(XOR) \
    X(SHL) X(SHR) X(ASR)
#define FAST_F(op) \
    static void exec_f_##op(EuThread *t, const EuInst *in) \
    { \
        fast_f(t, in, EU_OP_##op); \
    }
#define FAST_I32(op) \
    static void exec_i32_##op(EuThread *t, const EuInst *in) \
    { \
        fast_i32(t, in, EU_OP_##op); \
    }
FAST_F(MOV) FAST_F(ADD) FAST_F(MUL) FAST_F(MAD) FAST_F(SEL) FAST_F(CMP)
FAST_OPS(FAST_I32)

static EuExecFn fast_f_for(unsigned op)
{
    switch (op) {
    case EU_OP_MOV: return exec_f_MOV;
    case EU_OP_ADD: return exec_f_ADD;
    case EU_OP_MUL: return exec_f_MUL;
    case EU_OP_MAD: return exec_f_MAD;
    case EU_OP_SEL: return exec_f_SEL;
    case EU_OP_CMP: return exec_f_CMP;
    }
    return NULL;
}

static EuExecFn fast_i32_for(unsigned op)
{
#define FAST_CASE(op) case EU_OP_##op: return exec_i32_##op;
    switch (op) {
    FAST_OPS(FAST_CASE)
    }
#undef FAST_CASE
    return NULL;
}

static bool fast_int_type(unsigned t)
{
    return t <= EU_TYPE_B;
}

/* Offset and step of a source the fast paths can read, or false. */
static bool fast_operand(EuInst *in, int s, unsigned n)
{
    const EuOperand *o = &in->src[s];
    unsigned size = eu_type_size(o->type);
    unsigned off = o->nr * EU_GRF_BYTES + o->subnr;
    unsigned dsize = eu_type_size(in->dst.type);
    unsigned span;

    if (o->file == EU_FILE_IMM) {
        in->fast_step[s] = 0;
        return o->type != EU_TYPE_V && o->type != EU_TYPE_UV &&
               o->type != EU_TYPE_VF;
    }
    if (o->file != EU_FILE_GRF || o->indirect ||
        o->vstride == EU_VSTRIDE_VXH || !o->width) {
        return false;
    }
    if (o->hstride == 0 && (o->vstride == 0 || o->width >= n)) {
        in->fast_step[s] = 0;           /* scalar */
        span = size;
    } else if (o->hstride == 1 && (o->vstride == o->width ||
                                   o->width >= n)) {
        in->fast_step[s] = size;        /* contiguous */
        span = size * n;
    } else {
        return false;
    }
    /* Vectors are read 16 lanes at a time. */
    if (off + MAX(span, in->fast_step[s] * EU_FAST_LANES) >
        sizeof(((EuThread *)NULL)->grf)) {
        return false;                   /* the generic path decides */
    }
    in->fast_src[s] = off;
    /* The generic path reads each channel after writing the previous
     * ones: a source overlapping the destination elsewhere than lane
     * for lane would see new values there. */
    if (in->fast_dst != UINT16_MAX &&
        off < in->fast_dst + dsize * n && in->fast_dst < off + span &&
        !(in->fast_step[s] && off == in->fast_dst && size == dsize)) {
        return false;
    }
    return true;
}

/* An NF accumulator operand the fast mad can use: its offset in
 * t->acc, or -1. */
static int fast_acc_operand(const EuOperand *o, unsigned n, bool dst)
{
    unsigned off = (o->nr & 1) * sizeof(((EuThread *)NULL)->acc[0]) +
                   o->subnr;

    if (o->file != EU_FILE_ARF || o->indirect ||
        (o->nr & 0xf0) != EU_ARF_ACC || (o->nr & 0xf) > 1 ||
        o->hstride != 1 || (!dst && o->vstride != o->width &&
                            o->width < n) ||
        off + 8 * MAX(n, dst ? 0 : 8) > sizeof(((EuThread *)NULL)->acc)) {
        return -1;
    }
    return off;
}

static EuExecFn fast_mad_nf_for(EuInst *in)
{
    unsigned n = in->exec_size;
    bool nf = in->dst.type == EU_TYPE_NF;
    int off;

    if (in->opcode != EU_OP_MAD || n > 8 || in->saturate || in->cond_mod ||
        in->acc_wr ||
        eu_group_base(in) + n > EU_MAX_CHANNELS ||
        (in->pred_ctrl != EU_PRED_NONE && in->pred_ctrl != EU_PRED_NORMAL)) {
        return NULL;
    }
    if (nf) {
        off = fast_acc_operand(&in->dst, n, true);
        if (off < 0) {
            return NULL;
        }
        in->fast_dst = off;
    } else if (in->dst.type == EU_TYPE_F && in->dst.file == EU_FILE_GRF &&
               in->dst.hstride == 1 &&
               in->dst.nr * EU_GRF_BYTES + in->dst.subnr + 4 * n <=
               EU_GRF_COUNT * EU_GRF_BYTES) {
        in->fast_dst = in->dst.nr * EU_GRF_BYTES + in->dst.subnr;
    } else {
        return NULL;
    }
    for (int s = 0; s < 3; s++) {
        const EuOperand *o = &in->src[s];

        if (o->type == EU_TYPE_NF) {
            off = fast_acc_operand(o, n, false);
            if (off < 0) {
                return NULL;
            }
            nf = true;
            in->fast_src[s] = off;
            in->fast_step[s] = 8;
        } else if (o->type != EU_TYPE_F) {
            return NULL;
        } else {
            /* GRF overlaps are checked against the GRF destination only:
             * an accumulator destination cannot alias a GRF source. */
            uint16_t dst = in->fast_dst;

            if (in->dst.type == EU_TYPE_NF) {
                in->fast_dst = UINT16_MAX;
            }
            if (!fast_operand(in, s, n)) {
                in->fast_dst = dst;
                return NULL;
            }
            in->fast_dst = dst;
        }
    }
    return nf ? eu_fast_exec_mad_nf : NULL;
}

/* D/UD throughout, no source modifiers: the 32-bit lanes path. */
static bool fast_is_i32(const EuInst *in, bool null_dst)
{
    if (!null_dst && eu_type_size(in->dst.type) != 4) {
        return false;
    }
    if (in->opcode == EU_OP_CMP && !null_dst &&
        in->dst.type != EU_TYPE_D && in->dst.type != EU_TYPE_UD) {
        return false;
    }
    for (int s = 0; s < in->nsrc; s++) {
        const EuOperand *o = &in->src[s];

        if ((o->type != EU_TYPE_D && o->type != EU_TYPE_UD) ||
            o->negate || o->abs) {
            return false;
        }
    }
    return true;
}

/* A fast executor for in, or NULL. */
EuExecFn eu_fast_exec_for(EuInst *in)
{
    unsigned n = in->exec_size, op = in->opcode;

    if (G_BYTE_ORDER == G_LITTLE_ENDIAN && op == EU_OP_MAD &&
        (in->dst.type == EU_TYPE_NF || in->src[0].type == EU_TYPE_NF ||
         in->src[1].type == EU_TYPE_NF || in->src[2].type == EU_TYPE_NF)) {
        return fast_mad_nf_for(in);
    }
    bool fp = in->dst.type == EU_TYPE_F;
    bool null_dst = in->dst.file == EU_FILE_ARF && !in->dst.indirect &&
                    (in->dst.nr & 0xf0) == EU_ARF_NULL;

    if (G_BYTE_ORDER != G_LITTLE_ENDIAN || in->acc_wr ||
        n > EU_FAST_LANES || eu_group_base(in) + n > EU_MAX_CHANNELS ||
        (in->pred_ctrl != EU_PRED_NONE && in->pred_ctrl != EU_PRED_NORMAL)) {
        return NULL;
    }
    switch (op) {
    case EU_OP_MOV: case EU_OP_ADD: case EU_OP_MUL: case EU_OP_MAD:
    case EU_OP_SEL: case EU_OP_CMP:
        break;
    case EU_OP_NOT: case EU_OP_AND: case EU_OP_OR: case EU_OP_XOR:
    case EU_OP_SHL: case EU_OP_SHR: case EU_OP_ASR:
        fp = false;
        break;
    default:
        return NULL;
    }
    if (in->cond_mod > EU_COND_LE && in->cond_mod != EU_COND_U &&
        in->cond_mod != EU_COND_O) {
        return NULL;
    }
    if ((op == EU_OP_CMP || (op == EU_OP_SEL && in->cond_mod)) &&
        (in->cond_mod == EU_COND_U || in->cond_mod == EU_COND_O ||
         !in->cond_mod)) {
        return NULL;
    }
    if (null_dst) {
        in->fast_dst = UINT16_MAX;
    } else if (in->dst.file == EU_FILE_GRF && !in->dst.indirect &&
               in->dst.hstride == 1) {
        unsigned off = in->dst.nr * EU_GRF_BYTES + in->dst.subnr;

        if (off + eu_type_size(in->dst.type) * n >
            EU_GRF_COUNT * EU_GRF_BYTES) {
            return NULL;
        }
        in->fast_dst = off;
    } else {
        return NULL;
    }
    if (op == EU_OP_CMP && null_dst) {
        /* cmp's sources decide the kind; its null destination is any. */
        fp = in->src[0].type == EU_TYPE_F;
    }
    for (int s = 0; s < in->nsrc; s++) {
        unsigned st = in->src[s].type;

        if (fp ? st != EU_TYPE_F : !fast_int_type(st)) {
            return NULL;
        }
        if (!fast_operand(in, s, n)) {
            return NULL;
        }
    }
    if (op == EU_OP_MOV && eu_is_raw_mov(in) && !in->cond_mod && !null_dst) {
        return fast_mov_raw;
    }
    if (fp) {
        if (!null_dst && in->dst.type != EU_TYPE_F) {
            return NULL;
        }
        return eu_fast_simple_exec_for(in, true, null_dst) ?: fast_f_for(op);
    }
    if ((!null_dst && !fast_int_type(in->dst.type)) || in->saturate) {
        return NULL;
    }
    if ((op == EU_OP_SEL || op == EU_OP_CMP) &&
        in->src[0].type != in->src[1].type) {
        return NULL;
    }
    if (op == EU_OP_CMP && !null_dst &&
        eu_type_size(in->dst.type) > 4) {
        return NULL;
    }
    if (!fast_is_i32(in, null_dst)) {
        return fast_i64;
    }
    return eu_fast_simple_exec_for(in, false, null_dst) ?: fast_i32_for(op);
}
