/*
 * nv-gpu VBIOS: the image PROM (BAR0 0x300000) serves, built from the
 * chipset at creation.
 *
 * A headless board's minimum, as nouveau parses it
 * (drivers/gpu/drm/nouveau/nvkm/subdev/bios/: shadow.c, image.c, pcir.c,
 * bit.c, dcb.c, init.c; and the DRM side, nouveau_bios.c): one x86-type
 * PCI expansion ROM image whose bytes sum to 0, a BIT table with the
 * 'i' (version), 'I' (init tables), 'A', 'D', 'L', 'T' and 'M' entries,
 * one init script that is just INIT_DONE (the board needs no devinit),
 * and a DCB 4.0 with no outputs: nothing to display, so nouveau creates
 * no CRTC and never starts the display engine.  Every pointer stays
 * inside the image: nouveau's DRM-side parser does not bounds-check.
 *
 * The layout: envytools docs/hw/bios (BIT, DCB), and the PCI Firmware
 * Specification's expansion ROM header and PCI data structure.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "../nv-gpu-int.h"

/* Where each structure lives in the image. */
enum {
    VB_PCIR         = 0x00a0,
    VB_BIT          = 0x0100,
    VB_BIT_I        = 0x0140,   /* 'i': version */
    VB_BIT_INIT     = 0x0160,   /* 'I': init table pointers */
    VB_BIT_A        = 0x0180,
    VB_BIT_D        = 0x0188,
    VB_BIT_L        = 0x0190,
    VB_BIT_T        = 0x0198,
    VB_BIT_M        = 0x01a0,
    VB_LOADVAL      = 0x01b0,   /* 'A': DAC/TV load detection values */
    VB_TMDS         = 0x01bc,   /* 'T': TMDS table header */
    VB_SCRIPTS      = 0x01c0,   /* init script pointer list */
    VB_SCRIPT0      = 0x01d0,
    VB_DCB          = 0x0200,
};

#define VB_DCB_PTR          0x36        /* ROM u16: the DCB */
#define VB_DCB_SIGNATURE    0x4edcbdcbu
#define VB_INIT_DONE        0x71        /* nvkm/subdev/bios/init.c */

static void vbios_put8(uint8_t *b, unsigned off, uint8_t v)
{
    b[off] = v;
}

static void vbios_put16(uint8_t *b, unsigned off, uint16_t v)
{
    b[off] = v;
    b[off + 1] = v >> 8;
}

static void vbios_put32(uint8_t *b, unsigned off, uint32_t v)
{
    vbios_put16(b, off, v);
    vbios_put16(b, off + 2, v >> 16);
}

/* A BIT entry: id, version, data length, data offset. */
static void vbios_bit_entry(uint8_t *b, unsigned n, char id, uint8_t ver,
                            uint16_t len, uint16_t off)
{
    unsigned e = VB_BIT + 12 + n * 6;

    vbios_put8(b, e, id);
    vbios_put8(b, e + 1, ver);
    vbios_put16(b, e + 2, len);
    vbios_put16(b, e + 4, off);
}

