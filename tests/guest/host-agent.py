#!/usr/bin/python3
# Host side of the guest tier's data channel: run QEMU, record what the
# guest writes on its second serial port (ttyS1), and answer the guest's
# requests through QMP.  Run by scripts/run-guest.sh with the base system's
# /usr/bin/python3: its standard library and QEMU's own QMP package,
# qemu.qmp (python/qemu/qmp of QEMU's source tree, standard library only),
# which run-guest.sh puts on PYTHONPATH.
#
#   host-agent.py --dir DIR [--sock-dir SDIR] --device-id ID --timeout SECS
#       -- QEMU ARGS...
#
# The agent listens on SDIR/data.sock and SDIR/qmp.sock (SDIR defaults to
# DIR) before it starts QEMU, and QEMU connects to both as a client
# (run-guest.sh passes
#   -chardev socket,id=data,path=SDIR/data.sock
#   -chardev socket,id=qmp,path=SDIR/qmp.sock -mon chardev=qmp,mode=control),
# so nothing the guest writes is lost and nobody polls for a socket.
#
# Requests are lines of the guest, answers lines to it, on ttyS1:
#   @@REQ <seq> inject <class> <instance> <bits>
#       x-intel-gpu-inject-irq on the device ID
#   @@REQ <seq> drill <class> <instance> <count> [<delay-ns>]
#       x-intel-gpu-drill-irq on the device ID
#   @@REQ <seq> ping
#       query-status: the agent is there and QMP works
#   @@REQ <seq> unmodelled
#       the device's unmodelled-mmio-count and x-unmodelled-mmio (qom-get)
#   @@REQ <seq> hang <class> <instance>
#       x-intel-gpu-drill-hang on the device ID
#   @@REQ <seq> record-fault <domain>
#       x-nv-gpu-drill-record-fault on the device ID
#   @@REQ <seq> csb <class> <instance> drop|corrupt
#       x-intel-gpu-drill-csb on the device ID
#   @@REQ <seq> dma <class> <instance> <count>
#       x-intel-gpu-drill-dma on the device ID
#   @@REQ <seq> oa-stall <0|1> [<duration-ns>]
#       x-intel-gpu-drill-oa-tail-stall on the device ID
#   @@REQ <seq> oa-overflow <count>
#       x-intel-gpu-drill-oa-overflow on the device ID
#   @@REQ <seq> cpu
#       QEMU's CPU time (user + system, all its threads, from /proc), the
#       same per thread name ("CPU 0/TCG", ... with -name debug-threads=on),
#       the CPU time of everything else on the host, and the host's
#       monotonic clock, in seconds: what make bench's OA cost divides
#   @@REQ <seq> snapshot
#       HMP savevm then loadvm of one snapshot, "gpumodel" (QEMU needs a
#       qcow2 drive for it: run-guest.sh adds one); the answer is sent once
#       the guest runs again from the loaded state
#   @@ANS <seq> ok <QMP return, as JSON>
#   @@ANS <seq> error <what went wrong>
# Anything else is not a request; only these verbs are accepted, so the
# guest cannot make QEMU do anything else.
#
# Files in DIR: data.log (everything the guest wrote, requests included),
# qmp.log (qemu.qmp's debug log: every QMP exchange and event), qemu.log
# (QEMU's stdout and stderr), agent.log (the agent's own messages).
#
# Exit status: QEMU's (128 + N when a signal N ended it), 124 when the
# timeout expired and QEMU was killed (also when QEMU never connected), 125
# when the agent could not start QEMU.
import argparse
import asyncio
import json
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import time

try:
    from qemu.qmp import QMPError
    from qemu.qmp.legacy import QEMUMonitorProtocol
    from qemu.qmp.qmp_client import ExecuteError
except ImportError as e:
    sys.exit("host-agent: QEMU's qemu.qmp package is not on PYTHONPATH "
             "(python/ of QEMU's source tree): %s" % e)

t_start = time.monotonic()


def stamp():
    return "%9.3f" % (time.monotonic() - t_start)


