#!/usr/bin/python3
"""Tests of igt_tier.py (the IGT tier's order and verdicts), in TAP.

The results are shaped as igt_results writes them (results.json: "tests"
keyed igt@binary[@subtest[@dynamic]], each with "result", "out", "err",
"dmesg"; "time_elapsed").
"""
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import types
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import igt_tier  # noqa: E402
import full_list  # noqa: E402

LIST = """# a comment
igt@i915_module_load@load
igt@gem_basic@bad-close
igt@gem_busy@busy@all-engines
igt@gem_exec_fence@basic-busy
igt@gem_tiled_pread_basic
igt@gem_render_linear_blits@basic

# @last
igt@i915_module_load@reload
"""


def run_result(tests, secs=10.0):
    return {"__type__": "TestrunResult", "tests": tests,
            "time_elapsed": {"start": 100.0, "end": 100.0 + secs}}


def t(result, out=""):
    return {"result": result, "out": out, "err": "", "dmesg": ""}


class Case:
    def __init__(self):
        self.dir = tempfile.mkdtemp()
        self.list = self.write("igt.list", LIST)
        self.write("xf-fails.txt", "# needs the 3D pipeline\n"
                   "gem_render_linear_blits@basic,Fail\n")
        self.xfails = os.path.join(self.dir, "xf")
        self.junit = None
        self.test_timeout = 0
        self.times = []
        self.ignore = self.write("ignore.txt", "# why\n^hrtimer: interrupt "
                                 "took [0-9]+ ns$\n")

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def results(self, name, tests):
        return self.write(name, json.dumps(run_result(tests)))

    def line(self, tests, needle):
        """The exit status and the TAP line naming @needle, for @tests."""
        rc, out = self.summary(self.results("r.json", tests))
        return rc, [x for x in out if needle in x][0]

    def summary(self, *results):
        return self.summary_drill(None, *results)

    def summary_drill(self, drill, *results):
        args = types.SimpleNamespace(list=self.list, xfails=self.xfails,
                                     dmesg_ignore=self.ignore, tap=True,
                                     results=list(results), drill=drill,
                                     junit=self.junit,
                                     test_timeout=self.test_timeout,
                                     times=self.times,
                                     guest=getattr(self, "guest", None))
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rc = igt_tier.summary(args)
        return rc, buf.getvalue().splitlines()


ALL_GOOD = {
    "igt@i915_module_load@load": t("pass"),
    "igt@gem_basic@bad-close": t("pass"),
    "igt@gem_busy@busy@all-engines": t("pass"),
    # An entry naming a subtest whose results are per dynamic subtest.
    "igt@gem_exec_fence@basic-busy@rcs0": t("pass"),
    "igt@gem_exec_fence@basic-busy@bcs0": t("skip"),
    "igt@gem_tiled_pread_basic": t("skip", "Test requirement not met in "
                                   "function main\nTest requirement: "
                                   "gem_available_fences(fd) > 0\n"),
    "igt@gem_render_linear_blits@basic": t("fail"),
    "igt@i915_module_load@reload": t("pass"),
}


def test_order_keeps_first_and_last():
    c = Case()
    for how in ("listed", "reversed", "shuffle"):
        got = igt_tier.order([c.list], how, 7)
        assert got[0] == "igt@i915_module_load@load", (how, got)
        assert got[-1] == "igt@i915_module_load@reload", (how, got)
        assert sorted(got) == sorted(igt_tier.order([c.list], "listed", 0))
    rev = igt_tier.order([c.list], "reversed", 0)
    assert rev[1] == "igt@gem_render_linear_blits@basic", rev


def test_order_shuffle_follows_seed():
    c = Case()
    a = igt_tier.order([c.list], "shuffle", 1234)
    b = igt_tier.order([c.list], "shuffle", 1234)
    assert a == b
    seen = {tuple(igt_tier.order([c.list], "shuffle", s)) for s in range(20)}
    assert len(seen) > 1, "every seed gave the same order"


