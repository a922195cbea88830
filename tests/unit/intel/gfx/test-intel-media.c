/*
 * The GPGPU and media pipelines (hw/gpumodel/intel/gfx/media.c): IGT's
 * gpgpu-fill and media-fill batches, built as IGT 1.27.1 builds them
 * (lib/gpgpu_fill.c __gen9_gpgpu_fillfunc with gen11_gpgpu_kernel,
 * lib/media_fill.c __gen9_media_fillfunc with gen8_media_kernel, the
 * state from lib/gpu_cmds.c), run on the device, every byte of the
 * surface checked; dispatches that span steps, hostile walkers and the
 * engine reset that ends them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"
#include "eu-asm.h"
#include "intel/gfx/gfx-int.h"
#include "intel/cs/cs-int.h"
#include "igt-kernels.h"

/* IGT's buffer: 64 x 64 bytes, linear, at SURF (lib/intel_bufops.c). */
#define WIDTH           64
#define HEIGHT          64
#define COLOR_C4        0xc4
#define COLOR_4C        0x4c
/* The batch's state half (lib/gpgpu_fill.c, lib/media_fill.c). */
#define BATCH_STATE_SPLIT 2048

/* IGT's intel_bb: a 4 KiB batch at BATCH, its state in the second half. */
typedef struct Bb {
    Fixture *f;
    uint32_t ptr;               /* offset in the batch */
} Bb;

static void bb_out(Bb *b, uint32_t v)
{
    ram_w32(b->f, BATCH + b->ptr, v);
    b->ptr += 4;
}

static void bb_outn(Bb *b, const uint32_t *dw, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        bb_out(b, dw[i]);
    }
}

static void bb_align(Bb *b, uint32_t a)
{
    b->ptr = (b->ptr + a - 1) & ~(a - 1);
}

/* An interface descriptor at batch offset @off. */
static void put_idd(Fixture *f, uint32_t off,
                    const Gen11_INTERFACE_DESCRIPTOR_DATA *idd)
{
    Bb b = { f, off };
    uint32_t dw[GEN11_INTERFACE_DESCRIPTOR_DATA_LENGTH];

    gen11_interface_descriptor_data_pack(dw, idd);
    bb_outn(&b, dw, G_N_ELEMENTS(dw));
}

/* gen7_fill_curbe_buffer_data */
static uint32_t fill_curbe(Bb *b, uint8_t color)
{
    uint32_t off;

    bb_align(b, 64);
    off = b->ptr;
    ram_w32(b->f, BATCH + off, color);
    b->ptr += 32;
    return off;
}

/* gen8_fill_surface_state of IGT's buffer (R8_UNORM, linear). */
static uint32_t fill_surface_state(Bb *b, uint32_t width)
{
    Gen11_RENDER_SURFACE_STATE ss = {
        .surface_type = INTEL_SURFTYPE_2D,
        .surface_format = INTEL_SF_R8_UNORM,
        .surface_vertical_alignment = 1,            /* VALIGN_4 */
        .surface_horizontal_alignment = 1,          /* HALIGN_4 */
        .render_cache_read_write_mode = 1,
        .width = width - 1,
        .height = HEIGHT - 1,
        .surface_pitch = WIDTH - 1,
        .shader_channel_select_red = INTEL_SCS_RED,
        .shader_channel_select_green = INTEL_SCS_GREEN,
        .shader_channel_select_blue = INTEL_SCS_BLUE,
        .shader_channel_select_alpha = INTEL_SCS_ALPHA,
        .surface_base_address = SURF,
    };
    uint32_t off, dw[GEN11_RENDER_SURFACE_STATE_LENGTH];

    bb_align(b, 64);
    off = b->ptr;
    gen11_render_surface_state_pack(dw, &ss);
    bb_outn(b, dw, G_N_ELEMENTS(dw));
    return off;
}

/* gen8_fill_interface_descriptor (gen7_fill_binding_table, the kernel). */
static uint32_t fill_idd(Bb *b, const uint32_t (*kernel)[4], size_t size,
                         uint32_t width)
{
    uint32_t bt, kernel_off, off;

    bb_align(b, 64);
    bt = b->ptr;
    b->ptr += 64;
    ram_w32(b->f, BATCH + bt, fill_surface_state(b, width));
    bb_align(b, 64);
    kernel_off = b->ptr;
    memcpy(b->f->fh->ram + BATCH + kernel_off, kernel, size);
    b->ptr += size;
    bb_align(b, 64);
    off = b->ptr;
    put_idd(b->f, off, &(Gen11_INTERFACE_DESCRIPTOR_DATA) {
        .kernel_start_pointer = kernel_off,
        .single_program_flow = true,
        .binding_table_pointer = bt,
        .constant_urb_entry_read_length = 1,
        .number_of_threads_in_gpgpu_thread_group = 1,
    });
    b->ptr += GEN11_INTERFACE_DESCRIPTOR_DATA_LENGTH * 4;
    return off;
}

