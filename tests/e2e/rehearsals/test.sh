# e2e: the shell rehearsals in scripts/: retry loop, double click, queue redelivery, crash
# then retry.
source "$(dirname "$0")/../lib.sh"
export IDEMLAB_DB=$work/l.db
"$IDEMLAB" init >/dev/null

# A retry loop until a definitive answer, against a ledger that is locked for a while: the lock
# is held for certain before the loop starts, and released only once an attempt was refused.
hold_write_lock "$IDEMLAB_DB"
"$ROOT/scripts/retry-until-definitive" --attempts 100000 --pause-ms 20 -- \
  select-insert --biz-seq loop-1 --from alice --to bob --amount 1 --busy-timeout-ms 50 \
  >"$work/loop.out" 2>"$work/loop.err" &
loop=$!
for _ in $(seq 1 6000); do grep -q "exit 75, retrying" "$work/loop.err" && break; sleep 0.01; done
release_write_lock
wait "$loop"
expect_equal "$?" 0 "the retry loop ends applied"
expect_contains "$(cat "$work/loop.err")" "exit 75, retrying"
expect_contains "$(cat "$work/loop.out")" "applied: loop-1"
expect_equal "$(pairs "$IDEMLAB_DB" loop-1)" 1 "retry loop moved money once"

expect_exit 0 "$ROOT/scripts/double-click" direct-insert --biz-seq click-1
expect_equal "$(pairs "$IDEMLAB_DB" click-1)" 1 "double click on direct-insert"
expect_exit 7 "$ROOT/scripts/double-click" naive --biz-seq click-2
expect_equal "$(pairs "$IDEMLAB_DB" click-2)" 2 "double click on naive"

# The queue's classroom run needs a broker (scripts/test starts one; tests/e2e/queue-crashes
# runs it at length): naive lets the copies of lost confirms through.
if [ -n "${IDEMLAB_TEST_AMQP:-}" ]; then
  IDEMLAB_BROKER=$IDEMLAB_TEST_AMQP expect_exit 1 "$ROOT/scripts/queue-redelivery" --db "$work/q.db" \
    --strategy naive --requests 20 --kills 0 --lost-confirms 0.3 --seed 2
  case $out in *" 0 more than once"*) fail "naive moved no copy twice: $out" ;; esac
fi

"$IDEMLAB" init --force >/dev/null
expect_exit 0 "$ROOT/scripts/crash-then-retry" dedup-table insert_dedup --biz-seq crash-1
expect_contains "$out" "crashed attempt: exit 137"
expect_contains "$out" "retry: exit 0"
expect_equal "$(pairs "$IDEMLAB_DB" crash-1)" 1 "crash then retry on dedup-table"
expect_exit 0 "$ROOT/scripts/crash-then-retry" dedup-table insert_dedup --pitfall --biz-seq crash-2
expect_contains "$out" "retry: exit 5"
expect_contains "$err" "held by a dedup record with no answer"
# Once the record is older than --stale-after-ms, audit warns about it (exit 0: a warning).
expect_exit 0 "$IDEMLAB" audit --stale-after-ms 1
expect_contains "$out" unanswered_dedup_record
expect_equal "$(pairs "$IDEMLAB_DB" crash-2)" 0 "crash then retry on dedup-table --pitfall: stuck"
integrity_ok "$IDEMLAB_DB"
finish
