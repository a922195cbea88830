/*
 * nv-gpu VBIOS: the image PROM serves, parsed the way nouveau parses it
 * (drivers/gpu/drm/nouveau/nvkm/subdev/bios/: shadow.c shadow_image,
 * image.c nvbios_imagen, pcir.c, npde.c, bit.c, dcb.c, init.c; and
 * nouveau_bios.c: parse_bit_structure, parse_dcb_table), for every
 * chipset profile; and the display engine that 6.12's nouveau starts
 * although that DCB has no output.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "fake-host.h"
#include "nvidia/nv-gpu-int.h"

static const char *const chipsets[] = { "g84", "g86", "g92", "gt215" };

typedef struct Rom {
    uint8_t b[NV_VBIOS_SIZE];
} Rom;

static unsigned u8(const Rom *r, unsigned off)
{
    g_assert_cmpuint(off, <, NV_VBIOS_SIZE);
    return r->b[off % NV_VBIOS_SIZE];   /* the assert above: in range */
}

static unsigned u16(const Rom *r, unsigned off)
{
    return u8(r, off) | u8(r, off + 1) << 8;
}

static uint32_t u32(const Rom *r, unsigned off)
{
    return u16(r, off) | (uint32_t)u16(r, off + 2) << 16;
}

/* Read the image through BAR0 as nouveau's PROM shadow does: dwords. */
static void rom_fetch(NvGpu *gpu, Rom *r)
{
    for (unsigned i = 0; i < NV_VBIOS_SIZE; i += 4) {
        uint32_t v = nv_gpu_read(gpu, NV_PROM_BASE + i);

        memcpy(r->b + i, &v, 4);    /* the model's host is little-endian */
    }
}

/* The offset of the one occurrence of @sig, or -1; fails on a second. */
static int find_once(const Rom *r, const void *sig, size_t len)
{
    int at = -1;

    for (unsigned i = 0; i + len <= NV_VBIOS_SIZE; i++) {
        if (!memcmp(r->b + i, sig, len)) {
            g_assert_cmpint(at, ==, -1);
            at = i;
        }
    }
    return at;
}

/* A BIT entry by id: its version, length and data offset. */
static bool bit_find(const Rom *r, unsigned bit, char id, unsigned *ver,
                     unsigned *len, unsigned *off)
{
    unsigned esz = u8(r, bit + 9), n = u8(r, bit + 10);
    unsigned hdr = u8(r, bit + 8);

    for (unsigned i = 0; i < n; i++) {
        unsigned e = bit + hdr + i * esz;

        if (u8(r, e) == (uint8_t)id) {
            *ver = u8(r, e + 1);
            *len = u16(r, e + 2);
            *off = u16(r, e + 4);
            return true;
        }
    }
    return false;
}

