#!/usr/bin/env python3
# Generate gen11-state.h from hw/gpumodel/intel/gen11-state.desc: for
# every GFXPIPE command and state structure the description lists, its
# length (and header), a C struct of its fields, and unpack and pack
# helpers (the format is described at the top of the description).
#
#   scripts/gen-gfx-state.py DESC OUTPUT
#
# The build runs it (hw/gpumodel/intel/meson.build); the unit test
# tests/unit/genxml-check.py imports it to read the description.
# Python 3, standard library only.
#
# SPDX-License-Identifier: GPL-2.0-or-later

import re
import sys

BASE_TYPES = ('uint', 'int', 'bool', 'offset', 'address', 'float')
PREFIX = 'gen11'
C_KEYWORDS = {
    'auto', 'break', 'case', 'char', 'const', 'continue', 'default', 'do',
    'double', 'else', 'enum', 'extern', 'float', 'for', 'goto', 'if',
    'inline', 'int', 'long', 'register', 'restrict', 'return', 'short',
    'signed', 'sizeof', 'static', 'struct', 'switch', 'typedef', 'union',
    'unsigned', 'void', 'volatile', 'while', 'bool',
}


class DescError(Exception):
    pass


class Field:
    """One field: bits start..end of the entry (genxml's numbering)."""

    def __init__(self, name, start, end, type_, count, stride, line):
        self.name = name
        self.start = start
        self.end = end
        self.type = type_
        self.count = count      # 1 for a plain field, None for FIELD[]
        self.stride = stride    # bits from one element to the next
        self.line = line
        self.array = False      # FIELD[N] (count may be 1)

    @property
    def width(self):
        return self.end - self.start + 1

    @property
    def dw(self):
        return self.start // 32

    @property
    def lo(self):
        """The start bit in its first dword."""
        return self.start % 32

    @property
    def hi(self):
        """The end bit relative to its first dword (0..63)."""
        return self.end - self.dw * 32


class Entry:
    def __init__(self, kind, name, length, variable, header, line):
        self.kind = kind            # 'struct' or 'command'
        self.name = name
        self.length = length        # dwords (the fixed part if variable)
        self.variable = variable    # "N+": repeated elements follow
        self.header = header        # dword 0 bits 31:16 (commands)
        self.line = line
        self.fields = []

    @property
    def bias(self):
        """What DWord Length leaves out (commands)."""
        return 1 if self.length == 1 and not self.variable else 2


def normalize(name):
    """genxml's field name as the description spells it."""
    return re.sub(r'[^a-z0-9]+', '_', name.lower()).strip('_')


def parse(path):
    """The entries of the description at @path, in order."""
    entries = []
    by_name = {}
    cur = None
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for n, raw in enumerate(lines, 1):
        text = raw.split('#', 1)[0].rstrip()
        if not text.strip():
            continue
        where = '%s:%d' % (path, n)
        tok = text.split()
        if not text[0].isspace():
            cur = parse_entry(tok, where, by_name)
            entries.append(cur)
            by_name[cur.name] = cur
            continue
        if cur is None:
            raise DescError('%s: a field outside any entry' % where)
        cur.fields.append(parse_field(tok, where, cur, by_name))
    for e in entries:
        check_entry(e)
    return entries


def parse_entry(tok, where, by_name):
    kind = tok[0]
    if kind not in ('struct', 'command'):
        raise DescError('%s: expected struct or command' % where)
    want = 3 if kind == 'struct' else 4
    if len(tok) != want:
        raise DescError('%s: %s NAME DWORDS%s' %
                        (where, kind, ' HEADER' if kind == 'command' else ''))
    name = tok[1]
    if not re.fullmatch(r'[A-Z0-9_]+', name):
        raise DescError('%s: name %s: upper case, digits, _' % (where, name))
    if name in by_name:
        raise DescError('%s: %s described twice' % (where, name))
    m = re.fullmatch(r'(\d+)(\+?)', tok[2])
    if not m or int(m.group(1)) < 1:
        raise DescError('%s: length %s' % (where, tok[2]))
    header = None
    if kind == 'command':
        header = int(tok[3], 16)
        if not tok[3].startswith('0x') or header > 0xffff:
            raise DescError('%s: header %s: 0x and 16 bits' % (where, tok[3]))
    elif m.group(2):
        raise DescError('%s: only a command varies in length' % where)
    return Entry(kind, name, int(m.group(1)), bool(m.group(2)), header,
                 where)


