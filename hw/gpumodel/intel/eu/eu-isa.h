/*
 * Gen11 (Ice Lake) EU instruction encoding, named once.
 *
 * Facts: Intel Graphics PRM Vol 2 (Command Reference: Instructions, EU
 * ISA) and Vol 4 (Execution Unit ISA); Mesa src/intel/compiler/
 * brw_eu_inst.h (Gen9-11 bit positions), brw_eu_defines.h (opcodes,
 * regions, modifiers), brw_reg_type.c (Gen11 type encodings),
 * brw_eu_compact.c (compaction tables).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPUMODEL_INTEL_EU_ISA_H
#define GPUMODEL_INTEL_EU_ISA_H

#include <stdbool.h>
#include <stdint.h>

/* A native instruction: bits 0-63 in lo, 64-127 in hi. */
typedef struct EuNative {
    uint64_t lo, hi;
} EuNative;

/* A field: its bit range [hi:lo] in the instruction. */
typedef struct EuField {
    uint8_t hi, lo;
} EuField;

#define EU_F(hi, lo) ((EuField){ (hi), (lo) })

static inline uint64_t eu_bits_(const EuNative *in, EuField f)
{
    unsigned n = f.hi - f.lo + 1;
    uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;

    if (f.lo >= 64) {
        return (in->hi >> (f.lo - 64)) & mask;
    }
    if (f.hi < 64) {
        return (in->lo >> f.lo) & mask;
    }
    return ((in->lo >> f.lo) | (in->hi << (64 - f.lo))) & mask;
}

static inline void eu_set_bits_(EuNative *in, EuField f, uint64_t v)
{
    for (unsigned b = f.lo; b <= f.hi; b++, v >>= 1) {
        uint64_t *w = b >= 64 ? &in->hi : &in->lo;
        uint64_t m = 1ull << (b & 63);

        *w = (v & 1) ? (*w | m) : (*w & ~m);
    }
}

/* EU_GET(inst, EU_DST_REG_NR), EU_SET(inst, EU_DST_REG_NR, v). */
#define EU_GET(in, f) eu_bits_((in), (f))
#define EU_SET(in, f, v) eu_set_bits_((in), (f), (v))

