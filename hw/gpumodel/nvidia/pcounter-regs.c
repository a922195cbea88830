/*
 * nv-gpu PCOUNTER register spaces, as the seed lays them out: one table
 * per space, rows naming each register by its NvPcRegId (nv-gpu.h), the
 * domains as the row's instances, the variants as NV_PC_F_* features.
 * A chipset profile picks its space (NvChipset.pc_block).
 *
 * "nv40-pcounter" (NV40:GF100) is the one the g84/g86/g92 profiles use.
 * "nv10-pcounter" (NV10:NV40) and "gf100-pcounter-domain" (GF100+) are
 * kept for profiles of those generations; no profile uses them yet
 * (docs/nv-gpu.rst says what such a profile still needs).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "nv-gpu.h"

/*
 * A register of @n domains @stride apart (1: one for all), at BAR0
 * offset @off in the 0xa000 spaces or @off in a gf100 domain.
 */
#define PC_ROW(nm, off, n, stride_, acc, aux_, ...) \
    { .name = nm, .offset = (off), .count = (n), .stride = (stride_), \
      .access = acc, .aux = aux_, .read = nv_pcounter_reg_read, \
      .write = nv_pcounter_reg_write, __VA_ARGS__ }
#define PC_REG(nm, off, acc, id, ...) \
    PC_ROW(nm, (off) - NV_PCOUNTER_BASE, 8, 4, acc, id, __VA_ARGS__)
#define PC_REG1(nm, off, acc, id, ...) \
    PC_ROW(nm, (off) - NV_PCOUNTER_BASE, 1, 4, acc, id, __VA_ARGS__)

/* SIG_STATUS[dom][i]: signals 32 i to 32 i + 31 of each domain. */
#define NV40_SIG_STATUS(i) \
    PC_ROW("SIG_STATUS", NV40_PC_SIG_STATUS(0, i) - NV_PCOUNTER_BASE, 8, \
           0x20, NV_REG_RO, NV_PC_AUX(PC_SIG_STATUS, i))

/*
 * "nv40-pcounter" (NV40:GF100).  *_OP writable bits are the chipset's
 * (bits 18-20 are G92+ or EVENT/STOP-only); they are stored as written
 * and decoded per chipset in word_at().
 */
