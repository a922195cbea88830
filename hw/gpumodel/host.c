/*
 * gpumodel host interface helpers shared by the models.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <glib.h>
#include "host.h"

void gpu_host_log(const GpuHost *h, GpuLogKind kind, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    h->ops->log(h->opaque, kind, msg);
    g_free(msg);
}
