#!/bin/sh
# Guest side of the IGT tier: IGT's own runner over a test list, on the
# stock kernel and i915, results back to the host.  Run by /init for
# GPUMODEL_PROFILE=igt, on busybox; scripts/run-igt.sh is the host side.
#
# Knobs (kernel command line words, which the kernel hands to /init as
# environment):
#   IGT_PASSES=N        run the list N times back to back (default 1), each
#                       pass into its own results directory
#   IGT_TEST_TIMEOUT=S  igt_runner --per-test-timeout (default 120)
#   IGT_RUN_TIMEOUT=S   igt_runner --overall-timeout of each pass (default
#                       0: none); the host's limit on the whole guest stays
# The list is /gpumodel/igt.list (the host writes it into the per-run
# archive it appends to the initramfs).
#
# Output on the data channel (the protocol of tests/guest/guest-checks.sh):
#   @@BEGIN igt-runner-<pass> ... @@END   igt_runner's own output, as it runs
#   @@BEGIN igt-stall-<pass>-<k> ... @@END  i915's engine state, taken when
#       a test ran longer than STALL_DUMP_SECS (default 60) s
#   @@BEGIN igt-results-<pass> ... @@END  the pass's results directory
#       (igt_runner's per-test files and igt_results' results.json), as a
#       base64 gzip tar
#   @@RESULT igt-done ok|fail <text>       every pass ran and was sent
#   @@DONE
set -u

IGT_PASSES=${IGT_PASSES:-1}
IGT_TEST_TIMEOUT=${IGT_TEST_TIMEOUT:-120}
IGT_RUN_TIMEOUT=${IGT_RUN_TIMEOUT:-0}
tests=/usr/libexec/igt-gpu-tools
list=/gpumodel/igt.list

. /gpumodel/lib.sh

# What IGT's tests expect of a Linux system beyond /init's mounts.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
mkdir -p /dev/shm /run /var/tmp
mount -t tmpfs tmpfs /dev/shm 2>/dev/null
[ -d /sys/kernel/tracing ] && mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
echo "127.0.0.1 localhost" > /etc/hosts

# stall_watch RESULTS DIR: while the runner runs, note i915's engine state
# (debugfs) in DIR whenever its journal has not moved for STALL_DUMP_SECS:
# the state of the engines under a test that is about to time out.  Sent
# after the pass, as the data channel carries the runner's output now.
STALL_DUMP_SECS=${STALL_DUMP_SECS:-60}
stall_watch() {
    sw_k=0 sw_last= sw_quiet=0
    mkdir -p "$2"
    while :; do
        sleep 10
        sw_j=$(ls -t "$1"/*/journal.txt 2>/dev/null | head -n 1)
        sw_now=$(cat "$sw_j" 2>/dev/null | wc -c)
        if [ "$sw_j $sw_now" != "$sw_last" ]; then
            sw_last="$sw_j $sw_now" sw_quiet=0
            continue
        fi
        sw_quiet=$((sw_quiet + 10))
        [ "$sw_quiet" -eq "$STALL_DUMP_SECS" ] || continue
        sw_k=$((sw_k + 1))
        {
            echo "== $(cut -d' ' -f1 /proc/uptime) s: no progress in $sw_j for $sw_quiet s"
            for f in i915_engine_info gt/engines i915_gem_objects \
                i915_frequency_info; do
                [ -r "/sys/kernel/debug/dri/0/$f" ] || continue
                echo "== $f"
                cat "/sys/kernel/debug/dri/0/$f"
            done
            echo "== /proc/interrupts"
            cat /proc/interrupts
            echo "== dmesg (last 60 lines)"
            dmesg | tail -n 60
        } > "$2/$sw_k.txt" 2>&1
    done
}

ok=1
if [ ! -s "$list" ]; then
    result igt-done fail "no test list in the guest ($list)"
    echo "@@DONE"
    exit 0
fi
n=$(grep -c '^igt@' "$list")
echo "gpumodel guest: IGT, $n entries x $IGT_PASSES pass(es), per-test timeout $IGT_TEST_TIMEOUT s" > /dev/console

pass=1
while [ "$pass" -le "$IGT_PASSES" ]; do
    res=/tmp/igt-results-$pass
    rm -rf "$res"
    t0=$(cut -d. -f1 /proc/uptime)
    stall_watch "$res" "/tmp/igt-stall-$pass" &
    watch=$!
    echo "@@BEGIN igt-runner-$pass"
    # --dmesg-warn-level 4: a kernel warning during a test makes it
    # dmesg-warn, as in Intel's CI.
    igt_runner --test-list "$list" --per-test-timeout "$IGT_TEST_TIMEOUT" \
        --overall-timeout "$IGT_RUN_TIMEOUT" --dmesg-warn-level 4 \
        "$tests" "$res" 2>&1
    rc=$?
    echo "@@END igt-runner-$pass"
    kill "$watch" 2>/dev/null
    for f in /tmp/igt-stall-"$pass"/*.txt; do
        [ -f "$f" ] && section "igt-stall-$pass-$(basename "$f" .txt)" "$f"
    done
    igt_results "$res" > /dev/null 2>&1 || rc="$rc, igt_results failed"
    echo "gpumodel guest: IGT pass $pass done in $(($(cut -d. -f1 /proc/uptime) - t0)) s (runner status $rc)" > /dev/console
    echo "@@BEGIN igt-results-$pass"
    tar -czf - -C /tmp "igt-results-$pass" | base64
    echo "@@END igt-results-$pass"
    [ -f "$res/results.json" ] || ok=0
    rm -rf "$res"
    pass=$((pass + 1))
done

if [ $ok = 1 ]; then
    result igt-done ok "$IGT_PASSES pass(es) of $n entries ran and their results were sent"
else
    result igt-done fail "a pass left no results.json (see igt-runner-*.txt)"
fi
echo "@@DONE"