def test_order_several_lists():
    c = Case()
    other = c.write("other.testlist", "igt@perf@mi-rpc\nigt@perf@blocking\n")
    got = igt_tier.order([c.list, other], "listed", 0)
    assert got[0] == "igt@i915_module_load@load"
    assert got[-1] == "igt@i915_module_load@reload"
    assert got.index("igt@perf@mi-rpc") < got.index(
        "igt@i915_module_load@reload")


def test_all_good_passes():
    c = Case()
    rc, out = c.summary(c.results("r.json", ALL_GOOD))
    assert rc == 0, out
    assert out[0] == "1..7", out
    assert not [line for line in out if line.startswith("not ok")], out
    skip = [line for line in out if "gem_tiled_pread_basic" in line][0]
    assert "# SKIP Test requirement: gem_available_fences" in skip, skip
    xf = [line for line in out if "render_linear" in line][0]
    assert xf.startswith("ok ") and "# SKIP expected failure " \
        "(xf-fails.txt:2: needs the 3D pipeline): fail" in xf, xf
    # A subtest whose dynamic subtests pass or skip passes.
    fence = [line for line in out if "basic-busy" in line][0]
    assert fence.startswith("ok ") and "SKIP" not in fence, fence


def test_failures_fail():
    for bad in ("fail", "timeout", "dmesg-warn", "crash", "abort",
                "incomplete"):
        c = Case()
        tests = dict(ALL_GOOD)
        tests["igt@gem_exec_fence@basic-busy@bcs0"] = t(bad)
        rc, out = c.summary(c.results("r.json", tests))
        assert rc == 1, (bad, out)
        line = [x for x in out if "basic-busy" in x][0]
        assert line.startswith("not ok") and bad in line, (bad, line)


def test_names_in_lower_case():
    """igt_results lower-cases the names; the lists keep IGT's."""
    c = Case()
    c.list = c.write("igt.list", "igt@gem_mmap_gtt@basic-small-bo-tiledX\n"
                     "igt@gem_mmap_gtt@medium-copy-XY\n")
    rc, out = c.summary(c.results("r.json", {
        "igt@gem_mmap_gtt@basic-small-bo-tiledx": t("pass"),
        "igt@gem_mmap_gtt@medium-copy-xy": t("fail")}))
    assert rc == 1, out
    assert out[1] == "ok 1 - igt@gem_mmap_gtt@basic-small-bo-tiledX", out
    assert out[2].startswith("not ok 2 - igt@gem_mmap_gtt@medium-copy-XY: "
                             "fail"), out


def test_missing_result_fails():
    c = Case()
    tests = dict(ALL_GOOD)
    del tests["igt@gem_basic@bad-close"]
    rc, line = c.line(tests, "bad-close")
    assert rc == 1 and line.startswith("not ok") and "no result" in line, line


def test_stopped_guest_names_where():
    """A guest that died: the entry its runner had started last is named
    with the reason, the rest of its half with where it stopped."""
    c = Case()
    logs = os.path.join(c.dir, "shard-2")
    os.mkdir(logs)
    half = c.write("half.list", "igt@i915_module_load@load\n"
                   "igt@gem_basic@bad-close\n"
                   "igt@gem_busy@busy@all-engines\n")
    c.write("shard-2/stopped.txt", "guest kernel panicked: kernel BUG at "
            "lib/list_debug.c:30!; see console.log\n")
    c.write("shard-2/igt-runner-1.txt",
            "[3.4] [1/3] i915_module_load (load)\n"
            "[5.9] [2/3] gem_basic (bad-close)\n")
    c.guest = [(c.list, os.path.join(c.dir, "nowhere")), (half, logs)]
    tests = {k: v for k, v in ALL_GOOD.items()
             if "bad-close" not in k and "gem_busy" not in k
             and "gem_exec_fence" not in k}
    rc, out = c.summary(c.results("a.json", tests),
                        c.results("b.json", tests))
    assert rc == 1, out
    assert out[2].startswith(
        "not ok 2 - igt@gem_basic@bad-close (pass 1): no result: guest 2 "
        "stopped while it ran: guest kernel panicked: kernel BUG at "), out
    assert out[3] == "not ok 3 - igt@gem_busy@busy@all-engines (pass 1): " \
        "no result: guest 2 stopped in igt@gem_basic@bad-close: guest " \
        "kernel panicked: kernel BUG at lib/list_debug.c:30!; see " \
        "console.log", out
    assert "stopped in igt@gem_basic@bad-close (pass 1): " in out[10], out
    # Guest 1 left no stopped.txt: its missing entries keep the old text.
    assert out[4].endswith("no result: the runner stopped before it"), out


