#!/bin/sh
# Guest side of the guest test tier: what the stock kernel, i915 and
# intel-gpu-tools see of the device at 0000:00:02.0.  Run by /init, in the
# guest, on busybox.
#
# Output protocol (parsed by scripts/run-guest.sh; lines start with "@@"):
#   @@RESULT <id> ok|fail|skip <text>   one per check of checks.txt
#   @@BEGIN <name> ... @@END <name>     a captured text: dmesg, intel_reg, ...
#   @@SUMMARY-BEGIN ... @@SUMMARY-END   the human summary (more blocks add
#                                       to it)
#   @@DONE                              the script ran to its end
#   @@REQ <seq> <verb> <args>           a request to the host agent
#                                       (tests/guest/host-agent.py), which
#                                       answers "@@ANS <seq> ok|error <text>"
#                                       on the same port: our fd 3
#
# No `set -e`: a failing check must not stop the others.  Every step that
# talks to the device (modprobe, tools) runs with a time limit and is left
# behind if it hangs in the kernel, so the later checks and the dmesg dump
# still happen.
set -u

BDF=0000:00:02.0
dev=/sys/bus/pci/devices/$BDF
MODPROBE_TIMEOUT=${MODPROBE_TIMEOUT:-300}
TOOL_TIMEOUT=${TOOL_TIMEOUT:-30}
ASK_TIMEOUT=${ASK_TIMEOUT:-30}      # for an answer of the host agent
IRQ_TIMEOUT=${IRQ_TIMEOUT:-10}      # for an injected interrupt to be counted
IRQ_INJECT=${IRQ_INJECT:-8}         # irq-inject-*: events injected
IRQ_DRILL_DROP=${IRQ_DRILL_DROP:-3} # irq-drill-gtpm: messages dropped ...
IRQ_DRILL_INJECT=${IRQ_DRILL_INJECT:-8} # ... of this many injected
# IRQ_VCS0_CONTROL=1: after irq-healthy, inject one VCS0 user interrupt
# (no VCS engine exists: i915 WARNs "unhandled engine interrupt" by design);
# information for the summary, no check.
IRQ_VCS0_CONTROL=${IRQ_VCS0_CONTROL:-0}

. /gpumodel/lib.sh

kmsg() { echo "gpumodel: $*" > /dev/kmsg; }

# words: stdin on one line, or "none".
words() {
    w=$(tr '\n' ' ' | sed 's/ $//')
    echo "${w:-none}"
}

# brief FILE: the start of FILE on one line, for a failure message.
brief() { tr '\n' ' ' < "$1" | cut -c 1-160; }

# ---- PCI, before any driver -----------------------------------------------

if [ -d "$dev" ]; then
    ven=$(cat "$dev/vendor") did=$(cat "$dev/device")
    cls=$(cat "$dev/class") rev=$(cat "$dev/revision")
    got="$ven:$did class $cls revision $rev"
    if [ "$got" = "0x8086:0x8a52 class 0x030000 revision 0x07" ]; then
        result pci-id ok "PCI $BDF is 8086:8a52, class 0x030000, revision 0x07"
    else
        result pci-id fail "PCI $BDF is $got, want 0x8086:0x8a52 class 0x030000 revision 0x07"
    fi
else
    got="absent"
    result pci-id fail "no PCI device at $BDF"
fi

# check_bar ID INDEX SIZE_MIB PREFETCH(0|1) DESCRIPTION
# The resource file has one "start end flags" line per BAR.  Flags are the
# kernel's IORESOURCE_* bits: MEM 0x200, PREFETCH 0x2000, MEM_64 0x100000.
check_bar() {
    if [ ! -r "$dev/resource" ]; then
        result "$1" fail "BAR$2: no PCI device at $BDF"
        return
    fi
    read -r start end flags <<EOF
$(sed -n "$(($2 + 1))p" "$dev/resource")
EOF
    size=0
    [ $((start)) -ne 0 ] && size=$((end - start + 1))
    pf=$(((flags & 0x2000) != 0))
    what="BAR$2: $((size >> 20)) MiB at $start, flags $flags"
    if [ $((start)) -eq 0 ]; then
        result "$1" fail "BAR$2 is not assigned (resource line: $start $end $flags)"
    elif [ "$size" -eq $(($3 << 20)) ] && [ $((flags & 0x200)) -ne 0 ] &&
        [ $((flags & 0x100000)) -ne 0 ] && [ "$pf" -eq "$4" ]; then
        result "$1" ok "$what ($5)"
    else
        result "$1" fail "$what, want $3 MiB of $5"
    fi
}
check_bar pci-bar0 0 16 0 "64-bit non-prefetchable memory"
check_bar pci-bar2 2 256 1 "64-bit prefetchable memory"

# ---- the driver -------------------------------------------------------------

kmsg "modprobe i915"
bounded "$MODPROBE_TIMEOUT" "$work/modprobe.txt" modprobe i915
case $b_rc in
    0) result modprobe ok "modprobe i915 (${b_secs} s)" ;;
    timeout) result modprobe fail "modprobe i915 did not finish in $MODPROBE_TIMEOUT s" ;;
    *) result modprobe fail "modprobe i915 failed with status $b_rc: $(brief "$work/modprobe.txt")" ;;
esac
section modprobe "$work/modprobe.txt"
kmsg "modprobe i915 returned $b_rc"
mp_rc=$b_rc mp_secs=$b_secs

drv=none
[ -e "$dev/driver" ] && drv=$(basename "$(readlink "$dev/driver")")
if [ "$drv" = i915 ]; then
    result driver-bound ok "i915 is bound to $BDF"
elif [ "$got" = absent ]; then
    result driver-bound fail "i915 is not bound: no PCI device at $BDF"
else
    result driver-bound fail "i915 is not bound to $BDF (driver: $drv)"
fi

# The DRM debugfs directory of our device (its "name" file names the BDF).
dri=
for d in /sys/kernel/debug/dri/*; do
    grep -qs "$BDF" "$d/name" && { dri=$d; break; }
done

# ---- registers through intel_reg -------------------------------------------
# One intel_reg run reads them all: it holds forcewake through debugfs
# i915_forcewake_user while it runs, so the render ack must show bit 0.

regs="0xd84 0xa278 0x9138 0x9134 0x9140 0x145998 0x51000"
kmsg "intel_reg read $regs"
# shellcheck disable=SC2086
bounded "$TOOL_TIMEOUT" "$work/intel_reg.txt" intel_reg read $regs
section intel_reg "$work/intel_reg.txt"
kmsg "intel_reg returned $b_rc"
reg_rc=$b_rc

# regval FILE OFFSET: the value intel_reg printed in FILE for OFFSET, e.g.
# 0x00000001.  intel_reg prints "NAME (0x00009138): 0x00000001" (NAME may
# be empty).
regval() {
    grep -i "(0x0*${2#0x}):" "$1" | head -n 1 |
        sed -n 's/.*): *\(0x[0-9a-fA-F]*\).*/\1/p'
}
reg() { regval "$work/intel_reg.txt" "$1"; }

# check_reg ID OFFSET NAME WANT
check_reg() {
    v=$(reg "$2")
    if [ -z "$v" ]; then
        result "$1" fail "intel_reg: $3 $2 not read (intel_reg status $reg_rc: $(brief "$work/intel_reg.txt"))"
    elif [ $((v)) -eq $(($4)) ]; then
        result "$1" ok "intel_reg: $3 $2 = $v"
    else
        result "$1" fail "intel_reg: $3 $2 = $v, want $4"
    fi
}

ack=$(reg 0xd84) req=$(reg 0xa278)
if [ -z "$ack" ]; then
    result fw-ack-render fail "intel_reg: FORCEWAKE_ACK_RENDER 0xd84 not read (intel_reg status $reg_rc: $(brief "$work/intel_reg.txt"))"
elif [ $((ack & 1)) -eq 1 ] && [ $((ack >> 16)) -eq 0 ]; then
    result fw-ack-render ok "intel_reg: FORCEWAKE_ACK_RENDER 0xd84 = $ack with forcewake held (request 0xa278 = ${req:-?})"
else
    result fw-ack-render fail "intel_reg: FORCEWAKE_ACK_RENDER 0xd84 = $ack with forcewake held (request 0xa278 = ${req:-?}), want bit 0 set and bits 31:16 clear"
fi
check_reg slice-enable 0x9138 GEN11_GT_SLICE_ENABLE 0x00000001
check_reg eu-disable 0x9134 GEN11_EU_DISABLE 0x00000000
check_reg media-fuse 0x9140 GEN11_GT_VEBOX_VDBOX_DISABLE 0x000f00ff
# RP_STATE_CAP: i915 takes RP0 from bits 7:0 and RPn from bits 23:16 (50 MHz
# units); on Gen11 it reads RP1 from FREQ_INFO_REC, so bits 15:8 (the PRM's
# RP1 field) are only required to lie between the two.
v=$(reg 0x145998)
if [ -z "$v" ]; then
    result rp-state-cap fail "intel_reg: RP_STATE_CAP 0x145998 not read (intel_reg status $reg_rc: $(brief "$work/intel_reg.txt"))"
