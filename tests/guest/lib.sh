# Shell helpers of the guest-side scripts (guest-checks.sh, cost-checks.sh,
# nv-checks.sh, tests/igt/igt-guest.sh, tests/compute/compute-checks.sh,
# tests/mesa/mesa-checks.sh), sourced from /gpumodel/lib.sh on busybox or
# in the Debian root.  The output protocol is described in guest-checks.sh; the
# verdicts are the host's (tests/guest/guest_tier.py).

ASK_TIMEOUT=${ASK_TIMEOUT:-30}
work=${TMPDIR:-/tmp}/gpumodel
mkdir -p "$work"

result() { # ID ok|fail|skip TEXT...
    r_id=$1 r_st=$2
    shift 2
    echo "@@RESULT $r_id $r_st $*"
    echo "gpumodel guest: $r_st $r_id: $*" > /dev/console
}

section() { # NAME FILE [KEY=VALUE...]: FILE as section NAME
    s_name=$1 s_file=$2
    shift 2
    echo "@@BEGIN $s_name${*:+ $*}"
    cat "$s_file" 2>/dev/null
    # A last line without its newline must not swallow the @@END.
    [ -z "$(tail -c 1 "$s_file" 2>/dev/null)" ] || echo
    echo "@@END $s_name"
}

put() { # NAME TEXT...: TEXT, one line, as section NAME
    p_name=$1
    shift
    echo "@@BEGIN $p_name"
    echo "$*"
    echo "@@END $p_name"
}

# step NAME SECONDS CMD...: run CMD (bounded, below) and send its output as
# section NAME with its exit status ("timeout") and run time on the @@BEGIN
# line: "@@BEGIN NAME rc=0 secs=2".
# Its output stays in $work/NAME.txt ("/" in NAME made "_").
step() {
    st_name=$1 st_max=$2
    st_file=$work/$(echo "$1" | tr / _).txt
    shift 2
    bounded "$st_max" "$st_file" "$@"
    section "$st_name" "$st_file" "rc=$b_rc" "secs=$b_secs"
}

seq=0
# ask VERB ARGS...: one request to the host agent (tests/guest/host-agent.py)
# on the data channel, waiting at most ASK_TIMEOUT s for its answer on fd 3.
# Sets ans_st (ok, error or timeout) and ans_text, and repeats them on the
# data channel as "@@GOT <seq> <ans_st> <ans_text>" for the host's verdicts.
ask() {
    ask_once "$@"
    echo "@@GOT $seq $ans_st $ans_text"
}
ask_once() {
    seq=$((seq + 1))
    ans_st=timeout ans_text="no answer from the host agent in $ASK_TIMEOUT s"
    echo "@@REQ $seq $*"
    a_end=$(($(cut -d. -f1 /proc/uptime) + ASK_TIMEOUT))
    while :; do
        a_left=$((a_end - $(cut -d. -f1 /proc/uptime)))
        [ "$a_left" -gt 0 ] || return
        # Answers to earlier, timed-out requests are skipped.  (busybox
        # ash has read -t.)
        # shellcheck disable=SC3045
        if IFS= read -r -t "$a_left" a_line <&3; then
            case $a_line in
                "@@ANS $seq "*)
                    a_line=${a_line#"@@ANS $seq "}
                    ans_st=${a_line%% *} ans_text=${a_line#* }
                    return ;;
            esac
        else
            usleep 100000    # EOF: no host on this port; wait out the limit
        fi
    done
}

# bounded SECONDS OUTFILE CMD...: run CMD with stdout and stderr to OUTFILE,
# wait at most SECONDS.  Sets b_rc (the exit status, or "timeout") and b_secs.
bounded() {
    b_max=$1 b_out=$2
    shift 2
    b_t0=$(cut -d. -f1 /proc/uptime)
    "$@" > "$b_out" 2>&1 &
    b_pid=$!
    b_rc=timeout
    while [ $(($(cut -d. -f1 /proc/uptime) - b_t0)) -lt "$b_max" ]; do
        if ! kill -0 "$b_pid" 2>/dev/null; then
            wait "$b_pid"
            b_rc=$?
            break
        fi
        # Short polls: most steps take well under a second.
        usleep 100000
    done
    if [ "$b_rc" = timeout ]; then
        kill -9 "$b_pid" 2>/dev/null
    fi
    b_secs=$(($(cut -d. -f1 /proc/uptime) - b_t0))
}

# perf_start BASE METRICS PERIOD: i915-perf-recorder (metric set METRICS,
# PERIOD seconds) into BASE.rec in the background, given a second to open
# its stream; its output in BASE-recorder.txt.  perf_stop ends it.
perf_start() {
    i915-perf-recorder -m "$2" -p "$3" -o "$1.rec" > "$1-recorder.txt" 2>&1 &
    p_pid=$!
    sleep 1
}
perf_stop() {
    kill -INT "$p_pid" 2>/dev/null
    i=0
    while [ "$i" -lt 100 ] && kill -0 "$p_pid" 2>/dev/null; do
        usleep 100000
        i=$((i + 1))
    done
    kill -9 "$p_pid" 2>/dev/null
    wait "$p_pid" 2>/dev/null
}

# kmsg TEXT...: a line in the guest kernel's log, to place what follows.
kmsg() { echo "gpumodel: $*" > /dev/kmsg; }

# load_i915 SECONDS: modprobe i915 as step "modprobe" (bounded), wait up to
# 10 s more for its render node, and send /dev/dri as section "dri".
load_i915() {
    kmsg "modprobe i915"
    step modprobe "$1" modprobe i915
    l_i=0
    while [ ! -e /dev/dri/renderD128 ] && [ $l_i -lt 100 ]; do
        usleep 100000
        l_i=$((l_i + 1))
    done
    ls -l /dev/dri > "$work/dri.txt" 2>&1
    section dri "$work/dri.txt"
}

# slow_engines MS: i915's preemption timeout of every engine MS
# milliseconds.  Its default (640 ms, CONFIG_DRM_I915_PREEMPT_TIMEOUT) is
# silicon's: a thread group of the interpreted EU can run for seconds
# before its walker reaches a preemption point, and i915 would reset the
# engine and the context under it (gt/intel_execlists_submission.c,
# "Resetting rcs0 for preemption time out").  The heartbeat still resets
# an engine that does not preempt within MS.
slow_engines() {
    for se in /sys/class/drm/card[0-9]*/engine/*/preempt_timeout_ms; do
        [ -w "$se" ] && echo "$1" > "$se"
    done
}
