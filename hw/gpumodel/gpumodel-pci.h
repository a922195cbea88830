/*
 * gpumodel: the host interface (host.h) of a model inside a QEMU PCI device.
 *
 * Guest memory through the device's bus-master address space, interrupts
 * as MSI (a message per rising edge) or INTx (the level), the virtual
 * clock and its timers, logs as qemu_log_mask plus a trace event.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_GPUMODEL_PCI_H
#define HW_GPUMODEL_GPUMODEL_PCI_H

#include "hw/pci/pci_device.h"
#include "migration/vmstate.h"
#include "qemu/timer.h"
#include "host.h"

typedef void GpuModelTraceFn(unsigned event, uint64_t a, uint64_t b,
                             uint64_t c);
typedef bool GpuModelTraceWantedFn(unsigned event);
typedef void GpuModelTraceTextFn(unsigned event, uint64_t a, uint64_t b,
                                 const char *text);

/* Enough for intel-gpu: an engine's slice timer each, OA, the irq drills. */
#define GPUMODEL_PCI_TIMERS 16

typedef struct GpuModelPciHost {
    PCIDevice *pdev;
    bool irq_level;         /* the model's output, as last set */
    GpuModelTraceFn *trace; /* the device's map of model events, or NULL */
    GpuModelTraceWantedFn *trace_wanted;    /* ... of its text events */
    GpuModelTraceTextFn *trace_text;
    /*
     * The model's timers in creation order, which realize makes the same
     * on both ends of a migration, and their deadlines (-1: not armed) as
     * last saved or loaded.
     */
    QEMUTimer *timers[GPUMODEL_PCI_TIMERS];
    uint32_t ntimers;
    int64_t deadline[GPUMODEL_PCI_TIMERS];
} GpuModelPciHost;

/* The interrupt output and the armed timers of the model. */
extern const VMStateDescription vmstate_gpumodel_pci_host;

#define VMSTATE_GPUMODEL_PCI_HOST(_f, _s) \
    VMSTATE_STRUCT(_f, _s, 0, vmstate_gpumodel_pci_host, GpuModelPciHost)

/*
 * A model's post-load check refused the incoming state for @why: report
 * it for device @name and fail the load (frees @why).
 */
int gpumodel_pci_state_refused(const char *name, char *why);

/* Fill @host so that the model uses @pdev through @h. */
void gpumodel_pci_host_init(GpuModelPciHost *h, PCIDevice *pdev,
                            GpuHost *host);
/* The reset hold phase: the output is low and so is the pin. */
void gpumodel_pci_host_reset_hold(GpuModelPciHost *h);

#endif
