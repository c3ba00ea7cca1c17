# e2e: explore on PostgreSQL 15 (READ COMMITTED) and MariaDB 10.11 (REPEATABLE READ), a
# statement a step, each wait for a row lock parked on the server's word.
# - The statements select-for-update sends, run first by hand in two sessions, on a row that
#   does not exist yet: what each server answers, printed; explore must find the same.
#   PostgreSQL: the loser's INSERT meets 23505 under a unique index, and both commit without
#   one (two rows); MariaDB: the gap locks deadlock (1213), one row either way.
# - Every safe strategy, every interleaving: none breaks on either server; nor with a crash
#   after each statement (--crash), nor in the first 600 interleavings of three twins (-k 3).
#   Under the sanitizers, which check memory on the same code, fewer of each (said where).
# - Steps that commute tried in one order find what every order finds (--all-orders).
# - 20 runs of the same explore give the same bytes (MariaDB's deadlock victim too); a wait is
#   drawn where it happened, with what ended it; the scratch ledger is gone afterwards, an
#   interrupted run's too, one signalled while its reset waits for a lock the test holds.
# - Bad input: a SQLite path, --isolation without --db, --unique-index elsewhere, --all-orders
#   without --db.
source "$(dirname "$0")/../lib.sh"
require_test_servers
own_server_databases explore-servers
pg=$IDEMLAB_TEST_POSTGRES maria=$IDEMLAB_TEST_MARIADB
source "$ROOT/tests/e2e/sql_sessions.sh"

# By hand: A and B each lock the missing row, then insert it, A first. Prints B's fate (its
# error code, or "ok") and the rows left.
by_hand() {  # URL TABLE-DDL -> "B: CODE, ROWS rows"
  local url=$1
  case $url in
    postgresql://*) psql -qAtX "$url" -c "DROP TABLE IF EXISTS flow_by_hand" -c "$2" >/dev/null ;;
    *) mariadb --no-defaults -S "$maria_socket" -u idemlab -pidemlab "$(db_name "$url")" \
         -e "DROP TABLE IF EXISTS flow_by_hand; $2" ;;
  esac
  local lock="SELECT k FROM flow_by_hand WHERE k = 'dup-1' FOR UPDATE;"
  local add="INSERT INTO flow_by_hand (k) VALUES ('dup-1');"
  sql_session a "$url"; sql_session b "$url"
  exec 8>"$work/a.fifo" 9>"$work/b.fifo"
  printf "BEGIN;\n%s\nSELECT 'a-locked';\n" "$lock" >&8; until_output a a-locked
  printf "BEGIN;\n%s\nSELECT 'b-locked';\n" "$lock" >&9; until_output b b-locked
  printf "%s\nSELECT 'a-added';\n" "$add" >&8; until_waiting_or_output "$url" a a-added
  printf "%s\nSELECT 'b-added';\n" "$add" >&9; until_waiting_or_output "$url" b b-added
  printf "COMMIT;\n" >&8; exec 8>&-
  printf "COMMIT;\n" >&9; exec 9>&-
  wait
  local code=ok
  grep -q "23505" "$work/b.out" && code=23505
  grep -q "ERROR 1213" "$work/b.out" && code=1213
  grep -q "ERROR 1213" "$work/a.out" && code="1213 (to A)"
  echo "B: $code, $(sql_on "$url" "SELECT count(*) FROM flow_by_hand") rows"
}
pg_unique=$(by_hand "$pg" "CREATE TABLE flow_by_hand (k TEXT PRIMARY KEY)")
pg_plain=$(by_hand "$pg" "CREATE TABLE flow_by_hand (id SERIAL PRIMARY KEY, k TEXT)")
maria_unique=$(by_hand "$maria" "CREATE TABLE flow_by_hand (k VARCHAR(32) PRIMARY KEY)")
maria_plain=$(by_hand "$maria" \
  "CREATE TABLE flow_by_hand (id INT AUTO_INCREMENT PRIMARY KEY, k VARCHAR(32), INDEX (k))")
