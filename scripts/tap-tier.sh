#!/bin/sh
# Run one test program that speaks TAP, keep its output, and print a
# one-line tally for it.  A test that crashes, bails out or does not run
# every planned case counts what is missing as failed.
#
#   scripts/tap-tier.sh NAME LOGDIR -- COMMAND [ARGS...]
# Writes LOGDIR/NAME.tap and appends "NAME passed failed skipped seconds"
# to LOGDIR/tally.
set -u

name=$1 logdir=$2
shift 3
mkdir -p "$logdir"
log=$logdir/$name.tap
mkdir -p "$(dirname "$log")"
t0=$(date +%s)
"$@" > "$log" 2>&1
rc=$?
secs=$(($(date +%s) - t0))

pass=$(grep -cE '^ok ' "$log" | tr -d ' ')
skip=$(grep -E '^ok ' "$log" | grep -ciE '# skip' | tr -d ' ')
fail=$(grep -cE '^not ok ' "$log" | tr -d ' ')
pass=$((pass - skip))
plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
seen=$((pass + skip + fail))
if [ -n "$plan" ] && [ "$seen" -lt "$plan" ]; then
    fail=$((fail + plan - seen))
fi
if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
    fail=1
fi
grep -E '^(not ok|Bail out)' "$log" | sed "s|^|  $name: |"
[ "$rc" -ne 0 ] && echo "  $name: exit status $rc (log: $log)"
printf '%-28s %3d passed, %d failed, %d skipped, %d s\n' "$name" "$pass" \
    "$fail" "$skip" "$secs"
echo "$name $pass $fail $skip $secs" >> "$logdir/tally"
