# e2e: the five lessons on replicated servers, each on the real topology it names, started
# once for the file (scripts/servers up postgres-standby redis-sentinel zookeeper etcd): the
# standby has not seen it yet (select-insert reading on a paused standby moves money twice; with
# read-your-writes once), a failover forgets what it was told (applied and answered, gone after
# the promotion, moved once by the retry), a Redis failover forgets a token (twice; the token in
# the ledger once), a lock needs a fencing token (a stopped ZooKeeper holder writes after its
# twin; with --fence the ledger refuses it), a lease is not a lock (the same with etcd's lease
# and its key's revision). The failovers spend their topologies, so each comes
# last on its own. Each lesson's time is printed: the bar (under 10 s) is measured, not asserted.
source "$(dirname "$0")/../lib.sh"
require_test_servers
export IDEMLAB_SERVERS_STATE=$work/servers.state
trap '"$ROOT/scripts/servers" down' EXIT
"$ROOT/scripts/servers" up postgres-standby redis-sentinel zookeeper etcd >/dev/null ||
  { fail "the topologies did not start"; finish; }
eval "$("$ROOT/scripts/servers" env)"
pg=(--primary "$IDEMLAB_TEST_PG_PRIMARY" --standby "$IDEMLAB_TEST_PG_STANDBY")
redis=(--sentinel "$IDEMLAB_TEST_REDIS_SENTINEL" --redis-primary "$IDEMLAB_TEST_REDIS_PRIMARY")
zookeeper=(--zookeeper "$IDEMLAB_TEST_ZOOKEEPER")
etcd=(--etcd "$IDEMLAB_TEST_ETCD")

lesson() {  # NAME OPTIONS...: runs it at 80 columns, prints how long it took
  local started; started=$(date +%s%N)
  expect_exit 0 "$IDEMLAB" lesson "$@" --width 80
  echo "lesson $1: $(( ($(date +%s%N) - started) / 1000000 )) ms"
  # Every line fits 80 columns but a long SQL statement, one argument quoted whole.
  local wide; wide=$(printf '%s\n' "$out" | awk 'length($0) > 80 && $0 !~ /^ +\047[^ ].*\047$/')
  [ -z "$wide" ] || fail "lesson $1 is wider than 80 columns: $wide"
}

# Without the servers it names, a lesson says what to start and which options to give.
expect_exit 11 "$IDEMLAB" lesson the-standby-has-not-seen-it-yet --primary "$IDEMLAB_TEST_PG_PRIMARY"
expect_contains "$err" "needs --standby URL: scripts/servers up postgres-standby"
expect_exit 11 env -u IDEMLAB_REDIS "$IDEMLAB" lesson a-failover-forgets-a-token
expect_contains "$err" '--sentinel "$IDEMLAB_TEST_REDIS_SENTINEL" --redis-primary "$IDEMLAB_TEST_REDIS_PRIMARY"'
expect_exit 2 "$IDEMLAB" lesson a-lock-needs-a-fencing-token --zookeeper "$IDEMLAB_TEST_REDIS_PRIMARY"
expect_one_error_line

lesson the-standby-has-not-seen-it-yet "${pg[@]}"
expect_contains "$out" "standby, which may lag behind the primary)"
expect_contains "$out" "applied_more_than_once  api     s1"
expect_contains "$out" "applied (replayed): s2 was already applied"
case $out in *"applied_more_than_once  api     s2"*) fail "s2 moved twice" ;; esac
# The lesson resumed the standby's replay: it catches up with the primary.
lsn=$(psql -qAtX "$IDEMLAB_TEST_PG_PRIMARY" -c "SELECT pg_current_wal_lsn()")
for _ in $(seq 1 3000); do
  [ "$(psql -qAtX "$IDEMLAB_TEST_PG_STANDBY" -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" = t ] && break
  sleep 0.01
done
expect_equal "$(psql -qAtX "$IDEMLAB_TEST_PG_STANDBY" -c "SELECT pg_get_wal_replay_pause_state()")" \
  "not paused" "the standby replays again after the lesson"

lesson a-failover-forgets-what-it-was-told "${pg[@]}"
expect_contains "$out" "applied: f1 moved 10.00"
expect_contains "$out" "error: not_found: the server has no record of f1"
expect_contains "$out" "ok: 1 transfer applied, 2 journal entries"
expect_equal "$(psql -qAtX "$IDEMLAB_TEST_PG_STANDBY" -c "SELECT pg_is_in_recovery()")" f \
  "the standby was promoted"
expect_contains "$out" "compare --scenario ledger-failover"  # the same in the simulator
expect_contains "$out" "sync=on"

# The environment names another Redis: the lesson's steps do not see it.
IDEMLAB_REDIS=redis://127.0.0.1:1 lesson a-failover-forgets-a-token "${redis[@]}"
expect_contains "$out" "applied_more_than_once  api     r1"
expect_contains "$out" "applied (replayed): r2 was already applied"
case $out in *"applied_more_than_once  api     r2"*) fail "the ledger's token moved twice" ;; esac
expect_contains "$out" 'TOKEN=$(idemlab token issue --db l.db --redis "$SENTINEL")'

lesson a-lock-needs-a-fencing-token "${zookeeper[@]}"
expect_contains "$out" "applied_more_than_once  api     k1"
expect_contains "$out" "in_progress: the ledger refused this attempt's lock for k2 (fenced)"
case $out in *"applied_more_than_once  api     k2"*) fail "the fenced lock moved k2 twice" ;; esac
first=$out
lesson a-lock-needs-a-fencing-token "${zookeeper[@]}"
expect_equal "$out" "$first" "the fencing lesson, twice: the same bytes"

expect_exit 11 "$IDEMLAB" lesson a-lease-is-not-a-lock
expect_contains "$err" "--etcd"
lesson a-lease-is-not-a-lock "${etcd[@]}"
expect_contains "$out" "applied_more_than_once  api     e1"
expect_contains "$out" "in_progress: the ledger refused this attempt's lock for e2 (fenced)"
expect_contains "$out" '$ETCD (member'  # the member beside the URL, not a primary
case $out in *"applied_more_than_once  api     e2"*) fail "the fenced lease moved e2 twice" ;; esac
finish
