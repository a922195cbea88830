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

# OA sampling cost: the same 4000 user batches without and with an i915
# perf stream at i915's shortest default period (10 us), read by IGT's
# i915-perf-recorder.  The target is a ratio below 1.10.  This ratio holds
# the guest's own work too: i915 copying ~50000 reports a second to the
# recorder and the recorder storing them, all under TCG, on the vCPUs
# that also run the batches.  The model's part is bench-intel-cs's "OA
# reports, exponent 7" line (host s per virtual s of sampling).
cost=$(echo "$line" | sed -n 's/.*OA cost: \([^;]*\).*/\1/p')
off=$(echo "$cost" | sed -n 's/.* \([0-9.]*\) s without.*/\1/p')
on=$(echo "$cost" | sed -n 's/.* \([0-9.]*\) s with one at e=\([0-9?]*\).*/\1/p')
e=$(echo "$cost" | sed -n 's/.*at e=\([0-9?]*\).*/\1/p')
echo "guest OA streaming cost (run time of the same batches, with / without a stream):"
if [ -z "$off" ] || [ -z "$on" ]; then
    echo "  no figures: ${cost:-the guest did not report them}"
    exit 0
fi
awk -v a="$off" -v b="$on" -v e="$e" 'BEGIN {
    printf "  %.2f s without, %.2f s with OA at exponent %s: ratio %.3f (target < 1.10)\n",
           a, b, e, b / a
    printf "  (guest software included: the model alone, see bench-intel-cs OA exponent 7)\n" }'
