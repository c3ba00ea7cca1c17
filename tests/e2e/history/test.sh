# e2e: idemlab history lists attempts and their answers.
source "$(dirname "$0")/../lib.sh"
db=$work/l.db
"$IDEMLAB" init --db "$db" >/dev/null
"$IDEMLAB" state-machine --db "$db" --biz-seq h1 --from alice --to bob --amount 1 --fault response-lost 2>/dev/null
"$IDEMLAB" state-machine --db "$db" --biz-seq h1 --from alice --to bob --amount 1 >/dev/null
"$IDEMLAB" naive --db "$db" --biz-seq h2 --from alice --to bob --amount 1 >/dev/null
"$IDEMLAB" naive --db "$db" --biz-seq h2 --from alice --to nobody --amount 1 2>/dev/null
expect_exit 0 "$IDEMLAB" history --db "$db" --biz-seq h1 --json
expect_equal "$(printf '%s' "$out" | python3 -c 'import json,sys; print([(a["outcome"], a["replayed"], a["fault"]) for a in json.load(sys.stdin)["attempts"]])')" \
  "[('applied', False, 'response-lost'), ('applied', True, None)]" "attempts of h1"
expect_exit 0 "$IDEMLAB" history --db "$db"
expect_contains "$out" "h2"
expect_contains "$out" "state-machine"
expect_equal "$(sqlite3 "$db" 'SELECT count(*) FROM attempt')" 3 "bad input is not logged"
expect_exit 0 "$IDEMLAB" history --db "$db" --limit 1 --json
expect_equal "$(printf '%s' "$out" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["attempts"]))')" 1 "limit"
total=$(json_field "$out" total)
[ "$total" -gt 1 ] || fail "history --json counts every attempt, not the shown: $total"
expect_equal "$(json_field "$out" left_out)" $((total - 1)) "attempts left out"
expect_exit 0 "$IDEMLAB" history --db "$db" --limit 1
expect_contains "$out" "the newest 1 of $total attempts; $((total - 1)) older left out"
expect_exit 2 "$IDEMLAB" history --db "$db" --biz-seq ""

# One commit per applied attempt: its history row is committed with the money. Held at a gate
# right after that commit, before it answers, the attempt's row is there already; a crash
# there leaves exactly that row. An attempt that commits nothing (a repeat) writes its row alone.
mkdir "$work/gate"
"$IDEMLAB" naive --db "$db" --biz-seq h3 --from alice --to bob --amount 1 \
  --fault "slow:at=after-commit,gate=$work/gate,ms=120000" >/dev/null 2>&1 &
held=$!
wait_at_gate "$work/gate" "$held"
expect_equal "$(sqlite3 "$db" "SELECT outcome FROM attempt WHERE biz_seq = 'h3'")" applied \
  "the row, committed with the money, before the answer"
touch "$work/gate/open"
wait "$held"; expect_equal "$?" 0 "the held attempt answered"
expect_equal "$(sqlite3 "$db" "SELECT count(*) FROM attempt WHERE biz_seq = 'h3'")" 1 \
  "one row for the held attempt"
expect_exit 137 "$IDEMLAB" select-insert --db "$db" --biz-seq h4 --from alice --to bob \
  --amount 1 --fault crash:after=after-commit
expect_equal "$(sqlite3 "$db" "SELECT outcome || ' ' || fault FROM attempt WHERE biz_seq = 'h4'")" \
  "applied crash:after=after-commit" "a crash after the commit: its one row"
expect_exit 0 "$IDEMLAB" select-insert --db "$db" --biz-seq h4 --from alice --to bob --amount 1
expect_equal "$(sqlite3 "$db" "SELECT count(*) FROM attempt WHERE biz_seq = 'h4'")" 2 \
  "the repeat's row, alone"
finish
