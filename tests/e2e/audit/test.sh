# e2e: idemlab audit finds each kind of damage and passes a clean ledger.
source "$(dirname "$0")/../lib.sh"
db=$work/l.db
"$IDEMLAB" init --db "$db" >/dev/null
expect_exit 0 "$IDEMLAB" audit --db "$db" --json
expect_equal "$out" '{"ok":true,"violations":[],"warnings":[],"requests_applied":0,"times_money_moved":0,"journal_entries":0,"guards":[]}' "clean json"
"$IDEMLAB" select-insert --db "$db" --biz-seq a1 --from alice --to bob --amount 3 >/dev/null
expect_exit 0 "$IDEMLAB" audit --db "$db"
expect_contains "$out" "ok: 1 transfer applied, 2 journal entries"

"$IDEMLAB" naive --db "$db" --biz-seq n1 --from alice --to bob --amount 3 >/dev/null
"$IDEMLAB" naive --db "$db" --biz-seq n1 --from alice --to bob --amount 3 >/dev/null
expect_exit 7 "$IDEMLAB" audit --db "$db" --json
expect_equal "$(json_field "$out" ok)" false "ok after a double"
expect_contains "$out" '"kind":"applied_more_than_once","source":"api","biz_seq":"n1","detail":"biz_seq n1 moved money 2 times"'
expect_contains "$out" '"requests_applied":2,"times_money_moved":3'
expect_one_error_line

"$IDEMLAB" init --db "$db" --force >/dev/null
sqlite3 "$db" "UPDATE account SET balance_minor = balance_minor + 100 WHERE name = 'bob'"
expect_exit 7 "$IDEMLAB" audit --db "$db"
expect_contains "$out" money_not_conserved
expect_contains "$out" balance_disagrees_with_journal

# Where tokens and locks lived: here, in the ledger (Redis: e2e: redis).
"$IDEMLAB" init --db "$db" --force >/dev/null
token=$("$IDEMLAB" token issue --db "$db")
"$IDEMLAB" token --db "$db" --token "$token" --biz-seq g1 --from alice --to bob --amount 1 >/dev/null
"$IDEMLAB" naive --db "$db" --biz-seq g2 --from alice --to bob --amount 1 >/dev/null
expect_exit 0 "$IDEMLAB" audit --db "$db"
expect_contains "$out" "tokens and locks lived in: the ledger (token: 1 request)"
expect_exit 0 "$IDEMLAB" audit --db "$db" --json
expect_contains "$out" '"guards":[{"place":"ledger","strategy":"token","requests":1}]'

# --answers: what clients were told. An attempt that ended in an error (here its server was not
# there; an attempt cut by a failover answers so too, with 75) names its request under --json,
# and the audit counts it as unknown, goes on, and says how many answers it read.
expect_exit 8 "$IDEMLAB" select-insert --db "postgresql://u:p@127.0.0.1:1/x" --biz-seq g3 \
  --from alice --to bob --amount 1 --json
expect_contains "$out" '"source":"api","biz_seq":"g3"'
printf '%s\n' "$out" >"$work/told.jsonl"
expect_exit 0 "$IDEMLAB" naive --db "$db" --biz-seq g4 --from alice --to bob --amount 1 --json
printf '%s\n{"error":{"code":"retryable","exit":75,"message":"cut"}}\n' "$out" >>"$work/told.jsonl"
expect_exit 0 "$IDEMLAB" audit --db "$db" --answers "$work/told.jsonl"
expect_contains "$out" "answers: 3 read; 1 told applied, held against the journal; 2 unknown"
expect_exit 0 "$IDEMLAB" audit --db "$db" --answers "$work/told.jsonl" --json
expect_contains "$out" '"answers":{"read":3,"told_applied":1,"unknown":2}'

expect_exit 8 "$IDEMLAB" audit --db "$work/missing.db"
expect_one_error_line
finish
