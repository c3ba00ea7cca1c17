# e2e: a server that is full is not a server that is gone. On each test server a user of this
# test's own may hold 40 connections (PostgreSQL: a role's CONNECTION LIMIT; MariaDB: an
# account's MAX_USER_CONNECTIONS). 50 attempts start at once, each held at a gate once it has
# its connection, so that 40 hold theirs for certain while the other 10 ask: those answer exit
# 75, reason server_busy, one line naming the limit, nothing sent. Retried, every request moves
# money exactly once. Wrong credentials and an unknown database stay exit 8. simulate asking for
# more connections than the server allows is refused with both numbers before any request
# runs. And a ledger on a read-only mount can be read (as root: mount).
source "$(dirname "$0")/../lib.sh"
require_test_servers
own_server_databases server_busy
allowed=40 tries=50  # connections the test's user may hold; attempts started at once
pg_admin=$IDEMLAB_TEST_POSTGRES
maria_admin=$IDEMLAB_TEST_MARIADB
maria_socket=${IDEMLAB_TEST_MARIADB##*socket=}
pg_db=$(db_name "$pg_admin") maria_db=$(db_name "$maria_admin")
PGOPTIONS=--client-min-messages=warning psql -qAtX "$pg_admin" -c "DROP ROLE IF EXISTS busy_tester" \
  -c "CREATE ROLE busy_tester LOGIN CONNECTION LIMIT $allowed" \
  -c "GRANT ALL ON DATABASE $pg_db TO busy_tester" -c "GRANT ALL ON SCHEMA public TO busy_tester" \
  >/dev/null
mariadb --no-defaults -S "$maria_socket" -u idemlab -pidemlab -e "
  DROP USER IF EXISTS busy_tester@localhost;
  CREATE USER busy_tester@localhost IDENTIFIED BY 'busy' WITH MAX_USER_CONNECTIONS $allowed;
  GRANT ALL ON $maria_db.* TO busy_tester@localhost;"
pg=${pg_admin/postgresql:\/\/postgres@/postgresql:\/\/busy_tester@}
maria=${maria_admin/mariadb:\/\/idemlab:idemlab@/mariadb:\/\/busy_tester:busy@}
# On a loaded machine 50 connections opening at once can take more than the 10 s a client
# waits by default, and the ones past the limit would then be told "busy" by their own clock.
# Given 10 minutes, every refusal is the server's own word, naming its limit.
patient="connect_timeout=600"
# Once the gate opens, the 40 holders all debit alice: their transactions queue on her row.
# Under the sanitizers on a loaded machine the queue outlasts the 5 s lock wait a client allows
# by default (exit 5, lock_wait_timeout), so the attempts here wait up to 10 minutes too.
lock_patience=600000

# 50 attempts at once, each on a request of its own: the first 40 to connect wait at the gate
# holding their connection; the gate opens once every process has arrived there or ended. On a
# busy machine 50 sanitized processes can take a minute to start: a waiting one gives up the gate
# only after 15 minutes (ms=), never before the test opens it.
at_once() {  # URL WHAT
  local url=$1 what=$2 gate=$work/gate.$2 i pids=() _ code busy=0 applied=0 other=0
  mkdir -p "$gate" "$work/$what"
  for i in $(seq 1 "$tries"); do
    "$IDEMLAB" select-insert --db "$url" --biz-seq "b$i" --from alice --to bob --amount 1 --json \
      --busy-timeout-ms "$lock_patience" --fault "slow:gate=$gate,at=before-guard,ms=900000" \
      >"$work/$what/$i.out" 2>"$work/$what/$i.err" &
    pids+=($!)
  done
  local ready=0
  for _ in $(seq 1 12000); do
    local ended=0 pid
    for pid in "${pids[@]}"; do [ -d "/proc/$pid" ] || ended=$((ended + 1)); done
    ready=$(( $(find "$gate" -name 'arrived.*' | wc -l) + ended ))
    [ "$ready" -ge "$tries" ] && break
    sleep 0.01
  done
  [ "$ready" -ge "$tries" ] || fail "$what: only $ready of $tries arrived at the gate or ended"
  touch "$gate/open"
  for i in $(seq 1 "$tries"); do
    wait "${pids[$((i - 1))]}"; code=$?
    case $code in
      0) applied=$((applied + 1)) ;;
      75) busy=$((busy + 1))
          grep -q '"reason":"server_busy"' "$work/$what/$i.out" ||
            fail "$what b$i: exit 75 without server_busy: $(cat "$work/$what/$i.out")"
          [ "$(grep -c . "$work/$what/$i.err")" = 1 ] || fail "$what b$i: not one error line" ;;
      *) other=$((other + 1)); fail "$what b$i: exit $code: $(cat "$work/$what/$i.err")" ;;
    esac
  done
  checks=$((checks + 3))
  [ "$other" = 0 ] || fail "$what: $other answers were neither applied nor server_busy"
  [ "$busy" -ge $((tries - allowed)) ] ||
    fail "$what: $busy refused as busy, wanted at least $((tries - allowed)) ($applied applied)"
  local line
  line=$(cat "$work/$what"/*.err | grep -m 1 "error:")
  expect_contains "$line" "is busy: the "
  expect_contains "$line" " is reached; nothing was sent: retry later"
  # Retried until definitive, every request moves money exactly once.
  for i in $(seq 1 "$tries"); do
    "$ROOT/scripts/retry-until-definitive" -- select-insert --db "$url" --biz-seq "b$i" \
      --from alice --to bob --amount 1 --busy-timeout-ms "$lock_patience" >/dev/null 2>&1 || fail "$what b$i: no definitive answer"
  done
  checks=$((checks + 1))
  [ "$(sql_on "$url" "SELECT count(*) FROM journal WHERE side = 'debit'")" = "$tries" ] ||
    fail "$what: $(sql_on "$url" "SELECT count(*) FROM journal WHERE side = 'debit'") transfers, wanted $tries"
  expect_exit 0 "$IDEMLAB" audit --db "$url"
}
expect_exit 0 "$IDEMLAB" init --db "$pg"
at_once "$pg&$patient" postgresql
expect_exit 0 "$IDEMLAB" init --db "$maria"
at_once "$maria&$patient" mariadb

# What does not pass stays exit 8: wrong credentials, an unknown database.
expect_exit 8 "$IDEMLAB" accounts --db "${maria/busy_tester:busy@/busy_tester:wrong@}"
expect_one_error_line
expect_exit 8 "$IDEMLAB" accounts --db "${pg/\/$pg_db?/\/no_such_database?}"
expect_one_error_line

# More clients than the server allows connections: refused with both numbers, before any
# request runs (no scratch ledger was made).
for url in "$pg" "$maria"; do
  expect_exit 2 "$IDEMLAB" simulate --db "$url" --strategy state-machine --concurrency 200 \
    --requests 1000
  expect_one_error_line
  expect_contains "$err" "simulate needs up to 1004 connections"
  expect_contains "$err" "more than the $allowed its"
  expect_equal "$(scratch_left "$pg_admin")" 0 "no scratch ledger on PostgreSQL"
done

psql -qAtX "$pg_admin" -c "DROP OWNED BY busy_tester" -c "DROP ROLE busy_tester" >/dev/null
mariadb --no-defaults -S "$maria_socket" -u idemlab -pidemlab -e "DROP USER busy_tester@localhost"

# A ledger on a read-only mount: the read commands read it (immutable), a write says read-only.
if [ "$(id -u)" -eq 0 ]; then
  mnt=$work/mnt
  mkdir -p "$mnt"
  mount -t tmpfs -o size=4m tmpfs "$mnt"
  trap 'umount "$mnt" 2>/dev/null; rm -rf "$work"' EXIT
  "$IDEMLAB" init --db "$mnt/l.db" >/dev/null
  "$IDEMLAB" state-machine --db "$mnt/l.db" --biz-seq r1 --from alice --to bob --amount 5 >/dev/null
  mount -o remount,ro "$mnt"
  expect_exit 0 "$IDEMLAB" accounts --db "$mnt/l.db"
  expect_contains "$out" "alice     995.00"
  expect_exit 0 "$IDEMLAB" audit --db "$mnt/l.db"
  expect_exit 0 "$IDEMLAB" history --db "$mnt/l.db"
  expect_exit 0 "$IDEMLAB" query --db "$mnt/l.db" --biz-seq r1
  expect_exit 8 "$IDEMLAB" state-machine --db "$mnt/l.db" --biz-seq r2 --from alice --to bob --amount 5
  expect_contains "$err" "read-only"
fi
finish
