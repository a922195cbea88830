/*
 * intel-gpu register map: PCI config space and BAR0 (GTTMMADR) offsets of
 * the Gen11 "Ice Lake" GT, named as in the Intel PRM and i915.
 *
 * Shared by the model (hw/gpumodel/intel), the QEMU glue and the tests, so
 * it includes only regfields.h: offsets are macros, multi-bit fields
 * GPU_FIELDs of their register, single-bit flags (1u << n) macros.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_GPU_REGS_H
#define HW_GPUMODEL_INTEL_GPU_REGS_H

#include "hw/gpumodel/regfields.h"

#define INTEL_GPU_VENDOR_ID             0x8086
#define INTEL_GPU_DEVICE_ID_ICL_GT2     0x8A52
#define INTEL_GPU_REVISION_ICL_D0       0x07

/* ---- PCI configuration space, 0/2/0 ---- */
#define INTEL_PCI_CAPID0                0x40    /* vendor-specific capability */
#define INTEL_PCI_CAPID0_A              0x44
#define INTEL_PCI_CAPID0_B              0x48
#define INTEL_PCI_MGGC0                 0x50    /* mirror of GMCH Graphics Control */
#define   INTEL_GGC_GGCLCK              (1u << 0)
#define   INTEL_GGC_IVD                 (1u << 1)
    GPU_FIELD(INTEL_PCI_MGGC0, GGMS, 6, 2);     /* GGTT size */
#define   INTEL_GGC_GGMS_8M             3u
    GPU_FIELD(INTEL_PCI_MGGC0, GMS, 8, 8);      /* stolen, 32 MiB units */
#define INTEL_PCI_DEVEN0                0x54    /* mirror of Device Enable */
#define   INTEL_DEVEN_D0EN              (1u << 0)
#define   INTEL_DEVEN_D2EN              (1u << 4)
#define INTEL_PCI_DEV2CTL               0x58
#define INTEL_PCI_MSAC                  0x60    /* Multi Size Aperture Control */
    GPU_FIELD(INTEL_PCI_MSAC, APSZ, 16, 5);
#define   INTEL_MSAC_APSZ_256M          0x01u
#define INTEL_PCI_PCIE_CAP              0x70
#define INTEL_PCI_MSI_CAP               0xAC
#define INTEL_PCI_BDSM                  0xC0    /* mirror of Base Data of Stolen Memory */
#define   INTEL_BDSM_LOCK               (1u << 0)
    GPU_FIELD(INTEL_PCI_BDSM, ADDR, 20, 12);
#define INTEL_PCI_BDSM_HI               0xC4
#define INTEL_PCI_VTDBAR_LSB            0xC8
#define INTEL_PCI_VTDBAR_MSB            0xCC
#define INTEL_PCI_PM_CAP                0xD0
#define INTEL_PCI_SWSMI                 0xE0
#define INTEL_PCI_GSE                   0xE4
#define INTEL_PCI_SWSCI                 0xE8
#define INTEL_PCI_ASLS                  0xFC

/* ---- BARs ---- */
#define INTEL_GTTMMADR_BAR              0
#define INTEL_GTTMMADR_SIZE             (16u << 20)
#define INTEL_MMIO_SIZE                 (2u << 20)   /* registers */
#define INTEL_GSM_OFFSET                (8u << 20)   /* GGTT PTEs */
#define INTEL_GSM_SIZE                  (8u << 20)
#define INTEL_GMADR_BAR                 2
#define INTEL_GMADR_SIZE                (256u << 20) /* aperture */
#define INTEL_IOBAR_BAR                 4
#define INTEL_IOBAR_SIZE                64
#define INTEL_IOBAR_MMIO_INDEX          0x0
#define INTEL_IOBAR_MMIO_DATA           0x4

/* ---- GGTT ---- */
#define INTEL_GGTT_PAGE_SIZE            4096u
#define INTEL_GGTT_PTE_PRESENT          (1ull << 0)
GPU_FIELD64(INTEL_GGTT_PTE, ADDR, 12, 27);

