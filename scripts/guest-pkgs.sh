# Debian package helpers of the guest image scripts (make-guest.sh,
# make-igt-image.sh, guest-kernel.sh), sourced with $g (build/guest),
# $debs (the .deb cache) and $pkgs (unpacked packages) set and log/die
# defined.
# shellcheck disable=SC2154

# apt must write nothing outside build/: as root it would rebuild its binary
# caches under /var/cache (kept in memory instead) and log its solver run to
# /var/log/apt/eipp.log.xz (dropped).  Running as root, downloads into a
# directory _apt cannot read warn unless the sandbox user is root.
APT_OPTS="-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o Dir::Log::Planner=/dev/null -o APT::Sandbox::User=root"

# resolve PKG...: print "name version" for PKG and its whole Depends closure,
# as apt would install it on an empty system (an empty dpkg status: what the
# host has installed does not matter; first alternative of each "|", no
# Recommends).  Cached until the apt lists change: apt takes seconds.
resolve() {
    key=$( (echo "$*"; ls -l --time-style=full-iso /var/lib/apt/lists/) | sha256sum | cut -c1-16)
    c=$g/resolve/$key
    if [ ! -s "$c" ]; then
        mkdir -p "$g/resolve"
        # shellcheck disable=SC2086
        apt-get $APT_OPTS -s -q -o Dir::State::status=/dev/null \
            -o APT::Install-Recommends=0 install "$@" 2>/dev/null |
            sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1 \2/p' > "$c.tmp"
        mv "$c.tmp" "$c"
    fi
    cat "$c"
}

# deb PKG VERSION: print the path of the cached .deb, downloading it first.
# Older cached versions of PKG go once the new one is in.
deb() {
    # apt-get download names files pkg_version_arch.deb, ':' written as %3a.
    v=$(printf '%s' "$2" | sed 's/:/%3a/g')
    for f in "$debs/$1_${v}"_*.deb; do
        [ -f "$f" ] && { echo "$f"; return 0; }
    done
    log "downloading $1 $2"
    # shellcheck disable=SC2086
    if (cd "$debs" && apt-get $APT_OPTS -qq download "$1=$2" >&2); then
        for f in "$debs/$1_${v}"_*.deb; do
            [ -f "$f" ] || continue
            for old in "$debs/$1"_*.deb; do
                [ "$old" = "$f" ] || rm -f "$old"
            done
            echo "$f"
            return 0
        done
    fi
    # Offline: fall back to the newest cached version.
    f=$(find "$debs" -maxdepth 1 -name "$1_*.deb" | sort -V | tail -n 1)
    [ -n "$f" ] || die "cannot download $1 $2 and none is cached"
    log "warning: using cached $(basename "$f") instead of $1 $2"
    echo "$f"
}

# unpack DEB: print the directory DEB is unpacked in, unpacking it once.
unpack() {
    d=$pkgs/$(basename "$1" .deb)
    if [ ! -f "$d/.unpacked" ]; then
        rm -rf "$d"
        dpkg-deb -x "$1" "$d"
        touch "$d/.unpacked"
    fi
    echo "$d"
}

# prune_unpacked DIR: remove the unpacked trees of other versions of DIR's
# package (an older kernel is ~400 MB); other packages' trees stay.
prune_unpacked() {
    pu_name=$(basename "$1" | cut -d_ -f1)
    for pu_d in "$pkgs/${pu_name}"_*; do
        [ "$pu_d" = "$1" ] || [ ! -d "$pu_d" ] || rm -rf "$pu_d"
    done
}

# copy_needed ROOT LIBDIRS FILE...: copy into ROOT/lib/x86_64-linux-gnu the
# shared libraries FILEs need (DT_NEEDED, transitively), found in the
# directories of LIBDIRS (a space-separated list).  Libraries already in
# $needed_seen are skipped; each one copied is added to it.
needed_seen=" "
copy_needed() {
    cn_root=$1 cn_dirs=$2
    shift 2
    cn_todo=$*
    while [ -n "$cn_todo" ]; do
        cn_next=
        for cn_f in $cn_todo; do
            for cn_so in $(readelf -d "$cn_f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
                case "$needed_seen" in *" $cn_so "*) continue ;; esac
                [ -e "$cn_root/lib/x86_64-linux-gnu/$cn_so" ] && continue
                needed_seen="$needed_seen$cn_so "
                cn_src=
                for cn_d in $cn_dirs; do
                    [ -e "$cn_d/$cn_so" ] && { cn_src=$cn_d/$cn_so; break; }
                done
                [ -n "$cn_src" ] || die "$cn_so (needed by $(basename "$cn_f")) not found"
                cp -L "$cn_src" "$cn_root/lib/x86_64-linux-gnu/$cn_so"
                cn_next="$cn_next $cn_root/lib/x86_64-linux-gnu/$cn_so"
            done
        done
        cn_todo=$cn_next
    done
}
