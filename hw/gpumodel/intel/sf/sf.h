/*
 * intel-gpu shared functions: what an EU thread's SEND reaches (PRM Vol 7:
 * 3D-Media-GPGPU, "Shared Functions", "Sampler", "Data Port"; the message
 * descriptors in PRM Vol 2d: Command Reference: Structures).
 *
 * The pipelines (media.c: GPGPU and media; render.c: 3D) dispatch EU
 * threads and give each an IntelSfThread saying where its surfaces,
 * samplers and memory are.  intel_sf_send() is the threads' EuSendFn: it
 * routes a message by SFID to the sampler (sf-sampler.c) or a data port
 * (sf-dataport.c); surface.c decodes surface and sampler states and
 * addresses texels through tiling.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_SF_H
#define HW_GPUMODEL_INTEL_SF_H

#include "../intel-gpu-int.h"
#include "../eu/eu-exec.h"
#include "../mem/tiling.h"
#include "hw/gpumodel/intel/gen11-state.h"

/*
 * A RENDER_SURFACE_STATE as the shared functions use it (PRM Vol 2d:
 * Command Reference: Structures, "RENDER_SURFACE_STATE").
 */
typedef struct IntelSurface {
    uint64_t base;          /* graphics address (the context's PPGTT) */
    uint32_t type;          /* Surface Type: SURFTYPE_* */
    uint32_t format;        /* Surface Format: SURFACE_FORMAT */
    uint32_t width, height; /* in elements (the fields + 1) */
    uint32_t depth;
    uint32_t pitch;         /* bytes (the field + 1) */
    uint32_t cpp;           /* bytes per element, 0 if the format is not
                             * one the model knows */
    IntelTiling tiling;
    /*
     * Shader channel selects: what the sampler returns in R, G, B, A
     * (INTEL_SCS_*).
     */
    uint8_t scs[4];
    uint32_t levels;        /* mip levels (MIP Count / LOD + 1) */
    /*
     * 2D arrays and 3D surfaces: rows from one layer (slice) to the next
     * (QPitch), and the layer that index 0 names (Minimum Array Element);
     * layers below depth.
     */
    uint32_t qpitch;
    uint32_t min_array;
    /*
     * The fast clear colour, as a pixel shader outputs it: the four
     * dwords at clear_addr (Clear Value Address Enable), else clear[].
     */
    uint64_t clear_addr;
    uint32_t clear[4];
} IntelSurface;

/* Surface types (RENDER_SURFACE_STATE's Surface Type). */
enum {
    INTEL_SURFTYPE_1D = 0, INTEL_SURFTYPE_2D = 1, INTEL_SURFTYPE_3D = 2,
    INTEL_SURFTYPE_CUBE = 3, INTEL_SURFTYPE_BUFFER = 4,
    INTEL_SURFTYPE_STRBUF = 5, INTEL_SURFTYPE_NULL = 7,
};

/* Tile Mode and Tiled Resource Mode values. */
enum {
    INTEL_TILE_MODE_LINEAR = 0, INTEL_TILE_MODE_WMAJOR = 1,
    INTEL_TILE_MODE_XMAJOR = 2, INTEL_TILE_MODE_YMAJOR = 3,
};
enum { INTEL_TRMODE_NONE = 0, INTEL_TRMODE_TILEYF = 1,
       INTEL_TRMODE_TILEYS = 2 };

/* Shader channel select values. */
enum {
    INTEL_SCS_ZERO = 0, INTEL_SCS_ONE = 1, INTEL_SCS_RED = 4,
    INTEL_SCS_GREEN = 5, INTEL_SCS_BLUE = 6, INTEL_SCS_ALPHA = 7,
};

