/*
 * intel-gpu command streamers: which registers a non-privileged (PPGTT)
 * batch buffer may write with MI_LOAD_REGISTER_IMM/MEM/REG.
 *
 * Two sources grant access:
 *
 * - the PRM's "User Mode Non-Privileged Registers" tables for each command
 *   streamer (PRM Vol 8, "Register Access and User Mode Privileges"),
 *   below; the render engine's is Gen11's as far as sources say (see
 *   rcs0_nonpriv), the others are DG2's (the DG2 PRM's tables, transcribed;
 *   the Compute CS tables are left out, this GT has no CCS);
 * - the engine's twelve RING_FORCE_TO_NONPRIV slots, through which the
 *   driver whitelists further registers (i915's icl_whitelist_build():
 *   HALF_SLICE_CHICKEN7, SAMPLER_MODE and SLICE_COMMON_ECO_CHICKEN1
 *   read-write, the PS_INVOCATION_COUNT/PS_DEPTH_COUNT range read-only).
 *
 * A register neither grants is refused: the command streamer drops the
 * command (cs-mi.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../intel-gpu-int.h"

/*
 * RING_FORCE_TO_NONPRIV slot fields, as Linux 6.1 i915 encodes them
 * (gt/intel_engine_regs.h):
 *   RING_FORCE_TO_NONPRIV_DENY          REG_BIT(30)  (Xe_HP+; PVC only)
 *   RING_FORCE_TO_NONPRIV_ACCESS_MASK   (3 << 28)
 *     _ACCESS_RW (0 << 28), _RD (1 << 28), _WR (2 << 28),
 *     _INVALID (3 << 28)
 *   RING_FORCE_TO_NONPRIV_ADDRESS_MASK  REG_GENMASK(25, 2)
 *   RING_FORCE_TO_NONPRIV_RANGE_MASK    (3 << 0)
 *     _RANGE_1 (0), _RANGE_4 (1), _RANGE_16 (2), _RANGE_64 (3) registers
 *   RING_MAX_NONPRIV_SLOTS              12
 * The address is the absolute MMIO offset of the first register.
 * intel_engine_apply_whitelist() (gt/intel_workarounds.c) fills the
 * unused slots with RING_NOPID(base), which only makes NOPID writable.
 */
#define NONPRIV_SLOTS               12
#define NONPRIV_DENY                (1u << 30)
#define NONPRIV_ACCESS_MASK         (3u << 28)
#define NONPRIV_ACCESS_RW           (0u << 28)
#define NONPRIV_ACCESS_RD           (1u << 28)
#define NONPRIV_ACCESS_WR           (2u << 28)
#define NONPRIV_ACCESS_INVALID      (3u << 28)
#define NONPRIV_ADDRESS_MASK        0x03FFFFFCu     /* bits 25:2 */
#define NONPRIV_RANGE_MASK          3u

/* Registers covered by a slot's range field: 1, 4, 16 or 64. */
#define NONPRIV_RANGE_DWORDS(v)     (1u << (2 * ((v) & NONPRIV_RANGE_MASK)))

/*
 * HEVC unit bases from the PRM's base address table; the "ALL VCS" table
 * gives its HEVC row relative to these.  VCSn pairs with HEVCn.
 */
#define NONPRIV_HEVC0_BASE          0x1C2800
#define NONPRIV_HEVC1_BASE          0x1C6800
#define NONPRIV_HEVC2_BASE          0x1D2800
#define NONPRIV_HEVC3_BASE          0x1D6800

typedef struct IntelNonPrivReg {
    const char *name;
    uint32_t offset;        /* absolute MMIO offset */
    uint32_t dwords;        /* covers offset .. offset + 4 * dwords - 1 */
} IntelNonPrivReg;

/* Rows whose offsets count from @base (0: absolute offsets). */
typedef struct IntelNonPrivRows {
    const IntelNonPrivReg *regs;
    unsigned nregs;
    uint32_t base;
} IntelNonPrivRows;

#define NONPRIV_ROWS_AT(t, b) { .regs = (t), .nregs = G_N_ELEMENTS(t), \
                                .base = (b) }
#define NONPRIV_MAX_ROWS    4

typedef struct IntelNonPrivTable {
    uint32_t base;          /* the engine's MMIO base */
    IntelNonPrivRows rows[NONPRIV_MAX_ROWS];
} IntelNonPrivTable;

