/*
 * i915-perf-probe: reads an i915 perf (OA) stream record by record, as a
 * profiler would, and says what it got: the samples, i915's
 * OA_BUFFER_LOST and OA_REPORT_LOST records, gaps in the reports' OA
 * timestamps and the longest time no sample arrived.  Built static by
 * make-guest.sh.  The OA drill checks run it while the host drills.
 *
 *   i915-perf-probe SECONDS EXPONENT
 *       adds a minimal metric set (one boolean-counter register; the
 *       A counters need none), opens a system-wide stream in the
 *       A32u40_A4u32_B8_C8 format with the timer at EXPONENT and reads it
 *       for SECONDS.
 *
 *   i915-perf-probe cost SECONDS EXPONENT
 *       where the system CPU time of IGT's perf@blocking loop goes in
 *       this guest.  IGT asserts that its loop (I915_PERF_IOCTL_ENABLE,
 *       then blocking read()s of a stream for 10 s) spends at most 1 % of
 *       its time in the kernel; this mode measures the same steps on the
 *       same metric set as above and, next to them, the same kinds of work
 *       with no device in them.  Prints "cost enable_us E reads N read_us
 *       R memset16_us M zero_read_us Z": E the system time of the ENABLE
 *       ioctl (i915 clears its 16 MiB OA buffer there), N blocking reads
 *       in SECONDS and R the system time per read, M the time user space
 *       takes to clear 16 MiB (the same stores, no device), Z the system
 *       time of one 256-byte read() of /dev/zero (a system call, no
 *       device).  scripts/run-igt.sh --perf-cost runs it.
 *
 * Prints one line "perf ok samples N buffer_lost B report_lost R gaps G
 * max_gap P max_wait_ms W after_lost A gaps_after_lost L" (exit 0): gaps
 * count consecutive samples more than one period apart, max_gap is the
 * largest distance in periods, after_lost counts the samples after the
 * first OA_BUFFER_LOST and gaps_after_lost the gaps among them (not the
 * one before the first).  Any
 * failure prints what failed (exit 1).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <i915_drm.h>     /* libdrm-dev, -I/usr/include/libdrm */

#define CONFIG_UUID     "6f1c5e9a-0b7d-4c2e-9a41-3d5b7e2f8c10"
#define REPORT_SIZE     256         /* A32u40_A4u32_B8_C8 */
#define OASTARTTRIG1    0x2710

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The metric set's id: added now, or the one an earlier run added. */
static uint64_t config_id(int drm)
{
    static const uint32_t regs[] = { OASTARTTRIG1, 0 };
    struct drm_i915_perf_oa_config c = {
        .n_boolean_regs = 1, .boolean_regs_ptr = (uintptr_t)regs,
    };
    unsigned long long id = 0;
    FILE *f;
    int r;

    memcpy(c.uuid, CONFIG_UUID, sizeof(c.uuid));
    r = ioctl(drm, DRM_IOCTL_I915_PERF_ADD_CONFIG, &c);
    if (r > 0) {
        return r;
    }
    f = fopen("/sys/class/drm/card0/metrics/" CONFIG_UUID "/id", "r");
    if (!f || fscanf(f, "%llu", &id) != 1) {
        printf("perf: cannot add the metric set: %s\n", strerror(errno));
        exit(1);
    }
    fclose(f);
    return id;
}

static double now_us(void)
{
    return now_s() * 1e6;
}

static double stime_us(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_stime.tv_sec * 1e6 + ru.ru_stime.tv_usec;
}

#define OA_BUFFER_SIZE  (16u << 20)     /* i915_perf.c's OA_BUFFER_SIZE */
#define ZERO_READS      2000

/* The cost mode (see the top comment) on stream @fd, opened disabled. */
static int cost(int fd, double secs)
{
    static uint8_t buf[16 << 10];
    double t0, s0, enable_us, read_us, memset_us, zero_us;
    unsigned reads = 0;
    uint8_t *big;
    int zero;

    s0 = stime_us();
    if (ioctl(fd, I915_PERF_IOCTL_ENABLE, 0)) {
        printf("cost: I915_PERF_IOCTL_ENABLE: %s\n", strerror(errno));
        return 1;
    }
    enable_us = stime_us() - s0;
    s0 = stime_us();
    for (t0 = now_us(); now_us() - t0 < secs * 1e6; reads++) {
        if (read(fd, buf, sizeof(buf)) < 0 && errno != EINTR) {
            printf("cost: read: %s\n", strerror(errno));
            return 1;
        }
    }
    read_us = (stime_us() - s0) / (reads ? reads : 1);
    close(fd);

    big = malloc(OA_BUFFER_SIZE);
    if (!big) {
        printf("cost: out of memory\n");
        return 1;
    }
    memset(big, 1, OA_BUFFER_SIZE);         /* fault the pages in first */
    t0 = now_us();
    memset(big, 0, OA_BUFFER_SIZE);
    __asm__ volatile("" : : "r"(big) : "memory");
    memset_us = now_us() - t0;
    free(big);

    zero = open("/dev/zero", O_RDONLY);
    s0 = stime_us();
    for (unsigned i = 0; i < ZERO_READS; i++) {
        if (read(zero, buf, 256) != 256) {
            printf("cost: /dev/zero: %s\n", strerror(errno));
            return 1;
        }
    }
    zero_us = (stime_us() - s0) / ZERO_READS;
    printf("cost enable_us %.0f reads %u read_us %.1f memset16_us %.0f "
           "zero_read_us %.1f\n", enable_us, reads, read_us, memset_us,
           zero_us);
    return 0;
}

