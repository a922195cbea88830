#!/bin/sh
# Guest side of the nv-gpu profile of the guest tier (scripts/run-guest.sh
# --profile nv): what stock nouveau and a userspace tool see of -device
# nv-gpu at 0000:00:03.0.  Run by /init when the kernel command
# line has GPUMODEL_PROFILE=nv.  Same output protocol as guest-checks.sh
# (sections, @@REQ/@@GOT, @@DONE): raw readings, no verdicts.  The host's
# tests/guest/guest_tier.py makes every check of nv-checks.txt from them:
# the PCOUNTER ones from the register reads and writes and the record
# buffer bytes that /gpumodel/nv-pcounter-probe (a static C program,
# tests/guest/nv-pcounter-probe.c) reports, against NV_SYNTH, the synth
# property the host gave QEMU (kernel command line; sent as "synth"); the
# probe runs twice, beside nouveau noaccel=1 and beside nouveau with
# acceleration.
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

# ---- nouveau ------------------------------------------------------------------

# nouveau_state TAG: what the kernel made of the device after a load or an
# unload: the driver link, the DRM nodes on it, debugfs' clients, and the
# kernel log since the mark.
# (dmesg -r: with each line's level, which the host's verdicts read.)
dmesg_mark=0
mark() { dmesg_mark=$(dmesg -r | wc -l); }
nouveau_state() {
    put "$1-driver" "$(readlink "$dev/driver" 2>/dev/null)"
    ls "$dev/drm" > "$work/drm.txt" 2>/dev/null
    section "$1-drm" "$work/drm.txt"
    cat /sys/kernel/debug/dri/*/clients > "$work/clients.txt" 2>&1
    echo "rc=$?" >> "$work/clients.txt"
    section "$1-clients" "$work/clients.txt"
    dmesg -r | tail -n +$((dmesg_mark + 1)) > "$work/dmesg-slice.txt"
    section "$1-dmesg" "$work/dmesg-slice.txt"
}

# Headless and without acceleration first (nouveau.noaccel=1), then unload
# and reload it; the PCOUNTER probe below runs with it bound.
mark
step nouveau-load "$PROBE_TIMEOUT" modprobe nouveau noaccel=1
nouveau_state nouveau-load
mark
step nouveau-unload "$PROBE_TIMEOUT" modprobe -r nouveau
nouveau_state nouveau-unload
mark
step nouveau-reload "$PROBE_TIMEOUT" modprobe nouveau noaccel=1
nouveau_state nouveau-reload

# ---- the probe ------------------------------------------------------------------

put probe-start "$(cut -d' ' -f1 /proc/uptime)"
step probe "$PROBE_TIMEOUT" \
    /gpumodel/nv-pcounter-probe --bdf "$BDF"
put probe-end "$(cut -d' ' -f1 /proc/uptime)"

# A snapshot taken and loaded while nouveau is bound; nouveau goes on.
mark
echo "@@BEGIN nouveau-snapshot"
ask snapshot
echo "@@END nouveau-snapshot"
nouveau_state nouveau-snapshot
mark
step nouveau-after-snapshot "$PROBE_TIMEOUT" modprobe -r nouveau
nouveau_state nouveau-after-snapshot

# What the host saw: BAR0 offsets outside the model that the guest touched
# (nouveau without acceleration, and the probe).
echo "@@BEGIN unmodelled"
ask unmodelled
echo "@@END unmodelled"

# The default, with acceleration asked for: load, unload and reload it,
# then, with it bound, the PCOUNTER probe again (section probe-accel) and
# the user-area pointers of the channels it set up (accel-channels).
# Headless, nouveau's kernel channel queues its set-up methods without
# submitting them; its first submission is the fence that idles it at
# unload, so the pointers are read again after the unload
# (accel-channels-after).
mark
step nouveau-accel "$PROBE_TIMEOUT" modprobe nouveau
nouveau_state nouveau-accel
mark
step nouveau-accel-unload "$PROBE_TIMEOUT" modprobe -r nouveau
nouveau_state nouveau-accel-unload
mark
step nouveau-accel-reload "$PROBE_TIMEOUT" modprobe nouveau
nouveau_state nouveau-accel-reload
mark
step probe-accel "$PROBE_TIMEOUT" \
    /gpumodel/nv-pcounter-probe --bdf "$BDF"
step accel-channels "$PROBE_TIMEOUT" \
    /gpumodel/nv-pcounter-probe --bdf "$BDF" --channels 1

# The record-fault drill (x-nv-gpu-drill-record-fault through the host
# agent) on domain 4, which the runs above left idle; a run of the probe
# with --drill-record-fault shows what a program sees.  It wedges the
# domain until a GPU reset, so it comes after the last normal run.
echo "@@BEGIN record-fault"
ask record-fault 4
echo "@@END record-fault"
if [ "$ans_st" = ok ]; then
    step probe-drill "$PROBE_TIMEOUT" \
        /gpumodel/nv-pcounter-probe --bdf "$BDF" --drill-record-fault 4
fi

nouveau_state accel-bound
mark
step nouveau-accel-end "$PROBE_TIMEOUT" modprobe -r nouveau
nouveau_state nouveau-accel-end
step accel-channels-after "$PROBE_TIMEOUT" \
    /gpumodel/nv-pcounter-probe --bdf "$BDF" --channels 1
echo "@@BEGIN unmodelled-accel"
ask unmodelled
echo "@@END unmodelled-accel"

dmesg > "$work/dmesg.txt"
section dmesg "$work/dmesg.txt"
put uname "$(uname -r)"
put uptime "$(cut -d' ' -f1 /proc/uptime)"
echo "@@DONE"