else
    rp0=$((v & 0xff)) rp1=$(((v >> 8) & 0xff)) rpn=$(((v >> 16) & 0xff))
    f="RP0 $((rp0 * 50)) MHz, RP1 $((rp1 * 50)) MHz, RPn $((rpn * 50)) MHz"
    if [ "$rp0" -eq $((0x16)) ] && [ "$rpn" -eq $((0x06)) ] &&
        [ "$rp1" -ge "$rpn" ] && [ "$rp1" -le "$rp0" ] && [ $((v >> 24)) -eq 0 ]; then
        result rp-state-cap ok "intel_reg: RP_STATE_CAP 0x145998 = $v ($f)"
    else
        result rp-state-cap fail "intel_reg: RP_STATE_CAP 0x145998 = $v ($f), want RP0 1100 MHz (0x16), RPn 300 MHz (0x06), RPn <= RP1 <= RP0"
    fi
fi
check_reg dfsm 0x51000 SKL_DFSM 0x50200000

# ---- GT state ---------------------------------------------------------------
# The state is what debugfs i915_wedged says.  i915 6.1 rarely says why: it
# prints "Failed to initialize GPU, declaring it wedged!" only when
# intel_gt_init failed without wedging the GT itself; a wedge on init (e.g.
# the engines never idle after the first requests) leaves only a drm debug
# line "CI tainted:0x9 by intel_gt_init+..." (add_taint_for_CI from
# intel_gt_set_wedged_on_init).  So the reason is the first of: a message
# saying "wedged"; that debug line; the caller of intel_gt_set_wedged in a
# stack trace; nothing.  A dmesg that declares a wedge while debugfs says 0
# fails.

dmesg > "$work/dmesg.txt"
# Messages, not debug or stack-trace lines ("func+0x24/0xe0").
said=$(grep -i 'wedged' "$work/dmesg.txt" | grep -v -e '\[drm:' -e '+0x' | head -n 1 |
    sed 's/^\[[ 0-9.]*\] //')
taint=$(grep -o 'CI tainted:.*' "$work/dmesg.txt" | head -n 1)
caller=$(grep -A 1 ' intel_gt_set_wedged+0x' "$work/dmesg.txt" | tail -n 1 |
    sed -n 's/.* \([_a-z0-9]*\)+0x.*/\1/p')
# The engines i915 exposes to userspace (none when it wedged on init).
card=$(find "$dev/drm" -maxdepth 1 -name 'card*' 2>/dev/null | head -n 1)
engines=none
if [ -n "$card" ] && [ -d "$card/engine" ]; then
    engines=$(find "$card/engine" -mindepth 1 -maxdepth 1 -exec basename {} \; | sort | words)
fi
wedged=
if [ -n "$dri" ] && [ -r "$dri/i915_wedged" ]; then
    wedged=$(cat "$dri/i915_wedged" 2>/dev/null)
fi
case "$wedged" in
    1)
        gt="wedged"
        if [ -n "$said" ]; then
            gt="$gt (dmesg: $said)"
        elif [ -n "$taint" ]; then
            gt="$gt on init (drm debug: $taint)"
        elif [ -n "$caller" ]; then
            gt="$gt (by $caller, seen in a stack trace; no message)"
        else
            gt="$gt (dmesg gives no reason)"
        fi
        result gt-state fail "GT $gt; engines: $engines" ;;
    0)
        hung=$(grep -E 'GPU HANG|Resetting|reset request timed out' "$work/dmesg.txt" |
            head -n 1 | sed 's/^\[[ 0-9.]*\] //')
        if [ -n "$said" ]; then
            gt="inconsistent"
            result gt-state fail "GT state: debugfs i915_wedged is 0 but dmesg says: $said"
        elif [ -n "$hung" ]; then
            gt="hung"
            result gt-state fail "GT initialised, but dmesg has: $hung"
        elif [ "$engines" != "bcs0 rcs0" ]; then
            gt="not wedged"
            result gt-state fail "GT not wedged, but engines: $engines, want bcs0 rcs0"
        else
            gt="not wedged"
            result gt-state ok "GT initialised, not wedged, no hang or reset; engines: $engines"
        fi ;;
    *)
        gt="unknown"
        result gt-state fail "GT state unknown: no i915 debugfs for $BDF (driver: $drv)" ;;
esac

# ---- user work: execbuf, IGT benchmark, PMU, hang and reset -----------------
# Only on a GT that initialised: on a wedged GT every execbuf fails -EIO.

probe=/gpumodel/i915-exec-probe
work_sum=
# exec_store ID ENGINE VALUE: a user batch stores VALUE, read back.
exec_store() {
    bounded "$TOOL_TIMEOUT" "$work/$1.txt" "$probe" store "$2" "$3"
    if [ "$b_rc" = 0 ]; then
        result "$1" ok "i915-exec-probe: $(brief "$work/$1.txt")"
    else
        result "$1" fail "i915-exec-probe store $2 (status $b_rc): $(brief "$work/$1.txt")"
    fi
    work_sum="$work_sum; $2 store: $(cut -d: -f1 "$work/$1.txt" | head -n 1)"
}

# busy_of FILE NAME: the largest "busy" of engine NAME in intel_gpu_top -J
# output (one JSON object per sample; the engine's block spans lines).
busy_of() {
    awk -v n="\"$2\"" 'index($0, n) { inb = 1 }
        inb && /"busy"/ { gsub(/[^0-9.]/, "", $2); if ($2 + 0 > m) m = $2 + 0; inb = 0 }
        END { printf "%.1f\n", m }' FS=: "$1"
}

# top_sample FILE SECONDS [PID]: intel_gpu_top's JSON samples (500 ms) for
# about SECONDS, or while process PID runs (at most SECONDS: on a loaded
# host a fixed window can end before the workload has started); SIGINT
# makes it finish its output.
top_sample() {
    intel_gpu_top -J -s 500 -o "$1" > /dev/null 2>&1 &
    t_pid=$!
    if [ -n "${3:-}" ]; then
        t_end=$(($(cut -d. -f1 /proc/uptime) + $2))
        while kill -0 "$3" 2>/dev/null &&
            [ "$(cut -d. -f1 /proc/uptime)" -lt "$t_end" ]; do
            usleep 200000
        done
    else
        sleep "$2"
    fi
    usleep 600000
    kill -INT "$t_pid" 2>/dev/null
    usleep 500000
    kill -9 "$t_pid" 2>/dev/null
    wait "$t_pid" 2>/dev/null
}

NOP_SECS=2      # gem_exec_nop runs one 2 s repetition per engine

# reader_field FILE NAME: the value i915-perf-reader printed for NAME.
reader_field() {
    sed -n "s/^ *$2: *//p" "$1" | head -n 1
}

# reader_max FILE NAME: the largest value printed for NAME.
reader_max() {
    sed -n "s/^ *$2: *//p" "$1" | sort -g | tail -n 1
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

# perf_record BASE METRICS PERIOD CMD...: the recorder while CMD runs, its
# output in BASE-cmd.txt.
perf_record() {
    perf_start "$1" "$2" "$3"
    p_base=$1
    shift 3
    bounded $((TOOL_TIMEOUT + NOP_SECS)) "$p_base-cmd.txt" "$@"
    perf_stop
}

# oa_cost_run ROUND MODE: one round's runs of make bench's OA cost (below)
# under MODE, a line each in oa-cost.txt: "ROUND MODE WORK PROBE HOST-CPU-S
# HOST-WALL-S HOST-OTHER-S", PROBE the getppid() calls per second (cpu) or
# the batches' seconds (nop); "-" or "?" for what is missing.
oa_cost_run() {
    case $2 in
        slow) perf_start "$work/oa-cost-$2" RenderBasic 1 ;;
        fast) perf_start "$work/oa-cost-$2" RenderBasic 0.00001 ;;
    esac
    for o_w in idle cpu nop; do
        o_c0='' o_c1=''
        [ "$oa_cpu" = ok ] && ask cpu && o_c0=$ans_text
        # timeout, not bounded: its 100 ms polls would blur the host figures.
        case $o_w in
            idle) timeout -s KILL "$TOOL_TIMEOUT" sleep 1 ;;
            cpu) timeout -s KILL "$TOOL_TIMEOUT" "$probe" syscalls - 1 ;;
            nop) timeout -s KILL "$TOOL_TIMEOUT" "$probe" nop rcs "$OA_COST_BATCHES" ;;
        esac > "$work/oa-cost-run.txt" 2>&1
        [ "$oa_cpu" = ok ] && ask cpu && o_c1=$ans_text
        case $o_w in
            idle) o_t=- ;;
            cpu) o_t=$(sed -n 's/^syscalls ok: \([0-9]*\) getppid\/s$/\1/p' "$work/oa-cost-run.txt") ;;
            nop) o_t=$(sed -n 's/^nop ok: .* in \([0-9.]*\) s$/\1/p' "$work/oa-cost-run.txt") ;;
        esac
        echo "$1 $2 $o_w ${o_t:-?} $(jdiff cpu-s "$o_c0" "$o_c1")" \
            "$(jdiff wall-s "$o_c0" "$o_c1") $(jdiff other-s "$o_c0" "$o_c1")" \
            >> "$work/oa-cost.txt"
    done
    case $2 in
        slow|fast) perf_stop; rm -f "$work/oa-cost-$2.rec" ;;
    esac
}

