# e2e: every lesson runs green (each step ends as the lesson says), lists at least 12, and a
# lesson's simulator output is the same bytes on a second run.
source "$(dirname "$0")/../lib.sh"
expect_exit 0 "$IDEMLAB" lesson --list --json
count=$(printf '%s' "$out" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["lessons"]))')
[ "$count" -ge 12 ] || fail "only $count lessons"
# A lesson runs whole, or, without a server it needs, not at all: exit 11 and one line naming
# what to start. Here no server is named, whatever the environment holds.
no_servers=(env -u IDEMLAB_BROKER -u IDEMLAB_DB "$IDEMLAB")
needs=0
for n in $(seq 1 "$count"); do
  "${no_servers[@]}" lesson "$n" >/dev/null 2>&1
  case $? in
    0) expect_exit 0 "${no_servers[@]}" lesson "$n"
       expect_contains "$out" "Lesson $n:"
       expect_contains "$out" "Run it again" ;;
    11) expect_exit 11 "${no_servers[@]}" lesson "$n"
        expect_equal "$out" "" "lesson $n without its servers prints nothing on standard output"
        expect_equal "$(printf '%s\n' "$err" | grep -c .)" 1 "lines lesson $n says it needs"
        expect_contains "$err" "scripts/servers up"
        needs=$((needs + 1)) ;;
    *) fail "lesson $n exits $? without servers" ;;
  esac
done
expect_equal "$needs" 7 "lessons that need a server (the queue twice, the engines, four replicated)"
expect_exit 11 "${no_servers[@]}" lesson queue-redelivers
expect_contains "$err" "needs --broker URL: scripts/servers up rabbitmq"
expect_exit 11 "${no_servers[@]}" lesson one-strategy-three-engines --json
expect_contains "$out" '"ran":false'
# Each lesson is titled as a lesson, not by a command's one-line help.
expect_exit 0 "$IDEMLAB" lesson --list
expect_contains "$out" "The references (000 to 004"
for n in $(seq 1 "$count"); do
  title=$("$IDEMLAB" lesson --list --json | python3 -c "import json,sys; print(json.load(sys.stdin)['lessons'][$n-1]['title'])")
  [[ "$title" =~ ^[A-Z] ]] || fail "lesson $n is titled '$title'"
done
expect_exit 0 "$IDEMLAB" lesson timeout-is-unknown
expect_contains "$out" "applied_more_than_once"
expect_contains "$out" "applied (replayed): t2"
expect_exit 0 "$IDEMLAB" lesson same-answer
first=$out
expect_exit 0 "$IDEMLAB" lesson same-answer
expect_equal "$out" "$first" "lesson same-answer twice"
expect_contains "$out" "+success-on-duplicate"
# Lessons 6 and 7 of the topics: an absolute set against an increment, and HTTP methods.
expect_exit 0 "$IDEMLAB" lesson natural-idempotence
expect_contains "$out" "limit: alice 70.00 (was 60.00)"
expect_contains "$out" "rejected: over_limit (n2)"
expect_exit 0 "$IDEMLAB" lesson http-methods
expect_contains "$out" "Location: /transfers/auto-"
expect_contains "$out" "Idempotent-Replayed: true"
# The client retries over HTTP: without a key the retry pays again, with one it is a replay.
expect_exit 0 "$IDEMLAB" lesson client-retries-over-http
expect_contains "$out" "alice     980.00"
expect_contains "$out" "alice     970.00"
expect_contains "$out" "pay-1    dedup-table  applied          yes"
# The queue lessons, on the test broker when there is one (scripts/test starts it).
if [ -n "${IDEMLAB_TEST_AMQP:-}" ]; then
  expect_exit 0 "$IDEMLAB" lesson offset-is-not-a-key --broker "$IDEMLAB_TEST_AMQP"
  expect_contains "$out" "alice     995.00"
  expect_contains "$out" "alice     991.00"
  expect_exit 0 "$IDEMLAB" lesson queue-redelivers --broker "$IDEMLAB_TEST_AMQP"
  expect_contains "$out" "redelivered (c-2.1): c-2 alice→bob 1.00: applied (replayed), acked"
  first=$out
  expect_exit 0 "$IDEMLAB" lesson queue-redelivers --broker "$IDEMLAB_TEST_AMQP"
  expect_equal "$out" "$first" "lesson queue-redelivers twice"
fi
# Every lesson fits a projector's 80 columns (characters, not bytes).
for n in $(seq 1 "$count"); do
  "${no_servers[@]}" lesson "$n" >/dev/null 2>&1 || continue  # needs a server: shown above
  expect_exit 0 "$IDEMLAB" lesson "$n" --width 80
  widest=$(printf '%s\n' "$out" | python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in sys.stdin))')
  [ "$widest" -le 80 ] || fail "lesson $n is $widest columns wide at --width 80"
done
expect_exit 2 "$IDEMLAB" lesson 99
expect_one_error_line
finish
