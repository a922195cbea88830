#!/bin/sh
# Guest side of the nv-gpu profile of the guest tier (scripts/run-guest.sh
# --profile nv): what a userspace tool sees of -device nv-gpu at
# 0000:00:03.0 with no driver bound.  Run by /init when the kernel command
# line has GPUMODEL_PROFILE=nv.  Same output protocol as guest-checks.sh
# (@@RESULT, @@BEGIN/@@END, @@SUMMARY-BEGIN/-END, @@DONE, @@REQ/@@ANS).
#
# The PCI checks are made here; /gpumodel/nv-pcounter-probe (a static C
# program, tests/guest/nv-pcounter-probe.c) does the PCOUNTER ones against
# NV_SYNTH, the synth property the host gave QEMU (kernel command line).
set -u

BDF=0000:00:03.0
dev=/sys/bus/pci/devices/$BDF
PROBE_TIMEOUT=${PROBE_TIMEOUT:-120}
NV_SYNTH=${NV_SYNTH:-}

. /gpumodel/lib.sh

# ---- PCI ----------------------------------------------------------------------

if [ -d "$dev" ]; then
    got="$(cat "$dev/vendor"):$(cat "$dev/device") class $(cat "$dev/class") revision $(cat "$dev/revision")"
    if [ "$got" = "0x10de:0x0402 class 0x030000 revision 0xa1" ]; then
        result pci-id ok "PCI $BDF is 10de:0402 (G84), class 0x030000, revision 0xa1"
    else
        result pci-id fail "PCI $BDF is $got, want 0x10de:0x0402 class 0x030000 revision 0xa1"
    fi
    read -r start end flags <<EOF2
$(sed -n 1p "$dev/resource")
EOF2
    size=0
    [ $((start)) -ne 0 ] && size=$((end - start + 1))
    what="BAR0: $((size >> 20)) MiB at $start, flags $flags"
    if [ "$size" -eq $((16 << 20)) ] && [ $((flags & 0x200)) -ne 0 ] &&
        [ $((flags & 0x100000)) -eq 0 ] && [ $((flags & 0x2000)) -eq 0 ]; then
        result pci-bar0 ok "$what (32-bit non-prefetchable memory)"
    else
        result pci-bar0 fail "$what, want 16 MiB of 32-bit non-prefetchable memory"
    fi
else
    got=absent
    result pci-id fail "no PCI device at $BDF"
    result pci-bar0 fail "BAR0: no PCI device at $BDF"
fi

# ---- the probe ------------------------------------------------------------------

t0=$(cut -d' ' -f1 /proc/uptime)
bounded "$PROBE_TIMEOUT" "$work/probe.txt" \
    /gpumodel/nv-pcounter-probe --bdf "$BDF" --synth "$NV_SYNTH"
t1=$(cut -d' ' -f1 /proc/uptime)
rc=$b_rc

# The record-fault drill (x-nv-gpu-drill-record-fault through the host
# agent) on domain 4, which the run above left idle; a second run of the
# probe shows what a program sees.
ask record-fault 4
if [ "$ans_st" = ok ]; then
    bounded "$PROBE_TIMEOUT" "$work/probe-drill.txt" \
        /gpumodel/nv-pcounter-probe --bdf "$BDF" --synth "$NV_SYNTH" \
        --drill-record-fault 4
    cat "$work/probe-drill.txt" >> "$work/probe.txt"
    echo "# the record-fault drill run: exit status $b_rc" >> "$work/probe.txt"
else
    result record-fault-drill fail "x-nv-gpu-drill-record-fault on domain 4: $ans_st: $ans_text"
fi
grep '^@@RESULT ' "$work/probe.txt" | while read -r _ id st text; do
    result "$id" "$st" "$text"
done
# Checks of the probe it did not report (it stopped early): fail here.
grep -v -e '^#' -e '^[[:space:]]*$' /gpumodel/nv-checks.txt | while read -r id _; do
    case $id in pci-id|pci-bar0|probe-exit) continue ;; esac
    grep -q "^@@RESULT $id " "$work/probe.txt" ||
        result "$id" fail "nv-pcounter-probe did not report it (exit status $rc; see probe section)"
done

# What the host saw: BAR0 offsets outside the model that the guest touched.
ask unmodelled
case $ans_st in
    ok) um=$ans_text ;;
    *) um="unknown ($ans_st: $ans_text)" ;;
esac
case $rc:$um in
    0:'{"count": 0,'*) result probe-exit ok "nv-pcounter-probe exited 0 after $t0..$t1 s of uptime; host: no unmodelled BAR0 access" ;;
    0:*) result probe-exit fail "nv-pcounter-probe exited 0, but the host reports unmodelled BAR0 accesses: $um" ;;
    timeout:*) result probe-exit fail "nv-pcounter-probe did not finish in $PROBE_TIMEOUT s" ;;
    *) result probe-exit fail "nv-pcounter-probe exited with status $rc (host: unmodelled $um)" ;;
esac
section probe "$work/probe.txt"
dmesg > "$work/dmesg.txt"
section dmesg "$work/dmesg.txt"

echo "@@SUMMARY-BEGIN"
echo "Guest: Linux $(uname -r), checks done $(cut -d' ' -f1 /proc/uptime) s after boot"
echo "Device: $BDF ${got}"
echo "Synthetic signals (NV_SYNTH): $NV_SYNTH"
echo "nv-pcounter-probe (status $rc):"
sed 's/^@@RESULT /  /;s/^# /    /' "$work/probe.txt"
echo "@@SUMMARY-END"
echo "@@DONE"
