# e2e: the broker itself killed (SIGKILL) mid-run and restarted on its data: a broker of this
# test's own (the shared test broker serves other tests). Two consumers lose their connection
# and exit 75; nothing that was not committed was acked; once the broker is back, a new
# consumer finds the rest on the durable queue: every request moved money exactly once.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/lib/rabbitmq.sh"
require_test_servers  # root, as scripts/servers runs it
rmq=$work/rabbitmq amqp=$(free_port) epmd=$(free_port) dist=$(free_port) node=idemlabtest$$
cleanup() {
  [ -n "${rabbitmq_pid:-}" ] && kill -TERM "$rabbitmq_pid" 2>/dev/null && wait "$rabbitmq_pid"
  kill $(epmd_pids "$epmd") 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
start_broker() {  # LOG
  start_rabbitmq_in "$rmq" "$amqp" "$epmd" "$dist" "$node" "$1"
  for _ in $(seq 1 600); do rabbitmq_ready "$1" && return 0; sleep 0.1; done
  fail "the broker did not start: $(tail -5 "$1")"; finish
}
start_broker "$work/rmq1.log"
broker=amqp://guest:guest@127.0.0.1:$amqp
db=$work/b.db
expect_exit 0 "$IDEMLAB" init --db "$db"
expect_exit 0 "$IDEMLAB" publish --broker "$broker" --queue restart --requests 300
moved() { sqlite3 "$db" "SELECT count(*) FROM journal WHERE side = 'debit'"; }
for n in 1 2; do
  "$IDEMLAB" consume --broker "$broker" --queue restart --db "$db" --strategy dedup-table \
    --until-idle 60000 >"$work/c$n.out" 2>"$work/c$n.err" &
  consumer[$n]=$!
done
for _ in $(seq 1 6000); do [ "$(moved)" -ge 100 ] && break; sleep 0.01; done
kill -KILL "$(pgrep -P "$rabbitmq_pid" beam.smp)"
wait "$rabbitmq_pid" 2>/dev/null
for n in 1 2; do
  wait "${consumer[$n]}"; expect_equal "$?" 75 "consumer $n, its broker gone: exit 75"
  expect_contains "$(cat "$work/c$n.err")" "lost the connection to amqp://guest@127.0.0.1:$amqp/"
done
[ "$(moved)" -lt 300 ] || fail "the consumers finished before the broker died"
start_broker "$work/rmq2.log"
# Recovering the durable queue can outlast the start on a busy machine: asked until it is listed
# (each ask starts an Erlang VM, a second or more), for at most 90 s, and said if it never is.
deadline=$((SECONDS + 90))
until rabbitmq_has_queue "$rmq" "$epmd" "$node" restart; do
  [ "$SECONDS" -lt "$deadline" ] ||
    { fail "the restarted broker never listed the queue: $(tail -5 "$work/rmq2.log")"; break; }
  sleep 0.2
done
expect_exit 0 "$IDEMLAB" consume --broker "$broker" --queue restart --db "$db" \
  --strategy dedup-table --until-idle 1000 --json
expect_equal "$(sqlite3 "$db" "SELECT count(DISTINCT biz_seq) || ' ' || count(*) FROM journal WHERE side = 'debit'")" \
  "300 300" "every request moved money exactly once"
expect_exit 0 "$IDEMLAB" audit --db "$db"
finish
