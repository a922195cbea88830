#!/bin/sh
# The IGT tier: IGT 1.27.1's own tests, run by its igt_runner in the test
# guest on intel-gpu (Debian's stock kernel and i915), with verdicts in
# IGT's terms.  `make igt` runs it; `make check` too.
#
#   scripts/run-igt.sh [--tap] [options]
#
#   --tap             TAP, one line per list entry and pass, for make check
#   --list NAME       a list of tests/igt/ (NAME.testlist; repeatable;
#                     default: bat, perf, tiling, rc6 and render; with
#                     --nv, prime-nv)
#   --nv              both GPUs in each guest: -device nv-gpu at 03.0
#                     beside intel-gpu, i915 and then nouveau bound before
#                     the tests (IGT's prime_nv tests share buffers
#                     between them), judged against
#                     tests/igt/xfails/i915-nouveau-icl-g84.  Results in
#                     build/igt/out-nv/, the guests' logs in
#                     build/guest/out-igt-nv/
#   --order HOW       listed (default), reversed or shuffle
#   --seed N          the shuffle's seed (default: a new one, printed)
#   --passes N        run the list N times back to back in each guest
#   --shards N        N guests at once (default 2), each on every Nth entry
#                     (the first and last entries, which load and reload
#                     i915, in each); -icount runs a guest on one host
#                     thread, so one per core keeps the cores busy
#   --shard K/N       only part K of N of the run's order, split as drm-ci
#                     splits a list over GitLab's parallel jobs (sed -n
#                     K~Np in the Linux tree's drivers/gpu/drm/ci/
#                     igt_runner.sh): entry i (from 1) goes to part
#                     ((i - 1) mod N) + 1.  One guest (--shards M: M
#                     guests, each on every Mth entry of the part); the
#                     drill in part 1 only.  Results in
#                     build/igt/shards/K-of-N/ (below), where
#                     `igt_tier.py report` merges the parts (ci/gitlab/)
#   --xfails PREFIX   the expectations, in drm-ci's form: PREFIX-fails.txt,
#                     -flakes.txt, -skips.txt (default
#                     tests/igt/xfails/i915-icl; tests/igt/README.md)
#   --test-timeout S  per-test timeout of igt_runner (default 120)
#   --cpus N          vCPUs of each guest (default 1).  With -icount, TCG
#                     runs the vCPUs in turn on one host thread and may
#                     stop one at any instruction for a whole slice of the
#                     other's work: a window far beyond hardware's for
#                     i915's signal_irq_work, which reads a request after
#                     dropping its reference (see tests/igt/README.md)
#   --accel A         tcg (default) or kvm (run-guest.sh --accel)
#   --icount N|off    the guest's clock (run-guest.sh --icount; tcg only):
#                     2^N ns per guest instruction, idle time skipped
#                     (default 0).  The tier's timing bounds then hold on
#                     any host, loaded or not; off: the host's clock, and
#                     the bounds move with the host's speed
#   --perf-cost       no tests: where the kernel time of IGT's perf@blocking
#                     loop goes in this guest (i915-perf-probe cost, 10 s;
#                     docs/intel-gpu-oa.rst), printed and in perf-cost.txt
#   --no-drill        leave out the engine-freeze drill that follows the
#                     passes (tests/igt/drill.testlist)
#   --timeout S       the limit on each guest (default: 900 + 150 s per
#                     entry and pass)
#   --dry-run         no image, no guests: print each guest's list
#                     ("# guest K" and its entries) and stop
#   -- QEMU-ARGS      passed on to QEMU
#
# Environment: IGT_LISTS, IGT_ORDER, IGT_SEED, IGT_PASSES, IGT_TEST_TIMEOUT,
# IGT_DRILL=0|1, IGT_ICOUNT, IGT_SHARDS, IGT_SHARD, IGT_XFAILS, IGT_CPUS (the
# same, for make igt); GUEST_PREBUILT=1 (no image build: build/guest/ as it
# is, scripts/run-guest.sh); KERNEL,
# MODULES, KCONFIG: the kernel the guests boot (scripts/guest-kernel.sh).
#
# Results (build/igt/out/, replaced at every run): igt.list (the run's
# order), shard-K/ (guest K's list, TAP and results directories),
# pass-N/results.json (igt_results' results of pass N, the guests'
# merged), times-N.txt (the guest seconds of each entry, longest first),
# drill/ (the drill's results, from guest 1), summary.txt, tap.txt,
# shard-K-stall-*.txt (i915's engine state when a test made no progress
# for a minute), and the guests' logs in build/guest/out-igt/shard-K/
# (console.log, data.log with the runner's output); junit.xml (the
# verdicts as JUnit XML).  With --shard K/N: build/igt/shards/K-of-N/
# instead, the same files, run.list (the whole run's order) besides
# igt.list (this part's), and the guests' logs in guests/.
# Expectations: tests/igt/xfails/ (drm-ci's form).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
t=$top/tests/igt
out=$top/build/igt/out
gout=$top/build/guest/out-igt
python=${PYTHON:-/usr/bin/python3}
lists=${IGT_LISTS:-}
how=${IGT_ORDER:-listed}
seed=${IGT_SEED:-}
passes=${IGT_PASSES:-1}
test_timeout=${IGT_TEST_TIMEOUT:-120}
drill=${IGT_DRILL:-1}
icount=${IGT_ICOUNT:-0}
shards=${IGT_SHARDS:-}
part=${IGT_SHARD:-}
xfails=${IGT_XFAILS:-}
cpus=${IGT_CPUS:-1}
limit=
accel=tcg
perf_cost=0
tap=0
nv=0
dry=0

