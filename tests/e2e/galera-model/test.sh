# e2e: a Galera cluster in the simulator (docs/simulator.md, "A Galera cluster"). Twins on two
# nodes: neither waits for the other, and at COMMIT the cluster refuses the second (1213,
# answered busy: certification_failed); every guarded strategy moves the money once. A retry
# on a node whose applier lags: with sync-wait=0 its select misses the first attempt, and
# select+insert without its unique index moves the money twice when the node catches up before
# the retry's transaction begins; with sync-wait=1 the select waits, and it is a replay. explore
# on the model finds that case among the twins' interleavings.
# tests/e2e/galera runs the same cases on a real cluster and compares.
source "$(dirname "$0")/../lib.sh"

twins=(--requests 1 --topology ledger=galera --fault double-submit:nth=1)
expect_exit 0 "$IDEMLAB" simulate --strategy select-for-update "${twins[@]}" --json
expect_equal "$(json_field "$out" moved_once)" 1 "select-for-update twins on two nodes: once"
expect_equal "$(json_field "$out" certification_failures)" 1 "the second refused at COMMIT"
expect_equal "$(json_field "$out" galera_nodes)" 3 "three nodes by default"
expect_exit 0 "$IDEMLAB" --width 200 simulate --strategy select-for-update "${twins[@]}" --timeline
expect_contains "$out" "begin                 write lock taken [node 1]"
expect_contains "$out" "begin                 write lock taken [node 2]"  # neither waits
expect_contains "$out" "commit                certification failed: rolled back [node 2]"
expect_contains "$out" "busy (certification_failed)"
for strategy in select-insert direct-insert state-machine dedup-table token optimistic-lock \
  lock-table; do
  expect_exit 0 "$IDEMLAB" simulate --strategy "$strategy" "${twins[@]}" --json
  expect_equal "$(json_field "$out" moved_once)" 1 "$strategy twins on two nodes: once"
done

# The retry on node 2, whose applier applies the first commit 308 ms after it: between the
# retry's select (318 ms) and its BEGIN (319 ms), as tests/e2e/galera's gate holds it.
stale=(--strategy select-insert --pitfall=no-unique-index --requests 1 --fault response-lost:nth=1)
expect_exit 0 "$IDEMLAB" simulate "${stale[@]}" --topology ledger=galera:apply-ms=308,sync-wait=0 --json
expect_equal "$(json_field "$out" moved_twice_or_more)" 1 "sync-wait=0: a stale select, twice"
expect_equal "$(json_field "$out" certification_failures)" 0 "nothing left to certify against"
expect_exit 0 "$IDEMLAB" --width 200 simulate "${stale[@]}" --topology ledger=galera:apply-ms=308 --timeline
expect_contains "$out" "select_flow           no flow row [node 2]"
expect_contains "$out" "node 2 applies the cluster's commit 1"
expect_exit 0 "$IDEMLAB" simulate "${stale[@]}" --topology ledger=galera:apply-ms=308,sync-wait=1 --json
expect_equal "$(json_field "$out" moved_once)" 1 "sync-wait=1: the select waits, a replay"
# Applied a step later, after the BEGIN: certification refuses the retry, and the next finds
# the first attempt.
expect_exit 0 "$IDEMLAB" simulate "${stale[@]}" --topology ledger=galera:apply-ms=309 --json
expect_equal "$(json_field "$out" moved_once)/$(json_field "$out" certification_failures)" 1/1 \
  "applied after the BEGIN: refused at COMMIT"

# Every strategy and pitfall on the double-click schedule on a cluster: the guarded strategies
# move money once; the same bytes for --jobs 1 and 2.
run=(compare --scenario double-click --with-pitfalls --json --topology ledger=galera:sync-wait=1
  --fault double-submit:k=2,p=0.5 --fault slow:ms=20,at=critical)
expect_exit 0 "$IDEMLAB" "${run[@]}" --jobs 1
first=$out
python3 - "$out" <<'PY' || fail "double-click on the simulated cluster: the rows"
import json, sys
rows = json.loads(sys.argv[1])["rows"]
guarded = [r for r in rows if not r["pitfall"] and r["strategy"] != "naive"]
assert all(r["moved_twice_or_more"] == 0 and r["audit_ok"] for r in guarded), guarded
assert sum(r["certification_failures"] for r in rows) > 0, "no COMMIT refused"
PY
expect_exit 0 "$IDEMLAB" "${run[@]}" --jobs 2
expect_equal "$out" "$first" "compare on the simulated cluster: the same bytes, --jobs 2"

