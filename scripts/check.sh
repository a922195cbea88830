#!/bin/sh
# make check: every test tier, then one summary line over all of them.
#   style - QEMU's checkpatch.pl over hw/ and include/: no error; calls
#           only down the unit order (tools/unit-graph.py); no C file
#           over 1,000 lines, no function over 120 (tools/size-check.py)
#   unit  - the models with a fake host (standalone meson build); the
#           GFXPIPE state description against Mesa's genxml
#   fuzz  - every fuzzer, briefly (scripts/fuzz-smoke.sh)
#   qtest - the devices inside the built QEMU, and again in a QEMU built
#           with ASan + UBSan (build/qemu-fuzz)
#   guest - Debian's stock kernel and tools in a VM on the devices (and
#           the host-side verdicts against recorded logs)
#   igt   - IGT's own tests (BAT, perf, tiling, rc6) through igt_runner in that VM
# Exit status 0 only when nothing failed.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/check
rm -rf "$out"
mkdir -p "$out"

echo "== style (QEMU's checkpatch.pl, the unit order, the size limits)"
"$top/scripts/tap-tier.sh" style/checkpatch "$out" -- "$top/scripts/style-check.sh"
"$top/scripts/tap-tier.sh" style/units "$out" -- \
    /usr/bin/python3 "$top/tools/unit-graph.py" --tap
"$top/scripts/tap-tier.sh" style/sizes "$out" -- \
    /usr/bin/python3 "$top/tools/size-check.py"

echo "== unit"
for t in "$top"/build/unit/tests/unit/test-*; do
    [ -f "$t" ] && [ -x "$t" ] || continue
    "$top/scripts/tap-tier.sh" "unit/$(basename "$t")" "$out" -- "$t" --tap
done

"$top/scripts/tap-tier.sh" unit/registers-doc "$out" -- \
    "$top/tests/unit/regs-doc-check.sh" "$top/build/unit/intel-gpu-regs-doc" \
    "$top/docs/intel-gpu-registers.rst"
"$top/scripts/tap-tier.sh" unit/registers-doc-nv "$out" -- \
    "$top/tests/unit/regs-doc-check.sh" "$top/build/unit/intel-gpu-regs-doc" \
    "$top/docs/nv-gpu-registers.rst" --nv
"$top/scripts/tap-tier.sh" unit/genxml-check "$out" -- \
    /usr/bin/python3 "$top/tests/unit/genxml-check.py" \
    "$top/hw/gpumodel/intel/gen11-state.desc" \
    --fetch "$top/scripts/fetch-genxml.sh"

echo "== sanitize (ASan + UBSan: any report fails the test)"
for t in "$top"/build/sanitize/tests/unit/test-*; do
    [ -f "$t" ] && [ -x "$t" ] || continue
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$top/scripts/tap-tier.sh" "sanitize/$(basename "$t")" "$out" -- \
        "$t" --tap
done

echo "== fuzz (seeded smoke tests, libFuzzer and QEMU generic-fuzz runs)"
"$top/scripts/tap-tier.sh" fuzz/smoke "$out" -- "$top/scripts/fuzz-smoke.sh"

echo "== qtest"
for t in "$top"/build/qemu/tests/qtest/*-test; do
    [ -f "$t" ] && [ -x "$t" ] || continue
    QTEST_QEMU_BINARY=$top/build/qemu/qemu-system-x86_64 \
        "$top/scripts/tap-tier.sh" "qtest/$(basename "$t")" "$out" -- \
        "$t" --tap
done

# The same qtests, test programs and QEMU built with ASan + UBSan.  Leak
# reports are off here: QEMU itself frees little at exit; the models'
# leaks are caught by the sanitize tier above (detect_leaks=1).
echo "== qtest-sanitize (ASan + UBSan build of QEMU and the qtests)"
for t in "$top"/build/qemu-fuzz/tests/qtest/*-test; do
    [ -f "$t" ] && [ -x "$t" ] || continue
    QTEST_QEMU_BINARY=$top/build/qemu-fuzz/qemu-system-x86_64 \
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$top/scripts/tap-tier.sh" "qtest-sanitize/$(basename "$t")" "$out" \
        -- "$t" --tap
done

echo "== guest"
"$top/scripts/tap-tier.sh" guest/verdicts "$out" -- \
    /usr/bin/python3 "$top/tests/guest/test_guest_tier.py"
"$top/scripts/tap-tier.sh" guest/kernel-option "$out" -- \
    "$top/tests/guest/test-guest-kernel.sh"
"$top/scripts/tap-tier.sh" "guest/intel-gpu" "$out" -- \
    "$top/scripts/run-guest.sh" --tap
"$top/scripts/tap-tier.sh" "guest/nv-gpu" "$out" -- \
    "$top/scripts/run-guest.sh" --profile nv --tap

echo "== igt (IGT 1.27.1 in the guest: scripts/run-igt.sh)"
"$top/scripts/tap-tier.sh" igt/verdicts "$out" -- \
    /usr/bin/python3 "$top/tests/igt/test_igt_tier.py"
"$top/scripts/tap-tier.sh" igt/run-igt "$out" -- "$top/scripts/run-igt.sh" --tap

# The seconds of each tier (the part of each name before the slash).
awk '{ split($1, n, "/"); t[n[1]] += $5; if (!(n[1] in o)) o[n[1]] = ++k }
     END { for (x in o) w[o[x]] = x
           for (i = 1; i <= k; i++)
               printf "%s%s %d s", (i > 1 ? ", " : "tiers: "), w[i], t[w[i]]
           print "" }' "$out/tally"
awk '{ p += $2; f += $3; s += $4 }
     END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit f > 0 }' \
    "$out/tally"