int main(int argc, char **argv)
{
    static uint8_t buf[1 << 20];
    unsigned exponent, samples = 0, buffer_lost = 0, report_lost = 0;
    unsigned gaps = 0, max_gap = 0, after_lost = 0, gaps_after_lost = 0;
    uint32_t period, last_ts = 0;
    double secs, t_end, t_last, max_wait = 0;
    uint64_t props[8];
    struct drm_i915_perf_open_param open_param = {
        .flags = I915_PERF_FLAG_FD_CLOEXEC | I915_PERF_FLAG_FD_NONBLOCK,
        .num_properties = 4, .properties_ptr = (uintptr_t)props,
    };
    int drm, fd;
    bool cost_mode = argc == 4 && !strcmp(argv[1], "cost");

    if (argc != 3 && !cost_mode) {
        fprintf(stderr, "usage: %s [cost] SECONDS EXPONENT\n", argv[0]);
        return 2;
    }
    if (cost_mode) {
        argv++;
        /* Blocking reads, enabled by the measurement itself. */
        open_param.flags = I915_PERF_FLAG_FD_CLOEXEC |
                           I915_PERF_FLAG_DISABLED;
    }
    secs = atof(argv[1]);
    exponent = atoi(argv[2]);
    period = 2u << exponent;
    drm = open("/dev/dri/card0", O_RDWR);
    if (drm < 0) {
        printf("perf: /dev/dri/card0: %s\n", strerror(errno));
        return 1;
    }
    props[0] = DRM_I915_PERF_PROP_SAMPLE_OA;
    props[1] = 1;
    props[2] = DRM_I915_PERF_PROP_OA_METRICS_SET;
    props[3] = config_id(drm);
    props[4] = DRM_I915_PERF_PROP_OA_FORMAT;
    props[5] = I915_OA_FORMAT_A32u40_A4u32_B8_C8;
    props[6] = DRM_I915_PERF_PROP_OA_EXPONENT;
    props[7] = exponent;
    fd = ioctl(drm, DRM_IOCTL_I915_PERF_OPEN, &open_param);
    if (fd < 0) {
        printf("perf: DRM_IOCTL_I915_PERF_OPEN: %s\n", strerror(errno));
        return 1;
    }
    if (cost_mode) {
        return cost(fd, secs);
    }

    t_last = now_s();
    t_end = t_last + secs;
    while (now_s() < t_end) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        ssize_t n;

        poll(&p, 1, 100);
        n = read(fd, buf, sizeof(buf));
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            continue;
        }
        if (n < 0) {
            printf("perf: read: %s\n", strerror(errno));
            return 1;
        }
        for (ssize_t off = 0; off + sizeof(struct drm_i915_perf_record_header)
             <= (size_t)n;) {
            struct drm_i915_perf_record_header h;

            memcpy(&h, buf + off, sizeof(h));
            if (h.size < sizeof(h) || off + h.size > n) {
                printf("perf: bad record (type %u size %u)\n", h.type,
                       h.size);
                return 1;
            }
            if (h.type == DRM_I915_PERF_RECORD_SAMPLE &&
                h.size >= sizeof(h) + REPORT_SIZE) {
                uint32_t ts, d;
                double t = now_s();

                memcpy(&ts, buf + off + sizeof(h) + 4, 4);
                d = samples ? (ts - last_ts) / period : 1;
                if (d > 1) {
                    /* The first sample after a loss follows a gap. */
                    gaps++;
                    gaps_after_lost += after_lost > 0;
                }
                max_gap = d > max_gap ? d : max_gap;
                max_wait = t - t_last > max_wait ? t - t_last : max_wait;
                t_last = t;
                last_ts = ts;
                samples++;
                after_lost += buffer_lost > 0;
            } else if (h.type == DRM_I915_PERF_RECORD_OA_BUFFER_LOST) {
                buffer_lost++;
            } else if (h.type == DRM_I915_PERF_RECORD_OA_REPORT_LOST) {
                report_lost++;
            }
            off += h.size;
        }
    }
    close(fd);
    printf("perf ok samples %u buffer_lost %u report_lost %u gaps %u "
           "max_gap %u max_wait_ms %.0f after_lost %u gaps_after_lost %u\n",
           samples, buffer_lost, report_lost, gaps, max_gap,
           max_wait * 1000, after_lost, gaps_after_lost);
    return 0;
}
