# The load checks of serve, for a ledger on any engine (serve-load, serve-load-servers).

# duplicates_checks DB KEYS: every safe strategy, then naive, each key twice at 32 connections.
# select-for-update runs with --unique-index: on PostgreSQL FOR UPDATE locks no missing row.
duplicates_checks() {
  local db=$1 keys=$2 strategy args
  [[ $db == *://* ]] || expect_exit 0 "$IDEMLAB" init --db "$db"
  for strategy in select-insert direct-insert state-machine dedup-table token select-for-update \
                  optimistic-lock lock-table; do
    args=(); [ "$strategy" = select-for-update ] && args=(--unique-index)
    serve_duplicates "$db" "$strategy" "$keys" "${args[@]}"
    expect_equal "$moved" "$((2 * keys)) $((2 * keys))" "$strategy on $db: each key moved once"
  done
  expect_exit 0 "$IDEMLAB" audit --db "$db"
  serve_duplicates "$db" naive "$keys"
  expect_equal "$moved" "$((2 * keys)) $((4 * keys))" "naive on $db: each key moved twice"
}

# killed_under_load_checks DB: serve dies by SIGKILL once half the requests were attempted;
# after a restart each key is retried until its answer is definitive.
killed_under_load_checks() {
  local db=$1 keys=100 n thread _
  [[ $db == *://* ]] || expect_exit 0 "$IDEMLAB" init --db "$db"
  start_serve --db "$db" --strategy dedup-table
  rm -rf "$work/wrk-done"; mkdir "$work/wrk-done"
  WRK_DONE=$work/wrk-done WRK_PREFIX=kill WRK_KEYS=$keys WRK_COPIES=2 \
    wrk -t2 -c32 -d600s -s "$ROOT/scripts/wrk/transfers.lua" "$base/" >"$work/wrk.out" 2>&1 &
  local wrk_pid=$!
  for _ in $(seq 1 60000); do
    [ "$(sql_on "$db" "SELECT count(*) FROM attempt WHERE biz_seq LIKE 'kill-%'")" -ge "$keys" ] && break
    sleep 0.01
  done
  kill -KILL "$serve_pid"; wait "$serve_pid" 2>/dev/null
  kill -INT "$wrk_pid"; wait "$wrk_pid"
  start_serve --db "$db" --strategy dedup-table
  for thread in 0 1; do
    for n in $(seq 0 $((keys - 1))); do retry_until_created "kill-$thread-$n"; done
  done
  stop_serve
  expect_equal "$(keys_moved "$db" kill)" "$((2 * keys)) $((2 * keys))" "killed under load: each key moved once"
  expect_exit 0 "$IDEMLAB" audit --db "$db"
}
