# The races e2e: race runs on a SQLite file and e2e: race-servers on PostgreSQL and MariaDB.
race_on() {  # DB STRATEGY ARGS... -> $pairs, $audit: scripts/race on a fresh ledger
  local db=$1; shift
  case $db in
    *://*) "$IDEMLAB" init --force --db "$db" >/dev/null ;;
    *) rm -f "$db"* ;;
  esac
  IDEMLAB_DB=$db "$ROOT/scripts/race" "$@" --biz-seq r1 >"$work/race.out" 2>&1
  audit=$?
  pairs=$(pairs "$db" r1)
  integrity_ok "$db"
}
# naive and the race-exposed pitfalls: the twins wait at a gate at their critical step that opens
# once all have arrived (scripts/race --gate), so they overlap for certain; the audit names the
# double. direct-insert's upsert sits inside the write transaction: its twins wait before it.
pitfall_races() {  # DB
  local db=$1 strategy
  for strategy in naive select-insert direct-insert state-machine token select-for-update \
                  optimistic-lock; do
    case $strategy in
      naive) race_on "$db" naive --gate ;;
      direct-insert) race_on "$db" direct-insert --pitfall --gate --at before-guard ;;
      *) race_on "$db" "$strategy" --pitfall --gate ;;
    esac
    [ "$pairs" -ge 2 ] || fail "$strategy --pitfall on $db: $pairs journal pairs, wanted a double"
    expect_equal "$audit" 7 "$strategy --pitfall: audit exit"
    grep -q applied_more_than_once "$work/race.out" ||
      fail "$strategy --pitfall: audit did not name the duplicate"
  done
}
# lock-table's pitfall needs the first attempt's lock to expire while it works, and a twin that
# comes after. The first waits at a gate holding its lock; the test then plays the clock (the
# lock's expiry set to the past, as a TTL running out would), runs the twin, and opens the gate.
lock_race() {  # DB ARGS...: the first attempt and its twin, with ARGS -> sets $pairs, $audit
  local db=$1 gate=$work/gate; shift
  case $db in *://*) ;; *) rm -f "$db"* ;; esac
  rm -rf "$gate"; mkdir "$gate"
  "$IDEMLAB" init --force --db "$db" >/dev/null
  local transfer=(lock-table --db "$db" --biz-seq l1 --from alice --to bob --amount 1 "$@")
  "$IDEMLAB" "${transfer[@]}" --lock-ttl-ms 600000 --fault "slow:gate=$gate" >/dev/null 2>&1 &
  local first=$! _
  for _ in $(seq 1 6000); do [ -n "$(ls "$gate")" ] && break; sleep 0.01; done
  [ -n "$(ls "$gate")" ] || fail "lock-table $*: the first attempt never reached its gate"
  expire_locks "$db"
  "$IDEMLAB" "${transfer[@]}" --lock-ttl-ms 600000 >/dev/null 2>&1
  touch "$gate/open"
  wait "$first"
  pairs=$(pairs "$db" l1)
  "$IDEMLAB" audit --db "$db" >/dev/null 2>&1
  audit=$?
  integrity_ok "$db"
}
lock_races() {  # DB
  lock_race "$1" --pitfall
  expect_equal "$pairs" 2 "lock-table --pitfall: the expired lock's holder and its twin both moved money"
  expect_equal "$audit" 7 "lock-table --pitfall: audit exit"
  lock_race "$1"
  expect_equal "$pairs" 1 "lock-table with owner checks: the expired holder gives up"
  expect_equal "$audit" 0 "lock-table safe with an expired lock: audit exit"
}
