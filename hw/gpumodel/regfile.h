/*
 * gpumodel register file: registers as data, shared by both models.
 *
 * A model describes each hardware block's registers in a static table
 * (GpuRegBlock of entries that begin with a GpuReg).  A GpuRegFile covers
 * one window of a BAR with a dword of storage per dword and a dense index
 * from dword to the entry that claims it, so an access is one lookup.
 * The file applies the access kind and write mask to the storage; the
 * model's read and write handlers, which keep the model's own types, stay
 * in the model's entries and are called by the model's accessor (one
 * cast, in the accessor, from GpuRegBinding to the model's entry).
 *
 * Host-neutral: plain C + GLib, no QEMU header.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_REGFILE_H
#define HW_GPUMODEL_REGFILE_H

#include <glib.h>
#include "host.h"
#include "hw/gpumodel/regfields.h"

typedef enum GpuRegAccess {
    GPU_REG_RW,             /* storage */
    GPU_REG_RO,             /* writes ignored */
    GPU_REG_WO,             /* reads as 0, writes not stored */
    GPU_REG_W1C,            /* writing 1 clears the bit */
    GPU_REG_MASKED,         /* bits 31:16 enable writes of bits 15:0 */
} GpuRegAccess;

/*
 * What a table entry says about a register.  A model's entry type starts
 * with GPU_REG_HEADER, so its tables name these fields directly
 * (.name = ..., .offset = ...) and the file sees the entry as a GpuReg.
 */
#define GPU_REG_FIELDS \
    const char *name;                                                   \
    uint32_t offset;        /* from the block instance's base */        \
    uint32_t count;         /* instances (0 means 1) */                 \
    uint32_t stride;        /* bytes between instances (0 means 4) */   \
    GpuRegAccess access;                                                \
    uint32_t reset;                                                     \
    uint32_t wmask;         /* bits a write may change (0 means all) */ \
    uint32_t aux;           /* for the handlers, e.g. a partner offset */ \
    uint32_t feature;       /* present only with it (0: always) */     \
    bool range;             /* a whole range that later entries refine */

typedef struct GpuReg {
    GPU_REG_FIELDS
} GpuReg;

#define GPU_REG_HEADER \
    union {                                                             \
        GpuReg reg;                                                     \
        struct {                                                        \
            GPU_REG_FIELDS                                              \
        };                                                              \
    }

/*
 * A block's table, placed at one or more bases (an engine's registers sit
 * at every engine's base).  @regs is the first entry's GpuReg, @reg_size
 * the size of the model's entry type: GPU_REG_BLOCK() fills both.
 */
typedef struct GpuRegBlock {
    const char *name;
    const GpuReg *regs;
    size_t reg_size;
    unsigned nregs;
    const uint32_t *bases;  /* NULL: one instance at base 0 */
    unsigned nbases;
} GpuRegBlock;

#define GPU_REG_BLOCK(nm, table, ...) \
    { .name = (nm), .regs = &(table)[0].reg, .reg_size = sizeof((table)[0]), \
      .nregs = G_N_ELEMENTS(table), __VA_ARGS__ }

static inline const GpuReg *gpu_reg_block_entry(const GpuRegBlock *blk,
                                                unsigned i)
{
    return (const GpuReg *)((const char *)blk->regs + i * blk->reg_size);
}

static inline unsigned gpu_reg_count(const GpuReg *r)
{
    return r->count ? r->count : 1;
}

static inline unsigned gpu_reg_stride(const GpuReg *r)
{
    return r->stride ? r->stride : 4;
}

/* One entry of one block instance, as the file indexes it. */
typedef struct GpuRegBinding {
    const GpuReg *reg;
    const GpuRegBlock *block;
    uint32_t base;          /* of the block instance, in the file */
    unsigned unit;          /* index of @base in the block's bases */
} GpuRegBinding;

/* What an offset no entry describes does. */
typedef enum GpuRegUnmodelledPolicy {
    GPU_REG_UNMODELLED_STORAGE,     /* behaves as storage */
    GPU_REG_UNMODELLED_IGNORE,      /* reads as 0, writes ignored */
} GpuRegUnmodelledPolicy;

/*
 * A device's unmodelled offsets: each one is logged (LOG_UNIMP) the first
 * time the guest touches it and counted.  Offsets at or past @size are
 * neither logged nor counted.  The set is a diagnostic over the device's
 * life, not guest-visible state: a reset keeps it.
 */
typedef struct GpuRegUnmodelled {
    const GpuHost *host;
    const char *prefix;     /* of log messages, e.g. "nv-gpu: " */
    GpuRegUnmodelledPolicy policy;
    uint32_t size;          /* bytes of address space covered */
    uint8_t *seen;          /* a bit per dword */
    uint32_t count;         /* bits set in @seen */
} GpuRegUnmodelled;

void gpu_reg_unmodelled_init(GpuRegUnmodelled *u, const GpuHost *host,
                             const char *prefix,
                             GpuRegUnmodelledPolicy policy, uint32_t size);
