/*
 * The GPGPU path compute runtimes use (hw/gpumodel/intel/gfx/media.c):
 * GPGPU_WALKER's indirect data as each thread's payload (Intel's compute
 * runtime, NEO: the cross-thread data, then each thread's local IDs);
 * shared local memory per thread group (binding table index 254); the
 * threads of a group with barriers run together and meet at the message
 * gateway's barrier; each thread's scratch slot (R0.5).
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

static void gpgpu_batch_vfe(Fixture *f, const EuNative *k, size_t n,
                            Gen11_INTERFACE_DESCRIPTOR_DATA idd,
                            const Gen11_GPGPU_WALKER *w,
                            Gen11_MEDIA_VFE_STATE vfe)
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
    vfe.maximum_number_of_threads = 63;
    vfe.number_of_urb_entries = 1;
    vfe.curbe_allocation_size = 8;
    gen11_media_vfe_state_pack(dw, &vfe);
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

static void gpgpu_batch(Fixture *f, const EuNative *k, size_t n,
                        Gen11_INTERFACE_DESCRIPTOR_DATA idd,
                        const Gen11_GPGPU_WALKER *w)
{
    gpgpu_batch_vfe(f, k, n, idd, w, (Gen11_MEDIA_VFE_STATE) { 0 });
}

/* Start the batch from the legacy ring. */
static void start_batch(Fixture *f)
{
    Buf ring = buf_at(f, RING_RCS);

    bb_start(&ring, BATCH, 0);
    qword_align(&ring);
    ring_start(f, RCS, RING_RCS, ring.pos);
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

/* The end of a thread: r0 (in r127) to the thread spawner with EOT. */
#define EU_EOT_R127 \
    asm_send(8, 0, 127, EU_SFID_THREAD_SPAWNER, 0x02000010, true)
#define EU_MOV_R127_R0 \
    asm_1(EU_OP_MOV, 8, D(127, 0, EU_TYPE_UD), G(0, 0, EU_TYPE_UD, R_8_8_1))

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
 * kernel's local IDs would be).  A thread gets its own register in R1,
 * the cross-thread one in R2, and writes both at OUT + its offset + 256
 * bytes per group X.
 */
#define PAYLOAD_KERNEL { \
    asm_1(EU_OP_MOV, 8, D(112, 0, EU_TYPE_UD), G(0, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_op(EU_OP_SHL, 1, D(115, 0, EU_TYPE_UD), G(0, 4, EU_TYPE_UD, R_0_1_0), \
           IMM(EU_TYPE_UD, 4)), \
    asm_op(EU_OP_ADD, 1, D(115, 0, EU_TYPE_UD), \
           G(115, 0, EU_TYPE_UD, R_0_1_0), G(1, 0, EU_TYPE_UD, R_0_1_0)), \
    asm_op(EU_OP_ADD, 1, D(112, 8, EU_TYPE_UD), \
           G(115, 0, EU_TYPE_UD, R_0_1_0), IMM(EU_TYPE_UD, OUT / 16)), \
    asm_1(EU_OP_MOV, 8, D(113, 0, EU_TYPE_UD), G(1, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_1(EU_OP_MOV, 8, D(114, 0, EU_TYPE_UD), G(2, 0, EU_TYPE_UD, R_8_8_1)), \
    asm_send(8, 0, 112, EU_SFID_DP_DATA, DESC_OWORD_WRITE_64, false), \
    EU_MOV_R127_R0, \
    EU_EOT_R127, \
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
 * A batch of @groups groups of three SIMD8 threads running kernel @k, the
 * payload from the indirect data (put_indirect()); OUT filled with 0xee.
 */
static void payload_batch(Fixture *f, const EuNative *k, size_t n,
                          unsigned groups)
{
    Gen11_GPGPU_WALKER w = walker_simd8_groups(groups);

    w.indirect_data_length = put_indirect(f, 3);
    w.indirect_data_start_address = INDIRECT_OFF;
    w.thread_width_counter_maximum = 2;
    memset(f->fh->ram + OUT, 0xee, 1024);
    gpgpu_batch(f, k, n,
                (Gen11_INTERFACE_DESCRIPTOR_DATA) {
                    .cross_thread_constant_data_read_length = 1,
                    .constant_urb_entry_read_length = 1,
                    .number_of_threads_in_gpgpu_thread_group = 3,
                }, &w);
}

/*
 * Two groups of three SIMD8 threads, the payload from the indirect data:
 * each thread has R1 its own data and R2 the cross-thread data, the same
 * in both groups (the order IGC's kernels read); the CURBE loaded is not
 * used.
 */
static void test_indirect_payload(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    const EuNative k[] = PAYLOAD_KERNEL;

    payload_batch(f, k, G_N_ELEMENTS(k), 2);
    run_batch(f, 10);
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, 6);
    for (unsigned g = 0; g < 2; g++) {
        for (unsigned t = 0; t < 3; t++) {
            uint32_t at = OUT + 256 * g + 64 * t;

            for (unsigned i = 0; i < 8; i++) {
                g_assert_cmphex(ram_r32(f, at + 4 * i), ==,
                                i ? 0xd000 + 8 * t + i : 4 * t);
                g_assert_cmphex(ram_r32(f, at + 32 + 4 * i), ==, 0xc000 + i);
            }
        }
        g_assert_cmphex(ram_r32(f, OUT + 256 * g + 192), ==, 0xeeeeeeee);
    }
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);
    g_assert_cmpuint(f->fh->unimps, ==, 0);
}

/*
 * A kernel longer than 64 KiB (IGC's float8 cos is about 74 KiB): a jump
 * from its start to code 72 KiB on, which runs.
 */
#define LONG_KERNEL_TAIL 0x12000u

static void test_long_kernel(Fixture *f, gconstpointer data)
{
    const EuNative head[] = {
        asm_op(EU_OP_JMPI, 1, NUL, NUL,
               IMM(EU_TYPE_D, LONG_KERNEL_TAIL - 16)),
    };
    const EuNative tail[] = PAYLOAD_KERNEL;

    asm_emit(f->fh->ram + BATCH + KERNEL_OFF + LONG_KERNEL_TAIL, tail,
             G_N_ELEMENTS(tail));
    payload_batch(f, head, G_N_ELEMENTS(head), 1);
    run_batch(f, 10);
    g_assert_cmphex(ram_r32(f, OUT + 64 * 2 + 32), ==, 0xc000);
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);
}

/*
 * With the host tracing intel_gpu_eu_inst, each instruction each thread
 * runs is an event: its IP, active channels and disassembly; the last a
 * thread's EOT send.  Without, none.
 */
static void test_eu_inst_trace(Fixture *f, gconstpointer data)
{
    const EuNative k[] = PAYLOAD_KERNEL;
    const char *last;

    payload_batch(f, k, G_N_ELEMENTS(k), 1);
    run_batch(f, 10);
    g_assert_cmpuint(f->fh->traces[INTEL_TRACE_EU_INST], ==, 0);

    f->fh->trace_wanted = 1u << INTEL_TRACE_EU_INST;
    payload_batch(f, k, G_N_ELEMENTS(k), 1);
    run_batch(f, 10);
    g_assert_cmpuint(f->fh->traces[INTEL_TRACE_EU_INST], ==,
                     3 * G_N_ELEMENTS(k));
    last = f->fh->last_trace_text[INTEL_TRACE_EU_INST];
    g_assert_nonnull(last);
    g_assert_nonnull(strstr(last, "send"));
    g_assert_nonnull(strstr(last, "EOT"));
    g_assert_cmphex(f->fh->last_trace[INTEL_TRACE_EU_INST][0], ==,
                    16 * (G_N_ELEMENTS(k) - 1));
    g_assert_cmphex(f->fh->last_trace[INTEL_TRACE_EU_INST][1], ==, 0xff);
}

/*
 * Indirect data shorter than the payloads the descriptor asks for: the
 * hardware fetched no more, the rest of the payload is zero (logged);
 * nothing is read past the length.
 */
static void test_indirect_short(Fixture *f, gconstpointer data)
{
    IntelMediaDispatch *d = &eng(f, RCS)->gfx.media.run;
    const EuNative k[] = { EU_MOV_R127_R0, EU_EOT_R127 };
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
        g_assert_cmphex(grf_ud(&d->thread, 1, i), ==,
                        i < 2 ? (i ? 0xd009 : 4) : 0);
        g_assert_cmphex(grf_ud(&d->thread, 2, i), ==, 0xc000 + i);
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
    EU_MOV_R127_R0, \
    EU_EOT_R127, \
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
 * Two groups with 1 KiB of shared local memory (encoding 1), the kernel
 * @k of SLM_KERNEL(60): each finds it zero (the model's choice for the
 * hardware's undefined contents: the group before it wrote there), and
 * reads back what it wrote.
 */
static void slm_check(Fixture *f, const EuNative *k, size_t n)
{
    slm_run(f, k, n, 1);
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

static void test_slm(Fixture *f, gconstpointer data)
{
    const EuNative k[] = SLM_KERNEL(60);

    slm_check(f, k, G_N_ELEMENTS(k));
}

/*
 * The offset's bits above 15 do not address shared local memory: IGC
 * tags every local address with bit 28.
 */
static void test_slm_high_bits(Fixture *f, gconstpointer data)
{
    const EuNative k[] = SLM_KERNEL((0x10000000 >> 4) + 60);

    slm_check(f, k, G_N_ELEMENTS(k));
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

/* ---- barriers: the threads of a group meet at the message gateway ---- */

/* A 32-byte OWord block write of m1 and a 128-byte read (8 OWords). */
#define DESC_OW_W32(bti) \
    ((2u << 25) | (1u << 19) | (8u << 14) | (2u << 8) | (bti))
#define DESC_OW_R128(bti) \
    ((1u << 25) | (4u << 20) | (1u << 19) | (4u << 8) | (bti))
#define DESC_OW_R32(bti) \
    ((1u << 25) | (1u << 20) | (1u << 19) | (2u << 8) | (bti))
/* The gateway's BarrierMsg: one register, no response (Mesa brw_barrier). */
#define DESC_BARRIER            ((1u << 25) | 4u)

#define UD(nr, sub)             G(nr, 4 * (sub), EU_TYPE_UD, R_0_1_0)
#define N0 \
    ((AOp){ .file = EU_FILE_ARF, .type = EU_TYPE_UD, .nr = EU_ARF_NOTIFY })

/* A kernel built an instruction at a time. */
typedef struct Kern {
    EuNative i[96];
    size_t n;
} Kern;

static void k_add(Kern *k, EuNative in)
{
    g_assert_cmpuint(k->n, <, G_N_ELEMENTS(k->i));
    k->i[k->n++] = in;
}

/* The end of the thread. */
static void k_end(Kern *k)
{
    k_add(k, EU_MOV_R127_R0);
    k_add(k, EU_EOT_R127);
}

/*
 * Mesa's emit_barrier() on Gen11: a zeroed payload with R0.2's barrier ID
 * (& 0x7f000000) in its dword 2, the gateway's BarrierMsg, wait n0.0.
 */
static void k_barrier(Kern *k)
{
    k_add(k, asm_1(EU_OP_MOV, 8, D(100, 0, EU_TYPE_UD), IMM(EU_TYPE_UD, 0)));
    k_add(k, asm_op(EU_OP_AND, 1, D(100, 8, EU_TYPE_UD), UD(0, 2),
                    IMM(EU_TYPE_UD, 0x7f000000)));
    k_add(k, asm_send(8, 101, 100, EU_SFID_GATEWAY, DESC_BARRIER, false));
    k_add(k, asm_1(EU_OP_WAIT, 1, N0, N0));
}

/* r20.0: the thread's FFTID (its place in the group, R0.5 bits 9:0). */
static void k_tid(Kern *k)
{
    k_add(k, asm_op(EU_OP_AND, 1, D(20, 0, EU_TYPE_UD), UD(0, 5),
                    IMM(EU_TYPE_UD, 0x3ff)));
}

/*
 * Write r@reg's 8 dwords at OUT + 256 x group X + 32 x thread: the
 * header's M0.5 zero, for a stateless message adds it (the scratch slot
 * R0.5 holds) to the general state base.
 */
static void k_put_out(Kern *k, unsigned reg)
{
    k_add(k, asm_1(EU_OP_MOV, 8, D(112, 0, EU_TYPE_UD),
                   G(0, 0, EU_TYPE_UD, R_8_8_1)));
    k_add(k, asm_1(EU_OP_MOV, 1, D(112, 20, EU_TYPE_UD), IMM(EU_TYPE_UD, 0)));
    k_add(k, asm_op(EU_OP_SHL, 1, D(112, 8, EU_TYPE_UD), UD(0, 1),
                    IMM(EU_TYPE_UD, 4)));
    k_add(k, asm_op(EU_OP_ADD, 1, D(112, 8, EU_TYPE_UD), UD(112, 2),
                    IMM(EU_TYPE_UD, OUT / 16)));
    k_add(k, asm_op(EU_OP_SHL, 1, D(21, 0, EU_TYPE_UD), UD(20, 0),
                    IMM(EU_TYPE_UD, 1)));
    k_add(k, asm_op(EU_OP_ADD, 1, D(112, 8, EU_TYPE_UD), UD(112, 2),
                    UD(21, 0)));
    k_add(k, asm_1(EU_OP_MOV, 8, D(113, 0, EU_TYPE_UD),
                   G(reg, 0, EU_TYPE_UD, R_8_8_1)));
    k_add(k, asm_send(8, 0, 112, EU_SFID_DP_DATA, DESC_OW_W32(255), false));
}

/* Write r@reg.@sub broadcast to the thread's 32 bytes of SLM (OWord 2 x
 * its FFTID). */
static void k_slm_put(Kern *k, unsigned reg, unsigned sub)
{
    k_add(k, asm_1(EU_OP_MOV, 8, D(112, 0, EU_TYPE_UD),
                   G(0, 0, EU_TYPE_UD, R_8_8_1)));
    k_add(k, asm_op(EU_OP_SHL, 1, D(112, 8, EU_TYPE_UD), UD(20, 0),
                    IMM(EU_TYPE_UD, 1)));
    k_add(k, asm_1(EU_OP_MOV, 8, D(113, 0, EU_TYPE_UD), UD(reg, sub)));
    k_add(k, asm_send(8, 0, 112, EU_SFID_DP_DATA, DESC_OW_W32(BTI_SLM),
                      false));
}

/* r30.@i: the sum of the four threads' SLM dwords 0 (128 bytes). */
static void k_slm_sum(Kern *k, unsigned i)
{
    k_add(k, asm_1(EU_OP_MOV, 1, D(112, 8, EU_TYPE_UD), IMM(EU_TYPE_UD, 0)));
    k_add(k, asm_send(8, 120, 112, EU_SFID_DP_DATA, DESC_OW_R128(BTI_SLM),
                      false));
    k_add(k, asm_op(EU_OP_ADD, 1, D(30, 4 * i, EU_TYPE_UD), UD(120, 0),
                    UD(121, 0)));
    k_add(k, asm_op(EU_OP_ADD, 1, D(30, 4 * i, EU_TYPE_UD), UD(30, i),
                    UD(122, 0)));
    k_add(k, asm_op(EU_OP_ADD, 1, D(30, 4 * i, EU_TYPE_UD), UD(30, i),
                    UD(123, 0)));
}

/*
 * A reduction over a group of four threads: each puts its value v (16 x
 * group X + its FFTID + 1) in shared local memory, meets the others,
 * sums the four; meets them again before it puts 2v in the same place,
 * and once more before it sums again.  Each thread writes both sums.
 */
static void reduce_kernel(Kern *k)
{
    k_tid(k);
    k_add(k, asm_op(EU_OP_SHL, 1, D(20, 4, EU_TYPE_UD), UD(0, 1),
                    IMM(EU_TYPE_UD, 4)));
    k_add(k, asm_op(EU_OP_ADD, 1, D(20, 4, EU_TYPE_UD), UD(20, 1),
                    UD(20, 0)));
    k_add(k, asm_op(EU_OP_ADD, 1, D(20, 4, EU_TYPE_UD), UD(20, 1),
                    IMM(EU_TYPE_UD, 1)));
    k_slm_put(k, 20, 1);
    k_barrier(k);
    k_slm_sum(k, 0);
    k_barrier(k);
    k_add(k, asm_op(EU_OP_SHL, 1, D(22, 0, EU_TYPE_UD), UD(20, 1),
                    IMM(EU_TYPE_UD, 1)));
    k_slm_put(k, 22, 0);
    k_barrier(k);
    k_slm_sum(k, 1);
    k_put_out(k, 30);
    k_end(k);
}

/* @groups groups of four SIMD8 threads with barriers and 1 KiB of SLM. */
static void barrier_batch(Fixture *f, const Kern *k, unsigned groups,
                          unsigned count, bool barrier)
{
    Gen11_GPGPU_WALKER w = walker_simd8_groups(groups);

    w.thread_width_counter_maximum = 3;
    memset(f->fh->ram + OUT, 0xee, 2048);
    gpgpu_batch(f, k->i, k->n, (Gen11_INTERFACE_DESCRIPTOR_DATA) {
                    .number_of_threads_in_gpgpu_thread_group = count,
                    .barrier_enable = barrier,
                    .shared_local_memory_size = 1,
                }, &w);
}

/*
 * Every thread sees the whole group's values at each sum: 64g + 10, then
 * twice that.  Run one after the other (as before barriers were
 * modelled), thread 0 would have summed its own value alone.
 */
static void test_barrier_reduce(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    Kern k = { .n = 0 };

    reduce_kernel(&k);
    barrier_batch(f, &k, 3, 4, true);
    run_batch(f, 20);
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, 12);
    for (unsigned g = 0; g < 3; g++) {
        for (unsigned t = 0; t < 4; t++) {
            uint32_t at = OUT + 256 * g + 32 * t;

            g_assert_cmpuint(ram_r32(f, at), ==, 64 * g + 10);
            g_assert_cmpuint(ram_r32(f, at + 4), ==, 2 * (64 * g + 10));
        }
    }
    g_assert_false(e->gfx.media.run.stuck);
    g_assert_cmpint(e->gfx.media.group_n, ==, 0);
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);
    g_assert_cmpuint(f->fh->unimps, ==, 0);
}

/*
 * Hostile: thread 3 of the group ends before the barrier.  On Gen11 a
 * thread that ended is still counted as one to come, so the others wait
 * for ever: the walker hangs (logged once) and each step after does no
 * work, until the engine is reset.  A group that asks for a barrier
 * without Barrier Enable hangs the same way, its message logged.
 */
static void skip_kernel(Kern *k)
{
    k_tid(k);
    k_add(k, asm_cond(asm_op(EU_OP_CMP, 1, NUL, UD(20, 0),
                             IMM(EU_TYPE_UD, 3)), EU_COND_Z, 0));
    k_add(k, asm_1(EU_OP_MOV, 8, D(127, 0, EU_TYPE_UD),
                   G(0, 0, EU_TYPE_UD, R_8_8_1)));
    k_add(k, asm_pred(asm_send(8, 0, 127, EU_SFID_THREAD_SPAWNER, 0x02000010,
                               true), EU_PRED_NORMAL, false, 0));
    k_barrier(k);
    k_end(k);
}

static void barrier_hang(Fixture *f, bool barrier, unsigned errors)
{
    IntelEngine *e = eng(f, RCS);
    Kern k = { .n = 0 };
    uint64_t clocks;

    skip_kernel(&k);
    barrier_batch(f, &k, 2, 4, barrier);
    start_batch(f);
    for (unsigned i = 0; i < 5; i++) {
        step(f);
    }
    g_assert_false(engine_idle(f, RCS));
    g_assert_true(e->gfx.media.run.stuck);
    g_assert_cmpuint(e->gfx.media.run.x, ==, 0);
    g_assert_cmpuint(f->fh->guest_errors, ==, errors);
    clocks = e->stats.eu_clocks[INTEL_EU_TS];
    for (unsigned i = 0; i < 5; i++) {
        step(f);
    }
    g_assert_cmpuint(e->stats.eu_clocks[INTEL_EU_TS], ==, clocks);
    g_assert_cmpuint(f->fh->guest_errors, ==, errors);

    intel_engine_reset(f->gpu, RCS);
    g_assert_false(e->gfx.media.run.stuck);
    g_assert_cmpint(e->gfx.media.group_n, ==, 0);
    g_assert_true(engine_idle(f, RCS));
}

static void test_barrier_skipped(Fixture *f, gconstpointer data)
{
    barrier_hang(f, true, 1);
}

static void test_barrier_disabled(Fixture *f, gconstpointer data)
{
    barrier_hang(f, false, 2);
}

/*
 * Hostile: the interface descriptor gains Barrier Enable while a walker of
 * 128-thread groups runs, as a context image the guest wrote can restore
 * them (execlists.c restores both).  A group with barriers holds at most
 * 64 threads: the walker ends in the instruction error it would have
 * started with, and no group is started.
 */
static void test_barrier_enabled_mid_walker(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    Gen11_GPGPU_WALKER w = walker_simd8_groups(1000);
    Gen11_INTERFACE_DESCRIPTOR_DATA idd = {
        .number_of_threads_in_gpgpu_thread_group = 64,
    };
    uint32_t dw[GEN11_INTERFACE_DESCRIPTOR_DATA_LENGTH];
    Kern k = { .n = 0 };
    unsigned n = 0;

    k_end(&k);
    w.thread_width_counter_maximum = 63;
    w.thread_height_counter_maximum = 1;
    gpgpu_batch(f, k.i, k.n, idd, &w);
    start_batch(f);
    step(f);
    g_assert_false(engine_idle(f, RCS));
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);

    idd.kernel_start_pointer = KERNEL_OFF;
    idd.barrier_enable = true;
    gen11_interface_descriptor_data_pack(dw, &idd);
    memcpy(e->gfx.media.idd[0], dw, sizeof(dw));
    while (n++ < 5 && !engine_idle(f, RCS)) {
        step(f);
    }
    g_assert_true(engine_idle(f, RCS));
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, INTEL_ERROR_INSTRUCTION);
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    g_assert_cmpint(e->gfx.media.group_n, ==, 0);
    g_assert_cmpuint(e->stats.gpgpu_threads, <, 128 * 1000);
}

/*
 * Hostile: a group with barriers of 65 threads, one more than Number of
 * Threads in GPGPU Thread Group allows.  The walker is an instruction
 * error: RING_ESR, the engine halted at it, no thread run; a reset
 * clears it.
 */
static void test_barrier_group_too_large(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    Gen11_GPGPU_WALKER w = walker_simd8_groups(1);
    Kern k = { .n = 0 };

    k_end(&k);
    w.thread_width_counter_maximum = 4;
    w.thread_height_counter_maximum = 12;
    gpgpu_batch(f, k.i, k.n, (Gen11_INTERFACE_DESCRIPTOR_DATA) {
                    .number_of_threads_in_gpgpu_thread_group = 64,
                    .barrier_enable = true,
                }, &w);
    run_batch(f, 10);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, INTEL_ERROR_INSTRUCTION);
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, 0);
    g_assert_cmpuint(e->gfx.media.run.kind, ==, INTEL_MEDIA_IDLE);
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    intel_engine_reset(f->gpu, RCS);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

/*
 * Shared local memory atomics (untyped atomic ADD on binding table index
 * 254, SIMD8, the old values returned) and A64 atomics in memory: each
 * of the four threads' 8 channels adds 1 at SLM dword 0 and at OUT_ATOM;
 * after the barrier every thread reads 32 in SLM.
 */
#define OUT_ATOM                (OUT + 0x800u)
#define DESC_SLM_ATOMIC_ADD \
    ((2u << 25) | (1u << 20) | (2u << 14) | (0x37u << 8) | BTI_SLM)
#define DESC_A64_ATOMIC_ADD \
    ((3u << 25) | (1u << 20) | (0x12u << 14) | (0x27u << 8) | 253u)
#define A64_ADDR(reg, byte, v) \
    asm_1(EU_OP_MOV, 4, ((AOp){ .file = EU_FILE_GRF, .type = EU_TYPE_UD, \
                                .nr = (reg), .sub = (byte), .hs = 2 }), \
          IMM(EU_TYPE_UD, (v)))

static void atomic_kernel(Kern *k)
{
    k_tid(k);
    k_add(k, asm_1(EU_OP_MOV, 8, D(40, 0, EU_TYPE_UD), IMM(EU_TYPE_UD, 0)));
    k_add(k, asm_1(EU_OP_MOV, 8, D(41, 0, EU_TYPE_UD), IMM(EU_TYPE_UD, 1)));
    k_add(k, asm_send(8, 50, 40, EU_SFID_DP_DATA1, DESC_SLM_ATOMIC_ADD,
                      false));
    k_add(k, A64_ADDR(42, 0, OUT_ATOM));
    k_add(k, A64_ADDR(42, 4, 0));
    k_add(k, A64_ADDR(43, 0, OUT_ATOM));
    k_add(k, A64_ADDR(43, 4, 0));
    k_add(k, asm_1(EU_OP_MOV, 8, D(44, 0, EU_TYPE_UD), IMM(EU_TYPE_UD, 1)));
    k_add(k, asm_send(8, 51, 42, EU_SFID_DP_DATA1, DESC_A64_ATOMIC_ADD,
                      false));
    k_barrier(k);
    k_add(k, asm_1(EU_OP_MOV, 8, D(112, 0, EU_TYPE_UD),
                   G(0, 0, EU_TYPE_UD, R_8_8_1)));
    k_add(k, asm_1(EU_OP_MOV, 1, D(112, 8, EU_TYPE_UD), IMM(EU_TYPE_UD, 0)));
    k_add(k, asm_send(8, 52, 112, EU_SFID_DP_DATA, DESC_OW_R32(BTI_SLM),
                      false));
    k_add(k, asm_1(EU_OP_MOV, 1, D(50, 0, EU_TYPE_UD), UD(52, 0)));
    k_put_out(k, 50);
    k_end(k);
}

static void test_atomics(Fixture *f, gconstpointer data)
{
    Kern k = { .n = 0 };

    atomic_kernel(&k);
    barrier_batch(f, &k, 1, 4, true);
    ram_w32(f, OUT_ATOM, 1000);
    run_batch(f, 20);
    /* Channel 0: the SLM total after the barrier; the others the old
     * values their atomics returned, in the order the threads ran. */
    for (unsigned t = 0; t < 4; t++) {
        g_assert_cmpuint(ram_r32(f, OUT + 32 * t), ==, 32);
        for (unsigned c = 1; c < 8; c++) {
            g_assert_cmpuint(ram_r32(f, OUT + 32 * t + 4 * c), ==, 8 * t + c);
        }
    }
    g_assert_cmpuint(ram_r32(f, OUT_ATOM), ==, 1032);
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);
    g_assert_cmpuint(f->fh->unimps, ==, 0);
}