echo "by hand, the loser's fate and the rows left:"
echo "  postgresql, unique index: $pg_unique;  no unique index: $pg_plain"
echo "  mariadb,    unique index: $maria_unique;  no unique index: $maria_plain"
expect_equal "$pg_unique" "B: 23505, 1 rows" "PostgreSQL by hand, unique index"
expect_equal "$pg_plain" "B: ok, 2 rows" "PostgreSQL by hand, no unique index"
expect_equal "$maria_unique" "B: 1213, 1 rows" "MariaDB by hand, unique index"
expect_equal "$maria_plain" "B: 1213, 1 rows" "MariaDB by hand, no unique index"

# explore finds the same.
# At most 200 interleavings each, to keep the suite short: the depth-first order meets the
# tight races early (the first breaking one on PostgreSQL is among the first ten).
cap=(--max-interleavings 200)
explored() {  # URL ARGS... -> the JSON of explore select-for-update
  "$IDEMLAB" explore --db "$1" --strategy select-for-update --json "${cap[@]}" "${@:2}"
}
count() { json_field "$1" "$2"; }
out=$(explored "$pg" --unique-index)
echo "explore, postgresql, unique index: $out" | head -c 400; echo
expect_equal "$(count "$out" breaking)" 0 "explore PostgreSQL unique index: nothing breaks"
[ "$(count "$out" unique_violations)" -ge 1 ] || fail "explore PostgreSQL unique index: no 23505 found"
[ "$(count "$out" blocking)" -ge 1 ] || fail "explore PostgreSQL unique index: no wait found"
out=$(explored "$pg")
echo "explore, postgresql, no unique index: $out" | head -c 400; echo
[ "$(count "$out" breaking)" -ge 1 ] || fail "explore PostgreSQL without the index: no double found"
expect_contains "$out" '"moved_twice_or_more"'
for args in "--unique-index" ""; do
  out=$(explored "$maria" $args)
  echo "explore, mariadb ${args:-no unique index}: $out" | head -c 400; echo
  expect_equal "$(count "$out" breaking)" 0 "explore MariaDB $args: one row in every interleaving"
  [ "$(count "$out" deadlocking)" -ge 1 ] || fail "explore MariaDB $args: no deadlock found"
  expect_equal "$(count "$out" isolation)" repeatable-read "explore MariaDB: its default level"
done

# first_difference: where $out leaves $first, for the log of a run that printed other bytes.
first_difference() {
  python3 -c 'import sys; a, b = sys.argv[1], sys.argv[2]
i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
print(f"first difference at byte {i}:\n  first run: ...{a[max(0, i - 300):i + 300]}\n  this run:  ...{b[max(0, i - 300):i + 300]}")' \
    "$first" "$out"
}

# The same explore twice: the same bytes. Nothing of it is left on the server.
expect_exit 0 "$IDEMLAB" explore --db "$pg" --strategy select-for-update --format svg "${cap[@]}"
first=$out
expect_exit 0 "$IDEMLAB" explore --db "$pg" --strategy select-for-update --format svg "${cap[@]}"
expect_equal "$out" "$first" "explore twice on PostgreSQL: the same SVG"
# MariaDB's first deadlock: the second INSERT completes the cycle, and its attempt is the victim.
# 20 runs give the same bytes, victim included (PostgreSQL: its first waits, 20 runs too); 5
# under the sanitizers, whose pass checks memory, not the bytes again.
runs=$(unless_sanitized 20 5)
expect_exit 0 "$IDEMLAB" explore --db "$maria" --strategy select-for-update --json \
  --max-interleavings 125
expect_equal "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["first_deadlock"]["victim"])')" 2 \
  "MariaDB: the victim of the first deadlock"
first=$out
for _ in $(seq 2 "$runs"); do
  expect_exit 0 "$IDEMLAB" explore --db "$maria" --strategy select-for-update --json \
    --max-interleavings 125
  [ "$out" = "$first" ] || { fail "explore on MariaDB: a run printed other bytes"; first_difference; break; }
done
expect_exit 0 "$IDEMLAB" explore --db "$pg" --strategy select-for-update --unique-index --json \
  --max-interleavings 20
