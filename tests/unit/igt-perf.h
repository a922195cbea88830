/*
 * IGT's check of two consecutive TestOa reports (tests/i915/perf.c,
 * gen8_sanity_check_test_oa_reports), shared by the unit tests that
 * stream TestOa in the A32u40_A4u32_B8_C8 format.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_IGT_PERF_H
#define TESTS_UNIT_IGT_PERF_H

#include <string.h>
#include <glib.h>

/* The A32u40_A4u32_B8_C8 layout (docs/intel-gpu-oa.rst). */
#define IGT_OA_TIMESTAMP    4
#define IGT_OA_GPU_TICKS    12
#define IGT_OA_A            16
#define IGT_OA_A40_HI       160
#define IGT_OA_B            192
#define IGT_OA_C            224
#define IGT_OA_EUS          64      /* the default 1x8x8 topology */

static inline uint32_t igt_oa_dw(const uint8_t *r, unsigned off)
{
    uint32_t v;

    memcpy(&v, r + off, 4);
    return GUINT32_FROM_LE(v);
}

/*
 * Between @r0 and the next report @r1: B0 still, B1 and B2 the GPU clock
 * delta, B3 half of it, B4 and B5 a third, B6 a sixth, B7 two thirds (each
 * within 1, in IGT's 32-bit integer arithmetic); every A and C delta at
 * most the clock delta times the EUs.
 */
static inline void igt_test_oa_check(const uint8_t *r0, const uint8_t *r1)
{
    uint32_t clocks = igt_oa_dw(r1, IGT_OA_GPU_TICKS) -
                      igt_oa_dw(r0, IGT_OA_GPU_TICKS);
    uint32_t ref[8] = {
        0, clocks, clocks, clocks / 2, clocks / 3, clocks / 3, clocks / 6,
        clocks * 2 / 3,
    };
    uint64_t max = (uint64_t)clocks * IGT_OA_EUS;

    for (unsigned i = 0; i < 32; i++) {
        uint64_t a0 = igt_oa_dw(r0, IGT_OA_A + 4 * i) |
                      (uint64_t)r0[IGT_OA_A40_HI + i] << 32;
        uint64_t a1 = igt_oa_dw(r1, IGT_OA_A + 4 * i) |
                      (uint64_t)r1[IGT_OA_A40_HI + i] << 32;

        g_assert_cmpuint((a1 - a0) & ((1ull << 40) - 1), <=, max);
    }
    for (unsigned i = 32; i < 36; i++) {
        g_assert_cmpuint((uint32_t)(igt_oa_dw(r1, IGT_OA_A + 4 * i) -
                                    igt_oa_dw(r0, IGT_OA_A + 4 * i)), <=,
                         max);
    }
    for (unsigned i = 0; i < 8; i++) {
        uint32_t b = igt_oa_dw(r1, IGT_OA_B + 4 * i) -
                     igt_oa_dw(r0, IGT_OA_B + 4 * i);

        if (!clocks || i < 3) {
            g_assert_cmpuint(b, ==, clocks ? ref[i] : 0);
        } else {
            g_assert_cmpuint(b, >=, ref[i] - 1);
            g_assert_cmpuint(b, <=, ref[i] + 1);
        }
        g_assert_cmpuint((uint32_t)(igt_oa_dw(r1, IGT_OA_C + 4 * i) -
                                    igt_oa_dw(r0, IGT_OA_C + 4 * i)), <=,
                         max);
    }
}

#endif