/* ---- MMIO (BAR0 offsets) ---- */
#define INTEL_RPM_CONFIG0               0x0D00
    GPU_FIELD(INTEL_RPM_CONFIG0, CRYSTAL, 3, 3); /* 24, 19.2, 38.4, 25 MHz */
    GPU_FIELD(INTEL_RPM_CONFIG0, CTC, 1, 2);    /* CTC shift */
#define INTEL_FORCEWAKE_ACK_VDBOX(n)    (0x0D50 + 4 * (n))
#define INTEL_FORCEWAKE_ACK_VEBOX(n)    (0x0D70 + 4 * (n))
#define INTEL_FORCEWAKE_ACK_RENDER      0x0D84
#define INTEL_MCR_SELECTOR              0x0FDC
#define INTEL_PGTBL_ER                  0x2024
#define INTEL_IPEIR                     0x2064
#define INTEL_EIR                       0x20B0
#define INTEL_EMR                       0x20B4
#define INTEL_GAMW_ECO_DEV_RW_IA        0x4080
#define INTEL_RING_FAULT_REG            0x4094
#define INTEL_PAT_INDEX(i)              (0x40E0 + 4 * (i))
#define INTEL_RTCR                      0x4260   /* render TLB invalidate */
#define INTEL_M1TCR                     0x4264
#define INTEL_M2TCR                     0x4268
#define INTEL_BTCR                      0x426C
#define INTEL_VTCR                      0x4270
#define INTEL_FAULT_TLB_DATA0           0x4B10
#define INTEL_FAULT_TLB_DATA1           0x4B14
#define INTEL_MSG_IDLE_CS               0x8000
#define INTEL_MSG_IDLE_BCS              0x800C
#define INTEL_MIRROR_FUSE3              0x9118
#define INTEL_EU_DISABLE                0x9134
#define INTEL_GT_SLICE_ENABLE           0x9138
#define INTEL_GT_SUBSLICE_DISABLE       0x913C
#define INTEL_GT_VEBOX_VDBOX_DISABLE    0x9140
#define INTEL_GDRST                     0x941C
#define   INTEL_GRDOM_FULL              (1u << 0)
#define   INTEL_GRDOM_RENDER            (1u << 1)
#define   INTEL_GRDOM_BLT               (1u << 2)
#define   INTEL_GRDOM_GUC               (1u << 3)
#define   INTEL_GRDOM_MEDIA(n)          (1u << (5 + (n)))    /* VCS0..3 */
#define   INTEL_GRDOM_VECS(n)           (1u << (13 + (n)))   /* VECS0..1 */
#define INTEL_FORCEWAKE_GT              0xA188
#define INTEL_CTC_MODE                  0xA26C
#define INTEL_FORCEWAKE_RENDER          0xA278
#define INTEL_FORCEWAKE_VDBOX(n)        (0xA540 + 4 * (n))
#define INTEL_FORCEWAKE_VEBOX(n)        (0xA560 + 4 * (n))
#define   INTEL_FORCEWAKE_KERNEL        (1u << 0)
#define   INTEL_FORCEWAKE_FALLBACK      (1u << 15)
#define INTEL_GUC_STATUS                0xC000
#define   INTEL_GUC_STATUS_MIA_IN_RESET (1u << 0)
#define INTEL_GUC_WOPCM_SIZE            0xC050
#define INTEL_DMA_GUC_WOPCM_OFFSET      0xC340
#define INTEL_SKL_FUSE_STATUS           0x42000
#define INTEL_FPGA_DBG                  0x42300
#define   INTEL_FPGA_DBG_RM_NOCLAIM     (1u << 31)
#define INTEL_DISPLAY_INT_CTL           0x44200
#define INTEL_DE_PIPE_ISR(p)            (0x44400 + 0x10 * (p))
#define INTEL_DE_PORT_ISR               0x44440
#define INTEL_DE_MISC_ISR               0x44460
#define INTEL_DE_HPD_ISR                0x44470
#define INTEL_PCU_ISR                   0x444E0
#define INTEL_PCU_IMR                   0x444E4
#define INTEL_PCU_IIR                   0x444E8
#define INTEL_PCU_IER                   0x444EC
#define INTEL_GU_MISC_ISR               0x444F0
#define INTEL_GU_MISC_IMR               0x444F4
#define INTEL_GU_MISC_IIR               0x444F8
#define INTEL_GU_MISC_IER               0x444FC
#define INTEL_PWR_WELL_CTL1             0x45400  /* BIOS, driver, KVMR, debug */
#define INTEL_PWR_WELL_CTL_AUX1         0x45440
#define INTEL_PWR_WELL_CTL_DDI1         0x45450
#define INTEL_DC_STATE_EN               0x45504
#define INTEL_SKL_DFSM                  0x51000
#define   INTEL_DFSM_PIPE_A_DISABLE     (1u << 30)
#define   INTEL_DFSM_PIPE_B_DISABLE     (1u << 21)
#define   INTEL_DFSM_PIPE_C_DISABLE     (1u << 28)
#define INTEL_PVINFO_PAGE               0x78000  /* GVT-g; no magic here */
#define INTEL_SDE_ISR                   0xC4000
#define INTEL_SDE_IMR                   0xC4004
#define INTEL_SDE_IIR                   0xC4008
#define INTEL_SDE_IER                   0xC400C
/*
 * Fences (i915 intel_ggtt_fencing.c, i965_write_fence_reg): 64 bits each,
 * low dword start page | Y | valid, high dword last page | pitch / 128 - 1.
 */
