/*
 * Gen11 EU instruction decoder: native 128-bit and compacted 64-bit
 * forms into EuInst.  Any encoding the model does not understand decodes
 * to an error; nothing here asserts on guest data.
 *
 * Facts: Intel Graphics PRM Vol 2 (Command Reference: Instructions, EU
 * ISA), Vol 4 (Execution Unit ISA, "Instruction Formats" and
 * "Instruction Compaction"); Mesa src/intel/compiler/brw_eu_inst.h,
 * brw_reg_type.c and brw_eu_compact.c (Gen8 control/subreg/src index
 * tables, Gen11 datatype table).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "eu-exec.h"

static const uint32_t control_index_table[32] = {
    0x00002, 0x04000, 0x04001, 0x04002, 0x04003, 0x04004, 0x04005, 0x04007,
    0x04008, 0x04009, 0x0400d, 0x06000, 0x06001, 0x06002, 0x06003, 0x06004,
    0x06005, 0x06007, 0x06009, 0x0600d, 0x06010, 0x06100, 0x08000, 0x08002,
    0x08004, 0x08100, 0x16000, 0x16010, 0x18000, 0x18100, 0x28000, 0x28100,
};

static const uint32_t datatype_table_gen11[32] = {
    0x040001, 0x040040, 0x040041, 0x0400c1, 0x040165, 0x040be5, 0x040941,
    0x040945, 0x040965, 0x041041, 0x043040, 0x043041, 0x045145, 0x047144,
    0x047145, 0x064965, 0x065925, 0x065964, 0x065965, 0x067964, 0x00040c,
    0x040065, 0x040145, 0x041040, 0x045144, 0x047104, 0x049209, 0x06f965,
    0x067965, 0x04f34c, 0x049248, 0x04b248,
};

static const uint16_t subreg_table[32] = {
    0x0000, 0x0001, 0x0008, 0x000f, 0x0010, 0x0080, 0x0100, 0x0180,
    0x0200, 0x0210, 0x0280, 0x1000, 0x1001, 0x1081, 0x1082, 0x1083,
    0x1084, 0x1087, 0x1088, 0x108e, 0x108f, 0x1180, 0x11e8, 0x2000,
    0x2180, 0x3000, 0x3c87, 0x4000, 0x5000, 0x6000, 0x7000, 0x701c,
};

static const uint16_t src_index_table[32] = {
    0x000, 0x002, 0x010, 0x012, 0x018, 0x020, 0x028, 0x048,
    0x050, 0x070, 0x078, 0x300, 0x302, 0x308, 0x310, 0x312,
    0x320, 0x328, 0x338, 0x340, 0x342, 0x348, 0x350, 0x360,
    0x368, 0x370, 0x371, 0x378, 0x468, 0x469, 0x46a, 0x588,
};

static const uint32_t control_3src_table[4] = {
    0x0806001, 0x0006001, 0x0008001, 0x0008021,
};

static const uint64_t source_3src_table[4] = {
    0x7272720f000ull, 0x7272720f002ull, 0x7272720f008ull, 0x7272720f020ull,
};

bool eu_is_3src(unsigned op)
{
    return op == EU_OP_MAD || op == EU_OP_LRP || op == EU_OP_CSEL ||
           op == EU_OP_BFE || op == EU_OP_BFI2 || op == EU_OP_MADM;
}

bool eu_is_branch(unsigned op)
{
    return (op >= EU_OP_JMPI && op <= EU_OP_JOIN);
}

/* Gen11 register/immediate type decode (brw_reg_type.c). */
static EuType eu_decode_type(unsigned hw, bool imm)
{
    if (hw == 10 || hw > 11) {
        return EU_TYPE_INVALID;     /* no DF on Gen11 */
    }
    if (hw == 11) {
        /* VF as an immediate, NF (the accumulator's format) otherwise. */
        return imm ? EU_TYPE_VF : EU_TYPE_NF;
    }
    if (imm && hw == EU_TYPE_UB) {
        return EU_TYPE_UV;
    }
    if (imm && hw == EU_TYPE_B) {
        return EU_TYPE_V;
    }
    return hw;
}