# jdiff KEY JSON0 JSON1: the number KEY in JSON1 less the one in JSON0.
jdiff() {
    j0=$(echo "$2" | sed -n "s/.*\"$1\": \(-*[0-9.]*\).*/\1/p")
    j1=$(echo "$3" | sed -n "s/.*\"$1\": \(-*[0-9.]*\).*/\1/p")
    if [ -n "$j0" ] && [ -n "$j1" ]; then
        awk -v a="$j0" -v b="$j1" 'BEGIN { printf "%.3f", b - a }'
    else
        echo "?"
    fi
}

if [ "$gt" = "not wedged" ]; then
    exec_store exec-store-rcs rcs 0xc0ffee01
    exec_store exec-store-bcs bcs 0xc0ffee02

    # gem_exec_nop (IGT benchmark): prints the microseconds per empty
    # batch; intel_gpu_top samples the engines (i915 PMU) meanwhile.
    nop_ok=0 nop_what=
    for e in rcs bcs; do
        bounded $((TOOL_TIMEOUT + NOP_SECS)) "$work/nop-$e.txt" \
            /usr/libexec/igt-gpu-tools/benchmarks/gem_exec_nop -e "$e" -r 1 &
        nop_pid=$!
        [ "$e" = rcs ] && top_sample "$work/top-busy.txt" $((TOOL_TIMEOUT + NOP_SECS)) "$nop_pid"
        wait "$nop_pid"
        us=$(grep -E '^ *[0-9]+\.[0-9]+ *$' "$work/nop-$e.txt" | tail -n 1 | tr -d ' ')
        if [ -n "$us" ] && awk -v u="$us" 'BEGIN { exit !(u > 0) }'; then
            rate=$(awk -v u="$us" 'BEGIN { printf "%.0f", 1e6 / u }')
            nop_ok=$((nop_ok + 1))
            nop_what="$nop_what $e ${us} us/batch ($rate/s);"
        else
            nop_what="$nop_what $e: no rate ($(brief "$work/nop-$e.txt"));"
        fi
        section "gem_exec_nop-$e" "$work/nop-$e.txt"
    done
    if [ "$nop_ok" = 2 ]; then
        result exec-nop ok "gem_exec_nop:$nop_what"
    else
        result exec-nop fail "gem_exec_nop:$nop_what"
    fi
    work_sum="$work_sum; gem_exec_nop:$nop_what"
    # The CPU-only baseline make bench divides the rates by.
    bounded $((TOOL_TIMEOUT + NOP_SECS)) "$work/syscalls.txt" "$probe" syscalls - "$NOP_SECS"
    work_sum="$work_sum baseline $(sed -n 's/^syscalls ok: //p' "$work/syscalls.txt")"

    top_sample "$work/top-idle.txt" 1
    section intel_gpu_top-busy "$work/top-busy.txt"
    section intel_gpu_top-idle "$work/top-idle.txt"
    busy=$(busy_of "$work/top-busy.txt" Render/3D/0)
    idle=$(busy_of "$work/top-idle.txt" Render/3D/0)
    if awk -v b="$busy" -v i="$idle" 'BEGIN { exit !(b >= 2 && i < 1) }'; then
        result gpu-top ok "intel_gpu_top: Render/3D/0 ${busy}% busy during gem_exec_nop, ${idle}% after"
    else
        result gpu-top fail "intel_gpu_top: Render/3D/0 ${busy}% busy during gem_exec_nop, ${idle}% after; want >= 2% and < 1% ($(brief "$work/top-busy.txt"))"
    fi

    # A batch that never ends: i915's heartbeat (made fast here) finds it,
    # the engine is reset (STOP_RING, RING_RESET_CTL, GDRST), and the next
    # batch runs.
    hb=/sys/class/drm/card0/engine/rcs0/heartbeat_interval_ms
    hb0=$(cat "$hb" 2>/dev/null)
    echo 250 > "$hb" 2>/dev/null
    dmesg > "$work/dmesg-before-hang.txt"
    bounded 40 "$work/hang.txt" "$probe" hang rcs 30
    echo "${hb0:-2500}" > "$hb" 2>/dev/null
    dmesg | sed "1,$(wc -l < "$work/dmesg-before-hang.txt")d" > "$work/dmesg-hang.txt"
    section dmesg-hang "$work/dmesg-hang.txt"
    reset_line=$(grep -E 'Resetting rcs0|GPU HANG' "$work/dmesg-hang.txt" | head -n 1 |
        sed 's/^\[[ 0-9.]*\] //')
    wedge_line=$(grep -iE 'wedged|Failed to reset' "$work/dmesg-hang.txt" | head -n 1)
    if [ "$b_rc" = 0 ] && [ -n "$reset_line" ] && [ -z "$wedge_line" ]; then
        result hang-reset ok "$(brief "$work/hang.txt"); dmesg: $reset_line"
    else
        result hang-reset fail "i915-exec-probe hang (status $b_rc): $(brief "$work/hang.txt"); reset: ${reset_line:-none}; ${wedge_line:-}"
    fi
    work_sum="$work_sum; hang: ${reset_line:-no reset}"
    exec_store exec-after-reset rcs 0xc0ffee03

    # i915 perf streams (the OA unit) recorded by IGT's recorder, once idle
    # and once around gem_exec_nop, decoded by IGT's reader.
    # The GT frequency i915 has set (RPSTAT1's CAGF) during the recording.
    perf_record "$work/perf-idle" RenderBasic 0.001 \
        sh -c "cat /sys/class/drm/card0/gt_act_freq_mhz; sleep $NOP_SECS"
    # Not gem_exec_nop: IGT first asks i915 to idle the GT (drop_caches
    # DROP_IDLE), which waits as long as a perf stream keeps it awake.
    perf_record "$work/perf-busy" RenderBasic 0.001 "$probe" nop rcs 2000
    for r in idle busy; do
        bounded "$TOOL_TIMEOUT" "$work/perf-$r-reader.txt" \
            i915-perf-reader -c all "$work/perf-$r.rec"
        section "perf-$r-recorder" "$work/perf-$r-recorder.txt"
        section "perf-$r-reader" "$work/perf-$r-reader.txt"
        section "perf-$r-cmd" "$work/perf-$r-cmd.txt"
    done
    # Idle: (reports - 1) x 2^(e+1) ticks span the OA timestamps; GPU
    # ticks at the GT frequency i915 set.  Busy: GpuBusy (A0) rises.
    e=$(sed -n 's/.*oa_exponent=\([0-9]*\).*/\1/p' "$work/perf-idle-recorder.txt")
    n=$(reader_field "$work/perf-idle-reader.txt" Reports)
    range=$(sed -n 's/^OA data timestamp range: *//p' "$work/perf-idle-reader.txt")
    t0=${range%%-*} t1=${range##*-}
    f=$(reader_field "$work/perf-idle-reader.txt" AvgGpuCoreFrequency)
    act=$(head -n 1 "$work/perf-idle-cmd.txt")
    # The reader prints counters per timeline (split at context switches).
    b0=$(reader_max "$work/perf-idle-reader.txt" GpuBusy)
    b1=$(reader_max "$work/perf-busy-reader.txt" GpuBusy)
    store=$(head -n 1 "$work/perf-busy-cmd.txt")
    span=$(( (t1 - t0) / (2 << ${e:-0}) ))
    what="idle: ${n:-?} reports at e=${e:-?} over ${span:-?} periods, AvgGpuCoreFrequency ${f:-?} (GT at ${act:-?} MHz), GpuBusy ${b0:-?}; with 2000 user batches: GpuBusy ${b1:-?}"
    if [ -n "$e" ] && [ -n "$n" ] && [ "$n" -gt 100 ] && [ -n "$t0" ] &&
        [ $(( (t1 - t0) % (2 << e) )) -eq 0 ] &&
        [ $((n - 1)) -ge $((span * 9 / 10)) ] && [ $((n - 1)) -le $((span + 2)) ] &&
        awk -v f="$f" -v a="$act" -v b0="$b0" -v b1="$b1" \
            'BEGIN { exit !(a >= 300 && f > 0.99e6 * a && f < 1.01e6 * a && b1 > b0) }' &&
        [ "${store%%:*}" = "nop ok" ]; then
        result perf-record ok "i915-perf-recorder/reader, RenderBasic: $what"
    else
        result perf-record fail "$what; timestamps ${range:-?}; batch: ${store:-none}"
    fi
    work_sum="$work_sum; OA: $what"

    # Flexible EU counters: RenderBasic programs EU_PERF_CNT_CTL0-6 (A7 EU
    # active, A8 EU stall, A9 both FPUs, A10 VS FPU0 ...); GPGPU walkers
    # give the modelled EU array work (docs/intel-gpu-oa.rst): per thread
    # 48 active, 16 stalled, 8 both-FPU clocks of 64, and no vertex work.
    perf_record "$work/perf-eu" RenderBasic 0.001 "$probe" walker rcs 1000
    bounded "$TOOL_TIMEOUT" "$work/perf-eu-reader.txt" \
        i915-perf-reader -c all "$work/perf-eu.rec"
    section perf-eu-reader "$work/perf-eu-reader.txt"
    ea=$(reader_max "$work/perf-eu-reader.txt" EuActive)
    es=$(reader_max "$work/perf-eu-reader.txt" EuStall)
    eb=$(reader_max "$work/perf-eu-reader.txt" EuFpuBothActive)
    eu_vs=$(reader_max "$work/perf-eu-reader.txt" VsFpu0Active)
    eu_cs=$(reader_max "$work/perf-eu-reader.txt" CsThreads)
    ei=$(reader_max "$work/perf-idle-reader.txt" EuActive)
    # ComputeBasic makes A9 the threads-loaded integrator: one thread an EU
    # while busy gives EuThreadOccupancy 1/7 of the busy time, 4/21 of
    # EuActive.
    perf_record "$work/perf-eu-compute" ComputeBasic 0.001 \
        "$probe" walker rcs 300
    bounded "$TOOL_TIMEOUT" "$work/perf-eu-compute-reader.txt" \
        i915-perf-reader -c all "$work/perf-eu-compute.rec"
    section perf-eu-compute-reader "$work/perf-eu-compute-reader.txt"
    ca=$(reader_max "$work/perf-eu-compute-reader.txt" EuActive)
    co=$(reader_max "$work/perf-eu-compute-reader.txt" EuThreadOccupancy)
    walk=$(head -n 1 "$work/perf-eu-cmd.txt")
    walk2=$(head -n 1 "$work/perf-eu-compute-cmd.txt")
    what="EuActive ${ea:-?} %, EuStall ${es:-?} %, EuFpuBothActive ${eb:-?} %, VsFpu0Active ${eu_vs:-?} %, CsThreads ${eu_cs:-?} with 1000 walkers; EuActive ${ei:-?} % idle; ComputeBasic: EuActive ${ca:-?} %, EuThreadOccupancy ${co:-?} %"
    if [ "${walk%%:*}" = "walker ok" ] && [ "${walk2%%:*}" = "walker ok" ] &&
        awk -v a="$ea" -v s="$es" -v b="$eb" -v v="$eu_vs" -v c="$eu_cs" \
            -v i="$ei" -v ca="$ca" -v co="$co" \
            'BEGIN { exit !(a > 1 && a <= 75.01 && a + s <= 100.01 &&
                            a > 2.97 * s && a < 3.03 * s &&
                            b > 0.49 * s && b < 0.51 * s &&
                            v == 0 && c >= 262144 && i == 0 && ca > 1 &&
                            co > 0.98 * ca * 4 / 21 &&
                            co < 1.02 * ca * 4 / 21) }'; then
        result perf-eu ok "RenderBasic's and ComputeBasic's flexible EU counters over GPGPU walkers: $what"
    else
        result perf-eu fail "$what; want EuActive = 3 EuStall = 6 EuFpuBothActive in (1, 75], none for VS or idle, EuThreadOccupancy 4/21 of EuActive; walkers: ${walk:-none}; ${walk2:-none}"
    fi
    work_sum="$work_sum; EU: $what"

    # IGT's TestOa metric set: its B counter configuration (added through
    # i915 perf) against the model's NOA signals gives fixed ratios to the
    # GPU clock (IGT's gen8_sanity_check_test_oa_reports).
    perf_record "$work/perf-testoa" TestOa 0.001 sleep 1
    bounded "$TOOL_TIMEOUT" "$work/perf-testoa-reader.txt" \
        i915-perf-reader -c all "$work/perf-testoa.rec"
    section perf-testoa-recorder "$work/perf-testoa-recorder.txt"
    section perf-testoa-reader "$work/perf-testoa-reader.txt"
    clk=$(reader_field "$work/perf-testoa-reader.txt" GpuCoreClocks)
    cs=
    for i in 0 1 2 3 4 5 6 7; do
        cs="$cs $(reader_field "$work/perf-testoa-reader.txt" Counter$i)"
    done
    what="TestOa: GpuCoreClocks ${clk:-?}, Counter0-7:$cs"
    if [ -n "$clk" ] && echo "$cs" | awk -v k="$clk" '{
            n = split("0 6 6 3 2 2 1 4", w, " ")
            if (NF != 8 || k < 1e6) exit 1
            for (i = 1; i <= 8; i++) {
                d = $i - k * w[i] / 6
                if (d < -k / 1000 || d > k / 1000) exit 1
            }
        }'; then
        result perf-testoa ok "$what (ratios 0, 1, 1, 1/2, 1/3, 1/3, 1/6, 2/3)"
    else
        result perf-testoa fail "$what; want ratios 0, 1, 1, 1/2, 1/3, 1/3, 1/6, 2/3"
    fi

    # make bench's OA cost (information only, no check): rounds of the
    # same work three ways, interleaved so that a drift of the host's load
    # hits them alike:
    #   none   no stream
    #   slow   a stream at a 1 s period: the engine wakeref and forcewake
    #          of the fast one, i915's 5 ms poll, the recorder waiting, but
    #          almost no reports
    #   fast   a stream at the shortest period i915 allows by default
    #          (10 us, dev.i915.oa_max_sample_rate), the recorder reading
    #          all of it
    # The work: the guest idle for 1 s, 1 s of getppid() calls, then
    # OA_COST_BATCHES empty user batches.  Each run gives the probe's
    # figure and, from the host agent, QEMU's host CPU time, the host clock
    # and the host CPU time everything else took around it.
    OA_COST_ROUNDS=${OA_COST_ROUNDS:-5} OA_COST_BATCHES=${OA_COST_BATCHES:-4000}
    ask cpu
    oa_cpu=$ans_st
    : > "$work/oa-cost.txt"
    r=1
    while [ "$r" -le "$OA_COST_ROUNDS" ]; do
        for m in none slow fast; do
            oa_cost_run "$r" "$m"
        done
        r=$((r + 1))
    done
    section oa-cost "$work/oa-cost.txt"
    section oa-cost-recorder "$work/oa-cost-fast-recorder.txt"
    oa_e=$(sed -n 's/.*oa_exponent=\([0-9]*\).*/\1/p' "$work/oa-cost-fast-recorder.txt")
    oa_e1=$(sed -n 's/.*oa_exponent=\([0-9]*\).*/\1/p' "$work/oa-cost-slow-recorder.txt")
    work_sum="$work_sum; OA cost: $(awk -v e="${oa_e:-?}" -v e1="${oa_e1:-?}" \
        -v n="$OA_COST_ROUNDS" -v b="$OA_COST_BATCHES" -v cpu="$oa_cpu" \
        -f /gpumodel/oa-cost.awk "$work/oa-cost.txt")"
