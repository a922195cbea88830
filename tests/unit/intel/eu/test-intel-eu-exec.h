/*
 * The EU interpreter's unit tests (test-intel-eu-exec*.c, one program):
 * what they share, and the tests of each file that test-intel-eu-exec.c
 * registers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TEST_INTEL_EU_EXEC_H
#define TEST_INTEL_EU_EXEC_H

#include "eu-asm.h"

#define UD EU_TYPE_UD
#define SD EU_TYPE_D
#define UW EU_TYPE_UW
#define SW EU_TYPE_W
#define UB EU_TYPE_UB
#define FT EU_TYPE_F
#define HF EU_TYPE_HF

/* The kernel under test (run() and thread_for() assemble into it). */
extern uint8_t code[64 * 16];

typedef struct SendLog {
    unsigned calls;
    uint32_t desc, ex_desc;
    unsigned sfid;
    int ret;
} SendLog;

int fake_send(EuThread *t, const EuInst *in, uint32_t desc,
              uint32_t ex_desc, void *opaque);
EuThread *thread_for(const EuNative *prog, size_t n, uint32_t mask,
                     SendLog *log);
EuThread *run(const EuNative *prog, size_t n, uint32_t mask);
uint32_t ud(EuThread *t, unsigned reg, unsigned i);
float fl(EuThread *t, unsigned reg, unsigned i);

#define EOT asm_send(8, 127, 127, EU_SFID_THREAD_SPAWNER, 0x02000010, true)
#define RUN(mask, ...) \
    run((const EuNative[]){ __VA_ARGS__, EOT }, \
        sizeof((const EuNative[]){ __VA_ARGS__, EOT }) / sizeof(EuNative), \
        (mask))

/*
 * Kernels that first fill a register with the dwords 0..7 (IOTA_WORDS,
 * IOTA_WIDEN(r)): the vector immediate into packed words in g126 (the
 * PRM's destination stride for it), then widened into r.
 */
#define IOTA_WORDS asm_1(EU_OP_MOV, 8, D(126, 0, UW), \
                         IMM(EU_TYPE_UB, 0x76543210))
#define IOTA_WIDEN(r) asm_1(EU_OP_MOV, 8, D(r, 0, UD), \
                            G(126, 0, UW, R_8_8_1))

/* test-intel-eu-exec-flow.c: branches, calls, masks, sends, the budget. */
void test_goto(void);
void test_goto_join(void);
void test_calla_ret_mask(void);
void test_unsupported_fault(void);
void test_cmp_pred_sel(void);
void test_sel_minmax_nan(void);
void test_cmp_predicated(void);
void test_flag_width_and_pred_send(void);
void test_exec_mask_and_mad(void);
void test_nested_if_else(void);
void test_loop_break_cont(void);
void test_break_inside_if(void);
void test_budget_and_hostile(void);
void test_send_callback(void);
void test_call_ret_jmpi(void);
void test_wait_notify(void);

/* test-intel-eu-exec-random.c: random kernels, fast and generic paths. */
void test_random_kernels(void);
void test_fast_paths_agree(void);

#endif
