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
#   IGT_PERF_COST=S     first, i915-perf-probe's cost mode for S seconds at
#                       IGT perf@blocking's period (exponent 17): where its
#                       kernel time goes (section perf-cost); default 0: no
#   IGT_NOUVEAU=0|1     before the passes, bind i915 and then nouveau (the
#                       guest has -device nv-gpu beside intel-gpu: IGT's
#                       prime_nv tests find each by its PCI vendor); a
#                       failed modprobe or a kernel line at warning level
#                       or above meanwhile fails igt-done, and so does
#                       i915-exec-probe prime-fill (an i915 blit into a
#                       nouveau buffer)
#   IGT_DRILL=0|1       after the passes, the engine-freeze drill (default 1):
#                       rcs0 is frozen through the host agent
#                       (x-intel-gpu-drill-hang: no fetch, no interrupt, no
#                       error) and the tests of /gpumodel/igt-drill.list run:
#                       i915's heartbeat or preemption timeout must reset the
#                       engine during the first, and the next must pass
# The list is /gpumodel/igt.list (the host writes it into the per-run
# archive it appends to the initramfs).
#
# Output on the data channel (the protocol of tests/guest/guest-checks.sh):
#   @@BEGIN igt-runner-<pass> ... @@END   igt_runner's own output, as it runs
#       ("[uptime] [n/N] test" as each entry starts), and "[uptime] done"
#   @@BEGIN igt-stall-<pass>-<k> ... @@END  i915's engine state, taken when
#       a test ran longer than STALL_DUMP_SECS (default 60) s
#   @@BEGIN igt-results-<pass> ... @@END  the pass's results directory
#       (igt_runner's per-test files and igt_results' results.json), as a
#       base64 gzip tar
#   @@BEGIN igt-runner-drill, igt-results-drill   the same for the drill
#   @@RESULT igt-done ok|fail <text>       every pass ran and was sent
#   @@DONE
set -u

IGT_PASSES=${IGT_PASSES:-1}
IGT_TEST_TIMEOUT=${IGT_TEST_TIMEOUT:-120}
IGT_RUN_TIMEOUT=${IGT_RUN_TIMEOUT:-0}
IGT_DRILL=${IGT_DRILL:-1}
IGT_PERF_COST=${IGT_PERF_COST:-0}
IGT_NOUVEAU=${IGT_NOUVEAU:-0}
tests=/usr/libexec/igt-gpu-tools
list=/gpumodel/igt.list

