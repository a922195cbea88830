/*
 * Gen11 EU interpreter: the ALU's generic path.  Every ALU instruction
 * (all the fast paths cannot take, and the rest when they are off), one
 * channel at a time through the register regions of eu-region.c.
 *
 * Facts: Intel Graphics PRM Vol 2 (Command Reference: Instructions, EU
 * ISA: per-instruction pages) and Vol 4 (Execution Unit ISA:
 * "Accumulator Registers", "Type Conversion").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include "eu-exec-int.h"

/* a - b as a Val, used to evaluate comparisons. */
static Val eu_alu_diff(Val a, Val b)
{
    Val r = { 0 };

    if (a.fp || b.fp) {
        double x = a.fp ? a.f : a.i, y = b.fp ? b.f : b.i;

        r.fp = true;
        r.f = isnan(x) || isnan(y) ? NAN : x == y ? 0 : x < y ? -1 : 1;
    } else {
        r.i = a.i == b.i ? 0 : a.i < b.i ? -1 : 1;
    }
    return r;
}

static uint32_t eu_alu_bitrev32(uint32_t x)
{
    uint32_t r = 0;

    for (int i = 0; i < 32; i++) {
        r |= ((x >> i) & 1) << (31 - i);
    }
    return r;
}

static int64_t eu_alu_shift_amount(Val s, unsigned type)
{
    return s.i & (eu_type_size(type) == 8 ? 63 : 31);
}

static uint64_t eu_alu_unsigned_of(Val a, unsigned type)
{
    unsigned bits = eu_type_size(type) * 8;

    return bits == 64 ? (uint64_t)a.i : (uint64_t)a.i & ((1ull << bits) - 1);
}

/* Quotient and remainder of a 32-bit division (PRM Vol 2, "math":
 * division by zero gives all ones and the dividend). */
static void eu_alu_int_div(bool sgn, int64_t a, int64_t b, int64_t *q,
                           int64_t *m)
{
    if ((uint32_t)b == 0) {
        *q = sgn ? -1 : 0xffffffffll;
        *m = a;
    } else if (sgn) {
        int32_t p = a, d = b;

        if (p == INT32_MIN && d == -1) {
            *q = INT32_MIN;
            *m = 0;
        } else {
            *q = p / d;
            *m = p % d;
        }
    } else {
        *q = (uint32_t)a / (uint32_t)b;
        *m = (uint32_t)a % (uint32_t)b;
    }
}

/* intdivmod's remainder goes to the register after the destination's
 * (PRM Vol 2, "math": "INT DIV BOTH"). */
static void eu_alu_write_remainder(EuThread *t, const EuInst *in, unsigned c,
                                   int64_t m)
{
    uint8_t *p = eu_elem_ptr(t, &in->dst, c, true);
    uint64_t u;

    if (!p) {
        return;
    }
    if (in->dst.file != EU_FILE_GRF || in->dst.indirect ||
        (p - t->grf) + EU_GRF_BYTES + 4 > (int64_t)sizeof(t->grf)) {
        eu_fault(t, "intdivmod remainder outside the GRF");
        return;
    }
    u = GUINT64_TO_LE(eu_type_convert((Val){ .i = m }, in->dst.type,
                                      in->saturate));
    memcpy(p + EU_GRF_BYTES, &u, eu_type_size(in->dst.type));
}