else
    for c in exec-store-rcs exec-store-bcs exec-nop gpu-top hang-reset exec-after-reset; do
        result "$c" fail "not run: GT $gt"
    done
fi

# ---- splats -----------------------------------------------------------------
# Everything after our "modprobe i915" mark in the kernel log counts.  A splat
# before it (the kernel booting on TCG) is only mentioned.  Any line of a
# splat fails the check (a bare dump_stack has only "Call Trace:"); the
# headline of each is its WARNING/BUG line with the message printed before it.

splat='WARNING:|BUG:|Oops|Call Trace:|drm_WARN|cut here|general protection fault|UBSAN:|blocked for more than'
head='WARNING:|BUG:|Oops:|general protection fault|UBSAN:|blocked for more than'
dmesg > "$work/dmesg.txt"
sed -n '/gpumodel: modprobe i915$/,$p' "$work/dmesg.txt" > "$work/dmesg-i915.txt"
# Headlines: "<message> / WARNING: at <file:line> <function>", one per kind.
grep -E -B 1 "$head" "$work/dmesg-i915.txt" | sed 's/^\[[ 0-9.]*\] //' |
    awk '/^--$/ || /cut here/ { prev = ""; next }
         /'"$head"'/ { sub(/CPU: [0-9]+ PID: [0-9]+ /, ""); print (prev != "" ? prev " / " : "") $0; prev = ""; next }
         { prev = $0 }' | sort | uniq -c | sed 's/^ *\([0-9]*\) /\1x /' > "$work/splat-heads.txt"