unsigned eu_type_size(EuType t)
{
    static const uint8_t size[16] = {
        4, 4, 2, 2, 1, 1, 8, 8, 2, 4, 8, 4, 4, 4, 8, 0,
    };
    return size[t & 15];
}

/* NF operands live in acc0/acc1 only. */
static bool eu_decode_is_acc(const EuOperand *o)
{
    return o->file == EU_FILE_ARF && !o->indirect &&
           (o->nr & 0xf0) == EU_ARF_ACC && (o->nr & 0xf) < 2;
}

static int eu_decode_fail(EuInst *d, const char *why)
{
    d->error = why;
    return -1;
}

/* Region fields to element counts; false on a reserved encoding. */
static bool eu_decode_region(EuOperand *o, unsigned vs, unsigned w, unsigned hs)
{
    if ((vs > 6 && vs != EU_VSTRIDE_VXH) || w > 4) {
        return false;
    }
    o->vstride = vs == EU_VSTRIDE_VXH ? EU_VSTRIDE_VXH :
                 vs ? 1u << (vs - 1) : 0;
    o->width = 1u << w;
    o->hstride = hs ? 1u << (hs - 1) : 0;
    return true;
}

/* Source 0's field @f, or source 1's (32 bits higher). */
static unsigned eu_decode_src_field(const EuNative *n, int i, EuField f)
{
    return eu_bits_(n, EU_F(f.hi + 32 * i, f.lo + 32 * i));
}

/* AddrImm: a signed 10-bit byte offset whose bit 9 lies apart. */
static int16_t eu_decode_addr_imm(unsigned imm, unsigned imm9)
{
    int v = imm | imm9 << 9;

    return v & 0x200 ? v - 0x400 : v;
}

static int eu_decode_src(EuInst *d, const EuNative *n, int i)
{
    EuOperand *o = &d->src[i];
    unsigned file = i ? EU_GET(n, EU_SRC1_FILE) : EU_GET(n, EU_SRC0_FILE);
    unsigned hw = i ? EU_GET(n, EU_SRC1_TYPE) : EU_GET(n, EU_SRC0_TYPE);

    if (file == 2) {
        return eu_decode_fail(d, "reserved source register file");
    }
    o->file = file;
    o->type = eu_decode_type(hw, file == EU_FILE_IMM);
    if (o->type == EU_TYPE_INVALID) {
        return eu_decode_fail(d, "invalid source type");
    }
    if (file == EU_FILE_IMM) {
        if (i == 0 && d->nsrc > 1) {
            /* The immediate takes src1's bits: only the last source of
             * an instruction may be immediate (PRM Vol 4, "Immediate"). */
            return eu_decode_fail(d, "immediate in src0 of a two-source "
                                  "instruction");
        }
        if (eu_type_size(o->type) == 8) {
            o->imm = EU_GET(n, EU_UIP) | EU_GET(n, EU_IMM32) << 32;
        } else {
            o->imm = EU_GET(n, EU_IMM32);
        }
        o->vstride = 0;
        o->width = 1;
        o->hstride = 0;
        return 0;
    }
    /* src1's fields sit 32 bits above src0's, but for AddrImm[9]. */
    o->negate = eu_decode_src_field(n, i, EU_SRC0_NEGATE);
    o->abs = eu_decode_src_field(n, i, EU_SRC0_ABS);
    o->indirect = eu_decode_src_field(n, i, EU_SRC0_ADDR_MODE);
    if (!eu_decode_region(o, eu_decode_src_field(n, i, EU_SRC0_VSTRIDE),
                          eu_decode_src_field(n, i, EU_SRC0_WIDTH),
                          eu_decode_src_field(n, i, EU_SRC0_HSTRIDE))) {
        return eu_decode_fail(d, "reserved source region");
    }
    if (o->indirect) {
        o->addr_subnr = eu_decode_src_field(n, i, EU_SRC0_IA_SUBREG);
        o->addr_imm = eu_decode_addr_imm(
            eu_decode_src_field(n, i, EU_SRC0_IA_IMM),
            i ? EU_GET(n, EU_SRC1_IA_IMM9) : EU_GET(n, EU_SRC0_IA_IMM9));
    } else {
        o->nr = eu_decode_src_field(n, i, EU_SRC0_REG_NR);
        o->subnr = eu_decode_src_field(n, i, EU_SRC0_SUBREG);
    }
    if (o->vstride == EU_VSTRIDE_VXH && !o->indirect) {
        return eu_decode_fail(d, "VxH region with direct addressing");
    }
    if (o->type == EU_TYPE_NF && !eu_decode_is_acc(o)) {
        return eu_decode_fail(d, "NF type outside the accumulator");
    }
    return 0;
}