/* Common header (brw_eu_inst.h, Gen9-11 columns). */
#define EU_OPCODE          EU_F(6, 0)
#define EU_ACCESS_MODE     EU_F(8, 8)
#define EU_NO_DD_CLEAR     EU_F(9, 9)
#define EU_NO_DD_CHECK     EU_F(10, 10)
#define EU_NIB_CTRL        EU_F(11, 11)
#define EU_QTR_CTRL        EU_F(13, 12)
#define EU_THREAD_CTRL     EU_F(15, 14)
#define EU_PRED_CTRL       EU_F(19, 16)
#define EU_PRED_INV        EU_F(20, 20)
#define EU_EXEC_SIZE       EU_F(23, 21)
#define EU_COND_MOD        EU_F(27, 24)    /* also math function, SFID */
#define EU_ACC_WR          EU_F(28, 28)    /* also branch control */
#define EU_CMPT_CTRL       EU_F(29, 29)
#define EU_DEBUG_CTRL      EU_F(30, 30)
#define EU_SATURATE        EU_F(31, 31)
#define EU_FLAG_SUBREG     EU_F(32, 32)
#define EU_FLAG_REG        EU_F(33, 33)
#define EU_MASK_CTRL       EU_F(34, 34)
/* Two-source operands. */
#define EU_DST_FILE        EU_F(36, 35)
#define EU_DST_TYPE        EU_F(40, 37)
#define EU_SRC0_FILE       EU_F(42, 41)
#define EU_SRC0_TYPE       EU_F(46, 43)
#define EU_DST_SUBREG      EU_F(52, 48)
#define EU_DST_REG_NR      EU_F(60, 53)
#define EU_DST_IA_SUBREG   EU_F(60, 57)
#define EU_DST_IA_IMM      EU_F(56, 48)    /* bit 9 in 47 */
#define EU_DST_IA_IMM9     EU_F(47, 47)
#define EU_DST_HSTRIDE     EU_F(62, 61)
#define EU_DST_ADDR_MODE   EU_F(63, 63)
#define EU_SRC0_SUBREG     EU_F(68, 64)
#define EU_SRC0_REG_NR     EU_F(76, 69)
#define EU_SRC0_IA_SUBREG  EU_F(76, 73)
#define EU_SRC0_IA_IMM     EU_F(72, 64)    /* bit 9 in 95 */
#define EU_SRC0_IA_IMM9    EU_F(95, 95)
#define EU_SRC0_ABS        EU_F(77, 77)
#define EU_SRC0_NEGATE     EU_F(78, 78)
#define EU_SRC0_ADDR_MODE  EU_F(79, 79)
#define EU_SRC0_HSTRIDE    EU_F(81, 80)
#define EU_SRC0_WIDTH      EU_F(84, 82)
#define EU_SRC0_VSTRIDE    EU_F(88, 85)
#define EU_SRC1_FILE       EU_F(90, 89)
#define EU_SRC1_TYPE       EU_F(94, 91)
#define EU_SRC1_SUBREG     EU_F(100, 96)
#define EU_SRC1_REG_NR     EU_F(108, 101)
#define EU_SRC1_IA_SUBREG  EU_F(108, 105)
#define EU_SRC1_IA_IMM     EU_F(104, 96)   /* bit 9 in 121 */
#define EU_SRC1_IA_IMM9    EU_F(121, 121)
#define EU_SRC1_ABS        EU_F(109, 109)
#define EU_SRC1_NEGATE     EU_F(110, 110)
#define EU_SRC1_ADDR_MODE  EU_F(111, 111)
#define EU_SRC1_HSTRIDE    EU_F(113, 112)
#define EU_SRC1_WIDTH      EU_F(116, 114)
#define EU_SRC1_VSTRIDE    EU_F(120, 117)
#define EU_IMM32           EU_F(127, 96)
#define EU_IMM64_LO        EU_F(127, 96)   /* src0 64-bit imm: 95:64 | 127:96 */
#define EU_JIP             EU_F(127, 96)
#define EU_UIP             EU_F(95, 64)
/* SEND/SENDS (brw_eu_inst.h "SEND instructions", Gen9-11). */
#define EU_SEND_DESC       EU_F(126, 96)
#define EU_SEND_EOT        EU_F(127, 127)
#define EU_SEND_MLEN       EU_F(124, 121)
#define EU_SEND_RLEN       EU_F(120, 116)
#define EU_SEND_HEADER     EU_F(115, 115)
#define EU_SENDS_DST_FILE  EU_F(35, 35)
#define EU_SENDS_SRC1_FILE EU_F(36, 36)
#define EU_SENDS_SRC1_NR   EU_F(51, 44)
#define EU_SENDS_DST_SUB16 EU_F(52, 52)
#define EU_SENDS_SEL_EXDESC EU_F(61, 61)
#define EU_SENDS_SEL_DESC  EU_F(77, 77)
#define EU_SENDS_EXDESC_IA EU_F(82, 80)
/* Three-source align1 (Gen10+). */
#define EU_3_EXEC_TYPE     EU_F(35, 35)
#define EU_3_SRC0_FILE     EU_F(43, 43)    /* Gen11: 0 GRF, 1 IMM */
#define EU_3_SRC1_FILE     EU_F(44, 44)    /* Gen11: 0 GRF, 1 ARF (acc) */
#define EU_3_SRC2_FILE     EU_F(45, 45)    /* Gen11: 0 GRF, 1 IMM */
#define EU_3_DST_TYPE      EU_F(48, 46)
#define EU_3_DST_HSTRIDE   EU_F(49, 49)
#define EU_3_DST_FILE      EU_F(36, 36)    /* Gen11: 0 GRF, 1 ARF */
#define EU_3_DST_SUBREG    EU_F(55, 54)    /* in units of 8 bytes */
#define EU_3_DST_REG_NR    EU_F(63, 56)
#define EU_3_SRC0_TYPE     EU_F(66, 64)
#define EU_3_SRC0_VSTRIDE  EU_F(68, 67)
#define EU_3_SRC0_HSTRIDE  EU_F(70, 69)
#define EU_3_SRC0_SUBREG   EU_F(75, 71)
#define EU_3_SRC0_REG_NR   EU_F(83, 76)
#define EU_3_SRC0_IMM      EU_F(82, 67)
#define EU_3_SRC1_TYPE     EU_F(87, 85)
#define EU_3_SRC1_VSTRIDE  EU_F(89, 88)
#define EU_3_SRC1_HSTRIDE  EU_F(91, 90)
#define EU_3_SRC1_SUBREG   EU_F(96, 92)
#define EU_3_SRC1_REG_NR   EU_F(104, 97)
#define EU_3_SRC2_TYPE     EU_F(108, 106)
#define EU_3_SRC2_HSTRIDE  EU_F(112, 111)
#define EU_3_SRC2_SUBREG   EU_F(117, 113)
#define EU_3_SRC2_REG_NR   EU_F(125, 118)
#define EU_3_SRC2_IMM      EU_F(124, 109)
#define EU_3_SRC0_ABS      EU_F(37, 37)
#define EU_3_SRC0_NEGATE   EU_F(38, 38)
#define EU_3_SRC1_ABS      EU_F(39, 39)
#define EU_3_SRC1_NEGATE   EU_F(40, 40)
#define EU_3_SRC2_ABS      EU_F(41, 41)
#define EU_3_SRC2_NEGATE   EU_F(42, 42)