static bool eu_alu_math_op(const EuInst *in, Val a, Val b, Val *r)
{
    double x = a.fp ? a.f : a.i, y = b.fp ? b.f : b.i;

    r->fp = true;
    switch (in->math_fn) {
    case EU_MATH_INV:
        r->f = 1.0f / (float)x;
        break;
    case EU_MATH_LOG:
        r->f = log2f(x);
        break;
    case EU_MATH_EXP:
        r->f = exp2f(x);
        break;
    case EU_MATH_SQRT:
        r->f = sqrtf(x);
        break;
    case EU_MATH_RSQ:
        r->f = 1.0f / sqrtf(x);
        break;
    case EU_MATH_SIN:
        r->f = sinf(x);
        break;
    case EU_MATH_COS:
        r->f = cosf(x);
        break;
    case EU_MATH_FDIV:
        r->f = (float)x / (float)y;
        break;
    case EU_MATH_POW:
        r->f = powf(x, y);
        break;
    case EU_MATH_INVM:
        /* The IEEE macro's first step; the model computes the correctly
         * rounded result at once (no mme state, see the docs). */
        r->f = 1.0 / x;
        break;
    case EU_MATH_RSQRTM:
        r->f = 1.0 / sqrt(x);
        break;
    case EU_MATH_INT_DIV_Q:
    case EU_MATH_INT_DIV_R:
    case EU_MATH_INT_DIV_QR: {
        int64_t q, m;

        r->fp = false;
        eu_alu_int_div(eu_type_is_signed(in->src[0].type), a.i, b.i, &q, &m);
        r->i = in->math_fn == EU_MATH_INT_DIV_R ? m : q;
        break;
    }
    default:
        return false;
    }
    return true;
}

/*
 * The ALU: one function per opcode (or per family of opcodes that share
 * their arithmetic), looked up in eu_alu_ops[] by opcode.  Each works on
 * one channel: eu_alu_channel() reads the sources before, eu_exec_alu()
 * converts, flags and writes the result after.
 */
typedef struct EuAluChan {
    unsigned c;             /* the channel in the instruction */
    unsigned ch;            /* the channel in the thread */
    Val a, b, s2;           /* the sources; a and b both doubles if fp */
    bool fp;                /* src0 or src1 is a float */
    Val r;                  /* the result */
    bool write;             /* eu_exec_alu() writes r to the destination */
} EuAluChan;

/* An opcode's work on one channel; false if it cannot do it. */
typedef bool EuAluOp(EuThread *t, const EuInst *in, EuAluChan *x);

/* The opcodes that are one integer expression of the sources. */
#define ALU_INT_OP(name, expr) \
    static bool name(EuThread *t, const EuInst *in, EuAluChan *x) \
    { \
        x->r.i = (expr); \
        return true; \
    }

/* ... and those that are one float function of src0. */
#define ALU_FLOAT_OP(name, expr) \
    static bool name(EuThread *t, const EuInst *in, EuAluChan *x) \
    { \
        x->r.fp = true; \
        x->r.f = (expr); \
        return true; \
    }

ALU_INT_OP(alu_not, ~x->a.i)
ALU_INT_OP(alu_and, x->a.i & x->b.i)
ALU_INT_OP(alu_or, x->a.i | x->b.i)
ALU_INT_OP(alu_xor, x->a.i ^ x->b.i)
ALU_INT_OP(alu_shl, (int64_t)((uint64_t)x->a.i <<
                              eu_alu_shift_amount(x->b, in->src[0].type)))
ALU_INT_OP(alu_shr, eu_alu_unsigned_of(x->a, in->src[0].type) >>
           eu_alu_shift_amount(x->b, in->src[0].type))
ALU_INT_OP(alu_asr, x->a.i >> eu_alu_shift_amount(x->b, in->src[0].type))
ALU_INT_OP(alu_avg, (int64_t)((uint64_t)x->a.i + (uint64_t)x->b.i + 1) >> 1)
ALU_INT_OP(alu_lzd, (uint32_t)x->a.i ?
           (int64_t)__builtin_clz((uint32_t)x->a.i) : 32)
ALU_INT_OP(alu_fbl, (uint32_t)x->a.i ?
           (int64_t)__builtin_ctz((uint32_t)x->a.i) : 0xffffffffll)
ALU_INT_OP(alu_cbit, __builtin_popcount((uint32_t)x->a.i))
ALU_INT_OP(alu_bfrev, eu_alu_bitrev32(x->a.i))
ALU_INT_OP(alu_bfi2, (uint32_t)((x->a.i & x->b.i) | (~x->a.i & x->s2.i)))
ALU_FLOAT_OP(alu_frc, x->a.f - floor(x->a.f))
ALU_FLOAT_OP(alu_rndd, floor(x->a.f))
ALU_FLOAT_OP(alu_rndu, ceil(x->a.f))
ALU_FLOAT_OP(alu_rnde, nearbyint(x->a.f))
ALU_FLOAT_OP(alu_rndz, trunc(x->a.f))

