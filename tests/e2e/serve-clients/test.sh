# e2e: real HTTP clients retrying POST after lost answers (serve --fault response-lost:p=0.3,
# seeded): curl --retry --retry-all-errors and Python requests with urllib3's Retry allowing
# POST. Without an Idempotency-Key money moves more than once per request; with one, once.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../serve_lib.sh"
here=$(dirname "$0")
requests=20
debits() { sqlite3 "$1" "SELECT count(*) FROM journal WHERE side = 'debit' AND account = '$2'"; }

# curl, one request per process, as a script runs it.
db=$work/curl.db
expect_exit 0 "$IDEMLAB" init --db "$db"
start_serve --db "$db" --strategy dedup-table --fault response-lost:p=0.3 --seed 3
for n in $(seq 1 $requests); do
  curl -s -o /dev/null --retry 10 --retry-all-errors --retry-delay 0 -d 'from=alice&to=bob&amount=1.00' "$base/transfers"
  curl -s -o /dev/null --retry 10 --retry-all-errors --retry-delay 0 -H "Idempotency-Key: c-$n" \
    -d 'from=carol&to=bob&amount=1.00' "$base/transfers"
done
lost=$(grep -c 'fault response-lost' "$serve_log")
[ "$lost" -gt 0 ] || fail "curl: no answer was lost"
[ "$(debits "$db" alice)" -gt $requests ] || fail "curl without a key: money moved $(debits "$db" alice) times for $requests requests"
expect_equal "$(debits "$db" carol)" $requests "curl with a key: once per request"
stop_serve
expect_exit 0 "$IDEMLAB" audit --db "$db"

# Python requests with urllib3's Retry(allowed_methods=None).
db=$work/requests.db
expect_exit 0 "$IDEMLAB" init --db "$db"
start_serve --db "$db" --strategy state-machine --fault response-lost:p=0.3 --seed 5
/usr/bin/python3 "$here/retrying_client.py" "$base" $requests - >"$work/plain.out" 2>&1 ||
  fail "requests without a key: $(cat "$work/plain.out")"
[ "$(debits "$db" alice)" -gt $requests ] || fail "requests without a key: money moved $(debits "$db" alice) times for $requests requests"
before=$(debits "$db" alice)
/usr/bin/python3 "$here/retrying_client.py" "$base" $requests r >"$work/keyed.out" 2>&1 ||
  fail "requests with a key: $(cat "$work/keyed.out")"
expect_equal "$(( $(debits "$db" alice) - before ))" $requests "requests with a key: once per request"
expect_equal "$(tr ' ' '\n' <"$work/keyed.out" | sort -u | tr -d '\n')" 201 "requests: every request answered 201"
[ "$(grep -c 'fault response-lost' "$serve_log")" -gt 0 ] || fail "requests: no answer was lost"
stop_serve
expect_exit 0 "$IDEMLAB" audit --db "$db"
finish
