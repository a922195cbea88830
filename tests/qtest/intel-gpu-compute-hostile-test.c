/*
 * qtest for intel-gpu: hostile compute kernels on the GPGPU pipeline.
 * Each case does bounded work per engine step, faults or errors where
 * the model documents it (docs/intel-gpu-pipelines.rst, "GPGPU and media
 * pipelines"), and QEMU keeps answering: a thread group larger than a
 * group with barriers may be, shared local memory out of range, scratch
 * in memory the GGTT does not map, a barrier that is never met.  The
 * endless kernel is intel-gpu-media-test.c's /intel-gpu/media/endless-
 * kernel (the engine busy until i915's reset sequence).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "intel-gpu-qtest.h"
#include "intel-gpu-compute-kernels.h"

/* As intel-gpu-hostile-test.c: long stretches of virtual time. */
#define HOSTILE_STEPS       6
#define HOSTILE_STEP_NS     (5 * CS_SETTLE_NS)

/* The batch's state half. */
enum { KERNEL = 0x800, IDD = 0xc00, CURBE = 0xd00 };

/* What the walker's batch stores when it goes on past the walker. */
#define DONE                0xd0e0001u
/* The kernels' r1.1-r1.7 (the CURBE's dwords 1-7). */
#define PATTERN(i)          (0xc0de0000u + (i))
/* A GGTT address the tests never map (test memory is at GTT_BIAS on). */
#define UNMAPPED            0x30000000u

typedef struct Compute {
    Gpu g;
    Buf ring, bb, out, done;
} Compute;

static void compute_start(Compute *c)
{
    gpu_start(&c->g);
    c->ring = buf_new(&c->g, 1);
    c->bb = buf_new(&c->g, 1);
    c->out = buf_new(&c->g, 1);
    c->done = buf_new(&c->g, 1);
    qtest_memset(c->g.qts, c->out.phys, 0xee, 4096);
}

/*
 * A batch as Mesa's and IGT's GPGPU batches are (the state bases at the
 * batch, the general state base 0): @kernel with the interface
 * descriptor @idd and, in every thread's r1, the CURBE's first register
 * (dword 0 the OWord of @c->out where the kernels write), the walker @w
 * of SIMD8 threads, then a store of DONE in @c->done.
 */
static void compute_batch(Compute *c, const uint32_t *kernel, size_t n,
                          Gen11_INTERFACE_DESCRIPTOR_DATA idd,
                          Gen11_MEDIA_VFE_STATE vfe, Gen11_GPGPU_WALKER w)
{
    Gpu *g = &c->g;
    Buf *bb = &c->bb;
    uint32_t dw[GEN11_MEDIA_VFE_STATE_LENGTH + GEN11_GPGPU_WALKER_LENGTH];
    uint32_t r1[8] = { c->out.gtt / 16 };

    for (unsigned i = 1; i < 8; i++) {
        r1[i] = PATTERN(i);
    }
    bb->len = 0;
    qtest_memwrite(g->qts, bb->phys + CURBE, r1, sizeof(r1));
    qtest_memwrite(g->qts, bb->phys + KERNEL, kernel, n * 4);
    idd.kernel_start_pointer = KERNEL;
    /* Every thread's r1: cross-thread constant data (PRM Vol 7, "CURBE"). */
    idd.cross_thread_constant_data_read_length = 1;
    gen11_interface_descriptor_data_pack(dw, &idd);
    qtest_memwrite(g->qts, bb->phys + IDD, dw,
                   GEN11_INTERFACE_DESCRIPTOR_DATA_LENGTH * 4);

    emit_pipeline_select(g, bb, PIPELINE_SELECT_GPGPU);
    emit_sba_igt(g, bb, bb->gtt);
    vfe.maximum_number_of_threads = 63;
    vfe.number_of_urb_entries = 1;
    vfe.curbe_allocation_size = 1;
    gen11_media_vfe_state_pack(dw, &vfe);
    buf_emit(g, bb, dw, GEN11_MEDIA_VFE_STATE_LENGTH);
    gen11_media_curbe_load_pack(dw, &(Gen11_MEDIA_CURBE_LOAD) {
        .curbe_total_data_length = 32, .curbe_data_start_address = CURBE,
    });
    buf_emit(g, bb, dw, GEN11_MEDIA_CURBE_LOAD_LENGTH);
    gen11_media_interface_descriptor_load_pack(dw,
        &(Gen11_MEDIA_INTERFACE_DESCRIPTOR_LOAD) {
            .interface_descriptor_total_length = 32,
            .interface_descriptor_data_start_address = IDD,
        });
    buf_emit(g, bb, dw, GEN11_MEDIA_INTERFACE_DESCRIPTOR_LOAD_LENGTH);
    w.thread_group_id_y_dimension = 1;
    w.thread_group_id_z_dimension = 1;
    w.right_execution_mask = 0xff;
    w.bottom_execution_mask = 0xff;
    emit_walker(g, bb, &w);
    emit_store(g, bb, MI_USE_GGTT, c->done.gtt, DONE);
    EMIT(g, bb, MI_BATCH_BUFFER_END);
}

