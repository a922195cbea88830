#!/bin/sh
# make fuzz-smoke: every fuzzer, briefly, as TAP (one line per run).
#   - the seeded smoke tests build/{unit,sanitize}/fuzz-*-smoke;
#   - the libFuzzer harnesses build/fuzz/fuzz-* (clang, ASan), and QEMU's
#     generic-fuzz-intel-gpu and generic-fuzz-nv-gpu
#     (build/qemu-fuzz/qemu-fuzz-x86_64), each from its committed seed
#     corpus tests/fuzz/corpus/NAME for FUZZ_SMOKE_RUNS executions or
#     FUZZ_SMOKE_SECS seconds, whichever comes first.
# A crash, a leak, a sanitizer report or an input slower than
# FUZZ_SMOKE_TIMEOUT seconds (a hang) fails the run; libFuzzer leaves the
# input in build/fuzz-smoke/NAME-crash-* (or -timeout-*, -leak-*).
# New inputs go to build/fuzz-smoke/NAME, never into the committed seeds.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
work=$top/build/fuzz-smoke
runs=${FUZZ_SMOKE_RUNS:-20000}
secs=${FUZZ_SMOKE_SECS:-40}
timeout=${FUZZ_SMOKE_TIMEOUT:-60}
rm -rf "$work"
mkdir -p "$work"
n=0 failed=0

result() {  # result STATUS NAME DETAIL
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $n - $2: $3"
    else
        failed=1
        echo "not ok $n - $2: $3 (log: $log)"
        tail -n 30 "$log" | sed 's/^/# /'
    fi
}

hint() {    # hint BINARY: the make target that builds it
    case $1 in
        "$top"/build/unit/*) echo "make unit" ;;
        "$top"/build/sanitize/*) echo "make unit-sanitize" ;;
        "$top"/build/qemu-fuzz/*) echo "make qemu-fuzz" ;;
        *) echo "make fuzz" ;;
    esac
}

smoke() {   # smoke BINARY TAG
    log=$work/$(basename "$1")-$2.log
    if [ ! -x "$1" ]; then
        echo "missing" > "$log"
        result 1 "$2/$(basename "$1")" "${1#"$top"/} missing: run $(hint "$1")"
        return
    fi
    ASAN_OPTIONS=detect_leaks=1 \
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$1" --tap > "$log" 2>&1
    result $? "$2/$(basename "$1")" "seeded inputs"
}

fuzz() {    # fuzz NAME CORPUS COMMAND...
    name=$1 seeds=$top/tests/fuzz/corpus/$2
    shift 2
    log=$work/$name.log
    if [ ! -x "$1" ]; then
        echo "missing" > "$log"
        result 1 "$name" "${1#"$top"/} missing: run $(hint "$1")"
        return
    fi
    mkdir -p "$work/$name"
    "$@" -runs="$runs" -max_total_time="$secs" -timeout="$timeout" \
        -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$work/$name-" "$work/$name" "$seeds" > "$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    result $rc "$name" "${execs:-no} executions from $(ls "$seeds" | wc -l) seeds"
}

echo "1..11"
smoke "$top/build/unit/fuzz-intel-cs-smoke" plain
smoke "$top/build/unit/fuzz-intel-eu-smoke" plain
smoke "$top/build/unit/fuzz-nv-pcounter-smoke" plain
smoke "$top/build/sanitize/fuzz-intel-cs-smoke" sanitize
smoke "$top/build/sanitize/fuzz-intel-eu-smoke" sanitize
smoke "$top/build/sanitize/fuzz-nv-pcounter-smoke" sanitize
fuzz fuzz-intel-cs fuzz-intel-cs \
    "$top/build/fuzz/fuzz-intel-cs" -max_len=65536
fuzz fuzz-intel-eu fuzz-intel-eu \
    "$top/build/fuzz/fuzz-intel-eu" -max_len=8192
fuzz fuzz-nv-pcounter fuzz-nv-pcounter \
    "$top/build/fuzz/fuzz-nv-pcounter" -max_len=2048
# QEMU's fuzzer prints the guest's and QEMU's output: keep it in the log.
for dev in intel-gpu nv-gpu; do
    fuzz "generic-fuzz-$dev" "generic-fuzz-$dev" \
        "$top/build/qemu-fuzz/qemu-fuzz-x86_64" \
        --fuzz-target="generic-fuzz-$dev" -max_len=4096
done
exit $failed
