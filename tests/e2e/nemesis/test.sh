# e2e: the nemesis run (scripts/nemesis) on every replicated topology scripts/servers starts:
# serve under keyed requests (and POST /tokens where tokens live in Redis), consume under a
# publishing loop, a loop of one-attempt commands and, where the ledger is a server, simulate
# --db run after run with a run held (SIGSTOP) across each move, while the topology fails over
# and the lost node comes back. It passes when nothing was lost or moved twice, every answer was
# definitive or retryable, and each command answered 2xx again after each failover settling; it
# prints how soon. The script's 5 s (--recover-s) is a target for a quiet machine, not a bound
# for a suite sharing two cores with other tests (consume was seen taking 9.7 s there, 0.03 s
# alone): here 120 s, that each answers again at all. Two failovers a topology here (one under
# the sanitizers: NEMESIS_FAILOVERS, from tests/CMakeLists.txt), to keep the suite's time; the
# script's default is three.
source "$(dirname "$0")/../lib.sh"
require_test_servers
[ -n "${IDEMLAB_TEST_AMQP:-}" ] || { fail "no IDEMLAB_TEST_AMQP (scripts/servers starts RabbitMQ)"; finish; }
expect_exit 0 "$ROOT/scripts/nemesis" --failovers "${NEMESIS_FAILOVERS:-2}" --recover-s 120 \
  --idemlab "$IDEMLAB"
printf '%s\n' "$out"
expect_contains "$out" "nemesis: 4 of 4 topologies passed"
for topology in redis-sentinel postgres-standby-sync patroni galera; do
  expect_contains "$out" "$topology: up in"
done
expect_contains "$out" "serve POST /tokens:"
expect_contains "$out" "consume:"
expect_contains "$out" "one-attempt commands:"
expect_contains "$out" "simulate --db:"
expect_contains "$out" "runs held across a move rode it out"
expect_contains "$out" "; guards on 127.0.0.1:"  # Redis behind Sentinels: the primary each named
expect_contains "$out" "answering again after each failover in"
case $out in *FAIL:*) fail "a check of the run failed" ;; esac
finish
