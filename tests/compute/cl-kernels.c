/*
 * OpenCL kernels of the compute tier (tests/compute/README.md).  The same
 * binary runs in the guest on intel-gpu (Intel's NEO runtime, which
 * compiles the kernels with IGC for the Gen11 EUs) and on the host with
 * PoCL; scripts/run-compute.sh compares the two outputs byte for byte.
 *
 *   cl-kernels [--kernel NAME] [--local N] [--out FILE] [--list]
 *   cl-kernels --kernels
 *
 * The kernels (table "kernels" below; --kernels prints their names):
 *
 * vadd:  c[i] = a[i] + b[i] over 1024 ints, one work-item each.
 * psum:  64 work-items, each adding 16 consecutive ints with a
 *        data-dependent branch: a reduction without barriers, with a loop.
 * lsum:  work-groups of 64 sum their a[i] in shared local memory, a tree
 *        of barriers; one sum a group.
 * ghist: atomics on global memory: a 64-bin histogram of a[i] (inc), and
 *        add, min, max, or, and, xor, cmpxchg over the inputs.
 * lhist: the histogram again in shared local memory (local atomics
 *        between barriers), each group's bins added to global memory.
 * spill: each work-item fills a private array of 256 ints and reads it
 *        back at data-dependent indices: private memory (IGC: a buffer
 *        the runtime allocates, stateless messages).
 * image: a 32x32 image of ints read with and without a sampler (clamp to
 *        edge, nearest) and written transposed into a second image.
 *
 * The results go to FILE (default stdout): a line "kernel NAME n N", then
 * one value a line.  The platform and device that ran them, the build log
 * and any error go to stderr.  --local N sets the work-group size of the
 * kernels that leave it to the runtime.  --list prints every platform and
 * device.
 * Exit status: 0 when the kernel ran and every value equals the one
 * computed here on the CPU, 1 when some differ (the output is written
 * all the same), 2 on an OpenCL or usage error.
 *
 * OpenCL 1.2 API only (clCreateCommandQueue, clCreateImage), which NEO and
 * PoCL both have (the API specification:
 * https://registry.khronos.org/OpenCL/).
 */
#define CL_TARGET_OPENCL_VERSION 120

#include <CL/cl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compute-io.h"

#define PSUM_ITEMS 64
#define PSUM_CHUNK (N / PSUM_ITEMS)
#define GROUP 64                /* lsum's and lhist's work-group size */
#define BINS 64
#define SPILL_ITEMS 256
#define SPILL_LEN 256
#define IMAGE_SIDE 32           /* IMAGE_SIDE * IMAGE_SIDE == N */

