# e2e: the throwaway servers scripts/servers starts for the backend tests (scripts/test runs the
# suite inside `scripts/servers run`): each answers on its unix socket, as the user its URL
# names, at the isolation level ENGINES.md measured as its default. Outside scripts/test the
# URLs are unset and the test is skipped; under CI it never is.
source "$(dirname "$0")/../lib.sh"
expect_exit 0 "$ROOT/scripts/servers" --help
expect_contains "$out" "scripts/servers up [NAME...]"
expect_exit 2 "$ROOT/scripts/servers" no-such-verb
expect_exit 2 "$ROOT/scripts/servers" up no-such-server
expect_contains "$err" "error: no server 'no-such-server'"
require_test_servers
# up NAME starts exactly that one, and up and env offer the variables idemlab reads.
export IDEMLAB_SERVERS_STATE=$work/servers.state
expect_exit 0 "$ROOT/scripts/servers" up redis
expect_contains "$out" "export IDEMLAB_REDIS='redis://"
expect_exit 0 "$ROOT/scripts/servers" env
expect_contains "$out" "export IDEMLAB_TEST_REDIS='redis://"
expect_contains "$out" "export IDEMLAB_REDIS='redis://"
case $out in *POSTGRES*|*AMQP*|*BROKER*) fail "up redis started more than Redis: $out" ;; esac
(eval "$out"; redis-cli -s "${IDEMLAB_REDIS#redis://}" ping) | grep -q PONG || fail "its Redis answers"
expect_exit 2 "$ROOT/scripts/servers" up redis
expect_contains "$err" "up already"
expect_exit 0 "$ROOT/scripts/servers" down
[ -e "$IDEMLAB_SERVERS_STATE" ] && fail "down leaves its state file"
unset IDEMLAB_SERVERS_STATE
level=$(psql -AtX "$IDEMLAB_TEST_POSTGRES" -c "SHOW transaction_isolation")
expect_equal "$level" "read committed" "PostgreSQL's default isolation"
expect_equal "$(psql -AtX "$IDEMLAB_TEST_POSTGRES" -c "SHOW deadlock_timeout")" 100ms \
  "PostgreSQL's deadlock_timeout for scratch runs"
socket=${IDEMLAB_TEST_MARIADB##*socket=}
level=$(mariadb --no-defaults -S "$socket" -u idemlab -pidemlab -N -e "SELECT @@tx_isolation" idemlab)
expect_equal "$level" REPEATABLE-READ "MariaDB's default isolation"
expect_equal "$(redis-cli -s "${IDEMLAB_TEST_REDIS#redis://}" ping)" PONG "Redis answers"
# Unix sockets only: no server listens on TCP.
psql -AtX "$IDEMLAB_TEST_POSTGRES" -c "SHOW listen_addresses" | grep -q . &&
  fail "PostgreSQL listens on TCP"
expect_equal "$(mariadb --no-defaults -S "$socket" -u idemlab -pidemlab -N -e 'SELECT @@skip_networking')" 1 \
  "MariaDB skips networking"
expect_equal "$(redis-cli -s "${IDEMLAB_TEST_REDIS#redis://}" config get port | tail -1)" 0 \
  "Redis listens on no port"
finish
