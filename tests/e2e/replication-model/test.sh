# e2e: replication in the simulator and the explorer (docs/simulator.md, "Replication in the
# simulator"). A failover of the guard store: its primary dies right after an attempt's guard
# write and its replica, which never received that write, takes over. One request, placed by
# nth=, shows each strategy's verdict; the redis-failover scenario ranks every strategy and
# pitfall, the same bytes twice; explore --failover finds where among the twins' steps it
# breaks. A lagging read replica of the ledger: replica-reads, with and without
# --read-your-writes; explore --topology ledger=standby:reads=standby.
source "$(dirname "$0")/../lib.sh"

# One request: the token consumed, the failover, the answer lost, the retry.
one=(--requests 1 --fault failover:nth=1 --fault response-lost:nth=1)
expect_exit 0 "$IDEMLAB" simulate --strategy token "${one[@]}" --json
expect_equal "$(json_field "$out" moved_twice_or_more)" 1 "token: the retry finds its token unused"
expect_equal "$(json_field "$out" failovers)" 1 "token: one failover"
expect_equal "$(json_field "$out" guard_writes_lost)" 1 "token: the consume is the write lost"
expect_equal "$(json_field "$out" audit_ok)" false "token: the audit finds the second transfer"
expect_exit 0 "$IDEMLAB" --width 200 simulate --strategy token "${one[@]}" --timeline
expect_contains "$out" "takes over without the last write"
expect_contains "$out" "[fault: failover]"

# The same fault, without the lost answer: nobody retries, the money moved once.
expect_exit 0 "$IDEMLAB" simulate --strategy token --requests 1 --fault failover:nth=1 --json
expect_equal "$(json_field "$out" moved_once)" 1 "token, answer kept: once"

# A replica far enough behind never saw the token: the retry is refused, nothing moves twice.
expect_exit 0 "$IDEMLAB" simulate --strategy token --requests 1 \
  --fault failover:nth=1,lag-ms=1000 --fault response-lost:nth=1 --json
expect_equal "$(json_field "$out" moved_twice_or_more)" 0 "token, lag 1000 ms: not twice"
expect_equal "$(json_field "$out" guard_writes_lost)" 2 "token, lag 1000 ms: issue and consume lost"

# A guard in the ledger's transaction: the fault has nothing to fail over (placed nowhere, it
# waits for a guard write that never comes; placed at a phase, the timeline says so).
for strategy in select-insert direct-insert state-machine dedup-table select-for-update \
  optimistic-lock lock-table; do
  expect_exit 0 "$IDEMLAB" simulate --strategy "$strategy" "${one[@]}" --json
  expect_equal "$(json_field "$out" moved_once)" 1 "$strategy: once"
done
expect_exit 0 "$IDEMLAB" --width 200 simulate --strategy select-insert --requests 1 \
  --fault failover:nth=1,after=holding-guard --timeline
expect_contains "$out" "this strategy keeps nothing there"

# A failover placed in time: once, whoever is under way; the whole run's timeline shows it.
expect_exit 0 "$IDEMLAB" simulate --strategy token --requests 30 \
  --fault failover:at-ms=100,lag-ms=50 --json
expect_equal "$(json_field "$out" failovers)" 1 "failover:at-ms=100: once"
expect_exit 0 "$IDEMLAB" --width 200 simulate --strategy token --requests 30 \
  --fault failover:at-ms=100,lag-ms=50 --timeline
expect_contains "$out" "the guard store's primary dies at 100 ms; its replica (50 ms behind)"
expect_exit 2 "$IDEMLAB" simulate --strategy token --requests 3 --fault failover:at-ms=100,nth=1
expect_one_error_line

# The scenario ranks every row; token moves money twice, no guard kept in the ledger does.
run=(compare --scenario redis-failover --with-pitfalls --json)
expect_exit 0 "$IDEMLAB" "${run[@]}" --jobs 1
first=$out
python3 - "$first" <<'PY' || fail "redis-failover: the rows"
import json, sys
rows = json.loads(sys.argv[1])["rows"]
twice = {(r["strategy"], r["pitfall"]): r["moved_twice_or_more"] for r in rows}
assert twice[("token", None)] > 0, twice
own = {("naive", None), ("direct-insert", "upsert-carries-on")}  # their own pitfall
wrong = [k for k, n in twice.items() if n and k[0] != "token" and k not in own]
assert not wrong, wrong
PY
expect_exit 0 "$IDEMLAB" "${run[@]}" --jobs 2
expect_equal "$out" "$first" "compare --scenario redis-failover: the same bytes, --jobs 2"

