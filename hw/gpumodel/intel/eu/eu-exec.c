/*
 * Gen11 EU interpreter: regions, ALU, predication, conditional modifiers
 * and structured control flow, for one thread at a time.
 *
 * Facts: Intel Graphics PRM Vol 2 (Command Reference: Instructions, EU
 * ISA: per-instruction pages) and Vol 4 (Execution Unit ISA: "Register
 * Region", "Execution Mask", "Predication", "Flow Control"); Mesa
 * src/intel/compiler/brw_eu_emit.c for the Gen8+ JIP/UIP convention
 * (byte offsets from the branch instruction; BREAK and CONT have UIP at
 * the WHILE).
 *
 * Hostile kernels: every register access is bounds checked (a fault
 * stops the thread), every decode error faults, and eu_run() retires at
 * most max_instructions, so an infinite loop only uses up the budget.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include "eu-exec.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

typedef struct Val {
    bool fp;
    double f;
    int64_t i;
} Val;

static bool type_is_float(unsigned t)
{
    return t == EU_TYPE_F || t == EU_TYPE_HF || t == EU_TYPE_DF ||
           t == EU_TYPE_VF || t == EU_TYPE_NF;
}

static bool type_is_signed(unsigned t)
{
    return t == EU_TYPE_D || t == EU_TYPE_W || t == EU_TYPE_B ||
           t == EU_TYPE_Q || t == EU_TYPE_V;
}

static void fault(EuThread *t, const char *why)
{
    if (t->status == EU_RUNNING) {
        t->status = EU_FAULT;
        t->fault = why;
        if (t->host) {
            gpu_host_log(t->host, GPU_LOG_GUEST_ERROR,
                         "intel-gpu: EU thread fault at ip 0x%x: %s",
                         t->ip, why);
        }
    }
}

float eu_half_to_float(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v;

    if (e == 0) {
        v = ldexpf(m, -24);
    } else if (e == 31) {
        v = m ? NAN : INFINITY;
    } else {
        v = ldexpf(m | 0x400, e - 25);
    }
    return (h & 0x8000) ? -v : v;
}

static uint16_t float_to_half(float f)
{
    uint32_t x;
    uint16_t sign;
    int e;

    memcpy(&x, &f, 4);
    sign = (x >> 16) & 0x8000;
    if (isnan(f)) {
        return sign | 0x7e00;
    }
    f = fabsf(f);
    if (f >= 65520.0f) {
        return sign | 0x7c00;
    }
    if (f < ldexpf(1, -14)) {
        return sign | (uint16_t)lrintf(f * ldexpf(1, 24));
    }
    frexpf(f, &e);          /* f = m * 2^e, m in [0.5, 1) */
    {
        uint32_t m = (uint32_t)lrintf(ldexpf(f, 11 - e));   /* 11 bits */

        if (m == 0x800) {
            m = 0x400;
            e++;
        }
        return sign | (uint16_t)((e + 14) << 10) | (m & 0x3ff);
    }
}

/* Restricted 8-bit float of a VF immediate (PRM Vol 4, "Packed Restricted
 * Float Vector"): sign, 3-bit exponent biased by 3, 4-bit mantissa. */
static float vf_to_float(uint8_t vf)
{
    uint32_t bits;
    float f;

    if ((vf & 0x7f) == 0) {
        return (vf & 0x80) ? -0.0f : 0.0f;
    }
    bits = (uint32_t)(vf & 0x80) << 24 |
           (uint32_t)(((vf >> 4) & 7) - 3 + 127) << 23 |
           (uint32_t)(vf & 0xf) << 19;
    memcpy(&f, &bits, 4);
    return f;
}

/* ARF backing store for a register number, or NULL (null reads 0). */
static uint8_t *arf_ptr(EuThread *t, unsigned nr, size_t *len)
{
    switch (nr & 0xf0) {
    case EU_ARF_ADDRESS:
        *len = sizeof(t->a0);
        return (uint8_t *)t->a0;
    case EU_ARF_ACC:
        if ((nr & 0xf) > 1) {
            return NULL;
        }
        /* acc0 and acc1 are adjacent: a SIMD16 NF region of acc0
         * spans both. */
        *len = sizeof(t->acc) - (nr & 1) * sizeof(t->acc[0]);
        return t->acc[nr & 1];
    case EU_ARF_FLAG:
        if ((nr & 0xf) > 1) {
            return NULL;
        }
        *len = 4;
        return (uint8_t *)&t->flag[nr & 1];
    case EU_ARF_MASK:
        *len = sizeof(t->mask);
        return (uint8_t *)t->mask;
    case EU_ARF_STATE:
        *len = sizeof(t->sr0);
        return (uint8_t *)t->sr0;
    case EU_ARF_CONTROL:
        *len = sizeof(t->cr0);
        return (uint8_t *)t->cr0;
    case EU_ARF_IP:
        *len = 4;
        return (uint8_t *)&t->ip;
    case EU_ARF_TIMESTAMP:
        *len = sizeof(t->tm0);
        return (uint8_t *)t->tm0;
    }
    return NULL;
}

/* Byte address of channel c of a region, or NULL after a fault. */
static uint8_t *elem_ptr(EuThread *t, const EuOperand *o, unsigned c,
                         bool dst)
{
    unsigned size = eu_type_size(o->type);
    int64_t off;
    uint8_t *base;
    size_t len;

    if (!dst && !o->width) {
        fault(t, "source without a region");
        return NULL;
    }
    if (dst) {
        off = (int64_t)c * o->hstride * size;
    } else if (o->vstride == EU_VSTRIDE_VXH) {
        off = (int64_t)(c % o->width) * o->hstride * size;
    } else {
        off = ((int64_t)(c / o->width) * o->vstride +
               (int64_t)(c % o->width) * o->hstride) * size;
    }
    if (o->indirect) {
        unsigned a = o->addr_subnr;

        if (!dst && o->vstride == EU_VSTRIDE_VXH) {
            a += c / o->width;      /* one address per row */
        }
        if (a >= 16) {
            fault(t, "address subregister out of range");
            return NULL;
        }
        off += (int64_t)t->a0[a] + o->addr_imm;
        base = t->grf;
        len = sizeof(t->grf);
    } else if (o->file == EU_FILE_GRF) {
        off += (int64_t)o->nr * EU_GRF_BYTES + o->subnr;
        base = t->grf;
        len = sizeof(t->grf);
    } else {
        base = arf_ptr(t, o->nr, &len);
        if (!base) {
            return NULL;            /* null register */
        }
        off += o->subnr;
    }
    if (off < 0 || off + size > (int64_t)len) {
        fault(t, "register access out of range");
        return NULL;
    }
    return base + off;
}

static Val read_raw(unsigned type, const uint8_t *p)
{
    Val v = { 0 };
    uint64_t u = 0;

    memcpy(&u, p, eu_type_size(type));
    u = GUINT64_FROM_LE(u);
    switch (type) {
    case EU_TYPE_F: {
        float f;
        uint32_t w = u;

        memcpy(&f, &w, 4);
        v.fp = true;
        v.f = f;
        break;
    }
    case EU_TYPE_HF:
        v.fp = true;
        v.f = eu_half_to_float(u);
        break;
    case EU_TYPE_DF:
    case EU_TYPE_NF:
        v.fp = true;
        memcpy(&v.f, &u, 8);
        break;
    case EU_TYPE_D:
        v.i = (int32_t)u;
        break;
    case EU_TYPE_W:
        v.i = (int16_t)u;
        break;
    case EU_TYPE_B:
        v.i = (int8_t)u;
        break;
    default:
        v.i = (int64_t)u;
        break;
    }
    return v;
}

static Val modify(const EuInst *in, const EuOperand *o, Val v);

static Val read_src(EuThread *t, const EuInst *in, int s, unsigned c)
{
    const EuOperand *o = &in->src[s];
    Val v = { 0 };

    if (o->file == EU_FILE_IMM) {
        switch (o->type) {
        case EU_TYPE_V:
            v.i = (int64_t)((int32_t)(o->imm << (28 - 4 * (c % 8))) >> 28);
            break;
        case EU_TYPE_UV:
            v.i = (o->imm >> (4 * (c % 8))) & 0xf;
            break;
        case EU_TYPE_VF:
            v.fp = true;
            v.f = vf_to_float(o->imm >> (8 * (c % 4)));
            break;
        default: {
            uint8_t b[8];
            uint64_t le = GUINT64_TO_LE(o->imm);

            memcpy(b, &le, 8);
            v = read_raw(o->type, b);
        }
        }
    } else {
        const uint8_t *p = elem_ptr(t, o, c, false);

        if (p) {
            v = read_raw(o->type, p);
        }
    }
    return modify(in, o, v);
}

/*
 * Channel c's element of GRF source s, displaced by delta bytes: pln and
 * line read the plane coefficients around src0's scalar, pln the second
 * barycentric register after src1's.
 */