static int eu_decode_3src(EuInst *d, const EuNative *n)
{
    static const uint8_t vs3[4] = { 0, 2, 4, 8 };
    static const uint8_t hs3[4] = { 0, 1, 2, 4 };
    bool fp = EU_GET(n, EU_3_EXEC_TYPE);
    unsigned types[4] = {
        EU_GET(n, EU_3_DST_TYPE), EU_GET(n, EU_3_SRC0_TYPE),
        EU_GET(n, EU_3_SRC1_TYPE), EU_GET(n, EU_3_SRC2_TYPE),
    };
    EuType t[4];

    for (int i = 0; i < 4; i++) {
        /* brw_type_decode_for_3src(), Gen11 branch. */
        if (fp) {
            /* Gen11 adds NF as float type 3 (Mesa elk_reg_type.c). */
            static const EuType ft[8] = {
                EU_TYPE_HF, EU_TYPE_F, EU_TYPE_INVALID, EU_TYPE_NF,
                EU_TYPE_INVALID, EU_TYPE_INVALID, EU_TYPE_INVALID,
                EU_TYPE_INVALID,
            };
            t[i] = ft[types[i]];
        } else {
            t[i] = types[i] > 5 ? EU_TYPE_INVALID : types[i];
        }
        if (t[i] == EU_TYPE_INVALID) {
            return eu_decode_fail(d, "invalid three-source type");
        }
    }
    d->nsrc = 3;
    d->dst.file = EU_GET(n, EU_3_DST_FILE) ? EU_FILE_ARF : EU_FILE_GRF;
    d->dst.type = t[0];
    d->dst.nr = EU_GET(n, EU_3_DST_REG_NR);
    d->dst.subnr = EU_GET(n, EU_3_DST_SUBREG) * 8;
    d->dst.hstride = 1;
    /* src0/src2's file bit selects an immediate for the 16-bit types; with
     * the NF type it names the accumulator (the register number says
     * which), as IGA encodes "acc0.0<8;1>:nf" in src0 of IGT's
     * blit.g11a (lib/i915/shaders/ps). */
    d->src[0].file = EU_GET(n, EU_3_SRC0_FILE) ?
                     (t[1] == EU_TYPE_NF ? EU_FILE_ARF : EU_FILE_IMM) :
                     EU_FILE_GRF;
    d->src[1].file = EU_GET(n, EU_3_SRC1_FILE) ? EU_FILE_ARF : EU_FILE_GRF;
    d->src[2].file = EU_GET(n, EU_3_SRC2_FILE) ?
                     (t[3] == EU_TYPE_NF ? EU_FILE_ARF : EU_FILE_IMM) :
                     EU_FILE_GRF;
    d->src[0].nr = EU_GET(n, EU_3_SRC0_REG_NR);
    d->src[1].nr = EU_GET(n, EU_3_SRC1_REG_NR);
    d->src[2].nr = EU_GET(n, EU_3_SRC2_REG_NR);
    d->src[0].subnr = EU_GET(n, EU_3_SRC0_SUBREG);
    d->src[1].subnr = EU_GET(n, EU_3_SRC1_SUBREG);
    d->src[2].subnr = EU_GET(n, EU_3_SRC2_SUBREG);
    d->src[0].vstride = vs3[EU_GET(n, EU_3_SRC0_VSTRIDE)];
    d->src[1].vstride = vs3[EU_GET(n, EU_3_SRC1_VSTRIDE)];
    d->src[0].hstride = hs3[EU_GET(n, EU_3_SRC0_HSTRIDE)];
    d->src[1].hstride = hs3[EU_GET(n, EU_3_SRC1_HSTRIDE)];
    d->src[2].hstride = hs3[EU_GET(n, EU_3_SRC2_HSTRIDE)];
    /* src2 has no vstride: brw_disasm.c reads <h;1,h>, which addresses
     * the same elements as any wider row would. */
    d->src[2].vstride = d->src[2].hstride;
    d->src[0].negate = EU_GET(n, EU_3_SRC0_NEGATE);
    d->src[1].negate = EU_GET(n, EU_3_SRC1_NEGATE);
    d->src[2].negate = EU_GET(n, EU_3_SRC2_NEGATE);
    d->src[0].abs = EU_GET(n, EU_3_SRC0_ABS);
    d->src[1].abs = EU_GET(n, EU_3_SRC1_ABS);
    d->src[2].abs = EU_GET(n, EU_3_SRC2_ABS);
    for (int i = 0; i < 3; i++) {
        EuOperand *o = &d->src[i];

        o->type = t[i + 1];
        /* "GFX10 Regioning Rules for Align1 Ternary Operations". */
        if (o->hstride == 0) {
            o->width = o->vstride ? o->vstride : 1;
        } else {
            o->width = o->vstride / o->hstride;
            if (o->width == 0) {
                return eu_decode_fail(d, "three-source vstride below hstride");
            }
        }
        if (o->file == EU_FILE_IMM) {
            if (eu_type_size(o->type) != 2) {
                return eu_decode_fail(d, "three-source immediate is not "
                                      "16-bit");
            }
            o->imm = i == 0 ? EU_GET(n, EU_3_SRC0_IMM) :
                              EU_GET(n, EU_3_SRC2_IMM);
            o->nr = o->subnr = 0;
            o->vstride = o->hstride = 0;
            o->width = 1;
        }
        if (o->type == EU_TYPE_NF && !eu_decode_is_acc(o)) {
            return eu_decode_fail(d, "NF type outside the accumulator");
        }
    }
    if (d->dst.type == EU_TYPE_NF && !eu_decode_is_acc(&d->dst)) {
        return eu_decode_fail(d, "NF type outside the accumulator");
    }
    return 0;
}

