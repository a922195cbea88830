#!/bin/sh
# The kernel the guest tiers boot (make run, the guest tier, make igt):
# Debian bookworm's by default, or the user's own build.  It checks the
# kernel's config against scripts/guest-kernel.config, and packs the
# kernel with the modules and firmware the tiers load.
#
#   scripts/guest-kernel.sh             prepare the kernel of $KERNEL
#   scripts/guest-kernel.sh --dir       print the directory it goes in
#   scripts/guest-kernel.sh --check CONFIG
#                                       check a kernel config file only
#
# KERNEL (default deb:linux-image-amd64, bookworm's 6.1) is one of:
#   deb:PKG      a Debian kernel package from the archive, e.g.
#                deb:linux-image-6.12-amd64 (downloaded and unpacked)
#   a build tree where the kernel was built (make bzImage modules): its
#                .config, arch/x86/boot/bzImage and vmlinux; its modules
#                are installed from it (make modules_install)
#   an install root  DIR/boot/vmlinuz-RELEASE and DIR/lib/modules/RELEASE
#                (an unpacked linux-image .deb, or make install and
#                modules_install with INSTALL_PATH=DIR/boot and
#                INSTALL_MOD_PATH=DIR); its config is DIR/boot/config-RELEASE
#   a file       a bzImage; MODULES names its modules (DIR/lib/modules/
#                RELEASE, or DIR holding that), unneeded when the drivers
#                are built in; its config is KCONFIG, config-RELEASE beside
#                the file, or the one built into it (CONFIG_IKCONFIG)
# KCONFIG, when set, is the config checked whatever KERNEL is.
# FIRMWARE (default /lib/firmware): where the Ice Lake firmware i915 asks
# for is taken from (Debian's firmware-misc-nonfree; none is needed: i915
# runs without DMC, GuC and HuC firmware on Ice Lake).
#
# Output, build/guest/kernel/NAME/ (NAME: the package, or the path's last
# part and a hash of the whole path):
#   vmlinuz          the kernel; vmlinux: the same uncompressed, when it
#                    boots through PVH (faster under TCG)
#   modules.cpio.gz  lib/modules/RELEASE with i915, vgem and nouveau and
#                    what they depend on (none of those built in), the
#                    modules that mount the Debian root's disk (virtio_pci,
#                    virtio_blk, ext4, crc32c_generic: make-guest-root.sh),
#                    and
#                    lib/firmware: an initramfs archive scripts/run-guest.sh
#                    appends to the user space of scripts/make-guest.sh
#   config, release  the kernel's config and release (uname -r)
#   manifest         what the output was made from (rebuilt when it changes)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
g=$top/build/guest
needs=$top/scripts/guest-kernel.config
debs=${GPUMODEL_CACHE:-$g/debs}
pkgs=$g/pkgs
kernel=${KERNEL:-deb:linux-image-amd64}
firmware=${FIRMWARE:-/lib/firmware}
# The drivers the tiers load, and the firmware of theirs that the emulated
# devices use (Ice Lake's; nouveau needs none on G84).
drivers="i915 vgem nouveau"
fw_wanted='i915/icl_*'
# What the Debian root's boot initramfs loads to mount its disk
# (tests/guest/root-init.sh), packed too when they are modules; a kernel
# that builds them in has nothing to pack.
boot_mods="crc32c_generic virtio_pci virtio_blk ext4"

log() { echo "guest-kernel: $*" >&2; }
die() { log "error: $*"; exit 1; }

# ---- the config -------------------------------------------------------------

# check_config FILE: every option of guest-kernel.config at the value its
# section accepts ("built in": y; "built in or module": y or m), or a list
# of the missing ones, each with its section's reason, and failure.
check_config() {
    awk -v cfgfile="$1" '
        FNR == NR {
            if ($0 ~ /^# built in or module/) { want = "y or m"; why = $0 }
            else if ($0 ~ /^# built in/) { want = "y"; why = $0 }
            else if ($0 ~ /^CONFIG_/) {
                split($0, kv, "=")
                need[++n] = kv[1]; acc[kv[1]] = want
                r = why; sub(/^[^:]*: */, "", r); reason[kv[1]] = r
            }
            next
        }
        /^CONFIG_/ { i = index($0, "="); val[substr($0, 1, i - 1)] = substr($0, i + 1) }
        END {
            for (i = 1; i <= n; i++) {
                o = need[i]; v = (o in val) ? val[o] : "not set"
                if (v == "y" || (v == "m" && acc[o] == "y or m")) continue
                printf "  %s=%s (is %s; %s)\n", o, acc[o] == "y" ? "y" : "y or m", v, reason[o]
                bad = 1
            }
            exit bad
        }' "$needs" "$1"
}

if [ "${1:-}" = --check ]; then
    [ -f "${2:-}" ] || die "--check needs a config file"
    if ! missing=$(check_config "$2"); then
        log "$2 lacks what the guest tiers need (scripts/guest-kernel.config):"
        echo "$missing" >&2
        exit 1
    fi
    exit 0
fi

# ---- where it goes ----------------------------------------------------------

case $kernel in
    deb:*)
        name=${kernel#deb:}
        case $name in
            ''|*[!a-z0-9.+-]*) die "KERNEL=$kernel: deb: takes a package name" ;;
        esac ;;
    *)
        [ -e "$kernel" ] || die "KERNEL=$kernel: no such file or directory"
        if [ -d "$kernel" ]; then
            kernel=$(cd "$kernel" && pwd)
        else
            kernel=$(cd "$(dirname "$kernel")" && pwd)/$(basename "$kernel")
        fi
        name=$(basename "$kernel" | tr -c 'A-Za-z0-9.+_\n-' _)-$(printf '%s' "$kernel" | sha256sum | cut -c1-8) ;;
