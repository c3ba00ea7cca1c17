# e2e: the same strategy on SQLite, PostgreSQL (READ COMMITTED) and MariaDB (REPEATABLE READ),
# each run for real and judged from its own journal:
# - select-for-update twins on a row that does not exist yet, both held at a gate after their
#   SELECT ... FOR UPDATE (certain overlap): SQLite's BEGIN IMMEDIATE lets one through; on
#   PostgreSQL the select locks nothing and, with no unique index, both commit (money moves
#   twice); on MariaDB the gap locks deadlock the INSERTs (1213): one row;
# - select-insert twins (unique index) at the same gate: the loser meets 23505 / 1062 and takes
#   the repeat path;
# - a row lock the test holds: 55P03 / 1205 is in_progress (exit 5), the whole attempt rolled
#   back, MariaDB included;
# - the connection killed mid-attempt: exit 75, connection_lost;
# - the safe strategies in a race of 16 processes: money moves once, the audit is clean.
source "$(dirname "$0")/../lib.sh"
require_test_servers
own_server_databases engines
pg=$IDEMLAB_TEST_POSTGRES maria=$IDEMLAB_TEST_MARIADB
maria_db=$(db_name "$maria")
maria_socket=${maria##*socket=}

# A second session on the server, fed through a FIFO: holds what it is told until released.
hold_session() {  # URL SQL: run SQL (which takes a lock) in a session kept open
  rm -f "$work/session.fifo" "$work/session.out"
  mkfifo "$work/session.fifo"
  case $1 in
    postgresql://*) psql -qAtX "$1" <"$work/session.fifo" >"$work/session.out" 2>&1 & ;;
    *) mariadb --no-defaults -n -N -S "$maria_socket" -u idemlab -pidemlab "$maria_db" \
         <"$work/session.fifo" >"$work/session.out" 2>&1 & ;;
  esac
  session=$!
  exec 8>"$work/session.fifo"
  printf '%s\nSELECT %s;\n' "$2" "'held'" >&8
  local _
  for _ in $(seq 1 6000); do grep -q held "$work/session.out" 2>/dev/null && return 0; sleep 0.01; done
  fail "the session never took its lock: $(cat "$work/session.out")"
}
release_session() {
  printf 'ROLLBACK;\n' >&8
  exec 8>&-
  wait "$session"
}
race() {  # DB STRATEGY ARGS... -> $pairs, $audit, $work/race.out
  local db=$1; shift
  "$IDEMLAB" init --force --db "$db" >/dev/null
  IDEMLAB_DB=$db "$ROOT/scripts/race" "$@" --biz-seq r1 >"$work/race.out" 2>&1
  audit=$?
  pairs=$(moved "$db")
}

sqlite_db=$work/engines.db
# select-for-update on a missing row, no unique index: the engines disagree.
race "$sqlite_db" select-for-update -n 2 --gate --busy-timeout-ms 1000
expect_equal "$pairs" 1 "SQLite: select-for-update twins, journal pairs"
race "$pg" select-for-update -n 2 --gate
expect_equal "$pairs" 2 "PostgreSQL READ COMMITTED: FOR UPDATE locks no missing row, journal pairs"
expect_equal "$audit" 7 "PostgreSQL: the audit names the double"
grep -q applied_more_than_once "$work/race.out" || fail "PostgreSQL: no applied_more_than_once"
race "$maria" select-for-update -n 2 --gate
expect_equal "$pairs" 1 "MariaDB REPEATABLE READ: gap locks, journal pairs"
expect_equal "$audit" 0 "MariaDB: audit clean"
grep -qE "^ +1 busy$" "$work/race.out" || fail "MariaDB: the deadlock's victim did not answer busy: $(cat "$work/race.out")"
# The same twins at READ COMMITTED on MariaDB: no gap locks, as on PostgreSQL.
race "$maria" select-for-update -n 2 --gate --isolation read-committed
expect_equal "$pairs" 2 "MariaDB READ COMMITTED: journal pairs"

# select-insert twins: the unique index stops the second INSERT (23505 / 1062), a repeat.
for db in "$pg" "$maria"; do
  race "$db" select-insert -n 2 --gate
  expect_equal "$pairs" 1 "select-insert on ${db%%:*}: journal pairs"
  expect_equal "$audit" 0 "select-insert on ${db%%:*}: audit"
  grep -qE "applied \(replayed\)|in_progress" "$work/race.out" ||
    fail "select-insert on ${db%%:*}: the loser did not take the repeat path: $(cat "$work/race.out")"
done

# A row lock held by another session: the attempt waits its limit, then in_progress (exit 5),
# with nothing of it left behind.
for db in "$pg" "$maria"; do
  "$IDEMLAB" init --force --db "$db" >/dev/null
  hold_session "$db" "BEGIN; UPDATE account SET balance_minor = balance_minor WHERE name = 'alice';"
  expect_exit 5 "$IDEMLAB" naive --db "$db" --biz-seq w1 --from alice --to bob --amount 1 \
    --busy-timeout-ms 300 --json
  expect_contains "$out" '"reason":"lock_wait_timeout"'
  release_session
  expect_equal "$(moved "$db")" 0 "lock wait on ${db%%:*}: money moved"
  expect_exit 9 "$IDEMLAB" query --db "$db" --biz-seq w1
