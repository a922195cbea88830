/*
 * Unit tests of the intel-gpu shared functions: malformed messages, page
 * faults, the PPGTT and random messages.  test-intel-sf.c has the helpers
 * and registers these tests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "test-intel-sf.h"

/* ---- faults and malformed messages ---- */

void test_malformed(Fixture *f, gconstpointer data)
{
    Sf s;
    unsigned errors;

    sf_init(f, &s, 16);
    put_texture(f);
    put_sampler(f, 0, INTEL_MAPFILTER_NEAREST, INTEL_MAPFILTER_NEAREST,
                INTEL_TEXCOORD_CLAMP, INTEL_TEXCOORD_CLAMP);
    /* SIMD4x2 sampling, sample_c, a message without coordinates. */
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(4, 8, 0, 0 << 17 | 1), 16, 2, 20), ==, -1);
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(4, 8, 0, SMP(16, 3, 1)), 16, 2, 20), ==, -1);
    g_assert_cmpuint(f->fh->unimps, ==, 2);
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(0, 8, 0, SMP(16, 0, 1)), 16, 2, 20), ==, -1);
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    /* A payload running off the register file. */
    g_assert_cmpint(sf_send(&s, EU_SFID_SAMPLER,
                            DESC(4, 8, 0, SMP(16, 0, 1)), 16, 126, 20), ==,
                    -1);
    /* Unknown data port messages, URB, a thread spawner without EOT. */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(1, 1, 0, DP(3, 0, 0)), 16, 2, 20), ==, -1);
    g_assert_cmpint(sf_send(&s, EU_SFID_URB, DESC(1, 0, 1, 0), 16, 2, 20),
                    ==, -1);
    g_assert_cmpint(sf_send(&s, EU_SFID_THREAD_SPAWNER, DESC(1, 0, 0, 0x10),
                            16, 2, 0), ==, -1);
    /* An unsupported render target write subtype. */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(8, 0, 0, DP(12, 7, 0)), 16, 2, 0), ==, -1);
    /*
     * A shared local memory write from a thread that has none (no thread
     * group): every byte is past its allocation, dropped and logged
     * (each channel's).
     */
    errors = f->fh->guest_errors;
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 0, DP(9, 0x2e, 254)), 8, 2, 0), ==, 0);
    g_assert_cmpuint(f->fh->guest_errors, >, errors);

    /* The thread spawner's EOT completes: the interpreter ends it. */
    s.in.eot = true;
    memset(&s.in, 0, sizeof(s.in));
    s.in.sfid = EU_SFID_THREAD_SPAWNER;
    s.in.eot = true;
    s.in.exec_size = 8;
    intel_sf_thread_forget(&s.th);
    g_assert_cmpint(intel_sf_send(s.t, &s.in, DESC(1, 0, 0, 0x10), 0, &s.th),
                    ==, 0);
    sf_fini(&s);
}

/*
 * A thread of a context with a PPGTT: surface states and surfaces are
 * graphics addresses in it (here the states at their GGTT addresses,
 * mapped one to one, the buffer at USER_VA -> USER_PA).
 */
void test_ppgtt(Fixture *f, gconstpointer data)
{
    uint64_t pml4 = table_alloc(f);
    Sf s;

    sf_init(f, &s, 8);
    for (uint64_t a = 0x200000; a < 0x400000; a += 0x200000) {
        map_2m(f, pml4, a, a);
    }
    map_2m(f, pml4, USER_VA, USER_PA);
    eng(f, RCS)->pml4 = pml4;
    intel_ppgtt_flush(eng(f, RCS));
    s.th.ppgtt = true;
    put_buffer(f, 6, INTEL_SF_RAW, 256, 1, USER_VA);
    memset(ram(f, USER_PA), 0, 64);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c * 4);
        set_ud(&s, 3, c, 0xbeef00 + c);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 0, 0, DP(9, 0x2e, 6)), 8, 2, 0), ==, 0);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmphex(ram_r32(f, USER_PA + c * 4), ==, 0xbeef00 + c);
    }
    /* Unmapped in the PPGTT: a PPGTT page fault. */
    put_buffer(f, 6, INTEL_SF_RAW, 256, 1, USER_VA + 0x200000);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 0, 0, DP(9, 0x2e, 6)), 8, 2, 0), ==, -1);
    g_assert_cmphex(intel_reg_get(f->gpu, INTEL_FAULT_TLB_DATA0), ==,
                    (USER_VA + 0x200000) >> 12);
    sf_fini(&s);
}

