/*
 * intel-gpu EU array, as the OA unit's flexible EU event counters A7-A20
 * see it (PRM "Flexible EU Event Counters", EU_PERF_CNT_CTL0-6).
 *
 * Threads the pipelines run on the EU interpreter (media.c's GPGPU and
 * media threads, render.c's pixel shaders) count one EU clock per
 * instruction they retire (intel_gfx_thread_run()).  Every thread the
 * command streamer only counts (render.c: vertex-shader threads of a
 * 3DPRIMITIVE with a VS enabled; cs-pipe.c: walkers with no kernel
 * loaded) stands for one run of a fixed synthetic kernel,
 * EU_THREAD_CLOCKS EU clocks long, on one EU.  Either way the events
 * below follow the synthetic kernel's mix of pipes and instruction
 * kinds.  Each EU runs one thread at a time, so a command's EU clocks
 * keep the engine busy EU clocks / EUs GT clocks (the EU clock is the GT
 * clock here), and the engine spreads that work evenly over the time it
 * takes (cs.c), so no event counts more than once per EU per clock.
 *
 * What an event counts is the kernel's clocks of its kind (eu_kernel[])
 * for the threads its coarse filter passes, scaled by the EU share its
 * row or EU-number filter selects; a filter the PRM does not support with
 * the event counts nothing (the PRM calls that implementation-specific).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "intel-gpu-int.h"

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
 * The synthetic kernel: per thread, the EU clocks each event is high,
 * in total (EU_FINE_NONE) and restricted to one instruction kind; -1
 * where the PRM does not support the fine filter with the event.  FPU0
 * runs 8 ternary, 16 binary and 8 mov clocks, FPU1 8 binary and 8 mov
 * (8 of them beside FPU0), the send pipe 8 clocks for 2 messages; no
 * hybrid instructions.  Some pipe is active 32 + 8 + 8 clocks, and the
 * thread stalls the other 16.
 */
static const int8_t eu_kernel[9][EU_FINE_KINDS] = {
    [EU_EV_FPU0]     = { 32, 0, 8, 16, 8, -1 },
    [EU_EV_FPU1]     = { 16, 0, 0, 8, 8, -1 },
    [EU_EV_SEND]     = { 8, -1, -1, -1, -1, 2 },
    [EU_EV_FPU_BOTH] = { 8, -1, -1, -1, -1, -1 },
    [EU_EV_ANY_PIPE] = { 48, -1, -1, -1, -1, 2 },
    [EU_EV_STALL]    = { 16, -1, -1, -1, -1, -1 },
    [6]              = { -1, -1, -1, -1, -1, -1 },
    [7]              = { -1, -1, -1, -1, -1, -1 },
    /* A pulse per EU_OCCUPANCY_STEP loaded-thread clocks: see below. */
    [EU_EV_OCCUPANCY] = { 0, -1, -1, -1, -1, -1 },
};

/* @threads of @ffid dispatched by engine @e: their EU work. */
void intel_eu_dispatch(IntelEngine *e, IntelEuFfid ffid, uint64_t threads)
{
    e->stats.eu_clocks[ffid] += MIN(threads, EU_MAX_THREADS) *
                                EU_THREAD_CLOCKS;
}

/* The GT clocks the whole array takes for @eu_clocks of work. */
uint64_t intel_eu_busy_clocks(IntelGpu *gpu, uint64_t eu_clocks)
{
    const IntelGpuConfig *c = &gpu->cfg;
    unsigned eus = MAX(c->slices * c->subslices * c->eus_per_subslice, 1);

    return eu_clocks / eus + (eu_clocks % eus != 0);
}

/* floor(@x * @num / @den) without overflow for @num < 2^8. */
static uint64_t scale(uint64_t x, unsigned num, unsigned den)
{
    return x / den * num + x % den * num / den;
}

/*
 * Flexible EU event counter @sel (one 12-bit half of an EU_PERF_CNT_CTL
 * register: event 3:0, coarse filter 7:4, fine filter 11:8) over the EU
 * work @eu_clocks (EU clocks of loaded threads, by fixed function).
 */
uint64_t intel_eu_flex_count(uint32_t sel, const uint64_t *eu_clocks)
{
    unsigned event = sel & 0xf, coarse = sel >> 4 & 0xf, fine = sel >> 8 & 0xf;
    unsigned den = EU_THREAD_CLOCKS, kind = EU_FINE_NONE;
    uint64_t loaded;
    int per_thread;

    if (event >= G_N_ELEMENTS(eu_kernel)) {
        return 0;                       /* no event, or reserved */
    }
    switch (coarse) {
    case 0:                             /* no mask */
    case 7:                             /* row 0: half of the EUs */
    case 8:                             /* row 1 */
        loaded = eu_clocks[INTEL_EU_VS] + eu_clocks[INTEL_EU_TS] +
                 eu_clocks[INTEL_EU_PS];
        den *= coarse ? 2 : 1;
        break;
    case 1:                             /* VS threads */
    case 5:                             /* PS threads */
    case 6:                             /* TS threads */
        if (event > EU_EV_SEND) {
            return 0;                   /* FFID filters: events 0-2 only */
        }
        loaded = eu_clocks[coarse == 1 ? INTEL_EU_VS :
                           coarse == 5 ? INTEL_EU_PS : INTEL_EU_TS];
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
    per_thread = eu_kernel[event][kind];
    if (per_thread < 0) {
        return 0;
    }
    if (event == EU_EV_OCCUPANCY) {
        /* One loaded thread per busy EU: the integrator adds 1 a clock. */
        return loaded / (den / EU_THREAD_CLOCKS * EU_OCCUPANCY_STEP);
    }
    return scale(loaded, per_thread, den);
}