static Val read_near(EuThread *t, const EuInst *in, int s, unsigned c,
                     int delta)
{
    const EuOperand *o = &in->src[s];
    const uint8_t *p;
    int64_t off;

    if (o->file != EU_FILE_GRF) {
        fault(t, "plane operand outside the GRF");
        return (Val){ 0 };
    }
    p = elem_ptr(t, o, c, false);
    if (!p) {
        return (Val){ 0 };
    }
    off = (p - t->grf) + delta;
    if (off < 0 || off + eu_type_size(o->type) > (int64_t)sizeof(t->grf)) {
        fault(t, "register access out of range");
        return (Val){ 0 };
    }
    return modify(in, o, read_raw(o->type, t->grf + off));
}

static Val modify(const EuInst *in, const EuOperand *o, Val v)
{
    if (o->abs) {
        if (v.fp) {
            v.f = fabs(v.f);
        } else if (v.i < 0) {
            v.i = (int64_t)(0 - (uint64_t)v.i);
        }
    }
    if (o->negate) {
        bool logic = in->opcode >= EU_OP_NOT && in->opcode <= EU_OP_XOR;

        if (logic) {
            v.i = ~v.i;
        } else if (v.fp) {
            v.f = -v.f;
        } else {
            v.i = (int64_t)(0 - (uint64_t)v.i);
        }
    }
    return v;
}

static int64_t clamp_int(int64_t x, unsigned type)
{
    static const int64_t lo[16] = {
        [EU_TYPE_D] = INT32_MIN, [EU_TYPE_W] = INT16_MIN,
        [EU_TYPE_B] = INT8_MIN, [EU_TYPE_Q] = INT64_MIN,
    };
    static const int64_t hi[16] = {
        [EU_TYPE_UD] = UINT32_MAX, [EU_TYPE_D] = INT32_MAX,
        [EU_TYPE_UW] = UINT16_MAX, [EU_TYPE_W] = INT16_MAX,
        [EU_TYPE_UB] = UINT8_MAX, [EU_TYPE_B] = INT8_MAX,
        [EU_TYPE_UQ] = INT64_MAX, [EU_TYPE_Q] = INT64_MAX,
    };
    return x < lo[type] ? lo[type] : x > hi[type] ? hi[type] : x;
}

/* Convert a value to the destination type (PRM Vol 4, "Type Conversion":
 * float to integer rounds toward zero and saturates, NaN gives 0). */
static uint64_t convert(Val v, unsigned type, bool sat)
{
    if (type_is_float(type)) {
        double f = v.fp ? v.f : (double)v.i;
        float ff;
        uint32_t w;

        if (sat) {
            f = isnan(f) ? 0.0 : f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
        }
        if (type == EU_TYPE_DF || type == EU_TYPE_NF) {
            uint64_t u;

            memcpy(&u, &f, 8);
            return u;
        }
        ff = (float)f;
        if (type == EU_TYPE_HF) {
            return float_to_half(ff);
        }
        memcpy(&w, &ff, 4);
        return w;
    }
    if (v.fp) {
        double f = trunc(v.f);

        if (isnan(f)) {
            return 0;
        }
        if (f <= -9.2e18) {
            v.i = INT64_MIN;
        } else if (f >= 9.2e18) {
            v.i = INT64_MAX;
        } else {
            v.i = (int64_t)f;
        }
        return clamp_int(v.i, type);
    }
    return sat ? (uint64_t)clamp_int(v.i, type) : (uint64_t)v.i;
}

static void write_dst(EuThread *t, const EuInst *in, unsigned c, Val v)
{
    uint8_t *p = elem_ptr(t, &in->dst, c, true);
    uint64_t u;

    if (!p) {
        return;
    }
    u = GUINT64_TO_LE(convert(v, in->dst.type, in->saturate));
    memcpy(p, &u, eu_type_size(in->dst.type));
}

static unsigned group_base(const EuInst *in)
{
    return in->qtr * 8 + in->nib * 4;
}

static bool flag_bit(const EuThread *t, const EuInst *in, unsigned ch)
{
    unsigned b = in->flag_subnr * 16 + ch;

    return b < 32 && (t->flag[in->flag_nr] >> b) & 1;
}

static void set_flag(EuThread *t, const EuInst *in, unsigned ch, bool v)
{
    unsigned b = in->flag_subnr * 16 + ch;

    if (b < 32) {
        t->flag[in->flag_nr] = (t->flag[in->flag_nr] & ~(1u << b)) |
                               (uint32_t)v << b;
    }
}

/* Predicate for channel c (PRM Vol 4, "Predication"). */
static bool predicate(const EuThread *t, const EuInst *in, unsigned c)
{
    unsigned g = group_base(in), n;
    bool any = false, all = true;

    if (in->pred_ctrl == EU_PRED_NONE) {
        return true;
    }
    if (in->pred_ctrl == EU_PRED_NORMAL) {
        return flag_bit(t, in, g + c) ^ in->pred_inv;
    }
    /* anyNh/allNh: groups of N channels; anyv/allv: the whole width. */
    n = in->pred_ctrl >= EU_PRED_ANY2H ?
        2u << ((in->pred_ctrl - EU_PRED_ANY2H) / 2) : in->exec_size;
    for (unsigned i = (c / n) * n; i < (c / n + 1) * n; i++) {
        bool f = flag_bit(t, in, g + i);

        any |= f;
        all &= f;
    }
    return ((in->pred_ctrl & 1) ? all : any) ^ in->pred_inv;
}

static bool cond_holds(unsigned cond, Val v)
{
    double x = v.fp ? v.f : (double)v.i;

    switch (cond) {
    case EU_COND_Z: return x == 0;
    case EU_COND_NZ:
        return v.fp ? !(x == 0) : v.i != 0;
    case EU_COND_G: return x > 0;
    case EU_COND_GE: return x >= 0;
    case EU_COND_L: return x < 0;
    case EU_COND_LE: return x <= 0;
    case EU_COND_U: return v.fp && isnan(v.f);
    case EU_COND_O: return v.fp && isinf(v.f);
    }
    return false;
}

/* a - b as a Val, used to evaluate comparisons. */
static Val diff(Val a, Val b)
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

static uint32_t bitrev32(uint32_t x)
{
    uint32_t r = 0;

    for (int i = 0; i < 32; i++) {
        r |= ((x >> i) & 1) << (31 - i);
    }
    return r;
}

static int64_t shift_amount(Val s, unsigned type)
{
    return s.i & (eu_type_size(type) == 8 ? 63 : 31);
}

static uint64_t unsigned_of(Val a, unsigned type)
{
    unsigned bits = eu_type_size(type) * 8;

    return bits == 64 ? (uint64_t)a.i : (uint64_t)a.i & ((1ull << bits) - 1);
}

/* Quotient and remainder of a 32-bit division (PRM Vol 2, "math":
 * division by zero gives all ones and the dividend). */
static void int_div(bool sgn, int64_t a, int64_t b, int64_t *q, int64_t *m)
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
static void write_remainder(EuThread *t, const EuInst *in, unsigned c,
                            int64_t m)
{
    uint8_t *p = elem_ptr(t, &in->dst, c, true);
    uint64_t u;

    if (!p) {
        return;
    }
    if (in->dst.file != EU_FILE_GRF || in->dst.indirect ||
        (p - t->grf) + EU_GRF_BYTES + 4 > (int64_t)sizeof(t->grf)) {
        fault(t, "intdivmod remainder outside the GRF");
        return;
    }
    u = GUINT64_TO_LE(convert((Val){ .i = m }, in->dst.type, in->saturate));
    memcpy(p + EU_GRF_BYTES, &u, eu_type_size(in->dst.type));
}

static bool math_op(const EuInst *in, Val a, Val b, Val *r)
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
        int_div(type_is_signed(in->src[0].type), a.i, b.i, &q, &m);
        r->i = in->math_fn == EU_MATH_INT_DIV_R ? m : q;
        break;
    }
    default:
        return false;
    }
    return true;
}

