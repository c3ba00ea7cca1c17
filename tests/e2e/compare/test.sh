# e2e: idemlab compare on every built-in scenario. Safe strategies: no money moved twice, no
# request stuck. What the scenario exposes: its failure shows. (retry-new-key is the client's
# bug: every strategy doubles, which the test pins as such.) What a scenario forces on every
# strategy (every_strategy: ledger-failover's lost acknowledged commits) shows in every row.
source "$(dirname "$0")/../lib.sh"
scenarios=$("$IDEMLAB" scenarios --json | python3 -c "import json,sys; print(' '.join(s['name'] for s in json.load(sys.stdin)['scenarios']))")
[ -n "$scenarios" ] || fail "no scenarios listed"
for scenario in $scenarios; do
  "$IDEMLAB" compare --scenario "$scenario" --with-pitfalls --json >"$work/$scenario.json" ||
    { fail "compare --scenario $scenario failed"; continue; }
  "$IDEMLAB" scenarios --json >"$work/list.json"
  python3 - "$work/$scenario.json" "$work/list.json" "$scenario" <<'PY' || fail "$scenario: verdicts"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
scenario = sys.argv[3]
listed = next(s for s in json.load(open(sys.argv[2]))["scenarios"] if s["name"] == scenario)
exposes, forced = listed["exposes"], listed.get("every_strategy", [])
names = {(r["strategy"], r["pitfall"]) for r in rows}
assert len(rows) == 30, f"{len(rows)} rows"  # 9 strategies and 21 (strategy, pitfall) pairs
problems = []
def label(r): return r["strategy"] + (" --pitfall=" + r["pitfall"] if r["pitfall"] else "")
for r in rows:
    for verdict in forced:
        if not r[verdict]: problems.append(f"{label(r)}: every strategy should show {verdict}")
    shown = [v for v in ("moved_twice_or_more", "stuck", "never_moved", "inconsistent_answers")
             if v not in forced and r[v]]
    failed = bool(shown) or r["refused"] > 0
    if label(r) in exposes:
        if not failed: problems.append(f"{label(r)} should show a failure: {r}")
    elif not r["pitfall"] and r["strategy"] != "naive":
        if shown: problems.append(f"safe {label(r)} failed: {r}")
        if not r["audit_ok"]: problems.append(f"safe {label(r)} audit: {r['audit_violations']}")
for r in rows:
    assert r["moved_once"] + r["moved_twice_or_more"] + r["not_moved"] == r["requests"]
if problems:
    print("\n".join(problems)); sys.exit(1)
PY
  checks=$((checks + 1))
done
# The same schedule for everyone: attempts per request do not depend on the strategy when no
# answer changes the client's course.
"$IDEMLAB" compare --scenario response-lost --strategies select-insert,state-machine,naive --json >"$work/same.json"
python3 -c "
import json,sys; rows=json.load(open('$work/same.json'))['rows']
assert len({r['attempts_per_request'] for r in rows}) == 1, rows" || fail "schedules differ between strategies"