before=$(sed '/gpumodel: modprobe i915$/,$d' "$work/dmesg.txt" | grep -cE "$head")
note=
[ "$before" -gt 0 ] && note=" ($before before it, while booting: see dmesg.txt)"
if ! grep -q 'gpumodel: modprobe i915$' "$work/dmesg.txt"; then
    result no-splat fail "the kernel log lost the modprobe mark; cannot tell"
elif grep -qE "$splat" "$work/dmesg-i915.txt"; then
    result no-splat fail "$(grep -cE "$head" "$work/dmesg-i915.txt") splats since modprobe i915; $(head -n 1 "$work/splat-heads.txt")"
    # The splats in full, for the log.
    grep -E -B 2 -A 40 "$splat" "$work/dmesg-i915.txt" > "$work/splats.txt"
    section splats "$work/splats.txt"
else
    result no-splat ok "no oops, BUG or WARN splat from modprobe i915 to the interrupt checks$note"
fi

# ---- more of what the driver reports, for the summary and the logs ----------

if [ -n "$dri" ]; then
    for f in i915_capabilities i915_engine_info i915_frequency_info \
        i915_sseu_status gt0/i915_frequency_info; do
        [ -r "$dri/$f" ] || continue
        bounded "$TOOL_TIMEOUT" "$work/debugfs.txt" cat "$dri/$f"
        section "debugfs/$f" "$work/debugfs.txt"
        case $f in
            *frequency_info) cp "$work/debugfs.txt" "$work/freq.txt" ;;
            *sseu_status) cp "$work/debugfs.txt" "$work/sseu.txt" ;;
        esac
    done
fi
# What other IGT tools make of it (information only, no check).
bounded "$TOOL_TIMEOUT" "$work/lsgpu.txt" lsgpu
section lsgpu "$work/lsgpu.txt"
bounded "$TOOL_TIMEOUT" "$work/freq-tool.txt" intel_gpu_frequency --get
section intel_gpu_frequency "$work/freq-tool.txt"
section dmesg "$work/dmesg.txt"

# ---- summary ----------------------------------------------------------------

echo "@@SUMMARY-BEGIN"
echo "Guest: Linux $(uname -r), checks done $(cut -d' ' -f1 /proc/uptime) s after boot"
if [ "$got" = absent ]; then
    echo "Device: none at $BDF"
else
    echo "Device: $BDF $got"
    sed -n '1p;3p' "$dev/resource" | while read -r s e f; do
        [ $((s)) -ne 0 ] && echo "  BAR: $(((e - s + 1) >> 20)) MiB at $s (flags $f)"
    done
fi
echo "Driver: $drv (modprobe i915: status $mp_rc after $mp_secs s)"
echo "GT: $gt"
echo "User work: ${work_sum#; }"
if [ -n "$dri" ] && [ -r "$dri/i915_capabilities" ]; then
    grep -E '^(platform|graphics version|gt):' "$dri/i915_capabilities" 2>/dev/null |
        sed 's/^/  /'
fi
echo "Engines (sysfs): $engines"
echo "lsgpu: $(head -n 1 "$work/lsgpu.txt" | tr -s ' ')"
echo "intel_gpu_frequency --get: $(words < "$work/freq-tool.txt")"
echo "DRM nodes: $(find /dev/dri -mindepth 1 -maxdepth 1 -exec basename {} \; 2>/dev/null | sort | words)"
echo "What i915 found (drm debug messages):"
grep '\[drm:' "$work/dmesg.txt" | grep -E 'GGTT size|GMADR size|DSM size|fused off|rawclk rate|enable_guc=' |
    sed 's/^\[[ 0-9.]*\] [^]]*\]] /  /'
if [ -n "$dri" ] && [ -r "$work/freq.txt" ]; then
    echo "RPS (debugfs i915_frequency_info):"
    grep -E '^(Lowest|Nominal|Max non-overclocked|Current freq)' "$work/freq.txt" |
        sed 's/^/  /'
fi
echo "SSEU (debugfs i915_sseu_status): $(grep -E 'Available (Slice Total|Subslice Total|EU Total)' "$work/sseu.txt" 2>/dev/null |
    sed 's/^ *Available //;s/$/,/' | words | sed 's/,$//')"
echo "i915 messages (info and above):"
grep -E 'i915 0000:00:02\.0: \[drm\]|i915: |\[drm\] ' "$work/dmesg.txt" |
    sed 's/^\[[ 0-9.]*\] /  /' | head -n 40
echo "Splats since modprobe i915: $(grep -cE "$head" "$work/dmesg-i915.txt")"
sed 's/^/  /' "$work/splat-heads.txt"
echo "intel_reg:"
sed 's/^/  /' "$work/intel_reg.txt" | head -n 20
echo "@@SUMMARY-END"

# ---- interrupts ---------------------------------------------------------------
# Last, after the summary: an injected event that crashes the guest kernel
# must not cost the checks and the logs above.  no-splat covers the kernel
# log up to here; irq-healthy the part from the injections on.
# The host agent injects events into the device's interrupt tree through
# QMP when asked: "@@REQ <seq> inject <class> <instance> <bits>" for
# x-intel-gpu-inject-irq, "@@REQ <seq> drill <class> <instance> <count>" for
# x-intel-gpu-drill-irq (drop), "@@REQ <seq> ping" for a QMP query-status.
# An injected event goes through the enables and masks as programmed.  One
# at a time: the next is asked for only when i915's count in
# /proc/interrupts shows the last one, since an event arriving before i915
# serviced the previous one collapses into it (one message for both), as on
# the hardware.
#
# Two sources, both serviced by i915's real handler:
# - GTPM (Other class 4, instance 1, GT INT DW0 bit 16), data bit 0.
#   gen11_other_irq_handler passes it to gen11_rps_irq_handler, which
#   returns at once for bits outside rps->pm_events; those only ever hold
#   RPS events (GEN6_PM_RPS_EVENTS: bits 1, 2, 4, 5, 6), and stay 0 on a
#   wedged GT.  i915 leaves the source disabled and masked, so the checks
#   enable and unmask bit 0 with intel_reg first, as a driver-CI fault drill
#   would, and put back the values they found afterwards.
# - RCS0's user interrupt (class 0, instance 0, bit 0), only on a GT that
#   initialised: on a GT wedged on init i915 6.1 signals the breadcrumbs it
#   freed and the guest panics (docs/intel-gpu-interrupts.rst).  Until the
#   model has command streamers the GT wedges and the check is a skip.

# GTPM's fields: bits 31:16 of GEN11_GPM_WGBOXPERF_INTR_ENABLE 0x19003C and
# _MASK 0x1900EC, where i915 writes its RPS events ("pm is in upper half",
# write_pm_ier/write_pm_imr).
GTPM_EN=0x19003C GTPM_MASK=0x1900EC
GTPM_BITS=0x1                       # data bit 0: not an RPS event
gtpm_bit=$((GTPM_BITS << 16))

hex() { printf '0x%08x' "$1"; }