/* A surface in unmapped memory: the engine's page fault, message fails. */
void test_page_fault(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    put_buffer(f, 6, INTEL_SF_RAW, 256, 1, UNMAPPED);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c * 4);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(1, 1, 0, DP(1, 0x2e, 6)), 8, 2, 20), ==, -1);
    g_assert_cmphex(intel_reg_get(f->gpu, INTEL_RING_FAULT_REG) & 1, ==, 1);
    g_assert_cmphex(intel_reg_get(f->gpu, INTEL_FAULT_TLB_DATA0), ==,
                    UNMAPPED >> 12);
    sf_fini(&s);
}

/*
 * A random RENDER_SURFACE_STATE for binding table index @bti: random
 * dwords, or for half of them a plausible state (a known type, format
 * and tiling, the random sizes tamed) packed from its fields.
 */
static void random_surface(Fixture *f, GRand *rng, unsigned bti)
{
    static const uint8_t types[] = { 0, 1, 1, 1, 4, 7 };
    static const uint16_t fmts[] = {
        INTEL_SF_R8G8B8A8_UNORM, INTEL_SF_R8_UNORM, INTEL_SF_R32_UINT,
        INTEL_SF_R16G16B16A16_FLOAT, INTEL_SF_RAW,
        INTEL_SF_R32G32B32A32_FLOAT,
    };
    Gen11_RENDER_SURFACE_STATE r;
    unsigned type, fmt, tile;
    uint64_t lo, hi;
    uint32_t ss[16];

    for (unsigned d = 0; d < 16; d++) {
        ss[d] = g_rand_int(rng);
    }
    if (!g_rand_boolean(rng)) {
        ss[8] = g_rand_int_range(rng, 0, GGTT_MAPPED);
        ss[9] = g_rand_int_range(rng, 0, 4) ? 0 : g_rand_int(rng);
        put_state(f, bti, ss);
        return;
    }
    type = types[g_rand_int_range(rng, 0, 6)];
    fmt = fmts[g_rand_int_range(rng, 0, 6)];
    tile = g_rand_int_range(rng, 0, 3);
    lo = g_rand_int_range(rng, 0, GGTT_MAPPED);
    hi = g_rand_int_range(rng, 0, 4) ? 0 : g_rand_int(rng);
    gen11_render_surface_state_unpack(ss, 16, &r);
    put_surface_state(f, bti, &(Gen11_RENDER_SURFACE_STATE) {
        .surface_type = type,
        .surface_format = fmt,
        .tile_mode = tile ? tile + 1 : 0,
        .surface_qpitch = r.surface_qpitch & 0x3f,
        .width = r.width & 0x3f,
        .height = r.height & 0x3f,
        .depth = r.depth & 3,
        .surface_pitch = 512u * (1 + (r.surface_pitch >> 8) % 4) - 1,
        .minimum_array_element = r.minimum_array_element & 3,
        .mip_count_lod = r.mip_count_lod & 3,
        .auxiliary_surface_mode = r.auxiliary_surface_mode,
        .shader_channel_select_red = r.shader_channel_select_red,
        .shader_channel_select_green = r.shader_channel_select_green,
        .shader_channel_select_blue = r.shader_channel_select_blue,
        .shader_channel_select_alpha = r.shader_channel_select_alpha,
        .surface_base_address = hi << 32 | lo,
    });
}

/*
 * Hostile messages: random descriptors, payloads and states.  Every one
 * completes or fails (0 or -1), and none writes a register outside its
 * response.
 */