while [ $# -gt 0 ]; do
    case $1 in
        --tap) tap=1 ;;
        --list) lists="$lists $2"; shift ;;
        --nv) nv=1 ;;
        --order) how=$2; shift ;;
        --seed) seed=$2; shift ;;
        --passes) passes=$2; shift ;;
        --test-timeout) test_timeout=$2; shift ;;
        --no-drill) drill=0 ;;
        --accel) accel=$2; shift ;;
        --icount) icount=$2; shift ;;
        --shards) shards=$2; shift ;;
        --shard) part=$2; shift ;;
        --xfails) xfails=$2; shift ;;
        --cpus) cpus=$2; shift ;;
        --perf-cost) perf_cost=10 passes=0 drill=0 shards=1 ;;
        --timeout) limit=$2; shift ;;
        --dry-run) dry=1 ;;
        --) shift; break ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
        *) echo "run-igt: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
if [ "$nv" = 1 ]; then
    lists=${lists:-prime-nv}
    xfails=${xfails:-$t/xfails/i915-nouveau-icl-g84}
    out=$top/build/igt/out-nv
    gout=$top/build/guest/out-igt-nv
    nv_suffix=-nv
fi
lists=${lists:-bat perf tiling rc6 render}
xfails=${xfails:-$t/xfails/i915-icl}
# A CI job's part of the run boots one guest unless told otherwise.
[ -n "$shards" ] || { [ -n "$part" ] && shards=1 || shards=2; }
if [ -n "$part" ]; then
    pk=${part%/*} pn=${part#*/}
    case $part in
        */*/*|*[!0-9/]*|/*|*/) pk=x ;;
        */*) ;;
        *) pk=x ;;
    esac
    [ "$pk" != x ] || { echo "run-igt: --shard takes K/N" >&2; exit 2; }
    if [ "$pk" -lt 1 ] || [ "$pk" -gt "$pn" ]; then
        echo "run-igt: --shard K/N needs 1 <= K <= N" >&2; exit 2
    fi
    # Each part in a directory of its own, the guests' logs in it: a CI
    # job keeps it as its artifact, and the parts do not overwrite one
    # another when the merge job gathers them.
    out=$top/build/igt/shards${nv_suffix:-}/$pk-of-$pn
    gout=$out/guests
    [ "$pk" = 1 ] || drill=0
fi
case $shards in
    ''|*[!0-9]*|0) echo "run-igt: --shards takes a number of guests, 1 or more" >&2; exit 2 ;;
esac
# KVM runs on the host's clock.
[ "$accel" = tcg ] || icount=off
[ -n "$seed" ] || seed=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')

# GUEST_PREBUILT=1: the images are another job's artifacts (ci/gitlab/).
if [ "$dry" = 1 ]; then
    # The lists only: in a directory of their own, results left alone.
    out=$(mktemp -d /tmp/run-igt-dry.XXXXXX)
    trap 'rm -rf "$out"' EXIT
elif [ "${GUEST_PREBUILT:-0}" != 1 ]; then
    "$top/scripts/make-igt-image.sh" >&2
fi

[ "$dry" = 1 ] || rm -rf "$out" "$gout"
mkdir -p "$out"
files=
for l in $lists; do
    [ -f "$t/$l.testlist" ] || { echo "run-igt: no list tests/igt/$l.testlist" >&2; exit 2; }
    files="$files $t/$l.testlist"
done
# shellcheck disable=SC2086
"$python" "$t/igt_tier.py" order --order "$how" --seed "$seed" $files > "$out/run.list"
if [ -n "$part" ]; then
    "$python" "$t/igt_tier.py" order --no-pin --ci-shard "$part" "$out/run.list" > "$out/igt.list"
else
    cp "$out/run.list" "$out/igt.list"
fi
n=$(wc -l < "$out/igt.list" | tr -d ' ')
echo "run-igt: $n entries ($lists$([ -n "$part" ] && echo ", part $part")), order $how$([ "$how" = shuffle ] && echo " (seed $seed)"), $passes pass(es), per-test timeout $test_timeout s, $accel$([ "$icount" != off ] && echo " -icount shift=$icount"), $shards guest(s) of $cpus vCPU(s)" >&2

nv_device=
[ "$nv" = 0 ] || nv_device=nv-gpu,addr=03.0
# shard K QEMU-ARGS: boot guest K of the run on its part of the list; its
# logs in $gout/shard-K/, its TAP in $out/shard-K/.
shard() {
    sk=$1
    shift
    s=$out/shard-$sk
    mkdir -p "$s/run/gpumodel"
    # A CI part is split among its guests as it stands; the whole run
    # keeps the first and last entries in every guest.  The skips of the
    # expectations are left out either way.
    if [ -n "$part" ]; then
        "$python" "$t/igt_tier.py" order --no-pin --shard "$sk/$shards" \
            --xfails "$xfails" "$out/igt.list" > "$s/igt.list"
    else
        # shellcheck disable=SC2086
        "$python" "$t/igt_tier.py" order --order "$how" --seed "$seed" \
            --shard "$sk/$shards" --xfails "$xfails" $files > "$s/igt.list"
    fi
    if [ "$dry" = 1 ]; then
        echo "# guest $sk"
        cat "$s/igt.list"
        return 0
    fi
    cp "$s/igt.list" "$s/run/gpumodel/igt.list"
    (cd "$s/run" && find gpumodel | cpio -o -H newc -R 0:0 --quiet) |
        gzip -n > "$s/list.cpio.gz"
    sn=$(wc -l < "$s/igt.list" | tr -d ' ')
    # The drill and the cost probe run in the first guest only.
    sdrill=$drill src=
    [ "$sk" = 1 ] || sdrill=0
    # A part smaller than its guests, or all skips, leaves a guest nothing.
    if [ "$sn" = 0 ] && [ "$passes" -gt 0 ] && [ "$sdrill" = 0 ]; then
        echo "# guest $sk: nothing to run" > "$s/guest.tap"
        echo 0 > "$s/guest.rc"
        return 0
    fi
    "$top/scripts/run-guest.sh" --profile igt --tap --out "$gout/shard-$sk" \
        --timeout "${limit:-$((900 + 150 * sn * passes))}" --memory 6G --cpus "$cpus" \
        --accel "$accel" --icount "$icount" \
        --initrd-add "$top/build/guest/igt.cpio.gz" --initrd-add "$s/list.cpio.gz" \
        --append "IGT_PASSES=$passes IGT_TEST_TIMEOUT=$test_timeout IGT_DRILL=$sdrill IGT_PERF_COST=$perf_cost IGT_NOUVEAU=$nv" \
        -- ${nv_device:+-device "$nv_device"} "$@" > "$s/guest.tap" || src=$?
    echo "${src:-0}" > "$s/guest.rc"
}
k=1
while [ "$k" -le "$shards" ]; do
    if [ "$dry" = 1 ]; then
        shard "$k" "$@"
    else
        shard "$k" "$@" &
    fi
    k=$((k + 1))
done
wait
[ "$dry" = 0 ] || exit 0
# A CI job's artifacts: the guests' initrd is the images put together again.
[ -z "$part" ] || rm -f "$gout"/shard-*/initrd.cpio.gz
if [ "$perf_cost" != 0 ]; then
    cp "$gout/shard-1/perf-cost.txt" "$out/perf-cost.txt" 2>/dev/null || true
    cat "$out/perf-cost.txt" 2>/dev/null || echo "run-igt: no perf-cost figures (see $gout/shard-1)"
    exit 0
