/*
 * nv-pcounter-probe: the guest side of the nv-gpu guest test.  Runs as root
 * in the test guest (static, no libraries), with no driver bound to the
 * card.  Maps BAR0 through sysfs resource0 as envytools' tools do, reads
 * PMC BOOT_0, runs nouveau's nv40 perfmon sequence (quad mode: SRC/OP
 * programming, a PGRAPH PM_TRIGGER pulse to swap, counter reads), a quad
 * swap by the PERIODIC generator, PTIMER_TIME_B12 and WRCACHE_FLUSH
 * counts, and a record-mode capture into a page of guest memory.
 *
 *   nv-pcounter-probe [--bdf 0000:00:03.0] [--drill-record-fault DOM]
 *   nv-pcounter-probe [--bdf 0000:00:03.0] --channels 1
 *
 * With --channels, it only reads what a driver's channels did: for each
 * PFIFO channel whose table entry (0x2600 + 4 x chid; bit 31: turned on)
 * or user-area PUT, GET, IB_GET or IB_PUT (envytools
 * docs/hw/fifo/dma-pusher.rst) is not 0, those five; it writes nothing,
 * not even PCI config, so it can run beside nouveau.
 * With --drill-record-fault, only the record-fault drill runs: the host
 * has armed x-nv-gpu-drill-record-fault on domain DOM (LONG packets), and
 * domain DOM + 1 records after it.
 *
 * It reports raw readings only; the host (tests/guest/guest_tier.py)
 * replays them against the synthetic signals it gave QEMU and makes every
 * verdict.  Output, one item a line:
 *
 *   step NAME                  the lines up to the next step belong to NAME
 *   w OFFSET VALUE             a BAR0 register write, in program order
 *   r LABEL OFFSET VALUE       a BAR0 register read (a poll's last read)
 *   fill ADDRESS LENGTH BYTE   the probe filled guest memory with BYTE
 *   m ADDRESS HEX              32 bytes of guest memory read back
 *   config-command VALUE       PCI COMMAND read back after enabling
 *   resource0 PATH SIZE        sysfs resource0 opened (or PATH error TEXT)
 *   mmap ok|error TEXT         BAR0 mapped
 *   pfn VALUE                  the record page's PFN (/proc/self/pagemap)
 *   page error TEXT            no record page
 *   # TEXT                     a note for people
 *
 * Polls (a quad state, a flush's busy bit, a record buffer filling) wait
 * for a raw condition, bounded in time, and report their last read.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hw/gpumodel/nv-gpu-regs.h"

#define SRC4(a, b, c, d) ((a) | (b) << 8 | (c) << 16 | (uint32_t)(d) << 24)
#define OP_ARG0     0xaaaau
#define OP_ARG1     0xccccu
#define OP_OR01     0xeeeeu
#define OP_AND01    0x8888u
#define OP_TRUE     0xffffu
#define ONE         NV_SIG_ONE
#define SYN(n)      NV_SIG_SYNTH(n)
#define FILL        0xaa

static volatile uint32_t *bar;          /* BAR0: the device's registers */

static void wr(uint32_t off, uint32_t v)
{
    printf("w 0x%06x 0x%08x\n", off, v);
    bar[off / 4] = v;
}

static uint32_t rd(const char *label, uint32_t off)
{
    uint32_t v = bar[off / 4];

    printf("r %s 0x%06x 0x%08x\n", label, off, v);
    return v;
}

static uint64_t now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000ull + ts.tv_nsec / 1000;
}

/* len bytes at p (bus address bus), memory the device writes too. */
static void fill(volatile uint8_t *p, uint64_t bus, unsigned len)
{
    memset((void *)p, FILL, len);
    printf("fill 0x%08" PRIx64 " 0x%x 0x%02x\n", bus, len, FILL);
}

/* len bytes at p (bus address bus), 32 a line. */
static void dump(const volatile uint8_t *p, uint64_t bus, unsigned len)
{
    for (unsigned i = 0; i < len; i += 32) {
        printf("m 0x%08" PRIx64 " ", bus + i);
        for (unsigned j = i; j < i + 32 && j < len; j++) {
            printf("%02x", p[j]);
        }
        printf("\n");
    }
}

/* ---- PCI and memory ----------------------------------------------------- */

static char devdir[128];

