#!/bin/sh
# The jobs of ci/gitlab/gpumodel-igt.yml: IGT's own tests on -device
# intel-gpu as a GitLab pipeline, in drm-ci's form (the Linux tree's
# drivers/gpu/drm/ci/: igt_runner.sh, test.yml, xfails/).  The YAML only
# calls this script, so that a job runs the same by hand.
#
#   ci/gitlab/igt-job.sh build     QEMU with the devices, the guest image
#                                  and IGT's overlay: gpumodel-ci/build.tar
#   ci/gitlab/igt-job.sh test      part $CI_NODE_INDEX of $CI_NODE_TOTAL of
#                                  the list in one guest (scripts/run-igt.sh
#                                  --shard): gpumodel-ci/shards/K-of-N/;
#                                  with GPUMODEL_IGT_NV=1 both GPUs in the
#                                  guest (run-igt.sh --nv):
#                                  gpumodel-ci/shards-nv/K-of-N/
#   ci/gitlab/igt-job.sh report    the parts merged and judged against the
#                                  expectations: gpumodel-ci/report/
#                                  (results.json, junit.xml, summary.txt,
#                                  tap.txt, failures.csv); with
#                                  GPUMODEL_IGT_NV=1 those of shards-nv/ in
#                                  gpumodel-ci/report-nv/
#   ci/gitlab/igt-job.sh --help
#
# It runs in the CI project's directory (the current one: GitLab starts a
# job's script there; gitlab-ci-local --force-shell-executor leaves
# CI_PROJECT_DIR at the image's /builds/... path), where gpumodel-ci/
# goes; gpumodel's checkout is
# $GPUMODEL_DIR there (default gpumodel; "." when the project is gpumodel
# itself), cloned from $GPUMODEL_REPO at $GPUMODEL_REF when it is not
# there (a kernel tree that includes the YAML).
#
# Variables (ci/gitlab/README.md):
#   GPUMODEL_IGT_LISTS   lists of tests/igt/ (default: the whole tier,
#                        bat perf tiling rc6 render)
#   GPUMODEL_IGT_DRILL   1 (default): the engine-freeze drill in part 1
#   GPUMODEL_IGT_XFAILS  the expectations' prefix, in gpumodel's checkout
#                        (default tests/igt/xfails/i915-icl)
#   GPUMODEL_IGT_NV      1: -device nv-gpu beside intel-gpu, i915 and
#                        nouveau bound (run-igt.sh --nv; its lists and
#                        expectations unless the two above are set)
#   GPUMODEL_ACCEL       tcg (default), kvm, or auto: kvm only when a boot
#                        test of the guest tier passes under it here
#   GPUMODEL_KERNEL      the kernel the guests boot (scripts/guest-kernel.sh's
#                        KERNEL; default Debian bookworm's 6.1)
#   IGT_TARBALL          IGT 1.27.1's release source (scripts/build-igt.sh)
#   GPUMODEL_CACHE       where Debian's packages are kept (make-guest.sh),
#                        relative to the project's directory
set -eu

cmd=${1:-}
case $cmd in
    build|test|report) ;;
    -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
    *) echo "igt-job: build, test or report (see --help)" >&2; exit 2 ;;
esac

