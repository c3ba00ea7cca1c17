# e2e: lock-table's lock in ZooKeeper (scripts/servers up zookeeper) and in Redis, a holder
# stopped longer than its lease (--fault pause: the whole process, SIGSTOP, held at a gate), and
# fencing tokens. The first attempt takes the lock and stops before its transaction; the test
# waits until the kernel shows it stopped, then runs the twin until the lease has run out and
# the twin takes the lock (ZooKeeper expires the stopped holder's session and its ephemeral
# znode; for Redis the test ends the lease itself, deleting the key). The twin moves the money;
# then the gate opens and the first resumes. The variant that trusts the lock alone
# (ttl-too-short) moves the money again; with --fence the ledger refuses its lower fence in the
# money's own transaction and it answers in_progress (fenced); the guarded lock-table finds its
# lock gone. On SQLite, PostgreSQL and MariaDB ledgers; one ZooKeeper for the file.
source "$(dirname "$0")/../lib.sh"
require_test_servers
own_server_databases zookeeper_lock
export IDEMLAB_SERVERS_STATE=$work/servers.state
trap '"$ROOT/scripts/servers" down' EXIT
"$ROOT/scripts/servers" up zookeeper >/dev/null || { fail "ZooKeeper did not start"; finish; }
eval "$("$ROOT/scripts/servers" env)"
unset IDEMLAB_LOCKS IDEMLAB_REDIS  # each case names its lock store
zk="$IDEMLAB_TEST_ZOOKEEPER?session_ms=400"  # the shortest lease this server grants (2 ticks)
redis_socket=${IDEMLAB_TEST_REDIS#redis://}

# stopped_holder DB BIZ_SEQ STORE ARGS...: lib.sh's stopped_lock_holder, the lock in ZooKeeper
# or Redis. Sets first_exit, twin_exit, first_err.
stopped_holder() {
  local db=$1 biz_seq=$2 store=$3; shift 3
  local lock=(--locks "$zk")
  unset -f before_twin
  if [ "$store" = redis ]; then
    lock=(--redis "$IDEMLAB_TEST_REDIS")
    before_twin() { redis-cli -s "$redis_socket" DEL "lock:api:$biz_seq" >/dev/null; }
  fi
  stopped_lock_holder "$IDEMLAB" lock-table --db "$db" --biz-seq "$biz_seq" --from alice --to bob \
    --amount 1.00 "$@" "${lock[@]}"
  echo "$biz_seq $store $*: twin $twin_exit, first $first_exit at $SECONDS s"
}

sqlite=$work/l.db
expect_exit 0 "$IDEMLAB" init --db "$sqlite"
# The variant that trusts the lock: the twin and the resumed holder both move the money.
stopped_holder "$sqlite" z1 zookeeper --pitfall=ttl-too-short
expect_equal "$twin_exit/$first_exit" 0/0 "ttl-too-short, ZooKeeper, no fence: both applied"
expect_equal "$(pairs "$sqlite" z1)" 2 "a stopped holder's lock without a fence"
# With --fence: the twin's grant (a later czxid) is recorded first; the resumed holder's is lower.
stopped_holder "$sqlite" z2 zookeeper --pitfall=ttl-too-short --fence
expect_equal "$twin_exit/$first_exit" 0/5 "ttl-too-short with --fence: the stale holder refused"
expect_contains "$first_err" "in_progress: the ledger refused this attempt's lock for z2 (fenced)"
expect_equal "$(pairs "$sqlite" z2)" 1 "the fence made the lock safe"
# The guarded lock-table looks at its lock again: gone with the session.
stopped_holder "$sqlite" z3 zookeeper
expect_equal "$twin_exit/$first_exit/$(pairs "$sqlite" z3)" 0/5/1 "guarded lock-table"
expect_exit 7 "$IDEMLAB" audit --db "$sqlite"
expect_contains "$out" "applied_more_than_once  api     z1"
case $out in *" z2 "*|*" z3 "*) fail "only z1 moved twice: $out" ;; esac
expect_equal "$(sql_on "$sqlite" "SELECT count(*) FROM fence WHERE name = 'transfer:api:z2'")" 1 \
  "the ledger keeps z2's highest fence"

# Each server ledger refuses the lower fence in its own dialect.
for db in "$IDEMLAB_TEST_POSTGRES" "$IDEMLAB_TEST_MARIADB"; do
  expect_exit 0 "$IDEMLAB" init --force --db "$db"
  stopped_holder "$db" f1 zookeeper --pitfall=ttl-too-short --fence
  expect_equal "$twin_exit/$first_exit/$(pairs "$db" f1)" 0/5/1 "$db: fenced"
done

# A Redis lock: the lease is the key's TTL, ended here by the test; the fence is an INCR.
stopped_holder "$sqlite" r1 redis --pitfall=ttl-too-short
expect_equal "$twin_exit/$first_exit/$(pairs "$sqlite" r1)" 0/0/2 "Redis lock, no fence"
stopped_holder "$sqlite" r2 redis --pitfall=ttl-too-short --fence
expect_equal "$twin_exit/$first_exit/$(pairs "$sqlite" r2)" 0/5/1 "Redis lock with --fence"

# serve and consume keep lock-table's locks in ZooKeeper too, with the fence in the ledger.
served=$work/served.db
queue=zk-$$
locks_served_and_consumed "$zk" "$served" ZooKeeper "$queue"
# IDEMLAB_LOCKS is for lock-table: another strategy leaves it alone; typed, it is refused.
expect_exit 0 env IDEMLAB_LOCKS="$zk" "$IDEMLAB" consume --broker "$IDEMLAB_TEST_AMQP" \
  --queue "$queue" --db "$served" --strategy dedup-table --until-idle 200
expect_exit 2 "$IDEMLAB" serve --db "$served" --strategy dedup-table --locks "$zk"
expect_contains "$err" "--locks and --fence are for lock-table"

# Bad input: one error line, exit 2, nothing changed.
before=$(digest "$sqlite")
lock_table() { "$IDEMLAB" lock-table --db "$sqlite" --biz-seq b1 --from alice --to bob --amount 1 "$@"; }
expect_exit 2 lock_table --fence
expect_contains "$err" "--fence needs a lock outside the ledger"
expect_exit 2 lock_table --locks "$zk" --redis "$IDEMLAB_TEST_REDIS"
expect_one_error_line
expect_exit 2 lock_table --locks "zookeeper://nowhere"
expect_one_error_line
expect_exit 2 lock_table --locks "$zk&session_ms=0"
expect_one_error_line
expect_exit 2 "$IDEMLAB" simulate --strategy lock-table --fault pause:ms=10
expect_one_error_line
expect_equal "$(digest "$sqlite")" "$before" "refused input changed nothing"
# A ZooKeeper that does not answer: bounded, exit 75.
expect_exit 75 lock_table --locks "zookeeper://127.0.0.1:1?connect_timeout=1"
expect_contains "$err" "did not open a session within 1 s"
finish
