# e2e: a server that accepts and stays silent, as Redis, MariaDB, PostgreSQL and the broker: each
# client gives up after connect_timeout with exit 75 and one line naming the server and the
# wait (a JSON object under --json), and SIGTERM during each wait ends it with 143 at once,
# whether the command stops at the signal's default (one attempt) or by its own handler
# (simulate, whose wait a signal must cut short). The bounds below are hang guards, far above
# the 2 s wait: the exit code says what ended the command (75 its timeout, 143 the signal), and
# on a loaded machine (the suite at -j2 beside a build) the 2 s wait was seen to take 14 s.
source "$(dirname "$0")/../lib.sh"
/usr/bin/python3 "$(dirname "$0")/silent.py" >"$work/port" 2>/dev/null &
silent=$!
trap 'kill -KILL "$silent" 2>/dev/null; wait "$silent" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 500); do [ -s "$work/port" ] && break; sleep 0.01; done
port=$(cat "$work/port")
expect_exit 0 "$IDEMLAB" init --db "$work/l.db"

elapsed_ms() { echo $((($(date +%s%N) - $1) / 1000000)); }

gives_up() {  # WHAT URL_SHOWN ARGS...: exit 75 within the wait, one line naming the server
  local what=$1 shown=$2 start; shift 2
  start=$(date +%s%N)
  expect_exit 75 "$IDEMLAB" "$@"
  local took; took=$(elapsed_ms "$start")
  echo "$what: exit 75 after $took ms"
  [ "$took" -lt 30000 ] || fail "$what: gave up after $took ms, past its 2 s wait"
  expect_one_error_line
  expect_contains "$err" "no answer from $shown within 2 s"
}
redis="redis://127.0.0.1:$port?connect_timeout=2"
gives_up redis "$redis" token issue --db "$work/l.db" --redis "$redis"
gives_up mariadb "mariadb://u:***@127.0.0.1:$port/x?connect_timeout=2" \
  accounts --db "mariadb://u:p@127.0.0.1:$port/x?connect_timeout=2"
gives_up postgresql "postgresql://u:***@127.0.0.1:$port/x?connect_timeout=2" \
  accounts --db "postgresql://u:p@127.0.0.1:$port/x?connect_timeout=2"
gives_up broker "amqp://guest@127.0.0.1:$port/" \
  consume --broker "amqp://guest:guest@127.0.0.1:$port/?connect_timeout=2" --queue q \
  --db "$work/l.db" --strategy direct-insert
# Failover candidates, the silent one first (a primary stopped while another is promoted): it
# costs its own 2 s, then the next host answers, as libpq's own connect does. (With the test
# servers: the next host is their PostgreSQL, on its unix socket, port 5432.)
if [ -n "${IDEMLAB_TEST_POSTGRES:-}" ]; then
  own_server_databases server-silence
  socket=${IDEMLAB_TEST_POSTGRES##*host=}
  candidates="postgresql://postgres@/idemlab_server_silence?host=127.0.0.1,$socket&port=$port,5432&connect_timeout=2"
  expect_exit 0 "$IDEMLAB" init --db "$IDEMLAB_TEST_POSTGRES"
  start=$(date +%s%N)
  expect_exit 0 "$IDEMLAB" accounts --db "$candidates"
  echo "candidates, the silent one first: answered after $(elapsed_ms "$start") ms"
  expect_contains "$out" "alice"
fi
expect_exit 75 "$IDEMLAB" token issue --db "$work/l.db" --redis "$redis" --json
expect_contains "$out" '"code":"retryable"'
expect_contains "$out" "no answer from $redis within 2 s"

terminated() {  # WHAT ARGS...: SIGTERM while it waits on the silent server: 143, at once
  local what=$1; shift
  "$IDEMLAB" "$@" >/dev/null 2>"$work/term.err" &
  local pid=$! start code=0
  sleep 0.5  # only lets it reach the wait: whether it got there or not, SIGTERM must end it
  start=$(date +%s%N)
  kill -TERM "$pid"
  wait "$pid" || code=$?
  local took; took=$(elapsed_ms "$start")
  echo "$what: exit $code $took ms after SIGTERM"
  expect_equal "$code" 143 "$what: SIGTERM during the wait"
  [ "$took" -lt 30000 ] || fail "$what: took $took ms to end after SIGTERM"
}
terminated "redis, one attempt" lock-table --db "$work/l.db" --redis "redis://127.0.0.1:$port" \
  --biz-seq s1 --from alice --to bob --amount 1
terminated "redis, simulate" simulate --strategy token --redis "redis://127.0.0.1:$port" --requests 5
terminated "mariadb, simulate" simulate --strategy direct-insert \
  --db "mariadb://u:p@127.0.0.1:$port/x" --requests 5
terminated "postgresql, simulate" simulate --strategy direct-insert \
  --db "postgresql://u:p@127.0.0.1:$port/x" --requests 5
terminated "broker, consume" consume --broker "amqp://guest:guest@127.0.0.1:$port/" --queue q \
  --db "$work/l.db" --strategy direct-insert
expect_exit 2 "$IDEMLAB" consume --broker "amqps://guest:guest@127.0.0.1:$port/" --queue q \
  --db "$work/l.db" --strategy direct-insert
expect_contains "$err" "amqps:// (AMQP over TLS) is not supported"
finish
