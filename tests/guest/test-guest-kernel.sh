#!/bin/sh
# scripts/guest-kernel.sh on kernels made up here (a bzImage setup header
# and a config beside it): what it accepts, what it refuses and how it
# says why.  TAP on stdout.  Booting real kernels is the guest tiers' part.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
gk=$top/scripts/guest-kernel.sh
t=$(mktemp -d)
dirs=
trap 'rm -rf "$t" $dirs' EXIT
n=0 bad=0

ok() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        sed 's/^/# /' "$t/err"
        bad=1
    fi
}

# fake_bzimage FILE RELEASE: the setup header fields the script reads:
# "HdrS" at 0x202, kernel_version (0x20e) pointing at the release string.
fake_bzimage() {
    head -c 1024 /dev/zero > "$1"
    printf 'HdrS' | dd of="$1" bs=1 seek=514 conv=notrunc 2>/dev/null
    printf '\000\002' | dd of="$1" bs=1 seek=526 conv=notrunc 2>/dev/null
    printf '%s (gpumodel@test) #1\000' "$2" | dd of="$1" bs=1 seek=1024 conv=notrunc 2>/dev/null
}

# run KERNEL [VAR=VALUE...]: the script on KERNEL; status in $rc, stderr
# in $t/err.
run() {
    k=$1
    shift
    dirs="$dirs $(KERNEL=$k "$gk" --dir 2> /dev/null)"
    rc=0
    env KERNEL="$k" FIRMWARE="$t/no-firmware" "$@" "$gk" > /dev/null 2> "$t/err" || rc=$?
}

# check CONFIG: --check on CONFIG; status in $rc, stderr in $t/err.
check() {
    rc=0
    "$gk" --check "$1" 2> "$t/err" || rc=$?
}

# The fragment is a config that has everything.
cp "$top/scripts/guest-kernel.config" "$t/full.config"
check "$t/full.config"
ok $rc "a config with every option passes --check"

sed 's/^CONFIG_DEBUG_FS=y/# CONFIG_DEBUG_FS is not set/' "$t/full.config" > "$t/nodebugfs.config"
check "$t/nodebugfs.config"
[ "$rc" = 1 ] && grep -q 'CONFIG_DEBUG_FS=y (is not set; ' "$t/err"
ok $? "a config without DEBUG_FS is refused, the option named"

sed 's/^CONFIG_DRM_I915=y/CONFIG_DRM_I915=m/' "$t/full.config" > "$t/i915m.config"
check "$t/i915m.config"
ok $rc "i915 as a module passes --check"

sed 's/^CONFIG_DEBUG_FS=y/CONFIG_DEBUG_FS=m/' "$t/full.config" > "$t/bad-m.config"
check "$t/bad-m.config"
[ "$rc" = 1 ] && grep -q 'CONFIG_DEBUG_FS=y (is m; ' "$t/err"
ok $? "an option that must be built in is refused as a module"

mkdir -p "$t/k"
fake_bzimage "$t/k/bzImage" 6.99.0-gpumodel
cp "$t/nodebugfs.config" "$t/k/config-6.99.0-gpumodel"
run "$t/k/bzImage"
[ "$rc" = 1 ] && grep -q '(6.99.0-gpumodel) lacks' "$t/err" &&
    grep -q 'CONFIG_DEBUG_FS=y' "$t/err"
ok $? "a bzImage is refused for its config beside it (config-RELEASE), the release read from its header"

cp "$t/i915m.config" "$t/k/config-6.99.0-gpumodel"
run "$t/k/bzImage"
[ "$rc" = 1 ] && grep -q 'builds i915 as modules: give their tree as MODULES=' "$t/err"
ok $? "i915 as a module without MODULES is refused, saying what to give"

mkdir -p "$t/mods/lib/modules/6.99.0-gpumodel"
touch "$t/mods/lib/modules/6.99.0-gpumodel/modules.builtin"
run "$t/k/bzImage" MODULES="$t/mods"
[ "$rc" = 1 ] && grep -q 'CONFIG_DRM_I915=m but no i915.ko' "$t/err"
ok $? "a modules tree without i915.ko is refused"

run "$t/k/bzImage" KCONFIG="$t/nodebugfs.config"
[ "$rc" = 1 ] && grep -q 'CONFIG_DEBUG_FS=y' "$t/err"
ok $? "KCONFIG is the config checked"

head -c 4096 /dev/urandom > "$t/junk"
run "$t/junk"
[ "$rc" = 1 ] && grep -q 'is no bzImage' "$t/err"
ok $? "a file that is no bzImage is refused"

run "$t/nowhere"
[ "$rc" = 1 ] && grep -q 'no such file or directory' "$t/err"
ok $? "a path that does not exist is refused"

mkdir -p "$t/empty"
run "$t/empty"
[ "$rc" = 1 ] && grep -q 'neither a kernel tree' "$t/err"
ok $? "a directory that holds no kernel is refused, the three forms named"

echo "1..$n"
exit $bad