/* gen9_emit_state_base_address: the batch's own buffer for all three. */
static void emit_sba(Bb *b)
{
    uint32_t dw[IGT_SBA_DWORDS];

    igt_sba_pack(dw, BATCH, true);
    bb_outn(b, dw, IGT_SBA_DWORDS);
}

/* gen8_emit_vfe_state, gen7_emit_curbe_load, *_descriptor_load */
static void emit_media_state(Bb *b, uint32_t urb_entries, uint32_t urb_size,
                             uint32_t curbe_size, uint32_t curbe,
                             uint32_t idd)
{
    Gen11_MEDIA_VFE_STATE vfe = {
        .maximum_number_of_threads = 1,
        .number_of_urb_entries = urb_entries,
        .urb_entry_allocation_size = urb_size,
        .curbe_allocation_size = curbe_size,
    };
    Gen11_MEDIA_CURBE_LOAD cl = {
        .curbe_total_data_length = 64,
        .curbe_data_start_address = curbe,
    };
    Gen11_MEDIA_INTERFACE_DESCRIPTOR_LOAD il = {
        .interface_descriptor_total_length = 32,
        .interface_descriptor_data_start_address = idd,
    };
    uint32_t dw[GEN11_MEDIA_VFE_STATE_LENGTH];

    gen11_media_vfe_state_pack(dw, &vfe);
    bb_outn(b, dw, GEN11_MEDIA_VFE_STATE_LENGTH);
    gen11_media_curbe_load_pack(dw, &cl);
    bb_outn(b, dw, GEN11_MEDIA_CURBE_LOAD_LENGTH);
    gen11_media_interface_descriptor_load_pack(dw, &il);
    bb_outn(b, dw, GEN11_MEDIA_INTERFACE_DESCRIPTOR_LOAD_LENGTH);
}

static void emit_walker(Bb *b, const Gen11_GPGPU_WALKER *w)
{
    uint32_t dw[GEN11_GPGPU_WALKER_LENGTH];

    gen11_gpgpu_walker_pack(dw, w);
    bb_outn(b, dw, G_N_ELEMENTS(dw));
}

/* gen8_emit_gpgpu_walk */
static void emit_gpgpu_walk(Bb *b, unsigned width, unsigned height)
{
    uint32_t tmp = width & 15;

    emit_walker(b, &(Gen11_GPGPU_WALKER) {
        .simd_size = 1,                         /* SIMD16 */
        .thread_group_id_x_dimension = (width + 15) / 16,
        .thread_group_id_y_dimension = height,
        .thread_group_id_z_dimension = 1,
        .right_execution_mask = tmp ? (1u << tmp) - 1 : (1u << 16) - 1,
        .bottom_execution_mask = 0xffffffff,
    });
}

/* A PIPELINE_SELECT (Mask Bits enable the writes of its fields). */
static void emit_select(Bb *b, Gen11_PIPELINE_SELECT ps)
{
    uint32_t dw;

    gen11_pipeline_select_pack(&dw, &ps);
    bb_out(b, dw);
}

/* __gen9_gpgpu_fillfunc with gen11_gpgpu_kernel */
static void gpgpu_fill_batch(Fixture *f, unsigned width, unsigned height,
                             uint8_t color)
{
    Bb b = { f, BATCH_STATE_SPLIT };
    uint32_t curbe, idd;

    curbe = fill_curbe(&b, color);
    idd = fill_idd(&b, gen11_gpgpu_kernel, sizeof(gen11_gpgpu_kernel), WIDTH);
    b.ptr = 0;
    emit_select(&b, (Gen11_PIPELINE_SELECT) {
        .mask_bits = 3, .pipeline_selection = PIPELINE_SELECT_GPGPU,
    });
    emit_sba(&b);
    emit_media_state(&b, 1, 0, 1, curbe, idd);
    emit_gpgpu_walk(&b, width, height);
    bb_out(&b, MI_BATCH_BUFFER_END);
}

/* __gen9_media_fillfunc with gen8_media_kernel */
static void media_fill_batch(Fixture *f, unsigned x, unsigned y,
                             unsigned width, unsigned height, uint8_t color)
{
    Bb b = { f, BATCH_STATE_SPLIT };
    /* Mask Bits for the selection and the two flags (bits 9:8, 13:12). */
    Gen11_PIPELINE_SELECT select = {
        .mask_bits = 0x33, .pipeline_selection = PIPELINE_SELECT_MEDIA,
    };
    uint32_t curbe, idd;

    curbe = fill_curbe(&b, color);
    /* gem_media_fill's buffer: 16 pixels of 32 bits a row, as R8. */
    idd = fill_idd(&b, gen8_media_kernel, sizeof(gen8_media_kernel),
                   WIDTH / 4);
    b.ptr = 0;
    select.force_media_awake = true;
    emit_select(&b, select);
    emit_sba(&b);
    emit_media_state(&b, 2, 2, 2, curbe, idd);
    /* gen7_emit_media_objects, each with gen8_emit_media_state_flush */
    for (unsigned i = 0; i < width / 16; i++) {
        for (unsigned j = 0; j < height / 16; j++) {
            uint32_t dw[GEN11_MEDIA_OBJECT_LENGTH + 2];
            Gen11_MEDIA_STATE_FLUSH flush = { 0 };

            /* Two dwords of inline data: the block's x and y. */
            gen11_media_object_pack(dw, &(Gen11_MEDIA_OBJECT) { 0 });
            dw[0] = GEN11_MEDIA_OBJECT_HEADER |
                    (G_N_ELEMENTS(dw) - GEN11_MEDIA_OBJECT_BIAS);
            dw[GEN11_MEDIA_OBJECT_INLINE_DATA_DW] = x + i * 16;
            dw[GEN11_MEDIA_OBJECT_INLINE_DATA_DW + 1] = y + j * 16;
            bb_outn(&b, dw, G_N_ELEMENTS(dw));
            gen11_media_state_flush_pack(dw, &flush);
            bb_outn(&b, dw, GEN11_MEDIA_STATE_FLUSH_LENGTH);
        }
    }
    select.force_media_awake = false;
    select.media_sampler_dop_clock_gate_enable = true;
    emit_select(&b, select);
    bb_out(&b, MI_BATCH_BUFFER_END);
}

