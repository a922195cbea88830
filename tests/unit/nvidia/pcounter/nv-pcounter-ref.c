/*
 * The reference evaluator of the nv-gpu PCOUNTER tests: one cycle at a
 * time, written from envytools docs/hw/pcounter/intro.rst ("Input
 * selection", "Counters", the modes and "The flag"), sharing no code
 * with the model.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "nv-pcounter-ref.h"

/* Cycle @c's value in @a, 0 before cycle 0. */
static bool ref_hist(const GByteArray *a, int64_t c)
{
    g_assert(c < (int64_t)a->len);
    return c >= 0 && a->data[c];
}

/*
 * DOM[x].EVENT / DOM[x].FLAG ("The EVENT and FLAG signals") as domain x
 * itself sees it, in its cycle j: the EVENT output one cycle late (the
 * model's choice: a direct connection loops), the FLAG two cycles late
 * ("The flag").
 */
static bool ref_trailer_own(const Ref *x, bool flag, int64_t j)
{
    return flag ? ref_hist(x->flag_out, j - 2) : ref_hist(x->ev_out, j - 1);
}

/*
 * Domain x's signal in domain y's cycle c: the synchronizer presents
 * the signal as it was in x two y clocks ago, at the end of y's cycle
 * c - 2: the last x cycle completed by then, k(c) (CONTINUOUS), or 1 if
 * it rose in the x cycles sampled for c and not for c - 1 (PULSE).
 */
static int64_t ref_k(const Ref *x, const Ref *y, int64_t c)
{
    if (c < 1) {
        return -1;
    }
    return (int64_t)gpu_muldiv64(c - 1, x->hz, y->hz) - 1;
}

static bool ref_trailer(const Ref *y, unsigned s, int64_t c)
{
    bool flag = s >= NV_SIG_DOM_FLAG(7);
    unsigned xid = flag ? NV_SIG_DOM_FLAG(0) - s : NV_SIG_DOM_EVENT(0) - s;
    const Ref *x = &y->sys->dom[xid];
    uint32_t ctrl = c < (int64_t)y->ctrl_since ? y->ctrl_before : y->ctrl;
    bool pulse = ctrl & (flag ? 1u << 13 : 1u << 11);
    int64_t k = ref_k(x, y, c);

    if (x == y) {
        return ref_trailer_own(y, flag, c);
    }
    if (!x->hz) {
        return false;
    }
    if (!pulse) {
        return ref_trailer_own(x, flag, k);
    }
    for (int64_t j = MAX(ref_k(x, y, c - 1) + 1, 0); j <= k; j++) {
        if (ref_trailer_own(x, flag, j) && !ref_trailer_own(x, flag, j - 1)) {
            return true;
        }
    }
    return false;
}

/* Whether @c is one of the cycles in @a. */
static bool ref_in(const GArray *a, int64_t c)
{
    for (unsigned i = 0; a && i < a->len; i++) {
        if (g_array_index(a, uint64_t, i) == (uint64_t)c) {
            return true;
        }
    }
    return false;
}

bool ref_sig(const Ref *r, unsigned s, int64_t c)
{
    unsigned per;

    if (c < 0) {
        return false;
    }
    if (s == NV_SIG_ONE) {
        return true;
    }
    if (s && s == r->ptimer_sig) {
        /* The cycle being evaluated: TIME now; earlier: as recorded. */
        return c == (int64_t)r->c ? (r->ptime >> 12) & 1
                                  : ref_hist(r->ptimer_out, c);
    }
    if (r->user_sig && s - r->user_sig < 2) {
        /*
         * "The USER signals": the last write sets USER_n to bit n; a
         * pulse-mode bit (n + 2) resets it to 0 on the next cycle.
         * Before any: 0.
         */
        for (unsigned i = r->user->len; i-- > 0;) {
            const RefUser *u = &g_array_index(r->user, RefUser, i);
            unsigned n = s - r->user_sig;

            if (u->c <= (uint64_t)c) {
                return (u->val >> n) & 1 &&
                       (u->c == (uint64_t)c || !((u->val >> (n + 2)) & 1));
            }
        }
        return false;
    }
    if (s == NV_SIG_PM_TRIGGER || s == NV_SIG_WRCACHE_FLUSH) {
        return ref_in(r->pulse[s == NV_SIG_WRCACHE_FLUSH], c);
    }
    if (s >= NV_SIG_SYNTH(0) && s < NV_SIG_SYNTH(NV_SIG_SYNTH_COUNT)) {
        const RefSynth *y = &r->synth[s - NV_SIG_SYNTH(0)];
        uint64_t p = 1ull << y->log2;

        return (uint64_t)(c + y->phase) % p < y->high;
    }
    if (s == NV_SIG_PERIODIC) {
        per = (r->ctrl >> 21) & 7;
        /* one clock of 1 every 0x200 << per clocks, on the last clock */
        return per && (uint64_t)c % (0x200u << per) == (0x200u << per) - 1;
    }
    if (s >= NV_SIG_DOM_EVENT(7) && r->sys) {
        return ref_trailer(r, s, c);
    }
    return false;   /* ZERO and everything not modelled */
}

