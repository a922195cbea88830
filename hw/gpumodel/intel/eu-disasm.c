/*
 * Gen11 EU disassembler in the syntax of Mesa's brw_disasm.c, for debug
 * logs and traces.  Message descriptors are printed raw (SFID, mlen,
 * rlen); the per-shared-function message decoding is not modelled.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "eu-exec.h"

static const char *const type_letters[16] = {
    "UD", "D", "UW", "W", "UB", "B", "UQ", "Q", "HF", "F", "DF", "VF",
    "UV", "V", NULL, NULL,
};

const char *eu_opcode_name(unsigned op)
{
    static const char *const names[128] = {
        [0] = "illegal", "mov", "sel", "movi", "not", "and", "or", "xor",
        "shr", "shl", "smov", [12] = "asr", [14] = "ror", "rol", "cmp",
        "cmpn", "csel", [23] = "bfrev", "bfe", "bfi1", "bfi2",
        [32] = "jmpi", "brd", "if", "brc", "else", "endif", [39] = "while",
        "break", "cont", "halt", "calla", "call", "ret", "goto",
        [48] = "wait", "send", "sendc", "sends", "sendsc", [56] = "math",
        [64] = "add", "mul", "avg", "frc", "rndu", "rndd", "rnde", "rndz",
        "mac", "mach", "lzd", "fbh", "fbl", "cbit", "addc", "subb", "sad2",
        "sada2", [84] = "dp4", "dph", "dp3", "dp2", [89] = "line", "pln",
        "mad", "lrp", "madm", [126] = "nop",
    };
    return op < 128 && names[op] ? names[op] : "illegal";
}

static void pad(GString *s, gsize col)
{
    do {
        g_string_append_c(s, ' ');
    } while (s->len < col);
}

static void reg_name(GString *s, unsigned file, unsigned nr)
{
    static const char *const arf[16] = {
        "null", "a", "acc", "f", "mask", NULL, NULL, "sr", "cr", "n", "ip",
        "tdr", "tm",
    };
    const char *n = arf[nr >> 4];

    if (file == EU_FILE_GRF) {
        g_string_append_printf(s, "g%u", nr);
    } else if (!n) {
        g_string_append_printf(s, "ARF%u", nr);
    } else if (nr >> 4 == 0 || nr >> 4 == 10) {
        g_string_append(s, n);
    } else if (nr >> 4 == 11) {
        g_string_append(s, "tdr0");
    } else {
        g_string_append_printf(s, "%s%u", n, nr & 0xf);
    }
}

static unsigned log2u(unsigned v)
{
    return v ? 31 - __builtin_clz(v) : 0;
}

static void imm(GString *s, const EuOperand *o)
{
    uint32_t v = o->imm;
    float f;

    switch (o->type) {
    case EU_TYPE_UD: g_string_append_printf(s, "0x%08xUD", v); break;
    case EU_TYPE_D: g_string_append_printf(s, "%dD", (int32_t)v); break;
    case EU_TYPE_UW: g_string_append_printf(s, "0x%04xUW", v & 0xffff);
        break;
    case EU_TYPE_W: g_string_append_printf(s, "%dW", (int16_t)v); break;
    case EU_TYPE_UV: g_string_append_printf(s, "0x%08xUV", v); break;
    case EU_TYPE_V: g_string_append_printf(s, "0x%08xV", v); break;
    case EU_TYPE_UQ: case EU_TYPE_Q:
        g_string_append_printf(s, "0x%016" G_GINT64_MODIFIER "x%s", o->imm,
                               type_letters[o->type]);
        break;
    case EU_TYPE_F:
        memcpy(&f, &v, 4);
        g_string_append_printf(s, "0x%xF", v);
        pad(s, 48);
        g_string_append_printf(s, " /* %-gF */", f);
        break;
    case EU_TYPE_VF:
        g_string_append_printf(s, "0x%xVF", v);
        break;
    case EU_TYPE_HF:
        g_string_append_printf(s, "0x%04xHF", v & 0xffff);
        break;
    default:
        g_string_append_printf(s, "*** invalid immediate type %d ", o->type);
    }
}

