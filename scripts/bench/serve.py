"""scripts/bench-serve's measurements (see there). Prints one table row per run of wrk, then the
three ratios with their targets. Every figure comes from a run made here, side by side."""
import argparse
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request

SAFE = ["select-insert", "direct-insert", "state-machine", "dedup-table", "token",
        "select-for-update", "optimistic-lock", "lock-table"]
TRACE_KEY = "bench-trace-1"


class Serve:
    """idemlab serve on a free port, until stop()."""

    def __init__(self, idemlab, db, strategy):
        args = [idemlab, "serve", "--db", db, "--strategy", strategy, "--listen", "127.0.0.1:0"]
        if strategy == "select-for-update":
            args.append("--unique-index")  # on PostgreSQL FOR UPDATE locks no missing row
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True)
        line = self.process.stdout.readline()
        port = re.search(r"127\.0\.0\.1:(\d+)", line)
        if not port:
            sys.exit(f"serve did not start: {line}")
        self.base = f"http://127.0.0.1:{port.group(1)}"

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait()


def seconds_of(text):
    number, unit = re.match(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}[unit]


def wrk(base, connections, seconds, lua=None, env=None, path="/"):
    threads = 1 if connections == 1 else 2
    args = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if lua:
        args += ["-s", lua]
    out = subprocess.run(args + [base + path], capture_output=True, text=True,
                         env={**os.environ, **(env or {})}, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = seconds_of(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))
    p99 = seconds_of(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    refused = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rate, p50, p99, (int(refused.group(1)) if refused else 0) / max(1, total)


def issue_tokens(base, count, path):
    tokens = []
    while len(tokens) < count:
        asked = min(10000, count - len(tokens))
        request = urllib.request.Request(f"{base}/tokens?count={asked}", method="POST")
        with urllib.request.urlopen(request, timeout=600) as answer:
            tokens += [t["token"] for t in json.load(answer)["tokens"]]
    with open(path, "w") as out:
        out.write("\n".join(tokens) + "\n")


class Bench:
    def __init__(self, options):
        self.o = options
        self.ledgers = 0
        self.rates = {}  # (engine, strategy, connections, copies) -> requests/s

    def fresh_ledger(self, engine):
        self.ledgers += 1
        db = self.o.engines[engine]
        if engine == "sqlite":
            db = f"{self.o.work}/l{self.ledgers}.db"
        subprocess.run([self.o.idemlab, "init", "--db", db, "--force"], check=True,
                       stdout=subprocess.DEVNULL)
        return db

    def run(self, engine, strategy, connections, copies):
        serve = Serve(self.o.idemlab, self.fresh_ledger(engine), strategy)
        try:
            env = {"WRK_COPIES": str(copies), "WRK_PREFIX": "b"}
            if strategy == "token":
                per_thread = 12000
                issue_tokens(serve.base, 2 * per_thread, f"{self.o.work}/tokens")
                env.update(WRK_TOKENS=f"{self.o.work}/tokens", WRK_KEYS=str(per_thread))
            rate, p50, p99, refused = wrk(serve.base, connections, self.o.seconds, self.o.lua, env)
        finally:
            serve.stop()
        self.rates[(engine, strategy, connections, copies)] = rate
        print(f"{engine:10} {strategy:18} {connections:>3} {'twice' if copies == 2 else 'once':>6}"
              f" {rate:10.0f} {p50 * 1e3:9.2f} {p99 * 1e3:9.2f} {refused:9.1%}", flush=True)

    def table(self):
        print(f"{'engine':10} {'strategy':18} {'c':>3} {'keys':>6} {'req/s':>10} {'p50 ms':>9}"
              f" {'p99 ms':>9} {'not 2xx':>9}")
        for engine in self.o.engines:
            for strategy in self.o.strategies:
                for connections in (1, 32):
                    for copies in (1, 2):
                        self.run(engine, strategy, connections, copies)

    def trace(self, engine, strategy):
        """The statements serve's attempt runs for one request, with values filled in."""
        db = self.fresh_ledger(engine)
        path = f"{self.o.work}/{engine}-{strategy}.sql"
        args = [self.o.idemlab, strategy, "--db", db, "--biz-seq", TRACE_KEY, "--from", "alice",
                "--to", "bob", "--amount", "0.01", "--source", "http", "--trace-sql", path]
        if strategy == "select-for-update":
            args.append("--unique-index")
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        return db, open(path).read().splitlines()


def pgbench_script(lines):
    out = ["\\set r random(1, 999999999999)"]
    for line in lines:
        line = line.replace(TRACE_KEY, "pgb-:client_id-:r")
        line = re.sub(r"WHERE id = \d+", "WHERE id = :flow_id", line)
        line = line.replace("RETURNING id;", "RETURNING id \\gset flow_")
        out.append(line)
    return "\n".join(out) + "\n"


def ratio_table(bench, engine, title, yardstick_name, yardstick):
    """serve's rate at 32 connections with unique keys, per strategy, against `yardstick`
    (strategy, traced ledger, traced statements -> requests/s); prints the worst ratio."""
    print(f"\n{title}")
    worst = None
    for strategy in bench.o.strategies:
        if strategy == "token":
            print(f"  {'token':18} not compared: each transaction needs a token issued before it")
            continue
        db, lines = bench.trace(engine, strategy)
        theirs = yardstick(strategy, db, lines)
        rate = bench.rates[(engine, strategy, 32, 1)]
        worst = rate / theirs if worst is None else min(worst, rate / theirs)
        print(f"  {strategy:18} serve {rate:8.0f}/s  {yardstick_name} {theirs:8.0f}/s  "
              f"ratio {rate / theirs:.2f}")
    label = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}[engine]
    print(f"{label} worst ratio: {worst:.2f} (target >= 0.7)")


