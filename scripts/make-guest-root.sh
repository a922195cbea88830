#!/bin/sh
# Build the Debian root of the guest tiers that need more user space than
# busybox (the compute tier: Intel's OpenCL runtime, Mesa's Vulkan and GL
# drivers): a bookworm root made by Debian's own mmdebstrap from the
# packages of scripts/guest-root.pkgs, installed with their dependencies
# and maintainer scripts as apt and dpkg install them (ICD files in
# /etc/OpenCL/vendors and /usr/share/vulkan/icd.d), as an ext4 disk image
# written without mounting it (mke2fs -d); and the small initramfs that
# boots it.
#
#   scripts/make-guest-root.sh
#
# The root is too big for an initramfs in RAM (about 600 MB: NEO's IGC
# and Mesa each bring their own LLVM), so scripts/run-guest.sh --root
# gives QEMU the image as a virtio disk (snapshot=on: the guest may write,
# the image never changes).  The root holds no kernel: the boot initramfs
# (tests/guest/root-init.sh as /init, busybox) loads virtio_pci,
# virtio_blk and ext4 from the kernel's modules archive
# (scripts/guest-kernel.sh packs them with i915), mounts the disk and
# copies that archive's lib/modules and lib/firmware into the root's
# /usr/lib, where the root's kmod modprobe finds them, and the tier's
# /gpumodel files, then switch_root runs /gpumodel/init
# (tests/guest/init.sh).  So one root serves every KERNEL.
#
# Cache: the image is built once per machine into $GUEST_ROOT_CACHE
# (default /var/cache/gpumodel/guest-root; mmdebstrap runs as root), in
# a directory named by a key over the package list, the mmdebstrap
# recipe below and the versions apt resolves from the host's package lists
# for the list's whole Depends closure: a new version in the archive (after
# apt-get update) or a change of the list builds a new root; otherwise
# this script takes seconds.  KEY/ holds root.img, packages.txt (what
# dpkg installed: name and version) and mmdebstrap.log; debs/ the .debs
# mmdebstrap fetched (copied in before and out after each build, so a new
# root downloads only what changed).  The two newest roots are kept.
#
# Output (build/guest/):
#   root.img            a link to the cached image
#   root-packages.txt   a link to its packages.txt
#   root-boot.cpio.gz   the boot initramfs: busybox, root-init.sh as /init,
#                       tests/guest/init.sh as /gpumodel/init and lib.sh;
#                       run-guest.sh appends the kernel's modules archive
#                       and the tier's own archive (--initrd-add)
#
# Environment: GUEST_ROOT_CACHE; GUEST_ROOT_MIRROR (default
# http://deb.debian.org/debian, with bookworm-updates; security updates
# from GUEST_ROOT_SECURITY, default http://deb.debian.org/debian-security);
# GPUMODEL_CACHE (the .deb cache of busybox-static, as make-guest.sh).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
g=$top/build/guest
debs=${GPUMODEL_CACHE:-$g/debs}
pkgs=$g/pkgs
list=$top/scripts/guest-root.pkgs
mirror=${GUEST_ROOT_MIRROR:-http://deb.debian.org/debian}
security=${GUEST_ROOT_SECURITY:-http://deb.debian.org/debian-security}
cache=${GUEST_ROOT_CACHE:-/var/cache/gpumodel/guest-root}

log() { echo "make-guest-root: $*" >&2; }
die() { log "error: $*"; exit 1; }

case ${1:-} in
    -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
    '') ;;
    *) die "unknown argument $1 (see --help)" ;;
esac

mkdir -p "$g" "$debs" "$pkgs"
debs=$(cd "$debs" && pwd)
. "$top/scripts/guest-pkgs.sh"

pkglist=$(grep -v -e '^#' -e '^[[:space:]]*$' "$list" | tr -s ' \n' '  ')

# ---- the root -------------------------------------------------------------

# Everything mmdebstrap is told, but the paths of this machine: what makes
# a root, hashed into the key.  --variant=essential: the Essential set and
# the list, no Priority: required extras (the root is never booted with an
# init system).  Documentation, manual pages and translations are left
# out (dpkg's path-exclude), the copyright files kept.
# shellcheck disable=SC2086  # the list's words, one space apart
recipe="--variant=essential
--include=$(echo $pkglist | tr ' ' ,)
--dpkgopt=path-exclude=/usr/share/man/*
--dpkgopt=path-exclude=/usr/share/info/*
--dpkgopt=path-exclude=/usr/share/locale/*
--dpkgopt=path-exclude=/usr/share/doc/*
--dpkgopt=path-include=/usr/share/doc/*/copyright
bookworm
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main"

# shellcheck disable=SC2086
closure=$(resolve $pkglist)
[ -n "$closure" ] || die "apt cannot resolve the packages of $list (apt-get update?)"
key=$( (echo "$recipe"; echo "$closure") | sha256sum | cut -c1-16)
dir=$cache/$key

if [ ! -f "$dir/root.img" ]; then
    [ "$(id -u)" = 0 ] || die "building the guest root needs root (mmdebstrap's root mode)"
    if ! command -v mmdebstrap > /dev/null; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q
        apt-get install -y -q --no-install-recommends mmdebstrap
    fi
    mkdir -p "$cache/debs"
    # One build at a time per machine (work trees share the cache).
    exec 8> "$cache/.lock"
    flock 8
