# e2e: idemlab http, answered by serve's own handler. GET changes nothing; PUT and DELETE
# repeated leave one state; POST repeated creates a second transfer unless an Idempotency-Key
# names it, and then the first status and body come back; exit codes from the one table.
source "$(dirname "$0")/../lib.sh"
db=$work/h.db
expect_exit 0 "$IDEMLAB" init --db "$db"
before=$(digest "$db")
expect_exit 0 "$IDEMLAB" http --db "$db" GET /accounts/alice
expect_equal "$out" $'200 OK\n{"account":"alice","balance":"1000.00","limit":null}' "GET"
expect_equal "$(digest "$db")" "$before" "GET changed nothing"

expect_exit 75 "$IDEMLAB" http --db "$db" PUT /accounts/alice/limit --data amount=50.00 --fault response-lost
expect_one_error_line
expect_exit 0 "$IDEMLAB" http --db "$db" PUT /accounts/alice/limit --data amount=50.00 --json
expect_equal "$out" '{"status":200,"headers":{"Content-Type":"application/json"},"body":{"account":"alice","limit":"50.00","was":"50.00"}}' "PUT repeated"
expect_exit 0 "$IDEMLAB" http --db "$db" DELETE /accounts/alice/limit
expect_equal "$out" "204 No Content" "DELETE"
expect_exit 9 "$IDEMLAB" http --db "$db" DELETE /accounts/alice/limit
expect_one_error_line
expect_contains "$err" "404 Not Found"
expect_equal "$(sqlite3 "$db" "SELECT count(*) FROM account_limit")" 0 "DELETE repeated: same state"

# POST without a key: two transfers, each its own request, so the audit cannot object.
body='from=alice&to=bob&amount=10.00'
expect_exit 75 "$IDEMLAB" http --db "$db" POST /transfers --data "$body" --fault response-lost
expect_exit 0 "$IDEMLAB" http --db "$db" POST /transfers --data "$body"
expect_contains "$out" "201 Created"
expect_contains "$out" "Location: /transfers/auto-"
expect_equal "$(sqlite3 "$db" "SELECT balance_minor FROM account WHERE name = 'alice'")" 98000 "two POSTs, two transfers"
expect_exit 0 "$IDEMLAB" audit --db "$db"

# POST with a key: the retry is a replay.
expect_exit 75 "$IDEMLAB" http --db "$db" POST /transfers --data "$body" --idempotency-key k1 --fault response-lost
expect_exit 0 "$IDEMLAB" http --db "$db" POST /transfers --data "$body" --idempotency-key k1
expect_contains "$out" "201 Created"  # the first status again, as serve answers a replay
expect_contains "$out" "Idempotent-Replayed: true"
expect_contains "$out" '"id":"k1","from":"alice","to":"bob","amount":"10.00","outcome":"applied"'
expect_exit 0 "$IDEMLAB" http --db "$db" POST /transfers --data '{"from":"alice","to":"bob","amount":10.00}' --idempotency-key k1
expect_contains "$out" "Idempotent-Replayed: true"  # a JSON body: the same request
expect_equal "$(pairs "$db" k1)" 1 "k1 moved once"
expect_equal "$(sqlite3 "$db" "SELECT balance_minor FROM account WHERE name = 'alice'")" 97000 "keyed POST moved once"
expect_exit 0 "$IDEMLAB" http --db "$db" GET /transfers/k1 --json
expect_equal "$out" '{"status":200,"headers":{"Content-Type":"application/json"},"body":{"id":"k1","state":"succeeded"}}' "GET transfer"
expect_exit 0 "$IDEMLAB" http --db "$db" HEAD /transfers/k1
expect_equal "$out" "200 OK" "HEAD: the status, no body"
expect_exit 0 "$IDEMLAB" http --db "$db" GET /accounts
expect_contains "$out" '{"accounts":[{"account":"alice","balance":"970.00"},{"account":"bob"' 
expect_exit 4 "$IDEMLAB" http --db "$db" POST /transfers --data 'from=alice&to=bob&amount=11.00' --idempotency-key k1
expect_one_error_line
expect_exit 3 "$IDEMLAB" http --db "$db" POST /transfers --data 'from=alice&to=bob&amount=5000.00'
expect_contains "$err" "insufficient_funds"

# Bad requests: one error line, a documented code, nothing changed.
before=$(digest "$db")
expect_exit 9 "$IDEMLAB" http --db "$db" GET /nowhere
expect_exit 9 "$IDEMLAB" http --db "$db" GET /accounts/zed
expect_exit 9 "$IDEMLAB" http --db "$db" GET /transfers/nope
expect_exit 2 "$IDEMLAB" http --db "$db" POST /accounts/alice
expect_one_error_line
expect_contains "$err" "405 Method Not Allowed"
expect_exit 2 "$IDEMLAB" http --db "$db" PUT /accounts/alice/limit
expect_exit 2 "$IDEMLAB" http --db "$db" PUT /accounts/alice/limit --data amount=abc
expect_exit 2 "$IDEMLAB" http --db "$db" POST /transfers --data 'from=alice&amount=1'
expect_exit 2 "$IDEMLAB" http --db "$db" POST /transfers --data 'junk'
expect_exit 2 "$IDEMLAB" http --db "$db" GET accounts/alice
expect_exit 2 "$IDEMLAB" http --db "$db" PUT /accounts/alice/limit --data amount=1 --fault crash:after=debit
expect_exit 2 "$IDEMLAB" http --db "$db" POST /transfers --data "$body" --idempotency-key 'a b'
expect_contains "$err" "--idempotency-key 'a b'"
expect_exit 2 "$IDEMLAB" http --db "$db" POST /transfers --data "$body" --idempotency-key ''
expect_contains "$err" "--idempotency-key is empty"
expect_exit 2 "$IDEMLAB" http --db "$db" POST /transfers --data 'from=alice&to=bob&amount=1e2'
expect_contains "$err" "invalid amount '1e2'"
expect_exit 2 "$IDEMLAB" http --db "$db" POST /transfers --data '{"from":"alice","to":"bob","amount":1e2}'
expect_contains "$err" "invalid amount '1e2'"
expect_exit 2 "$IDEMLAB" http --db "$db" POST /transfers --data 'from=alice&to=bob&amount=1' --fault request-lost --fault response-lost
expect_equal "$(digest "$db")" "$before" "bad requests changed nothing"
expect_exit 0 "$IDEMLAB" audit --db "$db"
integrity_ok "$db"
finish
