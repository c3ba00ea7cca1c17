# e2e: a ledger on a PostgreSQL primary whose standby is synchronous (scripts/servers up
# postgres-standby-sync). With the link cut, every COMMIT waits for the standby; the test
# cancels the wait (pg_cancel_backend on the waiting backend, found waiting, so certain). libpq
# then reports the COMMIT as a success, with only a WARNING notice saying it "might not have
# been replicated": idemlab answers unknown (75), never applied. The transfer is on the primary
# (a query there answers succeeded) and, after a failover to the standby, gone; the retry then
# moves the money once. A commit acknowledged while the standby was linked survives. A
# simulation on the server when it fails over stops with 75, and runs again on the new primary.
# explore on the server rides a failover under it out (below).
source "$(dirname "$0")/../lib.sh"
require_test_servers
export IDEMLAB_SERVERS_STATE=$work/servers.state
trap '"$ROOT/scripts/servers" down' EXIT
"$ROOT/scripts/servers" up postgres-standby-sync >/dev/null || { fail "the topology did not start"; finish; }
eval "$("$ROOT/scripts/servers" env)"
primary=$IDEMLAB_TEST_PG_PRIMARY standby=$IDEMLAB_TEST_PG_STANDBY
expect_exit 0 "$IDEMLAB" init --db "$primary"
# Linked, a synchronous standby has every acknowledged commit: kept-1 survives the failover.
expect_exit 0 "$IDEMLAB" naive --db "$primary" --biz-seq kept-1 --from alice --to bob --amount 1.00
expect_exit 0 "$ROOT/scripts/servers" postgres cut

# Cancels the wait of the idemlab backend waiting for the synchronous standby, once one waits.
cancel_sync_wait() {
  for _ in $(seq 1 6000); do
    [ "$(psql -qAtX "$primary" -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE
      application_name = 'idemlab' AND wait_event = 'SyncRep'")" = t ] && return 0
    kill -0 "$attempt" 2>/dev/null || return 0
    sleep 0.01
  done
  fail "no COMMIT waited for the standby"
}
"$IDEMLAB" naive --db "$primary" --biz-seq s1 --from alice --to bob --amount 1.00 \
  >"$work/s1.out" 2>"$work/s1.err" &
attempt=$!
cancel_sync_wait  # the transfer's COMMIT
cancel_sync_wait  # the attempts log's
wait "$attempt"
expect_equal "$?" 75 "a COMMIT not known to be replicated: unknown"
expect_contains "$(cat "$work/s1.err")" "might not have been replicated to the synchronous standby"
expect_equal "$(cat "$work/s1.out")" "" "nothing says applied"
expect_equal "$(pairs "$primary" s1)" 1 "the primary has the transfer (committed locally)"
expect_exit 0 "$IDEMLAB" query --db "$primary" --biz-seq s1  # the query settles the unknown

# A simulation on the ledger's server through the candidates URL, its scratch ledger's first
# commit waiting for the cut standby (found waiting, so certain): the failover ends it with one
# line, 75, safe to run again; run again, it finds the new primary.
candidates=$IDEMLAB_TEST_PG_CANDIDATES
"$IDEMLAB" simulate --db "$candidates" --strategy dedup-table --requests 20 >"$work/sim.out" \
  2>"$work/sim.err" &
sim=$!
for _ in $(seq 1 6000); do
  [ "$(psql -qAtX "$primary" -c "SELECT count(*) FROM pg_stat_activity
    WHERE wait_event = 'SyncRep'")" -gt 0 ] && break
  kill -0 "$sim" 2>/dev/null || break
  sleep 0.01
done
kill -0 "$sim" 2>/dev/null || fail "the simulation ended before the failover: $(cat "$work/sim.err")"
expect_exit 0 "$ROOT/scripts/servers" postgres failover
wait "$sim"
expect_equal "$?" 75 "a simulation whose server failed over"
err=$(cat "$work/sim.err")
expect_one_error_line
expect_contains "$err" "lost the connection"
expect_exit 0 "$IDEMLAB" simulate --db "$candidates" --strategy dedup-table --requests 20
expect_exit 0 "$IDEMLAB" query --db "$standby" --biz-seq kept-1
expect_exit 9 "$IDEMLAB" query --db "$standby" --biz-seq s1
expect_exit 0 "$IDEMLAB" naive --db "$standby" --biz-seq s1 --from alice --to bob --amount 1.00
expect_equal "$(pairs "$standby" s1)" 1 "after the failover the retry moved the money once"
expect_exit 0 "$IDEMLAB" audit --db "$standby"

# explore on the server, through a failover of it. The stopped node rejoins as the standby;
# a run explores once undisturbed, then again, stopped (SIGSTOP) while one of its attempts
# certainly holds a transaction open on the primary, which fails over under it. Continued, it
# finds its links lost, connects again through the topology, runs the cut interleaving again,
# and ends with the undisturbed run's counts.
expect_exit 0 "$ROOT/scripts/servers" postgres rejoin
explore=("$IDEMLAB" explore --db "$candidates" --strategy dedup-table -k 3 --max-interleavings 300
  --json)
explore_through_failover "$standby" "$ROOT/scripts/servers" postgres failover
finish