/* Memory decoding and bus mastering, as a driver's probe enables them. */
static void pci_setup(void)
{
    char path[192];
    uint16_t cmd;
    int fd;

    /* pci_enable_device. */
    snprintf(path, sizeof(path), "%s/enable", devdir);
    fd = open(path, O_WRONLY);
    if (fd >= 0) {
        if (write(fd, "1", 1) != 1) {
            printf("# writing %s: %s\n", path, strerror(errno));
        }
        close(fd);
    }
    /* Record mode writes by DMA. */
    snprintf(path, sizeof(path), "%s/config", devdir);
    fd = open(path, O_RDWR);
    if (fd < 0 || pread(fd, &cmd, 2, 4) != 2) {
        printf("config-command error cannot read %s: %s\n", path,
               strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return;
    }
    cmd |= 0x6;
    if (pwrite(fd, &cmd, 2, 4) != 2 || pread(fd, &cmd, 2, 4) != 2) {
        printf("config-command error cannot write %s: %s\n", path,
               strerror(errno));
    } else {
        printf("config-command 0x%04x\n", cmd);
    }
    close(fd);
}

/* The PFN of the page at va, from /proc/self/pagemap (root sees PFNs). */
static uint64_t pfn_of(void *va)
{
    uint64_t e = 0;
    int fd = open("/proc/self/pagemap", O_RDONLY);

    if (fd < 0) {
        return 0;
    }
    if (pread(fd, &e, 8, (uintptr_t)va / 4096 * 8) != 8) {
        e = 0;
    }
    close(fd);
    if (!(e >> 63 & 1)) {
        return 0;       /* not present */
    }
    return e & ((1ull << 55) - 1);
}

/* ---- quad mode ---------------------------------------------------------- */

/* Poll until domain dom shows quad state st, at most 200 ms; the last read. */
static void wait_state(const char *label, int dom, unsigned st)
{
    uint64_t end = now_us() + 200000;

    while (GPU_FIELD_EX32(bar[NV40_PC_CTRL(dom) / 4], NV40_PC_CTRL,
                          QUAD_STATE) != st && now_us() <= end) {
        continue;
    }
    rd(label, NV40_PC_CTRL(dom));
}

static void quad_program(int dom, uint32_t pre_src, uint32_t pre_op,
                         uint32_t start_src, uint32_t start_op,
                         uint32_t event_src, uint32_t event_op,
                         uint32_t stop_src, uint32_t stop_op)
{
    wr(NV40_PC_PRE_SRC(dom), pre_src);
    wr(NV40_PC_PRE_OP(dom), pre_op);
    wr(NV40_PC_START_SRC(dom), start_src);
    wr(NV40_PC_START_OP(dom), start_op);
    wr(NV40_PC_EVENT_SRC(dom), event_src);
    wr(NV40_PC_EVENT_OP(dom), event_op);
    wr(NV40_PC_STOP_SRC(dom), stop_src);
    wr(NV40_PC_STOP_OP(dom), stop_op);
    wr(NV40_PC_CTRL(dom), NV_PC_MODE_QUAD);
}

/* The visible counters of a quad window and CTRL. */
static void quad_read(const char *label, int dom)
{
    rd(label, NV40_PC_CTR_CYCLES(dom));
    rd(label, NV40_PC_CTR_CYCLES_ALT(dom));
    rd(label, NV40_PC_CTR_PRE(dom));
    rd(label, NV40_PC_CTR_START(dom));
    rd(label, NV40_PC_CTR_EVENT(dom));
    rd(label, NV40_PC_CTR_STOP(dom));
    rd(label, NV40_PC_CTRL(dom));
}

static void ack(int dom)
{
    wr(NV40_PC_QUAD_ACK_TRIGGER(dom), 1);
}

/* Swap by PM_TRIGGER; the window that ends, of domains 0 and 1. */
static void close_window(void)
{
    wr(NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
    wait_state("close", 0, NV_PC_QUAD_VALID);
    wait_state("close", 1, NV_PC_QUAD_VALID);
    quad_read("window", 0);
    quad_read("window", 1);
    ack(0);
    ack(1);
}

/*
 * nouveau's nv40 perfmon: domain 0 counts EVENT = SYNTH1 against clocks;
 * domain 1 logic ops over SYNTH1 and SYNTH2.  The states of the first
 * swap, then a window of two PM_TRIGGER pulses ~2 ms apart, with PTIMER
 * read around it.
 */
static void test_quad_trigger(void)
{
    uint32_t s12 = SRC4(SYN(1), SYN(2), 0, 0);

    printf("step quad\n");
    quad_program(0, 0, OP_TRUE, SRC4(ONE, 0, 0, 0), OP_ARG0,
                 SRC4(SYN(1), 0, 0, 0), OP_ARG0, 0, 0);
    quad_program(1, s12, OP_OR01, s12, OP_ARG0, s12, OP_ARG1, s12, OP_AND01);
    /* What an earlier run left (or the PRE_OP writes swapped): to EMPTY. */
    for (int i = 0; i < 2; i++) {
        ack(0);
        ack(1);
    }
    rd("setup", NV40_PC_CTRL(0));
    /* First swap: what ran since setup becomes visible; acknowledge it. */
    wr(NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
    wait_state("trigger", 0, NV_PC_QUAD_VALID);
    wait_state("trigger", 1, NV_PC_QUAD_VALID);
    ack(0);
    ack(1);
    rd("ack", NV40_PC_CTRL(0));
    rd("ack", NV40_PC_CTRL(1));

    /* The measured window. */
    rd("t0", NV_PTIMER_TIME_LOW);
    wr(NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
    wait_state("open", 0, NV_PC_QUAD_VALID);
    ack(0);
    ack(1);
    usleep(2000);
    rd("t1", NV_PTIMER_TIME_LOW);
    close_window();
}

/* Domain 2 swapped by its PERIODIC generator, no MMIO for 1 ms between. */
static void test_quad_periodic(void)
{
    int dom = 2;

    printf("step quad-periodic\n");
    quad_program(dom, 0, OP_TRUE, SRC4(ONE, 0, 0, 0), OP_ARG0,
                 SRC4(SYN(1), 0, 0, 0), OP_ARG0, 0, 0);
    wr(NV40_PC_SPEC_SRC(dom), NV_SIG_PERIODIC);
    /* PERIODIC_PERIOD 1: a pulse, so a swap, every 0x400 cycles. */
    wr(NV40_PC_CTRL(dom),
       GPU_FIELD_DP32(NV_PC_MODE_QUAD, NV40_PC_CTRL, PERIODIC, 1));
    rd("t0", NV_PTIMER_TIME_LOW);
    usleep(1000);
    rd("t1", NV_PTIMER_TIME_LOW);
    quad_read("window", dom);
    wr(NV40_PC_CTRL(dom), NV_PC_MODE_QUAD);     /* generator off */
}

/* ---- PTIMER_TIME_B12 and PGRAPH.WRCACHE_FLUSH --------------------------- */

#define TIME_B12    0x2c        /* G84 host domain (0): PTIMER TIME bit 12 */
#define OP_RISE     0x2222u     /* argument 0 and not argument 1 */

/*
 * envytools nvacounter's PTIMER_B12 sub-test: over a PM_TRIGGER window,
 * domain 0 counts the cycles TIME bit 12 is 1 (CTR_PRE) and its rises
 * (CTR_EVENT: the bit and itself one cycle late).  Domain 1 counts
 * WRCACHE_FLUSH in the same window: five flushes the way nouveau's
 * g84_bar_flush() does them (0x070000 = 1, poll bit 1 to 0).
 */
static void test_ptimer_flush(void)
{
    char label[16];

    printf("step ptimer-flush\n");
    quad_program(0, SRC4(TIME_B12, 0, 0, 0), OP_ARG0, 0, 0,
                 SRC4(TIME_B12, TIME_B12, 0, 0), OP_RISE | NV_PC_OP_DELAY1,
                 0, 0);
    quad_program(1, 0, 0, 0, 0, SRC4(NV_SIG_WRCACHE_FLUSH, 0, 0, 0), OP_ARG0,
                 0, 0);
    /* The PRE_OP writes swapped (quad mode from before): back to EMPTY. */
    for (int i = 0; i < 2; i++) {
        ack(0);
        ack(1);
    }
    wr(NV_PGRAPH_PM_CTRL, NV_PGRAPH_PM_TRIGGER);
    wait_state("open", 0, NV_PC_QUAD_VALID);
    ack(0);
    ack(1);
    for (int i = 0; i < 5; i++) {
        usleep(200);
        wr(NV_FLUSH, NV_FLUSH_TRIGGER);
        for (int n = 0; n < 1000 && (bar[NV_FLUSH / 4] & NV_FLUSH_BUSY); n++) {
            usleep(10);
        }
        snprintf(label, sizeof(label), "flush%d", i + 1);
        rd(label, NV_FLUSH);
    }
    usleep(1000);
    close_window();
}

/* ---- record mode -------------------------------------------------------- */

/*
 * Domain dom records into [bus, bus + span) (buf maps it): STOP = SYNTH0,
 * counter 0 = ONE, 1 = SYNTH1.  One packet slot is left free at the end,
 * past RECORD_LIMIT.  Waits (10 s at most) for the buffer to fill -- the
 * position past RECORD_LIMIT -- or a fault, then 1 ms more.
 */
static void test_record(const char *id, int dom, int is_long,
                        /* volatile: the device writes the buffer */
                        volatile uint8_t *buf, uint64_t bus, unsigned span)
{
    unsigned size = is_long ? NV_PC_RECORD_LONG_SIZE : NV_PC_RECORD_SHORT_SIZE;
    uint32_t start = bus, limit = start + span - 2 * size, status;
    uint64_t end = now_us() + 10000000;

    printf("step %s\n", id);
    fill(buf, bus, span);
    wr(NV40_PC_PRE_SRC(dom), SRC4(ONE, SYN(1), 0, 0));
    wr(NV40_PC_START_SRC(dom), 0);
    wr(NV40_PC_EVENT_SRC(dom), 0);
    wr(NV40_PC_STOP_SRC(dom), SRC4(SYN(0), 0, 0, 0));
    wr(NV40_PC_STOP_OP(dom), OP_ARG0);
    wr(NV40_PC_CTRL(dom),
       NV_PC_MODE_RECORD | (is_long ? 0 : NV_PC_CTRL_RECORD_SHORT));
    wr(NV40_PC_RECORD_LIMIT(dom), limit);
    wr(NV40_PC_RECORD_START(dom), start);
    /* Reading PCOUNTER flushes packets. */
    do {
        usleep(200);
        status = bar[NV40_PC_RECORD_STATUS(dom) / 4];
    } while ((status & NV_PC_RECORD_ADDR_MASK) <= limit &&
             !(status & NV_PC_RECORD_STATUS_FAULT) && now_us() < end);
    rd("filled", NV40_PC_RECORD_STATUS(dom));
    usleep(1000);
    rd("final", NV40_PC_RECORD_STATUS(dom));
    wr(NV40_PC_CTRL(dom), 0);
    dump(buf, bus, span);
}

/*
 * The record-fault drill on domain dom, which the host armed: its first
 * packet write fails as a DMA fault does.  Waits for the FAULT bit in
 * RECORD_STATUS (10 s at most), clears it with CTRL.FAULT_CLEAR, gives the
 * domain a new RECORD_START and reads the status 20 ms later: the domain
 * stays wedged until the GPU is reset (envytools docs/hw/pcounter/
 * intro.rst, "Record mode setup").  Domain dom + 1 then records.
 */
static void test_record_fault_drill(int dom, volatile uint8_t *buf,
                                    uint64_t bus)
{
    uint32_t start = bus, limit = start + 1024, status;
    uint64_t end = now_us() + 10000000;

    printf("step record-fault-drill\n");
    fill(buf, bus, 2048);
    wr(NV40_PC_PRE_SRC(dom), SRC4(ONE, SYN(1), 0, 0));
    wr(NV40_PC_STOP_SRC(dom), SRC4(SYN(0), 0, 0, 0));
    wr(NV40_PC_STOP_OP(dom), OP_ARG0);
    wr(NV40_PC_CTRL(dom), NV_PC_MODE_RECORD);
    wr(NV40_PC_RECORD_LIMIT(dom), limit);
    wr(NV40_PC_RECORD_START(dom), start);
    do {
        usleep(200);
        status = bar[NV40_PC_RECORD_STATUS(dom) / 4];
    } while (!(status & NV_PC_RECORD_STATUS_FAULT) &&
             (status & NV_PC_RECORD_ADDR_MASK) <= limit && now_us() < end);
    rd("fault", NV40_PC_RECORD_STATUS(dom));
    wr(NV40_PC_CTRL(dom), NV_PC_MODE_RECORD | NV_PC_CTRL_FAULT_CLEAR);
    rd("cleared", NV40_PC_RECORD_STATUS(dom));
    /* A new buffer: a wedged domain writes nothing (many STOPs later). */
    wr(NV40_PC_RECORD_START(dom), start);
    usleep(20000);
    rd("restarted", NV40_PC_RECORD_STATUS(dom));
    wr(NV40_PC_CTRL(dom), 0);
    dump(buf, bus, 2048);
    test_record("record-after-fault", dom + 1, 1, buf + 2048, bus + 2048,
                2048);
}

/* ---- channels ----------------------------------------------------------- */

/* The channels with a table entry or user-area pointers; reads only. */
static void read_channels(void)
{
    static const uint32_t user[] = {
        NV_USER_PUT, NV_USER_GET, NV_USER_IB_GET, NV_USER_IB_PUT,
    };

    printf("step channels\n");
    for (unsigned chid = 0; chid < NV_PFIFO_CHANS; chid++) {
        uint32_t base = NV_USER_BASE + chid * NV_USER_STRIDE;
        uint32_t any = bar[NV_PFIFO_CHAN(chid) / 4];

        for (unsigned i = 0; i < sizeof(user) / sizeof(user[0]); i++) {
            any |= bar[(base + user[i]) / 4];
        }
        if (!any) {
            continue;
        }
        rd("chan", NV_PFIFO_CHAN(chid));
        for (unsigned i = 0; i < sizeof(user) / sizeof(user[0]); i++) {
            rd("user", base + user[i]);
        }
    }
}

/* ---- main --------------------------------------------------------------- */

int main(int argc, char **argv)
{
    const char *bdf = "0000:00:03.0";
    char path[192];
    struct stat st;
    volatile uint8_t *buf;              /* the record buffer: DMA memory */
    uint64_t pfn;
    int fd, drill = -1, channels = 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--bdf")) {
            bdf = argv[i + 1];
        } else if (!strcmp(argv[i], "--drill-record-fault")) {
            drill = atoi(argv[i + 1]);
        } else if (!strcmp(argv[i], "--channels")) {
            channels = atoi(argv[i + 1]);
        }
    }
    if (drill > 6) {
        printf("# --drill-record-fault: a domain 0-6 (the next one records "
               "after it)\n");
        return 2;
    }
    snprintf(devdir, sizeof(devdir), "/sys/bus/pci/devices/%s", bdf);

    /* BAR0 through sysfs, as envytools' nva_init does. */
    printf("step setup\n");
    if (!channels) {
        pci_setup();
    }
    snprintf(path, sizeof(path), "%s/resource0", devdir);
    fd = open(path, O_RDWR | O_SYNC);
    if (fd < 0 || fstat(fd, &st)) {
        printf("resource0 %s error %s\n", path, strerror(errno));
        return 1;
    }
    printf("resource0 %s 0x%jx\n", path, (uintmax_t)st.st_size);
    if (st.st_size != NV_GPU_BAR0_SIZE) {
        return 1;
    }
    bar = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (bar == MAP_FAILED) {
        printf("mmap error %s\n", strerror(errno));
        return 1;
    }
    printf("mmap ok\n");
    if (channels) {
        read_channels();
        return 0;
    }
    if (drill < 0) {
        rd("boot0", NV_PMC_BOOT_0);
        test_quad_trigger();
        test_quad_periodic();
        test_ptimer_flush();
    }

    /*
     * The record buffer: one locked anonymous page, its physical address
     * from /proc/self/pagemap (no IOMMU: bus address = guest physical).
     * compact_unevictable_allowed=0 keeps compaction off mlocked pages, and
     * the PFN is read again after the capture.
     */
    printf("step page\n");
    fd = open("/proc/sys/vm/compact_unevictable_allowed", O_WRONLY);
    if (fd >= 0) {
        if (write(fd, "0", 1) != 1) {
            printf("# cannot clear compact_unevictable_allowed\n");
        }
        close(fd);
    }
    buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (buf == MAP_FAILED || mlock((void *)buf, 4096)) {
        printf("page error cannot allocate and lock a page: %s\n",
               strerror(errno));
        return 1;
    }
    pfn = pfn_of((void *)buf);
    printf("pfn 0x%" PRIx64 "\n", pfn);
    /* RECORD_START is 32-bit. */
    if (!pfn || (pfn << 12) + 4096 > 1ull << 32) {
        return 1;
    }
    if (drill >= 0) {
        test_record_fault_drill(drill, buf, pfn << 12);
        return 0;
    }
    /* LONG packets in the first half, SHORT in the second. */
    test_record("record-long", 4, 1, buf, pfn << 12, 2048);
    test_record("record-short", 5, 0, buf + 2048, (pfn << 12) + 2048, 2048);
    printf("step page-after\n");
    printf("pfn 0x%" PRIx64 "\n", pfn_of((void *)buf));
    return 0;
}
