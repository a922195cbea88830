#!/bin/sh
# Mesa's descriptions of the Intel GPUs' commands and structures
# (src/intel/genxml/*.xml), for the unit test that checks
# hw/gpumodel/intel/gen11-state.desc against them
# (tests/unit/genxml-check.py).  Prints the directory that holds them.
#
#   scripts/fetch-genxml.sh
#
# Source: Debian's mesa source package, through apt's deb-src entries
# (scripts/deps.sh adds trixie's: Mesa 25.0): `apt-get source
# --download-only mesa`, then the genxml files out of its orig tarball.
# As root, a missing deb-src entry is added and the Sources index fetched
# (apt-get update) first, as scripts/deps.sh does for packages.
#
# Cache: the files are kept in $GENXML_CACHE (default
# /var/cache/gpumodel/mesa/genxml as root, else
# ~/.cache/gpumodel/mesa/genxml), so a machine fetches them once.
# GENXML_CACHE= (empty) keeps them in build/genxml instead.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)

log() { echo "fetch-genxml: $*" >&2; }
die() { log "error: $*"; exit 1; }

if [ -z "${GENXML_CACHE+set}" ]; then
    if [ "$(id -u)" = 0 ]; then
        GENXML_CACHE=/var/cache/gpumodel/mesa/genxml
    else
        GENXML_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/gpumodel/mesa/genxml
    fi
fi
dir=${GENXML_CACHE:-$top/build/genxml}

# gen110.xml and the files its <import> chain reaches.
need="gen110.xml gen90.xml gen80.xml gen75.xml gen70.xml gen60.xml
gen50.xml gen45.xml gen40.xml"
have() {
    for f in $need; do
        [ -s "$dir/$f" ] || return 1
    done
}
if have; then
    echo "$dir"
    exit 0
fi

command -v apt-get > /dev/null || die "no apt-get: put Mesa's src/intel/genxml/*.xml in $dir"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fetch-genxml.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt downloads as its _apt user when that user may write there.
if [ "$(id -u)" = 0 ] && id _apt > /dev/null 2>&1; then
    chown _apt "$tmp"
fi

# Only the download: no unpacking (dpkg-source), no signature check of
# the .dsc beyond apt's own (the Sources index is signed, the files
# hashed in it).
fetch() {
    (cd "$tmp" && apt-get source -q --download-only mesa) >&2
}
if ! fetch; then
    [ "$(id -u)" = 0 ] || die "apt-get source mesa failed: run as root (or scripts/deps.sh) so that a deb-src entry and its Sources index are there"
    src=/etc/apt/sources.list.d/gpumodel-trixie-src.list
    if ! grep -rqs "^deb-src.* trixie" /etc/apt/sources.list /etc/apt/sources.list.d/; then
        echo "deb-src http://deb.debian.org/debian trixie main" > "$src"
    fi
    log "fetching the Sources index (apt-get update)"
    apt-get update -q >&2
    fetch || die "apt-get source --download-only mesa failed"
fi

set -- "$tmp"/mesa_*.orig.tar.*
[ -f "$1" ] || die "no mesa orig tarball among: $(ls "$tmp")"
log "extracting src/intel/genxml from $(basename "$1")"
tar -xf "$1" -C "$tmp" --wildcards 'mesa-*/src/intel/genxml/*.xml'
mkdir -p "$(dirname "$dir")"
rm -rf "$dir.new"
mkdir "$dir.new"
cp "$tmp"/mesa-*/src/intel/genxml/*.xml "$dir.new/"
basename "$1" > "$dir.new/SOURCE"
# Another run may have filled the cache meanwhile: keep either whole.
rm -rf "$dir"
mv "$dir.new" "$dir"
have || die "$dir lacks some of: $need"
echo "$dir"
