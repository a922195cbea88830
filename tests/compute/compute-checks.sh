#!/bin/sh
# Guest side of the compute tier: in the Debian root of
# scripts/make-guest-root.sh (Intel's OpenCL runtime and the ICD loader
# installed by dpkg), load i915, list the OpenCL devices with clinfo and
# run the project's OpenCL programs on intel-gpu.  Run by /init for
# GPUMODEL_PROFILE=compute; scripts/run-compute.sh is the host side, which
# makes every verdict (tests/compute/compute_tier.py) and compares the
# programs' output with PoCL's on the host.
#
# Sections (the protocol of tests/guest/guest-checks.sh):
#   os-release, packages      the root: /etc/os-release, dpkg's list of the
#                             OpenCL and Vulkan packages, the ICD files
#   modprobe                  modprobe i915 (rc, secs)
#   dri                       /dev/dri after it
#   clinfo, clinfo-list       clinfo, clinfo -l (rc, secs)
#   cl-KERNEL                 /gpumodel/bin/cl-kernels --kernel KERNEL: its
#                             stderr (device, build log, differences; rc, secs)
#   cl-KERNEL-out             its results, compared on the host
#   vulkaninfo                vulkaninfo --summary (rc, secs)
#   vk-reduce, vk-reduce-out  /gpumodel/bin/vk-compute: its stderr and
#                             results
#   clpeak-TEST               with CLPEAK=TEST,TEST: clpeak --TEST
#                             (global-bandwidth, transfer-bandwidth,
#                             kernel-latency, compute-sp, ...; rc, secs)
#   piglit, piglit-results    with PIGLIT=1: `piglit run cl` over the tests
#                             of /gpumodel/piglit-tests.txt (its output; rc,
#                             secs) and tests/compute/piglit_summary.py's
#                             digest of its results
#   dmesg                     the kernel log
#   @@RESULT compute-done ok  every step ran and was sent
#   @@DONE
#
# Knobs (kernel command line): MODPROBE_TIMEOUT (default 300 s),
# PREEMPT_TIMEOUT_MS (i915's preemption timeout of every engine, default
# 60000: lib.sh slow_engines),
# TOOL_TIMEOUT (clinfo, default 300 s: it loads NEO under TCG),
# CL_TIMEOUT (each program, default 1200 s: IGC compiles the kernels in
# the guest), CL_KERNELS (default: all, as cl-kernels --kernels lists),
# CL_SIZE (cl-kernels --size: the inputs of vadd and lsum, for the
# benchmark),
# CLPEAK (clpeak's tests to run, default none), CLPEAK_TIMEOUT (each
# test's limit, default 3600 s), PIGLIT=1 (piglit's OpenCL tests), PIGLIT_TIMEOUT (each test's limit,
# default 900 s), PIGLIT_JOBS (tests at a time, default 2),
# NEO_DEBUG=1 (NEO's debug messages: NEOReadDebugKeys=1 PrintDebugMessages=1), CL_DEBUG=1 (for
# finding why a kernel fails: IGC's dump of each kernel's Gen ISA
# (IGC_ShaderDumpEnable=1) as section cl-KERNEL-asm, and each kernel again
# with the work-group sizes of CL_LOCALS, default "8,16,32,256", as
# sections cl-KERNEL-lN and cl-KERNEL-lN-out; no verdict is made of them).
set -u

MODPROBE_TIMEOUT=${MODPROBE_TIMEOUT:-300}
PREEMPT_TIMEOUT_MS=${PREEMPT_TIMEOUT_MS:-60000}
TOOL_TIMEOUT=${TOOL_TIMEOUT:-300}
CL_TIMEOUT=${CL_TIMEOUT:-1200}
CL_KERNELS=${CL_KERNELS:-$(/gpumodel/bin/cl-kernels --kernels)}
NEO_DEBUG=${NEO_DEBUG:-0}
CL_DEBUG=${CL_DEBUG:-0}
CL_LOCALS=${CL_LOCALS:-8,16,32,256}
CL_SIZE=${CL_SIZE:-}
PIGLIT=${PIGLIT:-0}
CLPEAK=${CLPEAK:-}
CLPEAK_TIMEOUT=${CLPEAK_TIMEOUT:-3600}
PIGLIT_TIMEOUT=${PIGLIT_TIMEOUT:-900}
PIGLIT_JOBS=${PIGLIT_JOBS:-2}
export HOME=/root
if [ "$NEO_DEBUG" = 1 ]; then
    export NEOReadDebugKeys=1 PrintDebugMessages=1
