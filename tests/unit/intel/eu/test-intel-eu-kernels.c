/*
 * IGT's kernels for Ice Lake, run on the Gen11 EU interpreter as the
 * pipelines will run them: the render copy pixel shader
 * (lib/rendercopy_gen9.c ps_kernel_gen11, IGA source
 * lib/i915/shaders/ps/blit.g11a) and the media fill kernel
 * (lib/media_fill.c gen8_media_kernel, which gen9_media_fillfunc uses
 * on Gen9-11).  Each is checked against a golden disassembly and run
 * with the payload its fixed-function stage delivers, through a fake
 * shared function that checks the messages.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "eu-asm.h"
#include "igt-kernels.h"

#define PS_LEN G_N_ELEMENTS(igt_ps_kernel_gen11)

static void put_f(EuThread *t, unsigned reg, unsigned i, float f)
{
    uint32_t u = GUINT32_TO_LE(asm_f(f));

    memcpy(t->grf + reg * EU_GRF_BYTES + 4 * i, &u, 4);
}

static float get_f(const EuThread *t, unsigned reg, unsigned i)
{
    uint32_t u;
    float f;

    memcpy(&u, t->grf + reg * EU_GRF_BYTES + 4 * i, 4);
    u = GUINT32_FROM_LE(u);
    memcpy(&f, &u, 4);
    return f;
}

static void test_ps_gen11_disasm(void)
{
    asm_check_golden("eu-ps-gen11.txt", igt_ps_kernel_gen11,
                 PS_LEN);
}

static void test_media_fill_disasm(void)
{
    asm_check_golden("eu-media-fill-gen11.txt", gen8_media_kernel,
                 G_N_ELEMENTS(gen8_media_kernel));
}

/*
 * The pixel shader's payload (PRM Vol 7: 3D Media GPGPU, "Windower":
 * "PS Thread Payload for Normal Dispatch", and 3DSTATE_SBE): for SIMD16,
 * r2/r3 hold the perspective pixel barycentrics (b1, b2) of channels 0-7
 * and r4/r5 those of channels 8-15; r6 holds the plane-equation
 * constants of the first two attribute components.  The kernel reads
 * them as u = r6.3 + b1 * r6.0 + b2 * r6.1 and v = r6.7 + b1 * r6.4 +
 * b2 * r6.5 (what pln computed on Gen9).
 */
static float bary1(unsigned c)
{
    return 0.125f * c;
}

static float bary2(unsigned c)
{
    return 1.0f - 0.0625f * c;
}

static const float plane[8] = {
    /* u: d/db1, d/db2, unused, constant; v: the same */
    0.5f, 0.25f, 0.0f, 0.125f, -0.75f, 2.0f, 0.0f, 3.0f,
};

/* A SIMD16 PS payload: barycentrics in r2-r5, the plane in r6. */
static void ps_payload(EuThread *t)
{
    for (unsigned c = 0; c < 16; c++) {
        put_f(t, 2 + 2 * (c / 8), c % 8, bary1(c));
        put_f(t, 3 + 2 * (c / 8), c % 8, bary2(c));
    }
    for (unsigned i = 0; i < 8; i++) {
        put_f(t, 6, i, plane[i]);
    }
}

static float want_u(unsigned c)
{
    return plane[3] + bary1(c) * plane[0] + bary2(c) * plane[1];
}

static float want_v(unsigned c)
{
    return plane[7] + bary1(c) * plane[4] + bary2(c) * plane[5];
}

/* A texel that tells the channel and component apart. */
static float texel(unsigned c, unsigned comp)
{
    return 100.0f * comp + want_u(c) + want_v(c) * 0.5f;
}

typedef struct PsLog {
    unsigned samples, rt_writes;
    float u[16], v[16];
} PsLog;

