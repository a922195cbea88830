#!/bin/sh
# Guest side of the Mesa tier: in the Debian root of
# scripts/make-guest-root.sh (Debian's Mesa: iris, EGL, GBM), load i915,
# list the EGL platforms' drivers and run the project's GLES smoke
# programs on intel-gpu.  Run by /init for GPUMODEL_PROFILE=mesa;
# scripts/run-mesa.sh is the host side, which makes every verdict
# (tests/mesa/mesa_tier.py) against llvmpipe's images on the host.
#
# Sections (the protocol of tests/guest/guest-checks.sh):
#   packages                  dpkg's list of the Mesa packages
#   modprobe                  modprobe i915 (rc, secs)
#   dri                       /dev/dri after it
#   eglinfo                   eglinfo -B (rc, secs)
#   gl-CASE                   /gpumodel/bin/gl-smoke --case CASE: its
#                             stderr (renderer, errors; rc, secs)
#   gl-CASE-out               its image, compared on the host
#   dmesg                     the kernel log
#   @@RESULT mesa-done ok     every step ran and was sent
#   @@DONE
#
# Knobs (kernel command line): MODPROBE_TIMEOUT (default 300 s),
# PREEMPT_TIMEOUT_MS (i915's preemption timeout of every engine, default
# 60000: lib.sh slow_engines),
# GL_TIMEOUT (each case, default 600 s), GL_CASES (default: all, as
# gl-smoke --cases lists), INTEL_DEBUG (passed to Mesa: bat prints the
# batches, in the case's section).
set -u

MODPROBE_TIMEOUT=${MODPROBE_TIMEOUT:-300}
PREEMPT_TIMEOUT_MS=${PREEMPT_TIMEOUT_MS:-60000}
GL_TIMEOUT=${GL_TIMEOUT:-600}
GL_CASES=${GL_CASES:-$(/gpumodel/bin/gl-smoke --cases)}
export HOME=/root
[ -z "${INTEL_DEBUG:-}" ] || export INTEL_DEBUG

. /gpumodel/lib.sh

dpkg-query -W -f '${Package} ${Version}\n' libgl1-mesa-dri libegl-mesa0 \
    libgbm1 libgles2 mesa-utils > "$work/packages.txt" 2>&1
section packages "$work/packages.txt"

load_i915 "$MODPROBE_TIMEOUT"
slow_engines "$PREEMPT_TIMEOUT_MS"
step eglinfo "$GL_TIMEOUT" eglinfo -B

for c in $(echo "$GL_CASES" | tr , " "); do
    kmsg "gl-$c"
    echo "gpumodel guest: gl-$c, up $(cut -d' ' -f1 /proc/uptime) s" > /dev/console
    rm -f "$work/gl-$c.out"
    step "gl-$c" "$GL_TIMEOUT" /gpumodel/bin/gl-smoke --case "$c" \
        --out "$work/gl-$c.out"
    section "gl-$c-out" "$work/gl-$c.out"
done

dmesg > "$work/dmesg.txt" 2>&1
section dmesg "$work/dmesg.txt"
result mesa-done ok "every step ran"
echo "@@DONE"
