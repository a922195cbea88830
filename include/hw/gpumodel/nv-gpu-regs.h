/*
 * nv-gpu register map: BAR0 offsets of an NVIDIA G84-class card, named as
 * in envytools (rnndb) and nouveau.
 *
 * Shared by the model (hw/gpumodel/nvidia), the QEMU glue, the tests and
 * the guest probe, so it includes only regfields.h: offsets are macros,
 * multi-bit fields GPU_FIELDs of their register, single-bit flags
 * (1u << n) macros.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_NV_GPU_REGS_H
#define HW_GPUMODEL_NV_GPU_REGS_H

#include "hw/gpumodel/regfields.h"

#define NV_GPU_VENDOR_ID                0x10de
#define NV_GPU_DEVICE_ID_G84            0x0402  /* GeForce 8600 GT */
#define NV_GPU_BAR0_SIZE                (16u << 20)

/* ---- PMC ---- */
#define NV_PMC_BOOT_0                   0x000000
#define NV_PMC_BOOT_1                   0x000004
#define NV_PMC_INTR                     0x000100
#define   NV_PMC_INTR_PTIMER            (1u << 20)
#define NV_PMC_INTR_EN                  0x000140
#define   NV_PMC_INTR_EN_HW             (1u << 0)
#define NV_PMC_ENABLE                   0x000200

/*
 * ---- PTIMER ----
 * nouveau's names (nvkm/subdev/timer/regsnv04.h); envytools
 * (docs/hw/bus/ptimer.rst) calls 0x9200 CLOCK_DIV and 0x9210 CLOCK_MUL:
 * the counter runs at source x CLOCK_SOURCE's (MUL+1)/(DIV+1) x
 * DENOMINATOR / NUMERATOR, and TIME is the counter << 5.
 */
#define NV_PTIMER_INTR                  0x009100
#define   NV_PTIMER_INTR_ALARM          (1u << 0)
#define NV_PTIMER_INTR_EN               0x009140
#define NV_PTIMER_NUMERATOR             0x009200        /* CLOCK_DIV */
#define NV_PTIMER_DENOMINATOR           0x009210        /* CLOCK_MUL */
#define NV_PTIMER_CLOCK_SOURCE          0x009220        /* NV41- */
    GPU_FIELD(NV_PTIMER_CLOCK_SOURCE, MUL, 0, 8);   /* MUL + 1 */
    GPU_FIELD(NV_PTIMER_CLOCK_SOURCE, DIV, 8, 4);   /* DIV + 1 */
#define   NV_PTIMER_SRC_EXTERNAL        (1u << 16)
#define NV_PTIMER_TIME_SHIFT            5       /* TIME = counter << 5 */
#define NV_PTIMER_TIME_LOW              0x009400
#define NV_PTIMER_TIME_HIGH             0x009410
#define NV_PTIMER_ALARM                 0x009420

/*
 * ---- PGRAPH: what PCOUNTER sees, and what nouveau's GR init writes
 * (nvkm/engine/gr/nv50.c: nv50_gr_init; g84.c: g84_gr_tlb_flush) ----
 */
#define NV_PGRAPH_BASE                  0x400000
#define NV_PGRAPH_SIZE                  0x10000
#define NV_PGRAPH_PM_CTRL               0x400084
#define   NV_PGRAPH_PM_TRIGGER          (1u << 5)
#define NV_PGRAPH_INTR                  0x400100
#define NV_PGRAPH_TRAP                  0x400108
#define NV_PGRAPH_STATUS(i)             (0x400380 + (i) * 4)
#define NV_PGRAPH_STATUSES              3
#define NV_PGRAPH_IDLE                  0x400700

/*
 * ---- the write flush nouveau's g84_bar_flush() triggers ----
 * Write TRIGGER, poll BUSY to 0.  The model pulses PGRAPH.WRCACHE_FLUSH
 * on TRIGGER (docs/nv-gpu.rst: a modelling choice).
 */
#define NV_FLUSH                        0x070000
#define   NV_FLUSH_TRIGGER              (1u << 0)
#define   NV_FLUSH_BUSY                 (1u << 1)

/*
 * ---- PBUS (envytools rnndb/bus/pbus.xml) ----
 * HWUNITS: which units the chip was built (fused) with.  HOST_MEM
 * (G80:GF100): the PRAMIN window and the BAR1/BAR3 translation.
 */