static const char *source =
    "__kernel void vadd(__global const int *a, __global const int *b,\n"
    "                   __global int *c)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n"
    "\n"
    "__kernel void psum(__global const int *a, __global const int *b,\n"
    "                   __global int *c)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int s = 0;\n"
    "    for (int j = 0; j < 16; j++) {\n"
    "        int v = a[i * 16 + j];\n"
    "        if (v & 1) {\n"
    "            s += v;\n"
    "        } else {\n"
    "            s -= v >> 1;\n"
    "        }\n"
    "    }\n"
    "    c[i] = s;\n"
    "}\n"
    "\n"
    "__kernel void lsum(__global const int *a, __global const int *b,\n"
    "                   __global int *c)\n"
    "{\n"
    "    __local int s[64];\n"
    "    size_t l = get_local_id(0);\n"
    "    s[l] = a[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t w = get_local_size(0) / 2; w > 0; w /= 2) {\n"
    "        if (l < w) {\n"
    "            s[l] += s[l + w];\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) {\n"
    "        c[get_group_id(0)] = s[0];\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel void ghist(__global const int *a, __global const int *b,\n"
    "                    __global int *c)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    int v = a[i];\n"
    "    atomic_inc(&c[v & 63]);\n"
    "    atomic_add(&c[64], b[i]);\n"
    "    atomic_min(&c[65], v);\n"
    "    atomic_max(&c[66], v);\n"
    "    atomic_or(&c[67], 1 << (v & 31));\n"
    "    atomic_and(&c[68], ~(1 << ((v >> 5) & 31)));\n"
    "    atomic_xor(&c[69], v);\n"
    "    atomic_sub(&c[70], b[i]);\n"
    "    atomic_dec(&c[71]);\n"
    "    /* An add made of compare-exchanges: one lane wins each round. */\n"
    "    for (int k = 0, old = c[72]; k < 4096; k++) {\n"
    "        int was = atomic_cmpxchg(&c[72], old, old + (v & 0xffff));\n"
    "        if (was == old) {\n"
    "            break;\n"
    "        }\n"
    "        old = was;\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel void lhist(__global const int *a, __global const int *b,\n"
    "                    __global int *c)\n"
    "{\n"
    "    __local int h[64];\n"
    "    __local int m;\n"
    "    size_t l = get_local_id(0);\n"
    "    int v = a[get_global_id(0)];\n"
    "    h[l] = 0;\n"
    "    if (l == 0) {\n"
    "        m = v;\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_inc(&h[(v >> 4) & 63]);\n"
    "    atomic_max(&m, v);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_add(&c[l], h[l]);\n"
    "    if (l == 0) {\n"
    "        c[64 + get_group_id(0)] = m;\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel void spill(__global const int *a, __global const int *b,\n"
    "                    __global int *c)\n"
    "{\n"
    "    int p[256];\n"
    "    int i = get_global_id(0);\n"
    "    uint s = 0;\n"
    "    for (int j = 0; j < 256; j++) {\n"
    "        p[j] = a[(i * 7 + j * 3) & 1023] ^ j;\n"
    "    }\n"
    "    for (int j = 0; j < 256; j++) {\n"
    "        int k = (p[j] + i) & 255;\n"
    "        p[k] += j;\n"
    "        s = s * 31 + (uint)p[(k * 5 + 1) & 255];\n"
    "    }\n"
    "    c[i] = (int)s;\n"
    "}\n"
    "\n"
    "__constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE |\n"
    "    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "\n"
    "__kernel void image(__read_only image2d_t in, __global const int *b,\n"
    "                    __write_only image2d_t out)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    int v = read_imagei(in, (int2)(x, y)).x;\n"
    "    int e = read_imagei(in, edge, (int2)(x + 3, y - 2)).x;\n"
    "    write_imagei(out, (int2)(y, x), (int4)(v * 2 + e, 0, 0, 1));\n"
    "}\n";

/* What the kernels compute, on the CPU; each returns its values' number. */

static int ref_vadd(const int32_t *a, const int32_t *b, int32_t *c, int n)
{
    for (int i = 0; i < n; i++) {
        c[i] = a[i] + b[i];
    }
    return n;
}

static int ref_psum(const int32_t *a, const int32_t *b, int32_t *c, int n)
{
    for (int i = 0; i < PSUM_ITEMS; i++) {
        int32_t s = 0;
        for (int j = 0; j < PSUM_CHUNK; j++) {
            int32_t v = a[i * PSUM_CHUNK + j];
            s += (v & 1) ? v : -(v >> 1);
        }
        c[i] = s;
    }
    return PSUM_ITEMS;
}

static int ref_lsum(const int32_t *a, const int32_t *b, int32_t *c, int n)
{
    for (int g = 0; g < n / GROUP; g++) {
        int32_t s = 0;
        for (int l = 0; l < GROUP; l++) {
            s += a[g * GROUP + l];
        }
        c[g] = s;
    }
    return n / GROUP;
}

/* ghist's starting values: counters at 0, min and max at the extremes. */
static void init_ghist(int32_t *c)
{
    memset(c, 0, N * sizeof(c[0]));
    c[65] = INT32_MAX;
    c[66] = INT32_MIN;
    c[68] = -1;
}