/* The batch started from a new legacy ring of the render engine. */
static void compute_submit(Compute *c)
{
    c->ring = buf_new(&c->g, 1);
    EMIT(&c->g, &c->ring, MI_BATCH_BUFFER_START_GEN8, c->bb.gtt, 0);
    ring_submit(&c->g, INTEL_RCS0_BASE, &c->ring);
}

/* The 32 bytes at @off of the output: r1 as the CURBE loads it, or not. */
static void assert_r1_at(Compute *c, uint32_t off, bool written)
{
    for (unsigned i = 0; i < 8; i++) {
        uint32_t want = !written ? 0xeeeeeeee :
                        i ? PATTERN(i) : c->out.gtt / 16;

        g_assert_cmphex(buf_readl(&c->g, &c->out, off + 4 * i), ==, want);
    }
}

/* The walker ran to its end and the batch went on; no error, no fault. */
static void assert_batch_done(Compute *c)
{
    uint32_t rcs = INTEL_RCS0_BASE;

    assert_ring_idle(&c->g, rcs);
    g_assert_cmphex(buf_readl(&c->g, &c->done, 0), ==, DONE);
    g_assert_cmphex(rd(&c->g, rcs + INTEL_RING_ESR), ==, 0);
}

/*
 * A group with barriers of 64 threads (the most the descriptor's Number
 * of Threads in GPGPU Thread Group has) runs; one of 128 is an
 * instruction error: RING_ESR, and RING_EIR (the CS error interrupt
 * i915 resets the engine for), the engine halted where it is (neither
 * the walker's threads nor the store after it run) however long, until
 * i915's reset; then the engine runs the next request.
 */
