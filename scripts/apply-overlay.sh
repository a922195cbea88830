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
for h in "$top"/tests/qtest/*.h; do
    [ -e "$h" ] && link "tests/qtest/$(basename "$h")" "tests/qtest/$(basename "$h")"
done
for t in "$top"/tests/qtest/*-test.c; do
    name=$(basename "$t" .c)
    # intel-gpu-test is built when CONFIG_INTEL_GPU is.
    sym=CONFIG_$(echo "${name%-test}" | tr 'a-z-' 'A-Z_')
    link "tests/qtest/$name.c" "tests/qtest/$name.c"
    hook tests/qtest/meson.build \
        "qtests_x86_64 += config_all_devices.has_key('$sym') ? ['$name'] : []" \
        "qtests_x86_64 = qtests_i386"
done

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
