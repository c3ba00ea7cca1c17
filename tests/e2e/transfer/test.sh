# e2e: every strategy subcommand: first attempt, replay, mismatch, rejection, faults.
source "$(dirname "$0")/../lib.sh"
db=$work/l.db
source "$(dirname "$0")/checks.sh"
for strategy in select-insert direct-insert state-machine dedup-table token select-for-update \
                optimistic-lock lock-table naive; do
  strategy_checks "$db" "$strategy"
done
# Phases place a fault at the same point of the work in every strategy.
for strategy in select-insert state-machine dedup-table naive; do
  phased=$work/phase-$strategy.db
  "$IDEMLAB" init --db "$phased" >/dev/null
  expect_exit 137 "$IDEMLAB" "$strategy" --db "$phased" --biz-seq ph1 --from alice --to bob \
    --amount 1 --fault crash:after=holding-guard
  expect_equal "$(pairs "$phased" ph1)" 0 "$strategy: a crash holding the guard moves nothing"
  expect_contains "$err" "crash: fault crash:after=holding-guard"
  expect_contains "$err" "nothing it began is committed"
  expect_equal "$(sqlite3 "$phased" "SELECT count(*) FROM attempt WHERE biz_seq = 'ph1'")" 0 \
    "$strategy: nothing committed, no history row"
  expect_exit 137 "$IDEMLAB" "$strategy" --db "$phased" --biz-seq ph2 --from alice --to bob \
    --amount 1 --fault crash:after=after-commit
  expect_equal "$(pairs "$phased" ph2)" 1 "$strategy: a crash after the commit keeps the money moved"
  expect_contains "$err" "crash: fault crash:after=after-commit"
  expect_contains "$err" "the transfer is committed, its answer never sent"
  expect_exit 0 "$IDEMLAB" history --db "$phased" --biz-seq ph2 --json
  expect_contains "$out" '"outcome":"applied"'
  expect_contains "$out" '"fault":"crash:after=after-commit"'
  expect_exit 0 "$IDEMLAB" "$strategy" --db "$phased" --biz-seq ph2 --from alice --to bob --amount 1
  [ "$strategy" = naive ] || expect_contains "$out" "replayed"
  expect_exit 0 "$IDEMLAB" "$strategy" --db "$phased" --biz-seq ph3 --from alice --to bob \
    --amount 1 --fault slow:ms=10,at=before-guard
  integrity_ok "$phased"
done
expect_exit 2 "$IDEMLAB" naive --db "$db" --biz-seq ph4 --from alice --to bob --amount 1 \
  --fault crash:after=nowhere-guard
finish
