/*
 * The intel-gpu unit tests' fixture (intel-fixture.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-fixture.h"

/* ---- the device ---- */

void fixture_setup(Fixture *f, gconstpointer cfg)
{
    f->fh = fake_host_new();
    f->gpu = intel_gpu_new(cfg ? cfg : &intel_test_cfg, &f->fh->host);
    f->next_table = TABLES;
}

void fixture_setup_ggtt(Fixture *f, gconstpointer cfg)
{
    fixture_setup(f, cfg);
    for (uint32_t page = 0; page < GGTT_MAPPED / 4096; page++) {
        intel_ggtt_write_pte(f->gpu, page, (uint64_t)page * 4096 | 1);
    }
}

void fixture_setup_i915(Fixture *f, gconstpointer cfg)
{
    fixture_setup_ggtt(f, cfg);
    i915_irq_postinstall(f->gpu);
}

void fixture_teardown(Fixture *f, gconstpointer data)
{
    intel_gpu_free(f->gpu);
    fake_host_free(f->fh);
}

static void fixture_add(const char *path,
                        void (*setup)(Fixture *, gconstpointer),
                        FixtureTestFn *fn)
{
    g_test_add(path, Fixture, NULL, setup, fn, fixture_teardown);
}

int fixture_main(int argc, char **argv,
                 void (*setup)(Fixture *, gconstpointer),
                 const FixtureTest *tests, size_t n)
{
    g_test_init(&argc, &argv, NULL);
    for (size_t i = 0; i < n; i++) {
        fixture_add(tests[i].path, setup, tests[i].fn);
    }
    return g_test_run();
}

/* ---- registers ---- */

uint32_t rd(Fixture *f, uint32_t off)
{
    return intel_mmio_read(f->gpu, off);
}

void wr(Fixture *f, uint32_t off, uint32_t val)
{
    i915_wr(f->gpu, off, val);
}

IntelEngine *eng(Fixture *f, IntelEngineId id)
{
    return &f->gpu->engine[id];
}

uint32_t erd(Fixture *f, IntelEngineId id, uint32_t off)
{
    return rd(f, eng(f, id)->base + off);
}

void ewr(Fixture *f, IntelEngineId id, uint32_t off, uint32_t val)
{
    wr(f, eng(f, id)->base + off, val);
}

uint32_t gpr_reg(Fixture *f, IntelEngineId id, unsigned n)
{
    return eng(f, id)->base + INTEL_RING_CS_GPR(n);
}

uint64_t gpr(Fixture *f, IntelEngineId id, unsigned n)
{
    return (uint64_t)rd(f, gpr_reg(f, id, n) + 4) << 32 |
           rd(f, gpr_reg(f, id, n));
}

void set_gpr(Fixture *f, IntelEngineId id, unsigned n, uint64_t v)
{
    wr(f, gpr_reg(f, id, n), v);
    wr(f, gpr_reg(f, id, n) + 4, v >> 32);
}

bool engine_idle(Fixture *f, IntelEngineId id)
{
    return erd(f, id, INTEL_RING_MI_MODE) & INTEL_MI_MODE_IDLE;
}

uint32_t head_offset(Fixture *f, IntelEngineId id)
{
    return erd(f, id, INTEL_RING_HEAD) & 0x1ffffc;
}

uint64_t commands(Fixture *f, IntelEngineId id)
{
    return eng(f, id)->stats.commands;
}

void forcewake(Fixture *f, uint32_t req, bool on)
{
    wr(f, req, INTEL_FORCEWAKE_KERNEL << 16 |
               (on ? INTEL_FORCEWAKE_KERNEL : 0));
}

/* ---- guest memory ---- */

uint32_t ram_r32(Fixture *f, uint64_t pa)
{
    uint32_t v;

    g_assert_cmpuint(pa + 4, <=, f->fh->ram_size);
    memcpy(&v, f->fh->ram + pa, 4);
    return GUINT32_FROM_LE(v);
}

