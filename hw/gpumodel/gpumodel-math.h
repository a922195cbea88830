/*
 * gpumodel: 64-bit products and quotients with a 128-bit intermediate.
 *
 * Portable C with 64-bit integers only (not every compiler QEMU supports
 * has a 128-bit type), in the manner of QEMU's mulu64() and divu128() in
 * include/qemu/host-utils.h; written here because the models build
 * without QEMU headers.
 *
 * A quotient that does not fit in 64 bits saturates at UINT64_MAX, and so
 * does one by 0: the operands may come from the guest, so the helpers
 * neither assert nor wrap.  Callers that need another answer check first.
 * The exceptions say so in their name: the *_wrap helpers keep the low 64
 * bits of the quotient, for counters that wrap (PTIMER's TIME).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPUMODEL_MATH_H
#define GPUMODEL_MATH_H

#include <stdint.h>

/* The 128-bit product @a x @b as *@hi:*@lo, from 32-bit halves. */
static inline void gpu_mul64_generic(uint64_t a, uint64_t b, uint64_t *hi,
                                     uint64_t *lo)
{
    uint64_t al = (uint32_t)a, ah = a >> 32;
    uint64_t bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;

    *lo = (mid << 32) | (uint32_t)ll;
    *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/*
 * The 128-bit product @a x @b as *@hi:*@lo: one instruction on x86-64
 * (as QEMU's mulu64() and udiv_qrnnd() use the host's), else the above.
 */
static inline void gpu_mul64(uint64_t a, uint64_t b, uint64_t *hi,
                             uint64_t *lo)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__("mulq %3" : "=a"(*lo), "=d"(*hi) : "%0"(a), "rm"(b));
#else
    gpu_mul64_generic(a, b, hi, lo);
#endif
}

/* Leading zero bits of @x, which is not 0. */
static inline unsigned gpu_clz64(uint64_t x)
{
    unsigned n = 0;

    for (unsigned s = 32; s; s /= 2) {
        if (!(x >> (64 - s))) {
            n += s;
            x <<= s;
        }
    }
    return n;
}

/*
 * *@hi:*@lo / @d: the quotient, and the remainder in *@rem.  A quotient of
 * 2^64 or more (@hi >= @d), or @d == 0, gives UINT64_MAX and remainder 0.
 * Knuth's algorithm D for two 32-bit digits (Hacker's Delight, divlu).
 */
static inline uint64_t gpu_div128_generic(uint64_t hi, uint64_t lo,
                                          uint64_t d, uint64_t *rem)
{
    const uint64_t b = 1ull << 32;
    uint64_t vn1, vn0, un32, un21, un10, un1, un0, q1, q0, rhat;
    unsigned s;

    if (hi >= d) {
        *rem = 0;
        return UINT64_MAX;
    }
    s = gpu_clz64(d);
    d <<= s;
    vn1 = d >> 32;
    vn0 = (uint32_t)d;
    un32 = s ? hi << s | lo >> (64 - s) : hi;
    un10 = lo << s;
    un1 = un10 >> 32;
    un0 = (uint32_t)un10;

    q1 = un32 / vn1;
    rhat = un32 - q1 * vn1;
    while (q1 >= b || q1 * vn0 > b * rhat + un1) {
        q1--;
        rhat += vn1;
        if (rhat >= b) {
            break;
        }
    }
    un21 = un32 * b + un1 - q1 * d;     /* modulo 2^64: it is below d */

    q0 = un21 / vn1;
    rhat = un21 - q0 * vn1;
    while (q0 >= b || q0 * vn0 > b * rhat + un0) {
        q0--;
        rhat += vn1;
        if (rhat >= b) {
            break;
        }
    }
    *rem = (un21 * b + un0 - q0 * d) >> s;
    return q1 * b + q0;
}

/*
 * gpu_div128_generic()'s result: with the host's 64-bit division when
 * @hi is 0, with its 128-by-64 division on x86-64 (which @hi < @d keeps
 * from faulting).
 */
static inline uint64_t gpu_div128(uint64_t hi, uint64_t lo, uint64_t d,
                                  uint64_t *rem)
{
    if (hi >= d) {
        *rem = 0;
        return UINT64_MAX;
    }
    if (!hi) {
        *rem = lo % d;
        return lo / d;
    }
#if defined(__x86_64__) && defined(__GNUC__)
    {
        uint64_t q;

        __asm__("divq %4" : "=a"(q), "=d"(*rem) : "0"(lo), "1"(hi), "rm"(d));
        return q;
    }
#else
    return gpu_div128_generic(hi, lo, d, rem);
#endif
}

/* floor(@a x @b / @c), saturating (see the head of the file). */
static inline uint64_t gpu_muldiv64(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t hi, lo, rem;

    gpu_mul64(a, b, &hi, &lo);
    return gpu_div128(hi, lo, c, &rem);
}

/* ceil(@a x @b / @c), saturating likewise. */
static inline uint64_t gpu_muldiv64_ceil(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t hi, lo, rem, q;

    gpu_mul64(a, b, &hi, &lo);
    q = gpu_div128(hi, lo, c, &rem);
    return q + (rem && q != UINT64_MAX);
}

/*
 * floor(@a x @b / @c) modulo 2^64, and the remainder in *@rem: the low
 * half of a quotient that may need up to 128 bits.  @c == 0 gives
 * UINT64_MAX and remainder 0, as gpu_div128() does.
 */
static inline uint64_t gpu_muldivmod64_wrap(uint64_t a, uint64_t b,
                                            uint64_t c, uint64_t *rem)
{
    uint64_t hi, lo;

    if (!c) {
        *rem = 0;
        return UINT64_MAX;
    }
    gpu_mul64(a, b, &hi, &lo);
    /* The quotient's high half, hi / c, is what wraps away. */
    return gpu_div128(hi < c ? hi : hi % c, lo, c, rem);
}

/* floor(@a x @b / @c) modulo 2^64; UINT64_MAX for @c == 0. */
static inline uint64_t gpu_muldiv64_wrap(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t rem;

    return gpu_muldivmod64_wrap(a, b, c, &rem);
}

/* @a + @b, saturating at UINT64_MAX. */
static inline uint64_t gpu_add64_sat(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

#endif
