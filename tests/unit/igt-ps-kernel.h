/*
 * IGT 1.27.1 lib/rendercopy_gen9.c ps_kernel_gen11: the Ice Lake render
 * copy's pixel shader (IGA source lib/i915/shaders/ps/blit.g11a), as the
 * tests that run it share it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_IGT_PS_KERNEL_H
#define TESTS_UNIT_IGT_PS_KERNEL_H

#include <stdint.h>

static const uint32_t igt_ps_kernel_gen11[][4] = {
    { 0x0060005b, 0x2000c01c, 0x07206601, 0x01800404 },
    { 0x0060005b, 0x7100480c, 0x0722003b, 0x01880406 },
    { 0x0060005b, 0x2000c01c, 0x07206601, 0x01800408 },
    { 0x0060005b, 0x7200480c, 0x0722003b, 0x0188040a },
    { 0x0060005b, 0x2000c01c, 0x07206e01, 0x01a00404 },
    { 0x0060005b, 0x7300480c, 0x0722003b, 0x01a80406 },
    { 0x0060005b, 0x2000c01c, 0x07206e01, 0x01a00408 },
    { 0x0060005b, 0x7400480c, 0x0722003b, 0x01a8040a },
    { 0x02800031, 0x21804a4c, 0x06000e20, 0x08840001 },
    { 0x00800001, 0x2e204b28, 0x008d0180, 0x00000000 },
    { 0x00800001, 0x2e604b28, 0x008d01c0, 0x00000000 },
    { 0x00800001, 0x2ea04b28, 0x008d0200, 0x00000000 },
    { 0x00800001, 0x2ee04b28, 0x008d0240, 0x00000000 },
    { 0x05800031, 0x20004a44, 0x06000e20, 0x90031000 },
};

#endif
