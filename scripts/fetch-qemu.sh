#!/bin/sh
# Unpack Debian's QEMU source package (patches applied) into $1.
#   QEMU_DEB_DIR: directory holding the .dsc and its tarballs (no download)
#   otherwise:    apt-get source from the trixie deb-src entry (scripts/deps.sh)
set -eu

QEMU_DEB_VERSION=1:10.0.13+ds-0+deb13u1
dest=$1
[ -f "$dest/VERSION" ] && exit 0

file_version=${QEMU_DEB_VERSION#*:}
work=$(dirname "$dest")/qemu-deb
mkdir -p "$work"
if [ -n "${QEMU_DEB_DIR:-}" ]; then
    dsc="$QEMU_DEB_DIR/qemu_$file_version.dsc"
    [ -f "$dsc" ] || { echo "fetch-qemu: $dsc not found" >&2; exit 1; }
else
    dsc="$work/qemu_$file_version.dsc"
    if [ ! -f "$dsc" ]; then
        (cd "$work" && apt-get source --download-only "qemu=$QEMU_DEB_VERSION")
    fi
fi
rm -rf "$dest.tmp"
dpkg-source --no-check -x "$dsc" "$dest.tmp"
mv "$dest.tmp" "$dest"
echo "fetch-qemu: $(cat "$dest/VERSION") unpacked in $dest"
