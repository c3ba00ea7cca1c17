# e2e: a ledger on a PostgreSQL primary with a hot standby (scripts/servers up postgres-standby),
# and the moves that make each case certain. With the standby's replay paused, a transfer the
# primary applied and answered is not_found on the standby: a client that asks the standby
# before retrying (read/write splitting) retries, and naive moves the money twice, while
# select-insert's unique key makes the retry a repeat; a query with --read-your-writes and the
# answer's commit_lsn asks the primary instead. Once replay resumes, the standby has it.
# With replication cut, a transfer applied and answered on the primary is gone after the
# failover: not_found on the promoted standby, which takes writes, and the audit held against
# the clients' answers names it (told_applied_not_in_ledger). One topology for the file.
source "$(dirname "$0")/../lib.sh"
require_test_servers
export IDEMLAB_SERVERS_STATE=$work/servers.state
trap '"$ROOT/scripts/servers" down' EXIT
"$ROOT/scripts/servers" up postgres-standby >/dev/null || { fail "the topology did not start"; finish; }
eval "$("$ROOT/scripts/servers" env)"
primary=$IDEMLAB_TEST_PG_PRIMARY standby=$IDEMLAB_TEST_PG_STANDBY
servers() { "$ROOT/scripts/servers" postgres "$@"; }
pay() {  # STRATEGY BIZ_SEQ: alice pays bob 1.00 on the primary
  "$IDEMLAB" "$1" --db "$primary" --biz-seq "$2" --from alice --to bob --amount 1.00
}
# Until the standby has replayed everything the primary has written (its LSN), bounded.
caught_up() {
  local lsn; lsn=$(psql -qAtX "$primary" -c "SELECT pg_current_wal_lsn()")
  for _ in $(seq 1 3000); do
    [ "$(psql -qAtX "$standby" -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" = t ] && return 0
    sleep 0.01
  done
  fail "the standby did not replay up to $lsn"
}
expect_exit 0 "$IDEMLAB" init --db "$primary"
caught_up
expect_exit 0 "$IDEMLAB" accounts --db "$standby"  # a hot standby answers reads

# Replay paused: applied and answered on the primary, not_found on the standby.
expect_exit 0 servers pause-replay
for strategy in naive select-insert; do
  expect_exit 0 pay "$strategy" "$strategy-1"
  expect_exit 9 "$IDEMLAB" query --db "$standby" --biz-seq "$strategy-1"
  expect_exit 0 pay "$strategy" "$strategy-1"  # the retry "not found" asked for
done
expect_equal "$(pairs "$primary" naive-1)" 2 "naive retried on a stale not_found: journal pairs"
expect_equal "$(pairs "$primary" select-insert-1)" 1 "select-insert's retry is a repeat"
# Read-your-writes: the answer gives the WAL position after the commit; a query that must read
# its own write trusts the standby only once it has replayed past it, and asks the primary until
# then. So the retry is not sent: the first attempt is found.
expect_exit 0 "$IDEMLAB" naive --db "$primary" --biz-seq ryw-1 --from alice --to bob --amount 1.00 --json
lsn=$(json_field "$out" commit_lsn)
[[ "$lsn" =~ ^[0-9A-F]+/[0-9A-F]+$ ]] || fail "an answer on PostgreSQL gives its commit_lsn: '$lsn'"
expect_exit 9 "$IDEMLAB" query --db "$primary" --read-db "$standby" --biz-seq ryw-1
expect_contains "$err" "(answered by the standby, which may lag behind the primary)"
expect_exit 0 "$IDEMLAB" query --db "$primary" --read-db "$standby" --read-your-writes "$lsn" \
  --biz-seq ryw-1
expect_contains "$out" "succeeded: ryw-1 moved money"
expect_contains "$out" "(answered by the primary: the standby had replayed only to"
expect_exit 0 "$IDEMLAB" query --db "$primary" --read-db "$standby" --read-your-writes "$lsn" \
  --biz-seq ryw-1 --json
expect_equal "$(json_field "$out" answered_by)" primary "who answered, in JSON"
# Bad input: one error line, exit 2.
expect_exit 2 "$IDEMLAB" query --db "$primary" --read-your-writes "$lsn" --biz-seq ryw-1
expect_one_error_line
expect_exit 2 "$IDEMLAB" query --db "$primary" --read-db "$standby" --read-your-writes 12 --biz-seq ryw-1
expect_one_error_line
expect_exit 2 "$IDEMLAB" query --db "$primary" --read-db "$work/x.db" --biz-seq ryw-1
expect_one_error_line

expect_exit 0 servers resume-replay
caught_up
expect_exit 0 "$IDEMLAB" query --db "$primary" --read-db "$standby" --read-your-writes "$lsn" \
  --biz-seq ryw-1
expect_contains "$out" "(answered by the standby, replayed to"
expect_exit 0 "$IDEMLAB" query --db "$standby" --biz-seq select-insert-1
expect_exit 7 "$IDEMLAB" audit --db "$standby"  # the standby has naive's second move too
expect_contains "$out" "applied_more_than_once"

# Replication cut: applied and answered, then gone at the failover.
# The clients keep what they were told (--json answers, one a line); the audit holds the ledger
# against them (--answers).
expect_exit 0 servers cut
expect_exit 0 "$IDEMLAB" select-insert --db "$primary" --biz-seq lost-1 --from alice --to bob \
  --amount 1.00 --json
printf '%s\n' "$out" >>"$work/told.jsonl"
expect_equal "$(json_field "$out" outcome)" applied "lost-1's answer"
expect_exit 7 "$IDEMLAB" audit --db "$primary" --answers "$work/told.jsonl"  # naive-1, above
case $out in *told_applied_not_in_ledger*) fail "the primary has lost-1: $out" ;; esac
expect_exit 0 servers failover
expect_exit 9 "$IDEMLAB" query --db "$standby" --biz-seq lost-1
expect_exit 7 "$IDEMLAB" audit --db "$standby" --answers "$work/told.jsonl" --json
expect_contains "$out" '{"kind":"told_applied_not_in_ledger","source":"api","biz_seq":"lost-1"'
expect_contains "$out" "a client was told lost-1 was applied; the journal has no transfer"
printf 'not json\n' >"$work/bad.jsonl"
expect_exit 0 "$IDEMLAB" select-insert --db "$standby" --biz-seq lost-1 --from alice --to bob \
  --amount 1.00  # the client retries what the ledger lost
expect_equal "$(pairs "$standby" lost-1)" 1 "the retry after the failover moved lost-1 once"
expect_exit 2 "$IDEMLAB" audit --db "$standby" --answers "$work/bad.jsonl"
expect_one_error_line
expect_contains "$err" "line 1"
expect_exit 0 "$IDEMLAB" select-insert --db "$standby" --biz-seq after-1 --from alice --to bob \
  --amount 1.00  # the promoted standby takes writes
finish