# lib.sh: result, section, ask, bounded; $work, its scratch directory.
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
    sw_k=0 sw_last='' sw_quiet=0
    mkdir -p "$2"
    while :; do
        sleep 10
        # shellcheck disable=SC2012  # busybox find has no -printf
        sw_j=$(ls -t "$1"/*/journal.txt 2>/dev/null | head -n 1)
        sw_now=$(wc -c < "$sw_j" 2>/dev/null)
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
if [ "$IGT_PERF_COST" != 0 ]; then
    bounded 300 "$work/modprobe.txt" modprobe i915
    bounded $((IGT_PERF_COST + 120)) "$work/perf-cost.txt" \
        /gpumodel/i915-perf-probe cost "$IGT_PERF_COST" 17
    section perf-cost "$work/perf-cost.txt"
fi
# Both drivers bound, each with a clean log (no kernel line at warning
# level or above), or the run fails: the tests' own dmesg checks start
# with the tests.  Then i915's blitter fills a buffer of nouveau's, read
# back through nouveau's map (i915-exec-probe prime-fill), the check
# prime_nv_test@i915_blt_fill_nv_read cannot make on Linux 6.1.
bind_fail=
if [ "$IGT_NOUVEAU" = 1 ]; then
    boot_lines=$(dmesg -r | wc -l)
    for m in i915 nouveau; do
        bounded 300 "$work/modprobe-$m.txt" modprobe "$m"
        [ "$b_rc" = 0 ] ||
            bind_fail="${bind_fail}modprobe $m: $b_rc $(head -c 200 "$work/modprobe-$m.txt"); "
    done
    dmesg -r | tail -n +$((boot_lines + 1)) | grep '^<[0-4]>' > "$work/bind-warnings.txt"
    if [ -s "$work/bind-warnings.txt" ]; then
        section bind-warnings "$work/bind-warnings.txt"
        bind_fail="${bind_fail}kernel warnings while binding: $(head -n 1 "$work/bind-warnings.txt")"
    fi
    bounded 60 "$work/prime-fill.txt" /gpumodel/i915-exec-probe prime-fill bcs 0x5ac3e10f
    echo "gpumodel guest: $(head -n 1 "$work/prime-fill.txt")" > /dev/console
    grep -q '^prime-fill ok' "$work/prime-fill.txt" ||
        bind_fail="${bind_fail}$(head -n 1 "$work/prime-fill.txt") (status $b_rc)"
fi
if [ "$IGT_PASSES" -gt 0 ] && [ ! -s "$list" ]; then
    result igt-done fail "no test list in the guest ($list)"
    echo "@@DONE"
    exit 0
fi
n=$(grep -c '^igt@' "$list")
echo "gpumodel guest: IGT, $n entries x $IGT_PASSES pass(es), per-test timeout $IGT_TEST_TIMEOUT s" > /dev/console

# run_pass NAME LIST: one igt_runner run of LIST, its output and results
# sent as sections NAME.
run_pass() {
    res=$work/igt-results-$1
    rm -rf "$res"
    t0=$(cut -d. -f1 /proc/uptime)
    stall_watch "$res" "$work/igt-stall-$1" &
    watch=$!
    echo "@@BEGIN igt-runner-$1"
    # --dmesg-warn-level 4: a kernel warning during a test makes it
    # dmesg-warn, as in Intel's CI.
    igt_runner --test-list "$2" --per-test-timeout "$IGT_TEST_TIMEOUT" \
        --overall-timeout "$IGT_RUN_TIMEOUT" --dmesg-warn-level 4 \
        "$tests" "$res" 2>&1
    rc=$?
    # When the last entry ended, on the clock of the runner's own lines.
    echo "[$(cut -d' ' -f1 /proc/uptime)] done"
    echo "@@END igt-runner-$1"
    kill "$watch" 2>/dev/null
    for f in "$work/igt-stall-$1"/*.txt; do
        [ -f "$f" ] && section "igt-stall-$1-$(basename "$f" .txt)" "$f"
    done
    igt_results "$res" > /dev/null 2>&1 || rc="$rc, igt_results failed"
    echo "gpumodel guest: IGT $1 done in $(($(cut -d. -f1 /proc/uptime) - t0)) s (runner status $rc)" > /dev/console
    echo "@@BEGIN igt-results-$1"
    tar -czf - -C "$work" "igt-results-$1" | base64
    echo "@@END igt-results-$1"
    [ -f "$res/results.json" ] || ok=0
    rm -rf "$res"
}

pass=1
while [ "$pass" -le "$IGT_PASSES" ]; do
    run_pass "$pass" "$list"
    pass=$((pass + 1))
done

if [ "$IGT_DRILL" = 1 ]; then
    # i915 bound first: its probe resets the GT, which would end the drill
    # (the passes end with module reloads that may leave it unloaded).
    bounded 300 "$work/modprobe.txt" modprobe i915
    ask hang 0 0                # rcs0: class 0, instance 0
    echo "gpumodel guest: drill: rcs0 frozen ($ans_st: $ans_text)" > /dev/console
    if [ "$ans_st" = ok ]; then
        run_pass drill /gpumodel/igt-drill.list
    else
        result igt-done fail "the host agent did not freeze rcs0: $ans_text"
        echo "@@DONE"
        exit 0
    fi
fi

if [ -n "$bind_fail" ]; then
    result igt-done fail "i915 and nouveau: $bind_fail"
elif [ $ok = 1 ]; then
    result igt-done ok "$IGT_PASSES pass(es) of $n entries ran and their results were sent$([ "$IGT_NOUVEAU" = 1 ] && echo "; $(head -n 1 "$work/prime-fill.txt")")"
else
    result igt-done fail "a pass left no results.json (see igt-runner-*.txt)"
fi
echo "@@DONE"