void nv_vbios_build(const NvChipset *chip, uint8_t *b)
{
    static const uint8_t bit_sig[] = { 0xff, 0xb8, 'B', 'I', 'T', 0 };
    uint8_t sum = 0;
    unsigned n = 0;

    memset(b, 0, NV_VBIOS_SIZE);

    /* Expansion ROM header and PCI data structure, one last x86 image. */
    vbios_put16(b, 0x00, 0xaa55);
    vbios_put8(b, 0x02, NV_VBIOS_SIZE / 512);
    vbios_put16(b, 0x18, VB_PCIR);
    vbios_put16(b, VB_DCB_PTR, VB_DCB);
    memcpy(b + VB_PCIR, "PCIR", 4);
    vbios_put16(b, VB_PCIR + 0x04, NV_GPU_VENDOR_ID);
    vbios_put16(b, VB_PCIR + 0x06, chip->device_id);
    vbios_put16(b, VB_PCIR + 0x0a, 0x18);             /* structure length */
    vbios_put8(b, VB_PCIR + 0x0f, 0x03);              /* class: display */
    vbios_put16(b, VB_PCIR + 0x10, NV_VBIOS_SIZE / 512);
    vbios_put16(b, VB_PCIR + 0x12, 1);                /* code revision */
    vbios_put8(b, VB_PCIR + 0x14, 0x00);              /* code type: x86 */
    vbios_put8(b, VB_PCIR + 0x15, 0x80);              /* last image */

    /* BIT header: version 1.0, 12-byte header, 6-byte entries. */
    memcpy(b + VB_BIT, bit_sig, sizeof(bit_sig));
    vbios_put16(b, VB_BIT + 6, 0x0100);
    vbios_put8(b, VB_BIT + 8, 12);
    vbios_put8(b, VB_BIT + 9, 6);
    vbios_bit_entry(b, n++, 'i', 0, 15, VB_BIT_I);
    vbios_bit_entry(b, n++, 'I', 0, 18, VB_BIT_INIT);
    vbios_bit_entry(b, n++, 'A', 0, 3, VB_BIT_A);
    vbios_bit_entry(b, n++, 'D', 0, 4, VB_BIT_D);
    vbios_bit_entry(b, n++, 'L', 0, 2, VB_BIT_L);
    vbios_bit_entry(b, n++, 'T', 0, 2, VB_BIT_T);
    vbios_bit_entry(b, n++, 'M', 1, 5, VB_BIT_M);
    vbios_put8(b, VB_BIT + 10, n);

    /*
     * 'i': version micro, minor, chip, major, patch.  Major 0x60 is what
     * nouveau takes for a G80-family BIOS; +13, the DAC compare table, is
     * 0 ("doesn't exist on g80").
     */
    vbios_put8(b, VB_BIT_I + 0, 0x00);
    vbios_put8(b, VB_BIT_I + 1, NV_VBIOS_VERSION_MINOR);
    vbios_put8(b, VB_BIT_I + 2, (chip->boot0 >> 20) & 0xff);
    vbios_put8(b, VB_BIT_I + 3, NV_VBIOS_VERSION_MAJOR);

    /* 'I': the script table; no macros, conditions or functions. */
    vbios_put16(b, VB_BIT_INIT, VB_SCRIPTS);
    vbios_put16(b, VB_SCRIPTS, VB_SCRIPT0);
    vbios_put8(b, VB_SCRIPT0, VB_INIT_DONE);

    /* 'A': load values v1.0 (header 4, entries of 4 bytes, 2 of them). */
    vbios_put16(b, VB_BIT_A, VB_LOADVAL);
    vbios_put8(b, VB_LOADVAL + 0, 0x10);
    vbios_put8(b, VB_LOADVAL + 1, 4);
    vbios_put8(b, VB_LOADVAL + 2, 4);
    vbios_put8(b, VB_LOADVAL + 3, 2);

    /* 'D', 'L', 'M': no FP modes, no LVDS, no memory straps: zeros. */
    /* 'T': a TMDS table header of version 2.0 and nothing in it. */
    vbios_put16(b, VB_BIT_T, VB_TMDS);
    vbios_put8(b, VB_TMDS, 0x20);

    /* DCB 4.0: 0x16-byte header, no outputs, no CCB/GPIO/connectors. */
    vbios_put8(b, VB_DCB + 0, 0x40);
    vbios_put8(b, VB_DCB + 1, 0x16);
    vbios_put8(b, VB_DCB + 2, 0);
    vbios_put8(b, VB_DCB + 3, 8);
    vbios_put32(b, VB_DCB + 6, VB_DCB_SIGNATURE);

    /* The last byte makes the image sum to 0 (nvbios_checksum). */
    for (unsigned i = 0; i < NV_VBIOS_SIZE - 1; i++) {
        sum += b[i];
    }
    b[NV_VBIOS_SIZE - 1] = -sum;
}

/* PROM: the image, then zeros to the end of the window. */
uint32_t nv_prom_read(NvGpu *gpu, uint32_t offset)
{
    uint32_t off = offset - NV_PROM_BASE;
    uint32_t v = 0;

    for (unsigned i = 0; i < 4; i++) {
        if (off + i < NV_VBIOS_SIZE) {
            v |= (uint32_t)gpu->vbios[off + i] << (i * 8);
        }
    }
    return v;
}
