#!/bin/sh
# The cost profile (GPUMODEL_PROFILE=cost): fixed guest work, each piece
# between two readings of QEMU's host CPU time, for make bench's paired
# comparison of two builds (tools/bench-guest-compare.py, through
# scripts/run-guest.sh --profile cost --icount 0).  With the guest's clock
# counting its instructions, the same work is the same guest instructions
# and device work on every host and build; what differs is what QEMU paid
# for it.
#
# Sections "cost-<round>-<work>": two "@@GOT <seq> ok {cpu-s, wall-s,
# other-s, ...}" lines (tests/guest/host-agent.py's "cpu" answer) around
# the work, then its output.  The work (tests/guest/i915-exec-probe.c):
#   syscalls   1 s of getppid() calls: the CPU alone, no device
#   nop-rcs    COST_BATCHES empty user batches on rcs0
#   nop-bcs    the same on bcs0
#   walker     COST_WALKERS batches of PIPELINE_SELECT and a GPGPU_WALKER
#              with no kernel loaded (the pipeline's command path)
#   oa-nop     nop-rcs under an i915 perf stream at its shortest period
# One check, cost-runs: every piece ran and both readings were answered;
# then @@DONE.
set -u

COST_ROUNDS=${COST_ROUNDS:-3}
COST_BATCHES=${COST_BATCHES:-4000}
COST_WALKERS=${COST_WALKERS:-2000}
TOOL_TIMEOUT=${TOOL_TIMEOUT:-300}

. /gpumodel/lib.sh

probe=/gpumodel/i915-exec-probe
step modprobe "$TOOL_TIMEOUT" modprobe i915
put cost "rounds=$COST_ROUNDS batches=$COST_BATCHES walkers=$COST_WALKERS"

bad=
r=1
while [ "$r" -le "$COST_ROUNDS" ]; do
    for w in syscalls nop-rcs nop-bcs walker oa-nop; do
        [ "$w" = oa-nop ] && perf_start "$work/cost" RenderBasic 0.00001
        echo "@@BEGIN cost-$r-$w"
        ask cpu
        c0=$ans_st
        case $w in
            syscalls) bounded "$TOOL_TIMEOUT" "$work/cost.txt" "$probe" syscalls - 1 ;;
            nop-rcs|oa-nop) bounded "$TOOL_TIMEOUT" "$work/cost.txt" "$probe" nop rcs "$COST_BATCHES" ;;
            nop-bcs) bounded "$TOOL_TIMEOUT" "$work/cost.txt" "$probe" nop bcs "$COST_BATCHES" ;;
            walker) bounded "$TOOL_TIMEOUT" "$work/cost.txt" "$probe" walker rcs "$COST_WALKERS" ;;
        esac
        ask cpu
        cat "$work/cost.txt"
        echo "@@END cost-$r-$w"
        [ "$w" = oa-nop ] && perf_stop
        [ "$b_rc" = 0 ] && [ "$c0" = ok ] && [ "$ans_st" = ok ] ||
            bad="$bad $r-$w:rc=$b_rc,cpu=$c0/$ans_st"
    done
    r=$((r + 1))
done
if [ -z "$bad" ]; then
    result cost-runs ok "$COST_ROUNDS rounds of 5 pieces of work, QEMU's CPU time read around each"
else
    result cost-runs fail "pieces that failed or were not measured:$bad"
fi
echo "@@DONE"
