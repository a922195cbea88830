/*
 * nv-gpu: QEMU PCI glue for the NVIDIA G84-class model.
 *
 * The model (hw/gpumodel/nvidia) holds the GPU; this file gives it a PCI
 * body: config space and capabilities, the BARs, interrupt delivery,
 * properties, reset, migration, QMP drills and tracing.
 *
 *   BAR0      16 MiB: registers (PMC, PBUS, PTIMER, PCOUNTER, PFB,
 *                       PSTRAPS, PGRAPH.PM_CTRL, the write flush), the
 *                       VBIOS (PROM) and the PRAMIN window onto VRAM
 *   BAR1/2   256 MiB: VRAM aperture, 64-bit prefetchable
 *   BAR3/4    32 MiB: RAMIN aperture, 64-bit prefetchable
 *
 * VRAM is a RAM region the model reaches by pointer; BAR1 and BAR3 go
 * through the model, which translates them (nvidia/memory/bar.c).
 *
 * Properties: see nv_gpu_properties and docs/nv-gpu.rst.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qemu/host-utils.h"
#include "qemu/units.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/pci/pci_device.h"
#include "hw/pci/msi.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "qapi/qapi-commands-gpumodel.h"
#include "hw/gpumodel/nv-gpu-regs.h"
#include "nvidia/nv-gpu.h"
#include "gpumodel-pci.h"
#include "nv-gpu-vmstate.h"
#include "trace.h"

#define TYPE_NV_GPU "nv-gpu"
OBJECT_DECLARE_SIMPLE_TYPE(NvGpuPci, NV_GPU)

/* G84 layout (lspci of a GeForce 8600 GT): 0x60 PM, 0x68 MSI, 0x78 PCIe. */
#define NV_GPU_PM_CAP       0x60
#define NV_GPU_MSI_CAP      0x68
#define NV_GPU_PCIE_CAP     0x78
#define NV_GPU_REVISION     0xa1

#define NV_GPU_BAR0         0
#define NV_GPU_BAR1         1
#define NV_GPU_BAR3         3
#define NV_GPU_BAR1_SIZE    (256 * MiB)
#define NV_GPU_BAR3_SIZE    (32 * MiB)

struct NvGpuPci {
    PCIDevice parent_obj;

    /* properties */
    NvGpuConfig cfg;
    char *chipset;
    char *synth;                /* as set before realize */

    MemoryRegion bar0;
    MemoryRegion bar1;
    MemoryRegion bar3;
    MemoryRegion vram;          /* not mapped: reached through the model */
    GpuModelPciHost host;

    NvGpu *gpu;
};

/* ---- BAR0: registers ---- */

static uint64_t nv_gpu_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    NvGpuPci *s = opaque;
    uint64_t val = nv_gpu_read(s->gpu, addr & ~3) >> ((addr & 3) * 8);

    val &= MAKE_64BIT_MASK(0, size * 8);
    trace_nv_gpu_mmio_read(addr, val, size);
    return val;
}

/*
 * The model's registers are dwords.  A narrower write acts as the CPU's
 * read-modify-write of the dword would: merged into the value a read
 * returns (reads have no side effect beyond bringing counters up to date).
 */
static void nv_gpu_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    NvGpuPci *s = opaque;
    hwaddr dw = addr & ~3;
    uint32_t v = val;

    trace_nv_gpu_mmio_write(addr, val, size);
    if (size < 4) {
        unsigned shift = (addr & 3) * 8;

        v = deposit32(nv_gpu_read(s->gpu, dw), shift, size * 8, val);
    }
    nv_gpu_write(s->gpu, dw, v);
}

/* 8-byte accesses are split in two dword accesses, low first. */
static const MemoryRegionOps nv_gpu_mmio_ops = {
    .read = nv_gpu_mmio_read,
    .write = nv_gpu_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

/* ---- BAR1, BAR3: VRAM through the model's translation ---- */

static uint64_t nv_gpu_bar_mmio_read(NvGpuPci *s, unsigned bar, hwaddr addr,
                                     unsigned size)
{
    uint64_t val = nv_gpu_bar_read(s->gpu, bar, addr, size);

    trace_nv_gpu_bar_read(bar, addr, val, size);
    return val;
}

static uint64_t nv_gpu_bar1_read(void *opaque, hwaddr addr, unsigned size)
{
    return nv_gpu_bar_mmio_read(opaque, NV_GPU_BAR1, addr, size);
}

static uint64_t nv_gpu_bar3_read(void *opaque, hwaddr addr, unsigned size)
{
    return nv_gpu_bar_mmio_read(opaque, NV_GPU_BAR3, addr, size);
}

static void nv_gpu_bar1_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    trace_nv_gpu_bar_write(NV_GPU_BAR1, addr, val, size);
    nv_gpu_bar_write(((NvGpuPci *)opaque)->gpu, NV_GPU_BAR1, addr, val, size);
}

