/*
 * Gen11 EU interpreter: the run loop.  Programs decoded once and shared
 * by a dispatch's threads, instruction fetch and decode caches, thread
 * set-up, the choice of each decoded instruction's executor, sends, and
 * eu_run().  The work of one instruction is in eu-alu.c (the generic
 * path), eu-fast*.c (the fast paths) and eu-flow.c (branches); operands
 * in eu-region.c.
 *
 * Facts: Intel Graphics PRM Vol 2 (Command Reference: Instructions, EU
 * ISA: per-instruction pages) and Vol 4 (Execution Unit ISA).
 *
 * Hostile kernels: every register access is bounds checked (a fault
 * stops the thread), every decode error faults, and eu_run() retires at
 * most max_instructions, so an infinite loop only uses up the budget.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "eu-exec-int.h"

struct EuProgram {
    unsigned refs;
    uint64_t serial;        /* unique per program, never 0 */
    size_t size;
    uint8_t *code;
    EuInst **slots;         /* one per 8 bytes, decoded on first use */
};

/* A send: the message goes to the shared function (eu-exec.h). */
static void eu_exec_send(EuThread *t, const EuInst *in)
{
    uint32_t desc = in->desc, ex = in->ex_desc;
    int r;

    if (in->desc_indirect) {
        desc = t->a0[0] | (uint32_t)t->a0[1] << 16;
    }
    if (in->ex_desc_indirect) {
        unsigned a = in->ex_desc_subnr;

        ex = a < 15 ? (t->a0[a] | (uint32_t)t->a0[a + 1] << 16) : 0;
    }
    if (in->pred_ctrl != EU_PRED_NONE && !eu_cf_chans(t, in)) {
        return;                 /* every channel predicated off */
    }
    if (!t->send) {
        eu_fault(t, "no shared function for SEND");
        return;
    }
    r = t->send(t, in, desc, ex, t->send_opaque);
    if (r < 0) {
        eu_fault(t, "unsupported shared-function message");
        return;
    }
    if (in->eot) {
        t->status = EU_DONE;
    } else if (r > 0) {
        t->status = EU_WAIT_SEND;
    }
}

static void eu_exec_nop(EuThread *t, const EuInst *in)
{
}

/*
 * wait nreg (PRM Vol 2a: Command Reference: Instructions, "wait"): a
 * notification received is taken and the thread goes on; with none the
 * thread suspends at the wait, and evaluates it again once one arrives.
 */
static void eu_exec_wait(EuThread *t, const EuInst *in)
{
    const EuOperand *o = &in->src[0];
    unsigned n = o->subnr / MAX(eu_type_size(o->type), 1u);

    if (o->file != EU_FILE_ARF || (o->nr & 0xf0) != EU_ARF_NOTIFY ||
        (o->nr & 0xf) || n > 1) {
        eu_fault(t, "wait on a register other than n0.0 or n0.1");
        return;
    }
    if (t->notify[n]) {
        t->notify[n]--;
        return;
    }
    t->notify_wait = n;
    t->status = EU_WAIT_NOTIFY;
}

/* The pipe and kind of a decoded instruction (EuEvClass). */
static uint8_t eu_ev_class(const EuInst *in)
{
    unsigned pipe = in->opcode == EU_OP_MATH ? EU_EVC_FPU1 : EU_EVC_FPU0;

    if (in->error || eu_is_branch(in->opcode) || in->opcode == EU_OP_NOP ||
        in->opcode == EU_OP_WAIT) {
        return EU_EVC_NONE;
    } else if (in->is_send) {
        return EU_EVC_SEND;
    } else if (eu_is_3src(in->opcode)) {
        return pipe + EU_EVK_TERNARY;
    } else if (in->opcode == EU_OP_MOV || in->opcode == EU_OP_MOVI ||
               in->opcode == EU_OP_SMOV) {
        return pipe + EU_EVK_MOV;
    } else if (in->opcode == EU_OP_MATH) {
        /* MATH always decodes two sources; the unary functions use one. */
        bool two = in->math_fn == EU_MATH_FDIV || in->math_fn == EU_MATH_POW ||
                   (in->math_fn >= EU_MATH_INT_DIV_QR &&
                    in->math_fn <= EU_MATH_INT_DIV_R);

        return pipe + (two ? EU_EVK_BINARY : EU_EVK_OTHER);
    }
    return pipe + (in->nsrc == 2 ? EU_EVK_BINARY : EU_EVK_OTHER);
}

