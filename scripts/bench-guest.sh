#!/bin/sh
# make bench, guest part: boot the test guest once and report IGT's
# gem_exec_nop rate on rcs and bcs next to a CPU-only baseline measured in
# the same guest run (getppid() calls per second), so the figure compares
# across machines and TCG speeds, and the run-time cost of an OA stream.
# Information only: never fails a build.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/guest/out

"$top/scripts/run-guest.sh" --summary > /dev/null 2>&1
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

# OA sampling cost: rounds of the same user batches without a stream,
# with the GT kept awake, and under i915 perf streams at a 1 s period and
# at i915's shortest default period (10 us), read by IGT's
# i915-perf-recorder; ratios of the probe's run time and of QEMU's host CPU
# time (median, lowest-highest of the rounds).  The target is a ratio below
# 1.10.  The ratios hold the guest's own work too: i915 copying ~47000
# reports a second to the recorder and the recorder storing them, all under
# TCG, on the vCPUs that also run the batches.  The model's part is
# bench-intel-cs's "OA reports, exponent 7" line.  The runs themselves are
# in build/guest/out/oa-cost.txt; docs/intel-gpu-oa.rst explains them.
cost=$(echo "$line" | sed -n 's/.*OA cost: \([^;]*\).*/\1/p')
echo "guest OA streaming cost (same batches with / without; median (low-high)):"
case $cost in
    *"|"*) echo "$cost" | tr '|' '\n' | sed 's/^ */  /; s/ *$//'
           echo "  (target: e=7 stream/none below 1.10)" ;;
    *) echo "  no figures: ${cost:-the guest did not report them}" ;;
esac
