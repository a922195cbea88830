/*
 * OpenCL integer kernels of the compute tier (tests/compute/README.md).
 * The same binary runs in the guest on intel-gpu (Intel's NEO runtime,
 * which compiles the kernels with IGC for the Gen11 EUs) and on the host
 * with PoCL; scripts/run-compute.sh compares the two outputs byte for
 * byte.
 *
 *   vadd [--kernel vadd|psum] [--local N] [--out FILE] [--list]
 *
 * vadd: c[i] = a[i] + b[i] over 1024 ints, one work-item each.
 * psum: 64 work-items, each adding 16 consecutive ints with a
 *       data-dependent branch (odd values added, even ones halved and
 *       subtracted): a reduction without barriers, with a loop.
 *
 * The results go to FILE (default stdout): a line "kernel NAME n N", then
 * one value a line.  The platform and device that ran them, the build log
 * and any error go to stderr.  --local N sets the work-group size
 * (default: the runtime's choice).  --list prints every platform and
 * device.
 * Exit status: 0 when the kernel ran and every value equals the one
 * computed here on the CPU, 1 when some differ (the output is written
 * all the same), 2 on an OpenCL or usage error.
 *
 * OpenCL 1.2 API only (clCreateCommandQueue), which NEO and PoCL both
 * have (the API specification: https://registry.khronos.org/OpenCL/).
 */
#define CL_TARGET_OPENCL_VERSION 120

#include <CL/cl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1024
#define PSUM_ITEMS 64
#define PSUM_CHUNK (N / PSUM_ITEMS)

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
    "}\n";

/* Inputs: both signs, odd and even, no overflow in the sums. */
static void fill(int32_t *a, int32_t *b)
{
    for (int i = 0; i < N; i++) {
        a[i] = (int32_t)((uint32_t)i * 2654435761u >> 8) - 8000000;
        b[i] = 3 * i - 1000;
    }
}

/* What each kernel must produce; returns the number of values. */
static int reference(const char *kernel, const int32_t *a, const int32_t *b,
                     int32_t *c)
{
    if (!strcmp(kernel, "vadd")) {
        for (int i = 0; i < N; i++) {
            c[i] = a[i] + b[i];
        }
        return N;
    }
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

static int cl_fail(const char *what, cl_int err)
{
    fprintf(stderr, "vadd: %s failed: %d\n", what, err);
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
    fprintf(stderr, "vadd: no OpenCL device (%u platforms)\n", np);
    return 2;
}

/*
 * Build the kernels, run @kernel_name over @n work-items (work-groups of
 * @local, or the runtime's choice when 0) on the first device, and read
 * its n results into @c.  0, or 2 on an OpenCL error (said on stderr).
 */
static int run(const char *kernel_name, int n, size_t local,
               const int32_t *a, const int32_t *b, int32_t *c)
{
    cl_platform_id plat;
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    cl_mem ba, bb, bc;
    cl_int err;
    char name[256] = "", pname[256] = "", blog[4096] = "";
    size_t global = n;

    if (pick_device(&plat, &dev)) {
        return 2;
    }
    clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof(pname), pname, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL);
    fprintf(stderr, "vadd: kernel %s on \"%s\" (platform \"%s\")\n",
            kernel_name, name, pname);

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
        fprintf(stderr, "vadd: build log: %s\n", blog);
    }
    if (err != CL_SUCCESS) {
        return cl_fail("clBuildProgram", err);
    }
    fprintf(stderr, "vadd: built\n");
    k = clCreateKernel(prog, kernel_name, &err);
    if (!k) {
        return cl_fail("clCreateKernel", err);
    }
    ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                        N * sizeof(a[0]), (void *)a, &err);
    if (!ba) {
        return cl_fail("clCreateBuffer a", err);
    }
    bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                        N * sizeof(b[0]), (void *)b, &err);
    if (!bb) {
        return cl_fail("clCreateBuffer b", err);
    }
    /* c starts as a pattern no kernel writes, to tell unwritten values. */
    memset(c, 0x5a, N * sizeof(c[0]));
    bc = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        N * sizeof(c[0]), c, &err);
    if (!bc) {
        return cl_fail("clCreateBuffer c", err);
    }
    clSetKernelArg(k, 0, sizeof(ba), &ba);
    clSetKernelArg(k, 1, sizeof(bb), &bb);
    clSetKernelArg(k, 2, sizeof(bc), &bc);
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global,
                                 local ? &local : NULL, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        return cl_fail("clEnqueueNDRangeKernel", err);
    }
    err = clEnqueueReadBuffer(q, bc, CL_TRUE, 0, n * sizeof(c[0]), c, 0,
                              NULL, NULL);
    if (err != CL_SUCCESS) {
        return cl_fail("clEnqueueReadBuffer", err);
    }
    err = clFinish(q);
    if (err != CL_SUCCESS) {
        return cl_fail("clFinish", err);
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

/*
 * Write the results to @out_path (stdout when NULL) and say on stderr how
 * many differ from @want: 0 when none does, 1 when some do, 2 when the
 * file cannot be written.
 */
static int report(const char *kernel_name, int n, const int32_t *c,
                  const int32_t *want, const char *out_path)
{
    FILE *out = stdout;
    int bad = 0;

    if (out_path) {
        out = fopen(out_path, "w");
        if (!out) {
            perror(out_path);
            return 2;
        }
    }
    fprintf(out, "kernel %s n %d\n", kernel_name, n);
    for (int i = 0; i < n; i++) {
        fprintf(out, "%" PRId32 "\n", c[i]);
        if (c[i] != want[i]) {
            if (bad < 8) {
                fprintf(stderr, "vadd: [%d] = %" PRId32 ", want %" PRId32
                        "\n", i, c[i], want[i]);
            }
            bad++;
        }
    }
    if (out != stdout) {
        fclose(out);
    }
    fprintf(stderr, "vadd: %d of %d values differ from the CPU's\n", bad, n);
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *kernel_name = "vadd";
    const char *out_path = NULL;
    static int32_t a[N], b[N], c[N], want[N];
    size_t local = 0;
    int n, r;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
            kernel_name = argv[++i];
        } else if (!strcmp(argv[i], "--local") && i + 1 < argc) {
            local = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out_path = argv[++i];
        } else if (!strcmp(argv[i], "--list")) {
            return list_devices();
        } else {
            fprintf(stderr, "usage: vadd [--kernel vadd|psum] [--local N]"
                    " [--out FILE] [--list]\n");
            return 2;
        }
    }
    if (strcmp(kernel_name, "vadd") && strcmp(kernel_name, "psum")) {
        fprintf(stderr, "vadd: unknown kernel %s (vadd, psum)\n",
                kernel_name);
        return 2;
    }

    fill(a, b);
    n = reference(kernel_name, a, b, want);
    r = run(kernel_name, n, local, a, b, c);
    if (r) {
        return r;
    }
    return report(kernel_name, n, c, want, out_path);
}
