/*
 * Gen11 EU disassembler in the syntax of Mesa's brw_disasm.c (Mesa
 * 25.0), for debug logs and traces: the same columns, register, region,
 * type and option spellings, and the data-port message summaries.
 * Differences: jump targets print as byte offsets ("JIP: 32") where
 * Mesa prints labels, SFID 13 prints as "cre" (Mesa 25 aliases it to
 * the Gen12 "tgm"), and sampler/URB/render-target message details are
 * not spelled out (the mlen/rlen summary is).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "eu-exec.h"

static const char *const type_letters[16] = {
    "UD", "D", "UW", "W", "UB", "B", "UQ", "Q", "HF", "F", "DF", "VF",
    "UV", "V", "NF", NULL,
};

const char *eu_opcode_name(unsigned op)
{
    static const char *const names[128] = {
        [0] = "illegal", "mov", "sel", "movi", "not", "and", "or", "xor",
        "shr", "shl", "smov", [12] = "asr", [14] = "ror", "rol", "cmp",
        "cmpn", "csel", [23] = "bfrev", "bfe", "bfi1", "bfi2",
        [32] = "jmpi", "brd", "if", "brc", "else", "endif", [39] = "while",
        "break", "cont", "halt", "calla", "call", "ret", "goto", "join",
        "wait", "send", "sendc", "sends", "sendsc", [56] = "math",
        [64] = "add", "mul", "avg", "frc", "rndu", "rndd", "rnde", "rndz",
        "mac", "mach", "lzd", "fbh", "fbl", "cbit", "addc", "subb", "sad2",
        "sada2", [84] = "dp4", "dph", "dp3", "dp2", [89] = "line", "pln",
        "mad", "lrp", "madm", [126] = "nop",
    };
    return op < 128 && names[op] ? names[op] : "illegal";
}

/* Output with Mesa's column bookkeeping: its pad() counts the characters
 * written through string()/format() but not those of its raw fprintf()s. */
typedef struct Out {
    GString *s;
    gsize line;         /* offset of the current line */
    gsize hidden;       /* uncounted characters on this line */
} Out;

static gsize eu_disasm_col(const Out *o)
{
    return o->s->len - o->line - o->hidden;
}

static void eu_disasm_put(Out *o, const char *str)
{
    g_string_append(o->s, str);
}

static void G_GNUC_PRINTF(2, 3) eu_disasm_putf(Out *o, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    g_string_append_vprintf(o->s, fmt, ap);
    va_end(ap);
}

static void G_GNUC_PRINTF(2, 3) eu_disasm_raw(Out *o, const char *fmt, ...)
{
    gsize before = o->s->len;
    va_list ap;

    va_start(ap, fmt);
    g_string_append_vprintf(o->s, fmt, ap);
    va_end(ap);
    o->hidden += o->s->len - before;
}

static void eu_disasm_pad(Out *o, gsize c)
{
    do {
        eu_disasm_put(o, " ");
    } while (eu_disasm_col(o) < c);
}

static void eu_disasm_newline(Out *o)
{
    eu_disasm_put(o, "\n");
    o->line = o->s->len;
    o->hidden = 0;
}

/* Mesa's control(): an optional name, preceded by a space once *space. */
static void eu_disasm_ctl(Out *o, const char *name, bool *space)
{
    if (name && name[0]) {
        if (*space) {
            eu_disasm_put(o, " ");
        }
        eu_disasm_put(o, name);
        *space = true;
    }
}

/* A table entry, or Mesa's "*** invalid" note for a reserved value. */
static void eu_disasm_ctl_tab(Out *o, const char *what, const char *const *tab,
                              unsigned id, bool *space)
{
    if (!tab[id]) {
        eu_disasm_raw(o, "*** invalid %s value %u ", what, id);
        return;
    }
    if (space) {
        eu_disasm_ctl(o, tab[id], space);
    } else {
        eu_disasm_put(o, tab[id]);
    }
}