static void test_image(gconstpointer data)
{
    const char *name = data;
    const NvChipset *chip = nv_chipset_find(name);
    NvGpuConfig cfg = { .chipset = name, .vram_size = NV_VRAM_MIN };
    FakeHost *fh = fake_host_new();
    NvGpu *gpu = nv_gpu_new(&cfg, &fh->host);
    static const uint8_t bit_sig[] = { 0xff, 0xb8, 'B', 'I', 'T' };
    static const uint8_t bmp_sig[] = { 0xff, 0x7f, 'N', 'V', 0 };
    Rom *r = g_new0(Rom, 1);
    unsigned pcir, npde, size, sum = 0, bit, ver, len, off, dcb, scripts;
    int at;

    rom_fetch(gpu, r);

    /* nvbios_imagen: signature, PCIR, no NPDE, one last x86 image */
    g_assert_cmphex(u16(r, 0), ==, 0xaa55);
    pcir = u16(r, 0x18);
    g_assert_cmpuint(pcir, !=, 0);
    g_assert_cmphex(u32(r, pcir), ==, 0x52494350);         /* "PCIR" */
    g_assert_cmphex(u16(r, pcir + 4), ==, NV_GPU_VENDOR_ID);
    g_assert_cmphex(u16(r, pcir + 6), ==, chip->device_id);
    size = u16(r, pcir + 0x10) * 512;
    g_assert_cmpuint(size, ==, NV_VBIOS_SIZE);
    g_assert_cmphex(u8(r, pcir + 0x14), ==, 0x00);          /* x86 */
    g_assert_cmphex(u8(r, pcir + 0x15) & 0x80, ==, 0x80);   /* last */
    npde = (pcir + u16(r, pcir + 0x0a) + 0x0f) & ~0x0fu;
    g_assert_cmphex(u32(r, npde), !=, 0x4544504e);          /* "NPDE" */
    /* nvbios_checksum: a type-0 image sums to 0 */
    for (unsigned i = 0; i < size; i++) {
        sum += r->b[i];
    }
    g_assert_cmpuint(sum & 0xff, ==, 0);

    /* nvkm_bios_new: a BIT table, no BMP one to be taken instead */
    g_assert_cmpint(find_once(r, bmp_sig, sizeof(bmp_sig)), ==, -1);
    at = find_once(r, bit_sig, sizeof(bit_sig));
    g_assert_cmpint(at, >=, 0);
    bit = at;
    g_assert_cmpuint(u8(r, bit + 9), ==, 6);
    /* every entry's data inside the image */
    for (unsigned i = 0; i < u8(r, bit + 10); i++) {
        unsigned e = bit + u8(r, bit + 8) + i * 6;

        g_assert_cmpuint(u16(r, e + 4) + u16(r, e + 2), <=, size);
    }

    /* 'i': >= 15 bytes; the version line; no DAC compare table */
    g_assert_true(bit_find(r, bit, 'i', &ver, &len, &off));
    g_assert_cmpuint(len, >=, 15);
    g_assert_cmphex(u8(r, off + 3), ==, NV_VBIOS_VERSION_MAJOR);
    g_assert_cmphex(u8(r, off + 2), ==, (chip->boot0 >> 20) & 0xff);
    g_assert_cmphex(u8(r, off + 1), ==, NV_VBIOS_VERSION_MINOR);
    g_assert_cmphex(u8(r, off + 5) & 0x10, ==, 0);          /* not mobile */
    g_assert_cmphex(u16(r, off + 13), ==, 0);

    /* 'I': >= 14 bytes; the script list holds one INIT_DONE script */
    g_assert_true(bit_find(r, bit, 'I', &ver, &len, &off));
    g_assert_cmpuint(len, >=, 14);
    scripts = u16(r, off);
    g_assert_cmpuint(scripts, !=, 0);
    g_assert_cmpuint(u16(r, scripts), !=, 0);
    g_assert_cmphex(u8(r, u16(r, scripts)), ==, 0x71);
    g_assert_cmpuint(u16(r, scripts + 2), ==, 0);
    for (unsigned p = 2; p + 1 < len; p += 2) {
        g_assert_cmpuint(u16(r, off + p), ==, 0);   /* no macros etc. */
    }

    /* the DRM side's exact lengths for the optional tables */
    g_assert_true(bit_find(r, bit, 'A', &ver, &len, &off));
    g_assert_cmpuint(len, ==, 3);
    g_assert_cmphex(u8(r, u16(r, off)), ==, 0x10);          /* loadval 1.0 */
    g_assert_true(bit_find(r, bit, 'D', &ver, &len, &off));
    g_assert_cmpuint(len, ==, 4);
    g_assert_true(bit_find(r, bit, 'L', &ver, &len, &off));
    g_assert_cmpuint(len, ==, 2);
    g_assert_true(bit_find(r, bit, 'T', &ver, &len, &off));
    g_assert_cmpuint(len, ==, 2);
    g_assert_cmphex(u8(r, u16(r, off)), ==, 0x20);          /* TMDS 2.0 */
    g_assert_true(bit_find(r, bit, 'M', &ver, &len, &off));
    g_assert_cmpuint(ver, ==, 1);
    g_assert_cmpuint(len, ==, 5);
    g_assert_false(bit_find(r, bit, 'P', &ver, &len, &off));

    /* DCB 4.0 with no outputs and no sub-tables */
    dcb = u16(r, 0x36);
    g_assert_cmpuint(dcb, !=, 0);
    g_assert_cmphex(u8(r, dcb), ==, 0x40);
    g_assert_cmpuint(u8(r, dcb + 1), >=, 0x16);
    g_assert_cmpuint(u8(r, dcb + 2), ==, 0);
    g_assert_cmphex(u32(r, dcb + 6), ==, 0x4edcbdcb);
    g_assert_cmphex(u16(r, dcb + 4), ==, 0);                /* CCB */
    g_assert_cmphex(u16(r, dcb + 0x0a), ==, 0);             /* GPIO */
    g_assert_cmphex(u16(r, dcb + 0x14), ==, 0);             /* connectors */

    g_free(r);
    nv_gpu_free(gpu);
    fake_host_free(fh);
}

