#!/bin/sh
# Boot the test guest of scripts/make-guest.sh on the built QEMU with the
# intel-gpu device, let the stock i915 and intel-gpu-tools run inside, and
# report what they saw.
#
#   scripts/run-guest.sh [--tap] [--summary] [options] [-- QEMU-ARGS...]
#
#   --tap           print the checks as TAP ("1..N", "ok N - ...",
#                   "not ok N - ...") for `make check`; exit status 0 only
#                   when every check passed
#   --summary       print the guest's human summary for `make run`; exit
#                   status 0 when the guest reached the summary
#   (both, or neither: print both; exit status as for --tap)
#   --profile P     intel (default): -device intel-gpu, the checks of
#                   tests/guest/checks.txt run by guest-checks.sh; nv: -device
#                   nv-gpu,id=gpu,addr=03.0,synth=$NV_SYNTH, the checks of
#                   tests/guest/nv-checks.txt run by nv-checks.sh and
#                   nv-pcounter-probe (the kernel command line gets
#                   GPUMODEL_PROFILE=nv and NV_SYNTH, which /init picks up);
#                   igt: IGT's runner (tests/igt/igt-guest.sh, in the
#                   archive of scripts/make-igt-image.sh, which --initrd-add
#                   must name), the check of tests/igt/checks.txt; see
#                   scripts/run-igt.sh, which runs it this way; cost: fixed
#                   guest work and QEMU's CPU time around each piece
#                   (tests/guest/cost-checks.sh, for make bench); compute:
#                   OpenCL programs in the Debian root (implies --root;
#                   tests/compute/compute-checks.sh, in the archive of
#                   scripts/run-compute.sh, which --initrd-add must name;
#                   the check of tests/compute/checks.txt), see
#                   scripts/run-compute.sh, which runs it this way; mesa:
#                   GLES programs in the Debian root (implies --root;
#                   tests/mesa/mesa-checks.sh, in the archive of
#                   scripts/run-mesa.sh; the check of tests/mesa/checks.txt)
#   --root          boot the Debian root of scripts/make-guest-root.sh (a
#                   virtio disk, QEMU's snapshot of build/guest/root.img)
#                   through its boot initramfs instead of the busybox
#                   initramfs of make-guest.sh
#   --device SPEC   the -device argument (default intel-gpu,id=gpu,addr=02.0),
#                   e.g. --device intel-gpu,addr=02.0,platform=icl; id=gpu is
#                   added when SPEC has no id= (the QMP requests name it)
#   --no-device     boot without the GPU (every device check must then fail)
#   --append ARGS   more kernel command line
#   --initrd-add F  append the initramfs archive F to the guest's (repeatable;
#                   the kernel unpacks them in order, later files win)
#   --memory SIZE   guest RAM (default 2G; 4G for compute)
#   --cpus N        guest vCPUs (default 2: SMP, like the laptops i915
#                   runs on)
#   --accel A       QEMU's accelerator (default tcg; kvm where nested KVM
#                   works: it was seen to hang on some hosts)
#   --icount N      (tcg) the guest's clock counts instructions, 2^N ns
#                   each, and jumps over the time its vCPUs sleep
#                   (-icount shift=N,sleep=off): what the guest sees of
#                   time then depends on its own work only, not on how
#                   fast or busy the host is; both vCPUs share one host
#                   thread.  Default: off (the host's clock, multi-threaded)
#   --out DIR       where the files below go (default build/guest/out,
#                   out-nv, out-igt, ..., by profile)
#   --timeout SECS  wall-clock limit for the whole boot (default
#                   $GUEST_TIMEOUT, else 600); QEMU is killed after it and the
#                   checks the guest did not report fail with the reason
#   -- QEMU-ARGS    passed on to QEMU
#
# Environment: KERNEL, MODULES, KCONFIG, FIRMWARE (the kernel booted, by
# default Debian bookworm's: scripts/guest-kernel.sh), QEMU (default
# build/qemu/qemu-system-x86_64), GUEST_TIMEOUT,
# PYTHON (default /usr/bin/python3, for tests/guest/host-agent.py and
# guest_tier.py), NV_SYNTH
# (--profile nv: the nv-gpu synth property, entries separated by ';', no
# spaces; guest_tier.py checks the probe's counters against it; default
# "4.0=4096/1;5.0=4096/1;*.1=16/4;*.2=16/12/12").
#
# QEMU runs under tests/guest/host-agent.py, which owns the guest's data
# channel (ttyS1, a socket) and a QMP socket (QEMU's qemu.qmp, from
# build/qemu-src/python, on PYTHONPATH): the guest asks it for interrupt
# injections and drills ("@@REQ ..." lines) and waits for the answer
# ("@@ANS ...") on the same serial port.  The guest sends raw sections
# only; tests/guest/guest_tier.py makes the checks' verdicts from data.log.
#
# It runs scripts/make-guest.sh first (a no-op when the image is current),
# or scripts/make-guest-root.sh with --root; with GUEST_PREBUILT=1 the
# image and kernel of build/guest/ are used as they are (a CI job that got
# them as another job's artifacts, without the package cache they were
# made from: ci/gitlab/).
# Files, in build/guest/out/ (replaced at every run):
#   console.log   serial console (ttyS0): kernel messages, guest progress
#   data.log      data channel (ttyS1): the raw output of guest-checks.sh
#   qmp.log       qemu.qmp's log of the agent's QMP   agent.log  its log
#   agent.err     the agent's stderr, when it failed
#   results.txt   the verdicts, "@@RESULT <id> ok|fail|skip <text>"
#   tap.txt       the TAP           verdicts.err  guest_tier.py's stderr,
#   summary.txt   the summary                        when it failed
#   qemu.log      QEMU's stderr
#   stopped.txt   why the guest stopped before it was done, when it did
#   dmesg.txt (the guest's kernel log), intel_reg.txt, modprobe.txt,
#   lsgpu.txt, debugfs_*.txt, ...: the sections the guest sent; splats.txt,
#   irq-errors.txt, unmodelled.txt: what the verdicts quote
#
# Guest-side knobs go on the kernel command line, which hands unknown
# NAME=VALUE words to /init as environment: --append MODPROBE_TIMEOUT=600
# (default 300 s) or TOOL_TIMEOUT=... (default 30 s); the interrupt checks'
# IRQ_INJECT, IRQ_DRILL_DROP, IRQ_DRILL_INJECT and the opt-in
# IRQ_VCS0_CONTROL=1 are in tests/guest/README.md.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
g=$top/build/guest
out=$g/out
checks=$top/tests/guest/checks.txt
qemu=${QEMU:-$top/build/qemu/qemu-system-x86_64}
python=${PYTHON:-/usr/bin/python3}
limit=${GUEST_TIMEOUT:-600}
device=intel-gpu,id=gpu,addr=02.0
device_set=0
profile=intel
nv_synth=${NV_SYNTH:-4.0=4096/1;5.0=4096/1;*.1=16/4;*.2=16/12/12}
append=
initrd_add=
memory=
root=0
cpus=2
accel=tcg
icount=off
out_set=
want_tap=0 want_summary=0

