/*
 * Unit tests of the Gen11 EU decoder and disassembler
 * (hw/gpumodel/intel/eu/eu-decode.c, eu-disasm.c): IGT's Gen11 gpgpu_fill
 * and media VME kernels (IGT lib/gpgpu_fill.c, lib/media_fill.c) must
 * decode and print as Mesa's brw_disasm.c does; compacted instructions
 * expand through the Gen8 control/subreg/src index tables and the Gen11
 * datatype table of Mesa's brw_eu_compact.c; invalid encodings are
 * errors.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "eu-asm.h"
#include "igt-kernels.h"

/* IGT 1.27.1 lib/media_fill.c gen11_media_vme_kernel (without the
 * zero padding). */
static const uint32_t media_vme_kernel[][4] = {
    { 0x00600001, 0x20302e68, 0x00000000, 0x20000000 },
    { 0x00600001, 0x22802e68, 0x00000000, 0x00000001 },
    { 0x00000001, 0x20284f2c, 0x00000000, 0x3818000c },
    { 0x00600001, 0x22902e68, 0x00000000, 0x00000010 },
    { 0x00600001, 0x22a02e68, 0x00000000, 0x00010000 },
    { 0x00000001, 0x202c4f2c, 0x00000000, 0x22222222 },
    { 0x00000040, 0x22000a20, 0x0e000020, 0x10782000 },
    { 0x00600001, 0x20404f28, 0x00000000, 0x00000000 },
    { 0x00600001, 0x20a04f28, 0x00000000, 0x00000000 },
    { 0x00600001, 0x20c04f28, 0x00000000, 0x00000000 },
    { 0x00600001, 0x21204f28, 0x00000000, 0x00000000 },
    { 0x00600001, 0x20601a28, 0x008d0030, 0x00000000 },
    { 0x00600041, 0x20800a28, 0x1a000028, 0x008d0280 },
    { 0x00600041, 0x20e01a28, 0x1e8d0290, 0x01000100 },
    { 0x00600041, 0x21000a28, 0x1a00002c, 0x008d02a0 },
    { 0x00000001, 0x22284f2c, 0x00000000, 0x00000000 },
    { 0x0d80c031, 0x21404a48, 0x00000040, 0x00000200 },
    { 0x00000001, 0x215c4708, 0x00000000, 0xbeefbeef },
    { 0x00000040, 0x22000204, 0x06000024, 0x020a0400 },
    { 0x00000001, 0x215e4708, 0x00000000, 0xdeaddead },
    { 0x00000001, 0x22484f2c, 0x00000000, 0x00000008 },
    { 0x00000001, 0x22684f2c, 0x00000000, 0x0000000c },
    { 0x00600001, 0x2fe04b2c, 0x008d0000, 0x00000000 },
    { 0x0a800033, 0x0000a054, 0x00002224, 0x00000000 },
    { 0x00000040, 0x22000204, 0x06000024, 0x020a0300 },
    { 0x0a800033, 0x0000e054, 0x00002242, 0x00000000 },
    { 0x00000040, 0x22000204, 0x06000024, 0x020a0200 },
    { 0x0a600033, 0x00010014, 0x00002261, 0x00000000 },
    { 0x07600031, 0x20004a04, 0x06000fe0, 0x82000010 },
};

static void test_gpgpu_kernel(void)
{
    asm_check_golden("eu-gpgpu-fill-gen11.txt", gen11_gpgpu_kernel,
                     G_N_ELEMENTS(gen11_gpgpu_kernel));
}

static void test_media_vme_kernel(void)
{
    asm_check_golden("eu-media-vme-gen11.txt", media_vme_kernel,
                     G_N_ELEMENTS(media_vme_kernel));
}

typedef struct FillLog {
    unsigned writes, eots;
} FillLog;

/* The data port and thread spawner as gpgpu_fill uses them: check the
 * media block write's payload (PRM Vol 2, "Media Block Write"). */
