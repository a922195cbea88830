/*
 * Gen11 EU interpreter: register regions.  Where a channel's element of
 * an operand is (direct and indirect GRF regions, the ARF), its value
 * with the source modifiers, the conversion to the destination's type,
 * the flags, predication and conditional modifiers; and faults.
 *
 * Facts: Intel Graphics PRM Vol 4 (Execution Unit ISA: "Register
 * Region", "Type Conversion", "Predication", "Packed Restricted Float
 * Vector").
 *
 * Hostile kernels: every register access is bounds checked, and a fault
 * stops the thread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include "eu-exec-int.h"

/* Stop the thread at its first fault, and log it. */
void eu_fault(EuThread *t, const char *why)
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

static uint16_t eu_float_to_half(float f)
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
static float eu_vf_to_float(uint8_t vf)
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
static uint8_t *eu_arf_ptr(EuThread *t, unsigned nr, size_t *len)
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
uint8_t *eu_elem_ptr(EuThread *t, const EuOperand *o, unsigned c, bool dst)
{
    unsigned size = eu_type_size(o->type);
    int64_t off;
    uint8_t *base;
    size_t len;

    if (!dst && !o->width) {
        eu_fault(t, "source without a region");
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
            eu_fault(t, "address subregister out of range");
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
        base = eu_arf_ptr(t, o->nr, &len);
        if (!base) {
            return NULL;            /* null register */
        }
        off += o->subnr;
    }
    if (off < 0 || off + size > (int64_t)len) {
        eu_fault(t, "register access out of range");
        return NULL;
    }
    return base + off;
}

Val eu_read_raw(unsigned type, const uint8_t *p)
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

/*
 * The element of an integer vector immediate (v, uv) channel @c reads: it
 * is read as packed words, and a channel takes the element at its
 * destination's offset.  The PRM asks for a destination stride of a
 * word, where that is element c; IGC also writes dword destinations, e.g.
 * "add (4) r37:ud r10.12<0;1,0>:uw 0xC080400:uv" for the offsets 0, 4, 8,
 * 12 (piglit's vload and vstore_half tests), which takes every other one.
 */
static unsigned eu_vector_elem(const EuInst *in, unsigned c)
{
    return c * in->dst.hstride * eu_type_size(in->dst.type) / 2 % 8;
}

static Val eu_src_modify(const EuInst *in, const EuOperand *o, Val v);

Val eu_read_src(EuThread *t, const EuInst *in, int s, unsigned c)
{
    const EuOperand *o = &in->src[s];
    Val v = { 0 };

    if (o->file == EU_FILE_IMM) {
        switch (o->type) {
        case EU_TYPE_V:
            v.i = (int64_t)((int32_t)(o->imm <<
                                      (28 - 4 * eu_vector_elem(in, c))) >> 28);
            break;
        case EU_TYPE_UV:
            v.i = (o->imm >> (4 * eu_vector_elem(in, c))) & 0xf;
            break;
        case EU_TYPE_VF:
            v.fp = true;
            v.f = eu_vf_to_float(o->imm >> (8 * (c % 4)));
            break;
        default: {
            uint8_t b[8];
            uint64_t le = GUINT64_TO_LE(o->imm);

            memcpy(b, &le, 8);
            v = eu_read_raw(o->type, b);
        }
        }
    } else {
        const uint8_t *p = eu_elem_ptr(t, o, c, false);

        if (p) {
            v = eu_read_raw(o->type, p);
        }
    }
    return eu_src_modify(in, o, v);
}

/*
 * Channel c's element of GRF source s, displaced by delta bytes: pln and
 * line read the plane coefficients around src0's scalar, pln the second
 * barycentric register after src1's.
 */
Val eu_read_near(EuThread *t, const EuInst *in, int s, unsigned c,
                 int delta)
{
    const EuOperand *o = &in->src[s];
    const uint8_t *p;
    int64_t off;

    if (o->file != EU_FILE_GRF) {
        eu_fault(t, "plane operand outside the GRF");
        return (Val){ 0 };
    }
    p = eu_elem_ptr(t, o, c, false);
    if (!p) {
        return (Val){ 0 };
    }
    off = (p - t->grf) + delta;
    if (off < 0 || off + eu_type_size(o->type) > (int64_t)sizeof(t->grf)) {
        eu_fault(t, "register access out of range");
        return (Val){ 0 };
    }
    return eu_src_modify(in, o, eu_read_raw(o->type, t->grf + off));
}

static Val eu_src_modify(const EuInst *in, const EuOperand *o, Val v)
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

static int64_t eu_clamp_int(int64_t x, unsigned type)
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
uint64_t eu_type_convert(Val v, unsigned type, bool sat)
{
    if (eu_type_is_float(type)) {
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
            return eu_float_to_half(ff);
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
        return eu_clamp_int(v.i, type);
    }
    return sat ? (uint64_t)eu_clamp_int(v.i, type) : (uint64_t)v.i;
}

void eu_write_dst(EuThread *t, const EuInst *in, unsigned c, Val v)
{
    uint8_t *p = eu_elem_ptr(t, &in->dst, c, true);
    uint64_t u;

    if (!p) {
        return;
    }
    u = GUINT64_TO_LE(eu_type_convert(v, in->dst.type, in->saturate));
    memcpy(p, &u, eu_type_size(in->dst.type));
}

static bool eu_flag_bit(const EuThread *t, const EuInst *in, unsigned ch)
{
    unsigned b = in->flag_subnr * 16 + ch;

    return b < 32 && (t->flag[in->flag_nr] >> b) & 1;
}

void eu_set_flag(EuThread *t, const EuInst *in, unsigned ch, bool v)
{
    unsigned b = in->flag_subnr * 16 + ch;

    if (b < 32) {
        t->flag[in->flag_nr] = (t->flag[in->flag_nr] & ~(1u << b)) |
                               (uint32_t)v << b;
    }
}

/* Predicate for channel c (PRM Vol 4, "Predication"). */
bool eu_predicate(const EuThread *t, const EuInst *in, unsigned c)
{
    unsigned g = eu_group_base(in), n;
    bool any = false, all = true;

    if (in->pred_ctrl == EU_PRED_NONE) {
        return true;
    }
    if (in->pred_ctrl == EU_PRED_NORMAL) {
        return eu_flag_bit(t, in, g + c) ^ in->pred_inv;
    }
    /* anyNh/allNh: groups of N channels; anyv/allv: the whole width. */
    n = in->pred_ctrl >= EU_PRED_ANY2H ?
        2u << ((in->pred_ctrl - EU_PRED_ANY2H) / 2) : in->exec_size;
    for (unsigned i = (c / n) * n; i < (c / n + 1) * n; i++) {
        bool f = eu_flag_bit(t, in, g + i);

        any |= f;
        all &= f;
    }
    return ((in->pred_ctrl & 1) ? all : any) ^ in->pred_inv;
}

bool eu_cond_holds(unsigned cond, Val v)
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