#define NV_PBUS_DEBUG_1                 0x001084
#define NV_PBUS_INTR                    0x001100
#define NV_PBUS_INTR_EN                 0x001140
#define NV_PBUS_HWUNITS_0               0x001540
    GPU_FIELD(NV_PBUS_HWUNITS_0, TPC, 0, 16);
    GPU_FIELD(NV_PBUS_HWUNITS_0, PART, 16, 8);
    GPU_FIELD(NV_PBUS_HWUNITS_0, MP, 24, 4);
#define   NV_HWUNITS_0_UNK28            (1u << 28)
#define   NV_HWUNITS_0_VDEC             (1u << 30)
#define NV_PBUS_HWUNITS_1               0x00154c
#define   NV_HWUNITS_1_PCIE_V2          (1u << 0)
#define   NV_HWUNITS_1_DISPLAY          (1u << 2)
#define   NV_HWUNITS_1_BSP              (1u << 5)
#define   NV_HWUNITS_1_CIPHER           (1u << 6)
#define   NV_HWUNITS_1_PCIE_SPEED       (1u << 7)
#define NV_PBUS_PMEM                    0x001700
    GPU_FIELD(NV_PBUS_PMEM, OFFSET, 0, 24);         /* address >> 16 */
    GPU_FIELD(NV_PBUS_PMEM, TARGET, 24, 2);
#define NV_PBUS_BAR_CHAN                0x001704
    GPU_FIELD(NV_PBUS_BAR_CHAN, ADDR, 0, 28);       /* address >> 12 */
    GPU_FIELD(NV_PBUS_BAR_CHAN, TARGET, 28, 2);
#define   NV_BAR_CHAN_WHICH_BAR         (1u << 30)      /* 0: PEEPHOLE */
#define NV_PBUS_BAR1                    0x001708
#define NV_PBUS_BAR3                    0x00170c
    GPU_FIELD(NV_BAR, INST, 0, 16);                 /* BAR1/3: ctxdma >> 4 */
#define   NV_BAR_MODE_DMAOBJ            (1u << 31)      /* 0: linear VRAM */
#define NV_PBUS_PEEPHOLE                0x001710
#define NV_PBUS_REMAP(i)                (0x001900 + (i) * 4)
#define NV_PBUS_REMAPS                  8

/* ---- PFB (envytools rnndb/memory/nv50_pfb.xml; nouveau ramnv50.c) ---- */
#define NV_PFB_CFG0                     0x100200
#define NV_PFB_CFG1                     0x100204
    GPU_FIELD(NV_PFB_CFG1, COLBITS, 12, 4);
    GPU_FIELD(NV_PFB_CFG1, ROWBITSA, 16, 4);        /* row bits - 8 */
    GPU_FIELD(NV_PFB_CFG1, ROWBITSB, 20, 4);
    GPU_FIELD(NV_PFB_CFG1, BANKS, 24, 2);           /* log2(banks) - 2 */
#define NV_PFB_MEM_AMOUNT               0x10020c
#define NV_PFB_UNK250                   0x100250
#define NV_PFB_TAG_COUNT                0x100320
#define NV_PFB_MEM_TYPE                 0x100714
#define   NV_PFB_MEM_TYPE_GDDR3         2
#define NV_PFB_NISO_FLUSH_SYSRAM        0x100c08
#define NV_PFB_VM_TRIGGER               0x100c80
#define   NV_PFB_VM_TRIGGER_BUSY        (1u << 0)
#define NV_PFB_TRAP                     0x100c90
#define NV_PFB_TRAP_DATA                0x100c94

/* ---- PSTRAPS (envytools docs/hw/io/pstraps.rst) ---- */
#define NV_PSTRAPS                      0x101000
#define   NV_STRAPS_G84_ROM             (1u << 1)
#define   NV_STRAPS_G84_CRYSTAL_27M     (1u << 22)

/* ---- PROM and PMEM windows (envytools docs/hw/mmio.rst) ---- */
#define NV_PROM_BASE                    0x300000
#define NV_PROM_SIZE                    0x20000         /* G80:GF100 */
#define NV_PMEM_BASE                    0x700000
#define NV_PMEM_SIZE                    0x100000

/*
 * ---- units nouveau reads or resets that the model keeps quiet ----
 * (envytools docs/hw/mmio.rst, G80:GF100 map; the readers are nouveau's
 * nvkm/subdev/clk/nv50.c, gpio/nv50.c, therm/g84.c, fuse/nv50.c,
 * pci/g84.c and devinit/nv50.c)
 */
