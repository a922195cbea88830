/*
 * IGT 1.27.1's fill kernels, as lib/gpgpu_fill.c and lib/media_fill.c
 * have them: the GPGPU fill's for Gen11 and the media fill's (Gen8 on,
 * what gen9_media_fillfunc runs on Ice Lake).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_IGT_FILL_KERNELS_H
#define TESTS_UNIT_IGT_FILL_KERNELS_H

#include <stdint.h>

/* IGT's lib/gpgpu_fill.c gen11_gpgpu_kernel. */
static const uint32_t gen11_gpgpu_kernel[][4] = {
    { 0x00400001, 0x20202288, 0x00000020, 0x00000000 },
    { 0x00000009, 0x20400208, 0x06000004, 0x00000004 },
    { 0x00000001, 0x20440208, 0x00000018, 0x00000000 },
    { 0x00600001, 0x20800208, 0x008d0000, 0x00000000 },
    { 0x00200001, 0x20800208, 0x00450040, 0x00000000 },
    { 0x00000001, 0x20880608, 0x00000000, 0x0000000f },
    { 0x00800001, 0x20a00208, 0x00000020, 0x00000000 },
    { 0x0c800031, 0x24000a40, 0x06000080, 0x040a8000 },
    { 0x00600001, 0x2e000208, 0x008d0000, 0x00000000 },
    { 0x07800031, 0x20000a40, 0x06000e00, 0x82000010 },
};

/* IGT's lib/media_fill.c gen8_media_kernel. */
static const uint32_t gen8_media_kernel[][4] = {
    { 0x00400001, 0x20202288, 0x00000020, 0x00000000 },
    { 0x00600001, 0x20800208, 0x008d0000, 0x00000000 },
    { 0x00200001, 0x20800208, 0x00450040, 0x00000000 },
    { 0x00000001, 0x20880608, 0x00000000, 0x000f000f },
    { 0x00800001, 0x20a00208, 0x00000020, 0x00000000 },
    { 0x00800001, 0x20e00208, 0x00000020, 0x00000000 },
    { 0x00800001, 0x21200208, 0x00000020, 0x00000000 },
    { 0x00800001, 0x21600208, 0x00000020, 0x00000000 },
    { 0x0c800031, 0x24000a40, 0x0e000080, 0x120a8000 },
    { 0x00600001, 0x2e000208, 0x008d0000, 0x00000000 },
    { 0x07800031, 0x20000a40, 0x0e000e00, 0x82000010 },
};

#endif
