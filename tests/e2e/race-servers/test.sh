# e2e: e2e: race's pitfall races on PostgreSQL and MariaDB: naive and every race-exposed pitfall,
# eight twins held at a gate, move money more than once on both servers, and the audit names it;
# lock-table's expired lock lets a twin in without the owner checks, and not with them. (The
# safe strategies' races of 16 processes are in e2e: engines; Redis's in e2e: redis.)
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../race/checks.sh"
require_test_servers
own_server_databases race-servers
for db in "$IDEMLAB_TEST_POSTGRES" "$IDEMLAB_TEST_MARIADB"; do
  pitfall_races "$db"
  lock_races "$db"
done
finish
