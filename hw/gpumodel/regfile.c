/*
 * gpumodel register file: indexing the tables, reset, the unmodelled
 * offsets (see regfile.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "regfile.h"

void gpu_reg_unmodelled_init(GpuRegUnmodelled *u, const GpuHost *host,
                             const char *prefix,
                             GpuRegUnmodelledPolicy policy, uint32_t size)
{
    *u = (GpuRegUnmodelled) {
        .host = host, .prefix = prefix, .policy = policy, .size = size,
        .seen = g_new0(uint8_t, size / 32),
    };
}

void gpu_reg_unmodelled_fini(GpuRegUnmodelled *u)
{
    g_free(u->seen);
    u->seen = NULL;
}

static bool regfile_seen(const GpuRegUnmodelled *u, unsigned dw)
{
    return u->seen[dw / 8] & (1u << (dw % 8));
}

void gpu_reg_unmodelled_note(GpuRegUnmodelled *u, uint32_t offset,
                             bool write, uint32_t val)
{
    bool storage = u->policy == GPU_REG_UNMODELLED_STORAGE;
    unsigned dw = offset / 4;

    if (offset >= u->size || regfile_seen(u, dw)) {
        return;
    }
    u->seen[dw / 8] |= 1u << (dw % 8);
    u->count++;
    if (write) {
        gpu_host_log(u->host, GPU_LOG_UNIMP,
                     "%sunmodelled register 0x%06x written (0x%08x), %s",
                     u->prefix, offset, val,
                     storage ? "kept as storage" : "ignored");
    } else {
        gpu_host_log(u->host, GPU_LOG_UNIMP,
                     "%sunmodelled register 0x%06x read%s", u->prefix,
                     offset, storage ? ", kept as storage" : " as 0");
    }
}

char *gpu_reg_unmodelled_list(const GpuRegUnmodelled *u)
{
    GString *s = g_string_new(NULL);

    for (unsigned dw = 0; dw < u->size / 4; dw++) {
        if (regfile_seen(u, dw)) {
            g_string_append_printf(s, "%s0x%06x", s->len ? " " : "", dw * 4);
        }
    }
    return g_string_free(s, false);
}

static bool regfile_present(const GpuReg *reg, uint32_t features)
{
    return !reg->feature || (features & reg->feature);
}

/* Where instance @k of @b's entry is in the file. */
static uint32_t regfile_instance_offset(const GpuRegBinding *b, unsigned k)
{
    return b->base + b->reg->offset + k * gpu_reg_stride(b->reg);
}

static void regfile_index_binding(GpuRegFile *rf, const GpuRegBinding *b)
{
    const GpuReg *reg = b->reg;

    for (unsigned k = 0; k < gpu_reg_count(reg); k++) {
        uint32_t off = regfile_instance_offset(b, k);
        uint16_t prev;

        /* The tables are static: a bad entry is a bug in them. */
        if (off % 4 || off >= rf->size) {
            g_error("%s: %s at 0x%x is outside its window or unaligned",
                    rf->name, reg->name, rf->base + off);
        }
        prev = rf->index[off / 4];
        if (prev && !rf->bindings[prev - 1].reg->range) {
            g_error("%s: %s and %s both claim 0x%x", rf->name,
                    rf->bindings[prev - 1].reg->name, reg->name,
                    rf->base + off);
        }
        rf->index[off / 4] = rf->nbindings;
    }
}

void gpu_regfile_init(GpuRegFile *rf, const char *name, uint32_t base,
                      uint32_t size, const GpuRegBlock *const *blocks,
                      unsigned nblocks, uint32_t features,
                      GpuRegUnmodelled *unmodelled)
{
    unsigned n = 0;

    for (unsigned i = 0; i < nblocks; i++) {
        n += blocks[i]->nregs * MAX(blocks[i]->nbases, 1);
    }
    /* The index stores binding numbers + 1 in 16 bits. */
    g_assert(n < G_MAXUINT16);
    g_assert(size % 4 == 0);

    *rf = (GpuRegFile) {
        .name = name, .base = base, .size = size, .words = size / 4,
        .store = g_new0(uint32_t, size / 4),
        .index = g_new0(uint16_t, size / 4),
        .bindings = g_new0(GpuRegBinding, n),
        .unmodelled = unmodelled,
    };
    for (unsigned i = 0; i < nblocks; i++) {
        const GpuRegBlock *blk = blocks[i];
        unsigned nbases = MAX(blk->nbases, 1);

        for (unsigned u = 0; u < nbases; u++) {
            for (unsigned r = 0; r < blk->nregs; r++) {
                const GpuReg *reg = gpu_reg_block_entry(blk, r);
                GpuRegBinding *b;

                if (!regfile_present(reg, features)) {
                    continue;
                }
                b = &rf->bindings[rf->nbindings++];
                *b = (GpuRegBinding) {
                    .reg = reg, .block = blk, .unit = u,
                    .base = blk->bases ? blk->bases[u] : 0,
                };
                regfile_index_binding(rf, b);
            }
        }
    }
}

void gpu_regfile_fini(GpuRegFile *rf)
{
    g_free(rf->store);
    g_free(rf->index);
    g_free(rf->bindings);
    memset(rf, 0, sizeof(*rf));
}

static void regfile_reset_binding(GpuRegFile *rf, const GpuRegBinding *b)
{
    for (unsigned k = 0; k < gpu_reg_count(b->reg); k++) {
        uint32_t off = regfile_instance_offset(b, k);

        /* A range's reset value must not overwrite what refines it. */
        if (gpu_regfile_lookup(rf, off) == b) {
            rf->store[off / 4] = b->reg->reset;
        }
    }
}

void gpu_regfile_reset(GpuRegFile *rf)
{
    memset(rf->store, 0, rf->size);
    for (unsigned i = 0; i < rf->nbindings; i++) {
        regfile_reset_binding(rf, &rf->bindings[i]);
    }
}

void gpu_regfile_reset_unit(GpuRegFile *rf, const GpuRegBlock *block,
                            unsigned unit)
{
    for (unsigned i = 0; i < rf->nbindings; i++) {
        const GpuRegBinding *b = &rf->bindings[i];

        if (b->block == block && b->unit == unit) {
            regfile_reset_binding(rf, b);
        }
    }
}

bool gpu_regfile_check(const GpuRegFile *rf, char **err)
{
    for (unsigned i = 0; i < rf->nbindings; i++) {
        const GpuRegBinding *b = &rf->bindings[i];
        const GpuReg *reg = b->reg;

        if (!reg->wmask || reg->access != GPU_REG_RW) {
            continue;
        }
        for (unsigned k = 0; k < gpu_reg_count(reg); k++) {
            uint32_t off = regfile_instance_offset(b, k);

            if (rf->store[off / 4] & ~reg->wmask) {
                *err = g_strdup_printf("%s 0x%x: 0x%08x", reg->name,
                                       rf->base + off, rf->store[off / 4]);
                return false;
            }
        }
    }
    return true;
}
