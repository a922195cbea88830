/*
 * Unit tests of the register-file engine (hw/gpumodel/regfile.h) on its
 * own: access kinds, write masks, instances, blocks at several bases,
 * ranges, the table checks, the unmodelled offsets, and the named fields
 * of regfields.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include <glib.h>
#include "fake-host.h"
#include "regfile.h"

/* A model's entry type: the engine's header, then (here) nothing. */
typedef struct TestReg {
    GPU_REG_HEADER;
} TestReg;

/* Offsets as the register maps spell them; fields hang off their names. */
#define T_CTRL      0x40
    GPU_FIELD(T_CTRL, MODE, 4, 3);
    GPU_FIELD(T_CTRL, HIGH, 24, 8);
#define T_STATUS    0x44
#define T_ACK       0x48
#define T_IIR       0x4c
#define T_MODE      0x50
#define T_LIMIT     0x54
#define T_CTR       0x100
#define T_WIN       0x200
#define T_WIN_CTL   0x210
#define T_NEW       0x60

enum { FEAT_NEW = 1 };

#define WINDOW      0x1000
#define FILE_BASE   0x8000

static const TestReg regs[] = {
    GPU_REG_ENTRY_P(T_, CTRL, .access = GPU_REG_RW, .reset = 0x5),
    GPU_REG_ENTRY_P(T_, STATUS, .access = GPU_REG_RO, .reset = 0xabcd),
    GPU_REG_ENTRY_P(T_, ACK, .access = GPU_REG_WO, .wmask = 0xff),
    GPU_REG_ENTRY_P(T_, IIR, .access = GPU_REG_W1C),
    GPU_REG_ENTRY_P(T_, MODE, .access = GPU_REG_MASKED, .reset = 0x1),
    GPU_REG_ENTRY_P(T_, LIMIT, .access = GPU_REG_RW, .wmask = 0x0000fff0),
    /* Four counters 8 bytes apart: the dwords between are not theirs. */
    GPU_REG_ENTRY_P(T_, CTR, .access = GPU_REG_RW, .count = 4, .stride = 8,
                    .reset = 0x77),
    /* A window of storage; one register inside it is refined. */
    GPU_REG_ENTRY_P(T_, WIN, .access = GPU_REG_RO, .count = 16,
                    .range = true, .reset = 0xee),
    GPU_REG_ENTRY_P(T_, WIN_CTL, .access = GPU_REG_RW, .reset = 0x3),
    GPU_REG_ENTRY_P(T_, NEW, .access = GPU_REG_RW, .feature = FEAT_NEW),
};

static const GpuRegBlock block = GPU_REG_BLOCK("test", regs);

/* One table at two bases, as an engine's registers at every engine. */
#define T_UNIT_CFG  0x0
#define T_UNIT_CNT  0x8
static const uint32_t unit_bases[] = { 0x400, 0x800 };
static const TestReg unit_regs[] = {
    GPU_REG_ENTRY_P(T_, UNIT_CFG, .access = GPU_REG_RW, .reset = 0x10),
    GPU_REG_ENTRY_P(T_, UNIT_CNT, .access = GPU_REG_RW, .count = 2),
};
static const GpuRegBlock unit_block =
    GPU_REG_BLOCK("unit", unit_regs, .bases = unit_bases,
                  .nbases = G_N_ELEMENTS(unit_bases));

typedef struct Fixture {
    FakeHost *fh;
    GpuRegUnmodelled unmodelled;
    GpuRegFile rf;
} Fixture;

static void setup(Fixture *f, GpuRegUnmodelledPolicy policy,
                  uint32_t features)
{
    static const GpuRegBlock *const blocks[] = { &block, &unit_block };

    f->fh = fake_host_new();
    gpu_reg_unmodelled_init(&f->unmodelled, &f->fh->host, "t: ", policy,
                            FILE_BASE + WINDOW);
    gpu_regfile_init(&f->rf, "test", FILE_BASE, WINDOW, blocks,
                     G_N_ELEMENTS(blocks), features, &f->unmodelled);
    gpu_regfile_reset(&f->rf);
}

static void fixture_setup(Fixture *f, gconstpointer data)
{
    setup(f, GPU_REG_UNMODELLED_STORAGE, 0);
}

