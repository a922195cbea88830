/*
 * Unit tests of the intel-gpu shared functions: render target writes and
 * the data ports (PRM Vol 7, "Data Port", "Render Target Write").
 * test-intel-sf.c has the helpers and registers these tests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include "test-intel-sf.h"
#include "tiling-ref.h"

/* ---- render target writes ---- */

void test_rt_write(Fixture *f, gconstpointer data)
{
    static const struct {
        unsigned tile;
        RefTiling ref;
        unsigned pitch;
    } kinds[] = {
        { TILE_LINEAR, REF_LINEAR, 64 }, { TILE_X, REF_X, 512 },
        { TILE_Y, REF_Y, 128 },
    };
    Sf s;

    for (unsigned k = 0; k < G_N_ELEMENTS(kinds); k++) {
        sf_init(f, &s, 16);
        memset(ram(f, SURF_B), 0xaa, 0x4000);
        put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_B8G8R8A8_UNORM, 16, 4,
                    kinds[k].pitch, kinds[k].tile, SURF_B);
        for (unsigned c = 0; c < 16; c++) {
            s.th.pixel_x[c] = px(c) + 4;
            s.th.pixel_y[c] = py(c) + 1;
            set_chan_f(&s, 10, c, c / 15.0f);
            set_chan_f(&s, 12, c, 0.5f);
            set_chan_f(&s, 14, c, 1.0f - c / 15.0f);
            set_chan_f(&s, 16, c, 1.0f);
        }
        /* Pixel 0 is not lit; pixel 5 goes out of range and clamps. */
        s.th.pixel_mask = 0xfffe;
        set_chan_f(&s, 10, 5, -1.0f);
        set_chan_f(&s, 12, 5, 2.0f);
        set_chan_f(&s, 14, 5, NAN);
        g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                                DESC(8, 0, 0, DP(12, 0x10, 0)), 16, 10, 0),
                        ==, 0);
        for (unsigned c = 0; c < 16; c++) {
            const uint8_t *p = ram(f, SURF_B +
                                   ref_offset(kinds[k].ref, 4,
                                              kinds[k].pitch,
                                              (px(c) + 4) * 4, py(c) + 1));

            if (c == 0) {
                g_assert_cmphex(p[0] | p[1] << 8 | p[2] << 16 |
                                (uint32_t)p[3] << 24, ==, 0xaaaaaaaa);
                continue;
            }
            if (c == 5) {
                g_assert_cmphex(p[2], ==, 0);
                g_assert_cmphex(p[1], ==, 255);
                g_assert_cmphex(p[0], ==, 0);
                continue;
            }
            /* c / 15 * 255 = 17c exactly; 0.5 -> 128. */
            g_assert_cmphex(p[2], ==, 17 * c);
            g_assert_cmphex(p[1], ==, 128);
            g_assert_cmphex(p[0], ==, 255 - 17 * c);
            g_assert_cmphex(p[3], ==, 255);
        }
        /* Nothing else written: the row above the pixels. */
        g_assert_cmphex(ram(f, SURF_B + ref_offset(kinds[k].ref, 4,
                                                   kinds[k].pitch, 16, 0))[0],
                        ==, 0xaa);
        g_assert_cmpuint(s.st.rt_writes, ==, 1);
        g_assert_cmpuint(s.st.rt_pixels, ==, 15);
        sf_fini(&s);
    }
}

/*
 * A fast clear (BLORP's, 3DSTATE_PS Render Target Fast Clear Enable):
 * each lit pixel of the scaled-down rectangle writes the clear colour to
 * its 64 x 32 block of a 32 bpp target (256 bytes by 32 rows), whatever
 * the message's colour; the colour from the surface state, or from the
 * Clear Value Address.  A resolve's writes change nothing.
 */