#define INTEL_FENCE_REG(i)              (0x100000 + 8 * (i))
#define INTEL_FENCE_REG_HI(i)           (INTEL_FENCE_REG(i) + 4)
#define INTEL_FENCE_COUNT               32
#define   INTEL_FENCE_VALID             (1u << 0)
#define   INTEL_FENCE_TILING_Y          (1u << 1)
    GPU_FIELD(INTEL_FENCE_REG, PAGE, 12, 20);   /* start page */
    GPU_FIELD(INTEL_FENCE_REG_HI, PAGE, 12, 20); /* last page */
    GPU_FIELD(INTEL_FENCE_REG_HI, PITCH, 0, 12);
#define   INTEL_FENCE_PITCH_UNIT        128
#define INTEL_GFX_FLSH_CNTL             0x101008
#define   INTEL_GFX_FLSH_CNTL_EN        (1u << 0)
#define INTEL_GGC_MIRROR                0x108040
#define INTEL_EDRAM_CAP                 0x120010
#define INTEL_FORCEWAKE_ACK_GT          0x130044
#define INTEL_PCODE_MAILBOX             0x138124
#define   INTEL_PCODE_READY             (1u << 31)
    GPU_FIELD(INTEL_PCODE_MAILBOX, CMD, 0, 8);  /* then the error code */
#define   INTEL_PCODE_WRITE_MIN_FREQ_TABLE 0x08u
#define   INTEL_PCODE_DYNAMIC_DUTY_CYCLE   0x1Au
#define   INTEL_PCODE_ERR_ILLEGAL_CMD   0x01u
#define INTEL_PCODE_DATA                0x138128
#define INTEL_PCODE_DATA1               0x13812C
#define INTEL_MCHBAR_MIRROR_BASE        0x140000
#define INTEL_MCHBAR_MIRROR_SIZE        0x10000
#define INTEL_RP_STATE_CAP              0x145998
#define INTEL_DCLK                      0x145E04
#define INTEL_FREQ_INFO_REC             0x145EF0
#define INTEL_SWVIRT_BASE               0x178000 /* SW virtualization range */
#define INTEL_SWVIRT_SIZE               0x1000
#define INTEL_GFX_MSTR_IRQ              0x190010
#define   INTEL_MSTR_GT_DW(n)           (1u << (n))
#define   INTEL_MSTR_DISPLAY            (1u << 16)
#define   INTEL_MSTR_GU_MISC            (1u << 29)
#define   INTEL_MSTR_PCU                (1u << 30)
#define   INTEL_MSTR_ENABLE             (1u << 31)
#define INTEL_GT_INTR_DW(n)             (0x190018 + 4 * (n))
#define INTEL_RENDER_COPY_INTR_ENABLE   0x190030 /* RCS 31:16, BCS 15:0 */
#define INTEL_VCS_VECS_INTR_ENABLE      0x190034 /* VCS 31:16, VECS 15:0 */
#define INTEL_GUC_SG_INTR_ENABLE        0x190038
#define INTEL_GPM_WGBOXPERF_INTR_ENABLE 0x19003C /* GTPM 31:16, OA 15:0 */
#define INTEL_CRYPTO_RSVD_INTR_ENABLE   0x190040
#define INTEL_GUNIT_CSME_INTR_ENABLE    0x190044 /* Gunit 31:16, CSME 15:0 */
#define INTEL_INTR_IDENTITY_REG(n)      (0x190060 + 4 * (n))
#define   INTEL_INTR_DATA_VALID         (1u << 31)
    GPU_FIELD(INTEL_INTR_IDENTITY_REG, INTR, 0, 16);
    GPU_FIELD(INTEL_INTR_IDENTITY_REG, CLASS, 16, 3);
    GPU_FIELD(INTEL_INTR_IDENTITY_REG, INSTANCE, 20, 6);