/* Compacted 64-bit instruction (brw_eu_inst.h compact fields, Gen9-11). */
#define EUC_OPCODE         EU_F(6, 0)
#define EUC_DEBUG          EU_F(7, 7)
#define EUC_CONTROL_INDEX  EU_F(12, 8)
#define EUC_DATATYPE_INDEX EU_F(17, 13)
#define EUC_SUBREG_INDEX   EU_F(22, 18)
#define EUC_ACC_WR         EU_F(23, 23)
#define EUC_COND_MOD       EU_F(27, 24)
#define EUC_CMPT_CTRL      EU_F(29, 29)
#define EUC_SRC0_INDEX     EU_F(34, 30)
#define EUC_SRC1_INDEX     EU_F(39, 35)
#define EUC_DST_REG_NR     EU_F(47, 40)
#define EUC_SRC0_REG_NR    EU_F(55, 48)
#define EUC_SRC1_REG_NR    EU_F(63, 56)
#define EUC3_CONTROL_INDEX EU_F(9, 8)
#define EUC3_SOURCE_INDEX  EU_F(11, 10)
#define EUC3_DST_REG_NR    EU_F(18, 12)
#define EUC3_SRC0_REP      EU_F(28, 28)
#define EUC3_SATURATE      EU_F(31, 31)
#define EUC3_SRC1_REP      EU_F(32, 32)
#define EUC3_SRC2_REP      EU_F(33, 33)
#define EUC3_SRC0_SUBREG   EU_F(36, 34)
#define EUC3_SRC1_SUBREG   EU_F(39, 37)
#define EUC3_SRC2_SUBREG   EU_F(42, 40)
#define EUC3_SRC0_REG_NR   EU_F(49, 43)
#define EUC3_SRC1_REG_NR   EU_F(56, 50)
#define EUC3_SRC2_REG_NR   EU_F(63, 57)

/* Hardware opcodes before Gen12 (Mesa brw_eu.c opcode_descs). */
enum {
    EU_OP_ILLEGAL = 0, EU_OP_MOV = 1, EU_OP_SEL = 2, EU_OP_MOVI = 3,
    EU_OP_NOT = 4, EU_OP_AND = 5, EU_OP_OR = 6, EU_OP_XOR = 7,
    EU_OP_SHR = 8, EU_OP_SHL = 9, EU_OP_SMOV = 10, EU_OP_ASR = 12,
    EU_OP_ROR = 14, EU_OP_ROL = 15, EU_OP_CMP = 16, EU_OP_CMPN = 17,
    EU_OP_CSEL = 18, EU_OP_BFREV = 23, EU_OP_BFE = 24, EU_OP_BFI1 = 25,
    EU_OP_BFI2 = 26, EU_OP_JMPI = 32, EU_OP_BRD = 33, EU_OP_IF = 34,
    EU_OP_BRC = 35, EU_OP_ELSE = 36, EU_OP_ENDIF = 37, EU_OP_WHILE = 39,
    EU_OP_BREAK = 40, EU_OP_CONT = 41, EU_OP_HALT = 42, EU_OP_CALLA = 43,
    EU_OP_CALL = 44, EU_OP_RET = 45, EU_OP_GOTO = 46, EU_OP_JOIN = 47,
    EU_OP_WAIT = 48,
    EU_OP_SEND = 49, EU_OP_SENDC = 50, EU_OP_SENDS = 51, EU_OP_SENDSC = 52,
    EU_OP_MATH = 56, EU_OP_ADD = 64, EU_OP_MUL = 65, EU_OP_AVG = 66,
    EU_OP_FRC = 67, EU_OP_RNDU = 68, EU_OP_RNDD = 69, EU_OP_RNDE = 70,
    EU_OP_RNDZ = 71, EU_OP_MAC = 72, EU_OP_MACH = 73, EU_OP_LZD = 74,
    EU_OP_FBH = 75, EU_OP_FBL = 76, EU_OP_CBIT = 77, EU_OP_ADDC = 78,
    EU_OP_SUBB = 79, EU_OP_SAD2 = 80, EU_OP_SADA2 = 81, EU_OP_DP4 = 84,
    EU_OP_DPH = 85, EU_OP_DP3 = 86, EU_OP_DP2 = 87, EU_OP_LINE = 89,
    EU_OP_PLN = 90, EU_OP_MAD = 91, EU_OP_LRP = 92, EU_OP_MADM = 93,
    EU_OP_NOP = 126,
};