void test_rt_fast_clear(Fixture *f, gconstpointer data)
{
    const unsigned w = 100, h = 40, pitch = 512;
    const uint32_t ss = SSB + SS_AT;
    Sf s;

    for (unsigned from_memory = 0; from_memory < 2; from_memory++) {
        sf_init(f, &s, 16);
        memset(ram(f, SURF_B), 0xaa, pitch * 64);
        put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_R8G8B8A8_UNORM, w, h,
                    pitch, TILE_Y, SURF_B);
        if (from_memory) {
            /* Clear Value Address Enable; the address in 47:6. */
            ram_w32(f, ss + 10 * 4, ram_r32(f, ss + 10 * 4) | 1u << 10);
            ram_w32(f, ss + 12 * 4, DSB + 0x800);
            ram_w32(f, ss + 13 * 4, 0);
            ram_w32(f, DSB + 0x800, intel_sf_f2u(1.0f));
            ram_w32(f, DSB + 0x804, intel_sf_f2u(0.0f));
            ram_w32(f, DSB + 0x808, intel_sf_f2u(0.5f));
            ram_w32(f, DSB + 0x80c, intel_sf_f2u(1.0f));
        } else {
            ram_w32(f, ss + 12 * 4, intel_sf_f2u(1.0f));
            ram_w32(f, ss + 13 * 4, intel_sf_f2u(0.0f));
            ram_w32(f, ss + 14 * 4, intel_sf_f2u(0.5f));
            ram_w32(f, ss + 15 * 4, intel_sf_f2u(1.0f));
        }
        s.th.rt_op = INTEL_SF_RT_FAST_CLEAR;
        /* The 2 x 2 rectangle; blocks (1, 0) and (0, 1) lit. */
        for (unsigned c = 0; c < 4; c++) {
            s.th.pixel_x[c] = c & 1;
            s.th.pixel_y[c] = c >> 1;
        }
        s.th.pixel_mask = 0x6;
        set_ud(&s, 10, 0, 0x12345678);          /* not the colour */
        g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                                DESC(1, 0, 0, DP(12, 0x11, 0)), 16, 10, 0),
                        ==, 0);
        for (unsigned y = 0; y < 64; y++) {
            for (unsigned x = 0; x < 128; x++) {
                const uint8_t *p = ram(f, SURF_B + ref_offset(REF_Y, 4, pitch,
                                                              x * 4, y));
                bool in = x < w && y < h && (x >= 64) != (y >= 32);
                uint32_t v = p[0] | p[1] << 8 | p[2] << 16 |
                             (uint32_t)p[3] << 24;

                g_assert_cmphex(v, ==, in ? 0xff8000ff : 0xaaaaaaaa);
            }
        }
        g_assert_cmpuint(s.st.rt_clear_texels, ==, 36 * 32 + 64 * 8);
        g_assert_cmpuint(s.st.rt_pixels, ==, 0);

        /* A resolve: nothing written. */
        s.th.rt_op = INTEL_SF_RT_RESOLVE;
        s.th.pixel_mask = 0xf;
        set_f(&s, 10, 0, 0.0f);
        g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                                DESC(1, 0, 0, DP(12, 0x11, 0)), 16, 10, 0),
                        ==, 0);
        g_assert_cmphex(ram_r32(f, SURF_B + ref_offset(REF_Y, 4, pitch, 0, 0)),
                        ==, 0xaaaaaaaa);
        g_assert_cmphex(ram_r32(f, SURF_B + ref_offset(REF_Y, 4, pitch,
                                                       64 * 4, 0)),
                        ==, 0xff8000ff);
        g_assert_cmpuint(s.st.rt_writes, ==, 2);
        sf_fini(&s);
    }

    /* An 8 bpp target has no CCS: a guest error, nothing written. */
    sf_init(f, &s, 16);
    put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_R8_UNORM, 16, 4, 128,
                TILE_Y, SURF_B);
    s.th.rt_op = INTEL_SF_RT_FAST_CLEAR;
    s.th.pixel_mask = 1;
    memset(ram(f, SURF_B), 0, 64);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(1, 0, 0, DP(12, 0x11, 0)), 16, 10, 0),
                    <, 0);
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    g_assert_cmphex(ram_r32(f, SURF_B), ==, 0);
    sf_fini(&s);
}

/* The second half of a SIMD32 dispatch: a SIMD16 write in 2H. */
void test_rt_write_simd32(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 32);
    memset(ram(f, SURF_B), 0, 0x100);
    put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_R8_UNORM, 32, 4, 32,
                TILE_LINEAR, SURF_B);
    s.t->active = 0xffff0000;
    s.th.pixel_mask = 0x00ff0000 | 0x0000ffff;
    for (unsigned p = 0; p < 32; p++) {
        s.th.pixel_x[p] = p;
        s.th.pixel_y[p] = 1;
    }
    for (unsigned c = 0; c < 16; c++) {
        set_chan_f(&s, 10, c, 1.0f);
    }
    memset(&s.in, 0, sizeof(s.in));
    s.in.opcode = EU_OP_SEND;
    s.in.sfid = EU_SFID_DP_RENDER;
    s.in.exec_size = 16;
    s.in.qtr = 2;
    s.in.src[0].file = EU_FILE_GRF;
    s.in.src[0].nr = 10;
    intel_sf_thread_forget(&s.th);
    g_assert_cmpint(intel_sf_send(s.t, &s.in, DESC(8, 0, 0, DP(12, 0, 0)),
                                  0, &s.th), ==, 0);
    /* Pixels 16-23 lit: x 16-23 of row 1 written, nothing else. */
    for (unsigned x = 0; x < 32; x++) {
        g_assert_cmphex(*ram(f, SURF_B + 32 + x), ==,
                        x >= 16 && x < 24 ? 255 : 0);
    }
    g_assert_cmpuint(s.st.rt_pixels, ==, 8);
    sf_fini(&s);
}