# wsrep_retry_autocommit, 1 and 0: dedup-table --pitfall=separate-transactions inserts its dedup
# row in autocommit, twins on two nodes. With the retry (the default) a twin's INSERT runs once
# its node has applied the first, and meets it (a repeat); without it the INSERT runs on what
# its node has, and the cluster refuses it (1213, busy certification_failed): more refusals and
# attempts, never money moved twice. The same bytes twice.
autocommit=(simulate --strategy dedup-table --pitfall=separate-transactions --requests 300 --json
  --fault double-submit:k=2,p=0.5)
expect_exit 0 "$IDEMLAB" "${autocommit[@]}" --topology ledger=galera:apply-ms=50
with_retry=$out
expect_exit 0 "$IDEMLAB" "${autocommit[@]}" --topology ledger=galera:apply-ms=50,retry-autocommit=0
without=$out
expect_exit 0 "$IDEMLAB" "${autocommit[@]}" --topology ledger=galera:apply-ms=50,retry-autocommit=0
expect_equal "$out" "$without" "retry-autocommit=0: the same bytes twice"
python3 - "$with_retry" "$without" <<'PY' || fail "retry-autocommit 1 and 0: $with_retry $without"
import json, sys
retry, plain = (json.loads(a) for a in sys.argv[1:])
assert retry["moved_twice_or_more"] == plain["moved_twice_or_more"] == 0, (retry, plain)
assert retry["audit_ok"] and plain["audit_ok"]
assert plain["certification_failures"] > retry["certification_failures"], (retry, plain)
assert plain["attempts_per_request"] > retry["attempts_per_request"], (retry, plain)
PY
expect_exit 0 "$IDEMLAB" simulate --strategy dedup-table --pitfall=separate-transactions \
  --requests 1 --topology ledger=galera:apply-ms=50,retry-autocommit=0 --fault double-submit:nth=1 \
  --timeline
expect_contains "$out" "certification_failed"

# explore on the simulator's cluster: each twin on the next node, a COMMIT certified first, every
# interleaving tried with the appliers applying each commit at once, then 1 ms (a statement)
# after it, then 2, ... The unique key and certification keep select+insert to one move. Without
# the index, what breaks only because of the lag is the stale select: twin 2's select on node 2
# misses twin 1's commit, node 2 applies it, and the transaction begun after that passes
# certification (the case tests/e2e/galera holds with a gate). With sync-wait=1 the select and
# the BEGIN wait for the applier: nothing is refused, and only the plain race breaks.
expect_exit 0 "$IDEMLAB" explore --strategy select-insert --topology ledger=galera --json
python3 - "$out" <<'PY' || fail "explore select-insert on the model cluster: $out"
import json, sys
d = json.loads(sys.argv[1])
assert d["nodes"] == 3 and d["breaking"] == 0 and d["certification_failures"] > 0, d
PY
stale=(explore --strategy select-insert --pitfall=no-unique-index --topology ledger=galera --json)
expect_exit 0 "$IDEMLAB" "${stale[@]}"
first=$out
python3 - "$out" <<'PY' || fail "explore no-unique-index on the model cluster: the stale select"
import json, sys
shown = json.loads(sys.argv[1])["first_breaking"]
assert shown["breaks_only_with_fault"] and shown["appliers"] == {"lag_ms": 1}, shown
lines = [(e["what"], e["result"] or e["detail"]) for e in shown["timeline"]]
stale = lines.index(("select_flow", "no flow row (on node 2)"))
applied = lines.index(("applier", "node 2 applies the cluster's commit 1"))
begun = lines.index(("begin", "write lock taken (on node 2)"))
assert stale < applied < begun, lines
assert ("commit", "committed (on node 2)") in lines, lines
PY
expect_exit 0 "$IDEMLAB" "${stale[@]}"
expect_equal "$out" "$first" "explore on the model cluster: the same bytes twice"
expect_exit 0 "$IDEMLAB" --width 200 explore --strategy select-insert --pitfall=no-unique-index \
  --topology ledger=galera