/* Choose the executor of a freshly decoded instruction. */
static void eu_exec_prepare(EuInst *in)
{
    in->ev_class = eu_ev_class(in);
    if (in->error || in->is_send || eu_is_branch(in->opcode)) {
        in->exec = NULL;
    } else if (in->opcode == EU_OP_NOP) {
        in->exec = eu_exec_nop;
    } else if (in->opcode == EU_OP_WAIT) {
        in->exec = eu_exec_wait;
    } else {
        in->exec = eu_fast_paths ? eu_fast_exec_for(in) : NULL;
        if (!in->exec) {
            in->exec = eu_exec_alu;
        }
    }
}

bool eu_fast_paths = true;

bool eu_inst_has_fast_path(const EuInst *in)
{
    EuInst copy = *in;

    return !in->error && !in->is_send && !eu_is_branch(in->opcode) &&
           eu_fast_exec_for(&copy);
}

EuProgram *eu_program_new(const void *code, size_t size)
{
    EuProgram *p = g_new0(EuProgram, 1);

    size = MIN(size, EU_PROGRAM_MAX_BYTES);
    static uint64_t serials;

    p->refs = 1;
    p->serial = ++serials;
    p->size = size;
    p->code = g_malloc(size + 1);
    if (size) {
        memcpy(p->code, code, size);
    }
    p->slots = g_new0(EuInst *, size / 8 + 1);
    return p;
}

EuProgram *eu_program_ref(EuProgram *p)
{
    p->refs++;
    return p;
}

void eu_program_unref(EuProgram *p)
{
    if (!p || --p->refs) {
        return;
    }
    for (size_t i = 0; i <= p->size / 8; i++) {
        g_free(p->slots[i]);
    }
    g_free(p->slots);
    g_free(p->code);
    g_free(p);
}

size_t eu_program_size(const EuProgram *p)
{
    return p->size;
}

static const EuInst *eu_fetch_program(EuThread *t)
{
    EuProgram *p = t->prog;
    EuInst *in;

    if (t->ip >= p->size || (t->ip & 7)) {
        eu_fault(t, "instruction pointer outside the kernel");
        return NULL;
    }
    in = p->slots[t->ip >> 3];
    if (!in) {
        in = p->slots[t->ip >> 3] = g_new(EuInst, 1);
        eu_decode(p->code + t->ip, p->size - t->ip, in);
        eu_exec_prepare(in);
    }
    if (in->error) {
        eu_fault(t, in->error);
        return NULL;
    }
    return in;
}

static const EuInst *eu_fetch(EuThread *t)
{
    unsigned slot = (t->ip >> 3) % EU_CACHE_SIZE;

    if (t->prog) {
        return eu_fetch_program(t);
    }
    if (t->cache[slot].valid && t->cache[slot].ip == t->ip) {
        return &t->cache[slot].inst;
    }
    if (t->ip >= t->code_size || (t->ip & 7)) {
        eu_fault(t, "instruction pointer outside the kernel");
        return NULL;
    }
    if (eu_decode(t->code + t->ip, t->code_size - t->ip,
                  &t->cache[slot].inst) < 0) {
        t->cache[slot].valid = false;
        eu_fault(t, t->cache[slot].inst.error);
        return NULL;
    }
    eu_exec_prepare(&t->cache[slot].inst);
    t->cache[slot].ip = t->ip;
    t->cache[slot].valid = true;
    return &t->cache[slot].inst;
}

void eu_thread_init(EuThread *t, const void *code, size_t code_size,
                    uint32_t exec_mask, EuSendFn send, void *opaque)
{
    memset(t, 0, sizeof(*t));
    t->code = code;
    t->code_size = code_size;
    t->exec_mask = t->active = exec_mask;
    t->send = send;
    t->send_opaque = opaque;
    t->status = EU_RUNNING;
}

