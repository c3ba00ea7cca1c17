# e2e: e2e: transfer's checks for every strategy subcommand (first attempt, replay, mismatch,
# rejection, lost request and response, a crash before and after the commit) on PostgreSQL and
# MariaDB, and for token and lock-table with their tokens and locks in Redis.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../transfer/checks.sh"
require_test_servers
own_server_databases transfer-servers
for db in "$IDEMLAB_TEST_POSTGRES" "$IDEMLAB_TEST_MARIADB"; do
  for strategy in select-insert direct-insert state-machine dedup-table token select-for-update \
                  optimistic-lock lock-table naive; do
    strategy_checks "$db" "$strategy"
  done
  export IDEMLAB_REDIS=$IDEMLAB_TEST_REDIS
  for strategy in token lock-table; do
    strategy_checks "$db" "$strategy"
  done
  unset IDEMLAB_REDIS
done

# The server ends the connection while an attempt is held at a gate inside its transaction,
# under a slow fault: the answer names the lost connection, not the fault that held it.
pg=$IDEMLAB_TEST_POSTGRES
expect_exit 0 "$IDEMLAB" init --db "$pg" --force
gate=$(mktemp -d "$work/gate.XXXXXX")
"$IDEMLAB" select-insert --db "$pg" --biz-seq cut-1 --from alice --to bob --amount 1 \
  --fault "slow:gate=$gate,at=debit" >"$work/cut.out" 2>"$work/cut.err" &
pid=$!
wait_at_gate "$gate" "$pid"
psql -qAtX "$pg" -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
  WHERE datname = '$(db_name "$pg")' AND pid <> pg_backend_pid()" >/dev/null
touch "$gate/open"
wait "$pid"; code=$?
expect_equal "$code" 75 "a lost connection under a slow fault: exit"
expect_contains "$(cat "$work/cut.err")" "error: timeout: lost the connection to postgresql://"
case $(cat "$work/cut.err") in *"no answer (slow"*) fail "the slow fault blamed: $(cat "$work/cut.err")" ;; esac
expect_exit 0 "$IDEMLAB" select-insert --db "$pg" --biz-seq cut-1 --from alice --to bob --amount 1
expect_exit 0 "$IDEMLAB" audit --db "$pg"
finish