/* PROM is read-only, the window past the image reads 0. */
static void test_prom_window(void)
{
    NvGpuConfig cfg = { .vram_size = NV_VRAM_MIN };
    FakeHost *fh = fake_host_new();
    NvGpu *gpu = nv_gpu_new(&cfg, &fh->host);
    uint32_t first = nv_gpu_read(gpu, NV_PROM_BASE);

    g_assert_cmphex(first & 0xffff, ==, 0xaa55);
    nv_gpu_write(gpu, NV_PROM_BASE, 0);
    g_assert_cmphex(nv_gpu_read(gpu, NV_PROM_BASE), ==, first);
    g_assert_cmphex(nv_gpu_read(gpu, NV_PROM_BASE + NV_VBIOS_SIZE), ==, 0);
    g_assert_cmphex(nv_gpu_read(gpu, NV_PROM_BASE + NV_PROM_SIZE - 4), ==,
                    0);
    /* the window's accesses are not unmodelled registers */
    g_assert_cmpuint(nv_gpu_unmodelled_count(gpu), ==, 0);
    nv_gpu_free(gpu);
    fake_host_free(fh);
}

/* A capability register and the engine's copy nv50_disp_init fills. */
typedef struct DispCap {
    uint32_t cap, copy;
} DispCap;

/* G84's, in nv50_disp_init's order: 17 of them. */
static unsigned disp_caps(DispCap *c)
{
    unsigned n = 0;

    c[n++] = (DispCap) { NV_PDISPLAY_CLOCK_UNK04,
                         NV_PDISPLAY_CLOCK_UNK04_COPY };
    for (unsigned i = 0; i < NV_PDISPLAY_CRTCS; i++) {
        for (unsigned j = 0; j < NV_PDISPLAY_CRTC_CAPS_WORDS; j++) {
            c[n++] = (DispCap) { NV_PDISPLAY_CRTC_CAPS(i, j),
                                 NV_PDISPLAY_CRTC_CAPS_COPY(i, j) };
        }
    }
    for (unsigned i = 0; i < NV_PDISPLAY_DACS; i++) {
        c[n++] = (DispCap) { NV_PDISPLAY_DAC_UNK_STATUS(i),
                             NV_PDISPLAY_DAC_UNK_STATUS_COPY(i) };
    }
    for (unsigned i = 0; i < NV_PDISPLAY_SORS; i++) {
        c[n++] = (DispCap) { NV_PDISPLAY_SOR_CAP(i),
                             NV_PDISPLAY_SOR_CAP_COPY(i) };
    }
    for (unsigned i = 0; i < NV_PDISPLAY_PIORS; i++) {
        c[n++] = (DispCap) { NV_PDISPLAY_PIOR_CAPS(i),
                             NV_PDISPLAY_PIOR_CAPS_COPY(i) };
    }
    return n;
}

/*
 * What 6.12's nouveau does to the display engine of a card whose DCB has
 * no output (nvkm/engine/disp/nv50.c as g84.c's g84_disp uses it):
 * nv50_disp_oneinit, nv50_disp_init, nv50_disp_intr, nv50_disp_fini.
 * Every access is to a modelled register.
 */
