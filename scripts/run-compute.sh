#!/bin/sh
# The compute tier: the project's OpenCL and Vulkan programs
# (tests/compute/) run in the guest on intel-gpu, through Intel's NEO
# runtime, Mesa's anv and Debian's stock i915, and each result is compared
# byte for byte with the same OpenCL program run on the host with PoCL
# (Debian's pocl-opencl-icd, on the CPU) or the Vulkan program's
# computation in C.
#
#   scripts/run-compute.sh [--tap] [--kernels K,K] [--size N] [--timeout SECS]
#                          [--piglit [K/N]] [--piglit-match RE]
#                          [--clpeak TEST,TEST] [--out DIR]
#                          [--append ARGS]
#                          [-- QEMU-ARGS...]
#
#   --tap           TAP only (for meson's compute suite); otherwise the TAP,
#                   then a line of figures
#   --kernels K,K   the kernels of tests/compute/cl-kernels.c to run
#                   (default: all of them, as cl-kernels --kernels lists)
#   --size N        vadd and lsum over N inputs (a multiple of 1024; their
#                   output a digest): each check gives the kernel's time
#                   in the guest and with PoCL (the compute benchmark)
#   --piglit K/N    piglit's OpenCL tests too (the cl profile of Debian's
#                   piglit), in the guest and with PoCL on the host: all of
#                   them, or the K-th of N parts (drm-ci's split: every N-th
#                   test of the sorted list from the K-th); a test that
#                   passes on PoCL must pass on intel-gpu unless
#                   tests/compute/piglit-cl-expected.txt lists it
#   --piglit-match RE
#                   only the tests whose names match the extended regular
#                   expression RE (grep -E; implies --piglit)
#   --clpeak TEST,TEST
#                   clpeak's tests in the guest (clpeak --TEST each:
#                   global-bandwidth, transfer-bandwidth, kernel-latency,
#                   compute-sp, ...); each must end with its figures
#   --timeout SECS  the guest's wall-clock limit (default 3600; with
#                   --piglit or --clpeak, 8 hours)
#   --out DIR       the guest's logs (default build/compute/out)
#   --append ARGS   more kernel command line (NEO_DEBUG=1, CL_TIMEOUT=...:
#                   tests/compute/compute-checks.sh)
#   -- QEMU-ARGS    passed on to QEMU (e.g. -trace 'intel_gpu_engine_*'; the
#                   device's guest_errors and unimp log always goes to
#                   DIR/qemu-debug.log, its most frequent lines into the TAP)
#
# Steps: the host packages it needs (ocl-icd-opencl-dev: headers and
# libOpenCL.so; pocl-opencl-icd; clinfo; libvulkan-dev; glslang-tools) are
# installed with apt when missing; tests/compute/cl-kernels.c is built
# against the ICD loader, vk-compute.c against the Vulkan loader with its
# shader compiled to SPIR-V by glslangValidator (the same binaries run on
# both sides: host and guest are bookworm); each kernel runs with PoCL
# only (OCL_ICD_VENDORS names its ICD file) into
# build/compute/pocl/KERNEL.out, vk-compute --reference into
# build/compute/c-ref/vk-reduce.out; the archive build/compute/compute.cpio.gz
# carries the program and tests/compute/compute-checks.sh into the guest,
# which scripts/run-guest.sh --profile compute boots (the Debian root of
# scripts/make-guest-root.sh); tests/compute/compute_tier.py makes the
# verdicts.  Exit status 0 when every check passed.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build/compute
python=${PYTHON:-/usr/bin/python3}
kernels=
limit=
out=$b/out
append=
want_tap=0
piglit=
piglit_match=.
clpeak=
size=

while [ $# -gt 0 ]; do
    case $1 in
        --tap) want_tap=1 ;;
        --kernels) kernels=$2; shift ;;
        --timeout) limit=$2; shift ;;
        --piglit)
            case ${2:-} in
                [0-9]*/[0-9]*) piglit=$2; shift ;;
                *) piglit=1/1 ;;
            esac ;;
        --piglit-match) piglit_match=$2; piglit=${piglit:-1/1}; shift ;;
        --clpeak) clpeak=$2; shift ;;
        --size) size=$2; shift ;;
        --out) out=$2; shift ;;
        --append) append="$append $2"; shift ;;
        --) shift; break ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
        *) echo "run-compute: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case $size in
    *[!0-9]*) echo "run-compute: --size takes a number" >&2; exit 2 ;;
esac
case $kernels,$clpeak in
    *[!a-z0-9,-]*) echo "run-compute: --kernels and --clpeak take names separated by commas" >&2; exit 2 ;;
esac
shard_k=${piglit%/*} shard_n=${piglit#*/}
if [ -n "$piglit" ] && ! { [ "$shard_k" -ge 1 ] && [ "$shard_k" -le "$shard_n" ]; } 2>/dev/null; then
    echo "run-compute: --piglit takes K/N with 1 <= K <= N" >&2
    exit 2
fi
[ -n "$limit" ] || limit=$([ -n "$piglit$clpeak" ] && echo 28800 || echo 3600)

. "$top/scripts/userspace-tier.sh"
log() { echo "run-compute: $*" >&2; }
die() { log "error: $*"; exit 1; }

# ---- host packages --------------------------------------------------------

tier_packages ocl-icd-opencl-dev pocl-opencl-icd clinfo libvulkan-dev \
    glslang-tools ${piglit:+piglit}

