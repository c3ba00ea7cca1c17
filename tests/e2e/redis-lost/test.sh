# e2e: a Redis that dies under an attempt, as SIGKILL leaves it. Each attempt is held at a gate
# before a chosen step (slow:gate=, so the kill lands there for certain), Redis is killed, then
# the gate opens: the attempt's next Redis command meets a closed socket. It must answer exit 75
# with one error: line naming the lost connection (JSON under --json), never die of SIGPIPE
# (141), and record the attempt in the ledger. Redis then restarts empty, as one without
# persistence does; every request is retried to a definitive answer, and none moved money more
# than once: a forgotten token is answered token_unknown, store_lost_or_never_issued. Then
# simulate and explore with --redis, frozen (SIGSTOP) while Redis dies: one error: line, exit
# 75, reason connection_lost, no scratch ledger left. On SQLite, and on PostgreSQL under CI.
source "$(dirname "$0")/../lib.sh"
redis_dir=$work/redis
mkdir -p "$redis_dir"
REDIS="redis://$redis_dir/r.sock"
start_redis() {  # a Redis of this test's own, empty, as one without persistence restarts
  redis-server --port 0 --unixsocket "$redis_dir/r.sock" --save '' --appendonly no \
    --dir "$redis_dir" >>"$redis_dir/log" 2>&1 &
  redis_pid=$!
  local _
  for _ in $(seq 1 600); do redis-cli -s "$redis_dir/r.sock" ping >/dev/null 2>&1 && return; sleep 0.05; done
  fail "redis did not start: $(tail -n 5 "$redis_dir/log")"
}
kill_redis() { kill -KILL "$redis_pid"; wait "$redis_pid" 2>/dev/null; }
start_redis
trap 'kill -KILL "$redis_pid" 2>/dev/null; wait "$redis_pid" 2>/dev/null; rm -rf "$work"' EXIT

# held_attempt DB STRATEGY STEP BIZ [TOKEN]: one attempt held at a gate before STEP while Redis
# is killed; $code, $out and $err are its exit code, stdout (JSON) and stderr.
held_attempt() {
  local db=$1 strategy=$2 step=$3 biz=$4 token=${5:-} gate pid
  gate=$(mktemp -d "$work/gate.XXXXXX")
  "$IDEMLAB" "$strategy" --db "$db" --redis "$REDIS" ${token:+--token "$token"} --biz-seq "$biz" \
    --from alice --to bob --amount 5 --fault "slow:gate=$gate,at=$step" --json \
    >"$work/held.out" 2>"$work/held.err" &
  pid=$!
  wait_at_gate "$gate" "$pid"
  kill_redis
  touch "$gate/open"
  wait "$pid"; code=$?
  out=$(cat "$work/held.out"); err=$(cat "$work/held.err")
  start_redis
}

# retry_to_definitive DB STRATEGY BIZ [TOKEN]: the client's retries with the same biz_seq (and
# token), on the restarted Redis; $code is the last answer's exit code.
retry_to_definitive() {
  local db=$1 strategy=$2 biz=$3 token=${4:-}
  IDEMLAB_REDIS=$REDIS "$ROOT/scripts/retry-until-definitive" --attempts 5 -- "$strategy" \
    --db "$db" ${token:+--token "$token"} --biz-seq "$biz" --from alice --to bob --amount 5 \
    --json >"$work/retry.out" 2>"$work/retry.err"
  code=$?
}

lost_connection_checks() {  # WHAT: the held attempt's answer
  checks=$((checks + 4))
  [ "$code" = 75 ] || fail "$1: exit $code, wanted 75 (141 is SIGPIPE) | $err"
  expect_one_error_line
  expect_contains "$err" "lost the connection to $REDIS"
  expect_equal "$(json_field "$out" reason)" connection_lost "$1: JSON reason"
}

run_on() {  # DB
  local db=$1 where=${1%%:*} token step biz n=0
  "$IDEMLAB" init --force --db "$db" >/dev/null
  for step in check_accounts begin consume_token; do
    n=$((n + 1)); biz="tok-$n"
    token=$("$IDEMLAB" token issue --db "$db" --redis "$REDIS")
    held_attempt "$db" token "$step" "$biz" "$token"
    lost_connection_checks "token at $step on $where"
    expect_contains "$(sql_on "$db" "SELECT outcome || ' ' || reason FROM attempt WHERE biz_seq = '$biz'")" \
      "timeout connection_lost"
    retry_to_definitive "$db" token "$biz" "$token"
    expect_equal "$code" 6 "token at $step on $where: the retry after Redis restarted empty"
    expect_equal "$(json_field "$(cat "$work/retry.out")" reason)" store_lost_or_never_issued \
      "token at $step on $where: the forgotten token's reason"
    expect_equal "$(pairs "$db" "$biz")" 0 "token at $step on $where: nothing moved"
  done
  # A fourth kill, under a retry whose token Redis already forgot.
  held_attempt "$db" token consume_token tok-1 "$token"
  lost_connection_checks "token retry at consume_token on $where"
  for step in acquire_lock select_flow begin check_lock_owner; do
    n=$((n + 1)); biz="lock-$n"
    held_attempt "$db" lock-table "$step" "$biz"
    lost_connection_checks "lock-table at $step on $where"
    retry_to_definitive "$db" lock-table "$biz"
    expect_equal "$code" 0 "lock-table at $step on $where: the retry after Redis restarted"
    expect_equal "$(pairs "$db" "$biz")" 1 "lock-table at $step on $where: moved once"
  done
  # After the commit the money moved: a lock left unreleased expires, and the answer stands.
  held_attempt "$db" lock-table release_lock lock-last
  expect_equal "$code" 0 "lock-table at release_lock on $where: applied"
  expect_equal "$(pairs "$db" lock-last)" 1 "lock-table at release_lock on $where: moved once"
  expect_exit 0 "$IDEMLAB" audit --db "$db"
  integrity_ok "$db"
}

run_on "$work/l.db"

# simulate and explore frozen while Redis dies, then let go: the run stops with one line and
# exit 75, and leaves no scratch ledger.
frozen_run() {  # WHAT ARGS...
  local what=$1 pid _; shift
  "$IDEMLAB" "$@" --redis "$REDIS" --json >"$work/run.out" 2>"$work/run.err" &
  pid=$!
  for _ in $(seq 1 6000); do
    [ -n "$(redis-cli -s "$redis_dir/r.sock" --scan --pattern 'idemlab_scratch_*' | head -n 1)" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.01
  done
  kill -STOP "$pid"
  kill_redis
  kill -CONT "$pid"
  wait "$pid"; code=$?
  out=$(cat "$work/run.out"); err=$(cat "$work/run.err")
  expect_equal "$code" 75 "$what: exit | $err"
  expect_one_error_line
  expect_contains "$err" "lost the connection to $REDIS"
  expect_contains "$out" '"reason":"connection_lost"'
  start_redis
}
frozen_run "simulate token" simulate --strategy token --requests 1000000 --scenario double-click
frozen_run "explore lock-table" explore --strategy lock-table -k 3 --crash

if [ -n "${IDEMLAB_TEST_POSTGRES:-}" ]; then
  own_server_databases redis_lost
  run_on "$IDEMLAB_TEST_POSTGRES"
  frozen_run "simulate lock-table on PostgreSQL" simulate --db "$IDEMLAB_TEST_POSTGRES" \
    --strategy lock-table --requests 100000
  expect_equal "$(scratch_left "$IDEMLAB_TEST_POSTGRES")" 0 "no scratch ledger left on PostgreSQL"
elif [ "${CI:-}" = true ]; then
  fail "no test servers under CI"
fi
finish