proj=$(pwd)
gdir=${GPUMODEL_DIR:-gpumodel}
case $gdir in /*) ;; *) gdir=$proj/$gdir ;; esac
ci=$proj/gpumodel-ci
nv=${GPUMODEL_IGT_NV:-0}
nv_suffix=
if [ "$nv" = 1 ]; then
    lists=${GPUMODEL_IGT_LISTS:-prime-nv}
    xfails=${GPUMODEL_IGT_XFAILS:-tests/igt/xfails/i915-nouveau-icl-g84}
    nv_suffix=-nv
else
    lists=${GPUMODEL_IGT_LISTS:-bat perf tiling rc6 render}
    xfails=${GPUMODEL_IGT_XFAILS:-tests/igt/xfails/i915-icl}
fi
drill=${GPUMODEL_IGT_DRILL:-1}
accel=${GPUMODEL_ACCEL:-tcg}
[ -z "${GPUMODEL_KERNEL:-}" ] || export KERNEL="$GPUMODEL_KERNEL"
# The package cache (a GitLab cache: path) is the project's, not gpumodel's.
case ${GPUMODEL_CACHE:-} in
    ''|/*) ;;
    *) export GPUMODEL_CACHE="$proj/$GPUMODEL_CACHE" ;;
esac

log() { echo "igt-job $cmd: $*" >&2; }

# A kernel tree's pipeline has no gpumodel checkout of its own.
if [ ! -f "$gdir/scripts/run-igt.sh" ]; then
    [ -n "${GPUMODEL_REPO:-}" ] || { log "no gpumodel in $gdir and no GPUMODEL_REPO"; exit 1; }
    command -v git > /dev/null || { apt-get update -q && apt-get install -y -q git; }
    git clone --depth 1 --branch "${GPUMODEL_REF:-main}" "$GPUMODEL_REPO" "$gdir"
fi
gdir=$(cd "$gdir" && pwd)
mkdir -p "$ci"

# The outputs of the build that the guests need, and nothing of the
# trees they were made from: QEMU's binary (and qemu.qmp, which
# run-guest.sh's host agent imports from QEMU's source), the kernel, the
# guest image and IGT's overlay.
if [ "$cmd" = build ]; then
    # The project's own dependency step (make deps), without make.
    sh "$gdir/scripts/deps.sh"
    cd "$gdir"
    make qemu igt-image
    kdir=$(scripts/guest-kernel.sh --dir)
    kdir=${kdir#"$gdir"/}
    case $kdir in /*) log "the kernel's $kdir is not in $gdir"; exit 1 ;; esac
    # shellcheck disable=SC2046 # a path of build/, no blanks
    tar -cf "$ci/build.tar" build/qemu/qemu-system-x86_64 build/qemu-src/python build/guest/initramfs.cpio.gz \
        build/guest/manifest build/guest/igt.cpio.gz build/guest/igt-manifest \
        "$kdir/vmlinuz" "$kdir/modules.cpio.gz" "$kdir/config" "$kdir/release" \
        $([ -f "$kdir/vmlinux" ] && echo "$kdir/vmlinux")
    log "$(du -h "$ci/build.tar" | cut -f1) in gpumodel-ci/build.tar"
    exit 0
fi

if [ "$cmd" = test ]; then
    sh "$gdir/scripts/deps.sh"
    [ -f "$ci/build.tar" ] || { log "no gpumodel-ci/build.tar: the build job's artifact"; exit 1; }
    tar -xf "$ci/build.tar" -C "$gdir"
    k=${CI_NODE_INDEX:-1} n=${CI_NODE_TOTAL:-1}
    # KVM only where the guest boots under it: a nested KVM may start the
    # kernel and stop after its decompression (as on gpumodel's own
    # machines), so a boot test of the guest tier decides, bounded.
    if [ "$accel" = auto ]; then
        accel=tcg
        if [ -w /dev/kvm ] && GUEST_PREBUILT=1 GUEST_TIMEOUT=240 \
            "$gdir/scripts/run-guest.sh" --accel kvm --out "$ci/kvm-boot" \
            > "$ci/kvm-boot.tap" 2>&1; then
            accel=kvm
        fi
        log "accelerator: $accel (boot test in gpumodel-ci/kvm-boot/)"
    fi
    set -- --shard "$k/$n" --accel "$accel" --xfails "$gdir/$xfails"
    [ "$drill" = 1 ] || set -- "$@" --no-drill
    [ "$nv" != 1 ] || set -- "$@" --nv
    for l in $lists; do set -- "$@" --list "$l"; done
    rc=0
    GUEST_PREBUILT=1 "$gdir/scripts/run-igt.sh" "$@" || rc=$?
    parts=shards$nv_suffix
    mkdir -p "$ci/$parts"
    rm -rf "$ci/$parts/$k-of-$n"
    if [ -d "$gdir/build/igt/$parts/$k-of-$n" ]; then
        cp -R "$gdir/build/igt/$parts/$k-of-$n" "$ci/$parts/"
    else
        log "part $k of $n left no results"
    fi
    exit "$rc"
fi

# report: only Python is needed.
command -v python3 > /dev/null ||
    { apt-get update -q && apt-get install -y -q --no-install-recommends python3; }
set -- --out "$ci/report$nv_suffix" --xfails "$gdir/$xfails" \
    --dmesg-ignore "$gdir/tests/igt/dmesg-ignore.txt" --test-timeout 120
[ "$drill" != 1 ] || set -- "$@" --drill "$gdir/tests/igt/drill.testlist"
# shellcheck disable=SC2046 # the parts' directories have no blanks
exec python3 "$gdir/tests/igt/igt_tier.py" report "$@" $(ls -d "$ci/shards$nv_suffix"/*-of-* 2>/dev/null)