#define NV_PCLOCK_PLL(i)                (0x004000 + (i) * 4)
#define NV_PCLOCK_PLLS                  16
#define NV_PCLOCK_VDEC_DIV              0x004700
#define NV_PCONTROL_MAST                0x00c040
#define NV_PNVIO_GPIO_INTR_EN           0x00e050
#define NV_PNVIO_GPIO_INTR              0x00e054
#define NV_PNVIO_UNK18C                 0x00e18c
#define NV_PIOCLOCK_REF_PLL             0x00e81c
#define NV_PTHERM_UNK000                0x020000
#define NV_PTHERM_INTR                  0x020100
#define NV_PTHERM_UNK400(i)             (0x020400 + (i) * 4)
#define NV_PTHERM_UNK400S               0x40
#define NV_PFUSE(i)                     (0x021000 + (i) * 4)
#define NV_PFUSE_WORDS                  0x400
#define NV_PPCI_CONFIG(i)               (0x088000 + (i) * 4)
#define NV_PPCI_CONFIG_WORDS            0x400
#define NV_PRMIO_CRTC                   0x6013d4        /* index, data */

/*
 * ---- PDISPLAY (G80:GF119; envytools rnndb/display/g80_pdisplay.xml,
 * nouveau nvkm/engine/disp/nv50.c) ----
 * Names are envytools'; where it has none (the *_COPY registers that
 * nv50_disp_init fills, the CRTC caps, the PIOR caps: its EXT group is
 * empty), they follow nouveau's comments.  Counts are G84's
 * (nv50_head_cnt, nv50_dac_cnt, nv50_sor_cnt, nv50_pior_cnt).
 */
#define NV_PDISPLAY_BASE                0x610000
#define NV_PDISPLAY_SIZE                0x10000
#define NV_PDISPLAY_OBJECTS             0x610010
#define NV_PDISPLAY_INTR_0              0x610020
#define NV_PDISPLAY_INTR_1              0x610024
#define   NV_PDISPLAY_INTR_1_UNK8       (1u << 8)
#define NV_PDISPLAY_INTR_EN_0           0x610028
#define NV_PDISPLAY_INTR_EN_1           0x61002c
#define NV_PDISPLAY_CLOCK_UNK04_COPY    0x610184
    GPU_FIELD(NV_PDISPLAY_CLOCK_UNK04_COPY, DACS, 20, 3);   /* nv50_dac_cnt */
    GPU_FIELD(NV_PDISPLAY_CLOCK_UNK04_COPY, SORS, 24, 2);   /* nv50_sor_cnt */
    GPU_FIELD(NV_PDISPLAY_CLOCK_UNK04_COPY, PIORS, 28, 3);  /* nv50_pior_cnt */
#define NV_PDISPLAY_CRTC_CAPS_COPY(i, j) (0x610190 + (i) * 0x10 + (j) * 4)
#define NV_PDISPLAY_DAC_UNK_STATUS_COPY(i) (0x6101d0 + (i) * 4)
#define NV_PDISPLAY_SOR_CAP_COPY(i)     (0x6101e0 + (i) * 4)
#define NV_PDISPLAY_PIOR_CAPS_COPY(i)   (0x6101f0 + (i) * 4)
#define NV_PDISPLAY_CLOCK_UNK04         0x614004
#define NV_PDISPLAY_CRTC_CAPS(i, j)     (0x616100 + (i) * 0x800 + (j) * 4)
/* VGA.ROM_WINDOW: nouveau's bios/shadowramin.c reads it */
#define NV_PDISPLAY_VBIOS_SHADOW        0x619f04
#define NV_PDISPLAY_DAC_UNK_STATUS(i)   (0x61a000 + (i) * 0x800)
#define NV_PDISPLAY_SOR_CAP(i)          (0x61c000 + (i) * 0x800)
#define NV_PDISPLAY_PIOR_CAPS(i)        (0x61e000 + (i) * 0x800)
#define NV_PDISPLAY_CRTCS               2
#define NV_PDISPLAY_CRTC_CAPS_WORDS     4
#define NV_PDISPLAY_DACS                3
#define NV_PDISPLAY_SORS                2
#define NV_PDISPLAY_PIORS               3

/*
 * ---- PFIFO (G80:GF100; nouveau nvkm/engine/fifo/nv50.c, g84.c,
 * regsnv04.h) ----
 */
#define NV_PMC_INTR_PFIFO               (1u << 8)
#define NV_PFIFO_UNK044                 0x002044
#define NV_PFIFO_INTR                   0x002100
#define   NV_PFIFO_INTR_UEVENT          (1u << 30)      /* non-stall */
#define NV_PFIFO_INTR_EN                0x002140
#define NV_PFIFO_CACHES                 0x002500
#define NV_PFIFO_UNK50C                 0x00250c
#define NV_PFIFO_UNK520                 0x002520
#define NV_PFIFO_CHAN(i)                (0x002600 + (i) * 4)
#define   NV_PFIFO_CHAN_VALID           (1u << 31)
    GPU_FIELD(NV_PFIFO_CHAN, RAMFC, 0, 31);         /* address >> 8 */