/*
 * The render engine's user-mode registers on Gen11.  The Ice Lake PRM's
 * own table (Vol 8, "User Mode Non-Privileged Registers for Render Command
 * Streamer") is not at hand in text; this is the nearest PRM table, DG2's
 * (Vol 8, same section), kept where a source says its row holds on Gen11
 * and changed where one says it does not:
 *
 * - IGT 1.27.1's tests/i915/gem_ctx_isolation.c, which writes every
 *   register of its list from a user batch and reads it back, per
 *   generation (Intel's CI runs it on Ice Lake): its Gen11 rows are the
 *   DG2 rows kept below, plus L3_Config (L3CNTLREG 0x7034), TD_CTL
 *   (0xE400) and TD_CTL2 (0xE404), user-writable on Gen8 to Gen11 only,
 *   and CS_CHICKEN1 (0x2580), user-writable on Gen11 (i915 opens it with
 *   a RING_FORCE_TO_NONPRIV slot on Gen9 and Gen10 only).
 * - i915's icl_whitelist_build() opens PS_INVOCATION_COUNT and
 *   PS_DEPTH_COUNT (0x2348-0x2357) to reads through a slot: not in
 *   Gen11's table (DG2's lists them).
 * - Mesa's iris and anv (22.3) set CS_DEBUG_MODE2's CONSTANT_BUFFER
 *   Address Offset Disable (0x20D8) from a user batch on Gen9 and later
 *   and rely on it (push constant buffer 0 absolute, "only safe on
 *   kernels with context isolation support").
 * - TCCNTLREG (0xB0A4; Mesa's gen110.xml), which iris and anv program on
 *   Gen11 from a user batch: the row of DG2's table for the same control,
 *   L3TCCNTLREG (0xB138 there), taken to be Gen11's (an inference: no
 *   Gen11 text lists it).
 * - DG2's rows for what Gen11 does not have are left out: the per-slice
 *   pixel counters beyond PS_*_COUNT_2, the coarse-pixel and mesh/task
 *   counters, 3DPRIM_XP0-2 (Gen12's extended parameters), OAR, the
 *   performance-counter controls, TR-TT, the Gen12 L3 registers
 *   (LSQCREG*, L3ALLOCREG, L3TCCNTLREG), PSS_MODE, CMD_BUFF_CTL,
 *   Z_DISCARD_EN, PTBR_PAGE_POOL_SIZE, CS_MI_ADDRESS_OFFSET,
 *   MI_SET_PREDICATE_RESULT, WPARID, PREDICATION_MASK and 0xE518.
 *
 * Not listed, hence refused unless a slot opens them: 3D_CHICKEN3 (0x2090,
 * anv's AALineQualityFix on Gen11), HALF_SLICE_CHICKEN7, SAMPLER_MODE and
 * SLICE_COMMON_ECO_CHICKEN1 (i915's slots).  Offsets are absolute; names
 * as DG2's PRM spells them, typos included (IA_PRIMIVTIVES_COUNT); the
 * MI_PREDICATE_SRC0/SRC1/DATA rows are listed once per dword.
 */