def test_expected_failure_that_passes_fails():
    c = Case()
    tests = dict(ALL_GOOD)
    tests["igt@gem_render_linear_blits@basic"] = t("pass")
    rc, line = c.line(tests, "render_linear")
    assert rc == 1, line
    assert line.startswith("not ok") and "unexpected pass: pass, but " \
        "xf-fails.txt:2 lists it as Fail (needs the 3D pipeline)" in line, line
    # Skipping is no failure either: the line must go all the same.
    tests["igt@gem_render_linear_blits@basic"] = t("skip")
    rc, line = c.line(tests, "render_linear")
    assert rc == 1 and "unexpected pass: skip" in line, line


def test_passes_are_counted_apart():
    c = Case()
    tests = dict(ALL_GOOD)
    tests["igt@gem_basic@bad-close"] = t("timeout")
    rc, out = c.summary(c.results("a.json", ALL_GOOD),
                        c.results("b.json", tests),
                        os.path.join(c.dir, "missing.json"))
    assert rc == 1
    assert out[0] == "1..21", out
    bad = [x for x in out if x.startswith("not ok")]
    assert any("(pass 2)" in x and "timeout" in x for x in bad), bad
    assert sum("(pass 3)" in x for x in bad) == 7, bad
    sums = [x for x in out if x.startswith("# IGT pass")]
    assert len(sums) == 3, out
    assert "1 timeout" in sums[1], sums


HRTIMER = "<4> [65.359439] hrtimer: interrupt took 9947760 ns\n"
I915_WARN = "<4> [66.1] i915 0000:00:02.0: [drm] *ERROR* GT0: bad\n"


def test_dmesg_ignore():
    c = Case()
    tests = dict(ALL_GOOD)
    tests["igt@gem_basic@bad-close"] = dict(
        t("dmesg-warn"), dmesg="<6> [65.0] [IGT] x\n" + HRTIMER)
    rc, out = c.summary(c.results("r.json", tests))
    assert rc == 0, out
    line = [x for x in out if "bad-close" in x][0]
    assert line.startswith("ok ") and "hrtimer" in line, line
    # Any other warning keeps the verdict.
    tests["igt@gem_basic@bad-close"] = dict(
        t("dmesg-warn"), dmesg=HRTIMER + I915_WARN)
    rc, out = c.summary(c.results("r.json", tests))
    assert rc == 1, out
    # dmesg-fail from an ignored warning is the test's own failure.
    tests["igt@gem_basic@bad-close"] = dict(t("dmesg-fail"), dmesg=HRTIMER)
    rc, out = c.summary(c.results("r.json", tests))
    line = [x for x in out if "bad-close" in x][0]
    assert rc == 1 and line.startswith("not ok") and ": fail" in line, line


def test_listed_failure_of_another_kind_fails():
    c = Case()
    tests = dict(ALL_GOOD)
    tests["igt@gem_render_linear_blits@basic"] = t("timeout")
    rc, line = c.line(tests, "render_linear")
    assert rc == 1 and line.startswith("not ok") and \
        "timeout" in line and "lists it as Fail" in line, line
    c.write("xf-fails.txt", "# too slow here\n"
            "gem_render_linear_blits@basic,Timeout\n")
    rc, line = c.line(tests, "render_linear")
    assert rc == 0 and "# SKIP expected failure" in line, line


def test_flakes_never_fail():
    c = Case()
    c.write("xf-flakes.txt", "# a race of the test's own\n^gem_basic@\n")
    tests = dict(ALL_GOOD)
    for r in ("fail", "timeout", "crash"):
        tests["igt@gem_basic@bad-close"] = t(r)
        rc, line = c.line(tests, "bad-close")
        assert rc == 0 and "# SKIP known flake (xf-flakes.txt:2: a race " \
            "of the test's own): " + r in line, line
    del tests["igt@gem_basic@bad-close"]
    rc, line = c.line(tests, "bad-close")
    assert rc == 0 and line.endswith("no result"), line
    tests["igt@gem_basic@bad-close"] = t("pass")
    rc, line = c.line(tests, "bad-close")
    assert rc == 0 and line == "ok 2 - igt@gem_basic@bad-close", line


