#!/bin/sh
# The committed register coverage document matches the model's tables.
#   regs-doc-check.sh TOOL DOC [TOOL-OPTION]      (TAP output)
tool=$1 doc=$2
shift 2
echo "1..1"
if "$tool" "$@" | diff -u "$doc" - > /dev/null; then
    echo "ok 1 - $(basename "$doc") matches the register tables"
else
    "$tool" "$@" | diff -u "$doc" - | head -20 | sed 's/^/# /'
    echo "not ok 1 - $(basename "$doc") is stale: regenerate with $(basename "$tool") $*"
fi