/* SIMD8 with a header: positions in M1.2-M1.5, the pixel mask in M1.7. */
void test_rt_write_header(Fixture *f, gconstpointer data)
{
    Sf s;
    uint16_t *px16 = (uint16_t *)ram(f, SURF_B);

    sf_init(f, &s, 8);
    memset(ram(f, SURF_B), 0, 0x1000);
    put_surface(f, 2, INTEL_SURFTYPE_2D, INTEL_SF_R16G16B16A16_FLOAT, 8, 8,
                64, TILE_LINEAR, SURF_B);
    set_ud(&s, 11, 2, 3u << 16 | 2);       /* subspan 0 at (2, 3) */
    set_ud(&s, 11, 3, 5u << 16 | 6);       /* subspan 1 at (6, 5) */
    set_ud(&s, 11, 7, 0x0f0 | 0x09);       /* pixels 0, 3, 4-7 */
    for (unsigned c = 0; c < 8; c++) {
        set_f(&s, 12, c, 1.0f);
        set_f(&s, 13, c, 0.5f);
        set_f(&s, 14, c, c);
        set_f(&s, 15, c, -2.0f);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(6, 0, 1, DP(12, 0x14, 2)), 8, 10, 0), ==, 0);
    /* Pixel 3: (3, 4); 4: (6, 5); 1 not lit: (3, 3). */
    g_assert_cmphex(px16[(4 * 8 + 3) * 4 + 0], ==, 0x3c00);
    g_assert_cmphex(px16[(4 * 8 + 3) * 4 + 1], ==, 0x3800);
    g_assert_cmphex(px16[(4 * 8 + 3) * 4 + 2], ==, 0x4200);    /* 3.0 */
    g_assert_cmphex(px16[(4 * 8 + 3) * 4 + 3], ==, 0xc000);    /* -2.0 */
    g_assert_cmphex(px16[(5 * 8 + 6) * 4 + 2], ==, 0x4400);    /* 4.0 */
    g_assert_cmphex(px16[(3 * 8 + 3) * 4 + 0], ==, 0);
    g_assert_cmpuint(s.st.rt_pixels, ==, 6);

    /* Read back (render target read, SIMD8): lit pixels only. */
    set_ud(&s, 30, 1, 0x5555);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(2, 4, 1, DP(13, 1, 2)), 8, 10, 30), ==, 0);
    g_assert_cmpfloat(get_f(&s, 30, 3), ==, 1.0f);
    g_assert_cmpfloat(get_f(&s, 31, 3), ==, 0.5f);
    g_assert_cmpfloat(get_f(&s, 32, 3), ==, 3.0f);
    g_assert_cmpfloat(get_f(&s, 33, 4), ==, -2.0f);
    g_assert_cmphex(get_ud(&s, 30, 1), ==, 0x5555);
    sf_fini(&s);
}

/* BLEND_STATE's write disables keep channels; blending is reported. */
void test_rt_write_blend_state(Fixture *f, gconstpointer data)
{
    uint32_t dw[GEN11_BLEND_STATE_LENGTH + GEN11_BLEND_STATE_ENTRY_LENGTH];
    Sf s;
    uint8_t *p = ram(f, SURF_B);

    sf_init(f, &s, 8);
    memset(p, 0x11, 64);
    put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_R8G8B8A8_UNORM, 4, 4, 16,
                TILE_LINEAR, SURF_B);
    s.th.blend_state = BLEND;
    gen11_blend_state_pack(dw, &(Gen11_BLEND_STATE) { 0 });
    /* Render target 0: blending (reported, not done), red not written. */
    gen11_blend_state_entry_pack(dw + GEN11_BLEND_STATE_ENTRY_DW,
                                 &(Gen11_BLEND_STATE_ENTRY) {
        .color_buffer_blend_enable = true, .write_disable_red = true,
    });
    for (unsigned i = 0; i < G_N_ELEMENTS(dw); i++) {
        ram_w32(f, DSB + BLEND + 4 * i, dw[i]);
    }
    s.th.pixel_mask = 1;
    for (unsigned r = 0; r < 4; r++) {
        set_f(&s, 10 + r, 0, 1.0f);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(4, 0, 0, DP(12, 0x04, 0)), 8, 10, 0), ==, 0);
    g_assert_cmphex(p[0], ==, 0x11);
    g_assert_cmphex(p[1], ==, 255);
    g_assert_cmphex(p[3], ==, 255);
    g_assert_cmpuint(f->fh->unimps, ==, 1);
    sf_fini(&s);
}

/* ---- data port ---- */

