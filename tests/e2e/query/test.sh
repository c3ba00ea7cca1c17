# e2e: idemlab query tells a client what became of its request before it retries.
source "$(dirname "$0")/../lib.sh"
db=$work/l.db
"$IDEMLAB" init --db "$db" --account alice=10.00 --account bob=0 >/dev/null
expect_exit 9 "$IDEMLAB" query --db "$db" --biz-seq q1
expect_one_error_line
expect_contains "$err" "not_found"
expect_exit 0 "$IDEMLAB" state-machine --db "$db" --biz-seq q1 --from alice --to bob --amount 1
expect_exit 0 "$IDEMLAB" query --db "$db" --biz-seq q1 --json
expect_equal "$(json_field "$out" state)" succeeded "query after the transfer"
expect_equal "$(json_field "$out" strategy)" state-machine "who served it"
expect_exit 3 "$IDEMLAB" state-machine --db "$db" --biz-seq q2 --from alice --to bob --amount 100
expect_exit 3 "$IDEMLAB" query --db "$db" --biz-seq q2 --json
expect_equal "$(json_field "$out" state)" failed "query after a rejection"
expect_equal "$(json_field "$out" reason)" insufficient_funds "why it failed"
# A crash between the dedup row and the work leaves the request under way for good.
expect_exit 137 "$IDEMLAB" dedup-table --db "$db" --biz-seq q3 --from alice --to bob --amount 1 \
  --pitfall --fault crash:after=insert_dedup
expect_exit 5 "$IDEMLAB" query --db "$db" --biz-seq q3
expect_contains "$err" "processing"
# A lost response: the money moved, and the query says so, so the client need not retry.
expect_exit 75 "$IDEMLAB" naive --db "$db" --biz-seq q4 --from alice --to bob --amount 1 \
  --fault response-lost
expect_exit 0 "$IDEMLAB" query --db "$db" --biz-seq q4
expect_contains "$out" "succeeded"
before=$(digest "$db")
expect_exit 2 "$IDEMLAB" query --db "$db" --biz-seq "--json"
expect_exit 2 "$IDEMLAB" query --db "$db"
expect_exit 8 "$IDEMLAB" query --db "$work/missing.db" --biz-seq q1
expect_equal "$(digest "$db")" "$before" "query writes nothing"
integrity_ok "$db"
# A request is its source and biz_seq: not_found names the sources that do hold the biz_seq.
expect_exit 0 "$IDEMLAB" http --db "$db" POST /transfers --idempotency-key via-http \
  --data 'from=alice&to=bob&amount=1'
expect_exit 9 "$IDEMLAB" query --db "$db" --biz-seq via-http
expect_one_error_line
expect_contains "$err" "source http holds a request via-http: --source http"
expect_exit 9 "$IDEMLAB" query --db "$db" --biz-seq via-http --json
expect_equal "$(json_field "$out" other_sources)" '["http"]' "other sources"
expect_exit 0 "$IDEMLAB" query --db "$db" --biz-seq via-http --source http
finish