"$IDEMLAB" compare --scenario double-click --requests 60 --json >"$work/x1.json"
"$IDEMLAB" compare --scenario double-click --requests 60 --json >"$work/x2.json"
cmp -s "$work/x1.json" "$work/x2.json" || fail "compare is not byte-identical across runs"
expect_exit 0 "$IDEMLAB" compare --scenario double-click --requests 60
expect_contains "$out" "moved 1/2+/0"
expect_contains "$out" "reproduce: idemlab compare"
# The default table and its legend fit 100 columns, with every pitfall's row too, and 80 with
# --width 80 bar the table itself; --wide shows every column.
widest() { printf '%s\n' "$1" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'; }
for extra in "" --with-pitfalls; do
  expect_exit 0 "$IDEMLAB" compare --scenario mixed --requests 60 $extra
  [ "$(widest "$out")" -le 100 ] || fail "compare $extra is $(widest "$out") columns wide"
done
for extra in "" --with-pitfalls; do
  expect_exit 0 "$IDEMLAB" compare --scenario mixed --requests 60 --width 80 $extra
  [ "$(widest "$out")" -le 80 ] || fail "compare --width 80 $extra is $(widest "$out") columns wide"
done
expect_exit 0 "$IDEMLAB" compare --scenario double-click --requests 60 --wide
expect_contains "$out" "twice+"
expect_contains "$out" "delivered/req"
# Colour: red for money moved twice and a failed audit, green for ok; never in a pipe unless
# asked, never in JSON, and columns stay aligned.
esc=$(printf '\033')
expect_exit 0 "$IDEMLAB" compare --scenario double-click --requests 50 --strategies naive,token --color always
expect_contains "$out" "${esc}[31mFAIL${esc}[0m"
expect_contains "$out" "${esc}[32mok${esc}[0m"
[ "$(printf '%s\n' "$out" | sed "s/${esc}\[[0-9]*m//g" | awk 'NR == 2 || NR == 3 { print index($0, "  1.00") }' | sort -u | wc -l)" = 1 ] ||
  fail "coloured rows are not aligned: $out"
for quiet in "--color never" ""; do
  expect_exit 0 "$IDEMLAB" compare --scenario double-click --requests 50 --strategies naive $quiet
  case "$out" in *"$esc"*) fail "colour with '$quiet' into a pipe" ;; esac
done
expect_exit 0 "$IDEMLAB" compare --scenario double-click --requests 50 --strategies naive --color always --json
case "$out" in *"$esc"*) fail "colour in JSON" ;; esac
for command in scenarios faults; do
  expect_exit 0 "$IDEMLAB" $command --width 80
  [ "$(widest "$out")" -le 80 ] || fail "$command is $(widest "$out") columns wide at --width 80"
done
expect_exit 0 "$IDEMLAB" compare --requests 30 --format csv --strategies naive,token
expect_equal "$(printf '%s\n' "$out" | wc -l)" 3 "csv rows"
expect_exit 0 "$IDEMLAB" compare --requests 30 --format md --strategies naive
expect_contains "$out" "| naive | - |"
expect_exit 2 "$IDEMLAB" compare --strategies naive,nope
expect_one_error_line

# Faults placed by phase hit every strategy at the same point of its work: in slow-server and
# mixed the guarded strategies move the same number of requests once, with the same deliveries.
for scenario in slow-server mixed; do
  "$IDEMLAB" compare --scenario "$scenario" --json >"$work/like.json"
  python3 - "$work/like.json" <<'PY' || fail "$scenario: guarded strategies differ"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"] if r["strategy"] != "naive"]
assert len({r["moved_once"] for r in rows}) == 1, [(r["strategy"], r["moved_once"]) for r in rows]
# lock-table is the explained exception (footer, README): a crashed holder keeps its lock row
# until the TTL, so its retries take more deliveries.
alike = [r for r in rows if r["strategy"] != "lock-table"]
spread = max(r["deliveries_per_request"] for r in alike) - min(r["deliveries_per_request"] for r in alike)
assert spread <= 0.05, [(r["strategy"], r["deliveries_per_request"]) for r in rows]
PY
  checks=$((checks + 1))
done

# Exit 0 whatever the rows show; --fail-on violation makes a guarded row's failure exit 7.
expect_exit 0 "$IDEMLAB" compare --scenario retry-new-key --requests 100
expect_exit 7 "$IDEMLAB" compare --scenario retry-new-key --requests 100 --fail-on violation
expect_exit 0 "$IDEMLAB" compare --scenario double-click --requests 100 --with-pitfalls \
  --fail-on violation
expect_exit 0 "$IDEMLAB" simulate --strategy naive --scenario double-click --requests 100 \
  --fail-on violation
expect_exit 7 "$IDEMLAB" simulate --strategy token --scenario retry-new-key --requests 100 \
  --fail-on violation
expect_exit 0 "$IDEMLAB" explore --strategy state-machine --pitfall --fail-on violation
expect_exit 2 "$IDEMLAB" compare --requests 5 --fail-on everything
expect_exit 0 "$IDEMLAB" compare --help
expect_contains "$out" "the run finished, whatever its rows show"

# A plain slow fault lands at one phase for every strategy: the guarded strategies agree on
# attempts per request within 0.05 and on unknown answers within 1% of the requests, or compare
# names the one apart in a note: line. at=critical (each its own step) says so in a note.
fair=(--strategies all --requests 2000 --seed 7 --fault response-lost:p=0.1 --fault slow:p=0.05,ms=400)
"$IDEMLAB" compare "${fair[@]}" --json >"$work/fair.json" || fail "compare with a plain slow fault"
python3 - "$work/fair.json" <<'PY' || fail "a plain slow fault is not fair to every strategy"
import json, sys
answer = json.load(open(sys.argv[1]))
rows = [r for r in answer["rows"] if not r["pitfall"] and r["strategy"] != "naive"]
assert len(rows) == 8, rows
attempts = [r["attempts_per_request"] for r in rows]
unknown = [r["unknown_to_client"] for r in rows]
inside = max(attempts) - min(attempts) <= 0.05 + 1e-9 and max(unknown) - min(unknown) <= 20
# Every strategy outside the band is named in a note that says why.
for r in rows:
    apart = abs(r["attempts_per_request"] - sorted(attempts)[4]) > 0.025 + 1e-9
    if not inside and apart:
        assert any(n.startswith("note:") and f" {r['strategy']} " in n for n in answer["notes"]), r
print(attempts, unknown, answer["notes"])
PY
expect_exit 0 "$IDEMLAB" compare "${fair[@]/ms=400/ms=400,at=critical}" --width 300
expect_contains "$out" "note: fault slow:p=0.05,ms=400,at=critical lands at each strategy's own"
expect_contains "$out" "'insert_flow' in direct-insert, select-for-update"
expect_exit 0 "$IDEMLAB" compare "${fair[@]/ms=400/ms=400,at=holding-guard}" --width 300
expect_contains "$out" "note: outside the band the guarded strategies share"
expect_contains "$out" "lock-table 1.48 attempts, 10 unknown"

# The README's demo: each note is the few lines a reader needs (rows grouped by strategy); the
# JSON keeps every row named.
expect_exit 0 "$IDEMLAB" compare --scenario double-click --with-pitfalls
longest=$(printf '%s\n' "$out" | awk '/^(note|finding):/ {n = 1; if (n > m) m = n; next}
  /^reproduce:/ {n = 0} n {n++; if (n > m) m = n} END {print m + 0}')
[ "$longest" -le 4 ] || fail "a note of $longest lines: $out"
checks=$((checks + 1))
expect_exit 0 "$IDEMLAB" compare --scenario double-click --with-pitfalls --width 300
expect_contains "$out" "'upsert_flow' in direct-insert --pitfall=upsert-carries-on"
expect_exit 0 "$IDEMLAB" compare --scenario double-click --with-pitfalls --json
expect_contains "$out" "before 'begin' in select-insert, select-insert --pitfall=no-unique-index"
finish
