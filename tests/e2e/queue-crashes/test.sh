# e2e: scripts/queue-redelivery, the classroom run, on a real RabbitMQ: 500 requests, about 10%
# published twice through lost confirms, 4 consumers acking after the commit, 10 of them killed
# by SIGKILL at random and replaced: every request moves money exactly once, and the broker
# redelivered what the killed ones held. Then the two pitfalls: acking on receipt with consumers
# that crash mid-work loses requests; keying by the broker's message id lets the copies through.
source "$(dirname "$0")/../lib.sh"
require_test_servers
[ -n "${IDEMLAB_TEST_AMQP:-}" ] || { echo "FAIL: no IDEMLAB_TEST_AMQP (scripts/servers starts RabbitMQ)" >&2; exit 1; }
own_server_databases queue-crashes
run() { IDEMLAB_BROKER=$IDEMLAB_TEST_AMQP expect_exit "$@"; }
redelivered() { printf '%s' "$out" | sed -n 's/.* \([0-9]*\) redelivered$/\1/p'; }

# Each consumer also dies at its tenth delivery, inside its transaction, the message unacked:
# the first kill waits for 45 transfers, more than 4 consumers can make without one of them
# reaching its tenth, so a redelivery is certain, not likely.
for db in "$work/crashes.db" "$IDEMLAB_TEST_POSTGRES"; do
  run 0 "$ROOT/scripts/queue-redelivery" --db "$db" --requests 500 --consumers 4 --kills 10 \
    --lost-confirms 0.1 --seed 3 -- --fault crash:after=begin,nth=10
  expect_contains "$out" "of 500 requests, 500 moved money exactly once, 0 never, 0 more than once"
  [ "$(redelivered)" -gt 0 ] || fail "$db: the broker redelivered nothing: $out"
  expect_exit 0 "$IDEMLAB" audit --db "$db"
done

# No copies here, so that each consumer's fifth delivery is a first attempt, which dies after
# its BEGIN with the message already acked: at least one consumer gets five.
run 1 "$ROOT/scripts/queue-redelivery" --db "$work/receipt.db" --requests 60 --kills 0 \
  --lost-confirms 0 -- --ack on-receipt --fault crash:after=begin,nth=5
case $out in *" 0 never"*) fail "acked on receipt, crashing consumers lost nothing: $out" ;; esac
expect_exit 7 "$IDEMLAB" audit --db "$work/receipt.db"
expect_contains "$out" "acked_never_applied"
run 1 "$ROOT/scripts/queue-redelivery" --db "$work/offset.db" --requests 60 --kills 0 \
  --lost-confirms 0.2 --seed 5 -- --key message-id
case $out in *" 0 more than once"*) fail "keyed by message id, no copy moved money: $out" ;; esac
expect_exit 7 "$IDEMLAB" audit --db "$work/offset.db"
expect_contains "$out" "applied_once_per_message"
finish
