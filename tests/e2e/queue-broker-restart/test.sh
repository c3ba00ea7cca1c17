# e2e: the broker itself killed (SIGKILL) mid-run and restarted on its data: a broker of this
# test's own (the shared test broker serves other tests). Two consumers lose their connection
# and exit 75; nothing that was not committed was acked; once the broker is back, a new
# consumer finds the rest on the durable queue: every request moved money exactly once.
# Mid-run for certain: the consumers move a first 100, then the test holds the ledger's write
# lock, publishes 200 more and kills the broker while none of those can commit.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/lib/rabbitmq.sh"
require_test_servers  # root, as scripts/servers runs it
rmq=$work/rabbitmq amqp=$(free_port) epmd=$(free_port) dist=$(free_port) node=idemlabtest$$
cleanup() {
  [ -n "${hold_PID:-}" ] && kill "$hold_PID" 2>/dev/null
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
expect_exit 0 "$IDEMLAB" publish --broker "$broker" --queue restart --requests 100 --prefix a
# The declaration on disk before the kill, for certain (scripts/lib/rabbitmq.sh says why): what
# the test holds the broker to is what it synced, the queue and every message it confirmed.
rabbitmq_sync_declarations "$rmq" "$epmd" "$node" || fail "the broker did not sync its log"
moved() { sqlite3 -cmd ".timeout 60000" "$db" "SELECT count(*) FROM journal WHERE side = 'debit'"; }
for n in 1 2; do
  "$IDEMLAB" consume --broker "$broker" --queue restart --db "$db" --strategy dedup-table \
    --until-idle 60000 >"$work/c$n.out" 2>"$work/c$n.err" &
  consumer[$n]=$!
done
for _ in $(seq 1 6000); do [ "$(moved)" = 100 ] && break; sleep 0.05; done
expect_equal "$(moved)" 100 "the first 100 moved"
coproc hold { sqlite3 -cmd ".timeout 600000" "$db"; }
printf 'BEGIN IMMEDIATE;\nSELECT %s;\n' "'held'" >&"${hold[1]}"
read -r held <&"${hold[0]}"
expect_equal "$held" held "the test holds the ledger's write lock"
expect_exit 0 "$IDEMLAB" publish --broker "$broker" --queue restart --requests 200 --prefix b
kill -KILL "$(pgrep -P "$rabbitmq_pid" beam.smp)"
wait "$rabbitmq_pid" 2>/dev/null
for n in 1 2; do
  wait "${consumer[$n]}"; expect_equal "$?" 75 "consumer $n, its broker gone: exit 75"
  expect_contains "$(cat "$work/c$n.err")" "lost the connection to amqp://guest@127.0.0.1:$amqp/"
done
expect_equal "$(moved)" 100 "nothing moved while the lock was held"
printf 'ROLLBACK;\n' >&"${hold[1]}"
eval "exec ${hold[1]}>&-"
wait "$hold_PID"
start_broker "$work/rmq2.log"
# Recovering the durable queue can outlast the start on a busy machine: asked until it is listed
# (each ask starts an Erlang VM, a second or more), for at most 90 s.
queue_listed() {  # SECONDS
  local deadline=$((SECONDS + $1))
  until rabbitmq_has_queue "$rmq" "$epmd" "$node" restart; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}
# If the queue is in the broker's table of durable queues but not served ("no queue"), a clean
# restart is tried, and said; a queue missing from that table fails the test.
if ! queue_listed 90; then
  rabbitmq_has_durable_queue "$rmq" "$epmd" "$node" restart ||
    fail "the restarted broker lost the durable queue: $(grep -E 'Recovering|rror' "$work/rmq2.log")"
  echo "note: the restarted broker did not serve its recovered queue; restarted it cleanly"
  kill -TERM "$rabbitmq_pid" && wait "$rabbitmq_pid"
  start_broker "$work/rmq3.log"
  queue_listed 90 || fail "the broker never listed the queue: $(tail -5 "$work/rmq3.log")"
fi
expect_exit 0 "$IDEMLAB" consume --broker "$broker" --queue restart --db "$db" \
  --strategy dedup-table --until-idle 1000 --json
expect_equal "$(sqlite3 "$db" "SELECT count(DISTINCT biz_seq) || ' ' || count(*) FROM journal WHERE side = 'debit'")" \
  "300 300" "every request moved money exactly once"
expect_exit 0 "$IDEMLAB" audit --db "$db"
finish
