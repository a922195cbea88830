/*
 * intel-gpu OA unit, private to its files: the report formats and what
 * the stream, the buffer, the counters and the NOA mux call in one
 * another.
 *
 *   oa.c           the stream: OACONTROL, when reports are due (the timer,
 *                  the report and start triggers, events) and writing
 *                  them, MI_REPORT_PERF_COUNT, the fault drills,
 *                  post-load, the register table
 *   oa-buffer.c    the OA buffer: the write position and the tail stall,
 *                  a full buffer, RPT_ID, appending a report
 *   oa-counters.c  the A, B and C counters, the report formats and a
 *                  report's contents, the counter registers
 *   oa-noa.c       the NOA mux: the lanes of the metric sets the model
 *                  knows and the CEC compares over them
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_OA_INT_H
#define HW_GPUMODEL_INTEL_OA_INT_H

#include "../intel-gpu-int.h"

/*
 * A report format: its size and the byte offsets of its parts (-1: not
 * in this format).  A counters are 40 bits where the format has a high
 * byte array (a40_hi), else 32.
 */
typedef struct OaFormat {
    const char *name;
    unsigned size;
    int ts;             /* TIME_STAMP */
    int ctx;            /* CTX_ID */
    int ticks;          /* GPU_TICKS */
    int a;              /* A counters from @a_first, @n_a of them */
    unsigned a_first, n_a;
    int a40_hi;         /* high bytes of the first 32 A counters */
    int b;              /* B0.. (@n_b) */
    unsigned n_b;
    int c;              /* C0.. (@n_c) */
    unsigned n_c;
} OaFormat;

#define OA_NOA_PERIOD   6       /* of the clock-derived (TestOa) lanes */

/* oa-buffer.c */
void oa_status(IntelGpu *gpu, uint32_t bits);
void oa_stall_end(IntelGpu *gpu);
void oa_stall_expire(IntelGpu *gpu, uint64_t ns);
bool oa_really_full(IntelGpu *gpu, const OaFormat *f);
void oa_append(IntelGpu *gpu, const OaFormat *f, uint32_t reason,
               uint64_t ns);

/* oa.c */
void intel_oa_sync(IntelGpu *gpu);

/* oa-counters.c */
extern const OaFormat oa_formats[8];
const OaFormat *oa_format(IntelGpu *gpu);
void oa_sources(IntelGpu *gpu, uint64_t ns, IntelOaSources *s);
uint64_t oa_edge_ns(IntelGpu *gpu, uint64_t ns, uint64_t clocks);
void oa_counters_at(IntelGpu *gpu, uint64_t ns, IntelOaCounters *v);
void oa_build(IntelGpu *gpu, const OaFormat *f, uint32_t dw0, uint64_t ns,
              uint8_t *r);
uint32_t oa_counter_read(IntelGpu *gpu, const IntelRegBinding *b,
                         uint32_t offset);

/* oa-noa.c */
unsigned oa_noa_count(IntelGpu *gpu);
void oa_noa_match(IntelGpu *gpu);
const uint16_t (*oa_lane_prefix(IntelGpu *gpu))[OA_NOA_PERIOD + 1];
uint64_t oa_lane_span(const uint16_t *p, uint64_t c0, uint64_t c1);
void oa_noa_write(IntelGpu *gpu, const IntelRegBinding *b, uint32_t offset,
                  uint32_t old);

#endif