static void fixture_teardown(Fixture *f, gconstpointer data)
{
    gpu_regfile_fini(&f->rf);
    gpu_reg_unmodelled_fini(&f->unmodelled);
    fake_host_free(f->fh);
}

/* What a model's accessor does without handlers. */
static uint32_t rd(Fixture *f, uint32_t off)
{
    const GpuRegBinding *b = gpu_regfile_lookup(&f->rf, off);

    return b ? gpu_regfile_stored(&f->rf, b, off)
             : gpu_regfile_unmodelled_read(&f->rf, off, true);
}

/* Returns what a write handler would be given as the written value. */
static uint32_t wr_mask(Fixture *f, uint32_t off, uint32_t val,
                        uint32_t byte_mask)
{
    const GpuRegBinding *b = gpu_regfile_lookup(&f->rf, off);
    uint32_t written = 0;

    if (b) {
        gpu_regfile_store(&f->rf, b, off, val, byte_mask, &written);
    } else {
        gpu_regfile_unmodelled_write(&f->rf, off, val, byte_mask, true);
    }
    return written;
}

static uint32_t wr(Fixture *f, uint32_t off, uint32_t val)
{
    return wr_mask(f, off, val, 0xffffffff);
}

static void test_rw(Fixture *f, gconstpointer data)
{
    g_assert_cmphex(rd(f, T_CTRL), ==, 0x5);
    wr(f, T_CTRL, 0x12345678);
    g_assert_cmphex(rd(f, T_CTRL), ==, 0x12345678);
    /* A narrow write changes its bytes only. */
    wr_mask(f, T_CTRL, 0xaa00, 0xff00);
    g_assert_cmphex(rd(f, T_CTRL), ==, 0x1234aa78);
    gpu_regfile_reset(&f->rf);
    g_assert_cmphex(rd(f, T_CTRL), ==, 0x5);
}

static void test_ro(Fixture *f, gconstpointer data)
{
    g_assert_cmphex(rd(f, T_STATUS), ==, 0xabcd);
    wr(f, T_STATUS, 0);
    g_assert_cmphex(rd(f, T_STATUS), ==, 0xabcd);
}

static void test_wo(Fixture *f, gconstpointer data)
{
    /* Nothing is stored; the handler would see the masked value. */
    g_assert_cmphex(wr(f, T_ACK, 0x1234), ==, 0x34);
    g_assert_cmphex(f->rf.store[T_ACK / 4], ==, 0);
    f->rf.store[T_ACK / 4] = 0x99;
    g_assert_cmphex(rd(f, T_ACK), ==, 0);
}

static void test_w1c(Fixture *f, gconstpointer data)
{
    f->rf.store[T_IIR / 4] = 0x80000003;
    wr(f, T_IIR, 0x80000001);
    g_assert_cmphex(rd(f, T_IIR), ==, 0x2);
    wr(f, T_IIR, 0);
    g_assert_cmphex(rd(f, T_IIR), ==, 0x2);
    /* Only the bytes written clear. */
    f->rf.store[T_IIR / 4] = 0x0101;
    wr_mask(f, T_IIR, 0xffff, 0x00ff);
    g_assert_cmphex(rd(f, T_IIR), ==, 0x0100);
}

static void test_masked(Fixture *f, gconstpointer data)
{
    g_assert_cmphex(rd(f, T_MODE), ==, 0x1);
    wr(f, T_MODE, 0x00080008);
    g_assert_cmphex(rd(f, T_MODE), ==, 0x9);
    /* Bits without their enable stay; an enable without the bit clears. */
    wr(f, T_MODE, 0x0000fff6);
    g_assert_cmphex(rd(f, T_MODE), ==, 0x9);
    wr(f, T_MODE, 0x00010000);
    g_assert_cmphex(rd(f, T_MODE), ==, 0x8);
}

static void test_wmask(Fixture *f, gconstpointer data)
{
    char *err = NULL;

    f->rf.store[T_LIMIT / 4] = 0;
    g_assert_cmphex(wr(f, T_LIMIT, 0xffffffff), ==, 0xfff0);
    g_assert_cmphex(rd(f, T_LIMIT), ==, 0xfff0);
    g_assert_true(gpu_regfile_check(&f->rf, &err));
    /* Loaded state with a bit outside the mask is refused, by name. */
    f->rf.store[T_LIMIT / 4] = 0x10000;
    g_assert_false(gpu_regfile_check(&f->rf, &err));
    g_assert_nonnull(strstr(err, "LIMIT"));
    g_assert_nonnull(strstr(err, "0x8054"));
    g_free(err);
}