while [ $# -gt 0 ]; do
    case $1 in
        --tap) want_tap=1 ;;
        --summary) want_summary=1 ;;
        --profile) profile=$2; shift ;;
        --device) device=$2; device_set=1; shift ;;
        --no-device) device='' device_set=1 ;;
        --append) append="$append $2"; shift ;;
        --initrd-add) initrd_add="$initrd_add $2"; shift ;;
        --root) root=1 ;;
        --memory) memory=$2; shift ;;
        --cpus) cpus=$2; shift ;;
        --accel) accel=$2; shift ;;
        --icount) icount=$2; shift ;;
        --out) out_set=$2; shift ;;
        --timeout) limit=$2; shift ;;
        --) shift; break ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
        *) echo "run-guest: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case $profile in
    intel) ;;
    nv)
        checks=$top/tests/guest/nv-checks.txt
        case $nv_synth in
            *[\ ,]*) echo "run-guest: NV_SYNTH must not hold spaces or commas (use ';')" >&2; exit 2 ;;
        esac
        [ $device_set = 1 ] || device="nv-gpu,id=gpu,addr=03.0,synth=$nv_synth"
        append="$append GPUMODEL_PROFILE=nv NV_SYNTH=$nv_synth" ;;
    igt)
        checks=$top/tests/igt/checks.txt
        append="$append GPUMODEL_PROFILE=igt" ;;
    cost)
        checks=$top/tests/guest/cost-checks.txt
        append="$append GPUMODEL_PROFILE=cost" ;;
    compute)
        checks=$top/tests/compute/checks.txt
        root=1
        memory=${memory:-4G}
        # i915 ends any user submission still running after
        # CONFIG_DRM_I915_REQUEST_TIMEOUT (20 s in Debian's kernel): a
        # kernel of milliseconds on silicon runs for minutes on the
        # interpreted EU.  The heartbeat still resets an engine that does
        # not preempt (tests/compute/README.md).
        append="$append i915.request_timeout_ms=0 GPUMODEL_PROFILE=compute" ;;
    mesa)
        checks=$top/tests/mesa/checks.txt
        root=1
        append="$append i915.request_timeout_ms=0 GPUMODEL_PROFILE=mesa" ;;
    *) echo "run-guest: unknown profile $profile (intel, nv, igt, cost, compute or mesa)" >&2; exit 2 ;;
