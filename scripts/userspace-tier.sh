# shellcheck shell=sh disable=SC2154,SC2034 # $top is the caller's, and so
# is guest_secs, which tier_guest sets for it.
#
# Shell functions of the user-space tiers' host sides (run-compute.sh,
# run-mesa.sh), which source this file: the host packages, booting the
# Debian root's guest with the tier's archive, and the TAP report after
# the verdicts.  They read $top (the project) and die() (the caller's).

# tier_packages PKG...: install the Debian packages missing on the host
# (apt-get, as root).
tier_packages() {
    tp_need=
    for tp in "$@"; do
        dpkg-query -W -f='${Status}\n' "$tp" 2>/dev/null | grep -q "ok installed" ||
            tp_need="$tp_need $tp"
    done
    [ -n "$tp_need" ] || return 0
    [ "$(id -u)" = 0 ] || die "missing packages:$tp_need; run as root"
    # shellcheck disable=SC2086
    { apt-get update -q &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
          --no-install-recommends $tp_need; } >&2
}

# tier_guest PROFILE STAGE ARCHIVE OUT LIMIT APPEND TAP [QEMU-ARGS...]:
# pack STAGE (the files the tier adds to the guest) into ARCHIVE, boot
# run-guest.sh --profile PROFILE with it and the kernel command line
# APPEND for at most LIMIT seconds, logs in OUT, its TAP into TAP.  The
# device's own log of what the guest did that the model rejects or lacks
# (qemu_log_mask: LOG_GUEST_ERROR, LOG_UNIMP) goes to OUT/qemu-debug.log.
# Sets guest_secs.
tier_guest() {
    tg_profile=$1 tg_stage=$2 tg_archive=$3 tg_out=$4 tg_limit=$5
    tg_append=$6 tg_tap=$7
    shift 7
    (cd "$tg_stage" && find . -mindepth 1 | LC_ALL=C sort |
        cpio -o -H newc -R 0:0 --reproducible --quiet) | gzip -n > "$tg_archive"
    tg_t0=$(date +%s)
    "$top/scripts/run-guest.sh" --profile "$tg_profile" --tap --out "$tg_out" \
        --timeout "$tg_limit" --initrd-add "$tg_archive" --append "$tg_append" -- \
        -d guest_errors,unimp -D "$tg_out/qemu-debug.log" "$@" > "$tg_tap" || :
    guest_secs=$(($(date +%s) - tg_t0))
}

# tier_report TAP OUT WANT_TAP FIGURES: TAP (the verdicts) with FIGURES
# and the device log's most frequent lines (numbers made N) as comments,
# written back and printed; unless WANT_TAP is 1, then a line "N checks
# passed".
tier_report() {
    tr_tap=$1 tr_out=$2 tr_want_tap=$3 tr_figures=$4
    {
        cat "$tr_tap"
        echo "# $tr_figures"
        if [ -s "$tr_out/qemu-debug.log" ]; then
            echo "# the device's log (qemu-debug.log), $(wc -l < "$tr_out/qemu-debug.log") lines; the most frequent:"
            sed 's/0x[0-9a-f]*/0x_/g; s/[0-9][0-9]*/N/g' "$tr_out/qemu-debug.log" |
                sort | uniq -c | sort -rn | head -n 8 | sed 's/^/#   /'
        fi
    } > "$tr_tap.tmp"
    mv "$tr_tap.tmp" "$tr_tap"
    cat "$tr_tap"
    [ "$tr_want_tap" = 1 ] || grep -c '^ok ' "$tr_tap" | sed 's/$/ checks passed/'
}
