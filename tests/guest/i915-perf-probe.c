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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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

    if (argc != 3) {
        fprintf(stderr, "usage: %s SECONDS EXPONENT\n", argv[0]);
        return 2;
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