static int fill_send(EuThread *t, const EuInst *in, uint32_t desc,
                     uint32_t ex_desc, void *opaque)
{
    FillLog *log = opaque;
    const uint8_t *m = t->grf + in->src[0].nr * EU_GRF_BYTES;
    uint32_t hdr[3], data;

    if (in->sfid == EU_SFID_THREAD_SPAWNER && in->eot) {
        log->eots++;
        return 0;
    }
    g_assert_cmpuint(in->sfid, ==, EU_SFID_DP_DATA1);
    g_assert_cmphex(desc, ==, 0x040a8000);
    memcpy(hdr, m, sizeof(hdr));
    g_assert_cmpuint(GUINT32_FROM_LE(hdr[0]), ==, 2 * 16);  /* X bytes */
    g_assert_cmpuint(GUINT32_FROM_LE(hdr[1]), ==, 3);       /* Y */
    g_assert_cmpuint(GUINT32_FROM_LE(hdr[2]), ==, 15);      /* 16x1 */
    for (unsigned i = 0; i < 16; i++) {
        memcpy(&data, m + EU_GRF_BYTES + 4 * i, 4);
        g_assert_cmphex(GUINT32_FROM_LE(data), ==, 0x2a2a2a2a);
    }
    log->writes++;
    return 0;
}

/* IGT's kernel runs to its EOT: thread group (2, 3), colour 0x2a. */
static void test_gpgpu_kernel_runs(void)
{
    uint8_t code[sizeof(gen11_gpgpu_kernel)];
    EuThread *t = g_new0(EuThread, 1);
    FillLog log = { 0 };

    asm_kernel_bytes(code, gen11_gpgpu_kernel,
                     G_N_ELEMENTS(gen11_gpgpu_kernel));
    eu_thread_init(t, code, sizeof(code), 0xffff, fill_send, &log);
    t->grf[1 * 4] = 2;                  /* g0.1: thread group X */
    t->grf[6 * 4] = 3;                  /* g0.6: thread group Y */
    t->grf[EU_GRF_BYTES] = 0x2a;        /* g1.0: the fill colour */
    g_assert_cmpint(eu_run(t, 100), ==, EU_DONE);
    g_assert_cmpuint(t->retired, ==, G_N_ELEMENTS(gen11_gpgpu_kernel));
    g_assert_cmpuint(log.writes, ==, 1);
    g_assert_cmpuint(log.eots, ==, 1);
    g_free(t);
}

typedef struct SendTrace {
    unsigned n;
    uint32_t sfid[8], desc[8], ex_desc[8];
} SendTrace;

static int trace_send(EuThread *t, const EuInst *in, uint32_t desc,
                      uint32_t ex_desc, void *opaque)
{
    SendTrace *tr = opaque;

    g_assert_cmpuint(tr->n, <, 8);
    tr->sfid[tr->n] = in->sfid;
    tr->desc[tr->n] = desc;
    tr->ex_desc[tr->n++] = ex_desc;
    return 0;
}

/* IGT's media VME kernel: descriptors built in a0 reach the shared
 * functions (g1.0 = 0x100, g1.1 = 5). */
