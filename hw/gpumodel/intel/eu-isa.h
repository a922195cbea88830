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

static inline uint64_t eu_bits_(const EuNative *in, unsigned hi, unsigned lo)
{
    unsigned n = hi - lo + 1;
    uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;

    if (lo >= 64) {
        return (in->hi >> (lo - 64)) & mask;
    }
    if (hi < 64) {
        return (in->lo >> lo) & mask;
    }
    return ((in->lo >> lo) | (in->hi << (64 - lo))) & mask;
}

static inline void eu_set_bits_(EuNative *in, unsigned hi, unsigned lo,
                                uint64_t v)
{
    for (unsigned b = lo; b <= hi; b++, v >>= 1) {
        uint64_t *w = b >= 64 ? &in->hi : &in->lo;
        uint64_t m = 1ull << (b & 63);

        *w = (v & 1) ? (*w | m) : (*w & ~m);
    }
}

/* EU_GET(inst, EU_DST_REG_NR), EU_SET(inst, EU_DST_REG_NR, v): the field
 * names expand to "high, low" bit ranges. */
#define EU_GET(in, ...) eu_bits_((in), __VA_ARGS__)
#define EU_SET(in, ...) eu_set_bits_((in), __VA_ARGS__)

/* Common header (brw_eu_inst.h, Gen9-11 columns). */
#define EU_OPCODE          6, 0
#define EU_ACCESS_MODE     8, 8
#define EU_NO_DD_CLEAR     9, 9
#define EU_NO_DD_CHECK     10, 10
#define EU_NIB_CTRL        11, 11
#define EU_QTR_CTRL        13, 12
#define EU_THREAD_CTRL     15, 14
#define EU_PRED_CTRL       19, 16
#define EU_PRED_INV        20, 20
#define EU_EXEC_SIZE       23, 21
#define EU_COND_MOD        27, 24    /* also math function, SFID */
#define EU_ACC_WR          28, 28    /* also branch control */
#define EU_CMPT_CTRL       29, 29
#define EU_DEBUG_CTRL      30, 30
#define EU_SATURATE        31, 31
#define EU_FLAG_SUBREG     32, 32
#define EU_FLAG_REG        33, 33
#define EU_MASK_CTRL       34, 34
/* Two-source operands. */
#define EU_DST_FILE        36, 35
#define EU_DST_TYPE        40, 37
#define EU_SRC0_FILE       42, 41
#define EU_SRC0_TYPE       46, 43
#define EU_DST_SUBREG      52, 48
#define EU_DST_REG_NR      60, 53
#define EU_DST_IA_SUBREG   60, 57
#define EU_DST_IA_IMM      56, 48    /* bit 9 in 47 */
#define EU_DST_IA_IMM9     47, 47
#define EU_DST_HSTRIDE     62, 61
#define EU_DST_ADDR_MODE   63, 63
#define EU_SRC0_SUBREG     68, 64
#define EU_SRC0_REG_NR     76, 69
#define EU_SRC0_IA_SUBREG  76, 73
#define EU_SRC0_IA_IMM     72, 64    /* bit 9 in 95 */
#define EU_SRC0_IA_IMM9    95, 95
#define EU_SRC0_ABS        77, 77
#define EU_SRC0_NEGATE     78, 78
#define EU_SRC0_ADDR_MODE  79, 79
#define EU_SRC0_HSTRIDE    81, 80
#define EU_SRC0_WIDTH      84, 82
#define EU_SRC0_VSTRIDE    88, 85
#define EU_SRC1_FILE       90, 89
#define EU_SRC1_TYPE       94, 91
#define EU_SRC1_SUBREG     100, 96
#define EU_SRC1_REG_NR     108, 101
#define EU_SRC1_IA_SUBREG  108, 105
#define EU_SRC1_IA_IMM     104, 96   /* bit 9 in 121 */
#define EU_SRC1_IA_IMM9    121, 121
#define EU_SRC1_ABS        109, 109
#define EU_SRC1_NEGATE     110, 110
#define EU_SRC1_ADDR_MODE  111, 111
#define EU_SRC1_HSTRIDE    113, 112
#define EU_SRC1_WIDTH      116, 114
#define EU_SRC1_VSTRIDE    120, 117
#define EU_IMM32           127, 96
#define EU_IMM64_LO        127, 96   /* src0 64-bit imm: 95:64 | 127:96 */
#define EU_JIP             127, 96
#define EU_UIP             95, 64
/* SEND/SENDS (brw_eu_inst.h "SEND instructions", Gen9-11). */
#define EU_SEND_DESC       126, 96
#define EU_SEND_EOT        127, 127
#define EU_SEND_MLEN       124, 121
#define EU_SEND_RLEN       120, 116
#define EU_SEND_HEADER     115, 115
#define EU_SENDS_DST_FILE  35, 35
#define EU_SENDS_SRC1_FILE 36, 36
#define EU_SENDS_SRC1_NR   51, 44
#define EU_SENDS_DST_SUB16 52, 52
#define EU_SENDS_SEL_EXDESC 61, 61
#define EU_SENDS_SEL_DESC  77, 77
#define EU_SENDS_EXDESC_IA 82, 80
/* Three-source align1 (Gen10+). */
#define EU_3_EXEC_TYPE     35, 35
#define EU_3_SRC0_FILE     43, 43    /* Gen11: 0 GRF, 1 IMM */
#define EU_3_SRC1_FILE     44, 44    /* Gen11: 0 GRF, 1 ARF (acc) */
#define EU_3_SRC2_FILE     45, 45    /* Gen11: 0 GRF, 1 IMM */
#define EU_3_DST_TYPE      48, 46
#define EU_3_DST_HSTRIDE   49, 49
#define EU_3_DST_FILE      36, 36    /* Gen11: 0 GRF, 1 ARF */
#define EU_3_DST_SUBREG    55, 54    /* in units of 8 bytes */
#define EU_3_DST_REG_NR    63, 56
#define EU_3_SRC0_TYPE     66, 64
#define EU_3_SRC0_VSTRIDE  68, 67
#define EU_3_SRC0_HSTRIDE  70, 69
#define EU_3_SRC0_SUBREG   75, 71
#define EU_3_SRC0_REG_NR   83, 76
#define EU_3_SRC0_IMM      82, 67
#define EU_3_SRC1_TYPE     87, 85
#define EU_3_SRC1_VSTRIDE  89, 88
#define EU_3_SRC1_HSTRIDE  91, 90
#define EU_3_SRC1_SUBREG   96, 92
#define EU_3_SRC1_REG_NR   104, 97
#define EU_3_SRC2_TYPE     108, 106
#define EU_3_SRC2_HSTRIDE  112, 111
#define EU_3_SRC2_SUBREG   117, 113
#define EU_3_SRC2_REG_NR   125, 118
#define EU_3_SRC2_IMM      124, 109
#define EU_3_SRC0_ABS      37, 37
#define EU_3_SRC0_NEGATE   38, 38
#define EU_3_SRC1_ABS      39, 39
#define EU_3_SRC1_NEGATE   40, 40
#define EU_3_SRC2_ABS      41, 41
#define EU_3_SRC2_NEGATE   42, 42

