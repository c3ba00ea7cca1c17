"""The loads scripts/nemesis keeps on idemlab while it fails a topology over: serve under keyed
requests (and POST /tokens), consume under a publishing loop, and a loop of one-attempt commands
(simulate --db is nemesis_simulate.py's).
Each retries a request until its answer is definitive, notes when each success came, and keeps
every answer that is neither definitive nor retryable."""
import http.client
import itertools
import re
import signal
import subprocess
import threading
import time

AMOUNT = "0.01"
RETRY_PAUSE_S = 0.1
# Exit codes: definitive (applied, rejected, mismatch, token refused) and retryable (in
# progress, unknown); anything else (1 internal, 2 usage, 8 the ledger unusable) is a bad answer.
DEFINITIVE_EXITS = {0, 3, 4, 6}
RETRYABLE_EXITS = {5, 75}


def guards_named(answer):
    """The guards' server an answer line names, "(guards on HOST:PORT, ...)", or None."""
    guards = re.search(r"\(guards on (\S+), the Sentinels' primary\)", answer)
    return guards and guards.group(1)


class Load:
    """What every load keeps: its successes' times, its answers, and the bad ones."""

    def __init__(self, name, unit="requests"):
        self.name = name
        self.unit = unit  # what `sent` counts
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.successes = []
        self.answers = {}
        self.bad = []
        self.sent = 0
        self.guard_nodes = []  # the guards' servers the answers named, each change once

    def name_guards(self, node):
        with self.lock:
            if node and (not self.guard_nodes or self.guard_nodes[-1] != node):
                self.guard_nodes.append(node)

    def note(self, answer, ok, bad=None):
        with self.lock:
            self.answers[answer] = self.answers.get(answer, 0) + 1
            if ok:
                self.successes.append(time.monotonic())
            if bad:
                self.bad.append(bad)

    def events(self):
        with self.lock:
            return [(at, True) for at in self.successes]

    def bad_answers(self):
        with self.lock:
            return list(self.bad[:5]) + ([f"... {len(self.bad) - 5} more"] if len(self.bad) > 5 else [])

    def requests(self):
        return self.sent

    def summary(self):
        with self.lock:
            shown = ", ".join(f"{count} {answer}" for answer, count in sorted(self.answers.items()))
            named = " → ".join(self.guard_nodes)
        return f"{self.sent} {self.unit}; answers: {shown}" + (f"; guards on {named}" if named else "")


