#!/bin/sh
# Build the guest of the guest tiers: busybox and a few intel-gpu-tools
# binaries with their shared libraries in one initramfs, with the probes of
# tests/guest/ compiled here (gcc -static), and the kernel the tiers boot
# with its modules (scripts/guest-kernel.sh: Debian bookworm's stock kernel,
# or the one KERNEL names).
#
#   scripts/make-guest.sh
#
# Everything comes from Debian packages fetched with `apt-get download` and
# unpacked with `dpkg -x`; nothing is installed on the host and nothing is
# written outside build/ (apt runs with its caches redirected).
#
# Environment:
#   GPUMODEL_CACHE  directory of downloaded .debs (default build/guest/debs);
#                   share it between work trees to download only once.
#   KERNEL, MODULES, KCONFIG, FIRMWARE: see scripts/guest-kernel.sh.
#
# Output (build/guest/):
#   initramfs.cpio.gz  busybox, tools, probes, /init from tests/guest/: the
#                      user space, the same for every kernel
#   nv-pcounter-probe  the nv-gpu probe, static (also in the initramfs)
#   manifest           packages and input hashes of that initramfs
#   root/              the initramfs tree; pkgs/: unpacked .debs; resolve/:
#                      apt's answers
#   kernel/NAME/       the kernel and its modules (scripts/guest-kernel.sh)
#
# Incremental: a .deb already in the cache is not downloaded again, an
# unpacked package is not unpacked again, and the initramfs is rebuilt only
# when the manifest (package versions, tests/guest/* but the host side:
# *.md, *.py and __pycache__, test-*, *checks.txt, oa-cost.awk,
# recorded/; this script) changed.
# When the archive cannot be reached, the newest cached .deb of a package is
# used with a warning.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
g=$top/build/guest
debs=${GPUMODEL_CACHE:-$g/debs}
pkgs=$g/pkgs
tests=$top/tests/guest
mkdir -p "$g" "$debs" "$pkgs"
debs=$(cd "$debs" && pwd)
# One at a time: the IGT tier's guests start together.
exec 9> "$g/.lock"
flock 9

log() { echo "make-guest: $*" >&2; }
die() { log "error: $*"; exit 1; }

. "$top/scripts/guest-pkgs.sh"

# ---- resolve and fetch --------------------------------------------------

"$top/scripts/guest-kernel.sh"

bpkg=$(resolve busybox-static | grep '^busybox-static ')
igt=$(resolve intel-gpu-tools)
if [ -z "$bpkg" ] || [ -z "$igt" ]; then
    die "cannot resolve busybox-static and intel-gpu-tools (apt-get update?)"
fi

