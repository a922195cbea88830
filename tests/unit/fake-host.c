/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include <glib.h>
#include "fake-host.h"

static int fake_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    FakeHost *fh = opaque;

    if (addr >= fh->ram_size || len > fh->ram_size - addr) {
        return -1;
    }
    memcpy(buf, fh->ram + addr, len);
    return 0;
}

static int fake_dma_write(void *opaque, uint64_t addr, const void *buf,
                          size_t len)
{
    FakeHost *fh = opaque;

    if (addr >= fh->ram_size || len > fh->ram_size - addr) {
        return -1;
    }
    memcpy(fh->ram + addr, buf, len);
    return 0;
}

static void fake_set_irq(void *opaque, bool level)
{
    FakeHost *fh = opaque;

    fh->irq_edges += level && !fh->irq;
    fh->irq = level;
}

static uint64_t fake_now_ns(void *opaque)
{
    FakeHost *fh = opaque;

    fh->now_ns += fh->read_tick_ns;
    return fh->now_ns;
}

static void fake_log(void *opaque, GpuLogKind kind, const char *msg)
{
    FakeHost *fh = opaque;

    if (kind == GPU_LOG_GUEST_ERROR) {
        fh->guest_errors++;
    } else {
        fh->unimps++;
    }
    g_free(fh->last_log);
    fh->last_log = g_strdup(msg);
    if (g_test_verbose()) {
        g_test_message("%s: %s", kind == GPU_LOG_GUEST_ERROR ?
                       "guest error" : "unimp", msg);
    }
}

static void fake_trace(void *opaque, unsigned event, uint64_t a, uint64_t b,
                       uint64_t c)
{
    FakeHost *fh = opaque;

    g_assert_cmpuint(event, <, FAKE_TRACE_EVENTS);
    fh->traces[event]++;
    fh->last_trace[event][0] = a;
    fh->last_trace[event][1] = b;
    fh->last_trace[event][2] = c;
}

static bool fake_trace_wanted(void *opaque, unsigned event)
{
    FakeHost *fh = opaque;

    return event < FAKE_TRACE_EVENTS && ((fh->trace_wanted >> event) & 1);
}

static void fake_trace_text(void *opaque, unsigned event, uint64_t a,
                            uint64_t b, const char *text)
{
    FakeHost *fh = opaque;

    fake_trace(opaque, event, a, b, 0);
    g_free(fh->last_trace_text[event]);
    fh->last_trace_text[event] = g_strdup(text);
}

static GpuTimer *fake_timer_new(void *opaque, GpuTimerFn *fn, void *fn_opaque)
{
    FakeHost *fh = opaque;
    GpuTimer *t;

    g_assert(fh->ntimers < FAKE_TIMERS);
    t = &fh->timers[fh->ntimers++];
    t->fn = fn;
    t->opaque = fn_opaque;
    return t;
}

static void fake_timer_mod(GpuTimer *t, uint64_t deadline_ns)
{
    t->armed = true;
    t->deadline = deadline_ns;
}

static void fake_timer_del(GpuTimer *t)
{
    t->armed = false;
}

static void fake_timer_free(GpuTimer *t)
{
    t->armed = false;
    t->fn = NULL;
}

void fake_host_step(FakeHost *fh, uint64_t ns)
{
    uint64_t end = fh->now_ns + ns;

    for (;;) {
        GpuTimer *next = NULL;

        for (unsigned i = 0; i < fh->ntimers; i++) {
            GpuTimer *t = &fh->timers[i];

            if (t->armed && t->deadline <= end &&
                (!next || t->deadline < next->deadline)) {
                next = t;
            }
        }
        if (!next) {
            break;
        }
        fh->now_ns = MAX(fh->now_ns, next->deadline);
        next->armed = false;
        next->fn(next->opaque);
    }
    fh->now_ns = MAX(fh->now_ns, end);     /* reads may have moved it on */
}

static const GpuHostOps fake_ops = {
    .dma_read = fake_dma_read,
    .dma_write = fake_dma_write,
    .set_irq = fake_set_irq,
    .now_ns = fake_now_ns,
    .log = fake_log,
    .trace = fake_trace,
    .trace_wanted = fake_trace_wanted,
    .trace_text = fake_trace_text,
    .timer_new = fake_timer_new,
    .timer_mod = fake_timer_mod,
    .timer_del = fake_timer_del,
    .timer_free = fake_timer_free,
};

FakeHost *fake_host_new(void)
{
    FakeHost *fh = g_new0(FakeHost, 1);

    fh->host.ops = &fake_ops;
    fh->host.opaque = fh;
    fh->ram = g_malloc0(FAKE_RAM_SIZE);
    fh->ram_size = FAKE_RAM_SIZE;
    return fh;
}

void fake_host_grow_ram(FakeHost *fh, size_t size)
{
    if (size > fh->ram_size) {
        fh->ram = g_realloc(fh->ram, size);
        memset(fh->ram + fh->ram_size, 0, size - fh->ram_size);
        fh->ram_size = size;
    }
}

void fake_host_free(FakeHost *fh)
{
    g_free(fh->ram);
    g_free(fh->last_log);
    for (unsigned i = 0; i < FAKE_TRACE_EVENTS; i++) {
        g_free(fh->last_trace_text[i]);
    }
    g_free(fh);
}
