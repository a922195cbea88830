/*
 * The hostile compute kernels of the qtests and fuzz seeds
 * (tests/qtest/intel-gpu-compute-kernels.h, dword arrays: the qtests
 * cannot include this assembler) are what the assembly here builds.
 * HOSTILE_KERNELS_PRINT=1 prints them in the header's form.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include "eu-asm.h"
#include "tests/qtest/intel-gpu-compute-kernels.h"

#define UD(nr, sub)             G(nr, 4 * (sub), EU_TYPE_UD, R_0_1_0)
#define R(nr)                   G(nr, 0, EU_TYPE_UD, R_8_8_1)
#define N0 \
    ((AOp){ .file = EU_FILE_ARF, .type = EU_TYPE_UD, .nr = EU_ARF_NOTIFY })

/* OWord block messages (PRM Vol 7, "OWord Block Read/Write"). */
#define DESC_OW_W32(bti) \
    ((2u << 25) | (1u << 19) | (8u << 14) | (2u << 8) | (bti))
#define DESC_OW_W64(bti) \
    ((3u << 25) | (1u << 19) | (8u << 14) | (3u << 8) | (bti))
#define DESC_OW_R64(bti) \
    ((1u << 25) | (2u << 20) | (1u << 19) | (3u << 8) | (bti))
/* Scratch block write of one register at HWord 0, header m0. */
#define DESC_SCRATCH_W          ((2u << 25) | (1u << 19) | (3u << 17))
/* The gateway's BarrierMsg (Mesa brw_barrier). */
#define DESC_BARRIER            ((1u << 25) | 4u)
#define DESC_EOT                0x02000010u
#define BTI_SLM                 254
#define BTI_STATELESS           255

typedef struct Kern {
    EuNative i[32];
    size_t n;
} Kern;

static void add(Kern *k, EuNative in)
{
    g_assert_cmpuint(k->n, <, G_N_ELEMENTS(k->i));
    k->i[k->n++] = in;
}

static void mov8(Kern *k, unsigned dst, unsigned src)
{
    add(k, asm_1(EU_OP_MOV, 8, D(dst, 0, EU_TYPE_UD), R(src)));
}

static void send(Kern *k, unsigned dst, unsigned src, unsigned sfid,
                 uint32_t desc)
{
    add(k, asm_send(8, dst, src, sfid, desc, false));
}

static void end(Kern *k)
{
    mov8(k, 127, 0);
    add(k, asm_send(8, 0, 127, EU_SFID_THREAD_SPAWNER, DESC_EOT, true));
}

/* m0 (r112) a header at OWord r1.0 (the CURBE's first dword). */
static void header_out(Kern *k)
{
    mov8(k, 112, 0);
    add(k, asm_1(EU_OP_MOV, 1, D(112, 8, EU_TYPE_UD), UD(1, 0)));
}

static void store_kernel(Kern *k)
{
    header_out(k);
    mov8(k, 113, 1);
    send(k, 0, 112, EU_SFID_DP_DATA, DESC_OW_W32(BTI_STATELESS));
    end(k);
}

static void slm_kernel(Kern *k)
{
    mov8(k, 112, 0);
    add(k, asm_1(EU_OP_MOV, 1, D(112, 8, EU_TYPE_UD), IMM(EU_TYPE_UD, 62)));
    mov8(k, 113, 1);
    mov8(k, 114, 1);
    send(k, 0, 112, EU_SFID_DP_DATA, DESC_OW_W64(BTI_SLM));
    send(k, 120, 112, EU_SFID_DP_DATA, DESC_OW_R64(BTI_SLM));
    add(k, asm_1(EU_OP_MOV, 1, D(112, 8, EU_TYPE_UD),
                 IMM(EU_TYPE_UD, 0x0fffffff)));
    send(k, 0, 112, EU_SFID_DP_DATA, DESC_OW_W64(BTI_SLM));
    add(k, asm_1(EU_OP_MOV, 1, D(112, 8, EU_TYPE_UD), UD(1, 0)));
    mov8(k, 113, 120);
    mov8(k, 114, 121);
    send(k, 0, 112, EU_SFID_DP_DATA, DESC_OW_W64(BTI_STATELESS));
    end(k);
}