/* SURFACE_FORMAT values the model decodes (PRM Vol 2d, "SURFACE_FORMAT"). */
enum {
    INTEL_SF_R32G32B32A32_FLOAT = 0x000,
    INTEL_SF_R32G32B32A32_UINT = 0x002,
    INTEL_SF_R32G32B32X32_FLOAT = 0x006,
    INTEL_SF_R16G16B16A16_UNORM = 0x080,
    INTEL_SF_R16G16B16A16_UINT = 0x083,
    INTEL_SF_R16G16B16A16_FLOAT = 0x084,
    INTEL_SF_R32G32_FLOAT = 0x085,
    INTEL_SF_R32G32_UINT = 0x087,
    INTEL_SF_B8G8R8A8_UNORM = 0x0c0,
    INTEL_SF_R10G10B10A2_UNORM = 0x0c2,
    INTEL_SF_R8G8B8A8_UNORM = 0x0c7,
    INTEL_SF_R8G8B8A8_UINT = 0x0cb,
    INTEL_SF_R16G16_UNORM = 0x0cc,
    INTEL_SF_R16G16_UINT = 0x0cf,
    INTEL_SF_R16G16_FLOAT = 0x0d0,
    INTEL_SF_B10G10R10A2_UNORM = 0x0d1,
    INTEL_SF_R32_UINT = 0x0d7,
    INTEL_SF_R32_FLOAT = 0x0d8,
    INTEL_SF_B8G8R8X8_UNORM = 0x0e9,
    INTEL_SF_R8G8B8X8_UNORM = 0x0eb,
    INTEL_SF_B5G6R5_UNORM = 0x100,
    INTEL_SF_B5G5R5A1_UNORM = 0x102,
    INTEL_SF_R8G8_UNORM = 0x106,
    INTEL_SF_R16_UNORM = 0x10a,
    INTEL_SF_R16_UINT = 0x10d,
    INTEL_SF_R16_FLOAT = 0x10e,
    INTEL_SF_R8_UNORM = 0x140,
    INTEL_SF_R8_UINT = 0x143,
    INTEL_SF_A8_UNORM = 0x144,
    INTEL_SF_RAW = 0x1ff,
    /* sRGB, SNORM and SINT variants. */
    INTEL_SF_R32G32B32A32_SINT = 0x001,
    INTEL_SF_R16G16B16A16_SNORM = 0x081,
    INTEL_SF_R16G16B16A16_SINT = 0x082,
    INTEL_SF_R32G32_SINT = 0x086,
    INTEL_SF_B8G8R8A8_UNORM_SRGB = 0x0c1,
    INTEL_SF_R8G8B8A8_UNORM_SRGB = 0x0c8,
    INTEL_SF_R8G8B8A8_SNORM = 0x0c9,
    INTEL_SF_R8G8B8A8_SINT = 0x0ca,
    INTEL_SF_R16G16_SNORM = 0x0cd,
    INTEL_SF_R16G16_SINT = 0x0ce,
    INTEL_SF_R32_SINT = 0x0d6,
    INTEL_SF_B8G8R8X8_UNORM_SRGB = 0x0ea,
    INTEL_SF_R8G8B8X8_UNORM_SRGB = 0x0ec,
    INTEL_SF_R8G8_SNORM = 0x107,
    INTEL_SF_R8G8_SINT = 0x108,
    INTEL_SF_R8G8_UINT = 0x109,
    INTEL_SF_R16_SNORM = 0x10b,
    INTEL_SF_R16_SINT = 0x10c,
    INTEL_SF_R8_SNORM = 0x141,
    INTEL_SF_R8_SINT = 0x142,
};

/*
 * A SAMPLER_STATE as the sampler uses it (PRM Vol 2d, "SAMPLER_STATE"):
 * the filters and the address control modes.
 */
typedef struct IntelSamplerState {
    uint8_t min_filter, mag_filter;     /* MAPFILTER_* */
    uint8_t wrap[3];                    /* TCX/TCY/TCZ address control */
    bool non_normalized;                /* coordinates in texels */
    float border[4];                    /* SAMPLER_BORDER_COLOR_STATE RGBA */
} IntelSamplerState;

enum {
    INTEL_MAPFILTER_NEAREST = 0, INTEL_MAPFILTER_LINEAR = 1,
    INTEL_MAPFILTER_ANISOTROPIC = 2, INTEL_MAPFILTER_MONO = 6,
};

