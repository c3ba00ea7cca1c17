"""scripts/bench-consume's measurements (see there)."""
import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from serve import TRACE_KEY, back_to_back  # noqa: E402  the same replay bench-serve uses

STRATEGIES = ["select-insert", "direct-insert", "state-machine", "dedup-table",
              "select-for-update", "optimistic-lock", "lock-table"]


def run(*args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs).stdout


def consume_rate(o, broker, strategy, queue, db):
    run(o.idemlab, "publish", "--broker", broker, "--queue", queue, "--requests",
        str(o.messages), "--prefix", "m")
    idle_ms = 300
    started = time.monotonic()
    run(o.idemlab, "consume", "--broker", broker, "--queue", queue, "--db", db, "--strategy",
        strategy, "--prefetch", "32", "--until-idle", str(idle_ms))
    return o.messages / (time.monotonic() - started - idle_ms / 1000)


LEDGER_ALONE = {}  # strategy -> its rate without a broker, measured once for both brokers


def ledger_rate(o, strategy, n):
    if strategy in LEDGER_ALONE:
        return LEDGER_ALONE[strategy]
    db = f"{o.work}/alone-{strategy}.db"
    run(o.idemlab, "init", "--db", db)
    trace = f"{o.work}/{strategy}.sql"
    run(o.idemlab, strategy, "--db", db, "--biz-seq", TRACE_KEY, "--from", "alice", "--to", "bob",
        "--amount", "0.01", "--source", "mq", "--trace-sql", trace)
    LEDGER_ALONE[strategy] = back_to_back(db, open(trace).read().splitlines(), o.seconds)
    return LEDGER_ALONE[strategy]


def broker_rate(o, broker, loop):
    """The broker's own publish-consume-ack rate, one message at a time."""
    if broker.startswith("amqp://"):
        port = re.search(r":(\d+)/?$", broker).group(1)
        return float(run(loop, port, f"bench-loop-{os.getpid()}", str(o.messages)))
    return float(run(loop, broker, f"bench-loop-{os.getpid()}", str(o.messages)))


def bench_broker(o, name, broker, loop):
    """Every strategy's consume rate on `broker`, against the lower yardstick; the worst ratio."""
    alone_broker = broker_rate(o, broker, loop)
    print(f"{name} alone (publish, consume, ack, one at a time): {alone_broker:.0f} messages/s")
    print(f"{'strategy':18} {'consume/s':>10} {'ledger/s':>10} {'ratio':>6}")
    worst = None
    for strategy in STRATEGIES:
        db = f"{o.work}/{name}-{strategy}.db"
        run(o.idemlab, "init", "--db", db)
        rate = consume_rate(o, broker, strategy, f"bench-{os.getpid()}-{strategy}", db)
        alone = ledger_rate(o, strategy, o.messages)
        ratio = rate / min(alone_broker, alone)
        worst = ratio if worst is None else min(worst, ratio)
        print(f"{strategy:18} {rate:10.0f} {alone:10.0f} {ratio:6.2f}", flush=True)
    print(f"{name}: worst ratio {worst:.2f} (target >= 0.7, against the lower of the broker and "
          f"the ledger alone)")
    return worst


def main():
    parser = argparse.ArgumentParser()
    for name in ("--idemlab", "--amqp-loop", "--nats-loop", "--work"):
        parser.add_argument(name, required=True)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--seconds", type=int, default=3)
    o = parser.parse_args()
    worst = [bench_broker(o, "RabbitMQ", os.environ["IDEMLAB_TEST_AMQP"], o.amqp_loop)]
    print()
    worst.append(bench_broker(o, "NATS JetStream", os.environ["IDEMLAB_TEST_NATS"], o.nats_loop))
    print(f"worst ratio: {min(worst):.2f} (target >= 0.7)")


if __name__ == "__main__":
    main()
