# e2e: a failover of the ledger in the simulator (docs/simulator.md, "A failover of the
# ledger"). Its primary dies right after an attempt's commit, which its asynchronous standby
# never received: the client was told it succeeded and the journal has no transfer. A retry of
# a lost answer moves the money once where the guard died with the money, and never where it
# outlived it (a token kept apart); a synchronous standby (sync=on) loses nothing; transactions
# under way die. The scenario ledger-failover ranks every row, the same bytes for --jobs 1 and 2;
# explore --failover=ledger finds where among the twins' steps the loss breaks a strategy.
source "$(dirname "$0")/../lib.sh"

# One request: committed, the failover, the answer lost, the retry on the promoted standby.
one=(--requests 1 --fault failover:of=ledger,nth=1 --fault response-lost:nth=1)
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert "${one[@]}" --json
expect_equal "$(json_field "$out" moved_once)" 1 "select-insert: the retry moves it once"
expect_equal "$(json_field "$out" ledger_failovers)" 1 "select-insert: one failover"
expect_equal "$(json_field "$out" commits_lost)" 1 "select-insert: the commit is lost"
expect_exit 0 "$IDEMLAB" --width 200 simulate --strategy select-insert "${one[@]}" --timeline
expect_contains "$out" "the ledger's primary dies after the commit that moved the money; its standby (0 ms behind) takes over without the last commit"
for strategy in direct-insert state-machine dedup-table select-for-update optimistic-lock \
  lock-table naive; do
  expect_exit 0 "$IDEMLAB" simulate --strategy "$strategy" "${one[@]}" --json
  expect_equal "$(json_field "$out" moved_once)" 1 "$strategy: once"
done
# The token kept apart (guards=replica: a store of its own that stays up) outlives its
# transfer: every retry is answered in_progress. Kept in the ledger, it fails over with it.
expect_exit 0 "$IDEMLAB" simulate --strategy token --topology guards=replica "${one[@]}" --json
expect_equal "$(json_field "$out" not_moved)/$(json_field "$out" stuck)" 1/1 "token kept apart"
expect_exit 0 "$IDEMLAB" simulate --strategy token "${one[@]}" --json
expect_equal "$(json_field "$out" moved_once)" 1 "token in the ledger: lost with its transfer"
# Failed over with the ledger (of=both), by a standby that has the token's issue but not what
# followed: the token is lost with its transfer, and the retry moves the money once.
expect_exit 0 "$IDEMLAB" simulate --strategy token --requests 1 \
  --fault failover:of=both,nth=1,lag-ms=8 --fault response-lost:nth=1 --json
expect_equal "$(json_field "$out" moved_once)" 1 "token failed over with the ledger"
# dedup-table with its record committed before the money: the record survives, the money not.
expect_exit 0 "$IDEMLAB" simulate --strategy dedup-table --pitfall=separate-transactions \
  "${one[@]}" --json
expect_equal "$(json_field "$out" stuck)" 1 "dedup-table separate-transactions: stuck"

# The answer kept: the client was told it succeeded; the journal has nothing.
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --requests 1 \
  --fault failover:of=ledger,nth=1 --json
expect_equal "$(json_field "$out" never_moved)" 1 "told success, lost"
# A synchronous standby has every commit acknowledged, strictly synchronous or not (Patroni's
# synchronous_mode, _strict).
for sync in on strict; do
  expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --requests 1 \
    --topology ledger=standby:sync=$sync --fault failover:of=ledger,nth=1,lag-ms=1000 --json
  expect_equal "$(json_field "$out" moved_once)/$(json_field "$out" commits_lost)" 1/0 "sync=$sync"
done
# The fault's own sync= is how the standby stands: refused, naming the topology.
expect_exit 2 "$IDEMLAB" simulate --strategy select-insert --requests 1 \
  --fault failover:of=ledger,nth=1,sync=on
expect_contains "$err" "--topology ledger=standby:sync=on"
# A standby further behind than max-lag-ms is not promoted (Patroni's
# maximum_lag_on_failover): the old primary comes back with the commit, and nothing is lost.
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --requests 1 \
  --topology ledger=standby:lag-ms=1000,max-lag-ms=500 --fault failover:of=ledger,nth=1 --json
expect_equal "$(json_field "$out" promotions_refused)/$(json_field "$out" never_moved)" 1/0 \
  "max-lag-ms: nobody promoted, nothing lost"
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --requests 1 \
  --topology ledger=standby:lag-ms=400,max-lag-ms=500 --fault failover:of=ledger,nth=1 --json
expect_equal "$(json_field "$out" ledger_failovers)/$(json_field "$out" never_moved)" 1/1 \
  "within max-lag-ms: promoted, the commit lost"
expect_exit 2 "$IDEMLAB" simulate --strategy select-insert --requests 1 \
  --topology ledger=standby:sync=on,reads=standby
expect_contains "$err" "add --fault failover:of=ledger"
# Placed inside the transaction: it dies with the old primary, and the retry moves it once.
expect_exit 0 "$IDEMLAB" --width 200 simulate --strategy select-insert --requests 1 \
  --fault failover:of=ledger,nth=1,after=holding-guard --timeline
expect_contains "$out" "its transaction died with the ledger's old primary: no answer"
expect_contains "$out" "the transaction under way dies"
expect_exit 0 "$IDEMLAB" simulate --strategy select-insert --requests 1 \
  --fault failover:of=ledger,nth=1,after=holding-guard --json