/* gpgpu/media fill's "DC media block write": a 16 x 4 block at (8, 2). */
void test_media_block(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 16);
    memset(ram(f, SURF_B), 0, 0x4000);
    put_surface(f, 0, INTEL_SURFTYPE_2D, INTEL_SF_R8_UNORM, 128, 64, 128,
                TILE_Y, SURF_B);
    set_ud(&s, 4, 0, 8);
    set_ud(&s, 4, 1, 2);
    set_ud(&s, 4, 2, 3u << 16 | 15);
    for (unsigned i = 0; i < 64; i++) {
        s.t->grf[5 * 32 + i] = 0x40 + i;   /* row r at r * 16 */
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 1, DP(10, 0, 0)), 16, 4, 0), ==, 0);
    for (unsigned y = 0; y < 4; y++) {
        for (unsigned x = 0; x < 16; x++) {
            g_assert_cmphex(*ram(f, SURF_B + ref_offset(REF_Y, 1, 128, 8 + x,
                                                        2 + y)), ==,
                            0x40 + y * 16 + x);
        }
    }
    g_assert_cmphex(*ram(f, SURF_B + ref_offset(REF_Y, 1, 128, 7, 2)), ==, 0);
    g_assert_cmphex(*ram(f, SURF_B + ref_offset(REF_Y, 1, 128, 24, 2)), ==,
                    0);

    /*
     * Read 4 x 2 at (-2, 1) through the render cache: X clamps to the
     * left edge, row 1 is empty, row 2 holds the block from x = 8.
     */
    *ram(f, SURF_B + ref_offset(REF_Y, 1, 128, 0, 2)) = 0x99;
    *ram(f, SURF_B + ref_offset(REF_Y, 1, 128, 1, 2)) = 0x98;
    set_ud(&s, 4, 0, (uint32_t)-2);
    set_ud(&s, 4, 1, 1);
    set_ud(&s, 4, 2, 1u << 16 | 3);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_RENDER,
                            DESC(1, 1, 1, DP(4, 0, 0)), 16, 4, 20), ==, 0);
    g_assert_cmphex(get_ud(&s, 20, 0), ==, 0);
    g_assert_cmphex(get_ud(&s, 20, 1), ==, 0x98999999);
    g_assert_cmpuint(s.st.dataport_writes, ==, 1);
    g_assert_cmpuint(s.st.dataport_reads, ==, 1);

    /* Writes outside the surface are dropped, bytes inside written. */
    set_ud(&s, 4, 0, 126);
    set_ud(&s, 4, 1, 63);
    set_ud(&s, 4, 2, 0u << 16 | 3);
    set_ud(&s, 5, 0, 0x04030201);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 0, 1, DP(10, 0, 0)), 16, 4, 0), ==, 0);
    g_assert_cmphex(*ram(f, SURF_B + ref_offset(REF_Y, 1, 128, 127, 63)), ==,
                    2);

    /*
     * An R8 surface's width counts DWords for media block messages (IGT's
     * media fill: an R8 surface 16 wide, 64-byte rows), up to its pitch.
     */
    put_surface(f, 1, INTEL_SURFTYPE_2D, INTEL_SF_R8_UNORM, 16, 4, 64,
                TILE_LINEAR, SURF_A);
    memset(ram(f, SURF_A), 0, 0x200);
    set_ud(&s, 4, 0, 48);
    set_ud(&s, 4, 1, 3);
    set_ud(&s, 4, 2, 0u << 16 | 31);
    memset(&s.t->grf[5 * 32], 0x5a, 32);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 0, 1, DP(10, 0, 1)), 16, 4, 0), ==, 0);
    g_assert_cmphex(*ram(f, SURF_A + 3 * 64 + 63), ==, 0x5a);
    g_assert_cmphex(*ram(f, SURF_A + 4 * 64), ==, 0);

    /* Reads past the right edge repeat the last element. */
    set_ud(&s, 4, 0, 126);
    set_ud(&s, 4, 1, 63);
    set_ud(&s, 4, 2, 0u << 16 | 3);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(1, 1, 1, DP(4, 0, 0)), 16, 4, 20), ==, 0);
    g_assert_cmphex(get_ud(&s, 20, 0), ==, 0x02020201);

    /* A block too large for its message fails. */
    set_ud(&s, 4, 2, 15u << 16 | 31);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 1, DP(10, 0, 0)), 16, 4, 0), ==, -1);
    sf_fini(&s);
}

