# e2e: a ledger on a PostgreSQL primary with a hot standby (scripts/servers up postgres-standby),
# and the moves that make each case certain. With the standby's replay paused, a transfer the
# primary applied and answered is not_found on the standby: a client that asks the standby
# before retrying (read/write splitting) retries, and naive moves the money twice, while
# select-insert's unique key makes the retry a repeat; a query with --read-your-writes and the
# answer's commit_lsn asks the primary instead. Once replay resumes, the standby has it.
# With replication cut, a transfer applied and answered on the primary is gone after the
# failover: not_found on the promoted standby, which takes writes, and the audit held against
# the clients' answers names it (told_applied_not_in_ledger). Reads routed to the paused standby
# (--read-db, read/write splitting) miss the first attempt: select-insert without its unique index
# moves money twice; with --read-your-writes, once. A token kept in Redis outlives the failover
# that loses its transfer: the retry is refused, and the money never moves. The simulator's
# model agrees row by row (tests/e2e/parity.table). One topology (and one Redis) for the file.
source "$(dirname "$0")/../lib.sh"
require_test_servers
export IDEMLAB_SERVERS_STATE=$work/servers.state
trap '"$ROOT/scripts/servers" down' EXIT
"$ROOT/scripts/servers" up postgres-standby redis postgres >/dev/null || { fail "the topology did not start"; finish; }
env=$("$ROOT/scripts/servers" env)
# Two ledgers up: IDEMLAB_DB once, the first's (the candidates), the other's a comment; the
# standby's reads a flag to give, not exported.
expect_equal "$(grep -c '^export IDEMLAB_DB=' <<<"$env")" 1 "IDEMLAB_DB exported once"
expect_contains "$env" "export IDEMLAB_DB='postgresql://postgres@/idemlab?host="
expect_contains "$env" "# postgres's, not exported (IDEMLAB_DB is the one above)"
expect_contains "$env" '# reads from the standby: --read-db "$IDEMLAB_TEST_PG_STANDBY"'
grep -q 'IDEMLAB_DB=.*target_session_attrs=read-write' <<<"$(grep '^export IDEMLAB_DB=' <<<"$env")" ||
  fail "IDEMLAB_DB is the standby topology's candidates: $env"
eval "$env"
unset IDEMLAB_REDIS IDEMLAB_DB IDEMLAB_READ_DB  # each command names its servers
primary=$IDEMLAB_TEST_PG_PRIMARY standby=$IDEMLAB_TEST_PG_STANDBY
servers() { "$ROOT/scripts/servers" postgres "$@"; }
pay() {  # STRATEGY BIZ_SEQ: alice pays bob 1.00 on the primary
  "$IDEMLAB" "$1" --db "$primary" --biz-seq "$2" --from alice --to bob --amount 1.00
}
# Until the standby has replayed everything the primary has written (its LSN), bounded.
caught_up() {
  local lsn; lsn=$(psql -qAtX "$primary" -c "SELECT pg_current_wal_lsn()")
  for _ in $(seq 1 3000); do
    [ "$(psql -qAtX "$standby" -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" = t ] && return 0
    sleep 0.01
  done
  fail "the standby did not replay up to $lsn"
}
expect_exit 0 "$IDEMLAB" init --db "$primary"
caught_up
expect_exit 0 "$IDEMLAB" accounts --db "$standby"  # a hot standby answers reads

# A standby is checked before anything is read from it (--read-db): it must be in recovery, and
# replay this ledger's log and database. Otherwise one line, exit 2 (8 for a database that
# holds no ledger), and nothing written.
other=$IDEMLAB_TEST_POSTGRES  # another server, with its own ledger
expect_exit 0 "$IDEMLAB" init --db "$other"
other_db=${standby/\/idemlab/\/postgres}  # the standby, another database on it
for refused in "$primary $primary 2 not in recovery" "$primary $other 2 not in recovery" \
  "$other $standby 2 a standby of another ledger" "$primary $other_db 8 not an idemlab ledger"; do
  read -r db read_db code why <<<"$refused"
  expect_exit "$code" "$IDEMLAB" select-insert --db "$db" --read-db "$read_db" \
    --biz-seq checked-1 --from alice --to bob --amount 1.00
  expect_one_error_line
  expect_contains "$err" "$why"
  expect_equal "$(pairs "$db" checked-1)" 0 "nothing written when --read-db $read_db is refused"
  expect_exit "$code" "$IDEMLAB" query --db "$db" --read-db "$read_db" --biz-seq checked-1
  expect_contains "$err" "$why"