static const NvReg nv40_pcounter_regs[] = {
    PC_REG("PRE_SRC", NV40_PC_PRE_SRC(0), NV_REG_RW, PC_PRE_SRC),
    PC_REG("PRE_OP", NV40_PC_PRE_OP(0), NV_REG_RW, PC_PRE_OP,
           .wmask = 0x001fffff),
    PC_REG("START_SRC", NV40_PC_START_SRC(0), NV_REG_RW, PC_START_SRC),
    PC_REG("START_OP", NV40_PC_START_OP(0), NV_REG_RW, PC_START_OP,
           .wmask = 0x001fffff),
    PC_REG("EVENT_SRC", NV40_PC_EVENT_SRC(0), NV_REG_RW, PC_EVENT_SRC),
    PC_REG("EVENT_OP", NV40_PC_EVENT_OP(0), NV_REG_RW, PC_EVENT_OP,
           .wmask = 0x001fffff),
    PC_REG("STOP_SRC", NV40_PC_STOP_SRC(0), NV_REG_RW, PC_STOP_SRC),
    PC_REG("STOP_OP", NV40_PC_STOP_OP(0), NV_REG_RW, PC_STOP_OP,
           .wmask = 0x001fffff),
    PC_REG("SETFLAG_OP", NV40_PC_SETFLAG_OP(0), NV_REG_RW, PC_SETFLAG_OP,
           .wmask = 0x001fffff),
    PC_REG("CLRFLAG_OP", NV40_PC_CLRFLAG_OP(0), NV_REG_RW, PC_CLRFLAG_OP,
           .wmask = 0x001fffff),
    PC_REG("SRC_STATUS", NV40_PC_SRC_STATUS(0), NV_REG_RO, PC_SRC_STATUS),
    /* Reset: SWAP is PM_TRIGGER, which nouveau's nv40 perfmon pulses. */
    PC_REG("SPEC_SRC", NV40_PC_SPEC_SRC(0), NV_REG_RW, PC_SPEC_SRC,
           .wmask = 0xffff, .reset = NV_SIG_PM_TRIGGER,
           .feature = NV_PC_F_SPEC_SRC),
    PC_REG("CTR_CYCLES", NV40_PC_CTR_CYCLES(0), NV_REG_RO, PC_CTR_CYCLES),
    PC_REG("CTR_CYCLES_ALT", NV40_PC_CTR_CYCLES_ALT(0), NV_REG_RO,
           PC_CTR_CYCLES_ALT),
    PC_REG("CTR_EVENT", NV40_PC_CTR_EVENT(0), NV_REG_RO, PC_CTR_EVENT),
    PC_REG("RECORD_ADDRESS_HIGH", NV40_PC_RECORD_ADDRESS_HIGH(0), NV_REG_RW,
           PC_RECORD_ADDRESS_HIGH, .wmask = 0xff,
           .feature = NV_PC_F_ADDR_HIGH),
    PC_REG("CTR_START", NV40_PC_CTR_START(0), NV_REG_RO, PC_CTR_START),
    PC_REG("RECORD_STATUS", NV40_PC_RECORD_STATUS(0), NV_REG_RO,
           PC_RECORD_STATUS, .feature = NV_PC_F_RECORD),
    /* Writes set the initial value; reads the current one. */
    PC_REG("CTR_PRE", NV40_PC_CTR_PRE(0), NV_REG_RW, PC_CTR_PRE),
    PC_REG("RECORD_LIMIT", NV40_PC_RECORD_LIMIT(0), NV_REG_RW,
           PC_RECORD_LIMIT, .wmask = NV_PC_RECORD_ADDR_MASK,
           .feature = NV_PC_F_RECORD),
    PC_REG("CTR_STOP", NV40_PC_CTR_STOP(0), NV_REG_RW, PC_CTR_STOP),
    PC_REG("RECORD_START", NV40_PC_RECORD_START(0), NV_REG_RW,
           PC_RECORD_START, .wmask = NV_PC_RECORD_ADDR_MASK,
           .feature = NV_PC_F_RECORD),
    PC_REG("THRESHOLD", NV40_PC_THRESHOLD(0), NV_REG_RW, PC_THRESHOLD),
    PC_REG1("RECORD_CHAN", NV40_PC_RECORD_CHAN, NV_REG_RW, PC_RECORD_CHAN,
            .wmask = 0xbfffffff, .feature = NV_PC_F_RECORD),
    PC_REG1("RECORD_DMA", NV40_PC_RECORD_DMA, NV_REG_RW, PC_RECORD_DMA,
            .wmask = 0xffff, .feature = NV_PC_F_RECORD),
    PC_REG1("GCTRL", NV40_PC_GCTRL, NV_REG_RW, PC_GCTRL,
            .wmask = NV_PC_GCTRL_RECORD_RESET | NV_PC_GCTRL_PERIODIC_RESET,
            .feature = NV_PC_F_RECORD),
    PC_REG("CTRL", NV40_PC_CTRL(0), NV_REG_RW, PC_CTRL),
    PC_REG("QUAD_ACK_TRIGGER", NV40_PC_QUAD_ACK_TRIGGER(0), NV_REG_WO,
           PC_QUAD_ACK_TRIGGER, .wmask = 1),
    /* GT215:GF100, write-only */
    PC_REG("USER_TRIGGER", NV40_PC_USER_TRIGGER(0), NV_REG_WO,
           PC_USER_TRIGGER, .wmask = 0xf, .feature = NV_PC_F_USER),
    NV40_SIG_STATUS(0), NV40_SIG_STATUS(1), NV40_SIG_STATUS(2),
    NV40_SIG_STATUS(3), NV40_SIG_STATUS(4), NV40_SIG_STATUS(5),
    NV40_SIG_STATUS(6), NV40_SIG_STATUS(7),
};

const NvRegBlock nv40_pcounter_block =
    NV_REG_BLOCK("PCOUNTER", NV_PCOUNTER_BASE, NV_PCOUNTER_SIZE,
                 nv40_pcounter_regs);

