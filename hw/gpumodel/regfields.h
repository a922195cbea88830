/*
 * gpumodel named registers and fields, after QEMU's hw/registerfields.h
 * but prefixed (GPU_*) so that a file including both never sees a clash,
 * and usable without QEMU.
 *
 *   GPU_REG32(CTRL, 0x40);             A_CTRL = 0x40, R_CTRL = 0x10
 *   GPU_FIELD(CTRL, MODE, 4, 3);       R_CTRL_MODE_SHIFT/_LENGTH/_MASK
 *   GPU_FIELD_EX32(v, CTRL, MODE)      bits 6:4 of v
 *   GPU_FIELD_DP32(v, CTRL, MODE, 5)   v with bits 6:4 = 5
 *
 * Table entries take their name from the register's identifier, so the
 * string in a table is never retyped:
 *
 *   GPU_REG_ENTRY(CTRL, .access = GPU_REG_RW)
 *       { .name = "CTRL", .offset = A_CTRL, .access = GPU_REG_RW }
 *   GPU_REG_ENTRY_P(INTEL_, RING_TAIL, ...)    offset INTEL_RING_TAIL
 *   GPU_REG_ARRAY_P(INTEL_, PAT_INDEX, 8, ...) offset INTEL_PAT_INDEX(0),
 *                                              8 instances
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_REGFIELDS_H
#define HW_GPUMODEL_REGFIELDS_H

#include <stdint.h>

#define GPU_REG32(reg, addr) \
    enum { A_ ## reg = (addr), R_ ## reg = (addr) / 4 }

#define GPU_FIELD(reg, field, shift, length) \
    enum { \
        R_ ## reg ## _ ## field ## _SHIFT = (shift), \
        R_ ## reg ## _ ## field ## _LENGTH = (length), \
        R_ ## reg ## _ ## field ## _MASK = \
            (int)((~0u >> (32 - (length))) << (shift)) \
    }

static inline uint32_t gpu_extract32(uint32_t v, unsigned shift,
                                     unsigned length)
{
    return (v >> shift) & (~0u >> (32 - length));
}

static inline uint32_t gpu_deposit32(uint32_t v, unsigned shift,
                                     unsigned length, uint32_t fv)
{
    uint32_t mask = (~0u >> (32 - length)) << shift;

    return (v & ~mask) | ((fv << shift) & mask);
}

#define GPU_FIELD_EX32(v, reg, field) \
    gpu_extract32((v), R_ ## reg ## _ ## field ## _SHIFT, \
                  R_ ## reg ## _ ## field ## _LENGTH)

#define GPU_FIELD_DP32(v, reg, field, fv) \
    gpu_deposit32((v), R_ ## reg ## _ ## field ## _SHIFT, \
                  R_ ## reg ## _ ## field ## _LENGTH, (fv))

/* Table entries: see the header comment. */
#define GPU_REG_ENTRY_P(prefix, reg, ...) \
    { .name = #reg, .offset = prefix ## reg, __VA_ARGS__ }
#define GPU_REG_ARRAY_P(prefix, reg, n, ...) \
    { .name = #reg, .offset = prefix ## reg(0), .count = (n), __VA_ARGS__ }
#define GPU_REG_ENTRY(reg, ...) \
    { .name = #reg, .offset = A_ ## reg, __VA_ARGS__ }

#endif
