# e2e: every strategy subcommand: first attempt, replay, mismatch, rejection, faults.
source "$(dirname "$0")/../lib.sh"
db=$work/l.db
for strategy in select-insert direct-insert state-machine dedup-table token select-for-update \
                optimistic-lock lock-table naive; do
  "$IDEMLAB" init --db "$db" --force >/dev/null
  extra=()
  [ "$strategy" = token ] && extra=(--token "$("$IDEMLAB" token issue --db "$db")")
  # A lock that outlives any slow machine; the test plays its expiry below.
  [ "$strategy" = lock-table ] && extra=(--lock-ttl-ms 600000)
  args=(--db "$db" --from alice --to bob "${extra[@]}")

  expect_exit 0 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t1 --amount 10 --json
  expect_equal "$(json_field "$out" outcome)" applied "$strategy first attempt"
  expect_equal "$(json_field "$out" replayed)" false "$strategy first attempt replayed"
  expect_equal "$(json_field "$out" strategy)" "$strategy" "$strategy name in json"
  expect_equal "$(pairs "$db" t1)" 1 "$strategy journal pairs after first"

  if [ "$strategy" = naive ]; then
    expect_exit 0 "$IDEMLAB" naive "${args[@]}" --biz-seq t1 --amount 10 --json
    expect_equal "$(pairs "$db" t1)" 2 "naive moves money again"
    expect_exit 7 "$IDEMLAB" audit --db "$db"
    continue
  fi
  expect_exit 0 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t1 --amount 10 --json
  expect_equal "$(json_field "$out" outcome)" applied "$strategy replay"
  expect_equal "$(json_field "$out" replayed)" true "$strategy replay flag"
  expect_exit 0 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t1 --amount 10
  expect_contains "$out" "applied (replayed): t1"
  expect_exit 4 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t1 --amount 11 --json
  expect_equal "$(json_field "$out" outcome)" mismatch "$strategy mismatch"
  expect_one_error_line
  expect_equal "$(pairs "$db" t1)" 1 "$strategy journal pairs after repeats"

  # A rejection is definitive and replayed.
  [ "$strategy" = token ] && args=(--db "$db" --from alice --to bob --token "$("$IDEMLAB" token issue --db "$db")")
  expect_exit 3 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t2 --amount 5000 --json
  expect_equal "$(json_field "$out" reason)" insufficient_funds "$strategy rejection"
  expect_exit 3 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t2 --amount 5000 --json
  expect_equal "$(json_field "$out" replayed)" true "$strategy rejection replayed"

  # response-lost: exit 75, the work is done; the retry gets the first answer.
  [ "$strategy" = token ] && args=(--db "$db" --from alice --to bob --token "$("$IDEMLAB" token issue --db "$db")")
  expect_exit 75 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t3 --amount 1 --fault response-lost
  expect_one_error_line
  expect_equal "$(pairs "$db" t3)" 1 "$strategy response-lost did the work"
  expect_exit 0 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t3 --amount 1 --json
  expect_equal "$(json_field "$out" outcome)" applied "$strategy retry after response-lost"

  # request-lost: exit 75, nothing happens.
  expect_exit 75 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t4 --amount 1 --fault request-lost
  expect_equal "$(pairs "$db" t4)" 0 "$strategy request-lost"

  # crash after the money moved but before commit: nothing stays; the retry applies.
  [ "$strategy" = token ] && args=(--db "$db" --from alice --to bob --token "$("$IDEMLAB" token issue --db "$db")")
  expect_exit 137 bash -c '"$0" "$@"' "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t5 --amount 1 --fault crash:after=journal_credit
  expect_equal "$(pairs "$db" t5)" 0 "$strategy crash before commit keeps nothing"
  if [ "$strategy" = lock-table ]; then
    # The dead process still holds the lock until its TTL runs out; then it is free. (The
    # expiry is set to the past by hand: a clock the test controls, not a sleep.)
    expect_exit 5 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t5 --amount 1
    sqlite3 "$db" "UPDATE lock SET lock_until_ms = 0"
  fi
  expect_exit 0 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t5 --amount 1 --json
  expect_equal "$(json_field "$out" outcome)" applied "$strategy retry after crash"

  # crash right after commit: the work stays; the retry replays.
  [ "$strategy" = token ] && args=(--db "$db" --from alice --to bob --token "$("$IDEMLAB" token issue --db "$db")")
  expect_exit 137 bash -c '"$0" "$@"' "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t6 --amount 1 --fault crash:after=commit
  expect_equal "$(pairs "$db" t6)" 1 "$strategy crash after commit keeps the work"
  expect_exit 0 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t6 --amount 1 --json
  expect_equal "$(json_field "$out" outcome)" applied "$strategy retry after crash after commit"

  expect_exit 0 "$IDEMLAB" audit --db "$db"
  integrity_ok "$db"
done
# Phases place a fault at the same point of the work in every strategy.
for strategy in select-insert state-machine dedup-table naive; do
  phased=$work/phase-$strategy.db
  "$IDEMLAB" init --db "$phased" >/dev/null
  expect_exit 137 "$IDEMLAB" "$strategy" --db "$phased" --biz-seq ph1 --from alice --to bob \
    --amount 1 --fault crash:after=holding-guard
  expect_equal "$(pairs "$phased" ph1)" 0 "$strategy: a crash holding the guard moves nothing"
  expect_exit 137 "$IDEMLAB" "$strategy" --db "$phased" --biz-seq ph2 --from alice --to bob \
    --amount 1 --fault crash:after=after-commit
  expect_equal "$(pairs "$phased" ph2)" 1 "$strategy: a crash after the commit keeps the money moved"
  expect_exit 0 "$IDEMLAB" "$strategy" --db "$phased" --biz-seq ph3 --from alice --to bob \
    --amount 1 --fault slow:ms=10,at=before-guard
  integrity_ok "$phased"
done
expect_exit 2 "$IDEMLAB" naive --db "$db" --biz-seq ph4 --from alice --to bob --amount 1 \
  --fault crash:after=nowhere-guard
finish