static void scratch_kernel(Kern *k)
{
    mov8(k, 112, 0);
    add(k, asm_1(EU_OP_MOV, 1, D(112, 20, EU_TYPE_UD), IMM(EU_TYPE_UD, 0)));
    add(k, asm_op(EU_OP_SHL, 1, D(115, 0, EU_TYPE_UD), UD(0, 1),
                  IMM(EU_TYPE_UD, 2)));
    add(k, asm_op(EU_OP_ADD, 1, D(112, 8, EU_TYPE_UD), UD(1, 0),
                  UD(115, 0)));
    mov8(k, 113, 1);
    send(k, 0, 112, EU_SFID_DP_DATA, DESC_OW_W32(BTI_STATELESS));
    mov8(k, 60, 0);
    mov8(k, 61, 1);
    send(k, 0, 60, EU_SFID_DP_DATA, DESC_SCRATCH_W);
    add(k, asm_op(EU_OP_ADD, 1, D(112, 8, EU_TYPE_UD), UD(112, 2),
                  IMM(EU_TYPE_UD, 2)));
    send(k, 0, 112, EU_SFID_DP_DATA, DESC_OW_W32(BTI_STATELESS));
    end(k);
}

/* test-intel-gpgpu.c's skip_kernel: FFTID 3 ends before the barrier. */
static void barrier_skip_kernel(Kern *k)
{
    add(k, asm_op(EU_OP_AND, 1, D(20, 0, EU_TYPE_UD), UD(0, 5),
                  IMM(EU_TYPE_UD, 0x3ff)));
    add(k, asm_cond(asm_op(EU_OP_CMP, 1, NUL, UD(20, 0),
                           IMM(EU_TYPE_UD, 3)), EU_COND_Z, 0));
    mov8(k, 127, 0);
    add(k, asm_pred(asm_send(8, 0, 127, EU_SFID_THREAD_SPAWNER, DESC_EOT,
                             true), EU_PRED_NORMAL, false, 0));
    add(k, asm_1(EU_OP_MOV, 8, D(100, 0, EU_TYPE_UD), IMM(EU_TYPE_UD, 0)));
    add(k, asm_op(EU_OP_AND, 1, D(100, 8, EU_TYPE_UD), UD(0, 2),
                  IMM(EU_TYPE_UD, 0x7f000000)));
    send(k, 101, 100, EU_SFID_GATEWAY, DESC_BARRIER);
    add(k, asm_1(EU_OP_WAIT, 1, N0, N0));
    end(k);
}

/* Counts r3 up for ever: never ends. */
static void endless_kernel(Kern *k)
{
    add(k, asm_op(EU_OP_ADD, 1, D(3, 0, EU_TYPE_UD), UD(3, 0),
                  IMM(EU_TYPE_UD, 1)));
    add(k, asm_flow(EU_OP_WHILE, 1, -16, 0));
}

static void check(const char *name, void (*build)(Kern *),
                  const uint32_t *want, size_t want_dw)
{
    Kern k = { .n = 0 };
    uint8_t bytes[sizeof(k.i)];
    uint32_t dw[G_N_ELEMENTS(k.i) * 4];

    build(&k);
    asm_emit(bytes, k.i, k.n);
    for (size_t i = 0; i < k.n * 4; i++) {
        uint32_t le;

        memcpy(&le, bytes + 4 * i, 4);
        dw[i] = GUINT32_FROM_LE(le);
    }
    if (g_getenv("HOSTILE_KERNELS_PRINT")) {
        printf("%s:\n", name);
        for (size_t i = 0; i < k.n; i++) {
            printf("    0x%08x, 0x%08x, 0x%08x, 0x%08x,\n", dw[4 * i],
                   dw[4 * i + 1], dw[4 * i + 2], dw[4 * i + 3]);
        }
        return;
    }
    g_assert_cmpuint(want_dw, ==, k.n * 4);
    for (size_t i = 0; i < want_dw; i++) {
        g_assert_cmphex(want[i], ==, dw[i]);
    }
}

#define CHECK(name, build) \
    check(#name, build, name, G_N_ELEMENTS(name))

static void test_kernels(void)
{
    CHECK(hostile_endless_kernel, endless_kernel);
    CHECK(hostile_store_kernel, store_kernel);
    CHECK(hostile_slm_kernel, slm_kernel);
    CHECK(hostile_scratch_kernel, scratch_kernel);
    CHECK(hostile_barrier_skip_kernel, barrier_skip_kernel);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/intel-gpgpu/hostile-kernels", test_kernels);
    return g_test_run();
}