unsigned ref_srcsig(const Ref *r, unsigned reg, unsigned i)
{
    return (r->src[reg] >> (8 * i)) & 0xff;
}

/* Steps 1-8 of the input calculation ("Input selection"), for input @k. */
static bool ref_input(const Ref *r, unsigned k, int64_t c, bool setflag)
{
    /* SRC[0..3] as (register, index) */
    static const unsigned srcsel[6][4][2] = {
        { {0, 0}, {0, 1}, {0, 2}, {0, 3} },
        { {1, 0}, {1, 1}, {1, 2}, {1, 3} },
        { {2, 0}, {2, 1}, {2, 2}, {2, 3} },
        { {3, 0}, {3, 1}, {3, 2}, {3, 3} },
        { {1, 2}, {1, 3}, {0, 0}, {0, 1} },     /* SETFLAG */
        { {0, 2}, {0, 3}, {1, 0}, {1, 1} },     /* CLRFLAG */
    };
    uint32_t op = r->op[k];
    bool src[4], srcp[4], arg[4];
    bool ev_stop = k == 2 || k == 3;
    unsigned idx = 0;

    for (unsigned i = 0; i < 4; i++) {
        unsigned s = ref_srcsig(r, srcsel[k][i][0], srcsel[k][i][1]);

        src[i] = ref_sig(r, s, c);
        srcp[i] = ref_sig(r, s, c - 1);
        arg[i] = src[i];
    }
    if (op & (1u << 16)) {
        arg[0] = srcp[0];
    }
    if (op & (1u << 17)) {
        arg[1] = srcp[1];
    }
    if (r->g92) {
        if (op & (1u << (ev_stop ? 19 : 18))) {
            arg[2] = srcp[0];
        }
        if (op & (1u << (ev_stop ? 20 : 19))) {
            arg[3] = srcp[1];
        }
    }
    if (ev_stop && (op & (1u << 18))) {
        arg[3] = setflag;
    }
    for (unsigned i = 0; i < 4; i++) {
        idx |= arg[i] << i;
    }
    return (op >> idx) & 1;
}

RefIn ref_inputs(const Ref *r, int64_t c)
{
    RefIn in;

    in.set = ref_input(r, 4, c, false);
    in.clr = ref_input(r, 5, c, false);
    in.pre = ref_input(r, 0, c, in.set);
    in.start = ref_input(r, 1, c, in.set);
    in.event = ref_input(r, 2, c, in.set);
    in.stop = ref_input(r, 3, c, in.set);
    in.swap = ref_sig(r, r->spec & 0xff, c);
    in.srcbits = 0;
    for (unsigned i = 0; i < 16; i++) {
        in.srcbits |= (unsigned)ref_sig(r, ref_srcsig(r, i / 4, i % 4), c)
                      << i;
    }
    return in;
}

static void sat_add(uint64_t *v, uint64_t a)
{
    *v = MIN(*v + a, 0xffffffffull);
}

