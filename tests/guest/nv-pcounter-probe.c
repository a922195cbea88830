/*
 * nv-pcounter-probe: the guest side of the nv-gpu guest test.  Runs as root
 * in the test guest (static, no libraries), with no driver bound to the
 * card.  Maps BAR0 through sysfs resource0 as envytools' tools do, reads
 * PMC BOOT_0, runs nouveau's nv40 perfmon sequence (quad mode: SRC/OP
 * programming, a PGRAPH PM_TRIGGER pulse to swap, counter reads), a quad
 * swap by the PERIODIC generator, PTIMER_TIME_B12 and WRCACHE_FLUSH
 * counts, and a record-mode capture into a page of guest memory, and
 * checks every number against the synthetic signals the host gave QEMU
 * (-device nv-gpu,synth=SPEC; the same SPEC is passed here) or PTIMER.
 *
 *   nv-pcounter-probe [--bdf 0000:00:03.0] [--synth SPEC] [--boot0 0x084000a2]
 *                     [--drill-record-fault DOM]
 *
 * With --drill-record-fault, only the record-fault drill check runs: the
 * host has armed x-nv-gpu-drill-record-fault on domain DOM (LONG packets),
 * and domain DOM + 1 records after it.
 *
 * Output: "@@RESULT <id> ok|fail|skip <text>" per check (tests/guest/
 * nv-checks.txt), "# ..." detail lines.
 *
 * Exactness: the guest cannot know at which domain cycle a register write
 * lands (TCG, virtual time follows the host clock), so a window of N cycles
 * swapped by PM_TRIGGER starts at an unknown phase s.  The probe computes,
 * from the signal configuration, every count the window can hold over all
 * s (the synthetic signals are periodic, so s ranges over one period) and
 * requires the counter to be one of them; the counters fed by constant
 * inputs (ONE, OP "true"/"false", complementary signals) must be exact.
 * Windows the hardware aligns itself (PERIODIC swaps, record packets
 * between two STOP pulses) hold a whole number of periods: exact values.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hw/gpumodel/nv-gpu-regs.h"

#define SRC4(a, b, c, d) ((a) | (b) << 8 | (c) << 16 | (uint32_t)(d) << 24)
#define OP_ARG0     0xaaaau
#define OP_ARG1     0xccccu
#define OP_OR01     0xeeeeu
#define OP_AND01    0x8888u
#define OP_TRUE     0xffffu
#define ONE         NV_SIG_ONE
#define SYN(n)      NV_SIG_SYNTH(n)

/* G84 default domain clocks (docs/nv-gpu.rst). */
static const uint64_t dom_hz[8] = {
    100000000, 500000000, 500000000, 1200000000,
    400000000, 500000000, 400000000, 500000000,
};

static volatile uint32_t *bar;
static int failures;

static uint32_t rd(uint32_t off) { return bar[off / 4]; }
static void wr(uint32_t off, uint32_t v) { bar[off / 4] = v; }

static void result(const char *id, int ok, const char *fmt, ...)
{
    va_list ap;

    printf("@@RESULT %s %s ", id, ok ? "ok" : "fail");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    failures += !ok;
}

static void note(const char *fmt, ...)
{
    va_list ap;

    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

static uint64_t now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000ull + ts.tv_nsec / 1000;
}

/* ---- the synthetic signals, as configured ------------------------------- */

typedef struct Synth {
    unsigned period, high, phase;
} Synth;

static Synth synth[8][8];   /* [domain][signal]; period 1, high 0: constant 0 */

static int parse_num(const char *s, char **end, unsigned *v)
{
    unsigned long x;

    errno = 0;
    x = strtoul(s, end, 0);
    if (errno || *end == s || x > 65536) {
        return -1;
    }
    *v = x;
    return 0;
}

/* The synth property's syntax: DOM.N=PERIOD/HIGH[/PHASE], ' ' or ';'. */
static int parse_synth(const char *spec)
{
    char *copy = strdup(spec), *save = NULL, *tok;

    for (int d = 0; d < 8; d++) {
        for (int n = 0; n < 8; n++) {
            synth[d][n] = (Synth){ 1, 0, 0 };
        }
    }
    for (tok = strtok_r(copy, " ;", &save); tok; tok = strtok_r(NULL, " ;", &save)) {
        unsigned per, high, ph = 0, n;
        int dlo, dhi;
        char *p = tok, *e;

        if (*p == '*') {
            dlo = 0, dhi = 7, p++;
        } else if (*p >= '0' && *p <= '7') {
            dlo = dhi = *p - '0', p++;
        } else {
            return -1;
        }
        if (*p++ != '.' || *p < '0' || *p > '7') {
            return -1;
        }
        n = *p++ - '0';
        if (*p++ != '=' || parse_num(p, &e, &per) || *e != '/' ||
            parse_num(e + 1, &e, &high)) {
            return -1;
        }
        if (*e == '/' && parse_num(e + 1, &e, &ph)) {
            return -1;
        }
        if (*e || !per || (per & (per - 1)) || high > per || ph >= per) {
            return -1;
        }
        for (int d = dlo; d <= dhi; d++) {
            synth[d][n] = (Synth){ per, high, ph };
        }
    }
    free(copy);
    return 0;
}

