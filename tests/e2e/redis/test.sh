# e2e: tokens and locks in Redis (--redis), the ledger on PostgreSQL and MariaDB. 16 twins of
# token and lock-table move money once; check-then-delete (GET, then a DEL whose count is
# ignored) lets twins held at a gate after their GET both pass; a lock that expires under its
# holder (the test expires the key, as Redis's clock would) lets a twin in, and only the owner
# checks (the Lua compare-and-delete, the fencing read) keep the money moving once.
source "$(dirname "$0")/../lib.sh"
require_test_servers
own_server_databases redis
# A Redis of its own: clear_guards below deletes every token and lock, which in the test
# servers' Redis would take them from other tests running meanwhile.
own_redis
export IDEMLAB_REDIS=$own_redis_url
redis() { redis-cli -s "${IDEMLAB_REDIS#redis://}" "$@"; }
# Deletes transfer's tokens and locks, and nothing else.
clear_guards() {
  redis EVAL "for _, pattern in ipairs(ARGV) do for _, key in ipairs(redis.call('KEYS', pattern)) do redis.call('DEL', key) end end" \
    0 'token:*' 'token-used:*' 'lock:*' >/dev/null
}
race() {  # DB STRATEGY ARGS... -> $pairs, $audit
  local db=$1; shift
  "$IDEMLAB" init --force --db "$db" >/dev/null
  clear_guards
  IDEMLAB_DB=$db "$ROOT/scripts/race" "$@" --biz-seq r1 >"$work/race.out" 2>&1
  audit=$?
  pairs=$(moved "$db")
}
for db in "$IDEMLAB_TEST_POSTGRES" "$IDEMLAB_TEST_MARIADB"; do
  for strategy in token lock-table; do
    race "$db" "$strategy" -n 16 --stagger-ms 5 --slow-ms 50
    expect_equal "$pairs" 1 "$strategy x16 with Redis on ${db%%:*}: journal pairs"
    expect_equal "$audit" 0 "$strategy x16 with Redis on ${db%%:*}: audit"
    # The audit says where the request's guard lived.
    expect_exit 0 "$IDEMLAB" audit --db "$db" --json
    expect_contains "$out" "{\"place\":\"$IDEMLAB_REDIS\",\"strategy\":\"$strategy\",\"requests\":1}"
  done
  race "$db" token --pitfall -n 2 --gate
  expect_equal "$pairs" 2 "token check-then-delete with Redis on ${db%%:*}: both twins passed"
  expect_equal "$audit" 7 "token check-then-delete with Redis on ${db%%:*}: audit"
done

# The token lives in Redis only: the ledger has no token row, and a used token is refused.
db=$IDEMLAB_TEST_POSTGRES
"$IDEMLAB" init --force --db "$db" >/dev/null
token=$("$IDEMLAB" token issue)
expect_equal "$(redis EXISTS "token:$token")" 1 "the token is a Redis key"
expect_equal "$(psql -qAtX "$db" -c 'SELECT count(*) FROM token')" 0 "no token row in the ledger"
[ "$(redis PTTL "token:$token")" -gt 0 ] || fail "the token has no TTL"
args=(--db "$db" --from alice --to bob --amount 1 --token "$token")
expect_exit 0 "$IDEMLAB" token "${args[@]}" --biz-seq t1
expect_equal "$(redis EXISTS "token:$token")" 0 "the token was deleted"
expect_exit 0 "$IDEMLAB" token "${args[@]}" --biz-seq t1 --json
expect_contains "$out" '"replayed":true'
expect_exit 6 "$IDEMLAB" token "${args[@]}" --biz-seq t2

# A lock that expires under its holder: the holder waits at a gate with its lock taken, the
# test expires the key, a twin takes the lock and moves the money, then the holder goes on.
lock_race() {  # ARGS... -> $pairs
  local gate=$work/gate
  rm -rf "$gate"; mkdir "$gate"
  "$IDEMLAB" init --force --db "$db" >/dev/null
  clear_guards
  local transfer=(lock-table --db "$db" --biz-seq l1 --from alice --to bob --amount 1 "$@")
  "$IDEMLAB" "${transfer[@]}" --lock-ttl-ms 600000 --fault "slow:gate=$gate" >/dev/null 2>&1 &
  local first=$!
  for _ in $(seq 1 6000); do [ -n "$(ls "$gate")" ] && break; sleep 0.01; done
  [ -n "$(ls "$gate")" ] || fail "lock-table $*: the first attempt never reached its gate"
  expect_equal "$(redis EXISTS lock:api:l1)" 1 "the holder's lock is a Redis key"
  redis DEL lock:api:l1 >/dev/null  # its TTL ran out
  "$IDEMLAB" "${transfer[@]}" --lock-ttl-ms 600000 >/dev/null 2>&1
  touch "$gate/open"
  wait "$first"
  pairs=$(moved "$db")
}
lock_race --pitfall=no-owner-check
expect_equal "$pairs" 2 "lock-table no-owner-check with Redis: the expired holder moved money too"
lock_race
expect_equal "$pairs" 1 "lock-table with owner checks in Redis: the expired holder gives up"

# A Redis that cannot be reached is exit 8, with nothing written to the ledger.
expect_exit 8 "$IDEMLAB" lock-table --db "$db" --redis redis:///nowhere.sock --biz-seq l2 \
  --from alice --to bob --amount 1
expect_one_error_line
expect_exit 2 "$IDEMLAB" lock-table --db "$db" --redis 'redis://:hunter2@h:0' --biz-seq l2 \
  --from alice --to bob --amount 1
case "$err" in *hunter2*) fail "password shown: $err" ;; esac
expect_equal "$(moved "$db")" 1 "nothing moved by the refused attempts"
finish