def test_skips_are_not_run():
    c = Case()
    c.write("xf-skips.txt", "# hangs the machine\ngem_busy\n\n"
            "# too long\ngem_exec_fence@basic-b.*\n")
    tests = {k: v for k, v in ALL_GOOD.items()
             if "gem_busy" not in k and "basic-busy" not in k}
    rc, out = c.summary(c.results("r.json", tests))
    assert rc == 0, out
    busy = [x for x in out if "gem_busy" in x][0]
    assert busy == "ok 3 - igt@gem_busy@busy@all-engines # SKIP not run " \
        "(xf-skips.txt:2: hangs the machine)", busy
    assert "2 left out as skips" in out[-1], out
    got = igt_tier.order([c.list], "listed", 0)
    xf = igt_tier.Xfails(c.xfails)
    kept = [e for e in got if not xf.skipped(e)]
    assert len(kept) == len(got) - 2 and "igt@gem_busy@busy@all-engines" \
        not in kept, kept


def test_xfails_need_a_reason():
    c = Case()
    for text in ("gem_basic@bad-close,Fail\n",
                 "# why\n\ngem_basic@bad-close,Fail\n",
                 "# why\ngem_basic@bad-close,Skip\n",
                 "# why\ngem_basic@bad-close\n"):
        c.write("xf-fails.txt", text)
        try:
            igt_tier.Xfails(c.xfails)
        except ValueError as e:
            assert "xf-fails.txt" in str(e), e
        else:
            raise AssertionError("accepted %r" % text)
    c.write("xf-fails.txt", "# why\n# and more\na@b,Crash\nc@d,Fail\n")
    xf = igt_tier.Xfails(c.xfails)
    assert xf.fail("igt@a@b") == ("Crash", "why and more", "xf-fails.txt:3")
    assert xf.fail("igt@c@d")[1] == "why and more"


def test_ci_shard_is_seds_split():
    """drm-ci's split, sed -n K~Np of drivers/gpu/drm/ci/igt_runner.sh."""
    entries = ["igt@t@%d" % i for i in range(1, 12)]
    text = "".join(e + "\n" for e in entries)
    for n in (1, 2, 3, 4, 11, 13):
        seen = []
        for k in range(1, n + 1):
            got = igt_tier.ci_shard(entries, (k, n))
            sed = subprocess.run(["sed", "-n", "%d~%dp" % (k, n)],
                                 input=text, capture_output=True,
                                 text=True, check=True).stdout.split()
            assert got == sed, (k, n, got, sed)
            seen += got
        assert sorted(seen) == sorted(entries), (n, seen)


def make_shards(c, total, tests, skip=()):
    """Shard directories K-of-N as scripts/run-igt.sh --shard writes them,
    each with its part of @tests' results."""
    whole = igt_tier.order([c.list], "listed", 0)
    dirs = []
    for k in range(1, total + 1):
        d = os.path.join(c.dir, "shards", "%d-of-%d" % (k, total))
        os.makedirs(os.path.join(d, "pass-1"))
        dirs.append(d)
        if k in skip:
            continue
        part = igt_tier.ci_shard(whole, (k, total))
        c.write(d + "/run.list", "".join(e + "\n" for e in whole))
        c.write(d + "/igt.list", "".join(e + "\n" for e in part))
        mine = {n: v for n, v in tests.items()
                if any(n == e.lower() or n.startswith(e.lower() + "@")
                       for e in part)}
        c.write(d + "/pass-1/results.json", json.dumps(run_result(mine)))
    return dirs


def run_report(c, dirs):
    args = types.SimpleNamespace(out=os.path.join(c.dir, "report"),
                                 xfails=c.xfails, dmesg_ignore=c.ignore,
                                 test_timeout=0, drill=None, shards=dirs)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = igt_tier.report(args)
    with open(os.path.join(args.out, "tap.txt")) as f:
        return rc, f.read().splitlines(), args.out