class Agent:
    def __init__(self, d, sock_dir, device_id, timeout):
        self.dir = d
        self.sock_dir = sock_dir
        self.device_id = device_id
        self.deadline = t_start + timeout
        self.data_log = open(os.path.join(d, "data.log"), "wb")
        self.qmp_log = open(os.path.join(d, "qmp.log"), "w")
        self.agent_log = open(os.path.join(d, "agent.log"), "w")
        self.data = None        # the accepted data connection
        self.qmp = None         # the accepted QMP connection
        self.line_buf = b""
        self.requests = 0
        self.proc = None

    def log(self, msg):
        self.agent_log.write("%s %s\n" % (stamp(), msg))
        self.agent_log.flush()

    def listen(self, name):
        path = os.path.join(self.sock_dir, name)
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)
        s.listen(1)
        return s

    # ---- QMP ----------------------------------------------------------------

    def qmp_open(self, sock):
        """QMP over the accepted socket through qemu.qmp: greeting and
        capabilities negotiation.  Its debug log (every message in and out,
        events included) goes to qmp.log."""
        h = logging.StreamHandler(self.qmp_log)
        h.setFormatter(logging.Formatter(
            "%(relativeCreated)10.0f ms %(message)s"))
        lg = logging.getLogger("qemu.qmp")
        lg.addHandler(h)
        lg.setLevel(logging.DEBUG)
        qmp = QEMUMonitorProtocol(sock, nickname="gpumodel")
        try:
            qmp.settimeout(10.0)
            qmp.connect(negotiate=True)
        except (QMPError, OSError, asyncio.TimeoutError) as e:
            self.log("QMP handshake failed: %r" % e)
            return None
        return qmp

    def qmp_call(self, cmd, args=None, wait=10.0):
        """Run one QMP command: ("ok", return) or ("error", text)."""
        try:
            self.qmp.settimeout(wait)
            r = self.qmp.cmd(cmd, **(args or {}))
        except ExecuteError as e:
            return "error", "%s: %s" % (e.error_class, e)
        except asyncio.TimeoutError:
            return "error", "no QMP answer to %s in %g s" % (cmd, wait)
        except (QMPError, OSError) as e:
            return "error", "QMP failed on %s: %r" % (cmd, e)
        # Events that came meanwhile are in qmp.log; none is waited for.
        self.qmp.clear_events()
        return "ok", r

    # ---- requests -------------------------------------------------------------

    def answer(self, seq, status, text):
        line = "@@ANS %s %s %s\n" % (seq, status, text)
        self.log("answer: " + line.rstrip())
        try:
            self.data.sendall(line.encode())
        except OSError as e:
            self.log("cannot answer the guest: %s" % e)

    def hmp(self, line, wait):
        """One HMP command: ("ok", its output) or ("error", text)."""
        st, r = self.qmp_call("human-monitor-command",
                              {"command-line": line}, wait=wait)
        # HMP reports failures as text, with no QMP error.
        if st == "ok" and r.strip():
            return "error", "%s: %s" % (line, r.strip())
        return st, r

    def snapshot(self):
        t0 = time.monotonic()
        for line in ("savevm gpumodel", "loadvm gpumodel"):
            st, r = self.hmp(line, 300.0)
            if st != "ok":
                # Let the guest run on to report it (a failed loadvm
                # leaves the machine stopped).
                self.qmp_call("cont")
                return st, r
        return "ok", {"seconds": round(time.monotonic() - t0, 1)}

    def cpu(self):
        """QEMU's CPU time, whole and per thread name, the rest of the
        host's, and the host clock."""
        tick = os.sysconf("SC_CLK_TCK")

        def stat(path):
            with open(path) as f:
                s = f.read()
            # comm may hold spaces: the fields start after its ")".
            rest = s[s.rindex(")") + 2:].split()
            return s[s.index("(") + 1:s.rindex(")")], \
                (int(rest[11]) + int(rest[12])) / tick
        base = "/proc/%d" % self.proc.pid
        try:
            _, total = stat(base + "/stat")
            with open("/proc/stat") as f:
                # user nice system idle iowait irq softirq (steal ...: time
                # the host's own hypervisor took, not this host's work)
                t = [int(x) for x in f.readline().split()[1:8]]
            busy = (sum(t) - t[3] - t[4]) / tick
            threads = {}
            for tid in os.listdir(base + "/task"):
                try:
                    name, secs = stat("%s/task/%s/stat" % (base, tid))
                except OSError:
                    continue    # the thread ended meanwhile
                threads[name] = round(threads.get(name, 0) + secs, 2)
        except OSError as e:
            return "error", "cannot read QEMU's CPU time: %s" % e
        return "ok", {"cpu-s": round(total, 2),
                      "other-s": round(busy - total, 2),
                      "wall-s": round(time.monotonic(), 3),
                      "threads": threads}

    def request(self, line):
        words = line.split()
        if len(words) < 3:
            self.log("malformed request: %r" % line)
            return
        seq, verb, args = words[1], words[2], words[3:]
        self.requests += 1
        self.log("request: " + line)
        # The CSB drill's last argument is its action, a word.
        action = None
        if verb == "csb" and args:
            args, action = args[:-1], args[-1]
        try:
            nums = [int(a, 0) for a in args]
        except ValueError:
            return self.answer(seq, "error", "arguments must be numbers: %s" % " ".join(args))
        if self.qmp is None:
            return self.answer(seq, "error", "no QMP connection to QEMU")
        if verb == "ping" and not nums:
            st, r = self.qmp_call("query-status")
        elif verb == "unmodelled" and not nums:
            st, r = self.qmp_call("qom-get", {
                "path": self.device_id, "property": "unmodelled-mmio-count"})
            if st == "ok":
                st2, offsets = self.qmp_call("qom-get", {
                    "path": self.device_id, "property": "x-unmodelled-mmio"})
                # Devices without the offset list (nv-gpu) give the count.
                r = {"count": r, "offsets": offsets if st2 == "ok" else None}
        elif verb == "hang" and len(nums) == 2:
            st, r = self.qmp_call("x-intel-gpu-drill-hang", {
                "id": self.device_id, "engine-class": nums[0],
                "instance": nums[1]})
        elif verb == "record-fault" and len(nums) == 1:
            st, r = self.qmp_call("x-nv-gpu-drill-record-fault", {
                "id": self.device_id, "domain": nums[0]})
        elif verb == "csb" and len(nums) == 2 and action in ("drop", "corrupt"):
            st, r = self.qmp_call("x-intel-gpu-drill-csb", {
                "id": self.device_id, "engine-class": nums[0],
                "instance": nums[1], "action": action})
        elif verb == "dma" and len(nums) == 3:
            st, r = self.qmp_call("x-intel-gpu-drill-dma", {
                "id": self.device_id, "engine-class": nums[0],
                "instance": nums[1], "count": nums[2]})
        elif verb == "oa-stall" and len(nums) in (1, 2):
            a = {"id": self.device_id, "stall": nums[0] != 0}
            if len(nums) == 2:
                a["duration-ns"] = nums[1]
            st, r = self.qmp_call("x-intel-gpu-drill-oa-tail-stall", a)
        elif verb == "oa-overflow" and len(nums) == 1:
            st, r = self.qmp_call("x-intel-gpu-drill-oa-overflow", {
                "id": self.device_id, "count": nums[0]})
        elif verb == "snapshot" and not nums:
            st, r = self.snapshot()
        elif verb == "cpu" and not nums:
            st, r = self.cpu()
        elif verb == "inject" and len(nums) == 3:
            st, r = self.qmp_call("x-intel-gpu-inject-irq", {
                "id": self.device_id, "engine-class": nums[0],
                "instance": nums[1], "bits": nums[2]})
        elif verb == "drill" and len(nums) in (3, 4):
            a = {"id": self.device_id, "engine-class": nums[0],
                 "instance": nums[1], "count": nums[2]}
            if len(nums) == 4:
                a["delay-ns"] = nums[3]
            st, r = self.qmp_call("x-intel-gpu-drill-irq", a)
        else:
            return self.answer(seq, "error", "unknown request: %s" % " ".join(words[2:]))
        self.answer(seq, st, json.dumps(r) if st == "ok" else r)

    def data_in(self, chunk):
        self.data_log.write(chunk)
        self.data_log.flush()
        self.line_buf += chunk
        while b"\n" in self.line_buf:
            raw, self.line_buf = self.line_buf.split(b"\n", 1)
            line = raw.decode(errors="replace").rstrip("\r")
            if line.startswith("@@REQ "):
                self.request(line)

    # ---- the run --------------------------------------------------------------

    def accept(self, lsock, proc, what):
        while True:
            if proc.poll() is not None:
                self.log("QEMU exited (status %s) before connecting to %s" % (proc.returncode, what))
                return None
            left = min(self.deadline - time.monotonic(), 0.5)
            if self.deadline - time.monotonic() <= 0:
                self.log("QEMU did not connect to %s before the timeout" % what)
                return None
            r, _, _ = select.select([lsock], [], [], left)
            if r:
                c, _ = lsock.accept()
                self.log("QEMU connected to %s" % what)
                return c

    def run(self, argv):
        ldata = self.listen("data.sock")
        lqmp = self.listen("qmp.sock")
        qemu_log = open(os.path.join(self.dir, "qemu.log"), "wb")
        self.log("starting: " + " ".join(argv))
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                    stdout=qemu_log, stderr=subprocess.STDOUT)
        except OSError as e:
            self.log("cannot start QEMU: %s" % e)
            qemu_log.write(("cannot start %s: %s\n" % (argv[0], e)).encode())
            return 125
        self.proc = proc
        # QEMU creates its chardevs in command-line order: data, then QMP.
        self.data = self.accept(ldata, proc, "data.sock")
        if self.data is not None:
            self.qmp = self.accept(lqmp, proc, "qmp.sock")
        ldata.close()
        lqmp.close()
        if self.qmp is not None:
            self.qmp = self.qmp_open(self.qmp)
        timed_out = False
        while True:
            if proc.poll() is not None:
                break
            left = self.deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                self.log("timeout: killing QEMU")
                proc.kill()
                proc.wait()
                break
            # QMP is read while a request runs (qemu.qmp's event loop);
            # between requests only the data channel is watched.
            fds = [self.data] if self.data is not None else []
            r, _, _ = select.select(fds, [], [], min(left, 0.5))
            if self.data in r:
                chunk = self.data.recv(65536)
                if chunk:
                    self.data_in(chunk)
                else:
                    self.log("data channel closed")
                    self.data.close()
                    self.data = None
        # What QEMU wrote before it exited is still in the socket.
        if self.data is not None:
            self.data.setblocking(False)
            try:
                while True:
                    chunk = self.data.recv(65536)
                    if not chunk:
                        break
                    self.data_in(chunk)
            except (BlockingIOError, OSError):
                pass
        if self.line_buf:
            self.log("data channel ended inside a line: %r" % self.line_buf[:80])
        rc = proc.returncode
        if timed_out:
            rc = 124
        elif rc < 0:
            rc = 128 - rc
        if self.qmp is not None:
            try:
                self.qmp.close()
            except (QMPError, OSError, asyncio.TimeoutError):
                pass
        self.log("QEMU ended with status %s after %d requests" % (proc.returncode, self.requests))
        for name in ("data.sock", "qmp.sock"):
            try:
                os.unlink(os.path.join(self.sock_dir, name))
            except FileNotFoundError:
                pass
        return rc


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dir", required=True)
    p.add_argument("--sock-dir")
    p.add_argument("--device-id", required=True)
    p.add_argument("--timeout", type=float, required=True)
    p.add_argument("qemu", nargs=argparse.REMAINDER)
    a = p.parse_args()
    argv = a.qemu[1:] if a.qemu and a.qemu[0] == "--" else a.qemu
    if not argv:
        p.error("no QEMU command")
    agent = Agent(a.dir, a.sock_dir or a.dir, a.device_id, a.timeout)

    # Ended from outside (the backstop `timeout` of run-guest.sh, ^C): take
    # QEMU along.
    def stop(sig, _):
        if agent.proc is not None and agent.proc.poll() is None:
            agent.proc.kill()
        agent.log("ended by signal %d" % sig)
        sys.exit(128 + sig)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    sys.exit(agent.run(argv))


if __name__ == "__main__":
    main()
