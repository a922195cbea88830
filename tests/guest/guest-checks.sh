#!/bin/sh
# Guest side of the guest tier (intel profile): what the stock kernel, i915
# and intel-gpu-tools see of the device at 0000:00:02.0.  Run by /init, in
# the guest, on busybox.  It only runs the steps and sends what they
# printed; every verdict is the host's, from these sections
# (tests/guest/guest_tier.py, the checks of checks.txt).
#
# Output protocol (lines that start with "@@"; split by scripts/run-guest.sh):
#   @@BEGIN <name> [rc=<status> secs=<s>] ... @@END <name>
#                     a section: raw output of a step (with its exit status,
#                     "timeout" when it was left behind, and run time), a
#                     sysfs or debugfs read, a dmesg slice
#   @@REQ <seq> <verb> <args>   a request to the host agent
#                     (tests/guest/host-agent.py), which answers "@@ANS
#                     <seq> ok|error <text>" on the same port (our fd 3)
#   @@GOT <seq> ok|error|timeout <text>   the answer the guest took
#   @@DONE            the script ran to its end
#
# Steps depend only on raw readings (i915_wedged is 0, the host agent
# answered, /proc/interrupts names i915), never on a verdict.  The
# interrupt series pace their injections on i915's count (the next event
# only once the last was counted, or they collapse into one) and make the
# write values that arm GTPM: the only arithmetic here.
#
# No `set -e`: a failing step must not stop the others.  Every step that
# talks to the device (modprobe, tools) runs with a time limit and is left
# behind if it hangs in the kernel, so the later steps and the dmesg dump
# still happen.
#
# GPUMODEL_BENCH=1 (kernel command line, scripts/bench-guest.sh): the
# timing runs of make bench too (CPU-only baseline, OA cost); `make check`
# runs none.
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
GPUMODEL_BENCH=${GPUMODEL_BENCH:-0}

. /gpumodel/lib.sh

# dmesg_since NAME MARK: the kernel log from the line "gpumodel: MARK" on,
# as section NAME.
dmesg_since() {
    dmesg | sed -n "/gpumodel: $2\$/,\$p" > "$work/$1.txt"
    section "$1" "$work/$1.txt"
}

put knobs "IRQ_INJECT=$IRQ_INJECT IRQ_DRILL_DROP=$IRQ_DRILL_DROP" \
    "IRQ_DRILL_INJECT=$IRQ_DRILL_INJECT IRQ_TIMEOUT=$IRQ_TIMEOUT" \
    "MODPROBE_TIMEOUT=$MODPROBE_TIMEOUT TOOL_TIMEOUT=$TOOL_TIMEOUT"

# ---- PCI, before any driver -----------------------------------------------

if [ -d "$dev" ]; then
    for f in vendor device class revision; do
        echo "$f $(cat "$dev/$f")"
    done > "$work/pci.txt"
    section pci "$work/pci.txt"
    section pci-resource "$dev/resource"
fi

# ---- the driver -------------------------------------------------------------

# i915 built into the kernel (scripts/guest-kernel.sh takes either) bound
# the device while the kernel booted; modprobe then has nothing to load.
i915_builtin=no
grep -qs '/i915\.ko$' "/lib/modules/$(uname -r)/modules.builtin" && i915_builtin=yes
put i915-builtin "$i915_builtin"
kmsg "modprobe i915"
step modprobe "$MODPROBE_TIMEOUT" modprobe i915
kmsg "modprobe i915 returned $b_rc"

# driver NAME: the driver bound to the device now, as section NAME.
driver() {
    d=none
    [ -e "$dev/driver" ] && d=$(basename "$(readlink "$dev/driver")")
    put "$1" "$d"
}
driver driver

