# Shell helpers of the guest-side check scripts (guest-checks.sh,
# nv-checks.sh), sourced from /gpumodel/lib.sh on busybox.  The output
# protocol is described in guest-checks.sh.

ASK_TIMEOUT=${ASK_TIMEOUT:-30}
work=${TMPDIR:-/tmp}/gpumodel
mkdir -p "$work"

result() { # ID ok|fail|skip TEXT...
    r_id=$1 r_st=$2
    shift 2
    echo "@@RESULT $r_id $r_st $*"
    echo "gpumodel guest: $r_st $r_id: $*" > /dev/console
}

section() { # NAME FILE
    echo "@@BEGIN $1"
    cat "$2"
    echo "@@END $1"
}

seq=0
# ask VERB ARGS...: one request to the host agent (tests/guest/host-agent.py)
# on the data channel, waiting at most ASK_TIMEOUT s for its answer on fd 3.
# Sets ans_st (ok, error or timeout) and ans_text.
ask() {
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