void test_random_messages(Fixture *f, gconstpointer data)
{
    static const unsigned sfids[] = {
        EU_SFID_SAMPLER, EU_SFID_DP_RENDER, EU_SFID_DP_DATA,
        EU_SFID_DP_DATA1, EU_SFID_DP_CONST, EU_SFID_DP_SAMPLER,
        EU_SFID_GATEWAY, EU_SFID_URB,
    };
    static uint8_t before[EU_GRF_COUNT * EU_GRF_BYTES];
    GRand *rng = g_rand_new_with_seed(0x5f5f);
    unsigned done = 0;
    Sf s;

    sf_init(f, &s, 16);
    s.th.blend_state = BLEND;
    for (unsigned iter = 0; iter < 3000; iter++) {
        uint32_t desc = g_rand_int(rng), ex = g_rand_int(rng);
        unsigned dst = g_rand_int_range(rng, 0, EU_GRF_COUNT);
        unsigned rlen = (desc >> 20) & 0x1f;
        int r;

        /* States: 8 surfaces, 4 samplers, a blend state, all random. */
        if (iter % 64 == 0) {
            for (unsigned i = 0; i < 8; i++) {
                random_surface(f, rng, i);
            }
            for (unsigned i = 0; i < 16 * 4 + 68; i += 4) {
                ram_w32(f, DSB + SAMPLERS + i, g_rand_int(rng));
            }
        }
        for (unsigned i = 0; i < sizeof(s.t->grf); i += 4) {
            set_ud(&s, i / 32, (i % 32) / 4, g_rand_int(rng));
        }
        s.t->active = g_rand_int(rng);
        s.th.pixel_mask = g_rand_int(rng);
        /* Half of them a message type the SFID knows. */
        s.in.sfid = sfids[g_rand_int_range(rng, 0, G_N_ELEMENTS(sfids))];
        if (g_rand_boolean(rng)) {
            static const uint8_t types[][10] = {
                [EU_SFID_SAMPLER] = { 0, 1, 2, 7, 10, 24, 26, 0, 0, 0 },
                [EU_SFID_DP_DATA] = { 0, 1, 3, 4, 7, 8, 11, 12, 8, 0 },
                [EU_SFID_DP_DATA1] = { 1, 2, 4, 5, 6, 9, 10, 13, 18, 25 },
                [EU_SFID_DP_RENDER] = { 4, 13, 10, 12, 13, 12, 12, 4, 5, 10 },
                [EU_SFID_DP_CONST] = { 0, 1, 3, 0, 1, 3, 0, 1, 3, 0 },
            };
            unsigned type = types[s.in.sfid][g_rand_int_range(rng, 0, 10)];

            if (s.in.sfid == EU_SFID_SAMPLER) {
                desc = (desc & ~(0x1fu << 12 | 3u << 17)) | type << 12 |
                       (uint32_t)g_rand_int_range(rng, 1, 3) << 17;
            } else if (s.in.sfid < G_N_ELEMENTS(types)) {
                desc = (desc & ~(0x1fu << 14)) | type << 14;
            }
            rlen = (desc >> 20) & 0x1f;
        }
        /* Mostly binding table entries that exist, or stateless. */
        desc = (desc & ~0xffu) | (g_rand_boolean(rng) ?
                                  g_rand_int_range(rng, 0, 8) :
                                  g_rand_int_range(rng, 250, 256));
        memcpy(before, s.t->grf, sizeof(before));
        {
            unsigned sfid = s.in.sfid;

            memset(&s.in, 0, sizeof(s.in));
            s.in.sfid = sfid;
        }
        s.in.opcode = g_rand_boolean(rng) ? EU_OP_SEND : EU_OP_SENDS;
        s.in.exec_size = g_rand_boolean(rng) ? 16 : 8;
        s.in.qtr = g_rand_int_range(rng, 0, 4);
        s.in.mask_ctrl = g_rand_boolean(rng);
        s.in.eot = g_rand_int_range(rng, 0, 8) == 0;
        s.in.src[0].file = s.in.src[1].file = s.in.dst.file = EU_FILE_GRF;
        s.in.src[0].nr = g_rand_int_range(rng, 0, EU_GRF_COUNT);
        s.in.src[1].nr = g_rand_int_range(rng, 0, EU_GRF_COUNT);
        s.in.dst.nr = dst;
        intel_sf_thread_forget(&s.th);
        r = intel_sf_send(s.t, &s.in, desc, ex, &s.th);
        g_assert_true(r == 0 || r == -1);
        done += r == 0;
        for (unsigned reg = 0; reg < EU_GRF_COUNT; reg++) {
            if (reg >= dst && reg < dst + rlen) {
                continue;
            }
            if (memcmp(&before[reg * 32], &s.t->grf[reg * 32], 32)) {
                g_error("message 0x%08x (SFID %u) wrote g%u", desc,
                        s.in.sfid, reg);
            }
        }
    }
    /* Enough of them are well-formed to reach memory. */
    g_test_message("%u of 3000 random messages completed", done);
    g_assert_cmpuint(done, >, 150);
    g_rand_free(rng);
    sf_fini(&s);
}
