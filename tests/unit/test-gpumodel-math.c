/*
 * Unit tests of gpumodel-math.h: 64-bit muldiv with a 128-bit
 * intermediate, saturating when the quotient does not fit, or wrapping
 * (the *_wrap helpers), and the saturating sum.  The portable product
 * and quotient (*_generic) are checked too where the host has faster
 * ones.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include "gpumodel-math.h"

#define P32 (1ull << 32)
#define P63 (1ull << 63)

/* Bit by bit, the schoolbook way: a reference that shares no code. */
static uint64_t ref_div(uint64_t hi, uint64_t lo, uint64_t d, uint64_t *rem)
{
    uint64_t r = hi, q = 0;

    g_assert_cmpuint(hi, <, d);
    for (int i = 63; i >= 0; i--) {
        gboolean carry = r >> 63;

        r = r << 1 | (lo >> i & 1);
        q <<= 1;
        if (carry || r >= d) {
            r -= d;
            q |= 1;
        }
    }
    *rem = r;
    return q;
}

/* A random operand of random width (0 to 64 bits). */
static uint64_t rand_width(GRand *r)
{
    uint64_t v = (uint64_t)g_rand_int(r) << 32 | g_rand_int(r);

    return v >> g_rand_int_range(r, 0, 64);
}

/* The product by shifts and adds, the quotient's low half bit by bit. */
static void ref_mul(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    *hi = *lo = 0;
    for (int i = 0; i < 64; i++) {
        if (b >> i & 1) {
            uint64_t add_lo = a << i, add_hi = i ? a >> (64 - i) : 0;

            *hi += add_hi + (*lo + add_lo < *lo);
            *lo += add_lo;
        }
    }
}

static uint64_t ref_div_wrap(uint64_t hi, uint64_t lo, uint64_t d,
                             uint64_t *rem)
{
    uint64_t r = 0, q = 0;

    for (int i = 127; i >= 0; i--) {
        gboolean carry = r >> 63;

        r = r << 1 | ((i >= 64 ? hi >> (i - 64) : lo >> i) & 1);
        q <<= 1;                        /* the high half falls off */
        if (carry || r >= d) {
            r -= d;
            q |= 1;
        }
    }
    *rem = r;
    return q;
}

static void test_mul(void)
{
    uint64_t hi, lo;

    gpu_mul64(UINT64_MAX, UINT64_MAX, &hi, &lo);    /* 2^128 - 2^65 + 1 */
    g_assert_cmphex(hi, ==, UINT64_MAX - 1);
    g_assert_cmphex(lo, ==, 1);
    gpu_mul64(P32, P32, &hi, &lo);
    g_assert_cmphex(hi, ==, 1);
    g_assert_cmphex(lo, ==, 0);
    gpu_mul64(0xffffffffu, 0xffffffffu, &hi, &lo);
    g_assert_cmphex(hi, ==, 0);
    g_assert_cmphex(lo, ==, 0xfffffffe00000001ull);
    gpu_mul64(0x123456789abcdef0ull, 0, &hi, &lo);
    g_assert_cmphex(hi | lo, ==, 0);
}

static void test_edges(void)
{
    /* c = 1: the product itself, while it fits. */
    g_assert_cmpuint(gpu_muldiv64(UINT64_MAX, 1, 1), ==, UINT64_MAX);
    g_assert_cmpuint(gpu_muldiv64(P32, P32 - 1, 1), ==, (P32 - 1) << 32);
    /* Fits only thanks to the wide intermediate. */
    g_assert_cmpuint(gpu_muldiv64(UINT64_MAX, UINT64_MAX, UINT64_MAX), ==,
                     UINT64_MAX);
    g_assert_cmpuint(gpu_muldiv64(UINT64_MAX, UINT64_MAX - 1, UINT64_MAX),
                     ==, UINT64_MAX - 1);
    g_assert_cmpuint(gpu_muldiv64(P63, 6, 4), ==, 3 * (P63 / 2));
    g_assert_cmpuint(gpu_muldiv64(1000000000000000000ull, 10000000000ull,
                                  1000000000), ==, 10000000000000000000ull);
    g_assert_cmpuint(gpu_muldiv64(P63 + 1, 3, 5), ==,
                     (P63 + 1) / 5 * 3 + (P63 + 1) % 5 * 3 / 5);
    /* Floor and ceiling. */
    g_assert_cmpuint(gpu_muldiv64(2, 5, 3), ==, 3);
    g_assert_cmpuint(gpu_muldiv64_ceil(2, 5, 3), ==, 4);
    g_assert_cmpuint(gpu_muldiv64_ceil(3, 5, 3), ==, 5);
    g_assert_cmpuint(gpu_muldiv64_ceil(UINT64_MAX, UINT64_MAX, UINT64_MAX),
                     ==, UINT64_MAX);
    g_assert_cmpuint(gpu_muldiv64(0, UINT64_MAX, 7), ==, 0);
}

