# e2e: each engine-specific row of the README's engines table, asserted on PostgreSQL 15 and
# MariaDB 10.11 as they really answer. Two attempts are held at a gate before the step where
# they meet, and the gate opens only once both have arrived (or ended): the overlap is certain.
# - select-for-update on a missing row, with --unique-index: PostgreSQL's loser waits on the
#   key, meets 23505 and replays; MariaDB's gap locks deadlock (1213): busy;
# - opposite transfers locking the two accounts in turn: a deadlock on both, one victim;
# - state-machine's UPDATE ... WHERE status: the loser waits, then claims 0 rows and replays
#   (READ COMMITTED; MariaDB REPEATABLE READ), or meets 40001 (PostgreSQL REPEATABLE READ);
# - a write skew under SERIALIZABLE (select-for-update twins, no unique index): PostgreSQL
#   40001, MariaDB 1213; one transfer either way;
# - MariaDB's snapshot after a waited-for UPDATE of 0 rows: a plain SELECT in the same
#   transaction still reads the old status, PostgreSQL's READ COMMITTED the new one;
# - the lesson "one strategy, three engines", run on the servers.
source "$(dirname "$0")/../lib.sh"
require_test_servers
own_server_databases engine-rows
pg=$IDEMLAB_TEST_POSTGRES maria=$IDEMLAB_TEST_MARIADB
source "$ROOT/tests/e2e/sql_sessions.sh"

gate_at=critical
start_twin() {  # N ARGS...: one attempt, held at the gate before step $gate_at
  local n=$1; shift
  ( "$IDEMLAB" "$@" --fault "slow:gate=$work/gate,at=$gate_at" --json >"$work/twin$n.json" 2>"$work/twin$n.err"
    touch "$work/gate/ended.$n" ) &
}
open_gate() {  # N: once N twins have arrived at the gate or ended, open it; wait for them all
  local _
  for _ in $(seq 1 6000); do
    [ "$(find "$work/gate" -name 'arrived.*' -o -name 'ended.*' | wc -l)" -ge "$1" ] && break
    sleep 0.01
  done
  touch "$work/gate/open"
  wait
}
answers() {  # the twins' answers, sorted: "applied", "applied replayed", "busy deadlock", ...
  python3 -c '
import json, sys
out = []
for path in sys.argv[1:]:
    a = json.load(open(path))
    a = a.get("error", a)
    words = [a.get("outcome", a.get("code", "?"))]
    if a.get("replayed"): words.append("replayed")
    if a.get("outcome") != "applied" and a.get("reason"): words.append(a["reason"])
    out.append(" ".join(words))
print("; ".join(sorted(out)))' "$work"/twin*.json
}
twins() {  # DB ARGS...: two attempts of one request at the gate -> $got (answers), $pairs
  local db=$1; shift
  "$IDEMLAB" init --force --db "$db" >/dev/null
  rm -rf "$work/gate" "$work"/twin*.json; mkdir "$work/gate"
  start_twin 1 "$@" --db "$db" --biz-seq t1 --from alice --to bob --amount 1
  start_twin 2 "$@" --db "$db" --biz-seq t1 --from alice --to bob --amount 1
  open_gate 2
  got=$(answers) pairs=$(moved "$db")
}

# select-for-update on a row that does not exist yet, under the unique index.
twins "$pg" select-for-update --unique-index
expect_equal "$got" "applied; applied replayed" "PostgreSQL: FOR UPDATE + unique index, answers"
expect_equal "$pairs" 1 "PostgreSQL: FOR UPDATE + unique index, journal pairs"
twins "$maria" select-for-update --unique-index
expect_equal "$got" "applied; busy deadlock" "MariaDB: FOR UPDATE + unique index, answers"
expect_equal "$pairs" 1 "MariaDB: FOR UPDATE + unique index, journal pairs"

# Write skew under SERIALIZABLE: both read "absent", both insert.
twins "$pg" select-for-update --isolation serializable
expect_equal "$got" "applied; busy serialization_failure" "PostgreSQL SERIALIZABLE: answers"
expect_equal "$pairs" 1 "PostgreSQL SERIALIZABLE: journal pairs"
twins "$maria" select-for-update --isolation serializable
expect_equal "$got" "applied; busy deadlock" "MariaDB SERIALIZABLE: answers"
expect_equal "$pairs" 1 "MariaDB SERIALIZABLE: journal pairs"

# UPDATE ... WHERE status = processing from both twins, inside their transactions.
gate_at=claim_flow
twins "$pg" state-machine
expect_equal "$got" "applied; applied replayed" "PostgreSQL READ COMMITTED: state-machine"
# PostgreSQL REPEATABLE READ: B meets 40001 only if its snapshot predates A's commit, and B's
# snapshot is taken by its UPDATE, so a shared gate cannot promise it (A may commit first, and B
# then claims 0 rows and replays). A claims the row and holds it at its gate before debit; B runs
# free until the server shows it waiting for A's lock; only then does A go on.
held_claim() {  # DB ARGS...: A holds the claimed row until B waits for it -> $got, $pairs
  local db=$1; shift
  local transfer=(state-machine "$@" --db "$db" --biz-seq t1 --from alice --to bob --amount 1)
  "$IDEMLAB" init --force --db "$db" >/dev/null
  rm -rf "$work/gate" "$work"/twin*.json; mkdir "$work/gate"
  gate_at=debit start_twin 1 "${transfer[@]}"
  local _
  for _ in $(seq 1 6000); do
    [ -n "$(find "$work/gate" -name 'arrived.*' -o -name 'ended.*')" ] && break; sleep 0.01
  done
  ( "$IDEMLAB" "${transfer[@]}" --json >"$work/twin2.json" 2>"$work/twin2.err"
    touch "$work/gate/ended.2" ) &
  for _ in $(seq 1 6000); do
    [ -e "$work/gate/ended.2" ] || [ "$(waiting_sessions "$db")" -ge 1 ] && break; sleep 0.01
  done
  touch "$work/gate/open"
  wait
  got=$(answers) pairs=$(moved "$db")
}
held_claim "$pg" --isolation repeatable-read
expect_equal "$got" "applied; busy serialization_failure" "PostgreSQL REPEATABLE READ: state-machine"
expect_equal "$pairs" 1 "PostgreSQL REPEATABLE READ: state-machine, journal pairs"
twins "$maria" state-machine
expect_equal "$got" "applied; applied replayed" "MariaDB REPEATABLE READ: state-machine"
expect_equal "$pairs" 1 "MariaDB REPEATABLE READ: state-machine, journal pairs"