static const IntelNonPrivReg rcs0_nonpriv[] = {
    { "Cache_Mode_0", 0x7000, 1 },
    { "Cache_Mode_1", 0x7004, 1 },
    { "GT_MODE", 0x7008, 1 },
    { "L3CNTLREG", 0x7034, 1 },                 /* IGT: L3_Config */
    { "TD_CTL", 0xE400, 1 },                    /* IGT */
    { "TD_CTL2", 0xE404, 1 },                   /* IGT */
    { "CS_CHICKEN1", 0x2580, 1 },               /* IGT */
    { "CS_DEBUG_MODE2", 0x20D8, 1 },            /* Mesa */
    { "TCCNTLREG", 0xB0A4, 1 },                 /* DG2's L3TCCNTLREG */
    { "NOPID", 0x2094, 1 },
    { "INSTPM", 0x20C0, 1 },
    { "IA_VERTICES_COUNT", 0x2310, 2 },
    { "IA_PRIMIVTIVES_COUNT", 0x2318, 2 },
    { "VS_INVOCATION_COUNT", 0x2320, 2 },
    { "HS_INVOCATION_COUNT", 0x2300, 2 },
    { "DS_INVOCATION_COUNT", 0x2308, 2 },
    { "GS_INVOCATION_COUNT", 0x2328, 2 },
    { "GS_PRIMITIVES_COUNT", 0x2330, 2 },
    { "SO_NUM_PRIMS_WRITTEN0", 0x5200, 2 },
    { "SO_NUM_PRIMS_WRITTEN1", 0x5208, 2 },
    { "SO_NUM_PRIMS_WRITTEN2", 0x5210, 2 },
    { "SO_NUM_PRIMS_WRITTEN3", 0x5218, 2 },
    { "SO_PRIM_STORAGE_NEEDED0", 0x5240, 2 },
    { "SO_PRIM_STORAGE_NEEDED1", 0x5248, 2 },
    { "SO_PRIM_STORAGE_NEEDED2", 0x5250, 2 },
    { "SO_PRIM_STORAGE_NEEDED3", 0x5258, 2 },
    { "SO_WRITE_OFFSET0", 0x5280, 1 },
    { "SO_WRITE_OFFSET1", 0x5284, 1 },
    { "SO_WRITE_OFFSET2", 0x5288, 1 },
    { "SO_WRITE_OFFSET3", 0x528C, 1 },
    { "CL_INVOCATION_COUNT", 0x2338, 2 },
    { "CL_PRIMITIVES_COUNT", 0x2340, 2 },
    { "PS_INVOCATION_COUNT_0", 0x22C8, 2 },
    { "PS_DEPTH_COUNT _0", 0x22D8, 2 },
    { "PS_INVOCATION_COUNT_1", 0x22F0, 2 },
    { "PS_DEPTH_COUNT _1", 0x22F8, 2 },
    { "PS_INVOCATION_COUNT_2", 0x2448, 2 },
    { "PS_DEPTH_COUNT_2", 0x2450, 2 },
    { "GPUGPU_DISPATCHDIMX", 0x2500, 1 },
    { "GPUGPU_DISPATCHDIMY", 0x2504, 1 },
    { "GPUGPU_DISPATCHDIMZ", 0x2508, 1 },
    { "MI_PREDICATE_SRC0", 0x2400, 1 },
    { "MI_PREDICATE_SRC0", 0x2404, 1 },
    { "MI_PREDICATE_SRC1", 0x2408, 1 },
    { "MI_PREDICATE_SRC1", 0x240C, 1 },
    { "MI_PREDICATE_DATA", 0x2410, 1 },
    { "MI_PREDICATE_DATA", 0x2414, 1 },
    { "MI_PREDICATE_RESULT", 0x2418, 1 },
    { "MI_PREDICATE_RESULT_1", 0x241C, 1 },
    { "MI_PREDICATE_RESULT_2", 0x23BC, 1 },
    { "3DPRIM_END_OFFSET", 0x2420, 1 },
    { "3DPRIM_START_VERTEX", 0x2430, 1 },
    { "3DPRIM_VERTEX_COUNT", 0x2434, 1 },
    { "3DPRIM_INSTANCE_COUNT", 0x2438, 1 },
    { "3DPRIM_START_INSTANCE", 0x243C, 1 },
    { "3DPRIM_BASE_VERTEX", 0x2440, 1 },
    { "GPGPU_THREADS_DISPATCHED", 0x2290, 2 },
    { "BB_OFFSET", 0x2158, 1 },
    { "CS_GPR (1-16)", 0x2600, 32 },
    { "OA_CTX_CONTROL", 0x2360, 1 },
    { "OACTXID", 0x2364, 1 },
};

/*
 * "User Mode Non-Privileged Registers for Blitter Command Streamer(BCS)".
 * Offsets are absolute.
 */
static const IntelNonPrivReg bcs0_nonpriv[] = {
    { "BCS_GPR", 0x22600, 32 },
    { "BCS_SWCTRL", 0x22200, 1 },
    { "BLIT_CCTL", 0x22204, 1 },
    { "PR_CTR_CTL_BCSUNIT", 0x22178, 1 },
    { "PR_CTR_THRSH_BCSUNIT", 0x2217C, 1 },
    { "BLT_TRTT_CR", 0x4480, 1 },
    { "BLT_TRTT_VA_RANGE", 0x4484, 1 },
    { "BLT_TRTT_L3_BASE_LOW", 0x4488, 1 },
    { "BLT_TRTT_L3_BASE_HIGH", 0x448C, 1 },
    { "BLT_TRTT_NULL", 0x4490, 1 },
    { "BLT_TRTT_INV", 0x4494, 1 },
    { "NOPID", 0x22094, 1 },
    { "MI_PREDICATE_RESULT_1", 0x2241C, 1 },
    { "MI_PREDICATE_RESULT_2", 0x223BC, 1 },
    { "INSTPM", 0x220C0, 1 },
    { "CS_MI_ADDRESS_OFFSET", 0x223B4, 1 },
    { "MI_SET_PREDICATE_RESULT", 0x223B8, 1 },
    { "WPARID", 0x2221C, 1 },
    { "PREDICATION_MASK", 0x221FC, 1 },
};

