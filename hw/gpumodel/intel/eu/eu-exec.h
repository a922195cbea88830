/*
 * Gen11 EU interpreter core: decoded instructions, thread state and the
 * run loop.  Host-neutral (plain C + GLib); the pipelines run their
 * threads through gfx.c's intel_gfx_thread_run().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPUMODEL_INTEL_EU_EXEC_H
#define GPUMODEL_INTEL_EU_EXEC_H

#include <glib.h>
#include <string.h>
#include "eu-isa.h"
#include "../../host.h"

typedef struct EuOperand {
    uint8_t file;           /* EU_FILE_* */
    uint8_t type;           /* EuType */
    uint8_t nr;             /* register number (direct) */
    uint8_t subnr;          /* byte offset in the register (direct) */
    uint8_t vstride;        /* elements; EU_VSTRIDE_VXH for Vx1/VxH */
    uint8_t width;          /* elements */
    uint8_t hstride;        /* elements */
    bool indirect;          /* a0-relative */
    bool negate, abs;
    uint8_t addr_subnr;     /* a0 subregister (16-bit units) */
    int16_t addr_imm;       /* signed byte offset added to a0.n */
    uint64_t imm;
} EuOperand;

typedef struct EuThread EuThread;

/*
 * Where a retired instruction issues, for the OA unit's flexible EU
 * event counters (eu.c): its pipe and, on an FPU, its kind as the fine
 * filters tell them apart (PRM Vol 7: 3D-Media-GPGPU, "Flexible EU Event
 * Counters"; the EU's FPU0/FPU1 and send pipes: PRM Vol 7, "Execution
 * Units").  The model's rule: the send family goes to the send pipe;
 * extended math (MATH) to FPU1, the extended-math pipe; every other ALU
 * instruction to FPU0; branches, NOP and WAIT to no counted pipe.
 * Kinds: ternary (three sources: eu_is_3src()), binary (two sources;
 * MATH with FDIV, POW or an integer divide), mov (MOV, MOVI, SMOV),
 * other (one source).  No instruction is hybrid in the model.  Each
 * retired instruction takes one EU clock (the busy time the engine
 * charges, docs/intel-gpu-oa.rst).
 */
typedef enum EuEvClass {
    EU_EVC_FPU0,            /* + EU_EVK_*: FPU0 by kind */
    EU_EVC_FPU1 = 4,        /* + EU_EVK_*: FPU1 by kind */
    EU_EVC_SEND = 8,
    EU_EVC_NONE,            /* branch unit, NOP, WAIT */
    EU_EVC_COUNT
} EuEvClass;

enum { EU_EVK_OTHER, EU_EVK_TERNARY, EU_EVK_BINARY, EU_EVK_MOV };
typedef struct EuInst EuInst;
typedef struct EuProgram EuProgram;

/* A pre-resolved executor for one decoded instruction (eu-exec.c). */
typedef void (*EuExecFn)(EuThread *t, const EuInst *in);

struct EuInst {
    const char *error;      /* non-NULL: the encoding is invalid here */
    uint8_t size;           /* 8 (compacted) or 16 bytes */
    bool compacted;
    uint8_t opcode;         /* EU_OP_* */
    uint8_t exec_size;      /* 1..32 channels */
    uint8_t qtr, nib, thread_ctrl, dep_ctrl;
    uint8_t pred_ctrl, pred_inv, flag_nr, flag_subnr;
    uint8_t cond_mod, math_fn, saturate, acc_wr, branch_ctrl, debug;
    uint8_t mask_ctrl;      /* 1: WE_all, ignore the execution mask */
    uint8_t nsrc;
    bool has_dst, has_jip, has_uip;
    EuOperand dst, src[3];
    int32_t jip, uip;       /* bytes, relative to this instruction */
    bool is_send, eot, desc_indirect, ex_desc_indirect;
    uint8_t sfid, ex_desc_subnr;
    uint32_t desc, ex_desc;
    /* Filled by the interpreter when it caches the instruction: the
     * executor, and for fast ALU forms the GRF byte offsets of the
     * operands and the size of one element. */
    EuExecFn exec;
    uint16_t fast_dst, fast_src[3];
    uint8_t fast_step[3];   /* bytes per channel of each source, 0: scalar */
    uint8_t ev_class;       /* EuEvClass: its pipe and kind */
};

bool eu_is_3src(unsigned op);
bool eu_is_branch(unsigned op);
unsigned eu_type_size(EuType t);
/* Decode at most avail bytes of code; returns 0, or -1 with d->error. */
int eu_decode(const void *code, size_t avail, EuInst *d);
int eu_decode_native(const EuNative *n, EuInst *d);
/* Expand a compacted instruction (bit 29 set); -1 if it is not one. */
int eu_uncompact(uint64_t compacted, EuNative *out);
/* Mesa-like text for one instruction (no trailing newline). */
void eu_disasm(const EuInst *d, GString *out);
const char *eu_opcode_name(unsigned op);
float eu_half_to_float(uint16_t h);

/* Thread state. */
#define EU_GRF_COUNT 128
#define EU_GRF_BYTES 32
#define EU_MAX_CHANNELS 32
#define EU_CACHE_SIZE 64