static bool alu_mov(EuThread *t, const EuInst *in, EuAluChan *x)
{
    x->r = x->a;
    return true;
}

/*
 * ror, rol: within the source's width, a word or a dword (IGC rotates
 * OpenCL's short and ushort as :uw).
 */
static bool alu_rotate(EuThread *t, const EuInst *in, EuAluChan *x)
{
    unsigned w = eu_type_size(in->src[0].type) == 2 ? 16 : 32;
    uint32_t mask = w == 16 ? 0xffff : 0xffffffff;
    uint32_t v = x->a.i & mask, n = x->b.i & (w - 1);

    if (in->opcode == EU_OP_ROL) {
        n = (w - n) & (w - 1);
    }
    x->r.i = n ? ((v >> n | v << (w - n)) & mask) : v;
    return true;
}

static bool alu_add(EuThread *t, const EuInst *in, EuAluChan *x)
{
    if (x->fp) {
        x->r.f = x->a.f + x->b.f;
    } else {
        x->r.i = (int64_t)((uint64_t)x->a.i + (uint64_t)x->b.i);
    }
    return true;
}

/*
 * An implicit write of the integer accumulator (AccWrEnable, addc's carry,
 * subb's borrow): the wide value mac and mach go on from, and its low
 * bits in the destination's type where an explicit read of acc0/acc1
 * finds channel @c (PRM Vol 4, "Accumulator Registers"): IGC reads the
 * carry of a 64-bit address add with "mov r acc0.0:ud".
 */
static void alu_acc_write(EuThread *t, const EuInst *in, const EuAluChan *x,
                          int64_t v)
{
    unsigned size = eu_type_size(in->dst.type);
    uint64_t u = GUINT64_TO_LE((uint64_t)v);

    t->accv[x->ch] = v;
    if ((x->c + 1) * size <= sizeof(t->acc)) {
        memcpy(&t->acc[0][0] + x->c * size, &u, size);
    }
}

/* mul, mac */
static bool alu_mul(EuThread *t, const EuInst *in, EuAluChan *x)
{
    if (x->fp) {
        /* (no "+ 0" for mul: it would turn -0 into +0) */
        x->r.f = x->a.f * x->b.f;
        if (in->opcode == EU_OP_MAC) {
            x->r.f += eu_read_raw(EU_TYPE_F, t->acc[0] + 4 * (x->c % 16)).f;
        }
    } else {
        x->r.i = (int64_t)((uint64_t)x->a.i * (uint64_t)x->b.i +
                           (in->opcode == EU_OP_MAC ? t->accv[x->ch] : 0));
        /* The accumulator takes the full result when written
         * explicitly or with AccWrEnable (PRM Vol 4, "Accumulator
         * Registers"). */
        if (in->acc_wr || (in->dst.file == EU_FILE_ARF &&
                           (in->dst.nr & 0xf0) == EU_ARF_ACC)) {
            alu_acc_write(t, in, x, x->r.i);
        }
    }
    return true;
}

/*
 * The second half of the mul/mach pair that multiplies 32 by 32 bits.
 * With AccWrEnable, the high 32 bits of the 64-bit product, the low half
 * left in the accumulator (Mesa's MULH).  Without it, Gen10 to Xe3 write
 * the low 32 bits and leave the accumulator alone: the "macl" form IGC
 * compiles every D = D x D multiply to on Gen11, which has no 32x32
 * multiply (intel-graphics-compiler visa/HWConformity.cpp
 * doGenerateMacl, IR_Builder::createMacl; HWCaps.inc hasMacMacl).
 */