# "name version" lines as name=version words, for word splitting.
bpkg=$(echo "$bpkg" | tr ' ' '=')
igt=$(echo "$igt" | tr ' ' '=')
bdir=$(unpack "$(deb "${bpkg%%=*}" "${bpkg#*=}")")
igtdirs=
for pv in $igt; do
    d=$(unpack "$(deb "${pv%%=*}" "${pv#*=}")")
    igtdirs="$igtdirs $d"
    case $pv in intel-gpu-tools=*) igtdir=$d ;; esac
done

for d in $bdir $igtdirs; do prune_unpacked "$d"; done
# The kernel lived here before it had build/guest/kernel/.
rm -f "$g/vmlinuz" "$g/vmlinux" "$g/kver"

# ---- up to date? ----------------------------------------------------------

manifest=$g/manifest.new
{
    # The unpacked trees say which .debs are really used (offline fallback).
    echo "busybox $(basename "$bdir")"
    for d in $igtdirs; do echo "igt $(basename "$d")"; done
    (cd "$top" && find scripts/make-guest.sh scripts/guest-pkgs.sh tests/guest include/hw/gpumodel/nv-gpu-regs.h \
        include/hw/gpumodel/regfields.h \
        -type f ! -name '*.md' ! -name '*.py' ! -name 'test-*' ! -name '*checks.txt' \
        ! -name 'oa-cost.awk' ! -path 'tests/guest/recorded/*' \
        ! -path '*/__pycache__/*' |
        LC_ALL=C sort | xargs sha256sum)
} > "$manifest"
if [ -f "$g/initramfs.cpio.gz" ] && cmp -s "$manifest" "$g/manifest"; then
    rm -f "$manifest"
    log "up to date"
    exit 0
fi

# ---- assemble the root ----------------------------------------------------

root=$g/root
rm -rf "$root"
mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" \
    "$root/lib64" "$root/lib/x86_64-linux-gnu" "$root/proc" "$root/sys" \
    "$root/dev" "$root/tmp" "$root/run" "$root/etc" "$root/gpumodel"

# busybox: /init installs the applet links at boot; /bin/sh must exist first.
cp "$bdir/bin/busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"

# intel-gpu-tools binaries and the shared libraries they need: walk
# DT_NEEDED over the unpacked dependency packages.
libdirs=
for d in $igtdirs; do
    for sub in lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu; do
        [ -d "$d/$sub" ] && libdirs="$libdirs $d/$sub"
    done
done
# The tools: tests/guest/tools.list, paths inside intel-gpu-tools.
tools=$(grep -v -e '^#' -e '^[[:space:]]*$' "$tests/tools.list")
todo=
for t in $tools; do
    [ -f "$igtdir/$t" ] || die "$t is not in intel-gpu-tools"
    mkdir -p "$root/$(dirname "$t")"
    cp "$igtdir/$t" "$root/$t"
    todo="$todo $root/$t"
done
# The dynamic loader named in PT_INTERP, at its path in the guest.
interp=$(readelf -l "$igtdir/usr/bin/intel_reg" |
    sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
found=
for d in $igtdirs; do
    for c in "$d$interp" "$d/lib/x86_64-linux-gnu/$(basename "$interp")"; do
        [ -f "$c" ] && [ -z "$found" ] && found=$c
    done
done
[ -n "$found" ] || die "dynamic loader $interp not found in libc6"
mkdir -p "$root$(dirname "$interp")"
cp -L "$found" "$root$interp"
copy_needed "$root" "$libdirs" $todo
# Check the closure with the loader itself: every library must resolve
# inside the root (--list maps the libraries, it runs none of their code).
for t in $tools; do
    "$root$interp" --library-path "$root/lib/x86_64-linux-gnu" --list "$root/$t" |
        awk -v root="$root" '/=>/ && index($3, root) != 1 { bad = 1; print "  " $0 }
            END { exit bad }' >&2 ||
        die "$t: libraries missing from the guest root (above)"
done
# intel_reg's register descriptions (it picks the file for the platform).
mkdir -p "$root/usr/share/igt-gpu-tools"
cp -r "$igtdir/usr/share/igt-gpu-tools/registers" "$root/usr/share/igt-gpu-tools/"

# The test itself.
cp "$tests/init.sh" "$root/init"
cp "$tests/lib.sh" "$tests/guest-checks.sh" "$tests/cost-checks.sh" "$root/gpumodel/"
chmod 755 "$root/init" "$root/gpumodel/guest-checks.sh" "$root/gpumodel/cost-checks.sh"
# The nv-gpu profile: its checks and the probe, a static binary (no
# libraries to carry; the register macros come from the model's header).
cp "$tests/nv-checks.sh" "$root/gpumodel/"
chmod 755 "$root/gpumodel/nv-checks.sh"
${CC:-gcc} -static -O2 -Wall -I"$top/include" -o "$g/nv-pcounter-probe" \
    "$tests/nv-pcounter-probe.c" || die "cannot build nv-pcounter-probe (gcc -static: build-essential)"
cp "$g/nv-pcounter-probe" "$root/gpumodel/nv-pcounter-probe"
# The intel-gpu user-batch probe, static, against libdrm's i915 uAPI header.
${CC:-gcc} -static -O2 -Wall -I/usr/include/libdrm -I"$top/include" \
    -o "$g/i915-exec-probe" \
    "$tests/i915-exec-probe.c" || die "cannot build i915-exec-probe (gcc -static, libdrm-dev)"
cp "$g/i915-exec-probe" "$root/gpumodel/i915-exec-probe"
# The i915 perf stream reader of the OA drill checks, likewise.
${CC:-gcc} -static -O2 -Wall -I/usr/include/libdrm -o "$g/i915-perf-probe" \
    "$tests/i915-perf-probe.c" || die "cannot build i915-perf-probe (gcc -static, libdrm-dev)"
cp "$g/i915-perf-probe" "$root/gpumodel/i915-perf-probe"

# ---- pack -----------------------------------------------------------------

(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
    cpio -o -H newc -R 0:0 --reproducible --quiet) | gzip -n > "$g/initramfs.cpio.gz.tmp"
mv "$g/initramfs.cpio.gz.tmp" "$g/initramfs.cpio.gz"
mv "$manifest" "$g/manifest"
log "initramfs $(du -k "$g/initramfs.cpio.gz" | cut -f1) KiB:" \
    "$(echo "$needed_seen" | wc -w) libraries"
