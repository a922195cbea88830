#!/bin/sh
# Build the guest of the "guest" test tier: Debian bookworm's stock kernel,
# the i915 module with its dependency closure, busybox and a few
# intel-gpu-tools binaries with their shared libraries, in one initramfs,
# with tests/guest/nv-pcounter-probe.c compiled here (gcc -static) for the
# nv-gpu profile.
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
#
# Output (build/guest/):
#   vmlinuz            the kernel
#   vmlinux            the same, uncompressed, for a faster PVH boot
#   nv-pcounter-probe  the nv-gpu probe, static (also in the initramfs)
#   initramfs.cpio.gz  busybox, modules, tools, /init from tests/guest/
#   kver               the kernel release (uname -r)
#   manifest           packages and input hashes of that initramfs
#   root/              the initramfs tree; pkgs/: unpacked .debs (the kernel
#                      alone is ~400 MB); resolve/: apt's answers
#
# Incremental: a .deb already in the cache is not downloaded again, an
# unpacked package is not unpacked again, and the initramfs is rebuilt only
# when the manifest (package versions, tests/guest/* but the host side:
# *.md, *.py and __pycache__, *checks.txt, oa-cost.awk, recorded/; this
# script) changed.
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

# Tools copied from intel-gpu-tools: tests/guest/tools.list (paths inside
# the package). Modules: each listed module and everything it depends on
# (vgem: the software GEM driver IGT's prime_vgem tests share buffers with;
# nouveau: the stock driver the nv profile binds to nv-gpu).
modules="i915 vgem nouveau"

log() { echo "make-guest: $*" >&2; }
die() { log "error: $*"; exit 1; }

. "$top/scripts/guest-pkgs.sh"

# ---- resolve and fetch --------------------------------------------------

# linux-image-amd64 is a metapackage: the kernel is the real
# linux-image-<abi>-amd64 package it depends on.
kpkg=$(resolve linux-image-amd64 | grep -E '^linux-image-[0-9][^ ]*-amd64 ')
[ -n "$kpkg" ] || die "cannot resolve linux-image-amd64 (apt-get update?)"
bpkg=$(resolve busybox-static | grep '^busybox-static ')
igt=$(resolve intel-gpu-tools)
if [ -z "$bpkg" ] || [ -z "$igt" ]; then
    die "cannot resolve busybox-static and intel-gpu-tools (apt-get update?)"
fi