/* Start the batch from the legacy ring; step until the engine is idle. */
static unsigned run_until_idle(Fixture *f, unsigned max_steps)
{
    Buf ring = buf_at(f, RING_RCS);
    unsigned n;

    bb_start(&ring, BATCH, 0);
    qword_align(&ring);
    ring_start(f, RCS, RING_RCS, ring.pos);
    step(f);
    for (n = 1; n < max_steps && !engine_idle(f, RCS); n++) {
        step(f);
    }
    return n;
}

static void fill_surface(Fixture *f, uint8_t color)
{
    memset(f->fh->ram + SURF, color, WIDTH * HEIGHT);
    /* Guard bytes after the surface: nothing writes there. */
    memset(f->fh->ram + SURF + WIDTH * HEIGHT, 0xee, 4096);
}

/* gem_gpgpu_fill / gem_media_fill's check, and nothing around it. */
static void check_fill(Fixture *f, unsigned fw, unsigned fh)
{
    for (unsigned y = 0; y < HEIGHT; y++) {
        for (unsigned x = 0; x < WIDTH; x++) {
            uint8_t want = x < fw && y < fh ? COLOR_4C : COLOR_C4;

            if (f->fh->ram[SURF + y * WIDTH + x] != want) {
                g_printerr("# last log: %s (%u errors, %u unimp)\n",
                           f->fh->last_log ? f->fh->last_log : "none",
                           f->fh->guest_errors, f->fh->unimps);
                g_error("pixel (%u, %u) is 0x%02x, not 0x%02x", x, y,
                        f->fh->ram[SURF + y * WIDTH + x], want);
            }
        }
    }
    for (unsigned i = 0; i < 4096; i++) {
        g_assert_cmpuint(f->fh->ram[SURF + WIDTH * HEIGHT + i], ==, 0xee);
    }
}

static void test_gpgpu_fill(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);

    fill_surface(f, COLOR_C4);
    gpgpu_fill_batch(f, WIDTH / 2, HEIGHT / 2, COLOR_4C);
    g_assert_cmpuint(run_until_idle(f, 100), <, 100);
    check_fill(f, WIDTH / 2, HEIGHT / 2);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_GPGPU);
    /* 2 x 32 groups of one SIMD16 thread, 10 instructions each. */
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, 64);
    g_assert_cmpuint(e->stats.walkers, ==, 1);
    g_assert_cmpuint(e->stats.eu_clocks[INTEL_EU_TS], ==, 64 * 10);
    g_assert_cmpuint(e->gfx.media.run.kind, ==, INTEL_MEDIA_IDLE);
    g_assert_cmpuint(rd(f, INTEL_RING_FAULT_REG), ==, 0);
}

/*
 * A width that is not a multiple of 16: the right execution mask (0x3)
 * applies to the rightmost thread of every group, here each group's one
 * thread (IGT's walker assumes widths of 16s).  Its block write is not
 * masked, the moves that build the data are: the byte-wise mov(4)
 * replicating the color fills 2 bytes of the dword, the mov(16) of that
 * dword to the block 2 dwords; the rest is what the registers held (zero:
 * the model starts a dispatch's registers at zero, and no thread of this
 * one writes those channels).
 */
static void test_gpgpu_fill_right_mask(Fixture *f, gconstpointer data)
{
    fill_surface(f, COLOR_C4);
    gpgpu_fill_batch(f, 18, 7, COLOR_4C);
    g_assert_cmpuint(run_until_idle(f, 100), <, 100);
    for (unsigned y = 0; y < HEIGHT; y++) {
        for (unsigned x = 0; x < WIDTH; x++) {
            uint8_t want = y >= 7 || x >= 32 ? COLOR_C4 :
                           x % 16 < 8 && x % 4 < 2 ? COLOR_4C : 0;

            g_assert_cmpuint(f->fh->ram[SURF + y * WIDTH + x], ==, want);
        }
    }
}

