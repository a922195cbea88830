#!/bin/sh
# Build IGT GPU Tools 1.27.1 (the version Debian bookworm packages) with its
# tests and runner, for the IGT tier (`make igt`).  Debian ships IGT's tools
# but not its tests, so they are built here from the release source.
#
#   scripts/build-igt.sh
#
# Source, first found:
#   $IGT_TARBALL                       a release tarball of the IGT project
#                                      (igt-gpu-tools-1.27.1.tar.xz) or the
#                                      same tree with the patches below applied
#   ../shared/igt/igt-gpu-tools-1.27.1-patched.tar.xz  beside the project
#   build/igt/igt-gpu-tools-1.27.1.tar.xz
# tests/igt/patches/igt-libproc2.patch (upstream IGT commit e6d7ced5d, "Use
# the new procps library libproc2": bookworm has libproc2, not libprocps) is
# applied when the tree does not have it yet.
#
# Output: build/igt/stage/ (the tree `ninja install` writes with
# DESTDIR, prefix /usr, tests stripped), build/igt/key (the cache key).
#
# Cache: a build is keyed by the tarball, the patches and this script, and
# kept in $IGT_CACHE (default /var/cache/gpumodel/igt as root, else
# ~/.cache/gpumodel/igt), so a fresh clone on the same machine restores it
# in seconds; the build itself is about 1100 compile steps, under 2 minutes
# on 2 cores (ccache helps a rebuild on the same machine).  IGT_CACHE=
# (empty) turns the cache off.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build/igt
ver=1.27.1
meson=${MESON:-/usr/bin/meson}

log() { echo "build-igt: $*" >&2; }
die() { log "error: $*"; exit 1; }

if [ -z "${IGT_CACHE+set}" ]; then
    if [ "$(id -u)" = 0 ]; then
        IGT_CACHE=/var/cache/gpumodel/igt
    else
        IGT_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/gpumodel/igt
    fi
fi

tarball=
for t in ${IGT_TARBALL:-} "$top/../shared/igt/igt-gpu-tools-$ver-patched.tar.xz" \
    "$b/igt-gpu-tools-$ver.tar.xz"; do
    [ -f "$t" ] && { tarball=$t; break; }
done
[ -n "$tarball" ] || die "no IGT $ver source: set IGT_TARBALL to igt-gpu-tools-$ver.tar.xz (see tests/igt/README.md)"

mkdir -p "$b"
key=$( (sha256sum < "$tarball"; cat "$0" "$top"/tests/igt/patches/*.patch) |
    sha256sum | cut -c1-16)
if [ -f "$b/stage/.built" ] && [ "$(cat "$b/key" 2>/dev/null)" = "$key" ]; then
    log "up to date ($key)"
    exit 0
fi
if [ -n "$IGT_CACHE" ] && [ -f "$IGT_CACHE/$key.tar" ]; then
    log "restoring the build from $IGT_CACHE/$key.tar"
    rm -rf "$b/stage"
    mkdir -p "$b/stage"
    if tar -xf "$IGT_CACHE/$key.tar" -C "$b/stage" && [ -f "$b/stage/.built" ]; then
        echo "$key" > "$b/key"
        exit 0
    fi
    log "warning: the cached build is damaged; building again"
fi

# ---- build dependencies (Debian bookworm) ---------------------------------

pkgs="meson ninja-build pkg-config flex bison python3 libdrm-dev
libpciaccess-dev libkmod-dev libproc2-dev libunwind-dev libdw-dev libelf-dev
libpixman-1-dev libcairo2-dev libudev-dev libglib2.0-dev libjson-c-dev"
need=
for p in $pkgs; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" ||
        need="$need $p"
done
if [ -n "$need" ]; then
    [ "$(id -u)" = 0 ] || die "missing packages:$need; run as root"
    log "installing$need"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    # shellcheck disable=SC2086
    apt-get install -y -q --no-install-recommends $need
fi

# ---- source -------------------------------------------------------------

src=$b/src
rm -rf "$src" "$b/build" "$b/stage"
mkdir -p "$src"
tar -xf "$tarball" -C "$src" --strip-components=1
[ -f "$src/runner/runner.c" ] || die "$tarball is not an IGT source tree"
if ! grep -q "libproc2" "$src/meson.build"; then
    log "applying igt-libproc2.patch"
    patch -d "$src" -p1 -s < "$top/tests/igt/patches/igt-libproc2.patch"
fi

# ---- build ----------------------------------------------------------------

cc=gcc
command -v ccache > /dev/null && cc="ccache gcc"
export CCACHE_BASEDIR="$b" CCACHE_NOHASHDIR=1
# Only what the tier uses: the tests, the runner and libigt; no display
# backends, docs or man pages.  libdrm's nouveau too: IGT builds its
# prime_nv tests (i915 and nouveau sharing buffers) only with it.
# version_hash: the source is not an IGT git tree (without it, IGT would
# name the commit of the tree around it); NO-GIT is what a release
# tarball build says.
CC=$cc "$meson" setup "$b/build" "$src" -Dprefix=/usr -Dbuildtype=release \
    -Ddocs=disabled -Dman=disabled -Dtests=enabled -Drunner=enabled \
    -Doverlay=disabled -Dchamelium=disabled -Dvalgrind=disabled \
    -Dlibunwind=enabled -Doping=disabled -Dlibdrm_drivers=intel,nouveau \
    -Dversion_hash=NO-GIT > "$b/setup.log" 2>&1 ||
    { tail -n 20 "$b/setup.log" >&2; die "meson setup failed (build/igt/setup.log)"; }
log "building (about 1100 steps)"
ninja -C "$b/build" > "$b/build.log" 2>&1 ||
    { grep -B2 -A10 -m 3 'error' "$b/build.log" >&2; die "build failed (build/igt/build.log)"; }
DESTDIR=$b/stage ninja -C "$b/build" install > "$b/install.log" 2>&1 ||
    die "install failed (build/igt/install.log)"
# Debug info makes the tests ~3 times larger in the guest's memory.
find "$b/stage" -type f \( -perm -u+x -o -name '*.so*' \) -exec sh -c \
    'for f; do [ "$(head -c 4 "$f" | tail -c 3)" = ELF ] && strip --strip-debug "$f"; done; true' _ {} +
touch "$b/stage/.built"
echo "$key" > "$b/key"

if [ -n "$IGT_CACHE" ]; then
    mkdir -p "$IGT_CACHE"
    tar -cf "$IGT_CACHE/$key.tar.tmp" -C "$b/stage" . &&
        mv "$IGT_CACHE/$key.tar.tmp" "$IGT_CACHE/$key.tar"
    # Older builds go.
    find "$IGT_CACHE" -maxdepth 1 -name '*.tar' ! -name "$key.tar" -delete
    log "cached as $IGT_CACHE/$key.tar"
fi
log "done: $(find "$b/stage/usr/libexec/igt-gpu-tools" -maxdepth 1 -type f | wc -l) tests"
