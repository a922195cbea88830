/*
 * intel-gpu OA unit: the NOA mux.  What the NOA registers of the metric
 * sets the model knows (include/hw/gpumodel/intel-oa-metric-sets.h) put
 * on the OA unit's 16 NOA lanes, and per GT clock of a NOA period which
 * lanes are high and which CEC compares hold: what the B and C counters
 * count (oa-counters.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "oa-int.h"
#include "hw/gpumodel/intel-oa-metric-sets.h"

/*
 * The NOA mux.  Each NOA_WRITE programs one NOA register: its address in
 * bits 31:16, below NOA_WRITE_HIGH, and its value in 15:0.  Neither the
 * PRMs nor a driver source say what the registers select, so the model
 * knows the programming of two of the metric sets Intel publishes for
 * ICL (IGT's oa-icl.xml, which i915 loads as written) and the lanes they
 * put on the OA unit's 16 NOA inputs, as their counter equations and
 * IGT's checks of them imply (docs/intel-gpu-oa.rst):
 *   TestOa       lane 3 high on odd GT clocks (a clock/2 square wave),
 *                lanes 5:4 01 on clocks 1 mod 3 and 10 on clocks 2 mod 3
 *   GpuBusyness  lanes 11-15: the copy engine, any video-enhancement
 *                engine, video engine 1, video engine 0 and the render
 *                engine active (its BlitterBusy ... RenderBusy are C3-C7)
 * A selection drives its lanes while each NOA register it programs holds
 * its value and RPM_CONFIG1's NOA enable is set; other lanes are 0.
 */
enum { OA_NOA_TEST_OA, OA_NOA_GPU_BUSYNESS, OA_NOA_SELECTIONS };

/* The selections' configurations (include/hw/gpumodel/...-metric-sets.h). */
static const struct {
    const IntelRegValue *regs;
    unsigned n;
} oa_noa_configs[OA_NOA_SELECTIONS] = {
    [OA_NOA_TEST_OA] = { intel_icl_test_oa, G_N_ELEMENTS(intel_icl_test_oa) },
    [OA_NOA_GPU_BUSYNESS] = { intel_icl_gpu_busyness,
                              G_N_ELEMENTS(intel_icl_gpu_busyness) },
};

/*
 * The NOA registers the selections write, in their configurations' order
 * (gpu->oa.noa[] holds their values): NOA_WRITE_HIGH, then NOA_WRITE's
 * address (31:16) and value (15:0).
 */
typedef struct OaNoaReg {
    unsigned sel;               /* OA_NOA_* */
    uint32_t high;              /* NOA_WRITE_HIGH */
    uint32_t write;             /* NOA_WRITE */
} OaNoaReg;

typedef void OaNoaFn(IntelGpu *gpu, unsigned i, const OaNoaReg *r,
                     void *opaque);

/* Call @fn for each of them; returns how many there are. */
static unsigned oa_noa_walk(IntelGpu *gpu, OaNoaFn *fn, void *opaque)
{
    unsigned i = 0;

    for (unsigned sel = 0; sel < OA_NOA_SELECTIONS; sel++) {
        OaNoaReg r = { .sel = sel };

        for (unsigned k = 0; k < oa_noa_configs[sel].n; k++) {
            const IntelRegValue *rv = &oa_noa_configs[sel].regs[k];

            if (rv->reg == INTEL_NOA_WRITE_HIGH) {
                r.high = rv->val;
            } else if (rv->reg == INTEL_NOA_WRITE) {
                r.write = rv->val;
                if (fn) {
                    fn(gpu, i, &r, opaque);
                }
                i++;
            }
        }
    }
    return i;
}

/* A selection one of whose registers holds another value does not hold. */
static void oa_noa_miss(IntelGpu *gpu, unsigned i, const OaNoaReg *r,
                        void *opaque)
{
    if (gpu->oa.noa[i] != GPU_FIELD_EX32(r->write, INTEL_NOA_WRITE, VALUE)) {
        gpu->oa.noa_sel &= ~(1u << r->sel);
    }
}

/* Which selections the NOA registers hold, into oa.noa_sel. */
void oa_noa_match(IntelGpu *gpu)
{
    gpu->oa.noa_sel = (1u << OA_NOA_SELECTIONS) - 1;
    oa_noa_walk(gpu, oa_noa_miss, NULL);
}

/* Does selection @sel drive its lanes now? */
static bool oa_noa_on(IntelGpu *gpu, unsigned sel)
{
    return (intel_reg_get(gpu, INTEL_RPM_CONFIG1) &
            INTEL_RPM_CONFIG1_GT_NOA_ENABLE) && (gpu->oa.noa_sel & 1u << sel);
}

/* The lanes that hold from one sync to the next: engine activity. */
static uint16_t oa_noa_held(IntelGpu *gpu)
{
    /* GpuBusyness's lane per engine; 0: none (VCS2 and VCS3) */
    static const uint8_t lane[INTEL_ENGINE_COUNT] = {
        [INTEL_RCS0] = 15, [INTEL_BCS0] = 11, [INTEL_VCS0] = 14,
        [INTEL_VCS1] = 13, [INTEL_VECS0] = 12, [INTEL_VECS1] = 12,
    };
    uint16_t v = 0;

    if (!oa_noa_on(gpu, OA_NOA_GPU_BUSYNESS)) {
        return 0;
    }
    for (unsigned i = 0; i < INTEL_ENGINE_COUNT; i++) {
        if (intel_engine_ctx_active(&gpu->engine[i]) && lane[i]) {
            v |= 1u << lane[i];
        }
    }
    return v;
}

