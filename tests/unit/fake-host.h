/*
 * A GpuHost for unit tests: guest RAM is an array, the clock is set by
 * hand, logs and trace events are counted.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_FAKE_HOST_H
#define TESTS_UNIT_FAKE_HOST_H

#include "host.h"

/* The RAM a fake host starts with. */
#define FAKE_RAM_SIZE (16u << 20)

#define FAKE_TIMERS 16
#define FAKE_TRACE_EVENTS 32

struct GpuTimer {
    GpuTimerFn *fn;
    void *opaque;
    bool armed;
    uint64_t deadline;
};

typedef struct FakeHost {
    GpuHost host;
    uint8_t *ram;
    size_t ram_size;            /* FAKE_RAM_SIZE unless grown */
    uint64_t now_ns;
    /*
     * Added to the clock at each read: QEMU's virtual clock moves on while
     * a device handler runs (0: the clock stands still within a call).
     */
    uint64_t read_tick_ns;
    bool irq;
    unsigned irq_edges;
    unsigned guest_errors;
    unsigned unimps;
    char *last_log;
    /* Trace events (IntelTraceEvent ...) by number, the last's arguments. */
    unsigned traces[FAKE_TRACE_EVENTS];
    uint64_t last_trace[FAKE_TRACE_EVENTS][3];
    /* The text events traced (a bit per event number), the last's text. */
    uint32_t trace_wanted;
    char *last_trace_text[FAKE_TRACE_EVENTS];
    GpuTimer timers[FAKE_TIMERS];
    unsigned ntimers;
} FakeHost;

FakeHost *fake_host_new(void);
void fake_host_free(FakeHost *fh);
/* Grow the RAM to @size bytes, the new part zero. */
void fake_host_grow_ram(FakeHost *fh, size_t size);
/* Advance the clock by @ns, running timers that fall due, in order. */
void fake_host_step(FakeHost *fh, uint64_t ns);

#endif