# A deadlock: alice pays bob while bob pays alice; each debit locks its payer's row, and both
# wait at the gate before their credit, which needs the other's.
gate_at=credit
for db in "$pg" "$maria"; do
  "$IDEMLAB" init --force --db "$db" >/dev/null
  rm -rf "$work/gate" "$work"/twin*.json; mkdir "$work/gate"
  start_twin 1 select-insert --db "$db" --biz-seq d1 --from alice --to bob --amount 1
  start_twin 2 select-insert --db "$db" --biz-seq d2 --from bob --to alice --amount 2
  open_gate 2
  expect_equal "$(answers)" "applied; busy deadlock" "deadlock on ${db%%:*}: answers"
  expect_equal "$(moved "$db")" 1 "deadlock on ${db%%:*}: journal pairs (the victim rolled back)"
  expect_exit 0 "$IDEMLAB" audit --db "$db"
done

# The snapshot after a waited-for UPDATE, in SQL: session A claims the row and holds it; B
# reads it (its snapshot), then its UPDATE waits for A. The test sees B waiting on the server
# before A commits; B then updates 0 rows and reads the status again.
snapshot_after_wait() {  # URL -> what B reads after its UPDATE waited and changed nothing
  "$IDEMLAB" init --force --db "$1" >/dev/null
  # state-machine's own row, left processing (1) by a crash after it was created.
  "$IDEMLAB" state-machine --db "$1" --biz-seq s1 --from alice --to bob --amount 1 \
    --fault crash:after=create_flow >/dev/null 2>&1
  local claim="UPDATE transfer_flow SET status = 2 WHERE biz_seq = 's1' AND status = 1;"
  sql_session a "$1"; sql_session b "$1"
  exec 8>"$work/a.fifo" 9>"$work/b.fifo"
  printf "BEGIN;\n%s\nSELECT 'a-holds';\n" "$claim" >&8
  until_output a a-holds
  printf "BEGIN;\nSELECT 'b-reads', status FROM transfer_flow WHERE biz_seq = 's1';\n%s\n" "$claim" >&9
  until_output b b-reads
  local _
  for _ in $(seq 1 6000); do [ "$(waiting_sessions "$1")" -ge 1 ] && break; sleep 0.01; done
  printf "COMMIT;\n" >&8; exec 8>&-
  printf "SELECT 'b-sees', status FROM transfer_flow WHERE biz_seq = 's1';\nROLLBACK;\n" >&9
  exec 9>&-
  wait
  grep b-sees "$work/b.out" | tr '|\t' '  ' | awk '{print $2}'
}
# The lesson "one strategy, three engines" on this test's databases: every step ends as the
# lesson says, the verdicts are each engine's own, and a second run prints the same bytes.
expect_exit 0 "$IDEMLAB" lesson one-strategy-three-engines --postgres "$pg" --mariadb "$maria"
first=$out
expect_equal "$(grep -c "moved money 2 times" <<<"$out")" 1 "lesson: the double, on PostgreSQL alone"
expect_equal "$(grep -c "ok: 1 transfer applied" <<<"$out")" 3 "lesson: one transfer, on the others"
expect_equal "$(grep -c "(deadlock)" <<<"$out")" 2 "lesson: MariaDB's deadlocks"
expect_contains "$out" "(left out: no --galera URL; scripts/servers up galera starts one)"
case "$out" in *skipped*|*idemlab:idemlab*|*/dev/shm*) fail "lesson: skipped, or a URL shown" ;; esac
expect_exit 0 "$IDEMLAB" lesson one-strategy-three-engines --postgres "$pg" --mariadb "$maria"
expect_equal "$out" "$first" "lesson twice: the same bytes"
# The block it prints to paste holds each pair of twins at the gate until both wait there (or one
# gave up), as the lesson's own run does: pasted into a shell, PostgreSQL moves the money twice.
mkdir "$work/pasted"
(cd "$work/pasted" && PATH="$(dirname "$IDEMLAB"):$PATH" POSTGRES=$pg MARIADB=$maria \
  bash -c "$(sed '1,/^Run it again/d' <<<"$first")") >"$work/pasted.out" 2>&1
expect_equal "$(grep -c "moved money 2 times" "$work/pasted.out")" 1 "pasted: the double, on PostgreSQL"
expect_equal "$(grep -c "ok: 1 transfer applied" "$work/pasted.out")" 3 "pasted: one transfer, on the others"
expect_exit 2 "$IDEMLAB" lesson one-strategy-three-engines --postgres "$maria"
expect_one_error_line
expect_contains "$err" "--postgres takes a postgresql URL"

expect_equal "$(snapshot_after_wait "$pg")" 2 "PostgreSQL READ COMMITTED: B reads the new status"
expect_equal "$(snapshot_after_wait "$maria")" 1 "MariaDB REPEATABLE READ: B still reads its snapshot"
finish