static void eu_disasm_reg_name(Out *o, unsigned file, unsigned nr)
{
    static const char *const arf[16] = {
        "null", "a", "acc", "f", "mask", NULL, NULL, "sr", "cr", "n", "ip",
        "tdr", "tm",
    };
    const char *n = arf[nr >> 4];

    if (file == EU_FILE_GRF) {
        eu_disasm_putf(o, "g%u", nr);
    } else if (!n) {
        eu_disasm_putf(o, "ARF%u", nr);
    } else if (nr >> 4 == 0 || nr >> 4 == 10) {
        eu_disasm_put(o, n);
    } else if (nr >> 4 == 11) {
        eu_disasm_put(o, "tdr0");
    } else {
        eu_disasm_putf(o, "%s%u", n, nr & 0xf);
    }
}

/* ip and tdr0 end an operand (Mesa's reg() returns -1 for them). */
static bool eu_disasm_reg_ends(unsigned file, unsigned nr)
{
    return file == EU_FILE_ARF && (nr >> 4 == 10 || nr >> 4 == 11);
}

static void eu_disasm_imm(Out *o, const EuOperand *op)
{
    uint32_t v = op->imm;
    float f;

    switch (op->type) {
    case EU_TYPE_UD:
        eu_disasm_putf(o, "0x%08xUD", v);
        break;
    case EU_TYPE_D:
        eu_disasm_putf(o, "%dD", (int32_t)v);
        break;
    case EU_TYPE_UW:
        eu_disasm_putf(o, "0x%04xUW", v & 0xffff);
        break;
    case EU_TYPE_W:
        eu_disasm_putf(o, "%dW", (int16_t)v);
        break;
    case EU_TYPE_UV:
        eu_disasm_putf(o, "0x%08xUV", v);
        break;
    case EU_TYPE_V:
        eu_disasm_putf(o, "0x%08xV", v);
        break;
    case EU_TYPE_UQ: case EU_TYPE_Q:
        eu_disasm_putf(o, "0x%016" G_GINT64_MODIFIER "x%s", op->imm,
                       type_letters[op->type]);
        break;
    case EU_TYPE_F:
        memcpy(&f, &v, 4);
        eu_disasm_putf(o, "0x%xF", v);
        eu_disasm_pad(o, 48);
        eu_disasm_putf(o, " /* %-gF */", f);
        break;
    case EU_TYPE_VF: {
        float e[4];

        for (int i = 0; i < 4; i++) {
            uint8_t b = v >> (8 * i);
            uint32_t bits = (b & 0x7f) ? (uint32_t)(b & 0x80) << 24 |
                            (uint32_t)(((b >> 4) & 7) + 124) << 23 |
                            (uint32_t)(b & 0xf) << 19 :
                            (uint32_t)(b & 0x80) << 24;

            memcpy(&e[i], &bits, 4);
        }
        eu_disasm_putf(o, "0x%xVF", v);
        eu_disasm_pad(o, 48);
        eu_disasm_putf(o, "/* [%-gF, %-gF, %-gF, %-gF]VF */", e[0], e[1], e[2],
                       e[3]);
        break;
    }
    case EU_TYPE_HF:
        eu_disasm_putf(o, "0x%04xHF", v & 0xffff);
        eu_disasm_pad(o, 48);
        eu_disasm_putf(o, "/* %-gHF */", eu_half_to_float(v));
        break;
    default:
        eu_disasm_putf(o, "*** invalid immediate type %d ", op->type);
    }
}

static void eu_disasm_indirect(Out *o, const EuOperand *op)
{
    eu_disasm_put(o, "g[a0");
    if (op->addr_subnr) {
        eu_disasm_putf(o, ".%u", op->addr_subnr);
    }
    if (op->addr_imm) {
        eu_disasm_putf(o, " %d", op->addr_imm);
    }
    eu_disasm_put(o, "]");
}

/* The register (or g[a0...]) and subregister of an operand; false when
 * the register name is the whole operand (ip, tdr0). */
static bool eu_disasm_operand_base(Out *o, const EuOperand *op, bool zero_sub)
{
    unsigned sub = op->subnr / MAX(eu_type_size(op->type), 1);

    if (op->indirect) {
        eu_disasm_indirect(o, op);
        return true;
    }
    eu_disasm_reg_name(o, op->file, op->nr);
    if (eu_disasm_reg_ends(op->file, op->nr)) {
        return false;
    }
    if (sub || zero_sub) {
        eu_disasm_putf(o, ".%u", sub);
    }
    return true;
}

