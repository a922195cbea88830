/*
 * gpumodel host interface: everything a device model needs from the world.
 *
 * The models under hw/gpumodel/intel and hw/gpumodel/nvidia include no QEMU
 * header.  They reach guest memory, the interrupt line, the clock and the
 * logs only through a GpuHost, which the QEMU glue (*-pci.c) implements with
 * pci_dma_*, MSI/INTx, QEMU_CLOCK_VIRTUAL and qemu_log_mask, and which the
 * unit tests implement with a RAM array and a manual clock.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_HOST_H
#define HW_GPUMODEL_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum GpuLogKind {
    GPU_LOG_GUEST_ERROR,    /* the guest did something the hardware rejects */
    GPU_LOG_UNIMP,          /* the guest used something not modelled */
} GpuLogKind;

typedef struct GpuTimer GpuTimer;     /* owned by the host */
typedef void GpuTimerFn(void *opaque);

typedef struct GpuHostOps {
    /*
     * Bus-master access to guest physical memory.  Return 0 on success,
     * -1 if any part of the range could not be accessed (the model turns
     * that into the hardware's error report, never into an assert).
     */
    int (*dma_read)(void *opaque, uint64_t addr, void *buf, size_t len);
    int (*dma_write)(void *opaque, uint64_t addr, const void *buf,
                     size_t len);
    /* Level of the device's interrupt output (MSI is edge-made by host). */
    void (*set_irq)(void *opaque, bool level);
    /* Guest-visible time in nanoseconds (QEMU_CLOCK_VIRTUAL in QEMU). */
    uint64_t (*now_ns)(void *opaque);
    /* One line of log, without trailing newline. */
    void (*log)(void *opaque, GpuLogKind kind, const char *msg);
    /*
     * Timers on the same clock as now_ns(): @fn(@fn_opaque) runs from the
     * host's main loop once the clock reaches the deadline.
     */
    GpuTimer *(*timer_new)(void *opaque, GpuTimerFn *fn, void *fn_opaque);
    void (*timer_mod)(GpuTimer *t, uint64_t deadline_ns);
    void (*timer_del)(GpuTimer *t);
    void (*timer_free)(GpuTimer *t);
    /*
     * Optional: a model event for tracing.  @event is the model's own
     * number (e.g. IntelTraceEvent); the host maps it to a trace event.
     */
    void (*trace)(void *opaque, unsigned event, uint64_t a, uint64_t b,
                  uint64_t c);
    /*
     * Optional: whether the host traces @event, which a model asks
     * before it builds an event's text; and an event with a text.
     */
    bool (*trace_wanted)(void *opaque, unsigned event);
    void (*trace_text)(void *opaque, unsigned event, uint64_t a,
                       uint64_t b, const char *text);
} GpuHostOps;

typedef struct GpuHost {
    const GpuHostOps *ops;
    void *opaque;
} GpuHost;

static inline int gpu_host_dma_read(const GpuHost *h, uint64_t addr,
                                    void *buf, size_t len)
{
    return h->ops->dma_read(h->opaque, addr, buf, len);
}

static inline int gpu_host_dma_write(const GpuHost *h, uint64_t addr,
                                     const void *buf, size_t len)
{
    return h->ops->dma_write(h->opaque, addr, buf, len);
}

static inline uint64_t gpu_host_now_ns(const GpuHost *h)
{
    return h->ops->now_ns(h->opaque);
}

static inline void gpu_host_set_irq(const GpuHost *h, bool level)
{
    h->ops->set_irq(h->opaque, level);
}

static inline GpuTimer *gpu_host_timer_new(const GpuHost *h, GpuTimerFn *fn,
                                           void *fn_opaque)
{
    return h->ops->timer_new(h->opaque, fn, fn_opaque);
}

static inline void gpu_host_timer_mod(const GpuHost *h, GpuTimer *t,
                                      uint64_t deadline_ns)
{
    h->ops->timer_mod(t, deadline_ns);
}

static inline void gpu_host_timer_del(const GpuHost *h, GpuTimer *t)
{
    h->ops->timer_del(t);
}

static inline void gpu_host_timer_free(const GpuHost *h, GpuTimer *t)
{
    h->ops->timer_free(t);
}

static inline void gpu_host_trace(const GpuHost *h, unsigned event,
                                  uint64_t a, uint64_t b, uint64_t c)
{
    if (h->ops->trace) {
        h->ops->trace(h->opaque, event, a, b, c);
    }
}

static inline bool gpu_host_trace_wanted(const GpuHost *h, unsigned event)
{
    return h->ops->trace_wanted && h->ops->trace_text &&
           h->ops->trace_wanted(h->opaque, event);
}

static inline void gpu_host_trace_text(const GpuHost *h, unsigned event,
                                       uint64_t a, uint64_t b,
                                       const char *text)
{
    if (h->ops->trace_text) {
        h->ops->trace_text(h->opaque, event, a, b, text);
    }
}

void gpu_host_log(const GpuHost *h, GpuLogKind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
