/*
 * The shared functions' unit tests (test-intel-sf*.c, one program): the
 * memory layout, message descriptors and helpers they share, and the
 * tests of each file that test-intel-sf.c registers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TEST_INTEL_SF_H
#define TEST_INTEL_SF_H

#include "intel-fixture.h"
#include "intel/sf/sf.h"


/* Memory (GGTT == physical). */
#define SSB             0x300000u       /* surface state base */
#define SS_AT           0x1000u         /* surface states, 64 B each */
#define DSB             0x310000u       /* dynamic state base */
#define SAMPLERS        0x100u
#define BORDER          0x200u
#define BLEND           0x400u
#define SURF_A          0x320000u
#define SURF_B          0x340000u
#define GSB             0x380000u       /* general state base */

#define TILE_LINEAR     0
#define TILE_X          2
#define TILE_Y          3

#define DESC(mlen, rlen, hdr, rest) \
    ((uint32_t)(mlen) << 25 | (uint32_t)(rlen) << 20 | \
     (uint32_t)(hdr) << 19 | (rest))
/* Sampler: SIMD mode 18:17, message type 16:12, sampler 11:8, BTI 7:0. */
#define SMP(simd, type, bti) \
    ((uint32_t)((simd) == 16 ? 2 : 1) << 17 | (uint32_t)(type) << 12 | (bti))
/* Data port: message type 18:14, control 13:8, BTI 7:0. */
#define DP(type, ctrl, bti) \
    ((uint32_t)(type) << 14 | (uint32_t)(ctrl) << 8 | (bti))

typedef struct Sf {
    Fixture *f;
    EuThread *t;
    EuInst in;
    IntelSfThread th;
    IntelSfStats st;
} Sf;

void sf_init(Fixture *f, Sf *s, unsigned simd);
void sf_fini(Sf *s);
int sf_sends(Sf *s, unsigned sfid, uint32_t desc, uint32_t ex_desc,
             unsigned exec, unsigned src, unsigned src1, unsigned dst);
int sf_send(Sf *s, unsigned sfid, uint32_t desc, unsigned exec,
            unsigned src, unsigned dst);
void set_ud(Sf *s, unsigned reg, unsigned i, uint32_t v);
void set_f(Sf *s, unsigned reg, unsigned i, float f);
uint32_t get_ud(Sf *s, unsigned reg, unsigned i);
float get_f(Sf *s, unsigned reg, unsigned i);
void set_chan_f(Sf *s, unsigned reg, unsigned c, float f);
float chan_f(Sf *s, unsigned reg, unsigned c);
uint8_t *ram(Fixture *f, uint64_t pa);
/* RENDER_SURFACE_STATE of binding table index @bti: dwords, or packed. */
void put_state(Fixture *f, unsigned bti, const uint32_t ss[16]);
void put_surface_state(Fixture *f, unsigned bti,
                       const Gen11_RENDER_SURFACE_STATE *ss);
void put_surface(Fixture *f, unsigned bti, unsigned type,
                 unsigned format, unsigned w, unsigned h,
                 unsigned pitch, unsigned tile, uint64_t base);
void put_buffer(Fixture *f, unsigned bti, unsigned format,
                uint32_t n, unsigned pitch, uint64_t base);
void put_sampler(Fixture *f, unsigned index, unsigned min,
                 unsigned mag, unsigned wrap_x, unsigned wrap_y);
/* Pixel c of a SIMD16 dispatch: four 2x2 subspans along x. */
unsigned px(unsigned c);
unsigned py(unsigned c);
/* 4x4 R8G8B8A8 at SURF_A: texel (x, y) = (60x, 60y, 10 + x + 4y, 255). */
void put_texture(Fixture *f);
/* SIMD16 sample of (u[c], v[c]) from BTI 1 with sampler 0: g20.. R. */
int sample16(Sf *s, unsigned type, const float *u, const float *v);

/* test-intel-sf-dataport.c: render target writes and the data ports. */
void test_rt_write(Fixture *f, gconstpointer data);
void test_rt_write_simd32(Fixture *f, gconstpointer data);
void test_rt_fast_clear(Fixture *f, gconstpointer data);
void test_rt_write_header(Fixture *f, gconstpointer data);
void test_rt_write_blend_state(Fixture *f, gconstpointer data);
void test_media_block(Fixture *f, gconstpointer data);
void test_untyped(Fixture *f, gconstpointer data);
void test_untyped_atomic(Fixture *f, gconstpointer data);
void test_oword_block(Fixture *f, gconstpointer data);
void test_scratch(Fixture *f, gconstpointer data);
void test_a64(Fixture *f, gconstpointer data);
void test_a64_wide(Fixture *f, gconstpointer data);
void test_byte_scattered(Fixture *f, gconstpointer data);
void test_typed(Fixture *f, gconstpointer data);

/* test-intel-sf-faults.c: malformed messages, faults, random messages. */
void test_malformed(Fixture *f, gconstpointer data);
void test_ppgtt(Fixture *f, gconstpointer data);
void test_page_fault(Fixture *f, gconstpointer data);
void test_random_messages(Fixture *f, gconstpointer data);

/* test-intel-sf-coarse.c: IGT's render copy kernel, coarse access. */
void test_render_copy_kernel(Fixture *f, gconstpointer data);
void test_sample_page_edge(Fixture *f, gconstpointer data);
void test_rt_write_combined(Fixture *f, gconstpointer data);
void test_state_cache(Fixture *f, gconstpointer data);

#endif