expect_contains "$out" "First interleaving that breaks only because of the appliers' lag"
expect_contains "$out" "refused at certification"
expect_exit 0 "$IDEMLAB" explore --strategy select-insert --pitfall=no-unique-index \
  --topology ledger=galera:sync-wait=1 --json
expect_equal "$(json_field "$out" certification_failures)" 0 "sync-wait=1: nothing refused"
for bad in "--topology ledger=galera:apply-ms=5" "--topology ledger=galera --failover" \
    "--topology ledger=galera --redis redis://127.0.0.1:1" \
    "--topology ledger=galera --db mariadb://u@127.0.0.1:1/x"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$IDEMLAB" explore --strategy token $bad
  expect_one_error_line
done

# Bad input: one error line, exit 2.
for bad in galera:nodes=1 galera:nodes=10 galera:sync-wait=2 galera:apply-ms=-1 galera:lag-ms=5 \
    galera:retry-autocommit=2 galera:nodes=3,nodes=4; do
  expect_exit 2 "$IDEMLAB" simulate --strategy naive --requests 1 --topology "ledger=$bad"
  expect_one_error_line
done
expect_exit 2 "$IDEMLAB" simulate --strategy naive --requests 1 --topology ledger=galera \
  --db mariadb://u@127.0.0.1:1/x
expect_one_error_line
# A cluster is not a standby: one ledger part, and no failover of the ledger to make.
expect_exit 2 "$IDEMLAB" compare --strategies naive --requests 1 --topology ledger=galera \
  --topology ledger=standby:reads=standby
expect_one_error_line
expect_exit 2 "$IDEMLAB" compare --strategies naive --requests 1 --topology ledger=galera \
  --fault failover:of=ledger
expect_one_error_line
# The fault that was the cluster is refused, naming the topology that replaces it.
expect_exit 2 "$IDEMLAB" simulate --strategy naive --requests 1 --fault galera:apply-ms=5
expect_one_error_line
expect_contains "$err" "--topology ledger=galera:apply-ms=5"

# An applier that lags on every schedule: each node's rows numbered on its own (a flow named by
# id is found on each node), autocommit writes after their node caught up; the audit holds.
expect_exit 0 "$IDEMLAB" compare --scenario double-click --with-pitfalls --json \
  --topology ledger=galera:apply-ms=300 --fault double-submit:k=2,p=0.5 --fault slow:ms=20,at=critical
python3 - "$out" <<'PY' || fail "double-click, appliers 300 ms behind: the rows"
import json, sys
rows = json.loads(sys.argv[1])["rows"]
guarded = [r for r in rows if not r["pitfall"] and r["strategy"] != "naive"]
assert all(r["moved_twice_or_more"] == 0 and r["audit_ok"] for r in guarded), guarded
PY

# Untimed, a node applies its backlog just before its next step; with a timeline, at every step
# (docs/simulator.md): every answer and count is the same either way, with the busy writer and
# the client's query before a retry reaching the first node between steps.
counts() {  # the run's JSON without its timeline and its command
  python3 -c 'import json, sys; d = json.load(sys.stdin); [d.pop(k, None) for k in ("timeline", "command")]; print(json.dumps(d, sort_keys=True))' <<<"$1"
}
for strategy in naive select-insert direct-insert state-machine dedup-table token \
  select-for-update optimistic-lock lock-table; do
  for topology in galera:apply-ms=40 galera:apply-ms=15,sync-wait=1,nodes=4 \
    galera:apply-ms=25,retry-autocommit=0; do
    run=(simulate --strategy "$strategy" --requests 60 --seed 5 --topology "ledger=$topology"
      --fault response-lost:p=0.2 --fault busy:ms=30,p=0.05 --fault double-submit:p=0.1
      --retry query=yes --json)
    expect_exit 0 "$IDEMLAB" "${run[@]}"
    untimed=$(counts "$out")
    expect_exit 0 "$IDEMLAB" "${run[@]}" --timeline
    expect_equal "$(counts "$out")" "$untimed" "$strategy on $topology: the same with a timeline"
  done
done
finish