static void ref_record_packet(Ref *r, FakeHost *fh)
{
    uint8_t p[32];
    unsigned size = (r->ctrl & (1u << 20)) ? 16 : 32;
    uint16_t words[16];

    words[0] = r->rcyc;
    words[1] = r->rcyc >> 16;
    words[2] = r->rcyc >> 32;
    words[3] = r->rstop;
    for (unsigned i = 0; i < 12; i++) {
        words[4 + i] = r->rev[i];
    }
    for (unsigned i = 0; i < 16; i++) {
        p[2 * i] = words[i];
        p[2 * i + 1] = words[i] >> 8;
    }
    if (r->valid) {
        if (r->pos + size > FAKE_RAM_SIZE) {
            r->fault = true;
            return;
        }
        memcpy(r->mem + r->pos, p, size);
        if (r->pos >= r->rec_limit) {
            r->valid = false;
        }
        r->pos += size;
    }
    memset(r->rev, 0, sizeof(r->rev));
    r->rstop = 0;
}

static void ref_cycle(Ref *r, FakeHost *fh)
{
    unsigned mode = r->ctrl & 3;
    unsigned cm = (r->ctrl >> 4) & 7;
    int64_t c = r->c;
    RefIn in = ref_inputs(r, c);
    unsigned b4 = (in.srcbits >> 4) & 0xf;
    unsigned b6 = b4 | ((in.srcbits >> 10) & 3) << 4;
    unsigned b2 = (in.srcbits >> 8) & 3;
    uint64_t ev_inc, st_inc, xpre_inc;
    bool frozen = false;
    uint8_t hist[2];

    ev_inc = cm == 1 ? (in.event ? b4 : 0) :
             cm == 2 ? (in.event ? b6 : 0) :
             cm == 4 ? b2 : in.event;
    st_inc = cm == 3 ? b4 : cm == 4 ? b6 : in.start;
    xpre_inc = cm == 3 ? b4 : cm == 4 ? b6 : 0;

    if (mode == 1) {
        if (in.swap) {
            memcpy(r->ctr, r->shadow, sizeof(r->ctr));
            memset(r->shadow, 0, sizeof(r->shadow));
            r->qstate = r->qstate == 0 ? 1 : 3;
        }
        sat_add(&r->shadow[0], 1);
        sat_add(&r->shadow[1], ev_inc);
        sat_add(&r->shadow[2], st_inc);
        sat_add(&r->shadow[3], in.pre);
        sat_add(&r->shadow[4], in.stop);
    } else if (mode == 0) {
        switch (r->sstate) {
        case 0:
            frozen = true;
            break;
        case 1:
            if (in.pre) {
                if (r->ctr[3]) {
                    r->ctr[3]--;
                } else {
                    r->sstate = 2;
                }
            }
            break;
        case 2:
            if (in.start) {
                r->ctr[0] = 0;
                if (!(r->ctrl & (1u << 8))) {
                    r->ctr[1] = 0;
                }
                r->sstate = 3;
            }
            break;
        case 3:
            sat_add(&r->ctr[1], ev_inc);
            sat_add(&r->ctr[3], xpre_inc);
            sat_add(&r->ctr[0], 1);
            if (in.stop) {
                if (r->ctr[1] >= r->threshold) {
                    sat_add(&r->ctr[2], 1);
                }
                if (r->ctr[4]) {
                    r->ctr[4]--;
                    r->sstate = 2;
                } else {
                    r->sstate = 0;
                }
            }
            break;
        }
    } else if (mode == 2 && !r->fault) {
        bool want = false;

        r->rcyc = (r->rcyc + 1) & ((1ull << 48) - 1);
        for (unsigned i = 0; i < 12; i++) {
            if ((in.srcbits >> i) & 1) {
                r->rev[i] = MIN(r->rev[i] + 1, 0xffffu);
            }
            want |= r->rev[i] >= 0xf000;
        }
        if (in.stop) {
            r->rstop = MIN(r->rstop + 1, 0xfffu);
        }
        want |= r->rstop != 0;
        if (want && (uint64_t)c >= r->busy_until) {
            ref_record_packet(r, fh);
            r->busy_until = c + 1 + r->wcycles;
        }
    }
    r->flag_hist[1] = r->flag_hist[0];
    if (!frozen && mode != 3) {
        if (in.set) {
            r->flag = true;
        }
        if (in.clr) {
            r->flag = false;
        }
    }
    r->flag_hist[0] = r->flag;
    hist[0] = in.event;
    hist[1] = r->flag;
    g_byte_array_append(r->ev_out, &hist[0], 1);
    g_byte_array_append(r->flag_out, &hist[1], 1);
    hist[0] = (r->ptime >> 12) & 1;
    g_byte_array_append(r->ptimer_out, &hist[0], 1);
    /* One cycle of the domain: 27 MHz / hz crystal ticks of num/den. */
    if (r->sys && r->sys->pt.den) {
        uint64_t q = r->hz * r->sys->pt.den;

        r->pfrac += 27000000ull * r->sys->pt.num;
        r->ptime += r->pfrac / q;
        r->pfrac %= q;
    }
    r->c++;
}