/* The rows the VECS and VCS tables share, relative to the engine's base. */
static const IntelNonPrivReg cs_common_nonpriv[] = {
    { "NOPID", 0x094, 1 },
    { "MI_PREDICATE_RESULT_1", 0x41C, 1 },
    { "MI_PREDICATE_RESULT_2", 0x3BC, 1 },
    { "INSTPM", 0x0C0, 1 },
    { "CS_MI_ADDRESS_OFFSET", 0x3B4, 1 },
    { "MI_SET_PREDICATE_RESULT", 0x3B8, 1 },
    { "WPARID", 0x21C, 1 },
    { "PREDICATION_MASK", 0x1FC, 1 },
};

/*
 * "User Mode Non-Privileged Registers for Video Enhancement Command
 * Streamer (VECS)": offsets relative to the VECS base, which the PRM says
 * to take from its base address table (VECS 0x1C8000, VECS1 0x1D8000).
 */
static const IntelNonPrivReg vecs_nonpriv[] = {
    { "VECS_GPR", 0x600, 32 },
    { "PR_CTR_CTL_VECSUNIT", 0x178, 1 },
    { "PR_CTR_THRSH_VECSUNIT", 0x17C, 1 },
};

/*
 * "User Mode Non-Privileged Registers for Video Command Streamer (ALL
 * VCS)": offsets relative to the VCS base, except HEVC, relative to the
 * HEVC unit's base; both from the PRM's base address table.
 */
static const IntelNonPrivReg vcs_nonpriv[] = {
    { "VCS_GPR", 0x600, 32 },
    { "PR_CTR_CTL_VCSUNIT", 0x178, 1 },
    { "PR_CTR_THRSH_VCSUNIT", 0x17C, 1 },
    { "MFC_VDBOX1", 0x800, 512 },
};

static const IntelNonPrivReg hevc_nonpriv[] = {
    { "HEVC", 0x00, 64 },
};

/*
 * The TRTT registers are "not at a standard offset from their
 * corresponding CS MMIO base address", so the PRM lists them per engine
 * (VEBOX-0/1, VDBOX-0..3) at absolute offsets, relative to TRTT_CR here;
 * the PRM's footnote mark ("TRTT_CR*") is left out of the names.
 */
static const IntelNonPrivReg trtt_nonpriv[] = {
    { "TRTT_CR", 0x00, 1 },
    { "TRTT_VA_RANGE", 0x04, 1 },
    { "TRTT_L3_BASE_LOW", 0x08, 1 },
    { "TRTT_L3_BASE_HIGH", 0x0C, 1 },
    { "TRTT_NULL", 0x10, 1 },
    { "TRTT_INVAL", 0x14, 1 },
};

#define NONPRIV_VCS(b, hevc, trtt_cr) { .base = (b), .rows = { \
    NONPRIV_ROWS_AT(vcs_nonpriv, b), NONPRIV_ROWS_AT(hevc_nonpriv, hevc), \
    NONPRIV_ROWS_AT(cs_common_nonpriv, b), \
    NONPRIV_ROWS_AT(trtt_nonpriv, trtt_cr) } }
#define NONPRIV_VECS(b, trtt_cr) { .base = (b), .rows = { \
    NONPRIV_ROWS_AT(vecs_nonpriv, b), NONPRIV_ROWS_AT(cs_common_nonpriv, b), \
    NONPRIV_ROWS_AT(trtt_nonpriv, trtt_cr) } }