/*
 * The opcode and the controls every instruction form shares (PRM Vol 4,
 * "Instruction Formats"): execution size, channel, thread and dependency
 * controls, predicate, modifiers, flag register, write-enable mask.
 */
static int eu_decode_header(const EuNative *n, EuInst *d)
{
    d->opcode = EU_GET(n, EU_OPCODE);
    if (EU_GET(n, EU_CMPT_CTRL)) {
        return eu_decode_fail(d, "compaction bit set in a native instruction");
    }
    if (EU_GET(n, EU_ACCESS_MODE)) {
        return eu_decode_fail(d, "align16 is not supported on this model");
    }
    d->exec_size = 1u << EU_GET(n, EU_EXEC_SIZE);
    if (d->exec_size > 32) {
        return eu_decode_fail(d, "reserved execution size");
    }
    d->qtr = EU_GET(n, EU_QTR_CTRL);
    d->nib = EU_GET(n, EU_NIB_CTRL);
    d->thread_ctrl = EU_GET(n, EU_THREAD_CTRL);
    d->dep_ctrl = EU_GET(n, EU_NO_DD_CHECK) << 1 | EU_GET(n, EU_NO_DD_CLEAR);
    d->pred_ctrl = EU_GET(n, EU_PRED_CTRL);
    if (d->pred_ctrl > EU_PRED_ALL32H) {
        return eu_decode_fail(d, "reserved predicate control");
    }
    d->pred_inv = EU_GET(n, EU_PRED_INV);
    d->cond_mod = EU_GET(n, EU_COND_MOD);
    d->acc_wr = EU_GET(n, EU_ACC_WR);
    d->debug = EU_GET(n, EU_DEBUG_CTRL);
    d->saturate = EU_GET(n, EU_SATURATE);
    d->flag_nr = EU_GET(n, EU_FLAG_REG);
    d->flag_subnr = EU_GET(n, EU_FLAG_SUBREG);
    d->mask_ctrl = EU_GET(n, EU_MASK_CTRL);
    return 0;
}

