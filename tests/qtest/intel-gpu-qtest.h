/*
 * intel-gpu qtest helpers: the device started and found, guest buffers
 * mapped in the GGTT or a PPGTT, command emission, legacy ring and
 * execlists submission, interrupts serviced as i915 does, the OA buffer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_QTEST_INTEL_GPU_QTEST_H
#define TESTS_QTEST_INTEL_GPU_QTEST_H

#include "gpumodel-qtest.h"
#include "hw/gpumodel/intel-gpu-regs.h"
#include "hw/gpumodel/intel-gpu-cmds.h"
/*
 * GFXPIPE commands and state, packed from their fields: generated in the
 * build from hw/gpumodel/intel/gen11-state.desc (the overlay makes the
 * intel-gpu qtests depend on it).
 */
#include "hw/gpumodel/intel/gen11-state.h"

#define GPU_DEVFN   QPCI_DEVFN(2, 0)
#define GPU_BARS    (1u << INTEL_GTTMMADR_BAR | 1u << INTEL_GMADR_BAR | \
                     1u << INTEL_IOBAR_BAR)
#define GPU_ARGS    "-machine q35 -nodefaults " \
                    "-device intel-gpu,id=" GPU_ID ",addr=02.0"

/*
 * Take (@on) or release the forcewake domain whose request register is
 * @reg: its masked kernel bit, as i915's fw_domain_get writes it
 * (drivers/gpu/drm/i915/intel_uncore.c).
 */
void forcewake(Gpu *g, uint32_t reg, bool on);

/* @n contiguous pages of guest RAM, page aligned. */
uint64_t alloc_pages(Gpu *g, unsigned n);

/* The MSI data msi_to_ram() programs. */
#define MSI_MAGIC 0x4321

/* x-intel-gpu-inject-irq: raise @bits of an engine's interrupt. */
void inject(Gpu *g, int klass, int instance, int bits);

/*
 * What i915's gen11_gt_irq_postinstall and master enable write
 * (drivers/gpu/drm/i915/gt/intel_gt_irq.c).
 */
void irq_postinstall(Gpu *g);

/* MSI to a word of guest RAM; returns its address. */
uint64_t msi_to_ram(Gpu *g);

/* Start QEMU as gpu_start(), then msi_to_ram() and irq_postinstall(). */
uint64_t gpu_start_irq(Gpu *g);

/*
 * Service bit @bit of GT interrupt bank @bank as i915's
 * gen11_gt_bank_handler does: select it, read its identity (@expect),
 * acknowledge both.
 */
void service(Gpu *g, unsigned bank, unsigned bit, uint32_t expect);

/*
 * The commands the tests emit, as fixed-length headers, from
 * hw/gpumodel/intel-gpu-cmds.h (PRM Vol 2a: Command Reference:
 * Instructions): a semaphore wait in the GGTT polling for equality, and
 * the blits with alpha and colour written.
 */
#define MI_SEMAPHORE_WAIT_EQ    (MI_SEMAPHORE_WAIT | INSTR_LEN(4) | \
                                 MI_SEMAPHORE_GLOBAL_GTT | \
                                 MI_SEMAPHORE_POLL | MI_SEMAPHORE_SAD_EQ_SDD)
#define XY_COLOR_BLT            (XY_COLOR_BLT_CMD | BLT_WRITE_RGBA | \
                                 INSTR_LEN(7))
#define XY_SRC_COPY_BLT         (XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA | \
                                 INSTR_LEN(10))
/* XY_* dw1: 32 bpp, raster operation @rop, destination pitch. */
#define XY_BR13_32BPP(rop, pitch) (BLT_DEPTH_32 | (rop) | (pitch))