fi
if [ ! -f "$dir/root.img" ]; then
    tmp=$cache/$key.tmp
    rm -rf "$tmp"
    mkdir -p "$tmp"
    t0=$(date +%s)
    log "building the root $key with mmdebstrap (log: $tmp/mmdebstrap.log)"
    # The recipe's lines as arguments (none holds a newline).
    old_ifs=$IFS
    IFS='
'
    # The hooks' $1 is mmdebstrap's: the root's directory.
    # shellcheck disable=SC2046,SC2016
    set -- $(echo "$recipe" | sed '/^bookworm$/,$d') \
        --skip=essential/unlink \
        --setup-hook='mkdir -p "$1/var/cache/apt/archives"' \
        --setup-hook="sync-in $cache/debs /var/cache/apt/archives/" \
        --customize-hook="sync-out /var/cache/apt/archives $cache/debs" \
        --customize-hook='echo gpumodel > "$1/etc/hostname"' \
        --customize-hook='echo "127.0.0.1 localhost gpumodel" > "$1/etc/hosts"' \
        bookworm "$tmp/root" $(echo "$recipe" | sed -n '/^deb /p')
    IFS=$old_ifs
    mmdebstrap "$@" > "$tmp/mmdebstrap.log" 2>&1 ||
        die "mmdebstrap failed; the end of $tmp/mmdebstrap.log: $(tail -n 5 "$tmp/mmdebstrap.log")"
    root=$tmp/root
    # What the tiers rely on, as the packages installed it.
    [ -f "$root/etc/OpenCL/vendors/intel.icd" ] ||
        die "no /etc/OpenCL/vendors/intel.icd in the root (intel-opencl-icd)"
    ls "$root"/usr/share/vulkan/icd.d/intel_icd.*.json > /dev/null 2>&1 ||
        die "no Vulkan ICD file of anv in the root (mesa-vulkan-drivers)"
    dpkg-query --admindir="$root/var/lib/dpkg" -W -f '${Package} ${Version}\n' |
        LC_ALL=C sort > "$tmp/packages.txt"
    # Only the .debs of this root stay in the download cache.
    for f in "$cache"/debs/*.deb; do
        [ -f "$f" ] || continue
        b=$(basename "$f")
        v=$(grep "^${b%%_*} " "$tmp/packages.txt" | cut -d' ' -f2 | sed 's/:/%3a/g')
        case $b in "${b%%_*}_${v}_"*) [ -n "$v" ] && continue ;; esac
        rm -f "$f"
    done
    # ext4 written from the directory, no mount: the files and a quarter
    # more, and 64 MiB for what the guest writes (in QEMU's snapshot).
    kib=$(du -sk "$root" | cut -f1)
    mke2fs -q -t ext4 -L gpumodel-root -d "$root" "$tmp/root.img" \
        "$((kib + kib / 4 + 65536))k" > /dev/null || die "mke2fs -d failed"
    rm -rf "$root"
    rm -rf "$dir"
    mv "$tmp" "$dir"
    log "root $key: $(wc -l < "$dir/packages.txt") packages, $((kib / 1024)) MiB of files," \
        "image $(du -k "$dir/root.img" | cut -f1) KiB, in $(($(date +%s) - t0)) s"
    # The two newest roots stay (other trees may use another list).
    # shellcheck disable=SC2012
    ls -dt "$cache"/*/root.img 2>/dev/null | tail -n +3 | while read -r old; do
        rm -rf "$(dirname "$old")"
    done
else
    log "root up to date ($key)"
fi
ln -sfn "$dir/root.img" "$g/root.img"
ln -sfn "$dir/packages.txt" "$g/root-packages.txt"

# ---- the boot initramfs ---------------------------------------------------

bpkg=$(resolve busybox-static | grep '^busybox-static ' | tr ' ' =)
[ -n "$bpkg" ] || die "cannot resolve busybox-static (apt-get update?)"
bdir=$(unpack "$(deb "${bpkg%%=*}" "${bpkg#*=}")")
manifest=$g/root-boot-manifest.new
{
    echo "busybox $(basename "$bdir")"
    (cd "$top" && sha256sum scripts/make-guest-root.sh tests/guest/root-init.sh \
        tests/guest/init.sh tests/guest/lib.sh)
} > "$manifest"
if [ -f "$g/root-boot.cpio.gz" ] && cmp -s "$manifest" "$g/root-boot-manifest"; then
    rm -f "$manifest"
    exit 0
fi
b=$g/root-boot
rm -rf "$b"
mkdir -p "$b/bin" "$b/sbin" "$b/usr/bin" "$b/usr/sbin" "$b/dev" "$b/proc" \
    "$b/sys" "$b/newroot" "$b/gpumodel"
cp "$bdir/bin/busybox" "$b/bin/busybox"
ln -s busybox "$b/bin/sh"
cp "$top/tests/guest/root-init.sh" "$b/init"
cp "$top/tests/guest/init.sh" "$b/gpumodel/init"
cp "$top/tests/guest/lib.sh" "$b/gpumodel/"
chmod 755 "$b/init" "$b/gpumodel/init"
(cd "$b" && find . -mindepth 1 | LC_ALL=C sort |
    cpio -o -H newc -R 0:0 --reproducible --quiet) | gzip -n > "$g/root-boot.cpio.gz.tmp"
mv "$g/root-boot.cpio.gz.tmp" "$g/root-boot.cpio.gz"
mv "$manifest" "$g/root-boot-manifest"
log "boot initramfs $(du -k "$g/root-boot.cpio.gz" | cut -f1) KiB"