esac
memory=${memory:-2G}
# Each profile keeps its own logs: build/guest/out/ (intel), out-nv/ (nv),
# out-igt/ (igt).
[ "$profile" = intel ] || out=$g/out-$profile
[ -z "$out_set" ] || out=$(mkdir -p "$out_set" && cd "$out_set" && pwd)
logs=${out#"$top/"}/
if [ $want_tap = 0 ] && [ $want_summary = 0 ]; then
    want_tap=1 want_summary=1
fi
case $cpus in
    ''|*[!0-9]*|0) echo "run-guest: --cpus takes a number of vCPUs, 1 or more" >&2; exit 2 ;;
esac
case $accel/$icount in
    */off) icount_opt= ;;
    tcg/[0-9]|tcg/10) icount_opt=shift=$icount,sleep=off ;;
    tcg/*) echo "run-guest: --icount takes a shift of 0 to 10, or off" >&2; exit 2 ;;
    *) echo "run-guest: --icount needs --accel tcg" >&2; exit 2 ;;
esac
# The device's id, for QMP.
devid=gpu
case ",$device," in
    ,,) ;;
    *,id=*) devid=$(echo ",$device," | sed 's/.*,id=\([^,]*\),.*/\1/') ;;
    *) device="$device,id=gpu" ;;
esac

rm -rf "$out"
mkdir -p "$out"

# TCG emulates everything it can; KVM passes the host's CPU through (its
# "max" asks for MSRs a nested hypervisor may refuse).
cpu=max
[ "$accel" = kvm ] && cpu=host,-arch-capabilities

# The user space, then the kernel's modules, then what --initrd-add names:
# the kernel unpacks concatenated archives in order.  With --root, the user
# space is the root's disk and its boot initramfs.
image_rc=0
rootdrive=
if [ $root = 1 ]; then
    "$top/scripts/make-guest-root.sh" >&2 || image_rc=$?
    "$top/scripts/guest-kernel.sh" >&2 || image_rc=$?
    base=$g/root-boot.cpio.gz
    rootdrive="if=none,id=rootdisk,format=raw,snapshot=on,file=$(printf '%s' "$g/root.img" | sed 's/,/,,/g')"
elif [ "${GUEST_PREBUILT:-0}" = 1 ]; then
    base=$g/initramfs.cpio.gz
    [ -f "$base" ] || image_rc=1