fi

# unpack K NAME DIR: guest K's results section NAME into DIR.
unpack() {
    if [ -s "$gout/shard-$1/igt-results-$2.txt" ] &&
        base64 -d < "$gout/shard-$1/igt-results-$2.txt" |
        tar -xzf - -C "$out/shard-$1" 2>/dev/null; then
        mv "$out/shard-$1/igt-results-$2" "$3"
    fi
}
results='' times=''
p=1
while [ "$p" -le "$passes" ]; do
    parts=
    k=1
    while [ "$k" -le "$shards" ]; do
        unpack "$k" "$p" "$out/shard-$k/pass-$p"
        parts="$parts $out/shard-$k/pass-$p/results.json"
        "$python" "$t/igt_tier.py" times --list "$out/shard-$k/igt.list" \
            "$gout/shard-$k/igt-runner-$p.txt" > "$out/shard-$k/times-$p.txt" \
            2>/dev/null || true
        k=$((k + 1))
    done
    cat "$out"/shard-*/times-"$p".txt | sort -rn > "$out/times-$p.txt"
    mkdir -p "$out/pass-$p"
    # shellcheck disable=SC2086
    "$python" "$t/igt_tier.py" merge "$out/pass-$p/results.json" $parts
    results="$results $out/pass-$p/results.json"
    times="$times --times $out/times-$p.txt"
    p=$((p + 1))
