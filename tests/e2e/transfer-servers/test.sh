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
finish