# "name version" lines as name=version words, for word splitting.
kpkg=$(echo "$kpkg" | tr ' ' '=')
bpkg=$(echo "$bpkg" | tr ' ' '=')
igt=$(echo "$igt" | tr ' ' '=')
kdir=$(unpack "$(deb "${kpkg%%=*}" "${kpkg#*=}")")
bdir=$(unpack "$(deb "${bpkg%%=*}" "${bpkg#*=}")")
igtdirs=
for pv in $igt; do
    d=$(unpack "$(deb "${pv%%=*}" "${pv#*=}")")
    igtdirs="$igtdirs $d"
    case $pv in intel-gpu-tools=*) igtdir=$d ;; esac
done

# Unpacked trees of versions no longer used (an older kernel is ~400 MB).
keep=" $(basename "$kdir") $(basename "$bdir") "
for d in $igtdirs; do keep="$keep$(basename "$d") "; done
for d in "$pkgs"/*; do
    case "$keep" in *" $(basename "$d") "*) ;; *) rm -rf "$d" ;; esac
done

kver=$(ls "$kdir/lib/modules")
[ "$(echo "$kver" | wc -w)" -eq 1 ] || die "expected one kernel in $kdir/lib/modules"

# ---- up to date? ----------------------------------------------------------

# Per process: concurrent runs (the IGT tier's guests) check it at once.
manifest=$g/manifest.$$
{
    # The unpacked trees say which .debs are really used (offline fallback).
    echo "kernel $(basename "$kdir")"
    echo "busybox $(basename "$bdir")"
    for d in $igtdirs; do echo "igt $(basename "$d")"; done
    echo "modules $modules"
    (cd "$top" && find scripts/make-guest.sh scripts/guest-pkgs.sh tests/guest include/hw/gpumodel/nv-gpu-regs.h \
        -type f ! -name '*.md' ! -name '*.py' ! -name '*checks.txt' \
        ! -name 'oa-cost.awk' ! -path 'tests/guest/recorded/*' \
        ! -path '*/__pycache__/*' |
        LC_ALL=C sort | xargs sha256sum)
} > "$manifest"
if [ -f "$g/initramfs.cpio.gz" ] && [ -f "$g/vmlinuz" ] &&
    cmp -s "$manifest" "$g/manifest"; then
    rm -f "$manifest"
    log "up to date ($kver)"
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

# Kernel modules.  depmod on the unpacked package (Debian ships no
# modules.dep) gives each module's full dependency list.
kmods=$kdir/lib/modules/$kver
[ -f "$kmods/modules.dep" ] || depmod -b "$kdir" "$kver"
mdst=$root/lib/modules/$kver
mkdir -p "$mdst"
for m in $modules; do
    line=$(grep -E "(^|/)$m\.ko(\.xz|\.zst|\.gz)?:" "$kmods/modules.dep") ||
        die "module $m not found in $kver"
    for f in $(echo "$line" | tr -d ':'); do
        mkdir -p "$mdst/$(dirname "$f")"
        cp "$kmods/$f" "$mdst/$f"
        # busybox modprobe loads plain .ko files only.
        case $f in
            *.xz) xz -d -f "$mdst/$f" ;;
            *.zst) zstd -q -d --rm -f "$mdst/$f" ;;
            *.gz) gzip -d -f "$mdst/$f" ;;
        esac
    done
done
cp "$kmods/modules.order" "$kmods/modules.builtin" "$mdst/"
[ -f "$kmods/modules.builtin.modinfo" ] && cp "$kmods/modules.builtin.modinfo" "$mdst/"
depmod -b "$root" "$kver"

# intel-gpu-tools binaries and the shared libraries they need: walk
# DT_NEEDED over the unpacked dependency packages.
libdirs=
for d in $igtdirs; do
    for sub in lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu; do
        [ -d "$d/$sub" ] && libdirs="$libdirs $d/$sub"
    done
done
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
cp "$tests/lib.sh" "$tests/guest-checks.sh" "$root/gpumodel/"
chmod 755 "$root/init" "$root/gpumodel/guest-checks.sh"
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
echo "$kver" > "$root/gpumodel/kver"

# ---- pack -----------------------------------------------------------------

cp "$kdir/boot/vmlinuz-$kver" "$g/vmlinuz"
# The same kernel uncompressed, for QEMU's PVH entry: under TCG, unpacking
# the xz bzImage takes the guest ~6 s of a ~18 s run.  Only when the kernel
# has the PVH note (XEN_ELFNOTE_PHYS32_ENTRY, type 0x12); run-guest.sh boots
# vmlinuz otherwise.
rm -f "$g/vmlinux"
off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$g/vmlinuz" | head -n 1 | cut -d: -f1)
if [ -n "$off" ] &&
    tail -c +$((off + 1)) "$g/vmlinuz" | xz -dc --single-stream > "$g/vmlinux.tmp" 2>/dev/null &&
    readelf -n "$g/vmlinux.tmp" 2>/dev/null | grep -q 'Xen.*(0x00000012)'; then
    mv "$g/vmlinux.tmp" "$g/vmlinux"
else
    rm -f "$g/vmlinux.tmp"
    log "no PVH-bootable vmlinux in vmlinuz-$kver: booting the bzImage"
fi
echo "$kver" > "$g/kver"
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
    cpio -o -H newc -R 0:0 --reproducible --quiet) | gzip -n > "$g/initramfs.cpio.gz.tmp"
mv "$g/initramfs.cpio.gz.tmp" "$g/initramfs.cpio.gz"
mv "$manifest" "$g/manifest"
log "kernel $kver; initramfs $(du -k "$g/initramfs.cpio.gz" | cut -f1) KiB:" \
    "$(find "$mdst" -name '*.ko' | wc -l) modules, $(echo "$needed_seen" | wc -w) libraries"