static int ref_ghist(const int32_t *a, const int32_t *b, int32_t *c, int n)
{
    init_ghist(c);
    for (int i = 0; i < N; i++) {
        int32_t v = a[i];
        c[v & 63]++;
        c[64] += b[i];
        c[65] = v < c[65] ? v : c[65];
        c[66] = v > c[66] ? v : c[66];
        c[67] |= 1u << (v & 31);
        c[68] &= ~(1u << ((v >> 5) & 31));
        c[69] ^= v;
        c[70] -= b[i];
        c[71]--;
        c[72] += v & 0xffff;
    }
    return 73;
}

static void init_zero(int32_t *c)
{
    memset(c, 0, N * sizeof(c[0]));
}

static int ref_lhist(const int32_t *a, const int32_t *b, int32_t *c, int n)
{
    init_zero(c);
    for (int g = 0; g < N / GROUP; g++) {
        int32_t m = INT32_MIN;
        for (int l = 0; l < GROUP; l++) {
            int32_t v = a[g * GROUP + l];
            c[(v >> 4) & 63]++;
            m = v > m ? v : m;
        }
        c[BINS + g] = m;
    }
    return BINS + N / GROUP;
}

static int ref_spill(const int32_t *a, const int32_t *b, int32_t *c, int n)
{
    for (int i = 0; i < SPILL_ITEMS; i++) {
        int32_t p[SPILL_LEN];
        uint32_t s = 0;

        for (int j = 0; j < SPILL_LEN; j++) {
            p[j] = a[(i * 7 + j * 3) & (N - 1)] ^ j;
        }
        for (int j = 0; j < SPILL_LEN; j++) {
            int k = (p[j] + i) & 255;
            p[k] += j;
            s = s * 31 + (uint32_t)p[(k * 5 + 1) & 255];
        }
        c[i] = (int32_t)s;
    }
    return SPILL_ITEMS;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int ref_image(const int32_t *a, const int32_t *b, int32_t *c, int n)
{
    for (int y = 0; y < IMAGE_SIDE; y++) {
        for (int x = 0; x < IMAGE_SIDE; x++) {
            int ex = clampi(x + 3, 0, IMAGE_SIDE - 1);
            int ey = clampi(y - 2, 0, IMAGE_SIDE - 1);
            int32_t v = a[y * IMAGE_SIDE + x];
            int32_t e = a[ey * IMAGE_SIDE + ex];

            c[x * IMAGE_SIDE + y] = v * 2 + e;
        }
    }
    return N;
}

typedef struct Kernel {
    const char *name;
    size_t global[2];           /* work-items in x and y (y 0: 1-D) */
    size_t local;               /* work-group size in x, 0: the runtime's */
    /* The values for @n inputs (N unless the kernel is scalable). */
    int (*reference)(const int32_t *a, const int32_t *b, int32_t *c, int n);
    void (*init)(int32_t *c);   /* c's starting values, NULL: a pattern */
    bool image;                 /* a and c are 2-D images, not buffers */
    bool scalable;              /* --size sets its inputs and work-items */
} Kernel;

static const Kernel kernels[] = {
    { "vadd",  { N },           0,     ref_vadd, .scalable = true },
    { "psum",  { PSUM_ITEMS },  0,     ref_psum },
    { "lsum",  { N },           GROUP, ref_lsum, .scalable = true },
    { "ghist", { N },           0,     ref_ghist, init_ghist },
    { "lhist", { N },           GROUP, ref_lhist, init_zero },
    { "spill", { SPILL_ITEMS }, 0,     ref_spill },
    { "image", { IMAGE_SIDE, IMAGE_SIDE }, 0, ref_image, NULL, true },
};

static int cl_fail(const char *what, cl_int err)
{
    fprintf(stderr, "cl-kernels: %s failed: %d\n", what, err);
    return 2;
}

/* The first 8 platforms in @plats, their number in @np; 0, or 2. */
static int platforms(cl_platform_id plats[8], cl_uint *np)
{
    cl_int err = clGetPlatformIDs(8, plats, np);

    if (err != CL_SUCCESS) {
        return cl_fail("clGetPlatformIDs", err);
    }
    if (*np > 8) {
        *np = 8;
    }
    return 0;
}

static int list_devices(void)
{
    cl_platform_id plats[8];
    cl_uint np = 0;

    if (platforms(plats, &np)) {
        return 2;
    }
    for (cl_uint p = 0; p < np; p++) {
        char name[256] = "";
        cl_device_id devs[8];
        cl_uint nd = 0;

        clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof(name), name,
                          NULL);
        printf("platform %u: %s\n", p, name);
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 8, devs, &nd)
            != CL_SUCCESS) {
            continue;
        }
        for (cl_uint d = 0; d < nd && d < 8; d++) {
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof(name), name,
                            NULL);
            printf("  device %u: %s\n", d, name);
        }
    }
    return 0;
}

