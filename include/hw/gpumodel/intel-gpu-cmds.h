/*
 * intel-gpu command encodings: the headers, opcodes, fields and flags of
 * the commands the model decodes (PRM Vol 2a: Command Reference:
 * Instructions; Gen11).  Names follow the PRM and, where it has one,
 * Linux's drivers/gpu/drm/i915/gt/intel_gpu_commands.h; the MI_MATH ALU
 * names are Mesa's (src/intel/common/mi_builder.h).
 *
 * Plain C with stdint only: the model, its unit tests, benchmarks and
 * fuzzers and the guest probes all include it.
 *
 * Unlike i915's header, a command's name is its header with the DWord
 * Length field 0; a command of n dwords is NAME | INSTR_LEN(n).  The
 * exceptions are the constructors MI_LOAD_REGISTER_IMM(n) and MI_MATH(n),
 * whose lengthless headers are MI_LOAD_REGISTER_IMM_CMD and MI_MATH_CMD,
 * and the fixed-length *_GEN4 / *_GEN8 headers i915 emits.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_GPU_CMDS_H
#define HW_GPUMODEL_INTEL_GPU_CMDS_H

#include <stdint.h>

/* ---- command header layout (PRM Vol 2a, "Command Header") ---- */

/* Command Type, bits 31:29. */
#define INSTR_CLIENT_SHIFT          29
#define INSTR_CLIENT(hdr)           ((uint32_t)(hdr) >> INSTR_CLIENT_SHIFT)
#define   INSTR_MI_CLIENT           0x0u    /* Memory Interface */
#define   INSTR_BC_CLIENT           0x2u    /* 2D (blitter) */
#define   INSTR_RC_CLIENT           0x3u    /* GFXPIPE: 3D, media, GPGPU */

/* DWord Length: the command's dwords less 2 (the header and one more). */
#define INSTR_LEN(n)                ((uint32_t)(n) - 2)
/* A DWord Length field of @bits bits, from bit 0. */
#define INSTR_LEN_MASK(bits)        ((1u << (bits)) - 1)

/* ---- MI: Memory Interface commands ---- */

/* MI opcode, bits 28:23. */
#define MI_OPCODE_SHIFT             23
#define MI_OPCODE(hdr) \
    (((uint32_t)(hdr) >> MI_OPCODE_SHIFT) & 0x3F)
/* Command Type and MI opcode: what tells one MI command from another. */
#define MI_INSTR_MASK               0xFF800000u
#define MI_INSTR(opcode, flags) \
    (INSTR_MI_CLIENT << INSTR_CLIENT_SHIFT | \
     (uint32_t)(opcode) << MI_OPCODE_SHIFT | (flags))

/*
 * "Use Global GTT" (bit 22) of the MI commands with a memory address:
 * MI_STORE_DATA_IMM, MI_STORE_REGISTER_MEM, MI_LOAD_REGISTER_MEM,
 * MI_SEMAPHORE_WAIT, MI_ATOMIC, MI_CONDITIONAL_BATCH_BUFFER_END; the
 * source address of MI_COPY_MEM_MEM.  Without it, the context's PPGTT.
 */
#define MI_GLOBAL_GTT               (1u << 22)
/* i915's spellings of the same bit. */
#define MI_USE_GGTT                 MI_GLOBAL_GTT
#define MI_SRM_LRM_GLOBAL_GTT       MI_GLOBAL_GTT
#define MI_ATOMIC_GLOBAL_GTT        MI_GLOBAL_GTT
#define MI_SEMAPHORE_GLOBAL_GTT     MI_GLOBAL_GTT

#define MI_NOOP                     MI_INSTR(0x00, 0)
#define   MI_NOOP_ID_WRITE          (1u << 22)  /* bits 21:0 to NOPID */
#define   MI_NOOP_ID_MASK           0x003FFFFFu

