# e2e: eight processes with one biz_seq against a real ledger file. Safe strategies: one journal
# pair, audit passes, whatever the interleaving (so a plain slow:ms=200 serves). naive and the
# race-exposed pitfalls: audit reports the duplicate. Those need the twins to overlap, so they
# wait at a gate at their critical step that opens once all have arrived (scripts/race --gate):
# certain on a busy machine too.
source "$(dirname "$0")/../lib.sh"
race() {  # STRATEGY ARGS... -> sets $pairs and $audit
  local db=$work/race-$1.db
  rm -f "$db"*
  IDEMLAB_DB=$db "$ROOT/scripts/race" "$@" --biz-seq r1 >"$work/race.out" 2>&1
  audit=$?
  pairs=$(pairs "$db" r1)
  integrity_ok "$db"
}
for strategy in select-insert direct-insert state-machine dedup-table token select-for-update \
                optimistic-lock lock-table; do
  race "$strategy" --stagger-ms 10
  expect_equal "$pairs" 1 "$strategy: journal pairs"
  expect_equal "$audit" 0 "$strategy: audit exit"
  grep -qE "^ +1 applied$" "$work/race.out" || fail "$strategy: not exactly one applied: $(cat "$work/race.out")"
done
for strategy in naive select-insert direct-insert state-machine token select-for-update \
                optimistic-lock; do
  # direct-insert's upsert sits inside the write transaction: its twins wait before it.
  case $strategy in
    naive) race naive --gate ;;
    direct-insert) race direct-insert --pitfall --gate --at before-guard ;;
    *) race "$strategy" --pitfall --gate ;;
  esac
  [ "$pairs" -ge 2 ] || fail "$strategy --pitfall: $pairs journal pairs, wanted a double"
  expect_equal "$audit" 7 "$strategy --pitfall: audit exit"
  grep -q applied_more_than_once "$work/race.out" || fail "$strategy --pitfall: audit did not name the duplicate"
done
# lock-table's pitfall needs the first attempt's lock to expire while it works, and a twin that
# comes after. The first waits at a gate holding its lock; the test then plays the clock (the
# lock's expiry set to the past, as a TTL running out would), runs the twin, and opens the gate.
lock_race() {  # ARGS...: the first attempt and its twin, with ARGS -> sets $pairs
  local db=$work/lock-race.db gate=$work/gate
  rm -rf "$db"* "$gate"; mkdir "$gate"
  "$IDEMLAB" init --db "$db" >/dev/null
  local transfer=(lock-table --db "$db" --biz-seq l1 --from alice --to bob --amount 1 "$@")
  "$IDEMLAB" "${transfer[@]}" --lock-ttl-ms 600000 --fault "slow:gate=$gate" >/dev/null 2>&1 &
  local first=$!
  for _ in $(seq 1 6000); do [ -n "$(ls "$gate")" ] && break; sleep 0.01; done
  [ -n "$(ls "$gate")" ] || fail "lock-table $*: the first attempt never reached its gate"
  sqlite3 "$db" "UPDATE lock SET lock_until_ms = 0"
  "$IDEMLAB" "${transfer[@]}" --lock-ttl-ms 600000 >/dev/null 2>&1
  touch "$gate/open"
  wait "$first"
  pairs=$(pairs "$db" l1)
  "$IDEMLAB" audit --db "$db" >/dev/null 2>&1
  audit=$?
  integrity_ok "$db"
}
lock_race --pitfall
expect_equal "$pairs" 2 "lock-table --pitfall: the expired lock's holder and its twin both moved money"
expect_equal "$audit" 7 "lock-table --pitfall: audit exit"
lock_race
expect_equal "$pairs" 1 "lock-table with owner checks: the expired holder gives up"
expect_equal "$audit" 0 "lock-table safe with an expired lock: audit exit"
finish
