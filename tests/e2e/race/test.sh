# e2e: eight processes with one biz_seq and slow:ms=200 against a real ledger file. Safe
# strategies: one journal pair, audit passes. naive and race-exposed pitfalls: audit reports
# the duplicate.
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
  if [ "$strategy" = naive ]; then race naive --stagger-ms 10; else race "$strategy" --pitfall --stagger-ms 10; fi
  [ "$pairs" -ge 2 ] || fail "$strategy --pitfall: $pairs journal pairs, wanted a double"
  expect_equal "$audit" 7 "$strategy --pitfall: audit exit"
  grep -q applied_more_than_once "$work/race.out" || fail "$strategy --pitfall: audit did not name the duplicate"
done
# lock-table's pitfall needs a TTL shorter than the work and a twin that starts after it.
race lock-table --pitfall --lock-ttl-ms 50 --stagger-ms 80 -n 3
[ "$pairs" -ge 2 ] || fail "lock-table --pitfall: $pairs journal pairs, wanted a double"
expect_equal "$audit" 7 "lock-table --pitfall: audit exit"
race lock-table --lock-ttl-ms 50 --stagger-ms 80 -n 3
[ "$pairs" -le 1 ] || fail "lock-table with owner checks doubled"
expect_equal "$audit" 0 "lock-table safe with a short TTL: audit exit"
finish
