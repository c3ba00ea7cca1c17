# e2e: a ledger on a PostgreSQL primary with a hot standby (scripts/servers up postgres-standby),
# and the moves that make each case certain. With the standby's replay paused, a transfer the
# primary applied and answered is not_found on the standby: a client that asks the standby
# before retrying (read/write splitting) retries, and naive moves the money twice, while
# select-insert's unique key makes the retry a repeat. Once replay resumes, the standby has it.
# With replication cut, a transfer applied and answered on the primary is gone after the
# failover: not_found on the promoted standby, which takes writes. One topology for the file.
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
expect_exit 0 servers resume-replay
caught_up
expect_exit 0 "$IDEMLAB" query --db "$standby" --biz-seq select-insert-1
expect_exit 7 "$IDEMLAB" audit --db "$standby"  # the standby has naive's second move too
expect_contains "$out" "applied_more_than_once"

# Replication cut: applied and answered, then gone at the failover.
expect_exit 0 servers cut
expect_exit 0 pay select-insert lost-1
expect_contains "$out" "applied: lost-1"
expect_exit 0 servers failover
expect_exit 9 "$IDEMLAB" query --db "$standby" --biz-seq lost-1
expect_exit 0 "$IDEMLAB" select-insert --db "$standby" --biz-seq after-1 --from alice --to bob \
  --amount 1.00  # the promoted standby takes writes
finish
