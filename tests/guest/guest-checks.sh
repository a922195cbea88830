#!/bin/sh
# Guest side of the guest test tier: what the stock kernel, i915 and
# intel-gpu-tools see of the device at 0000:00:02.0.  Run by /init, in the
# guest, on busybox.
#
# Output protocol (parsed by scripts/run-guest.sh; lines start with "@@"):
#   @@RESULT <id> ok|fail|skip <text>   one per check of checks.txt
#   @@BEGIN <name> ... @@END <name>     a captured text: dmesg, intel_reg, ...
#   @@SUMMARY-BEGIN ... @@SUMMARY-END   the human summary
#   @@DONE                              the script ran to its end
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
work=/tmp/gpumodel
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

kmsg() { echo "gpumodel: $*" > /dev/kmsg; }

# words: stdin on one line, or "none".
words() {
    w=$(tr '\n' ' ' | sed 's/ $//')
    echo "${w:-none}"
}

# brief FILE: the start of FILE on one line, for a failure message.
brief() { tr '\n' ' ' < "$1" | cut -c 1-160; }

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

# reg OFFSET: the value intel_reg printed for OFFSET, e.g. 0x00000001.
# intel_reg prints "NAME (0x00009138): 0x00000001" (NAME may be empty).
reg() {
    grep -i "(0x0*${1#0x}):" "$work/intel_reg.txt" | head -n 1 |
        sed -n 's/.*): *\(0x[0-9a-fA-F]*\).*/\1/p'
}

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
        result gt-state ok "GT state reported: $gt; engines: $engines" ;;
    0)
        if [ -z "$said" ]; then
            gt="not wedged"
            result gt-state ok "GT state reported: $gt; engines: $engines"
        else
            gt="inconsistent"
            result gt-state fail "GT state: debugfs i915_wedged is 0 but dmesg says: $said"
        fi ;;
    *)
        gt="unknown"
        result gt-state fail "GT state unknown: no i915 debugfs for $BDF (driver: $drv)" ;;
esac

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
    result no-splat ok "no oops, BUG or WARN splat since modprobe i915$note"
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
echo "@@DONE"