#define NV_PFIFO_CHANS                  128
#define NV_PFIFO_CACHE1_PUSH0           0x003200
#define NV_PFIFO_CACHE1_PULL0           0x003250
#define   NV_PFIFO_PULL0_HASH_BUSY      (1u << 12)
#define NV_PFIFO_CACHE1_HASH            0x003258
#define NV_PFIFO_RUNLIST_COUNT          0x0032ec
#define NV_PFIFO_RUNLIST_ADDR           0x0032f4
#define NV_PFIFO_UNLOAD                 0x0032fc
/* The channels' control areas (envytools g80-dma-user) */
#define NV_USER_BASE                    0xc00000
#define NV_USER_STRIDE                  0x2000
#define NV_USER_PUT                     0x40
#define NV_USER_GET                     0x44
#define NV_USER_IB_GET                  0x88
#define NV_USER_IB_PUT                  0x8c

/* ---- PCOUNTER, "nv40-pcounter" space (NV40:GF100) ---- */
#define NV_PCOUNTER_BASE                0x00a000
#define NV_PCOUNTER_SIZE                0x1000
#define NV_PCOUNTER_DOMAINS             8
#define NV_PCOUNTER_SIGNALS             256

#define NV40_PC_PRE_SRC(d)              (0xa400 + (d) * 4)
#define NV40_PC_PRE_OP(d)               (0xa420 + (d) * 4)
#define NV40_PC_START_SRC(d)            (0xa440 + (d) * 4)
#define NV40_PC_START_OP(d)             (0xa460 + (d) * 4)
#define NV40_PC_EVENT_SRC(d)            (0xa480 + (d) * 4)
#define NV40_PC_EVENT_OP(d)             (0xa4a0 + (d) * 4)
#define NV40_PC_STOP_SRC(d)             (0xa4c0 + (d) * 4)
#define NV40_PC_STOP_OP(d)              (0xa4e0 + (d) * 4)
#define NV40_PC_SETFLAG_OP(d)           (0xa500 + (d) * 4)
#define NV40_PC_CLRFLAG_OP(d)           (0xa520 + (d) * 4)
#define NV40_PC_SRC_STATUS(d)           (0xa540 + (d) * 4)
#define NV40_PC_SPEC_SRC(d)             (0xa560 + (d) * 4)
    GPU_FIELD(NV40_PC_SPEC_SRC, SWAP, 0, 8);        /* signals */
    GPU_FIELD(NV40_PC_SPEC_SRC, UNK8, 8, 8);
#define NV40_PC_USER_TRIGGER(d)         (0xa580 + (d) * 4)  /* GT215- */
#define NV40_PC_CTR_CYCLES(d)           (0xa600 + (d) * 4)
#define NV40_PC_CTR_CYCLES_ALT(d)       (0xa640 + (d) * 4)
#define NV40_PC_CTR_EVENT(d)            (0xa680 + (d) * 4)
#define NV40_PC_RECORD_ADDRESS_HIGH(d)  (0xa6a0 + (d) * 4)  /* G92- */
#define NV40_PC_CTR_START(d)            (0xa6c0 + (d) * 4)
#define NV40_PC_RECORD_STATUS(d)        (0xa6e0 + (d) * 4)  /* G84- */
#define   NV_PC_RECORD_STATUS_FAULT     (1u << 0)
/* START, LIMIT and STATUS: the address */
    GPU_FIELD(NV_PC_RECORD, ADDR, 4, 28);
#define NV40_PC_CTR_PRE(d)              (0xa700 + (d) * 4)
#define NV40_PC_RECORD_LIMIT(d)         (0xa720 + (d) * 4)  /* G84- */
#define NV40_PC_CTR_STOP(d)             (0xa740 + (d) * 4)
#define NV40_PC_RECORD_START(d)         (0xa760 + (d) * 4)  /* G84- */
#define NV40_PC_THRESHOLD(d)            (0xa780 + (d) * 4)
#define NV40_PC_RECORD_CHAN             0xa7a0              /* G84- */
#define   NV_PC_RECORD_CHAN_VALID       (1u << 31)
#define NV40_PC_RECORD_DMA              0xa7a4              /* G84- */
#define NV40_PC_GCTRL                   0xa7a8              /* G84- */
#define   NV_PC_GCTRL_RECORD_RESET      (1u << 0)
#define   NV_PC_GCTRL_PERIODIC_RESET    (1u << 4)
#define NV40_PC_CTRL(d)                 (0xa7c0 + (d) * 4)
#define NV40_PC_QUAD_ACK_TRIGGER(d)     (0xa7e0 + (d) * 4)
#define NV40_PC_SIG_STATUS(d, i)        (0xa800 + (d) * 0x20 + (i) * 4)