static int ps_send(EuThread *t, const EuInst *in, uint32_t desc,
                   uint32_t ex_desc, void *opaque)
{
    PsLog *log = opaque;
    unsigned src = in->src[0].nr;

    if (in->sfid == EU_SFID_SAMPLER) {
        /* SIMD16 "sample", no header, BTI 1, sampler 0 (PRM Vol 2d,
         * "Message Descriptor - Sampling Engine"): u in two registers,
         * v in the next two; r, g, b, a written back, two each. */
        g_assert_cmphex(desc, ==, 0x08840001);
        g_assert_cmpuint((desc >> 17) & 3, ==, 2);      /* SIMD16 */
        g_assert_cmpuint((desc >> 12) & 0x1f, ==, 0);   /* sample */
        for (unsigned c = 0; c < 16; c++) {
            log->u[c] = get_f(t, src + c / 8, c % 8);
            log->v[c] = get_f(t, src + 2 + c / 8, c % 8);
        }
        for (unsigned comp = 0; comp < 4; comp++) {
            for (unsigned c = 0; c < 16; c++) {
                put_f(t, in->dst.nr + 2 * comp + c / 8, c % 8,
                      texel(c, comp));
            }
        }
        log->samples++;
        return 0;
    }
    /* SIMD16 render target write, EOT, last RT (PRM Vol 2d, "Message
     * Descriptor - Render Target Write"): r, g, b, a, two registers
     * each, from the message's first register. */
    g_assert_cmpuint(in->sfid, ==, EU_SFID_DP_RENDER);
    g_assert_true(in->eot);
    g_assert_cmphex(desc, ==, 0x10031000);
    g_assert_cmpuint((desc >> 25) & 0xf, ==, 8);
    for (unsigned comp = 0; comp < 4; comp++) {
        for (unsigned c = 0; c < 16; c++) {
            g_assert_cmpfloat(get_f(t, src + 2 * comp + c / 8, c % 8), ==,
                              texel(c, comp));
        }
    }
    log->rt_writes++;
    return 0;
}

static void test_ps_gen11_runs(void)
{
    uint8_t code[sizeof(igt_ps_kernel_gen11)];
    EuThread *t = g_new0(EuThread, 1);
    PsLog log = { 0 };

    asm_kernel_bytes(code, igt_ps_kernel_gen11, PS_LEN);
    eu_thread_init(t, code, sizeof(code), 0xffff, ps_send, &log);
    ps_payload(t);
    g_assert_cmpint(eu_run(t, 100), ==, EU_DONE);
    g_assert_cmpuint(t->retired, ==, PS_LEN);
    g_assert_cmpuint(log.samples, ==, 1);
    g_assert_cmpuint(log.rt_writes, ==, 1);
    for (unsigned c = 0; c < 16; c++) {
        /* The inputs are exact in float: so is u, v. */
        g_assert_cmpfloat(log.u[c], ==, want_u(c));
        g_assert_cmpfloat(log.v[c], ==, want_v(c));
    }
    g_free(t);
}

/*
 * The accumulator keeps the intermediate sum at NF precision (a double
 * here): with the constant 2^24 and products of 1, the float sum
 * 2^24 + 1 would round back to 2^24 before the second mad subtracts
 * 2^24, the accumulator's does not.
 */
static void test_ps_gen11_acc_precision(void)
{
    uint8_t code[sizeof(igt_ps_kernel_gen11)];
    EuThread *t = g_new0(EuThread, 1);
    PsLog log = { 0 };
    static const float big[8] = {
        1.0f, -1.0f, 0, 16777216.0f, 1.0f, -1.0f, 0, 16777216.0f,
    };

    asm_kernel_bytes(code, igt_ps_kernel_gen11, PS_LEN);
    eu_thread_init(t, code, sizeof(code), 0xffff, NULL, &log);
    for (unsigned c = 0; c < 16; c++) {
        put_f(t, 2 + 2 * (c / 8), c % 8, 1.0f);
        put_f(t, 3 + 2 * (c / 8), c % 8, 16777216.0f);
    }
    for (unsigned i = 0; i < 8; i++) {
        put_f(t, 6, i, big[i]);
    }
    /* Stop before the sampler send: no shared function needed. */
    g_assert_cmpint(eu_run(t, 8), ==, EU_BUDGET);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmpfloat(get_f(t, 113, c), ==, 1.0f);
        g_assert_cmpfloat(get_f(t, 116, c), ==, 1.0f);
    }
    g_free(t);
}

