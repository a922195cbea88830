/*
 * What the nv-gpu PCOUNTER unit test files (test-nv-pcounter*.c) share:
 * the fixture, register access, signal and operation shorthands, and
 * each file's test registration.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef NV_PCOUNTER_TEST_H
#define NV_PCOUNTER_TEST_H

#include <glib.h>
#include "fake-host.h"
#include "gpumodel-math.h"
#include "nvidia/nv-gpu-int.h"

typedef struct Fixture {
    FakeHost *fh;
    NvGpu *gpu;
} Fixture;

#define SRC4(a, b, c, d) ((a) | (b) << 8 | (c) << 16 | (uint32_t)(d) << 24)
#define ONE   NV_SIG_ONE
#define ZERO  NV_SIG_ZERO
#define SYN(n) NV_SIG_SYNTH(n)
#define PER   NV_SIG_PERIODIC
#define OP_ARG0 0xaaaau     /* output = argument 0 */
#define OP_ARG1 0xccccu
#define OP_TRUE 0xffffu

#define EV(d) NV_SIG_DOM_EVENT(d)
#define FL(d) NV_SIG_DOM_FLAG(d)

#define TB12_G84 0x2c       /* envytools: G84/G86 host clock signal */
#define TB12_G92 0x34
#define TB12_GT215 0xa3
#define OP_RISE  0x2222u    /* argument 0 and not argument 1 */

/* test-nv-pcounter.c */
void fixture_open_hz(Fixture *f, const char *chipset,
                     uint32_t wcycles, const uint64_t *hz);
void fixture_open(Fixture *f, const char *chipset, uint32_t wcycles);
void fixture_close(Fixture *f);
uint32_t rd(Fixture *f, uint32_t off);
void wr(Fixture *f, uint32_t off, uint32_t val);
void step(Fixture *f, uint64_t ns);
bool chip_g92(const char *chipset);
extern const uint8_t gt215_user_sig[NV_PCOUNTER_DOMAINS];
void add(const char *path, void (*fn)(Fixture *, gconstpointer),
         const char *chipset);

/* test-nv-pcounter-modes.c */
void quad_setup(Fixture *f, unsigned d, uint32_t pre, uint32_t start,
                uint32_t event, uint32_t stop, uint32_t op);
unsigned quad_state(Fixture *f, unsigned d);
unsigned single_state(Fixture *f, unsigned d);
void nv_pcounter_test_add_modes(void);

/* test-nv-pcounter-record.c */
void record_setup(Fixture *f, unsigned d, uint32_t ctrl,
                  uint32_t start, uint32_t limit);
void nv_pcounter_test_add_record(void);

/* test-nv-pcounter-coupling.c */
void count_setup(Fixture *f, unsigned d, unsigned event,
                 unsigned stop, uint32_t ctrl);
uint32_t swap_read(Fixture *f, unsigned d, uint32_t reg);
bool src_bit(Fixture *f, unsigned d, unsigned i);
void nv_pcounter_test_add_coupling(void);

/* test-nv-pcounter-signals.c */
void nv_pcounter_test_add_signals(void);

/* test-nv-pcounter-random.c */
void nv_pcounter_test_add_random(void);

#endif
