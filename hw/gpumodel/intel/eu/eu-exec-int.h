/*
 * Gen11 EU interpreter internals: what the interpreter's files share.
 *
 *   eu-region.c      register regions: operand addressing, source
 *                    modifiers, type conversion, flags and predication
 *   eu-alu.c         the generic ALU path, one channel at a time, an
 *                    instruction's work looked up by opcode
 *   eu-fast.c        the fast paths on whole registers and the choice of
 *                    an instruction's fast executor
 *   eu-fast-simple.c the simplest forms, compiled per source shape
 *   eu-fast-acc.c    mad through the NF accumulator
 *   eu-flow.c        structured control flow: channels parked and resumed
 *   eu-exec.c        programs, instruction fetch and the run loop
 *
 * The public API is eu-exec.h.  The fast paths' helpers are static inline
 * here so that each file's executors are compiled as they were in one
 * file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPUMODEL_INTEL_EU_EXEC_INT_H
#define GPUMODEL_INTEL_EU_EXEC_INT_H

#include "eu-exec.h"

/* One channel's value: a float as a double, an integer extended. */
typedef struct Val {
    bool fp;
    double f;
    int64_t i;
} Val;

static inline bool eu_type_is_signed(unsigned t)
{
    return t == EU_TYPE_D || t == EU_TYPE_W || t == EU_TYPE_B ||
           t == EU_TYPE_Q || t == EU_TYPE_V;
}

/* The first channel of the instruction's group (quarter and nibble). */
static inline unsigned eu_group_base(const EuInst *in)
{
    return in->qtr * 8 + in->nib * 4;
}

/* eu-region.c: operands, type conversion, flags and predication. */
void eu_fault(EuThread *t, const char *why);
uint8_t *eu_elem_ptr(EuThread *t, const EuOperand *o, unsigned c, bool dst);
Val eu_read_raw(unsigned type, const uint8_t *p);
Val eu_read_src(EuThread *t, const EuInst *in, int s, unsigned c);
Val eu_read_near(EuThread *t, const EuInst *in, int s, unsigned c,
                 int delta);
uint64_t eu_type_convert(Val v, unsigned type, bool sat);
void eu_write_dst(EuThread *t, const EuInst *in, unsigned c, Val v);
void eu_set_flag(EuThread *t, const EuInst *in, unsigned ch, bool v);
bool eu_predicate(const EuThread *t, const EuInst *in, unsigned c);
bool eu_cond_holds(unsigned cond, Val v);

/* eu-alu.c: the generic executor of ALU instructions. */
bool eu_is_raw_mov(const EuInst *in);
void eu_exec_alu(EuThread *t, const EuInst *in);

/*
 * The fast paths (eu-fast*.c).  eu_fast_exec_for() gives the common forms
 * (direct GRF operands with contiguous or scalar regions, exec size up to
 * 16, F or integer types, normal or no predication) an executor that
 * works on whole registers: the operand offsets and strides are resolved
 * when the instruction is cached, so no bounds checks or region
 * arithmetic remain per channel.  The arithmetic is the generic path's,
 * step for step (floats through double, integers through their extended
 * 64-bit values), so both give the same bits; test-intel-eu-exec's
 * differential test checks it.  The GRF holds little-endian values: the
 * fast paths assume a little-endian host and are left out on others.
 */
#define EU_FAST_LANES 16

EuExecFn eu_fast_exec_for(EuInst *in);
EuExecFn eu_fast_simple_exec_for(const EuInst *in, bool fp, bool null_dst);
void eu_fast_exec_mad_nf(EuThread *t, const EuInst *in);

/* The 32 bits of scalar source s: its immediate, or its register's. */
static inline __attribute__((always_inline))
uint32_t eu_fast_scalar(const EuThread *t, const EuInst *in, int s)
{
    uint32_t x = in->src[s].imm;

    if (in->src[s].file != EU_FILE_IMM) {
        memcpy(&x, t->grf + in->fast_src[s], 4);
    }
    return x;
}