/*
 * JIP and UIP of a flow-control instruction, and its BranchCtrl (the
 * AccWrCtrl bit); true when a destination follows: call and calla
 * write the return address there.
 */
static bool eu_decode_jip_uip(const EuNative *n, EuInst *d)
{
    d->has_uip = d->opcode != EU_OP_ENDIF && d->opcode != EU_OP_WHILE &&
                 d->opcode != EU_OP_CALL && d->opcode != EU_OP_CALLA &&
                 d->opcode != EU_OP_JOIN;
    if (d->has_uip) {
        d->uip = (int32_t)EU_GET(n, EU_UIP);
    }
    d->jip = (int32_t)EU_GET(n, EU_JIP);
    d->has_jip = true;
    d->branch_ctrl = d->acc_wr;
    return d->opcode == EU_OP_CALL || d->opcode == EU_OP_CALLA;
}

/*
 * What the opcode decides: the number of sources, the three-source form
 * (decoded whole here), a send's SFID and EOT, a branch's JIP and UIP,
 * math's function control.  Returns -1 on an error, 0 when nothing more
 * is encoded, 1 when the destination and sources of the one-source,
 * two-source or send form follow.
 */
static int eu_decode_opcode(const EuNative *n, EuInst *d)
{
    switch (d->opcode) {
    case EU_OP_MOV: case EU_OP_NOT: case EU_OP_BFREV: case EU_OP_FRC:
    case EU_OP_RNDU: case EU_OP_RNDD: case EU_OP_RNDE: case EU_OP_RNDZ:
    case EU_OP_LZD: case EU_OP_FBH: case EU_OP_FBL: case EU_OP_CBIT:
        d->nsrc = 1;
        break;
    case EU_OP_SEL: case EU_OP_AND: case EU_OP_OR: case EU_OP_XOR:
    case EU_OP_SHR: case EU_OP_SHL: case EU_OP_ASR: case EU_OP_ROR:
    case EU_OP_ROL: case EU_OP_CMP: case EU_OP_CMPN: case EU_OP_ADD:
    case EU_OP_MUL: case EU_OP_AVG: case EU_OP_MAC: case EU_OP_MACH:
    case EU_OP_ADDC: case EU_OP_SUBB: case EU_OP_MATH: case EU_OP_BFI1:
    case EU_OP_PLN: case EU_OP_LINE: case EU_OP_DP4: case EU_OP_DPH:
    case EU_OP_DP3: case EU_OP_DP2: case EU_OP_SMOV:
        d->nsrc = 2;
        break;
    case EU_OP_MAD: case EU_OP_LRP: case EU_OP_CSEL: case EU_OP_BFE:
    case EU_OP_BFI2:
        d->has_dst = true;
        return eu_decode_3src(d, n);
    case EU_OP_SEND: case EU_OP_SENDC: case EU_OP_SENDS: case EU_OP_SENDSC:
        d->is_send = true;
        d->nsrc = 2;
        d->sfid = d->cond_mod;
        d->cond_mod = 0;
        d->eot = EU_GET(n, EU_SEND_EOT);
        break;
    case EU_OP_IF: case EU_OP_ELSE: case EU_OP_BREAK: case EU_OP_CONT:
    case EU_OP_HALT: case EU_OP_GOTO: case EU_OP_ENDIF: case EU_OP_WHILE:
    case EU_OP_CALL: case EU_OP_CALLA: case EU_OP_JOIN:
        return eu_decode_jip_uip(n, d);
    case EU_OP_JMPI: case EU_OP_RET:
        d->nsrc = d->opcode == EU_OP_JMPI ? 2 : 1;
        break;
    case EU_OP_WAIT:
        d->nsrc = 1;            /* wait n0.x: the notification register */
        break;
    case EU_OP_NOP:
        return 0;
    default:
        return eu_decode_fail(d, "opcode not supported on this model");
    }
    if (d->opcode == EU_OP_MATH) {
        d->math_fn = d->cond_mod;
        d->cond_mod = 0;
    }
    return 1;
}