else
    "$top/scripts/make-guest.sh" >&2 || image_rc=$?
    base=$g/initramfs.cpio.gz
fi
kdir=$("$top/scripts/guest-kernel.sh" --dir) || image_rc=$?
initrd=$out/initrd.cpio.gz
if [ "$image_rc" = 0 ]; then
    # shellcheck disable=SC2086
    cat "$base" "$kdir/modules.cpio.gz" $initrd_add > "$initrd" ||
        image_rc=$?
fi

# ---- boot -------------------------------------------------------------------

# console=ttyS0 quiet: only warnings and worse reach the (slow, emulated)
# console; dmesg keeps everything.  drm.debug=0x2: i915's driver debug
# messages (GGTT size, fuses, engines) in dmesg, to say what the driver saw.
# panic=-1 with -no-reboot: a panic ends QEMU at once instead of waiting for
# the timeout.  mitigations=off: speed under TCG; it changes nothing the
# device sees.
cmdline="console=ttyS0 quiet panic=-1 log_buf_len=8M drm.debug=0x2 mitigations=off$append"

# The uncompressed kernel boots through PVH, seconds faster under TCG.
kernel=$kdir/vmlinuz
[ -f "$kdir/vmlinux" ] && kernel=$kdir/vmlinux

# QEMU option values escape a comma by doubling it.
esc() { printf '%s' "$1" | sed 's/,/,,/g'; }

