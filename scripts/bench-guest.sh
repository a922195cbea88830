#!/bin/sh
# make bench, guest part: boot the test guest once and report IGT's
# gem_exec_nop rate on rcs and bcs next to a CPU-only baseline measured in
# the same guest run (getppid() calls per second), so the figure compares
# across machines and TCG speeds, and the host cost of an OA stream.
# Information only: never fails a build.  These timing runs happen only
# here: the guest makes them for GPUMODEL_BENCH=1 (kernel command line),
# which `make check`'s run of run-guest.sh does not pass.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/guest/out
python=${PYTHON:-/usr/bin/python3}

"$top/scripts/run-guest.sh" --summary --append GPUMODEL_BENCH=1 > /dev/null 2>&1
line=$(grep -h '^User work:' "$out/summary.txt" 2>/dev/null | head -n 1)
base=$(echo "$line" | sed -n 's/.*baseline \([0-9]*\) getppid\/s.*/\1/p')
echo "guest (stock i915, TCG): gem_exec_nop against a CPU-only baseline in the same run:"
if [ -z "$base" ]; then
    echo "  no figures: the guest did not report them (see $out/summary.txt)"
    exit 0
fi
for e in rcs bcs; do
    rate=$(echo "$line" | sed -n "s/.* $e [0-9.]* us\/batch (\([0-9]*\)\/s).*/\1/p")
    [ -n "$rate" ] || { echo "  $e: no rate"; continue; }
    awk -v e="$e" -v r="$rate" -v b="$base" 'BEGIN {
        printf "  %s  %8d batches/s  = 1 per %.0f getppid() (baseline %d/s)\n",
               e, r, b / r, b }'
done

# OA sampling cost: interleaved rounds of the same work without a stream
# and under i915 perf streams at a 1 s period and at i915's shortest
# default period (10 us), read by IGT's i915-perf-recorder: QEMU's host CPU
# time per second with the guest idle, and the ratios of run time and host
# CPU time over a getppid() loop and over empty user batches.  The target
# is a ratio below 1.10.
# docs/intel-gpu-oa.rst ("What the OA cost measures") explains the figures;
# the runs are in build/guest/out/oa-cost.txt (from the guest's oa-cost-*
# sections, by tests/guest/guest_tier.py), the figures from
# tests/guest/oa-cost.awk.
"$python" "$top/tests/guest/guest_tier.py" oa-cost "$out/data.log" > "$out/oa-cost.all" 2>&1
grep -v '^#' "$out/oa-cost.all" > "$out/oa-cost.txt"
vars=$(sed -n 's/^# e=\([^ ]*\) e1=\([^ ]*\) n=\([^ ]*\) b=\([^ ]*\) cpu=\([^ ]*\)$/-v e=\1 -v e1=\2 -v n=\3 -v b=\4 -v cpu=\5/p' "$out/oa-cost.all")
rm -f "$out/oa-cost.all"
cost=
if [ -n "$vars" ] && [ -s "$out/oa-cost.txt" ]; then
    # shellcheck disable=SC2086
    cost=$(awk $vars -f "$top/tests/guest/oa-cost.awk" "$out/oa-cost.txt")
fi
echo "guest OA streaming cost (median (lowest-highest) [rounds counted]):"
case $cost in
    *"|"*) echo "$cost" | tr '|' '\n' | sed 's/^ */  /; s/ *$//'
           echo "  target: the getppid() loop's QEMU host CPU, e=7/none, below 1.10; the"
           echo "  model's own part is bench-intel-cs's \"OA reports, exponent 7\" line" ;;
    *) echo "  no figures: ${cost:-the guest did not report them}" ;;
esac
