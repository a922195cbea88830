/*
 * GLES smoke programs of the Mesa tier (tests/mesa/README.md).  The same
 * binary runs in the guest on intel-gpu through Mesa's iris and on the
 * host through llvmpipe; scripts/run-mesa.sh compares the two outputs.
 * Each case draws into a 64x64 RGBA8 framebuffer object and writes what
 * glReadPixels() returns.
 *
 *   gl-smoke [--case NAME] [--out FILE] [--cases]
 *
 * Cases (table "cases" below; --cases prints their names):
 *
 * clear: the framebuffer cleared to red (exact; iris clears through
 *        BLORP, a fast clear of the CCS).
 * tri:   a triangle with a colour at each vertex, over a blue clear
 *        (interpolated: each channel within 1 of llvmpipe's).
 *
 * The output (FILE, default stdout), for each case run: a line "image
 * NAME W H tolerance T" (T: how far a channel of another renderer's
 * image may be from this one's), then H lines of W pixels in hex,
 * RRGGBBAA each, the bottom row first as GL reads them.  The renderer,
 * the GL version and errors go to stderr.
 * Exit status: 0 when every case ran, 1 when one failed, 2 on a usage
 * error.
 *
 * EGL on the surfaceless platform (EGL_MESA_platform_surfaceless) and
 * OpenGL ES 3.0: https://registry.khronos.org/EGL/ and
 * https://registry.khronos.org/OpenGL/.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIDE 64

typedef struct SmokeCase {
    const char *name;
    bool (*draw)(void);
    unsigned tolerance;         /* per channel, against another renderer */
} SmokeCase;

static bool gl_ok(const char *what)
{
    GLenum e = glGetError();

    if (e != GL_NO_ERROR) {
        fprintf(stderr, "gl-smoke: %s: GL error 0x%04x\n", what, e);
        return false;
    }
    return true;
}

static bool draw_clear(void)
{
    glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    return gl_ok("glClear");
}

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    GLint ok = 0;
    char log[1024];

    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        glGetShaderInfoLog(s, sizeof(log), NULL, log);
        fprintf(stderr, "gl-smoke: shader: %s\n", log);
        return 0;
    }
    return s;
}

static GLuint program(const char *vs_src, const char *fs_src)
{
    GLuint vs = shader(GL_VERTEX_SHADER, vs_src);
    GLuint fs = shader(GL_FRAGMENT_SHADER, fs_src);
    GLuint p;
    GLint ok = 0;

    if (!vs || !fs) {
        return 0;
    }
    p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glBindAttribLocation(p, 0, "pos");
    glBindAttribLocation(p, 1, "colour");
    glLinkProgram(p);
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "gl-smoke: the program does not link\n");
        return 0;
    }
    return p;
}

static bool draw_tri(void)
{
    static const char *vs =
        "#version 300 es\n"
        "in vec2 pos;\n"
        "in vec4 colour;\n"
        "out vec4 v_colour;\n"
        "void main()\n"
        "{\n"
        "    v_colour = colour;\n"
        "    gl_Position = vec4(pos, 0.0, 1.0);\n"
        "}\n";
    static const char *fs =
        "#version 300 es\n"
        "precision mediump float;\n"
        "in vec4 v_colour;\n"
        "out vec4 frag;\n"
        "void main()\n"
        "{\n"
        "    frag = v_colour;\n"
        "}\n";
    static const GLfloat pos[] = { -0.75f, -0.75f, 0.75f, -0.5f, 0.0f, 0.8f };
    static const GLfloat colour[] = {
        1, 0, 0, 1,  0, 1, 0, 1,  0, 0, 1, 1,
    };
    GLuint p = program(vs, fs);

    if (!p) {
        return false;
    }
    glClearColor(0.0f, 0.0f, 0.5f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(p);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, colour);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    return gl_ok("glDrawArrays");
}