static void eu_disasm_region(Out *o, const EuOperand *op)
{
    if (op->vstride == EU_VSTRIDE_VXH) {
        eu_disasm_put(o, "<VxH,");
    } else {
        eu_disasm_putf(o, "<%u,", op->vstride);
    }
    eu_disasm_putf(o, "%u,%u>", op->width, op->hstride);
}

static void eu_disasm_src(Out *o, const EuInst *d, const EuOperand *op,
                          bool is3)
{
    bool logic = d->opcode >= EU_OP_NOT && d->opcode <= EU_OP_XOR;

    if (op->file == EU_FILE_IMM && is3) {
        /* 16-bit three-source immediates: no comment, no padding. */
        if (op->type == EU_TYPE_W) {
            eu_disasm_putf(o, "%dW", (int16_t)op->imm);
        } else if (op->type == EU_TYPE_UW) {
            eu_disasm_putf(o, "0x%04xUW", (uint16_t)op->imm);
        } else if (op->type == EU_TYPE_HF) {
            eu_disasm_putf(o, "0x%04xHF", (uint16_t)op->imm);
        }
        return;
    }
    if (op->file == EU_FILE_IMM) {
        eu_disasm_imm(o, op);
        return;
    }
    eu_disasm_put(o, op->negate ? (logic ? "~" : "-") : "");
    eu_disasm_put(o, op->abs ? "(abs)" : "");
    if (!eu_disasm_operand_base(o, op, is3 && !op->vstride && !op->hstride)) {
        return;
    }
    eu_disasm_region(o, op);
    eu_disasm_put(o, type_letters[op->type]);
}

static void eu_disasm_dst(Out *o, const EuInst *d)
{
    const EuOperand *op = &d->dst;

    if (d->opcode == EU_OP_SENDS || d->opcode == EU_OP_SENDSC) {
        eu_disasm_reg_name(o, op->file, op->nr);
        if (op->subnr) {
            eu_disasm_putf(o, ".%u", op->subnr / 16);
        }
        eu_disasm_put(o, "UD");
        return;
    }
    if (d->nsrc == 3) {
        /* Mesa divides the 8-byte-unit field, not the byte offset, by
         * the type size (brw_disasm.c dest_3src). */
        unsigned sub = op->subnr / 8 / MAX(eu_type_size(op->type), 1);

        eu_disasm_reg_name(o, op->file, op->nr);
        if (eu_disasm_reg_ends(op->file, op->nr)) {
            return;
        }
        if (sub) {
            eu_disasm_putf(o, ".%u", sub);
        }
        eu_disasm_putf(o, "<1>%s", type_letters[op->type]);
        return;
    }
    if (!eu_disasm_operand_base(o, op, false)) {
        return;
    }
    eu_disasm_putf(o, "<%u>%s", op->hstride, type_letters[op->type]);
}