# The DRM debugfs directory of our device (its "name" file names the BDF).
dri=
for d in /sys/kernel/debug/dri/*; do
    grep -qs "$BDF" "$d/name" && { dri=$d; break; }
done

# ---- registers through intel_reg -------------------------------------------
# One intel_reg run reads them all: it holds forcewake through debugfs
# i915_forcewake_user while it runs (the render ack must show bit 0).

# shellcheck disable=SC2086
step intel_reg "$TOOL_TIMEOUT" intel_reg read 0xd84 0xa278 0x9138 0x9134 \
    0x9140 0x145998 0x51000

# ---- GT state ---------------------------------------------------------------
# debugfs i915_wedged, the kernel log as it is now, the engines in sysfs.

dmesg > "$work/dmesg-gt.txt"
section dmesg-gt "$work/dmesg-gt.txt"
card=$(find "$dev/drm" -maxdepth 1 -name 'card*' 2>/dev/null | head -n 1)
if [ -n "$card" ] && [ -d "$card/engine" ]; then
    find "$card/engine" -mindepth 1 -maxdepth 1 -exec basename {} \; | sort > "$work/engines.txt"
    section engines "$work/engines.txt"
fi
wedged=
if [ -n "$dri" ] && [ -r "$dri/i915_wedged" ]; then
    wedged=$(cat "$dri/i915_wedged" 2>/dev/null)
    put i915_wedged "$wedged"
fi
# User work only on a GT that initialised: on a wedged GT every execbuf
# fails -EIO.
gt_up=0
[ "$wedged" = 0 ] && gt_up=1

# ---- user work: execbuf, IGT benchmark, PMU, hang and reset -----------------

probe=/gpumodel/i915-exec-probe
NOP_SECS=2      # gem_exec_nop runs one 2 s repetition per engine

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

# perf_record NAME METRICS PERIOD CMD...: the recorder while CMD runs, then
# IGT's reader over the recording; sections NAME-recorder, NAME-cmd (CMD's
# output) and NAME-reader.
perf_record() {
    p_name=$1
    perf_start "$work/$1" "$2" "$3"
    shift 3
    step "$p_name-cmd" $((TOOL_TIMEOUT + NOP_SECS)) "$@"
    perf_stop
    section "$p_name-recorder" "$work/$p_name-recorder.txt"
    step "$p_name-reader" "$TOOL_TIMEOUT" i915-perf-reader -c all "$work/$p_name.rec"
    rm -f "$work/$p_name.rec"
}

# oa_cost_run ROUND MODE: one round's runs of make bench's OA cost (below)
# under MODE: section oa-cost-ROUND-MODE-WORK for each work, the host
# agent's CPU figures before and after it (@@REQ cpu) and the probe's
# output.
oa_cost_run() {
    case $2 in
        slow) perf_start "$work/oa-cost-$2" RenderBasic 1 ;;
        fast) perf_start "$work/oa-cost-$2" RenderBasic 0.00001 ;;
    esac
    for o_w in idle cpu nop; do
        echo "@@BEGIN oa-cost-$1-$2-$o_w"
        ask cpu
        # timeout, not bounded: its 100 ms polls would blur the host figures.
        case $o_w in
            idle) timeout -s KILL "$TOOL_TIMEOUT" sleep 1 ;;
            cpu) timeout -s KILL "$TOOL_TIMEOUT" "$probe" syscalls - 1 ;;
            nop) timeout -s KILL "$TOOL_TIMEOUT" "$probe" nop rcs "$OA_COST_BATCHES" ;;
        esac > "$work/oa-cost-run.txt" 2>&1
        ask cpu
        cat "$work/oa-cost-run.txt"
        echo "@@END oa-cost-$1-$2-$o_w"
    done
    case $2 in
        slow|fast) perf_stop; rm -f "$work/oa-cost-$2.rec"
                   section "oa-cost-$2-recorder" "$work/oa-cost-$2-recorder.txt" ;;
    esac
}

if [ "$gt_up" = 1 ]; then
    step exec-store-rcs "$TOOL_TIMEOUT" "$probe" store rcs 0xc0ffee01
    step exec-store-bcs "$TOOL_TIMEOUT" "$probe" store bcs 0xc0ffee02

    # gem_exec_nop (IGT benchmark): prints the microseconds per empty
    # batch; intel_gpu_top samples the engines (i915 PMU) meanwhile.
    for e in rcs bcs; do
        step "gem_exec_nop-$e" $((TOOL_TIMEOUT + NOP_SECS)) \
            /usr/libexec/igt-gpu-tools/benchmarks/gem_exec_nop -e "$e" -r 1 &
        nop_pid=$!
        [ "$e" = rcs ] && top_sample "$work/top-busy.txt" $((TOOL_TIMEOUT + NOP_SECS)) "$nop_pid"
        wait "$nop_pid"
    done
    # The CPU-only baseline make bench divides the rates by.
    [ "$GPUMODEL_BENCH" = 1 ] &&
        step syscalls $((TOOL_TIMEOUT + NOP_SECS)) "$probe" syscalls - "$NOP_SECS"

    top_sample "$work/top-idle.txt" 1
    section intel_gpu_top-busy "$work/top-busy.txt"
    section intel_gpu_top-idle "$work/top-idle.txt"

    # A batch that never ends: i915's heartbeat (made fast here) finds it,
    # the engine is reset (STOP_RING, RING_RESET_CTL, GDRST), and the next
    # batch runs.
    hb=/sys/class/drm/card0/engine/rcs0/heartbeat_interval_ms
    hb0=$(cat "$hb" 2>/dev/null)
    echo 250 > "$hb" 2>/dev/null
    kmsg "hang"
    step hang 40 "$probe" hang rcs 30
    echo "${hb0:-2500}" > "$hb" 2>/dev/null
    dmesg_since dmesg-hang hang
    step exec-after-reset "$TOOL_TIMEOUT" "$probe" store rcs 0xc0ffee03

    # i915 perf streams (the OA unit) recorded by IGT's recorder, once idle
    # (with the GT frequency i915 set, RPSTAT1's CAGF) and once around
    # user batches, decoded by IGT's reader.  Not gem_exec_nop: IGT first
    # asks i915 to idle the GT (drop_caches DROP_IDLE), which waits as long
    # as a perf stream keeps it awake.
    perf_record perf-idle RenderBasic 0.001 \
        sh -c "cat /sys/class/drm/card0/gt_act_freq_mhz; sleep $NOP_SECS"
    perf_record perf-busy RenderBasic 0.001 "$probe" nop rcs 2000

    # Flexible EU counters: RenderBasic programs EU_PERF_CNT_CTL0-6, over
    # GPGPU walkers (docs/intel-gpu-oa.rst); ComputeBasic makes A9 the
    # threads-loaded integrator.
    perf_record perf-eu RenderBasic 0.001 "$probe" walker rcs 1000
    perf_record perf-eu-compute ComputeBasic 0.001 "$probe" walker rcs 300

    # IGT's TestOa metric set: its B counter configuration (added through
    # i915 perf) against the model's NOA signals.
    perf_record perf-testoa TestOa 0.001 sleep 1

    # make bench's OA cost (scripts/bench-guest.sh): rounds of the same
    # work three ways, interleaved so that a drift of the host's load hits
    # them alike:
    #   none   no stream
    #   slow   a stream at a 1 s period: the engine wakeref and forcewake
    #          of the fast one, i915's 5 ms poll, the recorder waiting, but
    #          almost no reports
    #   fast   a stream at the shortest period i915 allows by default
    #          (10 us, dev.i915.oa_max_sample_rate), the recorder reading
    #          all of it
    # The work: the guest idle for 1 s, 1 s of getppid() calls, then
    # OA_COST_BATCHES empty user batches.
    if [ "$GPUMODEL_BENCH" = 1 ]; then
        OA_COST_ROUNDS=${OA_COST_ROUNDS:-5} OA_COST_BATCHES=${OA_COST_BATCHES:-4000}
        put oa-cost "rounds=$OA_COST_ROUNDS batches=$OA_COST_BATCHES"
        r=1
        while [ "$r" -le "$OA_COST_ROUNDS" ]; do
            for m in none slow fast; do
                oa_cost_run "$r" "$m"
            done
            r=$((r + 1))
        done
    fi
fi

# ---- the kernel log up to here, and more of what the driver reports ---------

dmesg > "$work/dmesg.txt"
if [ -n "$dri" ]; then
    for f in i915_capabilities i915_engine_info i915_frequency_info \
        i915_sseu_status gt0/i915_frequency_info; do
        [ -r "$dri/$f" ] && step "debugfs/$f" "$TOOL_TIMEOUT" cat "$dri/$f"
    done
fi
# What other IGT tools make of it (information only, no check).
step lsgpu "$TOOL_TIMEOUT" lsgpu
step intel_gpu_frequency "$TOOL_TIMEOUT" intel_gpu_frequency --get
section dmesg "$work/dmesg.txt"
put uname "$(uname -r)"
put uptime "$(cut -d' ' -f1 /proc/uptime)"
put dri-nodes "$(find /dev/dri -mindepth 1 -maxdepth 1 -exec basename {} \; 2>/dev/null | sort | tr '\n' ' ')"

# ---- interrupts ---------------------------------------------------------------
# Last: an injected event that crashes the guest kernel must not cost the
# steps and the logs above.
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
#   wedged GT.  i915 leaves the source disabled and masked, so the steps
#   enable and unmask bit 0 with intel_reg first, as a driver-CI fault drill
#   would, and put back the values they found afterwards.
# - RCS0's user interrupt (class 0, instance 0, bit 0), only on a GT that
#   initialised: on a GT wedged on init i915 6.1 signals the breadcrumbs it
#   freed and the guest panics (docs/intel-gpu-interrupts.rst).

# GTPM's fields: bits 31:16 of GEN11_GPM_WGBOXPERF_INTR_ENABLE 0x19003C and
# _MASK 0x1900EC, where i915 writes its RPS events ("pm is in upper half",
# write_pm_ier/write_pm_imr).
GTPM_EN=0x19003C GTPM_MASK=0x1900EC
GTPM_BITS=0x1                       # data bit 0: not an RPS event

# irq_count: i915's count in /proc/interrupts summed over the CPUs (empty
# when no interrupt is named i915), to pace the injections; the host reads
# the raw lines.
irq_count() {
    irq_n=$(awk 'NR == 1 { n = NF; next }
        { for (i = n + 2; i <= NF; i++) if ($i ~ /^i915,?$/) {
              s = 0; for (j = 2; j <= n + 1; j++) s += $j
              print s; exit } }' /proc/interrupts)
}

# irq_raw: the header and i915's lines of /proc/interrupts, raw.
irq_raw() {
    awk 'NR == 1 || / i915,?( |$)/' /proc/interrupts
}

# irq_wait TARGET: poll the count until it reaches TARGET, at most
# IRQ_TIMEOUT s.
irq_wait() {
    w_end=$(($(cut -d. -f1 /proc/uptime) + IRQ_TIMEOUT))
    irq_count
    while [ "${irq_n:-0}" -lt "$1" ] && [ "$(cut -d. -f1 /proc/uptime)" -lt "$w_end" ]; do
        usleep 1000
        irq_count
    done
}

# series NAME N LOST CLASS INSTANCE BITS: section NAME of N injections
# asked one at a time; the first LOST are expected to be dropped by a
# drill, after each other one the count is awaited.  The section has each
# request and answer, /proc/interrupts raw before the first, after each
# wait ("@@COUNTED <i>") and at the end ("@@AFTER"); "@@BEGIN NAME n=N
# lost=LOST".  Stops at the first refused
# injection or uncounted one.
series() {
    echo "@@BEGIN $1 n=$2 lost=$3"
    irq_raw
    irq_count
    target=$irq_n i=0
    while [ $i -lt "$2" ]; do
        i=$((i + 1))
        ask inject "$4" "$5" "$6"
        [ "$ans_st" = ok ] || break
        [ $i -le "$3" ] && continue
        target=$((target + 1))
        irq_wait "$target"
        echo "@@COUNTED $i"
        irq_raw
        [ "${irq_n:-0}" -lt "$target" ] && break
    done
    echo "@@AFTER"
    irq_raw
    echo "@@END $1"
}

kmsg "irq checks"
echo "@@BEGIN host-agent"
ask ping
echo "@@END host-agent"
agent_st=$ans_st

# A runtime-suspended i915 turns its interrupts off: keep the device awake
# (writing "on" resumes it before the write returns).
if [ -w "$dev/power/control" ]; then
    echo on > "$dev/power/control"
    put runtime_status "$(cat "$dev/power/runtime_status")"
fi
irq_raw > "$work/interrupts.txt"
section interrupts "$work/interrupts.txt"
irq_count
irq_up=0
[ -n "$irq_n" ] && [ "$(cat "$dev/power/runtime_status" 2>/dev/null)" = active ] && irq_up=1

# Arm GTPM bit 0: enable, then unmask; read back.
kmsg "irq: arming GTPM bit 0"
step gtpm-found "$TOOL_TIMEOUT" intel_reg read "$GTPM_EN" "$GTPM_MASK"
# regval FILE OFFSET: the value intel_reg printed in FILE for OFFSET
# ("NAME (0x0019003c): 0x00000000"), for the values written back.
regval() {
    grep -i "(0x0*${2#0x}):" "$1" | head -n 1 |
        sed -n 's/.*): *\(0x[0-9a-fA-F]*\).*/\1/p'
}
en0=$(regval "$work/gtpm-found.txt" "$GTPM_EN")
mk0=$(regval "$work/gtpm-found.txt" "$GTPM_MASK")
if [ -n "$en0" ] && [ -n "$mk0" ]; then
    en1=$(printf '0x%08x' $((en0 | (GTPM_BITS << 16))))
    mk1=$(printf '0x%08x' $((mk0 & ~(GTPM_BITS << 16) & 0xffffffff)))
    step gtpm-write "$TOOL_TIMEOUT" intel_reg write "$GTPM_EN" "$en1" "$GTPM_MASK" "$mk1"
    step gtpm-armed "$TOOL_TIMEOUT" intel_reg read "$GTPM_EN" "$GTPM_MASK"