static bool alu_mach(EuThread *t, const EuInst *in, EuAluChan *x)
{
    bool sgn = eu_type_is_signed(in->src[0].type) ||
               eu_type_is_signed(in->src[1].type);
    int64_t p = sgn ? (int64_t)(int32_t)x->a.i * (int32_t)x->b.i :
                (int64_t)((uint64_t)(uint32_t)x->a.i * (uint32_t)x->b.i);

    if (!in->acc_wr) {
        x->r.i = sgn ? (int32_t)p : (int64_t)(uint32_t)p;
        return true;
    }
    alu_acc_write(t, in, x, p);
    x->r.i = sgn ? p >> 32 : (int64_t)((uint64_t)p >> 32);
    return true;
}

/* addc, subb: the carry or borrow goes to the accumulator. */
static bool alu_addc(EuThread *t, const EuInst *in, EuAluChan *x)
{
    uint64_t a = (uint32_t)x->a.i, b = (uint32_t)x->b.i;
    uint64_t s = in->opcode == EU_OP_ADDC ? a + b : a - b;

    alu_acc_write(t, in, x, in->opcode == EU_OP_ADDC ? s >> 32 : a < b);
    x->r.i = (uint32_t)s;
    return true;
}

static bool alu_fbh(EuThread *t, const EuInst *in, EuAluChan *x)
{
    /* From the MSB: first 1 (UD), or first bit unlike the sign (D). */
    uint32_t v = x->a.i;

    if (eu_type_is_signed(in->src[0].type) && (v >> 31)) {
        v = ~v;
    }
    if (eu_type_is_signed(in->src[0].type)) {
        v &= 0x7fffffff;
        x->r.i = v ? (int64_t)__builtin_clz(v) : 0xffffffffll;
    } else {
        x->r.i = v ? (int64_t)__builtin_clz(v) : 0xffffffffll;
    }
    return true;
}

static bool alu_bfi1(EuThread *t, const EuInst *in, EuAluChan *x)
{
    uint32_t w = x->a.i & 31, o = x->b.i & 31;

    x->r.i = (uint32_t)(((1ull << w) - 1) << o);
    return true;
}

static bool alu_bfe(EuThread *t, const EuInst *in, EuAluChan *x)
{
    uint32_t w = x->a.i & 31, o = x->b.i & 31;
    uint32_t v = (uint32_t)x->s2.i >> o, m = w ? (1u << w) - 1 : 0;

    x->r.i = v & m;
    if (eu_type_is_signed(in->src[2].type) && w &&
        (x->r.i >> (w - 1)) & 1) {
        x->r.i |= ~(int64_t)m;
    }
    return true;
}

/* mad, lrp */
static bool alu_mad(EuThread *t, const EuInst *in, EuAluChan *x)
{
    Val a = x->a, b = x->b, s2 = x->s2;

    if (x->fp || s2.fp) {
        double u = a.fp ? a.f : a.i, v = b.fp ? b.f : b.i;
        double w = s2.fp ? s2.f : s2.i;

        x->r.fp = true;
        x->r.f = in->opcode == EU_OP_MAD ? u + v * w :
                 u * v + (1 - u) * w;
    } else {
        x->r.i = (int64_t)((uint64_t)a.i + (uint64_t)b.i * (uint64_t)s2.i);
    }
    return true;
}

/* pln, line */
static bool alu_plane(EuThread *t, const EuInst *in, EuAluChan *x)
{
    /* Gen9 PRM Vol 2, "pln", "line": src0 is the scalar plane
     * (a, b, -, c); pln's src1 register pair per 8 channels holds
     * the two barycentrics. */
    unsigned c = x->c;
    double p0 = eu_read_near(t, in, 0, c, 0).f;
    double p1 = eu_read_near(t, in, 0, c, 4).f;
    double p3 = eu_read_near(t, in, 0, c, 12).f;

    x->r.fp = true;
    if (in->opcode == EU_OP_LINE) {
        x->r.f = p0 * x->b.f + p3;
    } else {
        double u = eu_read_near(t, in, 1, c % 8, 64 * (c / 8)).f;
        double v = eu_read_near(t, in, 1, c % 8, 64 * (c / 8) + 32).f;

        x->r.f = p0 * u + p1 * v + p3;
    }
    return true;
}