/* Whether cycle r->c starts before n->c: r->c / r->hz < n->c / n->hz. */
static bool ref_before(const Ref *r, const Ref *n)
{
    uint64_t rh, rl, nh, nl;

    gpu_mul64(r->c, n->hz, &rh, &rl);
    gpu_mul64(n->c, r->hz, &nh, &nl);
    return rh < nh || (rh == nh && rl < nl);
}

/*
 * Every evaluated domain up to @ns, one cycle at a time in the order the
 * cycles start (a cycle only needs others' cycles that ended before).
 */
void ref_run_to(RefSys *sys, uint64_t ns, FakeHost *fh)
{
    for (;;) {
        Ref *next = NULL;

        for (unsigned i = 0; i < NV_PCOUNTER_DOMAINS; i++) {
            Ref *r = &sys->dom[i];

            if (!r->hz || r->c >= gpu_muldiv64(ns, r->hz, 1000000000)) {
                continue;
            }
            if (!next || ref_before(r, next)) {
                next = r;
            }
        }
        if (!next) {
            return;
        }
        ref_cycle(next, fh);
    }
}

/* PTIMER's TIME at @ns, from its register definition. */
uint64_t ref_ptimer_time(const RefSys *sys, uint64_t ns)
{
    const RefPtimer *pt = &sys->pt;

    if (!pt->den) {
        return pt->time;
    }
    return pt->time + gpu_muldiv64(ns - pt->ns, 27000000ull * pt->num,
                                   1000000000ull * pt->den);
}

/*
 * A PTIMER write at @ns (domains evaluated up to it): TIME becomes @time
 * and the ratio @num/@den; each domain samples them from its next cycle.
 */
void ref_ptimer_set(RefSys *sys, uint64_t ns, uint64_t time,
                    uint32_t num, uint32_t den)
{
    sys->pt = (RefPtimer) { .ns = ns, .time = time, .num = num, .den = den };
    for (unsigned i = 0; i < NV_PCOUNTER_DOMAINS; i++) {
        sys->dom[i].ptime = time;
        sys->dom[i].pfrac = 0;
    }
}

/* A PGRAPH pulse (@k 0: PM_TRIGGER, 1: WRCACHE_FLUSH) in cycle r->c. */
void ref_pulse(RefSys *sys, unsigned k)
{
    for (unsigned i = 0; i < NV_PCOUNTER_DOMAINS; i++) {
        Ref *r = &sys->dom[i];

        if (r->hz) {
            g_array_append_val(r->pulse[k], r->c);
        }
    }
}

/* A PRE_OP write before cycle r->c: start single mode, swap quad mode. */
void ref_preop(Ref *r)
{
    if ((r->ctrl & 3) == 0 && r->sstate == 0) {
        r->ctr[1] = r->ctr[2] = r->ctr[0] = 0;
        r->ctr[3] = r->pre_init;
        r->ctr[4] = r->stop_init;
        r->flag = r->flag_hist[0] = false;
        if (r->c) {
            /* FLAG after cycle c - 1, as the INACTIVE case has it */
            r->flag_out->data[r->c - 1] = 0;
        }
        r->sstate = 1;
    } else if ((r->ctrl & 3) == 1) {
        memcpy(r->ctr, r->shadow, sizeof(r->ctr));
        memset(r->shadow, 0, sizeof(r->shadow));
        r->qstate = r->qstate == 0 ? 1 : 3;
    }
}