#define MI_SET_PREDICATE            MI_INSTR(0x01, 0)
/* PREDICATE ENABLE, bits 3:0: when the following commands are NOOPs. */
#define   MI_SET_PREDICATE_MASK                 0xFu
#define   MI_SET_PREDICATE_DISABLE              0x0u    /* NOOP never */
#define   MI_SET_PREDICATE_NOOP_RESULT2_CLEAR   0x1u
#define   MI_SET_PREDICATE_NOOP_RESULT2_SET     0x2u
#define   MI_SET_PREDICATE_NOOP_RESULT_CLEAR    0x3u
#define   MI_SET_PREDICATE_NOOP_RESULT_SET      0x4u
#define   MI_SET_PREDICATE_ONE_SLICE            0x5u    /* execute when */
#define   MI_SET_PREDICATE_TWO_SLICES           0x6u
#define   MI_SET_PREDICATE_THREE_SLICES         0x7u
#define   MI_SET_PREDICATE_NOOP_ALWAYS          0xFu

#define MI_USER_INTERRUPT           MI_INSTR(0x02, 0)
#define MI_WAIT_FOR_EVENT           MI_INSTR(0x03, 0)
#define MI_WAIT_FOR_EVENT_2         MI_INSTR(0x04, 0)
#define MI_ARB_CHECK                MI_INSTR(0x05, 0)
#define MI_REPORT_HEAD              MI_INSTR(0x07, 0)
#define MI_ARB_ON_OFF               MI_INSTR(0x08, 0)
#define   MI_ARB_ENABLE             (1u << 0)
#define   MI_ARB_DISABLE            (0u << 0)
#define MI_BATCH_BUFFER_END         MI_INSTR(0x0A, 0)
#define MI_SUSPEND_FLUSH            MI_INSTR(0x0B, 0)

/*
 * MI_PREDICATE (RCS): MI_PREDICATE_RESULT from SRC0, SRC1 and DATA
 * (PRM Vol 2a, "MI_PREDICATE").
 */
#define MI_PREDICATE                MI_INSTR(0x0C, 0)
#define   MI_PREDICATE_COMPAREOP_MASK           (3u << 0)
#define   MI_PREDICATE_COMPAREOP_TRUE           (0u << 0)
#define   MI_PREDICATE_COMPAREOP_FALSE          (1u << 0)
#define   MI_PREDICATE_COMPAREOP_SRCS_EQUAL     (2u << 0)
#define   MI_PREDICATE_COMPAREOP_DELTAS_EQUAL   (3u << 0)
#define   MI_PREDICATE_COMBINEOP_MASK           (3u << 3)
#define   MI_PREDICATE_COMBINEOP_SET            (0u << 3)
#define   MI_PREDICATE_COMBINEOP_AND            (1u << 3)
#define   MI_PREDICATE_COMBINEOP_OR             (2u << 3)
#define   MI_PREDICATE_COMBINEOP_XOR            (3u << 3)
#define   MI_PREDICATE_LOADOP_MASK              (3u << 6)
#define   MI_PREDICATE_LOADOP_KEEP              (0u << 6)
#define   MI_PREDICATE_LOADOP_LOAD              (2u << 6)
#define   MI_PREDICATE_LOADOP_LOADINV           (3u << 6)

#define MI_LOAD_SCAN_LINES_INCL     MI_INSTR(0x12, 0)
#define MI_LOAD_SCAN_LINES_EXCL     MI_INSTR(0x13, 0)
#define MI_DISPLAY_FLIP             MI_INSTR(0x14, 0)
#define MI_SET_CONTEXT              MI_INSTR(0x18, 0)

/* MI_MATH: n - 1 ALU instructions follow the header. */
#define MI_MATH_CMD                 MI_INSTR(0x1A, 0)
#define MI_MATH(n)                  (MI_MATH_CMD | ((uint32_t)(n) - 1))

#define MI_SEMAPHORE_SIGNAL         MI_INSTR(0x1B, 0)
/* Target Engine Select, bits 17:15 (see MI_SEMAPHORE_TARGET_* below). */
#define   MI_SEMAPHORE_TARGET_SHIFT 15
#define   MI_SEMAPHORE_TARGET_MASK  (7u << 15)
#define   MI_SEMAPHORE_TARGET(engine) ((uint32_t)(engine) << 15)
#define     MI_SEMAPHORE_TARGET_RCS     0u
#define     MI_SEMAPHORE_TARGET_VCS0    1u
#define     MI_SEMAPHORE_TARGET_BCS     2u
#define     MI_SEMAPHORE_TARGET_VECS0   3u
#define     MI_SEMAPHORE_TARGET_VCS1    4u
#define     MI_SEMAPHORE_TARGET_VCS2    5u
#define     MI_SEMAPHORE_TARGET_VCS3    6u
#define     MI_SEMAPHORE_TARGET_VECS1   7u