def parse_field(tok, where, entry, by_name):
    if len(tok) < 3:
        raise DescError('%s: DW HI:LO FIELD [TYPE] [stride=BITS]' % where)
    m = re.fullmatch(r'(\d+):(\d+)', tok[1])
    if not tok[0].isdigit() or not m:
        raise DescError('%s: DW HI:LO' % where)
    dw, hi, lo = int(tok[0]), int(m.group(1)), int(m.group(2))
    if hi < lo:
        raise DescError('%s: HI below LO' % where)
    m = re.fullmatch(r'([a-z0-9_]+)(?:\[(\d*)\])?', tok[2])
    if not m:
        raise DescError('%s: field name %s' % (where, tok[2]))
    name = m.group(1)
    if normalize(name) != name:
        raise DescError('%s: %s is not a normalized name' % (where, name))
    type_ = 'uint'
    stride = None
    for t in tok[3:]:
        if t.startswith('stride='):
            stride = int(t[7:])
        elif t in BASE_TYPES or t in by_name:
            type_ = t
        else:
            raise DescError('%s: type %s: a base type or a structure above'
                            % (where, t))
    array = m.group(2) is not None
    count = None if array and m.group(2) == '' else \
        int(m.group(2)) if array else 1
    start, end = dw * 32 + lo, dw * 32 + hi
    f = Field(name, start, end, type_, count, stride or end - start + 1,
              where)
    f.array = array
    if count == 0 or f.stride < f.width:
        raise DescError('%s: count 0, or a stride below the width' % where)
    check_field(f, entry, by_name)
    return f


def check_field(f, entry, by_name):
    sub = by_name.get(f.type)
    if sub is not None:
        if sub.kind != 'struct' or sub.variable:
            raise DescError('%s: %s is not a structure' % (f.line, f.type))
        whole = f.lo == 0 and f.width == sub.length * 32
        if not whole and not (sub.length == 1 and f.hi < 32):
            raise DescError('%s: a %s field is its %d dwords, dword-aligned '
                            '(or, of one dword, within one)'
                            % (f.line, f.type, sub.length))
        return
    if f.hi > 63:
        raise DescError('%s: wider than the qword at its dword' % f.line)
    if f.type == 'bool' and f.width != 1:
        raise DescError('%s: a bool is one bit' % f.line)
    if f.type == 'float' and f.width != 32:
        raise DescError('%s: a float is 32 bits' % f.line)
    if f.count is None and entry.kind == 'struct' and f.dw == 0:
        raise DescError('%s: elements overlapping dword 0' % f.line)


def check_entry(e):
    names = set()
    for f in e.fields:
        if f.name in names:
            raise DescError('%s: %s twice in %s' % (f.line, f.name, e.name))
        names.add(f.name)
        if f.count is None:
            if not e.variable and e.kind == 'command':
                raise DescError('%s: FIELD[] in a command of fixed length'
                                % f.line)
            if f.lo or f.dw < e.length or f.width % 32:
                raise DescError('%s: FIELD[] elements are whole dwords '
                                'after the fixed part' % f.line)
            continue
        last = f.end + (f.count - 1) * f.stride
        if last >= e.length * 32:
            raise DescError('%s: past the %d dwords of %s'
                            % (f.line, e.length, e.name))
        if f.type not in BASE_TYPES:
            continue
        for i in range(f.count):
            if (f.start + i * f.stride) % 32 + f.width > 64:
                raise DescError('%s: element %d is not within the qword '
                                'at its dword' % (f.line, i))
        if e.kind == 'command' and f.start < 32 and \
                (f.end >= 16 or (e.bias == 2 and f.start <= 7)):
            raise DescError('%s: overlaps the header or DWord Length'
                            % f.line)
    if e.kind == 'command' and e.variable and \
            not any(f.count is None for f in e.fields):
        raise DescError('%s: N+ without FIELD[]' % e.line)
    if not e.variable and not any(f.count is not None for f in e.fields):
        raise DescError('%s: %s has no field' % (e.line, e.name))


