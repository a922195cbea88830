/*
 * intel-gpu: the Gen11 kernels of the hostile compute qtests
 * (intel-gpu-compute-hostile-test.c) and fuzz seeds
 * (tests/fuzz/corpus/make-seeds.py reads them here), as dwords: the
 * qtests cannot include the unit tests' assembler.  The unit test
 * tests/unit/intel/gfx/test-intel-gpgpu-kernels.c assembles each from the
 * assembly in its comment and checks it is these dwords.
 *
 * Every kernel is SIMD8; r1 is the CURBE's first register, its dword 0 an
 * OWord offset from the general state base (0) where the kernel writes
 * (stateless, binding table index 255).  Descriptors: PRM Vol 7,
 * "Data Port" (OWord block, scratch block) and "Message Gateway".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_QTEST_INTEL_GPU_COMPUTE_KERNELS_H
#define TESTS_QTEST_INTEL_GPU_COMPUTE_KERNELS_H

/*
 * A thread that never ends (intel-gpu-media-test's endless kernel):
 *   add(1) r3.0 r3.0 1; while(1) -16
 */
static const uint32_t hostile_endless_kernel[] = {
    0x00000040, 0x20600208, 0x06000060, 0x00000001,
    0x00000027, 0x00000000, 0x00000000, 0xfffffff0,
};

/*
 * Writes r1 (32 bytes) at OWord r1.0:
 *   mov(8) r112 r0; mov(1) r112.2 r1.0; mov(8) r113 r1;
 *   send(8) OWord block write 32 bytes, BTI 255; mov(8) r127 r0; EOT
 */
static const uint32_t hostile_store_kernel[] = {
    0x00600001, 0x2e000208, 0x008d0000, 0x00000000,
    0x00000001, 0x2e080208, 0x00000020, 0x00000000,
    0x00600001, 0x2e200208, 0x008d0020, 0x00000000,
    0x0a600031, 0x20000208, 0x068d0e00, 0x040a02ff,
    0x00600001, 0x2fe00208, 0x008d0000, 0x00000000,
    0x07600031, 0x20000208, 0x068d0fe0, 0x82000010,
};

/*
 * Shared local memory out of range, with 1 KiB (encoding 1): writes r1
 * twice (64 bytes) at SLM OWord 62, reads the 64 bytes back (r120-r121:
 * 32 inside, 32 past the end), writes 64 bytes at OWord 0x0fffffff
 * (about 4 GiB in), then writes r120-r121 at OWord r1.0:
 *   mov(8) r112 r0; mov(1) r112.2 62; mov(8) r113 r1; mov(8) r114 r1;
 *   send(8) OWord block write 64 bytes, BTI 254;
 *   send(8) r120 OWord block read 64 bytes, BTI 254;
 *   mov(1) r112.2 0x0fffffff; send(8) OWord block write 64, BTI 254;
 *   mov(1) r112.2 r1.0; mov(8) r113 r120; mov(8) r114 r121;
 *   send(8) OWord block write 64 bytes, BTI 255; mov(8) r127 r0; EOT
 */
static const uint32_t hostile_slm_kernel[] = {
    0x00600001, 0x2e000208, 0x008d0000, 0x00000000,
    0x00000001, 0x2e080608, 0x00000000, 0x0000003e,
    0x00600001, 0x2e200208, 0x008d0020, 0x00000000,
    0x00600001, 0x2e400208, 0x008d0020, 0x00000000,
    0x0a600031, 0x20000208, 0x068d0e00, 0x060a03fe,
    0x0a600031, 0x2f000208, 0x068d0e00, 0x022803fe,
    0x00000001, 0x2e080608, 0x00000000, 0x0fffffff,
    0x0a600031, 0x20000208, 0x068d0e00, 0x060a03fe,
    0x00000001, 0x2e080208, 0x00000020, 0x00000000,
    0x00600001, 0x2e200208, 0x008d0f00, 0x00000000,
    0x00600001, 0x2e400208, 0x008d0f20, 0x00000000,
    0x0a600031, 0x20000208, 0x068d0e00, 0x060a03ff,
    0x00600001, 0x2fe00208, 0x008d0000, 0x00000000,
    0x07600031, 0x20000208, 0x068d0fe0, 0x82000010,
};

/*
 * A scratch write between two stores: writes r1 at OWord r1.0 + 4 x
 * group X, spills r1 to its scratch slot (a scratch block write at HWord
 * 0, header r0), then writes r1 two OWords further on.  The stores'
 * header has M0.5 0: a stateless message with a header adds M0.5 (R0.5,
 * the scratch slot) to its address.
 *   mov(8) r112 r0; mov(1) r112.5 0;
 *   shl(1) r115.0 r0.1 2; add(1) r112.2 r1.0 r115.0;
 *   mov(8) r113 r1; send(8) OWord block write 32 bytes, BTI 255;
 *   mov(8) r60 r0; mov(8) r61 r1; send(8) scratch block write 1 reg;
 *   add(1) r112.2 r112.2 2; send(8) OWord block write 32 bytes, BTI 255;
 *   mov(8) r127 r0; EOT
 */
static const uint32_t hostile_scratch_kernel[] = {
    0x00600001, 0x2e000208, 0x008d0000, 0x00000000,
    0x00000001, 0x2e140608, 0x00000000, 0x00000000,
    0x00000009, 0x2e600208, 0x06000004, 0x00000002,
    0x00000040, 0x2e080208, 0x02000020, 0x00000e60,
    0x00600001, 0x2e200208, 0x008d0020, 0x00000000,
    0x0a600031, 0x20000208, 0x068d0e00, 0x040a02ff,
    0x00600001, 0x27800208, 0x008d0000, 0x00000000,
    0x00600001, 0x27a00208, 0x008d0020, 0x00000000,
    0x0a600031, 0x20000208, 0x068d0780, 0x040e0000,
    0x00000040, 0x2e080208, 0x06000e08, 0x00000002,
    0x0a600031, 0x20000208, 0x068d0e00, 0x040a02ff,
    0x00600001, 0x2fe00208, 0x008d0000, 0x00000000,
    0x07600031, 0x20000208, 0x068d0fe0, 0x82000010,
};

/*
 * The thread of FFTID 3 ends before the group's barrier; the others
 * send the gateway's BarrierMsg with R0.2's barrier ID and wait in n0.0
 * (Mesa's barrier on Gen11):
 *   and(1) r20.0 r0.5 0x3ff; cmp.z.f0.0(1) null r20.0 3;
 *   mov(8) r127 r0; (+f0.0) send(8) EOT;
 *   mov(8) r100 0; and(1) r100.2 r0.2 0x7f000000;
 *   send(8) r101 r100 gateway BarrierMsg; wait(1) n0.0;
 *   mov(8) r127 r0; EOT
 */
static const uint32_t hostile_barrier_skip_kernel[] = {
    0x00000005, 0x22800208, 0x06000014, 0x000003ff,
    0x01000010, 0x20000200, 0x06000280, 0x00000003,
    0x00600001, 0x2fe00208, 0x008d0000, 0x00000000,
    0x07610031, 0x20000208, 0x068d0fe0, 0x82000010,
    0x00600001, 0x2c800608, 0x00000000, 0x00000000,
    0x00000005, 0x2c880208, 0x06000008, 0x7f000000,
    0x03600031, 0x2ca00208, 0x068d0c80, 0x02000004,
    0x00000030, 0x12000000, 0x00001200, 0x00000000,
    0x00600001, 0x2fe00208, 0x008d0000, 0x00000000,
    0x07600031, 0x20000208, 0x068d0fe0, 0x82000010,
};

#endif