/* The shared-program path: a decode shared by many threads, each with
 * its own payload, from a private copy of the code. */
static void test_ps_gen11_program(void)
{
    uint8_t code[sizeof(igt_ps_kernel_gen11)];
    EuThread *t = g_new0(EuThread, 1);
    EuProgram *p;

    asm_kernel_bytes(code, igt_ps_kernel_gen11, PS_LEN);
    p = eu_program_new(code, sizeof(code));
    g_assert_cmpuint(eu_program_size(p), ==, sizeof(code));
    memset(code, 0xff, sizeof(code));   /* the program has its own copy */
    for (unsigned n = 0; n < 3; n++) {
        PsLog log = { 0 };

        /* The previous thread's flags and accumulator do not leak; its
         * GRF stays (same program), a first thread's GRF is zero. */
        t->grf[100 * EU_GRF_BYTES] = 0xa5;
        t->flag[0] = 0x1234;
        t->acc[0][3] = 7;
        eu_thread_init_program(t, p, 0xffff, ps_send, &log);
        g_assert_cmpuint(t->flag[0], ==, 0);
        g_assert_cmpuint(t->acc[0][3], ==, 0);
        g_assert_cmpuint(t->grf[100 * EU_GRF_BYTES], ==, n ? 0xa5 : 0);
        ps_payload(t);
        g_assert_cmpint(eu_run(t, 100), ==, EU_DONE);
        g_assert_cmpuint(t->retired, ==, PS_LEN);
        g_assert_cmpuint(log.rt_writes, ==, 1);
        g_assert_cmpfloat(log.u[15], ==, want_u(15));
    }
    eu_program_unref(eu_program_ref(p));
    eu_program_unref(p);

    /* Another program's first thread starts from a zero GRF, even at
     * the same address. */
    p = eu_program_new(code, sizeof(code));
    t->grf[100 * EU_GRF_BYTES] = 0xa5;
    eu_thread_init_program(t, p, 0xffff, ps_send, NULL);
    g_assert_cmpuint(t->grf[100 * EU_GRF_BYTES], ==, 0);
    eu_program_unref(p);
    g_free(t);
}

/* A bad instruction in a shared program faults every thread that
 * reaches it, and a jump outside the program faults too. */
static void test_program_faults(void)
{
    uint8_t code[32] = { 0 };
    EuThread *t = g_new0(EuThread, 1);
    EuProgram *p;

    code[0] = 0x7f;                     /* reserved opcode 127 */
    p = eu_program_new(code, sizeof(code));
    for (int n = 0; n < 2; n++) {
        eu_thread_init_program(t, p, 0xff, NULL, NULL);
        g_assert_cmpint(eu_run(t, 10), ==, EU_FAULT);
        g_assert_nonnull(t->fault);
        g_assert_cmpuint(t->retired, ==, 0);
    }
    eu_thread_init_program(t, p, 0xff, NULL, NULL);
    t->ip = 32;
    g_assert_cmpint(eu_run(t, 10), ==, EU_FAULT);
    /* A thread that ended stays ended. */
    g_assert_cmpint(eu_run(t, 10), ==, EU_FAULT);
    g_assert_cmpuint(t->retired, ==, 0);
    eu_thread_init_program(t, p, 0xff, NULL, NULL);
    g_assert_cmpint(eu_run(t, 0), ==, EU_BUDGET);
    eu_program_unref(p);

    /* An empty kernel: every fetch is outside it. */
    p = eu_program_new(NULL, 0);
    eu_thread_init_program(t, p, 0xff, NULL, NULL);
    g_assert_cmpint(eu_run(t, 10), ==, EU_FAULT);
    eu_program_unref(p);
    g_free(t);
}

