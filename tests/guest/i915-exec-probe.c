/*
 * i915-exec-probe: the intel-gpu guest's user-batch checks, through i915's
 * own uAPI (execbuffer2 with soft-pinned buffer objects in the context's
 * PPGTT).  Built static by make-guest.sh.
 *
 *   i915-exec-probe store rcs|bcs VALUE
 *       a batch stores VALUE into a buffer object with MI_STORE_DWORD_IMM
 *       (PPGTT address); the value is read back with GEM_PREAD.
 *   i915-exec-probe hang rcs|bcs SECONDS
 *       a batch that jumps to itself with no arbitration point; waits up to
 *       SECONDS for i915 to detect the hang and reset the engine, then
 *       reports how long the batch took to be retired.
 *   i915-exec-probe nop rcs|bcs COUNT
 *       COUNT empty batches, the last waited for: a workload that, unlike
 *       IGT's gem_exec_nop, does not ask i915 to idle the GT first (which
 *       an open perf stream never lets happen).
 *   i915-exec-probe walker rcs COUNT
 *       COUNT batches of one GPGPU_WALKER each (64 x 64 groups of 64
 *       threads), the last waited for: EU work for the OA unit's flexible
 *       EU counters (no kernel runs: the device model counts threads).
 *   i915-exec-probe syscalls - SECONDS
 *       a CPU-only baseline for benchmarks: getppid() calls per second,
 *       measured in the same guest as the GPU figures.
 *
 * Prints one line "store ok ..." / "hang ok ..." (exit 0) or the failure
 * (exit 1).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <i915_drm.h>     /* libdrm-dev, -I/usr/include/libdrm */
#include "hw/gpumodel/intel-gpu-cmds.h"     /* -I include */

/* Soft-pinned addresses in the context's PPGTT. */
#define TARGET_ADDR 0x100000ull
#define BATCH_ADDR  0x200000ull

static int drm_fd;

static int xioctl(unsigned long req, void *arg)
{
    int r;

    do {
        r = ioctl(drm_fd, req, arg);
    } while (r < 0 && (errno == EINTR || errno == EAGAIN));
    return r;
}

static uint32_t bo_create(uint64_t size)
{
    struct drm_i915_gem_create c = { .size = size };

    if (xioctl(DRM_IOCTL_I915_GEM_CREATE, &c)) {
        perror("GEM_CREATE");
        exit(1);
    }
    return c.handle;
}

static void bo_write(uint32_t handle, const void *data, uint64_t len)
{
    struct drm_i915_gem_pwrite w = {
        .handle = handle, .size = len, .data_ptr = (uintptr_t)data,
    };

    if (xioctl(DRM_IOCTL_I915_GEM_PWRITE, &w)) {
        perror("GEM_PWRITE");
        exit(1);
    }
}

static void bo_read(uint32_t handle, void *data, uint64_t len)
{
    struct drm_i915_gem_pread r = {
        .handle = handle, .size = len, .data_ptr = (uintptr_t)data,
    };

    if (xioctl(DRM_IOCTL_I915_GEM_PREAD, &r)) {
        perror("GEM_PREAD");
        exit(1);
    }
}

/* Wait for the buffer to be idle; returns 0, or -1 on timeout. */
static int bo_wait(uint32_t handle, int64_t timeout_ns)
{
    struct drm_i915_gem_wait w = { .bo_handle = handle,
                                   .timeout_ns = timeout_ns };

    return xioctl(DRM_IOCTL_I915_GEM_WAIT, &w) ? -1 : 0;
}

