# e2e: idemlab publish and consume on NATS JetStream (scripts/servers up nats, a server of this
# test's own), judged from the journal. The business key as Nats-Msg-Id: the stream drops a
# producer's prompt retry (its publish ack says duplicate), and naive moves money once per
# request; a retry after the stream's duplicate window is a new message, which naive moves twice
# and every guarded strategy once. A consumer killed after its commit (SIGKILL) is delivered
# the message again after ack_wait even with the double ack (AckSync): naive moves it twice,
# the guarded strategies replay it. Acked on receipt, a consumer that dies mid-work loses the
# message. nats-server SIGKILLed and restarted under a consumer held at a gate before its commit
# and a producer stopped mid-run (SIGSTOP: both certain to be under way): every acknowledged
# publish applied exactly once. Bad input is one error line and changes nothing. The window's
# cases and the redelivery are rows of tests/e2e/parity.table, run in the model too.
source "$(dirname "$0")/../lib.sh"
require_test_servers
export IDEMLAB_SERVERS_STATE=$work/servers.state
trap '"$ROOT/scripts/servers" down' EXIT
"$ROOT/scripts/servers" up nats >/dev/null || { fail "nats did not start"; finish; }
eval "$("$ROOT/scripts/servers" env | grep IDEMLAB_TEST_NATS)"
nats=$IDEMLAB_TEST_NATS
streams=0
fresh_stream() { streams=$((streams + 1)); queue=n$$-$streams; }
publish() { "$IDEMLAB" publish --broker "$nats" --queue "$queue" "$@"; }
consume() {  # DB ARGS...: until the stream is idle for $idle ms (half a second unless told)
  local db=$1; shift
  timeout -k 5 300 "$IDEMLAB" consume --broker "$nats" --queue "$queue" --db "$db" \
    --until-idle "${idle:-500}" "$@"
}
debits() { sql_on "$1" "SELECT count(*) FROM journal WHERE side = 'debit' AND biz_seq LIKE '$2-%'"; }
keys() { sql_on "$1" "SELECT count(DISTINCT biz_seq) FROM journal WHERE side = 'debit' AND biz_seq LIKE '$2-%'"; }
guarded=(select-insert direct-insert state-machine dedup-table select-for-update optimistic-lock
         lock-table)
strategy_args() {  # STRATEGY -> its options
  args=(--strategy "$1"); [ "$1" = select-for-update ] && args+=(--unique-index); return 0
}
db=$work/n.db
expect_exit 0 "$IDEMLAB" init --db "$db"

# Bad input: one error line, exit 2 (8 for a server that is not there), nothing changed.
before=$(digest "$db")
fresh_stream
expect_exit 2 "$IDEMLAB" publish --broker "$IDEMLAB_TEST_AMQP" --queue "$queue" --requests 1 --key business
expect_one_error_line
expect_contains "$err" "RabbitMQ dedups nothing"
expect_exit 2 "$IDEMLAB" consume --broker "$IDEMLAB_TEST_AMQP" --queue "$queue" --db "$db" \
  --strategy dedup-table --ack double
expect_contains "$err" "RabbitMQ does not confirm an ack"
expect_exit 2 "$IDEMLAB" consume --broker "$IDEMLAB_TEST_AMQP" --queue "$queue" --db "$db" \
  --strategy dedup-table --ack-wait-ms 100
expect_contains "$err" "keeps no ack wait"
expect_exit 2 "$IDEMLAB" publish --broker kafka://user:secret@127.0.0.1:1 --queue "$queue" --requests 1
expect_one_error_line
expect_contains "$err" "'kafka://' is not a broker's scheme"
[[ $err == *secret* ]] && fail "the error showed the password: $err"
expect_exit 2 publish --requests 1 --fault confirm-lost:p=0.1,delay-ms=soon
expect_one_error_line
expect_exit 2 "$IDEMLAB" publish --broker "$nats" --queue a.b --requests 1
expect_contains "$err" "letters, digits, _ and - only"
expect_exit 2 consume "$db" --strategy dedup-table
expect_contains "$err" "has no stream $queue: idemlab publish makes it"
expect_exit 8 "$IDEMLAB" publish --broker nats://127.0.0.1:1 --queue "$queue" --requests 1
expect_one_error_line
expect_exit 8 "$IDEMLAB" consume --broker nats://127.0.0.1:1 --queue "$queue" --db "$db" \
  --strategy dedup-table