void test_untyped(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, SURF_A), 0, 0x400);
    put_buffer(f, 6, INTEL_SF_RAW, 256, 1, SURF_A);
    /* SIMD8 write of R and G (mask 0xc) at 8c; channel 7 at 252: R only. */
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c * 8);
        set_ud(&s, 3, c, 100 + c);
        set_ud(&s, 4, c, 200 + c);
    }
    set_ud(&s, 2, 7, 252);
    s.t->active = 0x7f | 0x80;
    s.t->active &= ~(1u << 3);             /* channel 3 disabled */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 0, DP(9, 0x2c, 6)), 8, 2, 0), ==, 0);
    for (unsigned c = 0; c < 7; c++) {
        g_assert_cmpuint(ram_r32(f, SURF_A + c * 8), ==, c == 3 ? 0 : 100 + c);
        g_assert_cmpuint(ram_r32(f, SURF_A + c * 8 + 4), ==,
                         c == 3 ? 0 : 200 + c);
    }
    g_assert_cmpuint(ram_r32(f, SURF_A + 252), ==, 107);
    g_assert_cmpuint(ram_r32(f, SURF_A + 256), ==, 0);    /* dropped */

    /* SIMD16 read of R, G, B (mask 0x8): past the end reads 0. */
    sf_fini(&s);
    sf_init(f, &s, 16);
    put_buffer(f, 6, INTEL_SF_RAW, 256, 1, SURF_A);
    ram_w32(f, SURF_A + 256, 0xdead);
    for (unsigned c = 0; c < 16; c++) {
        set_ud(&s, 2 + c / 8, c % 8, c * 8);
    }
    set_ud(&s, 3, 7, 256);                  /* channel 15: past the end */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 6, 0, DP(1, 0x18, 6)), 16, 2, 20), ==, 0);
    /* Channel 1 at 8: R 101, G 201, B the next channel's R. */
    g_assert_cmpuint(get_ud(&s, 20, 1), ==, 101);
    g_assert_cmpuint(get_ud(&s, 22, 1), ==, 201);
    g_assert_cmpuint(get_ud(&s, 24, 1), ==, 102);
    g_assert_cmpuint(get_ud(&s, 20, 3), ==, 0);           /* not written */
    g_assert_cmpuint(get_ud(&s, 21, 7), ==, 0);           /* not 0xdead */
    g_assert_cmpuint(s.st.dataport_reads, ==, 1);
    sf_fini(&s);
}

/* Untyped atomics: add returning the old values, compare-and-write. */
void test_untyped_atomic(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    put_buffer(f, 6, INTEL_SF_RAW, 64, 1, SURF_A);
    for (unsigned i = 0; i < 16; i++) {
        ram_w32(f, SURF_A + i * 4, 100 + i);
    }
    ram_w32(f, SURF_A + 64, 7);
    /* Channels 0-6 add c + 1 at dword c; channel 7 is past the end. */
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c * 4);
        set_ud(&s, 3, c, c + 1);
    }
    set_ud(&s, 2, 7, 64);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 1, 0, DP(2, 0x30 | 7, 6)), 8, 2, 20),
                    ==, 0);
    for (unsigned c = 0; c < 7; c++) {
        g_assert_cmpuint(get_ud(&s, 20, c), ==, 100 + c);
        g_assert_cmpuint(ram_r32(f, SURF_A + c * 4), ==, 101 + 2 * c);
    }
    g_assert_cmpuint(get_ud(&s, 20, 7), ==, 0);
    g_assert_cmpuint(ram_r32(f, SURF_A + 64), ==, 7);

    /* CMPWR: channel 0 matches (101 -> 5), channel 1 does not. */
    s.t->active = 3;
    set_ud(&s, 3, 0, 101);
    set_ud(&s, 3, 1, 0);
    set_ud(&s, 4, 0, 5);
    set_ud(&s, 4, 1, 6);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 0, DP(2, 0x10 | 14, 6)), 8, 2, 20),
                    ==, 0);
    g_assert_cmpuint(ram_r32(f, SURF_A), ==, 5);
    g_assert_cmpuint(ram_r32(f, SURF_A + 4), ==, 103);

    /* Typed (u, v; then the source): UMAX on an R32_UINT 4x4 texel. */
    s.t->active = 0xff;
    put_surface(f, 4, INTEL_SURFTYPE_2D, INTEL_SF_R32_UINT, 4, 4, 16,
                TILE_LINEAR, SURF_B);
    memset(ram(f, SURF_B), 0, 64);
    ram_w32(f, SURF_B + 2 * 16 + 4, 50);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c == 0 ? 1 : 9);     /* only channel 0 inside */
        set_ud(&s, 3, c, 2);
        set_ud(&s, 4, c, c == 0 ? 70 : 1);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 1, 0, DP(6, 0x20 | 12, 4)), 8, 2, 20),
                    ==, 0);
    g_assert_cmpuint(get_ud(&s, 20, 0), ==, 50);
    g_assert_cmpuint(get_ud(&s, 20, 1), ==, 0);
    g_assert_cmpuint(ram_r32(f, SURF_B + 2 * 16 + 4), ==, 70);

    /* A64 (two dwords an address): INC at SURF_B + 4c. */
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2 + c / 4, (c % 4) * 2, SURF_B + 4 * c);
        set_ud(&s, 2 + c / 4, (c % 4) * 2 + 1, 0);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 1, 0, DP(0x12, 0x20 | 5, 253)), 8, 2,
                            20), ==, 0);
    g_assert_cmpuint(get_ud(&s, 20, 0), ==, 0);
    g_assert_cmpuint(ram_r32(f, SURF_B + 4 * 7), ==, 1);
    sf_fini(&s);
}