void eu_thread_init_program(EuThread *t, EuProgram *p, uint32_t exec_mask,
                            EuSendFn send, void *opaque)
{
    /* The state between the GRF and the private decode cache (unused
     * with a program); the GRF when it holds another program's values. */
    memset((uint8_t *)t + sizeof(t->grf), 0,
           offsetof(EuThread, cache) - sizeof(t->grf));
    if (t->prog_serial != p->serial) {
        memset(t->grf, 0, sizeof(t->grf));
        t->prog_serial = p->serial;
    }
    t->prog = p;
    t->code = p->code;
    t->code_size = p->size;
    t->exec_mask = t->active = exec_mask;
    t->send = send;
    t->send_opaque = opaque;
    t->status = EU_RUNNING;
}

/* eu_run() for a thread on a shared program: the same steps, with the
 * program's decode looked up directly. */
static EuStatus eu_run_program(EuThread *t, uint64_t max_instructions)
{
    EuProgram *p = t->prog;
    uint64_t n;

    if (t->status != EU_RUNNING) {
        return t->status;
    }
    for (n = 0; n < max_instructions; n++) {
        const EuInst *in;
        uint32_t ip, next;

        if (t->waiting) {
            eu_resume_channels(t);
        }
        ip = t->ip;
        if (ip >= p->size || (ip & 7)) {
            eu_fault(t, "instruction pointer outside the kernel");
            return t->status;
        }
        in = p->slots[ip >> 3];
        if (!in) {
            in = eu_fetch_program(t);
            if (!in) {
                return t->status;
            }
        } else if (in->error) {
            eu_fault(t, in->error);
            return t->status;
        }
        t->retired++;
        t->ev_clocks[in->ev_class]++;
        if (t->trace) {
            t->trace(t->trace_opaque, t, in);
        }
        if (in->exec) {
            /*
             * ALU: only the generic path can fault; a wait may suspend
             * (the IP stays on it).
             */
            in->exec(t, in);
            if (t->status != EU_RUNNING) {
                return t->status;
            }
            t->ip = ip + in->size;
            continue;
        }
        if (in->is_send) {
            eu_exec_send(t, in);
            next = ip + in->size;
        } else {
            next = eu_exec_flow(t, in);
        }
        if (t->status == EU_FAULT) {
            return t->status;
        }
        t->ip = next;
        if (t->status != EU_RUNNING) {
            return t->status;
        }
    }
    t->status = EU_BUDGET;
    return t->status;
}

/*
 * Aligned: where the run loop falls relative to the fetch blocks moved
 * bench-intel-eu's send loop by 10% from one build to the next.
 */
__attribute__((aligned(64)))
EuStatus eu_run(EuThread *t, uint64_t max_instructions)
{
    if (t->status == EU_WAIT_SEND || t->status == EU_BUDGET ||
        t->status == EU_WAIT_NOTIFY) {
        t->status = EU_RUNNING;
    }
    if (t->prog) {
        return eu_run_program(t, max_instructions);
    }
    for (uint64_t n = 0; t->status == EU_RUNNING; n++) {
        const EuInst *in;
        uint32_t next;

        if (n >= max_instructions) {
            t->status = EU_BUDGET;
            break;
        }
        if (t->waiting) {
            eu_resume_channels(t);
        }
        in = eu_fetch(t);
        if (!in) {
            break;
        }
        next = t->ip + in->size;
        if (t->trace) {
            t->trace(t->trace_opaque, t, in);
        }
        if (in->exec) {
            in->exec(t, in);
        } else if (in->is_send) {
            eu_exec_send(t, in);
        } else {
            next = eu_exec_flow(t, in);
        }
        t->retired++;
        t->ev_clocks[in->ev_class]++;
        if (t->status == EU_RUNNING || t->status == EU_WAIT_SEND ||
            t->status == EU_DONE) {
            t->ip = next;
        }
    }
    return t->status;
}
