# e2e: simulate on PostgreSQL 15 and MariaDB 10.11, a statement a step, each wait for a lock
# parked on the server's word and cancelled after 1000 ms of virtual time.
# - Safe strategies under the double click, at every isolation level each server offers: no
#   money moved twice, no lie, the audit clean; naive breaks on both.
# - The engine findings: select-for-update twins on a row that does not exist yet move money
#   twice on PostgreSQL READ COMMITTED and MariaDB READ COMMITTED (no unique index), never on
#   MariaDB REPEATABLE READ or SQLite; lock-table leaves a request stuck under PostgreSQL
#   REPEATABLE READ's serialization failures.
# - A busy writer (the busy fault) holds every account row on a server.
# - A twin that waits past the limit is cancelled and answered in_progress (lock_wait_timeout).
# - 20 runs give the same bytes where no step lets two waiting statements go at once
#   (released_together 0); the count is in the output either way.
# - The scratch ledger is gone afterwards, an interrupted run's too; bad input is one line.
source "$(dirname "$0")/../lib.sh"
require_test_servers
own_server_databases simulate-servers
pg=$IDEMLAB_TEST_POSTGRES maria=$IDEMLAB_TEST_MARIADB

twice() {  # ARGS... -> money moved twice or more, from the JSON
  "$IDEMLAB" simulate "$@" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["moved_twice_or_more"])'
}
# Safe strategies keep their promise at every level; naive moves money twice on both servers.
for url in "$pg" "$maria"; do
  for level in read-committed repeatable-read serializable; do
    for strategy in direct-insert state-machine dedup-table token optimistic-lock lock-table; do
      expect_exit 0 "$IDEMLAB" simulate --db "$url" --isolation "$level" --strategy "$strategy" \
        --scenario double-click --requests 60 --fail-on violation
    done
  done
  expect_exit 0 "$IDEMLAB" simulate --db "$url" --strategy naive --scenario double-click --requests 60
  [ "$(twice --db "$url" --strategy naive --scenario double-click --requests 60)" -gt 0 ] ||
    fail "naive on ${url%%:*}: no money moved twice"
done

# select-for-update on a missing row: twice on PostgreSQL READ COMMITTED, never elsewhere.
sfu=(--strategy select-for-update --scenario double-click --requests 60)
[ "$(twice --db "$pg" "${sfu[@]}")" -gt 0 ] ||
  fail "select-for-update, PostgreSQL READ COMMITTED: no money moved twice"
expect_exit 7 "$IDEMLAB" simulate --db "$pg" "${sfu[@]}" --fail-on violation
expect_equal "$(twice --db "$maria" "${sfu[@]}")" 0 "select-for-update, MariaDB: moved twice"
expect_equal "$(twice "${sfu[@]}")" 0 "select-for-update, SQLite: moved twice"
# MariaDB READ COMMITTED takes no gap locks: FOR UPDATE on the missing row locks nothing there.
[ "$(twice --db "$maria" --isolation read-committed "${sfu[@]}")" -gt 0 ] ||
  fail "select-for-update, MariaDB READ COMMITTED: no money moved twice"

# lock-table under PostgreSQL REPEATABLE READ, lock-expiry: a twin's update of the same account
# makes a credit meet 40001, which spends one of the client's six attempts; one request is
# left stuck (never moved, every answer in_progress). Safe, but not live.
"$IDEMLAB" simulate --db "$pg" --isolation repeatable-read --strategy lock-table \
  --scenario lock-expiry --requests 100 --json >"$work/stuck.json"
expect_equal "$(json_field "$(cat "$work/stuck.json")" stuck)" 1 "lock-table, PostgreSQL REPEATABLE READ: stuck"
expect_equal "$(json_field "$(cat "$work/stuck.json")" moved_twice_or_more)" 0 \
  "lock-table, PostgreSQL REPEATABLE READ: moved twice"

# The busy fault's writer holds the account rows: statements wait for it, nothing breaks.
for url in "$pg" "$maria"; do
  expect_exit 0 "$IDEMLAB" simulate --db "$url" --strategy optimistic-lock --scenario aba-version \
    --requests 60 --fail-on violation --json
  expect_contains "$out" '"engine":"'"${url%%:*}"'"'
  expect_exit 0 "$IDEMLAB" simulate --db "$url" --strategy state-machine --requests 1 \
    --fault busy:ms=50 --timeline
  expect_contains "$out" "FOR UPDATE NOWAIT"
  expect_contains "$out" "waits for a row lock"
done

# A twin waits for the row its sibling claimed and holds through a 1500 ms pause: at 1000 ms of
# virtual time the server is told to cancel it, and it answers in_progress.
for url in "$pg" "$maria"; do
  expect_exit 0 "$IDEMLAB" simulate --db "$url" --strategy state-machine --requests 1 \
    --fault double-submit --fault slow:at=debit,ms=1500 --timeline
  expect_contains "$out" "claim_flow            waits for a row lock"
  expect_contains "$out" "waited 1000 ms: cancelled"
  expect_contains "$out" "in_progress (lock_wait_timeout)"
  expect_contains "$out" "transaction begins"
done

# The same bytes, 20 runs: one client, double clicks, so one step never lets two waiting
# statements go at once (when it does, PostgreSQL's woken statements race in the server).
for url in "$pg" "$maria"; do
  same=(--db "$url" --strategy state-machine --scenario double-click --requests 40 --concurrency 1)
  expect_exit 0 "$IDEMLAB" simulate "${same[@]}" --json
  first=$out
  expect_contains "$first" '"released_together":0'
  for _ in $(seq 2 20); do
    "$IDEMLAB" simulate "${same[@]}" --json >"$work/again.json"
    [ "$(cat "$work/again.json")" = "$first" ] || { fail "simulate on ${url%%:*}: a rerun differs"; break; }
  done
  expect_contains "$first" '"lock_waits":'
  case $first in *idemlab:idemlab*) fail "a password in the output" ;; esac
done
expect_exit 0 "$IDEMLAB" simulate --db "$pg" --strategy state-machine --requests 40
expect_contains "$out" "released_together"

# Nothing left behind; an interrupted run drops its scratch ledger too.
expect_equal "$(scratch_left "$pg")" 0 "PostgreSQL: no scratch schema left"
expect_equal "$(scratch_left "$maria")" 0 "MariaDB: no scratch database left"
interrupted_drops_scratch "$maria" "simulate on MariaDB" simulate --db "$maria" \
  --strategy state-machine --requests 100000

# Bad input: one error line, exit 2; a server that is not there, exit 8.
expect_exit 2 "$IDEMLAB" simulate --db "$work/ledger.db" --strategy naive
expect_one_error_line
expect_contains "$err" "simulate runs on SQLite in a scratch ledger of its own"
expect_exit 2 "$IDEMLAB" simulate --isolation serializable --strategy naive
expect_one_error_line
expect_exit 2 "$IDEMLAB" simulate --db "nosuch://x" --strategy naive
expect_one_error_line
expect_exit 8 "$IDEMLAB" simulate --db "postgresql://postgres@/idemlab?host=$work/none" --strategy naive
expect_one_error_line
finish
