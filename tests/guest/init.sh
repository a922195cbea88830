#!/bin/sh
# /init of the test guest (scripts/make-guest.sh installs this file as /init).
#
# Mounts the kernel filesystems, runs the checks of the profile with their
# output on the data channel, and powers off.  The profile is the kernel
# command line word GPUMODEL_PROFILE=intel|nv|igt|cost|compute|mesa (the
# kernel hands it to /init as environment; scripts/run-guest.sh --profile passes it): intel
# (the default) runs /gpumodel/guest-checks.sh, nv /gpumodel/nv-checks.sh,
# igt /gpumodel/igt-guest.sh (from the IGT overlay, scripts/make-igt-image.sh),
# cost /gpumodel/cost-checks.sh (make bench's fixed work), compute
# /gpumodel/compute-checks.sh (tests/compute/) and mesa
# /gpumodel/mesa-checks.sh (tests/mesa/), both in the Debian root of
# scripts/make-guest-root.sh, whose boot initramfs switches to this file.  The data channel is the second
# serial port (ttyS1) that scripts/run-guest.sh gives the guest, so kernel
# console messages on ttyS0 cannot interleave with it; without a ttyS1 it is
# the console.  The host answers requests of the checks on the same port
# (see guest-checks.sh): they read it on file descriptor 3.  Short progress
# lines go to the console, for a person watching the boot.
#
# No `set -e`: whatever fails, the guest must still reach poweroff, or the
# host only learns it when its timeout expires.
set -u

/bin/busybox --install -s
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
# POSIX semaphores (python's multiprocessing: piglit's runner).
mkdir -p /dev/shm
mount -t tmpfs shm /dev/shm

data=/dev/console
# Raw mode: no CR added to each newline, no echo of what comes back, input
# passed on as it comes; clocal: opening the port never waits for carrier.
if stty -F /dev/ttyS1 raw -echo clocal 2>/dev/null; then
    data=/dev/ttyS1
fi

case ${GPUMODEL_PROFILE:-intel} in
    nv) checks=/gpumodel/nv-checks.sh ;;
    igt) checks=/gpumodel/igt-guest.sh ;;
    cost) checks=/gpumodel/cost-checks.sh ;;
    compute) checks=/gpumodel/compute-checks.sh ;;
    mesa) checks=/gpumodel/mesa-checks.sh ;;
    *) checks=/gpumodel/guest-checks.sh ;;
esac
echo "gpumodel guest: $(uname -r), up $(cut -d' ' -f1 /proc/uptime) s, $checks on $data"
# The port both ways: output on 1 and 2, the host's answers on 3.
# shellcheck disable=SC2094
"$checks" < /dev/null > "$data" 2>&1 3< "$data"
echo "gpumodel guest: done, up $(cut -d' ' -f1 /proc/uptime) s, powering off"
sync
poweroff -f
# Not reached unless poweroff failed; panic=-1 and -no-reboot then end QEMU.
echo o > /proc/sysrq-trigger