static void test_display_init(gconstpointer data)
{
    const char *name = data;
    NvGpuConfig cfg = { .chipset = name, .vram_size = NV_VRAM_MIN };
    FakeHost *fh = fake_host_new();
    NvGpu *gpu = nv_gpu_new(&cfg, &fh->host);
    /* any 64 KiB-aligned instance (nv50_disp_oneinit's nvkm_gpuobj_new) */
    const uint32_t objects = (0x30000 >> 8) | 9;
    DispCap caps[17];
    unsigned n = disp_caps(caps);
    uint32_t v;

    g_assert_cmpuint(n, ==, G_N_ELEMENTS(caps));

    /* oneinit, before init fills the copy: no DAC, SOR or PIOR */
    v = nv_gpu_read(gpu, NV_PDISPLAY_CLOCK_UNK04_COPY);
    g_assert_cmpuint(GPU_FIELD_EX32(v, NV_PDISPLAY_CLOCK_UNK04_COPY, DACS),
                     ==, 0);
    g_assert_cmpuint(GPU_FIELD_EX32(v, NV_PDISPLAY_CLOCK_UNK04_COPY, SORS),
                     ==, 0);
    g_assert_cmpuint(GPU_FIELD_EX32(v, NV_PDISPLAY_CLOCK_UNK04_COPY, PIORS),
                     ==, 0);

    /* init: every capability reads 0 (none known), copied */
    for (unsigned k = 0; k < n; k++) {
        v = nv_gpu_read(gpu, caps[k].cap);
        g_assert_cmphex(v, ==, 0);
        nv_gpu_write(gpu, caps[k].copy, v);
    }
    /* no display the VBIOS drives: no handover through 0x6194e8 */
    v = nv_gpu_read(gpu, NV_PDISPLAY_INTR_1);
    g_assert_cmphex(v & NV_PDISPLAY_INTR_1_UNK8, ==, 0);
    nv_gpu_write(gpu, NV_PDISPLAY_OBJECTS, objects);
    nv_gpu_write(gpu, NV_PDISPLAY_INTR_EN_1, 0x370);
    nv_gpu_write(gpu, NV_PDISPLAY_INTR_EN_0, 0);

    /* intr finds nothing pending; fini clears */
    g_assert_cmphex(nv_gpu_read(gpu, NV_PDISPLAY_INTR_0), ==, 0);
    g_assert_cmphex(nv_gpu_read(gpu, NV_PDISPLAY_INTR_1), ==, 0);
    nv_gpu_write(gpu, NV_PDISPLAY_INTR_1, 0);
    nv_gpu_write(gpu, NV_PDISPLAY_INTR_0, 0);
    g_assert_cmpuint(nv_gpu_unmodelled_count(gpu), ==, 0);

    /* OBJECTS, the enables and the copies are storage */
    g_assert_cmphex(nv_gpu_read(gpu, NV_PDISPLAY_OBJECTS), ==, objects);
    g_assert_cmphex(nv_gpu_read(gpu, NV_PDISPLAY_INTR_EN_1), ==, 0x370);
    g_assert_cmphex(nv_gpu_read(gpu, NV_PDISPLAY_INTR_EN_0), ==, 0);
    for (unsigned k = 0; k < n; k++) {
        nv_gpu_write(gpu, caps[k].copy, caps[k].copy);
        g_assert_cmphex(nv_gpu_read(gpu, caps[k].copy), ==, caps[k].copy);
        /* the capabilities are read-only */
        nv_gpu_write(gpu, caps[k].cap, 0xffffffff);
        g_assert_cmphex(nv_gpu_read(gpu, caps[k].cap), ==, 0);
    }
    /* the VBIOS shadow register in the same window: "not enabled" */
    g_assert_cmphex(nv_gpu_read(gpu, NV_PDISPLAY_VBIOS_SHADOW), ==, 0);
    g_assert_cmpuint(nv_gpu_unmodelled_count(gpu), ==, 0);

    /* the window's other offsets stay unmodelled: past CRTC 0's caps */
    g_assert_cmphex(nv_gpu_read(gpu, NV_PDISPLAY_CRTC_CAPS(0, 4)), ==, 0);
    g_assert_cmpuint(nv_gpu_unmodelled_count(gpu), ==, 1);

    nv_gpu_reset(gpu);
    g_assert_cmphex(nv_gpu_read(gpu, NV_PDISPLAY_OBJECTS), ==, 0);
    for (unsigned k = 0; k < n; k++) {
        g_assert_cmphex(nv_gpu_read(gpu, caps[k].copy), ==, 0);
    }
    nv_gpu_free(gpu);
    fake_host_free(fh);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (unsigned i = 0; i < G_N_ELEMENTS(chipsets); i++) {
        g_autofree char *path = g_strdup_printf("/nv-vbios/image/%s",
                                                chipsets[i]);

        g_test_add_data_func(path, chipsets[i], test_image);
    }
    g_test_add_func("/nv-vbios/prom-window", test_prom_window);
    /* gt215's display (gt215.c) has four SORs, not modelled */
    for (unsigned i = 0; i < G_N_ELEMENTS(chipsets); i++) {
        g_autofree char *path = NULL;

        if (!strcmp(chipsets[i], "gt215")) {
            continue;
        }
        path = g_strdup_printf("/nv-vbios/display-init/%s", chipsets[i]);
        g_test_add_data_func(path, chipsets[i], test_display_init);
    }
    return g_test_run();
}
