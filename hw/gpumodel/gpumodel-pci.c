/*
 * gpumodel: the host interface of a model inside a QEMU PCI device.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "hw/pci/msi.h"
#include "gpumodel-pci.h"
#include "trace.h"

static const char *gpumodel_pci_name(GpuModelPciHost *h)
{
    DeviceState *dev = DEVICE(h->pdev);

    return dev->id ? dev->id : object_get_typename(OBJECT(dev));
}

static int gpumodel_pci_dma_read(void *opaque, uint64_t addr, void *buf,
                                 size_t len)
{
    GpuModelPciHost *h = opaque;

    return pci_dma_read(h->pdev, addr, buf, len) == MEMTX_OK ? 0 : -1;
}

static int gpumodel_pci_dma_write(void *opaque, uint64_t addr,
                                  const void *buf, size_t len)
{
    GpuModelPciHost *h = opaque;

    return pci_dma_write(h->pdev, addr, buf, len) == MEMTX_OK ? 0 : -1;
}

/*
 * The one place that turns a model's level into a bus interrupt: MSI sends
 * a message on each rising edge, INTx follows the level.  During reset the
 * level is only recorded; the hold phase lowers the pin.
 */
static void gpumodel_pci_set_irq(void *opaque, bool level)
{
    GpuModelPciHost *h = opaque;
    bool rising = level && !h->irq_level;

    h->irq_level = level;
    trace_gpumodel_irq(gpumodel_pci_name(h), level, msi_enabled(h->pdev));
    if (device_is_in_reset(DEVICE(h->pdev))) {
        return;
    }
    if (msi_enabled(h->pdev)) {
        if (rising) {
            msi_notify(h->pdev, 0);
        }
    } else {
        pci_set_irq(h->pdev, level);
    }
}

static uint64_t gpumodel_pci_now_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void gpumodel_pci_log(void *opaque, GpuLogKind kind, const char *msg)
{
    GpuModelPciHost *h = opaque;
    bool guest = kind == GPU_LOG_GUEST_ERROR;

    qemu_log_mask(guest ? LOG_GUEST_ERROR : LOG_UNIMP, "%s: %s\n",
                  gpumodel_pci_name(h), msg);
    trace_gpumodel_log(gpumodel_pci_name(h), guest ? "guest error" : "unimp",
                       msg);
}

/* GpuTimer is QEMU's QEMUTimer on the virtual clock. */
static GpuTimer *gpumodel_pci_timer_new(void *opaque, GpuTimerFn *fn,
                                        void *fn_opaque)
{
    GpuModelPciHost *h = opaque;
    QEMUTimer *t = timer_new_ns(QEMU_CLOCK_VIRTUAL, fn, fn_opaque);

    /* Models create a fixed set of timers at realize. */
    assert(h->ntimers < GPUMODEL_PCI_TIMERS);
    h->timers[h->ntimers++] = t;
    return (GpuTimer *)t;
}

static void gpumodel_pci_timer_mod(GpuTimer *t, uint64_t deadline_ns)
{
    /* QEMU's deadlines are signed: one past INT64_MAX would fire at once. */
    timer_mod((QEMUTimer *)t, MIN(deadline_ns, (uint64_t)INT64_MAX));
}

static void gpumodel_pci_timer_del(GpuTimer *t)
{
    timer_del((QEMUTimer *)t);
}

/* Only at unrealize: the list is not used after that. */
static void gpumodel_pci_timer_free(GpuTimer *t)
{
    timer_free((QEMUTimer *)t);
}

static void gpumodel_pci_trace(void *opaque, unsigned event, uint64_t a,
                               uint64_t b, uint64_t c)
{
    GpuModelPciHost *h = opaque;

    if (h->trace) {
        h->trace(event, a, b, c);
    }
}

static bool gpumodel_pci_trace_wanted(void *opaque, unsigned event)
{
    GpuModelPciHost *h = opaque;

    return h->trace_wanted && h->trace_wanted(event);
}

static void gpumodel_pci_trace_text(void *opaque, unsigned event, uint64_t a,
                                    uint64_t b, const char *text)
{
    GpuModelPciHost *h = opaque;

    if (h->trace_text) {
        h->trace_text(event, a, b, text);
    }
}

static const GpuHostOps gpumodel_pci_host_ops = {
    .dma_read = gpumodel_pci_dma_read,
    .dma_write = gpumodel_pci_dma_write,
    .set_irq = gpumodel_pci_set_irq,
    .now_ns = gpumodel_pci_now_ns,
    .log = gpumodel_pci_log,
    .timer_new = gpumodel_pci_timer_new,
    .timer_mod = gpumodel_pci_timer_mod,
    .timer_del = gpumodel_pci_timer_del,
    .timer_free = gpumodel_pci_timer_free,
    .trace = gpumodel_pci_trace,
    .trace_wanted = gpumodel_pci_trace_wanted,
    .trace_text = gpumodel_pci_trace_text,
};

void gpumodel_pci_host_init(GpuModelPciHost *h, PCIDevice *pdev,
                            GpuHost *host)
{
    h->pdev = pdev;
    h->irq_level = false;
    h->trace = NULL;
    h->trace_wanted = NULL;
    h->trace_text = NULL;
    h->ntimers = 0;
    host->ops = &gpumodel_pci_host_ops;
    host->opaque = h;
}

void gpumodel_pci_host_reset_hold(GpuModelPciHost *h)
{
    h->irq_level = false;
    pci_set_irq(h->pdev, 0);
}

static int gpumodel_pci_host_pre_save(void *opaque)
{
    GpuModelPciHost *h = opaque;

    for (unsigned i = 0; i < h->ntimers; i++) {
        h->deadline[i] = timer_expire_time_ns(h->timers[i]);
    }
    return 0;
}

/*
 * Deadlines are on QEMU_CLOCK_VIRTUAL, which migrates with the machine, so
 * a timer fires at the same guest time as it would have at the source.
 */
static int gpumodel_pci_host_post_load(void *opaque, int version_id)
{
    GpuModelPciHost *h = opaque;

    for (unsigned i = 0; i < h->ntimers; i++) {
        if (h->deadline[i] < 0) {
            timer_del(h->timers[i]);
        } else {
            timer_mod(h->timers[i], h->deadline[i]);
        }
    }
    return 0;
}

int gpumodel_pci_state_refused(const char *name, char *why)
{
    error_report("%s: incoming state rejected: %s", name, why);
    g_free(why);
    return -EINVAL;
}

const VMStateDescription vmstate_gpumodel_pci_host = {
    .name = "gpumodel-pci-host",
    .version_id = 0,
    .minimum_version_id = 0,
    .pre_save = gpumodel_pci_host_pre_save,
    .post_load = gpumodel_pci_host_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(irq_level, GpuModelPciHost),
        /* The destination's model made the same timers: check the count. */
        VMSTATE_UINT32_EQUAL(ntimers, GpuModelPciHost, NULL),
        VMSTATE_INT64_ARRAY(deadline, GpuModelPciHost, GPUMODEL_PCI_TIMERS),
        VMSTATE_END_OF_LIST()
    },
};