static void test_oversize_group(void)
{
    Gen11_INTERFACE_DESCRIPTOR_DATA idd = {
        .number_of_threads_in_gpgpu_thread_group = 64,
        .barrier_enable = true,
    };
    uint32_t rcs = INTEL_RCS0_BASE;
    Compute c;

    compute_start(&c);
    compute_batch(&c, hostile_store_kernel,
                  G_N_ELEMENTS(hostile_store_kernel), idd,
                  (Gen11_MEDIA_VFE_STATE) { 0 }, (Gen11_GPGPU_WALKER) {
                      .thread_width_counter_maximum = 63,
                      .thread_group_id_x_dimension = 1,
                  });
    compute_submit(&c);
    cs_settle(&c.g);
    assert_batch_done(&c);
    g_assert_cmphex(rd(&c.g, INTEL_RING_FAULT_REG), ==, 0);
    assert_r1_at(&c, 0, true);

    qtest_memset(c.g.qts, c.out.phys, 0xee, 4096);
    qtest_writel(c.g.qts, c.done.phys, 0);
    /* i915's enable_error_interrupt(): instruction errors interrupt. */
    wr(&c.g, rcs + INTEL_RING_EMR, ~INTEL_ERROR_INSTRUCTION);
    compute_batch(&c, hostile_store_kernel,
                  G_N_ELEMENTS(hostile_store_kernel), idd,
                  (Gen11_MEDIA_VFE_STATE) { 0 }, (Gen11_GPGPU_WALKER) {
                      .thread_width_counter_maximum = 63,
                      .thread_height_counter_maximum = 1,
                      .thread_group_id_x_dimension = 1,
                  });
    compute_submit(&c);
    for (int i = 0; i < HOSTILE_STEPS; i++) {
        qtest_clock_step(c.g.qts, HOSTILE_STEP_NS);
        g_assert_true(engine_idle(&c.g, rcs));
        g_assert_cmphex(rd(&c.g, rcs + INTEL_RING_ESR), ==,
                        INTEL_ERROR_INSTRUCTION);
        g_assert_cmphex(rd(&c.g, rcs + INTEL_RING_EIR), ==,
                        INTEL_ERROR_INSTRUCTION);
        g_assert_cmphex(buf_readl(&c.g, &c.done, 0), ==, 0);
        assert_r1_at(&c, 0, false);
    }
    engine_stop_reset_run(&c.g, rcs, INTEL_GRDOM_RENDER);
    gpu_stop(&c.g);
}

/*
 * 1 KiB of shared local memory, two groups: of a 64-byte write and read
 * at 992 the half inside lands and reads back, the half past the end is
 * dropped and reads zero, a write some 4 GiB in is dropped (the model's
 * answer where the PRM leaves it undefined; QEMU logs it).  The walker
 * ends and the batch goes on.
 */
static void test_slm_out_of_range(void)
{
    Compute c;

    compute_start(&c);
    compute_batch(&c, hostile_slm_kernel, G_N_ELEMENTS(hostile_slm_kernel),
                  (Gen11_INTERFACE_DESCRIPTOR_DATA) {
                      .number_of_threads_in_gpgpu_thread_group = 1,
                      .shared_local_memory_size = 1,
                  }, (Gen11_MEDIA_VFE_STATE) { 0 }, (Gen11_GPGPU_WALKER) {
                      .thread_group_id_x_dimension = 2,
                  });
    compute_submit(&c);
    cs_settle(&c.g);
    assert_batch_done(&c);
    assert_r1_at(&c, 0, true);
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmphex(buf_readl(&c.g, &c.out, 32 + 4 * i), ==, 0);
    }
    g_assert_cmphex(buf_readl(&c.g, &c.out, 64), ==, 0xeeeeeeee);
    g_assert_cmphex(rd(&c.g, INTEL_RING_FAULT_REG), ==, 0);
    gpu_stop(&c.g);
}

/*
 * MEDIA_VFE_STATE's scratch space at a GGTT address nothing maps: each
 * thread's scratch write is a page fault (RING_FAULT_REG naming the
 * render engine, FAULT_TLB_DATA0/1 the page in the GGTT, the page-fault
 * interrupt) and ends the thread there: its store before the write
 * lands, the one after does not.  The walker goes on with the next
 * group, the batch past the walker; the engine has no error.
 */
