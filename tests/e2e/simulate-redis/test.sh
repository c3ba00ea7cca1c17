# e2e: simulate, compare and explore with tokens and locks in Redis (--redis), the ledger on
# SQLite, PostgreSQL or MariaDB.
# - Each run's keys live under a prefix of its own, expire on the run's virtual clock, and are
#   gone when it ends, an interrupted run's too.
# - token and lock-table keep their promise under the double click on every ledger; a lock
#   that expires under its holder (lock-expiry) lets a twin in without the owner checks.
# - explore finds check-then-delete and no-owner-check with the keys in Redis, and with a
#   Redis command of another attempt between two statements of a SQLite write transaction.
# - A crash after the token's DEL leaves the request stuck: Redis does not roll back. So does
#   a serialization failure after it, under PostgreSQL REPEATABLE READ.
# - On a server, a twin's DEL in Redis does not wait for the first attempt's transaction, as
#   the token row's UPDATE does: the twin is answered in_progress, and its client retries.
# - 20 runs give the same bytes; bad input is one line.
source "$(dirname "$0")/../lib.sh"
require_test_servers
own_server_databases simulate-redis
pg=$IDEMLAB_TEST_POSTGRES maria=$IDEMLAB_TEST_MARIADB redis_url=$IDEMLAB_TEST_REDIS
unset IDEMLAB_REDIS
redis() { redis-cli -s "${redis_url#redis://}" "$@"; }
# The test servers' Redis is shared: a run of another test that ctest killed at its timeout
# leaves its keys behind. Only the runs of this test are judged: those started after this line.
before=" $(redis --scan --pattern 'idemlab_scratch_*' | sed 's/:.*//' | sort -u | tr '\n' ' ')"
# Keys of this test's scratch runs whose process has ended: a run that left some behind.
keys_left() {
  local key pid count=0
  for key in $(redis --scan --pattern 'idemlab_scratch_*'); do
    [[ $before == *" ${key%%:*} "* ]] && continue
    pid=${key#idemlab_scratch_}; pid=${pid%%_*}
    # Left behind: still there once its process ended (a run ending as the scan read it is not).
    [ -d "/proc/$pid" ] || [ "$(redis exists "$key")" = 0 ] || count=$((count + 1))
  done
  echo "$count"
}
field() {  # ARGS... -> the JSON field named last, of `idemlab ARGS`
  local name=${*: -1}
  "$IDEMLAB" "${@:1:$#-1}" --json | python3 -c "import json, sys; print(json.load(sys.stdin)['$name'])"
}

# The double click on every ledger: once each, never a lie; the output says where the guards were.
for ledger in "" "--db $pg" "--db $maria"; do
  for strategy in token lock-table; do
    # shellcheck disable=SC2086
    expect_exit 0 "$IDEMLAB" simulate $ledger --redis "$redis_url" --strategy "$strategy" \
      --scenario double-click --requests 60 --fail-on violation --json
    expect_contains "$out" '"redis":"'"$redis_url"'"'
    expect_contains "$out" '"moved_twice_or_more":0'
  done
done
expect_exit 0 "$IDEMLAB" simulate --redis "$redis_url" --strategy token --requests 20
expect_contains "$out" "tokens and locks in Redis"
expect_contains "$out" "--redis $redis_url"

# The lock expires on the virtual clock: without the owner checks, the expired holder and the
# twin it let in both move money, on SQLite and on a server alike.
for ledger in "" "--db $pg"; do
  # shellcheck disable=SC2086
  twice=$(field simulate $ledger --redis "$redis_url" --strategy lock-table --pitfall \
    --scenario lock-expiry --requests 100 moved_twice_or_more)
  [ "$twice" -gt 0 ] || fail "lock-table no-owner-check, lock-expiry, ${ledger:-sqlite}: no money moved twice"
done

# A twin's DEL does not wait for the first transaction on a server: in_progress, then a retry.
sqlite_attempts=$(field simulate --redis "$redis_url" --strategy token --scenario double-click \
  --requests 60 attempts_per_request)
pg_attempts=$(field simulate --db "$pg" --redis "$redis_url" --strategy token \
  --scenario double-click --requests 60 attempts_per_request)
ledger_attempts=$(field simulate --db "$pg" --strategy token --scenario double-click \
  --requests 60 attempts_per_request)
python3 -c "import sys; sys.exit(0 if $pg_attempts > $ledger_attempts and $pg_attempts > $sqlite_attempts else 1)" ||
  fail "token in Redis on PostgreSQL: $pg_attempts attempts, against $ledger_attempts with the token row and $sqlite_attempts on SQLite"

# A token spent in Redis does not roll back with the ledger: an attempt that dies after the
# DEL and before its commit leaves the request stuck (never moved, every retry in_progress).
# The token row rolls back with the work, and the retry applies.
for ledger in "" "--db $pg"; do
  # shellcheck disable=SC2086
  expect_exit 7 "$IDEMLAB" simulate $ledger --redis "$redis_url" --strategy token \
    --scenario crash-mid-transfer --requests 50 --fail-on violation --json
  [ "$(json_field "$out" stuck)" -gt 0 ] || fail "token in Redis, crash-mid-transfer, ${ledger:-sqlite}: nothing stuck"
  expect_equal "$(json_field "$out" moved_twice_or_more)" 0 "token in Redis, crash-mid-transfer: moved twice"
  # shellcheck disable=SC2086
  expect_exit 0 "$IDEMLAB" simulate $ledger --strategy token --scenario crash-mid-transfer \
    --requests 50 --fail-on violation
done

# PostgreSQL REPEATABLE READ: twins of different requests that update the same account meet
# 40001 after the token's DEL; the attempt rolls back, the token stays spent, and the request is
# stuck. With the token row, the DEL rolls back too, and the retry applies.
rr=(--db "$pg" --isolation repeatable-read --strategy token --scenario response-lost --requests 100)
expect_exit 7 "$IDEMLAB" simulate "${rr[@]}" --redis "$redis_url" --fail-on violation --json
[ "$(json_field "$out" stuck)" -gt 0 ] || fail "token in Redis, PostgreSQL REPEATABLE READ: nothing stuck"
expect_exit 0 "$IDEMLAB" simulate "${rr[@]}" --fail-on violation --json
expect_equal "$(json_field "$out" stuck)" 0 "token row, PostgreSQL REPEATABLE READ: stuck"

# explore: the pitfalls break with the keys in Redis, the safe strategies do not.
expect_exit 0 "$IDEMLAB" explore --redis "$redis_url" --strategy token --json
expect_contains "$out" '"breaking":0'
expect_exit 0 "$IDEMLAB" explore --redis "$redis_url" --strategy token --pitfall --json
expect_contains "$out" '"moved_twice_or_more":'
expect_contains "$out" '"redis":"'"$redis_url"'"'
# Another attempt's check_token runs while the first holds SQLite's write lock: more
# interleavings than with the token row, where the transaction is one step.
with_redis=$(field explore --redis "$redis_url" --strategy token --pitfall interleavings)
in_ledger=$(field explore --strategy token --pitfall interleavings)
[ "$with_redis" -gt "$in_ledger" ] || fail "explore token --redis: $with_redis interleavings, $in_ledger without"
for ledger in "" "--db $pg" "--db $maria"; do
  # shellcheck disable=SC2086
  breaking=$(field explore $ledger --redis "$redis_url" --strategy lock-table --pitfall \
    --lock-ttl-ms 3 --max-interleavings 60 breaking)
  [ "$breaking" -gt 0 ] || fail "explore lock-table no-owner-check, ${ledger:-sqlite}: nothing breaks"
done
expect_exit 0 "$IDEMLAB" explore --db "$pg" --redis "$redis_url" --strategy token --pitfall \
  --max-interleavings 40 --interleaving 1 --sql
expect_contains "$out" "tokens and locks in Redis"
expect_contains "$out" "redis.call('DEL', KEYS[1])"

# compare: the token and lock-table rows keep theirs in Redis, on each backend.
expect_exit 0 "$IDEMLAB" compare --strategies token,lock-table,state-machine --scenario double-click \
  --requests 40 --backend sqlite --backend "$pg" --redis "$redis_url" --format json
[ "$(grep -o '"redis":' <<<"$out" | wc -l)" = 4 ] || fail "compare --redis: not 4 rows in Redis: $out"
expect_contains "$out" "--redis $redis_url"

# The same bytes, 20 runs, on each ledger (one client: no step lets two waits go at once).
for ledger in "" "--db $pg" "--db $maria"; do
  # shellcheck disable=SC2086
  same=($ledger --redis "$redis_url" --strategy lock-table --scenario lock-expiry --requests 30 --concurrency 1)
  expect_exit 0 "$IDEMLAB" simulate "${same[@]}" --json
  first=$out
  # shellcheck disable=SC2086
  explored=$("$IDEMLAB" explore $ledger --redis "$redis_url" --strategy token --pitfall --max-interleavings 30 --json)
  for _ in $(seq 2 20); do
    [ "$("$IDEMLAB" simulate "${same[@]}" --json)" = "$first" ] ||
      { fail "simulate --redis ${ledger:-sqlite}: a rerun differs"; break; }
    # shellcheck disable=SC2086
    [ "$("$IDEMLAB" explore $ledger --redis "$redis_url" --strategy token --pitfall --max-interleavings 30 --json)" = "$explored" ] ||
      { fail "explore --redis ${ledger:-sqlite}: a rerun differs"; break; }
  done
done

# Nothing left behind, an interrupted run included.
expect_equal "$(keys_left)" 0 "Redis: no scratch keys left"
for signal in INT TERM; do
  "$IDEMLAB" simulate --redis "$redis_url" --strategy lock-table --requests 200000 >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 6000); do
    [ -n "$(redis --scan --pattern "idemlab_scratch_${pid}_*" | head -1)" ] && break
    sleep 0.01
  done
  kill "-$signal" "$pid"; wait "$pid"; code=$?
  want=130; [ "$signal" = TERM ] && want=143
  expect_equal "$code" "$want" "simulate --redis, SIG$signal: its exit"
  expect_equal "$(redis --scan --pattern "idemlab_scratch_${pid}_*" | wc -l)" 0 \
    "simulate --redis, SIG$signal: no keys left"
done

# Bad input: one error line, exit 2; a Redis that is not there, exit 8.
expect_exit 2 "$IDEMLAB" simulate --redis "$redis_url" --strategy state-machine
expect_one_error_line
expect_contains "$err" "state-machine keeps neither"
expect_exit 2 "$IDEMLAB" compare --redis "$redis_url" --strategies naive,dedup-table
expect_one_error_line
expect_exit 2 "$IDEMLAB" explore --redis 'redis://:hunter2@h:0' --strategy token
expect_one_error_line
case "$err" in *hunter2*) fail "password shown: $err" ;; esac
expect_exit 8 "$IDEMLAB" explore --redis "redis://$work/none.sock" --strategy token
expect_one_error_line
finish
