#!/usr/bin/env python3
# The GFXPIPE state description (hw/gpumodel/intel/gen11-state.desc)
# against Mesa's genxml for Gen11 (src/intel/genxml/gen110.xml, with its
# <import> chain gen90 -> gen80 -> ... and their <exclude>s resolved as
# Mesa's intel_genxml.py does): every entry is there, a struct or an
# instruction of the same length (a command of varying length has none
# in genxml); a command's header is the defaults of genxml's Command
# Type, SubType (Pipeline), opcode and sub-opcode fields, its DWord
# Length bias and default agree; every field is there by its normalized
# name with the same start and end bits, the same group (count and
# size), and a compatible type.  TAP, one test per entry.
#
#   genxml-check.py DESC GENXML_DIR
#   genxml-check.py DESC --fetch scripts/fetch-genxml.sh
#
# (--fetch: the directory is what the script prints; it downloads the
# files once per machine.)
#
# SPDX-License-Identifier: GPL-2.0-or-later

import importlib.util
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, '..', '..', 'scripts', 'gen-gfx-state.py')
TOP_TAGS = ('enum', 'struct', 'instruction', 'register')


def load_generator():
    spec = importlib.util.spec_from_file_location('gen_gfx_state', GEN)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def load_genxml(path, seen=None):
    """{(tag, name): element} of @path with its imports merged."""
    seen = seen or set()
    path = os.path.normpath(path)
    if path in seen:
        raise ValueError('%s: an <import> cycle' % path)
    seen.add(path)
    root = ET.parse(path).getroot()
    items = {}
    for el in root:
        if el.tag in TOP_TAGS:
            items[(el.tag, el.attrib['name'])] = el
    for el in root:
        if el.tag != 'import':
            continue
        excluded = {x.attrib['name'] for x in el if x.tag == 'exclude'}
        name = el.attrib['name']
        if os.path.dirname(name):
            raise ValueError('%s: import of %s: siblings only' % (path, name))
        imported = load_genxml(os.path.join(os.path.dirname(path), name),
                               seen)
        for key, item in imported.items():
            # Defined here: the import's item is ignored, as in Mesa.
            if key[1] not in excluded and key not in items:
                items[key] = item
    return items


class GxField:
    def __init__(self, name, start, end, type_, count, size):
        self.name = name
        self.start = start
        self.end = end
        self.type = type_
        self.count = count      # 1; N for a group of N; None for count="0"
        self.size = size        # group size in bits


def flatten(el, norm, base=0, count=1, size=None):
    """Every field of @el, groups resolved to a count and a stride."""
    out = []
    for c in el:
        if c.tag == 'field':
            out.append(GxField(norm(c.attrib['name']),
                               base + int(c.attrib['start'], 0),
                               base + int(c.attrib['end'], 0),
                               c.attrib.get('type', 'uint'), count, size))
        elif c.tag == 'group':
            if count != 1:
                raise ValueError('nested groups in %s' % el.attrib['name'])
            n = int(c.attrib['count'], 0)
            out.extend(flatten(c, norm, base + int(c.attrib['start'], 0),
                               n or None, int(c.attrib['size'], 0)))
    return out


def compatible(desc_type, gx_type, items):
    """Is genxml's type @gx_type the description's @desc_type?"""
    if desc_type in ('bool', 'float', 'offset', 'address'):
        return gx_type == desc_type
    if desc_type == 'int':
        return gx_type == 'int' or re.fullmatch(r's\d+\.\d+', gx_type)
    if desc_type == 'uint':
        # Unsigned, unsigned fixed point, or an enumerated type (any name
        # that is not a base type or a structure).
        return (gx_type in ('uint', 'mbz', 'mbo') or
                re.fullmatch(r'u\d+\.\d+', gx_type) or
                (gx_type not in ('int', 'bool', 'float', 'offset',
                                 'address') and
                 not re.fullmatch(r's\d+\.\d+', gx_type) and
                 ('struct', gx_type) not in items))
    return gx_type == desc_type         # a structure: the same one


def bits(start, end):
    dw = start // 32
    return '%d..%d (%d %d:%d)' % (start, end, dw, end - dw * 32,
                                 start - dw * 32)


