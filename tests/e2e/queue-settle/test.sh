# e2e: what consume acks, requeues and dead-letters, on a real RabbitMQ, on SQLite, PostgreSQL
# and MariaDB ledgers alike. A request the command line refuses (a 40-character source) is set
# aside on QUEUE.dead with the command line's own words, and nothing moves; a consumer whose
# ledger connection the server ends before the commit (held at a gate, certain) puts the
# message back and exits 75, and the next consumer applies it once.
source "$(dirname "$0")/../lib.sh"
require_test_servers
[ -n "${IDEMLAB_TEST_AMQP:-}" ] || { echo "FAIL: no IDEMLAB_TEST_AMQP (scripts/servers starts RabbitMQ)" >&2; exit 1; }
own_server_databases queue_settle
broker=$IDEMLAB_TEST_AMQP
queue_count=0
fresh_queue() {
  queue_count=$((queue_count + 1))
  queue=settle-$$-$queue_count
  amqp-declare-queue --url="$broker" -d -q "$queue" >/dev/null || fail "amqp-declare-queue"
}
consume() {  # DB ARGS...: until the queue is idle for half a second
  local db=$1; shift
  "$IDEMLAB" consume --broker "$broker" --queue "$queue" --db "$db" --until-idle 500 "$@"
}
long_source=$(printf 's%.0s' $(seq 1 40))
refused="invalid source '$long_source': 40 characters long; at most 32"

refusals() {  # DB
  local db=$1
  expect_exit 0 "$IDEMLAB" init --db "$db" --force
  # What the command line says of the same request, word for word.
  expect_exit 2 "$IDEMLAB" direct-insert --db "$db" --source "$long_source" --biz-seq r1 \
    --from alice --to bob --amount 1.00
  expect_contains "$err" "$refused"
  fresh_queue
  local n
  for n in 1 2 3; do
    amqp-publish --url="$broker" -r "$queue" -p \
      -b "{\"source\":\"$long_source\",\"biz_seq\":\"r$n\",\"from\":\"alice\",\"to\":\"bob\",\"amount\":\"1.00\"}" ||
      fail "amqp-publish"
  done
  expect_exit 10 consume "$db" --strategy direct-insert
  expect_contains "$out" "refused: $refused, set aside on $queue.dead"
  expect_contains "$out" "dead-lettered: 3 messages on $queue.dead"
  expect_equal "$(sql_on "$db" "SELECT count(*) FROM journal")" 0 "$db: nothing moved"
  expect_contains "$(amqp-get --url="$broker" -q "$queue.dead" 2>&1)" \
    "{\"source\":\"$long_source\",\"biz_seq\":\"r1\""
}
refusals "$work/q.db"
refusals "$IDEMLAB_TEST_POSTGRES"
refusals "$IDEMLAB_TEST_MARIADB"

# The server ends the consumer's ledger connection while its attempt is held before the
# commit: the outcome is unknown, the delivery goes back to the queue, and the consumer drops
# that connection and goes on: its redelivery, on a new connection, applies it once.
end_other_connections() {  # DB: the server ends every connection to DB but this one
  case $1 in
    postgresql://*)
      sql_on "$1" "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()" >/dev/null ;;
    mariadb://*)
      local id
      for id in $(sql_on "$1" "SELECT id FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND ID <> CONNECTION_ID()"); do
        sql_on "$1" "KILL $id"
      done ;;
  esac
}
lost_connection() {  # DB
  local db=$1 gate=$work/gate-$queue_count pid
  expect_exit 0 "$IDEMLAB" init --db "$db" --force
  fresh_queue
  expect_exit 0 "$IDEMLAB" publish --broker "$broker" --queue "$queue" --requests 1 --prefix heal
  mkdir -p "$gate"
  "$IDEMLAB" consume --broker "$broker" --queue "$queue" --db "$db" --until-idle 500 \
    --strategy dedup-table --fault "slow:at=debit,gate=$gate" >"$work/held.out" 2>"$work/held.err" &
  pid=$!
  wait_at_gate "$gate" "$pid"
  end_other_connections "$db"
  touch "$gate/open"
  local code=0
  wait "$pid" || code=$?
  expect_equal "$code" 0 "$db: a consumer whose ledger connection was ended goes on"
  local held; held=$(cat "$work/held.out")
  expect_contains "$held" "timeout: connection_lost (link lost: "
  expect_contains "$held" "back to the queue"
  expect_contains "$held" "2 delivered (1 redelivered) carrying 1 request: 1 applied, 1 timeout: connection_lost"
  expect_contains "$held" "audit: ok (1 request applied, money moved 1 time)"
  expect_equal "$(pairs "$db" heal-1)" 1 "$db: applied once, on a new connection"
}
lost_connection "$IDEMLAB_TEST_POSTGRES"
lost_connection "$IDEMLAB_TEST_MARIADB"
finish
