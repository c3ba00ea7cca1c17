# The checks every strategy subcommand passes on one ledger: first attempt, replay, mismatch,
# rejection, lost request and response, a crash before and after the commit. Sourced by
# e2e: transfer (SQLite) and e2e: transfer-servers (PostgreSQL and MariaDB, Redis guards).
# strategy_checks DB STRATEGY; with $IDEMLAB_REDIS set, tokens and locks live there.
strategy_checks() {
  local db=$1 strategy=$2
  local -a extra args
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
    return
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
  if [ "$strategy" = token ] && [ -n "${IDEMLAB_REDIS:-}" ]; then
    # Redis spent the token outside the ledger's transaction, which the crash rolled back: the
    # request is stuck. Its token is used (by this request), no money moved, and every retry
    # hears in_progress. In the ledger, the token row rolls back with the work.
    expect_exit 5 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t5 --amount 1 --json
    expect_equal "$(pairs "$db" t5)" 0 "token in Redis: stuck after a crash before the commit"
  else
    if [ "$strategy" = lock-table ]; then
      # The dead process still holds the lock until its TTL runs out; then it is free. (The
      # expiry is set to the past by hand: a clock the test controls, not a sleep.)
      expect_exit 5 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t5 --amount 1
      expire_locks "$db"
    fi
    expect_exit 0 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t5 --amount 1 --json
    expect_equal "$(json_field "$out" outcome)" applied "$strategy retry after crash"
  fi

  # crash right after commit: the work stays; the retry replays.
  [ "$strategy" = token ] && args=(--db "$db" --from alice --to bob --token "$("$IDEMLAB" token issue --db "$db")")
  expect_exit 137 bash -c '"$0" "$@"' "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t6 --amount 1 --fault crash:after=commit
  expect_equal "$(pairs "$db" t6)" 1 "$strategy crash after commit keeps the work"
  expect_exit 0 "$IDEMLAB" "$strategy" "${args[@]}" --biz-seq t6 --amount 1 --json
  expect_equal "$(json_field "$out" outcome)" applied "$strategy retry after crash after commit"

  expect_exit 0 "$IDEMLAB" audit --db "$db"
  integrity_ok "$db"
}