/* The message summary line of a send (brw_disasm.c, after "MsgDesc:"). */
static void eu_disasm_send_desc(Out *o, const EuInst *d, uint32_t desc,
                                bool *space)
{
    static const char *const dc0[16] = {
        "DC OWORD block read", "DC unaligned OWORD block read",
        "DC OWORD dual block read", "DC DWORD scattered read",
        "DC byte scattered read", "DC untyped surface read",
        "DC untyped atomic", "DC mfence", "DC OWORD block write", NULL,
        "DC OWORD dual block write", "DC DWORD scatterd write",
        "DC byte scattered write", "DC untyped surface write",
    };
    static const char *const dc1[32] = {
        [1] = "untyped surface read", "DC untyped atomic op",
        "DC untyped 4x2 atomic op", "DC media block read",
        "DC typed surface read", "DC typed atomic",
        "DC typed 4x2 atomic op", [9] = "DC untyped surface write",
        "DC media block write", "DC atomic counter op",
        "DC 4x2 atomic counter op", "DC typed surface write",
        [0x10] = "DC A64 scattered read", "DC A64 untyped surface read",
        "DC A64 untyped atomic op", "DC A64 untyped atomic half-integer op",
        "DC A64 oword block read", "DC A64 oword block write",
        [0x19] = "DC A64 untyped surface write", "DC A64 scattered write",
        "DC untyped atomic float op", [0x1d] = "DC A64 untyped atomic "
        "float op", "DC A64 untyped atomic half-float op",
    };
    static const char *const oword[8] = { "1-low", "1-high", "2", "4", "8" };
    static const char *const aop[16] = {
        NULL, "and", "or", "xor", "mov", "inc", "dec", "add", "sub",
        "revsub", "imax", "imin", "umax", "umin", "cmpwr", "predec",
    };
    unsigned type = (desc >> 14) & 0x1f, mc = (desc >> 8) & 0x3f;
    unsigned bti = desc & 0xff;

    if (d->sfid == EU_SFID_DP_DATA) {
        eu_disasm_put(o, " (");
        *space = false;
        eu_disasm_ctl(o, dc0[type & 15], space);
        eu_disasm_putf(o, ", bti %u, ", bti);
        if (type == 6) {
            eu_disasm_ctl(o, aop[mc & 0xf], space);
        } else if ((type == 0 || type == 8) && oword[mc & 7]) {
            eu_disasm_putf(o, "owords = %s, aligned = %d", oword[mc & 7],
                           (mc >> 3) & 3);
        } else {
            eu_disasm_putf(o, "%u", mc);
        }
        eu_disasm_put(o, ")");
    } else if (d->sfid == EU_SFID_DP_DATA1) {
        static const char *const simd[4] = { "4x2", "16", "8", "?" };

        eu_disasm_put(o, " (");
        *space = false;
        eu_disasm_ctl(o, dc1[type], space);
        eu_disasm_putf(o, ", Surface = %u, ", bti);
        switch (type) {
        case 2: case 6: case 11:
            eu_disasm_putf(o, "SIMD%d,", (mc & 0x10) ? 8 : 16);
            /* fall through */
        case 3: case 7: case 12: case 0x12: case 0x13:
            eu_disasm_ctl(o, aop[mc & 0xf], space);
            break;
        case 1: case 9: case 5: case 13: case 0x19: case 0x11:
            eu_disasm_putf(o, "SIMD%s, Mask = 0x%x", simd[mc >> 4], mc & 0xf);
            break;
        case 0x14: case 0x15:
            if (oword[mc & 7]) {
                eu_disasm_putf(o, "owords = %s, aligned = %d", oword[mc & 7],
                               (mc >> 3) & 3);
                break;
            }
            /* fall through */
        default:
            eu_disasm_putf(o, "0x%x", mc);
        }
        eu_disasm_put(o, ")");
    } else if (d->sfid == EU_SFID_GATEWAY) {
        static const char *const gw[8] = {
            "open", "close", "forward msg", "get timestamp", "barrier msg",
            "update gateway state", "MMIO R/W", NULL,
        };
        eu_disasm_putf(o, " (%s)", gw[desc & 7] ? gw[desc & 7] : "(null)");
    }
}

/* The predicate, "(+f0.0.anyv) " (brw_disasm.c pred_ctrl). */
static void eu_disasm_predicate(Out *o, const EuInst *d)
{
    static const char *const pred[16] = {
        "", "", ".anyv", ".allv", ".any2h", ".all2h", ".any4h", ".all4h",
        ".any8h", ".all8h", ".any16h", ".all16h", ".any32h", ".all32h",
    };

    if (d->pred_ctrl) {
        eu_disasm_putf(o, "(%sf%u.%u", d->pred_inv ? "-" : "+", d->flag_nr,
                       d->flag_subnr);
        eu_disasm_ctl_tab(o, "predicate control align1", pred, d->pred_ctrl,
                          NULL);
        eu_disasm_put(o, ") ");
    }
}

/*
 * The opcode and its modifiers: saturate, breakpoint, the math function
 * or the conditional modifier and its flag register, the execution size.
 */