/* The destination (the send forms use the same bits for reg/subreg). */
static int eu_decode_dst(const EuNative *n, EuInst *d)
{
    bool sends = d->opcode == EU_OP_SENDS || d->opcode == EU_OP_SENDSC;

    d->has_dst = true;
    d->dst.file = EU_GET(n, EU_DST_FILE);
    if (sends) {
        d->dst.file = EU_GET(n, EU_SENDS_DST_FILE) ? EU_FILE_GRF : EU_FILE_ARF;
        d->dst.type = EU_TYPE_UD;
    } else {
        if (d->dst.file == 2 || d->dst.file == EU_FILE_IMM) {
            return eu_decode_fail(d, "destination register file");
        }
        d->dst.type = eu_decode_type(EU_GET(n, EU_DST_TYPE), false);
        if (d->dst.type == EU_TYPE_INVALID) {
            return eu_decode_fail(d, "invalid destination type");
        }
    }
    d->dst.indirect = EU_GET(n, EU_DST_ADDR_MODE);
    d->dst.hstride = EU_GET(n, EU_DST_HSTRIDE);
    d->dst.hstride = d->dst.hstride ? 1u << (d->dst.hstride - 1) : 0;
    if (d->dst.indirect) {
        d->dst.addr_subnr = EU_GET(n, EU_DST_IA_SUBREG);
        d->dst.addr_imm = eu_decode_addr_imm(EU_GET(n, EU_DST_IA_IMM),
                                             EU_GET(n, EU_DST_IA_IMM9));
    } else {
        d->dst.nr = EU_GET(n, EU_DST_REG_NR);
        d->dst.subnr = EU_GET(n, EU_DST_SUBREG);
        if (sends) {
            d->dst.subnr = EU_GET(n, EU_SENDS_DST_SUB16) * 16;
        }
    }
    if (d->dst.type == EU_TYPE_NF && !eu_decode_is_acc(&d->dst)) {
        return eu_decode_fail(d, "NF type outside the accumulator");
    }
    return 0;
}

/*
 * The split send's sources, whole-register payloads, and its message
 * descriptors: the region bits hold the extended descriptor instead.
 */
static void eu_decode_sends(const EuNative *n, EuInst *d)
{
    d->nsrc = 2;
    d->src[0].file = EU_FILE_GRF;
    d->src[0].type = EU_TYPE_UD;
    d->src[0].indirect = EU_GET(n, EU_SRC0_ADDR_MODE);
    if (d->src[0].indirect) {
        d->src[0].addr_subnr = EU_GET(n, EU_SRC0_IA_SUBREG);
    } else {
        d->src[0].nr = EU_GET(n, EU_SRC0_REG_NR);
        d->src[0].subnr = EU_GET(n, EU_F(68, 68)) * 16;
    }
    d->src[0].vstride = 8;
    d->src[0].width = 8;
    d->src[0].hstride = 1;
    d->src[1].file = EU_GET(n, EU_SENDS_SRC1_FILE) ? EU_FILE_GRF :
                                                     EU_FILE_ARF;
    d->src[1].nr = EU_GET(n, EU_SENDS_SRC1_NR);
    d->src[1].type = EU_TYPE_UD;
    d->desc_indirect = EU_GET(n, EU_SENDS_SEL_DESC);
    d->ex_desc_indirect = EU_GET(n, EU_SENDS_SEL_EXDESC);
    d->desc = EU_GET(n, EU_SEND_DESC);
    /* Immediate extended descriptor: bits 95:80 and 67:64 (Mesa
     * brw_eu_inst.h brw_eu_inst_sends_ex_desc, before Gen12). */
    d->ex_desc = (uint32_t)EU_GET(n, EU_F(95, 80)) << 16 |
                 (uint32_t)EU_GET(n, EU_F(67, 64)) << 6;
    if (d->ex_desc_indirect) {
        d->ex_desc_subnr = EU_GET(n, EU_SENDS_EXDESC_IA);
    }
}