static void src(GString *s, const EuInst *d, const EuOperand *o, bool is3)
{
    bool logic = d->opcode >= EU_OP_NOT && d->opcode <= EU_OP_XOR;
    unsigned sub = o->subnr / MAX(eu_type_size(o->type), 1);

    if (o->file == EU_FILE_IMM) {
        imm(s, o);
        return;
    }
    if (o->negate) {
        g_string_append(s, logic ? "~" : "-");
    }
    if (o->abs) {
        g_string_append(s, "(abs)");
    }
    if (o->indirect) {
        g_string_append(s, "g[a0");
        if (o->addr_subnr) {
            g_string_append_printf(s, ".%u", o->addr_subnr);
        }
        if (o->addr_imm) {
            g_string_append_printf(s, " %d", o->addr_imm);
        }
        g_string_append(s, "]");
    } else {
        reg_name(s, o->file, o->nr);
        if (o->file == EU_FILE_ARF && (o->nr >> 4 == 0xa || o->nr >> 4 == 0xb)) {
            return;
        }
        if (sub || (is3 && !o->vstride && !o->hstride)) {
            g_string_append_printf(s, ".%u", sub);
        }
    }
    if (o->vstride == EU_VSTRIDE_VXH) {
        g_string_append(s, "<VxH,");
    } else {
        g_string_append_printf(s, "<%u,", o->vstride);
    }
    g_string_append_printf(s, "%u,%u>%s", o->width, o->hstride,
                           type_letters[o->type]);
}

static void dst(GString *s, const EuInst *d)
{
    const EuOperand *o = &d->dst;
    unsigned sub = o->subnr / MAX(eu_type_size(o->type), 1);

    if (d->opcode == EU_OP_SENDS || d->opcode == EU_OP_SENDSC) {
        reg_name(s, o->file, o->nr);
        if (o->subnr) {
            g_string_append_printf(s, ".%u", o->subnr / 16);
        }
        g_string_append(s, "UD");
        return;
    }
    if (o->indirect) {
        g_string_append(s, "g[a0");
        if (o->addr_subnr) {
            g_string_append_printf(s, ".%u", o->addr_subnr);
        }
        if (o->addr_imm) {
            g_string_append_printf(s, " %d", o->addr_imm);
        }
        g_string_append(s, "]");
    } else {
        reg_name(s, o->file, o->nr);
        if (o->file == EU_FILE_ARF && o->nr >> 4 == 0xa) {
            return;
        }
        if (sub) {
            g_string_append_printf(s, ".%u", sub);
        }
    }
    g_string_append_printf(s, "<%u>%s", o->hstride, type_letters[o->type]);
}

