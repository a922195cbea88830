/*
 * intel-gpu: QEMU PCI glue for the Gen11 "Ice Lake" GT model.
 *
 * The model (hw/gpumodel/intel) holds the GPU; this file gives it a PCI
 * body at 0/2/0: config space and capabilities, the three BARs, interrupt
 * delivery, properties, reset and tracing.
 *
 *   BAR0 GTTMMADR  16 MiB: registers (first 2 MiB), GGTT PTEs at +8 MiB
 *   BAR2 GMADR    256 MiB: aperture, through the GGTT to guest memory
 *   BAR4 IOBAR     64 B:   MMIO_INDEX/MMIO_DATA window onto BAR0
 *
 * Properties: see intel_gpu_properties and docs/intel-gpu.rst.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/pci/pci_device.h"
#include "hw/pci/msi.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "qapi/qapi-commands-gpumodel.h"
#include "system/dma.h"
#include "hw/gpumodel/intel-gpu-regs.h"
#include "intel/intel-gpu.h"
#include "gpumodel-pci.h"
#include "intel-gpu-vmstate.h"
#include "trace.h"

#define TYPE_INTEL_GPU "intel-gpu"
OBJECT_DECLARE_SIMPLE_TYPE(IntelGpuPci, INTEL_GPU)

struct IntelGpuPci {
    PCIDevice parent_obj;

    /* properties */
    IntelGpuConfig cfg;

    MemoryRegion gttmmadr;      /* BAR0 container */
    MemoryRegion mmio;
    MemoryRegion gsm;
    MemoryRegion bar0_hole;
    MemoryRegion gmadr;         /* BAR2 */
    MemoryRegion iobar;         /* BAR4 */
    uint32_t mmio_index;        /* IOBAR MMIO_INDEX */
    GpuModelPciHost host;

    IntelGpu *gpu;
};

/* ---- BAR0: registers ---- */

static uint64_t intel_gpu_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    IntelGpuPci *s = opaque;
    unsigned shift = (addr & 3) * 8;
    uint64_t val = intel_mmio_read(s->gpu, addr) >> shift;

    val &= MAKE_64BIT_MASK(0, size * 8);
    trace_intel_gpu_mmio_read(addr, val, size);
    return val;
}

static void intel_gpu_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                                 unsigned size)
{
    IntelGpuPci *s = opaque;
    unsigned shift = (addr & 3) * 8;

    trace_intel_gpu_mmio_write(addr, val, size);
    intel_mmio_write(s->gpu, addr, val << shift,
                     MAKE_64BIT_MASK(shift, size * 8));
}

/* 8-byte accesses are split in two dword accesses, low first. */
static const MemoryRegionOps intel_gpu_mmio_ops = {
    .read = intel_gpu_mmio_read,
    .write = intel_gpu_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

/* ---- BAR0 + 8 MiB: GGTT page-table entries ---- */

static uint64_t intel_gpu_gsm_read(void *opaque, hwaddr addr, unsigned size)
{
    IntelGpuPci *s = opaque;
    uint64_t pte = intel_ggtt_read_pte(s->gpu, addr / 8);
    uint64_t val = size == 8 ? pte : extract64(pte, (addr & 4) * 8, 32);

    trace_intel_gpu_ggtt_read(addr / 8, pte);
    return val;
}

static void intel_gpu_gsm_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size)
{
    IntelGpuPci *s = opaque;
    uint64_t pte = val;

    if (size == 4) {
        pte = deposit64(intel_ggtt_read_pte(s->gpu, addr / 8),
                        (addr & 4) * 8, 32, val);
    }
    trace_intel_gpu_ggtt_write(addr / 8, pte);
    intel_ggtt_write_pte(s->gpu, addr / 8, pte);
}

static const MemoryRegionOps intel_gpu_gsm_ops = {
    .read = intel_gpu_gsm_read,
    .write = intel_gpu_gsm_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 8 },
    .impl = { .min_access_size = 4, .max_access_size = 8 },
};