s_before='' s_after='' s_err='' s_over=
# irq_read: i915's interrupt in /proc/interrupts: irq_n its count summed
# over the CPUs, irq_line "<IRQ>: <chip, hwirq, type, name>"; both empty
# when no interrupt is named i915.
irq_read() {
    irq_line=$(awk 'NR == 1 { n = NF; next }
        { for (i = n + 2; i <= NF; i++) if ($i ~ /^i915,?$/) {
              s = 0; for (j = 2; j <= n + 1; j++) s += $j
              d = $1; for (k = n + 2; k <= NF; k++) d = d " " $k
              print s, d; exit } }' /proc/interrupts)
    irq_n=${irq_line%% *}
    irq_line=${irq_line#* }
}

# irq_wait TARGET: poll the count until it reaches TARGET, at most
# IRQ_TIMEOUT s.
irq_wait() {
    w_end=$(($(cut -d. -f1 /proc/uptime) + IRQ_TIMEOUT))
    irq_read
    while [ "${irq_n:-0}" -lt "$1" ] && [ "$(cut -d. -f1 /proc/uptime)" -lt "$w_end" ]; do
        usleep 1000
        irq_read
    done
}

# inject_series N LOST CLASS INSTANCE BITS: ask for N events, one at a time;
# the first LOST are expected to be dropped by a drill.  After each other
# one wait until the count shows it.  Sets s_before, s_after, s_err (empty
# when every injection was answered and counted), s_over (the first time
# the count ran ahead of the injections).
inject_series() {
    s_err='' s_over=''
    irq_read
    s_before=$irq_n target=$irq_n i=0
    while [ $i -lt "$1" ]; do
        i=$((i + 1))
        ask inject "$3" "$4" "$5"
        if [ "$ans_st" != ok ]; then
            s_err="x-intel-gpu-inject-irq $i of $1: $ans_st: $ans_text"
            break
        fi
        if [ $i -le "$2" ]; then
            continue
        fi
        target=$((target + 1))
        irq_wait "$target"
        if [ "${irq_n:-0}" -lt "$target" ]; then
            s_err="injection $i of $1 not counted within $IRQ_TIMEOUT s (count ${irq_n:-none}, want $target)"
            break
        fi
        if [ "$irq_n" -gt "$target" ] && [ -z "$s_over" ]; then
            s_over="after injection $i the count was $irq_n, want $target"
        fi
    done
    irq_read
    s_after=$irq_n
}

kmsg "irq checks"
irq_sum=
ask ping
agent_st=$ans_st
if [ "$ans_st" = ok ]; then
    result host-agent ok "host agent answers on the data channel; QMP query-status: $ans_text"
else
    result host-agent fail "host agent: $ans_st: $ans_text"
fi

# A runtime-suspended i915 turns its interrupts off: keep the device awake
# (writing "on" resumes it before the write returns).
rpm=
if [ -w "$dev/power/control" ]; then
    echo on > "$dev/power/control"
    rpm=$(cat "$dev/power/runtime_status")
fi
irq_read
if [ -z "$irq_n" ]; then
    result irq-line fail "no interrupt named i915 in /proc/interrupts (driver: $drv, runtime PM: ${rpm:-none})"
    irq_ok=0
elif [ "$rpm" != active ]; then
    result irq-line fail "i915's interrupt is IRQ $irq_line, count $irq_n, but the device is runtime-${rpm:-?} after power/control=on"
    irq_ok=0
else
    case $irq_line in
        *MSI*) how=MSI ;;
        *) how="not MSI" ;;
    esac
    result irq-line ok "i915's interrupt is IRQ $irq_line ($how), count $irq_n, runtime PM active"
    irq_ok=1
fi
irq_sum="IRQ ${irq_line:-none}"

# check_series ID N LOST WHAT CLASS INSTANCE BITS: inject_series and the
# check ID.
check_series() {
    cs_id=$1 cs_n=$2 cs_lost=$3 cs_what=$4
    if [ "$agent_st" != ok ]; then
        result "$cs_id" fail "$cs_what: no host agent to inject through"
        return
    fi
    if [ "$irq_ok" != 1 ]; then
        result "$cs_id" fail "$cs_what: no i915 interrupt to count"
        return
    fi
    inject_series "$cs_n" "$cs_lost" "$5" "$6" "$7"
    want=$((cs_n - cs_lost))
    got="count $s_before -> $s_after"
    if [ -n "$s_err" ]; then
        result "$cs_id" fail "$cs_what: $s_err; $got"
    elif [ $((s_after - s_before)) -ne "$want" ]; then
        result "$cs_id" fail "$cs_what: $got (+$((s_after - s_before))), want +$want${s_over:+; $s_over}"
    else
        result "$cs_id" ok "$cs_what: i915's $got (+$want)"
    fi
    irq_sum="$irq_sum; $cs_what: $s_before -> ${s_after:-?}"
}

# gtpm_regs FILE: read GTPM's enable and mask into FILE; sets g_en, g_mk
# (empty when not read).
gtpm_regs() {
    bounded "$TOOL_TIMEOUT" "$1" intel_reg read "$GTPM_EN" "$GTPM_MASK"
    g_en=$(regval "$1" "$GTPM_EN") g_mk=$(regval "$1" "$GTPM_MASK")
}

# Arm GTPM bit 0: enable, then unmask; read back.
kmsg "irq: arming GTPM bit 0"
gtpm_armed=0
gtpm_regs "$work/gtpm-found.txt"
en0=$g_en mk0=$g_mk
if [ -z "$en0" ] || [ -z "$mk0" ]; then
    result irq-gtpm-arm fail "intel_reg could not read GTPM's enable $GTPM_EN and mask $GTPM_MASK (status $b_rc: $(brief "$work/gtpm-found.txt"))"
else
    en1=$(hex $((en0 | gtpm_bit))) mk1=$(hex $((mk0 & ~gtpm_bit & 0xffffffff)))
    bounded "$TOOL_TIMEOUT" "$work/gtpm-write.txt" intel_reg write "$GTPM_EN" "$en1" "$GTPM_MASK" "$mk1"
    w_rc=$b_rc
    gtpm_regs "$work/gtpm-armed.txt"
    if [ -n "$g_en" ] && [ -n "$g_mk" ] && [ $((g_en)) -eq $((en1)) ] && [ $((g_mk)) -eq $((mk1)) ]; then
        result irq-gtpm-arm ok "intel_reg: GTPM bit 0 enabled and unmasked: enable $GTPM_EN $en0 -> $g_en, mask $GTPM_MASK $mk0 -> $g_mk"
        gtpm_armed=1
    else
        result irq-gtpm-arm fail "intel_reg wrote enable $GTPM_EN $en1, mask $GTPM_MASK $mk1 (status $w_rc: $(brief "$work/gtpm-write.txt")), read back ${g_en:-?}, ${g_mk:-?}"
    fi
    irq_sum="$irq_sum; GTPM enable/mask $en0/$mk0 -> ${g_en:-?}/${g_mk:-?}"
fi

what="$IRQ_INJECT GTPM events (class 4, instance 1, bit 0) injected"
if [ "$gtpm_armed" = 1 ]; then
    kmsg "irq: injecting $IRQ_INJECT GTPM events"
    check_series irq-inject-gtpm "$IRQ_INJECT" 0 "$what" 4 1 "$GTPM_BITS"
else
    result irq-inject-gtpm fail "$what: not injected, GTPM bit 0 is not armed (irq-gtpm-arm)"
fi

# The drill: the next IRQ_DRILL_DROP messages of GTPM are lost.
what="drill drops $IRQ_DRILL_DROP of $IRQ_DRILL_INJECT GTPM events injected"
if [ "$gtpm_armed" != 1 ]; then
    result irq-drill-gtpm fail "$what: not injected, GTPM bit 0 is not armed (irq-gtpm-arm)"
elif [ "$agent_st" = ok ] && [ "$irq_ok" = 1 ]; then
    kmsg "irq: drill dropping $IRQ_DRILL_DROP GTPM messages, then injecting $IRQ_DRILL_INJECT"
    ask drill 4 1 "$IRQ_DRILL_DROP"
    if [ "$ans_st" = ok ]; then
        check_series irq-drill-gtpm "$IRQ_DRILL_INJECT" "$IRQ_DRILL_DROP" "$what" 4 1 "$GTPM_BITS"
    else
        result irq-drill-gtpm fail "x-intel-gpu-drill-irq class 4 instance 1 count=$IRQ_DRILL_DROP: $ans_st: $ans_text"
    fi
else
    check_series irq-drill-gtpm "$IRQ_DRILL_INJECT" "$IRQ_DRILL_DROP" "$what" 4 1 "$GTPM_BITS"
fi

# Put back what i915 had: mask first, then the enable.
if [ -z "$en0" ] || [ -z "$mk0" ]; then
    result irq-gtpm-restore skip "nothing to put back: GTPM's enable and mask were never read or written"
else
    kmsg "irq: restoring GTPM enable $en0, mask $mk0"
    bounded "$TOOL_TIMEOUT" "$work/gtpm-write.txt" intel_reg write "$GTPM_MASK" "$mk0" "$GTPM_EN" "$en0"
    w_rc=$b_rc
    gtpm_regs "$work/gtpm-restored.txt"
    if [ -n "$g_en" ] && [ -n "$g_mk" ] && [ $((g_en)) -eq $((en0)) ] && [ $((g_mk)) -eq $((mk0)) ]; then
        result irq-gtpm-restore ok "intel_reg: GTPM's enable $GTPM_EN and mask $GTPM_MASK back to the values i915 left, $g_en and $g_mk"
    else
        result irq-gtpm-restore fail "intel_reg wrote mask $GTPM_MASK $mk0, enable $GTPM_EN $en0 (status $w_rc: $(brief "$work/gtpm-write.txt")), read back ${g_mk:-?}, ${g_en:-?}"
    fi
    irq_sum="$irq_sum; GTPM enable/mask restored: ${g_en:-?}/${g_mk:-?}"
fi
cat "$work"/gtpm-found.txt "$work"/gtpm-armed.txt "$work"/gtpm-restored.txt \
    > "$work/gtpm-regs.txt" 2>/dev/null
section intel_reg-gtpm "$work/gtpm-regs.txt"

