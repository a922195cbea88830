#!/bin/sh
# The IGT tier: IGT 1.27.1's own tests, run by its igt_runner in the test
# guest on intel-gpu (Debian's stock kernel and i915), with verdicts in
# IGT's terms.  `make igt` runs it; `make check` too.
#
#   scripts/run-igt.sh [--tap] [options]
#
#   --tap             TAP, one line per list entry and pass, for make check
#   --list NAME       a list of tests/igt/ (NAME.testlist; repeatable;
#                     default: bat, perf, tiling, rc6 and render)
#   --order HOW       listed (default), reversed or shuffle
#   --seed N          the shuffle's seed (default: a new one, printed)
#   --passes N        run the list N times back to back in one guest
#   --test-timeout S  per-test timeout of igt_runner (default 120)
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
#   --timeout S       the limit on the whole guest (default: 900 + 150 s
#                     per entry and pass)
#   -- QEMU-ARGS      passed on to QEMU
#
# Environment: IGT_LISTS, IGT_ORDER, IGT_SEED, IGT_PASSES, IGT_TEST_TIMEOUT,
# IGT_DRILL=0|1, IGT_ICOUNT (the same, for make igt).
#
# Results (build/igt/out/, replaced at every run): igt.list (the run's
# order), pass-N/ (igt_runner's results directory, with igt_results'
# results.json), times-N.txt (the guest seconds of each entry, longest
# first), drill/ (the same for the drill), summary.txt, tap.txt,
# stall-*.txt (i915's engine state when a test made no progress for a
# minute), and the guest's logs in
# build/guest/out-igt/ (console.log, data.log with the runner's output).
# Expected failures: tests/igt/expected-failures.txt.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
t=$top/tests/igt
out=$top/build/igt/out
python=${PYTHON:-/usr/bin/python3}
lists=${IGT_LISTS:-}
how=${IGT_ORDER:-listed}
seed=${IGT_SEED:-}
passes=${IGT_PASSES:-1}
test_timeout=${IGT_TEST_TIMEOUT:-120}
drill=${IGT_DRILL:-1}
icount=${IGT_ICOUNT:-0}
limit=
accel=tcg
perf_cost=0
tap=0

while [ $# -gt 0 ]; do
    case $1 in
        --tap) tap=1 ;;
        --list) lists="$lists $2"; shift ;;
        --order) how=$2; shift ;;
        --seed) seed=$2; shift ;;
        --passes) passes=$2; shift ;;
        --test-timeout) test_timeout=$2; shift ;;
        --no-drill) drill=0 ;;
        --accel) accel=$2; shift ;;
        --icount) icount=$2; shift ;;
        --perf-cost) perf_cost=10 passes=0 drill=0 ;;
        --timeout) limit=$2; shift ;;
        --) shift; break ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
        *) echo "run-igt: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
lists=${lists:-bat perf tiling rc6 render}
# KVM runs on the host's clock.
[ "$accel" = tcg ] || icount=off
[ -n "$seed" ] || seed=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')

"$top/scripts/make-igt-image.sh" >&2

rm -rf "$out"
mkdir -p "$out/run/gpumodel"
files=
for l in $lists; do
    [ -f "$t/$l.testlist" ] || { echo "run-igt: no list tests/igt/$l.testlist" >&2; exit 2; }
    files="$files $t/$l.testlist"
done
# shellcheck disable=SC2086
"$python" "$t/igt_tier.py" order --order "$how" --seed "$seed" $files > "$out/igt.list"
cp "$out/igt.list" "$out/run/gpumodel/igt.list"
(cd "$out/run" && find gpumodel | cpio -o -H newc -R 0:0 --quiet) | gzip -n > "$out/list.cpio.gz"
n=$(wc -l < "$out/igt.list" | tr -d ' ')
[ -n "$limit" ] || limit=$((900 + 150 * n * passes))
echo "run-igt: $n entries ($lists), order $how$([ "$how" = shuffle ] && echo " (seed $seed)"), $passes pass(es), per-test timeout $test_timeout s, $accel$([ "$icount" != off ] && echo " -icount shift=$icount")" >&2

grc=0
"$top/scripts/run-guest.sh" --profile igt --tap --timeout "$limit" --memory 6G \
    --accel "$accel" --icount "$icount" \
    --initrd-add "$top/build/guest/igt.cpio.gz" --initrd-add "$out/list.cpio.gz" \
    --append "IGT_PASSES=$passes IGT_TEST_TIMEOUT=$test_timeout IGT_DRILL=$drill IGT_PERF_COST=$perf_cost" \
    -- "$@" > "$out/guest.tap" || grc=$?
g=$top/build/guest/out-igt
if [ "$perf_cost" != 0 ]; then
    cp "$g/perf-cost.txt" "$out/perf-cost.txt" 2>/dev/null || true
    cat "$out/perf-cost.txt" 2>/dev/null || echo "run-igt: no perf-cost figures (see $g)"
    exit 0
fi

# unpack NAME DIR: the guest's results section NAME into DIR.
unpack() {
    if [ -s "$g/igt-results-$1.txt" ] &&
        base64 -d < "$g/igt-results-$1.txt" | tar -xzf - -C "$out" 2>/dev/null; then
        mv "$out/igt-results-$1" "$2"
    fi
}
results=
p=1
while [ "$p" -le "$passes" ]; do
    unpack "$p" "$out/pass-$p"
    results="$results $out/pass-$p/results.json"
    "$python" "$t/igt_tier.py" times --list "$out/igt.list" \
        "$out/pass-$p/results.json" > "$out/times-$p.txt" 2>/dev/null || true
    p=$((p + 1))
done
drill_args=
if [ "$drill" = 1 ]; then
    unpack drill "$out/drill"
    drill_args="--drill $t/drill.testlist $out/drill/results.json"
fi
for f in "$g"/igt-stall-*.txt; do
    [ -f "$f" ] && cp "$f" "$out/${f#"$g/igt-"}"
done

rc=0
# shellcheck disable=SC2086
"$python" "$t/igt_tier.py" summary --tap --list "$out/igt.list" \
    --expected "$t/expected-failures.txt" --dmesg-ignore "$t/dmesg-ignore.txt" \
    --accel "$accel" --test-timeout "$test_timeout" \
    $drill_args $results > "$out/tap.txt" || rc=$?
{
    echo "# order $how$([ "$how" = shuffle ] && echo ", seed $seed"); logs in build/igt/out/ and build/guest/out-igt/"
    grep -e '^#' "$out/guest.tap" || true
    [ "$grc" = 0 ] || grep '^not ok' "$out/guest.tap" | sed 's/^/# guest: /'
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