/* MI_SEMAPHORE_WAIT: dw1 the data, dw2-3 the address. */
#define MI_SEMAPHORE_WAIT           MI_INSTR(0x1C, 0)
/* Register Poll Mode: dw2 bits 22:2 a register polled instead of memory. */
#define   MI_SEMAPHORE_REGISTER_POLL (1u << 16)
#define   MI_SEMAPHORE_POLL         (1u << 15)  /* else signal mode */
/* Compare Operation, bits 14:12: semaphore address data vs. dw1. */
#define   MI_SEMAPHORE_COMPARE_SHIFT 12
#define   MI_SEMAPHORE_COMPARE_MASK (7u << 12)
#define   MI_SEMAPHORE_SAD_GT_SDD   (0u << 12)
#define   MI_SEMAPHORE_SAD_GTE_SDD  (1u << 12)
#define   MI_SEMAPHORE_SAD_LT_SDD   (2u << 12)
#define   MI_SEMAPHORE_SAD_LTE_SDD  (3u << 12)
#define   MI_SEMAPHORE_SAD_EQ_SDD   (4u << 12)
#define   MI_SEMAPHORE_SAD_NEQ_SDD  (5u << 12)

#define MI_FORCE_WAKEUP             MI_INSTR(0x1D, 0)

/*
 * MI_STORE_DATA_IMM: dw1-2 the address, dw3 on the data (dwords, or with
 * Store Qword qwords; any number, DWord Length bits 9:0).
 */
#define MI_STORE_DATA_IMM           MI_INSTR(0x20, 0)
#define   MI_STORE_DATA_IMM_QWORD   (1u << 21)
#define MI_STORE_DWORD_IMM_GEN4     (MI_STORE_DATA_IMM | INSTR_LEN(4))
#define MI_STORE_QWORD_IMM_GEN8 \
    (MI_STORE_DATA_IMM | MI_STORE_DATA_IMM_QWORD | INSTR_LEN(5))

/* MI_STORE_DATA_INDEX: dw1 bits 11:2 the offset in the status page. */
#define MI_STORE_DATA_INDEX         MI_INSTR(0x21, 0)
#define   MI_STORE_DATA_INDEX_PPHWSP (1u << 21) /* per-process HWSP */
#define   MI_STORE_DATA_INDEX_OFFSET_MASK 0xFFCu

/* MI_LOAD_REGISTER_IMM: n (register, value) pairs. */
#define MI_LOAD_REGISTER_IMM_CMD    MI_INSTR(0x22, 0)
#define MI_LOAD_REGISTER_IMM(n) \
    (MI_LOAD_REGISTER_IMM_CMD | (2 * (uint32_t)(n) - 1))
#define MI_LOAD_REGISTER_IMM_MAX_REGS 126
/* Byte Write Disables, bits 11:8: byte @i of each register is kept. */
#define   MI_LRI_BYTE_WRITE_DISABLE(i) (1u << (8 + (i)))
/*
 * "Add CS MMIO Start Offset" of MI_LOAD_REGISTER_IMM, MI_STORE_REGISTER_MEM
 * and MI_LOAD_REGISTER_MEM (i915's MI_LRI_LRM_CS_MMIO): the Register
 * Address is an offset from the executing engine's MMIO base.
 */
#define   MI_LRI_LRM_CS_MMIO        (1u << 19)
/* Register Address, bits 22:2 of a register dword. */
#define MI_REG_OFFSET_MASK          0x007FFFFCu
/* With MI_LRI_LRM_CS_MMIO: the offset in the engine's 8 KiB (cs-access.c). */
#define MI_REG_CS_MMIO_OFFSET_MASK  0x00001FFCu

