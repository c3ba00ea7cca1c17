"""The simulate --db load scripts/nemesis keeps on a topology whose ledger is a server: run after
run, one held across each move."""
import json
import os
import pty
import re
import signal
import subprocess
import threading
import time

from nemesis_loads import RETRYABLE_EXITS, Load


class SimulateLoad(Load):
    """`idemlab simulate --db`, run after run, each in a scratch schema or database of its own
    on the topology. Before each move the run under way is stopped (SIGSTOP) once its progress
    line (on a terminal of its own; a hundredth of the run at a time) says it has finished some
    requests and not all: connected and mid-run, certainly. The move is made under it, and the run continued
    once the move returned: its connections are then on a server that is gone. Every run must
    exit 0 with each request moved exactly once; each held one must say it lost links and
    connected again through the topology. A run loses nothing when no request moved twice, none
    was told it succeeded and never moved, none is stuck, and the audit is clean (a simulated
    client may still give up on a request the servers kept refusing, as on Galera's
    certification: that is its retry policy's word, counted in the summary). It answers again
    when its progress line moves on after a move."""

    REQUESTS = 3000

    def __init__(self, idemlab, args):
        super().__init__("simulate --db", "runs")
        self.command = [idemlab, "simulate", *args, "--requests", str(self.REQUESTS), "--json"]
        self.process = None
        self.progress = 0  # the latest "done" its progress line gave
        self.said = ""  # the tail of what the run under way wrote to its terminal
        self.held_runs = set()  # the runs held across a move (one may be held for several)
        self.held = None  # the process held now
        self.rode = 0  # held runs that came through it as they must
        self.gave_up = 0  # requests its simulated clients gave up on (busy every time)
        self.run_number = 0

    def start(self):
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while not self.stopping.is_set():
            primary, replica = pty.openpty()  # progress is printed to a terminal only
            with self.lock:
                self.run_number += 1
                self.sent += 1
                number = self.run_number
                self.progress = 0
                self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE,
                                                stderr=replica, text=True)
            os.close(replica)
            reader = threading.Thread(target=self.read_progress, args=(primary,), daemon=True)
            reader.start()
            out = self.process.stdout.read()
            code = self.process.wait()
            reader.join(5)
            os.close(primary)
            self.judge(number, code, out)

    def read_progress(self, primary):
        text = ""
        while True:
            try:
                chunk = os.read(primary, 4096).decode(errors="replace")
            except OSError:
                return
            if not chunk:
                return
            text = (text + chunk)[-400:]
            with self.lock:
                self.said = text  # its last words, for a run that fails
            found = re.findall(r"(\d+)/\d+ requests", text)
            if found and int(found[-1]) > self.progress:
                with self.lock:
                    self.progress = int(found[-1])
                    self.successes.append(time.monotonic())

    def judge(self, number, code, out):
        try:
            row = json.loads(out)  # one run's row
        except ValueError:
            row = {}
        lost = {kind: row.get(kind, -1) for kind in ("moved_twice_or_more", "never_moved", "stuck")}
        bad = None
        if code in RETRYABLE_EXITS and number not in self.held_runs:
            bad = None  # it could not start on a topology that was settling: run again
        elif code != 0:
            said = self.said[self.said.find("error:"):] if "error:" in self.said else ""
            bad = f"run {number}: exit {code} {said.strip()[:300]}"
        elif any(lost.values()) or not row.get("audit_ok"):
            bad = f"run {number}: {lost}, audit ok {row.get('audit_ok')}"
        elif number in self.held_runs and not row.get("relinks"):
            bad = f"run {number}: held across a move, yet it lost no link"
        with self.lock:
            self.rode += 1 if number in self.held_runs and not bad else 0
            self.gave_up += max(0, row.get("gave_up", 0))
        self.note(f"exit {code}", False, bad)

    def hold(self, deadline_s=120):
        """Stops the run under way once it is certainly mid-run; False if none got there."""
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            with self.lock:
                process, progress, number = self.process, self.progress, self.run_number
            if process and process.poll() is None and 0 < progress < self.REQUESTS:
                process.send_signal(signal.SIGSTOP)
                time.sleep(0.2)  # what it printed before it stopped reaches the reader
                with self.lock:
                    progress = self.progress
                if process.poll() is None and progress < self.REQUESTS:
                    self.held = process
                    self.held_runs.add(number)
                    return True
                process.send_signal(signal.SIGCONT)
            time.sleep(0.05)
        self.bad.append("no run of simulate was mid-run to hold across a move")
        return False

    def release(self):
        if self.held:
            self.held.send_signal(signal.SIGCONT)
            self.held = None

    def requests(self):
        return 0  # its requests are in its own scratch ledgers, not the nemesis ledger

    def stop(self):
        self.stopping.set()

    def finish(self, deadline_s):
        self.thread.join(deadline_s * 3)
        if self.thread.is_alive():
            self.bad.append("simulate did not finish its last run")
        if self.rode < len(self.held_runs):
            self.bad.append(f"{len(self.held_runs)} runs held across a move, {self.rode} rode it out")

    def summary(self):
        return (super().summary() + f"; {self.rode} of {len(self.held_runs)} runs held across "
                f"a move rode it out; its clients gave up on {self.gave_up} requests")

    def parts(self):
        return [self]