/* The first device of the first platform that has one. */
static int pick_device(cl_platform_id *plat, cl_device_id *dev)
{
    cl_platform_id plats[8];
    cl_uint np = 0;

    if (platforms(plats, &np)) {
        return 2;
    }
    for (cl_uint p = 0; p < np; p++) {
        cl_uint nd = 0;

        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 1, dev, &nd)
            == CL_SUCCESS && nd > 0) {
            *plat = plats[p];
            return 0;
        }
    }
    fprintf(stderr, "cl-kernels: no OpenCL device (%u platforms)\n", np);
    return 2;
}

/* A buffer of @n ints, or an IMAGE_SIDE-square image of N. */
static cl_mem make_mem(cl_context ctx, bool image, cl_mem_flags flags,
                       void *data, size_t n, cl_int *err)
{
    static const cl_image_format fmt = { CL_R, CL_SIGNED_INT32 };
    cl_image_desc desc = {
        .image_type = CL_MEM_OBJECT_IMAGE2D,
        .image_width = IMAGE_SIDE,
        .image_height = IMAGE_SIDE,
    };

    if (image) {
        return clCreateImage(ctx, flags | CL_MEM_COPY_HOST_PTR, &fmt, &desc,
                             data, err);
    }
    return clCreateBuffer(ctx, flags | CL_MEM_COPY_HOST_PTR,
                          n * sizeof(int32_t), data, err);
}

/*
 * Build the kernels, run @kern on the first device over @items inputs
 * (work-groups of @local where the kernel leaves it to the runtime, which
 * chooses when it is 0), and read its @n results into @c.  Says on
 * stderr how long the kernel ran, from its enqueue to clFinish().  0, or
 * 2 on an OpenCL error (said on stderr).
 */
