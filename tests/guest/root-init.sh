#!/bin/sh
# /init of the boot initramfs of the Debian guest root
# (scripts/make-guest-root.sh; scripts/run-guest.sh --root): mount the
# root's disk and hand over to /gpumodel/init (tests/guest/init.sh) in it.
#
# The kernel's drivers are modules (Debian's kernel), so the disk needs
# virtio_pci, virtio_blk and ext4 first: they come with the kernel's
# modules archive (scripts/guest-kernel.sh), which run-guest.sh appends to
# this initramfs.  That archive's lib/modules and lib/firmware are copied
# into the root's /usr/lib (merged /usr), where the root's modprobe and
# the kernel's firmware loader look; the tier's archive (--initrd-add)
# brings its files under /gpumodel, copied likewise.  The disk is QEMU's
# snapshot: what is written here is gone when QEMU exits.
#
# Any failure ends in a message on the console and a power-off, so the host
# learns at once instead of at its timeout.
set -u

/bin/busybox --install -s
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

fail() {
    echo "gpumodel root: $*; powering off"
    poweroff -f
    echo o > /proc/sysrq-trigger
}

# crc32c for ext4's metadata checksums (requested by name, which busybox
# modprobe cannot resolve for the kernel); each is fine built in.
for m in crc32c_generic virtio_pci virtio_blk ext4; do
    modprobe "$m" 2>/dev/null || [ -d "/sys/module/$m" ] ||
        echo "gpumodel root: modprobe $m failed (built in?)"
done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do
    usleep 100000
    i=$((i + 1))
done
[ -b /dev/vda ] || fail "no /dev/vda (no root disk, or no virtio_blk)"
mount -t ext4 /dev/vda /newroot || fail "cannot mount /dev/vda"
[ -d /lib/modules ] && mkdir -p /newroot/usr/lib/modules &&
    cp -a /lib/modules/. /newroot/usr/lib/modules/
[ -d /lib/firmware ] && mkdir -p /newroot/usr/lib/firmware &&
    cp -a /lib/firmware/. /newroot/usr/lib/firmware/
rm -rf /newroot/gpumodel
cp -a /gpumodel /newroot/gpumodel || fail "cannot copy /gpumodel into the root"
umount /proc /sys /dev
exec switch_root /newroot /gpumodel/init
