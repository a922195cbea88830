/*
 * The GPGPU path compute runtimes use (hw/gpumodel/intel/gfx/media.c):
 * GPGPU_WALKER's indirect data as each thread's payload (Intel's compute
 * runtime, NEO: the cross-thread data, then each thread's local IDs);
 * shared local memory per thread group (binding table index 254).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"
#include "eu-asm.h"
#include "intel/gfx/gfx-int.h"
#include "intel/cs/cs-int.h"

/* The kernel, the interface descriptor and the CURBE: in the batch. */
#define KERNEL_OFF      0x800u
#define IDD_OFF         0xc00u
#define CURBE_OFF       0xd00u
/* The indirect object base, and the walker's data from it. */
#define INDIRECT        (BATCH + 0x2000u)
#define INDIRECT_OFF    0x40u
/* Where the kernels write (stateless: the general state base is 0). */
#define OUT             DATA

/*
 * A batch: STATE_BASE_ADDRESS (general 0, indirect object INDIRECT, the
 * others the batch), MEDIA_VFE_STATE, a CURBE of 0xbad.. dwords (what a
 * thread must not get when the walker has indirect data), one interface
 * descriptor for the kernel @k, then the walker @w.
 */
/* A SIMD8 walker of @x thread groups in a row, every channel enabled. */
static Gen11_GPGPU_WALKER walker_simd8_groups(unsigned x)
{
    return (Gen11_GPGPU_WALKER) {
        .thread_group_id_x_dimension = x,
        .thread_group_id_y_dimension = 1,
        .thread_group_id_z_dimension = 1,
        .right_execution_mask = 0xff,
        .bottom_execution_mask = 0xff,
    };
}

static void gpgpu_batch(Fixture *f, const EuNative *k, size_t n,
                        Gen11_INTERFACE_DESCRIPTOR_DATA idd,
                        const Gen11_GPGPU_WALKER *w)
{
    Gen11_STATE_BASE_ADDRESS sba = {
        .general_state_base_address_modify_enable = true,
        .surface_state_base_address_modify_enable = true,
        .surface_state_base_address = BATCH,
        .dynamic_state_base_address_modify_enable = true,
        .dynamic_state_base_address = BATCH,
        .indirect_object_base_address_modify_enable = true,
        .indirect_object_base_address = INDIRECT,
        .instruction_base_address_modify_enable = true,
        .instruction_base_address = BATCH,
    };
    Buf b = buf_at(f, BATCH);
    uint32_t dw[GEN11_STATE_BASE_ADDRESS_LENGTH];

    asm_emit(f->fh->ram + BATCH + KERNEL_OFF, k, n);
    idd.kernel_start_pointer = KERNEL_OFF;
    gen11_interface_descriptor_data_pack(dw, &idd);
    memcpy(f->fh->ram + BATCH + IDD_OFF, dw, 32);
    for (unsigned i = 0; i < 64; i++) {
        ram_w32(f, BATCH + CURBE_OFF + 4 * i, 0xbad00000 + i);
    }
    gen11_state_base_address_pack(dw, &sba);
    emit_n(&b, dw, GEN11_STATE_BASE_ADDRESS_LENGTH);
    gen11_media_vfe_state_pack(dw, &(Gen11_MEDIA_VFE_STATE) {
        .maximum_number_of_threads = 63, .number_of_urb_entries = 1,
        .curbe_allocation_size = 8,
    });
    emit_n(&b, dw, GEN11_MEDIA_VFE_STATE_LENGTH);
    gen11_media_curbe_load_pack(dw, &(Gen11_MEDIA_CURBE_LOAD) {
        .curbe_total_data_length = 256,
        .curbe_data_start_address = CURBE_OFF,
    });
    emit_n(&b, dw, GEN11_MEDIA_CURBE_LOAD_LENGTH);
    gen11_media_interface_descriptor_load_pack(dw,
        &(Gen11_MEDIA_INTERFACE_DESCRIPTOR_LOAD) {
            .interface_descriptor_total_length = 32,
            .interface_descriptor_data_start_address = IDD_OFF,
        });
    emit_n(&b, dw, GEN11_MEDIA_INTERFACE_DESCRIPTOR_LOAD_LENGTH);
    gen11_gpgpu_walker_pack(dw, w);
    emit_n(&b, dw, GEN11_GPGPU_WALKER_LENGTH);
    EMIT(&b, MI_BATCH_BUFFER_END);
}