# ---- the program, and PoCL's results --------------------------------------

# The files compute.cpio.gz adds to the guest, staged in $stage.
stage=$b/initrd-add
rm -rf "$stage"
mkdir -p "$b/pocl" "$b/c-ref" "$stage/gpumodel/bin"
${CC:-gcc} -O2 -Wall -Werror -o "$b/cl-kernels" \
    "$top/tests/compute/cl-kernels.c" -lOpenCL ||
    die "cannot build tests/compute/cl-kernels.c (ocl-icd-opencl-dev)"
[ -n "$kernels" ] || kernels=$("$b/cl-kernels" --kernels)
glslangValidator -V --target-env vulkan1.0 --vn vk_reduce_spv \
    -o "$b/vk-reduce.h" "$top/tests/compute/vk-reduce.comp" > "$b/glslang.log" ||
    die "cannot compile tests/compute/vk-reduce.comp (glslang-tools): $(tail -n 3 "$b/glslang.log")"
${CC:-gcc} -O2 -Wall -Werror -I"$b" -o "$b/vk-compute" \
    "$top/tests/compute/vk-compute.c" -lvulkan ||
    die "cannot build tests/compute/vk-compute.c (libvulkan-dev)"
"$b/vk-compute" --reference --out "$b/c-ref/vk-reduce.out" 2> "$b/c-ref/vk-reduce.err" ||
    die "vk-compute --reference failed: $(tail -n 1 "$b/c-ref/vk-reduce.err")"
pocl_icd=/etc/OpenCL/vendors/pocl.icd
[ -f "$pocl_icd" ] || die "no $pocl_icd (pocl-opencl-icd)"
t0=$(date +%s)
for k in $(echo "$kernels" | tr , ' '); do
    # Only PoCL, its kernel cache under build/.
    OCL_ICD_VENDORS=$pocl_icd POCL_CACHE_DIR=$b/pocl/cache \
        "$b/cl-kernels" --kernel "$k" ${size:+--size "$size"} --out "$b/pocl/$k.out" \
        2> "$b/pocl/$k.err" ||
        log "PoCL: cl-kernels --kernel $k failed (status $?): $(tail -n 1 "$b/pocl/$k.err")"
done
if [ -n "$piglit" ]; then
    # The profile's tests, sorted (the guest's piglit is the same package),
    # and this part of them.
    rm -rf "$b/piglit-pocl"
    profile=$(dpkg -L piglit | grep '/piglit/tests/cl.xml.gz$')
    "$python" -c 'import gzip, sys, xml.etree.ElementTree as ET
for t in ET.parse(gzip.open(sys.argv[1])).getroot().iter("Test"):
    print(t.get("name"))' "$profile" |
        LC_ALL=C sort | sed -n "${shard_k}~${shard_n}p" | grep -E -- "$piglit_match" \
        > "$stage/gpumodel/piglit-tests.txt" || :
    [ -s "$stage/gpumodel/piglit-tests.txt" ] || die "no tests in piglit's cl profile"
    log "piglit: $(wc -l < "$stage/gpumodel/piglit-tests.txt") tests (part $piglit) with PoCL"
    OCL_ICD_VENDORS=$pocl_icd POCL_CACHE_DIR=$b/pocl/cache PIGLIT_COMPRESSION=none \
        piglit run cl -l dummy -j "$(nproc)" --timeout 900 \
        --test-list "$stage/gpumodel/piglit-tests.txt" "$b/piglit-pocl" > "$b/piglit-pocl.log" 2>&1 ||
        die "piglit with PoCL failed: $(tail -n 3 "$b/piglit-pocl.log")"
    "$python" "$top/tests/compute/piglit_summary.py" "$b/piglit-pocl" > "$b/pocl/piglit-results.txt"
    cp "$top/tests/compute/piglit_summary.py" "$stage/gpumodel/"
    append="$append PIGLIT=1"
fi
pocl_secs=$(($(date +%s) - t0))

# ---- the guest --------------------------------------------------------------

cp "$b/cl-kernels" "$b/vk-compute" "$stage/gpumodel/bin/"
cp "$top/tests/compute/compute-checks.sh" "$stage/gpumodel/"
chmod 755 "$stage/gpumodel/compute-checks.sh"
mkdir -p "$out"
out=$(cd "$out" && pwd)
tier_guest compute "$stage" "$b/compute.cpio.gz" "$out" "$limit" \
    "CL_KERNELS=$kernels${clpeak:+ CLPEAK=$clpeak}${size:+ CL_SIZE=$size}$append" \
    "$b/guest-tap.txt" "$@"

# ---- verdicts ---------------------------------------------------------------

rc=0
set --
for k in $(echo "$kernels" | tr , ' '); do
    set -- "$@" --compare "cl-$k:$b/pocl/$k.out:PoCL"
done
"$python" "$top/tests/compute/compute_tier.py" --out "$out" "$@" \
    --compare "vk-reduce:$b/c-ref/vk-reduce.out:the C reference" \
    ${piglit:+--piglit "$b/pocl/piglit-results.txt"} \
    ${clpeak:+--clpeak "$clpeak"} \
    --piglit-expected "$top/tests/compute/piglit-cl-expected.txt" \
    "$b/guest-tap.txt" > "$b/tap.txt" || rc=1
tier_report "$b/tap.txt" "$out" "$want_tap" \
    "compute: guest $guest_secs s (logs: ${out#"$top/"}/), PoCL $pocl_secs s"
exit $rc