# ---- C output ---------------------------------------------------------------

def c_ident(e):
    """The lower-case stem of an entry's functions."""
    return '%s_%s' % (PREFIX, e.name.lower())


def c_type_name(e):
    return 'Gen11_%s' % e.name


def c_macro(e, what):
    return '%s_%s_%s' % (PREFIX.upper(), e.name, what)


def c_member(name):
    if name[0].isdigit():
        return '_' + name
    return name + '_' if name in C_KEYWORDS else name


def c_type(f, by_name):
    if f.type in by_name:
        return c_type_name(by_name[f.type])
    if f.type == 'bool':
        return 'bool'
    if f.type == 'float':
        return 'float'
    if f.type in ('offset', 'address'):
        return 'uint32_t' if f.hi < 32 else 'uint64_t'
    wide = f.width > 32
    if f.type == 'int':
        return 'int64_t' if wide else 'int32_t'
    return 'uint64_t' if wide else 'uint32_t'


def wrap_assign(lhs, rhs, indent):
    line = '%s%s = %s;' % (indent, lhs, rhs)
    if len(line) <= 80:
        return [line]
    return ['%s%s =' % (indent, lhs), '%s    %s;' % (indent, rhs)]


def wrap_call(head, args, indent, end=';'):
    """head(args...) within 80 columns: the arguments aligned after '('."""
    line = '%s%s(%s)%s' % (indent, head, ', '.join(args), end)
    if len(line) <= 80:
        return [line]
    out = []
    cur = '%s%s(' % (indent, head)
    pad = ' ' * len(cur)
    for i, a in enumerate(args):
        piece = a + (', ' if i + 1 < len(args) else ')' + end)
        if len(cur) + len(piece.rstrip()) > 80 and cur.strip() != \
                (indent + head + '(').strip():
            out.append(cur.rstrip())
            cur = pad
        cur += piece
    out.append(cur.rstrip())
    return out


def signature(name, args):
    """A static inline function's first lines, within 80 columns."""
    for lines in (wrap_call('static inline void ' + name, args, '', end=''),
                  ['static inline void'] + wrap_call(name, args, '', end='')):
        if all(len(x) <= 80 for x in lines):
            return lines
    # The arguments on lines of their own.
    lines = ['static inline void %s(' % name]
    cur = '   '
    for i, a in enumerate(args):
        piece = ' ' + a + (',' if i + 1 < len(args) else ')')
        if len(cur) + len(piece) > 80:
            lines.append(cur)
            cur = '   '
        cur += piece
    lines.append(cur)
    return lines


def bits(f, i):
    """The start and end expressions of element @i of @f."""
    if f.count == 1 and not f.array:
        return str(f.start), str(f.end)
    return ('%d + %s * %d' % (f.start, i, f.stride) if f.start else
            '%s * %d' % (i, f.stride),
            '%d + %s * %d' % (f.end, i, f.stride))


def field_start(f, by_name, lines):
    """Open @f's loop if it is an array: its member, indent, whether it
    loops, its bit range and its structure type (None for a scalar)."""
    member = 'v->' + c_member(f.name)
    indent = '    '
    if f.array:
        lines.append('    for (unsigned i = 0; i < %d; i++) {' % f.count)
        member += '[i]'
        indent = '        '
    s, e = bits(f, 'i')
    return member, indent, f.array, s, e, by_name.get(f.type)


