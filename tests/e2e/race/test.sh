# e2e: eight processes with one biz_seq against a real ledger file. Safe strategies: one journal
# pair, audit passes, whatever the interleaving (so a plain slow:ms=200 serves). naive and the
# race-exposed pitfalls: audit reports the duplicate. Those need the twins to overlap, so they
# wait at a gate at their critical step that opens once all have arrived (scripts/race --gate):
# certain on a busy machine too.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/checks.sh"
db=$work/race.db
for strategy in select-insert direct-insert state-machine dedup-table token select-for-update \
                optimistic-lock lock-table; do
  race_on "$db" "$strategy" --stagger-ms 10
  expect_equal "$pairs" 1 "$strategy: journal pairs"
  expect_equal "$audit" 0 "$strategy: audit exit"
  grep -qE "^ +1 applied$" "$work/race.out" || fail "$strategy: not exactly one applied: $(cat "$work/race.out")"
done
pitfall_races "$db"
lock_races "$db"
finish