expect_equal "$(digest "$db")" "$before" "bad input changed the ledger"

# The window absorbs a prompt retry: no strategy needed (the references' "the queue dedups").
window_absorbs() {  # DB REQUESTS
  local db=$1 requests=$2
  fresh_stream
  expect_exit 0 publish --requests "$requests" --prefix w --fault confirm-lost:p=0.2 --seed 5 --json
  local duplicates; duplicates=$(json_field "$out" duplicates)
  [ "$duplicates" -gt 0 ] || fail "$db: no publish was repeated"
  expect_equal "$(json_field "$out" messages)" "$requests" "$db: the stream stored one message a request"
  expect_equal "$(json_field "$out" copies)" 0 "$db: no copy got past the window"
  expect_exit 0 consume "$db" --strategy naive
  expect_equal "$(debits "$db" w)" "$requests" "$db: naive moved each of $requests requests once"
  expect_contains "$out" "audit: ok"
}
window_absorbs "$db" 500
expect_exit 0 "$IDEMLAB" init --db "$IDEMLAB_TEST_POSTGRES" --force
window_absorbs "$IDEMLAB_TEST_POSTGRES" 100

# A retry after the window (100 ms; the producer waits 500 ms after a lost ack): a new message.
# A fresh ledger: alice's 1,000.00 must cover the copies too.
db=$work/late.db
expect_exit 0 "$IDEMLAB" init --db "$db"
late_retries() {  # REQUESTS PREFIX STRATEGY -> copies
  fresh_stream
  expect_exit 0 publish --requests "$1" --prefix "$2" --duplicate-window-ms 100 \
    --fault confirm-lost:p=0.2,delay-ms=500 --seed 6 --json
  copies=$(json_field "$out" copies)
  expect_equal "$(json_field "$out" duplicates)" 0 "$2: a retry after the window is no duplicate"
  strategy_args "$3"
  expect_exit 0 consume "$db" "${args[@]}"
}
late_retries 500 late naive  # the bar: 500 requests, p=0.2
[ "$copies" -gt 0 ] || fail "no confirm was lost after the window"
expect_equal "$(debits "$db" late)" "$((500 + copies))" "naive moved each late copy again"
for strategy in "${guarded[@]}"; do
  late_retries 25 "l$strategy" "$strategy"
  expect_equal "$(debits "$db" "l$strategy")" 25 "$strategy: each of 25 requests moved once"
done

# The double ack does not stop a redelivery: the consumer dies after its commit, before its ack.
for strategy in naive "${guarded[@]:1:4}"; do
  fresh_stream
  expect_exit 0 publish --requests 5 --prefix "d$strategy"
  strategy_args "$strategy"
  expect_exit 137 consume "$db" "${args[@]}" --ack double --ack-wait-ms 1000 \
    --fault crash:after=commit,nth=3
  redelivered=0
  for _ in $(seq 1 40); do  # until ack_wait has run out and the server delivered it again
    expect_exit 0 consume "$db" "${args[@]}" --ack double --ack-wait-ms 1000 --json
    redelivered=$((redelivered + $(json_field "$out" redelivered)))
    [ "$redelivered" -gt 0 ] && break
  done
  expect_equal "$redelivered" 1 "$strategy: the killed consumer's message came back"
  case $strategy in
    naive) parity_live dbl-1 "$(pairs "$db" dnaive-3)" 0 ;;
    dedup-table) parity_live dbl-2 "$(pairs "$db" ddedup-table-3)" 0 ;;
  esac
  if [ "$strategy" = naive ]; then
    expect_equal "$(debits "$db" "d$strategy")" 6 "naive moved the redelivered message again"
  else
    expect_contains "$(json_field "$out" answers)" '"applied (replayed)": 1'
    expect_equal "$(debits "$db" "d$strategy")" 5 "$strategy: each of 5 requests moved once"
  fi
done