done
expect_exit 2 "$IDEMLAB" serve --db "$other" --strategy select-insert --read-db "$standby"
expect_contains "$err" "a standby of another ledger"
# A write that reaches a read-only server (a standby; a demoted primary in a switchover) is an
# unknown the client retries: 75, naming the condition. It changed nothing.
expect_exit 75 "$IDEMLAB" select-insert --db "$standby" --biz-seq readonly-1 --from alice \
  --to bob --amount 1.00
expect_contains "$err" "a read-only server answered"
expect_equal "$(pairs "$primary" readonly-1)" 0 "a write refused by the standby"

# Replay paused: applied and answered on the primary, not_found on the standby.
expect_exit 0 servers pause-replay
for strategy in naive select-insert; do
  expect_exit 0 pay "$strategy" "$strategy-1"
  expect_exit 9 "$IDEMLAB" query --db "$standby" --biz-seq "$strategy-1"
  expect_exit 0 pay "$strategy" "$strategy-1"  # the retry "not found" asked for
done
expect_equal "$(pairs "$primary" naive-1)" 2 "naive retried on a stale not_found: journal pairs"
parity_live naive-1 "$(pairs "$primary" naive-1)" 0
expect_equal "$(pairs "$primary" select-insert-1)" 1 "select-insert's retry is a repeat"
# Read-your-writes: the answer gives the WAL position after the commit; a query that must read
# its own write trusts the standby only once it has replayed past it, and asks the primary until
# then. So the retry is not sent: the first attempt is found.
expect_exit 0 "$IDEMLAB" naive --db "$primary" --biz-seq ryw-1 --from alice --to bob --amount 1.00 --json
lsn=$(json_field "$out" commit_lsn)
[[ "$lsn" =~ ^[0-9A-F]+/[0-9A-F]+$ ]] || fail "an answer on PostgreSQL gives its commit_lsn: '$lsn'"
expect_exit 9 "$IDEMLAB" query --db "$primary" --read-db "$standby" --biz-seq ryw-1
expect_contains "$err" "(answered by the standby, which may lag behind the primary)"
expect_exit 0 "$IDEMLAB" query --db "$primary" --read-db "$standby" --read-your-writes "$lsn" \
  --biz-seq ryw-1
expect_contains "$out" "succeeded: ryw-1 moved money"
expect_contains "$out" "(answered by the primary: the standby had replayed only to"
expect_exit 0 "$IDEMLAB" query --db "$primary" --read-db "$standby" --read-your-writes "$lsn" \
  --biz-seq ryw-1 --json
expect_equal "$(json_field "$out" answered_by)" primary "who answered, in JSON"
# serve gives the same position with its answer (a header and the body's commit_lsn), and the
# consumer's line says it; a query with it reads the client's own write.
source "$(dirname "$0")/../serve_lib.sh"
start_serve --db "$primary" --strategy select-insert
post '"http-1"' 'from=alice&to=bob&amount=1.00'
expect_equal "$status" 201 "serve on the primary"
lsn=$(header_value Idemlab-Commit-Lsn)
[[ "$lsn" =~ ^[0-9A-F]+/[0-9A-F]+$ ]] || fail "serve's answer gives its commit_lsn: '$lsn'"
expect_contains "$(cat "$work/body")" "\"commit_lsn\":\"$lsn\""
stop_serve
# serve with its reads on the paused standby: the same key twice, and select-insert without its
# unique index moves the money twice; with --read-your-writes the second is a replay.
for ryw in "" --read-your-writes; do
  start_serve --db "$primary" --strategy select-insert --pitfall=no-unique-index \
    --read-db "$standby" $ryw
  post "\"served$ryw\"" 'from=alice&to=bob&amount=1.00'
  expect_equal "$status" 201 "served$ryw: the first POST"
  post "\"served$ryw\"" 'from=alice&to=bob&amount=1.00'
  expect_equal "$status/$(header_value Idempotent-Replayed)" "201/${ryw:+true}" "served$ryw again"
  stop_serve
  expect_equal "$(pairs "$primary" "served$ryw")" "$([ -n "$ryw" ] && echo 1 || echo 2)" \
    "served$ryw: journal pairs"
done
expect_exit 2 "$IDEMLAB" serve --db "$work/x.db" --strategy naive --read-db "$standby"
expect_one_error_line
expect_exit 0 "$IDEMLAB" query --db "$primary" --read-db "$standby" --read-your-writes "$lsn" \
  --source http --biz-seq http-1
expect_contains "$out" "(answered by the primary"
queue=standby-$$
expect_exit 0 "$IDEMLAB" publish --broker "$IDEMLAB_TEST_AMQP" --queue "$queue" --requests 1 --prefix mq
expect_exit 0 "$IDEMLAB" consume --broker "$IDEMLAB_TEST_AMQP" --queue "$queue" --db "$primary" \
  --until-idle 500 --strategy dedup-table