static void test_media_fill(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);

    fill_surface(f, COLOR_C4);
    media_fill_batch(f, 0, 0, WIDTH / 2, HEIGHT / 2, COLOR_4C);
    g_assert_cmpuint(run_until_idle(f, 100), <, 100);
    check_fill(f, WIDTH / 2, HEIGHT / 2);
    g_assert_cmpuint(e->gfx.pipeline, ==, PIPELINE_SELECT_MEDIA);
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, 4);
    g_assert_cmpuint(e->stats.eu_clocks[INTEL_EU_TS], ==, 4 * 11);
}

/*
 * A kernel at the start of the batch's state, as the fill batches put
 * theirs, run by a GPGPU_WALKER of @groups x 1 x 1 SIMD8 groups.
 */
static void walker_batch(Fixture *f, const EuNative *k, size_t n,
                         uint32_t xdim, uint32_t ydim)
{
    Bb b = { f, BATCH_STATE_SPLIT };
    uint32_t idd;

    asm_emit(f->fh->ram + BATCH + BATCH_STATE_SPLIT, k, n);
    b.ptr += 16 * n;
    bb_align(&b, 64);
    idd = b.ptr;
    put_idd(f, idd, &(Gen11_INTERFACE_DESCRIPTOR_DATA) {
        .kernel_start_pointer = BATCH_STATE_SPLIT,
        .number_of_threads_in_gpgpu_thread_group = 1,
    });
    b.ptr = 0;
    emit_sba(&b);
    emit_media_state(&b, 1, 0, 0, 0, idd);
    /* SIMD8, 1 thread a group. */
    emit_walker(&b, &(Gen11_GPGPU_WALKER) {
        .thread_group_id_x_dimension = xdim,
        .thread_group_id_y_dimension = ydim,
        .thread_group_id_z_dimension = 1,
        .right_execution_mask = ~0u,
        .bottom_execution_mask = ~0u,
    });
    bb_out(&b, MI_BATCH_BUFFER_END);
}

/* @xdim x @ydim groups of one thread of a 3-instruction kernel. */
static void short_walker(Fixture *f, uint32_t xdim, uint32_t ydim)
{
    const EuNative k[] = {
        asm_op(EU_OP_ADD, 8, D(3, 0, EU_TYPE_UD), G(3, 0, EU_TYPE_UD, R_8_8_1),
               IMM(EU_TYPE_UD, 1)),
        /* The thread's end: r0 to the thread spawner with EOT. */
        asm_1(EU_OP_MOV, 8, D(112, 0, EU_TYPE_UD),
              G(0, 0, EU_TYPE_UD, R_8_8_1)),
        asm_send(8, 0, 112, EU_SFID_THREAD_SPAWNER, 0x02000010, true),
    };

    walker_batch(f, k, G_N_ELEMENTS(k), xdim, ydim);
}

/*
 * 2^32 - 1 groups of a short kernel: each step runs a bounded share of
 * them and returns; the engine stays busy until it is reset, which
 * drops the dispatch.
 */
static void test_hostile_walker(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    IntelMediaDispatch *run;
    uint64_t threads, done;

    short_walker(f, ~0u, ~0u);
    g_assert_cmpuint(run_until_idle(f, 20), ==, 20);
    g_assert_false(engine_idle(f, RCS));
    g_assert_cmpuint(e->gfx.media.run.kind, ==, INTEL_MEDIA_GPGPU_WALKER);
    threads = e->stats.gpgpu_threads;
    g_assert_cmpuint(threads, >, 20);
    /* The next group: after the threads that ended, or the one running. */
    done = threads - e->gfx.media.run.running;
    g_assert_cmpuint(e->gfx.media.run.x, ==, done % 0xffffffffu);
    g_assert_cmpuint(e->gfx.media.run.y, ==, done / 0xffffffffu);
    /* One slice runs at most a step's instructions (3 a thread here). */
    intel_cs_run(e, 2048);
    g_assert_cmpuint(e->stats.gpgpu_threads, >, threads);
    g_assert_cmpuint(e->stats.gpgpu_threads - threads, <=,
                     INTEL_GFX_STEP_INSTRUCTIONS / 3 + 1);
    /* A thread the step's last instructions began is still running. */
    run = &e->gfx.media.run;
    g_assert_cmpuint(e->stats.eu_clocks[INTEL_EU_TS], ==,
                     3 * (e->stats.gpgpu_threads - run->running) +
                     (run->running ? run->thread.retired : 0));
    step(f);
    g_assert_false(engine_idle(f, RCS));

    intel_engine_reset(f->gpu, RCS);
    g_assert_cmpuint(e->gfx.media.run.kind, ==, INTEL_MEDIA_IDLE);
    g_assert_false(e->gfx.media.run.running);
    g_assert_true(engine_idle(f, RCS));
}

/*
 * Execlists: a walker spanning steps is preempted between two thread
 * groups when another context's Load waits (CS_CHICKEN1's GPGPU level:
 * i915 selects thread group on Gen11), its position kept in its context
 * image, and resumes there when its context runs again, with its state,
 * whatever the other context programmed: every group runs once.  At
 * command level the walker runs to its end before the switch.
 */