/* Virtual time in which any of these rings runs to its end. */
#define CS_SETTLE_NS            1000000
#define CS_SETTLE_IDLE_MAX      2000
/* Test memory sits in the GGTT at its guest-physical address plus this. */
#define GTT_BIAS                0x40000000u
/* Descriptor: valid, legacy 64-bit context (4-level PPGTT), privileged. */
#define CTX_DESC_FLAGS          0x119u
/* i915's CCIDs (upper descriptor dword): SW context ID tag << 5. */
#define CCID(tag)               ((tag) << 5)
/* The image's value slots (state page dwords) of RING_HEAD and RING_TAIL. */
#define CTX_HEAD                5
#define CTX_TAIL                7

/* Guest RAM, possibly mapped in the GGTT, and a write cursor into it. */
typedef struct Buf {
    uint64_t phys;
    uint32_t gtt;
    uint32_t size;
    uint32_t len;           /* bytes emitted */
} Buf;

/* Map @pages pages of guest RAM at @phys at @gtt in the GGTT; flush. */
void ggtt_map(Gpu *g, uint32_t gtt, uint64_t phys, unsigned pages);

/* Zeroed RAM that only a PPGTT maps. */
Buf buf_ram(Gpu *g, unsigned pages);

/* Zeroed RAM mapped in the GGTT. */
Buf buf_new(Gpu *g, unsigned pages);

/* A dword of @b at byte offset @off. */
uint32_t buf_readl(Gpu *g, const Buf *b, uint32_t off);

/* Append @n dwords to @b (EMIT() takes them as arguments). */
void buf_emit(Gpu *g, Buf *b, const uint32_t *dw, unsigned n);

#define EMIT(g, b, ...) \
    buf_emit(g, b, (const uint32_t[]) { __VA_ARGS__ }, \
             sizeof((const uint32_t[]) { __VA_ARGS__ }) / 4)

/*
 * IGT's gen9_emit_state_base_address (lib/gpu_cmds.c): 19 dwords (Gen9's
 * length); the surface, dynamic and instruction bases at @base, the
 * general and bindless surface bases at 0, IGT's buffer sizes.
 */
void emit_sba_igt(Gpu *g, Buf *b, uint32_t base);

/* PIPELINE_SELECT of @pipeline (PIPELINE_SELECT_*), its Mask Bits set. */
void emit_pipeline_select(Gpu *g, Buf *b, uint32_t pipeline);

/* A GPGPU_WALKER. */
void emit_walker(Gpu *g, Buf *b, const Gen11_GPGPU_WALKER *w);

/* MI_STORE_DATA_IMM of @val to @addr (@flags: MI_USE_GGTT or 0). */
void emit_store(Gpu *g, Buf *b, uint32_t flags, uint64_t addr,
                uint32_t val);

/* RING_TAIL is qword aligned (bits 20:3): pad with MI_NOOP. */
uint32_t ring_tail(Gpu *g, Buf *ring);

/* Legacy ring mode: program the ring; the TAIL write is the doorbell. */
void ring_submit(Gpu *g, uint32_t base, Buf *ring);

/* Step virtual time by CS_SETTLE_NS. */
void cs_settle(Gpu *g);

/* MI_MODE's idle bit of the engine at @base. */
bool engine_idle(Gpu *g, uint32_t base);

/*
 * i915's ring_is_idle (drivers/gpu/drm/i915/gt/intel_engine_cs.c):
 * HEAD == TAIL (offsets) and MODE_IDLE.
 */
void assert_ring_idle(Gpu *g, uint32_t base);
/*
 * Let the engine at @base work until it idles, at most CS_SETTLE_IDLE_MAX
 * settles: a draw's engine pauses for what its pixels cost the host
 * (cs-int.h), some 0.3 s of virtual time a million pixels.
 */
void engine_settle_idle(Gpu *g, uint32_t base);

/*
 * What i915 does with a runaway engine at @base: STOP_RING idles it where
 * it is, a GDRST reset of @grdom clears it, and a new request in a legacy
 * ring then runs.
 */
void engine_stop_reset_run(Gpu *g, uint32_t base, uint32_t grdom);