#define INTEL_IIR_REG_SELECTOR(n)       (0x190070 + 4 * (n))
#define INTEL_RCS0_RSVD_INTR_MASK       0x190090
#define INTEL_BCS_RSVD_INTR_MASK        0x1900A0
#define INTEL_VCS_INTR_MASK(n)          (0x1900A8 + 4 * ((n) / 2))
#define INTEL_VECS_INTR_MASK(n)         (0x1900D0 + 4 * ((n) / 2))
#define INTEL_GUC_SG_INTR_MASK          0x1900E8
#define INTEL_GPM_WGBOXPERF_INTR_MASK   0x1900EC
#define INTEL_CRYPTO_RSVD_INTR_MASK     0x1900F0
#define INTEL_GUNIT_CSME_INTR_MASK      0x1900F4
/* Engine interrupt bits (16-bit message data). */
#define INTEL_GT_RENDER_USER_INTERRUPT  (1u << 0)
#define INTEL_GT_CS_MASTER_ERROR        (1u << 3)
#define INTEL_GT_CONTEXT_SWITCH         (1u << 8)
#define INTEL_GT_WAIT_SEMAPHORE         (1u << 11)
#define INTEL_GT_FLUSH_NOTIFY           (1u << 4)
#define INTEL_GT_WATCHDOG_EXPIRED       (1u << 6)
#define INTEL_GT_PAGE_FAULT             (1u << 7)

/* Command-streamer register offsets, relative to an engine's base. */
#define INTEL_RCS0_BASE                 0x002000
#define INTEL_BCS0_BASE                 0x022000
#define INTEL_VCS0_BASE                 0x1C0000
#define INTEL_VCS1_BASE                 0x1C4000
#define INTEL_VCS2_BASE                 0x1D0000
#define INTEL_VCS3_BASE                 0x1D4000
#define INTEL_VECS0_BASE                0x1C8000
#define INTEL_VECS1_BASE                0x1D8000
#define INTEL_RING_TAIL                 0x030
#define INTEL_RING_HEAD                 0x034
#define INTEL_RING_START                0x038
#define INTEL_RING_CTL                  0x03C
#define INTEL_RING_HWS_PGA              0x080
#define INTEL_RING_HWSTAM               0x098
#define INTEL_RING_MI_MODE              0x09C
#define   INTEL_MI_MODE_STOP_RING       (1u << 8)
#define   INTEL_MI_MODE_IDLE            (1u << 9)
#define INTEL_RING_EIR                  0x0B0
#define INTEL_RING_EMR                  0x0B4
#define INTEL_RING_ESR                  0x0B8
#define INTEL_RING_RESET_CTL            0x0D0
#define   INTEL_RESET_CTL_REQUEST_RESET (1u << 0)
#define   INTEL_RESET_CTL_READY_TO_RESET (1u << 1)
#define   INTEL_RESET_CTL_CAT_ERROR     (1u << 2)
#define INTEL_RING_EXECLIST_STATUS_LO   0x234
#define INTEL_RING_EXECLIST_STATUS_HI   0x238
#define INTEL_RING_MODE                 0x29C
#define INTEL_RING_TIMESTAMP            0x358
#define INTEL_RING_TIMESTAMP_UDW        0x35C
#define INTEL_RING_CONTEXT_STATUS_PTR   0x3A0
    GPU_FIELD(INTEL_RING_CONTEXT_STATUS_PTR, WRITE_PTR, 0, 4);
    GPU_FIELD(INTEL_RING_CONTEXT_STATUS_PTR, READ_PTR, 8, 4);