#define PREEMPT_GROUPS  100000u

static void walker_preempt(Fixture *f, uint32_t chicken)
{
    IntelEngine *e = eng(f, RCS);
    bool command = chicken == 0x00060004;
    uint32_t sba[IGT_SBA_DWORDS];
    uint64_t threads, area;
    Ctx a, b;

    two_contexts(f, &a, &b);
    area = a.lrca + INTEL_CTX_IMAGE_OFFSET;
    short_walker(f, PREEMPT_GROUPS, 1);
    lri(&a.ring, INTEL_CS_CHICKEN1, chicken);
    bb_start(&a.ring, BATCH, 0);
    sdi(&a.ring, DATA, 1);
    ctx_submit(&a);
    fake_host_step(f->fh, 0);
    g_assert_cmpuint(e->gfx.media.run.kind, ==, INTEL_MEDIA_GPGPU_WALKER);

    igt_sba_pack(sba, SURF, true);
    emit_n(&b.ring, sba, IGT_SBA_DWORDS);
    sdi(&b.ring, DATA + 4, 2);
    ctx_submit(&b);
    step(f);
    threads = e->stats.gpgpu_threads;
    if (command) {
        /* No switch in the walker: B waits. */
        g_assert_cmphex(csb_write_ptr(f, HWSP_RCS), ==, 0);
        g_assert_cmphex(ram_r32(f, DATA + 4), ==, 0);
        for (unsigned i = 0; i < 200 && !ram_r32(f, DATA + 4); i++) {
            step(f);
        }
        g_assert_cmphex(ram_r32(f, DATA), ==, 1);
        g_assert_cmphex(ram_r32(f, DATA + 4), ==, 2);
        g_assert_cmpuint(e->stats.gpgpu_threads, ==, PREEMPT_GROUPS);
        return;
    }
    g_assert_cmphex(csb_lo(f, HWSP_RCS, 1), ==, INTEL_CSB_PREEMPTED);
    g_assert_cmphex(ram_r32(f, DATA + 4), ==, 2);
    g_assert_cmphex(ram_r32(f, DATA), ==, 0);
    g_assert_cmpuint(threads, >, 0);
    g_assert_cmpuint(threads, <, PREEMPT_GROUPS);
    g_assert_cmpuint(e->gfx.media.run.kind, ==, INTEL_MEDIA_IDLE);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_INSTRUCTION].addr, ==, SURF);
    /* In A's image: the walker at the group after the last one run. */
    g_assert_cmpuint(ram_r32(f, area + offsetof(IntelCtxImage,
                                                media.run.kind)), ==,
                     INTEL_MEDIA_GPGPU_WALKER);
    g_assert_cmpuint(ram_r32(f, area + offsetof(IntelCtxImage,
                                                media.run.x)), ==, threads);
    g_assert_cmpuint(ram_r32(f, area + offsetof(IntelCtxImage,
                                                media.run.tid)), ==, 0);

    ctx_submit(&a);
    for (unsigned i = 0; i < 200 && ram_r32(f, DATA) != 1; i++) {
        step(f);
    }
    g_assert_cmphex(ram_r32(f, DATA), ==, 1);
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, PREEMPT_GROUPS);
    g_assert_cmpuint(e->stats.eu_clocks[INTEL_EU_TS], ==,
                     3 * PREEMPT_GROUPS);
    g_assert_cmphex(e->gfx.base[INTEL_GFX_INSTRUCTION].addr, ==, BATCH);
    g_assert_cmphex(erd(f, RCS, INTEL_RING_ESR), ==, 0);
}

static void test_walker_preempt(Fixture *f, gconstpointer data)
{
    walker_preempt(f, 0x00060002);          /* thread group (i915) */
}

static void test_walker_preempt_command_level(Fixture *f, gconstpointer data)
{
    walker_preempt(f, 0x00060004);
}

/* A walker of one thread that never ends: it counts in r3.0. */
static void endless_walker(Fixture *f)
{
    const EuNative k[] = {
        asm_op(EU_OP_ADD, 1, D(3, 0, EU_TYPE_UD), G(3, 0, EU_TYPE_UD, R_0_1_0),
               IMM(EU_TYPE_UD, 1)),
        asm_flow(EU_OP_WHILE, 1, -16, 0),
    };

    walker_batch(f, k, G_N_ELEMENTS(k), 1, 1);
}

/*
 * A kernel that never ends: one thread mid-run across steps, kept with
 * its registers, until the engine reset.
 */