uint64_t ram_r64(Fixture *f, uint64_t pa)
{
    return (uint64_t)ram_r32(f, pa + 4) << 32 | ram_r32(f, pa);
}

void ram_w32(Fixture *f, uint64_t pa, uint32_t v)
{
    g_assert_cmpuint(pa + 4, <=, f->fh->ram_size);
    v = GUINT32_TO_LE(v);
    memcpy(f->fh->ram + pa, &v, 4);
}

void ram_w64(Fixture *f, uint64_t pa, uint64_t v)
{
    ram_w32(f, pa, v);
    ram_w32(f, pa + 4, v >> 32);
}

void step(Fixture *f)
{
    fake_host_step(f->fh, STEP_NS);
}

/* ---- interrupts, as i915 handles them ---- */

uint32_t take_irq(Fixture *f, unsigned bit)
{
    uint32_t id;

    if (!(rd(f, INTEL_GT_INTR_DW(0)) & (1u << bit))) {
        return 0;
    }
    id = i915_service_bit(f->gpu, 0, bit);
    wr(f, INTEL_GT_INTR_DW(0), 1u << bit);
    return id;
}

void i915_enable_error_interrupt(Fixture *f, IntelEngineId id)
{
    ewr(f, id, INTEL_RING_EMR, ~0u);
    ewr(f, id, INTEL_RING_EIR, ~0u);
    g_assert_cmphex(erd(f, id, INTEL_RING_ESR), ==, 0);
    ewr(f, id, INTEL_RING_EMR, ~INTEL_ERROR_INSTRUCTION);
}

void assert_engine_reset(Fixture *f, IntelEngineId id)
{
    g_assert_cmphex(rd(f, INTEL_GDRST), ==, 0);
    g_assert_cmphex(erd(f, id, INTEL_RING_ESR), ==, 0);
    g_assert_cmphex(erd(f, id, INTEL_RING_EIR), ==, 0);
    g_assert_cmphex(erd(f, id, INTEL_RING_EMR), ==, 0xffffffff);
    g_assert_cmphex(erd(f, id, INTEL_RING_HEAD), ==, 0);
    g_assert_cmphex(erd(f, id, INTEL_RING_TAIL), ==, 0);
    g_assert_cmphex(erd(f, id, INTEL_RING_CTL), ==, 0);
    g_assert_true(engine_idle(f, id));
}

/* ---- command buffers ---- */

Buf buf_at(Fixture *f, uint64_t base)
{
    return (Buf) { .f = f, .base = base };
}

void emit_n(Buf *b, const uint32_t *dw, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        ram_w32(b->f, b->base + b->pos, dw[i]);
        b->pos += 4;
    }
}

/* ---- legacy rings ---- */

void ring_start(Fixture *f, IntelEngineId id, uint64_t start, uint32_t tail)
{
    ewr(f, id, INTEL_RING_HEAD, 0);
    ewr(f, id, INTEL_RING_START, start);
    ewr(f, id, INTEL_RING_CTL, (RING_SIZE - 4096) | 1);
    ewr(f, id, INTEL_RING_TAIL, tail);
}

void ring_init(Fixture *f, Ring *r, IntelEngineId id, uint64_t start)
{
    r->b = buf_at(f, start);
    r->id = id;
    ewr(f, id, INTEL_RING_HWS_PGA, id == RCS ? HWSP_RCS : HWSP_BCS);
    ewr(f, id, INTEL_RING_CTL, 0);
    ewr(f, id, INTEL_RING_HEAD, 0);
    ewr(f, id, INTEL_RING_TAIL, 0);
    ewr(f, id, INTEL_RING_START, start);
    ewr(f, id, INTEL_RING_CTL, (RING_SIZE - 4096) | 1);
}

void ring_submit(Ring *r)
{
    qword_align(&r->b);
    ewr(r->b.f, r->id, INTEL_RING_TAIL, r->b.pos);
}

