"""The data channel and what every profile's verdicts share.

Log parses the guest's data channel into sections; Verdicts holds the
checks as they are made; the helpers below give the results the guest's
shell scripts gave (awk's numbers, $((...)), grep and sed over the kernel
log), and the PCI checks both profiles make.
"""
import json
import re

BDF_INTEL = "0000:00:02.0"
BDF_NV = "0000:00:03.0"


SPLAT = (r"WARNING:|BUG:|Oops|Call Trace:|drm_WARN|cut here|"
         r"general protection fault|UBSAN:|blocked for more than")
HEAD = (r"WARNING:|BUG:|Oops:|general protection fault|UBSAN:|"
        r"blocked for more than")
# i915's interrupt messages (gen11_gt_engine_identity: "INTR_IDENTITY_REG
# ... not valid!", gen11_gt_identity_handler: "unhandled engine
# interrupt"), the IRQ core's ("nobody cared").
IRQMSG = (r"not valid|lied|unhandled|unknown interrupt|nobody cared|"
          r"Disabling IRQ|\*ERROR\*")


# ---- the log ---------------------------------------------------------------

class Section:
    def __init__(self, name, attrs):
        self.name = name
        self.attrs = attrs
        self.lines = []

    @property
    def rc(self):
        return self.attrs.get("rc")

    @property
    def text(self):
        return "".join(line + "\n" for line in self.lines)

    def got(self):
        """The first answer of the host agent in the section: (status,
        text, request words)."""
        req = []
        for line in self.lines:
            if line.startswith("@@REQ "):
                req = line.split()[2:]
            elif line.startswith("@@GOT "):
                w = line.split(" ", 3)
                return (w[2] if len(w) > 2 else "",
                        w[3] if len(w) > 3 else "", req)
        return ("", "", req)

    def cpu_spent(self, key):
        """How much KEY (cpu-s, wall-s, other-s) of the host agent's
        "cpu" answers grew between the section's first two, as "%.3f";
        "?" when either is missing.  Also the first answer's status."""
        got = [x.split(" ", 3) for x in self.lines if x.startswith("@@GOT ")]
        st = got[0][2] if got else ""
        try:
            a, b = (json.loads(g[3])[key] for g in got[:2]
                    if len(g) > 3 and g[2] == "ok")
            return "%.3f" % (float(b) - float(a)), st
        except (ValueError, KeyError, TypeError):
            return "?", st


class Log:
    """The data channel: sections by name (the last of a name wins), the
    results the guest reported itself, whether it reached @@DONE."""

    def __init__(self, text):
        self.sections = {}
        self.results = []       # (id, status, text) in order
        self.done = False
        cur = None
        for line in text.replace("\r", "").split("\n"):
            if line.startswith("@@BEGIN "):
                w = line.split()
                attrs = dict(a.split("=", 1) for a in w[2:] if "=" in a)
                cur = Section(w[1], attrs)
                self.sections[w[1]] = cur
            elif line.startswith("@@END ") and cur is not None:
                cur = None
            elif cur is not None and line.endswith("@@END " + cur.name):
                # A section whose last line had no newline.
                cur.lines.append(line[:-len("@@END " + cur.name)])
                cur = None
            elif cur is not None:
                cur.lines.append(line)
            elif line.startswith("@@RESULT "):
                w = line.split(" ", 3)
                if len(w) >= 3:
                    self.results.append(
                        (w[1], w[2], w[3] if len(w) > 3 else ""))
            elif line.startswith("@@DONE"):
                self.done = True

    def get(self, name):
        return self.sections.get(name)

    def text(self, name):
        s = self.sections.get(name)
        return s.text if s else ""

    def lines(self, name):
        s = self.sections.get(name)
        return s.lines if s else []

    def value(self, name, default=""):
        """A one-line section (put in the guest)."""
        s = self.sections.get(name)
        return s.lines[0] if s and s.lines else default