/* Logic operation registers (*_OP) */
GPU_FIELD(NV_PC_OP, TABLE, 0, 16);
#define NV_PC_OP_DELAY0                 (1u << 16)
#define NV_PC_OP_DELAY1                 (1u << 17)
/* PRE/START/SETFLAG/CLRFLAG, G92- */
#define NV_PC_OP_ARG2_DELAYED_SRC0      (1u << 18)
#define NV_PC_OP_ARG3_DELAYED_SRC1      (1u << 19)
/* EVENT/STOP */
#define NV_PC_OP_ARG3_SETFLAG           (1u << 18)          /* NV30- */
#define NV_PC_OP_EV_ARG2_DELAYED_SRC0   (1u << 19)          /* G92- */
#define NV_PC_OP_EV_ARG3_DELAYED_SRC1   (1u << 20)          /* G92- */

/* CTRL[dom] */
GPU_FIELD(NV40_PC_CTRL, MODE, 0, 2);
#define   NV_PC_MODE_SINGLE             0
#define   NV_PC_MODE_QUAD               1
#define   NV_PC_MODE_RECORD             2
GPU_FIELD(NV40_PC_CTRL, CTR_MODE, 4, 3);
#define   NV_PC_CTR_SIMPLE              0
#define   NV_PC_CTR_EVENT_B4            1
#define   NV_PC_CTR_EVENT_B6            2
#define   NV_PC_CTR_EXTRA_B4            3
#define   NV_PC_CTR_EXTRA_B6_EVENT_B2   4
#define NV_PC_CTRL_EVENT_CTR_PERIOD_ALL (1u << 8)
#define NV_PC_CTRL_EVENT_IMPORT_PULSE   (1u << 11)
#define NV_PC_CTRL_FLAG_IMPORT_PULSE    (1u << 13)
#define NV_PC_CTRL_UNK16                (1u << 16)
#define NV_PC_CTRL_RECORD_SHORT         (1u << 20)          /* G84:GF100 */
GPU_FIELD(NV40_PC_CTRL, PERIODIC, 21, 3);                   /* G84:GF100 */
GPU_FIELD(NV40_PC_CTRL, QUAD_STATE, 24, 2);
#define   NV_PC_QUAD_EMPTY              0
#define   NV_PC_QUAD_VALID              1
#define   NV_PC_QUAD_OVERFLOW           3
#define NV_PC_CTRL_FAULT_CLEAR          (1u << 27)
GPU_FIELD(NV40_PC_CTRL, SINGLE_STATE, 28, 2);
#define   NV_PC_SINGLE_INACTIVE         0
#define   NV_PC_SINGLE_WAIT_PRE         1
#define   NV_PC_SINGLE_WAIT_START       2
#define   NV_PC_SINGLE_COUNTING         3
#define NV_PC_CTRL_UNK30                (1u << 30)          /* G92:GF100 */

/*
 * The emulated signal map, the same in every domain.
 * Signals not listed read as 0 and are reported as unimplemented when
 * selected.
 */
#define NV_SIG_ZERO                     0x00
#define NV_SIG_ONE                      0x01    /* 1 on every clock */
#define NV_SIG_SYNTH(n)                 (0x10 + (n))
#define NV_SIG_SYNTH_COUNT              8
#define NV_SIG_TRAILER_BASE             0xe0
#define NV_SIG_TRAILER_ZERO             (NV_SIG_TRAILER_BASE + 0x0c)
#define NV_SIG_PERIODIC                 (NV_SIG_TRAILER_BASE + 0x0d)
#define NV_SIG_WRCACHE_FLUSH            (NV_SIG_TRAILER_BASE + 0x0e)
#define NV_SIG_PM_TRIGGER               (NV_SIG_TRAILER_BASE + 0x0f)
#define NV_SIG_DOM_EVENT(d)             (NV_SIG_TRAILER_BASE + 0x17 - (d))
#define NV_SIG_DOM_FLAG(d)              (NV_SIG_TRAILER_BASE + 0x1f - (d))

/* Record mode packets */
#define NV_PC_RECORD_LONG_SIZE          32
#define NV_PC_RECORD_SHORT_SIZE         16
#define NV_PC_RECORD_FLUSH_LEVEL        0xf000

#endif