static void test_endless_kernel(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    IntelMediaDispatch *d = &e->gfx.media.run;
    uint32_t r3;

    endless_walker(f);
    g_assert_cmpuint(run_until_idle(f, 3), ==, 3);
    g_assert_true(d->running);
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, 1);
    memcpy(&r3, d->thread.grf + 3 * EU_GRF_BYTES, 4);
    /* Half the instructions are the adds; the steps ran several. */
    g_assert_cmpuint(r3, >=, INTEL_GFX_STEP_INSTRUCTIONS / 2);
    g_assert_cmpuint(d->thread.retired, ==, 2 * (uint64_t)r3);
    step(f);
    g_assert_cmpuint(d->thread.retired, >, 2 * (uint64_t)r3);
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, 1);

    intel_engine_reset(f->gpu, RCS);
    g_assert_false(d->running);
    g_assert_cmpuint(d->kind, ==, INTEL_MEDIA_IDLE);
}

/*
 * A slice that interprets EU instructions is followed by the pause they
 * earn (cs-int.h): counted, so the same on every host, and long enough
 * that the vCPUs get the host's main loop between two steps of a kernel
 * that never ends.
 */
static void test_kernel_pacing(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    IntelMediaDispatch *d = &e->gfx.media.run;

    endless_walker(f);
    run_until_idle(f, 1);
    g_assert_true(d->running);
    for (unsigned i = 0; i < 3; i++) {
        uint64_t retired = d->thread.retired;

        fake_host_step(f->fh, e->timer->deadline - f->fh->now_ns);
        g_assert_cmpuint(d->thread.retired - retired, >=,
                         INTEL_GFX_STEP_INSTRUCTIONS / 2);
        g_assert_cmpuint(e->timer->deadline - f->fh->now_ns, ==,
                         (d->thread.retired - retired) *
                         CS_PACE_NS_PER_EU_INSTRUCTION);
    }
    intel_engine_reset(f->gpu, RCS);
    g_assert_true(engine_idle(f, RCS));
}

/*
 * A walker, then a store without a stall and a PIPE_CONTROL with a CS
 * stall and a post-sync write: the store happens while the walker's
 * work is in flight, the stalled write only once it is done, so that a
 * report or breadcrumb behind a stall sees all of it (the clock does not
 * move within a slice: under -icount it does not at all).
 */
static void test_cs_stall_drains(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    Buf ring = buf_at(f, RING_RCS);
    IntelCsStats st;
    unsigned slices = 0;

    fill_surface(f, COLOR_C4);
    gpgpu_fill_batch(f, WIDTH / 2, HEIGHT / 2, COLOR_4C);
    bb_start(&ring, BATCH, 0);
    sdi(&ring, DATA, 1);
    pc_store(&ring, 0, DATA + 8, 2);
    qword_align(&ring);
    ring_start(f, RCS, RING_RCS, ring.pos);
    while (!ram_r64(f, DATA + 8) && slices++ < 1000) {
        bool stored = ram_r32(f, DATA);

        fake_host_step(f->fh, e->timer->deadline - f->fh->now_ns);
        if (!stored && ram_r32(f, DATA)) {
            /* Stored at once: the walker's threads not yet all done. */
            intel_engine_stats_at(e, f->fh->now_ns, &st);
            g_assert_cmpuint(st.eu_clocks[INTEL_EU_TS], <, 64 * 10);
            g_assert_cmpuint(ram_r64(f, DATA + 8), ==, 0);
        }
    }
    g_assert_cmpuint(ram_r64(f, DATA + 8), ==, 2);
    intel_engine_stats_at(e, f->fh->now_ns, &st);
    g_assert_cmpuint(st.eu_clocks[INTEL_EU_TS], ==, 64 * 10);
    check_fill(f, WIDTH / 2, HEIGHT / 2);
}

/*
 * Wild addresses: a kernel pointer to nowhere reports a page fault and
 * ends the walker; a thread that faults ends (logged, unless it repeats
 * the fault before), the next ones run.
 */
static void test_wild_kernel(Fixture *f, gconstpointer data)
{
    const EuNative k[] = {
        /* jmpi far beyond the kernel: the thread faults. */
        asm_flow(EU_OP_JMPI, 1, 0, 0),
    };
    IntelEngine *e = eng(f, RCS);

    walker_batch(f, k, G_N_ELEMENTS(k), 3, 1);
    EU_SET((EuNative *)(f->fh->ram + BATCH + BATCH_STATE_SPLIT),
           EU_SRC1_FILE, EU_FILE_IMM);
    EU_SET((EuNative *)(f->fh->ram + BATCH + BATCH_STATE_SPLIT),
           EU_SRC1_TYPE, EU_TYPE_D);
    EU_SET((EuNative *)(f->fh->ram + BATCH + BATCH_STATE_SPLIT),
           EU_IMM32, 0x100000);
    g_assert_cmpuint(run_until_idle(f, 10), <, 10);
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, 3);
    g_assert_cmpuint(e->stats.eu_clocks[INTEL_EU_TS], ==, 3);
    /* The same fault three times: logged once. */
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    g_assert_cmpuint(e->gfx.fault_repeats, ==, 2);

    /* The kernel start pointer in the unmapped part of the GGTT. */
    walker_batch(f, k, G_N_ELEMENTS(k), 3, 1);
    put_idd(f, BATCH_STATE_SPLIT + 64, &(Gen11_INTERFACE_DESCRIPTOR_DATA) {
        .kernel_start_pointer = UNMAPPED - BATCH,
        .number_of_threads_in_gpgpu_thread_group = 1,
    });
    g_assert_cmpuint(run_until_idle(f, 10), <, 10);
    g_assert_cmpuint(rd(f, INTEL_RING_FAULT_REG) & 1, ==, 1);
    g_assert_cmpuint(rd(f, INTEL_FAULT_TLB_DATA0), ==, UNMAPPED >> 12);
    g_assert_cmpuint(e->gfx.media.run.kind, ==, INTEL_MEDIA_IDLE);
}