static unsigned sig_period(int dom, unsigned sig)
{
    return sig >= SYN(0) && sig <= SYN(7) ? synth[dom][sig - SYN(0)].period : 1;
}

static int sig_at(int dom, unsigned sig, uint64_t c)
{
    if (sig == ONE) {
        return 1;
    }
    if (sig >= SYN(0) && sig <= SYN(7)) {
        const Synth *s = &synth[dom][sig - SYN(0)];
        return (c + s->phase) % s->period < s->high;
    }
    return 0;   /* ZERO and everything without a source */
}

/* An input: a truth table over the four signals SRC selects. */
typedef struct Input {
    uint32_t src, op;
} Input;

static int input_at(int dom, Input in, uint64_t c)
{
    unsigned idx = 0;

    for (int i = 0; i < 4; i++) {
        idx |= sig_at(dom, (in.src >> (8 * i)) & 0xff, c) << i;
    }
    return (in.op >> idx) & 1;
}

static unsigned input_period(int dom, Input in)
{
    unsigned q = 1;

    for (int i = 0; i < 4; i++) {
        unsigned p = sig_period(dom, (in.src >> (8 * i)) & 0xff);
        q = p > q ? p : q;      /* powers of two: the largest is the LCM */
    }
    return q;
}

/*
 * What the sum of the inputs' values (weights w) over a window of n cycles
 * starting at any phase can be: min, max, and whether v is one of them.
 */
static int window_counts(int dom, const Input *in, const int *w, int k,
                         uint64_t n, uint64_t v, uint64_t *min, uint64_t *max)
{
    unsigned q = 1;
    uint64_t *pre, full, r;
    int hit = 0;

    for (int i = 0; i < k; i++) {
        unsigned p = input_period(dom, in[i]);
        q = p > q ? p : q;
    }
    pre = calloc(2 * q + 1, sizeof(*pre));
    for (unsigned c = 0; c < 2 * q; c++) {
        uint64_t f = 0;
        for (int i = 0; i < k; i++) {
            f += w[i] * input_at(dom, in[i], c);
        }
        pre[c + 1] = pre[c] + f;
    }
    full = n / q, r = n % q;
    *min = UINT64_MAX, *max = 0;
    for (unsigned s = 0; s < q; s++) {
        uint64_t x = full * pre[q] + pre[s + r] - pre[s];
        *min = x < *min ? x : *min;
        *max = x > *max ? x : *max;
        hit |= x == v;
    }
    free(pre);
    return hit;
}

static int check_count(const char *what, int dom, Input in, uint64_t n,
                       uint64_t v, char *msg, size_t len)
{
    uint64_t lo, hi;
    int w = 1, ok = window_counts(dom, &in, &w, 1, n, v, &lo, &hi);

    if (!ok) {
        size_t l = strlen(msg);
        if (lo == hi) {
            snprintf(msg + l, len - l, "; %s %" PRIu64 ", want %" PRIu64, what, v, lo);
        } else {
            snprintf(msg + l, len - l, "; %s %" PRIu64 ", want one of %" PRIu64
                     "..%" PRIu64 " reachable", what, v, lo, hi);
        }
    }
    return ok;
}

/* ---- PCI and memory -------------------------------------------------------- */

static char devdir[128];