def verdicts(tap):
    """{name: (ok, directive)} of TAP lines, their numbers left out."""
    out = {}
    for line in tap:
        m = igt_tier.TAP_LINE.match(line)
        if m:
            name = m.group(2).split(": ")[0]
            out[name] = (not m.group(1), m.group(3))
    return out


def test_report_merges_shards_as_one_run():
    c = Case()
    tests = dict(ALL_GOOD)
    tests["igt@gem_basic@bad-close"] = t("crash")
    rc, out, rdir = run_report(c, make_shards(c, 3, tests))
    rc1, whole = c.summary(c.results("r.json", tests))
    assert rc == rc1 == 1, out
    assert verdicts(out) == verdicts(whole), (out, whole)
    assert out == whole, (out, whole)
    tree = ET.parse(os.path.join(rdir, "junit.xml")).getroot()[0]
    assert tree.get("tests") == "7" and tree.get("failures") == "1" and \
        tree.get("skipped") == "2", ET.tostring(tree)
    bad = [x for x in tree if x.find("failure") is not None]
    assert bad[0].get("name") == "gem_basic@bad-close" and \
        bad[0].get("classname") == "igt.gem_basic", ET.tostring(bad[0])
    with open(os.path.join(rdir, "failures.csv")) as f:
        assert f.read() == "gem_basic@bad-close,Crash\n" \
            "gem_render_linear_blits@basic,Fail\n"


def test_compare_sharded_with_whole():
    c = Case()
    tests = dict(ALL_GOOD)
    tests["igt@gem_basic@bad-close"] = t("fail")
    rc, out, rdir = run_report(c, make_shards(c, 3, tests))
    c.junit = os.path.join(c.dir, "whole.xml")
    c.summary(c.results("r.json", tests))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        same = igt_tier.compare(os.path.join(rdir, "junit.xml"), c.junit)
    assert same == 0 and buf.getvalue().startswith(
        "same: 7 test case(s) (1 fail, 4 pass, 2 skip) against 7"), \
        buf.getvalue()
    tests["igt@gem_basic@bad-close"] = t("pass")
    c.summary(c.results("r.json", tests))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        same = igt_tier.compare(os.path.join(rdir, "junit.xml"), c.junit)
    assert same == 1 and "gem_basic@bad-close: ('fail', '') | ('pass', " \
        "'')" in buf.getvalue(), buf.getvalue()


def test_report_lists_an_unexpected_pass():
    c = Case()
    tests = dict(ALL_GOOD)
    tests["igt@gem_render_linear_blits@basic"] = t("pass")
    rc, out, rdir = run_report(c, make_shards(c, 2, tests))
    assert rc == 1, out
    with open(os.path.join(rdir, "failures.csv")) as f:
        assert f.read() == "gem_render_linear_blits@basic,UnexpectedPass\n"


def test_report_names_a_missing_shard():
    c = Case()
    dirs = make_shards(c, 3, ALL_GOOD, skip=(2,))
    rc, out, rdir = run_report(c, dirs[:1] + dirs[2:])
    assert rc == 1, out
    lost = [x for x in out if x.startswith("not ok")]
    # Entries 2 and 5 of the run's order went to shard 2.
    assert len(lost) == 2 and all("shard 2 of 3 left no results" in x
                                  for x in lost), lost
    with open(os.path.join(rdir, "summary.txt")) as f:
        assert f.readline() == "2 shard(s) of 3 merged, shards 2 missing\n"


RUNNER_LOG = """[3.48] [1/4] i915_module_load (load)
[5.90] [2/4] gem_basic (bad-close)
Dmesg: unrelated
[16.00] [3/4] gem_busy (busy)
[77.00] [4/4] gem_tiled_pread_basic
Done.
[80.50] done
"""