/* ---- scratch: each thread's slot, R0.5 ---- */

/* Scratch block write of m1 at HWord @hw, read into r@dst (header m0). */
#define DESC_SCRATCH_W(hw)      ((2u << 25) | (1u << 19) | (3u << 17) | (hw))
#define DESC_SCRATCH_R(hw)      ((1u << 25) | (1u << 20) | (1u << 19) | \
                                 (1u << 18) | (hw))
#define SCRATCH_BASE            0x50000u    /* from the general state base */

/*
 * Register "spills" of a group of four threads with barriers (all in
 * flight at once): each puts 0x1111 x (its FFTID + 1) in r10 and writes
 * it to its scratch at HWord 1, meets the others, then reads it back with
 * a scratch block read (r11) and a stateless OWord block read whose
 * header's M0.5 is the slot, as Mesa's Gen9-11 spills do (r12).
 */
static void scratch_kernel(Kern *k)
{
    k_tid(k);
    k_add(k, asm_op(EU_OP_ADD, 1, D(21, 0, EU_TYPE_UD), UD(20, 0),
                    IMM(EU_TYPE_UD, 1)));
    k_add(k, asm_op(EU_OP_MUL, 8, D(10, 0, EU_TYPE_UD), UD(21, 0),
                    IMM(EU_TYPE_UW, 0x1111)));
    k_add(k, asm_1(EU_OP_MOV, 8, D(60, 0, EU_TYPE_UD),
                   G(0, 0, EU_TYPE_UD, R_8_8_1)));
    k_add(k, asm_1(EU_OP_MOV, 8, D(61, 0, EU_TYPE_UD),
                   G(10, 0, EU_TYPE_UD, R_8_8_1)));
    k_add(k, asm_send(8, 0, 60, EU_SFID_DP_DATA, DESC_SCRATCH_W(1), false));
    k_barrier(k);
    k_add(k, asm_send(8, 11, 60, EU_SFID_DP_DATA, DESC_SCRATCH_R(1), false));
    k_add(k, asm_op(EU_OP_AND, 1, D(60, 20, EU_TYPE_UD), UD(0, 5),
                    IMM(EU_TYPE_UD, 0xfffffc00)));
    k_add(k, asm_1(EU_OP_MOV, 1, D(60, 8, EU_TYPE_UD), IMM(EU_TYPE_UD, 2)));
    k_add(k, asm_send(8, 12, 60, EU_SFID_DP_DATA, DESC_OW_R32(253), false));
    k_add(k, asm_1(EU_OP_MOV, 1, D(11, 4, EU_TYPE_UD), UD(12, 0)));
    k_add(k, asm_1(EU_OP_MOV, 1, D(11, 8, EU_TYPE_UD), UD(0, 5)));
    k_add(k, asm_1(EU_OP_MOV, 1, D(11, 12, EU_TYPE_UD), UD(0, 3)));
    k_put_out(k, 11);
    k_end(k);
}