class ServeLoad(Load):
    """`idemlab serve`, two clients sending keyed POST /transfers, and a third asking for
    tokens when they live in Redis."""

    def __init__(self, idemlab, args, tokens):
        super().__init__("serve")
        self.command = [idemlab, "serve", "--listen", "127.0.0.1:0", *args]
        self.tokens = Load("serve POST /tokens", "tokens asked for") if tokens else None
        self.threads = []

    def start(self):
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            raise RuntimeError(f"serve did not start: {line}{self.process.stderr.read()}")
        self.port = int(match.group(1))
        self.threads = [threading.Thread(target=self.client, args=(n,), daemon=True) for n in range(2)]
        if self.tokens:
            self.threads.append(threading.Thread(target=self.token_client, daemon=True))
        for thread in self.threads:
            thread.start()

    def post(self, path, key=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            headers = {"Content-Type": "application/x-www-form-urlencoded"}
            if key:
                headers["Idempotency-Key"] = key
            body = f"from=alice&to=bob&amount={AMOUNT}" if key else ""
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            self.name_guards(response.getheader("Idemlab-Guard-Node"))
            return response.status, response.read().decode(errors="replace")
        except OSError as error:
            return None, str(error)
        finally:
            connection.close()

    def client(self, number):
        for n in itertools.count(1):
            if self.stopping.is_set():
                return
            key = f"s{number}-{n}"
            with self.lock:
                self.sent += 1
            while self.process.poll() is None:  # retried until its answer is definitive
                status, body = self.post("/transfers", key)
                self.note(str(status), status in (200, 201), self.judge(status, key, body))
                if status is not None and status < 500 and status != 409:
                    break
                time.sleep(RETRY_PAUSE_S)

    @staticmethod
    def judge(status, key, body):
        if status is None or status == 503 or status < 500:
            return None
        return f"{key}: HTTP {status}: {body[:200]}"

    def token_client(self):
        while not self.stopping.is_set() and self.process.poll() is None:
            with self.tokens.lock:
                self.tokens.sent += 1
            status, body = self.post("/tokens")
            self.tokens.note(str(status), status == 201, self.judge(status, "POST /tokens", body))
            time.sleep(0.2)

    def stop(self):
        self.stopping.set()
        if self.tokens:
            self.tokens.stopping.set()

    def finish(self, deadline_s):
        for thread in self.threads:
            thread.join(deadline_s)
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(30)
        if code != 0:
            self.bad.append(f"serve exited {code}: {self.process.stderr.read()[-500:]}")

    def parts(self):
        return [self] + ([self.tokens] if self.tokens else [])


class ConsumeLoad(Load):
    """`idemlab consume` on a queue a publisher keeps filling: two requests every quarter
    second."""

    def __init__(self, idemlab, broker, queue, args):
        super().__init__("consume")
        self.idemlab, self.broker, self.queue = idemlab, broker, queue
        self.command = [idemlab, "consume", "--broker", broker, "--queue", queue, *args]
        self.applied = set()
        self.published = set()

    def publish(self, batch):
        done = subprocess.run([self.idemlab, "publish", "--broker", self.broker, "--queue",
                               self.queue, "--requests", "2", "--prefix", f"p{batch}",
                               "--amount", AMOUNT], capture_output=True, text=True)
        if done.returncode == 0:
            self.published.update({f"p{batch}-1", f"p{batch}-2"})
        else:
            self.bad.append(f"publish exited {done.returncode}: {done.stderr.strip()}")

    def start(self):
        self.publish(0)  # consume takes a queue that exists
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.publisher = threading.Thread(target=self.publish_loop, daemon=True)
        self.reader.start()
        self.publisher.start()

    def publish_loop(self):
        for batch in itertools.count(1):
            if self.stopping.is_set():
                return
            self.publish(batch)
            time.sleep(0.25)

    def read(self):
        for line in self.process.stdout:
            match = re.match(r"delivery \d+[^:]*: (\S+) \S+ \S+: (.*)", line)
            if not match:
                continue
            biz_seq, answer = match.groups()
            ok = answer.startswith("applied")
            word = re.split(r"[:,(]| at | on ", answer)[0].strip()
            self.name_guards(guards_named(answer))
            self.note(word, ok, f"{biz_seq}: {answer.strip()}" if "dead-lettered" in answer else None)
            if ok:
                with self.lock:
                    self.applied.add(biz_seq)

    def stop(self):
        self.stopping.set()

    def finish(self, deadline_s):
        self.publisher.join(deadline_s)
        end = time.monotonic() + deadline_s
        while time.monotonic() < end and not self.published <= self.applied:
            time.sleep(0.2)
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(60)
        self.reader.join(10)
        if code != 0:
            self.bad.append(f"consume exited {code}: {self.process.stderr.read()[-500:]}")
        self.sent = len(self.published)

    def parts(self):
        return [self]


class CliLoop(Load):
    """One attempt per process, as a shell script retries it: each request until its exit
    code is definitive."""

    def __init__(self, idemlab, args):
        super().__init__("one-attempt commands")
        self.command = [idemlab, *args, "--source", "cli", "--from", "alice", "--to", "bob",
                        "--amount", AMOUNT]

    def start(self):
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        for n in itertools.count(1):
            if self.stopping.is_set():
                return
            with self.lock:
                self.sent += 1
            for _ in range(2000):  # retried until definitive; a bound, in case it never is
                done = subprocess.run([*self.command, "--biz-seq", f"c-{n}"], capture_output=True,
                                      text=True)
                code = done.returncode
                self.name_guards(guards_named(done.stdout + done.stderr))
                bad = None
                if code not in DEFINITIVE_EXITS | RETRYABLE_EXITS:
                    bad = f"c-{n}: exit {code}: {done.stderr.strip()[:200]}"
                self.note(f"exit {code}", code == 0, bad)
                if code in DEFINITIVE_EXITS:
                    break
                time.sleep(RETRY_PAUSE_S)

    def stop(self):
        self.stopping.set()

    def finish(self, deadline_s):
        self.thread.join(deadline_s)

    def parts(self):
        return [self]