/* In the order of IntelEngineId; the TRTT_CR of VDBOX-n and VEBOX-n. */
static const IntelNonPrivTable nonpriv_tables[] = {
    [INTEL_RCS0] = { INTEL_RCS0_BASE, { NONPRIV_ROWS_AT(rcs0_nonpriv, 0) } },
    [INTEL_BCS0] = { INTEL_BCS0_BASE, { NONPRIV_ROWS_AT(bcs0_nonpriv, 0) } },
    [INTEL_VCS0] = NONPRIV_VCS(INTEL_VCS0_BASE, NONPRIV_HEVC0_BASE, 0x4420),
    [INTEL_VCS1] = NONPRIV_VCS(INTEL_VCS1_BASE, NONPRIV_HEVC1_BASE, 0x4440),
    [INTEL_VCS2] = NONPRIV_VCS(INTEL_VCS2_BASE, NONPRIV_HEVC2_BASE, 0x4520),
    [INTEL_VCS3] = NONPRIV_VCS(INTEL_VCS3_BASE, NONPRIV_HEVC3_BASE, 0x4540),
    [INTEL_VECS0] = NONPRIV_VECS(INTEL_VECS0_BASE, 0x4460),
    [INTEL_VECS1] = NONPRIV_VECS(INTEL_VECS1_BASE, 0x4560),
};

/* Compile-time sanity checks on the tables and the slot encoding. */
G_STATIC_ASSERT(G_N_ELEMENTS(nonpriv_tables) == INTEL_ENGINE_COUNT);
G_STATIC_ASSERT(G_N_ELEMENTS(rcs0_nonpriv) == 61);
G_STATIC_ASSERT(G_N_ELEMENTS(bcs0_nonpriv) == 19);
G_STATIC_ASSERT(G_N_ELEMENTS(vcs_nonpriv) + G_N_ELEMENTS(hevc_nonpriv) +
                G_N_ELEMENTS(cs_common_nonpriv) == 13);
G_STATIC_ASSERT(G_N_ELEMENTS(vecs_nonpriv) +
                G_N_ELEMENTS(cs_common_nonpriv) == 11);
G_STATIC_ASSERT(G_N_ELEMENTS(trtt_nonpriv) == 6);
G_STATIC_ASSERT(NONPRIV_RANGE_DWORDS(0) == 1);
G_STATIC_ASSERT(NONPRIV_RANGE_DWORDS(1) == 4);
G_STATIC_ASSERT(NONPRIV_RANGE_DWORDS(2) == 16);
G_STATIC_ASSERT(NONPRIV_RANGE_DWORDS(3) == 64);
G_STATIC_ASSERT(INTEL_VECS1_BASE + INTEL_RING_FORCE_TO_NONPRIV(11) <
                INTEL_MMIO_SIZE);

/* Does [start, start + 4 * dwords) hold @offset? */
static bool nonpriv_covers(uint32_t start, uint32_t dwords, uint32_t offset)
{
    return offset >= start && offset - start < 4 * dwords;
}

/* Does one of engine @t's RING_FORCE_TO_NONPRIV slots allow the write? */
static bool nonpriv_slot_allows(IntelGpu *gpu, const IntelNonPrivTable *t,
                                uint32_t offset)
{
    for (unsigned i = 0; i < NONPRIV_SLOTS; i++) {
        uint32_t v = intel_reg_get(gpu,
                                   t->base + INTEL_RING_FORCE_TO_NONPRIV(i));
        uint32_t access = v & NONPRIV_ACCESS_MASK;
        uint32_t addr = v & NONPRIV_ADDRESS_MASK;

        /*
         * A deny entry grants nothing.  Address 0 is a slot never
         * programmed (storage resets to 0), not a whitelisted register.
         */
        if ((v & NONPRIV_DENY) || addr == 0) {
            continue;
        }
        if (access != NONPRIV_ACCESS_RW && access != NONPRIV_ACCESS_WR) {
            continue;
        }
        if (nonpriv_covers(addr, NONPRIV_RANGE_DWORDS(v), offset)) {
            return true;
        }
    }
    return false;
}

bool intel_cs_nonpriv_write_allowed(IntelGpu *gpu, IntelEngineId id,
                                    uint32_t offset)
{
    const IntelNonPrivTable *t;

    if ((unsigned)id >= INTEL_ENGINE_COUNT) {
        return false;
    }
    t = &nonpriv_tables[id];

    for (unsigned r = 0; r < NONPRIV_MAX_ROWS; r++) {
        const IntelNonPrivRows *rows = &t->rows[r];

        for (unsigned i = 0; i < rows->nregs; i++) {
            if (nonpriv_covers(rows->base + rows->regs[i].offset,
                               rows->regs[i].dwords, offset)) {
                return true;
            }
        }
    }
    return nonpriv_slot_allows(gpu, t, offset);
}