# explore --failover: token's twins both consume the token when the store fails over between
# them; every strategy whose guard lives in the ledger's transaction, lock-table too, holds.
expect_exit 0 "$IDEMLAB" explore --strategy token --json
expect_equal "$(json_field "$out" breaking)" 0 "explore token: safe without a failover"
expect_exit 0 "$IDEMLAB" explore --strategy token --failover --json
first=$out
python3 - "$out" <<'PY' || fail "explore token --failover: the breaking interleaving"
import json, sys
d = json.loads(sys.argv[1])
assert d["failover"] is True and d["breaking"] > 0, d
assert "moved_twice_or_more" in d["by_invariant"], d["by_invariant"]
shown = d["first_breaking"]
assert shown["failover"] == {"after_guard_write": 1}, shown
steps = [e["what"] for e in shown["timeline"]]
assert steps.index("failover") == steps.index("consume_token") + 1, steps
PY
expect_exit 0 "$IDEMLAB" explore --strategy token --failover --json
expect_equal "$out" "$first" "explore token --failover: the same bytes twice"
expect_exit 0 "$IDEMLAB" explore --strategy token --failover --format mermaid
expect_contains "$out" "failover"
expect_exit 0 "$IDEMLAB" --width 200 explore --strategy token --failover
expect_contains "$out" "the guard store fails over right after guard write 1"
expect_contains "$out" "tokens and locks in a store that fails over"
expect_exit 0 "$IDEMLAB" explore --strategy lock-table --failover --json
expect_equal "$(json_field "$out" breaking)" 0 "explore lock-table --failover"
# A guard in the ledger's transaction: nothing apart from it to fail over, and so refused.
for strategy in select-insert naive select-for-update dedup-table; do
  expect_exit 2 "$IDEMLAB" explore --strategy "$strategy" --failover
  expect_one_error_line
  expect_contains "$err" "keeps its guard in the ledger's transaction"
done
# Two holders of one lock: a lock whose holder trusts it alone (ttl-too-short: no flow check
# in the money's transaction) moves the money twice, as on the real servers.
expect_exit 0 "$IDEMLAB" explore --strategy lock-table --pitfall=ttl-too-short --json
expect_equal "$(json_field "$out" breaking)" 0 "explore lock-table ttl-too-short, no failover"
expect_exit 0 "$IDEMLAB" explore --strategy lock-table --pitfall=ttl-too-short --failover --json
expect_contains "$(json_field "$out" by_invariant)" moved_twice_or_more
for other in "--redis redis://127.0.0.1:1/0" "--db postgresql://u@127.0.0.1:1/x"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$IDEMLAB" explore --strategy token --failover $other
  expect_one_error_line
done

# A client that asks before it retries (query=yes) asks where the attempts read: a standby a
# second behind answers "no flow row", and naive's retry moves the money again.
lagging=(--requests 1 --topology ledger=standby:lag-ms=1000,reads=standby --retry query=yes
         --fault response-lost:nth=1)
expect_exit 0 "$IDEMLAB" simulate --strategy naive "${lagging[@]}" --json
expect_equal "$(json_field "$out" moved_twice_or_more)" 1 "naive, its query on the standby"
expect_exit 0 "$IDEMLAB" simulate --strategy naive "${lagging[@]}" --timeline
expect_contains "$out" "no flow row (on the standby)"
expect_exit 0 "$IDEMLAB" simulate --strategy naive "${lagging[@]}" --read-your-writes --json
expect_equal "$(json_field "$out" moved_once)" 1 "naive, its query read-your-writes"

# explore --topology ledger=standby:reads=standby: the lookups outside the write transaction read a replica that applied
# none of the run's commits, then the first, ...: the unique key in the money's transaction
# holds; a lock whose holder trusts a lookup on the replica (no-owner-check) lets the twin in.
expect_exit 0 "$IDEMLAB" explore --strategy select-insert --topology ledger=standby:reads=standby --json
expect_equal "$(json_field "$out" breaking)" 0 "explore select-insert --topology ledger=standby:reads=standby"
expect_exit 0 "$IDEMLAB" explore --strategy lock-table --pitfall=no-owner-check --json
expect_equal "$(json_field "$out" breaking)" 0 "explore lock-table no-owner-check, no replica"
expect_exit 0 "$IDEMLAB" explore --strategy lock-table --pitfall=no-owner-check --topology ledger=standby:reads=standby --json
first=$out
python3 - "$out" <<'PY' || fail "explore lock-table no-owner-check --topology ledger=standby:reads=standby: the interleaving"
import json, sys
d = json.loads(sys.argv[1])
assert d["replica_lag"] is True and d["breaking"] > 0, d
shown = d["first_breaking"]
assert shown["replica"] == {"applied_commits": 0}, shown
assert any("(on the standby)" in e["result"] for e in shown["timeline"]), "no read on the standby"
PY
expect_exit 0 "$IDEMLAB" explore --strategy lock-table --pitfall=no-owner-check --topology ledger=standby:reads=standby --json
expect_equal "$out" "$first" "explore --topology ledger=standby:reads=standby: the same bytes twice"
expect_exit 0 "$IDEMLAB" --width 200 explore --strategy lock-table --pitfall=no-owner-check \
  --topology ledger=standby:reads=standby
