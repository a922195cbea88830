#!/bin/sh
# The committed register coverage document matches the model's tables.
#   regs-doc-check.sh TOOL DOC      (TAP output)
echo "1..1"
if "$1" | diff -u "$2" - > /dev/null; then
    echo "ok 1 - $(basename "$2") matches the register tables"
else
    "$1" | diff -u "$2" - | head -20 | sed 's/^/# /'
    echo "not ok 1 - $(basename "$2") is stale: regenerate with $(basename "$1")"
fi