/* A quotient of 2^64 or more, or a divisor of 0, saturates. */
static void test_saturation(void)
{
    g_assert_cmpuint(gpu_muldiv64(P32, P32, 1), ==, UINT64_MAX);
    g_assert_cmpuint(gpu_muldiv64(P63, 6, 3), ==, UINT64_MAX);  /* 2^64 */
    g_assert_cmpuint(gpu_muldiv64(UINT64_MAX, 2, 1), ==, UINT64_MAX);
    g_assert_cmpuint(gpu_muldiv64(UINT64_MAX, UINT64_MAX, UINT64_MAX - 1),
                     ==, UINT64_MAX);
    g_assert_cmpuint(gpu_muldiv64(1, 1, 0), ==, UINT64_MAX);
    g_assert_cmpuint(gpu_muldiv64(0, 0, 0), ==, UINT64_MAX);
    g_assert_cmpuint(gpu_muldiv64_ceil(P63, 6, 3), ==, UINT64_MAX);
    g_assert_cmpuint(gpu_muldiv64_ceil(5, 5, 0), ==, UINT64_MAX);
    /* Just below: 2^64 - 1 exactly, and not rounded up past it. */
    g_assert_cmpuint(gpu_muldiv64(UINT64_MAX, 3, 3), ==, UINT64_MAX);
    g_assert_cmpuint(gpu_muldiv64_ceil(UINT64_MAX, 3, 3), ==, UINT64_MAX);
}

/* Quotients of 2^64 or more keep their low 64 bits. */
static void test_wrap(void)
{
    uint64_t rem;

    g_assert_cmphex(gpu_muldiv64_wrap(P32, P32, 1), ==, 0);      /* 2^64 */
    g_assert_cmphex(gpu_muldiv64_wrap(P63, 6, 3), ==, 0);        /* 2^64 */
    /* (2^128 - 2^65 + 1) mod 2^64 */
    g_assert_cmphex(gpu_muldiv64_wrap(UINT64_MAX, UINT64_MAX, 1), ==, 1);
    /* 7 x 2^62 = 2^64 + 3 x 2^62 */
    g_assert_cmphex(gpu_muldiv64_wrap(P63, 7, 2), ==, 3ull << 62);
    /* (3 x 2^64 - 3) / 2 = 3 x 2^63 - 2 rem 1, 2^63 - 2 modulo 2^64 */
    g_assert_cmphex(gpu_muldivmod64_wrap(UINT64_MAX, 3, 2, &rem), ==,
                    P63 - 2);
    g_assert_cmpuint(rem, ==, 1);
    /* Where the quotient fits, the same as gpu_muldiv64(). */
    g_assert_cmphex(gpu_muldivmod64_wrap(7, 5, 3, &rem), ==, 11);
    g_assert_cmpuint(rem, ==, 2);
    g_assert_cmphex(gpu_muldiv64_wrap(UINT64_MAX, UINT64_MAX - 1,
                                      UINT64_MAX), ==, UINT64_MAX - 1);
    g_assert_cmphex(gpu_muldiv64_wrap(UINT64_MAX, 3, 3), ==, UINT64_MAX);
    /*
     * PTIMER's TIME (ptimer.c): 2^62 + 1 ns at 4 units per ns (27 GHz
     * crystal as src_hz x NUMERATOR, 10^9 x DENOMINATOR) wraps to 4; at
     * the reset ratio 1000/27 of a 27 MHz crystal a unit is a ns.
     */
    g_assert_cmphex(gpu_muldiv64_wrap((1ull << 62) + 1, 27000000000ull * 4,
                                      27000000000ull), ==, 4);
    g_assert_cmphex(gpu_muldiv64_wrap(UINT64_MAX, 27000000ull * 1000,
                                      1000000000ull * 27), ==, UINT64_MAX);
    /* Zero divisor: UINT64_MAX and remainder 0, as gpu_div128(). */
    rem = 5;
    g_assert_cmphex(gpu_muldivmod64_wrap(1, 1, 0, &rem), ==, UINT64_MAX);
    g_assert_cmpuint(rem, ==, 0);
    g_assert_cmphex(gpu_muldiv64_wrap(0, 0, 0), ==, UINT64_MAX);
    g_assert_cmphex(gpu_muldiv64_wrap(0, UINT64_MAX, 9), ==, 0);
}