static void test_media_vme_kernel_runs(void)
{
    uint8_t code[sizeof(media_vme_kernel)];
    EuThread *t = g_new0(EuThread, 1);
    SendTrace tr = { 0 };
    static const uint32_t want[][3] = {
        { 13, 0x10782100, 0 },
        { EU_SFID_DP_DATA, 0x020a0405, 0x100 },
        { EU_SFID_DP_DATA, 0x020a0305, 0x80 },
        { EU_SFID_DP_DATA, 0x020a0205, 0x40 },
        { EU_SFID_THREAD_SPAWNER, 0x02000010, 0 },
    };

    asm_kernel_bytes(code, media_vme_kernel, G_N_ELEMENTS(media_vme_kernel));
    eu_thread_init(t, code, sizeof(code), 0xffff, trace_send, &tr);
    t->grf[EU_GRF_BYTES + 1] = 0x01;    /* g1.0 = 0x100 */
    t->grf[EU_GRF_BYTES + 4] = 5;       /* g1.1 = 5 */
    g_assert_cmpint(eu_run(t, 100), ==, EU_DONE);
    g_assert_cmpuint(tr.n, ==, G_N_ELEMENTS(want));
    for (unsigned i = 0; i < tr.n; i++) {
        g_assert_cmpuint(tr.sfid[i], ==, want[i][0]);
        g_assert_cmphex(tr.desc[i], ==, want[i][1]);
        g_assert_cmphex(tr.ex_desc[i], ==, want[i][2]);
    }
    g_free(t);
}

/* Field-by-field decode of two gpgpu_fill instructions. */
static void test_decode_fields(void)
{
    EuNative shl = { 0x2040020800000009ull, 0x0000000406000004ull };
    EuNative send = { 0x24000a400c800031ull, 0x040a800006000080ull };
    EuInst d;

    g_assert_cmpint(eu_decode_native(&shl, &d), ==, 0);
    g_assert_cmpuint(d.opcode, ==, EU_OP_SHL);
    g_assert_cmpuint(d.exec_size, ==, 1);
    g_assert_cmpuint(d.dst.nr, ==, 2);
    g_assert_cmpuint(d.dst.type, ==, EU_TYPE_UD);
    g_assert_cmpuint(d.src[0].nr, ==, 0);
    g_assert_cmpuint(d.src[0].subnr, ==, 4);
    g_assert_cmpuint(d.src[0].vstride, ==, 0);
    g_assert_cmpuint(d.src[1].file, ==, EU_FILE_IMM);
    g_assert_cmpuint(d.src[1].imm, ==, 4);

    g_assert_cmpint(eu_decode_native(&send, &d), ==, 0);
    g_assert_true(d.is_send);
    g_assert_cmpuint(d.sfid, ==, EU_SFID_DP_DATA1);
    g_assert_cmpuint(d.exec_size, ==, 16);
    g_assert_cmphex(d.desc, ==, 0x040a8000);
    g_assert_false(d.eot);
    g_assert_cmpuint(d.dst.nr, ==, 32);
    g_assert_cmpuint(d.src[0].nr, ==, 4);
}

/*
 * Compacted forms, derived by hand from the Mesa tables:
 * mov(8) g2<1>F g3<8,8,1>F: control index 11 (exec size 8), datatype
 * index 8 (0x040965: GRF F <- GRF F, hstride 1), subreg index 0, src0
 * index 28 (0x468: <8;8,1>).
 * add(8) g4<1>D g4<8,8,1>D -3D: datatype index 14 (0x047145: GRF D, GRF
 * D, immediate D), immediate 0x1ffd sign-extended from bit 12.
 */
#define CMPT_MOV (1ull | 11ull << 8 | 8ull << 13 | 1ull << 29 | \
                  28ull << 30 | 2ull << 40 | 3ull << 48)
#define CMPT_ADD (64ull | 11ull << 8 | 14ull << 13 | 1ull << 29 | \
                  28ull << 30 | 0x1full << 35 | 4ull << 40 | 4ull << 48 | \
                  0xfdull << 56)

