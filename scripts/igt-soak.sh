#!/bin/sh
# The IGT tier again and again, on an idle host or on one made slow on
# purpose, and a table of the runs: the evidence that its verdicts do not
# depend on how fast or busy the host is.
#
#   scripts/igt-soak.sh [--runs N] [--slow F] [--hogs N] [-- RUN-IGT-ARGS]
#
#   --runs N    runs of scripts/run-igt.sh, one after the other (default 10)
#   --slow F    each run in a cgroup (v1 cpu or v2) whose CPU quota is
#               1/F of the host's cores: every QEMU of the run gets at most
#               that share, F times less than an idle host gives (as root).
#               Soaks in separate clones may run side by side, each in a
#               cgroup of its own: F of them at --slow F fill the host's
#               cores and each is still F times slower than on an idle
#               one, where memory allows (an IGT guest grows to its 6 GiB
#               over a run: two soaks take 24 GiB)
#   --hogs N    N busy loops beside the runs, outside the cgroup, for as
#               long as they last (default 0)
#   -- ARGS     passed on to scripts/run-igt.sh (e.g. --list perf)
#
# Each run's results are kept in build/igt/soak/run-K/ (summary.txt,
# tap.txt, times-*.txt; a failed run's also guest-logs/ and igt-out/,
# everything its guests and the runner left); the table is
# build/igt/soak/runs.txt, one line a run: its wall time, the verdicts,
# and the longest entry in guest seconds.  Exit status 0 when every run
# passed.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
soak=$top/build/igt/soak
runs=10
slow=
hogs=0

while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift ;;
        --slow) slow=$2; shift ;;
        --hogs) hogs=$2; shift ;;
        --) shift; break ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
        *) echo "igt-soak: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

rm -rf "$soak"
mkdir -p "$soak"

# A cgroup of the quota, one per soak (soaks in other checkouts may run
# beside this one, each with its own quota).
cg=
if [ -n "$slow" ]; then
    period=100000
    quota=$((period * $(nproc) / slow))
    if [ -d /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cgroup.procs ]; then
        cg=/sys/fs/cgroup/cpu/gpumodel-soak.$$
        mkdir -p "$cg"
        echo "$period" > "$cg/cpu.cfs_period_us"
        echo "$quota" > "$cg/cpu.cfs_quota_us"
    elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
        cg=/sys/fs/cgroup/gpumodel-soak.$$
        mkdir -p "$cg"
        echo "$quota $period" > "$cg/cpu.max"
    else
        echo "igt-soak: no cgroup cpu controller for --slow" >&2
        exit 2
    fi
fi

hog_pids=
cleanup() {
    # shellcheck disable=SC2086
    [ -z "$hog_pids" ] || kill $hog_pids 2>/dev/null || true
    [ -z "$cg" ] || rmdir "$cg" 2>/dev/null || true
}
trap cleanup EXIT INT TERM
i=0
while [ "$i" -lt "$hogs" ]; do
    sh -c 'while :; do :; done' &
    hog_pids="$hog_pids $!"
    i=$((i + 1))
done

rev=$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)
echo "# $runs run(s) of scripts/run-igt.sh${*:+ $*} at $rev; $(nproc) cores${slow:+, CPU quota 1/$slow of them}, $hogs hog(s)" |
    tee "$soak/runs.txt"
bad=0
k=1
while [ "$k" -le "$runs" ]; do
    t0=$(date +%s)
    rc=0
    if [ -n "$cg" ]; then
        sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
            "$top/scripts/run-igt.sh" "$@" > "$soak/run-$k.log" 2>&1 || rc=$?
    else
        "$top/scripts/run-igt.sh" "$@" > "$soak/run-$k.log" 2>&1 || rc=$?
    fi
    secs=$(($(date +%s) - t0))
    mkdir -p "$soak/run-$k"
    cp "$top"/build/igt/out/summary.txt "$top"/build/igt/out/tap.txt \
        "$top"/build/igt/out/times-*.txt "$soak/run-$k/" 2>/dev/null || true
    longest=$(head -n 1 "$soak/run-$k/times-1.txt" 2>/dev/null | sed 's/^ *//')
    failed=$(grep -c '^not ok' "$soak/run-$k/tap.txt" 2>/dev/null || true)
    if [ "$rc" != 0 ]; then
        # The next run replaces them: a failed run keeps its guests' logs
        # (console, data channel, the runner's results) for the diagnosis.
        bad=$((bad + 1))
        cp -a "$top/build/guest/out-igt" "$soak/run-$k/guest-logs" 2>/dev/null || true
        cp -a "$top/build/igt/out" "$soak/run-$k/igt-out" 2>/dev/null || true
    fi
    verdicts=$(sed -n 's/^IGT pass 1: \(.*\) (.*); \([0-9]*\) s$/\1; guest time \2 s/p' \
        "$soak/run-$k/summary.txt" 2>/dev/null)
    echo "run $k: $([ "$rc" = 0 ] && echo passed || echo FAILED) in $secs s:" \
        "${verdicts:-no summary}; ${failed:-?} not ok; longest entry" \
        "${longest:-?}" | tee -a "$soak/runs.txt"
    k=$((k + 1))
done
echo "# $((runs - bad)) of $runs passed" | tee -a "$soak/runs.txt"
[ "$bad" = 0 ]
