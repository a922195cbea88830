/*
 * Commands as IGT emits them, packed from the GFXPIPE description
 * (gen11-state.h), for the qtests and the unit tests alike: both feed the
 * model what IGT's own libraries feed it.  The file is here because
 * QEMU's build sees tests/qtest only; the unit tests include it from the
 * source root.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_QTEST_INTEL_GPU_IGT_CMDS_H
#define TESTS_QTEST_INTEL_GPU_IGT_CMDS_H

#include "hw/gpumodel/intel/gen11-state.h"

/* Gen9's STATE_BASE_ADDRESS length, which IGT emits on Gen11 too. */
#define IGT_SBA_DWORDS 19

/*
 * IGT's gen9_emit_state_base_address() (lib/gpu_cmds.c, and
 * lib/rendercopy_gen9.c when @bindless is false), packed at @dw: the
 * general and stateless data port bases at 0, the surface, dynamic and
 * instruction bases at @base, IGT's buffer sizes; with @bindless, the
 * bindless surface state base at 0 with IGT's size.  Returns the dword
 * after it.
 */
static inline uint32_t *igt_sba_pack(uint32_t *dw, uint64_t base,
                                     bool bindless)
{
    Gen11_STATE_BASE_ADDRESS s = {
        .general_state_base_address_modify_enable = true,
        .surface_state_base_address_modify_enable = true,
        .surface_state_base_address = base,
        .dynamic_state_base_address_modify_enable = true,
        .dynamic_state_base_address = base,
        .instruction_base_address_modify_enable = true,
        .instruction_base_address = base,
        .general_state_buffer_size_modify_enable = true,
        .general_state_buffer_size = 0xfffff,
        .dynamic_state_buffer_size_modify_enable = true,
        .dynamic_state_buffer_size = 1,
        .indirect_object_buffer_size_modify_enable = true,
        .indirect_object_buffer_size = 0xfffff,
        .instruction_buffer_size_modify_enable = true,
        .instruction_buffer_size = 1,
        .bindless_surface_state_base_address_modify_enable = bindless,
        .bindless_surface_state_size = bindless ? 0xfffff : 0,
    };
    uint32_t full[GEN11_STATE_BASE_ADDRESS_LENGTH];

    gen11_state_base_address_pack(full, &s);
    full[0] = GEN11_STATE_BASE_ADDRESS_HEADER |
              (IGT_SBA_DWORDS - GEN11_STATE_BASE_ADDRESS_BIAS);
    /*
     * IGT's BASE_ADDRESS_MODIFY for the stateless data port: bit 0 of
     * dword 3, a bit genxml leaves unnamed.
     */
    full[3] |= 1;
    for (unsigned i = 0; i < IGT_SBA_DWORDS; i++) {
        dw[i] = full[i];
    }
    return dw + IGT_SBA_DWORDS;
}

#endif
