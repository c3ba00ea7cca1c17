# e2e: idemlab publish and consume on a real RabbitMQ (scripts/servers starts it). A consumer
# killed by SIGKILL between its commit and its ack gets the message redelivered (redelivered=1)
# and answers it as a repeat; a producer whose confirm was lost publishes a second message of
# the same request, which the business key stops and the broker's message id lets through; acking
# on receipt loses the message of a consumer that dies mid-work. Everything on SQLite and on
# PostgreSQL; bad input is one error line.
source "$(dirname "$0")/../lib.sh"
require_test_servers
[ -n "${IDEMLAB_TEST_AMQP:-}" ] || { echo "FAIL: no IDEMLAB_TEST_AMQP (scripts/servers starts RabbitMQ)" >&2; exit 1; }
own_server_databases queue
broker=$IDEMLAB_TEST_AMQP
queue_count=0
fresh_queue() { queue_count=$((queue_count + 1)); queue=q-$$-$queue_count; }
consume() {  # DB ARGS...: until the queue is idle for 1 s
  local db=$1; shift
  "$IDEMLAB" consume --broker "$broker" --queue "$queue" --db "$db" --until-idle 1000 "$@"
}
debits() { sql_on "$1" "SELECT count(*) FROM journal WHERE side = 'debit' AND biz_seq LIKE '$2-%'"; }
keys() { sql_on "$1" "SELECT count(DISTINCT biz_seq) FROM journal WHERE side = 'debit' AND biz_seq LIKE '$2-%'"; }

queue_checks() {  # DB
  local db=$1
  expect_exit 0 "$IDEMLAB" init --db "$db" --force

  # Killed between the commit and the ack: the broker delivers the message again.
  fresh_queue
  expect_exit 0 "$IDEMLAB" publish --broker "$broker" --queue "$queue" --requests 10 --prefix kill
  expect_exit 137 consume "$db" --strategy dedup-table --fault crash:after=commit,nth=4
  expect_exit 0 consume "$db" --strategy dedup-table --json
  expect_equal "$(json_field "$out" redelivered)" 1 "$db: the killed consumer's message came back"
  expect_contains "$(json_field "$out" answers)" '"applied (replayed)": 1'
  expect_equal "$(debits "$db" kill)" 10 "$db: each of 10 requests moved once"

  # A lost confirm: a second message of the same request.
  fresh_queue
  expect_exit 0 "$IDEMLAB" publish --broker "$broker" --queue "$queue" --requests 10 --prefix dup \
    --fault confirm-lost:p=0.3 --seed 4 --json
  copies=$(json_field "$out" copies)
  [ "$copies" -gt 0 ] || fail "no confirm was lost"
  expect_exit 0 consume "$db" --strategy state-machine
  expect_equal "$(debits "$db" dup)" 10 "$db: the business key stops the copies"
  fresh_queue
  expect_exit 0 "$IDEMLAB" publish --broker "$broker" --queue "$queue" --requests 10 --prefix mid \
    --fault confirm-lost:p=0.3 --seed 4
  expect_exit 0 consume "$db" --strategy state-machine --key message-id
  expect_equal "$(debits "$db" mid)" "$((10 + copies))" "$db: the message id lets every copy through"

  # Acked on receipt: the consumer dies mid-work, and the message is gone.
  fresh_queue
  expect_exit 0 "$IDEMLAB" publish --broker "$broker" --queue "$queue" --requests 5 --prefix auto
  expect_exit 137 consume "$db" --strategy direct-insert --ack on-receipt --fault crash:after=debit,nth=2
  expect_exit 0 consume "$db" --strategy direct-insert --ack on-receipt
  expect_equal "$(keys "$db" auto)" 4 "$db: acked on receipt, one request never moved"
}

queue_checks "$work/q.db"
queue_checks "$IDEMLAB_TEST_POSTGRES"

# Bad input: one error line, nothing consumed.
fresh_queue
expect_exit 2 "$IDEMLAB" publish --broker "$broker" --queue "$queue" --requests 1 --fault confirm-lost:p=2
expect_one_error_line
expect_exit 2 "$IDEMLAB" consume --broker "$broker" --queue "$queue" --db "$work/q.db" --strategy token
expect_one_error_line
expect_exit 8 "$IDEMLAB" publish --broker amqp://guest:guest@127.0.0.1:1/ --queue "$queue" --requests 1
expect_one_error_line
finish
