/*
 * intel-gpu GPGPU and media pipelines: their state across a context
 * switch and a migration.  The state commands' results and a walker
 * preempted between thread groups go into the render context image
 * (ctx-image.h) and come back from it; a migrated stream's values are
 * checked before the walkers index by them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include "gfx-int.h"

/* A dispatch in progress whose values the walkers can index by. */
static bool media_dispatch_ok(const IntelMediaDispatch *d)
{
    return (d->simd == 8 || d->simd == 16 || d->simd == 32) &&
           d->tw && d->tw <= 64 && d->th && d->th <= 64 && d->td &&
           d->td <= 64 && d->idd < INTEL_MEDIA_IDDS &&
           d->indirect_len <= INTEL_MEDIA_INDIRECT_MAX &&
           d->tid < d->tw * d->th * d->td;
}

/* A thread mid-run: its kernel is fetched again, it resumes where it was
 * (a wait is evaluated again). */
static void media_thread_loaded(EuThread *t)
{
    t->prog = NULL;
    t->code = NULL;
    t->code_size = 0;
    t->fault = NULL;
    t->status = EU_RUNNING;
}

/* A group with barriers mid-run, as the walkers can run it on. */
static bool media_group_ok(const IntelMediaState *m)
{
    const IntelMediaDispatch *d = &m->run;
    uint64_t mask;

    if (!m->group_n) {
        return true;
    }
    if (m->group_n < 0 || m->group_n > INTEL_MEDIA_GROUP_MAX || !m->group ||
        d->kind != INTEL_MEDIA_GPGPU_WALKER || !d->running ||
        (uint32_t)m->group_n != d->tw * d->th * d->td ||
        d->cur >= (uint32_t)m->group_n) {
        return false;
    }
    mask = m->group_n == 64 ? ~0ull : (1ull << m->group_n) - 1;
    return !(d->live & ~mask);
}

bool intel_media_post_load(IntelEngine *e, char **err)
{
    IntelMediaState *m = &e->gfx.media;
    IntelMediaDispatch *d = &m->run;

    if (m->idd_count > INTEL_MEDIA_IDDS ||
        m->curbe_len > INTEL_MEDIA_CURBE_MAX || d->kind > INTEL_MEDIA_OBJECT) {
        *err = g_strdup_printf("engine %u: media state", e->id);
        return false;
    }
    d->stuck = false;           /* found again if still so */
    if (d->kind == INTEL_MEDIA_IDLE) {
        d->running = false;
        m->group_n = 0;
        return true;
    }
    if (!media_dispatch_ok(d) || !media_group_ok(m) ||
        (d->kind == INTEL_MEDIA_OBJECT && !d->running)) {
        *err = g_strdup_printf("engine %u: media dispatch", e->id);
        return false;
    }
    media_thread_loaded(&d->thread);
    for (int32_t i = 0; i < m->group_n; i++) {
        media_thread_loaded(&m->group[i]);
    }
    return true;
}

/*
 * In a context image: the state commands' results, the CURBE bytes
 * loaded, and a walker preempted between thread groups (no thread runs
 * then: media_dispatch_run(); a MEDIA_OBJECT is not preempted).
 */
void intel_media_context_save(IntelEngine *e, IntelCtxImage *img)
{
    const IntelMediaState *m = &e->gfx.media;
    const IntelMediaDispatch *d = &m->run;
    IntelCtxImageMedia *p = &img->media;

    p->scratch[0] = m->scratch;
    p->scratch[1] = m->scratch >> 32;
    p->scratch_size = m->scratch_size;
    p->max_threads = m->max_threads;
    p->urb_entries = m->urb_entries;
    p->urb_entry_size = m->urb_entry_size;
    p->curbe_size = m->curbe_size;
    p->idd_count = m->idd_count;
    memcpy(p->idd, m->idd, sizeof(p->idd));
    p->run = (IntelCtxImageDispatch) {
        .kind = d->kind, .idd = d->idd, .simd = d->simd,
        .tw = d->tw, .th = d->th, .td = d->td,
        .x0 = d->x0, .xdim = d->xdim, .y0 = d->y0, .ydim = d->ydim,
        .zdim = d->zdim, .right_mask = d->right_mask,
        .bottom_mask = d->bottom_mask, .x = d->x, .y = d->y, .z = d->z,
        .tid = d->tid, .indirect_start = d->indirect_start,
        .indirect_len = d->indirect_len,
    };
    p->curbe_len = m->curbe_len;
    memcpy(img->curbe, m->curbe, m->curbe_len);
}

/* The saved state's values the pipeline indexes by, in range? */
static bool media_image_ok(const IntelCtxImage *img)
{
    const IntelCtxImageMedia *p = &img->media;
    const IntelCtxImageDispatch *r = &p->run;
    IntelMediaDispatch d = {
        .simd = r->simd, .tw = r->tw, .th = r->th, .td = r->td,
        .idd = r->idd, .tid = r->tid, .indirect_len = r->indirect_len,
    };

    return p->idd_count <= INTEL_MEDIA_IDDS &&
           img->hdr.length >= INTEL_CTX_IMAGE_FIXED &&
           p->curbe_len <= INTEL_MEDIA_CURBE_MAX &&
           p->curbe_len <= img->hdr.length - INTEL_CTX_IMAGE_FIXED &&
           (r->kind == INTEL_MEDIA_IDLE ||
            (r->kind == INTEL_MEDIA_GPGPU_WALKER && media_dispatch_ok(&d)));
}

void intel_media_context_restore(IntelEngine *e, const IntelCtxImage *img)
{
    IntelMediaState *m = &e->gfx.media;
    IntelMediaDispatch *d = &m->run;
    const IntelCtxImageMedia *p = img ? &img->media : NULL;
    uint32_t logged = m->unimp_logged;
    EuThread *group = m->group;

    memset(m, 0, sizeof(*m));
    m->unimp_logged = logged;
    m->group = group;
    if (!p) {
        return;
    }
    if (!media_image_ok(img)) {
        intel_gfx_context_bad(e, "media state");
        return;
    }
    m->scratch = (uint64_t)p->scratch[1] << 32 | p->scratch[0];
    m->scratch_size = p->scratch_size & 0xf;
    m->max_threads = p->max_threads;
    m->urb_entries = p->urb_entries;
    m->urb_entry_size = p->urb_entry_size;
    m->curbe_size = p->curbe_size;
    m->idd_count = p->idd_count;
    memcpy(m->idd, p->idd, sizeof(m->idd));
    m->curbe_len = p->curbe_len;
    memcpy(m->curbe, img->curbe, p->curbe_len);
    *d = (IntelMediaDispatch) {
        .kind = p->run.kind, .idd = p->run.idd, .simd = p->run.simd,
        .tw = p->run.tw, .th = p->run.th, .td = p->run.td,
        .x0 = p->run.x0, .xdim = p->run.xdim, .y0 = p->run.y0,
        .ydim = p->run.ydim, .zdim = p->run.zdim,
        .right_mask = p->run.right_mask, .bottom_mask = p->run.bottom_mask,
        .x = p->run.x, .y = p->run.y, .z = p->run.z, .tid = p->run.tid,
        .indirect_start = p->run.indirect_start,
        .indirect_len = p->run.indirect_len,
    };
}