# ---- shell's helpers, the same results -------------------------------------

def brief(text):
    """The start of a file on one line, for a failure message."""
    return text.replace("\n", " ")[:160]


def words(lines):
    w = " ".join(x for x in lines if x != "").strip()
    return w or "none"


def strip_ts(line):
    return re.sub(r"^\[[ 0-9.]*\] ", "", line)


def first(lines, pattern, flags=0):
    for line in lines:
        if re.search(pattern, line, flags):
            return line
    return ""


def num(s):
    """awk's number of a string: its leading number, else 0."""
    m = re.match(r"\s*([-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)", s or "")
    return float(m.group(1)) if m else 0.0


def shint(s):
    """$((s)) of a number printed in decimal or 0x hex; None if neither."""
    try:
        return int(s.strip(), 0)
    except (ValueError, AttributeError):
        return None


def is_int(s):
    return re.fullmatch(r"\s*-?\d+\s*", s or "") is not None


def tdiv(a, b):
    """Shell arithmetic's division (towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def regval(text, off):
    """The value intel_reg printed for OFFSET ("NAME (0x00009138):
    0x00000001"), or ""."""
    pat = re.compile(r"\(0x0*%s\):" % re.escape(off[2:]), re.I)
    for line in text.split("\n"):
        if pat.search(line):
            m = re.match(r".*\): *(0x[0-9a-fA-F]*)", line)
            return m.group(1) if m else ""
    return ""


def rate_of(text):
    """gem_exec_nop's microseconds per batch: its last number line."""
    us = ""
    for line in text.split("\n"):
        if re.match(r"^ *[0-9]+\.[0-9]+ *$", line):
            us = line.replace(" ", "")
    return us


def reader_field(text, name):
    for line in text.split("\n"):
        m = re.match(r"^ *%s: *(.*)" % re.escape(name), line)
        if m:
            return m.group(1)
    return ""


def reader_max(text, name):
    vals = [m.group(1) for m in (re.match(r"^ *%s: *(.*)" % re.escape(name), x)
                                 for x in text.split("\n")) if m]
    if not vals:
        return ""
    best = vals[0]
    for v in vals[1:]:
        if num(v) >= num(best):
            best = v
    return best


def busy_of(text, engine):
    """The largest "busy" of ENGINE in intel_gpu_top -J output (the
    engine's block spans lines), "%.1f"."""
    m, inb = 0.0, False
    for line in text.split("\n"):
        if '"%s"' % engine in line:
            inb = True
        if inb and '"busy"' in line:
            f = line.split(":")
            v = num(re.sub(r"[^0-9.]", "", f[1] if len(f) > 1 else ""))
            m = max(m, v)
            inb = False
    return "%.1f" % m


def irq_read(text):
    """i915's interrupt in /proc/interrupts: (count summed over the CPUs,
    "<IRQ>: <chip, hwirq, type, name>"), ("", "") without one."""
    lines = [x for x in text.split("\n") if x.strip()]
    if not lines:
        return "", ""
    n = len(lines[0].split())
    for line in lines[1:]:
        f = line.split()
        for i in range(n + 1, len(f)):
            if re.match(r"^i915,?$", f[i]):
                s = sum(num(x) for x in f[1:n + 1])
                return "%d" % s, " ".join([f[0]] + f[n + 1:])
    return "", ""


def since(lines, pattern):
    """sed -n '/PATTERN/,$p'."""
    for i, line in enumerate(lines):
        if re.search(pattern, line):
            return lines[i:]
    return []


def grep_context(lines, pattern, before, after):
    """grep -E -B BEFORE -A AFTER PATTERN: lines with "--" between
    groups."""
    keep = set()
    for i, line in enumerate(lines):
        if re.search(pattern, line):
            keep.update(range(max(0, i - before),
                              min(len(lines), i + after + 1)))
    out, last = [], None
    for i in sorted(keep):
        if last is not None and i != last + 1:
            out.append("--")
        out.append(lines[i])
        last = i
    return out


def splat_heads(lines):
    """"<count>x <message> / WARNING: at <file:line> <function>", one per
    kind, sorted."""
    heads, prev = [], ""
    for line in grep_context(lines, HEAD, 1, 0):
        line = strip_ts(line)
        if line == "--" or "cut here" in line:
            prev = ""
        elif re.search(HEAD, line):
            line = re.sub(r"CPU: [0-9]+ PID: [0-9]+ ", "", line, count=1)
            heads.append((prev + " / " if prev else "") + line)
            prev = ""
        else:
            prev = line
    out = []
    for h in sorted(heads):
        if out and out[-1][1] == h:
            out[-1][0] += 1
        else:
            out.append([1, h])
    return ["%dx %s" % (c, h) for c, h in out]


def knobs(log, **default):
    k = dict(default)
    for w in log.value("knobs").split():
        if "=" in w:
            a, b = w.split("=", 1)
            k[a] = b
    return k


# ---- verdicts --------------------------------------------------------------

class Verdicts:
    """Checks in the order they are made; check() of an id already made
    replaces it (the shell's last @@RESULT won)."""

    def __init__(self):
        self.res = {}
        self.files = {}         # name -> text, for --out

    def check(self, cid, st, text):
        self.res[cid] = (st, text)


def pci_got(log):
    if log.get("pci") is None:
        return "absent"
    f = dict(x.split(" ", 1) for x in log.lines("pci") if " " in x)
    return "%s:%s class %s revision %s" % (
        f.get("vendor", ""), f.get("device", ""), f.get("class", ""),
        f.get("revision", ""))


def resource(log, index):
    lines = log.lines("pci-resource")
    if index >= len(lines):
        return None
    w = lines[index].split()
    return (w + ["", "", ""])[:3]


def check_pci_id(v, log, bdf, want, ok):
    """pci-id: the device's IDs are WANT ("0x8086:0x8a52 class 0x030000
    revision 0x07"); OK is the text when they are.  Returns what the guest
    read, "absent" without a device."""
    got = pci_got(log)
    if got == "absent":
        v.check("pci-id", "fail", "no PCI device at %s" % bdf)
    elif got == want:
        v.check("pci-id", "ok", "PCI %s is %s" % (bdf, ok))
    else:
        v.check("pci-id", "fail", "PCI %s is %s, want %s" % (bdf, got, want))
    return got


def bar(log, index):
    """BAR INDEX from the resource file: its start, end and flags as the
    kernel printed them, the start, size and flags as numbers, and the
    "BARn: ..." text of the checks."""
    start, end, flags = resource(log, index) or ("", "", "")
    s, e, f = shint(start) or 0, shint(end) or 0, shint(flags) or 0
    size = e - s + 1 if s else 0
    what = "BAR%d: %d MiB at %s, flags %s" % (index, size >> 20, start, flags)
    return start, end, flags, s, size, f, what


def check_bar(v, log, bdf, cid, index, mib, pref, desc):
    if log.get("pci-resource") is None:
        return v.check(cid, "fail",
                       "BAR%d: no PCI device at %s" % (index, bdf))
    start, end, flags, s, size, f, what = bar(log, index)
    pf = 1 if f & 0x2000 else 0
    if s == 0:
        v.check(cid, "fail", "BAR%d is not assigned (resource line: %s %s %s)"
                % (index, start, end, flags))
    elif size == mib << 20 and f & 0x200 and f & 0x100000 and pf == pref:
        v.check(cid, "ok", "%s (%s)" % (what, desc))
    else:
        v.check(cid, "fail", "%s, want %d MiB of %s" % (what, mib, desc))


def read_checks(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                w = line.split(None, 1)
                out.append((w[0], w[1].strip() if len(w) > 1 else ""))
    return out