/*
 * "nv10-pcounter" (NV10:NV40): two domains 0x100 apart; 40-bit counters
 * with _HI registers and SETFLAG/CLRFLAG selections of their own until
 * NV30; one CTRL for both domains; QUAD_ACK_TRIGGER from NV30.
 */
#define NV10_REG(nm, off, acc, id, ...) \
    PC_ROW(nm, off, 2, 0x100, acc, id, __VA_ARGS__)
/*
 * SIG_STATUS[dom][hi][lo] at 0x430 + dom 0x100 + hi 0x200 + lo 4, index
 * hi * 4 + lo.  Domain 1's indices 6 and 7 would be QUAD_ACK_TRIGGER and
 * CTRL: the seed has only present signals valid, so domain 1 has six.
 */
#define NV10_SIG_STATUS(i, n) \
    PC_ROW("SIG_STATUS", 0x430 + (i) / 4 * 0x200 + (i) % 4 * 4, n, 0x100, \
           NV_REG_RO, NV_PC_AUX(PC_SIG_STATUS, i))

static const NvReg nv10_pcounter_regs[] = {
    NV10_REG("PRE_SRC", 0x400, NV_REG_RW, PC_PRE_SRC),
    NV10_REG("PRE_OP", 0x404, NV_REG_RW, PC_PRE_OP, .wmask = 0x3ffff),
    NV10_REG("START_SRC", 0x408, NV_REG_RW, PC_START_SRC),
    NV10_REG("START_OP", 0x40c, NV_REG_RW, PC_START_OP, .wmask = 0x3ffff),
    NV10_REG("EVENT_SRC", 0x410, NV_REG_RW, PC_EVENT_SRC),
    NV10_REG("EVENT_OP", 0x414, NV_REG_RW, PC_EVENT_OP, .wmask = 0x7ffff),
    NV10_REG("STOP_SRC", 0x418, NV_REG_RW, PC_STOP_SRC),
    NV10_REG("STOP_OP", 0x41c, NV_REG_RW, PC_STOP_OP, .wmask = 0x7ffff),
    NV10_REG("SETFLAG_SRC", 0x420, NV_REG_RW, PC_SETFLAG_SRC,
             .feature = NV_PC_F_40BIT),
    NV10_REG("SETFLAG_OP", 0x424, NV_REG_RW, PC_SETFLAG_OP,
             .wmask = 0x3ffff),
    NV10_REG("CLRFLAG_SRC", 0x428, NV_REG_RW, PC_CLRFLAG_SRC,
             .feature = NV_PC_F_40BIT),
    NV10_REG("CLRFLAG_OP", 0x42c, NV_REG_RW, PC_CLRFLAG_OP,
             .wmask = 0x3ffff),
    NV10_SIG_STATUS(0, 2), NV10_SIG_STATUS(1, 2), NV10_SIG_STATUS(2, 2),
    NV10_SIG_STATUS(3, 2), NV10_SIG_STATUS(4, 2), NV10_SIG_STATUS(5, 2),
    NV10_SIG_STATUS(6, 1), NV10_SIG_STATUS(7, 1),
    NV10_REG("CTR_CYCLES", 0x600, NV_REG_RO, PC_CTR_CYCLES),
    NV10_REG("CTR_CYCLES_HI", 0x604, NV_REG_RO, PC_CTR_CYCLES_HI,
             .feature = NV_PC_F_40BIT),
    NV10_REG("CTR_CYCLES_ALT", 0x608, NV_REG_RO, PC_CTR_CYCLES_ALT),
    NV10_REG("CTR_CYCLES_ALT_HI", 0x60c, NV_REG_RO, PC_CTR_CYCLES_ALT_HI,
             .feature = NV_PC_F_40BIT),
    NV10_REG("CTR_EVENT", 0x610, NV_REG_RO, PC_CTR_EVENT),
    NV10_REG("CTR_EVENT_HI", 0x614, NV_REG_RO, PC_CTR_EVENT_HI,
             .feature = NV_PC_F_40BIT),
    NV10_REG("CTR_START", 0x618, NV_REG_RO, PC_CTR_START),
    NV10_REG("CTR_START_HI", 0x61c, NV_REG_RO, PC_CTR_START_HI,
             .feature = NV_PC_F_40BIT),
    NV10_REG("CTR_PRE", 0x620, NV_REG_RW, PC_CTR_PRE),
    NV10_REG("CTR_STOP", 0x624, NV_REG_RW, PC_CTR_STOP),
    NV10_REG("THRESHOLD", 0x628, NV_REG_RW, PC_THRESHOLD),
    NV10_REG("THRESHOLD_HI", 0x62c, NV_REG_RW, PC_THRESHOLD_HI,
             .wmask = 0xff, .feature = NV_PC_F_40BIT),
    PC_ROW("QUAD_ACK_TRIGGER", 0x738, 1, 4, NV_REG_WO,
           PC_NV30_QUAD_ACK_TRIGGER, .wmask = 0x101,
           .feature = NV_PC_F_QUAD),
    PC_ROW("CTRL", 0x73c, 1, 4, NV_REG_RW, PC_NV10_CTRL),
};

