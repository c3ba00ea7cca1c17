# e2e: lock-table's lock in etcd (scripts/servers up etcd: three members), a key under a lease
# of the lock's TTL, its create_revision the fence. A holder stopped longer than its lease
# (--fault pause: the whole process, SIGSTOP, held at a gate): the first attempt takes the lock
# and stops before its transaction; the test waits until the kernel shows it stopped, then runs
# the twin until the lease has run out (etcd's shortest is 2 s) and the twin takes the lock and
# moves the money; then the gate opens and the first resumes. Trusting the lock alone
# (ttl-too-short) moves the money again; with --fence the ledger refuses the lower revision in
# the money's own transaction (in_progress, fenced); the guarded lock-table finds its lock
# gone; the simulator's lease store (guards=lease) agrees on all three. Then the member the
# client asks first is killed: the next answers, and the lock still
# works; restarted, it rejoins. serve and consume keep their locks there too; a URL whose
# members all refuse is answered 75, and nothing moves.
source "$(dirname "$0")/../lib.sh"
require_test_servers
export IDEMLAB_SERVERS_STATE=$work/servers.state
trap '"$ROOT/scripts/servers" down' EXIT
"$ROOT/scripts/servers" up etcd >/dev/null || { fail "etcd did not start"; finish; }
env=$("$ROOT/scripts/servers" env)
expect_contains "$env" "export IDEMLAB_LOCKS='etcd://127.0.0.1:"
eval "$env"
unset IDEMLAB_LOCKS IDEMLAB_REDIS
etcd=$IDEMLAB_TEST_ETCD
sqlite=$work/l.db
expect_exit 0 "$IDEMLAB" init --db "$sqlite"
attempt=("$IDEMLAB" lock-table --db "$sqlite" --from alice --to bob --amount 1.00 --locks "$etcd"
         --lock-ttl-ms 2000)  # etcd's shortest lease
pay() { "${attempt[@]}" --biz-seq "$@"; }  # BIZ_SEQ ARGS...

# A URL that is not etcd's: one line, exit 2, nothing done.
expect_exit 2 pay bad-1 --locks "etcd://127.0.0.1"
expect_one_error_line
expect_contains "$err" "is not HOST:PORT"
expect_exit 2 pay bad-2 --locks "$etcd?lease=5"
expect_contains "$err" "connect_timeout takes 1 to 3600 s"
expect_equal "$(pairs "$sqlite" bad-1)$(pairs "$sqlite" bad-2)" 00 "a refused URL moves nothing"

expect_exit 0 pay e0 --fence
expect_equal "$(pairs "$sqlite" e0)" 1 "a lock in etcd: applied once"
expect_exit 0 pay e0 --fence
expect_contains "$out" "replayed"

# stopped_holder BIZ_SEQ ARGS...: lib.sh's stopped_lock_holder, the lock in etcd.
stopped_holder() {
  stopped_lock_holder "${attempt[@]}" --biz-seq "$@"
  echo "$*: twin $twin_exit, first $first_exit at $SECONDS s"
}
stopped_holder e1 --pitfall=ttl-too-short
expect_equal "$twin_exit/$first_exit/$(pairs "$sqlite" e1)" 0/0/2 "etcd lock, no fence: twice"
parity_live lease-1 "$(pairs "$sqlite" e1)" "$twin_exit"
stopped_holder e2 --pitfall=ttl-too-short --fence
expect_equal "$twin_exit/$first_exit/$(pairs "$sqlite" e2)" 0/5/1 "etcd lock with --fence: once"
expect_contains "$first_err" "in_progress: the ledger refused this attempt's lock for e2 (fenced)"
parity_live lease-2 "$(pairs "$sqlite" e2)" "$twin_exit"
stopped_holder e3
expect_equal "$twin_exit/$first_exit/$(pairs "$sqlite" e3)" 0/5/1 "guarded lock-table: once"
parity_live lease-3 "$(pairs "$sqlite" e3)" "$twin_exit"
# The simulator's lease store agrees, row by row (tests/e2e/parity.table).
parity_check etcd
expect_exit 7 "$IDEMLAB" audit --db "$sqlite"
expect_contains "$out" "applied_more_than_once  api     e1"
case $out in *" e2 "*|*" e3 "*) fail "only e1 moved twice: $out" ;; esac

# The member asked first dies: the next one answers; restarted, it serves again.
expect_exit 0 "$ROOT/scripts/servers" etcd kill 1
expect_exit 0 pay k1 --fence
expect_equal "$(pairs "$sqlite" k1)" 1 "with member 1 dead, the lock is taken on another"
expect_contains "$out" ", the etcd member that answered)"
first_member=${etcd#etcd://}; first_member=${first_member%%,*}
case $out in *"guards on $first_member,"*) fail "the dead member answered: $out" ;; esac
expect_exit 0 "$ROOT/scripts/servers" etcd restart 1
expect_exit 0 pay k2 --fence
expect_equal "$(pairs "$sqlite" k2)" 1 "member 1 back"
expect_exit 2 "$ROOT/scripts/servers" etcd kill 4

# serve and consume keep lock-table's locks in etcd too, with the fence in the ledger.
locks_served_and_consumed "$etcd" "$work/served.db" etcd "etcd-$$"
# No member answers: every one refuses the connection, exit 75, nothing moved.
expect_exit 75 "$IDEMLAB" lock-table --db "$sqlite" --biz-seq n1 --from alice --to bob \
  --amount 1.00 --locks "etcd://127.0.0.1:1,127.0.0.1:2?connect_timeout=1"
expect_one_error_line
expect_contains "$err" "no etcd member of etcd://127.0.0.1:1,127.0.0.1:2?connect_timeout=1 took"
expect_equal "$(pairs "$sqlite" n1)" 0 "no lock, no money moved"
finish