/* Texture coordinate address control modes (TEXCOORDMODE_*). */
enum {
    INTEL_TEXCOORD_WRAP = 0, INTEL_TEXCOORD_MIRROR = 1,
    INTEL_TEXCOORD_CLAMP = 2, INTEL_TEXCOORD_CUBE = 3,
    INTEL_TEXCOORD_CLAMP_BORDER = 4, INTEL_TEXCOORD_MIRROR_ONCE = 5,
};

/* Shared-function work, for the OA and EU counters. */
typedef struct IntelSfStats {
    uint64_t sampler_messages;
    uint64_t sampler_texels;            /* texels returned */
    uint64_t dataport_reads;            /* messages */
    uint64_t dataport_writes;           /* messages */
    uint64_t rt_writes;                 /* render target write messages */
    uint64_t rt_pixels;                 /* pixels written by them */
    uint64_t rt_clear_texels;           /* texels fast clears wrote */
} IntelSfStats;

/* What a render target write does (3DSTATE_PS). */
typedef enum IntelSfRtOp {
    INTEL_SF_RT_WRITE,
    INTEL_SF_RT_FAST_CLEAR,     /* Render Target Fast Clear Enable */
    INTEL_SF_RT_RESOLVE,        /* Render Target Resolve Type */
} IntelSfRtOp;

#define INTEL_SF_STATE_CACHE 4

/*
 * A dispatched thread's view of the shared functions.  The pipeline fills
 * it before the thread runs; the shared functions only read it (and add
 * to *stats).
 */
typedef struct IntelSfThread {
    IntelEngine *e;             /* memory through the engine's context VM */
    bool ppgtt;                 /* surfaces in the PPGTT (else the GGTT) */
    uint64_t surface_state_base;    /* STATE_BASE_ADDRESS */
    uint64_t dynamic_state_base;
    /* The binding table pool's, or else surface_state_base. */
    uint64_t binding_table_base;
    uint32_t binding_table;     /* offset from binding_table_base */
    uint32_t sampler_state;     /* offset from dynamic_state_base */
    uint32_t simd;              /* the thread's dispatch width: 8/16/32 */
    /*
     * Stateless data port messages (binding table index 255 and 253)
     * address memory from here (STATE_BASE_ADDRESS's general state base).
     */
    uint64_t general_state_base;
    /*
     * The thread group's shared local memory (binding table index 254),
     * @slm_size bytes; NULL, 0: none.
     */
    uint8_t *slm;
    uint32_t slm_size;
    bool slm_bounds_logged;     /* an access past it, logged */
    bool scratch_bounds_logged; /* one past a thread's scratch, logged */
    /*
     * The thread group's barrier at the message gateway: @barrier when
     * the interface descriptor has Barrier Enable, the ID R0.2 gave the
     * group's threads, and the barrier messages counted for it in this
     * step (the pipeline notifies the threads when the group's count is
     * reached).  @gateway_logged: a bad gateway message logged this step.
     */
    bool barrier;
    uint32_t barrier_id;
    uint32_t barrier_msgs;
    bool gateway_logged;
    /*
     * BLEND_STATE, offset from dynamic_state_base (3DSTATE_BLEND_STATE_
     * POINTERS); 0: none.  Render target writes honour its channel write
     * disables; blending itself is not modelled.
     */
    uint32_t blend_state;
    IntelSfRtOp rt_op;          /* what render target writes do */

    /*
     * Pixel shaders: the pixel each channel stands for and which ones are
     * lit, for header-less render target writes (PRM Vol 7, "Render
     * Target Write": the pixel positions come from the dispatch).
     */
    uint32_t pixel_mask;
    uint16_t pixel_x[EU_MAX_CHANNELS], pixel_y[EU_MAX_CHANNELS];

    IntelSfStats *stats;

    /*
     * Decoded states of the sampler and render target messages, read at
     * the first message that names them and kept for as long as this
     * IntelSfThread lives: one engine step of a 3DPRIMITIVE's pixel
     * shader dispatch or of a media or GPGPU walker.  i915 does not
     * change the binding table, the surface, sampler or blend states
     * under a running draw; a guest that does sees the change at the
     * draw's next step at the earliest.
     * intel_gfx_sf_thread_init() zeroes them (nothing cached).
     */
    struct {
        IntelSurface s;
        uint16_t index;                 /* binding table index + 1 */
    } surf_cache[INTEL_SF_STATE_CACHE];
    struct {
        IntelSamplerState ss;
        uint16_t index;                 /* sampler index + 1 */
    } sampler_cache[INTEL_SF_STATE_CACHE];
    uint16_t blend_rt;                  /* render target + 1 */
    uint8_t blend_mask;                 /* its channel write enables */
} IntelSfThread;