void gpu_reg_unmodelled_fini(GpuRegUnmodelled *u);
void gpu_reg_unmodelled_note(GpuRegUnmodelled *u, uint32_t offset,
                             bool write, uint32_t val);
/* The offsets seen, ascending, as "0x%06x" separated by spaces. */
char *gpu_reg_unmodelled_list(const GpuRegUnmodelled *u);

/*
 * A window [@base, @base + @size) of the device's address space.  Offsets
 * the file's functions take are from @base; offsets in messages and the
 * unmodelled set are the device's.
 */
typedef struct GpuRegFile {
    const char *name;       /* the device, for messages */
    uint32_t base;
    uint32_t size;
    uint32_t words;         /* @size / 4 */
    uint32_t *store;
    uint16_t *index;        /* dword -> binding number + 1 */
    GpuRegBinding *bindings;
    unsigned nbindings;
    GpuRegUnmodelled *unmodelled;
} GpuRegFile;

/*
 * Index @blocks' entries that @features allow.  Two entries claiming one
 * offset, unless the first is a range, or an entry outside the window:
 * the tables are static, so that is a bug in them and aborts.
 */
void gpu_regfile_init(GpuRegFile *rf, const char *name, uint32_t base,
                      uint32_t size, const GpuRegBlock *const *blocks,
                      unsigned nblocks, uint32_t features,
                      GpuRegUnmodelled *unmodelled);
void gpu_regfile_fini(GpuRegFile *rf);
/* Storage to 0, then every entry to its reset value. */
void gpu_regfile_reset(GpuRegFile *rf);
/* Only the entries of instance @unit of @block. */
void gpu_regfile_reset_unit(GpuRegFile *rf, const GpuRegBlock *block,
                            unsigned unit);
/* A writable entry holds no bit outside its write mask (loaded state). */
bool gpu_regfile_check(const GpuRegFile *rf, char **err);

/* The entry claiming dword @offset (< rf->size), or NULL. */
static inline const GpuRegBinding *gpu_regfile_lookup(const GpuRegFile *rf,
                                                      uint32_t offset)
{
    uint16_t i = rf->index[offset / 4];

    return i ? &rf->bindings[i - 1] : NULL;
}

/* Which instance of its entry @offset is. */
static inline unsigned gpu_reg_instance(const GpuRegBinding *b,
                                        uint32_t offset)
{
    return (offset - b->base - b->reg->offset) / gpu_reg_stride(b->reg);
}

/* The value a read of @b at @offset returns without a read handler. */
static inline uint32_t gpu_regfile_stored(const GpuRegFile *rf,
                                          const GpuRegBinding *b,
                                          uint32_t offset)
{
    return b->reg->access == GPU_REG_WO ? 0 : rf->store[offset / 4];
}

/*
 * A write of @val's bytes in @byte_mask to @b at @offset: the access kind
 * and write mask decide what is stored.  Returns the old stored value;
 * *@written is @val limited to the bytes and the write mask.
 */
static inline uint32_t gpu_regfile_store(GpuRegFile *rf,
                                         const GpuRegBinding *b,
                                         uint32_t offset, uint32_t val,
                                         uint32_t byte_mask,
                                         uint32_t *written)
{
    const GpuReg *r = b->reg;
    uint32_t *slot = &rf->store[offset / 4];
    uint32_t old = *slot;
    uint32_t m = r->wmask ? r->wmask & byte_mask : byte_mask;
    uint32_t en;

    val &= m;
    *written = val;
    switch (r->access) {
    case GPU_REG_RW:
        *slot = (old & ~m) | val;
        break;
    case GPU_REG_RO:
    case GPU_REG_WO:
        break;
    case GPU_REG_W1C:
        *slot = old & ~val;
        break;
    case GPU_REG_MASKED:
        en = val >> 16;
        *slot = (old & ~en) | (val & en);
        break;
    }
    return old;
}

/* An access at @offset that no entry claims (@note: count it). */
static inline uint32_t gpu_regfile_unmodelled_read(GpuRegFile *rf,
                                                   uint32_t offset,
                                                   bool note)
{
    GpuRegUnmodelled *u = rf->unmodelled;

    if (note) {
        gpu_reg_unmodelled_note(u, rf->base + offset, false, 0);
    }
    return u->policy == GPU_REG_UNMODELLED_STORAGE ? rf->store[offset / 4]
                                                   : 0;
}

static inline void gpu_regfile_unmodelled_write(GpuRegFile *rf,
                                                uint32_t offset,
                                                uint32_t val,
                                                uint32_t byte_mask,
                                                bool note)
{
    GpuRegUnmodelled *u = rf->unmodelled;
    uint32_t *slot = &rf->store[offset / 4];

    val &= byte_mask;
    if (note) {
        gpu_reg_unmodelled_note(u, rf->base + offset, true, val);
    }
    if (u->policy == GPU_REG_UNMODELLED_STORAGE) {
        *slot = (*slot & ~byte_mask) | val;
    }
}

#endif