/* ---- BAR0 2..8 MiB: nothing decodes here ---- */

static uint64_t intel_gpu_hole_read(void *opaque, hwaddr addr, unsigned size)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: read of reserved GTTMMADR offset "
                  "0x%" HWADDR_PRIx "\n", TYPE_INTEL_GPU, addr);
    return 0;
}

static void intel_gpu_hole_write(void *opaque, hwaddr addr, uint64_t val,
                                 unsigned size)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: write of reserved GTTMMADR offset "
                  "0x%" HWADDR_PRIx "\n", TYPE_INTEL_GPU, addr);
}

static const MemoryRegionOps intel_gpu_hole_ops = {
    .read = intel_gpu_hole_read,
    .write = intel_gpu_hole_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
};

/* ---- BAR2: aperture ---- */

static uint64_t intel_gpu_gmadr_read(void *opaque, hwaddr addr, unsigned size)
{
    IntelGpuPci *s = opaque;
    uint64_t val = 0;

    intel_aperture_rw(s->gpu, addr, &val, size, false);
    val = le64_to_cpu(val);
    trace_intel_gpu_aperture_read(addr, val, size);
    return val;
}

static void intel_gpu_gmadr_write(void *opaque, hwaddr addr, uint64_t val,
                                  unsigned size)
{
    IntelGpuPci *s = opaque;
    uint64_t le = cpu_to_le64(val);

    trace_intel_gpu_aperture_write(addr, val, size);
    intel_aperture_rw(s->gpu, addr, &le, size, true);
}