#define INTEL_RING_ACTHD_UDW            0x05C
#define INTEL_RING_INSTDONE             0x06C
#define INTEL_RING_ACTHD                0x074
#define INTEL_RING_NOPID                0x094
#define INTEL_RING_IMR                  0x0A8
#define INTEL_RING_INSTPM               0x0C0
#define INTEL_RING_BB_STATE             0x110
#define   INTEL_BB_STATE_PPGTT          (1u << 5)
#define   INTEL_BB_STATE_PRIVILEGED     (1u << 8)   /* model's encoding */
#define   INTEL_BB_STATE_ACTIVE         (1u << 0)   /* model's encoding */
#define INTEL_RING_SBB_ADDR             0x114
#define INTEL_RING_SBB_STATE            0x118
#define INTEL_RING_SBB_ADDR_UDW         0x11C
#define INTEL_RING_BBADDR               0x140
#define INTEL_RING_BBADDR_UDW           0x168
#define INTEL_RING_WATCHDOG_CTL         0x178
#define INTEL_RING_WATCHDOG_THRESH      0x17C
#define INTEL_RING_BB_PER_CTX_PTR       0x1C0
#define INTEL_RING_INDIRECT_CTX         0x1C4
#define INTEL_RING_INDIRECT_CTX_OFFSET  0x1C8
#define INTEL_RING_ELSP                 0x230
#define INTEL_RING_CONTEXT_CONTROL      0x244
#define   INTEL_CTX_CTRL_RESTORE_INHIBIT (1u << 0)
#define INTEL_RING_PDP_UDW(n)           (0x274 + 8 * (n))
#define INTEL_RING_PDP_LDW(n)           (0x270 + 8 * (n))
#define   INTEL_GFX_DISABLE_LEGACY_MODE (1u << 3)   /* RING_MODE: execlists */
#define INTEL_RING_CSB_BUF              0x370       /* entries 0-5 */
#define INTEL_RING_CSB_BUF2             0x3C0       /* entries 6-11 */
#define INTEL_RING_CTX_TIMESTAMP        0x3A8
#define INTEL_RING_SET_PREDICATE_RESULT 0x3B8
#define INTEL_RING_PREDICATE_RESULT_2   0x3BC
#define INTEL_RING_PREDICATE_SRC0       0x400
#define INTEL_RING_PREDICATE_SRC1       0x408
#define INTEL_RING_PREDICATE_DATA       0x410
#define INTEL_RING_PREDICATE_RESULT     0x418
#define INTEL_RING_PREDICATE_RESULT_1   0x41C
#define INTEL_RING_FORCE_TO_NONPRIV(i)  (0x4D0 + 4 * (i))
#define INTEL_RING_EXECLIST_SQ          0x510       /* 8 x 64-bit */
#define INTEL_RING_EXECLIST_CONTROL     0x550
#define   INTEL_EL_CTRL_LOAD            (1u << 0)
#define INTEL_RING_CS_GPR(n)            (0x600 + 8 * (n))
#define INTEL_RING_BB_OFFSET            0x158

/*
 * Render engine registers the hardware keeps in the render context image
 * that i915's register-state page does not list (gt/intel_lrc.c
 * gen11_rcs_offsets): the model saves them in its part of the image
 * (ctx-image.h).  Names as i915's i915_reg.h and intel_gt_regs.h spell
 * them; all but CS_CHICKEN1, GT_MODE and L3CNTLREG are in the PRM's
 * render user-mode register list (cs-nonpriv.c).
 */