fi

# Injections need the host agent and i915's interrupt; when GTPM is not
# armed they are not counted, which the host's verdicts say.
if [ "$agent_st" = ok ] && [ "$irq_up" = 1 ] && [ -n "$en0" ] && [ -n "$mk0" ]; then
    kmsg "irq: injecting $IRQ_INJECT GTPM events"
    series irq-inject-gtpm "$IRQ_INJECT" 0 4 1 "$GTPM_BITS"
    # The drill: the next IRQ_DRILL_DROP messages of GTPM are lost.
    kmsg "irq: drill dropping $IRQ_DRILL_DROP GTPM messages, then injecting $IRQ_DRILL_INJECT"
    echo "@@BEGIN irq-drill"
    ask drill 4 1 "$IRQ_DRILL_DROP"
    echo "@@END irq-drill"
    [ "$ans_st" = ok ] &&
        series irq-drill-gtpm "$IRQ_DRILL_INJECT" "$IRQ_DRILL_DROP" 4 1 "$GTPM_BITS"
fi

# Put back what i915 had: mask first, then the enable.
if [ -n "$en0" ] && [ -n "$mk0" ]; then
    kmsg "irq: restoring GTPM enable $en0, mask $mk0"
    step gtpm-restore-write "$TOOL_TIMEOUT" intel_reg write "$GTPM_MASK" "$mk0" "$GTPM_EN" "$en0"
    step gtpm-restored "$TOOL_TIMEOUT" intel_reg read "$GTPM_EN" "$GTPM_MASK"