static void test_instances(Fixture *f, gconstpointer data)
{
    for (unsigned k = 0; k < 4; k++) {
        uint32_t off = T_CTR + k * 8;
        const GpuRegBinding *b = gpu_regfile_lookup(&f->rf, off);

        g_assert_nonnull(b);
        g_assert_cmpstr(b->reg->name, ==, "CTR");
        g_assert_cmpuint(gpu_reg_instance(b, off), ==, k);
        g_assert_cmphex(rd(f, off), ==, 0x77);
        g_assert_null(gpu_regfile_lookup(&f->rf, off + 4));
    }
    g_assert_null(gpu_regfile_lookup(&f->rf, T_CTR + 4 * 8));
}

static void test_bases(Fixture *f, gconstpointer data)
{
    for (unsigned u = 0; u < 2; u++) {
        const GpuRegBinding *b =
            gpu_regfile_lookup(&f->rf, unit_bases[u] + T_UNIT_CNT + 4);

        g_assert_nonnull(b);
        g_assert_true(b->block == &unit_block);
        g_assert_cmpuint(b->unit, ==, u);
        g_assert_cmphex(b->base, ==, unit_bases[u]);
        g_assert_cmpuint(gpu_reg_instance(b, unit_bases[u] + T_UNIT_CNT + 4),
                         ==, 1);
        g_assert_cmphex(rd(f, unit_bases[u] + T_UNIT_CFG), ==, 0x10);
        wr(f, unit_bases[u] + T_UNIT_CFG, u + 1);
        wr(f, unit_bases[u] + T_UNIT_CNT, u + 5);
    }
    /* Resetting one instance leaves the other and every other block. */
    wr(f, T_CTRL, 0x42);
    gpu_regfile_reset_unit(&f->rf, &unit_block, 1);
    g_assert_cmphex(rd(f, unit_bases[0] + T_UNIT_CFG), ==, 1);
    g_assert_cmphex(rd(f, unit_bases[0] + T_UNIT_CNT), ==, 5);
    g_assert_cmphex(rd(f, unit_bases[1] + T_UNIT_CFG), ==, 0x10);
    g_assert_cmphex(rd(f, unit_bases[1] + T_UNIT_CNT), ==, 0);
    g_assert_cmphex(rd(f, T_CTRL), ==, 0x42);
}

static void test_range(Fixture *f, gconstpointer data)
{
    const GpuRegBinding *b = gpu_regfile_lookup(&f->rf, T_WIN_CTL);

    g_assert_cmpstr(b->reg->name, ==, "WIN_CTL");
    g_assert_cmpstr(gpu_regfile_lookup(&f->rf, T_WIN + 4)->reg->name, ==,
                    "WIN");
    /* The range's reset value does not overwrite what refines it. */
    g_assert_cmphex(rd(f, T_WIN_CTL), ==, 0x3);
    g_assert_cmphex(rd(f, T_WIN + 0x3c), ==, 0xee);
    wr(f, T_WIN_CTL, 0x7);
    wr(f, T_WIN + 4, 0x7);
    g_assert_cmphex(rd(f, T_WIN_CTL), ==, 0x7);
    g_assert_cmphex(rd(f, T_WIN + 4), ==, 0xee);
}

static void test_features(Fixture *f, gconstpointer data)
{
    GpuRegFile with;
    const GpuRegBlock *const blocks[] = { &block };

    /* Without the feature the register is not there. */
    g_assert_null(gpu_regfile_lookup(&f->rf, T_NEW));
    gpu_regfile_init(&with, "test", FILE_BASE, WINDOW, blocks, 1, FEAT_NEW,
                     &f->unmodelled);
    g_assert_cmpstr(gpu_regfile_lookup(&with, T_NEW)->reg->name, ==, "NEW");
    gpu_regfile_fini(&with);
}