/* One channel of an ALU instruction; false if the opcode is unknown. */
static bool alu(EuThread *t, const EuInst *in, unsigned c, unsigned ch,
                Val *r, bool *write)
{
    Val a = read_src(t, in, 0, c), b = { 0 }, s2 = { 0 };
    bool fp;

    if (in->nsrc > 1) {
        b = read_src(t, in, 1, c);
    }
    if (in->nsrc > 2) {
        s2 = read_src(t, in, 2, c);
    }
    fp = a.fp || (in->nsrc > 1 && b.fp);
    if (fp) {
        a.f = a.fp ? a.f : a.i;
        b.f = b.fp ? b.f : b.i;
        a.fp = b.fp = true;
    }
    *r = (Val){ .fp = fp };
    switch (in->opcode) {
    case EU_OP_MOV:
        *r = a;
        break;
    case EU_OP_NOT:
        r->i = ~a.i;
        break;
    case EU_OP_AND:
        r->i = a.i & b.i;
        break;
    case EU_OP_OR:
        r->i = a.i | b.i;
        break;
    case EU_OP_XOR:
        r->i = a.i ^ b.i;
        break;
    case EU_OP_SHL:
        r->i = (int64_t)((uint64_t)a.i << shift_amount(b, in->src[0].type));
        break;
    case EU_OP_SHR:
        r->i = unsigned_of(a, in->src[0].type) >>
               shift_amount(b, in->src[0].type);
        break;
    case EU_OP_ASR:
        r->i = a.i >> shift_amount(b, in->src[0].type);
        break;
    case EU_OP_ROR: case EU_OP_ROL: {
        uint32_t x = a.i, n = b.i & 31;

        if (in->opcode == EU_OP_ROL) {
            n = (32 - n) & 31;
        }
        r->i = n ? (x >> n | x << (32 - n)) : x;
        break;
    }
    case EU_OP_ADD:
        if (fp) {
            r->f = a.f + b.f;
        } else {
            r->i = (int64_t)((uint64_t)a.i + (uint64_t)b.i);
        }
        break;
    case EU_OP_MUL: case EU_OP_MAC:
        if (fp) {
            /* (no "+ 0" for mul: it would turn -0 into +0) */
            r->f = a.f * b.f;
            if (in->opcode == EU_OP_MAC) {
                r->f += read_raw(EU_TYPE_F, t->acc[0] + 4 * (c % 16)).f;
            }
        } else {
            r->i = (int64_t)((uint64_t)a.i * (uint64_t)b.i +
                             (in->opcode == EU_OP_MAC ? t->accv[ch] : 0));
            /* The accumulator takes the full result when written
             * explicitly or with AccWrEnable (PRM Vol 4, "Accumulator
             * Registers"). */
            if (in->acc_wr || (in->dst.file == EU_FILE_ARF &&
                               (in->dst.nr & 0xf0) == EU_ARF_ACC)) {
                t->accv[ch] = r->i;
            }
        }
        break;
    case EU_OP_MACH: {
        /* High 32 bits of the 64-bit product (the Gen8+ mul/mach pair
         * for 32x32 multiplies; the low half stays in the accumulator). */
        bool sgn = type_is_signed(in->src[0].type) ||
                   type_is_signed(in->src[1].type);
        int64_t p = sgn ? (int64_t)(int32_t)a.i * (int32_t)b.i :
                    (int64_t)((uint64_t)(uint32_t)a.i * (uint32_t)b.i);

        t->accv[ch] = p;
        r->i = sgn ? p >> 32 : (int64_t)((uint64_t)p >> 32);
        break;
    }
    case EU_OP_AVG:
        r->i = (int64_t)((uint64_t)a.i + (uint64_t)b.i + 1) >> 1;
        break;
    case EU_OP_ADDC: case EU_OP_SUBB: {
        uint64_t x = (uint32_t)a.i, y = (uint32_t)b.i;
        uint64_t s = in->opcode == EU_OP_ADDC ? x + y : x - y;

        t->accv[ch] = in->opcode == EU_OP_ADDC ? s >> 32 : x < y;
        r->i = (uint32_t)s;
        break;
    }
    case EU_OP_FRC:
        r->fp = true;
        r->f = a.f - floor(a.f);
        break;
    case EU_OP_RNDD:
        r->fp = true;
        r->f = floor(a.f);
        break;
    case EU_OP_RNDU:
        r->fp = true;
        r->f = ceil(a.f);
        break;
    case EU_OP_RNDE:
        r->fp = true;
        r->f = nearbyint(a.f);
        break;
    case EU_OP_RNDZ:
        r->fp = true;
        r->f = trunc(a.f);
        break;
    case EU_OP_LZD: {
        uint32_t x = a.i;

        r->i = x ? (int64_t)__builtin_clz(x) : 32;
        break;
    }
    case EU_OP_FBL: {
        uint32_t x = a.i;

        r->i = x ? (int64_t)__builtin_ctz(x) : 0xffffffffll;
        break;
    }
    case EU_OP_FBH: {
        /* From the MSB: first 1 (UD), or first bit unlike the sign (D). */
        uint32_t x = a.i;

        if (type_is_signed(in->src[0].type) && (x >> 31)) {
            x = ~x;
        }
        if (type_is_signed(in->src[0].type)) {
            x &= 0x7fffffff;
            r->i = x ? (int64_t)__builtin_clz(x) : 0xffffffffll;
        } else {
            r->i = x ? (int64_t)__builtin_clz(x) : 0xffffffffll;
        }
        break;
    }
    case EU_OP_CBIT:
        r->i = __builtin_popcount((uint32_t)a.i);
        break;
    case EU_OP_BFREV:
        r->i = bitrev32(a.i);
        break;
    case EU_OP_BFI1: {
        uint32_t w = a.i & 31, o = b.i & 31;

        r->i = (uint32_t)(((1ull << w) - 1) << o);
        break;
    }
    case EU_OP_BFI2:
        r->i = (uint32_t)((a.i & b.i) | (~a.i & s2.i));
        break;
    case EU_OP_BFE: {
        uint32_t w = a.i & 31, o = b.i & 31;
        uint32_t x = (uint32_t)s2.i >> o, m = w ? (1u << w) - 1 : 0;

        r->i = x & m;
        if (type_is_signed(in->src[2].type) && w && (r->i >> (w - 1)) & 1) {
            r->i |= ~(int64_t)m;
        }
        break;
    }
    case EU_OP_MAD:
    case EU_OP_LRP:
        fp = fp || s2.fp;
        if (fp) {
            double x = a.fp ? a.f : a.i, y = b.fp ? b.f : b.i;
            double z = s2.fp ? s2.f : s2.i;

            r->fp = true;
            r->f = in->opcode == EU_OP_MAD ? x + y * z :
                   x * y + (1 - x) * z;
        } else {
            r->i = (int64_t)((uint64_t)a.i + (uint64_t)b.i * (uint64_t)s2.i);
        }
        break;
    case EU_OP_PLN: case EU_OP_LINE: {
        /* Gen9 PRM Vol 2, "pln", "line": src0 is the scalar plane
         * (a, b, -, c); pln's src1 register pair per 8 channels holds
         * the two barycentrics. */
        double p0 = read_near(t, in, 0, c, 0).f;
        double p1 = read_near(t, in, 0, c, 4).f;
        double p3 = read_near(t, in, 0, c, 12).f;

        r->fp = true;
        if (in->opcode == EU_OP_LINE) {
            r->f = p0 * b.f + p3;
        } else {
            double x = read_near(t, in, 1, c % 8, 64 * (c / 8)).f;
            double y = read_near(t, in, 1, c % 8, 64 * (c / 8) + 32).f;

            r->f = p0 * x + p1 * y + p3;
        }
        break;
    }
    case EU_OP_DP4: case EU_OP_DPH: case EU_OP_DP3: case EU_OP_DP2: {
        /* Gen9 PRM Vol 2, "dp4" etc.: one dot product per group of four
         * channels, replicated to the group; dph adds src1's fourth. */
        unsigned g = c & ~3u;
        unsigned n = in->opcode == EU_OP_DP2 ? 2 :
                     in->opcode == EU_OP_DP4 ? 4 : 3;
        double sum = 0;

        for (unsigned i = 0; i < n; i++) {
            Val x = read_src(t, in, 0, g + i), y = read_src(t, in, 1, g + i);

            sum += (x.fp ? x.f : x.i) * (y.fp ? y.f : y.i);
        }
        if (in->opcode == EU_OP_DPH) {
            Val w = read_src(t, in, 1, g + 3);

            sum += w.fp ? w.f : w.i;
        }
        r->fp = true;
        r->f = sum;
        break;
    }
    case EU_OP_CSEL:
        *r = cond_holds(in->cond_mod, s2) ? a : b;
        break;
    case EU_OP_SEL:
        if (in->cond_mod) {
            *r = cond_holds(in->cond_mod, diff(a, b)) ? a : b;
        } else {
            *r = predicate(t, in, c) ? a : b;
        }
        break;
    case EU_OP_CMP: case EU_OP_CMPN: {
        Val d = diff(a, b);
        bool res;

        if (in->opcode == EU_OP_CMPN && d.fp && isnan(d.f)) {
            /* cmpn: a NaN in src1 compares true (for min/max). */
            res = b.fp && isnan(b.f);
        } else {
            res = cond_holds(in->cond_mod, d);
        }
        set_flag(t, in, ch, res);
        *r = (Val){ .i = res ? -1 : 0 };
        if (type_is_float(in->dst.type)) {
            /* All ones or zero as a bit pattern, not as a number. */
            r->i = res ? 0xffffffff : 0;
            *write = false;
            if (in->dst.file != EU_FILE_ARF || in->dst.nr != 0) {
                uint8_t *p = elem_ptr(t, &in->dst, c, true);

                if (p) {
                    memset(p, res ? 0xff : 0, eu_type_size(in->dst.type));
                }
            }
        }
        return true;
    }
    case EU_OP_MATH:
        if (!math_op(in, a, b, r)) {
            return false;
        }
        if (in->math_fn == EU_MATH_INT_DIV_QR) {
            int64_t q, m;

            int_div(type_is_signed(in->src[0].type), a.i, b.i, &q, &m);
            write_remainder(t, in, c, m);
        }
        break;
    default:
        return false;
    }
    return true;
}

