"""make bench's cost profile (tests/guest/cost-checks.sh): what QEMU's
host CPU time grew by over each piece of fixed guest work."""
import re

from .log import Log


def host_cost(text):
    """[(round, work, cpu-s, wall-s, other-s)] of the log's cost-R-W
    sections, the figures as strings ("?" where an answer is missing)."""
    out = []
    for name, s in Log(text).sections.items():
        m = re.match(r"^cost-(\d+)-(\S+)$", name)
        if m:
            out.append((m.group(1), m.group(2), s.cpu_spent("cpu-s")[0],
                        s.cpu_spent("wall-s")[0], s.cpu_spent("other-s")[0]))
    return out