first=$out
for _ in $(seq 2 "$runs"); do
  expect_exit 0 "$IDEMLAB" explore --db "$pg" --strategy select-for-update --unique-index --json \
    --max-interleavings 20
  [ "$out" = "$first" ] || { fail "explore on PostgreSQL: a run printed other bytes"; first_difference; break; }
done

# A wait, where it happened and what ended it: B's INSERT waits on A's uncommitted key.
expect_exit 0 "$IDEMLAB" explore --db "$pg" --strategy select-for-update --unique-index \
  --interleaving 4 "${cap[@]}"
expect_contains "$out" "insert_flow           waits for attempt 1's lock"
expect_exit 0 "$IDEMLAB" explore --db "$pg" --strategy select-for-update --unique-index \
  --interleaving 4 "${cap[@]}" --json
expect_contains "$out" '"detail":"attempt 1'"'"'s commit let it go"'
expect_equal "$(scratch_left "$pg")" 0 "PostgreSQL: no scratch schema left"
expect_equal "$(scratch_left "$maria")" 0 "MariaDB: no scratch database left"

# Interrupted (SIGINT, SIGTERM) once its scratch ledger exists, it drops it and exits 130/143.
interrupted_drops_scratch "$pg" "explore on PostgreSQL" explore --db "$pg" --strategy state-machine

# A signal while the run resets its scratch ledger, the reset waiting for a lock this test holds
# on one of its tables: the reset is not cut (cut, it would go on emptying table after table on
# the server after the run had gone, and the drop would deadlock with it at each); once the lock
# is let go, the run drops its ledger and exits 130.
signal_taken() {  # PID: until the process has taken every signal sent to it
  local _
  for _ in $(seq 1 6000); do
    awk '/^(ShdPnd|SigPnd):/ && $2 !~ /^0+$/ { pending = 1 } END { exit pending }' \
      "/proc/$1/status" && return 0
    sleep 0.01
  done
  fail "process $1 never took its signal"
}
reset_waits() {  # URL -> how many resets of a scratch ledger wait for a lock
  sql_on "$1" "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'
                 AND datname = current_database() AND query LIKE 'DELETE FROM attempt;%'"
}
"$IDEMLAB" explore --db "$pg" --strategy direct-insert -k 3 >/dev/null 2>"$work/reset.err" &
pid=$!
for _ in $(seq 1 6000); do [ "$(scratch_left "$pg" "$pid")" -gt 0 ] && break; sleep 0.01; done
scratch=$(sql_on "$pg" "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'idemlab_scratch_${pid}_%'")
sql_session holder "$pg"
exec 7>"$work/holder.fifo"
printf 'BEGIN;\nLOCK TABLE "%s".fence IN ACCESS EXCLUSIVE MODE;\nSELECT %s;\n' "$scratch" "'held'" >&7
until_output holder held
for _ in $(seq 1 6000); do [ "$(reset_waits "$pg")" -gt 0 ] && break; sleep 0.01; done
expect_equal "$(reset_waits "$pg")" 1 "explore's reset waits for the test's lock"
kill -INT "$pid"
signal_taken "$pid"
printf 'COMMIT;\n' >&7
exec 7>&-
wait "$pid"
expect_equal "$?" 130 "explore, SIGINT in a reset: its exit"
expect_equal "$(scratch_left "$pg" "$pid")" 0 "explore, SIGINT in a reset: no scratch ledger left"

# Safe strategies break nowhere: every interleaving, each order of commuting steps once. Under
# the sanitizers, the first 40 of each (13 s instead of 39 there, alone on the machine): that
# pass checks memory on the same code, and the whole walks are the normal pass's to check.
cap=$(unless_sanitized 0 40)  # 0: every interleaving
every=()
[ "$cap" -gt 0 ] && every=(--max-interleavings "$cap")
walked() {  # WHAT: the explore whose JSON is in $out tried every interleaving (or its first $cap)
  if [ "$cap" -eq 0 ]; then
    expect_equal "$(count "$out" truncated)" false "$1: every interleaving"
  elif [ "$(count "$out" truncated)" = true ]; then
    expect_equal "$(count "$out" interleavings)" "$cap" "$1: the first $cap interleavings"
  fi
}
for strategy in direct-insert state-machine dedup-table token optimistic-lock lock-table; do
  for url in "$pg" "$maria"; do
    expect_exit 0 "$IDEMLAB" explore --db "$url" --strategy "$strategy" --fail-on violation \
      --json "${every[@]}"
    walked "explore $strategy"
  done
