"""A profile's verdicts as TAP, in the order and with the ids of its
checks file, and the files of --out: results.txt, summary.txt and those
the verdicts name."""
import os

from .intel import intel
from .log import Log, Verdicts
from .nv import nv


def judge(profile, log, checks):
    """(Verdicts, summary lines or None)."""
    if profile == "intel":
        return intel(log)
    if profile == "nv":
        return nv(log, checks)
    v = Verdicts()
    for cid, st, text in log.results:
        v.check(cid, st, text)
    return v, None


def tap(profile, text, checks, why):
    """TAP lines, failures, skips, Verdicts, summary."""
    v, summary = judge(profile, Log(text), checks)
    lines = ["1..%d" % len(checks)]
    failed = skipped = 0
    for n, (cid, desc) in enumerate(checks, 1):
        st, t = v.res.get(cid, (None, ""))
        if st == "ok":
            lines.append("ok %d - %s" % (n, t))
        elif st == "skip":
            lines.append("ok %d - %s # SKIP %s" % (n, desc, t))
            skipped += 1
        elif st == "fail":
            lines.append("not ok %d - %s" % (n, t))
            failed += 1
        else:
            lines.append("not ok %d - %s (not reported: %s)" % (n, desc, why))
            failed += 1
    return lines, failed, skipped, v, summary


def write_out(out, v, summary):
    """--out OUT: OUT/results.txt ("@@RESULT <id> ok|fail|skip <text>"),
    the files the verdicts name, OUT/summary.txt when there is one."""
    with open(os.path.join(out, "results.txt"), "w") as f:
        for cid, (st, txt) in v.res.items():
            f.write("@@RESULT %s %s %s\n" % (cid, st, txt))
    for name, body in v.files.items():
        with open(os.path.join(out, name), "w") as f:
            f.write(body)
    if summary is not None:
        with open(os.path.join(out, "summary.txt"), "w") as f:
            f.write("".join(x + "\n" for x in summary))