/* MI_UPDATE_GTT: dw1 the GGTT address, then one qword PTE per page. */
#define MI_UPDATE_GTT               MI_INSTR(0x23, 0)

/* MI_STORE_REGISTER_MEM: dw1 the register, dw2-3 the address. */
#define MI_STORE_REGISTER_MEM       MI_INSTR(0x24, 0)
#define   MI_SRM_PREDICATE_ENABLE   (1u << 21)  /* MI_PREDICATE_RESULT */
#define MI_STORE_REGISTER_MEM_GEN8  (MI_STORE_REGISTER_MEM | INSTR_LEN(4))

/* MI_FLUSH_DW: dw1-2 the post-sync address, dw3 (and dw4) the data. */
#define MI_FLUSH_DW                 MI_INSTR(0x26, 0)
#define   MI_FLUSH_DW_STORE_INDEX   (1u << 21)  /* address in the PPHWSP */
#define   MI_INVALIDATE_TLB         (1u << 18)
/* Post-Sync Operation, bits 15:14. */
#define   MI_FLUSH_DW_OP_SHIFT      14
#define   MI_FLUSH_DW_OP_MASK       (3u << 14)
#define   MI_FLUSH_DW_OP_NONE       (0u << 14)
#define   MI_FLUSH_DW_OP_STOREDW    (1u << 14)  /* write the data */
#define   MI_FLUSH_DW_OP_STAMP      (3u << 14)  /* write the timestamp */
#define   MI_FLUSH_DW_NOTIFY        (1u << 8)   /* flush-notify interrupt */
#define   MI_FLUSH_DW_USE_GTT       (1u << 2)   /* in the address dword */

#define MI_CLFLUSH                  MI_INSTR(0x27, 0)

/* MI_REPORT_PERF_COUNT: dw1-2 the address (64-byte aligned), dw3 the ID. */
#define MI_REPORT_PERF_COUNT        MI_INSTR(0x28, 0)
#define   MI_REPORT_PERF_COUNT_GGTT (1u << 0)   /* in dw1 */

/* MI_LOAD_REGISTER_MEM: dw1 the register, dw2-3 the address. */
#define MI_LOAD_REGISTER_MEM        MI_INSTR(0x29, 0)
#define MI_LOAD_REGISTER_MEM_GEN8   (MI_LOAD_REGISTER_MEM | INSTR_LEN(4))

/* MI_LOAD_REGISTER_REG: dw1 the source register, dw2 the destination. */
#define MI_LOAD_REGISTER_REG        MI_INSTR(0x2A, 0)
/* "Add CS MMIO Start Offset Source" and "... Destination" (Gen11). */
#define   MI_LRR_SOURCE_CS_MMIO     (1u << 18)
#define   MI_LRR_DEST_CS_MMIO       (1u << 19)

/*
 * MI_COPY_MEM_MEM (the table's MI_MEM_TO_MEM): dw1-2 the destination,
 * dw3-4 the source.
 */
#define MI_COPY_MEM_MEM             MI_INSTR(0x2E, 0)
#define   MI_COPY_MEM_MEM_SRC_GGTT  (1u << 22)
#define   MI_COPY_MEM_MEM_DST_GGTT  (1u << 21)

/*
 * MI_ATOMIC: dw1-2 the address; with inline data the operands follow,
 * Operand1 dword i at dw 3 + 2i and Operand2's at 4 + 2i (dw3-4 for a
 * dword atomic, dw3-6 for a qword, dw3-10 for an octword); else Operand1
 * is [CS_GPR1, CS_GPR0] and Operand2 [CS_GPR3, CS_GPR2].
 */
