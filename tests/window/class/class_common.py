"""Shared by the class server's window tests: the real app under Xvfb, the
"class server:" line it prints, its --frames JSON summary, and small HTTP
calls on 127.0.0.1 (docs/class_server.md)."""
import http.client
import json
import os
import re
import signal
import subprocess
import threading
import time

LINE = re.compile(r"^class server: (http://([0-9.]+):(\d+)/) code ([A-Z0-9]{4,6})$")


class App:
    """cudaviz ARGS in a display of its own; stdout read as it comes."""

    def __init__(self, xvfb, app, args, screen="-screen 0 1280x800x24"):
        self.cmd = [xvfb, "-s", screen, app] + args
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.out, self.err = [], []
        self.url = self.code = None
        self.port = 0
        self.ready = threading.Event()
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self):
        for line in self.proc.stdout:
            self.out.append(line)
            m = LINE.match(line.strip())
            if m:
                self.url, self.port, self.code = m.group(1), int(m.group(3)), m.group(4)
                self.ready.set()

    def _read_err(self):
        for line in self.proc.stderr:
            self.err.append(line)

    def wait_server(self, timeout):
        self.ready.wait(timeout)
        return self.ready.is_set()

    def stop(self):
        """Ends the app (and its display) now. SIGTERM to the wrapper alone would
        wait for the app: bash runs its trap only once its child has exited."""
        for pid in children(self.proc.pid):
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass

    def close(self):
        """Asks the app (not its display) to close, as Ctrl+C in its terminal does
        (process/stop_signal.h): it ends its run and prints its summary."""
        # With DISPLAY set, with_xvfb.sh execs the app: the process itself.
        for pid in [self.proc.pid] + children(self.proc.pid):
            try:
                with open(f"/proc/{pid}/comm") as f:
                    if f.read().strip() == "cudaviz":
                        os.kill(pid, signal.SIGTERM)
            except OSError:
                pass

    def finish(self, timeout):
        """Exit code and the JSON summary (None when there is none)."""
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            # The app closes on SIGTERM with exit 0 and its summary: a run that had
            # to be stopped still fails.
            rc = 124
        time.sleep(0.2)  # the readers catch the last lines
        summary = None
        for line in reversed(self.out):
            if line.startswith("{"):
                summary = json.loads(line)
                break
        return rc, summary

    def stderr_tail(self, n=20):
        return "".join(self.err[-n:])


def children(pid):
    """The process ids whose parent is `pid` (from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so split after its ')'.
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            out.append(int(entry))
    return out


def phone_address(i):
    """A loopback address of its own for simulated phone i (127.0.1.1 on): the
    server caps connections and joins per address, as phones on Wi-Fi each have one."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


def request(port, method, path, body=None, token=None, timeout=5, source=None):
    """(status, parsed JSON or {}); status 0 when the connection failed.
    `source`: the client's own loopback address (phone_address)."""
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                       source_address=(source, 0) if source else None)
        headers = {}
        data = None
        if token:
            headers["X-Class-Token"] = token
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        c.request(method, path, body=data, headers=headers)
        r = c.getresponse()
        raw = r.read()
        c.close()
        try:
            return r.status, json.loads(raw)
        except ValueError:
            return r.status, {}
    except OSError:
        return 0, {}


def wait_for_question(port, code, kind, timeout):
    """Joins once and waits until the teacher's step asks a `kind` question; its round."""
    status, j = request(port, "POST", "/api/join", {"code": code})
    if status != 200:
        return None
    token = j["token"]
    end = time.time() + timeout
    while time.time() < end:
        status, s = request(port, "GET", "/api/step", token=token)
        if status == 200 and s.get("kind") == kind and s.get("open"):
            return s["round"]
        time.sleep(0.2)
    return None


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, len(xs) * p // 100)] if xs else float("nan")
