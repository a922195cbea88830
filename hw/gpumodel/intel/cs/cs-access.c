/*
 * intel-gpu command streamer: how commands reach memory and registers.
 * Privilege (PRM "User Mode Privileged Commands"), the address space of
 * an access (GGTT or the context's PPGTT); a command's page fault and
 * privilege violation go to the engine's error path (engine/engine.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include "cs-int.h"

/*
 * A command (header @hdr) the hardware drops in a non-privileged batch,
 * @where the register or address it was refused: "Parsing one of the
 * commands in the table above from a non-privileged batch buffer flags an
 * error and converts the command to a NOOP" (PRM Vol 8, "User Mode
 * Privileged Commands").  The error flag is all the guest sees of it, and
 * drivers mask it (i915's RING_EMR).  Each refusal is a trace event
 * (intel_gpu_privilege_refused).
 */
void cs_privilege_refused(IntelEngine *e, uint32_t hdr, uint64_t where)
{
    gpu_host_trace(&e->gpu->host, INTEL_TRACE_PRIVILEGE, e->id, hdr, where);
    intel_engine_report_error(e, INTEL_ERROR_PRIVILEGE);
}

/*
 * The same for a command a user-mode driver has no business sending (a
 * GGTT access, MI_UPDATE_GTT, ...): only the first of each command on an
 * engine is also logged.  A register write the batch may not make is
 * cs_privilege_refused() alone: user-mode drivers write registers
 * the hardware refuses at every context's start (Intel's compute runtime
 * GEN9_ROW_CHICKEN4, which i915 does not whitelist on Gen11), as normal
 * work.
 */
void cs_privilege_violation(IntelEngine *e, uint32_t hdr, uint64_t where,
                            const char *what)
{
    unsigned bit = INSTR_CLIENT(hdr) == INSTR_MI_CLIENT ? MI_OPCODE(hdr) : 63;

    if (!(e->privilege_logged & (1ull << bit))) {
        e->privilege_logged |= 1ull << bit;
        gpu_host_log(&e->gpu->host, GPU_LOG_GUEST_ERROR,
                     "engine %u: %s (0x%" PRIx64 ") refused in a "
                     "non-privileged batch; the engine's next refusals of "
                     "the command are only traced", e->id, what, where);
    }
    cs_privilege_refused(e, hdr, where);
}

/* A page fault of a command also stops the engine until reset. */
int cs_fault(IntelEngine *e, bool ppgtt, uint64_t addr)
{
    intel_engine_page_fault(e, ppgtt, addr);
    intel_engine_error(e, INTEL_ERROR_PAGE_TABLE,
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
        intel_engine_ctx_active(e)) {
        return intel_engine_ctx_lrca(e);
    }
    return intel_engine_reg(e, INTEL_RING_HWS_PGA) & ~0xfffu;
}

uint64_t cs_timestamp64(IntelEngine *e)
{
    return intel_engine_timestamp(e->gpu, gpu_host_now_ns(&e->gpu->host));
}

/*
 * A register dword of MI_LOAD_REGISTER_IMM/MEM/REG or MI_STORE_REGISTER_MEM
 * as an MMIO offset.  With the header's "Add CS MMIO Start Offset" bit
 * (@remap_bit) set, the Register Address (bits 22:2) is an offset from the
 * executing engine's MMIO base (Gen11 Command Reference,
 * MI_LOAD_REGISTER_IMM "ADD_CS_MMIO_START_OFFSET": 0x2000 on RCS, so 0x600
 * is RCS's CS_GPR0).  Mesa's mi_builder.h (mi_adjust_reg_num) emits every
 * register of 0x2000-0x3fff that way on Gen11, at reg - 0x2000.  Only
 * the offset within the engine's 8 KiB counts: i915 sets the bit on the
 * LRIs of its Gen11 context images over absolute offsets (gt/intel_lrc.c
 * set_offsets(): base + offset, 0x1c0034 on vcs0), which the hardware
 * executes at a restore, so it cannot add the base to the whole address.
 * (The model's restore of those images is execlists.c's.)
 */
uint32_t cs_reg_offset(IntelEngine *e, uint32_t hdr, uint32_t off,
                       uint32_t remap_bit)
{
    if (hdr & remap_bit) {
        return e->base + (off & MI_REG_CS_MMIO_OFFSET_MASK);
    }
    return off & MI_REG_OFFSET_MASK;
}

/* A register write from a command stream, subject to privilege. */
bool cs_reg_write_allowed(IntelEngine *e, uint32_t off)
{
    return cs_privileged(e) ||
           intel_cs_nonpriv_write_allowed(e->gpu, e->id, off);
}