done

# A crash after every statement, and three twins (-k 3): nothing breaks on either server.
for url in "$pg" "$maria"; do
  expect_exit 0 "$IDEMLAB" explore --db "$url" --strategy dedup-table --crash --fail-on violation \
    --json "${every[@]}"
  walked "explore dedup-table --crash"
  [ "$cap" -gt 0 ] || [ "$(count "$out" interleavings)" -gt 100 ] ||
    fail "explore dedup-table --crash: no crash tried"
  # The first 600 of 2556 (150 under the sanitizers): every one takes 20 to 40 s, too long for
  # every CI run.
  first_k3=$(unless_sanitized 600 150)
  expect_exit 0 "$IDEMLAB" explore --db "$url" --strategy direct-insert -k 3 --fail-on violation \
    --max-interleavings "$first_k3" --json
  expect_equal "$(count "$out" duplicates)" 3 "explore -k 3: three twins"
  expect_equal "$(count "$out" interleavings)" "$first_k3" "explore direct-insert -k 3: all tried"
  echo "direct-insert -k 3 on ${url%%:*}: $(count "$out" interleavings) interleavings," \
    "$(count "$out" replays_repeated) run again"
done

# Trying steps that commute in one order finds what trying both finds: the same invariants
# broken, and blocking, deadlocking, unserializable and unique-key interleavings alike.
outcomes() {  # JSON -> which kinds of interleaving it found
  python3 -c 'import json, sys; d = json.load(sys.stdin)
print(sorted(d["by_invariant"]), [k for k in ("blocking", "deadlocking", "unserializable",
      "unique_violations") if d[k] > 0], d["truncated"])'
}
# A few runs whose every order takes seconds, not minutes: naive breaks, the other two meet the
# unique key in every interleaving. Under the sanitizers, naive on each server: the four took
# 71 s of this test's 126 there (alone on the machine), and the reduction they check is the
# normal pass's to check; the memory of both walks is checked by one case a server.
cases=("$pg|naive" "$pg|dedup-table --pitfall=separate-transactions"
       "$maria|dedup-table --pitfall=separate-transactions" "$maria|naive")
[ "$cap" -gt 0 ] && cases=("$pg|naive" "$maria|naive")  # the sanitizers' pass
for case in "${cases[@]}"; do
  url=${case%%|*} run=${case#*|}
  # shellcheck disable=SC2086
  expect_exit 0 "$IDEMLAB" explore --db "$url" --strategy $run --json
  once=$(outcomes <<<"$out") tried_once=$(count "$out" interleavings)
  # shellcheck disable=SC2086
  expect_exit 0 "$IDEMLAB" explore --db "$url" --strategy $run --json --all-orders
  both=$(outcomes <<<"$out") tried_all=$(count "$out" interleavings)
  echo "$run on ${url%%:*}: $tried_once interleavings, $tried_all with --all-orders: $once"
  expect_equal "$once" "$both" "$run on ${url%%:*}: one order of commuting steps, every order"
  [ "$tried_once" -lt "$tried_all" ] || fail "$run on ${url%%:*}: nothing commuted"
done
expect_exit 2 "$IDEMLAB" explore --strategy naive --all-orders
expect_one_error_line
expect_contains "$err" "--all-orders is for explore --db"

# Bad input: one error line, exit 2.
expect_exit 2 "$IDEMLAB" explore --db "$work/ledger.db" --strategy naive
expect_one_error_line
expect_contains "$err" "explore runs on SQLite in a scratch ledger of its own"
expect_exit 2 "$IDEMLAB" explore --isolation serializable --strategy naive
expect_one_error_line
expect_exit 2 "$IDEMLAB" explore --db "$pg" --strategy token --unique-index
expect_one_error_line
finish