/*
 * The EuSendFn of every dispatched thread (@opaque: its IntelSfThread).
 * Returns 0 when the message completed, -1 for a message the model does
 * not implement or a malformed one (logged; the thread faults).  An
 * access outside the surface follows the PRM's out-of-bounds rules (reads
 * return zero, writes are dropped); a page fault goes through the
 * engine's fault path (intel_engine_page_fault()).
 */
int intel_sf_send(EuThread *t, const EuInst *inst, uint32_t desc,
                  uint32_t ex_desc, void *opaque);

/*
 * Drop @th's cached states (IntelSfThread): the next message reads them
 * from memory again, as at a new dispatch.
 */
void intel_sf_thread_forget(IntelSfThread *th);

/* surface.c */
/*
 * Binding table entry @index of @th, decoded; false (and logged) if the
 * entry or its state cannot be read or is not a surface the model knows.
 */
bool intel_surface_load(const IntelSfThread *th, unsigned index,
                        IntelSurface *s);
/* @s's fast clear colour (IntelSurface); false on a page fault. */
bool intel_surface_clear_color(const IntelSfThread *th, const IntelSurface *s,
                               uint32_t rgba[4]);
/* SAMPLER_STATE @index of @th's sampler state table. */
bool intel_sampler_state_load(const IntelSfThread *th, unsigned index,
                              IntelSamplerState *ss);
/* BLEND_STATE's entry of render target @rt (@th's blend state). */
bool intel_blend_state_entry_load(const IntelSfThread *th, unsigned rt,
                                  Gen11_BLEND_STATE_ENTRY *be);
/* The same through @th's state cache (IntelSfThread). */
bool intel_surface_load_cached(IntelSfThread *th, unsigned index,
                               IntelSurface *s);
bool intel_sampler_state_load_cached(IntelSfThread *th, unsigned index,
                                     IntelSamplerState *ss);
/*
 * Read or write @len bytes at byte @x of row @y of @s (a 2D surface; the
 * rows of layer n of a 2D array start at n * qpitch), within the
 * surface's bounds: outside, reads return 0 and writes are dropped.
 * False on a page fault (reported through intel_engine_page_fault()).
 */
bool intel_surface_rw(const IntelSfThread *th, const IntelSurface *s,
                      uint32_t x, uint32_t y, void *buf, unsigned len,
                      bool write);

/*
 * Coarse access (surface.c): a message's texels and pixels move a 64-byte
 * line of memory at a time, keyed by graphics address whatever the
 * tiling.  An aligned line never crosses a page, so it reads or faults
 * where the texels in it do.
 *
 * The graphics address of the @len bytes at byte @x of row @y of @s when
 * they are all inside the surface and contiguous; false otherwise (the
 * caller then goes through intel_surface_rw()).
 */
bool intel_surface_addr(const IntelSurface *s, uint32_t x, uint32_t y,
                        unsigned len, uint64_t *addr);

#define INTEL_SF_LINE   64
#define INTEL_SF_LINES  8
#define INTEL_SF_WLINES 16

/*
 * A read cache of lines keyed by graphics address.  It sees no writes:
 * it lives for one message that only reads (zero it to start).
 */
typedef struct IntelSfLines {
    uint64_t tag[INTEL_SF_LINES];       /* line address + 1; 0: empty */
    uint8_t data[INTEL_SF_LINES][INTEL_SF_LINE];
    unsigned next;                      /* round-robin victim */
} IntelSfLines;

/* intel_surface_rw() read of @len bytes, through @c. */
bool intel_surface_read_cached(const IntelSfThread *th,
                               const IntelSurface *s, IntelSfLines *c,
                               uint32_t x, uint32_t y, void *buf,
                               unsigned len);

