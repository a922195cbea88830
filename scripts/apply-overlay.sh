#!/bin/sh
# Put gpumodel's device models into a QEMU source tree: symlinks to this
# repository plus one-line hooks in QEMU's build files.  Idempotent; fails
# loudly if an anchor line QEMU is expected to have is missing.
#
#   scripts/apply-overlay.sh QEMU_TREE
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
qemu=$(cd "$1" && pwd)

link() {   # link REPO_PATH QEMU_PATH
    if [ -L "$qemu/$2" ]; then
        ln -sfn "$top/$1" "$qemu/$2"
    elif [ -e "$qemu/$2" ]; then
        echo "apply-overlay: $qemu/$2 exists and is not our symlink" >&2
        exit 1
    else
        ln -s "$top/$1" "$qemu/$2"
    fi
}

# hook FILE LINE [ANCHOR]: add LINE once, after the exact whole-line ANCHOR
# (before it if ANCHOR starts with "<"), or at the end without ANCHOR.
hook() {
    f="$qemu/$1"
    grep -qxF -- "$2" "$f" && return 0
    if [ $# -lt 3 ]; then
        printf '%s\n' "$2" >> "$f"
        return 0
    fi
    case $3 in
    "<"*) anchor=${3#<}; where=before ;;
    *) anchor=$3; where=after ;;
    esac
    if ! grep -qxF -- "$anchor" "$f"; then
        echo "apply-overlay: anchor line '$anchor' not found in $f" >&2
        exit 1
    fi
    awk -v anchor="$anchor" -v line="$2" -v where="$where" '
        $0 == anchor && !done && where == "before" { print line; done = 1 }
        { print }
        $0 == anchor && !done && where == "after" { print line; done = 1 }
    ' "$f" > "$f.gpumodel" && mv "$f.gpumodel" "$f"
}

link hw/gpumodel hw/gpumodel
link include/hw/gpumodel include/hw/gpumodel
link qapi/gpumodel.json qapi/gpumodel.json
# hw/gpumodel/intel/meson.build runs it: the GFXPIPE state header.
link scripts/gen-gfx-state.py scripts/gen-gfx-state.py
# The qtests.  Each device's tests are tests/qtest/DEVICE-test.c and
# DEVICE-FEATURE-test.c, built when QEMU's Kconfig has the device: this
# table, "DEVICE:SYMBOL", is the one place that says which.  Every test
# program links gpumodel-qtest.c and DEVICE-qtest.c (if present).  A C
# file that fits neither rule stops the overlay, so that no test is
# silently left out of the build.
qtest_devices="intel-gpu:CONFIG_INTEL_GPU nv-gpu:CONFIG_NV_GPU"

qtest_device() {   # qtest_device FILE_STEM: the device it belongs to
    for d in $qtest_devices; do
        case $1 in
        "${d%%:*}-test"|"${d%%:*}"-*-test|"${d%%:*}-qtest")
            echo "$d"
            return 0 ;;
        esac
    done
    return 1
}

# Symlinks left from files this repository no longer has.
for l in "$qemu"/tests/qtest/*; do
    [ -L "$l" ] || continue
    case $(readlink "$l") in
    "$top"/tests/qtest/*) [ -e "$l" ] || rm -f "$l" ;;
    esac
done

block=$(mktemp)
trap 'rm -f "$block"' EXIT
echo "# gpumodel qtests begin: written by scripts/apply-overlay.sh" > "$block"
for f in "$top"/tests/qtest/*.c "$top"/tests/qtest/*.h; do
    [ -e "$f" ] || continue
    stem=$(basename "$f")
    case $stem in
    *.h|gpumodel-qtest.c) link "tests/qtest/$stem" "tests/qtest/$stem"
        continue ;;
    esac
    stem=${stem%.c}
    if ! d=$(qtest_device "$stem"); then
        echo "apply-overlay: tests/qtest/$stem.c: not DEVICE-test.c," \
            "DEVICE-FEATURE-test.c or DEVICE-qtest.c for a DEVICE in" \
            "qtest_devices ($qtest_devices)" >&2
        exit 1
    fi
    link "tests/qtest/$stem.c" "tests/qtest/$stem.c"
    [ "$stem" = "${d%%:*}-qtest" ] && continue
    helpers="'gpumodel-qtest.c'"
    [ -e "$top/tests/qtest/${d%%:*}-qtest.c" ] &&
        helpers="$helpers, '${d%%:*}-qtest.c'"
    echo "qtests_x86_64 += config_all_devices.has_key('${d#*:}')" \
        "? ['$stem'] : []" >> "$block"
    # intel-gpu's qtests pack GFXPIPE commands with the generated
    # gen11-state.h (hw/gpumodel/intel/meson.build): built before them.
    gen=
    [ "${d%%:*}" = intel-gpu ] && gen=", gen11_state_h"
    echo "qtests += {'$stem': [files($helpers)$gen]}" >> "$block"
done
echo "# gpumodel qtests end" >> "$block"

# The block goes before QEMU's loop over the qtests, in place of any
# earlier one, and of the one-line hooks of earlier overlays.
mb=$qemu/tests/qtest/meson.build
anchor="qtest_executables = {}"
if ! grep -qxF -- "$anchor" "$mb"; then
    echo "apply-overlay: anchor line '$anchor' not found in $mb" >&2
    exit 1
fi
awk -v anchor="$anchor" -v blockfile="$block" '
    /^# gpumodel qtests begin/ { skip = 1 }
    skip { if (/^# gpumodel qtests end/) skip = 0; next }
    /^qtests_x86_64 \+= config_all_devices\.has_key\(.CONFIG_(INTEL|NV)_GPU.\) \? \[.[a-z0-9-]*-test.\] : \[\]$/ { next }
    $0 == anchor && !done {
        while ((getline l < blockfile) > 0) print l
        done = 1
    }
    { print }
' "$mb" > "$mb.gpumodel"
if cmp -s "$mb" "$mb.gpumodel"; then
    rm -f "$mb.gpumodel"        # unchanged: meson need not run again
else
    mv "$mb.gpumodel" "$mb"
fi

# generic-fuzz-intel-gpu and generic-fuzz-nv-gpu: our entries open QEMU's
# table of predefined generic-fuzz configurations.
link tests/fuzz/gpumodel-fuzz-configs.h tests/qtest/fuzz/gpumodel-fuzz-configs.h
hook tests/qtest/fuzz/generic_fuzz_configs.h \
    '#include "gpumodel-fuzz-configs.h"' \
    "const generic_fuzz_config predefined_configs[] = {"
# generic-fuzz maps every BAR with libqos from 0xe0000000 up to 4 GiB,
# where nv-gpu's 16 + 256 + 32 MiB do not fit once aligned; start at
# 0xc0000000 as our qtests do (q35's PCI window begins there).
hook tests/qtest/fuzz/generic_fuzz.c \
    "    pcibus->mmio_alloc_ptr = 0xc0000000;" \
    "    QPCIBus *pcibus = qpci_new_pc(s, NULL);"

hook hw/meson.build "subdir('gpumodel')"
hook hw/Kconfig "source gpumodel/Kconfig"
hook meson.build "trace_events_subdirs += have_system ? ['hw/gpumodel'] : []" \
    "<subdir('trace')"
hook qapi/meson.build "    'gpumodel'," "    'uefi',"
hook qapi/qapi-schema.json "{ 'include': 'gpumodel.json' }" \
    "{ 'include': 'uefi.json' }"
