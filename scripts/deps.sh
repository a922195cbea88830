#!/bin/sh
# Install the host packages the build and the tests need (Debian bookworm).
# Idempotent: does nothing when everything is already present.
set -eu

PKGS="build-essential pkg-config ninja-build flex bison python3-venv
clang libclang-rt-14-dev
libglib2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev
dpkg-dev xz-utils zstd ccache cpio kmod libdrm-dev
seabios qemu-system-data ipxe-qemu qemu-utils"

need=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" ||
        need="$need $p"
done

# Meson >= 1.5 comes from bookworm-backports.
meson_ok() {
    v=$(/usr/bin/meson --version 2>/dev/null) || return 1
    dpkg --compare-versions "$v" ge 1.5
}

if [ -z "$need" ] && meson_ok; then
    exit 0
fi

if [ "$(id -u)" != 0 ]; then
    echo "deps: missing packages:$need (and/or meson >= 1.5); run as root" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
bp=/etc/apt/sources.list.d/gpumodel-backports.list
if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "deb http://deb.debian.org/debian bookworm-backports main" > "$bp"
fi
# deb-src for trixie: the QEMU source package, fetched only without QEMU_DEB_DIR.
src=/etc/apt/sources.list.d/gpumodel-trixie-src.list
if ! grep -rqs "^deb-src.* trixie" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "deb-src http://deb.debian.org/debian trixie main" > "$src"
fi
apt-get update -q
# shellcheck disable=SC2086
[ -z "$need" ] || apt-get install -y -q --no-install-recommends $need
meson_ok || apt-get install -y -q --no-install-recommends -t bookworm-backports meson