void ring_run(Ring *r)
{
    ring_submit(r);
    step(r->b.f);
}

/* ---- PPGTT ---- */

uint64_t table_alloc(Fixture *f)
{
    uint64_t t = f->next_table;

    f->next_table += 4096;
    g_assert_cmpuint(f->next_table, <=, SURF);
    return t;
}

/* The next level's table under entry @idx of @table, created if absent. */
static uint64_t table_next(Fixture *f, uint64_t table, unsigned idx)
{
    uint64_t e = ram_r64(f, table + idx * 8);

    if (!(e & 1)) {
        e = table_alloc(f) | 3;             /* present, RW (i915) */
        ram_w64(f, table + idx * 8, e);
    }
    return e & ~0xfffull;
}

static uint64_t pd_of(Fixture *f, uint64_t pml4, uint64_t va)
{
    uint64_t pdp = table_next(f, pml4, (va >> 39) & 511);

    return table_next(f, pdp, (va >> 30) & 511);
}

void map_4k(Fixture *f, uint64_t pml4, uint64_t va, uint64_t pa)
{
    uint64_t pt = table_next(f, pd_of(f, pml4, va), (va >> 21) & 511);

    ram_w64(f, pt + ((va >> 12) & 511) * 8, pa | 3);
}

void map_2m(Fixture *f, uint64_t pml4, uint64_t va, uint64_t pa)
{
    ram_w64(f, pd_of(f, pml4, va) + ((va >> 21) & 511) * 8, pa | 0x83);
}

/* ---- execlists ---- */

uint64_t ctx_state(Ctx *c, unsigned slot)
{
    return c->lrca + INTEL_LRC_STATE_OFFSET + 4 * slot;
}

void ctx_init(Fixture *f, Ctx *c, IntelEngineId id, uint64_t lrca,
              uint64_t ring, uint32_t ccid, uint64_t pml4)
{
    static const uint16_t lri1[11] = {
        0x244, 0x034, 0x030, 0x038, 0x03c, 0x168, 0x140, 0x110, 0x11c,
        0x114, 0x118,
    };
    static const uint16_t lri2[9] = {
        0x3a8, 0x28c, 0x288, 0x284, 0x280, 0x27c, 0x278, 0x274, 0x270,
    };
    uint32_t base = eng(f, id)->base;
    uint64_t st = lrca + INTEL_LRC_STATE_OFFSET;
    unsigned i = 0;

    *c = (Ctx) { .f = f, .id = id, .lrca = lrca, .ccid = ccid,
                 .ring = buf_at(f, ring) };
    /* A new object, as i915 allocates it: the engine saves all of it. */
    memset(f->fh->ram + lrca, 0, id == RCS ? INTEL_LR_CONTEXT_RENDER_SIZE :
                                             INTEL_LR_CONTEXT_OTHER_SIZE);
    ram_w32(f, st + 4 * i++, MI_NOOP);
    ram_w32(f, st + 4 * i++, MI_LOAD_REGISTER_IMM(11) | MI_LRI_LRM_CS_MMIO |
                             MI_LRI_FORCE_POSTED);
    for (unsigned k = 0; k < 11; k++) {
        ram_w32(f, st + 4 * i, base + lri1[k]);
        i += 2;
    }
    i += 9;                                         /* NOP(9) */
    ram_w32(f, st + 4 * i++, MI_LOAD_REGISTER_IMM(9) | MI_LRI_LRM_CS_MMIO |
                             MI_LRI_FORCE_POSTED);
    for (unsigned k = 0; k < 9; k++) {
        ram_w32(f, st + 4 * i, base + lri2[k]);
        i += 2;
    }
    g_assert_cmpuint(i, ==, 0x34);
    /* i915's set_offsets() closes the image so, from Gen10. */
    ram_w32(f, st + 4 * i, MI_BATCH_BUFFER_END | 1);
    /* i915's init_common_regs: inhibit synchronous switch, restore on. */
    ram_w32(f, ctx_state(c, CTX_CONTEXT_CONTROL), 0x00090008);
    ram_w32(f, ctx_state(c, CTX_RING_START), ring);
    ram_w32(f, ctx_state(c, CTX_RING_CTL), (CRING_SIZE - 4096) | 1);
    ram_w32(f, ctx_state(c, CTX_PDP0_UDW), pml4 >> 32);
    ram_w32(f, ctx_state(c, CTX_PDP0_LDW), pml4);
}