expect_contains "$out" "the lookups read a standby that applied none of the run's commits"
expect_exit 2 "$IDEMLAB" explore --strategy select-insert --topology ledger=standby:reads=standby \
  --db postgresql://u@127.0.0.1:1/x
expect_one_error_line

# Reads on a replica a second behind: the retry of a lost answer finds no flow row there.
lagging=(--requests 1 --topology ledger=standby:lag-ms=1000,reads=standby --fault response-lost:nth=1)
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --pitfall=no-unique-index \
  "${lagging[@]}" --json
expect_equal "$(json_field "$out" moved_twice_or_more)" 1 "no-unique-index on a lagging replica"
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --pitfall=no-unique-index \
  "${lagging[@]}" --read-your-writes --json
expect_equal "$(json_field "$out" moved_once)" 1 "no-unique-index, read-your-writes"
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --pitfall=no-unique-index \
  --requests 1 --topology ledger=standby:lag-ms=100,reads=standby --fault response-lost:nth=1 --json
expect_equal "$(json_field "$out" moved_once)" 1 "no-unique-index, the replica caught up first"
expect_exit 0 "$IDEMLAB" --width 200 simulate --strategy select-insert "${lagging[@]}" --timeline
expect_contains "$out" "no flow row (on the standby)"
expect_exit 0 "$IDEMLAB" --width 200 simulate --strategy select-insert "${lagging[@]}" \
  --read-your-writes --timeline
expect_contains "$out" "(on the primary: the replica is behind)"
# replay-pause: a standby that replays at once (lag-ms=0) stops as the first attempt arrives,
# as scripts/servers postgres pause-replay stops a real one. The retry's lookup finds the
# first commit missing while the pause lasts, and finds it once the pause is over.
paused=(--requests 1 --topology ledger=standby:lag-ms=0,reads=standby --fault response-lost:nth=1)
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --pitfall=no-unique-index \
  "${paused[@]}" --json
expect_equal "$(json_field "$out" moved_once)" 1 "no-unique-index, a standby at once"
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --pitfall=no-unique-index \
  "${paused[@]}" --fault replay-pause:nth=1,ms=10000 --json
expect_equal "$(json_field "$out" moved_twice_or_more)" 1 "no-unique-index, the replay paused"
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --pitfall=no-unique-index \
  "${paused[@]}" --fault replay-pause:nth=1,ms=200 --json
expect_equal "$(json_field "$out" moved_once)" 1 "no-unique-index, the pause over before the retry"
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --pitfall=no-unique-index \
  "${paused[@]}" --fault replay-pause:nth=1,ms=10000 --read-your-writes --json
expect_equal "$(json_field "$out" moved_once)" 1 "no-unique-index, paused, read-your-writes"
expect_exit 0 "$IDEMLAB" --width 200 simulate --strategy select-insert "${paused[@]}" \
  --fault replay-pause:nth=1,ms=10000 --timeline
expect_contains "$out" "stops replaying for 10000 ms [fault: replay-pause]"
expect_exit 2 "$IDEMLAB" simulate --strategy select-insert --requests 1 --fault replay-pause:nth=1
expect_one_error_line
expect_contains "$err" "add --topology ledger=standby:reads=standby"
expect_exit 2 "$IDEMLAB" simulate --strategy select-insert --requests 1 \
  --topology ledger=standby:reads=standby --fault replay-pause:at=commit
expect_one_error_line

run=(compare --scenario replica-reads --with-pitfalls --json)
for ryw in "" --read-your-writes; do
  # shellcheck disable=SC2086
  expect_exit 0 "$IDEMLAB" "${run[@]}" $ryw
  python3 - "$out" "$ryw" <<'PY' || fail "replica-reads $ryw: the rows"
import json, sys
rows = json.loads(sys.argv[1])["rows"]
twice = {(r["strategy"], r["pitfall"]): r["moved_twice_or_more"] for r in rows}
assert (twice[("select-insert", "no-unique-index")] > 0) == (sys.argv[2] == ""), twice
for r in rows:  # a guard in the money's transaction: never twice, with or without
    if r["pitfall"] is None and r["strategy"] != "naive":
        assert r["moved_twice_or_more"] == 0 and r["audit_ok"], r