/* Compacted 64-bit instruction (brw_eu_inst.h compact fields, Gen9-11). */
#define EUC_OPCODE         6, 0
#define EUC_DEBUG          7, 7
#define EUC_CONTROL_INDEX  12, 8
#define EUC_DATATYPE_INDEX 17, 13
#define EUC_SUBREG_INDEX   22, 18
#define EUC_ACC_WR         23, 23
#define EUC_COND_MOD       27, 24
#define EUC_CMPT_CTRL      29, 29
#define EUC_SRC0_INDEX     34, 30
#define EUC_SRC1_INDEX     39, 35
#define EUC_DST_REG_NR     47, 40
#define EUC_SRC0_REG_NR    55, 48
#define EUC_SRC1_REG_NR    63, 56
#define EUC3_CONTROL_INDEX 9, 8
#define EUC3_SOURCE_INDEX  11, 10
#define EUC3_DST_REG_NR    18, 12
#define EUC3_SRC0_REP      28, 28
#define EUC3_SATURATE      31, 31
#define EUC3_SRC1_REP      32, 32
#define EUC3_SRC2_REP      33, 33
#define EUC3_SRC0_SUBREG   36, 34
#define EUC3_SRC1_SUBREG   39, 37
#define EUC3_SRC2_SUBREG   42, 40
#define EUC3_SRC0_REG_NR   49, 43
#define EUC3_SRC1_REG_NR   56, 50
#define EUC3_SRC2_REG_NR   63, 57

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
    EU_OP_CALL = 44, EU_OP_RET = 45, EU_OP_GOTO = 46, EU_OP_WAIT = 48,
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