#define INTEL_GPGPU_THREADS_DISPATCHED  0x2290      /* 64-bit */
/* Pipeline statistics, 64-bit each, HS_INVOCATION_COUNT to PS_DEPTH_COUNT. */
#define INTEL_HS_INVOCATION_COUNT       0x2300
#define INTEL_DS_INVOCATION_COUNT       0x2308
#define INTEL_IA_VERTICES_COUNT         0x2310
#define INTEL_IA_PRIMITIVES_COUNT       0x2318
#define INTEL_VS_INVOCATION_COUNT       0x2320
#define INTEL_GS_INVOCATION_COUNT       0x2328
#define INTEL_GS_PRIMITIVES_COUNT       0x2330
#define INTEL_CL_INVOCATION_COUNT       0x2338
#define INTEL_CL_PRIMITIVES_COUNT       0x2340
#define INTEL_PS_INVOCATION_COUNT       0x2348
#define INTEL_PS_DEPTH_COUNT            0x2350
#define INTEL_3DPRIM_END_OFFSET         0x2420
#define INTEL_3DPRIM_START_VERTEX       0x2430
#define INTEL_3DPRIM_VERTEX_COUNT       0x2434
#define INTEL_3DPRIM_INSTANCE_COUNT     0x2438
#define INTEL_3DPRIM_START_INSTANCE     0x243C
#define INTEL_3DPRIM_BASE_VERTEX        0x2440
#define INTEL_GPGPU_DISPATCHDIMX        0x2500
#define INTEL_GPGPU_DISPATCHDIMY        0x2504
#define INTEL_GPGPU_DISPATCHDIMZ        0x2508
#define INTEL_CS_CHICKEN1               0x2580      /* masked */
    GPU_FIELD(INTEL_CS_CHICKEN1, PREEMPT_GPGPU_LEVEL, 1, 2);
#define   INTEL_PREEMPT_GPGPU_MID_THREAD    0
#define   INTEL_PREEMPT_GPGPU_THREAD_GROUP  1
#define   INTEL_PREEMPT_GPGPU_COMMAND       2
#define INTEL_3DPRIM_XP(n)              (0x2690 + 4 * (n))      /* 0-2 */
#define INTEL_SO_NUM_PRIMS_WRITTEN(n)   (0x5200 + 8 * (n))      /* 64-bit */
#define INTEL_SO_PRIM_STORAGE_NEEDED(n) (0x5240 + 8 * (n))      /* 64-bit */
#define INTEL_SO_WRITE_OFFSET(n)        (0x5280 + 4 * (n))
#define INTEL_GT_MODE                   0x7008      /* masked */
    /* iris on Gen11: binding table pointers' bits 18:8, not 15:5. */
    GPU_FIELD(INTEL_GT_MODE, BINDING_TABLE_ALIGNMENT, 10, 1);
#define INTEL_L3CNTLREG                 0x7034

/* Blitter engine only (i915 intel_gt_regs.h); masked. */
#define INTEL_BCS_SWCTRL                0x22200
#define   INTEL_BCS_SWCTRL_SRC_Y        (1u << 0)   /* tiled = TileY */
#define   INTEL_BCS_SWCTRL_DST_Y        (1u << 1)

/*
 * Render engine modes and controls that user-mode drivers program (Mesa's
 * gen110.xml names and offsets; absolute; CS_CHICKEN1, GT_MODE, L3CNTLREG
 * and the statistics registers are above).  The *_MODE*, *CHICKEN* and
 * CS_DEBUG_MODE2 registers are masked.
 */
#define INTEL_CS_DEBUG_MODE2            0x20D8
#define INTEL_CACHE_MODE_0              0x7000
#define INTEL_CACHE_MODE_1              0x7004
#define INTEL_SLICE_COMMON_ECO_CHICKEN1 0x731C
#define INTEL_TCCNTLREG                 0xB0A4
#define INTEL_SAMPLER_MODE              0xE18C
#define INTEL_HALF_SLICE_CHICKEN7       0xE194
#define INTEL_TD_CTL                    0xE400
#define INTEL_TD_CTL2                   0xE404