# RCS0: only on a GT that initialised (see above).
what="$IRQ_INJECT render user interrupts (class 0, instance 0, bit 0) injected"
case $gt in
    "not wedged")
        kmsg "irq: injecting $IRQ_INJECT render user interrupts"
        check_series irq-inject-render "$IRQ_INJECT" 0 "$what" 0 0 0x1 ;;
    wedged*)
        result irq-inject-render skip "render user interrupts need a GT that initialised: on a wedged GT i915 6.1 signals freed breadcrumbs and the guest panics (engines are not emulated yet)"
        irq_sum="$irq_sum; render user interrupts: not injected (GT wedged)" ;;
    *)
        result irq-inject-render fail "$what: not injected, GT state $gt" ;;
esac
kmsg "irq: injections done"
irq_read
last_n=$irq_n

# Healthy after it: still bound, no interrupt error from i915 or the IRQ
# core, the tree at rest as i915's handler leaves it (master enable set,
# GT INT DW0 cleared, no identity or selector pending: it serviced every
# event), and the count stood still since the last injection.
dmesg > "$work/dmesg.txt"
sed -n '/gpumodel: irq checks$/,$p' "$work/dmesg.txt" > "$work/dmesg-irq.txt"
# i915's interrupt messages (gen11_gt_engine_identity: "INTR_IDENTITY_REG
# ... not valid!", gen11_gt_identity_handler: "unhandled engine interrupt"),
# the IRQ core's ("nobody cared"), any splat.
irqmsg='not valid|lied|unhandled|unknown interrupt|nobody cared|Disabling IRQ|\*ERROR\*'
grep -E "$irqmsg|$splat" "$work/dmesg-irq.txt" | sed 's/^\[[ 0-9.]*\] //' > "$work/irq-errors.txt"
# The headline: the first such message and the first splat headline.
irq_head=$( (grep -E -m 1 "$irqmsg" "$work/irq-errors.txt"; grep -E -m 1 "$head" "$work/irq-errors.txt") |
    awk '!seen[$0]++' | tr '\n' '|' | sed 's/|$//;s/|/ \/ /g')
bounded "$TOOL_TIMEOUT" "$work/irq-regs.txt" intel_reg read 0x190010 0x190018 0x190060 0x190070
section intel_reg-irq "$work/irq-regs.txt"
mstr=$(regval "$work/irq-regs.txt" 0x190010) dw0=$(regval "$work/irq-regs.txt" 0x190018)
ident=$(regval "$work/irq-regs.txt" 0x190060) sel=$(regval "$work/irq-regs.txt" 0x190070)
tree="GFX_MSTR_IRQ ${mstr:-?}, GT_INTR_DW0 ${dw0:-?}, INTR_IDENTITY0 ${ident:-?}, IIR_REG_SELECTOR0 ${sel:-?}"
irq_read
drv=none
[ -e "$dev/driver" ] && drv=$(basename "$(readlink "$dev/driver")")
if [ "$agent_st" != ok ] || [ "$irq_ok" != 1 ]; then
    result irq-healthy skip "no injections were made (host agent: $agent_st; i915 interrupt: ${irq_line:-none})"
elif [ "$drv" != i915 ]; then
    result irq-healthy fail "after the injections i915 is not bound (driver: $drv)"
elif [ -s "$work/irq-errors.txt" ]; then
    result irq-healthy fail "dmesg since the injections began: ${irq_head:-$(head -n 1 "$work/irq-errors.txt")} ($(wc -l < "$work/irq-errors.txt") lines)"
    section irq-errors "$work/irq-errors.txt"
elif [ -z "$mstr" ] || [ -z "$dw0" ] || [ -z "$ident" ] || [ -z "$sel" ]; then
    result irq-healthy fail "intel_reg could not read the interrupt tree (status $b_rc: $(brief "$work/irq-regs.txt"))"
elif [ $((mstr)) -ne $((0x80000000)) ] || [ $((dw0)) -ne 0 ] || [ $((ident)) -ne 0 ] || [ $((sel)) -ne 0 ]; then
    result irq-healthy fail "interrupt tree not at rest: $tree, want 0x80000000, 0, 0, 0"
elif [ "${irq_n:-x}" != "${last_n:-y}" ]; then
    result irq-healthy fail "the i915 count moved after the last injection: $last_n -> ${irq_n:-none}"
else
    result irq-healthy ok "i915 bound, no interrupt error or splat in dmesg, tree at rest ($tree), count still $irq_n"
fi
irq_sum="$irq_sum; tree after: $tree"
section dmesg-irq "$work/dmesg-irq.txt"

# A snapshot taken and loaded back (HMP savevm, loadvm, through the host
# agent) while gem_exec_nop keeps rcs0 busy: the guest goes on from the
# loaded state with i915's requests in flight, gem_exec_nop completes, no
# hang, reset or splat follows, and the next batch runs.
snap_sum="not taken"
if [ "$gt" != "not wedged" ] || [ "$agent_st" != ok ]; then
    result snapshot-resume skip "needs a GT that initialised and the host agent (GT: $gt; agent: $agent_st)"
    result exec-after-snapshot skip "no snapshot was taken"
else
    kmsg "snapshot"
    bounded $((TOOL_TIMEOUT + NOP_SECS)) "$work/nop-snapshot.txt" \
        /usr/libexec/igt-gpu-tools/benchmarks/gem_exec_nop -e rcs -r 1 &
    nop_pid=$!
    sleep 1
    ASK_TIMEOUT=600 ask snapshot
    wait "$nop_pid"
    section gem_exec_nop-snapshot "$work/nop-snapshot.txt"
    dmesg | sed -n '/gpumodel: snapshot$/,$p' > "$work/dmesg-snapshot.txt"
    section dmesg-snapshot "$work/dmesg-snapshot.txt"
    us=$(grep -E '^ *[0-9]+\.[0-9]+ *$' "$work/nop-snapshot.txt" | tail -n 1 | tr -d ' ')
    trouble=$(grep -E -m 1 "GPU HANG|Resetting|wedged|Failed to reset|$splat" "$work/dmesg-snapshot.txt" |
        sed 's/^\[[ 0-9.]*\] //')
    snap_sum="savevm+loadvm $ans_st ($ans_text), gem_exec_nop ${us:-no rate} us/batch, dmesg: ${trouble:-quiet}"
    if [ "$ans_st" != ok ]; then
        result snapshot-resume fail "savevm/loadvm: $ans_st: $ans_text"
    elif [ -z "$us" ] || ! awk -v u="$us" 'BEGIN { exit !(u > 0) }'; then
        result snapshot-resume fail "gem_exec_nop gave no rate across the snapshot: $(brief "$work/nop-snapshot.txt")"
    elif [ -n "$trouble" ]; then
        result snapshot-resume fail "dmesg after the snapshot: $trouble"
    else
        result snapshot-resume ok "$snap_sum"
    fi
    exec_store exec-after-snapshot rcs 0xc0ffee04
fi

# Fault drills on rcs0 under a user batch, with rcs0's heartbeat made
# fast (250 ms).  drill_check ID VALUE EXPECT REQUEST...: the host agent
# makes the drill REQUEST, then a batch storing VALUE runs (whatever
# becomes of it is recorded, not judged).  The check wants i915 to reset
# rcs0 with a kernel log line matching EXPECT (what i915 does with that
# drill), not to be wedged, and the next batch to store VALUE + 1.
# Appends to drills_sum.
drills_sum=""
drill_check() {
    d_id=$1 d_val=$2 d_expect=$3
    shift 3
    if [ "$gt" != "not wedged" ] || [ "$agent_st" != ok ]; then
        result "$d_id" skip "needs a GT that initialised and the host agent (GT: $gt; agent: $agent_st)"
        drills_sum="$drills_sum $d_id: not run;"
        return
    fi
    kmsg "$d_id"
    hb=/sys/class/drm/card0/engine/rcs0/heartbeat_interval_ms
    hb0=$(cat "$hb" 2>/dev/null)
    echo 250 > "$hb" 2>/dev/null
    ask "$@"
    d_st=$ans_st d_text=$ans_text
    bounded 40 "$work/$d_id-victim.txt" "$probe" store rcs "$d_val"
    d_victim=$b_rc
    echo "${hb0:-2500}" > "$hb" 2>/dev/null
    dmesg | sed -n "/gpumodel: $d_id\$/,\$p" > "$work/dmesg-$d_id.txt"
    section "dmesg-$d_id" "$work/dmesg-$d_id.txt"
    d_reset=$(grep -E 'Resetting rcs0|GPU HANG' "$work/dmesg-$d_id.txt" |
        sed 's/^\[[ 0-9.]*\] //' | words)
    d_match=$(grep -E "$d_expect" "$work/dmesg-$d_id.txt" | head -n 1)
    d_wedge=$(grep -iE 'wedged|Failed to reset' "$work/dmesg-$d_id.txt" | head -n 1)
    bounded "$TOOL_TIMEOUT" "$work/$d_id-after.txt" "$probe" store rcs $((d_val + 1))
    d_after=$b_rc
    d_sum="drill $d_st; batch under the drill: status $d_victim; i915: $d_reset; next batch: status $d_after"
    drills_sum="$drills_sum $d_id: $d_sum;"
    if [ "$d_st" != ok ]; then
        result "$d_id" fail "$*: $d_text"
    elif [ -z "$d_match" ] || [ -n "$d_wedge" ]; then
        result "$d_id" fail "i915 did not reset rcs0 as expected (/$d_expect/): $d_reset; ${d_wedge:-}"
    elif [ "$d_after" != 0 ]; then
        result "$d_id" fail "after the reset the next batch failed (status $d_after): $(brief "$work/$d_id-after.txt")"
    else
        result "$d_id" ok "$d_sum; $(brief "$work/$d_id-after.txt")"
    fi
}