/* One MSI arrived: service the GT DW0 interrupt, as i915's handler does. */
void expect_msi(Gpu *g, uint64_t msi, unsigned bit, uint32_t data);

/*
 * The OA buffer as i915's gen8_init_oa_buffer programs it
 * (drivers/gpu/drm/i915/i915_perf.c): 128 KiB (size code 0), size-aligned
 * at OA_GTT in the GGTT, head and tail at its start.
 */
#define OA_GTT      0x20000000u
#define OA_PAGES    32

/* Program the OA buffer (unit disabled); returns it. */
Buf oa_buffer_init(Gpu *g);

/* x-intel-gpu-drill-dma: fail an engine's next @count DMA writes. */
void drill_dma(Gpu *g, int klass, int instance, unsigned count);

/*
 * i915's reset_csb_pointers and enable_execlists
 * (drivers/gpu/drm/i915/gt/intel_execlists_submission.c); returns the
 * HWSP.
 */
Buf execlists_enable(Gpu *g, uint32_t base);

/* The context ID (upper dword) of CSB entry @slot in the HWSP. */
uint32_t csb_ctx_id(Gpu *g, const Buf *hwsp, unsigned slot);

/*
 * The CSB entries from @first on have these statuses, in the HWSP and its
 * MMIO mirror, and the last of them is the last written.
 */
void expect_csb(Gpu *g, uint32_t base, const Buf *hwsp,
                unsigned first, const uint32_t *status, unsigned n);

#define EXPECT_CSB(g, base, hwsp, first, ...) \
    expect_csb(g, base, hwsp, first, (const uint32_t[]) { __VA_ARGS__ }, \
               sizeof((const uint32_t[]) { __VA_ARGS__ }) / 4)

/* A logical ring context: PPHWSP and register state pages, and a ring. */
typedef struct Ctx {
    Buf image;
    Buf ring;
} Ctx;

/*
 * A context on the engine at @base whose image loads its ring and PML4
 * @pml4 (0: none).
 */
void ctx_init(Gpu *g, Ctx *c, uint32_t base, uint64_t pml4);

/* A value slot of @c's register state (CTX_HEAD, CTX_TAIL). */
uint32_t ctx_slot(Gpu *g, const Ctx *c, unsigned slot);

/*
 * i915's execlists_update_context (intel_execlists_submission.c), then
 * the ELSQ writes and a Load.
 */
void ctx_submit(Gpu *g, uint32_t base, Ctx *c, uint32_t ccid);

/* A 4-level PPGTT with one page table: the 2 MiB around one address. */
typedef struct Ppgtt {
    uint64_t table[4];      /* PML4, PDP, PD, PT */
    uint64_t va;            /* what the PT maps */
} Ppgtt;

#define PPGTT_PRESENT_RW    3u

/* Page tables down to the one that maps the 2 MiB around @va. */
void ppgtt_init(Gpu *g, Ppgtt *p, uint64_t va);

/* Map the page at @va (inside p->va's 2 MiB) to @phys. */
void ppgtt_map(Gpu *g, Ppgtt *p, uint64_t va, uint64_t phys);

/* PML4, PDP, PD and PT index 1, 2, 3, 4. */
#define BATCH_VA    (1ull << 39 | 2ull << 30 | 3ull << 21 | 4ull << 12)

/* A PPGTT with a batch page at BATCH_VA and a target page after it. */
void ppgtt_batch_init(Gpu *g, Ppgtt *pp, Buf *batch, Buf *target);

/* Context @ctx on @pml4 whose ring starts a PPGTT batch at @va. */
void ctx_init_ppgtt_start(Gpu *g, Ctx *ctx, uint32_t base,
                          uint64_t pml4, uint64_t va);

/* A context on @pp whose ring starts the batch at BATCH_VA. */
void ctx_init_batch(Gpu *g, Ctx *ctx, uint32_t base, Ppgtt *pp);

#endif