static void test_scratch_unmapped(void)
{
    uint32_t rcs = INTEL_RCS0_BASE;
    uint64_t msi;
    Compute c;

    compute_start(&c);
    msi = msi_to_ram(&c.g);
    wr(&c.g, INTEL_RENDER_COPY_INTR_ENABLE, INTEL_GT_PAGE_FAULT << 16);
    wr(&c.g, INTEL_RCS0_RSVD_INTR_MASK, ~(INTEL_GT_PAGE_FAULT << 16));
    wr(&c.g, INTEL_GFX_MSTR_IRQ, INTEL_MSTR_ENABLE);
    compute_batch(&c, hostile_scratch_kernel,
                  G_N_ELEMENTS(hostile_scratch_kernel),
                  (Gen11_INTERFACE_DESCRIPTOR_DATA) {
                      .number_of_threads_in_gpgpu_thread_group = 1,
                  }, (Gen11_MEDIA_VFE_STATE) {
                      .scratch_space_base_pointer = UNMAPPED,
                      .per_thread_scratch_space = 0,
                  }, (Gen11_GPGPU_WALKER) {
                      .thread_group_id_x_dimension = 2,
                  });
    compute_submit(&c);
    cs_settle(&c.g);
    assert_batch_done(&c);
    for (unsigned grp = 0; grp < 2; grp++) {
        assert_r1_at(&c, 64 * grp, true);
        assert_r1_at(&c, 64 * grp + 32, false);
    }
    g_assert_cmphex(rd(&c.g, INTEL_RING_FAULT_REG), ==, 1);
    g_assert_cmphex(rd(&c.g, INTEL_FAULT_TLB_DATA0), ==, UNMAPPED >> 12);
    g_assert_cmphex(rd(&c.g, INTEL_FAULT_TLB_DATA1), ==, 1u << 4);
    expect_msi(&c.g, msi, 0, INTEL_GT_PAGE_FAULT);

    /* The engine takes the next request. */
    qtest_writel(c.g.qts, c.done.phys, 0);
    compute_submit(&c);
    cs_settle(&c.g);
    assert_batch_done(&c);
    g_assert_true(engine_idle(&c.g, rcs));
    gpu_stop(&c.g);
}

/*
 * Groups of four threads with barriers whose thread 3 ends before the
 * barrier: the other three wait for it for ever, as on Gen11.  The
 * engine stays busy in the batch, no error, nothing past the walker
 * runs, each step bounded; i915's reset sequence stops it and the next
 * request runs.
 */
static void test_barrier_never_met(void)
{
    uint32_t rcs = INTEL_RCS0_BASE, acthd;
    Compute c;

    compute_start(&c);
    compute_batch(&c, hostile_barrier_skip_kernel,
                  G_N_ELEMENTS(hostile_barrier_skip_kernel),
                  (Gen11_INTERFACE_DESCRIPTOR_DATA) {
                      .number_of_threads_in_gpgpu_thread_group = 4,
                      .barrier_enable = true,
                  }, (Gen11_MEDIA_VFE_STATE) { 0 }, (Gen11_GPGPU_WALKER) {
                      .thread_width_counter_maximum = 3,
                      .thread_group_id_x_dimension = 2,
                  });
    compute_submit(&c);
    for (int i = 0; i < HOSTILE_STEPS; i++) {
        qtest_clock_step(c.g.qts, HOSTILE_STEP_NS);
        g_assert_false(engine_idle(&c.g, rcs));
        g_assert_cmphex(rd(&c.g, rcs + INTEL_RING_ESR), ==, 0);
        acthd = rd(&c.g, rcs + INTEL_RING_ACTHD);
        g_assert_cmphex(acthd, >=, c.bb.gtt);
        g_assert_cmphex(acthd, <, c.bb.gtt + c.bb.len);
        g_assert_cmphex(buf_readl(&c.g, &c.done, 0), ==, 0);
    }
    engine_stop_reset_run(&c.g, rcs, INTEL_GRDOM_RENDER);
    gpu_stop(&c.g);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/intel-gpu/compute-hostile/oversize-group",
                   test_oversize_group);
    qtest_add_func("/intel-gpu/compute-hostile/slm-out-of-range",
                   test_slm_out_of_range);
    qtest_add_func("/intel-gpu/compute-hostile/scratch-unmapped",
                   test_scratch_unmapped);
    qtest_add_func("/intel-gpu/compute-hostile/barrier-never-met",
                   test_barrier_never_met);
    return g_test_run();
}