/* Stateless OWord block write and read: general state base + 16 x M0.2. */
void test_oword_block(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, GSB), 0, 0x100);
    set_ud(&s, 40, 2, 2);
    for (unsigned i = 0; i < 8; i++) {
        set_ud(&s, 41, i, 0x1000 + i);
    }
    /* SENDS: the header from src0, the data from src1 (ex_mlen 1). */
    g_assert_cmpint(sf_sends(&s, EU_SFID_DP_DATA,
                             DESC(1, 0, 1, DP(8, 2, 255)), 1 << 6, 8, 40, 41,
                             0), ==, 0);
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmphex(ram_r32(f, GSB + 32 + i * 4), ==, 0x1000 + i);
    }
    /* One OWord, high half: the register's upper 16 bytes. */
    set_ud(&s, 40, 2, 3);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(1, 1, 1, DP(0, 1, 255)), 8, 40, 50), ==, 0);
    g_assert_cmphex(get_ud(&s, 50, 4), ==, 0x1004);
    g_assert_cmphex(get_ud(&s, 50, 7), ==, 0x1007);
    g_assert_cmphex(get_ud(&s, 50, 0), ==, 0);
    /* The constant cache reads the same way: 2 OWords at byte 36. */
    set_ud(&s, 40, 2, 36);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_CONST,
                            DESC(1, 1, 1, DP(1, 2, 255)), 8, 40, 50), ==, 0);
    g_assert_cmphex(get_ud(&s, 50, 0), ==, 0x1001);
    g_assert_cmphex(get_ud(&s, 50, 6), ==, 0x1007);
    g_assert_cmphex(get_ud(&s, 50, 7), ==, 0);
    sf_fini(&s);
}

/* Scratch blocks: general state base + M0.5 (1 KiB units) + 32 x offset. */
void test_scratch(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, GSB), 0, 0x1000);
    set_ud(&s, 40, 5, 0x800 | 0x3ff);      /* low bits are not address */
    for (unsigned i = 0; i < 16; i++) {
        set_ud(&s, 41 + i / 8, i % 8, 0x700 + i);
    }
    /* Write 2 registers at HWord 3: bit 18 scratch, 17 write, 13:12 size. */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(3, 0, 1, 1u << 18 | 1u << 17 | 1u << 12 | 3),
                            8, 40, 0), ==, 0);
    g_assert_cmphex(ram_r32(f, GSB + 0x800 + 96), ==, 0x700);
    g_assert_cmphex(ram_r32(f, GSB + 0x800 + 96 + 60), ==, 0x70f);
    /* Read one register back from HWord 4. */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(1, 1, 1, 1u << 18 | 4), 8, 40, 50), ==, 0);
    g_assert_cmphex(get_ud(&s, 50, 0), ==, 0x708);
    g_assert_cmphex(get_ud(&s, 50, 7), ==, 0x70f);
    /*
     * Past the thread's 1 KiB (M0.3 bits 3:0 = 0): HWord 32 reads zeros,
     * its write is dropped, logged once; at 2 KiB (1) it is inside.
     */
    ram_w32(f, GSB + 0x800 + 1024, 0x5a5a);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(2, 0, 1, 1u << 18 | 1u << 17 | 32),
                            8, 40, 0), ==, 0);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(1, 1, 1, 1u << 18 | 32), 8, 40, 50), ==, 0);
    g_assert_cmphex(ram_r32(f, GSB + 0x800 + 1024), ==, 0x5a5a);
    g_assert_cmphex(get_ud(&s, 50, 0), ==, 0);
    g_assert_cmpuint(f->fh->guest_errors, ==, 1);
    set_ud(&s, 40, 3, 1);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(1, 1, 1, 1u << 18 | 32), 8, 40, 50), ==, 0);
    g_assert_cmphex(get_ud(&s, 50, 0), ==, 0x5a5a);
    sf_fini(&s);
}

/* A64 untyped write and byte scattered read: 64-bit addresses. */
void test_a64(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, SURF_A), 0, 0x100);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2 + c / 4, (c % 4) * 2, SURF_A + 16 * c);
        set_ud(&s, 2 + c / 4, (c % 4) * 2 + 1, 0);
        set_ud(&s, 4, c, 0xc0de0000 + c);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 0, DP(0x19, 0x2e, 253)), 8, 2, 0),
                    ==, 0);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmphex(ram_r32(f, SURF_A + 16 * c), ==, 0xc0de0000 + c);
    }
    /* Bytes, SIMD8: control data size 0 (3:2), subtype byte (1:0). */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 1, 0, DP(0x10, 0, 253)), 8, 2, 30), ==,
                    0);
    g_assert_cmphex(get_ud(&s, 30, 5), ==, 0x05);
    /* Past the GGTT's 4 GiB: a page fault, the message fails. */
    set_ud(&s, 2, 1, 1);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 1, 0, DP(0x10, 0, 253)), 8, 2, 30), ==,
                    -1);
    sf_fini(&s);
}