static void eu_disasm_opcode(Out *o, const EuInst *d)
{
    static const char *const cond[16] = {
        "", ".z", ".nz", ".g", ".ge", ".l", ".le", ".r", ".o", ".u",
    };
    static const char *const math[16] = {
        NULL, "inv", "log", "exp", "sqrt", "rsq", "sin", "cos", NULL,
        "fdiv", "pow", "intdivmod", "intdiv", "intmod", "invm", "rsqrtm",
    };

    eu_disasm_put(o, eu_opcode_name(d->opcode));
    if (d->saturate && !d->is_send) {
        eu_disasm_put(o, ".sat");
    }
    eu_disasm_put(o, d->debug ? ".breakpoint" : "");
    if (d->opcode == EU_OP_MATH) {
        eu_disasm_put(o, " ");
        eu_disasm_ctl_tab(o, "function", math, d->math_fn, NULL);
    } else if (!d->is_send) {
        eu_disasm_ctl_tab(o, "conditional modifier", cond, d->cond_mod, NULL);
        if (d->cond_mod && d->opcode != EU_OP_SEL &&
            d->opcode != EU_OP_CSEL && d->opcode != EU_OP_IF &&
            d->opcode != EU_OP_WHILE) {
            eu_disasm_putf(o, ".f%u.%u", d->flag_nr, d->flag_subnr);
        }
    }
    if (d->opcode != EU_OP_NOP) {
        eu_disasm_putf(o, "(%u)", d->exec_size);
    }
}

/* A split send's payload source: whole registers, "g2UD" or "g[a0]UD". */
static void eu_disasm_sends_src(Out *o, const EuOperand *op)
{
    if (op->indirect) {
        eu_disasm_put(o, op->addr_subnr ? "g[a0.1" : "g[a0");
        if (op->addr_imm) {
            eu_disasm_putf(o, " %d", op->addr_imm);
        }
        eu_disasm_put(o, "]");
    } else {
        eu_disasm_reg_name(o, op->file, op->nr);
        eu_disasm_put(o, op->subnr ? ".1" : "");
    }
    eu_disasm_put(o, "UD");
}

/*
 * The operand columns: a branch's JIP and UIP, jmpi's source, or the
 * destination and sources (a send's payloads; its descriptors follow).
 */
static void eu_disasm_operands(Out *o, const EuInst *d)
{
    bool split = d->opcode == EU_OP_SENDS || d->opcode == EU_OP_SENDSC;

    if (d->has_uip) {
        eu_disasm_pad(o, 16);
        eu_disasm_putf(o, "JIP: %d", d->jip);
        eu_disasm_pad(o, 38);
        eu_disasm_putf(o, "UIP: %d", d->uip);
    } else if (d->has_jip && d->opcode != EU_OP_CALL &&
               d->opcode != EU_OP_CALLA) {
        eu_disasm_pad(o, 16);
        eu_disasm_putf(o, "JIP: %d", d->jip);
    } else if (d->opcode == EU_OP_JMPI) {
        eu_disasm_pad(o, 16);
        eu_disasm_src(o, d, &d->src[1], false);
    } else if (d->has_dst && d->opcode != EU_OP_CALL &&
               d->opcode != EU_OP_CALLA && d->opcode != EU_OP_RET) {
        eu_disasm_pad(o, 16);
        eu_disasm_dst(o, d);
        for (int i = 0; i < d->nsrc; i++) {
            eu_disasm_pad(o, 32 + 16 * i);
            if (split) {
                eu_disasm_sends_src(o, &d->src[i]);
            } else {
                eu_disasm_src(o, d, &d->src[i], d->nsrc == 3);
            }
        }
    }
}

/*
 * A send's message descriptor columns: the descriptor (with EOT in bit
 * 31) or its register, and a split send's extended descriptor.
 */
static void eu_disasm_send_descs(Out *o, const EuInst *d)
{
    if (d->opcode == EU_OP_SENDS || d->opcode == EU_OP_SENDSC) {
        eu_disasm_pad(o, 64);
        if (!d->desc_indirect) {
            eu_disasm_raw(o, "0x%08x", d->desc);
        } else {
            eu_disasm_put(o, "a0<0>UD");
        }
        eu_disasm_pad(o, 80);
        if (!d->ex_desc_indirect) {
            eu_disasm_raw(o, "0x%08x", d->ex_desc);
        } else {
            eu_disasm_put(o, "a0");
            if (d->ex_desc_subnr) {
                eu_disasm_putf(o, ".%d", d->ex_desc_subnr);
            }
            eu_disasm_put(o, "<0>UD");
        }
    } else {
        eu_disasm_pad(o, 48);
        if (d->desc_indirect) {
            eu_disasm_src(o, d, &d->src[1], false);
            eu_disasm_pad(o, 64);
        }
        eu_disasm_raw(o, "0x%08x", d->desc | (uint32_t)d->eot << 31);
    }
}