void eu_disasm(const EuInst *d, GString *s)
{
    static const char *const cond[16] = {
        "", ".z", ".nz", ".g", ".ge", ".l", ".le", NULL, ".o", ".u",
    };
    static const char *const pred[16] = {
        "", "", ".anyv", ".allv", ".any2h", ".all2h", ".any4h", ".all4h",
        ".any8h", ".all8h", ".any16h", ".all16h", ".any32h", ".all32h",
    };
    static const char *const math[16] = {
        NULL, "inv", "log", "exp", "sqrt", "rsq", "sin", "cos", NULL,
        "fdiv", "pow", "intdivmod", "intdiv", "intmod", "invm", "rsqrtm",
    };
    static const char *const dep[4] = {
        "", " NoDDClr", " NoDDChk", " NoDDClr,NoDDChk",
    };
    gsize start = s->len;
#define COL(c) pad(s, start + (c))

    if (d->error) {
        g_string_append_printf(s, "(invalid: %s)", d->error);
        return;
    }
    if (d->pred_ctrl) {
        g_string_append_printf(s, "(%sf%u.%u%s) ", d->pred_inv ? "-" : "",
                               d->flag_nr, d->flag_subnr, pred[d->pred_ctrl]);
    }
    g_string_append(s, eu_opcode_name(d->opcode));
    if (d->saturate && !d->is_send) {
        g_string_append(s, ".sat");
    }
    if (d->debug) {
        g_string_append(s, ".breakpoint");
    }
    if (d->opcode == EU_OP_MATH) {
        g_string_append_printf(s, " %s", math[d->math_fn] ? math[d->math_fn]
                                                          : "???");
    } else if (!d->is_send && d->cond_mod) {
        g_string_append(s, cond[d->cond_mod] ? cond[d->cond_mod] : ".???");
        if (d->opcode != EU_OP_SEL && d->opcode != EU_OP_CSEL &&
            d->opcode != EU_OP_IF && d->opcode != EU_OP_WHILE) {
            g_string_append_printf(s, ".f%u.%u", d->flag_nr, d->flag_subnr);
        }
    }
    if (d->opcode != EU_OP_NOP) {
        g_string_append_printf(s, "(%u)", d->exec_size);
    }
    if (d->has_jip && d->opcode != EU_OP_CALL && d->opcode != EU_OP_CALLA) {
        COL(16);
        g_string_append_printf(s, "JIP: %d", d->jip);
        if (d->has_uip) {
            COL(38);
            g_string_append_printf(s, "UIP: %d", d->uip);
        }
    } else if (d->opcode == EU_OP_JMPI) {
        COL(16);
        src(s, d, &d->src[1], false);
    } else if (d->has_dst) {
        COL(16);
        dst(s, d);
        for (int i = 0; i < d->nsrc; i++) {
            if (d->is_send && i == 1 &&
                d->opcode != EU_OP_SENDS && d->opcode != EU_OP_SENDSC) {
                break;
            }
            COL(32 + 16 * i);
            if ((d->opcode == EU_OP_SENDS || d->opcode == EU_OP_SENDSC) &&
                i == 1) {
                reg_name(s, d->src[1].file, d->src[1].nr);
                continue;
            }
            src(s, d, &d->src[i], d->nsrc == 3);
        }
    }
    if (d->is_send) {
        bool split = d->opcode == EU_OP_SENDS || d->opcode == EU_OP_SENDSC;

        COL(split ? 64 : 48);
        if (d->desc_indirect) {
            g_string_append(s, "a0.0<0>UD");
        } else {
            g_string_append_printf(s, "0x%08x", d->desc);
        }
        if (split) {
            COL(80);
            if (d->ex_desc_indirect) {
                g_string_append_printf(s, "a0.%u<0>UD", d->ex_desc_subnr);
            } else {
                g_string_append_printf(s, "0x%08x", d->ex_desc);
            }
        }
        g_string_append_printf(s, "\n%*s            sfid %u MsgDesc:", 16,
                               "", d->sfid);
        start = s->len - (16 + 12 + 17 + 8) + 0;
        if (!d->desc_indirect) {
            g_string_append_printf(s, " mlen %u", (d->desc >> 25) & 0xf);
            if (split && !d->ex_desc_indirect) {
                g_string_append_printf(s, " ex_mlen %u",
                                       (d->ex_desc >> 6) & 0xf);
            }
            g_string_append_printf(s, " rlen %u", (d->desc >> 20) & 0x1f);
        }
        start = s->len - (s->len - (gsize)(strrchr(s->str, '\n') - s->str)) + 1;
    }
    if (d->opcode != EU_OP_NOP) {
        unsigned qc;

        COL(64);
        g_string_append(s, "{ align1");
        if (d->mask_ctrl) {
            g_string_append(s, " WE_all");
        }
        g_string_append(s, dep[d->dep_ctrl & 3]);
        if (d->exec_size < 8 || d->nib) {
            g_string_append_printf(s, " %uN", d->qtr * 2 + d->nib + 1);
        } else if (d->exec_size == 8) {
            g_string_append_printf(s, " %uQ", d->qtr + 1);
        } else if (d->exec_size == 16) {
            g_string_append(s, d->qtr < 2 ? " 1H" : " 2H");
        }
        if (d->compacted) {
            g_string_append(s, " compacted");
        }
        qc = d->thread_ctrl;
        if (qc == 1) {
            g_string_append(s, " atomic");
        } else if (qc == 2) {
            g_string_append(s, " switch");
        }
        if (d->has_jip && d->branch_ctrl) {
            g_string_append(s, " BranchCtrl");
        } else if (!d->has_jip && d->acc_wr) {
            g_string_append(s, " AccWrEnable");
        }
        if (d->is_send && d->eot) {
            g_string_append(s, " EOT");
        }
        g_string_append(s, " }");
    }
    g_string_append_c(s, ';');
#undef COL
    (void)log2u;
}
