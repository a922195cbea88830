/*
 * Gen11 EU interpreter: the fast path of mad through the accumulator in
 * its NF (native float, double) type, with SSE2 where the host has it;
 * eu-fast.c chooses the mads it takes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include "eu-exec-int.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
        /* eu-fast.c's fast_mad_nf_for() made sure 8 lanes fit in acc0/acc1. */
        memcpy(v, (const uint8_t *)t->acc + in->fast_src[s], 64);
    } else {
        float f[8];

        if (in->fast_step[s]) {
            memcpy(f, t->grf + in->fast_src[s], sizeof(f));
        } else {
            f[0] = eu_fast_scalar_f(t, in, s);
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
        f[0] = f[1] = _mm_set1_ps(eu_fast_scalar_f(t, in, s));
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

/* The executor eu-fast.c gives the mads it takes. */
void eu_fast_exec_mad_nf(EuThread *t, const EuInst *in)
{
    double r[8];
    unsigned n = in->exec_size;
    uint32_t en = eu_fast_enables(t, in, true);

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
        float f[EU_FAST_LANES] = { 0 };

        for (int i = 0; i < 8; i++) {
            f[i] = r[i];
        }
        eu_fast_store(t, in, en, f, 4);
    }
}