#define MI_ATOMIC                   MI_INSTR(0x2F, 0)
#define   MI_ATOMIC_SIZE_SHIFT      19          /* Data Size, 20:19 */
#define   MI_ATOMIC_SIZE_MASK       (3u << 19)
#define   MI_ATOMIC_DWORD           (0u << 19)
#define   MI_ATOMIC_QWORD           (1u << 19)
#define   MI_ATOMIC_OCTWORD         (2u << 19)
#define   MI_ATOMIC_INLINE_DATA     (1u << 18)
#define   MI_ATOMIC_CS_STALL        (1u << 17)
#define   MI_ATOMIC_RETURN_DATA     (1u << 16)  /* old value to CS_GPR4-5 */
/*
 * ATOMIC OPCODE, bits 15:8: bits 14:13 repeat the data size (0x20 for
 * qword, 0x40 for octword), bits 12:8 the operation.
 */
#define   MI_ATOMIC_OPCODE_SHIFT    8
#define   MI_ATOMIC_OPCODE_MASK     (0xFFu << 8)
#define   MI_ATOMIC_OP_MASK         (0x1Fu << 8)
#define   MI_ATOMIC_OP_QWORD        (0x20u << 8)
#define   MI_ATOMIC_OP_OCTWORD      (0x40u << 8)
#define   MI_ATOMIC_AND             (0x01u << 8)
#define   MI_ATOMIC_OR              (0x02u << 8)
#define   MI_ATOMIC_XOR             (0x03u << 8)
#define   MI_ATOMIC_MOVE            (0x04u << 8)
#define   MI_ATOMIC_INC             (0x05u << 8)
#define   MI_ATOMIC_DEC             (0x06u << 8)
#define   MI_ATOMIC_ADD             (0x07u << 8)
#define   MI_ATOMIC_SUB             (0x08u << 8)
#define   MI_ATOMIC_RSUB            (0x09u << 8)
#define   MI_ATOMIC_IMAX            (0x0Au << 8)
#define   MI_ATOMIC_IMIN            (0x0Bu << 8)
#define   MI_ATOMIC_UMAX            (0x0Cu << 8)
#define   MI_ATOMIC_UMIN            (0x0Du << 8)
#define   MI_ATOMIC_CMP_WR          (0x0Eu << 8)
#define   MI_ATOMIC_PREDEC          (0x0Fu << 8)
/* The only octword operation (Mesa's MI_ATOMIC_OP_CMP_WR16B, 0x4e). */
#define   MI_ATOMIC_CMP_WR16B       (MI_ATOMIC_OP_OCTWORD | MI_ATOMIC_CMP_WR)

/* MI_BATCH_BUFFER_START: dw1-2 the batch address. */
#define MI_BATCH_BUFFER_START       MI_INSTR(0x31, 0)
#define   MI_BATCH_SECOND_LEVEL     (1u << 22)
#define   MI_BATCH_ADD_OFFSET       (1u << 16)
#define   MI_BATCH_PREDICATE        (1u << 15)  /* MI_PREDICATE_RESULT_1 */
#define   MI_BATCH_PPGTT            (1u << 8)   /* Address Space Indicator */
#define MI_BATCH_BUFFER_START_GEN8  (MI_BATCH_BUFFER_START | INSTR_LEN(3))

/*
 * MI_CONDITIONAL_BATCH_BUFFER_END: dw1 the data, dw2-3 the address; the
 * batch ends when (memory & mask) <= data.
 */
#define MI_CONDITIONAL_BATCH_BUFFER_END MI_INSTR(0x36, 0)
#define   MI_DO_COMPARE             (1u << 21)  /* Compare Semaphore */
#define   MI_COMPARE_MASK_MODE      (1u << 19)  /* mask at address + 4 */

#define MI_PRT_BATCH_BUFFER_START   MI_INSTR(0x39, 0)

/* MI_LOAD_REGISTER_IMM's Force Posted (bit 12): i915's MI_LRI_FORCE_POSTED. */
#define   MI_LRI_FORCE_POSTED       (1u << 12)

/* ---- MI_MATH ALU instructions (PRM Vol 2a, "MI_MATH") ---- */

#define MI_MATH_ALU(op, a, b) \
    ((uint32_t)(op) << 20 | (uint32_t)(a) << 10 | (uint32_t)(b))
#define MI_ALU_OPCODE(insn)         ((uint32_t)(insn) >> 20)
#define MI_ALU_OPERAND1(insn)       (((uint32_t)(insn) >> 10) & 0x3FF)
#define MI_ALU_OPERAND2(insn)       ((uint32_t)(insn) & 0x3FF)

