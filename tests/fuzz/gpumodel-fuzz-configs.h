/*
 * QEMU generic-fuzz configurations for gpumodel's devices, included into
 * predefined_configs[] of QEMU's tests/qtest/fuzz/generic_fuzz_configs.h
 * by scripts/apply-overlay.sh.  Each entry becomes the libFuzzer target
 * qemu-fuzz-x86_64 --fuzz-target=generic-fuzz-<name>.
 *
 * Every memory region of both devices is named after the device, so one
 * glob selects all BARs (MMIO, GGTT, aperture, I/O BAR; BAR0/1/3).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
    {
        .name = "intel-gpu",
        .args = "-machine q35 -nodefaults -device intel-gpu,addr=02.0",
        .objects = "intel-gpu*",
    },{
        .name = "nv-gpu",
        .args = "-machine q35 -nodefaults -device nv-gpu,addr=02.0",
        .objects = "nv-gpu*",
    },
