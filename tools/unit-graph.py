#!/usr/bin/python3
"""The device models' call graph between source files and between units,
from the symbols their objects define and use (nm), as built by the
standalone build (build/unit, compile_commands.json).

A unit is a folder under hw/gpumodel/, named by its path there
("intel/cs"; the files directly in hw/gpumodel/ are the unit
"gpumodel").  Prints each unit's calls into other units, with the
functions, and every circle of calls: between units, and between the
files of one unit.  The units' order, top first, is the list between the
"unit-order" comments of docs/architecture.rst; each call that goes up
that order is reported, and so is a unit the list does not name.  Exit
status 1 when --check is given and there is a circle between units, a
call up the order, a unit missing from it, or a unit's private header
(its -int.h) included from outside the unit and the units under it.

  tools/unit-graph.py [--build DIR] [--order FILE] [--check] [--tap]
                      [--files]

--tap prints the three checks as TAP, the graph as comments (make check).
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

MODEL = "hw/gpumodel/"


def objects(build):
    """{object path: source path relative to the tree} of the models."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        commands = json.load(f)
    out = {}
    for c in commands:
        src = os.path.normpath(os.path.join(c["directory"], c["file"]))
        rel = os.path.relpath(src, os.path.join(build, "..", ".."))
        if rel.startswith(MODEL) and c["output"].startswith("lib"):
            out[os.path.join(c["directory"], c["output"])] = rel
    return out


def symbols(obj):
    """(defined, undefined) global function symbols of an object."""
    text = subprocess.run(["nm", obj], capture_output=True, text=True,
                          check=True).stdout
    defined, undefined = set(), set()
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TW":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
    return defined, undefined


def unit_of(path):
    return os.path.dirname(path[len(MODEL):]) or "gpumodel"


def unit_order(doc):
    """The units named in the first ``literal`` of each list item between
    ".. unit-order begin" and ".. unit-order end", top first."""
    order, inside = [], False
    with open(doc) as f:
        for line in f:
            if line.startswith(".. unit-order begin"):
                inside = True
            elif line.startswith(".. unit-order end"):
                break
            elif inside:
                m = re.match(r"\s*[-*] ``([^`]+)``", line)
                if m:
                    order.append(m.group(1))
    return order


def private_includes(top):
    """Includes of a private header (-int.h) from outside its folder and
    the folders under it: [(including file, header)], paths from top."""
    out = []
    model = os.path.join(top, MODEL)
    for d, _, names in os.walk(model):
        if os.path.normpath(d) == os.path.normpath(model):
            continue            # the QEMU glue, beside the models
        for n in sorted(names):
            if not n.endswith((".c", ".h")):
                continue
            path = os.path.join(d, n)
            with open(path) as f:
                for line in f:
                    m = re.match(r'#include "([^"]*-int\.h)"', line)
                    if not m:
                        continue
                    hdr = os.path.normpath(os.path.join(d, m.group(1)))
                    home = os.path.dirname(hdr) + os.sep
                    if not (d + os.sep).startswith(home):
                        out.append((os.path.relpath(path, top),
                                    os.path.relpath(hdr, top)))
    return out


def graph(build):
    """{(caller file, callee file): {functions}}."""
    objs = objects(build)
    owner, uses = {}, {}
    for obj, src in objs.items():
        d, u = symbols(obj)
        for s in d:
            owner[s] = src
        uses[src] = u
    edges = collections.defaultdict(set)
    for src, u in uses.items():
        for s in u:
            if s in owner and owner[s] != src:
                edges[(src, owner[s])].add(s)
    return edges


def circles(nodes, edges):
    """Strongly connected components of more than one node (Tarjan)."""
    succ = collections.defaultdict(set)
    for a, b in edges:
        succ[a].add(b)
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(top, "build", "unit"))
    ap.add_argument("--order",
                    default=os.path.join(top, "docs", "architecture.rst"))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--tap", action="store_true")
    ap.add_argument("--files", action="store_true",
                    help="also print every call between files")
    args = ap.parse_args()

    edges = graph(args.build)
    files = {f for e in edges for f in e}
    units = collections.defaultdict(set)
    for (a, b), syms in edges.items():
        if unit_of(a) != unit_of(b):
            units[(unit_of(a), unit_of(b))] |= syms
    order = unit_order(args.order)
    found = {
        "no circle between units": [
            "circle between units: %s" % " <-> ".join(comp)
            for comp in circles({u for e in units for u in e}, units)],
        "no call up the unit order": [
            "call up the order: %s -> %s (%s)" % (a, b, ", ".join(sorted(s)))
            for (a, b), s in sorted(units.items())
            if a in order and b in order and order.index(b) < order.index(a)],
        "every unit in the order": [
            "unit not in the order of %s: %s" % (args.order, u)
            for u in sorted({unit_of(f) for f in files} - set(order))],
        "private headers stay in their unit": [
            "%s includes %s" % inc
            for inc in private_includes(os.path.normpath(top))],
    }
    bad = sum(len(v) for v in found.values())
    note = "# " if args.tap else ""
    if args.tap:
        print("1..%d" % len(found))
        for n, (what, problems) in enumerate(found.items(), 1):
            print("%s %d - %s" % ("not ok" if problems else "ok", n, what))
            for p in problems:
                print("# " + p)

    print("# calls between units")
    for (a, b), syms in sorted(units.items()):
        print("%s%s -> %s: %s" % (note, a, b, ", ".join(sorted(syms))))
    if not args.tap:
        for problems in found.values():
            for p in problems:
                print(p)

    print("# circles between the files of a unit")
    for u in sorted({unit_of(f) for f in files}):
        inner = {e: s for e, s in edges.items()
                 if unit_of(e[0]) == u and unit_of(e[1]) == u}
        for comp in circles({f for e in inner for f in e}, inner):
            print("%s%s: %d files: %s" % (note, u, len(comp), " ".join(
                os.path.basename(f) for f in comp)))
    if args.files:
        print("# calls between files")
        for (a, b), syms in sorted(edges.items()):
            print("%s%s -> %s: %s" % (note, a, b, ", ".join(sorted(syms))))
    return 1 if (args.check or args.tap) and bad else 0


if __name__ == "__main__":
    sys.exit(main())
