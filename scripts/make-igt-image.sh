#!/bin/sh
# Build the IGT overlay of the test guest: IGT 1.27.1's tests, runner and
# libraries (scripts/build-igt.sh), the shared libraries they need from
# Debian's packages, and the guest side of the IGT tier (tests/igt/), as a
# second initramfs that scripts/run-guest.sh --profile igt appends to the
# one of scripts/make-guest.sh (the kernel unpacks concatenated archives in
# order; a later file replaces an earlier one of the same path).
#
#   scripts/make-igt-image.sh
#
# Only the test binaries the lists in tests/igt/*.testlist name go in.
# Our libigt.so.0 replaces Debian's (the same IGT release) in
# /lib/x86_64-linux-gnu, so that the tools of the base image and the tests
# use one library.
#
# Output: build/guest/igt.cpio.gz, build/guest/igt-manifest,
# build/guest/igt-root/ (the tree).  Rebuilt only when the manifest (the IGT
# build's key, package versions, tests/igt/*, this script) changed.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
g=$top/build/guest
guest_root=$g/root        # the guest image's file tree (make-guest.sh)
debs=${GPUMODEL_CACHE:-$g/debs}
pkgs=$g/pkgs
stage=$top/build/igt/stage
t=$top/tests/igt
mkdir -p "$g" "$debs" "$pkgs"
debs=$(cd "$debs" && pwd)

# Where shared libraries live, on the host's packages and in the guest.
multiarch=lib/x86_64-linux-gnu

log() { echo "make-igt-image: $*" >&2; }
die() { log "error: $*"; exit 1; }

. "$top/scripts/guest-pkgs.sh"

"$top/scripts/make-guest.sh"
"$top/scripts/build-igt.sh"

# The runtime packages: those of Debian's intel-gpu-tools (the libraries
# libigt links), the runner's JSON, libproc2 for igt_aux and libdrm's
# nouveau for the prime_nv tests.
rt=$(resolve intel-gpu-tools libjson-c5 libproc2-0 libdrm-nouveau2)
[ -n "$rt" ] || die "cannot resolve the IGT runtime packages (apt-get update?)"
dirs=
for pv in $(echo "$rt" | tr ' ' '='); do
    d=$(unpack "$(deb "${pv%%=*}" "${pv#*=}")")
    dirs="$dirs $d"
done

# The tests the lists name: igt@<binary>[@<subtest>...].
bins=$(cat "$t"/*.testlist | sed -n 's/^igt@\([^@[:space:]]*\).*/\1/p' | LC_ALL=C sort -u)

manifest=$g/igt-manifest.new
{
    echo "igt-build $(cat "$top/build/igt/key")"
    for d in $dirs; do echo "pkg $(basename "$d")"; done
    (cd "$top" && find scripts/make-igt-image.sh scripts/guest-pkgs.sh tests/igt \
        -type f ! -name '*.md' ! -name '*.py' | LC_ALL=C sort | xargs sha256sum)
} > "$manifest"
if [ -f "$g/igt.cpio.gz" ] && cmp -s "$manifest" "$g/igt-manifest"; then
    rm -f "$manifest"
    log "up to date"
    exit 0
fi

root=$g/igt-root
rm -rf "$root"
mkdir -p "$root/usr/libexec/igt-gpu-tools" "$root/usr/bin" \
    "$root/$multiarch" "$root/gpumodel"
todo=
for b in $bins; do
    [ -f "$stage/usr/libexec/igt-gpu-tools/$b" ] ||
        die "$b (in tests/igt/*.testlist) is not an IGT test"
    cp "$stage/usr/libexec/igt-gpu-tools/$b" "$root/usr/libexec/igt-gpu-tools/"
    todo="$todo $root/usr/libexec/igt-gpu-tools/$b"
done
# igt_runner opens test-list.txt (the tests of the build) in any case: the
# ones here.
{ echo TESTLIST; echo $bins; echo END TESTLIST; } > "$root/usr/libexec/igt-gpu-tools/test-list.txt"
for b in igt_runner igt_results; do
    cp "$stage/usr/bin/$b" "$root/usr/bin/"
    todo="$todo $root/usr/bin/$b"
done
# IGT's own libraries first, then the rest from the packages; what the base
# image already has is not copied again.
for l in "$stage"/usr/$multiarch/lib*.so.*; do
    [ -L "$l" ] && continue
    cp "$l" "$root/$multiarch/"
done
for l in "$stage"/usr/$multiarch/lib*.so.*; do
    [ -L "$l" ] || continue
    cp -P "$l" "$root/$multiarch/"
done
for l in "$guest_root/$multiarch"/*; do
    needed_seen="$needed_seen$(basename "$l") "
done
libdirs="$stage/usr/$multiarch"
for d in $dirs; do
    for sub in $multiarch usr/$multiarch; do
        [ -d "$d/$sub" ] && libdirs="$libdirs $d/$sub"
    done
done
copy_needed "$root" "$libdirs" $todo
# glibc's pthread_cancel loads libgcc_s for unwinding (dlopen, not
# DT_NEEDED) and aborts the process without it: IGT's spinners cancel
# their timer threads (igt_spin_free).
so=libgcc_s.so.1
if [ ! -e "$guest_root/$multiarch/$so" ]; then
    src=
    for d in $libdirs; do
        [ -e "$d/$so" ] && { src=$d/$so; break; }
    done
    [ -n "$src" ] || die "$so (dlopened by glibc) not found in the packages"
    cp -L "$src" "$root/$multiarch/$so"
fi
# The closure must resolve in the two roots together.
interp=/lib64/ld-linux-x86-64.so.2
both=$g/igt-both
rm -rf "$both"
cp -a "$guest_root" "$both"
cp -a "$root/." "$both/"
for f in $todo; do
    "$both$interp" --library-path "$both/$multiarch" --list "$f" |
        awk -v root="$both" '/=>/ && index($3, root) != 1 { bad = 1; print "  " $0 }
            END { exit bad }' >&2 || die "$(basename "$f"): libraries missing (above)"
done
rm -rf "$both"
[ -d "$stage/usr/share/igt-gpu-tools" ] && mkdir -p "$root/usr/share" &&
    cp -r "$stage/usr/share/igt-gpu-tools" "$root/usr/share/"

cp "$t/igt-guest.sh" "$root/gpumodel/"
cp "$t/drill.testlist" "$root/gpumodel/igt-drill.list"
chmod 755 "$root/gpumodel/igt-guest.sh"

(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
    cpio -o -H newc -R 0:0 --reproducible --quiet) | gzip -n > "$g/igt.cpio.gz.tmp"
mv "$g/igt.cpio.gz.tmp" "$g/igt.cpio.gz"
mv "$manifest" "$g/igt-manifest"
log "$(echo "$bins" | wc -w) tests; overlay $(du -k "$g/igt.cpio.gz" | cut -f1) KiB"