/* OA unit (i915_perf_oa_regs.h). */
#define INTEL_OACTXCONTROL              0x2360
#define   INTEL_OACTXCONTROL_COUNTER_RESUME (1u << 0)
#define   INTEL_OACTXCONTROL_TIMER_ENABLE (1u << 1)
#define INTEL_OABUFFER_UDW              0x23B4
/* Trigger 1 is registers 1-4 (n = 0-3), trigger 2 registers 5-8. */
#define INTEL_OASTARTTRIG(n)            (0x2710 + 4 * (n))
#define INTEL_OAREPORTTRIG(n)           (0x2740 + 4 * (n))
#define   INTEL_OATRIG_THRESHOLD_ENABLE (1u << 23)      /* in 2 and 6 */
#define   INTEL_OATRIG_REPORT_ENABLE    (1u << 31)      /* in 2 and 6 */
#define INTEL_OACEC(n)                  (0x2770 + 4 * (n))   /* 8 x 2 */
/* CECn_0 (i915_reg.h up to Linux 5.x: OACEC_COMPARE_*, OACEC_SELECT_*). */
    GPU_FIELD(INTEL_OACEC, COMPARE, 0, 3);      /* function */
    GPU_FIELD(INTEL_OACEC, VALUE, 3, 16);
    GPU_FIELD(INTEL_OACEC, SELECT, 19, 2);      /* 0 NOA, 1 prev, 2 Bool */
/* NOA (i915: GDT_CHICKEN_BITS, NOA_WRITE, GEN10_NOA_WRITE_HIGH, RPM_CONFIG1) */
#define INTEL_GDT_CHICKEN_BITS          0x9840
#define INTEL_NOA_WRITE_HIGH            0x9884
#define INTEL_NOA_WRITE                 0x9888
    GPU_FIELD(INTEL_NOA_WRITE, VALUE, 0, 16);
    GPU_FIELD(INTEL_NOA_WRITE, ADDR, 16, 16);
#define INTEL_RPM_CONFIG1               0x0D04
#define   INTEL_RPM_CONFIG1_GT_NOA_ENABLE (1u << 9)
#define INTEL_OACONTROL                 0x2B00
#define   INTEL_OACONTROL_ENABLE        (1u << 0)
#define INTEL_OA_DEBUG                  0x2B04
#define   INTEL_OA_DEBUG_NO_CTX_SWITCH_REPORTS (1u << 1)
#define   INTEL_OA_DEBUG_NO_GO_REPORTS  (1u << 2)
#define   INTEL_OA_DEBUG_NO_CLK_RATIO_REPORTS (1u << 5)
#define   INTEL_OA_DEBUG_INCLUDE_CLK_RATIO (1u << 6)
#define INTEL_OASTATUS                  0x2B08
#define   INTEL_OASTATUS_REPORT_LOST    (1u << 0)
#define   INTEL_OASTATUS_BUFFER_OVERFLOW (1u << 1)
#define   INTEL_OASTATUS_COUNTER_OVERFLOW (1u << 2)
#define INTEL_OA_IMR                    0x2B20
#define   INTEL_OA_IMR_BUFFER_HALF_FULL (1u << 28)
#define INTEL_OAHEADPTR                 0x2B0C
#define INTEL_OATAILPTR                 0x2B10
#define INTEL_OABUFFER                  0x2B14
#define INTEL_EU_PERF_CNTL0             0xE458      /* 1-3 at +0x100 each */
#define INTEL_EU_PERF_CNTL4             0xE45C      /* 5-6 at +0x100 each */
/* Readable OA counters (Mesa's intel_perf_regs.h, GFX8_OA_PERF_*). */
#define INTEL_OAPERF_A(n)               (0x2800 + 8 * (n))  /* A0-A31, 2 dw */
#define INTEL_OAPERF_A32(n)             (0x2900 + 4 * (n))  /* A32-A35 */
#define INTEL_OAPERF_GPU_TICKS          0x2910
#define INTEL_OAPERF_B(n)               (0x2920 + 4 * (n))
#define INTEL_OAPERF_C(n)               (0x2940 + 4 * (n))
/* Free-running A4, A6, A19, A20: lower and upper dword each. */
#define INTEL_OAPERF_FREE(n)            (0x2960 + 8 * (n))

