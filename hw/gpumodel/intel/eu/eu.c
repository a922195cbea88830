/*
 * intel-gpu EU array, as the OA unit's flexible EU event counters A7-A20
 * see it (PRM "Flexible EU Event Counters", EU_PERF_CNT_CTL0-6).
 *
 * Threads the pipelines run on the EU interpreter (media.c's GPGPU and
 * media threads, render.c's pixel shaders) count what they executed
 * (intel_gfx_thread_run()): one loaded EU clock per instruction retired,
 * spent on the pipe the instruction issues to, by its kind (EuEvClass in
 * eu-exec.h: math on FPU1, the rest of the ALU on FPU0, sends on the send
 * pipe, branches on none).  One thread runs on an EU at a time and
 * issues one instruction a clock, so FPU0 and FPU1 are never active
 * together, and a clock whose instruction uses no counted pipe is a
 * stall.  Every thread the command streamer only counts (render.c:
 * vertex-shader threads of a 3DPRIMITIVE with a VS enabled; cs-pipe.c:
 * walkers with no kernel loaded) stands for one run of a fixed synthetic
 * kernel, EU_THREAD_CLOCKS EU clocks long, of the mix eu_kernel[] gives.
 * Each EU runs one thread at a time, so a command's EU clocks keep the
 * engine busy EU clocks / EUs GT clocks (the EU clock is the GT clock
 * here), and the engine spreads that work evenly over the time it takes
 * (cs.c), so no event counts more than once per EU per clock.
 *
 * What an event counts is the clocks of its kind (IntelEuEv) of the
 * threads its coarse filter passes, divided by the EU share its row or
 * EU-number filter selects; a filter the PRM does not support with the
 * event counts nothing (the PRM calls that implementation-specific).
 * Some pipe is active when FPU0, FPU1 or the send pipe is; a thread
 * stalls in its loaded clocks with none active: every loaded clock is
 * one or the other.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../intel-gpu-int.h"
#include "eu-exec.h"

#define EU_THREAD_CLOCKS    64
/*
 * The threads-loaded integrator overflows every 8 loaded-thread clocks: a
 * 3-bit accumulator, the PRM's example, which IGT's and Intel's "EU thread
 * occupancy" (8 x count / threads per EU / (EUs x clocks)) assume.
 */
#define EU_OCCUPANCY_STEP   8
/*
 * One command's threads at most (2^30 EU clocks: 56 ms on 64 EUs at 300
 * MHz), so a guest's walker dimensions cannot stall the engine for days.
 */
#define EU_MAX_THREADS      (1ull << 24)

/* Increment events (EU_PERF_CNT_CTL field bits 3:0). */
enum {
    EU_EV_FPU0,             /* 0b0000 FPU0 pipeline active */
    EU_EV_FPU1,             /* 0b0001 FPU1 pipeline active */
    EU_EV_SEND,             /* 0b0010 send pipeline active */
    EU_EV_FPU_BOTH,         /* 0b0011 FPU0 and FPU1 concurrently active */
    EU_EV_ANY_PIPE,         /* 0b0100 some EU pipeline active */
    EU_EV_STALL,            /* 0b0101 a thread loaded, no pipeline active */
    EU_EV_OCCUPANCY = 8,    /* 0b1000 threads-loaded integrator overflow */
};

/* Fine event filters (bits 11:8) that select an instruction kind. */
enum {
    EU_FINE_NONE,
    EU_FINE_HYBRID,
    EU_FINE_TERNARY,
    EU_FINE_BINARY,
    EU_FINE_MOV,
    EU_FINE_SEND_START,
    EU_FINE_KINDS
};

/*
 * The synthetic kernel's events per thread: FPU0 runs 8 ternary, 16
 * binary and 8 mov clocks, FPU1 8 binary and 8 mov (8 of them beside
 * FPU0), the send pipe 8 clocks for 2 messages; no hybrid instructions.
 * Some pipe is active 32 + 16 + 8 - 8 = 48 clocks, and the thread stalls
 * the other 16.
 */
