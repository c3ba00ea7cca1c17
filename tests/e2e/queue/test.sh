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
consume() {  # DB ARGS...: until the queue is idle for half a second
  local db=$1; shift
  "$IDEMLAB" consume --broker "$broker" --queue "$queue" --db "$db" --until-idle 500 "$@"
}
debits() { sql_on "$1" "SELECT count(*) FROM journal WHERE side = 'debit' AND biz_seq LIKE '$2-%'"; }
keys() { sql_on "$1" "SELECT count(DISTINCT biz_seq) FROM journal WHERE side = 'debit' AND biz_seq LIKE '$2-%'"; }

queue_checks() {  # DB
  local db=$1
  expect_exit 0 "$IDEMLAB" init --db "$db" --force

  # Killed between the commit and the ack: the broker delivers the message again, and every
  # safe strategy (but token: a queue carries no token) answers it as a repeat.
  local strategy args
  for strategy in select-insert direct-insert state-machine dedup-table select-for-update \
                  optimistic-lock lock-table; do
    args=(--strategy "$strategy"); [ "$strategy" = select-for-update ] && args+=(--unique-index)
    fresh_queue
    expect_exit 0 "$IDEMLAB" publish --broker "$broker" --queue "$queue" --requests 6 --prefix "k$strategy"
    expect_exit 137 consume "$db" "${args[@]}" --fault crash:after=commit,nth=4
    expect_exit 0 consume "$db" "${args[@]}" --json
    expect_equal "$(json_field "$out" redelivered)" 1 "$db, $strategy: the killed consumer's message came back"
    expect_contains "$(json_field "$out" answers)" '"applied (replayed)": 1'
    expect_equal "$(debits "$db" "k$strategy")" 6 "$db, $strategy: each of 6 requests moved once"
  done
  expect_equal "$(json_field "$(json_field "$out" audit)" ok)" true "$db: the audit consume printed"

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
  expect_contains "$out" "carrying 10 requests: $((10 + copies)) applied;"
  expect_contains "$out" "applied_once_per_message ("
  expect_exit 7 "$IDEMLAB" audit --db "$db" --json
  expect_contains "$out" '"applied_once_per_message"'

  # Acked on receipt: the consumer dies mid-work, and the message is gone.
  fresh_queue
  expect_exit 0 "$IDEMLAB" publish --broker "$broker" --queue "$queue" --requests 5 --prefix auto
  expect_exit 137 consume "$db" --strategy direct-insert --ack on-receipt --fault crash:after=debit,nth=2
  expect_exit 0 consume "$db" --strategy direct-insert --ack on-receipt
  expect_equal "$(keys "$db" auto)" 4 "$db: acked on receipt, one request never moved"
  expect_contains "$out" "acked_never_applied: request auto-2 was acked on receipt"
}

queue_checks "$work/q.db"
queue_checks "$IDEMLAB_TEST_POSTGRES"

# Messages that are not transfers are set aside on QUEUE.dead with the reason, and the consumer
# goes on to the next.
fresh_queue
amqp-declare-queue --url="$broker" -d -q "$queue" >/dev/null || fail "amqp-declare-queue"
for body in 'not json' '{"source":"mq","biz_seq":"p1","from":"alice","to":"bob"}' \
            '{"source":"mq","biz_seq":"p2","from":"alice","to":"bob","amount":"99999999999999999999"}' \
            '{"source":"mq","biz_seq":"p3","from":"alice","to":"bob","amount":"1.00"}'; do
  amqp-publish --url="$broker" -r "$queue" -p -b "$body" || fail "amqp-publish $body"
done
expect_exit 10 consume "$work/q.db" --strategy dedup-table --json
expect_equal "$(json_field "$out" dead_lettered)" 3 "three poisoned messages set aside"
expect_equal "$(json_field "$out" acked)" 1 "the transfer after them applied"
expect_equal "$(amqp-get --url="$broker" -q "$queue.dead" 2>&1)" 'not json' "the first set aside"
expect_exit 0 "$IDEMLAB" consume --broker "$broker" --queue "$queue" --db "$work/q.db" \
  --strategy dedup-table --until-idle 300
expect_contains "$out" "0 delivered"

# Bad input: one error line, nothing consumed; a queue that does not exist is not made.
fresh_queue
expect_exit 2 "$IDEMLAB" consume --broker "$broker" --queue "$queue-typo" --db "$work/q.db" --strategy dedup-table
expect_one_error_line
expect_contains "$err" "no queue '$queue-typo'"
expect_exit 2 "$IDEMLAB" publish --broker "$broker" --queue "$queue" --requests 1 --fault confirm-lost:p=2
expect_one_error_line
expect_exit 2 "$IDEMLAB" consume --broker "$broker" --queue "$queue" --db "$work/q.db" --strategy token
expect_one_error_line
expect_exit 8 "$IDEMLAB" publish --broker amqp://guest:guest@127.0.0.1:1/ --queue "$queue" --requests 1
expect_one_error_line
finish