static void test_compacted(void)
{
    uint64_t words[3] = {
        GUINT64_TO_LE(CMPT_MOV), GUINT64_TO_LE(CMPT_ADD),
    };
    EuNative n;
    EuInst d;
    GString *s = g_string_new(NULL);

    g_assert_cmpint(eu_uncompact(CMPT_MOV, &n), ==, 0);
    g_assert_cmpuint(EU_GET(&n, EU_EXEC_SIZE), ==, 3);
    g_assert_cmpuint(EU_GET(&n, EU_SRC0_VSTRIDE), ==, 4);
    g_assert_cmpuint(EU_GET(&n, EU_CMPT_CTRL), ==, 0);
    g_assert_cmpint(eu_uncompact(CMPT_MOV & ~(1ull << 29), &n), ==, -1);

    /* Compacted three-source forms are align16 before Gen12: rejected.
     * mad, control index 0, source index 0. */
    words[2] = GUINT64_TO_LE(91ull | 1ull << 29);
    g_assert_cmpint(eu_decode(&words[2], 8, &d), ==, -1);
    g_assert_cmpstr(d.error, ==, "align16 is not supported on this model");
    g_assert_cmpuint(d.size, ==, 8);

    g_assert_cmpint(eu_decode(words, sizeof(words), &d), ==, 0);
    g_assert_cmpuint(d.size, ==, 8);
    g_assert_true(d.compacted);
    eu_disasm(&d, s);
    g_assert_cmpstr(s->str, ==,
                    "mov(8)          g2<1>F          g3<8,8,1>F"
                    "                      { align1 1Q compacted };");
    g_string_truncate(s, 0);
    g_assert_cmpint(eu_decode((uint8_t *)words + 8, 16, &d), ==, 0);
    g_assert_cmpuint(d.opcode, ==, EU_OP_ADD);
    g_assert_cmpuint(d.src[1].type, ==, EU_TYPE_D);
    g_assert_cmpint((int32_t)d.src[1].imm, ==, -3);
    eu_disasm(&d, s);
    g_assert_cmpstr(s->str, ==,
                    "add(8)          g4<1>D          g4<8,8,1>D      -3D"
                    "             { align1 1Q compacted };");
    g_string_free(s, true);
}

/* Compacted kernels run like their native forms: g4 = g3 - 3. */
static void test_compacted_exec(void)
{
    uint64_t prog[4] = {
        GUINT64_TO_LE(CMPT_MOV & ~(0xffull << 48)),     /* g2 = g0 */
        GUINT64_TO_LE(CMPT_ADD),
    };
    EuNative eot = asm_send(8, 127, 127, EU_SFID_THREAD_SPAWNER,
                            0x02000010, true);
    EuThread *t = g_new0(EuThread, 1);

    asm_emit((uint8_t *)&prog[2], &eot, 1);
    eu_thread_init(t, prog, sizeof(prog), 0xff, NULL, NULL);
    for (unsigned i = 0; i < 8; i++) {
        t->grf[4 * 32 + 4 * i] = 10 + i;
    }
    /* No shared function: the EOT faults, after both ALU ops ran. */
    g_assert_cmpint(eu_run(t, 10), ==, EU_FAULT);
    g_assert_cmpuint(t->ip, ==, 16);
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmpuint(t->grf[4 * 32 + 4 * i], ==, 7 + i);
    }
    g_free(t);
}

/* Three-source align1 forms print as brw_disasm.c's src*_3src do. */
static void test_disasm_3src(void)
{
    EuNative mad = asm_3src(EU_OP_MAD, 8, true, 1, 6, 5, 3, 4);
    EuNative imm = mad;
    GString *s = g_string_new(NULL);
    EuInst d;

    g_assert_cmpint(eu_decode_native(&mad, &d), ==, 0);
    g_assert_cmpuint(d.src[0].width, ==, 8);
    eu_disasm(&d, s);
    g_assert_cmpstr(s->str, ==,
                    "mad(8)          g6<1>F          g5<8,8,1>F      "
                    "g3<8,8,1>F      g4<1,1,1>F { align1 1Q };");

    /* An HF immediate in src0, a scalar src1, a negated src2. */
    EU_SET(&imm, EU_3_DST_TYPE, 0);
    EU_SET(&imm, EU_3_SRC0_TYPE, 0);
    EU_SET(&imm, EU_3_SRC1_TYPE, 0);
    EU_SET(&imm, EU_3_SRC2_TYPE, 0);
    EU_SET(&imm, EU_3_SRC0_FILE, 1);
    EU_SET(&imm, EU_3_SRC0_IMM, 0x3c00);
    EU_SET(&imm, EU_3_SRC1_VSTRIDE, 0);
    EU_SET(&imm, EU_3_SRC1_HSTRIDE, 0);
    EU_SET(&imm, EU_3_SRC1_SUBREG, 6);
    EU_SET(&imm, EU_3_SRC2_NEGATE, 1);
    g_string_truncate(s, 0);
    g_assert_cmpint(eu_decode_native(&imm, &d), ==, 0);
    eu_disasm(&d, s);
    g_assert_cmpstr(s->str, ==,
                    "mad(8)          g6<1>HF         0x3c00HF        "
                    "g3.3<0,1,0>HF   -g4<1,1,1>HF { align1 1Q };");
    g_string_free(s, true);
}