typedef enum EuStatus {
    EU_RUNNING,
    EU_DONE,                /* EOT sent */
    EU_FAULT,               /* invalid instruction or access */
    EU_WAIT_SEND,           /* the shared function asked to wait */
    EU_BUDGET,              /* max_instructions reached */
    /*
     * Suspended at a wait whose notification count is zero: the
     * dispatcher runs it again (it evaluates the wait anew) once a
     * notification arrives in notify[notify_wait].
     */
    EU_WAIT_NOTIFY,
} EuStatus;

/*
 * A shared function.  Returns 0 when the message completed (the writeback
 * is in the GRF), 1 to make the thread wait (eu_run returns
 * EU_WAIT_SEND; the caller resumes with eu_run after the IP advanced),
 * or -1 if the message is unsupported (the thread faults).
 */
typedef int (*EuSendFn)(EuThread *t, const EuInst *inst, uint32_t desc,
                        uint32_t ex_desc, void *opaque);

struct EuThread {
    uint8_t grf[EU_GRF_COUNT * EU_GRF_BYTES];
    uint16_t a0[16];
    uint8_t acc[2][EU_GRF_BYTES * 2];  /* acc0/acc1, 64 bytes each */
    uint32_t flag[2];                   /* f0 (f0.1:f0.0), f1 */
    uint32_t mask[4], sr0[4], cr0[4];
    /*
     * tm0.0-tm0.3 the timestamp; tm0.4 the pause register (IGA's Gen11
     * model), which IGC's spin loops write ("mov (1) tm0.4 0x3e0:uw") to
     * pause the thread: the model runs on, the value kept for reads.
     */
    uint32_t tm0[5];
    uint32_t ip;                        /* byte offset into code */
    uint32_t exec_mask;                 /* channels enabled at dispatch */
    uint32_t active;                    /* channels currently active */
    uint32_t waiting;                   /* disabled by control flow */
    uint32_t broken;                    /* waiting after a break */
    uint32_t wait_ip[EU_MAX_CHANNELS];  /* where each waiting one resumes */
    EuStatus status;
    /*
     * Optional, for the host's trace: called before each instruction
     * runs, the thread at its IP.  Set for each eu_run(), not migrated.
     */
    void (*trace)(void *opaque, const EuThread *t, const EuInst *in);
    void *trace_opaque;
    const char *fault;
    uint64_t retired;
    uint64_t ev_clocks[EU_EVC_COUNT];   /* retired, by EuEvClass */
    /*
     * The notification registers n0.0 and n0.1: notifications received
     * and not yet taken by a wait (the gateway's barrier notifies n0.0),
     * and the one a suspended wait evaluates.
     */
    uint32_t notify[2];
    uint8_t notify_wait;

    const uint8_t *code;
    size_t code_size;
    EuSendFn send;
    void *send_opaque;
    const GpuHost *host;                /* faults are logged here if set */
    int64_t accv[EU_MAX_CHANNELS];      /* integer accumulator (mul/mach) */
    EuProgram *prog;                    /* shared decode, or NULL */

    /*
     * Last, as eu_thread_init_program() leaves them untouched: the
     * decoded-instruction cache (direct-mapped by IP) of threads without
     * a program, and the program the GRF values came from.
     */
    struct {
        uint32_t ip;
        bool valid;
        EuInst inst;
    } cache[EU_CACHE_SIZE];
    uint64_t prog_serial;               /* the program the GRF came from */
};

void eu_thread_init(EuThread *t, const void *code, size_t code_size,
                    uint32_t exec_mask, EuSendFn send, void *opaque);

/*
 * A kernel decoded once and shared by every thread of a dispatch:
 * eu_program_new() copies the code (at most EU_PROGRAM_MAX_BYTES of it;
 * instructions beyond fault), instructions are decoded on first use.
 * Threads started with eu_thread_init_program() borrow the program: the
 * caller keeps a reference until they are done.  Not thread-safe (the
 * model runs on one host thread).
 */
#define EU_PROGRAM_MAX_BYTES (4u << 20)

EuProgram *eu_program_new(const void *code, size_t size);
EuProgram *eu_program_ref(EuProgram *p);
void eu_program_unref(EuProgram *p);
size_t eu_program_size(const EuProgram *p);

/*
 * Like eu_thread_init() for a program, and cheaper.  The architectural
 * state beyond the GRF is zeroed.  The GRF (undefined on hardware beyond
 * the payload the caller writes) is zeroed when the thread's previous
 * program was another one, and otherwise keeps what the previous thread
 * of the same program left: deterministic for a given dispatch order,
 * and no values cross from one dispatch (or context) to another.
 * Start from a zeroed EuThread (g_new0).  The private decode cache is
 * not touched.
 */
void eu_thread_init_program(EuThread *t, EuProgram *p, uint32_t exec_mask,
                            EuSendFn send, void *opaque);
/*
 * The fast paths (eu-exec.c) for tests and benchmarks: whether
 * instructions cached from now on may use them (default true), and
 * whether the decoded in would.
 */
extern bool eu_fast_paths;
bool eu_inst_has_fast_path(const EuInst *in);

/* Run up to max_instructions; returns the thread's status. */
EuStatus eu_run(EuThread *t, uint64_t max_instructions);

#endif
