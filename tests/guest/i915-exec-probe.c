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
 *   i915-exec-probe prime-fill bcs VALUE
 *       with nouveau bound too (-device nv-gpu beside intel-gpu): a buffer
 *       nouveau allocates in GART memory, shared with i915 through
 *       dma-buf, is filled by an XY_COLOR_BLT on i915's blitter but for
 *       its last 4 KiB, then read through nouveau's CPU map: what IGT's
 *       prime_nv_test@i915_blt_fill_nv_read means to check, on a buffer
 *       nouveau may map (TTM refuses CPU faults on imported ones).
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
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <i915_drm.h>     /* libdrm-dev, -I/usr/include/libdrm */
#include <nouveau_drm.h>
#include "hw/gpumodel/intel-gpu-cmds.h"     /* -I include */

/* Soft-pinned addresses in the context's PPGTT. */
#define TARGET_ADDR 0x100000ull
#define BATCH_ADDR  0x200000ull

static int drm_fd;

#define DRM_IOCTL_NOUVEAU_GEM_NEW \
    DRM_IOWR(DRM_COMMAND_BASE + DRM_NOUVEAU_GEM_NEW, struct drm_nouveau_gem_new)

/* The primary node of the DRM driver @want ("i915", "nouveau"), or -1. */
static int open_driver(const char *want)
{
    for (int i = 0; i < 16; i++) {
        char path[32], name[32] = "";
        struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };
        int fd;

        snprintf(path, sizeof(path), "/dev/dri/card%d", i);
        fd = open(path, O_RDWR);
        if (fd < 0) {
            continue;
        }
        if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, want)) {
            return fd;
        }
        close(fd);
    }
    return -1;
}

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

/* 15 rows of 4 KiB filled, the 16th left as it was. */
#define PRIME_PITCH 4096u
#define PRIME_ROWS  16u

static int prime_fill(uint32_t batch, uint32_t value)
{
    const uint32_t canary = ~value, size = PRIME_PITCH * PRIME_ROWS;
    struct drm_nouveau_gem_new nbo = {
        .info = { .domain = NOUVEAU_GEM_DOMAIN_GART |
                            NOUVEAU_GEM_DOMAIN_MAPPABLE,
                  .size = size },
    };
    struct drm_prime_handle exp = { .flags = DRM_CLOEXEC | DRM_RDWR };
    struct drm_prime_handle imp = { 0 };
    uint32_t cs[8], *map;
    int nv_fd = open_driver("nouveau");

    if (nv_fd < 0) {
        printf("prime-fill fail: no nouveau device\n");
        return 1;
    }
    if (ioctl(nv_fd, DRM_IOCTL_NOUVEAU_GEM_NEW, &nbo)) {
        perror("NOUVEAU_GEM_NEW");
        return 1;
    }
    map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, nv_fd,
               nbo.info.map_handle);
    if (map == MAP_FAILED) {
        perror("mmap of the nouveau buffer");
        return 1;
    }
    for (uint32_t i = 0; i < size / 4; i++) {
        map[i] = canary;
    }
    exp.handle = nbo.info.handle;
    if (ioctl(nv_fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &exp)) {
        perror("nouveau PRIME_HANDLE_TO_FD");
        return 1;
    }
    imp.fd = exp.fd;
    if (xioctl(DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp)) {
        perror("i915 PRIME_FD_TO_HANDLE");
        return 1;
    }
    cs[0] = XY_COLOR_BLT_CMD | BLT_WRITE_RGBA | INSTR_LEN(7);
    cs[1] = BLT_DEPTH_32 | BLT_ROP_COLOR_COPY | PRIME_PITCH;
    cs[2] = 0;                                          /* x1, y1 */
    cs[3] = (PRIME_ROWS - 1) << 16 | PRIME_PITCH / 4;   /* x2, y2 */
    cs[4] = (uint32_t)TARGET_ADDR;
    cs[5] = TARGET_ADDR >> 32;
    cs[6] = value;
    cs[7] = MI_BATCH_BUFFER_END;
    bo_write(batch, cs, sizeof(cs));
    submit(imp.handle, batch, I915_EXEC_BLT);
    if (bo_wait(imp.handle, 10 * 1000000000ll)) {
        printf("prime-fill fail: bcs blit not done in 10 s\n");
        return 1;
    }
    for (uint32_t i = 0; i < size / 4; i++) {
        uint32_t want = i < (PRIME_ROWS - 1) * PRIME_PITCH / 4 ? value
                                                               : canary;

        if (map[i] != want) {
            printf("prime-fill fail: nouveau reads 0x%08x at byte %u of its "
                   "buffer, i915's blit should leave 0x%08x\n", map[i],
                   i * 4, want);
            return 1;
        }
    }
    printf("prime-fill ok: i915's blit filled %u bytes of a nouveau GART "
           "buffer with 0x%08x, the last %u untouched\n",
           (PRIME_ROWS - 1) * PRIME_PITCH, value, PRIME_PITCH);
    return 0;
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
                "VALUE|SECONDS|COUNT, prime-fill bcs VALUE, or syscalls - "
                "SECONDS\n", argv[0]);
        return 2;
    }
    ring = strcmp(argv[2], "rcs") ? I915_EXEC_BLT : I915_EXEC_RENDER;
    drm_fd = open_driver("i915");
    if (drm_fd < 0) {
        printf("%s fail: no i915 device\n", argv[1]);
        return 1;
    }
    target = bo_create(4096);
    batch = bo_create(4096);
    bo_write(target, cs, sizeof(cs));
    if (!strcmp(argv[1], "prime-fill")) {
        return prime_fill(batch, strtoul(argv[3], NULL, 0));
    }

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