/*
 * Before any interface descriptor is loaded a walker has no kernel: its
 * threads are the synthetic EU work OA workloads rely on.
 */
static void test_walker_without_descriptors(Fixture *f, gconstpointer data)
{
    IntelEngine *e = eng(f, RCS);
    uint32_t dw[WALKER_DWORDS];
    Bb b = { f, 0 };

    pack_walker(dw, 16, 4, 2);
    bb_outn(&b, dw, WALKER_DWORDS);
    bb_out(&b, MI_BATCH_BUFFER_END);
    g_assert_cmpuint(run_until_idle(f, 10), <, 10);
    g_assert_cmpuint(e->stats.gpgpu_threads, ==, 16 * 4 * 2);
}

/*
 * An endless kernel (the first thread stays mid-run, its payload in
 * view), its interface descriptor with CURBE read length @read_len and
 * offset @read_off (registers) and cross-thread read length @cross, a
 * 64-byte CURBE of dwords 0x100 + i, and the dispatch command @cmd.
 */
static EuThread *payload_run(Fixture *f, uint32_t read_len,
                             uint32_t read_off, uint32_t cross,
                             const uint32_t *cmd, unsigned len)
{
    const EuNative k[] = {
        asm_op(EU_OP_ADD, 1, D(100, 0, EU_TYPE_UD),
               G(100, 0, EU_TYPE_UD, R_0_1_0), IMM(EU_TYPE_UD, 1)),
        asm_flow(EU_OP_WHILE, 1, -16, 0),
    };
    Bb b = { f, BATCH_STATE_SPLIT };
    uint32_t idd, curbe;
    IntelMediaDispatch *d = &eng(f, RCS)->gfx.media.run;

    asm_emit(f->fh->ram + BATCH + BATCH_STATE_SPLIT, k, 2);
    b.ptr += 64;
    idd = b.ptr;
    put_idd(f, idd, &(Gen11_INTERFACE_DESCRIPTOR_DATA) {
        .kernel_start_pointer = BATCH_STATE_SPLIT,
        .sampler_state_pointer = 0x2a0,
        .binding_table_pointer = 0x3c0,
        .constant_urb_entry_read_length = read_len,
        .constant_urb_entry_read_offset = read_off,
        .number_of_threads_in_gpgpu_thread_group = 1,
        .cross_thread_constant_data_read_length = cross,
    });
    curbe = idd + 64;
    for (unsigned i = 0; i < 16; i++) {
        ram_w32(f, BATCH + curbe + 4 * i, 0x100 + i);
    }
    b.ptr = 0;
    emit_sba(&b);
    emit_media_state(&b, 1, 0, 2, curbe, idd);
    bb_outn(&b, cmd, len);
    bb_out(&b, MI_BATCH_BUFFER_END);
    g_assert_cmpuint(run_until_idle(f, 2), ==, 2);
    g_assert_true(d->running);
    return &d->thread;
}

static uint32_t grf_ud(const EuThread *t, unsigned reg, unsigned i)
{
    uint32_t v;

    memcpy(&v, t->grf + reg * EU_GRF_BYTES + 4 * i, 4);
    return GUINT32_FROM_LE(v);
}

/*
 * MEDIA_OBJECT's payload (PRM Vol 7, "Thread Payload"): R0, the CURBE
 * from its read offset (1 register of 1), the indirect data (40 bytes:
 * two registers, the second zero-padded), the inline data.
 */
static void test_media_object_payload(Fixture *f, gconstpointer data)
{
    Gen11_MEDIA_OBJECT mo = {
        .indirect_data_length = 40,
        .indirect_data_start_address = DATA,
    };
    uint32_t cmd[GEN11_MEDIA_OBJECT_LENGTH + 3];
    EuThread *t;

    gen11_media_object_pack(cmd, &mo);
    cmd[0] = GEN11_MEDIA_OBJECT_HEADER |
             (G_N_ELEMENTS(cmd) - GEN11_MEDIA_OBJECT_BIAS);
    for (unsigned i = 0; i < 3; i++) {
        cmd[GEN11_MEDIA_OBJECT_INLINE_DATA_DW + i] = 0xa + i;
    }
    for (unsigned i = 0; i < 16; i++) {
        ram_w32(f, DATA + 4 * i, 0xd00 + i);
    }
    t = payload_run(f, 1, 1, 0, cmd, G_N_ELEMENTS(cmd));
    g_assert_cmphex(t->exec_mask, ==, 0xffff);
    g_assert_cmphex(grf_ud(t, 0, 3), ==, 0x2a0);
    g_assert_cmphex(grf_ud(t, 0, 4), ==, 0x3c0);
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmphex(grf_ud(t, 1, i), ==, 0x108 + i);
        g_assert_cmphex(grf_ud(t, 2, i), ==, 0xd00 + i);
        g_assert_cmphex(grf_ud(t, 3, i), ==, i < 2 ? 0xd08 + i : 0);
        g_assert_cmphex(grf_ud(t, 4, i), ==, i < 3 ? 0xa + i : 0);
        g_assert_cmphex(grf_ud(t, 5, i), ==, 0);
    }
}