/* mov between operands of one type without modifiers: the EU moves
 * the bits (a signaling NaN stays one). */
static bool is_raw_mov(const EuInst *in)
{
    const EuOperand *o = &in->src[0];

    return in->opcode == EU_OP_MOV && o->type == in->dst.type &&
           !o->abs && !o->negate && !in->saturate &&
           eu_type_size(o->type) <= 8;
}

static void raw_mov(EuThread *t, const EuInst *in, unsigned c, unsigned ch)
{
    unsigned size = eu_type_size(in->dst.type);
    uint8_t b[8] = { 0 };
    uint8_t *d;

    if (in->src[0].file == EU_FILE_IMM) {
        uint64_t le = GUINT64_TO_LE(in->src[0].imm);

        memcpy(b, &le, 8);
    } else {
        const uint8_t *p = elem_ptr(t, &in->src[0], c, false);

        if (t->status != EU_RUNNING) {
            return;
        }
        if (p) {
            memcpy(b, p, size);
        }
    }
    if (in->cond_mod) {
        set_flag(t, in, ch, cond_holds(in->cond_mod,
                                       read_raw(in->dst.type, b)));
    }
    d = elem_ptr(t, &in->dst, c, true);
    if (d) {
        memcpy(d, b, size);
    }
}

static void exec_alu(EuThread *t, const EuInst *in)
{
    unsigned g = group_base(in);
    bool pred_masks = in->opcode != EU_OP_SEL;
    bool raw = is_raw_mov(in);

    for (unsigned c = 0; c < in->exec_size && t->status == EU_RUNNING; c++) {
        unsigned ch = g + c;
        bool write = true;
        Val r;

        if (ch >= EU_MAX_CHANNELS) {
            fault(t, "channel group beyond 32 channels");
            return;
        }
        if (!in->mask_ctrl && !((t->active >> ch) & 1)) {
            continue;
        }
        if (pred_masks && in->opcode != EU_OP_CMP &&
            in->opcode != EU_OP_CMPN && !predicate(t, in, c)) {
            continue;
        }
        if (raw) {
            raw_mov(t, in, c, ch);
            continue;
        }
        if (!alu(t, in, c, ch, &r, &write)) {
            fault(t, "instruction not implemented");
            return;
        }
        if (r.fp && isnan(r.f) && in->opcode != EU_OP_MOV &&
            in->opcode != EU_OP_SEL && in->opcode != EU_OP_CSEL) {
            /* Arithmetic gives the canonical quiet NaN: which input NaN
             * the host would propagate depends on its compiler. */
            r.f = NAN;
        }
        if (!r.fp && !type_is_float(in->dst.type)) {
            /* Flags see the result in the destination's integer type. */
            unsigned bits = eu_type_size(in->dst.type) * 8;
            uint64_t u = convert(r, in->dst.type, in->saturate);

            if (bits < 64) {
                u &= (1ull << bits) - 1;
                if (type_is_signed(in->dst.type) && (u >> (bits - 1))) {
                    u |= ~0ull << bits;
                }
            }
            r.i = (int64_t)u;
        } else if (r.fp && (in->dst.type == EU_TYPE_F ||
                            in->dst.type == EU_TYPE_HF)) {
            /* ... and float ones the value as written: rounded to the
             * destination's type and saturated. */
            uint64_t u = GUINT64_TO_LE(convert(r, in->dst.type,
                                               in->saturate));

            r = read_raw(in->dst.type, (const uint8_t *)&u);
        }
        if (in->cond_mod && in->opcode != EU_OP_SEL &&
            in->opcode != EU_OP_CMP && in->opcode != EU_OP_CMPN &&
            in->opcode != EU_OP_CSEL) {
            set_flag(t, in, ch, cond_holds(in->cond_mod, r));
        }
        if (write) {
            write_dst(t, in, c, r);
        }
    }
}

/*
 * Fast paths.  prepare() gives the common forms (direct GRF operands with
 * contiguous or scalar regions, exec size up to 16, F or integer types,
 * normal or no predication) an executor that works on whole registers:
 * the operand offsets and strides are resolved when the instruction is
 * cached, so no bounds checks or region arithmetic remain per channel.
 * The arithmetic is the generic path's, step for step (floats through
 * double, integers through their extended 64-bit values), so both give
 * the same bits; test-intel-eu-exec's differential test checks it.
 * The GRF holds little-endian values: the fast paths assume a
 * little-endian host and are left out on others.
 */
#define FAST_LANES 16

/* Channels enabled by the mask and, unless told not to, the predicate. */
static inline uint32_t fast_enables(const EuThread *t, const EuInst *in,
                                    bool pred_masks)
{
    unsigned g = group_base(in);
    uint32_t all = (1u << in->exec_size) - 1;
    uint32_t en = in->mask_ctrl ? all : (t->active >> g) & all;

    if (pred_masks && in->pred_ctrl == EU_PRED_NORMAL) {
        unsigned b = in->flag_subnr * 16 + g;
        uint32_t f = b < 32 ? (uint32_t)(t->flag[in->flag_nr] >> b) : 0;

        en &= in->pred_inv ? ~f : f;
    }
    return en;
}

/* The predicate's value per channel (sel without a condition). */
static inline uint32_t fast_pred(const EuThread *t, const EuInst *in)
{
    unsigned b = in->flag_subnr * 16 + group_base(in);
    uint32_t f;

    if (in->pred_ctrl == EU_PRED_NONE) {
        return ~0u;
    }
    f = b < 32 ? (uint32_t)(t->flag[in->flag_nr] >> b) : 0;
    return in->pred_inv ? ~f : f;
}

/* Write the condition bits of the enabled channels to the flag. */
static inline void fast_set_flags(EuThread *t, const EuInst *in, uint32_t en,
                           uint32_t bits)
{
    unsigned b = in->flag_subnr * 16 + group_base(in);
    uint32_t m;

    if (b >= 32) {
        return;
    }
    m = en << b;
    t->flag[in->flag_nr] = (t->flag[in->flag_nr] & ~m) | ((bits << b) & m);
}

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

/* The comparison cmp and sel make (a - b's sign, as diff() gives it). */
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

/* sel: a where the condition (or, without one, the predicate) holds. */
#define FAST_SEL(t, in, r, a, b, cmp) \
    do { \
        uint32_t p_ = fast_pred(t, in); \
        for (int i = 0; i < FAST_LANES; i++) { \
            bool pick_ = in->cond_mod ? cmp(in->cond_mod, a[i], b[i]) \
                                      : (p_ >> i) & 1; \
            r[i] = pick_ ? a[i] : b[i]; \
        } \
    } while (0)

/* A float source's 16 lanes: a vector reads 64 bytes (prepare made
 * sure they are inside the GRF), a scalar is broadcast. */
/* Bit i set where m[i] (all ones or zero) is set. */
static inline uint32_t fast_mask_bits(const int32_t *m)
{
    uint32_t bits = 0;

#ifdef __SSE2__
    for (int i = 0; i < FAST_LANES; i += 4) {
        __m128 v;

        memcpy(&v, m + i, sizeof(v));
        bits |= (uint32_t)_mm_movemask_ps(v) << i;
    }
#else
    for (int i = 0; i < FAST_LANES; i++) {
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
            FAST_CMP_LOOP(a, b, m, FAST_EQ, 0); \
            break; \
        case EU_COND_NZ: \
            FAST_CMP_LOOP(a, b, m, FAST_EQ, -1); \
            break; \
        case EU_COND_G: \
            FAST_CMP_LOOP(a, b, m, FAST_GT, 0); \
            break; \
        case EU_COND_GE: \
            FAST_CMP_LOOP(a, b, m, FAST_GE, 0); \
            break; \
        case EU_COND_L: \
            FAST_CMP_LOOP(a, b, m, FAST_LT, 0); \
            break; \
        case EU_COND_LE: \
            FAST_CMP_LOOP(a, b, m, FAST_LE, 0); \
            break; \
        } \
    } while (0)
/* The same on four vectors of four lanes. */
#define FAST_CMP_MASK4(cond, a, b, m) \
    do { \
        switch (cond) { \
        case EU_COND_Z: \
            FAST_CMP_VEC(a, b, m, FAST_EQ); \
            break; \
        case EU_COND_NZ: \
            FAST_CMP_VEC(a, b, m, FAST_NE); \
            break; \
        case EU_COND_G: \
            FAST_CMP_VEC(a, b, m, FAST_GT); \
            break; \
        case EU_COND_GE: \
            FAST_CMP_VEC(a, b, m, FAST_GE); \
            break; \
        case EU_COND_L: \
            FAST_CMP_VEC(a, b, m, FAST_LT); \
            break; \
        case EU_COND_LE: \
            FAST_CMP_VEC(a, b, m, FAST_LE); \
            break; \
        default: \
            (m)[0] = (m)[1] = (m)[2] = (m)[3] = (EuV4I){ 0 }; \
        } \
    } while (0)