fi

# RCS0: only on a GT that initialised (see above).
if [ "$gt_up" = 1 ] && [ "$agent_st" = ok ] && [ "$irq_up" = 1 ]; then
    kmsg "irq: injecting $IRQ_INJECT render user interrupts"
    series irq-inject-render "$IRQ_INJECT" 0 0 0 0x1
fi
kmsg "irq: injections done"
irq_raw > "$work/interrupts-last.txt"
section interrupts-last "$work/interrupts-last.txt"

# Healthy after it: the kernel log since the injections began, the tree's
# registers, the count, the driver.
dmesg_since dmesg-irq "irq checks"
step intel_reg-irq "$TOOL_TIMEOUT" intel_reg read 0x190010 0x190018 0x190060 0x190070
irq_raw > "$work/interrupts-after.txt"
section interrupts-after "$work/interrupts-after.txt"
driver driver-after

# A snapshot taken and loaded back (HMP savevm, loadvm, through the host
# agent) while gem_exec_nop keeps rcs0 busy: the guest goes on from the
# loaded state with i915's requests in flight.
if [ "$gt_up" = 1 ] && [ "$agent_st" = ok ]; then
    kmsg "snapshot"
    step gem_exec_nop-snapshot $((TOOL_TIMEOUT + NOP_SECS)) \
        /usr/libexec/igt-gpu-tools/benchmarks/gem_exec_nop -e rcs -r 1 > "$work/nop-snapshot.out" &
    nop_pid=$!
    sleep 1
    ASK_TIMEOUT=600 ask_once snapshot
    wait "$nop_pid"
    # The request and its answer after gem_exec_nop's section: the two
    # must not interleave on the channel.
    echo "@@BEGIN snapshot"
    echo "@@GOT $seq $ans_st $ans_text"
    echo "@@END snapshot"
    cat "$work/nop-snapshot.out"
    dmesg_since dmesg-snapshot snapshot
    step exec-after-snapshot "$TOOL_TIMEOUT" "$probe" store rcs 0xc0ffee04