const NvRegBlock nv10_pcounter_block =
    NV_REG_BLOCK("PCOUNTER", NV_PCOUNTER_BASE, NV_PCOUNTER_SIZE,
                 nv10_pcounter_regs);

/*
 * "gf100-pcounter-domain": one domain's registers, of which the GF100
 * space (BAR0 0x180000) holds a copy per domain at bases the seed does
 * not give ("write me"): the block is placed at 0.
 */
#define GF100_REG(nm, off, acc, id, ...) \
    PC_ROW(nm, off, 1, 4, acc, id, __VA_ARGS__)
#define GF100_SIG_STATUS(i) \
    GF100_REG("SIG_STATUS", (i) * 4, NV_REG_RO, NV_PC_AUX(PC_SIG_STATUS, i))

static const NvReg gf100_pcounter_domain_regs[] = {
    GF100_SIG_STATUS(0), GF100_SIG_STATUS(1), GF100_SIG_STATUS(2),
    GF100_SIG_STATUS(3), GF100_SIG_STATUS(4), GF100_SIG_STATUS(5),
    GF100_SIG_STATUS(6), GF100_SIG_STATUS(7), GF100_SIG_STATUS(8),
    GF100_SIG_STATUS(9), GF100_SIG_STATUS(10), GF100_SIG_STATUS(11),
    GF100_SIG_STATUS(12), GF100_SIG_STATUS(13), GF100_SIG_STATUS(14),
    GF100_SIG_STATUS(15),
    GF100_REG("PRE_SRC", 0x40, NV_REG_RW, PC_PRE_SRC),
    GF100_REG("PRE_OP", 0x44, NV_REG_RW, PC_PRE_OP),
    GF100_REG("START_SRC", 0x48, NV_REG_RW, PC_START_SRC),
    GF100_REG("START_OP", 0x4c, NV_REG_RW, PC_START_OP),
    GF100_REG("EVENT_SRC", 0x50, NV_REG_RW, PC_EVENT_SRC),
    GF100_REG("EVENT_OP", 0x54, NV_REG_RW, PC_EVENT_OP),
    GF100_REG("STOP_SRC", 0x58, NV_REG_RW, PC_STOP_SRC),
    GF100_REG("STOP_OP", 0x5c, NV_REG_RW, PC_STOP_OP),
    GF100_REG("SETFLAG_OP", 0x60, NV_REG_RW, PC_SETFLAG_OP),
    GF100_REG("CLRFLAG_OP", 0x64, NV_REG_RW, PC_CLRFLAG_OP),
    GF100_REG("SRC_STATUS", 0x68, NV_REG_RO, PC_SRC_STATUS),
    GF100_REG("SWAP_SRC", 0x6c, NV_REG_RW, PC_SWAP_SRC, .wmask = 0xff),
    GF100_REG("QUAD_ACK_TRIGGER", 0xa0, NV_REG_WO, PC_QUAD_ACK_TRIGGER,
              .wmask = 1),
    /* Read/write on GF100: bits 0-3 the USER signals, 4-7 pulse modes */
    GF100_REG("USER_TRIGGER", 0xec, NV_REG_RW, PC_USER_TRIGGER,
              .wmask = 0xff),
};

const NvRegBlock gf100_pcounter_domain_block =
    NV_REG_BLOCK("PCOUNTER domain", 0, 0x200, gf100_pcounter_domain_regs);