static void test_add_sat(void)
{
    g_assert_cmpuint(gpu_add64_sat(1, 2), ==, 3);
    g_assert_cmpuint(gpu_add64_sat(UINT64_MAX - 1, 1), ==, UINT64_MAX);
    g_assert_cmpuint(gpu_add64_sat(UINT64_MAX, 1), ==, UINT64_MAX);
    g_assert_cmpuint(gpu_add64_sat(P63, P63 - 1), ==, UINT64_MAX);
    g_assert_cmpuint(gpu_add64_sat(P63, P63), ==, UINT64_MAX);
    g_assert_cmpuint(gpu_add64_sat(UINT64_MAX, UINT64_MAX), ==, UINT64_MAX);
    g_assert_cmpuint(gpu_add64_sat(0, UINT64_MAX), ==, UINT64_MAX);
}

/* The wrapping helpers against the references above, which share no code. */
static void test_wrap_random(void)
{
    GRand *r = g_rand_new_with_seed(23);

    for (unsigned i = 0; i < 200000; i++) {
        uint64_t a = rand_width(r), b = rand_width(r), c = rand_width(r);
        uint64_t hi, lo, rem, want, want_rem, hi2, lo2;

        if (!c) {
            c = 1;
        }
        ref_mul(a, b, &hi, &lo);
        gpu_mul64(a, b, &hi2, &lo2);
        g_assert_cmphex(hi2, ==, hi);
        g_assert_cmphex(lo2, ==, lo);
        gpu_mul64_generic(a, b, &hi2, &lo2);
        g_assert_cmphex(hi2, ==, hi);
        g_assert_cmphex(lo2, ==, lo);
        want = ref_div_wrap(hi, lo, c, &want_rem);
        g_assert_cmphex(gpu_muldivmod64_wrap(a, b, c, &rem), ==, want);
        g_assert_cmphex(rem, ==, want_rem);
        g_assert_cmphex(gpu_muldiv64_wrap(a, b, c), ==, want);
        /* Where the quotient fits, wrapping and saturating agree. */
        if (hi < c) {
            g_assert_cmphex(gpu_muldiv64(a, b, c), ==, want);
        }
    }
    g_rand_free(r);
}

/* Random operands of every width against the bit-by-bit reference. */
static void test_random(void)
{
    GRand *r = g_rand_new_with_seed(19);

    for (unsigned i = 0; i < 200000; i++) {
        uint64_t a = rand_width(r), b = rand_width(r), c = rand_width(r);
        uint64_t hi, lo, q, rem, want, want_rem;

        gpu_mul64(a, b, &hi, &lo);
        q = gpu_div128(hi, lo, c, &rem);
        if (hi >= c) {
            g_assert_cmpuint(q, ==, UINT64_MAX);
            g_assert_cmpuint(gpu_div128_generic(hi, lo, c, &rem), ==,
                             UINT64_MAX);
            g_assert_cmpuint(gpu_muldiv64(a, b, c), ==, UINT64_MAX);
            continue;
        }
        want = ref_div(hi, lo, c, &want_rem);
        g_assert_cmphex(q, ==, want);
        g_assert_cmphex(rem, ==, want_rem);
        /* The portable form, which x86-64 hosts do not use otherwise. */
        g_assert_cmphex(gpu_div128_generic(hi, lo, c, &rem), ==, want);
        g_assert_cmphex(rem, ==, want_rem);
        g_assert_cmphex(gpu_muldiv64(a, b, c), ==, want);
        g_assert_cmphex(gpu_muldiv64_ceil(a, b, c), ==,
                        want + (want_rem && want != UINT64_MAX));
        /* The product comes back: a x b / b = a. */
        if (b > hi) {
            g_assert_cmphex(gpu_div128(hi, lo, b, &rem), ==, a);
            g_assert_cmpuint(rem, ==, 0);
        }
    }
    g_rand_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gpumodel/math/mul", test_mul);
    g_test_add_func("/gpumodel/math/edges", test_edges);
    g_test_add_func("/gpumodel/math/saturation", test_saturation);
    g_test_add_func("/gpumodel/math/random", test_random);
    g_test_add_func("/gpumodel/math/wrap", test_wrap);
    g_test_add_func("/gpumodel/math/wrap-random", test_wrap_random);
    g_test_add_func("/gpumodel/math/add-sat", test_add_sat);
    return g_test_run();
}