int eu_decode_native(const EuNative *n, EuInst *d)
{
    int more;

    memset(d, 0, sizeof(*d));
    d->size = 16;
    if (eu_decode_header(n, d) < 0) {
        return -1;
    }
    more = eu_decode_opcode(n, d);
    if (more <= 0) {
        return more;
    }
    if (eu_decode_dst(n, d) < 0) {
        return -1;
    }
    if (d->opcode == EU_OP_SENDS || d->opcode == EU_OP_SENDSC) {
        eu_decode_sends(n, d);
        return 0;
    }
    for (int i = 0; i < d->nsrc; i++) {
        if (eu_decode_src(d, n, i) < 0) {
            return -1;
        }
    }
    if (d->opcode == EU_OP_SMOV && (d->src[1].file != EU_FILE_IMM ||
                                    eu_type_is_float(d->src[1].type))) {
        /* src1 is the channel mask (eu_exec_alu()). */
        return eu_decode_fail(d, "smov without an integer immediate "
                              "channel mask");
    }
    if (d->opcode == EU_OP_SEND || d->opcode == EU_OP_SENDC) {
        /* src1 is the message descriptor: immediate, or a register. */
        d->desc_indirect = d->src[1].file != EU_FILE_IMM;
        d->desc = EU_GET(n, EU_SEND_DESC);
        d->nsrc = 1;
    }
    return 0;
}

/* Replicate bit 12 into the high bits (brw_eu_compact.c,
 * uncompact_immediate() before Gen12). */
static uint32_t eu_decode_compact_imm(uint32_t v)
{
    return (uint32_t)((int32_t)(v << 19) >> 19);
}