/*
 * A send's second line: the SFID and what its message descriptor says,
 * the message and response lengths.
 */
static void eu_disasm_send_message(Out *o, const EuInst *d)
{
    static const char *const sfid_name[16] = {
        "null", NULL, "sampler", "gateway", "dp_sampler", "render", "urb",
        "thread_spawner", "rt accel", "const", "data", "pixel interp",
        "dp data 1", "cre", "slm", "ugm",
    };
    bool split = d->opcode == EU_OP_SENDS || d->opcode == EU_OP_SENDSC;
    bool imm_desc = !d->desc_indirect;
    bool imm_ex = split && !d->ex_desc_indirect;
    bool space = false;

    eu_disasm_newline(o);
    eu_disasm_pad(o, 16);
    eu_disasm_raw(o, "            ");
    eu_disasm_ctl_tab(o, "SFID", sfid_name, d->sfid, &space);
    eu_disasm_put(o, " MsgDesc:");
    if (!imm_desc) {
        eu_disasm_put(o, " indirect");
    } else {
        eu_disasm_send_desc(o, d, d->desc, &space);
        if (space) {
            eu_disasm_put(o, " ");
        }
        eu_disasm_putf(o, " mlen %u", (d->desc >> 25) & 0xf);
    }
    if (imm_ex) {
        eu_disasm_putf(o, " ex_mlen %u", (d->ex_desc >> 6) & 0xf);
    }
    if (imm_desc) {
        eu_disasm_putf(o, " rlen %u", (d->desc >> 20) & 0x1f);
    }
}

/* The instruction options, "{ align1 WE_all 1Q }". */
static void eu_disasm_options(Out *o, const EuInst *d)
{
    static const char *const dep[4] = {
        "", "NoDDClr", "NoDDChk", "NoDDClr,NoDDChk",
    };
    static const char *const thr[4] = { "", "atomic", "switch", NULL };
    bool br = d->has_jip || d->opcode == EU_OP_JMPI ||
              d->opcode == EU_OP_RET || d->opcode == EU_OP_GOTO ||
              d->opcode == EU_OP_BRC || d->opcode == EU_OP_BRD;
    bool space = true;

    eu_disasm_put(o, "{");
    eu_disasm_ctl(o, "align1", &space);
    eu_disasm_ctl(o, d->mask_ctrl ? "WE_all" : "", &space);
    eu_disasm_ctl(o, dep[d->dep_ctrl & 3], &space);
    if (d->exec_size < 8 || d->nib) {
        eu_disasm_putf(o, " %uN", d->qtr * 2 + d->nib + 1);
    } else if (d->exec_size == 8) {
        eu_disasm_putf(o, " %uQ", d->qtr + 1);
    } else if (d->exec_size == 16) {
        eu_disasm_put(o, d->qtr < 2 ? " 1H" : " 2H");
    }
    eu_disasm_ctl(o, d->compacted ? "compacted" : "", &space);
    eu_disasm_ctl_tab(o, "thread control", thr, d->thread_ctrl & 3, &space);
    if (br) {
        eu_disasm_ctl(o, d->branch_ctrl ? "BranchCtrl" : "", &space);
    } else {
        eu_disasm_ctl(o, d->acc_wr ? "AccWrEnable" : "", &space);
    }
    if (d->is_send) {
        eu_disasm_ctl(o, d->eot ? "EOT" : "", &space);
    }
    eu_disasm_put(o, space ? " " : "");
    eu_disasm_put(o, "}");
}

void eu_disasm(const EuInst *d, GString *s)
{
    Out o = { .s = s, .line = s->len };

    if (d->error) {
        eu_disasm_putf(&o, "(invalid: %s)", d->error);
        return;
    }
    eu_disasm_predicate(&o, d);
    eu_disasm_opcode(&o, d);
    eu_disasm_operands(&o, d);
    if (d->is_send) {
        eu_disasm_send_descs(&o, d);
        eu_disasm_send_message(&o, d);
    }
    eu_disasm_pad(&o, 64);
    if (d->opcode != EU_OP_NOP) {
        eu_disasm_options(&o, d);
    }
    eu_disasm_put(&o, ";");
}
