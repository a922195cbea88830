/*
 * gpumodel register fields, after QEMU's hw/registerfields.h but prefixed
 * (GPU_*) so that a file including both never sees a clash, and usable
 * without QEMU: the register maps (intel-gpu-regs.h, nv-gpu-regs.h) spell
 * their fields with it for the model, the glue, the tests and the guest
 * probes alike.
 *
 * A field hangs off the name of its register's offset macro, as is, with
 * no R_ or A_ prefix: the offset stays a plain #define that tables and
 * code use.
 *
 *   #define INTEL_RPNSWREQ 0xA008
 *   GPU_FIELD(INTEL_RPNSWREQ, FREQ, 23, 9);
 *       INTEL_RPNSWREQ_FREQ_SHIFT (23), _LENGTH (9), _MASK (0xff800000)
 *   GPU_FIELD_EX32(v, INTEL_RPNSWREQ, FREQ)        bits 31:23 of v
 *   GPU_FIELD_DP32(v, INTEL_RPNSWREQ, FREQ, 18)    v with bits 31:23 = 18
 *
 * GPU_FIELD64, GPU_FIELD_EX64 and GPU_FIELD_DP64 are the same for a
 * 64-bit word (a page-table entry, a context descriptor).  Where several
 * registers share one layout, or a word in memory has no offset macro,
 * the first argument is the prefix the header gives that family or word
 * (GPU_FIELD64(INTEL_GGTT_PTE, ADDR, 12, 27)).
 *
 * The rule: every field of two or more bits is a GPU_FIELD, read and
 * written through GPU_FIELD_EX and GPU_FIELD_DP, so code names fields,
 * never shifts.  A field's values stay #defines (INTEL_GGC_GGMS_8M).  A
 * single-bit flag stays "#define REG_FLAG (1u << n)": it is tested and
 * combined with & and |, as a mask.  _MASK of an address field keeps the
 * address in place (pte & INTEL_GGTT_PTE_ADDR_MASK).
 *
 * The extract and deposit macros are constant expressions when their
 * arguments are, so they also build reset values in static tables.  A
 * deposited value wider than its field is cut to the field.  The
 * constants are enums; a mask that does not fit an int (a field reaching
 * bit 31, a GPU_FIELD64 mask above it) relies on the GNU C extension
 * QEMU's FIELD relies on too, and is unsigned.  So clear or replace a
 * field with GPU_FIELD_DP rather than "v & ~_MASK": ~ of an unsigned
 * mask that fits in 32 bits is 32 bits wide and clears the top of a
 * 64-bit v.
 *
 * Table entries take their name from the register's identifier, so the
 * string in a table is never retyped:
 *
 *   GPU_REG_ENTRY_P(INTEL_, RING_TAIL, ...)    "RING_TAIL", INTEL_RING_TAIL
 *   GPU_REG_ARRAY_P(INTEL_, PAT_INDEX, 8, ...) "PAT_INDEX", offset
 *                                              INTEL_PAT_INDEX(0),
 *                                              8 instances
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_REGFIELDS_H
#define HW_GPUMODEL_REGFIELDS_H

#include <stdint.h>

#define GPU_FIELD(reg, field, shift, length) \
    enum { \
        reg ## _ ## field ## _SHIFT = (shift), \
        reg ## _ ## field ## _LENGTH = (length), \
        reg ## _ ## field ## _MASK = (~0u >> (32 - (length))) << (shift) \
    }

#define GPU_FIELD64(reg, field, shift, length) \
    enum { \
        reg ## _ ## field ## _SHIFT = (shift), \
        reg ## _ ## field ## _LENGTH = (length), \
        reg ## _ ## field ## _MASK = \
            (~0ull >> (64 - (length))) << (shift) \
    }

#define GPU_FIELD_EX32(v, reg, field) \
    (((uint32_t)(v) & reg ## _ ## field ## _MASK) >> \
     reg ## _ ## field ## _SHIFT)

#define GPU_FIELD_DP32(v, reg, field, fv) \
    (((uint32_t)(v) & ~(uint32_t)reg ## _ ## field ## _MASK) | \
     (((uint32_t)(fv) << reg ## _ ## field ## _SHIFT) & \
      reg ## _ ## field ## _MASK))

#define GPU_FIELD_EX64(v, reg, field) \
    (((uint64_t)(v) & reg ## _ ## field ## _MASK) >> \
     reg ## _ ## field ## _SHIFT)

#define GPU_FIELD_DP64(v, reg, field, fv) \
    (((uint64_t)(v) & ~(uint64_t)reg ## _ ## field ## _MASK) | \
     (((uint64_t)(fv) << reg ## _ ## field ## _SHIFT) & \
      reg ## _ ## field ## _MASK))

/* Table entries: see the header comment. */
#define GPU_REG_ENTRY_P(prefix, reg, ...) \
    { .name = #reg, .offset = prefix ## reg, __VA_ARGS__ }
#define GPU_REG_ARRAY_P(prefix, reg, n, ...) \
    { .name = #reg, .offset = prefix ## reg(0), .count = (n), __VA_ARGS__ }

#endif