/* Register files as encoded in the two-source format. */
enum { EU_FILE_ARF = 0, EU_FILE_GRF = 1, EU_FILE_IMM = 3 };

/* ARF register numbers (high nibble selects the register). */
enum {
    EU_ARF_NULL = 0x00, EU_ARF_ADDRESS = 0x10, EU_ARF_ACC = 0x20,
    EU_ARF_FLAG = 0x30, EU_ARF_MASK = 0x40, EU_ARF_STATE = 0x70,
    EU_ARF_CONTROL = 0x80, EU_ARF_NOTIFY = 0x90, EU_ARF_IP = 0xa0,
    EU_ARF_TDR = 0xb0, EU_ARF_TIMESTAMP = 0xc0,
};

/*
 * Logical types.  The values 0-9 and 11 are the Gen11 register/immediate
 * encoding (brw_reg_type.c); an immediate with encoding 4/5 is UV/V.
 */
typedef enum EuType {
    EU_TYPE_UD = 0, EU_TYPE_D = 1, EU_TYPE_UW = 2, EU_TYPE_W = 3,
    EU_TYPE_UB = 4, EU_TYPE_B = 5, EU_TYPE_UQ = 6, EU_TYPE_Q = 7,
    EU_TYPE_HF = 8, EU_TYPE_F = 9, EU_TYPE_DF = 10, EU_TYPE_VF = 11,
    EU_TYPE_UV = 12, EU_TYPE_V = 13, EU_TYPE_NF = 14, EU_TYPE_INVALID = 15,
} EuType;

static inline bool eu_type_is_float(unsigned t)
{
    return t == EU_TYPE_F || t == EU_TYPE_HF || t == EU_TYPE_DF ||
           t == EU_TYPE_VF || t == EU_TYPE_NF;
}

/*
 * NF ("native float") is the accumulator's own Gen11 format, register
 * type 11 and three-source float type 3 (Mesa elk_reg_type.c
 * GFX11_HW_REG_TYPE_NF, GFX11_ALIGN1_3SRC_REG_TYPE_NF).  The model keeps
 * an NF element as an IEEE double in 8 bytes of acc0/acc1: at least the
 * precision of float, which is all the PRM promises a program.
 */

/* Three-source align1 types (3 bits) use the same low values as UD..F. */

enum {
    EU_COND_NONE = 0, EU_COND_Z = 1, EU_COND_NZ = 2, EU_COND_G = 3,
    EU_COND_GE = 4, EU_COND_L = 5, EU_COND_LE = 6, EU_COND_O = 8,
    EU_COND_U = 9,
};

/* Align1 predicate controls. */
enum {
    EU_PRED_NONE = 0, EU_PRED_NORMAL = 1, EU_PRED_ANYV = 2, EU_PRED_ALLV = 3,
    EU_PRED_ANY2H = 4, EU_PRED_ALL2H = 5, EU_PRED_ANY4H = 6,
    EU_PRED_ALL4H = 7, EU_PRED_ANY8H = 8, EU_PRED_ALL8H = 9,
    EU_PRED_ANY16H = 10, EU_PRED_ALL16H = 11, EU_PRED_ANY32H = 12,
    EU_PRED_ALL32H = 13,
};

enum {
    EU_MATH_INV = 1, EU_MATH_LOG = 2, EU_MATH_EXP = 3, EU_MATH_SQRT = 4,
    EU_MATH_RSQ = 5, EU_MATH_SIN = 6, EU_MATH_COS = 7, EU_MATH_FDIV = 9,
    EU_MATH_POW = 10, EU_MATH_INT_DIV_QR = 11, EU_MATH_INT_DIV_Q = 12,
    EU_MATH_INT_DIV_R = 13, EU_MATH_INVM = 14, EU_MATH_RSQRTM = 15,
};

/* Shared function IDs (brw_eu_defines.h enum brw_message_target). */
enum {
    EU_SFID_NULL = 0, EU_SFID_SAMPLER = 2, EU_SFID_GATEWAY = 3,
    EU_SFID_DP_SAMPLER = 4, EU_SFID_DP_RENDER = 5, EU_SFID_URB = 6,
    EU_SFID_THREAD_SPAWNER = 7, EU_SFID_VME = 8, EU_SFID_DP_CONST = 9,
    EU_SFID_DP_DATA = 10, EU_SFID_PI = 11, EU_SFID_DP_DATA1 = 12,
    EU_SFID_CRE = 13,
};

/* Region encodings: vstride 0-6 = 0,1,2,4,8,16,32, 15 = VxH; width 0-4 =
 * 1,2,4,8,16; hstride 0-3 = 0,1,2,4. */
#define EU_VSTRIDE_VXH 15

#endif