PY
  columns_add_up "$out" "replica-reads $ryw"
done
# The clients that gave up on busy answers are counted, and the report's cell says so.
expect_exit 0 "$IDEMLAB" compare --scenario replica-reads --strategies state-machine --json
gave_up=$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["rows"][0]["gave_up"])')
[ "$gave_up" -gt 0 ] || fail "replica-reads: state-machine's clients that gave up, counted ($gave_up)"
expect_exit 0 "$IDEMLAB" report --out "$work/r.html" --requests 60 --scenarios replica-reads \
  --strategies state-machine
python3 - "$work/r.html" <<'PY' || fail "report: state-machine under replica-reads is not safe"
import re, sys
page = open(sys.argv[1]).read()
table = re.search(r'<table class="matrix">(.*?)</table>', page, re.S).group(1)
rows = re.findall(r'<tr>(.*?)</tr>', table, re.S)
names = re.findall(r'<th>(.*?)</th>', rows[0])[1:]
row = next(r for r in rows if r.startswith("<th>replica-reads</th>"))
cell = re.findall(r'<td[^>]*>.*?</td>', row)[names.index("state-machine")]
assert 'class="bad"' in cell and "gave up" in cell, cell
PY
expect_exit 2 "$IDEMLAB" simulate --strategy naive --requests 1 --read-your-writes
expect_one_error_line
expect_exit 2 "$IDEMLAB" simulate --strategy naive --requests 1 \
  --topology ledger=standby:reads=standby --db postgresql://u@127.0.0.1:1/x
expect_one_error_line

# A topology is not a fault: the faults that were one are refused, naming what replaces them;
# a topology that changes nothing for the run is refused with its reason.
expect_exit 2 "$IDEMLAB" simulate --strategy naive --requests 1 --fault replica-lag:ms=250
expect_one_error_line
expect_contains "$err" "--topology ledger=standby:lag-ms=250,reads=standby"
expect_exit 2 "$IDEMLAB" explore --strategy select-insert --replica-lag
expect_contains "$err" "--topology ledger=standby:reads=standby"
for nothing in "simulate --strategy token --topology ledger=standby:lag-ms=20" \
    "simulate --strategy select-insert --topology guards=replica" \
    "explore --strategy token --topology guards=replica" \
    "compare --strategies naive,select-insert --topology guards=replica:lag-ms=5" \
    "report --out $work/x.html --scenarios ledger-failover --topology ledger=galera" \
    "simulate --strategy naive --topology ledger=galera:nodes=3,nodes=4"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$IDEMLAB" $nothing --requests 1
  expect_one_error_line
done
[ ! -e "$work/x.html" ] || fail "a refused report wrote its page"

# explore shows first what breaks only because of the lag: the twins one after the other, each
# reading a standby that has not applied the other's commit (the plain race breaks too, later).
expect_exit 0 "$IDEMLAB" explore --strategy select-insert --pitfall \
  --topology ledger=standby:reads=standby --json
python3 - "$out" <<'PY' || fail "explore select-insert --pitfall on the standby: shown first"
import json, sys
shown = json.loads(sys.argv[1])["first_breaking"]
assert shown["breaks_only_with_fault"] is True and shown["replica"] == {"applied_commits": 0}, shown
assert shown["schedule"] == sorted(shown["schedule"]), shown["schedule"]  # serial: no race
PY
expect_exit 0 "$IDEMLAB" --width 200 explore --strategy select-insert --pitfall \
  --topology ledger=standby:reads=standby
expect_contains "$out" "First interleaving that breaks only because of the standby's lag"
expect_exit 0 "$IDEMLAB" explore --strategy select-insert --pitfall --json
expect_equal "$(printf '%s' "$out" | python3 -c 'import json,sys; print("breaks_only_with_fault" in json.load(sys.stdin)["first_breaking"])')" \
  False "explore without a topology: the plain race, not marked"

# report --topology: the matrix on a Galera cluster of the simulator's.
expect_exit 0 "$IDEMLAB" report --out "$work/g.html" --requests 20 --scenarios double-click \
  --strategies select-insert,dedup-table --topology ledger=galera:apply-ms=5 --json
expect_contains "$out" "--topology ledger=galera:apply-ms=5"
expect_contains "$out" '"galera_nodes":3' 

# A real Redis and the simulator's store are two different things.
expect_exit 2 "$IDEMLAB" simulate --strategy token --requests 1 --fault failover \
  --redis redis://127.0.0.1:1/0
expect_one_error_line
finish