fi

# Fault drills on rcs0 under a user batch, with rcs0's heartbeat made
# fast (250 ms).  drill ID VALUE NEXT REQUEST...: the host agent makes
# the drill REQUEST (section ID), then a batch storing VALUE runs (section
# ID-victim), the kernel log since (dmesg-ID), and the next batch storing
# NEXT (ID-after).
drill() {
    d_id=$1 d_val=$2 d_next=$3
    shift 3
    kmsg "$d_id"
    hb=/sys/class/drm/card0/engine/rcs0/heartbeat_interval_ms
    hb0=$(cat "$hb" 2>/dev/null)
    echo 250 > "$hb" 2>/dev/null
    echo "@@BEGIN $d_id"
    ask "$@"
    echo "@@END $d_id"
    step "$d_id-victim" 40 "$probe" store rcs "$d_val"
    echo "${hb0:-2500}" > "$hb" 2>/dev/null
    dmesg_since "dmesg-$d_id" "$d_id"
    step "$d_id-after" "$TOOL_TIMEOUT" "$probe" store rcs "$d_next"
}
if [ "$gt_up" = 1 ] && [ "$agent_st" = ok ]; then
    # Hang: rcs0 fetches nothing, with no error.
    drill drill-hang 0xc0ffee05 0xc0ffee06 hang 0 0
    # The next CSB entry dropped, or written as a bare "complete".
    drill drill-csb-drop 0xc0ffee07 0xc0ffee08 csb 0 0 drop
    drill drill-csb-corrupt 0xc0ffee09 0xc0ffee0a csb 0 0 corrupt
    # The next writes of rcs0 fail.
    drill drill-dma 0xc0ffee0b 0xc0ffee0c dma 0 0 4