static void test_scratch_slots(Fixture *f, gconstpointer data)
{
    Gen11_GPGPU_WALKER w = walker_simd8_groups(1);
    Kern k = { .n = 0 };

    w.thread_width_counter_maximum = 3;
    memset(f->fh->ram + OUT, 0xee, 1024);
    memset(f->fh->ram + SCRATCH_BASE, 0, 8192);
    /* 2 KiB a thread (encoding 1). */
    scratch_kernel(&k);
    gpgpu_batch_vfe(f, k.i, k.n, (Gen11_INTERFACE_DESCRIPTOR_DATA) {
                        .number_of_threads_in_gpgpu_thread_group = 4,
                        .barrier_enable = true,
                    }, &w, (Gen11_MEDIA_VFE_STATE) {
                        .scratch_space_base_pointer = SCRATCH_BASE,
                        .per_thread_scratch_space = 1,
                    });
    run_batch(f, 20);
    for (unsigned t = 0; t < 4; t++) {
        uint32_t slot = SCRATCH_BASE + 2048 * t;

        g_assert_cmphex(ram_r32(f, OUT + 32 * t), ==, 0x1111 * (t + 1));
        g_assert_cmphex(ram_r32(f, OUT + 32 * t + 4), ==, 0x1111 * (t + 1));
        /* R0.5: the slot and the FFTID; R0.3 bits 3:0: the size. */
        g_assert_cmphex(ram_r32(f, OUT + 32 * t + 8), ==, slot | t);
        g_assert_cmphex(ram_r32(f, OUT + 32 * t + 12) & 0xf, ==, 1);
        g_assert_cmphex(ram_r32(f, slot + 32 + 28), ==, 0x1111 * (t + 1));
    }
    g_assert_cmpuint(f->fh->guest_errors, ==, 0);
    g_assert_cmpuint(f->fh->unimps, ==, 0);
}

static const FixtureTest tests[] = {
    { "/intel-gpgpu/indirect-payload", test_indirect_payload },
    { "/intel-gpgpu/indirect-short", test_indirect_short },
    { "/intel-gpgpu/eu-inst-trace", test_eu_inst_trace },
    { "/intel-gpgpu/long-kernel", test_long_kernel },
    { "/intel-gpgpu/slm", test_slm },
    { "/intel-gpgpu/slm-bounds", test_slm_bounds },
    { "/intel-gpgpu/slm-high-bits", test_slm_high_bits },
    { "/intel-gpgpu/barrier-reduce", test_barrier_reduce },
    { "/intel-gpgpu/barrier-skipped", test_barrier_skipped },
    { "/intel-gpgpu/barrier-disabled", test_barrier_disabled },
    { "/intel-gpgpu/barrier-enabled-mid-walker",
      test_barrier_enabled_mid_walker },
    { "/intel-gpgpu/barrier-group-too-large", test_barrier_group_too_large },
    { "/intel-gpgpu/atomics", test_atomics },
    { "/intel-gpgpu/scratch-slots", test_scratch_slots },
};

FIXTURE_MAIN(fixture_setup_ggtt)