static const MemoryRegionOps intel_gpu_gmadr_ops = {
    .read = intel_gpu_gmadr_read,
    .write = intel_gpu_gmadr_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

/* ---- BAR4: MMIO_INDEX / MMIO_DATA ---- */

/*
 * MMIO_DATA reaches the BAR0 dword MMIO_INDEX names: a register or a GGTT
 * PTE half.  Returns false for an index that decodes to nothing.
 */
static bool intel_gpu_iobar_data(IntelGpuPci *s, bool write, uint32_t *val)
{
    uint32_t off = s->mmio_index & ~3u;

    if (off < INTEL_MMIO_SIZE) {
        if (write) {
            intel_gpu_mmio_write(s, off, *val, 4);
        } else {
            *val = intel_gpu_mmio_read(s, off, 4);
        }
        return true;
    }
    if (off >= INTEL_GSM_OFFSET && off - INTEL_GSM_OFFSET < INTEL_GSM_SIZE) {
        if (write) {
            intel_gpu_gsm_write(s, off - INTEL_GSM_OFFSET, *val, 4);
        } else {
            *val = intel_gpu_gsm_read(s, off - INTEL_GSM_OFFSET, 4);
        }
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "%s: MMIO_INDEX 0x%x decodes to nothing\n",
                  TYPE_INTEL_GPU, s->mmio_index);
    return false;
}

static uint64_t intel_gpu_iobar_read(void *opaque, hwaddr addr, unsigned size)
{
    IntelGpuPci *s = opaque;
    uint32_t val = 0;

    switch (addr) {
    case INTEL_IOBAR_MMIO_INDEX:
        val = s->mmio_index;
        break;
    case INTEL_IOBAR_MMIO_DATA:
        intel_gpu_iobar_data(s, false, &val);
        break;
    }
    trace_intel_gpu_iobar_read(addr, val);
    return val;
}

static void intel_gpu_iobar_write(void *opaque, hwaddr addr, uint64_t val,
                                  unsigned size)
{
    IntelGpuPci *s = opaque;
    uint32_t v = val;

    trace_intel_gpu_iobar_write(addr, val);
    switch (addr) {
    case INTEL_IOBAR_MMIO_INDEX:
        s->mmio_index = v;
        break;
    case INTEL_IOBAR_MMIO_DATA:
        intel_gpu_iobar_data(s, true, &v);
        break;
    }
}

/* The rest of the 64-byte window is reserved: reads 0, writes ignored. */
static const MemoryRegionOps intel_gpu_iobar_ops = {
    .read = intel_gpu_iobar_read,
    .write = intel_gpu_iobar_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

/* ---- PCI configuration space ---- */

#define PMCS_NO_SOFT_RESET  (1u << 3)   /* D3hot->D0 keeps device state */
#define SWSMI_TRIGGER       (1u << 0)
#define SWSCI_TRIGGER       (1u << 0)

/*
 * Registers of ICL PRM Vol 13's 0/2/0 table (GFX PCI Registers) that
 * QEMU's PCI core does not own, with their reset values and write masks.
 * Mirrors of host-bridge registers (MGGC0, DEVEN0) are read-only here, as
 * on hardware.
 */
typedef struct IntelGpuCfgReg {
    uint8_t offset;
    uint8_t size;
    uint32_t wmask;
} IntelGpuCfgReg;

static const IntelGpuCfgReg intel_gpu_cfg_regs[] = {
    { INTEL_PCI_CAPID0_A, 4, 0 },
    { INTEL_PCI_CAPID0_B, 4, 0 },
    { INTEL_PCI_MGGC0, 4, 0 },
    { INTEL_PCI_DEVEN0, 4, 0 },
    { INTEL_PCI_DEV2CTL, 4, 0 },
    { INTEL_PCI_MSAC, 4, 0 },
    { INTEL_PCI_BDSM, 4, INTEL_PCI_BDSM_ADDR_MASK | INTEL_BDSM_LOCK },
    { INTEL_PCI_BDSM_HI, 4, 0xffffffff },
    { INTEL_PCI_VTDBAR_LSB, 4, 0 },
    { INTEL_PCI_VTDBAR_MSB, 4, 0 },
    { INTEL_PCI_SWSMI, 4, 0xffffffff },
    { INTEL_PCI_GSE, 4, 0xffffffff },
    { INTEL_PCI_SWSCI, 4, 0xffffffff },
    { INTEL_PCI_ASLS, 4, 0xffffffff },
};

static void intel_gpu_cfg_reset(IntelGpuPci *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint8_t *c = pdev->config;

    for (unsigned i = 0; i < ARRAY_SIZE(intel_gpu_cfg_regs); i++) {
        const IntelGpuCfgReg *r = &intel_gpu_cfg_regs[i];

        memset(c + r->offset, 0, r->size);
        pci_set_long(pdev->wmask + r->offset, r->wmask);
    }
    pci_set_long(c + INTEL_PCI_MGGC0, intel_gpu_ggc(&s->cfg));
    pci_set_long(c + INTEL_PCI_DEVEN0, INTEL_DEVEN_D0EN | INTEL_DEVEN_D2EN);
    pci_set_long(c + INTEL_PCI_MSAC,
                 GPU_FIELD_DP32(0, INTEL_PCI_MSAC, APSZ, INTEL_MSAC_APSZ_256M));
    if (pdev->cap_present & QEMU_PCI_CAP_PM) {
        pci_set_word(c + pdev->pm_cap + PCI_PM_CTRL, PMCS_NO_SOFT_RESET);
    }
}

static uint32_t intel_gpu_config_read(PCIDevice *pdev, uint32_t addr, int len)
{
    uint32_t val = pci_default_read_config(pdev, addr, len);

    trace_intel_gpu_config_read(addr, val, len);
    return val;
}

static void intel_gpu_config_write(PCIDevice *pdev, uint32_t addr,
                                   uint32_t val, int len)
{
    trace_intel_gpu_config_write(addr, val, len);
    pci_default_write_config(pdev, addr, val, len);
    if (pci_is_express(pdev)) {
        pcie_cap_flr_write_config(pdev, addr, val, len);
    }

    /* A locked BDSM keeps its value until reset. */
    if (pci_get_long(pdev->config + INTEL_PCI_BDSM) & INTEL_BDSM_LOCK) {
        pci_set_long(pdev->wmask + INTEL_PCI_BDSM, 0);
        pci_set_long(pdev->wmask + INTEL_PCI_BDSM_HI, 0);
    }
    if (range_covers_byte(addr, len, INTEL_PCI_SWSMI) &&
        (pci_get_long(pdev->config + INTEL_PCI_SWSMI) & SWSMI_TRIGGER)) {
        qemu_log_mask(LOG_UNIMP, "%s: SWSMI: no SMI handler to trigger\n",
                      TYPE_INTEL_GPU);
    }
    if (range_covers_byte(addr, len, INTEL_PCI_SWSCI) &&
        (pci_get_long(pdev->config + INTEL_PCI_SWSCI) & SWSCI_TRIGGER)) {
        qemu_log_mask(LOG_UNIMP, "%s: SWSCI: no ACPI handler to trigger\n",
                      TYPE_INTEL_GPU);
    }
}

/*
 * Capability chain 0x40 (vendor) -> 0x70 (PCI Express, on a PCIe bus) ->
 * 0xAC (MSI) -> 0xD0 (power management).  QEMU links each new capability
 * at the head, so they are added in reverse.
 */
static bool intel_gpu_init_caps(IntelGpuPci *s, Error **errp)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    int ret;

    if (pci_pm_init(pdev, INTEL_PCI_PM_CAP, errp) < 0) {
        return false;
    }
    /* PMC: version 1.1, device-specific init; no D1/D2, no PME. */
    pci_set_word(pdev->config + pdev->pm_cap + PCI_PM_PMC, 0x0022);
    pci_set_word(pdev->wmask + pdev->pm_cap + PCI_PM_CTRL,
                 PCI_PM_CTRL_STATE_MASK);

    /* One vector, 32-bit address, per-vector mask (MC/MA/MD/mask/pending). */
    ret = msi_init(pdev, INTEL_PCI_MSI_CAP, 1, false, true, errp);
    if (ret == -ENOTSUP) {
        /* The machine has no working MSI: INTx only, as i915 allows. */
        error_free(*errp);
        *errp = NULL;
    } else if (ret < 0) {
        return false;
    }

    if (pci_bus_is_express(pci_get_bus(pdev))) {
        if (pcie_endpoint_cap_init(pdev, INTEL_PCI_PCIE_CAP) < 0) {
            error_setg(errp, "cannot add the PCI Express capability");
            return false;
        }
        /* Function level reset: the device's cold reset (Resettable). */
        pcie_cap_flr_init(pdev);
    } else {
        pdev->cap_present &= ~QEMU_PCI_CAP_EXPRESS;
    }

    /* CAPID0: vendor-specific, 12 bytes (CAPID0_A/B fuse words), v1. */
    if (pci_add_capability(pdev, PCI_CAP_ID_VNDR, INTEL_PCI_CAPID0, 12,
                           errp) < 0) {
        return false;
    }
    pci_set_word(pdev->config + INTEL_PCI_CAPID0 + 2, 0x010c);
    return true;
}

/* ---- QMP: fault drills ---- */

static IntelGpuPci *intel_gpu_find(const char *id, Error **errp)
{
    Object *obj = object_resolve_path_type(id, TYPE_INTEL_GPU, NULL);

    if (!obj) {
        error_setg(errp, "'%s' is not an intel-gpu device", id);
        return NULL;
    }
    return INTEL_GPU(obj);
}

void qmp_x_intel_gpu_inject_irq(const char *id, uint8_t engine_class,
                                uint8_t instance, uint16_t bits, Error **errp)
{
    IntelGpuPci *s = intel_gpu_find(id, errp);

    trace_intel_gpu_qmp_inject_irq(engine_class, instance, bits);
    if (s && !intel_irq_raise(s->gpu, engine_class, instance, bits)) {
        error_setg(errp, "intel-gpu has no interrupt source of class %u, "
                   "instance %u", engine_class, instance);
    }
}

void qmp_x_intel_gpu_drill_irq(const char *id, uint8_t engine_class,
                               uint8_t instance, uint32_t count,
                               bool has_delay_ns, uint64_t delay_ns,
                               Error **errp)
{
    IntelGpuPci *s = intel_gpu_find(id, errp);

    trace_intel_gpu_qmp_drill_irq(engine_class, instance, count, delay_ns);
    if (s && !intel_irq_drill(s->gpu, engine_class, instance, count,
                              delay_ns)) {
        error_setg(errp, "intel-gpu has no interrupt source of class %u, "
                   "instance %u", engine_class, instance);
    }
}

static void intel_gpu_no_engine(uint8_t engine_class, uint8_t instance,
                                Error **errp)
{
    error_setg(errp, "intel-gpu has no engine of class %u, instance %u",
               engine_class, instance);
}

void qmp_x_intel_gpu_drill_hang(const char *id, uint8_t engine_class,
                                uint8_t instance, Error **errp)
{
    IntelGpuPci *s = intel_gpu_find(id, errp);

    trace_intel_gpu_qmp_drill_hang(engine_class, instance);
    if (s && !intel_engine_drill_hang(s->gpu, engine_class, instance)) {
        intel_gpu_no_engine(engine_class, instance, errp);
    }
}

void qmp_x_intel_gpu_drill_csb(const char *id, uint8_t engine_class,
                               uint8_t instance,
                               IntelGpuCsbDrillAction action, Error **errp)
{
    static const IntelCsbDrill drill[INTEL_GPU_CSB_DRILL_ACTION__MAX] = {
        [INTEL_GPU_CSB_DRILL_ACTION_DROP] = INTEL_CSB_DRILL_DROP,
        [INTEL_GPU_CSB_DRILL_ACTION_CORRUPT] = INTEL_CSB_DRILL_CORRUPT,
    };
    IntelGpuPci *s = intel_gpu_find(id, errp);

    trace_intel_gpu_qmp_drill_csb(engine_class, instance,
                                  IntelGpuCsbDrillAction_str(action));
    if (s && !intel_engine_drill_csb(s->gpu, engine_class, instance,
                                     drill[action])) {
        intel_gpu_no_engine(engine_class, instance, errp);
    }
}

void qmp_x_intel_gpu_drill_dma(const char *id, uint8_t engine_class,
                               uint8_t instance, uint32_t count, Error **errp)
{
    IntelGpuPci *s = intel_gpu_find(id, errp);

    trace_intel_gpu_qmp_drill_dma(engine_class, instance, count);
    if (s && !intel_engine_drill_dma(s->gpu, engine_class, instance,
                                     count)) {
        intel_gpu_no_engine(engine_class, instance, errp);
    }
}

void qmp_x_intel_gpu_drill_oa_tail_stall(const char *id, bool stall,
                                         bool has_duration_ns,
                                         uint64_t duration_ns, Error **errp)
{
    IntelGpuPci *s = intel_gpu_find(id, errp);

    trace_intel_gpu_qmp_drill_oa_tail_stall(stall, duration_ns);
    if (s) {
        intel_oa_drill_tail_stall(s->gpu, stall, duration_ns);
    }
}

void qmp_x_intel_gpu_drill_oa_overflow(const char *id, bool has_count,
                                       uint32_t count, Error **errp)
{
    IntelGpuPci *s = intel_gpu_find(id, errp);

    count = has_count ? count : 1;
    trace_intel_gpu_qmp_drill_oa_overflow(count);
    if (s) {
        intel_oa_drill_overflow(s->gpu, count);
    }
}

/* ---- QOM ---- */

/* The model's events (IntelTraceEvent) as trace events. */
static void intel_gpu_trace(unsigned event, uint64_t a, uint64_t b,
                            uint64_t c)
{
    switch ((IntelTraceEvent)event) {
    case INTEL_TRACE_ENGINE_KICK:
        trace_intel_gpu_engine_kick(a, b);
        break;
    case INTEL_TRACE_ENGINE_SLICE:
        trace_intel_gpu_engine_slice(a, b, c);
        break;
    case INTEL_TRACE_ENGINE_ERROR:
        trace_intel_gpu_engine_error(a, b, c);
        break;
    case INTEL_TRACE_EXECLIST_LOAD:
        trace_intel_gpu_execlist_load(a, b, c);
        break;
    case INTEL_TRACE_CONTEXT_STATUS:
        trace_intel_gpu_context_status(a, b, c);
        break;
    case INTEL_TRACE_OA_SAMPLING:
        trace_intel_gpu_oa_sampling(a, b, c);
        break;
    case INTEL_TRACE_GT_FREQUENCY:
        trace_intel_gpu_gt_frequency(a, b, c);
        break;
    case INTEL_TRACE_OA_DRILL:
        trace_intel_gpu_oa_drill(a == INTEL_OA_DRILL_STALL_END ?
                                 "tail stall ended, bytes published" :
                                 "forced overflow, left", b, c);
        break;
    case INTEL_TRACE_RC6:
        trace_intel_gpu_rc6(a, b, c);
        break;
    case INTEL_TRACE_PRIVILEGE:
        trace_intel_gpu_privilege_refused(a, b, c);
        break;
    case INTEL_TRACE_MEDIA_VFE:
        trace_intel_gpu_media_vfe_state(a, b, c);
        break;
    case INTEL_TRACE_EU_INST:
        /* A text event: intel_gpu_trace_text(). */
        break;
    }
}

static bool intel_gpu_trace_wanted(unsigned event)
{
    return event == INTEL_TRACE_EU_INST &&
           trace_event_get_state_backends(TRACE_INTEL_GPU_EU_INST);
}

static void intel_gpu_trace_text(unsigned event, uint64_t a, uint64_t b,
                                 const char *text)
{
    if (event == INTEL_TRACE_EU_INST) {
        trace_intel_gpu_eu_inst(a, b, text);
    }
}

static void intel_gpu_realize(PCIDevice *pdev, Error **errp)
{
    IntelGpuPci *s = INTEL_GPU(pdev);
    GpuHost host;
    g_autofree char *err = NULL;

    if (!intel_gpu_config_check(&s->cfg, &err)) {
        error_setg(errp, "%s", err);
        return;
    }
    if (PCI_FUNC(pdev->devfn) != 0) {
        error_setg(errp, "must be function 0 (i915 refuses other functions)");
        return;
    }

    pci_config_set_device_id(pdev->config, s->cfg.device_id);
    pci_set_word(pdev->config + PCI_SUBSYSTEM_VENDOR_ID, INTEL_GPU_VENDOR_ID);
    pci_set_word(pdev->config + PCI_SUBSYSTEM_ID, s->cfg.device_id);
    pci_config_set_interrupt_pin(pdev->config, 1);
    if (!intel_gpu_init_caps(s, errp)) {
        return;
    }

    gpumodel_pci_host_init(&s->host, pdev, &host);
    s->host.trace = intel_gpu_trace;
    s->host.trace_wanted = intel_gpu_trace_wanted;
    s->host.trace_text = intel_gpu_trace_text;
    s->gpu = intel_gpu_new(&s->cfg, &host);

    memory_region_init(&s->gttmmadr, OBJECT(s), "intel-gpu-gttmmadr",
                       INTEL_GTTMMADR_SIZE);
    memory_region_init_io(&s->mmio, OBJECT(s), &intel_gpu_mmio_ops, s,
                          "intel-gpu-mmio", INTEL_MMIO_SIZE);
    memory_region_init_io(&s->gsm, OBJECT(s), &intel_gpu_gsm_ops, s,
                          "intel-gpu-ggtt", INTEL_GSM_SIZE);
    memory_region_init_io(&s->bar0_hole, OBJECT(s), &intel_gpu_hole_ops, s,
                          "intel-gpu-reserved", INTEL_GTTMMADR_SIZE);
    memory_region_add_subregion_overlap(&s->gttmmadr, 0, &s->bar0_hole, -1);
    memory_region_add_subregion(&s->gttmmadr, 0, &s->mmio);
    memory_region_add_subregion(&s->gttmmadr, INTEL_GSM_OFFSET, &s->gsm);
    pci_register_bar(pdev, INTEL_GTTMMADR_BAR, PCI_BASE_ADDRESS_MEM_TYPE_64,
                     &s->gttmmadr);

    memory_region_init_io(&s->gmadr, OBJECT(s), &intel_gpu_gmadr_ops, s,
                          "intel-gpu-aperture", INTEL_GMADR_SIZE);
    pci_register_bar(pdev, INTEL_GMADR_BAR,
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->gmadr);

    memory_region_init_io(&s->iobar, OBJECT(s), &intel_gpu_iobar_ops, s,
                          "intel-gpu-iobar", INTEL_IOBAR_SIZE);
    pci_register_bar(pdev, INTEL_IOBAR_BAR, PCI_BASE_ADDRESS_SPACE_IO,
                     &s->iobar);

    intel_gpu_cfg_reset(s);
}

/* PCI Express on a PCIe bus (q35), conventional PCI elsewhere. */
static void intel_gpu_instance_init(Object *obj)
{
    PCI_DEVICE(obj)->cap_present |= QEMU_PCI_CAP_EXPRESS;
}

static void intel_gpu_exit(PCIDevice *pdev)
{
    IntelGpuPci *s = INTEL_GPU(pdev);

    msi_uninit(pdev);
    intel_gpu_free(s->gpu);
    s->gpu = NULL;
}

static void intel_gpu_reset_enter(Object *obj, ResetType type)
{
    IntelGpuPci *s = INTEL_GPU(obj);

    trace_intel_gpu_reset();
    intel_gpu_reset(s->gpu);
    intel_gpu_cfg_reset(s);
    s->mmio_index = 0;
}

static void intel_gpu_reset_hold(Object *obj, ResetType type)
{
    IntelGpuPci *s = INTEL_GPU(obj);

    gpumodel_pci_host_reset_hold(&s->host);
}

static void intel_gpu_get_unmodelled_count(Object *obj, Visitor *v,
                                           const char *name, void *opaque,
                                           Error **errp)
{
    IntelGpuPci *s = INTEL_GPU(obj);
    uint32_t n = s->gpu ? intel_mmio_unmodelled_count(s->gpu) : 0;

    visit_type_uint32(v, name, &n, errp);
}

static char *intel_gpu_get_unmodelled_list(Object *obj, Error **errp)
{
    IntelGpuPci *s = INTEL_GPU(obj);

    return s->gpu ? intel_mmio_unmodelled_list(s->gpu) : g_strdup("");
}

static const Property intel_gpu_properties[] = {
    DEFINE_PROP_UINT16("device-id", IntelGpuPci, cfg.device_id,
                       INTEL_GPU_DEVICE_ID_ICL_GT2),
    DEFINE_PROP_UINT8("slices", IntelGpuPci, cfg.slices, 1),
    DEFINE_PROP_UINT8("subslices", IntelGpuPci, cfg.subslices, 8),
    DEFINE_PROP_UINT8("eus-per-subslice", IntelGpuPci, cfg.eus_per_subslice,
                      8),
    DEFINE_PROP_UINT8("vdbox-mask", IntelGpuPci, cfg.vdbox_mask, 0),
    DEFINE_PROP_UINT8("vebox-mask", IntelGpuPci, cfg.vebox_mask, 0),
    DEFINE_PROP_UINT32("stolen-mb", IntelGpuPci, cfg.stolen_mb, 0),
};

static const VMStateDescription intel_gpu_vmstate = {
    .name = TYPE_INTEL_GPU,
    /*
     * QEMU checks the section's version only, not a nested structure's:
     * 1 keeps the 3D state as the commands' dwords (gen11-state.desc),
     * which a version 0 stream does not; 2 no longer has the preempted
     * contexts' pipeline state (intel-gpu/gfx-saved), which is in their
     * context images in guest memory now; 3 adds the EU threads'
     * notification registers and the media state's Per Thread Scratch
     * Space; 4 the binding table pool (3DSTATE_BINDING_TABLE_POOL_ALLOC).
     */
    .version_id = 4,
    .minimum_version_id = 4,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, IntelGpuPci),
        VMSTATE_UINT32(mmio_index, IntelGpuPci),
        VMSTATE_STRUCT_POINTER(gpu, IntelGpuPci, vmstate_intel_gpu_model,
                               IntelGpu),
        VMSTATE_GPUMODEL_PCI_HOST(host, IntelGpuPci),
        VMSTATE_END_OF_LIST()
    },
};