[[ "$out" =~ applied\ at\ [0-9A-F]+/[0-9A-F]+, ]] || fail "consume's line gives the commit_lsn: $out"
# Bad input: one error line, exit 2.
expect_exit 2 "$IDEMLAB" query --db "$primary" --read-your-writes "$lsn" --biz-seq ryw-1
expect_one_error_line
expect_exit 2 "$IDEMLAB" query --db "$primary" --read-db "$standby" --read-your-writes 12 --biz-seq ryw-1
expect_one_error_line
expect_exit 2 "$IDEMLAB" query --db "$primary" --read-db "$work/x.db" --biz-seq ryw-1
expect_one_error_line

# Reads routed to the paused standby: the retry after a lost answer reads "not found".
split() {  # STRATEGY BIZ_SEQ ARGS...: alice pays bob 1.00, reads on the standby
  local strategy=$1 biz_seq=$2; shift 2
  "$IDEMLAB" "$strategy" --db "$primary" --read-db "$standby" --biz-seq "$biz_seq" --from alice \
    --to bob --amount 1.00 "$@"
}
expect_exit 75 split select-insert rw-1 --pitfall=no-unique-index --fault response-lost
expect_exit 0 split select-insert rw-1 --pitfall=no-unique-index --json
expect_equal "$(json_field "$out" outcome)" applied "the retry read not found on the standby"
expect_contains "$out" '"reads":{"standby":1,"primary":0,"standby_server":"'"$standby"'","standby_replayed":null}'
expect_equal "$(pairs "$primary" rw-1)" 2 "select-insert without its unique index, stale read"
parity_live rw-1 "$(pairs "$primary" rw-1)"
expect_exit 7 "$IDEMLAB" audit --db "$primary"
expect_contains "$out" "applied_more_than_once  api     rw-1"
expect_exit 75 split select-insert rw-2 --pitfall=no-unique-index --fault response-lost
expect_exit 0 split select-insert rw-2 --pitfall=no-unique-index --read-your-writes
expect_contains "$out" "applied (replayed): rw-2 was already applied"
expect_contains "$out" "(reads: 0 on the standby, 1 on the primary; the standby had replayed only"
expect_equal "$(pairs "$primary" rw-2)" 1 "read-your-writes: the primary answered the read"
parity_live rw-2 "$(pairs "$primary" rw-2)"
# The guarded select-insert: the unique key refuses the retry; its answer, read back on the
# standby, is in_progress. The lock-table's second look under the ledger's lock finds the row;
# its variant that trusts the lock does not look again. The state machine misses its own row.
expect_exit 75 split select-insert rw-3 --fault response-lost
expect_exit 5 split select-insert rw-3
expect_equal "$(pairs "$primary" rw-3)" 1 "guarded select-insert on the standby"
parity_live rw-3 "$(pairs "$primary" rw-3)"
expect_exit 75 split lock-table rw-4 --fault response-lost
expect_exit 0 split lock-table rw-4
expect_contains "$out" "applied (replayed)"
parity_live rw-4 "$(pairs "$primary" rw-4)"
expect_exit 75 split lock-table rw-5 --pitfall=ttl-too-short --fault response-lost
expect_exit 0 split lock-table rw-5 --pitfall=ttl-too-short
expect_equal "$(pairs "$primary" rw-4)/$(pairs "$primary" rw-5)" 1/2 "lock-table, its variant"
parity_live rw-5 "$(pairs "$primary" rw-5)"
expect_exit 75 split state-machine rw-6
expect_contains "$err" "own_write_unseen"
parity_live rw-6/1 "$(pairs "$primary" rw-6)"
expect_exit 0 split state-machine rw-6 --read-your-writes
expect_equal "$(pairs "$primary" rw-6)" 1 "the state machine once it reads its own write"
parity_live rw-6 "$(pairs "$primary" rw-6)"
expect_exit 2 "$IDEMLAB" naive --db "$primary" --read-your-writes --biz-seq x --from alice --to bob \
  --amount 1
expect_one_error_line
expect_exit 0 servers resume-replay
caught_up
expect_exit 0 "$IDEMLAB" query --db "$primary" --read-db "$standby" --read-your-writes "$lsn" \
  --biz-seq ryw-1
expect_contains "$out" "(answered by the standby, replayed to"
expect_exit 0 "$IDEMLAB" query --db "$standby" --biz-seq select-insert-1
expect_exit 7 "$IDEMLAB" audit --db "$standby"  # the standby has naive's second move too
expect_contains "$out" "applied_more_than_once"

