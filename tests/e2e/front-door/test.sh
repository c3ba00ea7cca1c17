# e2e: one front door. The same invalid field, sent through the command line, `idemlab http`,
# `idemlab serve` (over real HTTP) and `idemlab consume` (from a real RabbitMQ queue), is
# refused by each in the same words, the command line's; and nothing moves.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../serve_lib.sh"
require_test_servers
[ -n "${IDEMLAB_TEST_AMQP:-}" ] || { echo "FAIL: no IDEMLAB_TEST_AMQP (scripts/servers starts RabbitMQ)" >&2; exit 1; }
db=$work/l.db
expect_exit 0 "$IDEMLAB" init --db "$db"
start_serve --db "$db" --strategy dedup-table
queue=front-door-$$
amqp-declare-queue --url="$IDEMLAB_TEST_AMQP" -d -q "$queue" >/dev/null || fail "amqp-declare-queue"

# FIELD VALUE: from, to or amount given VALUE, the rest valid.
refused_alike() {
  local field=$1 value=$2 from=alice to=bob amount=1.00
  printf -v "$field" '%s' "$value"
  expect_exit 2 "$IDEMLAB" direct-insert --db "$db" --biz-seq fd1 --from "$from" --to "$to" \
    --amount "$amount"
  expect_one_error_line
  local words=${err#error: }
  [ -n "$words" ] || fail "$field=$value: the command line said nothing"
  local json
  json=$(/usr/bin/python3 -c 'import json,sys; print(json.dumps({"from":sys.argv[1],"to":sys.argv[2],"amount":sys.argv[3]}))' "$from" "$to" "$amount")

  expect_exit 2 "$IDEMLAB" http --db "$db" POST /transfers --idempotency-key fd1 --data "$json"
  expect_equal "$err" "error: $words (400 Bad Request)" "$field=$value through idemlab http"

  post fd1 "$json" -H 'Content-Type: application/json'
  expect_equal "$status" 400 "$field=$value through serve: status"
  expect_equal "$(json_field "$body" detail)" "$words" "$field=$value through serve"

  amqp-publish --url="$IDEMLAB_TEST_AMQP" -r "$queue" -p \
    -b "{\"source\":\"api\",\"biz_seq\":\"fd1\",\"from\":\"$from\",\"to\":\"$to\",\"amount\":\"$amount\"}" ||
    fail "amqp-publish"
  expect_exit 10 "$IDEMLAB" consume --broker "$IDEMLAB_TEST_AMQP" --queue "$queue" --db "$db" \
    --strategy dedup-table --until-idle 300
  expect_contains "$out" "refused: $words, set aside on $queue.dead"
}
refused_alike amount 1.234
refused_alike amount -5
refused_alike amount 0
refused_alike amount 99999999999999999
refused_alike from 'al ice'
refused_alike to "$(printf 'b%.0s' $(seq 1 33))"
stop_serve
expect_equal "$(sqlite3 "$db" "SELECT count(*) FROM journal")" 0 "nothing moved"
finish
