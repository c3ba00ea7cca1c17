# e2e: the kill sweep, on SQLite and on each test server. For every safe strategy and every one
# of its steps, the process is killed right after the step (crash:after=STEP, a real SIGKILL
# mid-transaction), then the client retries until it hears a definitive answer. Whatever the
# step, the money moves exactly once and the audit stays clean: a server rolls back what a dead
# session left open, as SQLite does. A lock-table lock the dead attempt left is expired by the
# test (its expiry set to the past, as its TTL running out would), never slept for.
source "$(dirname "$0")/../lib.sh"
engines=("$work/sweep.db")
# In the sanitizers' pass, SQLite only: what a server does with a killed session is the
# server's, swept in the normal pass; idemlab's retries on each server run in that pass's other
# server tests.
if [ -n "${IDEMLAB_SANITIZED:-}" ]; then
  :
elif [ -n "${IDEMLAB_TEST_POSTGRES:-}" ] && [ -n "${IDEMLAB_TEST_MARIADB:-}" ]; then
  own_server_databases kill_sweep
  engines+=("$IDEMLAB_TEST_POSTGRES" "$IDEMLAB_TEST_MARIADB")
elif [ "${CI:-}" = true ]; then
  fail "no test servers under CI (run through scripts/test)"
fi
sql() {  # DB STATEMENT: run one statement on the ledger, as its engine's own shell would
  case $1 in
    postgresql://*) psql -qAtX "$1" -c "$2" ;;
    mariadb://*) mariadb --no-defaults -N -S "${1##*socket=}" -u idemlab -pidemlab "$(db_name "$1")" \
                   -e "SET sql_mode = 'ANSI_QUOTES'; $2" ;;
    *) sqlite3 "$1" "$2" ;;
  esac
}
steps() {  # STRATEGY -> its steps, as explain lists them
  "$IDEMLAB" explain "$1" --json |
    python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["steps"]))'
}
for db in "${engines[@]}"; do
  for strategy in select-insert direct-insert state-machine dedup-table token select-for-update \
                  optimistic-lock lock-table; do
    "$IDEMLAB" init --force --db "$db" >/dev/null
    n=0
    for step in $(steps "$strategy"); do
      n=$((n + 1))
      args=(--db "$db" --biz-seq "k$n" --from alice --to bob --amount 1)
      [ "$strategy" = token ] && args+=(--token "$("$IDEMLAB" token issue --db "$db")")
      ("$IDEMLAB" "$strategy" "${args[@]}" --fault "crash:after=$step") >/dev/null 2>&1
      [ "$strategy" = lock-table ] && sql "$db" 'UPDATE "lock" SET lock_until_ms = 0' >/dev/null
      "$ROOT/scripts/retry-until-definitive" --attempts 3 --pause-ms 0 -- "$strategy" "${args[@]}" \
        >/dev/null 2>&1
      expect_equal "$?" 0 "$strategy killed after $step on ${db%%:*}: the retry's exit"
    done
    expect_equal "$(moved "$db")" "$n" "$strategy on ${db%%:*}: money moved once per request"
    expect_exit 0 "$IDEMLAB" audit --db "$db"
  done
done
finish