/* Run the batch from the legacy ring until the engine is idle. */
static void run_batch(Fixture *f, unsigned max_steps)
{
    Buf ring = buf_at(f, RING_RCS);
    unsigned n = 1;

    bb_start(&ring, BATCH, 0);
    qword_align(&ring);
    ring_start(f, RCS, RING_RCS, ring.pos);
    step(f);
    while (n < max_steps && !engine_idle(f, RCS)) {
        step(f);
        n++;
    }
    g_assert_true(engine_idle(f, RCS));
}

static uint32_t grf_ud(const EuThread *t, unsigned reg, unsigned i)
{
    uint32_t v;

    memcpy(&v, t->grf + reg * EU_GRF_BYTES + 4 * i, 4);
    return GUINT32_FROM_LE(v);
}

/* The end of a thread: r0 to the thread spawner with EOT. */
#define EU_END \
    asm_1(EU_OP_MOV, 8, D(127, 0, EU_TYPE_UD), G(0, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_send(8, 0, 127, EU_SFID_THREAD_SPAWNER, 0x02000010, true)

/*
 * A stateless OWord block write of 64 bytes (4 OWords: control 3) of
 * m1-m2 at the OWord offset in m0.2 (PRM Vol 7, "OWord Block Write";
 * Mesa brw_dp_oword_block_rw_desc): header, message length 3.
 */
#define DESC_OWORD_WRITE_64 \
    ((3u << 25) | (1u << 19) | (8u << 14) | (3u << 8) | 255u)

/*
 * Indirect data as NEO lays it out: one register of cross-thread data,
 * then one register per thread (its dword 0 an OWord offset, as a
 * kernel's local IDs would be); each thread writes its R1 and R2 at
 * OUT + its offset + 256 bytes per group X.
 */
#define PAYLOAD_KERNEL { \
    asm_1(EU_OP_MOV, 8, D(112, 0, EU_TYPE_UD), G(0, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_op(EU_OP_SHL, 1, D(115, 0, EU_TYPE_UD), G(0, 4, EU_TYPE_UD, R_0_1_0), \
           IMM(EU_TYPE_UD, 4)), \
    asm_op(EU_OP_ADD, 1, D(115, 0, EU_TYPE_UD), \
           G(115, 0, EU_TYPE_UD, R_0_1_0), G(2, 0, EU_TYPE_UD, R_0_1_0)), \
    asm_op(EU_OP_ADD, 1, D(112, 8, EU_TYPE_UD), \
           G(115, 0, EU_TYPE_UD, R_0_1_0), IMM(EU_TYPE_UD, OUT / 16)), \
    asm_1(EU_OP_MOV, 8, D(113, 0, EU_TYPE_UD), G(1, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_1(EU_OP_MOV, 8, D(114, 0, EU_TYPE_UD), G(2, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_send(8, 0, 112, EU_SFID_DP_DATA, DESC_OWORD_WRITE_64, false), \
    EU_END, \
}

/* Indirect data: cross-thread 0xc000 + i, thread t's 4t then 0xd000.. */
static uint32_t put_indirect(Fixture *f, unsigned threads)
{
    for (unsigned i = 0; i < 8; i++) {
        ram_w32(f, INDIRECT + INDIRECT_OFF + 4 * i, 0xc000 + i);
    }
    for (unsigned t = 0; t < threads; t++) {
        uint32_t at = INDIRECT + INDIRECT_OFF + 32 + 32 * t;

        ram_w32(f, at, 4 * t);
        for (unsigned i = 1; i < 8; i++) {
            ram_w32(f, at + 4 * i, 0xd000 + 8 * t + i);
        }
    }
    return 32 + 32 * threads;
}

/*
 * Two groups of three SIMD8 threads, the payload from the indirect data:
 * each thread has R1 the cross-thread data and R2 its own, the same in
 * both groups; the CURBE loaded is not used.
 */
static void test_indirect_payload(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    const EuNative k[] = PAYLOAD_KERNEL;
    Gen11_GPGPU_WALKER w = walker_simd8_groups(2);

    w.indirect_data_length = put_indirect(f, 3);
    w.indirect_data_start_address = INDIRECT_OFF;
    w.thread_width_counter_maximum = 2;
    memset(f->fh->ram + OUT, 0xee, 1024);
    gpgpu_batch(f, k, G_N_ELEMENTS(k),
                (Gen11_INTERFACE_DESCRIPTOR_DATA) {
                    .cross_thread_constant_data_read_length = 1,
                    .constant_urb_entry_read_length = 1,
                    .number_of_threads_in_gpgpu_thread_group = 3,
                }, &w);
    run_batch(f, 10);
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, 6);
    for (unsigned g = 0; g < 2; g++) {
        for (unsigned t = 0; t < 3; t++) {
            uint32_t at = OUT + 256 * g + 64 * t;

            for (unsigned i = 0; i < 8; i++) {
                g_assert_cmphex(ram_r32(f, at + 4 * i), ==, 0xc000 + i);
                g_assert_cmphex(ram_r32(f, at + 32 + 4 * i), ==,
                                i ? 0xd000 + 8 * t + i : 4 * t);
            }
        }
        g_assert_cmphex(ram_r32(f, OUT + 256 * g + 192), ==, 0xeeeeeeee);
    }
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);
    g_assert_cmpuint(f->fh->unimps, ==, 0);
}

/*
 * Indirect data shorter than the payloads the descriptor asks for: the
 * hardware fetched no more, the rest of the payload is zero (logged);
 * nothing is read past the length.
 */
static void test_indirect_short(Fixture *f, gconstpointer data)
{
    IntelMediaDispatch *d = &eng(f, RCS)->gfx.media.run;
    const EuNative k[] = { EU_END };
    Gen11_GPGPU_WALKER w = walker_simd8_groups(1);

    w.indirect_data_start_address = INDIRECT_OFF;
    w.thread_width_counter_maximum = 1;
    /* The cross-thread register and thread 0's: not thread 1's. */
    put_indirect(f, 2);
    w.indirect_data_length = 64 + 8;
    gpgpu_batch(f, k, G_N_ELEMENTS(k), (Gen11_INTERFACE_DESCRIPTOR_DATA) {
                    .cross_thread_constant_data_read_length = 1,
                    .constant_urb_entry_read_length = 1,
                    .number_of_threads_in_gpgpu_thread_group = 2,
                }, &w);
    run_batch(f, 10);
    /* Thread 1's registers (the last thread's, kept). */
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmphex(grf_ud(&d->thread, 1, i), ==, 0xc000 + i);
        g_assert_cmphex(grf_ud(&d->thread, 2, i), ==,
                        i < 2 ? (i ? 0xd009 : 4) : 0);
    }
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
}

/* OWord block read of 64 bytes (2 registers) at the OWord offset m0.2. */
#define DESC_OWORD_READ_64(bti) \
    ((1u << 25) | (2u << 20) | (1u << 19) | (0u << 14) | (3u << 8) | (bti))
#define DESC_OWORD_WRITE_64_BTI(bti) \
    ((3u << 25) | (1u << 19) | (8u << 14) | (3u << 8) | (bti))
#define BTI_SLM 254

/*
 * Per group: read 64 bytes of shared local memory at OWord @at (r120),
 * write R1-R2 there, read them back (r122); then write both reads
 * stateless at OUT + 256 bytes per group X.
 */
#define SLM_KERNEL(at) { \
    asm_1(EU_OP_MOV, 8, D(112, 0, EU_TYPE_UD), G(0, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_1(EU_OP_MOV, 1, D(112, 8, EU_TYPE_UD), IMM(EU_TYPE_UD, (at))), \
    asm_send(8, 120, 112, EU_SFID_DP_DATA, DESC_OWORD_READ_64(BTI_SLM), \
             false), \
    asm_1(EU_OP_MOV, 8, D(113, 0, EU_TYPE_UD), G(1, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_1(EU_OP_MOV, 8, D(114, 0, EU_TYPE_UD), G(2, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_send(8, 0, 112, EU_SFID_DP_DATA, DESC_OWORD_WRITE_64_BTI(BTI_SLM), \
             false), \
    asm_send(8, 122, 112, EU_SFID_DP_DATA, DESC_OWORD_READ_64(BTI_SLM), \
             false), \
    asm_op(EU_OP_SHL, 1, D(115, 0, EU_TYPE_UD), G(0, 4, EU_TYPE_UD, R_0_1_0), \
           IMM(EU_TYPE_UD, 4)), \
    asm_op(EU_OP_ADD, 1, D(112, 8, EU_TYPE_UD), \
           G(115, 0, EU_TYPE_UD, R_0_1_0), IMM(EU_TYPE_UD, OUT / 16)), \
    asm_1(EU_OP_MOV, 8, D(113, 0, EU_TYPE_UD), \
          G(120, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_1(EU_OP_MOV, 8, D(114, 0, EU_TYPE_UD), \
          G(121, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_send(8, 0, 112, EU_SFID_DP_DATA, DESC_OWORD_WRITE_64, false), \
    asm_op(EU_OP_ADD, 1, D(112, 8, EU_TYPE_UD), \
           G(112, 8, EU_TYPE_UD, R_0_1_0), IMM(EU_TYPE_UD, 4)), \
    asm_1(EU_OP_MOV, 8, D(113, 0, EU_TYPE_UD), \
          G(122, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_1(EU_OP_MOV, 8, D(114, 0, EU_TYPE_UD), \
          G(123, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_send(8, 0, 112, EU_SFID_DP_DATA, DESC_OWORD_WRITE_64, false), \
    EU_END, \
}

static void slm_run(Fixture *f, const EuNative *k, size_t n, unsigned enc)
{
    Gen11_GPGPU_WALKER w = walker_simd8_groups(2);

    memset(f->fh->ram + OUT, 0xee, 1024);
    gpgpu_batch(f, k, n, (Gen11_INTERFACE_DESCRIPTOR_DATA) {
                    .constant_urb_entry_read_length = 2,
                    .number_of_threads_in_gpgpu_thread_group = 1,
                    .shared_local_memory_size = enc,
                }, &w);
    run_batch(f, 10);
}

/*
 * Two groups with 1 KiB of shared local memory (encoding 1): each finds
 * it zero (the model's choice for the hardware's undefined contents: the
 * group before it wrote there), and reads back what it wrote.
 */
static void test_slm(Fixture *f, gconstpointer data)
{
    const EuNative k[] = SLM_KERNEL(60);

    slm_run(f, k, G_N_ELEMENTS(k), 1);
    for (unsigned g = 0; g < 2; g++) {
        for (unsigned i = 0; i < 16; i++) {
            g_assert_cmphex(ram_r32(f, OUT + 256 * g + 4 * i), ==, 0);
            g_assert_cmphex(ram_r32(f, OUT + 256 * g + 64 + 4 * i), ==,
                            0xbad00000 + i);
        }
    }
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);
    g_assert_cmpuint(f->fh->unimps, ==, 0);
}

/*
 * Past the group's allocation: at OWord 62 of 1 KiB the first 32 bytes
 * are inside and the rest reads zero, its write dropped (logged); with
 * no shared local memory (encoding 0) or a reserved encoding nothing is.
 */
static void test_slm_bounds(Fixture *f, gconstpointer data)
{
    const EuNative k[] = SLM_KERNEL(62);

    slm_run(f, k, G_N_ELEMENTS(k), 1);
    for (unsigned i = 0; i < 16; i++) {
        g_assert_cmphex(ram_r32(f, OUT + 64 + 4 * i), ==,
                        i < 8 ? 0xbad00000 + i : 0);
    }
    /* Logged once in the step, not for each channel or message. */
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    for (unsigned enc = 0; enc < 32; enc += 8) {
        fixture_teardown(f, NULL);
        fixture_setup_ggtt(f, NULL);
        slm_run(f, k, G_N_ELEMENTS(k), enc);
        for (unsigned i = 0; i < 16; i++) {
            g_assert_cmphex(ram_r32(f, OUT + 64 + 4 * i), ==, 0);
        }
        g_assert_cmpuint(f->fh->guest_errors, ==, enc ? 2 : 1);
    }
}

static const FixtureTest tests[] = {
    { "/intel-gpgpu/indirect-payload", test_indirect_payload },
    { "/intel-gpgpu/indirect-short", test_indirect_short },
    { "/intel-gpgpu/slm", test_slm },
    { "/intel-gpgpu/slm-bounds", test_slm_bounds },
};

FIXTURE_MAIN(fixture_setup_ggtt)