/* Opcodes, bits 31:20. */
#define MI_ALU_NOOP                 0x000u
#define MI_ALU_FENCE_RD             0x001u
#define MI_ALU_FENCE_WR             0x002u
#define MI_ALU_LOAD                 0x080u
#define MI_ALU_LOADINV              0x480u
#define MI_ALU_LOAD0                0x081u
#define MI_ALU_LOAD1                0x481u
#define MI_ALU_LOADIND              0x082u
#define MI_ALU_ADD                  0x100u
#define MI_ALU_SUB                  0x101u
#define MI_ALU_AND                  0x102u
#define MI_ALU_OR                   0x103u
#define MI_ALU_XOR                  0x104u
#define MI_ALU_SHL                  0x105u
#define MI_ALU_SHR                  0x106u
#define MI_ALU_SAR                  0x107u
#define MI_ALU_STORE                0x180u
#define MI_ALU_STOREIND             0x181u
#define MI_ALU_STOREINV             0x580u

/* Operands: CS_GPR0-15, the ALU's sources, accumulator and flags. */
#define MI_ALU_R(n)                 ((uint32_t)(n))
#define MI_ALU_GPRS                 16
#define MI_ALU_SRCA                 0x20u
#define MI_ALU_SRCB                 0x21u
#define MI_ALU_ACCU                 0x31u
#define MI_ALU_ZF                   0x32u
#define MI_ALU_CF                   0x33u

/* ---- GFXPIPE: 3D, media and GPGPU commands ---- */

/*
 * Command SubType (28:27), 3D Command Opcode (26:24) and 3D Command Sub
 * Opcode (23:16): bits 31:16 name the command.
 */
#define GFXPIPE_SUBTYPE_SHIFT       27
#define GFXPIPE_SUBTYPE(hdr)        (((uint32_t)(hdr) >> 27) & 3)
#define   GFXPIPE_COMMON            0x0u
#define   GFXPIPE_SINGLE_DW         0x1u
#define   GFXPIPE_MEDIA             0x2u    /* DWord Length is 15:0 */
#define   GFXPIPE_3D                0x3u
#define GFXPIPE_OPCODE(hdr)         (((uint32_t)(hdr) >> 24) & 7)
#define GFXPIPE_OPCODE_MASK         0xFFFF0000u
#define GFXPIPE_INSTR(subtype, opcode, subopcode) \
    (INSTR_RC_CLIENT << INSTR_CLIENT_SHIFT | (uint32_t)(subtype) << 27 | \
     (uint32_t)(opcode) << 24 | (uint32_t)(subopcode) << 16)

/*
 * The model decodes GFXPIPE commands and state by their fields in
 * gen11-state.h, generated in the build from
 * hw/gpumodel/intel/gen11-state.desc (and checked against Mesa's genxml);
 * the headers here serve code without it (guest probes, fuzzers), and
 * PIPELINE_SELECT_* name the pipelines (IntelGfxState.pipeline).
 */
#define PIPELINE_SELECT             GFXPIPE_INSTR(GFXPIPE_SINGLE_DW, 1, 0x04)
#define   PIPELINE_SELECT_MASK_BITS (3u << 8)   /* write enables of 1:0 */
#define   PIPELINE_SELECT_3D        0u
#define   PIPELINE_SELECT_MEDIA     1u
#define   PIPELINE_SELECT_GPGPU     2u
#define STATE_BASE_ADDRESS          GFXPIPE_INSTR(GFXPIPE_COMMON, 1, 0x01)
#define STATE_SIP                   GFXPIPE_INSTR(GFXPIPE_COMMON, 1, 0x02)
#define GPGPU_WALKER                GFXPIPE_INSTR(GFXPIPE_MEDIA, 1, 0x05)
/* PIPE_CONTROL (6 dwords): dw1 flags, dw2-3 address, dw4-5 data. */
#define PIPE_CONTROL                GFXPIPE_INSTR(GFXPIPE_3D, 2, 0x00)
#define GFX_OP_PIPE_CONTROL(len)    (PIPE_CONTROL | INSTR_LEN(len))
/* 3DPRIMITIVE: dw2 the vertex count per instance, dw4 the instances. */
#define GFX_OP_3DPRIMITIVE          GFXPIPE_INSTR(GFXPIPE_3D, 3, 0x00)