def test_margin_against_the_timeout():
    c = Case()
    entries = ["igt@i915_module_load@load", "igt@gem_basic@bad-close",
               "igt@gem_busy@busy@all-engines", "igt@gem_tiled_pread_basic"]
    times = igt_tier.entry_times(entries, c.write("r.txt", RUNNER_LOG))
    assert [(round(s, 2), n) for s, n in times] == [
        (61.0, "igt@gem_busy@busy@all-engines"),
        (10.1, "igt@gem_basic@bad-close"),
        (3.5, "igt@gem_tiled_pread_basic"),
        (2.42, "igt@i915_module_load@load")], times
    c.test_timeout = 120
    c.times = [c.write("t.txt", "".join("%7.1f %s\n" % t for t in times))]
    rc, out = c.summary(c.results("r.json", ALL_GOOD))
    line = [x for x in out if "per-test timeout" in x][0]
    assert rc == 1 and line.startswith("not ok") and "61.0 s" in line \
        and "gem_busy@busy@all-engines" in line, line
    c.test_timeout = 180
    rc, out = c.summary(c.results("r.json", ALL_GOOD))
    line = [x for x in out if "per-test timeout" in x][0]
    assert rc == 0 and line.startswith("ok ") and "longest 61.0 s" in line, \
        line
    # No times: the margin is unknown, which fails.
    c.times = []
    rc, out = c.summary(c.results("r.json", ALL_GOOD))
    assert rc == 1, out
    # Without a timeout, no such line.
    c.test_timeout = 0
    rc, out = c.summary(c.results("r.json", ALL_GOOD))
    assert rc == 0 and not [x for x in out if "per-test timeout" in x], out


def test_shards_split_the_middle():
    c = Case()
    whole = igt_tier.order([c.list], "listed", 0)
    shards = [igt_tier.order([c.list], "listed", 0, (k, 2)) for k in (1, 2)]
    for s in shards:
        assert s[0] == "igt@i915_module_load@load", s
        assert s[-1] == "igt@i915_module_load@reload", s
    middle = sorted(shards[0][1:-1] + shards[1][1:-1])
    assert middle == sorted(whole[1:-1]), (middle, whole)
    assert abs(len(shards[0]) - len(shards[1])) <= 1, shards


def test_merge_keeps_the_worse():
    c = Case()
    a = {"igt@i915_module_load@load": t("pass"),
         "igt@gem_basic@bad-close": t("pass")}
    b = {"igt@i915_module_load@load": t("fail"),
         "igt@gem_busy@busy@all-engines": t("pass")}
    out = os.path.join(c.dir, "m.json")
    igt_tier.merge(out, [c.results("a.json", a), c.results("b.json", b)])
    run, err = igt_tier.load(out)
    assert err is None
    assert run["tests"]["igt@i915_module_load@load"]["result"] == "fail"
    assert set(run["tests"]) == set(a) | set(b), run["tests"]
    assert run["time_elapsed"]["start"] == 100.0, run


DRILL_LIST = "igt@gem_exec_store@basic\nigt@gem_sync@basic-each\n"
RESET = ("<5> [101.5] i915 0000:00:02.0: [drm] Resetting rcs0 for stopped "
         "heartbeat on rcs0\n")


def test_drill():
    c = Case()
    dl = c.write("drill.testlist", DRILL_LIST)
    good = {"igt@gem_exec_store@basic": dict(t("fail"), dmesg=RESET),
            "igt@gem_sync@basic-each": t("pass")}
    rc, out = c.summary_drill([dl, c.results("d.json", good)],
                              c.results("r.json", ALL_GOOD))
    assert rc == 0, out
    assert out[0] == "1..9", out
    assert out[9].startswith("ok 9 - drill: igt@gem_sync"), out
    assert "stopped heartbeat" in out[8], out
    # No reset: the engine stays frozen as far as i915 knows.
    quiet = dict(good)
    quiet["igt@gem_exec_store@basic"] = t("fail")
    rc, out = c.summary_drill([dl, c.results("q.json", quiet)],
                              c.results("r.json", ALL_GOOD))
    assert rc == 1 and out[8].startswith("not ok 8 - drill"), out
    # The next test must pass.
    late = dict(good)
    late["igt@gem_sync@basic-each"] = t("timeout")
    rc, out = c.summary_drill([dl, c.results("l.json", late)],
                              c.results("r.json", ALL_GOOD))
    assert rc == 1 and out[9].startswith("not ok 9"), out
    # The GT's reset, when IGT's hang detector allows only that.
    chip = dict(good)
    chip["igt@gem_exec_store@basic"] = dict(t("fail"), dmesg=(
        "<5> [1.0] i915 0000:00:02.0: [drm] Resetting chip for stopped "
        "heartbeat on rcs0\n"))
    rc, out = c.summary_drill([dl, c.results("c.json", chip)],
                              c.results("r.json", ALL_GOOD))
    assert rc == 0 and "Resetting chip" in out[8], out
    rc, out = c.summary_drill([dl, os.path.join(c.dir, "none.json")],
                              c.results("r.json", ALL_GOOD))
    assert rc == 1 and "no result" in out[9], out