done

# The connection killed while the attempt waits at a gate, inside its transaction: the next
# statement finds it gone. Exit 75 (unknown, safe to retry); nothing committed.
kill_sessions() {
  case $1 in
    postgresql://*) psql -qAtX "$1" -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'idemlab' AND datname = '$(db_name "$1")'" >/dev/null ;;
    *) for id in $(mariadb --no-defaults -N -S "$maria_socket" -u root -e "SELECT id FROM information_schema.processlist WHERE user = 'idemlab' AND db = '$maria_db' AND id <> CONNECTION_ID()"); do
         mariadb --no-defaults -S "$maria_socket" -u root -e "KILL $id"; done ;;
  esac
}
for db in "$pg" "$maria"; do
  "$IDEMLAB" init --force --db "$db" >/dev/null
  rm -rf "$work/gate"; mkdir "$work/gate"
  "$IDEMLAB" select-for-update --db "$db" --biz-seq k1 --from alice --to bob --amount 1 \
    --fault "slow:gate=$work/gate,at=critical" --json >"$work/killed.json" 2>"$work/killed.err" &
  attempt=$!
  for _ in $(seq 1 6000); do [ -n "$(ls "$work/gate")" ] && break; sleep 0.01; done
  kill_sessions "$db"
  touch "$work/gate/open"
  wait "$attempt" && status=0 || status=$?
  expect_equal "$status" 75 "killed connection on ${db%%:*}: exit"
  grep -q connection_lost "$work/killed.json" || fail "killed connection on ${db%%:*}: $(cat "$work/killed.json" "$work/killed.err")"
  expect_equal "$(moved "$db")" 0 "killed connection on ${db%%:*}: money moved"
done

# Bad input on servers: one error line, exit 8, no secret shown, nothing written.
maria_root() { mariadb --no-defaults -N -S "$maria_socket" -u root "$@"; }
maria_root -e "CREATE USER IF NOT EXISTS 'odd'@'localhost' IDENTIFIED BY 'p@ss:w/rd%';
  GRANT ALL ON $maria_db.* TO 'odd'@'localhost'"
odd="mariadb://odd:p%40ss%3Aw%2Frd%25@localhost/$maria_db?socket=$maria_socket"
"$IDEMLAB" init --force --db "$odd" >/dev/null
expect_exit 0 "$IDEMLAB" accounts --db "$odd" --json
case "$out" in *"p@ss"*|*"%40"*) fail "password shown: $out" ;; esac
wrong="mariadb://odd:hunter2@localhost/$maria_db?socket=$maria_socket"
expect_exit 8 "$IDEMLAB" naive --db "$wrong" --biz-seq b1 --from alice --to bob --amount 1
expect_one_error_line
expect_contains "$err" "Access denied"
case "$err" in *hunter2*) fail "password shown: $err" ;; esac
psql -qAtX "$pg" -c "DROP DATABASE IF EXISTS notledger" -c "CREATE DATABASE notledger" >/dev/null 2>&1
empty=${pg/\/$(db_name "$pg")\?/\/notledger?}
expect_exit 8 "$IDEMLAB" naive --db "$empty" --biz-seq b1 --from alice --to bob --amount 1 --json
expect_contains "$out" "not an idemlab ledger"
expect_equal "$(psql -qAtX "$empty" -c "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")" 0 "nothing written to a database that is not a ledger"
for db in "$pg" "$maria"; do
  "$IDEMLAB" init --force --db "$db" >/dev/null
  case $db in
    postgresql://*) psql -qAtX "$db" -c "UPDATE idemlab_schema SET version = 99" ;;
    *) maria_root "$maria_db" -e "UPDATE idemlab_schema SET version = 99" ;;
  esac
  expect_exit 8 "$IDEMLAB" naive --db "$db" --biz-seq b1 --from alice --to bob --amount 1
  expect_one_error_line
  expect_contains "$err" "newer than this idemlab understands"
done

# Every safe strategy, 16 processes on one server: money moves once, the audit is clean.
for db in "$pg" "$maria"; do
  for strategy in select-insert direct-insert state-machine dedup-table token select-for-update \
                  optimistic-lock lock-table; do
    race "$db" "$strategy" -n 16 --stagger-ms 5 --slow-ms 50
    [ "$strategy" = select-for-update ] && [ "$db" = "$pg" ] && continue  # shown above: a double
    expect_equal "$pairs" 1 "$strategy x16 on ${db%%:*}: journal pairs"
    expect_equal "$audit" 0 "$strategy x16 on ${db%%:*}: audit"
  done
done
finish
