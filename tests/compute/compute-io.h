/*
 * What the compute tier's programs share (tests/compute/README.md): their
 * inputs and the form of their output, which scripts/run-compute.sh
 * compares byte for byte with the reference's.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_COMPUTE_COMPUTE_IO_H
#define TESTS_COMPUTE_COMPUTE_IO_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#define N 1024
/* Outputs longer than this are written as a digest. */
#define REPORT_VALUES_MAX 4096

/* @n inputs: both signs, odd and even, no overflow in the sums. */
static inline void fill(int32_t *a, int32_t *b, int n)
{
    for (int i = 0; i < n; i++) {
        a[i] = (int32_t)((uint32_t)i * 2654435761u >> 8) - 8000000;
        b[i] = 3 * i - 1000;
    }
}

/*
 * Write @n results to @out_path (stdout when NULL): a line "kernel NAME
 * n N", then one value a line (more than REPORT_VALUES_MAX: a line
 * "fnv1a64 HASH" of them all, then the first 16); say on stderr, as
 * @prog, how many differ from @want.  0 when none does, 1 when some do, 2
 * when the file cannot be written.
 */
static inline int compute_report(const char *prog, const char *name, int n,
                                 const int32_t *c, const int32_t *want,
                                 const char *out_path)
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
    uint64_t hash = 0xcbf29ce484222325ull;

    fprintf(out, "kernel %s n %d\n", name, n);
    for (int i = 0; i < n; i++) {
        hash = (hash ^ (uint32_t)c[i]) * 0x100000001b3ull;
    }
    if (n > REPORT_VALUES_MAX) {
        fprintf(out, "fnv1a64 %016" PRIx64 "\n", hash);
    }
    for (int i = 0; i < n; i++) {
        if (n <= REPORT_VALUES_MAX || i < 16) {
            fprintf(out, "%" PRId32 "\n", c[i]);
        }
        if (c[i] != want[i]) {
            if (bad < 8) {
                fprintf(stderr, "%s: [%d] = %" PRId32 ", want %" PRId32
                        "\n", prog, i, c[i], want[i]);
            }
            bad++;
        }
    }
    if (out != stdout) {
        fclose(out);
    }
    fprintf(stderr, "%s: %d of %d values differ from the CPU's\n", prog,
            bad, n);
    return bad ? 1 : 0;
}

#endif