/* RPS (gt/intel_gt_regs.h): frequencies in 50/3 MHz units. */
#define INTEL_RPNSWREQ                  0xA008
    GPU_FIELD(INTEL_RPNSWREQ, FREQ, 23, 9);     /* requested */
#define INTEL_RPSTAT1                   0xA01C
    GPU_FIELD(INTEL_RPSTAT1, CAGF, 23, 9);      /* granted */

/* RC6 (gt/intel_gt_regs.h; gt/intel_rc6.c programs them). */
#define INTEL_RC_CONTROL                0xA090
#define   INTEL_RC_CTL_RC6_ENABLE       (1u << 18)
#define   INTEL_RC_CTL_EI_MODE          (1u << 27)
#define   INTEL_RC_CTL_HW_ENABLE        (1u << 31)
#define INTEL_RC_STATE                  0xA094
    GPU_FIELD(INTEL_RC_STATE, SW_TARGET, 16, 3); /* 4: RC6 */
#define INTEL_RC6_WAKE_RATE_LIMIT       0xA09C
#define INTEL_MEDIA_WAKE_RATE_LIMIT     0xA0A0
#define INTEL_RC_EVALUATION_INTERVAL    0xA0A8
#define INTEL_RC_IDLE_HYSTERESIS        0xA0AC      /* in RC6 ticks */
#define INTEL_RC_SLEEP                  0xA0B0
#define INTEL_RC6_THRESHOLD             0xA0B8
#define INTEL_MEDIA_PG_IDLE_HYSTERESIS  0xA0C4
#define INTEL_RENDER_PG_IDLE_HYSTERESIS 0xA0C8
#define INTEL_PG_ENABLE                 0xA210
#define INTEL_GT_CORE_STATUS            0x138060
    GPU_FIELD(INTEL_GT_CORE_STATUS, RC, 0, 3);
#define   INTEL_GT_CORE_RC0             0u
#define   INTEL_GT_CORE_RC6             3u
#define INTEL_GT_GFX_RC6                0x138108    /* residency, in ticks */
/* The RC6 tick: residency and hysteresis count 1.28 us units. */
#define INTEL_RC6_TICK_NS               1280u

/* Engine error bits (EIR, EMR, ESR). */
#define INTEL_ERROR_INSTRUCTION         (1u << 0)
#define INTEL_ERROR_PRIVILEGE           (1u << 2)   /* model's choice */
#define INTEL_ERROR_PAGE_TABLE          (1u << 4)

/* Hardware status page (dword indices) and context status buffer. */
#define INTEL_HWS_CSB_BUF0              0x10
#define INTEL_HWS_CSB_WRITE             0x2F
#define INTEL_CSB_ENTRIES               12
#define   INTEL_CSB_IDLE_ACTIVE         (1u << 0)
#define   INTEL_CSB_PREEMPTED           (1u << 1)
#define   INTEL_CSB_ELEMENT_SWITCH      (1u << 2)
#define   INTEL_CSB_ACTIVE_IDLE         (1u << 3)
#define   INTEL_CSB_COMPLETE            (1u << 4)
#define   INTEL_CSB_LITE_RESTORE        (1u << 15)

/* Execlist context descriptor. */
#define INTEL_CTX_DESC_VALID            (1ull << 0)
#define INTEL_CTX_DESC_FORCE_RESTORE    (1ull << 2)
GPU_FIELD64(INTEL_CTX_DESC, ADDR_MODE, 3, 2);   /* 3: legacy 64-bit */
#define INTEL_CTX_DESC_PRIVILEGE        (1ull << 8)
GPU_FIELD64(INTEL_CTX_DESC, LRCA, 12, 20);      /* GGTT address */
#define INTEL_LRC_STATE_OFFSET          0x1000      /* after the PPHWSP */
/*
 * Context image sizes, PPHWSP included (i915 gt/intel_engine_cs.c:
 * GEN11_LR_CONTEXT_RENDER_SIZE, GEN8_LR_CONTEXT_OTHER_SIZE): the render
 * engine saves and restores the whole of its own.
 */
#define INTEL_LR_CONTEXT_RENDER_SIZE    (14 * 4096)
#define INTEL_LR_CONTEXT_OTHER_SIZE     (2 * 4096)

#endif