expect_equal "$(json_field "$out" transactions_cut)/$(json_field "$out" moved_once)" 1/1 "cut"

# In time, whoever is under way, with the busy fault's writer holding the lock: every
# transaction under way dies, nothing committed is counted twice, and the audit holds.
expect_exit 0 "$IDEMLAB" simulate --strategy dedup-table --requests 300 \
  --fault failover:of=ledger,at-ms=200,lag-ms=20 --fault busy:p=0.05,ms=40 --json
python3 - "$out" <<'PY' || fail "at-ms=200: the counts"
import json, sys
d = json.loads(sys.argv[1])
assert d["ledger_failovers"] == 1 and d["audit_ok"] and d["moved_twice_or_more"] == 0, d
assert d["moved_once"] + d["not_moved"] == 300, d
PY

# The scenario: every strategy tells some clients a success the ledger lost; token's retries
# are refused; no guard kept in the ledger's transaction moves money twice.
run=(compare --scenario ledger-failover --with-pitfalls --json)
expect_exit 0 "$IDEMLAB" "${run[@]}" --jobs 1
first=$out
columns_add_up "$first" "ledger-failover"
python3 - "$first" <<'PY' || fail "ledger-failover: the rows"
import json, sys
rows = {(r["strategy"], r["pitfall"]): r for r in json.loads(sys.argv[1])["rows"]}
assert all(r["never_moved"] > 0 for r in rows.values()), "every row loses an acknowledged commit"
assert rows[("token", None)]["stuck"] > 0, rows[("token", None)]
own = {("naive", None), ("direct-insert", "upsert-carries-on")}  # their own pitfall
wrong = [k for k, r in rows.items() if r["moved_twice_or_more"] and k not in own]
assert not wrong, wrong
PY
expect_exit 0 "$IDEMLAB" "${run[@]}" --jobs 2
expect_equal "$out" "$first" "compare --scenario ledger-failover: the same bytes, --jobs 2"

# explore --failover=ledger: the ledger fails over right after each commit of a run in turn.
# A token kept in the ledger fails over with the money and the twin moves it once; kept in a
# store that stays up (guards=replica) it outlives the lost transfer: never moved.
expect_exit 0 "$IDEMLAB" explore --strategy token --failover=ledger --json
python3 - "$out" <<'PY' || fail "explore token --failover=ledger: the token in the ledger"
import json, sys
d = json.loads(sys.argv[1])
assert d["ledger_failover"] is True and d["breaking"] == 0 and d["interleavings"] > 6, d
PY
apart=(explore --strategy token --failover=ledger --topology guards=replica)
expect_exit 0 "$IDEMLAB" "${apart[@]}" --json
first=$out
python3 - "$first" <<'PY' || fail "explore token --failover=ledger guards=replica: the shown run"
import json, sys
d = json.loads(sys.argv[1])
assert d["guards"] == "replica" and d["breaking"] > 0, d
assert d["by_invariant"] == {"never_moved": d["breaking"]}, d
shown = d["first_breaking"]
assert shown["ledger_failover"] == {"after_commit": 1} and shown["breaks_only_with_fault"], shown
steps = [e["what"] for e in shown["timeline"]]
assert steps.index("failover") == steps.index("commit") + 1, steps
PY
expect_exit 0 "$IDEMLAB" "${apart[@]}" --json
expect_equal "$out" "$first" "explore --failover=ledger: the same bytes twice"
expect_exit 0 "$IDEMLAB" --width 200 "${apart[@]}"
expect_contains "$out" "tokens and locks in a store that stays up, a ledger that fails over"
expect_contains "$out" "breaks only because of the ledger's failover"
expect_contains "$out" "its standby takes over without that commit"
expect_contains "$out" "--failover=ledger --topology guards=replica"  # the reproduce line
# A dedup record committed apart from the money outlives it; the explorer finds it.
expect_exit 0 "$IDEMLAB" explore --strategy dedup-table --pitfall=separate-transactions \
  --failover=ledger --json
expect_contains "$(json_field "$out" by_invariant)" never_moved
# A bare --failover on a strategy with no guard apart names --failover=ledger.
expect_exit 2 "$IDEMLAB" explore --strategy select-insert --failover
expect_one_error_line
expect_contains "$err" "--failover=ledger"
# What explore cannot do with it, or what would change nothing: one line each, exit 2.
for bad in "--strategy token --failover=disk" \
  "--strategy token --failover=ledger --topology ledger=standby:reads=standby" \
  "--strategy token --failover=ledger --db postgresql://u@127.0.0.1:1/x" \
  "--strategy token --failover=ledger --topology guards=replica --redis redis://127.0.0.1:1/0" \
  "--strategy select-insert --failover=ledger --topology guards=replica" \
  "--strategy token --topology guards=replica"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$IDEMLAB" explore $bad
  expect_one_error_line
done
expect_exit 0 "$IDEMLAB" explore --strategy token --failover=ledger --topology ledger=standby

# Bad input: one error line, exit 2.
for bad in failover:of=disk failover:sync=maybe; do
  expect_exit 2 "$IDEMLAB" simulate --strategy token --requests 1 --fault "$bad"
  expect_one_error_line
done
expect_exit 2 "$IDEMLAB" simulate --strategy token --requests 1 --fault failover:of=ledger \
  --db postgresql://u@127.0.0.1:1/x
expect_one_error_line
expect_contains "$err" "scripts/servers postgres failover"
finish
