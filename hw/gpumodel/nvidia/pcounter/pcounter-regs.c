/*
 * nv-gpu PCOUNTER registers: the NV40:GF100 register space, "nv40-pcounter"
 * in envytools ("PCOUNTER: performance counter engine"), the one every
 * chipset profile maps (NvChipset.pc_block).  Rows name each register by
 * its NvPcRegId (nv-gpu.h), the domains are the row's instances, the
 * variants NV_PC_F_* features.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../nv-gpu-int.h"

/*
 * Register @nm of every domain: "nm" at NV40_PC_nm(0), 4 bytes apart,
 * handled by pcounter.c as id PC_nm; PC_REG1 the one of all domains.
 */
#define PC_ROW(nm, off, n, stride_, acc, aux_, ...) \
    { .name = nm, .offset = (off) - NV_PCOUNTER_BASE, .count = (n), \
      .stride = (stride_), .access = GPU_REG_ ## acc, .aux = aux_, \
      .read = nv_pcounter_reg_read, .write = nv_pcounter_reg_write, \
      __VA_ARGS__ }
#define PC_REG(nm, acc, ...) \
    PC_ROW(#nm, NV40_PC_ ## nm(0), NV_PCOUNTER_DOMAINS, 4, acc, PC_ ## nm, \
           __VA_ARGS__)
#define PC_REG1(nm, acc, ...) \
    PC_ROW(#nm, NV40_PC_ ## nm, 1, 4, acc, PC_ ## nm, __VA_ARGS__)

/* SIG_STATUS[dom][i]: signals 32 i to 32 i + 31 of each domain. */
#define NV40_SIG_STATUS(i) \
    PC_ROW("SIG_STATUS", NV40_PC_SIG_STATUS(0, i), NV_PCOUNTER_DOMAINS, \
           0x20, RO, NV_PC_AUX(PC_SIG_STATUS, i))

/*
 * *_OP writable bits are the chipset's (bits 18-20 are G92+ or
 * EVENT/STOP-only); they are stored as written and decoded per chipset in
 * word_at().
 */
static const NvReg nv40_pcounter_regs[] = {
    PC_REG(PRE_SRC, RW),
    PC_REG(PRE_OP, RW, .wmask = 0x001fffff),
    PC_REG(START_SRC, RW),
    PC_REG(START_OP, RW, .wmask = 0x001fffff),
    PC_REG(EVENT_SRC, RW),
    PC_REG(EVENT_OP, RW, .wmask = 0x001fffff),
    PC_REG(STOP_SRC, RW),
    PC_REG(STOP_OP, RW, .wmask = 0x001fffff),
    PC_REG(SETFLAG_OP, RW, .wmask = 0x001fffff),
    PC_REG(CLRFLAG_OP, RW, .wmask = 0x001fffff),
    PC_REG(SRC_STATUS, RO),
    /* Reset: SWAP is PM_TRIGGER, which nouveau's nv40 perfmon pulses. */
    PC_REG(SPEC_SRC, RW, .wmask = 0xffff, .reset = NV_SIG_PM_TRIGGER,
           .feature = NV_PC_F_SPEC_SRC),
    PC_REG(CTR_CYCLES, RO),
    PC_REG(CTR_CYCLES_ALT, RO),
    PC_REG(CTR_EVENT, RO),
    PC_REG(RECORD_ADDRESS_HIGH, RW, .wmask = 0xff,
           .feature = NV_PC_F_ADDR_HIGH),
    PC_REG(CTR_START, RO),
    PC_REG(RECORD_STATUS, RO, .feature = NV_PC_F_RECORD),
    /* Writes set the initial value; reads the current one. */
    PC_REG(CTR_PRE, RW),
    PC_REG(RECORD_LIMIT, RW, .wmask = NV_PC_RECORD_ADDR_MASK,
           .feature = NV_PC_F_RECORD),
    PC_REG(CTR_STOP, RW),
    PC_REG(RECORD_START, RW, .wmask = NV_PC_RECORD_ADDR_MASK,
           .feature = NV_PC_F_RECORD),
    PC_REG(THRESHOLD, RW),
    PC_REG1(RECORD_CHAN, RW, .wmask = 0xbfffffff, .feature = NV_PC_F_RECORD),
    PC_REG1(RECORD_DMA, RW, .wmask = 0xffff, .feature = NV_PC_F_RECORD),
    PC_REG1(GCTRL, RW,
            .wmask = NV_PC_GCTRL_RECORD_RESET | NV_PC_GCTRL_PERIODIC_RESET,
            .feature = NV_PC_F_RECORD),
    PC_REG(CTRL, RW),
    PC_REG(QUAD_ACK_TRIGGER, WO, .wmask = 1),
    /* GT215:GF100, write-only */
    PC_REG(USER_TRIGGER, WO, .wmask = 0xf, .feature = NV_PC_F_USER),
    NV40_SIG_STATUS(0), NV40_SIG_STATUS(1), NV40_SIG_STATUS(2),
    NV40_SIG_STATUS(3), NV40_SIG_STATUS(4), NV40_SIG_STATUS(5),
    NV40_SIG_STATUS(6), NV40_SIG_STATUS(7),
};

const NvRegBlock nv40_pcounter_block =
    NV_REG_BLOCK("PCOUNTER", NV_PCOUNTER_BASE, NV_PCOUNTER_SIZE,
                 nv40_pcounter_regs);