def pgbench_ratio(bench):
    url = bench.o.engines["postgresql"]

    def pgbench(strategy, db, lines):
        script = f"{bench.o.work}/{strategy}.pgbench"
        open(script, "w").write(pgbench_script(lines))
        out = subprocess.run(["pgbench", "-n", "-c", "32", "-j", "2", "-T", str(bench.o.seconds),
                              "-f", script, url], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"pgbench {strategy}: {out.stderr[-600:]}")
        return float(re.search(r"tps = ([\d.]+)", out.stdout).group(1))

    ratio_table(bench, "postgresql",
                "PostgreSQL, 32 connections, unique keys: serve against pgbench running its "
                "statements", "pgbench", pgbench)


LITERAL = re.compile(r"'(?:[^']|'')*'|(?<![\w.])-?\d+(?![\w.])")


def parametrized(line):
    """A traced statement with its literals as ? parameters, so that the replay prepares each
    statement once, as idemlab does, instead of parsing new SQL text every time."""
    params = []

    def take(match):
        text = match.group(0)
        params.append(text[1:-1].replace("''", "'") if text.startswith("'") else int(text))
        return "?"

    flow = re.search(r"WHERE id = (\d+)", line)
    # An ON CONFLICT target names a partial index by its predicate's very text: kept as is.
    head, conflict, tail = line.partition(" ON CONFLICT ")
    return LITERAL.sub(take, head) + conflict + tail, params, flow is not None


def back_to_back(db, lines, seconds):
    """The traced statements, one transaction per request with a fresh key, back to back on one
    connection with serve's pragmas, each prepared once: requests per second."""
    connection = sqlite3.connect(db, isolation_level=None, cached_statements=256)
    connection.executescript("PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;"
                             "PRAGMA busy_timeout = 5000;")
    statements = [parametrized(line) for line in lines]
    done, started = 0, time.monotonic()
    while time.monotonic() - started < seconds:
        key, flow_id = f"sqb-{done}", None
        for sql, params, by_flow_id in statements:
            values = [v.replace(TRACE_KEY, key) if isinstance(v, str) else v for v in params]
            if by_flow_id and flow_id is not None:
                values[sql[:sql.index("WHERE id = ?")].count("?")] = flow_id
            row = connection.execute(sql, values).fetchone()
            if "RETURNING id" in sql:
                flow_id = row[0]
        done += 1
    rate = done / (time.monotonic() - started)
    connection.close()
    return rate


def sqlite_ratio(bench):
    ratio_table(bench, "sqlite",
                "SQLite, 32 connections, unique keys: serve against its statements back to back",
                "back to back", lambda strategy, db, lines: back_to_back(db, lines,
                                                                           bench.o.seconds))


def read_ratio(bench, rounds=3):
    """serve and the bare server both up, wrk alternating between them: medians of `rounds`."""
    serve = Serve(bench.o.idemlab, bench.fresh_ledger("sqlite"), "dedup-table")
    bare = subprocess.Popen([bench.o.bare, "18431"], stdout=subprocess.PIPE, text=True)
    ours, theirs = [], []
    try:
        bare.stdout.readline()
        for _ in range(rounds):
            ours.append(wrk(serve.base, 16, bench.o.seconds, path="/accounts/alice")[0])
            theirs.append(wrk("http://127.0.0.1:18431", 16, bench.o.seconds,
                              path="/accounts/alice")[0])
    finally:
        serve.stop()
        bare.kill()
        bare.wait()
    ratios = sorted(a / b for a, b in zip(ours, theirs))
    print(f"\nGET /accounts/alice, 16 connections, {rounds} alternating rounds: serve "
          f"{sorted(ours)[rounds // 2]:.0f}/s, bare libmicrohttpd {sorted(theirs)[rounds // 2]:.0f}/s; "
          f"ratios {' '.join(f'{r:.2f}' for r in ratios)}: median {ratios[rounds // 2]:.2f} "
          f"(target >= 0.7)")


def legend():
    print("\nnot 2xx: answers that were not 2xx (409 in progress for a twin, 503 busy or a deadlock);"
          " a client retries them.")


def main():
    parser = argparse.ArgumentParser()
    for name in ("--idemlab", "--lua", "--bare", "--work"):
        parser.add_argument(name, required=True)
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--strategies", default=",".join(SAFE))
    options = parser.parse_args()
    options.strategies = options.strategies.split(",")
    options.engines = {"sqlite": None}
    for engine, variable in (("postgresql", "IDEMLAB_TEST_POSTGRES"),
                             ("mariadb", "IDEMLAB_TEST_MARIADB")):
        if os.environ.get(variable):
            options.engines[engine] = os.environ[variable]
    bench = Bench(options)
    bench.table()
    legend()
    if "postgresql" in options.engines:
        pgbench_ratio(bench)
    sqlite_ratio(bench)
    read_ratio(bench)


if __name__ == "__main__":
    main()
