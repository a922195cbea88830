/*
 * intel-gpu command streamer: how commands reach memory and registers.
 * Privilege (PRM "User Mode Privileged Commands"), the address space of
 * an access (GGTT or the context's PPGTT), the engine's page faults and
 * its error path (ESR, EIR, the CS master error interrupt).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cs-int.h"

void intel_cs_raise(IntelEngine *e, uint16_t bits)
{
    intel_irq_raise(e->gpu, e->klass, e->instance, bits);
}

/*
 * The hardware's error path: the status bit in ESR, reported in EIR (and
 * as the CS master error interrupt) unless EMR masks it; the engine stops
 * until reset.
 */
static void cs_report_error(IntelEngine *e, uint32_t error)
{
    intel_engine_set_reg(e, INTEL_RING_ESR,
                         intel_engine_reg(e, INTEL_RING_ESR) | error);
    if (!(intel_engine_reg(e, INTEL_RING_EMR) & error)) {
        intel_engine_set_reg(e, INTEL_RING_EIR,
                             intel_engine_reg(e, INTEL_RING_EIR) | error);
        intel_cs_raise(e, INTEL_GT_CS_MASTER_ERROR);
    }
}

void intel_cs_error(IntelEngine *e, uint32_t error, const char *why)
{
    gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                 "engine %u: %s; engine halted", e->id, why);
    cs_report_error(e, error);
    intel_cs_set_state(e, INTEL_CS_HALTED);
    gpu_host_timer_del(&e->gpu->host, e->timer);
    intel_cs_sync_registers(e);
    gpu_host_trace(&e->gpu->host, INTEL_TRACE_ENGINE_ERROR, e->id, error,
                   (uint64_t)intel_engine_reg(e, INTEL_RING_ACTHD_UDW) << 32 |
                   intel_engine_reg(e, INTEL_RING_ACTHD));
}

/* A privileged command in a non-privileged batch is dropped and flagged. */
void cs_privilege_violation(IntelEngine *e, const char *what)
{
    gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                 "engine %u: %s refused in a non-privileged batch",
                 e->id, what);
    cs_report_error(e, INTEL_ERROR_PRIVILEGE);
}

/*
 * A page fault of the engine at @addr: RING_FAULT_REG names the engine,
 * FAULT_TLB_DATA0/1 the page and address space, and the engine's
 * page-fault interrupt is raised.
 */
void intel_cs_page_fault(IntelEngine *e, bool ppgtt, uint64_t addr)
{
    IntelGpu *gpu = e->gpu;

    intel_reg_set(gpu, INTEL_RING_FAULT_REG,
                  1u | (uint32_t)e->klass << 12 | (uint32_t)e->instance << 3);
    intel_reg_set(gpu, INTEL_FAULT_TLB_DATA0, addr >> 12);
    intel_reg_set(gpu, INTEL_FAULT_TLB_DATA1,
                  ((addr >> 44) & 0xf) | (ppgtt ? 0 : 1u << 4));
    intel_cs_raise(e, INTEL_GT_PAGE_FAULT);
}

/* A page fault of a command also stops the engine until reset. */
int cs_fault(IntelEngine *e, bool ppgtt, uint64_t addr)
{
    intel_cs_page_fault(e, ppgtt, addr);
    intel_cs_error(e, INTEL_ERROR_PAGE_TABLE,
                   ppgtt ? "PPGTT page fault" : "GGTT page fault");
    return CS_STOP;
}

/* Memory access from a command; a failure is the engine's page fault. */
int cs_mem(IntelEngine *e, bool ppgtt, uint64_t addr, void *buf,
           size_t len, bool write)
{
    if (intel_vm_rw(e, ppgtt, addr, buf, len, write)) {
        cs_fault(e, ppgtt, addr);
        return -1;
    }
    return 0;
}

int cs_write32(IntelEngine *e, bool ppgtt, uint64_t addr, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    return cs_mem(e, ppgtt, addr, &v, 4, true);
}

int cs_write64(IntelEngine *e, bool ppgtt, uint64_t addr, uint64_t v)
{
    v = GUINT64_TO_LE(v);
    return cs_mem(e, ppgtt, addr, &v, 8, true);
}

int cs_read32(IntelEngine *e, bool ppgtt, uint64_t addr, uint32_t *v)
{
    if (cs_mem(e, ppgtt, addr, v, 4, false)) {
        return -1;
    }
    *v = GUINT32_FROM_LE(*v);
    return 0;
}

/* Where "store data index" lands: the context's PPHWSP or the HWSP. */
uint64_t cs_status_page(IntelEngine *e, bool per_process)
{
    if (per_process && intel_cs_execlists_mode(e) &&
        intel_execlists_ctx_active(e)) {
        return intel_execlists_ctx_lrca(e);
    }
    return intel_engine_reg(e, INTEL_RING_HWS_PGA) & ~0xfffu;
}

/* Command-streamer timestamp ticks in @ns nanoseconds. */
uint64_t intel_engine_timestamp(IntelGpu *gpu, uint64_t ns)
{
    uint64_t hz = intel_cs_timestamp_hz(gpu);

    return ns / 1000000000u * hz + ns % 1000000000u * hz / 1000000000u;
}

uint64_t cs_timestamp64(IntelEngine *e)
{
    return intel_engine_timestamp(e->gpu, gpu_host_now_ns(&e->gpu->host));
}

/* CS MMIO remap: render-CS offsets address the executing engine. */
uint32_t cs_reg_offset(IntelEngine *e, uint32_t hdr, uint32_t off,
                       uint32_t remap_bit)
{
    off &= MI_REG_OFFSET_MASK;
    if ((hdr & remap_bit) && off >= INTEL_RCS0_BASE &&
        off < INTEL_RCS0_BASE + 0x800) {
        off = off - INTEL_RCS0_BASE + e->base;
    }
    return off;
}

/* A register write from a command stream, subject to privilege. */
bool cs_reg_write_allowed(IntelEngine *e, uint32_t off)
{
    return cs_privileged(e) ||
           intel_cs_nonpriv_write_allowed(e->gpu, e->id, off);
}
