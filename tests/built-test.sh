#!/bin/sh
# Run a test whose program lives in another build directory, for `meson
# test` in build/unit: the qtests of build/qemu and build/qemu-fuzz, the
# unit tests of build/sanitize, the guest tiers on build/qemu's QEMU.
# Meson declares these tests from the source tree, whether or not those
# builds exist yet: a test whose files are missing fails, saying what to
# build, rather than passing or vanishing.
#
#   tests/built-test.sh HINT [--need FILE]... [--] COMMAND [ARGS...]
#
# COMMAND and every FILE must exist (and COMMAND be executable); if one
# does not, print "Bail out! FILE missing: run HINT" (TAP) and fail.
# Otherwise run COMMAND with ARGS.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
hint=$1
shift
need=
while [ $# -gt 0 ]; do
    case $1 in
        --need) need="$need
$2"; shift 2 ;;
        --) shift; break ;;
        *) break ;;
    esac
done

missing() {
    echo "Bail out! ${1#"$top"/} missing: run $hint"
    echo "built-test: ${1#"$top"/} missing: run $hint" >&2
    exit 1
}

if [ ! -f "$1" ] || [ ! -x "$1" ]; then
    missing "$1"
fi
# One FILE a line (no FILE has a newline in its name).
printf '%s\n' "$need" | while IFS= read -r f; do
    [ -z "$f" ] || [ -e "$f" ] || missing "$f"
done || exit 1
exec "$@"