static void intel_gpu_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    pc->realize = intel_gpu_realize;
    pc->exit = intel_gpu_exit;
    pc->config_read = intel_gpu_config_read;
    pc->config_write = intel_gpu_config_write;
    pc->vendor_id = INTEL_GPU_VENDOR_ID;
    pc->device_id = INTEL_GPU_DEVICE_ID_ICL_GT2;
    pc->revision = INTEL_GPU_REVISION_ICL_D0;
    pc->class_id = PCI_CLASS_DISPLAY_VGA;
    rc->phases.enter = intel_gpu_reset_enter;
    rc->phases.hold = intel_gpu_reset_hold;

    dc->desc = "Intel Gen11 (Ice Lake) GPU";
    dc->vmsd = &intel_gpu_vmstate;
    set_bit(DEVICE_CATEGORY_DISPLAY, dc->categories);
    device_class_set_props(dc, intel_gpu_properties);
    object_class_property_set_description(klass, "device-id",
        "PCI device ID, one of the Ice Lake GT IDs (default 0x8a52, GT2)");
    object_class_property_set_description(klass, "slices",
        "GT slices (Gen11: 1)");
    object_class_property_set_description(klass, "subslices",
        "subslices per slice, 1-8 (fuse GT_SUBSLICE_DISABLE)");
    object_class_property_set_description(klass, "eus-per-subslice",
        "execution units per subslice, 1-8 (fuse EU_DISABLE)");
    object_class_property_set_description(klass, "vdbox-mask",
        "video decode engines present, bit n = VCSn (0: media fused off)");
    object_class_property_set_description(klass, "vebox-mask",
        "video enhancement engines present, bit n = VECSn");
    object_class_property_set_description(klass, "stolen-mb",
        "data stolen memory in MiB, a multiple of 32 (GGC.GMS; default 0)");

    object_class_property_add(klass, "unmodelled-mmio-count", "uint32",
                              intel_gpu_get_unmodelled_count, NULL, NULL,
                              NULL);
    object_class_property_set_description(klass, "unmodelled-mmio-count",
        "distinct unmodelled register offsets the guest touched (read-only)");
    object_class_property_add_str(klass, "x-unmodelled-mmio",
                                  intel_gpu_get_unmodelled_list, NULL);
    object_class_property_set_description(klass, "x-unmodelled-mmio",
        "those offsets, space separated (read-only)");
}

static const TypeInfo intel_gpu_types[] = {
    {
        .name = TYPE_INTEL_GPU,
        .parent = TYPE_PCI_DEVICE,
        .instance_size = sizeof(IntelGpuPci),
        .instance_init = intel_gpu_instance_init,
        .class_init = intel_gpu_class_init,
        .interfaces = (InterfaceInfo[]) {
            { INTERFACE_PCIE_DEVICE },
            { INTERFACE_CONVENTIONAL_PCI_DEVICE },
            { },
        },
    },
};

DEFINE_TYPES(intel_gpu_types)
