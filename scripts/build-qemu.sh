#!/bin/sh
# Build qemu-system-x86_64 with gpumodel's devices, plus our qtests.
#   QEMU_SRC:     use this QEMU tree instead of unpacking Debian's package
#   QEMU_DEB_DIR: see scripts/fetch-qemu.sh
# Output: build/qemu/qemu-system-x86_64 and build/qemu/tests/qtest/*-test.
#
#   scripts/build-qemu.sh --fuzz
# builds the same with clang, --enable-fuzzing and ASan + UBSan in
# build/qemu-fuzz from the same source tree, plus qemu-fuzz-x86_64:
# QEMU's generic-fuzz targets (generic-fuzz-intel-gpu, -nv-gpu) run with
# the sanitizers, and so do the qtests against that qemu-system-x86_64.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# Every tests/qtest/*-test.c is a qtest program to build (the overlay puts
# each in QEMU's build, see scripts/apply-overlay.sh).
qtests=
for t in "$top"/tests/qtest/*-test.c; do
    [ -e "$t" ] && qtests="$qtests tests/qtest/$(basename "$t" .c)"
done
targets="qemu-system-x86_64$qtests"
if [ "${1:-}" = --fuzz ]; then
    bdir=$top/build/qemu-fuzz
    compiler=clang
    extra="--cxx=clang++ --enable-fuzzing --enable-asan --enable-ubsan"
    targets="$targets qemu-fuzz-x86_64"
else
    bdir=$top/build/qemu
    compiler=cc
    extra=
fi
if [ -n "${QEMU_SRC:-}" ]; then
    src=$(cd "$QEMU_SRC" && pwd)
else
    src=$top/build/qemu-src
    "$top/scripts/fetch-qemu.sh" "$src"
fi
"$top/scripts/apply-overlay.sh" "$src"

# A build directory belongs to one source tree.
if [ -f "$bdir/build.ninja" ] && [ "$(cat "$bdir/.gpumodel-src" 2>/dev/null)" != "$src" ]; then
    rm -rf "$bdir"
fi
if [ ! -f "$bdir/build.ninja" ]; then
    # QEMU names the compiler in its meson cross file, so meson would not
    # add ccache by itself.
    cc=$compiler
    command -v ccache > /dev/null && cc="ccache $compiler"
    mkdir -p "$bdir"
    # shellcheck disable=SC2086
    (cd "$bdir" && "$src/configure" --cc="$cc" $extra \
        --python=/usr/bin/python3 \
        --target-list=x86_64-softmmu \
        --without-default-features \
        --enable-tcg --enable-kvm --enable-fdt=system \
        --disable-docs --disable-install-blobs \
        --firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu)
    echo "$src" > "$bdir/.gpumodel-src"
fi

# Every CI run builds in a fresh clone: let ccache hit across directories.
export CCACHE_BASEDIR="$top" CCACHE_NOHASHDIR=1
# Meson first, so that ninja knows of tests added since the last build;
# then a qtest it does not know (its device left out of QEMU's Kconfig,
# or the overlay's table) is an error here rather than a test never run.
ninja -C "$bdir" build.ninja
for t in $qtests; do
    if ! ninja -C "$bdir" -t query "$t" > /dev/null 2>&1; then
        echo "build-qemu: QEMU's build has no target $t:" \
            "its device is not in the build (scripts/apply-overlay.sh)" >&2
        exit 1
    fi
done
# shellcheck disable=SC2086
ninja -C "$bdir" $targets

# The qtest tiers run the programs that tests/qtest/*-test.c names
# (tests/meson.build): drop those of tests since renamed or removed, so
# that none lingers here.
for t in "$bdir"/tests/qtest/*-test; do
    [ -f "$t" ] || continue
    case "$qtests " in
    *" tests/qtest/$(basename "$t") "*) ;;
    *) rm -f "$t" ;;
    esac
done

# A build-tree QEMU looks for firmware in its own bundle directory only, and
# Debian's source package ships none: point it at Debian's seabios and
# qemu-system-data files.
fw=$bdir/qemu-bundle/usr/local/share/qemu
mkdir -p "$fw"
for f in /usr/share/seabios/*.bin /usr/share/qemu/*.bin /usr/share/qemu/*.rom; do
    [ -e "$f" ] || continue
    [ -e "$fw/$(basename "$f")" ] || ln -sf "$f" "$fw/"
done