# Acked on receipt: the consumer dies mid-work, and the message is gone, as on RabbitMQ.
fresh_stream
expect_exit 0 publish --requests 5 --prefix auto
expect_exit 137 consume "$db" --strategy direct-insert --ack on-receipt --fault crash:after=debit,nth=2
expect_exit 0 consume "$db" --strategy direct-insert --ack on-receipt
expect_equal "$(keys "$db" auto)" 4 "acked on receipt, one request never moved"
expect_contains "$out" "acked_never_applied: request auto-2 was acked on receipt"

# The lesson: the window absorbs a prompt retry; a late one and a redelivery move naive twice.
expect_exit 11 "$IDEMLAB" lesson the-broker-dedups-for-a-window
expect_contains "$err" "needs --nats URL: scripts/servers up nats"
expect_exit 0 "$IDEMLAB" lesson the-broker-dedups-for-a-window --nats "$nats" --width 80
expect_contains "$out" "dropped by the stream as duplicates (its publish ack said so): 1 publish"
expect_contains "$out" "applied_more_than_once  api     b-2"
expect_contains "$out" "applied_more_than_once  api     c-2"
case $out in *"applied_more_than_once  api     d-"*) fail "dedup-table moved a d request twice" ;; esac

# The model against the servers (tests/e2e/parity.table): the window's cases, a request each.
parity_case() {  # CASE STRATEGY PUBLISH-ARGS...
  local case=$1 strategy=$2; shift 2
  fresh_stream
  expect_exit 0 publish --requests 1 --prefix "$case" "$@"
  expect_exit 0 consume "$db" --strategy "$strategy"
  parity_live "$case" "$(pairs "$db" "$case-1")"
}
parity_case win-1 naive --fault confirm-lost:nth=1
parity_case win-2 naive --duplicate-window-ms 100 --fault confirm-lost:nth=1,delay-ms=500
parity_case win-3 dedup-table --duplicate-window-ms 100 --fault confirm-lost:nth=1,delay-ms=500
parity_check nats

# nats-server SIGKILLed and restarted mid-run. The consumer is held at a gate before its 10th
# commit; the producer has published its first message, dropped its ack and sleeps 3 s before
# publishing it again, with 399 requests to go: stopped there (SIGSTOP), it is certain to be
# mid-run. The server dies and comes back on its store; both go on.
rdb=$work/restart.db
expect_exit 0 "$IDEMLAB" init --db "$rdb"
fresh_stream
expect_exit 0 publish --requests 50 --prefix a
gate=$work/gate
mkdir -p "$gate"
idle=3000 consume "$rdb" --strategy dedup-table --ack-wait-ms 1000 \
  --fault "slow:gate=$gate,at=commit,nth=10" >"$work/consumer.out" 2>&1 &
consumer=$!
wait_at_gate "$gate" "$consumer"
ls "$gate"/arrived.* >/dev/null 2>&1 || fail "the consumer never reached its gate"
publish --requests 400 --prefix p --fault confirm-lost:nth=1,delay-ms=3000 >"$work/producer.out" 2>&1 &
producer=$!
for _ in $(seq 1 6000); do grep -q "publishing p-1 again" "$work/producer.out" && break; sleep 0.01; done
kill -STOP "$producer"
grep -q "publishing p-1 again" "$work/producer.out" || fail "the producer never lost its ack"
[ "$(awk '/^State:/ {print $2}' "/proc/$producer/status")" = T ] || fail "the producer is not stopped"
expect_exit 0 "$ROOT/scripts/servers" nats kill
expect_exit 0 "$ROOT/scripts/servers" nats restart
kill -CONT "$producer"
touch "$gate/open"
wait_bounded "$producer" "the producer"
expect_equal "$wait_status" 0 "the producer rode out the restart: $(tail -n 2 "$work/producer.out")"
wait_bounded "$consumer" "the consumer"
expect_equal "$wait_status" 0 "the consumer rode out the restart: $(tail -n 2 "$work/consumer.out")"
idle=2000 expect_exit 0 consume "$rdb" --strategy dedup-table  # what came back late
expect_equal "$(keys "$rdb" a)$(debits "$rdb" a)" 5050 "every message stored before the kill moved once"
expect_equal "$(keys "$rdb" p)$(debits "$rdb" p)" 400400 "every acknowledged publish moved once"
expect_exit 0 "$IDEMLAB" audit --db "$rdb"
finish
