# e2e: the token strategy and lock-table with their guards in Redis as the references deploy it (a primary, a
# replica, three Sentinels: scripts/servers up redis-sentinel), through a failover placed with
# certainty: replication is cut, the first attempt's DEL is acknowledged by the primary and the
# attempt is held at a gate, the primary dies and a Sentinel promotes the replica, which never
# saw the DEL. The retry, following the Sentinels to the new primary, finds the token unused and
# moves the money again, on SQLite, PostgreSQL and MariaDB ledgers; the audit names it. The token kept
# in the ledger, its answer lost before the same failover, moves it once on each. lock-table: a lock taken on the old primary (its holder held at a
# gate) is not on the new one, so a twin takes it too: two holders; the safe lock-table still
# moves money once (its holder checks the lock and the record again before it writes), the
# variant that trusts the lock alone (ttl-too-short) moves it twice, and with --fence once: the
# fence (an INCR) went back with the failover, so the ledger refuses whichever holder writes
# second, the stale one or the rightful one. A demoted primary's READONLY and the primary's NOREPLICAS are
# unknown outcomes (75), and so is a guard write no replica acknowledged (?wait=1). One topology for the whole file: it is spent by its failover.
source "$(dirname "$0")/../lib.sh"
require_test_servers
own_server_databases redis_failover
export IDEMLAB_SERVERS_STATE=$work/servers.state
trap '"$ROOT/scripts/servers" down' EXIT
"$ROOT/scripts/servers" up redis-sentinel >/dev/null || { fail "the topology did not start"; finish; }
eval "$("$ROOT/scripts/servers" env)"
redis=$IDEMLAB_TEST_REDIS_SENTINEL
sqlite=$work/l.db pg=$IDEMLAB_TEST_POSTGRES maria=$IDEMLAB_TEST_MARIADB
expect_exit 0 "$IDEMLAB" init --db "$sqlite"
expect_exit 0 "$IDEMLAB" init --db "$pg" --force
expect_exit 0 "$IDEMLAB" init --db "$maria" --force
expect_exit 0 "$IDEMLAB" init --db "$work/served.db"
# A definite configuration error is answered at once, exit 8, named: a master no Sentinel
# monitors, a Sentinel's port given as a plain redis://, a port that is no Sentinel. Nothing is
# written, and no token is shown. "At once" is told apart from "asked again until the URL's
# connect_timeout" by giving it 120 s: a retrying client takes all of them, a refusal takes a
# few milliseconds (1,003 under the sanitizers beside other tests), and the bound sits between.
sentinel_port=${redis#redis-sentinel://127.0.0.1:}; sentinel_port=${sentinel_port%%[,/]*}
misnamed=(token issue --db "$work/served.db" --json)
for wrong in "${redis%/*}/no-such-master monitor no master named 'no-such-master'" \
  "redis://127.0.0.1:$sentinel_port is a Redis Sentinel, which keeps no tokens" \
  "redis-sentinel://${IDEMLAB_TEST_REDIS_PRIMARY#redis://}/${redis##*/} no Sentinel answers"; do
  read -r url why <<<"$wrong"
  url="$url?connect_timeout=120"
  started=$(date +%s%N)
  expect_exit 8 "$IDEMLAB" "${misnamed[@]}" --redis "$url"
  took_ms=$((($(date +%s%N) - started) / 1000000))
  [ "$took_ms" -lt 60000 ] || fail "--redis $url took $took_ms ms to be refused"
  expect_one_error_line
  expect_contains "$err" "$why"
done
pay() {  # LEDGER TOKEN FAULT...: one attempt of request t1 (alice pays bob 5.00)
  local db=$1 token=$2; shift 2
  "$IDEMLAB" token --db "$db" --redis "$redis" --token "$token" --biz-seq t1 --from alice \
    --to bob --amount 5.00 "$@"
}
issue() { "$IDEMLAB" token issue --db "$1" --redis "$redis" --json | json_field "$(cat)" token; }
declare -A token kept
for db in "$sqlite" "$pg" "$maria"; do token[$db]=$(issue "$db"); done
token_wait=$(issue "$sqlite")
# Both tokens are on the replica before the cut: WAIT counts the replicas that have every write.
expect_equal "$(redis-cli -u "$IDEMLAB_TEST_REDIS_PRIMARY" WAIT 1 30000)" 1 "the replica has the tokens"

# Every client that takes --redis follows the Sentinels: a simulation's scratch keys and serve.
expect_exit 0 "$IDEMLAB" simulate --strategy token --requests 20 --redis "$redis"
expect_contains "$out" "tokens and locks in Redis"
source "$(dirname "$0")/../serve_lib.sh"
start_serve --db "$work/served.db" --strategy lock-table --redis "$redis"
post '"s1"' 'from=alice&to=bob&amount=1.00'
expect_equal "$status" 201 "serve with its locks behind the Sentinels"
# Its answer names the primary that kept the lock, as the one-attempt command's does.
expect_equal "$(header_value Idemlab-Guard-Node)" "${IDEMLAB_TEST_REDIS_PRIMARY#redis://}" \
  "serve names the guards' server"
stop_serve

# ?wait=N: every guard write waits for N replicas' acknowledgement (WAIT).
expect_exit 0 "$IDEMLAB" token issue --db "$sqlite" --redis "$redis?wait=1&wait_ms=30000"
# More than there are can never be met: unknown (75), saying how many the primary has; the
# connection was not lost.
expect_exit 75 "$IDEMLAB" token issue --db "$sqlite" --redis "$redis?wait=5&wait_ms=200"
expect_contains "$err" "1 of 5 replicas acknowledged the guard write within 200 ms; the primary has 1 replica connected"
[[ "$err" != *"lost the connection"* ]] || fail "an unacknowledged write is not a lost link: $err"

expect_exit 0 "$ROOT/scripts/servers" redis cut
# Cut off, no replica acknowledges: the write stands on the primary, the answer is unknown (75),
# never a success.
expect_exit 75 "$IDEMLAB" token issue --db "$sqlite" --redis "$redis?wait=1&wait_ms=200"
expect_contains "$err" "0 of 1 replicas acknowledged the guard write within 200 ms"
# A replica refuses writes (READONLY), and a primary that must reach a replica refuses them too
# (NOREPLICAS): neither is an answer; a retry may succeed, 75.
expect_exit 75 "$IDEMLAB" token issue --db "$sqlite" --redis "$IDEMLAB_TEST_REDIS_REPLICA"
expect_contains "$err" "READONLY"
# A redis:// URL names one server: its READONLY says whose replica it is, and what to give.
expect_contains "$err" "is a replica of 127.0.0.1:"
expect_contains "$err" "give the primary's URL, or redis-sentinel://"
redis-cli -u "$IDEMLAB_TEST_REDIS_PRIMARY" CONFIG SET min-replicas-to-write 1 >/dev/null
expect_exit 75 "$IDEMLAB" token issue --db "$sqlite" --redis "$redis"
expect_contains "$err" "NOREPLICAS"
redis-cli -u "$IDEMLAB_TEST_REDIS_PRIMARY" CONFIG SET min-replicas-to-write 0 >/dev/null
# ?wait=1 on the token strategy: its DEL stands on the primary, no replica acknowledges it, and
# the attempt stops there, unknown (75), before any money moves.
waited=(token --db "$sqlite" --token "$token_wait" --biz-seq t3 --from alice --to bob --amount 5.00)
expect_exit 75 "$IDEMLAB" "${waited[@]}" --redis "$redis?wait=1&wait_ms=200" --json
expect_equal "$(json_field "$out" reason)" unreplicated "the DEL no replica acknowledged"
expect_contains "$(json_field "$out" unreplicated)" "0 of 1 replicas acknowledged"
expect_contains "$(json_field "$out" unreplicated)" "the primary has 0 replicas connected"
expect_equal "$(pairs "$sqlite" t3)" 0 "no money moved behind an unacknowledged DEL"

# The token kept in the ledger's own table (no --redis, whatever the environment says), on the
# same two ledgers: its first attempt's answer is lost before the failover too.
ledger_token() {
  env -u IDEMLAB_REDIS "$IDEMLAB" token issue --db "$1" --json | json_field "$(cat)" token
}
in_ledger() {  # LEDGER TOKEN FAULT...: one attempt of request k1 (alice pays bob 5.00)
  local db=$1 token=$2; shift 2
  env -u IDEMLAB_REDIS "$IDEMLAB" token --db "$db" --token "$token" --biz-seq k1 --from alice \
    --to bob --amount 5.00 "$@"
}
for db in "$sqlite" "$pg" "$maria"; do
  kept[$db]=$(ledger_token "$db")
  expect_exit 75 in_ledger "$db" "${kept[$db]}" --fault response-lost
done

# The first attempts: the primary acknowledges each DEL; the answer is lost (75). The SQLite one
# waits at a gate past its DEL while the failover happens.
expect_exit 75 pay "$pg" "${token[$pg]}" --fault response-lost
expect_exit 75 pay "$maria" "${token[$maria]}" --fault response-lost
gate=$work/gate; mkdir "$gate"
pay "$sqlite" "${token[$sqlite]}" --fault response-lost --fault "slow:gate=$gate,at=insert_flow,ms=120000" \
  >"$work/first.out" 2>"$work/first.err" &
first=$!
wait_at_gate "$gate" "$first"
# lock-table: each first holder takes its lock on the primary, then waits at a gate before its
# transaction, on a ledger of its own.
locked() {  # NAME PITFALL...: the first holder of request NAME on ledger NAME, held at gate NAME
  expect_exit 0 "$IDEMLAB" init --db "$work/$1.db"
  mkdir "$work/gate-$1"
  "$IDEMLAB" lock-table --db "$work/$1.db" --redis "$redis" --biz-seq "$1" --from alice --to bob \
    --amount 7.00 --fault "slow:gate=$work/gate-$1,at=begin,ms=120000" "${@:2}" \
    >"$work/$1.out" 2>"$work/$1.err" &
  holder[$1]=$!
  wait_at_gate "$work/gate-$1" "${holder[$1]}"
}
declare -A holder
locked lock-safe
locked lock-trusting --pitfall=ttl-too-short
# Fenced: the grant's INCR, like the lock, is only on the old primary; the new primary's counter
# hands the twin the same number again.
locked lock-fenced --pitfall=ttl-too-short --fence
locked lock-fenced-stale --pitfall=ttl-too-short --fence

expect_exit 0 "$ROOT/scripts/servers" redis failover
touch "$gate/open"
wait "$first"; expect_equal "$?" 75 "the gated first attempt's answer is lost"

# Each lock-table twin finds no lock on the new primary and takes it: a second holder.
for name in lock-safe lock-trusting; do
  pitfall=(); [ "$name" = lock-trusting ] && pitfall=(--pitfall=ttl-too-short)
  expect_exit 0 "$IDEMLAB" lock-table --db "$work/$name.db" --redis "$redis" --biz-seq "$name" \
    --from alice --to bob --amount 7.00 "${pitfall[@]}"
  expect_contains "$out" "applied"
  # The answer names the server that kept its lock: the promoted replica, a primary now.
  guards=$(sed -nE "s/.*\(guards on ([0-9.]+:[0-9]+), the Sentinels' primary\).*/\1/p" <<<"$out")
  expect_equal "$(redis-cli -h "${guards%:*}" -p "${guards##*:}" role 2>&1 | head -n1)" master \
    "the guards' server $name's answer names ($out)"
  touch "$work/gate-$name/open"
  wait "${holder[$name]}"
done
# The fence went back with the failover. The twin writes first: the stale holder's fence is not
# higher, and the ledger refuses it.
fenced=(lock-table --redis "$redis" --from alice --to bob --amount 7.00 --pitfall=ttl-too-short
        --fence)
expect_exit 0 "$IDEMLAB" "${fenced[@]}" --db "$work/lock-fenced.db" --biz-seq lock-fenced
touch "$work/gate-lock-fenced/open"
wait "${holder[lock-fenced]}"; expect_equal "$?" 5 "the stale holder, fenced"
expect_contains "$(cat "$work/lock-fenced.err")" "(fenced)"
# The stale holder writes first: the twin, the lock's rightful holder now, carries the same
# number and is refused. The cost of a fence that went back; the money still moves once.
mkdir "$work/gate-twin"
"$IDEMLAB" "${fenced[@]}" --db "$work/lock-fenced-stale.db" --biz-seq lock-fenced-stale \
  --fault "slow:gate=$work/gate-twin,at=begin,ms=120000" >"$work/twin.out" 2>"$work/twin.err" &
twin=$!
wait_at_gate "$work/gate-twin" "$twin"
touch "$work/gate-lock-fenced-stale/open"
wait "${holder[lock-fenced-stale]}"; expect_equal "$?" 0 "the stale holder wrote first"
touch "$work/gate-twin/open"
wait "$twin"; expect_equal "$?" 5 "the rightful holder, refused by a fence that went back"
expect_contains "$(cat "$work/twin.err")" "(fenced)"
for name in lock-fenced lock-fenced-stale; do
  expect_equal "$(moved "$work/$name.db")" 1 "$name: money moved"
done
expect_equal "$(moved "$work/lock-safe.db")" 1 "the safe lock-table with two holders: money moved"
expect_exit 0 "$IDEMLAB" audit --db "$work/lock-safe.db"
expect_equal "$(moved "$work/lock-trusting.db")" 2 "a lock trusted alone, two holders: money moved"
expect_exit 7 "$IDEMLAB" audit --db "$work/lock-trusting.db"
parity_live lock-safe "$(moved "$work/lock-safe.db")" 0
parity_live lock-trusting "$(moved "$work/lock-trusting.db")" 0

# The retries reach the new primary through the Sentinels, find the token unused, and pay again.
for db in "$sqlite" "$pg" "$maria"; do
  expect_exit 0 pay "$db" "${token[$db]}"
  expect_contains "$out" "applied: t1 moved 5.00 from alice to bob (token)"
  [ "$db" = "$sqlite" ] && parity_live t1 "$(pairs "$db" t1)"
  expect_exit 7 "$IDEMLAB" audit --db "$db"
  expect_contains "$out" "applied_more_than_once"
  expect_equal "$(pairs "$db" t1)" 2 "t1's money moved on ${db%%:*} after the failover"
done
# The waited DEL never reached the replica: the token is back, and the retry moves the money
# once. WAIT turned "twice" into "once" here; it cannot undo the DEL: had the primary kept its
# place, the retry would find the token used and no transfer (in_progress, never moved).
expect_exit 0 "$IDEMLAB" "${waited[@]}" --redis "$redis"
expect_equal "$(pairs "$sqlite" t3)" 1 "t3 after the failover, its first attempt stopped by WAIT"
# The token in the ledger was taken in the money's own transaction: the retry is a replay.
for db in "$sqlite" "$pg" "$maria"; do
  expect_exit 0 in_ledger "$db" "${kept[$db]}"
  expect_contains "$out" "applied (replayed): k1"
  expect_equal "$(pairs "$db" k1)" 1 "k1, its token in the ledger, on ${db%%:*}"
  [ "$db" = "$sqlite" ] && parity_live k1 "$(pairs "$db" k1)"
done

# The simulator's replicated guard store agrees, row by row (tests/e2e/parity.table;
# docs/simulator.md, "Replication in the simulator"): the token consumed, the store failed over,
# the answer lost, the retry; the token in the ledger; lock-table's twins across a failover.
parity_check redis-sentinel

# What WAIT cannot close: it cannot undo a DEL the primary applied. A Redis no replica
# acknowledges (the test's own, which has none) and no failover: the attempt stops, unknown; the
# DEL stands, and the retry finds the token used and no transfer: in_progress, never moved.
plain=$IDEMLAB_TEST_REDIS
stuck_token=$("$IDEMLAB" token issue --db "$sqlite" --redis "$plain" --json | json_field "$(cat)" token)
stuck=(token --db "$sqlite" --token "$stuck_token" --biz-seq t4 --from alice --to bob --amount 5.00)
expect_exit 75 "$IDEMLAB" "${stuck[@]}" --redis "$plain?wait=1&wait_ms=100"
expect_exit 5 "$IDEMLAB" "${stuck[@]}" --redis "$plain"
expect_equal "$(pairs "$sqlite" t4)" 0 "a waited DEL that stands: the money never moves"
# Long runs ride a failover behind the Sentinels out: simulate and explore with their tokens and
# locks in Redis, each certainly inside a guard write on the primary when it dies. Once each has
# written keys there, the primary holds every write (CLIENT PAUSE WRITE) until both runs' next
# writes wait in it; then it is killed. The write in flight is lost with its link: simulate
# answers that attempt unknown (the client retries), explore runs the cut interleaving again;
# each connects again through the Sentinels, to the promoted replica.
expect_exit 0 "$ROOT/scripts/servers" redis rejoin
eval "$("$ROOT/scripts/servers" env)"
on_primary() { local hp=${IDEMLAB_TEST_REDIS_PRIMARY#redis://}; redis-cli -h "${hp%:*}" -p "${hp#*:}" "$@"; }
run_keys() {  # PID -> how many keys that run has on the primary
  on_primary --scan --pattern "idemlab_scratch_$1_*" | wc -l
}
waiting_writes() {  # -> idemlab's commands held by the pause (unnamed clients; Sentinels name theirs)
  on_primary CLIENT LIST | grep -c ' name= .* flags=b '
}
sim=("$IDEMLAB" simulate --strategy token --requests "$(unless_sanitized 20000 4000)" --seed 3 \
  --redis "$IDEMLAB_REDIS" --json)
exp=("$IDEMLAB" explore --strategy lock-table -k 3 --max-interleavings 600 --redis "$IDEMLAB_REDIS" --json)
exp_reference=$("${exp[@]}")
"${sim[@]}" >"$work/sim.out" 2>"$work/sim.err" & sim_pid=$!
"${exp[@]}" >"$work/exp.out" 2>"$work/exp.err" & exp_pid=$!
held=no
for _ in $(seq 1 3000); do
  kill -0 "$sim_pid" 2>/dev/null && kill -0 "$exp_pid" 2>/dev/null || break
  if [ "$held" = no ] && [ "$(run_keys "$sim_pid")" -gt 0 ] && [ "$(run_keys "$exp_pid")" -gt 0 ]; then
    on_primary CLIENT PAUSE 600000 WRITE >/dev/null && held=yes
  fi
  [ "$held" = yes ] && [ "$(waiting_writes)" -eq 2 ] && { held=both; break; }
  sleep 0.01
done
expect_equal "$held" both "simulate and explore each wait in a guard write on the primary"
expect_exit 0 "$ROOT/scripts/servers" redis failover
wait "$sim_pid"
expect_equal "$?" 0 "simulate through a Redis failover: $(cat "$work/sim.err")"
wait "$exp_pid"
expect_equal "$?" 0 "explore through a Redis failover: $(cat "$work/exp.err")"
ran=$(cat "$work/sim.out")
[ "$(json_field "$ran" guard_links_lost)" -ge 1 ] || fail "simulate met no lost link in Redis"
expect_equal "$(json_field "$ran" audit_ok)" true "simulate's audit after the failover"
columns_add_up "{\"rows\": [$ran]}" "simulate through a Redis failover"
ran=$(cat "$work/exp.out")
[ "$(json_field "$ran" relinks)" -ge 1 ] || fail "explore held across a failover lost no link"
expect_equal "$(sed 's/,"relinks":[0-9]*//' <<<"$ran")" "$exp_reference" \
  "explore through a Redis failover counts what an undisturbed run counts"
finish
