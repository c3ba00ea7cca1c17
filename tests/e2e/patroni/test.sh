# e2e: a ledger on PostgreSQL behind Patroni and etcd (scripts/servers up patroni), reached
# through the URL naming all three nodes with target_session_attrs=read-write, through the
# failovers Patroni makes. Asynchronous, with the leader's WAL cut from its replicas: a transfer
# applied and answered is gone once Patroni has promoted a replica (not_found there; the audit
# held against the client's answer names it) and the client's retry moves it once. In
# synchronous_mode_strict the same cut and failover lose nothing answered. A token in the ledger
# is lost with its transfer and the retry moves it once; a token in Redis outlives it, and the
# retry is refused: told applied, never moved. Each move returns once
# it has happened: a switchover hands writes to another node; a paused leader (SIGSTOP) is
# replaced while it is stopped; resumed, its PostgreSQL first, it acknowledges a transfer that
# Patroni's demotion then discards (serve, keeping a connection there, too); a node killed comes
# back streaming. explore rides a failover out. One topology for the
# file; its start time and memory are printed, not asserted.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../serve_lib.sh"
require_test_servers
export IDEMLAB_SERVERS_STATE=$work/servers.state
trap '"$ROOT/scripts/servers" down' EXIT
started=$(date +%s%N)
"$ROOT/scripts/servers" up patroni >/dev/null || { fail "the topology did not start"; finish; }
echo "patroni: up in $(( ($(date +%s%N) - started) / 1000000 )) ms"
env=$("$ROOT/scripts/servers" env)
expect_contains "$env" "export IDEMLAB_DB='postgresql://postgres@127.0.0.1:"
expect_contains "$env" "export IDEMLAB_TEST_ETCD='etcd://127.0.0.1:"
eval "$env"
unset IDEMLAB_DB
db=$IDEMLAB_TEST_PATRONI
expect_contains "$db" "target_session_attrs=read-write"
# What it takes: the servers' memory (proportional set size) and their files on tmpfs.
pss=0
for pid in $(ps -u postgres -o pid= ); do
  kib=$(awk '/^Pss:/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null || true)
  pss=$((pss + ${kib:-0}))
done
folder=$(sed -n "s/^dir='\(.*\)'$/\1/p" "$IDEMLAB_SERVERS_STATE")
echo "patroni: $((pss / 1024)) MiB of processes (every postgres-user process), $(du -sm "$folder/patroni" | cut -f1) MiB on tmpfs"
servers() { "$ROOT/scripts/servers" patroni "$@"; }
pay() {  # BIZ_SEQ: select-insert, alice pays bob 1.00, its --json answer kept in told.jsonl
  "$IDEMLAB" select-insert --db "$db" --biz-seq "$1" --from alice --to bob --amount 1.00 --json
}
leader_port() { psql -qAtX "$db" -c "SELECT inet_server_port()"; }

expect_exit 0 "$IDEMLAB" init --db "$db"
expect_exit 0 "$IDEMLAB" topology --db "$db"
expect_contains "$out" "3 failover candidates"
expect_exit 2 servers rejoin
expect_contains "$err" "no node is down"
expect_exit 2 servers no-such-move
expect_contains "$err" "usage: scripts/servers patroni switchover|failover|rejoin"
expect_exit 2 servers sync sometimes

# Asynchronous (Patroni's default), the WAL cut: applied and answered, then gone. Two tokens
# are issued before the cut: one in the ledger's own table, one in Redis.
expect_exit 0 "$IDEMLAB" token issue --db "$db" --json
ledger_token=$(json_field "$out" token)
expect_exit 0 "$IDEMLAB" token issue --db "$db" --redis "$IDEMLAB_TEST_REDIS" --json
redis_token=$(json_field "$out" token)
pay_token() {  # BIZ_SEQ TOKEN ARGS...: the token strategy, alice pays bob 1.00
  local biz_seq=$1 token=$2; shift 2
  "$IDEMLAB" token --db "$db" --biz-seq "$biz_seq" --token "$token" --from alice --to bob \
    --amount 1.00 "$@"
}
first=$(leader_port)
expect_exit 0 servers cut
expect_exit 0 pay lost-1
printf '%s\n' "$out" >>"$work/told.jsonl"
expect_equal "$(json_field "$out" outcome)" applied "lost-1's answer"
expect_exit 0 pay_token tok-ledger "$ledger_token" --json
printf '%s\n' "$out" >"$work/tokens.jsonl"  # apart: the one in Redis is never repaired
expect_exit 0 pay_token tok-redis "$redis_token" --redis "$IDEMLAB_TEST_REDIS" --json
printf '%s\n' "$out" >>"$work/tokens.jsonl"
expect_exit 0 servers failover
[ "$(leader_port)" != "$first" ] || fail "Patroni promoted no other node"
expect_exit 9 "$IDEMLAB" query --db "$db" --biz-seq lost-1
cat "$work/told.jsonl" "$work/tokens.jsonl" >"$work/cut.jsonl"
expect_exit 7 "$IDEMLAB" audit --db "$db" --answers "$work/cut.jsonl" --json
for seq in lost-1 tok-ledger tok-redis; do
  expect_contains "$out" "{\"kind\":\"told_applied_not_in_ledger\",\"source\":\"api\",\"biz_seq\":\"$seq\""
done
expect_exit 0 pay lost-1  # the client retries what the ledger lost
expect_equal "$(pairs "$db" lost-1)" 1 "the retry after Patroni's failover moved lost-1 once"
parity_live pat-lost-1 "$(pairs "$db" lost-1)"
# The token in the ledger went with its transfer: the retry consumes it and moves it once. The
# token in Redis outlived the transfer: Redis says this request used it, the ledger has no flow
# row for it, and the retry is answered in_progress: the money never moves, although the
# client was told it had.
expect_exit 0 pay_token tok-ledger "$ledger_token"
parity_live pat-tok-ledger "$(pairs "$db" tok-ledger)"
expect_exit 5 pay_token tok-redis "$redis_token" --redis "$IDEMLAB_TEST_REDIS"
parity_live pat-tok-redis "$(pairs "$db" tok-redis)"
expect_contains "$err" "in_progress"
expect_equal "$(pairs "$db" tok-ledger)/$(pairs "$db" tok-redis)" 1/0 \
  "after Patroni's failover: the token in the ledger moved once; the one in Redis never"
expect_exit 0 servers rejoin

# synchronous_mode_strict: a COMMIT is answered once a replica has it. The same cut cannot
# lose it: the leader's walsenders stopped, the COMMIT waits; so here the failover comes first
# and the transfer after it, then the cut, then a failover that promotes the replica holding it.
expect_exit 0 servers sync strict
expect_exit 0 pay kept-1
printf '%s\n' "$out" >>"$work/told.jsonl"
expect_exit 0 servers cut
expect_exit 0 servers failover
expect_exit 0 "$IDEMLAB" query --db "$db" --biz-seq kept-1
expect_equal "$(pairs "$db" kept-1)" 1 "kept-1 survived the failover in synchronous_mode_strict"
parity_live pat-kept-1 "$(pairs "$db" kept-1)" 0
# The model agrees, row by row (tests/e2e/parity.table). The resumed old primary (stale-1,
# below) is no row: the model's old primary never comes back with writes of its own.
parity_check patroni
expect_exit 0 servers rejoin

# explore through the failover Patroni makes (synchronous_mode_strict still: the scratch ledger
# is on a replica before the run goes on). Stopped while the leader certainly holds a twin's
# transaction open and idle, the run finds its links lost when it goes on after the failover,
# connects again to the new leader, runs the cut interleaving again and counts what an
# undisturbed run counts.
explore=("$IDEMLAB" explore --db "$db" --strategy dedup-table -k 3 --max-interleavings 200 --json)
explore_through_failover "$db" servers failover
expect_exit 0 servers rejoin
expect_exit 0 servers sync off

# A switchover moves the writes; a paused leader is replaced while it is stopped.
before=$(leader_port)
expect_exit 0 servers switchover
[ "$(leader_port)" != "$before" ] || fail "the switchover left the leader where it was"
expect_exit 0 pay after-switchover
paused=$(leader_port)
# serve with one ledger connection, opened on the leader by its first request: kept idle
# through the pause, it is still on the old primary when that one resumes.
start_serve --db "$db" --strategy select-insert --pool 1
post serve-before 'from=alice&to=bob&amount=1.00'
expect_equal "$status" 201 "serve's first request, on the leader"
expect_equal "$(header_value Idemlab-Node)" "127.0.0.1:$paused" "serve's connection is on the leader"
expect_exit 0 servers pause-leader
[ "$(leader_port)" != "$paused" ] || fail "Patroni promoted no other node under the paused leader"
stopped=$(ps -u postgres -o stat= | grep -c '^T' || true)
[ "$stopped" -gt 0 ] || fail "the old leader's processes are not stopped while it is replaced"
expect_exit 0 pay during-pause
printf '%s\n' "$out" >>"$work/told.jsonl"

# The old primary resumed: its PostgreSQL goes on before its Patroni does, and answers a client
# that reaches it (a session kept open, a URL naming it first) as the primary it no longer is.
# stale-1 is applied there and answered. Once its Patroni goes on, it finds the leader key
# held by the node promoted under it and demotes itself: pg_rewind drops stale-1. The audit
# names it, and the retry moves it once.
expect_exit 0 servers resume postgres
old_primary="postgresql://postgres@127.0.0.1:$paused/idemlab"
expect_exit 0 "$IDEMLAB" select-insert --db "$old_primary" --biz-seq stale-1 --from alice \
  --to bob --amount 1.00 --json
expect_equal "$(json_field "$out" outcome)" applied "stale-1's answer from the old primary"
printf '%s\n' "$out" >>"$work/told.jsonl"
# serve, on its one connection kept from before the pause, applies stale-2 there and answers
# 201, naming the old primary.
post stale-2 'from=alice&to=bob&amount=1.00'
expect_equal "$status" 201 "serve's answer from the resumed old primary"
expect_equal "$(header_value Idemlab-Node)" "127.0.0.1:$paused" "serve answered from the old primary"
printf '{"source":"http","biz_seq":"stale-2","outcome":"%s"}\n' "$(json_field "$body" outcome)" \
  >>"$work/told.jsonl"
expect_exit 0 servers resume
expect_exit 7 "$IDEMLAB" audit --db "$db" --answers "$work/told.jsonl" --json
expect_contains "$out" '{"kind":"told_applied_not_in_ledger","source":"api","biz_seq":"stale-1"'
case $out in *'"biz_seq":"during-pause"'*) fail "the new leader's timeline was rewound: $out" ;; esac
expect_contains "$out" '{"kind":"told_applied_not_in_ledger","source":"http","biz_seq":"stale-2"'
expect_exit 0 pay stale-1
expect_equal "$(pairs "$db" stale-1)" 1 "stale-1 moved once after the retry"
# The client retries stale-2 through serve until it is answered 2xx (its first tries may meet
# the demoted node's closed connection: 503), within 20 s, and it moves once, on the leader.
for _ in $(seq 1 200); do
  post stale-2 'from=alice&to=bob&amount=1.00'
  [ "$status" = 201 ] && break
  [ "$status" = 503 ] || fail "serve answered $status to the retry of stale-2: $body"
  sleep 0.1
done
expect_equal "$status" 201 "serve answered the retry of stale-2 within 20 s"
[ "$(header_value Idemlab-Node)" != "127.0.0.1:$paused" ] || fail "the retry ran on the old primary"
expect_equal "$(pairs "$db" stale-2)" 1 "stale-2 moved once after serve's retry"
stop_serve
expect_equal "$(pairs "$db" during-pause)" 1 "during-pause, paid on the new leader, kept"
expect_exit 0 pay after-resume
expect_exit 0 "$IDEMLAB" audit --db "$db" --answers "$work/told.jsonl"
finish