static void nv_gpu_bar3_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    trace_nv_gpu_bar_write(NV_GPU_BAR3, addr, val, size);
    nv_gpu_bar_write(((NvGpuPci *)opaque)->gpu, NV_GPU_BAR3, addr, val, size);
}

static const MemoryRegionOps nv_gpu_bar1_ops = {
    .read = nv_gpu_bar1_read,
    .write = nv_gpu_bar1_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

static const MemoryRegionOps nv_gpu_bar3_ops = {
    .read = nv_gpu_bar3_read,
    .write = nv_gpu_bar3_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

/* The model wrote VRAM: a live migration must send those pages again. */
static void nv_gpu_vram_written(void *opaque, uint64_t addr, uint64_t len)
{
    NvGpuPci *s = opaque;

    memory_region_set_dirty(&s->vram, addr, len);
}

/* ---- synthetic workload signals ---- */

/*
 * The "synth" property: the whole synthetic-signal configuration as
 * space- or ';'-separated entries DOM.N=PERIOD/HIGH[/PHASE]:
 *   DOM     domain 0-7, or * for every domain
 *   N       synthetic signal 0-7 (PCOUNTER signal 0x10 + N)
 *   PERIOD  cycles of the domain's clock, a power of two, 1-65536
 *   HIGH    cycles the signal is 1 at the start of each period, 0-PERIOD
 *   PHASE   cycles the pattern is advanced at cycle 0 (default 0)
 * Signals not listed are constant 0.  Later entries override earlier ones.
 */
typedef struct NvSynthSet {
    NvSynth s[NV_PCOUNTER_DOMAINS][NV_SIG_SYNTH_COUNT];
} NvSynthSet;

static bool nv_gpu_synth_parse_entry(const char *e, NvSynthSet *set,
                                     Error **errp)
{
    g_auto(GStrv) kv = g_strsplit(e, "=", 2);
    g_auto(GStrv) dn = NULL;
    g_auto(GStrv) v = NULL;
    uint64_t dom = 0, n, period, high, phase = 0;
    bool all;

    if (!kv[0] || !kv[1]) {
        goto bad;
    }
    dn = g_strsplit(kv[0], ".", 2);
    v = g_strsplit(kv[1], "/", 3);
    if (!dn[0] || !dn[1] || !v[0] || !v[1]) {
        goto bad;
    }
    all = !strcmp(dn[0], "*");
    if ((!all && (qemu_strtou64(dn[0], NULL, 10, &dom) ||
                  dom >= NV_PCOUNTER_DOMAINS)) ||
        qemu_strtou64(dn[1], NULL, 10, &n) || n >= NV_SIG_SYNTH_COUNT ||
        qemu_strtou64(v[0], NULL, 0, &period) || !is_power_of_2(period) ||
        period > (1u << NV_PC_PERIOD_MAX_LOG2) ||
        qemu_strtou64(v[1], NULL, 0, &high) || high > period ||
        (v[2] && qemu_strtou64(v[2], NULL, 0, &phase)) || phase >= period) {
        goto bad;
    }
    for (unsigned d = 0; d < NV_PCOUNTER_DOMAINS; d++) {
        if (all || d == dom) {
            set->s[d][n] = (NvSynth) {
                .period_log2 = ctz64(period), .high = high, .phase = phase,
            };
        }
    }
    return true;

bad:
    error_setg(errp, "synth: '%s' is not DOM.N=PERIOD/HIGH[/PHASE] with "
               "DOM 0-7 or *, N 0-7, PERIOD a power of two up to %u, "
               "HIGH <= PERIOD, PHASE < PERIOD", e,
               1u << NV_PC_PERIOD_MAX_LOG2);
    return false;
}

static bool nv_gpu_synth_parse(const char *str, NvSynthSet *set,
                               Error **errp)
{
    g_auto(GStrv) entries = g_strsplit_set(str, " ;", -1);

    memset(set, 0, sizeof(*set));
    for (unsigned i = 0; entries[i]; i++) {
        if (*entries[i] && !nv_gpu_synth_parse_entry(entries[i], set, errp)) {
            return false;
        }
    }
    return true;
}

static void nv_gpu_synth_apply(NvGpuPci *s, const NvSynthSet *set)
{
    for (unsigned d = 0; d < nv_gpu_chipset(s->gpu)->pc_domains; d++) {
        for (unsigned n = 0; n < NV_SIG_SYNTH_COUNT; n++) {
            const NvSynth *y = &set->s[d][n];

            trace_nv_gpu_synth(d, n, 1u << y->period_log2, y->high,
                               y->phase);
            nv_pcounter_set_synth(s->gpu, d, n, y->period_log2, y->high,
                                  y->phase);
        }
    }
}

/* The model's settings, in the property's syntax (constant 0 omitted). */
static char *nv_gpu_get_synth(Object *obj, Error **errp)
{
    NvGpuPci *s = NV_GPU(obj);
    GString *out;

    if (!s->gpu) {
        return g_strdup(s->synth ? s->synth : "");
    }
    out = g_string_new("");
    for (unsigned d = 0; d < nv_gpu_chipset(s->gpu)->pc_domains; d++) {
        for (unsigned n = 0; n < NV_SIG_SYNTH_COUNT; n++) {
            NvSynth y = nv_pcounter_synth(s->gpu, d, n);

            if (!y.high) {
                continue;
            }
            g_string_append_printf(out, "%s%u.%u=%u/%u", out->len ? " " : "",
                                   d, n, 1u << y.period_log2, y.high);
            if (y.phase) {
                g_string_append_printf(out, "/%u", y.phase);
            }
        }
    }
    return g_string_free(out, false);
}

/* Before realize the string is kept; afterwards it takes effect now. */
static void nv_gpu_set_synth(Object *obj, const char *value, Error **errp)
{
    NvGpuPci *s = NV_GPU(obj);
    NvSynthSet set;

    if (!nv_gpu_synth_parse(value, &set, errp)) {
        return;
    }
    if (s->gpu) {
        nv_gpu_synth_apply(s, &set);
    } else {
        g_free(s->synth);
        s->synth = g_strdup(value);
    }
}

/* ---- PCI configuration space ---- */

/* Capability chain 0x60 PM -> 0x68 MSI -> 0x78 PCIe (on a PCIe bus). */
static bool nv_gpu_init_caps(NvGpuPci *s, Error **errp)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    int ret;

    if (pci_bus_is_express(pci_get_bus(pdev))) {
        if (pcie_endpoint_cap_init(pdev, NV_GPU_PCIE_CAP) < 0) {
            error_setg(errp, "cannot add the PCI Express capability");
            return false;
        }
    } else {
        pdev->cap_present &= ~QEMU_PCI_CAP_EXPRESS;
    }

    /* One vector, 64-bit address, no per-vector masking, as on G84. */
    ret = msi_init(pdev, NV_GPU_MSI_CAP, 1, true, false, errp);
    if (ret == -ENOTSUP) {
        /* The machine has no working MSI: INTx only, as nouveau allows. */
        error_free(*errp);
        *errp = NULL;
    } else if (ret < 0) {
        return false;
    }

    if (pci_pm_init(pdev, NV_GPU_PM_CAP, errp) < 0) {
        return false;
    }
    pci_set_word(pdev->wmask + pdev->pm_cap + PCI_PM_CTRL,
                 PCI_PM_CTRL_STATE_MASK);
    return true;
}

/* ---- QMP: fault drills ---- */

void qmp_x_nv_gpu_drill_record_fault(const char *id, uint8_t domain,
                                     Error **errp)
{
    Object *obj = object_resolve_path_type(id, TYPE_NV_GPU, NULL);

    trace_nv_gpu_qmp_drill_record_fault(domain);
    if (!obj) {
        error_setg(errp, "'%s' is not an nv-gpu device", id);
    } else if (!nv_pcounter_drill_record_fault(NV_GPU(obj)->gpu, domain)) {
        error_setg(errp, "nv-gpu has no PCOUNTER domain %u", domain);
    }
}

/* ---- QOM ---- */

/* The model's events (NvTraceEvent) as trace events. */
static void nv_gpu_trace(unsigned event, uint64_t a, uint64_t b, uint64_t c)
{
    switch ((NvTraceEvent)event) {
    case NV_TRACE_RECORD_FAULT:
        trace_nv_gpu_record_fault(a, b, c);
        break;
    }
}

static void nv_gpu_realize(PCIDevice *pdev, Error **errp)
{
    NvGpuPci *s = NV_GPU(pdev);
    GpuHost host;
    g_autofree char *err = NULL;
    NvSynthSet set;

    s->cfg.chipset = s->chipset;
    if (!nv_gpu_config_check(&s->cfg, &err)) {
        error_setg(errp, "%s", err);
        return;
    }
    if (!nv_gpu_synth_parse(s->synth ? s->synth : "", &set, errp)) {
        return;
    }

    gpumodel_pci_host_init(&s->host, pdev, &host);
    s->host.trace = nv_gpu_trace;

    /* VRAM: RAM, so migration carries it (and skips its zero pages). */
    if (!s->cfg.vram_size) {
        s->cfg.vram_size = NV_VRAM_DEFAULT;
    }
    if (!memory_region_init_ram(&s->vram, OBJECT(s), "nv-gpu.vram",
                                s->cfg.vram_size, errp)) {
        return;
    }
    s->cfg.vram = memory_region_get_ram_ptr(&s->vram);
    s->cfg.vram_written = nv_gpu_vram_written;
    s->cfg.vram_opaque = s;

    s->gpu = nv_gpu_new(&s->cfg, &host);
    pci_config_set_device_id(pdev->config, nv_gpu_chipset(s->gpu)->device_id);
    pci_set_word(pdev->config + PCI_SUBSYSTEM_VENDOR_ID, NV_GPU_VENDOR_ID);
    pci_set_word(pdev->config + PCI_SUBSYSTEM_ID, nv_gpu_chipset(s->gpu)->device_id);
    pci_config_set_interrupt_pin(pdev->config, 1);
    if (!nv_gpu_init_caps(s, errp)) {
        nv_gpu_free(s->gpu);
        s->gpu = NULL;
        return;
    }
    nv_gpu_synth_apply(s, &set);

    memory_region_init_io(&s->bar0, OBJECT(s), &nv_gpu_mmio_ops, s,
                          "nv-gpu-mmio", NV_GPU_BAR0_SIZE);
    pci_register_bar(pdev, NV_GPU_BAR0, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->bar0);
    memory_region_init_io(&s->bar1, OBJECT(s), &nv_gpu_bar1_ops, s,
                          "nv-gpu-vram", NV_GPU_BAR1_SIZE);
    pci_register_bar(pdev, NV_GPU_BAR1,
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->bar1);
    memory_region_init_io(&s->bar3, OBJECT(s), &nv_gpu_bar3_ops, s,
                          "nv-gpu-ramin", NV_GPU_BAR3_SIZE);
    pci_register_bar(pdev, NV_GPU_BAR3,
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->bar3);
}

/* PCI Express on a PCIe bus (q35), conventional PCI elsewhere. */
static void nv_gpu_instance_init(Object *obj)
{
    PCI_DEVICE(obj)->cap_present |= QEMU_PCI_CAP_EXPRESS;
}

static void nv_gpu_exit(PCIDevice *pdev)
{
    NvGpuPci *s = NV_GPU(pdev);

    msi_uninit(pdev);
    nv_gpu_free(s->gpu);
    s->gpu = NULL;
}

static void nv_gpu_finalize(Object *obj)
{
    g_free(NV_GPU(obj)->synth);
}

static void nv_gpu_reset_enter(Object *obj, ResetType type)
{
    NvGpuPci *s = NV_GPU(obj);

    trace_nv_gpu_reset();
    nv_gpu_reset(s->gpu);
}

static void nv_gpu_reset_hold(Object *obj, ResetType type)
{
    NvGpuPci *s = NV_GPU(obj);

    gpumodel_pci_host_reset_hold(&s->host);
}

static void nv_gpu_get_unmodelled_count(Object *obj, Visitor *v,
                                        const char *name, void *opaque,
                                        Error **errp)
{
    NvGpuPci *s = NV_GPU(obj);
    uint32_t n = s->gpu ? nv_gpu_unmodelled_count(s->gpu) : 0;

    visit_type_uint32(v, name, &n, errp);
}

static const Property nv_gpu_properties[] = {
    DEFINE_PROP_STRING("chipset", NvGpuPci, chipset),
    DEFINE_PROP_UINT64("dom0-hz", NvGpuPci, cfg.domain_hz[0], 0),
    DEFINE_PROP_UINT64("dom1-hz", NvGpuPci, cfg.domain_hz[1], 0),
    DEFINE_PROP_UINT64("dom2-hz", NvGpuPci, cfg.domain_hz[2], 0),
    DEFINE_PROP_UINT64("dom3-hz", NvGpuPci, cfg.domain_hz[3], 0),
    DEFINE_PROP_UINT64("dom4-hz", NvGpuPci, cfg.domain_hz[4], 0),
    DEFINE_PROP_UINT64("dom5-hz", NvGpuPci, cfg.domain_hz[5], 0),
    DEFINE_PROP_UINT64("dom6-hz", NvGpuPci, cfg.domain_hz[6], 0),
    DEFINE_PROP_UINT64("dom7-hz", NvGpuPci, cfg.domain_hz[7], 0),
    DEFINE_PROP_UINT64("ptimer-src-hz", NvGpuPci, cfg.ptimer_src_hz, 0),
    DEFINE_PROP_UINT32("record-write-cycles", NvGpuPci,
                       cfg.record_write_cycles, 0),
    DEFINE_PROP_UINT64("record-flush-ns", NvGpuPci, cfg.record_flush_ns, 0),
    DEFINE_PROP_SIZE("vram-size", NvGpuPci, cfg.vram_size, 0),
};

/* Not saved: the unmodelled-offset set (a log-once diagnostic). */
static const VMStateDescription nv_gpu_vmstate = {
    .name = TYPE_NV_GPU,
    .version_id = 0,
    .minimum_version_id = 0,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, NvGpuPci),
        VMSTATE_STRUCT_POINTER(gpu, NvGpuPci, vmstate_nv_gpu_model, NvGpu),
        VMSTATE_GPUMODEL_PCI_HOST(host, NvGpuPci),
        VMSTATE_END_OF_LIST()
    },
};

