#!/bin/sh
# The Gen11 ISA that Intel's OpenCL compiler (IGC, Debian's
# intel-opencl-icd, the guest's version) makes of an OpenCL C file, on the
# host, in seconds: what a kernel that fails on intel-gpu asks of the
# EU and the shared functions, without booting the guest.
#
#   scripts/igc-dump.sh [--options OPTS] [--out DIR] FILE.cl
#
#   --options OPTS  OpenCL build options (-cl-std=CL2.0, -D...)
#   --out DIR       where IGC's dump goes (default build/compute/igc-dump/
#                   and the file's name): per kernel a .asm (the ISA, with
#                   the kernel's name on its first line), the LLVM IR and
#                   vISA
#
# Prints each kernel's name and the path of its .asm.  piglit's .cl tests
# compile as they are (their configuration is a comment).  Installs intel-opencl-icd (ocloc) when missing,
# as root.  ocloc compiles for device 0x8a52, intel-gpu's.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
opts=
out=

while [ $# -gt 1 ]; do
    case $1 in
        --options) opts=$2; shift ;;
        --out) out=$2; shift ;;
        *) break ;;
    esac
    shift
done
case ${1:-} in
    ''|-h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
esac
src=$1
[ -f "$src" ] || { echo "igc-dump: no file $src" >&2; exit 2; }
out=${out:-$top/build/compute/igc-dump/$(basename "$src" .cl)}

if ! command -v ocloc > /dev/null; then
    [ "$(id -u)" = 0 ] || { echo "igc-dump: needs intel-opencl-icd (ocloc); run as root" >&2; exit 1; }
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    apt-get install -y -q --no-install-recommends intel-opencl-icd >&2
fi

rm -rf "$out"
mkdir -p "$out"
IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir="$out" \
    ocloc compile -q -file "$src" -device 0x8a52 -out_dir "$out" \
    ${opts:+-options "$opts"} >&2
for f in "$out"/*.asm; do
    [ -f "$f" ] || continue
    echo "$(sed -n 's,^//\.kernel ,,p' "$f" | head -n 1) $f"
done