/*
 * GPGPU_WALKER's first thread: SIMD32, 2 threads a group (the first is
 * not the rightmost: the bottom mask only), groups from (5, 3, 2); R0
 * has the group IDs, R1 the cross-thread data, R2 the thread's own.
 */
static void test_walker_payload(Fixture *f, gconstpointer data)
{
    Gen11_GPGPU_WALKER w = {
        .simd_size = 2,                         /* SIMD32 */
        .thread_width_counter_maximum = 1,
        .thread_group_id_starting_x = 5,
        .thread_group_id_x_dimension = 7,
        .thread_group_id_starting_y = 3,
        .thread_group_id_y_dimension = 4,
        .thread_group_id_starting_resume_z = 2,
        .thread_group_id_z_dimension = 3,
        .right_execution_mask = 0x0000ffff,
        .bottom_execution_mask = 0x00ff00ff,
    };
    IntelMediaDispatch *d = &eng(f, RCS)->gfx.media.run;
    uint32_t cmd[GEN11_GPGPU_WALKER_LENGTH];
    EuThread *t;

    gen11_gpgpu_walker_pack(cmd, &w);
    t = payload_run(f, 1, 0, 1, cmd, G_N_ELEMENTS(cmd));
    g_assert_cmphex(t->exec_mask, ==, 0x00ff00ff);
    g_assert_cmpuint(grf_ud(t, 0, 1), ==, 5);
    g_assert_cmpuint(grf_ud(t, 0, 6), ==, 3);
    g_assert_cmpuint(grf_ud(t, 0, 7), ==, 2);
    g_assert_cmpuint(grf_ud(t, 0, 5), ==, 0);
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmphex(grf_ud(t, 1, i), ==, 0x100 + i);
        g_assert_cmphex(grf_ud(t, 2, i), ==, 0x108 + i);
        g_assert_cmphex(grf_ud(t, 3, i), ==, 0);
    }
    g_assert_cmpuint(d->simd, ==, 32);
    g_assert_cmpuint(d->tw, ==, 2);
    g_assert_cmpuint(d->tid, ==, 0);
}

/* A media command shorter than its fields is an instruction error. */
static void test_short_commands(Fixture *f, gconstpointer data)
{
    static const uint32_t ops[] = {
        GEN11_MEDIA_VFE_STATE_HEADER, GEN11_MEDIA_CURBE_LOAD_HEADER,
        GEN11_MEDIA_INTERFACE_DESCRIPTOR_LOAD_HEADER,
        GEN11_GPGPU_WALKER_HEADER, GEN11_MEDIA_OBJECT_HEADER,
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(ops); i++) {
        Bb b = { f, 0 };

        fixture_teardown(f, NULL);
        fixture_setup_ggtt(f, NULL);
        i915_enable_error_interrupt(f, RCS);
        bb_out(&b, ops[i] | (3 - 2));
        bb_out(&b, 0);
        bb_out(&b, 0);
        bb_out(&b, MI_BATCH_BUFFER_END);
        run_until_idle(f, 3);
        g_assert_cmphex(erd(f, RCS, INTEL_RING_EIR), ==,
                        INTEL_ERROR_INSTRUCTION);
        g_assert_cmpuint(eng(f, RCS)->gfx.media.run.kind, ==,
                         INTEL_MEDIA_IDLE);
    }
}

static const FixtureTest tests[] = {
    { "/intel-media/gpgpu-fill", test_gpgpu_fill },
    { "/intel-media/gpgpu-fill-right-mask", test_gpgpu_fill_right_mask },
    { "/intel-media/media-fill", test_media_fill },
    { "/intel-media/hostile-walker", test_hostile_walker },
    { "/intel-media/endless-kernel", test_endless_kernel },
    { "/intel-media/kernel-pacing", test_kernel_pacing },
    { "/intel-media/cs-stall-drains", test_cs_stall_drains },
    { "/intel-media/wild-kernel", test_wild_kernel },
    { "/intel-media/walker-without-descriptors",
      test_walker_without_descriptors },
    { "/intel-media/short-commands", test_short_commands },
    { "/intel-media/media-object-payload", test_media_object_payload },
    { "/intel-media/walker-payload", test_walker_payload },
    { "/intel-media/walker-preempt", test_walker_preempt },
    { "/intel-media/walker-preempt-command-level",
      test_walker_preempt_command_level },
};

FIXTURE_MAIN(fixture_setup_ggtt)
