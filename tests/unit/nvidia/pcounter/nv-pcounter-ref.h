/*
 * The reference evaluator of the nv-gpu PCOUNTER tests (nv-pcounter-ref.c)
 * and the helpers that set it and the model up alike
 * (test-nv-pcounter-random.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef NV_PCOUNTER_REF_H
#define NV_PCOUNTER_REF_H

#include "nv-pcounter-test.h"

typedef struct RefSynth {
    unsigned log2, high, phase;
} RefSynth;

typedef struct RefSys RefSys;

typedef struct Ref {
    RefSys *sys;
    unsigned id;
    uint64_t hz;                /* 0: the domain is not evaluated */
    /* configuration */
    bool g92;
    uint32_t src[4];            /* PRE, START, EVENT, STOP _SRC */
    uint32_t op[6];             /* PRE START EVENT STOP SETFLAG CLRFLAG */
    uint32_t spec, ctrl, threshold, pre_init, stop_init;
    RefSynth synth[NV_SIG_SYNTH_COUNT];
    uint32_t wcycles;
    uint32_t rec_start, rec_limit;
    /* state */
    uint64_t c;                 /* next cycle */
    uint64_t ctr[5], shadow[5]; /* CYCLES EVENT START PRE STOP */
    unsigned qstate, sstate;
    bool flag, flag_hist[2];    /* after cycles c-1 and c-2 */
    uint64_t rcyc;
    unsigned rev[12], rstop;
    uint64_t busy_until;
    uint32_t pos;
    bool valid, fault;
    uint8_t *mem;               /* a copy of guest RAM's buffer area */
    uint32_t ctrl_before;       /* CTRL before cycle ctrl_since */
    uint64_t ctrl_since;
    GByteArray *ev_out;         /* EVENT output of every cycle */
    GByteArray *flag_out;       /* FLAG after every cycle */
    /* PTIMER's TIME in cycle c, and the fraction of a unit past it */
    uint64_t ptime, pfrac;
    unsigned ptimer_sig;        /* TIME_B12's number here, 0: none */
    GByteArray *ptimer_out;     /* TIME_B12 of every cycle */
    GArray *pulse[2];           /* cycles of PM_TRIGGER, WRCACHE_FLUSH */
    unsigned user_sig;          /* GT215: USER_0's number, 0: none */
    GArray *user;               /* USER_TRIGGER writes (RefUser) */
} Ref;

/* A USER_TRIGGER write before cycle c: the register's value. */
typedef struct RefUser {
    uint64_t c;
    uint32_t val;
} RefUser;

/* PTIMER's registers: TIME = time + (ns - ns0) x 27 MHz x num / den */
typedef struct RefPtimer {
    uint64_t ns, time;
    uint32_t num, den;
} RefPtimer;

struct RefSys {
    Ref dom[NV_PCOUNTER_DOMAINS];
    RefPtimer pt;
};

typedef struct RefIn {
    bool pre, start, event, stop, set, clr, swap;
    unsigned srcbits;
} RefIn;

/* nv-pcounter-ref.c */
bool ref_sig(const Ref *r, unsigned s, int64_t c);
unsigned ref_srcsig(const Ref *r, unsigned reg, unsigned i);
RefIn ref_inputs(const Ref *r, int64_t c);
void ref_run_to(RefSys *sys, uint64_t ns, FakeHost *fh);
uint64_t ref_ptimer_time(const RefSys *sys, uint64_t ns);
void ref_ptimer_set(RefSys *sys, uint64_t ns, uint64_t time,
                    uint32_t num, uint32_t den);
void ref_pulse(RefSys *sys, unsigned k);
void ref_preop(Ref *r);

/* test-nv-pcounter-random.c */
void compare(Fixture *f, Ref *r, const char *what);
void ref_free(Ref *r);
void ref_apply(Fixture *f, Ref *r);

#endif