fi

# The OA drills: i915-perf-probe reads an i915 perf stream (timer at
# exponent OA_DRILL_E: 1.37 ms) while the host drills, one second in.
OA_DRILL_E=13
# oa_drill NAME SECONDS REQUEST...: the probe reads for SECONDS (section
# NAME-probe); one second in, the host agent runs REQUEST (section NAME);
# then the kernel log since (dmesg-NAME).
oa_drill() {
    o_name=$1 o_secs=$2
    shift 2
    kmsg "drill $o_name"
    /gpumodel/i915-perf-probe "$o_secs" "$OA_DRILL_E" > "$work/$o_name.txt" 2>&1 &
    o_pid=$!
    sleep 1
    echo "@@BEGIN $o_name"
    ask "$@"
    echo "@@END $o_name"
    o_t=0
    while kill -0 "$o_pid" 2>/dev/null && [ "$o_t" -lt $((TOOL_TIMEOUT + o_secs)) ]; do
        sleep 1
        o_t=$((o_t + 1))
    done
    kill -9 "$o_pid" 2>/dev/null
    wait "$o_pid" 2>/dev/null
    section "$o_name-probe" "$work/$o_name.txt"
    dmesg_since "dmesg-$o_name" "drill $o_name"
}
if [ "$gt_up" = 1 ] && [ "$agent_st" = ok ]; then
    oa_drill drill-oa-stall 4 oa-stall 1 1000000000
    oa_drill drill-oa-overflow 3 oa-overflow 1
fi

# The VCS0 control (IRQ_VCS0_CONTROL=1), after every step: a VCS0 user
# interrupt, for which i915 has no engine (the fuses disable every VDBOX),
# so gen11_engine_irq_handler WARNs "unhandled engine interrupt".  It
# shows the identity path reaching i915's dispatcher; information only.
if [ "$IRQ_VCS0_CONTROL" = 1 ] && [ "$agent_st" = ok ] && [ "$irq_up" = 1 ]; then
    kmsg "irq: VCS0 control"
    irq_count
    series vcs0-control 1 0 1 0 0x1
    dmesg_since dmesg-vcs0 "irq: VCS0 control"
fi

# What the driver touched that the model does not describe (information for
# whoever models the next register; no check).
if [ "$agent_st" = ok ]; then
    echo "@@BEGIN unmodelled"
    ask unmodelled
    echo "@@END unmodelled"
fi
echo "@@DONE"