/* The lanes at GT clock @c: @held, and TestOa's clock-derived ones. */
static uint16_t oa_noa_at(uint16_t held, bool test, uint64_t c)
{
    if (!test) {
        return held;
    }
    return held | (c & 1) << 3 | (c % 3 == 1) << 4 | (c % 3 == 2) << 5;
}

/*
 * CECn_0: compare function (2:0), compare value (18:3), select (20:19);
 * CECn_1: mask (15:0), 1 = lane not considered.  Functions 1-7 are sets of
 * {greater, equal, less} (i915's names: 1 >, 2 ==, 3 >=, 4 <, 5 !=, 6 <=;
 * 7 always, as TestOa's B2 needs); 0 "any equal": some considered lane
 * equals the value's bit (GpuBusyness's AnyRingBusy).  The select is not
 * used: TestOa compares the lanes with select 2 ("Boolean"), GpuBusyness
 * with 0 ("NOA"), and no published configuration uses 1.
 */
static bool cec_holds(uint32_t ctl, uint32_t mask, uint16_t noa)
{
    uint16_t considered = ~mask;
    uint16_t s = noa & considered;
    uint16_t v = GPU_FIELD_EX32(ctl, INTEL_OACEC, VALUE) & considered;
    unsigned fn = GPU_FIELD_EX32(ctl, INTEL_OACEC, COMPARE);

    if (!fn) {
        return (uint16_t)~(s ^ v) & considered;
    }
    return ((fn & 1) && s > v) || ((fn & 2) && s == v) ||
           ((fn & 4) && s < v);
}

/*
 * Per row, the clocks among the first k of a NOA period (k = 0-6) on which
 * CEC n holds (rows 0-7) or lane n is high (rows 8-15: the C counters),
 * with the engines and the configuration as they are.
 */
const uint16_t (*oa_lane_prefix(IntelGpu *gpu))[OA_NOA_PERIOD + 1]
{
    IntelOaState *oa = &gpu->oa;

    if (!oa->lane_valid) {
        uint16_t held = oa_noa_held(gpu);
        bool test = oa_noa_on(gpu, OA_NOA_TEST_OA);

        for (unsigned i = 0; i < 2 * INTEL_OA_BC_COUNTERS; i++) {
            bool cec = i < INTEL_OA_BC_COUNTERS;
            uint32_t ctl = cec ? intel_reg_get(gpu, INTEL_OACEC(2 * i)) : 0;
            uint32_t mask = cec ? intel_reg_get(gpu, INTEL_OACEC(2 * i + 1))
                                : 0;

            oa->lane_prefix[i][0] = 0;
            for (unsigned k = 0; k < OA_NOA_PERIOD; k++) {
                uint16_t noa = oa_noa_at(held, test, k);

                oa->lane_prefix[i][k + 1] = oa->lane_prefix[i][k] +
                    (cec ? cec_holds(ctl, mask, noa) : noa >> i & 1);
            }
        }
        oa->lane_valid = true;
    }
    return (const uint16_t (*)[OA_NOA_PERIOD + 1])oa->lane_prefix;
}

/* Clocks in [@c0, @c1) a prefix row @p counts. */
uint64_t oa_lane_span(const uint16_t *p, uint64_t c0, uint64_t c1)
{
    return (c1 / OA_NOA_PERIOD - c0 / OA_NOA_PERIOD) * p[OA_NOA_PERIOD] +
           p[c1 % OA_NOA_PERIOD] - p[c0 % OA_NOA_PERIOD];
}

/*
 * NOA_WRITE's register, if it is @r: the first change (*@synced false)
 * folds in what counted under the old lanes.
 */
static void oa_noa_store(IntelGpu *gpu, unsigned i, const OaNoaReg *r,
                         void *synced)
{
    IntelOaState *oa = &gpu->oa;
    uint32_t w = intel_reg_get(gpu, INTEL_NOA_WRITE);

    if (r->high == intel_reg_get(gpu, INTEL_NOA_WRITE_HIGH) &&
        GPU_FIELD_EX32(r->write, INTEL_NOA_WRITE, ADDR) ==
        GPU_FIELD_EX32(w, INTEL_NOA_WRITE, ADDR) &&
        oa->noa[i] != GPU_FIELD_EX32(w, INTEL_NOA_WRITE, VALUE)) {
        if (!*(bool *)synced) {
            intel_oa_sync(gpu);
            *(bool *)synced = true;
        }
        oa->noa[i] = GPU_FIELD_EX32(w, INTEL_NOA_WRITE, VALUE);
    }
}

/*
 * NOA_WRITE: the NOA register NOA_WRITE_HIGH and bits 31:16 address takes
 * bits 15:0.  Only the registers of the selections the model knows are
 * kept; a change of one first folds in what counted under the old lanes.
 */
void oa_noa_write(IntelGpu *gpu, const IntelRegBinding *b,
                  uint32_t offset, uint32_t old)
{
    bool synced = false;

    oa_noa_walk(gpu, oa_noa_store, &synced);
    oa_noa_match(gpu);
}

/* How many NOA registers the selections program (IntelOaState's slots). */
unsigned oa_noa_count(IntelGpu *gpu)
{
    return oa_noa_walk(gpu, NULL, NULL);
}