static int pci_setup(void)
{
    char path[192];
    uint16_t cmd;
    int fd;

    /* pci_enable_device: memory decoding, as a driver's probe would. */
    snprintf(path, sizeof(path), "%s/enable", devdir);
    fd = open(path, O_WRONLY);
    if (fd >= 0) {
        if (write(fd, "1", 1) != 1) {
            note("writing %s: %s", path, strerror(errno));
        }
        close(fd);
    }
    /* Memory space and bus mastering (record mode writes by DMA). */
    snprintf(path, sizeof(path), "%s/config", devdir);
    fd = open(path, O_RDWR);
    if (fd < 0 || pread(fd, &cmd, 2, 4) != 2) {
        note("cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    cmd |= 0x6;
    if (pwrite(fd, &cmd, 2, 4) != 2 || pread(fd, &cmd, 2, 4) != 2 || (cmd & 6) != 6) {
        note("cannot enable memory and bus mastering in %s", path);
        close(fd);
        return -1;
    }
    close(fd);
    return 0;
}

/* The PFN of the page at va, from /proc/self/pagemap (root sees PFNs). */
static uint64_t pfn_of(void *va)
{
    uint64_t e = 0;
    int fd = open("/proc/self/pagemap", O_RDONLY);

    if (fd < 0) {
        return 0;
    }
    if (pread(fd, &e, 8, (uintptr_t)va / 4096 * 8) != 8) {
        e = 0;
    }
    close(fd);
    if (!(e >> 63 & 1)) {
        return 0;       /* not present */
    }
    return e & ((1ull << 55) - 1);
}

/* ---- quad mode ----------------------------------------------------------- */

static unsigned quad_state(int dom)
{
    return (rd(NV40_PC_CTRL(dom)) >> NV_PC_CTRL_QUAD_STATE_SHIFT) & 3;
}

/* Poll until domain dom shows quad state st, at most 200 ms. */
static int wait_state(int dom, unsigned st)
{
    uint64_t end = now_us() + 200000;

    while (quad_state(dom) != st) {
        if (now_us() > end) {
            return 0;
        }
    }
    return 1;
}

static void quad_program(int dom, Input pre, Input start, Input event, Input stop)
{
    wr(NV40_PC_PRE_SRC(dom), pre.src);
    wr(NV40_PC_PRE_OP(dom), pre.op);
    wr(NV40_PC_START_SRC(dom), start.src);
    wr(NV40_PC_START_OP(dom), start.op);
    wr(NV40_PC_EVENT_SRC(dom), event.src);
    wr(NV40_PC_EVENT_OP(dom), event.op);
    wr(NV40_PC_STOP_SRC(dom), stop.src);
    wr(NV40_PC_STOP_OP(dom), stop.op);
    wr(NV40_PC_CTRL(dom), NV_PC_MODE_QUAD);
}

typedef struct Quad {
    uint32_t cycles, alt, pre, start, event, stop, ctrl;
} Quad;

static Quad quad_read(int dom)
{
    Quad q;

    q.cycles = rd(NV40_PC_CTR_CYCLES(dom));
    q.alt = rd(NV40_PC_CTR_CYCLES_ALT(dom));
    q.pre = rd(NV40_PC_CTR_PRE(dom));
    q.start = rd(NV40_PC_CTR_START(dom));
    q.event = rd(NV40_PC_CTR_EVENT(dom));
    q.stop = rd(NV40_PC_CTR_STOP(dom));
    q.ctrl = rd(NV40_PC_CTRL(dom));
    return q;
}

/* Every counter of a quad window against its inputs; msg gets the faults. */
static int quad_check(int dom, Quad q, Input pre, Input start, Input event,
                      Input stop, char *msg, size_t len)
{
    int ok = 1;

    msg[0] = 0;
    if (q.alt != q.cycles) {
        snprintf(msg, len, "; CTR_CYCLES_ALT %u != CTR_CYCLES %u", q.alt, q.cycles);
        ok = 0;
    }
    ok &= check_count("CTR_PRE", dom, pre, q.cycles, q.pre, msg, len);
    ok &= check_count("CTR_START", dom, start, q.cycles, q.start, msg, len);
    ok &= check_count("CTR_EVENT", dom, event, q.cycles, q.event, msg, len);
    ok &= check_count("CTR_STOP", dom, stop, q.cycles, q.stop, msg, len);
    return ok;
}

static void test_quad_trigger(void)
{
    /* nouveau nv40 perfmon: domain 0 counts EVENT = SYNTH1 against clocks. */
    Input pre0 = { 0, OP_TRUE }, start0 = { SRC4(ONE, 0, 0, 0), OP_ARG0 };
    Input event0 = { SRC4(SYN(1), 0, 0, 0), OP_ARG0 }, stop0 = { 0, 0 };
    /* Domain 1: logic ops over SYNTH1 and SYNTH2. */
    Input pre1 = { SRC4(SYN(1), SYN(2), 0, 0), OP_OR01 };
    Input start1 = { SRC4(SYN(1), SYN(2), 0, 0), OP_ARG0 };
    Input event1 = { SRC4(SYN(1), SYN(2), 0, 0), OP_ARG1 };
    Input stop1 = { SRC4(SYN(1), SYN(2), 0, 0), OP_AND01 };
    Input sum[2] = { start1, event1 };
    int w[2] = { 1, 1 };
    char msg[512], msg1[512];
    uint32_t t0, t1;
    uint64_t lo, hi;
    unsigned st0, st1;
    Quad a, b;
    int ok;

    quad_program(0, pre0, start0, event0, stop0);
    quad_program(1, pre1, start1, event1, stop1);
    st0 = quad_state(0);
    /* First swap: what ran since setup becomes visible; acknowledge it. */
    wr(NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
    ok = wait_state(0, NV_PC_QUAD_VALID) && wait_state(1, NV_PC_QUAD_VALID);
    st1 = quad_state(0);
    wr(NV40_PC_QUAD_ACK_TRIGGER(0), 1);
    wr(NV40_PC_QUAD_ACK_TRIGGER(1), 1);
    result("quad-states", st0 == NV_PC_QUAD_EMPTY && ok &&
           quad_state(0) == NV_PC_QUAD_EMPTY && quad_state(1) == NV_PC_QUAD_EMPTY,
           "quad mode: QUAD_STATE %u after setup, %u after PM_TRIGGER (PGRAPH "
           "0x400084 bit 5), %u/%u after QUAD_ACK_TRIGGER (want 0 EMPTY, 1 VALID, 0)",
           st0, st1, quad_state(0), quad_state(1));

    /* The measured window: two PM_TRIGGER pulses ~2 ms apart. */
    t0 = rd(NV_PTIMER_TIME_LOW);
    wr(NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
    wait_state(0, NV_PC_QUAD_VALID);
    wr(NV40_PC_QUAD_ACK_TRIGGER(0), 1);
    wr(NV40_PC_QUAD_ACK_TRIGGER(1), 1);
    usleep(2000);
    t1 = rd(NV_PTIMER_TIME_LOW);
    wr(NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
    ok = wait_state(0, NV_PC_QUAD_VALID) && wait_state(1, NV_PC_QUAD_VALID);
    a = quad_read(0);
    b = quad_read(1);

    note("domain 0: CYCLES %u ALT %u PRE %u START %u EVENT %u STOP %u CTRL 0x%08x",
         a.cycles, a.alt, a.pre, a.start, a.event, a.stop, a.ctrl);
    note("domain 1: CYCLES %u ALT %u PRE %u START %u EVENT %u STOP %u CTRL 0x%08x",
         b.cycles, b.alt, b.pre, b.start, b.event, b.stop, b.ctrl);
    note("PTIMER: %u ns between the reads around the window", t1 - t0);

    window_counts(0, &event0, w, 1, a.cycles, a.event, &lo, &hi);
    ok &= a.cycles > 0;
    ok &= quad_check(0, a, pre0, start0, event0, stop0, msg, sizeof(msg));
    /* The window in ns against PTIMER: the same virtual clock. */
    {
        uint64_t ns = (uint64_t)a.cycles * 1000000000ull / dom_hz[0];
        if (ns > (uint64_t)(t1 - t0) + 1000000 || ns + 1000000 < (uint64_t)(t1 - t0)) {
            size_t l = strlen(msg);
            snprintf(msg + l, sizeof(msg) - l, "; %" PRIu64 " ns of domain 0 "
                     "cycles but PTIMER saw %u ns", ns, t1 - t0);
            ok = 0;
        }
    }
    result("quad-trigger", ok,
           "domain 0 (%" PRIu64 " MHz) over a PM_TRIGGER window of %u cycles: "
           "CTR_EVENT (SYNTH1 %u/%u) %u (reachable %" PRIu64 "..%" PRIu64 "), "
           "CTR_START (ONE) %u, CTR_PRE (op true) %u, CTR_STOP (op false) %u, "
           "CYCLES_ALT %u%s", dom_hz[0] / 1000000, a.cycles,
           synth[0][1].period, synth[0][1].high, a.event, lo, hi, a.start,
           a.pre, a.stop, a.alt, msg);

    ok = b.cycles > 0 && quad_check(1, b, pre1, start1, event1, stop1, msg1, sizeof(msg1));
    if (!window_counts(1, sum, w, 2, b.cycles, (uint64_t)b.start + b.event, &lo, &hi)) {
        size_t l = strlen(msg1);
        snprintf(msg1 + l, sizeof(msg1) - l, "; START+EVENT %u, want %" PRIu64
                 "..%" PRIu64, b.start + b.event, lo, hi);
        ok = 0;
    }
    result("quad-logic", ok,
           "domain 1 (%" PRIu64 " MHz), same window, %u cycles: SYNTH1|SYNTH2 %u, "
           "SYNTH1 %u + SYNTH2 %u = %u, SYNTH1&SYNTH2 %u%s",
           dom_hz[1] / 1000000, b.cycles, b.pre, b.start, b.event,
           b.start + b.event, b.stop, msg1);
    wr(NV40_PC_QUAD_ACK_TRIGGER(0), 1);
    wr(NV40_PC_QUAD_ACK_TRIGGER(1), 1);
}

static void test_quad_periodic(void)
{
    int dom = 2;
    Input pre = { 0, OP_TRUE }, start = { SRC4(ONE, 0, 0, 0), OP_ARG0 };
    Input event = { SRC4(SYN(1), 0, 0, 0), OP_ARG0 }, stop = { 0, 0 };
    char msg[512];
    unsigned st;
    Quad q;
    int ok;

    quad_program(dom, pre, start, event, stop);
    wr(NV40_PC_SPEC_SRC(dom), NV_SIG_PERIODIC);
    /* PERIODIC_PERIOD 1: a pulse, so a swap, every 0x400 cycles. */
    wr(NV40_PC_CTRL(dom), NV_PC_MODE_QUAD | 1u << NV_PC_CTRL_PERIODIC_SHIFT);
    usleep(1000);
    q = quad_read(dom);
    st = (q.ctrl >> NV_PC_CTRL_QUAD_STATE_SHIFT) & 3;
    wr(NV40_PC_CTRL(dom), NV_PC_MODE_QUAD);     /* generator off */
    note("domain 2: CYCLES %u ALT %u PRE %u START %u EVENT %u STOP %u CTRL 0x%08x",
         q.cycles, q.alt, q.pre, q.start, q.event, q.stop, q.ctrl);
    ok = quad_check(dom, q, pre, start, event, stop, msg, sizeof(msg));
    ok &= q.cycles == 0x400 && st == NV_PC_QUAD_OVERFLOW;
    result("quad-periodic", ok,
           "domain 2 swapped by PERIODIC (SPEC_SRC 0xed, CTRL 0x%08x) without "
           "MMIO for 1 ms: QUAD_STATE %u (want 3 OVERFLOW), CTR_CYCLES %u (want "
           "1024), CTR_EVENT (SYNTH1 %u/%u) %u, CTR_START %u, CTR_PRE %u, "
           "CTR_STOP %u%s", NV_PC_MODE_QUAD | 1u << NV_PC_CTRL_PERIODIC_SHIFT,
           st, q.cycles, synth[dom][1].period, synth[dom][1].high, q.event,
           q.start, q.pre, q.stop, msg);
}

/* ---- PTIMER_TIME_B12 and PGRAPH.WRCACHE_FLUSH ----------------------------- */

#define TIME_B12    0x2c        /* G84 host domain (0): PTIMER TIME bit 12 */
#define OP_RISE     0x2222u     /* argument 0 and not argument 1 */

/*
 * envytools nvacounter's PTIMER_B12 sub-test: over a PM_TRIGGER window,
 * domain 0 counts the cycles TIME bit 12 is 1 (CTR_PRE) and its rises
 * (CTR_EVENT: the bit and itself one cycle late).  At the reset ratio
 * (ns) it is a square wave of 8192 ns: half the cycles, give or take a
 * quarter period for the unknown phase, and one rise per period.  Domain
 * 1 counts WRCACHE_FLUSH in the same window: five flushes the way
 * nouveau's g84_bar_flush() does them (0x070000 = 1, poll bit 1 to 0).
 */
static void test_ptimer_flush(void)
{
    Input b12 = { SRC4(TIME_B12, 0, 0, 0), OP_ARG0 };
    Input rise = { SRC4(TIME_B12, TIME_B12, 0, 0), OP_RISE | NV_PC_OP_DELAY1 };
    Input flush = { SRC4(NV_SIG_WRCACHE_FLUSH, 0, 0, 0), OP_ARG0 };
    Input none = { 0, 0 };
    unsigned flushes = 0;
    double per, dev;
    Quad a, b;
    int ok;

    quad_program(0, b12, none, rise, none);
    quad_program(1, none, none, flush, none);
    /* The PRE_OP writes swapped (quad mode from before): back to EMPTY. */
    for (int i = 0; i < 2; i++) {
        wr(NV40_PC_QUAD_ACK_TRIGGER(0), 1);
        wr(NV40_PC_QUAD_ACK_TRIGGER(1), 1);
    }
    wr(NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
    ok = wait_state(0, NV_PC_QUAD_VALID);
    wr(NV40_PC_QUAD_ACK_TRIGGER(0), 1);
    wr(NV40_PC_QUAD_ACK_TRIGGER(1), 1);
    for (int i = 0; i < 5; i++) {
        usleep(200);
        wr(NV_FLUSH, NV_FLUSH_TRIGGER);
        for (int n = 0; n < 1000 && (rd(NV_FLUSH) & NV_FLUSH_BUSY); n++) {
            usleep(10);
        }
        flushes += !(rd(NV_FLUSH) & NV_FLUSH_BUSY);
    }
    usleep(1000);
    wr(NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
    ok &= wait_state(0, NV_PC_QUAD_VALID) && wait_state(1, NV_PC_QUAD_VALID);
    a = quad_read(0);
    b = quad_read(1);
    wr(NV40_PC_QUAD_ACK_TRIGGER(0), 1);
    wr(NV40_PC_QUAD_ACK_TRIGGER(1), 1);
    note("domain 0: CYCLES %u PRE %u EVENT %u; domain 1: CYCLES %u EVENT %u",
         a.cycles, a.pre, a.event, b.cycles, b.event);

    per = 8192.0 * dom_hz[0] / 1e9;     /* cycles per period of bit 12 */
    dev = (double)a.pre - a.cycles / 2.0;
    result("ptimer-b12", ok && a.cycles > 0 && dev >= -per / 4 - 1 &&
           dev <= per / 4 + 1 && a.event >= (uint32_t)(a.cycles / per) &&
           a.event <= (uint32_t)(a.cycles / per) + 1,
           "domain 0 (%" PRIu64 " MHz) over a %u-cycle PM_TRIGGER window: "
           "PTIMER_TIME_B12 (signal 0x%02x) 1 in %u cycles (want %.0f +- %.0f), "
           "%u rises (want %u or %u)", dom_hz[0] / 1000000, a.cycles,
           TIME_B12, a.pre, a.cycles / 2.0, per / 4 + 1, a.event,
           (uint32_t)(a.cycles / per), (uint32_t)(a.cycles / per) + 1);
    result("wrcache-flush", ok && flushes == 5 && b.event == 5,
           "%u of 5 write flushes (0x070000 = 1) done (bit 1 read 0); "
           "domain 1 counted %u PGRAPH.WRCACHE_FLUSH pulses (want 5)",
           flushes, b.event);
}

/* ---- record mode ---------------------------------------------------------- */

static uint64_t le(const volatile uint8_t *p, int n)
{
    uint64_t v = 0;

    for (int i = n - 1; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

/*
 * Domain dom records into [bus + off, bus + off + span): STOP = SYNTH0 (a
 * one-cycle pulse every PERIOD), record counter 0 = ONE, 1 = SYNTH1.
 */
static void test_record(const char *id, int dom, int is_long,
                        volatile uint8_t *buf, uint64_t bus, unsigned off,
                        unsigned span)
{
    unsigned size = is_long ? NV_PC_RECORD_LONG_SIZE : NV_PC_RECORD_SHORT_SIZE;
    unsigned nctr = is_long ? 12 : 4;
    /* One packet slot left free at the end: it must stay untouched. */
    unsigned npk = span / size - 1;
    uint32_t start = bus + off, limit = start + (npk - 1) * size;
    const Synth *s0 = &synth[dom][0];
    Input one = { SRC4(ONE, 0, 0, 0), OP_ARG0 };
    Input syn1 = { SRC4(SYN(1), 0, 0, 0), OP_ARG0 };
    uint64_t lo, hi, per, ts0 = 0, end;
    uint32_t status;
    char msg[512] = "";
    int ok = 1, w = 1;

    if (s0->high != 1 || s0->period < 2 || s0->period >= NV_PC_RECORD_FLUSH_LEVEL) {
        result(id, 0, "synth must make SYNTH0 of domain %d a 1-cycle pulse with "
               "a period of 2..32768 (it is %u/%u)", dom, s0->period, s0->high);
        return;
    }
    per = s0->period;
    memset((void *)(buf + off), 0xaa, span);
    wr(NV40_PC_PRE_SRC(dom), SRC4(ONE, SYN(1), 0, 0));
    wr(NV40_PC_START_SRC(dom), 0);
    wr(NV40_PC_EVENT_SRC(dom), 0);
    wr(NV40_PC_STOP_SRC(dom), SRC4(SYN(0), 0, 0, 0));
    wr(NV40_PC_STOP_OP(dom), OP_ARG0);
    wr(NV40_PC_CTRL(dom), NV_PC_MODE_RECORD | (is_long ? 0 : NV_PC_CTRL_RECORD_SHORT));
    wr(NV40_PC_RECORD_LIMIT(dom), limit);
    wr(NV40_PC_RECORD_START(dom), start);
    /* Until the limit is passed (reading PCOUNTER flushes packets). */
    end = now_us() + 10000000;
    do {
        usleep(200);
        status = rd(NV40_PC_RECORD_STATUS(dom));
    } while (status != limit + size && !(status & NV_PC_RECORD_STATUS_FAULT) &&
             now_us() < end);
    usleep(1000);
    status = rd(NV40_PC_RECORD_STATUS(dom));
    wr(NV40_PC_CTRL(dom), 0);
    if (status != limit + size) {
        snprintf(msg, sizeof(msg), "; RECORD_STATUS 0x%08x, want 0x%08x%s", status,
                 limit + size, status & 1 ? " (fault: DMA failed)" : " (in 10 s)");
        ok = 0;
    }
    for (unsigned k = 0; k < npk && ok; k++) {
        const volatile uint8_t *p = buf + off + k * size;
        uint64_t ts = le(p, 6), stop = le(p + 6, 2), ev0 = le(p + 8, 2);
        uint64_t ev1 = le(p + 10, 2);
        int bad = stop != 1;

        for (unsigned i = 2; i < nctr; i++) {
            bad |= le(p + 8 + 2 * i, 2) != 0;
        }
        if (k == 0) {
            /* From RECORD_START (or a packet before it) to the first STOP. */
            ts0 = ts;
            bad |= ts < 1 || ts > per || ev0 < 1 || ev0 > ts;
            bad |= !window_counts(dom, &syn1, &w, 1, ev0, ev1, &lo, &hi);
        } else {
            /* A whole STOP period: exact. */
            bad |= ts != ts0 + k * per || ev0 != per;
            bad |= !window_counts(dom, &syn1, &w, 1, per, ev1, &lo, &hi) || lo != hi;
            bad |= !window_counts(dom, &one, &w, 1, per, ev0, &lo, &hi);
        }
        if (bad) {
            snprintf(msg, sizeof(msg), "; packet %u: cycles %" PRIu64 " (first %"
                     PRIu64 ", period %" PRIu64 "), STOPs %" PRIu64 ", ctr0 %"
                     PRIu64 ", ctr1 %" PRIu64 ", ctr2 %" PRIu64, k, ts, ts0, per,
                     stop, ev0, ev1, le(p + 12, 2));
            ok = 0;
        }
    }
    for (unsigned i = npk * size; i < span && ok; i++) {
        if (buf[off + i] != 0xaa) {
            snprintf(msg, sizeof(msg), "; byte 0x%x past RECORD_LIMIT written", i);
            ok = 0;
        }
    }
    if (npk > 1) {
        const volatile uint8_t *p = buf + off + size;
        note("%s: packet 1: cycles %" PRIu64 " stops %" PRIu64 " ctr0 %" PRIu64
             " ctr1 %" PRIu64, id, le(p, 6), le(p + 6, 2), le(p + 8, 2), le(p + 10, 2));
    }
    window_counts(dom, &syn1, &w, 1, per, 0, &lo, &hi);
    result(id, ok, "domain %d %s packets at bus address 0x%08x, RECORD_LIMIT "
           "+0x%x: %u packets, RECORD_STATUS 0x%08x; packets 1..%u each %" PRIu64
           " cycles apart, 1 STOP, ctr0 (ONE) %" PRIu64 ", ctr1 (SYNTH1 %u/%u) %"
           PRIu64 ", %u zero counters; slot past the limit untouched%s",
           dom, is_long ? "LONG" : "SHORT", start, limit - start, npk, status,
           npk - 1, per, per, synth[dom][1].period, synth[dom][1].high, lo,
           nctr - 2, msg);
}

/*
 * The record-fault drill on domain dom, which the host armed: its first
 * packet write fails as a DMA fault does.  The program sees the FAULT bit
 * in RECORD_STATUS and nothing in memory, clears the bit with
 * CTRL.FAULT_CLEAR, and the domain stays wedged (the seed: until the GPU
 * is reset); domain dom + 1 then records as usual.
 */
static void test_record_fault_drill(int dom, volatile uint8_t *buf,
                                    uint64_t bus)
{
    uint32_t start = bus, status, cleared, after;
    uint64_t end = now_us() + 10000000;
    int untouched = 1, ok;

    if (synth[dom][0].high != 1) {
        result("record-fault-drill", 0, "synth must give domain %d a "
               "SYNTH0 pulse (STOP)", dom);
        return;
    }
    memset((void *)buf, 0xaa, 2048);
    wr(NV40_PC_PRE_SRC(dom), SRC4(ONE, SYN(1), 0, 0));
    wr(NV40_PC_STOP_SRC(dom), SRC4(SYN(0), 0, 0, 0));
    wr(NV40_PC_STOP_OP(dom), OP_ARG0);
    wr(NV40_PC_CTRL(dom), NV_PC_MODE_RECORD);
    wr(NV40_PC_RECORD_LIMIT(dom), start + 1024);
    wr(NV40_PC_RECORD_START(dom), start);
    do {
        usleep(200);
        status = rd(NV40_PC_RECORD_STATUS(dom));
    } while (!(status & NV_PC_RECORD_STATUS_FAULT) && now_us() < end);
    for (unsigned i = 0; i < 2048; i++) {
        untouched &= buf[i] == 0xaa;
    }
    wr(NV40_PC_CTRL(dom), NV_PC_MODE_RECORD | NV_PC_CTRL_FAULT_CLEAR);
    cleared = rd(NV40_PC_RECORD_STATUS(dom));
    /* A new buffer: a wedged domain writes nothing (many STOPs later). */
    wr(NV40_PC_RECORD_START(dom), start);
    usleep(20000);
    after = rd(NV40_PC_RECORD_STATUS(dom));
    wr(NV40_PC_CTRL(dom), 0);
    ok = status == (start | NV_PC_RECORD_STATUS_FAULT) && untouched &&
         cleared == start && after == start && buf[0] == 0xaa;
    result("record-fault-drill", ok, "domain %d under the drill: "
           "RECORD_STATUS 0x%08x (want 0x%08x: FAULT, nothing written), "
           "buffer %s; after CTRL.FAULT_CLEAR 0x%08x (want 0x%08x); "
           "a new RECORD_START, 20 ms later: 0x%08x (want 0x%08x: the "
           "domain stays wedged until GPU reset)", dom, status,
           start | NV_PC_RECORD_STATUS_FAULT,
           untouched ? "untouched" : "WRITTEN", cleared, start, after, start);
    test_record("record-after-fault", dom + 1, 1, buf, bus, 2048, 2048);
}

/* ---- main ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    const char *bdf = "0000:00:03.0";
    const char *spec = "";
    uint32_t want_boot0 = 0x084000a2, boot0;
    char path[192];
    struct stat st;
    volatile uint8_t *buf;
    uint64_t pfn, pfn2, bus;
    int fd, ok, drill = -1;

    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--bdf")) {
            bdf = argv[i + 1];
        } else if (!strcmp(argv[i], "--synth")) {
            spec = argv[i + 1];
        } else if (!strcmp(argv[i], "--boot0")) {
            want_boot0 = strtoul(argv[i + 1], NULL, 0);
        } else if (!strcmp(argv[i], "--drill-record-fault")) {
            drill = atoi(argv[i + 1]);
        }
    }
    if (drill > 6) {
        printf("# --drill-record-fault: a domain 0-6 (the next one records "
               "after it)\n");
        return 2;
    }
    if (parse_synth(spec)) {
        printf("# cannot parse synth spec '%s'\n", spec);
        return 2;
    }
    note("synth '%s'", spec);
    snprintf(devdir, sizeof(devdir), "/sys/bus/pci/devices/%s", bdf);

    /* BAR0 through sysfs, as envytools' nva_init does. */
    ok = pci_setup() == 0;
    snprintf(path, sizeof(path), "%s/resource0", devdir);
    fd = open(path, O_RDWR | O_SYNC);
    if (fd < 0 || fstat(fd, &st) || st.st_size != NV_GPU_BAR0_SIZE) {
        result("bar0-mmap", 0, "%s: %s", path, fd < 0 ? strerror(errno) :
               "not 16 MiB");
        return 1;
    }
    bar = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (bar == MAP_FAILED) {
        result("bar0-mmap", 0, "mmap %s: %s", path, strerror(errno));
        return 1;
    }
    if (drill < 0) {
        result("bar0-mmap", ok, "%s mapped (16 MiB), memory decoding and "
               "bus mastering %s", path, ok ? "enabled" : "NOT enabled");
        boot0 = rd(NV_PMC_BOOT_0);
        result("pmc-boot0", boot0 == want_boot0, "PMC BOOT_0 = 0x%08x "
               "(chipset 0x%02x)%s", boot0, (boot0 >> 20) & 0x1ff,
               boot0 == want_boot0 ? "" : ", want the G84's 0x084000a2");
        test_quad_trigger();
        test_quad_periodic();
        test_ptimer_flush();
    }

    /*
     * The record buffer: one locked anonymous page, its physical address
     * from /proc/self/pagemap (no IOMMU: bus address = guest physical).
     * compact_unevictable_allowed=0 keeps compaction off mlocked pages, and
     * the PFN is read again after the capture.
     */
    fd = open("/proc/sys/vm/compact_unevictable_allowed", O_WRONLY);
    if (fd >= 0) {
        if (write(fd, "0", 1) != 1) {
            note("cannot clear compact_unevictable_allowed");
        }
        close(fd);
    }
    buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (buf == MAP_FAILED || mlock((void *)buf, 4096)) {
        result("dma-buffer", 0, "cannot allocate and lock a page: %s", strerror(errno));
        return 1;
    }
    memset((void *)buf, 0xaa, 4096);
    pfn = pfn_of((void *)buf);
    bus = pfn << 12;
    if (!pfn || bus + 4096 > 1ull << 32) {
        result("dma-buffer", 0, "no usable physical address for the record page "
               "(pagemap PFN 0x%" PRIx64 "; RECORD_START is 32-bit)", pfn);
        return 1;
    }
    if (drill >= 0) {
        test_record_fault_drill(drill, buf, bus);
        return failures ? 1 : 0;
    }
    /* LONG packets in the first half, SHORT in the second. */
    test_record("record-long", 4, 1, buf, bus, 0, 2048);
    test_record("record-short", 5, 0, buf, bus, 2048, 2048);
    pfn2 = pfn_of((void *)buf);
    result("dma-buffer", pfn2 == pfn, "record page: locked, guest physical "
           "0x%08" PRIx64 " from /proc/self/pagemap, %s after the capture",
           bus, pfn2 == pfn ? "still there" : "MOVED");
    return failures ? 1 : 0;
}