# The agent's sockets: in out/, unless its path is too long for a Unix
# socket address (108 bytes).
sockdir=$out
if [ ${#out} -gt 90 ]; then
    sockdir=$(mktemp -d /tmp/gpumodel-guest.XXXXXX)
    trap 'rm -rf "$sockdir"' EXIT
fi

# A qcow2 image with no device on it, where HMP savevm keeps the
# snapshot of the guest's "snapshot" request (qemu-img: Debian's
# qemu-utils; without it, the request fails and so does its check).
snapdrive=
if qemu-img create -q -f qcow2 "$out/snapshots.qcow2" 1M 2> "$out/qemu-img.log"; then
    snapdrive="if=none,id=snapshots,format=qcow2,file=$(esc "$out/snapshots.qcow2")"
fi

# The host agent's QMP client: QEMU's own qemu.qmp, from the source tree
# scripts/build-qemu.sh unpacked.
qemu_py=$top/build/qemu-src/python
PYTHONPATH=$qemu_py${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH

qemu_rc=0
t0=$(date +%s)
if [ "$image_rc" != 0 ]; then
    qemu_rc=noimage
elif [ ! -x "$qemu" ]; then
    qemu_rc=noqemu
elif [ ! -x "$python" ]; then
    qemu_rc=nopython
elif [ ! -f "$qemu_py/qemu/qmp/legacy.py" ]; then
    qemu_rc=noqmp
else
    # debug-threads: the agent's CPU times per thread name ("CPU 0/TCG").
    # The agent kills QEMU at the limit (status 124); the outer timeout
    # only guards against the agent itself hanging.
    timeout -k 10 $((limit + 30)) "$python" "$top/tests/guest/host-agent.py" \
        --dir "$out" --sock-dir "$sockdir" --device-id "$devid" --timeout "$limit" -- \
        "$qemu" \
        -machine q35 -accel "$accel" ${icount_opt:+-icount "$icount_opt"} \
        -cpu "$cpu" -smp "$cpus" -m "$memory" \
        -name gpumodel,debug-threads=on \
        -nodefaults -vga none -display none -no-reboot \
        -chardev "file,id=console,path=$(esc "$out/console.log")" \
        -chardev "socket,id=data,path=$(esc "$sockdir/data.sock")" \
        -chardev "socket,id=qmp,path=$(esc "$sockdir/qmp.sock")" \
        -mon chardev=qmp,mode=control \
        -serial chardev:console -serial chardev:data \
        ${device:+-device "$device"} \
        ${snapdrive:+-drive "$snapdrive"} \
        ${rootdrive:+-drive "$rootdrive" -device virtio-blk-pci,drive=rootdisk,addr=05.0} \
        -kernel "$kernel" -initrd "$initrd" \
        -append "$cmdline" "$@" \
        < /dev/null > "$out/agent.err" 2>&1 || qemu_rc=$?
    # Nothing here unless the agent itself failed (a Python traceback).
    [ -s "$out/agent.err" ] || rm -f "$out/agent.err"
fi
secs=$(($(date +%s) - t0))

# ---- parse the data channel ----------------------------------------------

touch "$out/data.log" "$out/console.log"
# Serial output may carry CRs; sections go to their own files (the
# verdicts come from data.log itself, below).  Lines are appended (awk's
# ">" would empty a file again once it was closed): each section's file is
# emptied at its @@BEGIN.
tr -d '\r' < "$out/data.log" | awk -v out="$out" '
    /^@@BEGIN / { name = $2; gsub("/", "_", name); f = out "/" name ".txt"; printf "" > f; next }
    /^@@END /   { close(f); f = ""; next }
    f != ""     { print >> f }
'
done=0
grep -q '^@@DONE' "$out/data.log" && done=1

# A guest kernel panic: its headline (the first oops, which a later one
# and the panic itself only follow from), the functions of its first
# stack trace, and the last request the guest made of the host agent.
oops='general protection fault|kernel BUG at|BUG:|Oops:|WARNING:|list_(add|del) corruption|Kernel panic'
panic='' trace=''
if grep -q 'Kernel panic - not syncing' "$out/console.log"; then
    tr -d '\r' < "$out/console.log" | sed 's/^\[[ 0-9.]*\] //' > "$out/console.txt"
    panic=$(grep -m 1 -E "$oops" "$out/console.txt")
    # The faulting function, then its callers ("? " frames are guesses).
    trace=$({
        sed -n 's/^RIP: [0-9a-f]*:\([A-Za-z_][A-Za-z0-9_.]*\)+0x.*/\1/p' "$out/console.txt" | head -n 1
        sed -n '/^Call Trace:/,/^ *<\/TASK>/p' "$out/console.txt" |
            sed -n 's/^ *\([A-Za-z_][A-Za-z0-9_.]*\)+0x.*/\1/p'
    } | head -n 5 | tr '\n' ' ' | sed 's/ $//;s/ / < /g')
    rm -f "$out/console.txt"
fi
lastreq=$(tr -d '\r' < "$out/data.log" | sed -n 's/^@@REQ [0-9]* //p' | tail -n 1)

# Why checks may be missing.
if [ "$qemu_rc" = noimage ]; then
    why="no guest image: scripts/make-guest.sh (--root: make-guest-root.sh) failed (status $image_rc)"
elif [ "$qemu_rc" = noqemu ]; then
    why="QEMU not built: $qemu (make qemu)"
elif [ "$qemu_rc" = nopython ]; then
    why="no $python for the host agent (python3)"
elif [ "$qemu_rc" = noqmp ]; then
    why="no qemu.qmp in $qemu_py (QEMU's source tree: make qemu)"
elif [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
    why="guest timed out after $limit s, QEMU killed"
elif [ -s "$out/agent.err" ]; then
    why="host agent failed (status $qemu_rc): $(tail -n 1 "$out/agent.err")"
elif [ "$qemu_rc" = 125 ]; then
    why="host agent could not run QEMU: $(tail -n 1 "$out/agent.log")"
elif [ "$qemu_rc" != 0 ] && [ ! -s "$out/console.log" ]; then
    why="QEMU failed (status $qemu_rc): $(head -n 1 "$out/qemu.log")"
elif [ -n "$panic" ]; then
    why="guest kernel panicked"
    [ -z "$lastreq" ] || why="$why after the host agent's '$lastreq'"
    why="$why: $panic"
    [ -z "$trace" ] || why="$why (in $trace)"
    why="$why; see console.log"
elif [ $done = 0 ]; then
    why="guest stopped before reporting it (QEMU status $qemu_rc, see console.log)"
else
    why="guest does not know this check (tests/guest out of date?)"
fi
[ $done = 1 ] || echo "$why" > "$out/stopped.txt"

# ---- TAP --------------------------------------------------------------------

# The verdicts: tests/guest/guest_tier.py over data.log (results.txt,
# summary.txt and the files its verdicts name, in $out).
"$python" "$top/tests/guest/guest_tier.py" tap --profile "$profile" \
    --checks "$checks" --why "$why" --out "$out" "$out/data.log" \
    > "$out/tap.txt" 2> "$out/verdicts.err" || :
total=$(grep -c -e '^ok ' -e '^not ok ' "$out/tap.txt" || :)
failed=$(grep -c '^not ok ' "$out/tap.txt" || :)
skipped=$(grep -c '^ok .* # SKIP ' "$out/tap.txt" || :)
if [ -s "$out/verdicts.err" ] || [ "$total" = 0 ]; then
    # The verdicts themselves failed: every check fails with it.
    failed=$(grep -c -v -e '^#' -e '^[[:space:]]*$' "$checks")
    total=$failed skipped=0
    {
        echo "1..$total"
        grep -v -e '^#' -e '^[[:space:]]*$' "$checks" | awk -v why="$(tail -n 1 "$out/verdicts.err" 2>/dev/null)" \
            '{ id = $1; $1 = ""; sub(/^ */, ""); print "not ok " NR " - " $0 " (no verdict: guest_tier.py failed: " why ")" }'
    } > "$out/tap.txt"
else
    rm -f "$out/verdicts.err"
fi
{
    echo "# guest: ${device:-no device}, $secs s, QEMU status $qemu_rc, $(grep -c '^@@REQ ' "$out/data.log" | tr -d ' ') requests to the host agent, logs in $logs"
    if [ -s "$out/splats.txt" ]; then
        echo "# kernel splats after modprobe i915:"
        sed 's/^/#   /' "$out/splats.txt"
    fi
    if [ $done = 0 ] && [ -n "$panic" ]; then
        echo "# the guest kernel panicked; console.log has:"
        tr -d '\r' < "$out/console.log" |
            awk -v oops="$oops" '$0 ~ oops { p = 1 }
                 p { print } p && /end trace/ { exit }' | head -n 60 | sed 's/^/#   /'
    elif [ $done = 0 ]; then
        echo "# the guest did not finish ($why); console.log ends with:"
        [ -s "$out/console.log" ] || echo "#   (nothing: the kernel was still booting quietly)"
        tr -d '\r' < "$out/console.log" | tail -n 15 | sed 's/^/#   /'
        [ -s "$out/qemu.log" ] && sed 's/^/#   qemu: /' "$out/qemu.log" | head -n 5
    fi
} >> "$out/tap.txt"

# ---- report -----------------------------------------------------------------

[ $want_tap = 0 ] || cat "$out/tap.txt"
if [ $want_summary = 1 ]; then
    [ $want_tap = 0 ] || echo
    if [ -s "$out/summary.txt" ]; then
        cat "$out/summary.txt"
        [ $done = 1 ] || echo "The guest stopped early: $why."
    else
        echo "No summary from the guest: $why."
        echo "Last console lines (${logs}console.log):"
        tr -d '\r' < "$out/console.log" | tail -n 15 | sed 's/^/  /'
    fi
    echo "Checks: $((total - failed - skipped)) of $total passed, $skipped skipped, $failed failed; guest ran $secs s (logs: $logs)"
    [ $want_tap = 1 ] || grep -e '^not ok' -e '# SKIP' "$out/tap.txt" | sed 's/^/  /' || true
fi

if [ $want_tap = 1 ]; then
    [ "$failed" -eq 0 ]
else
    [ -s "$out/summary.txt" ]
fi