/* Channel c's A64 address @base + @step x c in g2-g3 (SIMD8). */
static void set_a64(Sf *s, uint64_t base, unsigned step)
{
    for (unsigned c = 0; c < 8; c++) {
        set_ud(s, 2 + c / 4, (c % 4) * 2, base + step * c);
        set_ud(s, 2 + c / 4, (c % 4) * 2 + 1, (base + step * c) >> 32);
    }
}

/*
 * What IGC emits for 64-bit data and block loads through A64 pointers:
 * DWord and QWord scattered messages of several elements a channel, the
 * OWord block messages of data cache 1 and 64-bit atomics.
 */
void test_a64_wide(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    for (unsigned i = 0; i < 64; i++) {
        ram_w32(f, SURF_A + 4 * i, 0x100 + i);
    }
    /* QWord, two elements (data size 1), SIMD8: 4 registers, element-major. */
    set_a64(&s, SURF_A, 16);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 4, 0, DP(0x10, 0x06, 253)), 8, 2, 30), ==,
                    0);
    /* Channel 5's first QWord (dwords 20, 21) in g31's second half. */
    g_assert_cmphex(get_ud(&s, 31, 2), ==, 0x100 + 20);
    g_assert_cmphex(get_ud(&s, 31, 3), ==, 0x100 + 21);
    /* Its second QWord (dwords 22, 23) in g33. */
    g_assert_cmphex(get_ud(&s, 33, 2), ==, 0x100 + 22);
    g_assert_cmphex(get_ud(&s, 33, 3), ==, 0x100 + 23);
    /* DWord, four elements (data size 2): channel 7's in g30-g33 dword 7. */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 4, 0, DP(0x10, 0x09, 253)), 8, 2, 30), ==,
                    0);
    for (unsigned e = 0; e < 4; e++) {
        g_assert_cmphex(get_ud(&s, 30 + e, 7), ==, 0x100 + 28 + e);
    }
    /* QWord write, one element: channel c's QWord at SURF_B + 16c. */
    memset(ram(f, SURF_B), 0, 0x100);
    set_a64(&s, SURF_B, 16);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 4 + c / 4, (c % 4) * 2, 0xa000 + c);
        set_ud(&s, 4 + c / 4, (c % 4) * 2 + 1, 0xb000 + c);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(4, 0, 0, DP(0x1a, 0x02, 253)), 8, 2, 0), ==,
                    0);
    g_assert_cmphex(ram_r32(f, SURF_B + 16 * 6), ==, 0xa006);
    g_assert_cmphex(ram_r32(f, SURF_B + 16 * 6 + 4), ==, 0xb006);
    g_assert_cmphex(ram_r32(f, SURF_B + 16 * 6 + 8), ==, 0);

    /* OWord block read, DWord-aligned (control 0x08 | 2 OWords): M0.1:0. */
    set_ud(&s, 40, 0, SURF_A + 12);
    set_ud(&s, 40, 1, 0);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(1, 1, 1, DP(0x14, 0x0a, 253)), 8, 40, 50),
                    ==, 0);
    g_assert_cmphex(get_ud(&s, 50, 0), ==, 0x100 + 3);
    g_assert_cmphex(get_ud(&s, 50, 7), ==, 0x100 + 10);
    /* OWord-aligned: the address's low four bits are ignored. */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(1, 1, 1, DP(0x14, 0x02, 253)), 8, 40, 50),
                    ==, 0);
    g_assert_cmphex(get_ud(&s, 50, 0), ==, 0x100);
    /* OWord block write of 2 OWords at SURF_B + 32. */
    set_ud(&s, 40, 0, SURF_B + 32);
    for (unsigned i = 0; i < 8; i++) {
        set_ud(&s, 41, i, 0xe000 + i);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 0, 1, DP(0x15, 0x02, 253)), 8, 40, 0),
                    ==, 0);
    g_assert_cmphex(ram_r32(f, SURF_B + 32 + 28), ==, 0xe007);

    /*
     * 64-bit atomics (control bit 4), with return (bit 5): SUB of c from
     * 2^32 + 5 at SURF_B + 8c; then signed IMAX against -1 and CMPWR.
     */
    set_a64(&s, SURF_B, 8);
    for (unsigned c = 0; c < 8; c++) {
        ram_w32(f, SURF_B + 8 * c, 5);
        ram_w32(f, SURF_B + 8 * c + 4, 1);
        set_ud(&s, 4 + c / 4, (c % 4) * 2, c == 7 ? 6 : c);
        set_ud(&s, 4 + c / 4, (c % 4) * 2 + 1, 0);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(4, 2, 0, DP(0x12, 0x30 | 8, 253)), 8, 2,
                            20), ==, 0);
    g_assert_cmphex(get_ud(&s, 21, 6), ==, 5);             /* channel 7 */
    g_assert_cmphex(get_ud(&s, 21, 7), ==, 1);
    g_assert_cmphex(ram_r32(f, SURF_B + 8 * 7), ==, 0xffffffff);
    g_assert_cmphex(ram_r32(f, SURF_B + 8 * 7 + 4), ==, 0);
    g_assert_cmphex(ram_r32(f, SURF_B + 8 * 3), ==, 2);
    g_assert_cmphex(ram_r32(f, SURF_B + 8 * 3 + 4), ==, 1);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 4 + c / 4, (c % 4) * 2, 0xffffffff);
        set_ud(&s, 4 + c / 4, (c % 4) * 2 + 1, 0xffffffff);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(4, 0, 0, DP(0x12, 0x10 | 10, 253)), 8, 2, 0),
                    ==, 0);
    g_assert_cmphex(ram_r32(f, SURF_B + 8 * 3 + 4), ==, 1);   /* 2^32 + 2 */
    /* CMPWR: channel 3 compares equal (2^32 + 2) and takes 7. */
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 4 + c / 4, (c % 4) * 2, 2);
        set_ud(&s, 4 + c / 4, (c % 4) * 2 + 1, 1);
        set_ud(&s, 6 + c / 4, (c % 4) * 2, 7);
        set_ud(&s, 6 + c / 4, (c % 4) * 2 + 1, 0);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(6, 0, 0, DP(0x12, 0x10 | 14, 253)), 8, 2, 0),
                    ==, 0);
    g_assert_cmphex(ram_r32(f, SURF_B + 8 * 3), ==, 7);
    g_assert_cmphex(ram_r32(f, SURF_B + 8 * 3 + 4), ==, 0);
    g_assert_cmphex(ram_r32(f, SURF_B + 8 * 2), ==, 3);
    sf_fini(&s);
}