/* dp4, dph, dp3, dp2 */
static bool alu_dot(EuThread *t, const EuInst *in, EuAluChan *x)
{
    /* Gen9 PRM Vol 2, "dp4" etc.: one dot product per group of four
     * channels, replicated to the group; dph adds src1's fourth. */
    unsigned g = x->c & ~3u;
    unsigned n = in->opcode == EU_OP_DP2 ? 2 :
                 in->opcode == EU_OP_DP4 ? 4 : 3;
    double sum = 0;

    for (unsigned i = 0; i < n; i++) {
        Val u = eu_read_src(t, in, 0, g + i), v = eu_read_src(t, in, 1, g + i);

        sum += (u.fp ? u.f : u.i) * (v.fp ? v.f : v.i);
    }
    if (in->opcode == EU_OP_DPH) {
        Val w = eu_read_src(t, in, 1, g + 3);

        sum += w.fp ? w.f : w.i;
    }
    x->r.fp = true;
    x->r.f = sum;
    return true;
}

static bool alu_csel(EuThread *t, const EuInst *in, EuAluChan *x)
{
    x->r = eu_cond_holds(in->cond_mod, x->s2) ? x->a : x->b;
    return true;
}

/*
 * sel.l and sel.ge are min and max; of a NaN and a number they give the
 * number (IEEE 754-2008 minNum/maxNum: OpenCL's fmin/fmax, which IGC
 * compiles to them, as Mesa does GLSL's min/max).
 */
static bool alu_sel(EuThread *t, const EuInst *in, EuAluChan *x)
{
    if ((in->cond_mod == EU_COND_L || in->cond_mod == EU_COND_GE) &&
        x->a.fp && x->b.fp && (isnan(x->a.f) || isnan(x->b.f))) {
        x->r = isnan(x->a.f) ? x->b : x->a;
    } else if (in->cond_mod) {
        Val d = eu_alu_diff(x->a, x->b);

        x->r = eu_cond_holds(in->cond_mod, d) ? x->a : x->b;
    } else {
        x->r = eu_predicate(t, in, x->c) ? x->a : x->b;
    }
    return true;
}

/* cmp, cmpn */
static bool alu_cmp(EuThread *t, const EuInst *in, EuAluChan *x)
{
    Val d = eu_alu_diff(x->a, x->b);
    bool res;

    if (in->opcode == EU_OP_CMPN && d.fp && isnan(d.f)) {
        /* cmpn: a NaN in src1 compares true (for min/max). */
        res = x->b.fp && isnan(x->b.f);
    } else {
        res = eu_cond_holds(in->cond_mod, d);
    }
    eu_set_flag(t, in, x->ch, res);
    x->r = (Val){ .i = res ? -1 : 0 };
    if (eu_type_is_float(in->dst.type)) {
        /* All ones or zero as a bit pattern, not as a number. */
        x->r.i = res ? 0xffffffff : 0;
        x->write = false;
        if (in->dst.file != EU_FILE_ARF || in->dst.nr != 0) {
            uint8_t *p = eu_elem_ptr(t, &in->dst, x->c, true);

            if (p) {
                memset(p, res ? 0xff : 0, eu_type_size(in->dst.type));
            }
        }
    }
    return true;
}

static bool alu_math(EuThread *t, const EuInst *in, EuAluChan *x)
{
    if (!eu_alu_math_op(in, x->a, x->b, &x->r)) {
        return false;
    }
    if (in->math_fn == EU_MATH_INT_DIV_QR) {
        int64_t q, m;

        eu_alu_int_div(eu_type_is_signed(in->src[0].type), x->a.i, x->b.i,
                       &q, &m);
        eu_alu_write_remainder(t, in, x->c, m);
    }
    return true;
}