# i915's hang detection: the heartbeat, or the preemption timeout of the
# heartbeat's own request.
hung='Resetting rcs0 for (stopped heartbeat|preemption time out)'
# Hang: rcs0 fetches nothing, with no error; i915's hang detection
# resets it, which ends the drill.
drill_check drill-hang 0xc0ffee05 "$hung" hang 0 0
# The next CSB entry (the batch's idle-to-active event) dropped, or
# written as a bare "complete": process_csb meets a completion with
# nothing in flight (ERROR_CSB) and resets the engine at once.
drill_check drill-csb-drop 0xc0ffee07 'Resetting rcs0 for invalid CSB event' csb 0 0 drop
drill_check drill-csb-corrupt 0xc0ffee09 'Resetting rcs0 for invalid CSB event' csb 0 0 corrupt
# The next writes of rcs0 fail: the idle-to-active entry (only in the
# MMIO mirror, unseen: the HWSP write pointer did not move) and the
# request's first store, a page fault that halts the engine with the
# error masked by i915's EMR, so no CS error interrupt.  i915's hang
# detection resets rcs0, which cancels the writes left.
drill_check drill-dma 0xc0ffee0b "$hung" dma 0 0 4

# The OA drills: i915-perf-probe reads an i915 perf stream (timer at
# exponent OA_DRILL_E: 1.37 ms) while the host drills, one second in.
# What stock i915 6.1 does:
# - drill-oa-stall (x-intel-gpu-drill-oa-tail-stall, 1 s): i915 follows
#   OATAILPTR, so the reader gets nothing while it holds, then every
#   report written meanwhile at once: no gap, nothing lost;
# - drill-oa-overflow (x-intel-gpu-drill-oa-overflow, one report):
#   gen8_oa_read finds OASTATUS buffer overflow, gives the reader a
#   DRM_I915_PERF_RECORD_OA_BUFFER_LOST record and restarts the OA unit
#   (buffer re-initialised); the reports after it come one period apart.
OA_DRILL_E=13
oa_sum="not run"
# oa_field NAME: a number from the probe's "perf ok" line in $o_out.
oa_field() { echo " $o_out " | sed -n "s/.* $1 \([0-9]*\) .*/\1/p"; }
# oa_drill NAME SECONDS REQUEST...: the probe reads for SECONDS; one
# second in, the host agent runs REQUEST.  Sets o_out (the probe's line)
# and o_trouble (a splat or i915 complaint in dmesg since the drill).
oa_drill() {
    o_name=$1 o_secs=$2
    shift 2
    kmsg "drill $o_name"
    /gpumodel/i915-perf-probe "$o_secs" "$OA_DRILL_E" > "$work/$o_name.txt" 2>&1 &
    o_pid=$!
    sleep 1
    ask "$@"
    o_t=0
    while kill -0 "$o_pid" 2>/dev/null && [ "$o_t" -lt $((TOOL_TIMEOUT + o_secs)) ]; do
        sleep 1
        o_t=$((o_t + 1))
    done
    kill -9 "$o_pid" 2>/dev/null
    wait "$o_pid" 2>/dev/null
    section "$o_name" "$work/$o_name.txt"
    dmesg | sed -n "/gpumodel: drill $o_name\$/,\$p" > "$work/dmesg-$o_name.txt"
    section "dmesg-$o_name" "$work/dmesg-$o_name.txt"
    o_out=$(grep -m 1 '^perf ok' "$work/$o_name.txt")
    o_trouble=$(grep -m 1 -E 'WARNING:|BUG:|Oops|Call Trace|unlanded|timed out' \
        "$work/dmesg-$o_name.txt" | sed 's/^\[[ 0-9.]*\] //')
}
if [ "$gt" != "not wedged" ] || [ "$agent_st" != ok ]; then
    result drill-oa-stall skip "needs a GT that initialised and the host agent (GT: $gt; agent: $agent_st)"
    result drill-oa-overflow skip "needs a GT that initialised and the host agent (GT: $gt; agent: $agent_st)"
else
    oa_drill drill-oa-stall 4 oa-stall 1 1000000000
    what="drill $ans_st; ${o_out:-no probe result: $(brief "$work/drill-oa-stall.txt")}"
    oa_sum="stall: $what"
    if [ "$ans_st" = ok ] && [ -n "$o_out" ] &&
        [ "$(oa_field samples)" -ge 300 ] && [ "$(oa_field gaps)" = 0 ] &&
        [ "$(oa_field buffer_lost)" = 0 ] && [ "$(oa_field report_lost)" = 0 ] &&
        [ "$(oa_field max_wait_ms)" -ge 800 ] && [ -z "$o_trouble" ]; then
        result drill-oa-stall ok "$what"
    else
        result drill-oa-stall fail "$what; want >= 300 samples, no gap or loss, a wait >= 800 ms; dmesg: ${o_trouble:-quiet}"
    fi

    oa_drill drill-oa-overflow 3 oa-overflow 1
    # i915's drm_dbg when gen8_oa_read restarts the unit.
    restart=$(grep -m 1 'OA buffer overflow.*force restart' \
        "$work/dmesg-drill-oa-overflow.txt" | sed 's/^\[[ 0-9.]*\] //')
    what="drill $ans_st; ${o_out:-no probe result: $(brief "$work/drill-oa-overflow.txt")}; dmesg: ${restart:-no restart}"
    oa_sum="$oa_sum; overflow: $what"
    if [ "$ans_st" = ok ] && [ -n "$o_out" ] &&
        [ "$(oa_field buffer_lost)" = 1 ] && [ "$(oa_field report_lost)" = 0 ] &&
        [ "$(oa_field after_lost)" -ge 100 ] &&
        [ "$(oa_field gaps_after_lost)" = 0 ] && [ -n "$restart" ] &&
        [ -z "$o_trouble" ]; then
        result drill-oa-overflow ok "$what"
    else
        result drill-oa-overflow fail "$what; want one OA_BUFFER_LOST record, i915's restart, >= 100 samples after it one period apart; dmesg: ${o_trouble:-quiet}"
    fi
fi

# The VCS0 control (IRQ_VCS0_CONTROL=1), after every check: a VCS0 user
# interrupt, for which i915 has no engine (the fuses disable every VDBOX), so
# gen11_engine_irq_handler WARNs "unhandled engine interrupt".  It shows the
# identity path reaching i915's dispatcher; information only.
if [ "$IRQ_VCS0_CONTROL" = 1 ] && [ "$agent_st" = ok ] && [ "$irq_ok" = 1 ]; then
    kmsg "irq: VCS0 control"
    irq_read
    c0=$irq_n
    ask inject 1 0 0x1
    irq_wait $((c0 + 1))
    dmesg | sed -n '/gpumodel: irq: VCS0 control$/,$p' > "$work/dmesg-vcs0.txt"
    section dmesg-vcs0 "$work/dmesg-vcs0.txt"
    said=$(grep -m 1 -E "$irqmsg|$head" "$work/dmesg-vcs0.txt" | sed 's/^\[[ 0-9.]*\] //')
    irq_sum="$irq_sum; VCS0 control: $ans_st, count $c0 -> ${irq_n:-?}, dmesg: ${said:-nothing}"
fi

# What the driver touched that the model does not describe (information for
# whoever models the next register; no check).
unmodelled="not asked (no host agent)"
if [ "$agent_st" = ok ]; then
    ask unmodelled
    echo "$ans_text" > "$work/unmodelled.txt"
    section unmodelled "$work/unmodelled.txt"
    unmodelled=$(echo "$ans_text" | sed -n 's/.*"count": *\([0-9]*\).*/\1/p')
    unmodelled="${unmodelled:-$ans_st: $ans_text} distinct offsets (list: unmodelled.txt)"
fi

# The summary's last lines (run-guest.sh appends them to the summary above).
echo "@@SUMMARY-BEGIN"
echo "Interrupts: $irq_sum"
echo "Snapshot: $snap_sum"
echo "Drills:$drills_sum"
echo "OA drills: $oa_sum"
echo "Unmodelled registers the guest touched: $unmodelled"
echo "@@SUMMARY-END"
echo "@@DONE"
