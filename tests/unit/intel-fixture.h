/*
 * The intel-gpu unit tests' fixture: a device on the fake host, register
 * and guest-memory access, and the ways i915 drives the command
 * streamers (legacy rings, execlists contexts, PPGTT tables).
 *
 * Memory: the fake host's RAM is at physical 0; fixture_setup_ggtt()
 * maps the first 8 MiB of the GGTT onto it one to one, so a GGTT address
 * below 8 MiB is the physical address.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_UNIT_INTEL_FIXTURE_H
#define TESTS_UNIT_INTEL_FIXTURE_H

#include <string.h>
#include <glib.h>
#include "fake-host.h"
#include "intel-cmd-builder.h"
#include "intel-i915.h"

struct Fixture {
    FakeHost *fh;
    IntelGpu *gpu;
    uint64_t next_table;        /* PPGTT table allocator */
};

#define RCS     INTEL_RCS0
#define BCS     INTEL_BCS0
#define USER    INTEL_GT_RENDER_USER_INTERRUPT
#define CTXSW   INTEL_GT_CONTEXT_SWITCH
#define CS_ERR  INTEL_GT_CS_MASTER_ERROR

/* Memory map (GGTT == physical below GGTT_MAPPED). */
#define GGTT_MAPPED     (8u << 20)
#define UNMAPPED        0x00F00000u     /* GGTT address with no PTE */
#define HWSP_RCS        0x001000u
#define HWSP_BCS        0x002000u
#define RING_RCS        0x010000u
#define RING_BCS        0x020000u
#define RING_SIZE       0x10000u
#define BATCH           0x030000u
#define BATCH2          0x031000u
#define BATCH3          0x032000u
#define DATA            0x040000u
#define MARK            0x041000u
#define SEM             0x050000u
#define SEM2            0x050100u
#define CTX_A           0x080000u
#define CTX_B           0x090000u
#define CTX_C           0x0A0000u
#define CRING_A         0x0C0000u
#define CRING_B         0x0D0000u
#define CRING_C         0x0E0000u
#define CRING_SIZE      0x4000u
#define TABLES          0x100000u       /* PPGTT tables, bump-allocated */
#define SURF            0x200000u       /* blit surfaces */
#define USER_VA         0x40000000ull   /* 2 MiB page -> PA 0x600000 */
#define USER_PA         0x600000u

#define STEP_NS         1000000u        /* 1 ms: plenty for short streams */

typedef void FixtureTestFn(Fixture *f, gconstpointer data);

/* A device made with the IntelGpuConfig @cfg (NULL: intel_test_cfg). */
void fixture_setup(Fixture *f, gconstpointer cfg);
/* The same with the GGTT's first GGTT_MAPPED bytes mapped one to one. */
void fixture_setup_ggtt(Fixture *f, gconstpointer cfg);
/* That, and the interrupts enabled as i915 does (i915_irq_postinstall). */
void fixture_setup_i915(Fixture *f, gconstpointer cfg);
void fixture_teardown(Fixture *f, gconstpointer data);
typedef struct FixtureTest {
    const char *path;
    FixtureTestFn *fn;
} FixtureTest;

/* A test program's main(): @n @tests, each on a device from @setup. */
int fixture_main(int argc, char **argv,
                 void (*setup)(Fixture *, gconstpointer),
                 const FixtureTest *tests, size_t n);
/* main() of a test program whose tests are in tests[]. */
#define FIXTURE_MAIN(setup) \
    int main(int argc, char **argv) \
    { \
        return fixture_main(argc, argv, (setup), tests, G_N_ELEMENTS(tests)); \
    }

/* ---- registers ---- */

uint32_t rd(Fixture *f, uint32_t off);
void wr(Fixture *f, uint32_t off, uint32_t val);
IntelEngine *eng(Fixture *f, IntelEngineId id);
/* Engine @id's register at @off from its base. */
uint32_t erd(Fixture *f, IntelEngineId id, uint32_t off);
void ewr(Fixture *f, IntelEngineId id, uint32_t off, uint32_t val);
uint32_t gpr_reg(Fixture *f, IntelEngineId id, unsigned n);
uint64_t gpr(Fixture *f, IntelEngineId id, unsigned n);
void set_gpr(Fixture *f, IntelEngineId id, unsigned n, uint64_t v);
bool engine_idle(Fixture *f, IntelEngineId id);
/* HEAD's offset, without its wrap count. */
uint32_t head_offset(Fixture *f, IntelEngineId id);
uint64_t commands(Fixture *f, IntelEngineId id);
/* intel_uncore's fw_domain_get/put: FORCEWAKE_KERNEL, masked. */
void forcewake(Fixture *f, uint32_t req, bool on);

