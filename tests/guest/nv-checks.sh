#!/bin/sh
# Guest side of the nv-gpu profile of the guest tier (scripts/run-guest.sh
# --profile nv): what a userspace tool sees of -device nv-gpu at
# 0000:00:03.0 with no driver bound.  Run by /init when the kernel command
# line has GPUMODEL_PROFILE=nv.  Same output protocol as guest-checks.sh
# (sections, @@REQ/@@GOT, @@DONE): raw readings, no verdicts.  The host's
# tests/guest/guest_tier.py makes every check of nv-checks.txt from them:
# the PCOUNTER ones from the register reads and writes and the record
# buffer bytes that /gpumodel/nv-pcounter-probe (a static C program,
# tests/guest/nv-pcounter-probe.c) reports, against NV_SYNTH, the synth
# property the host gave QEMU (kernel command line; sent as "synth").
set -u

BDF=0000:00:03.0
dev=/sys/bus/pci/devices/$BDF
PROBE_TIMEOUT=${PROBE_TIMEOUT:-120}
NV_SYNTH=${NV_SYNTH:-}

. /gpumodel/lib.sh

put knobs "PROBE_TIMEOUT=$PROBE_TIMEOUT"

# ---- PCI ----------------------------------------------------------------------

if [ -d "$dev" ]; then
    for f in vendor device class revision; do
        echo "$f $(cat "$dev/$f")"
    done > "$work/pci.txt"
    section pci "$work/pci.txt"
    section pci-resource "$dev/resource"
fi
put synth "$NV_SYNTH"

# ---- the probe ------------------------------------------------------------------

put probe-start "$(cut -d' ' -f1 /proc/uptime)"
step probe "$PROBE_TIMEOUT" \
    /gpumodel/nv-pcounter-probe --bdf "$BDF"
put probe-end "$(cut -d' ' -f1 /proc/uptime)"

# The record-fault drill (x-nv-gpu-drill-record-fault through the host
# agent) on domain 4, which the run above left idle; a second run of the
# probe shows what a program sees.
echo "@@BEGIN record-fault"
ask record-fault 4
echo "@@END record-fault"
if [ "$ans_st" = ok ]; then
    step probe-drill "$PROBE_TIMEOUT" \
        /gpumodel/nv-pcounter-probe --bdf "$BDF" --drill-record-fault 4
fi

# What the host saw: BAR0 offsets outside the model that the guest touched.
echo "@@BEGIN unmodelled"
ask unmodelled
echo "@@END unmodelled"
dmesg > "$work/dmesg.txt"
section dmesg "$work/dmesg.txt"
put uname "$(uname -r)"
put uptime "$(cut -d' ' -f1 /proc/uptime)"
echo "@@DONE"