/* ... as an F. */
static inline __attribute__((always_inline))
float eu_fast_scalar_f(const EuThread *t, const EuInst *in, int s)
{
    uint32_t u = eu_fast_scalar(t, in, s);
    float x;

    memcpy(&x, &u, 4);
    return x;
}

/* Channels enabled by the mask and, unless told not to, the predicate. */
static inline uint32_t eu_fast_enables(const EuThread *t, const EuInst *in,
                                       bool pred_masks)
{
    unsigned g = eu_group_base(in);
    uint32_t all = (1u << in->exec_size) - 1;
    uint32_t en = in->mask_ctrl ? all : (t->active >> g) & all;

    if (pred_masks && in->pred_ctrl == EU_PRED_NORMAL) {
        unsigned b = in->flag_subnr * 16 + g;
        uint32_t f = b < 32 ? (uint32_t)(t->flag[in->flag_nr] >> b) : 0;

        en &= in->pred_inv ? ~f : f;
    }
    return en;
}

/* The predicate's value per channel (sel without a condition). */
static inline uint32_t eu_fast_pred(const EuThread *t, const EuInst *in)
{
    unsigned b = in->flag_subnr * 16 + eu_group_base(in);
    uint32_t f;

    if (in->pred_ctrl == EU_PRED_NONE) {
        return ~0u;
    }
    f = b < 32 ? (uint32_t)(t->flag[in->flag_nr] >> b) : 0;
    return in->pred_inv ? ~f : f;
}

/* Write the condition bits of the enabled channels to the flag. */
static inline void eu_fast_set_flags(EuThread *t, const EuInst *in,
                                     uint32_t en, uint32_t bits)
{
    unsigned b = in->flag_subnr * 16 + eu_group_base(in);
    uint32_t m;

    if (b >= 32) {
        return;
    }
    m = en << b;
    t->flag[in->flag_nr] = (t->flag[in->flag_nr] & ~m) | ((bits << b) & m);
}

/* Store the enabled lanes of r at the destination. */
static inline void eu_fast_store(EuThread *t, const EuInst *in, uint32_t en,
                                 const void *r, unsigned size)
{
    unsigned n = in->exec_size;
    uint8_t *d;

    if (in->fast_dst == UINT16_MAX) {
        return;                 /* a null destination: flags only */
    }
    d = t->grf + in->fast_dst;
    if (en == (1u << n) - 1) {
        /* Constant sizes: the compiler turns them into vector stores. */
        if (n == 16 && size == 4) {
            memcpy(d, r, 64);
        } else if (n == 8 && size == 4) {
            memcpy(d, r, 32);
        } else {
            memcpy(d, r, size * n);
        }
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        if ((en >> i) & 1) {
            memcpy(d + size * i, (const uint8_t *)r + size * i, size);
        }
    }
}

/* The comparisons of the fast cmp, lane for lane. */
#define EU_FAST_EQ(x, y) ((x) == (y))
#define EU_FAST_NE(x, y) ((x) != (y))
#define EU_FAST_GT(x, y) ((x) > (y))
#define EU_FAST_GE(x, y) ((x) >= (y))
#define EU_FAST_LT(x, y) ((x) < (y))
#define EU_FAST_LE(x, y) ((x) <= (y))

/* Channels a control-flow instruction applies to (active & predicate). */
static inline uint32_t eu_cf_chans(EuThread *t, const EuInst *in)
{
    uint32_t m = 0;
    unsigned g = eu_group_base(in);

    if (in->pred_ctrl <= EU_PRED_NORMAL && in->exec_size <= EU_FAST_LANES &&
        g + in->exec_size <= EU_MAX_CHANNELS) {
        uint32_t all = (1u << in->exec_size) - 1;

        return ((t->active >> g) & all & eu_fast_pred(t, in)) << g;
    }

    for (unsigned c = 0; c < in->exec_size && g + c < EU_MAX_CHANNELS; c++) {
        if (((t->active >> (g + c)) & 1) && eu_predicate(t, in, c)) {
            m |= 1u << (g + c);
        }
    }
    return m;
}

/* eu-flow.c: structured control flow. */
uint32_t eu_exec_flow(EuThread *t, const EuInst *in);
void eu_resume_channels(EuThread *t);

#endif