void test_byte_scattered(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, SURF_A), 0, 64);
    put_buffer(f, 3, INTEL_SF_RAW, 64, 1, SURF_A);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c * 3);
        set_ud(&s, 3, c, 0xffffff00 | (0xa0 + c));
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(2, 0, 0, DP(12, 0, 3)), 8, 2, 0), ==, 0);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmphex(*ram(f, SURF_A + c * 3), ==, 0xa0 + c);
        g_assert_cmphex(*ram(f, SURF_A + c * 3 + 1), ==, 0);
    }
    /* DWord scattered: offsets in DWords, SIMD8 (control 2). */
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, 8 + c);
        set_ud(&s, 3, c, 0xd0000000 + c);
    }
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(2, 0, 0, DP(11, 2, 3)), 8, 2, 0), ==, 0);
    g_assert_cmphex(ram_r32(f, SURF_A + 32 + 4 * 5), ==, 0xd0000005);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(1, 1, 0, DP(3, 2, 3)), 8, 2, 20), ==, 0);
    g_assert_cmphex(get_ud(&s, 20, 7), ==, 0xd0000007);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c * 3);
    }

    /* Two-byte reads, zero-extended. */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA,
                            DESC(1, 1, 0, DP(4, 4, 3)), 8, 2, 20), ==, 0);
    g_assert_cmphex(get_ud(&s, 20, 1), ==, 0x00a1);
    g_assert_cmphex(get_ud(&s, 20, 0), ==, 0x00a0);
    sf_fini(&s);
}

void test_typed(Fixture *f, gconstpointer data)
{
    Sf s;

    sf_init(f, &s, 8);
    memset(ram(f, SURF_A), 0, 0x400);
    put_surface(f, 4, INTEL_SURFTYPE_2D, INTEL_SF_R32_UINT, 8, 8, 32,
                TILE_LINEAR, SURF_A);
    for (unsigned c = 0; c < 8; c++) {
        set_ud(&s, 2, c, c);
        set_ud(&s, 3, c, 7 - c);
        set_ud(&s, 4, c, 0x5000 + c);
    }
    set_ud(&s, 2, 6, 8);                    /* outside: dropped */
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(3, 0, 0, DP(13, 0x1e, 4)), 8, 2, 0), ==, 0);
    for (unsigned c = 0; c < 8; c++) {
        g_assert_cmphex(ram_r32(f, SURF_A + (7 - c) * 32 + c * 4), ==,
                        c == 6 ? 0 : 0x5000 + c);
    }
    /* Read R and A of R8G8B8A8: floats. */
    put_surface(f, 4, INTEL_SURFTYPE_2D, INTEL_SF_R8G8B8A8_UNORM, 8, 8, 32,
                TILE_LINEAR, SURF_A);
    g_assert_cmpint(sf_send(&s, EU_SFID_DP_DATA1,
                            DESC(2, 2, 0, DP(5, 0x16, 4)), 8, 2, 20), ==, 0);
    g_assert_cmpfloat(get_f(&s, 20, 1), ==, 1 / 255.0f);       /* 0x01 */
    g_assert_cmpfloat(get_f(&s, 21, 1), ==, 0);                 /* 0x00 */
    g_assert_cmpfloat(get_f(&s, 20, 6), ==, 0);                 /* outside */
    sf_fini(&s);
}