void ctx_set_tail(Ctx *c)
{
    qword_align(&c->ring);
    ram_w32(c->f, ctx_state(c, CTX_RING_TAIL), c->ring.pos);
}

uint32_t ctx_head(Ctx *c)
{
    return ram_r32(c->f, ctx_state(c, CTX_RING_HEAD));
}

uint64_t ctx_desc(Ctx *c)
{
    return GPU_FIELD_DP64((uint64_t)c->ccid << 32 | c->lrca |
                          INTEL_CTX_DESC_VALID | INTEL_CTX_DESC_PRIVILEGE,
                          INTEL_CTX_DESC, ADDR_MODE, 3);
}

void execlists_init(Fixture *f, IntelEngineId id, uint64_t hwsp)
{
    ewr(f, id, INTEL_RING_HWSTAM, ~0u);
    ewr(f, id, INTEL_RING_MODE, 0x00080008);
    ewr(f, id, INTEL_RING_MI_MODE, 0x01000000);
    ewr(f, id, INTEL_RING_HWS_PGA, hwsp);
    i915_enable_error_interrupt(f, id);
    ewr(f, id, INTEL_RING_CONTEXT_STATUS_PTR, 0xffff0b0b);
    for (unsigned i = 0; i < INTEL_CSB_ENTRIES; i++) {
        ram_w64(f, hwsp + (INTEL_HWS_CSB_BUF0 + 2 * i) * 4, ~0ull);
    }
    ram_w32(f, hwsp + INTEL_HWS_CSB_WRITE * 4, 11);
    g_assert_true(intel_cs_execlists_mode(eng(f, id)));
}

void elsq_submit(Fixture *f, IntelEngineId id, uint64_t d0, uint64_t d1)
{
    ewr(f, id, INTEL_RING_EXECLIST_SQ + 8, d1);
    ewr(f, id, INTEL_RING_EXECLIST_SQ + 12, d1 >> 32);
    ewr(f, id, INTEL_RING_EXECLIST_SQ, d0);
    ewr(f, id, INTEL_RING_EXECLIST_SQ + 4, d0 >> 32);
    ewr(f, id, INTEL_RING_EXECLIST_CONTROL, INTEL_EL_CTRL_LOAD);
}

void ctx_submit(Ctx *c)
{
    ctx_set_tail(c);
    elsq_submit(c->f, c->id, ctx_desc(c), 0);
}

void one_context(Fixture *f, Ctx *a)
{
    execlists_init(f, RCS, HWSP_RCS);
    ctx_init(f, a, RCS, CTX_A, CRING_A, 0x41, 0);
}

void two_contexts(Fixture *f, Ctx *a, Ctx *b)
{
    one_context(f, a);
    ctx_init(f, b, RCS, CTX_B, CRING_B, 0x42, 0);
}

uint32_t csb_lo(Fixture *f, uint64_t hwsp, unsigned i)
{
    return ram_r32(f, hwsp + (INTEL_HWS_CSB_BUF0 + 2 * i) * 4);
}

uint32_t csb_hi(Fixture *f, uint64_t hwsp, unsigned i)
{
    return ram_r32(f, hwsp + (INTEL_HWS_CSB_BUF0 + 2 * i) * 4 + 4);
}

uint32_t csb_write_ptr(Fixture *f, uint64_t hwsp)
{
    return ram_r32(f, hwsp + INTEL_HWS_CSB_WRITE * 4);
}