static void test_unmodelled_storage(Fixture *f, gconstpointer data)
{
    char *list;

    g_assert_cmpuint(f->unmodelled.count, ==, 0);
    wr(f, 0x20, 0x12345678);
    g_assert_cmphex(rd(f, 0x20), ==, 0x12345678);
    rd(f, 0x20);
    rd(f, 0x24);
    g_assert_cmpuint(f->unmodelled.count, ==, 2);
    g_assert_cmpuint(f->fh->unimps, ==, 2);
    g_assert_nonnull(strstr(f->fh->last_log, "t: unmodelled register "
                            "0x008024 read, kept as storage"));
    /* Offsets in the set are the device's, not the window's. */
    list = gpu_reg_unmodelled_list(&f->unmodelled);
    g_assert_cmpstr(list, ==, "0x008020 0x008024");
    g_free(list);
    /* A quiet access (context save and restore) is not counted. */
    gpu_regfile_unmodelled_read(&f->rf, 0x28, false);
    g_assert_cmpuint(f->unmodelled.count, ==, 2);
    /* The set is a diagnostic: reset keeps it, storage goes. */
    gpu_regfile_reset(&f->rf);
    g_assert_cmphex(rd(f, 0x20), ==, 0);
    g_assert_cmpuint(f->unmodelled.count, ==, 2);
}

static void test_unmodelled_ignore(void)
{
    Fixture fx, *f = &fx;

    setup(f, GPU_REG_UNMODELLED_IGNORE, 0);
    wr(f, 0x20, 0x12345678);
    g_assert_nonnull(strstr(f->fh->last_log, "t: unmodelled register "
                            "0x008020 written (0x12345678), ignored"));
    g_assert_cmphex(rd(f, 0x20), ==, 0);
    g_assert_cmphex(f->rf.store[0x20 / 4], ==, 0);
    g_assert_cmpuint(f->unmodelled.count, ==, 1);
    g_assert_cmpuint(f->fh->unimps, ==, 1);
    /* Outside the covered space: neither logged nor counted. */
    gpu_reg_unmodelled_note(&f->unmodelled, FILE_BASE + WINDOW, false, 0);
    g_assert_cmpuint(f->unmodelled.count, ==, 1);
    g_assert_cmpuint(f->fh->unimps, ==, 1);
    fixture_teardown(f, NULL);
}

/* Tables are static: a clash is a bug in them, reported by name. */
#define T_DUP_A     0x10
#define T_DUP_B     0x8

static void init_one(const GpuRegBlock *blk)
{
    GpuRegUnmodelled u;
    GpuRegFile rf;

    gpu_reg_unmodelled_init(&u, NULL, "", GPU_REG_UNMODELLED_STORAGE,
                            WINDOW);
    gpu_regfile_init(&rf, "test", 0, WINDOW, &blk, 1, 0, &u);
    gpu_regfile_fini(&rf);
    gpu_reg_unmodelled_fini(&u);
}

static void test_overlap(void)
{
    static const TestReg clash[] = {
        GPU_REG_ENTRY_P(T_, DUP_A, .access = GPU_REG_RW),
        GPU_REG_ENTRY_P(T_, DUP_B, .access = GPU_REG_RW, .count = 3),
    };
    static const GpuRegBlock clash_block = GPU_REG_BLOCK("clash", clash);
    static const TestReg fine[] = {
        GPU_REG_ENTRY_P(T_, DUP_A, .access = GPU_REG_RW),
        GPU_REG_ENTRY_P(T_, DUP_B, .access = GPU_REG_RW, .count = 2),
    };
    static const GpuRegBlock fine_block = GPU_REG_BLOCK("fine", fine);

    if (g_test_subprocess()) {
        init_one(&clash_block);
        return;
    }
    init_one(&fine_block);
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*test: DUP_A and DUP_B both claim 0x10*");
}