/*
 * Combined writes of one message (zero it to start): each pixel's bytes
 * go into the line buffer of their line, the lines are written in the
 * order first touched, each run of written bytes with one access.
 */
typedef struct IntelSfWrites {
    unsigned n;                         /* lines in use */
    uint64_t mapped_page;               /* last page seen mapped, + 1 */
    uint64_t line[INTEL_SF_WLINES];
    uint64_t first[INTEL_SF_WLINES];    /* its first pixel's address */
    uint64_t dirty[INTEL_SF_WLINES];    /* bytes written, bit per byte */
    uint8_t data[INTEL_SF_WLINES][INTEL_SF_LINE];
} IntelSfWrites;

/*
 * Queue @len bytes for graphics address @addr (from intel_surface_addr()).
 * 1: queued; 0: not within one line or no line left, -1: its page does
 * not map.  On 0 and -1 the caller flushes and writes the pixel through
 * intel_surface_rw(), which faults as a pixel-by-pixel write would have
 * after the pixels before it: the queue keeps the fault where it was.
 */
int intel_surface_write_queue(const IntelSfThread *th, IntelSfWrites *w,
                              uint64_t addr, const void *buf, unsigned len);
/* Write the queued lines; false on a fault (reported). */
bool intel_surface_write_flush(const IntelSfThread *th, IntelSfWrites *w);

/*
 * Formats (surface.c).  A texel's channels as the shared functions pass
 * them in registers: 32-bit floats for UNORM, SNORM, sRGB and FLOAT
 * formats (sRGB linearized), 32-bit integers for UINT and SINT ones
 * (SINT sign-extended), in R, G, B, A order; a channel the format lacks
 * reads as 0 (alpha as 1.0 or 1).
 */
/* Bytes per element of @format, 0 if the model does not know it. */
unsigned intel_format_cpp(uint32_t format);
/* Is @format an integer format (no filtering, integer returns)? */
bool intel_format_is_int(uint32_t format);
void intel_format_decode(uint32_t format, const uint8_t *texel,
                         uint32_t rgba[4]);
/*
 * Encode @rgba into @texel, clamping as the render target and typed
 * writes do (UNORM: [0, 1], SNORM: [-1, 1], rounded to nearest; sRGB
 * encoded first); channels whose bit in @write_mask (bit 0 R ... bit 3
 * A) is clear keep @texel's value.
 */
void intel_format_encode(uint32_t format, const uint32_t rgba[4],
                         unsigned write_mask, uint8_t *texel);

/* A register's 32 bits as a float and back. */
static inline float intel_sf_u2f(uint32_t u)
{
    float f;

    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t intel_sf_f2u(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

/* Surface size in bytes as a flat range (buffers: the entries). */
uint64_t intel_surface_bytes(const IntelSurface *s);
/*
 * The first row of array layer (3D: slice) @index, from Minimum Array
 * Element on, of @s, or -1 past its last layer.
 */
int64_t intel_surface_layer_row(const IntelSurface *s, uint32_t index);

/* Internal to the shared functions (sf.c, sf-sampler.c, sf-dataport.c) */
void intel_sf_log(const IntelSfThread *th, GpuLogKind kind,
                  const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/*
 * The message's GRF @i (0: the first one of src0; SENDS: then the ones of
 * src1), NULL past mlen (+ ex_mlen) or past the register file.
 */
uint8_t *intel_sf_payload(EuThread *t, const EuInst *inst, uint32_t desc,
                          uint32_t ex_desc, unsigned i);
/* Response GRF @i (below rlen), NULL past it or past the register file. */
uint8_t *intel_sf_response(EuThread *t, const EuInst *inst, uint32_t desc,
                           unsigned i);
/* The channels the SEND runs for: its group of the active mask. */
uint32_t intel_sf_channels(const EuThread *t, const EuInst *inst);
int intel_sf_sampler(IntelSfThread *th, EuThread *t, const EuInst *inst,
                     uint32_t desc, uint32_t ex_desc);
int intel_sf_dataport(IntelSfThread *th, EuThread *t, const EuInst *inst,
                      uint32_t desc, uint32_t ex_desc);

#endif