static void nv_gpu_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    pc->realize = nv_gpu_realize;
    pc->exit = nv_gpu_exit;
    pc->vendor_id = NV_GPU_VENDOR_ID;
    pc->device_id = NV_GPU_DEVICE_ID_G84;
    pc->revision = NV_GPU_REVISION;
    pc->class_id = PCI_CLASS_DISPLAY_VGA;
    rc->phases.enter = nv_gpu_reset_enter;
    rc->phases.hold = nv_gpu_reset_hold;

    dc->desc = "NVIDIA G84-class GPU (PMC, PTIMER, PCOUNTER, VBIOS, VRAM)";
    dc->vmsd = &nv_gpu_vmstate;
    set_bit(DEVICE_CATEGORY_DISPLAY, dc->categories);
    device_class_set_props(dc, nv_gpu_properties);
    object_class_property_set_description(klass, "chipset",
        "chipset profile: g84 (default, 10de:0402), g86 (10de:0422), "
        "g92 (10de:0611) or gt215 (10de:0ca3)");
    for (unsigned d = 0; d < NV_PCOUNTER_DOMAINS; d++) {
        g_autofree char *name = g_strdup_printf("dom%u-hz", d);
        g_autofree char *desc = g_strdup_printf(
            "PCOUNTER domain %u clock in Hz, at most 10 GHz (0: the "
            "chipset default)", d);

        object_class_property_set_description(klass, name, desc);
    }
    object_class_property_set_description(klass, "ptimer-src-hz",
        "PTIMER source clock in Hz, at most 10 GHz (0: the 27 MHz "
        "crystal)");
    object_class_property_set_description(klass, "record-write-cycles",
        "domain cycles a record-mode packet occupies the domain's one "
        "outstanding write, beyond the first (default 0)");
    object_class_property_set_description(klass, "record-flush-ns",
        "how often record-mode packets reach memory while the guest does "
        "not touch PCOUNTER, in ns of virtual time (0: 100000)");

    object_class_property_set_description(klass, "vram-size",
        "VRAM size, a power of two from 32M to 1G (0: 256M)");

    object_class_property_add_str(klass, "synth", nv_gpu_get_synth,
                                  nv_gpu_set_synth);
    object_class_property_set_description(klass, "synth",
        "synthetic workload signals, space- or ';'-separated "
        "DOM.N=PERIOD/HIGH[/PHASE] (DOM 0-7 or *, signal 0x10+N, PERIOD a "
        "power of two <= 65536 cycles, 1 for HIGH cycles per period); "
        "unlisted signals are 0; settable at run time with qom-set");
    object_class_property_add(klass, "unmodelled-mmio-count", "uint32",
                              nv_gpu_get_unmodelled_count, NULL, NULL,
                              NULL);
    object_class_property_set_description(klass, "unmodelled-mmio-count",
        "distinct unmodelled BAR0 offsets the guest touched (read-only)");
}

static const TypeInfo nv_gpu_types[] = {
    {
        .name = TYPE_NV_GPU,
        .parent = TYPE_PCI_DEVICE,
        .instance_size = sizeof(NvGpuPci),
        .instance_init = nv_gpu_instance_init,
        .instance_finalize = nv_gpu_finalize,
        .class_init = nv_gpu_class_init,
        .interfaces = (InterfaceInfo[]) {
            { INTERFACE_PCIE_DEVICE },
            { INTERFACE_CONVENTIONAL_PCI_DEVICE },
            { },
        },
    },
};

DEFINE_TYPES(nv_gpu_types)
