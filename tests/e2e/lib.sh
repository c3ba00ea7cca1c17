# Shared helpers for end-to-end tests: run the real binary, check exit codes, output and the
# ledger's integrity. Each test.sh sources this and ends with `finish`.
set -uo pipefail
IDEMLAB=${IDEMLAB:?set IDEMLAB to the idemlab binary}
ROOT=${IDEMLAB_ROOT:?set IDEMLAB_ROOT to the source tree}
export IDEMLAB
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
checks=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
# unless_sanitized FULL LESS: FULL in the normal pass, LESS in the sanitizers' pass (where
# tests/CMakeLists.txt sets IDEMLAB_SANITIZED): for repetitions that check bytes or bear load,
# which that pass, checking memory, need not make again at full length.
unless_sanitized() { if [ -n "${IDEMLAB_SANITIZED:-}" ]; then echo "$2"; else echo "$1"; fi; }
# Debian's own python3 when there is one, not a version manager's shim in front of it: a shim
# costs about a second a call on a busy machine, and the tests read JSON with python3 often.
if [ -x /usr/bin/python3 ]; then python3() { /usr/bin/python3 "$@"; }; fi

# expect_exit CODE COMMAND...: runs it, keeps stdout in $out, stderr in $err, its exit in $exited.
expect_exit() {
  local want=$1; shift
  checks=$((checks + 1))
  "$@" >"$work/stdout" 2>"$work/stderr"
  local got=$?
  exited=$got
  out=$(cat "$work/stdout"); err=$(cat "$work/stderr")
  [ "$got" = "$want" ] || fail "exit $got, wanted $want: $* | stdout: $out | stderr: $err"
}
expect_contains() {  # TEXT NEEDLE
  checks=$((checks + 1))
  case "$1" in *"$2"*) ;; *) fail "expected '$2' in: $1" ;; esac
}
expect_equal() {  # ACTUAL EXPECTED WHAT
  checks=$((checks + 1))
  [ "$1" = "$2" ] || fail "$3: got '$1', wanted '$2'"
}
# One error line, and it starts with "error:".
expect_one_error_line() {
  checks=$((checks + 1))
  local lines; lines=$(printf '%s\n' "$err" | grep -c .)
  [ "$lines" = 1 ] && [[ "$err" == error:* ]] || fail "wanted one error: line, got: $err"
}
integrity_ok() {  # DB (a server checks its own pages: nothing to do for a URL)
  case $1 in *://*) return 0 ;; esac
  expect_equal "$(sqlite3 "$1" 'PRAGMA integrity_check')" ok "integrity_check of $1"
}
sql_on() {  # DB SQL -> its answer, unaligned: a SQLite file, or a test server's database
  case $1 in
    postgresql://*) psql -qAtX "$1" -c "$2" ;;
    mariadb://*socket=*)
      local socket=${1##*socket=}
      mariadb --no-defaults -N -S "${socket%%&*}" -u idemlab -pidemlab "$(db_name "$1")" \
        -e "SET SESSION sql_mode = 'ANSI_QUOTES'; $2" ;;
    mariadb://*)  # over TCP: the first HOST:PORT named (a Galera cluster's node 1)
      local address=${1#*@}; address=${address%%[,/]*}
      mariadb --no-defaults -N -h "${address%:*}" -P "${address##*:}" -u idemlab -pidemlab \
        "$(db_name "$1")" -e "SET SESSION sql_mode = 'ANSI_QUOTES'; $2" ;;
    *) sqlite3 "$1" "$2" ;;
  esac
}
digest() { sqlite3 "$1" .dump | sha256sum; }
json_field() {  # JSON FIELD -> value (strings unquoted)
  printf '%s' "$1" | python3 -c "import json,sys; v=json.load(sys.stdin)[sys.argv[1]]; print(json.dumps(v) if not isinstance(v,str) else v)" "$2"
}
pairs() {  # DB BIZ_SEQ -> journal pairs
  sql_on "$1" "SELECT count(*) FROM journal WHERE biz_seq = '$2' AND side = 'debit'"
}
# hold_while PID COMMAND...: stops PID (SIGSTOP) where it is, and keeps it stopped if COMMAND,
# asked then, prints a number above 0 (a transaction held open and idle): what it saw is then
# certainly frozen until PID goes on. Otherwise PID goes on for a tenth of a second and is
# stopped again, 20 times at most; after the last it stays stopped wherever it is. So PID is
# certain to be stopped mid-run, and the move the caller makes next lands there whether or not a
# transaction was open (sampling alone, it once ran to its end before one was seen). Prints
# "held" or "stopped". Returns 1 only if PID had ended.
hold_while() {
  local pid=$1 try
  shift
  for try in $(seq 1 20); do
    stopped_now "$pid" || return 1
    [ "$("$@")" -gt 0 ] && { echo held; return 0; }
    [ "$try" -eq 20 ] && { echo stopped; return 0; }
    kill -CONT "$pid"
    sleep 0.1
  done
}
# stopped_now PID: sends SIGSTOP and waits (bounded) until the kernel shows PID stopped.
# Returns 1 if PID has ended (gone, or a zombie not yet reaped).
stopped_now() {
  local _
  kill -STOP "$1" 2>/dev/null || return 1
  for _ in $(seq 1 500); do
    case $(awk '/^State:/ {print $2}' "/proc/$1/status" 2>/dev/null) in
      T|t) return 0 ;;
      Z|"") return 1 ;;
    esac
    sleep 0.01
  done
  return 1
}
# walk_begun PID URL: waits until the scratch ledger explore PID made on URL's server has a
# journal row: its walk has begun, so it is past making that ledger (a failover then ends it
# with 75, as documented). Returns 1 if PID ended first.
walk_begun() {
  local pid=$1 url=$2 name _
  for _ in $(seq 1 3000); do
    kill -0 "$pid" 2>/dev/null || return 1
    name=$(sql_on "$url" "SELECT schema_name FROM information_schema.schemata
      WHERE schema_name LIKE 'idemlab_scratch_${pid}_%'" 2>/dev/null | head -1)
    [ -n "$name" ] && [ "$(sql_on "$url" "SELECT count(*) FROM $name.journal" 2>/dev/null)" \
      -gt 0 ] 2>/dev/null && return 0
    sleep 0.01
  done
  return 1
}
idle_in_transaction() {  # POSTGRESQL-URL -> idemlab's sessions there in a transaction, idle
  psql -qAtX "$1" -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'idemlab'
    AND state LIKE 'idle in transaction%'"
}
# explore_through_failover PRIMARY MOVE...: runs the explore --json command line in the array
# `explore` once undisturbed, then again, stopped mid-walk (by hold_while: while the PostgreSQL
# primary PRIMARY holds one of its transactions open and idle, when one is seen), across MOVE (a
# failover). Continued, it must end 0, having connected again, with the undisturbed run's counts.
explore_through_failover() {
  local primary=$1 reference run held how
  shift
  reference=$("${explore[@]}")
  "${explore[@]}" >"$work/explore.out" 2>"$work/explore.err" &
  run=$!
  walk_begun "$run" "$primary" && how=$(hold_while "$run" idle_in_transaction "$primary") ||
    fail "explore ended before the failover: $(cat "$work/explore.err")"
  echo "explore through a failover: $how (held: a transaction was open and idle)"
  expect_exit 0 "$@"
  kill -CONT "$run"
  wait "$run"
  expect_equal "$?" 0 "explore through a failover: $(cat "$work/explore.err")"
  held=$(cat "$work/explore.out")
  [ "$(json_field "$held" relinks)" -ge 1 ] || fail "explore held across a failover lost no link"
  expect_equal "$(sed 's/,"relinks":[0-9]*//' <<<"$held")" "$reference" \
    "explore through a failover counts what an undisturbed run counts"
}
finish() {
  if [ "$failures" -eq 0 ]; then echo "ok: $checks checks"; exit 0; fi
  echo "failed: $failures failure lines above; $checks checks ran"; exit 1
}
# wait_at_gate GATE PID: returns once the process PID has arrived at the slow:gate=GATE fault
# (or ended, or a minute passed): the step held there is certain to be waiting.
wait_at_gate() {
  local _
  for _ in $(seq 1 6000); do
    ls "$1"/arrived.* >/dev/null 2>&1 && return
    kill -0 "$2" 2>/dev/null || return
    sleep 0.01
  done
}
# wait_bounded PID WHAT [SECONDS]: waits for the background process PID (at most 120 s unless
# told) and sets wait_status to its exit code. One that is still there then fails the test with
# what the kernel says of it and each of its threads, and is killed: a hang shows where it hung
# instead of running into CTest's timeout with nothing said.
wait_bounded() {
  local pid=$1 what=$2 bound=${3:-120} _
  for _ in $(seq 1 $((bound * 20))); do
    kill -0 "$pid" 2>/dev/null || break
    [ "$(awk '/^State:/ {print $2}' "/proc/$pid/status" 2>/dev/null)" = Z ] && break
    sleep 0.05
  done
  if kill -0 "$pid" 2>/dev/null && [ "$(awk '/^State:/ {print $2}' "/proc/$pid/status")" != Z ]; then
    local threads
    threads=$(for task in /proc/"$pid"/task/*; do
      echo "$(cat "$task/comm") $(awk '/^State:/ {print $2 $3}' "$task/status") $(cat "$task/wchan")"
    done 2>/dev/null | tr '\n' ';')
    fail "$what did not end within $bound s; its threads: $threads; children: $(ps -o pid,stat,args --ppid "$pid" | tr '\n' ';')"
    kill -KILL "$pid" 2>/dev/null
  fi
  wait_status=0; wait "$pid" || wait_status=$?
}
# stopped_lock_holder COMMAND...: a lock-table attempt (COMMAND) takes its lock and stops
# before its transaction (--fault pause, held at a gate) until the kernel shows it stopped; then
# before_twin runs if the test defines it (a lease the test ends itself), and the twin (COMMAND
# again) is run until it is not answered in_progress: the lease has run out and it took the
# lock (bounded); then the gate opens and the first resumes. Sets twin_exit, first_exit and
# first_err.
stopped_lock_holder() {
  lock_gates=$((${lock_gates:-0} + 1))
  local gate=$work/lock-gate-$lock_gates
  mkdir -p "$gate"
  "$@" --fault "pause:gate=$gate,at=begin" >"$work/first.out" 2>"$work/first.err" &
  local pid=$! _
  wait_at_gate "$gate" "$pid"
  for _ in $(seq 1 3000); do grep -q '^State:.T' "/proc/$pid/status" 2>/dev/null && break; sleep 0.01; done
  grep -q '^State:.T' "/proc/$pid/status" || fail "$*: the first attempt never stopped"
  if declare -F before_twin >/dev/null; then before_twin; fi
  twin_exit=5
  for _ in $(seq 1 600); do  # in_progress until the stopped holder's lease has run out
    twin_exit=0; timeout -k 5 120 "$@" >"$work/twin.out" 2>&1 || twin_exit=$?
    [ "$twin_exit" -ne 5 ] && break
    sleep 0.05
  done
  touch "$gate/open"
  wait_bounded "$pid" "the first attempt, resumed"; first_exit=$wait_status
  first_err=$(cat "$work/first.err")
  [ "$twin_exit" = 124 ] && fail "a twin did not end within 120 s: $(cat "$work/twin.out")"
  return 0
}
# locks_served_and_consumed LOCKS DB WHAT QUEUE: serve and consume run lock-table with its locks in
# the store LOCKS (WHAT names it) and the fence in the fresh ledger DB: one POST and two
# deliveries (published to QUEUE), three transfers applied, a fence kept per lock.
locks_served_and_consumed() {
  local locks=$1 db=$2 what=$3 queue=$4
  expect_exit 0 "$IDEMLAB" init --db "$db"
  source "$ROOT/tests/e2e/serve_lib.sh"
  start_serve --db "$db" --strategy lock-table --locks "$locks" --fence
  post '"h1"' 'from=alice&to=bob&amount=1.00'
  expect_equal "$status" 201 "serve with its locks in $what"
  stop_serve
  expect_exit 0 "$IDEMLAB" publish --broker "$IDEMLAB_TEST_AMQP" --queue "$queue" --requests 2 \
    --prefix q
  expect_exit 0 timeout -k 5 120 "$IDEMLAB" consume --broker "$IDEMLAB_TEST_AMQP" --queue "$queue" \
    --db "$db" --strategy lock-table --locks "$locks" --fence --until-idle 500
  expect_exit 0 "$IDEMLAB" audit --db "$db"
  expect_contains "$out" "3 transfers applied"
  expect_equal "$(sql_on "$db" "SELECT count(*) FROM fence")" 3 "a fence kept per lock ($what)"
}
# hold_write_lock DB [SQL]: a sqlite3 process takes DB's write lock (BEGIN IMMEDIATE, or SQL
# that takes it) and keeps it until release_write_lock; returns once the lock is held for
# certain, so a test of a busy ledger depends on no sleep.
hold_write_lock() {
  local db=$1 take=${2:-BEGIN IMMEDIATE;}
  rm -f "$work/lock.fifo" "$work/lock.out"
  mkfifo "$work/lock.fifo"
  sqlite3 "$db" <"$work/lock.fifo" >"$work/lock.out" 2>&1 &
  lock_holder=$!
  exec 9>"$work/lock.fifo"
  printf '%s\nUPDATE account SET balance_minor = balance_minor;\nSELECT %s;\n' "$take" "'held'" >&9
  local _
  for _ in $(seq 1 6000); do grep -q held "$work/lock.out" 2>/dev/null && return 0; sleep 0.01; done
  fail "the write lock was never taken: $(cat "$work/lock.out")"
}
release_write_lock() {
  printf 'ROLLBACK;\n' >&9
  exec 9>&-
  wait "$lock_holder"
}
# own_redis: a Redis of this test's own, empty (no persistence), on a unix socket in $work,
# stopped when the test ends; its URL in $own_redis_url, its pid in $own_redis_pid. For a test
# that clears or restarts its Redis: the test servers' one Redis holds other tests' tokens and
# locks meanwhile (CTest runs tests in parallel), which a clear there would take from them.
own_redis() {
  mkdir -p "$work/redis"
  redis-server --port 0 --unixsocket "$work/redis/r.sock" --save '' --appendonly no \
    --dir "$work/redis" >>"$work/redis/log" 2>&1 &
  own_redis_pid=$!
  own_redis_url="redis://$work/redis/r.sock"
  trap 'kill -KILL "$own_redis_pid" 2>/dev/null; wait "$own_redis_pid" 2>/dev/null; rm -rf "$work"' EXIT
  local _
  for _ in $(seq 1 600); do redis-cli -s "$work/redis/r.sock" ping >/dev/null 2>&1 && return; sleep 0.05; done
  fail "redis did not start: $(tail -n 5 "$work/redis/log")"
}
# own_server_databases NAME: a PostgreSQL and a MariaDB database of this test's own (fresh),
# with IDEMLAB_TEST_POSTGRES and IDEMLAB_TEST_MARIADB pointed at them: CTest runs tests in
# parallel, and two tests sharing one ledger would see each other's transfers.
own_server_databases() {
  local name=idemlab_${1//-/_}
  psql -qAtX "$IDEMLAB_TEST_POSTGRES" -c "DROP DATABASE IF EXISTS $name" \
    -c "CREATE DATABASE $name" >/dev/null 2>&1
  mariadb --no-defaults -S "${IDEMLAB_TEST_MARIADB##*socket=}" -u idemlab -pidemlab \
    -e "DROP DATABASE IF EXISTS $name; CREATE DATABASE $name"
  IDEMLAB_TEST_POSTGRES=${IDEMLAB_TEST_POSTGRES/\/idemlab\?//$name?}
  IDEMLAB_TEST_MARIADB=${IDEMLAB_TEST_MARIADB/\/idemlab\?//$name?}
}
# Scratch ledgers (explore and simulate on a server) are named idemlab_scratch_<pid>_...: one
# whose process has ended was left behind. Other tests' runs, still going, are not counted.
scratch_left() {  # URL [PID] -> scratch schemas (PostgreSQL) or databases (MariaDB) left behind,
                  # or with PID: how many that process has
  local names name pid count=0
  case $1 in
    postgresql://*) names=$(sql_on "$1" "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'idemlab_scratch%'") ;;
    *) names=$(sql_on "$1" "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE 'idemlab_scratch%'") ;;
  esac
  for name in $names; do
    pid=${name#idemlab_scratch_}; pid=${pid%%_*}
    if [ -n "${2:-}" ]; then [ "$pid" = "$2" ] && count=$((count + 1))
    elif [ ! -d "/proc/$pid" ]; then count=$((count + 1)); fi
  done
  echo "$count"
}
# interrupted_drops_scratch URL WHAT ARGS...: idemlab ARGS (a long run on URL), interrupted by
# SIGINT and by SIGTERM once its scratch ledger exists, exits 130 and 143 and leaves none.
interrupted_drops_scratch() {
  local url=$1 what=$2 signal pid code want _; shift 2
  for signal in INT TERM; do
    "$IDEMLAB" "$@" >/dev/null 2>"$work/interrupted.err" &
    pid=$!
    for _ in $(seq 1 6000); do
      [ "$(scratch_left "$url" "$pid")" -gt 0 ] && break
      [ -d "/proc/$pid" ] || break
      sleep 0.01
    done
    kill "-$signal" "$pid"; wait "$pid"; code=$?
    want=130; [ "$signal" = TERM ] && want=143
    expect_equal "$code" "$want" "$what, SIG$signal: its exit"
    expect_equal "$(scratch_left "$url" "$pid")" 0 "$what, SIG$signal: no scratch ledger left"
  done
}
db_name() {  # URL -> its database
  local url=${1%%\?*}
  echo "${url##*/}"
}
# require_test_servers: the backend tests need the servers scripts/test starts; outside it they
# are skipped (exit 77), under CI never.
require_test_servers() {
  if [ -z "${IDEMLAB_TEST_POSTGRES:-}" ] || [ -z "${IDEMLAB_TEST_MARIADB:-}" ] ||
     [ -z "${IDEMLAB_TEST_REDIS:-}" ]; then
    [ "${CI:-}" = true ] && { echo "FAIL: no test servers under CI (run through scripts/test)" >&2; exit 1; }
    echo "skipped: no test servers (run through scripts/test, or scripts/servers run -- ctest)"
    exit 77
  fi
}
moved() {  # DB -> how many times money moved in the ledger, from its audit
  "$IDEMLAB" audit --db "$1" --json 2>/dev/null | grep -o '"times_money_moved":[0-9]*' | cut -d: -f2
}
expire_locks() {  # DB: the test plays the lock's expiry: a clock it controls, not a sleep
  if [ -n "${IDEMLAB_REDIS:-}" ]; then
    redis-cli -s "${IDEMLAB_REDIS#redis://}" --scan --pattern 'lock:*' |
      xargs -r redis-cli -s "${IDEMLAB_REDIS#redis://}" DEL >/dev/null
  else
    sql_on "$1" 'UPDATE "lock" SET lock_until_ms = 0'
  fi
}

# columns_add_up JSON WHAT: every row of compare's JSON puts each request in exactly one column.
columns_add_up() {
  checks=$((checks + 1))
  python3 - "$1" <<'PY' || fail "$2: the columns add up to the requests"
import json, sys
for r in json.loads(sys.argv[1])["rows"]:
    total = sum(r[k] for k in ("moved_once", "moved_twice_or_more", "never_moved", "stuck",
                               "refused", "gave_up"))
    assert total == r["requests"], (r["strategy"], r["pitfall"], total, r["requests"])
    assert r["not_moved"] == total - r["moved_once"] - r["moved_twice_or_more"], r
PY
}

# The model against the servers (tests/e2e/parity.table). A topology's test runs each of its
# cases on the servers and records it with parity_live; parity_check then runs every row of the
# topology in the model, and the table, the servers and the model must give the same.
parity_live() {  # CASE MOVED [EXIT]: the journal's moves, the client's last exit (twins: the best;
  printf '%s %s %s\n' "$1" "$2" "${3:-$exited}" >>"$work/parity.live"  # by default expect_exit's)
}
parity_check() {  # TOPOLOGY
  local line
  while IFS= read -r line; do
    checks=$((checks + 1))
    case $line in ok\ *) ;; *) fail "parity: $line" ;; esac
  done < <(python3 "$ROOT/tests/e2e/parity_check.py" "$ROOT/tests/e2e/parity.table" "$1" \
    "$work/parity.live" "$IDEMLAB" 2>&1 || echo "parity_check.py failed")
}