/* ---- guest memory (physical addresses) ---- */

uint32_t ram_r32(Fixture *f, uint64_t pa);
uint64_t ram_r64(Fixture *f, uint64_t pa);
void ram_w32(Fixture *f, uint64_t pa, uint32_t v);
void ram_w64(Fixture *f, uint64_t pa, uint64_t v);
/* Advance the clock by STEP_NS. */
void step(Fixture *f);

/* ---- interrupts, as i915 handles them ---- */

/*
 * Service GT INT DW0 bit @bit (RCS 0, BCS 15) if it is set: the identity
 * (0 if the bit was clear), and the bit acknowledged.
 */
uint32_t take_irq(Fixture *f, unsigned bit);
/* i915's enable_error_interrupt: EMR ~0, EIR cleared, ESR 0, EMR ~1. */
void i915_enable_error_interrupt(Fixture *f, IntelEngineId id);
/* After a reset: defaults, nothing in error, idle. */
void assert_engine_reset(Fixture *f, IntelEngineId id);

/* ---- legacy rings (RING_MODE bit 3 clear) ---- */

/* Ring of RING_SIZE bytes at @start: HEAD 0, TAIL @tail (the doorbell). */
void ring_start(Fixture *f, IntelEngineId id, uint64_t start, uint32_t tail);

/* A ring filled through a Buf: the TAIL write is the doorbell. */
typedef struct Ring {
    Buf b;
    IntelEngineId id;
} Ring;

void ring_init(Fixture *f, Ring *r, IntelEngineId id, uint64_t start);
void ring_submit(Ring *r);
/* Submit and run STEP_NS. */
void ring_run(Ring *r);

/* ---- PPGTT (4-level, i915's layout) ---- */

uint64_t table_alloc(Fixture *f);
void map_4k(Fixture *f, uint64_t pml4, uint64_t va, uint64_t pa);
void map_2m(Fixture *f, uint64_t pml4, uint64_t va, uint64_t pa);

/* ---- execlists ---- */

/*
 * A context image laid out as i915's gen8_xcs_offsets (gen11 headers:
 * posted, CS MMIO): value slots at these state-page dwords.
 */
#define CTX_CONTEXT_CONTROL     0x03
#define CTX_RING_HEAD           0x05
#define CTX_RING_TAIL           0x07
#define CTX_RING_START          0x09
#define CTX_RING_CTL            0x0B
#define CTX_BB_STATE            0x11
#define CTX_TIMESTAMP           0x23
#define CTX_PDP0_UDW            0x31
#define CTX_PDP0_LDW            0x33

typedef struct Ctx {
    Fixture *f;
    IntelEngineId id;
    uint64_t lrca;
    uint32_t ccid;
    Buf ring;
} Ctx;

/* The address of state-page dword @slot of @c's image. */
uint64_t ctx_state(Ctx *c, unsigned slot);
/* Context @ccid at @lrca with a CRING_SIZE ring at @ring, PML4 @pml4. */
void ctx_init(Fixture *f, Ctx *c, IntelEngineId id, uint64_t lrca,
              uint64_t ring, uint32_t ccid, uint64_t pml4);
/* i915's execlists_update_context: only CTX_RING_TAIL changes. */
void ctx_set_tail(Ctx *c);
uint32_t ctx_head(Ctx *c);
/* Valid, legacy 64-bit (4-level PPGTT) addressing, privileged. */
uint64_t ctx_desc(Ctx *c);
/* What i915 programs: enable_execlists, error interrupt, CSB reset. */
void execlists_init(Fixture *f, IntelEngineId id, uint64_t hwsp);
/* execlists_submit_ports: element 1 first, then 0, then Load. */
void elsq_submit(Fixture *f, IntelEngineId id, uint64_t d0, uint64_t d1);
/* The tail updated, @c alone in a Load. */
void ctx_submit(Ctx *c);
/* Execlists on RCS and a context, A (ID 0x41). */
void one_context(Fixture *f, Ctx *a);
/* Execlists on RCS and two contexts, A (ID 0x41) and B (ID 0x42). */
void two_contexts(Fixture *f, Ctx *a, Ctx *b);
/* The status of a context that completed and left the engine idle. */
#define CSB_DONE    (INTEL_CSB_COMPLETE | INTEL_CSB_ACTIVE_IDLE)
/* Context-status buffer entry @i in the status page at @hwsp. */
uint32_t csb_lo(Fixture *f, uint64_t hwsp, unsigned i);
uint32_t csb_hi(Fixture *f, uint64_t hwsp, unsigned i);
uint32_t csb_write_ptr(Fixture *f, uint64_t hwsp);

#endif