static const uint8_t eu_kernel[INTEL_EU_EVS] = {
    [INTEL_EU_EV_FPU0] = 32,
    [INTEL_EU_EV_FPU0 + EU_FINE_TERNARY] = 8,
    [INTEL_EU_EV_FPU0 + EU_FINE_BINARY] = 16,
    [INTEL_EU_EV_FPU0 + EU_FINE_MOV] = 8,
    [INTEL_EU_EV_FPU1] = 16,
    [INTEL_EU_EV_FPU1 + EU_FINE_BINARY] = 8,
    [INTEL_EU_EV_FPU1 + EU_FINE_MOV] = 8,
    [INTEL_EU_EV_SEND] = 8,
    [INTEL_EU_EV_SEND_START] = 2,
    [INTEL_EU_EV_FPU_BOTH] = 8,
    [INTEL_EU_EV_ANY] = 48,
    [INTEL_EU_EV_STALL] = 16,
};

/* @threads of @ffid dispatched by engine @e: their EU work. */
void intel_eu_dispatch(IntelEngine *e, IntelEuFfid ffid, uint64_t threads)
{
    threads = MIN(threads, EU_MAX_THREADS);
    e->stats.eu_clocks[ffid] += threads * EU_THREAD_CLOCKS;
    for (unsigned i = 0; i < INTEL_EU_EVS; i++) {
        e->stats.eu_ev[ffid][i] += threads * eu_kernel[i];
    }
}

/*
 * A real thread of @ffid on engine @e retired the instructions between
 * its EuThread.ev_clocks @before and @after: their events.
 */
void intel_eu_thread_events(IntelEngine *e, IntelEuFfid ffid,
                            const uint64_t *before, const uint64_t *after)
{
    uint64_t *ev = e->stats.eu_ev[ffid];
    uint64_t sends = after[EU_EVC_SEND] - before[EU_EVC_SEND];
    static const uint8_t kind_fine[] = {
        [EU_EVK_OTHER] = EU_FINE_NONE, [EU_EVK_TERNARY] = EU_FINE_TERNARY,
        [EU_EVK_BINARY] = EU_FINE_BINARY, [EU_EVK_MOV] = EU_FINE_MOV,
    };

    for (unsigned k = 0; k < G_N_ELEMENTS(kind_fine); k++) {
        uint64_t f0 = after[EU_EVC_FPU0 + k] - before[EU_EVC_FPU0 + k];
        uint64_t f1 = after[EU_EVC_FPU1 + k] - before[EU_EVC_FPU1 + k];

        ev[INTEL_EU_EV_FPU0] += f0;
        ev[INTEL_EU_EV_FPU1] += f1;
        ev[INTEL_EU_EV_ANY] += f0 + f1;
        if (kind_fine[k] != EU_FINE_NONE) {
            ev[INTEL_EU_EV_FPU0 + kind_fine[k]] += f0;
            ev[INTEL_EU_EV_FPU1 + kind_fine[k]] += f1;
        }
    }
    /* One clock per send: it issues, and starts one message. */
    ev[INTEL_EU_EV_SEND] += sends;
    ev[INTEL_EU_EV_SEND_START] += sends;
    ev[INTEL_EU_EV_ANY] += sends;
    ev[INTEL_EU_EV_STALL] += after[EU_EVC_NONE] - before[EU_EVC_NONE];
}

/* The GT clocks the whole array takes for @eu_clocks of work. */
uint64_t intel_eu_busy_clocks(IntelGpu *gpu, uint64_t eu_clocks)
{
    const IntelGpuConfig *c = &gpu->cfg;
    unsigned eus = MAX(c->slices * c->subslices * c->eus_per_subslice, 1);

    return eu_clocks / eus + (eu_clocks % eus != 0);
}