static void test_outside(void)
{
    static const TestReg far[] = {
        { .name = "FAR", .offset = WINDOW, .access = GPU_REG_RW },
    };
    static const GpuRegBlock far_block = GPU_REG_BLOCK("far", far);

    if (g_test_subprocess()) {
        init_one(&far_block);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*FAR at 0x1000 is outside its window*");
}

/* A register whose offset macro takes an index, as INTEL_OACEC(n). */
#define T_BANK(n)   (0x300 + 4 * (n))
    GPU_FIELD(T_BANK, ALL, 0, 32);
/* A 64-bit word in memory: a field below bit 32 and one across it. */
GPU_FIELD64(T_DESC, MODE, 3, 2);
GPU_FIELD64(T_DESC, ADDR, 12, 27);

/* Extract and deposit are constant expressions: a table's reset value. */
static const uint32_t ctrl_reset =
    GPU_FIELD_DP32(GPU_FIELD_DP32(0, T_CTRL, MODE, 5), T_CTRL, HIGH, 0x80);

static void test_fields(void)
{
    uint32_t v = 0x80000000 | 5 << 4 | 0xf;
    uint64_t d = ~0ull;

    /* The names are the offset macro's, not its expansion. */
    g_assert_cmpuint(T_CTRL, ==, 0x40);
    g_assert_cmpuint(T_CTRL_MODE_SHIFT, ==, 4);
    g_assert_cmpuint(T_CTRL_MODE_LENGTH, ==, 3);
    g_assert_cmphex(T_CTRL_MODE_MASK, ==, 0x70);
    g_assert_cmphex(T_BANK_ALL_MASK, ==, 0xffffffff);
    /* A mask that reaches bit 31 is unsigned: no sign extension. */
    g_assert_cmphex(T_CTRL_HIGH_MASK, ==, 0xff000000);
    g_assert_cmpuint(GPU_FIELD_EX32(v, T_CTRL, MODE), ==, 5);
    g_assert_cmpuint(GPU_FIELD_EX32(v, T_CTRL, HIGH), ==, 0x80);
    g_assert_cmphex(GPU_FIELD_DP32(v, T_CTRL, MODE, 2), ==, 0x8000002f);
    /* A value wider than the field keeps to the field. */
    g_assert_cmphex(GPU_FIELD_DP32(v, T_CTRL, MODE, 0xff), ==, 0x8000007f);
    g_assert_cmphex(GPU_FIELD_DP32(v, T_CTRL, HIGH, 0), ==, 0x5f);
    g_assert_cmphex(GPU_FIELD_DP32(v, T_BANK, ALL, 0x1234), ==, 0x1234);
    g_assert_cmphex(GPU_FIELD_EX32(v, T_BANK, ALL), ==, v);
    g_assert_cmphex(ctrl_reset, ==, 0x80000050);
    /* 64-bit words: a deposit keeps the bits above 31. */
    g_assert_cmphex(T_DESC_ADDR_MASK, ==, 0x7ffffff000ull);
    g_assert_cmphex(GPU_FIELD_EX64(d, T_DESC, ADDR), ==, 0x7ffffff);
    g_assert_cmphex(GPU_FIELD_EX64(d, T_DESC, MODE), ==, 3);
    g_assert_cmphex(GPU_FIELD_DP64(d, T_DESC, MODE, 1), ==,
                    0xffffffffffffffefull);
    g_assert_cmphex(GPU_FIELD_DP64(d, T_DESC, ADDR, 0), ==,
                    0xffffff8000000fffull);
    g_assert_cmphex(GPU_FIELD_DP64(0, T_DESC, ADDR, 0x12345), ==,
                    0x12345000ull);
    /* The entry's name is the register's, without the prefix. */
    g_assert_cmpstr(regs[0].name, ==, "CTRL");
    g_assert_cmphex(regs[0].offset, ==, 0x40);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
#define add(path, fn) \
    g_test_add("/regfile/" path, Fixture, NULL, fixture_setup, fn, \
               fixture_teardown)
    add("rw", test_rw);
    add("ro", test_ro);
    add("wo", test_wo);
    add("w1c", test_w1c);
    add("masked", test_masked);
    add("wmask", test_wmask);
    add("instances", test_instances);
    add("bases", test_bases);
    add("range", test_range);
    add("features", test_features);
    add("unmodelled/storage", test_unmodelled_storage);
#undef add
    g_test_add_func("/regfile/unmodelled/ignore", test_unmodelled_ignore);
    g_test_add_func("/regfile/overlap", test_overlap);
    g_test_add_func("/regfile/outside", test_outside);
    g_test_add_func("/regfile/fields", test_fields);
    return g_test_run();
}