#define FAST_EQ(x, y) ((x) == (y))
#define FAST_NE(x, y) ((x) != (y))
#define FAST_GT(x, y) ((x) > (y))
#define FAST_GE(x, y) ((x) >= (y))
#define FAST_LT(x, y) ((x) < (y))
#define FAST_LE(x, y) ((x) <= (y))
#define FAST_CMP_VEC(a, b, m, CMP) \
    do { \
        (m)[0] = (EuV4I)CMP((a)[0], (b)[0]); \
        (m)[1] = (EuV4I)CMP((a)[1], (b)[1]); \
        (m)[2] = (EuV4I)CMP((a)[2], (b)[2]); \
        (m)[3] = (EuV4I)CMP((a)[3], (b)[3]); \
    } while (0)
#define FAST_CMP_LOOP(a, b, m, CMP, inv) \
    for (int i_ = 0; i_ < FAST_LANES; i_++) { \
        (m)[i_] = (CMP((a)[i_], (b)[i_]) ? -1 : 0) ^ (inv); \
    }

static inline __attribute__((always_inline))
void fast_load_f(const EuThread *t, const EuInst *in, int s, float *v)
{
    const EuOperand *o = &in->src[s];

    if (in->fast_step[s]) {
        memcpy(v, t->grf + in->fast_src[s], 4 * FAST_LANES);
    } else {
        uint32_t u = o->imm;
        float x;

        if (o->file != EU_FILE_IMM) {
            memcpy(&u, t->grf + in->fast_src[s], 4);
        }
        memcpy(&x, &u, 4);
        for (int i = 0; i < FAST_LANES; i++) {
            v[i] = x;
        }
    }
    if (o->abs) {
        for (int i = 0; i < FAST_LANES; i++) {
            v[i] = fabsf(v[i]);
        }
    }
    if (o->negate) {
        for (int i = 0; i < FAST_LANES; i++) {
            v[i] = -v[i];
        }
    }
}