done
drill_args=
if [ "$drill" = 1 ]; then
    unpack 1 drill "$out/drill"
    drill_args="--drill $t/drill.testlist $out/drill/results.json"
fi
grc=0 guests=
k=1
while [ "$k" -le "$shards" ]; do
    [ "$(cat "$out/shard-$k/guest.rc" 2>/dev/null)" = 0 ] || grc=1
    guests="$guests --guest $out/shard-$k/igt.list $gout/shard-$k"
    for f in "$gout/shard-$k"/igt-stall-*.txt; do
        [ -f "$f" ] && cp "$f" "$out/shard-$k-${f#"$gout/shard-$k/igt-"}"
    done
    k=$((k + 1))
done

rc=0
# shellcheck disable=SC2086
"$python" "$t/igt_tier.py" summary --tap --list "$out/igt.list" \
    --xfails "$xfails" --dmesg-ignore "$t/dmesg-ignore.txt" \
    --junit "$out/junit.xml" --test-timeout "$test_timeout" $times $guests \
    $drill_args $results > "$out/tap.txt" || rc=$?
{
    echo "# order $how$([ "$how" = shuffle ] && echo ", seed $seed"), $shards guest(s)$([ -n "$part" ] && echo ", part $part"); logs in ${out#"$top"/} and ${gout#"$top"/}"
    k=1
    while [ "$k" -le "$shards" ]; do
        grep -e '^#' "$out/shard-$k/guest.tap" | sed "s/^# /# guest $k: /"
        grep '^not ok' "$out/shard-$k/guest.tap" | sed "s/^/# guest $k: /"
        k=$((k + 1))
    done
} >> "$out/tap.txt"
{
    grep '^# IGT pass' "$out/tap.txt" | sed 's/^# //'
    sed -n 's/^\(not \)\{0,1\}ok [0-9]* - \(drill: .*\)/\1\2/p' "$out/tap.txt" |
        sed 's/^not /FAILED: /'
} > "$out/summary.txt"
if [ $tap = 1 ]; then
    cat "$out/tap.txt"
else
    grep -e '^not ok' "$out/tap.txt" || true
    cat "$out/summary.txt"
fi
[ "$rc" = 0 ] && [ "$grc" = 0 ]