/* The ALU instructions by opcode; NULL: not an ALU one the model has. */
static EuAluOp *const eu_alu_ops[128] = {
    [EU_OP_MOV] = alu_mov,
    [EU_OP_SMOV] = alu_mov,
    [EU_OP_SEL] = alu_sel,
    [EU_OP_NOT] = alu_not,
    [EU_OP_AND] = alu_and,
    [EU_OP_OR] = alu_or,
    [EU_OP_XOR] = alu_xor,
    [EU_OP_SHR] = alu_shr,
    [EU_OP_SHL] = alu_shl,
    [EU_OP_ASR] = alu_asr,
    [EU_OP_ROR] = alu_rotate,
    [EU_OP_ROL] = alu_rotate,
    [EU_OP_CMP] = alu_cmp,
    [EU_OP_CMPN] = alu_cmp,
    [EU_OP_CSEL] = alu_csel,
    [EU_OP_BFREV] = alu_bfrev,
    [EU_OP_BFE] = alu_bfe,
    [EU_OP_BFI1] = alu_bfi1,
    [EU_OP_BFI2] = alu_bfi2,
    [EU_OP_MATH] = alu_math,
    [EU_OP_ADD] = alu_add,
    [EU_OP_MUL] = alu_mul,
    [EU_OP_AVG] = alu_avg,
    [EU_OP_FRC] = alu_frc,
    [EU_OP_RNDU] = alu_rndu,
    [EU_OP_RNDD] = alu_rndd,
    [EU_OP_RNDE] = alu_rnde,
    [EU_OP_RNDZ] = alu_rndz,
    [EU_OP_MAC] = alu_mul,
    [EU_OP_MACH] = alu_mach,
    [EU_OP_LZD] = alu_lzd,
    [EU_OP_FBH] = alu_fbh,
    [EU_OP_FBL] = alu_fbl,
    [EU_OP_CBIT] = alu_cbit,
    [EU_OP_ADDC] = alu_addc,
    [EU_OP_SUBB] = alu_addc,
    [EU_OP_DP4] = alu_dot,
    [EU_OP_DPH] = alu_dot,
    [EU_OP_DP3] = alu_dot,
    [EU_OP_DP2] = alu_dot,
    [EU_OP_LINE] = alu_plane,
    [EU_OP_PLN] = alu_plane,
    [EU_OP_MAD] = alu_mad,
    [EU_OP_LRP] = alu_mad,
};

/* One channel of an ALU instruction; false if the opcode is unknown. */
static bool eu_alu_channel(EuThread *t, const EuInst *in, unsigned c,
                           unsigned ch, Val *r, bool *write)
{
    EuAluOp *op = in->opcode < G_N_ELEMENTS(eu_alu_ops) ? eu_alu_ops[in->opcode]
                                                     : NULL;
    EuAluChan x = { .c = c, .ch = ch, .write = *write };

    x.a = eu_read_src(t, in, 0, c);
    if (in->nsrc > 1) {
        x.b = eu_read_src(t, in, 1, c);
    }
    if (in->nsrc > 2) {
        x.s2 = eu_read_src(t, in, 2, c);
    }
    x.fp = x.a.fp || (in->nsrc > 1 && x.b.fp);
    if (x.fp) {
        x.a.f = x.a.fp ? x.a.f : x.a.i;
        x.b.f = x.b.fp ? x.b.f : x.b.i;
        x.a.fp = x.b.fp = true;
    }
    x.r = (Val){ .fp = x.fp };
    if (!op || !op(t, in, &x)) {
        return false;
    }
    *r = x.r;
    *write = x.write;
    return true;
}

/* mov between operands of one type without modifiers: the EU moves
 * the bits (a signaling NaN stays one). */
bool eu_is_raw_mov(const EuInst *in)
{
    const EuOperand *o = &in->src[0];

    return in->opcode == EU_OP_MOV && o->type == in->dst.type &&
           !o->abs && !o->negate && !in->saturate &&
           eu_type_size(o->type) <= 8;
}

