/*
 * Fuzz harness: random command streams into the intel-gpu command
 * streamer, in legacy ring mode and as an execlist context, on the
 * host-neutral model with a fake host.  Whatever the bytes, the model must
 * not crash, assert, hang or leak; every run is bounded by the slice
 * budget and a fixed number of slices.  After every input the model's
 * own post-load checks must accept its state: what it reaches by itself
 * must migrate.
 *
 * Built two ways: with clang -fsanitize=fuzzer (meson -Dfuzz=true) as a
 * libFuzzer target, and always as fuzz-intel-cs-smoke, a unit test that
 * feeds it seeded pseudo-random inputs.
 *
 * Input layout: byte 0 selects the engine and mode, the rest is copied
 * into guest RAM at the ring (the first 64 KiB) and at the batches and
 * buffers after it, so jumps and stores land on fuzzed data.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "fake-host.h"
#include "intel/intel-gpu-int.h"
#include "hw/gpumodel/intel-gpu-cmds.h"

#define RING        0x100000u
#define RING_SIZE   0x10000u
#define HWSP        0x0f0000u
#define CTX         0x0e0000u
#define SLICES      8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const IntelEngineId engines[] = { INTEL_RCS0, INTEL_BCS0 };

/* A refusal is a bug in the model or its checks: fail as a crash does. */
static void check_migratable(IntelGpu *gpu)
{
    char *err = NULL;

    if (!intel_gpu_post_load(gpu, &err)) {
        fprintf(stderr, "post-load refuses the model's own state: %s\n",
                err);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const IntelGpuConfig cfg = {
        .device_id = INTEL_GPU_DEVICE_ID_ICL_GT2,
        .slices = 1, .subslices = 8, .eus_per_subslice = 8,
    };
    static FakeHost *fh;
    static IntelGpu *gpu;
    IntelEngine *e;
    uint32_t base;
    size_t n;

    if (size < 2) {
        return 0;
    }
    if (!gpu) {
        fh = fake_host_new();
        gpu = intel_gpu_new(&cfg, &fh->host);
    }
    intel_gpu_reset(gpu);
    memset(fh->ram, 0, FAKE_RAM_SIZE);
    /* GGTT = physical for the first 8 MiB; a PPGTT root in fuzzed data. */
    for (uint32_t p = 0; p < 2048; p++) {
        intel_ggtt_write_pte(gpu, p, (uint64_t)p << 12 | 1);
    }
    e = &gpu->engine[engines[data[0] & 1]];
    base = e->base;
    n = MIN(size - 1, FAKE_RAM_SIZE - RING);
    memcpy(fh->ram + RING, data + 1, n);

    intel_mmio_write(gpu, base + INTEL_RING_HWS_PGA, HWSP, ~0u);
    intel_mmio_write(gpu, base + INTEL_RING_EMR, ~1u, ~0u);
    if (data[0] & 2) {
        /* Execlists: an image whose ring is the fuzzed data. */
        const uint32_t lri[] = {
            MI_LOAD_REGISTER_IMM(7),
            base + INTEL_RING_CONTEXT_CONTROL, 0x00090008,
            base + INTEL_RING_HEAD, 0,
            base + INTEL_RING_TAIL, MIN(n, RING_SIZE - 8) & ~7u,
            base + INTEL_RING_START, RING,
            base + INTEL_RING_CTL, (RING_SIZE - 4096) | 1,
            base + INTEL_RING_PDP_UDW(0), 0,
            base + INTEL_RING_PDP_LDW(0), RING + 0x10000,
            MI_BATCH_BUFFER_END,
        };

        memcpy(fh->ram + CTX + 0x1000, lri, sizeof(lri));
        intel_mmio_write(gpu, base + INTEL_RING_MODE, 0x00080008, ~0u);
        intel_mmio_write(gpu, base + INTEL_RING_EXECLIST_SQ, CTX | 0x119,
                         ~0u);
        intel_mmio_write(gpu, base + INTEL_RING_EXECLIST_SQ + 4, 1, ~0u);
        intel_mmio_write(gpu, base + INTEL_RING_EXECLIST_CONTROL, 1, ~0u);
    } else {
        intel_mmio_write(gpu, base + INTEL_RING_START, RING, ~0u);
        intel_mmio_write(gpu, base + INTEL_RING_CTL,
                         (RING_SIZE - 4096) | 1, ~0u);
        intel_mmio_write(gpu, base + INTEL_RING_TAIL,
                         MIN(n, RING_SIZE - 8) & ~7u, ~0u);
    }
    /* A bounded number of slices, whatever the stream does. */
    for (int i = 0; i < SLICES; i++) {
        fake_host_step(fh, 100000);
    }
    check_migratable(gpu);
    return 0;
}

#ifndef GPUMODEL_LIBFUZZER
/* The smoke test: seeded random streams biased towards valid commands. */
static void test_random_streams(void)
{
    static const uint32_t headers[] = {
        MI_NOOP, MI_USER_INTERRUPT, MI_ARB_CHECK,
        MI_ARB_ON_OFF | MI_ARB_ENABLE, MI_BATCH_BUFFER_END, MI_MATH(4),
        MI_SEMAPHORE_WAIT | MI_SEMAPHORE_GLOBAL_GTT | MI_SEMAPHORE_POLL |
        MI_SEMAPHORE_SAD_EQ_SDD | INSTR_LEN(4),
        MI_STORE_DWORD_IMM_GEN4 | MI_USE_GGTT, MI_STORE_DWORD_IMM_GEN4,
        MI_STORE_DATA_INDEX | INSTR_LEN(3), MI_LOAD_REGISTER_IMM(1),
        MI_STORE_REGISTER_MEM_GEN8 | MI_SRM_LRM_GLOBAL_GTT,
        MI_FLUSH_DW | MI_FLUSH_DW_OP_STOREDW | INSTR_LEN(4),
        MI_LOAD_REGISTER_MEM_GEN8 | MI_SRM_LRM_GLOBAL_GTT,
        MI_LOAD_REGISTER_REG | INSTR_LEN(3), MI_ATOMIC | INSTR_LEN(5),
        MI_BATCH_BUFFER_START_GEN8,
        MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
        MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_SECOND_LEVEL,
        MI_CONDITIONAL_BATCH_BUFFER_END | INSTR_LEN(2),
        GFX_OP_PIPE_CONTROL(6), XY_SRC_COPY_BLT_CMD | INSTR_LEN(7),
        XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA | INSTR_LEN(10),
        XY_FAST_COPY_BLT_CMD | INSTR_LEN(10),
        GFX_OP_3DPRIMITIVE | INSTR_LEN(7),
    };
    GRand *r = g_rand_new_with_seed(0x6770756d);
    size_t ndw = (64 * 1024 + 8192) / 4, size = 1 + ndw * 4;
    uint8_t *buf = g_malloc(size);
    uint32_t *dw = g_new(uint32_t, ndw);

    for (int iter = 0; iter < 300; iter++) {
        buf[0] = g_rand_int(r);
        for (size_t i = 0; i < ndw; i++) {
            uint32_t v = g_rand_int(r);

            /* Headers from the table, operands pointing into our RAM. */
            switch (g_rand_int_range(r, 0, 4)) {
            case 0:
                v = headers[g_rand_int_range(r, 0, G_N_ELEMENTS(headers))];
                break;
            case 1:
                v = RING + (v & 0x1fffc);
                break;
            case 2:
                v &= 0xff;
                break;
            }
            dw[i] = v;
        }
        memcpy(buf + 1, dw, ndw * 4);
        LLVMFuzzerTestOneInput(buf, size);
    }
    g_free(dw);
    g_free(buf);
    g_rand_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/intel-cs/fuzz/random-streams", test_random_streams);
    return g_test_run();
}
#endif