static void submit(uint32_t target, uint32_t batch, unsigned ring)
{
    struct drm_i915_gem_exec_object2 obj[2] = {
        { .handle = target, .offset = TARGET_ADDR,
          .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE |
                   EXEC_OBJECT_SUPPORTS_48B_ADDRESS },
        { .handle = batch, .offset = BATCH_ADDR,
          .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_SUPPORTS_48B_ADDRESS },
    };
    struct drm_i915_gem_execbuffer2 eb = {
        .buffers_ptr = (uintptr_t)obj, .buffer_count = 2,
        .flags = ring | I915_EXEC_NO_RELOC,
    };

    if (xioctl(DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb)) {
        perror("GEM_EXECBUFFER2");
        exit(1);
    }
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    uint32_t target, batch, cs[32] = { 0 }, got = 0;
    unsigned ring;
    double t0;

    if (argc == 4 && !strcmp(argv[1], "syscalls")) {
        double secs = atof(argv[3]), t;
        unsigned long n = 0;

        t0 = now_s();
        do {
            for (int i = 0; i < 1000; i++) {
                getppid();
            }
            n += 1000;
            t = now_s() - t0;
        } while (t < secs);
        printf("syscalls ok: %.0f getppid/s\n", n / t);
        return 0;
    }
    if (argc != 4 || (strcmp(argv[2], "rcs") && strcmp(argv[2], "bcs"))) {
        fprintf(stderr, "usage: %s store|hang|nop|walker rcs|bcs "
                "VALUE|SECONDS|COUNT, or syscalls - SECONDS\n",
                argv[0]);
        return 2;
    }
    ring = strcmp(argv[2], "rcs") ? I915_EXEC_BLT : I915_EXEC_RENDER;
    drm_fd = open("/dev/dri/card0", O_RDWR);
    if (drm_fd < 0) {
        perror("/dev/dri/card0");
        return 1;
    }
    target = bo_create(4096);
    batch = bo_create(4096);
    bo_write(target, cs, sizeof(cs));

    if (!strcmp(argv[1], "nop") || !strcmp(argv[1], "walker")) {
        static const uint32_t walker[] = {
            PIPELINE_SELECT | PIPELINE_SELECT_MASK_BITS |
            PIPELINE_SELECT_GPGPU,
            /* SIMD8, 64 threads a group (width 63); 64 x 64 x 1 groups */
            GPGPU_WALKER | INSTR_LEN(15),
            0, 0, 0, 63, 0, 0, 64, 0, 0, 64, 0, 1, ~0u, ~0u,
            MI_BATCH_BUFFER_END,
        };
        long count = strtol(argv[3], NULL, 0);

        if (!strcmp(argv[1], "walker")) {
            memcpy(cs, walker, sizeof(walker));
        } else {
            cs[0] = MI_BATCH_BUFFER_END;
        }
        bo_write(batch, cs, sizeof(cs));
        t0 = now_s();
        for (long i = 0; i < count; i++) {
            submit(target, batch, ring);
        }
        if (bo_wait(target, 60 * 1000000000ll)) {
            printf("%s fail: %s batches not done in 60 s\n", argv[1],
                   argv[2]);
            return 1;
        }
        printf("%s ok: %ld %s batches in %.2f s\n", argv[1], count, argv[2],
               now_s() - t0);
        return 0;
    }
    if (!strcmp(argv[1], "store")) {
        uint32_t value = strtoul(argv[3], NULL, 0);

        cs[0] = MI_STORE_DWORD_IMM_GEN4;
        cs[1] = (uint32_t)TARGET_ADDR;
        cs[2] = TARGET_ADDR >> 32;
        cs[3] = value;
        cs[4] = MI_BATCH_BUFFER_END;
        bo_write(batch, cs, sizeof(cs));
        submit(target, batch, ring);
        if (bo_wait(target, 10 * 1000000000ll)) {
            printf("store fail: %s batch not done in 10 s\n", argv[2]);
            return 1;
        }
        bo_read(target, &got, 4);
        if (got != value) {
            printf("store fail: %s wrote 0x%08x, read back 0x%08x\n",
                   argv[2], value, got);
            return 1;
        }
        printf("store ok: %s batch stored 0x%08x, read back 0x%08x\n",
               argv[2], value, got);
        return 0;
    }

    /* No MI_ARB_CHECK in the loop: only an engine reset stops it. */
    cs[0] = MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT;
    cs[1] = (uint32_t)BATCH_ADDR;
    cs[2] = BATCH_ADDR >> 32;
    bo_write(batch, cs, sizeof(cs));
    t0 = now_s();
    submit(target, batch, ring);
    if (bo_wait(target, (int64_t)(atof(argv[3]) * 1e9))) {
        printf("hang fail: %s hanging batch still running after %s s\n",
               argv[2], argv[3]);
        return 1;
    }
    printf("hang ok: %s hanging batch retired after %.1f s\n", argv[2],
           now_s() - t0);
    return 0;
}