fi

. /gpumodel/lib.sh

section os-release /etc/os-release
{
    dpkg-query -W -f '${Package} ${Version}\n' intel-opencl-icd \
        ocl-icd-libopencl1 libigc1 mesa-vulkan-drivers clinfo
    echo "icd files:"
    ls /etc/OpenCL/vendors /usr/share/vulkan/icd.d
} > "$work/packages.txt" 2>&1
section packages "$work/packages.txt"

load_i915 "$MODPROBE_TIMEOUT"
slow_engines "$PREEMPT_TIMEOUT_MS"

kmsg "clinfo"
step clinfo "$TOOL_TIMEOUT" clinfo
step clinfo-list "$TOOL_TIMEOUT" clinfo -l

for k in $(echo "$CL_KERNELS" | tr , " "); do
    kmsg "cl-$k"
    echo "gpumodel guest: cl-$k, up $(cut -d' ' -f1 /proc/uptime) s" > /dev/console
    rm -f "$work/cl-$k.out"
    step "cl-$k" "$CL_TIMEOUT" /gpumodel/bin/cl-kernels --kernel "$k" \
        ${CL_SIZE:+--size "$CL_SIZE"} --out "$work/cl-$k.out"
    section "cl-$k-out" "$work/cl-$k.out"
done

kmsg "vulkan"
step vulkaninfo "$TOOL_TIMEOUT" vulkaninfo --summary
echo "gpumodel guest: vk-reduce, up $(cut -d' ' -f1 /proc/uptime) s" > /dev/console
rm -f "$work/vk-reduce.out"
step vk-reduce "$CL_TIMEOUT" /gpumodel/bin/vk-compute --out "$work/vk-reduce.out"
section vk-reduce-out "$work/vk-reduce.out"

for c in $(echo "$CLPEAK" | tr , " "); do
    kmsg "clpeak --$c"
    echo "gpumodel guest: clpeak --$c, up $(cut -d' ' -f1 /proc/uptime) s" > /dev/console
    step "clpeak-$c" "$CLPEAK_TIMEOUT" clpeak "--$c"
done

if [ "$PIGLIT" = 1 ]; then
    kmsg "piglit"
    echo "gpumodel guest: piglit, up $(cut -d' ' -f1 /proc/uptime) s" > /dev/console
    # Its runner's own bound per test; the step's bound is for them all.
    n=$(wc -l < /gpumodel/piglit-tests.txt)
    step piglit $((n * PIGLIT_TIMEOUT / PIGLIT_JOBS + 600)) \
        env PIGLIT_COMPRESSION=none piglit run cl -l dummy -j "$PIGLIT_JOBS" \
        --timeout "$PIGLIT_TIMEOUT" --test-list /gpumodel/piglit-tests.txt \
        "$work/piglit"
    python3 /gpumodel/piglit_summary.py "$work/piglit" > "$work/piglit-results.txt" 2>&1
    section piglit-results "$work/piglit-results.txt"
fi

if [ "$CL_DEBUG" = 1 ]; then
    for k in $(echo "$CL_KERNELS" | tr , " "); do
        dump=$work/igc-dump
        rm -rf "$dump"
        step "cl-$k-dump" "$CL_TIMEOUT" env IGC_ShaderDumpEnable=1 \
            IGC_DumpToCustomDir="$dump" \
            /gpumodel/bin/cl-kernels --kernel "$k" --out "$work/cl-$k-dump.out"
        find "$dump" -name '*.asm' > "$work/asm-list.txt" 2>&1
        for f in $(cat "$work/asm-list.txt"); do
            echo "== $f"
            cat "$f"
        done > "$work/cl-$k-asm.txt" 2>&1
        section "cl-$k-asm" "$work/cl-$k-asm.txt"
        for l in $(echo "$CL_LOCALS" | tr , " "); do
            step "cl-$k-l$l" "$CL_TIMEOUT" /gpumodel/bin/cl-kernels --kernel "$k" \
                --local "$l" --out "$work/cl-$k-l$l.out"
            section "cl-$k-l$l-out" "$work/cl-$k-l$l.out"
        done
    done
fi

dmesg > "$work/dmesg.txt" 2>&1
section dmesg "$work/dmesg.txt"
result compute-done ok "every step ran"
echo "@@DONE"