def test_full_list_from_the_programs():
    """full_list.py: each program's subtests (one entry for a program
    without any), less IGT's blacklist (searched in the whole name) and
    the exclusions (searched in the name without igt@), counted."""
    with tempfile.TemporaryDirectory() as d:
        tests = os.path.join(d, "usr/libexec/igt-gpu-tools")
        share = os.path.join(d, "usr/share/igt-gpu-tools")
        os.makedirs(tests)
        os.makedirs(share)
        progs = {"gem_a": "basic\nhang-x\nslow", "gem_b": "",
                 "kms_c": "flip", "gem_d": "noreloc-S3\nrun"}
        for name, subs in progs.items():
            with open(os.path.join(tests, name), "w") as f:
                f.write("#!/bin/sh\n[ \"$1\" = --list-subtests ] && "
                        "printf '%s' '" + subs + "'\n")
            os.chmod(os.path.join(tests, name), 0o755)
        with open(os.path.join(tests, "test-list.txt"), "w") as f:
            f.write("TESTLIST\n")
        with open(os.path.join(share, "blacklist.txt"), "w") as f:
            f.write("igt@gem_a@hang.*  # hangs\n")
        exclude = os.path.join(d, "exclude.txt")
        with open(exclude, "w") as f:
            f.write("# Display: none.\n^kms_\n\n# Suspend\n(?i)-s3\\b\n"
                    "^gem_a@slow$\n")
        out = os.path.join(d, "full.testlist")
        argv = sys.argv
        sys.argv = ["full_list.py", "--stage", d, "--exclude", exclude,
                    "--out", out]
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                full_list.main()
        finally:
            sys.argv = argv
        entries, _ = igt_tier.read_list(out)
        assert entries == ["igt@gem_a@basic", "igt@gem_b", "igt@gem_d@run"], \
            entries
        text = open(out).read()
        assert "3 entries of 3 programs" in text, text
        assert "      1  Display\n" in text, text
        assert "      2  Suspend\n" in text, text
        assert "      1  IGT's blacklist.txt" in text, text


def test_run_igt_dry_run_splits_as_drm_ci():
    """run-igt.sh --dry-run --shard K/N: each part's guest list is drm-ci's
    split of the run's order, and the parts together are the list once."""
    top = os.path.dirname(os.path.dirname(HERE))
    smoke = os.path.join(HERE, "ci-smoke.testlist")
    whole = igt_tier.order([smoke], "listed", 0)
    seen = []
    for k in (1, 2, 3):
        out = subprocess.run(
            ["sh", os.path.join(top, "scripts/run-igt.sh"), "--dry-run",
             "--list", "ci-smoke", "--shard", "%d/3" % k],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            check=True).stdout.split("\n")
        part = [x for x in out if x.startswith("igt@")]
        assert out[0] == "# guest 1", out
        assert part == igt_tier.ci_shard(whole, (k, 3)), (k, part)
        seen += part
    assert sorted(seen) == sorted(whole), seen


def main():
    tests = [(n, f) for n, f in sorted(globals().items())
             if n.startswith("test_") and callable(f)]
    print("1..%d" % len(tests))
    failed = 0
    for i, (name, fn) in enumerate(tests, 1):
        try:
            fn()
            print("ok %d - %s" % (i, name))
        except Exception as e:      # noqa: BLE001 - report, go on
            failed += 1
            print("not ok %d - %s: %r" % (i, name, e))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
