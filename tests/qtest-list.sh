#!/bin/sh
# The qtest tiers' list is current: meson reads tests/qtest/*-test.c when it
# configures build/unit (tests/meson.build), and does not see a file added
# or removed since.  TAP: one test, which fails naming the difference.
#
#   tests/qtest-list.sh NAME...     (the *-test names meson was given)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
now=" $(cd "$top/tests/qtest" && for f in *-test.c; do
    [ -e "$f" ] && printf '%s ' "${f%.c}"
done)"
then=" $* "
diffs=
for n in $then; do
    case $now in *" $n "*) ;; *) diffs="$diffs, gone: $n.c" ;; esac
done
for n in $now; do
    case $then in *" $n "*) ;; *) diffs="$diffs, new: $n.c" ;; esac
done

echo "1..1"
if [ -z "$diffs" ]; then
    echo "ok 1 - build/unit runs the $# qtests of tests/qtest"
    exit 0
fi
echo "not ok 1 - tests/qtest changed since build/unit was configured" \
    "(${diffs#, }): run meson setup --reconfigure build/unit (make unit does)"
exit 1