static int run(const Kernel *kern, size_t items, int n, size_t local,
               const int32_t *a, const int32_t *b, int32_t *c)
{
    size_t global[2] = { kern->global[0], kern->global[1] };
    struct timespec t0, t1;
    static const size_t origin[3], region[3] = { IMAGE_SIDE, IMAGE_SIDE, 1 };
    cl_platform_id plat;
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    cl_mem ba, bb, bc;
    cl_int err;
    char name[256] = "", pname[256] = "", blog[4096] = "";
    cl_uint dims = kern->global[1] ? 2 : 1;
    size_t lsize = kern->local ? kern->local : local;

    if (pick_device(&plat, &dev)) {
        return 2;
    }
    clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof(pname), pname, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL);
    fprintf(stderr, "cl-kernels: kernel %s on \"%s\" (platform \"%s\")\n",
            kern->name, name, pname);

    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (!ctx) {
        return cl_fail("clCreateContext", err);
    }
    q = clCreateCommandQueue(ctx, dev, 0, &err);
    if (!q) {
        return cl_fail("clCreateCommandQueue", err);
    }
    prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    if (!prog) {
        return cl_fail("clCreateProgramWithSource", err);
    }
    err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(blog),
                          blog, NULL);
    if (blog[0]) {
        fprintf(stderr, "cl-kernels: build log: %s\n", blog);
    }
    if (err != CL_SUCCESS) {
        return cl_fail("clBuildProgram", err);
    }
    fprintf(stderr, "cl-kernels: built\n");
    k = clCreateKernel(prog, kern->name, &err);
    if (!k) {
        return cl_fail("clCreateKernel", err);
    }
    if (kern->scalable) {
        global[0] = items;
    }
    ba = make_mem(ctx, kern->image, CL_MEM_READ_ONLY, (void *)a, items, &err);
    if (!ba) {
        return cl_fail("creating a", err);
    }
    bb = make_mem(ctx, false, CL_MEM_READ_ONLY, (void *)b, items, &err);
    if (!bb) {
        return cl_fail("creating b", err);
    }
    /* c starts as a pattern no kernel writes, to tell unwritten values. */
    memset(c, 0x5a, items * sizeof(c[0]));
    if (kern->init) {
        kern->init(c);
    }
    bc = make_mem(ctx, kern->image, CL_MEM_READ_WRITE, c, items, &err);
    if (!bc) {
        return cl_fail("creating c", err);
    }
    clSetKernelArg(k, 0, sizeof(ba), &ba);
    clSetKernelArg(k, 1, sizeof(bb), &bb);
    clSetKernelArg(k, 2, sizeof(bc), &bc);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    err = clEnqueueNDRangeKernel(q, k, dims, NULL, global,
                                 lsize && dims == 1 ? &lsize : NULL,
                                 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        return cl_fail("clEnqueueNDRangeKernel", err);
    }
    err = clFinish(q);
    if (err != CL_SUCCESS) {
        return cl_fail("clFinish", err);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fprintf(stderr, "cl-kernels: kernel ran in %.3f ms over %zu inputs\n",
            (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6,
            items);
    if (kern->image) {
        err = clEnqueueReadImage(q, bc, CL_TRUE, origin, region, 0, 0, c,
                                 0, NULL, NULL);
    } else {
        err = clEnqueueReadBuffer(q, bc, CL_TRUE, 0, n * sizeof(c[0]), c,
                                  0, NULL, NULL);
    }
    if (err != CL_SUCCESS) {
        return cl_fail("reading c", err);
    }
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bc);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}

static const Kernel *find_kernel(const char *name)
{
    for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
        if (!strcmp(kernels[i].name, name)) {
            return &kernels[i];
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *kernel_name = "vadd";
    const char *out_path = NULL;
    int32_t *a, *b, *c, *want;
    const Kernel *kern;
    size_t local = 0;
    long items = 0;
    int n, r;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
            kernel_name = argv[++i];
        } else if (!strcmp(argv[i], "--local") && i + 1 < argc) {
            local = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            items = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out_path = argv[++i];
        } else if (!strcmp(argv[i], "--list")) {
            return list_devices();
        } else if (!strcmp(argv[i], "--kernels")) {
            for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]);
                 k++) {
                printf("%s%s", k ? "," : "", kernels[k].name);
            }
            printf("\n");
            return 0;
        } else {
            fprintf(stderr, "usage: cl-kernels [--kernel NAME] [--local N]"
                    " [--size N] [--out FILE] [--list] | --kernels\n");
            return 2;
        }
    }
    kern = find_kernel(kernel_name);
    if (!kern) {
        fprintf(stderr, "cl-kernels: unknown kernel %s (--kernels lists"
                " them)\n", kernel_name);
        return 2;
    }

    if (items && (!kern->scalable || items < N || items % N ||
                  items > (1L << 26))) {
        fprintf(stderr, "cl-kernels: --size takes a multiple of %d up to"
                " 2^26, for vadd and lsum only\n", N);
        return 2;
    }
    items = items ? items : N;
    a = calloc(items, sizeof(*a));
    b = calloc(items, sizeof(*b));
    c = calloc(items, sizeof(*c));
    want = calloc(items, sizeof(*want));
    if (!a || !b || !c || !want) {
        fprintf(stderr, "cl-kernels: out of memory for %ld inputs\n", items);
        return 2;
    }
    fill(a, b, items);
    n = kern->reference(a, b, want, items);
    r = run(kern, items, n, local, a, b, c);
    if (!r) {
        r = compute_report("cl-kernels", kern->name, n, c, want, out_path);
    }
    free(a);
    free(b);
    free(c);
    free(want);
    return r;
}