static const SmokeCase cases[] = {
    { "clear", draw_clear, 0 },
    { "tri", draw_tri, 1 },
};

/* A 64x64 RGBA8 framebuffer object, bound; the case draws into it. */
static bool run_case(const SmokeCase *c, FILE *out)
{
    static uint8_t px[SIDE * SIDE * 4];
    GLuint fbo, rb;

    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, SIDE, SIDE);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_RENDERBUFFER, rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "gl-smoke: %s: framebuffer incomplete\n", c->name);
        return false;
    }
    glViewport(0, 0, SIDE, SIDE);
    if (!c->draw()) {
        return false;
    }
    memset(px, 0, sizeof(px));
    glReadPixels(0, 0, SIDE, SIDE, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (!gl_ok("glReadPixels")) {
        return false;
    }
    fprintf(out, "image %s %d %d tolerance %u\n", c->name, SIDE, SIDE,
            c->tolerance);
    for (unsigned y = 0; y < SIDE; y++) {
        for (unsigned x = 0; x < SIDE; x++) {
            const uint8_t *p = px + (y * SIDE + x) * 4;

            fprintf(out, "%02x%02x%02x%02x%s", p[0], p[1], p[2], p[3],
                    x + 1 < SIDE ? " " : "\n");
        }
    }
    glDeleteRenderbuffers(1, &rb);
    glDeleteFramebuffers(1, &fbo);
    return true;
}

/* EGL on the surfaceless platform, a GLES 3.0 context made current. */
static bool egl_start(void)
{
    static const EGLint ctx_attr[] = {
        EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE,
    };
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)
        eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLDisplay dpy;
    EGLContext ctx;

    if (!get_display) {
        fprintf(stderr, "gl-smoke: no eglGetPlatformDisplayEXT\n");
        return false;
    }
    dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        fprintf(stderr, "gl-smoke: no surfaceless EGL display (0x%x)\n",
                eglGetError());
        return false;
    }
    if (!eglBindAPI(EGL_OPENGL_ES_API)) {
        fprintf(stderr, "gl-smoke: no OpenGL ES\n");
        return false;
    }
    ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT ||
        !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        fprintf(stderr, "gl-smoke: no GLES 3.0 context (0x%x)\n",
                eglGetError());
        return false;
    }
    fprintf(stderr, "gl-smoke: %s, %s\n",
            (const char *)glGetString(GL_RENDERER),
            (const char *)glGetString(GL_VERSION));
    return true;
}

int main(int argc, char **argv)
{
    const char *only = NULL, *out_path = NULL;
    size_t n = sizeof(cases) / sizeof(cases[0]);
    bool ok = true, found = false;
    FILE *out = stdout;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cases")) {
            for (size_t k = 0; k < n; k++) {
                printf("%s%s", k ? "," : "", cases[k].name);
            }
            printf("\n");
            return 0;
        } else if (!strcmp(argv[i], "--case") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out_path = argv[++i];
        } else {
            fprintf(stderr, "usage: gl-smoke [--case NAME] [--out FILE] "
                    "[--cases]\n");
            return 2;
        }
    }
    for (size_t k = 0; k < n; k++) {
        found |= !only || !strcmp(only, cases[k].name);
    }
    if (!found) {
        fprintf(stderr, "gl-smoke: no case %s\n", only);
        return 2;
    }
    if (!egl_start()) {
        return 1;
    }
    if (out_path) {
        out = fopen(out_path, "w");
        if (!out) {
            perror(out_path);
            return 1;
        }
    }
    for (size_t k = 0; k < n; k++) {
        if (only && strcmp(only, cases[k].name)) {
            continue;
        }
        if (!run_case(&cases[k], out)) {
            fprintf(stderr, "gl-smoke: %s failed\n", cases[k].name);
            ok = false;
        }
    }
    if (fclose(out)) {
        perror(out_path ? out_path : "stdout");
        ok = false;
    }
    return ok ? 0 : 1;
}