/* Predicate Enable (dw0 bit 8) of PIPE_CONTROL and 3DPRIMITIVE. */
#define GFX_PREDICATE_ENABLE        (1u << 8)

/* PIPE_CONTROL dw1. */
#define   PIPE_CONTROL_COMMAND_CACHE_INVALIDATE     (1u << 29)
#define   PIPE_CONTROL_TILE_CACHE_FLUSH             (1u << 28)
#define   PIPE_CONTROL_FLUSH_L3                     (1u << 27)
#define   PIPE_CONTROL_GLOBAL_GTT_IVB               (1u << 24)
#define   PIPE_CONTROL_MMIO_WRITE                   (1u << 23)
#define   PIPE_CONTROL_STORE_DATA_INDEX             (1u << 21)
#define   PIPE_CONTROL_CS_STALL                     (1u << 20)
#define   PIPE_CONTROL_GLOBAL_SNAPSHOT_RESET        (1u << 19)
#define   PIPE_CONTROL_TLB_INVALIDATE               (1u << 18)
#define   PIPE_CONTROL_PSD_SYNC                     (1u << 17)
#define   PIPE_CONTROL_MEDIA_STATE_CLEAR            (1u << 16)
/* Post Sync Operation, bits 15:14. */
#define   PIPE_CONTROL_POST_SYNC_OP_SHIFT           14
#define   PIPE_CONTROL_POST_SYNC_OP_MASK            (3u << 14)
#define   PIPE_CONTROL_QW_WRITE                     (1u << 14)
#define   PIPE_CONTROL_WRITE_DEPTH_COUNT            (2u << 14)
#define   PIPE_CONTROL_WRITE_TIMESTAMP              (3u << 14)
#define   PIPE_CONTROL_DEPTH_STALL                  (1u << 13)
#define   PIPE_CONTROL_RENDER_TARGET_CACHE_FLUSH    (1u << 12)
#define   PIPE_CONTROL_INSTRUCTION_CACHE_INVALIDATE (1u << 11)
#define   PIPE_CONTROL_TEXTURE_CACHE_INVALIDATE     (1u << 10)
#define   PIPE_CONTROL_INDIRECT_STATE_DISABLE       (1u << 9)
#define   PIPE_CONTROL_NOTIFY                       (1u << 8)
#define   PIPE_CONTROL_FLUSH_ENABLE                 (1u << 7)
#define   PIPE_CONTROL_DC_FLUSH_ENABLE              (1u << 5)
#define   PIPE_CONTROL_VF_CACHE_INVALIDATE          (1u << 4)
#define   PIPE_CONTROL_CONST_CACHE_INVALIDATE       (1u << 3)
#define   PIPE_CONTROL_STATE_CACHE_INVALIDATE       (1u << 2)
#define   PIPE_CONTROL_STALL_AT_SCOREBOARD          (1u << 1)
#define   PIPE_CONTROL_DEPTH_CACHE_FLUSH            (1u << 0)

/*
 * Post-sync operations, as MI_FLUSH_DW and PIPE_CONTROL encode them in
 * bits 15:14 (PIPE_CONTROL's dw1).
 */
#define POST_SYNC_OP(dw)            (((uint32_t)(dw) >> 14) & 3)
#define   POST_SYNC_NONE            0u
#define   POST_SYNC_WRITE_IMM       1u
#define   POST_SYNC_WRITE_DEPTH     2u
#define   POST_SYNC_WRITE_TIMESTAMP 3u

/* ---- 2D (blitter) commands (PRM Vol 2a, "XY_*"; BCS) ---- */

/* Blitter opcode, bits 28:22. */
#define BLT_OPCODE_SHIFT            22
#define BLT_OPCODE(hdr) \
    (((uint32_t)(hdr) >> BLT_OPCODE_SHIFT) & 0x7F)
