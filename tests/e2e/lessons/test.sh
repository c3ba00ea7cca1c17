# e2e: every lesson runs green (each step ends as the lesson says), lists at least 12, and a
# lesson's simulator output is the same bytes on a second run.
source "$(dirname "$0")/../lib.sh"
expect_exit 0 "$IDEMLAB" lesson --list --json
count=$(printf '%s' "$out" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["lessons"]))')
[ "$count" -ge 12 ] || fail "only $count lessons"
# A lesson runs whole, or, without a server it needs, not at all: exit 11 and one line naming
# what to start. Here no server is named, whatever the environment holds. Each lesson runs
# once, at a projector's 80 columns (characters, not bytes); the checks below read that run.
no_servers=(env -u IDEMLAB_BROKER -u IDEMLAB_DB "$IDEMLAB")
names=$("$IDEMLAB" lesson --list --json | python3 -c '
import json, sys
for lesson in json.load(sys.stdin)["lessons"]: print(lesson["name"])')
needs=0
declare -A shown  # a lesson's name -> its output
for n in $(seq 1 "$count"); do
  "${no_servers[@]}" lesson "$n" --width 80 >"$work/out" 2>"$work/err"
  rc=$?
  out=$(cat "$work/out") err=$(cat "$work/err")
  case $rc in
    0) expect_contains "$out" "Lesson $n:"
       expect_contains "$out" "Run it again"
       widest=$(python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in sys.stdin))' <"$work/out")
       [ "$widest" -le 80 ] || fail "lesson $n is $widest columns wide at --width 80"
       shown[$(sed -n "${n}p" <<<"$names")]=$out ;;
    11) expect_equal "$out" "" "lesson $n without its servers prints nothing on standard output"
        expect_equal "$(printf '%s\n' "$err" | grep -c .)" 1 "lines lesson $n says it needs"
        expect_contains "$err" "scripts/servers up"
        needs=$((needs + 1)) ;;
    *) fail "lesson $n exits $rc without servers" ;;
  esac
done
expect_equal "$needs" 9 "lessons that need a server (RabbitMQ twice, the engines, five replicated, JetStream)"
expect_exit 11 "${no_servers[@]}" lesson queue-redelivers
expect_contains "$err" "needs --broker URL: scripts/servers up rabbitmq"
expect_exit 11 "${no_servers[@]}" lesson one-strategy-three-engines --json
expect_contains "$out" '"ran":false'
# Each lesson is titled as a lesson, not by a command's one-line help.
expect_exit 0 "$IDEMLAB" lesson --list
expect_contains "$out" "The references (000 to 004"
"$IDEMLAB" lesson --list --json | python3 -c '
import json, sys
for lesson in json.load(sys.stdin)["lessons"]:
    assert lesson["title"][:1].isupper(), "lesson %s is titled %r" % (lesson["number"], lesson["title"])
' || fail "a lesson titled by a command's one-line help"
expect_contains "${shown[timeout-is-unknown]}" "applied_more_than_once"
expect_contains "${shown[timeout-is-unknown]}" "applied (replayed): t2"
expect_exit 0 "$IDEMLAB" lesson same-answer --width 80
expect_equal "$out" "${shown[same-answer]}" "lesson same-answer twice"
expect_contains "$out" "+success-on-duplicate"
# Lessons 6 and 7 of the topics: an absolute set against an increment, and HTTP methods.
expect_contains "${shown[natural-idempotence]}" "limit: alice 70.00 (was 60.00)"
expect_contains "${shown[natural-idempotence]}" "rejected: over_limit (n2)"
expect_contains "${shown[http-methods]}" "Location: /transfers/auto-"
expect_contains "${shown[http-methods]}" "Idempotent-Replayed: true"
# The client retries over HTTP: without a key the retry pays again, with one it is a replay.
expect_contains "${shown[client-retries-over-http]}" "alice     980.00"
expect_contains "${shown[client-retries-over-http]}" "alice     970.00"
expect_contains "${shown[client-retries-over-http]}" "pay-1    dedup-table  applied          yes"
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
expect_exit 2 "$IDEMLAB" lesson 99
expect_one_error_line
finish