static void test_invalid(void)
{
    EuNative mov = asm_1(EU_OP_MOV, 8, D(3, 0, EU_TYPE_UD),
                         IMM(EU_TYPE_UD, 1));
    EuNative n;
    EuInst d;

    n = mov;
    EU_SET(&n, EU_OPCODE, 127);
    g_assert_cmpint(eu_decode_native(&n, &d), ==, -1);
    g_assert_nonnull(d.error);
    n = mov;
    EU_SET(&n, EU_EXEC_SIZE, 7);
    g_assert_cmpint(eu_decode_native(&n, &d), ==, -1);
    n = mov;
    EU_SET(&n, EU_DST_TYPE, 10);            /* DF: not on Gen11 */
    g_assert_cmpint(eu_decode_native(&n, &d), ==, -1);
    n = mov;
    EU_SET(&n, EU_DST_TYPE, EU_TYPE_VF);    /* VF is immediate-only */
    g_assert_cmpint(eu_decode_native(&n, &d), ==, -1);
    n = mov;
    EU_SET(&n, EU_PRED_CTRL, 14);
    g_assert_cmpint(eu_decode_native(&n, &d), ==, -1);
    n = mov;
    EU_SET(&n, EU_DST_FILE, EU_FILE_IMM);
    g_assert_cmpint(eu_decode_native(&n, &d), ==, -1);
    n = mov;
    EU_SET(&n, EU_ACCESS_MODE, 1);
    g_assert_cmpint(eu_decode_native(&n, &d), ==, -1);
    g_assert_cmpint(eu_decode(&mov, 8, &d), ==, -1);    /* truncated */

    /* Every single-bit flip of a valid instruction decodes or fails
     * cleanly. */
    for (unsigned b = 0; b < 128; b++) {
        n = mov;
        EU_SET(&n, EU_F(b, b), !EU_GET(&n, EU_F(b, b)));
        if (eu_decode_native(&n, &d) == 0) {
            GString *s = g_string_new(NULL);

            eu_disasm(&d, s);
            g_assert_cmpuint(s->len, >, 0);
            g_string_free(s, true);
        } else {
            g_assert_nonnull(d.error);
        }
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/intel-eu/decode/fields", test_decode_fields);
    g_test_add_func("/intel-eu/decode/invalid", test_invalid);
    g_test_add_func("/intel-eu/decode/compacted", test_compacted);
    g_test_add_func("/intel-eu/decode/compacted-exec", test_compacted_exec);
    g_test_add_func("/intel-eu/exec/gpgpu-fill", test_gpgpu_kernel_runs);
    g_test_add_func("/intel-eu/exec/media-vme", test_media_vme_kernel_runs);
    g_test_add_func("/intel-eu/disasm/3src", test_disasm_3src);
    g_test_add_func("/intel-eu/disasm/gpgpu-fill", test_gpgpu_kernel);
    g_test_add_func("/intel-eu/disasm/media-vme", test_media_vme_kernel);
    return g_test_run();
}
