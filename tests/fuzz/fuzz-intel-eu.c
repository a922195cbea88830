/*
 * Fuzz harness: arbitrary bytes as a Gen11 EU kernel.  Every offset is
 * decoded and disassembled, then a thread runs the bytes with GRFs from
 * the input and a shared function that answers, defers or refuses
 * messages as the input says.  Whatever the bytes, the interpreter must
 * not crash, assert, read or write outside its thread, or run past its
 * budget; the thread ends in a defined state.
 *
 * Built two ways: with clang -fsanitize=fuzzer (meson -Dfuzz=true) as a
 * libFuzzer target, and always as fuzz-intel-eu-smoke, a unit test that
 * feeds it seeded pseudo-random kernels built from real instruction
 * shapes.
 *
 * Input layout: byte 0 the dispatch (bits 1:0 the execution mask, bits
 * 3:2 how the shared function answers), bytes 1-2 the kernel's length
 * (little endian), the kernel, then the initial GRF contents (at most
 * 4 KiB, zero-padded).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "intel/eu/eu-exec.h"

#define GRF_BYTES       (EU_GRF_COUNT * EU_GRF_BYTES)
#define BUDGET          20000
#define RESUMES         4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct SendState {
    unsigned mode;          /* 0 answer, 1 defer once, 2 refuse, 3 mixed */
    unsigned calls;
} SendState;

/*
 * A shared function honouring the EuSendFn contract: the response goes to
 * rlen registers from the destination, which the message may only name
 * inside the GRF.
 */
static int fuzz_send(EuThread *t, const EuInst *inst, uint32_t desc,
                     uint32_t ex_desc, void *opaque)
{
    SendState *s = opaque;
    unsigned rlen = desc >> 20 & 0x1f, nr = inst->dst.nr;

    s->calls++;
    if (s->mode == 2 || (s->mode == 3 && s->calls % 3 == 0)) {
        return -1;
    }
    if (s->mode == 1 && s->calls == 1) {
        return 1;
    }
    if (inst->dst.file == EU_FILE_GRF && rlen) {
        if (nr + rlen > EU_GRF_COUNT) {
            return -1;
        }
        memset(t->grf + nr * EU_GRF_BYTES, 0x3c ^ s->calls,
               rlen * EU_GRF_BYTES);
    }
    return 0;
}

static void decode_all(const uint8_t *code, size_t size)
{
    GString *text = g_string_new(NULL);

    /* Every 8-byte boundary: compacted and native both start there. */
    for (size_t off = 0; off + 8 <= size; off += 8) {
        EuInst d;

        if (eu_decode(code + off, size - off, &d) == 0) {
            g_string_truncate(text, 0);
            eu_disasm(&d, text);
        }
    }
    g_string_free(text, true);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint32_t masks[] = { 0xff, 0xffff, 0xffffffff, 0x5a5a };
    SendState s = { 0 };
    EuThread *t;
    const uint8_t *code = data + 3;
    size_t code_size, grf_in;
    EuStatus st;

    if (size < 3) {
        return 0;
    }
    code_size = MIN(data[1] | (size_t)data[2] << 8, size - 3);
    grf_in = MIN(size - 3 - code_size, GRF_BYTES);
    s.mode = data[0] >> 2 & 3;
    decode_all(code, code_size);

    t = g_new0(EuThread, 1);
    eu_thread_init(t, code, code_size, masks[data[0] & 3], fuzz_send, &s);
    memcpy(t->grf, code + code_size, grf_in);
    st = eu_run(t, BUDGET);
    /* A deferred message resumes, a bounded number of times. */
    for (int i = 0; i < RESUMES && st == EU_WAIT_SEND; i++) {
        st = eu_run(t, BUDGET);
    }
    if (st == EU_RUNNING || t->retired > (uint64_t)BUDGET * (RESUMES + 1)) {
        fprintf(stderr, "thread left running (status %d, %" G_GUINT64_FORMAT
                " instructions)\n", st, t->retired);
        abort();
    }
    if (st == EU_FAULT && !t->fault) {
        fprintf(stderr, "a fault without a reason at IP 0x%x\n", t->ip);
        abort();
    }
    g_free(t);
    return 0;
}

