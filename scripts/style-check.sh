#!/bin/sh
# QEMU's own style checker (scripts/checkpatch.pl of the QEMU tree that
# scripts/build-qemu.sh unpacks) over every C file of hw/ and include/,
# as TAP: a file passes with no error; its warnings are counted in the
# line, and the last line totals them.
#
#   scripts/style-check.sh [FILE...]
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
checkpatch=$top/build/qemu-src/scripts/checkpatch.pl

if [ $# -eq 0 ]; then
    # shellcheck disable=SC2046 # file names without blanks
    set -- $(cd "$top" && git ls-files 'hw/*.[ch]' 'include/*.[ch]')
fi
echo "1..$#"
if [ ! -f "$checkpatch" ]; then
    n=0
    for f in "$@"; do
        n=$((n + 1))
        echo "not ok $n - $f: no $checkpatch (make qemu unpacks it)"
    done
    exit 1
fi
n=0 bad=0 warnings=0
for f in "$@"; do
    n=$((n + 1))
    report=$(cd "$top" && perl "$checkpatch" --no-signoff --terse -f "$f" 2>&1)
    e=$(printf '%s\n' "$report" | grep -c ': ERROR: ')
    w=$(printf '%s\n' "$report" | grep -c ': WARNING: ')
    warnings=$((warnings + w))
    if [ "$e" -gt 0 ]; then
        bad=1
        echo "not ok $n - $f: $e error(s): $(printf '%s\n' "$report" | grep -m 1 ': ERROR: ')"
    else
        [ "$w" -gt 0 ] && w=" ($w warning(s))" || w=
        echo "ok $n - $f$w"
    fi
done
echo "# checkpatch: $warnings warning(s) in $# files"
exit $bad
