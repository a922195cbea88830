/*
 * IGT 1.27.1's kernels that Ice Lake runs, as its sources have them: the
 * GPGPU fill's for Gen11 (lib/gpgpu_fill.c), the media fill's (Gen8 on,
 * what gen9_media_fillfunc runs on Ice Lake: lib/media_fill.c) and the
 * Gen11 render copy's pixel shader (lib/rendercopy_gen9.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_IGT_KERNELS_H
#define TESTS_UNIT_IGT_KERNELS_H

#include <stdint.h>
#include <glib.h>

/* IGT's lib/gpgpu_fill.c gen11_gpgpu_kernel. */
static const uint32_t gen11_gpgpu_kernel[][4] G_GNUC_UNUSED = {
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
static const uint32_t gen8_media_kernel[][4] G_GNUC_UNUSED = {
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

/* IGT 1.27.1 lib/rendercopy_gen9.c ps_kernel_gen11, the Gen11 render
 * copy pixel shader (IGA source lib/i915/shaders/ps/blit.g11a). */
static const uint32_t igt_ps_kernel_gen11[][4] G_GNUC_UNUSED = {
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