#ifndef GPUMODEL_LIBFUZZER
/*
 * Instructions of IGT 1.27.1's Gen11 kernels (lib/gpgpu_fill.c
 * gen11_gpgpu_kernel, lib/rendercopy_gen9.c ps_kernel_gen11, lib/
 * media_fill.c gen11_media_vme_kernel) and loops, some with random bits
 * flipped: most decode, many run a while, some never end.
 */
static const uint32_t shapes[][4] = {
    { 0x00400001, 0x20202288, 0x00000020, 0x00000000 },  /* mov(4) ub */
    { 0x00000009, 0x20400208, 0x06000004, 0x00000004 },  /* shl(1) */
    { 0x00600001, 0x20800208, 0x008d0000, 0x00000000 },  /* mov(8) */
    { 0x00200001, 0x20800208, 0x00450040, 0x00000000 },  /* mov(2) */
    { 0x00800001, 0x20a00208, 0x00000020, 0x00000000 },  /* mov(16) */
    { 0x0c800031, 0x24000a40, 0x06000080, 0x040a8000 },  /* media write */
    { 0x0060005b, 0x2000c01c, 0x07206601, 0x01800404 },  /* mad(8) acc */
    { 0x0060005b, 0x7100480c, 0x0722003b, 0x01880406 },  /* mad(8) */
    { 0x02800031, 0x21804a4c, 0x06000e20, 0x08840001 },  /* sample */
    { 0x00800001, 0x2e204b28, 0x008d0180, 0x00000000 },  /* mov(16) f */
    { 0x00600041, 0x20800a28, 0x1a000028, 0x008d0280 },  /* mul(8) */
    { 0x00000040, 0x22000a20, 0x0e000020, 0x10782000 },  /* add a0 */
    { 0x00000001, 0x215c4708, 0x00000000, 0xbeefbeef },  /* mov imm */
    { 0x00600027, 0x00000000, 0x00000000, 0xffffffe0 },  /* while back */
    { 0x00600028, 0x00000000, 0x00000000, 0x00000020 },  /* break */
    { 0x07800031, 0x20000a40, 0x06000e00, 0x82000010 },  /* EOT */
};

static void test_random_kernels(void)
{
    GRand *r = g_rand_new_with_seed(0x65755f66);
    enum { INSNS = 48, GRF_IN = 256 };
    size_t size = 3 + INSNS * 16 + GRF_IN;
    uint8_t *buf = g_malloc0(size);

    for (int iter = 0; iter < 2000; iter++) {
        uint32_t k[INSNS * 4];

        buf[0] = g_rand_int(r);
        buf[1] = INSNS * 16 & 0xff;
        buf[2] = INSNS * 16 >> 8;
        for (int i = 0; i < GRF_IN; i++) {
            buf[3 + INSNS * 16 + i] = g_rand_int(r);
        }
        for (int i = 0; i < INSNS; i++) {
            const uint32_t *s = shapes[g_rand_int_range(r, 0,
                                                        G_N_ELEMENTS(shapes))];

            for (int w = 0; w < 4; w++) {
                k[i * 4 + w] = s[w];
            }
            /* Flip a few bits, or none. */
            for (int b = g_rand_int_range(r, -2, 3); b > 0; b--) {
                k[i * 4 + g_rand_int_range(r, 0, 4)] ^=
                    1u << g_rand_int_range(r, 0, 32);
            }
        }
        memcpy(buf + 3, k, sizeof(k));
        LLVMFuzzerTestOneInput(buf, size);
    }
    g_free(buf);
    g_rand_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/intel-eu/fuzz/random-kernels", test_random_kernels);
    return g_test_run();
}
#endif