def field_at(f, base):
    """Where a whole-structure field @f starts, from dword pointer @base."""
    if not f.array:
        return '%s + %d' % (base, f.dw)
    return '%s + %d + i * %d' % (base, f.dw, f.stride // 32)


def unpack_field(f, by_name, lines):
    member, indent, loop, s, e, sub = field_start(f, by_name, lines)
    if sub is not None:
        fn = c_ident(sub) + '_unpack'
        if f.lo == 0 and f.width == sub.length * 32:
            lines.extend(wrap_call(fn, [field_at(f, 'd'),
                                        c_macro(sub, 'LENGTH'),
                                        '&' + member], indent))
        else:
            lines.append('%suint32_t t = gen11_state_get(d, %s, %s);'
                         % (indent, s, e))
            lines.append('')
            lines.extend(wrap_call(fn, ['&t', '1', '&' + member], indent))
    else:
        get = 'gen11_state_get(d, %s, %s)' % (s, e)
        if f.type in ('offset', 'address') and f.lo:
            get += ' << %d' % f.lo
        elif f.type == 'int':
            get = 'gen11_state_sext(%s, %d)' % (get, f.width)
        elif f.type == 'float':
            get = 'gen11_state_u2f(%s)' % get
        lines.extend(wrap_assign(member, get, indent))
    if loop:
        lines.append('    }')


def pack_field(f, by_name, lines):
    member, indent, loop, s, e, sub = field_start(f, by_name, lines)
    if sub is not None:
        fn = c_ident(sub) + '_pack'
        if f.lo == 0 and f.width == sub.length * 32:
            lines.extend(wrap_call(fn, [field_at(f, 'dw'), '&' + member],
                                   indent))
        else:
            lines.append('%suint32_t t;' % indent)
            lines.append('')
            lines.extend(wrap_call(fn, ['&t', '&' + member], indent))
            lines.extend(wrap_call('gen11_state_put', ['dw', s, e, 't'],
                                   indent))
    else:
        val = member
        if f.type in ('offset', 'address') and f.lo:
            val = '%s >> %d' % (member, f.lo)
        elif f.type == 'int':
            val = '(uint64_t)' + member
        elif f.type == 'float':
            val = 'gen11_state_f2u(%s)' % member
        lines.extend(wrap_call('gen11_state_put', ['dw', s, e, val], indent))
    if loop:
        lines.append('    }')


def entry_c(e, by_name):
    out = ['', '/* %s (gen11-state.desc:%s) */' % (e.name,
                                                   e.line.rsplit(':', 1)[1])]
    fixed = [f for f in e.fields if f.count is not None]
    out.append('#define %s %d' % (c_macro(e, 'LENGTH'), e.length))
    if e.kind == 'command':
        out.append('#define %s 0x%08xu' % (c_macro(e, 'HEADER'),
                                           e.header << 16))
        out.append('#define %s %d' % (c_macro(e, 'BIAS'), e.bias))
    for f in e.fields:
        if f.count is None:
            out.append('#define %s %d' %
                       (c_macro(e, f.name.upper() + '_DW'), f.dw))
    if not fixed:
        return out              # only repeated elements: no struct
    out.append('')
    out.append('typedef struct %s {' % c_type_name(e))
    for f in fixed:
        dim = '[%d]' % f.count if f.array else ''
        out.append('    %s %s%s;' % (c_type(f, by_name), c_member(f.name),
                                     dim))
    out.append('} %s;' % c_type_name(e))
    out.append('')
    ln = c_macro(e, 'LENGTH')
    out.extend(signature(c_ident(e) + '_unpack',
                         ['const uint32_t *dw', 'unsigned ndw',
                          '%s *v' % c_type_name(e)]))
    out.append('{')
    out.append('    uint32_t d[%s];' % ln)
    out.append('')
    out.extend(wrap_call('gen11_state_load', ['d', ln, 'dw', 'ndw'], '    '))
    for f in fixed:
        unpack_field(f, by_name, out)
    out.append('}')
    out.append('')
    out.extend(signature(c_ident(e) + '_pack',
                         ['uint32_t *dw', 'const %s *v' % c_type_name(e)]))
    out.append('{')
    out.extend(wrap_call('memset', ['dw', '0', ln + ' * 4'], '    '))
    if e.kind == 'command':
        hdr = c_macro(e, 'HEADER')
        if e.bias == 1:
            out.append('    dw[0] = %s;' % hdr)
        else:
            out.extend(wrap_assign('dw[0]', '%s | (%d - %d)' % (
                hdr, e.length, e.bias), '    '))
    for f in fixed:
        pack_field(f, by_name, out)
    out.append('}')
    return out


HEAD = '''\
/*
 * intel-gpu: the Gen11 GFXPIPE commands and state structures the model
 * reads.  Generated by scripts/gen-gfx-state.py from
 * hw/gpumodel/intel/gen11-state.desc: edit those, not this.
 *
 * For each entry NAME of the description:
 *
 *   GEN11_NAME_LENGTH   its length in dwords (a command whose length
 *                       varies: its fixed part)
 *   GEN11_NAME_HEADER   a command's dword 0 with DWord Length 0
 *   GEN11_NAME_BIAS     what DWord Length leaves out: 2 (1 for a
 *                       command of one dword, which has no DWord Length)
 *   GEN11_NAME_FIELD_DW the dword the repeated elements FIELD[] begin at
 *   Gen11_NAME          its fields, one member each (genxml's names,
 *                       normalized; a leading digit gets a '_')
 *   gen11_name_unpack(dw, ndw, v)
 *                       fills @v from the @ndw dwords at @dw; dwords at
 *                       or past @ndw read as 0 (a command shorter than
 *                       its length is never read past its end)
 *   gen11_name_pack(dw, v)
 *                       writes the LENGTH dwords at @dw (a command's
 *                       header with its DWord Length too)
 *
 * The types keep the PRM's and genxml's names, prefixed (Gen11_3DSTATE_PS,
 * not a CamelCase form): several begin with a digit, and one spelling
 * everywhere keeps them greppable.  Members: uint32_t or uint64_t by
 * width, int32_t or int64_t sign-extended, bool, float; offsets and
 * addresses keep their bits in place (the low bits below the field
 * zero), as genxml's "offset" and "address" do.  The dwords are host
 * values: convert guest memory from little endian first.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPUMODEL_INTEL_GEN11_STATE_H
#define HW_GPUMODEL_INTEL_GEN11_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The first @n dwords of @src (@nsrc of them) in @dst, zeros past @nsrc. */
static inline void gen11_state_load(uint32_t *dst, unsigned n,
                                    const uint32_t *src, unsigned nsrc)
{
    for (unsigned i = 0; i < n; i++) {
        dst[i] = i < nsrc ? src[i] : 0;
    }
}

/*
 * Bits @start to @end of @d, counted from bit 0 of d[0] (genxml's start
 * and end), right-aligned; at most 64 bits in the qword at d[start / 32].
 */
static inline uint64_t gen11_state_get(const uint32_t *d, unsigned start,
                                       unsigned end)
{
    unsigned i = start / 32, lo = start % 32, w = end - start + 1;
    uint64_t q = d[i];

    if (lo + w > 32) {
        q |= (uint64_t)d[i + 1] << 32;
    }
    q >>= lo;
    return w < 64 ? q & ((1ull << w) - 1) : q;
}

/* OR the low bits of @v into bits @start to @end of @d. */
static inline void gen11_state_put(uint32_t *d, unsigned start, unsigned end,
                                   uint64_t v)
{
    unsigned i = start / 32, lo = start % 32, w = end - start + 1;
    uint64_t q = (w < 64 ? v & ((1ull << w) - 1) : v) << lo;

    d[i] |= (uint32_t)q;
    if (lo + w > 32) {
        d[i + 1] |= (uint32_t)(q >> 32);
    }
}

/* @v's low @bits bits as a two's complement number. */
static inline int64_t gen11_state_sext(uint64_t v, unsigned bits)
{
    return bits < 64 ? (int64_t)(v << (64 - bits)) >> (64 - bits) :
                       (int64_t)v;
}

static inline float gen11_state_u2f(uint32_t u)
{
    float f;

    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t gen11_state_f2u(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}
'''


def generate(entries):
    by_name = {e.name: e for e in entries}
    out = HEAD.rstrip('\n').split('\n')
    for e in entries:
        out.extend(entry_c(e, by_name))
    out.append('')
    out.append('#endif')
    text = '\n'.join(out) + '\n'
    for n, line in enumerate(text.split('\n'), 1):
        if len(line) > 80:
            raise DescError('generated line %d over 80 columns: %s' %
                            (n, line))
    return text


def main(argv):
    if len(argv) != 3:
        sys.stderr.write('usage: gen-gfx-state.py DESC OUTPUT\n')
        return 2
    try:
        text = generate(parse(argv[1]))
    except DescError as err:
        sys.stderr.write('gen-gfx-state: %s\n' % err)
        return 1
    with open(argv[2], 'w', encoding='utf-8') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
