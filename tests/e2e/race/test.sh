# e2e: eight processes with one biz_seq against a real ledger file. Safe strategies: one journal
# pair, audit passes, whatever the interleaving (so a plain slow:ms=200 serves). naive and the
# race-exposed pitfalls: audit reports the duplicate. Those need the twins to overlap, so they
# wait at a gate at their critical step that opens once all have arrived (scripts/race --gate):
# certain on a busy machine too.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/checks.sh"
db=$work/race.db
# --help prints the usage and creates nothing; no strategy, or an unknown one, is refused.
mkdir "$work/empty"
(cd "$work/empty" && env -u IDEMLAB_DB "$ROOT/scripts/race" --help) >"$work/help.out" 2>&1
expect_equal "$?" 0 "scripts/race --help"
expect_contains "$(cat "$work/help.out")" "usage: scripts/race STRATEGY"
for refused in "" "--gate" "no-such-strategy" "accounts"; do
  # shellcheck disable=SC2086
  (cd "$work/empty" && env -u IDEMLAB_DB "$ROOT/scripts/race" $refused) >"$work/r.out" 2>&1
  expect_equal "$?" 2 "scripts/race $refused: refused"
  expect_contains "$(cat "$work/r.out")" "error: "
done
expect_equal "$(ls -A "$work/empty")" "" "scripts/race --help and its refusals create nothing"
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
