"""make bench's OA cost runs (GPUMODEL_BENCH=1) as the lines
tests/guest/oa-cost.awk reads."""
import re

from .log import Log


def oa_cost(text):
    log = Log(text)
    out = []
    cfg = dict(w.split("=", 1) for w in log.value("oa-cost").split()
               if "=" in w)
    cpu_st = ""
    for name, s in log.sections.items():
        m = re.match(r"^oa-cost-(\d+)-(none|slow|fast)-(idle|cpu|nop)$", name)
        if not m:
            continue
        cpu, st = s.cpu_spent("cpu-s")
        cpu_st = cpu_st or st
        work = m.group(3)
        probe = "-"
        for line in s.lines:
            if work == "cpu":
                p = re.match(r"^syscalls ok: ([0-9]*) getppid/s$", line)
            elif work == "nop":
                p = re.match(r"^nop ok: .* in ([0-9.]*) s$", line)
            else:
                p = None
            if p:
                probe = p.group(1)
        if work != "idle" and probe == "-":
            probe = "?"
        out.append("%s %s %s %s %s %s %s" % (
            m.group(1), m.group(2), work, probe, cpu,
            s.cpu_spent("wall-s")[0], s.cpu_spent("other-s")[0]))

    def exp(name):
        m = re.search(r"oa_exponent=([0-9]*)", log.text(name))
        return m.group(1) if m else "?"
    out.append("# e=%s e1=%s n=%s b=%s cpu=%s" % (
        exp("oa-cost-fast-recorder"), exp("oa-cost-slow-recorder"),
        cfg.get("rounds", "?"), cfg.get("batches", "?"), cpu_st or "?"))
    return out
