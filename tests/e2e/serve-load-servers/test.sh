# e2e: serve-load's checks on PostgreSQL and MariaDB (requests side by side on a pool of
# connections), and with the token and lock-table guards in Redis.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../serve_lib.sh"
source "$(dirname "$0")/../serve-load/checks.sh"
require_test_servers
own_server_databases serve-load-servers
for db in "$IDEMLAB_TEST_POSTGRES" "$IDEMLAB_TEST_MARIADB"; do
  expect_exit 0 "$IDEMLAB" init --db "$db" --force
  killed_under_load_checks "$db"
  for strategy in token lock-table; do
    serve_duplicates "$db" "$strategy" 100 --redis "$IDEMLAB_TEST_REDIS"
    expect_equal "$moved" "200 200" "$strategy with Redis on $db: each key moved once"
  done
  duplicates_checks "$db" 100
done
finish