#define BLT_INSTR(opcode) \
    (INSTR_BC_CLIENT << INSTR_CLIENT_SHIFT | \
     (uint32_t)(opcode) << BLT_OPCODE_SHIFT)

#define XY_SETUP_BLT_CMD            BLT_INSTR(0x01)
#define XY_FAST_COPY_BLT_CMD        BLT_INSTR(0x42)     /* i915: GEN9_ */
#define XY_COLOR_BLT_CMD            BLT_INSTR(0x50)
#define XY_SRC_COPY_BLT_CMD         BLT_INSTR(0x53)

/*
 * XY_COLOR_BLT (7 dwords) and XY_SRC_COPY_BLT (10): dw1 depth, ROP and
 * destination pitch, dw2/dw3 the destination's x1,y1 and x2,y2 (16 bits
 * each), dw4-5 its address; XY_COLOR_BLT's dw6 the color; XY_SRC_COPY's
 * dw6 the source x1,y1, dw7 its pitch, dw8-9 its address.  Tiled pitches
 * are in dwords, linear ones in bytes.
 */
#define   BLT_WRITE_A               (2u << 20)  /* dw0 */
#define   BLT_WRITE_RGB             (1u << 20)
#define   BLT_WRITE_RGBA            (BLT_WRITE_RGB | BLT_WRITE_A)
#define   XY_SRC_COPY_BLT_SRC_TILED (1u << 15)  /* dw0 */
#define   XY_SRC_COPY_BLT_DST_TILED (1u << 11)  /* dw0, XY_COLOR_BLT too */
#define   BLT_DEPTH_SHIFT           24          /* dw1, 25:24 */
#define   BLT_DEPTH_8               (0u << 24)
#define   BLT_DEPTH_16_565          (1u << 24)
#define   BLT_DEPTH_16_1555         (2u << 24)
#define   BLT_DEPTH_32              (3u << 24)
#define   BLT_ROP_SHIFT             16          /* dw1, 23:16 */
#define   BLT_ROP(dw1)              (((uint32_t)(dw1) >> 16) & 0xFF)
#define   BLT_ROP_SRC_COPY          (0xCCu << 16)
#define   BLT_ROP_COLOR_COPY        (0xF0u << 16)
#define   BLT_PITCH_MASK            0xFFFFu     /* dw1, dw7: signed */

/*
 * XY_FAST_COPY_BLT (10 dwords), laid out as XY_SRC_COPY_BLT: the tiling
 * of each surface in dw0, with Tile Y made Yf by a dw1 bit.
 */
#define   XY_FAST_COPY_BLT_D0_SRC_TILING_SHIFT 20   /* 21:20 */
#define   XY_FAST_COPY_BLT_D0_DST_TILING_SHIFT 13   /* 14:13 */
#define   XY_FAST_COPY_BLT_D0_SRC_TILE_MODE(mode) ((uint32_t)(mode) << 20)
#define   XY_FAST_COPY_BLT_D0_DST_TILE_MODE(mode) ((uint32_t)(mode) << 13)
#define     XY_FAST_COPY_LINEAR     0u
#define     XY_FAST_COPY_TILE_X     1u
#define     XY_FAST_COPY_TILE_Y     2u          /* legacy Y, or Yf */
#define     XY_FAST_COPY_TILE_YS    3u
#define   XY_FAST_COPY_BLT_D1_SRC_YF (1u << 31)
#define   XY_FAST_COPY_BLT_D1_DST_YF (1u << 30)
/* Color Depth, dw1 26:24: 8 to 128 bits per pixel; 2, 6 and 7 reserved. */
#define   XY_FAST_COPY_COLOR_DEPTH_SHIFT 24
#define   XY_FAST_COPY_COLOR_DEPTH_8    (0u << 24)
#define   XY_FAST_COPY_COLOR_DEPTH_16   (1u << 24)
#define   XY_FAST_COPY_COLOR_DEPTH_32   (3u << 24)
#define   XY_FAST_COPY_COLOR_DEPTH_64   (4u << 24)
#define   XY_FAST_COPY_COLOR_DEPTH_128  (5u << 24)

#endif