/* Store the enabled lanes of r at the destination. */
static inline void fast_store(EuThread *t, const EuInst *in, uint32_t en,
                              const void *r, unsigned size)
{
    unsigned n = in->exec_size;
    uint8_t *d;

    if (in->fast_dst == UINT16_MAX) {
        return;                 /* a null destination: flags only */
    }
    d = t->grf + in->fast_dst;
    if (en == (1u << n) - 1) {
        /* Constant sizes: the compiler turns them into vector stores. */
        if (n == 16 && size == 4) {
            memcpy(d, r, 64);
        } else if (n == 8 && size == 4) {
            memcpy(d, r, 32);
        } else {
            memcpy(d, r, size * n);
        }
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        if ((en >> i) & 1) {
            memcpy(d + size * i, (const uint8_t *)r + size * i, size);
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
    float a[FAST_LANES], b[FAST_LANES], c[FAST_LANES], r[FAST_LANES];
    unsigned n = in->exec_size;
    uint32_t en = fast_enables(t, in, op != EU_OP_SEL && op != EU_OP_CMP);
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
        for (int i = 0; i < FAST_LANES; i++) {
            r[i] = a[i] + b[i];
        }
        break;
    case EU_OP_MUL:
        for (int i = 0; i < FAST_LANES; i++) {
            r[i] = a[i] * b[i];
        }
        break;
    case EU_OP_MAD:
        fast_load_f(t, in, 2, c);
        for (int i = 0; i < FAST_LANES; i++) {
            r[i] = (double)a[i] + (double)b[i] * (double)c[i];
        }
        break;
    case EU_OP_SEL:
        FAST_SEL(t, in, r, a, b, fast_cmp_f);
        break;
    case EU_OP_CMP: {
        int32_t m[FAST_LANES];

        FAST_CMP_MASK(in->cond_mod, a, b, m);
        bits = fast_mask_bits(m) & ((1u << n) - 1);
        fast_set_flags(t, in, en, bits);
        fast_store(t, in, en, m, 4);
        return;
    }
    }
    if (op == EU_OP_MOV && is_raw_mov(in)) {
        /* the bits as they are */
    } else if (op == EU_OP_MOV || op == EU_OP_SEL) {
        uint32_t u[FAST_LANES];

        memcpy(u, r, sizeof(u));
        for (int i = 0; i < FAST_LANES; i++) {
            u[i] |= (u[i] & 0x7fffffff) > 0x7f800000 ? 0x00400000 : 0;
        }
        memcpy(r, u, sizeof(u));
    } else {
        int32_t m[FAST_LANES];

        for (int i = 0; i < FAST_LANES; i++) {
            m[i] = r[i] != r[i] ? -1 : 0;
        }
        if (fast_mask_bits(m)) {
            for (int i = 0; i < FAST_LANES; i++) {
                r[i] = isnan(r[i]) ? NAN : r[i];
            }
        }
    }
    if (in->saturate) {
        for (int i = 0; i < FAST_LANES; i++) {
            r[i] = isnan(r[i]) ? 0.0f : r[i] < 0.0f ? 0.0f :
                   r[i] > 1.0f ? 1.0f : r[i];
        }
    }
    if (in->cond_mod && op != EU_OP_SEL) {
        for (unsigned i = 0; i < n; i++) {
            bits |= (uint32_t)fast_cond(in->cond_mod, r[i]) << i;
        }
        fast_set_flags(t, in, en, bits);
    }
    fast_store(t, in, en, r, 4);
}

/*
 * mad through the accumulator, as Gen11 pixel shaders interpolate (IGT's
 * ps_kernel_gen11): an NF operand is acc0/acc1 in double lanes
 * (fast_src/fast_dst then hold the byte offset into t->acc), the others
 * are F.  Same arithmetic as the generic path: double throughout.
 */
static inline __attribute__((always_inline))
void fast_load_nf(const EuThread *t, const EuInst *in, int s, double *v)
{
    const EuOperand *o = &in->src[s];

    if (o->type == EU_TYPE_NF) {
        /* prepare() made sure 8 lanes fit in acc0/acc1. */
        memcpy(v, (const uint8_t *)t->acc + in->fast_src[s], 64);
    } else {
        float f[8];

        if (in->fast_step[s]) {
            memcpy(f, t->grf + in->fast_src[s], sizeof(f));
        } else {
            uint32_t u = o->imm;

            if (o->file != EU_FILE_IMM) {
                memcpy(&u, t->grf + in->fast_src[s], 4);
            }
            memcpy(&f[0], &u, 4);
            for (int i = 1; i < 8; i++) {
                f[i] = f[0];
            }
        }
        for (int i = 0; i < 8; i++) {
            v[i] = f[i];
        }
    }
    if (o->abs) {
        for (int i = 0; i < 8; i++) {
            v[i] = fabs(v[i]);
        }
    }
    if (o->negate) {
        for (int i = 0; i < 8; i++) {
            v[i] = -v[i];
        }
    }
}

/* a + b * c in double for 8 lanes, NaNs canonical: the generic path's
 * arithmetic. */
static inline void mad_nf_lanes(const EuThread *t, const EuInst *in,
                                double *r)
{
    double a[8], b[8], c[8], sum = 0;

    fast_load_nf(t, in, 0, a);
    fast_load_nf(t, in, 1, b);
    fast_load_nf(t, in, 2, c);
    for (int i = 0; i < 8; i++) {
        r[i] = a[i] + b[i] * c[i];
        sum += r[i];
    }
    /* A NaN lane makes the sum NaN (infinities may too: harmless). */
    for (int i = 0; isnan(sum) && i < 8; i++) {
        r[i] = isnan(r[i]) ? NAN : r[i];
    }
}

#ifdef __SSE2__
/* The same with SSE2, for sources without modifiers. */
static inline void mad_nf_load_sse2(const EuThread *t, const EuInst *in,
                                    int s, __m128d *v)
{
    const EuOperand *o = &in->src[s];
    __m128 f[2];

    if (o->type == EU_TYPE_NF) {
        const double *p = (const double *)((const uint8_t *)t->acc +
                                           in->fast_src[s]);

        for (int i = 0; i < 4; i++) {
            v[i] = _mm_loadu_pd(p + 2 * i);
        }
        return;
    }
    if (in->fast_step[s]) {
        const float *p = (const float *)(t->grf + in->fast_src[s]);

        f[0] = _mm_loadu_ps(p);
        f[1] = _mm_loadu_ps(p + 4);
    } else {
        uint32_t u = o->imm;
        float x;

        if (o->file != EU_FILE_IMM) {
            memcpy(&u, t->grf + in->fast_src[s], 4);
        }
        memcpy(&x, &u, 4);
        f[0] = f[1] = _mm_set1_ps(x);
    }
    for (int i = 0; i < 2; i++) {
        v[2 * i] = _mm_cvtps_pd(f[i]);
        v[2 * i + 1] = _mm_cvtps_pd(_mm_movehl_ps(f[i], f[i]));
    }
}

static inline void mad_nf_lanes_sse2(const EuThread *t, const EuInst *in,
                                     double *r)
{
    __m128d a[4], b[4], c[4], v[4];
    int nan = 0;

    mad_nf_load_sse2(t, in, 0, a);
    mad_nf_load_sse2(t, in, 1, b);
    mad_nf_load_sse2(t, in, 2, c);
    for (int i = 0; i < 4; i++) {
        v[i] = _mm_add_pd(a[i], _mm_mul_pd(b[i], c[i]));
        nan |= _mm_movemask_pd(_mm_cmpunord_pd(v[i], v[i]));
    }
    for (int i = 0; i < 4; i++) {
        _mm_storeu_pd(r + 2 * i, v[i]);
    }
    for (int i = 0; nan && i < 8; i++) {
        r[i] = isnan(r[i]) ? NAN : r[i];
    }
}
#endif

static void exec_mad_nf(EuThread *t, const EuInst *in)
{
    double r[8];
    unsigned n = in->exec_size;
    uint32_t en = fast_enables(t, in, true);

#ifdef __SSE2__
    if (!in->src[0].abs && !in->src[0].negate && !in->src[1].abs &&
        !in->src[1].negate && !in->src[2].abs && !in->src[2].negate) {
        mad_nf_lanes_sse2(t, in, r);
    } else {
        mad_nf_lanes(t, in, r);
    }
#else
    mad_nf_lanes(t, in, r);
#endif
    if (in->dst.type == EU_TYPE_NF) {
        uint8_t *d = (uint8_t *)t->acc + in->fast_dst;

        if (n == 8 && en == 0xff) {
            memcpy(d, r, 64);
            return;
        }
        for (unsigned i = 0; i < n; i++) {
            if ((en >> i) & 1) {
                memcpy(d + 8 * i, &r[i], 8);
            }
        }
    } else {
        float f[FAST_LANES] = { 0 };

        for (int i = 0; i < 8; i++) {
            f[i] = r[i];
        }
        fast_store(t, in, en, f, 4);
    }
}

static bool fast_operand(EuInst *in, int s, unsigned n);

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
        group_base(in) + n > EU_MAX_CHANNELS ||
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
    return nf ? exec_mad_nf : NULL;
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
        for (int i = 0; i < FAST_LANES; i++) { \
            r[i] = a[i]; \
        } \
        return true; \
    case EU_OP_NOT: \
        for (int i = 0; i < FAST_LANES; i++) { \
            r[i] = ~a[i]; \
        } \
        return true; \
    case EU_OP_ADD: \
        for (int i = 0; i < FAST_LANES; i++) { \
            r[i] = (lane_t)a[i] + (lane_t)b[i]; \
        } \
        return true; \
    case EU_OP_MUL: \
        for (int i = 0; i < FAST_LANES; i++) { \
            r[i] = (lane_t)a[i] * (lane_t)b[i]; \
        } \
        return true; \
    case EU_OP_MAD: \
        load(t, in, 2, c); \
        for (int i = 0; i < FAST_LANES; i++) { \
            r[i] = (lane_t)a[i] + (lane_t)b[i] * (lane_t)c[i]; \
        } \
        return true; \
    case EU_OP_AND: \
        for (int i = 0; i < FAST_LANES; i++) { \
            r[i] = a[i] & b[i]; \
        } \
        return true; \
    case EU_OP_OR: \
        for (int i = 0; i < FAST_LANES; i++) { \
            r[i] = a[i] | b[i]; \
        } \
        return true; \
    case EU_OP_XOR: \
        for (int i = 0; i < FAST_LANES; i++) { \
            r[i] = a[i] ^ b[i]; \
        } \
        return true; \
    case EU_OP_SHL: \
        for (int i = 0; i < FAST_LANES; i++) { \
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
        memcpy(v, t->grf + in->fast_src[s], 4 * FAST_LANES);
    } else {
        uint32_t x = in->src[s].imm;

        if (in->src[s].file != EU_FILE_IMM) {
            memcpy(&x, t->grf + in->fast_src[s], 4);
        }
        for (int i = 0; i < FAST_LANES; i++) {
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
    uint32_t a[FAST_LANES], b[FAST_LANES], c[FAST_LANES], r[FAST_LANES];
    unsigned n = in->exec_size;
    bool s0 = in->src[0].type == EU_TYPE_D;
    uint32_t en = fast_enables(t, in, op != EU_OP_SEL && op != EU_OP_CMP);
    uint32_t bits = 0;

    fast_load_u32(t, in, 0, a);
    if (in->nsrc > 1) {
        fast_load_u32(t, in, 1, b);
    }
    if (!fast_int_u32(t, in, op, r, a, b, c)) {
        switch (op) {
        case EU_OP_SHR:
            for (int i = 0; i < FAST_LANES; i++) {
                r[i] = a[i] >> (b[i] & 31);
            }
            break;
        case EU_OP_ASR:
            for (int i = 0; i < FAST_LANES; i++) {
                r[i] = s0 ? (uint32_t)((int32_t)a[i] >> (b[i] & 31)) :
                       a[i] >> (b[i] & 31);
            }
            break;
        case EU_OP_SEL: {
            uint32_t p = fast_pred(t, in);

            for (int i = 0; i < FAST_LANES; i++) {
                bool pick = in->cond_mod ?
                            fast_cmp_i(in->cond_mod, fast_ext32(a[i], s0),
                                       fast_ext32(b[i], s0)) : (p >> i) & 1;

                r[i] = pick ? a[i] : b[i];
            }
            break;
        }
        case EU_OP_CMP: {
            int32_t m[FAST_LANES];

            if (s0) {
                int32_t x[FAST_LANES], y[FAST_LANES];

                memcpy(x, a, sizeof(x));
                memcpy(y, b, sizeof(y));
                FAST_CMP_MASK(in->cond_mod, x, y, m);
            } else {
                FAST_CMP_MASK(in->cond_mod, a, b, m);
            }
            bits = fast_mask_bits(m) & ((1u << n) - 1);
            fast_set_flags(t, in, en, bits);
            fast_store(t, in, en, m, 4);
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
        fast_set_flags(t, in, en, bits);
    }
    fast_store(t, in, en, r, 4);
}

/* Integer sources as the generic path extends them (read_raw()). */
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
        v[i] = read_raw(o->type, p + i * eu_type_size(o->type)).i;
    }
    if (n == 1) {
        for (int i = 1; i < FAST_LANES; i++) {
            v[i] = v[0];
        }
    }
    if (o->abs) {
        for (int i = 0; i < FAST_LANES; i++) {
            v[i] = v[i] < 0 ? (int64_t)(0 - (uint64_t)v[i]) : v[i];
        }
    }
    if (o->negate) {
        bool logic = in->opcode >= EU_OP_NOT && in->opcode <= EU_OP_XOR;

        for (int i = 0; i < FAST_LANES; i++) {
            v[i] = logic ? ~v[i] : (int64_t)(0 - (uint64_t)v[i]);
        }
    }
}

FAST_INT_FN(fast_int_i64, uint64_t, int64_t, fast_load_i)

static void exec_fast_i(EuThread *t, const EuInst *in)
{
    int64_t a[FAST_LANES], b[FAST_LANES], c[FAST_LANES];
    uint64_t r[FAST_LANES];
    unsigned n = in->exec_size, op = in->opcode;
    unsigned dsize = eu_type_size(in->dst.type);
    unsigned amt_mask = 31;
    uint32_t en = fast_enables(t, in, op != EU_OP_SEL && op != EU_OP_CMP);
    uint32_t bits = 0;

    fast_load_i(t, in, 0, a);
    if (in->nsrc > 1) {
        fast_load_i(t, in, 1, b);
    }
    if (!fast_int_i64(t, in, op, r, a, b, c)) {
        switch (op) {
        case EU_OP_SHR: {
            uint64_t m = (1ull << (8 * eu_type_size(in->src[0].type))) - 1;

            for (int i = 0; i < FAST_LANES; i++) {
                r[i] = ((uint64_t)a[i] & m) >> (b[i] & amt_mask);
            }
            break;
        }
        case EU_OP_ASR:
            for (int i = 0; i < FAST_LANES; i++) {
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
            fast_set_flags(t, in, en, bits);
            break;
        }
    }
    if (in->cond_mod && op != EU_OP_SEL && op != EU_OP_CMP) {
        /* Flags see the result in the destination's type. */
        unsigned sh = 64 - 8 * dsize;
        bool sgn = type_is_signed(in->dst.type);

        for (unsigned i = 0; i < n; i++) {
            int64_t x = sgn ? (int64_t)(r[i] << sh) >> sh :
                        (int64_t)((r[i] << sh) >> sh);

            bits |= (uint32_t)fast_cond(in->cond_mod, (double)x) << i;
        }
        fast_set_flags(t, in, en, bits);
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
static void exec_mov_raw(EuThread *t, const EuInst *in)
{
    unsigned n = in->exec_size, size = eu_type_size(in->dst.type);
    uint32_t en = fast_enables(t, in, true);
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

/* Source s as four vectors of 32-bit lanes: 16 lanes of a vector, or a
 * scalar (register or immediate) broadcast. */
static inline __attribute__((always_inline))
void simple_load(const EuThread *t, const EuInst *in, int s, bool vec,
                 EuV4U *v)
{
    if (vec) {
        memcpy(v, t->grf + in->fast_src[s], 4 * sizeof(*v));
    } else {
        uint32_t x = in->src[s].imm;

        if (in->src[s].file != EU_FILE_IMM) {
            memcpy(&x, t->grf + in->fast_src[s], 4);
        }
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
    fast_store(t, in, fast_enables(t, in, true), r, 4);
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
        fast_store(t, in, fast_enables(t, in, true), r, 4);
        return;
    }
    en = fast_enables(t, in, false);
    if (in->src[0].type == EU_TYPE_D) {
        EuV4I x[4], y[4];

        memcpy(x, a, sizeof(x));
        memcpy(y, b, sizeof(y));
        FAST_CMP_MASK4(in->cond_mod, x, y, m);
    } else {
        FAST_CMP_MASK4(in->cond_mod, a, b, m);
    }
    bits = fast_mask4_bits(m) & ((1u << in->exec_size) - 1);
    fast_set_flags(t, in, en, bits);
    fast_store(t, in, en, m, 4);
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

/* The simple executor for in, or NULL (after fast_exec_for() accepted
 * it, so the operands are resolved). */
static EuExecFn simple_exec_for(const EuInst *in, bool fp, bool null_dst)
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
    if (off + MAX(span, in->fast_step[s] * FAST_LANES) >
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
static EuExecFn fast_exec_for(EuInst *in)
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
        n > FAST_LANES || group_base(in) + n > EU_MAX_CHANNELS ||
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
    if (op == EU_OP_MOV && is_raw_mov(in) && !in->cond_mod && !null_dst) {
        return exec_mov_raw;
    }
    if (fp) {
        if (!null_dst && in->dst.type != EU_TYPE_F) {
            return NULL;
        }
        return simple_exec_for(in, true, null_dst) ?: fast_f_for(op);
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
        return exec_fast_i;
    }
    return simple_exec_for(in, false, null_dst) ?: fast_i32_for(op);
}

/* Disable the given channels until the thread reaches ip. */
static void park(EuThread *t, uint32_t chans, uint32_t ip)
{
    if (!chans) {
        return;
    }
    for (unsigned c = 0; c < EU_MAX_CHANNELS; c++) {
        if ((chans >> c) & 1) {
            t->wait_ip[c] = ip;
        }
    }
    t->active &= ~chans;
    t->waiting |= chans;
}

/* Channels a control-flow instruction applies to (active & predicate). */
static inline uint32_t cf_chans(EuThread *t, const EuInst *in)
{
    uint32_t m = 0;
    unsigned g = group_base(in);

    if (in->pred_ctrl <= EU_PRED_NORMAL && in->exec_size <= FAST_LANES &&
        g + in->exec_size <= EU_MAX_CHANNELS) {
        uint32_t all = (1u << in->exec_size) - 1;

        return ((t->active >> g) & all & fast_pred(t, in)) << g;
    }

    for (unsigned c = 0; c < in->exec_size && g + c < EU_MAX_CHANNELS; c++) {
        if (((t->active >> (g + c)) & 1) && predicate(t, in, c)) {
            m |= 1u << (g + c);
        }
    }
    return m;
}

/* The channels an instruction's execution size and group cover. */
static uint32_t group_mask(const EuInst *in)
{
    unsigned g = group_base(in);
    uint64_t m = ((1ull << in->exec_size) - 1) << g;

    return (uint32_t)m;
}

/* Returns the next IP. */
static uint32_t exec_flow(EuThread *t, const EuInst *in)
{
    uint32_t next = t->ip + in->size;
    uint32_t own = t->active & group_mask(in);
    uint32_t m;

    switch (in->opcode) {
    case EU_OP_IF:
        m = own & ~cf_chans(t, in);
        park(t, m, t->ip + in->jip);
        break;
    case EU_OP_ELSE:
        park(t, own, t->ip + in->jip);
        break;
    case EU_OP_ENDIF:
        break;
    case EU_OP_BREAK:
        m = cf_chans(t, in);
        park(t, m, t->ip + in->uip);
        t->broken |= m;
        break;
    case EU_OP_CONT:
    case EU_OP_HALT:
        park(t, cf_chans(t, in), t->ip + in->uip);
        break;
    case EU_OP_WHILE:
        m = cf_chans(t, in);
        if (in->jip >= 0) {
            fault(t, "WHILE with a forward jump");
            return next;
        }
        if (m) {
            park(t, own & ~m, next);
            return t->ip + in->jip;
        }
        break;
    case EU_OP_JMPI: {
        /* One uniform jump, relative to the next instruction (Mesa
         * elk_eu_emit.c elk_land_fwd_jump). */
        Val v = read_src(t, in, 1, 0);

        if (in->pred_ctrl == EU_PRED_NONE || predicate(t, in, 0)) {
            return next + (int32_t)v.i;
        }
        break;
    }
    case EU_OP_GOTO:
        /* Gen8+ goto: the channels whose predicate holds wait for the
         * UIP; with none left the thread goes to the JIP (PRM Vol 2,
         * "goto"). */
        park(t, cf_chans(t, in), t->ip + in->uip);
        if (!t->active) {
            return t->ip + in->jip;
        }
        break;
    case EU_OP_CALL:
    case EU_OP_CALLA: {
        /* dst.0 = return IP, dst.1 = the channel enables (PRM Vol 2,
         * "call", "calla"); calla's JIP is absolute. */
        Val ra = { .i = next }, mask = { .i = t->active };

        write_dst(t, in, 0, ra);
        write_dst(t, in, 1, mask);
        return in->opcode == EU_OP_CALLA ? (uint32_t)in->jip :
                                           t->ip + in->jip;
    }
    case EU_OP_RET: {
        /* Restore the IP and the channel enables call saved: src0.0 and
         * the dword after it (PRM Vol 2, "ret"). */
        const uint8_t *p = in->src[0].file == EU_FILE_GRF ?
                           elem_ptr(t, &in->src[0], 0, false) : NULL;
        uint32_t ra, mask;

        if (!p || (p - t->grf) + 8 > (int64_t)sizeof(t->grf)) {
            fault(t, "ret without a GRF return address");
            return next;
        }
        memcpy(&ra, p, 4);
        memcpy(&mask, p + 4, 4);
        mask = GUINT32_FROM_LE(mask) & t->exec_mask;
        t->active = mask;
        t->waiting &= ~mask;
        t->broken &= ~mask;
        return GUINT32_FROM_LE(ra);
    }
    default:
        fault(t, "control-flow instruction not implemented");
    }
    return next;
}

static void exec_send(EuThread *t, const EuInst *in)
{
    uint32_t desc = in->desc, ex = in->ex_desc;
    int r;

    if (in->desc_indirect) {
        desc = t->a0[0] | (uint32_t)t->a0[1] << 16;
    }
    if (in->ex_desc_indirect) {
        unsigned a = in->ex_desc_subnr;

        ex = a < 15 ? (t->a0[a] | (uint32_t)t->a0[a + 1] << 16) : 0;
    }
    if (in->pred_ctrl != EU_PRED_NONE && !cf_chans(t, in)) {
        return;                 /* every channel predicated off */
    }
    if (!t->send) {
        fault(t, "no shared function for SEND");
        return;
    }
    r = t->send(t, in, desc, ex, t->send_opaque);
    if (r < 0) {
        fault(t, "unsupported shared-function message");
        return;
    }
    if (in->eot) {
        t->status = EU_DONE;
    } else if (r > 0) {
        t->status = EU_WAIT_SEND;
    }
}

struct EuProgram {
    unsigned refs;
    uint64_t serial;        /* unique per program, never 0 */
    size_t size;
    uint8_t *code;
    EuInst **slots;         /* one per 8 bytes, decoded on first use */
};

static void exec_nop(EuThread *t, const EuInst *in)
{
}

/* The pipe and kind of a decoded instruction (EuEvClass). */
static uint8_t ev_class(const EuInst *in)
{
    unsigned pipe = in->opcode == EU_OP_MATH ? EU_EVC_FPU1 : EU_EVC_FPU0;

    if (in->error || eu_is_branch(in->opcode) || in->opcode == EU_OP_NOP ||
        in->opcode == EU_OP_WAIT) {
        return EU_EVC_NONE;
    } else if (in->is_send) {
        return EU_EVC_SEND;
    } else if (eu_is_3src(in->opcode)) {
        return pipe + EU_EVK_TERNARY;
    } else if (in->opcode == EU_OP_MOV || in->opcode == EU_OP_MOVI ||
               in->opcode == EU_OP_SMOV) {
        return pipe + EU_EVK_MOV;
    } else if (in->opcode == EU_OP_MATH) {
        /* MATH always decodes two sources; the unary functions use one. */
        bool two = in->math_fn == EU_MATH_FDIV || in->math_fn == EU_MATH_POW ||
                   (in->math_fn >= EU_MATH_INT_DIV_QR &&
                    in->math_fn <= EU_MATH_INT_DIV_R);

        return pipe + (two ? EU_EVK_BINARY : EU_EVK_OTHER);
    }
    return pipe + (in->nsrc == 2 ? EU_EVK_BINARY : EU_EVK_OTHER);
}

/* Choose the executor of a freshly decoded instruction. */
static void prepare(EuInst *in)
{
    in->ev_class = ev_class(in);
    if (in->error || in->is_send || eu_is_branch(in->opcode)) {
        in->exec = NULL;
    } else if (in->opcode == EU_OP_NOP || in->opcode == EU_OP_WAIT) {
        in->exec = exec_nop;
    } else {
        in->exec = eu_fast_paths ? fast_exec_for(in) : NULL;
        if (!in->exec) {
            in->exec = exec_alu;
        }
    }
}

bool eu_fast_paths = true;

bool eu_inst_has_fast_path(const EuInst *in)
{
    EuInst copy = *in;

    return !in->error && !in->is_send && !eu_is_branch(in->opcode) &&
           fast_exec_for(&copy);
}

EuProgram *eu_program_new(const void *code, size_t size)
{
    EuProgram *p = g_new0(EuProgram, 1);

    size = MIN(size, EU_PROGRAM_MAX_BYTES);
    static uint64_t serials;

    p->refs = 1;
    p->serial = ++serials;
    p->size = size;
    p->code = g_malloc(size + 1);
    if (size) {
        memcpy(p->code, code, size);
    }
    p->slots = g_new0(EuInst *, size / 8 + 1);
    return p;
}

EuProgram *eu_program_ref(EuProgram *p)
{
    p->refs++;
    return p;
}

void eu_program_unref(EuProgram *p)
{
    if (!p || --p->refs) {
        return;
    }
    for (size_t i = 0; i <= p->size / 8; i++) {
        g_free(p->slots[i]);
    }
    g_free(p->slots);
    g_free(p->code);
    g_free(p);
}

size_t eu_program_size(const EuProgram *p)
{
    return p->size;
}

static const EuInst *fetch_program(EuThread *t)
{
    EuProgram *p = t->prog;
    EuInst *in;

    if (t->ip >= p->size || (t->ip & 7)) {
        fault(t, "instruction pointer outside the kernel");
        return NULL;
    }
    in = p->slots[t->ip >> 3];
    if (!in) {
        in = p->slots[t->ip >> 3] = g_new(EuInst, 1);
        eu_decode(p->code + t->ip, p->size - t->ip, in);
        prepare(in);
    }
    if (in->error) {
        fault(t, in->error);
        return NULL;
    }
    return in;
}

static const EuInst *fetch(EuThread *t)
{
    unsigned slot = (t->ip >> 3) % EU_CACHE_SIZE;

    if (t->prog) {
        return fetch_program(t);
    }
    if (t->cache[slot].valid && t->cache[slot].ip == t->ip) {
        return &t->cache[slot].inst;
    }
    if (t->ip >= t->code_size || (t->ip & 7)) {
        fault(t, "instruction pointer outside the kernel");
        return NULL;
    }
    if (eu_decode(t->code + t->ip, t->code_size - t->ip,
                  &t->cache[slot].inst) < 0) {
        t->cache[slot].valid = false;
        fault(t, t->cache[slot].inst.error);
        return NULL;
    }
    prepare(&t->cache[slot].inst);
    t->cache[slot].ip = t->ip;
    t->cache[slot].valid = true;
    return &t->cache[slot].inst;
}

void eu_thread_init(EuThread *t, const void *code, size_t code_size,
                    uint32_t exec_mask, EuSendFn send, void *opaque)
{
    memset(t, 0, sizeof(*t));
    t->code = code;
    t->code_size = code_size;
    t->exec_mask = t->active = exec_mask;
    t->send = send;
    t->send_opaque = opaque;
    t->status = EU_RUNNING;
}

void eu_thread_init_program(EuThread *t, EuProgram *p, uint32_t exec_mask,
                            EuSendFn send, void *opaque)
{
    /* The state between the GRF and the private decode cache (unused
     * with a program); the GRF when it holds another program's values. */
    memset((uint8_t *)t + sizeof(t->grf), 0,
           offsetof(EuThread, cache) - sizeof(t->grf));
    if (t->prog_serial != p->serial) {
        memset(t->grf, 0, sizeof(t->grf));
        t->prog_serial = p->serial;
    }
    t->prog = p;
    t->code = p->code;
    t->code_size = p->size;
    t->exec_mask = t->active = exec_mask;
    t->send = send;
    t->send_opaque = opaque;
    t->status = EU_RUNNING;
}

/* Re-enable channels parked at the current IP; with none active, skip
 * ahead to the nearest parked channel, as the hardware's JIP jumps do. */
static void resume_channels(EuThread *t)
{
    /* Each hop moves forward to a parked channel's IP: bounded. */
    for (unsigned hop = 0; hop <= 2 * EU_MAX_CHANNELS; hop++) {
        uint32_t best = UINT32_MAX;

        /* Only the waiting channels (a bit is cleared only by its own
         * turn, so a snapshot of the mask will do). */
        for (uint32_t w = t->waiting; w; w &= w - 1) {
            unsigned c = __builtin_ctz(w);

            if (t->wait_ip[c] == t->ip) {
                if (!((t->broken >> c) & 1)) {
                    t->waiting &= ~(1u << c);
                    t->active |= 1u << c;
                    continue;
                }
                /* A break resumes after the WHILE that its UIP names. */
                t->broken &= ~(1u << c);
                t->wait_ip[c] = t->ip + 16;
            }
            if (t->wait_ip[c] > t->ip && t->wait_ip[c] < best) {
                best = t->wait_ip[c];
            }
        }
        if (t->active || best == UINT32_MAX) {
            return;
        }
        t->ip = best;
    }
}

/* eu_run() for a thread on a shared program: the same steps, with the
 * program's decode looked up directly. */
static EuStatus run_program(EuThread *t, uint64_t max_instructions)
{
    EuProgram *p = t->prog;
    uint64_t n;

    if (t->status != EU_RUNNING) {
        return t->status;
    }
    for (n = 0; n < max_instructions; n++) {
        const EuInst *in;
        uint32_t ip, next;

        if (t->waiting) {
            resume_channels(t);
        }
        ip = t->ip;
        if (ip >= p->size || (ip & 7)) {
            fault(t, "instruction pointer outside the kernel");
            return t->status;
        }
        in = p->slots[ip >> 3];
        if (!in) {
            in = fetch_program(t);
            if (!in) {
                return t->status;
            }
        } else if (in->error) {
            fault(t, in->error);
            return t->status;
        }
        t->retired++;
        t->ev_clocks[in->ev_class]++;
        if (in->exec) {
            /* ALU: only the generic path can fault. */
            in->exec(t, in);
            if (t->status != EU_RUNNING) {
                return t->status;
            }
            t->ip = ip + in->size;
            continue;
        }
        if (in->is_send) {
            exec_send(t, in);
            next = ip + in->size;
        } else {
            next = exec_flow(t, in);
        }
        if (t->status == EU_FAULT) {
            return t->status;
        }
        t->ip = next;
        if (t->status != EU_RUNNING) {
            return t->status;
        }
    }
    t->status = EU_BUDGET;
    return t->status;
}

EuStatus eu_run(EuThread *t, uint64_t max_instructions)
{
    if (t->status == EU_WAIT_SEND || t->status == EU_BUDGET) {
        t->status = EU_RUNNING;
    }
    if (t->prog) {
        return run_program(t, max_instructions);
    }
    for (uint64_t n = 0; t->status == EU_RUNNING; n++) {
        const EuInst *in;
        uint32_t next;

        if (n >= max_instructions) {
            t->status = EU_BUDGET;
            break;
        }
        if (t->waiting) {
            resume_channels(t);
        }
        in = fetch(t);
        if (!in) {
            break;
        }
        next = t->ip + in->size;
        if (in->exec) {
            in->exec(t, in);
        } else if (in->is_send) {
            exec_send(t, in);
        } else {
            next = exec_flow(t, in);
        }
        t->retired++;
        t->ev_clocks[in->ev_class]++;
        if (t->status == EU_RUNNING || t->status == EU_WAIT_SEND ||
            t->status == EU_DONE) {
            t->ip = next;
        }
    }
    return t->status;
}