int eu_uncompact(uint64_t c, EuNative *n)
{
    EuNative in = { .lo = c };
    unsigned op = EU_GET(&in, EUC_OPCODE);

    n->lo = n->hi = 0;
    if (!EU_GET(&in, EUC_CMPT_CTRL)) {
        return -1;
    }
    EU_SET(n, EU_OPCODE, op);
    EU_SET(n, EU_DEBUG_CTRL, EU_GET(&in, EUC_DEBUG));
    if (eu_is_3src(op)) {
        uint32_t ctl = control_3src_table[EU_GET(&in, EUC3_CONTROL_INDEX)];
        uint64_t src = source_3src_table[EU_GET(&in, EUC3_SOURCE_INDEX)];

        EU_SET(n, EU_F(34, 32), (ctl >> 21) & 7);
        EU_SET(n, EU_F(28, 8), ctl & 0x1fffff);
        EU_SET(n, EU_F(36, 35), (ctl >> 24) & 3);
        EU_SET(n, EU_F(83, 83), (src >> 43) & 1);
        EU_SET(n, EU_F(114, 107), (src >> 35) & 0xff);
        EU_SET(n, EU_F(93, 86), (src >> 27) & 0xff);
        EU_SET(n, EU_F(72, 65), (src >> 19) & 0xff);
        EU_SET(n, EU_F(55, 37), src & 0x7ffff);
        EU_SET(n, EU_F(126, 125), (src >> 47) & 3);
        EU_SET(n, EU_F(105, 104), (src >> 45) & 3);
        EU_SET(n, EU_F(84, 84), (src >> 44) & 1);
        /* Compacted 3-src is an align16 form (brw_eu_inst.h 3src_a16
         * fields); the decoder rejects align16 below. */
        EU_SET(n, EU_3_DST_REG_NR, EU_GET(&in, EUC3_DST_REG_NR));
        EU_SET(n, EU_F(64, 64), EU_GET(&in, EUC3_SRC0_REP));
        EU_SET(n, EU_SATURATE, EU_GET(&in, EUC3_SATURATE));
        EU_SET(n, EU_F(85, 85), EU_GET(&in, EUC3_SRC1_REP));
        EU_SET(n, EU_F(106, 106), EU_GET(&in, EUC3_SRC2_REP));
        EU_SET(n, EU_F(83, 76), EU_GET(&in, EUC3_SRC0_REG_NR));
        EU_SET(n, EU_F(104, 97), EU_GET(&in, EUC3_SRC1_REG_NR));
        EU_SET(n, EU_F(125, 118), EU_GET(&in, EUC3_SRC2_REG_NR));
        EU_SET(n, EU_F(54, 52), EU_GET(&in, EUC3_SRC0_SUBREG));
        return 0;
    }
    {
        uint32_t ctl = control_index_table[EU_GET(&in, EUC_CONTROL_INDEX)];
        uint32_t dt = datatype_table_gen11[EU_GET(&in, EUC_DATATYPE_INDEX)];
        uint16_t sub = subreg_table[EU_GET(&in, EUC_SUBREG_INDEX)];
        uint16_t s0 = src_index_table[EU_GET(&in, EUC_SRC0_INDEX)];

        EU_SET(n, EU_F(33, 31), ctl >> 16);
        EU_SET(n, EU_F(23, 12), (ctl >> 4) & 0xfff);
        EU_SET(n, EU_F(10, 9), (ctl >> 2) & 3);
        EU_SET(n, EU_F(34, 34), (ctl >> 1) & 1);
        EU_SET(n, EU_F(8, 8), ctl & 1);
        EU_SET(n, EU_F(63, 61), dt >> 18);
        EU_SET(n, EU_F(94, 89), (dt >> 12) & 0x3f);
        EU_SET(n, EU_F(46, 35), dt & 0xfff);
        EU_SET(n, EU_F(100, 96), sub >> 10);
        EU_SET(n, EU_F(68, 64), (sub >> 5) & 0x1f);
        EU_SET(n, EU_F(52, 48), sub & 0x1f);
        EU_SET(n, EU_F(88, 77), s0);
    }
    /* has_immediate(): src1 immediate, or src0 of a one-source op. */
    if (EU_GET(n, EU_SRC1_FILE) == EU_FILE_IMM ||
        EU_GET(n, EU_SRC0_FILE) == EU_FILE_IMM) {
        uint32_t imm = EU_GET(&in, EU_F(39, 35)) << 8 | EU_GET(&in, EU_F(63, 56));

        EU_SET(n, EU_IMM32, eu_decode_compact_imm(imm));
    } else {
        EU_SET(n, EU_F(120, 109), src_index_table[EU_GET(&in, EUC_SRC1_INDEX)]);
        EU_SET(n, EU_SRC1_REG_NR, EU_GET(&in, EUC_SRC1_REG_NR));
    }
    EU_SET(n, EU_ACC_WR, EU_GET(&in, EUC_ACC_WR));
    EU_SET(n, EU_COND_MOD, EU_GET(&in, EUC_COND_MOD));
    EU_SET(n, EU_DST_REG_NR, EU_GET(&in, EUC_DST_REG_NR));
    EU_SET(n, EU_SRC0_REG_NR, EU_GET(&in, EUC_SRC0_REG_NR));
    return 0;
}

int eu_decode(const void *code, size_t avail, EuInst *d)
{
    const uint8_t *p = code;
    uint64_t w0, w1;
    EuNative n;

    if (avail < 8) {
        memset(d, 0, sizeof(*d));
        return eu_decode_fail(d, "instruction runs past the end of the kernel");
    }
    memcpy(&w0, p, 8);
    w0 = GUINT64_FROM_LE(w0);
    n = (EuNative) { .lo = w0 };
    if (EU_GET(&n, EUC_CMPT_CTRL)) {
        if (eu_uncompact(w0, &n) < 0) {
            memset(d, 0, sizeof(*d));
            return eu_decode_fail(d, "bad compacted instruction");
        }
        if (eu_decode_native(&n, d) < 0) {
            d->size = 8;
            return -1;
        }
        d->size = 8;
        d->compacted = true;
        return 0;
    }
    if (avail < 16) {
        memset(d, 0, sizeof(*d));
        return eu_decode_fail(d, "instruction runs past the end of the kernel");
    }
    memcpy(&w1, p + 8, 8);
    n.lo = w0;
    n.hi = GUINT64_FROM_LE(w1);
    return eu_decode_native(&n, d);
}
