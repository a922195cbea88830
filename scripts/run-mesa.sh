#!/bin/sh
# The Mesa tier: the project's GLES smoke programs (tests/mesa/gl-smoke.c)
# run in the guest on intel-gpu through Debian's Mesa (iris) and Debian's
# stock i915, and each image is compared with the same program's on the
# host through llvmpipe, Mesa's CPU renderer (tests/mesa/README.md).
#
#   scripts/run-mesa.sh [--tap] [--cases CASE,CASE] [--timeout SECS]
#                       [--out DIR] [--append ARGS] [-- QEMU-ARGS...]
#
#   --tap           TAP only (for meson's mesa suite); otherwise the TAP,
#                   then a line of figures
#   --cases CASE,CASE
#                   gl-smoke's cases to run (default: all, as gl-smoke
#                   --cases lists)
#   --timeout SECS  the guest's wall-clock limit (default 1800)
#   --out DIR       the guest's logs (default build/mesa/out)
#   --append ARGS   more kernel command line (INTEL_DEBUG=bat prints
#                   iris's batches into each case's section;
#                   tests/mesa/mesa-checks.sh)
#   -- QEMU-ARGS    passed on to QEMU (the device's guest_errors and unimp
#                   log always goes to DIR/qemu-debug.log, its most
#                   frequent lines into the TAP)
#
# Steps: the host packages it needs (libegl-dev, libgles-dev for the
# headers and libraries, libegl-mesa0 and libgl1-mesa-dri for llvmpipe,
# mesa-utils) are installed with apt when missing; gl-smoke is built and
# run on the host with llvmpipe (LIBGL_ALWAYS_SOFTWARE=1, EGL's
# surfaceless platform) into build/mesa/llvmpipe/gl-CASE.out; the archive
# build/mesa/mesa.cpio.gz carries the program and
# tests/mesa/mesa-checks.sh into the guest, which scripts/run-guest.sh
# --profile mesa boots (the Debian root of scripts/make-guest-root.sh);
# tests/mesa/mesa_tier.py makes the verdicts, with the cases
# tests/mesa/mesa-expected.txt lists as failing.  Exit status 0 when
# every check passed.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build/mesa
python=${PYTHON:-/usr/bin/python3}
cases=
limit=1800
out=$b/out
append=
want_tap=0

while [ $# -gt 0 ]; do
    case $1 in
        --tap) want_tap=1 ;;
        --cases) cases=$2; shift ;;
        --timeout) limit=$2; shift ;;
        --out) out=$2; shift ;;
        --append) append="$append $2"; shift ;;
        --) shift; break ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
        *) echo "run-mesa: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case $cases in
    *[!a-z0-9,-]*) echo "run-mesa: --cases takes names separated by commas" >&2; exit 2 ;;
esac

. "$top/scripts/userspace-tier.sh"
log() { echo "run-mesa: $*" >&2; }
die() { log "error: $*"; exit 1; }

tier_packages libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri mesa-utils

# ---- the program, and llvmpipe's images -----------------------------------

stage=$b/initrd-add
rm -rf "$stage" "$b/llvmpipe"
mkdir -p "$b/llvmpipe" "$stage/gpumodel/bin"
${CC:-gcc} -O2 -Wall -Werror -o "$b/gl-smoke" "$top/tests/mesa/gl-smoke.c" \
    -lEGL -lGLESv2 || die "cannot build tests/mesa/gl-smoke.c (libegl-dev, libgles-dev)"
[ -n "$cases" ] || cases=$("$b/gl-smoke" --cases)
t0=$(date +%s)
for c in $(echo "$cases" | tr , ' '); do
    LIBGL_ALWAYS_SOFTWARE=1 EGL_PLATFORM=surfaceless \
        "$b/gl-smoke" --case "$c" --out "$b/llvmpipe/gl-$c.out" \
        2> "$b/llvmpipe/gl-$c.err" ||
        die "gl-smoke --case $c failed with llvmpipe: $(tail -n 3 "$b/llvmpipe/gl-$c.err")"
done
ref_secs=$(($(date +%s) - t0))

# ---- the guest --------------------------------------------------------------

cp "$b/gl-smoke" "$stage/gpumodel/bin/"
cp "$top/tests/mesa/mesa-checks.sh" "$stage/gpumodel/"
chmod 755 "$stage/gpumodel/mesa-checks.sh"
mkdir -p "$out"
out=$(cd "$out" && pwd)
tier_guest mesa "$stage" "$b/mesa.cpio.gz" "$out" "$limit" \
    "GL_CASES=$cases$append" "$b/guest-tap.txt" "$@"

# ---- verdicts ---------------------------------------------------------------

rc=0
"$python" "$top/tests/mesa/mesa_tier.py" --out "$out" --reference "$b/llvmpipe" \
    --cases "$cases" --expected "$top/tests/mesa/mesa-expected.txt" \
    "$b/guest-tap.txt" > "$b/tap.txt" || rc=1
tier_report "$b/tap.txt" "$out" "$want_tap" \
    "mesa: guest $guest_secs s (logs: ${out#"$top/"}/), llvmpipe $ref_secs s"
exit $rc