def check_header(e, el, fields, problems):
    """A command's header, bias and DWord Length against genxml's."""
    value = 0
    covered = 0
    for f in fields:
        if f.start >= 16 and f.end <= 31 and f.count == 1:
            d = f.default
            if d is None:
                problems.append('header bits %d..%d (%s): no default in '
                                'genxml' % (f.start, f.end, f.name))
                continue
            value |= d << (f.start - 16)
            covered |= ((1 << (f.end - f.start + 1)) - 1) << (f.start - 16)
    if covered != 0xffff:
        problems.append('genxml\'s header fields cover bits 0x%04x of '
                        '31:16' % covered)
    if value != e.header:
        problems.append('header 0x%04x, genxml 0x%04x' % (e.header, value))
    bias = int(el.attrib.get('bias', '0'), 0)
    if bias != e.bias:
        problems.append('DWord Length bias %d, genxml %d' % (e.bias, bias))
    dl = [f for f in fields if f.name == 'dword_length']
    if e.bias == 2:
        if len(dl) != 1 or dl[0].start != 0:
            problems.append('genxml has no DWord Length at bit 0')
        elif not e.variable and dl[0].default != e.length - e.bias:
            problems.append('DWord Length default %s, expected %d' %
                            (dl[0].default, e.length - e.bias))
    elif dl:
        problems.append('a one-dword command, genxml has a DWord Length')


def check_entry(e, items, gen):
    """The problems of description entry @e, as strings."""
    tag = 'struct' if e.kind == 'struct' else 'instruction'
    el = items.get((tag, e.name))
    if el is None:
        return ['no %s %s in genxml' % (tag, e.name)]
    problems = []
    length = el.attrib.get('length')
    if length is None and not e.variable:
        problems.append('genxml gives no length: its length varies (N+)')
    elif length is not None and (e.variable or int(length) != e.length):
        problems.append('length %d%s, genxml %s' %
                        (e.length, '+' if e.variable else '', length))
    fields = flatten(el, gen.normalize)
    defaults = {}
    for c in el.iter('field'):
        if 'default' in c.attrib:
            defaults[gen.normalize(c.attrib['name'])] = \
                int(c.attrib['default'], 0)
    for f in fields:
        f.default = defaults.get(f.name)
    if e.kind == 'command':
        check_header(e, el, [f for f in fields if f.start < 32], problems)
    by_name = {}
    for f in fields:
        by_name.setdefault(f.name, []).append(f)
    for f in e.fields:
        cands = by_name.get(f.name)
        if not cands:
            problems.append('%s: no such field in genxml' % f.name)
            continue
        gx = min(cands, key=lambda g: (g.start != f.start, g.end != f.end))
        if (gx.start, gx.end) != (f.start, f.end):
            problems.append('%s: bits %s, genxml %s' % (
                f.name, bits(f.start, f.end), bits(gx.start, gx.end)))
        if f.count != gx.count or (not f.array and gx.count != 1):
            problems.append('%s: %s, genxml %s' % (
                f.name, 'one' if not f.array else
                '[%s]' % ('' if f.count is None else f.count),
                'one' if gx.count == 1 else
                'a group of %s' % (gx.count or 'any number')))
        elif f.array and f.stride != gx.size:
            problems.append('%s: stride %d bits, genxml\'s group size %d' %
                            (f.name, f.stride, gx.size))
        if not compatible(f.type, gx.type, items):
            problems.append('%s: type %s, genxml %s' %
                            (f.name, f.type, gx.type))
    if e.variable:
        rep = [f for f in fields if f.count is None]
        if not rep or min(f.start for f in rep) != e.length * 32:
            problems.append('genxml\'s repeated part does not begin at '
                            'dword %d' % e.length)
    return problems


def main(argv):
    if len(argv) == 4 and argv[2] == '--fetch':
        r = subprocess.run([argv[3]], stdout=subprocess.PIPE, check=False,
                           universal_newlines=True)
        if r.returncode:
            print('Bail out! %s failed: Mesa\'s genxml is not there' %
                  argv[3])
            return 1
        gdir = r.stdout.strip().split('\n')[-1]
    elif len(argv) == 3:
        gdir = argv[2]
    else:
        sys.stderr.write('usage: genxml-check.py DESC (GENXML_DIR | '
                         '--fetch SCRIPT)\n')
        return 2
    gen = load_generator()
    try:
        entries = gen.parse(argv[1])
    except gen.DescError as err:
        print('Bail out! %s' % err)
        return 1
    items = load_genxml(os.path.join(gdir, 'gen110.xml'))
    print('1..%d' % len(entries))
    fails = 0
    for i, e in enumerate(entries, 1):
        problems = check_entry(e, items, gen)
        what = '%s %s, %d%s dword%s, %d field%s' % (
            e.kind, e.name, e.length, '+' if e.variable else '',
            '' if e.length == 1 and not e.variable else 's',
            len(e.fields), '' if len(e.fields) == 1 else 's')
        if problems:
            fails += 1
            print('not ok %d - %s' % (i, what))
            for p in problems:
                print('# %s: %s' % (e.name, p))
        else:
            print('ok %d - %s' % (i, what))
    fields = sum(len(e.fields) for e in entries)
    print('# %d entries (%d structures, %d commands), %d fields, against '
          '%s' % (len(entries), sum(e.kind == 'struct' for e in entries),
                  sum(e.kind == 'command' for e in entries), fields,
                  os.path.join(gdir, 'gen110.xml')))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