esac
out=$g/kernel/$name
if [ "${1:-}" = --dir ]; then
    echo "$out"
    exit 0
fi
[ $# = 0 ] || die "unknown argument $1 (see the head of this script)"

mkdir -p "$out" "$debs" "$pkgs"
debs=$(cd "$debs" && pwd)

# bzimage_release FILE: the release a bzImage names in its setup header
# (kernel_version, at 0x200 plus the offset at 0x20e: Documentation/x86/
# boot.rst), or nothing when FILE is no bzImage.
bzimage_release() {
    [ "$(od -An -c -j514 -N4 "$1" | tr -d ' ')" = HdrS ] || return 0
    o=$(od -An -tu2 -j526 -N2 "$1" | tr -d ' ')
    dd if="$1" bs=1 skip=$((o + 512)) count=128 2>/dev/null |
        tr '\0' '\n' | head -n 1 | cut -d' ' -f1
}

# modules_of DIR: DIR itself when it is a lib/modules/RELEASE tree, else
# DIR/lib/modules/RELEASE, the only one there.
modules_of() {
    if [ -f "$1/modules.order" ] || [ -f "$1/modules.builtin" ]; then
        echo "$1"
        return
    fi
    set -- "$1"/lib/modules/*
    if [ $# != 1 ] || [ ! -d "$1" ]; then
        die "MODULES=$MODULES: no lib/modules/RELEASE in it (or more than one)"
    fi
    echo "$1"
}

# ---- find the kernel, its modules and config -----------------------------

image='' vmlinux='' mods='' config='' release='' tree=''
install_root() {
    set -- "$1"/lib/modules/*
    if [ $# != 1 ] || [ ! -d "$1" ]; then
        die "KERNEL=$kernel: not one lib/modules/RELEASE in it"
    fi
    mods=$1
    release=$(basename "$mods")
    root=${mods%/lib/modules/*}
    image=$root/boot/vmlinuz-$release
    [ -f "$image" ] || die "KERNEL=$kernel: no boot/vmlinuz-$release"
    config=$root/boot/config-$release
}
case $kernel in
    deb:*)
        . "$top/scripts/guest-pkgs.sh"
        # A metapackage (linux-image-amd64) names the real image package in
        # its closure: the one that ships lib/modules.
        closure=$(resolve "$name" | grep '^linux-image-') ||
            die "KERNEL=$kernel: apt knows no such package (apt-get update?)"
        found=
        for pv in $(echo "$closure" | tr ' ' '='); do
            d=$(unpack "$(deb "${pv%%=*}" "${pv#*=}")")
            [ -d "$d/lib/modules" ] && found=$d && prune_unpacked "$d"
        done
        [ -n "$found" ] || die "KERNEL=$kernel: no package of $name ships a kernel"
        install_root "$found" ;;
    *)
        if [ -f "$kernel" ]; then
            image=$kernel
            release=$(bzimage_release "$image")
            [ -n "$release" ] || die "KERNEL=$kernel is no bzImage (no HdrS setup header)"
            [ -z "${MODULES:-}" ] || mods=$(modules_of "$MODULES")
            config=$(dirname "$kernel")/config-$release
        elif [ -f "$kernel/Makefile" ] && [ -f "$kernel/.config" ]; then
            tree=$kernel
            image=$tree/arch/x86/boot/bzImage
            [ -f "$image" ] || die "KERNEL=$kernel: a kernel tree without arch/x86/boot/bzImage (make bzImage modules)"
            [ -f "$tree/vmlinux" ] && vmlinux=$tree/vmlinux
            config=$tree/.config
            release=$(cat "$tree/include/config/kernel.release")
        elif [ -d "$kernel/lib/modules" ]; then
            install_root "$kernel"
        else
            die "KERNEL=$kernel: neither a kernel tree (.config, Makefile), an install root (boot/, lib/modules/) nor a bzImage"
        fi ;;
esac
if [ -n "${KCONFIG:-}" ]; then
    [ -f "$KCONFIG" ] || die "KCONFIG=$KCONFIG: no such file"
    config=$KCONFIG
fi
# None found: the one built in (CONFIG_IKCONFIG), read below from the
# uncompressed kernel.
[ -f "$config" ] || config=

# ---- the uncompressed kernel ----------------------------------------------

# unpack_vmlinux BZIMAGE OUT: the kernel inside a bzImage, from its first
# xz, zstd or gzip stream that decompresses to an ELF file.
unpack_vmlinux() {
    for m in '\xfd7zXZ\x00:xz -dc --single-stream' '\x28\xb5\x2f\xfd:zstd -dcq' \
        '\x1f\x8b\x08:gzip -dc'; do
        for off in $(LC_ALL=C grep -obUaP "${m%%:*}" "$1" | head -n 4 | cut -d: -f1); do
            # shellcheck disable=SC2086
            tail -c +$((off + 1)) "$1" | ${m#*:} > "$2" 2>/dev/null || true
            [ "$(head -c 4 "$2" | od -An -c | tr -d ' ')" = 177ELF ] && return 0
        done
    done
    rm -f "$2"
    return 1
}

tmp=$out/vmlinux.tmp
rm -f "$tmp"
if [ -n "$vmlinux" ]; then
    cp "$vmlinux" "$tmp"
else
    unpack_vmlinux "$image" "$tmp" || true
fi
if [ -z "$config" ]; then
    [ -f "$tmp" ] || die "KERNEL=$kernel: no config (give KCONFIG=, or build it in: CONFIG_IKCONFIG)"
    off=$(LC_ALL=C grep -obUa IKCFG_ST "$tmp" | head -n 1 | cut -d: -f1)
    [ -n "$off" ] || die "KERNEL=$kernel: no config beside it or in it (give KCONFIG=)"
    tail -c +$((off + 9)) "$tmp" | gzip -dc > "$out/config.ikconfig" 2>/dev/null || true
    config=$out/config.ikconfig
fi

if ! missing=$(check_config "$config"); then
    log "KERNEL=$kernel ($release) lacks what the guest tiers need"
    log "(scripts/guest-kernel.config; its config: $config):"
    echo "$missing" >&2
    exit 1
fi

# Each driver built in (nothing to pack) or a module that must be there.
option_of() {
    case $1 in i915) echo DRM_I915 ;; vgem) echo DRM_VGEM ;; nouveau) echo DRM_NOUVEAU ;; esac
}
packed=
for d in $drivers; do
    o=$(option_of "$d")
    grep -q "^CONFIG_$o=m" "$config" || continue
    packed="$packed $d"
done
if [ -n "$packed" ] && [ -z "$mods" ] && [ -z "$tree" ]; then
    die "KERNEL=$kernel builds$packed as modules: give their tree as MODULES= (DIR/lib/modules/$release)"
fi

# ---- up to date? ------------------------------------------------------------

# The inputs by size and time (a kernel tree is rebuilt in place): the
# kernel, the config, the modules the tiers load.
manifest=$out/manifest.$$
{
    echo "kernel $kernel $release"
    echo "drivers $drivers; packed$packed; firmware $firmware $fw_wanted"
    ls -lL --time-style=full-iso "$image" "$config" | cut -d' ' -f5-
    # shellcheck disable=SC2086
    find $tree $mods -name '*.ko*' 2>/dev/null | LC_ALL=C sort |
        xargs -r ls -l --time-style=full-iso | cut -d' ' -f5- | sha256sum
    sha256sum "$top/scripts/guest-kernel.sh" "$needs" | cut -d' ' -f1
    [ ! -d "$firmware" ] || (cd "$firmware" && find . -path "./$fw_wanted" | LC_ALL=C sort)
} > "$manifest"
if [ -f "$out/modules.cpio.gz" ] && [ -f "$out/vmlinuz" ] && cmp -s "$manifest" "$out/manifest"; then
    rm -f "$manifest" "$tmp"
    log "up to date ($release, $out)"
    exit 0
fi

# ---- modules and firmware ---------------------------------------------------

if [ -n "$tree" ] && [ -n "$packed" ]; then
    # Into the output directory: nothing is written in the user's tree.
    rm -rf "$out/install"
    log "make modules_install from $tree"
    make -s -C "$tree" modules_install INSTALL_MOD_PATH="$out/install" \
        INSTALL_MOD_STRIP=1 > "$out/modules_install.log" 2>&1 ||
        die "make modules_install failed ($out/modules_install.log)"
    mods=$out/install/lib/modules/$release
fi
root=$out/root
rm -rf "$root"
mdst=$root/lib/modules/$release
mkdir -p "$mdst"
fw_names=
if [ -n "$mods" ]; then
    [ -f "$mods/modules.dep" ] || depmod -b "${mods%/lib/modules/*}" "$release" ||
        die "depmod failed on $mods"
    for d in $packed $boot_mods; do
        # modules.dep names each module with the whole list it needs.
        if ! line=$(grep -E "(^|/)$d\.ko(\.xz|\.zst|\.gz)?:" "$mods/modules.dep"); then
            case " $boot_mods " in *" $d "*) continue ;; esac
            die "CONFIG_$(option_of "$d")=m but no $d.ko in $mods"
        fi
        for f in $(echo "$line" | tr -d ':'); do
            # Shared with a module packed before (the loop decompresses).
            plain=${f%.xz}
            plain=${plain%.zst}
            plain=${plain%.gz}
            [ -f "$mdst/$plain" ] && continue
            mkdir -p "$mdst/$(dirname "$f")"
            cp "$mods/$f" "$mdst/$f"
            # busybox modprobe loads plain .ko files only.
            case $f in
                *.xz) xz -d -f "$mdst/$f" ;;
                *.zst) zstd -q -d --rm -f "$mdst/$f" ;;
                *.gz) gzip -d -f "$mdst/$f" ;;
            esac
        done
        case " $boot_mods " in *" $d "*) continue ;; esac
        fw_names="$fw_names $(modinfo -F firmware "$mdst/$(echo "$line" | cut -d: -f1 | sed 's/\.\(xz\|zst\|gz\)$//')" | tr '\n' ' ')"
    done
fi
# modules.builtin: busybox modprobe succeeds on a built-in driver.
for f in modules.order modules.builtin modules.builtin.modinfo; do
    for d in $mods $tree; do
        [ -f "$d/$f" ] && [ ! -f "$mdst/$f" ] && cp "$d/$f" "$mdst/"
    done
done
# Built-in drivers name their firmware in modules.builtin.modinfo
# (NUL-separated "module.firmware=NAME").
bmi=$mdst/modules.builtin.modinfo
if [ -f "$bmi" ]; then
    fw_names="$fw_names $(tr '\0' '\n' < "$bmi" | sed -n 's/^\(i915\|nouveau\)\.firmware=//p' | tr '\n' ' ')"
fi
[ -f "$mdst/modules.builtin" ] || touch "$mdst/modules.builtin"
[ -f "$mdst/modules.order" ] || touch "$mdst/modules.order"
depmod -b "$root" "$release"
fw_found=0 fw_missing=0
for f in $fw_names; do
    # shellcheck disable=SC2254
    case $f in $fw_wanted) ;; *) continue ;; esac
    src=
    for c in "$firmware/$f" "$firmware/$f.xz" "$firmware/$f.zst"; do
        [ -f "$c" ] && src=$c && break
    done
    if [ -z "$src" ]; then
        fw_missing=$((fw_missing + 1))
        continue
    fi
    mkdir -p "$root/lib/firmware/$(dirname "$f")"
    cp -L "$src" "$root/lib/firmware/$f${src#"$firmware/$f"}"
    fw_found=$((fw_found + 1))
done

(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
    cpio -o -H newc -R 0:0 --reproducible --quiet) | gzip -n > "$out/modules.cpio.gz.tmp"
mv "$out/modules.cpio.gz.tmp" "$out/modules.cpio.gz"

# ---- the kernel -------------------------------------------------------------

cp "$image" "$out/vmlinuz"
[ "$config" = "$out/config" ] || cp "$config" "$out/config"
rm -f "$out/config.ikconfig"
# QEMU boots an ELF kernel through PVH only when it has the PVH entry note
# (XEN_ELFNOTE_PHYS32_ENTRY, type 0x12); under TCG that skips ~6 s of
# unpacking the bzImage.
if [ -f "$tmp" ] && readelf -n "$tmp" 2>/dev/null | grep -q 'Xen.*(0x00000012)'; then
    mv "$tmp" "$out/vmlinux"
else
    rm -f "$tmp" "$out/vmlinux"
    log "no PVH-bootable vmlinux in $image: booting the bzImage"
fi
echo "$release" > "$out/release"
mv "$manifest" "$out/manifest"
built_in=
for d in $drivers; do
    case " $packed " in *" $d "*) ;; *) built_in="$built_in $d" ;; esac
done
log "kernel $release ($kernel): modules$packed${built_in:+, built in:$built_in};" \
    "firmware: $fw_found file(s) from $firmware, $fw_missing not there"