# Replication cut: applied and answered, then gone at the failover.
# The clients keep what they were told (--json answers, one a line); the audit holds the ledger
# against them (--answers).
# Two tokens, issued before the cut: one in the ledger's table (on the standby too), one in Redis.
expect_exit 0 "$IDEMLAB" token issue --db "$primary" --json
ledger_token=$(json_field "$out" token)
expect_exit 0 "$IDEMLAB" token issue --db "$primary" --redis "$IDEMLAB_TEST_REDIS" --json
redis_token=$(json_field "$out" token)
caught_up
pay_token() {  # BIZ_SEQ TOKEN ARGS...: the token strategy on DB=$db
  local biz_seq=$1 token=$2; shift 2
  "$IDEMLAB" token --db "$db" --biz-seq "$biz_seq" --token "$token" --from alice --to bob \
    --amount 1.00 "$@"
}
expect_exit 0 servers cut
expect_exit 0 "$IDEMLAB" select-insert --db "$primary" --biz-seq lost-1 --from alice --to bob \
  --amount 1.00 --json
printf '%s\n' "$out" >>"$work/told.jsonl"
db=$primary
expect_exit 0 pay_token tok-ledger "$ledger_token" --json
printf '%s\n' "$out" >>"$work/told.jsonl"
expect_exit 0 pay_token tok-redis "$redis_token" --redis "$IDEMLAB_TEST_REDIS" --json
printf '%s\n' "$out" >>"$work/told.jsonl"
expect_equal "$(json_field "$out" outcome)" applied "lost-1's answer"
expect_exit 7 "$IDEMLAB" audit --db "$primary" --answers "$work/told.jsonl"  # naive-1, above
case $out in *told_applied_not_in_ledger*) fail "the primary has lost-1: $out" ;; esac
expect_exit 0 servers failover
expect_exit 9 "$IDEMLAB" query --db "$standby" --biz-seq lost-1
# On the candidates' URL, an answer names the candidate that gave it: the promoted standby.
expect_exit 9 "$IDEMLAB" query --db "$IDEMLAB_TEST_PG_CANDIDATES" --biz-seq lost-1 --json
expect_contains "$out" "\"answered_by\":\"${standby##*host=}\""
expect_exit 7 "$IDEMLAB" audit --db "$standby" --answers "$work/told.jsonl" --json
expect_contains "$out" '{"kind":"told_applied_not_in_ledger","source":"api","biz_seq":"lost-1"'
expect_contains "$out" "a client was told lost-1 was applied; the journal has no transfer"
expect_contains "$out" '"kind":"told_applied_not_in_ledger","source":"api","biz_seq":"tok-ledger"'
expect_contains "$out" '"kind":"told_applied_not_in_ledger","source":"api","biz_seq":"tok-redis"'
printf 'not json\n' >"$work/bad.jsonl"
expect_exit 0 "$IDEMLAB" select-insert --db "$standby" --biz-seq lost-1 --from alice --to bob \
  --amount 1.00  # the client retries what the ledger lost
expect_equal "$(pairs "$standby" lost-1)" 1 "the retry after the failover moved lost-1 once"
parity_live lost-1 "$(pairs "$standby" lost-1)"
# The token in the ledger was lost with its transfer: the retry consumes it and moves it once.
# The token in Redis outlived the transfer: Redis says this request used it, the ledger has no
# flow row for it, and the retry is answered in_progress: the money never moves.
db=$standby
expect_exit 0 pay_token tok-ledger "$ledger_token"
parity_live tok-ledger "$(pairs "$standby" tok-ledger)"
expect_exit 5 pay_token tok-redis "$redis_token" --redis "$IDEMLAB_TEST_REDIS"
parity_live tok-redis "$(pairs "$standby" tok-redis)"
expect_contains "$err" "in_progress"  # used by this request, whose flow row is gone
expect_equal "$(pairs "$standby" tok-ledger)/$(pairs "$standby" tok-redis)" 1/0 \
  "after the failover: the token in the ledger moved once; the one in Redis never"
# The simulator agrees, row by row (tests/e2e/parity.table; docs/simulator.md, "Reads on a
# lagging replica" and "A failover of the ledger").
parity_check postgres-standby
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --requests 1 \
  --fault failover:of=ledger,nth=1 --json  # as lost-1, its answer kept
expect_equal "$(json_field "$out" never_moved)" 1 "the model tells the client what the audit found"
expect_exit 2 "$IDEMLAB" audit --db "$standby" --answers "$work/bad.jsonl"
expect_one_error_line
expect_contains "$err" "line 1"
expect_exit 0 "$IDEMLAB" select-insert --db "$standby" --biz-seq after-1 --from alice --to bob \
  --amount 1.00  # the promoted standby takes writes
finish