/* One channel of a raw mov: the bits as they are. */
static void eu_alu_raw_mov(EuThread *t, const EuInst *in, unsigned c,
                           unsigned ch)
{
    unsigned size = eu_type_size(in->dst.type);
    uint8_t b[8] = { 0 };
    uint8_t *d;

    if (in->src[0].file == EU_FILE_IMM) {
        uint64_t le = GUINT64_TO_LE(in->src[0].imm);

        memcpy(b, &le, 8);
    } else {
        const uint8_t *p = eu_elem_ptr(t, &in->src[0], c, false);

        if (t->status != EU_RUNNING) {
            return;
        }
        if (p) {
            memcpy(b, p, size);
        }
    }
    if (in->cond_mod) {
        eu_set_flag(t, in, ch, eu_cond_holds(in->cond_mod,
                                             eu_read_raw(in->dst.type, b)));
    }
    d = eu_elem_ptr(t, &in->dst, c, true);
    if (d) {
        memcpy(d, b, size);
    }
}

void eu_exec_alu(EuThread *t, const EuInst *in)
{
    unsigned g = eu_group_base(in);
    bool pred_masks = in->opcode != EU_OP_SEL;
    bool raw = eu_is_raw_mov(in);

    for (unsigned c = 0; c < in->exec_size && t->status == EU_RUNNING; c++) {
        unsigned ch = g + c;
        bool write = true;
        Val r;

        if (ch >= EU_MAX_CHANNELS) {
            eu_fault(t, "channel group beyond 32 channels");
            return;
        }
        if (!in->mask_ctrl && !((t->active >> ch) & 1)) {
            continue;
        }
        if (pred_masks && !eu_predicate(t, in, c)) {
            continue;
        }
        /*
         * smov: a mov whose channels are also enabled by the immediate
         * in src1, bit c for the instruction's channel c: IGC turns
         * "mov (1) f0 imm; (f0) mov (8|16) r[a0] src" into one, where
         * the flag holds exactly the predicate's channels
         * (visa/Optimizer.cpp createSmov, BDW to ICL).
         */
        if (in->opcode == EU_OP_SMOV && !((in->src[1].imm >> c) & 1)) {
            continue;
        }
        if (raw) {
            eu_alu_raw_mov(t, in, c, ch);
            continue;
        }
        if (!eu_alu_channel(t, in, c, ch, &r, &write)) {
            eu_fault(t, "instruction not implemented");
            return;
        }
        if (r.fp && isnan(r.f) && in->opcode != EU_OP_MOV &&
            in->opcode != EU_OP_SMOV && in->opcode != EU_OP_SEL &&
            in->opcode != EU_OP_CSEL) {
            /* Arithmetic gives the canonical quiet NaN: which input NaN
             * the host would propagate depends on its compiler. */
            r.f = NAN;
        }
        if (!r.fp && !eu_type_is_float(in->dst.type)) {
            /* Flags see the result in the destination's integer type. */
            unsigned bits = eu_type_size(in->dst.type) * 8;
            uint64_t u = eu_type_convert(r, in->dst.type, in->saturate);

            if (bits < 64) {
                u &= (1ull << bits) - 1;
                if (eu_type_is_signed(in->dst.type) && (u >> (bits - 1))) {
                    u |= ~0ull << bits;
                }
            }
            r.i = (int64_t)u;
        } else if (r.fp && (in->dst.type == EU_TYPE_F ||
                            in->dst.type == EU_TYPE_HF)) {
            /* ... and float ones the value as written: rounded to the
             * destination's type and saturated. */
            uint64_t u = GUINT64_TO_LE(eu_type_convert(r, in->dst.type,
                                                       in->saturate));

            r = eu_read_raw(in->dst.type, (const uint8_t *)&u);
        }
        if (in->cond_mod && in->opcode != EU_OP_SEL &&
            in->opcode != EU_OP_CMP && in->opcode != EU_OP_CMPN &&
            in->opcode != EU_OP_CSEL) {
            eu_set_flag(t, in, ch, eu_cond_holds(in->cond_mod, r));
        }
        if (write) {
            eu_write_dst(t, in, c, r);
        }
    }
}