/*
 * The count of @event (fine filter @kind) over the work @ev of threads
 * that were loaded @loaded clocks, or -1 where the PRM does not support
 * the filter with the event.
 */
static int64_t eu_event(unsigned event, unsigned kind, uint64_t loaded,
                        const uint64_t *ev)
{
    bool any_kind = kind == EU_FINE_NONE;

    switch (event) {
    case EU_EV_FPU0:
    case EU_EV_FPU1:
        if (kind == EU_FINE_SEND_START) {
            return -1;
        }
        return ev[(event == EU_EV_FPU0 ? INTEL_EU_EV_FPU0 :
                   INTEL_EU_EV_FPU1) + kind];
    case EU_EV_SEND:
    case EU_EV_ANY_PIPE:
        if (kind == EU_FINE_SEND_START) {
            return ev[INTEL_EU_EV_SEND_START];
        }
        if (!any_kind) {
            return -1;
        }
        return ev[event == EU_EV_SEND ? INTEL_EU_EV_SEND : INTEL_EU_EV_ANY];
    case EU_EV_FPU_BOTH:
        return any_kind ? (int64_t)ev[INTEL_EU_EV_FPU_BOTH] : -1;
    case EU_EV_STALL:
        return any_kind ? (int64_t)ev[INTEL_EU_EV_STALL] : -1;
    case EU_EV_OCCUPANCY:
        /* One loaded thread per busy EU: the integrator adds 1 a clock. */
        return any_kind ? (int64_t)(loaded / EU_OCCUPANCY_STEP) : -1;
    }
    return -1;                          /* no event, or reserved */
}

/*
 * Flexible EU event counter @sel (one 12-bit half of an EU_PERF_CNT_CTL
 * register: event 3:0, coarse filter 7:4, fine filter 11:8) over the EU
 * work @eu_clocks (EU clocks of loaded threads, by fixed function) and
 * @eu_ev (their events).
 */
uint64_t intel_eu_flex_count(uint32_t sel, const uint64_t *eu_clocks,
                             const uint64_t (*eu_ev)[INTEL_EU_EVS])
{
    unsigned event = sel & 0xf, coarse = sel >> 4 & 0xf, fine = sel >> 8 & 0xf;
    unsigned den = 1, kind = EU_FINE_NONE, ffids;
    uint64_t loaded = 0, ev[INTEL_EU_EVS] = { 0 };
    int64_t n;

    switch (coarse) {
    case 0:                             /* no mask */
    case 7:                             /* row 0: half of the EUs */
    case 8:                             /* row 1 */
        ffids = 1u << INTEL_EU_VS | 1u << INTEL_EU_TS | 1u << INTEL_EU_PS;
        den = coarse ? 2 : 1;
        break;
    case 1:                             /* VS threads */
    case 5:                             /* PS threads */
    case 6:                             /* TS threads */
        if (event > EU_EV_SEND) {
            return 0;                   /* FFID filters: events 0-2 only */
        }
        ffids = 1u << (coarse == 1 ? INTEL_EU_VS :
                       coarse == 5 ? INTEL_EU_PS : INTEL_EU_TS);
        break;
    default:                            /* HS, DS, GS: none modelled */
        return 0;
    }
    if (fine >= 7 && fine <= 10) {      /* EU number 0-3: a quarter */
        den *= 4;
    } else if (fine < EU_FINE_KINDS) {
        kind = fine;
    } else {
        return 0;
    }
    for (unsigned f = 0; f < INTEL_EU_FFIDS; f++) {
        if (ffids >> f & 1) {
            loaded += eu_clocks[f];
            for (unsigned i = 0; i < INTEL_EU_EVS; i++) {
                ev[i] += eu_ev[f][i];
            }
        }
    }
    n = eu_event(event, kind, loaded, ev);
    return n < 0 ? 0 : (uint64_t)n / den;
}
