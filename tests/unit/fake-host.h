/*
 * A GpuHost for unit tests: guest RAM is an array, the clock is set by
 * hand, logs are counted.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_FAKE_HOST_H
#define TESTS_UNIT_FAKE_HOST_H

#include "host.h"

#define FAKE_RAM_SIZE (16u << 20)

typedef struct FakeHost {
    GpuHost host;
    uint8_t *ram;
    uint64_t now_ns;
    bool irq;
    unsigned irq_edges;
    unsigned guest_errors;
    unsigned unimps;
    char *last_log;
} FakeHost;

FakeHost *fake_host_new(void);
void fake_host_free(FakeHost *fh);

#endif