typedef struct MediaLog {
    unsigned writes, eots;
} MediaLog;

/* The media block write (PRM Vol 2d, "Media Block Write"): a header
 * with X in bytes, Y in rows and (height-1) << 16 | (width-1), then
 * 16 rows of 16 bytes, then the thread spawner's EOT. */
static int media_send(EuThread *t, const EuInst *in, uint32_t desc,
                      uint32_t ex_desc, void *opaque)
{
    MediaLog *log = opaque;
    const uint8_t *m = t->grf + in->src[0].nr * EU_GRF_BYTES;
    uint32_t hdr[3];

    if (in->sfid == EU_SFID_THREAD_SPAWNER) {
        uint32_t r0;

        g_assert_true(in->eot);
        memcpy(&r0, m + 5 * 4, 4);
        /* The EOT message carries r0 (the thread's URB handle etc.). */
        g_assert_cmphex(GUINT32_FROM_LE(r0), ==, 0x05050505);
        log->eots++;
        return 0;
    }
    g_assert_cmpuint(in->sfid, ==, EU_SFID_DP_DATA1);
    g_assert_cmphex(desc, ==, 0x120a8000);
    g_assert_cmpuint((desc >> 25) & 0xf, ==, 9);        /* mlen */
    g_assert_cmpuint((desc >> 14) & 0x1f, ==, 10);      /* block write */
    memcpy(hdr, m, sizeof(hdr));
    g_assert_cmpuint(GUINT32_FROM_LE(hdr[0]), ==, 48);
    g_assert_cmpuint(GUINT32_FROM_LE(hdr[1]), ==, 32);
    g_assert_cmphex(GUINT32_FROM_LE(hdr[2]), ==, 0x000f000f);
    for (unsigned i = 0; i < 8 * EU_GRF_BYTES; i++) {
        g_assert_cmphex(m[EU_GRF_BYTES + i], ==, 0x5a);
    }
    log->writes++;
    return 0;
}

/* One MEDIA_OBJECT thread (IGT lib/gpu_cmds.c gen_emit_media_object):
 * the CURBE's first byte is the colour (r1), the inline data the block's
 * X and Y (r2). */
static void test_media_fill_runs(void)
{
    uint8_t code[sizeof(gen8_media_kernel)];
    EuThread *t = g_new0(EuThread, 1);
    MediaLog log = { 0 };
    uint32_t xy[2] = { GUINT32_TO_LE(48), GUINT32_TO_LE(32) };

    asm_kernel_bytes(code, gen8_media_kernel, G_N_ELEMENTS(gen8_media_kernel));
    eu_thread_init(t, code, sizeof(code), 0xffff, media_send, &log);
    memset(t->grf, 0x05, EU_GRF_BYTES);     /* r0: a recognisable header */
    t->grf[EU_GRF_BYTES] = 0x5a;
    memcpy(t->grf + 2 * EU_GRF_BYTES, xy, sizeof(xy));
    g_assert_cmpint(eu_run(t, 100), ==, EU_DONE);
    g_assert_cmpuint(t->retired, ==, G_N_ELEMENTS(gen8_media_kernel));
    g_assert_cmpuint(log.writes, ==, 1);
    g_assert_cmpuint(log.eots, ==, 1);
    g_free(t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/intel-eu/kernels/ps-gen11/disasm",
                    test_ps_gen11_disasm);
    g_test_add_func("/intel-eu/kernels/ps-gen11/run", test_ps_gen11_runs);
    g_test_add_func("/intel-eu/kernels/ps-gen11/acc-precision",
                    test_ps_gen11_acc_precision);
    g_test_add_func("/intel-eu/kernels/ps-gen11/program",
                    test_ps_gen11_program);
    g_test_add_func("/intel-eu/kernels/program-faults", test_program_faults);
    g_test_add_func("/intel-eu/kernels/media-fill/disasm",
                    test_media_fill_disasm);
    g_test_add_func("/intel-eu/kernels/media-fill/run",
                    test_media_fill_runs);
    return g_test_run();
}
